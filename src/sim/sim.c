/* The simulator's engine: connection set-up, connection events and the link layer of
 * both sides (Core v5.4 Vol 6 Part B §4.5), the channel, and the ledgers.
 *
 * An event is a chain of discrete events: ANCHOR → TX(central) → RX(peripheral) →
 * TX(peripheral) → RX(central) → TX(central) ... → CLOSE. The hosts run at CLOSE (or at
 * once with same_event_reply), so a reply goes in the next event, as in the estimator.
 * Radio time of an event is collected per side and booked at CLOSE in the event's phase:
 * the running set-up procedure's phase (ADVERTISE .. DISCOVERY) or the message's phase
 * when it carried data, CRYPTO when it was idle while a side computed. */
#include <string.h>

#include "pqpan/defaults.h"
#include "pqpan/sim.h"
#include "sim/sim_internal.h"

enum ev_kind { EV_ANCHOR = 1, EV_TX, EV_RX, EV_CLOSE, EV_HOST };

/* Vol 6 Part B §4.5.3: transmitWindowDelay 1.25 ms after the CONNECT_IND on LE 1M. */
#define TRANSMIT_WINDOW_DELAY_NS 1250000u
/* §4.5.2: a connection not established within 6 intervals is lost. */
#define ESTABLISH_EVENTS 6u
/* §4.5.8.1: 37 data channels; channel selection algorithm #1 (§4.5.8.2). */
#define DATA_CHANNELS 37u
/* Without an advertising phase the CONNECT_IND goes on the primary advertising channel
 * 37 (LE 1M). */
#define CONNECT_CHANNEL 37u
#define DEFAULT_MAX_SIM_NS 600000000000u

/* ---- small helpers ---------------------------------------------------------------- */

uint64_t pqpan_sim_now(const struct pqpan_sim *s)
{
    return s->now_ns;
}

static int other(int n)
{
    return 1 - n;
}

static int push(struct pqpan_sim *s, uint64_t t, enum ev_kind k, int node)
{
    return pqpan_evq_push(&s->q, t, (uint8_t)k, (uint8_t)node);
}

static void emit_op_span(const struct pqpan_sim_observer *obs, void *ctx, int side, int state,
                         int phase, int op, int resumed, uint64_t t0, uint64_t t1)
{
    struct pqpan_sim_span sp;
    if (obs == NULL || obs->span == NULL || t1 <= t0) {
        return;
    }
    sp.t0_ns = t0;
    sp.t1_ns = t1;
    sp.side = (uint8_t)side;
    sp.state = (uint8_t)state;
    sp.phase = (uint8_t)phase;
    sp.op = (uint8_t)op;
    sp.resumed = (uint8_t)resumed;
    obs->span(ctx, &sp);
}

void pqpan_sim_emit_span(const struct pqpan_sim_observer *obs, void *ctx, int side, int state,
                         int phase, uint64_t t0, uint64_t t1)
{
    emit_op_span(obs, ctx, side, state, phase, PQPAN_OP_COUNT, 0, t0, t1);
}

/* Data channel index → RF channel (Vol 6 Part A §2, Table 2.1): data 0-10 are RF 1-11,
 * data 11-36 are RF 13-38. */
static uint8_t rf_channel_of(uint8_t data_channel)
{
    return (uint8_t)(data_channel <= 10u ? data_channel + 1u : data_channel + 2u);
}

/* §4.5.8.2, channel selection algorithm #1 with every channel used:
 * unmappedChannel = (lastUnmappedChannel + hopIncrement) mod 37. */
static void next_channel(struct pqpan_sim *s)
{
    s->unmapped_channel = (uint8_t)((s->unmapped_channel + s->hop) % DATA_CHANNELS);
    s->channel = s->unmapped_channel;
}

void pqpan_sim_config_default(struct pqpan_sim_config *c)
{
    memset(c, 0, sizeof *c);
    pqpan_ble_config_default(&c->ble);
    c->transport = pqpan_default_is(PQPAN_DEFAULT_TRANSPORT, "l2cap-coc") ? PQPAN_SIM_L2CAP_COC
                                                                          : PQPAN_SIM_GATT;
    c->seed = pqpan_default_u32(PQPAN_DEFAULT_SEED);
    c->supervision_timeout_ms = pqpan_default_u32(PQPAN_DEFAULT_SUPERVISION_TIMEOUT_MS);
}

static int chan_ok(const struct pqpan_sim_channel *c)
{
    return c->per >= 0.0 && c->per <= 1.0 && c->ber >= 0.0 && c->ber <= 1.0;
}

/* An interval (one the CONNECT_IND / LL_CONNECTION_UPDATE_IND can carry: §4.5.1,
 * pqpan_ble_config_fault) that the supervision timeout covers twice over (§4.5.2). */
static int timeout_covers(uint64_t ci_ns, uint32_t timeout_ms)
{
    return (uint64_t)timeout_ms * 1000000u > 2u * ci_ns;
}

/* No advertising, or an advInterval of §4.4.2.2; a fixed scan channel is 37..39. */
static int adv_ok(const struct pqpan_sim_config *c)
{
    uint64_t a = c->ble.adv_interval_ns;
    return (a == 0u || (a >= PQPAN_BLE_ADV_INTERVAL_MIN_NS && a <= PQPAN_BLE_ADV_INTERVAL_MAX_NS &&
                        a % PQPAN_BLE_ADV_INTERVAL_STEP_NS == 0u)) &&
           (c->adv_scan_channel == 0u || (c->adv_scan_channel >= PQPAN_BLE_ADV_FIRST_CHANNEL &&
                                          c->adv_scan_channel < PQPAN_BLE_ADV_FIRST_CHANNEL + 3u));
}

static int role_ok(enum pqpan_ble_role r)
{
    return r == PQPAN_BLE_CENTRAL || r == PQPAN_BLE_PERIPHERAL;
}

/* Each GATT role's method in range, the study preset on both or on neither (as the
 * estimator takes them). */
static int transfers_ok(const struct pqpan_ble_config *b)
{
    return b->server_transfer >= 0 && b->server_transfer < PQPAN_BLE_TRANSFER_COUNT &&
           b->client_transfer >= 0 && b->client_transfer < PQPAN_BLE_TRANSFER_COUNT &&
           (b->server_transfer == PQPAN_BLE_STUDY) == (b->client_transfer == PQPAN_BLE_STUDY);
}

static int config_ok(const struct pqpan_sim_config *c)
{
    const struct pqpan_ble_config *b = &c->ble;
    return pqpan_ble_config_fault(b) == PQPAN_BLE_CONFIG_OK && b->att_mtu >= PQPAN_ATT_DEFAULT_MTU &&
           b->att_mtu <= PQPAN_ATT_MAX_MTU && timeout_covers(b->ci_ns, c->supervision_timeout_ms) &&
           (!b->conn_update || timeout_covers(b->idle_ci_ns, c->supervision_timeout_ms)) && adv_ok(c) &&
           transfers_ok(b) && !b->encrypted && role_ok(b->keygen_side) && role_ok(b->gatt_server) &&
           c->dev.cpu_hz > 0u &&
           (c->transport == PQPAN_SIM_GATT || c->transport == PQPAN_SIM_L2CAP_COC ||
            c->transport == PQPAN_SIM_SMP) &&
           chan_ok(&c->chan[0]) && chan_ok(&c->chan[1]) && c->supervision_timeout_ms >= 100u &&
           c->supervision_timeout_ms <= 32000u;
}

int pqpan_sim_init(struct pqpan_sim *s, const struct pqpan_sim_config *cfg)
{
    memset(s, 0, sizeof *s);
    if (cfg == NULL || !config_ok(cfg)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    s->cfg = *cfg;
    if (s->cfg.max_sim_ns == 0u) {
        s->cfg.max_sim_ns = DEFAULT_MAX_SIM_NS;
    }
    pqpan_prng_seed(&s->rng, cfg->seed);
    pqpan_evq_init(&s->q);
    /* §2.1.2 rules for a data AA are met by this fixed value (no run of more than six
     * equal bits, not the advertising AA, ≥ 2 transitions in the top six bits); CRCInit
     * and the hop increment come from the seeded PRNG (§2.3.3.1: random values). */
    s->access_address = 0x50654A7Bu;
    s->crc_init = (uint32_t)(pqpan_prng_next(&s->rng) & 0xFFFFFFu);
    s->hop = (uint8_t)(5u + pqpan_prng_below(&s->rng, 12u));
    s->ci_ns = cfg->ble.conn_update ? cfg->ble.idle_ci_ns : cfg->ble.ci_ns;
    s->adv_channel = CONNECT_CHANNEL;
    s->phy = PQPAN_BLE_PHY_1M;
    s->ll_octets = PQPAN_LL_DATA_MIN_PAYLOAD;
    s->att_mtu = PQPAN_ATT_DEFAULT_MTU;
    s->phase = PQPAN_PHASE_CONNECT;
    return PQPAN_OK;
}

/* ---- queues the host uses --------------------------------------------------------- */

int pqpan_sim_queue_reply(struct pqpan_sim *s, int n, const uint8_t *l2cap, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[n];
    if (nd->hostq_n == PQPAN_SIM_HOSTQ || len > PQPAN_SIM_L2CAP_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    memcpy(nd->hostq[nd->hostq_n].b, l2cap, len);
    nd->hostq[nd->hostq_n].len = (uint16_t)len;
    nd->hostq_n++;
    return PQPAN_OK;
}

int pqpan_sim_queue_ctrl(struct pqpan_sim *s, int n, const uint8_t *ctrl, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[n];
    if (nd->hostllq_n == PQPAN_SIM_LLQ || len > sizeof nd->hostllq[0].b) {
        return PQPAN_ERR_CAPACITY;
    }
    memcpy(nd->hostllq[nd->hostllq_n].b, ctrl, len);
    nd->hostllq[nd->hostllq_n].len = (uint8_t)len;
    nd->hostllq_n++;
    return PQPAN_OK;
}

/* Host replies and LL control responses decided so far become sendable. */
void pqpan_sim_release_replies(struct pqpan_sim *s, int n)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint8_t i;
    for (i = 0; i < nd->hostllq_n && nd->llq_n < PQPAN_SIM_LLQ; i++) {
        nd->llq[nd->llq_n++] = nd->hostllq[i];
    }
    memmove(&nd->hostllq[0], &nd->hostllq[i], (size_t)(nd->hostllq_n - i) * sizeof nd->hostllq[0]);
    nd->hostllq_n = (uint8_t)(nd->hostllq_n - i);
    for (i = 0; i < nd->hostq_n && nd->txq_n < PQPAN_SIM_TXQ; i++) {
        *txq_at(nd, nd->txq_n++) = nd->hostq[i];
    }
    memmove(&nd->hostq[0], &nd->hostq[i], (size_t)(nd->hostq_n - i) * sizeof nd->hostq[0]);
    nd->hostq_n = (uint8_t)(nd->hostq_n - i);
}

/* ---- set-up (the estimator's order, src/ble/setup.c) ------------------------------- */

enum nego_step {
    NEGO_FEATURES = 0,
    NEGO_CONN_UPDATE,
    NEGO_PHY,
    NEGO_LENGTH,
    NEGO_TRANSPORT,
    NEGO_DISCOVERY,
    NEGO_DONE
};

static int features_needed(const struct pqpan_sim *s)
{
    return s->cfg.ble.features;
}

static int conn_update_needed(const struct pqpan_sim *s)
{
    return s->cfg.ble.conn_update && s->cfg.ble.idle_ci_ns != s->cfg.ble.ci_ns;
}

static int phy_needed(const struct pqpan_sim *s)
{
    return s->cfg.ble.phy != PQPAN_BLE_PHY_1M;
}

static int length_needed(const struct pqpan_sim *s)
{
    return s->cfg.ble.ll_octets > PQPAN_LL_DATA_MIN_PAYLOAD;
}

static int transport_needed(const struct pqpan_sim *s)
{
    return s->cfg.transport == PQPAN_SIM_L2CAP_COC || s->cfg.ble.att_mtu > PQPAN_ATT_DEFAULT_MTU;
}

/* The client's GATT discovery serves the GATT transfer (a credit-based channel has no
 * characteristic to find); LE SC pairing over SMP keeps GATT's set-up, as the estimator
 * (pqpan_ble_estimate_lesc) books it. */
static int discovery_needed(const struct pqpan_sim *s)
{
    return s->cfg.ble.discovery && s->cfg.transport != PQPAN_SIM_L2CAP_COC;
}

/* The set-up steps in order, each in its own ledger phase: when it is needed, what its
 * starter queues to start it, and whether the starter is the GATT client (the ATT_MTU
 * exchange, Vol 3 Part F §3.4.2.1, and the discovery, Part G §4.4–§4.7; with
 * --transport l2cap-coc the central's channel request) or else the central (the LL
 * control procedures as the estimator books them). */
struct setup_row {
    enum pqpan_phase phase;
    int (*needed)(const struct pqpan_sim *s);
    int (*start)(struct pqpan_sim *s);
    int by_gatt_client;
};

static const struct setup_row setup_steps[NEGO_DONE] = {
    {PQPAN_PHASE_FEATURES, features_needed, pqpan_sim_start_features, 0},
    {PQPAN_PHASE_CONN_UPDATE, conn_update_needed, pqpan_sim_start_conn_update, 0},
    {PQPAN_PHASE_PHY_UPDATE, phy_needed, pqpan_sim_start_phy, 0},
    {PQPAN_PHASE_LENGTH_UPDATE, length_needed, pqpan_sim_start_length, 0},
    {PQPAN_PHASE_MTU_EXCHANGE, transport_needed, pqpan_sim_host_connect_transport, 1},
    {PQPAN_PHASE_DISCOVERY, discovery_needed, pqpan_sim_start_discovery, 1},
};

static int step_starter(const struct pqpan_sim *s, const struct setup_row *r)
{
    if (r->by_gatt_client && s->cfg.transport != PQPAN_SIM_L2CAP_COC) {
        return sim_gatt_client(s);
    }
    return PQPAN_BLE_CENTRAL;
}

/* Books the span of the phase that ends (from its start to the close of the last event)
 * and starts phase ph there. */
static void set_phase(struct pqpan_sim *s, enum pqpan_phase ph)
{
    s->res.span_ns[s->phase] += s->last_close_ns - s->phase_start_ns;
    s->phase_start_ns = s->last_close_ns;
    s->phase = (uint8_t)ph;
}

/* Starts the next set-up step that the configuration needs; returns 1 when none is left. */
static int start_negotiation_step(struct pqpan_sim *s, int *rc)
{
    *rc = PQPAN_OK;
    while (s->negotiation_step < NEGO_DONE) {
        const struct setup_row *r = &setup_steps[s->negotiation_step];
        if (r->needed(s)) {
            set_phase(s, r->phase);
            *rc = r->start(s);
            pqpan_sim_release_replies(s, step_starter(s, r));
            return 0;
        }
        s->negotiation_step++;
    }
    return 1;
}

void pqpan_sim_negotiation_done(struct pqpan_sim *s)
{
    s->negotiation_step++;
    s->nego_advance = 1;
}

/* ---- link layer: PDUs out (§2.4, §4.5.9) ------------------------------------------ */

static int node_has_more(const struct pqpan_sim_node *nd)
{
    return nd->llq_n > 0 || nd->txq_n > 0;
}

/* Payload octets of the PDU side n would send next (for the event-length check). */
static uint32_t next_payload(const struct pqpan_sim *s, struct pqpan_sim_node *nd)
{
    uint32_t left;
    if (nd->have_pdu) {
        return nd->cur.b[1];
    }
    if (nd->llq_n > 0) {
        return nd->llq[0].len;
    }
    if (nd->txq_n == 0) {
        return 0;
    }
    left = (uint32_t)txq_at(nd, 0)->len - nd->frag_off;
    return left < s->ll_octets ? left : s->ll_octets;
}

static void pop_llq(struct pqpan_sim_node *nd)
{
    memmove(&nd->llq[0], &nd->llq[1], (size_t)(nd->llq_n - 1u) * sizeof nd->llq[0]);
    nd->llq_n--;
}

static void pop_txq(struct pqpan_sim_node *nd)
{
    nd->txq_head = (uint8_t)((nd->txq_head + 1u) % PQPAN_SIM_TXQ);
    nd->txq_n--;
    nd->frag_off = 0;
}

/* What sending an LL control PDU of the encryption start sets in motion (Vol 6 Part B
 * §5.1.3.1): after LL_ENC_RSP the peripheral's controller asks its host for the LTK and
 * sends LL_START_ENC_REQ with the reply, which the host gives when it next runs (at the
 * event's close: the request goes in the next event, as the estimator has it); from
 * LL_START_ENC_REQ on it expects encrypted PDUs. */
static int after_ctrl_sent(struct pqpan_sim *s, int n, uint8_t opcode)
{
    static const uint8_t start_enc_req = PQPAN_LL_START_ENC_REQ;
    if (n != PQPAN_BLE_PERIPHERAL) {
        return PQPAN_OK;
    }
    if (opcode == PQPAN_LL_ENC_RSP) {
        return pqpan_sim_queue_ctrl(s, n, &start_enc_req, 1);
    }
    if (opcode == PQPAN_LL_START_ENC_REQ) {
        s->node[n].enc_rx = 1;
    }
    return PQPAN_OK;
}

/* The PDU of side n with its LLID and payload in cur.b[2..] and len payload octets:
 * the length, the encryption, and no transmission yet. rc passed on. */
static int pdu_built(struct pqpan_sim *s, int n, uint32_t len, int rc)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint8_t *b = nd->cur.b;
    b[1] = (uint8_t)len;
    nd->cur_encrypted = (uint8_t)(nd->enc_tx && len > 0);
    if (rc == PQPAN_OK && nd->cur_encrypted) {
        nd->plain = nd->cur;
        rc = pqpan_ll_crypt_encrypt(&nd->crypt, n, b, sizeof nd->cur.b - PQPAN_LL_CRC_BYTES);
    }
    nd->cur.len = (uint16_t)(PQPAN_LL_HDR_BYTES + b[1]);
    nd->have_pdu = 1;
    nd->sent_once = 0;
    return rc;
}

/* Builds the next new PDU of side n into cur: an LL control PDU first, else the next
 * fragment of the L2CAP PDU at the head of the queue (LLID start/continuation), else an
 * empty PDU; encrypted (MIC appended) once the side sends encrypted. SN/NESN/MD are
 * written at each transmission. */
static int build_pdu(struct pqpan_sim *s, int n)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint8_t *b = nd->cur.b;
    uint32_t len;
    int rc = PQPAN_OK;
    if (nd->llq_n > 0) {
        len = nd->llq[0].len;
        b[0] = PQPAN_LLID_CONTROL;
        memcpy(b + 2, nd->llq[0].b, len);
        pop_llq(nd);
        s->res.counts.llctrl_pdus[n]++;
        rc = after_ctrl_sent(s, n, b[2]);
    } else if (nd->txq_n > 0) {
        const struct pqpan_sim_l2cap *head = txq_at(nd, 0);
        uint32_t left = (uint32_t)head->len - nd->frag_off;
        len = left < s->ll_octets ? left : s->ll_octets;
        b[0] = nd->frag_off == 0 ? PQPAN_LLID_START : PQPAN_LLID_CONTINUE;
        memcpy(b + 2, head->b + nd->frag_off, len);
        nd->frag_off = (uint16_t)(nd->frag_off + len);
        if (nd->frag_off == head->len) {
            pop_txq(nd);
        }
    } else {
        len = 0;
        b[0] = PQPAN_LLID_CONTINUE;
    }
    return pdu_built(s, n, len, rc);
}

/* An empty PDU in place of the queued data, which waits for a later event. */
static int build_empty(struct pqpan_sim *s, int n)
{
    s->node[n].cur.b[0] = PQPAN_LLID_CONTINUE;
    return pdu_built(s, n, 0u, PQPAN_OK);
}

/* ---- the channel ------------------------------------------------------------------ */

static void flip_bit(uint8_t *b, uint64_t bit)
{
    b[bit / 8u] = (uint8_t)(b[bit / 8u] ^ (1u << (bit % 8u)));
}

/* Damages the packet in flight per the sender's channel: PER flips one bit of PDU or
 * CRC (a CRC failure at the receiver); BER flips each bit of access address, PDU and CRC
 * with probability ber, a flipped access-address bit losing the packet. */
void pqpan_sim_apply_channel(struct pqpan_sim *s, int sender)
{
    const struct pqpan_sim_channel *c = &s->cfg.chan[sender];
    uint64_t pdu_bits = 8u * ((uint64_t)s->air.len + PQPAN_LL_CRC_BYTES);
    uint64_t bit;
    s->air_lost = 0;
    if (c->per > 0.0 && pqpan_prng_chance(&s->rng, c->per)) {
        flip_bit(s->air.b, pqpan_prng_below(&s->rng, pdu_bits));
    }
    if (c->ber > 0.0) {
        for (bit = 0; bit < 8u * PQPAN_LL_AA_BYTES; bit++) {
            if (pqpan_prng_chance(&s->rng, c->ber)) {
                s->air_lost = 1;
            }
        }
        for (bit = 0; bit < pdu_bits; bit++) {
            if (pqpan_prng_chance(&s->rng, c->ber)) {
                flip_bit(s->air.b, bit);
            }
        }
    }
}

/* ---- accounting ------------------------------------------------------------------- */

static void ev_add(struct pqpan_sim *s, int n, enum pqpan_state st, uint64_t ns)
{
    s->ev_led[n].ns[0][st] += ns;
}

/* Radio time of one packet: sender TX, receiver RX, both for the air time. */
static void account_packet(struct pqpan_sim *s, int sender, uint32_t payload, uint64_t air_ns,
                           const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    uint32_t octets = pqpan_ble_packet_octets((enum pqpan_ble_phy)s->phy, payload, 0);
    int r = other(sender);
    ev_add(s, sender, PQPAN_STATE_TX, air_ns);
    ev_add(s, r, PQPAN_STATE_RX, air_ns);
    s->ev_led[sender].pdus_tx++;
    s->ev_led[sender].bytes_tx += octets;
    s->ev_led[r].pdus_rx++;
    s->ev_led[r].bytes_rx += octets;
    if (payload > 0) {
        s->event_has_data = 1;
        s->ev_data_tx[sender]++;
    } else {
        s->ev_empty_tx[sender]++;
    }
    pqpan_sim_emit_span(obs, obs_ctx, sender, PQPAN_STATE_TX, s->phase, s->now_ns, s->now_ns + air_ns);
    pqpan_sim_emit_span(obs, obs_ctx, r, PQPAN_STATE_RX, s->phase, s->now_ns, s->now_ns + air_ns);
}

static void account_ifs(struct pqpan_sim *s, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    int i;
    for (i = 0; i < 2; i++) {
        ev_add(s, i, PQPAN_STATE_IFS, PQPAN_BLE_T_IFS_NS);
        pqpan_sim_emit_span(obs, obs_ctx, i, PQPAN_STATE_IFS, s->phase, s->now_ns,
                  s->now_ns + PQPAN_BLE_T_IFS_NS);
    }
}

/* Moves one ledger's phase-0 scratch (a whole event) into phase ph of dst. */
static void merge_event(struct pqpan_ledger *dst, const struct pqpan_ledger *ev, int ph)
{
    int st;
    for (st = 0; st < PQPAN_STATE_COUNT; st++) {
        dst->ns[ph][st] += ev->ns[0][st];
    }
    dst->pdus_tx += ev->pdus_tx;
    dst->pdus_rx += ev->pdus_rx;
    dst->bytes_tx += ev->bytes_tx;
    dst->bytes_rx += ev->bytes_rx;
    dst->events += 1u;
}

/* The per-event costs of the events accounting (ble.h struct pqpan_ble_device), traced in
 * the order an event runs them: PRE, HFXO start, ramp-up, (peripheral) receive window up
 * to the anchor; POST after the event closes. */
static void account_event_costs(struct pqpan_sim *s, int ph, const struct pqpan_sim_observer *obs,
                                void *obs_ctx)
{
    const struct pqpan_ble_device *d = &s->cfg.dev;
    uint64_t win = pqpan_ble_event_rx_window_ns(d, s->ci_ns);
    int i;
    for (i = 0; i < 2; i++) {
        uint64_t radio = s->anchor_ns - (i ? win : 0u); /* the receiver or transmitter is on */
        uint64_t ramp = radio - d->ramp_ns;
        uint64_t hfxo = ramp - d->hfxo_start_ns;
        pqpan_ble_event_costs(&s->res.ledger[i], (enum pqpan_phase)ph, d, s->ci_ns,
                              (enum pqpan_ble_role)i, 1u);
        pqpan_sim_emit_span(obs, obs_ctx, i, PQPAN_STATE_PRE, ph, hfxo - d->pre_ns, hfxo);
        pqpan_sim_emit_span(obs, obs_ctx, i, PQPAN_STATE_HFXO_START, ph, hfxo, ramp);
        pqpan_sim_emit_span(obs, obs_ctx, i, i ? PQPAN_STATE_RAMP_RX : PQPAN_STATE_RAMP_TX, ph, ramp, radio);
        pqpan_sim_emit_span(obs, obs_ctx, i, PQPAN_STATE_RX_WINDOW, ph, radio, s->anchor_ns);
        pqpan_sim_emit_span(obs, obs_ctx, i, PQPAN_STATE_POST, ph, s->now_ns, s->now_ns + d->post_ns);
    }
}

/* Either side has crypto queued. */
static int cpu_busy(const struct pqpan_sim *s)
{
    return s->node[0].cpu.n > 0u || s->node[1].cpu.n > 0u;
}

/* The phase an event is booked in. */
static int event_phase(const struct pqpan_sim *s)
{
    if (s->phase < PQPAN_PHASE_KEY_TRANSFER) {
        return s->phase;
    }
    if (s->event_has_data) {
        return s->event_data_phase;
    }
    return cpu_busy(s) || s->crypto_busy_until > s->anchor_ns ? PQPAN_PHASE_CRYPTO : s->phase;
}

static void close_accounting(struct pqpan_sim *s, const struct pqpan_sim_observer *obs,
                             void *obs_ctx)
{
    int ph = event_phase(s);
    int i;
    for (i = 0; i < 2; i++) {
        merge_event(&s->res.ledger[i], &s->ev_led[i], ph);
        /* The bits accounting (the study's) covers the exchange's data events only. */
        if (s->event_has_data && ph >= PQPAN_PHASE_KEY_TRANSFER) {
            merge_event(&s->res.bits[i], &s->ev_led[i], ph);
        }
        s->res.counts.data_pdus_tx[i] += s->ev_data_tx[i];
        s->res.counts.empty_pdus_tx[i] += s->ev_empty_tx[i];
    }
    account_event_costs(s, ph, obs, obs_ctx);
    s->res.conn_events++;
    if (ph != PQPAN_PHASE_CONNECT) {
        if (s->event_has_data) {
            s->res.counts.events++;
        } else {
            s->res.counts.idle_events++;
        }
        if (ph > PQPAN_PHASE_CONNECT && ph < PQPAN_PHASE_KEY_TRANSFER) {
            s->res.counts.setup_events++;
        }
    }
    memset(s->ev_led, 0, sizeof s->ev_led);
    memset(s->ev_data_tx, 0, sizeof s->ev_data_tx);
    memset(s->ev_empty_tx, 0, sizeof s->ev_empty_tx);
}

/* ---- the application's CPU (struct pqpan_sim_cpu) ---------------------------------- */

int pqpan_sim_queue_crypto(struct pqpan_sim *s, int n, const uint32_t ops[PQPAN_OP_COUNT],
                           uint32_t *queued)
{
    struct pqpan_sim_cpu *c = &s->node[n].cpu;
    uint32_t total = 0;
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        total += ops[op];
    }
    if (queued != NULL) {
        *queued = total;
    }
    if (total > (uint32_t)(PQPAN_SIM_CPU_OPS - c->n)) {
        return PQPAN_ERR_CAPACITY;
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        uint64_t cyc = s->cfg.cycles[op], ns = pqpan_cycles_to_ns(cyc, s->cfg.dev.cpu_hz);
        uint32_t k;
        for (k = 0; k < ops[op]; k++) {
            unsigned slot = (c->head + c->n++) % PQPAN_SIM_CPU_OPS;
            c->op[slot] = (uint8_t)op;
            c->left_ns[slot] = ns;
            pqpan_ledger_add_op(&s->res.ledger[n], (enum pqpan_op)op, cyc);
            pqpan_ledger_add(&s->res.ledger[n], PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, ns);
        }
    }
    return PQPAN_OK;
}

int pqpan_sim_ready_after(struct pqpan_sim *s, int n, uint32_t after)
{
    if (after == 0u) {
        return push(s, s->now_ns, EV_HOST, n);
    }
    s->node[n].cpu.msg_after = (uint8_t)after;
    return PQPAN_OK;
}

/* The operation at the head of side n's queue ran until t and is done: the latency's end,
 * and the message waiting for it (if this was the last it waits for) is ready at t. */
static int cpu_op_done(struct pqpan_sim *s, int n, uint64_t t)
{
    struct pqpan_sim_cpu *c = &s->node[n].cpu;
    c->head = (uint8_t)((c->head + 1u) % PQPAN_SIM_CPU_OPS);
    c->n--;
    c->head_started = 0;
    if (t > s->crypto_last_ns) {
        s->crypto_last_ns = t;
    }
    if (t > s->crypto_busy_until) {
        s->crypto_busy_until = t;
    }
    if (c->msg_after > 0u && --c->msg_after == 0u) {
        return push(s, t, EV_HOST, n);
    }
    return PQPAN_OK;
}

/* Runs side n's queued operations from the moment its CPU is free up to limit (the start
 * of its next connection event), one span per stretch; an operation still running at
 * limit is suspended there and goes on when that event's post-processing ends. */
static int cpu_run(struct pqpan_sim *s, int n, uint64_t limit, const struct pqpan_sim_observer *obs,
                   void *obs_ctx)
{
    struct pqpan_sim_cpu *c = &s->node[n].cpu;
    uint64_t t = c->free_ns > s->now_ns ? c->free_ns : s->now_ns;
    int rc = PQPAN_OK;
    while (rc == PQPAN_OK && c->n > 0u && t < limit) {
        uint64_t run = c->left_ns[c->head] < limit - t ? c->left_ns[c->head] : limit - t;
        emit_op_span(obs, obs_ctx, n, PQPAN_STATE_CPU, PQPAN_PHASE_CRYPTO, c->op[c->head],
                     c->head_started, t, t + run);
        if (!s->crypto_started) {
            s->crypto_started = 1;
            s->crypto_first_ns = t;
        }
        c->head_started = 1;
        c->left_ns[c->head] -= run;
        t += run;
        if (c->left_ns[c->head] == 0u) {
            rc = cpu_op_done(s, n, t);
        }
    }
    c->free_ns = t;
    return rc;
}

/* At an event's close: each side's CPU is free again when the event's post-processing
 * ends, and runs its queue up to its part of the next event. */
static int cpu_run_both(struct pqpan_sim *s, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    uint64_t next_anchor = s->anchor_ns + s->ci_ns;
    int i, rc = PQPAN_OK;
    for (i = 0; i < 2 && rc == PQPAN_OK; i++) {
        uint64_t lead = pqpan_ble_event_lead_ns(&s->cfg.dev, s->ci_ns, (enum pqpan_ble_role)i);
        rc = cpu_run(s, i, next_anchor > lead ? next_anchor - lead : 0u, obs, obs_ctx);
    }
    return rc;
}

/* ---- link layer: PDUs in (§4.5.9, §5.1.9, §5.1.10) -------------------------------- */

/* LL data PDUs carry L2CAP PDUs in fragments (§2.4, Vol 3 Part A §7.2). */
static int l2cap_fragment_rx(struct pqpan_sim *s, int n, uint8_t llid, const uint8_t *p, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint32_t need;
    if (llid == PQPAN_LLID_START) {
        nd->rx_active = 1;
        nd->rx.len = 0;
    } else if (!nd->rx_active) {
        return PQPAN_ERR_MALFORMED;
    }
    if (len > PQPAN_SIM_L2CAP_MAX - (size_t)nd->rx.len) {
        return PQPAN_ERR_MALFORMED;
    }
    memcpy(nd->rx.b + nd->rx.len, p, len);
    nd->rx.len = (uint16_t)(nd->rx.len + len);
    if (nd->rx.len < PQPAN_L2CAP_HDR_BYTES) {
        return PQPAN_OK;
    }
    need = PQPAN_L2CAP_HDR_BYTES + (uint32_t)(nd->rx.b[0] | (nd->rx.b[1] << 8));
    if (nd->rx.len > need) {
        return PQPAN_ERR_MALFORMED;
    }
    if (nd->rx.len == need) {
        nd->rx_active = 0;
        return pqpan_sim_host_rx(s, n, nd->rx.b, nd->rx.len);
    }
    return PQPAN_OK;
}

/* A packet with a valid CRC: acknowledgement, then new data (§4.5.9). */
static int ll_rx(struct pqpan_sim *s, int n, struct pqpan_ll_hdr *h, const uint8_t *payload)
{
    struct pqpan_sim_node *nd = &s->node[n];
    if (h->nesn != nd->sn && nd->have_pdu && nd->sent_once) {
        nd->sn ^= 1u;
        nd->have_pdu = 0;
    }
    if (h->sn != nd->nesn) {
        return PQPAN_OK; /* a resent PDU already received: ignored */
    }
    nd->nesn ^= 1u;
    if (h->length == 0) {
        return PQPAN_OK;
    }
    if (nd->enc_rx) {
        /* a new encrypted PDU (a resent one was skipped above: its counter is used) */
        int rc = pqpan_ll_crypt_decrypt(&nd->crypt, other(n), s->air.b, s->air.len);
        if (rc != PQPAN_OK) {
            return rc;
        }
        h->length = s->air.b[1];
    }
    if (h->llid == PQPAN_LLID_CONTROL) {
        return pqpan_sim_ll_control_rx(s, n, payload, h->length);
    }
    return l2cap_fragment_rx(s, n, h->llid, payload, h->length);
}

/* ---- connection events ------------------------------------------------------------ */

/* The longest event: the configuration's (no longer than the interval in use: the one
 * before the connection update may be shorter), or the interval minus T_IFS. */
static uint64_t event_len_ns(const struct pqpan_sim *s)
{
    if (s->cfg.ble.event_len_ns != 0u) {
        return s->cfg.ble.event_len_ns < s->ci_ns ? s->cfg.ble.event_len_ns : s->ci_ns;
    }
    return s->ci_ns - PQPAN_BLE_T_IFS_NS;
}

/* Whether side n's next new PDU, sent now, ends within the event. A controller starts no
 * packet that would run into the next event (the event length it schedules), so data
 * that does not fit waits for the next anchor behind an empty PDU with MD set (§4.5.6):
 * the peripheral's host may have queued more than the central could know when it
 * started the pair (a same-event reply, the next notification after an acknowledgement). */
static int next_pdu_fits(struct pqpan_sim *s, int n)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint64_t air = pqpan_ble_packet_ns((enum pqpan_ble_phy)s->phy, next_payload(s, nd), nd->enc_tx);
    return s->now_ns + air - s->anchor_ns <= event_len_ns(s);
}

static int do_tx(struct pqpan_sim *s, int n, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint32_t payload;
    uint64_t air_ns;
    if (!nd->have_pdu) {
        int rc = next_pdu_fits(s, n) ? build_pdu(s, n) : build_empty(s, n);
        if (rc != PQPAN_OK) {
            return rc;
        }
    } else if (nd->sent_once && nd->cur.b[1] > 0) {
        s->res.retransmissions[n]++;
    }
    nd->sent_once = 1;
    payload = nd->cur.b[1];
    nd->cur.b[0] = (uint8_t)((nd->cur.b[0] & 3u) | ((unsigned)nd->nesn << 2) | ((unsigned)nd->sn << 3) |
                             ((unsigned)node_has_more(nd) << 4));
    memcpy(s->air.b, nd->cur.b, nd->cur.len);
    s->air.len = nd->cur.len;
    s->air_encrypted = nd->cur_encrypted;
    if (nd->cur_encrypted) {
        s->air_plain = nd->plain;
        s->air_plain.b[0] = nd->cur.b[0]; /* SN, NESN, MD as sent now */
    }
    pqpan_crc24_append(s->crc_init, s->air.b, s->air.len);
    s->air_sender = (uint8_t)n;
    s->air_start_ns = s->now_ns;
    pqpan_sim_apply_channel(s, n);
    air_ns = pqpan_ble_packet_ns((enum pqpan_ble_phy)s->phy, payload, 0);
    account_packet(s, n, payload, air_ns, obs, obs_ctx);
    if (n == PQPAN_BLE_CENTRAL) {
        s->event_pairs++;
    }
    if (payload > 0 && s->phase >= PQPAN_PHASE_KEY_TRANSFER) {
        /* Data and the replies to it belong to the latest message's phase: the third
         * message (PQKE's FIN) confirms; in an LE SC run the pairing is the transfer and
         * the LL encryption start the confirmation (as the estimator books them). */
        int confirm = s->cfg.transport == PQPAN_SIM_SMP ? s->enc_started : s->messages > 2u;
        s->event_data_phase = confirm ? PQPAN_PHASE_CONFIRM : PQPAN_PHASE_KEY_TRANSFER;
    }
    return push(s, s->now_ns + air_ns, EV_RX, other(n));
}

static void report_packet(struct pqpan_sim *s, int crc_ok, const struct pqpan_sim_observer *obs,
                          void *obs_ctx)
{
    struct pqpan_sim_packet p;
    uint8_t plain[sizeof s->air.b];
    if (obs == NULL || obs->packet == NULL) {
        return;
    }
    memset(&p, 0, sizeof p);
    p.t_ns = s->air_start_ns;
    p.access_address = s->access_address;
    p.rf_channel = rf_channel_of(s->channel);
    p.sender = s->air_sender;
    p.phy = s->phy;
    p.crc_ok = (uint8_t)crc_ok;
    p.pdu = s->air.b;
    p.len = (size_t)s->air.len + PQPAN_LL_CRC_BYTES;
    if (crc_ok && s->air_encrypted) {
        size_t n = (size_t)PQPAN_LL_HDR_BYTES + s->air_plain.b[1];
        memcpy(plain, s->air_plain.b, n);
        memcpy(plain + n, s->air.b + s->air.len, PQPAN_LL_CRC_BYTES);
        p.pdu = plain;
        p.len = n + PQPAN_LL_CRC_BYTES;
        p.decrypted = 1;
    }
    obs->packet(obs_ctx, &p);
}

/* Whether the central starts another pair (§4.5.6): either side set MD in its last packet
 * (an unknown MD after a CRC error counts as set) or the central's packet awaits
 * retransmission, and the pair fits in the event. If neither side set MD the
 * peripheral's packet closes the event, even if the central's host queued data since it
 * sent (that data waits for the next anchor), except with same_event_reply, which
 * models a host fast enough to set MD for its reply. */
static int central_continues(struct pqpan_sim *s, int peer_md)
{
    struct pqpan_sim_node *c = &s->node[PQPAN_BLE_CENTRAL];
    struct pqpan_sim_node *p = &s->node[PQPAN_BLE_PERIPHERAL];
    uint64_t t;
    int sent_md = (c->cur.b[0] >> 4) & 1;
    int more = peer_md || sent_md || (c->have_pdu && c->cur.b[1] > 0) ||
               (s->cfg.ble.same_event_reply && node_has_more(c));
    if (!more || s->stop) {
        return 0;
    }
    if (s->cfg.ble.max_pairs != 0u && s->event_pairs >= s->cfg.ble.max_pairs) {
        return 0;
    }
    t = s->now_ns + PQPAN_BLE_T_IFS_NS +
        pqpan_ble_packet_ns((enum pqpan_ble_phy)s->phy, next_payload(s, c), 0) +
        PQPAN_BLE_T_IFS_NS + pqpan_ble_packet_ns((enum pqpan_ble_phy)s->phy, next_payload(s, p), 0);
    return t - s->anchor_ns <= event_len_ns(s);
}

static int do_rx(struct pqpan_sim *s, int n, const struct pqpan_sim_app *app, void *app_ctx,
                 const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    struct pqpan_sim_node *nd = &s->node[n];
    struct pqpan_ll_hdr h;
    int crc_ok, peer_md = 1, rc = PQPAN_OK;
    if (s->air_lost) {
        s->res.missed[n]++;
        return push(s, s->now_ns, EV_CLOSE, 0);
    }
    crc_ok = pqpan_crc24_check(s->crc_init, s->air.b, s->air.len);
    report_packet(s, crc_ok, obs, obs_ctx);
    if (crc_ok && pqpan_ll_pdu_hdr_parse(&h, s->air.b, s->air.len) != PQPAN_OK) {
        crc_ok = 0; /* an error the CRC missed left an impossible header */
    }
    if (!crc_ok) {
        s->res.crc_errors[n]++;
        nd->crc_errors_in_row++;
    } else {
        nd->crc_errors_in_row = 0;
        nd->last_rx_ok_ns = s->now_ns;
        s->established = 1;
        peer_md = h.md;
        rc = ll_rx(s, n, &h, s->air.b + PQPAN_LL_HDR_BYTES);
        if (rc == PQPAN_OK && s->cfg.ble.same_event_reply) {
            rc = pqpan_sim_host_release(s, n, app, app_ctx);
        }
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    /* §4.5.6: two consecutive CRC errors close the event. */
    if (nd->crc_errors_in_row >= 2u) {
        return push(s, s->now_ns, EV_CLOSE, 0);
    }
    if (n == PQPAN_BLE_PERIPHERAL) {
        account_ifs(s, obs, obs_ctx);
        return push(s, s->now_ns + PQPAN_BLE_T_IFS_NS, EV_TX, PQPAN_BLE_PERIPHERAL);
    }
    if (central_continues(s, peer_md)) {
        account_ifs(s, obs, obs_ctx);
        return push(s, s->now_ns + PQPAN_BLE_T_IFS_NS, EV_TX, PQPAN_BLE_CENTRAL);
    }
    return push(s, s->now_ns, EV_CLOSE, 0);
}

/* Both sides done, nothing left to send, and an LL encryption procedure, once started,
 * complete at the central. */
static int all_quiet(const struct pqpan_sim *s)
{
    int i;
    if (s->enc_started && !s->res.encrypted) {
        return 0;
    }
    for (i = 0; i < 2; i++) {
        const struct pqpan_sim_node *nd = &s->node[i];
        if (!nd->done || nd->out_busy || node_has_more(nd) || nd->hostq_n > 0 ||
            nd->hostllq_n > 0 || nd->deliver_pending) {
            return 0;
        }
    }
    return 1;
}

static int sleep_fill(struct pqpan_sim *s, uint64_t span, unsigned mask, int ph)
{
    int i, p;
    for (i = 0; i < 2; i++) {
        uint64_t busy = 0;
        for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
            if (mask & (1u << p)) {
                busy += pqpan_ledger_phase_ns(&s->res.ledger[i], (enum pqpan_phase)p);
            }
        }
        pqpan_ledger_add(&s->res.ledger[i], (enum pqpan_phase)ph, PQPAN_STATE_SLEEP,
                         span > busy ? span - busy : 0u);
    }
    return PQPAN_OK;
}

static void finish(struct pqpan_sim *s)
{
    const unsigned exchange = (1u << PQPAN_PHASE_KEY_TRANSFER) | (1u << PQPAN_PHASE_CRYPTO) |
                              (1u << PQPAN_PHASE_CONFIRM);
    int ph;
    s->res.latency_ns = s->crypto_started ? s->crypto_last_ns - s->crypto_first_ns : 0u;
    s->res.end_ns = s->now_ns;
    s->res.att_mtu = s->att_mtu;
    s->res.ll_octets = s->ll_octets;
    s->res.done[0] = s->node[0].done;
    s->res.done[1] = s->node[1].done;
    for (ph = 0; ph < PQPAN_PHASE_KEY_TRANSFER; ph++) {
        (void)sleep_fill(s, s->res.span_ns[ph], 1u << ph, ph);
        s->res.setup_ns += s->res.span_ns[ph];
    }
    (void)sleep_fill(s, s->res.latency_ns, exchange, PQPAN_PHASE_KEY_TRANSFER);
}

static int advance_negotiation(struct pqpan_sim *s, const struct pqpan_sim_app *app, void *app_ctx)
{
    int rc;
    if (!s->nego_advance) {
        return PQPAN_OK;
    }
    s->nego_advance = 0;
    if (!start_negotiation_step(s, &rc)) {
        return rc;
    }
    s->link_ready = 1;
    set_phase(s, PQPAN_PHASE_KEY_TRANSFER);
    return pqpan_sim_host_start_app(s, app, app_ctx);
}

static int do_close(struct pqpan_sim *s, const struct pqpan_sim_app *app, void *app_ctx,
                    const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    int rc, i;
    close_accounting(s, obs, obs_ctx);
    s->in_event = 0;
    s->last_close_ns = s->now_ns;
    for (i = 0; i < 2; i++) {
        s->node[i].cpu.free_ns = s->now_ns + s->cfg.dev.post_ns;
    }
    if (s->phase == PQPAN_PHASE_CONNECT) {
        s->nego_advance = 1;
    }
    for (i = 0; i < 2; i++) {
        rc = pqpan_sim_host_release(s, i, app, app_ctx);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    rc = advance_negotiation(s, app, app_ctx);
    if (rc == PQPAN_OK) {
        rc = cpu_run_both(s, obs, obs_ctx);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    /* The run ends when both sides are done and nothing is left to send; anchors that
     * pass while the last computation runs still hold (idle) events, which suspend it. */
    if (all_quiet(s) && !cpu_busy(s)) {
        s->stop = 1;
        if (s->crypto_busy_until > s->now_ns) {
            s->now_ns = s->crypto_busy_until;
        }
        return PQPAN_OK;
    }
    return push(s, s->anchor_ns + s->ci_ns, EV_ANCHOR, 0);
}

static int do_anchor(struct pqpan_sim *s)
{
    uint64_t timeout = (uint64_t)s->cfg.supervision_timeout_ms * 1000000u;
    int i;
    if (s->anchor_ns != 0u) {
        s->event_counter++;
    }
    s->anchor_ns = s->now_ns;
    next_channel(s);
    pqpan_sim_ll_instant(s);
    for (i = 0; i < 2; i++) {
        /* §4.5.2: supervision timeout; before establishment, 6 intervals. */
        if (s->established ? s->now_ns - s->node[i].last_rx_ok_ns > timeout
                           : s->event_counter >= ESTABLISH_EVENTS) {
            return PQPAN_ERR_LINK_LOST;
        }
    }
    if (s->now_ns - s->connect_at_ns > s->cfg.max_sim_ns) {
        return PQPAN_ERR_TIMEOUT;
    }
    s->in_event = 1;
    s->event_has_data = 0;
    s->event_pairs = 0;
    s->node[0].crc_errors_in_row = 0;
    s->node[1].crc_errors_in_row = 0;
    return push(s, s->now_ns, EV_TX, PQPAN_BLE_CENTRAL);
}

static void connect_ind_packet(const struct pqpan_sim *s, const uint8_t *pdu,
                               const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    struct pqpan_sim_packet p;
    if (obs == NULL || obs->packet == NULL) {
        return;
    }
    memset(&p, 0, sizeof p);
    p.t_ns = s->connect_at_ns;
    p.access_address = PQPAN_LL_ADV_AA;
    p.rf_channel = pqpan_sim_adv_rf_channel(s->adv_channel);
    p.advertising = 1;
    p.sender = PQPAN_BLE_CENTRAL;
    p.phy = PQPAN_BLE_PHY_1M;
    p.crc_ok = 1;
    p.pdu = pdu;
    p.len = PQPAN_CONNECT_IND_PDU + PQPAN_LL_CRC_BYTES;
    obs->packet(obs_ctx, &p);
}

/* §4.5.3: the central sends CONNECT_IND at connect_at_ns on the channel it scans (37
 * without an advertising phase), at the connection's interval (the idle one when it is
 * updated later); the first anchor is at the start of the transmit window,
 * transmitWindowDelay after it (WinOffset 0). */
static int connect(struct pqpan_sim *s, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    struct pqpan_connect_ind c;
    uint8_t pdu[PQPAN_CONNECT_IND_PDU + PQPAN_LL_CRC_BYTES];
    uint64_t air = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, PQPAN_CONNECT_IND_PAYLOAD, 0);
    uint64_t t0 = s->connect_at_ns, first;
    int rc, i;
    memset(&c, 0, sizeof c);
    memcpy(c.init_addr, PQPAN_SIM_CENTRAL_ADDR, PQPAN_BD_ADDR_BYTES);
    memcpy(c.adv_addr, PQPAN_SIM_PERIPHERAL_ADDR, PQPAN_BD_ADDR_BYTES);
    c.tx_add_random = 1;
    c.rx_add_random = 1;
    c.access_address = s->access_address;
    c.crc_init = s->crc_init;
    c.win_size = 1;
    c.interval = (uint16_t)(s->ci_ns / 1250000u);
    c.timeout = (uint16_t)(s->cfg.supervision_timeout_ms / 10u);
    memcpy(c.chm, "\xFF\xFF\xFF\xFF\x1F", 5);
    c.hop = s->hop;
    c.sca = 7; /* 0..20 ppm */
    rc = pqpan_connect_ind_write(pdu, &c);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, pdu, PQPAN_CONNECT_IND_PDU);
    connect_ind_packet(s, pdu, obs, obs_ctx);
    pqpan_ledger_add(&s->res.ledger[PQPAN_BLE_CENTRAL], PQPAN_PHASE_CONNECT, PQPAN_STATE_TX, air);
    pqpan_ledger_add(&s->res.ledger[PQPAN_BLE_PERIPHERAL], PQPAN_PHASE_CONNECT, PQPAN_STATE_RX, air);
    pqpan_sim_emit_span(obs, obs_ctx, PQPAN_BLE_CENTRAL, PQPAN_STATE_TX, PQPAN_PHASE_CONNECT, t0,
                        t0 + air);
    pqpan_sim_emit_span(obs, obs_ctx, PQPAN_BLE_PERIPHERAL, PQPAN_STATE_RX, PQPAN_PHASE_CONNECT, t0,
                        t0 + air);
    first = t0 + air + TRANSMIT_WINDOW_DELAY_NS;
    for (i = 0; i < 2; i++) {
        s->node[i].last_rx_ok_ns = first;
    }
    return push(s, first, EV_ANCHOR, 0);
}

static int dispatch(struct pqpan_sim *s, const struct pqpan_ev *ev, const struct pqpan_sim_app *app,
                    void *app_ctx, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    switch (ev->kind) {
    case EV_ANCHOR:
        return do_anchor(s);
    case EV_TX:
        return do_tx(s, ev->node, obs, obs_ctx);
    case EV_RX:
        return do_rx(s, ev->node, app, app_ctx, obs, obs_ctx);
    case EV_CLOSE:
        return do_close(s, app, app_ctx, obs, obs_ctx);
    default:
        /* A computation's output is sent from the first anchor after it ends (the link
         * layer prepares an event's packets before its anchor; docs/MODEL.md "Link
         * model"): ready during an event, it waits for the host run at its close. */
        s->node[ev->node].out_ready_pending = 0;
        return s->in_event ? PQPAN_OK : pqpan_sim_host_pump(s, ev->node);
    }
}

int pqpan_sim_run(struct pqpan_sim *s, const struct pqpan_sim_app *app, void *app_ctx,
                  const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    struct pqpan_ev ev;
    int rc;
    if (app == NULL || app->start == NULL || app->receive == NULL || app->expect == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = PQPAN_OK;
    if (s->cfg.ble.adv_interval_ns != 0u) {
        s->phase = PQPAN_PHASE_ADVERTISE;
        rc = pqpan_sim_advertise(s, obs, obs_ctx);
        s->last_close_ns = s->connect_at_ns;
        set_phase(s, PQPAN_PHASE_CONNECT);
    }
    if (rc == PQPAN_OK) {
        rc = connect(s, obs, obs_ctx);
    }
    while (rc == PQPAN_OK && !s->stop && pqpan_evq_pop(&s->q, &ev)) {
        s->now_ns = ev.t_ns;
        rc = dispatch(s, &ev, app, app_ctx, obs, obs_ctx);
    }
    finish(s);
    s->res.established = s->established;
    s->res.status = rc;
    return rc;
}
