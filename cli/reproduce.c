/* pqpan reproduce: the study's matrix and headline figures beside the model's, per reading.
 * The run is the run layer's (pqpan_run "reproduce", src/run/run_reproduce.c, which writes
 * --out's files too): this file turns argv into a request and prints the rows it gets back
 * (the table's notes and columns, the matrix as CSV, or the JSON's members and lists). */
#define _POSIX_C_SOURCE 200809L /* open_memstream (POSIX.1-2008) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "notes.h"
#include "opts_registry.h"
#include "pqpan/error.h"
#include "run_reproduce.h"

#define CMD "reproduce"

void cli_reproduce_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan reproduce [OPTIONS]\n\n"
            "Runs the study's matrix with the analytic model: ML-KEM-512/768/1024 x (no DLE: LL 27\n"
            "octets; DLE: LL 251) on the `study` transfer preset (ek as <= 400 B indications at\n"
            "ATT_MTU 403, ct as Write Requests with a frame-number byte; LE 1M, 50 ms interval,\n"
            "KeyGen+Decaps on the peripheral, unencrypted link), plus the LE Secure Connections\n"
            "pairing baseline (%s) at both LL sizes, and prints each headline figure beside the\n"
            "study's range: communication share without DLE (57-63 %%), total saving from DLE\n"
            "(25-34 %%), PQKE / LE SC energy ratio (2.5-8.5x), communication share with DLE at\n"
            "ML-KEM-1024 (about 37 %%). Headline figures are for the peripheral (the device that\n"
            "runs KeyGen and Decaps) in the bits accounting.\n\n"
            "Two readings, each with its own rows and verdicts: `defaults` (the sourced defaults\n"
            "and the options given) and `study` (the same, with the two accounting choices the\n"
            "study does not state set the way its figures point: the radio-only current table and\n"
            "one T_IFS per PDU sent in the bits accounting instead of every T_IFS of an event).\n\n"
            "options:\n",
            MODEL_LESC_NAME);
    cli_opt_rows_help(out, &reproduce_opts_table);
    model_opts_help(out);
    fprintf(out,
            "  (the study reading always uses the radio-only table, whatever --currents says)\n"
            "\nOutput: table (default); csv (one line per reading, row and side); json\n"
            "({\"readings\": [assumptions per reading], \"rows\": [one object per reading, row and\n"
            "side], \"headline\": [one object per reading and figure], \"modes\": [the per-mode\n"
            "table], \"builds\": [the sig modes in pqpan's small and speed Cortex-M4 builds]}), each\n"
            "object with \"reading\"; kem = \"%s\" for the baseline.\n"
            "Exit codes: 0 ok, 1 gnuplot failed, 2 usage, 3 bad data file, 4 I/O.\n",
            MODEL_LESC_NAME);
}

/* argv as a request of pqpan_run "reproduce". EXIT_OK, or EXIT_USAGE after a message. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = reproduce_opt_row(argv[i]);
        rc = o != NULL ? cli_request_add(req, n, o, CMD, argc, argv, &i)
                       : cli_unknown_option(CMD, NULL, argv[i]);
    }
    return rc;
}

/* The JSON's lists, in the order it prints them: the matrix, the headline, the per-mode
 * and the builds' tables (each kept in memory until the run has ended). */
#define N_LISTS 4
static const enum pqpan_run_record list_record[N_LISTS] = {
    PQPAN_RUN_RECORD_MATRIX, PQPAN_RUN_RECORD_HEADLINE, PQPAN_RUN_RECORD_MODE,
    PQPAN_RUN_RECORD_BUILD};

struct printer {
    enum cli_format format;
    enum pqpan_run_record last; /* the previous row's record: a table starts on a change */
    unsigned long items[N_LISTS];
    char *text[N_LISTS];
    size_t len[N_LISTS];
    FILE *list[N_LISTS];
    double small; /* a BUILD line: the small build's energy of the side */
};

/* A table's column heading, before its first row. */
static void print_heading(const struct pqpan_run_row *row)
{
    if (row->record == PQPAN_RUN_RECORD_MATRIX) {
        printf("\n%-12s %-4s %-10s %12s %12s %12s %7s %11s %12s\n", "kem", "dle", "side",
               "e_comp_uj", "e_comm_uj", "e_total_uj", "comm_%", "latency_ms", "e_events_uj");
    } else if (row->record == PQPAN_RUN_RECORD_HEADLINE) {
        char title[64];
        snprintf(title, sizeof title, "headline (%s, peripheral, bits)",
                 ((const struct pqpan_run_headline_row *)row->data)->reading);
        printf("\n%-44s %-18s %-12s %s\n", title, "model", "study", "verdict");
    } else if (row->record == PQPAN_RUN_RECORD_MODE) {
        printf("%-12s %-4s %-21s", "kem", "dle", "mode");
        printf(" %13s %7s %7s %13s %7s %7s\n", "peripheral", "x none", "x LESC", "central",
               "x none", "x LESC");
    } else {
        printf("%-12s %-4s %-11s %13s %13s %7s %13s %13s %7s\n", "kem", "dle", "mode",
               "periph_small", "periph_speed", "x small", "centr_small", "centr_speed",
               "x small");
    }
}

static void print_headline_line(const struct pqpan_run_headline_row *l)
{
    char model[32];
    if (l->model_lo == l->model_hi) {
        snprintf(model, sizeof model, "%.1f %s", l->model_lo, l->unit);
    } else {
        snprintf(model, sizeof model, "%.1f-%.1f %s", l->model_lo, l->model_hi, l->unit);
    }
    printf("%-44s %-18s %-12s %s\n", l->label, model, l->study, l->verdict);
}

/* A MODE row: the peripheral opens the line, the central ends it. */
static void print_mode_line(const struct pqpan_run_mode_row *m)
{
    if (strcmp(m->side, "peripheral") == 0) {
        char label[32];
        snprintf(label, sizeof label, "%s%s", m->mode, m->hybrid ? "+p256" : "");
        printf("%-12s %-4s %-21s", m->kem, m->dle ? "yes" : "no", label);
    }
    printf(" %13.3f %7.3f %7.3f", m->e_total_uj, m->x_none, m->x_lesc);
    if (strcmp(m->side, "central") == 0) {
        putchar('\n');
    }
}

/* A BUILD row: small then speed per side, the peripheral first. */
static void print_build_line(struct printer *p, const struct pqpan_run_build_row *b)
{
    int periph = strcmp(b->side, "peripheral") == 0;
    if (strcmp(b->build, "small") == 0) {
        if (periph) {
            printf("%-12s %-4s %-11s", b->kem, b->dle ? "yes" : "no", b->mode);
        }
        p->small = b->e_total_uj;
        return;
    }
    printf(" %13.3f %13.3f %7.3f", p->small, b->e_total_uj, b->x_small);
    if (!periph) {
        putchar('\n');
    }
}

static void print_table_row(struct printer *p, const struct pqpan_run_row *row)
{
    const struct pqpan_run_exchange_row *w = row->exchange;
    if (row->record != p->last) {
        print_heading(row);
    }
    if (row->record == PQPAN_RUN_RECORD_MATRIX) {
        printf("%-12s %-4s %-10s %12.3f %12.3f %12.3f %7.1f %11.3f %12.3f\n", w->kem,
               w->dle ? "yes" : "no", w->side, w->e_comp_uj, w->e_comm_uj, w->e_total_uj,
               w->comm_share_pct, w->latency_ms, w->e_total_events_uj);
    } else if (row->record == PQPAN_RUN_RECORD_HEADLINE) {
        print_headline_line(row->data);
    } else if (row->record == PQPAN_RUN_RECORD_MODE) {
        print_mode_line(row->data);
    } else {
        print_build_line(p, row->data);
    }
}

/* A row of a JSON list, appended to its list. */
static int put_item(struct printer *p, const struct pqpan_run_row *row)
{
    size_t k, i;
    for (i = 0; i < N_LISTS && list_record[i] != row->record; i++) {
    }
    fputs(p->items[i]++ ? ",\n" : "", p->list[i]);
    if (row->record == PQPAN_RUN_RECORD_MATRIX) {
        model_print_json_row(p->list[i], row->exchange, row->groups, "    ");
    } else {
        fputs("    {", p->list[i]);
        for (k = 0; k < row->n_fields; k++) {
            fprintf(p->list[i], "%s\"%s\": ", k ? ", " : "", row->fields[k].name);
            model_json_value(p->list[i], &row->fields[k], &row->values[k]);
        }
        fputc('}', p->list[i]);
    }
    return ferror(p->list[i]) ? -1 : 0;
}

/* pqpan_run's emit: a table's notes and rows as they come, the matrix as CSV, a JSON's
 * members at once and its lists kept for the end. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    int typed = row->record == PQPAN_RUN_RECORD_MATRIX || row->record == PQPAN_RUN_RECORD_HEADLINE ||
                row->record == PQPAN_RUN_RECORD_MODE || row->record == PQPAN_RUN_RECORD_BUILD;
    if (!typed) {
        cli_print_text_row(CMD, p->format, row);
    } else if (p->format == FORMAT_JSON) {
        return put_item(p, row);
    } else if (p->format == FORMAT_TABLE) {
        print_table_row(p, row);
    } else if (row->record == PQPAN_RUN_RECORD_MATRIX) {
        if (p->items[0]++ == 0) {
            model_print_csv_header(stdout, row->groups);
        }
        model_print_csv_row(stdout, row->exchange, row->groups);
    }
    p->last = row->record;
    return ferror(stdout) ? -1 : 0;
}

/* The JSON's lists after its members, and its end. */
static void print_lists(const struct printer *p)
{
    static const char *const keys[N_LISTS] = {"rows", "headline", "modes", "builds"};
    int i;
    for (i = 0; i < N_LISTS; i++) {
        printf("  \"%s\": [\n%s\n  ]%s\n", keys[i], p->text[i] != NULL ? p->text[i] : "",
               i + 1 < N_LISTS ? "," : "");
    }
    printf("}\n");
}

static int printer_open(struct printer *p, enum cli_format format)
{
    int i, rc = 0;
    memset(p, 0, sizeof *p);
    p->format = format;
    p->last = PQPAN_RUN_RECORD_NOTE;
    for (i = 0; i < N_LISTS; i++) {
        p->list[i] = open_memstream(&p->text[i], &p->len[i]);
        rc |= p->list[i] == NULL ? -1 : 0;
    }
    return rc;
}

/* Closes the lists (-1 if one could not be written); printer_free frees them. */
static int printer_close(struct printer *p)
{
    int i, rc = 0;
    for (i = 0; i < N_LISTS; i++) {
        if (p->list[i] != NULL && fclose(p->list[i]) != 0) {
            rc = -1;
        }
        p->list[i] = NULL;
    }
    return rc;
}

static void printer_free(struct printer *p)
{
    int i;
    for (i = 0; i < N_LISTS; i++) {
        free(p->text[i]);
    }
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

int cli_reproduce_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer *p;
    size_t n;
    int code, rc;
    if (cli_wants_help(argc, argv)) {
        cli_reproduce_help(stdout);
        return EXIT_OK;
    }
    rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p = malloc(sizeof *p);
    if (p == NULL || printer_open(p, cli_request_format(req, n)) != 0) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        if (p != NULL) {
            (void)printer_close(p);
            printer_free(p);
        }
        free(p);
        return EXIT_FAILURE_RUN;
    }
    code = pqpan_run(CMD, req, n, print_row, p, &err);
    if (printer_close(p) != 0 && code == PQPAN_OK) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        code = PQPAN_ERR_CAPACITY;
    }
    if (p->format == FORMAT_JSON && p->items[0] > 0) {
        print_lists(p);
    }
    printer_free(p);
    free(p);
    return code == PQPAN_ERR_CAPACITY ? EXIT_FAILURE_RUN : run_status(code, &err);
}
