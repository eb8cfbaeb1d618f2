/* PQKE key schedule (docs/PROTOCOL.md §3). KMAC256 (NIST SP 800-185 §4) is used
 *  - as the one-step key derivation of NIST SP 800-56C r2 §4 with the KMAC option, over a
 *    shared secret that may be "hybrid" (SP 800-56C r2 §2: Z' = Z || T, a standard shared
 *    secret followed by auxiliary ones): Z = ss_e || [ss_ecdh] || [ss_static_r] ||
 *    [ss_static_i] || [psk];
 *  - as the KDF in the form of SP 800-108r1 §4.4 (K_OUT = KMAC256(K_IN, Context, L, Label)):
 *    K_IN = Z, Context = the transcript hash th, Label = the customization string;
 *  - as the MAC of the confirmation tags and the numeric comparison's commitment and value.
 * The PSK enters as an auxiliary secret after the KEM secret(s), as TLS 1.3 psk_dhe_ke feeds
 * both the PSK and the (EC)DHE secret into one key schedule (RFC 8446 §7.1) and Noise's psk
 * modifier mixes the PSK into the chaining key (Noise rev 34 §9.2). */
#include <string.h>

#include "crypto/ct_testing.h"
#include "pqke/pqke_internal.h"
#include "pqpan/kmac.h"

/* The customization strings S (SP 800-185 §4.2), one per derived quantity. */
static const char keys_label[] = "pqpan-pqke-v2 keys";
static const char responder_label[] = "pqpan-pqke-v2 responder confirm";
static const char initiator_label[] = "pqpan-pqke-v2 initiator confirm";
static const char commit_label[] = "pqpan-pqke-v2 numeric commit";
static const char value_label[] = "pqpan-pqke-v2 numeric value";

#define KEYS_OUT_MAX_BYTES (2 * PQPAN_PQKE_KEY_MAX_BYTES + 2 * PQKE_CONFIRM_KEY_BYTES)

void pqpan_pqke_z_append(struct pqpan_pqke_z *z, const uint8_t *secret, size_t len)
{
    memcpy(z->bytes + z->len, secret, len);
    z->len += len;
}

/* K_OUT = KMAC256(K_IN = Z, Context = th, L = 8 (2 key_bytes + 64), Label = keys_label),
 * split as key_i2r | key_r2i | responder confirmation key | initiator confirmation key.
 * The output length is an input of KMAC, so keys of 16 and of 32 bytes are unrelated. */
int pqpan_pqke_derive_keys(struct pqpan_pqke_keys *keys, const struct pqpan_pqke_z *z,
                           size_t key_bytes, const uint8_t th[PQKE_TH_BYTES])
{
    uint8_t out[KEYS_OUT_MAX_BYTES];
    size_t n = 2 * key_bytes + 2 * PQKE_CONFIRM_KEY_BYTES;
    int rc;
    memset(keys, 0, sizeof *keys);
    if (key_bytes == 0 || key_bytes > PQPAN_PQKE_KEY_MAX_BYTES) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_kmac256(out, n, z->bytes, z->len, th, PQKE_TH_BYTES, (const uint8_t *)keys_label,
                       sizeof keys_label - 1);
    if (rc == PQPAN_OK) {
        keys->key_bytes = key_bytes;
        memcpy(keys->key_i2r, out, key_bytes);
        memcpy(keys->key_r2i, out + key_bytes, key_bytes);
        memcpy(keys->responder_confirm_key, out + 2 * key_bytes, PQKE_CONFIRM_KEY_BYTES);
        memcpy(keys->initiator_confirm_key, out + 2 * key_bytes + PQKE_CONFIRM_KEY_BYTES,
               PQKE_CONFIRM_KEY_BYTES);
    }
    pqpan_wipe(out, sizeof out);
    return rc;
}

/* tag = KMAC256(K = the role's confirmation key, X = th || [n_I], L = 256, S = the role's
 * label): in numeric mode the initiator's tag also covers the nonce FIN carries, so a changed
 * nonce is refused as a changed tag is. */
int pqpan_pqke_confirm_tag(uint8_t tag[PQPAN_PQKE_TAG_BYTES],
                           const uint8_t key[PQKE_CONFIRM_KEY_BYTES], enum pqpan_pqke_role role,
                           const uint8_t th[PQKE_TH_BYTES], const uint8_t *numeric_nonce)
{
    const char *label = role == PQPAN_PQKE_ROLE_RESPONDER ? responder_label : initiator_label;
    uint8_t x[PQKE_TH_BYTES + PQPAN_PQKE_NUMERIC_NONCE_BYTES];
    size_t x_len = PQKE_TH_BYTES;
    int rc;
    memcpy(x, th, PQKE_TH_BYTES);
    if (numeric_nonce != 0) {
        memcpy(x + PQKE_TH_BYTES, numeric_nonce, PQPAN_PQKE_NUMERIC_NONCE_BYTES);
        x_len += PQPAN_PQKE_NUMERIC_NONCE_BYTES;
    }
    rc = pqpan_kmac256(tag, PQPAN_PQKE_TAG_BYTES, key, PQKE_CONFIRM_KEY_BYTES, x, x_len,
                       (const uint8_t *)label, strlen(label));
    pqpan_wipe(x, sizeof x);
    return rc;
}

/* The commitment of LE Secure Connections' Numeric Comparison (Core v5.4 Vol 3 Part H
 * §2.3.5.6.2: the non-initiating device commits, Cb = f4(PKbx, PKax, Nb, 0), before it sees
 * Na), with KMAC256 as the commitment function: the responder commits to its nonce n_R in
 * RESP, before the initiator reveals n_I in FIN, and reveals n_R in REVEAL. KMAC256 keyed
 * with the 256-bit nonce hides it; its 256-bit output binds it. */
int pqpan_pqke_numeric_commit(uint8_t commit[PQPAN_PQKE_COMMIT_BYTES],
                              const uint8_t n_r[PQPAN_PQKE_NUMERIC_NONCE_BYTES])
{
    return pqpan_kmac256(commit, PQPAN_PQKE_COMMIT_BYTES, n_r, PQPAN_PQKE_NUMERIC_NONCE_BYTES, 0,
                         0, (const uint8_t *)commit_label, sizeof commit_label - 1);
}

/* The value both devices display, as Va = g2(PKax, PKbx, Na, Nb) mod 10^6 (Core v5.4 Vol 3
 * Part H §2.3.5.6.2, §2.2.9): here 64 bits of KMAC256(n_I || n_R, th) mod 10^6 (th covers
 * both exchange nonces, every key share and the commitment; the bias of a 64-bit value mod
 * 10^6 is below 2^-44). */
int pqpan_pqke_numeric_value(uint32_t *value, const uint8_t n_i[PQPAN_PQKE_NUMERIC_NONCE_BYTES],
                             const uint8_t n_r[PQPAN_PQKE_NUMERIC_NONCE_BYTES],
                             const uint8_t th[PQKE_TH_BYTES])
{
    uint8_t key[2 * PQPAN_PQKE_NUMERIC_NONCE_BYTES], out[8];
    uint64_t v = 0;
    size_t i;
    int rc;
    memcpy(key, n_i, PQPAN_PQKE_NUMERIC_NONCE_BYTES);
    memcpy(key + PQPAN_PQKE_NUMERIC_NONCE_BYTES, n_r, PQPAN_PQKE_NUMERIC_NONCE_BYTES);
    rc = pqpan_kmac256(out, sizeof out, key, sizeof key, th, PQKE_TH_BYTES,
                       (const uint8_t *)value_label, sizeof value_label - 1);
    pqpan_wipe(key, sizeof key);
    for (i = 0; i < sizeof out; i++) {
        v |= (uint64_t)out[i] << (8 * i);
    }
    /* The value is shown to the user: public by design (and the division may branch). */
    PQPAN_CT_DECLASSIFY(&v, sizeof v);
    *value = rc == PQPAN_OK ? (uint32_t)(v % PQPAN_PQKE_NUMERIC_MODULUS) : 0u;
    pqpan_wipe(out, sizeof out);
    return rc;
}

void pqpan_pqke_keep_secrets(struct pqpan_pqke_secrets *s, const struct pqpan_pqke_keys *keys,
                             const uint8_t th[PQKE_TH_BYTES])
{
    memcpy(s->key_i2r, keys->key_i2r, sizeof s->key_i2r);
    memcpy(s->key_r2i, keys->key_r2i, sizeof s->key_r2i);
    memcpy(s->th, th, sizeof s->th);
}

int pqpan_pqke_tags_equal(const uint8_t *a, const uint8_t *b)
{
    int equal = pqpan_ct_equal(a, b, PQPAN_PQKE_TAG_BYTES);
    PQPAN_CT_DECLASSIFY(&equal, sizeof equal);
    return equal;
}
