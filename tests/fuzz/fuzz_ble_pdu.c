/* Fuzzes the BLE PDU parsers of include/pqpan/ble_pdu.h: the LL data PDU header, the
 * CONNECT_IND, the LL control PDUs (length, PHY update), the L2CAP header and LE signaling
 * commands, and ATT. The first input byte picks the parser, the rest is its input. Where
 * a writer exists, whatever parses must survive write and parse again unchanged (the
 * codec pairs agree), or the target traps. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pqpan/ble_pdu.h"

static void att(const uint8_t *in, size_t len)
{
    struct pqpan_att_pdu a, b;
    uint8_t out[PQPAN_ATT_MAX_MTU + 8];
    size_t n = 0;
    if (pqpan_att_pdu_parse(&a, in, len) != PQPAN_OK) {
        return;
    }
    if (pqpan_att_pdu_write(out, sizeof out, &a, &n) != PQPAN_OK) {
        return; /* a value too long for the buffer: nothing to compare */
    }
    if (pqpan_att_pdu_parse(&b, out, n) != PQPAN_OK || a.opcode != b.opcode ||
        a.handle != b.handle || a.offset != b.offset || a.mtu != b.mtu || a.flags != b.flags ||
        a.value_len != b.value_len ||
        (a.value_len > 0 && memcmp(a.value, b.value, a.value_len) != 0)) {
        __builtin_trap();
    }
}

static void connect_ind(const uint8_t *in, size_t len)
{
    struct pqpan_connect_ind a, b;
    uint8_t out[PQPAN_CONNECT_IND_PDU];
    if (pqpan_connect_ind_parse(&a, in, len) != PQPAN_OK ||
        pqpan_connect_ind_write(out, &a) != PQPAN_OK) {
        return;
    }
    if (pqpan_connect_ind_parse(&b, out, sizeof out) != PQPAN_OK ||
        memcmp(&a, &b, sizeof a) != 0) {
        __builtin_trap();
    }
}

static void ll_header(const uint8_t *in, size_t len)
{
    struct pqpan_ll_hdr a, b;
    uint8_t out[PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD];
    if (pqpan_ll_pdu_hdr_parse(&a, in, len) != PQPAN_OK ||
        pqpan_ll_pdu_hdr_write(out, &a) != PQPAN_OK) {
        return;
    }
    memset(out + PQPAN_LL_HDR_BYTES, 0, sizeof out - PQPAN_LL_HDR_BYTES);
    if (pqpan_ll_pdu_hdr_parse(&b, out, PQPAN_LL_HDR_BYTES + a.length) != PQPAN_OK ||
        memcmp(&a, &b, sizeof a) != 0) {
        __builtin_trap();
    }
}

static void ll_control(const uint8_t *in, size_t len)
{
    struct pqpan_ll_length l;
    struct pqpan_ll_phy_update u;
    (void)pqpan_ll_pdu_length_parse(&l, in, len);
    (void)pqpan_ll_pdu_phy_update_parse(&u, in, len);
}

static void l2cap(const uint8_t *in, size_t len)
{
    struct pqpan_l2cap_hdr h;
    struct pqpan_l2cap_sig s;
    struct pqpan_l2cap_le_conn c;
    (void)pqpan_l2cap_pdu_hdr_parse(&h, in, len);
    (void)pqpan_l2cap_pdu_sig_parse(&s, &c, in, len);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static void (*const parsers[])(const uint8_t *, size_t) = {att, connect_ind, ll_header,
                                                               ll_control, l2cap};
    if (size == 0) {
        return 0;
    }
    parsers[data[0] % (sizeof parsers / sizeof parsers[0])](data + 1, size - 1);
    return 0;
}
