/* pqpan estimate: the energy and latency of one key exchange over BLE, per side, from the
 * analytic link model (src/ble/estimate.c) and the energy model (src/energy). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "estimate.h"
#include "mesh_model.h"
#include "pqpan/sig.h"
#include "opts_registry.h"

#define CMD "estimate"

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
        if (rc == 0) {
            rc = cli_opt_take(&lowpan_chain_table, &o->w, cmd, argc, argv, i);
        }
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
    fputc('\n', out);
    mesh_opts_help(out);
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
        int rc = estimate_opts_parse(o, CMD, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return lowpan ? cli_unknown_option(CMD, "802154", argv[i])
                          : lowpan_unknown_option(CMD, argv[i], 0);
        }
    }
    if (!lowpan && (o->l.cfg.pqke_mode != PQPAN_PQKE_MODE_NONE || o->l.cfg.pqke_sig != 0 ||
                    o->l.cfg.pqke_hybrid) &&
        (o->l.cfg.protocol != PQPAN_BLE_PROTO_PQPAN || strcmp(o->l.kem, MODEL_LESC_NAME) == 0)) {
        return cli_usage_error(CMD, "--auth, --sig and --hybrid apply to pqpan's protocol: add "
                                    "--protocol pqpan (and an ML-KEM --kem)");
    }
    return EXIT_OK;
}

static void print_optional_cycles(uint64_t cycles)
{
    if (cycles == 0) {
        printf("not given");
    } else {
        printf("%llu", (unsigned long long)cycles);
    }
}

/* Signing's cycles: the mean the energy uses, the spread beside it and their sources. */
static void print_sig_spread(const struct model_env *env, unsigned sig, const char *prefix)
{
    struct model_sig_spread sp;
    const struct pqpan_cycle_row *d;
    if (model_sig_spread(&sp, env, sig) != 0) {
        return;
    }
    d = sp.spread;
    printf("%s  sign: energy and time use the mean over the messages of its rejection loop\n"
           "%s  (FIPS 204 Alg. 7), %llu cycles (%s); ",
           prefix, prefix, (unsigned long long)sp.mean->cycles, sp.mean->source);
    if (d == NULL) {
        printf("the tables give no spread\n");
        return;
    }
    printf("spread over %u runs\n%s  (%s): median ", (unsigned)d->runs, prefix, d->source);
    print_optional_cycles(d->cycles_median);
    printf(", p99 ");
    print_optional_cycles(d->cycles_p99);
    printf(", largest ");
    print_optional_cycles(d->cycles_max);
    printf("\n");
    if (d->cycles_p99 != 0) {
        printf("%s  (the p99 rows: each signing at the p99 cycles)\n", prefix);
    }
}

/* What the variant of pqpan's protocol adds to the cycle tables: the derived kdf figure of
 * a mode other than none or a hybrid suite, the ML-DSA rows of a sig mode, P-256's. */
static void print_pqke_variant(const struct pqpan_ble_config *cfg, const char *kem,
                               const struct model_env *env, const char *prefix)
{
    unsigned sig = model_pqke_sig(cfg->pqke_mode, cfg->pqke_sig, kem);
    if (cfg->pqke_mode != PQPAN_PQKE_MODE_NONE || cfg->pqke_hybrid) {
        printf("%skdf (derived): the cycle table's kdf row (mode none) x the Keccak permutations "
               "of\n%s  --auth %s%s over those of none (pqpan_pqke_side_work, docs/PROTOCOL.md "
               "3.4)\n",
               prefix, prefix, pqpan_pqke_mode_name(cfg->pqke_mode),
               cfg->pqke_hybrid ? " --hybrid p256" : "");
    }
    if (sig != 0) {
        printf("%s%s sign / verify: cycle table rows of implementation %s\n", prefix,
               pqpan_sig_by_id((enum pqpan_sig_id)sig)->name, model_sig_impl(env, sig));
        if (cfg->pqke_sig == 0) {
            printf("%s  the set: the default for the KEM's category\n", prefix);
        }
        print_sig_spread(env, sig, prefix);
    }
    if (cfg->pqke_hybrid) {
        printf("%sP-256 key pair and shared secret (hybrid): --p256-impl %s, one fresh key pair "
               "per exchange\n",
               prefix, env->p256_impl);
    }
}

/* GROUP_SIG when the exchange signs (model_fill_sig has filled the rows), GROUP_LESC for LE
 * SC (model_fill's fill_lesc has). */
static unsigned sig_group(const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    return (rows[0].sig_sign_source != NULL ? (unsigned)GROUP_SIG : 0u) |
           (rows[0].p256_impl != NULL ? (unsigned)GROUP_LESC : 0u);
}

static void print_table(const struct estimate_opts *o, const struct model_env *env,
                        const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    const struct pqpan_run_exchange_row *r = &rows[0];
    printf("pqpan estimate: %s (%s protocol) over LE %s, ATT_MTU %u, LL %u octets (%s),\n"
           "  transfer %s, CI %.2f ms, KeyGen+Decaps on the %s, %s link\n",
           r->kem, r->protocol, r->phy, r->att_mtu, r->ll_octets, r->dle ? "DLE" : "no DLE",
           r->transfer, r->ci_ms, r->keygen_side, o->l.cfg.encrypted ? "encrypted" : "unencrypted");
    model_print_exchange_line(stdout, "  ", r->protocol, r->auth, MODEL_BLE_IDLE_TEXT);
    link_print_gatt(stdout, &o->l.cfg, o->l.kem, "  ");
    model_print_assumptions(stdout, env, model_radio_of(o->l.cfg.phy), "  ");
    model_print_setup(stdout, &o->l.cfg, "  ");
    if (o->l.cfg.protocol == PQPAN_BLE_PROTO_PQPAN) {
        print_pqke_variant(&o->l.cfg, o->l.kem, env, "  ");
    }
    putchar('\n');
    model_print_table(stdout, rows, MODEL_SIDES, GROUP_HEADLINE | GROUP_DETAIL | sig_group(rows));
}

static void print_json(const struct estimate_opts *o, const struct model_env *env,
                       const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    int s;
    printf("{\n");
    model_print_assumptions_json(stdout, env, model_radio_of(o->l.cfg.phy), "  ");
    model_print_setup_json(stdout, &o->l.cfg, "  ");
    printf("  \"sides\": [\n");
    for (s = 0; s < MODEL_SIDES; s++) {
        model_print_json_row(stdout, &rows[s],
                             GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | sig_group(rows), "    ");
        printf("%s\n", s + 1 < MODEL_SIDES ? "," : "");
    }
    printf("  ]\n}\n");
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
        print_sig_spread(env, sig, "  ");
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
                      GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154 | sig_group(rows));
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
                                 sig_group(rows),
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
                            sig_group(rows));
    } else {
        print_lowpan_json(&o->w, env, &c, &e, rows);
    }
    return EXIT_OK;
}

static int run_ble(const struct estimate_opts *o, const struct model_env *env)
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct cli_msg msg;
    int rc = cli_msg_report(
        CMD, model_run(rows, env, o->l.kem, &o->l.cfg, o->l.allow_unbuildable, &msg), &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->m.format == FORMAT_TABLE) {
        print_table(o, env, rows);
    } else if (o->m.format == FORMAT_CSV) {
        print_csv(rows, GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | sig_group(rows));
    } else {
        print_json(o, env, rows);
    }
    return EXIT_OK;
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
    if (mesh_link_requested(argc, argv)) {
        return mesh_estimate_run(argc, argv);
    }
    rc = parse_args(&o, lowpan_link_requested(argc, argv), argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = o.lowpan ? run_lowpan(&o, env) : run_ble(&o, env);
    }
    free(env);
    return rc;
}
