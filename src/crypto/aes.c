/* AES-128 encryption (FIPS 197) in constant time.
 *
 * The State is four 32-bit words, one per column (FIPS 197 §3.5), row r in bits 8r..8r+7.
 * Every step works on the four bytes of a word at once ("packed" bytes): GF(2^8)
 * multiplication is shift-and-add over the eight bits of the multiplier with masks instead
 * of branches, so neither time nor memory addresses depend on key or data. SubBytes is
 * computed as FIPS 197 §5.1.1 defines it: the multiplicative inverse (x^254, which maps
 * {00} to itself) followed by the affine transformation (5.1). */
#include "pqpan/aes.h"

#include "common/bytes.h"

#define LOW_BITS 0x01010101u /* bit 0 of each byte */
#define HIGH_BITS 0x80808080u

/* x · {02} on each byte: a left shift and, where bit 7 was set, XOR {1b} (FIPS 197 §4.2.1,
 * xtime). The reduction mask comes from multiplying the carried-out bit by {1b}. */
static uint32_t xtime4(uint32_t a)
{
    uint32_t carry = (a & HIGH_BITS) >> 7;
    return ((a & ~HIGH_BITS) << 1) ^ (carry * 0x1bu);
}

/* a · b on each byte in GF(2^8) (FIPS 197 §4.2): the sum of a · x^i over the set bits i
 * of b, each term kept or dropped by a mask. */
static uint32_t gmul4(uint32_t a, uint32_t b)
{
    uint32_t r = 0;
    unsigned i;
    for (i = 0; i < 8; i++) {
        uint32_t mask = ((b >> i) & LOW_BITS) * 0xffu;
        r ^= a & mask;
        a = xtime4(a);
    }
    return r;
}

/* x^254 = x^-1 on each byte ({00} stays {00}), by the addition chain
 * 2, 3, 6, 12, 15, 30, 60, 120, 240, 252, 254. */
static uint32_t inverse4(uint32_t x)
{
    uint32_t x2 = gmul4(x, x);
    uint32_t x3 = gmul4(x2, x);
    uint32_t x12 = gmul4(x3, x3);
    uint32_t x15, x240;
    x12 = gmul4(x12, x12);
    x15 = gmul4(x12, x3);
    x240 = gmul4(x15, x15);
    x240 = gmul4(x240, x240);
    x240 = gmul4(x240, x240);
    x240 = gmul4(x240, x240);
    return gmul4(gmul4(x240, x12), x2);
}

/* Each byte rotated left by k bits (1 <= k <= 7). */
static uint32_t rotl_bytes(uint32_t b, unsigned k)
{
    uint32_t keep = (0xffu >> k) * LOW_BITS; /* the bits that move up within their byte */
    return ((b & keep) << k) | ((b >> (8u - k)) & ~(keep * (1u << k)));
}

/* The affine transformation (FIPS 197 eq. 5.1): b'_i = b_i + b_{i+4} + b_{i+5} + b_{i+6}
 * + b_{i+7} + c_i with c = {63}; bit i of a left rotation by k is bit i-k, so the four
 * terms are rotations by 4, 3, 2 and 1. */
static uint32_t affine4(uint32_t b)
{
    return b ^ rotl_bytes(b, 1) ^ rotl_bytes(b, 2) ^ rotl_bytes(b, 3) ^ rotl_bytes(b, 4) ^
           (0x63u * LOW_BITS);
}

/* SubBytes on the four bytes of a word (FIPS 197 §5.1.1). */
static uint32_t sub_word(uint32_t w)
{
    return affine4(inverse4(w));
}

static uint32_t rotr32(uint32_t w, unsigned k)
{
    return (w >> k) | (w << (32u - k));
}

/* FIPS 197 §5.2 KeyExpansion with Nk = 4: w[i] = w[i-4] ^ SubWord(RotWord(w[i-1])) ^ Rcon
 * for i a multiple of 4, else w[i-4] ^ w[i-1]. RotWord moves byte 1 to byte 0, a right
 * rotation of the packed word; Rcon[i/4] = x^(i/4 - 1) sits in byte 0. */
void pqpan_aes128_init(struct pqpan_aes128 *ctx, const uint8_t key[PQPAN_AES128_KEY_BYTES])
{
    uint32_t rcon = 1;
    unsigned i;
    for (i = 0; i < 4; i++) {
        ctx->w[i] = pqpan_load32_le(key + 4 * i);
    }
    for (i = 4; i < PQPAN_AES128_SCHEDULE_WORDS; i++) {
        uint32_t t = ctx->w[i - 1];
        if (i % 4 == 0) {
            t = sub_word(rotr32(t, 8)) ^ rcon;
            rcon = xtime4(rcon);
        }
        ctx->w[i] = ctx->w[i - 4] ^ t;
    }
}

/* AddRoundKey (FIPS 197 §5.1.4) with round key `round`. */
static void add_round_key(uint32_t s[4], const struct pqpan_aes128 *ctx, unsigned round)
{
    unsigned c;
    for (c = 0; c < 4; c++) {
        s[c] ^= ctx->w[4 * round + c];
    }
}

/* SubBytes (§5.1.1), then ShiftRows (§5.1.2): row r of column c comes from column
 * c + r mod 4. */
static void sub_shift(uint32_t s[4])
{
    uint32_t t[4];
    unsigned c;
    for (c = 0; c < 4; c++) {
        t[c] = sub_word(s[c]);
    }
    for (c = 0; c < 4; c++) {
        s[c] = (t[c] & 0x000000ffu) | (t[(c + 1) % 4] & 0x0000ff00u) |
               (t[(c + 2) % 4] & 0x00ff0000u) | (t[(c + 3) % 4] & 0xff000000u);
    }
}

/* MixColumns (§5.1.3): s'_r = {02} s_r + {03} s_{r+1} + s_{r+2} + s_{r+3}. With
 * t = s + s_{r+1} (a right rotation by one byte brings s_{r+1} to row r) this is
 * {02} t + s_{r+1} + (t rotated by two rows). */
static void mix_columns(uint32_t s[4])
{
    unsigned c;
    for (c = 0; c < 4; c++) {
        uint32_t next = rotr32(s[c], 8);
        uint32_t t = s[c] ^ next;
        s[c] = xtime4(t) ^ next ^ rotr32(t, 16);
    }
}

/* FIPS 197 §5.1 Cipher, Figure 5. */
void pqpan_aes128_encrypt(const struct pqpan_aes128 *ctx, uint8_t out[PQPAN_AES_BLOCK_BYTES],
                          const uint8_t in[PQPAN_AES_BLOCK_BYTES])
{
    uint32_t s[4];
    unsigned c, round;
    for (c = 0; c < 4; c++) {
        s[c] = pqpan_load32_le(in + 4 * c);
    }
    add_round_key(s, ctx, 0);
    for (round = 1; round < PQPAN_AES128_ROUNDS; round++) {
        sub_shift(s);
        mix_columns(s);
        add_round_key(s, ctx, round);
    }
    sub_shift(s);
    add_round_key(s, ctx, PQPAN_AES128_ROUNDS);
    for (c = 0; c < 4; c++) {
        pqpan_store32_le(out + 4 * c, s[c]);
    }
}
