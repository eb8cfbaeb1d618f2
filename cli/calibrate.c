/* pqpan calibrate: fits γ_comp per operation and γ_comm to measured PPK2 traces
 * (docs/MODEL.md "Calibration", docs/CLI.md "pqpan calibrate"). The fit is the run layer's
 * (pqpan_run "calibrate", src/run/run_calibrate.c), which also writes --out: this file
 * turns argv into a request and prints the rows it gets back (the table's lines, the JSON
 * members, the CSV from the RESIDUAL rows' field table). */
#include <stdio.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "link_opts.h"
#include "opts_registry.h"
#include "pqpan/calibrate.h"
#include "pqpan/run.h"
#include "run_calibrate.h"

#define CMD "calibrate"

void cli_calibrate_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan calibrate --trace FILE [--trace FILE ...] [OPTIONS]\n\n"
            "Fits the energy model's correction factors to measured Power Profiler Kit II\n"
            "captures (CSV with digital channels): gamma_comp per crypto operation and gamma_comm,\n"
            "by least squares through the origin over all traces, gamma = sum(m*p) / sum(p^2),\n"
            "m the measured and p the model's energy at gamma = 1 for the same configuration\n"
            "(the link and energy options below, as for `pqpan estimate`). Prints the fit, its\n"
            "standard error, per-trace residuals, and writes a calibration overlay (--out) that\n"
            "estimate, simulate and reproduce read with --calibration FILE.\n\n"
            "Each trace is one side of one key exchange. Measured quantities (gross energy, no\n"
            "baseline subtracted unless --baseline-ua; the profile's currents are whole-chip):\n"
            "  crypto  each segment of the crypto channel (default D0 high) is one operation, in\n"
            "          the order run (--protocol study: KeyGen side kem_keygen,kem_decaps, the\n"
            "          other side kem_encaps; pqpan: KeyGen side kem_keygen,kem_decaps,kdf, the\n"
            "          other side kem_encaps,kdf, each key schedule its own segment; %s:\n"
            "          ecdh_keygen,ecdh_shared on both sides)\n"
            "  comm    the sum over the radio channel's segments (default D1 high: a link-layer\n"
            "          event, from its CPU pre-processing to its post-processing), against\n"
            "          --comm-model bits: the bits accounting (TX/RX/T_IFS of the key transfer)\n"
            "          at gamma_comm = 1, so gamma_comm absorbs ramp-up, negotiation and idle\n"
            "          events as in the study (default); radio: the link-layer event states of the\n"
            "          events accounting (pre-/post-processing, crystal start, ramp-up, receive\n"
            "          window, TX/RX/T_IFS, every phase), so gamma_comm corrects those currents\n"
            "  Rows with both channels high (a connection event during a crypto operation)\n"
            "  count as radio and are taken out of that operation (--overlap preempt: the\n"
            "  controller suspends the operation for the event, as `pqpan simulate` has it),\n"
            "  or are shared between them (--overlap concurrent).\n"
            "  advertising: rows with the advertising channel high (default D2: the side\n"
            "  advertises or scans until the connection) are the trace's advertising segment,\n"
            "  reported and left out of comm, and the model is taken without its advertising\n"
            "  phase; a trace that marks none is compared with the model's advertising phase\n"
            "  as --adv-interval-ms sets it (its expected length; 0: the capture has none).\n\n"
            ,
            MODEL_LESC_NAME);
    cli_opt_table_help(out, &calibrate_opts_table);
    fputc('\n', out);
    link_opts_help(out);
    fprintf(out, "\nenergy options (--calibration and --gamma-* do not apply: the fit uses gamma = 1):\n");
    cli_opt_rows_help(out, &model_energy_table);
    cli_opt_rows_help(out, &model_ramp_table);
    cli_opt_rows_help(out, &model_crypto_table);
    cli_opt_rows_help(out, &cli_format_table);
    fprintf(out,
            "\nWarns (stderr) when a fitted gamma is outside the study's ranges (gamma_comp\n"
            "%.2f-%.2f, gamma_comm %.2f-%.2f); never clamps. With one point a standard error\n"
            "cannot be estimated and is reported as such.\n"
            "Exit codes: 0 ok, 2 usage (also an --ops operation the exchange does not run, or\n"
            "--protocol pqpan with %s), 3 bad trace (names the file and line) or segments that do\n"
            "not match the operations, 4 I/O.\n",
            PQPAN_GAMMA_COMP_STUDY_MIN, PQPAN_GAMMA_COMP_STUDY_MAX, PQPAN_GAMMA_COMM_STUDY_MIN,
            PQPAN_GAMMA_COMM_STUDY_MAX, MODEL_LESC_NAME);
}

/* argv as a request of pqpan_run "calibrate". EXIT_OK, or EXIT_USAGE after a message. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = calibrate_opt_row(argv[i]);
        if (o == NULL) {
            return strncmp(argv[i], "--", 2) != 0
                       ? cli_usage_error(CMD, "unexpected argument '%s'", argv[i])
                       : cli_unknown_option(CMD, NULL, argv[i]);
        }
        rc = cli_request_add(req, n, o, CMD, argc, argv, &i);
    }
    return rc;
}

/* One value of a CSV line: empty when the row has none. */
static void print_csv_value(const struct pqpan_run_field *f, const struct pqpan_run_value *v)
{
    if (!v->known) {
        return;
    }
    switch (v->type) {
    case PQPAN_RUN_TEXT:
        fputs(v->text, stdout);
        break;
    case PQPAN_RUN_INT:
        printf("%lld", v->i);
        break;
    case PQPAN_RUN_COUNT:
        printf("%llu", v->u);
        break;
    case PQPAN_RUN_REAL:
        printf("%.*f", f->decimals, v->x);
        break;
    }
}

/* A row as a CSV line, after the header of its field names when it is the first. */
static void print_csv_row(const struct pqpan_run_row *row, int first)
{
    size_t k;
    for (k = 0; first && k < row->n_fields; k++) {
        printf("%s%s", k > 0 ? "," : "", row->fields[k].name);
    }
    if (first) {
        putchar('\n');
    }
    for (k = 0; k < row->n_fields; k++) {
        if (k > 0) {
            putchar(',');
        }
        print_csv_value(&row->fields[k], &row->values[k]);
    }
    putchar('\n');
}

struct printer {
    enum cli_format format;
    int csv_lines;
};

/* pqpan_run's emit: the table's lines, the JSON object, or a CSV line per data point. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
    case PQPAN_RUN_RECORD_WARNING:
        cli_print_text_row(CMD, p->format, row);
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        if (p->format == FORMAT_JSON) {
            printf("{\n%s}\n", row->values[0].text);
        }
        break;
    case PQPAN_RUN_RECORD_RESIDUAL:
        if (p->format == FORMAT_CSV) {
            print_csv_row(row, p->csv_lines++ == 0);
        }
        break;
    case PQPAN_RUN_RECORD_FIT:
    case PQPAN_RUN_RECORD_CALIBRATE_TRACE:
        break; /* in the table's lines and the JSON members */
    default:
        return -1; /* other commands' records: not calibrate's */
    }
    return ferror(stdout) ? -1 : 0;
}

int cli_calibrate_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_calibrate_help(stdout);
        return EXIT_OK;
    }
    rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p.format = cli_request_format(req, n);
    p.csv_lines = 0;
    return cli_run_status(CMD, pqpan_run(CMD, req, n, print_row, &p, &err), &err);
}
