/* The procedures of a connection's life before the key exchange (docs/MODEL.md "Link
 * model", "Set-up"): connectable advertising until the CONNECT_IND, the connection's
 * first event, the LL feature and version exchange, the link switch (connection
 * parameters request, PHY update, data length update, each with its instant), the ATT
 * MTU exchange and the GATT discovery with the CCCD write. Each is booked in its own
 * ledger phase, on the schedule of conn.c, and each phase's span is filled with SLEEP so
 * that each side's ledger adds up to it. Clauses: Core v5.4. */
#include <string.h>

#include "ble/setup.h"
#include "pqpan/ble.h"
#include "pqpan/ble_pdu.h"

/* Vol 6 Part B §2.4.2: LL control PDU payloads (opcode + CtrData) are those of ble_pdu.h;
 * the instant of a procedure PQPAN_LL_INSTANT_EVENTS after it (§5.5). */
/* Vol 6 Part B §4.5.3: transmitWindowDelay between the CONNECT_IND and the first
 * anchor on LE 1M (WinOffset 0). */
#define TRANSMIT_WINDOW_DELAY_NS 1250000u

/* Air time coefficients of a PHY: empty PDU, per payload octet, empty PDU's octets. */
struct setup_air {
    uint64_t t0, per_octet, oct0;
};

/* What the procedures fill: each side's ledger, the counts (last_close_ns: the close of
 * the last event, from its anchor) and each phase's span; and the PHYs' air coefficients,
 * each taken from phy.c once. */
struct acc {
    struct pqpan_ledger *led;
    struct pqpan_ble_counts *counts;
    uint64_t *span;
    struct setup_air air[PQPAN_BLE_PHY_COUNT];
    uint8_t air_ready[PQPAN_BLE_PHY_COUNT];
    int fresh; /* the ledgers' set-up phases start empty (each procedure runs once) */
};

static void acc_init(struct acc *a, struct pqpan_ledger *led, struct pqpan_ble_counts *counts,
                     uint64_t *span, int fresh)
{
    memset(a->air_ready, 0, sizeof a->air_ready);
    a->fresh = fresh;
    a->led = led;
    a->counts = counts;
    a->span = span;
}

static const struct setup_air *air_of(struct acc *a, enum pqpan_ble_phy phy)
{
    struct setup_air *air = &a->air[phy];
    if (!a->air_ready[phy]) {
        air->t0 = pqpan_ble_packet_ns(phy, 0, 0);
        air->per_octet = pqpan_ble_packet_ns(phy, 1, 0) - air->t0;
        air->oct0 = pqpan_ble_packet_octets(phy, 0, 0);
        a->air_ready[phy] = 1;
    }
    return air;
}

struct pqpan_ble_txn *pqpan_ble_txn_add(struct pqpan_ble_txn *t, uint32_t *n,
                                        enum pqpan_ble_role sender, enum pqpan_phase ph,
                                        uint32_t len, uint32_t rsp_len, int ll_control)
{
    struct pqpan_ble_txn *x = &t[(*n)++];
    memset(x, 0, sizeof *x);
    x->sender = sender;
    x->phase = ph;
    x->count = 1u;
    x->len = len;
    x->last_len = len;
    x->rsp_len = rsp_len;
    x->ll_control = ll_control;
    return x;
}

/* A wait of ns after the last txn (the events up to an instant). */
static void wait_add(struct pqpan_ble_txn *t, uint32_t *n, enum pqpan_phase ph, uint64_t ns)
{
    struct pqpan_ble_txn *x = pqpan_ble_txn_add(t, n, PQPAN_BLE_CENTRAL, ph, 0u, 0u, 1);
    x->count = 0u;
    x->wait_ns = ns;
    x->wait_phase = ph;
}

static uint64_t idle_close_ns(enum pqpan_ble_phy phy)
{
    return 2u * pqpan_ble_packet_ns(phy, 0, 0) + PQPAN_BLE_T_IFS_NS;
}

static void link_set(struct pqpan_ble_link *l, const struct pqpan_ble_link_settings *s,
                     int same_event_reply)
{
    memset(l, 0, sizeof *l);
    l->phy = s->phy;
    l->ll_octets = PQPAN_LL_DATA_MIN_PAYLOAD; /* every set-up PDU fits 27 octets */
    l->ci_ns = s->ci_ns;
    l->same_event_reply = same_event_reply;
}

/* Books what a procedure step took in phase ph on both sides: SLEEP for the part of its
 * span (span_ns) that the step's other states (busy[side], the phase time it added) leave. */
static void fill_sleep(struct acc *a, enum pqpan_phase ph, uint64_t span_ns,
                       const uint64_t before[2])
{
    int i;
    for (i = 0; i < 2; i++) {
        uint64_t busy = pqpan_ledger_phase_ns(&a->led[i], ph) - before[i];
        pqpan_ledger_add(&a->led[i], ph, PQPAN_STATE_SLEEP, span_ns > busy ? span_ns - busy : 0u);
    }
    a->span[ph] += span_ns;
}

static void phase_before(const struct acc *a, enum pqpan_phase ph, uint64_t before[2])
{
    before[0] = a->fresh ? 0u : pqpan_ledger_phase_ns(&a->led[0], ph);
    before[1] = a->fresh ? 0u : pqpan_ledger_phase_ns(&a->led[1], ph);
}

/* ---- the schedule of the set-up's transactions ------------------------------------ *
 * Every set-up transaction is one PDU (an LL control PDU, or an ATT PDU that fits the
 * 27-octet LL payload) answered, or not, by one PDU in the next event, or a wait for an
 * instant; with replies in the next event (the default) conn.c's schedule reduces to the
 * closed forms below, which book exactly what it books (test_estimator_fingerprint holds
 * the two to the same results; with same-event replies conn.c runs). */

/* What each side sends in a run of events (the other side receives it). */
struct setup_run {
    uint64_t tx_ns[2], data[2], empty[2], octets[2];
    uint64_t pairs, events;
};

static void book_run(struct acc *a, enum pqpan_phase ph, const struct setup_run *r)
{
    uint64_t ifs = (2u * r->pairs - r->events) * PQPAN_BLE_T_IFS_NS;
    int i;
    for (i = 0; i < 2; i++) {
        struct pqpan_ledger *l = &a->led[i];
        l->ns[ph][PQPAN_STATE_TX] += r->tx_ns[i];
        l->ns[ph][PQPAN_STATE_RX] += r->tx_ns[1 - i];
        l->ns[ph][PQPAN_STATE_IFS] += ifs;
        l->pdus_tx += r->data[i] + r->empty[i];
        l->pdus_rx += r->data[1 - i] + r->empty[1 - i];
        l->bytes_tx += r->octets[i];
        l->bytes_rx += r->octets[1 - i];
        l->events += r->events;
        a->counts->data_pdus_tx[i] += r->data[i];
        a->counts->empty_pdus_tx[i] += r->empty[i];
    }
}

/* Adds `events` events of one pair of empty PDUs each (conn.c run_idle) to the run r. */
static void fast_idle(struct setup_run *r, const struct setup_air *air, uint64_t events)
{
    int i;
    for (i = 0; i < 2; i++) {
        r->tx_ns[i] += events * air->t0;
        r->empty[i] += events;
        r->octets[i] += events * air->oct0;
    }
    r->pairs += events;
    r->events += events;
}

/* Adds one single-PDU request and its single-PDU response in the next event, or no
 * response (conn.c run_txn for one message of one fragment), to the run r; returns the
 * close of its last event. */
static uint64_t fast_txn(struct acc *a, struct setup_run *r, const struct setup_air *air,
                         const struct pqpan_ble_txn *t)
{
    int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
    uint64_t hdr = t->ll_control ? 0u : PQPAN_L2CAP_HDR_BYTES;
    uint64_t q = t->len + hdr, rsp = t->rsp_len != 0u ? t->rsp_len + hdr : 0u;
    uint64_t q_ns = air->t0 + q * air->per_octet, r_ns = air->t0 + rsp * air->per_octet;
    uint64_t confirmed = t->rsp_len != 0u;
    r->data[s] += 1u;
    r->empty[s] += confirmed;
    r->tx_ns[s] += q_ns + confirmed * air->t0;
    r->octets[s] += air->oct0 + q + confirmed * air->oct0;
    r->data[1 - s] += confirmed;
    r->empty[1 - s] += 1u;
    r->tx_ns[1 - s] += air->t0 + (confirmed ? r_ns : 0u);
    r->octets[1 - s] += air->oct0 + (confirmed ? air->oct0 + rsp : 0u);
    r->pairs += 1u + confirmed;
    r->events += 1u + confirmed;
    if (t->ll_control) {
        a->counts->llctrl_pdus[s] += 1u;
        a->counts->llctrl_pdus[1 - s] += confirmed;
    } else {
        a->counts->att_pdus[s] += 1u;
        a->counts->att_pdus[1 - s] += confirmed;
    }
    /* §4.5.6: an event closes with the peripheral's packet */
    return air->t0 + PQPAN_BLE_T_IFS_NS + (confirmed ? r_ns : q_ns);
}

/* Schedules the set-up transactions t[0..n) of phase ph on link l: the closed forms
 * above, booked as one run (every term is a sum over the events), or conn.c's schedule
 * with same-event replies. Adds the elapsed time to *elapsed_ns. */
static void schedule(struct acc *a, enum pqpan_phase ph, const struct pqpan_ble_link *l,
                     const struct pqpan_ble_device *d, const struct pqpan_ble_txn *t, uint32_t n,
                     uint64_t *elapsed_ns)
{
    const struct setup_air *air;
    struct setup_run r;
    uint64_t idle = 0;
    uint32_t k;
    int i;
    if (l->same_event_reply) {
        pqpan_ble_schedule(a->led, NULL, a->counts, elapsed_ns, l, d, t, n);
        return;
    }
    air = air_of(a, l->phy);
    memset(&r, 0, sizeof r);
    for (k = 0; k < n; k++) {
        if (t[k].count == 0u) {
            uint64_t events = (t[k].wait_ns + l->ci_ns - 1u) / l->ci_ns - 1u;
            fast_idle(&r, air, events);
            idle += events;
        } else {
            a->counts->last_close_ns = fast_txn(a, &r, air, &t[k]);
        }
    }
    book_run(a, ph, &r);
    a->counts->events += r.events - idle;
    a->counts->idle_events += idle;
    *elapsed_ns += r.events * l->ci_ns;
    for (i = 0; i < 2 && d != NULL && r.events > 0u; i++) {
        pqpan_ble_event_costs(&a->led[i], ph, d, l->ci_ns, (enum pqpan_ble_role)i, r.events);
    }
}

/* One procedure step in phase ph: txns on link l. Returns its span, from the close of the
 * last event before it to the close of its own last event (an idle one when it ends with
 * a wait), as the packet simulator measures it. */
static uint64_t step(struct acc *a, enum pqpan_phase ph, const struct pqpan_ble_link *l,
                     const struct pqpan_ble_device *d, const struct pqpan_ble_txn *t, uint32_t n)
{
    uint64_t elapsed = 0, start = a->counts->last_close_ns;
    schedule(a, ph, l, d, t, n, &elapsed);
    if (t[n - 1u].count == 0u) {
        a->counts->last_close_ns = idle_close_ns(l->phy);
    }
    return elapsed + a->counts->last_close_ns - start;
}

/* A procedure of steps in phase ph, its sleep booked once at its end. */
struct procedure {
    enum pqpan_phase ph;
    uint64_t before[2];
    uint64_t span;
};

static void procedure_begin(struct procedure *p, const struct acc *a, enum pqpan_phase ph)
{
    p->ph = ph;
    p->span = 0;
    phase_before(a, ph, p->before);
}

static void procedure_end(const struct procedure *p, struct acc *a)
{
    fill_sleep(a, p->ph, p->span, p->before);
}

/* The event at a procedure's instant: the first with the new parameters (link l), one
 * old interval after the last one with the old (Vol 6 Part B §5.1.1: the transmit window
 * starts connInterval_OLD + transmitWindowOffset after that event's anchor; WinOffset 0,
 * the central sending at the window's start). The procedure has completed when the
 * instant has passed (§5.1.1, §5.1.10), so the event is idle and the next procedure
 * starts in the event after it. Returns its span. */
static uint64_t instant_event(struct acc *a, enum pqpan_phase ph, const struct pqpan_ble_link *l,
                              const struct pqpan_ble_device *d, uint64_t old_ci_ns)
{
    struct pqpan_ble_txn t[1];
    uint32_t n = 0;
    uint64_t elapsed = 0, start = a->counts->last_close_ns;
    wait_add(t, &n, ph, 2u * l->ci_ns);
    schedule(a, ph, l, d, t, n, &elapsed);
    a->counts->last_close_ns = idle_close_ns(l->phy);
    return old_ci_ns + a->counts->last_close_ns - start;
}

/* A procedure with an instant, on link `from` until it: the central's request (req
 * octets) and the peripheral's response (as many), the central's indication (ind octets)
 * with the instant 6 events ahead, 5 idle events, then the instant's event on link `to`. */
static void instant_procedure(struct acc *a, enum pqpan_phase ph, uint32_t req, uint32_t ind,
                              const struct pqpan_ble_link_settings *from,
                              const struct pqpan_ble_link_settings *to, int same_event_reply,
                              const struct pqpan_ble_device *d)
{
    struct pqpan_ble_txn t[3];
    struct pqpan_ble_link l;
    struct procedure pr;
    uint32_t n = 0;
    procedure_begin(&pr, a, ph);
    pqpan_ble_txn_add(t, &n, PQPAN_BLE_CENTRAL, ph, req, req, 1);
    pqpan_ble_txn_add(t, &n, PQPAN_BLE_CENTRAL, ph, ind, 0u, 1);
    wait_add(t, &n, ph, PQPAN_LL_INSTANT_EVENTS * from->ci_ns);
    link_set(&l, from, same_event_reply);
    pr.span = step(a, ph, &l, d, t, n);
    link_set(&l, to, same_event_reply);
    pr.span += instant_event(a, ph, &l, d, from->ci_ns);
    procedure_end(&pr, a);
}

/* Connection Parameters Request procedure initiated by the central (Vol 6 Part B
 * §5.1.7.1/2: both Link Layers support it, which the spec prefers to the Connection Update
 * procedure alone, §5.1.1): LL_CONNECTION_PARAM_REQ, LL_CONNECTION_PARAM_RSP, then
 * LL_CONNECTION_UPDATE_IND with its instant, all at the old interval. */
static void conn_update(struct acc *a, const struct pqpan_ble_link_settings *from, uint64_t ci_ns,
                        int same_event_reply, const struct pqpan_ble_device *d)
{
    struct pqpan_ble_link_settings to = *from;
    to.ci_ns = ci_ns;
    instant_procedure(a, PQPAN_PHASE_CONN_UPDATE, PQPAN_LL_CONN_PARAM_CTR_BYTES,
                      PQPAN_LL_CONN_UPDATE_CTR_BYTES, from, &to, same_event_reply, d);
}

/* PHY update procedure (Vol 6 Part B §5.1.10): LL_PHY_REQ, LL_PHY_RSP, LL_PHY_UPDATE_IND
 * with its instant on the old PHY, the instant's event on the new one. */
static void phy_update(struct acc *a, const struct pqpan_ble_link_settings *from,
                       enum pqpan_ble_phy phy, int same_event_reply, const struct pqpan_ble_device *d)
{
    struct pqpan_ble_link_settings to = *from;
    to.phy = phy;
    instant_procedure(a, PQPAN_PHASE_PHY_UPDATE, PQPAN_LL_PHY_REQ_CTR_BYTES,
                      PQPAN_LL_PHY_UPDATE_CTR_BYTES, from, &to, same_event_reply, d);
}

/* A procedure of one step: txns t[0..n) in phase ph on link l. */
static void one_step(struct acc *a, enum pqpan_phase ph, const struct pqpan_ble_link *l,
                     const struct pqpan_ble_device *d, const struct pqpan_ble_txn *t, uint32_t n)
{
    struct procedure pr;
    procedure_begin(&pr, a, ph);
    pr.span = step(a, ph, l, d, t, n);
    procedure_end(&pr, a);
}

/* A request/response pair of one procedure in phase ph, from side `from`. */
static void exchange_pair(struct acc *a, enum pqpan_phase ph, const struct pqpan_ble_link *l,
                          const struct pqpan_ble_device *d, enum pqpan_ble_role from,
                          uint32_t req, uint32_t rsp, int ll_control)
{
    struct pqpan_ble_txn t[1];
    uint32_t n = 0;
    pqpan_ble_txn_add(t, &n, from, ph, req, rsp, ll_control);
    one_step(a, ph, l, d, t, n);
}

static int settings_ok(const struct pqpan_ble_link_settings *s)
{
    return s->phy >= 0 && s->phy < PQPAN_BLE_PHY_COUNT && s->ll_octets >= PQPAN_LL_DATA_MIN_PAYLOAD &&
           s->ll_octets <= PQPAN_LL_DATA_MAX_PAYLOAD && s->ci_ns >= PQPAN_BLE_CI_MIN_NS &&
           s->ci_ns <= PQPAN_BLE_CI_MAX_NS;
}

/* Connection update, PHY update, data length update, each when its setting changes. */
static void switch_link(struct acc *a, const struct pqpan_ble_link_settings *from,
                        const struct pqpan_ble_link_settings *to, int same_event_reply,
                        const struct pqpan_ble_device *dev)
{
    struct pqpan_ble_link_settings cur = *from;
    struct pqpan_ble_link l;
    if (to->ci_ns != cur.ci_ns) {
        conn_update(a, &cur, to->ci_ns, same_event_reply, dev);
        cur.ci_ns = to->ci_ns;
    }
    if (to->phy != cur.phy) {
        phy_update(a, &cur, to->phy, same_event_reply, dev);
        cur.phy = to->phy;
    }
    if (to->ll_octets != cur.ll_octets) {
        /* Data length update (Vol 6 Part B §5.1.9): LL_LENGTH_REQ / LL_LENGTH_RSP. */
        link_set(&l, &cur, same_event_reply);
        exchange_pair(a, PQPAN_PHASE_LENGTH_UPDATE, &l, dev, PQPAN_BLE_CENTRAL,
                      PQPAN_LL_LENGTH_CTR_BYTES, PQPAN_LL_LENGTH_CTR_BYTES, 1);
    }
}

int pqpan_ble_link_switch(struct pqpan_ledger led[2], struct pqpan_ble_counts *counts,
                          uint64_t span_ns[PQPAN_PHASE_COUNT],
                          const struct pqpan_ble_link_settings *from,
                          const struct pqpan_ble_link_settings *to, int same_event_reply,
                          const struct pqpan_ble_device *dev)
{
    struct acc a;
    if (led == NULL || counts == NULL || span_ns == NULL || from == NULL || to == NULL ||
        !settings_ok(from) || !settings_ok(to)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    acc_init(&a, led, counts, span_ns, 0);
    switch_link(&a, from, to, same_event_reply, dev);
    return PQPAN_OK;
}

void pqpan_ble_adv_mean(uint64_t adv_interval_ns, uint8_t *scan_channel, uint64_t *wait_ns)
{
    const uint64_t dmax = PQPAN_BLE_ADV_DELAY_MAX_NS;
    uint64_t mean_t = adv_interval_ns + dmax / 2u;
    *scan_channel = PQPAN_BLE_ADV_MEAN_CHANNEL;
    *wait_ns = mean_t / 2u + dmax * dmax / (24u * mean_t);
}

uint64_t pqpan_ble_adv_listen_ns(void)
{
    return 2u * PQPAN_BLE_T_IFS_TOLERANCE_NS + pqpan_ble_sync_ns(PQPAN_BLE_PHY_1M);
}

/* Connectable undirected advertising until the CONNECT_IND (Vol 6 Part B §4.4.2), the
 * expected case of docs/MODEL.md "Advertising": the scanner (central) starts up
 * (pre-processing, HFXO, RX ramp-up) and listens on the middle channel (38) for the mean
 * wait E[W]; the advertiser's event that it hears sends ADV_IND on 37, turns around (T_IFS)
 * and listens for a request, ramps up again and sends ADV_IND on 38, which the scanner
 * answers T_IFS after its end with the CONNECT_IND (the CONNECT phase). The advertiser's
 * event costs one pre-processing, HFXO start and post-processing (the connection events'
 * figures, struct pqpan_ble_device); every other moment of the span it sleeps. */
static void advertise(struct acc *a, const struct pqpan_ble_config *c,
                      const struct pqpan_ble_device *d, uint32_t payload)
{
    const enum pqpan_phase ph = PQPAN_PHASE_ADVERTISE;
    struct pqpan_ledger *adv = &a->led[PQPAN_BLE_PERIPHERAL], *scan = &a->led[PQPAN_BLE_CENTRAL];
    uint64_t t_adv = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, payload, 0);
    uint64_t octets = pqpan_ble_packet_octets(PQPAN_BLE_PHY_1M, payload, 0);
    uint64_t wait, k, before[2];
    uint8_t channel;
    pqpan_ble_adv_mean(c->adv_interval_ns, &channel, &wait);
    k = (uint64_t)channel - PQPAN_BLE_ADV_FIRST_CHANNEL + 1u; /* ADV_INDs sent */
    phase_before(a, ph, before);
    pqpan_ledger_add(adv, ph, PQPAN_STATE_PRE, d->pre_ns);
    pqpan_ledger_add(adv, ph, PQPAN_STATE_HFXO_START, d->hfxo_start_ns);
    pqpan_ledger_add(adv, ph, PQPAN_STATE_RAMP_TX, k * d->ramp_ns);
    pqpan_ledger_add(adv, ph, PQPAN_STATE_TX, k * t_adv);
    pqpan_ledger_add(adv, ph, PQPAN_STATE_IFS, k * PQPAN_BLE_T_IFS_NS);
    pqpan_ledger_add(adv, ph, PQPAN_STATE_RX_WINDOW, (k - 1u) * pqpan_ble_adv_listen_ns());
    pqpan_ledger_add(adv, ph, PQPAN_STATE_POST, d->post_ns);
    adv->pdus_tx += k;
    adv->bytes_tx += k * octets;
    pqpan_ledger_add(scan, ph, PQPAN_STATE_PRE, d->pre_ns);
    pqpan_ledger_add(scan, ph, PQPAN_STATE_HFXO_START, d->hfxo_start_ns);
    pqpan_ledger_add(scan, ph, PQPAN_STATE_RAMP_RX, d->ramp_ns);
    pqpan_ledger_add(scan, ph, PQPAN_STATE_RX_WINDOW, wait);
    pqpan_ledger_add(scan, ph, PQPAN_STATE_RX, t_adv);
    pqpan_ledger_add(scan, ph, PQPAN_STATE_IFS, PQPAN_BLE_T_IFS_NS);
    scan->pdus_rx += 1u;
    scan->bytes_rx += octets;
    fill_sleep(a, ph, (uint64_t)d->pre_ns + d->hfxo_start_ns + d->ramp_ns + wait + t_adv +
                          PQPAN_BLE_T_IFS_NS, before);
}

/* Connection set-up: the CONNECT_IND on an advertising channel (Vol 6 Part B §2.3.3.1,
 * LE 1M), transmitWindowDelay (§4.5.3, WinOffset 0), then the first connection event, a
 * pair of empty PDUs at the connection's interval. */
static void connect(struct acc *a, const struct pqpan_ble_link_settings *conn, int same_event_reply,
                    const struct pqpan_ble_device *d)
{
    const enum pqpan_phase ph = PQPAN_PHASE_CONNECT;
    struct pqpan_ble_txn t[1];
    struct pqpan_ble_link l;
    uint32_t n = 0;
    uint64_t air = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, PQPAN_CONNECT_IND_PAYLOAD, 0);
    uint64_t close = idle_close_ns(PQPAN_BLE_PHY_1M), before[2], elapsed = 0;
    phase_before(a, ph, before);
    pqpan_ledger_add(&a->led[PQPAN_BLE_CENTRAL], ph, PQPAN_STATE_TX, air);
    pqpan_ledger_add(&a->led[PQPAN_BLE_PERIPHERAL], ph, PQPAN_STATE_RX, air);
    wait_add(t, &n, ph, 2u * conn->ci_ns);
    link_set(&l, conn, same_event_reply);
    schedule(a, ph, &l, d, t, n, &elapsed);
    a->counts->idle_events -= 1u; /* the set-up event is not one of the exchange's */
    a->counts->last_close_ns = close;
    fill_sleep(a, ph, air + TRANSMIT_WINDOW_DELAY_NS + close, before);
}

/* Feature exchange (Vol 6 Part B §5.1.4.1: LL_FEATURE_REQ, LL_FEATURE_RSP) and version
 * exchange (§5.1.5: LL_VERSION_IND each way), both initiated by the central, the second
 * after the first has completed (§5: one procedure at a time per device). */
static void features(struct acc *a, const struct pqpan_ble_link_settings *conn, int same_event_reply,
                     const struct pqpan_ble_device *d)
{
    const enum pqpan_phase ph = PQPAN_PHASE_FEATURES;
    struct pqpan_ble_txn t[2];
    struct pqpan_ble_link l;
    uint32_t n = 0;
    pqpan_ble_txn_add(t, &n, PQPAN_BLE_CENTRAL, ph, PQPAN_LL_FEATURE_CTR_BYTES, PQPAN_LL_FEATURE_CTR_BYTES, 1);
    pqpan_ble_txn_add(t, &n, PQPAN_BLE_CENTRAL, ph, PQPAN_LL_VERSION_CTR_BYTES, PQPAN_LL_VERSION_CTR_BYTES, 1);
    link_set(&l, conn, same_event_reply);
    one_step(a, ph, &l, d, t, n);
}

/* GATT discovery by the client c (the study's: the central) of svc: its requests in turn,
 * each answered by the server in the next event (or the same one), the CCCD write last. */
static void discovery(struct acc *a, const struct pqpan_ble_link *l,
                      const struct pqpan_ble_device *d, enum pqpan_ble_role c,
                      const struct pqpan_ble_service *svc)
{
    const enum pqpan_phase ph = PQPAN_PHASE_DISCOVERY;
    struct pqpan_ble_txn t[PQPAN_BLE_DISCOVERY_STEPS_MAX];
    uint32_t n = 0, i;
    for (i = 0; i < svc->n_discovery; i++) {
        pqpan_ble_txn_add(t, &n, c, ph, svc->discovery[i].req, svc->discovery[i].rsp, 0);
    }
    if (n > 0u) {
        one_step(a, ph, l, d, t, n);
    }
}

/* The study's server (Vol 3 Part G): one primary service with a 128-bit UUID, its one
 * characteristic and that characteristic's CCCD. Discover Primary Service by Service UUID
 * (§4.4.2: Find By Type Value Request / Response, then the request for the rest of the
 * handle range answered by an Error Response, Attribute Not Found), Discover All
 * Characteristics of a Service (§4.6.1: Read By Type Request for «Characteristic» /
 * Response, then the Error Response for the range after the declaration), Discover All
 * Characteristic Descriptors (§4.7.1: Find Information Request / Response, which ends the
 * sub-procedure as the CCCD is the range's last handle), then Write Characteristic
 * Descriptors (§4.12.3) of the CCCD enabling indications (Part G §3.3.3.3: 0x0002): Write
 * Request / Write Response. */
void pqpan_ble_service_init(struct pqpan_ble_service *svc, uint32_t adv_ind_payload,
                            const struct pqpan_ble_att_step *steps, uint32_t n)
{
    memset(svc, 0, sizeof *svc);
    svc->adv_ind_payload = adv_ind_payload;
    svc->n_discovery = n; /* above the most: kept, so that pqpan_ble_setup refuses svc */
    memcpy(svc->discovery, steps,
           (n < PQPAN_BLE_DISCOVERY_STEPS_MAX ? n : PQPAN_BLE_DISCOVERY_STEPS_MAX) *
               sizeof steps[0]);
}

void pqpan_ble_service_study(struct pqpan_ble_service *svc)
{
    static const struct pqpan_ble_att_step steps[] = {
        {PQPAN_ATT_FIND_BY_TYPE_REQ_BYTES, PQPAN_ATT_FIND_BY_TYPE_RSP_BYTES},
        {PQPAN_ATT_FIND_BY_TYPE_REQ_BYTES, PQPAN_ATT_ERROR_RSP_BYTES},
        {PQPAN_ATT_READ_BY_TYPE_REQ_BYTES, PQPAN_ATT_READ_BY_TYPE_RSP_BYTES},
        {PQPAN_ATT_READ_BY_TYPE_REQ_BYTES, PQPAN_ATT_ERROR_RSP_BYTES},
        {PQPAN_ATT_FIND_INFO_REQ_BYTES, PQPAN_ATT_FIND_INFO_RSP_BYTES},
        {PQPAN_ATT_CCCD_WRITE_REQ_BYTES, PQPAN_ATT_OPCODE_ONLY_BYTES},
    };
    pqpan_ble_service_init(svc, PQPAN_BLE_ADV_IND_PAYLOAD, steps,
                           (uint32_t)(sizeof steps / sizeof steps[0]));
}

/* The set-up of c with svc's advertising and discovery. */
static void setup_service_run(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *c,
                              const struct pqpan_ble_device *d, const struct pqpan_ble_service *svc)
{
    struct acc a;
    struct pqpan_ble_link_settings conn, exch;
    struct pqpan_ble_link l;
    uint64_t before = out->counts.events + out->counts.idle_events;
    const enum pqpan_ble_role client =
        c->gatt_server == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    int p;
    acc_init(&a, out->ledger, &out->counts, out->span_ns, 1);
    conn.phy = PQPAN_BLE_PHY_1M;
    conn.ll_octets = PQPAN_LL_DATA_MIN_PAYLOAD;
    conn.ci_ns = c->conn_update ? c->idle_ci_ns : c->ci_ns;
    exch.phy = c->phy;
    exch.ll_octets = c->ll_octets;
    exch.ci_ns = c->ci_ns;
    if (c->adv_interval_ns != 0u) {
        advertise(&a, c, d, svc->adv_ind_payload);
    }
    connect(&a, &conn, c->same_event_reply, d);
    if (c->features) {
        features(&a, &conn, c->same_event_reply, d);
    }
    switch_link(&a, &conn, &exch, c->same_event_reply, d);
    link_set(&l, &exch, c->same_event_reply);
    if (c->att_mtu > PQPAN_ATT_DEFAULT_MTU) {
        /* ATT Exchange MTU (Vol 3 Part G §4.3.1, Part F §3.4.2.1/2: 3 octets each), which
         * the client requests. */
        exchange_pair(&a, PQPAN_PHASE_MTU_EXCHANGE, &l, d, client, PQPAN_ATT_MTU_REQ_BYTES,
                      PQPAN_ATT_MTU_REQ_BYTES, 0);
    }
    if (c->discovery) {
        discovery(&a, &l, d, client, svc);
    }
    out->counts.setup_events = out->counts.events + out->counts.idle_events - before;
    for (p = 0; p < PQPAN_PHASE_KEY_TRANSFER; p++) {
        out->setup_ns += out->span_ns[p];
    }
}

void pqpan_ble_setup_run(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *c,
                         const struct pqpan_ble_device *d)
{
    struct pqpan_ble_service svc;
    pqpan_ble_service_study(&svc);
    setup_service_run(out, c, d, &svc);
}

static int service_ok(const struct pqpan_ble_service *svc)
{
    uint32_t i;
    if (svc->adv_ind_payload < PQPAN_BD_ADDR_BYTES ||
        svc->adv_ind_payload > PQPAN_BD_ADDR_BYTES + PQPAN_ADV_DATA_MAX ||
        svc->n_discovery > PQPAN_BLE_DISCOVERY_STEPS_MAX) {
        return 0;
    }
    for (i = 0; i < svc->n_discovery; i++) {
        /* every set-up PDU fits one 27-octet LL payload behind the L2CAP header */
        if (svc->discovery[i].req == 0u ||
            svc->discovery[i].req + PQPAN_L2CAP_HDR_BYTES > PQPAN_LL_DATA_MIN_PAYLOAD ||
            svc->discovery[i].rsp + PQPAN_L2CAP_HDR_BYTES > PQPAN_LL_DATA_MIN_PAYLOAD) {
            return 0;
        }
    }
    return 1;
}

int pqpan_ble_setup(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                    const struct pqpan_ble_device *dev, const struct pqpan_ble_service *svc)
{
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (cfg == NULL || dev == NULL || svc == NULL || !service_ok(svc) ||
        pqpan_ble_config_fault(cfg) != PQPAN_BLE_CONFIG_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    setup_service_run(out, cfg, dev, svc);
    return PQPAN_OK;
}
