/* SHA-3 and SHAKE (FIPS 202): Keccak-f[1600] and an incremental sponge. */
#include "pqpan/sha3.h"

#include <string.h>

#include "pqpan/common.h"

#define ROL64(v, n) (((v) << (n)) | ((v) >> (64 - (n))))

/* RC[ir] for ir = 0..23 (FIPS 202 §3.2.5, Alg. 6), computed from rc(t) of Alg. 5. */
static const uint64_t round_constants[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL,
    0x8000000080008000ULL, 0x000000000000808bULL, 0x0000000080000001ULL,
    0x8000000080008081ULL, 0x8000000000008009ULL, 0x000000000000008aULL,
    0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL,
    0x8000000000008003ULL, 0x8000000000008002ULL, 0x8000000000000080ULL,
    0x000000000000800aULL, 0x800000008000000aULL, 0x8000000080008081ULL,
    0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

/* FIPS 202 §3.3 Alg. 7 with nr = 24, two rounds per loop pass (state a -> e -> a).
 * Each round is theta (§3.2.1), rho (§3.2.2, offsets of Table 2) and pi (§3.2.3) fused
 * into one pass per output row, then chi (§3.2.4) on that row and iota (§3.2.5). Lane
 * (x, y) of the state is variable number x + 5y. */
void pqpan_keccak_f1600(uint64_t lanes[25])
{
    uint64_t a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12;
    uint64_t a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23, a24;
    uint64_t e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12;
    uint64_t e13, e14, e15, e16, e17, e18, e19, e20, e21, e22, e23, e24;
    uint64_t b0, b1, b2, b3, b4, c0, c1, c2, c3, c4, d0, d1, d2, d3, d4;
    unsigned r;

    a0 = lanes[0]; a1 = lanes[1]; a2 = lanes[2]; a3 = lanes[3]; a4 = lanes[4];
    a5 = lanes[5]; a6 = lanes[6]; a7 = lanes[7]; a8 = lanes[8]; a9 = lanes[9];
    a10 = lanes[10]; a11 = lanes[11]; a12 = lanes[12]; a13 = lanes[13]; a14 = lanes[14];
    a15 = lanes[15]; a16 = lanes[16]; a17 = lanes[17]; a18 = lanes[18]; a19 = lanes[19];
    a20 = lanes[20]; a21 = lanes[21]; a22 = lanes[22]; a23 = lanes[23]; a24 = lanes[24];

    for (r = 0; r < 24; r += 2) {
        c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        d0 = c4 ^ ROL64(c1, 1);
        d1 = c0 ^ ROL64(c2, 1);
        d2 = c1 ^ ROL64(c3, 1);
        d3 = c2 ^ ROL64(c4, 1);
        d4 = c3 ^ ROL64(c0, 1);
        b0 = a0 ^ d0;
        b1 = ROL64(a6 ^ d1, 44);
        b2 = ROL64(a12 ^ d2, 43);
        b3 = ROL64(a18 ^ d3, 21);
        b4 = ROL64(a24 ^ d4, 14);
        e0 = b0 ^ (~b1 & b2);
        e1 = b1 ^ (~b2 & b3);
        e2 = b2 ^ (~b3 & b4);
        e3 = b3 ^ (~b4 & b0);
        e4 = b4 ^ (~b0 & b1);
        b0 = ROL64(a3 ^ d3, 28);
        b1 = ROL64(a9 ^ d4, 20);
        b2 = ROL64(a10 ^ d0, 3);
        b3 = ROL64(a16 ^ d1, 45);
        b4 = ROL64(a22 ^ d2, 61);
        e5 = b0 ^ (~b1 & b2);
        e6 = b1 ^ (~b2 & b3);
        e7 = b2 ^ (~b3 & b4);
        e8 = b3 ^ (~b4 & b0);
        e9 = b4 ^ (~b0 & b1);
        b0 = ROL64(a1 ^ d1, 1);
        b1 = ROL64(a7 ^ d2, 6);
        b2 = ROL64(a13 ^ d3, 25);
        b3 = ROL64(a19 ^ d4, 8);
        b4 = ROL64(a20 ^ d0, 18);
        e10 = b0 ^ (~b1 & b2);
        e11 = b1 ^ (~b2 & b3);
        e12 = b2 ^ (~b3 & b4);
        e13 = b3 ^ (~b4 & b0);
        e14 = b4 ^ (~b0 & b1);
        b0 = ROL64(a4 ^ d4, 27);
        b1 = ROL64(a5 ^ d0, 36);
        b2 = ROL64(a11 ^ d1, 10);
        b3 = ROL64(a17 ^ d2, 15);
        b4 = ROL64(a23 ^ d3, 56);
        e15 = b0 ^ (~b1 & b2);
        e16 = b1 ^ (~b2 & b3);
        e17 = b2 ^ (~b3 & b4);
        e18 = b3 ^ (~b4 & b0);
        e19 = b4 ^ (~b0 & b1);
        b0 = ROL64(a2 ^ d2, 62);
        b1 = ROL64(a8 ^ d3, 55);
        b2 = ROL64(a14 ^ d4, 39);
        b3 = ROL64(a15 ^ d0, 41);
        b4 = ROL64(a21 ^ d1, 2);
        e20 = b0 ^ (~b1 & b2);
        e21 = b1 ^ (~b2 & b3);
        e22 = b2 ^ (~b3 & b4);
        e23 = b3 ^ (~b4 & b0);
        e24 = b4 ^ (~b0 & b1);
        e0 ^= round_constants[r];
        c0 = e0 ^ e5 ^ e10 ^ e15 ^ e20;
        c1 = e1 ^ e6 ^ e11 ^ e16 ^ e21;
        c2 = e2 ^ e7 ^ e12 ^ e17 ^ e22;
        c3 = e3 ^ e8 ^ e13 ^ e18 ^ e23;
        c4 = e4 ^ e9 ^ e14 ^ e19 ^ e24;
        d0 = c4 ^ ROL64(c1, 1);
        d1 = c0 ^ ROL64(c2, 1);
        d2 = c1 ^ ROL64(c3, 1);
        d3 = c2 ^ ROL64(c4, 1);
        d4 = c3 ^ ROL64(c0, 1);
        b0 = e0 ^ d0;
        b1 = ROL64(e6 ^ d1, 44);
        b2 = ROL64(e12 ^ d2, 43);
        b3 = ROL64(e18 ^ d3, 21);
        b4 = ROL64(e24 ^ d4, 14);
        a0 = b0 ^ (~b1 & b2);
        a1 = b1 ^ (~b2 & b3);
        a2 = b2 ^ (~b3 & b4);
        a3 = b3 ^ (~b4 & b0);
        a4 = b4 ^ (~b0 & b1);
        b0 = ROL64(e3 ^ d3, 28);
        b1 = ROL64(e9 ^ d4, 20);
        b2 = ROL64(e10 ^ d0, 3);
        b3 = ROL64(e16 ^ d1, 45);
        b4 = ROL64(e22 ^ d2, 61);
        a5 = b0 ^ (~b1 & b2);
        a6 = b1 ^ (~b2 & b3);
        a7 = b2 ^ (~b3 & b4);
        a8 = b3 ^ (~b4 & b0);
        a9 = b4 ^ (~b0 & b1);
        b0 = ROL64(e1 ^ d1, 1);
        b1 = ROL64(e7 ^ d2, 6);
        b2 = ROL64(e13 ^ d3, 25);
        b3 = ROL64(e19 ^ d4, 8);
        b4 = ROL64(e20 ^ d0, 18);
        a10 = b0 ^ (~b1 & b2);
        a11 = b1 ^ (~b2 & b3);
        a12 = b2 ^ (~b3 & b4);
        a13 = b3 ^ (~b4 & b0);
        a14 = b4 ^ (~b0 & b1);
        b0 = ROL64(e4 ^ d4, 27);
        b1 = ROL64(e5 ^ d0, 36);
        b2 = ROL64(e11 ^ d1, 10);
        b3 = ROL64(e17 ^ d2, 15);
        b4 = ROL64(e23 ^ d3, 56);
        a15 = b0 ^ (~b1 & b2);
        a16 = b1 ^ (~b2 & b3);
        a17 = b2 ^ (~b3 & b4);
        a18 = b3 ^ (~b4 & b0);
        a19 = b4 ^ (~b0 & b1);
        b0 = ROL64(e2 ^ d2, 62);
        b1 = ROL64(e8 ^ d3, 55);
        b2 = ROL64(e14 ^ d4, 39);
        b3 = ROL64(e15 ^ d0, 41);
        b4 = ROL64(e21 ^ d1, 2);
        a20 = b0 ^ (~b1 & b2);
        a21 = b1 ^ (~b2 & b3);
        a22 = b2 ^ (~b3 & b4);
        a23 = b3 ^ (~b4 & b0);
        a24 = b4 ^ (~b0 & b1);
        a0 ^= round_constants[r + 1];
    }

    lanes[0] = a0; lanes[1] = a1; lanes[2] = a2; lanes[3] = a3; lanes[4] = a4;
    lanes[5] = a5; lanes[6] = a6; lanes[7] = a7; lanes[8] = a8; lanes[9] = a9;
    lanes[10] = a10; lanes[11] = a11; lanes[12] = a12; lanes[13] = a13; lanes[14] = a14;
    lanes[15] = a15; lanes[16] = a16; lanes[17] = a17; lanes[18] = a18; lanes[19] = a19;
    lanes[20] = a20; lanes[21] = a21; lanes[22] = a22; lanes[23] = a23; lanes[24] = a24;
}

static uint64_t load64_le(const uint8_t *p)
{
    return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
           (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 | (uint64_t)p[5] << 40 |
           (uint64_t)p[6] << 48 | (uint64_t)p[7] << 56;
}

static void store64_le(uint8_t *p, uint64_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
    p[4] = (uint8_t)(v >> 32);
    p[5] = (uint8_t)(v >> 40);
    p[6] = (uint8_t)(v >> 48);
    p[7] = (uint8_t)(v >> 56);
}

/* Byte i of the rate is byte i % 8 of lane i / 8 (FIPS 202 §3.1.2 and B.1 bit order). */
static void xor_byte(uint64_t lanes[25], unsigned pos, uint8_t b)
{
    lanes[pos / 8] ^= (uint64_t)b << (8 * (pos % 8));
}

static uint8_t get_byte(const uint64_t lanes[25], unsigned pos)
{
    return (uint8_t)(lanes[pos / 8] >> (8 * (pos % 8)));
}

static void sponge_init(struct pqpan_keccak_ctx *ctx, unsigned rate, uint8_t dsbyte)
{
    memset(ctx, 0, sizeof *ctx);
    ctx->rate = rate;
    ctx->dsbyte = dsbyte;
}

int pqpan_keccak_init(struct pqpan_keccak_ctx *ctx, size_t rate_bytes, uint8_t dsbyte)
{
    if (ctx == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if (rate_bytes == 0 || rate_bytes >= PQPAN_KECCAK_STATE_BYTES || rate_bytes % 8 != 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    sponge_init(ctx, (unsigned)rate_bytes, dsbyte);
    return PQPAN_OK;
}

/* The sponge construction of FIPS 202 §4 (Alg. 8), absorbing phase, made incremental. */
void pqpan_keccak_absorb(struct pqpan_keccak_ctx *ctx, const uint8_t *in, size_t len)
{
    unsigned pos = ctx->pos;
    const unsigned rate = ctx->rate;
    if (ctx->squeezing) {
        return;
    }
    while (len > 0) {
        if (pos == 0 && len >= rate) {
            unsigned i;
            for (i = 0; i < rate / 8; i++) {
                ctx->lanes[i] ^= load64_le(in + 8 * i);
            }
            pqpan_keccak_f1600(ctx->lanes);
            in += rate;
            len -= rate;
            continue;
        }
        xor_byte(ctx->lanes, pos, *in);
        in++;
        len--;
        pos++;
        if (pos == rate) {
            pqpan_keccak_f1600(ctx->lanes);
            pos = 0;
        }
    }
    ctx->pos = pos;
}

/* pad10*1 (FIPS 202 §5.1) after the domain suffix: dsbyte carries the suffix bits and the
 * first 1 of the padding; the final 1 is the top bit of the last rate byte. */
void pqpan_keccak_finalize(struct pqpan_keccak_ctx *ctx)
{
    if (ctx->squeezing) {
        return;
    }
    xor_byte(ctx->lanes, ctx->pos, ctx->dsbyte);
    xor_byte(ctx->lanes, ctx->rate - 1, 0x80);
    ctx->squeezing = 1;
    ctx->pos = ctx->rate;
}

/* FIPS 202 §4 (Alg. 8), squeezing phase, made incremental. */
void pqpan_keccak_squeeze(struct pqpan_keccak_ctx *ctx, uint8_t *out, size_t len)
{
    unsigned pos;
    const unsigned rate = ctx->rate;
    pqpan_keccak_finalize(ctx);
    pos = ctx->pos;
    while (len > 0) {
        if (pos == rate) {
            pqpan_keccak_f1600(ctx->lanes);
            pos = 0;
        }
        if (pos == 0 && len >= rate) {
            unsigned i;
            for (i = 0; i < rate / 8; i++) {
                store64_le(out + 8 * i, ctx->lanes[i]);
            }
            out += rate;
            len -= rate;
            pos = rate;
            continue;
        }
        *out++ = get_byte(ctx->lanes, pos);
        pos++;
        len--;
    }
    ctx->pos = pos;
}

void pqpan_keccak_squeezeblocks(struct pqpan_keccak_ctx *ctx, uint8_t *out, size_t nblocks)
{
    pqpan_keccak_squeeze(ctx, out, nblocks * ctx->rate);
}

/* FIPS 202 §6.1: SHA3-256(M) = KECCAK[512](M || 01, 256). */
void pqpan_sha3_256_init(struct pqpan_sha3_256_ctx *ctx)
{
    sponge_init(&ctx->sponge, PQPAN_SHA3_256_RATE, PQPAN_KECCAK_DS_SHA3);
}

void pqpan_sha3_256_absorb(struct pqpan_sha3_256_ctx *ctx, const uint8_t *in, size_t len)
{
    pqpan_keccak_absorb(&ctx->sponge, in, len);
}

void pqpan_sha3_256_final(struct pqpan_sha3_256_ctx *ctx, uint8_t out[PQPAN_SHA3_256_BYTES])
{
    pqpan_keccak_squeeze(&ctx->sponge, out, PQPAN_SHA3_256_BYTES);
    pqpan_wipe(ctx, sizeof *ctx);
}

void pqpan_sha3_256(uint8_t out[PQPAN_SHA3_256_BYTES], const uint8_t *in, size_t len)
{
    struct pqpan_sha3_256_ctx ctx;
    pqpan_sha3_256_init(&ctx);
    pqpan_sha3_256_absorb(&ctx, in, len);
    pqpan_sha3_256_final(&ctx, out);
}

/* FIPS 202 §6.1: SHA3-512(M) = KECCAK[1024](M || 01, 512). */
void pqpan_sha3_512_init(struct pqpan_sha3_512_ctx *ctx)
{
    sponge_init(&ctx->sponge, PQPAN_SHA3_512_RATE, PQPAN_KECCAK_DS_SHA3);
}

void pqpan_sha3_512_absorb(struct pqpan_sha3_512_ctx *ctx, const uint8_t *in, size_t len)
{
    pqpan_keccak_absorb(&ctx->sponge, in, len);
}

void pqpan_sha3_512_final(struct pqpan_sha3_512_ctx *ctx, uint8_t out[PQPAN_SHA3_512_BYTES])
{
    pqpan_keccak_squeeze(&ctx->sponge, out, PQPAN_SHA3_512_BYTES);
    pqpan_wipe(ctx, sizeof *ctx);
}

void pqpan_sha3_512(uint8_t out[PQPAN_SHA3_512_BYTES], const uint8_t *in, size_t len)
{
    struct pqpan_sha3_512_ctx ctx;
    pqpan_sha3_512_init(&ctx);
    pqpan_sha3_512_absorb(&ctx, in, len);
    pqpan_sha3_512_final(&ctx, out);
}

/* FIPS 202 §6.2: SHAKE128(M, d) = KECCAK[256](M || 1111, d). */
void pqpan_shake128_init(struct pqpan_shake128_ctx *ctx)
{
    sponge_init(&ctx->sponge, PQPAN_SHAKE128_RATE, PQPAN_KECCAK_DS_SHAKE);
}

void pqpan_shake128_absorb(struct pqpan_shake128_ctx *ctx, const uint8_t *in, size_t len)
{
    pqpan_keccak_absorb(&ctx->sponge, in, len);
}

void pqpan_shake128_finalize(struct pqpan_shake128_ctx *ctx)
{
    pqpan_keccak_finalize(&ctx->sponge);
}

void pqpan_shake128_squeeze(struct pqpan_shake128_ctx *ctx, uint8_t *out, size_t len)
{
    pqpan_keccak_squeeze(&ctx->sponge, out, len);
}

void pqpan_shake128_squeezeblocks(struct pqpan_shake128_ctx *ctx, uint8_t *out, size_t nblocks)
{
    pqpan_keccak_squeezeblocks(&ctx->sponge, out, nblocks);
}

void pqpan_shake128(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    struct pqpan_shake128_ctx ctx;
    pqpan_shake128_init(&ctx);
    pqpan_shake128_absorb(&ctx, in, inlen);
    pqpan_shake128_squeeze(&ctx, out, outlen);
    pqpan_wipe(&ctx, sizeof ctx);
}

/* FIPS 202 §6.2: SHAKE256(M, d) = KECCAK[512](M || 1111, d). */
void pqpan_shake256_init(struct pqpan_shake256_ctx *ctx)
{
    sponge_init(&ctx->sponge, PQPAN_SHAKE256_RATE, PQPAN_KECCAK_DS_SHAKE);
}

void pqpan_shake256_absorb(struct pqpan_shake256_ctx *ctx, const uint8_t *in, size_t len)
{
    pqpan_keccak_absorb(&ctx->sponge, in, len);
}

void pqpan_shake256_finalize(struct pqpan_shake256_ctx *ctx)
{
    pqpan_keccak_finalize(&ctx->sponge);
}

void pqpan_shake256_squeeze(struct pqpan_shake256_ctx *ctx, uint8_t *out, size_t len)
{
    pqpan_keccak_squeeze(&ctx->sponge, out, len);
}

void pqpan_shake256_squeezeblocks(struct pqpan_shake256_ctx *ctx, uint8_t *out, size_t nblocks)
{
    pqpan_keccak_squeezeblocks(&ctx->sponge, out, nblocks);
}

void pqpan_shake256(uint8_t *out, size_t outlen, const uint8_t *in, size_t inlen)
{
    struct pqpan_shake256_ctx ctx;
    pqpan_shake256_init(&ctx);
    pqpan_shake256_absorb(&ctx, in, inlen);
    pqpan_shake256_squeeze(&ctx, out, outlen);
    pqpan_wipe(&ctx, sizeof ctx);
}
