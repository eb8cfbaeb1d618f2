/* AES-CMAC (NIST SP 800-38B) with a 128-bit key and Tlen = 128. */
#include <string.h>

#include "pqpan/aes.h"
#include "pqpan/common.h"

#define BLOCK PQPAN_AES_BLOCK_BYTES
/* R_128 = 0^120 || 10000111 (SP 800-38B §5.3): the last byte of the constant. */
#define RB 0x87u

/* The subkey derivation step (SP 800-38B §6.1 steps 2 and 3): X << 1, XOR R_b when the
 * bit shifted out (MSB_1(X)) is 1; the XOR is masked, not branched on (X is secret). */
static void double_block(uint8_t out[BLOCK], const uint8_t in[BLOCK])
{
    unsigned msb_mask = 0u - ((unsigned)in[0] >> 7);
    unsigned i;
    for (i = 0; i + 1 < BLOCK; i++) {
        out[i] = (uint8_t)(((unsigned)in[i] << 1) | ((unsigned)in[i + 1] >> 7));
    }
    out[BLOCK - 1] = (uint8_t)(((unsigned)in[BLOCK - 1] << 1) ^ (msb_mask & RB));
}

static void xor_block(uint8_t *x, const uint8_t *y, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        x[i] = (uint8_t)(x[i] ^ y[i]);
    }
}

/* SP 800-38B §6.2 MAC generation: n = ceil(len / 128 bits), at least 1; the last block is
 * XORed with K1 if complete, else padded with 10^j and XORed with K2; then CBC with
 * C_0 = 0^128, T = C_n. */
void pqpan_aes_cmac(uint8_t tag[PQPAN_AES_CMAC_BYTES], const uint8_t key[PQPAN_AES128_KEY_BYTES],
                    const uint8_t *msg, size_t len)
{
    struct pqpan_aes128 ctx;
    uint8_t k1[BLOCK], k2[BLOCK], last[BLOCK], c[BLOCK];
    size_t n = len == 0 ? 1 : (len + BLOCK - 1) / BLOCK;
    size_t tail = len - (n - 1) * BLOCK; /* octets of M_n*: 0 .. 16 */
    size_t i;

    pqpan_aes128_init(&ctx, key);
    memset(c, 0, sizeof c);
    pqpan_aes128_encrypt(&ctx, k1, c); /* L = CIPH_K(0^128) */
    double_block(k1, k1);
    double_block(k2, k1);

    memset(last, 0, sizeof last);
    if (tail > 0) {
        memcpy(last, msg + (n - 1) * BLOCK, tail);
    }
    if (tail == BLOCK) {
        xor_block(last, k1, BLOCK);
    } else {
        last[tail] = 0x80;
        xor_block(last, k2, BLOCK);
    }
    for (i = 0; i + 1 < n; i++) {
        xor_block(c, msg + i * BLOCK, BLOCK);
        pqpan_aes128_encrypt(&ctx, c, c);
    }
    xor_block(c, last, BLOCK);
    pqpan_aes128_encrypt(&ctx, tag, c);

    pqpan_wipe(&ctx, sizeof ctx);
    pqpan_wipe(k1, sizeof k1);
    pqpan_wipe(k2, sizeof k2);
    pqpan_wipe(last, sizeof last);
    pqpan_wipe(c, sizeof c);
}
