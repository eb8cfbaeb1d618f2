/* ML-DSA on the Cortex-M4 against the NIST ACVP vectors embedded at build time
 * (m4/gen_acvp_mldsa.cmake): keyGen (FIPS 204 Alg. 6), sigGen through Sign_internal
 * (Alg. 7) in deterministic and hedged groups, every sigVer case (Alg. 8, valid and
 * refused), and per level a round trip through the external interface (Alg. 2, 3) with a
 * context, whose signature must fail once a bit is flipped. With the backend (PQPAN_M4_ASM),
 * also its NTT, inverse NTT and pointwise product against the portable C. */
#include <string.h>

#include "acvp_sig_kat.h"
#include "check.h"
#include "crypto/m4/backend.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/sig.h"

static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
static uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES];

static void keygen(struct pqpan_m4_tally *t, const struct pqpan_sig *s,
                   const struct pqpan_m4_kat_dsa_level *lv)
{
    for (size_t i = 0; i < lv->n_keygen; i++) {
        const struct pqpan_m4_kat_dsa_keygen *v = &lv->keygen[i];
        int rc = s->keypair_derand(pk, sk, v->seed);
        pqpan_m4_check(t, rc == 0 && memcmp(pk, v->pk, s->pk_bytes) == 0 &&
                              memcmp(sk, v->sk, s->sk_bytes) == 0,
                       "ML-DSA keyGen", v->tc_id);
    }
}

static void siggen(struct pqpan_m4_tally *t, const struct pqpan_sig *s,
                   const struct pqpan_m4_kat_dsa_level *lv)
{
    static const uint8_t zero[32] = {0};
    for (size_t i = 0; i < lv->n_siggen; i++) {
        const struct pqpan_m4_kat_dsa_siggen *v = &lv->siggen[i];
        int rc = s->sign_internal(sig, v->sk, v->msg, v->msg_len, v->rnd != NULL ? v->rnd : zero);
        pqpan_m4_check(t, rc == 0 && memcmp(sig, v->sig, s->sig_bytes) == 0, "ML-DSA sigGen",
                       v->tc_id);
    }
}

static void sigver(struct pqpan_m4_tally *t, const struct pqpan_sig *s,
                   const struct pqpan_m4_kat_dsa_level *lv)
{
    for (size_t i = 0; i < lv->n_sigver; i++) {
        const struct pqpan_m4_kat_dsa_sigver *v = &lv->sigver[i];
        int rc = s->verify_internal(lv->sigver_pk, v->msg, v->msg_len, v->sig, s->sig_bytes);
        pqpan_m4_check(t, (rc == 0) == v->passed, "ML-DSA sigVer", v->tc_id);
    }
}

static void round_trip(struct pqpan_m4_tally *t, const struct pqpan_sig *s, uint32_t id)
{
    static const uint8_t msg[] = "pqpan on a Cortex-M4", ctx[] = "m4";
    static const uint8_t xi[32] = {0x4d, 0x34}, rnd[32] = {1};
    int ok = s->keypair_derand(pk, sk, xi) == 0 &&
             s->sign_derand(sig, sk, msg, sizeof msg, ctx, sizeof ctx, rnd) == 0 &&
             s->verify(pk, msg, sizeof msg, ctx, sizeof ctx, sig, s->sig_bytes) == 0;
    sig[7] ^= 1;
    ok = ok && s->verify(pk, msg, sizeof msg, ctx, sizeof ctx, sig, s->sig_bytes) == PQPAN_ERR_AUTH;
    pqpan_m4_check(t, ok, "ML-DSA round trip", id);
}

#ifdef PQPAN_M4_ASM
/* Runs of the comparison: the first three use the extreme inputs below, the rest
 * pseudo-random ones. */
#define KERNEL_RUNS 64

/* Coefficient i of input `run` within [-bound, bound]: run 0 all +bound, run 1 all -bound,
 * run 2 the two alternately, then uniform pseudo-random values. */
static int32_t kernel_input(uint64_t *seed, uint32_t run, size_t i, int32_t bound)
{
    switch (run) {
    case 0: return bound;
    case 1: return -bound;
    case 2: return i % 2 ? -bound : bound;
    default: return (int32_t)(pqpan_m4_random(seed) % (2 * (uint64_t)bound + 1)) - bound;
    }
}

static int same_poly(const int32_t *a, const int32_t *b)
{
    return memcmp(a, b, PQPAN_MLDSA_N * sizeof a[0]) == 0;
}

/* The assembly equals ntt.c coefficient for coefficient at the ends of each input range
 * (ntt.h): the NTT on |a_i| <= q - 1; the inverse NTT on |a_i| <= 2^31 - 2^22 - 1, the
 * bound of its reduction on entry; the pointwise product on |a_i|, |b_i| <= 9q - 1, once
 * into a third array and in place of each operand, and added to an accumulator of up to
 * six earlier terms (|r_i| <= 6 (q - 1), a row of ML-DSA-87's A_hat o v before its last
 * term). */
static void kernels_against_portable(struct pqpan_m4_tally *t)
{
    static int32_t m4[PQPAN_MLDSA_N], c[PQPAN_MLDSA_N], a[PQPAN_MLDSA_N], b[PQPAN_MLDSA_N];
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (uint32_t run = 0; run < KERNEL_RUNS; run++) {
        for (size_t i = 0; i < PQPAN_MLDSA_N; i++) {
            m4[i] = c[i] = kernel_input(&seed, run, i, PQPAN_MLDSA_Q - 1);
        }
        pqpan_mldsa_ntt(m4);
        pqpan_mldsa_ntt_portable(c);
        pqpan_m4_check(t, same_poly(m4, c), "ML-DSA ntt vs portable", run);
        for (size_t i = 0; i < PQPAN_MLDSA_N; i++) {
            m4[i] = c[i] = kernel_input(&seed, run, i, INT32_MAX - (1 << 22));
        }
        pqpan_mldsa_invntt(m4);
        pqpan_mldsa_invntt_portable(c);
        pqpan_m4_check(t, same_poly(m4, c), "ML-DSA invntt vs portable", run);
        for (size_t i = 0; i < PQPAN_MLDSA_N; i++) {
            a[i] = kernel_input(&seed, run, i, 9 * PQPAN_MLDSA_Q - 1);
            b[i] = kernel_input(&seed, run ^ 1, i, 9 * PQPAN_MLDSA_Q - 1);
        }
        pqpan_mldsa_pointwise_portable(c, a, b);
        pqpan_mldsa_pointwise(m4, a, b);
        pqpan_m4_check(t, same_poly(m4, c), "ML-DSA pointwise vs portable", run);
        memcpy(m4, a, sizeof m4);
        pqpan_mldsa_pointwise(m4, m4, b);
        pqpan_m4_check(t, same_poly(m4, c), "ML-DSA pointwise r = a vs portable", run);
        memcpy(m4, b, sizeof m4);
        pqpan_mldsa_pointwise(m4, a, m4);
        pqpan_m4_check(t, same_poly(m4, c), "ML-DSA pointwise r = b vs portable", run);
        for (size_t i = 0; i < PQPAN_MLDSA_N; i++) {
            m4[i] = c[i] = kernel_input(&seed, run, i, 6 * (PQPAN_MLDSA_Q - 1));
        }
        pqpan_mldsa_pointwise_acc_portable(c, a, b);
        pqpan_mldsa_pointwise_acc(m4, a, b);
        pqpan_m4_check(t, same_poly(m4, c), "ML-DSA pointwise_acc vs portable", run);
    }
}

/* SampleInBall's swap in assembly against sampling.c: KERNEL_RUNS challenges of 60
 * positions (tau of ML-DSA-87), j drawn up to i with i itself every fourth step, random
 * signs; the two polynomials must be equal after every step. */
static void ball_against_portable(struct pqpan_m4_tally *t)
{
    static int8_t m4[PQPAN_MLDSA_N], c[PQPAN_MLDSA_N];
    uint64_t seed = 0x243f6a8885a308d3ULL;
    for (uint32_t run = 0; run < KERNEL_RUNS; run++) {
        int same = 1;
        memset(m4, 0, sizeof m4);
        memset(c, 0, sizeof c);
        for (unsigned i = PQPAN_MLDSA_N - 60; i < PQPAN_MLDSA_N; i++) {
            const uint64_t r = pqpan_m4_random(&seed);
            const unsigned j = i % 4 == 0 ? i : (unsigned)(r % (i + 1));
            const uint8_t sign = (r >> 32) & 1 ? 0xFF : 0x01;
            pqpan_mldsa_ball_step(m4, i, j, sign);
            pqpan_mldsa_ball_step_portable(c, i, j, sign);
            same &= memcmp(m4, c, sizeof c) == 0;
        }
        pqpan_m4_check(t, same, "ML-DSA SampleInBall step vs portable", run);
    }
}
#endif

struct pqpan_m4_tally pqpan_m4_test_sig(void)
{
    struct pqpan_m4_tally t = {0, 0};
#ifdef PQPAN_M4_ASM
    kernels_against_portable(&t);
    ball_against_portable(&t);
#endif
    for (size_t l = 0; l < PQPAN_M4_KAT_DSA_LEVELS; l++) {
        const struct pqpan_sig *s = pqpan_sig_at(l);
        const struct pqpan_m4_kat_dsa_level *lv = &pqpan_m4_kat_dsa_levels[l];
        keygen(&t, s, lv);
        siggen(&t, s, lv);
        sigver(&t, s, lv);
        round_trip(&t, s, (uint32_t)l);
    }
    return t;
}
