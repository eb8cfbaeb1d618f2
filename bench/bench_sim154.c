/* Speed of the 802.15.4 packet simulator (src/sim/net154.c) on one core: seeded runs of
 * the real ML-KEM-768 PQKE (real crypto, every frame built with its FCS, reassembled and
 * checked), with the pair alone (2 nodes) and with 48 background nodes at 10 frames/s of
 * 60 octets (50 nodes). Prints exchanges/s and simulated frames/s (data, ACKs,
 * background) for each. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <time.h>

#include "pqpan/pqke.h"
#include "pqpan/sim154.h"

static struct pqpan_sim154 sim;
static struct pqpan_sim_pqke app;

/* CPU time of this process (one thread): the rate on one core. */
static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int one_run(const struct pqpan_sim154_config *c, uint64_t *frames)
{
    const struct pqpan_sim154_result *r = &sim.res;
    int rc = pqpan_sim_pqke_init(&app, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_NONE, 0,
                                 (enum pqpan_ble_role)c->initiator_side, c->seed);
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_init(&sim, c);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_run(&sim, pqpan_sim_pqke_app(), &app, NULL, NULL);
    }
    *frames += r->bg_frames + r->ledger[0].pdus_tx + r->ledger[1].pdus_tx;
    return rc;
}

static int bench(unsigned nodes, double fps)
{
    struct pqpan_sim154_config c;
    uint64_t frames = 0;
    unsigned runs = 0, failed = 0;
    double t0, dt;
    pqpan_sim154_config_default(&c);
    c.cycles[PQPAN_OP_KEM_KEYGEN] = 640000;
    c.cycles[PQPAN_OP_KEM_ENCAPS] = 768000;
    c.cycles[PQPAN_OP_KEM_DECAPS] = 832000;
    c.cycles[PQPAN_OP_KDF] = 64000;
    c.nodes = nodes;
    c.load_fps = fps;
    t0 = cpu_s();
    do {
        c.seed = 1u + runs;
        if (one_run(&c, &frames) != PQPAN_OK) {
            fprintf(stderr, "bench_sim154: run failed\n");
            return 1;
        }
        failed += sim.res.status != PQPAN_OK;
        runs++;
        dt = cpu_s() - t0;
    } while (dt < 1.0);
    printf("802.15.4 simulator, %3u nodes at %4.1f frames/s: %u exchanges (%u failed) in %.3f s "
           "CPU: %.0f exchanges/s, %.2f million frames/s per core\n",
           nodes, fps, runs, failed, dt, (double)runs / dt, (double)frames / dt * 1e-6);
    return 0;
}

int main(void)
{
    int rc = bench(2, 0.0);
    if (rc == 0) {
        rc = bench(50, 10.0);
    }
    pqpan_sim_pqke_wipe(&app);
    return rc;
}
