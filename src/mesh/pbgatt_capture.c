/* The PB-GATT simulator's capture (pqpan_mesh_pbgatt_simulate with on_packet): what a
 * sniffer records, on the priced clock (time 0: the provisioner starts scanning). First
 * the connection's set-up as pqpan_mesh_pbgatt_setup prices it (MshPRT v1.1 §5.2.2; with
 * --setup none it is still written, as a sniffer needs it to follow the connection, but not
 * priced): the device's advertising event that the provisioner hears (ADV_IND on 37 and 38
 * with the Mesh Provisioning Service's AD structures, §7.1.2.2.1), the CONNECT_IND, then
 * every connection event of the set-up, idle ones included: the feature and version
 * exchange, the PHY update and data length update when the link needs them, the ATT_MTU
 * exchange, the discovery of the service and the CCCD write (PDUs of the sizes
 * pqpan_mesh_pbgatt_service prices: the capture refuses another size). Then the run, each
 * Proxy PDU's ATT PDU in an L2CAP frame on the ATT channel, fragmented into LL data PDUs of
 * the link's LL octets (Core v5.4 Vol 6 Part B §2.4, LLID start / continuation), each
 * answered by the peer's empty PDU (the run's idle events, while a side computes, are not
 * written). Times: a set-up event at its anchor, connInterval after the one before; a
 * Provisioning PDU's LL PDUs end when the connection model (pqpan_ble_schedule over the PDUs
 * sent so far, after the set-up's last event) says its last is delivered, pairs back to
 * back before it; channels by Channel Selection Algorithm #1 with every data channel used
 * (§4.5.8.2). */
#include <string.h>

#include "pbgatt_sim.h"

#define P PQPAN_MESH_PROVISIONER
#define D PQPAN_MESH_DEVICE

/* CONNECT_IND: transmitWindowSize 1 (1.25 ms units), supervision timeout 32 s (the most,
 * §2.3.3.1), hopIncrement 7 (5..16), all 37 data channels. */
#define CONN_WIN_SIZE 1u
#define CONN_TIMEOUT_10MS 3200u
#define CONN_HOP 7u
#define DATA_CHANNELS 37u
#define CONN_UNIT_NS 1250000u /* connInterval units of 1.25 ms (§2.3.3.1) */
/* §4.5.3: transmitWindowDelay on LE 1M between the CONNECT_IND's end and the window. */
#define TRANSMIT_WINDOW_DELAY_NS 1250000u
/* RF channels of advertising channels 37 and 38 (Vol 6 Part A §2, Table 2.1). */
#define RF_CHANNEL_ADV37 0u
#define RF_CHANNEL_ADV38 12u
/* AD types (Assigned Numbers §2.3; CSS Part A §1.3 Flags, §1.1 Service UUIDs, §1.11 Service
 * Data) and Flags LE General Discoverable Mode | BR/EDR Not Supported (0x02 | 0x04). */
#define AD_FLAGS 0x01u
#define AD_UUID16_COMPLETE 0x03u
#define AD_SERVICE_DATA16 0x16u
#define FLAGS_GENERAL_NO_BREDR 0x06u
#define MESH_PROV_SERVICE 0x1827u /* Assigned Numbers §3.4: Mesh Provisioning Service */
#define DEVICE_UUID_BYTES 16u
/* The device's attribute table (pbgatt_sim.h; mesh_prov.h pqpan_mesh_pbgatt_service). */
#define HANDLE_SERVICE 0x0010u
#define HANDLE_DATA_IN_DECL 0x0011u
#define HANDLE_DATA_OUT_DECL 0x0013u
#define HANDLE_LAST MESH_PBGATT_HANDLE_CCCD
#define UUID_PRIMARY_SERVICE 0x2800u    /* «Primary Service», Vol 3 Part G §3.1 */
#define UUID_CHARACTERISTIC 0x2803u     /* «Characteristic», §3.3.1 */
#define PROP_WRITE_WITHOUT_RESPONSE 0x04u /* §3.3.1.1 */
#define PROP_NOTIFY 0x10u

struct capture {
    struct pbgatt_sim *m;
    uint32_t aa, crc_init;
    uint8_t sn[2], nesn[2];  /* index enum pqpan_mesh_prov_role (provisioner = central) */
    uint8_t uuid[DEVICE_UUID_BYTES]; /* the device's UUID, advertised */
    enum pqpan_ble_phy phy;  /* the connection's PHY now */
    uint64_t anchor0_ns;     /* the connection's first anchor (connEventCounter 0) */
    uint64_t event;          /* the set-up's next event */
    uint64_t start_close_ns; /* where the priced run continues (its link's start_close_ns) */
    uint64_t base_ns;        /* the run's time 0: the anchor of the set-up's last event */
    uint64_t last_ns;        /* the last packet's start */
    struct pqpan_ble_service svc;
    int error;
};

static uint64_t ci_of(const struct capture *c)
{
    return c->m->cfg->link.ci_ns;
}

/* RF channel of data channel index ch (Vol 6 Part A §2: 0..10 → 1..11, 11..36 → 13..38). */
static uint8_t rf_of(uint32_t ch)
{
    return (uint8_t)(ch < 11u ? ch + 1u : ch + 2u);
}

static int emit(struct capture *c, uint64_t t, uint8_t rf, uint8_t type, uint32_t aa,
                enum pqpan_ble_phy phy, const uint8_t *pdu, size_t len)
{
    struct pqpan_pcap_ble_info info;
    const struct pqpan_mesh_pbgatt_sim_config *cfg = c->m->cfg;
    memset(&info, 0, sizeof info);
    info.rf_channel = rf;
    info.pdu_type = type;
    info.phy = (uint8_t)(phy == PQPAN_BLE_PHY_2M ? 1u : phy == PQPAN_BLE_PHY_1M ? 0u : 2u);
    info.coding_s2 = phy == PQPAN_BLE_PHY_CODED_S2;
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
    uint64_t event = (t - c->anchor0_ns + ci_of(c) / 2u) / ci_of(c);
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
               s == P ? PQPAN_PCAP_BLE_DATA_C_TO_P : PQPAN_PCAP_BLE_DATA_P_TO_C, c->aa, c->phy,
               pdu, PQPAN_LL_HDR_BYTES + n + PQPAN_LL_CRC_BYTES);
}

/* One LL PDU's content: its LLID and payload (n 0: an empty PDU). */
struct ll_payload {
    uint8_t llid;
    uint8_t b[PQPAN_LL_DATA_MAX_PAYLOAD];
    size_t n;
};

static const struct ll_payload empty_pdu = {PQPAN_LLID_CONTINUE, {0}, 0};

/* An event's pair at t: the central's PDU cp, T_IFS, the peripheral's pp (§4.5.1). */
static void event_pair(struct capture *c, uint64_t t, const struct ll_payload *cp,
                       const struct ll_payload *pp)
{
    uint64_t second = t + pqpan_ble_packet_ns(c->phy, (uint32_t)cp->n, 0) + PQPAN_BLE_T_IFS_NS;
    ll_pdu(c, P, t, cp->llid, cp->b, cp->n);
    ll_pdu(c, D, second, pp->llid, pp->b, pp->n);
}

/* Air time of a PDU pair: s's PDU of n octets and the peer's empty one, each followed by
 * T_IFS (Vol 6 Part B §4.1.1). */
static uint64_t pair_ns(const struct capture *c, uint32_t n)
{
    return pqpan_ble_packet_ns(c->phy, n, 0) + pqpan_ble_packet_ns(c->phy, 0u, 0) +
           2u * (uint64_t)PQPAN_BLE_T_IFS_NS;
}

/* LL data PDUs of one L2CAP frame carrying att[0..len) (Vol 3 Part A §3.1). */
static uint32_t fragments(const struct capture *c, size_t len)
{
    uint32_t frame = (uint32_t)len + PQPAN_L2CAP_HDR_BYTES, ll = c->m->cfg->link.ll_octets;
    return (frame + ll - 1u) / ll;
}

/* The L2CAP frame of att[0..len) from s, its fragments as pairs from *t on, each answered
 * by the peer's empty PDU. */
static void l2cap_frame(struct capture *c, enum pqpan_mesh_prov_role s, uint64_t *t,
                        const uint8_t *att, size_t len)
{
    uint8_t frame[PQPAN_L2CAP_HDR_BYTES + PQPAN_ATT_MAX_MTU];
    struct pqpan_l2cap_hdr h;
    struct ll_payload x;
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
        x.n = total - off < ll ? total - off : ll;
        x.llid = off == 0u ? PQPAN_LLID_START : PQPAN_LLID_CONTINUE;
        memcpy(x.b, frame + off, x.n);
        event_pair(c, *t, s == P ? &x : &empty_pdu, s == P ? &empty_pdu : &x);
        *t += pair_ns(c, ll);
    }
}

/* ---- the set-up: advertising and connection ---- */

/* The ADV_IND (Vol 6 Part B §2.3.1.1): AdvA the device's static random address (as in the
 * CONNECT_IND), AdvData Flags, Complete List of 16-bit Service UUIDs (0x1827) and Service
 * Data 0x1827: Device UUID, OOB Information 0x0000 (none; MshPRT §7.1.2.2.1, big-endian as
 * the mesh fields). */
static void adv_ind(struct capture *c, uint64_t t, uint8_t rf, const uint8_t addr[6])
{
    uint8_t pdu[PQPAN_ADV_IND_PDU_MAX + PQPAN_LL_CRC_BYTES];
    struct pqpan_adv_ind a;
    size_t n = 0, k = 0;
    memset(&a, 0, sizeof a);
    memcpy(a.adv_addr, addr, PQPAN_BD_ADDR_BYTES);
    a.tx_add_random = 1;
    a.data[k++] = 2u;
    a.data[k++] = AD_FLAGS;
    a.data[k++] = FLAGS_GENERAL_NO_BREDR;
    a.data[k++] = 3u;
    a.data[k++] = AD_UUID16_COMPLETE;
    a.data[k++] = MESH_PROV_SERVICE & 0xFFu;
    a.data[k++] = MESH_PROV_SERVICE >> 8;
    a.data[k++] = (uint8_t)(1u + 2u + DEVICE_UUID_BYTES + 2u);
    a.data[k++] = AD_SERVICE_DATA16;
    a.data[k++] = MESH_PROV_SERVICE & 0xFFu;
    a.data[k++] = MESH_PROV_SERVICE >> 8;
    memcpy(a.data + k, c->uuid, DEVICE_UUID_BYTES);
    k += DEVICE_UUID_BYTES + 2u; /* OOB Information 0x0000 */
    a.data_len = (uint8_t)k;
    if (pqpan_adv_ind_write(pdu, PQPAN_ADV_IND_PDU_MAX, &a, &n) != PQPAN_OK ||
        n != PQPAN_LL_HDR_BYTES + c->svc.adv_ind_payload) {
        c->error = PQPAN_ERR_STATE; /* not the size the set-up priced */
        return;
    }
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, pdu, n);
    (void)emit(c, t, rf, PQPAN_PCAP_BLE_ADV, PQPAN_LL_ADV_AA, PQPAN_BLE_PHY_1M, pdu,
               n + PQPAN_LL_CRC_BYTES);
}

static void connect_ind(struct capture *c, uint64_t t, const uint8_t init_addr[6],
                        const uint8_t adv_addr[6])
{
    uint8_t pdu[PQPAN_CONNECT_IND_PDU + PQPAN_LL_CRC_BYTES];
    struct pqpan_connect_ind ci;
    memset(&ci, 0, sizeof ci);
    memcpy(ci.init_addr, init_addr, sizeof ci.init_addr);
    memcpy(ci.adv_addr, adv_addr, sizeof ci.adv_addr);
    ci.tx_add_random = 1;
    ci.rx_add_random = 1;
    ci.access_address = c->aa;
    ci.crc_init = c->crc_init;
    ci.win_size = CONN_WIN_SIZE;
    ci.interval = (uint16_t)(ci_of(c) / CONN_UNIT_NS);
    ci.timeout = CONN_TIMEOUT_10MS;
    memset(ci.chm, 0xFF, sizeof ci.chm);
    ci.chm[4] = 0x1Fu; /* data channels 0..36 */
    ci.hop = CONN_HOP;
    if (pqpan_connect_ind_write(pdu, &ci) != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, pdu, PQPAN_CONNECT_IND_PDU);
    (void)emit(c, t, RF_CHANNEL_ADV38, PQPAN_PCAP_BLE_ADV, PQPAN_LL_ADV_AA, PQPAN_BLE_PHY_1M, pdu,
               sizeof pdu);
}

/* The advertising phase's expected case as setup.c books it (pqpan_ble_adv_mean): the
 * scanner starts up (pre-processing, crystal, ramp-up) and listens on 38 for E[W]; the
 * device's event sends ADV_IND on 37, turns around, listens, ramps up again and sends
 * ADV_IND on 38, which the scanner answers T_IFS after its end with the CONNECT_IND; the
 * first anchor comes transmitWindowDelay after the CONNECT_IND (WinOffset 0), its event a
 * pair of empty PDUs. */
static void advertise_and_connect(struct capture *c)
{
    const struct pqpan_ble_device *d = &c->m->dev[0];
    uint8_t init_addr[6], adv_addr[6], channel;
    uint64_t t_adv = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, c->svc.adv_ind_payload, 0);
    uint64_t wait, t38, t37, t_conn;
    uint32_t i;
    for (i = 0; i < 6u; i++) { /* random static addresses (Vol 6 Part B §1.3.2.1) */
        init_addr[i] = (uint8_t)(0x11u * (i + 1u));
        adv_addr[i] = (uint8_t)(0x22u * (i + 1u));
    }
    init_addr[5] |= 0xC0u;
    adv_addr[5] |= 0xC0u;
    pqpan_ble_adv_mean(c->m->cfg->link.adv_interval_ns, &channel, &wait);
    t38 = (uint64_t)d->pre_ns + d->hfxo_start_ns + d->ramp_ns + wait;
    t37 = t38 - (t_adv + PQPAN_BLE_T_IFS_NS + pqpan_ble_adv_listen_ns() + d->ramp_ns);
    t_conn = t38 + t_adv + PQPAN_BLE_T_IFS_NS;
    adv_ind(c, t37, RF_CHANNEL_ADV37, adv_addr);
    adv_ind(c, t38, RF_CHANNEL_ADV38, adv_addr);
    connect_ind(c, t_conn, init_addr, adv_addr);
    c->anchor0_ns = t_conn + pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, PQPAN_CONNECT_IND_PAYLOAD, 0) +
                    TRANSMIT_WINDOW_DELAY_NS;
    event_pair(c, c->anchor0_ns, &empty_pdu, &empty_pdu);
    c->event = 1u;
}

/* ---- the set-up: its procedures, event by event ---- */

/* A set-up transaction: the central's request, the peripheral's response (n 0: none). */
struct setup_txn {
    struct ll_payload req, rsp;
};

static void ll_control(struct capture *c, struct ll_payload *x, int rc)
{
    x->llid = PQPAN_LLID_CONTROL;
    if (rc != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
    }
}

/* An ATT PDU in an L2CAP frame of one LL PDU; its size must be the priced one. */
static void att_payload(struct capture *c, struct ll_payload *x, const struct pqpan_att_pdu *a,
                        uint32_t priced)
{
    struct pqpan_l2cap_hdr h;
    size_t n = 0;
    x->llid = PQPAN_LLID_START;
    if (pqpan_att_pdu_write(x->b + PQPAN_L2CAP_HDR_BYTES,
                            PQPAN_LL_DATA_MIN_PAYLOAD - PQPAN_L2CAP_HDR_BYTES, a, &n) != PQPAN_OK ||
        n != priced) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    h.length = (uint16_t)n;
    h.cid = PQPAN_L2CAP_CID_ATT;
    if (pqpan_l2cap_pdu_hdr_write(x->b, &h) != PQPAN_OK) {
        c->error = PQPAN_ERR_STATE;
    }
    x->n = PQPAN_L2CAP_HDR_BYTES + n;
}

/* The events of a set-up phase, `events` of them from c->event (their number from the
 * phase's priced span): the txns' events first, each request in its own event and its
 * response in the next (or in the same one, as the link's replies go), then idle events,
 * the last on PHY `last_phy` (a PHY update's instant). */
static void setup_phase(struct capture *c, uint64_t span_ns, const struct setup_txn *t, uint32_t n,
                        enum pqpan_ble_phy last_phy)
{
    uint64_t ci = ci_of(c), events = (span_ns + ci / 2u) / ci, used = 0, k;
    int same = c->m->cfg->link.same_event_reply;
    uint32_t i;
    for (i = 0; i < n && c->error == 0; i++) {
        uint64_t t0 = c->anchor0_ns + (c->event + used) * ci;
        if (same || t[i].rsp.n == 0u) {
            event_pair(c, t0, &t[i].req, t[i].rsp.n != 0u ? &t[i].rsp : &empty_pdu);
            used += 1u;
        } else {
            event_pair(c, t0, &t[i].req, &empty_pdu);
            event_pair(c, t0 + ci, &empty_pdu, &t[i].rsp);
            used += 2u;
        }
    }
    if (used > events) {
        c->error = PQPAN_ERR_STATE; /* not the events the set-up priced */
        return;
    }
    for (k = used; k < events && c->error == 0; k++) {
        if (k + 1u == events) {
            c->phy = last_phy;
        }
        event_pair(c, c->anchor0_ns + (c->event + k) * ci, &empty_pdu, &empty_pdu);
    }
    c->event += events;
}

static uint8_t phy_mask(enum pqpan_ble_phy phy)
{
    if (phy == PQPAN_BLE_PHY_2M) {
        return PQPAN_LL_PHY_2M;
    }
    return phy == PQPAN_BLE_PHY_1M ? PQPAN_LL_PHY_1M : PQPAN_LL_PHY_CODED;
}

/* LL_FEATURE_REQ / RSP, LL_VERSION_IND both ways (§5.1.4.1, §5.1.5). */
static void features(struct capture *c, const struct pqpan_ble_estimate *s)
{
    struct setup_txn t[2];
    uint8_t feature_set[PQPAN_LL_FEATURE_SET_BYTES];
    struct pqpan_ll_version ll_version = pqpan_ll_own_version();
    memset(t, 0, sizeof t);
    pqpan_ll_own_features(feature_set);
    ll_control(c, &t[0].req, pqpan_ll_pdu_feature_write(t[0].req.b, sizeof t[0].req.b,
                                                        PQPAN_LL_FEATURE_REQ, feature_set,
                                                        &t[0].req.n));
    ll_control(c, &t[0].rsp, pqpan_ll_pdu_feature_write(t[0].rsp.b, sizeof t[0].rsp.b,
                                                        PQPAN_LL_FEATURE_RSP, feature_set,
                                                        &t[0].rsp.n));
    ll_control(c, &t[1].req, pqpan_ll_pdu_version_write(t[1].req.b, sizeof t[1].req.b,
                                                        &ll_version, &t[1].req.n));
    t[1].rsp = t[1].req;
    setup_phase(c, s->span_ns[PQPAN_PHASE_FEATURES], t, 2u, c->phy);
}

/* LL_PHY_REQ / RSP, LL_PHY_UPDATE_IND with its instant 6 events on (§5.1.10), then idle
 * events up to the instant's, on the new PHY. */
static void phy_update(struct capture *c, const struct pqpan_ble_estimate *s)
{
    enum pqpan_ble_phy to = c->m->cfg->link.phy;
    uint8_t mask = phy_mask(to);
    struct pqpan_ll_phy_update u;
    struct setup_txn t[2];
    uint64_t ind_event = c->event + (c->m->cfg->link.same_event_reply ? 1u : 2u);
    memset(t, 0, sizeof t);
    ll_control(c, &t[0].req, pqpan_ll_pdu_phy_req_write(t[0].req.b, sizeof t[0].req.b,
                                                        PQPAN_LL_PHY_REQ, mask, mask,
                                                        &t[0].req.n));
    ll_control(c, &t[0].rsp, pqpan_ll_pdu_phy_req_write(t[0].rsp.b, sizeof t[0].rsp.b,
                                                        PQPAN_LL_PHY_RSP, mask, mask,
                                                        &t[0].rsp.n));
    u.phy_c_to_p = mask;
    u.phy_p_to_c = mask;
    u.instant = (uint16_t)(ind_event + PQPAN_LL_INSTANT_EVENTS);
    ll_control(c, &t[1].req,
               pqpan_ll_pdu_phy_update_write(t[1].req.b, sizeof t[1].req.b, &u, &t[1].req.n));
    setup_phase(c, s->span_ns[PQPAN_PHASE_PHY_UPDATE], t, 2u, to);
}

/* LL_LENGTH_REQ / RSP (§5.1.9): the link's LL octets both ways, the time they take on its
 * PHY (in §4.5.10's range). */
static void length_update(struct capture *c, const struct pqpan_ble_estimate *s)
{
    uint32_t octets = c->m->cfg->link.ll_octets;
    uint64_t us = (pqpan_ble_packet_ns(c->phy, octets, 0) + 999u) / 1000u;
    struct pqpan_ll_length l;
    struct setup_txn t[1];
    memset(t, 0, sizeof t);
    if (us < PQPAN_LL_MIN_TIME_US) {
        us = PQPAN_LL_MIN_TIME_US;
    }
    if (us > PQPAN_LL_MAX_TIME_US) {
        us = PQPAN_LL_MAX_TIME_US;
    }
    l.max_rx_octets = (uint16_t)octets;
    l.max_tx_octets = (uint16_t)octets;
    l.max_rx_time_us = (uint16_t)us;
    l.max_tx_time_us = (uint16_t)us;
    ll_control(c, &t[0].req, pqpan_ll_pdu_length_write(t[0].req.b, sizeof t[0].req.b,
                                                       PQPAN_LL_LENGTH_REQ, &l, &t[0].req.n));
    ll_control(c, &t[0].rsp, pqpan_ll_pdu_length_write(t[0].rsp.b, sizeof t[0].rsp.b,
                                                       PQPAN_LL_LENGTH_RSP, &l, &t[0].rsp.n));
    setup_phase(c, s->span_ns[PQPAN_PHASE_LENGTH_UPDATE], t, 1u, c->phy);
}

/* Exchange MTU Request / Response, both the link's ATT_MTU (Vol 3 Part G §4.3.1). */
static void mtu_exchange(struct capture *c, const struct pqpan_ble_estimate *s)
{
    struct pqpan_att_pdu a;
    struct setup_txn t[1];
    memset(t, 0, sizeof t);
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_EXCHANGE_MTU_REQ;
    a.mtu = (uint16_t)c->m->cfg->link.att_mtu;
    att_payload(c, &t[0].req, &a, PQPAN_ATT_MTU_REQ_BYTES);
    a.opcode = PQPAN_ATT_EXCHANGE_MTU_RSP;
    att_payload(c, &t[0].rsp, &a, PQPAN_ATT_MTU_REQ_BYTES);
    setup_phase(c, s->span_ns[PQPAN_PHASE_MTU_EXCHANGE], t, 1u, c->phy);
}

static void put16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v & 0xFFu);
    p[1] = (uint8_t)(v >> 8);
}

/* A range request (start..end) with a 16-bit value (Find By Type Value: the attribute type
 * in type16 and the value; Read By Type, Find Information: the type or nothing). */
static void range_req(struct pqpan_att_pdu *a, uint8_t opcode, uint32_t start, uint32_t end,
                      const uint8_t *value, size_t value_len)
{
    memset(a, 0, sizeof *a);
    a->opcode = opcode;
    a->handle = (uint16_t)start;
    a->end_handle = (uint16_t)end;
    a->value = value;
    a->value_len = value_len;
}

static void not_found(struct pqpan_att_pdu *a, uint8_t req_opcode, uint32_t handle)
{
    memset(a, 0, sizeof *a);
    a->opcode = PQPAN_ATT_ERROR_RSP;
    a->req_opcode = req_opcode;
    a->handle = (uint16_t)handle;
    a->error_code = PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND;
}

/* The discovery's requests and responses (mesh_prov.h pqpan_mesh_pbgatt_service), each the
 * size svc prices. */
static void discovery_pdus(struct capture *c, struct setup_txn t[6])
{
    uint8_t service[2], chr_type[2], group[4], decls[14], info[4], notify[2];
    struct pqpan_att_pdu a;
    const struct pqpan_ble_att_step *st = c->svc.discovery;
    put16(service, MESH_PROV_SERVICE);
    put16(chr_type, UUID_CHARACTERISTIC);
    put16(group, HANDLE_SERVICE);
    put16(group + 2, HANDLE_LAST);
    put16(decls, HANDLE_DATA_IN_DECL);
    decls[2] = PROP_WRITE_WITHOUT_RESPONSE;
    put16(decls + 3, MESH_PBGATT_HANDLE_DATA_IN);
    put16(decls + 5, MESH_PBGATT_UUID_DATA_IN);
    put16(decls + 7, HANDLE_DATA_OUT_DECL);
    decls[9] = PROP_NOTIFY;
    put16(decls + 10, MESH_PBGATT_HANDLE_DATA_OUT);
    put16(decls + 12, MESH_PBGATT_UUID_DATA_OUT);
    put16(info, MESH_PBGATT_HANDLE_CCCD);
    put16(info + 2, MESH_PBGATT_UUID_CCCD);
    put16(notify, 0x0001u); /* Part G §3.3.3.3: notifications enabled */
    memset(t, 0, 6u * sizeof t[0]);
    /* Discover Primary Service by Service UUID (§4.4.2) */
    range_req(&a, PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ, 0x0001u, 0xFFFFu, service, sizeof service);
    a.type16 = UUID_PRIMARY_SERVICE;
    att_payload(c, &t[0].req, &a, st[0].req);
    range_req(&a, PQPAN_ATT_FIND_BY_TYPE_VALUE_RSP, 0u, 0u, group, sizeof group);
    att_payload(c, &t[0].rsp, &a, st[0].rsp);
    range_req(&a, PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ, HANDLE_LAST + 1u, 0xFFFFu, service,
              sizeof service);
    a.type16 = UUID_PRIMARY_SERVICE;
    att_payload(c, &t[1].req, &a, st[1].req);
    not_found(&a, PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ, HANDLE_LAST + 1u);
    att_payload(c, &t[1].rsp, &a, st[1].rsp);
    /* Discover All Characteristics of a Service (§4.6.1) */
    range_req(&a, PQPAN_ATT_READ_BY_TYPE_REQ, HANDLE_SERVICE, HANDLE_LAST, chr_type,
              sizeof chr_type);
    att_payload(c, &t[2].req, &a, st[2].req);
    range_req(&a, PQPAN_ATT_READ_BY_TYPE_RSP, 0u, 0u, decls, sizeof decls);
    a.format = 7u; /* each pair: handle 2, properties 1, value handle 2, UUID 2 */
    att_payload(c, &t[2].rsp, &a, st[2].rsp);
    range_req(&a, PQPAN_ATT_READ_BY_TYPE_REQ, HANDLE_DATA_OUT_DECL + 1u, HANDLE_LAST, chr_type,
              sizeof chr_type);
    att_payload(c, &t[3].req, &a, st[3].req);
    not_found(&a, PQPAN_ATT_READ_BY_TYPE_REQ, HANDLE_DATA_OUT_DECL + 1u);
    att_payload(c, &t[3].rsp, &a, st[3].rsp);
    /* Discover All Characteristic Descriptors of Data Out (§4.7.1) */
    range_req(&a, PQPAN_ATT_FIND_INFORMATION_REQ, MESH_PBGATT_HANDLE_CCCD, HANDLE_LAST, NULL, 0u);
    att_payload(c, &t[4].req, &a, st[4].req);
    range_req(&a, PQPAN_ATT_FIND_INFORMATION_RSP, 0u, 0u, info, sizeof info);
    a.format = PQPAN_ATT_FORMAT_UUID16;
    att_payload(c, &t[4].rsp, &a, st[4].rsp);
    /* Write Characteristic Descriptors (§4.12.3) */
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_WRITE_REQ;
    a.handle = MESH_PBGATT_HANDLE_CCCD;
    a.value = notify;
    a.value_len = sizeof notify;
    att_payload(c, &t[5].req, &a, st[5].req);
    memset(&a, 0, sizeof a);
    a.opcode = PQPAN_ATT_WRITE_RSP;
    att_payload(c, &t[5].rsp, &a, st[5].rsp);
}

static void discovery(struct capture *c, const struct pqpan_ble_estimate *s)
{
    struct setup_txn t[6];
    if (c->svc.n_discovery != 6u) {
        c->error = PQPAN_ERR_STATE;
        return;
    }
    discovery_pdus(c, t);
    setup_phase(c, s->span_ns[PQPAN_PHASE_DISCOVERY], t, 6u, c->phy);
}

/* The set-up's packets on the clock of the priced set-up s; the run's base after it. */
static void setup(struct capture *c, const struct pqpan_ble_estimate *s)
{
    const struct pqpan_mesh_pbgatt_config *cfg = &c->m->cfg->link;
    advertise_and_connect(c);
    features(c, s);
    if (cfg->phy != PQPAN_BLE_PHY_1M) {
        phy_update(c, s);
    }
    if (cfg->ll_octets != PQPAN_LL_DATA_MIN_PAYLOAD) {
        length_update(c, s);
    }
    if (cfg->att_mtu > PQPAN_ATT_DEFAULT_MTU) {
        mtu_exchange(c, s);
    }
    discovery(c, s);
    if (c->error == 0 && c->event != s->counts.setup_events + 1u) {
        c->error = PQPAN_ERR_STATE; /* the set-up's events are not the priced ones */
    }
    c->base_ns = c->anchor0_ns + (c->event - 1u) * ci_of(c);
    c->start_close_ns = cfg->setup == PQPAN_MESH_PBGATT_SETUP_FULL ? s->counts.last_close_ns : 0u;
    c->phy = cfg->phy;
}

/* ---- the run ---- */

/* When the connection model has txns[0..n) delivered, from the run's time 0. */
static uint64_t delivered_ns(const struct capture *c, uint32_t n)
{
    struct pqpan_ble_link link;
    uint64_t t = 0;
    pqpan_mesh_pbgatt_link(&link, &c->m->cfg->link);
    link.start_close_ns = c->start_close_ns;
    pqpan_ble_schedule(NULL, NULL, NULL, &t, &link, c->m->dev, c->m->txns, n);
    return t;
}

/* The LL PDUs of Provisioning PDU i, pairs back to back, the last at the anchor of the
 * event that delivers it (one interval before the anchor after it, the schedule's
 * elapsed time). */
static void provisioning_pdu(struct capture *c, uint32_t i)
{
    const struct pbgatt_sent *s = &c->m->sent[i];
    uint32_t att_mtu = c->m->cfg->link.att_mtu, segs = pqpan_mesh_proxy_segments(s->len, att_mtu);
    uint32_t seg, pairs = 0;
    uint8_t att[PQPAN_ATT_MAX_MTU];
    size_t n[2];
    uint64_t end = c->base_ns + delivered_ns(c, i + 1u) - ci_of(c) +
                   pair_ns(c, c->m->cfg->link.ll_octets),
             span, t;
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
    static const struct pqpan_ble_estimate none;
    struct pqpan_ble_estimate s = none;
    struct capture c;
    uint8_t r[7];
    uint32_t i;
    int rc;
    memset(&c, 0, sizeof c);
    c.m = m;
    c.phy = PQPAN_BLE_PHY_1M;
    pqpan_mesh_pbgatt_service(&c.svc);
    /* the connection's access address and CRC preset, random (Vol 6 Part B §2.1.2; its
     * bit-pattern rules are not applied: a sniffer takes both from the CONNECT_IND), and
     * the device's UUID */
    if (pqpan_mesh_prov_run_random(&m->run, r, sizeof r) != 0 ||
        pqpan_mesh_prov_run_random(&m->run, c.uuid, sizeof c.uuid) != 0) {
        return PQPAN_ERR_RNG;
    }
    c.aa = (uint32_t)r[0] << 24 | (uint32_t)r[1] << 16 | (uint32_t)r[2] << 8 | r[3];
    c.crc_init = (uint32_t)r[4] << 16 | (uint32_t)r[5] << 8 | r[6];
    rc = pqpan_mesh_pbgatt_setup(&s, &m->cfg->link, &m->dev[0]);
    if (rc != PQPAN_OK) {
        return rc;
    }
    setup(&c, &s);
    for (i = 0; i < m->n_sent && c.error == 0; i++) {
        provisioning_pdu(&c, i);
    }
    return c.error;
}
