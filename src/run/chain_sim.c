/* simulate --link 802154 --hops H (H > 1) on the run layer (chain.h, chain_simulate_run):
 * the chain simulator's runs (include/pqpan/multihop154.h), energy per node (events
 * accounting) and latency averaged over the runs; the chain's configuration and energy
 * are chain.c's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

/* The runs' results: the means, and the last run (its nodes' times in TX and RX). Two
 * ledgers per node: on the heap, not the caller's stack. */
struct chain_sim {
    struct pqpan_802154_chain_config c;
    struct pqpan_802154_chain_sim_result last;
    double uj[PQPAN_802154_CHAIN_NODES], comm[PQPAN_802154_CHAIN_NODES];
    double latency_ms;   /* mean */
    unsigned collisions; /* collisions and busy CCAs, every run */
    unsigned runs;
    uint64_t seed;
};

/* Runs s->runs seeded runs into *s. A cli.h exit code, message in *msg. */
static int simulate_runs(struct chain_sim *s, const struct model_env *env,
                         const struct lowpan_opts *o, struct cli_msg *msg)
{
    uint64_t cycles[PQPAN_OP_COUNT];
    double u[PQPAN_802154_CHAIN_NODES], k[PQPAN_802154_CHAIN_NODES];
    unsigned i, n;
    int rc = chain_setup(&s->c, cycles, env, o, msg);
    for (i = 0; i < s->runs && rc == EXIT_OK; i++) {
        if (pqpan_802154_chain_simulate(&s->last, &s->c, cycles, s->seed + i) != PQPAN_OK) {
            return cli_msg_set(msg, EXIT_USAGE, "802.15.4 chain configuration out of range");
        }
        rc = chain_node_energy(u, k, env, s->last.ledger, s->c.hops + 1u, msg);
        for (n = 0; n <= s->c.hops && rc == EXIT_OK; n++) {
            s->uj[n] += u[n] / s->runs;
            s->comm[n] += k[n] / s->runs;
        }
        s->latency_ms += (double)s->last.latency_ns * 1e-6 / s->runs;
        s->collisions += s->last.collisions + s->last.cca_busy;
    }
    return rc;
}

/* What the notes are rendered from. */
struct sim_notes {
    const struct model_env *env;
    const struct lowpan_opts *o;
    const struct chain_sim *s;
};

static void table_notes(FILE *f, const void *arg)
{
    const struct sim_notes *a = arg;
    const struct chain_sim *s = a->s;
    chain_print_head(f, "simulate", a->env, a->o, &s->c);
    fprintf(f, "  %u runs, seeds %llu..%llu (drawn CSMA-CA backoffs, carrier sense on the chain); "
               "collisions and busy CCAs %u\n  latency mean %.3f ms\n",
            s->runs, (unsigned long long)s->seed, (unsigned long long)(s->seed + s->runs - 1u),
            s->collisions, s->latency_ms);
}

/* The same as JSON members: the link's assumptions, the accounting, then "chain": the
 * hops, the forwarding, the runs and their means. */
static void json_notes(FILE *f, const void *arg)
{
    const struct sim_notes *a = arg;
    const struct chain_sim *s = a->s;
    fprintf(f, "  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(f, a->env, a->o, "  ");
    fprintf(f, "  \"energy_accounting\": \"all-states\",\n  \"chain\": {\n    \"hops\": %u,\n"
               "    \"forwarding\": \"%s\",\n    \"addr\": \"%s\",\n    \"csma\": \"%s\",\n"
               "    \"runs\": %u,\n    \"seed\": %llu,\n    \"collisions_and_busy_ccas\": %u,\n"
               "    \"latency_mean_ms\": %.3f,\n    \"node_times\": \"the last run\"\n  },\n",
            (unsigned)s->c.hops,
            s->c.forwarding == PQPAN_802154_FWD_FRAGMENT ? "fragment" : "reassemble",
            a->o->short_addr ? "short" : "extended", a->o->contiki ? "contiki" : "ieee", s->runs,
            (unsigned long long)s->seed, s->collisions, s->latency_ms);
}

static void last_run_note(FILE *f, const void *arg)
{
    (void)arg;
    fprintf(f, "  (t_tx_ms, t_rx_ms: the last run)\n");
}

static int rows_of(struct run_ctx *r, const struct chain_sim *s, const struct model_env *env,
                   const struct lowpan_opts *o)
{
    struct sim_notes notes;
    int rc;
    notes.env = env;
    notes.o = o;
    notes.s = s;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    if (rc == PQPAN_OK) {
        rc = chain_emit_nodes(r, s->last.ledger, s->c.hops, s->uj, s->comm);
    }
    return rc == PQPAN_OK ? run_render(r, PQPAN_RUN_RECORD_NOTE, last_run_note, NULL) : rc;
}

int chain_simulate_run(struct run_ctx *r, const struct model_env *env, const struct lowpan_opts *o,
                       unsigned runs, uint64_t seed)
{
    struct chain_sim *s = calloc(1, sizeof *s);
    struct cli_msg msg;
    int rc;
    if (s == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    s->runs = runs;
    s->seed = seed;
    rc = simulate_runs(s, env, o, &msg);
    rc = rc != EXIT_OK ? run_fail(r, rc, NULL, msg.text) : rows_of(r, s, env, o);
    free(s);
    return rc;
}
