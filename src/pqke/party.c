/* What the PQKE initiator and responder share: argument checks and handing over a
 * session (docs/PROTOCOL.md §4). */
#include <string.h>

#include "pqke/pqke_internal.h"

/* 1 if a credential the exchange needs (bit of needs) is missing. */
static int missing(unsigned needs, unsigned bit, const uint8_t *field)
{
    return (needs & bit) != 0 && field == 0;
}

unsigned pqpan_pqke_needs(unsigned mode, enum pqpan_pqke_role role)
{
    const int ini = role == PQPAN_PQKE_ROLE_INITIATOR;
    const int own_ct = ini ? pqpan_pqke_mode_ct_to_initiator(mode)
                                : pqpan_pqke_mode_ct_to_responder(mode);
    const int peer_ct = ini ? pqpan_pqke_mode_ct_to_responder(mode)
                                 : pqpan_pqke_mode_ct_to_initiator(mode);
    const int own_sig = ini ? pqpan_pqke_mode_sig_initiator(mode)
                                 : pqpan_pqke_mode_sig_responder(mode);
    const int peer_sig = ini ? pqpan_pqke_mode_sig_responder(mode)
                                  : pqpan_pqke_mode_sig_initiator(mode);
    const int roles_bound = mode == PQPAN_PQKE_MODE_PSK || mode == PQPAN_PQKE_MODE_NUMERIC;
    /* The initiator's identity in sig-mutual comes from its own key even though it signs
     * only in FIN: it enters the transcript at start. */
    return (mode == PQPAN_PQKE_MODE_PSK ? PQKE_NEED_PSK : 0u) |
           (own_ct ? PQKE_NEED_OWN_DK : 0u) | (peer_ct ? PQKE_NEED_PEER_EK : 0u) |
           (own_sig ? PQKE_NEED_OWN_SK : 0u) | (peer_sig ? PQKE_NEED_PEER_PK : 0u) |
           (roles_bound ? PQKE_NEED_IDS : 0u);
}

/* The identities: needed, or given (both), 1..PQPAN_PQKE_ID_MAX_BYTES bytes each and not
 * equal (a party that names itself as its peer would accept its own reflected messages). */
static int ids_ok(const struct pqpan_pqke_credentials *cred, unsigned needs)
{
    const size_t own = cred->own_id_len, peer = cred->peer_id_len;
    if ((needs & PQKE_NEED_IDS) == 0 && own == 0 && peer == 0) {
        return 1;
    }
    if (own == 0 || peer == 0 || own > PQPAN_PQKE_ID_MAX_BYTES ||
        peer > PQPAN_PQKE_ID_MAX_BYTES || cred->own_id == 0 || cred->peer_id == 0) {
        return 0;
    }
    return own != peer || memcmp(cred->own_id, cred->peer_id, own) != 0;
}

/* The static ML-KEM keys' parameter set against the suite's: INVALID_ARG when unset,
 * SUITE when another, before any key is read. */
static int static_kem_check(const struct pqpan_pqke_credentials *cred, unsigned needs,
                            unsigned suite)
{
    const struct pqpan_kem *kem = pqpan_pqke_suite_kem(suite);
    if ((needs & (PQKE_NEED_OWN_DK | PQKE_NEED_PEER_EK)) == 0) {
        return PQPAN_OK;
    }
    if (pqpan_kem_by_id((enum pqpan_kem_id)cred->kem) == 0 || kem == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return kem->id == (enum pqpan_kem_id)cred->kem ? PQPAN_OK : PQPAN_ERR_SUITE;
}

int pqpan_pqke_check_credentials(const struct pqpan_pqke_credentials *cred, unsigned needs,
                                 unsigned suite, unsigned sig)
{
    const unsigned sig_keys = PQKE_NEED_OWN_SK | PQKE_NEED_PEER_PK;
    if (cred == 0) {
        return needs == 0 ? PQPAN_OK : PQPAN_ERR_INVALID_ARG;
    }
    if (missing(needs, PQKE_NEED_PSK, cred->psk) ||
        missing(needs, PQKE_NEED_OWN_DK, cred->own_dk) ||
        missing(needs, PQKE_NEED_PEER_EK, cred->peer_ek) ||
        missing(needs, PQKE_NEED_OWN_SK, cred->own_sk) ||
        missing(needs, PQKE_NEED_PEER_PK, cred->peer_pk) || !ids_ok(cred, needs)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if ((needs & PQKE_NEED_PSK) != 0 &&
        (cred->psk_len < PQPAN_PQKE_PSK_BYTES || cred->psk_len > PQPAN_PQKE_PSK_MAX_BYTES)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if ((needs & sig_keys) != 0 && (pqpan_sig_by_id((enum pqpan_sig_id)cred->sig) == 0 ||
                                    (sig != 0 && cred->sig != sig))) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return static_kem_check(cred, needs, suite);
}

int pqpan_pqke_copy_session(struct pqpan_pqke_session *out, int have_ctx, unsigned state,
                            unsigned suite, unsigned mode, unsigned sig,
                            const struct pqpan_pqke_secrets *s)
{
    if (out != 0) {
        pqpan_wipe(out, sizeof *out);
    }
    if (out == 0 || !have_ctx) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (state != PQPAN_PQKE_STATE_DONE) {
        return PQPAN_ERR_STATE;
    }
    out->suite = (uint8_t)suite;
    out->mode = (uint8_t)mode;
    out->sig = (uint8_t)sig;
    out->key_bytes = pqpan_pqke_message_sizes(suite, mode, sig).key_bytes;
    memcpy(out->key_i2r, s->key_i2r, out->key_bytes);
    memcpy(out->key_r2i, s->key_r2i, out->key_bytes);
    memcpy(out->transcript_hash, s->th, sizeof out->transcript_hash);
    return PQPAN_OK;
}

int pqpan_pqke_numeric_of(uint32_t *value, int have_ctx, unsigned state, uint32_t numeric)
{
    if (value == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *value = 0;
    if (!have_ctx) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (state != PQPAN_PQKE_STATE_WAIT_USER) {
        return PQPAN_ERR_STATE;
    }
    *value = numeric;
    return PQPAN_OK;
}

int pqpan_pqke_user_verdict(unsigned state, int values_match)
{
    if (state != PQPAN_PQKE_STATE_WAIT_USER) {
        return PQPAN_ERR_STATE;
    }
    return values_match ? PQPAN_OK : PQPAN_ERR_AUTH;
}
