/* GF(p) for the speed build (fe.h). 64-bit limbs: the product by product scanning with
 * the Montgomery reduction interleaved (pqpan_p256_sfe_mul), the square with its 6 cross
 * products computed once and doubled by a shift, then 4 reduction steps (mont_reduce).
 * p's limbs are 2^64 - 1, 2^32 - 1, 0, 2^64 - 2^32 + 1, so -p^-1 mod 2^64 = 1: the
 * multiplier of each reduction step is the low limb itself, and m (2^64 - 1) + t_i =
 * m 2^64 carries exactly m (the observation of field.c's reduce_step, at radix 2^64).
 * Carries go through 128-bit sums or comparisons, whichever gcc 12 compiled shorter
 * (callgrind, docs/ECDH.md). */
#include "crypto/p256/speed/fe.h"

#include <string.h>

/* The exponent p - 2 = 2^256 - 2^224 + 2^192 + 2^96 - 3 (SP 800-186 §3.2.1.3) by blocks,
 * most significant first: 32 ones, 31 zeros and a one, 96 zeros, 64 ones, 30 ones, 0, 1. */
static void sqr_n(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a, unsigned n)
{
    unsigned i;
    *r = *a;
    for (i = 0; i < n; i++) {
        pqpan_p256_sfe_sqr(r, r);
    }
}

void pqpan_p256_sfe_inv(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    /* xN = a^(2^N - 1) */
    struct pqpan_p256_sfe x2, x4, x8, x16, x30, x32, t;
    sqr_n(&t, a, 1);
    pqpan_p256_sfe_mul(&x2, &t, a);
    sqr_n(&t, &x2, 2);
    pqpan_p256_sfe_mul(&x4, &t, &x2);
    sqr_n(&t, &x4, 4);
    pqpan_p256_sfe_mul(&x8, &t, &x4);
    sqr_n(&t, &x8, 8);
    pqpan_p256_sfe_mul(&x16, &t, &x8);
    sqr_n(&t, &x16, 8);
    pqpan_p256_sfe_mul(&t, &t, &x8);  /* x24 */
    sqr_n(&t, &t, 4);
    pqpan_p256_sfe_mul(&t, &t, &x4);  /* x28 */
    sqr_n(&t, &t, 2);
    pqpan_p256_sfe_mul(&x30, &t, &x2);
    sqr_n(&t, &x30, 2);
    pqpan_p256_sfe_mul(&x32, &t, &x2);
    sqr_n(&t, &x32, 32);               /* ffffffff 00000000 */
    pqpan_p256_sfe_mul(&t, &t, a);     /* ffffffff 00000001 */
    sqr_n(&t, &t, 96 + 32);
    pqpan_p256_sfe_mul(&t, &t, &x32);  /* ... 00000000 x 3, ffffffff */
    sqr_n(&t, &t, 32);
    pqpan_p256_sfe_mul(&t, &t, &x32);  /* ... ffffffff */
    sqr_n(&t, &t, 30);
    pqpan_p256_sfe_mul(&t, &t, &x30);  /* ... 3fffffff */
    sqr_n(&t, &t, 2);
    pqpan_p256_sfe_mul(r, &t, a);      /* ... fffffffd */
}

#if defined(PQPAN_P256_SPEED_LIMB64) || !defined(PQPAN_M4_ASM)
/* (With the M4 backend, fe.h maps this and the arithmetic below to the assembly.)
 * a + p where a is odd (p added under the mask of a's low bit; the sum stays below 2p,
 * so 257 bits), a where it is even: even, and half of it is below p. Limb-generic: p's
 * limbs by PQPAN_P256_LIMB (SP 800-186 §3.2.1.3). */
void pqpan_p256_sfe_half(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    static const pqpan_p256_limb p[PQPAN_P256_SFE_LIMBS] = {
        PQPAN_P256_LIMB(0xffffffffu, 0xffffffffu), PQPAN_P256_LIMB(0x00000000u, 0xffffffffu),
        PQPAN_P256_LIMB(0x00000000u, 0x00000000u), PQPAN_P256_LIMB(0xffffffffu, 0x00000001u)};
    const unsigned top = 8 * sizeof(pqpan_p256_limb) - 1;
    pqpan_p256_limb mask = (pqpan_p256_limb)0u - (a->w[0] & 1u), carry = 0, t[PQPAN_P256_SFE_LIMBS];
    unsigned i;
    for (i = 0; i < PQPAN_P256_SFE_LIMBS; i++) {
        pqpan_p256_limb addend = p[i] & mask;
        pqpan_p256_limb sum = a->w[i] + addend;
        pqpan_p256_limb out = sum < addend;
        sum += carry;
        carry = out | (sum < carry);
        t[i] = sum;
    }
    for (i = 0; i + 1 < PQPAN_P256_SFE_LIMBS; i++) {
        r->w[i] = t[i] >> 1 | t[i + 1] << top;
    }
    r->w[PQPAN_P256_SFE_LIMBS - 1] = t[PQPAN_P256_SFE_LIMBS - 1] >> 1 | carry << top;
}
#endif

pqpan_p256_limb pqpan_p256_sfe_zero_mask(const struct pqpan_p256_sfe *a)
{
    pqpan_p256_limb acc = 0;
    unsigned i;
    for (i = 0; i < PQPAN_P256_SFE_LIMBS; i++) {
        acc |= a->w[i];
    }
    /* the top bit of acc | -acc is set iff acc != 0 */
    return ((acc | (pqpan_p256_limb)(0u - acc)) >> (8 * sizeof acc - 1)) - 1u;
}

void pqpan_p256_sfe_cmov(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                         pqpan_p256_limb mask)
{
    unsigned i;
    for (i = 0; i < PQPAN_P256_SFE_LIMBS; i++) {
        r->w[i] ^= (r->w[i] ^ a->w[i]) & mask;
    }
}

void pqpan_p256_sfe_one(struct pqpan_p256_sfe *r)
{
    /* 2^256 mod p = 2^256 - p = 00000000 fffffffe ffffffff ffffffff ffffffff 00000000
     * 00000000 00000001 */
    static const pqpan_p256_limb one[PQPAN_P256_SFE_LIMBS] = {
        PQPAN_P256_LIMB(0x00000000u, 0x00000001u), PQPAN_P256_LIMB(0xffffffffu, 0x00000000u),
        PQPAN_P256_LIMB(0xffffffffu, 0xffffffffu), PQPAN_P256_LIMB(0x00000000u, 0xfffffffeu)};
    memcpy(r->w, one, sizeof one);
}

#ifdef PQPAN_P256_SPEED_LIMB64

__extension__ typedef unsigned __int128 u128;

/* p as 4 limbs of 64 bits (SP 800-186 §3.2.1.3). */
static const uint64_t field_p[4] = {0xffffffffffffffffu, 0x00000000ffffffffu, 0,
                                    0xffffffff00000001u};

/* a + b + carry and a - b - borrow on one limb, the carry (borrow) in and out 0 or 1;
 * by comparisons, which gcc compiles to shorter code than 128-bit sums here. */
static uint64_t add_carry(uint64_t a, uint64_t b, uint64_t *carry)
{
    uint64_t s = a + b;
    uint64_t out = s < a;
    uint64_t t = s + *carry;
    *carry = out | (t < s);
    return t;
}

static uint64_t sub_borrow(uint64_t a, uint64_t b, uint64_t *borrow)
{
    uint64_t d = a - b;
    uint64_t out = a < b;
    uint64_t t = d - *borrow;
    *borrow = out | (d < *borrow);
    return t;
}

/* r = t - p if (hi : t) >= p, else t; (hi : t) < 2p. Masked, not branched. */
static void reduce_once(uint64_t r[4], const uint64_t t[4], uint64_t hi)
{
    uint64_t d[4], borrow = 0, keep_d;
    unsigned i;
    for (i = 0; i < 4; i++) {
        d[i] = sub_borrow(t[i], field_p[i], &borrow);
    }
    keep_d = (0u - hi) | (borrow - 1u);
    for (i = 0; i < 4; i++) {
        r[i] = (d[i] & keep_d) | (t[i] & ~keep_d);
    }
}

/* t (8 limbs, < p 2^256) times 2^-256 mod p into r: for i = 0..3, t += t_i p 2^(64 i),
 * which clears limb i; the carry out of limb i + 4 goes into limb i + 5 at the next
 * step, the last one is the 257th bit of the result (< 2p). */
static void mont_reduce(uint64_t r[4], uint64_t t[8])
{
    uint64_t top = 0;
    unsigned i;
    for (i = 0; i < 4; i++) {
        uint64_t m = t[i];
        u128 acc = (u128)t[i + 1] + m + (u128)m * field_p[1];
        t[i + 1] = (uint64_t)acc;
        acc = (acc >> 64) + t[i + 2];
        t[i + 2] = (uint64_t)acc;
        acc = (acc >> 64) + t[i + 3] + (u128)m * field_p[3];
        t[i + 3] = (uint64_t)acc;
        acc = (acc >> 64) + t[i + 4] + top;
        t[i + 4] = (uint64_t)acc;
        top = (uint64_t)(acc >> 64);
    }
    reduce_once(r, t + 4, top);
}

/* A column sum of the product-scanning multiplication: 192 bits (lo, then hi). */
struct column {
    u128 lo;
    uint64_t hi;
};

static void column_add(struct column *c, uint64_t x, uint64_t y)
{
    u128 p = (u128)x * y;
    c->lo += p;
    c->hi += c->lo < p;
}

/* The low limb of c out; c = c / 2^64. */
static uint64_t column_next(struct column *c)
{
    uint64_t w = (uint64_t)c->lo;
    c->lo = c->lo >> 64 | (u128)c->hi << 64;
    c->hi = 0;
    return w;
}

/* Montgomery multiplication by product scanning (Koç, Acar, Kaliski 1996, "FIPS"): column
 * k sums a_i b_j and m_i p_j for i + j = k; for k < 4, m_k is the column's low limb
 * (-p^-1 = 1 mod 2^64), which m_k p_0 then clears; columns 4..7 are the result. */
void pqpan_p256_sfe_mul(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    struct column c = {0, 0};
    uint64_t m[4], t[4];
    unsigned k, i;
    for (k = 0; k < 4; k++) {
        for (i = 0; i <= k; i++) {
            column_add(&c, a->w[i], b->w[k - i]);
        }
        for (i = 0; i < k; i++) {
            column_add(&c, m[i], field_p[k - i]);
        }
        m[k] = (uint64_t)c.lo;
        column_add(&c, m[k], field_p[0]);
        (void)column_next(&c);
    }
    for (k = 4; k < 7; k++) {
        for (i = k - 3; i < 4; i++) {
            column_add(&c, a->w[i], b->w[k - i]);
            column_add(&c, m[i], field_p[k - i]);
        }
        t[k - 4] = column_next(&c);
    }
    t[3] = (uint64_t)c.lo;
    reduce_once(r->w, t, (uint64_t)(c.lo >> 64));
}

/* The cross products a_i a_j (i < j) once, doubled by a shift, then the squares a_i^2. */
void pqpan_p256_sfe_sqr(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    uint64_t t[8] = {0}, carry;
    unsigned i, j;
    for (i = 0; i < 3; i++) {
        carry = 0;
        for (j = i + 1; j < 4; j++) {
            u128 acc = (u128)a->w[i] * a->w[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)acc;
            carry = (uint64_t)(acc >> 64);
        }
        t[i + 4] = carry;
    }
    for (i = 7; i > 1; i--) {
        t[i] = t[i] << 1 | t[i - 1] >> 63;
    }
    t[1] <<= 1;
    carry = 0;
    for (i = 0; i < 4; i++) {
        u128 acc = (u128)a->w[i] * a->w[i] + t[2 * i] + carry;
        t[2 * i] = (uint64_t)acc;
        acc = (acc >> 64) + t[2 * i + 1];
        t[2 * i + 1] = (uint64_t)acc;
        carry = (uint64_t)(acc >> 64);
    }
    mont_reduce(r->w, t);
}

void pqpan_p256_sfe_add(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    uint64_t t[4], carry = 0;
    unsigned i;
    for (i = 0; i < 4; i++) {
        t[i] = add_carry(a->w[i], b->w[i], &carry);
    }
    reduce_once(r->w, t, carry);
}

void pqpan_p256_sfe_sub(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    uint64_t t[4], borrow = 0, carry = 0, mask;
    unsigned i;
    for (i = 0; i < 4; i++) {
        t[i] = sub_borrow(a->w[i], b->w[i], &borrow);
    }
    mask = 0u - borrow; /* a < b: add p back */
    for (i = 0; i < 4; i++) {
        r->w[i] = add_carry(t[i], field_p[i] & mask, &carry);
    }
}

void pqpan_p256_sfe_from_fe(struct pqpan_p256_sfe *r, const struct pqpan_p256_fe *a)
{
    unsigned i;
    for (i = 0; i < 4; i++) {
        r->w[i] = (uint64_t)a->w[2 * i + 1] << 32 | a->w[2 * i];
    }
}

void pqpan_p256_sfe_to_fe(struct pqpan_p256_fe *r, const struct pqpan_p256_sfe *a)
{
    unsigned i;
    for (i = 0; i < 4; i++) {
        r->w[2 * i] = (uint32_t)a->w[i];
        r->w[2 * i + 1] = (uint32_t)(a->w[i] >> 32);
    }
}

#else

/* 32-bit limbs: field.c's arithmetic on the same layout (with the Cortex-M4 backend, the
 * assembly instead: fe.h). */
void pqpan_p256_sfe_from_fe(struct pqpan_p256_sfe *r, const struct pqpan_p256_fe *a)
{
    memcpy(r->w, a->w, sizeof r->w);
}

void pqpan_p256_sfe_to_fe(struct pqpan_p256_fe *r, const struct pqpan_p256_sfe *a)
{
    memcpy(r->w, a->w, sizeof r->w);
}

#ifndef PQPAN_M4_ASM

void pqpan_p256_sfe_mul(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    struct pqpan_p256_fe x, y;
    pqpan_p256_sfe_to_fe(&x, a);
    pqpan_p256_sfe_to_fe(&y, b);
    pqpan_p256_fe_mul(&x, &x, &y);
    pqpan_p256_sfe_from_fe(r, &x);
}

void pqpan_p256_sfe_add(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    struct pqpan_p256_fe x, y;
    pqpan_p256_sfe_to_fe(&x, a);
    pqpan_p256_sfe_to_fe(&y, b);
    pqpan_p256_fe_add(&x, &x, &y);
    pqpan_p256_sfe_from_fe(r, &x);
}

void pqpan_p256_sfe_sub(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    struct pqpan_p256_fe x, y;
    pqpan_p256_sfe_to_fe(&x, a);
    pqpan_p256_sfe_to_fe(&y, b);
    pqpan_p256_fe_sub(&x, &x, &y);
    pqpan_p256_sfe_from_fe(r, &x);
}

/* The portable 32-bit build: the square is field.c's product. */
void pqpan_p256_sfe_sqr(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    pqpan_p256_sfe_mul(r, a, a);
}

#endif

#endif
