/* ML-DSA internals shared by keygen.c, sign.c, verify.c and mldsa.c (the entry points). */
#ifndef PQPAN_MLDSA_MLDSA_H
#define PQPAN_MLDSA_MLDSA_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/mldsa/acc.h"
#include "crypto/mldsa/params.h"
#include "crypto/mldsa/sampling.h"
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

/* Steps shared by both builds of key generation, signing and verification. */

/* (rho, rho', K) = H(xi || IntegerToBytes(k, 1) || IntegerToBytes(l, 1), 128) (Alg. 6
 * line 1); rho goes to pk and sk, K to sk, s1 and s2 (lines 3-4) to sk. Out of line, so
 * that rho' is not in the frame of the rows. */
void pqpan_mldsa_keygen_seeds(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                              const uint8_t xi[PQPAN_MLDSA_SEEDBYTES]);

/* Row i of t = NTT^-1(A_hat o NTT(s1)) + s2 (Alg. 6 line 5) from t holding the NTT^-1
 * part (|t_n| < q) and s2 read from sk, then (t1, t0) = Power2Round(t) (line 6), t1 into
 * pk (Alg. 22), t0 into sk (Alg. 24), 8 coefficients at a time. */
void pqpan_mldsa_keygen_split_row(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                                  unsigned i, const int32_t t[PQPAN_MLDSA_N]);

/* 0 if every coefficient of s1 and s2 in sk lies in [-eta, eta] (their packed values in
 * [0, 2 eta]), else PQPAN_ERR_BAD_KEY. Only the verdict is declassified. */
int pqpan_mldsa_check_sk(const struct mldsa_params *p, const uint8_t *sk);

/* mu = H(tr || M', 64) and rho'' = H(K || rnd || mu, 64) (Alg. 7 lines 6-7), tr and K
 * read from sk. Out of line, so that its SHAKE state is not in the frame of the attempts. */
void pqpan_mldsa_sign_seeds(uint8_t mu[PQPAN_MLDSA_CRHBYTES], uint8_t rhopp[PQPAN_MLDSA_CRHBYTES],
                            const uint8_t *sk, const struct mldsa_msg *m,
                            const uint8_t rnd[PQPAN_MLDSA_RND_BYTES]);

/* c_hat = NTT(SampleInBall(c~)) (Alg. 7 lines 16-17, Alg. 8 line 8), c~ the first
 * lambda / 4 bytes at ctilde. Constant time in a secret c~ (see SampleInBall). */
void pqpan_mldsa_challenge_ntt(int32_t chat[PQPAN_MLDSA_N], const uint8_t *ctilde,
                               const struct mldsa_params *p, enum mldsa_seed ctilde_is);

/* HintBitPack (Alg. 20) of the hint bitmap (bit n % 8 of hint[32 i + n / 8] is h_i[n]) into
 * the omega + k bytes y. Public data (an accepted signature): it branches. */
void pqpan_mldsa_pack_hints(uint8_t *y, const uint8_t *hint,
                            const struct mldsa_params *p);

/* The signature's form (Alg. 8 lines 1-4 and the z bound of line 13): PQPAN_OK,
 * PQPAN_ERR_BAD_LENGTH, or PQPAN_ERR_MALFORMED when HintBitUnpack (Alg. 21) returns ⊥ or
 * ||z|| >= gamma1 - beta. */
int pqpan_mldsa_check_sig_form(const struct mldsa_params *p, const uint8_t *sig, size_t sig_len);

/* h = H.Absorb(mu) with mu = H(H(pk, 64) || M', 64) (Alg. 8 lines 6-7, 12). Out of line,
 * so that tr, mu and their hash states are not in the frame of the rows. */
void pqpan_mldsa_absorb_mu(struct pqpan_shake256_ctx *h, const struct mldsa_params *p,
                           const uint8_t *pk, const struct mldsa_msg *m);

/* w1' = UseHint(h_i, w) (Alg. 8 line 10) in place for row i, w any representatives with
 * |w_n| <= 2^31 - 2^22 - 1, the hint positions read from the well-formed signature sig. */
void pqpan_mldsa_use_hints_row(int32_t w[PQPAN_MLDSA_N], const struct mldsa_params *p,
                               const uint8_t *sig, unsigned i);

/* 1 if H.Squeeze(h, lambda / 4) equals c~ (Alg. 8 lines 12-13), read 8 bytes at a time. */
int pqpan_mldsa_challenge_matches(struct pqpan_shake256_ctx *h, const struct mldsa_params *p,
                                  const uint8_t *ctilde);

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

/* The same three functions for speed (speed.c, CMake PQPAN_MLDSA_IMPL=speed): the matrix
 * A_hat expanded once and kept, s1, s2, t0 transformed once per signature, NTT(y) once
 * per attempt; about 100 KiB of stack (docs/SIG.md). Same results, byte for byte. */
void pqpan_mldsa_keygen_speed(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                              const uint8_t xi[PQPAN_MLDSA_SEEDBYTES]);
int pqpan_mldsa_sign_speed(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                           const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES]);
int pqpan_mldsa_verify_speed(const struct mldsa_params *p, const uint8_t *pk,
                             const struct mldsa_msg *m, const uint8_t *sig, size_t sig_len);

/* The build behind the public API (impl.c, alone in its file: PQPAN_MLDSA_SPEED selects
 * speed, else small), called directly so that call-graph stack analysis follows it. */
void pqpan_mldsa_build_keygen(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                              const uint8_t xi[PQPAN_MLDSA_SEEDBYTES]);
int pqpan_mldsa_build_sign(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                           const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES]);
int pqpan_mldsa_build_verify(const struct mldsa_params *p, const uint8_t *pk,
                             const struct mldsa_msg *m, const uint8_t *sig, size_t sig_len);
/* "speed" or "small". */
const char *pqpan_mldsa_build_name(void);

/* Both builds as tables, for the tests that pit them against each other (builds.c; no
 * program but the tests links it). */
struct mldsa_impl {
    void (*keygen)(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                   const uint8_t xi[PQPAN_MLDSA_SEEDBYTES]);
    int (*sign)(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES]);
    int (*verify)(const struct mldsa_params *p, const uint8_t *pk, const struct mldsa_msg *m,
                  const uint8_t *sig, size_t sig_len);
};
extern const struct mldsa_impl pqpan_mldsa_small_impl;
extern const struct mldsa_impl pqpan_mldsa_speed_impl;

/* The parameter sets, for white-box tests: 0, 1, 2 for ML-DSA-44, 65, 87. */
const struct mldsa_params *pqpan_mldsa_params_at(unsigned i);

#endif
