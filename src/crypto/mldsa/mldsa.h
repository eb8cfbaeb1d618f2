/* ML-DSA internals shared by keygen.c, sign.c, verify.c and mldsa.c (the entry points). */
#ifndef PQPAN_MLDSA_MLDSA_H
#define PQPAN_MLDSA_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/mldsa/acc.h"
#include "crypto/mldsa/params.h"
#include "pqpan/sha3.h"

/* M' in three pieces, absorbed one after the other: for ML-DSA.Sign / Verify (Alg. 2, 3)
 * prefix = IntegerToBytes(0, 1) || IntegerToBytes(|ctx|, 1), then ctx, then M; for the
 * internal functions (Alg. 7, 8) only M = M' (prefix_len = ctx_len = 0). */
struct mldsa_msg {
    uint8_t prefix[2];
    size_t prefix_len;
    const uint8_t *ctx;
    size_t ctx_len;
    const uint8_t *msg;
    size_t msg_len;
};

/* mu = H(tr || M', 64) (Alg. 7 line 6, Alg. 8 line 7). */
void pqpan_mldsa_hash_mu(uint8_t mu[PQPAN_MLDSA_CRHBYTES], const uint8_t tr[PQPAN_MLDSA_TRBYTES],
                         const struct mldsa_msg *m);

/* acc = sum_j A_hat[row][j] o NTT(v_j) R^-1 mod q for j < l (one row of Alg. 6 line 5,
 * Alg. 7 line 12, Alg. 8 line 9), v_j = offset - (the bits-bit values at v + j * stride),
 * as BitUnpack reads s1 (offset eta) or y and z (offset gamma1). acc is a 24-bit
 * accumulator (acc.h), left in the NTT domain; tmp is workspace. */
void pqpan_mldsa_matrix_row(uint8_t acc[PQPAN_MLDSA_ACC_BYTES], int32_t tmp[PQPAN_MLDSA_N],
                            const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned row, unsigned l,
                            const uint8_t *v, size_t stride, unsigned bits, int32_t offset);

/* The same row as pqpan_mldsa_matrix_row, with NTT(v_j) computed a quarter at a time
 * (coefficients 0..63, 64..127, ...) while the stream of A_hat[row][j] is consumed: the
 * workspace is 64 coefficients in this function's frame, none from the caller. Costs
 * four unpackings of v_j and 512 more multiplications per entry. */
void pqpan_mldsa_matrix_row_parts(uint8_t acc[PQPAN_MLDSA_ACC_BYTES],
                                  const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned row,
                                  unsigned l, const uint8_t *v, size_t stride, unsigned bits,
                                  int32_t offset);

/* a = the residues of the accumulator acc, in [0, q). acc may be the first
 * PQPAN_MLDSA_ACC_BYTES bytes of a. */
void pqpan_mldsa_acc_to_poly(int32_t a[PQPAN_MLDSA_N], const uint8_t acc[PQPAN_MLDSA_ACC_BYTES]);

/* NTT(offset - the bits-bit values at in) into a (BitUnpack then NTT). */
void pqpan_mldsa_ntt_unpacked(int32_t a[PQPAN_MLDSA_N], const uint8_t *in, unsigned bits,
                              int32_t offset);

/* Absorbs w1Encode of one polynomial (Alg. 28: SimpleBitPack of w1 in w1_bits bits) into
 * the hash, w1 given as HighBits values in a. */
void pqpan_mldsa_absorb_w1(struct pqpan_shake256_ctx *h, const int32_t a[PQPAN_MLDSA_N],
                           unsigned w1_bits);

/* ML-DSA.KeyGen_internal (Alg. 6); all pointers valid. */
void pqpan_mldsa_keygen(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                        const uint8_t xi[PQPAN_MLDSA_SEEDBYTES]);

/* ML-DSA.Sign_internal (Alg. 7) on M' given in pieces; sk, sig, rnd valid. Returns 0 or
 * PQPAN_ERR_BAD_KEY (sig zeroed). */
int pqpan_mldsa_sign(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                     const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES]);

/* ML-DSA.Verify_internal (Alg. 8) on M' given in pieces; pk, sig valid. Returns 0,
 * PQPAN_ERR_BAD_LENGTH, PQPAN_ERR_MALFORMED or PQPAN_ERR_AUTH (see pqpan/sig.h). */
int pqpan_mldsa_verify(const struct mldsa_params *p, const uint8_t *pk,
                       const struct mldsa_msg *m, const uint8_t *sig, size_t sig_len);

#endif
