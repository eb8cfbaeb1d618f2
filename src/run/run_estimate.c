/* The run of `pqpan estimate` (pqpan_run "estimate", run.h): the request's options checked
 * against estimate's tables (the energy options, --format, --auth / --sig / --hybrid, and
 * the link's: BLE's --protocol, link and set-up, or with --link 802154 the 802.15.4 link's),
 * one configuration run through the analytic link model (model_run, lowpan_estimate), then
 * the notes (the assumptions block, as lines and as JSON members), a warning when the
 * figures describe a rare case, and the three sides as rows; with --link 802154 --hops H > 1
 * the chain's notes and one NODE row per node (chain.c). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "link.h"
#include "lowpan.h"
#include "notes.h"
#include "pqpan/sig.h"
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

_Static_assert(sizeof(enum pqpan_ble_bits_ifs) == sizeof(int), "--bits-ifs is stored as an int");

/* --bits-ifs words: pqpan_ble_bits_ifs_name of each rule (ble.h), in enum order. */
static void bits_ifs_words(cli_word_fn add, void *ctx)
{
    int b;
    for (b = 0; b < PQPAN_BLE_BITS_IFS_COUNT; b++) {
        add(ctx, pqpan_ble_bits_ifs_name((enum pqpan_ble_bits_ifs)b));
    }
}

static const struct cli_opt bits_rows[] = {
    {.name = "--bits-ifs", .kind = CLI_OPT_WORD, .meta = "RULE", .words_fn = bits_ifs_words,
     .def = PQPAN_DEFAULT_BITS_IFS, .store = CLI_STORE_INT,
     .offset = offsetof(struct link_opts, cfg.bits_ifs),
     .help = "how many T_IFS the bits accounting books (e_comm_uj, e_comm_ifs_uj; the events "
             "accounting books every one): each, every T_IFS of an event on both sides (2 per "
             "PDU pair); per-pdu-sent, one per PDU a side sends (1 per pair), the study "
             "reading of `pqpan reproduce`"},
};

const struct cli_opt_table estimate_bits_table =
    CLI_OPT_TABLE("estimate-bits", NULL, bits_rows, struct link_opts, link_init);

struct estimate_req {
    int lowpan; /* --link 802154 */
    struct model_opts m;
    struct link_opts l;   /* BLE */
    int pqke_given;       /* BLE: an --auth, --sig or --hybrid, copied into l.cfg */
    struct lowpan_opts w; /* IEEE 802.15.4 */
};

/* estimate's BLE tables, in the order the CLI tries them (energy options first). */
static const struct cli_opt_table *const ble_tables[] = {
    &model_energy_table, &model_ramp_table,        &model_crypto_table,
    &model_gamma_table,  &cli_format_table,        &estimate_protocol_table,
    &link_pqke_table,    &link_opts_table,         &link_setup_table,
    &estimate_bits_table};
#define N_BLE_TABLES (sizeof ble_tables / sizeof ble_tables[0])

/* The same with --link 802154. */
static const struct cli_opt_table *const lowpan_tables[] = {
    &lowpan_chain_table, &model_energy_table,    &model_ramp_table, &model_crypto_table,
    &model_gamma_table,  &cli_format_table,      &link_pqke_table,  &lowpan_opts_table,
    &lowpan_exchange_table, &lowpan_busy_table};
#define N_LOWPAN_TABLES (sizeof lowpan_tables / sizeof lowpan_tables[0])

/* Where the options of table t are stored in q. */
static void *base_of(struct estimate_req *q, const struct cli_opt_table *t)
{
    if (t == &cli_format_table) {
        return &q->m.format;
    }
    if (q->lowpan && (t == &link_pqke_table || t == &lowpan_chain_table ||
                      t == &lowpan_opts_table || t == &lowpan_exchange_table ||
                      t == &lowpan_busy_table)) {
        return t == &link_pqke_table ? (void *)&q->w.pqke : (void *)&q->w;
    }
    if (t == &link_pqke_table) {
        q->pqke_given = 1;
        return &q->l.pqke;
    }
    return t == &estimate_protocol_table || t == &link_opts_table || t == &link_setup_table ||
                   t == &estimate_bits_table
               ? (void *)&q->l
               : (void *)&q->m;
}

/* The tables of the link lowpan says, *n their count. */
static const struct cli_opt_table *const *tables_of(int lowpan, size_t *n)
{
    *n = lowpan ? N_LOWPAN_TABLES : N_BLE_TABLES;
    return lowpan ? lowpan_tables : ble_tables;
}

const struct cli_opt *estimate_opt_row(int lowpan, const char *name)
{
    const struct cli_opt *found = NULL;
    size_t n, k;
    const struct cli_opt_table *const *t = tables_of(lowpan, &n);
    for (k = 0; k < n && found == NULL; k++) {
        found = cli_opt_find(t[k], name);
    }
    return found;
}

static int take(struct run_ctx *r, struct estimate_req *q, const struct pqpan_run_opt *opt)
{
    size_t n, k;
    const struct cli_opt_table *const *t = tables_of(q->lowpan, &n);
    for (k = 0; k < n; k++) {
        const struct cli_opt *o = cli_opt_find(t[k], opt->name);
        if (o != NULL) {
            return run_set(r, o, base_of(q, t[k]), opt);
        }
    }
    return run_unknown(r, opt->name, t, n);
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
    q->lowpan = run_wants_802154(opts, n_opts);
    model_opts_init(&q->m);
    link_opts_init(&q->l);
    lowpan_opts_init(&q->w);
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
    if (q->lowpan) {
        return PQPAN_OK;
    }
    if ((c->pqke_mode != PQPAN_PQKE_MODE_NONE || c->pqke_sig != 0 || c->pqke_hybrid) &&
        (c->protocol != PQPAN_BLE_PROTO_PQPAN || strcmp(q->l.kem, MODEL_LESC_NAME) == 0)) {
        return run_fail(r, EXIT_USAGE, "--auth",
                        "--auth, --sig and --hybrid apply to pqpan's protocol: add --protocol "
                        "pqpan (and an ML-KEM --kem)");
    }
    return PQPAN_OK;
}

/* Whether cfg's bits accounting counts T_IFS otherwise than the table of defaults says
 * (the notes name the rule then, and only then, as `pqpan reproduce` names its reading's). */
static int bits_ifs_given(const struct pqpan_ble_config *cfg)
{
    return !pqpan_default_is(PQPAN_DEFAULT_BITS_IFS, pqpan_ble_bits_ifs_name(cfg->bits_ifs));
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
    if (bits_ifs_given(&l->cfg)) {
        fprintf(f, "  bits accounting, T_IFS: %s\n", model_bits_ifs_about(l->cfg.bits_ifs));
    }
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
    if (bits_ifs_given(&a->q->l.cfg)) {
        fprintf(f, "  \"bits_ifs\": \"%s\",\n", pqpan_ble_bits_ifs_name(a->q->l.cfg.bits_ifs));
    }
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

/* Below this P(every frame gets the channel) the estimate (of an exchange that succeeds)
 * describes a rare case: said on stderr. */
#define LOWPAN_P_SUCCESS_WARN 0.01

/* What the 802.15.4 notes are rendered from. */
struct lowpan_notes {
    const struct lowpan_opts *l;
    const struct model_env *env;
    const struct pqpan_802154_est_config *c;
    const struct pqpan_802154_estimate *e;
    const struct pqpan_run_exchange_row *rows;
};

/* The lines a table prints before the rows: the link, the exchange, the assumptions, the
 * signing rows, the messages and frames, the CSMA-CA expectation. */
static void lowpan_table_notes(FILE *f, const void *arg)
{
    const struct lowpan_notes *a = arg;
    const struct lowpan_opts *l = a->l;
    const struct model_env *env = a->env;
    const struct pqpan_802154_est_config *c = a->c;
    const struct pqpan_802154_estimate *e = a->e;
    const struct pqpan_run_exchange_row *rows = a->rows;
    static const char *const names[PQPAN_802154_MESSAGES] = {"INIT", "RESP", "FIN", "REVEAL"};
    unsigned m, n = c->msg_octets[3] != 0 ? PQPAN_802154_MESSAGES : PQPAN_802154_MESSAGES - 1;
    fprintf(f, "pqpan estimate: %s (%s protocol) over 6LoWPAN / IEEE 802.15.4 (250 kb/s),\n"
               "  %s addresses, CSMA-CA %s, channel busy p = %.3f, no contention\n",
            l->kem, rows[0].protocol, l->short_addr ? "short" : "extended",
            l->contiki ? "contiki" : "ieee", l->busy);
    lowpan_print_exchange_line(f, env, l, "  ");
    lowpan_print_assumptions(f, env, l, "  ");
    if (rows[0].sig_sign_source != NULL) {
        unsigned sig = model_pqke_sig(l->pqke.mode, l->pqke.sig, l->kem);
        fprintf(f, "  %s sign / verify: cycle table rows of implementation %s\n",
                pqpan_sig_by_id((enum pqpan_sig_id)sig)->name, model_sig_impl(env, sig));
        model_print_sig_spread(f, env, sig, "  ");
    }
    fprintf(f, "  messages (UDP payload octets, docs/PROTOCOL.md):");
    for (m = 0; m < n; m++) {
        fprintf(f, " %s %u", names[m], (unsigned)c->msg_octets[m]);
        if (e->datagrams[m] > 1) {
            fprintf(f, " in %u %s", (unsigned)e->datagrams[m],
                    l->ipv6_frag ? "IPv6 fragments" : "segments");
        }
        fputs(m + 1 < n ? "," : "\n", f);
    }
    fprintf(f, "  data frames:");
    for (m = 0; m < n; m++) {
        fprintf(f, " %s %u%s", names[m], (unsigned)e->frames[m], m + 1 < n ? "," : ";");
    }
    fprintf(f, " expected CCAs %.3f, backoff %.3f ms;\n"
               "  P(access failure) per frame %.6f, P(every frame gets the channel) %.6f\n",
            e->ccas, e->backoff_ns * 1e-6, e->p_frame_fail, e->p_success);
}

/* The same as JSON members. */
static void lowpan_json_notes(FILE *f, const void *arg)
{
    const struct lowpan_notes *a = arg;
    const struct lowpan_opts *l = a->l;
    const struct model_env *env = a->env;
    const struct pqpan_802154_est_config *c = a->c;
    const struct pqpan_802154_estimate *e = a->e;
    fprintf(f, "  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(f, env, l, "  ");
    fprintf(f, "  \"e_comm_accounting\": \"bits\",\n");
    fprintf(f, "  \"ieee802154\": {\n");
    fprintf(f, "    \"addr\": \"%s\",\n    \"csma\": \"%s\",\n"
               "    \"busy\": %.4f,\n    \"octets_init\": %u,\n    \"octets_resp\": %u,\n"
               "    \"octets_fin\": %u,\n    \"octets_reveal\": %u,\n    \"frames_init\": %u,\n"
               "    \"frames_resp\": %u,\n    \"frames_fin\": %u,\n    \"frames_reveal\": %u,\n"
               "    \"datagrams_init\": %u,\n    \"datagrams_resp\": %u,\n"
               "    \"datagrams_fin\": %u,\n    \"datagrams_reveal\": %u,\n    \"expected_ccas\": %.4f,\n"
               "    \"expected_backoff_ms\": %.4f,\n    \"p_frame_access_failure\": %.6f,\n"
               "    \"p_success\": %.6f\n  },\n",
            l->short_addr ? "short" : "extended", l->contiki ? "contiki" : "ieee", l->busy,
            (unsigned)c->msg_octets[0], (unsigned)c->msg_octets[1], (unsigned)c->msg_octets[2],
            (unsigned)c->msg_octets[3], (unsigned)e->frames[0], (unsigned)e->frames[1],
            (unsigned)e->frames[2], (unsigned)e->frames[3], (unsigned)e->datagrams[0],
            (unsigned)e->datagrams[1], (unsigned)e->datagrams[2], (unsigned)e->datagrams[3], e->ccas,
            e->backoff_ns * 1e-6, e->p_frame_fail, e->p_success);
}

static int run_lowpan(struct run_ctx *r, const struct estimate_req *q,
                      const struct model_env *env)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct lowpan_notes notes;
    struct cli_msg msg;
    int rc = lowpan_estimate(rows, &c, &e, env, &q->w, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    notes.l = &q->w;
    notes.env = env;
    notes.c = &c;
    notes.e = &e;
    notes.rows = rows;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, lowpan_table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, lowpan_json_notes, &notes);
    }
    if (rc == PQPAN_OK && e.p_success < LOWPAN_P_SUCCESS_WARN) {
        (void)cli_msg_set(&msg, EXIT_OK,
                          "with --busy %g every frame gets the channel with probability %.3g: "
                          "the figures are those of the rare exchange in which it does",
                          q->w.busy, e.p_success);
        rc = run_warning(r, msg.text);
    }
    return rc != PQPAN_OK ? rc
                          : run_sides(r, PQPAN_RUN_LINK_802154,
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
        rc = load != EXIT_OK             ? run_fail(r, load, NULL, msg.text)
             : q->lowpan && q->w.hops > 1 ? chain_estimate_run(r, env, &q->w)
             : q->lowpan                  ? run_lowpan(r, q, env)
                                          : run_ble(r, q, env);
    }
    free(env);
    free(q);
    return rc;
}
