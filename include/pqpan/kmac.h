/* cSHAKE256 and KMAC256 (NIST SP 800-185 §3, §4), built on the public Keccak sponge of
 * sha3.h. KMAC256 is the key schedule and MAC of the PQKE protocol (docs/PROTOCOL.md).
 *
 * Contexts hold no pointers (a struct copy clones a computation in progress). A KMAC
 * context holds key-dependent state: the *_final functions wipe it; wipe it yourself with
 * pqpan_wipe if you abandon it. Lengths are in bytes; every string length must be below
 * 2^61 bytes so that its length in bits fits the 64-bit encodings (SP 800-185 §2.3.1
 * allows more; larger inputs give PQPAN_ERR_INVALID_ARG). Misuse is refused as in sha3.h:
 * absorbing after the output started, a second pqpan_kmac256_final, or any call on a
 * context whose init failed returns PQPAN_ERR_STATE and writes nothing outside the
 * output (which is zeroed). */
#ifndef PQPAN_KMAC_H
#define PQPAN_KMAC_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"
#include "pqpan/sha3.h"

/* KMAC256's rate: the rate of cSHAKE256 = SHAKE256, 136 bytes (SP 800-185 §4.3.1). */
#define PQPAN_KMAC256_RATE PQPAN_SHAKE256_RATE

struct pqpan_cshake256_ctx {
    struct pqpan_keccak_ctx sponge;
};

struct pqpan_kmac256_ctx {
    struct pqpan_keccak_ctx sponge;
};

/* cSHAKE256(X, L, N, S) (SP 800-185 §3.3): starts a context with function name N and
 * customization S (either may be empty, pointer NULL with length 0). With both empty it
 * is SHAKE256 as the standard requires. Then absorb X and squeeze L/8 bytes. */
PQPAN_MUST_CHECK int pqpan_cshake256_init(struct pqpan_cshake256_ctx *ctx, const uint8_t *name,
                                          size_t name_len, const uint8_t *custom,
                                          size_t custom_len);
int pqpan_cshake256_absorb(struct pqpan_cshake256_ctx *ctx, const uint8_t *in, size_t len);
/* Squeezes len bytes; calls may be split anywhere (the first one finalizes). */
int pqpan_cshake256_squeeze(struct pqpan_cshake256_ctx *ctx, uint8_t *out, size_t len);

/* KMAC256(K, X, L, S) (SP 800-185 §4.3.1), incremental: init with key K and
 * customization S, absorb X in any pieces, final writes out_len bytes (L = 8 * out_len,
 * encoded into the input so a shorter L is not a prefix of a longer one) and wipes ctx.
 * On error the context (init) or the output (final) is zeroed. */
PQPAN_MUST_CHECK int pqpan_kmac256_init(struct pqpan_kmac256_ctx *ctx, const uint8_t *key,
                                        size_t key_len, const uint8_t *custom,
                                        size_t custom_len);
int pqpan_kmac256_absorb(struct pqpan_kmac256_ctx *ctx, const uint8_t *in, size_t len);
PQPAN_MUST_CHECK int pqpan_kmac256_final(struct pqpan_kmac256_ctx *ctx, uint8_t *out,
                                         size_t out_len);

/* One call: out = KMAC256(key, in, 8 * out_len, custom). */
PQPAN_MUST_CHECK int pqpan_kmac256(uint8_t *out, size_t out_len, const uint8_t *key,
                                   size_t key_len, const uint8_t *in, size_t in_len,
                                   const uint8_t *custom, size_t custom_len);

#endif
