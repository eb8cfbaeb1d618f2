/* Constant-time check of the PQKE parties under valgrind memcheck, every suite (ML-KEM alone
 * and with P-256) and every mode: every byte the injected random source hands out (nonces,
 * KeyGen's d and z, Encaps' m, the P-256 private keys, the numeric secret, ML-DSA's rnd) is
 * marked undefined, and so are the long-term secrets (the PSK, the static decapsulation keys
 * and the ML-DSA secret keys but their public parts), so any branch or memory index that
 * depends on them or on anything derived from them (dk, the shared secrets, the derived
 * keys, the tags, the commitment, the signing state) is reported and the run fails. A
 * tampered RESP goes through the implicit-rejection (or, in the sig modes, the signature
 * refusal) and refusal paths too. Messages, once a party has sent them, are public and
 * marked defined again; the only secret-derived values a party may branch on are the tag
 * comparisons' verdicts, in numeric mode the displayed value, and what ML-DSA and P-256
 * declassify themselves (docs/SIG.md, docs/ECDH.md: how many signing attempts, whether a
 * drawn P-256 key is in range, the public outputs), all through src/crypto/ct_testing.h. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))
#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))

static int secret_rng(void *ctx, uint8_t *out, size_t len)
{
    uint8_t *counter = ctx;
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)(*counter + 31 * i);
    }
    (*counter)++;
    SECRET(out, len);
    return 0;
}

static int public_rng(void *ctx, uint8_t *out, size_t len)
{
    int rc = secret_rng(ctx, out, len);
    PUBLIC(out, len);
    return rc;
}

/* The public parts of an ML-KEM dk (FIPS 203 Alg. 16: dk = dk_pke || ek || H(ek) || z): ek and
 * H(ek), which Decaps' §7.3 check branches on. */
static void dk_public_parts(uint8_t *dk, size_t ek_bytes)
{
    PUBLIC(dk + ek_bytes - 32, ek_bytes + 32);
}

/* The secret parts of an ML-DSA sk (FIPS 204 Alg. 24: rho || K || tr || s1 || s2 || t0): all
 * but rho (in pk) and tr = H(pk), which PQKE puts into the transcript. */
static void sk_secret_parts(uint8_t *sk, size_t sk_bytes)
{
    SECRET(sk + 32, 32);
    SECRET(sk + 128, sk_bytes - 128);
}

struct world {
    uint8_t psk[PQPAN_PQKE_PSK_BYTES];
    uint8_t r_ek[PQPAN_KEM_EK_MAX_BYTES], r_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t i_ek[PQPAN_KEM_EK_MAX_BYTES], i_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t r_pk[PQPAN_SIG_PK_MAX_BYTES], r_sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t i_pk[PQPAN_SIG_PK_MAX_BYTES], i_sk[PQPAN_SIG_SK_MAX_BYTES];
};

/* Static keys made with public randomness (their generation is not under test), then the
 * secret parts and the PSK marked secret. ML-DSA keys of the set of the suite's category. */
static int provision(struct world *w, unsigned suite, uint8_t *counter)
{
    const struct pqpan_kem *kem = pqpan_kem_by_id((enum pqpan_kem_id)((suite - 1) % 3 + 1));
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)((suite - 1) % 3 + 1));
    int rc = kem->keypair(w->r_ek, w->r_dk, public_rng, counter) |
             kem->keypair(w->i_ek, w->i_dk, public_rng, counter) |
             ds->keypair(w->r_pk, w->r_sk, public_rng, counter) |
             ds->keypair(w->i_pk, w->i_sk, public_rng, counter);
    memset(w->psk, 0x5A, sizeof w->psk);
    SECRET(w->psk, sizeof w->psk);
    SECRET(w->r_dk, kem->dk_bytes);
    SECRET(w->i_dk, kem->dk_bytes);
    dk_public_parts(w->r_dk, kem->ek_bytes);
    dk_public_parts(w->i_dk, kem->ek_bytes);
    sk_secret_parts(w->r_sk, ds->sk_bytes);
    sk_secret_parts(w->i_sk, ds->sk_bytes);
    return rc;
}

/* One side's credentials (the initiator's, or the responder's): its own secrets and
 * identity, the peer's pinned keys and identity. */
static struct pqpan_pqke_credentials creds(struct world *w, unsigned suite, int initiator)
{
    static const char id_i[] = "ct initiator", id_r[] = "ct responder";
    struct pqpan_pqke_credentials c;
    memset(&c, 0, sizeof c);
    c.psk = w->psk;
    c.psk_len = sizeof w->psk;
    c.kem = (suite - 1) % 3 + 1;
    c.own_dk = initiator ? w->i_dk : w->r_dk;
    c.peer_ek = initiator ? w->r_ek : w->i_ek;
    c.sig = (suite - 1) % 3 + 1;
    c.own_sk = initiator ? w->i_sk : w->r_sk;
    c.peer_pk = initiator ? w->r_pk : w->i_pk;
    c.own_id = (const uint8_t *)(initiator ? id_i : id_r);
    c.own_id_len = sizeof id_i - 1;
    c.peer_id = (const uint8_t *)(initiator ? id_r : id_i);
    c.peer_id_len = sizeof id_r - 1;
    return c;
}

static int check(unsigned suite, unsigned mode)
{
    static struct pqpan_pqke_initiator ini, twin;
    static struct pqpan_pqke_responder resp;
    static struct world w;
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], answer[PQPAN_PQKE_RESP_MAX_BYTES];
    static const char prologue[] = "ct prologue";
    struct pqpan_pqke_policy p = {PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(mode),
                                  (const uint8_t *)prologue, sizeof prologue - 1};
    const unsigned sig = (suite - 1) % 3 + 1;
    struct pqpan_pqke_credentials ci = creds(&w, suite, 1), cr = creds(&w, suite, 0);
    struct pqpan_pqke_session s1, s2;
    static uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES], reveal[PQPAN_PQKE_REVEAL_MSG_BYTES];
    uint8_t counter = (uint8_t)(suite * 16 + mode);
    size_t init_len, resp_len, fin_len, reveal_len, none;
    size_t ek_bytes = pqpan_pqke_message_sizes(suite, mode, sig).ek_bytes;
    /* the first ciphertext byte of RESP: after the header, the sig modes' set byte, the sets */
    size_t ct_at = PQPAN_PQKE_HEADER_BYTES + PQPAN_PQKE_SETS_BYTES +
                   (pqpan_pqke_message_sizes(suite, mode, sig).sig_bytes != 0 ? 1u : 0u);
    uint32_t vi = 0, vr = 0;
    int rc = provision(&w, suite, &counter), refused;

    rc |= pqpan_pqke_initiator_init(&ini, &p, suite, mode);
    rc |= pqpan_pqke_responder_init(&resp, &p, &cr);
    rc |= pqpan_pqke_initiator_start(&ini, &ci, secret_rng, &counter, init, sizeof init, &init_len);
    PUBLIC(init, init_len);
    dk_public_parts(ini.dk, ek_bytes);
    rc |= pqpan_pqke_responder_handle(&resp, secret_rng, &counter, init, init_len, answer,
                                      sizeof answer, &resp_len);
    PUBLIC(answer, resp_len);
    /* A tampered ciphertext: implicit rejection inside Decaps, then a refused tag (sig modes:
     * the responder's signature refused first). */
    twin = ini;
    answer[ct_at] ^= 1;
    refused = pqpan_pqke_initiator_handle(&twin, answer, resp_len, fin, sizeof fin, &fin_len);
    answer[ct_at] ^= 1;
    rc |= refused == PQPAN_ERR_AUTH ? 0 : 1;
    rc |= pqpan_pqke_initiator_handle(&ini, answer, resp_len, fin, sizeof fin, &fin_len);
    PUBLIC(fin, fin_len);
    rc |= pqpan_pqke_responder_handle(&resp, NULL, NULL, fin, fin_len, reveal, sizeof reveal,
                                      &reveal_len);
    if (mode == PQPAN_PQKE_MODE_NUMERIC) {
        PUBLIC(reveal, reveal_len);
        rc |= pqpan_pqke_initiator_handle(&ini, reveal, reveal_len, NULL, 0, &none);
        rc |= pqpan_pqke_initiator_numeric_value(&ini, &vi);
        rc |= pqpan_pqke_responder_numeric_value(&resp, &vr);
        rc |= pqpan_pqke_initiator_user_confirm(&ini, vi == vr);
        rc |= pqpan_pqke_responder_user_confirm(&resp, vi == vr);
    }
    rc |= pqpan_pqke_initiator_take_session(&ini, &s1);
    rc |= pqpan_pqke_responder_take_session(&resp, &s2);
    PUBLIC(&s1, sizeof s1);
    PUBLIC(&s2, sizeof s2);
    if (rc != 0 || memcmp(&s1, &s2, sizeof s1) != 0) {
        fprintf(stderr, "suite %u mode %u: functional failure (%d)\n", suite, mode, rc);
        return 1;
    }
    return 0;
}

int main(void)
{
    static const unsigned modes[] = {PQPAN_PQKE_MODE_NONE,     PQPAN_PQKE_MODE_PSK,
                                     PQPAN_PQKE_MODE_KEM_AUTH, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL,
                                     PQPAN_PQKE_MODE_SIG,      PQPAN_PQKE_MODE_SIG_MUTUAL,
                                     PQPAN_PQKE_MODE_NUMERIC};
    unsigned suite;
    size_t m;
    int failed = 0;
    for (suite = PQPAN_PQKE_SUITE_MLKEM512; suite <= PQPAN_PQKE_SUITE_P256_MLKEM1024; suite++) {
        for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            failed |= check(suite, modes[m]);
        }
    }
    return failed;
}
