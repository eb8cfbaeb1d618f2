/* Arithmetic modulo the P-256 prime with 8 limbs of 32 bits (the Cortex-M4's word; the
 * 32 x 32 -> 64-bit products map to its UMULL/UMLAAL). Montgomery multiplication, CIOS
 * form (Koç, Acar, Kaliski, "Analyzing and comparing Montgomery multiplication
 * algorithms", IEEE Micro 1996), radix 2^32: for p, -p^-1 mod 2^32 = 1 because the low
 * limb of p is 2^32 - 1. Every result is reduced below p by a masked subtraction. */
#include "crypto/p256/p256.h"

#include "common/bytes.h"

/* NIST SP 800-186 §3.2.1.3 (P-256), as limbs least significant first:
 * p = ffffffff 00000001 00000000 00000000 00000000 ffffffff ffffffff ffffffff
 * n = ffffffff 00000000 ffffffff ffffffff bce6faad a7179e84 f3b9cac2 fc632551
 * b = 5ac635d8 aa3a93e7 b3ebbd55 769886bc 651d06b0 cc53b0f6 3bce3c3e 27d2604b (below) */
static const uint32_t field_p[P256_LIMBS] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0x00000000u,
                                           0x00000000u, 0x00000000u, 0x00000001u, 0xffffffffu};
static const uint32_t order_n[P256_LIMBS] = {0xfc632551u, 0xf3b9cac2u, 0xa7179e84u, 0xbce6faadu,
                                           0xffffffffu, 0xffffffffu, 0x00000000u, 0xffffffffu};
/* b · 2^256 mod p: b (above) in Montgomery form, derived; test_ecdh converts it back and
 * compares with b as SP 800-186 prints it. */
static const uint32_t curve_b_mont[P256_LIMBS] = {0x29c4bddfu, 0xd89cdf62u, 0x78843090u,
                                                  0xacf005cdu, 0xf7212ed6u, 0xe5a220abu,
                                                  0x04874834u, 0xdc30061du};
/* 2^512 mod p, derived from p (Montgomery conversion: to_mont(a) = a · R^2 · R^-1). The
 * P-256 vectors in test_ecdh fail if it is wrong. */
static const uint32_t r_squared[P256_LIMBS] = {0x00000003u, 0x00000000u, 0xffffffffu, 0xfffffffbu,
                                               0xfffffffeu, 0xffffffffu, 0xfffffffdu, 0x00000004u};
/* p - 2 (the Fermat inverse's exponent). */
static const uint32_t p_minus_2[P256_LIMBS] = {0xfffffffdu, 0xffffffffu, 0xffffffffu, 0x00000000u,
                                               0x00000000u, 0x00000000u, 0x00000001u, 0xffffffffu};

void pqpan_p256_from_bytes(uint32_t out[P256_LIMBS], const uint8_t in[P256_BYTES])
{
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        out[i] = pqpan_load32_be(in + 4 * (P256_LIMBS - 1 - i));
    }
}

void pqpan_p256_to_bytes(uint8_t out[P256_BYTES], const uint32_t in[P256_LIMBS])
{
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        pqpan_store32_be(out + 4 * (P256_LIMBS - 1 - i), in[i]);
    }
}

/* r = a - m over 8 limbs; returns the final borrow (1 if a < m). */
static uint32_t sub_limbs(uint32_t r[P256_LIMBS], const uint32_t a[P256_LIMBS],
                          const uint32_t m[P256_LIMBS])
{
    uint64_t borrow = 0;
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        uint64_t d = (uint64_t)a[i] - m[i] - borrow;
        r[i] = (uint32_t)d;
        borrow = (d >> 32) & 1u;
    }
    return (uint32_t)borrow;
}

uint32_t pqpan_p256_below_p(const uint32_t a[P256_LIMBS])
{
    uint32_t scratch[P256_LIMBS];
    return sub_limbs(scratch, a, field_p);
}

uint32_t pqpan_p256_below_n(const uint32_t a[P256_LIMBS])
{
    uint32_t scratch[P256_LIMBS];
    return sub_limbs(scratch, a, order_n);
}

uint32_t pqpan_p256_is_zero(const uint32_t a[P256_LIMBS])
{
    uint32_t acc = 0;
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        acc |= a[i];
    }
    return 1u ^ ((acc | (0u - acc)) >> 31);
}

/* r = t - p if t >= p (hi: a 257th bit of t), else t; t < 2p. Masked, not branched. */
static void reduce_once(uint32_t r[P256_LIMBS], const uint32_t t[P256_LIMBS], uint32_t hi)
{
    uint32_t d[P256_LIMBS];
    uint32_t borrow = sub_limbs(d, t, field_p);
    /* keep d when the subtraction did not underflow or the value had a 257th bit */
    uint32_t use_d = (0u - hi) | (borrow - 1u);
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        r[i] = (d[i] & use_d) | (t[i] & ~use_d);
    }
}

void pqpan_p256_fe_add(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const struct pqpan_p256_fe *b)
{
    uint32_t t[P256_LIMBS];
    uint64_t carry = 0;
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        uint64_t s = (uint64_t)a->w[i] + b->w[i] + carry;
        t[i] = (uint32_t)s;
        carry = s >> 32;
    }
    reduce_once(r->w, t, (uint32_t)carry);
}

void pqpan_p256_fe_sub(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const struct pqpan_p256_fe *b)
{
    uint32_t t[P256_LIMBS];
    uint32_t mask = 0u - sub_limbs(t, a->w, b->w); /* all ones if a < b: add p back */
    uint64_t carry = 0;
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        uint64_t s = (uint64_t)t[i] + (field_p[i] & mask) + carry;
        r->w[i] = (uint32_t)s;
        carry = s >> 32;
    }
}

/* t = (t + m p) / 2^32 over limbs 0..7 for m = t_0, the carry out of limb 7 returned:
 * the CIOS reduction loop with p's limbs (2^32 - 1, 2^32 - 1, 2^32 - 1, 0, 0, 0, 1,
 * 2^32 - 1) put in. m (2^32 - 1) + t_j + m = m 2^32 + t_j for j = 0, 1, 2, so those
 * limbs carry exactly m; limbs 3..5 add the carry (and m at limb 6); limb 7 multiplies.
 * The same value as the generic loop, without its seven other multiplications. */
static uint64_t reduce_step(uint32_t t[P256_LIMBS + 2], uint32_t m)
{
    uint64_t s;
    t[0] = t[1];
    t[1] = t[2];
    s = (uint64_t)t[3] + m;
    t[2] = (uint32_t)s;
    s = (uint64_t)t[4] + (s >> 32);
    t[3] = (uint32_t)s;
    s = (uint64_t)t[5] + (s >> 32);
    t[4] = (uint32_t)s;
    s = (uint64_t)t[6] + m + (s >> 32);
    t[5] = (uint32_t)s;
    s = ((uint64_t)m << 32) - m + t[7] + (s >> 32);
    t[6] = (uint32_t)s;
    return s >> 32;
}

/* CIOS: for each limb b_i, t += a · b_i, then t = (t + m·p) / 2^32 with m = t_0 (since
 * -p^-1 = 1 mod 2^32), which clears the low limb. t stays below 2p (9 limbs). */
void pqpan_p256_fe_mul(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const struct pqpan_p256_fe *b)
{
    uint32_t t[P256_LIMBS + 2] = {0};
    unsigned i, j;
    for (i = 0; i < P256_LIMBS; i++) {
        uint64_t c = 0;
        uint32_t m;
        for (j = 0; j < P256_LIMBS; j++) {
            uint64_t s = (uint64_t)a->w[j] * b->w[i] + t[j] + c;
            t[j] = (uint32_t)s;
            c = s >> 32;
        }
        c += t[P256_LIMBS];
        t[P256_LIMBS] = (uint32_t)c;
        t[P256_LIMBS + 1] = (uint32_t)(c >> 32);
        m = t[0];
        c = reduce_step(t, m);
        c += t[P256_LIMBS];
        t[P256_LIMBS - 1] = (uint32_t)c;
        t[P256_LIMBS] = t[P256_LIMBS + 1] + (uint32_t)(c >> 32);
    }
    reduce_once(r->w, t, t[P256_LIMBS]);
}

/* Left to right square-and-multiply; the branch is on the exponent, which is public. */
void pqpan_p256_fe_pow(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const uint32_t e[P256_LIMBS])
{
    struct pqpan_p256_fe acc, base = *a;
    const uint32_t one[P256_LIMBS] = {1};
    int bit;
    pqpan_p256_fe_to_mont(&acc, one);
    for (bit = 32 * P256_LIMBS - 1; bit >= 0; bit--) {
        pqpan_p256_fe_mul(&acc, &acc, &acc);
        if ((e[bit / 32] >> (bit % 32)) & 1u) {
            pqpan_p256_fe_mul(&acc, &acc, &base);
        }
    }
    *r = acc;
}

void pqpan_p256_fe_inv(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a)
{
    pqpan_p256_fe_pow(r, a, p_minus_2);
}

void pqpan_p256_fe_to_mont(struct pqpan_p256_fe *r, const uint32_t a[P256_LIMBS])
{
    struct pqpan_p256_fe x, r2;
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        x.w[i] = a[i];
        r2.w[i] = r_squared[i];
    }
    pqpan_p256_fe_mul(r, &x, &r2);
}

void pqpan_p256_fe_from_mont(uint32_t r[P256_LIMBS], const struct pqpan_p256_fe *a)
{
    struct pqpan_p256_fe one = {{1}}, out;
    unsigned i;
    pqpan_p256_fe_mul(&out, a, &one);
    for (i = 0; i < P256_LIMBS; i++) {
        r[i] = out.w[i];
    }
}

uint32_t pqpan_p256_fe_equal(const struct pqpan_p256_fe *a, const struct pqpan_p256_fe *b)
{
    uint32_t d[P256_LIMBS];
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        d[i] = a->w[i] ^ b->w[i];
    }
    return pqpan_p256_is_zero(d);
}

void pqpan_p256_fe_cmov(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a, uint32_t mask)
{
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        r->w[i] = (a->w[i] & mask) | (r->w[i] & ~mask);
    }
}

void pqpan_p256_fe_b(struct pqpan_p256_fe *r)
{
    unsigned i;
    for (i = 0; i < P256_LIMBS; i++) {
        r->w[i] = curve_b_mont[i];
    }
}
