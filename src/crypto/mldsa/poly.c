/* Polynomial operations shared by ML-DSA key generation, signing and verification. */
#include <string.h>

#include "common/compiler.h"
#include "crypto/mldsa/mldsa.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/packing.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/common.h"

void pqpan_mldsa_hash_mu(uint8_t mu[PQPAN_MLDSA_CRHBYTES], const uint8_t tr[PQPAN_MLDSA_TRBYTES],
                         const struct mldsa_msg *m)
{
    struct pqpan_shake256_ctx h;
    pqpan_shake256_init(&h);
    pqpan_shake256_absorb(&h, tr, PQPAN_MLDSA_TRBYTES);
    pqpan_shake256_absorb(&h, m->prefix, m->prefix_len);
    if (m->ctx_len > 0) {
        pqpan_shake256_absorb(&h, m->ctx, m->ctx_len);
    }
    if (m->msg_len > 0) {
        pqpan_shake256_absorb(&h, m->msg, m->msg_len);
    }
    pqpan_shake256_squeeze(&h, mu, PQPAN_MLDSA_CRHBYTES);
    pqpan_wipe(&h, sizeof h);
}

void pqpan_mldsa_ntt_unpacked(int32_t a[PQPAN_MLDSA_N], const uint8_t *in, unsigned bits,
                              int32_t offset)
{
    pqpan_mldsa_unpack(a, in, PQPAN_MLDSA_N, bits, offset, 1);
    pqpan_mldsa_ntt(a);
}

void pqpan_mldsa_matrix_row(uint8_t acc[PQPAN_MLDSA_ACC_BYTES], int32_t tmp[PQPAN_MLDSA_N],
                            const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned row, unsigned l,
                            const uint8_t *v, size_t stride, unsigned bits, int32_t offset)
{
    unsigned j;
    memset(acc, 0, PQPAN_MLDSA_ACC_BYTES);
    for (j = 0; j < l; j++) {
        pqpan_mldsa_ntt_unpacked(tmp, v + j * stride, bits, offset);
        pqpan_mldsa_matacc(acc, rho, j, row, tmp);
    }
}

/* From the last coefficient down, so that acc may lie at the start of a: writing a_n
 * (bytes 4n..4n+3) leaves the entries still to be read, acc_m for m < n (bytes below
 * 3n <= 4n), untouched. */
void pqpan_mldsa_acc_to_poly(int32_t a[PQPAN_MLDSA_N], const uint8_t acc[PQPAN_MLDSA_ACC_BYTES])
{
    unsigned n = PQPAN_MLDSA_N;
    while (n-- > 0) {
        a[n] = mldsa_acc_get(acc, n);
    }
}

/* The NTT of a row operand is computed a quarter at a time (64 coefficients). */
#define PART (PQPAN_MLDSA_N / 4)

/* Quarter q of NTT(v), v_i = offset - (the i-th bits-bit value at in): the coefficients
 * [64 q, 64 q + 64) of the NTT (Alg. 41), in a[0..64). The first two layers (len = 128,
 * 64) are computed per output coefficient from the four values they combine, unpacked 8
 * at a time: after them, coefficient 64 q + j depends on v_j, v_{j+64}, v_{j+128},
 * v_{j+192} only, and the layers below touch one quarter (pqpan_mldsa_ntt_layers). */
static PQPAN_NOINLINE void ntt_quarter(int32_t a[PART], const uint8_t *in, unsigned bits,
                                       int32_t offset, unsigned q)
{
    const int32_t zeta1 = pqpan_mldsa_ntt_zeta(1), zeta2 = pqpan_mldsa_ntt_zeta(2 + q / 2);
    const unsigned upper = q / 2, odd = q % 2; /* layer 1: v_j -/+ t; layer 2: x -/+ t */
    int32_t v[4][8];                           /* v_{j+c}, v_{j+64+c}, ... for c < 8 */
    unsigned j, c, m;
    for (j = 0; j < PART; j += 8) {
        for (m = 0; m < 4; m++) {
            pqpan_mldsa_unpack(v[m], in + (j + m * PART) * bits / 8, 8, bits, offset, 1);
        }
        for (c = 0; c < 8; c++) {
            int32_t t = mldsa_mont_mul(zeta1, v[2][c]);
            const int32_t x = upper ? v[0][c] - t : v[0][c] + t; /* j (+128) after len = 128 */
            t = mldsa_mont_mul(zeta1, v[3][c]);
            t = mldsa_mont_mul(zeta2, upper ? v[1][c] - t : v[1][c] + t); /* j + 64 (+128) */
            a[j + c] = odd ? x - t : x + t;                               /* the len = 64 layer */
        }
    }
    pqpan_wipe(v, sizeof v);
    pqpan_mldsa_ntt_layers(a, PART, q * PART);
}

void pqpan_mldsa_matrix_row_parts(uint8_t acc[PQPAN_MLDSA_ACC_BYTES],
                                  const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned row,
                                  unsigned l, const uint8_t *v, size_t stride, unsigned bits,
                                  int32_t offset)
{
    struct mldsa_entry_stream e;
    int32_t a[PART];
    unsigned j, q;
    memset(acc, 0, PQPAN_MLDSA_ACC_BYTES);
    for (j = 0; j < l; j++) {
        pqpan_mldsa_entry_start(&e, rho, j, row);
        for (q = 0; q < PQPAN_MLDSA_N / PART; q++) {
            ntt_quarter(a, v + j * stride, bits, offset, q);
            pqpan_mldsa_entry_acc(acc, &e, q * PART, PART, a);
        }
    }
    pqpan_wipe(a, sizeof a);
}

/* w1Encode is absorbed 64 coefficients at a time (at most 48 bytes). */
#define W1_PIECE 64

_Static_assert(PQPAN_MLDSA_W1_BITS(PQPAN_MLDSA44_GAMMA2) == 6 &&
                   PQPAN_MLDSA_W1_BITS(PQPAN_MLDSA65_GAMMA2) == 4 &&
                   PQPAN_MLDSA_W1_BITS(PQPAN_MLDSA87_GAMMA2) == 4,
               "w1 takes 4 or 6 bits");

/* w1Encode (Alg. 28) of W1_PIECE coefficients in [0, 2^w1_bits): SimpleBitPack (Alg. 16),
 * the first coefficient in the low bits, for the two widths of FIPS 204 Table 1: two
 * coefficients per byte (4 bits) or four per three bytes (6 bits). The generic
 * pqpan_mldsa_pack gives the same bytes. */
static void w1_pack(uint8_t *out, const int32_t *a, unsigned w1_bits)
{
    unsigned i;
    if (w1_bits == 4) {
        for (i = 0; i < W1_PIECE; i += 2) {
            *out++ = (uint8_t)((uint32_t)a[i] | (uint32_t)a[i + 1] << 4);
        }
        return;
    }
    for (i = 0; i < W1_PIECE; i += 4) {
        const uint32_t v = (uint32_t)a[i] | (uint32_t)a[i + 1] << 6 | (uint32_t)a[i + 2] << 12 |
                           (uint32_t)a[i + 3] << 18;
        out[0] = (uint8_t)v;
        out[1] = (uint8_t)(v >> 8);
        out[2] = (uint8_t)(v >> 16);
        out += 3;
    }
}

void pqpan_mldsa_absorb_w1(struct pqpan_shake256_ctx *h, const int32_t a[PQPAN_MLDSA_N],
                           unsigned w1_bits)
{
    uint8_t buf[W1_PIECE * 6 / 8];
    unsigned n;
    for (n = 0; n < PQPAN_MLDSA_N; n += W1_PIECE) {
        w1_pack(buf, a + n, w1_bits);
        pqpan_shake256_absorb(h, buf, W1_PIECE * w1_bits / 8);
    }
    pqpan_wipe(buf, sizeof buf);
}
