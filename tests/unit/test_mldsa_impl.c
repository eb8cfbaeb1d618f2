/* The two ML-DSA builds against each other (src/crypto/mldsa/speed.c against keygen.c,
 * sign.c, verify.c): on random seeds, messages and contexts at all three levels, key
 * generation gives the same pk and sk, signing the same signature byte for byte
 * (deterministic, rnd = 0, and hedged with a fixed random rnd; M' of the external
 * interface and of Sign_internal), and verification the same verdict on the signature
 * and on copies with one byte changed. Both builds are in the library whichever one the
 * public API uses, so this test calls their function tables directly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "crypto/mldsa/mldsa.h"
#include "pqpan/sig.h"
#include "test_support.h"

#define KEYS_PER_LEVEL 8
#define MESSAGES_PER_KEY 12
#define MSG_MAX 300

struct keypair {
    uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
};

/* Key generation of both builds from one random xi: the same pk and sk. */
static void same_keys(const struct mldsa_params *p, struct keypair *kp, uint64_t *rng)
{
    static struct keypair other;
    uint8_t xi[PQPAN_MLDSA_SEEDBYTES];
    fill_random(rng, xi, sizeof xi);
    pqpan_mldsa_small_impl.keygen(p, kp->pk, kp->sk, xi);
    pqpan_mldsa_speed_impl.keygen(p, other.pk, other.sk, xi);
    assert_memory_equal(kp->pk, other.pk, p->pk_bytes);
    assert_memory_equal(kp->sk, other.sk, p->sk_bytes);
}

/* Both builds' verdicts on sig and on a copy with the byte at a random position changed:
 * the same, and PQPAN_OK on the genuine signature. */
static void same_verdicts(const struct mldsa_params *p, const uint8_t *pk,
                          const struct mldsa_msg *m, const uint8_t *sig, uint64_t *rng)
{
    static uint8_t bad[PQPAN_SIG_SIG_MAX_BYTES];
    uint8_t flip;
    assert_int_equal(pqpan_mldsa_small_impl.verify(p, pk, m, sig, p->sig_bytes), PQPAN_OK);
    assert_int_equal(pqpan_mldsa_speed_impl.verify(p, pk, m, sig, p->sig_bytes), PQPAN_OK);
    memcpy(bad, sig, p->sig_bytes);
    fill_random(rng, &flip, 1);
    bad[splitmix64(rng) % p->sig_bytes] ^= (uint8_t)(flip | 1);
    assert_int_equal(pqpan_mldsa_small_impl.verify(p, pk, m, bad, p->sig_bytes),
                     pqpan_mldsa_speed_impl.verify(p, pk, m, bad, p->sig_bytes));
    assert_int_not_equal(pqpan_mldsa_speed_impl.verify(p, pk, m, bad, p->sig_bytes), PQPAN_OK);
}

/* One random message (and, for the external interface, context) signed by both builds
 * with rnd: the same signature, which both accept. */
static void same_signature(const struct mldsa_params *p, const struct keypair *kp,
                           const uint8_t rnd[PQPAN_MLDSA_RND_BYTES], int external, uint64_t *rng)
{
    static uint8_t msg[MSG_MAX], ctx[PQPAN_MLDSA_CTX_MAX_BYTES];
    static uint8_t small_sig[PQPAN_SIG_SIG_MAX_BYTES], speed_sig[PQPAN_SIG_SIG_MAX_BYTES];
    struct mldsa_msg m;
    memset(&m, 0, sizeof m);
    m.msg_len = (size_t)(splitmix64(rng) % MSG_MAX);
    fill_random(rng, msg, m.msg_len);
    m.msg = msg;
    if (external) {
        m.ctx_len = (size_t)(splitmix64(rng) % (sizeof ctx + 1));
        fill_random(rng, ctx, m.ctx_len);
        m.ctx = ctx;
        m.prefix[1] = (uint8_t)m.ctx_len; /* FIPS 204 Alg. 2 line 10: 0 || |ctx| || ctx || M */
        m.prefix_len = 2;
    }
    assert_int_equal(pqpan_mldsa_small_impl.sign(p, small_sig, kp->sk, &m, rnd), PQPAN_OK);
    assert_int_equal(pqpan_mldsa_speed_impl.sign(p, speed_sig, kp->sk, &m, rnd), PQPAN_OK);
    assert_memory_equal(small_sig, speed_sig, p->sig_bytes);
    same_verdicts(p, kp->pk, &m, speed_sig, rng);
}

static void test_builds_agree(void **state)
{
    static struct keypair kp;
    uint64_t rng = 0x6d6c64736131u; /* fixed: the run is reproducible */
    unsigned level, key, msg, signatures = 0;
    (void)state;
    for (level = 0; level < 3; level++) {
        const struct mldsa_params *p = pqpan_mldsa_params_at(level);
        assert_non_null(p);
        for (key = 0; key < KEYS_PER_LEVEL; key++) {
            uint8_t zero[PQPAN_MLDSA_RND_BYTES] = {0}, hedged[PQPAN_MLDSA_RND_BYTES];
            same_keys(p, &kp, &rng);
            fill_random(&rng, hedged, sizeof hedged);
            for (msg = 0; msg < MESSAGES_PER_KEY; msg++) {
                same_signature(p, &kp, zero, (int)(msg % 2), &rng);
                same_signature(p, &kp, hedged, (int)(msg % 2), &rng);
                signatures += 2;
            }
        }
    }
    assert_int_equal(signatures, 3 * KEYS_PER_LEVEL * MESSAGES_PER_KEY * 2);
    assert_null(pqpan_mldsa_params_at(3));
}

/* A secret key with an s1 coefficient out of [-eta, eta]: both builds refuse it and zero
 * the signature. */
static void test_builds_refuse_bad_key(void **state)
{
    static struct keypair kp;
    static uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES];
    const uint8_t rnd[PQPAN_MLDSA_RND_BYTES] = {0};
    const struct mldsa_params *p = pqpan_mldsa_params_at(0);
    const struct mldsa_impl *impls[2] = {&pqpan_mldsa_small_impl, &pqpan_mldsa_speed_impl};
    struct mldsa_msg m;
    uint64_t rng = 7;
    unsigned i;
    (void)state;
    memset(&m, 0, sizeof m);
    same_keys(p, &kp, &rng);
    kp.sk[2 * PQPAN_MLDSA_SEEDBYTES + PQPAN_MLDSA_TRBYTES] |= 7; /* s1[0] packed as 7 > 2 eta */
    for (i = 0; i < 2; i++) {
        memset(sig, 0xAA, sizeof sig);
        assert_int_equal(impls[i]->sign(p, sig, kp.sk, &m, rnd), PQPAN_ERR_BAD_KEY);
        assert_true(is_all_zero(sig, p->sig_bytes));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builds_agree),
        cmocka_unit_test(test_builds_refuse_bad_key),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
