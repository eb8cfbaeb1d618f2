/* pqpan estimate: the energy and latency of one key exchange over BLE, per side, from the
 * analytic link model (src/ble/estimate.c) and the energy model (src/energy). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "estimate.h"
#include "mesh_cli.h"
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
    cli_opt_rows_help(out, &estimate_bits_table);
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

/* ---- --link 802154 ---- */

static void print_csv(const struct pqpan_run_exchange_row rows[MODEL_SIDES], unsigned groups)
{
    int s;
    model_print_csv_header(stdout, groups);
    for (s = 0; s < MODEL_SIDES; s++) {
        model_print_csv_row(stdout, &rows[s], groups);
    }
}

/* ---- BLE: through the run layer (pqpan_run "estimate") ---- */

/* argv as a request of pqpan_run: each option of estimate's tables on the link lowpan
 * says, with its value (a flag without one). EXIT_OK, or EXIT_USAGE after a message (an
 * unknown option, one without its value). */
static int request_of(struct pqpan_run_opt *req, size_t *n, int lowpan, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = estimate_opt_row(lowpan, argv[i]);
        if (o == NULL) {
            return lowpan ? cli_unknown_option(CMD, "802154", argv[i])
                          : lowpan_unknown_option(CMD, argv[i], 0);
        }
        rc = cli_request_add(req, n, o, CMD, argc, argv, &i);
    }
    return rc;
}

struct printer {
    enum cli_format format;
    int sides;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    unsigned nodes; /* NODE rows printed (--hops > 1) */
};

/* The sides once the last has come (they print as columns of one table). */
static void print_sides(const struct printer *p, unsigned groups)
{
    if (p->format == FORMAT_TABLE) {
        putchar('\n');
        model_print_table(stdout, p->rows, MODEL_SIDES, groups & ~(unsigned)GROUP_CONFIG);
    } else if (p->format == FORMAT_CSV) {
        print_csv(p->rows, groups);
    } else {
        model_print_json_sides(stdout, p->rows, MODEL_SIDES, groups);
    }
}

/* pqpan_run's emit: notes as lines (table) or members (JSON), warnings on stderr, sides
 * kept until the last. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
    case PQPAN_RUN_RECORD_MEMBERS:
    case PQPAN_RUN_RECORD_WARNING:
        cli_print_text_row(CMD, p->format, row);
        break;
    case PQPAN_RUN_RECORD_SIDE:
        p->rows[p->sides++] = *row->exchange;
        if (p->sides == MODEL_SIDES) {
            print_sides(p, row->groups |
                               (row->link == PQPAN_RUN_LINK_802154 ? (unsigned)GROUP_802154 : 0u));
            p->sides = 0;
        }
        break;
    case PQPAN_RUN_RECORD_NODE:
        lowpan_print_node_row(p->format, p->nodes++, row);
        break;
    default:
        return -1; /* other commands' records: not estimate's */
    }
    return ferror(stdout) ? -1 : 0;
}

static int run_request(int lowpan, int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int rc = request_of(req, &n, lowpan, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p.format = cli_request_format(req, n);
    p.sides = 0;
    p.nodes = 0;
    rc = cli_run_status(CMD, pqpan_run(CMD, req, n, print_row, &p, &err), &err);
    if (rc == EXIT_OK && p.nodes > 0 && p.format == FORMAT_JSON) {
        printf("\n  ]\n}\n");
    }
    return rc;
}

int cli_estimate_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        cli_estimate_help(stdout);
        return EXIT_OK;
    }
    if (mesh_link_requested(argc, argv)) {
        return mesh_estimate_run(argc, argv);
    }
    return run_request(lowpan_link_requested(argc, argv), argc, argv);
}
