/* The simulator's Link Layer control procedures of the set-up (Core v5.4 Vol 6 Part B
 * §5.1): feature and version exchange (§5.1.4.1, §5.1.5), connection parameters request
 * with the connection update and its instant (§5.1.7, §5.1.1), PHY update (§5.1.10) and
 * data length update (§5.1.9), all initiated by the central; what each side answers to
 * the LL control PDUs it receives; and the instants. Responses are decided when a PDU
 * arrives and sent in the next event (as the host replies, sim.c). */
#include <string.h>

#include "pqpan/sim.h"
#include "sim/sim_internal.h"

/* §5.1.1: transmitWindowSize 1.25 ms (the minimum) and transmitWindowOffset 0; the
 * central sends its first packet at the window's start. */
#define WIN_SIZE 1u
#define WIN_OFFSET 0u
#define UNITS_1250_US 1250000u
#define UNITS_10_MS 10000000u

typedef int (*ctrl_writer)(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w);

/* Writes an LL control PDU with w and queues it on side n. */
static int queue(struct pqpan_sim *s, int n, ctrl_writer w)
{
    uint8_t b[PQPAN_LL_CTRL_MAX_BYTES];
    size_t len;
    int rc = w(s, n, b, sizeof b, &len);
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_ctrl(s, n, b, len);
}

/* ---- feature and version exchange --------------------------------------------------- */

static int write_feature_req(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w)
{
    uint8_t fs[PQPAN_LL_FEATURE_SET_BYTES];
    (void)s;
    (void)n;
    pqpan_ll_own_features(fs);
    return pqpan_ll_pdu_feature_write(b, cap, PQPAN_LL_FEATURE_REQ, fs, w);
}

static int write_version(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w)
{
    struct pqpan_ll_version v = pqpan_ll_own_version();
    s->version_sent[n] = 1;
    return pqpan_ll_pdu_version_write(b, cap, &v, w);
}

int pqpan_sim_start_features(struct pqpan_sim *s)
{
    return queue(s, PQPAN_BLE_CENTRAL, write_feature_req);
}

/* §5.1.4.1: octet 0 of the response is FeatureSet_USED, the AND of both octets 0; the
 * rest the peripheral's own. */
static int on_feature_req(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    uint8_t peer[PQPAN_LL_FEATURE_SET_BYTES], rsp[PQPAN_LL_FEATURE_SET_BYTES], b[PQPAN_LL_FEATURE_CTR_BYTES];
    size_t w;
    int rc = pqpan_ll_pdu_feature_parse(peer, p, len);
    if (rc != PQPAN_OK || n != PQPAN_BLE_PERIPHERAL) {
        return rc != PQPAN_OK ? rc : PQPAN_ERR_MALFORMED;
    }
    pqpan_ll_own_features(rsp);
    rsp[0] = (uint8_t)(peer[0] & rsp[0]);
    rc = pqpan_ll_pdu_feature_write(b, sizeof b, PQPAN_LL_FEATURE_RSP, rsp, &w);
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_ctrl(s, n, b, w);
}

/* The feature exchange has completed: the central starts the version exchange (§5: one
 * procedure of its own at a time). */
static int on_feature_rsp(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    uint8_t peer[PQPAN_LL_FEATURE_SET_BYTES];
    int rc = pqpan_ll_pdu_feature_parse(peer, p, len);
    if (rc != PQPAN_OK || n != PQPAN_BLE_CENTRAL) {
        return rc != PQPAN_OK ? rc : PQPAN_ERR_MALFORMED;
    }
    return queue(s, n, write_version);
}

/* §5.1.5: a Link Layer answers with its own LL_VERSION_IND unless it has sent one; the
 * procedure completes at the initiator when the peer's arrives. */
static int on_version(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_version v;
    int rc = pqpan_ll_pdu_version_parse(&v, p, len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (!s->version_sent[n]) {
        return queue(s, n, write_version);
    }
    pqpan_sim_negotiation_done(s);
    return PQPAN_OK;
}

/* ---- connection parameters request and connection update -------------------------- */

/* The parameters the central asks for (§5.1.7.1): the exchange's interval as both
 * bounds, no latency, the supervision timeout unchanged, no preferred periodicity or
 * anchor offsets. */
static void wanted_params(const struct pqpan_sim *s, struct pqpan_ll_conn_param *p)
{
    int i;
    memset(p, 0, sizeof *p);
    p->interval_min = (uint16_t)(s->cfg.ble.ci_ns / UNITS_1250_US);
    p->interval_max = p->interval_min;
    p->timeout = (uint16_t)(s->cfg.supervision_timeout_ms / 10u);
    for (i = 0; i < PQPAN_LL_CONN_PARAM_OFFSETS; i++) {
        p->offset[i] = 0xFFFFu;
    }
}

static int write_param_req(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w)
{
    struct pqpan_ll_conn_param p;
    (void)n;
    wanted_params(s, &p);
    return pqpan_ll_pdu_conn_param_write(b, cap, PQPAN_LL_CONNECTION_PARAM_REQ, &p, w);
}

int pqpan_sim_start_conn_update(struct pqpan_sim *s)
{
    return queue(s, PQPAN_BLE_CENTRAL, write_param_req);
}

/* The peripheral accepts the request as it is (§5.1.7.2). */
static int on_param_req(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_conn_param cp;
    uint8_t b[PQPAN_LL_CONN_PARAM_CTR_BYTES];
    size_t w;
    int rc = pqpan_ll_pdu_conn_param_parse(&cp, p, len);
    if (rc != PQPAN_OK || n != PQPAN_BLE_PERIPHERAL) {
        return rc != PQPAN_OK ? rc : PQPAN_ERR_MALFORMED;
    }
    rc = pqpan_ll_pdu_conn_param_write(b, sizeof b, PQPAN_LL_CONNECTION_PARAM_RSP, &cp, &w);
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_ctrl(s, n, b, w);
}

/* The central answers with LL_CONNECTION_UPDATE_IND (§5.1.7.2), sent in the next event
 * (counter + 1); the new interval from 6 events after that (§5.5). */
static int on_param_rsp(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_conn_param cp;
    struct pqpan_ll_conn_update u;
    uint8_t b[PQPAN_LL_CONN_UPDATE_CTR_BYTES];
    size_t w;
    int rc = pqpan_ll_pdu_conn_param_parse(&cp, p, len);
    if (rc != PQPAN_OK || n != PQPAN_BLE_CENTRAL) {
        return rc != PQPAN_OK ? rc : PQPAN_ERR_MALFORMED;
    }
    memset(&u, 0, sizeof u);
    u.win_size = WIN_SIZE;
    u.win_offset = WIN_OFFSET;
    u.interval = cp.interval_min;
    u.latency = cp.latency;
    u.timeout = cp.timeout;
    u.instant = (uint16_t)(s->event_counter + 1u + PQPAN_LL_INSTANT_EVENTS);
    rc = pqpan_ll_pdu_conn_update_write(b, sizeof b, &u, &w);
    if (rc != PQPAN_OK) {
        return rc;
    }
    s->pending_ci_ns = (uint64_t)u.interval * UNITS_1250_US;
    s->ci_instant = u.instant;
    s->ci_update_pending = 1;
    return pqpan_sim_queue_ctrl(s, n, b, w);
}

static int on_conn_update(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_conn_update u;
    int rc = pqpan_ll_pdu_conn_update_parse(&u, p, len);
    (void)s;
    return rc != PQPAN_OK ? rc : n == PQPAN_BLE_PERIPHERAL ? PQPAN_OK : PQPAN_ERR_MALFORMED;
}

/* ---- PHY update -------------------------------------------------------------------- */

static uint8_t phy_mask(const struct pqpan_sim *s)
{
    return s->cfg.ble.phy == PQPAN_BLE_PHY_2M ? PQPAN_LL_PHY_2M : PQPAN_LL_PHY_CODED;
}

static int write_phy_req(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w)
{
    (void)n;
    return pqpan_ll_pdu_phy_req_write(b, cap, PQPAN_LL_PHY_REQ, phy_mask(s), phy_mask(s), w);
}

int pqpan_sim_start_phy(struct pqpan_sim *s)
{
    return queue(s, PQPAN_BLE_CENTRAL, write_phy_req);
}

static int on_phy_req(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    uint8_t b[PQPAN_LL_PHY_REQ_CTR_BYTES];
    size_t w;
    int rc;
    if (n != PQPAN_BLE_PERIPHERAL || len != PQPAN_LL_PHY_REQ_CTR_BYTES) {
        return PQPAN_ERR_MALFORMED;
    }
    rc = pqpan_ll_pdu_phy_req_write(b, sizeof b, PQPAN_LL_PHY_RSP, p[1], p[2], &w);
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_ctrl(s, n, b, w);
}

/* Sent in the next event (counter + 1); the new PHY from 6 events later. */
static int on_phy_rsp(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_phy_update u;
    uint8_t b[PQPAN_LL_PHY_UPDATE_CTR_BYTES];
    size_t w;
    int rc;
    if (n != PQPAN_BLE_CENTRAL || len != PQPAN_LL_PHY_REQ_CTR_BYTES) {
        return PQPAN_ERR_MALFORMED;
    }
    u.phy_c_to_p = (uint8_t)(p[1] & p[2]);
    u.phy_p_to_c = u.phy_c_to_p;
    u.instant = (uint16_t)(s->event_counter + 1u + PQPAN_LL_INSTANT_EVENTS);
    rc = pqpan_ll_pdu_phy_update_write(b, sizeof b, &u, &w);
    if (rc != PQPAN_OK) {
        return rc;
    }
    s->pending_phy = (uint8_t)s->cfg.ble.phy;
    s->phy_instant = u.instant;
    s->phy_update_pending = 1;
    return pqpan_sim_queue_ctrl(s, n, b, w);
}

static int on_phy_update(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_phy_update u;
    (void)s;
    (void)n;
    return pqpan_ll_pdu_phy_update_parse(&u, p, len);
}

/* ---- data length update ------------------------------------------------------------ */

/* A time limit in LL_LENGTH_REQ/RSP's range (§4.5.10). */
static uint64_t length_time_us(uint64_t us)
{
    if (us > PQPAN_LL_MAX_TIME_US) {
        return PQPAN_LL_MAX_TIME_US;
    }
    /* LE 2M packets of fewer than ~70 octets are quicker */
    return us < PQPAN_LL_MIN_TIME_US ? PQPAN_LL_MIN_TIME_US : us;
}

/* §4.5.10: both sides offer ll_octets and the time a packet of that size takes on the
 * PHY in use after the set-up; as sender, no more than connMaxTxTime (max_tx_time_us)
 * when the configuration limits it. */
static int write_length(struct pqpan_sim *s, uint8_t opcode, uint8_t *b, size_t cap, size_t *w)
{
    struct pqpan_ll_length l;
    uint64_t us = length_time_us(
        pqpan_ble_packet_ns((enum pqpan_ble_phy)s->cfg.ble.phy, s->cfg.ble.ll_octets, 0) / 1000u);
    uint64_t tx_us = us;
    if (s->cfg.ble.max_tx_time_us != 0u && s->cfg.ble.max_tx_time_us < us) {
        tx_us = length_time_us(s->cfg.ble.max_tx_time_us);
    }
    l.max_rx_octets = (uint16_t)s->cfg.ble.ll_octets;
    l.max_tx_octets = (uint16_t)s->cfg.ble.ll_octets;
    l.max_rx_time_us = (uint16_t)us;
    l.max_tx_time_us = (uint16_t)tx_us;
    return pqpan_ll_pdu_length_write(b, cap, opcode, &l, w);
}

static int write_length_req(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w)
{
    (void)n;
    return write_length(s, PQPAN_LL_LENGTH_REQ, b, cap, w);
}

static int write_length_rsp(struct pqpan_sim *s, int n, uint8_t *b, size_t cap, size_t *w)
{
    (void)n;
    return write_length(s, PQPAN_LL_LENGTH_RSP, b, cap, w);
}

int pqpan_sim_start_length(struct pqpan_sim *s)
{
    return queue(s, PQPAN_BLE_CENTRAL, write_length_req);
}

static int on_length(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_ll_length l;
    int rc = pqpan_ll_pdu_length_parse(&l, p, len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (p[0] == PQPAN_LL_LENGTH_REQ) {
        return queue(s, n, write_length_rsp);
    }
    /* §4.5.10: connEffectiveMaxTxOctets = min(own max TX, peer max RX), and no more than
     * a packet of connEffectiveMaxTxTime = min(own max TX time, peer max RX time) holds
     * (both sides offer the same, so the central's limits are the link's). */
    s->ll_octets = l.max_rx_octets < s->cfg.ble.ll_octets ? l.max_rx_octets
                                                          : (uint16_t)s->cfg.ble.ll_octets;
    if (s->cfg.ble.max_tx_time_us != 0u) {
        uint32_t tx_us = (uint32_t)length_time_us(s->cfg.ble.max_tx_time_us);
        uint32_t time_us = tx_us < l.max_rx_time_us ? tx_us : l.max_rx_time_us;
        uint32_t by_time = pqpan_ble_payload_for_time((enum pqpan_ble_phy)s->cfg.ble.phy, time_us, 0);
        s->ll_octets = by_time < s->ll_octets ? (uint16_t)by_time : s->ll_octets;
    }
    pqpan_sim_negotiation_done(s);
    return PQPAN_OK;
}

/* ---- dispatch and instants --------------------------------------------------------- */

typedef int (*ctrl_handler)(struct pqpan_sim *s, int n, const uint8_t *p, size_t len);

struct ctrl_row {
    uint8_t opcode;
    ctrl_handler fn;
};

static const struct ctrl_row ctrl_handlers[] = {
    {PQPAN_LL_CONNECTION_UPDATE_IND, on_conn_update},
    {PQPAN_LL_FEATURE_REQ, on_feature_req},
    {PQPAN_LL_FEATURE_RSP, on_feature_rsp},
    {PQPAN_LL_VERSION_IND, on_version},
    {PQPAN_LL_CONNECTION_PARAM_REQ, on_param_req},
    {PQPAN_LL_CONNECTION_PARAM_RSP, on_param_rsp},
    {PQPAN_LL_LENGTH_REQ, on_length},
    {PQPAN_LL_LENGTH_RSP, on_length},
    {PQPAN_LL_PHY_REQ, on_phy_req},
    {PQPAN_LL_PHY_RSP, on_phy_rsp},
    {PQPAN_LL_PHY_UPDATE_IND, on_phy_update},
    {PQPAN_LL_ENC_REQ, pqpan_sim_on_enc_req},
    {PQPAN_LL_ENC_RSP, pqpan_sim_on_enc_rsp},
    {PQPAN_LL_START_ENC_REQ, pqpan_sim_on_start_enc},
    {PQPAN_LL_START_ENC_RSP, pqpan_sim_on_start_enc},
};

int pqpan_sim_ll_control_rx(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    size_t i;
    if (len == 0) {
        return PQPAN_ERR_MALFORMED;
    }
    for (i = 0; i < sizeof ctrl_handlers / sizeof ctrl_handlers[0]; i++) {
        if (ctrl_handlers[i].opcode == p[0]) {
            return ctrl_handlers[i].fn(s, n, p, len);
        }
    }
    return PQPAN_ERR_UNSUPPORTED;
}

/* At the anchor of an instant the new PHY or interval applies (§5.1.10, §5.1.1: the
 * event at the instant is the first with the new parameters; the anchor was already
 * placed one old interval after the last event). The procedure has completed when the
 * instant has passed: the next set-up step starts when this event closes. */
void pqpan_sim_ll_instant(struct pqpan_sim *s)
{
    if (s->phy_update_pending && s->event_counter == s->phy_instant) {
        s->phy = s->pending_phy;
        s->phy_update_pending = 0;
        pqpan_sim_negotiation_done(s);
    }
    if (s->ci_update_pending && s->event_counter == s->ci_instant) {
        s->ci_ns = s->pending_ci_ns;
        s->ci_update_pending = 0;
        pqpan_sim_negotiation_done(s);
    }
}
