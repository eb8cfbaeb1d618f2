/* Options as data: the generic parser, checks, messages and printers (see opts.h). */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "ble_model.h"
#include "opts.h"

/* Help text is wrapped to this width, descriptions start at this column. */
#define HELP_WIDTH CLI_WRAP_WIDTH
#define HELP_COLUMN 25

int cli_opt_set(const struct cli_opt *o, void *base, const char *cmd, const char *v)
{
    struct cli_msg msg;
    int rc = cli_opt_set_msg(o, base, v, &msg);
    if (rc == -1) {
        cli_usage_error(cmd, "%s", msg.text);
    }
    return rc == 0 ? 0 : -1;
}

int cli_opt_take(const struct cli_opt_table *t, void *base, const char *cmd, int argc,
                 char **argv, int *i)
{
    return cli_opt_take_only(t, NULL, base, cmd, argc, argv, i);
}

int cli_opt_take_only(const struct cli_opt_table *t, const char *const *only, void *base,
                      const char *cmd, int argc, char **argv, int *i)
{
    const struct cli_opt *o = cli_opt_find(t, argv[*i]);
    if (o == NULL || !cli_opt_listed(only, o->name)) {
        return 0;
    }
    if (o->kind == CLI_OPT_FLAG) {
        return cli_opt_store(o, base, NULL) == 0 ? 1 : -1;
    }
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "%s needs a value", o->name);
        return -1;
    }
    if (cli_opt_set(o, base, cmd, argv[*i + 1]) != 0) {
        return -1;
    }
    ++*i;
    return 1;
}

int cli_opt_parse_all(const struct cli_opt_table *t, void *base, const char *cmd, int argc,
                      char **argv, int first)
{
    int i;
    for (i = first; i < argc; i++) {
        int rc = cli_opt_take(t, base, cmd, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            struct cli_suggest s;
            size_t k;
            cli_suggest_init(&s, argv[i]);
            for (k = 0; k < t->n; k++) {
                cli_suggest_add(&s, t->opts[k].name);
            }
            cli_suggest_add(&s, "--help");
            return cli_usage_error(cmd, "unknown option '%s'%s", argv[i], cli_suggest_text(&s));
        }
    }
    return EXIT_OK;
}

int cli_opt_take_any(const struct cli_opt_bind *b, size_t n, const char *cmd, int argc,
                     char **argv, int *i)
{
    size_t k;
    int rc = 0;
    for (k = 0; k < n && rc == 0; k++) {
        rc = cli_opt_take_only(b[k].t, b[k].only, b[k].base, cmd, argc, argv, i);
    }
    return rc;
}

/* Whether help lists what o allows: not for a flag or free text, nor for words that
 * help already shows as the value ("1M|2M|S2|S8"). */
static int shows_allowed(const struct cli_opt *o)
{
    if (o->kind == CLI_OPT_FLAG || o->kind == CLI_OPT_TEXT) {
        return o->allowed != NULL || o->words != NULL || o->words_fn != NULL;
    }
    return !(o->kind == CLI_OPT_WORD && o->meta == NULL && o->allowed == NULL);
}

void cli_opt_names_with_words(FILE *out, const struct cli_opt_table *const *tables, size_t n,
                              const char *before, const char *after)
{
    char buf[CLI_ALLOWED_MAX * 2];
    struct cli_text t = cli_text_in(buf, sizeof buf);
    size_t k, e;
    int count = 0;
    cli_text_add(&t, before);
    for (k = 0; k < n; k++) {
        for (e = 0; e < tables[k]->n; e++) {
            const struct cli_opt *o = &tables[k]->opts[e];
            if ((o->words != NULL || o->words_fn != NULL) && strcmp(o->name, "--link") != 0) {
                cli_text_add(&t, count++ > 0 ? ", " : "");
                cli_text_add(&t, o->name);
            }
        }
    }
    cli_text_add(&t, after);
    cli_wrap(out, buf, 0, 0);
    fputc('\n', out);
}

/* The description of o as help prints it: help, then in parentheses what is allowed and
 * the default. */
static const char *describe(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX * 2])
{
    char allowed[CLI_ALLOWED_MAX];
    const char *value = cli_opt_default(o), *note = cli_opt_default_note(o);
    int given = value != NULL || note != NULL;
    struct cli_text t = cli_text_in(buf, CLI_ALLOWED_MAX * 2);
    cli_text_add(&t, o->help);
    if (shows_allowed(o)) {
        cli_text_add(&t, " (");
        cli_text_add(&t, cli_opt_allowed(o, allowed));
        cli_text_add(&t, given ? "; " : ")");
    } else if (given) {
        cli_text_add(&t, " (");
    }
    if (given) {
        cli_text_add(&t, value != NULL ? "default " : "default: ");
        cli_text_add(&t, value != NULL ? value : note);
        cli_text_add(&t, ")");
    }
    return buf;
}

static void help_entry(FILE *out, const struct cli_opt *o)
{
    char meta[CLI_ALLOWED_MAX], desc[CLI_ALLOWED_MAX * 2];
    int n = fprintf(out, "  %s%s%s", o->name, o->kind == CLI_OPT_FLAG ? "" : " ",
                    cli_opt_meta(o, meta));
    size_t col = n < 0 ? 0 : (size_t)n;
    if (col + 2 <= HELP_COLUMN) {
        fprintf(out, "%*s", (int)(HELP_COLUMN - col), "");
        col = HELP_COLUMN;
    } else {
        fputs("  ", out);
        col += 2;
    }
    cli_wrap(out, describe(o, desc), col, HELP_COLUMN);
    fputc('\n', out);
}

void cli_opt_table_help(FILE *out, const struct cli_opt_table *t)
{
    if (t->title != NULL) {
        fprintf(out, "%s:\n", t->title);
    }
    cli_opt_rows_help(out, t);
}

void cli_opt_rows_help(FILE *out, const struct cli_opt_table *t)
{
    cli_opt_rows_help_only(out, t, NULL);
}

void cli_opt_rows_help_only(FILE *out, const struct cli_opt_table *t, const char *const *only)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        if (cli_opt_listed(only, t->opts[k].name)) {
            help_entry(out, &t->opts[k]);
        }
    }
}

/* ---- machine-readable and Markdown ---- */

static const char *const kind_names[] = {"flag", "uint", "int", "number", "word", "text"};

void cli_json_string_or_null(FILE *out, const char *s)
{
    if (s == NULL) {
        fputs("null", out);
    } else {
        model_json_string(out, s);
    }
}

/* Words as JSON array members. */
struct json_words {
    FILE *out;
    int n;
};

static void json_word(void *ctx, const char *word)
{
    struct json_words *j = ctx;
    fputs(j->n++ > 0 ? ", " : "", j->out);
    model_json_string(j->out, word);
}

static void json_bound(FILE *out, const struct cli_opt *o, double x)
{
    char buf[CLI_ALLOWED_MAX];
    struct cli_text t = cli_text_in(buf, sizeof buf);
    if (o->kind != CLI_OPT_UINT && o->kind != CLI_OPT_INT && o->kind != CLI_OPT_NUMBER) {
        fputs("null", out);
        return;
    }
    cli_text_add_number(&t, x);
    fputs(buf, out);
}

static void json_entry(FILE *out, const struct cli_opt *o, const char *indent)
{
    char buf[CLI_ALLOWED_MAX];
    struct json_words j;
    fprintf(out, "%s{\"name\": ", indent);
    model_json_string(out, o->name);
    fprintf(out, ", \"kind\": \"%s\", \"meta\": ", kind_names[o->kind]);
    model_json_string(out, cli_opt_meta(o, buf));
    fputs(", \"unit\": ", out);
    cli_json_string_or_null(out, o->unit);
    fputs(", \"min\": ", out);
    json_bound(out, o, o->min);
    fputs(", \"max\": ", out);
    json_bound(out, o, o->max);
    fputs(", \"words\": ", out);
    j.out = out;
    j.n = 0;
    if (o->words != NULL || o->words_fn != NULL) {
        fputc('[', out);
        cli_opt_words(o, json_word, &j);
        fputc(']', out);
    } else {
        fputs("null", out);
    }
    fprintf(out, ", \"open\": %s, \"words_only\": %s, \"default\": ", o->open ? "true" : "false",
            o->kind == CLI_OPT_WORD ? "true" : "false");
    cli_json_string_or_null(out, cli_opt_default(o));
    fputs(", \"default_note\": ", out);
    cli_json_string_or_null(out, cli_opt_default_note(o));
    fputs(", \"help\": ", out);
    model_json_string(out, o->help);
    fputs(", \"allowed\": ", out);
    model_json_string(out, cli_opt_allowed(o, buf));
    fputc('}', out);
}

void cli_opt_table_json(FILE *out, const struct cli_opt_table *t, const char *const *only,
                        const char *const *except, const char *indent)
{
    size_t k, last = t->n;
    while (last > 0 && !cli_opt_taken(only, except, t->opts[last - 1].name)) {
        last--;
    }
    fprintf(out, "%s{\"id\": \"%s\", \"title\": ", indent, t->id);
    cli_json_string_or_null(out, t->title);
    fputs(", \"options\": [\n", out);
    for (k = 0; k < last; k++) {
        char inner[32];
        if (!cli_opt_taken(only, except, t->opts[k].name)) {
            continue;
        }
        snprintf(inner, sizeof inner, "%s  ", indent);
        json_entry(out, &t->opts[k], inner);
        fputs(k + 1 < last ? ",\n" : "\n", out);
    }
    fprintf(out, "%s]}", indent);
}

void cli_md_cell(FILE *out, const char *s)
{
    for (; *s != '\0'; s++) {
        if (*s == '|') {
            fputc('\\', out);
        }
        fputc(*s, out);
    }
}

void cli_opt_md_header(FILE *out)
{
    fputs("| option | meaning | values | default |\n|---|---|---|---|\n", out);
}

/* Whether name is an item of the comma-separated list csv (NULL: every name is). */
static int csv_has(const char *csv, const char *name)
{
    size_t n = strlen(name);
    const char *p = csv;
    if (csv == NULL) {
        return 1;
    }
    while ((p = strstr(p, name)) != NULL) {
        if ((p == csv || p[-1] == ',') && (p[n] == ',' || p[n] == '\0')) {
            return 1;
        }
        p += n;
    }
    return 0;
}

void cli_opt_table_md(FILE *out, const struct cli_opt_table *t, const char *only_csv,
                      const char *const *only, const char *const *except)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        const struct cli_opt *o = &t->opts[k];
        char buf[CLI_ALLOWED_MAX];
        if (!csv_has(only_csv, o->name) || !cli_opt_taken(only, except, o->name)) {
            continue;
        }
        fputs("| `", out);
        cli_md_cell(out, o->name);
        if (o->kind != CLI_OPT_FLAG) {
            fputc(' ', out);
            cli_md_cell(out, cli_opt_meta(o, buf));
        }
        fputs("` | ", out);
        cli_md_cell(out, o->help);
        fputs(" | ", out);
        cli_md_cell(out, shows_allowed(o) ? cli_opt_allowed(o, buf) : "");
        fputs(" | ", out);
        cli_md_cell(out, cli_opt_default(o) != NULL        ? cli_opt_default(o)
                     : cli_opt_default_note(o) != NULL ? cli_opt_default_note(o)
                                                       : "");
        fputs(" |\n", out);
    }
}

int cli_request_add(struct pqpan_run_opt *req, size_t *n, const struct cli_opt *o,
                    const char *cmd, int argc, char **argv, int *i)
{
    if (o->kind != CLI_OPT_FLAG && *i + 1 >= argc) {
        return cli_usage_error(cmd, "%s needs a value", o->name);
    }
    if (*n == CLI_REQUEST_MAX) {
        return cli_usage_error(cmd, "more than %d options", CLI_REQUEST_MAX);
    }
    req[*n].name = argv[*i];
    req[*n].value = o->kind == CLI_OPT_FLAG ? NULL : argv[++*i];
    ++*n;
    return EXIT_OK;
}

enum cli_format cli_request_format(const struct pqpan_run_opt *req, size_t n)
{
    const struct cli_opt *o = cli_opt_find(&cli_format_table, "--format");
    enum cli_format f = FORMAT_TABLE;
    size_t k;
    for (k = 0; k < n; k++) {
        if (strcmp(req[k].name, o->name) == 0) {
            (void)cli_opt_store(o, &f, req[k].value);
        }
    }
    return f;
}

void cli_print_text_row(const char *cmd, enum cli_format format, const struct pqpan_run_row *row)
{
    const char *text = row->values[0].text;
    if (row->record == PQPAN_RUN_RECORD_NOTE && format == FORMAT_TABLE) {
        printf("%s\n", text);
    } else if (row->record == PQPAN_RUN_RECORD_MEMBERS && format == FORMAT_JSON) {
        printf("{\n%s", text);
    } else if (row->record == PQPAN_RUN_RECORD_WARNING) {
        cli_warn(cmd, "%s", text);
    }
}

int cli_run_status(const char *cmd, int code, const struct pqpan_run_error *err)
{
    int rc = pqpan_run_exit_status(code);
    if (rc == EXIT_USAGE) {
        return cli_usage_error(cmd, "%s", err->message);
    }
    if (rc != EXIT_OK) {
        fprintf(stderr, "pqpan %s: %s\n", cmd, err->message);
    }
    return rc;
}
