/* A sweep configuration's columns after its sides (run_sweep.h, the SWEEP_EXTRA record):
 * with --per the Monte Carlo of the BLE packet simulator (moved from cli/sweep_row.c),
 * with --hops or --forwarding on 802.15.4 the chain's summary (chain.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ble_sim.h"
#include "lowpan_sim.h"
#include "run_sweep.h"

#define X(m) offsetof(struct pqpan_run_sweep_extra, m)
#define RUN_S(s) PQPAN_RUN_STORE_##s

/* Mean, p50, p90, p99 of member m, named PRE<stat>POST. */
#define STATS(pre, post, label, unit, m)                                                     \
    {pre "mean" post, label ", mean", unit, 0, RUN_S(REAL), X(m.mean), 3},                   \
    {pre "p50" post, label ", p50", unit, 0, RUN_S(REAL), X(m.p50), 3},                      \
    {pre "p90" post, label ", p90", unit, 0, RUN_S(REAL), X(m.p90), 3},                      \
    {pre "p99" post, label ", p99", unit, 0, RUN_S(REAL), X(m.p99), 3}

/* The chain's columns, the Monte Carlo's settings, then its results: the order of
 * `pqpan sweep --format csv` (--per is BLE only, so its sides are BLE's). */
static const struct pqpan_run_field extra_fields[] = {
    {"chain_latency_ms", "chain latency", "ms", 0, RUN_S(REAL), X(chain_latency_ms), 3},
    {"chain_initiator_uj", "initiator, all states", "uJ", 0, RUN_S(REAL), X(chain_initiator_uj), 3},
    {"chain_forwarder_max_uj", "busiest forwarder, all states", "uJ", 0, RUN_S(OPT_REAL),
     X(chain_forwarder_max_uj), 3},
    {"chain_responder_uj", "responder, all states", "uJ", 0, RUN_S(REAL), X(chain_responder_uj), 3},
    {"sim_per", "packet error rate", NULL, 0, RUN_S(TEXT), X(sim_per), 0},
    {"sim_runs", "runs", NULL, 0, RUN_S(ULL), X(sim_runs), 0},
    {"sim_seed", "seed of run 0", NULL, 0, RUN_S(ULL), X(sim_seed), 0},
    {"sim_failed", "failed runs", NULL, 0, RUN_S(ULL), X(sim_failed), 0},
    {"sim_failure_rate", "failure rate", NULL, 0, RUN_S(REAL), X(sim_failure_rate), 6},
    STATS("sim_peripheral_energy_", "_uj", "peripheral energy, events", "uJ", sim_energy_uj[0]),
    STATS("sim_central_energy_", "_uj", "central energy, events", "uJ", sim_energy_uj[1]),
    STATS("sim_total_energy_", "_uj", "total energy, events", "uJ", sim_energy_uj[2]),
    STATS("sim_latency_", "_ms", "latency", "ms", sim_latency_ms),
};
#define N_EXTRA (sizeof extra_fields / sizeof extra_fields[0])
#define N_CHAIN 4u
#define SETTINGS_END (N_CHAIN + 2u) /* sim_per, sim_runs: known in an invalid configuration */

const struct pqpan_run_field *sweep_extra_fields(const struct sweep_cfg *cfg, size_t *n)
{
    size_t first = cfg->chain ? 0 : N_CHAIN;
    size_t end = cfg->per ? N_EXTRA : cfg->chain ? N_CHAIN : 0;
    *n = end > first ? end - first : 0;
    return extra_fields + first;
}

int sweep_extra_setting(const struct pqpan_run_field *f)
{
    return f >= extra_fields + N_CHAIN && f < extra_fields + SETTINGS_END;
}

/* ---- the Monte Carlo (--per) ---- */

struct sweep_sim {
    struct pqpan_sim sim;
    struct ble_sim_apps apps;
    unsigned runs;
    double *samples; /* (MODEL_SIDES + 1) x runs */
};

struct sweep_sim *sweep_sim_new(unsigned runs)
{
    struct sweep_sim *s = malloc(sizeof *s);
    if (s == NULL) {
        return NULL;
    }
    s->runs = runs;
    s->samples = malloc((MODEL_SIDES + 1u) * runs * sizeof *s->samples);
    if (s->samples == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

void sweep_sim_free(struct sweep_sim *s)
{
    if (s != NULL) {
        free(s->samples);
        free(s);
    }
}

static void stats_of(struct pqpan_run_sweep_stats *out, double *v, unsigned n)
{
    struct lowpan_stats st;
    lowpan_stats_of(&st, v, n);
    out->mean = st.mean;
    out->p50 = st.p50;
    out->p90 = st.p90;
    out->p99 = st.p99;
}

int sweep_sim_run(struct pqpan_run_sweep_extra *x, struct sweep_sim *s,
                  const struct model_env *env, const struct link_opts *l, double per,
                  unsigned long long seed, struct cli_msg *status)
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct ble_sim_opts so;
    struct ble_sim_keys keys;
    double *lat = s->samples + (size_t)MODEL_SIDES * s->runs;
    unsigned run;
    int side, rc = EXIT_OK;
    ble_sim_opts_init(&so);
    so.per = per;
    x->sim_failed = 0;
    x->sim_seed = seed;
    for (run = 0; run < s->runs && rc == EXIT_OK; run++) {
        so.seed = seed + run;
        rc = ble_sim_run(&s->sim, &s->apps, &keys, env, l, &so, NULL, NULL, status);
        if (rc == EXIT_OK) {
            rc = ble_sim_rows(rows, env, l->kem, &s->sim, status);
        }
        for (side = 0; side < MODEL_SIDES && rc == EXIT_OK; side++) {
            s->samples[(size_t)side * s->runs + run] = rows[side].e_total_events_uj;
        }
        lat[run] = (double)s->sim.res.latency_ns * 1e-6;
        x->sim_failed += !ble_sim_succeeded(&s->sim, &keys);
    }
    for (side = 0; side < MODEL_SIDES && rc == EXIT_OK; side++) {
        stats_of(&x->sim_energy_uj[side], s->samples + (size_t)side * s->runs, s->runs);
    }
    if (rc == EXIT_OK) {
        stats_of(&x->sim_latency_ms, lat, s->runs);
        x->sim_failure_rate = (double)x->sim_failed / s->runs;
    }
    return rc;
}
