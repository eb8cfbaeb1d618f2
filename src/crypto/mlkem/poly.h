/* Polynomials of R_q = Z_q[X]/(X^256 + 1) and their byte encodings (FIPS 203 §4.2). */
#ifndef PQPAN_MLKEM_POLY_H
#define PQPAN_MLKEM_POLY_H

#include <stdint.h>

#include "crypto/mlkem/params.h"

struct mlkem_poly {
    int16_t c[PQPAN_MLKEM_N];
};

/* Every coefficient to its representative in [-(q-1)/2, (q-1)/2] (Barrett). */
void pqpan_mlkem_poly_reduce(struct mlkem_poly *p);
/* p = p * R mod q (into the Montgomery domain); output |p_i| < q. */
void pqpan_mlkem_poly_tomont(struct mlkem_poly *p);
/* p = p * R^-1 mod q (out of the Montgomery domain) for |p_i| < 2^15; output |p_i| < q. */
void pqpan_mlkem_poly_frommont(struct mlkem_poly *p);

/* ByteEncode_12 (FIPS 203 Alg. 5) of p with |p_i| < q, writing the representative in
 * [0, q) of each coefficient: 384 bytes. */
void pqpan_mlkem_poly_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], const struct mlkem_poly *p);
/* ByteEncode_12 of the representatives in [0, q) of p's coefficients, any int16 values:
 * pqpan_mlkem_poly_reduce, then pqpan_mlkem_poly_tobytes (the M4 backend does both in one
 * pass, src/crypto/m4/ntt_m4.c). p's coefficients may be left reduced. */
void pqpan_mlkem_poly_reduce_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], struct mlkem_poly *p);
/* ByteEncode_12 of p R mod q: pqpan_mlkem_poly_tomont, then pqpan_mlkem_poly_tobytes (one
 * pass in the M4 backend); p's coefficients may be left multiplied by R. */
void pqpan_mlkem_poly_tomont_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], struct mlkem_poly *p);
/* ByteDecode_12 (FIPS 203 Alg. 6): 12-bit values reduced mod q, so p_i in [0, q). */
void pqpan_mlkem_poly_frombytes(struct mlkem_poly *p, const uint8_t a[PQPAN_MLKEM_POLYBYTES]);
/* 1 if every 12-bit value of the encoding is < q, i.e. ByteEncode_12(ByteDecode_12(a)) == a
 * (the modulus check of FIPS 203 §7.2), else 0. Without a branch on the data. */
int pqpan_mlkem_poly_bytes_canonical(const uint8_t a[PQPAN_MLKEM_POLYBYTES]);

/* ByteEncode_d(Compress_d(p mod q)) (FIPS 203 §4.2.1 eq. 4.7, Alg. 5) for d in {4, 5, 10,
 * 11}: 32 d bytes; |p_i| < 2q (no reduction needed first). */
void pqpan_mlkem_poly_compress(uint8_t *r, const struct mlkem_poly *p, unsigned d);
/* The OR of the byte differences between ByteEncode_d(Compress_d(p mod q)) (|p_i| < 2q)
 * and the 32 d bytes of expected: 0 iff they are equal, at most 255. Constant time; no copy of the encoding
 * is held beyond one group of 8 coefficients. */
unsigned pqpan_mlkem_poly_compress_diff(const uint8_t *expected, const struct mlkem_poly *p,
                                        unsigned d);
/* Decompress_d(ByteDecode_d(a)) (eq. 4.8, Alg. 6), d in {4, 5, 10, 11}; p_i in [0, q). */
void pqpan_mlkem_poly_decompress(struct mlkem_poly *p, const uint8_t *a, unsigned d);
/* p += Decompress_1(ByteDecode_1(m)) (FIPS 203 Alg. 14 lines 20-21): bit i adds 0 or
 * 1665. */
void pqpan_mlkem_poly_add_msg(struct mlkem_poly *p, const uint8_t m[PQPAN_MLKEM_SYMBYTES]);
/* ByteEncode_1(Compress_1((v - w) mod q)) (FIPS 203 Alg. 15 lines 6-7, the subtraction
 * taken coefficient by coefficient on the way); |v_i - w_i| < 2q. */
void pqpan_mlkem_poly_tomsg(uint8_t m[PQPAN_MLKEM_SYMBYTES], const struct mlkem_poly *v,
                            const struct mlkem_poly *w);

/* Compress_d(x mod q) for |x| < 2q, d <= 11 (eq. 4.7); exposed for the unit test. */
uint16_t pqpan_mlkem_compress(int16_t x, unsigned d);

#endif
