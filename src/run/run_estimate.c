/* The run of `pqpan estimate` over BLE (pqpan_run "estimate", run.h): the request's options
 * checked against estimate's tables (the energy options, --protocol, the BLE link and its
 * set-up, --auth / --sig / --hybrid, --format), one configuration run through the analytic
 * link model (model_run), then the notes (the assumptions block, as lines and as JSON
 * members) and the three sides (peripheral, central, total) as rows. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "link.h"
#include "notes.h"
#include "run_estimate.h"
#include "run_internal.h"

/* --protocol words, in enum pqpan_ble_protocol order. */
static const char *const protocol_words[] = {"study", "pqpan", NULL};

_Static_assert(sizeof(enum pqpan_ble_protocol) == sizeof(int), "--protocol is stored as an int");

static const struct cli_opt protocol_rows[] = {
    {.name = "--protocol", .kind = CLI_OPT_WORD, .words = protocol_words,
     .def = PQPAN_DEFAULT_PROTOCOL,
     .store = CLI_STORE_INT, .offset = offsetof(struct link_opts, cfg.protocol),
     .help = "pqpan: pqpan's INIT / RESP / FIN with nonces, key schedule (KDF on both sides) "
             "and key confirmation (simulate: real ML-KEM, randomness from --seed); study: raw "
             "ek and ct as in the study's prototype, no KDF, no confirmation (what `pqpan "
             "reproduce` runs)"},
};

static void link_init(void *o)
{
    link_opts_init(o);
}

const struct cli_opt_table estimate_protocol_table =
    CLI_OPT_TABLE("estimate-protocol", "protocol", protocol_rows, struct link_opts, link_init);

struct estimate_req {
    struct model_opts m;
    struct link_opts l;
    int pqke_given; /* an --auth, --sig or --hybrid: copied into l.cfg */
};

/* estimate's BLE tables, in the order the CLI tries them (energy options first). */
static const struct cli_opt_table *const ble_tables[] = {
    &model_energy_table, &model_ramp_table,        &model_crypto_table,
    &model_gamma_table,  &cli_format_table,        &estimate_protocol_table,
    &link_pqke_table,    &link_opts_table,         &link_setup_table};
#define N_BLE_TABLES (sizeof ble_tables / sizeof ble_tables[0])

/* Where the options of table t are stored in q. */
static void *base_of(struct estimate_req *q, const struct cli_opt_table *t)
{
    if (t == &cli_format_table) {
        return &q->m.format;
    }
    if (t == &link_pqke_table) {
        q->pqke_given = 1;
        return &q->l.pqke;
    }
    return t == &estimate_protocol_table || t == &link_opts_table || t == &link_setup_table
               ? (void *)&q->l
               : (void *)&q->m;
}

const struct cli_opt *estimate_ble_opt_find(const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_BLE_TABLES && found == NULL; k++) {
        found = cli_opt_find(ble_tables[k], name);
    }
    return found;
}

static int take(struct run_ctx *r, struct estimate_req *q, const struct pqpan_run_opt *opt)
{
    size_t k;
    for (k = 0; k < N_BLE_TABLES; k++) {
        const struct cli_opt *o = cli_opt_find(ble_tables[k], opt->name);
        if (o != NULL) {
            return run_set(r, o, base_of(q, ble_tables[k]), opt);
        }
    }
    return run_unknown(r, opt->name, ble_tables, N_BLE_TABLES);
}

/* The options, then what they ask together: --auth, --sig and --hybrid need pqpan's
 * protocol and an ML-KEM. */
static int parse(struct run_ctx *r, struct estimate_req *q, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    const struct pqpan_ble_config *c = &q->l.cfg;
    size_t i;
    int rc = PQPAN_OK;
    memset(q, 0, sizeof *q);
    model_opts_init(&q->m);
    link_opts_init(&q->l);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, q, &opts[i])
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (q->pqke_given) {
        q->l.cfg.pqke_mode = q->l.pqke.mode;
        q->l.cfg.pqke_sig = q->l.pqke.sig;
        q->l.cfg.pqke_hybrid = q->l.pqke.hybrid;
    }
    if ((c->pqke_mode != PQPAN_PQKE_MODE_NONE || c->pqke_sig != 0 || c->pqke_hybrid) &&
        (c->protocol != PQPAN_BLE_PROTO_PQPAN || strcmp(q->l.kem, MODEL_LESC_NAME) == 0)) {
        return run_fail(r, EXIT_USAGE, "--auth",
                        "--auth, --sig and --hybrid apply to pqpan's protocol: add --protocol "
                        "pqpan (and an ML-KEM --kem)");
    }
    return PQPAN_OK;
}

/* What the notes are rendered from. */
struct estimate_notes {
    const struct estimate_req *q;
    const struct model_env *env;
    const struct pqpan_run_exchange_row *rows;
};

/* The lines a table prints before the rows: the configuration, the exchange, GATT, the
 * assumptions, the set-up and the protocol variant. */
static void table_notes(FILE *f, const void *arg)
{
    const struct estimate_notes *a = arg;
    const struct link_opts *l = &a->q->l;
    const struct pqpan_run_exchange_row *r = &a->rows[0];
    fprintf(f,
            "pqpan estimate: %s (%s protocol) over LE %s, ATT_MTU %u, LL %u octets (%s),\n"
            "  transfer %s, CI %.2f ms, KeyGen+Decaps on the %s, %s link\n",
            r->kem, r->protocol, r->phy, r->att_mtu, r->ll_octets, r->dle ? "DLE" : "no DLE",
            r->transfer, r->ci_ms, r->keygen_side, l->cfg.encrypted ? "encrypted" : "unencrypted");
    model_print_exchange_line(f, "  ", r->protocol, r->auth, MODEL_BLE_IDLE_TEXT);
    link_print_gatt(f, &l->cfg, l->kem, "  ");
    model_print_assumptions(f, a->env, model_radio_of(l->cfg.phy), "  ");
    model_print_setup(f, &l->cfg, "  ");
    if (l->cfg.protocol == PQPAN_BLE_PROTO_PQPAN) {
        model_print_pqke_variant(f, &l->cfg, l->kem, a->env, "  ");
    }
}

/* The same as JSON members. */
static void json_notes(FILE *f, const void *arg)
{
    const struct estimate_notes *a = arg;
    model_print_assumptions_json(f, a->env, model_radio_of(a->q->l.cfg.phy), "  ");
    model_print_setup_json(f, &a->q->l.cfg, "  ");
}

unsigned estimate_sig_group(const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    return (rows[0].sig_sign_source != NULL ? (unsigned)GROUP_SIG : 0u) |
           (rows[0].p256_impl != NULL ? (unsigned)GROUP_LESC : 0u);
}

static int run_ble(struct run_ctx *r, const struct estimate_req *q, const struct model_env *env)
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct estimate_notes notes;
    struct cli_msg msg;
    int rc = model_run(rows, env, q->l.kem, &q->l.cfg, q->l.allow_unbuildable, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    notes.q = q;
    notes.env = env;
    notes.rows = rows;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    return rc != PQPAN_OK ? rc
                          : run_sides(r, PQPAN_RUN_LINK_BLE,
                                      GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL |
                                          estimate_sig_group(rows),
                                      rows);
}

int run_estimate(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct estimate_req *q = malloc(sizeof *q);
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc;
    if (q == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = parse(r, q, opts, n_opts);
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &q->m, &msg);
        rc = load == EXIT_OK ? run_ble(r, q, env) : run_fail(r, load, NULL, msg.text);
    }
    free(env);
    free(q);
    return rc;
}
