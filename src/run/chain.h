/* Private to the run layer and its faces: the PQKE across a chain of 802.15.4 hops
 * (--hops H > 1; include/pqpan/multihop154.h) as a run prices it: the chain's configuration
 * from the 802.15.4 options, each node's energy (events accounting), the lines that say
 * what the chain assumes, the estimate's rows (run_estimate.c) and its summary (sweep,
 * compare --mesh); the contention simulator's runs (chain_sim.c, simulate --hops H). */
#ifndef PQPAN_RUN_CHAIN_H
#define PQPAN_RUN_CHAIN_H

#include <stdio.h>

#include "lowpan.h"
#include "pqpan/multihop154.h"
#include "run_internal.h"

/* The chain's configuration and crypto cycles from o (its 802.15.4 exchange, the hops and
 * the forwarding). EXIT_USAGE (message in *msg) when o lets a radio sleep: forwarders are
 * always-on routers. A cli.h exit code. */
int chain_setup(struct pqpan_802154_chain_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                const struct model_env *env, const struct lowpan_opts *o, struct cli_msg *msg);

/* "initiator", "forwarder" or "responder": node n of a chain of hops hops. */
const char *chain_role(unsigned n, unsigned hops);

/* The energy (events accounting, uJ) of each node's ledger l[0..nodes) into uj[] and its
 * communication part into comm[]. A cli.h exit code, message in *msg. */
int chain_node_energy(double *uj, double *comm, const struct model_env *env,
                      const struct pqpan_ledger *l, unsigned nodes, struct cli_msg *msg);

/* The lines that open a chain's output: the link, the chain's assumptions, the exchange and
 * the accounting (cmd: "estimate" or "simulate"). */
void chain_print_head(FILE *f, const char *cmd, const struct model_env *env,
                      const struct lowpan_opts *o, const struct pqpan_802154_chain_config *c);

/* One NODE row per node of a chain of hops hops, initiator first: node n's energy uj[n]
 * (events accounting) and radio part comm[n], its times in TX and RX from ledger[n].
 * PQPAN_OK or the error. */
int chain_emit_nodes(struct run_ctx *r, const struct pqpan_ledger *ledger, unsigned hops,
                     const double *uj, const double *comm);

/* pqpan_run "simulate" with --link 802154 --hops H > 1: runs seeded runs of the chain's
 * contention simulator (seeds seed .. seed + runs - 1); the notes (table lines before the
 * nodes, JSON members), one NODE row per node (energy averaged over the runs, times in TX
 * and RX of the last run), then a NOTE saying so. PQPAN_OK or the error. */
int chain_simulate_run(struct run_ctx *r, const struct model_env *env, const struct lowpan_opts *o,
                       unsigned runs, uint64_t seed);

/* pqpan_run "estimate" with --link 802154 --hops H > 1: the notes (table lines, JSON
 * members) and one NODE row per node, initiator first. PQPAN_OK or the error. */
int chain_estimate_run(struct run_ctx *r, const struct model_env *env, const struct lowpan_opts *o);

/* The chain's estimate in a few numbers (sweep, compare, make run): latency and the energy
 * (all-states accounting) of the initiator, the busiest forwarder (< 0: none, one hop) and
 * the responder. A cli.h exit code, message in *msg. */
struct lowpan_chain_summary {
    unsigned hops;
    double latency_ms;
    double initiator_uj, forwarder_uj, responder_uj;
};
int lowpan_chain_summarize(struct lowpan_chain_summary *s, const struct model_env *env,
                           const struct lowpan_opts *o, struct cli_msg *msg);

#endif
