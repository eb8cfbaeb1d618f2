/* The clock of keys between mesh nodes (net_clock.h). */
#include <string.h>

#include "net_clock.h"
#include "pbadv_clock.h"

/* Core v5.4 Vol 6 Part B §4.4.2.2.1: advDelay uniform in 0..10 ms, mean 5 ms. */
#define ADV_DELAY_MEAN_NS (PQPAN_BLE_ADV_DELAY_MAX_NS / 2u)

static enum pqpan_mesh_net_role role_at(const struct mesh_net_clock *c, uint32_t pos)
{
    if ((c->friend.friend_tx || c->friend.friend_own) && pos == c->friend.friend_pos &&
        pos != 0u && pos != c->cfg->hops) {
        return PQPAN_MESH_NET_FRIEND;
    }
    if (pos == 0u) {
        return PQPAN_MESH_NET_INITIATOR;
    }
    return pos == c->cfg->hops ? PQPAN_MESH_NET_RESPONDER : PQPAN_MESH_NET_RELAY;
}

/* The relay ledger is one stage's relay's (stage 1, or 2 when stage 1 is an LPN's Friend):
 * every relay sends and hears the same PDUs. */
static struct pqpan_ledger *ledger_at(struct mesh_net_clock *c, uint32_t pos)
{
    enum pqpan_mesh_net_role r = role_at(c, pos);
    return r != PQPAN_MESH_NET_RELAY || pos == c->friend.relay_pos ? &c->out->ledger[r] : NULL;
}

/* times events of the node at pos carrying a Network PDU of pdu octets, the first from at,
 * the next spacing_ns + E[advDelay] after each start. Returns when a neighbour has the PDU
 * (the first event's mean channel). */
static uint64_t transmit(struct mesh_net_clock *c, uint32_t pos, uint64_t at, uint32_t pdu,
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
static void heard(struct mesh_net_clock *c, uint32_t pos, uint32_t pdu)
{
    struct pqpan_ledger *l = ledger_at(c, pos);
    if (l != NULL) {
        l->pdus_rx++;
        l->bytes_rx += pqpan_ble_packet_octets(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(pdu), 0);
    }
}

/* One Network PDU from the endpoint at from to the one at to, from at: the source's
 * Network Transmit, then each stage's Relay Retransmit. Returns when to has it. */
static uint64_t send_pdu(struct mesh_net_clock *c, uint32_t from, uint32_t to, uint64_t at,
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

/* One part (§3.5.3.3, §3.5.3.4): the segments, then the acknowledgment. */
uint64_t pqpan_mesh_net_clock_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                   const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                                   enum pqpan_phase phase, uint64_t *rx)
{
    uint32_t to = from == 0u ? c->cfg->hops : 0u, k;
    enum pqpan_mesh_net_role s = role_at(c, from);
    uint64_t last = at;
    if (c->cfg->lpn != PQPAN_MESH_NET_LPN_NONE) {
        return pqpan_mesh_net_friend_part(c, from, at, pdu, segs, ack_pdu, phase, rx);
    }
    for (k = 0; k < segs; k++) {
        uint64_t got = send_pdu(c, from, to, at + k * c->cfg->seg_interval_ns, pdu[k], phase);
        last = got > last ? got : last;
    }
    c->out->segments[s] += segs;
    c->out->parts[s]++;
    c->out->seg_acks[1 - s]++;
    *rx = last;
    return send_pdu(c, to, from, last, ack_pdu, phase);
}

uint64_t pqpan_mesh_net_clock_compute(struct mesh_net_clock *c, enum pqpan_mesh_net_role s,
                                      const uint32_t ops[PQPAN_OP_COUNT], uint64_t at,
                                      const uint64_t cycles[PQPAN_OP_COUNT])
{
    uint64_t ns = 0;
    unsigned op, i;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        for (i = 0; i < ops[op]; i++) {
            uint64_t t = pqpan_cycles_to_ns(cycles[op], c->dev->cpu_hz);
            pqpan_ledger_add_op(&c->out->ledger[s], (enum pqpan_op)op, cycles[op]);
            pqpan_ledger_add(&c->out->ledger[s], PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, t);
            ns += t;
        }
    }
    c->busy_ns[s] += ns;
    return at + ns;
}

void pqpan_mesh_net_clock_init(struct mesh_net_clock *c, struct pqpan_mesh_net_estimate *out,
                               const struct pqpan_mesh_net_config *cfg,
                               const struct pqpan_ble_device *dev)
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
    pqpan_mesh_net_friend_init(c);
}

/* Every node scans whenever it neither advertises nor computes, to the last event's end;
 * a stage's delay on a full segment (a relay starts at once when it is free). */
void pqpan_mesh_net_clock_finish(struct mesh_net_clock *c)
{
    struct mesh_adv_event ev;
    struct pqpan_ledger scratch;
    unsigned r;
    pqpan_mesh_net_friend_finish(c);
    for (r = 0; r < PQPAN_MESH_NET_ROLES; r++) {
        pqpan_mesh_net_friend_idle(c, (enum pqpan_mesh_net_role)r);
    }
    c->out->span_ns = c->end_ns;
    pqpan_ledger_init(&scratch);
    pqpan_mesh_adv_event_book(&ev, &scratch, c->dev, PQPAN_BLE_PHY_1M,
                              pqpan_mesh_net_adv_payload(PQPAN_MESH_NET_PDU_MAX),
                              PQPAN_PHASE_KEY_TRANSFER);
    c->out->hop_ns = ev.heard_ns;
}

uint64_t pqpan_mesh_net_clock_send(struct mesh_net_clock *c, uint32_t from, uint32_t to,
                                   uint64_t at, uint32_t pdu, enum pqpan_phase phase)
{
    return send_pdu(c, from, to, at, pdu, phase);
}

uint64_t pqpan_mesh_net_clock_transmit(struct mesh_net_clock *c, uint32_t pos, uint64_t at,
                                       uint32_t pdu, uint32_t times, uint64_t spacing_ns,
                                       enum pqpan_phase phase)
{
    return transmit(c, pos, at, pdu, times, spacing_ns, phase);
}
