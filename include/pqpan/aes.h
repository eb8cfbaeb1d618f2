/* AES-128 (FIPS 197) encryption and AES-CMAC (NIST SP 800-38B), in constant time: the
 * S-box is computed (multiplicative inverse in GF(2^8) by exponentiation, then the affine
 * map of FIPS 197 §5.1.1) on four bytes at once, so no table is indexed by key or data and
 * no branch depends on them. Only the forward cipher exists: CMAC, the Bluetooth LE
 * Secure Connections functions (lesc.h) and counter modes need nothing else.
 *
 * Byte strings are in the order of the standards' examples: block byte 0 is in[0]. */
#ifndef PQPAN_AES_H
#define PQPAN_AES_H

#include <stddef.h>
#include <stdint.h>

#define PQPAN_AES_BLOCK_BYTES 16
#define PQPAN_AES128_KEY_BYTES 16
#define PQPAN_AES128_ROUNDS 10 /* FIPS 197 §5, Figure 4: Nr = 10 for Nk = 4 */
/* The key schedule: Nb (Nr + 1) = 44 words (FIPS 197 §5.2). */
#define PQPAN_AES128_SCHEDULE_WORDS (4 * (PQPAN_AES128_ROUNDS + 1))
#define PQPAN_AES_CMAC_BYTES 16 /* Tlen = 128, the full block (SP 800-38B §5.5) */

/* An expanded key. Word i holds w[i] of FIPS 197 §5.2 with its first byte in bits 0..7.
 * It is secret: wipe it with pqpan_wipe() when done. No interior pointers. */
struct pqpan_aes128 {
    uint32_t w[PQPAN_AES128_SCHEDULE_WORDS];
};

/* KeyExpansion (FIPS 197 §5.2). */
void pqpan_aes128_init(struct pqpan_aes128 *ctx, const uint8_t key[PQPAN_AES128_KEY_BYTES]);

/* Cipher (FIPS 197 §5.1, Figure 5) on one block; out may equal in. */
void pqpan_aes128_encrypt(const struct pqpan_aes128 *ctx, uint8_t out[PQPAN_AES_BLOCK_BYTES],
                          const uint8_t in[PQPAN_AES_BLOCK_BYTES]);

/* AES-CMAC with a 128-bit key and a full-length tag (SP 800-38B §6.1 subkeys, §6.2 MAC
 * generation) over msg[0..len); len may be 0 (msg may then be NULL). */
void pqpan_aes_cmac(uint8_t tag[PQPAN_AES_CMAC_BYTES], const uint8_t key[PQPAN_AES128_KEY_BYTES],
                    const uint8_t *msg, size_t len);

#endif
