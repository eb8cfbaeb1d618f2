/* What the front ends (the CLI, the Python package, a library user) take from the estimator
 * the same way (include/pqpan/ble.h): a device profile's BLE timing, and the connection-event
 * count of an estimate. */
#include "pqpan/ble.h"
#include "pqpan/energy.h"

int pqpan_ble_device_from_profile(struct pqpan_ble_device *dev, const struct pqpan_profile *p,
                                  int ramp_normal)
{
    if (dev == NULL || p == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    dev->cpu_hz = p->cpu_hz;
    dev->hfxo_start_ns = p->hfxo_start_ns;
    dev->ramp_ns = ramp_normal ? p->ramp_normal_ns : p->ramp_fast_ns;
    dev->pre_ns = p->ble_event.pre_ns;
    dev->post_ns = p->ble_event.post_ns;
    dev->sca_ppm = (uint32_t)(p->sca_ppm + 0.5); /* the profile's ppm, rounded to whole */
    dev->rx_margin_ns = p->ble_event.rx_margin_ns;
    return PQPAN_OK;
}

uint64_t pqpan_ble_conn_events(const struct pqpan_ble_estimate *est)
{
    const uint64_t connect_event = 1u; /* the connection's first event (setup.c connect()) */
    return est->counts.events + est->counts.idle_events + connect_event;
}
