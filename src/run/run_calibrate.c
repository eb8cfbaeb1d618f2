/* The run of `pqpan calibrate` (pqpan_run "calibrate", run.h): fits γ_comp per operation
 * and γ_comm to measured PPK2 traces (docs/MODEL.md "Calibration", docs/CLI.md "pqpan
 * calibrate") and writes the calibration overlay (--out).
 *
 * Each trace is one side of one key exchange. Its crypto channel (D0) segments are the
 * crypto operations in the order they ran (that side's operations in the exchange
 * --protocol names, pqpan_calibrate_side_ops); their gross energy is compared with the
 * model's E_comp of that operation at γ = 1. The radio channel (D1) segments together are
 * the measured communication energy, compared with the bits accounting at γ_comm = 1.
 *
 * Rows: a WARNING per fitted γ outside the study's range, the table output's lines as NOTE
 * rows, the JSON output's members as one MEMBERS row, then one FIT row per fitted γ, one
 * RESIDUAL row per data point (the CSV's columns) and one TRACE row per trace, typed with
 * units (struct pqpan_run_calibrate_fit, _point, _trace). */
#include <errno.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "link.h"
#include "model.h"
#include "notes.h"
#include "outfile.h"
#include "pqpan/calibrate.h"
#include "pqpan/common.h"
#include "pqpan/trace.h"
#include "run_calibrate.h"
#include "run_internal.h"

#define CMD "calibrate"
#define MAX_TRACES 64
#define CAL_STR_(x) #x
#define CAL_STR(x) CAL_STR_(x)
#define MAX_OPS 8          /* crypto segments per trace */
#define OP_SKIP (-1)       /* a segment --ops maps to "-" */
_Static_assert(PQPAN_CALIBRATE_SIDE_OPS_MAX <= MAX_OPS, "a side's default operations fit --ops");
#define Q_COMM PQPAN_OP_COUNT /* quantity index of the communication energy */
#define N_QUANT (PQPAN_OP_COUNT + 1)
#define CHUNK_BYTES 65536
#define PH_CRYPTO 0
#define PH_RADIO 1
#define PH_ADVERTISE 2    /* not a phase of the trace analysis: read row by row */
#define N_CH 3
#define CH_NONE 0xFFu     /* --phases named no advertising channel */

struct cal_opts {
    struct link_opts link;
    struct model_opts m;
    const char *paths[MAX_TRACES];
    int side_of[MAX_TRACES];      /* MODEL_PERIPHERAL / MODEL_CENTRAL, -1 = --side */
    size_t n_traces;
    int side;
    double voltage_v;             /* <= 0: the profile's supply voltage */
    double baseline_ua;
    int ops[MAX_OPS];             /* enum pqpan_op or OP_SKIP */
    size_t n_ops;                 /* 0: the default order for the side */
    uint8_t ch[N_CH];             /* digital channel of PH_CRYPTO, PH_RADIO, PH_ADVERTISE */
    int comm_radio;               /* --comm-model radio (else bits) */
    int concurrent;               /* --overlap concurrent (else preempt) */
    const char *out;
    int pqke_given;               /* an --auth, --sig or --hybrid, copied into link.cfg */
};

/* What one trace measured. */
struct cal_trace {
    const char *path;
    int side;
    uint64_t rows_read;
    size_t n_crypto;              /* crypto segments seen (even beyond MAX_OPS) */
    double crypto_uj[MAX_OPS];
    uint64_t n_radio;
    double radio_uj;              /* radio rows outside the advertising segment */
    int64_t adv_ns;               /* the advertising segment: rows with its channel high */
    double adv_uj;                /* radio rows inside it (left out of radio_uj) */
    uint64_t overlap_rows;        /* rows with crypto and radio both high (counted as radio) */
    double events_radio_uj;       /* model: events accounting, link-layer event states of
                                     what the trace holds (no advertising phase when it
                                     marks its advertising segment) */
};

/* One data point of one fit. */
struct point {
    size_t trace;
    int quantity;                 /* enum pqpan_op or Q_COMM */
    double measured_uj;
    double predicted_uj;          /* model at γ = 1 */
};

struct cal_state {
    struct run_ctx *r;
    struct cal_opts o;
    struct model_env *env;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct pqpan_run_exchange_row rows_no_adv[MODEL_SIDES]; /* the same without the advertising phase */
    struct cal_trace tr[MAX_TRACES];
    struct point pts[MAX_TRACES * (MAX_OPS + 1)];
    size_t n_pts;
    struct pqpan_calibrate_fit fit[N_QUANT];
    int fitted[N_QUANT];
    double voltage_v;
    struct pqpan_trace_bin ws[PQPAN_TRACE_WORKSPACE_LEN(2)];
    uint8_t chunk[CHUNK_BYTES];   /* a trace file's bytes, read a chunk at a time */
    double fit_m[MAX_TRACES * (MAX_OPS + 1)], fit_p[MAX_TRACES * (MAX_OPS + 1)];
};

/* ---- options ---- */

/* --side words, in enum model_side order. */
static const char *const side_words[] = {"peripheral", "central", NULL};
static const char *const protocol_words[] = {"study", "pqpan", NULL};
static const char *const comm_words[] = {"bits", "radio", NULL};
static const char *const overlap_words[] = {"preempt", "concurrent", NULL};

_Static_assert(sizeof(enum pqpan_ble_protocol) == sizeof(int), "--protocol is stored as an int");

static int parse_side(const char *v, size_t len)
{
    int k;
    for (k = 0; side_words[k] != NULL; k++) {
        if (cli_word_equal_n(v, len, side_words[k])) {
            return k;
        }
    }
    return -1;
}

/* --trace [SIDE:]FILE, repeatable: field is the struct cal_opts. */
static int add_trace(void *field, const char *v)
{
    struct cal_opts *o = field;
    const char *colon = strchr(v, ':');
    int side = colon != NULL ? parse_side(v, (size_t)(colon - v)) : -1;
    if (o->n_traces == MAX_TRACES) {
        return -1;
    }
    o->side_of[o->n_traces] = side;
    o->paths[o->n_traces++] = side >= 0 ? colon + 1 : v;
    return 0;
}

static int op_of(const char *s, size_t len)
{
    int op;
    if (len == 1 && s[0] == '-') {
        return OP_SKIP;
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        const char *name = pqpan_op_name((enum pqpan_op)op);
        if (cli_word_equal_n(s, len, name)) {
            return op;
        }
    }
    return -2;
}

/* --ops LIST: field is the struct cal_opts. */
static int parse_ops(void *field, const char *v)
{
    struct cal_opts *o = field;
    const char *s = v;
    o->n_ops = 0;
    for (;;) {
        size_t len = strcspn(s, ",");
        int op = op_of(s, len);
        if (op == -2 || o->n_ops == MAX_OPS) {
            return -1;
        }
        o->ops[o->n_ops++] = op;
        if (s[len] == '\0') {
            return 0;
        }
        s += len + 1;
    }
}

static const char *const phase_words[N_CH] = {"crypto", "radio", "advertise"};

static int phase_of(const char *w, size_t len)
{
    int ph;
    for (ph = 0; ph < N_CH; ph++) {
        if (cli_word_equal_n(w, len, phase_words[ph])) {
            return ph;
        }
    }
    return -1;
}

/* --phases: d<N>=crypto / radio / advertise items into the uint8_t ch[N_CH]; crypto and
 * radio keep their channels unless named, advertise is read only when named. */
static int parse_phases(void *field, const char *v)
{
    uint8_t *ch = field;
    const char *s = v;
    int a, b;
    ch[PH_ADVERTISE] = CH_NONE;
    for (;;) {
        size_t len = strcspn(s, ",");
        int ph = -1;
        if (len >= 4 && (s[0] == 'd' || s[0] == 'D') && s[1] >= '0' && s[1] <= '7' && s[2] == '=') {
            ph = phase_of(s + 3, len - 3);
        }
        if (ph < 0) {
            return -1;
        }
        ch[ph] = (uint8_t)(s[1] - '0');
        if (s[len] == '\0') {
            break;
        }
        s += len + 1;
    }
    for (a = 0; a < N_CH; a++) {
        for (b = a + 1; b < N_CH; b++) {
            if (ch[a] == ch[b]) {
                return -1;
            }
        }
    }
    return 0;
}

#define CAL(m) offsetof(struct cal_opts, m)

static const struct cli_opt cal_rows[] = {
    {.name = "--protocol", .kind = CLI_OPT_WORD, .words = protocol_words,
     .def = PQPAN_DEFAULT_PROTOCOL,
     .store = CLI_STORE_INT, .offset = CAL(link.cfg.protocol),
     .help = "the exchange the traces ran, and so the model they are compared with: study, the "
             "study's prototype (raw ek and ct, no KDF); pqpan, pqpan's INIT / RESP / FIN with "
             "the key schedule (kdf) on both sides, as `pqpan estimate --protocol pqpan` and "
             "`pqpan simulate` run it"},
    {.name = "--trace", .kind = CLI_OPT_TEXT, .meta = "[SIDE:]FILE", .set = add_trace,
     .allowed = "[peripheral:|central:]FILE, at most " CAL_STR(MAX_TRACES) " of them",
     .help = "a PPK2 CSV export, repeatable; SIDE overrides --side for this file"},
    {.name = "--side", .kind = CLI_OPT_WORD, .words = side_words, .def = PQPAN_DEFAULT_SIDE,
     .store = CLI_STORE_INT, .offset = CAL(side),
     .help = "the side the traces were captured on"},
    {.name = "--voltage", .kind = CLI_OPT_NUMBER, .meta = "V", .unit = "V", .min = 0.1, .max = 100,
     .def = PQPAN_DEFAULT_CALIBRATE_VOLTAGE, .store = CLI_STORE_DOUBLE,
     .offset = CAL(voltage_v), .help = "supply voltage of the captures"},
    {.name = "--baseline-ua", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "uA", .min = 0,
     .max = 1e9, .def = PQPAN_DEFAULT_CALIBRATE_BASELINE_UA, .store = CLI_STORE_DOUBLE,
     .offset = CAL(baseline_ua),
     .help = "subtract X from every current"},
    {.name = "--phases", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = parse_phases,
     .offset = CAL(ch), .def = PQPAN_DEFAULT_CALIBRATE_PHASES,
     .allowed = "dN=crypto, dN=radio, dN=advertise, N 0..7, on different channels",
     .help = "digital channels of the crypto operations, the link-layer events and the "
             "advertising segment (a list without advertise reads none)"},
    {.name = "--ops", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = parse_ops,
     .def = PQPAN_DEFAULT_OPS,
     .allowed = "at most " CAL_STR(MAX_OPS) " of kem_keygen, kem_encaps, kem_decaps, kdf, "
                "ecdh_keygen, ecdh_shared or -",
     .help = "operation of each crypto segment in order, comma-separated op names (kdf only "
             "with --protocol pqpan) or - to ignore a segment (e.g. a KDF the study protocol "
             "does not run), for every trace"},
    {.name = "--comm-model", .kind = CLI_OPT_WORD, .words = comm_words,
     .def = PQPAN_DEFAULT_COMM_MODEL,
     .store = CLI_STORE_INT, .offset = CAL(comm_radio),
     .help = "what the radio energy is compared with, as above"},
    {.name = "--overlap", .kind = CLI_OPT_WORD, .words = overlap_words,
     .def = PQPAN_DEFAULT_OVERLAP,
     .store = CLI_STORE_INT, .offset = CAL(concurrent),
     .help = "rows with both channels high: preempt, the link layer suspended the operation for "
             "the connection event (a controller's interrupts preempt the application, as "
             "`pqpan simulate` has it), the rows are radio; concurrent, the operation ran at a "
             "steady current through its whole segment, events adding to it (a CPU the link "
             "layer leaves to the application): the median current of its rows with only the "
             "crypto channel high, times the segment's time; the radio gives back that current "
             "over the rows with both high"},
    {.name = "--out", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .def = PQPAN_DEFAULT_OUT,
     .offset = CAL(out), .help = "write the calibration overlay JSON (pqpan-calibration/1)"},
};

static void cal_opts_init(void *p)
{
    struct cal_opts *o = p;
    memset(o, 0, sizeof *o);
    link_opts_init(&o->link);
    model_opts_init(&o->m);
    o->side = MODEL_PERIPHERAL;
    o->ch[PH_CRYPTO] = PQPAN_PPK2_CH_CRYPTO;
    o->ch[PH_RADIO] = PQPAN_PPK2_CH_RADIO;
    o->ch[PH_ADVERTISE] = PQPAN_PPK2_CH_ADVERTISE;
}

const struct cli_opt_table calibrate_opts_table =
    CLI_OPT_TABLE("calibrate", "trace options", cal_rows, struct cal_opts, cal_opts_init);

static enum pqpan_calibrate_exchange exchange_of(const struct cal_opts *o)
{
    if (strcmp(o->link.kem, MODEL_LESC_NAME) == 0) {
        return PQPAN_CALIBRATE_LESC;
    }
    return o->link.cfg.protocol == PQPAN_BLE_PROTO_PQPAN ? PQPAN_CALIBRATE_PQPAN
                                                         : PQPAN_CALIBRATE_STUDY;
}

/* 1 if either side of the exchange runs op. */
static int exchange_runs(enum pqpan_calibrate_exchange x, int op)
{
    enum pqpan_op ops[PQPAN_CALIBRATE_SIDE_OPS_MAX];
    int keygen_side;
    for (keygen_side = 0; keygen_side < 2; keygen_side++) {
        size_t k, n = pqpan_calibrate_side_ops(ops, x, keygen_side);
        for (k = 0; k < n; k++) {
            if ((int)ops[k] == op) {
                return 1;
            }
        }
    }
    return 0;
}

/* --protocol and --ops against the exchange: pqpan's protocol is a KEM exchange, and
 * every operation --ops names must be one the exchange runs. */
static int exchange_ok(struct run_ctx *r, const struct cal_opts *o)
{
    enum pqpan_calibrate_exchange x = exchange_of(o);
    struct cli_msg msg;
    size_t k;
    if (x == PQPAN_CALIBRATE_LESC && o->link.cfg.protocol == PQPAN_BLE_PROTO_PQPAN) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "--protocol pqpan runs ML-KEM; %s is LE Secure "
                                            "Connections (leave --protocol out)", MODEL_LESC_NAME);
        return run_fail(r, EXIT_USAGE, "--protocol", msg.text);
    }
    for (k = 0; k < o->n_ops; k++) {
        if (o->ops[k] == PQPAN_OP_KDF && x == PQPAN_CALIBRATE_STUDY) {
            return run_fail(r, EXIT_USAGE, "--ops",
                            "--ops kdf: the study protocol runs no KDF (its key is the KEM's "
                            "shared secret); for pqpan's key schedule use --protocol pqpan, or - "
                            "to ignore the segment");
        }
        if (o->ops[k] != OP_SKIP && !exchange_runs(x, o->ops[k])) {
            (void)cli_msg_set(&msg, EXIT_USAGE, "--ops %s: the %s exchange runs no such operation",
                              pqpan_op_name((enum pqpan_op)o->ops[k]),
                              x == PQPAN_CALIBRATE_LESC ? MODEL_LESC_NAME
                              : x == PQPAN_CALIBRATE_PQPAN ? "pqpan" : "study");
            return run_fail(r, EXIT_USAGE, "--ops", msg.text);
        }
    }
    return PQPAN_OK;
}

/* The tables calibrate reads, in the order the CLI tries them; the γ ones (last) only to
 * refuse them: the fit compares with the model at γ = 1. */
static const struct cli_opt_table *const cal_tables[] = {
    &calibrate_opts_table, &link_pqke_table,    &link_opts_table,    &link_setup_table,
    &model_energy_table,   &model_ramp_table,   &model_crypto_table, &cli_format_table,
    &model_gamma_table};
#define N_CAL_TABLES (sizeof cal_tables / sizeof cal_tables[0])

const struct cli_opt *calibrate_opt_row(const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_CAL_TABLES && found == NULL; k++) {
        found = cli_opt_find(cal_tables[k], name);
    }
    return found;
}

/* Where the options of table t are stored in o. */
static void *base_of(struct cal_opts *o, const struct cli_opt_table *t)
{
    if (t == &calibrate_opts_table) {
        return o;
    }
    if (t == &link_pqke_table) {
        o->pqke_given = 1;
        return &o->link.pqke;
    }
    if (t == &link_opts_table || t == &link_setup_table) {
        return &o->link;
    }
    return t == &cli_format_table ? (void *)&o->m.format : (void *)&o->m;
}

static int take(struct run_ctx *r, struct cal_opts *o, const struct pqpan_run_opt *opt)
{
    size_t k;
    if (cli_opt_find(&model_gamma_table, opt->name) != NULL) {
        return run_fail(r, EXIT_USAGE, opt->name,
                        "--calibration, --gamma-comm and --gamma-comp do not apply: calibrate "
                        "compares with the model at gamma = 1");
    }
    for (k = 0; k + 1 < N_CAL_TABLES; k++) {
        const struct cli_opt *row = cli_opt_find(cal_tables[k], opt->name);
        if (row != NULL) {
            return run_set(r, row, base_of(o, cal_tables[k]), opt);
        }
    }
    return run_unknown(r, opt->name, cal_tables, N_CAL_TABLES - 1);
}

static int parse(struct run_ctx *r, struct cal_opts *o, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    size_t i;
    int rc = PQPAN_OK;
    cal_opts_init(o);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, o, &opts[i])
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (o->pqke_given) {
        o->link.cfg.pqke_mode = o->link.pqke.mode;
        o->link.cfg.pqke_sig = o->link.pqke.sig;
        o->link.cfg.pqke_hybrid = o->link.pqke.hybrid;
    }
    if (o->n_traces == 0) {
        return run_fail(r, EXIT_USAGE, "--trace", "no --trace FILE given");
    }
    return exchange_ok(r, o);
}

/* ---- measuring one trace ---- */

/* One interval of a crypto segment where only the crypto channel was high: its mean
 * current (trapezoid) and length. */
struct level {
    double ua;
    int64_t ns;
};

/* The intervals of the open crypto segment (--overlap concurrent), grown on demand. */
struct levels {
    struct level *v;
    size_t n, cap;
};

struct measure {
    struct pqpan_trace t;
    struct pqpan_trace_bin *ws;
    struct cal_trace *ct;
    double voltage_v;
    double baseline_ua;
    int concurrent;
    struct levels lv;
    int out_of_memory;
    uint8_t ch[N_CH];
    struct pqpan_ppk2_sample prev;
    int have_prev;
    double overlap_ua_ms[MAX_OPS]; /* charge of the radio rows inside each crypto segment */
    int64_t overlap_ns[MAX_OPS];
};

static int by_current(const void *a, const void *b)
{
    double x = ((const struct level *)a)->ua, y = ((const struct level *)b)->ua;
    return (x > y) - (x < y);
}

/* The time-weighted median current of the intervals (sorts them); 0 if there are none. */
static double median_ua(struct levels *lv)
{
    int64_t total = 0, seen = 0;
    size_t i;
    for (i = 0; i < lv->n; i++) {
        total += lv->v[i].ns;
    }
    qsort(lv->v, lv->n, sizeof lv->v[0], by_current);
    for (i = 0; i < lv->n; i++) {
        seen += lv->v[i].ns;
        if (2 * seen >= total) {
            return lv->v[i].ua;
        }
    }
    return 0.0;
}

/* --overlap concurrent: the operation ran at a steady power through its whole segment,
 * connection events adding to it (the model's and the simulator's assumption). Its
 * current is the time-weighted median over the intervals where only the crypto channel
 * is high, so an event's radio rows (D1 high) and its HFXO start and CPU processing (a
 * few rows above the operation's level) do not count in it. Sets the operation's energy
 * over the segment and returns its part of the overlap rows, which the radio gives back. */
static double concurrent_op(struct measure *ms, double *op_uj, int64_t seg_ns, int64_t overlap_ns)
{
    double ua = median_ua(&ms->lv);
    ms->lv.n = 0;
    *op_uj = pqpan_trace_energy_uj(ua * (double)seg_ns * 1e-6, (double)seg_ns * 1e-6,
                                   ms->baseline_ua, ms->voltage_v);
    return pqpan_trace_energy_uj(ua * (double)overlap_ns * 1e-6, (double)overlap_ns * 1e-6,
                                 ms->baseline_ua, ms->voltage_v);
}

static int on_segment(void *ctx, const struct pqpan_trace_segment *g)
{
    struct measure *ms = ctx;
    double uj = pqpan_trace_energy_uj(g->charge_ua_ms, (double)g->duration_ns * 1e-6,
                                      ms->baseline_ua, ms->voltage_v);
    if (g->phase == PH_CRYPTO) {
        size_t k = ms->ct->n_crypto;
        if (k < MAX_OPS) {
            ms->ct->crypto_uj[k] =
                uj - pqpan_trace_energy_uj(ms->overlap_ua_ms[k], (double)ms->overlap_ns[k] * 1e-6,
                                           ms->baseline_ua, ms->voltage_v);
            if (ms->concurrent) {
                ms->ct->radio_uj -= concurrent_op(ms, &ms->ct->crypto_uj[k], g->duration_ns,
                                                  ms->overlap_ns[k]);
            }
        }
        ms->ct->n_crypto++;
    } else {
        ms->ct->n_radio++;
        ms->ct->radio_uj += uj;
    }
    return PQPAN_OK;
}

static int high(const struct pqpan_ppk2_sample *s, uint8_t ch)
{
    return s->channels > ch && s->digital[ch] == PQPAN_PPK2_DIG_HIGH;
}

/* Keeps an interval where only the crypto channel is high (--overlap concurrent). */
static int add_level(struct levels *lv, double ua, int64_t ns)
{
    if (lv->n == lv->cap) {
        size_t cap = lv->cap ? 2 * lv->cap : 4096;
        struct level *v = realloc(lv->v, cap * sizeof *v);
        if (v == NULL) {
            return PQPAN_ERR_CAPACITY;
        }
        lv->v = v;
        lv->cap = cap;
    }
    lv->v[lv->n].ua = ua;
    lv->v[lv->n].ns = ns;
    lv->n++;
    return PQPAN_OK;
}

/* The interval from the previous row belongs to that row's phases (as in the analysis).
 * If both channels were high, the radio was active during a crypto operation (the link
 * layer preempts the CPU for a connection event): the interval counts as radio, and is
 * taken out of the crypto segment it falls in (the segment being n_crypto, still open). */
static int track_overlap(struct measure *ms, const struct pqpan_ppk2_sample *s)
{
    const struct pqpan_ppk2_sample *p = &ms->prev;
    size_t k = ms->ct->n_crypto;
    int rc = PQPAN_OK;
    if (ms->have_prev && high(p, ms->ch[PH_CRYPTO]) && k < MAX_OPS) {
        int64_t dt = s->time_ns - p->time_ns;
        double ua = 0.5 * (p->current_ua + s->current_ua);
        if (high(p, ms->ch[PH_RADIO])) {
            ms->overlap_ua_ms[k] += ua * (double)dt * 1e-6;
            ms->overlap_ns[k] += dt;
            ms->ct->overlap_rows++;
        } else if (ms->concurrent) {
            rc = add_level(&ms->lv, ua, dt);
            ms->out_of_memory = rc != PQPAN_OK;
        }
    }
    ms->prev = *s;
    ms->have_prev = 1;
    return rc;
}

/* The advertising segment: the intervals whose row has the advertising channel high;
 * those with the radio channel high too are its radio energy, which comm leaves out. */
static void track_advertising(struct measure *ms, const struct pqpan_ppk2_sample *s)
{
    const struct pqpan_ppk2_sample *p = &ms->prev;
    int64_t dt = s->time_ns - p->time_ns;
    if (!ms->have_prev || !high(p, ms->ch[PH_ADVERTISE])) {
        return;
    }
    ms->ct->adv_ns += dt;
    if (high(p, ms->ch[PH_RADIO])) {
        double ua = 0.5 * (p->current_ua + s->current_ua);
        ms->ct->adv_uj += pqpan_trace_energy_uj(ua * (double)dt * 1e-6, (double)dt * 1e-6,
                                                ms->baseline_ua, ms->voltage_v);
    }
}

static int on_sample(void *ctx, const struct pqpan_ppk2_sample *s)
{
    struct measure *ms = ctx;
    int rc;
    track_advertising(ms, s);
    /* first: adding s may end the crypto segment of that interval */
    rc = track_overlap(ms, s);
    return rc != PQPAN_OK ? rc : pqpan_trace_add(&ms->t, ms->ws, s);
}

static int parse_error(const char *path, const struct pqpan_ppk2_parser *p, int rc,
                       const struct measure *ms, struct cli_msg *msg)
{
    const char *why = p->error != PQPAN_PPK2_E_CALLBACK ? pqpan_ppk2_error_text(p->error)
                      : rc == PQPAN_ERR_UNSUPPORTED
                          ? "no digital channels: calibration needs D0 (crypto) and D1 (radio)"
                          : pqpan_strerror(rc);
    if (ms->out_of_memory) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "%s: out of memory", path);
    }
    return cli_msg_set(msg, EXIT_BAD_INPUT, "%s:%llu: %s", path,
                       (unsigned long long)p->error_line, why);
}

static int stream(FILE *f, const char *path, struct measure *ms, uint8_t *chunk,
                  struct cli_msg *msg)
{
    struct pqpan_ppk2_parser p;
    size_t n;
    int rc;
    pqpan_ppk2_parser_init(&p, 0);
    while ((n = fread(chunk, 1, CHUNK_BYTES, f)) > 0) {
        rc = pqpan_ppk2_feed(&p, chunk, n, on_sample, ms);
        if (rc != PQPAN_OK) {
            return parse_error(path, &p, rc, ms, msg);
        }
    }
    if (ferror(f)) {
        return cli_msg_set(msg, EXIT_IO, "%s: read error: %s", path, strerror(errno));
    }
    rc = pqpan_ppk2_finish(&p, on_sample, ms);
    if (rc != PQPAN_OK) {
        return parse_error(path, &p, rc, ms, msg);
    }
    ms->ct->rows_read = p.rows_read;
    rc = pqpan_trace_end(&ms->t);
    return rc == PQPAN_OK ? EXIT_OK
                          : cli_msg_set(msg, EXIT_BAD_INPUT, "%s: %s", path, pqpan_strerror(rc));
}

static void trace_config(struct pqpan_trace_config *cfg, const struct cal_opts *o, double v)
{
    static const char *const names[2] = {"crypto", "radio"};
    size_t ph;
    memset(cfg, 0, sizeof *cfg);
    cfg->voltage_v = v;
    cfg->baseline = PQPAN_TRACE_BASELINE_NONE;
    cfg->n_phases = 2;
    for (ph = 0; ph < 2; ph++) {
        strcpy(cfg->phases[ph].name, names[ph]);
        cfg->phases[ph].kind = PQPAN_TRACE_PHASE_DIGITAL;
        cfg->phases[ph].channel = o->ch[ph];
    }
}

static int measure_trace(struct cal_state *st, struct cal_trace *ct, struct cli_msg *msg)
{
    struct pqpan_trace_config cfg;
    struct measure ms;
    FILE *f;
    int rc;
    trace_config(&cfg, &st->o, st->voltage_v);
    memset(&ms, 0, sizeof ms);
    ms.ws = st->ws;
    ms.ct = ct;
    ms.voltage_v = st->voltage_v;
    ms.baseline_ua = st->o.baseline_ua;
    ms.concurrent = st->o.concurrent;
    memcpy(ms.ch, st->o.ch, sizeof ms.ch);
    if (pqpan_trace_init(&ms.t, &cfg, st->ws, sizeof st->ws / sizeof st->ws[0]) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "bad trace configuration");
    }
    pqpan_trace_on_segment(&ms.t, on_segment, &ms);
    f = fopen(ct->path, "rb");
    if (f == NULL) {
        return cli_msg_set(msg, EXIT_IO, "%s: %s", ct->path, strerror(errno));
    }
    rc = stream(f, ct->path, &ms, st->chunk, msg);
    fclose(f);
    free(ms.lv.v);
    ct->radio_uj -= ct->adv_uj; /* the advertising segment's radio is reported apart */
    return rc;
}

/* The model a trace is compared with: without the advertising phase when the trace marks
 * its advertising segment (which comm leaves out), else as configured. */
static const struct pqpan_run_exchange_row *trace_model(const struct cal_state *st, const struct cal_trace *ct)
{
    return ct->adv_ns > 0 ? &st->rows_no_adv[ct->side] : &st->rows[ct->side];
}

/* ---- model and points ---- */

/* The operations the side runs in the exchange, in order (one crypto segment each). */
static size_t default_ops(int ops[MAX_OPS], const struct cal_opts *o, int side)
{
    int keygen_side = o->link.cfg.keygen_side == PQPAN_BLE_CENTRAL ? MODEL_CENTRAL : MODEL_PERIPHERAL;
    enum pqpan_op side_ops[PQPAN_CALIBRATE_SIDE_OPS_MAX];
    size_t k, n = pqpan_calibrate_side_ops(side_ops, exchange_of(o), side == keygen_side);
    for (k = 0; k < n; k++) {
        ops[k] = (int)side_ops[k];
    }
    return n;
}

static void op_list(char *buf, size_t cap, const int *ops, size_t n)
{
    size_t k, used = 0;
    buf[0] = '\0';
    for (k = 0; k < n && used < cap; k++) {
        int w = snprintf(buf + used, cap - used, "%s%s", k > 0 ? "," : "",
                         ops[k] == OP_SKIP ? "-" : pqpan_op_name((enum pqpan_op)ops[k]));
        used += w > 0 ? (size_t)w : 0;
    }
}

static const char *side_name(int side)
{
    return side == MODEL_CENTRAL ? "central" : "peripheral";
}

static int add_point(struct cal_state *st, size_t t, int q, double m, double p,
                     struct cli_msg *msg)
{
    const struct cal_trace *ct = &st->tr[t];
    if (!(p > 0.0)) {
        return cli_msg_set(msg, EXIT_USAGE, "%s: the model runs no %s on the %s; check --side / --ops",
                           ct->path, q == Q_COMM ? "key transfer" : pqpan_op_name((enum pqpan_op)q),
                           side_name(ct->side));
    }
    st->pts[st->n_pts].trace = t;
    st->pts[st->n_pts].quantity = q;
    st->pts[st->n_pts].measured_uj = m;
    st->pts[st->n_pts].predicted_uj = p;
    st->n_pts++;
    return EXIT_OK;
}

/* The model's communication energy at γ = 1 the radio channel is compared with. */
static double comm_prediction(const struct cal_opts *o, const struct pqpan_run_exchange_row *row)
{
    return o->comm_radio ? model_row_link_event_uj(row) : row->e_comm_uj;
}

static const char *comm_model_name(const struct cal_opts *o)
{
    return o->comm_radio ? "radio" : "bits";
}

static const char *overlap_name(const struct cal_opts *o)
{
    return o->concurrent ? "concurrent" : "preempt";
}

static int trace_points(struct cal_state *st, size_t t, struct cli_msg *msg)
{
    const struct cal_trace *ct = &st->tr[t];
    const struct pqpan_run_exchange_row *row = trace_model(st, ct);
    int ops[MAX_OPS];
    size_t n_ops, k;
    char list[160];
    int rc = EXIT_OK;
    if (st->o.n_ops > 0) {
        n_ops = st->o.n_ops;
        memcpy(ops, st->o.ops, sizeof ops);
    } else {
        n_ops = default_ops(ops, &st->o, ct->side);
    }
    if (ct->n_crypto != n_ops) {
        op_list(list, sizeof list, ops, n_ops);
        return cli_msg_set(msg, EXIT_BAD_INPUT,
                           "%s: %zu crypto segments (D%u high), but with %s (%s protocol) the "
                           "model's %s runs %zu operation(s) (%s); check --side and --protocol "
                           "or map them with --ops",
                           ct->path, ct->n_crypto, (unsigned)st->o.ch[PH_CRYPTO], st->o.link.kem,
                           row->protocol, side_name(ct->side), n_ops, list);
    }
    if (ct->n_radio == 0) {
        return cli_msg_set(msg, EXIT_BAD_INPUT, "%s: no radio segment (D%u never high)", ct->path,
                           (unsigned)st->o.ch[PH_RADIO]);
    }
    for (k = 0; k < n_ops && rc == EXIT_OK; k++) {
        if (ops[k] != OP_SKIP) {
            rc = add_point(st, t, ops[k], ct->crypto_uj[k], row->e_comp_op_uj[ops[k]], msg);
        }
    }
    return rc == EXIT_OK
               ? add_point(st, t, Q_COMM, ct->radio_uj, comm_prediction(&st->o, row), msg)
               : rc;
}

static void fit_all(struct cal_state *st)
{
    double *m = st->fit_m, *p = st->fit_p;
    int q;
    for (q = 0; q < N_QUANT; q++) {
        size_t k, n = 0;
        for (k = 0; k < st->n_pts; k++) {
            if (st->pts[k].quantity == q) {
                m[n] = st->pts[k].measured_uj;
                p[n] = st->pts[k].predicted_uj;
                n++;
            }
        }
        st->fitted[q] = n > 0 && pqpan_calibrate_fit(&st->fit[q], m, p, n) == PQPAN_OK;
    }
}

/* ---- output ---- */

static const char *quantity_name(int q)
{
    return q == Q_COMM ? "comm" : pqpan_op_name((enum pqpan_op)q);
}

static double study_min(int q)
{
    return q == Q_COMM ? PQPAN_GAMMA_COMM_STUDY_MIN : PQPAN_GAMMA_COMP_STUDY_MIN;
}

static double study_max(int q)
{
    return q == Q_COMM ? PQPAN_GAMMA_COMM_STUDY_MAX : PQPAN_GAMMA_COMP_STUDY_MAX;
}

static int in_range(int q, double g)
{
    return pqpan_calibrate_in_range(g, study_min(q), study_max(q));
}

/* A WARNING row per fitted γ outside the study's range (kept as fitted). */
static int warn_ranges(const struct cal_state *st)
{
    struct cli_msg msg;
    int q, rc = PQPAN_OK;
    for (q = 0; q < N_QUANT && rc == PQPAN_OK; q++) {
        if (st->fitted[q] && !in_range(q, st->fit[q].gamma)) {
            (void)cli_msg_set(&msg, EXIT_OK,
                              "%s%s = %.4f is outside the study's range %.2f-%.2f (kept as "
                              "fitted)",
                              q == Q_COMM ? "gamma_comm" : "gamma_comp ",
                              q == Q_COMM ? "" : quantity_name(q), st->fit[q].gamma,
                              study_min(q), study_max(q));
            rc = run_warning(st->r, msg.text);
        }
    }
    return rc;
}

static double fitted_uj(const struct cal_state *st, const struct point *pt)
{
    return st->fit[pt->quantity].gamma * pt->predicted_uj;
}

static double residual_pct(const struct cal_state *st, const struct point *pt)
{
    double f = fitted_uj(st, pt);
    return f != 0.0 ? 100.0 * (pt->measured_uj - f) / f : 0.0;
}

static int all_se_valid(const struct cal_state *st)
{
    int q, ok = 1;
    for (q = 0; q < N_QUANT; q++) {
        ok &= !st->fitted[q] || st->fit[q].se_valid;
    }
    return ok;
}

/* v rounded to 1/scale, never -0 (so a zero residual prints as 0.000, not -0.000). */
static double round_to(double v, double scale)
{
    double r = round(v * scale) / scale;
    return r == 0.0 ? 0.0 : r;
}

/* The table output, rendered into NOTE rows. */
static void table_notes(FILE *f, const void *arg)
{
    const struct cal_state *st = arg;
    const struct pqpan_run_exchange_row *r = &st->rows[MODEL_PERIPHERAL];
    size_t k;
    int q;
    fprintf(f, "pqpan calibrate: %s (%s protocol) over LE %s, ATT_MTU %u, LL %u octets (%s), "
               "transfer %s, CI %.2f ms; %zu trace%s at %.3f V\n",
               r->kem, r->protocol, r->phy, r->att_mtu, r->ll_octets, r->dle ? "DLE" : "no DLE", r->transfer,
               r->ci_ms, st->o.n_traces, st->o.n_traces == 1 ? "" : "s", st->voltage_v);
    model_print_exchange_line(f, "  ", r->protocol, r->auth, MODEL_BLE_IDLE_TEXT);
    model_print_assumptions(f, st->env, model_radio_of(st->o.link.cfg.phy), "  ");
    model_print_setup(f, &st->o.link.cfg, "  ");
    fprintf(f, "\nfit: gamma = sum(m*p) / sum(p^2), p = model at gamma 1 (comm: %s; overlap: %s)\n",
               st->o.comm_radio ? "link-layer events of the events accounting" : "bits accounting",
               overlap_name(&st->o));
    fprintf(f, "  %-12s %8s %8s %6s  %-11s\n", "parameter", "gamma", "se", "points", "study range");
    for (q = 0; q < N_QUANT; q++) {
        const struct pqpan_calibrate_fit *fq = &st->fit[q];
        char se[16];
        if (!st->fitted[q]) {
            continue;
        }
        if (fq->se_valid) {
            snprintf(se, sizeof se, "%.4f", fq->se);
        } else {
            snprintf(se, sizeof se, "n/a");
        }
        fprintf(f, "  %-12s %8.4f %8s %6zu  %.2f-%.2f%s\n", quantity_name(q), fq->gamma, se, fq->n,
                   study_min(q), study_max(q), in_range(q, fq->gamma) ? "" : "  OUTSIDE");
    }
    fprintf(f, "\nresiduals (m - gamma*p):\n");
    fprintf(f, "  %-5s %-10s %-11s %12s %12s %12s %12s %8s\n", "trace", "side", "quantity",
               "measured_uj", "model_g1_uj", "fitted_uj", "residual_uj", "resid_%");
    for (k = 0; k < st->n_pts; k++) {
        const struct point *pt = &st->pts[k];
        fprintf(f, "  %-5zu %-10s %-11s %12.3f %12.3f %12.3f %12.3f %8.3f\n", pt->trace + 1,
                   side_name(st->tr[pt->trace].side), quantity_name(pt->quantity), pt->measured_uj,
                   pt->predicted_uj, fitted_uj(st, pt), round_to(pt->measured_uj - fitted_uj(st, pt), 1e3),
                   round_to(residual_pct(st, pt), 1e3));
    }
    fprintf(f, "\ntraces (radio: measured D%u energy outside the advertising segment vs the events "
               "accounting's link-layer events; adv: ", (unsigned)st->o.ch[PH_RADIO]);
    if (st->o.ch[PH_ADVERTISE] == CH_NONE) {
        fprintf(f, "no advertising channel read):\n");
    } else {
        fprintf(f, "the segment, D%u high, left out):\n", (unsigned)st->o.ch[PH_ADVERTISE]);
    }
    fprintf(f, "  %-5s %-10s %10s %8s %8s %8s %12s %14s %10s %10s  %s\n", "trace", "side", "rows",
               "crypto", "radio", "overlap", "radio_uj", "ev_radio_uj", "adv_ms", "adv_uj", "file");
    for (k = 0; k < st->o.n_traces; k++) {
        const struct cal_trace *ct = &st->tr[k];
        fprintf(f, "  %-5zu %-10s %10llu %8zu %8llu %8llu %12.3f %14.3f %10.3f %10.3f  %s\n", k + 1,
                   side_name(ct->side), (unsigned long long)ct->rows_read, ct->n_crypto,
                   (unsigned long long)ct->n_radio, (unsigned long long)ct->overlap_rows, ct->radio_uj,
                   ct->events_radio_uj, (double)ct->adv_ns * 1e-6, ct->adv_uj, ct->path);
    }
    for (q = 0; q < N_QUANT; q++) {
        if (st->fitted[q] && !st->fit[q].se_valid) {
            fprintf(f, "\n%s: one point, so its standard error cannot be estimated (add traces)",
                       quantity_name(q));
        }
    }
    if (!all_se_valid(st)) {
        fputc('\n', f);
    }
}

static cJSON *json_fit(const struct cal_state *st)
{
    cJSON *arr = cJSON_CreateArray();
    int q;
    for (q = 0; q < N_QUANT; q++) {
        const struct pqpan_calibrate_fit *f = &st->fit[q];
        cJSON *o;
        if (!st->fitted[q]) {
            continue;
        }
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "parameter", quantity_name(q));
        cJSON_AddNumberToObject(o, "gamma", round_to(f->gamma, 1e6));
        if (f->se_valid) {
            cJSON_AddNumberToObject(o, "gamma_se", round_to(f->se, 1e6));
        } else {
            cJSON_AddNullToObject(o, "gamma_se");
        }
        cJSON_AddNumberToObject(o, "points", (double)f->n);
        cJSON_AddNumberToObject(o, "study_min", study_min(q));
        cJSON_AddNumberToObject(o, "study_max", study_max(q));
        cJSON_AddBoolToObject(o, "in_study_range", in_range(q, f->gamma));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *json_residuals(const struct cal_state *st)
{
    cJSON *arr = cJSON_CreateArray();
    size_t k;
    for (k = 0; k < st->n_pts; k++) {
        const struct point *pt = &st->pts[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "trace", (double)(pt->trace + 1));
        cJSON_AddStringToObject(o, "side", side_name(st->tr[pt->trace].side));
        cJSON_AddStringToObject(o, "quantity", quantity_name(pt->quantity));
        cJSON_AddNumberToObject(o, "measured_uj", round_to(pt->measured_uj, 1e3));
        cJSON_AddNumberToObject(o, "model_g1_uj", round_to(pt->predicted_uj, 1e3));
        cJSON_AddNumberToObject(o, "fitted_uj", round_to(fitted_uj(st, pt), 1e3));
        cJSON_AddNumberToObject(o, "residual_uj",
                                round_to(pt->measured_uj - fitted_uj(st, pt), 1e3));
        cJSON_AddNumberToObject(o, "residual_pct", round_to(residual_pct(st, pt), 1e3));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *json_traces(const struct cal_state *st)
{
    cJSON *arr = cJSON_CreateArray();
    size_t k;
    for (k = 0; k < st->o.n_traces; k++) {
        const struct cal_trace *ct = &st->tr[k];
        cJSON *o = cJSON_CreateObject();
        cJSON_AddNumberToObject(o, "trace", (double)(k + 1));
        cJSON_AddStringToObject(o, "file", ct->path);
        cJSON_AddStringToObject(o, "side", side_name(ct->side));
        cJSON_AddNumberToObject(o, "rows_read", (double)ct->rows_read);
        cJSON_AddNumberToObject(o, "crypto_segments", (double)ct->n_crypto);
        cJSON_AddNumberToObject(o, "radio_segments", (double)ct->n_radio);
        cJSON_AddNumberToObject(o, "overlap_rows", (double)ct->overlap_rows);
        cJSON_AddNumberToObject(o, "radio_uj", round_to(ct->radio_uj, 1e3));
        cJSON_AddNumberToObject(o, "events_radio_model_uj", round_to(ct->events_radio_uj, 1e3));
        cJSON_AddNumberToObject(o, "advertise_ms", round_to((double)ct->adv_ns * 1e-6, 1e3));
        cJSON_AddNumberToObject(o, "advertise_uj", round_to(ct->adv_uj, 1e3));
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

/* The JSON output as members (its object's, without the braces) for render. */
static void put_members(FILE *f, const void *arg)
{
    const char *text = arg;
    size_t n = strlen(text);
    /* cJSON_Print's "{\n" ... "\n}" */
    if (n >= 3) {
        fwrite(text + 2, 1, n - 3, f);
    }
}

/* The JSON output's members as one MEMBERS row. */
static int json_members(const struct cal_state *st)
{
    const struct pqpan_run_exchange_row *r = &st->rows[MODEL_PERIPHERAL];
    cJSON *root = cJSON_CreateObject();
    char *text;
    int rc;
    cJSON_AddStringToObject(root, "kem", r->kem);
    cJSON_AddStringToObject(root, "protocol", r->protocol);
    cJSON_AddStringToObject(root, "auth", r->auth);
    cJSON_AddStringToObject(root, "idle", r->idle);
    cJSON_AddStringToObject(root, "phy", r->phy);
    cJSON_AddNumberToObject(root, "att_mtu", r->att_mtu);
    cJSON_AddNumberToObject(root, "ll_octets", r->ll_octets);
    cJSON_AddStringToObject(root, "transfer", r->transfer);
    cJSON_AddNumberToObject(root, "ci_ms", r->ci_ms);
    cJSON_AddStringToObject(root, "profile", st->env->in.profile.name);
    cJSON_AddStringToObject(root, "currents", pqpan_current_table_name(st->env->table));
    cJSON_AddStringToObject(root, "crypto_impl", st->env->in.crypto_impl);
    cJSON_AddStringToObject(root, "comm_model", comm_model_name(&st->o));
    cJSON_AddStringToObject(root, "overlap", overlap_name(&st->o));
    cJSON_AddNumberToObject(root, "voltage_v", st->voltage_v);
    cJSON_AddItemToObject(root, "fit", json_fit(st));
    cJSON_AddItemToObject(root, "residuals", json_residuals(st));
    cJSON_AddItemToObject(root, "traces", json_traces(st));
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text == NULL) {
        return run_fail(st->r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = run_render(st->r, PQPAN_RUN_RECORD_MEMBERS, put_members, text);
    free(text);
    return rc;
}

/* The overlay file (docs/MODEL.md "Calibration file format"). */
static cJSON *overlay(const struct cal_state *st)
{
    cJSON *root = cJSON_CreateObject(), *comp = cJSON_CreateObject();
    cJSON *prov = cJSON_CreateObject(), *files = cJSON_CreateArray();
    char source[96];
    size_t k;
    int q;
    cJSON_AddStringToObject(root, "format", "pqpan-calibration/1");
    for (q = 0; q < PQPAN_OP_COUNT; q++) {
        if (st->fitted[q]) {
            cJSON_AddNumberToObject(comp, quantity_name(q), round_to(st->fit[q].gamma, 1e6));
        }
    }
    cJSON_AddItemToObject(root, "gamma_comp", comp);
    if (st->fitted[Q_COMM]) {
        cJSON_AddNumberToObject(root, "gamma_comm", round_to(st->fit[Q_COMM].gamma, 1e6));
    }
    snprintf(source, sizeof source, "pqpan calibrate, %zu PPK2 trace%s", st->o.n_traces,
             st->o.n_traces == 1 ? "" : "s");
    cJSON_AddStringToObject(prov, "source", source);
    snprintf(source, sizeof source, "pqpan %s", pqpan_version());
    cJSON_AddStringToObject(prov, "tool", source);
    for (k = 0; k < st->o.n_traces; k++) {
        cJSON_AddItemToArray(files, cJSON_CreateString(st->tr[k].path));
    }
    cJSON_AddItemToObject(prov, "traces", files);
    cJSON_AddStringToObject(prov, "kem", st->o.link.kem);
    cJSON_AddStringToObject(prov, "protocol", st->rows[MODEL_PERIPHERAL].protocol);
    cJSON_AddStringToObject(prov, "profile", st->env->in.profile.name);
    cJSON_AddStringToObject(prov, "comm_model", comm_model_name(&st->o));
    cJSON_AddStringToObject(prov, "overlap", overlap_name(&st->o));
    cJSON_AddItemToObject(prov, "fit", json_fit(st));
    cJSON_AddItemToObject(root, "provenance", prov);
    return root;
}

/* A calibration file holds only γ values that estimate accepts from it, the bounds of
 * --gamma-comp / --gamma-comm (PQPAN_IO_GAMMA_MIN..PQPAN_IO_GAMMA_MAX): a fit outside them (γ <= 0
 * when the baseline exceeds the measured current) is refused with the reason. */
static int overlay_fits_valid(const struct cal_state *st, struct cli_msg *msg)
{
    int q, any = 0;
    for (q = 0; q < N_QUANT; q++) {
        double g = round_to(st->fit[q].gamma, 1e6);
        if (!st->fitted[q]) {
            continue;
        }
        any = 1;
        if (!(g >= PQPAN_IO_GAMMA_MIN && g <= PQPAN_IO_GAMMA_MAX)) {
            return cli_msg_set(msg, EXIT_FAILURE_RUN,
                               "not writing %s: fitted %s%s = %g is outside %g..%g, the range a "
                               "calibration file may hold (a γ <= 0 means the measured energy "
                               "is not above the baseline: check --baseline-ua and the traces)",
                               st->o.out, q == Q_COMM ? "gamma_comm" : "gamma_comp ",
                               q == Q_COMM ? "" : quantity_name(q), g, PQPAN_IO_GAMMA_MIN,
                               PQPAN_IO_GAMMA_MAX);
        }
    }
    if (!any) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "not writing %s: no γ could be fitted",
                           st->o.out);
    }
    return EXIT_OK;
}

/* --out: the overlay, written by outfile.c's rules (which say on stderr why a file could
 * not be written); "wrote FILE" on stderr. */
static int write_overlay(const struct cal_state *st)
{
    struct cli_msg msg;
    struct cli_outfile f;
    cJSON *root;
    char *text;
    int rc = overlay_fits_valid(st, &msg);
    if (rc != EXIT_OK) {
        return run_fail(st->r, rc, "--out", msg.text);
    }
    root = overlay(st);
    text = cJSON_Print(root);
    cJSON_Delete(root);
    if (text == NULL) {
        return run_fail(st->r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = cli_outfile_open(&f, CMD, st->o.out);
    if (rc == EXIT_OK) {
        fprintf(f.f, "%s\n", text);
        rc = cli_outfile_close(&f, CMD, 1);
    }
    free(text);
    if (rc != EXIT_OK) {
        (void)cli_msg_set(&msg, EXIT_IO, "cannot write %s", st->o.out);
        return run_fail(st->r, EXIT_IO, "--out", msg.text);
    }
    fprintf(stderr, "pqpan %s: wrote %s\n", CMD, st->o.out);
    return PQPAN_OK;
}

/* ---- rows ---- */

#define RUN_S(s) PQPAN_RUN_STORE_##s
#define FIT(m) offsetof(struct pqpan_run_calibrate_fit, m)

/* A fitted γ: the JSON output's "fit" entries, the table's fit lines. */
static const struct pqpan_run_field fit_fields[] = {
    {"parameter", "parameter", NULL, 0, RUN_S(TEXT), FIT(parameter), 0},
    {"gamma", "gamma", NULL, 0, RUN_S(REAL), FIT(gamma), 4},
    {"gamma_se", "se", NULL, 0, RUN_S(OPT_REAL), FIT(gamma_se), 4},
    {"points", "points", NULL, 0, RUN_S(ULL), FIT(points), 0},
    {"study_min", "study min", NULL, 0, RUN_S(REAL), FIT(study_min), 2},
    {"study_max", "study max", NULL, 0, RUN_S(REAL), FIT(study_max), 2},
    {"in_study_range", "in the study's range", NULL, 0, RUN_S(INT), FIT(in_study_range), 0},
};
#define N_FIT_FIELDS (sizeof fit_fields / sizeof fit_fields[0])

#define PT(m) offsetof(struct pqpan_run_calibrate_point, m)

/* A data point of a fit: the CSV output's columns, in its order. */
static const struct pqpan_run_field point_fields[] = {
    {"trace", "trace", NULL, 0, RUN_S(ULL), PT(trace), 0},
    {"file", "file", NULL, 0, RUN_S(TEXT), PT(file), 0},
    {"side", "side", NULL, 0, RUN_S(TEXT), PT(side), 0},
    {"quantity", "quantity", NULL, 0, RUN_S(TEXT), PT(quantity), 0},
    {"measured_uj", "measured (uJ)", "uJ", 0, RUN_S(REAL), PT(measured_uj), 3},
    {"model_g1_uj", "model at gamma 1 (uJ)", "uJ", 0, RUN_S(REAL), PT(model_g1_uj), 3},
    {"gamma", "gamma", NULL, 0, RUN_S(REAL), PT(gamma), 6},
    {"gamma_se", "gamma's standard error", NULL, 0, RUN_S(OPT_REAL), PT(gamma_se), 6},
    {"points", "points", NULL, 0, RUN_S(ULL), PT(points), 0},
    {"fitted_uj", "fitted (uJ)", "uJ", 0, RUN_S(REAL), PT(fitted_uj), 3},
    {"residual_uj", "residual (uJ)", "uJ", 0, RUN_S(REAL), PT(residual_uj), 3},
    {"residual_pct", "residual (%)", "%", 0, RUN_S(REAL), PT(residual_pct), 3},
    {"protocol", "protocol", NULL, 0, RUN_S(TEXT), PT(protocol), 0},
    {"auth", "auth", NULL, 0, RUN_S(TEXT), PT(auth), 0},
    {"idle", "idle", NULL, 0, RUN_S(TEXT), PT(idle), 0},
};
#define N_POINT_FIELDS (sizeof point_fields / sizeof point_fields[0])

#define TR(m) offsetof(struct pqpan_run_calibrate_trace, m)

/* What a trace measured: the JSON output's "traces" entries, the table's trace lines. */
static const struct pqpan_run_field trace_fields[] = {
    {"trace", "trace", NULL, 0, RUN_S(ULL), TR(trace), 0},
    {"file", "file", NULL, 0, RUN_S(TEXT), TR(file), 0},
    {"side", "side", NULL, 0, RUN_S(TEXT), TR(side), 0},
    {"rows_read", "rows", NULL, 0, RUN_S(ULL), TR(rows_read), 0},
    {"crypto_segments", "crypto segments", NULL, 0, RUN_S(ULL), TR(crypto_segments), 0},
    {"radio_segments", "radio segments", NULL, 0, RUN_S(ULL), TR(radio_segments), 0},
    {"overlap_rows", "rows with both high", NULL, 0, RUN_S(ULL), TR(overlap_rows), 0},
    {"radio_uj", "radio (uJ)", "uJ", 0, RUN_S(REAL), TR(radio_uj), 3},
    {"events_radio_model_uj", "model's link-layer events (uJ)", "uJ", 0, RUN_S(REAL),
     TR(events_radio_model_uj), 3},
    {"advertise_ms", "advertising segment (ms)", "ms", 0, RUN_S(REAL), TR(advertise_ms), 3},
    {"advertise_uj", "advertising radio (uJ)", "uJ", 0, RUN_S(REAL), TR(advertise_uj), 3},
};
#define N_TRACE_FIELDS (sizeof trace_fields / sizeof trace_fields[0])

static int emit_fits(const struct cal_state *st)
{
    struct pqpan_run_calibrate_fit row;
    int q, rc = PQPAN_OK;
    for (q = 0; q < N_QUANT && rc == PQPAN_OK; q++) {
        const struct pqpan_calibrate_fit *f = &st->fit[q];
        if (!st->fitted[q]) {
            continue;
        }
        row.parameter = quantity_name(q);
        row.gamma = f->gamma;
        row.gamma_se = f->se_valid ? f->se : -1.0;
        row.points = f->n;
        row.study_min = study_min(q);
        row.study_max = study_max(q);
        row.in_study_range = in_range(q, f->gamma);
        rc = run_record(st->r, PQPAN_RUN_RECORD_FIT, PQPAN_RUN_LINK_BLE, fit_fields,
                        N_FIT_FIELDS, &row);
    }
    return rc;
}

static int emit_points(const struct cal_state *st)
{
    const struct pqpan_run_exchange_row *r = &st->rows[MODEL_PERIPHERAL];
    struct pqpan_run_calibrate_point row;
    size_t k;
    int rc = PQPAN_OK;
    for (k = 0; k < st->n_pts && rc == PQPAN_OK; k++) {
        const struct point *pt = &st->pts[k];
        const struct pqpan_calibrate_fit *f = &st->fit[pt->quantity];
        row.trace = pt->trace + 1;
        row.file = st->tr[pt->trace].path;
        row.side = side_name(st->tr[pt->trace].side);
        row.quantity = quantity_name(pt->quantity);
        row.measured_uj = pt->measured_uj;
        row.model_g1_uj = pt->predicted_uj;
        row.gamma = f->gamma;
        row.gamma_se = f->se_valid ? f->se : -1.0;
        row.points = f->n;
        row.fitted_uj = fitted_uj(st, pt);
        row.residual_uj = round_to(pt->measured_uj - fitted_uj(st, pt), 1e3);
        row.residual_pct = round_to(residual_pct(st, pt), 1e3);
        row.protocol = r->protocol;
        row.auth = r->auth;
        row.idle = r->idle;
        rc = run_record(st->r, PQPAN_RUN_RECORD_RESIDUAL, PQPAN_RUN_LINK_BLE, point_fields,
                        N_POINT_FIELDS, &row);
    }
    return rc;
}

static int emit_traces(const struct cal_state *st)
{
    struct pqpan_run_calibrate_trace row;
    size_t k;
    int rc = PQPAN_OK;
    for (k = 0; k < st->o.n_traces && rc == PQPAN_OK; k++) {
        const struct cal_trace *ct = &st->tr[k];
        row.trace = k + 1;
        row.file = ct->path;
        row.side = side_name(ct->side);
        row.rows_read = ct->rows_read;
        row.crypto_segments = ct->n_crypto;
        row.radio_segments = ct->n_radio;
        row.overlap_rows = ct->overlap_rows;
        row.radio_uj = ct->radio_uj;
        row.events_radio_model_uj = ct->events_radio_uj;
        row.advertise_ms = (double)ct->adv_ns * 1e-6;
        row.advertise_uj = ct->adv_uj;
        rc = run_record(st->r, PQPAN_RUN_RECORD_CALIBRATE_TRACE, PQPAN_RUN_LINK_BLE, trace_fields,
                        N_TRACE_FIELDS, &row);
    }
    return rc;
}

/* The rows of the fit, in output order. */
static int emit_all(const struct cal_state *st)
{
    int rc = warn_ranges(st);
    if (rc == PQPAN_OK) {
        rc = run_render(st->r, PQPAN_RUN_RECORD_NOTE, table_notes, st);
    }
    if (rc == PQPAN_OK) {
        rc = json_members(st);
    }
    if (rc == PQPAN_OK) {
        rc = emit_fits(st);
    }
    if (rc == PQPAN_OK) {
        rc = emit_points(st);
    }
    return rc == PQPAN_OK ? emit_traces(st) : rc;
}

/* ---- run ---- */

/* The model the measurements are compared with: every γ = 1 (the assumptions block says so). */
static void gamma_one(struct data_energy_inputs *in)
{
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        in->gamma.comp[op] = 1.0;
    }
    in->gamma.comm = 1.0;
    snprintf(in->calibration, sizeof in->calibration, "none, the fit compares with gamma = 1");
}

static int measure_all(struct cal_state *st)
{
    struct cli_msg msg;
    size_t k;
    int rc = EXIT_OK;
    for (k = 0; k < st->o.n_traces && rc == EXIT_OK; k++) {
        struct cal_trace *ct = &st->tr[k];
        ct->path = st->o.paths[k];
        ct->side = st->o.side_of[k] >= 0 ? st->o.side_of[k] : st->o.side;
        rc = measure_trace(st, ct, &msg);
        if (rc == EXIT_OK) {
            ct->events_radio_uj = model_row_link_event_uj(trace_model(st, ct));
            rc = trace_points(st, k, &msg);
        }
    }
    return rc == EXIT_OK ? PQPAN_OK : run_fail(st->r, rc, "--trace", msg.text);
}

/* The model at γ = 1 for the configuration, with and without its advertising phase. */
static int model_rows(struct cal_state *st)
{
    struct pqpan_ble_config no_adv = st->o.link.cfg;
    struct cli_msg msg;
    int rc;
    gamma_one(&st->env->in);
    rc = model_run(st->rows, st->env, st->o.link.kem, &st->o.link.cfg,
                   st->o.link.allow_unbuildable, &msg);
    if (rc == EXIT_OK) {
        no_adv.adv_interval_ns = 0u;
        rc = model_run(st->rows_no_adv, st->env, st->o.link.kem, &no_adv,
                       st->o.link.allow_unbuildable, &msg);
    }
    return rc == EXIT_OK ? PQPAN_OK : run_fail(st->r, rc, NULL, msg.text);
}

static int calibrate(struct cal_state *st)
{
    struct cli_msg msg;
    int rc = model_env_new_msg(&st->env, &st->o.m, &msg);
    if (rc != EXIT_OK) {
        return run_fail(st->r, rc, NULL, msg.text);
    }
    rc = model_rows(st);
    if (rc != PQPAN_OK) {
        return rc;
    }
    st->voltage_v = st->o.voltage_v > 0.0 ? st->o.voltage_v : st->env->in.profile.supply_v;
    rc = measure_all(st);
    if (rc != PQPAN_OK) {
        return rc;
    }
    fit_all(st);
    rc = emit_all(st);
    return rc == PQPAN_OK && st->o.out != NULL ? write_overlay(st) : rc;
}

int run_calibrate(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct cal_state *st = calloc(1, sizeof *st);
    struct cli_msg msg;
    int rc;
    if (st == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    st->r = r;
    rc = parse(r, &st->o, opts, n_opts);
    if (rc == PQPAN_OK && st->o.out != NULL && cli_outfile_check(CMD, st->o.out) != EXIT_OK) {
        (void)cli_msg_set(&msg, EXIT_IO, "cannot write %s", st->o.out); /* before any work */
        rc = run_fail(r, EXIT_IO, "--out", msg.text);
    }
    if (rc == PQPAN_OK) {
        rc = calibrate(st);
    }
    free(st->env);
    free(st);
    return rc;
}
