/* pqpan acvp: runs a NIST ACVP vector set of an algorithm pqpan implements and prints the
 * ACVP response, or, with --expected, compares the response with expected results case by
 * case. The whole response is built before anything is printed, so a malformed file gives
 * a message and exit 3 with nothing on stdout. */
#include "acvp.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "commands.h"
#include "pqpan/io.h"
#include "opts_registry.h"

#define CMD "acvp"

/* The vector sets pqpan runs: one row per (algorithm, revision, mode). */
static const struct {
    const char *algorithm, *revision, *mode;
    acvp_test_fn run;
} handlers[] = {
    {"ML-KEM", "FIPS203", "keyGen", acvp_mlkem_keygen},
    {"ML-KEM", "FIPS203", "encapDecap", acvp_mlkem_encap_decap},
    {"ML-DSA", "FIPS204", "keyGen", acvp_mldsa_keygen},
    {"ML-DSA", "FIPS204", "sigGen", acvp_mldsa_siggen},
    {"ML-DSA", "FIPS204", "sigVer", acvp_mldsa_sigver},
};
#define N_HANDLERS (sizeof handlers / sizeof handlers[0])

static void print_supported(FILE *out)
{
    size_t i;
    for (i = 0; i < N_HANDLERS; i++) {
        fprintf(out, "%s%s %s %s", i ? ", " : "", handlers[i].algorithm, handlers[i].mode,
                handlers[i].revision);
    }
}

void cli_acvp_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan acvp FILE [--expected FILE] [--format table|csv|json]\n\n"
            "Runs a NIST ACVP vector set (prompt or internalProjection form; FILE '-' is stdin)\n"
            "and prints the ACVP response: testGroups[].tests[] with tcId and the computed\n"
            "values (hex in upper case, as ACVP writes it). The vector set's algorithm,\n"
            "revision and mode choose what runs; implemented: ");
    print_supported(out);
    fprintf(out,
            ".\nAny other set is refused (exit 3), as is a signature interface pqpan does not\n"
            "implement (HashML-DSA pre-hashing, external mu). `pqpan kem acvp FILE` is the same.\n\n"
            "options:\n");
    cli_opt_rows_help(out, &acvp_opts_table);
    cli_opt_rows_help(out, &cli_format_table);
    fprintf(out,
            "\nReport fields: tg_id, tc_id, result (passed|failed), field; the table ends with\n"
            "a summary line, JSON has algorithm, mode, cases, passed, failed, results[].\n");
}

int acvp_error(const struct acvp_ctx *x, const char *what, const char *name)
{
    fprintf(stderr, "pqpan acvp: %s: tgId %ld tcId %ld: %s '%s'\n", x->path, x->tg_id, x->tc_id,
            what, name);
    return EXIT_BAD_INPUT;
}

const char *acvp_field(const cJSON *test, const cJSON *group, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(test, name);
    if (item == NULL) {
        item = cJSON_GetObjectItemCaseSensitive(group, name);
    }
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

int acvp_hex_field(const struct acvp_ctx *x, uint8_t *out, size_t cap, size_t want, size_t *len,
                   const cJSON *test, const cJSON *group, const char *name)
{
    const char *hex = acvp_field(test, group, name);
    size_t n = 0;
    if (hex == NULL) {
        return acvp_error(x, "missing string field", name);
    }
    if (cli_hex_decode_any(out, cap, &n, hex) != 0 || (want != 0 && n != want)) {
        return acvp_error(x, "bad hex or wrong length in", name);
    }
    if (len != NULL) {
        *len = n;
    }
    return EXIT_OK;
}

int acvp_add_hex(cJSON *obj, const char *name, const uint8_t *p, size_t len)
{
    static const char digits[] = "0123456789ABCDEF";
    char *s = malloc(2 * len + 1);
    size_t i;
    if (s == NULL) {
        return -1;
    }
    for (i = 0; i < len; i++) {
        s[2 * i] = digits[p[i] >> 4];
        s[2 * i + 1] = digits[p[i] & 15];
    }
    s[2 * len] = '\0';
    i = cJSON_AddStringToObject(obj, name, s) != NULL;
    free(s);
    return i ? 0 : -1;
}

static long int_field(const cJSON *obj, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsNumber(item) ? (long)item->valuedouble : -1;
}

static int run_group(struct acvp_ctx *x, acvp_test_fn run, const cJSON *g, cJSON *groups_out)
{
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests"), *t;
    cJSON *gout = cJSON_CreateObject(), *tests_out;
    x->tg_id = int_field(g, "tgId");
    x->tc_id = -1;
    if (gout == NULL || !cJSON_AddItemToArray(groups_out, gout) ||
        cJSON_AddNumberToObject(gout, "tgId", (double)x->tg_id) == NULL ||
        (tests_out = cJSON_AddArrayToObject(gout, "tests")) == NULL) {
        return EXIT_FAILURE_RUN;
    }
    if (!cJSON_IsArray(tests)) {
        return acvp_error(x, "missing array", "tests");
    }
    cJSON_ArrayForEach(t, tests)
    {
        cJSON *res = cJSON_CreateObject();
        int rc;
        x->tc_id = int_field(t, "tcId");
        if (res == NULL || !cJSON_AddItemToArray(tests_out, res) ||
            cJSON_AddNumberToObject(res, "tcId", (double)x->tc_id) == NULL) {
            return EXIT_FAILURE_RUN;
        }
        rc = run(x, g, t, res);
        if (rc != EXIT_OK) {
            return rc;
        }
    }
    return EXIT_OK;
}

/* The vector set: the object itself, or in the prompt form [ {acvVersion}, {vector set} ]
 * the element holding testGroups. */
static const cJSON *vector_set(const cJSON *root)
{
    const cJSON *item;
    if (cJSON_IsObject(root)) {
        return root;
    }
    cJSON_ArrayForEach(item, root)
    {
        if (cJSON_GetObjectItemCaseSensitive(item, "testGroups") != NULL) {
            return item;
        }
    }
    return NULL;
}

static void copy_header(cJSON *out, const cJSON *vs)
{
    static const char *const names[] = {"vsId", "algorithm", "mode", "revision"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(vs, names[i]);
        if (item != NULL) {
            cJSON_AddItemToObject(out, names[i], cJSON_Duplicate(item, 1));
        }
    }
}

static const char *or_missing(const char *s)
{
    return s != NULL ? s : "(missing)";
}

/* The handler for the set's algorithm, revision and mode; NULL (with a message) if pqpan
 * does not implement it. */
static acvp_test_fn find_handler(const struct acvp_ctx *x, const cJSON *vs)
{
    const char *alg = acvp_field(vs, vs, "algorithm"), *mode = acvp_field(vs, vs, "mode");
    const char *rev = acvp_field(vs, vs, "revision");
    size_t i;
    for (i = 0; i < N_HANDLERS; i++) {
        if (alg != NULL && mode != NULL && strcmp(alg, handlers[i].algorithm) == 0 &&
            strcmp(mode, handlers[i].mode) == 0 &&
            (rev == NULL || strcmp(rev, handlers[i].revision) == 0)) {
            return handlers[i].run;
        }
    }
    fprintf(stderr, "pqpan acvp: %s: algorithm %s, mode %s, revision %s is not implemented (pqpan runs: ",
            x->path, or_missing(alg), or_missing(mode), or_missing(rev));
    print_supported(stderr);
    fprintf(stderr, ")\n");
    return NULL;
}

static int run_vector_set(struct acvp_ctx *x, const cJSON *vs, cJSON *out)
{
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(vs, "testGroups"), *g;
    const acvp_test_fn run = find_handler(x, vs);
    cJSON *groups_out;
    if (run == NULL) {
        return EXIT_BAD_INPUT;
    }
    if (!cJSON_IsArray(groups)) {
        return acvp_error(x, "missing array", "testGroups");
    }
    copy_header(out, vs);
    groups_out = cJSON_AddArrayToObject(out, "testGroups");
    if (groups_out == NULL) {
        return EXIT_FAILURE_RUN;
    }
    cJSON_ArrayForEach(g, groups)
    {
        int rc = run_group(x, run, g, groups_out);
        if (rc != EXIT_OK) {
            return rc;
        }
    }
    return EXIT_OK;
}

/* Reads and parses path; *vs is its vector set. EXIT_IO / EXIT_BAD_INPUT with a message. */
static int load_vector_set(const char *path, cJSON **root, const cJSON **vs)
{
    char err[PQPAN_IO_ERR_MAX];
    struct pqpan_io_text t;
    *root = NULL;
    *vs = NULL;
    if (pqpan_io_read_file(&t, path, PQPAN_IO_FILE_MAX, err, sizeof err) != PQPAN_OK) {
        fprintf(stderr, "pqpan acvp: %s\n", err);
        return EXIT_IO;
    }
    *root = cJSON_ParseWithLength(t.text, t.len);
    pqpan_io_text_free(&t);
    *vs = *root != NULL ? vector_set(*root) : NULL;
    if (*vs == NULL) {
        fprintf(stderr, "pqpan acvp: %s: not an ACVP JSON vector set\n", path);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

/* ---- --expected: the response against expected results ---- */

struct report_row {
    long tg_id, tc_id;
    int passed;
    const char *field; /* first field that differs, or NULL */
};

struct report {
    struct report_row *rows;
    size_t count, cap;
    size_t passed;
};

/* The test with tcId tc in the group with tgId tg of the expected set, else in any group. */
static const cJSON *expected_test(const cJSON *expected, long tg, long tc)
{
    const cJSON *g, *t, *any = NULL;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(expected, "testGroups"))
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            if (int_field(t, "tcId") == tc) {
                if (int_field(g, "tgId") == tg) {
                    return t;
                }
                any = any != NULL ? any : t;
            }
        }
    }
    return any;
}

/* 1 if the expected value equals the computed one: hex strings without regard to case,
 * booleans and numbers exactly. */
static int same_value(const cJSON *want, const cJSON *got)
{
    if (cJSON_IsString(want) && cJSON_IsString(got)) {
        return strcasecmp(want->valuestring, got->valuestring) == 0;
    }
    if (cJSON_IsBool(want) && cJSON_IsBool(got)) {
        return cJSON_IsTrue(want) == cJSON_IsTrue(got);
    }
    return cJSON_IsNumber(want) && cJSON_IsNumber(got) && want->valuedouble == got->valuedouble;
}

/* The first output field of got that the expected case lacks or has otherwise; NULL if
 * none ("tcId" when there is no expected case at all). */
static const char *first_difference(const cJSON *want, const cJSON *got)
{
    const cJSON *field;
    if (want == NULL) {
        return "tcId";
    }
    cJSON_ArrayForEach(field, got)
    {
        if (strcmp(field->string, "tcId") != 0 &&
            !same_value(cJSON_GetObjectItemCaseSensitive(want, field->string), field)) {
            return field->string;
        }
    }
    return NULL;
}

static int add_row(struct report *r, long tg, long tc, const char *field)
{
    if (r->count == r->cap) {
        struct report_row *grown = realloc(r->rows, (r->cap = r->cap ? 2 * r->cap : 256) *
                                                        sizeof *grown);
        if (grown == NULL) {
            return -1;
        }
        r->rows = grown;
    }
    r->rows[r->count].tg_id = tg;
    r->rows[r->count].tc_id = tc;
    r->rows[r->count].passed = field == NULL;
    r->rows[r->count].field = field;
    r->count++;
    r->passed += field == NULL;
    return 0;
}

static int compare(struct report *r, const cJSON *response, const cJSON *expected)
{
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(response, "testGroups"))
    {
        const long tg = int_field(g, "tgId");
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const long tc = int_field(t, "tcId");
            if (add_row(r, tg, tc, first_difference(expected_test(expected, tg, tc), t)) != 0) {
                return EXIT_FAILURE_RUN;
            }
        }
    }
    return EXIT_OK;
}

static void print_report(const struct report *r, const cJSON *vs, enum cli_format format)
{
    const char *alg = or_missing(acvp_field(vs, vs, "algorithm"));
    const char *mode = or_missing(acvp_field(vs, vs, "mode"));
    size_t i;
    if (format == FORMAT_JSON) {
        printf("{\"algorithm\":\"%s\",\"mode\":\"%s\",\"cases\":%zu,\"passed\":%zu,\"failed\":%zu,"
               "\"results\":[",
               alg, mode, r->count, r->passed, r->count - r->passed);
    } else if (format == FORMAT_CSV) {
        printf("tg_id,tc_id,result,field\n");
    } else {
        printf("%6s %6s %-7s %s\n", "tg_id", "tc_id", "result", "field");
    }
    for (i = 0; i < r->count; i++) {
        const struct report_row *w = &r->rows[i];
        const char *result = w->passed ? "passed" : "failed";
        if (format == FORMAT_JSON) {
            printf("%s{\"tg_id\":%ld,\"tc_id\":%ld,\"result\":\"%s\",\"field\":", i ? "," : "",
                   w->tg_id, w->tc_id, result);
            if (w->field != NULL) {
                printf("\"%s\"}", w->field);
            } else {
                printf("null}");
            }
        } else if (format == FORMAT_CSV) {
            printf("%ld,%ld,%s,%s\n", w->tg_id, w->tc_id, result, w->field ? w->field : "");
        } else {
            printf("%6ld %6ld %-7s %s\n", w->tg_id, w->tc_id, result, w->field ? w->field : "-");
        }
    }
    if (format == FORMAT_JSON) {
        printf("]}\n");
    } else if (format == FORMAT_TABLE) {
        printf("%s %s: %zu cases, %zu passed, %zu failed\n", alg, mode, r->count, r->passed,
               r->count - r->passed);
    }
}

/* The expected set must be of the same algorithm and mode. */
static int check_same_set(const char *path, const cJSON *vs, const cJSON *expected)
{
    static const char *const names[] = {"algorithm", "mode"};
    size_t i;
    for (i = 0; i < sizeof names / sizeof names[0]; i++) {
        const char *a = acvp_field(vs, vs, names[i]), *b = acvp_field(expected, expected, names[i]);
        if (b != NULL && (a == NULL || strcmp(a, b) != 0)) {
            fprintf(stderr, "pqpan acvp: %s: %s '%s' does not match the vector set's '%s'\n", path,
                    names[i], b, or_missing(a));
            return EXIT_BAD_INPUT;
        }
    }
    return EXIT_OK;
}

static int report_expected(const char *path, const cJSON *vs, const cJSON *response,
                           enum cli_format format)
{
    struct report r = {NULL, 0, 0, 0};
    cJSON *root;
    const cJSON *expected;
    int rc = load_vector_set(path, &root, &expected);
    if (rc == EXIT_OK) {
        rc = check_same_set(path, vs, expected);
    }
    if (rc == EXIT_OK) {
        rc = compare(&r, response, expected);
    }
    if (rc == EXIT_OK) {
        print_report(&r, vs, format);
        rc = r.passed == r.count ? EXIT_OK : EXIT_FAILURE_RUN;
    }
    free(r.rows);
    cJSON_Delete(root);
    return rc;
}

/* ---- the command ---- */

struct acvp_opts {
    const char *file, *expected;
    enum cli_format format;
};

static const struct cli_opt acvp_rows[] = {
    {.name = "--expected", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = offsetof(struct acvp_opts, expected),
     .help = "compare the response with expected results (an ACVP expectedResults file, or the "
             "internalProjection file, which holds them) and print, per test case, passed or "
             "failed and the first field that differs; exit 1 if any case failed. --format is "
             "the comparison's output"},
};

static void acvp_opts_init(void *p)
{
    struct acvp_opts *o = p;
    memset(o, 0, sizeof *o);
    o->format = FORMAT_TABLE;
}

const struct cli_opt_table acvp_opts_table =
    CLI_OPT_TABLE("acvp", "options", acvp_rows, struct acvp_opts, acvp_opts_init);

static int parse_args(int argc, char **argv, struct acvp_opts *o)
{
    const struct cli_opt_bind b[] = {{&acvp_opts_table, o, NULL},
                                     {&cli_format_table, &o->format, NULL}};
    int i;
    acvp_opts_init(o);
    for (i = 1; i < argc; i++) {
        int rc = cli_opt_take_any(b, 2, CMD, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 1) {
            continue;
        }
        if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return cli_unknown_option(CMD, NULL, argv[i]);
        } else if (o->file != NULL) {
            return cli_usage_error(CMD, "one vector file only");
        } else {
            o->file = argv[i];
        }
    }
    if (o->file == NULL) {
        return cli_usage_error(CMD, "usage: pqpan acvp FILE [--expected FILE] [--format F]");
    }
    if (cli_word_index((const char *const *)argv, "--format") >= 0 && o->expected == NULL) {
        return cli_usage_error(CMD, "--format applies to the --expected report only");
    }
    if (o->expected != NULL && strcmp(o->expected, "-") == 0 && strcmp(o->file, "-") == 0) {
        return cli_usage_error(CMD, "FILE and --expected cannot both be stdin");
    }
    return EXIT_OK;
}

int cli_acvp_run(int argc, char **argv)
{
    struct acvp_opts o;
    struct acvp_ctx x = {NULL, -1, -1};
    cJSON *root = NULL, *out = NULL;
    const cJSON *vs;
    char *printed;
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_acvp_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(argc, argv, &o);
    if (rc != EXIT_OK) {
        return rc;
    }
    x.path = o.file;
    rc = load_vector_set(o.file, &root, &vs);
    if (rc == EXIT_OK) {
        out = cJSON_CreateObject();
        rc = out != NULL ? run_vector_set(&x, vs, out) : EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK && o.expected != NULL) {
        rc = report_expected(o.expected, vs, out, o.format);
    } else if (rc == EXIT_OK) {
        printed = cJSON_Print(out);
        if (printed == NULL) {
            rc = EXIT_FAILURE_RUN;
        } else {
            printf("%s\n", printed);
            free(printed);
        }
    }
    cJSON_Delete(out);
    cJSON_Delete(root);
    return rc;
}
