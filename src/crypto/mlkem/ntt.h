/* Arithmetic mod q = 3329 and the number-theoretic transform of FIPS 203 §4.3. */
#ifndef PQPAN_MLKEM_NTT_H
#define PQPAN_MLKEM_NTT_H

#include <stdint.h>

#include "common/compiler.h"
#include "crypto/mlkem/params.h"

/* q^-1 mod 2^16 as a signed 16-bit value (62209 - 65536), for Montgomery reduction with
 * R = 2^16 (P. Montgomery, "Modular multiplication without trial division", 1985). */
#define PQPAN_MLKEM_QINV (-3327)
/* R^2 mod q = 2^32 mod 3329. */
#define PQPAN_MLKEM_R2 1353

/* a * R^-1 mod q, result in (-q, q) for |a| < 2^15 q. Right shifts of negative values are
 * arithmetic on every compiler pqpan supports (gcc, clang). */
static inline int16_t mlkem_montgomery_reduce(int32_t a)
{
    int16_t t = (int16_t)((int16_t)a * PQPAN_MLKEM_QINV);
    return (int16_t)((a - (int32_t)t * PQPAN_MLKEM_Q) >> 16);
}

/* a * b * R^-1 mod q, |result| < q for |b| < q/2 or |a b| < 2^15 q. Montgomery
 * reduction on 16-bit halves: with t = lo16(lo16(a b) q^-1), a b - t q is divisible by
 * 2^16 and its low halves agree, so (a b - t q) / 2^16 = hi16(a b) - hi16(t q) exactly.
 * Compilers map hi16/lo16 products to 16-bit SIMD multiplies. Always inlined: at -Os gcc
 * otherwise calls it out of line from the transforms once it has five call sites (the
 * portable -Os ML-KEM-512 KeyGen took 7 % more estimated cycles on the Cortex-M4). */
static PQPAN_ALWAYS_INLINE int16_t mlkem_fqmul(int16_t a, int16_t b)
{
    const int32_t ab = (int32_t)a * b;
    const int16_t t = (int16_t)((int16_t)ab * PQPAN_MLKEM_QINV);
    return (int16_t)((int16_t)(ab >> 16) - (int16_t)(((int32_t)t * PQPAN_MLKEM_Q) >> 16));
}

/* Barrett reduction: the representative of a mod q in [-(q-1)/2, (q-1)/2], with
 * v = round(2^26 / q) = 20159 and t = round(v a / 2^26). Since 2^25 is a multiple of
 * 2^16, floor((v a + 2^25) / 2^26) = floor((floor(v a / 2^16) + 2^9) / 2^10): the
 * quotient is taken from the high half of the 16 x 16-bit product, which compilers map
 * to a 16-bit SIMD multiply. */
static inline int16_t mlkem_barrett_reduce(int16_t a)
{
    const int32_t v = ((1 << 26) + PQPAN_MLKEM_Q / 2) / PQPAN_MLKEM_Q;
    const int16_t hi = (int16_t)((v * a) >> 16);
    const int16_t t = (int16_t)((hi + (1 << 9)) >> 10);
    return (int16_t)(a - t * PQPAN_MLKEM_Q);
}

/* Maps a in (-q, q) to [0, q) without a branch. */
static inline uint16_t mlkem_to_unsigned(int16_t a)
{
    int16_t r = (int16_t)(a + ((a >> 15) & PQPAN_MLKEM_Q));
    return (uint16_t)r;
}

/* Forward NTT (FIPS 203 Alg. 9) in place: input |a_i| < q, output |a_i| < 8q, in the
 * bit-reversed order of the spec. */
void pqpan_mlkem_ntt(int16_t a[PQPAN_MLKEM_N]);

/* Inverse NTT (FIPS 203 Alg. 10) in place, also multiplying by R (Montgomery factor) so
 * that the R^-1 left by pqpan_mlkem_basemul_* cancels: input |a_i| < 4q (up to four
 * accumulated base multiplications, unreduced), output |a_i| < q. */
void pqpan_mlkem_invntt(int16_t a[PQPAN_MLKEM_N]);

/* The count of degree-2 factors pqpan_mlkem_basemul_acc_bytes handles at once: its first
 * and count must be multiples of it. */
#define PQPAN_MLKEM_BASEMUL_RUN 32

/* acc += (a o b) * R^-1 (FIPS 203 Alg. 11 MultiplyNTTs, Alg. 12 BaseCaseMultiply) on the
 * count degree-2 factors first .. first + count - 1 (both multiples of
 * PQPAN_MLKEM_BASEMUL_RUN): a holds their 2 count coefficients (a[0] is coefficient
 * 2 first), |a_i| < 2^12; b is ByteEncode_12 of the whole second operand, decoded run by
 * run (12-bit values taken mod q, as ByteDecode_12 would). Each sum of Alg. 12 is
 * Montgomery-reduced, so |acc_i| grows by less than q; acc is never reduced here. */
void pqpan_mlkem_basemul_acc_bytes(int16_t acc[PQPAN_MLKEM_N], const int16_t *a,
                                   const uint8_t b[PQPAN_MLKEM_POLYBYTES], unsigned first,
                                   unsigned count);

/* acc += (a o b) * R^-1 over all 128 factors, both operands given as ByteEncode_12 and
 * decoded run by run (12-bit values taken mod q); |acc_i| grows by less than q. */
void pqpan_mlkem_basemul_acc_encoded(int16_t acc[PQPAN_MLKEM_N],
                                     const uint8_t a[PQPAN_MLKEM_POLYBYTES],
                                     const uint8_t b[PQPAN_MLKEM_POLYBYTES]);

#endif
