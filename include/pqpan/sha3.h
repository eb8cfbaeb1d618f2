/* SHA-3 and SHAKE (FIPS 202) on a generic incremental Keccak sponge.
 *
 * The sponge (struct pqpan_keccak_ctx) is public so that other SHA-3 derived functions
 * (cSHAKE, KMAC, TupleHash of NIST SP 800-185) can be built on it: pick a rate and a
 * domain-separation byte, absorb, finalize, squeeze. Contexts hold no pointers, so a
 * struct copy clones a hash in progress. Callers own contexts; wipe them with pqpan_wipe
 * when they held secrets (the SHA3 *_final functions wipe their context themselves).
 *
 * Misuse is refused, never a write outside the context: absorbing after finalize (or after
 * the first squeeze), finalizing twice, or any call on a context that a *_final wiped or
 * whose init failed returns PQPAN_ERR_STATE and changes nothing (an output is zeroed); a
 * NULL context, or a NULL buffer with a non-zero length, returns PQPAN_ERR_INVALID_ARG.
 * These calls cannot fail otherwise, so callers that own a freshly initialised context may
 * ignore the result. */
#ifndef PQPAN_SHA3_H
#define PQPAN_SHA3_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"

/* Width b = 1600 bits = 200 bytes (FIPS 202 §3.1, Table 1). */
#define PQPAN_KECCAK_STATE_BYTES 200
/* Rates r/8 in bytes: r = 1600 - c with capacity c = 2 * security (FIPS 202 §6.1, §6.2). */
#define PQPAN_SHA3_256_RATE 136
#define PQPAN_SHA3_512_RATE 72
#define PQPAN_SHAKE128_RATE 168
#define PQPAN_SHAKE256_RATE 136
#define PQPAN_SHA3_256_BYTES 32
#define PQPAN_SHA3_512_BYTES 64
/* Domain-separation suffix bits followed by the first bit of pad10*1, as one byte
 * (FIPS 202 §6.1: M || 01, §6.2: M || 1111, bits taken least significant first). */
#define PQPAN_KECCAK_DS_SHA3 0x06
#define PQPAN_KECCAK_DS_SHAKE 0x1F
/* cSHAKE (NIST SP 800-185 §3.3: M || 00) for callers building on the sponge. */
#define PQPAN_KECCAK_DS_CSHAKE 0x04

struct pqpan_keccak_ctx {
    /* lane (x, y) at index x + 5y, byte i of a lane is bits 8i..8i+7; with the Cortex-M4
     * backend (PQPAN_M4_ASM) in its interleaved form instead: read the output through
     * the squeeze functions, not from here */
    uint64_t lanes[25];
    uint32_t rate;      /* bytes absorbed / squeezed per permutation */
    uint32_t pos;       /* next byte within the rate; == rate when output is used up */
    uint8_t dsbyte;     /* suffix + first padding bit, see PQPAN_KECCAK_DS_* */
    uint8_t squeezing;  /* 0 while absorbing, 1 after finalize */
};

/* Keccak-p[1600, 24] = Keccak-f[1600] on the state in place (FIPS 202 §3.3, Alg. 7). */
void pqpan_keccak_f1600(uint64_t lanes[25]);

/* Starts a sponge with rate_bytes in 8, 16, ..., 192 and the given domain byte.
 * Returns PQPAN_ERR_INVALID_ARG (and leaves ctx zeroed) for any other rate. */
PQPAN_MUST_CHECK int pqpan_keccak_init(struct pqpan_keccak_ctx *ctx, size_t rate_bytes,
                                       uint8_t dsbyte);
/* Absorbs len bytes; only before pqpan_keccak_finalize (PQPAN_ERR_STATE after it). */
int pqpan_keccak_absorb(struct pqpan_keccak_ctx *ctx, const uint8_t *in, size_t len);
/* Pads (FIPS 202 §5.1 pad10*1 with the domain byte) and switches to squeezing; once
 * (PQPAN_ERR_STATE the second time). */
int pqpan_keccak_finalize(struct pqpan_keccak_ctx *ctx);
/* Squeezes len output bytes; calls may be split anywhere. Finalizes first if needed. */
int pqpan_keccak_squeeze(struct pqpan_keccak_ctx *ctx, uint8_t *out, size_t len);
/* Squeezes nblocks whole blocks of ctx->rate bytes (fast path when the previous output
 * ended on a block boundary, e.g. right after finalize). */
int pqpan_keccak_squeezeblocks(struct pqpan_keccak_ctx *ctx, uint8_t *out, size_t nblocks);

/* SHA3-256 (FIPS 202 §6.1). */
struct pqpan_sha3_256_ctx {
    struct pqpan_keccak_ctx sponge;
};
void pqpan_sha3_256_init(struct pqpan_sha3_256_ctx *ctx);
int pqpan_sha3_256_absorb(struct pqpan_sha3_256_ctx *ctx, const uint8_t *in, size_t len);
/* Writes the digest and wipes ctx (a second call: PQPAN_ERR_STATE, out zeroed). */
int pqpan_sha3_256_final(struct pqpan_sha3_256_ctx *ctx, uint8_t out[PQPAN_SHA3_256_BYTES]);
void pqpan_sha3_256(uint8_t out[PQPAN_SHA3_256_BYTES], const uint8_t *in, size_t len);

/* SHA3-512 (FIPS 202 §6.1). */
struct pqpan_sha3_512_ctx {
    struct pqpan_keccak_ctx sponge;
};
void pqpan_sha3_512_init(struct pqpan_sha3_512_ctx *ctx);
int pqpan_sha3_512_absorb(struct pqpan_sha3_512_ctx *ctx, const uint8_t *in, size_t len);
/* Writes the digest and wipes ctx (a second call: PQPAN_ERR_STATE, out zeroed). */
int pqpan_sha3_512_final(struct pqpan_sha3_512_ctx *ctx, uint8_t out[PQPAN_SHA3_512_BYTES]);
void pqpan_sha3_512(uint8_t out[PQPAN_SHA3_512_BYTES], const uint8_t *in, size_t len);

/* SHAKE128 (FIPS 202 §6.2): absorb, then finalize once, then squeeze any amount. */
struct pqpan_shake128_ctx {
    struct pqpan_keccak_ctx sponge;
};
void pqpan_shake128_init(struct pqpan_shake128_ctx *ctx);
int pqpan_shake128_absorb(struct pqpan_shake128_ctx *ctx, const uint8_t *in, size_t len);
int pqpan_shake128_finalize(struct pqpan_shake128_ctx *ctx);
int pqpan_shake128_squeeze(struct pqpan_shake128_ctx *ctx, uint8_t *out, size_t len);
/* nblocks * PQPAN_SHAKE128_RATE bytes. */
int pqpan_shake128_squeezeblocks(struct pqpan_shake128_ctx *ctx, uint8_t *out, size_t nblocks);
void pqpan_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

/* SHAKE256 (FIPS 202 §6.2). */
struct pqpan_shake256_ctx {
    struct pqpan_keccak_ctx sponge;
};
void pqpan_shake256_init(struct pqpan_shake256_ctx *ctx);
int pqpan_shake256_absorb(struct pqpan_shake256_ctx *ctx, const uint8_t *in, size_t len);
int pqpan_shake256_finalize(struct pqpan_shake256_ctx *ctx);
int pqpan_shake256_squeeze(struct pqpan_shake256_ctx *ctx, uint8_t *out, size_t len);
/* nblocks * PQPAN_SHAKE256_RATE bytes. */
int pqpan_shake256_squeezeblocks(struct pqpan_shake256_ctx *ctx, uint8_t *out, size_t nblocks);
void pqpan_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen);

#endif
