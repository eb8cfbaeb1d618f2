/* Link-layer data and control PDU codecs (Core v5.4 Vol 6 Part B §2.4). */
#include "pqpan/ble_pdu.h"

#include <string.h>

#include "ble/le_bytes.h"

/* §2.4, Figure 2.13: LLID bits 0-1, NESN bit 2, SN bit 3, MD bit 4, CP bit 5, RFU 6-7;
 * second octet Length. CP (CTEInfo present) is never set here. */
int pqpan_ll_pdu_hdr_write(uint8_t out[PQPAN_LL_HDR_BYTES], const struct pqpan_ll_hdr *h)
{
    if (h->llid < PQPAN_LLID_CONTINUE || h->llid > PQPAN_LLID_CONTROL || h->nesn > 1 ||
        h->sn > 1 || h->md > 1 || h->length > PQPAN_LL_DATA_MAX_PAYLOAD) {
        return PQPAN_ERR_INVALID_ARG;
    }
    out[0] = (uint8_t)(h->llid | (h->nesn << 2) | (h->sn << 3) | (h->md << 4));
    out[1] = h->length;
    return PQPAN_OK;
}

/* §2.4 */
int pqpan_ll_pdu_hdr_parse(struct pqpan_ll_hdr *h, const uint8_t *in, size_t len)
{
    memset(h, 0, sizeof *h);
    if (len < PQPAN_LL_HDR_BYTES || in[1] > PQPAN_LL_DATA_MAX_PAYLOAD ||
        (size_t)in[1] > len - PQPAN_LL_HDR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if ((in[0] & 3u) == 0) {
        return PQPAN_ERR_MALFORMED;
    }
    h->llid = (uint8_t)(in[0] & 3u);
    h->nesn = (uint8_t)((in[0] >> 2) & 1u);
    h->sn = (uint8_t)((in[0] >> 3) & 1u);
    h->md = (uint8_t)((in[0] >> 4) & 1u);
    h->length = in[1];
    return PQPAN_OK;
}

/* §2.4.2.21: Opcode, MaxRxOctets, MaxRxTime, MaxTxOctets, MaxTxTime. */
int pqpan_ll_pdu_length_write(uint8_t *out, size_t cap, uint8_t opcode,
                              const struct pqpan_ll_length *l, size_t *written)
{
    *written = 0;
    if (opcode != PQPAN_LL_LENGTH_REQ && opcode != PQPAN_LL_LENGTH_RSP) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < PQPAN_LL_LENGTH_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = opcode;
    put_le16(out + 1, l->max_rx_octets);
    put_le16(out + 3, l->max_rx_time_us);
    put_le16(out + 5, l->max_tx_octets);
    put_le16(out + 7, l->max_tx_time_us);
    *written = PQPAN_LL_LENGTH_CTR_BYTES;
    return PQPAN_OK;
}

/* §2.4.2.21; the valid ranges are those of §4.5.10 (octets 27..251, time 328..17040). */
int pqpan_ll_pdu_length_parse(struct pqpan_ll_length *l, const uint8_t *in, size_t len)
{
    memset(l, 0, sizeof *l);
    if (len != PQPAN_LL_LENGTH_CTR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (in[0] != PQPAN_LL_LENGTH_REQ && in[0] != PQPAN_LL_LENGTH_RSP) {
        return PQPAN_ERR_MALFORMED;
    }
    l->max_rx_octets = get_le16(in + 1);
    l->max_rx_time_us = get_le16(in + 3);
    l->max_tx_octets = get_le16(in + 5);
    l->max_tx_time_us = get_le16(in + 7);
    if (l->max_rx_octets < 27 || l->max_rx_octets > 251 || l->max_tx_octets < 27 ||
        l->max_tx_octets > 251 || l->max_rx_time_us < 328 || l->max_rx_time_us > 17040 ||
        l->max_tx_time_us < 328 || l->max_tx_time_us > 17040) {
        memset(l, 0, sizeof *l);
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

/* §2.4.2.22: Opcode, TX_PHYS, RX_PHYS. */
int pqpan_ll_pdu_phy_req_write(uint8_t *out, size_t cap, uint8_t opcode, uint8_t tx_phys,
                               uint8_t rx_phys, size_t *written)
{
    *written = 0;
    if (opcode != PQPAN_LL_PHY_REQ && opcode != PQPAN_LL_PHY_RSP) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < PQPAN_LL_PHY_REQ_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = opcode;
    out[1] = tx_phys;
    out[2] = rx_phys;
    *written = PQPAN_LL_PHY_REQ_CTR_BYTES;
    return PQPAN_OK;
}

/* §2.4.2.23: Opcode, PHY_C_TO_P, PHY_P_TO_C, Instant. */
int pqpan_ll_pdu_phy_update_write(uint8_t *out, size_t cap, const struct pqpan_ll_phy_update *u,
                                  size_t *written)
{
    *written = 0;
    if (cap < PQPAN_LL_PHY_UPDATE_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = PQPAN_LL_PHY_UPDATE_IND;
    out[1] = u->phy_c_to_p;
    out[2] = u->phy_p_to_c;
    put_le16(out + 3, u->instant);
    *written = PQPAN_LL_PHY_UPDATE_CTR_BYTES;
    return PQPAN_OK;
}

/* §2.4.2.23: at most one PHY bit per direction. */
int pqpan_ll_pdu_phy_update_parse(struct pqpan_ll_phy_update *u, const uint8_t *in, size_t len)
{
    memset(u, 0, sizeof *u);
    if (len != PQPAN_LL_PHY_UPDATE_CTR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (in[0] != PQPAN_LL_PHY_UPDATE_IND || (in[1] & (in[1] - 1u)) != 0 ||
        (in[2] & (in[2] - 1u)) != 0 || in[1] > PQPAN_LL_PHY_CODED || in[2] > PQPAN_LL_PHY_CODED) {
        return PQPAN_ERR_MALFORMED;
    }
    u->phy_c_to_p = in[1];
    u->phy_p_to_c = in[2];
    u->instant = get_le16(in + 3);
    return PQPAN_OK;
}

/* §2.4.2.4 LL_ENC_REQ: Opcode, Rand, EDIV, SKD_C, IV_C; §2.4.2.5 LL_ENC_RSP: Opcode,
 * SKD_P, IV_P. */
_Static_assert(PQPAN_LL_ENC_REQ_CTR_BYTES <= PQPAN_LL_CTRL_MAX_BYTES,
               "the simulator's control PDU buffer holds an LL_ENC_REQ");
int pqpan_ll_pdu_enc_write(uint8_t *out, size_t cap, uint8_t opcode, const struct pqpan_ll_enc *e,
                           size_t *written)
{
    size_t need = opcode == PQPAN_LL_ENC_REQ ? PQPAN_LL_ENC_REQ_CTR_BYTES : PQPAN_LL_ENC_RSP_CTR_BYTES;
    uint8_t *at = out + 1;
    *written = 0;
    if (opcode != PQPAN_LL_ENC_REQ && opcode != PQPAN_LL_ENC_RSP) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < need) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = opcode;
    if (opcode == PQPAN_LL_ENC_REQ) {
        memcpy(at, e->rand, sizeof e->rand);
        put_le16(at + sizeof e->rand, e->ediv);
        at += sizeof e->rand + 2u;
    }
    memcpy(at, e->skd, PQPAN_LL_SKD_BYTES);
    memcpy(at + PQPAN_LL_SKD_BYTES, e->iv, PQPAN_LL_IV_BYTES);
    *written = need;
    return PQPAN_OK;
}

int pqpan_ll_pdu_enc_parse(struct pqpan_ll_enc *e, const uint8_t *in, size_t len)
{
    const uint8_t *at = in + 1;
    memset(e, 0, sizeof *e);
    if (len == PQPAN_LL_ENC_REQ_CTR_BYTES && in[0] == PQPAN_LL_ENC_REQ) {
        memcpy(e->rand, at, sizeof e->rand);
        e->ediv = get_le16(at + sizeof e->rand);
        at += sizeof e->rand + 2u;
    } else if (len != PQPAN_LL_ENC_RSP_CTR_BYTES || in[0] != PQPAN_LL_ENC_RSP) {
        return len == 0 || (in[0] != PQPAN_LL_ENC_REQ && in[0] != PQPAN_LL_ENC_RSP)
                   ? PQPAN_ERR_MALFORMED
                   : PQPAN_ERR_BAD_LENGTH;
    }
    memcpy(e->skd, at, PQPAN_LL_SKD_BYTES);
    memcpy(e->iv, at + PQPAN_LL_SKD_BYTES, PQPAN_LL_IV_BYTES);
    return PQPAN_OK;
}

/* §2.4.2.9 LL_FEATURE_REQ, §2.4.2.10 LL_FEATURE_RSP: Opcode, FeatureSet (8 octets, bit n
 * of the set is bit n%8 of octet n/8). */
int pqpan_ll_pdu_feature_write(uint8_t *out, size_t cap, uint8_t opcode,
                               const uint8_t features[PQPAN_LL_FEATURE_SET_BYTES], size_t *written)
{
    *written = 0;
    if (opcode != PQPAN_LL_FEATURE_REQ && opcode != PQPAN_LL_FEATURE_RSP) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < PQPAN_LL_FEATURE_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = opcode;
    memcpy(out + 1, features, PQPAN_LL_FEATURE_SET_BYTES);
    *written = PQPAN_LL_FEATURE_CTR_BYTES;
    return PQPAN_OK;
}

int pqpan_ll_pdu_feature_parse(uint8_t features[PQPAN_LL_FEATURE_SET_BYTES], const uint8_t *in,
                               size_t len)
{
    memset(features, 0, PQPAN_LL_FEATURE_SET_BYTES);
    if (len != PQPAN_LL_FEATURE_CTR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (in[0] != PQPAN_LL_FEATURE_REQ && in[0] != PQPAN_LL_FEATURE_RSP) {
        return PQPAN_ERR_MALFORMED;
    }
    memcpy(features, in + 1, PQPAN_LL_FEATURE_SET_BYTES);
    return PQPAN_OK;
}

/* §2.4.2.13: Opcode, VersNr, CompId (2), SubVersNr (2). */
int pqpan_ll_pdu_version_write(uint8_t *out, size_t cap, const struct pqpan_ll_version *v,
                               size_t *written)
{
    *written = 0;
    if (cap < PQPAN_LL_VERSION_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = PQPAN_LL_VERSION_IND;
    out[1] = v->vers_nr;
    put_le16(out + 2, v->comp_id);
    put_le16(out + 4, v->sub_vers_nr);
    *written = PQPAN_LL_VERSION_CTR_BYTES;
    return PQPAN_OK;
}

int pqpan_ll_pdu_version_parse(struct pqpan_ll_version *v, const uint8_t *in, size_t len)
{
    memset(v, 0, sizeof *v);
    if (len != PQPAN_LL_VERSION_CTR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (in[0] != PQPAN_LL_VERSION_IND) {
        return PQPAN_ERR_MALFORMED;
    }
    v->vers_nr = in[1];
    v->comp_id = get_le16(in + 2);
    v->sub_vers_nr = get_le16(in + 4);
    return PQPAN_OK;
}

/* §2.4.2.16/17: Opcode, Interval_Min, Interval_Max, Latency, Timeout (2 each),
 * PreferredPeriodicity (1), ReferenceConnEventCount (2), Offset0..Offset5 (2 each). */
int pqpan_ll_pdu_conn_param_write(uint8_t *out, size_t cap, uint8_t opcode,
                                  const struct pqpan_ll_conn_param *p, size_t *written)
{
    int i;
    *written = 0;
    if (opcode != PQPAN_LL_CONNECTION_PARAM_REQ && opcode != PQPAN_LL_CONNECTION_PARAM_RSP) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < PQPAN_LL_CONN_PARAM_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = opcode;
    put_le16(out + 1, p->interval_min);
    put_le16(out + 3, p->interval_max);
    put_le16(out + 5, p->latency);
    put_le16(out + 7, p->timeout);
    out[9] = p->preferred_periodicity;
    put_le16(out + 10, p->ref_conn_event_count);
    for (i = 0; i < PQPAN_LL_CONN_PARAM_OFFSETS; i++) {
        put_le16(out + 12 + 2 * i, p->offset[i]);
    }
    *written = PQPAN_LL_CONN_PARAM_CTR_BYTES;
    return PQPAN_OK;
}

/* The ranges of §2.4.2.16: intervals 6..3200 (×1.25 ms) with min <= max, latency 0..499,
 * timeout 10..3200 (×10 ms), preferred periodicity <= Interval_Max. */
int pqpan_ll_pdu_conn_param_parse(struct pqpan_ll_conn_param *p, const uint8_t *in, size_t len)
{
    int i;
    memset(p, 0, sizeof *p);
    if (len != PQPAN_LL_CONN_PARAM_CTR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (in[0] != PQPAN_LL_CONNECTION_PARAM_REQ && in[0] != PQPAN_LL_CONNECTION_PARAM_RSP) {
        return PQPAN_ERR_MALFORMED;
    }
    p->interval_min = get_le16(in + 1);
    p->interval_max = get_le16(in + 3);
    p->latency = get_le16(in + 5);
    p->timeout = get_le16(in + 7);
    p->preferred_periodicity = in[9];
    p->ref_conn_event_count = get_le16(in + 10);
    for (i = 0; i < PQPAN_LL_CONN_PARAM_OFFSETS; i++) {
        p->offset[i] = get_le16(in + 12 + 2 * i);
    }
    if (p->interval_min < 6u || p->interval_max > 3200u || p->interval_min > p->interval_max ||
        p->latency > 499u || p->timeout < 10u || p->timeout > 3200u ||
        p->preferred_periodicity > p->interval_max) {
        memset(p, 0, sizeof *p);
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

/* §2.4.2.1: Opcode, WinSize (1), WinOffset, Interval, Latency, Timeout, Instant (2 each). */
int pqpan_ll_pdu_conn_update_write(uint8_t *out, size_t cap, const struct pqpan_ll_conn_update *u,
                                   size_t *written)
{
    *written = 0;
    if (cap < PQPAN_LL_CONN_UPDATE_CTR_BYTES) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = PQPAN_LL_CONNECTION_UPDATE_IND;
    out[1] = u->win_size;
    put_le16(out + 2, u->win_offset);
    put_le16(out + 4, u->interval);
    put_le16(out + 6, u->latency);
    put_le16(out + 8, u->timeout);
    put_le16(out + 10, u->instant);
    *written = PQPAN_LL_CONN_UPDATE_CTR_BYTES;
    return PQPAN_OK;
}

/* §2.4.2.1 with §5.1.1: interval 6..3200, timeout 10..3200, transmitWindowSize 1.25 ms to
 * the lesser of 10 ms and connInterval - 1.25 ms, transmitWindowOffset 0..connInterval. */
int pqpan_ll_pdu_conn_update_parse(struct pqpan_ll_conn_update *u, const uint8_t *in, size_t len)
{
    memset(u, 0, sizeof *u);
    if (len != PQPAN_LL_CONN_UPDATE_CTR_BYTES) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (in[0] != PQPAN_LL_CONNECTION_UPDATE_IND) {
        return PQPAN_ERR_MALFORMED;
    }
    u->win_size = in[1];
    u->win_offset = get_le16(in + 2);
    u->interval = get_le16(in + 4);
    u->latency = get_le16(in + 6);
    u->timeout = get_le16(in + 8);
    u->instant = get_le16(in + 10);
    if (u->interval < 6u || u->interval > 3200u || u->timeout < 10u || u->timeout > 3200u ||
        u->win_size < 1u || u->win_size > 8u || u->win_size >= u->interval ||
        u->win_offset > u->interval || u->latency > 499u) {
        memset(u, 0, sizeof *u);
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

void pqpan_ll_own_features(uint8_t fs[PQPAN_LL_FEATURE_SET_BYTES])
{
    memset(fs, 0, PQPAN_LL_FEATURE_SET_BYTES);
    fs[0] = PQPAN_LL_FEATURES_OCTET0;
    fs[1] = PQPAN_LL_FEATURES_OCTET1;
}

struct pqpan_ll_version pqpan_ll_own_version(void)
{
    struct pqpan_ll_version v = {PQPAN_LL_VERS_NR_CORE_5_4, PQPAN_LL_COMP_ID_TESTING, 0};
    return v;
}
