/* GF(p) for the speed build (fe.h). 64-bit limbs: the product (or the square, whose
 * 6 cross products are computed once and doubled) into 8 limbs, then 4 Montgomery
 * reduction steps. p's limbs are 2^64 - 1, 2^32 - 1, 0, 2^64 - 2^32 + 1, so -p^-1 mod
 * 2^64 = 1 and the multiplier of step i is the limb t_i itself; m (2^64 - 1) + t_i =
 * m 2^64 carries exactly m, and the zero limb needs no product: 2 multiplications per
 * step instead of 4 (the same observation as field.c's reduce_step, at radix 2^64). */
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

/* r = t - p if (hi : t) >= p, else t; (hi : t) < 2p. Masked, not branched. */
static void reduce_once(uint64_t r[4], const uint64_t t[4], uint64_t hi)
{
    uint64_t d[4], borrow = 0, keep_d;
    unsigned i;
    for (i = 0; i < 4; i++) {
        u128 s = (u128)t[i] - field_p[i] - borrow;
        d[i] = (uint64_t)s;
        borrow = (uint64_t)(s >> 64) & 1u;
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

void pqpan_p256_sfe_mul(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    uint64_t t[8] = {0};
    unsigned i, j;
    for (i = 0; i < 4; i++) {
        uint64_t carry = 0;
        for (j = 0; j < 4; j++) {
            u128 acc = (u128)a->w[i] * b->w[j] + t[i + j] + carry;
            t[i + j] = (uint64_t)acc;
            carry = (uint64_t)(acc >> 64);
        }
        t[i + 4] = carry;
    }
    mont_reduce(r->w, t);
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
    uint64_t t[4];
    u128 acc = 0;
    unsigned i;
    for (i = 0; i < 4; i++) {
        acc += (u128)a->w[i] + b->w[i];
        t[i] = (uint64_t)acc;
        acc >>= 64;
    }
    reduce_once(r->w, t, (uint64_t)acc);
}

void pqpan_p256_sfe_sub(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    uint64_t t[4], borrow = 0, mask;
    u128 acc = 0;
    unsigned i;
    for (i = 0; i < 4; i++) {
        u128 s = (u128)a->w[i] - b->w[i] - borrow;
        t[i] = (uint64_t)s;
        borrow = (uint64_t)(s >> 64) & 1u;
    }
    mask = 0u - borrow; /* a < b: add p back */
    for (i = 0; i < 4; i++) {
        acc += (u128)t[i] + (field_p[i] & mask);
        r->w[i] = (uint64_t)acc;
        acc >>= 64;
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

/* 32-bit limbs: field.c's arithmetic on the same layout (the squaring is its product). */
void pqpan_p256_sfe_from_fe(struct pqpan_p256_sfe *r, const struct pqpan_p256_fe *a)
{
    memcpy(r->w, a->w, sizeof r->w);
}

void pqpan_p256_sfe_to_fe(struct pqpan_p256_fe *r, const struct pqpan_p256_sfe *a)
{
    memcpy(r->w, a->w, sizeof r->w);
}

void pqpan_p256_sfe_mul(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b)
{
    struct pqpan_p256_fe x, y;
    pqpan_p256_sfe_to_fe(&x, a);
    pqpan_p256_sfe_to_fe(&y, b);
    pqpan_p256_fe_mul(&x, &x, &y);
    pqpan_p256_sfe_from_fe(r, &x);
}

void pqpan_p256_sfe_sqr(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    pqpan_p256_sfe_mul(r, a, a);
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

#endif
