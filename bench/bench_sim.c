/* Simulated link-layer packets per second on one core (DESIGN.md "Performance": target
 * ≥ 5 million): repeated zero-loss exchanges of the synthetic application's ML-KEM-768
 * sized messages, every packet built, CRC-24 computed and checked, acknowledged and
 * reassembled. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

#include "pqpan/sim.h"

/* CPU time of this process (one thread): the rate on one core even when the machine is
 * shared; wall time is printed beside it. */
static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int one_run(struct pqpan_sim *s, const struct pqpan_sim_config *c, uint64_t *packets)
{
    struct pqpan_sim_synth a;
    int rc = pqpan_sim_init(s, c);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_sim_synth_init(&a, c->ble.ek_bytes, c->ble.ct_bytes, c->ble.keygen_side);
    rc = pqpan_sim_run(s, pqpan_sim_synth_app(), &a, NULL, NULL);
    *packets += s->res.ledger[0].pdus_tx + s->res.ledger[1].pdus_tx;
    return rc;
}

int main(void)
{
    static struct pqpan_sim s;
    struct pqpan_sim_config c;
    uint64_t packets = 0;
    double t0, w0, dt, wall;
    int runs = 0;
    pqpan_sim_config_default(&c);
    c.dev.cpu_hz = 64000000u;
    c.ble.server_transfer = PQPAN_BLE_NOTIFY;
    c.ble.client_transfer = PQPAN_BLE_WRITE_CMD;
    c.ble.att_mtu = 247u;
    c.ble.ll_octets = 27u;
    t0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    w0 = clock_s(CLOCK_MONOTONIC);
    do {
        if (one_run(&s, &c, &packets) != PQPAN_OK) {
            fprintf(stderr, "bench_sim: run failed: %s\n", pqpan_strerror(s.res.status));
            return 1;
        }
        runs++;
        dt = clock_s(CLOCK_PROCESS_CPUTIME_ID) - t0;
    } while (dt < 1.0);
    wall = clock_s(CLOCK_MONOTONIC) - w0;
    printf("simulator: %d exchanges, %llu LL packets in %.3f s CPU (%.3f s wall): "
           "%.2f million packets/s per core (target >= 5)\n",
           runs, (unsigned long long)packets, dt, wall, (double)packets / dt * 1e-6);
    return 0;
}
