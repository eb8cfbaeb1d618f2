/* The expected PQKE between two mesh nodes across relays (mesh_net.h): each node's
 * advertising events on a shared clock, each priced by the PB-ADV clock's event
 * (pbadv_clock.h), and the scanning that fills the rest (docs/MODEL.md "Keys between mesh
 * nodes"). */
#include <string.h>

#include "../common/pqke_steps.h"
#include "pbadv_clock.h"
#include "pqpan/mesh_net.h"

/* Core v5.4 Vol 6 Part B §4.4.2.2.1: advDelay uniform in 0..10 ms, mean 5 ms. */
#define ADV_DELAY_MEAN_NS (PQPAN_BLE_ADV_DELAY_MAX_NS / 2u)

/* The nodes along the path: position 0 the initiator, hops the responder, 1 .. hops - 1
 * the relay stages (the relays of a stage act at once, alike). */
struct net_clock {
    struct pqpan_mesh_net_estimate *out;
    const struct pqpan_mesh_net_config *cfg;
    const struct pqpan_ble_device *dev;
    uint64_t free_ns[PQPAN_MESH_NET_HOPS_MAX + 1u]; /* next event of the node at a position */
    uint64_t busy_ns[PQPAN_MESH_NET_ROLES];          /* not scanning: events, computation */
    uint64_t end_ns;
};

static enum pqpan_mesh_net_role role_at(const struct net_clock *c, uint32_t pos)
{
    if (pos == 0u) {
        return PQPAN_MESH_NET_INITIATOR;
    }
    return pos == c->cfg->hops ? PQPAN_MESH_NET_RESPONDER : PQPAN_MESH_NET_RELAY;
}

/* The relay ledger is the stage-1 relay's: every relay sends and hears the same PDUs. */
static struct pqpan_ledger *ledger_at(struct net_clock *c, uint32_t pos)
{
    enum pqpan_mesh_net_role r = role_at(c, pos);
    return r != PQPAN_MESH_NET_RELAY || pos == 1u ? &c->out->ledger[r] : NULL;
}

/* times events of the node at pos carrying a Network PDU of pdu octets, the first from at,
 * the next spacing_ns + E[advDelay] after each start. Returns when a neighbour has the PDU
 * (the first event's mean channel). */
static uint64_t transmit(struct net_clock *c, uint32_t pos, uint64_t at, uint32_t pdu,
                         uint32_t times, uint64_t spacing_ns, enum pqpan_phase phase)
{
    struct pqpan_ledger scratch, *l = ledger_at(c, pos);
    enum pqpan_mesh_net_role r = role_at(c, pos);
    struct mesh_adv_event ev;
    uint64_t heard = 0, t0;
    uint32_t i;
    for (i = 0; i < times; i++) {
        t0 = at > c->free_ns[pos] ? at : c->free_ns[pos];
        pqpan_ledger_init(&scratch);
        pqpan_mesh_adv_event_book(&ev, l != NULL ? l : &scratch, c->dev, PQPAN_BLE_PHY_1M,
                                  pqpan_mesh_net_adv_payload(pdu), phase);
        if (l != NULL) {
            c->busy_ns[r] += ev.len_ns;
            c->out->adv_events[r]++;
        }
        c->free_ns[pos] = t0 + spacing_ns + ADV_DELAY_MEAN_NS;
        if (t0 + ev.len_ns > c->end_ns) {
            c->end_ns = t0 + ev.len_ns;
        }
        heard = i == 0u ? t0 + ev.heard_ns : heard;
    }
    return heard;
}

/* The node at pos has a new Network PDU (its first copy; the message cache drops the rest). */
static void heard(struct net_clock *c, uint32_t pos, uint32_t pdu)
{
    struct pqpan_ledger *l = ledger_at(c, pos);
    if (l != NULL) {
        l->pdus_rx++;
        l->bytes_rx += pqpan_ble_packet_octets(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(pdu), 0);
    }
}

/* One Network PDU from the endpoint at from to the one at to, from at: the source's
 * Network Transmit, then each stage's Relay Retransmit. Returns when to has it. */
static uint64_t send_pdu(struct net_clock *c, uint32_t from, uint32_t to, uint64_t at,
                         uint32_t pdu, enum pqpan_phase phase)
{
    const struct pqpan_mesh_net_config *cfg = c->cfg;
    uint32_t pos = from;
    uint64_t t = transmit(c, from, at, pdu, cfg->net_transmit_count + 1u,
                          cfg->net_transmit_interval_ns, phase);
    pos = to > from ? pos + 1u : pos - 1u;
    while (pos != to) {
        heard(c, pos, pdu);
        t = transmit(c, pos, t, pdu, cfg->relay_retransmit_count + 1u,
                     cfg->relay_retransmit_interval_ns, phase);
        pos = to > from ? pos + 1u : pos - 1u;
    }
    heard(c, to, pdu);
    return t;
}

/* One part (a segmented access message of upper octets) from the endpoint at from: its
 * segments from at, SAR Segment Interval apart; the destination's Segment Acknowledgment
 * once it has the last (§3.5.3.4). *rx = when the destination has the whole part; returns
 * when the sender has the acknowledgment. */
static uint64_t send_part(struct net_clock *c, uint32_t from, uint64_t at, uint32_t upper,
                          enum pqpan_phase phase, uint64_t *rx)
{
    uint32_t to = from == 0u ? c->cfg->hops : 0u, segs = pqpan_mesh_net_segments(upper), k;
    enum pqpan_mesh_net_role s = role_at(c, from);
    uint64_t last = at;
    for (k = 0; k < segs; k++) {
        uint64_t got = send_pdu(c, from, to, at + k * c->cfg->seg_interval_ns,
                                pqpan_mesh_net_segment_pdu(upper, k), phase);
        last = got > last ? got : last;
    }
    c->out->segments[s] += segs;
    c->out->parts[s]++;
    c->out->seg_acks[1 - s]++;
    *rx = last;
    return send_pdu(c, to, from, last, pqpan_mesh_net_ack_pdu(), phase);
}

/* A PQKE message of len octets from the endpoint at from, its parts one after the other
 * (each once the last is acknowledged). *rx = when the destination has all of it;
 * returns when the sender has the last acknowledgment. */
static uint64_t send_message(struct net_clock *c, uint32_t from, uint64_t at, uint32_t len,
                             enum pqpan_phase phase, uint64_t *rx)
{
    uint32_t parts = pqpan_mesh_net_parts(len, c->cfg->transmic), p;
    uint64_t acked = at;
    for (p = 0; p < parts; p++) {
        uint32_t data = pqpan_mesh_net_part_data(len, c->cfg->transmic, p);
        acked = send_part(c, from, acked, pqpan_mesh_net_upper_len(data, c->cfg->transmic),
                          phase, rx);
    }
    return acked;
}

/* The endpoint s runs step k's operations from at; returns when it is done. */
static uint64_t compute(struct net_clock *c, enum pqpan_mesh_net_role s, const struct pqke_steps *st,
                        unsigned k, uint64_t at, const uint64_t cycles[PQPAN_OP_COUNT])
{
    uint64_t ns = 0;
    unsigned op, i;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        for (i = 0; i < st->ops[k][op]; i++) {
            uint64_t t = pqpan_cycles_to_ns(cycles[op], c->dev->cpu_hz);
            pqpan_ledger_add_op(&c->out->ledger[s], (enum pqpan_op)op, cycles[op]);
            pqpan_ledger_add(&c->out->ledger[s], PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, t);
            ns += t;
        }
    }
    c->busy_ns[s] += ns;
    return at + ns;
}

static void clock_init(struct net_clock *c, struct pqpan_mesh_net_estimate *out,
                       const struct pqpan_mesh_net_config *cfg, const struct pqpan_ble_device *dev)
{
    unsigned r;
    memset(c, 0, sizeof *c);
    memset(out, 0, sizeof *out);
    c->out = out;
    c->cfg = cfg;
    c->dev = dev;
    for (r = 0; r < PQPAN_MESH_NET_ROLES; r++) {
        pqpan_ledger_init(&out->ledger[r]);
    }
    out->relay_nodes = (cfg->hops - 1u) * cfg->relays;
}

/* Every node scans whenever it neither advertises nor computes, to the last event's end;
 * a stage's delay on a full segment (a relay starts at once when it is free). */
static void clock_finish(struct net_clock *c)
{
    struct mesh_adv_event ev;
    struct pqpan_ledger scratch;
    unsigned r;
    for (r = 0; r < PQPAN_MESH_NET_ROLES; r++) {
        if (r != PQPAN_MESH_NET_RELAY || c->out->relay_nodes > 0u) {
            pqpan_mesh_adv_scan_book(&c->out->ledger[r], c->end_ns, c->busy_ns[r]);
        }
    }
    c->out->span_ns = c->end_ns;
    pqpan_ledger_init(&scratch);
    pqpan_mesh_adv_event_book(&ev, &scratch, c->dev, PQPAN_BLE_PHY_1M,
                              pqpan_mesh_net_adv_payload(PQPAN_MESH_NET_PDU_MAX),
                              PQPAN_PHASE_KEY_TRANSFER);
    c->out->hop_ns = ev.heard_ns;
}

/* The messages' sizes and the steps of the PQKE the configuration names. */
static int plan(uint32_t len[4], struct pqke_steps *st, const struct pqpan_mesh_net_config *cfg)
{
    struct pqpan_pqke_sizes sz;
    unsigned m;
    int rc = pqpan_pqke_steps_of(st, cfg->suite, cfg->mode, cfg->sig, 0);
    if (rc != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    sz = pqpan_pqke_message_sizes(cfg->suite, cfg->mode, cfg->sig);
    len[0] = (uint32_t)sz.init_bytes;
    len[1] = (uint32_t)sz.resp_bytes;
    len[2] = (uint32_t)sz.fin_bytes;
    len[3] = (uint32_t)sz.reveal_bytes;
    for (m = 0; m < 4u; m++) {
        if (len[m] != 0u && pqpan_mesh_net_parts(len[m], cfg->transmic) == 0u) {
            return PQPAN_ERR_CAPACITY;
        }
    }
    return PQPAN_OK;
}

static uint64_t later(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* INIT step, INIT, RESP step, RESP, FIN step, FIN, AFTER_FIN step, REVEAL (numeric), as
 * the 802.15.4 estimator orders them (pqpan_802154_estimate_pqke). */
static void run_pqke(struct net_clock *c, const uint32_t len[4], const struct pqke_steps *st,
                     const uint64_t cycles[PQPAN_OP_COUNT])
{
    const uint32_t resp = c->cfg->hops;
    uint64_t t, rx, acked;
    t = compute(c, PQPAN_MESH_NET_INITIATOR, st, PQKE_STEP_INIT, 0u, cycles);
    (void)send_message(c, 0u, t, len[0], PQPAN_PHASE_KEY_TRANSFER, &rx);
    t = compute(c, PQPAN_MESH_NET_RESPONDER, st, PQKE_STEP_RESP, rx, cycles);
    (void)send_message(c, resp, t, len[1], PQPAN_PHASE_KEY_TRANSFER, &rx);
    t = compute(c, PQPAN_MESH_NET_INITIATOR, st, PQKE_STEP_FIN, rx, cycles);
    acked = send_message(c, 0u, t, len[2], PQPAN_PHASE_CONFIRM, &rx);
    t = compute(c, PQPAN_MESH_NET_RESPONDER, st, PQKE_STEP_AFTER_FIN, rx, cycles);
    c->out->latency_ns = later(t, acked);
    if (len[3] != 0u) {
        acked = send_message(c, resp, t, len[3], PQPAN_PHASE_CONFIRM, &rx);
        c->out->latency_ns = later(rx, acked);
    }
}

int pqpan_mesh_net_estimate(struct pqpan_mesh_net_estimate *out,
                            const struct pqpan_mesh_net_config *cfg,
                            const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    struct net_clock c;
    struct pqke_steps st;
    uint32_t len[4];
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (dev == NULL || cycles == NULL || pqpan_mesh_net_config_check(cfg) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = plan(len, &st, cfg);
    if (rc != PQPAN_OK) {
        return rc;
    }
    clock_init(&c, out, cfg, dev);
    run_pqke(&c, len, &st, cycles);
    clock_finish(&c);
    return PQPAN_OK;
}

int pqpan_mesh_net_message_estimate(struct pqpan_mesh_net_estimate *out,
                                    const struct pqpan_mesh_net_config *cfg,
                                    const struct pqpan_ble_device *dev, uint32_t msg_len)
{
    struct net_clock c;
    uint64_t rx = 0;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (dev == NULL || pqpan_mesh_net_config_check(cfg) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (pqpan_mesh_net_parts(msg_len, cfg->transmic) == 0u) {
        return msg_len == 0u ? PQPAN_ERR_INVALID_ARG : PQPAN_ERR_CAPACITY;
    }
    clock_init(&c, out, cfg, dev);
    (void)send_message(&c, 0u, 0u, msg_len, PQPAN_PHASE_KEY_TRANSFER, &rx);
    clock_finish(&c);
    out->latency_ns = rx;
    return PQPAN_OK;
}
