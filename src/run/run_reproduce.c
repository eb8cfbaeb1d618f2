/* pqpan reproduce: the study's matrix (ML-KEM-512/768/1024 × no DLE / DLE on the `study`
 * transfer preset, plus the LE Secure Connections baseline) and its headline figures
 * beside the ranges the study reports (Liu, Ramachandran, Jurdak, SenSys '26,
 * arXiv 2602.18708; DESIGN.md "What the study found"), in two readings: the sourced
 * defaults, and the study reading, which sets the two accounting choices the study leaves
 * open the way its figures point (docs/MODEL.md "Reproducing the study"). The run (moved
 * from cli/reproduce.c, which turns argv into a request and prints the rows) computes the
 * matrix, the headline and the per-mode tables, emits them as MATRIX, HEADLINE, MODE and
 * BUILD rows with the notes between them, and writes --out's files. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "model.h"
#include "notes.h"
#include "reproduce_modes.h"
#include "run_internal.h"
#include "run_reproduce.h"

#define CMD "reproduce"
#define N_LEVELS 3
#define N_DLE 2
#define N_CONFIGS (N_LEVELS * N_DLE + N_DLE) /* PQKE matrix + baseline per DLE setting */
#define N_LINES 4                            /* headline figures */

static const char *const levels[N_LEVELS] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
static const unsigned ll_of_dle[N_DLE] = {27, 251};

/* The study's ranges (DESIGN.md). */
#define STUDY_SHARE_NO_DLE "57-63 %"
#define STUDY_DLE_SAVING "25-34 %"
#define STUDY_RATIO "2.5-8.5x"
#define STUDY_SHARE_1024_DLE "about 37 %"

enum reading { READING_DEFAULTS = 0, READING_STUDY, READING_SHIPPED, N_READINGS };

static const char *const reading_names[N_READINGS] = {"defaults", "study", "shipped"};

/* What each reading is, for the table header. */
static const char *const reading_about[N_READINGS] = {
    "the sourced defaults (and the options given)",
    "the defaults with the two accounting choices the study leaves open set the way its\n"
    "  figures point: radio-only currents, one T_IFS per PDU sent; and LE SC as the\n"
    "  fastest pairing there is: Emill's P-256, a reused key pair, the LL encryption start\n"
    "  left out of the ratio, gamma_comp 1.00 for P-256 (docs/MODEL.md \"Reproducing the study\")",
    ("the defaults with LE SC as a stack ships it: Zephyr >= 3.7's P-256 (p256-m), its key\n"
     "  pair reused (docs/MODEL.md \"LE SC as stacks run it\")"),
};

/* Each reading's LE SC choices, each with where it comes from (printed with the reading). */
static const char *const reading_lesc[N_READINGS] = {
    "the options given (--p256-impl, --lesc-keypair); encryption start counted",
    "P-256 emill-asm (Emill/P256-Cortex-M4 README, measured on the nRF52840); key pair\n"
    "  reused (Zephyr, NimBLE ble_sm_sc.c); encryption start left out (pairing is SMP's\n"
    "  Phases 1-3, Core Vol 3 Part H §2.1; LL_ENC_REQ .. LL_START_ENC_RSP is the link\n"
    "  layer's, Vol 6 Part B §5.1.3.1); gamma_comp 1.00 for P-256: the one choice pqpan\n"
    "  cannot source (the study does not give its gamma for ECDH; Emill's cycles were\n"
    "  measured on the nRF52840 itself, so no cycle-count gap is left to correct)",
    "P-256 p256-m (mbedtls 3rdparty/p256-m README: 144 ms per ECDH at 100 MHz on a\n"
    "  Cortex-M4, what Zephyr >= 3.7's BT_ECC runs through PSA); key pair reused (Zephyr\n"
    "  generates it once); encryption start counted",
};

struct range {
    double lo, hi;
};

struct headline {
    struct range share_no_dle, dle_saving, ratio;
    double share_1024_dle;
    double share_no_dle_level[N_LEVELS], saving_level[N_LEVELS];
};

/* One reading: its energy inputs, its bits T_IFS rule, its rows and headline. */
struct reading_run {
    struct model_env *env;
    struct pqpan_run_headline_row lines[N_LINES];
    struct pqpan_run_mode_row mode_rows[MODES_ROWS];
    struct pqpan_run_build_row build_rows[MODES_BUILD_ROWS];
    size_t n_modes, n_builds;
    enum pqpan_ble_bits_ifs bits_ifs;
    int enc_start_out; /* 1: LE SC's encryption start left out of the ratio (study reading) */
    struct pqpan_run_exchange_row rows[N_CONFIGS][MODEL_SIDES]; /* [level*2+dle], then [6+dle] baseline */
    struct headline h;
    struct modes_table modes; /* every PQKE mode against none and LE SC */
    struct modes_builds builds; /* the sig modes in both Cortex-M4 builds */
};

struct repro {
    struct reading_run run[N_READINGS];
    int first, last; /* the readings asked for: run[first..last] */
    struct cli_msg msg; /* why a model run failed */
};

static void study_config(struct pqpan_ble_config *cfg, unsigned ll, enum pqpan_ble_bits_ifs ifs)
{
    pqpan_ble_config_default(cfg);
    cfg->protocol = PQPAN_BLE_PROTO_STUDY;
    cfg->ll_octets = ll;
    cfg->bits_ifs = ifs;
}

/* model_run: an exit code, the message in *msg. */
static int run_one(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                   const char *kem, const struct pqpan_ble_config *cfg, struct cli_msg *msg)
{
    return model_run(rows, env, kem, cfg, 0, msg);
}

static int run_matrix(struct reading_run *r, const char *name, struct cli_msg *msg)
{
    struct pqpan_ble_config cfg;
    int k, d, s, i, rc;
    for (d = 0; d < N_DLE; d++) {
        study_config(&cfg, ll_of_dle[d], r->bits_ifs);
        for (k = 0; k < N_LEVELS; k++) {
            rc = run_one(r->rows[k * N_DLE + d], r->env, levels[k], &cfg, msg);
            if (rc != EXIT_OK) {
                return rc;
            }
        }
        rc = run_one(r->rows[N_LEVELS * N_DLE + d], r->env, MODEL_LESC_NAME, &cfg, msg);
        if (rc != EXIT_OK) {
            return rc;
        }
    }
    for (i = 0; i < N_CONFIGS; i++) {
        for (s = 0; s < MODEL_SIDES; s++) {
            r->rows[i][s].reading = name;
        }
    }
    return EXIT_OK;
}

static void widen(struct range *r, double x, int first)
{
    if (first || x < r->lo) {
        r->lo = x;
    }
    if (first || x > r->hi) {
        r->hi = x;
    }
}

/* LE SC's energy in a reading (peripheral, bits): its total, less the encryption start when
 * the reading leaves it out. */
static double lesc_uj(const struct pqpan_run_exchange_row *base, int enc_start_out)
{
    return base->e_total_uj - (enc_start_out ? base->e_lesc_enc_start_uj : 0.0);
}

static void compute_headline(struct headline *h, const struct pqpan_run_exchange_row (*rows)[MODEL_SIDES],
                             int enc_start_out)
{
    int k, d;
    memset(h, 0, sizeof *h);
    for (k = 0; k < N_LEVELS; k++) {
        const struct pqpan_run_exchange_row *no = &rows[k * N_DLE][MODEL_PERIPHERAL];
        const struct pqpan_run_exchange_row *yes = &rows[k * N_DLE + 1][MODEL_PERIPHERAL];
        h->share_no_dle_level[k] = no->comm_share_pct;
        h->saving_level[k] = 100.0 * (1.0 - yes->e_total_uj / no->e_total_uj);
        widen(&h->share_no_dle, h->share_no_dle_level[k], k == 0);
        widen(&h->dle_saving, h->saving_level[k], k == 0);
        for (d = 0; d < N_DLE; d++) {
            const struct pqpan_run_exchange_row *base = &rows[N_LEVELS * N_DLE + d][MODEL_PERIPHERAL];
            widen(&h->ratio,
                  rows[k * N_DLE + d][MODEL_PERIPHERAL].e_total_uj / lesc_uj(base, enc_start_out),
                  k == 0 && d == 0);
        }
    }
    h->share_1024_dle = rows[(N_LEVELS - 1) * N_DLE + 1][MODEL_PERIPHERAL].comm_share_pct;
}

static const char *verdict(const struct pqpan_run_headline_row *l)
{
    if (l->model_lo >= l->study_lo && l->model_hi <= l->study_hi) {
        return "inside";
    }
    if (l->model_hi < l->study_lo || l->model_lo > l->study_hi) {
        return "outside";
    }
    return "overlaps";
}

/* The headline figures of reading (the peripheral's) beside the study's ranges. */
static void fill_lines(struct pqpan_run_headline_row out[N_LINES], const struct headline *h,
                       const char *reading)
{
    const struct pqpan_run_headline_row l[N_LINES] = {
        {reading, "comm_share_no_dle_pct", "peripheral", h->share_no_dle.lo, h->share_no_dle.hi,
         STUDY_SHARE_NO_DLE, 57.0, 63.0, NULL, "communication share without DLE (LL 27)", "%"},
        {reading, "dle_saving_pct", "peripheral", h->dle_saving.lo, h->dle_saving.hi,
         STUDY_DLE_SAVING, 25.0, 34.0, NULL, "total energy saved by DLE (LL 251 vs 27)", "%"},
        {reading, "pqke_lesc_ratio", "peripheral", h->ratio.lo, h->ratio.hi, STUDY_RATIO, 2.5,
         8.5, NULL, "PQKE / LE SC energy ratio", "x"},
        {reading, "comm_share_1024_dle_pct", "peripheral", h->share_1024_dle, h->share_1024_dle,
         STUDY_SHARE_1024_DLE, 32.0, 42.0, NULL, "communication share with DLE, ML-KEM-1024",
         "%"},
    };
    int i;
    memcpy(out, l, sizeof l);
    for (i = 0; i < N_LINES; i++) {
        out[i].verdict = verdict(&out[i]);
    }
}

static const char *bits_ifs_about(enum pqpan_ble_bits_ifs b)
{
    return b == PQPAN_BLE_BITS_IFS_PER_PDU_SENT
               ? "one per PDU sent (1 per pair; the study reading's choice)"
               : "every T_IFS of an event on both sides (2 per pair, none after the last PDU)";
}

/* ---- the rows: field tables, notes, emission ---- */

#define HL(m) offsetof(struct pqpan_run_headline_row, m)
static const struct pqpan_run_field headline_fields[] = {
    {"reading", "reading", NULL, 0, PQPAN_RUN_STORE_TEXT, HL(reading), 0},
    {"figure", "figure", NULL, 0, PQPAN_RUN_STORE_TEXT, HL(figure), 0},
    {"side", "side", NULL, 0, PQPAN_RUN_STORE_TEXT, HL(side), 0},
    {"model_lo", "model, lowest", NULL, 0, PQPAN_RUN_STORE_REAL, HL(model_lo), 3},
    {"model_hi", "model, highest", NULL, 0, PQPAN_RUN_STORE_REAL, HL(model_hi), 3},
    {"study", "study", NULL, 0, PQPAN_RUN_STORE_TEXT, HL(study), 0},
    {"study_lo", "study, lowest", NULL, 0, PQPAN_RUN_STORE_REAL, HL(study_lo), 1},
    {"study_hi", "study, highest", NULL, 0, PQPAN_RUN_STORE_REAL, HL(study_hi), 1},
    {"verdict", "verdict", NULL, 0, PQPAN_RUN_STORE_TEXT, HL(verdict), 0},
};
#define N_HEADLINE_FIELDS (sizeof headline_fields / sizeof headline_fields[0])

#define MODEF(m) offsetof(struct pqpan_run_mode_row, m)
static const struct pqpan_run_field mode_fields[] = {
    {"reading", "reading", NULL, 0, PQPAN_RUN_STORE_TEXT, MODEF(reading), 0},
    {"kem", "kem", NULL, 0, PQPAN_RUN_STORE_TEXT, MODEF(kem), 0},
    {"dle", "DLE", NULL, 0, PQPAN_RUN_STORE_UINT, MODEF(dle), 0},
    {"mode", "mode", NULL, 0, PQPAN_RUN_STORE_TEXT, MODEF(mode), 0},
    {"sig", "ML-DSA set", NULL, 0, PQPAN_RUN_STORE_TEXT, MODEF(sig), 0},
    {"hybrid", "P-256 hybrid", NULL, 0, PQPAN_RUN_STORE_INT, MODEF(hybrid), 0},
    {"protocol", "protocol", NULL, 0, PQPAN_RUN_STORE_TEXT, MODEF(protocol), 0},
    {"side", "side", NULL, 0, PQPAN_RUN_STORE_TEXT, MODEF(side), 0},
    {"e_total_uj", "energy (uJ)", "uJ", 0, PQPAN_RUN_STORE_REAL, MODEF(e_total_uj), 3},
    {"x_none", "x mode none", NULL, 0, PQPAN_RUN_STORE_REAL, MODEF(x_none), 4},
    {"x_lesc", "x LE SC", NULL, 0, PQPAN_RUN_STORE_REAL, MODEF(x_lesc), 4},
};
#define N_MODE_FIELDS (sizeof mode_fields / sizeof mode_fields[0])

#define BUILDF(m) offsetof(struct pqpan_run_build_row, m)
static const struct pqpan_run_field build_fields[] = {
    {"reading", "reading", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(reading), 0},
    {"kem", "kem", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(kem), 0},
    {"dle", "DLE", NULL, 0, PQPAN_RUN_STORE_UINT, BUILDF(dle), 0},
    {"mode", "mode", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(mode), 0},
    {"sig", "ML-DSA set", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(sig), 0},
    {"side", "side", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(side), 0},
    {"build", "build", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(build), 0},
    {"crypto_impl", "cycle rows", NULL, 0, PQPAN_RUN_STORE_TEXT, BUILDF(crypto_impl), 0},
    {"e_total_uj", "energy (uJ)", "uJ", 0, PQPAN_RUN_STORE_REAL, BUILDF(e_total_uj), 3},
    {"x_small", "x small build", NULL, 0, PQPAN_RUN_STORE_REAL, BUILDF(x_small), 4},
};
#define N_BUILD_FIELDS (sizeof build_fields / sizeof build_fields[0])

const struct pqpan_run_field *pqpan_run_headline_fields(size_t *n)
{
    *n = N_HEADLINE_FIELDS;
    return headline_fields;
}

const struct pqpan_run_field *pqpan_run_mode_fields(size_t *n)
{
    *n = N_MODE_FIELDS;
    return mode_fields;
}

const struct pqpan_run_field *pqpan_run_build_fields(size_t *n)
{
    *n = N_BUILD_FIELDS;
    return build_fields;
}

/* The fields of the matrix's rows. */
static const unsigned repro_groups =
    GROUP_READING | GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | GROUP_LESC;

/* What a renderer of notes reads: the run and one of its readings. */
struct notes_arg {
    const struct repro *r;
    int which;
};

/* The table's heading: the study preset and the exchange. */
static void table_heading(FILE *f, const void *arg)
{
    (void)arg;
    fprintf(f, "pqpan reproduce: the SenSys '26 study (arXiv 2602.18708) with the analytic model\n"
               "  study preset: ek as <= 400 B indications (ATT_MTU 403), ct as Write Requests with a\n"
               "  frame-number byte; LE 1M, CI 50 ms, KeyGen+Decaps on the peripheral, unencrypted\n");
    /* the study's exchange (study_config); the per-mode table runs pqpan's, in every mode */
    model_print_exchange_line(f, "  ", "study", pqpan_pqke_mode_name(PQPAN_PQKE_MODE_NONE),
                              MODEL_BLE_IDLE_TEXT);
}

/* A reading's heading in the table: what it is and its assumptions. */
static void reading_heading(FILE *f, const void *arg)
{
    const struct notes_arg *a = arg;
    const struct reading_run *r = &a->r->run[a->which];
    struct pqpan_ble_config cfg;
    fprintf(f, "\n== reading: %s\n  %s\n", reading_names[a->which], reading_about[a->which]);
    model_print_assumptions(f, r->env, PQPAN_RADIO_BLE_1M, "  ");
    study_config(&cfg, ll_of_dle[0], r->bits_ifs);
    model_print_setup(f, &cfg, "  ");
    fprintf(f, "  bits accounting, T_IFS: %s\n", bits_ifs_about(r->bits_ifs));
    fprintf(f, "  LE SC: %s\n", reading_lesc[a->which]);
}

/* After a reading's headline figures: the two lines that read them. */
static void headline_after(FILE *f, const void *arg)
{
    const struct notes_arg *a = arg;
    const struct headline *h = &a->r->run[a->which].h;
    fprintf(f, "computation dominates with DLE at ML-KEM-1024: model %s (share %.1f %%), study yes\n",
            h->share_1024_dle < 50.0 ? "yes" : "no", h->share_1024_dle);
    fprintf(f, "per level (512/768/1024): comm share no DLE %.1f/%.1f/%.1f %%, DLE saving "
               "%.1f/%.1f/%.1f %%\n",
            h->share_no_dle_level[0], h->share_no_dle_level[1], h->share_no_dle_level[2],
            h->saving_level[0], h->saving_level[1], h->saving_level[2]);
}

static void modes_intro(FILE *f, const void *arg)
{
    (void)arg;
    modes_print_intro(f);
}

static void builds_intro(FILE *f, const void *arg)
{
    (void)arg;
    modes_builds_print_intro(f);
}

/* The table's end: the sentence that sets the study reading's ratio beside the shipped
 * stack's (when both ran), and where the differences are explained. */
static void table_end(FILE *f, const void *arg)
{
    const struct repro *r = arg;
    const struct headline *st = &r->run[READING_STUDY].h, *sh = &r->run[READING_SHIPPED].h;
    if (r->first <= READING_STUDY && r->last >= READING_SHIPPED) {
        fprintf(f, "\nresult: with the fastest LE SC there is (study reading) PQKE costs %.2f-%.2fx LE SC\n"
                   "  (study: 2.5-8.5x); with the P-256 Zephyr ships (p256-m) it costs %.2f-%.2fx:\n  %s\n",
                st->ratio.lo, st->ratio.hi, sh->ratio.lo, sh->ratio.hi,
                sh->ratio.hi < 1.0 ? "LE SC costs more than the whole ML-KEM exchange"
                                   : "the ratio shrinks with the stack's slower P-256");
    }
    fprintf(f, "\nwhy the model differs from the study: docs/MODEL.md \"Reproducing the study\"\n");
}

/* The JSON's members before its lists: the headline's side and each reading's
 * assumptions. */
static void json_members(FILE *f, const void *arg)
{
    const struct repro *r = arg;
    struct pqpan_ble_config cfg;
    int k;
    fprintf(f, "  \"headline_side\": \"peripheral\",\n  \"readings\": [\n");
    for (k = r->first; k <= r->last; k++) {
        fprintf(f, "    {\n      \"reading\": \"%s\",\n", reading_names[k]);
        model_print_assumptions_json(f, r->run[k].env, PQPAN_RADIO_BLE_1M, "      ");
        study_config(&cfg, ll_of_dle[0], r->run[k].bits_ifs);
        model_print_setup_json(f, &cfg, "      ");
        fprintf(f, "      \"bits_ifs\": \"%s\"\n    }%s\n",
                pqpan_ble_bits_ifs_name(r->run[k].bits_ifs), k < r->last ? "," : "");
    }
    fprintf(f, "  ],\n");
}

/* rec's rows from data[0..n), each size octets, of field table fields[0..nf). */
static int emit_all(struct run_ctx *x, enum pqpan_run_record rec,
                    const struct pqpan_run_field *fields, size_t nf, const void *data, size_t n,
                    size_t size)
{
    size_t i;
    int rc = PQPAN_OK;
    for (i = 0; i < n && rc == PQPAN_OK; i++) {
        rc = run_record(x, rec, PQPAN_RUN_LINK_BLE, fields, nf,
                        (const unsigned char *)data + i * size);
    }
    return rc;
}

static int emit_matrix(struct run_ctx *x, const struct reading_run *r)
{
    struct pqpan_run_row row;
    int i, s, rc = PQPAN_OK;
    for (i = 0; i < N_CONFIGS && rc == PQPAN_OK; i++) {
        for (s = 0; s < MODEL_SIDES && rc == PQPAN_OK; s++) {
            memset(&row, 0, sizeof row);
            row.record = PQPAN_RUN_RECORD_MATRIX;
            row.link = PQPAN_RUN_LINK_BLE;
            row.groups = repro_groups;
            row.fields = pqpan_run_exchange_fields(PQPAN_RUN_LINK_BLE, &row.n_fields);
            row.exchange = &r->rows[i][s];
            rc = run_emit_row(x, &row, &r->rows[i][s]);
        }
    }
    return rc;
}

/* One reading's rows, with the notes the table prints between them. */
static int emit_reading(struct run_ctx *x, const struct repro *r, int which)
{
    const struct reading_run *w = &r->run[which];
    struct notes_arg a;
    int rc;
    a.r = r;
    a.which = which;
    rc = run_render(x, PQPAN_RUN_RECORD_NOTE, reading_heading, &a);
    rc = rc == PQPAN_OK ? emit_matrix(x, w) : rc;
    rc = rc == PQPAN_OK ? emit_all(x, PQPAN_RUN_RECORD_HEADLINE, headline_fields,
                                   N_HEADLINE_FIELDS, w->lines, N_LINES, sizeof w->lines[0])
                        : rc;
    rc = rc == PQPAN_OK ? run_render(x, PQPAN_RUN_RECORD_NOTE, headline_after, &a) : rc;
    rc = rc == PQPAN_OK ? run_render(x, PQPAN_RUN_RECORD_NOTE, modes_intro, NULL) : rc;
    rc = rc == PQPAN_OK ? emit_all(x, PQPAN_RUN_RECORD_MODE, mode_fields, N_MODE_FIELDS,
                                   w->mode_rows, w->n_modes, sizeof w->mode_rows[0])
                        : rc;
    rc = rc == PQPAN_OK ? run_render(x, PQPAN_RUN_RECORD_NOTE, builds_intro, NULL) : rc;
    return rc == PQPAN_OK ? emit_all(x, PQPAN_RUN_RECORD_BUILD, build_fields, N_BUILD_FIELDS,
                                     w->build_rows, w->n_builds, sizeof w->build_rows[0])
                          : rc;
}

static int emit_rows(struct run_ctx *x, const struct repro *r)
{
    int k, rc = run_render(x, PQPAN_RUN_RECORD_NOTE, table_heading, NULL);
    rc = rc == PQPAN_OK ? run_render(x, PQPAN_RUN_RECORD_MEMBERS, json_members, r) : rc;
    for (k = r->first; k <= r->last && rc == PQPAN_OK; k++) {
        rc = emit_reading(x, r, k);
    }
    return rc == PQPAN_OK ? run_render(x, PQPAN_RUN_RECORD_NOTE, table_end, r) : rc;
}

/* ---- --out DIR: data files and gnuplot figures, per reading ---- */

static int write_bars(const char *dir, const struct reading_run *r, const char *name)
{
    char stem[32], dat[40], gp[40], plot[160];
    struct cli_outfile o;
    FILE *f;
    int i;
    snprintf(stem, sizeof stem, "bars_%s", name);
    snprintf(dat, sizeof dat, "%s.dat", stem);
    snprintf(gp, sizeof gp, "%s.gp", stem);
    if (figure_open(&o, CMD, dir, dat) != EXIT_OK) {
        return EXIT_IO;
    }
    f = o.f;
    fprintf(f, "# %s reading: peripheral energy (uJ), bits accounting: label computation "
               "communication\n",
            name);
    for (i = 0; i < N_CONFIGS; i++) {
        const struct pqpan_run_exchange_row *w = &r->rows[i][MODEL_PERIPHERAL];
        fprintf(f, "\"%s %s\" %.3f %.3f\n", w->kem, w->dle ? "DLE" : "noDLE", w->e_comp_uj,
                w->e_comm_uj);
    }
    if (figure_close(&o, CMD) != EXIT_OK) {
        return EXIT_IO;
    }
    if (figure_open(&o, CMD, dir, gp) != EXIT_OK) {
        return EXIT_IO;
    }
    f = o.f;
    fprintf(f, "set style data histograms\nset style histogram rowstacked\n"
               "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset key top left\n"
               "set ylabel 'peripheral energy (uJ)'\nset xtics rotate by -30\n"
               "set title 'PQKE energy, computation + communication (bits accounting, %s "
               "reading)'\nset grid ytics\n",
            name);
    snprintf(plot, sizeof plot,
             "plot '%s' using 2:xtic(1) title 'computation', '' using 3 title 'communication'\n",
             dat);
    figure_render(f, stem, plot);
    return figure_close(&o, CMD);
}

static int write_sweep(const char *dir, const struct reading_run *r, const char *name,
                       struct cli_msg *msg)
{
    char stem[32], dat[40], gp[40], plot[400];
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct pqpan_ble_config cfg;
    struct cli_outfile o;
    FILE *f;
    unsigned ll;
    int k, rc = EXIT_OK;
    snprintf(stem, sizeof stem, "ll_sweep_%s", name);
    snprintf(dat, sizeof dat, "%s.dat", stem);
    snprintf(gp, sizeof gp, "%s.gp", stem);
    if (figure_open(&o, CMD, dir, dat) != EXIT_OK) {
        return EXIT_IO;
    }
    f = o.f;
    fprintf(f, "# %s reading: ll_octets, peripheral e_total_uj (bits) for ML-KEM-512 768 1024, "
               "study preset\n",
            name);
    for (ll = 27; ll <= 251 && rc == EXIT_OK; ll++) {
        study_config(&cfg, ll, r->bits_ifs);
        fprintf(f, "%u", ll);
        for (k = 0; k < N_LEVELS && rc == EXIT_OK; k++) {
            rc = run_one(rows, r->env, levels[k], &cfg, msg);
            fprintf(f, " %.3f", rows[MODEL_PERIPHERAL].e_total_uj);
        }
        fputc('\n', f);
    }
    if (figure_close(&o, CMD) != EXIT_OK || rc != EXIT_OK) {
        return rc != EXIT_OK ? rc : EXIT_IO;
    }
    if (figure_open(&o, CMD, dir, gp) != EXIT_OK) {
        return EXIT_IO;
    }
    f = o.f;
    fprintf(f, "set xlabel 'LL payload octets'\nset ylabel 'peripheral energy (uJ)'\n"
               "set title 'PQKE energy vs LL payload size (study preset, bits accounting, %s "
               "reading)'\nset grid\nset key top right\nset xrange [27:251]\n",
            name);
    snprintf(plot, sizeof plot,
             "plot '%s' using 1:2 with lines lw 2 title 'ML-KEM-512', \\\n"
             "       '' using 1:3 with lines lw 2 title 'ML-KEM-768', \\\n"
             "       '' using 1:4 with lines lw 2 title 'ML-KEM-1024'\n",
             dat);
    figure_render(f, stem, plot);
    return figure_close(&o, CMD);
}

static int write_reading_figures(const char *dir, const struct reading_run *r, const char *name,
                                 struct cli_msg *msg)
{
    char gp[64];
    int rc = write_bars(dir, r, name);
    if (rc == EXIT_OK) {
        rc = write_sweep(dir, r, name, msg);
    }
    snprintf(gp, sizeof gp, "bars_%s.gp", name);
    if (rc == EXIT_OK) {
        rc = figure_gnuplot(CMD, dir, gp);
    }
    snprintf(gp, sizeof gp, "ll_sweep_%s.gp", name);
    if (rc == EXIT_OK) {
        rc = figure_gnuplot(CMD, dir, gp);
    }
    return rc;
}

/* --out's CSV files: the matrix (as --format csv), the headline, the per-mode and the
 * builds' tables, each line of its record's field table. */
static void csv_matrix(FILE *f, const struct repro *r)
{
    size_t nf;
    const struct pqpan_run_field *fields = pqpan_run_exchange_fields(PQPAN_RUN_LINK_BLE, &nf);
    int k, i, s;
    model_fields_csv_header(f, fields, nf, repro_groups);
    for (k = r->first; k <= r->last; k++) {
        for (i = 0; i < N_CONFIGS; i++) {
            for (s = 0; s < MODEL_SIDES; s++) {
                model_fields_csv_row(f, fields, nf, repro_groups, &r->run[k].rows[i][s]);
            }
        }
    }
}

/* The CSV lines of one record kind over the readings: n[k] items of size octets at
 * data + k * stride (reading k's). */
static void csv_lists(FILE *f, const struct repro *r, const struct pqpan_run_field *fields,
                      size_t nf, const void *data, size_t stride, const size_t *n, size_t size)
{
    size_t i;
    int k;
    model_fields_csv_header(f, fields, nf, 0);
    for (k = r->first; k <= r->last; k++) {
        const unsigned char *items = (const unsigned char *)data + (size_t)k * stride;
        for (i = 0; i < n[k]; i++) {
            model_fields_csv_row(f, fields, nf, 0, items + i * size);
        }
    }
}

static int write_csv(const char *dir, const char *name, const struct repro *r, int which)
{
    const size_t stride = sizeof r->run[0];
    size_t n[N_READINGS];
    struct cli_outfile o;
    int k;
    if (figure_open(&o, CMD, dir, name) != EXIT_OK) {
        return EXIT_IO;
    }
    for (k = 0; k < N_READINGS; k++) {
        n[k] = which == 1 ? N_LINES : which == 2 ? r->run[k].n_modes : r->run[k].n_builds;
    }
    if (which == 0) {
        csv_matrix(o.f, r);
    } else if (which == 1) {
        csv_lists(o.f, r, headline_fields, N_HEADLINE_FIELDS, r->run[0].lines, stride, n,
                  sizeof r->run[0].lines[0]);
    } else if (which == 2) {
        csv_lists(o.f, r, mode_fields, N_MODE_FIELDS, r->run[0].mode_rows, stride, n,
                  sizeof r->run[0].mode_rows[0]);
    } else {
        csv_lists(o.f, r, build_fields, N_BUILD_FIELDS, r->run[0].build_rows, stride, n,
                  sizeof r->run[0].build_rows[0]);
    }
    return figure_close(&o, CMD);
}

/* The files, their messages printed by figure.c (outfile.c); the run's error names --out. */
static int write_out(struct run_ctx *x, const char *dir, struct repro *r)
{
    static const char *const csv[] = {"reproduce.csv", "headline.csv", "modes.csv", "builds.csv"};
    int i, k, rc = EXIT_OK;
    for (i = 0; i < 4 && rc == EXIT_OK; i++) {
        rc = write_csv(dir, csv[i], r, i);
    }
    for (k = r->first; k <= r->last && rc == EXIT_OK; k++) {
        rc = write_reading_figures(dir, &r->run[k], reading_names[k], &r->msg);
    }
    if (rc == EXIT_OK) {
        return PQPAN_OK;
    }
    return run_fail(x, rc, "--out",
                    rc == EXIT_IO            ? "cannot write --out's files"
                    : rc == EXIT_FAILURE_RUN ? "gnuplot failed on --out's figures"
                                             : r->msg.text);
}

/* ---- options and the run ---- */

/* --reading words: a reading, both (defaults and study) or all (field: the struct
 * repro_opts). */
static const char *const reading_words[] = {"defaults", "study", "shipped", "both", "all", NULL};

static int set_reading(void *field, const char *v)
{
    static const int first[] = {READING_DEFAULTS, READING_STUDY, READING_SHIPPED,
                                READING_DEFAULTS, READING_DEFAULTS};
    static const int last[] = {READING_DEFAULTS, READING_STUDY, READING_SHIPPED, READING_STUDY,
                               READING_SHIPPED};
    struct repro_opts *o = field;
    int k = cli_word_index(reading_words, v);
    o->first = first[k];
    o->last = last[k];
    return 0;
}

_Static_assert(READING_DEFAULTS == 0 && READING_STUDY == 1 && READING_SHIPPED == 2,
               "--reading's words are the readings");

static const struct cli_opt reproduce_rows[] = {
    {.name = "--reading", .kind = CLI_OPT_WORD, .words = reading_words,
     .def = PQPAN_DEFAULT_READING,
     .set = set_reading, .help = "which readings to run"},
    {.name = "--out", .kind = CLI_OPT_TEXT, .meta = "DIR", .store = CLI_STORE_STR,
     .def = PQPAN_DEFAULT_OUT,
     .offset = offsetof(struct repro_opts, out_dir),
     .help = "also write DIR/reproduce.csv, DIR/headline.csv, DIR/modes.csv (the per-mode "
             "table) and, per reading R, gnuplot figures (.dat, .gp, .svg, .png): stacked "
             "computation / communication bars per level x DLE (bars_R.*) and energy vs LL "
             "payload size 27..251 per level (ll_sweep_R.*)"},
};

static void repro_opts_init(void *p)
{
    struct repro_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    cli_opt_table_defaults(&reproduce_opts_table, o);
}

const struct cli_opt_table reproduce_opts_table =
    CLI_OPT_TABLE("reproduce", NULL, reproduce_rows, struct repro_opts, repro_opts_init);

/* reproduce's tables in the order the CLI tries them. */
static const struct cli_opt_table *const repro_tables[] = {
    &reproduce_opts_table, &model_energy_table, &model_ramp_table,
    &model_crypto_table,   &model_gamma_table,  &cli_format_table};
#define N_REPRO_TABLES (sizeof repro_tables / sizeof repro_tables[0])

const struct cli_opt *reproduce_opt_row(const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_REPRO_TABLES && found == NULL; k++) {
        found = cli_opt_find(repro_tables[k], name);
    }
    return found;
}

static void *base_of(struct repro_opts *o, const struct cli_opt_table *t)
{
    return t == &reproduce_opts_table ? (void *)o
           : t == &cli_format_table   ? (void *)&o->m.format
                                      : (void *)&o->m;
}

static int parse(struct run_ctx *x, struct repro_opts *o, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    size_t i, k;
    int rc = PQPAN_OK;
    repro_opts_init(o);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        const struct cli_opt *row = NULL;
        if (opts[i].name == NULL) {
            return run_fail(x, EXIT_USAGE, NULL, "an option without a name");
        }
        for (k = 0; k < N_REPRO_TABLES && row == NULL; k++) {
            row = cli_opt_find(repro_tables[k], opts[i].name);
        }
        rc = row != NULL ? run_set(x, row, base_of(o, repro_tables[k - 1]), &opts[i])
                         : run_unknown(x, opts[i].name, repro_tables, N_REPRO_TABLES);
    }
    return rc;
}

/* Loads a reading's energy inputs and runs its matrix: the study reading takes the
 * options with the radio-only table, one T_IFS per PDU sent and its LE SC choices
 * (reading_lesc); the shipped reading the options with Zephyr's P-256 and key pair. */
static int run_reading(struct reading_run *r, const struct model_opts *given, int which,
                       struct cli_msg *msg)
{
    struct model_opts o = *given;
    int rc;
    r->bits_ifs = PQPAN_BLE_BITS_IFS_EACH;
    r->enc_start_out = which == READING_STUDY;
    if (which == READING_STUDY) {
        o.table = PQPAN_CURRENTS_RADIO_ONLY;
        r->bits_ifs = PQPAN_BLE_BITS_IFS_PER_PDU_SENT;
        o.p256_impl = "emill-asm";
        o.gamma_comp[PQPAN_OP_ECDH_KEYGEN] = 1.0;
        o.gamma_comp[PQPAN_OP_ECDH_SHARED] = 1.0;
    }
    if (which != READING_DEFAULTS) {
        o.lesc_keypair = MODEL_LESC_KEYPAIR_REUSED;
    }
    if (which == READING_SHIPPED) {
        o.p256_impl = "p256-m";
    }
    rc = model_env_new_msg(&r->env, &o, msg);
    if (rc == EXIT_OK) {
        rc = run_matrix(r, reading_names[which], msg);
    }
    if (rc == EXIT_OK) {
        compute_headline(&r->h, (const struct pqpan_run_exchange_row (*)[MODEL_SIDES])r->rows, r->enc_start_out);
        fill_lines(r->lines, &r->h, reading_names[which]);
        rc = modes_run(&r->modes, r->env, r->bits_ifs, levels, ll_of_dle,
                       (const struct pqpan_run_exchange_row (*)[MODEL_SIDES])r->rows[N_LEVELS * N_DLE],
                       msg);
    }
    if (rc == EXIT_OK) {
        r->n_modes = modes_rows(r->mode_rows, &r->modes, levels, reading_names[which]);
        rc = modes_builds_run(&r->builds, r->env, r->bits_ifs, levels, ll_of_dle, msg);
    }
    if (rc == EXIT_OK) {
        r->n_builds = modes_builds_rows(r->build_rows, &r->builds, levels, reading_names[which]);
    }
    return rc;
}

/* --out: created before any work, so that a bad one fails at once. */
static int out_dir(struct run_ctx *x, const char *dir)
{
    struct cli_msg msg;
    int rc = figure_dir(dir, &msg);
    if (rc == EXIT_OK) {
        return PQPAN_OK;
    }
    if (rc == EXIT_USAGE) {
        return run_fail(x, rc, "--out", msg.text);
    }
    fprintf(stderr, "pqpan %s: %s\n", CMD, msg.text); /* as outfile.c says a file's error */
    return run_fail(x, rc, "--out", "cannot create --out");
}

static int run_readings(struct run_ctx *x, struct repro *r, const struct repro_opts *o)
{
    int k, rc = EXIT_OK;
    for (k = r->first; k <= r->last && rc == EXIT_OK; k++) {
        rc = run_reading(&r->run[k], &o->m, k, &r->msg);
    }
    return rc == EXIT_OK ? PQPAN_OK : run_fail(x, rc, NULL, r->msg.text);
}

int run_reproduce(struct run_ctx *x, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct repro_opts o;
    struct repro *r;
    int k, rc = parse(x, &o, opts, n_opts);
    if (rc == PQPAN_OK && o.out_dir != NULL) {
        rc = out_dir(x, o.out_dir);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    r = calloc(1, sizeof *r);
    if (r == NULL) {
        return run_fail(x, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    r->first = o.first;
    r->last = o.last;
    rc = run_readings(x, r, &o);
    if (rc == PQPAN_OK) {
        rc = emit_rows(x, r);
    }
    if (rc == PQPAN_OK && o.out_dir != NULL) {
        rc = write_out(x, o.out_dir, r);
    }
    for (k = 0; k < N_READINGS; k++) {
        free(r->run[k].env);
    }
    free(r);
    return rc;
}
