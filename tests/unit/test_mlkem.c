/* Tests for src/crypto/mlkem: every NIST ACVP ML-KEM case (tests/vectors/acvp, see the
 * README there for provenance), round trips with deterministic random seeds, the FIPS 203
 * §7 input checks, implicit rejection, and the arithmetic against independent
 * definitions (schoolbook multiplication, exact division). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cJSON.h>
#include <cmocka.h>

#include "crypto/mlkem/ntt.h"
#include "crypto/mlkem/poly.h"
#include "pqpan/kem.h"
#include "pqpan/sha3.h"
#include "test_support.h"

#define Q 3329
#define MAX_BYTES PQPAN_KEM_DK_MAX_BYTES

static const struct pqpan_kem *group_kem(const cJSON *group)
{
    const struct pqpan_kem *kem = pqpan_kem_by_name(group_param(group));
    assert_non_null(kem);
    return kem;
}

static void test_acvp_keygen(void **state)
{
    cJSON *json = load_json("acvp/ML-KEM-keyGen-FIPS203/internalProjection.json");
    const cJSON *group, *test;
    static uint8_t d[32], z[32], ek[MAX_BYTES], dk[MAX_BYTES], got_ek[MAX_BYTES],
        got_dk[MAX_BYTES];
    unsigned count = 0;
    (void)state;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(json, "testGroups"))
    {
        const struct pqpan_kem *kem = group_kem(group);
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(group, "tests"))
        {
            get_hex(d, 32, test, group, "d");
            get_hex(z, 32, test, group, "z");
            get_hex(ek, kem->ek_bytes, test, group, "ek");
            get_hex(dk, kem->dk_bytes, test, group, "dk");
            assert_int_equal(kem->keypair_derand(got_ek, got_dk, d, z), 0);
            assert_memory_equal(got_ek, ek, kem->ek_bytes);
            assert_memory_equal(got_dk, dk, kem->dk_bytes);
            count++;
        }
    }
    assert_int_equal(count, 75);
    cJSON_Delete(json);
}

struct encap_counts {
    unsigned encaps, decaps, ek_check, dk_check;
};

static void run_encapsulation(const struct pqpan_kem *kem, const cJSON *group, const cJSON *test)
{
    static uint8_t ek[MAX_BYTES], c[MAX_BYTES], got_c[MAX_BYTES];
    uint8_t m[32], k[32], got_k[32];
    get_hex(ek, kem->ek_bytes, test, group, "ek");
    get_hex(m, 32, test, group, "m");
    get_hex(c, kem->ct_bytes, test, group, "c");
    get_hex(k, 32, test, group, "k");
    assert_int_equal(kem->encaps_derand(got_c, got_k, ek, m), 0);
    assert_memory_equal(got_c, c, kem->ct_bytes);
    assert_memory_equal(got_k, k, 32);
}

static void run_decapsulation(const struct pqpan_kem *kem, const cJSON *group, const cJSON *test)
{
    static uint8_t dk[MAX_BYTES], c[MAX_BYTES];
    uint8_t k[32], got_k[32];
    get_hex(dk, kem->dk_bytes, test, group, "dk");
    get_hex(c, kem->ct_bytes, test, group, "c");
    get_hex(k, 32, test, group, "k");
    assert_int_equal(kem->decaps(got_k, c, dk), 0);
    assert_memory_equal(got_k, k, 32);
    memset(got_k, 0, sizeof got_k); /* the vector's dk passes its check: same K */
    assert_int_equal(kem->decaps_checked_dk(got_k, c, dk), 0);
    assert_memory_equal(got_k, k, 32);
}

/* A key that fails its check must also be refused by encaps/decaps, outputs zeroed. The
 * failing ek cases of the file have the wrong length (the type check of §7.2); keys of the
 * right length are also run through encaps. */
static void run_ek_check(const struct pqpan_kem *kem, const cJSON *group, const cJSON *test)
{
    static uint8_t ek[2 * MAX_BYTES], c[MAX_BYTES];
    uint8_t m[32], k[32];
    const int passed = test_passed(test);
    const size_t len = get_hex_any(ek, sizeof ek, test, group, "ek");
    const int ret = kem->check_ek(ek, len);
    assert_int_equal(ret == 0, passed);
    if (len != kem->ek_bytes) {
        assert_int_equal(ret, PQPAN_ERR_BAD_LENGTH);
        return;
    }
    memset(m, 0x42, sizeof m);
    memset(c, 0xAA, kem->ct_bytes);
    memset(k, 0xAA, sizeof k);
    assert_int_equal(kem->encaps_derand(c, k, ek, m), passed ? 0 : PQPAN_ERR_BAD_KEY);
    if (!passed) {
        assert_true(is_all_zero(c, kem->ct_bytes));
        assert_true(is_all_zero(k, sizeof k));
    }
}

static void run_dk_check(const struct pqpan_kem *kem, const cJSON *group, const cJSON *test)
{
    static uint8_t dk[MAX_BYTES], c[MAX_BYTES];
    uint8_t k[32];
    const int passed = test_passed(test);
    get_hex(dk, kem->dk_bytes, test, group, "dk");
    assert_int_equal(kem->check_dk(dk, kem->dk_bytes), passed ? 0 : PQPAN_ERR_BAD_KEY);
    memset(c, 0x17, kem->ct_bytes);
    memset(k, 0xAA, sizeof k);
    assert_int_equal(kem->decaps(k, c, dk), passed ? 0 : PQPAN_ERR_BAD_KEY);
    if (!passed) {
        assert_true(is_all_zero(k, sizeof k));
    }
}

static void test_acvp_encap_decap(void **state)
{
    cJSON *json = load_json("acvp/ML-KEM-encapDecap-FIPS203/internalProjection.json");
    const cJSON *group, *test;
    struct encap_counts n = {0, 0, 0, 0};
    (void)state;
    cJSON_ArrayForEach(group, cJSON_GetObjectItemCaseSensitive(json, "testGroups"))
    {
        const struct pqpan_kem *kem = group_kem(group);
        const cJSON *fn = cJSON_GetObjectItemCaseSensitive(group, "function");
        assert_true(cJSON_IsString(fn));
        cJSON_ArrayForEach(test, cJSON_GetObjectItemCaseSensitive(group, "tests"))
        {
            if (strcmp(fn->valuestring, "encapsulation") == 0) {
                run_encapsulation(kem, group, test);
                n.encaps++;
            } else if (strcmp(fn->valuestring, "decapsulation") == 0) {
                run_decapsulation(kem, group, test);
                n.decaps++;
            } else if (strcmp(fn->valuestring, "encapsulationKeyCheck") == 0) {
                run_ek_check(kem, group, test);
                n.ek_check++;
            } else if (strcmp(fn->valuestring, "decapsulationKeyCheck") == 0) {
                run_dk_check(kem, group, test);
                n.dk_check++;
            } else {
                fail_msg("unknown function %s", fn->valuestring);
            }
        }
    }
    assert_int_equal(n.encaps, 75);
    assert_int_equal(n.decaps, 30);
    assert_int_equal(n.ek_check, 30);
    assert_int_equal(n.dk_check, 30);
    cJSON_Delete(json);
}

/* 1000 random (d, z, m) per level: decaps(encaps(ek)) == the encapsulated key; a flipped
 * ciphertext bit gives the implicit-rejection key J(z || c') of Alg. 18. */
static void test_round_trip_random(void **state)
{
    static uint8_t ek[MAX_BYTES], dk[MAX_BYTES], c[MAX_BYTES];
    uint8_t d[32], z[32], m[32], k1[32], k2[32], kbar[32];
    uint64_t seed = 0x706170716B656DULL;
    size_t level;
    int i;
    (void)state;
    for (level = 0; level < PQPAN_KEM_COUNT; level++) {
        const struct pqpan_kem *kem = pqpan_kem_at(level);
        for (i = 0; i < 1000; i++) {
            struct pqpan_shake256_ctx j;
            size_t pos;
            fill_random(&seed, d, 32);
            fill_random(&seed, z, 32);
            fill_random(&seed, m, 32);
            assert_int_equal(kem->keypair_derand(ek, dk, d, z), 0);
            assert_int_equal(kem->encaps_derand(c, k1, ek, m), 0);
            assert_int_equal(kem->decaps(k2, c, dk), 0);
            assert_memory_equal(k1, k2, 32);
            pos = (size_t)(splitmix64(&seed) % kem->ct_bytes);
            c[pos] ^= (uint8_t)(1u << (splitmix64(&seed) % 8));
            assert_int_equal(kem->decaps(k2, c, dk), 0);
            pqpan_shake256_init(&j);
            pqpan_shake256_absorb(&j, z, 32);
            pqpan_shake256_absorb(&j, c, kem->ct_bytes);
            pqpan_shake256_squeeze(&j, kbar, 32);
            assert_memory_equal(k2, kbar, 32);
        }
    }
}

static void test_randomized_api(void **state)
{
    static uint8_t ek[MAX_BYTES], dk[MAX_BYTES], c[MAX_BYTES];
    uint8_t k1[32], k2[32];
    uint64_t seed = 7;
    (void)state;
    assert_int_equal(pqpan_mlkem768_keypair(ek, dk, test_rng, &seed), 0);
    assert_int_equal(pqpan_mlkem768_encaps(c, k1, ek, test_rng, &seed), 0);
    assert_int_equal(pqpan_mlkem768_decaps(k2, c, dk), 0);
    assert_memory_equal(k1, k2, 32);
    memset(ek, 0xAA, PQPAN_MLKEM768_EK_BYTES);
    memset(dk, 0xAA, PQPAN_MLKEM768_DK_BYTES);
    assert_int_equal(pqpan_mlkem768_keypair(ek, dk, failing_rng, NULL), PQPAN_ERR_RNG);
    assert_true(is_all_zero(ek, PQPAN_MLKEM768_EK_BYTES));
    assert_true(is_all_zero(dk, PQPAN_MLKEM768_DK_BYTES));
    assert_int_equal(pqpan_mlkem768_keypair(ek, dk, test_rng, &seed), 0);
    memset(c, 0xAA, PQPAN_MLKEM768_CT_BYTES);
    memset(k1, 0xAA, 32);
    assert_int_equal(pqpan_mlkem768_encaps(c, k1, ek, failing_rng, NULL), PQPAN_ERR_RNG);
    assert_true(is_all_zero(c, PQPAN_MLKEM768_CT_BYTES));
    assert_true(is_all_zero(k1, 32));
}

/* Hand-made bad keys: a coefficient equal to q in ek (§7.2), a changed byte of ek inside
 * dk so that H(ek) no longer matches (§7.3). Outputs must be zero. */
static void test_bad_keys_rejected(void **state)
{
    static uint8_t ek[MAX_BYTES], dk[MAX_BYTES], c[MAX_BYTES];
    uint8_t d[32], z[32], m[32], k[32];
    size_t level;
    (void)state;
    memset(d, 1, 32);
    memset(z, 2, 32);
    memset(m, 3, 32);
    for (level = 0; level < PQPAN_KEM_COUNT; level++) {
        const struct pqpan_kem *kem = pqpan_kem_at(level);
        const size_t last_poly = kem->ek_bytes - 32 - 384;
        assert_int_equal(kem->keypair_derand(ek, dk, d, z), 0);
        ek[last_poly] = 0x01; /* first coefficient := 0xD01 = 3329 = q */
        ek[last_poly + 1] = (uint8_t)((ek[last_poly + 1] & 0xF0) | 0x0D);
        memset(c, 0xAA, kem->ct_bytes);
        memset(k, 0xAA, 32);
        assert_int_equal(kem->check_ek(ek, kem->ek_bytes), PQPAN_ERR_BAD_KEY);
        assert_int_equal(kem->check_ek(ek, kem->ek_bytes + 1), PQPAN_ERR_BAD_LENGTH);
        assert_int_equal(kem->encaps_derand(c, k, ek, m), PQPAN_ERR_BAD_KEY);
        assert_true(is_all_zero(c, kem->ct_bytes));
        assert_true(is_all_zero(k, 32));

        assert_int_equal(kem->check_dk(dk, kem->dk_bytes), 0);
        assert_int_equal(kem->check_dk(dk, kem->dk_bytes - 1), PQPAN_ERR_BAD_LENGTH);
        dk[kem->dk_bytes - 100] ^= 1; /* inside the ek copy */
        memset(k, 0xAA, 32);
        assert_int_equal(kem->check_dk(dk, kem->dk_bytes), PQPAN_ERR_BAD_KEY);
        assert_int_equal(kem->decaps(k, c, dk), PQPAN_ERR_BAD_KEY);
        assert_true(is_all_zero(k, 32));
        dk[kem->dk_bytes - 100] ^= 1;
        dk[kem->dk_bytes - 64] ^= 1; /* first byte of the stored h = H(ek) */
        assert_int_equal(kem->check_dk(dk, kem->dk_bytes), PQPAN_ERR_BAD_KEY);
        assert_int_equal(kem->decaps(k, c, dk), PQPAN_ERR_BAD_KEY);
        /* the caller vouches for the key: this entry does not hash ek, so it decapsulates */
        assert_int_equal(kem->decaps_checked_dk(k, c, dk), 0);
        assert_false(is_all_zero(k, 32));
        assert_int_equal(kem->decaps(k, c, NULL), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->decaps_checked_dk(k, c, NULL), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->encaps_derand(c, k, NULL, m), PQPAN_ERR_INVALID_ARG);
    }
}

/* Outputs that overlap an input are refused before anything is written: ct over ek (the
 * issue-15 case: it used to return success with a wrong ciphertext), ss inside ct or dk,
 * ek over dk. Every buffer keeps its bytes. */
static void test_overlapping_buffers_refused(void **state)
{
    static uint8_t ek[MAX_BYTES], dk[MAX_BYTES], buf[2 * MAX_BYTES], saved[2 * MAX_BYTES];
    uint8_t d[32], z[32], m[32], k[32];
    size_t level;
    (void)state;
    memset(d, 1, 32);
    memset(z, 2, 32);
    memset(m, 3, 32);
    for (level = 0; level < PQPAN_KEM_COUNT; level++) {
        const struct pqpan_kem *kem = pqpan_kem_at(level);
        uint64_t seed = 11;
        assert_int_equal(kem->keypair_derand(ek, dk, d, z), 0);
        memcpy(buf, ek, kem->ek_bytes); /* ek at buf, ct written from buf + 16 */
        memcpy(saved, buf, sizeof buf);
        assert_int_equal(kem->encaps_derand(buf + 16, k, buf, m), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->encaps(buf + 16, k, buf, test_rng, &seed), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->encaps_derand(buf, buf + kem->ct_bytes - 8, ek, m),
                         PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->encaps_derand(buf, k, ek, buf + 40), PQPAN_ERR_INVALID_ARG);
        assert_memory_equal(buf, saved, sizeof buf);
        assert_int_equal(kem->encaps_derand(buf, k, ek, m), 0);
        memcpy(saved, buf, sizeof buf);
        assert_int_equal(kem->decaps(buf + 4, buf, dk), PQPAN_ERR_INVALID_ARG);
        assert_memory_equal(buf, saved, sizeof buf);
        memcpy(buf, dk, kem->dk_bytes);
        memcpy(saved, buf, sizeof buf);
        assert_int_equal(kem->decaps(buf + 100, ek, buf), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->keypair_derand(buf, buf + 8, d, z), PQPAN_ERR_INVALID_ARG);
        assert_int_equal(kem->keypair_derand(buf + 64, dk, buf + 100, z), PQPAN_ERR_INVALID_ARG);
        assert_memory_equal(buf, saved, sizeof buf);
    }
}

static void test_descriptors(void **state)
{
    (void)state;
    assert_ptr_equal(pqpan_kem_by_name("ML-KEM-768"), pqpan_kem_by_id(PQPAN_KEM_MLKEM768));
    assert_int_equal(pqpan_kem_by_name("ML-KEM-512")->ct_bytes, 768);
    assert_int_equal(pqpan_kem_by_name("ML-KEM-1024")->dk_bytes, 3168);
    assert_int_equal(pqpan_kem_by_name("ML-KEM-768")->ek_bytes, 1184);
    assert_null(pqpan_kem_by_name("ML-KEM-769"));
    assert_null(pqpan_kem_by_name(NULL));
    assert_null(pqpan_kem_by_id((enum pqpan_kem_id)0));
    assert_null(pqpan_kem_at(PQPAN_KEM_COUNT));
}

/* Compress_d against exact rational rounding for every x < q (FIPS 203 eq. 4.7). */
static void test_compress_exhaustive(void **state)
{
    static const unsigned ds[] = {1, 4, 5, 10, 11};
    size_t i;
    int x;
    (void)state;
    for (i = 0; i < sizeof ds / sizeof ds[0]; i++) {
        const unsigned d = ds[i];
        for (x = -2 * Q + 1; x < 2 * Q; x++) {
            /* round(2^d r / q) = floor((2^(d+1) r + q) / (2q)) for the residue r of x */
            const unsigned r = (unsigned)((x % Q + Q) % Q);
            const unsigned want = (((r << (d + 1)) + Q) / (2 * Q)) % (1u << d);
            assert_int_equal(pqpan_mlkem_compress((int16_t)x, d), want);
        }
    }
}

/* Barrett reduction over every int16_t input: congruent to the input mod q and in
 * [-(q-1)/2, (q-1)/2], checked against the % operator. */
static void test_barrett_exhaustive(void **state)
{
    int32_t a;
    (void)state;
    for (a = INT16_MIN; a <= INT16_MAX; a++) {
        const int32_t r = mlkem_barrett_reduce((int16_t)a);
        assert_true(r >= -(Q - 1) / 2 && r <= (Q - 1) / 2);
        assert_int_equal(((a - r) % Q + Q) % Q, 0);
    }
}

/* 17^e mod q and BitRev7, for the direct inverse NTT below. */
static int64_t pow17(unsigned e)
{
    int64_t r = 1;
    while (e-- > 0) {
        r = r * 17 % Q;
    }
    return r;
}

static unsigned bitrev7(unsigned i)
{
    unsigned r = 0, b;
    for (b = 0; b < 7; b++) {
        r |= ((i >> b) & 1u) << (6 - b);
    }
    return r;
}

/* FIPS 203 Alg. 10 computed directly over Z_q in int64 (zeta = 17, the powers
 * 17^BitRev7(i) computed here rather than read from ntt.c's table), times 128^-1 = 3303. */
static void direct_invntt(int64_t f[256])
{
    unsigned i = 127, len, start, j;
    for (len = 2; len <= 128; len *= 2) {
        for (start = 0; start < 256; start += 2 * len) {
            const int64_t zeta = pow17(bitrev7(i--));
            for (j = start; j < start + len; j++) {
                const int64_t t = f[j];
                f[j] = (t + f[j + len]) % Q;
                f[j + len] = zeta * (f[j + len] - t) % Q;
            }
        }
    }
    for (j = 0; j < 256; j++) {
        f[j] = f[j] * 3303 % Q;
    }
}

/* The inverse NTT over its whole input range |a_i| < 4q (ntt.h: the unreduced sum of up to
 * four base multiplications): congruent to Alg. 10 times R = 2^16 (2^16 mod q = 2285),
 * output below q. Inputs all 4q - 1, all -(4q - 1), alternating, then random; the sums
 * of the early layers overflow int16 unless they are reduced soon enough. */
static void test_invntt_input_range(void **state)
{
    const int32_t bound = 4 * Q - 1;
    struct mlkem_poly a;
    int64_t want[256];
    uint64_t seed = 4242;
    unsigned trial, i;
    (void)state;
    for (trial = 0; trial < 20; trial++) {
        for (i = 0; i < 256; i++) {
            int32_t v = (int32_t)(splitmix64(&seed) % (uint64_t)(2 * bound + 1)) - bound;
            if (trial < 3) {
                v = trial == 0 ? bound : trial == 1 ? -bound : (i % 2 ? -bound : bound);
            }
            a.c[i] = (int16_t)v;
            want[i] = v;
        }
        direct_invntt(want);
        pqpan_mlkem_invntt(a.c);
        for (i = 0; i < 256; i++) {
            const int64_t w = ((want[i] * 2285) % Q + Q) % Q;
            assert_true(a.c[i] > -Q && a.c[i] < Q);
            assert_int_equal(((a.c[i] % Q) + Q) % Q, w);
        }
    }
}

/* NTT-domain multiplication against schoolbook multiplication in Z_q[X]/(X^256 + 1); the
 * second operand goes in encoded and the product is formed in two parts (one run of
 * PQPAN_MLKEM_BASEMUL_RUN factors, then the rest), as the streamed matrix products do,
 * and once more with both operands encoded. */
static void test_ntt_multiplication(void **state)
{
    struct mlkem_poly a, b, r, r2;
    uint8_t a_bytes[PQPAN_MLKEM_POLYBYTES], b_bytes[PQPAN_MLKEM_POLYBYTES];
    int64_t want[256];
    uint64_t seed = 99;
    int trial, i, j;
    (void)state;
    for (trial = 0; trial < 20; trial++) {
        for (i = 0; i < 256; i++) {
            a.c[i] = (int16_t)(splitmix64(&seed) % Q);
            b.c[i] = (int16_t)(splitmix64(&seed) % Q);
            want[i] = 0;
        }
        for (i = 0; i < 256; i++) {
            for (j = 0; j < 256; j++) {
                int64_t p = (int64_t)a.c[i] * b.c[j];
                if (i + j < 256) {
                    want[i + j] += p;
                } else {
                    want[i + j - 256] -= p;
                }
            }
        }
        pqpan_mlkem_ntt(a.c);
        pqpan_mlkem_ntt(b.c);
        pqpan_mlkem_poly_reduce(&a);
        pqpan_mlkem_poly_reduce(&b);
        pqpan_mlkem_poly_tobytes(b_bytes, &b);
        memset(&r, 0, sizeof r);
        pqpan_mlkem_basemul_acc_bytes(r.c, a.c, b_bytes, 0, 32);
        pqpan_mlkem_basemul_acc_bytes(r.c, a.c + 64, b_bytes, 32, 128 - 32);
        pqpan_mlkem_invntt(r.c);
        memset(&r2, 0, sizeof r2);
        pqpan_mlkem_poly_tobytes(a_bytes, &a);
        pqpan_mlkem_basemul_acc_encoded(r2.c, a_bytes, b_bytes);
        pqpan_mlkem_invntt(r2.c);
        for (i = 0; i < 256; i++) {
            int64_t w = ((want[i] % Q) + Q) % Q;
            int64_t g = ((r.c[i] % Q) + Q) % Q;
            int64_t g2 = ((r2.c[i] % Q) + Q) % Q;
            assert_int_equal(g, w);
            assert_int_equal(g2, w);
        }
    }
}

/* The streamed ciphertext comparison of Decaps: 0 for the encoding itself, non-zero for
 * any single changed byte, for every d. */
static void test_compress_diff(void **state)
{
    static const unsigned ds[4] = {4, 5, 10, 11};
    struct mlkem_poly p;
    uint8_t enc[32 * 11];
    uint64_t seed = 7;
    unsigned t, i, pos;
    (void)state;
    for (t = 0; t < 4; t++) {
        const unsigned d = ds[t];
        for (i = 0; i < 256; i++) {
            p.c[i] = (int16_t)((int)(splitmix64(&seed) % Q) - (Q - 1) / 2);
        }
        pqpan_mlkem_poly_compress(enc, &p, d);
        assert_int_equal(pqpan_mlkem_poly_compress_diff(enc, &p, d), 0);
        for (pos = 0; pos < 32 * d; pos += 7) {
            enc[pos] ^= 0x10;
            assert_true(pqpan_mlkem_poly_compress_diff(enc, &p, d) != 0);
            enc[pos] ^= 0x10;
        }
    }
}

/* Value i of a 12-bit encoding set to t, bit by bit (FIPS 203 Alg. 5: bit b of value i is
 * bit 12 i + b of the string). */
static void set_value12(uint8_t enc[PQPAN_MLKEM_POLYBYTES], unsigned i, unsigned t)
{
    unsigned b;
    for (b = 0; b < 12; b++) {
        const unsigned bit = 12 * i + b;
        enc[bit / 8] = (uint8_t)((enc[bit / 8] & ~(1u << (bit % 8))) | (((t >> b) & 1u) << (bit % 8)));
    }
}

/* The §7.2 modulus check of one polynomial: accepted iff every 12-bit value is below q,
 * for each of the 256 positions holding q - 1, q, q + 1 or 4095 in an encoding of values
 * below q, and every t < 2^12 at the first and the last position. */
static void test_bytes_canonical(void **state)
{
    static const unsigned probes[4] = {Q - 1, Q, Q + 1, 4095};
    uint8_t enc[PQPAN_MLKEM_POLYBYTES];
    uint64_t seed = 5;
    unsigned i, t;
    (void)state;
    for (i = 0; i < 256; i++) {
        set_value12(enc, i, (unsigned)(splitmix64(&seed) % Q));
    }
    assert_int_equal(pqpan_mlkem_poly_bytes_canonical(enc), 1);
    for (i = 0; i < 256; i++) {
        for (t = 0; t < 4; t++) {
            uint8_t probe[PQPAN_MLKEM_POLYBYTES];
            memcpy(probe, enc, sizeof probe);
            set_value12(probe, i, probes[t]);
            assert_int_equal(pqpan_mlkem_poly_bytes_canonical(probe), probes[t] < Q);
        }
    }
    for (t = 0; t < 4096; t++) {
        uint8_t probe[PQPAN_MLKEM_POLYBYTES];
        memcpy(probe, enc, sizeof probe);
        set_value12(probe, 0, t);
        assert_int_equal(pqpan_mlkem_poly_bytes_canonical(probe), t < Q);
        memcpy(probe, enc, sizeof probe);
        set_value12(probe, 255, t);
        assert_int_equal(pqpan_mlkem_poly_bytes_canonical(probe), t < Q);
    }
}

/* ByteEncode_d(Compress_d) and Decompress_d(ByteDecode_d) of whole polynomials against
 * FIPS 203 Alg. 5 / Alg. 6 taken bit by bit (bit b of value i is bit d i + b of the
 * string, least significant first) with Compress_d from pqpan_mlkem_compress (checked
 * exhaustively above, on the residue of each coefficient in [0, q)) and Decompress_d(y) =
 * round(q y / 2^d) = floor((2 q y + 2^d) / 2^(d+1)) (eq. 4.8), for every d of the
 * parameter sets; coefficients over the whole input range (-2q, 2q), and ByteEncode_1(
 * Compress_1(v - w)) of the message for Decrypt's ranges of v and w. */
static void test_compress_encoding_bitwise(void **state)
{
    static const unsigned ds[4] = {4, 5, 10, 11};
    struct mlkem_poly p, back;
    uint8_t enc[32 * 11], want[32 * 11], msg[32];
    uint64_t seed = 11;
    unsigned t, i, b;
    (void)state;
    for (t = 0; t < 4 * 8; t++) {
        const unsigned d = ds[t % 4];
        for (i = 0; i < 256; i++) {
            p.c[i] = (int16_t)((int)(splitmix64(&seed) % (4 * Q - 1)) - (2 * Q - 1));
        }
        memset(want, 0, sizeof want);
        for (i = 0; i < 256; i++) {
            const unsigned x = (unsigned)((p.c[i] % Q + Q) % Q);
            const unsigned v = pqpan_mlkem_compress((int16_t)x, d);
            for (b = 0; b < d; b++) {
                want[(d * i + b) / 8] |= (uint8_t)(((v >> b) & 1u) << ((d * i + b) % 8));
            }
        }
        pqpan_mlkem_poly_compress(enc, &p, d);
        assert_memory_equal(enc, want, 32 * d);
        for (i = 0; i < 256; i++) { /* v - w with v in [0, q), w in (-q, q), as in Decrypt */
            back.c[i] = (int16_t)(splitmix64(&seed) % Q);
            p.c[i] = (int16_t)((int)(splitmix64(&seed) % (2 * Q - 1)) - (Q - 1));
        }
        pqpan_mlkem_poly_tomsg(msg, &back, &p);
        for (i = 0; i < 256; i++) {
            const unsigned x = (unsigned)(((back.c[i] - p.c[i]) % Q + Q) % Q);
            assert_int_equal(((unsigned)msg[i / 8] >> (i % 8)) & 1u, pqpan_mlkem_compress((int16_t)x, 1));
        }
        for (i = 0; i < 32 * d; i++) { /* any string decodes: random bytes as input */
            enc[i] = (uint8_t)splitmix64(&seed);
        }
        pqpan_mlkem_poly_decompress(&back, enc, d);
        for (i = 0; i < 256; i++) {
            unsigned y = 0;
            for (b = 0; b < d; b++) {
                y |= (((unsigned)enc[(d * i + b) / 8] >> ((d * i + b) % 8)) & 1u) << b;
            }
            assert_int_equal(back.c[i], (2 * Q * y + (1u << d)) >> (d + 1));
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_acvp_keygen),
        cmocka_unit_test(test_acvp_encap_decap),
        cmocka_unit_test(test_round_trip_random),
        cmocka_unit_test(test_randomized_api),
        cmocka_unit_test(test_bad_keys_rejected),
        cmocka_unit_test(test_overlapping_buffers_refused),
        cmocka_unit_test(test_descriptors),
        cmocka_unit_test(test_compress_exhaustive),
        cmocka_unit_test(test_barrett_exhaustive),
        cmocka_unit_test(test_ntt_multiplication),
        cmocka_unit_test(test_invntt_input_range),
        cmocka_unit_test(test_compress_diff),
        cmocka_unit_test(test_compress_encoding_bitwise),
        cmocka_unit_test(test_bytes_canonical),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
