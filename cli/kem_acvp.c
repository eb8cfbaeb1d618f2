/* pqpan kem acvp: runs a NIST ACVP ML-KEM vector file (FIPS 203 keyGen / encapDecap) and
 * prints the ACVP response. The whole response is built before anything is printed, so a
 * malformed file gives a message and exit 3 with nothing on stdout. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "kem.h"
#include "pqpan/kem.h"

/* Enough for every ACVP ML-KEM field, including over-long keys in the key-check groups. */
#define FIELD_CAP (2 * PQPAN_KEM_DK_MAX_BYTES)

struct acvp_ctx {
    const char *path;
    long tg_id;
    long tc_id;
};

static int acvp_error(const struct acvp_ctx *x, const char *what, const char *name)
{
    fprintf(stderr, "pqpan kem acvp: %s: tgId %ld tcId %ld: %s '%s'\n", x->path, x->tg_id,
            x->tc_id, what, name);
    return EXIT_BAD_INPUT;
}

static char *read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n + 1 >= cap) {
            char *grown = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            buf[n] = '\0';
            break;
        }
    }
    if (ferror(f)) {
        free(buf);
        buf = NULL;
    }
    if (f != stdin) {
        fclose(f);
    }
    *len = n;
    return buf;
}

/* Field name of the test case, else of its group (ACVP puts shared inputs there). */
static const char *field(const cJSON *test, const cJSON *group, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(test, name);
    if (item == NULL) {
        item = cJSON_GetObjectItemCaseSensitive(group, name);
    }
    return cJSON_IsString(item) ? item->valuestring : NULL;
}

/* Decodes the hex field into out (at most cap bytes; exactly want unless want is 0). */
static int hex_field(const struct acvp_ctx *x, uint8_t *out, size_t cap, size_t want,
                     size_t *len, const cJSON *test, const cJSON *group, const char *name)
{
    const char *hex = field(test, group, name);
    size_t n = 0;
    if (hex == NULL) {
        return acvp_error(x, "missing string field", name);
    }
    if (cli_kem_hex_any(out, cap, &n, hex) != 0 || (want != 0 && n != want)) {
        return acvp_error(x, "bad hex or wrong length in", name);
    }
    if (len != NULL) {
        *len = n;
    }
    return EXIT_OK;
}

static int add_hex(cJSON *obj, const char *name, const uint8_t *p, size_t len)
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

/* The buffers of one test case (static: a few KiB each, reused). */
struct acvp_bufs {
    uint8_t a[FIELD_CAP], b[FIELD_CAP], out1[FIELD_CAP], out2[FIELD_CAP];
};

static int lib_failed(const struct acvp_ctx *x, int ret, const char *op)
{
    return acvp_error(x, pqpan_strerror(ret), op);
}

static int run_keygen(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                      const cJSON *t, cJSON *res, struct acvp_bufs *bf)
{
    int rc = hex_field(x, bf->a, 32, 32, NULL, t, g, "d");
    if (rc == EXIT_OK) {
        rc = hex_field(x, bf->b, 32, 32, NULL, t, g, "z");
    }
    if (rc == EXIT_OK) {
        int ret = kem->keypair_derand(bf->out1, bf->out2, bf->a, bf->b);
        if (ret != PQPAN_OK) {
            return lib_failed(x, ret, "keyGen");
        }
        if (add_hex(res, "ek", bf->out1, kem->ek_bytes) != 0 ||
            add_hex(res, "dk", bf->out2, kem->dk_bytes) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

static int run_encaps(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                      const cJSON *t, cJSON *res, struct acvp_bufs *bf)
{
    int rc = hex_field(x, bf->a, FIELD_CAP, kem->ek_bytes, NULL, t, g, "ek");
    if (rc == EXIT_OK) {
        rc = hex_field(x, bf->b, 32, 32, NULL, t, g, "m");
    }
    if (rc == EXIT_OK) {
        int ret = kem->encaps_derand(bf->out1, bf->out2, bf->a, bf->b);
        if (ret != PQPAN_OK) {
            return lib_failed(x, ret, "encapsulation");
        }
        if (add_hex(res, "c", bf->out1, kem->ct_bytes) != 0 ||
            add_hex(res, "k", bf->out2, PQPAN_MLKEM_SS_BYTES) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

static int run_decaps(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                      const cJSON *t, cJSON *res, struct acvp_bufs *bf)
{
    int rc = hex_field(x, bf->a, FIELD_CAP, kem->dk_bytes, NULL, t, g, "dk");
    if (rc == EXIT_OK) {
        rc = hex_field(x, bf->b, FIELD_CAP, kem->ct_bytes, NULL, t, g, "c");
    }
    if (rc == EXIT_OK) {
        int ret = kem->decaps(bf->out1, bf->b, bf->a);
        if (ret != PQPAN_OK) {
            return lib_failed(x, ret, "decapsulation");
        }
        if (add_hex(res, "k", bf->out1, PQPAN_MLKEM_SS_BYTES) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

/* encapsulationKeyCheck / decapsulationKeyCheck: the FIPS 203 §7.2 / §7.3 checks,
 * including the length (type) check, so keys of any length are accepted as input. */
static int run_key_check(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                         const cJSON *t, cJSON *res, struct acvp_bufs *bf, int is_ek)
{
    size_t len = 0;
    int rc = hex_field(x, bf->a, FIELD_CAP, 0, &len, t, g, is_ek ? "ek" : "dk");
    if (rc == EXIT_OK) {
        int ok = (is_ek ? kem->check_ek(bf->a, len) : kem->check_dk(bf->a, len)) == PQPAN_OK;
        if (cJSON_AddBoolToObject(res, "testPassed", ok) == NULL) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

static int run_test(const struct acvp_ctx *x, const char *mode, const char *fn,
                    const struct pqpan_kem *kem, const cJSON *g, const cJSON *t, cJSON *res)
{
    static struct acvp_bufs bf;
    if (strcmp(mode, "keyGen") == 0) {
        return run_keygen(x, kem, g, t, res, &bf);
    }
    if (fn == NULL) {
        return acvp_error(x, "missing group field", "function");
    }
    if (strcmp(fn, "encapsulation") == 0) {
        return run_encaps(x, kem, g, t, res, &bf);
    }
    if (strcmp(fn, "decapsulation") == 0) {
        return run_decaps(x, kem, g, t, res, &bf);
    }
    if (strcmp(fn, "encapsulationKeyCheck") == 0 || strcmp(fn, "decapsulationKeyCheck") == 0) {
        return run_key_check(x, kem, g, t, res, &bf, fn[0] == 'e');
    }
    return acvp_error(x, "unknown function", fn);
}

static long int_field(const cJSON *obj, const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsNumber(item) ? (long)item->valuedouble : -1;
}

static int run_group(struct acvp_ctx *x, const char *mode, const cJSON *g, cJSON *groups_out)
{
    const char *param = field(g, g, "parameterSet");
    const struct pqpan_kem *kem = param ? pqpan_kem_by_name(param) : NULL;
    const cJSON *tests = cJSON_GetObjectItemCaseSensitive(g, "tests"), *t;
    cJSON *gout = cJSON_CreateObject(), *tests_out;
    x->tg_id = int_field(g, "tgId");
    x->tc_id = -1;
    if (gout == NULL || !cJSON_AddItemToArray(groups_out, gout) ||
        cJSON_AddNumberToObject(gout, "tgId", (double)x->tg_id) == NULL ||
        (tests_out = cJSON_AddArrayToObject(gout, "tests")) == NULL) {
        return EXIT_FAILURE_RUN;
    }
    if (kem == NULL) {
        return acvp_error(x, "unknown parameterSet", param ? param : "(missing)");
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
        rc = run_test(x, mode, field(g, g, "function"), kem, g, t, res);
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

static int run_vector_set(struct acvp_ctx *x, const cJSON *vs, cJSON *out)
{
    const char *mode = field(vs, vs, "mode");
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(vs, "testGroups"), *g;
    cJSON *groups_out;
    if (mode == NULL || (strcmp(mode, "keyGen") != 0 && strcmp(mode, "encapDecap") != 0)) {
        return acvp_error(x, "mode must be keyGen or encapDecap, not", mode ? mode : "(missing)");
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
        int rc = run_group(x, mode, g, groups_out);
        if (rc != EXIT_OK) {
            return rc;
        }
    }
    return EXIT_OK;
}

int cli_kem_acvp(const char *path)
{
    struct acvp_ctx x = {path, -1, -1};
    size_t len = 0;
    char *text = read_all(path, &len), *printed;
    cJSON *root, *out;
    const cJSON *vs;
    int rc;
    if (text == NULL) {
        fprintf(stderr, "pqpan kem acvp: %s: %s\n", path, errno ? strerror(errno) : "read error");
        return EXIT_IO;
    }
    root = cJSON_ParseWithLength(text, len);
    free(text);
    vs = root ? vector_set(root) : NULL;
    if (vs == NULL) {
        cJSON_Delete(root);
        fprintf(stderr, "pqpan kem acvp: %s: not an ACVP JSON vector set\n", path);
        return EXIT_BAD_INPUT;
    }
    out = cJSON_CreateObject();
    rc = out ? run_vector_set(&x, vs, out) : EXIT_FAILURE_RUN;
    printed = rc == EXIT_OK ? cJSON_Print(out) : NULL;
    if (rc == EXIT_OK && printed == NULL) {
        rc = EXIT_FAILURE_RUN;
    }
    if (printed != NULL) {
        printf("%s\n", printed);
        free(printed);
    }
    cJSON_Delete(out);
    cJSON_Delete(root);
    return rc;
}
