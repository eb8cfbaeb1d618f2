/* SHA-256 (FIPS 180-4 §6.2) and HMAC-SHA-256 (FIPS 198-1 §4, RFC 2104 §2). */
#include <string.h>

#include "common/bytes.h"
#include "pqpan/common.h"
#include "pqpan/sha256.h"

#define BLOCK PQPAN_SHA256_BLOCK_BYTES
#define ROUNDS 64        /* FIPS 180-4 §6.2.2: t = 0 .. 63 */
#define LENGTH_BYTES 8   /* FIPS 180-4 §5.1.1: the 64-bit message length l */
#define IPAD 0x36u       /* FIPS 198-1 §3 / RFC 2104 §2 */
#define OPAD 0x5cu

/* FIPS 180-4 §4.2.2: the first 32 bits of the fractional parts of the cube roots of the
 * first sixty-four primes. */
static const uint32_t round_k[ROUNDS] = {
    0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u,
    0xab1c5ed5u, 0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu,
    0x9bdc06a7u, 0xc19bf174u, 0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu,
    0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau, 0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u,
    0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u, 0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu,
    0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u, 0xa2bfe8a1u, 0xa81a664bu,
    0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u, 0x19a4c116u,
    0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
    0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u,
    0xc67178f2u};

/* FIPS 180-4 §5.3.3: the first 32 bits of the fractional parts of the square roots of the
 * first eight primes. */
static const uint32_t initial_h[PQPAN_SHA256_STATE_WORDS] = {
    0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au,
    0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};

static uint32_t rotr(uint32_t x, unsigned n)
{
    return (x >> n) | (x << (32u - n));
}

/* FIPS 180-4 §4.1.2, functions (4.2) to (4.7). */
static uint32_t ch(uint32_t x, uint32_t y, uint32_t z)
{
    return (x & y) ^ (~x & z);
}

static uint32_t maj(uint32_t x, uint32_t y, uint32_t z)
{
    return (x & y) ^ (x & z) ^ (y & z);
}

static uint32_t big_sigma0(uint32_t x)
{
    return rotr(x, 2) ^ rotr(x, 13) ^ rotr(x, 22);
}

static uint32_t big_sigma1(uint32_t x)
{
    return rotr(x, 6) ^ rotr(x, 11) ^ rotr(x, 25);
}

static uint32_t small_sigma0(uint32_t x)
{
    return rotr(x, 7) ^ rotr(x, 18) ^ (x >> 3);
}

static uint32_t small_sigma1(uint32_t x)
{
    return rotr(x, 17) ^ rotr(x, 19) ^ (x >> 10);
}

/* FIPS 180-4 §6.2.2 steps 1-4 on one message block. */
static void compress(uint32_t h[PQPAN_SHA256_STATE_WORDS], const uint8_t block[BLOCK])
{
    uint32_t w[ROUNDS], v[PQPAN_SHA256_STATE_WORDS];
    unsigned t;

    for (t = 0; t < 16; t++) {
        w[t] = pqpan_load32_be(block + 4 * t);
    }
    for (t = 16; t < ROUNDS; t++) {
        w[t] = small_sigma1(w[t - 2]) + w[t - 7] + small_sigma0(w[t - 15]) + w[t - 16];
    }
    memcpy(v, h, sizeof v);
    for (t = 0; t < ROUNDS; t++) {
        uint32_t t1 = v[7] + big_sigma1(v[4]) + ch(v[4], v[5], v[6]) + round_k[t] + w[t];
        uint32_t t2 = big_sigma0(v[0]) + maj(v[0], v[1], v[2]);
        memmove(v + 1, v, 7 * sizeof v[0]); /* h = g, g = f, ..., b = a */
        v[4] += t1;                         /* e = d + T1 */
        v[0] = t1 + t2;
    }
    for (t = 0; t < PQPAN_SHA256_STATE_WORDS; t++) {
        h[t] += v[t];
    }
    pqpan_wipe(w, sizeof w);
    pqpan_wipe(v, sizeof v);
}

void pqpan_sha256_init(struct pqpan_sha256 *ctx)
{
    memcpy(ctx->h, initial_h, sizeof ctx->h);
    memset(ctx->block, 0, sizeof ctx->block);
    ctx->total = 0;
}

void pqpan_sha256_update(struct pqpan_sha256 *ctx, const uint8_t *msg, size_t len)
{
    while (len > 0) {
        size_t fill = (size_t)(ctx->total % BLOCK);
        size_t take = BLOCK - fill < len ? BLOCK - fill : len;
        memcpy(ctx->block + fill, msg, take);
        ctx->total += take;
        msg += take;
        len -= take;
        if (fill + take == BLOCK) {
            compress(ctx->h, ctx->block);
        }
    }
}

/* FIPS 180-4 §5.1.1: append bit 1, k zero bits to 448 mod 512, then l as 64 bits. */
void pqpan_sha256_final(struct pqpan_sha256 *ctx, uint8_t out[PQPAN_SHA256_BYTES])
{
    uint64_t bits = ctx->total * 8u;
    size_t fill = (size_t)(ctx->total % BLOCK);
    unsigned i;

    ctx->block[fill++] = 0x80;
    if (fill > BLOCK - LENGTH_BYTES) {
        memset(ctx->block + fill, 0, BLOCK - fill);
        compress(ctx->h, ctx->block);
        fill = 0;
    }
    memset(ctx->block + fill, 0, BLOCK - LENGTH_BYTES - fill);
    pqpan_store32_be(ctx->block + BLOCK - 8, (uint32_t)(bits >> 32));
    pqpan_store32_be(ctx->block + BLOCK - 4, (uint32_t)bits);
    compress(ctx->h, ctx->block);
    for (i = 0; i < PQPAN_SHA256_STATE_WORDS; i++) {
        pqpan_store32_be(out + 4 * i, ctx->h[i]); /* §6.2.2: H_0 || ... || H_7 */
    }
    pqpan_wipe(ctx, sizeof *ctx);
}

void pqpan_sha256(uint8_t out[PQPAN_SHA256_BYTES], const uint8_t *msg, size_t len)
{
    struct pqpan_sha256 ctx;
    pqpan_sha256_init(&ctx);
    pqpan_sha256_update(&ctx, msg, len);
    pqpan_sha256_final(&ctx, out);
}

/* FIPS 198-1 §4 steps 1-3: K0 is the key padded with zeros to B octets, or H(K) padded
 * when the key is longer than B. */
static void make_k0(uint8_t k0[BLOCK], const uint8_t *key, size_t key_len)
{
    memset(k0, 0, BLOCK);
    if (key_len > BLOCK) {
        pqpan_sha256(k0, key, key_len);
    } else if (key_len > 0) {
        memcpy(k0, key, key_len);
    }
}

/* H(K0 XOR pad || ...): start a hash with the padded key absorbed. */
static void start_padded(struct pqpan_sha256 *ctx, const uint8_t k0[BLOCK], uint8_t pad)
{
    uint8_t x[BLOCK];
    unsigned i;
    for (i = 0; i < BLOCK; i++) {
        x[i] = (uint8_t)(k0[i] ^ pad);
    }
    pqpan_sha256_init(ctx);
    pqpan_sha256_update(ctx, x, BLOCK);
    pqpan_wipe(x, sizeof x);
}

void pqpan_hmac_sha256_init(struct pqpan_hmac_sha256 *ctx, const uint8_t *key, size_t key_len)
{
    uint8_t k0[BLOCK];
    make_k0(k0, key, key_len);
    start_padded(&ctx->inner, k0, IPAD);
    start_padded(&ctx->outer, k0, OPAD);
    pqpan_wipe(k0, sizeof k0);
}

void pqpan_hmac_sha256_update(struct pqpan_hmac_sha256 *ctx, const uint8_t *msg, size_t len)
{
    pqpan_sha256_update(&ctx->inner, msg, len);
}

/* FIPS 198-1 §4 steps 5-9: H((K0 ^ opad) || H((K0 ^ ipad) || text)). */
void pqpan_hmac_sha256_final(struct pqpan_hmac_sha256 *ctx, uint8_t mac[PQPAN_SHA256_BYTES])
{
    uint8_t inner[PQPAN_SHA256_BYTES];
    pqpan_sha256_final(&ctx->inner, inner);
    pqpan_sha256_update(&ctx->outer, inner, sizeof inner);
    pqpan_sha256_final(&ctx->outer, mac);
    pqpan_wipe(inner, sizeof inner);
    pqpan_wipe(ctx, sizeof *ctx);
}

void pqpan_hmac_sha256(uint8_t mac[PQPAN_SHA256_BYTES], const uint8_t *key, size_t key_len,
                       const uint8_t *msg, size_t len)
{
    struct pqpan_hmac_sha256 ctx;
    pqpan_hmac_sha256_init(&ctx, key, key_len);
    pqpan_hmac_sha256_update(&ctx, msg, len);
    pqpan_hmac_sha256_final(&ctx, mac);
}
