/* L2CAP byte codecs (Core v5.4 Vol 3 Part A): the basic header of B-frames and K-frames
 * (§3.1, §3.4) and the LE credit-based signaling commands (§4.22-§4.24). */
#include "pqpan/ble_pdu.h"

#include <string.h>

#include "ble/le_bytes.h"

/* §3.1, Figure 3.1: Length (2 octets), Channel ID (2 octets). */
int pqpan_l2cap_pdu_hdr_write(uint8_t out[PQPAN_L2CAP_HDR_BYTES], const struct pqpan_l2cap_hdr *h)
{
    if (h->cid == 0) {
        return PQPAN_ERR_INVALID_ARG; /* §2.1: CID 0x0000 is never used */
    }
    put_le16(out, h->length);
    put_le16(out + 2, h->cid);
    return PQPAN_OK;
}

int pqpan_l2cap_pdu_hdr_parse(struct pqpan_l2cap_hdr *h, const uint8_t *in, size_t len)
{
    memset(h, 0, sizeof *h);
    if (len < PQPAN_L2CAP_HDR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    h->length = get_le16(in);
    h->cid = get_le16(in + 2);
    if (h->cid == 0) {
        memset(h, 0, sizeof *h);
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

static void put_sig_hdr(uint8_t *out, uint8_t code, uint8_t identifier, uint16_t length)
{
    out[0] = code;
    out[1] = identifier;
    put_le16(out + 2, length);
}

/* §4.22 request: LE_PSM, Source CID, MTU, MPS, Initial Credits.
 * §4.23 response: Destination CID, MTU, MPS, Initial Credits, Result. */
int pqpan_l2cap_pdu_le_conn_write(uint8_t *out, size_t cap, uint8_t code, uint8_t identifier,
                                  const struct pqpan_l2cap_le_conn *c, size_t *written)
{
    uint8_t *d = out + PQPAN_L2CAP_SIG_HDR_BYTES;
    *written = 0;
    if ((code != PQPAN_L2CAP_LE_CREDIT_CONN_REQ && code != PQPAN_L2CAP_LE_CREDIT_CONN_RSP) ||
        identifier == 0) {
        return PQPAN_ERR_INVALID_ARG; /* §4: identifier 0x00 is invalid */
    }
    if (cap < PQPAN_L2CAP_SIG_HDR_BYTES + PQPAN_L2CAP_LE_CREDIT_CONN_REQ_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    put_sig_hdr(out, code, identifier, PQPAN_L2CAP_LE_CREDIT_CONN_REQ_BYTES);
    if (code == PQPAN_L2CAP_LE_CREDIT_CONN_REQ) {
        put_le16(d, c->psm);
        put_le16(d + 2, c->cid);
        put_le16(d + 4, c->mtu);
        put_le16(d + 6, c->mps);
        put_le16(d + 8, c->credits);
    } else {
        put_le16(d, c->cid);
        put_le16(d + 2, c->mtu);
        put_le16(d + 4, c->mps);
        put_le16(d + 6, c->credits);
        put_le16(d + 8, c->result);
    }
    *written = PQPAN_L2CAP_SIG_HDR_BYTES + PQPAN_L2CAP_LE_CREDIT_CONN_REQ_BYTES;
    return PQPAN_OK;
}

/* §4.24: CID, Credits. */
int pqpan_l2cap_pdu_credit_write(uint8_t *out, size_t cap, uint8_t identifier, uint16_t cid,
                                 uint16_t credits, size_t *written)
{
    *written = 0;
    if (identifier == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < PQPAN_L2CAP_SIG_HDR_BYTES + PQPAN_L2CAP_FLOW_CONTROL_CREDIT_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    put_sig_hdr(out, PQPAN_L2CAP_FLOW_CONTROL_CREDIT, identifier,
                PQPAN_L2CAP_FLOW_CONTROL_CREDIT_BYTES);
    put_le16(out + 4, cid);
    put_le16(out + 6, credits);
    *written = PQPAN_L2CAP_SIG_HDR_BYTES + PQPAN_L2CAP_FLOW_CONTROL_CREDIT_BYTES;
    return PQPAN_OK;
}

static uint16_t sig_data_len(uint8_t code)
{
    switch (code) {
    case PQPAN_L2CAP_LE_CREDIT_CONN_REQ:
        return PQPAN_L2CAP_LE_CREDIT_CONN_REQ_BYTES;
    case PQPAN_L2CAP_LE_CREDIT_CONN_RSP:
        return PQPAN_L2CAP_LE_CREDIT_CONN_RSP_BYTES;
    case PQPAN_L2CAP_FLOW_CONTROL_CREDIT:
        return PQPAN_L2CAP_FLOW_CONTROL_CREDIT_BYTES;
    default:
        return 0;
    }
}

int pqpan_l2cap_pdu_sig_parse(struct pqpan_l2cap_sig *s, struct pqpan_l2cap_le_conn *c,
                              const uint8_t *in, size_t len)
{
    const uint8_t *d = in + PQPAN_L2CAP_SIG_HDR_BYTES;
    uint16_t want;
    memset(s, 0, sizeof *s);
    memset(c, 0, sizeof *c);
    if (len < PQPAN_L2CAP_SIG_HDR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    want = sig_data_len(in[0]);
    if (want == 0) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    if (get_le16(in + 2) != want || len != (size_t)PQPAN_L2CAP_SIG_HDR_BYTES + want) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    s->code = in[0];
    s->identifier = in[1];
    s->length = want;
    if (in[0] == PQPAN_L2CAP_LE_CREDIT_CONN_REQ) {
        c->psm = get_le16(d);
        c->cid = get_le16(d + 2);
        c->mtu = get_le16(d + 4);
        c->mps = get_le16(d + 6);
        c->credits = get_le16(d + 8);
    } else if (in[0] == PQPAN_L2CAP_LE_CREDIT_CONN_RSP) {
        c->cid = get_le16(d);
        c->mtu = get_le16(d + 2);
        c->mps = get_le16(d + 4);
        c->credits = get_le16(d + 6);
        c->result = get_le16(d + 8);
    } else {
        c->cid = get_le16(d);
        c->credits = get_le16(d + 2);
    }
    return PQPAN_OK;
}
