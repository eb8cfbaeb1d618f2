/* ML-DSA.KeyGen_internal (FIPS 204 Alg. 6). The matrix, s1, s2 and t are never held as
 * vectors: s1 and s2 are sampled straight into sk (their BitPack encoding, Alg. 24) and
 * read back from there; t is computed one row at a time, and each row is split into t1
 * (packed into pk) and t0 (packed into sk) as soon as it is complete. At most one
 * polynomial and one 24-bit accumulator (acc.h) are alive at a time. */
#include <string.h>

#include "common/compiler.h"
#include "crypto/ct_testing.h"
#include "crypto/mldsa/mldsa.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/packing.h"
#include "crypto/mldsa/rounding.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/common.h"

void pqpan_mldsa_keygen_split_row(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                                  unsigned i, const int32_t t[PQPAN_MLDSA_N])
{
    int32_t s2[8], t1[8], t0[8];
    const size_t eta_bytes = mldsa_eta_poly_bytes(p);
    const uint8_t *s2_in = sk + mldsa_sk_s2_offset(p) + i * eta_bytes;
    uint8_t *t1_out = pk + PQPAN_MLDSA_SEEDBYTES + i * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T1_BITS);
    uint8_t *t0_out = sk + mldsa_sk_t0_offset(p) + i * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T0_BITS);
    unsigned n, c;
    for (n = 0; n < PQPAN_MLDSA_N; n += 8) {
        pqpan_mldsa_unpack(s2, s2_in + n * p->eta_bits / 8, 8, p->eta_bits, (int32_t)p->eta, 1);
        for (c = 0; c < 8; c++) {
            t1[c] = mldsa_power2round(&t0[c], mldsa_freeze(t[n + c] + s2[c]));
        }
        pqpan_mldsa_pack(t1_out + n * PQPAN_MLDSA_T1_BITS / 8, t1, 8, PQPAN_MLDSA_T1_BITS, 0, 0);
        pqpan_mldsa_pack(t0_out + n * PQPAN_MLDSA_T0_BITS / 8, t0, 8, PQPAN_MLDSA_T0_BITS,
                         1 << (PQPAN_MLDSA_D - 1), 1);
    }
    pqpan_wipe(s2, sizeof s2);
    pqpan_wipe(t1, sizeof t1);
    pqpan_wipe(t0, sizeof t0);
}

/* Row i of t = NTT^-1(A_hat o NTT(s1)) (Alg. 6 line 5), then split into t1 and t0. Out of
 * line, so that its accumulator and polynomial are in no other frame. */
static PQPAN_NOINLINE void keygen_row(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                                      unsigned i)
{
    uint8_t acc[PQPAN_MLDSA_ACC_BYTES];
    int32_t t[PQPAN_MLDSA_N];
    pqpan_mldsa_matrix_row(acc, t, sk, i, p->l, sk + mldsa_sk_s1_offset(), mldsa_eta_poly_bytes(p),
                           p->eta_bits, (int32_t)p->eta);
    pqpan_mldsa_acc_to_poly(t, acc);
    pqpan_mldsa_invntt(t);
    pqpan_mldsa_keygen_split_row(p, pk, sk, i, t);
    pqpan_wipe(acc, sizeof acc);
    pqpan_wipe(t, sizeof t);
}

PQPAN_NOINLINE void pqpan_mldsa_keygen_seeds(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                                       const uint8_t xi[PQPAN_MLDSA_SEEDBYTES])
{
    uint8_t seeds[PQPAN_MLDSA_SEEDBYTES + PQPAN_MLDSA_CRHBYTES + PQPAN_MLDSA_SEEDBYTES];
    const uint8_t kl[2] = {(uint8_t)p->k, (uint8_t)p->l};
    struct pqpan_shake256_ctx h;
    pqpan_shake256_init(&h);
    pqpan_shake256_absorb(&h, xi, PQPAN_MLDSA_SEEDBYTES);
    pqpan_shake256_absorb(&h, kl, sizeof kl);
    pqpan_shake256_squeeze(&h, seeds, sizeof seeds);
    pqpan_wipe(&h, sizeof h);
    PQPAN_CT_DECLASSIFY(seeds, PQPAN_MLDSA_SEEDBYTES); /* rho is published in pk */
    memcpy(pk, seeds, PQPAN_MLDSA_SEEDBYTES);
    memcpy(sk, seeds, PQPAN_MLDSA_SEEDBYTES);
    memcpy(sk + PQPAN_MLDSA_SEEDBYTES, seeds + PQPAN_MLDSA_SEEDBYTES + PQPAN_MLDSA_CRHBYTES,
           PQPAN_MLDSA_SEEDBYTES);
    pqpan_mldsa_expand_s(sk + mldsa_sk_s1_offset(), p, seeds + PQPAN_MLDSA_SEEDBYTES);
    pqpan_wipe(seeds, sizeof seeds);
}

void pqpan_mldsa_keygen(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                        const uint8_t xi[PQPAN_MLDSA_SEEDBYTES])
{
    unsigned i;
    pqpan_mldsa_keygen_seeds(p, pk, sk, xi);
    for (i = 0; i < p->k; i++) {
        keygen_row(p, pk, sk, i);
    }
    /* line 8: tr = H(pk, 64), stored in sk (Alg. 24) */
    pqpan_shake256(sk + 2 * PQPAN_MLDSA_SEEDBYTES, PQPAN_MLDSA_TRBYTES, pk, p->pk_bytes);
}
