/* cSHAKE256 and KMAC256 (NIST SP 800-185) on the Keccak sponge of sha3.c. */
#include "pqpan/kmac.h"

#include <string.h>

#include "pqpan/common.h"

/* left_encode / right_encode of a 64-bit value: at most 8 value bytes + 1 length byte. */
#define ENCODE_MAX_BYTES 9

/* The sponge of a cSHAKE / KMAC context, NULL for NULL: the sponge is the struct's first
 * member (C11 §6.7.2.1 ¶15), so no dereference is needed to reach it. */
#define AS_SPONGE(ctx) ((struct pqpan_keccak_ctx *)(void *)(ctx))

/* "KMAC" as the cSHAKE function name N (SP 800-185 §4.3.1). */
static const uint8_t kmac_name[4] = {0x4B, 0x4D, 0x41, 0x43};

static size_t value_byte_count(uint64_t x)
{
    size_t n = 1;
    while (n < 8 && (x >> (8 * n)) != 0) {
        n++;
    }
    return n;
}

/* left_encode(x) (SP 800-185 §2.3.1): n, then x as n big-endian bytes. */
static size_t left_encode(uint8_t out[ENCODE_MAX_BYTES], uint64_t x)
{
    size_t n = value_byte_count(x);
    size_t i;
    out[0] = (uint8_t)n;
    for (i = 0; i < n; i++) {
        out[1 + i] = (uint8_t)(x >> (8 * (n - 1 - i)));
    }
    return n + 1;
}

/* right_encode(x) (SP 800-185 §2.3.1): x as n big-endian bytes, then n. */
static size_t right_encode(uint8_t out[ENCODE_MAX_BYTES], uint64_t x)
{
    size_t n = value_byte_count(x);
    size_t i;
    for (i = 0; i < n; i++) {
        out[i] = (uint8_t)(x >> (8 * (n - 1 - i)));
    }
    out[n] = (uint8_t)n;
    return n + 1;
}

/* 1 if the bit length 8 * len fits in 64 bits, i.e. len < 2^61. Two shifts, each narrower
 * than any size_t, so the test is well defined (and always true) for a 32-bit size_t. */
static int string_len_ok(size_t len)
{
    return (len >> 30 >> 31) == 0;
}

/* Absorbs encode_string(S) = left_encode(len(S) in bits) || S (SP 800-185 §2.3.2) and
 * returns the number of bytes absorbed. */
static size_t absorb_encoded_string(struct pqpan_keccak_ctx *sponge, const uint8_t *s,
                                    size_t len)
{
    uint8_t enc[ENCODE_MAX_BYTES];
    size_t n = left_encode(enc, (uint64_t)len * 8u);
    pqpan_keccak_absorb(sponge, enc, n);
    pqpan_keccak_absorb(sponge, s, len);
    return n + len;
}

/* Absorbs left_encode(w), the start of bytepad(X, w) (SP 800-185 §2.3.3). */
static size_t absorb_bytepad_start(struct pqpan_keccak_ctx *sponge)
{
    uint8_t enc[ENCODE_MAX_BYTES];
    size_t n = left_encode(enc, PQPAN_KMAC256_RATE);
    pqpan_keccak_absorb(sponge, enc, n);
    return n;
}

/* Absorbs the zeros that end bytepad(X, w) once `used` bytes of it were absorbed. */
static void absorb_bytepad_end(struct pqpan_keccak_ctx *sponge, size_t used)
{
    static const uint8_t zeros[PQPAN_KMAC256_RATE] = {0};
    size_t rem = used % PQPAN_KMAC256_RATE;
    if (rem != 0) {
        pqpan_keccak_absorb(sponge, zeros, PQPAN_KMAC256_RATE - rem);
    }
}

/* SP 800-185 §3.3: KECCAK[512](bytepad(encode_string(N) || encode_string(S), 136) || X
 * || 00, L), or SHAKE256(X, L) when N and S are both empty. */
int pqpan_cshake256_init(struct pqpan_cshake256_ctx *ctx, const uint8_t *name, size_t name_len,
                         const uint8_t *custom, size_t custom_len)
{
    size_t used;
    int rc;
    if (ctx == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if ((name == 0 && name_len != 0) || (custom == 0 && custom_len != 0) ||
        !string_len_ok(name_len) || !string_len_ok(custom_len)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (name_len == 0 && custom_len == 0) {
        return pqpan_keccak_init(&ctx->sponge, PQPAN_SHAKE256_RATE, PQPAN_KECCAK_DS_SHAKE);
    }
    rc = pqpan_keccak_init(&ctx->sponge, PQPAN_KMAC256_RATE, PQPAN_KECCAK_DS_CSHAKE);
    if (rc != PQPAN_OK) {
        return rc;
    }
    used = absorb_bytepad_start(&ctx->sponge);
    used += absorb_encoded_string(&ctx->sponge, name, name_len);
    used += absorb_encoded_string(&ctx->sponge, custom, custom_len);
    absorb_bytepad_end(&ctx->sponge, used);
    return PQPAN_OK;
}

int pqpan_cshake256_absorb(struct pqpan_cshake256_ctx *ctx, const uint8_t *in, size_t len)
{
    return pqpan_keccak_absorb(AS_SPONGE(ctx), in, len);
}

int pqpan_cshake256_squeeze(struct pqpan_cshake256_ctx *ctx, uint8_t *out, size_t len)
{
    return pqpan_keccak_squeeze(AS_SPONGE(ctx), out, len);
}

/* SP 800-185 §4.3.1: newX = bytepad(encode_string(K), 136) || X || right_encode(L);
 * KMAC256 = cSHAKE256(newX, L, "KMAC", S). This absorbs the bytepad(...) prefix. */
int pqpan_kmac256_init(struct pqpan_kmac256_ctx *ctx, const uint8_t *key, size_t key_len,
                       const uint8_t *custom, size_t custom_len)
{
    struct pqpan_cshake256_ctx cs;
    size_t used;
    int rc;
    if (ctx == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if ((key == 0 && key_len != 0) || !string_len_ok(key_len)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_cshake256_init(&cs, kmac_name, sizeof kmac_name, custom, custom_len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    used = absorb_bytepad_start(&cs.sponge);
    used += absorb_encoded_string(&cs.sponge, key, key_len);
    absorb_bytepad_end(&cs.sponge, used);
    ctx->sponge = cs.sponge;
    pqpan_wipe(&cs, sizeof cs);
    return PQPAN_OK;
}

int pqpan_kmac256_absorb(struct pqpan_kmac256_ctx *ctx, const uint8_t *in, size_t len)
{
    return pqpan_keccak_absorb(AS_SPONGE(ctx), in, len);
}

/* SP 800-185 §4.3.1: absorb right_encode(L), then squeeze L bits. */
int pqpan_kmac256_final(struct pqpan_kmac256_ctx *ctx, uint8_t *out, size_t out_len)
{
    uint8_t enc[ENCODE_MAX_BYTES];
    size_t n;
    int rc;
    if (ctx == 0 || (out == 0 && out_len != 0) || !string_len_ok(out_len)) {
        if (ctx != 0) {
            pqpan_wipe(ctx, sizeof *ctx);
        }
        if (out != 0) {
            pqpan_wipe(out, out_len);
        }
        return PQPAN_ERR_INVALID_ARG;
    }
    n = right_encode(enc, (uint64_t)out_len * 8u);
    rc = pqpan_keccak_absorb(&ctx->sponge, enc, n);
    if (rc != PQPAN_OK) {
        if (out != 0) {
            pqpan_wipe(out, out_len);
        }
        return rc; /* a context already final (wiped) or never set up: left as it is */
    }
    (void)pqpan_keccak_squeeze(&ctx->sponge, out, out_len);
    pqpan_wipe(ctx, sizeof *ctx);
    return PQPAN_OK;
}

int pqpan_kmac256(uint8_t *out, size_t out_len, const uint8_t *key, size_t key_len,
                  const uint8_t *in, size_t in_len, const uint8_t *custom, size_t custom_len)
{
    struct pqpan_kmac256_ctx ctx;
    int rc = pqpan_kmac256_init(&ctx, key, key_len, custom, custom_len);
    if (rc != PQPAN_OK || (in == 0 && in_len != 0)) {
        pqpan_wipe(&ctx, sizeof ctx);
        if (out != 0) {
            pqpan_wipe(out, out_len);
        }
        return rc != PQPAN_OK ? rc : PQPAN_ERR_INVALID_ARG;
    }
    pqpan_kmac256_absorb(&ctx, in, in_len);
    return pqpan_kmac256_final(&ctx, out, out_len);
}
