/* Segmentation and reassembly under loss (net_sar.h): the SAR transmitter and receiver of
 * MshPRT v1.1 §3.5.3.3 / §3.5.3.4 with the states of §4.2.48 / §4.2.49, timed on the mesh
 * network's clock. */
#include <string.h>

#include "net_sar.h"

uint64_t pqpan_mesh_net_sar_retrans_ns(const struct pqpan_mesh_net_config *cfg)
{
    uint64_t hops_above_one = cfg->ttl > 0u ? cfg->ttl - 1u : 0u;
    return cfg->sar_retrans_step_ns + hops_above_one * cfg->sar_retrans_inc_ns;
}

/* In half segments: min(2 SegN + 1, 2 increment + 3) × interval / 2 (Zephyr
 * BT_MESH_SAR_RX_ACK_DELAY_INC_X2). */
uint64_t pqpan_mesh_net_sar_ack_delay_ns(const struct pqpan_mesh_net_config *cfg, uint32_t seg_n)
{
    uint64_t segs_x2 = 2u * (uint64_t)seg_n + 1u, inc_x2 = 2u * (uint64_t)cfg->sar_ack_delay_inc + 3u;
    return (segs_x2 < inc_x2 ? segs_x2 : inc_x2) * cfg->sar_rx_seg_interval_ns / 2u;
}

/* One segmented message in flight: the sender's view, the receiver's. */
struct sar {
    struct mesh_net_clock *c;
    const uint32_t *pdu;
    uint32_t segs, ack_pdu, from, full;
    enum pqpan_phase phase;
    uint32_t acked;    /* the sender: segments acknowledged */
    uint32_t have;     /* the receiver: segments received (its BlockAck) */
    uint64_t last_new; /* the receiver: when the last new segment came */
    uint64_t done;     /* the receiver: when it had them all */
    uint64_t dup;      /* the receiver, complete: the round's first copy, or MESH_NET_LOST */
    int complete, fresh, discarded;
};

static uint32_t bit(uint32_t k)
{
    return (uint32_t)1u << k;
}

/* The receiver takes segment k arriving at arr (MESH_NET_LOST: it did not). */
static void receive(struct sar *st, uint32_t k, uint64_t arr)
{
    if (arr == MESH_NET_LOST) {
        return;
    }
    if ((st->have & bit(k)) != 0u) {
        if (st->complete && arr < st->dup) {
            st->dup = arr;
        }
        return;
    }
    /* §3.5.3.4: the discard timer restarts with each new segment; past it the message is
     * gone */
    if (st->have != 0u && arr > st->last_new + st->c->cfg->sar_discard_ns) {
        st->discarded = 1;
    }
    st->have |= bit(k);
    st->fresh = 1;
    st->last_new = arr > st->last_new ? arr : st->last_new;
}

/* One round from t: every segment the sender holds unacknowledged, SAR Segment Interval
 * apart; again: a retransmission round. Returns the end of the sender's last event. */
static uint64_t send_round(struct sar *st, uint64_t t, int again)
{
    struct mesh_net_clock *c = st->c;
    uint64_t end = t, sent, arr;
    uint32_t k, n = 0;
    st->fresh = 0;
    st->dup = MESH_NET_LOST;
    for (k = 0; k < st->segs; k++) {
        if ((st->acked & bit(k)) != 0u) {
            continue;
        }
        c->tag = k;
        arr = pqpan_mesh_net_clock_flood(c, st->from, t + n * c->cfg->seg_interval_ns, st->pdu[k],
                                         st->phase, &sent);
        n++;
        end = sent > end ? sent : end;
        receive(st, k, arr);
    }
    c->out->segments[st->from != 0u] += n;
    if (again) {
        c->out->resent_segments[st->from != 0u] += (double)n;
    }
    return end;
}

/* The receiver's Segment Acknowledgment after a round (§3.5.3.4): at once when the round
 * completed the message or brought a copy of a message it has; after the acknowledgment
 * delay when it brought a new segment but not all. Returns when the sender has it
 * (*block the BlockAck), or MESH_NET_LOST (not sent, or lost). */
static uint64_t answer(struct sar *st, int became_complete, uint32_t *block)
{
    struct mesh_net_clock *c = st->c;
    uint64_t at, sent;
    if (became_complete) {
        at = st->done;
    } else if (st->complete && st->dup != MESH_NET_LOST) {
        at = st->dup;
    } else if (!st->complete && st->fresh) {
        at = st->last_new + pqpan_mesh_net_sar_ack_delay_ns(c->cfg, st->segs - 1u);
    } else {
        return MESH_NET_LOST;
    }
    *block = st->have;
    c->out->seg_acks[st->from == 0u]++;
    c->tag = st->segs;
    return pqpan_mesh_net_clock_flood(c, st->from == 0u ? c->cfg->hops : 0u, at, st->ack_pdu,
                                      st->phase, &sent);
}

static int give_up(struct mesh_net_clock *c, uint64_t t, uint64_t *rx, uint64_t *acked)
{
    c->out->abandoned = 1;
    *rx = t;
    *acked = t;
    return PQPAN_ERR_TIMEOUT;
}

int pqpan_mesh_net_sar_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                            const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                            enum pqpan_phase phase, uint64_t *rx, uint64_t *acked)
{
    const struct pqpan_mesh_net_config *cfg = c->cfg;
    uint32_t left = cfg->sar_retrans_count + 1u, np_left = cfg->sar_retrans_no_progress + 1u;
    uint64_t t = at, end, got, timer;
    struct sar st;
    int again = 0;
    if (!pqpan_mesh_net_clock_lossy(c)) {
        *acked = pqpan_mesh_net_clock_part(c, from, at, pdu, segs, ack_pdu, phase, rx);
        return PQPAN_OK;
    }
    memset(&st, 0, sizeof st);
    st.c = c;
    st.pdu = pdu;
    st.segs = segs;
    st.ack_pdu = ack_pdu;
    st.from = from;
    st.full = segs >= 32u ? UINT32_MAX : bit(segs) - 1u;
    st.phase = phase;
    c->out->parts[from != 0u]++;
    for (;;) {
        uint32_t block = 0;
        int became;
        if (left == 0u || np_left == 0u) {
            return give_up(c, t, rx, acked);
        }
        left--;
        np_left--;
        end = send_round(&st, t, again);
        again = 1;
        if (st.discarded) {
            return give_up(c, end, rx, acked);
        }
        became = !st.complete && st.have == st.full;
        if (became) {
            st.complete = 1;
            st.done = st.last_new;
        }
        got = answer(&st, became, &block);
        timer = end + pqpan_mesh_net_sar_retrans_ns(cfg);
        t = timer;
        if (got != MESH_NET_LOST) {
            int progress = (block & ~st.acked) != 0u;
            st.acked |= block;
            if (st.acked == st.full) {
                *rx = st.done;
                *acked = got;
                return PQPAN_OK;
            }
            np_left = progress ? cfg->sar_retrans_no_progress + 1u : np_left;
            t = progress && got < timer ? got : timer;
        }
    }
}
