/* PB-ADV (Mesh Protocol v1.1 §5.2.1) and Generic Provisioning transactions (§5.3): the
 * segmentation of a Provisioning PDU and the expected cost of a provisioning run over
 * advertising events (docs/MODEL.md "Mesh provisioning"). */
#include <math.h>
#include <string.h>

#include "pqpan/defaults.h"
#include "pqpan/mesh_prov.h"
#include "pbadv_clock.h"

/* AdvA of the ADV_NONCONN_IND (Core v5.4 Vol 6 Part B §2.3.1.3). */
#define ADV_A_BYTES 6u

uint32_t pqpan_mesh_pbadv_segments(uint32_t total_len)
{
    if (total_len == 0u || total_len > PQPAN_MESH_PBADV_TRANSACTION_MAX) {
        return 0u;
    }
    if (total_len <= PQPAN_MESH_PBADV_START_DATA_MAX) {
        return 1u;
    }
    return 1u + (total_len - PQPAN_MESH_PBADV_START_DATA_MAX + PQPAN_MESH_PBADV_CONT_DATA_MAX - 1u) /
                    PQPAN_MESH_PBADV_CONT_DATA_MAX;
}

/* §5.3.1.1, §5.3.1.3: the Start carries the first 20 octets, each Continuation the next 23. */
uint32_t pqpan_mesh_pbadv_segment_data(uint32_t total_len, uint32_t seg)
{
    uint32_t segs = pqpan_mesh_pbadv_segments(total_len), before;
    if (seg >= segs) {
        return 0u;
    }
    if (seg == 0u) {
        return total_len < PQPAN_MESH_PBADV_START_DATA_MAX ? total_len
                                                           : PQPAN_MESH_PBADV_START_DATA_MAX;
    }
    before = PQPAN_MESH_PBADV_START_DATA_MAX + (seg - 1u) * PQPAN_MESH_PBADV_CONT_DATA_MAX;
    return total_len - before < PQPAN_MESH_PBADV_CONT_DATA_MAX ? total_len - before
                                                               : PQPAN_MESH_PBADV_CONT_DATA_MAX;
}

uint32_t pqpan_mesh_pbadv_segment_gp(uint32_t total_len, uint32_t seg)
{
    uint32_t data = pqpan_mesh_pbadv_segment_data(total_len, seg);
    if (data == 0u) {
        return 0u;
    }
    return data + (seg == 0u ? PQPAN_MESH_PBADV_START_HDR_BYTES : PQPAN_MESH_PBADV_CONT_HDR_BYTES);
}

/* §5.2.1, §3.3.1: the PB-ADV AD structure is the AdvData (no Flags on a non-connectable
 * event); AdvData + AdvA <= 37 for every Generic Provisioning PDU of at most 24 octets. */
uint32_t pqpan_mesh_pbadv_adv_payload(uint32_t gp_len)
{
    return ADV_A_BYTES + PQPAN_MESH_PBADV_AD_HDR_BYTES + PQPAN_MESH_PBADV_LINK_ID_BYTES +
           PQPAN_MESH_PBADV_TXN_BYTES + gp_len;
}

void pqpan_mesh_pbadv_config_default(struct pqpan_mesh_pbadv_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    pqpan_mesh_prov_keys_default(&cfg->keys);
    cfg->phy = PQPAN_BLE_PHY_1M;
    cfg->adv_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_PBADV_INTERVAL_MS);
    cfg->pdu_transmissions = pqpan_default_u32(PQPAN_DEFAULT_PBADV_PDU_TRANSMISSIONS);
    cfg->ack_transmissions = pqpan_default_u32(PQPAN_DEFAULT_PBADV_ACK_TRANSMISSIONS);
    cfg->close_transmissions = pqpan_default_u32(PQPAN_DEFAULT_PBADV_CLOSE_TRANSMISSIONS);
    cfg->per = 0.0;
    cfg->retrans_ns = PQPAN_MESH_PBADV_RETRANS_NS;
    cfg->txn_timeout_ns = PQPAN_MESH_PBADV_TXN_TIMEOUT_NS;
    cfg->scan_window_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_SCAN_WINDOW_MS);
    cfg->scan_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_SCAN_INTERVAL_MS);
}

/* times transmissions of one PDU; the peer has it from the first (zero loss). */
static uint64_t send_repeated(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                              uint64_t at, uint32_t gp, uint32_t times, enum pqpan_phase phase)
{
    uint64_t start;
    uint64_t first = pqpan_mesh_pbadv_clock_event(r, s, at, gp, phase, &start);
    uint32_t i;
    for (i = 1; i < times; i++) {
        (void)pqpan_mesh_pbadv_clock_event(r, s, at, gp, phase, &start);
    }
    return first;
}

/* ---- loss: the expected retransmission rounds (MshPRT v1.1 §5.3.2) ------------------- */

/* What loss adds to one transaction, in expectation. */
struct txn_loss {
    double seg_events;  /* the sender's events after the first round */
    double ack_events;  /* the receiver's Acks sent again (events) */
    double rx_shift_ns; /* the PDU's delivery later than without loss */
    double ack_shift_ns; /* the sender's Ack later still (lost Acks) */
};

/* 1 - (1 - x)^n, exact for small x. */
static double any_of(double x, double n)
{
    return -expm1(n * log1p(-x));
}

/* Probability that an event's PDU is lost at its receiver: not in a scan window, or its
 * packet damaged. */
static double event_loss(const struct pqpan_mesh_pbadv_config *c)
{
    return 1.0 - pqpan_mesh_pbadv_scan_duty(c) * (1.0 - c->per);
}

double pqpan_mesh_pbadv_scan_duty(const struct pqpan_mesh_pbadv_config *c)
{
    return (double)c->scan_window_ns / (double)c->scan_interval_ns;
}

/* A transaction of n segments, each sent k times a round, whose rounds start psi_ns apart
 * (the round, the last event, the timer), events t_ns apart; the receiver's Ack sent m
 * times. Each segment is missed in a round with u = loss^k; the transaction is incomplete
 * after r rounds with q_r = 1 - (1 - u^r)^n. Round r >= 2 happens with q_(r-1); it is full
 * unless it completes the transaction, when it stops at the last segment still missing:
 * with M missing (E[M | M >= 1] = n u^(r-1) / q_(r-1)), the last at (n + 1) M / (M + 1) on
 * average. The Ack is lost with loss^m: the sender's timer then fires and the first copy
 * the receiver hears (after 1 / (1 - loss) events) is acknowledged again. Rounds are
 * counted while the transaction timeout allows one. */
static void txn_loss_of(struct txn_loss *x, const struct pqpan_mesh_pbadv_config *c, double n,
                        double t_ns, double last_ns)
{
    double loss = event_loss(c), k = (double)c->pdu_transmissions;
    double u = pow(loss, k), psi = (n * k - 1.0) * t_ns + last_ns + (double)c->retrans_ns;
    double ack_lost = pow(loss, (double)c->ack_transmissions), heard, retries;
    double rounds_max = floor((double)c->txn_timeout_ns / psi) + 1.0, r;
    memset(x, 0, sizeof *x);
    if (loss <= 0.0) {
        return;
    }
    for (r = 2.0; r <= rounds_max; r += 1.0) {
        double q_prev = any_of(pow(u, r - 1.0), n), q = any_of(pow(u, r), n);
        double missing = n * pow(u, r - 1.0) / (q_prev > 0.0 ? q_prev : 1.0);
        double stop = k * (n + 1.0) * missing / (missing + 1.0);
        if (q_prev < 1e-12) {
            break;
        }
        x->seg_events += q * n * k + (q_prev - q) * stop;
        x->rx_shift_ns += q_prev * psi + (q_prev - q) * (stop - n * k) * t_ns;
    }
    heard = 1.0 - loss;
    retries = fmin(ack_lost / ((1.0 - ack_lost) * any_of(1.0 - u, n)), rounds_max);
    x->seg_events += retries * fmin(n * k, 1.0 / heard);
    x->ack_events = retries * (double)c->ack_transmissions;
    x->ack_shift_ns = retries * (last_ns + (double)c->retrans_ns + (loss / heard) * t_ns);
}

/* The loss terms booked: the sender's extra segment events (of the transaction's mean
 * segment), the receiver's extra Acks. */
static void book_loss(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint32_t len,
                      const struct txn_loss *x, enum pqpan_phase phase)
{
    uint32_t segs = pqpan_mesh_pbadv_segments(len);
    uint32_t gp = (len + PQPAN_MESH_PBADV_START_HDR_BYTES +
                   (segs - 1u) * PQPAN_MESH_PBADV_CONT_HDR_BYTES + segs / 2u) / segs;
    if (x->seg_events > 0.0) {
        pqpan_mesh_pbadv_clock_expected(r, s, x->seg_events, gp, phase);
        r->out->resent_segments[s] += x->seg_events / (double)r->cfg->pdu_transmissions;
    }
    if (x->ack_events > 0.0) {
        pqpan_mesh_pbadv_clock_expected(r, (enum pqpan_mesh_prov_role)(1 - s), x->ack_events,
                                        PQPAN_MESH_PBADV_ACK_BYTES, phase);
    }
}

/* One Generic Provisioning transaction (§5.3.2) of a Provisioning PDU of len octets from
 * s, its segments from at, the peer's Transaction Ack after the last; under loss the
 * expected retransmission rounds and Acks again (txn_loss_of). *rx = when the peer has the
 * PDU; returns when the sender has the Ack. */
static uint64_t transaction(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint64_t at,
                            uint32_t len, enum pqpan_phase phase, uint64_t *rx)
{
    enum pqpan_mesh_prov_role peer = (enum pqpan_mesh_prov_role)(1 - s);
    uint32_t segs = pqpan_mesh_pbadv_segments(len), i;
    uint64_t last = at, acked;
    struct txn_loss x;
    for (i = 0; i < segs; i++) {
        last = send_repeated(r, s, at, pqpan_mesh_pbadv_segment_gp(len, i),
                             r->cfg->pdu_transmissions, phase);
    }
    txn_loss_of(&x, r->cfg, (double)segs, (double)r->t_adv_mean,
                (double)pqpan_mesh_pbadv_clock_event_ns(r, s, pqpan_mesh_pbadv_segment_gp(len, segs - 1u)));
    book_loss(r, s, len, &x, phase);
    r->out->segments[s] += segs;
    r->out->transactions++;
    *rx = last + (uint64_t)llround(x.rx_shift_ns);
    acked = send_repeated(r, peer, *rx, PQPAN_MESH_PBADV_ACK_BYTES, r->cfg->ack_transmissions,
                          phase);
    return acked + (uint64_t)llround(x.ack_shift_ns);
}

/* Link establishment (§5.3.1.4, §5.3.2): the provisioner's Link Open, the device's Link Ack
 * (bearer control PDUs, not acknowledged by a Transaction Ack); under loss the Link Open is
 * resent on the timer as a one-segment transaction. Returns when the provisioner has the
 * Link Ack. */
static uint64_t open_link(struct mesh_pbadv_clock *r)
{
    struct txn_loss x;
    uint64_t rx = send_repeated(r, PQPAN_MESH_PROVISIONER, 0u, PQPAN_MESH_PBADV_LINK_OPEN_BYTES,
                                r->cfg->pdu_transmissions, PQPAN_PHASE_CONNECT);
    txn_loss_of(&x, r->cfg, 1.0, (double)r->t_adv_mean,
                (double)pqpan_mesh_pbadv_clock_event_ns(r, PQPAN_MESH_PROVISIONER,
                                                        PQPAN_MESH_PBADV_LINK_OPEN_BYTES));
    if (x.seg_events > 0.0) {
        pqpan_mesh_pbadv_clock_expected(r, PQPAN_MESH_PROVISIONER, x.seg_events,
                                        PQPAN_MESH_PBADV_LINK_OPEN_BYTES, PQPAN_PHASE_CONNECT);
        pqpan_mesh_pbadv_clock_expected(r, PQPAN_MESH_DEVICE, x.ack_events,
                                        PQPAN_MESH_PBADV_LINK_ACK_BYTES, PQPAN_PHASE_CONNECT);
    }
    rx += (uint64_t)llround(x.rx_shift_ns);
    return send_repeated(r, PQPAN_MESH_DEVICE, rx, PQPAN_MESH_PBADV_LINK_ACK_BYTES,
                         r->cfg->ack_transmissions, PQPAN_PHASE_CONNECT) +
           (uint64_t)llround(x.ack_shift_ns);
}

int pqpan_mesh_pbadv_estimate(struct pqpan_mesh_pbadv_estimate *out,
                              const struct pqpan_mesh_pbadv_config *cfg,
                              const struct pqpan_ble_device dev[2],
                              const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    struct pqpan_mesh_prov_step steps[PQPAN_MESH_PROV_STEPS_MAX];
    struct mesh_pbadv_clock r;
    uint32_t n, i;
    uint64_t rx = 0, acked, t;
    enum pqpan_mesh_prov_role prev;
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    /* every packet lost: no transaction ever completes, there is no expected run */
    if (cfg == NULL || dev == NULL || cycles == NULL || !pqpan_mesh_pbadv_config_ok(cfg) ||
        event_loss(cfg) >= 1.0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_mesh_prov_plan(steps, &n, cfg->keys.variant, cfg->keys.kem, cfg->keys.alg,
                              PQPAN_MESH_PBADV_TRANSACTION_MAX);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_mesh_pbadv_clock_init(&r, out, cfg, dev);
    acked = open_link(&r);
    prev = PQPAN_MESH_PROVISIONER;
    /* A side sends its next PDU when it has the peer's last PDU, or, sending twice in a row,
     * when its last transaction is acknowledged (one transaction at a time, §5.3.2). */
    for (i = 0; i < n; i++) {
        enum pqpan_mesh_prov_role s = steps[i].sender;
        t = s == prev ? acked : rx;
        t = pqpan_mesh_pbadv_clock_compute(&r, s, t, steps[i].ops_before, cycles[s]);
        acked = transaction(&r, s, t, steps[i].length, steps[i].phase, &rx);
        prev = s;
    }
    out->latency_ns = rx;
    (void)send_repeated(&r, PQPAN_MESH_PROVISIONER, acked, PQPAN_MESH_PBADV_LINK_CLOSE_BYTES,
                        cfg->close_transmissions, PQPAN_PHASE_CONFIRM);
    pqpan_mesh_pbadv_clock_finish(&r);
    return PQPAN_OK;
}
