/* pqpan sweep: `estimate` over every configuration of a grid of option values, one row
 * per configuration, streamed as CSV or JSON Lines (see sweep.h for the parts). */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands.h"
#include "sweep.h"
#include "opts_registry.h"

#define JOBS_MAX 256u
#define SHARDS_MAX 1000000ull
#define RUNS_MAX 100000ull

/* estimate's tables on each link, for the options that take `all`. */
static const struct cli_opt_table *const all_ble[] = {
    &estimate_protocol_table, &link_opts_table,  &link_pqke_table,    &link_setup_table,
    &model_energy_table,      &model_ramp_table, &model_crypto_table};
static const struct cli_opt_table *const all_lowpan[] = {
    &lowpan_opts_table, &lowpan_exchange_table, &link_pqke_table};

void cli_sweep_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan sweep [estimate options, each a LIST] [--link 802154] [--per LIST --runs R\n"
            "                   --seed S] [--format csv|jsonl] [--out FILE] [--jobs N]\n"
            "                   [--shard K/N] [--valid-only] [--force]\n"
            "       pqpan sweep merge [--valid-only] [--out FILE] FILE...\n\n"
            "Runs `pqpan estimate` for every combination of the values given and writes one row\n"
            "per configuration. Every option of estimate (`pqpan help estimate`: link, protocol and\n"
            "energy options, BLE or --link 802154) takes a LIST: comma-separated items, each a\n"
            "value, a range A..B:STEP (A, A+STEP, ... up to B, B included when a step lands on it;\n"
            "STEP > 0; integers or decimals; a PREFIX= before A is kept, as in --gamma-comp\n"
            "kem_keygen=1.1..1.5:0.1; only for a number, and whole numbers for an integer), or\n"
            "`all` for an option with a fixed set of values (the words `pqpan help estimate`\n"
            "lists; --profile all = the built-in profiles).\n");
    cli_opt_names_with_words(out, all_ble, sizeof all_ble / sizeof all_ble[0],
                             "Options that take all, BLE: ", ";");
    cli_opt_names_with_words(out, all_lowpan, sizeof all_lowpan / sizeof all_lowpan[0],
                             "with --link 802154: ", ".");
    fprintf(out,
            "Example: --kem all --phy 1M,2M --ll-octets 27..251:8 --ci-ms 7.5..100:7.5.\n"
            "A flag (--encrypted) takes no list; --link takes one value. Every value is checked\n"
            "(and every profile and calibration file loaded) before any row is computed.\n\n"
            "Rows: configuration 0, 1, ... in nested-loop order: the energy options (--profile,\n"
            "--currents, --tx-dbm, --ramp, --gamma-*, --calibration, --crypto-impl) outermost, then\n"
            "the others, each group in the order given; the last option varies fastest. Columns:\n"
            "config, configs (their number), status (ok, or why the configuration is invalid: the\n"
            "message estimate prints, e.g. ATT_MTU too small for --transfer study, a TX level or\n"
            "PHY the profile has no current for), in_<option> for every option given (its value),\n"
            "then estimate's CSV fields: the configuration's (kem, phy, att_mtu, ...) and every\n"
            "energy, time and count field once per side, named <side>_<field> (peripheral_,\n"
            "central_, total_; 802.15.4: initiator_, responder_, total_). An invalid row keeps\n"
            "its inputs and leaves the results empty (JSON: null).\n\n");
    cli_opt_table_help(out, &sweep_opts_table);
    fprintf(out,
            "\n"
            "merge: joins the files of `--shard K/N` runs (any order, CSV or JSON Lines) into the\n"
            "file the whole sweep writes: their headers must agree, and together they must hold\n"
            "every configuration 0 .. configs-1 once (exit 3 otherwise). --valid-only then leaves\n"
            "out the invalid rows, as the whole sweep with --valid-only would. merge options:\n");
    cli_opt_rows_help(out, &sweep_merge_table);
    fprintf(out,
            "\n"
            "A progress line (configurations done/total, rate, ETA) goes to stderr when stderr is\n"
            "a terminal. Exit codes: 0 ok, 1 a failure while running (out of memory), 2 usage (bad\n"
            "option, value, list or range; more than 10^9 configurations without --force), 3 bad\n"
            "data file (profile, calibration) or bad shard files (merge), 4 output not writable,\n"
            "130 interrupted by SIGINT: the rows done so far (complete rows, in order, up to the\n"
            "first configuration not done) are in the output, renamed into place.\n");
}

/* ---- options ---- */

static struct sweep_opt *add_opt(struct sweep_grid *g, const char *name, enum sweep_kind kind)
{
    struct sweep_opt *v = realloc(g->opts, (g->n + 1) * sizeof *v);
    struct sweep_opt *o;
    if (v == NULL) {
        return NULL;
    }
    g->opts = v;
    o = &g->opts[g->n++];
    memset(o, 0, sizeof *o);
    o->name = name;
    o->kind = kind;
    o->count = 1;
    return o;
}

/* "in_" and the option's name with '-' as '_'; "_2", "_3" ... for a repeated option. */
static void column_name(struct sweep_grid *g, struct sweep_opt *o)
{
    size_t i, n = 1, k;
    for (i = 0; i + 1 < g->n; i++) {
        n += strcmp(g->opts[i].name, o->name) == 0;
    }
    snprintf(o->column, sizeof o->column, "in_%s", o->name + 2);
    for (k = 3; o->column[k] != '\0'; k++) {
        o->column[k] = o->column[k] == '-' ? '_' : o->column[k];
    }
    if (n > 1) {
        k = strlen(o->column);
        snprintf(o->column + k, sizeof o->column - k, "_%zu", n);
    }
}

/* Tries opt (with value v, or none) on fresh options. 1 a flag, 2 an option with a value,
 * 0 not an option of estimate, -1 a usage error (printed). *energy: an energy option. */
static int probe(int lowpan, const char *opt, const char *v, int *energy)
{
    struct estimate_opts o;
    char *argv[3];
    int i = 1, rc;
    argv[0] = (char *)SWEEP_CMD;
    argv[1] = (char *)opt;
    argv[2] = (char *)v;
    estimate_opts_init(&o, lowpan);
    rc = model_opts_parse(&o.m, SWEEP_CMD, v != NULL ? 3 : 2, argv, &i);
    *energy = rc != 0;
    if (rc == 0) {
        rc = estimate_link_parse(&o, SWEEP_CMD, v != NULL ? 3 : 2, argv, &i);
    }
    return rc <= 0 ? rc : i;
}

/* Every value of o through its parser. */
static int check_values(const struct sweep_cfg *cfg, const struct sweep_opt *o)
{
    char buf[SWEEP_VALUE_MAX];
    uint64_t k;
    for (k = 0; k < o->count; k++) {
        const char *v = sweep_value(o, k, buf);
        double per;
        int energy;
        if (o->kind == SWEEP_PER && cli_parse_double(v, 0.0, 1.0, &per) != 0) {
            return cli_usage_error(SWEEP_CMD, "--per %s: want a packet error rate in 0..1", v);
        }
        if (o->kind != SWEEP_PER && probe(cfg->lowpan, o->name, v, &energy) != 2) {
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

static int out_of_memory(void)
{
    fprintf(stderr, "pqpan %s: out of memory\n", SWEEP_CMD);
    return EXIT_FAILURE_RUN;
}

/* An option of estimate at argv[*i] with its list. */
static int estimate_option(struct sweep_cfg *cfg, int argc, char **argv, int *i)
{
    const char *t = argv[*i];
    const char *v = *i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0 ? argv[*i + 1] : NULL;
    const char *pv = NULL;
    struct estimate_opts eo;
    struct sweep_opt *o;
    int energy, rc;
    if (strncmp(t, "--", 2) != 0) {
        return cli_usage_error(SWEEP_CMD, "unexpected argument '%s'", t);
    }
    if (strcmp(t, "--link") == 0 && v != NULL && !cli_word_equal(v, "ble") &&
        strcmp(v, "802154") != 0) {
        return cli_usage_error(SWEEP_CMD, "--link %s: one link per sweep (ble or 802154; run one "
                                          "sweep per link)", v);
    }
    if (v != NULL && (*v == '\0' || *v == ',' || strstr(v, ",,") != NULL ||
                      v[strlen(v) - 1] == ',')) {
        return cli_usage_error(SWEEP_CMD, "%s '%s': %s", t, v,
                               *v == '\0' ? "empty list" : "empty item in the list");
    }
    estimate_opts_init(&eo, cfg->lowpan);
    if (v != NULL && (pv = sweep_probe_value(v, t, &eo, &cfg->grid)) == NULL) {
        return out_of_memory();
    }
    rc = probe(cfg->lowpan, t, pv, &energy);
    if (rc == 0) {
        struct cli_suggest s;
        return cli_usage_error(SWEEP_CMD,
                               "unknown option '%s' (not an option of pqpan estimate%s)%s", t,
                               cfg->lowpan ? " --link 802154" : "",
                               cli_option_suggestion(&s, SWEEP_CMD,
                                                     cfg->lowpan ? "802154" : "ble", t));
    }
    if (rc < 0) {
        if (pv != NULL && cli_word_equal(pv, "all")) {
            fprintf(stderr, "pqpan %s: %s all: %s has no fixed set of values; give a list or a "
                            "range A..B:STEP\n", SWEEP_CMD, t, t);
        }
        return EXIT_USAGE;
    }
    if (rc == 1 && v != NULL) {
        return cli_usage_error(SWEEP_CMD, "%s is a flag: it takes no value, so no list ('%s')", t, v);
    }
    o = add_opt(&cfg->grid, t, energy ? SWEEP_ENERGY : SWEEP_LINK);
    if (o == NULL) {
        return out_of_memory();
    }
    column_name(&cfg->grid, o);
    o->flag = rc == 1;
    if (o->flag) {
        return EXIT_OK;
    }
    rc = sweep_items_parse(o, v, &eo, &cfg->grid);
    *i += 1;
    return rc != EXIT_OK ? rc : check_values(cfg, o);
}

/* --per LIST: field is the struct sweep_cfg. */
static int per_option(void *field, const char *v)
{
    struct sweep_cfg *cfg = field;
    struct estimate_opts eo;
    struct sweep_opt *o = add_opt(&cfg->grid, "--per", SWEEP_PER);
    int rc;
    if (o == NULL) {
        out_of_memory();
        return CLI_OPT_REPORTED;
    }
    snprintf(o->column, sizeof o->column, "sim_per");
    estimate_opts_init(&eo, cfg->lowpan);
    rc = sweep_items_parse(o, v, &eo, &cfg->grid);
    cfg->per = 1;
    if (rc == EXIT_OK) {
        rc = check_values(cfg, o);
    }
    return rc == EXIT_OK ? 0 : CLI_OPT_REPORTED;
}

/* --shard K/N: field is the struct sweep_cfg. */
static int shard_option(void *field, const char *v)
{
    struct sweep_cfg *cfg = field;
    const char *slash = strchr(v, '/');
    char k[24];
    unsigned long long kk, nn;
    if (slash == NULL || (size_t)(slash - v) >= sizeof k) {
        return -1;
    }
    memcpy(k, v, (size_t)(slash - v));
    k[slash - v] = '\0';
    if (cli_parse_uint(slash + 1, 1, SHARDS_MAX, &nn) != 0 || cli_parse_uint(k, 1, nn, &kk) != 0) {
        return -1;
    }
    cfg->shard_k = kk;
    cfg->shard_n = nn;
    return 0;
}

static const char *const format_words[] = {"csv", "jsonl", NULL};

#define SWEEP(m) offsetof(struct sweep_cfg, m)

static const struct cli_opt sweep_rows[] = {
    {.name = "--format", .kind = CLI_OPT_WORD, .words = format_words,
     .def = PQPAN_DEFAULT_SWEEP_FORMAT,
     .store = CLI_STORE_INT, .offset = SWEEP(format),
     .help = "CSV with a header line, or JSON Lines (one object per configuration, the CSV's "
             "columns as members)"},
    {.name = "--out", .kind = CLI_OPT_TEXT, .meta = "FILE", .def = PQPAN_DEFAULT_OUT,
     .store = CLI_STORE_STR, .offset = SWEEP(out),
     .help = "write FILE (through FILE.tmp.PID, renamed at the end)"},
    {.name = "--jobs", .kind = CLI_OPT_UINT, .meta = "N", .min = 1, .max = JOBS_MAX,
     .def = PQPAN_DEFAULT_JOBS,
     .store = CLI_STORE_U32, .offset = SWEEP(jobs),
     .help = "worker threads; the output is the same bytes for any N"},
    {.name = "--shard", .kind = CLI_OPT_TEXT, .meta = "K/N", .set = shard_option,
     .def = PQPAN_DEFAULT_SHARD,
     .allowed = "K/N with 1 <= K <= N <= 1000000",
     .help = "only the K-th of N contiguous slices of the configurations; `sweep merge` joins "
             "the shards' files"},
    {.name = "--valid-only", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT,
     .offset = SWEEP(valid_only), .help = "leave out the rows whose status is not ok"},
    {.name = "--force", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT, .offset = SWEEP(force),
     .help = "allow more than 10^9 configurations"},
    {.name = "--per", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = per_option,
     .allowed = "a LIST of packet error rates in 0..1",
     .help = "per configuration, a Monte Carlo of the BLE packet simulator (`pqpan simulate`) "
             "at this packet error rate (0..1, a LIST like the others): --runs R runs, run i of "
             "configuration c with seed S + c x R + i (--seed S), the messages of --protocol "
             "(study: ek and ct; pqpan: the real PQKE). Adds sim_per, sim_runs, sim_seed (of "
             "run 0), sim_failed, sim_failure_rate, sim_<side>_energy_{mean,p50,p90,p99}_uj "
             "(all states: events accounting) and sim_latency_{mean,p50,p90,p99}_ms (nearest "
             "rank, failed runs included). BLE only"},
    {.name = "--runs", .kind = CLI_OPT_UINT, .meta = "R", .min = 1, .max = RUNS_MAX,
     .def = PQPAN_DEFAULT_RUNS,
     .store = CLI_STORE_U32, .offset = SWEEP(runs), .help = "--per: runs per configuration"},
    {.name = "--seed", .kind = CLI_OPT_UINT, .meta = "S", .min = 0, .max = (double)ULLONG_MAX,
     .def = PQPAN_DEFAULT_SEED, .store = CLI_STORE_ULL, .offset = SWEEP(seed),
     .help = "--per: the seed of run 0 of configuration 0"},
};

static void sweep_cfg_init(void *p)
{
    struct sweep_cfg *cfg = p;
    memset(cfg, 0, sizeof *cfg);
    cli_opt_table_defaults(&sweep_opts_table, cfg);
}

/* --per's values are kept in the grid. */
static void sweep_cfg_fini(void *p)
{
    struct sweep_cfg *cfg = p;
    sweep_grid_free(&cfg->grid);
}

const struct cli_opt_table sweep_opts_table = CLI_OPT_TABLE_FINI(
    "sweep", "options", sweep_rows, struct sweep_cfg, sweep_cfg_init, sweep_cfg_fini);

static int parse_args(struct sweep_cfg *cfg, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        int taken = cli_opt_take(&sweep_opts_table, cfg, SWEEP_CMD, argc, argv, &i);
        rc = taken < 0 ? EXIT_USAGE : taken == 0 ? estimate_option(cfg, argc, argv, &i) : EXIT_OK;
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (cfg->per && cfg->lowpan) {
        return cli_usage_error(SWEEP_CMD, "--per is for the BLE link (the 802.15.4 simulator has no "
                                          "packet error rate: pqpan simulate --link 802154)");
    }
    if ((cli_word_index((const char *const *)argv, "--runs") >= 0 ||
         cli_word_index((const char *const *)argv, "--seed") >= 0) &&
        !cfg->per) {
        return cli_usage_error(SWEEP_CMD, "--runs and --seed belong to --per");
    }
    return EXIT_OK;
}

/* The configurations of shard K of N: [floor((K-1) T / N), floor(K T / N)). */
static uint64_t shard_edge(uint64_t total, uint64_t k, uint64_t n)
{
    return total / n * k + total % n * k / n;
}

/* Whether some value of option opt in the grid matches. */
static int grid_has(const struct sweep_grid *g, const char *opt, int (*match)(const char *value))
{
    char buf[SWEEP_VALUE_MAX];
    size_t i;
    uint64_t k;
    for (i = 0; i < g->n; i++) {
        const struct sweep_opt *o = &g->opts[i];
        for (k = 0; strcmp(o->name, opt) == 0 && k < o->count; k++) {
            if (match(sweep_value(o, k, buf))) {
                return 1;
            }
        }
    }
    return 0;
}

/* A value of --auth that is one of the modes that sign (ML-DSA). */
static int signs(const char *auth)
{
    return model_is_sig_mode(pqpan_pqke_mode_by_name(auth));
}

/* A value of --kem that is LE SC (its P-256 rows, key pair and named parts' columns). */
static int is_lesc(const char *kem)
{
    return strcasecmp(kem, MODEL_LESC_NAME) == 0;
}

static int any_value(const char *value)
{
    return value != NULL;
}

static int plan(struct sweep_cfg *cfg)
{
    int rc = sweep_grid_finish(&cfg->grid);
    if (rc != EXIT_OK) {
        return rc;
    }
    cfg->signs = grid_has(&cfg->grid, "--auth", signs);
    cfg->lesc = grid_has(&cfg->grid, "--kem", is_lesc);
    cfg->chain = cfg->lowpan && (grid_has(&cfg->grid, "--hops", any_value) ||
                                 grid_has(&cfg->grid, "--forwarding", any_value));
    if (cfg->grid.total > SWEEP_FORCE_ABOVE && !cfg->force) {
        return cli_usage_error(SWEEP_CMD, "%llu configurations: more than 10^9; add --force to "
                                          "run them", (unsigned long long)cfg->grid.total);
    }
    cfg->lo = shard_edge(cfg->grid.total, cfg->shard_k - 1, cfg->shard_n);
    cfg->hi = shard_edge(cfg->grid.total, cfg->shard_k, cfg->shard_n);
    return sweep_check_envs(cfg);
}

/* The output opened, the header and the rows written, the output closed; SIGINT caught
 * from before the output exists until it is closed. */
static int run(struct sweep_cfg *cfg)
{
    struct sweep_output out;
    struct sigaction old;
    pthread_mutex_t env_lock;
    int rc;
    sweep_sigint_catch(&old);
    rc = sweep_output_open(&out, cfg->out);
    if (rc == EXIT_OK) {
        pthread_mutex_init(&env_lock, NULL);
        cfg->env_lock = &env_lock;
        sweep_write_header(out.f, cfg);
        rc = sweep_output_close(&out, sweep_run(out.f, cfg));
        cfg->env_lock = NULL;
        pthread_mutex_destroy(&env_lock);
    }
    sweep_sigint_restore(&old);
    return rc;
}

int cli_sweep_run(int argc, char **argv)
{
    struct sweep_cfg cfg;
    int rc;
    if (argc >= 2 && strcmp(argv[1], "merge") == 0) {
        return sweep_merge_run(argc - 1, argv + 1);
    }
    if (cli_wants_help(argc, argv)) {
        cli_sweep_help(stdout);
        return EXIT_OK;
    }
    sweep_cfg_init(&cfg);
    cfg.lowpan = lowpan_link_requested(argc, argv);
    rc = parse_args(&cfg, argc, argv);
    if (rc == EXIT_OK) {
        rc = plan(&cfg);
    }
    if (rc == EXIT_OK) {
        rc = run(&cfg);
    }
    sweep_grid_free(&cfg.grid);
    return rc;
}
