/* Accumulators of 256 residues mod q in [0, q), 3 little-endian bytes each (q < 2^23): a
 * quarter smaller than 256 int32_t, which keeps a row of a matrix product and a full
 * polynomial within two kilobytes of stack. Constant time. */
#ifndef PQPAN_MLDSA_ACC_H
#define PQPAN_MLDSA_ACC_H

#include <stdint.h>

#include "crypto/mldsa/ntt.h"

#define PQPAN_MLDSA_ACC_BYTES (3 * PQPAN_MLDSA_N)

static inline int32_t mldsa_acc_get(const uint8_t *a, unsigned n)
{
    a += 3 * n;
    return (int32_t)((uint32_t)a[0] | (uint32_t)a[1] << 8 | (uint32_t)a[2] << 16);
}

/* Stores v in [0, q). */
static inline void mldsa_acc_set(uint8_t *a, unsigned n, int32_t v)
{
    a += 3 * n;
    a[0] = (uint8_t)v;
    a[1] = (uint8_t)(v >> 8);
    a[2] = (uint8_t)(v >> 16);
}

/* a_n = (a_n + x) mod q for x in (-q, q). */
static inline void mldsa_acc_add(uint8_t *a, unsigned n, int32_t x)
{
    int32_t v = mldsa_caddq(mldsa_acc_get(a, n) + x); /* [0, 2q) */
    v = mldsa_caddq(v - PQPAN_MLDSA_Q);
    mldsa_acc_set(a, n, v);
}

#endif
