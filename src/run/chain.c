/* The PQKE across a chain of 802.15.4 hops as a run prices it (chain.h): estimate --link
 * 802154 --hops H (H > 1), energy per node (events accounting) and latency. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"

static const char *const msg_names[PQPAN_802154_MESSAGES] = {"INIT", "RESP", "FIN", "REVEAL"};

int chain_setup(struct pqpan_802154_chain_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                const struct model_env *env, const struct lowpan_opts *o, struct cli_msg *msg)
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

const char *chain_role(unsigned n, unsigned hops)
{
    return n == 0 ? "initiator" : n == hops ? "responder" : "forwarder";
}

static const char *forwarding_text(const struct pqpan_802154_chain_config *c)
{
    return c->forwarding == PQPAN_802154_FWD_FRAGMENT ? "fragment forwarding (RFC 8930)"
                                                      : "per-hop reassembly (RFC 4944)";
}

void chain_print_head(FILE *f, const char *cmd, const struct model_env *env,
                      const struct lowpan_opts *o, const struct pqpan_802154_chain_config *c)
{
    fprintf(f, "pqpan %s: %s (pqpan protocol) across %u hops of 6LoWPAN / IEEE 802.15.4 (250 kb/s),\n"
               "  %s, %s addresses, CSMA-CA %s\n",
            cmd, o->kem, (unsigned)c->hops, forwarding_text(c), o->short_addr ? "short" : "extended",
            o->contiki ? "contiki" : "ieee");
    fprintf(f, "  assumptions: a chain of %u nodes (node k hears nodes k - 1 and k + 1 only), RPL "
               "route-over\n  (RFC 6550) with the DODAG formed, forwarders always-on routers, no "
               "other traffic; a node\n  starts its next unit (%s) once the one before is 3 hops "
               "on;\n  every hop carries the single-link frames (docs/MODEL.md \"Multi-hop "
               "6LoWPAN\")\n",
            (unsigned)c->hops + 1u,
            c->forwarding == PQPAN_802154_FWD_FRAGMENT ? "a fragment" : "an IPv6 packet");
    lowpan_print_exchange_line(f, env, o, "  ");
    fprintf(f, "  energy: all-states accounting (every radio state, idle listening included; no "
               "gamma)\n");
}

int chain_node_energy(double *uj, double *comm, const struct model_env *env,
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

/* The chain's estimate and each node's energy. A cli.h exit code, message in *msg. */
static int chain_estimate(struct pqpan_802154_chain_estimate *e,
                          struct pqpan_802154_chain_config *c, double *uj, double *comm,
                          const struct model_env *env, const struct lowpan_opts *o,
                          struct cli_msg *msg)
{
    uint64_t cycles[PQPAN_OP_COUNT];
    int rc = chain_setup(c, cycles, env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_chain_estimate(e, c, cycles) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "802.15.4 chain configuration out of range");
    }
    return chain_node_energy(uj, comm, env, e->ledger, c->hops + 1u, msg);
}

/* What the notes are rendered from. */
struct chain_notes {
    const struct model_env *env;
    const struct lowpan_opts *o;
    const struct pqpan_802154_chain_config *c;
    const struct pqpan_802154_chain_estimate *e;
};

static void table_notes(FILE *f, const void *arg)
{
    const struct chain_notes *a = arg;
    unsigned m;
    chain_print_head(f, "estimate", a->env, a->o, a->c);
    for (m = 0; m < PQPAN_802154_MESSAGES; m++) {
        if (a->e->frames[m] != 0) {
            fprintf(f, "  %s: %u octets, %u frames per hop, transfer %.3f ms (%.3f ms per hop)\n",
                    msg_names[m], (unsigned)a->c->exch.msg_octets[m], (unsigned)a->e->frames[m],
                    (double)a->e->transfer_ns[m] * 1e-6,
                    (double)a->e->transfer_ns[m] * 1e-6 / (double)a->c->hops);
        }
    }
    fprintf(f, "  latency %.3f ms; P(every frame gets the channel) %.6f\n",
            (double)a->e->latency_ns * 1e-6, a->e->p_success);
}

/* The same as JSON members: the link's assumptions, then "chain": the hops, the forwarding,
 * each message per hop and the latency. */
static void json_notes(FILE *f, const void *arg)
{
    const struct chain_notes *a = arg;
    const struct pqpan_802154_chain_estimate *e = a->e;
    unsigned m, first = 1;
    fprintf(f, "  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(f, a->env, a->o, "  ");
    fprintf(f, "  \"e_comm_accounting\": \"events\",\n  \"chain\": {\n    \"hops\": %u,\n"
               "    \"forwarding\": \"%s\",\n    \"addr\": \"%s\",\n    \"csma\": \"%s\",\n"
               "    \"messages\": [",
            (unsigned)a->c->hops,
            a->c->forwarding == PQPAN_802154_FWD_FRAGMENT ? "fragment" : "reassemble",
            a->o->short_addr ? "short" : "extended", a->o->contiki ? "contiki" : "ieee");
    for (m = 0; m < PQPAN_802154_MESSAGES; m++) {
        if (e->frames[m] != 0) {
            fprintf(f, "%s\n      {\"message\": \"%s\", \"octets\": %u, \"frames_per_hop\": %u, "
                       "\"transfer_ms\": %.3f, \"per_hop_ms\": %.3f}",
                    first ? "" : ",", msg_names[m], (unsigned)a->c->exch.msg_octets[m],
                    (unsigned)e->frames[m], (double)e->transfer_ns[m] * 1e-6,
                    (double)e->transfer_ns[m] * 1e-6 / (double)a->c->hops);
            first = 0;
        }
    }
    fprintf(f, "\n    ],\n    \"latency_ms\": %.3f,\n    \"p_success\": %.6f\n  },\n",
            (double)e->latency_ns * 1e-6, e->p_success);
}

#define NODE(m) offsetof(struct pqpan_run_chain_node, m)
#define RUN_S(s) PQPAN_RUN_STORE_##s

/* A node's fields (its CSV columns, JSON keys and table columns). */
static const struct pqpan_run_field node_fields[] = {
    {"node", "node", NULL, 0, RUN_S(UINT), NODE(node), 0},
    {"role", "role", NULL, 0, RUN_S(TEXT), NODE(role), 0},
    {"e_total_events_uj", "energy, all states (uJ)", "uJ", 0, RUN_S(REAL), NODE(e_total_events_uj), 3},
    {"e_comm_events_uj", "radio energy (uJ)", "uJ", 0, RUN_S(REAL), NODE(e_comm_events_uj), 3},
    {"t_tx_ms", "time in TX (ms)", "ms", 0, RUN_S(REAL), NODE(t_tx_ms), 3},
    {"t_rx_ms", "time in RX (ms)", "ms", 0, RUN_S(REAL), NODE(t_rx_ms), 3},
};
#define N_NODE_FIELDS (sizeof node_fields / sizeof node_fields[0])

int chain_emit_nodes(struct run_ctx *r, const struct pqpan_ledger *ledger, unsigned hops,
                     const double *uj, const double *comm)
{
    struct pqpan_run_chain_node node;
    unsigned n;
    int rc = PQPAN_OK;
    for (n = 0; n <= hops && rc == PQPAN_OK; n++) {
        node.node = n;
        node.role = chain_role(n, hops);
        node.e_total_events_uj = uj[n];
        node.e_comm_events_uj = comm[n];
        node.t_tx_ms = (double)pqpan_ledger_state_ns(&ledger[n], PQPAN_STATE_TX) * 1e-6;
        node.t_rx_ms = (double)pqpan_ledger_state_ns(&ledger[n], PQPAN_STATE_RX) * 1e-6;
        rc = run_record(r, PQPAN_RUN_RECORD_NODE, PQPAN_RUN_LINK_802154, node_fields,
                        N_NODE_FIELDS, &node);
    }
    return rc;
}

/* The chain's estimate (two ledgers per node: too large for a sweep worker's stack). */
static struct pqpan_802154_chain_estimate *estimate_new(struct cli_msg *msg)
{
    struct pqpan_802154_chain_estimate *e = malloc(sizeof *e);
    if (e == NULL) {
        (void)cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    return e;
}

static int estimate_run(struct run_ctx *r, struct pqpan_802154_chain_estimate *e,
                        const struct model_env *env, const struct lowpan_opts *o)
{
    struct pqpan_802154_chain_config c;
    double uj[PQPAN_802154_CHAIN_NODES], comm[PQPAN_802154_CHAIN_NODES];
    struct chain_notes notes;
    struct cli_msg msg;
    int rc = chain_estimate(e, &c, uj, comm, env, o, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    notes.env = env;
    notes.o = o;
    notes.c = &c;
    notes.e = e;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    return rc != PQPAN_OK ? rc : chain_emit_nodes(r, e->ledger, c.hops, uj, comm);
}

int chain_estimate_run(struct run_ctx *r, const struct model_env *env, const struct lowpan_opts *o)
{
    struct cli_msg msg;
    struct pqpan_802154_chain_estimate *e = estimate_new(&msg);
    int rc = e != NULL ? estimate_run(r, e, env, o) : run_fail(r, EXIT_FAILURE_RUN, NULL, msg.text);
    free(e);
    return rc;
}

static int summarize(struct lowpan_chain_summary *s, struct pqpan_802154_chain_estimate *e,
                     const struct model_env *env, const struct lowpan_opts *o,
                     struct cli_msg *msg)
{
    struct pqpan_802154_chain_config c;
    double uj[PQPAN_802154_CHAIN_NODES], comm[PQPAN_802154_CHAIN_NODES];
    unsigned n;
    int rc = chain_estimate(e, &c, uj, comm, env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    s->hops = c.hops;
    s->latency_ms = (double)e->latency_ns * 1e-6;
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

int lowpan_chain_summarize(struct lowpan_chain_summary *s, const struct model_env *env,
                           const struct lowpan_opts *o, struct cli_msg *msg)
{
    struct pqpan_802154_chain_estimate *e = estimate_new(msg);
    int rc = e != NULL ? summarize(s, e, env, o, msg) : EXIT_FAILURE_RUN;
    if (rc != EXIT_OK) {
        memset(s, 0, sizeof *s);
    }
    free(e);
    return rc;
}
