/* pqpan trace: per-phase energy of a PPK2 CSV capture, streamed in fixed-size chunks. */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"
#include "pqpan/trace.h"
#include "opts_registry.h"

#define CMD "trace"
#define CHUNK_BYTES 65536

struct trace_opts {
    const char *path;
    enum cli_format format;
    unsigned parser_flags;
    int segments;
    struct pqpan_trace_config cfg;
};

/* The parser callback's context: the analysis, its histogram workspace and, with
 * --segments, a temporary file collecting the segments (memory stays constant). */
struct trace_run {
    struct pqpan_trace analysis;
    struct pqpan_trace_bin *ws;
    FILE *seg_file;
};

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

static int valid_phase_name(const char *s, size_t len)
{
    size_t i;
    if (len == 0 || len >= PQPAN_TRACE_NAME_MAX) {
        return 0;
    }
    for (i = 0; i < len; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_' || c == '-')) {
            return 0;
        }
    }
    return 1;
}

/* Appends a phase named s[0..len); returns it, or NULL (message printed) on error. */
static struct pqpan_trace_phase_def *new_phase(struct pqpan_trace_config *cfg, const char *s,
                                               size_t len)
{
    struct pqpan_trace_phase_def *d;
    size_t i;
    if (!valid_phase_name(s, len)) {
        cli_usage_error(CMD, "bad phase name '%.*s' (1-%d of A-Z a-z 0-9 _ -)", (int)len, s,
                        PQPAN_TRACE_NAME_MAX - 1);
        return NULL;
    }
    for (i = 0; i < cfg->n_phases; i++) {
        if (strlen(cfg->phases[i].name) == len && memcmp(cfg->phases[i].name, s, len) == 0) {
            cli_usage_error(CMD, "phase '%.*s' given twice", (int)len, s);
            return NULL;
        }
    }
    if (cfg->n_phases == PQPAN_TRACE_MAX_PHASES) {
        cli_usage_error(CMD, "at most %d phases", PQPAN_TRACE_MAX_PHASES);
        return NULL;
    }
    d = &cfg->phases[cfg->n_phases++];
    memset(d, 0, sizeof *d);
    memcpy(d->name, s, len);
    return d;
}

/* One item of --phases: dN=NAME (or DN=NAME). */
static int parse_phase_item(struct pqpan_trace_config *cfg, const char *s, size_t len)
{
    struct pqpan_trace_phase_def *d;
    if (len < 4 || (s[0] != 'd' && s[0] != 'D') || s[1] < '0' || s[1] > '7' || s[2] != '=') {
        return cli_usage_error(CMD, "bad --phases item '%.*s' (want dN=NAME, N = 0..7)", (int)len, s);
    }
    d = new_phase(cfg, s + 3, len - 3);
    if (d == NULL) {
        return EXIT_USAGE;
    }
    d->kind = PQPAN_TRACE_PHASE_DIGITAL;
    d->channel = (uint8_t)(s[1] - '0');
    return EXIT_OK;
}

static int parse_phases(struct pqpan_trace_config *cfg, const char *list)
{
    const char *item = list;
    for (;;) {
        const char *comma = strchr(item, ',');
        size_t len = comma != NULL ? (size_t)(comma - item) : strlen(item);
        int rc = parse_phase_item(cfg, item, len);
        if (rc != EXIT_OK) {
            return rc;
        }
        if (comma == NULL) {
            return EXIT_OK;
        }
        item = comma + 1;
    }
}

/* Milliseconds (CLI side: strtod is fine here) -> ns. */
static int parse_ms(const char *s, int64_t *ns)
{
    double ms;
    if (cli_parse_double(s, -(double)PQPAN_PPK2_TIME_MAX_MS, (double)PQPAN_PPK2_TIME_MAX_MS, &ms) != 0) {
        return -1;
    }
    *ns = (int64_t)llround(ms * 1e6);
    return 0;
}

static int parse_window(struct pqpan_trace_config *cfg, const char *arg)
{
    char buf[128];
    const char *eq = strchr(arg, '=');
    char *colon;
    struct pqpan_trace_phase_def *d;
    int64_t start, end;
    if (eq == NULL || strlen(eq + 1) >= sizeof buf) {
        return cli_usage_error(CMD, "bad --window '%s' (want NAME=START:END in ms)", arg);
    }
    strcpy(buf, eq + 1);
    colon = strchr(buf, ':');
    if (colon == NULL) {
        return cli_usage_error(CMD, "bad --window '%s' (want NAME=START:END in ms)", arg);
    }
    *colon = '\0';
    if (parse_ms(buf, &start) != 0 || parse_ms(colon + 1, &end) != 0 || start >= end) {
        return cli_usage_error(CMD, "bad --window '%s' (START and END in ms, START < END)", arg);
    }
    d = new_phase(cfg, arg, (size_t)(eq - arg));
    if (d == NULL) {
        return EXIT_USAGE;
    }
    d->kind = PQPAN_TRACE_PHASE_WINDOW;
    d->start_ns = start;
    d->end_ns = end;
    return EXIT_OK;
}

/* --phases LIST (field: the struct pqpan_trace_config). */
static int set_phases(void *field, const char *v)
{
    return parse_phases(field, v) == EXIT_OK ? 0 : CLI_OPT_REPORTED;
}

/* --window NAME=START:END (field: the struct pqpan_trace_config), repeatable. */
static int set_window(void *field, const char *v)
{
    return parse_window(field, v) == EXIT_OK ? 0 : CLI_OPT_REPORTED;
}

/* --baseline-ua X|auto (field: the struct pqpan_trace_config). */
static int set_baseline(void *field, const char *v)
{
    struct pqpan_trace_config *cfg = field;
    if (cli_word_equal(v, "auto")) {
        cfg->baseline = PQPAN_TRACE_BASELINE_PERCENTILE;
        return 0;
    }
    if (cli_parse_double(v, -1e9, 1e9, &cfg->baseline_ua) != 0) {
        return -1;
    }
    cfg->baseline = PQPAN_TRACE_BASELINE_FIXED;
    return 0;
}

/* --lenient: the parser's flag (field: the unsigned parser_flags). */
static int set_lenient(void *field, const char *v)
{
    unsigned flags;
    (void)v;
    memcpy(&flags, field, sizeof flags);
    flags |= PQPAN_PPK2_LENIENT;
    memcpy(field, &flags, sizeof flags);
    return 0;
}

#define TRACE(m) offsetof(struct trace_opts, m)

static const struct cli_opt trace_rows[] = {
    {.name = "--voltage", .kind = CLI_OPT_NUMBER, .meta = "V", .unit = "V", .min = 0.001,
     .max = 1000, .def = PQPAN_DEFAULT_TRACE_VOLTAGE, .store = CLI_STORE_DOUBLE,
     .offset = TRACE(cfg.voltage_v),
     .help = "supply voltage"},
    {.name = "--phases", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = set_phases,
     .offset = TRACE(cfg), .def = PQPAN_DEFAULT_TRACE_PHASES, .allowed = "dN=NAME items, N 0..7",
     .help = "phases from digital channels, e.g. d0=crypto,d1=radio: a phase is active while "
             "its channel reads 1"},
    {.name = "--window", .kind = CLI_OPT_TEXT, .meta = "NAME=START:END", .set = set_window,
     .offset = TRACE(cfg), .allowed = "NAME=START:END in ms, START < END",
     .help = "a phase from START to END in ms (END excluded); repeatable"},
    {.name = "--baseline-ua", .kind = CLI_OPT_TEXT, .meta = "X|auto", .set = set_baseline,
     .offset = TRACE(cfg), .def = PQPAN_DEFAULT_TRACE_BASELINE_UA, .allowed = "microamps or auto",
     .help = "subtract a sleep current of X uA from every current and energy, or auto: the "
             "trace's --baseline-percentile"},
    {.name = "--baseline-percentile", .kind = CLI_OPT_NUMBER, .meta = "P", .min = 0, .max = 100,
     .open = 1, .def = PQPAN_DEFAULT_BASELINE_PERCENTILE, .store = CLI_STORE_DOUBLE,
     .offset = TRACE(cfg.baseline_percentile),
     .help = "percentile used by --baseline-ua auto (the default: the low end of the trace, "
             "where the device sleeps)"},
    {.name = "--segments", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT, .offset = TRACE(segments),
     .help = "also list each segment of each --phases phase (a run of rows with the channel at "
             "1, e.g. one crypto operation): start, duration, energy, currents. With --format "
             "csv only the segment table is printed"},
    {.name = "--lenient", .kind = CLI_OPT_FLAG, .set = set_lenient,
     .offset = TRACE(parser_flags),
     .help = "skip and count bad rows instead of stopping at the first"},
};

static void trace_opts_init(void *p)
{
    struct trace_opts *o = p;
    memset(o, 0, sizeof *o);
    cli_opt_table_defaults(&trace_opts_table, o);
}

const struct cli_opt_table trace_opts_table =
    CLI_OPT_TABLE("trace", "options", trace_rows, struct trace_opts, trace_opts_init);

static int parse_args(int argc, char **argv, struct trace_opts *o)
{
    const struct cli_opt_bind b[] = {{&trace_opts_table, o, NULL},
                                     {&cli_format_table, &o->format, NULL}};
    int i, rc;
    trace_opts_init(o);
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        rc = cli_opt_take_any(b, 2, CMD, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 1) {
            continue;
        }
        if (a[0] == '-' && a[1] != '\0') {
            return cli_unknown_option(CMD, NULL, a);
        }
        if (o->path != NULL) {
            return cli_usage_error(CMD, "more than one FILE given");
        }
        o->path = a;
    }
    if (o->path == NULL) {
        return cli_usage_error(CMD, "no FILE given");
    }
    if (cli_word_index((const char *const *)argv, "--baseline-percentile") >= 0 &&
        o->cfg.baseline != PQPAN_TRACE_BASELINE_PERCENTILE) {
        cli_warn(CMD, "--baseline-percentile has no effect without --baseline-ua auto");
    }
    if (o->segments && o->cfg.n_phases == 0) {
        cli_warn(CMD, "--segments lists the segments of --phases phases: without --phases "
                      "there are none");
    }
    return EXIT_OK;
}

static int on_sample(void *ctx, const struct pqpan_ppk2_sample *s)
{
    struct trace_run *run = ctx;
    return pqpan_trace_add(&run->analysis, run->ws, s);
}

static int report_parse_error(const char *path, const struct pqpan_ppk2_parser *p, int rc)
{
    if (p->error == PQPAN_PPK2_E_CALLBACK && rc == PQPAN_ERR_IO) {
        fprintf(stderr, "pqpan trace: writing the segment list to a temporary file failed\n");
        return EXIT_IO;
    }
    if (p->error == PQPAN_PPK2_E_CALLBACK && rc == PQPAN_ERR_UNSUPPORTED) {
        fprintf(stderr, "pqpan trace: %s:%llu: --phases needs digital channels but the file has none\n",
                path, (unsigned long long)p->error_line);
    } else if (p->error == PQPAN_PPK2_E_CALLBACK) {
        fprintf(stderr, "pqpan trace: %s:%llu: %s\n", path, (unsigned long long)p->error_line,
                pqpan_strerror(rc));
    } else {
        fprintf(stderr, "pqpan trace: %s:%llu: %s\n", path, (unsigned long long)p->error_line,
                pqpan_ppk2_error_text(p->error));
    }
    return EXIT_BAD_INPUT;
}

/* Streams the file through the parser into the analysis. */
static int stream_file(FILE *f, const char *path, struct pqpan_ppk2_parser *p, struct trace_run *run)
{
    static uint8_t chunk[CHUNK_BYTES];
    size_t n;
    int rc = PQPAN_OK;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
        rc = pqpan_ppk2_feed(p, chunk, n, on_sample, run);
        if (rc != PQPAN_OK) {
            return report_parse_error(path, p, rc);
        }
    }
    if (ferror(f)) {
        fprintf(stderr, "pqpan trace: %s: read error: %s\n", path, strerror(errno));
        return EXIT_IO;
    }
    rc = pqpan_ppk2_finish(p, on_sample, run);
    return rc == PQPAN_OK ? EXIT_OK : report_parse_error(path, p, rc);
}

/* ---- Output: field tables drive table, CSV and JSON (one for phases, one for segments). */

enum field_type { FIELD_U64, FIELD_F3 };

struct out_field {
    const char *key;    /* CSV/JSON name, unit in the name */
    const char *label;  /* table column */
    enum field_type type;
    size_t offset;
};

/* One printed row: a phase's statistics or one segment, net of the baseline. */
struct seg_row {
    uint64_t index;
    uint64_t samples;
    double start_ms;
    double duration_ms;
    double energy_uj;
    double avg_current_ua;
    double min_ua;
    double max_ua;
};

#define PHASE_FIELD(key, label, type, member) {key, label, type, offsetof(struct pqpan_trace_stats, member)}
#define SEG_FIELD(key, label, type, member) {key, label, type, offsetof(struct seg_row, member)}

static const struct out_field phase_fields[] = {
    PHASE_FIELD("samples", "samples", FIELD_U64, samples),
    PHASE_FIELD("segments", "segments", FIELD_U64, segments),
    PHASE_FIELD("duration_ms", "duration_ms", FIELD_F3, duration_ms),
    PHASE_FIELD("energy_uj", "energy_uj", FIELD_F3, energy_uj),
    PHASE_FIELD("avg_current_ua", "avg_ua", FIELD_F3, avg_current_ua),
    PHASE_FIELD("min_current_ua", "min_ua", FIELD_F3, min_ua),
    PHASE_FIELD("median_current_ua", "median_ua", FIELD_F3, median_ua),
    PHASE_FIELD("p99_current_ua", "p99_ua", FIELD_F3, p99_ua),
    PHASE_FIELD("max_current_ua", "max_ua", FIELD_F3, max_ua),
};

static const struct out_field seg_fields[] = {
    SEG_FIELD("index", "index", FIELD_U64, index),
    SEG_FIELD("samples", "samples", FIELD_U64, samples),
    SEG_FIELD("start_ms", "start_ms", FIELD_F3, start_ms),
    SEG_FIELD("duration_ms", "duration_ms", FIELD_F3, duration_ms),
    SEG_FIELD("energy_uj", "energy_uj", FIELD_F3, energy_uj),
    SEG_FIELD("avg_current_ua", "avg_ua", FIELD_F3, avg_current_ua),
    SEG_FIELD("min_current_ua", "min_ua", FIELD_F3, min_ua),
    SEG_FIELD("max_current_ua", "max_ua", FIELD_F3, max_ua),
};

struct field_set {
    const struct out_field *fields;
    size_t n;
};

static const struct field_set phase_set = {phase_fields, sizeof phase_fields / sizeof phase_fields[0]};
static const struct field_set seg_set = {seg_fields, sizeof seg_fields / sizeof seg_fields[0]};

static uint64_t field_u64(const void *row, const struct out_field *f)
{
    uint64_t v;
    memcpy(&v, (const char *)row + f->offset, sizeof v);
    return v;
}

/* Rounded to 3 decimals, with -0 shown as 0 so outputs are byte-stable. */
static double field_f3(const void *row, const struct out_field *f)
{
    double v;
    memcpy(&v, (const char *)row + f->offset, sizeof v);
    v = round(v * 1000.0) / 1000.0;
    return v == 0.0 ? 0.0 : v;
}

/* Table column width: the label, at least 9 characters for counts and 11 for values. */
static int column_width(const struct out_field *f)
{
    int min = f->type == FIELD_U64 ? 9 : 11;
    int len = (int)strlen(f->label);
    return len > min ? len : min;
}

static void print_table_header(const struct field_set *set)
{
    size_t i;
    printf("%-10s", "phase");
    for (i = 0; i < set->n; i++) {
        printf(" %*s", column_width(&set->fields[i]), set->fields[i].label);
    }
    printf("\n");
}

static void print_table_row(const struct field_set *set, const char *name, const void *row)
{
    size_t i;
    printf("%-10s", name);
    for (i = 0; i < set->n; i++) {
        const struct out_field *f = &set->fields[i];
        if (f->type == FIELD_U64) {
            printf(" %*llu", column_width(f), (unsigned long long)field_u64(row, f));
        } else {
            printf(" %*.3f", column_width(f), field_f3(row, f));
        }
    }
    printf("\n");
}

static void print_csv_header(const struct field_set *set, const char *extra)
{
    size_t i;
    printf("phase");
    for (i = 0; i < set->n; i++) {
        printf(",%s", set->fields[i].key);
    }
    printf("%s\n", extra);
}

static void print_csv_fields(const struct field_set *set, const char *name, const void *row)
{
    size_t i;
    printf("%s", name);
    for (i = 0; i < set->n; i++) {
        const struct out_field *f = &set->fields[i];
        if (f->type == FIELD_U64) {
            printf(",%llu", (unsigned long long)field_u64(row, f));
        } else {
            printf(",%.3f", field_f3(row, f));
        }
    }
}

static cJSON *json_fields(const struct field_set *set, const char *name, const void *row)
{
    cJSON *o = cJSON_CreateObject();
    size_t i;
    cJSON_AddStringToObject(o, "phase", name);
    for (i = 0; i < set->n; i++) {
        const struct out_field *f = &set->fields[i];
        cJSON_AddNumberToObject(o, f->key, f->type == FIELD_U64 ? (double)field_u64(row, f) : field_f3(row, f));
    }
    return o;
}

struct summary {
    uint64_t rows_read;
    uint64_t rows_skipped;
    const char *baseline_source;
    const struct pqpan_trace_result *r;
    const struct pqpan_trace_config *cfg;
    FILE *seg_file; /* rewound segment list, or NULL */
};

static const char *baseline_source(const struct pqpan_trace_config *cfg)
{
    static const char *const names[] = {"none", "fixed", "auto"};
    return names[cfg->baseline];
}

/* Reads the next segment from the list and turns it into a printed row. Returns 1, or 0
 * at the end of the list. */
static int next_segment(const struct summary *s, struct seg_row *row, const char **name)
{
    struct pqpan_trace_segment g;
    double base = s->r->baseline_ua, volts = s->r->voltage_v;
    if (s->seg_file == NULL || fread(&g, sizeof g, 1, s->seg_file) != 1) {
        return 0;
    }
    memset(row, 0, sizeof *row);
    *name = s->cfg->phases[g.phase].name;
    row->index = g.index;
    row->samples = g.samples;
    row->start_ms = (double)g.start_ns / 1e6;
    row->duration_ms = (double)g.duration_ns / 1e6;
    row->energy_uj = pqpan_trace_energy_uj(g.charge_ua_ms, row->duration_ms, base, volts);
    row->avg_current_ua = g.duration_ns > 0 ? g.charge_ua_ms / row->duration_ms - base : 0.0;
    row->min_ua = g.min_ua - base;
    row->max_ua = g.max_ua - base;
    return 1;
}

static void print_table(const struct summary *s)
{
    const struct pqpan_trace_result *r = s->r;
    struct seg_row row;
    const char *name;
    size_t i;
    printf("rows read          %llu\n", (unsigned long long)s->rows_read);
    printf("rows skipped       %llu\n", (unsigned long long)s->rows_skipped);
    printf("supply voltage     %.3f V\n", r->voltage_v);
    printf("baseline           %.3f uA (%s)\n", r->baseline_ua, s->baseline_source);
    printf("sample interval    %.6f .. %.6f ms (min .. max)\n", r->min_interval_ms, r->max_interval_ms);
    printf("quantile error     <= %.2f %% or %.2f uA (median, p99; min and max exact)\n\n",
           PQPAN_TRACE_QUANTILE_REL_ERROR * 100.0, PQPAN_TRACE_HIST_FLOOR_UA);
    print_table_header(&phase_set);
    print_table_row(&phase_set, r->total.name, &r->total);
    for (i = 0; i < r->n_phases; i++) {
        print_table_row(&phase_set, r->phase[i].name, &r->phase[i]);
    }
    if (s->seg_file != NULL) {
        printf("\nsegments\n");
        print_table_header(&seg_set);
        while (next_segment(s, &row, &name)) {
            print_table_row(&seg_set, name, &row);
        }
    }
}

static void print_csv_phase(const struct summary *s, const struct pqpan_trace_stats *st)
{
    const struct pqpan_trace_result *r = s->r;
    print_csv_fields(&phase_set, st->name, st);
    printf(",%llu,%llu,%.3f,%.3f,%s\n", (unsigned long long)s->rows_read,
           (unsigned long long)s->rows_skipped, r->voltage_v, r->baseline_ua, s->baseline_source);
}

/* One CSV holds one table: the phases, or with --segments the segments. */
static void print_csv(const struct summary *s)
{
    struct seg_row row;
    const char *name;
    size_t i;
    if (s->seg_file != NULL) {
        print_csv_header(&seg_set, "");
        while (next_segment(s, &row, &name)) {
            print_csv_fields(&seg_set, name, &row);
            printf("\n");
        }
        return;
    }
    print_csv_header(&phase_set, ",rows_read,rows_skipped,voltage_v,baseline_ua,baseline_source");
    print_csv_phase(s, &s->r->total);
    for (i = 0; i < s->r->n_phases; i++) {
        print_csv_phase(s, &s->r->phase[i]);
    }
}

static double round6(double v)
{
    v = round(v * 1e6) / 1e6;
    return v == 0.0 ? 0.0 : v;
}

static cJSON *json_segments(const struct summary *s)
{
    cJSON *list = cJSON_CreateArray();
    struct seg_row row;
    const char *name;
    while (next_segment(s, &row, &name)) {
        cJSON_AddItemToArray(list, json_fields(&seg_set, name, &row));
    }
    return list;
}

static int print_json(const struct summary *s)
{
    const struct pqpan_trace_result *r = s->r;
    cJSON *root = cJSON_CreateObject();
    cJSON *phases = cJSON_CreateArray();
    char *text;
    size_t i;
    cJSON_AddNumberToObject(root, "rows_read", (double)s->rows_read);
    cJSON_AddNumberToObject(root, "rows_skipped", (double)s->rows_skipped);
    cJSON_AddNumberToObject(root, "voltage_v", round6(r->voltage_v));
    cJSON_AddNumberToObject(root, "baseline_ua", round6(r->baseline_ua));
    cJSON_AddStringToObject(root, "baseline_source", s->baseline_source);
    cJSON_AddNumberToObject(root, "min_interval_ms", round6(r->min_interval_ms));
    cJSON_AddNumberToObject(root, "max_interval_ms", round6(r->max_interval_ms));
    cJSON_AddNumberToObject(root, "quantile_rel_error", PQPAN_TRACE_QUANTILE_REL_ERROR);
    cJSON_AddNumberToObject(root, "quantile_abs_error_ua", PQPAN_TRACE_HIST_FLOOR_UA);
    cJSON_AddItemToObject(root, "total", json_fields(&phase_set, r->total.name, &r->total));
    for (i = 0; i < r->n_phases; i++) {
        cJSON_AddItemToArray(phases, json_fields(&phase_set, r->phase[i].name, &r->phase[i]));
    }
    cJSON_AddItemToObject(root, "phases", phases);
    if (s->seg_file != NULL) {
        cJSON_AddItemToObject(root, "segments", json_segments(s));
    }
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text == NULL) {
        fprintf(stderr, "pqpan trace: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    printf("%s\n", text);
    cJSON_free(text);
    return EXIT_OK;
}

static int print_result(const struct trace_opts *o, const struct pqpan_ppk2_parser *p,
                        const struct trace_run *run, const struct pqpan_trace_result *r)
{
    struct summary s;
    s.rows_read = p->rows_read;
    s.rows_skipped = p->rows_skipped;
    s.baseline_source = baseline_source(&o->cfg);
    s.r = r;
    s.cfg = &o->cfg;
    s.seg_file = run->seg_file;
    if (s.seg_file != NULL && fseek(s.seg_file, 0, SEEK_SET) != 0) {
        fprintf(stderr, "pqpan trace: reading back the segment list failed\n");
        return EXIT_IO;
    }
    if (p->rows_read == 0) {
        cli_warn(CMD, "%s has no samples (a header only?): every figure is 0", o->path);
    }
    if (p->rows_skipped > 0) {
        fprintf(stderr, "pqpan trace: %s: skipped %llu bad rows (first: line %llu: %s)\n", o->path,
                (unsigned long long)p->rows_skipped, (unsigned long long)p->first_skip_line,
                pqpan_ppk2_error_text(p->first_skip_error));
    }
    if (o->format == FORMAT_JSON) {
        return print_json(&s);
    }
    if (o->format == FORMAT_CSV) {
        print_csv(&s);
    } else {
        print_table(&s);
    }
    return EXIT_OK;
}

static int segment_to_file(void *ctx, const struct pqpan_trace_segment *g)
{
    struct trace_run *run = ctx;
    return fwrite(g, sizeof *g, 1, run->seg_file) == 1 ? PQPAN_OK : PQPAN_ERR_IO;
}

static int analyse(const struct trace_opts *o, FILE *f, struct trace_run *run)
{
    struct pqpan_ppk2_parser parser;
    struct pqpan_trace_result result;
    int rc;
    if (pqpan_trace_init(&run->analysis, &o->cfg, run->ws, PQPAN_TRACE_WORKSPACE_LEN(o->cfg.n_phases)) != PQPAN_OK) {
        return cli_usage_error(CMD, "invalid phase or baseline settings");
    }
    if (run->seg_file != NULL) {
        pqpan_trace_on_segment(&run->analysis, segment_to_file, run);
    }
    pqpan_ppk2_parser_init(&parser, o->parser_flags);
    rc = stream_file(f, o->path, &parser, run);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_trace_end(&run->analysis) != PQPAN_OK) {
        fprintf(stderr, "pqpan trace: writing the segment list to a temporary file failed\n");
        return EXIT_IO;
    }
    if (pqpan_trace_result(&run->analysis, run->ws, &result) != PQPAN_OK) {
        fprintf(stderr, "pqpan trace: internal error computing the result\n");
        return EXIT_FAILURE_RUN;
    }
    return print_result(o, &parser, run, &result);
}

/* Allocates the analysis, its workspace and (with --segments) the segment list. */
static int run_alloc(const struct trace_opts *o, struct trace_run **out)
{
    struct trace_run *run = calloc(1, sizeof *run);
    *out = run;
    if (run == NULL || (run->ws = calloc(PQPAN_TRACE_WORKSPACE_LEN(o->cfg.n_phases), sizeof run->ws[0])) == NULL) {
        fprintf(stderr, "pqpan trace: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    if (o->segments && (run->seg_file = tmpfile()) == NULL) {
        fprintf(stderr, "pqpan trace: cannot create a temporary file: %s\n", strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

static void run_free(struct trace_run *run)
{
    if (run == NULL) {
        return;
    }
    if (run->seg_file != NULL) {
        fclose(run->seg_file);
    }
    free(run->ws);
    free(run);
}

int cli_trace_run(int argc, char **argv)
{
    struct trace_opts o;
    struct trace_run *run;
    FILE *f;
    int rc, i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_trace_help(stdout);
            return EXIT_OK;
        }
    }
    rc = parse_args(argc, argv, &o);
    if (rc != EXIT_OK) {
        return rc;
    }
    f = strcmp(o.path, "-") == 0 ? stdin : fopen(o.path, "rb");
    if (f == NULL) {
        fprintf(stderr, "pqpan trace: %s: %s\n", o.path, strerror(errno));
        return EXIT_IO;
    }
    rc = run_alloc(&o, &run);
    if (rc == EXIT_OK) {
        rc = analyse(&o, f, run);
    }
    run_free(run);
    if (f != stdin) {
        fclose(f);
    }
    return rc;
}
