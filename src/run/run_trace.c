/* The run of `pqpan trace` (pqpan_run "trace", run.h): a Power Profiler Kit II CSV export
 * (FILE, the pair ("FILE", path); "-" the standard input) streamed in 64 KiB chunks through
 * the parser (pqpan_ppk2_feed) into the analysis (pqpan_trace_add), so memory does not grow
 * with its size; then one TRACE row (rows read and skipped, supply, baseline, sampling
 * intervals), one TRACE_PHASE row for the whole trace and one per phase, and with
 * --segments one SEGMENT row per segment of a channel phase (collected in a temporary file
 * while the capture streams, read back after the phases). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/trace.h"
#include "run_internal.h"
#include "run_trace.h"

#define CHUNK_BYTES 65536

/* The request: the file, the parser's flags, --segments, the analysis' configuration. */
struct trace_req {
    const char *path;
    enum cli_format format;
    unsigned parser_flags;
    int segments;
    int percentile_given; /* --baseline-percentile (no effect without --baseline-ua auto) */
    struct pqpan_trace_config cfg;
};

/* The analysis, its histogram workspace and, with --segments, a temporary file collecting
 * the segments (memory stays constant). */
struct trace_run {
    struct pqpan_trace analysis;
    struct pqpan_trace_bin *ws;
    FILE *seg_file;
};

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

/* Appends a phase named s[0..len); returns it, or NULL (the message in *msg) on error. */
static struct pqpan_trace_phase_def *new_phase(struct pqpan_trace_config *cfg, const char *s,
                                               size_t len, struct cli_msg *msg)
{
    struct pqpan_trace_phase_def *d;
    size_t i;
    if (!valid_phase_name(s, len)) {
        (void)cli_msg_set(msg, EXIT_USAGE, "bad phase name '%.*s' (1-%d of A-Z a-z 0-9 _ -)",
                          (int)len, s, PQPAN_TRACE_NAME_MAX - 1);
        return NULL;
    }
    for (i = 0; i < cfg->n_phases; i++) {
        if (strlen(cfg->phases[i].name) == len && memcmp(cfg->phases[i].name, s, len) == 0) {
            (void)cli_msg_set(msg, EXIT_USAGE, "phase '%.*s' given twice", (int)len, s);
            return NULL;
        }
    }
    if (cfg->n_phases == PQPAN_TRACE_MAX_PHASES) {
        (void)cli_msg_set(msg, EXIT_USAGE, "at most %d phases", PQPAN_TRACE_MAX_PHASES);
        return NULL;
    }
    d = &cfg->phases[cfg->n_phases++];
    memset(d, 0, sizeof *d);
    memcpy(d->name, s, len);
    return d;
}

/* One item of --phases: dN=NAME (or DN=NAME). */
static int parse_phase_item(struct pqpan_trace_config *cfg, const char *s, size_t len,
                            struct cli_msg *msg)
{
    struct pqpan_trace_phase_def *d;
    if (len < 4 || (s[0] != 'd' && s[0] != 'D') || s[1] < '0' || s[1] > '7' || s[2] != '=') {
        return cli_msg_set(msg, EXIT_USAGE, "bad --phases item '%.*s' (want dN=NAME, N = 0..7)",
                           (int)len, s);
    }
    d = new_phase(cfg, s + 3, len - 3, msg);
    if (d == NULL) {
        return EXIT_USAGE;
    }
    d->kind = PQPAN_TRACE_PHASE_DIGITAL;
    d->channel = (uint8_t)(s[1] - '0');
    return EXIT_OK;
}

static int parse_phases(struct pqpan_trace_config *cfg, const char *list, struct cli_msg *msg)
{
    const char *item = list;
    for (;;) {
        const char *comma = strchr(item, ',');
        size_t len = comma != NULL ? (size_t)(comma - item) : strlen(item);
        int rc = parse_phase_item(cfg, item, len, msg);
        if (rc != EXIT_OK) {
            return rc;
        }
        if (comma == NULL) {
            return EXIT_OK;
        }
        item = comma + 1;
    }
}

/* Milliseconds (the run layer, not the portable core: strtod is fine here) -> ns. */
static int parse_ms(const char *s, int64_t *ns)
{
    double ms;
    if (cli_parse_double(s, -(double)PQPAN_PPK2_TIME_MAX_MS, (double)PQPAN_PPK2_TIME_MAX_MS, &ms) != 0) {
        return -1;
    }
    *ns = (int64_t)llround(ms * 1e6);
    return 0;
}

static int parse_window(struct pqpan_trace_config *cfg, const char *arg, struct cli_msg *msg)
{
    char buf[128];
    const char *eq = strchr(arg, '=');
    char *colon;
    struct pqpan_trace_phase_def *d;
    int64_t start, end;
    if (eq == NULL || strlen(eq + 1) >= sizeof buf) {
        return cli_msg_set(msg, EXIT_USAGE, "bad --window '%s' (want NAME=START:END in ms)", arg);
    }
    strcpy(buf, eq + 1);
    colon = strchr(buf, ':');
    if (colon == NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "bad --window '%s' (want NAME=START:END in ms)", arg);
    }
    *colon = '\0';
    if (parse_ms(buf, &start) != 0 || parse_ms(colon + 1, &end) != 0 || start >= end) {
        return cli_msg_set(msg, EXIT_USAGE, "bad --window '%s' (START and END in ms, START < END)",
                           arg);
    }
    d = new_phase(cfg, arg, (size_t)(eq - arg), msg);
    if (d == NULL) {
        return EXIT_USAGE;
    }
    d->kind = PQPAN_TRACE_PHASE_WINDOW;
    d->start_ns = start;
    d->end_ns = end;
    return EXIT_OK;
}

/* --phases LIST (field: the struct pqpan_trace_config); take() calls parse_phases itself
 * for its message. */
static int set_phases(void *field, const char *v)
{
    struct cli_msg msg;
    return parse_phases(field, v, &msg) == EXIT_OK ? 0 : -1;
}

/* --window NAME=START:END (field: the struct pqpan_trace_config), repeatable; as --phases. */
static int set_window(void *field, const char *v)
{
    struct cli_msg msg;
    return parse_window(field, v, &msg) == EXIT_OK ? 0 : -1;
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

#define TRACE(m) offsetof(struct trace_req, m)

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


static void trace_req_init(void *p)
{
    struct trace_req *o = p;
    memset(o, 0, sizeof *o);
    cli_opt_table_defaults(&trace_opts_table, o);
}

const struct cli_opt_table trace_opts_table =
    CLI_OPT_TABLE("trace", "options", trace_rows, struct trace_req, trace_req_init);

const struct cli_opt *trace_opt_row(const char *name)
{
    const struct cli_opt *o = cli_opt_find(&trace_opts_table, name);
    return o != NULL ? o : cli_opt_find(&cli_format_table, name);
}

/* One pair of the request: FILE, an option of trace's table (--phases and --window parsed
 * here for their message), or --format. */
static int take(struct run_ctx *r, struct trace_req *q, const struct pqpan_run_opt *opt)
{
    static const struct cli_opt_table *const tables[] = {&trace_opts_table, &cli_format_table};
    const struct cli_opt *o;
    struct cli_msg msg;
    if (strcmp(opt->name, TRACE_FILE) == 0) {
        if (q->path != NULL) {
            return run_fail(r, EXIT_USAGE, NULL, "more than one FILE given");
        }
        q->path = run_value_copy(r, opt->value != NULL ? opt->value : "");
        return q->path != NULL ? PQPAN_OK : r->err != NULL ? r->err->code : PQPAN_ERR_INVALID_ARG;
    }
    o = cli_opt_find(&trace_opts_table, opt->name);
    if (o == NULL) {
        o = cli_opt_find(&cli_format_table, opt->name);
        return o != NULL ? run_set(r, o, &q->format, opt) : run_unknown(r, opt->name, tables, 2);
    }
    q->percentile_given |= o->offset == offsetof(struct trace_req, cfg.baseline_percentile);
    if ((o->set == set_phases || o->set == set_window) && opt->value != NULL) {
        int rc = o->set == set_phases ? parse_phases(&q->cfg, opt->value, &msg)
                                      : parse_window(&q->cfg, opt->value, &msg);
        return rc == EXIT_OK ? PQPAN_OK : run_fail(r, EXIT_USAGE, o->name, msg.text);
    }
    return run_set(r, o, q, opt);
}

/* The options, then what they say together: a FILE is needed; --baseline-percentile without
 * --baseline-ua auto and --segments without --phases are said (WARNING rows). */
static int parse(struct run_ctx *r, struct trace_req *q, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    size_t i;
    int rc = PQPAN_OK;
    trace_req_init(q);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, q, &opts[i])
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc == PQPAN_OK && q->path == NULL) {
        rc = run_fail(r, EXIT_USAGE, NULL, "no FILE given");
    }
    if (rc == PQPAN_OK && q->percentile_given && q->cfg.baseline != PQPAN_TRACE_BASELINE_PERCENTILE) {
        rc = run_warning(r, "--baseline-percentile has no effect without --baseline-ua auto");
    }
    if (rc == PQPAN_OK && q->segments && q->cfg.n_phases == 0) {
        rc = run_warning(r, "--segments lists the segments of --phases phases: without --phases "
                            "there are none");
    }
    return rc;
}

static int on_sample(void *ctx, const struct pqpan_ppk2_sample *s)
{
    struct trace_run *run = ctx;
    return pqpan_trace_add(&run->analysis, run->ws, s);
}

static int parse_failed(struct run_ctx *r, const char *path, const struct pqpan_ppk2_parser *p,
                        int rc)
{
    struct cli_msg msg;
    if (p->error == PQPAN_PPK2_E_CALLBACK && rc == PQPAN_ERR_IO) {
        return run_fail(r, EXIT_IO, NULL,
                        "writing the segment list to a temporary file failed");
    }
    if (p->error == PQPAN_PPK2_E_CALLBACK && rc == PQPAN_ERR_UNSUPPORTED) {
        (void)cli_msg_set(&msg, EXIT_BAD_INPUT,
                          "%s:%llu: --phases needs digital channels but the file has none", path,
                          (unsigned long long)p->error_line);
    } else {
        (void)cli_msg_set(&msg, EXIT_BAD_INPUT, "%s:%llu: %s", path,
                          (unsigned long long)p->error_line,
                          p->error == PQPAN_PPK2_E_CALLBACK ? pqpan_strerror(rc)
                                                            : pqpan_ppk2_error_text(p->error));
    }
    return run_fail(r, EXIT_BAD_INPUT, NULL, msg.text);
}

/* Streams the file through the parser into the analysis. */
static int stream_file(struct run_ctx *r, FILE *f, const char *path, struct pqpan_ppk2_parser *p,
                       struct trace_run *run)
{
    uint8_t *chunk = malloc(CHUNK_BYTES);
    struct cli_msg msg;
    size_t n;
    int rc = PQPAN_OK;
    if (chunk == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    while (rc == PQPAN_OK && (n = fread(chunk, 1, CHUNK_BYTES, f)) > 0) {
        rc = pqpan_ppk2_feed(p, chunk, n, on_sample, run);
    }
    free(chunk);
    if (rc != PQPAN_OK) {
        return parse_failed(r, path, p, rc);
    }
    if (ferror(f)) {
        (void)cli_msg_set(&msg, EXIT_IO, "%s: read error: %s", path, strerror(errno));
        return run_fail(r, EXIT_IO, NULL, msg.text);
    }
    rc = pqpan_ppk2_finish(p, on_sample, run);
    return rc == PQPAN_OK ? PQPAN_OK : parse_failed(r, path, p, rc);
}

/* ---- the rows ---- */

#define RUN_S(s) PQPAN_RUN_STORE_##s
#define RUN_JSON PQPAN_RUN_GROUP_JSON
#define TR(m) offsetof(struct pqpan_run_trace_row, m)
#define PH(m) offsetof(struct pqpan_run_trace_phase, m)
#define SEG(m) offsetof(struct pqpan_run_trace_segment, m)

/* The capture: the JSON output's members before "total", in its order. */
static const struct pqpan_run_field trace_fields[] = {
    {"rows_read", "rows read", NULL, RUN_JSON, RUN_S(ULL), TR(rows_read), 0},
    {"rows_skipped", "rows skipped", NULL, RUN_JSON, RUN_S(ULL), TR(rows_skipped), 0},
    {"voltage_v", "supply voltage (V)", "V", RUN_JSON, RUN_S(REAL), TR(voltage_v), 3},
    {"baseline_ua", "baseline (uA)", "uA", RUN_JSON, RUN_S(REAL), TR(baseline_ua), 3},
    {"baseline_source", "baseline from", NULL, RUN_JSON, RUN_S(TEXT), TR(baseline_source), 0},
    {"min_interval_ms", "shortest sample interval (ms)", "ms", RUN_JSON, RUN_S(REAL),
     TR(min_interval_ms), 6},
    {"max_interval_ms", "longest sample interval (ms)", "ms", RUN_JSON, RUN_S(REAL),
     TR(max_interval_ms), 6},
    {"quantile_rel_error", "quantile error (relative)", NULL, RUN_JSON, RUN_S(REAL),
     TR(quantile_rel_error), 4},
    {"quantile_abs_error_ua", "quantile error near zero (uA)", "uA", RUN_JSON, RUN_S(REAL),
     TR(quantile_abs_error_ua), 2},
};

/* A phase's statistics: the JSON output's "total" and "phases" items, the table's and CSV's
 * columns (the table's labels). */
static const struct pqpan_run_field phase_fields[] = {
    {"phase", "phase", NULL, 0, RUN_S(TEXT), PH(phase), 0},
    {"samples", "samples", NULL, 0, RUN_S(ULL), PH(samples), 0},
    {"segments", "segments", NULL, 0, RUN_S(ULL), PH(segments), 0},
    {"duration_ms", "duration_ms", "ms", 0, RUN_S(REAL), PH(duration_ms), 3},
    {"energy_uj", "energy_uj", "uJ", 0, RUN_S(REAL), PH(energy_uj), 3},
    {"avg_current_ua", "avg_ua", "uA", 0, RUN_S(REAL), PH(avg_current_ua), 3},
    {"min_current_ua", "min_ua", "uA", 0, RUN_S(REAL), PH(min_current_ua), 3},
    {"median_current_ua", "median_ua", "uA", 0, RUN_S(REAL), PH(median_current_ua), 3},
    {"p99_current_ua", "p99_ua", "uA", 0, RUN_S(REAL), PH(p99_current_ua), 3},
    {"max_current_ua", "max_ua", "uA", 0, RUN_S(REAL), PH(max_current_ua), 3},
};

/* One segment: the JSON output's "segments" items, the table's and CSV's columns. */
static const struct pqpan_run_field segment_fields[] = {
    {"phase", "phase", NULL, 0, RUN_S(TEXT), SEG(phase), 0},
    {"index", "index", NULL, 0, RUN_S(ULL), SEG(index), 0},
    {"samples", "samples", NULL, 0, RUN_S(ULL), SEG(samples), 0},
    {"start_ms", "start_ms", "ms", 0, RUN_S(REAL), SEG(start_ms), 3},
    {"duration_ms", "duration_ms", "ms", 0, RUN_S(REAL), SEG(duration_ms), 3},
    {"energy_uj", "energy_uj", "uJ", 0, RUN_S(REAL), SEG(energy_uj), 3},
    {"avg_current_ua", "avg_ua", "uA", 0, RUN_S(REAL), SEG(avg_current_ua), 3},
    {"min_current_ua", "min_ua", "uA", 0, RUN_S(REAL), SEG(min_current_ua), 3},
    {"max_current_ua", "max_ua", "uA", 0, RUN_S(REAL), SEG(max_current_ua), 3},
};

#define N_OF(a) (sizeof a / sizeof a[0])

static int emit_phase(struct run_ctx *r, const struct pqpan_trace_stats *st)
{
    struct pqpan_run_trace_phase p;
    p.phase = st->name;
    p.samples = st->samples;
    p.segments = st->segments;
    p.duration_ms = st->duration_ms;
    p.energy_uj = st->energy_uj;
    p.avg_current_ua = st->avg_current_ua;
    p.min_current_ua = st->min_ua;
    p.median_current_ua = st->median_ua;
    p.p99_current_ua = st->p99_ua;
    p.max_current_ua = st->max_ua;
    return run_record(r, PQPAN_RUN_RECORD_TRACE_PHASE, PQPAN_RUN_LINK_BLE, phase_fields,
                      N_OF(phase_fields), &p);
}

/* Each segment of the list, read back, as a SEGMENT row net of the baseline. */
static int emit_segments(struct run_ctx *r, const struct trace_req *q, FILE *seg_file,
                         const struct pqpan_trace_result *res)
{
    struct pqpan_trace_segment g;
    struct pqpan_run_trace_segment row;
    double base = res->baseline_ua, volts = res->voltage_v;
    int rc = PQPAN_OK;
    if (fseek(seg_file, 0, SEEK_SET) != 0) {
        return run_fail(r, EXIT_IO, NULL, "reading back the segment list failed");
    }
    while (rc == PQPAN_OK && fread(&g, sizeof g, 1, seg_file) == 1) {
        row.phase = q->cfg.phases[g.phase].name;
        row.index = g.index;
        row.samples = g.samples;
        row.start_ms = (double)g.start_ns / 1e6;
        row.duration_ms = (double)g.duration_ns / 1e6;
        row.energy_uj = pqpan_trace_energy_uj(g.charge_ua_ms, row.duration_ms, base, volts);
        row.avg_current_ua = g.duration_ns > 0 ? g.charge_ua_ms / row.duration_ms - base : 0.0;
        row.min_current_ua = g.min_ua - base;
        row.max_current_ua = g.max_ua - base;
        rc = run_record(r, PQPAN_RUN_RECORD_SEGMENT, PQPAN_RUN_LINK_BLE, segment_fields,
                        N_OF(segment_fields), &row);
    }
    return rc;
}

/* What the capture gives besides its figures: no samples, skipped rows (WARNING rows). */
static int warn_rows(struct run_ctx *r, const struct trace_req *q,
                     const struct pqpan_ppk2_parser *p)
{
    struct cli_msg msg;
    int rc = PQPAN_OK;
    if (p->rows_read == 0) {
        (void)cli_msg_set(&msg, EXIT_OK, "%s has no samples (a header only?): every figure is 0",
                          q->path);
        rc = run_warning(r, msg.text);
    }
    if (rc == PQPAN_OK && p->rows_skipped > 0) {
        (void)cli_msg_set(&msg, EXIT_OK, "%s: skipped %llu bad rows (first: line %llu: %s)",
                          q->path, (unsigned long long)p->rows_skipped,
                          (unsigned long long)p->first_skip_line,
                          pqpan_ppk2_error_text(p->first_skip_error));
        rc = run_warning(r, msg.text);
    }
    return rc;
}

static int emit_result(struct run_ctx *r, const struct trace_req *q,
                       const struct pqpan_ppk2_parser *p, const struct trace_run *run,
                       const struct pqpan_trace_result *res)
{
    static const char *const sources[] = {"none", "fixed", "auto"};
    struct pqpan_run_trace_row t;
    size_t k;
    int rc = warn_rows(r, q, p);
    t.rows_read = p->rows_read;
    t.rows_skipped = p->rows_skipped;
    t.voltage_v = res->voltage_v;
    t.baseline_ua = res->baseline_ua;
    t.baseline_source = sources[q->cfg.baseline];
    t.min_interval_ms = res->min_interval_ms;
    t.max_interval_ms = res->max_interval_ms;
    t.quantile_rel_error = PQPAN_TRACE_QUANTILE_REL_ERROR;
    t.quantile_abs_error_ua = PQPAN_TRACE_HIST_FLOOR_UA;
    if (rc == PQPAN_OK) {
        rc = run_record(r, PQPAN_RUN_RECORD_TRACE, PQPAN_RUN_LINK_BLE, trace_fields,
                        N_OF(trace_fields), &t);
    }
    if (rc == PQPAN_OK) {
        rc = emit_phase(r, &res->total);
    }
    for (k = 0; k < res->n_phases && rc == PQPAN_OK; k++) {
        rc = emit_phase(r, &res->phase[k]);
    }
    return rc == PQPAN_OK && run->seg_file != NULL ? emit_segments(r, q, run->seg_file, res) : rc;
}

static int segment_to_file(void *ctx, const struct pqpan_trace_segment *g)
{
    struct trace_run *run = ctx;
    return fwrite(g, sizeof *g, 1, run->seg_file) == 1 ? PQPAN_OK : PQPAN_ERR_IO;
}

static int analyse(struct run_ctx *r, const struct trace_req *q, FILE *f, struct trace_run *run)
{
    struct pqpan_ppk2_parser parser;
    struct pqpan_trace_result result;
    int rc;
    if (pqpan_trace_init(&run->analysis, &q->cfg, run->ws,
                         PQPAN_TRACE_WORKSPACE_LEN(q->cfg.n_phases)) != PQPAN_OK) {
        return run_fail(r, EXIT_USAGE, NULL, "invalid phase or baseline settings");
    }
    if (run->seg_file != NULL) {
        pqpan_trace_on_segment(&run->analysis, segment_to_file, run);
    }
    pqpan_ppk2_parser_init(&parser, q->parser_flags);
    rc = stream_file(r, f, q->path, &parser, run);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (pqpan_trace_end(&run->analysis) != PQPAN_OK) {
        return run_fail(r, EXIT_IO, NULL, "writing the segment list to a temporary file failed");
    }
    if (pqpan_trace_result(&run->analysis, run->ws, &result) != PQPAN_OK) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "internal error computing the result");
    }
    return emit_result(r, q, &parser, run, &result);
}

/* Allocates the analysis, its workspace and (with --segments) the segment list. */
static int run_alloc(struct run_ctx *r, const struct trace_req *q, struct trace_run **out)
{
    struct trace_run *run = calloc(1, sizeof *run);
    struct cli_msg msg;
    *out = run;
    if (run == NULL ||
        (run->ws = calloc(PQPAN_TRACE_WORKSPACE_LEN(q->cfg.n_phases), sizeof run->ws[0])) == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    if (q->segments && (run->seg_file = tmpfile()) == NULL) {
        (void)cli_msg_set(&msg, EXIT_IO, "cannot create a temporary file: %s", strerror(errno));
        return run_fail(r, EXIT_IO, NULL, msg.text);
    }
    return PQPAN_OK;
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

int run_trace(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct trace_req q;
    struct trace_run *run = NULL;
    struct cli_msg msg;
    FILE *f;
    int rc = parse(r, &q, opts, n_opts);
    if (rc != PQPAN_OK) {
        return rc;
    }
    f = strcmp(q.path, "-") == 0 ? stdin : fopen(q.path, "rb");
    if (f == NULL) {
        (void)cli_msg_set(&msg, EXIT_IO, "%s: %s", q.path, strerror(errno));
        return run_fail(r, EXIT_IO, NULL, msg.text);
    }
    rc = run_alloc(r, &q, &run);
    if (rc == PQPAN_OK) {
        rc = analyse(r, &q, f, run);
    }
    run_free(run);
    if (f != stdin) {
        fclose(f);
    }
    return rc;
}
