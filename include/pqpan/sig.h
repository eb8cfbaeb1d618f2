/* ML-DSA (FIPS 204), all three parameter sets, and a parameter-generic layer.
 *
 * Every function returns 0 on success or a negative PQPAN_ERR_* code; on an error every
 * output buffer is zeroed. Lengths of keys and signatures are fixed per parameter set
 * (the *_BYTES macros); messages and contexts are pointer + length (a NULL pointer is
 * allowed with length 0).
 *
 * Key generation: from a 32-byte seed xi (ML-DSA.KeyGen_internal, FIPS 204 Alg. 6) or with
 * xi drawn from the injected pqpan_rng_fn (ML-DSA.KeyGen, Alg. 1).
 *
 * Signing: the external interface (ML-DSA.Sign, Alg. 2) formats M' = 0 || |ctx| || ctx || M
 * with a context string of at most 255 bytes; the internal one (ML-DSA.Sign_internal,
 * Alg. 7) takes M' as given. The 32-byte rnd is given (*_derand: all zero for the
 * deterministic variant, FIPS 204 §3.4), or drawn from the RNG (the hedged variant). The
 * secret key is checked first: coefficients of s1 and s2 outside [-eta, eta] (possible
 * only in a malformed key, FIPS 204 Alg. 25) give PQPAN_ERR_BAD_KEY, as does a key that
 * finds no signature within the 814 attempts of FIPS 204 Appendix C, Table 3 (a valid key
 * fails with probability below 2^-256 there). The signature buffer is used as workspace
 * while signing (the mask y lives in the place of z) and must not overlap the inputs.
 *
 * Verification: ML-DSA.Verify (Alg. 3) and ML-DSA.Verify_internal (Alg. 8). Returns 0 for
 * a valid signature; PQPAN_ERR_BAD_LENGTH for a public key, signature or context of the
 * wrong length; PQPAN_ERR_MALFORMED for a signature that FIPS 204 rejects on its form: a
 * hint encoding that HintBitUnpack (Alg. 21) refuses, or ||z||_inf >= gamma1 - beta
 * (Alg. 8 line 13); PQPAN_ERR_AUTH when the recomputed challenge differs (Alg. 8 line 13).
 *
 * Memory: no allocation; the stack per operation is small and does not grow with the
 * message (docs/M4.md has the measured figures). Constant time in the secret key and rnd,
 * except that how many signing attempts were made is visible (FIPS 204 §3.4 allows it;
 * docs/SIG.md lists what the constant-time test declassifies). */
#ifndef PQPAN_SIG_H
#define PQPAN_SIG_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/error.h"

#define PQPAN_MLDSA_SEED_BYTES 32    /* xi (FIPS 204 Alg. 1 line 1) */
#define PQPAN_MLDSA_RND_BYTES 32     /* rnd (Alg. 2 line 5) */
#define PQPAN_MLDSA_CTX_MAX_BYTES 255 /* |ctx| (Alg. 2 line 1) */
/* FIPS 204 Table 2 (bytes). */
#define PQPAN_MLDSA44_PK_BYTES 1312
#define PQPAN_MLDSA44_SK_BYTES 2560
#define PQPAN_MLDSA44_SIG_BYTES 2420
#define PQPAN_MLDSA65_PK_BYTES 1952
#define PQPAN_MLDSA65_SK_BYTES 4032
#define PQPAN_MLDSA65_SIG_BYTES 3309
#define PQPAN_MLDSA87_PK_BYTES 2592
#define PQPAN_MLDSA87_SK_BYTES 4896
#define PQPAN_MLDSA87_SIG_BYTES 4627
/* The largest of each, for buffers sized for any parameter set. */
#define PQPAN_SIG_PK_MAX_BYTES PQPAN_MLDSA87_PK_BYTES
#define PQPAN_SIG_SK_MAX_BYTES PQPAN_MLDSA87_SK_BYTES
#define PQPAN_SIG_SIG_MAX_BYTES PQPAN_MLDSA87_SIG_BYTES

/* The entry points of one parameter set N in {44, 65, 87}:
 *   keypair_derand    ML-DSA.KeyGen_internal(xi) (Alg. 6)
 *   keypair           ML-DSA.KeyGen (Alg. 1): xi from rng
 *   sign_derand       ML-DSA.Sign (Alg. 2) with rnd given (32 zero bytes: deterministic)
 *   sign              ML-DSA.Sign (Alg. 2), hedged: rnd from rng
 *   sign_internal     ML-DSA.Sign_internal(sk, M', rnd) (Alg. 7)
 *   verify            ML-DSA.Verify (Alg. 3)
 *   verify_internal   ML-DSA.Verify_internal(pk, M', sig) (Alg. 8) */
#define PQPAN_MLDSA_DECLARE_API(N)                                                              \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_keypair_derand(uint8_t *pk, uint8_t *sk,             \
                                                         const uint8_t xi[32]);                \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_keypair(uint8_t *pk, uint8_t *sk, pqpan_rng_fn rng,  \
                                                  void *rng_ctx);                              \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_sign_derand(                                         \
        uint8_t *sig, const uint8_t *sk, const uint8_t *msg, size_t msg_len,                   \
        const uint8_t *ctx, size_t ctx_len, const uint8_t rnd[32]);                            \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_sign(uint8_t *sig, const uint8_t *sk,                \
                                               const uint8_t *msg, size_t msg_len,             \
                                               const uint8_t *ctx, size_t ctx_len,             \
                                               pqpan_rng_fn rng, void *rng_ctx);               \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_sign_internal(uint8_t *sig, const uint8_t *sk,       \
                                                        const uint8_t *mprime,                 \
                                                        size_t mprime_len,                     \
                                                        const uint8_t rnd[32]);                \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_verify(const uint8_t *pk, const uint8_t *msg,        \
                                                 size_t msg_len, const uint8_t *ctx,           \
                                                 size_t ctx_len, const uint8_t *sig,           \
                                                 size_t sig_len);                              \
    PQPAN_MUST_CHECK int pqpan_mldsa##N##_verify_internal(const uint8_t *pk,                   \
                                                          const uint8_t *mprime,               \
                                                          size_t mprime_len,                   \
                                                          const uint8_t *sig, size_t sig_len);

PQPAN_MLDSA_DECLARE_API(44)
PQPAN_MLDSA_DECLARE_API(65)
PQPAN_MLDSA_DECLARE_API(87)

/* Parameter-generic layer: one descriptor per parameter set. */
enum pqpan_sig_id {
    PQPAN_SIG_MLDSA44 = 1,
    PQPAN_SIG_MLDSA65 = 2,
    PQPAN_SIG_MLDSA87 = 3
};
#define PQPAN_SIG_COUNT 3

struct pqpan_sig {
    enum pqpan_sig_id id;
    const char *name;           /* "ML-DSA-44", "ML-DSA-65", "ML-DSA-87" (FIPS 204 §4) */
    unsigned security_category; /* NIST category 2, 3, 5 (FIPS 204 Table 1) */
    size_t pk_bytes;
    size_t sk_bytes;
    size_t sig_bytes;
    int (*keypair_derand)(uint8_t *pk, uint8_t *sk, const uint8_t xi[32]);
    int (*keypair)(uint8_t *pk, uint8_t *sk, pqpan_rng_fn rng, void *rng_ctx);
    int (*sign_derand)(uint8_t *sig, const uint8_t *sk, const uint8_t *msg, size_t msg_len,
                       const uint8_t *ctx, size_t ctx_len, const uint8_t rnd[32]);
    int (*sign)(uint8_t *sig, const uint8_t *sk, const uint8_t *msg, size_t msg_len,
                const uint8_t *ctx, size_t ctx_len, pqpan_rng_fn rng, void *rng_ctx);
    int (*sign_internal)(uint8_t *sig, const uint8_t *sk, const uint8_t *mprime,
                         size_t mprime_len, const uint8_t rnd[32]);
    int (*verify)(const uint8_t *pk, const uint8_t *msg, size_t msg_len, const uint8_t *ctx,
                  size_t ctx_len, const uint8_t *sig, size_t sig_len);
    int (*verify_internal)(const uint8_t *pk, const uint8_t *mprime, size_t mprime_len,
                           const uint8_t *sig, size_t sig_len);
};

/* The descriptor for an id, or NULL if the id is unknown. */
const struct pqpan_sig *pqpan_sig_by_id(enum pqpan_sig_id id);
/* The descriptor for a name ("ML-DSA-65"; case-sensitive), or NULL. */
const struct pqpan_sig *pqpan_sig_by_name(const char *name);
/* The i-th descriptor for i < PQPAN_SIG_COUNT in increasing security, else NULL. */
const struct pqpan_sig *pqpan_sig_at(size_t i);

#endif
