/* P-256 scalar multiplication of the speed build (PQPAN_P256_IMPL=speed; the small build
 * is src/crypto/p256/point.c). Jacobian coordinates (X : Y : Z), x = X/Z^2, y = Y/Z^3,
 * the point at infinity any triple with Z = 0; the formulas, their exceptional cases and
 * why no valid scalar reaches them are in point.c and docs/ECDH.md.
 *
 * Both take the scalar k as 32 big-endian bytes with 1 <= k <= n - 1 (ecdh.c checks it)
 * and run in time independent of k: no branch or memory index on it. The outputs are
 * affine coordinates as plain integers (not Montgomery), limbs least significant first. */
#ifndef PQPAN_CRYPTO_P256_SPEED_POINT_H
#define PQPAN_CRYPTO_P256_SPEED_POINT_H

#include <stdint.h>

#include "crypto/p256/p256.h"

/* (x, y) = k · G: one mixed addition per 4-bit digit of k from the table of
 * d · 16^i · G (i = 0..63, d = 1..15, base_table.h), no doubling. */
void pqpan_p256_speed_base_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                               const uint8_t k[P256_BYTES]);

/* (x, y) = k · P for an affine P in field.c's Montgomery form (Z = 1; a validated public
 * key, so a point of order n): a signed 5-bit window (digits -15..16, recoded without a
 * branch) over a table of 1..16 · P, y negated by a masked subtraction for a negative
 * digit; 255 doublings and 51 additions. Returns 1 if the result is the point at infinity
 * (coordinates then 0), else 0; for a valid k and P it is never. */
uint32_t pqpan_p256_speed_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                              const struct pqpan_p256_point *p, const uint8_t k[P256_BYTES]);

#endif
