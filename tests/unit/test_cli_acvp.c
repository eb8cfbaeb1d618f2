/* `pqpan acvp` (and its alias `pqpan kem acvp`) on the NIST ACVP files of
 * tests/vectors/acvp: the response must give, for every test case, the outputs of the
 * internalProjection file (ML-KEM ek/dk, c/k, k, testPassed; ML-DSA pk/sk, signature,
 * testPassed); --expected reports every case passed against that file, and a failed case
 * when one expected value is changed. Also the prompt form ([{acvVersion}, {vector set}])
 * with inputs at group level, a malformed file (exit 3, nothing on stdout), sets pqpan does
 * not implement (another algorithm, HashML-DSA pre-hashing: exit 3), and an
 * external-interface signature group, whose signature must verify with its context. */
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

#include "pqpan/sig.h"
#include "test_support.h"

#define KEM_KEYGEN "acvp/ML-KEM-keyGen-FIPS203/internalProjection.json"
#define KEM_ENCAP "acvp/ML-KEM-encapDecap-FIPS203/internalProjection.json"
#define KEYGEN "acvp/ML-DSA-keyGen-FIPS204/internalProjection.json"
#define SIGGEN "acvp/ML-DSA-sigGen-FIPS204/internalProjection.json"
#define SIGVER "acvp/ML-DSA-sigVer-FIPS204/internalProjection.json"

static char *slurp(FILE *f)
{
    size_t cap = 1 << 16, n = 0, got;
    char *buf = malloc(cap);
    assert_non_null(buf);
    while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
        n += got;
        if (n + 1 == cap) {
            buf = realloc(buf, cap *= 2);
            assert_non_null(buf);
        }
    }
    buf[n] = '\0';
    return buf;
}

/* Runs `pqpan ARGS` (ARGS starting with "acvp" or "kem acvp"); returns stdout, *status
 * gets the exit code. */
static char *run_cli(const char *args, int *status)
{
    char cmd[4096];
    FILE *p;
    char *out;
    int rc;
    snprintf(cmd, sizeof cmd, "'%s' %s 2>/dev/null", PQPAN_CLI_PATH, args);
    p = popen(cmd, "r");
    assert_non_null(p);
    out = slurp(p);
    rc = pclose(p);
    assert_true(WIFEXITED(rc));
    *status = WEXITSTATUS(rc);
    return out;
}

static const char *vector_path(char *buf, size_t len, const char *rel)
{
    snprintf(buf, len, "%s/%s", PQPAN_VECTORS_DIR, rel);
    return buf;
}

/* Writes json to a new temporary file; returns its path (caller removes it). */
static char *write_temp(const cJSON *json)
{
    char *path = strdup("/tmp/pqpan_acvp_XXXXXX"), *text = cJSON_Print(json);
    int fd = mkstemp(path);
    FILE *f;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    return path;
}

static const cJSON *find_test(const cJSON *response, double tc_id)
{
    const cJSON *g, *t;
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(response, "testGroups"))
    {
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            if (cJSON_GetObjectItemCaseSensitive(t, "tcId")->valuedouble == tc_id) {
                return t;
            }
        }
    }
    return NULL;
}

/* The fields a response test must carry: by the set's mode and the group's function. */
static const char *const *outputs_of(const char *mode, const cJSON *group)
{
    static const char *const keygen_kem[] = {"ek", "dk", NULL};
    static const char *const encaps[] = {"c", "k", NULL};
    static const char *const decaps[] = {"k", NULL};
    static const char *const passed[] = {"testPassed", NULL};
    static const char *const keygen_dsa[] = {"pk", "sk", NULL};
    static const char *const siggen[] = {"signature", NULL};
    const cJSON *fn = cJSON_GetObjectItemCaseSensitive(group, "function");
    if (strcmp(mode, "keyGen") == 0) {
        return cJSON_GetObjectItemCaseSensitive(group, "parameterSet")->valuestring[3] == 'K'
                   ? keygen_kem
                   : keygen_dsa;
    }
    if (strcmp(mode, "sigGen") == 0) {
        return siggen;
    }
    if (strcmp(mode, "sigVer") == 0 || strstr(fn->valuestring, "KeyCheck") != NULL) {
        return passed;
    }
    return strcmp(fn->valuestring, "encapsulation") == 0 ? encaps : decaps;
}

/* The response of `pqpan CMD REL` holds, for each case, the expected outputs. */
static void check_file(const char *cmd, const char *rel, unsigned want_cases)
{
    char path[1024], args[1200];
    cJSON *vectors = load_json(rel), *response;
    const char *mode = cJSON_GetObjectItemCaseSensitive(vectors, "mode")->valuestring;
    const cJSON *g, *t;
    unsigned cases = 0;
    int status;
    char *out;
    snprintf(args, sizeof args, "%s '%s'", cmd, vector_path(path, sizeof path, rel));
    out = run_cli(args, &status);
    assert_int_equal(status, 0);
    response = cJSON_Parse(out);
    free(out);
    assert_non_null(response);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(vectors, "testGroups"))
    {
        const char *const *outputs = outputs_of(mode, g);
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const cJSON *got = find_test(response, cJSON_GetObjectItemCaseSensitive(t, "tcId")->valuedouble);
            size_t i;
            assert_non_null(got);
            for (i = 0; outputs[i] != NULL; i++) {
                const cJSON *w = cJSON_GetObjectItemCaseSensitive(t, outputs[i]);
                const cJSON *o = cJSON_GetObjectItemCaseSensitive(got, outputs[i]);
                assert_non_null(o);
                if (cJSON_IsBool(w)) {
                    assert_int_equal(cJSON_IsTrue(w), cJSON_IsTrue(o));
                } else {
                    assert_string_equal(o->valuestring, w->valuestring);
                }
            }
            cases++;
        }
    }
    assert_int_equal(cases, want_cases);
    cJSON_Delete(vectors);
    cJSON_Delete(response);
}

static void test_mlkem_files(void **state)
{
    (void)state;
    check_file("kem acvp", KEM_KEYGEN, 75);
    check_file("acvp", KEM_ENCAP, 165);
}

static void test_keygen_file(void **state)
{
    (void)state;
    check_file("acvp", KEYGEN, 75);
}

static void test_siggen_file(void **state)
{
    (void)state;
    check_file("acvp", SIGGEN, 60);
}

static void test_sigver_file(void **state)
{
    (void)state;
    check_file("acvp", SIGVER, 45);
}

/* --expected against the same file: every case passes (JSON report); with one expected
 * signature changed, exactly that case fails on "signature" and the exit code is 1. */
static void test_expected_report(void **state)
{
    char path[1024], args[2400];
    cJSON *vectors = load_json(SIGGEN), *report;
    cJSON *sig;
    char *tmp, *out;
    int status;
    (void)state;
    vector_path(path, sizeof path, SIGGEN);
    snprintf(args, sizeof args, "acvp '%s' --expected '%s' --format json", path, path);
    out = run_cli(args, &status);
    assert_int_equal(status, 0);
    report = cJSON_Parse(out);
    free(out);
    assert_non_null(report);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(report, "cases")->valueint, 60);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(report, "passed")->valueint, 60);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(report, "failed")->valueint, 0);
    cJSON_Delete(report);

    sig = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                               cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(vectors, "testGroups"), 1),
                               "tests"),
                           3),
        "signature");
    sig->valuestring[10] = sig->valuestring[10] == '0' ? '1' : '0';
    tmp = write_temp(vectors);
    snprintf(args, sizeof args, "acvp '%s' --expected '%s' --format json", path, tmp);
    out = run_cli(args, &status);
    remove(tmp);
    free(tmp);
    assert_int_equal(status, 1);
    report = cJSON_Parse(out);
    free(out);
    assert_non_null(report);
    assert_int_equal(cJSON_GetObjectItemCaseSensitive(report, "failed")->valueint, 1);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(
                            cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(report, "results"), 13),
                            "field")->valuestring,
                        "signature");
    cJSON_Delete(report);
    cJSON_Delete(vectors);
}

/* The vector set of rel reduced to its group number `group` with its first test only. */
static cJSON *one_group(const char *rel, int group)
{
    cJSON *vectors = load_json(rel);
    cJSON *groups = cJSON_GetObjectItemCaseSensitive(vectors, "testGroups");
    cJSON *g = cJSON_DetachItemFromArray(groups, group), *tests;
    while (cJSON_GetArraySize(groups) > 0) {
        cJSON_DeleteItemFromArray(groups, 0);
    }
    tests = cJSON_GetObjectItemCaseSensitive(g, "tests");
    while (cJSON_GetArraySize(tests) > 1) {
        cJSON_DeleteItemFromArray(tests, 1);
    }
    cJSON_AddItemToArray(groups, g);
    return vectors;
}

static int run_json(const cJSON *json, char **out)
{
    char *tmp = write_temp(json), args[1100];
    int status;
    snprintf(args, sizeof args, "acvp '%s'", tmp);
    *out = run_cli(args, &status);
    remove(tmp);
    free(tmp);
    return status;
}

/* One decapsulation case in the prompt form: wrapped in [{acvVersion}, ...], dk moved to
 * the group, the expected k removed; the response must still give that k. */
static void test_prompt_form_group_inputs(void **state)
{
    cJSON *vs = one_group(KEM_ENCAP, 4), *root = cJSON_CreateArray(), *response; /* tgId 5 */
    cJSON *group = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(vs, "testGroups"), 0);
    cJSON *test = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(group, "tests"), 0);
    char *want_k, *out;
    (void)state;
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(group, "function")->valuestring,
                        "decapsulation");
    cJSON_AddItemToObject(group, "dk", cJSON_DetachItemFromObject(test, "dk"));
    want_k = strdup(cJSON_GetObjectItemCaseSensitive(test, "k")->valuestring);
    cJSON_DeleteItemFromObject(test, "k");
    cJSON_AddItemToArray(root, cJSON_Parse("{\"acvVersion\":\"1.0\"}"));
    cJSON_AddItemToArray(root, vs);
    assert_int_equal(run_json(root, &out), 0);
    response = cJSON_Parse(out);
    free(out);
    assert_non_null(response);
    test = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                                  cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(response, "testGroups"), 0),
                                  "tests"),
                              0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(test, "k")->valuestring, want_k);
    free(want_k);
    cJSON_Delete(response);
    cJSON_Delete(root);
}

/* A keyGen test whose d is one byte: exit 3 naming the case, nothing on stdout. */
static void test_malformed_file(void **state)
{
    cJSON *vs = cJSON_Parse("{\"algorithm\":\"ML-KEM\",\"mode\":\"keyGen\",\"revision\":\"FIPS203\","
                            "\"testGroups\":[{\"tgId\":1,\"parameterSet\":\"ML-KEM-512\","
                            "\"tests\":[{\"tcId\":1,\"d\":\"00\",\"z\":\"00\"}]}]}");
    char *out;
    (void)state;
    assert_int_equal(run_json(vs, &out), 3);
    assert_string_equal(out, "");
    free(out);
    cJSON_Delete(vs);
}

/* An algorithm pqpan does not implement, and a HashML-DSA group: exit 3, no stdout. */
static void test_refused_sets(void **state)
{
    cJSON *vs = one_group(SIGVER, 0);
    char *out;
    (void)state;
    cJSON_ReplaceItemInObject(vs, "algorithm", cJSON_CreateString("SLH-DSA"));
    assert_int_equal(run_json(vs, &out), 3);
    assert_string_equal(out, "");
    free(out);
    cJSON_ReplaceItemInObject(vs, "algorithm", cJSON_CreateString("ML-DSA"));
    cJSON_AddStringToObject(cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(vs, "testGroups"), 0),
                            "preHash", "preHash");
    assert_int_equal(run_json(vs, &out), 3);
    assert_string_equal(out, "");
    free(out);
    cJSON_Delete(vs);
}

/* An external-interface sigGen group with a context: the signature the CLI returns must
 * verify under ML-DSA.Verify with that context (and not without it). */
static void test_external_interface(void **state)
{
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES],
        sig[PQPAN_SIG_SIG_MAX_BYTES], msg[8192];
    static const uint8_t ctx[4] = {0xC0, 0x7E, 0x47, 0x01};
    uint8_t seed[32];
    cJSON *vs = one_group(SIGGEN, 0), *response;
    cJSON *g = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(vs, "testGroups"), 0);
    cJSON *t = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(g, "tests"), 0);
    size_t msg_len;
    char *out;
    (void)state;
    memset(seed, 0x2A, sizeof seed);
    assert_int_equal(pqpan_mldsa44_keypair_derand(pk, sk, seed), 0);
    {
        char hex[2 * PQPAN_MLDSA44_SK_BYTES + 1];
        size_t i;
        for (i = 0; i < PQPAN_MLDSA44_SK_BYTES; i++) {
            snprintf(hex + 2 * i, 3, "%02X", sk[i]);
        }
        cJSON_ReplaceItemInObject(t, "sk", cJSON_CreateString(hex));
    }
    cJSON_AddStringToObject(g, "signatureInterface", "external");
    cJSON_AddStringToObject(g, "preHash", "pure");
    cJSON_AddStringToObject(t, "context", "C07E4701");
    msg_len = get_hex_any(msg, sizeof msg, t, g, "message");
    assert_int_equal(run_json(vs, &out), 0);
    response = cJSON_Parse(out);
    free(out);
    assert_non_null(response);
    get_hex(sig, PQPAN_MLDSA44_SIG_BYTES, find_test(response, 1), NULL, "signature");
    assert_int_equal(pqpan_mldsa44_verify(pk, msg, msg_len, ctx, sizeof ctx, sig,
                                          PQPAN_MLDSA44_SIG_BYTES), 0);
    assert_int_equal(pqpan_mldsa44_verify(pk, msg, msg_len, NULL, 0, sig, PQPAN_MLDSA44_SIG_BYTES),
                     PQPAN_ERR_AUTH);
    cJSON_Delete(response);
    cJSON_Delete(vs);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_mlkem_files),       cmocka_unit_test(test_prompt_form_group_inputs),
        cmocka_unit_test(test_malformed_file),    cmocka_unit_test(test_keygen_file),
        cmocka_unit_test(test_siggen_file),
        cmocka_unit_test(test_sigver_file),       cmocka_unit_test(test_expected_report),
        cmocka_unit_test(test_refused_sets),      cmocka_unit_test(test_external_interface),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
