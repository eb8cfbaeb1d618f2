/* PQKE message codecs (docs/PROTOCOL.md §2): one parse/write pair per message, explicit
 * byte codecs, lengths checked before any field is read. */
#include <string.h>

#include "pqke/pqke_internal.h"

#define HDR_VERSION 0
#define HDR_TYPE 1
#define HDR_SUITE 2
#define HDR_LENGTH 3 /* 16-bit little-endian */

static uint16_t get_le16(const uint8_t *p)
{
    return (uint16_t)(p[0] | (p[1] << 8));
}

static void put_le16(uint8_t *p, size_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)((v >> 8) & 0xFFu);
}

/* The size of a message of this type and suite, 0 if either is unknown. */
static size_t message_bytes(unsigned type, unsigned suite)
{
    struct pqpan_pqke_sizes s = pqpan_pqke_suite_sizes(suite);
    switch (type) {
    case PQPAN_PQKE_MSG_INIT:
        return s.init_bytes;
    case PQPAN_PQKE_MSG_RESP:
        return s.resp_bytes;
    case PQPAN_PQKE_MSG_FIN:
        return s.fin_bytes;
    default:
        return 0;
    }
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

int pqpan_pqke_release_key(uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES], int have_ctx,
                           unsigned state,
                           const uint8_t session_key[PQPAN_PQKE_SESSION_KEY_BYTES])
{
    if (key == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (!have_ctx || state != PQPAN_PQKE_STATE_DONE) {
        pqpan_wipe(key, PQPAN_PQKE_SESSION_KEY_BYTES);
        return have_ctx ? PQPAN_ERR_STATE : PQPAN_ERR_INVALID_ARG;
    }
    memcpy(key, session_key, PQPAN_PQKE_SESSION_KEY_BYTES);
    return PQPAN_OK;
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
    h->length = get_le16(in + HDR_LENGTH);
    return PQPAN_OK;
}

/* The checks every parser shares, in the documented order; on success *suite is set. */
static int check_message(const uint8_t *in, size_t in_len, unsigned type, uint8_t *suite)
{
    struct pqpan_pqke_header h;
    int rc = pqpan_pqke_check_type(in, in_len, type);
    if (rc == PQPAN_ERR_STATE) {
        /* To a codec a message of another type is simply not this message. */
        rc = PQPAN_ERR_MALFORMED;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_header_parse(&h, in, in_len);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (!pqpan_pqke_suite_known(h.suite)) {
        return PQPAN_ERR_SUITE;
    }
    if (h.length != in_len || in_len != message_bytes(type, h.suite)) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    *suite = h.suite;
    return PQPAN_OK;
}

/* Checks a writer's suite and capacity and writes the header; returns the total size. */
static int start_message(uint8_t *out, size_t out_cap, unsigned type, unsigned suite,
                         size_t *total)
{
    size_t n = message_bytes(type, suite);
    if (n == 0) {
        return PQPAN_ERR_SUITE;
    }
    if (out == 0 || out_cap < n) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[HDR_VERSION] = PQPAN_PQKE_VERSION;
    out[HDR_TYPE] = (uint8_t)type;
    out[HDR_SUITE] = (uint8_t)suite;
    put_le16(out + HDR_LENGTH, n);
    *total = n;
    return PQPAN_OK;
}

/* INIT = header || nonce_i (32) || ek (docs/PROTOCOL.md §2.2). */
int pqpan_pqke_init_parse(struct pqpan_pqke_init_msg *m, const uint8_t *in, size_t in_len)
{
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_INIT, &m->suite);
    if (rc != PQPAN_OK) {
        memset(m, 0, sizeof *m);
        return rc;
    }
    m->nonce = in + PQPAN_PQKE_HEADER_BYTES;
    m->ek = m->nonce + PQPAN_PQKE_NONCE_BYTES;
    m->ek_len = pqpan_pqke_suite_sizes(m->suite).ek_bytes;
    return PQPAN_OK;
}

int pqpan_pqke_init_write(uint8_t *out, size_t out_cap, size_t *out_len,
                          const struct pqpan_pqke_init_msg *m)
{
    size_t total = 0;
    int rc;
    if (out_len == 0 || m == 0 || m->nonce == 0 || m->ek == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_INIT, m->suite, &total);
    if (rc == PQPAN_OK && m->ek_len != pqpan_pqke_suite_sizes(m->suite).ek_bytes) {
        rc = PQPAN_ERR_BAD_LENGTH;
    }
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    memmove(out + PQPAN_PQKE_HEADER_BYTES, m->nonce, PQPAN_PQKE_NONCE_BYTES);
    memmove(out + PQPAN_PQKE_HEADER_BYTES + PQPAN_PQKE_NONCE_BYTES, m->ek, m->ek_len);
    *out_len = total;
    return PQPAN_OK;
}

/* RESP = header || ct || nonce_r (32) || tag_r (32) (docs/PROTOCOL.md §2.3). */
int pqpan_pqke_resp_parse(struct pqpan_pqke_resp_msg *m, const uint8_t *in, size_t in_len)
{
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_RESP, &m->suite);
    if (rc != PQPAN_OK) {
        memset(m, 0, sizeof *m);
        return rc;
    }
    m->ct = in + PQPAN_PQKE_HEADER_BYTES;
    m->ct_len = pqpan_pqke_suite_sizes(m->suite).ct_bytes;
    m->nonce = m->ct + m->ct_len;
    m->tag = m->nonce + PQPAN_PQKE_NONCE_BYTES;
    return PQPAN_OK;
}

int pqpan_pqke_resp_write(uint8_t *out, size_t out_cap, size_t *out_len,
                          const struct pqpan_pqke_resp_msg *m)
{
    size_t total = 0;
    uint8_t *p;
    int rc;
    if (out_len == 0 || m == 0 || m->ct == 0 || m->nonce == 0 || m->tag == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_RESP, m->suite, &total);
    if (rc == PQPAN_OK && m->ct_len != pqpan_pqke_suite_sizes(m->suite).ct_bytes) {
        rc = PQPAN_ERR_BAD_LENGTH;
    }
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    p = out + PQPAN_PQKE_HEADER_BYTES;
    memmove(p, m->ct, m->ct_len);
    memmove(p + m->ct_len, m->nonce, PQPAN_PQKE_NONCE_BYTES);
    memmove(p + m->ct_len + PQPAN_PQKE_NONCE_BYTES, m->tag, PQPAN_PQKE_TAG_BYTES);
    *out_len = total;
    return PQPAN_OK;
}

/* FIN = header || tag_i (32) (docs/PROTOCOL.md §2.4). */
int pqpan_pqke_fin_parse(struct pqpan_pqke_fin_msg *m, const uint8_t *in, size_t in_len)
{
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    rc = check_message(in, in_len, PQPAN_PQKE_MSG_FIN, &m->suite);
    if (rc != PQPAN_OK) {
        memset(m, 0, sizeof *m);
        return rc;
    }
    m->tag = in + PQPAN_PQKE_HEADER_BYTES;
    return PQPAN_OK;
}

int pqpan_pqke_fin_write(uint8_t *out, size_t out_cap, size_t *out_len,
                         const struct pqpan_pqke_fin_msg *m)
{
    size_t total = 0;
    int rc;
    if (out_len == 0 || m == 0 || m->tag == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = start_message(out, out_cap, PQPAN_PQKE_MSG_FIN, m->suite, &total);
    if (rc != PQPAN_OK) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return rc;
    }
    memmove(out + PQPAN_PQKE_HEADER_BYTES, m->tag, PQPAN_PQKE_TAG_BYTES);
    *out_len = total;
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
    if (h.type < PQPAN_PQKE_MSG_INIT || h.type > PQPAN_PQKE_MSG_FIN) {
        return PQPAN_ERR_MALFORMED;
    }
    return h.type == type ? PQPAN_OK : PQPAN_ERR_STATE;
}

uint8_t pqpan_pqke_header_suite(const uint8_t *in)
{
    return in[HDR_SUITE];
}
