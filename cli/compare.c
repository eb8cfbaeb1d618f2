/* pqpan compare: the PQKE over BLE (no DLE / DLE) against IEEE 802.15.4 at 0, 10 and 30 %
 * channel load. The run is the run layer's (pqpan_run "compare", src/run/run_compare.c,
 * which writes --out's files too; --mesh's run is src/run/run_compare_mesh.c): this file
 * turns argv into a request and prints the rows it gets back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "lowpan_sim.h"
#include "notes.h"
#include "opts_registry.h"
#include "pqpan/error.h"
#include "run_compare.h"

#define CMD "compare"

void cli_compare_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan compare [OPTIONS]\n\n"
            "The PQKE (pqpan's INIT / RESP / FIN) for ML-KEM-512, -768 and -1024 over:\n"
            "  ble-noDLE, ble-DLE      BLE, the study's preset with LL payloads of 27 and 251\n"
            "                          octets (analytic estimator, no losses: failure rate 0)\n"
            "  802154-0, -10, -30      6LoWPAN over IEEE 802.15.4 (IEEE CSMA-CA defaults,\n"
            "                          extended addresses) at 0 %%, 10 %% and 30 %% channel load\n"
            "                          (contention simulator, --runs seeded runs)\n"
            "Channel load X %% = %u background nodes, each sending %u-octet frames (PSDU;\n"
            "%.3f ms on air) at X / (%u x %.3f ms) frames/s, Poisson; 0 %% = the pair alone.\n"
            "Energy is both sides together, every radio and CPU state (BLE: events accounting\n"
            "from the CONNECT_IND with the ATT MTU exchange, without advertising, feature\n"
            "exchange, parameter update or discovery, which 802.15.4 has no counterpart of here;\n"
            "802.15.4: all-states accounting with the profile's ieee802154 currents), mean and\n"
            "p90 over the runs; latency is KeyGen start to the last acknowledgement.\n\n"
            "options:\n",
            COMPARE_BG_NODES, COMPARE_BG_PSDU, lowpan_frame_ms(COMPARE_BG_PSDU), COMPARE_BG_NODES,
            lowpan_frame_ms(COMPARE_BG_PSDU));
    cli_opt_rows_help(out, &compare_opts_table);
    cli_opt_rows_help_only(out, &lowpan_exchange_table, compare_exchange);
    cli_opt_rows_help_only(out, &lowpan_opts_table, compare_backoff);
    cli_opt_rows_help_only(out, &lowpan_chain_table, compare_forwarding);
    cli_opt_rows_help(out, &link_pqke_table);
    model_opts_help(out);
    fprintf(out, "\nExit codes: 0 ok, 1 gnuplot failed, 2 usage, 3 bad data file, 4 I/O.\n");
}

/* ---- the request and its rows ---- */

/* argv as a request of pqpan_run "compare": each option of compare's tables with its value,
 * a flag without one. EXIT_OK, or EXIT_USAGE after a message. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    struct compare_opts *scratch = malloc(sizeof *scratch);
    int i, rc = scratch == NULL ? cli_usage_error(CMD, "out of memory") : EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        void *into;
        const struct cli_opt *o = compare_opt_row(argv[i], scratch, &into);
        rc = o != NULL ? cli_request_add(req, n, o, CMD, argc, argv, &i)
                       : cli_unknown_option(CMD, NULL, argv[i]);
    }
    free(scratch);
    return rc;
}

struct printer {
    enum cli_format format;
    unsigned cells;
    struct cli_progress progress;
};

/* A table line of a CELL row (the header before the first). */
static void print_cell_line(const struct printer *p, const struct pqpan_run_compare_cell *c)
{
    if (p->cells == 0) {
        printf("%-12s %-10s %9s %12s %12s %11s %11s %8s\n", "KEM", "link", "load fps",
               "energy uJ", "p90 uJ", "latency ms", "p90 ms", "failed");
    }
    printf("%-12s %-10s %9.3f %12.3f %12.3f %11.3f %11.3f %8.4f\n", c->kem, c->link,
           c->load_fps, c->energy_uj, c->energy_p90_uj, c->latency_ms, c->latency_p90_ms,
           c->failure_rate);
}

/* A table line of a MESH_CELL row (the header before the first); "-": no forwarder. */
static void print_mesh_line(const struct printer *p, const struct pqpan_run_mesh_cell *c)
{
    if (p->cells == 0) {
        printf("%-12s %-18s %4s %11s %12s %14s %15s\n", "KEM", "network", "hops", "latency ms",
               "source uJ", "forwarder uJ", "destination uJ");
    }
    printf("%-12s %-18s %4u %11.3f %12.3f ", c->kem, c->network, c->hops, c->latency_ms,
           c->source_uj);
    if (c->forwarder_max_uj >= 0.0) {
        printf("%14.3f", c->forwarder_max_uj);
    } else {
        printf("%14s", "-");
    }
    printf(" %15.3f\n", c->destination_uj);
}

/* One CELL or MESH_CELL row: a line of the table, of CSV, or an item of the JSON's "rows". */
static void print_cell(struct printer *p, const struct pqpan_run_row *row)
{
    size_t k;
    if (p->format == FORMAT_TABLE && row->record == PQPAN_RUN_RECORD_CELL) {
        print_cell_line(p, row->data);
    } else if (p->format == FORMAT_TABLE) {
        print_mesh_line(p, row->data);
    } else if (p->format == FORMAT_CSV) {
        if (p->cells == 0) {
            model_fields_csv_header(stdout, row->fields, row->n_fields, 0);
        }
        model_fields_csv_row(stdout, row->fields, row->n_fields, 0, row->data);
    } else {
        printf("%s    {", p->cells == 0 ? "  \"rows\": [\n" : ",\n");
        for (k = 0; k < row->n_fields; k++) {
            printf("%s\"%s\": ", k ? ", " : "", row->fields[k].name);
            model_json_value(stdout, &row->fields[k], &row->values[k]);
        }
        putchar('}');
    }
    p->cells++;
}

/* pqpan_run's emit: the notes as lines (table) or members (JSON), the cells, the progress
 * line on a terminal. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    if (row->record == PQPAN_RUN_RECORD_CELL || row->record == PQPAN_RUN_RECORD_MESH_CELL) {
        print_cell(p, row);
    } else if (row->record == PQPAN_RUN_RECORD_PROGRESS) {
        const struct pqpan_run_progress_row *g = row->data;
        p->progress.cmd = CMD;
        cli_progress_runs(&p->progress, g->done, g->runs);
    } else {
        cli_print_text_row(CMD, p->format, row);
    }
    return ferror(stdout) ? -1 : 0;
}

/* The run's result as the CLI's exit status; a file of --out that could not be written or
 * rendered was said already (figure.c). */
static int run_status(int code, const struct pqpan_run_error *err)
{
    int rc = pqpan_run_exit_status(code);
    if (strcmp(err->option, "--out") == 0 && (rc == EXIT_IO || rc == EXIT_FAILURE_RUN)) {
        return rc;
    }
    return cli_run_status(CMD, code, err);
}

int cli_compare_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int code, rc;
    if (cli_wants_help(argc, argv)) {
        cli_compare_help(stdout);
        return EXIT_OK;
    }
    rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    memset(&p, 0, sizeof p);
    p.format = cli_request_format(req, n);
    code = pqpan_run(CMD, req, n, print_row, &p, &err);
    if (p.format == FORMAT_JSON && p.cells > 0) {
        printf("\n  ]\n}\n");
    }
    return run_status(code, &err);
}
