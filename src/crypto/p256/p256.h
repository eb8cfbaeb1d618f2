/* P-256 internals (include/pqpan/ecdh.h is the public interface): arithmetic modulo the
 * field prime p with 32-bit limbs in Montgomery form, and the group law with the complete
 * formulas of Renes, Costello and Batina, "Complete addition formulas for prime order
 * elliptic curves", EUROCRYPT 2016 (IACR ePrint 2015/1060), for a = -3.
 *
 * Curve (NIST SP 800-186 §3.2.1.3, P-256): y^2 = x^3 - 3x + b over GF(p),
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1, prime order n, cofactor 1.
 *
 * Everything here runs in time independent of the values (no branch or memory index on
 * them) unless a comment says the input is public. No OS header: builds for the M4. */
#ifndef PQPAN_CRYPTO_P256_H
#define PQPAN_CRYPTO_P256_H

#include <stdint.h>

#define P256_LIMBS 8   /* 8 x 32 bits */
#define P256_BYTES 32

/* A field element: limb 0 least significant, in Montgomery form a·2^256 mod p, fully
 * reduced (< p) after every operation. */
struct pqpan_p256_fe {
    uint32_t w[P256_LIMBS];
};

/* A point in homogeneous projective coordinates (X : Y : Z), x = X/Z, y = Y/Z; the point
 * at infinity is (0 : 1 : 0) (RCB §2). */
struct pqpan_p256_point {
    struct pqpan_p256_fe x, y, z;
};

/* ---- integers of 8 limbs (field elements and scalars) ---- */

/* Big-endian 32 bytes <-> limbs (the value as is, no Montgomery conversion). */
void pqpan_p256_from_bytes(uint32_t out[P256_LIMBS], const uint8_t in[P256_BYTES]);
void pqpan_p256_to_bytes(uint8_t out[P256_BYTES], const uint32_t in[P256_LIMBS]);
/* 1 if a < p (the field prime), resp. a < n (the group order), else 0; constant time. */
uint32_t pqpan_p256_below_p(const uint32_t a[P256_LIMBS]);
uint32_t pqpan_p256_below_n(const uint32_t a[P256_LIMBS]);
/* 1 if every limb is zero, else 0 (constant time). */
uint32_t pqpan_p256_is_zero(const uint32_t a[P256_LIMBS]);

/* ---- the field GF(p), Montgomery form ---- */

/* r = a + b, a - b, a · b (Montgomery product: a·b·2^-256), all mod p; r may alias. */
void pqpan_p256_fe_add(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const struct pqpan_p256_fe *b);
void pqpan_p256_fe_sub(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const struct pqpan_p256_fe *b);
void pqpan_p256_fe_mul(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const struct pqpan_p256_fe *b);
/* r = a^e mod p for a public exponent e (limbs, least significant first). */
void pqpan_p256_fe_pow(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                       const uint32_t e[P256_LIMBS]);
/* r = a^-1 (Fermat: a^(p-2)); 0 maps to 0. */
void pqpan_p256_fe_inv(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a);
/* A value < p (limbs) into Montgomery form, and back. */
void pqpan_p256_fe_to_mont(struct pqpan_p256_fe *r, const uint32_t a[P256_LIMBS]);
void pqpan_p256_fe_from_mont(uint32_t r[P256_LIMBS], const struct pqpan_p256_fe *a);
/* 1 if a == b (both reduced), else 0 (constant time). */
uint32_t pqpan_p256_fe_equal(const struct pqpan_p256_fe *a, const struct pqpan_p256_fe *b);
/* r = a if mask is all ones, unchanged if mask is 0. */
void pqpan_p256_fe_cmov(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a, uint32_t mask);
/* The curve constant b in Montgomery form. */
void pqpan_p256_fe_b(struct pqpan_p256_fe *r);

/* ---- the group ---- */

/* RCB Algorithm 4 (complete addition, a = -3) and Algorithm 6 (doubling, a = -3); r may
 * alias p or q. */
void pqpan_p256_point_add(struct pqpan_p256_point *r, const struct pqpan_p256_point *p,
                          const struct pqpan_p256_point *q);
void pqpan_p256_point_double(struct pqpan_p256_point *r, const struct pqpan_p256_point *p);
/* The neutral element (0 : 1 : 0) and the base point G (SP 800-186 §3.2.1.3). */
void pqpan_p256_point_infinity(struct pqpan_p256_point *r);
void pqpan_p256_point_generator(struct pqpan_p256_point *r);
/* r = k · p for a scalar k of 32 big-endian bytes (any value below 2^256), by a fixed
 * 4-bit window: 14 additions for the table of 0..15 · p, then 252 doublings and 63
 * additions whatever k is, every table entry read for each digit. */
void pqpan_p256_point_mul(struct pqpan_p256_point *r, const struct pqpan_p256_point *p,
                          const uint8_t k[P256_BYTES]);
/* (X/Z, Y/Z) as plain integers (not Montgomery); returns 1 if p is the point at infinity
 * (Z = 0, coordinates then 0), else 0. Constant time. */
uint32_t pqpan_p256_point_affine(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                                 const struct pqpan_p256_point *p);
/* r = x^3 - 3x + b (Montgomery form). */
void pqpan_p256_curve_rhs(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *x);
/* 1 if y^2 = x^3 - 3x + b for affine x, y in Montgomery form, else 0. */
uint32_t pqpan_p256_on_curve(const struct pqpan_p256_fe *x, const struct pqpan_p256_fe *y);

#endif
