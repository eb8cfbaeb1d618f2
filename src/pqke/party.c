/* What the PQKE initiator and responder share: argument checks and handing over a
 * session (docs/PROTOCOL.md §4). */
#include <string.h>

#include "pqke/pqke_internal.h"

/* 1 if a credential a step needs (bit of needs) is missing. */
static int missing(unsigned needs, unsigned bit, const uint8_t *field)
{
    return (needs & bit) != 0 && field == 0;
}

int pqpan_pqke_check_credentials(const struct pqpan_pqke_credentials *cred, unsigned needs,
                                 unsigned sig)
{
    const unsigned sig_keys = PQKE_NEED_OWN_SK | PQKE_NEED_PEER_PK;
    if (needs == 0) {
        return PQPAN_OK;
    }
    if (cred == 0 || missing(needs, PQKE_NEED_PSK, cred->psk) ||
        missing(needs, PQKE_NEED_OWN_DK, cred->own_dk) ||
        missing(needs, PQKE_NEED_PEER_EK, cred->peer_ek) ||
        missing(needs, PQKE_NEED_OWN_SK, cred->own_sk) ||
        missing(needs, PQKE_NEED_PEER_PK, cred->peer_pk)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if ((needs & sig_keys) != 0 && (pqpan_sig_by_id((enum pqpan_sig_id)cred->sig) == 0 ||
                                    (sig != 0 && cred->sig != sig))) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
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
