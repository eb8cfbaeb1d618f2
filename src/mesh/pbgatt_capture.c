/* The PB-GATT simulator's capture (pqpan_mesh_pbgatt_simulate with on_packet): what a
 * sniffer following the connection records. First the set-up the estimate does not price
 * (the connection has to exist, MshPRT v1.1 §5.2.2): the provisioner's CONNECT_IND, the
 * ATT_MTU exchange (to the link's ATT_MTU), the discovery of the Mesh Provisioning
 * Service's handles (Find Information) and the CCCD write that enables Data Out
 * notifications, one connection event each; then the priced run, each
 * Proxy PDU's ATT PDU in an L2CAP frame on the ATT channel, fragmented into LL data PDUs of
 * the link's LL octets (Core v5.4 Vol 6 Part B §2.4, LLID start / continuation), each
 * answered by the peer's empty PDU. Times: a Provisioning PDU's LL PDUs end when the
 * connection model (pqpan_ble_schedule over the PDUs sent so far) says its last is
 * delivered, pairs back to back before it; channels by Channel Selection Algorithm #1 with
 * every data channel used (§4.5.8.2). */
#include <string.h>

#include "pbgatt_sim.h"

#define P PQPAN_MESH_PROVISIONER
#define D PQPAN_MESH_DEVICE

/* Connection events the set-up takes before the run (ATT_MTU exchange, discovery, CCCD
 * write). */
#define SETUP_EVENTS 3u
/* CONNECT_IND: transmitWindowSize 1 (1.25 ms units), supervision timeout 32 s (the most,
 * §2.3.3.1), hopIncrement 7 (5..16), all 37 data channels. */
#define CONN_WIN_SIZE 1u
#define CONN_TIMEOUT_10MS 3200u
#define CONN_HOP 7u
#define DATA_CHANNELS 37u
#define CONN_UNIT_NS 1250000u /* connInterval units of 1.25 ms (§2.3.3.1) */
/* RF channel of advertising channel 37 (Vol 6 Part A §2, Table 2.1). */
#define RF_CHANNEL_ADV37 0u

struct capture {
    struct pbgatt_sim *m;
    uint32_t aa, crc_init;
    uint8_t sn[2], nesn[2]; /* index enum pqpan_mesh_prov_role (provisioner = central) */
    uint64_t base_ns;       /* the run's time 0 in the capture */
    uint64_t last_ns;       /* the last packet's start */
    int error;
};

/* RF channel of data channel index ch (Vol 6 Part A §2: 0..10 → 1..11, 11..36 → 13..38). */
static uint8_t rf_of(uint32_t ch)
{
    return (uint8_t)(ch < 11u ? ch + 1u : ch + 2u);
}

static int emit(struct capture *c, uint64_t t, uint8_t rf, uint8_t type, uint32_t aa,
                const uint8_t *pdu, size_t len)
{
    struct pqpan_pcap_ble_info info;
    const struct pqpan_mesh_pbgatt_sim_config *cfg = c->m->cfg;
    memset(&info, 0, sizeof info);
    info.rf_channel = rf;
    info.pdu_type = type;
    info.phy = (uint8_t)(cfg->link.phy == PQPAN_BLE_PHY_2M      ? 1u
                         : cfg->link.phy == PQPAN_BLE_PHY_1M ? 0u
                                                             : 2u);
    info.coding_s2 = cfg->link.phy == PQPAN_BLE_PHY_CODED_S2;
    info.crc_valid = 1;
    info.access_address = aa;
    c->last_ns = t;
    if (c->error == 0 && cfg->on_packet(cfg->packet_ctx, t, &info, pdu, len) != 0) {
        c->error = PQPAN_ERR_IO;
    }
    return c->error;
}

/* One LL data PDU of side s at t (the connection event's channel): header with the side's
 * SN / NESN, payload, CRC; the peer then holds it (its NESN moves) and the side's next PDU
 * is new (its SN moves). */
static void ll_pdu(struct capture *c, enum pqpan_mesh_prov_role s, uint64_t t, uint8_t llid,
                   const uint8_t *payload, size_t n)
{
    uint8_t pdu[PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD + PQPAN_LL_CRC_BYTES];
    struct pqpan_ll_hdr h;
    uint64_t event = (t + c->m->cfg->link.ci_ns / 2u) / c->m->cfg->link.ci_ns;
    memset(&h, 0, sizeof h);
    h.llid = llid;
    h.sn = c->sn[s];
    h.nesn = c->nesn[s];
    h.length = (uint8_t)n;
    if (pqpan_ll_pdu_hdr_write(pdu, &h) != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    if (n > 0u) {
        memcpy(pdu + PQPAN_LL_HDR_BYTES, payload, n);
    }
    pqpan_crc24_append(c->crc_init, pdu, PQPAN_LL_HDR_BYTES + n);
    c->nesn[1 - s] ^= 1u;
    c->sn[s] ^= 1u;
    (void)emit(c, t, rf_of((uint32_t)((event * CONN_HOP) % DATA_CHANNELS)),
               s == P ? PQPAN_PCAP_BLE_DATA_C_TO_P : PQPAN_PCAP_BLE_DATA_P_TO_C, c->aa, pdu,
               PQPAN_LL_HDR_BYTES + n + PQPAN_LL_CRC_BYTES);
}

/* Air time of a PDU pair: s's PDU of n octets and the peer's empty one, each followed by
 * T_IFS (Vol 6 Part B §4.1.1). */
static uint64_t pair_ns(const struct capture *c, uint32_t n)
{
    enum pqpan_ble_phy phy = c->m->cfg->link.phy;
    return pqpan_ble_packet_ns(phy, n, 0) + pqpan_ble_packet_ns(phy, 0u, 0) +
           2u * (uint64_t)PQPAN_BLE_T_IFS_NS;
}

/* One pair at t: the central speaks first in a connection event (§4.5.1). */
static void pair(struct capture *c, enum pqpan_mesh_prov_role s, uint64_t t, uint8_t llid,
                 const uint8_t *payload, size_t n)
{
    enum pqpan_mesh_prov_role peer = (enum pqpan_mesh_prov_role)(1 - s);
    uint64_t second = t + pqpan_ble_packet_ns(c->m->cfg->link.phy,
                                              s == P ? (uint32_t)n : 0u, 0) + PQPAN_BLE_T_IFS_NS;
    if (s == P) {
        ll_pdu(c, P, t, llid, payload, n);
        ll_pdu(c, peer, second, PQPAN_LLID_CONTINUE, NULL, 0u);
    } else {
        ll_pdu(c, peer, t, PQPAN_LLID_CONTINUE, NULL, 0u);
        ll_pdu(c, s, second, llid, payload, n);
    }
}

/* LL data PDUs of one L2CAP frame carrying att[0..len) (Vol 3 Part A §3.1). */
static uint32_t fragments(const struct capture *c, size_t len)
{
    uint32_t frame = (uint32_t)len + PQPAN_L2CAP_HDR_BYTES, ll = c->m->cfg->link.ll_octets;
    return (frame + ll - 1u) / ll;
}

/* The L2CAP frame of att[0..len) from s, its fragments as pairs from *t on. */
static void l2cap_frame(struct capture *c, enum pqpan_mesh_prov_role s, uint64_t *t,
                        const uint8_t *att, size_t len)
{
    uint8_t frame[PQPAN_L2CAP_HDR_BYTES + PQPAN_ATT_MAX_MTU];
    struct pqpan_l2cap_hdr h;
    uint32_t ll = c->m->cfg->link.ll_octets, off;
    size_t total = PQPAN_L2CAP_HDR_BYTES + len;
    h.length = (uint16_t)len;
    h.cid = PQPAN_L2CAP_CID_ATT;
    if (pqpan_l2cap_pdu_hdr_write(frame, &h) != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    memcpy(frame + PQPAN_L2CAP_HDR_BYTES, att, len);
    for (off = 0; off < total && c->error == 0; off += ll) {
        size_t n = total - off < ll ? total - off : ll;
        pair(c, s, *t, off == 0u ? PQPAN_LLID_START : PQPAN_LLID_CONTINUE, frame + off, n);
        *t += pair_ns(c, ll);
    }
}

/* ---- the set-up ---- */

static void connect_ind(struct capture *c)
{
    uint8_t pdu[PQPAN_CONNECT_IND_PDU + PQPAN_LL_CRC_BYTES];
    struct pqpan_connect_ind ci;
    uint32_t i;
    memset(&ci, 0, sizeof ci);
    for (i = 0; i < 6u; i++) { /* random static addresses (Vol 6 Part B §1.3.2.1) */
        ci.init_addr[i] = (uint8_t)(0x11u * (i + 1u));
        ci.adv_addr[i] = (uint8_t)(0x22u * (i + 1u));
    }
    ci.init_addr[5] |= 0xC0u;
    ci.adv_addr[5] |= 0xC0u;
    ci.tx_add_random = 1;
    ci.rx_add_random = 1;
    ci.access_address = c->aa;
    ci.crc_init = c->crc_init;
    ci.win_size = CONN_WIN_SIZE;
    ci.interval = (uint16_t)(c->m->cfg->link.ci_ns / CONN_UNIT_NS);
    ci.timeout = CONN_TIMEOUT_10MS;
    memset(ci.chm, 0xFF, sizeof ci.chm);
    ci.chm[4] = 0x1Fu; /* data channels 0..36 */
    ci.hop = CONN_HOP;
    if (pqpan_connect_ind_write(pdu, &ci) != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, pdu, PQPAN_CONNECT_IND_PDU);
    (void)emit(c, 0u, RF_CHANNEL_ADV37, PQPAN_PCAP_BLE_ADV, PQPAN_LL_ADV_AA, pdu, sizeof pdu);
}

/* One ATT PDU from s (of the set-up) at t. */
static void setup_att(struct capture *c, enum pqpan_mesh_prov_role s, uint64_t t,
                      const struct pqpan_att_pdu *a)
{
    uint8_t att[PQPAN_ATT_DEFAULT_MTU];
    size_t n = 0;
    if (pqpan_att_pdu_write(att, sizeof att, a, &n) != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    l2cap_frame(c, s, &t, att, n);
}

/* The ATT_MTU exchange (Vol 3 Part G §4.3.1: both sides offer the link's ATT_MTU), Find
 * Information over the service's handles (§4.7.1) and the CCCD write enabling
 * notifications (§4.12.3), one request and its response per connection event. */
static void discovery(struct capture *c)
{
    static const uint8_t info[] = {
        MESH_PBGATT_HANDLE_DATA_IN & 0xFFu,  MESH_PBGATT_HANDLE_DATA_IN >> 8,
        MESH_PBGATT_UUID_DATA_IN & 0xFFu,    MESH_PBGATT_UUID_DATA_IN >> 8,
        MESH_PBGATT_HANDLE_DATA_OUT & 0xFFu, MESH_PBGATT_HANDLE_DATA_OUT >> 8,
        MESH_PBGATT_UUID_DATA_OUT & 0xFFu,   MESH_PBGATT_UUID_DATA_OUT >> 8,
        MESH_PBGATT_HANDLE_CCCD & 0xFFu,     MESH_PBGATT_HANDLE_CCCD >> 8,
        MESH_PBGATT_UUID_CCCD & 0xFFu,       MESH_PBGATT_UUID_CCCD >> 8};
    static const uint8_t notify[2] = {0x01u, 0x00u}; /* §3.3.3.3: Notification enabled */
    uint64_t ci = c->m->cfg->link.ci_ns, half = pair_ns(c, PQPAN_ATT_DEFAULT_MTU);
    struct pqpan_att_pdu a;
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_EXCHANGE_MTU_REQ;
    a.mtu = (uint16_t)c->m->cfg->link.att_mtu;
    setup_att(c, P, ci, &a);
    a.opcode = PQPAN_ATT_EXCHANGE_MTU_RSP;
    setup_att(c, D, ci + half, &a);
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_FIND_INFORMATION_REQ;
    a.handle = MESH_PBGATT_HANDLE_DATA_IN;
    a.end_handle = MESH_PBGATT_HANDLE_CCCD;
    setup_att(c, P, 2u * ci, &a);
    a.opcode = PQPAN_ATT_FIND_INFORMATION_RSP;
    a.format = PQPAN_ATT_FORMAT_UUID16;
    a.value = info;
    a.value_len = sizeof info;
    setup_att(c, D, 2u * ci + half, &a);
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_WRITE_REQ;
    a.handle = MESH_PBGATT_HANDLE_CCCD;
    a.value = notify;
    a.value_len = sizeof notify;
    setup_att(c, P, 3u * ci, &a);
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_WRITE_RSP;
    setup_att(c, D, 3u * ci + half, &a);
}

/* ---- the run ---- */

/* When the connection model has txns[0..n) delivered. */
static uint64_t delivered_ns(const struct pbgatt_sim *m, uint32_t n)
{
    struct pqpan_ble_link link;
    uint64_t t = 0;
    pqpan_mesh_pbgatt_link(&link, &m->cfg->link);
    pqpan_ble_schedule(NULL, NULL, NULL, &t, &link, m->dev, m->txns, n);
    return t;
}

/* The LL PDUs of Provisioning PDU i, pairs back to back up to its delivery. */
static void provisioning_pdu(struct capture *c, uint32_t i)
{
    const struct pbgatt_sent *s = &c->m->sent[i];
    uint32_t att_mtu = c->m->cfg->link.att_mtu, segs = pqpan_mesh_proxy_segments(s->len, att_mtu);
    uint32_t seg, pairs = 0;
    uint8_t att[PQPAN_ATT_MAX_MTU];
    size_t n[2];
    uint64_t end = c->base_ns + delivered_ns(c->m, i + 1u), span, t;
    n[0] = pqpan_mesh_pbgatt_att_segment(att, sizeof att, s->sender, s->pdu, s->len, 0u, att_mtu);
    n[1] = pqpan_mesh_pbgatt_att_segment(att, sizeof att, s->sender, s->pdu, s->len, segs - 1u,
                                         att_mtu);
    pairs = (segs - 1u) * fragments(c, n[0]) + fragments(c, n[1]);
    span = pairs * pair_ns(c, c->m->cfg->link.ll_octets);
    t = end > span + c->last_ns ? end - span : c->last_ns + pair_ns(c, c->m->cfg->link.ll_octets);
    for (seg = 0; seg < segs && c->error == 0; seg++) {
        size_t len = pqpan_mesh_pbgatt_att_segment(att, sizeof att, s->sender, s->pdu, s->len,
                                                   seg, att_mtu);
        l2cap_frame(c, s->sender, &t, att, len);
    }
}

int pqpan_mesh_pbgatt_capture(struct pbgatt_sim *m)
{
    struct capture c;
    uint8_t r[7];
    uint32_t i;
    memset(&c, 0, sizeof c);
    c.m = m;
    /* the connection's access address and CRC preset, random (Vol 6 Part B §2.1.2; its
     * bit-pattern rules are not applied: a sniffer takes both from the CONNECT_IND) */
    if (pqpan_mesh_prov_run_random(&m->run, r, sizeof r) != 0) {
        return PQPAN_ERR_RNG;
    }
    c.aa = (uint32_t)r[0] << 24 | (uint32_t)r[1] << 16 | (uint32_t)r[2] << 8 | r[3];
    c.crc_init = (uint32_t)r[4] << 16 | (uint32_t)r[5] << 8 | r[6];
    c.base_ns = (SETUP_EVENTS + 1u) * m->cfg->link.ci_ns;
    connect_ind(&c);
    discovery(&c);
    for (i = 0; i < m->n_sent && c.error == 0; i++) {
        provisioning_pdu(&c, i);
    }
    return c.error;
}
