/* pqpan estimate: the energy and latency of one key exchange over BLE, per side, from the
 * analytic link model (src/ble/estimate.c) and the energy model (src/energy). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "estimate.h"
#include "pqpan/error.h"
#include "pqpan/run.h"
#include "pqpan/sig.h"
#include "opts_registry.h"

#define CMD "estimate"

void estimate_opts_init(struct estimate_opts *o, int lowpan)
{
    o->lowpan = lowpan;
    model_opts_init(&o->m);
    link_opts_init(&o->l);
    lowpan_opts_init(&o->w);
}

int estimate_link_parse(struct estimate_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int rc;
    if (o->lowpan) {
        rc = link_pqke_parse(&o->w.pqke, cmd, argc, argv, i);
        return rc != 0 ? rc : lowpan_opts_parse(&o->w, cmd, argc, argv, i);
    }
    rc = cli_opt_take(&estimate_protocol_table, &o->l, cmd, argc, argv, i);
    return rc != 0 ? rc : link_opts_parse(&o->l, cmd, argc, argv, i);
}

int estimate_opts_parse(struct estimate_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int rc = model_opts_parse(&o->m, cmd, argc, argv, i);
    return rc != 0 ? rc : estimate_link_parse(o, cmd, argc, argv, i);
}

const struct cli_opt *estimate_opt_find(const struct estimate_opts *o, const char *name)
{
    static const struct cli_opt_table *const ble[] = {
        &estimate_protocol_table, &link_opts_table, &link_pqke_table, &link_setup_table};
    static const struct cli_opt_table *const lowpan[] = {
        &lowpan_opts_table, &lowpan_exchange_table, &lowpan_busy_table, &link_pqke_table,
        &lowpan_chain_table};
    static const struct cli_opt_table *const energy[] = {
        &model_energy_table, &model_ramp_table, &model_crypto_table, &model_gamma_table,
        &cli_format_table};
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < 4 && found == NULL; k++) {
        found = cli_opt_find(o->lowpan ? lowpan[k] : ble[k], name);
    }
    for (k = 0; k < sizeof energy / sizeof energy[0] && found == NULL; k++) {
        found = cli_opt_find(energy[k], name);
    }
    return found;
}

int estimate_opts_choices(const struct estimate_opts *o, const char *opt, cli_word_fn add,
                          void *ctx)
{
    if (model_opts_choices(opt, add, ctx)) {
        return 1;
    }
    if (o->lowpan) {
        return link_pqke_choices(opt, add, ctx) || lowpan_opts_choices(opt, add, ctx);
    }
    return cli_opt_table_words(&estimate_protocol_table, opt, add, ctx) ||
           link_opts_choices(opt, add, ctx);
}

void cli_estimate_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan estimate [OPTIONS]\n\n"
            "Estimates one post-quantum key exchange (KeyGen, encapsulation key transfer, Encaps,\n"
            "ciphertext transfer, Decaps) between a BLE central and peripheral: computation per\n"
            "operation and communication (TX, RX, T_IFS) per side and in total, shares, latency and\n"
            "PDU counts, in both accountings (bits: the study's; events: adds per-event costs and\n"
            "the negotiation). Defaults (docs/CLI.md \"Defaults\"): the study's link set-up\n"
            "(SenSys '26, arXiv 2602.18708) with pqpan's protocol; --protocol study for the\n"
            "study's exchange.\n\n");
    cli_opt_table_help(out, &estimate_protocol_table);
    fputc('\n', out);
    link_opts_help(out);
    fprintf(out,
            "\nIEEE 802.15.4 (--link 802154): the same exchange as pqpan's INIT / RESP / FIN in\n"
            "UDP/IPv6 datagrams, 6LoWPAN-compressed and fragmented (RFC 6282, RFC 4944), one\n"
            "acknowledged frame after another with unslotted CSMA-CA; no contention, the expected\n"
            "CSMA cost in closed form for a channel-busy probability (use `simulate --link 802154`\n"
            "for contention). Sides: initiator (KeyGen, Decaps; sends INIT and FIN) and responder.\n"
            "Energy: the profile's ieee802154 section (TX, RX currents; whether the radio listens\n"
            "or sleeps when idle and in a backoff, unless --idle / --backoff say). BLE options do\n"
            "not apply. Output fields: docs/CLI.md (802.15.4 terms: data frames, Imm-Acks, CCA,\n"
            "backoff, aTurnaroundTime).\n");
    lowpan_opts_help(out);
    cli_opt_rows_help(out, &lowpan_busy_table);
    cli_opt_rows_help(out, &lowpan_chain_table);
    fprintf(out, "\nenergy options:\n");
    model_opts_help(out);
    fprintf(out,
            "\nOutput: table (default), csv (one line per side: peripheral, central, total) or json\n"
            "({..., \"sides\": [ one object per side ]}). e_comm_uj and e_total_uj use the bits\n"
            "accounting; e_comm_events_uj and e_total_events_uj the events accounting.\n"
            "Exit codes: 0 ok, 2 usage (unknown or out-of-range option), 3 bad data file, 4 I/O.\n");
}

static int parse_args(struct estimate_opts *o, int lowpan, int argc, char **argv)
{
    int i;
    estimate_opts_init(o, lowpan);
    for (i = 1; i < argc; i++) {
        int rc = lowpan ? cli_opt_take(&lowpan_chain_table, &o->w, CMD, argc, argv, &i) : 0;
        if (rc == 0) {
            rc = estimate_opts_parse(o, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, "802154", argv[i]);
        }
    }
    return EXIT_OK;
}

/* ---- --link 802154 ---- */

/* Below this P(every frame gets the channel) the estimate (of an exchange that succeeds)
 * describes a rare case: said on stderr. */
#define LOWPAN_P_SUCCESS_WARN 0.01

static void print_lowpan_table(const struct lowpan_opts *l, const struct model_env *env,
                               const struct pqpan_802154_est_config *c,
                               const struct pqpan_802154_estimate *e,
                               const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    static const char *const names[PQPAN_802154_MESSAGES] = {"INIT", "RESP", "FIN", "REVEAL"};
    unsigned m, n = c->msg_octets[3] != 0 ? PQPAN_802154_MESSAGES : PQPAN_802154_MESSAGES - 1;
    printf("pqpan estimate: %s (%s protocol) over 6LoWPAN / IEEE 802.15.4 (250 kb/s),\n"
           "  %s addresses, CSMA-CA %s, channel busy p = %.3f, no contention\n",
           l->kem, rows[0].protocol, l->short_addr ? "short" : "extended",
           l->contiki ? "contiki" : "ieee", l->busy);
    lowpan_print_exchange_line(stdout, env, l, "  ");
    lowpan_print_assumptions(stdout, env, l, "  ");
    if (rows[0].sig_sign_source != NULL) {
        unsigned sig = model_pqke_sig(l->pqke.mode, l->pqke.sig, l->kem);
        printf("  %s sign / verify: cycle table rows of implementation %s\n",
               pqpan_sig_by_id((enum pqpan_sig_id)sig)->name, model_sig_impl(env, sig));
        model_print_sig_spread(stdout, env, sig, "  ");
    }
    printf("  messages (UDP payload octets, docs/PROTOCOL.md):");
    for (m = 0; m < n; m++) {
        printf(" %s %u", names[m], (unsigned)c->msg_octets[m]);
        if (e->datagrams[m] > 1) {
            printf(" in %u %s", (unsigned)e->datagrams[m],
                   l->ipv6_frag ? "IPv6 fragments" : "segments");
        }
        fputs(m + 1 < n ? "," : "\n", stdout);
    }
    printf("  data frames:");
    for (m = 0; m < n; m++) {
        printf(" %s %u%s", names[m], (unsigned)e->frames[m], m + 1 < n ? "," : ";");
    }
    printf(" expected CCAs %.3f, backoff %.3f ms;\n"
           "  P(access failure) per frame %.6f, P(every frame gets the channel) %.6f\n\n",
           e->ccas, e->backoff_ns * 1e-6, e->p_frame_fail, e->p_success);
    model_print_table(stdout, rows, MODEL_SIDES,
                      GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154 | estimate_sig_group(rows));
}

static void print_lowpan_json(const struct lowpan_opts *l, const struct model_env *env,
                              const struct pqpan_802154_est_config *c,
                              const struct pqpan_802154_estimate *e,
                              const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    int s;
    printf("{\n  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(stdout, env, l, "  ");
    printf("  \"e_comm_accounting\": \"bits\",\n");
    printf("  \"ieee802154\": {\n");
    printf("    \"addr\": \"%s\",\n    \"csma\": \"%s\",\n"
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
    printf("  \"sides\": [\n");
    for (s = 0; s < MODEL_SIDES; s++) {
        model_print_json_row(stdout, &rows[s],
                             GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154 |
                                 estimate_sig_group(rows),
                             "    ");
        printf("%s\n", s + 1 < MODEL_SIDES ? "," : "");
    }
    printf("  ]\n}\n");
}

static void print_csv(const struct pqpan_run_exchange_row rows[MODEL_SIDES], unsigned groups)
{
    int s;
    model_print_csv_header(stdout, groups);
    for (s = 0; s < MODEL_SIDES; s++) {
        model_print_csv_row(stdout, &rows[s], groups);
    }
}

static int run_lowpan(const struct estimate_opts *o, const struct model_env *env)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct cli_msg msg;
    int rc;
    if (o->w.hops > 1 && o->m.format == FORMAT_JSON) {
        return cli_usage_error(CMD, "--hops > 1 prints a table or --format csv (no json yet)");
    }
    if (o->w.hops > 1) {
        return lowpan_chain_estimate(env, &o->w, o->m.format);
    }
    rc = cli_msg_report(CMD, lowpan_estimate(rows, &c, &e, env, &o->w, &msg), &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (e.p_success < LOWPAN_P_SUCCESS_WARN) {
        cli_warn(CMD, "with --busy %g every frame gets the channel with probability %.3g: the "
                      "figures are those of the rare exchange in which it does",
                 o->w.busy, e.p_success);
    }
    if (o->m.format == FORMAT_TABLE) {
        print_lowpan_table(&o->w, env, &c, &e, rows);
    } else if (o->m.format == FORMAT_CSV) {
        print_csv(rows, GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154 |
                            estimate_sig_group(rows));
    } else {
        print_lowpan_json(&o->w, env, &c, &e, rows);
    }
    return EXIT_OK;
}

/* ---- BLE: through the run layer (pqpan_run "estimate") ---- */

/* The most options a command line gives. */
#define MAX_REQUEST 256

/* argv as a request of pqpan_run: each option of estimate's BLE tables with its value (a
 * flag without one). EXIT_OK, or EXIT_USAGE after a message (an unknown option, one
 * without its value). */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int i;
    *n = 0;
    for (i = 1; i < argc; i++) {
        const struct cli_opt *o = estimate_ble_opt_find(argv[i]);
        if (o == NULL) {
            return lowpan_unknown_option(CMD, argv[i], 0);
        }
        if (o->kind != CLI_OPT_FLAG && i + 1 >= argc) {
            return cli_usage_error(CMD, "%s needs a value", o->name);
        }
        if (*n == MAX_REQUEST) {
            return cli_usage_error(CMD, "more than %d options", MAX_REQUEST);
        }
        req[*n].name = argv[i];
        req[*n].value = o->kind == CLI_OPT_FLAG ? NULL : argv[++i];
        ++*n;
    }
    return EXIT_OK;
}

/* What the rows of a run are printed as: --format's word (the last given; a bad one is the
 * run's to refuse before any row). */
static enum cli_format format_of(const struct pqpan_run_opt *req, size_t n)
{
    enum cli_format f = FORMAT_TABLE;
    size_t k;
    for (k = 0; k < n; k++) {
        if (strcmp(req[k].name, "--format") == 0) {
            enum cli_format given;
            f = cli_parse_format(req[k].value, &given) == 0 ? given : f;
        }
    }
    return f;
}

struct printer {
    enum cli_format format;
    int sides;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
};

/* The sides once the last has come (they print as columns of one table). */
static void print_sides(const struct printer *p, unsigned groups)
{
    int s;
    if (p->format == FORMAT_TABLE) {
        putchar('\n');
        model_print_table(stdout, p->rows, MODEL_SIDES, groups & ~(unsigned)GROUP_CONFIG);
    } else if (p->format == FORMAT_CSV) {
        print_csv(p->rows, groups);
    } else {
        printf("  \"sides\": [\n");
        for (s = 0; s < MODEL_SIDES; s++) {
            model_print_json_row(stdout, &p->rows[s], groups, "    ");
            printf("%s\n", s + 1 < MODEL_SIDES ? "," : "");
        }
        printf("  ]\n}\n");
    }
}

/* pqpan_run's emit: notes as lines (table) or members (JSON), warnings on stderr, sides
 * kept until the last. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        if (p->format == FORMAT_TABLE) {
            printf("%s\n", row->values[0].text);
        }
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        if (p->format == FORMAT_JSON) {
            printf("{\n%s", row->values[0].text);
        }
        break;
    case PQPAN_RUN_RECORD_WARNING:
        cli_warn(CMD, "%s", row->values[0].text);
        break;
    case PQPAN_RUN_RECORD_SIDE:
        p->rows[p->sides++] = *row->exchange;
        if (p->sides == MODEL_SIDES) {
            print_sides(p, row->groups);
            p->sides = 0;
        }
        break;
    }
    return ferror(stdout) ? -1 : 0;
}

static int run_ble(int argc, char **argv)
{
    struct pqpan_run_opt req[MAX_REQUEST];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p.format = format_of(req, n);
    p.sides = 0;
    rc = pqpan_run_exit_status(pqpan_run(CMD, req, n, print_row, &p, &err));
    if (rc != EXIT_OK && err.option[0] != '\0') {
        return cli_usage_error(CMD, "%s", err.message);
    }
    if (rc != EXIT_OK) {
        fprintf(stderr, "pqpan %s: %s\n", CMD, err.message);
    }
    return rc;
}

int cli_estimate_run(int argc, char **argv)
{
    struct estimate_opts o;
    struct model_env *env;
    int rc;

    if (cli_wants_help(argc, argv)) {
        cli_estimate_help(stdout);
        return EXIT_OK;
    }
    if (!lowpan_link_requested(argc, argv)) {
        return run_ble(argc, argv);
    }
    rc = parse_args(&o, 1, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = run_lowpan(&o, env);
    }
    free(env);
    return rc;
}
