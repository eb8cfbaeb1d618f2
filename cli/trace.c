/* pqpan trace: per-phase energy of a PPK2 CSV capture. The run is the run layer's
 * (pqpan_run "trace", src/run/run_trace.c: the capture streamed in fixed-size chunks); this
 * file turns argv into a request and prints the rows it gets back as a table, CSV or JSON. */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"
#include "opts_registry.h"
#include "pqpan/run.h"
#include "pqpan/trace.h"
#include "run_trace.h"

#define CMD "trace"

void cli_trace_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan trace FILE [OPTIONS]\n\n"
            "Reads a Nordic Power Profiler Kit II CSV export (nRF Connect Power Profiler:\n"
            "Timestamp(ms),Current(uA) with optional D0-D7 and/or D0,...,D7 columns) and prints\n"
            "rows read and skipped, duration, energy and current statistics for the whole trace\n"
            "and for each phase. FILE '-' reads standard input. The file is streamed in 64 KiB\n"
            "chunks, so memory use does not grow with its size.\n\n"
            "Energy is the trapezoidal integral of I*V over time; gaps between rows are bridged\n"
            "linearly. A --phases phase owns the intervals that start at a row where its channel\n"
            "reads 1; a --window phase owns the part of each interval inside the window.\n"
            "Currents and energies are net of the baseline (none unless --baseline-ua).\n\n"
            "options:\n");
    cli_opt_rows_help(out, &trace_opts_table);
    cli_opt_rows_help(out, &cli_format_table);
    fprintf(out,
            "\n"
            "At most %d phases. Median and p99 come from a histogram with bins %.1f %% wide:\n"
            "each is within %.2f %% (or %.2f uA near zero) of the exact value, exact when its\n"
            "bin holds one repeated value; min and max are exact. min, median, p99 and max are\n"
            "over the phase's rows; avg is energy / (V x duration), a mean of the trapezoids of\n"
            "the phase's intervals, which end at the row after the phase (or a window's cut):\n"
            "when the current jumps there, avg can lie outside [min, max].\n"
            "Exit codes: 0 ok, 2 usage, 3 bad input (names the line), 4 I/O.\n",
            PQPAN_TRACE_MAX_PHASES, PQPAN_TRACE_HIST_STEP * 100.0,
            PQPAN_TRACE_QUANTILE_REL_ERROR * 100.0, PQPAN_TRACE_HIST_FLOOR_UA);
}

/* argv as a request of pqpan_run "trace": each option of trace's tables with its value (a
 * flag without one), FILE as the pair ("FILE", path). EXIT_OK, or EXIT_USAGE after a
 * message (an unknown option, one without its value). */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const char *a = argv[i];
        const struct cli_opt *o = trace_opt_row(a);
        if (o != NULL) {
            rc = cli_request_add(req, n, o, CMD, argc, argv, &i);
        } else if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option(CMD, NULL, a);
        } else if (*n == CLI_REQUEST_MAX) {
            return cli_usage_error(CMD, "too many arguments");
        } else {
            req[*n].name = TRACE_FILE;
            req[*n].value = a;
            ++*n;
        }
    }
    return rc;
}

/* Rounded to 3 decimals, with -0 shown as 0 so outputs are byte-stable. */
static double round3(double v)
{
    v = round(v * 1000.0) / 1000.0;
    return v == 0.0 ? 0.0 : v;
}

static double round6(double v)
{
    v = round(v * 1e6) / 1e6;
    return v == 0.0 ? 0.0 : v;
}

/* Table column width: the label, at least 9 characters for counts and 11 for values. */
static int column_width(const struct pqpan_run_field *f)
{
    int min = f->store == PQPAN_RUN_STORE_ULL ? 9 : 11;
    int len = (int)strlen(f->label);
    return len > min ? len : min;
}

/* A phase's or segment's row (its first field the phase's name) as a table line, CSV
 * fields or a JSON object; the header line of a table or CSV. */
static void print_table_header(const struct pqpan_run_row *row)
{
    size_t i;
    printf("%-10s", "phase");
    for (i = 1; i < row->n_fields; i++) {
        printf(" %*s", column_width(&row->fields[i]), row->fields[i].label);
    }
    printf("\n");
}

static void print_table_row(const struct pqpan_run_row *row)
{
    size_t i;
    printf("%-10s", row->values[0].text);
    for (i = 1; i < row->n_fields; i++) {
        const struct pqpan_run_value *v = &row->values[i];
        if (v->type == PQPAN_RUN_COUNT) {
            printf(" %*llu", column_width(&row->fields[i]), v->u);
        } else {
            printf(" %*.3f", column_width(&row->fields[i]), round3(v->x));
        }
    }
    printf("\n");
}

static void print_csv_header(const struct pqpan_run_row *row, const char *extra)
{
    size_t i;
    printf("phase");
    for (i = 1; i < row->n_fields; i++) {
        printf(",%s", row->fields[i].name);
    }
    printf("%s\n", extra);
}

static void print_csv_fields(const struct pqpan_run_row *row)
{
    size_t i;
    printf("%s", row->values[0].text);
    for (i = 1; i < row->n_fields; i++) {
        const struct pqpan_run_value *v = &row->values[i];
        if (v->type == PQPAN_RUN_COUNT) {
            printf(",%llu", v->u);
        } else {
            printf(",%.3f", round3(v->x));
        }
    }
}

static cJSON *json_fields(const struct pqpan_run_row *row)
{
    cJSON *o = cJSON_CreateObject();
    size_t i;
    cJSON_AddStringToObject(o, "phase", row->values[0].text);
    for (i = 1; i < row->n_fields; i++) {
        const struct pqpan_run_value *v = &row->values[i];
        cJSON_AddNumberToObject(o, row->fields[i].name,
                                v->type == PQPAN_RUN_COUNT ? (double)v->u : round3(v->x));
    }
    return o;
}

/* What is printed as the rows come: the capture's figures (kept for CSV's phase lines),
 * whether segments were asked for and their heading printed, and the JSON tree. */
struct printer {
    enum cli_format format;
    int segments, seg_heading, phases;
    struct pqpan_run_trace_row t;
    char source[16];
    cJSON *root, *phase_list, *seg_list;
};

static void print_summary(struct printer *p, const struct pqpan_run_trace_row *t)
{
    p->t = *t;
    snprintf(p->source, sizeof p->source, "%s", t->baseline_source);
    p->t.baseline_source = p->source;
    if (p->format == FORMAT_TABLE) {
        printf("rows read          %llu\n", t->rows_read);
        printf("rows skipped       %llu\n", t->rows_skipped);
        printf("supply voltage     %.3f V\n", t->voltage_v);
        printf("baseline           %.3f uA (%s)\n", t->baseline_ua, t->baseline_source);
        printf("sample interval    %.6f .. %.6f ms (min .. max)\n", t->min_interval_ms,
               t->max_interval_ms);
        printf("quantile error     <= %.2f %% or %.2f uA (median, p99; min and max exact)\n\n",
               t->quantile_rel_error * 100.0, t->quantile_abs_error_ua);
    } else if (p->format == FORMAT_JSON) {
        cJSON_AddNumberToObject(p->root, "rows_read", (double)t->rows_read);
        cJSON_AddNumberToObject(p->root, "rows_skipped", (double)t->rows_skipped);
        cJSON_AddNumberToObject(p->root, "voltage_v", round6(t->voltage_v));
        cJSON_AddNumberToObject(p->root, "baseline_ua", round6(t->baseline_ua));
        cJSON_AddStringToObject(p->root, "baseline_source", t->baseline_source);
        cJSON_AddNumberToObject(p->root, "min_interval_ms", round6(t->min_interval_ms));
        cJSON_AddNumberToObject(p->root, "max_interval_ms", round6(t->max_interval_ms));
        cJSON_AddNumberToObject(p->root, "quantile_rel_error", t->quantile_rel_error);
        cJSON_AddNumberToObject(p->root, "quantile_abs_error_ua", t->quantile_abs_error_ua);
    }
}

/* The whole trace (the first TRACE_PHASE row) or a phase. One CSV holds one table: the
 * phases, or with --segments the segments. */
static void print_phase(struct printer *p, const struct pqpan_run_row *row)
{
    if (p->format == FORMAT_TABLE) {
        if (p->phases == 0) {
            print_table_header(row);
        }
        print_table_row(row);
    } else if (p->format == FORMAT_CSV && !p->segments) {
        if (p->phases == 0) {
            print_csv_header(row, ",rows_read,rows_skipped,voltage_v,baseline_ua,baseline_source");
        }
        print_csv_fields(row);
        printf(",%llu,%llu,%.3f,%.3f,%s\n", p->t.rows_read, p->t.rows_skipped, p->t.voltage_v,
               p->t.baseline_ua, p->t.baseline_source);
    } else if (p->format == FORMAT_JSON && p->phases == 0) {
        cJSON_AddItemToObject(p->root, "total", json_fields(row));
        cJSON_AddItemToObject(p->root, "phases", p->phase_list = cJSON_CreateArray());
    } else if (p->format == FORMAT_JSON) {
        cJSON_AddItemToArray(p->phase_list, json_fields(row));
    }
    p->phases++;
}

/* The segments' heading (table: a title and the header; CSV: the header; JSON: the array),
 * before the first segment or, when there is none, at the end. */
static void print_seg_heading(struct printer *p, const struct pqpan_run_row *row)
{
    static const struct pqpan_run_field names[] = {
        {"phase", "phase", NULL, 0, PQPAN_RUN_STORE_TEXT, 0, 0},
        {"index", "index", NULL, 0, PQPAN_RUN_STORE_ULL, 0, 0},
        {"samples", "samples", NULL, 0, PQPAN_RUN_STORE_ULL, 0, 0},
        {"start_ms", "start_ms", NULL, 0, PQPAN_RUN_STORE_REAL, 0, 0},
        {"duration_ms", "duration_ms", NULL, 0, PQPAN_RUN_STORE_REAL, 0, 0},
        {"energy_uj", "energy_uj", NULL, 0, PQPAN_RUN_STORE_REAL, 0, 0},
        {"avg_current_ua", "avg_ua", NULL, 0, PQPAN_RUN_STORE_REAL, 0, 0},
        {"min_current_ua", "min_ua", NULL, 0, PQPAN_RUN_STORE_REAL, 0, 0},
        {"max_current_ua", "max_ua", NULL, 0, PQPAN_RUN_STORE_REAL, 0, 0},
    };
    struct pqpan_run_row none;
    if (row == NULL) { /* no segment: the header from the names the rows would have */
        memset(&none, 0, sizeof none);
        none.fields = names;
        none.n_fields = sizeof names / sizeof names[0];
        row = &none;
    }
    if (p->format == FORMAT_TABLE) {
        printf("\nsegments\n");
        print_table_header(row);
    } else if (p->format == FORMAT_CSV) {
        print_csv_header(row, "");
    } else {
        cJSON_AddItemToObject(p->root, "segments", p->seg_list = cJSON_CreateArray());
    }
    p->seg_heading = 1;
}

static void print_segment(struct printer *p, const struct pqpan_run_row *row)
{
    if (!p->seg_heading) {
        print_seg_heading(p, row);
    }
    if (p->format == FORMAT_TABLE) {
        print_table_row(row);
    } else if (p->format == FORMAT_CSV) {
        print_csv_fields(row);
        printf("\n");
    } else {
        cJSON_AddItemToArray(p->seg_list, json_fields(row));
    }
}

/* pqpan_run's emit: each row printed as it comes (JSON: into the tree), warnings on stderr. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_WARNING:
        cli_warn(CMD, "%s", row->values[0].text);
        break;
    case PQPAN_RUN_RECORD_TRACE:
        print_summary(p, row->data);
        break;
    case PQPAN_RUN_RECORD_TRACE_PHASE:
        print_phase(p, row);
        break;
    case PQPAN_RUN_RECORD_SEGMENT:
        print_segment(p, row);
        break;
    default:
        return -1; /* other commands' records: not trace's */
    }
    return ferror(stdout) ? -1 : 0;
}

/* The end of a run that succeeded: an empty segment list's heading, the JSON tree. */
static int finish(struct printer *p)
{
    char *text;
    if (p->segments && !p->seg_heading) {
        print_seg_heading(p, NULL);
    }
    if (p->format != FORMAT_JSON) {
        return EXIT_OK;
    }
    text = cJSON_Print(p->root);
    if (text == NULL) {
        fprintf(stderr, "pqpan trace: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return EXIT_OK;
}

int cli_trace_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int rc, i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_trace_help(stdout);
            return EXIT_OK;
        }
    }
    rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    memset(&p, 0, sizeof p);
    p.format = cli_request_format(req, n);
    p.segments = pqpan_run_flag_on(req, n, "--segments");
    p.root = p.format == FORMAT_JSON ? cJSON_CreateObject() : NULL;
    if (p.format == FORMAT_JSON && p.root == NULL) {
        fprintf(stderr, "pqpan trace: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    rc = cli_run_status(CMD, pqpan_run(CMD, req, n, print_row, &p, &err), &err);
    if (rc == EXIT_OK) {
        rc = finish(&p);
    }
    cJSON_Delete(p.root);
    return rc;
}
