/* CONNECT_IND advertising physical channel PDU (Core v5.4 Vol 6 Part B §2.3.3.1). */
#include "pqpan/ble_pdu.h"

#include <string.h>

#include "ble/le_bytes.h"

#define PDU_TYPE_CONNECT_IND 0x5u  /* §2.3, Table 2.3: 0b0101 */
#define HDR_TX_ADD 0x40u           /* §2.3, Figure 2.5: TxAdd bit 6, RxAdd bit 7 */
#define HDR_RX_ADD 0x80u
#define LLDATA_OFFSET (PQPAN_LL_HDR_BYTES + 12)

static int fields_valid(const struct pqpan_connect_ind *c)
{
    /* §2.3.3.1: Interval 6..3200 (7.5 ms..4 s), Timeout 10..3200 (100 ms..32 s),
     * Hop 5..16, SCA 0..7, CRCInit 24 bits, at least two used data channels. */
    int used = 0, i;
    for (i = 0; i < 37; i++) {
        used += (c->chm[i / 8] >> (i % 8)) & 1;
    }
    return c->interval >= 6 && c->interval <= 3200 && c->timeout >= 10 && c->timeout <= 3200 &&
           c->hop >= 5 && c->hop <= 16 && c->sca <= 7 && c->crc_init <= 0xFFFFFFu && used >= 2 &&
           (c->chm[4] & 0xE0u) == 0;
}

int pqpan_connect_ind_write(uint8_t out[PQPAN_CONNECT_IND_PDU], const struct pqpan_connect_ind *c)
{
    uint8_t *ll = out + LLDATA_OFFSET;
    if (!fields_valid(c)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    /* ChSel (bit 5) = 0: channel selection algorithm #1 (§4.5.8.2). */
    out[0] = (uint8_t)(PDU_TYPE_CONNECT_IND | (c->tx_add_random ? HDR_TX_ADD : 0u) |
                       (c->rx_add_random ? HDR_RX_ADD : 0u));
    out[1] = PQPAN_CONNECT_IND_PAYLOAD;
    memcpy(out + 2, c->init_addr, 6);
    memcpy(out + 8, c->adv_addr, 6);
    put_le32(ll, c->access_address);
    put_le24(ll + 4, c->crc_init);
    ll[7] = c->win_size;
    put_le16(ll + 8, c->win_offset);
    put_le16(ll + 10, c->interval);
    put_le16(ll + 12, c->latency);
    put_le16(ll + 14, c->timeout);
    memcpy(ll + 16, c->chm, 5);
    ll[21] = (uint8_t)(c->hop | (c->sca << 5));
    return PQPAN_OK;
}

int pqpan_connect_ind_parse(struct pqpan_connect_ind *c, const uint8_t *in, size_t len)
{
    const uint8_t *ll = in + LLDATA_OFFSET;
    memset(c, 0, sizeof *c);
    if (len != PQPAN_CONNECT_IND_PDU || in[1] != PQPAN_CONNECT_IND_PAYLOAD) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if ((in[0] & 0x0Fu) != PDU_TYPE_CONNECT_IND) {
        return PQPAN_ERR_MALFORMED;
    }
    c->tx_add_random = (in[0] & HDR_TX_ADD) != 0;
    c->rx_add_random = (in[0] & HDR_RX_ADD) != 0;
    memcpy(c->init_addr, in + 2, 6);
    memcpy(c->adv_addr, in + 8, 6);
    c->access_address = get_le32(ll);
    c->crc_init = get_le24(ll + 4);
    c->win_size = ll[7];
    c->win_offset = get_le16(ll + 8);
    c->interval = get_le16(ll + 10);
    c->latency = get_le16(ll + 12);
    c->timeout = get_le16(ll + 14);
    memcpy(c->chm, ll + 16, 5);
    c->hop = (uint8_t)(ll[21] & 0x1Fu);
    c->sca = (uint8_t)(ll[21] >> 5);
    if (!fields_valid(c)) {
        memset(c, 0, sizeof *c);
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}
