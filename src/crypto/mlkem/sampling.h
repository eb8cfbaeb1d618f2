/* Sampling of FIPS 203 §4.2.2: uniform polynomials in the NTT domain and centred binomial
 * noise. */
#ifndef PQPAN_MLKEM_SAMPLING_H
#define PQPAN_MLKEM_SAMPLING_H

#include <stddef.h>
#include <stdint.h>

#include "crypto/mlkem/poly.h"

/* acc += (SampleNTT(rho || x || y) o b) * R^-1 (FIPS 203 Alg. 7, then Alg. 11): one entry
 * of the matrix times one polynomial b given as ByteEncode_12 of its NTT. The entry is
 * never held whole: its values are rejection-sampled and multiplied in 64 coefficients
 * at a time.
 * The matrix entry A[i][j] of Alg. 13/14 is SampleNTT(rho || j || i), i.e. x = j, y = i.
 * rho is public; |acc_i| grows by less than q. */
void pqpan_mlkem_matacc(int16_t acc[PQPAN_MLKEM_N], const uint8_t rho[PQPAN_MLKEM_SYMBYTES],
                        uint8_t x, uint8_t y, const uint8_t b[PQPAN_MLKEM_POLYBYTES]);

/* FIPS 203 Alg. 7 lines 5-14 on buf[*pos .. len), appending to a[count] until at least
 * max values are held or the bytes run out (src/crypto/mlkem/sampling.c explains the
 * contract: a has max + 1 places, buf 2 readable bytes after len). Returns the new count
 * and advances *pos. The Cortex-M4 backend has it in assembly. */
unsigned pqpan_mlkem_rej_uniform(int16_t *a, unsigned count, unsigned max, const uint8_t *buf,
                                 size_t len, size_t *pos);

/* p = SamplePolyCBD_eta(PRF_eta(seed, nonce)) (FIPS 203 Alg. 8, §4.1 eq. 4.3), eta in
 * {2, 3}: coefficients in [-eta, eta]. Constant time in seed. */
/* SamplePolyCBD_2 (FIPS 203 Alg. 8, eta = 2) of 32 PRF bytes into 64 coefficients,
 * written to c or (add = 1) added to it. */
void pqpan_mlkem_cbd2_piece(int16_t c[64], const uint8_t buf[32], int add);
/* SamplePolyCBD_3 (eta = 3) of 48 PRF bytes into 64 coefficients, the same way. */
void pqpan_mlkem_cbd3_piece(int16_t c[64], const uint8_t buf[48], int add);

void pqpan_mlkem_sample_cbd(struct mlkem_poly *p, const uint8_t seed[PQPAN_MLKEM_SYMBYTES],
                            uint8_t nonce, unsigned eta);

/* p += SamplePolyCBD_eta(PRF_eta(seed, nonce)) (FIPS 203 Alg. 8, §4.1 eq. 4.3), eta in
 * {2, 3}, added: the noise terms of Alg. 14 lines 19-21. Constant time in seed. */
void pqpan_mlkem_add_cbd(struct mlkem_poly *p, const uint8_t seed[PQPAN_MLKEM_SYMBYTES],
                         uint8_t nonce, unsigned eta);

#endif
