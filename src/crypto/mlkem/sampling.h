/* Sampling of FIPS 203 §4.2.2: uniform polynomials in the NTT domain and centred binomial
 * noise. */
#ifndef PQPAN_MLKEM_SAMPLING_H
#define PQPAN_MLKEM_SAMPLING_H

#include <stdint.h>

#include "crypto/mlkem/poly.h"

/* SampleNTT(rho || x || y) (FIPS 203 Alg. 7): coefficients in [0, q). The matrix entry
 * A[i][j] of Alg. 13/14 is SampleNTT(rho || j || i), i.e. x = j, y = i. rho is public. */
void pqpan_mlkem_sample_ntt(struct mlkem_poly *a, const uint8_t rho[PQPAN_MLKEM_SYMBYTES],
                            uint8_t x, uint8_t y);

/* SamplePolyCBD_eta(PRF_eta(seed, nonce)) (FIPS 203 Alg. 8, §4.1 eq. 4.3), eta in {2, 3}:
 * coefficients in [-eta, eta]. Constant time in seed. */
void pqpan_mlkem_sample_cbd(struct mlkem_poly *p, const uint8_t seed[PQPAN_MLKEM_SYMBYTES],
                            uint8_t nonce, unsigned eta);

#endif
