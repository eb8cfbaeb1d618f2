/* libFuzzer target: the Bluetooth LE PDU parsers (src/ble: LL data header, LL control PDUs,
 * CONNECT_IND, ADV_IND, L2CAP header and signaling, ATT). Every input goes through each
 * parser; what parses must write back: to exactly the input bytes where the codec keeps
 * every bit (LL control, ATT), to a PDU that parses to the same fields where the parser
 * ignores reserved header bits (CONNECT_IND, ADV_IND). Seeds: one PDU of each kind the
 * simulator sends in its set-up (tests/fuzz/corpus/ble_pdu/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/ble_pdu.h"

static uint8_t out[PQPAN_ATT_MAX_MTU + 8];

static void same_bytes(int rc, size_t len, const uint8_t *data, size_t size)
{
    if (rc != PQPAN_OK || len != size || memcmp(out, data, size) != 0) {
        abort();
    }
}

static void ll_control(const uint8_t *data, size_t size)
{
    uint8_t features[PQPAN_LL_FEATURE_SET_BYTES];
    struct pqpan_ll_version v;
    struct pqpan_ll_conn_param p;
    struct pqpan_ll_conn_update u;
    struct pqpan_ll_length l;
    struct pqpan_ll_phy_update ph;
    size_t len = 0;
    if (pqpan_ll_pdu_feature_parse(features, data, size) == PQPAN_OK) {
        same_bytes(pqpan_ll_pdu_feature_write(out, sizeof out, data[0], features, &len), len, data,
                   size);
    }
    if (pqpan_ll_pdu_version_parse(&v, data, size) == PQPAN_OK) {
        same_bytes(pqpan_ll_pdu_version_write(out, sizeof out, &v, &len), len, data, size);
    }
    if (pqpan_ll_pdu_conn_param_parse(&p, data, size) == PQPAN_OK) {
        same_bytes(pqpan_ll_pdu_conn_param_write(out, sizeof out, data[0], &p, &len), len, data,
                   size);
    }
    if (pqpan_ll_pdu_conn_update_parse(&u, data, size) == PQPAN_OK) {
        same_bytes(pqpan_ll_pdu_conn_update_write(out, sizeof out, &u, &len), len, data, size);
    }
    if (pqpan_ll_pdu_length_parse(&l, data, size) == PQPAN_OK) {
        same_bytes(pqpan_ll_pdu_length_write(out, sizeof out, data[0], &l, &len), len, data, size);
    }
    if (pqpan_ll_pdu_phy_update_parse(&ph, data, size) == PQPAN_OK) {
        same_bytes(pqpan_ll_pdu_phy_update_write(out, sizeof out, &ph, &len), len, data, size);
    }
}

static void advertising(const uint8_t *data, size_t size)
{
    struct pqpan_adv_ind a, b;
    struct pqpan_connect_ind c, d;
    size_t len = 0;
    if (pqpan_adv_ind_parse(&a, data, size) == PQPAN_OK) {
        if (pqpan_adv_ind_write(out, sizeof out, &a, &len) != PQPAN_OK ||
            pqpan_adv_ind_parse(&b, out, len) != PQPAN_OK || memcmp(&a, &b, sizeof a) != 0) {
            abort();
        }
    }
    if (pqpan_connect_ind_parse(&c, data, size) == PQPAN_OK) {
        if (pqpan_connect_ind_write(out, &c) != PQPAN_OK ||
            pqpan_connect_ind_parse(&d, out, PQPAN_CONNECT_IND_PDU) != PQPAN_OK ||
            memcmp(&c, &d, sizeof c) != 0) {
            abort();
        }
    }
}

static void host(const uint8_t *data, size_t size)
{
    struct pqpan_att_pdu p;
    struct pqpan_l2cap_hdr h;
    struct pqpan_l2cap_sig sig;
    struct pqpan_l2cap_le_conn conn;
    struct pqpan_ll_hdr ll;
    size_t len = 0;
    if (pqpan_att_pdu_parse(&p, data, size) == PQPAN_OK) {
        same_bytes(pqpan_att_pdu_write(out, sizeof out, &p, &len), len, data, size);
    }
    if (pqpan_l2cap_pdu_hdr_parse(&h, data, size) == PQPAN_OK) {
        same_bytes(pqpan_l2cap_pdu_hdr_write(out, &h), PQPAN_L2CAP_HDR_BYTES, data,
                   PQPAN_L2CAP_HDR_BYTES);
    }
    (void)pqpan_l2cap_pdu_sig_parse(&sig, &conn, data, size);
    (void)pqpan_ll_pdu_hdr_parse(&ll, data, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ll_control(data, size);
    advertising(data, size);
    host(data, size);
    return 0;
}
