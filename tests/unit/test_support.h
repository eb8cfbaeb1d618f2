/* Helpers shared by the crypto unit tests (test_mlkem.c, test_mldsa.c): a deterministic
 * random source, ACVP JSON loading and hex fields. Include after <cmocka.h>. */
#ifndef PQPAN_TEST_SUPPORT_H
#define PQPAN_TEST_SUPPORT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cJSON.h>

#include "cli.h"
#include "pqpan/io.h"

/* splitmix64 (Steele, Lea, Flood, OOPSLA 2014): a small deterministic generator. */
static inline uint64_t splitmix64(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline void fill_random(uint64_t *s, uint8_t *out, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)splitmix64(s);
    }
}

/* A pqpan_rng_fn over splitmix64; ctx is the uint64_t state. */
static inline int test_rng(void *ctx, uint8_t *out, size_t len)
{
    fill_random(ctx, out, len);
    return 0;
}

/* A pqpan_rng_fn that always fails. */
static inline int failing_rng(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    (void)out;
    (void)len;
    return -1;
}

static inline int is_all_zero(const uint8_t *p, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        if (p[i] != 0) {
            return 0;
        }
    }
    return 1;
}

/* tests/vectors/<relpath> parsed as JSON (fails the test if it cannot be read). */
static inline cJSON *load_json(const char *relpath)
{
    char path[1024], err[256];
    struct pqpan_io_text t;
    cJSON *json;
    snprintf(path, sizeof path, "%s/%s", PQPAN_VECTORS_DIR, relpath);
    assert_int_equal(pqpan_io_read_file(&t, path, PQPAN_IO_FILE_MAX, err, sizeof err), PQPAN_OK);
    json = cJSON_ParseWithLength(t.text, t.len);
    pqpan_io_text_free(&t);
    assert_non_null(json);
    return json;
}

/* Field `name` of the test, else of its group (ACVP allows both), decoded from hex into
 * out (at most cap bytes); returns the number of bytes. */
static inline size_t get_hex_any(uint8_t *out, size_t cap, const cJSON *test, const cJSON *group,
                                 const char *name)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(test, name);
    const char *s;
    size_t len;
    if (item == NULL) {
        item = cJSON_GetObjectItemCaseSensitive(group, name);
    }
    assert_true(cJSON_IsString(item));
    s = item->valuestring;
    len = strlen(s) / 2;
    assert_true(len <= cap);
    assert_int_equal(cli_hex_decode(out, len, s), 0);
    return len;
}

/* As get_hex_any, but the field must hold exactly `want` bytes. */
static inline void get_hex(uint8_t *out, size_t want, const cJSON *test, const cJSON *group,
                           const char *name)
{
    assert_int_equal(get_hex_any(out, want, test, group, name), want);
}

/* The group's "parameterSet" string. */
static inline const char *group_param(const cJSON *group)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(group, "parameterSet");
    assert_true(cJSON_IsString(p));
    return p->valuestring;
}

/* The test's "testPassed" boolean. */
static inline int test_passed(const cJSON *test)
{
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(test, "testPassed");
    assert_true(cJSON_IsBool(p));
    return cJSON_IsTrue(p);
}

#endif
