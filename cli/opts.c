/* Options as data: the generic parser, checks, messages and printers (see opts.h). */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "ble_model.h"
#include "opts.h"

/* Help text is wrapped to this width, descriptions start at this column. */
#define HELP_WIDTH 92
#define HELP_COLUMN 25

const char *cli_opt_default(const struct cli_opt *o)
{
    return pqpan_default_value(o->def);
}

const char *cli_opt_default_note(const struct cli_opt *o)
{
    const struct pqpan_default *d = pqpan_default_get(o->def);
    return d != NULL ? d->note : NULL;
}

const struct cli_opt *cli_opt_find(const struct cli_opt_table *t, const char *name)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        if (strcmp(t->opts[k].name, name) == 0) {
            return &t->opts[k];
        }
    }
    return NULL;
}

int cli_opt_words(const struct cli_opt *o, cli_word_fn add, void *ctx)
{
    if (o->words != NULL) {
        cli_words_each(o->words, add, ctx);
        return 1;
    }
    if (o->words_fn != NULL) {
        o->words_fn(add, ctx);
        return 1;
    }
    return 0;
}

int cli_opt_table_words(const struct cli_opt_table *t, const char *name, cli_word_fn add,
                        void *ctx)
{
    const struct cli_opt *o = cli_opt_find(t, name);
    return o != NULL && cli_opt_words(o, add, ctx);
}

/* Finds a word's index while the words are listed (ignoring case), and respells the value
 * as that word while it is at hand (a words function may list them from a buffer of its
 * own). */
struct word_search {
    char *want;
    int at, found;
};

static void search_word(void *ctx, const char *word)
{
    struct word_search *s = ctx;
    if (s->found < 0 && cli_word_equal(word, s->want)) {
        s->found = s->at;
        cli_word_respell(s->want, word);
    }
    s->at++;
}

/* v's index among o's words, v rewritten to the word's spelling (v is argv's, or a copy of
 * it: writable whenever it is not the word already); -1 if it is none of them. */
static int word_index(const struct cli_opt *o, const char *v)
{
    struct word_search s;
    s.want = (char *)v;
    s.at = 0;
    s.found = -1;
    cli_opt_words(o, search_word, &s);
    return s.found;
}

/* The largest value a UINT option's double bound stands for. */
static unsigned long long uint_bound(double x)
{
    return x >= (double)ULLONG_MAX ? ULLONG_MAX : (unsigned long long)x;
}

static int parse_int(const char *v, double min, double max, long long *out)
{
    unsigned long long u;
    int neg = v[0] == '-';
    if (cli_parse_uint(v + neg, 0, neg ? (unsigned long long)-min : (unsigned long long)max,
                       &u) != 0 ||
        (neg && min >= 0.0)) {
        return -1;
    }
    *out = neg ? -(long long)u : (long long)u;
    return *out >= (long long)min ? 0 : -1;
}

/* v checked against o's kind and stored as o->store says. 0 or -1. */
static int store_value(const struct cli_opt *o, char *field, const char *v)
{
    unsigned long long u = 0;
    long long s = 0;
    double d = 0.0;
    int k = 0;
    switch (o->kind) {
    case CLI_OPT_FLAG:
        k = 1;
        break;
    case CLI_OPT_UINT:
        if (cli_parse_uint(v, uint_bound(o->min), uint_bound(o->max), &u) != 0) {
            return -1;
        }
        k = u <= INT_MAX ? (int)u : INT_MAX; /* CLI_STORE_INT: small ranges */
        break;
    case CLI_OPT_INT:
        if (parse_int(v, o->min, o->max, &s) != 0) {
            return -1;
        }
        k = (int)s;
        break;
    case CLI_OPT_NUMBER:
        if (cli_parse_double(v, o->min, o->max, &d) != 0 ||
            (o->open && (d <= o->min || d >= o->max))) {
            return -1;
        }
        break;
    case CLI_OPT_WORD:
        k = word_index(o, v);
        if (k < 0) {
            return -1;
        }
        break;
    case CLI_OPT_TEXT:
        (void)word_index(o, v); /* a word it suggests, in its spelling (a built-in profile) */
        break;
    }
    if (o->set != NULL) {
        return o->set(field, v);
    }
    switch (o->store) {
    case CLI_STORE_NONE:
        break;
    case CLI_STORE_INT:
        memcpy(field, &k, sizeof k);
        break;
    case CLI_STORE_U32: {
        uint32_t w = (uint32_t)u;
        memcpy(field, &w, sizeof w);
        break;
    }
    case CLI_STORE_ULL:
        memcpy(field, &u, sizeof u);
        break;
    case CLI_STORE_DOUBLE:
        memcpy(field, &d, sizeof d);
        break;
    case CLI_STORE_MS_NS: {
        uint64_t ns = (uint64_t)(d * 1e6 + 0.5);
        memcpy(field, &ns, sizeof ns);
        break;
    }
    case CLI_STORE_STR:
        memcpy(field, &v, sizeof v);
        break;
    }
    return 0;
}

int cli_opt_set(const struct cli_opt *o, void *base, const char *cmd, const char *v)
{
    char allowed[CLI_ALLOWED_MAX];
    struct cli_suggest s;
    int rc = store_value(o, (char *)base + o->offset, v);
    if (rc == 0 || rc == CLI_OPT_REPORTED) {
        return rc == 0 ? 0 : -1;
    }
    cli_suggest_init(&s, v);
    if (o->kind == CLI_OPT_WORD) {
        cli_opt_words(o, cli_suggest_add, &s);
    }
    cli_usage_error(cmd, "bad value for %s: '%s' (want %s)%s", o->name, v,
                    cli_opt_allowed(o, allowed), cli_suggest_text(&s));
    return -1;
}

void cli_opt_table_defaults(const struct cli_opt_table *t, void *base)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        const struct cli_opt *o = &t->opts[k];
        const char *v = cli_opt_default(o);
        /* every default value is one its option takes (tests/unit/test_cli_opts.c) */
        if (v != NULL && (o->store != CLI_STORE_NONE || o->set != NULL)) {
            (void)store_value(o, (char *)base + o->offset, v);
        }
    }
}

int cli_opt_listed(const char *const *only, const char *name)
{
    return only == NULL || cli_word_index(only, name) >= 0;
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
        return store_value(o, (char *)base + o->offset, NULL) == 0 ? 1 : -1;
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

/* ---- --format ---- */

/* --format words, in enum cli_format order. */
static const char *const format_words[] = {"table", "csv", "json", NULL};

_Static_assert(sizeof(enum cli_format) == sizeof(int), "--format is stored as an int");

static void format_init(void *f)
{
    enum cli_format table = FORMAT_TABLE;
    memcpy(f, &table, sizeof table);
}

static const struct cli_opt format_rows[] = {
    {.name = "--format", .kind = CLI_OPT_WORD, .words = format_words, .def = PQPAN_DEFAULT_FORMAT,
     .store = CLI_STORE_INT, .help = "output format"},
};

const struct cli_opt_table cli_format_table =
    CLI_OPT_TABLE("format", "output", format_rows, enum cli_format, format_init);

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

/* ---- text ---- */

/* Appends to a fixed buffer, truncating. */
struct text {
    char *buf;
    size_t cap, len;
};

/* An empty text in buf[0..cap). */
static struct text text_in(char *buf, size_t cap)
{
    struct text t;
    t.buf = buf;
    t.cap = cap;
    t.len = 0;
    buf[0] = '\0';
    return t;
}

static void text_add(struct text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + 1 >= t->cap) {
        return;
    }
    if (n > t->cap - 1 - t->len) {
        n = t->cap - 1 - t->len;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

/* Words joined with sep. */
struct joined {
    struct text *t;
    const char *sep;
    int n;
};

static void join_word(void *ctx, const char *word)
{
    struct joined *j = ctx;
    if (j->n++ > 0) {
        text_add(j->t, j->sep);
    }
    text_add(j->t, word);
}

static void join_words(struct text *t, const struct cli_opt *o, const char *sep)
{
    struct joined j;
    j.t = t;
    j.sep = sep;
    j.n = 0;
    cli_opt_words(o, join_word, &j);
}

/* x without trailing zeros (bounds such as 7.5, 0.99, 10485759.375, 17040). */
static void add_number(struct text *t, double x)
{
    char buf[CLI_FIXED_MAX];
    int n;
    if (x >= 1e15) {
        cli_format_uint(buf, uint_bound(x));
        text_add(t, buf);
        return;
    }
    n = cli_format_fixed(buf, x, 3);
    while (buf[n - 1] == '0') {
        buf[--n] = '\0';
    }
    if (buf[n - 1] == '.') {
        buf[n - 1] = '\0';
    }
    text_add(t, buf);
}

static void add_range(struct text *t, const struct cli_opt *o)
{
    add_number(t, o->min);
    text_add(t, "..");
    add_number(t, o->max);
    if (o->unit != NULL) {
        text_add(t, " ");
        text_add(t, o->unit);
    }
}

const char *cli_opt_allowed(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX])
{
    struct text t = text_in(buf, CLI_ALLOWED_MAX);
    if (o->allowed != NULL) {
        text_add(&t, o->allowed);
    } else if (o->kind == CLI_OPT_UINT || o->kind == CLI_OPT_INT) {
        text_add(&t, "an integer in ");
        add_range(&t, o);
    } else if (o->kind == CLI_OPT_NUMBER) {
        text_add(&t, "a number in ");
        add_range(&t, o);
        text_add(&t, o->open ? ", both ends excluded" : "");
    } else if (o->kind == CLI_OPT_WORD || o->words != NULL || o->words_fn != NULL) {
        join_words(&t, o, ", ");
    } else if (o->kind == CLI_OPT_TEXT) {
        text_add(&t, "a value");
    }
    return buf;
}

const char *cli_opt_meta(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX])
{
    struct text t = text_in(buf, CLI_ALLOWED_MAX);
    if (o->meta != NULL) {
        text_add(&t, o->meta);
    } else if (o->kind == CLI_OPT_WORD) {
        join_words(&t, o, "|");
    }
    return buf;
}

void cli_wrap(FILE *out, const char *s, size_t col, size_t indent)
{
    int first = 1;
    s += strspn(s, " ");
    while (*s != '\0') {
        size_t n = strcspn(s, " ");
        if (!first && col + 1 + n > HELP_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fwrite(s, 1, n, out);
        col += n;
        first = 0;
        s += n;
        s += strspn(s, " ");
    }
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
    struct text t = text_in(buf, sizeof buf);
    size_t k, e;
    int count = 0;
    text_add(&t, before);
    for (k = 0; k < n; k++) {
        for (e = 0; e < tables[k]->n; e++) {
            const struct cli_opt *o = &tables[k]->opts[e];
            if ((o->words != NULL || o->words_fn != NULL) && strcmp(o->name, "--link") != 0) {
                text_add(&t, count++ > 0 ? ", " : "");
                text_add(&t, o->name);
            }
        }
    }
    text_add(&t, after);
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
    struct text t = text_in(buf, CLI_ALLOWED_MAX * 2);
    text_add(&t, o->help);
    if (shows_allowed(o)) {
        text_add(&t, " (");
        text_add(&t, cli_opt_allowed(o, allowed));
        text_add(&t, given ? "; " : ")");
    } else if (given) {
        text_add(&t, " (");
    }
    if (given) {
        text_add(&t, value != NULL ? "default " : "default: ");
        text_add(&t, value != NULL ? value : note);
        text_add(&t, ")");
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
    struct text t = text_in(buf, sizeof buf);
    if (o->kind != CLI_OPT_UINT && o->kind != CLI_OPT_INT && o->kind != CLI_OPT_NUMBER) {
        fputs("null", out);
        return;
    }
    add_number(&t, x);
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
                        const char *indent)
{
    size_t k, last = t->n;
    while (last > 0 && !cli_opt_listed(only, t->opts[last - 1].name)) {
        last--;
    }
    fprintf(out, "%s{\"id\": \"%s\", \"title\": ", indent, t->id);
    cli_json_string_or_null(out, t->title);
    fputs(", \"options\": [\n", out);
    for (k = 0; k < last; k++) {
        char inner[32];
        if (!cli_opt_listed(only, t->opts[k].name)) {
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
                      const char *const *only)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        const struct cli_opt *o = &t->opts[k];
        char buf[CLI_ALLOWED_MAX];
        if (!csv_has(only_csv, o->name) || !cli_opt_listed(only, o->name)) {
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
