/* Estimator throughput: configurations evaluated per second on one core (DESIGN.md
 * "Performance": target ≥ 1 million). Sweeps KEM level × PHY × LL octets × transfer
 * method × connection interval × keygen side and runs pqpan_ble_estimate_pqke on each. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

#include "pqpan/ble.h"
#include "pqpan/kem.h"

/* CPU time of this thread: the one-core figure, whatever else the machine runs. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

int main(void)
{
    static const struct pqpan_ble_device dev = {64000000u, 256000u, 40000u, 60000u,
                                                60000u,    50u, 32000u};
    static const uint64_t cycles[PQPAN_OP_COUNT] = {988722, 1138225, 1387984, 0, 327000, 906000};
    static const uint32_t lls[] = {27, 65, 123, 185, 251};
    static const uint64_t cis[] = {7500000u, 15000000u, 30000000u, 50000000u, 100000000u};
    struct pqpan_ble_config cfg;
    struct pqpan_ble_estimate e;
    uint64_t sink = 0, configs = 0;
    double t0, dt;
    int round;

    pqpan_ble_config_default(&cfg);
    cfg.att_mtu = 517;
    t0 = now_s();
    for (round = 0; round < 40; round++) {
        size_t k, p, l, t, c, s;
        for (k = 0; k < PQPAN_KEM_COUNT; k++) {
            const struct pqpan_kem *kem = pqpan_kem_at(k);
            cfg.ek_bytes = (uint32_t)kem->ek_bytes;
            cfg.ct_bytes = (uint32_t)kem->ct_bytes;
            for (p = 0; p < PQPAN_BLE_PHY_COUNT; p++)
                for (l = 0; l < sizeof lls / sizeof lls[0]; l++)
                    for (t = 0; t < PQPAN_BLE_TRANSFER_COUNT; t++)
                        for (c = 0; c < sizeof cis / sizeof cis[0]; c++)
                            for (s = 0; s < 2; s++) {
                                cfg.phy = (enum pqpan_ble_phy)p;
                                cfg.ll_octets = lls[l];
                                cfg.transfer = (enum pqpan_ble_transfer)t;
                                cfg.ci_ns = cis[c];
                                cfg.keygen_side = (enum pqpan_ble_role)s;
                                if (pqpan_ble_estimate_pqke(&e, &cfg, &dev, cycles) == PQPAN_OK) {
                                    sink += e.latency_ns;
                                }
                                configs++;
                            }
        }
    }
    dt = now_s() - t0;
    printf("estimator: %llu configurations in %.3f s of CPU = %.0f configurations/s (one core; target >= 1000000, DESIGN.md)%s\n",
           (unsigned long long)configs, dt, (double)configs / dt,
           sink == 0u ? " [no result]" : "");
    return 0;
}
