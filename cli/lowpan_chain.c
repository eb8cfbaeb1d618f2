/* simulate --link 802154 --hops H (H > 1): the chain simulator's runs (include/pqpan/
 * multihop154.h), energy per node (events accounting) and mean latency, printed; the chain's
 * configuration and energy are the run layer's (src/run/chain.h). */
#include <stdio.h>
#include <string.h>

#include "chain.h"
#include "commands.h"
#include "lowpan_model.h"

static void print_nodes(const double *uj, const double *comm, const struct pqpan_ledger *l,
                        unsigned hops)
{
    unsigned n;
    printf("\nnode  role        e_total_events_uj  e_comm_events_uj   t_tx_ms   t_rx_ms\n");
    for (n = 0; n <= hops; n++) {
        double tx = (double)pqpan_ledger_state_ns(&l[n], PQPAN_STATE_TX) * 1e-6;
        double rx = (double)pqpan_ledger_state_ns(&l[n], PQPAN_STATE_RX) * 1e-6;
        printf("%4u  %-10s  %17.3f  %16.3f  %8.3f  %8.3f\n", n, chain_role(n, hops), uj[n],
               comm[n], tx, rx);
    }
}

int lowpan_chain_simulate(const struct model_env *env, const struct lowpan_opts *o, unsigned runs,
                          uint64_t seed)
{
    static struct pqpan_802154_chain_sim_result r;
    static struct pqpan_ledger mean[PQPAN_802154_CHAIN_NODES];
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    double uj[PQPAN_802154_CHAIN_NODES], comm[PQPAN_802154_CHAIN_NODES];
    double u[PQPAN_802154_CHAIN_NODES], k[PQPAN_802154_CHAIN_NODES], lat = 0;
    unsigned i, n, collisions = 0;
    struct cli_msg msg;
    int rc = cli_msg_report("simulate", chain_setup(&c, cycles, env, o, &msg), &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    memset(uj, 0, sizeof uj);
    memset(comm, 0, sizeof comm);
    for (i = 0; i < runs; i++) {
        if (pqpan_802154_chain_simulate(&r, &c, cycles, seed + i) != PQPAN_OK) {
            return cli_usage_error("simulate", "802.15.4 chain configuration out of range");
        }
        rc = cli_msg_report("simulate", chain_node_energy(u, k, env, r.ledger, c.hops + 1u, &msg),
                            &msg);
        if (rc != EXIT_OK) {
            return rc;
        }
        for (n = 0; n <= c.hops; n++) {
            uj[n] += u[n] / runs;
            comm[n] += k[n] / runs;
            mean[n] = r.ledger[n];
        }
        lat += (double)r.latency_ns * 1e-6 / runs;
        collisions += r.collisions + r.cca_busy;
    }
    chain_print_head(stdout, "simulate", env, o, &c);
    printf("  %u runs, seeds %llu..%llu (drawn CSMA-CA backoffs, carrier sense on the chain); "
           "collisions and busy CCAs %u\n  latency mean %.3f ms\n",
           runs, (unsigned long long)seed, (unsigned long long)(seed + runs - 1u), collisions, lat);
    print_nodes(uj, comm, mean, c.hops);
    printf("  (t_tx_ms, t_rx_ms: the last run)\n");
    return EXIT_OK;
}
