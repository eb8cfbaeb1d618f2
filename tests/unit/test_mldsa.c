/* Tests for src/crypto/mldsa: every NIST ACVP ML-DSA case (tests/vectors/acvp, README
 * there), counted so that a skipped group fails; round trips of the external and internal
 * interfaces; the FIPS 204 input checks; and the arithmetic against independent
 * definitions written here from the spec (schoolbook multiplication, Decompose with the
 * % operator, SampleInBall with plain swaps). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "crypto/mldsa/mldsa.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/packing.h"
#include "crypto/mldsa/params.h"
#include "crypto/mldsa/rounding.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/sha3.h"
#include "pqpan/sig.h"
#include "test_support.h"

#define Q PQPAN_MLDSA_Q
#define MSG_MAX 8192

static const struct pqpan_sig *group_sig(const cJSON *group)
{
    const struct pqpan_sig *sig = pqpan_sig_by_name(group_param(group));
    assert_non_null(sig);
    return sig;
}

static void test_acvp_keygen(void **state)
{
    cJSON *json = load_json("acvp/ML-DSA-keyGen-FIPS204/internalProjection.json");
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES],
        got_pk[PQPAN_SIG_PK_MAX_BYTES], got_sk[PQPAN_SIG_SK_MAX_BYTES];
    const cJSON *group, *test;
    uint8_t seed[32];
    unsigned count = 0;
    (void)state;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(json, "testGroups"))
    {
        const struct pqpan_sig *sig = group_sig(group);
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(group, "tests"))
        {
            get_hex(seed, 32, test, group, "seed");
            get_hex(pk, sig->pk_bytes, test, group, "pk");
            get_hex(sk, sig->sk_bytes, test, group, "sk");
            assert_int_equal(sig->keypair_derand(got_pk, got_sk, seed), 0);
            assert_memory_equal(got_pk, pk, sig->pk_bytes);
            assert_memory_equal(got_sk, sk, sig->sk_bytes);
            count++;
        }
    }
    assert_int_equal(count, 75);
    cJSON_Delete(json);
}

/* sigGen (FIPS204 revision of the vector set, no context field): the message is M' of
 * ML-DSA.Sign_internal (Alg. 7); rnd is 32 zero bytes in the deterministic groups. */
static void test_acvp_siggen(void **state)
{
    cJSON *json = load_json("acvp/ML-DSA-sigGen-FIPS204/internalProjection.json");
    static uint8_t sk[PQPAN_SIG_SK_MAX_BYTES], msg[MSG_MAX], want[PQPAN_SIG_SIG_MAX_BYTES],
        got[PQPAN_SIG_SIG_MAX_BYTES];
    const cJSON *group, *test;
    uint8_t rnd[32];
    unsigned det = 0, hedged = 0;
    (void)state;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(json, "testGroups"))
    {
        const struct pqpan_sig *sig = group_sig(group);
        const int deterministic =
            cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(group, "deterministic"));
        assert_true(cJSON_IsBool(cJSON_GetObjectItemCaseSensitive(group, "deterministic")));
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(group, "tests"))
        {
            const size_t msg_len = get_hex_any(msg, sizeof msg, test, group, "message");
            get_hex(sk, sig->sk_bytes, test, group, "sk");
            get_hex(want, sig->sig_bytes, test, group, "signature");
            memset(rnd, 0, sizeof rnd);
            if (!deterministic) {
                get_hex(rnd, 32, test, group, "rnd");
            }
            assert_int_equal(sig->sign_internal(got, sk, msg, msg_len, rnd), 0);
            assert_memory_equal(got, want, sig->sig_bytes);
            if (deterministic) {
                det++;
            } else {
                hedged++;
            }
        }
    }
    assert_int_equal(det, 30);
    assert_int_equal(hedged, 30);
    cJSON_Delete(json);
}

/* Bit i of a byte string, least significant first (BytesToBits, FIPS 204 Alg. 13). */
static unsigned get_bit(const uint8_t *p, size_t i)
{
    return ((unsigned)p[i / 8] >> (i % 8)) & 1u;
}

/* max |z_i| of a signature, decoded bit by bit (BitUnpack(., gamma1 - 1, gamma1),
 * Alg. 19): z_i = gamma1 - the z_bits-bit value. */
static int32_t z_max_norm(const uint8_t *s, unsigned lam4, unsigned l, unsigned z_bits,
                          int32_t gamma1)
{
    int32_t max = 0;
    size_t i;
    unsigned b;
    for (i = 0; i < (size_t)l * 256; i++) {
        int32_t v = 0, z;
        for (b = 0; b < z_bits; b++) {
            v |= (int32_t)get_bit(s + lam4, i * z_bits + b) << b;
        }
        z = gamma1 - v;
        max = z < 0 ? (-z > max ? -z : max) : (z > max ? z : max);
    }
    return max;
}

/* sigVer: the verdict must match testPassed. A refused signature must give the error of
 * its defect: PQPAN_ERR_MALFORMED when ||z|| >= gamma1 - beta (decoded here on its own)
 * or when HintBitUnpack refuses the hints, else PQPAN_ERR_AUTH; a changed message is
 * always PQPAN_ERR_AUTH. (The nine "z too large" cases of this vector set keep ||z||
 * below the bound, e.g. 130952 < 130994 for ML-DSA-44: they fail on the challenge.) */
static void test_acvp_sigver(void **state)
{
    cJSON *json = load_json("acvp/ML-DSA-sigVer-FIPS204/internalProjection.json");
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], msg[MSG_MAX], s[PQPAN_SIG_SIG_MAX_BYTES + 8];
    const cJSON *group, *test;
    unsigned passed = 0, failed = 0, malformed = 0;
    (void)state;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(json, "testGroups"))
    {
        const struct pqpan_sig *sig = group_sig(group);
        const unsigned level = (unsigned)sig->id - 1;
        const unsigned l = level == 0 ? 4 : level == 1 ? 5 : 7, lam4 = 16 * (level + 2);
        const unsigned z_bits = level == 0 ? 18 : 20;
        const int32_t gamma1 = level == 0 ? 1 << 17 : 1 << 19;
        const int32_t beta = level == 0 ? 78 : level == 1 ? 196 : 120;
        get_hex(pk, sig->pk_bytes, group, group, "pk");
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(group, "tests"))
        {
            const cJSON *reason = cJSON_GetObjectItemCaseSensitive(test, "reason");
            const size_t msg_len = get_hex_any(msg, sizeof msg, test, group, "message");
            const size_t sig_len = get_hex_any(s, sizeof s, test, group, "signature");
            const int ret = sig->verify_internal(pk, msg, msg_len, s, sig_len);
            assert_true(cJSON_IsString(reason));
            assert_int_equal(sig_len, sig->sig_bytes);
            if (test_passed(test)) {
                assert_int_equal(ret, 0);
                passed++;
                continue;
            }
            failed++;
            if (strcmp(reason->valuestring, "modify message") == 0 ||
                z_max_norm(s, lam4, l, z_bits, gamma1) < gamma1 - beta) {
                assert_true(ret == PQPAN_ERR_AUTH || (ret == PQPAN_ERR_MALFORMED &&
                                                      strcmp(reason->valuestring, "modify message") != 0));
            } else {
                assert_int_equal(ret, PQPAN_ERR_MALFORMED);
            }
            malformed += ret == PQPAN_ERR_MALFORMED;
        }
    }
    assert_int_equal(passed, 9);
    assert_int_equal(failed, 36);
    assert_true(malformed > 0); /* the vector set has hint encodings HintBitUnpack refuses */
    cJSON_Delete(json);
}

/* M' = 0 || |ctx| || ctx || M (FIPS 204 Alg. 2 line 10), built here byte by byte. */
static size_t format_mprime(uint8_t *out, const uint8_t *ctx, size_t ctx_len, const uint8_t *msg,
                            size_t msg_len)
{
    out[0] = 0;
    out[1] = (uint8_t)ctx_len;
    memcpy(out + 2, ctx, ctx_len);
    memcpy(out + 2 + ctx_len, msg, msg_len);
    return 2 + ctx_len + msg_len;
}

/* Per level, keys from random seeds: Sign(ctx) verifies, equals Sign_internal of the M'
 * formatted by hand, is deterministic with rnd = 0; any changed message byte, context or
 * signature bit is refused. */
static void test_round_trip(void **state)
{
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES],
        s1[PQPAN_SIG_SIG_MAX_BYTES], s2[PQPAN_SIG_SIG_MAX_BYTES], msg[600], mp[900];
    uint8_t xi[32], ctx[255], rnd[32];
    uint64_t seed = 0x6d6c2d647361ULL;
    size_t level;
    int i;
    (void)state;
    for (level = 0; level < PQPAN_SIG_COUNT; level++) {
        const struct pqpan_sig *sig = pqpan_sig_at(level);
        for (i = 0; i < 8; i++) {
            const size_t msg_len = (size_t)(splitmix64(&seed) % sizeof msg);
            const size_t ctx_len = i == 0 ? 255 : (size_t)(splitmix64(&seed) % 40);
            size_t mp_len, pos;
            fill_random(&seed, xi, sizeof xi);
            fill_random(&seed, msg, msg_len);
            fill_random(&seed, ctx, ctx_len);
            memset(rnd, 0, sizeof rnd);
            assert_int_equal(sig->keypair_derand(pk, sk, xi), 0);
            assert_int_equal(sig->sign_derand(s1, sk, msg, msg_len, ctx, ctx_len, rnd), 0);
            assert_int_equal(sig->verify(pk, msg, msg_len, ctx, ctx_len, s1, sig->sig_bytes), 0);
            mp_len = format_mprime(mp, ctx, ctx_len, msg, msg_len);
            assert_int_equal(sig->sign_internal(s2, sk, mp, mp_len, rnd), 0);
            assert_memory_equal(s1, s2, sig->sig_bytes);
            assert_int_equal(sig->verify_internal(pk, mp, mp_len, s1, sig->sig_bytes), 0);
            assert_int_equal(sig->sign_derand(s2, sk, msg, msg_len, ctx, ctx_len, rnd), 0);
            assert_memory_equal(s1, s2, sig->sig_bytes);
            if (msg_len > 0) {
                pos = (size_t)(splitmix64(&seed) % msg_len);
                msg[pos] ^= 0x20;
                assert_int_equal(sig->verify(pk, msg, msg_len, ctx, ctx_len, s1, sig->sig_bytes),
                                 PQPAN_ERR_AUTH);
                msg[pos] ^= 0x20;
            }
            assert_int_equal(sig->verify(pk, msg, msg_len, ctx, ctx_len == 0 ? 1 : ctx_len - 1,
                                         s1, sig->sig_bytes),
                             PQPAN_ERR_AUTH);
            s1[splitmix64(&seed) % 32] ^= 1; /* inside c~ */
            assert_int_equal(sig->verify(pk, msg, msg_len, ctx, ctx_len, s1, sig->sig_bytes),
                             PQPAN_ERR_AUTH);
        }
    }
}

/* The hedged variant draws rnd from the source: two signatures of one message differ and
 * both verify; a failing source zeroes the outputs. */
static void test_randomized_api(void **state)
{
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES],
        s1[PQPAN_SIG_SIG_MAX_BYTES], s2[PQPAN_SIG_SIG_MAX_BYTES];
    static const uint8_t msg[] = "hedged";
    uint64_t seed = 11;
    size_t level;
    (void)state;
    for (level = 0; level < PQPAN_SIG_COUNT; level++) {
        const struct pqpan_sig *sig = pqpan_sig_at(level);
        assert_int_equal(sig->keypair(pk, sk, test_rng, &seed), 0);
        assert_int_equal(sig->sign(s1, sk, msg, sizeof msg, NULL, 0, test_rng, &seed), 0);
        assert_int_equal(sig->sign(s2, sk, msg, sizeof msg, NULL, 0, test_rng, &seed), 0);
        assert_memory_not_equal(s1, s2, sig->sig_bytes);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, NULL, 0, s1, sig->sig_bytes), 0);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, NULL, 0, s2, sig->sig_bytes), 0);
        memset(s1, 0xAA, sig->sig_bytes);
        assert_int_equal(sig->sign(s1, sk, msg, sizeof msg, NULL, 0, failing_rng, NULL),
                         PQPAN_ERR_RNG);
        assert_true(is_all_zero(s1, sig->sig_bytes));
        memset(pk, 0xAA, sig->pk_bytes);
        memset(sk, 0xAA, sig->sk_bytes);
        assert_int_equal(sig->keypair(pk, sk, failing_rng, NULL), PQPAN_ERR_RNG);
        assert_true(is_all_zero(pk, sig->pk_bytes) && is_all_zero(sk, sig->sk_bytes));
    }
}

/* Writes the bits-bit value v at coefficient index n of a packed polynomial. */
static void set_packed(uint8_t *poly, unsigned n, unsigned bits, uint32_t v)
{
    unsigned b;
    for (b = 0; b < bits; b++) {
        const unsigned bit = n * bits + b;
        poly[bit / 8] = (uint8_t)((poly[bit / 8] & ~(1u << (bit % 8))) | ((v >> b) & 1u) << (bit % 8));
    }
}

/* FIPS 204 input checks: context over 255 bytes (Alg. 2, 3 line 1), lengths, an s1
 * coefficient outside [-eta, eta], malformed hints (Alg. 21), z at the bound (Alg. 8
 * line 13), NULL arguments; failed signing leaves a zeroed signature. */
static void test_input_checks(void **state)
{
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES],
        bad_sk[PQPAN_SIG_SK_MAX_BYTES], s[PQPAN_SIG_SIG_MAX_BYTES], bad[PQPAN_SIG_SIG_MAX_BYTES],
        ctx[256];
    static const uint8_t msg[] = "checks", rnd[32];
    uint8_t xi[32];
    size_t level;
    (void)state;
    memset(xi, 7, sizeof xi);
    memset(ctx, 1, sizeof ctx);
    for (level = 0; level < PQPAN_SIG_COUNT; level++) {
        const struct pqpan_sig *sig = pqpan_sig_at(level);
        const unsigned k = (unsigned)(level == 0 ? 4 : level == 1 ? 6 : 8);
        const unsigned omega = (unsigned)(level == 0 ? 80 : level == 1 ? 55 : 75);
        const unsigned eta = level == 1 ? 4 : 2, eta_bits = level == 1 ? 4 : 3;
        const unsigned z_bits = level == 0 ? 18 : 20, lam4 = (unsigned)(16 * (level + 2));
        const int32_t gamma1 = level == 0 ? 1 << 17 : 1 << 19;
        const int32_t beta = level == 0 ? 78 : level == 1 ? 196 : 120;
        uint8_t *y = bad + sig->sig_bytes - omega - k;
        assert_int_equal(sig->keypair_derand(pk, sk, xi), 0);
        assert_int_equal(sig->sign_derand(s, sk, msg, sizeof msg, ctx, 255, rnd), 0);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, s, sig->sig_bytes), 0);

        memset(bad, 0xAA, sig->sig_bytes);
        assert_int_equal(sig->sign_derand(bad, sk, msg, sizeof msg, ctx, 256, rnd),
                         PQPAN_ERR_BAD_LENGTH);
        assert_true(is_all_zero(bad, sig->sig_bytes));
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 256, s, sig->sig_bytes),
                         PQPAN_ERR_BAD_LENGTH);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, s, sig->sig_bytes - 1),
                         PQPAN_ERR_BAD_LENGTH);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, s, sig->sig_bytes + 1),
                         PQPAN_ERR_BAD_LENGTH);

        /* a hint count going down, a count above omega, repeated positions, a non-zero
         * unused position: each is refused by HintBitUnpack */
        memcpy(bad, s, sig->sig_bytes);
        y[omega + k - 1] = (uint8_t)(omega + 1);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                         PQPAN_ERR_MALFORMED);
        memcpy(bad, s, sig->sig_bytes);
        if (y[omega] > 0) {
            y[omega + 1] = (uint8_t)(y[omega] - 1);
            assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                             PQPAN_ERR_MALFORMED);
            memcpy(bad, s, sig->sig_bytes);
        }
        if (y[omega] >= 2) {
            y[1] = y[0];
            assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                             PQPAN_ERR_MALFORMED);
            memcpy(bad, s, sig->sig_bytes);
        }
        if (y[omega + k - 1] < omega) {
            y[omega - 1] = 1;
            assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                             PQPAN_ERR_MALFORMED);
            memcpy(bad, s, sig->sig_bytes);
        }
        /* z_0 = gamma1 - beta (encoded gamma1 - z = beta): at the bound, refused; one
         * below it passes the form check and fails the challenge instead */
        set_packed(bad + lam4, 0, z_bits, (uint32_t)beta);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                         PQPAN_ERR_MALFORMED);
        set_packed(bad + lam4, 0, z_bits, (uint32_t)beta + 1);
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                         PQPAN_ERR_AUTH);
        set_packed(bad + lam4, 0, z_bits, (uint32_t)(2 * gamma1 - beta)); /* z = -(g1 - b) */
        assert_int_equal(sig->verify(pk, msg, sizeof msg, ctx, 255, bad, sig->sig_bytes),
                         PQPAN_ERR_MALFORMED);

        /* an s1 coefficient of value eta - 7 (3 bits) or eta - 15 (4 bits) */
        memcpy(bad_sk, sk, sig->sk_bytes);
        set_packed(bad_sk + 128, 5, eta_bits, (1u << eta_bits) - 1);
        memset(bad, 0xAA, sig->sig_bytes);
        assert_int_equal(sig->sign_derand(bad, bad_sk, msg, sizeof msg, NULL, 0, rnd),
                         PQPAN_ERR_BAD_KEY);
        assert_true(is_all_zero(bad, sig->sig_bytes));
        set_packed(bad_sk + 128, 5, eta_bits, 2 * eta); /* -eta: in range again */
        assert_int_equal(sig->sign_derand(bad, bad_sk, msg, sizeof msg, NULL, 0, rnd), 0);

        memset(bad, 0xAA, sig->sig_bytes);
        assert_int_equal(sig->sign_derand(bad, NULL, msg, sizeof msg, NULL, 0, rnd),
                         PQPAN_ERR_INVALID_ARG);
        assert_true(is_all_zero(bad, sig->sig_bytes));
        assert_int_equal(sig->sign_derand(bad, sk, NULL, 1, NULL, 0, rnd), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(sig->sign_derand(bad, sk, NULL, 0, NULL, 0, NULL), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(sig->sign_derand(NULL, sk, msg, 1, NULL, 0, rnd), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(sig->sign_derand(bad, sk, NULL, 0, NULL, 0, rnd), 0); /* empty M */
        assert_int_equal(sig->verify(pk, NULL, 0, NULL, 0, bad, sig->sig_bytes), 0);
        assert_int_equal(sig->verify(NULL, msg, 1, NULL, 0, s, sig->sig_bytes),
                         PQPAN_ERR_INVALID_ARG);
        assert_int_equal(sig->verify(pk, msg, 1, NULL, 3, s, sig->sig_bytes),
                         PQPAN_ERR_INVALID_ARG);
        assert_int_equal(sig->keypair_derand(pk, sk, NULL), PQPAN_ERR_INVALID_ARG);
        assert_true(is_all_zero(pk, sig->pk_bytes) && is_all_zero(sk, sig->sk_bytes));
    }
}

static void test_descriptors(void **state)
{
    (void)state;
    assert_ptr_equal(pqpan_sig_by_name("ML-DSA-65"), pqpan_sig_by_id(PQPAN_SIG_MLDSA65));
    assert_int_equal(pqpan_sig_by_name("ML-DSA-44")->sig_bytes, 2420);
    assert_int_equal(pqpan_sig_by_name("ML-DSA-87")->sk_bytes, 4896);
    assert_int_equal(pqpan_sig_by_name("ML-DSA-65")->pk_bytes, 1952);
    assert_int_equal(pqpan_sig_at(0)->security_category, 2);
    assert_null(pqpan_sig_by_name("ML-DSA-66"));
    assert_null(pqpan_sig_by_name(NULL));
    assert_null(pqpan_sig_by_id((enum pqpan_sig_id)0));
    assert_null(pqpan_sig_at(PQPAN_SIG_COUNT));
}

/* The build under test is the one CMake says (test_mldsa: PQPAN_MLDSA_IMPL; the second
 * program, test_mldsa_small or test_mldsa_speed: the other one), so that the ACVP cases
 * above do run on both builds. */
static void test_build(void **state)
{
    (void)state;
    assert_string_equal(pqpan_mldsa_build_name(), PQPAN_MLDSA_EXPECT_IMPL);
}

static int64_t mod_q(int64_t a)
{
    return ((a % Q) + Q) % Q;
}

/* NTT, pointwise product and inverse NTT against schoolbook multiplication in
 * Z_q[X]/(X^256 + 1), on full-range operands and on the operand sizes signing uses. This
 * pins every entry of the zetas table: a wrong entry changes the product. */
static void test_ntt_multiplication(void **state)
{
    int32_t a[256], b[256];
    int64_t want[256];
    uint64_t seed = 99;
    int trial, i, j;
    (void)state;
    for (trial = 0; trial < 20; trial++) {
        const int32_t range = trial < 10 ? Q : 1 << 19;
        for (i = 0; i < 256; i++) {
            a[i] = (int32_t)(splitmix64(&seed) % (uint64_t)range) - (trial < 10 ? 0 : range / 2);
            b[i] = (int32_t)(splitmix64(&seed) % Q) - Q / 2;
            want[i] = 0;
        }
        for (i = 0; i < 256; i++) {
            for (j = 0; j < 256; j++) {
                const int64_t p = mod_q((int64_t)a[i] * b[j]);
                want[(i + j) % 256] += i + j < 256 ? p : -p;
            }
        }
        pqpan_mldsa_ntt(a);
        pqpan_mldsa_ntt(b);
        for (i = 0; i < 256; i++) {
            assert_true(a[i] > -9 * Q && a[i] < 9 * Q);
        }
        pqpan_mldsa_pointwise(a, a, b);
        pqpan_mldsa_invntt(a);
        for (i = 0; i < 256; i++) {
            assert_true(a[i] > -Q && a[i] < Q);
            assert_int_equal(mod_q(a[i]), mod_q(want[i]));
        }
    }
}

/* One matrix row computed with NTT(v_j) in quarters (verification's small-stack path) equals
 * the row with whole NTTs (pqpan_mldsa_matrix_row), for random packed z-like vectors at
 * both z widths and for s1-like ones, and all-zero / all-ones encodings (v_j = +-bound). */
static void test_matrix_row_parts(void **state)
{
    static uint8_t v[7 * 640], want[PQPAN_MLDSA_ACC_BYTES], got[PQPAN_MLDSA_ACC_BYTES];
    static const struct {
        unsigned l, bits;
        int32_t offset;
    } cases[] = {{4, 18, 1 << 17}, {5, 20, 1 << 19}, {7, 20, 1 << 19}, {4, 3, 2}, {5, 4, 4}};
    int32_t tmp[256];
    uint8_t rho[32];
    uint64_t seed = 0x7175617274ULL;
    size_t c, i;
    int fill;
    (void)state;
    for (c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        const size_t stride = 32 * cases[c].bits;
        for (fill = -1; fill < 2; fill++) {
            for (i = 0; i < sizeof rho; i++) {
                rho[i] = (uint8_t)splitmix64(&seed);
            }
            for (i = 0; i < cases[c].l * stride; i++) {
                v[i] = fill < 0 ? (uint8_t)splitmix64(&seed) : (uint8_t)(fill * 0xFF);
            }
            pqpan_mldsa_matrix_row(want, tmp, rho, (unsigned)c, cases[c].l, v, stride,
                                   cases[c].bits, cases[c].offset);
            pqpan_mldsa_matrix_row_parts(got, rho, (unsigned)c, cases[c].l, v, stride,
                                         cases[c].bits, cases[c].offset);
            assert_memory_equal(got, want, sizeof want);
        }
    }
}

/* FIPS 204 Alg. 36 Decompose, written with % and / (r in [0, q)). */
static int32_t ref_decompose(int32_t *r0, int32_t r, int32_t gamma2)
{
    int32_t low = r % (2 * gamma2);
    if (low > gamma2) {
        low -= 2 * gamma2;
    }
    if (r - low == Q - 1) {
        *r0 = low - 1;
        return 0;
    }
    *r0 = low;
    return (r - low) / (2 * gamma2);
}

/* Power2Round (Alg. 35) and Decompose (Alg. 36) for every r in [0, q) against the
 * definitions; the reductions against %. */
static void test_rounding_exhaustive(void **state)
{
    static const int32_t gammas[2] = {(Q - 1) / 88, (Q - 1) / 32};
    int32_t r, g;
    (void)state;
    for (r = 0; r < Q; r++) {
        int32_t r0, low = r % (1 << 13);
        const int32_t r1 = mldsa_power2round(&r0, r);
        if (low > 1 << 12) {
            low -= 1 << 13;
        }
        assert_int_equal(r0, low);
        assert_int_equal(r1, (r - low) >> 13);
        for (g = 0; g < 2; g++) {
            int32_t got0, want0;
            const int32_t got1 = mldsa_decompose(&got0, r, gammas[g]);
            const int32_t want1 = ref_decompose(&want0, r, gammas[g]);
            if (got1 != want1 || got0 != want0) {
                fail_msg("Decompose(%d) gamma2 %d: (%d, %d), want (%d, %d)", r, gammas[g], got1,
                         got0, want1, want0);
            }
        }
        assert_int_equal(mldsa_freeze(r - Q), r);
        assert_int_equal(mod_q(mldsa_center(r)), r);
        assert_true(mldsa_center(r) >= -(Q - 1) / 2 && mldsa_center(r) <= (Q - 1) / 2);
    }
    for (r = -2147483647 + (1 << 22); r < 2147483647 - (1 << 22); r += 65521) {
        assert_int_equal(mod_q(mldsa_reduce32(r)), mod_q(r));
        assert_true(mldsa_reduce32(r) >= -6283009 && mldsa_reduce32(r) <= 6283008);
    }
}

/* FIPS 204 Lemma (§7.4, the property Alg. 39/40 exist for): for |z| <= gamma2,
 * UseHint(MakeHint(z, r), r) = HighBits(r + z), MakeHint being [HighBits(r) !=
 * HighBits(r + z)]. */
static void test_hints(void **state)
{
    static const int32_t gammas[2] = {(Q - 1) / 88, (Q - 1) / 32};
    uint64_t seed = 3;
    int g, i;
    (void)state;
    for (g = 0; g < 2; g++) {
        for (i = 0; i < 200000; i++) {
            const int32_t r = (int32_t)(splitmix64(&seed) % Q);
            const int32_t z = (int32_t)(splitmix64(&seed) % (uint64_t)(2 * gammas[g] + 1)) - gammas[g];
            const int32_t rz = (int32_t)mod_q((int64_t)r + z);
            const unsigned h = mldsa_highbits(r, gammas[g]) != mldsa_highbits(rz, gammas[g]);
            assert_int_equal(mldsa_use_hint(r, h, gammas[g]), mldsa_highbits(rz, gammas[g]));
        }
    }
}

/* SampleInBall (Alg. 29) with plain swaps, as the spec writes it. */
static void ref_sample_in_ball(int8_t c[256], const uint8_t *seed, size_t len, unsigned tau)
{
    struct pqpan_shake256_ctx h;
    uint8_t s[8], j;
    unsigned i;
    memset(c, 0, 256);
    pqpan_shake256_init(&h);
    pqpan_shake256_absorb(&h, seed, len);
    pqpan_shake256_squeeze(&h, s, 8);
    for (i = 256 - tau; i < 256; i++) {
        const unsigned bit = i + tau - 256;
        do {
            pqpan_shake256_squeeze(&h, &j, 1);
        } while (j > i);
        c[i] = c[j];
        c[j] = (int8_t)(((s[bit / 8] >> (bit % 8)) & 1) ? -1 : 1);
    }
}

static void test_sample_in_ball(void **state)
{
    static const unsigned taus[3] = {39, 49, 60};
    int8_t got[256], want[256];
    uint8_t seed[64];
    uint64_t rs = 5;
    int t, i;
    (void)state;
    for (t = 0; t < 300; t++) {
        const unsigned tau = taus[t % 3];
        unsigned weight = 0;
        fill_random(&rs, seed, sizeof seed);
        if (t % 2) {
            pqpan_mldsa_sample_in_ball_public(got, seed, 32 + 16 * (size_t)(t % 3), tau);
        } else {
            pqpan_mldsa_sample_in_ball(got, seed, 32 + 16 * (size_t)(t % 3), tau);
        }
        ref_sample_in_ball(want, seed, 32 + 16 * (size_t)(t % 3), tau);
        assert_memory_equal(got, want, 256);
        for (i = 0; i < 256; i++) {
            assert_true(got[i] >= -1 && got[i] <= 1);
            weight += got[i] != 0;
        }
        assert_int_equal(weight, tau);
    }
}

/* pack / unpack round trips for every width and both forms, and the range check. */
static void test_packing(void **state)
{
    static const unsigned widths[] = {3, 4, 6, 10, 13, 18, 20};
    int32_t a[256], b[256];
    uint8_t buf[256 * 20 / 8];
    uint64_t seed = 17;
    size_t w;
    int i;
    (void)state;
    for (w = 0; w < sizeof widths / sizeof widths[0]; w++) {
        const unsigned bits = widths[w];
        const int32_t offset = 1 << (bits - 1);
        for (i = 0; i < 256; i++) {
            a[i] = offset - (int32_t)(splitmix64(&seed) % (1u << bits));
        }
        pqpan_mldsa_pack(buf, a, 256, bits, offset, 1);
        pqpan_mldsa_unpack(b, buf, 256, bits, offset, 1);
        assert_memory_equal(a, b, sizeof a);
        assert_int_equal(pqpan_mldsa_values_at_most(buf, 256, bits, (1u << bits) - 1), 0);
        for (i = 0; i < 256; i++) {
            a[i] = (int32_t)(splitmix64(&seed) % (1u << bits));
        }
        a[77] = (int32_t)(1u << bits) - 1;
        pqpan_mldsa_pack(buf, a, 256, bits, 0, 0);
        pqpan_mldsa_unpack(b, buf, 256, bits, 0, 0);
        assert_memory_equal(a, b, sizeof a);
        assert_int_equal(pqpan_mldsa_values_at_most(buf, 256, bits, (1u << bits) - 2), -1);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_acvp_keygen),
        cmocka_unit_test(test_acvp_siggen),
        cmocka_unit_test(test_acvp_sigver),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_randomized_api),
        cmocka_unit_test(test_input_checks),
        cmocka_unit_test(test_descriptors),
        cmocka_unit_test(test_build),
        cmocka_unit_test(test_ntt_multiplication),
        cmocka_unit_test(test_matrix_row_parts),
        cmocka_unit_test(test_rounding_exhaustive),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_sample_in_ball),
        cmocka_unit_test(test_packing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
