/* The classical and signature primitives of PQKE (docs/PROTOCOL.md §3, §5.6, §5.7): P-256
 * ECDH of the hybrid suites (NIST SP 800-56A r3 §5.7.1.2 through ecdh.h) and ML-DSA (FIPS
 * 204 through sig.h) of the sig modes, with the pinned identities they put into the
 * transcript. */
#include <string.h>

#include "crypto/ct_testing.h"
#include "pqke/pqke_internal.h"

/* The FIPS 204 context strings (Alg. 2 / 3 ctx) of the two signatures: a signature made in
 * one role never verifies in the other, even under one key. */
static const char responder_sig_ctx[] = "pqpan-pqke-v2 responder signature";
static const char initiator_sig_ctx[] = "pqpan-pqke-v2 initiator signature";

/* skEncode (FIPS 204 Alg. 24) starts rho (32 bytes) || K (32 bytes) || tr (64 bytes). */
#define SK_TR_OFFSET 64

int pqpan_pqke_ecdh_keypair(uint8_t pub[PQPAN_PQKE_ECDH_PUBLIC_BYTES],
                            uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], pqpan_rng_fn rng,
                            void *rng_ctx)
{
    uint8_t sec1[PQPAN_ECDH_P256_PUBLIC_BYTES];
    int rc = pqpan_ecdh_p256_keypair(sec1, sk, rng, rng_ctx);
    /* SEC 1 §2.3.3 uncompressed: 04 || X || Y; the wire drops the constant 04. */
    memcpy(pub, sec1 + 1, PQPAN_PQKE_ECDH_PUBLIC_BYTES);
    return rc;
}

int pqpan_pqke_ecdh_shared(uint8_t ss[PQPAN_ECDH_P256_SHARED_BYTES],
                           const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES],
                           const uint8_t peer[PQPAN_PQKE_ECDH_PUBLIC_BYTES])
{
    uint8_t sec1[PQPAN_ECDH_P256_PUBLIC_BYTES];
    sec1[0] = 0x04;
    memcpy(sec1 + 1, peer, PQPAN_PQKE_ECDH_PUBLIC_BYTES);
    return pqpan_ecdh_p256_shared(ss, sk, sec1, sizeof sec1);
}

/* tr of one side: this party's own (from its secret key) or the pinned peer's (hashed). */
static void identity_of(uint8_t tr[PQKE_ID_BYTES], int own,
                        const struct pqpan_pqke_credentials *cred)
{
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)cred->sig);
    if (own) {
        memcpy(tr, cred->own_sk + SK_TR_OFFSET, PQKE_ID_BYTES);
    } else {
        pqpan_shake256(tr, PQKE_ID_BYTES, cred->peer_pk, ds->pk_bytes);
    }
}

/* LE16(len) || id into the transcript. */
static void absorb_id(struct pqpan_sha3_256_ctx *t, const uint8_t *id, size_t len)
{
    const uint8_t len2[2] = {(uint8_t)(len & 0xFFu), (uint8_t)((len >> 8) & 0xFFu)};
    pqpan_sha3_256_absorb(t, len2, sizeof len2);
    pqpan_sha3_256_absorb(t, id, len);
}

/* The identities block: the initiator's identity, then the responder's, whichever role this
 * party plays, so that both parties absorb the same bytes and a message reflected to the
 * party that sent it (whose own identity would then stand in the other place) does not. */
static void absorb_roles(struct pqpan_sha3_256_ctx *t, enum pqpan_pqke_role role,
                         const struct pqpan_pqke_credentials *cred)
{
    const int ini = role == PQPAN_PQKE_ROLE_INITIATOR;
    if (cred->own_id_len == 0) {
        return;
    }
    absorb_id(t, ini ? cred->own_id : cred->peer_id, ini ? cred->own_id_len : cred->peer_id_len);
    absorb_id(t, ini ? cred->peer_id : cred->own_id, ini ? cred->peer_id_len : cred->own_id_len);
}

void pqpan_pqke_absorb_identities(struct pqpan_sha3_256_ctx *t, unsigned mode,
                                  enum pqpan_pqke_role role,
                                  const struct pqpan_pqke_credentials *cred)
{
    uint8_t tr[PQKE_ID_BYTES];
    absorb_roles(t, role, cred);
    if (!pqpan_pqke_mode_sig_responder(mode)) {
        return;
    }
    identity_of(tr, role == PQPAN_PQKE_ROLE_RESPONDER, cred);
    pqpan_sha3_256_absorb(t, tr, sizeof tr);
    if (pqpan_pqke_mode_sig_initiator(mode)) {
        identity_of(tr, role == PQPAN_PQKE_ROLE_INITIATOR, cred);
        pqpan_sha3_256_absorb(t, tr, sizeof tr);
    }
    pqpan_wipe(tr, sizeof tr);
}

static const char *sig_ctx_of(enum pqpan_pqke_role role)
{
    return role == PQPAN_PQKE_ROLE_RESPONDER ? responder_sig_ctx : initiator_sig_ctx;
}

int pqpan_pqke_sign(uint8_t *sig, const struct pqpan_pqke_credentials *cred,
                    enum pqpan_pqke_role role, const uint8_t th[32],
                    const uint8_t rnd[PQPAN_MLDSA_RND_BYTES])
{
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)cred->sig);
    const char *ctx = sig_ctx_of(role);
    int rc;
    if (ds == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = ds->sign_derand(sig, cred->own_sk, th, PQKE_TH_BYTES, (const uint8_t *)ctx, strlen(ctx),
                         rnd);
    /* The signature is sent, and the responder's enters the transcript: public. */
    PQPAN_CT_DECLASSIFY(sig, ds->sig_bytes);
    return rc;
}

int pqpan_pqke_verify(const uint8_t *sig, const struct pqpan_pqke_credentials *cred,
                      enum pqpan_pqke_role role, const uint8_t th[32])
{
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)cred->sig);
    const char *ctx = sig_ctx_of(role);
    if (ds == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return ds->verify(cred->peer_pk, th, PQKE_TH_BYTES, (const uint8_t *)ctx, strlen(ctx), sig,
                      ds->sig_bytes) == PQPAN_OK
               ? PQPAN_OK
               : PQPAN_ERR_AUTH;
}
