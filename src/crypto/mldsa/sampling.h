/* Pseudorandom sampling of FIPS 204 §7.3: RejNTTPoly for the matrix A_hat (Alg. 30, 32),
 * RejBoundedPoly for s1, s2 (Alg. 31, 33), ExpandMask (Alg. 34) and SampleInBall
 * (Alg. 29). */
#ifndef PQPAN_MLDSA_SAMPLING_H
#define PQPAN_MLDSA_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/mldsa/acc.h"
#include "crypto/mldsa/params.h"
#include "pqpan/sha3.h"

/* Bytes of SHAKE128 output RejNTTPoly squeezes at a time (8 candidates). */
#define PQPAN_MLDSA_REJ_PIECE 24

/* One entry A_hat[row][col] = RejNTTPoly(rho || col || row) (Alg. 32, 30) as a stream:
 * the SHAKE128 state, the last piece squeezed and the next candidate's byte in it. */
struct mldsa_entry_stream {
    struct pqpan_shake128_ctx xof;
    uint8_t buf[PQPAN_MLDSA_REJ_PIECE];
    unsigned pos;
};

/* Starts the stream of A_hat[row][col]. */
void pqpan_mldsa_entry_start(struct mldsa_entry_stream *e,
                             const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned col, unsigned row);

/* The next count coefficients of the entry, which are its coefficients first ..
 * first + count - 1 when the stream has given first so far: acc_i = (acc_i + A_hat_i
 * b_{i - first} R^-1) mod q for those i, |b| < 9q. Constant time in b and acc. */
void pqpan_mldsa_entry_acc(uint8_t acc[PQPAN_MLDSA_ACC_BYTES], struct mldsa_entry_stream *e,
                           unsigned first, unsigned count, const int32_t *b);

/* a = A_hat[row][col] = RejNTTPoly(rho || col || row) (Alg. 32, 30), coefficients in
 * [0, q), the SHAKE128 output squeezed in whole blocks. rho is public. */
void pqpan_mldsa_rej_ntt_poly(int32_t a[PQPAN_MLDSA_N], const uint8_t rho[PQPAN_MLDSA_SEEDBYTES],
                              unsigned col, unsigned row);

/* acc_i = (acc_i + A_hat[row][col]_i b_i R^-1) mod q (Alg. 32 then Alg. 45), with
 * A_hat[row][col] = RejNTTPoly(rho || col || row): one matrix entry times one polynomial
 * in the NTT domain, |b_i| < 9q. The entry is never held: each coefficient is multiplied
 * in as soon as it is accepted. acc is a 24-bit accumulator (acc.h). rho is public;
 * constant time in b and acc. */
void pqpan_mldsa_matacc(uint8_t acc[PQPAN_MLDSA_ACC_BYTES],
                        const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned col, unsigned row,
                        const int32_t b[PQPAN_MLDSA_N]);

/* ExpandS (Alg. 33) written straight into the secret key: s1[r] = RejBoundedPoly(rho' || r)
 * for r < l and s2[r - l] for l <= r < k + l, each packed as BitPack(s, eta, eta)
 * (Alg. 24) at out + r * 32 bitlen(2 eta). Which half-bytes are rejected is declassified
 * for the constant-time test: it is independent of the values accepted. */
void pqpan_mldsa_expand_s(uint8_t *out, const struct mldsa_params *p,
                          const uint8_t rhoprime[PQPAN_MLDSA_CRHBYTES]);

/* The packed mask polynomial y[r] of ExpandMask (Alg. 34): the 32 z_bits bytes
 * H(rho'' || IntegerToBytes(nonce, 2)), which BitUnpack(., gamma1 - 1, gamma1) reads as
 * y[r] and which therefore are also BitPack(y[r], gamma1 - 1, gamma1). */
void pqpan_mldsa_expand_mask(uint8_t *out, size_t out_len,
                             const uint8_t rhopp[PQPAN_MLDSA_CRHBYTES], unsigned nonce);

/* Whether the seed c~ of SampleInBall is secret (the challenge of a signing attempt,
 * which stays secret when the attempt is rejected) or public (the c~ of a signature being
 * verified). */
enum mldsa_seed { MLDSA_SEED_SECRET, MLDSA_SEED_PUBLIC };

/* SampleInBall (Alg. 29): c with tau coefficients +-1 and the others 0, from a secret seed
 * c~ of seed_len bytes. Constant time in c~ except for which bytes are rejected (j > i),
 * which is declassified for the constant-time test: the positions accepted are uniform
 * whatever the rejections. The swaps read and write c at every index up to i
 * (pqpan_mldsa_ball_step). */
void pqpan_mldsa_sample_in_ball(int8_t c[PQPAN_MLDSA_N], const uint8_t *seed, size_t seed_len,
                                unsigned tau);

/* SampleInBall of a public seed c~: the swaps index c directly (Alg. 29 lines 10-11 as
 * written). The same output as pqpan_mldsa_sample_in_ball. */
void pqpan_mldsa_sample_in_ball_public(int8_t c[PQPAN_MLDSA_N], const uint8_t *seed,
                                       size_t seed_len, unsigned tau);

/* One swap of SampleInBall (Alg. 29 lines 10-11) for j <= i < 256: c_i = c_j, then c_j =
 * sign, the byte 0x01 (+1) or 0xFF (-1). Reads and writes c_0 .. c_i (and the bytes after
 * c_i in its word, unchanged) whatever j and sign; c_k for k > i must be 0 (positions not
 * yet placed). The Cortex-M4 backend has it in assembly (src/crypto/m4/mldsa_ball_m4.S). */
void pqpan_mldsa_ball_step(int8_t c[PQPAN_MLDSA_N], unsigned i, unsigned j, uint8_t sign);

#endif
