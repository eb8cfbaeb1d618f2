/* pqpan sweep: `estimate` over every configuration of a grid of option values, one row
 * per configuration, streamed as CSV or JSON Lines (see sweep.h for the parts). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "sweep.h"

#define JOBS_MAX 256u
#define SHARDS_MAX 1000000ull
#define RUNS_MAX 100000ull

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
            "kem_keygen=1.1..1.5:0.1), or `all` for an option with a fixed set of values (--kem,\n"
            "--phy, --transfer, --keygen-side, --reply, --protocol, --profile = the built-in\n"
            "profiles, --crypto-impl, --currents, --ramp; --csma, --addr, --idle, --backoff).\n"
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
    fprintf(out,
            "options:\n"
            "  --format csv|jsonl     CSV with a header line (default) or JSON Lines (one object per\n"
            "                         configuration, the CSV's columns as members)\n"
            "  --out FILE             write FILE (through FILE.tmp.PID, renamed at the end; default\n"
            "                         stdout)\n"
            "  --jobs N               worker threads, 1..%u (default 1); the output is the same bytes\n"
            "                         for any N\n"
            "  --shard K/N            only the K-th of N contiguous slices of the configurations\n"
            "                         (1 <= K <= N <= %llu); `sweep merge` joins the shards' files\n"
            "  --valid-only           leave out the rows whose status is not ok\n"
            "  --force                allow more than 10^9 configurations\n"
            "  --per LIST             per configuration, a Monte Carlo of the BLE packet simulator\n"
            "                         (`pqpan simulate`) at this packet error rate (0..1, a LIST like\n"
            "                         the others): --runs R runs (1..%llu, default 100), run i of\n"
            "                         configuration c with seed S + c x R + i (--seed S, default 1),\n"
            "                         the messages of --protocol (study: ek and ct; pqpan: the real\n"
            "                         PQKE). Adds sim_per, sim_runs, sim_seed (of run 0), sim_failed,\n"
            "                         sim_failure_rate, sim_<side>_energy_{mean,p50,p90,p99}_uj (all\n"
            "                         states: events accounting) and sim_latency_{mean,p50,p90,p99}_ms\n"
            "                         (nearest rank, failed runs included). BLE only.\n\n"
            "merge: joins the files of `--shard K/N` runs (any order, CSV or JSON Lines) into the\n"
            "file the whole sweep writes: their headers must agree, and together they must hold\n"
            "every configuration 0 .. configs-1 once (exit 3 otherwise). --valid-only then leaves\n"
            "out the invalid rows, as the whole sweep with --valid-only would.\n\n"
            "A progress line (configurations done/total, rate, ETA) goes to stderr when stderr is\n"
            "a terminal. Exit codes: 0 ok, 1 a failure while running (out of memory), 2 usage (bad\n"
            "option, value, list or range; more than 10^9 configurations without --force), 3 bad\n"
            "data file (profile, calibration) or bad shard files (merge), 4 output not writable,\n"
            "130 interrupted by SIGINT: the rows done so far (complete rows, in order, up to the\n"
            "first configuration not done) are in the output, renamed into place.\n",
            JOBS_MAX, SHARDS_MAX, RUNS_MAX);
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
    if (strcmp(t, "--link") == 0 && v != NULL && strcmp(v, "ble") != 0 && strcmp(v, "802154") != 0) {
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
        return cli_usage_error(SWEEP_CMD, "unknown option '%s' (not an option of pqpan estimate%s)",
                               t, cfg->lowpan ? " --link 802154" : "");
    }
    if (rc < 0) {
        if (pv != NULL && strcmp(pv, "all") == 0) {
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

static int per_option(struct sweep_cfg *cfg, const char *v)
{
    struct estimate_opts eo;
    struct sweep_opt *o = add_opt(&cfg->grid, "--per", SWEEP_PER);
    int rc;
    if (o == NULL) {
        return out_of_memory();
    }
    snprintf(o->column, sizeof o->column, "sim_per");
    estimate_opts_init(&eo, cfg->lowpan);
    rc = sweep_items_parse(o, v, &eo, &cfg->grid);
    cfg->per = 1;
    return rc != EXIT_OK ? rc : check_values(cfg, o);
}

static int shard_option(struct sweep_cfg *cfg, const char *v)
{
    const char *slash = strchr(v, '/');
    char k[24];
    unsigned long long kk, nn;
    if (slash == NULL || (size_t)(slash - v) >= sizeof k) {
        return cli_usage_error(SWEEP_CMD, "--shard %s: want K/N", v);
    }
    memcpy(k, v, (size_t)(slash - v));
    k[slash - v] = '\0';
    if (cli_parse_uint(slash + 1, 1, SHARDS_MAX, &nn) != 0 || cli_parse_uint(k, 1, nn, &kk) != 0) {
        return cli_usage_error(SWEEP_CMD, "--shard %s: want K/N with 1 <= K <= N <= %llu", v,
                               SHARDS_MAX);
    }
    cfg->shard_k = kk;
    cfg->shard_n = nn;
    return EXIT_OK;
}

/* The sweep's own options: 1 taken (*rc its result), 0 not one of them. */
static int own_option(struct sweep_cfg *cfg, int argc, char **argv, int *i, int *rc)
{
    static const char *const with_value[] = {"--format", "--out", "--jobs", "--shard",
                                             "--per",    "--runs", "--seed", NULL};
    const char *opt = argv[*i], *v;
    unsigned long long u;
    *rc = EXIT_OK;
    if (strcmp(opt, "--valid-only") == 0) {
        cfg->valid_only = 1;
        return 1;
    }
    if (strcmp(opt, "--force") == 0) {
        cfg->force = 1;
        return 1;
    }
    if (cli_word_index(with_value, opt) < 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        *rc = cli_usage_error(SWEEP_CMD, "%s needs a value", opt);
        return 1;
    }
    v = argv[++*i];
    if (strcmp(opt, "--format") == 0) {
        static const char *const formats[] = {"csv", "jsonl", NULL};
        int k = cli_word_index(formats, v);
        cfg->format = k == 1 ? SWEEP_JSONL : SWEEP_CSV;
        *rc = k < 0 ? cli_usage_error(SWEEP_CMD, "--format %s: want csv or jsonl", v) : EXIT_OK;
    } else if (strcmp(opt, "--out") == 0) {
        cfg->out = v;
    } else if (strcmp(opt, "--jobs") == 0) {
        *rc = cli_parse_uint(v, 1, JOBS_MAX, &u) != 0
                  ? cli_usage_error(SWEEP_CMD, "--jobs %s: want 1..%u", v, JOBS_MAX)
                  : EXIT_OK;
        cfg->jobs = (unsigned)u;
    } else if (strcmp(opt, "--shard") == 0) {
        *rc = shard_option(cfg, v);
    } else if (strcmp(opt, "--per") == 0) {
        *rc = per_option(cfg, v);
    } else if (strcmp(opt, "--runs") == 0) {
        *rc = cli_parse_uint(v, 1, RUNS_MAX, &u) != 0
                  ? cli_usage_error(SWEEP_CMD, "--runs %s: want 1..%llu", v, RUNS_MAX)
                  : EXIT_OK;
        cfg->runs = (unsigned)u;
        cfg->runs_given = 1;
    } else {
        *rc = cli_parse_uint(v, 0, ~0ull, &cfg->seed) != 0
                  ? cli_usage_error(SWEEP_CMD, "--seed %s: want an integer >= 0", v)
                  : EXIT_OK;
        cfg->runs_given = 1;
    }
    return 1;
}

static int parse_args(struct sweep_cfg *cfg, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        if (!own_option(cfg, argc, argv, &i, &rc)) {
            rc = estimate_option(cfg, argc, argv, &i);
        }
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (cfg->per && cfg->lowpan) {
        return cli_usage_error(SWEEP_CMD, "--per is for the BLE link (the 802.15.4 simulator has no "
                                          "packet error rate: pqpan simulate --link 802154)");
    }
    if (cfg->runs_given && !cfg->per) {
        return cli_usage_error(SWEEP_CMD, "--runs and --seed belong to --per");
    }
    return EXIT_OK;
}

/* The configurations of shard K of N: [floor((K-1) T / N), floor(K T / N)). */
static uint64_t shard_edge(uint64_t total, uint64_t k, uint64_t n)
{
    return total / n * k + total % n * k / n;
}

/* Whether a value of --auth is one of the modes that sign (ML-DSA). */
static int grid_signs(const struct sweep_grid *g)
{
    char buf[SWEEP_VALUE_MAX];
    size_t i;
    uint64_t k;
    for (i = 0; i < g->n; i++) {
        const struct sweep_opt *o = &g->opts[i];
        for (k = 0; strcmp(o->name, "--auth") == 0 && k < o->count; k++) {
            if (model_is_sig_mode(pqpan_pqke_mode_by_name(sweep_value(o, k, buf)))) {
                return 1;
            }
        }
    }
    return 0;
}

static int plan(struct sweep_cfg *cfg)
{
    int rc = sweep_grid_finish(&cfg->grid);
    if (rc != EXIT_OK) {
        return rc;
    }
    cfg->signs = grid_signs(&cfg->grid);
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
    memset(&cfg, 0, sizeof cfg);
    cfg.lowpan = lowpan_link_requested(argc, argv);
    cfg.jobs = 1;
    cfg.shard_k = cfg.shard_n = 1;
    cfg.runs = 100;
    cfg.seed = 1;
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
