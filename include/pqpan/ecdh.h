/* ECDH on P-256 (NIST SP 800-186 §3.2.1.3; the ECC CDH primitive of NIST SP 800-56A
 * Rev. 3 §5.7.1.2): key generation, shared secret with full public-key validation, and
 * the SEC 1 v2 point encodings. Constant time in the private key (fixed-window scalar
 * multiplication with masked table reads; see docs/ECDH.md). Two builds give the same
 * bytes (CMake PQPAN_P256_IMPL): speed (the host's default: 64-bit limbs, Jacobian
 * formulas, a fixed-base table for key generation) and small (the Cortex-M4's default:
 * complete formulas, 32-bit limbs, no table).
 *
 * Byte order: private keys, coordinates and the shared secret are big-endian octet
 * strings (SEC 1 §2.3.5 / §2.3.7), as in RFC 5903 and NIST's vectors. Bluetooth SMP sends
 * coordinates least significant octet first (Core v5.4 Vol 3 Part H §3.5.6); reversing
 * them is the caller's job (src/sim/lesc_app.c does).
 *
 * Every function returns 0 or a negative PQPAN_ERR_*; on an error every output is zeroed.
 * Errors: PQPAN_ERR_INVALID_ARG (NULL), PQPAN_ERR_BAD_KEY (a private key outside
 * [1, n-1]; a public key that fails validation: a coordinate >= p, a point not on the
 * curve, the point at infinity "00", a compressed x with no square root),
 * PQPAN_ERR_MALFORMED (a public-key encoding of another length or first octet),
 * PQPAN_ERR_RNG (the random source failed, or gave no valid key in 64 draws). */
#ifndef PQPAN_ECDH_H
#define PQPAN_ECDH_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/error.h"

#define PQPAN_ECDH_P256_SECRET_BYTES 32     /* the private key d, 1 <= d <= n - 1 */
#define PQPAN_ECDH_P256_COORD_BYTES 32      /* one coordinate, < p */
#define PQPAN_ECDH_P256_PUBLIC_BYTES 65     /* SEC 1 §2.3.3 uncompressed: 04 || X || Y */
#define PQPAN_ECDH_P256_COMPRESSED_BYTES 33 /* SEC 1 §2.3.3 compressed: 02|03 || X */
#define PQPAN_ECDH_P256_SHARED_BYTES 32     /* the x-coordinate of d · Q (SP 800-56A Z) */

/* Q = d · G for a given private key (sk, big-endian). PQPAN_ERR_BAD_KEY unless
 * 1 <= sk <= n - 1. pk is the uncompressed encoding. */
PQPAN_MUST_CHECK int pqpan_ecdh_p256_keypair_derand(uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES],
                                                    const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES]);

/* A fresh key pair: sk drawn from rng (32 bytes per call) until 1 <= sk <= n - 1 (SEC 1
 * §3.2.1: d uniform in [1, n-1]; a draw is rejected with probability below 2^-32, which
 * reveals nothing about the key kept). */
PQPAN_MUST_CHECK int pqpan_ecdh_p256_keypair(uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES],
                                             uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES],
                                             pqpan_rng_fn rng, void *rng_ctx);

/* The shared secret: the x-coordinate of sk · Q, where Q (pk[0..pk_len)) is a SEC 1
 * encoding, uncompressed (65 octets) or compressed (33), validated in full first (SP
 * 800-56A Rev. 3 §5.6.2.3.3: not the point at infinity, coordinates in [0, p-1], on the
 * curve; the order check is implied by the prime order). PQPAN_ERR_BAD_KEY also when sk
 * is out of range. */
PQPAN_MUST_CHECK int pqpan_ecdh_p256_shared(uint8_t ss[PQPAN_ECDH_P256_SHARED_BYTES],
                                            const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES],
                                            const uint8_t *pk, size_t pk_len);

/* SEC 1 §2.3.4 decoding with the same validation: any accepted encoding in, the
 * uncompressed encoding out (decompressing a compressed one). */
PQPAN_MUST_CHECK int pqpan_ecdh_p256_public_decode(uint8_t out[PQPAN_ECDH_P256_PUBLIC_BYTES],
                                                   const uint8_t *pk, size_t pk_len);

/* SEC 1 §2.3.3 with point compression: 02 or 03 (the parity of y) || X, from a public
 * key in any accepted encoding (validated). */
PQPAN_MUST_CHECK int pqpan_ecdh_p256_public_compress(uint8_t out[PQPAN_ECDH_P256_COMPRESSED_BYTES],
                                                     const uint8_t *pk, size_t pk_len);

#endif
