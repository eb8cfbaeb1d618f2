/* PQKE message codecs (docs/PROTOCOL.md §2): one parse/write pair per message, explicit
 * byte codecs, lengths checked before any field is read. Where each field sits is computed
 * once, by pqpan_pqke_layout_of, from the message type, the suite and the mode. */
#include <string.h>

#include "pqke/pqke_internal.h"

#define HDR_VERSION 0
#define HDR_TYPE 1
#define HDR_SUITE 2
#define HDR_MODE 3
#define HDR_LENGTH 4 /* 16-bit little-endian */

/* Value 0 is never a suite or a mode, and no suite has value 7: those bits of a set byte must
 * be clear. */
#define SET_SUITE_BITS_VALID 0x7Eu
#define SET_MODE_BITS_VALID 0xFEu

static uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static void put_le16(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
}

/* SUITE / MODE for unknown values, else PQPAN_OK. */
static int check_suite_mode(unsigned suite, unsigned mode)
{
    if (!pqpan_pqke_suite_known(suite)) {
        return PQPAN_ERR_SUITE;
    }
    return pqpan_pqke_mode_implemented(mode) ? PQPAN_OK : PQPAN_ERR_MODE;
}

/* The fields every message starts with after the header: the ML-DSA set (sig modes), then
 * (INIT, RESP) the sets. Returns the offset after them. */
static size_t leading_fields(struct pqpan_pqke_layout *l, const struct pqpan_pqke_sizes *s,
                             int has_sets)
{
    size_t at = PQPAN_PQKE_HEADER_BYTES;
    if (s->sig_bytes != 0) {
        l->sig_set = at;
        at += PQPAN_PQKE_SIG_SET_BYTES;
    }
    if (has_sets) {
        l->sets = at;
        at += PQPAN_PQKE_SETS_BYTES;
    }
    return at;
}

static void init_layout(struct pqpan_pqke_layout *l, const struct pqpan_pqke_sizes *s, unsigned mode)
{
    size_t at = leading_fields(l, s, 1);
    l->nonce = at;
    at += PQPAN_PQKE_NONCE_BYTES;
    l->ek = at;
    l->ek_len = s->ek_bytes;
    at += s->ek_bytes;
    if (s->ecdh_bytes != 0) {
        l->ecdh = at;
        at += s->ecdh_bytes;
    }
    if (pqpan_pqke_mode_ct_to_responder(mode)) {
        l->ct_static = at;
        l->ct_static_len = s->ct_bytes;
        at += s->ct_bytes;
    }
    l->total = at;
}

/* A signature field at offset at, if present (len != 0); returns the offset after it. */
static size_t signature_field(struct pqpan_pqke_layout *l, size_t at, size_t len)
{
    if (len != 0) {
        l->sig = at;
        l->sig_len = len;
    }
    return at + len;
}

static void resp_layout(struct pqpan_pqke_layout *l, const struct pqpan_pqke_sizes *s, unsigned mode)
{
    size_t at = leading_fields(l, s, 1);
    l->ct = at;
    l->ct_len = s->ct_bytes;
    at += s->ct_bytes;
    if (s->ecdh_bytes != 0) {
        l->ecdh = at;
        at += s->ecdh_bytes;
    }
    if (pqpan_pqke_mode_ct_to_initiator(mode)) {
        l->ct_static = at;
        l->ct_static_len = s->ct_bytes;
        at += s->ct_bytes;
    }
    l->nonce = at;
    at += PQPAN_PQKE_NONCE_BYTES;
    if (mode == PQPAN_PQKE_MODE_NUMERIC) {
        l->commit = at;
        at += PQPAN_PQKE_COMMIT_BYTES;
    }
    at = signature_field(l, at, s->sig_bytes);
    l->tag = at;
    l->total = at + PQPAN_PQKE_TAG_BYTES;
}

static void fin_layout(struct pqpan_pqke_layout *l, const struct pqpan_pqke_sizes *s, unsigned mode)
{
    size_t at = leading_fields(l, s, 0);
    if (mode == PQPAN_PQKE_MODE_NUMERIC) {
        l->numeric_nonce = at;
        at += PQPAN_PQKE_NUMERIC_NONCE_BYTES;
    }
    at = signature_field(l, at, pqpan_pqke_mode_sig_initiator(mode) ? s->sig_bytes : 0u);
    l->tag = at;
    l->total = at + PQPAN_PQKE_TAG_BYTES;
}

int pqpan_pqke_layout_of(struct pqpan_pqke_layout *l, unsigned type, unsigned suite, unsigned mode,
                         unsigned sig)
{
    struct pqpan_pqke_sizes s;
    int rc = check_suite_mode(suite, mode);
    memset(l, 0, sizeof *l);
    if (rc == PQPAN_OK && pqpan_pqke_mode_sig_responder(mode) &&
        pqpan_sig_by_id((enum pqpan_sig_id)sig) == 0) {
        rc = PQPAN_ERR_MALFORMED;
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    s = pqpan_pqke_message_sizes(suite, mode, sig);
    switch (type) {
    case PQPAN_PQKE_MSG_INIT:
        init_layout(l, &s, mode);
        break;
    case PQPAN_PQKE_MSG_RESP:
        resp_layout(l, &s, mode);
        break;
    case PQPAN_PQKE_MSG_FIN:
        fin_layout(l, &s, mode);
        break;
    case PQPAN_PQKE_MSG_REVEAL:
        if (mode != PQPAN_PQKE_MODE_NUMERIC) {
            return PQPAN_ERR_MALFORMED;
        }
        l->numeric_nonce = PQPAN_PQKE_HEADER_BYTES;
        l->total = PQPAN_PQKE_REVEAL_MSG_BYTES;
        break;
    default:
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

void pqpan_pqke_clear_output(uint8_t *out, size_t cap, size_t *out_len)
{
    if (out != 0) {
        pqpan_wipe(out, cap < PQPAN_PQKE_MSG_MAX_BYTES ? cap : PQPAN_PQKE_MSG_MAX_BYTES);
    }
    if (out_len != 0) {
        *out_len = 0;
    }
}

int pqpan_pqke_header_parse(struct pqpan_pqke_header *h, const uint8_t *in, size_t in_len)
{
    if (h == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(h, 0, sizeof *h);
    if (in == 0 && in_len != 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (in_len < PQPAN_PQKE_HEADER_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    h->version = in[HDR_VERSION];
    h->type = in[HDR_TYPE];
    h->suite = in[HDR_SUITE];
    h->mode = in[HDR_MODE];
    h->length = get_le16(in + HDR_LENGTH);
    return PQPAN_OK;
}

/* A set byte pair (suites, modes) is well formed if it has only valid bits and contains the
 * message's own suite and mode. */
static int sets_ok(uint8_t suites, uint8_t modes, unsigned suite, unsigned mode)
{
    return (suites & ~SET_SUITE_BITS_VALID) == 0 && (modes & ~SET_MODE_BITS_VALID) == 0 &&
           (suites & PQPAN_PQKE_SUITE_BIT(suite)) != 0 && (modes & PQPAN_PQKE_MODE_BIT(mode)) != 0;
}

/* The ML-DSA set byte of a message of a sig mode (0 in the other modes); BAD_LENGTH if the
 * message ends before it. */
static int message_sig(unsigned *sig, const uint8_t *in, size_t in_len, unsigned mode)
{
    *sig = 0;
    if (!pqpan_pqke_mode_sig_responder(mode)) {
        return PQPAN_OK;
    }
    if (in_len < PQPAN_PQKE_HEADER_BYTES + PQPAN_PQKE_SIG_SET_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    *sig = in[PQPAN_PQKE_HEADER_BYTES];
    return PQPAN_OK;
}

/* The checks every parser shares, in the documented order; on success h, *sig and l are
 * set. */
static int check_message(const uint8_t *in, size_t in_len, unsigned type,
                         struct pqpan_pqke_header *h, unsigned *sig, struct pqpan_pqke_layout *l)
{
    int rc = pqpan_pqke_check_type(in, in_len, type);
    *sig = 0;
    if (rc == PQPAN_ERR_STATE) {
        /* To a codec a message of another type is simply not this message. */
        rc = PQPAN_ERR_MALFORMED;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_header_parse(h, in, in_len);
    }
    if (rc == PQPAN_OK) {
        rc = check_suite_mode(h->suite, h->mode);
    }
    if (rc == PQPAN_OK) {
        rc = message_sig(sig, in, in_len, h->mode);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_layout_of(l, type, h->suite, h->mode, *sig);
    }
    if (rc == PQPAN_OK && (h->length != in_len || in_len != l->total)) {
        rc = PQPAN_ERR_BAD_LENGTH;
    }
    if (rc == PQPAN_OK && l->sets != 0 &&
        !sets_ok(in[l->sets], in[l->sets + 1], h->suite, h->mode)) {
        rc = PQPAN_ERR_MALFORMED;
    }
    return rc;
}

/* Checks a writer's suite, mode, ML-DSA set and capacity and writes the header (and the set
 * byte). */
static int start_message(uint8_t *out, size_t out_cap, unsigned type, unsigned suite,
                         unsigned mode, unsigned sig, struct pqpan_pqke_layout *l)
{
    int rc = pqpan_pqke_layout_of(l, type, suite, mode, sig);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (out == 0 || out_cap < l->total) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[HDR_VERSION] = PQPAN_PQKE_VERSION;
    out[HDR_TYPE] = (uint8_t)type;
    out[HDR_SUITE] = (uint8_t)suite;
    out[HDR_MODE] = (uint8_t)mode;
    put_le16(out + HDR_LENGTH, l->total);
    if (l->sig_set != 0) {
        out[l->sig_set] = (uint8_t)sig;
    }
    return PQPAN_OK;
}

/* Copies a field into its place; memmove, as callers build messages in place. */
static void put_field(uint8_t *out, size_t at, const uint8_t *field, size_t len)
{
    memmove(out + at, field, len);
}

/* 1 if an optional field is present exactly when the layout has it, with its length. */
static int field_matches(size_t at, const uint8_t *field, size_t len, size_t want_len)
{
    return at != 0 ? field != 0 && len == want_len : field == 0;
}

/* INIT = header || [sig set] || offer (suites, modes) || nonce_i || ek || [ecdh_i] ||
 * [ct_static] (docs/PROTOCOL.md §2.2). */
int pqpan_pqke_init_parse(struct pqpan_pqke_init_msg *m, const uint8_t *in, size_t in_len)
{
    struct pqpan_pqke_header h;
    struct pqpan_pqke_layout l;
    unsigned sig;
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_INIT, &h, &sig, &l);
    if (rc != PQPAN_OK) {
        return rc;
    }
    m->suite = h.suite;
    m->mode = h.mode;
    m->sig = (uint8_t)sig;
    m->offer_suites = in[l.sets];
    m->offer_modes = in[l.sets + 1];
    m->nonce = in + l.nonce;
    m->ek = in + l.ek;
    m->ek_len = l.ek_len;
    m->ecdh = l.ecdh != 0 ? in + l.ecdh : 0;
    m->ct_static = l.ct_static != 0 ? in + l.ct_static : 0;
    m->ct_static_len = l.ct_static_len;
    return PQPAN_OK;
}

int pqpan_pqke_init_write(uint8_t *out, size_t out_cap, size_t *out_len,
                          const struct pqpan_pqke_init_msg *m)
{
    struct pqpan_pqke_layout l;
    int rc;
    if (out_len == 0 || m == 0 || m->nonce == 0 || m->ek == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_INIT, m->suite, m->mode, m->sig, &l);
    if (rc == PQPAN_OK &&
        (m->ek_len != l.ek_len ||
         !field_matches(l.ecdh, m->ecdh, PQPAN_PQKE_ECDH_PUBLIC_BYTES, PQPAN_PQKE_ECDH_PUBLIC_BYTES) ||
         !field_matches(l.ct_static, m->ct_static, m->ct_static_len, l.ct_static_len))) {
        rc = PQPAN_ERR_BAD_LENGTH;
    }
    if (rc == PQPAN_OK && !sets_ok(m->offer_suites, m->offer_modes, m->suite, m->mode)) {
        rc = PQPAN_ERR_MALFORMED;
    }
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    out[l.sets] = m->offer_suites;
    out[l.sets + 1] = m->offer_modes;
    put_field(out, l.nonce, m->nonce, PQPAN_PQKE_NONCE_BYTES);
    put_field(out, l.ek, m->ek, l.ek_len);
    if (l.ecdh != 0) {
        put_field(out, l.ecdh, m->ecdh, PQPAN_PQKE_ECDH_PUBLIC_BYTES);
    }
    if (l.ct_static != 0) {
        put_field(out, l.ct_static, m->ct_static, l.ct_static_len);
    }
    *out_len = l.total;
    return PQPAN_OK;
}

/* RESP = header || [sig set] || accepted (suites, modes) || ct || [ecdh_r] || [ct_static] ||
 * nonce_r || [commit] || [sig_r] || tag_r (docs/PROTOCOL.md §2.3). */
int pqpan_pqke_resp_parse(struct pqpan_pqke_resp_msg *m, const uint8_t *in, size_t in_len)
{
    struct pqpan_pqke_header h;
    struct pqpan_pqke_layout l;
    unsigned sig;
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_RESP, &h, &sig, &l);
    if (rc != PQPAN_OK) {
        return rc;
    }
    m->suite = h.suite;
    m->mode = h.mode;
    m->sig = (uint8_t)sig;
    m->accepted_suites = in[l.sets];
    m->accepted_modes = in[l.sets + 1];
    m->ct = in + l.ct;
    m->ct_len = l.ct_len;
    m->ecdh = l.ecdh != 0 ? in + l.ecdh : 0;
    m->ct_static = l.ct_static != 0 ? in + l.ct_static : 0;
    m->ct_static_len = l.ct_static_len;
    m->nonce = in + l.nonce;
    m->commit = l.commit != 0 ? in + l.commit : 0;
    m->signature = l.sig != 0 ? in + l.sig : 0;
    m->signature_len = l.sig_len;
    m->tag = in + l.tag;
    return PQPAN_OK;
}

int pqpan_pqke_resp_write(uint8_t *out, size_t out_cap, size_t *out_len,
                          const struct pqpan_pqke_resp_msg *m)
{
    struct pqpan_pqke_layout l;
    int rc;
    if (out_len == 0 || m == 0 || m->ct == 0 || m->nonce == 0 || m->tag == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_RESP, m->suite, m->mode, m->sig, &l);
    if (rc == PQPAN_OK &&
        (m->ct_len != l.ct_len ||
         !field_matches(l.ecdh, m->ecdh, PQPAN_PQKE_ECDH_PUBLIC_BYTES, PQPAN_PQKE_ECDH_PUBLIC_BYTES) ||
         !field_matches(l.ct_static, m->ct_static, m->ct_static_len, l.ct_static_len) ||
         !field_matches(l.commit, m->commit, PQPAN_PQKE_COMMIT_BYTES, PQPAN_PQKE_COMMIT_BYTES) ||
         !field_matches(l.sig, m->signature, m->signature_len, l.sig_len))) {
        rc = PQPAN_ERR_BAD_LENGTH;
    }
    if (rc == PQPAN_OK && !sets_ok(m->accepted_suites, m->accepted_modes, m->suite, m->mode)) {
        rc = PQPAN_ERR_MALFORMED;
    }
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    out[l.sets] = m->accepted_suites;
    out[l.sets + 1] = m->accepted_modes;
    put_field(out, l.ct, m->ct, l.ct_len);
    if (l.ecdh != 0) {
        put_field(out, l.ecdh, m->ecdh, PQPAN_PQKE_ECDH_PUBLIC_BYTES);
    }
    if (l.ct_static != 0) {
        put_field(out, l.ct_static, m->ct_static, l.ct_static_len);
    }
    put_field(out, l.nonce, m->nonce, PQPAN_PQKE_NONCE_BYTES);
    if (l.commit != 0) {
        put_field(out, l.commit, m->commit, PQPAN_PQKE_COMMIT_BYTES);
    }
    if (l.sig != 0) {
        put_field(out, l.sig, m->signature, l.sig_len);
    }
    put_field(out, l.tag, m->tag, PQPAN_PQKE_TAG_BYTES);
    *out_len = l.total;
    return PQPAN_OK;
}

/* FIN = header || [sig set] || [n_I] || [sig_i] || tag_i (docs/PROTOCOL.md §2.4). */
int pqpan_pqke_fin_parse(struct pqpan_pqke_fin_msg *m, const uint8_t *in, size_t in_len)
{
    struct pqpan_pqke_header h;
    struct pqpan_pqke_layout l;
    unsigned sig;
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_FIN, &h, &sig, &l);
    if (rc != PQPAN_OK) {
        return rc;
    }
    m->suite = h.suite;
    m->mode = h.mode;
    m->sig = (uint8_t)sig;
    m->numeric_nonce = l.numeric_nonce != 0 ? in + l.numeric_nonce : 0;
    m->signature = l.sig != 0 ? in + l.sig : 0;
    m->signature_len = l.sig_len;
    m->tag = in + l.tag;
    return PQPAN_OK;
}

int pqpan_pqke_fin_write(uint8_t *out, size_t out_cap, size_t *out_len,
                         const struct pqpan_pqke_fin_msg *m)
{
    struct pqpan_pqke_layout l;
    int rc;
    if (out_len == 0 || m == 0 || m->tag == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_FIN, m->suite, m->mode, m->sig, &l);
    if (rc == PQPAN_OK &&
        (!field_matches(l.numeric_nonce, m->numeric_nonce, PQPAN_PQKE_NUMERIC_NONCE_BYTES,
                        PQPAN_PQKE_NUMERIC_NONCE_BYTES) ||
         !field_matches(l.sig, m->signature, m->signature_len, l.sig_len))) {
        rc = PQPAN_ERR_BAD_LENGTH;
    }
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    if (l.numeric_nonce != 0) {
        put_field(out, l.numeric_nonce, m->numeric_nonce, PQPAN_PQKE_NUMERIC_NONCE_BYTES);
    }
    if (l.sig != 0) {
        put_field(out, l.sig, m->signature, l.sig_len);
    }
    put_field(out, l.tag, m->tag, PQPAN_PQKE_TAG_BYTES);
    *out_len = l.total;
    return PQPAN_OK;
}

/* REVEAL = header || n_R (docs/PROTOCOL.md §2.5), numeric mode only. */
int pqpan_pqke_reveal_parse(struct pqpan_pqke_reveal_msg *m, const uint8_t *in, size_t in_len)
{
    struct pqpan_pqke_header h;
    struct pqpan_pqke_layout l;
    unsigned sig;
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_REVEAL, &h, &sig, &l);
    if (rc != PQPAN_OK) {
        return rc;
    }
    m->suite = h.suite;
    m->mode = h.mode;
    m->numeric_nonce = in + l.numeric_nonce;
    return PQPAN_OK;
}

int pqpan_pqke_reveal_write(uint8_t *out, size_t out_cap, size_t *out_len,
                            const struct pqpan_pqke_reveal_msg *m)
{
    struct pqpan_pqke_layout l;
    int rc;
    if (out_len == 0 || m == 0 || m->numeric_nonce == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_REVEAL, m->suite, m->mode, 0, &l);
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    put_field(out, l.numeric_nonce, m->numeric_nonce, PQPAN_PQKE_NUMERIC_NONCE_BYTES);
    *out_len = l.total;
    return PQPAN_OK;
}

int pqpan_pqke_check_type(const uint8_t *in, size_t in_len, unsigned type)
{
    struct pqpan_pqke_header h;
    int rc = pqpan_pqke_header_parse(&h, in, in_len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (h.version != PQPAN_PQKE_VERSION) {
        return PQPAN_ERR_VERSION;
    }
    if (h.type < PQPAN_PQKE_MSG_INIT || h.type > PQPAN_PQKE_MSG_REVEAL) {
        return PQPAN_ERR_MALFORMED;
    }
    return h.type == type ? PQPAN_OK : PQPAN_ERR_STATE;
}

uint8_t pqpan_pqke_header_suite(const uint8_t *in)
{
    return in[HDR_SUITE];
}

uint8_t pqpan_pqke_header_mode(const uint8_t *in)
{
    return in[HDR_MODE];
}

int pqpan_pqke_check_run(const uint8_t *in, size_t in_len, unsigned suite, unsigned mode,
                         unsigned sig)
{
    unsigned got;
    int rc;
    if (in[HDR_SUITE] != suite) {
        return PQPAN_ERR_SUITE;
    }
    if (in[HDR_MODE] != mode) {
        return PQPAN_ERR_MODE;
    }
    rc = message_sig(&got, in, in_len, mode);
    return rc == PQPAN_OK && got != sig ? PQPAN_ERR_SUITE : rc;
}
