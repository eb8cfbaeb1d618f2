/* The round-current profile of the mesh tests (test_mesh_prov.c, test_mesh_sim.c), so the
 * energy is easy to redo by hand: 2 V, CPU 4 mA, TX 0 dBm 6000 µA, RX 1M 6500 µA. */
#ifndef PQPAN_TEST_MESH_ROUND_PROFILE_H
#define PQPAN_TEST_MESH_ROUND_PROFILE_H

#include <string.h>

#include "pqpan/energy.h"

static inline void round_profile(struct pqpan_profile *p)
{
    memset(p, 0, sizeof *p);
    strcpy(p->name, "round");
    p->supply_v = 2.0;
    p->cpu_hz = 64000000u;
    p->cpu_ua = 4000.0;
    p->sleep_ua = 2.0;
    p->hfxo_start_ua = 1000.0;
    p->ble_event.pre_ua = 3000.0;
    p->ble_event.post_ua = 2500.0;
    p->ble_event.ramp_ua[PQPAN_CURRENTS_SYSTEM] = 5000.0;
    p->ble_event.ramp_given[PQPAN_CURRENTS_SYSTEM] = 1;
    p->tx_level_count = 1;
    p->tx_ua[PQPAN_CURRENTS_SYSTEM][0] = 6000.0;
    p->tx_given[PQPAN_CURRENTS_SYSTEM][0] = 1;
    p->rx_ua[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_1M] = 6500.0;
    p->rx_given[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_1M] = 1;
}

#endif
