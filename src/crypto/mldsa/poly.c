/* Polynomial operations shared by ML-DSA key generation, signing and verification. */
#include <string.h>

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

void pqpan_mldsa_acc_to_poly(int32_t a[PQPAN_MLDSA_N], const uint8_t acc[PQPAN_MLDSA_ACC_BYTES])
{
    unsigned n;
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        a[n] = mldsa_acc_get(acc, n);
    }
}

/* w1Encode is absorbed 64 coefficients at a time (at most 48 bytes). */
#define W1_PIECE 64

void pqpan_mldsa_absorb_w1(struct pqpan_shake256_ctx *h, const int32_t a[PQPAN_MLDSA_N],
                           unsigned w1_bits)
{
    uint8_t buf[W1_PIECE * 6 / 8];
    unsigned n;
    for (n = 0; n < PQPAN_MLDSA_N; n += W1_PIECE) {
        pqpan_mldsa_pack(buf, a + n, W1_PIECE, w1_bits, 0, 0);
        pqpan_shake256_absorb(h, buf, W1_PIECE * w1_bits / 8);
    }
    pqpan_wipe(buf, sizeof buf);
}
