/* Tests for src/crypto/kmac.c.
 *
 * Published vectors: NIST "cSHAKE_samples.pdf" samples #3 and #4 (cSHAKE256) and
 * "KMAC_samples.pdf" samples #4, #5 and #6 (KMAC256), from the SP 800-185 examples page
 * of NIST CSRC. Further values (a key and a customization string longer than one rate
 * block, a 1-byte output) come from an independent Python model: pycryptodome's raw Keccak
 * with padding byte 0x04 plus the SP 800-185 §2.3 encodings written from the spec text; that
 * model reproduces KMAC256 samples #4 and #5 exactly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/common.h"
#include "pqpan/kmac.h"

static const char tagged[] = "My Tagged Application";
static const char email[] = "Email Signature";

static size_t hex_to_bytes(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex) / 2;
    size_t i;
    assert_true(n <= cap);
    for (i = 0; i < n; i++) {
        unsigned v = 0;
        int j;
        for (j = 0; j < 2; j++) {
            char c = hex[2 * i + (size_t)j];
            v = v * 16 + (unsigned)(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        out[i] = (uint8_t)v;
    }
    return n;
}

/* 00 01 02 ... (len - 1): the sample messages. */
static void counting(uint8_t *out, size_t len, unsigned start)
{
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)(start + i);
    }
}

static void assert_hex(const uint8_t *got, size_t len, const char *hex)
{
    uint8_t want[128];
    size_t n = hex_to_bytes(want, sizeof want, hex);
    assert_int_equal(n, len);
    assert_memory_equal(got, want, len);
}

struct cshake_case {
    size_t data_len;
    const char *out_hex;
};

static const struct cshake_case cshake_cases[] = {
    /* cSHAKE256 sample #3: X = 00..03, N = "", S = "Email Signature", L = 512. */
    {4, "D008828E2B80AC9D2218FFEE1D070C48B8E4C87BFF32C9699D5B6896EEE0EDD1"
        "64020E2BE0560858D9C00C037E34A96937C561A74C412BB4C746469527281C8C"},
    /* cSHAKE256 sample #4: X = 00..C7, same N, S, L. */
    {200, "07DC27B11E51FBAC75BC7B3C1D983E8B4B85FB1DEFAF218912AC864302730917"
          "27F42B17ED1DF63E8EC118F04B23633C1DFB1574C8FB55CB45DA8E25AFB092BB"},
};

static void test_cshake256_nist_samples(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cshake_cases / sizeof cshake_cases[0]; i++) {
        struct pqpan_cshake256_ctx ctx;
        uint8_t data[200], out[64];
        counting(data, cshake_cases[i].data_len, 0);
        assert_int_equal(pqpan_cshake256_init(&ctx, NULL, 0, (const uint8_t *)email,
                                              strlen(email)),
                         PQPAN_OK);
        pqpan_cshake256_absorb(&ctx, data, cshake_cases[i].data_len);
        pqpan_cshake256_squeeze(&ctx, out, 10);
        pqpan_cshake256_squeeze(&ctx, out + 10, sizeof out - 10);
        assert_hex(out, sizeof out, cshake_cases[i].out_hex);
    }
}

static void test_cshake256_without_name_and_customization_is_shake256(void **state)
{
    struct pqpan_cshake256_ctx ctx;
    uint8_t got[64], want[64];
    (void)state;
    assert_int_equal(pqpan_cshake256_init(&ctx, NULL, 0, NULL, 0), PQPAN_OK);
    pqpan_cshake256_absorb(&ctx, (const uint8_t *)"abc", 3);
    pqpan_cshake256_squeeze(&ctx, got, sizeof got);
    pqpan_shake256(want, sizeof want, (const uint8_t *)"abc", 3);
    assert_memory_equal(got, want, sizeof got);
}

struct kmac_case {
    const char *name;
    size_t key_len;   /* key: pattern below */
    int long_key;     /* 0: 40 41 .. 5F; 1: (7i + 3) mod 256 */
    size_t data_len;  /* data: 00 01 02 ... */
    const char *custom;
    int long_custom;  /* 1: 150 bytes (11i + 5) mod 256 instead of custom */
    const char *out_hex;
};

static const struct kmac_case kmac_cases[] = {
    {"NIST KMAC256 sample #4", 32, 0, 4, tagged, 0,
     "20C570C31346F703C9AC36C61C03CB64C3970D0CFC787E9B79599D273A68D2F7"
     "F69D4CC3DE9D104A351689F27CF6F5951F0103F33F4F24871024D9C27773A8DD"},
    {"NIST KMAC256 sample #5", 32, 0, 200, "", 0,
     "75358CF39E41494E949707927CEE0AF20A3FF553904C86B08F21CC414BCFD691"
     "589D27CF5E15369CBBFF8B9A4C2EB17800855D0235FF635DA82533EC6B759B69"},
    {"NIST KMAC256 sample #6", 32, 0, 200, tagged, 0,
     "B58618F71F92E1D56C1B8C55DDD7CD188B97B4CA4D99831EB2699A837DA2E4D9"
     "70FBACFDE50033AEA585F1A2708510C32D07880801BD182898FE476876FC8965"},
    {"python: 200-byte key, 150-byte S, 137-byte X, L=256", 200, 1, 137, NULL, 1,
     "36432c9387f6f9cd44f5f1f0553aa21dd1b29ca6ce547283415a33c0a30b38c3"},
    {"python: empty X, L=8", 32, 0, 0, "", 0, "d2"},
};

static void fill_case_inputs(const struct kmac_case *c, uint8_t key[200], uint8_t data[200],
                             uint8_t custom[150], size_t *custom_len)
{
    size_t i;
    for (i = 0; i < c->key_len; i++) {
        key[i] = c->long_key ? (uint8_t)(7 * i + 3) : (uint8_t)(0x40 + i);
    }
    counting(data, c->data_len, 0);
    if (c->long_custom) {
        for (i = 0; i < 150; i++) {
            custom[i] = (uint8_t)(11 * i + 5);
        }
        *custom_len = 150;
    } else {
        *custom_len = strlen(c->custom);
        memcpy(custom, c->custom, *custom_len);
    }
}

static void test_kmac256_vectors_one_shot(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof kmac_cases / sizeof kmac_cases[0]; i++) {
        const struct kmac_case *c = &kmac_cases[i];
        uint8_t key[200], data[200], custom[150], out[64];
        size_t custom_len, out_len = strlen(c->out_hex) / 2;
        fill_case_inputs(c, key, data, custom, &custom_len);
        assert_int_equal(pqpan_kmac256(out, out_len, key, c->key_len, data, c->data_len,
                                       custom, custom_len),
                         PQPAN_OK);
        assert_hex(out, out_len, c->out_hex);
    }
}

/* The same vectors, absorbing X in every two-piece split. */
static void test_kmac256_vectors_incremental_every_split(void **state)
{
    size_t i, split;
    (void)state;
    for (i = 0; i < sizeof kmac_cases / sizeof kmac_cases[0]; i++) {
        const struct kmac_case *c = &kmac_cases[i];
        uint8_t key[200], data[200], custom[150], out[64];
        size_t custom_len, out_len = strlen(c->out_hex) / 2;
        fill_case_inputs(c, key, data, custom, &custom_len);
        for (split = 0; split <= c->data_len; split++) {
            struct pqpan_kmac256_ctx ctx;
            assert_int_equal(pqpan_kmac256_init(&ctx, key, c->key_len, custom, custom_len),
                             PQPAN_OK);
            pqpan_kmac256_absorb(&ctx, data, split);
            pqpan_kmac256_absorb(&ctx, data + split, c->data_len - split);
            assert_int_equal(pqpan_kmac256_final(&ctx, out, out_len), PQPAN_OK);
            assert_hex(out, out_len, c->out_hex);
        }
    }
}

/* L is an input of KMAC: a 32-byte tag is not the prefix of the 64-byte one. */
static void test_kmac256_output_length_changes_every_byte_prefix(void **state)
{
    uint8_t key[32], short_out[32], long_out[64];
    (void)state;
    counting(key, sizeof key, 0x40);
    assert_int_equal(pqpan_kmac256(short_out, sizeof short_out, key, sizeof key,
                                   (const uint8_t *)"x", 1, NULL, 0),
                     PQPAN_OK);
    assert_int_equal(pqpan_kmac256(long_out, sizeof long_out, key, sizeof key,
                                   (const uint8_t *)"x", 1, NULL, 0),
                     PQPAN_OK);
    assert_memory_not_equal(short_out, long_out, sizeof short_out);
}

static void test_kmac256_final_wipes_context(void **state)
{
    struct pqpan_kmac256_ctx ctx, zero;
    uint8_t key[32], out[32];
    (void)state;
    counting(key, sizeof key, 0x40);
    memset(&zero, 0, sizeof zero);
    assert_int_equal(pqpan_kmac256_init(&ctx, key, sizeof key, NULL, 0), PQPAN_OK);
    pqpan_kmac256_absorb(&ctx, key, sizeof key);
    assert_int_equal(pqpan_kmac256_final(&ctx, out, sizeof out), PQPAN_OK);
    assert_memory_equal(&ctx, &zero, sizeof ctx);
}

static void test_kmac256_rejects_null_with_length(void **state)
{
    struct pqpan_kmac256_ctx ctx;
    struct pqpan_cshake256_ctx cs;
    uint8_t out[16];
    (void)state;
    memset(out, 0xAA, sizeof out);
    assert_int_equal(pqpan_kmac256_init(NULL, NULL, 0, NULL, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_kmac256_init(&ctx, NULL, 5, NULL, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_kmac256_init(&ctx, out, 5, NULL, 3), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_cshake256_init(&cs, NULL, 1, NULL, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_kmac256(out, sizeof out, out, 4, NULL, 9, NULL, 0),
                     PQPAN_ERR_INVALID_ARG);
    assert_true(pqpan_ct_equal(out, (const uint8_t[16]){0}, sizeof out));
}

/* A second final, absorbing after final, and a context whose init failed: each refused
 * with PQPAN_ERR_STATE, no write past the context (guard intact), the output zeroed. */
static void test_kmac256_misuse_refused_memory_untouched(void **state)
{
    struct {
        struct pqpan_kmac256_ctx ctx;
        uint8_t guard[512];
    } g;
    struct pqpan_kmac256_ctx zero;
    uint8_t key[32], msg[300], out[32];
    size_t i;
    (void)state;
    counting(key, sizeof key, 0x40);
    memset(msg, 0x3C, sizeof msg);
    memset(&zero, 0, sizeof zero);
    memset(g.guard, 0x5A, sizeof g.guard);
    assert_int_equal(pqpan_kmac256_init(&g.ctx, key, sizeof key, NULL, 0), PQPAN_OK);
    assert_int_equal(pqpan_kmac256_final(&g.ctx, out, sizeof out), PQPAN_OK);
    assert_int_equal(pqpan_kmac256_absorb(&g.ctx, msg, sizeof msg), PQPAN_ERR_STATE);
    memset(out, 0xEE, sizeof out);
    assert_int_equal(pqpan_kmac256_final(&g.ctx, out, sizeof out), PQPAN_ERR_STATE);
    assert_true(pqpan_ct_equal(out, (const uint8_t[32]){0}, sizeof out));
    assert_memory_equal(&g.ctx, &zero, sizeof zero);
    assert_int_equal(pqpan_kmac256_init(&g.ctx, NULL, 5, NULL, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_kmac256_absorb(&g.ctx, msg, sizeof msg), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_kmac256_final(&g.ctx, out, sizeof out), PQPAN_ERR_STATE);
    assert_memory_equal(&g.ctx, &zero, sizeof zero);
    for (i = 0; i < sizeof g.guard; i++) {
        assert_int_equal(g.guard[i], 0x5A);
    }
}

/* cSHAKE256: absorbing after the first squeeze is refused and changes nothing. */
static void test_cshake256_absorb_after_squeeze_refused(void **state)
{
    struct pqpan_cshake256_ctx ctx, before;
    uint8_t out[16];
    (void)state;
    assert_int_equal(pqpan_cshake256_init(&ctx, (const uint8_t *)"N", 1, NULL, 0), PQPAN_OK);
    assert_int_equal(pqpan_cshake256_squeeze(&ctx, out, sizeof out), PQPAN_OK);
    before = ctx;
    assert_int_equal(pqpan_cshake256_absorb(&ctx, out, sizeof out), PQPAN_ERR_STATE);
    assert_memory_equal(&ctx, &before, sizeof ctx);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cshake256_nist_samples),
        cmocka_unit_test(test_cshake256_without_name_and_customization_is_shake256),
        cmocka_unit_test(test_kmac256_vectors_one_shot),
        cmocka_unit_test(test_kmac256_vectors_incremental_every_split),
        cmocka_unit_test(test_kmac256_output_length_changes_every_byte_prefix),
        cmocka_unit_test(test_kmac256_final_wipes_context),
        cmocka_unit_test(test_kmac256_rejects_null_with_length),
        cmocka_unit_test(test_kmac256_misuse_refused_memory_untouched),
        cmocka_unit_test(test_cshake256_absorb_after_squeeze_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
