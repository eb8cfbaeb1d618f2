/* The field GF(p) of P-256 for the speed build (PQPAN_P256_IMPL=speed, docs/ECDH.md):
 * Montgomery form a·2^256 mod p like src/crypto/p256/field.c, so a value has the same
 * meaning in both builds and only the limb layout differs. Where the compiler has an
 * unsigned 128-bit integer (__SIZEOF_INT128__: gcc and clang on 64-bit hosts), 4 limbs
 * of 64 bits with a dedicated squaring; elsewhere (the Cortex-M4) the 8 limbs of 32 bits
 * of field.c. PQPAN_P256_SPEED_LIMB32 forces the 32-bit limbs (test_p256_speed32).
 *
 * Every function runs in time independent of the values and leaves results reduced
 * below p; r may alias any input. No OS header: builds for the M4. */
#ifndef PQPAN_CRYPTO_P256_SPEED_FE_H
#define PQPAN_CRYPTO_P256_SPEED_FE_H

#include <stdint.h>

#include "crypto/p256/p256.h"

#if defined(__SIZEOF_INT128__) && !defined(PQPAN_P256_SPEED_LIMB32)
#define PQPAN_P256_SPEED_LIMB64 1
#define PQPAN_P256_SFE_LIMBS 4
typedef uint64_t pqpan_p256_limb;
/* One 64-bit limb from its two 32-bit halves (the generated table's notation). */
#define PQPAN_P256_LIMB(hi, lo) ((uint64_t)(hi) << 32 | (uint64_t)(lo))
struct pqpan_p256_sfe {
    uint64_t w[PQPAN_P256_SFE_LIMBS];
};
#else
#define PQPAN_P256_SFE_LIMBS 8
typedef uint32_t pqpan_p256_limb;
#define PQPAN_P256_LIMB(hi, lo) (uint32_t)(lo), (uint32_t)(hi)
struct pqpan_p256_sfe {
    uint32_t w[PQPAN_P256_SFE_LIMBS];
};
#endif

#if defined(PQPAN_M4_ASM) && !defined(PQPAN_P256_SPEED_LIMB64)
#include "crypto/m4/backend.h"
/* The Cortex-M4 backend (src/crypto/m4/p256_fe_m4.S) called directly, without a
 * wrapper function's branch: the same operations as below. */
static inline void pqpan_p256_sfe_add(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                                      const struct pqpan_p256_sfe *b)
{
    pqpan_p256_m4_add(r->w, a->w, b->w);
}
static inline void pqpan_p256_sfe_sub(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                                      const struct pqpan_p256_sfe *b)
{
    pqpan_p256_m4_sub(r->w, a->w, b->w);
}
static inline void pqpan_p256_sfe_mul(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                                      const struct pqpan_p256_sfe *b)
{
    pqpan_p256_m4_mul(r->w, a->w, b->w);
}
static inline void pqpan_p256_sfe_sqr(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    pqpan_p256_m4_sqr(r->w, a->w);
}
static inline void pqpan_p256_sfe_half(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a)
{
    pqpan_p256_m4_half(r->w, a->w);
}
#else
/* r = a + b, a - b, a · b · 2^-256, a^2 · 2^-256, a / 2, all mod p. */
void pqpan_p256_sfe_add(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b);
void pqpan_p256_sfe_sub(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b);
void pqpan_p256_sfe_mul(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                        const struct pqpan_p256_sfe *b);
void pqpan_p256_sfe_sqr(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a);
void pqpan_p256_sfe_half(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a);
#endif
/* r = a^-1 = a^(p-2) by a fixed addition chain (255 squarings, 13 products); 0 -> 0. */
void pqpan_p256_sfe_inv(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a);
/* r = 1 in Montgomery form (2^256 mod p). */
void pqpan_p256_sfe_one(struct pqpan_p256_sfe *r);
/* All ones if a == 0, else 0. */
pqpan_p256_limb pqpan_p256_sfe_zero_mask(const struct pqpan_p256_sfe *a);
/* r = a where mask is all ones, unchanged where it is 0. */
void pqpan_p256_sfe_cmov(struct pqpan_p256_sfe *r, const struct pqpan_p256_sfe *a,
                         pqpan_p256_limb mask);
/* Between the layouts: a field.c element (Montgomery, 8 x 32 bits) and this one. */
void pqpan_p256_sfe_from_fe(struct pqpan_p256_sfe *r, const struct pqpan_p256_fe *a);
void pqpan_p256_sfe_to_fe(struct pqpan_p256_fe *r, const struct pqpan_p256_sfe *a);

#endif
