/* pqpan compare --mesh's run: the mesh table (issue 29 item 4) — for each ML-KEM level, the
 * PQKE across 1..8 hops of 6LoWPAN (chain.c: energy per node and latency) and BLE Mesh
 * provisioning over PB-ADV and PB-GATT (mesh_model.c), one MESH_CELL row each (moved from
 * cli/compare_mesh.c; cli/compare.c prints the rows). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "mesh_model.h"
#include "run_compare.h"
#include "run_internal.h"

#define MESH_HOPS_MAX 8u
#define N_LEVELS 3
#define N_MESH_CELLS (N_LEVELS * (MESH_HOPS_MAX + 2u))

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

/* res: scratch for the provisioning's figures. */
static int prov_cell(struct run_ctx *r, struct pqpan_run_mesh_cell *c, struct mesh_result *res,
                     const struct model_env *env, const char *kem, int bearer)
{
    struct mesh_opts o;
    struct cli_msg msg;
    int rc;
    mesh_opts_init(&o);
    o.kem = kem;
    o.bearer = bearer;
    rc = mesh_estimate(res, env, &o, &msg);
    c->kem = kem;
    c->network = bearer == MESH_BEARER_PB_GATT ? "ble-mesh-pb-gatt" : "ble-mesh-pb-adv";
    c->hops = 1;
    c->latency_ms = res->rows[MESH_PROVISIONER].latency_ms;
    c->source_uj = res->rows[MESH_PROVISIONER].e_total_uj;
    c->forwarder_max_uj = -1.0;
    c->destination_uj = res->rows[MESH_DEVICE].e_total_uj;
    return cell_failed(r, rc, &msg);
}

/* cells[k * (MESH_HOPS_MAX + 2) + ...]: level k's chains of 1..8 hops, then PB-ADV and
 * PB-GATT. */
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
               "  source = provisioner, destination = device\n\n");
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
