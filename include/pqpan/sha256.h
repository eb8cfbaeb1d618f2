/* SHA-256 (FIPS 180-4 §6.2) and HMAC-SHA-256 (FIPS 198-1, RFC 2104). No table is indexed
 * by data or key and no branch depends on them: the compression function is additions,
 * rotations and Boolean functions only. Contexts hold no interior pointers (a struct copy
 * clones a running hash) and carry secrets when keyed: wipe them with pqpan_wipe(). */
#ifndef PQPAN_SHA256_H
#define PQPAN_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define PQPAN_SHA256_BYTES 32       /* FIPS 180-4 §1, Figure 1: message digest size 256 bits */
#define PQPAN_SHA256_BLOCK_BYTES 64 /* FIPS 180-4 §1, Figure 1: block size 512 bits */
#define PQPAN_SHA256_STATE_WORDS 8  /* H_0 .. H_7 (FIPS 180-4 §6.2) */

struct pqpan_sha256 {
    uint32_t h[PQPAN_SHA256_STATE_WORDS];
    uint8_t block[PQPAN_SHA256_BLOCK_BYTES]; /* the message block being filled */
    uint64_t total;                          /* octets absorbed so far */
};

struct pqpan_hmac_sha256 {
    struct pqpan_sha256 inner;
    struct pqpan_sha256 outer; /* already absorbed K0 XOR opad */
};

/* FIPS 180-4 §5.3.3: H^(0). */
void pqpan_sha256_init(struct pqpan_sha256 *ctx);
/* Absorb msg[0..len); len may be 0 (msg may then be NULL). */
void pqpan_sha256_update(struct pqpan_sha256 *ctx, const uint8_t *msg, size_t len);
/* Padding (FIPS 180-4 §5.1.1) and the digest; the context is wiped. */
void pqpan_sha256_final(struct pqpan_sha256 *ctx, uint8_t out[PQPAN_SHA256_BYTES]);
/* One call: SHA-256(msg[0..len)). */
void pqpan_sha256(uint8_t out[PQPAN_SHA256_BYTES], const uint8_t *msg, size_t len);

/* FIPS 198-1 §4 steps 1-3 and the start of step 4 / 7: K0 from a key of any length. */
void pqpan_hmac_sha256_init(struct pqpan_hmac_sha256 *ctx, const uint8_t *key, size_t key_len);
void pqpan_hmac_sha256_update(struct pqpan_hmac_sha256 *ctx, const uint8_t *msg, size_t len);
/* FIPS 198-1 §4 steps 5-9 with t = 32; the context is wiped. */
void pqpan_hmac_sha256_final(struct pqpan_hmac_sha256 *ctx, uint8_t mac[PQPAN_SHA256_BYTES]);
/* One call: HMAC-SHA-256(key, msg). */
void pqpan_hmac_sha256(uint8_t mac[PQPAN_SHA256_BYTES], const uint8_t *key, size_t key_len,
                       const uint8_t *msg, size_t len);

#endif
