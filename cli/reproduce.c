/* pqpan reproduce: the study's matrix (ML-KEM-512/768/1024 × no DLE / DLE on the `study`
 * transfer preset, plus the LE Secure Connections baseline) and its headline figures
 * beside the ranges the study reports (Liu, Ramachandran, Jurdak, SenSys '26,
 * arXiv 2602.18708; DESIGN.md "What the study found"). */
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "figure.h"

#define CMD "reproduce"
#define N_LEVELS 3
#define N_DLE 2
#define N_CONFIGS (N_LEVELS * N_DLE + N_DLE) /* PQKE matrix + baseline per DLE setting */

static const char *const levels[N_LEVELS] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
static const unsigned ll_of_dle[N_DLE] = {27, 251};

/* The study's ranges (DESIGN.md). */
#define STUDY_SHARE_NO_DLE "57-63 %"
#define STUDY_DLE_SAVING "25-34 %"
#define STUDY_RATIO "2.5-8.5x"
#define STUDY_SHARE_1024_DLE "about 37 %"

struct repro {
    struct model_row rows[N_CONFIGS][MODEL_SIDES]; /* [level*2+dle], then [6+dle] baseline */
};

struct range {
    double lo, hi;
};

struct headline {
    struct range share_no_dle, dle_saving, ratio;
    double share_1024_dle;
    double share_no_dle_level[N_LEVELS], saving_level[N_LEVELS];
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
            "options:\n"
            "  --out DIR              also write DIR/reproduce.csv, DIR/headline.csv and gnuplot\n"
            "                         figures (.dat, .gp, .svg, .png): stacked computation /\n"
            "                         communication bars per level x DLE (bars.*) and energy vs LL\n"
            "                         payload size 27..251 per level (ll_sweep.*)\n",
            MODEL_LESC_NAME);
    model_opts_help(out);
    fprintf(out,
            "\nOutput: table (default); csv (one line per row and side); json ({\"rows\": [one\n"
            "object per row and side], \"headline\": [...]}), kem = \"%s\" for the baseline.\n"
            "Exit codes: 0 ok, 1 gnuplot failed, 2 usage, 3 bad data file, 4 I/O.\n",
            MODEL_LESC_NAME);
}

static void study_config(struct pqpan_ble_config *cfg, unsigned ll)
{
    pqpan_ble_config_default(cfg);
    cfg->ll_octets = ll;
}

/* model_run, its message printed. */
static int run_one(struct model_row rows[MODEL_SIDES], const struct model_env *env,
                   const char *kem, const struct pqpan_ble_config *cfg)
{
    struct cli_msg msg;
    return cli_msg_report(CMD, model_run(rows, env, kem, cfg, &msg), &msg);
}

static int run_matrix(struct repro *r, const struct model_env *env)
{
    struct pqpan_ble_config cfg;
    int k, d, rc;
    for (d = 0; d < N_DLE; d++) {
        study_config(&cfg, ll_of_dle[d]);
        for (k = 0; k < N_LEVELS; k++) {
            rc = run_one(r->rows[k * N_DLE + d], env, levels[k], &cfg);
            if (rc != EXIT_OK) {
                return rc;
            }
        }
        rc = run_one(r->rows[N_LEVELS * N_DLE + d], env, MODEL_LESC_NAME, &cfg);
        if (rc != EXIT_OK) {
            return rc;
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

static void compute_headline(struct headline *h, const struct repro *r)
{
    int k, d;
    for (k = 0; k < N_LEVELS; k++) {
        const struct model_row *no = &r->rows[k * N_DLE][MODEL_PERIPHERAL];
        const struct model_row *yes = &r->rows[k * N_DLE + 1][MODEL_PERIPHERAL];
        h->share_no_dle_level[k] = no->comm_share_pct;
        h->saving_level[k] = 100.0 * (1.0 - yes->e_total_uj / no->e_total_uj);
        widen(&h->share_no_dle, h->share_no_dle_level[k], k == 0);
        widen(&h->dle_saving, h->saving_level[k], k == 0);
        for (d = 0; d < N_DLE; d++) {
            const struct model_row *base = &r->rows[N_LEVELS * N_DLE + d][MODEL_PERIPHERAL];
            widen(&h->ratio, r->rows[k * N_DLE + d][MODEL_PERIPHERAL].e_total_uj / base->e_total_uj,
                  k == 0 && d == 0);
        }
    }
    h->share_1024_dle = r->rows[(N_LEVELS - 1) * N_DLE + 1][MODEL_PERIPHERAL].comm_share_pct;
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

static int fill_lines(struct hl_line out[4], const struct headline *h)
{
    struct hl_line l[4] = {
        {"comm_share_no_dle_pct", "communication share without DLE (LL 27)", 0, 0, "%",
         STUDY_SHARE_NO_DLE, 57.0, 63.0},
        {"dle_saving_pct", "total energy saved by DLE (LL 251 vs 27)", 0, 0, "%", STUDY_DLE_SAVING,
         25.0, 34.0},
        {"pqke_lesc_ratio", "PQKE / LE SC energy ratio", 0, 0, "x", STUDY_RATIO, 2.5, 8.5},
        {"comm_share_1024_dle_pct", "communication share with DLE, ML-KEM-1024", 0, 0, "%",
         STUDY_SHARE_1024_DLE, 32.0, 42.0},
    };
    l[0].lo = h->share_no_dle.lo;
    l[0].hi = h->share_no_dle.hi;
    l[1].lo = h->dle_saving.lo;
    l[1].hi = h->dle_saving.hi;
    l[2].lo = h->ratio.lo;
    l[2].hi = h->ratio.hi;
    l[3].lo = h->share_1024_dle;
    l[3].hi = h->share_1024_dle;
    memcpy(out, l, sizeof l);
    return 4;
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

static void print_table(const struct repro *r, const struct model_env *env,
                        const struct headline *h)
{
    struct pqpan_ble_config cfg;
    struct hl_line l[4];
    int i, s, n = fill_lines(l, h);
    printf("pqpan reproduce: the SenSys '26 study (arXiv 2602.18708) with the analytic model\n"
           "  study preset: ek as <= 400 B indications (ATT_MTU 403), ct as Write Requests with a\n"
           "  frame-number byte; LE 1M, CI 50 ms, KeyGen+Decaps on the peripheral, unencrypted\n");
    model_print_assumptions(stdout, env, PQPAN_RADIO_BLE_1M, "  ");
    study_config(&cfg, ll_of_dle[0]);
    model_print_setup(stdout, &cfg, "  ");
    printf("\n%-12s %-4s %-10s %12s %12s %12s %7s %11s %12s\n", "kem", "dle", "side", "e_comp_uj",
           "e_comm_uj", "e_total_uj", "comm_%", "latency_ms", "e_events_uj");
    for (i = 0; i < N_CONFIGS; i++) {
        for (s = 0; s < MODEL_SIDES; s++) {
            const struct model_row *w = &r->rows[i][s];
            printf("%-12s %-4s %-10s %12.3f %12.3f %12.3f %7.1f %11.3f %12.3f\n", w->kem,
                   w->dle ? "yes" : "no", w->side, w->e_comp_uj, w->e_comm_uj, w->e_total_uj,
                   w->comm_share_pct, w->latency_ms, w->e_total_events_uj);
        }
    }
    printf("\nheadline (peripheral, bits accounting)       model              study        "
           "verdict\n");
    for (i = 0; i < n; i++) {
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
    printf("why the model differs from the study: docs/MODEL.md \"Reproducing the study\"\n");
}

static const unsigned repro_groups = GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL;

static void print_csv(FILE *f, const struct repro *r)
{
    int i, s;
    model_print_csv_header(f, repro_groups);
    for (i = 0; i < N_CONFIGS; i++) {
        for (s = 0; s < MODEL_SIDES; s++) {
            model_print_csv_row(f, &r->rows[i][s], repro_groups);
        }
    }
}

static void print_headline_csv(FILE *f, const struct headline *h)
{
    struct hl_line l[4];
    int i, n = fill_lines(l, h);
    fprintf(f, "figure,side,model_lo,model_hi,study,study_lo,study_hi,verdict\n");
    for (i = 0; i < n; i++) {
        fprintf(f, "%s,peripheral,%.3f,%.3f,%s,%.1f,%.1f,%s\n", l[i].key, l[i].lo, l[i].hi,
                l[i].study, l[i].study_lo, l[i].study_hi, verdict(&l[i]));
    }
}

static void print_json(const struct repro *r, const struct model_env *env,
                       const struct headline *h)
{
    struct pqpan_ble_config cfg;
    struct hl_line l[4];
    int i, s, n = fill_lines(l, h);
    printf("{\n");
    model_print_assumptions_json(stdout, env, PQPAN_RADIO_BLE_1M, "  ");
    study_config(&cfg, ll_of_dle[0]);
    model_print_setup_json(stdout, &cfg, "  ");
    printf("  \"headline_side\": \"peripheral\",\n  \"rows\": [\n");
    for (i = 0; i < N_CONFIGS; i++) {
        for (s = 0; s < MODEL_SIDES; s++) {
            model_print_json_row(stdout, &r->rows[i][s], repro_groups, "    ");
            printf("%s\n", i + 1 < N_CONFIGS || s + 1 < MODEL_SIDES ? "," : "");
        }
    }
    printf("  ],\n  \"headline\": [\n");
    for (i = 0; i < n; i++) {
        printf("    {\"figure\": \"%s\", \"side\": \"peripheral\", \"model_lo\": %.3f, "
               "\"model_hi\": %.3f, \"study\": \"%s\", \"study_lo\": %.1f, \"study_hi\": %.1f, "
               "\"verdict\": \"%s\"}%s\n",
               l[i].key, l[i].lo, l[i].hi, l[i].study, l[i].study_lo, l[i].study_hi,
               verdict(&l[i]), i + 1 < n ? "," : "");
    }
    printf("  ]\n}\n");
}

/* ---- --out DIR: data files and gnuplot figures ---- */

static int write_bars(const char *dir, const struct repro *r)
{
    FILE *f = figure_open(CMD, dir, "bars.dat");
    int i;
    if (f == NULL) {
        return EXIT_IO;
    }
    fprintf(f, "# peripheral energy (uJ), bits accounting: label computation communication\n");
    for (i = 0; i < N_CONFIGS; i++) {
        const struct model_row *w = &r->rows[i][MODEL_PERIPHERAL];
        fprintf(f, "\"%s %s\" %.3f %.3f\n", w->kem, w->dle ? "DLE" : "noDLE", w->e_comp_uj,
                w->e_comm_uj);
    }
    if (figure_close(CMD, f, "bars.dat") != EXIT_OK) {
        return EXIT_IO;
    }
    f = figure_open(CMD, dir, "bars.gp");
    if (f == NULL) {
        return EXIT_IO;
    }
    fprintf(f, "set style data histograms\nset style histogram rowstacked\n"
               "set style fill solid 0.8 border -1\nset boxwidth 0.7\nset key top left\n"
               "set ylabel 'peripheral energy (uJ)'\nset xtics rotate by -30\n"
               "set title 'PQKE energy, computation + communication (bits accounting)'\n"
               "set grid ytics\n");
    figure_render(f, "bars",
                  "plot 'bars.dat' using 2:xtic(1) title 'computation', '' using 3 title "
                  "'communication'\n");
    return figure_close(CMD, f, "bars.gp");
}

static int write_sweep(const char *dir, const struct model_env *env)
{
    struct model_row rows[MODEL_SIDES];
    struct pqpan_ble_config cfg;
    FILE *f = figure_open(CMD, dir, "ll_sweep.dat");
    unsigned ll;
    int k, rc = EXIT_OK;
    if (f == NULL) {
        return EXIT_IO;
    }
    fprintf(f, "# ll_octets, peripheral e_total_uj (bits) for ML-KEM-512 768 1024, study preset\n");
    for (ll = 27; ll <= 251 && rc == EXIT_OK; ll++) {
        study_config(&cfg, ll);
        fprintf(f, "%u", ll);
        for (k = 0; k < N_LEVELS && rc == EXIT_OK; k++) {
            rc = run_one(rows, env, levels[k], &cfg);
            fprintf(f, " %.3f", rows[MODEL_PERIPHERAL].e_total_uj);
        }
        fputc('\n', f);
    }
    if (figure_close(CMD, f, "ll_sweep.dat") != EXIT_OK || rc != EXIT_OK) {
        return rc != EXIT_OK ? rc : EXIT_IO;
    }
    f = figure_open(CMD, dir, "ll_sweep.gp");
    if (f == NULL) {
        return EXIT_IO;
    }
    fprintf(f, "set xlabel 'LL payload octets'\nset ylabel 'peripheral energy (uJ)'\n"
               "set title 'PQKE energy vs LL payload size (study preset, bits accounting)'\n"
               "set grid\nset key top right\nset xrange [27:251]\n");
    figure_render(f, "ll_sweep",
                  "plot 'll_sweep.dat' using 1:2 with lines lw 2 title 'ML-KEM-512', \\\n"
                  "       '' using 1:3 with lines lw 2 title 'ML-KEM-768', \\\n"
                  "       '' using 1:4 with lines lw 2 title 'ML-KEM-1024'\n");
    return figure_close(CMD, f, "ll_sweep.gp");
}

static int write_out(const char *dir, const struct repro *r, const struct model_env *env,
                     const struct headline *h)
{
    FILE *f;
    int rc;
    rc = figure_dir(CMD, dir);
    if (rc != EXIT_OK) {
        return rc;
    }
    f = figure_open(CMD, dir, "reproduce.csv");
    if (f == NULL) {
        return EXIT_IO;
    }
    print_csv(f, r);
    rc = figure_close(CMD, f, "reproduce.csv");
    f = rc == EXIT_OK ? figure_open(CMD, dir, "headline.csv") : NULL;
    if (f == NULL) {
        return EXIT_IO;
    }
    print_headline_csv(f, h);
    rc = figure_close(CMD, f, "headline.csv");
    if (rc == EXIT_OK) {
        rc = write_bars(dir, r);
    }
    if (rc == EXIT_OK) {
        rc = write_sweep(dir, env);
    }
    if (rc == EXIT_OK) {
        rc = figure_gnuplot(CMD, dir, "bars.gp");
    }
    if (rc == EXIT_OK) {
        rc = figure_gnuplot(CMD, dir, "ll_sweep.gp");
    }
    return rc;
}

static int parse_args(struct model_opts *o, const char **out_dir, int argc, char **argv)
{
    int i;
    model_opts_init(o);
    *out_dir = NULL;
    for (i = 1; i < argc; i++) {
        int rc = model_opts_parse(o, CMD, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 1) {
            continue;
        }
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            *out_dir = argv[++i];
            continue;
        }
        return cli_usage_error(CMD, strcmp(argv[i], "--out") == 0 ? "--out needs a directory"
                                                                  : "unknown option '%s'",
                               argv[i]);
    }
    return EXIT_OK;
}

int cli_reproduce_run(int argc, char **argv)
{
    struct model_opts o;
    struct model_env *env = NULL;
    struct repro *r = NULL;
    struct headline h;
    const char *out_dir;
    int rc;

    if (cli_wants_help(argc, argv)) {
        cli_reproduce_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(&o, &out_dir, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    r = malloc(sizeof *r);
    if (r == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        rc = model_env_new(&env, &o, CMD);
    }
    if (rc == EXIT_OK) {
        rc = run_matrix(r, env);
    }
    if (rc == EXIT_OK) {
        memset(&h, 0, sizeof h);
        compute_headline(&h, r);
        if (o.format == FORMAT_TABLE) {
            print_table(r, env, &h);
        } else if (o.format == FORMAT_CSV) {
            print_csv(stdout, r);
        } else {
            print_json(r, env, &h);
        }
        if (out_dir != NULL) {
            fflush(stdout);
            rc = write_out(out_dir, r, env, &h);
        }
    }
    free(r);
    free(env);
    return rc;
}
