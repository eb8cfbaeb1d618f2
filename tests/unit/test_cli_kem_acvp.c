/* `pqpan kem acvp` against the NIST ACVP ML-KEM files (tests/vectors/acvp): the CLI's
 * response must give, for every test case, the expected ek/dk, c/k, k or testPassed of
 * the internalProjection file. Also the prompt form ([{acvVersion}, {vector set}]) with
 * inputs at group level, and a malformed file (exit 3, nothing on stdout). */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include <cJSON.h>
#include <cmocka.h>

#define KEYGEN "acvp/ML-KEM-keyGen-FIPS203/internalProjection.json"
#define ENCAP "acvp/ML-KEM-encapDecap-FIPS203/internalProjection.json"

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

static cJSON *load(const char *path)
{
    FILE *f = fopen(path, "rb");
    char *text;
    cJSON *json;
    assert_non_null(f);
    text = slurp(f);
    fclose(f);
    json = cJSON_Parse(text);
    free(text);
    assert_non_null(json);
    return json;
}

/* Runs `pqpan kem acvp path`; returns stdout, *status gets the exit code. */
static char *run_cli(const char *path, int *status)
{
    char cmd[2048];
    FILE *p;
    char *out;
    int rc;
    snprintf(cmd, sizeof cmd, "'%s' kem acvp '%s' 2>/dev/null", PQPAN_CLI_PATH, path);
    p = popen(cmd, "r");
    assert_non_null(p);
    out = slurp(p);
    rc = pclose(p);
    assert_true(WIFEXITED(rc));
    *status = WEXITSTATUS(rc);
    return out;
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

/* Every output field the vector file expects for this function, compared. */
static unsigned compare_case(const cJSON *want, const cJSON *got, const char *function)
{
    static const char *const hex_fields[] = {"ek", "dk", "c", "k"};
    size_t i;
    unsigned compared = 0;
    if (strstr(function, "KeyCheck") != NULL) {
        const cJSON *w = cJSON_GetObjectItemCaseSensitive(want, "testPassed");
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(got, "testPassed");
        assert_true(cJSON_IsBool(w) && cJSON_IsBool(g));
        assert_int_equal(cJSON_IsTrue(w), cJSON_IsTrue(g));
        return 1;
    }
    for (i = 0; i < sizeof hex_fields / sizeof hex_fields[0]; i++) {
        const char *name = hex_fields[i];
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(got, name);
        const int is_output = strcmp(function, "keyGen") == 0
                                  ? (name[0] == 'e' || name[0] == 'd')
                                  : strcmp(function, "encapsulation") == 0
                                        ? (name[0] == 'c' || name[0] == 'k')
                                        : name[0] == 'k';
        if (!is_output) {
            continue;
        }
        assert_non_null(g);
        assert_string_equal(g->valuestring,
                            cJSON_GetObjectItemCaseSensitive(want, name)->valuestring);
        compared++;
    }
    return compared;
}

static unsigned check_file(const char *rel, unsigned want_cases)
{
    char path[1024];
    cJSON *vectors, *response;
    const cJSON *g, *t;
    unsigned cases = 0;
    int status;
    char *out;
    snprintf(path, sizeof path, "%s/%s", PQPAN_VECTORS_DIR, rel);
    vectors = load(path);
    out = run_cli(path, &status);
    assert_int_equal(status, 0);
    response = cJSON_Parse(out);
    free(out);
    assert_non_null(response);
    cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(vectors, "testGroups"))
    {
        const cJSON *fn = cJSON_GetObjectItemCaseSensitive(g, "function");
        cJSON_ArrayForEach(t, cJSON_GetObjectItemCaseSensitive(g, "tests"))
        {
            const cJSON *got = find_test(response, cJSON_GetObjectItemCaseSensitive(t, "tcId")->valuedouble);
            assert_non_null(got);
            assert_true(compare_case(t, got, fn ? fn->valuestring : "keyGen") > 0);
            cases++;
        }
    }
    assert_int_equal(cases, want_cases);
    cJSON_Delete(vectors);
    cJSON_Delete(response);
    return cases;
}

static void test_keygen_file(void **state)
{
    (void)state;
    check_file(KEYGEN, 75);
}

static void test_encap_decap_file(void **state)
{
    (void)state;
    check_file(ENCAP, 165);
}

/* One decapsulation case in the prompt form: wrapped in [{acvVersion}, ...], dk moved to
 * the group, the expected k removed. */
static void test_prompt_form_group_inputs(void **state)
{
    char path[1024], tmpl[] = "/tmp/pqpan_acvp_XXXXXX";
    cJSON *vectors, *groups, *group, *tests, *test, *root, *response;
    char *text, *out, *want_k;
    FILE *f;
    int fd, status;
    (void)state;
    snprintf(path, sizeof path, "%s/%s", PQPAN_VECTORS_DIR, ENCAP);
    vectors = load(path);
    groups = cJSON_GetObjectItemCaseSensitive(vectors, "testGroups");
    group = cJSON_DetachItemFromArray(groups, 4); /* tgId 5: ML-KEM-768 decapsulation */
    tests = cJSON_GetObjectItemCaseSensitive(group, "tests");
    while (cJSON_GetArraySize(tests) > 1) {
        cJSON_DeleteItemFromArray(tests, 1);
    }
    test = cJSON_GetArrayItem(tests, 0);
    cJSON_AddItemToObject(group, "dk", cJSON_DetachItemFromObject(test, "dk"));
    want_k = strdup(cJSON_GetObjectItemCaseSensitive(test, "k")->valuestring);
    cJSON_DeleteItemFromObject(test, "k");
    while (cJSON_GetArraySize(groups) > 0) {
        cJSON_DeleteItemFromArray(groups, 0);
    }
    cJSON_AddItemToArray(groups, group);
    root = cJSON_CreateArray();
    cJSON_AddItemToArray(root, cJSON_Parse("{\"acvVersion\":\"1.0\"}"));
    cJSON_AddItemToArray(root, vectors);
    text = cJSON_Print(root);
    fd = mkstemp(tmpl);
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    free(text);
    out = run_cli(tmpl, &status);
    remove(tmpl);
    assert_int_equal(status, 0);
    response = cJSON_Parse(out);
    assert_non_null(response);
    test = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(
                                  cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(response, "testGroups"), 0),
                                  "tests"),
                              0);
    assert_string_equal(cJSON_GetObjectItemCaseSensitive(test, "k")->valuestring, want_k);
    free(out);
    free(want_k);
    cJSON_Delete(response);
    cJSON_Delete(root);
}

static void test_malformed_file(void **state)
{
    char tmpl[] = "/tmp/pqpan_acvp_XXXXXX";
    int fd = mkstemp(tmpl), status;
    FILE *f;
    char *out;
    (void)state;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("{\"mode\":\"keyGen\",\"testGroups\":[{\"tgId\":1,\"parameterSet\":\"ML-KEM-512\","
          "\"tests\":[{\"tcId\":1,\"d\":\"00\",\"z\":\"00\"}]}]}",
          f);
    fclose(f);
    out = run_cli(tmpl, &status);
    remove(tmpl);
    assert_int_equal(status, 3);
    assert_string_equal(out, "");
    free(out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keygen_file),
        cmocka_unit_test(test_encap_decap_file),
        cmocka_unit_test(test_prompt_form_group_inputs),
        cmocka_unit_test(test_malformed_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
