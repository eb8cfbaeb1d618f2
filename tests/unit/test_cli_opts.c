/* Tests for the option tables (cli/opts.h, cli/opts_registry.h): within a command no two
 * options share a name; every default a table states is what the command starts from;
 * every option takes the values its table allows (words, both ends of a range) and
 * refuses the others with a message naming the option, the value and what is allowed;
 * --NAME=VALUE is --NAME VALUE; `pqpan help --json` is JSON that lists every option of
 * every table; and the CLI exits 2 on a bad value of every option. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cJSON.h>
#include <cmocka.h>

#include "mesh_model.h"
#include "opts_registry.h"

#define STRUCT_MAX 4096
#define NAMES_MAX 128
#define ERR_MAX 2048
#define TABLES_MAX 48

/* Every table of every command, each once, with its first command. */
struct each_table {
    const struct cli_opt_table *t;
    const char *cmd;
};

static size_t all_tables(struct each_table *out, size_t cap)
{
    const struct cli_cmd_opts *c;
    size_t n = 0, g, k;
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        for (g = 0; g < c->n; g++) {
            for (k = 0; k < n && out[k].t != c->groups[g].table; k++) {
            }
            if (k == n) {
                assert_true(n < cap);
                out[n].t = c->groups[g].table;
                out[n].cmd = c->cmd;
                n++;
            }
        }
    }
    return n;
}

typedef void (*entry_fn)(const struct cli_opt_table *t, const struct cli_opt *o);

/* fn on every option of every table. */
static void each_entry(entry_fn fn)
{
    struct each_table ts[TABLES_MAX];
    size_t n = all_tables(ts, TABLES_MAX), k, e;
    for (k = 0; k < n; k++) {
        for (e = 0; e < ts[k].t->n; e++) {
            fn(ts[k].t, &ts[k].t->opts[e]);
        }
    }
}

/* ---- stderr capture ---- */

struct capture {
    FILE *tmp;
    int saved;
};

static void capture_start(struct capture *c)
{
    fflush(stderr);
    c->tmp = tmpfile();
    assert_non_null(c->tmp);
    c->saved = dup(fileno(stderr));
    assert_true(c->saved >= 0);
    assert_true(dup2(fileno(c->tmp), fileno(stderr)) >= 0);
}

static void capture_end(struct capture *c, char out[ERR_MAX])
{
    size_t n;
    fflush(stderr);
    assert_true(dup2(c->saved, fileno(stderr)) >= 0);
    close(c->saved);
    rewind(c->tmp);
    n = fread(out, 1, ERR_MAX - 1, c->tmp);
    out[n] = '\0';
    fclose(c->tmp);
}

/* ---- parsing one option ---- */

/* Frees what parsing into s allocated (the table's fini). */
static void release(const struct cli_opt_table *t, void *s)
{
    if (t->fini != NULL) {
        t->fini(s);
    }
}

/* t's defaults over zeroes (so padding compares equal). */
static void init_zeroed(const struct cli_opt_table *t, void *s)
{
    memset(s, 0, t->size);
    t->init(s);
}

/* Parses "opt [value]" into s (initialised by the table first). The take's result. */
static int take(const struct cli_opt_table *t, const struct cli_opt *o, const char *v, void *s,
                int *consumed)
{
    char *argv[3];
    int i = 1, rc;
    argv[0] = (char *)"test";
    argv[1] = (char *)o->name;
    argv[2] = (char *)v;
    init_zeroed(t, s);
    rc = cli_opt_take(t, s, "test", v != NULL ? 3 : 2, argv, &i);
    *consumed = i;
    return rc;
}

static void assert_takes(const struct cli_opt_table *t, const struct cli_opt *o, const char *v)
{
    unsigned char s[STRUCT_MAX];
    int i, rc;
    assert_true(t->size <= sizeof s);
    rc = take(t, o, v, s, &i);
    release(t, s);
    if (rc != 1) {
        fail_msg("%s %s refused", o->name, v != NULL ? v : "");
    }
    assert_int_equal(i, v != NULL ? 2 : 1);
}

/* v is refused with "bad value for NAME: 'V' (want ALLOWED)" on stderr (or, from a set
 * function that reports itself, a message naming NAME and V). */
static void assert_refuses(const struct cli_opt_table *t, const struct cli_opt *o, const char *v)
{
    unsigned char s[STRUCT_MAX];
    char err[ERR_MAX], want[ERR_MAX], allowed[CLI_ALLOWED_MAX];
    struct capture cap;
    int i, rc;
    capture_start(&cap);
    rc = take(t, o, v, s, &i);
    release(t, s);
    capture_end(&cap, err);
    if (rc != -1) {
        fail_msg("%s %s accepted", o->name, v);
    }
    snprintf(want, sizeof want, "bad value for %s: '%s' (want %s)", o->name, v,
             cli_opt_allowed(o, allowed));
    /* a set function may print its own message (CLI_OPT_REPORTED): it names both too */
    if (strstr(err, want) == NULL &&
        (o->set == NULL || strstr(err, o->name) == NULL || strstr(err, v) == NULL)) {
        fail_msg("%s %s: message '%s', want '%s'", o->name, v, err, want);
    }
}

/* A number as the option takes it (bounds are integers or decimals of at most 3
 * places), without trailing zeros. */
static void number_text(char *buf, size_t cap, double x, int integer)
{
    size_t n;
    snprintf(buf, cap, "%.*f", integer ? 0 : 3, x);
    n = strlen(buf);
    while (!integer && buf[n - 1] == '0') {
        buf[--n] = '\0';
    }
    if (buf[n - 1] == '.') {
        buf[n - 1] = '\0';
    }
}

/* ---- tests ---- */

/* Table ids (`help --options-md ID`) name one table each. */
static void test_ids_unique(void **state)
{
    struct each_table ts[TABLES_MAX];
    size_t n = all_tables(ts, TABLES_MAX), k, j;
    (void)state;
    for (k = 0; k < n; k++) {
        for (j = 0; j < k; j++) {
            assert_string_not_equal(ts[k].t->id, ts[j].t->id);
        }
    }
}

static void test_names_unique_per_command(void **state)
{
    static const char *const links[] = {"ble", "802154", "ble-mesh"};
    const struct cli_cmd_opts *c;
    (void)state;
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        size_t l;
        for (l = 0; l < sizeof links / sizeof links[0]; l++) {
            const char *names[NAMES_MAX];
            size_t n = 0, g, k, j;
            for (g = 0; g < c->n; g++) {
                const struct cli_opt_group *grp = &c->groups[g];
                if (grp->link != NULL && strcmp(grp->link, links[l]) != 0) {
                    continue;
                }
                for (k = 0; k < grp->table->n; k++) {
                    const char *name = grp->table->opts[k].name;
                    if (!cli_opt_group_takes(grp, name)) {
                        continue;
                    }
                    assert_int_equal(strncmp(name, "--", 2), 0);
                    for (j = 0; j < n; j++) {
                        if (strcmp(names[j], name) == 0) {
                            fail_msg("%s (%s): %s twice", c->cmd, links[l], name);
                        }
                    }
                    assert_true(n < NAMES_MAX);
                    names[n++] = name;
                }
            }
            assert_true(n > 0);
        }
    }
}

/* Whether command cmd takes option name on link (its groups on that link or on both). */
static int command_takes(const char *cmd, const char *link, const char *name)
{
    const struct cli_cmd_opts *c = cli_cmd_opts_find(cmd);
    size_t g;
    assert_non_null(c);
    for (g = 0; g < c->n; g++) {
        const struct cli_opt_group *grp = &c->groups[g];
        if ((grp->link == NULL || strcmp(grp->link, link) == 0) &&
            cli_opt_find(grp->table, name) != NULL && cli_opt_group_takes(grp, name)) {
            return 1;
        }
    }
    return 0;
}

/* sweep --link ble-mesh takes every option of estimate's BLE Mesh table (mesh_opts_table)
 * but --per, which sweep has as its own (docs/CLI.md "pqpan sweep"): an option added to the
 * mesh table later is in sweep's too, and --per is not taken twice. */
static void test_sweep_takes_every_mesh_option(void **state)
{
    size_t k;
    (void)state;
    for (k = 0; k < mesh_opts_table.n; k++) {
        const char *name = mesh_opts_table.opts[k].name;
        if (strcmp(name, "--per") == 0) {
            continue;
        }
        if (!command_takes("sweep", "ble-mesh", name)) {
            fail_msg("sweep --link ble-mesh does not take %s (estimate --link ble-mesh does)",
                     name);
        }
    }
    assert_true(command_takes("sweep", "ble-mesh", "--per")); /* the sweep's own */
    assert_non_null(cli_opt_find(&mesh_opts_table, "--per"));
}

/* A group's EXCEPT form takes every row but those named; ONLY the named ones alone. */
static void test_group_except_and_only(void **state)
{
    static const char *const per[] = {"--per", NULL};
    const struct cli_opt_group except = {&mesh_opts_table, "ble-mesh", NULL, per};
    const struct cli_opt_group only = {&mesh_opts_table, "ble-mesh", per, NULL};
    (void)state;
    assert_false(cli_opt_group_takes(&except, "--per"));
    assert_true(cli_opt_group_takes(&except, "--bearer"));
    assert_true(cli_opt_group_takes(&only, "--per"));
    assert_false(cli_opt_group_takes(&only, "--bearer"));
}

/* Parsing an option's stated default changes nothing in the initialised struct. */
static void check_default(const struct cli_opt_table *t, const struct cli_opt *o)
{
    unsigned char fresh[STRUCT_MAX], parsed[STRUCT_MAX];
    const char *def = cli_opt_default(o);
    int i;
    if (def == NULL) {
        return;
    }
    init_zeroed(t, fresh);
    assert_int_equal(take(t, o, def, parsed, &i), 1);
    if (o->store == CLI_STORE_STR) {
        const char *a, *b;
        memcpy(&a, fresh + o->offset, sizeof a);
        memcpy(&b, parsed + o->offset, sizeof b);
        assert_string_equal(a, b);
        memcpy(parsed + o->offset, &a, sizeof a);
    }
    i = memcmp(fresh, parsed, t->size);
    release(t, fresh);
    release(t, parsed);
    if (i != 0) {
        fail_msg("%s %s: the stated default is not the initial value", o->name, def);
    }
}

static void test_defaults_are_the_start(void **state)
{
    (void)state;
    each_entry(check_default);
}

/* Collects words. */
struct word_list {
    char w[32][40];
    size_t n;
};

static void keep_word(void *ctx, const char *word)
{
    struct word_list *l = ctx;
    if (l->n < 32 && strlen(word) < sizeof l->w[0]) {
        strcpy(l->w[l->n++], word);
    }
}

static void check_numeric(const struct cli_opt_table *t, const struct cli_opt *o)
{
    char lo[64], hi[64], below[64], above[64];
    int integer = o->kind != CLI_OPT_NUMBER;
    number_text(lo, sizeof lo, o->min, integer);
    number_text(hi, sizeof hi, o->max, integer);
    if (o->open) {
        char mid[64];
        number_text(mid, sizeof mid, (o->min + o->max) / 2, 0);
        assert_takes(t, o, mid);
        assert_refuses(t, o, lo);
        assert_refuses(t, o, hi);
        return;
    }
    assert_takes(t, o, lo);
    if (o->max < 1e15) {
        assert_takes(t, o, hi);
        number_text(above, sizeof above, o->max + 1, integer);
        assert_refuses(t, o, above);
    }
    if (o->min > -1e15 && !(integer && o->min == 0 && o->kind == CLI_OPT_UINT)) {
        number_text(below, sizeof below, o->min - 1, integer);
        assert_refuses(t, o, below);
    }
    assert_refuses(t, o, "x");
    assert_refuses(t, o, "+1");
}

static void check_words(const struct cli_opt_table *t, const struct cli_opt *o)
{
    struct word_list l;
    size_t k;
    memset(&l, 0, sizeof l);
    assert_int_equal(cli_opt_words(o, keep_word, &l), 1);
    assert_true(l.n >= 1);
    for (k = 0; k < l.n; k++) {
        assert_takes(t, o, l.w[k]);
    }
    assert_refuses(t, o, "no-such-word");
}

/* Whether o refuses some text: one with its own check that does not take a file name. */
static int checks_text(const struct cli_opt *o)
{
    return o->set != NULL && (o->meta == NULL || strstr(o->meta, "FILE") == NULL);
}

static void check_entry(const struct cli_opt_table *t, const struct cli_opt *o)
{
    switch (o->kind) {
    case CLI_OPT_FLAG:
        assert_takes(t, o, NULL);
        break;
    case CLI_OPT_UINT:
    case CLI_OPT_INT:
    case CLI_OPT_NUMBER:
        check_numeric(t, o);
        break;
    case CLI_OPT_WORD:
        check_words(t, o);
        break;
    case CLI_OPT_TEXT:
        if (checks_text(o)) {
            assert_refuses(t, o, "no-such-value");
        }
        break;
    }
}

static void test_every_entry_parses_and_refuses(void **state)
{
    (void)state;
    each_entry(check_entry);
}

/* --NAME=VALUE (split as main does) fills the struct as --NAME VALUE. */
static void check_assignment(const struct cli_opt_table *t, const struct cli_opt *o)
{
    unsigned char a[STRUCT_MAX], b[STRUCT_MAX];
    char joined[128], *argv[2], *split[5];
    const char *def = cli_opt_default(o);
    int i = 1, argc;
    if (def == NULL || o->kind == CLI_OPT_FLAG) {
        return;
    }
    snprintf(joined, sizeof joined, "%s=%s", o->name, def);
    argv[0] = (char *)"test";
    argv[1] = joined;
    argc = cli_split_assignments(2, argv, split);
    assert_int_equal(argc, 3);
    init_zeroed(t, a);
    assert_int_equal(cli_opt_take(t, a, "test", argc, split, &i), 1);
    assert_int_equal(take(t, o, def, b, &i), 1);
    if (o->store == CLI_STORE_STR) {
        memcpy(a + o->offset, b + o->offset, sizeof(char *));
    }
    i = memcmp(a, b, t->size);
    release(t, a);
    release(t, b);
    assert_int_equal(i, 0);
}

static void test_assignment_is_the_same(void **state)
{
    (void)state;
    each_entry(check_assignment);
}

/* The JSON dump parses and holds every option of every command's tables, with its kind. */
static void test_json_dump_covers_every_option(void **state)
{
    const struct cli_cmd_opts *c;
    FILE *f = tmpfile();
    char *text;
    long len;
    cJSON *root, *cmds;
    (void)state;
    assert_non_null(f);
    cli_cmd_opts_json(f);
    len = ftell(f);
    assert_true(len > 0);
    rewind(f);
    text = malloc((size_t)len + 1);
    assert_non_null(text);
    assert_int_equal(fread(text, 1, (size_t)len, f), (size_t)len);
    text[len] = '\0';
    fclose(f);
    root = cJSON_Parse(text);
    free(text);
    assert_non_null(root);
    cmds = cJSON_GetObjectItem(root, "commands");
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        const cJSON *cmd = cJSON_GetArrayItem(cmds, (int)(c - cli_cmd_opts));
        const cJSON *groups = cJSON_GetObjectItem(cmd, "groups");
        size_t g, k;
        assert_string_equal(cJSON_GetObjectItem(cmd, "name")->valuestring, c->cmd);
        assert_int_equal(cJSON_GetArraySize(groups), (int)c->n);
        for (g = 0; g < c->n; g++) {
            const cJSON *table = cJSON_GetObjectItem(cJSON_GetArrayItem(groups, (int)g), "table");
            const cJSON *opts = cJSON_GetObjectItem(table, "options");
            const struct cli_opt_group *grp = &c->groups[g];
            int listed = 0;
            for (k = 0; k < grp->table->n; k++) {
                const cJSON *o;
                if (!cli_opt_group_takes(grp, grp->table->opts[k].name)) {
                    continue;
                }
                o = cJSON_GetArrayItem(opts, listed++);
                assert_non_null(o);
                assert_string_equal(cJSON_GetObjectItem(o, "name")->valuestring,
                                    grp->table->opts[k].name);
                assert_non_null(cJSON_GetObjectItem(o, "kind")->valuestring);
                assert_non_null(cJSON_GetObjectItem(o, "help")->valuestring);
            }
            assert_int_equal(cJSON_GetArraySize(opts), listed);
        }
    }
    cJSON_Delete(root);
}

/* The CLI itself exits 2 on a bad value of every option that can have one, naming it. */
static void test_cli_exits_2_on_bad_values(void **state)
{
    const struct cli_cmd_opts *c;
    (void)state;
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        size_t g, k;
        for (g = 0; g < c->n; g++) {
            const struct cli_opt_group *grp = &c->groups[g];
            for (k = 0; k < grp->table->n; k++) {
                const struct cli_opt *o = &grp->table->opts[k];
                char cmd[512], out[ERR_MAX];
                FILE *p;
                size_t len;
                int status;
                if (o->kind == CLI_OPT_FLAG || (o->kind == CLI_OPT_TEXT && !checks_text(o)) ||
                    !cli_opt_group_takes(grp, o->name)) {
                    continue;
                }
                snprintf(cmd, sizeof cmd, "%s %s %s%s %s no-such-value 2>&1 >/dev/null",
                         PQPAN_CLI_PATH, c->cmd,
                         grp->link != NULL && strcmp(grp->link, "ble") != 0 ? "--link " : "",
                         grp->link != NULL && strcmp(grp->link, "ble") != 0 ? grp->link : "",
                         o->name);
                p = popen(cmd, "r");
                assert_non_null(p);
                len = fread(out, 1, sizeof out - 1, p);
                out[len] = '\0';
                status = pclose(p);
                if (!WIFEXITED(status) || WEXITSTATUS(status) != 2 ||
                    strstr(out, o->name) == NULL) {
                    fail_msg("pqpan %s %s no-such-value: status %d, '%s'", c->cmd, o->name,
                             status, out);
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ids_unique),
        cmocka_unit_test(test_names_unique_per_command),
        cmocka_unit_test(test_defaults_are_the_start),
        cmocka_unit_test(test_every_entry_parses_and_refuses),
        cmocka_unit_test(test_assignment_is_the_same),
        cmocka_unit_test(test_json_dump_covers_every_option),
        cmocka_unit_test(test_cli_exits_2_on_bad_values),
        cmocka_unit_test(test_sweep_takes_every_mesh_option),
        cmocka_unit_test(test_group_except_and_only),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
