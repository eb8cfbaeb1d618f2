/* The speed P-256 build (src/crypto/p256/speed/) against the small one (field.c,
 * point.c, complete formulas), whichever PQPAN_P256_IMPL the library was built with:
 *
 * - the field: product, square, sum, difference, half (h below p with h + h = a by
 *   field.c) and inverse of random elements and of
 *   edge values (0, 1, 2, p - 1, p - 2, 2^255, all limbs ones below p) equal field.c's;
 * - k · G (the fixed-base table) and k · Q (the window) equal the small build's for
 *   random scalars and for the edge scalars: 1, 2, 15, 16, 17, n - 1, n - 2, n - 15,
 *   n - 16, n - 17, 16^i and 15 · 16^i for every i, all-ones digits, (n ± 1) / 2, the
 *   scalars whose table additions come closest to adding a point to itself (2 · 16^i - 1:
 *   the accumulator (16^i - 1) G when 16^i G is added), and k, n - k giving opposite
 *   points; for the signed 5-bit window of k · Q, 16, 17 and 31 times 32^i, 32^i - 1
 *   and n - 1 .. n - 40.
 *
 * Built twice: test_p256_speed with the host's limbs (64 bits where the compiler has
 * unsigned __int128), test_p256_speed32 with PQPAN_P256_SPEED_LIMB32 (the Cortex-M4's
 * layout, tests/CMakeLists.txt). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/p256/p256.h"
#include "crypto/p256/speed/fe.h"
#include "crypto/p256/speed/point.h"

#define RANDOM_FIELD 2000
#define RANDOM_SCALARS 150

/* n, the group order (SP 800-186 §3.2.1.3), big-endian. */
static const uint8_t order_n[32] = {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
                                    0xff, 0xff, 0xff, 0xff, 0xff, 0xbc, 0xe6, 0xfa, 0xad, 0xa7, 0x17,
                                    0x9e, 0x84, 0xf3, 0xb9, 0xca, 0xc2, 0xfc, 0x63, 0x25, 0x51};

/* SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): a fixed stream, so a failure repeats. */
static uint64_t next_random(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15u);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9u;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebu;
    return z ^ (z >> 31);
}

static void random_bytes(uint8_t *out, size_t len, uint64_t *s)
{
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)next_random(s);
    }
}

/* ---- the field ---- */

/* A random element < p in field.c's form (the top bit cleared: below 2^255 < p). */
static void random_fe(struct pqpan_p256_fe *a, uint64_t *s)
{
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        a->w[i] = (uint32_t)next_random(s);
    }
    a->w[P256_LIMBS - 1] &= 0x7fffffffu;
}

static void check_field_pair(const struct pqpan_p256_fe *a, const struct pqpan_p256_fe *b)
{
    struct pqpan_p256_fe want, got;
    struct pqpan_p256_sfe sa, sb, r;
    pqpan_p256_sfe_from_fe(&sa, a);
    pqpan_p256_sfe_from_fe(&sb, b);
    pqpan_p256_fe_mul(&want, a, b);
    pqpan_p256_sfe_mul(&r, &sa, &sb);
    pqpan_p256_sfe_to_fe(&got, &r);
    assert_memory_equal(got.w, want.w, sizeof want.w);
    pqpan_p256_fe_mul(&want, a, a);
    pqpan_p256_sfe_sqr(&r, &sa);
    pqpan_p256_sfe_to_fe(&got, &r);
    assert_memory_equal(got.w, want.w, sizeof want.w);
    pqpan_p256_fe_add(&want, a, b);
    pqpan_p256_sfe_add(&r, &sa, &sb);
    pqpan_p256_sfe_to_fe(&got, &r);
    assert_memory_equal(got.w, want.w, sizeof want.w);
    pqpan_p256_fe_sub(&want, a, b);
    pqpan_p256_sfe_sub(&r, &sa, &sb);
    pqpan_p256_sfe_to_fe(&got, &r);
    assert_memory_equal(got.w, want.w, sizeof want.w);
    /* the half h: below p and h + h = a by field.c */
    pqpan_p256_sfe_half(&r, &sa);
    pqpan_p256_sfe_to_fe(&got, &r);
    assert_true(pqpan_p256_below_p(got.w));
    pqpan_p256_fe_add(&want, &got, &got);
    assert_memory_equal(want.w, a->w, sizeof want.w);
}

static void check_inverse(const struct pqpan_p256_fe *a)
{
    struct pqpan_p256_fe want, got;
    struct pqpan_p256_sfe sa, r;
    pqpan_p256_sfe_from_fe(&sa, a);
    pqpan_p256_fe_inv(&want, a);
    pqpan_p256_sfe_inv(&r, &sa);
    pqpan_p256_sfe_to_fe(&got, &r);
    assert_memory_equal(got.w, want.w, sizeof want.w);
}

static void test_field_edges(void **state)
{
    /* 0, 1, 2, p - 1, p - 2, 2^255, and the largest value below p with limbs of ones */
    static const struct pqpan_p256_fe edges[] = {
        {{0}},
        {{1}},
        {{2}},
        {{0xfffffffeu, 0xffffffffu, 0xffffffffu, 0, 0, 0, 1, 0xffffffffu}},
        {{0xfffffffdu, 0xffffffffu, 0xffffffffu, 0, 0, 0, 1, 0xffffffffu}},
        {{0, 0, 0, 0, 0, 0, 0, 0x80000000u}},
        {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0, 0xffffffffu}},
    };
    const size_t count = sizeof edges / sizeof edges[0];
    struct pqpan_p256_sfe one, zero = {{0}};
    struct pqpan_p256_fe one_fe, got;
    const uint32_t plain_one[P256_LIMBS] = {1};
    size_t i, j;
    (void)state;
    for (i = 0; i < count; i++) {
        for (j = 0; j < count; j++) {
            check_field_pair(&edges[i], &edges[j]);
        }
        check_inverse(&edges[i]);
    }
    pqpan_p256_sfe_one(&one);
    pqpan_p256_fe_to_mont(&one_fe, plain_one);
    pqpan_p256_sfe_to_fe(&got, &one);
    assert_memory_equal(got.w, one_fe.w, sizeof got.w);
    assert_true(pqpan_p256_sfe_zero_mask(&zero) == (pqpan_p256_limb)~(pqpan_p256_limb)0);
    assert_true(pqpan_p256_sfe_zero_mask(&one) == 0);
    assert_int_equal(count * count, 49); /* every pair ran */
}

static void test_field_random(void **state)
{
    uint64_t s = 1;
    struct pqpan_p256_fe a, b;
    unsigned i;
    (void)state;
    for (i = 0; i < RANDOM_FIELD; i++) {
        random_fe(&a, &s);
        random_fe(&b, &s);
        check_field_pair(&a, &b);
        if (i % 20 == 0) {
            check_inverse(&a);
        }
    }
    assert_int_equal(i, RANDOM_FIELD);
}

/* ---- scalar multiplication ---- */

/* (x, y) of k · q by the small build; returns its infinity flag. */
static uint32_t small_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                          const struct pqpan_p256_point *q, const uint8_t k[32])
{
    struct pqpan_p256_point r;
    pqpan_p256_point_mul(&r, q, k);
    return pqpan_p256_point_affine(x, y, &r);
}

/* q in affine Montgomery form with Z = 1, as ecdh.c's point_decode leaves it. */
static void normalise(struct pqpan_p256_point *q)
{
    uint32_t x[P256_LIMBS], y[P256_LIMBS], one[P256_LIMBS] = {1};
    assert_int_equal(pqpan_p256_point_affine(x, y, q), 0);
    pqpan_p256_fe_to_mont(&q->x, x);
    pqpan_p256_fe_to_mont(&q->y, y);
    pqpan_p256_fe_to_mont(&q->z, one);
}

/* k · G and k · q from both builds agree; q affine with Z = 1. */
static void check_scalar(const uint8_t k[32], const struct pqpan_p256_point *q)
{
    struct pqpan_p256_point g;
    uint32_t wx[P256_LIMBS], wy[P256_LIMBS], gx[P256_LIMBS], gy[P256_LIMBS];
    pqpan_p256_point_generator(&g);
    assert_int_equal(small_mul(wx, wy, &g, k), 0);
    pqpan_p256_speed_base_mul(gx, gy, k);
    assert_memory_equal(gx, wx, sizeof wx);
    assert_memory_equal(gy, wy, sizeof wy);
    assert_int_equal(pqpan_p256_speed_mul(gx, gy, &g, k), 0);
    assert_memory_equal(gx, wx, sizeof wx);
    assert_memory_equal(gy, wy, sizeof wy);
    assert_int_equal(small_mul(wx, wy, q, k), 0);
    assert_int_equal(pqpan_p256_speed_mul(gx, gy, q, k), 0);
    assert_memory_equal(gx, wx, sizeof wx);
    assert_memory_equal(gy, wy, sizeof wy);
}

/* r = n - k (k < n, big-endian). */
static void n_minus(uint8_t r[32], const uint8_t k[32])
{
    unsigned borrow = 0;
    int i;
    for (i = 31; i >= 0; i--) {
        int d = (int)order_n[i] - (int)k[i] - (int)borrow;
        borrow = d < 0;
        r[i] = (uint8_t)(d + (borrow ? 256 : 0));
    }
}

/* A small scalar v (< 2^32) as 32 big-endian bytes. */
static void small_scalar(uint8_t k[32], uint32_t v)
{
    memset(k, 0, 32);
    k[28] = (uint8_t)(v >> 24);
    k[29] = (uint8_t)(v >> 16);
    k[30] = (uint8_t)(v >> 8);
    k[31] = (uint8_t)v;
}

/* k (32 big-endian bytes) from its 64 base-16 digits, least significant first. */
static void from_digits(uint8_t k[32], const uint8_t d[64])
{
    unsigned i;
    for (i = 0; i < 32; i++) {
        k[31 - i] = (uint8_t)(d[2 * i] | d[2 * i + 1] << 4);
    }
}

/* A random point of the group (r · G for a random r), affine, Z = 1. */
static void random_point(struct pqpan_p256_point *q, uint64_t *s)
{
    uint8_t r[32];
    struct pqpan_p256_point g;
    random_bytes(r, sizeof r, s);
    r[0] &= 0x7fu; /* below 2^255 < n */
    r[31] |= 1u;   /* not 0 */
    pqpan_p256_point_generator(&g);
    pqpan_p256_point_mul(q, &g, r);
    normalise(q);
}

static void test_edge_scalars(void **state)
{
    static const uint32_t small_values[] = {1, 2, 3, 15, 16, 17, 31, 255, 256, 257, 0x1f, 0xffff};
    uint64_t s = 7;
    struct pqpan_p256_point q;
    uint8_t k[32], m[32], d[64];
    unsigned i;
    (void)state;
    random_point(&q, &s);
    for (i = 0; i < sizeof small_values / sizeof small_values[0]; i++) {
        small_scalar(k, small_values[i]);
        check_scalar(k, &q); /* v */
        n_minus(m, k);
        check_scalar(m, &q); /* n - v */
    }
    for (i = 0; i < 64; i++) {
        memset(d, 0, sizeof d);
        d[i] = 1;
        from_digits(k, d); /* 16^i */
        check_scalar(k, &q);
        d[i] = 15;
        from_digits(k, d); /* 15 · 16^i */
        check_scalar(k, &q);
        memset(d, 15, i);
        d[i] = 1;
        from_digits(k, d); /* 2 · 16^i - 1: (16^i - 1) G, then 16^i G added to it */
        check_scalar(k, &q);
    }
    /* every digit 15 below n: 0x0fff..ff; (n - 1) / 2 and (n + 1) / 2 */
    memset(k, 0xff, sizeof k);
    k[0] = 0x0f;
    check_scalar(k, &q);
    memcpy(m, order_n, sizeof m);
    for (i = 31; i > 0; i--) {
        m[i] = (uint8_t)(m[i] >> 1 | m[i - 1] << 7);
    }
    m[0] >>= 1;
    check_scalar(m, &q); /* (n - 1) / 2 */
    m[31] = (uint8_t)(m[31] + 1u);
    check_scalar(m, &q); /* (n + 1) / 2 */
}

/* k = v 2^pos (big-endian; v < 2^8, bits past 255 dropped). */
static void shifted_scalar(uint8_t k[32], uint32_t v, unsigned pos)
{
    unsigned byte = pos / 8;
    uint32_t w = v << (pos % 8);
    memset(k, 0, 32);
    k[31 - byte] = (uint8_t)w;
    if (byte < 31) {
        k[30 - byte] = (uint8_t)(w >> 8);
    }
}

/* The variable-base window's signed 5-bit digits (point.c, digits -15..16): for each
 * window i, the largest positive digit 16 32^i, the first negative one 17 32^i = -15 32^i
 * + 32^(i+1) and 31 32^i = -32^i + 32^(i+1), and 32^i - 1 (every lower digit -1 with a
 * carry, 1 on top; the accumulator (32^i) P meets -P); and n - v for v = 1..40, the
 * scalars nearest the one case the recoding must avoid at digit 0 (k = n + 2 d_0). */
static void test_signed_window_scalars(void **state)
{
    static const uint32_t digits[] = {16, 17, 31};
    uint64_t s = 13;
    struct pqpan_p256_point q;
    uint8_t k[32], m[32];
    unsigned i, j;
    (void)state;
    random_point(&q, &s);
    for (i = 0; i < 51; i++) {
        for (j = 0; j < sizeof digits / sizeof digits[0]; j++) {
            shifted_scalar(k, digits[j], 5 * i);
            check_scalar(k, &q);
        }
        memset(k, 0, sizeof k);
        for (j = 0; j < 5 * (i + 1); j++) {
            k[31 - j / 8] = (uint8_t)(k[31 - j / 8] | 1u << (j % 8)); /* 32^(i+1) - 1 */
        }
        check_scalar(k, &q);
    }
    for (i = 1; i <= 40; i++) {
        small_scalar(m, i);
        n_minus(k, m);
        check_scalar(k, &q);
    }
}

/* k and n - k give the same x and opposite y. */
static void test_negation(void **state)
{
    uint64_t s = 11;
    uint8_t k[32], m[32];
    uint32_t x1[P256_LIMBS], y1[P256_LIMBS], x2[P256_LIMBS], y2[P256_LIMBS];
    struct pqpan_p256_fe a, b, sum;
    unsigned i;
    (void)state;
    for (i = 0; i < 8; i++) {
        random_bytes(k, sizeof k, &s);
        k[0] &= 0x7fu;
        n_minus(m, k);
        pqpan_p256_speed_base_mul(x1, y1, k);
        pqpan_p256_speed_base_mul(x2, y2, m);
        assert_memory_equal(x1, x2, sizeof x1);
        pqpan_p256_fe_to_mont(&a, y1);
        pqpan_p256_fe_to_mont(&b, y2);
        pqpan_p256_fe_add(&sum, &a, &b);
        assert_true(pqpan_p256_is_zero(sum.w));
    }
    assert_int_equal(i, 8);
}

static void test_random_scalars(void **state)
{
    uint64_t s = 3;
    struct pqpan_p256_point q;
    uint8_t k[32];
    unsigned i;
    (void)state;
    for (i = 0; i < RANDOM_SCALARS; i++) {
        if (i % 10 == 0) {
            random_point(&q, &s);
        }
        random_bytes(k, sizeof k, &s);
        if (k[0] == 0xff) {
            k[0] = 0xfe; /* below n */
        }
        check_scalar(k, &q);
    }
    assert_int_equal(i, RANDOM_SCALARS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_field_edges),
        cmocka_unit_test(test_field_random),
        cmocka_unit_test(test_edge_scalars),
        cmocka_unit_test(test_signed_window_scalars),
        cmocka_unit_test(test_negation),
        cmocka_unit_test(test_random_scalars),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
