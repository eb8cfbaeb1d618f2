/* Constant-time check of ML-DSA under valgrind memcheck: the key-generation seed xi, the
 * secret parts of sk (K, s1, s2, t0) and the signing randomness rnd are marked undefined,
 * so any branch or memory index that depends on them is reported and the run fails
 * (--error-exitcode=1). What FIPS 204 publishes is marked defined before use: pk, and in
 * sk the seed rho and tr = H(pk). The library is linked in its PQPAN_CT_TESTING build,
 * where it declassifies, and only there (src/crypto/ct_testing.h; docs/SIG.md): rho in
 * KeyGen (it is published in pk), the verdict of the secret-key range check, which
 * half-bytes RejBoundedPoly rejects and which bytes SampleInBall rejects (both independent
 * of the values accepted), the accept/reject verdict of each signing attempt (FIPS 204
 * §3.4: the number of attempts may be seen; the speed build declassifies the outcome of
 * each of Alg. 7's checks in turn, ||z||, ||r0||, then ||ct0|| with the hint count, and
 * stops at the first that fails, so every accepted attempt runs all three on secret
 * data), and the accepted signature. Signing runs
 * deterministic (rnd = 0, still marked secret) and hedged, through the external and the
 * internal interface, and the signature must verify. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/sig.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

/* sk = rho (32) || K (32) || tr (64) || s1 || s2 || t0 (FIPS 204 Alg. 24). */
#define SK_RHO 32
#define SK_TR_OFFSET 64
#define SK_TR 64

static int secret_rng(void *ctx, uint8_t *out, size_t len)
{
    memset(out, *(const uint8_t *)ctx, len);
    SECRET(out, len);
    return 0;
}

static int sign_and_verify(const struct pqpan_sig *sig, const uint8_t *pk, const uint8_t *sk,
                           uint8_t *s, int how)
{
    static const uint8_t msg[] = "constant time", ctx[] = "pqpan";
    uint8_t rnd[32], fill = 0x5A;
    int ret;
    memset(rnd, how == 0 ? 0 : 0x77, sizeof rnd);
    SECRET(rnd, sizeof rnd);
    if (how == 0) {
        ret = sig->sign_derand(s, sk, msg, sizeof msg, ctx, sizeof ctx, rnd);
    } else if (how == 1) {
        ret = sig->sign(s, sk, msg, sizeof msg, ctx, sizeof ctx, secret_rng, &fill);
    } else {
        ret = sig->sign_internal(s, sk, msg, sizeof msg, rnd);
    }
    PUBLIC(&ret, sizeof ret);
    PUBLIC(s, sig->sig_bytes);
    if (ret != 0) {
        return ret;
    }
    return how == 2 ? sig->verify_internal(pk, msg, sizeof msg, s, sig->sig_bytes)
                    : sig->verify(pk, msg, sizeof msg, ctx, sizeof ctx, s, sig->sig_bytes);
}

static int check_level(const struct pqpan_sig *sig)
{
    static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
    static uint8_t s[PQPAN_SIG_SIG_MAX_BYTES];
    uint8_t xi[32];
    int ret, how;

    memset(xi, 0x11 * (int)sig->id, sizeof xi);
    SECRET(xi, sizeof xi);
    ret = sig->keypair_derand(pk, sk, xi);
    PUBLIC(&ret, sizeof ret);
    PUBLIC(pk, sig->pk_bytes);
    PUBLIC(sk, SK_RHO);
    PUBLIC(sk + SK_TR_OFFSET, SK_TR);
    for (how = 0; how < 3 && ret == 0; how++) {
        ret = sign_and_verify(sig, pk, sk, s, how);
    }
    if (ret != 0) {
        fprintf(stderr, "%s: functional failure (%d)\n", sig->name, ret);
        return 1;
    }
    return 0;
}

int main(void)
{
    size_t i;
    int failed = 0;
    for (i = 0; i < PQPAN_SIG_COUNT; i++) {
        failed |= check_level(pqpan_sig_at(i));
    }
    return failed;
}
