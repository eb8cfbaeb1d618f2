/* The estimate under loss (net_sar.h, pqpan_mesh_net_sar_expected): what loss adds to one
 * segmented message in expectation, on top of its zero-loss timeline: the flooding chain
 * (how many relays of each stage hold a Network PDU, whether the destination has it, how
 * many events late each stage starts), then the SAR rounds geometric in the segments'
 * loss, as PB-ADV's estimate counts its transactions' rounds (pbadv.c txn_loss_of).
 * docs/MODEL.md "Loss on the mesh network". */
#include <math.h>
#include <string.h>

#include "net_sar.h"
#include "pbadv_clock.h"

/* Core v5.4 Vol 6 Part B §4.4.2.2.1: advDelay uniform in 0..10 ms, mean 5 ms. */
#define ADV_DELAY_MEAN_NS (PQPAN_BLE_ADV_DELAY_MAX_NS / 2u)

/* What one part may add in expectation: an exchange has fewer than 2^10 parts (3 messages
 * of at most PQPAN_MESH_NET_PARTS_MAX), so 2^10 parts' events fit the estimate's 32-bit
 * counters (adv_events, segments) and 2^10 parts' time its 64-bit ns; 2^53 ns (104 days)
 * is also where a double stops holding ns exactly. */
#define EXPECT_PART_EVENTS_MAX 4194304.0      /* 2^22 */
#define EXPECT_PART_NS_MAX 9007199254740992.0 /* 2^53 */

/* One Network PDU's flooding in expectation. */
struct flood_expect {
    double delivered;    /* P(the destination has it) */
    double relay_events; /* advertising events of all relay nodes */
    double relay_rx;     /* relay nodes that hear it */
    double late_one_ns;  /* how much later than at zero loss the destination has it */
    double late_last_ns; /* the same for the last of n segments queued back to back: a relay
                            that started late stays late, so each relay stage adds the
                            latest of the n segments' starts */
};

/* The chance all n receivers miss one event of h holders: each copy lost with per at each
 * receiver, and, with collisions (pair: the chance two holders' copies overlap), lost at
 * all of them when it overlaps another; the copies clear of the others m ~ Bin(h, (1 -
 * pair)^(h - 1)) taken as independent: E[(per^n)^m]. */
static double event_miss(double per, double pair, uint32_t h, uint32_t n)
{
    double x = pow(per, (double)n), clear;
    if (h < 2u || pair <= 0.0) {
        return pow(x, (double)h);
    }
    clear = pow(1.0 - pair, (double)(h - 1u));
    return pow(1.0 - clear + clear * x, (double)h);
}

/* The holders' distribution of the next stage: n receivers, each hearing one of times
 * events of h holders with 1 - per^(h times) (a binomial over n). */
static void next_stage(double *next, const double *cur, uint32_t n_cur, uint32_t n, double per,
                       double pair, uint32_t times)
{
    uint32_t h, k;
    memset(next, 0, (PQPAN_MESH_NET_RELAYS_MAX + 1u) * sizeof *next);
    next[0] = cur[0];
    for (h = 1; h <= n_cur; h++) {
        double miss = pow(event_miss(per, pair, h, 1u), (double)times), pk = pow(miss, (double)n);
        if (cur[h] <= 0.0) {
            continue;
        }
        for (k = 0; k <= n; k++) {
            next[k] += cur[h] * pk;
            if (k < n) {
                pk = miss > 0.0 ? pk * (double)(n - k) / (double)(k + 1u) * (1.0 - miss) / miss
                                : (k + 1u == n ? 1.0 : 0.0);
            }
        }
    }
}

/* P(the stage starts m or more events late | someone heard), with the holders cur: the
 * first event any of the n receivers hears is m or later when every copy of events 0 ..
 * m - 1 was lost at all of them. */
static double late_at_least(const double *cur, uint32_t n_cur, uint32_t n, double per,
                            double pair, uint32_t times, uint32_t m)
{
    double sum = 0.0, held = 0.0;
    uint32_t h;
    for (h = 1; h <= n_cur; h++) {
        double q = event_miss(per, pair, h, n), all = pow(q, (double)times);
        if (cur[h] > 0.0 && all < 1.0) {
            sum += cur[h] * (pow(q, (double)m) - all) / (1.0 - all);
            held += cur[h];
        }
    }
    return held > 0.0 ? sum / held : 0.0;
}

/* The stage's expected lateness in events for one PDU and for the latest of n. */
static void stage_late(double *one, double *last, const double *cur, uint32_t n_cur, uint32_t n,
                       double per, double pair, uint32_t times, uint32_t segs)
{
    uint32_t m;
    *one = 0.0;
    *last = 0.0;
    for (m = 1; m < times; m++) {
        double p = late_at_least(cur, n_cur, n, per, pair, times, m);
        *one += p;
        *last += 1.0 - pow(1.0 - p, (double)segs);
    }
}

/* The chance two relays' copies of an event overlap (cfg->relay_collisions): advDelay
 * uniform in 0 .. D = 10 ms each, a packet of tau: P(|d1 - d2| < tau) = 2 tau / D - (tau /
 * D)^2. */
static double pair_overlap(const struct pqpan_mesh_net_config *cfg, uint32_t pdu)
{
    double tau = (double)pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(pdu), 0);
    double d = (double)PQPAN_BLE_ADV_DELAY_MAX_NS;
    return cfg->relay_collisions ? 2.0 * tau / d - (tau / d) * (tau / d) : 0.0;
}

static void flood_expect_of(struct flood_expect *f, const struct pqpan_mesh_net_config *cfg,
                            uint32_t segs, uint32_t pdu)
{
    double pair = pair_overlap(cfg, pdu);
    double cur[PQPAN_MESH_NET_RELAYS_MAX + 1u], next[PQPAN_MESH_NET_RELAYS_MAX + 1u];
    uint32_t k, h, n_cur = 1u, times = cfg->net_transmit_count + 1u;
    uint64_t slot = cfg->net_transmit_interval_ns + ADV_DELAY_MEAN_NS;
    memset(f, 0, sizeof *f);
    memset(cur, 0, sizeof cur);
    cur[1] = 1.0;
    for (k = 1; k <= cfg->hops; k++) {
        uint32_t n = k == cfg->hops ? 1u : cfg->relays;
        double one, last;
        stage_late(&one, &last, cur, n_cur, n, cfg->per, pair, times, segs);
        f->late_one_ns += one * (double)slot;
        f->late_last_ns += (k == cfg->hops ? one : last) * (double)slot;
        next_stage(next, cur, n_cur, n, cfg->per, pair, times);
        memcpy(cur, next, sizeof cur);
        n_cur = n;
        times = cfg->relay_retransmit_count + 1u;
        slot = cfg->relay_retransmit_interval_ns + ADV_DELAY_MEAN_NS;
        for (h = 1; h <= n && k < cfg->hops; h++) {
            f->relay_rx += cur[h] * h;
            f->relay_events += cur[h] * h * times;
        }
    }
    f->delivered = 1.0 - cur[0];
}

/* What the SAR rounds add to one message of n segments, in expectation. */
struct sar_expect {
    double rx_ns, acked_ns; /* later than without the rounds */
    double segments, acks;  /* sent again / more */
    double fails;           /* P(a segment still missing after the last round allowed) */
};

/* The chance a message of n segments is given up: a segment still missing after the rounds
 * allowed, or complete in round r but the acknowledgment of it and of each copy in the
 * rounds left all lost (each with u, as a segment). */
static double fails_of(double n, double u, double rounds)
{
    double fails = 1.0 - pow(1.0 - pow(u, rounds), n), before = 1.0, r;
    for (r = 1.0; r <= rounds; r += 1.0) {
        double after = 1.0 - pow(1.0 - pow(u, r), n);
        fails += (before - after) * pow(u, 1.0 + rounds - r);
        before = after;
    }
    return fails;
}

/* Round r + 1 happens when the message is incomplete after r (q_r = 1 - (1 - u^r)^n,
 * u = 1 - p the segment's loss); the receiver then acknowledges what it has an
 * acknowledgment delay after its last new segment and the sender resends the E[missing]
 * at once, or, the acknowledgment lost, its retransmissions timer (from its round's end)
 * resends all n. The completion's acknowledgment is lost (1 - p) / p times on average:
 * each costs the timer, the unacknowledged segments again and a new acknowledgment. */
static void sar_expect_of(struct sar_expect *x, const struct pqpan_mesh_net_config *cfg,
                          double n, double p, double ack_trip_ns, double tail_ns,
                          double seg_slot_ns)
{
    double u = 1.0 - p, timer = (double)pqpan_mesh_net_sar_retrans_ns(cfg);
    double delay = (double)pqpan_mesh_net_sar_ack_delay_ns(cfg, (uint32_t)n - 1u);
    double rounds = (double)cfg->sar_retrans_count + 1.0, r, lost_acks, unacked;
    memset(x, 0, sizeof *x);
    for (r = 1.0; r < rounds; r += 1.0) {
        double q = 1.0 - pow(1.0 - pow(u, r), n), missing, resend;
        if (q < 1e-12) {
            break;
        }
        missing = n * pow(u, r) / q;
        resend = p * missing + u * n;
        x->rx_ns += q * (p * (delay + ack_trip_ns) + u * (tail_ns + timer) +
                         (resend - 1.0) * seg_slot_ns);
        x->segments += q * resend;
        x->acks += q;
    }
    x->fails = fails_of(n, u, rounds);
    lost_acks = u / p;
    /* complete in round 1: all n unacknowledged; else the last round's, n u on average */
    unacked = n * pow(p, n) + n * u;
    x->acks += lost_acks;
    x->segments += lost_acks * unacked;
    x->acked_ns = x->rx_ns + lost_acks * (tail_ns + timer + ack_trip_ns);
}

/* Whether x Network PDUs flooded as f (Network Transmit from the source, the relays') fit
 * what a part may add. */
static int events_fit(const struct pqpan_mesh_net_config *cfg, double x,
                      const struct flood_expect *f)
{
    double events = x * ((double)(cfg->net_transmit_count + 1u) + f->relay_events);
    return isfinite(events) && events <= EXPECT_PART_EVENTS_MAX;
}

/* Books x Network PDUs of pdu octets flooded from the endpoint at from: its events, the
 * relays', the receptions. */
static void book_floods(struct mesh_net_clock *c, uint32_t from, double x, uint32_t pdu,
                        const struct flood_expect *f, enum pqpan_phase phase)
{
    enum pqpan_mesh_net_role s = from == 0u ? PQPAN_MESH_NET_INITIATOR : PQPAN_MESH_NET_RESPONDER;
    enum pqpan_mesh_net_role d = s == PQPAN_MESH_NET_INITIATOR ? PQPAN_MESH_NET_RESPONDER
                                                               : PQPAN_MESH_NET_INITIATOR;
    uint32_t payload = pqpan_mesh_net_adv_payload(pdu);
    double events = x * (double)(c->cfg->net_transmit_count + 1u);
    uint64_t octets = pqpan_ble_packet_octets(PQPAN_BLE_PHY_1M, payload, 0);
    uint64_t len = pqpan_mesh_adv_events_expected(&c->out->ledger[s], c->dev, PQPAN_BLE_PHY_1M,
                                                   payload, events, phase);
    c->busy_ns[s] += (uint64_t)llround(events * (double)len);
    c->out->adv_events[s] += (uint32_t)llround(events);
    if (f->relay_events > 0.0) {
        (void)pqpan_mesh_adv_events_expected(&c->relays, c->dev, PQPAN_BLE_PHY_1M, payload,
                                             x * f->relay_events, phase);
        c->busy_ns[PQPAN_MESH_NET_RELAY] += (uint64_t)llround(x * f->relay_events * (double)len);
        c->out->adv_events[PQPAN_MESH_NET_RELAY] += (uint32_t)llround(x * f->relay_events);
        c->relays.pdus_rx += (uint64_t)llround(x * f->relay_rx);
        c->relays.bytes_rx += (uint64_t)llround(x * f->relay_rx * (double)octets);
    }
    c->out->ledger[d].pdus_rx += (uint64_t)llround(x * f->delivered);
    c->out->ledger[d].bytes_rx += (uint64_t)llround(x * f->delivered * (double)octets);
}

void pqpan_mesh_net_sar_expected(struct mesh_net_clock *c, uint32_t from, const uint32_t *pdu,
                                 uint32_t segs, uint32_t ack_pdu, enum pqpan_phase phase,
                                 uint64_t *rx, uint64_t *acked)
{
    const struct pqpan_mesh_net_config *cfg = c->cfg;
    double slot = (double)(cfg->net_transmit_interval_ns + ADV_DELAY_MEAN_NS);
    double times = (double)(cfg->net_transmit_count + 1u), late_rx, late_ack;
    double seg_slot = fmax((double)cfg->seg_interval_ns, times * slot);
    struct flood_expect data, ack;
    struct sar_expect x;
    uint32_t k;
    if (cfg->per <= 0.0 && !cfg->relay_collisions) {
        return;
    }
    flood_expect_of(&data, cfg, segs, pdu[0]);
    flood_expect_of(&ack, cfg, 1u, ack_pdu);
    sar_expect_of(&x, cfg, (double)segs, data.delivered, (double)(*acked - *rx),
                  (times - 1.0) * slot, seg_slot);
    late_rx = data.late_last_ns + x.rx_ns;
    late_ack = late_rx + ack.late_one_ns + (x.acked_ns - x.rx_ns);
    if (!events_fit(cfg, x.segments, &data) || !events_fit(cfg, x.acks, &ack) ||
        !(late_ack <= EXPECT_PART_NS_MAX)) {
        c->beyond = 1;
        return;
    }
    book_floods(c, from, x.segments, pdu[0], &data, phase);
    book_floods(c, from == 0u ? cfg->hops : 0u, x.acks, ack_pdu, &ack, phase);
    c->out->segments[from != 0u] += (uint32_t)llround(x.segments);
    c->out->resent_segments[from != 0u] += x.segments;
    c->out->completes *= 1.0 - x.fails;
    c->out->seg_acks[from == 0u] += (uint32_t)llround(x.acks);
    *rx += (uint64_t)llround(late_rx);
    *acked += (uint64_t)llround(late_ack);
    c->end_ns += (uint64_t)llround(late_ack);
    /* the segments sent again keep every node's advertiser busy that much later: the next
     * part queues behind them as behind the first round */
    for (k = 0; k <= cfg->hops; k++) {
        c->free_ns[k] += (uint64_t)llround(late_rx);
    }
}
