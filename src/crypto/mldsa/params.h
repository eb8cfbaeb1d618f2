/* ML-DSA parameters (FIPS 204 §4, Table 1) and every size derived from them (Table 2).
 * One header for the whole scheme (STYLE.md habit 3); each size is pinned below. */
#ifndef PQPAN_MLDSA_PARAMS_H
#define PQPAN_MLDSA_PARAMS_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/sig.h"

/* n = 256, q = 2^23 - 2^13 + 1, d = 13 dropped bits of t (FIPS 204 §4, Table 1). */
#define PQPAN_MLDSA_N 256
#define PQPAN_MLDSA_Q 8380417
#define PQPAN_MLDSA_D 13
/* rho, K, xi, rnd: 32 bytes; rho', rho'', tr, mu: 64 bytes (Alg. 6 line 1, Alg. 7). */
#define PQPAN_MLDSA_SEEDBYTES 32
#define PQPAN_MLDSA_CRHBYTES 64
#define PQPAN_MLDSA_TRBYTES 64

/* Table 1, per parameter set: tau, lambda, gamma1, gamma2, (k, l), eta, beta = tau eta,
 * omega. */
#define PQPAN_MLDSA44_K 4
#define PQPAN_MLDSA44_L 4
#define PQPAN_MLDSA44_ETA 2
#define PQPAN_MLDSA44_TAU 39
#define PQPAN_MLDSA44_LAMBDA 128
#define PQPAN_MLDSA44_GAMMA1 (1 << 17)
#define PQPAN_MLDSA44_GAMMA2 ((PQPAN_MLDSA_Q - 1) / 88)
#define PQPAN_MLDSA44_OMEGA 80
#define PQPAN_MLDSA65_K 6
#define PQPAN_MLDSA65_L 5
#define PQPAN_MLDSA65_ETA 4
#define PQPAN_MLDSA65_TAU 49
#define PQPAN_MLDSA65_LAMBDA 192
#define PQPAN_MLDSA65_GAMMA1 (1 << 19)
#define PQPAN_MLDSA65_GAMMA2 ((PQPAN_MLDSA_Q - 1) / 32)
#define PQPAN_MLDSA65_OMEGA 55
#define PQPAN_MLDSA87_K 8
#define PQPAN_MLDSA87_L 7
#define PQPAN_MLDSA87_ETA 2
#define PQPAN_MLDSA87_TAU 60
#define PQPAN_MLDSA87_LAMBDA 256
#define PQPAN_MLDSA87_GAMMA1 (1 << 19)
#define PQPAN_MLDSA87_GAMMA2 ((PQPAN_MLDSA_Q - 1) / 32)
#define PQPAN_MLDSA87_OMEGA 75
#define PQPAN_MLDSA_K_MAX PQPAN_MLDSA87_K
#define PQPAN_MLDSA_L_MAX PQPAN_MLDSA87_L

/* Bit widths of the encodings (§7.2): s1, s2 as eta - s in bitlen(2 eta) bits, t0 as
 * 2^12 - t0 in 13 bits, t1 in bitlen(q - 1) - d = 10 bits, z as gamma1 - z in
 * 1 + bitlen(gamma1 - 1) bits, w1 in bitlen((q - 1) / (2 gamma2) - 1) bits. */
#define PQPAN_MLDSA_ETA_BITS(eta) ((eta) == 2 ? 3 : 4)
#define PQPAN_MLDSA_T0_BITS PQPAN_MLDSA_D
#define PQPAN_MLDSA_T1_BITS 10
#define PQPAN_MLDSA_Z_BITS(gamma1) ((gamma1) == (1 << 17) ? 18 : 20)
#define PQPAN_MLDSA_W1_BITS(gamma2) ((gamma2) == (PQPAN_MLDSA_Q - 1) / 88 ? 6 : 4)
/* Bytes of one packed polynomial with b bits per coefficient. */
#define PQPAN_MLDSA_POLY_BYTES(b) (PQPAN_MLDSA_N * (b) / 8)

/* Table 2 from pkEncode (Alg. 22), skEncode (Alg. 24), sigEncode (Alg. 26). */
#define PQPAN_MLDSA_PK_SIZE(k) (PQPAN_MLDSA_SEEDBYTES + (k) * PQPAN_MLDSA_POLY_BYTES(10))
#define PQPAN_MLDSA_SK_SIZE(k, l, eta)                                                         \
    (2 * PQPAN_MLDSA_SEEDBYTES + PQPAN_MLDSA_TRBYTES +                                       \
     ((k) + (l)) * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_ETA_BITS(eta)) +                       \
     (k) * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T0_BITS))
#define PQPAN_MLDSA_SIG_SIZE(k, l, lambda, gamma1, omega)                                      \
    ((lambda) / 4 + (l) * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_Z_BITS(gamma1)) + (omega) + (k))

_Static_assert(PQPAN_MLDSA_PK_SIZE(PQPAN_MLDSA44_K) == PQPAN_MLDSA44_PK_BYTES, "pk 44");
_Static_assert(PQPAN_MLDSA_SK_SIZE(PQPAN_MLDSA44_K, PQPAN_MLDSA44_L, PQPAN_MLDSA44_ETA) ==
                   PQPAN_MLDSA44_SK_BYTES, "sk 44");
_Static_assert(PQPAN_MLDSA_SIG_SIZE(PQPAN_MLDSA44_K, PQPAN_MLDSA44_L, PQPAN_MLDSA44_LAMBDA,
                                    PQPAN_MLDSA44_GAMMA1, PQPAN_MLDSA44_OMEGA) ==
                   PQPAN_MLDSA44_SIG_BYTES, "sig 44");
_Static_assert(PQPAN_MLDSA_PK_SIZE(PQPAN_MLDSA65_K) == PQPAN_MLDSA65_PK_BYTES, "pk 65");
_Static_assert(PQPAN_MLDSA_SK_SIZE(PQPAN_MLDSA65_K, PQPAN_MLDSA65_L, PQPAN_MLDSA65_ETA) ==
                   PQPAN_MLDSA65_SK_BYTES, "sk 65");
_Static_assert(PQPAN_MLDSA_SIG_SIZE(PQPAN_MLDSA65_K, PQPAN_MLDSA65_L, PQPAN_MLDSA65_LAMBDA,
                                    PQPAN_MLDSA65_GAMMA1, PQPAN_MLDSA65_OMEGA) ==
                   PQPAN_MLDSA65_SIG_BYTES, "sig 65");
_Static_assert(PQPAN_MLDSA_PK_SIZE(PQPAN_MLDSA87_K) == PQPAN_MLDSA87_PK_BYTES, "pk 87");
_Static_assert(PQPAN_MLDSA_SK_SIZE(PQPAN_MLDSA87_K, PQPAN_MLDSA87_L, PQPAN_MLDSA87_ETA) ==
                   PQPAN_MLDSA87_SK_BYTES, "sk 87");
_Static_assert(PQPAN_MLDSA_SIG_SIZE(PQPAN_MLDSA87_K, PQPAN_MLDSA87_L, PQPAN_MLDSA87_LAMBDA,
                                    PQPAN_MLDSA87_GAMMA1, PQPAN_MLDSA87_OMEGA) ==
                   PQPAN_MLDSA87_SIG_BYTES, "sig 87");
/* FIPS 204 Table 2, the published sizes in bytes. */
_Static_assert(PQPAN_MLDSA44_PK_BYTES == 1312 && PQPAN_MLDSA44_SK_BYTES == 2560 &&
                   PQPAN_MLDSA44_SIG_BYTES == 2420, "Table 2, ML-DSA-44");
_Static_assert(PQPAN_MLDSA65_PK_BYTES == 1952 && PQPAN_MLDSA65_SK_BYTES == 4032 &&
                   PQPAN_MLDSA65_SIG_BYTES == 3309, "Table 2, ML-DSA-65");
_Static_assert(PQPAN_MLDSA87_PK_BYTES == 2592 && PQPAN_MLDSA87_SK_BYTES == 4896 &&
                   PQPAN_MLDSA87_SIG_BYTES == 4627, "Table 2, ML-DSA-87");
/* Table 1: beta = tau eta. */
_Static_assert(PQPAN_MLDSA44_TAU * PQPAN_MLDSA44_ETA == 78 &&
                   PQPAN_MLDSA65_TAU * PQPAN_MLDSA65_ETA == 196 &&
                   PQPAN_MLDSA87_TAU * PQPAN_MLDSA87_ETA == 120, "Table 1, beta");

/* The maximum number of signing attempts (FIPS 204 Appendix C, Table 3: an
 * implementation that bounds the loop of Alg. 7 shall allow at least 814). */
#define PQPAN_MLDSA_SIGN_ATTEMPTS_MAX 814

/* One parameter set at run time; the entry points pass one of three constants. */
struct mldsa_params {
    unsigned k, l, eta, tau, omega;
    int32_t gamma1, gamma2, beta;
    unsigned ctilde_bytes; /* lambda / 4 */
    unsigned eta_bits, z_bits, w1_bits;
    size_t pk_bytes, sk_bytes, sig_bytes;
};

/* Offsets inside sk = rho || K || tr || s1 || s2 || t0 (Alg. 24) and sig = c~ || z || h
 * (Alg. 26). */
static inline size_t mldsa_sk_s1_offset(void)
{
    return 2 * PQPAN_MLDSA_SEEDBYTES + PQPAN_MLDSA_TRBYTES;
}

static inline size_t mldsa_eta_poly_bytes(const struct mldsa_params *p)
{
    return PQPAN_MLDSA_POLY_BYTES(p->eta_bits);
}

static inline size_t mldsa_sk_s2_offset(const struct mldsa_params *p)
{
    return mldsa_sk_s1_offset() + p->l * mldsa_eta_poly_bytes(p);
}

static inline size_t mldsa_sk_t0_offset(const struct mldsa_params *p)
{
    return mldsa_sk_s2_offset(p) + p->k * mldsa_eta_poly_bytes(p);
}

static inline size_t mldsa_z_poly_bytes(const struct mldsa_params *p)
{
    return PQPAN_MLDSA_POLY_BYTES(p->z_bits);
}

static inline size_t mldsa_sig_hint_offset(const struct mldsa_params *p)
{
    return p->ctilde_bytes + p->l * mldsa_z_poly_bytes(p);
}

#endif
