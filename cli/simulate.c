/* pqpan simulate: one key exchange carried PDU by PDU over a simulated BLE connection,
 * run by the run layer (pqpan_run "simulate", src/run/run_simulate.c, which also writes
 * --pcap and --trace): argv becomes a request, the rows it gives back are printed as a
 * table, CSV or JSON. --link 802154 is simulate_802154.c's. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "estimate.h"
#include "lowpan_model.h"
#include "mesh_cli.h"
#include "pqpan/error.h"
#include "pqpan/run.h"
#include "run_simulate.h"

#define CMD "simulate"

void cli_simulate_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan simulate [OPTIONS]\n\n"
            "Runs one key exchange PDU by PDU over a simulated BLE connection: CONNECT_IND, PHY,\n"
            "data length and ATT MTU (or L2CAP credit-based channel) set-up, then the messages as\n"
            "real ATT/L2CAP PDUs in LL PDUs with SN/NESN acknowledgement, MD bit and CRC-24, over a\n"
            "channel that damages packets at the given error rate (a damaged packet fails its CRC\n"
            "and is sent again). Prints the breakdown of `pqpan estimate` for the simulated run\n"
            "plus packets sent and retransmitted per side, connection events and latency, and\n"
            "whether both sides derived the same session key with a verified confirmation.\n"
            "With --kem LESC-P256 it runs LE Secure Connections pairing (Just Works) with real\n"
            "values instead: Pairing Request/Response, Public Keys (P-256), Confirm, Randoms and\n"
            "DHKey Checks (f4, f5, f6 over AES-CMAC) as SMP PDUs, then the LL encryption start\n"
            "(LL_ENC_REQ/RSP, LL_START_ENC_REQ, two encrypted LL_START_ENC_RSP with AES-CCM from\n"
            "the derived LTK); keys and nonces from --seed, for simulation only.\n\n");
    cli_opt_table_help(out, &estimate_protocol_table);
    fputc('\n', out);
    link_opts_help(out);
    fputc('\n', out);
    cli_opt_table_help(out, &simulate_opts_table);
    fprintf(out, "\nenergy options:\n");
    model_opts_help(out);
    simulate_802154_help(out);
    fprintf(out,
            "\nOutput (BLE): table (default), csv (one line per side) or json (the objects of\n"
            "`pqpan estimate` plus a \"simulation\" object).\n"
            "Exit codes (BLE): 0 exchange completed, 1 exchange failed (link lost, timeout, damaged\n"
            "message), 2 usage, 3 bad data file, 4 I/O.\n");
}

/* argv as a request of pqpan_run: each option of simulate's BLE tables with its value (a
 * flag without one). EXIT_OK, or EXIT_USAGE after a message (an argument that is no
 * option, an unknown option, one without its value). */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = simulate_opt_row(argv[i]);
        if (o == NULL) {
            return strncmp(argv[i], "--", 2) != 0
                       ? cli_usage_error(CMD, "unexpected argument '%s'", argv[i])
                       : lowpan_unknown_option(CMD, argv[i], 1);
        }
        rc = cli_request_add(req, n, o, CMD, argc, argv, &i);
    }
    return rc;
}

struct printer {
    enum cli_format format;
    unsigned groups;
    int sides, sims;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct pqpan_run_sim_row sim[MODEL_SIDES];
};

static const char *keys_text(const struct pqpan_run_sim_row *t)
{
    return t->keys_equal == NULL ? "n/a (--protocol study)"
           : strcmp(t->keys_equal, "true") == 0 ? "yes"
                                                : "no";
}

static const char *confirm_text(const struct pqpan_run_sim_row *t)
{
    int ok = t->key_confirmation != NULL && strcmp(t->key_confirmation, "ok") == 0;
    if (strcmp(t->messages, "lesc") == 0) {
        return ok ? "ok (both DHKey checks verified, LL encryption started)" : "failed";
    }
    return t->key_confirmation == NULL ? "n/a" : ok ? "ok (both tags verified)" : "failed";
}

/* The transport's name in the table. */
static const char *transport_title(const char *name)
{
    return strcmp(name, "smp") == 0 ? "SMP" : strcmp(name, "gatt") == 0 ? "GATT" : "L2CAP CoC";
}

/* A failed run's energy: the events accounting holds all both sides drew until the run
 * stopped; computation and the bits accounting hold only the crypto operations and the
 * exchange PDUs done by then (0 when it stopped in the set-up). */
static void print_until_failure(const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    printf("  energy until failure (events accounting: all drawn until the run stopped):\n"
           "    peripheral %.3f uJ, central %.3f uJ, total %.3f uJ\n"
           "    computation (%.3f uJ) and the bits accounting (%.3f uJ) count only the crypto\n"
           "    operations and the exchange PDUs done before the failure\n",
           rows[MODEL_PERIPHERAL].e_total_events_uj, rows[MODEL_CENTRAL].e_total_events_uj,
           rows[MODEL_TOTAL].e_total_events_uj, rows[MODEL_TOTAL].e_comp_uj,
           rows[MODEL_TOTAL].e_comm_uj);
}

static void print_sim_table(const struct printer *p)
{
    static const int sides[2] = {MODEL_CENTRAL, MODEL_PERIPHERAL};
    const struct pqpan_run_sim_row *t = &p->sim[MODEL_TOTAL];
    int i;
    printf("\nsimulation (seed %llu, PER %g, BER %g, %s):\n", t->seed, t->per, t->ber,
           transport_title(t->transport));
    for (i = 0; i < 2; i++) {
        const struct pqpan_run_sim_row *s = &p->sim[sides[i]];
        printf("  %-10s  packets sent %llu, retransmitted %llu, CRC errors received %llu, "
               "missed %llu\n",
               s->side, s->packets_tx, s->retransmissions, s->crc_errors_rx, s->missed_rx);
    }
    printf("  connection events %llu, negotiated ATT_MTU %u, LL octets %u\n", t->conn_events,
           t->att_mtu, t->ll_octets);
    printf("  exchange latency %.3f ms, simulated time %.3f ms\n", t->latency_ms,
           t->sim_time_ms);
    printf("  result: %s\n", t->result);
    if (t->energy_until_failure_uj >= 0.0) {
        print_until_failure(p->rows);
    }
    printf("  %s equal: %s\n  key confirmation: %s\n",
           strcmp(t->messages, "lesc") == 0 ? "LTKs" : "session keys", keys_text(t),
           confirm_text(t));
}

/* The simulation's columns of the CSV, after the estimate's: the run's settings, one
 * side's packet counts (total: both sides'), the run's outcome and, for a failed run,
 * the side's energy until failure (events accounting; empty when the run completed). */
#define SIM_CSV_NAMES                                                                        \
    "seed,per,ber,transport,messages,packets_tx,retransmissions,crc_errors_rx,missed_rx,"  \
    "negotiated_att_mtu,negotiated_ll_octets,sim_time_ms,result,keys_equal,"   \
    "key_confirmation,energy_until_failure_uj"

static void print_sim_csv(const struct pqpan_run_sim_row *s)
{
    printf(",%llu,%.17g,%.17g,%s,%s,%llu,%llu,%llu,%llu,%u,%u,%.6f,", s->seed, s->per, s->ber,
           s->transport, s->messages, s->packets_tx, s->retransmissions, s->crc_errors_rx,
           s->missed_rx, s->att_mtu, s->ll_octets, s->sim_time_ms);
    cli_csv_string(stdout, s->result);
    if (s->keys_equal != NULL) {
        printf(",%s,%s,", s->keys_equal, s->key_confirmation);
    } else {
        printf(",,,");
    }
    if (s->energy_until_failure_uj >= 0.0) {
        printf("%.3f", s->energy_until_failure_uj);
    }
    putchar('\n');
}

/* The sides and the simulation, once the last SIM row has come. */
static void print_result(const struct printer *p)
{
    unsigned all = p->groups;
    int s;
    if (p->format == FORMAT_TABLE) {
        putchar('\n');
        model_print_table(stdout, p->rows, MODEL_SIDES, all & ~(unsigned)GROUP_CONFIG);
        print_sim_table(p);
    } else if (p->format == FORMAT_CSV) {
        printf("side");
        model_print_flat(stdout, NULL, all | GROUP_NO_SIDE, "", FLAT_CSV_NAMES);
        printf(",%s\n", SIM_CSV_NAMES);
        for (s = 0; s < MODEL_SIDES; s++) {
            printf("%s", p->rows[s].side);
            model_print_flat(stdout, &p->rows[s], all | GROUP_NO_SIDE, "", FLAT_CSV);
            print_sim_csv(&p->sim[s]);
        }
    } else {
        model_print_json_sides(stdout, p->rows, MODEL_SIDES, all);
    }
}

/* pqpan_run's emit: notes as lines (table) or members (JSON), the sides and SIM rows kept
 * until the last. */
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
        p->groups = row->groups;
        p->rows[p->sides++] = *row->exchange;
        break;
    case PQPAN_RUN_RECORD_SIM:
        p->sim[p->sims++] = *(const struct pqpan_run_sim_row *)row->data;
        if (p->sims == MODEL_SIDES && p->sides == MODEL_SIDES) {
            print_result(p);
        }
        break;
    default:
        return -1; /* other commands' records and 802.15.4's: not simulate's over BLE */
    }
    return ferror(stdout) ? -1 : 0;
}

/* The run's result as the CLI's exit status, its message on stderr (a file the run could
 * not write: said already, by outfile.c); a failed exchange, printed, is exit 1. */
static int run_status(int code, const struct pqpan_run_error *err, const struct printer *p)
{
    int rc = pqpan_run_exit_status(code);
    const struct pqpan_run_sim_row *t = &p->sim[MODEL_TOTAL];
    if (rc == EXIT_IO && (strcmp(err->option, "--pcap") == 0 || strcmp(err->option, "--trace") == 0)) {
        return rc;
    }
    return rc != EXIT_OK ? cli_run_status(CMD, code, err) : cli_simulate_outcome(t);
}

int cli_simulate_outcome(const struct pqpan_run_sim_row *total)
{
    if (strcmp(total->result, "completed") != 0) {
        fprintf(stderr, "pqpan %s: the exchange failed: %s\n", CMD, total->result);
        return EXIT_FAILURE_RUN;
    }
    if (!total->succeeded) {
        fprintf(stderr, "pqpan %s: the exchange ended without equal confirmed keys\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

static int run_request(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer *p;
    size_t n;
    int rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p = calloc(1, sizeof *p);
    if (p == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    p->format = cli_request_format(req, n);
    rc = run_status(pqpan_run(CMD, req, n, print_row, p, &err), &err, p);
    free(p);
    return rc;
}

int cli_simulate_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        cli_simulate_help(stdout);
        return EXIT_OK;
    }
    if (mesh_link_requested(argc, argv)) {
        return mesh_simulate_run(argc, argv);
    }
    if (lowpan_link_requested(argc, argv)) {
        return simulate_802154_run(argc, argv);
    }
    return run_request(argc, argv);
}
