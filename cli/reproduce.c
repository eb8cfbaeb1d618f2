/* pqpan reproduce: the study's matrix (ML-KEM-512/768/1024 × no DLE / DLE on the `study`
 * transfer preset, plus the LE Secure Connections baseline) and its headline figures
 * beside the ranges the study reports (Liu, Ramachandran, Jurdak, SenSys '26,
 * arXiv 2602.18708; DESIGN.md "What the study found"), in two readings: the sourced
 * defaults, and the study reading, which sets the two accounting choices the study leaves
 * open the way its figures point (docs/MODEL.md "Reproducing the study"). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "figure.h"
#include "reproduce_modes.h"
#include "opts_registry.h"

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
};

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

static void study_config(struct pqpan_ble_config *cfg, unsigned ll, enum pqpan_ble_bits_ifs ifs)
{
    pqpan_ble_config_default(cfg);
    cfg->protocol = PQPAN_BLE_PROTO_STUDY;
    cfg->ll_octets = ll;
    cfg->bits_ifs = ifs;
}

/* model_run, its message printed. */
static int run_one(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                   const char *kem, const struct pqpan_ble_config *cfg)
{
    struct cli_msg msg;
    return cli_msg_report(CMD, model_run(rows, env, kem, cfg, 0, &msg), &msg);
}

static int run_matrix(struct reading_run *r, const char *name)
{
    struct pqpan_ble_config cfg;
    int k, d, s, i, rc;
    for (d = 0; d < N_DLE; d++) {
        study_config(&cfg, ll_of_dle[d], r->bits_ifs);
        for (k = 0; k < N_LEVELS; k++) {
            rc = run_one(r->rows[k * N_DLE + d], r->env, levels[k], &cfg);
            if (rc != EXIT_OK) {
                return rc;
            }
        }
        rc = run_one(r->rows[N_LEVELS * N_DLE + d], r->env, MODEL_LESC_NAME, &cfg);
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

/* One headline line: name, model value, study value, whether the model falls in it. */
struct hl_line {
    const char *key;
    const char *label;
    double lo, hi;
    const char *unit;
    const char *study;
    double study_lo, study_hi;
};

static void fill_lines(struct hl_line out[N_LINES], const struct headline *h)
{
    const struct hl_line l[N_LINES] = {
        {"comm_share_no_dle_pct", "communication share without DLE (LL 27)", h->share_no_dle.lo,
         h->share_no_dle.hi, "%", STUDY_SHARE_NO_DLE, 57.0, 63.0},
        {"dle_saving_pct", "total energy saved by DLE (LL 251 vs 27)", h->dle_saving.lo,
         h->dle_saving.hi, "%", STUDY_DLE_SAVING, 25.0, 34.0},
        {"pqke_lesc_ratio", "PQKE / LE SC energy ratio", h->ratio.lo, h->ratio.hi, "x",
         STUDY_RATIO, 2.5, 8.5},
        {"comm_share_1024_dle_pct", "communication share with DLE, ML-KEM-1024",
         h->share_1024_dle, h->share_1024_dle, "%", STUDY_SHARE_1024_DLE, 32.0, 42.0},
    };
    memcpy(out, l, sizeof l);
}

static const char *verdict(const struct hl_line *l)
{
    if (l->lo >= l->study_lo && l->hi <= l->study_hi) {
        return "inside";
    }
    if (l->hi < l->study_lo || l->lo > l->study_hi) {
        return "outside";
    }
    return "overlaps";
}

static void print_reading_table(const struct reading_run *r, int which)
{
    struct pqpan_ble_config cfg;
    struct hl_line l[N_LINES];
    const struct headline *h = &r->h;
    char title[64];
    int i, s;
    fill_lines(l, h);
    printf("\n== reading: %s\n  %s\n", reading_names[which], reading_about[which]);
    model_print_assumptions(stdout, r->env, PQPAN_RADIO_BLE_1M, "  ");
    study_config(&cfg, ll_of_dle[0], r->bits_ifs);
    model_print_setup(stdout, &cfg, "  ");
    printf("  bits accounting, T_IFS: %s\n", model_bits_ifs_about(r->bits_ifs));
    printf("  LE SC: %s\n", reading_lesc[which]);
    printf("\n%-12s %-4s %-10s %12s %12s %12s %7s %11s %12s\n", "kem", "dle", "side", "e_comp_uj",
           "e_comm_uj", "e_total_uj", "comm_%", "latency_ms", "e_events_uj");
    for (i = 0; i < N_CONFIGS; i++) {
        for (s = 0; s < MODEL_SIDES; s++) {
            const struct pqpan_run_exchange_row *w = &r->rows[i][s];
            printf("%-12s %-4s %-10s %12.3f %12.3f %12.3f %7.1f %11.3f %12.3f\n", w->kem,
                   w->dle ? "yes" : "no", w->side, w->e_comp_uj, w->e_comm_uj, w->e_total_uj,
                   w->comm_share_pct, w->latency_ms, w->e_total_events_uj);
        }
    }
    snprintf(title, sizeof title, "headline (%s, peripheral, bits)", reading_names[which]);
    printf("\n%-44s %-18s %-12s %s\n", title, "model", "study", "verdict");
    for (i = 0; i < N_LINES; i++) {
        char model[32];
        if (l[i].lo == l[i].hi) {
            snprintf(model, sizeof model, "%.1f %s", l[i].lo, l[i].unit);
        } else {
            snprintf(model, sizeof model, "%.1f-%.1f %s", l[i].lo, l[i].hi, l[i].unit);
        }
        printf("%-44s %-18s %-12s %s\n", l[i].label, model, l[i].study, verdict(&l[i]));
    }
    printf("computation dominates with DLE at ML-KEM-1024: model %s (share %.1f %%), study yes\n",
           h->share_1024_dle < 50.0 ? "yes" : "no", h->share_1024_dle);
    printf("per level (512/768/1024): comm share no DLE %.1f/%.1f/%.1f %%, DLE saving "
           "%.1f/%.1f/%.1f %%\n",
           h->share_no_dle_level[0], h->share_no_dle_level[1], h->share_no_dle_level[2],
           h->saving_level[0], h->saving_level[1], h->saving_level[2]);
    modes_print_table(stdout, &r->modes, levels);
    modes_builds_print_table(stdout, &r->builds, levels);
}

/* The sentence that sets the study reading's ratio beside the shipped stack's. */
static void print_result(const struct repro *r)
{
    const struct headline *st = &r->run[READING_STUDY].h, *sh = &r->run[READING_SHIPPED].h;
    printf("\nresult: with the fastest LE SC there is (study reading) PQKE costs %.2f-%.2fx LE SC\n"
           "  (study: 2.5-8.5x); with the P-256 Zephyr ships (p256-m) it costs %.2f-%.2fx:\n  %s\n",
           st->ratio.lo, st->ratio.hi, sh->ratio.lo, sh->ratio.hi,
           sh->ratio.hi < 1.0 ? "LE SC costs more than the whole ML-KEM exchange"
                              : "the ratio shrinks with the stack's slower P-256");
}

static void print_table(const struct repro *r)
{
    int k;
    printf("pqpan reproduce: the SenSys '26 study (arXiv 2602.18708) with the analytic model\n"
           "  study preset: ek as <= 400 B indications (ATT_MTU 403), ct as Write Requests with a\n"
           "  frame-number byte; LE 1M, CI 50 ms, KeyGen+Decaps on the peripheral, unencrypted\n");
    /* the study's exchange (study_config); the per-mode table runs pqpan's, in every mode */
    model_print_exchange_line(stdout, "  ", "study", pqpan_pqke_mode_name(PQPAN_PQKE_MODE_NONE),
                              MODEL_BLE_IDLE_TEXT);
    for (k = r->first; k <= r->last; k++) {
        print_reading_table(&r->run[k], k);
    }
    if (r->first <= READING_STUDY && r->last >= READING_SHIPPED) {
        print_result(r);
    }
    printf("\nwhy the model differs from the study: docs/MODEL.md \"Reproducing the study\"\n");
}

static const unsigned repro_groups =
    GROUP_READING | GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | GROUP_LESC;

static void print_csv(FILE *f, const struct repro *r)
{
    int k, i, s;
    model_print_csv_header(f, repro_groups);
    for (k = r->first; k <= r->last; k++) {
        for (i = 0; i < N_CONFIGS; i++) {
            for (s = 0; s < MODEL_SIDES; s++) {
                model_print_csv_row(f, &r->run[k].rows[i][s], repro_groups);
            }
        }
    }
}

static void print_headline_csv(FILE *f, const struct repro *r)
{
    struct hl_line l[N_LINES];
    int k, i;
    fprintf(f, "reading,figure,side,model_lo,model_hi,study,study_lo,study_hi,verdict\n");
    for (k = r->first; k <= r->last; k++) {
        fill_lines(l, &r->run[k].h);
        for (i = 0; i < N_LINES; i++) {
            fprintf(f, "%s,%s,peripheral,%.3f,%.3f,%s,%.1f,%.1f,%s\n", reading_names[k], l[i].key,
                    l[i].lo, l[i].hi, l[i].study, l[i].study_lo, l[i].study_hi, verdict(&l[i]));
        }
    }
}

static void print_json(const struct repro *r)
{
    struct pqpan_ble_config cfg;
    struct hl_line l[N_LINES];
    int k, i, s;
    printf("{\n  \"headline_side\": \"peripheral\",\n  \"readings\": [\n");
    for (k = r->first; k <= r->last; k++) {
        printf("    {\n      \"reading\": \"%s\",\n", reading_names[k]);
        model_print_assumptions_json(stdout, r->run[k].env, PQPAN_RADIO_BLE_1M, "      ");
        study_config(&cfg, ll_of_dle[0], r->run[k].bits_ifs);
        model_print_setup_json(stdout, &cfg, "      ");
        printf("      \"bits_ifs\": \"%s\"\n    }%s\n", pqpan_ble_bits_ifs_name(r->run[k].bits_ifs),
               k < r->last ? "," : "");
    }
    printf("  ],\n  \"rows\": [\n");
    for (k = r->first; k <= r->last; k++) {
        for (i = 0; i < N_CONFIGS; i++) {
            for (s = 0; s < MODEL_SIDES; s++) {
                int more = k < r->last || i + 1 < N_CONFIGS || s + 1 < MODEL_SIDES;
                model_print_json_row(stdout, &r->run[k].rows[i][s], repro_groups, "    ");
                printf("%s\n", more ? "," : "");
            }
        }
    }
    printf("  ],\n  \"headline\": [\n");
    for (k = r->first; k <= r->last; k++) {
        fill_lines(l, &r->run[k].h);
        for (i = 0; i < N_LINES; i++) {
            printf("    {\"reading\": \"%s\", \"figure\": \"%s\", \"side\": \"peripheral\", "
                   "\"model_lo\": %.3f, \"model_hi\": %.3f, \"study\": \"%s\", \"study_lo\": %.1f, "
                   "\"study_hi\": %.1f, \"verdict\": \"%s\"}%s\n",
                   reading_names[k], l[i].key, l[i].lo, l[i].hi, l[i].study, l[i].study_lo,
                   l[i].study_hi, verdict(&l[i]), k < r->last || i + 1 < N_LINES ? "," : "");
        }
    }
    printf("  ],\n  \"modes\": [\n");
    for (k = r->first; k <= r->last; k++) {
        modes_print_json(stdout, &r->run[k].modes, levels, reading_names[k], k < r->last);
    }
    printf("  ],\n  \"builds\": [\n");
    for (k = r->first; k <= r->last; k++) {
        modes_builds_print_json(stdout, &r->run[k].builds, levels, reading_names[k], k < r->last);
    }
    printf("  ]\n}\n");
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

static int write_sweep(const char *dir, const struct reading_run *r, const char *name)
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
            rc = run_one(rows, r->env, levels[k], &cfg);
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

static int write_reading_figures(const char *dir, const struct reading_run *r, const char *name)
{
    char gp[64];
    int rc = write_bars(dir, r, name);
    if (rc == EXIT_OK) {
        rc = write_sweep(dir, r, name);
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

static int write_out(const char *dir, const struct repro *r)
{
    struct cli_outfile o;
    int k, rc = figure_open(&o, CMD, dir, "reproduce.csv");
    if (rc != EXIT_OK) {
        return rc;
    }
    print_csv(o.f, r);
    rc = figure_close(&o, CMD);
    if (rc != EXIT_OK || figure_open(&o, CMD, dir, "headline.csv") != EXIT_OK) {
        return EXIT_IO;
    }
    print_headline_csv(o.f, r);
    rc = figure_close(&o, CMD);
    if (rc != EXIT_OK || figure_open(&o, CMD, dir, "modes.csv") != EXIT_OK) {
        return EXIT_IO;
    }
    for (k = r->first; k <= r->last; k++) {
        modes_print_csv(o.f, &r->run[k].modes, levels, reading_names[k], k == r->first);
    }
    rc = figure_close(&o, CMD);
    if (rc != EXIT_OK || figure_open(&o, CMD, dir, "builds.csv") != EXIT_OK) {
        return EXIT_IO;
    }
    for (k = r->first; k <= r->last; k++) {
        modes_builds_print_csv(o.f, &r->run[k].builds, levels, reading_names[k], k == r->first);
    }
    rc = figure_close(&o, CMD);
    for (k = r->first; k <= r->last && rc == EXIT_OK; k++) {
        rc = write_reading_figures(dir, &r->run[k], reading_names[k]);
    }
    return rc;
}

/* ---- options and the run ---- */

struct repro_opts {
    struct model_opts m;
    const char *out_dir;
    int first, last;
};

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

static int parse_args(struct repro_opts *o, int argc, char **argv)
{
    int i;
    repro_opts_init(o);
    for (i = 1; i < argc; i++) {
        int rc = cli_opt_take(&reproduce_opts_table, o, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, NULL, argv[i]);
        }
    }
    return EXIT_OK;
}

/* Loads a reading's energy inputs and runs its matrix: the study reading takes the
 * options with the radio-only table, one T_IFS per PDU sent and its LE SC choices
 * (reading_lesc); the shipped reading the options with Zephyr's P-256 and key pair. */
static int run_reading(struct reading_run *r, const struct model_opts *given, int which)
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
    rc = model_env_new(&r->env, &o, CMD);
    if (rc == EXIT_OK) {
        rc = run_matrix(r, reading_names[which]);
    }
    if (rc == EXIT_OK) {
        compute_headline(&r->h, (const struct pqpan_run_exchange_row (*)[MODEL_SIDES])r->rows, r->enc_start_out);
        rc = modes_run(&r->modes, r->env, r->bits_ifs, levels, ll_of_dle,
                       (const struct pqpan_run_exchange_row (*)[MODEL_SIDES])r->rows[N_LEVELS * N_DLE]);
    }
    if (rc == EXIT_OK) {
        rc = modes_builds_run(&r->builds, r->env, r->bits_ifs, levels, ll_of_dle);
    }
    return rc;
}

static void print_out(const struct repro *r, enum cli_format format)
{
    if (format == FORMAT_TABLE) {
        print_table(r);
    } else if (format == FORMAT_CSV) {
        print_csv(stdout, r);
    } else {
        print_json(r);
    }
}

int cli_reproduce_run(int argc, char **argv)
{
    struct repro_opts o;
    struct repro *r;
    int k, rc;

    if (cli_wants_help(argc, argv)) {
        cli_reproduce_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(&o, argc, argv);
    if (rc == EXIT_OK && o.out_dir != NULL) {
        rc = cli_figure_dir(CMD, o.out_dir); /* before any work: a bad --out fails at once */
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    r = calloc(1, sizeof *r);
    if (r == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    r->first = o.first;
    r->last = o.last;
    for (k = r->first; k <= r->last && rc == EXIT_OK; k++) {
        rc = run_reading(&r->run[k], &o.m, k);
    }
    if (rc == EXIT_OK) {
        print_out(r, o.m.format);
        if (o.out_dir != NULL) {
            fflush(stdout);
            rc = write_out(o.out_dir, r);
        }
    }
    for (k = 0; k < N_READINGS; k++) {
        free(r->run[k].env);
    }
    free(r);
    return rc;
}
