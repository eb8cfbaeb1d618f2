/* estimate / simulate --link 802154 --hops H (H > 1): the PQKE across a chain of 802.15.4
 * hops (include/pqpan/multihop154.h), energy per node (events accounting) and latency. */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "lowpan_model.h"
#include "pqpan/multihop154.h"

static const char *const msg_names[PQPAN_802154_MESSAGES] = {"INIT", "RESP", "FIN", "REVEAL"};

static int chain_setup(struct pqpan_802154_chain_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                       const struct model_env *env, const struct lowpan_opts *o,
                       struct cli_msg *msg)
{
    int rc;
    memset(c, 0, sizeof *c);
    rc = lowpan_setup(&c->exch, cycles, env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (!c->exch.rx_always_on || !c->exch.backoff_rx) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "--hops %d needs --idle listen and --backoff listen: forwarders are "
                           "always-on routers (docs/MODEL.md \"Multi-hop 6LoWPAN\")",
                           o->hops);
    }
    c->hops = (uint8_t)o->hops;
    c->forwarding = (uint8_t)o->forwarding;
    return EXIT_OK;
}

static const char *role(unsigned n, unsigned hops)
{
    return n == 0 ? "initiator" : n == hops ? "responder" : "forwarder";
}

static void print_head(const char *cmd, const struct model_env *env, const struct lowpan_opts *o,
                       const struct pqpan_802154_chain_config *c)
{
    printf("pqpan %s: %s (pqpan protocol) across %u hops of 6LoWPAN / IEEE 802.15.4 (250 kb/s),\n"
           "  %s, %s addresses, CSMA-CA %s\n",
           cmd, o->kem, (unsigned)c->hops,
           c->forwarding == PQPAN_802154_FWD_FRAGMENT ? "fragment forwarding (RFC 8930)"
                                                      : "per-hop reassembly (RFC 4944)",
           o->short_addr ? "short" : "extended", o->contiki ? "contiki" : "ieee");
    printf("  assumptions: a chain of %u nodes (node k hears nodes k - 1 and k + 1 only), RPL "
           "route-over\n  (RFC 6550) with the DODAG formed, forwarders always-on routers, no "
           "other traffic; a node\n  starts its next unit (%s) once the one before is 3 hops "
           "on;\n  every hop carries the single-link frames (docs/MODEL.md \"Multi-hop "
           "6LoWPAN\")\n",
           (unsigned)c->hops + 1u,
           c->forwarding == PQPAN_802154_FWD_FRAGMENT ? "a fragment" : "an IPv6 packet");
    lowpan_print_exchange_line(stdout, env, o, "  ");
    printf("  energy: all-states accounting (every radio state, idle listening included; no "
           "gamma)\n");
}

/* Energy of each node's ledger (events accounting) into uj[], comm[]. */
static int node_energy(double *uj, double *comm, const struct model_env *env,
                       const struct pqpan_ledger *l, unsigned nodes, struct cli_msg *msg)
{
    struct pqpan_run_exchange_row r;
    unsigned n;
    int rc = EXIT_OK;
    for (n = 0; n < nodes && rc == EXIT_OK; n++) {
        rc = model_fill_side(&r, env, PQPAN_RADIO_IEEE802154, &l[n], &l[n], msg);
        uj[n] = r.e_total_events_uj;
        comm[n] = r.e_comm_events_uj;
    }
    return rc;
}

static void print_nodes(const double *uj, const double *comm, const struct pqpan_ledger *l,
                        unsigned hops, enum cli_format format)
{
    unsigned n;
    if (format == FORMAT_CSV) {
        printf("node,role,e_total_events_uj,e_comm_events_uj,t_tx_ms,t_rx_ms\n");
    } else {
        printf("\nnode  role        e_total_events_uj  e_comm_events_uj   t_tx_ms   t_rx_ms\n");
    }
    for (n = 0; n <= hops; n++) {
        double tx = (double)pqpan_ledger_state_ns(&l[n], PQPAN_STATE_TX) * 1e-6;
        double rx = (double)pqpan_ledger_state_ns(&l[n], PQPAN_STATE_RX) * 1e-6;
        printf(format == FORMAT_CSV ? "%u,%s,%.3f,%.3f,%.3f,%.3f\n"
                                    : "%4u  %-10s  %17.3f  %16.3f  %8.3f  %8.3f\n",
               n, role(n, hops), uj[n], comm[n], tx, rx);
    }
}

int lowpan_chain_estimate(const struct model_env *env, const struct lowpan_opts *o,
                          enum cli_format format)
{
    static struct pqpan_802154_chain_estimate e;
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    double uj[PQPAN_802154_CHAIN_NODES], comm[PQPAN_802154_CHAIN_NODES];
    struct cli_msg msg;
    unsigned m;
    int rc = cli_msg_report("estimate", chain_setup(&c, cycles, env, o, &msg), &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_chain_estimate(&e, &c, cycles) != PQPAN_OK) {
        return cli_usage_error("estimate", "802.15.4 chain configuration out of range");
    }
    rc = cli_msg_report("estimate", node_energy(uj, comm, env, e.ledger, c.hops + 1u, &msg), &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (format != FORMAT_CSV) {
        print_head("estimate", env, o, &c);
        for (m = 0; m < PQPAN_802154_MESSAGES; m++) {
            if (e.frames[m] != 0) {
                printf("  %s: %u octets, %u frames per hop, transfer %.3f ms (%.3f ms per hop)\n",
                       msg_names[m], (unsigned)c.exch.msg_octets[m], (unsigned)e.frames[m],
                       (double)e.transfer_ns[m] * 1e-6,
                       (double)e.transfer_ns[m] * 1e-6 / (double)c.hops);
            }
        }
        printf("  latency %.3f ms; P(every frame gets the channel) %.6f\n",
               (double)e.latency_ns * 1e-6, e.p_success);
    }
    print_nodes(uj, comm, e.ledger, c.hops, format);
    return EXIT_OK;
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
        rc = cli_msg_report("simulate", node_energy(u, k, env, r.ledger, c.hops + 1u, &msg), &msg);
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
    print_head("simulate", env, o, &c);
    printf("  %u runs, seeds %llu..%llu (drawn CSMA-CA backoffs, carrier sense on the chain); "
           "collisions and busy CCAs %u\n  latency mean %.3f ms\n",
           runs, (unsigned long long)seed, (unsigned long long)(seed + runs - 1u), collisions, lat);
    print_nodes(uj, comm, mean, c.hops, FORMAT_TABLE);
    printf("  (t_tx_ms, t_rx_ms: the last run)\n");
    return EXIT_OK;
}

int lowpan_chain_summarize(struct lowpan_chain_summary *s, const struct model_env *env,
                           const struct lowpan_opts *o, struct cli_msg *msg)
{
    static struct pqpan_802154_chain_estimate e;
    struct pqpan_802154_chain_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    double uj[PQPAN_802154_CHAIN_NODES], comm[PQPAN_802154_CHAIN_NODES];
    unsigned n;
    int rc = chain_setup(&c, cycles, env, o, msg);
    memset(s, 0, sizeof *s);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_chain_estimate(&e, &c, cycles) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "802.15.4 chain configuration out of range");
    }
    rc = node_energy(uj, comm, env, e.ledger, c.hops + 1u, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    s->hops = c.hops;
    s->latency_ms = (double)e.latency_ns * 1e-6;
    s->initiator_uj = uj[0];
    s->responder_uj = uj[c.hops];
    s->forwarder_uj = -1.0;
    for (n = 1; n < c.hops; n++) {
        if (uj[n] > s->forwarder_uj) {
            s->forwarder_uj = uj[n];
        }
    }
    return EXIT_OK;
}
