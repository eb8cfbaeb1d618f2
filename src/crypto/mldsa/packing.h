/* Bit packing of FIPS 204 §7.1-7.2: SimpleBitPack / BitPack (Alg. 16, 17) and their
 * inverses (Alg. 18, 19), w1Encode (Alg. 28), HintBitPack / HintBitUnpack (Alg. 20, 21).
 * Values are packed least significant bit first (IntegerToBits, BitsToBytes: Alg. 9,
 * 11). Constant time in the coefficients. */
#ifndef PQPAN_MLDSA_PACKING_H
#define PQPAN_MLDSA_PACKING_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/mldsa/params.h"

/* Packs n coefficients (n a multiple of 8) in `bits` bits each (1..24) into n bits / 8
 * bytes: the value written for a_i is a_i - offset (negate = 0: SimpleBitPack with
 * offset 0) or offset - a_i (negate = 1: BitPack(w, a, b) with offset = b), each cut to
 * its low `bits` bits (values outside [0, 2^bits) are not representable). */
void pqpan_mldsa_pack(uint8_t *out, const int32_t *a, size_t n, unsigned bits, int32_t offset,
                      int negate);

/* The inverse: a_i = v_i + offset (negate = 0) or offset - v_i (negate = 1), v_i the
 * bits-bit values (1..24) read from n bits / 8 bytes, n a multiple of 8 (SimpleBitUnpack,
 * BitUnpack). */
void pqpan_mldsa_unpack(int32_t *a, const uint8_t *in, size_t n, unsigned bits, int32_t offset,
                        int negate);

/* 0 if every bits-bit value of the n bits / 8 bytes is <= max, else -1. Constant time (for
 * the eta-range check of a secret key). */
int pqpan_mldsa_values_at_most(const uint8_t *in, size_t n, unsigned bits, uint32_t max);

/* HintBitUnpack (Alg. 21) as a check of the k + omega bytes y: 0 if it returns a hint, -1
 * for ⊥ (a count out of order or above omega, indices not strictly increasing within a
 * polynomial, or a non-zero unused index). Public data: it branches. */
int pqpan_mldsa_hint_check(const uint8_t *y, unsigned k, unsigned omega);

#endif
