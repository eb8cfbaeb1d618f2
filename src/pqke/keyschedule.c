/* PQKE key schedule (docs/PROTOCOL.md §3): KMAC256 as the KDF of NIST SP 800-108r1 §4.4
 * (K_OUT = KMAC256(K_IN, Context, L, Label)) and as the MAC of the confirmation tags. */
#include <string.h>

#include "pqke/pqke_internal.h"
#include "pqpan/kmac.h"

/* The customization strings S (SP 800-185 §4.2), one per derived quantity. */
static const char keys_label[] = "pqpan-pqke-v1 keys";
static const char responder_label[] = "pqpan-pqke-v1 responder confirm";
static const char initiator_label[] = "pqpan-pqke-v1 initiator confirm";

#define KEYS_OUT_BYTES                                                                            \
    (PQPAN_PQKE_SESSION_KEY_BYTES + PQKE_CONFIRM_KEY_BYTES + PQKE_CONFIRM_KEY_BYTES)

_Static_assert(sizeof(struct pqpan_pqke_keys) == KEYS_OUT_BYTES,
               "struct pqpan_pqke_keys is the 80-byte KDF output without padding");

/* K_OUT = KMAC256(K_IN = ss, Context = th, L = 640, Label = keys_label), split as
 * session key (16) | responder confirmation key (32) | initiator confirmation key (32). */
int pqpan_pqke_derive_keys(struct pqpan_pqke_keys *keys, const uint8_t ss[PQKE_SS_BYTES],
                           const uint8_t th[PQKE_TH_BYTES])
{
    uint8_t out[KEYS_OUT_BYTES];
    int rc = pqpan_kmac256(out, sizeof out, ss, PQKE_SS_BYTES, th, PQKE_TH_BYTES,
                           (const uint8_t *)keys_label, sizeof keys_label - 1);
    if (rc == PQPAN_OK) {
        memcpy(keys->session_key, out, PQPAN_PQKE_SESSION_KEY_BYTES);
        memcpy(keys->responder_confirm_key, out + PQPAN_PQKE_SESSION_KEY_BYTES,
               PQKE_CONFIRM_KEY_BYTES);
        memcpy(keys->initiator_confirm_key,
               out + PQPAN_PQKE_SESSION_KEY_BYTES + PQKE_CONFIRM_KEY_BYTES,
               PQKE_CONFIRM_KEY_BYTES);
    } else {
        pqpan_wipe(keys, sizeof *keys);
    }
    pqpan_wipe(out, sizeof out);
    return rc;
}

/* tag = KMAC256(K = the role's confirmation key, X = th, L = 256, S = the role's label). */
int pqpan_pqke_confirm_tag(uint8_t tag[PQPAN_PQKE_TAG_BYTES], const struct pqpan_pqke_keys *keys,
                           enum pqpan_pqke_role role, const uint8_t th[PQKE_TH_BYTES])
{
    const int is_responder = role == PQPAN_PQKE_ROLE_RESPONDER;
    const uint8_t *key = is_responder ? keys->responder_confirm_key : keys->initiator_confirm_key;
    const char *label = is_responder ? responder_label : initiator_label;
    return pqpan_kmac256(tag, PQPAN_PQKE_TAG_BYTES, key, PQKE_CONFIRM_KEY_BYTES, th,
                         PQKE_TH_BYTES, (const uint8_t *)label, strlen(label));
}
