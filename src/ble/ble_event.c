/* Per-event fixed costs of a connection event for one side, shared by the estimator's
 * schedule and the packet simulator (docs/MODEL.md "Connection-event phases"). The phases are
 * the vendors' (Nordic SoftDevice Specification, "Bluetooth Low Energy power profiles":
 * pre-processing (CPU), standby + HFXO ramp, radio startup, radio RX/TX/switch,
 * post-processing (CPU), standby), their figures the profile's. */
#include "pqpan/ble.h"

uint64_t pqpan_ble_event_widening_ns(const struct pqpan_ble_device *d, uint64_t ci_ns)
{
    return 2u * (uint64_t)d->sca_ppm * ci_ns / 1000000u;
}

uint64_t pqpan_ble_event_rx_window_ns(const struct pqpan_ble_device *d, uint64_t since_anchor_ns)
{
    return pqpan_ble_event_widening_ns(d, since_anchor_ns) + d->rx_margin_ns;
}

uint64_t pqpan_ble_event_lead_ns(const struct pqpan_ble_device *d, uint64_t ci_ns,
                                 enum pqpan_ble_role role)
{
    uint64_t win = role == PQPAN_BLE_PERIPHERAL ? pqpan_ble_event_rx_window_ns(d, ci_ns) : 0u;
    return (uint64_t)d->pre_ns + d->hfxo_start_ns + d->ramp_ns + win;
}

void pqpan_ble_event_costs(struct pqpan_ledger *l, enum pqpan_phase ph,
                           const struct pqpan_ble_device *d, uint64_t ci_ns,
                           enum pqpan_ble_role role, uint64_t events)
{
    uint64_t *ns = l->ns[ph];
    ns[PQPAN_STATE_PRE] += events * d->pre_ns;
    ns[PQPAN_STATE_HFXO_START] += events * d->hfxo_start_ns;
    ns[PQPAN_STATE_POST] += events * d->post_ns;
    if (role == PQPAN_BLE_CENTRAL) {
        ns[PQPAN_STATE_RAMP_TX] += events * d->ramp_ns;
    } else {
        ns[PQPAN_STATE_RAMP_RX] += events * d->ramp_ns;
        ns[PQPAN_STATE_RX_WINDOW] += events * pqpan_ble_event_rx_window_ns(d, ci_ns);
    }
}
