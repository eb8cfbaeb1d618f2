/* The run of `pqpan profiles` (pqpan_run "profiles", run.h): the built-in device profiles,
 * each as one PROFILE row of its key figures and a FIGURE row for each listed figure that
 * quotes a source; with --show NAME|FILE one profile (built in, or a file of the same
 * format) as its PROFILE row and every figure of the file with its source. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "data_load.h"
#include "pqpan/error.h"
#include "pqpan/io.h"
#include "run_internal.h"
#include "run_profiles.h"

#define TEXT_MAX 128
#define G(g) PQPAN_RUN_GROUP_##g
#define S(s) PQPAN_RUN_STORE_##s
#define OFF(m) offsetof(struct pqpan_run_profile_row, m)

/* The PROFILE record; figure: the profile-file path whose source a FIGURE row gives for
 * the column (the list's JSON output quotes it). */
static const struct pqpan_run_field profile_fields[] = {
    {"name", "name", NULL, G(HEADLINE), S(TEXT), OFF(name), 0},
    {"supply_v", "supply", "V", G(HEADLINE), S(OPT_REAL), OFF(supply_v), 6},
    {"cpu_mhz", "CPU clock", "MHz", G(HEADLINE), S(OPT_REAL), OFF(cpu_mhz), 6},
    {"cpu_ua", "CPU running", "uA", G(HEADLINE), S(OPT_REAL), OFF(cpu_ua), 6},
    {"sleep_ua", "sleep", "uA", G(HEADLINE), S(OPT_REAL), OFF(sleep_ua), 6},
    {"tx_0dbm_system_ua", "TX 0 dBm, system", "uA", G(HEADLINE), S(OPT_REAL),
     OFF(tx_0dbm_system_ua), 6},
    {"rx_1m_system_ua", "RX LE 1M, system", "uA", G(HEADLINE), S(OPT_REAL),
     OFF(rx_1m_system_ua), 6},
    {"tx_0dbm_radio_only_ua", "TX 0 dBm, radio only", "uA", G(HEADLINE), S(OPT_REAL),
     OFF(tx_0dbm_radio_only_ua), 6},
    {"rx_1m_radio_only_ua", "RX LE 1M, radio only", "uA", G(HEADLINE), S(OPT_REAL),
     OFF(rx_1m_radio_only_ua), 6},
    {"assumptions", "figures that are assumptions", NULL, G(HEADLINE), S(ULL), OFF(assumptions),
     0},
    {"derived", "figures derived from others", NULL, G(HEADLINE), S(ULL), OFF(derived), 0},
    {"datasheet", "datasheet", NULL, G(HEADLINE), S(TEXT), OFF(datasheet), 0},
    {"description", "description", NULL, G(HEADLINE), S(TEXT), OFF(description), 0},
    {"origin", "read from", NULL, 0, S(TEXT), OFF(origin), 0},
};
#define N_PROFILE_FIELDS (sizeof profile_fields / sizeof profile_fields[0])

/* The profile-file path of each listed column's figure (NULL: none). */
static const char *const column_figure[N_PROFILE_FIELDS] = {
    NULL, "supply_v", "cpu_hz", "cpu_ua", "sleep_ua",
    "currents.system.tx_ua.0dbm", "currents.system.rx_ua.ble_1m",
    "currents.radio_only.tx_ua.0dbm", "currents.radio_only.rx_ua.ble_1m"};

/* The FIGURE record (values filled from a struct pqpan_io_figure). */
enum { FIG_FIELD, FIG_VALUE, FIG_TEXT, FIG_SOURCE, FIG_DERIVED, FIG_OTHER_CHIP, FIG_COLUMN, N_FIG };
static const struct pqpan_run_field figure_fields[N_FIG] = {
    {"field", "field", NULL, G(HEADLINE), S(TEXT), 0, 0},
    {"value", "value", NULL, G(HEADLINE), S(REAL), 0, 6},
    {"text", "value (a word)", NULL, G(HEADLINE), S(TEXT), 0, 0},
    {"source", "source", NULL, G(HEADLINE), S(TEXT), 0, 0},
    {"derived", "derived", NULL, G(HEADLINE), S(TEXT), 0, 0},
    {"other_chip", "another chip's figure", NULL, G(HEADLINE), S(TEXT), 0, 0},
    {"column", "column", NULL, 0, S(TEXT), 0, 0},
};

/* --show NAME|FILE (and the face's --format). */
struct profiles_req {
    const char *show;
    enum cli_format format;
};

static const struct cli_opt show_rows[] = {
    {.name = "--show", .kind = CLI_OPT_TEXT, .meta = "NAME|FILE", .store = CLI_STORE_STR,
     .offset = offsetof(struct profiles_req, show),
     .help = "one profile: a built-in NAME or a profile file; every figure with its source"},
};

static void show_init(void *p)
{
    memset(p, 0, sizeof(struct profiles_req));
}

static const struct cli_opt_table profiles_show_table =
    CLI_OPT_TABLE("profiles-show", NULL, show_rows, struct profiles_req, show_init);

/* A walk over a profile's figures: the counts of the list, each column's source, and for
 * --show every figure as a row. */
struct walk {
    struct run_ctx *r;
    struct pqpan_run_profile_row *row;
    char *sources[N_PROFILE_FIELDS];
    int every; /* --show: a FIGURE row per figure */
    int rc;
};

static int emit_figure(struct run_ctx *r, const struct pqpan_io_figure *f, const char *column,
                       const char *source)
{
    struct pqpan_run_value v[N_FIG];
    struct pqpan_run_row row;
    const char *text[N_FIG];
    int k;
    memset(v, 0, sizeof v);
    memset(&row, 0, sizeof row);
    text[FIG_FIELD] = f != NULL ? f->path : NULL;
    text[FIG_TEXT] = f != NULL ? f->text : NULL;
    text[FIG_SOURCE] = source;
    text[FIG_DERIVED] = f != NULL ? f->derived : NULL;
    text[FIG_OTHER_CHIP] = f != NULL ? f->other_chip : NULL;
    text[FIG_COLUMN] = column;
    for (k = 0; k < N_FIG; k++) {
        v[k].type = k == FIG_VALUE ? PQPAN_RUN_REAL : PQPAN_RUN_TEXT;
        v[k].text = k == FIG_VALUE ? NULL : text[k];
        v[k].known = k == FIG_VALUE ? f != NULL && f->given : text[k] != NULL;
    }
    v[FIG_VALUE].x = f != NULL ? f->value : 0.0;
    row.record = PQPAN_RUN_RECORD_FIGURE;
    row.groups = G(HEADLINE);
    row.fields = figure_fields;
    row.n_fields = N_FIG;
    row.values = v;
    return r->emit(r->ctx, &row) == 0 ? PQPAN_OK
                                      : run_fail(r, EXIT_IO, NULL, "the caller stopped the run");
}

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c != NULL) {
        memcpy(c, s, n);
    }
    return c;
}

static void on_figure(const struct pqpan_io_figure *f, void *ctx)
{
    struct walk *w = ctx;
    size_t i;
    w->row->assumptions += strncmp(f->source, "assumption", 10) == 0;
    w->row->derived += f->derived != NULL;
    for (i = 0; i < N_PROFILE_FIELDS; i++) {
        if (column_figure[i] != NULL && strcmp(column_figure[i], f->path) == 0) {
            free(w->sources[i]);
            w->sources[i] = copy_text(f->source);
        }
    }
    if (w->every && w->rc == PQPAN_OK) {
        w->rc = emit_figure(w->r, f, NULL, f->source);
    }
}

static void free_sources(struct walk *w)
{
    size_t i;
    for (i = 0; i < N_PROFILE_FIELDS; i++) {
        free(w->sources[i]);
        w->sources[i] = NULL;
    }
}

/* The profile document's "datasheet" text into sheet ("" when it has none). */
static void datasheet_of(char sheet[TEXT_MAX], const struct pqpan_io_text *t)
{
    cJSON *doc = cJSON_ParseWithLength(t->text, t->len);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "datasheet");
    snprintf(sheet, TEXT_MAX, "%s", cJSON_IsString(v) ? v->valuestring : "");
    cJSON_Delete(doc);
}

/* A current of the profile, or -1 when it has none. */
static double current(int ok, double ua)
{
    return ok ? ua : -1.0;
}

static void fill_row(struct pqpan_run_profile_row *row, const struct pqpan_profile *p,
                     const struct pqpan_io_text *t, const char *sheet)
{
    double ua = 0.0;
    int ok;
    memset(row, 0, sizeof *row);
    row->name = p->name;
    row->supply_v = p->supply_v;
    row->cpu_mhz = p->cpu_hz / 1e6;
    row->cpu_ua = p->cpu_ua;
    row->sleep_ua = p->sleep_ua;
    ok = pqpan_profile_tx_ua(p, PQPAN_CURRENTS_SYSTEM, 0, &ua) == PQPAN_OK;
    row->tx_0dbm_system_ua = current(ok, ua);
    ok = pqpan_profile_rx_ua(p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_BLE_1M, &ua) == PQPAN_OK;
    row->rx_1m_system_ua = current(ok, ua);
    ok = pqpan_profile_tx_ua(p, PQPAN_CURRENTS_RADIO_ONLY, 0, &ua) == PQPAN_OK;
    row->tx_0dbm_radio_only_ua = current(ok, ua);
    ok = pqpan_profile_rx_ua(p, PQPAN_CURRENTS_RADIO_ONLY, PQPAN_RADIO_BLE_1M, &ua) == PQPAN_OK;
    row->rx_1m_radio_only_ua = current(ok, ua);
    row->datasheet = sheet;
    row->description = p->description;
    row->origin = t->origin;
}

static int emit_profile(struct run_ctx *r, const struct pqpan_run_profile_row *p)
{
    struct pqpan_run_row row;
    memset(&row, 0, sizeof row);
    row.record = PQPAN_RUN_RECORD_PROFILE;
    row.groups = G(HEADLINE);
    row.fields = profile_fields;
    row.n_fields = N_PROFILE_FIELDS;
    return run_emit_row(r, &row, p);
}

/* The listed columns' sources, in column order. */
static int emit_sources(struct run_ctx *r, struct walk *w)
{
    size_t i;
    int rc = PQPAN_OK;
    for (i = 0; i < N_PROFILE_FIELDS && rc == PQPAN_OK; i++) {
        if (w->sources[i] != NULL) {
            rc = emit_figure(r, NULL, profile_fields[i].name, w->sources[i]);
        }
    }
    return rc;
}

/* One profile: its PROFILE row, then its sources (the list) or every figure (--show). */
static int one_profile(struct run_ctx *r, const char *name, int every)
{
    char err[PQPAN_IO_ERR_MAX], sheet[TEXT_MAX];
    struct pqpan_run_profile_row row;
    struct pqpan_profile p;
    struct pqpan_io_text t;
    struct walk w;
    int rc = pqpan_io_profile_text(&t, name, err, sizeof err), walked;
    if (rc == PQPAN_OK) {
        rc = pqpan_io_profile_parse(&p, NULL, t.text, t.len, t.origin, err, sizeof err);
    }
    if (rc != PQPAN_OK) {
        pqpan_io_text_free(&t);
        return run_fail(r, data_exit_code(rc), NULL, err);
    }
    datasheet_of(sheet, &t);
    fill_row(&row, &p, &t, sheet);
    memset(&w, 0, sizeof w);
    w.r = r;
    w.row = &row;
    w.rc = every ? emit_profile(r, &row) : PQPAN_OK; /* --show: the row heads the figures */
    w.every = every;
    walked = pqpan_io_profile_walk(t.text, t.len, on_figure, &w);
    rc = w.rc;
    if (rc == PQPAN_OK && walked != PQPAN_OK) {
        rc = run_fail(r, data_exit_code(walked), NULL, "the profile's figures did not read");
    }
    if (rc == PQPAN_OK && !every) {
        rc = emit_profile(r, &row);
        rc = rc == PQPAN_OK ? emit_sources(r, &w) : rc;
    }
    free_sources(&w);
    pqpan_io_text_free(&t);
    return rc;
}

/* A built-in profile's name given in another case, respelled as the name. */
static void respell_builtin(char *name)
{
    char builtin[64];
    size_t k;
    for (k = 0; k < pqpan_io_profile_builtin_count(); k++) {
        cli_word_respell(name, pqpan_io_profile_builtin_name(k, builtin, sizeof builtin));
    }
}

const struct cli_opt *profiles_opt_row(const char *name)
{
    const struct cli_opt *o = cli_opt_find(&profiles_show_table, name);
    return o != NULL ? o : cli_opt_find(&cli_format_table, name);
}

int run_profiles(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    static const struct cli_opt_table *const tables[] = {&profiles_show_table, &cli_format_table};
    struct profiles_req q;
    size_t i, n;
    int rc = PQPAN_OK;
    show_init(&q);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        const struct cli_opt *o = opts[i].name != NULL ? profiles_opt_row(opts[i].name) : NULL;
        rc = o == NULL ? run_unknown(r, opts[i].name != NULL ? opts[i].name : "", tables, 2)
             : o == &show_rows[0] ? run_set(r, o, &q, &opts[i])
                                  : run_set(r, o, &q.format, &opts[i]);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (q.show != NULL) {
        respell_builtin((char *)q.show); /* run_set's copy in r->values */
        return one_profile(r, q.show, 1);
    }
    n = pqpan_io_profile_builtin_count();
    for (i = 0; i < n && rc == PQPAN_OK; i++) {
        char name[64];
        rc = one_profile(r, pqpan_io_profile_builtin_name(i, name, sizeof name), 0);
    }
    return rc;
}
