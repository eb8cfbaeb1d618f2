/* The PB-ADV clock (pbadv_clock.h): the advertising events of a provisioning run and what
 * they cost each side, shared by the estimator and the simulator. */
#include <math.h>
#include <string.h>

#include "pbadv_clock.h"

/* The scanner hears an event's PDU on the mean (second) of its channels, as the set-up's
 * advertising phase assumes (pqpan_ble_adv_mean, PQPAN_BLE_ADV_MEAN_CHANNEL). */
#define MEAN_CHANNEL_INDEX 2u

void pqpan_mesh_pbadv_clock_init(struct mesh_pbadv_clock *r, struct pqpan_mesh_pbadv_estimate *out,
                           const struct pqpan_mesh_pbadv_config *cfg,
                           const struct pqpan_ble_device dev[2])
{
    memset(r, 0, sizeof *r);
    memset(out, 0, sizeof *out);
    r->out = out;
    r->cfg = cfg;
    r->dev = dev;
    /* Core v5.4 Vol 6 Part B §4.4.2.2.1: advDelay uniform in 0..10 ms, mean 5 ms. */
    r->t_adv_mean = cfg->adv_interval_ns + PQPAN_BLE_ADV_DELAY_MAX_NS / 2u;
    pqpan_ledger_init(&out->ledger[0]);
    pqpan_ledger_init(&out->ledger[1]);
}

static uint64_t packet_ns(const struct mesh_pbadv_clock *r, uint32_t gp)
{
    return pqpan_ble_packet_ns(r->cfg->phy, pqpan_mesh_pbadv_adv_payload(gp), 0);
}

uint64_t pqpan_mesh_pbadv_clock_next(const struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                                     uint64_t at)
{
    return at > r->free_ns[s] ? at : r->free_ns[s];
}

uint64_t pqpan_mesh_pbadv_clock_channel_ns(const struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                               uint64_t start, uint32_t ch, uint32_t gp)
{
    const struct pqpan_ble_device *d = &r->dev[s];
    return start + d->pre_ns + ch * (d->ramp_ns + packet_ns(r, gp)) + d->ramp_ns;
}

static uint64_t scaled(double x, uint64_t v)
{
    return (uint64_t)llround(x * (double)v);
}

/* One advertising event's length: pre-processing, three ramp-ups and packets of t_pdu,
 * post-processing. */
static uint64_t event_len_ns(const struct pqpan_ble_device *d, uint64_t t_pdu)
{
    return (uint64_t)d->pre_ns + MESH_PBADV_CHANNELS * (d->ramp_ns + t_pdu) + d->post_ns;
}

/* The sender's states of x advertising events on three channels (x = 1: one event, exact;
 * a fraction: the expected events of the estimate under loss). */
static void book_events(struct pqpan_ledger *l, const struct pqpan_ble_device *d, uint64_t t_pdu,
                        uint64_t octets, double x, enum pqpan_phase phase)
{
    pqpan_ledger_add(l, phase, PQPAN_STATE_PRE, scaled(x, d->pre_ns));
    pqpan_ledger_add(l, phase, PQPAN_STATE_RAMP_TX,
                     scaled(x, MESH_PBADV_CHANNELS * (uint64_t)d->ramp_ns));
    pqpan_ledger_add(l, phase, PQPAN_STATE_TX, scaled(x, MESH_PBADV_CHANNELS * t_pdu));
    pqpan_ledger_add(l, phase, PQPAN_STATE_POST, scaled(x, d->post_ns));
    l->pdus_tx += scaled(x, MESH_PBADV_CHANNELS);
    l->bytes_tx += scaled(x, MESH_PBADV_CHANNELS * octets);
    l->events += scaled(x, 1u);
}

uint64_t pqpan_mesh_pbadv_clock_event_ns(const struct mesh_pbadv_clock *r,
                                         enum pqpan_mesh_prov_role s, uint32_t gp)
{
    return event_len_ns(&r->dev[s], packet_ns(r, gp));
}

void pqpan_mesh_pbadv_clock_expected(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                                     double x, uint32_t gp, enum pqpan_phase phase)
{
    struct pqpan_ledger *peer = &r->out->ledger[1 - s];
    uint64_t octets = pqpan_ble_packet_octets(r->cfg->phy, pqpan_mesh_pbadv_adv_payload(gp), 0);
    book_events(&r->out->ledger[s], &r->dev[s], packet_ns(r, gp), octets, x, phase);
    peer->pdus_rx += scaled(x, 1u);
    peer->bytes_rx += scaled(x, octets);
    r->out->adv_events[s] += (uint32_t)scaled(x, 1u);
    r->busy_ns[s] += scaled(x, pqpan_mesh_pbadv_clock_event_ns(r, s, gp));
}

/* ADV_NONCONN_IND on three channels (Vol 6 Part B §4.4.2.2: no listening after a
 * non-connectable PDU): the sender's states, the peer's reception. */
uint64_t pqpan_mesh_pbadv_clock_event(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint64_t at,
                          uint32_t gp, enum pqpan_phase phase, uint64_t *start)
{
    const struct pqpan_ble_device *d = &r->dev[s];
    uint64_t t_pdu = packet_ns(r, gp);
    uint64_t t0 = pqpan_mesh_pbadv_clock_next(r, s, at);
    uint64_t len = pqpan_mesh_pbadv_clock_event_ns(r, s, gp);
    pqpan_mesh_pbadv_clock_expected(r, s, 1.0, gp, phase);
    r->free_ns[s] = t0 + r->t_adv_mean;
    r->last_end_ns[s] = t0 + len;
    if (t0 + len > r->end_ns) {
        r->end_ns = t0 + len;
    }
    *start = t0;
    return t0 + d->pre_ns + MEAN_CHANNEL_INDEX * (d->ramp_ns + t_pdu);
}

uint64_t pqpan_mesh_pbadv_clock_compute(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint64_t at,
                            uint32_t ops, const uint64_t cycles[PQPAN_OP_COUNT])
{
    uint64_t ns = pqpan_mesh_prov_book_ops(&r->out->ledger[s], ops, cycles, r->dev[s].cpu_hz);
    r->busy_ns[s] += ns;
    return at + ns;
}

void pqpan_mesh_pbadv_clock_finish(struct mesh_pbadv_clock *r)
{
    double duty = pqpan_mesh_pbadv_scan_duty(r->cfg);
    int s;
    for (s = 0; s < 2; s++) {
        uint64_t idle = r->end_ns > r->busy_ns[s] ? r->end_ns - r->busy_ns[s] : 0u;
        uint64_t rx = duty >= 1.0 ? idle : scaled(duty, idle);
        pqpan_ledger_add(&r->out->ledger[s], PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_RX, rx);
        /* between the scan windows the radio is off */
        pqpan_ledger_add(&r->out->ledger[s], PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_SLEEP,
                         idle - rx);
    }
    r->out->span_ns = r->end_ns;
}

int pqpan_mesh_pbadv_config_ok(const struct pqpan_mesh_pbadv_config *c)
{
    /* Legacy advertising PDUs go on LE 1M only (Core v5.4 Vol 6 Part B §2.3). */
    return c->phy == PQPAN_BLE_PHY_1M && c->adv_interval_ns >= PQPAN_BLE_ADV_INTERVAL_MIN_NS &&
           c->adv_interval_ns <= PQPAN_BLE_ADV_INTERVAL_MAX_NS && c->pdu_transmissions > 0u &&
           c->ack_transmissions > 0u && c->close_transmissions > 0u && c->per >= 0.0 &&
           c->per <= 1.0 && c->retrans_ns > 0u && c->txn_timeout_ns > 0u &&
           c->scan_window_ns >= PQPAN_MESH_SCAN_MIN_NS && c->scan_window_ns <= c->scan_interval_ns &&
           c->scan_interval_ns <= PQPAN_MESH_SCAN_MAX_NS;
}

/* ADV_NONCONN_IND on three channels (Vol 6 Part B §4.4.2.2: no listening after a
 * non-connectable PDU). */
void pqpan_mesh_adv_event_book(struct mesh_adv_event *ev, struct pqpan_ledger *l,
                               const struct pqpan_ble_device *d, enum pqpan_ble_phy phy,
                               uint32_t payload, enum pqpan_phase phase)
{
    uint64_t t_pdu = pqpan_ble_packet_ns(phy, payload, 0);
    ev->octets = pqpan_ble_packet_octets(phy, payload, 0);
    ev->len_ns = event_len_ns(d, t_pdu);
    ev->heard_ns = d->pre_ns + MEAN_CHANNEL_INDEX * (d->ramp_ns + t_pdu);
    book_events(l, d, t_pdu, ev->octets, 1.0, phase);
}

uint64_t pqpan_mesh_adv_events_expected(struct pqpan_ledger *l, const struct pqpan_ble_device *d,
                                        enum pqpan_ble_phy phy, uint32_t payload, double x,
                                        enum pqpan_phase phase)
{
    uint64_t t_pdu = pqpan_ble_packet_ns(phy, payload, 0);
    book_events(l, d, t_pdu, pqpan_ble_packet_octets(phy, payload, 0), x, phase);
    return event_len_ns(d, t_pdu);
}

void pqpan_mesh_adv_scan_book(struct pqpan_ledger *l, uint64_t end_ns, uint64_t busy_ns)
{
    uint64_t rx = end_ns > busy_ns ? end_ns - busy_ns : 0u;
    pqpan_ledger_add(l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_RX, rx);
}
