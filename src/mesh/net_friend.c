/* A Low Power Node polling its Friend (--lpn; net_clock.h, docs/MODEL.md "A Low Power Node
 * polling its Friend"). MshPRT §3.6.6 (Friend feature) with the timing of Zephyr's
 * subsys/bluetooth/mesh/lpn.c and friend.c, where the specification leaves a choice:
 * - the Friend keeps every Network PDU for its LPN in its Friend Queue; a segmented message
 *   enters the queue when the Friend has all its segments (friend.c enqueue_friend_pdu) and
 *   the Friend acknowledges it on the LPN's behalf (Segment Acknowledgment, OBO 1); the LPN
 *   sends no Segment Acknowledgment (MshPRT v1.1 §3.5.3; Zephyr gates send_ack on
 *   !bt_mesh_lpn_established());
 * - the LPN sends a Friend Poll (twice, 20 ms apart: lpn.c POLL_XMIT), starts scanning
 *   ReceiveDelay - 2 ms after the Poll starts (lpn.c req_sent, the start callback, and
 *   SCAN_LATENCY) and scans until the Friend's PDU; the Friend answers ReceiveDelay +
 *   ReceiveWindow / 5 after it has the Poll (friend.c recv_delay(), ReceiveWindow > 50 ms),
 *   once (FRIEND_XMIT), with the head of its queue or, the queue empty, a Friend Update
 *   whose MD says whether a PDU arrived meanwhile (friend.c update_overwrite);
 * - after a queued PDU or MD 1 the LPN polls again at once (lpn.c bt_mesh_lpn_msg_received,
 *   bt_mesh_lpn_friend_update), after MD 0 it sleeps its poll period. */
#include <string.h>

#include "net_clock.h"
#include "pbadv_clock.h"

/* Zephyr lpn.c POLL_XMIT = BT_MESH_TRANSMIT(1, 20): two transmissions, 20 ms apart. */
#define POLL_TIMES 2u
#define POLL_SPACING_NS 20000000u
/* Zephyr Kconfig BT_MESH_LPN_SCAN_LATENCY default 2: the LPN asks for scanning 2 ms before
 * its receive window (lpn.c: the timer fires ReceiveDelay - SCAN_LATENCY after the Poll). */
#define SCAN_LATENCY_NS 2000000u
/* Zephyr friend.c recv_delay(): ReceiveWindow / 5 later into the window when it exceeds 50 ms. */
#define LATE_START_MIN_NS 50000000u
#define LATE_START_DIV 5u
#define NOT_QUEUED UINT64_MAX

static int has_lpn(const struct mesh_net_clock *c)
{
    return c->cfg->lpn != PQPAN_MESH_NET_LPN_NONE;
}

static enum pqpan_mesh_net_role lpn_role(const struct mesh_net_clock *c)
{
    return c->cfg->lpn == PQPAN_MESH_NET_LPN_INITIATOR ? PQPAN_MESH_NET_INITIATOR
                                                       : PQPAN_MESH_NET_RESPONDER;
}

static int friend_is_relay(const struct mesh_net_clock *c)
{
    return has_lpn(c) && c->cfg->hops > 1u;
}

static enum pqpan_mesh_net_role friend_role(const struct mesh_net_clock *c)
{
    if (friend_is_relay(c)) {
        return PQPAN_MESH_NET_FRIEND;
    }
    return lpn_role(c) == PQPAN_MESH_NET_INITIATOR ? PQPAN_MESH_NET_RESPONDER
                                                   : PQPAN_MESH_NET_INITIATOR;
}

void pqpan_mesh_net_friend_init(struct mesh_net_clock *c)
{
    const uint32_t hops = c->cfg->hops;
    memset(&c->friend, 0, sizeof c->friend);
    c->friend.relay_pos = 1u;
    if (!has_lpn(c)) {
        return;
    }
    c->friend.lpn_pos = lpn_role(c) == PQPAN_MESH_NET_INITIATOR ? 0u : hops;
    c->friend.friend_pos = c->friend.lpn_pos == 0u ? 1u : hops - 1u;
    /* Over more than two hops the Friend keeps its own ledger and the relay ledger is a
     * stage other than the Friend's; over two, the Friend's stage is the only one: its other
     * relays are priced as the Friend's relaying (pqpan_mesh_net_friend_finish). */
    c->friend.friend_own = hops > 2u;
    c->friend.relay_pos = c->friend.friend_own && c->friend.friend_pos == 1u ? 2u : 1u;
    c->friend.poll_at = 0u; /* the LPN's poll schedule starts with the initiator's KeyGen */
}

static uint64_t response_delay(const struct mesh_net_clock *c)
{
    uint64_t late = c->cfg->friend_recv_win_ns > LATE_START_MIN_NS
                        ? c->cfg->friend_recv_win_ns / LATE_START_DIV
                        : 0u;
    return c->cfg->lpn_recv_delay_ns + late;
}

/* The Friend's own answer (one transmission) carrying pdu octets from at; returns when the
 * LPN has it. Its answers are timed by its ReceiveDelay timer, not behind its relaying. */
static uint64_t friend_event(struct mesh_net_clock *c, uint64_t at, uint32_t pdu)
{
    enum pqpan_mesh_net_role r = friend_role(c);
    struct mesh_adv_event ev;
    pqpan_mesh_adv_event_book(&ev, &c->out->ledger[r], c->dev, PQPAN_BLE_PHY_1M,
                              pqpan_mesh_net_adv_payload(pdu), PQPAN_PHASE_KEY_TRANSFER);
    c->busy_ns[r] += ev.len_ns;
    c->out->adv_events[r]++;
    if (c->on_event != NULL) {
        c->on_event(c->event_ctx, c->friend.friend_pos, 0u, at);
    }
    if (at + ev.len_ns > c->end_ns) {
        c->end_ns = at + ev.len_ns;
    }
    return at + ev.heard_ns;
}

/* The LPN's receive window from open to heard, and the PDU of pdu octets it hears. */
static void lpn_listens(struct mesh_net_clock *c, uint64_t open, uint64_t heard, uint32_t pdu)
{
    enum pqpan_mesh_net_role r = lpn_role(c);
    struct pqpan_ledger *l = &c->out->ledger[r];
    uint64_t rx = heard > open ? heard - open : 0u;
    pqpan_ledger_add(l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_RX, rx);
    l->pdus_rx++;
    l->bytes_rx += pqpan_ble_packet_octets(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(pdu), 0);
    c->busy_ns[r] += rx;
    c->out->lpn_rx_ns += rx;
}

/* One poll cycle: the Poll, the Friend's answer (the PDU of pdu octets, the part's PDU tag,
 * if it was queued by ready_ns when the Friend has the Poll, else a Friend Update), the
 * LPN's window. Returns 1 when it delivered the PDU, *heard when the LPN has the answer. */
static int poll_cycle(struct mesh_net_clock *c, uint64_t ready_ns, uint32_t pdu, uint32_t tag,
                      uint64_t *heard, enum pqpan_phase phase)
{
    struct mesh_friend *f = &c->friend;
    uint64_t start = f->poll_at > c->free_ns[f->lpn_pos] ? f->poll_at : c->free_ns[f->lpn_pos];
    uint64_t has_poll, answer;
    uint32_t sent;
    int data, more;
    c->tag = MESH_NET_TAG_POLL;
    has_poll = pqpan_mesh_net_clock_transmit(c, f->lpn_pos, start, PQPAN_MESH_NET_FRIEND_POLL_PDU,
                                             POLL_TIMES, POLL_SPACING_NS, phase);
    answer = has_poll + response_delay(c);
    data = ready_ns <= has_poll;
    sent = data ? pdu : PQPAN_MESH_NET_FRIEND_UPDATE_PDU;
    more = data || ready_ns <= answer;
    c->out->polls++;
    c->tag = data ? tag : more ? MESH_NET_TAG_UPDATE_MD : MESH_NET_TAG_UPDATE;
    *heard = friend_event(c, answer, sent);
    lpn_listens(c, start + c->cfg->lpn_recv_delay_ns - SCAN_LATENCY_NS, *heard, sent);
    if (data) {
        c->out->friend_pdus++;
    } else {
        c->out->friend_updates++;
    }
    f->poll_pending = more;
    f->poll_at = more ? *heard : *heard + c->cfg->lpn_poll_ns;
    return data;
}

/* PDUs still in the queue at t: those delivered after t (every earlier PDU was queued by t). */
static uint32_t held_at(const struct mesh_friend *f, uint64_t t)
{
    uint32_t n = f->n_delivered < PQPAN_MESH_NET_FRIEND_QUEUE_MAX ? f->n_delivered
                                                                 : PQPAN_MESH_NET_FRIEND_QUEUE_MAX;
    uint32_t i, held = 0;
    for (i = 0; i < n; i++) {
        held += f->delivered[i] > t;
    }
    return held;
}

/* n PDUs (pdu[k] octets, the part's PDUs tag .. tag + n - 1) the Friend takes from first on
 * and queues at ready_ns, delivered one a poll cycle; returns when the LPN has the last. The
 * queue must make room for all n when the first arrives (friend.c
 * friend_queue_prepare_space discards the oldest otherwise). */
static uint64_t deliver(struct mesh_net_clock *c, uint64_t first, uint64_t ready_ns,
                        const uint32_t *pdu, uint32_t n, uint32_t tag, enum pqpan_phase phase)
{
    struct mesh_friend *f = &c->friend;
    uint32_t need = held_at(f, first) + n, k = 0;
    uint64_t heard = ready_ns;
    if (need > c->out->friend_queue_peak) {
        c->out->friend_queue_peak = need;
    }
    while (k < n) {
        if (poll_cycle(c, ready_ns, pdu[k], tag + k, &heard, phase)) {
            f->delivered[f->n_delivered % PQPAN_MESH_NET_FRIEND_QUEUE_MAX] = heard;
            f->n_delivered++;
            k++;
        }
    }
    return heard;
}

/* The cycle the LPN owes after a queued PDU or MD 1: a Friend Update, MD 0 (nothing is on
 * its way to the LPN while it answers or finishes). */
static void settle(struct mesh_net_clock *c, enum pqpan_phase phase)
{
    uint64_t heard;
    while (c->friend.poll_pending) {
        (void)poll_cycle(c, NOT_QUEUED, 0u, 0u, &heard, phase);
    }
}

/* A part to the LPN: its segments reach the Friend, which acknowledges on the LPN's behalf
 * and queues the message. At one hop the Friend is the sender: it queues every segment at
 * once and sends none (Zephyr transport.c send_seg: a segment bt_mesh_friend_enqueue_tx
 * takes for a unicast LPN goes out only through the Friend Queue), its transfer done. */
static uint64_t part_to_lpn(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                            const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                            enum pqpan_phase phase, uint64_t *rx)
{
    const uint32_t fpos = c->friend.friend_pos;
    uint64_t first = NOT_QUEUED, last = at, acked;
    uint32_t k;
    for (k = 0; k < segs; k++) {
        uint64_t due = at + k * c->cfg->seg_interval_ns, got;
        c->tag = k;
        got = fpos == from ? at : pqpan_mesh_net_clock_send(c, from, fpos, due, pdu[k], phase);
        first = got < first ? got : first;
        last = got > last ? got : last;
    }
    *rx = deliver(c, first, last, pdu, segs, 0u, phase);
    if (fpos == from) {
        return last;
    }
    c->friend.friend_tx = 1;
    c->tag = segs;
    acked = pqpan_mesh_net_clock_send(c, fpos, from, last, ack_pdu, phase);
    c->friend.friend_tx = 0;
    return acked;
}

/* A part from the LPN: its segments go out as any node's; the destination's Segment
 * Acknowledgment waits in the Friend Queue for the LPN's next poll. */
static uint64_t part_from_lpn(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                              const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                              enum pqpan_phase phase, uint64_t *rx)
{
    const uint32_t to = from == 0u ? c->cfg->hops : 0u, fpos = c->friend.friend_pos;
    uint64_t last = at, ready;
    uint32_t k;
    settle(c, phase);
    for (k = 0; k < segs; k++) {
        uint64_t got;
        c->tag = k;
        got = pqpan_mesh_net_clock_send(c, from, to, at + k * c->cfg->seg_interval_ns, pdu[k],
                                        phase);
        last = got > last ? got : last;
    }
    *rx = last;
    c->tag = segs;
    ready = fpos == to ? last : pqpan_mesh_net_clock_send(c, to, fpos, last, ack_pdu, phase);
    return deliver(c, ready, ready, &ack_pdu, 1u, segs, phase);
}

uint64_t pqpan_mesh_net_friend_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                    const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                                    enum pqpan_phase phase, uint64_t *rx)
{
    enum pqpan_mesh_net_role s = from == 0u ? PQPAN_MESH_NET_INITIATOR : PQPAN_MESH_NET_RESPONDER;
    c->out->segments[s] += segs;
    c->out->parts[s]++;
    if (from == c->friend.lpn_pos) {
        c->out->seg_acks[1 - s]++;
        return part_from_lpn(c, from, at, pdu, segs, ack_pdu, phase, rx);
    }
    return part_to_lpn(c, from, at, pdu, segs, ack_pdu, phase, rx);
}

/* Over two hops the Friend's relaying was booked on the relay ledger (the stage's): its
 * own ledger adds it to its Friend work. */
void pqpan_mesh_net_friend_finish(struct mesh_net_clock *c)
{
    if (!has_lpn(c)) {
        return;
    }
    settle(c, PQPAN_PHASE_CONFIRM);
    if (friend_is_relay(c) && !c->friend.friend_own) {
        pqpan_ledger_accumulate(&c->out->ledger[PQPAN_MESH_NET_FRIEND],
                                &c->out->ledger[PQPAN_MESH_NET_RELAY]);
        c->busy_ns[PQPAN_MESH_NET_FRIEND] += c->busy_ns[PQPAN_MESH_NET_RELAY];
        c->out->adv_events[PQPAN_MESH_NET_FRIEND] += c->out->adv_events[PQPAN_MESH_NET_RELAY];
    }
}

void pqpan_mesh_net_friend_idle(struct mesh_net_clock *c, enum pqpan_mesh_net_role r)
{
    struct pqpan_ledger *l = &c->out->ledger[r];
    if ((r == PQPAN_MESH_NET_RELAY && c->out->relay_nodes == 0u) ||
        (r == PQPAN_MESH_NET_FRIEND && !friend_is_relay(c))) {
        return;
    }
    if (has_lpn(c) && r == lpn_role(c)) {
        pqpan_ledger_add(l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_SLEEP,
                         c->end_ns > c->busy_ns[r] ? c->end_ns - c->busy_ns[r] : 0u);
        return;
    }
    pqpan_mesh_adv_scan_book(l, c->end_ns, c->busy_ns[r]);
}
