/* pqpan compare --mesh: the mesh table (issue 29 item 4) — for each ML-KEM level, the PQKE
 * across 1..8 hops of 6LoWPAN (lowpan_chain.c: energy per node and latency) and BLE Mesh
 * provisioning over PB-ADV and PB-GATT (mesh_model.c), one row each. */
#include <string.h>

#include "lowpan_model.h"
#include "mesh_model.h"
#include "pqpan/multihop154.h"

#define CMD "compare"
#define MESH_HOPS_MAX 8u
#define N_LEVELS 3

static const char *const levels[N_LEVELS] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};

/* One row: a network, a level, a hop count. forwarder_uj < 0: no forwarder. */
struct mesh_cmp_row {
    const char *kem;
    const char *network;
    unsigned hops;
    double latency_ms, source_uj, forwarder_uj, destination_uj;
};

#define ROWS_MAX (N_LEVELS * (MESH_HOPS_MAX + 2u))

static int chain_row(struct mesh_cmp_row *r, const struct model_env *env,
                     const struct lowpan_opts *l, const char *kem, unsigned hops)
{
    static const char *const names[2] = {"802154-reassemble", "802154-fragment"};
    struct lowpan_opts o = *l;
    struct lowpan_chain_summary s;
    struct cli_msg msg;
    int rc;
    o.kem = kem;
    o.hops = (int)hops;
    rc = cli_msg_report(CMD, lowpan_chain_summarize(&s, env, &o, &msg), &msg);
    r->kem = kem;
    r->network = names[o.forwarding == PQPAN_802154_FWD_FRAGMENT];
    r->hops = hops;
    r->latency_ms = s.latency_ms;
    r->source_uj = s.initiator_uj;
    r->forwarder_uj = s.forwarder_uj;
    r->destination_uj = s.responder_uj;
    return rc;
}

static int prov_row(struct mesh_cmp_row *r, const struct model_env *env, const char *kem,
                    int bearer)
{
    static struct mesh_result res;
    struct mesh_opts o;
    struct cli_msg msg;
    int rc;
    mesh_opts_init(&o);
    o.kem = kem;
    o.bearer = bearer;
    rc = cli_msg_report(CMD, mesh_estimate(&res, env, &o, &msg), &msg);
    r->kem = kem;
    r->network = bearer == MESH_BEARER_PB_GATT ? "ble-mesh-pb-gatt" : "ble-mesh-pb-adv";
    r->hops = 1;
    r->latency_ms = res.rows[MESH_PROVISIONER].latency_ms;
    r->source_uj = res.rows[MESH_PROVISIONER].e_total_uj;
    r->forwarder_uj = -1.0;
    r->destination_uj = res.rows[MESH_DEVICE].e_total_uj;
    return rc;
}

static int run_rows(struct mesh_cmp_row *rows, size_t *n, const struct model_env *env,
                    const struct lowpan_opts *l)
{
    int k, rc = EXIT_OK;
    unsigned h;
    *n = 0;
    for (k = 0; k < N_LEVELS && rc == EXIT_OK; k++) {
        for (h = 1; h <= MESH_HOPS_MAX && rc == EXIT_OK; h++) {
            rc = chain_row(&rows[(*n)++], env, l, levels[k], h);
        }
        if (rc == EXIT_OK) {
            rc = prov_row(&rows[(*n)++], env, levels[k], MESH_BEARER_PB_ADV);
        }
        if (rc == EXIT_OK) {
            rc = prov_row(&rows[(*n)++], env, levels[k], MESH_BEARER_PB_GATT);
        }
    }
    return rc;
}

static void print_rows(const struct mesh_cmp_row *rows, size_t n, enum cli_format format)
{
    size_t i;
    if (format == FORMAT_CSV) {
        printf("kem,network,hops,latency_ms,source_uj,forwarder_max_uj,destination_uj\n");
    } else {
        printf("%-12s %-18s %4s %11s %12s %14s %15s\n", "KEM", "network", "hops", "latency ms",
               "source uJ", "forwarder uJ", "destination uJ");
    }
    for (i = 0; i < n; i++) {
        const struct mesh_cmp_row *r = &rows[i];
        if (format == FORMAT_CSV) {
            printf("%s,%s,%u,%.3f,%.3f,", r->kem, r->network, r->hops, r->latency_ms,
                   r->source_uj);
            if (r->forwarder_uj >= 0.0) {
                printf("%.3f", r->forwarder_uj);
            }
            printf(",%.3f\n", r->destination_uj);
            continue;
        }
        printf("%-12s %-18s %4u %11.3f %12.3f ", r->kem, r->network, r->hops, r->latency_ms,
               r->source_uj);
        if (r->forwarder_uj >= 0.0) {
            printf("%14.3f", r->forwarder_uj);
        } else {
            printf("%14s", "-");
        }
        printf(" %15.3f\n", r->destination_uj);
    }
}

static void print_json(const struct mesh_cmp_row *rows, size_t n)
{
    size_t i;
    printf("{\n  \"table\": \"mesh\",\n  \"energy_accounting\": \"all-states\",\n"
           "  \"rows\": [\n");
    for (i = 0; i < n; i++) {
        const struct mesh_cmp_row *r = &rows[i];
        printf("    {\"kem\": \"%s\", \"network\": \"%s\", \"hops\": %u, \"latency_ms\": %.3f, "
               "\"source_uj\": %.3f, \"forwarder_max_uj\": ",
               r->kem, r->network, r->hops, r->latency_ms, r->source_uj);
        if (r->forwarder_uj >= 0.0) {
            printf("%.3f", r->forwarder_uj);
        } else {
            printf("null");
        }
        printf(", \"destination_uj\": %.3f}%s\n", r->destination_uj, i + 1 < n ? "," : "");
    }
    printf("  ]\n}\n");
}

int mesh_compare_print(const struct model_env *env, const struct lowpan_opts *l,
                       enum cli_format format)
{
    struct mesh_cmp_row rows[ROWS_MAX];
    size_t n;
    int rc = run_rows(rows, &n, env, l);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (format == FORMAT_TABLE) {
        printf("pqpan compare --mesh: energy per node (all states, every radio and CPU state of "
               "the node) and latency\n  802154-*: pqpan's PQKE across a chain of H hops "
               "(docs/MODEL.md \"Multi-hop 6LoWPAN\"): source =\n  initiator, forwarder = the "
               "busiest forwarder, destination = responder;\n  ble-mesh-*: provisioning "
               "(docs/MODEL.md \"Mesh provisioning\", estimate --link ble-mesh defaults):\n"
               "  source = provisioner, destination = device\n\n");
    }
    if (format == FORMAT_JSON) {
        print_json(rows, n);
    } else {
        print_rows(rows, n, format);
    }
    return EXIT_OK;
}
