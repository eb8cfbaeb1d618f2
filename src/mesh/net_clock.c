/* The clock of keys between mesh nodes (net_clock.h). */
#include <math.h>
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

/* Without an LPN every relay node's bookings go to one sum (clock_finish makes the relay row
 * their mean). With one (net_friend.c, lossless) the stages carry different traffic and the
 * relay row is one stage's relay's (stage 1, or 2 when stage 1 is the LPN's Friend): NULL for
 * the others. */
static struct pqpan_ledger *ledger_at(struct mesh_net_clock *c, uint32_t pos)
{
    enum pqpan_mesh_net_role r = role_at(c, pos);
    if (r != PQPAN_MESH_NET_RELAY) {
        return &c->out->ledger[r];
    }
    if (c->cfg->lpn == PQPAN_MESH_NET_LPN_NONE) {
        return &c->relays;
    }
    return pos == c->friend.relay_pos ? &c->out->ledger[r] : NULL;
}

/* times events of each of the holders nodes at pos (alike, at once) carrying a Network PDU
 * of pdu octets, the first from at, the next spacing_ns + E[advDelay] after each start;
 * heard_ns[i] = when a neighbour has event i's PDU (its mean channel). Returns the end of
 * the last event. */
static uint64_t transmit(struct mesh_net_clock *c, uint32_t pos, uint32_t holders, uint64_t at,
                         uint32_t pdu, uint32_t times, uint64_t spacing_ns,
                         enum pqpan_phase phase, uint64_t *heard_ns)
{
    struct pqpan_ledger scratch, *l = ledger_at(c, pos);
    enum pqpan_mesh_net_role r = role_at(c, pos);
    struct mesh_adv_event ev;
    uint64_t t0 = at;
    uint32_t i, k;
    memset(&ev, 0, sizeof ev);
    pqpan_ledger_init(&scratch);
    for (i = 0; i < times; i++) {
        t0 = at > c->free_ns[pos] ? at : c->free_ns[pos];
        for (k = 0; k < holders; k++) {
            pqpan_mesh_adv_event_book(&ev, l != NULL ? l : &scratch, c->dev, PQPAN_BLE_PHY_1M,
                                      pqpan_mesh_net_adv_payload(pdu), phase);
            if (c->on_event != NULL) {
                c->on_event(c->event_ctx, pos, k, t0);
            }
        }
        if (l != NULL) {
            c->busy_ns[r] += holders * ev.len_ns;
            c->out->adv_events[r] += holders;
        }
        c->free_ns[pos] = t0 + spacing_ns + ADV_DELAY_MEAN_NS;
        if (t0 + ev.len_ns > c->end_ns) {
            c->end_ns = t0 + ev.len_ns;
        }
        heard_ns[i] = t0 + ev.heard_ns;
    }
    return t0 + ev.len_ns;
}

/* n nodes at pos have a new Network PDU (their first copy; the message cache drops the
 * rest). */
static void heard(struct mesh_net_clock *c, uint32_t pos, uint32_t pdu, uint32_t n)
{
    struct pqpan_ledger *l = ledger_at(c, pos);
    if (l == NULL) {
        return;
    }
    l->pdus_rx += n;
    l->bytes_rx += n * pqpan_ble_packet_octets(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(pdu), 0);
}

/* The first of times events a receiver hears when holders nodes send each (an event lost
 * when every holder's copy is: per^holders), or times if it hears none. */
static uint32_t first_heard(struct mesh_net_clock *c, const uint32_t *clear, uint32_t times)
{
    uint32_t i;
    if (!pqpan_mesh_net_clock_lossy(c)) {
        return 0u;
    }
    for (i = 0; i < times; i++) {
        int lost = c->lose != NULL ? c->lose(c->lose_ctx, c->draws++)
                                   : pqpan_prng_chance(c->loss, pow(c->cfg->per, (double)clear[i]));
        if (!lost) {
            return i;
        }
    }
    return times;
}

/* Of holders copies of one event, those no other overlaps (cfg->relay_collisions): each
 * holder's event starts after its own advDelay, uniform in 0 .. 10 ms (Core v5.4 Vol 6
 * Part B §4.4.2.2.1), and two copies on a channel collide when their starts are closer than
 * a packet (packet_ns); a collision loses both (no capture). */
static uint32_t uncollided(struct mesh_net_clock *c, uint32_t holders, uint64_t packet_ns)
{
    uint64_t start[PQPAN_MESH_NET_RELAYS_MAX];
    uint32_t j, k, clear = 0;
    if (!c->cfg->relay_collisions || c->loss == NULL || holders < 2u) {
        return holders;
    }
    for (j = 0; j < holders; j++) {
        start[j] = pqpan_prng_below(c->loss, PQPAN_BLE_ADV_DELAY_MAX_NS + 1u);
    }
    for (j = 0; j < holders; j++) {
        int hit = 0;
        for (k = 0; k < holders && !hit; k++) {
            uint64_t gap = start[j] > start[k] ? start[j] - start[k] : start[k] - start[j];
            hit = k != j && gap < packet_ns;
        }
        clear += !hit;
    }
    return clear;
}

int pqpan_mesh_net_clock_lossy(const struct mesh_net_clock *c)
{
    return (c->cfg->per > 0.0 || c->cfg->relay_collisions) && (c->loss != NULL || c->lose != NULL);
}

/* Of the n receivers at the next stage, how many hear one of times events of holders
 * nodes sending a Network PDU of pdu octets (the copies that collided lost at all of them);
 * *first the earliest event one of them heard. */
static uint32_t stage_heard(struct mesh_net_clock *c, uint32_t n, uint32_t holders,
                            uint32_t times, uint32_t pdu, uint32_t *first)
{
    uint64_t packet_ns = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(pdu), 0);
    uint32_t clear[PQPAN_MESH_NET_COUNT_MAX + 1u], k, got = 0;
    for (k = 0; k < times; k++) {
        clear[k] = uncollided(c, holders, packet_ns);
    }
    *first = times;
    for (k = 0; k < n; k++) {
        uint32_t i = first_heard(c, clear, times);
        got += i < times;
        *first = i < *first ? i : *first;
    }
    return got;
}

/* pqpan_mesh_net_clock_flood from the node at from to the one at to (an endpoint, or an LPN's
 * Friend); each stage between is its relays, or, with an LPN, the one node that stands for
 * them (ledger_at). */
static uint64_t flood_to(struct mesh_net_clock *c, uint32_t from, uint32_t to, uint64_t at,
                         uint32_t pdu, enum pqpan_phase phase, uint64_t *sent)
{
    const struct pqpan_mesh_net_config *cfg = c->cfg;
    uint32_t stage = cfg->lpn == PQPAN_MESH_NET_LPN_NONE ? cfg->relays : 1u;
    uint64_t heard_ns[PQPAN_MESH_NET_COUNT_MAX + 1u];
    uint32_t pos = from, holders = 1u, first = 0u;
    uint32_t times = cfg->net_transmit_count + 1u;
    *sent = transmit(c, from, 1u, at, pdu, times, cfg->net_transmit_interval_ns, phase, heard_ns);
    for (;;) {
        uint32_t next = to > pos ? pos + 1u : pos - 1u;
        holders = stage_heard(c, next == to ? 1u : stage, holders, times, pdu, &first);
        if (holders == 0u) {
            c->out->lost_pdus++;
            return MESH_NET_LOST;
        }
        heard(c, next, pdu, holders);
        if (next == to) {
            return heard_ns[first];
        }
        pos = next;
        times = cfg->relay_retransmit_count + 1u;
        (void)transmit(c, pos, holders, heard_ns[first], pdu, times,
                       cfg->relay_retransmit_interval_ns, phase, heard_ns);
    }
}

uint64_t pqpan_mesh_net_clock_flood(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                    uint32_t pdu, enum pqpan_phase phase, uint64_t *sent)
{
    return flood_to(c, from, from == 0u ? c->cfg->hops : 0u, at, pdu, phase, sent);
}

/* One part (§3.5.3.3, §3.5.3.4): the segments, then the acknowledgment. */
uint64_t pqpan_mesh_net_clock_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                   const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                                   enum pqpan_phase phase, uint64_t *rx)
{
    uint32_t to = from == 0u ? c->cfg->hops : 0u, k;
    enum pqpan_mesh_net_role s = role_at(c, from);
    uint64_t last = at;
    uint64_t sent;
    if (c->cfg->lpn != PQPAN_MESH_NET_LPN_NONE) {
        return pqpan_mesh_net_friend_part(c, from, at, pdu, segs, ack_pdu, phase, rx);
    }
    for (k = 0; k < segs; k++) {
        uint64_t got;
        c->tag = k;
        got = pqpan_mesh_net_clock_flood(c, from, at + k * c->cfg->seg_interval_ns, pdu[k], phase,
                                         &sent);
        last = got > last ? got : last;
    }
    c->out->segments[s] += segs;
    c->out->parts[s]++;
    c->out->seg_acks[1 - s]++;
    *rx = last;
    c->tag = segs;
    return pqpan_mesh_net_clock_flood(c, to, last, ack_pdu, phase, &sent);
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
    pqpan_ledger_init(&c->relays);
    out->relay_nodes = (cfg->hops - 1u) * cfg->relays;
    out->completes = 1.0;
    pqpan_mesh_net_friend_init(c);
}

/* sum / n rounded to the nearest. */
static uint64_t mean_of(uint64_t sum, uint64_t n)
{
    return (sum + n / 2u) / n;
}

/* The relay row: the mean of every relay node's bookings (at zero loss every relay's are
 * alike, so the mean is any one's, exactly). */
static void relay_mean(struct mesh_net_clock *c)
{
    const struct pqpan_ledger *sum = &c->relays;
    struct pqpan_ledger *l = &c->out->ledger[PQPAN_MESH_NET_RELAY];
    uint64_t n = c->out->relay_nodes;
    unsigned p, st, op;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        for (st = 0; st < PQPAN_STATE_COUNT; st++) {
            l->ns[p][st] = mean_of(sum->ns[p][st], n);
        }
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        l->op_count[op] = mean_of(sum->op_count[op], n);
        l->op_cycles[op] = mean_of(sum->op_cycles[op], n);
    }
    l->pdus_tx = mean_of(sum->pdus_tx, n);
    l->pdus_rx = mean_of(sum->pdus_rx, n);
    l->bytes_tx = mean_of(sum->bytes_tx, n);
    l->bytes_rx = mean_of(sum->bytes_rx, n);
    l->events = mean_of(sum->events, n);
    c->out->adv_events[PQPAN_MESH_NET_RELAY] =
        (uint32_t)mean_of(c->out->adv_events[PQPAN_MESH_NET_RELAY], n);
    c->busy_ns[PQPAN_MESH_NET_RELAY] = mean_of(c->busy_ns[PQPAN_MESH_NET_RELAY], n);
}

/* Every node scans whenever it neither advertises nor computes, to the last event's end;
 * a stage's delay on a full segment (a relay starts at once when it is free). */
void pqpan_mesh_net_clock_finish(struct mesh_net_clock *c)
{
    struct mesh_adv_event ev;
    struct pqpan_ledger scratch;
    unsigned r;
    pqpan_mesh_net_friend_finish(c);
    if (c->cfg->lpn == PQPAN_MESH_NET_LPN_NONE && c->out->relay_nodes > 0u) {
        relay_mean(c);
    }
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
    uint64_t sent;
    return flood_to(c, from, to, at, pdu, phase, &sent);
}

uint64_t pqpan_mesh_net_clock_transmit(struct mesh_net_clock *c, uint32_t pos, uint64_t at,
                                       uint32_t pdu, uint32_t times, uint64_t spacing_ns,
                                       enum pqpan_phase phase)
{
    uint64_t heard_ns[PQPAN_MESH_NET_COUNT_MAX + 1u];
    (void)transmit(c, pos, 1u, at, pdu, times, spacing_ns, phase, heard_ns);
    return heard_ns[0];
}
