/* What the PQKE initiator and responder share: argument checks and handing over a
 * session (docs/PROTOCOL.md §4). */
#include <string.h>

#include "pqke/pqke_internal.h"

int pqpan_pqke_check_credentials(const struct pqpan_pqke_credentials *cred, int need_psk,
                                 int need_own_dk, int need_peer_ek)
{
    if (!need_psk && !need_own_dk && !need_peer_ek) {
        return PQPAN_OK;
    }
    if (cred == 0 || (need_psk && cred->psk == 0) || (need_own_dk && cred->own_dk == 0) ||
        (need_peer_ek && cred->peer_ek == 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}

int pqpan_pqke_copy_session(struct pqpan_pqke_session *out, int have_ctx, unsigned state,
                            unsigned suite, unsigned mode, const struct pqpan_pqke_secrets *s)
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
    out->key_bytes = pqpan_pqke_message_sizes(suite, mode, 0).key_bytes;
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
