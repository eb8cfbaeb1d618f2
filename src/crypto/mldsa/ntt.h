/* Arithmetic mod q = 8380417 and the number-theoretic transform of FIPS 204 §7.5. All
 * helpers are constant time (no secret-dependent branch, index or division). */
#ifndef PQPAN_MLDSA_NTT_H
#define PQPAN_MLDSA_NTT_H

#include <stdint.h>

#include "crypto/mldsa/params.h"

/* q^-1 mod 2^32, for Montgomery reduction with R = 2^32 (P. Montgomery, "Modular
 * multiplication without trial division", 1985). */
#define PQPAN_MLDSA_QINV 58728449

/* a R^-1 mod q in (-q, q), for |a| < 2^31 q. With t = lo32(a q^-1), a - t q is a multiple
 * of 2^32. Right shifts of negative values are arithmetic on every supported compiler. */
static inline int32_t mldsa_montgomery_reduce(int64_t a)
{
    const int32_t t = (int32_t)(uint32_t)((uint64_t)a * (uint32_t)PQPAN_MLDSA_QINV);
    return (int32_t)((a - (int64_t)t * PQPAN_MLDSA_Q) >> 32);
}

/* a b R^-1 mod q in (-q, q), for |a b| < 2^31 q. */
static inline int32_t mldsa_mont_mul(int32_t a, int32_t b)
{
    return mldsa_montgomery_reduce((int64_t)a * b);
}

/* A representative of a mod q in [-6283009, 6283008], for a <= 2^31 - 2^22 - 1: subtracts
 * round(a / 2^23) q (2^23 is within 2^13 of q). */
static inline int32_t mldsa_reduce32(int32_t a)
{
    const int32_t t = (a + (1 << 22)) >> 23;
    return a - t * PQPAN_MLDSA_Q;
}

/* Adds q to a negative a: (-q, q) -> [0, q). */
static inline int32_t mldsa_caddq(int32_t a)
{
    return a + ((a >> 31) & PQPAN_MLDSA_Q);
}

/* a mod q in [0, q) for |a| <= 2^31 - 2^22 - 1. */
static inline int32_t mldsa_freeze(int32_t a)
{
    return mldsa_caddq(mldsa_reduce32(a));
}

/* a mod+- q, the representative in [-(q-1)/2, (q-1)/2] (FIPS 204 §2.3), for |a| < q (an
 * output of pqpan_mldsa_invntt). */
static inline int32_t mldsa_center_small(int32_t a)
{
    const int32_t r = mldsa_caddq(a);
    return r - (((PQPAN_MLDSA_Q - 1) / 2 - r) >> 31 & PQPAN_MLDSA_Q);
}

/* a mod+- q as mldsa_center_small, for |a| <= 2^31 - 2^22 - 1. */
static inline int32_t mldsa_center(int32_t a)
{
    return mldsa_center_small(mldsa_reduce32(a));
}

/* |a| without a branch, for a > INT32_MIN. */
static inline int32_t mldsa_abs(int32_t a)
{
    const int32_t s = a >> 31;
    return (a ^ s) - s;
}

/* NTT (FIPS 204 Alg. 41) in place: input |a_i| < q, output |a_i| < 9q, in the
 * bit-reversed order of the spec. */
void pqpan_mldsa_ntt(int32_t a[PQPAN_MLDSA_N]);

/* The layers of the NTT with len < n (n a power of two, 2..256) on the n coefficients
 * [offset, offset + n) of a polynomial, held in a[0..n), after the layers with len >= n
 * are done: with n = 64, a quarter of the NTT, computed in a quarter of the memory. */
void pqpan_mldsa_ntt_layers(int32_t *a, unsigned n, unsigned offset);

/* zeta^BitRev8(m) R mod q, the factor of Alg. 41's m-th block (1 <= m < 256). */
int32_t pqpan_mldsa_ntt_zeta(unsigned m);

/* NTT^-1 (FIPS 204 Alg. 42) in place of a product computed with pqpan_mldsa_pointwise
 * (which leaves a factor R^-1): the final scaling by 256^-1 also multiplies by R. Input
 * a_i <= 2^31 - 2^22 - 1 in absolute value (reduced first), output |a_i| < q. */
void pqpan_mldsa_invntt(int32_t a[PQPAN_MLDSA_N]);

/* r_i = a_i b_i R^-1 (FIPS 204 Alg. 45 MultiplyNTT), |r_i| < q for |a_i|, |b_i| < 9q.
 * r may be a or b. */
void pqpan_mldsa_pointwise(int32_t r[PQPAN_MLDSA_N], const int32_t a[PQPAN_MLDSA_N],
                           const int32_t b[PQPAN_MLDSA_N]);

/* r_i = r_i + a_i b_i R^-1: one term of a sum of products (a row of Alg. 45 MultiplyNTT
 * summed over the columns), each term below q in absolute value for |a_i|, |b_i| < 9q.
 * r may be a or b. */
void pqpan_mldsa_pointwise_acc(int32_t r[PQPAN_MLDSA_N], const int32_t a[PQPAN_MLDSA_N],
                               const int32_t b[PQPAN_MLDSA_N]);

#endif
