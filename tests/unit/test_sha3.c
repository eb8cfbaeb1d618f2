/* Tests for src/crypto/sha3.c against the FIPS 202 example values (NIST CSRC "Examples
 * with Intermediate Values": empty message, "abc", 1600-bit message of 0xA3 bytes).
 * Expected digests were produced with Python's hashlib (an independent implementation),
 * and the short ones agree with the published NIST example files. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/error.h"
#include "pqpan/sha3.h"

struct sha3_case {
    const char *name;
    size_t len; /* message = len bytes: "" / "abc" / 0xA3 repeated */
    const char *sha3_256;
    const char *sha3_512;
    const char *shake128_32; /* first 32 output bytes */
    const char *shake256_64; /* first 64 output bytes */
};

static const struct sha3_case cases[] = {
    {"empty", 0, "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
     "a69f73cca23a9ac5c8b567dc185a756e97c982164fe25859e0d1dcc1475c80a6"
     "15b2123af1f5f94c11e3e9402c3ac558f500199d95b6d3e301758586281dcd26",
     "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26",
     "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f"
     "d75dc4ddd8c0f200cb05019d67b592f6fc821c49479ab48640292eacb3b7c4be"},
    {"abc", 3, "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
     "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
     "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0",
     "5881092dd818bf5cf8a3ddb793fbcba74097d5c526a6d35f97b83351940f2cc8",
     "483366601360a8771c6863080cc4114d8db44530f8f1e1ee4f94ea37e78b5739"
     "d5a15bef186a5386c75744c0527e1faa9f8726e462a12a4feb06bd8801e751e4"},
    {"a3x200", 200, "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787",
     "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
     "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00",
     "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037",
     "cd8a920ed141aa0407a22d59288652e9d9f1a7ee0c1e7c1ca699424da84a904d"
     "2d700caae7396ece96604440577da4f3aa22aeb8857f961c4cd8e06f0ae6610b"},
};

/* SHA3-256 of the first 512 output bytes of SHAKE128 / SHAKE256 of the 0xA3 message
 * (long output across several squeeze blocks; hashlib). */
static const char *const shake128_512_digest =
    "70ee622999bda44af5ef3bb03a4afb254e0973e12d8d6b3382e0613cfc8efc23";
static const char *const shake256_512_digest =
    "2730489e394c59f24db0aa5275070ec976a5e81f17599cb4c28149603ae10a09";

static void hex_to_bytes(uint8_t *out, const char *hex, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        unsigned v = 0;
        int j;
        for (j = 0; j < 2; j++) {
            char c = hex[2 * i + (size_t)j];
            v = v * 16 + (unsigned)(c <= '9' ? c - '0' : c - 'a' + 10);
        }
        out[i] = (uint8_t)v;
    }
}

static void assert_hex(const uint8_t *got, const char *hex)
{
    uint8_t want[64];
    size_t n = strlen(hex) / 2;
    assert_true(n <= sizeof want);
    hex_to_bytes(want, hex, n);
    assert_memory_equal(got, want, n);
}

static size_t make_message(uint8_t msg[200], size_t len)
{
    if (len == 3) {
        memcpy(msg, "abc", 3);
    } else {
        memset(msg, 0xA3, len);
    }
    return len;
}

static void test_fips202_examples(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        uint8_t msg[200], out[64];
        size_t len = make_message(msg, cases[i].len);
        pqpan_sha3_256(out, msg, len);
        assert_hex(out, cases[i].sha3_256);
        pqpan_sha3_512(out, msg, len);
        assert_hex(out, cases[i].sha3_512);
        pqpan_shake128(out, 32, msg, len);
        assert_hex(out, cases[i].shake128_32);
        pqpan_shake256(out, 64, msg, len);
        assert_hex(out, cases[i].shake256_64);
    }
}

static void test_shake_long_output(void **state)
{
    uint8_t msg[200], out[512], digest[32];
    (void)state;
    memset(msg, 0xA3, sizeof msg);
    pqpan_shake128(out, sizeof out, msg, sizeof msg);
    pqpan_sha3_256(digest, out, sizeof out);
    assert_hex(digest, shake128_512_digest);
    pqpan_shake256(out, sizeof out, msg, sizeof msg);
    pqpan_sha3_256(digest, out, sizeof out);
    assert_hex(digest, shake256_512_digest);
}

/* A message longer than two blocks of every rate, with varied byte values. */
#define LONG_LEN 400

static void fill_long(uint8_t msg[LONG_LEN])
{
    size_t i;
    for (i = 0; i < LONG_LEN; i++) {
        msg[i] = (uint8_t)(i * 131 + 7);
    }
}

static void test_incremental_absorb_every_split(void **state)
{
    uint8_t msg[LONG_LEN], want256[32], want512[64], want128x[64], want256x[64];
    size_t split;
    (void)state;
    fill_long(msg);
    pqpan_sha3_256(want256, msg, sizeof msg);
    pqpan_sha3_512(want512, msg, sizeof msg);
    pqpan_shake128(want128x, sizeof want128x, msg, sizeof msg);
    pqpan_shake256(want256x, sizeof want256x, msg, sizeof msg);
    for (split = 0; split <= LONG_LEN; split++) {
        struct pqpan_sha3_256_ctx c256;
        struct pqpan_sha3_512_ctx c512;
        struct pqpan_shake128_ctx s128;
        struct pqpan_shake256_ctx s256;
        uint8_t out[64];
        pqpan_sha3_256_init(&c256);
        pqpan_sha3_256_absorb(&c256, msg, split);
        pqpan_sha3_256_absorb(&c256, msg + split, LONG_LEN - split);
        pqpan_sha3_256_final(&c256, out);
        assert_memory_equal(out, want256, 32);
        pqpan_sha3_512_init(&c512);
        pqpan_sha3_512_absorb(&c512, msg, split);
        pqpan_sha3_512_absorb(&c512, msg + split, LONG_LEN - split);
        pqpan_sha3_512_final(&c512, out);
        assert_memory_equal(out, want512, 64);
        pqpan_shake128_init(&s128);
        pqpan_shake128_absorb(&s128, msg, split);
        pqpan_shake128_absorb(&s128, msg + split, LONG_LEN - split);
        pqpan_shake128_finalize(&s128);
        pqpan_shake128_squeeze(&s128, out, 64);
        assert_memory_equal(out, want128x, 64);
        pqpan_shake256_init(&s256);
        pqpan_shake256_absorb(&s256, msg, split);
        pqpan_shake256_absorb(&s256, msg + split, LONG_LEN - split);
        pqpan_shake256_squeeze(&s256, out, 64);
        assert_memory_equal(out, want256x, 64);
    }
}

static void test_byte_by_byte_absorb(void **state)
{
    uint8_t msg[LONG_LEN], want[32], out[32];
    struct pqpan_sha3_256_ctx ctx;
    size_t i;
    (void)state;
    fill_long(msg);
    pqpan_sha3_256(want, msg, sizeof msg);
    pqpan_sha3_256_init(&ctx);
    for (i = 0; i < LONG_LEN; i++) {
        pqpan_sha3_256_absorb(&ctx, msg + i, 1);
    }
    pqpan_sha3_256_final(&ctx, out);
    assert_memory_equal(out, want, 32);
}

static void test_incremental_squeeze_every_split(void **state)
{
    uint8_t msg[LONG_LEN], want128[LONG_LEN], want256[LONG_LEN], out[LONG_LEN];
    size_t split;
    (void)state;
    fill_long(msg);
    pqpan_shake128(want128, sizeof want128, msg, 33);
    pqpan_shake256(want256, sizeof want256, msg, 33);
    for (split = 0; split <= LONG_LEN; split++) {
        struct pqpan_shake128_ctx s128;
        struct pqpan_shake256_ctx s256;
        pqpan_shake128_init(&s128);
        pqpan_shake128_absorb(&s128, msg, 33);
        pqpan_shake128_squeeze(&s128, out, split);
        pqpan_shake128_squeeze(&s128, out + split, LONG_LEN - split);
        assert_memory_equal(out, want128, LONG_LEN);
        pqpan_shake256_init(&s256);
        pqpan_shake256_absorb(&s256, msg, 33);
        pqpan_shake256_finalize(&s256);
        pqpan_shake256_squeeze(&s256, out, split);
        pqpan_shake256_squeeze(&s256, out + split, LONG_LEN - split);
        assert_memory_equal(out, want256, LONG_LEN);
    }
}

static void test_squeezeblocks_matches_squeeze(void **state)
{
    uint8_t msg[34], want[3 * PQPAN_SHAKE128_RATE], out[3 * PQPAN_SHAKE128_RATE];
    struct pqpan_shake128_ctx s128;
    struct pqpan_shake256_ctx s256;
    (void)state;
    memset(msg, 0x5C, sizeof msg);
    pqpan_shake128(want, sizeof want, msg, sizeof msg);
    pqpan_shake128_init(&s128);
    pqpan_shake128_absorb(&s128, msg, sizeof msg);
    pqpan_shake128_finalize(&s128);
    pqpan_shake128_squeezeblocks(&s128, out, 2);
    pqpan_shake128_squeezeblocks(&s128, out + 2 * PQPAN_SHAKE128_RATE, 1);
    assert_memory_equal(out, want, sizeof want);
    pqpan_shake256(want, 3 * PQPAN_SHAKE256_RATE, msg, sizeof msg);
    pqpan_shake256_init(&s256);
    pqpan_shake256_absorb(&s256, msg, sizeof msg);
    pqpan_shake256_finalize(&s256);
    pqpan_shake256_squeezeblocks(&s256, out, 3);
    assert_memory_equal(out, want, 3 * PQPAN_SHAKE256_RATE);
}

/* The generic sponge with SHA3-256's parameters is SHA3-256; bad rates are refused. */
static void test_generic_sponge(void **state)
{
    struct pqpan_keccak_ctx ctx;
    uint8_t out[32], want[32];
    (void)state;
    pqpan_sha3_256(want, (const uint8_t *)"abc", 3);
    assert_int_equal(pqpan_keccak_init(&ctx, PQPAN_SHA3_256_RATE, PQPAN_KECCAK_DS_SHA3), 0);
    pqpan_keccak_absorb(&ctx, (const uint8_t *)"abc", 3);
    pqpan_keccak_finalize(&ctx);
    pqpan_keccak_squeeze(&ctx, out, sizeof out);
    assert_memory_equal(out, want, sizeof out);
    assert_int_equal(pqpan_keccak_init(&ctx, 0, 0x06), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_keccak_init(&ctx, 200, 0x06), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_keccak_init(&ctx, 137, 0x06), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_keccak_init(NULL, 136, 0x06), PQPAN_ERR_INVALID_ARG);
}

/* A struct copy clones a hash in progress (no interior pointers). */
static void test_context_copy_clones(void **state)
{
    struct pqpan_sha3_256_ctx a, b;
    uint8_t out_a[32], out_b[32];
    (void)state;
    pqpan_sha3_256_init(&a);
    pqpan_sha3_256_absorb(&a, (const uint8_t *)"ab", 2);
    b = a;
    pqpan_sha3_256_absorb(&a, (const uint8_t *)"c", 1);
    pqpan_sha3_256_absorb(&b, (const uint8_t *)"c", 1);
    pqpan_sha3_256_final(&a, out_a);
    pqpan_sha3_256_final(&b, out_b);
    assert_memory_equal(out_a, out_b, 32);
    assert_hex(out_a, cases[1].sha3_256);
}

/* A context followed by guard bytes: a write past the sponge lands in the guard. */
struct guarded_sha3 {
    struct pqpan_sha3_256_ctx ctx;
    uint8_t guard[512];
};

static void guard_fill(struct guarded_sha3 *g)
{
    memset(g->guard, 0x5A, sizeof g->guard);
}

static void assert_guard_intact(const struct guarded_sha3 *g)
{
    size_t i;
    for (i = 0; i < sizeof g->guard; i++) {
        assert_int_equal(g->guard[i], 0x5A);
    }
}

/* Absorbing into a context the final wiped, and finalising it again: both refused, the
 * wiped context and the memory after it unchanged, the second digest zeroed. */
static void test_sha3_absorb_and_final_after_final_refused(void **state)
{
    struct guarded_sha3 g;
    struct pqpan_sha3_256_ctx wiped;
    uint8_t msg[300], out[32];
    (void)state;
    memset(msg, 0xC3, sizeof msg);
    guard_fill(&g);
    pqpan_sha3_256_init(&g.ctx);
    assert_int_equal(pqpan_sha3_256_absorb(&g.ctx, (const uint8_t *)"abc", 3), PQPAN_OK);
    assert_int_equal(pqpan_sha3_256_final(&g.ctx, out), PQPAN_OK);
    assert_hex(out, cases[1].sha3_256);
    wiped = g.ctx;
    assert_int_equal(pqpan_sha3_256_absorb(&g.ctx, msg, sizeof msg), PQPAN_ERR_STATE);
    assert_memory_equal(&g.ctx, &wiped, sizeof wiped);
    memset(out, 0xEE, sizeof out);
    assert_int_equal(pqpan_sha3_256_final(&g.ctx, out), PQPAN_ERR_STATE);
    assert_memory_equal(&g.ctx, &wiped, sizeof wiped);
    assert_true(out[0] == 0 && memcmp(out, out + 1, sizeof out - 1) == 0);
    assert_guard_intact(&g);
}

/* SHAKE: absorbing after finalize (or after a squeeze), finalising twice: refused. */
static void test_shake_absorb_after_finalize_refused(void **state)
{
    struct pqpan_shake256_ctx ctx, before;
    uint8_t out[64], want[64];
    (void)state;
    pqpan_shake256(want, sizeof want, (const uint8_t *)"abc", 3);
    pqpan_shake256_init(&ctx);
    assert_int_equal(pqpan_shake256_absorb(&ctx, (const uint8_t *)"abc", 3), PQPAN_OK);
    assert_int_equal(pqpan_shake256_finalize(&ctx), PQPAN_OK);
    before = ctx;
    assert_int_equal(pqpan_shake256_finalize(&ctx), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_shake256_absorb(&ctx, (const uint8_t *)"x", 1), PQPAN_ERR_STATE);
    assert_memory_equal(&ctx, &before, sizeof ctx);
    assert_int_equal(pqpan_shake256_squeeze(&ctx, out, sizeof out), PQPAN_OK);
    assert_memory_equal(out, want, sizeof out); /* the refused calls changed nothing */
    assert_int_equal(pqpan_shake256_absorb(&ctx, (const uint8_t *)"x", 1), PQPAN_ERR_STATE);
}

/* A sponge whose init failed (bad rate: zeroed) refuses every call and is left zeroed. */
static void test_failed_init_context_refused(void **state)
{
    struct {
        struct pqpan_keccak_ctx ctx;
        uint8_t guard[512];
    } g;
    struct pqpan_keccak_ctx zero;
    uint8_t msg[300], out[16];
    size_t i;
    (void)state;
    memset(&zero, 0, sizeof zero);
    memset(msg, 0x11, sizeof msg);
    memset(g.guard, 0x5A, sizeof g.guard);
    assert_int_equal(pqpan_keccak_init(&g.ctx, 7, PQPAN_KECCAK_DS_SHAKE), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_keccak_absorb(&g.ctx, msg, sizeof msg), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_keccak_finalize(&g.ctx), PQPAN_ERR_STATE);
    memset(out, 0xEE, sizeof out);
    assert_int_equal(pqpan_keccak_squeeze(&g.ctx, out, sizeof out), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_keccak_squeezeblocks(&g.ctx, out, 1), PQPAN_ERR_STATE);
    assert_memory_equal(&g.ctx, &zero, sizeof zero);
    for (i = 0; i < sizeof out; i++) {
        assert_int_equal(out[i], 0);
    }
    for (i = 0; i < sizeof g.guard; i++) {
        assert_int_equal(g.guard[i], 0x5A);
    }
}

/* NULL contexts and NULL buffers with a length: PQPAN_ERR_INVALID_ARG. */
static void test_null_arguments_refused(void **state)
{
    struct pqpan_shake128_ctx ctx;
    (void)state;
    assert_int_equal(pqpan_shake128_absorb(NULL, (const uint8_t *)"a", 1), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_shake128_finalize(NULL), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_shake128_squeeze(NULL, NULL, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_sha3_512_final(NULL, NULL), PQPAN_ERR_INVALID_ARG);
    pqpan_shake128_init(&ctx);
    assert_int_equal(pqpan_shake128_absorb(&ctx, NULL, 5), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_shake128_squeeze(&ctx, NULL, 5), PQPAN_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips202_examples),
        cmocka_unit_test(test_shake_long_output),
        cmocka_unit_test(test_incremental_absorb_every_split),
        cmocka_unit_test(test_byte_by_byte_absorb),
        cmocka_unit_test(test_incremental_squeeze_every_split),
        cmocka_unit_test(test_squeezeblocks_matches_squeeze),
        cmocka_unit_test(test_generic_sponge),
        cmocka_unit_test(test_context_copy_clones),
        cmocka_unit_test(test_sha3_absorb_and_final_after_final_refused),
        cmocka_unit_test(test_shake_absorb_after_finalize_refused),
        cmocka_unit_test(test_failed_init_context_refused),
        cmocka_unit_test(test_null_arguments_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
