/* pqpan compare --mesh's run: the mesh table (issue 29 item 4) — for each ML-KEM level, the
 * PQKE across 1..8 hops of 6LoWPAN (chain.c: energy per node and latency), BLE Mesh
 * provisioning over PB-ADV and PB-GATT (mesh_model.c) and the PQKE between two mesh nodes
 * 1..8 hops apart (mesh_net_model.c, one relay per stage), one MESH_CELL row each (moved
 * from cli/compare_mesh.c; cli/compare.c prints the rows). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "mesh_model.h"
#include "run_compare.h"
#include "run_internal.h"

#define MESH_HOPS_MAX 8u
#define N_LEVELS 3
#define N_MESH_CELLS (N_LEVELS * (2u * MESH_HOPS_MAX + 2u))

static const char *const levels[N_LEVELS] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};

/* The message of a model error, as the run's error. */
static int cell_failed(struct run_ctx *r, int rc, const struct cli_msg *msg)
{
    return rc == EXIT_OK ? PQPAN_OK : run_fail(r, rc, NULL, msg->text);
}

static int chain_cell(struct run_ctx *r, struct pqpan_run_mesh_cell *c,
                      const struct model_env *env, const struct lowpan_opts *l, const char *kem,
                      unsigned hops)
{
    static const char *const names[2] = {"802154-reassemble", "802154-fragment"};
    struct lowpan_opts o = *l;
    struct lowpan_chain_summary s;
    struct cli_msg msg;
    int rc;
    o.kem = kem;
    o.hops = (int)hops;
    memset(&s, 0, sizeof s);
    rc = lowpan_chain_summarize(&s, env, &o, &msg);
    c->kem = kem;
    c->network = names[o.forwarding == PQPAN_802154_FWD_FRAGMENT];
    c->hops = hops;
    c->latency_ms = s.latency_ms;
    c->source_uj = s.initiator_uj;
    c->forwarder_max_uj = s.forwarder_uj;
    c->destination_uj = s.responder_uj;
    return cell_failed(r, rc, &msg);
}

/* The cell of the estimate o describes (res: scratch): source = its first row (provisioner
 * or initiator), destination the second, forwarder the row relay_row (< 0: none). */
static int estimate_cell(struct run_ctx *r, struct pqpan_run_mesh_cell *c, struct mesh_result *res,
                         const struct model_env *env, const struct mesh_opts *o,
                         const char *network, unsigned hops, int relay_row)
{
    struct cli_msg msg;
    int rc = mesh_estimate(res, env, o, &msg);
    c->kem = o->kem;
    c->network = network;
    c->hops = hops;
    c->latency_ms = res->rows[0].latency_ms;
    c->source_uj = res->rows[0].e_total_uj;
    c->forwarder_max_uj = relay_row >= 0 ? res->rows[relay_row].e_total_uj : -1.0;
    c->destination_uj = res->rows[1].e_total_uj;
    return cell_failed(r, rc, &msg);
}

static int prov_cell(struct run_ctx *r, struct pqpan_run_mesh_cell *c, struct mesh_result *res,
                     const struct model_env *env, const char *kem, int bearer)
{
    struct mesh_opts o;
    mesh_opts_init(&o);
    o.kem = kem;
    o.bearer = bearer;
    return estimate_cell(r, c, res, env, &o,
                         bearer == MESH_BEARER_PB_GATT ? "ble-mesh-pb-gatt" : "ble-mesh-pb-adv", 1,
                         -1);
}

/* The PQKE between two mesh nodes hops apart (--bearer network defaults, one relay per
 * stage, the TTL raised to reach them): forwarder = one relay. */
static int net_cell(struct run_ctx *r, struct pqpan_run_mesh_cell *c, struct mesh_result *res,
                    const struct model_env *env, const char *kem, unsigned hops)
{
    struct mesh_opts o;
    mesh_opts_init(&o);
    o.kem = kem;
    o.bearer = MESH_BEARER_NETWORK;
    o.net.hops = hops;
    o.net.ttl = hops > o.net.ttl ? hops : o.net.ttl;
    return estimate_cell(r, c, res, env, &o, "ble-mesh-network", hops, hops > 1u ? 2 : -1);
}

/* cells[k * (2 MESH_HOPS_MAX + 2) + ...]: level k's chains of 1..8 hops, PB-ADV, PB-GATT,
 * then the mesh network at 1..8 hops. */
static int run_cells(struct run_ctx *r, struct pqpan_run_mesh_cell *cells, size_t *n,
                     const struct model_env *env, const struct lowpan_opts *l)
{
    struct mesh_result *res = malloc(sizeof *res);
    int k, rc = res != NULL ? PQPAN_OK : run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    unsigned h;
    *n = 0;
    for (k = 0; k < N_LEVELS && rc == PQPAN_OK; k++) {
        for (h = 1; h <= MESH_HOPS_MAX && rc == PQPAN_OK; h++) {
            rc = chain_cell(r, &cells[(*n)++], env, l, levels[k], h);
        }
        if (rc == PQPAN_OK) {
            rc = prov_cell(r, &cells[(*n)++], res, env, levels[k], MESH_BEARER_PB_ADV);
        }
        if (rc == PQPAN_OK) {
            rc = prov_cell(r, &cells[(*n)++], res, env, levels[k], MESH_BEARER_PB_GATT);
        }
        for (h = 1; h <= MESH_HOPS_MAX && rc == PQPAN_OK; h++) {
            rc = net_cell(r, &cells[(*n)++], res, env, levels[k], h);
        }
    }
    free(res);
    return rc;
}

#define MCELL(m) offsetof(struct pqpan_run_mesh_cell, m)
static const struct pqpan_run_field mesh_fields[] = {
    {"kem", "KEM", NULL, 0, PQPAN_RUN_STORE_TEXT, MCELL(kem), 0},
    {"network", "network", NULL, 0, PQPAN_RUN_STORE_TEXT, MCELL(network), 0},
    {"hops", "hops", NULL, 0, PQPAN_RUN_STORE_UINT, MCELL(hops), 0},
    {"latency_ms", "latency ms", "ms", 0, PQPAN_RUN_STORE_REAL, MCELL(latency_ms), 3},
    {"source_uj", "source uJ", "uJ", 0, PQPAN_RUN_STORE_REAL, MCELL(source_uj), 3},
    {"forwarder_max_uj", "forwarder uJ", "uJ", 0, PQPAN_RUN_STORE_OPT_REAL,
     MCELL(forwarder_max_uj), 3},
    {"destination_uj", "destination uJ", "uJ", 0, PQPAN_RUN_STORE_REAL, MCELL(destination_uj),
     3},
};
#define N_MESH_FIELDS (sizeof mesh_fields / sizeof mesh_fields[0])

const struct pqpan_run_field *pqpan_run_compare_mesh_fields(size_t *n)
{
    *n = N_MESH_FIELDS;
    return mesh_fields;
}

static void table_notes(FILE *f, const void *arg)
{
    (void)arg;
    fprintf(f, "pqpan compare --mesh: energy per node (all states, every radio and CPU state of "
               "the node) and latency\n  802154-*: pqpan's PQKE across a chain of H hops "
               "(docs/MODEL.md \"Multi-hop 6LoWPAN\"): source =\n  initiator, forwarder = the "
               "busiest forwarder, destination = responder;\n  ble-mesh-*: provisioning "
               "(docs/MODEL.md \"Mesh provisioning\", estimate --link ble-mesh defaults):\n"
               "  source = provisioner, destination = device;\n  ble-mesh-network: pqpan's PQKE "
               "between two mesh nodes H hops apart (\"Keys between mesh nodes\",\n  --bearer "
               "network defaults, one relay per stage): forwarder = one relay\n\n");
}

static void json_notes(FILE *f, const void *arg)
{
    (void)arg;
    fprintf(f, "  \"table\": \"mesh\",\n  \"energy_accounting\": \"all-states\",\n");
}

int run_compare_mesh(struct run_ctx *r, const struct compare_opts *o,
                     const struct model_env *env)
{
    struct pqpan_run_mesh_cell cells[N_MESH_CELLS];
    size_t i, n;
    int rc = run_cells(r, cells, &n, env, &o->l);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, NULL);
    }
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, NULL);
    }
    for (i = 0; i < n && rc == PQPAN_OK; i++) {
        rc = run_record(r, PQPAN_RUN_RECORD_MESH_CELL, PQPAN_RUN_LINK_BLE, mesh_fields,
                        N_MESH_FIELDS, &cells[i]);
    }
    return rc;
}
