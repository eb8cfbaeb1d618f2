/* ML-DSA (FIPS 204): the checked external interface (Alg. 1-3), the internal functions
 * (Alg. 6-8) for ML-DSA-44/65/87, and the parameter-generic descriptors. */
#include <string.h>

#include "crypto/mldsa/mldsa.h"
#include "pqpan/common.h"
#include "pqpan/sig.h"

#define MLDSA_PARAMS(N)                                                                      \
    {                                                                                        \
        PQPAN_MLDSA##N##_K, PQPAN_MLDSA##N##_L, PQPAN_MLDSA##N##_ETA, PQPAN_MLDSA##N##_TAU,  \
            PQPAN_MLDSA##N##_OMEGA, PQPAN_MLDSA##N##_GAMMA1, PQPAN_MLDSA##N##_GAMMA2,        \
            PQPAN_MLDSA##N##_TAU * PQPAN_MLDSA##N##_ETA, PQPAN_MLDSA##N##_LAMBDA / 4,         \
            PQPAN_MLDSA_ETA_BITS(PQPAN_MLDSA##N##_ETA),                                      \
            PQPAN_MLDSA_Z_BITS(PQPAN_MLDSA##N##_GAMMA1),                                     \
            PQPAN_MLDSA_W1_BITS(PQPAN_MLDSA##N##_GAMMA2), PQPAN_MLDSA##N##_PK_BYTES,         \
            PQPAN_MLDSA##N##_SK_BYTES, PQPAN_MLDSA##N##_SIG_BYTES                            \
    }

static const struct mldsa_params params44 = MLDSA_PARAMS(44);
static const struct mldsa_params params65 = MLDSA_PARAMS(65);
static const struct mldsa_params params87 = MLDSA_PARAMS(87);

const struct mldsa_params *pqpan_mldsa_params_at(unsigned i)
{
    static const struct mldsa_params *const all[] = {&params44, &params65, &params87};
    return i < sizeof all / sizeof all[0] ? all[i] : NULL;
}

/* M' of Alg. 2 line 10 / Alg. 3 line 5 (ctx = NULL allowed when ctx_len = 0), or of the
 * internal functions when external = 0. -1 for a NULL pointer with a non-zero length or a
 * context longer than 255 bytes. */
static int make_msg(struct mldsa_msg *m, int external, const uint8_t *msg, size_t msg_len,
                    const uint8_t *ctx, size_t ctx_len)
{
    memset(m, 0, sizeof *m);
    if ((msg == NULL && msg_len > 0) || (ctx == NULL && ctx_len > 0) ||
        ctx_len > PQPAN_MLDSA_CTX_MAX_BYTES) {
        return -1;
    }
    if (external) {
        m->prefix[0] = 0; /* IntegerToBytes(0, 1): pure ML-DSA, not HashML-DSA */
        m->prefix[1] = (uint8_t)ctx_len;
        m->prefix_len = 2;
        m->ctx = ctx;
        m->ctx_len = ctx_len;
    }
    m->msg = msg;
    m->msg_len = msg_len;
    return 0;
}

static int keypair_derand(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                          const uint8_t *xi)
{
    if (pk == NULL || sk == NULL || xi == NULL) {
        if (pk != NULL) {
            memset(pk, 0, p->pk_bytes);
        }
        if (sk != NULL) {
            memset(sk, 0, p->sk_bytes);
        }
        return PQPAN_ERR_INVALID_ARG;
    }
    pqpan_mldsa_build_keygen(p, pk, sk, xi);
    return PQPAN_OK;
}

/* ML-DSA.KeyGen (Alg. 1): xi from the random source. */
static int keypair(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk, pqpan_rng_fn rng,
                   void *rng_ctx)
{
    uint8_t xi[PQPAN_MLDSA_SEED_BYTES];
    int ret;
    if (rng == NULL) {
        return keypair_derand(p, pk, sk, NULL);
    }
    if (rng(rng_ctx, xi, sizeof xi) != 0) {
        (void)keypair_derand(p, pk, sk, NULL); /* zeroes the outputs */
        ret = PQPAN_ERR_RNG;
    } else {
        ret = keypair_derand(p, pk, sk, xi);
    }
    pqpan_wipe(xi, sizeof xi);
    return ret;
}

/* Sign_internal on M' given as pieces, after the argument checks. */
static int sign_msg(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk, int external,
                    const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                    const uint8_t *rnd)
{
    struct mldsa_msg m;
    if (sig == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (sk == NULL || rnd == NULL || make_msg(&m, external, msg, msg_len, ctx, ctx_len) != 0) {
        memset(sig, 0, p->sig_bytes);
        return ctx_len > PQPAN_MLDSA_CTX_MAX_BYTES ? PQPAN_ERR_BAD_LENGTH : PQPAN_ERR_INVALID_ARG;
    }
    return pqpan_mldsa_build_sign(p, sig, sk, &m, rnd);
}

/* ML-DSA.Sign (Alg. 2) hedged: rnd from the random source (line 5). */
static int sign_hedged(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                       const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                       pqpan_rng_fn rng, void *rng_ctx)
{
    uint8_t rnd[PQPAN_MLDSA_RND_BYTES];
    int ret;
    if (rng == NULL) {
        return sign_msg(p, sig, sk, 1, msg, msg_len, ctx, ctx_len, NULL);
    }
    if (rng(rng_ctx, rnd, sizeof rnd) != 0) {
        if (sig != NULL) {
            memset(sig, 0, p->sig_bytes);
        }
        ret = PQPAN_ERR_RNG;
    } else {
        ret = sign_msg(p, sig, sk, 1, msg, msg_len, ctx, ctx_len, rnd);
    }
    pqpan_wipe(rnd, sizeof rnd);
    return ret;
}

static int verify_msg(const struct mldsa_params *p, const uint8_t *pk, int external,
                      const uint8_t *msg, size_t msg_len, const uint8_t *ctx, size_t ctx_len,
                      const uint8_t *sig, size_t sig_len)
{
    struct mldsa_msg m;
    if (ctx_len > PQPAN_MLDSA_CTX_MAX_BYTES) {
        return PQPAN_ERR_BAD_LENGTH; /* Alg. 3 line 1 */
    }
    if (pk == NULL || sig == NULL || make_msg(&m, external, msg, msg_len, ctx, ctx_len) != 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return pqpan_mldsa_build_verify(p, pk, &m, sig, sig_len);
}

/* The public entry points of one parameter set, forwarding to the generic code. */
#define PQPAN_MLDSA_DEFINE_API(N)                                                              \
    int pqpan_mldsa##N##_keypair_derand(uint8_t *pk, uint8_t *sk, const uint8_t xi[32])       \
    {                                                                                          \
        return keypair_derand(&params##N, pk, sk, xi);                                         \
    }                                                                                          \
    int pqpan_mldsa##N##_keypair(uint8_t *pk, uint8_t *sk, pqpan_rng_fn rng, void *rng_ctx)   \
    {                                                                                          \
        return keypair(&params##N, pk, sk, rng, rng_ctx);                                      \
    }                                                                                          \
    int pqpan_mldsa##N##_sign_derand(uint8_t *sig, const uint8_t *sk, const uint8_t *msg,     \
                                     size_t msg_len, const uint8_t *ctx, size_t ctx_len,       \
                                     const uint8_t rnd[32])                                    \
    {                                                                                          \
        return sign_msg(&params##N, sig, sk, 1, msg, msg_len, ctx, ctx_len, rnd);              \
    }                                                                                          \
    int pqpan_mldsa##N##_sign(uint8_t *sig, const uint8_t *sk, const uint8_t *msg,            \
                              size_t msg_len, const uint8_t *ctx, size_t ctx_len,              \
                              pqpan_rng_fn rng, void *rng_ctx)                                 \
    {                                                                                          \
        return sign_hedged(&params##N, sig, sk, msg, msg_len, ctx, ctx_len, rng, rng_ctx);     \
    }                                                                                          \
    int pqpan_mldsa##N##_sign_internal(uint8_t *sig, const uint8_t *sk, const uint8_t *mprime, \
                                       size_t mprime_len, const uint8_t rnd[32])               \
    {                                                                                          \
        return sign_msg(&params##N, sig, sk, 0, mprime, mprime_len, NULL, 0, rnd);             \
    }                                                                                          \
    int pqpan_mldsa##N##_verify(const uint8_t *pk, const uint8_t *msg, size_t msg_len,        \
                                const uint8_t *ctx, size_t ctx_len, const uint8_t *sig,        \
                                size_t sig_len)                                                \
    {                                                                                          \
        return verify_msg(&params##N, pk, 1, msg, msg_len, ctx, ctx_len, sig, sig_len);        \
    }                                                                                          \
    int pqpan_mldsa##N##_verify_internal(const uint8_t *pk, const uint8_t *mprime,             \
                                         size_t mprime_len, const uint8_t *sig,                \
                                         size_t sig_len)                                       \
    {                                                                                          \
        return verify_msg(&params##N, pk, 0, mprime, mprime_len, NULL, 0, sig, sig_len);       \
    }

PQPAN_MLDSA_DEFINE_API(44)
PQPAN_MLDSA_DEFINE_API(65)
PQPAN_MLDSA_DEFINE_API(87)

/* Names and NIST security categories from FIPS 204 §4 and Table 1. */
#define PQPAN_MLDSA_DESCRIPTOR(N, id, category)                                                \
    {                                                                                          \
        id, "ML-DSA-" #N, category, PQPAN_MLDSA##N##_PK_BYTES, PQPAN_MLDSA##N##_SK_BYTES,      \
            PQPAN_MLDSA##N##_SIG_BYTES, pqpan_mldsa##N##_keypair_derand,                       \
            pqpan_mldsa##N##_keypair, pqpan_mldsa##N##_sign_derand, pqpan_mldsa##N##_sign,     \
            pqpan_mldsa##N##_sign_internal, pqpan_mldsa##N##_verify,                           \
            pqpan_mldsa##N##_verify_internal                                                   \
    }

static const struct pqpan_sig sigs[PQPAN_SIG_COUNT] = {
    PQPAN_MLDSA_DESCRIPTOR(44, PQPAN_SIG_MLDSA44, 2),
    PQPAN_MLDSA_DESCRIPTOR(65, PQPAN_SIG_MLDSA65, 3),
    PQPAN_MLDSA_DESCRIPTOR(87, PQPAN_SIG_MLDSA87, 5),
};

const struct pqpan_sig *pqpan_sig_at(size_t i)
{
    return i < PQPAN_SIG_COUNT ? &sigs[i] : NULL;
}

const struct pqpan_sig *pqpan_sig_by_id(enum pqpan_sig_id id)
{
    size_t i;
    for (i = 0; i < PQPAN_SIG_COUNT; i++) {
        if (sigs[i].id == id) {
            return &sigs[i];
        }
    }
    return NULL;
}

const struct pqpan_sig *pqpan_sig_by_name(const char *name)
{
    size_t i;
    if (name == NULL) {
        return NULL;
    }
    for (i = 0; i < PQPAN_SIG_COUNT; i++) {
        if (strcmp(sigs[i].name, name) == 0) {
            return &sigs[i];
        }
    }
    return NULL;
}
