/* Power2Round, Decompose, HighBits, LowBits, MakeHint, UseHint (FIPS 204 §7.4, Alg. 35-40)
 * on one coefficient. Constant time: quotients by the constants 2 gamma2 are taken with a
 * multiplication and a shift (a division instruction is variable-time on the Cortex-M4),
 * and the special case of Decompose is a mask. */
#ifndef PQPAN_MLDSA_ROUNDING_H
#define PQPAN_MLDSA_ROUNDING_H

#include <stdint.h>

#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/params.h"

/* Power2Round (Alg. 35) of r in [0, q): r = r1 2^13 + r0 with r0 = r mod+- 2^13 in
 * (-2^12, 2^12]. Returns r1, stores r0. */
static inline int32_t mldsa_power2round(int32_t *r0, int32_t r)
{
    const int32_t r1 = (r + (1 << (PQPAN_MLDSA_D - 1)) - 1) >> PQPAN_MLDSA_D;
    *r0 = r - (r1 << PQPAN_MLDSA_D);
    return r1;
}

/* floor(x / (2 gamma2)) for 0 <= x < q + gamma2, as floor(x M / 2^S): M = ceil(2^S / d)
 * with (S, M) = (39, 2886403) for d = 190464 and (42, 8396809) for d = 523776, the
 * smallest S for which the identity holds on the whole range (checked exhaustively by
 * tests/unit/test_mldsa.c). */
static inline int32_t mldsa_div_2gamma2(int32_t x, int32_t gamma2)
{
    if (gamma2 == (PQPAN_MLDSA_Q - 1) / 88) {
        return (int32_t)(((uint64_t)(uint32_t)x * 2886403u) >> 39);
    }
    return (int32_t)(((uint64_t)(uint32_t)x * 8396809u) >> 42);
}

/* Decompose (Alg. 36) of r in [0, q): r = r1 (2 gamma2) + r0 with r0 = r mod+- 2 gamma2 in
 * (-gamma2, gamma2]; when r - r0 = q - 1, r1 = 0 and r0 = r0 - 1 instead. Returns r1,
 * stores r0. gamma2 is public (it selects the parameter set). */
static inline int32_t mldsa_decompose(int32_t *r0, int32_t r, int32_t gamma2)
{
    const int32_t m = (PQPAN_MLDSA_Q - 1) / (2 * gamma2);
    int32_t r1 = mldsa_div_2gamma2(r + gamma2 - 1, gamma2);
    int32_t low = r - r1 * 2 * gamma2;
    /* wrap = -1 when r1 == m (the case r - r0 = q - 1), else 0 */
    const int32_t wrap = (int32_t)(((uint32_t)(r1 ^ m) - 1u) >> 31) * -1;
    r1 &= ~wrap;
    low -= wrap & 1;
    *r0 = low;
    return r1;
}

/* HighBits (Alg. 37) of r in [0, q). */
static inline int32_t mldsa_highbits(int32_t r, int32_t gamma2)
{
    int32_t r0;
    return mldsa_decompose(&r0, r, gamma2);
}

/* 1 if a >= bound, else 0, for 0 <= a, bound < 2^31, without a branch. */
static inline uint32_t mldsa_at_least(int32_t a, int32_t bound)
{
    return (uint32_t)(bound - 1 - a) >> 31;
}

/* One coefficient of the response checks of Alg. 7 lines 21-28, r = w - <<c s2>> in
 * [0, q) and ct0 = <<c t0>> in (-q/2, q/2): ORs the failures ||LowBits(r)|| >= gamma2 - beta
 * (line 23) and ||ct0|| >= gamma2 (line 28) into *fail and returns the hint
 * MakeHint(-ct0, r + ct0) = [HighBits(r + ct0) != HighBits(r)] (Alg. 39) as 0 or 1.
 * Constant time. */
static inline uint32_t mldsa_sign_hint(uint32_t *fail, int32_t r, int32_t ct0, int32_t gamma2,
                                       int32_t beta)
{
    int32_t r0;
    const int32_t r1 = mldsa_decompose(&r0, r, gamma2);
    const int32_t v1 = mldsa_highbits(mldsa_freeze(r + ct0), gamma2);
    *fail |= mldsa_at_least(mldsa_abs(r0), gamma2 - beta);
    *fail |= mldsa_at_least(mldsa_abs(ct0), gamma2);
    return ((uint32_t)(r1 ^ v1) + 0x7FFFFFFFu) >> 31; /* r1 != v1 */
}

/* UseHint (Alg. 40) for r in [0, q): the high bits of r moved by one step (mod m) towards
 * the sign of r0 when h = 1. For verification only: it branches on h and r0. */
static inline int32_t mldsa_use_hint(int32_t r, unsigned h, int32_t gamma2)
{
    const int32_t m = (PQPAN_MLDSA_Q - 1) / (2 * gamma2);
    int32_t r0;
    const int32_t r1 = mldsa_decompose(&r0, r, gamma2);
    if (h == 0) {
        return r1;
    }
    if (r0 > 0) {
        return r1 + 1 == m ? 0 : r1 + 1;
    }
    return r1 == 0 ? m - 1 : r1 - 1;
}

#endif
