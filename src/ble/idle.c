/* An idle connection: empty PDUs at every anchor, with peripheral latency
 * (docs/MODEL.md "Idle connection"). Clauses: Bluetooth Core v5.4 Vol 6 Part B. */
#include <string.h>

#include "pqpan/ble.h"


static int config_ok(const struct pqpan_ble_idle_config *c)
{
    uint64_t period = ((uint64_t)c->latency + 1u) * c->ci_ns;
    return c->phy >= 0 && c->phy < PQPAN_BLE_PHY_COUNT && c->ci_ns >= PQPAN_BLE_CI_MIN_NS &&
           c->ci_ns <= PQPAN_BLE_CI_MAX_NS && c->latency <= PQPAN_BLE_LATENCY_MAX &&
           period < PQPAN_BLE_IDLE_PERIOD_MAX_NS;
}

/* The radio time of one event of a side: what it sends, receives, turns around and
 * listens for, added to its ledger. */
static void book_answered(struct pqpan_ledger *l, uint64_t empty_ns, uint32_t octets)
{
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_TX] += empty_ns;
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_IFS] += PQPAN_BLE_T_IFS_NS;
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_RX] += empty_ns;
    l->pdus_tx += 1u;
    l->pdus_rx += 1u;
    l->bytes_tx += octets;
    l->bytes_rx += octets;
    l->events += 1u;
}

/* The central's event the peripheral skips: its empty PDU, T_IFS, then it listens for the
 * answer's preamble and access address within the T_IFS tolerance, hears none and closes
 * the event (§4.5.6). */
static void book_unanswered(struct pqpan_ledger *l, uint64_t empty_ns, uint32_t octets,
                            enum pqpan_ble_phy phy, uint64_t n)
{
    uint64_t listen = 2u * PQPAN_BLE_T_IFS_TOLERANCE_NS + pqpan_ble_sync_ns(phy);
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_TX] += n * empty_ns;
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_IFS] += n * PQPAN_BLE_T_IFS_NS;
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_RX_WINDOW] += n * listen;
    l->pdus_tx += n;
    l->bytes_tx += n * octets;
    l->events += n;
}

static void fill_sleep(struct pqpan_ledger *l, uint64_t period)
{
    uint64_t busy = pqpan_ledger_phase_ns(l, PQPAN_PHASE_IDLE);
    l->ns[PQPAN_PHASE_IDLE][PQPAN_STATE_SLEEP] += period - busy;
}

int pqpan_ble_idle(struct pqpan_ble_idle *out, const struct pqpan_ble_idle_config *cfg,
                   const struct pqpan_ble_device *dev)
{
    struct pqpan_ledger *c, *p;
    uint64_t empty, period;
    uint32_t octets;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (cfg == NULL || dev == NULL || !config_ok(cfg)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    period = ((uint64_t)cfg->latency + 1u) * cfg->ci_ns;
    /* §4.2.4: the widening must stay below connInterval/2 − T_IFS. */
    if (pqpan_ble_event_widening_ns(dev, period) >= cfg->ci_ns / 2u - PQPAN_BLE_T_IFS_NS) {
        return PQPAN_ERR_INVALID_ARG;
    }
    empty = pqpan_ble_packet_ns(cfg->phy, 0, 0);
    octets = pqpan_ble_packet_octets(cfg->phy, 0, 0);
    c = &out->ledger[PQPAN_BLE_CENTRAL];
    p = &out->ledger[PQPAN_BLE_PERIPHERAL];
    pqpan_ble_event_costs(c, PQPAN_PHASE_IDLE, dev, period, PQPAN_BLE_CENTRAL,
                          (uint64_t)cfg->latency + 1u);
    book_answered(c, empty, octets);
    book_unanswered(c, empty, octets, cfg->phy, cfg->latency);
    pqpan_ble_event_costs(p, PQPAN_PHASE_IDLE, dev, period, PQPAN_BLE_PERIPHERAL, 1u);
    book_answered(p, empty, octets);
    fill_sleep(c, period);
    fill_sleep(p, period);
    out->period_ns = period;
    out->events[PQPAN_BLE_CENTRAL] = cfg->latency + 1u;
    out->events[PQPAN_BLE_PERIPHERAL] = 1u;
    out->unanswered_events = cfg->latency;
    return PQPAN_OK;
}
