/* ML-DSA on the Cortex-M4 against the NIST ACVP vectors embedded at build time
 * (m4/gen_acvp_mldsa.cmake): keyGen (FIPS 204 Alg. 6), sigGen through Sign_internal
 * (Alg. 7) in deterministic and hedged groups, every sigVer case (Alg. 8, valid and
 * refused), and per level a round trip through the external interface (Alg. 2, 3) with a
 * context, whose signature must fail once a bit is flipped. */
#include <string.h>

#include "acvp_sig_kat.h"
#include "check.h"
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

struct pqpan_m4_tally pqpan_m4_test_sig(void)
{
    struct pqpan_m4_tally t = {0, 0};
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
