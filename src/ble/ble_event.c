/* Per-event fixed costs of a connection event for one side, shared by the estimator's
 * schedule and the packet simulator (docs/MODEL.md "Link model", events accounting). */
#include "pqpan/ble.h"

uint64_t pqpan_ble_event_widening_ns(const struct pqpan_ble_device *d, uint64_t ci_ns)
{
    return 2u * (uint64_t)d->sca_ppm * ci_ns / 1000000u;
}

void pqpan_ble_event_costs(struct pqpan_ledger *l, enum pqpan_phase ph,
                           const struct pqpan_ble_device *d, uint64_t ci_ns,
                           enum pqpan_ble_role role, uint64_t events)
{
    uint64_t *ns = l->ns[ph];
    ns[PQPAN_STATE_HFXO_START] += events * d->hfxo_start_ns;
    ns[PQPAN_STATE_CPU] += events * ((uint64_t)d->pre_ns + d->post_ns);
    if (role == PQPAN_BLE_CENTRAL) {
        ns[PQPAN_STATE_RAMP_TX] += events * d->ramp_ns;
    } else {
        ns[PQPAN_STATE_RAMP_RX] += events * d->ramp_ns;
        ns[PQPAN_STATE_RX] += events * pqpan_ble_event_widening_ns(d, ci_ns);
    }
}
