/* Connection events (Core v5.4 Vol 6 Part B §4.5.1 connection events, §4.5.6 closing
 * connection events with the MD bit, §4.2.4 window widening): how the transactions of a
 * key exchange fill events, and the radio time each side spends in them.
 *
 * Model (docs/MODEL.md "Link model"): an event is a sequence of pairs — the central's
 * PDU, T_IFS, the peripheral's PDU, T_IFS — kept open by the MD bit while either side has
 * data, until the event length is used up. A side without data answers with an empty PDU
 * (which also carries the acknowledgement, SN/NESN §4.5.9). A reply produced by a host
 * (ATT Confirmation/Response, the next SMP PDU) goes in the next event. */
#include <string.h>

#include "pqpan/ble.h"

/* Air time is affine in the PDU octets on every PHY (phy.c): t(n) = t(0) + n·per_octet,
 * octets(n) = octets(0) + n. The coefficients come from phy.c once per schedule call, so
 * the closed forms below need no per-PDU call. */
struct air {
    uint64_t t_empty;     /* empty PDU */
    uint64_t per_octet;   /* ns per PDU octet */
    uint64_t oct_empty;
};

static void air_of(struct air *a, enum pqpan_ble_phy phy)
{
    a->t_empty = pqpan_ble_packet_ns(phy, 0, 0);
    a->per_octet = pqpan_ble_packet_ns(phy, 1, 0) - a->t_empty;
    a->oct_empty = pqpan_ble_packet_octets(phy, 0, 0);
}

/* Air time of one PDU with a payload of n octets (MIC when encrypted and n > 0). */
static uint64_t air_ns(const struct air *a, uint32_t n, int enc)
{
    uint64_t mic = (enc && n > 0u) ? PQPAN_BLE_MIC_BYTES : 0u;
    return a->t_empty + (n + mic) * a->per_octet;
}

/* One message as LL PDUs: fragments, total air time and total octets on the air. */
struct shape {
    struct pqpan_ble_frags f;
    uint64_t ns;
    uint64_t octets;
};

static void shape_of(struct shape *s, const struct pqpan_ble_link *l, const struct air *a,
                     uint32_t len, int ll_control, int enc)
{
    uint64_t payload;
    if (ll_control) {
        s->f.count = 1u;
        s->f.full = len;
        s->f.last = len;
        payload = len;
    } else {
        pqpan_ble_fragment(&s->f, len, l->ll_octets);
        payload = (uint64_t)len + PQPAN_L2CAP_HDR_BYTES;
    }
    if (enc && payload > 0u) {
        payload += (uint64_t)s->f.count * PQPAN_BLE_MIC_BYTES;
    }
    s->ns = s->f.count * a->t_empty + payload * a->per_octet;
    s->octets = s->f.count * a->oct_empty + payload;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1u) / b;
}

/* Pairs that fit in one event when the longer PDU of a pair takes data_ns:
 * k pairs take k·(data + empty + 2·T_IFS) − T_IFS ≤ event length. At least one. */
static uint64_t pairs_per_event(const struct pqpan_ble_link *l, const struct air *a,
                                uint64_t data_ns)
{
    uint64_t len = l->event_len_ns;
    uint64_t pair = data_ns + a->t_empty + 2u * PQPAN_BLE_T_IFS_NS;
    uint64_t k;
    if (len == 0u) {
        len = l->ci_ns > PQPAN_BLE_T_IFS_NS ? l->ci_ns - PQPAN_BLE_T_IFS_NS : 0u;
    }
    k = (len + PQPAN_BLE_T_IFS_NS) / pair;
    if (k == 0u) {
        k = 1u;
    }
    if (l->max_pairs != 0u && k > l->max_pairs) {
        k = l->max_pairs;
    }
    return k;
}

/* Radio activity of one side during a run of pairs. */
struct side_air {
    uint64_t tx_ns, rx_ns;
    uint64_t data_tx, empty_tx;
    uint64_t octets_tx, octets_rx;
};

struct run {
    uint64_t pairs, events;
    struct side_air side[2];
};

static void add_air(struct pqpan_ledger *l, enum pqpan_phase ph, const struct side_air *a,
                    uint64_t ifs_ns, uint64_t events)
{
    pqpan_ledger_add(l, ph, PQPAN_STATE_TX, a->tx_ns);
    pqpan_ledger_add(l, ph, PQPAN_STATE_RX, a->rx_ns);
    pqpan_ledger_add(l, ph, PQPAN_STATE_IFS, ifs_ns);
    l->pdus_tx += a->data_tx + a->empty_tx;
    l->bytes_tx += a->octets_tx;
    l->bytes_rx += a->octets_rx;
    l->events += events;
}

/* Per-event costs of the events accounting, for `events` events of one side. */
static void add_event_costs(struct pqpan_ledger *l, enum pqpan_phase ph,
                            const struct pqpan_ble_device *d, const struct pqpan_ble_link *lk,
                            enum pqpan_ble_role role, uint64_t events)
{
    /* §4.2.4: the peripheral widens its receive window by
     * (centralSCA + peripheralSCA)/10^6 × time since the last anchor; both ends use the
     * same profile here, so ww = 2·SCA·CI/10^6 before each anchor. */
    uint64_t ww = 2u * (uint64_t)d->sca_ppm * lk->ci_ns / 1000000u;
    pqpan_ledger_add(l, ph, PQPAN_STATE_HFXO_START, events * d->hfxo_start_ns);
    pqpan_ledger_add(l, ph, PQPAN_STATE_CPU, events * ((uint64_t)d->pre_ns + d->post_ns));
    if (role == PQPAN_BLE_CENTRAL) {
        pqpan_ledger_add(l, ph, PQPAN_STATE_RAMP_TX, events * d->ramp_ns);
    } else {
        pqpan_ledger_add(l, ph, PQPAN_STATE_RAMP_RX, events * d->ramp_ns);
        pqpan_ledger_add(l, ph, PQPAN_STATE_RX, events * ww);
    }
}

/* The pairs and events of one transaction run; see the file comment for the rules. */
static void run_txn(struct run *r, const struct pqpan_ble_link *l, const struct air *air,
                    const struct pqpan_ble_txn *t)
{
    struct shape a, b, rsp;
    uint32_t biggest;
    uint64_t per_event, n_req, t0;
    int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
    int o = 1 - s;
    int confirmed = t->rsp_len != 0u;

    memset(r, 0, sizeof *r);
    memset(&rsp, 0, sizeof rsp);
    shape_of(&a, l, air, t->len, t->ll_control, t->encrypted);
    shape_of(&b, l, air, t->last_len, t->ll_control, t->encrypted);
    if (confirmed) {
        shape_of(&rsp, l, air, t->rsp_len, t->ll_control, t->encrypted);
    }
    biggest = a.f.full > b.f.full ? a.f.full : b.f.full;
    biggest = rsp.f.full > biggest ? rsp.f.full : biggest;
    per_event = pairs_per_event(l, air, air_ns(air, biggest, t->encrypted));
    n_req = (uint64_t)(t->count - 1u) * a.f.count + b.f.count;
    r->pairs = n_req + (uint64_t)t->count * rsp.f.count;
    if (confirmed && !l->same_event_reply) {
        uint64_t reply_events = ceil_div(rsp.f.count, per_event);
        r->events = (uint64_t)(t->count - 1u) * (ceil_div(a.f.count, per_event) + reply_events) +
                    ceil_div(b.f.count, per_event) + reply_events;
    } else {
        r->events = ceil_div(r->pairs, per_event);
    }
    t0 = air->t_empty;
    r->side[s].data_tx = n_req;
    r->side[s].empty_tx = (uint64_t)t->count * rsp.f.count;
    r->side[s].tx_ns = (uint64_t)(t->count - 1u) * a.ns + b.ns + r->side[s].empty_tx * t0;
    r->side[s].octets_tx = (uint64_t)(t->count - 1u) * a.octets + b.octets +
                           r->side[s].empty_tx * air->oct_empty;
    r->side[o].data_tx = (uint64_t)t->count * rsp.f.count;
    r->side[o].empty_tx = n_req;
    r->side[o].tx_ns = (uint64_t)t->count * rsp.ns + n_req * t0;
    r->side[o].octets_tx = (uint64_t)t->count * rsp.octets +
                           n_req * air->oct_empty;
    r->side[s].rx_ns = r->side[o].tx_ns;
    r->side[o].rx_ns = r->side[s].tx_ns;
    r->side[s].octets_rx = r->side[o].octets_tx;
    r->side[o].octets_rx = r->side[s].octets_tx;
}

/* `events` events with one pair of empty PDUs each (the link kept alive, latency 0). */
static void run_idle(struct run *r, const struct air *a, uint64_t events)
{
    uint64_t t0 = a->t_empty;
    uint64_t o0 = a->oct_empty;
    int i;
    memset(r, 0, sizeof *r);
    r->pairs = events;
    r->events = events;
    for (i = 0; i < 2; i++) {
        r->side[i].empty_tx = events;
        r->side[i].tx_ns = events * t0;
        r->side[i].rx_ns = events * t0;
        r->side[i].octets_tx = events * o0;
        r->side[i].octets_rx = events * o0;
    }
}

static void book(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                 const struct pqpan_ble_link *l, const struct pqpan_ble_device *dev,
                 const struct run *r, enum pqpan_phase ph)
{
    uint64_t ifs = (2u * r->pairs - r->events) * PQPAN_BLE_T_IFS_NS;
    int i;
    for (i = 0; i < 2; i++) {
        if (led != NULL) {
            add_air(&led[i], ph, &r->side[i], ifs, r->events);
            led[i].pdus_rx += r->side[1 - i].data_tx + r->side[1 - i].empty_tx;
            if (dev != NULL) {
                add_event_costs(&led[i], ph, dev, l, (enum pqpan_ble_role)i, r->events);
            }
        }
        if (bits != NULL) {
            add_air(&bits[i], ph, &r->side[i], ifs, r->events);
            bits[i].pdus_rx += r->side[1 - i].data_tx + r->side[1 - i].empty_tx;
        }
    }
}

void pqpan_ble_schedule(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                        struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                        const struct pqpan_ble_link *link, const struct pqpan_ble_device *dev,
                        const struct pqpan_ble_txn *txns, uint32_t n)
{
    struct air air;
    uint32_t k;
    air_of(&air, link->phy);
    for (k = 0; k < n; k++) {
        const struct pqpan_ble_txn *t = &txns[k];
        struct run r;
        uint64_t idle = t->wait_ns > 0u ? ceil_div(t->wait_ns, link->ci_ns) - 1u : 0u;
        if (idle > 0u) {
            run_idle(&r, &air, idle);
            book(led, NULL, link, dev, &r, t->wait_phase);
            if (counts != NULL) {
                counts->idle_events += idle;
                counts->empty_pdus_tx[0] += idle;
                counts->empty_pdus_tx[1] += idle;
            }
            if (elapsed_ns != NULL) {
                *elapsed_ns += idle * link->ci_ns;
            }
        }
        if (t->count == 0u) {
            continue;
        }
        run_txn(&r, link, &air, t);
        book(led, bits, link, dev, &r, t->phase);
        if (counts != NULL) {
            int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
            counts->events += r.events;
            counts->data_pdus_tx[s] += r.side[s].data_tx;
            counts->data_pdus_tx[1 - s] += r.side[1 - s].data_tx;
            counts->empty_pdus_tx[0] += r.side[0].empty_tx;
            counts->empty_pdus_tx[1] += r.side[1].empty_tx;
            if (t->ll_control) {
                counts->llctrl_pdus[s] += t->count;
                counts->llctrl_pdus[1 - s] += t->rsp_len != 0u ? t->count : 0u;
            } else {
                counts->att_pdus[s] += t->count;
                counts->att_pdus[1 - s] += t->rsp_len != 0u ? t->count : 0u;
            }
        }
        if (elapsed_ns != NULL) {
            *elapsed_ns += r.events * link->ci_ns;
        }
    }
}
