/* One row of `pqpan sweep`: a configuration's option values run through estimate's own
 * parsers on fresh defaults, the estimate (and with --per the Monte Carlo of the packet
 * simulator), written as one CSV line or JSON object with the field table of estimate. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

/* Monte Carlo results of one configuration. */
struct mc {
    unsigned failed;
    unsigned long long seed; /* of run 0; run i has seed + i */
    struct lowpan_stats energy_uj[MODEL_SIDES]; /* events accounting, every state */
    struct lowpan_stats latency_ms;
};

struct sweep_worker {
    const struct sweep_cfg *cfg;
    struct model_env *env; /* loaded for env_key */
    struct pqpan_ble_estimate_cache *memo; /* this worker's (thread's) set-up memo */
    uint64_t env_key;
    int env_loaded;
    char (*bufs)[SWEEP_VALUE_MAX]; /* a range value of each option */
    const char **values;           /* each option's value in this configuration */
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct mc mc;
    struct lowpan_chain_summary chain; /* --hops / --forwarding on 802.15.4 */
    struct pqpan_sim *sim;
    struct ble_sim_apps *apps;
    double *samples; /* (MODEL_SIDES + 1) x runs */
};

struct sweep_worker *sweep_worker_new(const struct sweep_cfg *cfg)
{
    struct sweep_worker *w = calloc(1, sizeof *w);
    size_t n = cfg->grid.n > 0 ? cfg->grid.n : 1;
    if (w == NULL) {
        return NULL;
    }
    w->cfg = cfg;
    w->env = malloc(sizeof *w->env);
    w->memo = malloc(sizeof *w->memo);
    w->bufs = malloc(n * sizeof *w->bufs);
    w->values = malloc(n * sizeof *w->values);
    if (cfg->per) {
        w->sim = malloc(sizeof *w->sim);
        w->apps = malloc(sizeof *w->apps);
        w->samples = malloc((MODEL_SIDES + 1u) * cfg->runs * sizeof *w->samples);
    }
    if (w->env == NULL || w->memo == NULL || w->bufs == NULL || w->values == NULL ||
        (cfg->per && (w->sim == NULL || w->apps == NULL || w->samples == NULL))) {
        sweep_worker_free(w);
        return NULL;
    }
    pqpan_ble_estimate_cache_init(w->memo);
    return w;
}

void sweep_worker_free(struct sweep_worker *w)
{
    if (w == NULL) {
        return;
    }
    free(w->env);
    free(w->memo);
    free(w->bufs);
    free(w->values);
    free(w->sim);
    free(w->apps);
    free(w->samples);
    free(w);
}

/* Parses option o with value v through parse into its options. 1 taken, else the parser's
 * code (its message printed). */
typedef int (*parse_fn)(void *opts, int argc, char **argv, int *i);

static int parse_one(parse_fn parse, void *opts, const struct sweep_opt *o, const char *v)
{
    char *argv[3];
    int i = 1;
    argv[0] = (char *)SWEEP_CMD;
    argv[1] = (char *)o->name;
    argv[2] = (char *)v;
    return parse(opts, o->flag ? 2 : 3, argv, &i);
}

static int parse_energy(void *opts, int argc, char **argv, int *i)
{
    return model_opts_parse(opts, SWEEP_CMD, argc, argv, i);
}

static int parse_link(void *opts, int argc, char **argv, int *i)
{
    return estimate_link_parse(opts, SWEEP_CMD, argc, argv, i);
}

/* The energy options in values[] (command-line order) on fresh defaults. */
static int energy_opts(struct model_opts *m, const struct sweep_grid *g, const char **values)
{
    size_t i;
    model_opts_init(m);
    for (i = 0; i < g->n; i++) {
        if (g->opts[i].kind == SWEEP_ENERGY &&
            parse_one(parse_energy, m, &g->opts[i], values[i]) != 1) {
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* The environment of configuration c (its energy options), loaded when it changes. */
static int ensure_env(struct sweep_worker *w, uint64_t c, struct cli_msg *fatal)
{
    const struct sweep_grid *g = &w->cfg->grid;
    uint64_t key = c / g->env_stride;
    struct model_opts m;
    int rc;
    if (w->env_loaded && w->env_key == key) {
        return EXIT_OK;
    }
    w->env_loaded = 0;
    rc = energy_opts(&m, g, w->values);
    if (rc == EXIT_OK) {
        if (w->cfg->env_lock != NULL) {
            pthread_mutex_lock(w->cfg->env_lock);
        }
        rc = model_env_load(w->env, &m, SWEEP_CMD);
        if (w->cfg->env_lock != NULL) {
            pthread_mutex_unlock(w->cfg->env_lock);
        }
    }
    if (rc != EXIT_OK) {
        return cli_msg_set(fatal, rc, "configuration %llu: its energy options did not load",
                           (unsigned long long)c);
    }
    w->env->memo = w->memo; /* its key holds the device timing: valid across environments */
    w->env_key = key;
    w->env_loaded = 1;
    return EXIT_OK;
}

/* ---- Monte Carlo (--per) ---- */

static int monte_carlo(struct sweep_worker *w, const struct estimate_opts *eo, double per,
                       uint64_t c, struct cli_msg *status)
{
    const struct sweep_cfg *cfg = w->cfg;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct ble_sim_opts so;
    struct ble_sim_keys keys;
    double *lat = w->samples + (size_t)MODEL_SIDES * cfg->runs;
    unsigned run;
    int s, rc = EXIT_OK;
    ble_sim_opts_init(&so);
    so.per = per;
    w->mc.failed = 0;
    w->mc.seed = cfg->seed + (unsigned long long)c * cfg->runs;
    for (run = 0; run < cfg->runs && rc == EXIT_OK; run++) {
        so.seed = w->mc.seed + run;
        rc = ble_sim_run(w->sim, w->apps, &keys, w->env, &eo->l, &so, NULL, NULL, status);
        if (rc == EXIT_OK) {
            rc = ble_sim_rows(rows, w->env, eo->l.kem, w->sim, status);
        }
        for (s = 0; s < MODEL_SIDES && rc == EXIT_OK; s++) {
            w->samples[(size_t)s * cfg->runs + run] = rows[s].e_total_events_uj;
        }
        lat[run] = (double)w->sim->res.latency_ns * 1e-6;
        w->mc.failed += !ble_sim_succeeded(w->sim, &keys);
    }
    for (s = 0; s < MODEL_SIDES && rc == EXIT_OK; s++) {
        lowpan_stats_of(&w->mc.energy_uj[s], w->samples + (size_t)s * cfg->runs, cfg->runs);
    }
    if (rc == EXIT_OK) {
        lowpan_stats_of(&w->mc.latency_ms, lat, cfg->runs);
    }
    return rc;
}

/* ---- one configuration ---- */

/* Runs configuration c into w->rows (and w->mc). EXIT_OK for a valid row; another cli.h
 * code with the reason in *status for an invalid one; fatal codes are flagged in *fatal. */
static int compute(struct sweep_worker *w, uint64_t c, struct cli_msg *status, int *fatal,
                   struct cli_msg *fatal_msg)
{
    const struct sweep_grid *g = &w->cfg->grid;
    struct estimate_opts eo;
    struct pqpan_802154_est_config lc;
    struct pqpan_802154_estimate e;
    double per = 0.0;
    size_t i;
    int rc;
    for (i = 0; i < g->n; i++) {
        w->values[i] = sweep_value(&g->opts[i], sweep_value_index(&g->opts[i], c), w->bufs[i]);
    }
    *fatal = 0;
    rc = ensure_env(w, c, fatal_msg);
    estimate_opts_init(&eo, w->cfg->lowpan);
    for (i = 0; i < g->n && rc == EXIT_OK; i++) {
        const struct sweep_opt *o = &g->opts[i];
        if (o->kind == SWEEP_LINK && parse_one(parse_link, &eo, o, w->values[i]) != 1) {
            rc = cli_msg_set(fatal_msg, EXIT_USAGE, "%s %s did not parse", o->name, w->values[i]);
        }
        if (o->kind == SWEEP_PER && cli_parse_double(w->values[i], 0.0, 1.0, &per) != 0) {
            rc = cli_msg_set(fatal_msg, EXIT_USAGE, "--per %s did not parse", w->values[i]);
        }
    }
    if (rc != EXIT_OK) {
        *fatal = 1;
        return rc;
    }
    rc = w->cfg->lowpan ? lowpan_estimate(w->rows, &lc, &e, w->env, &eo.w, status)
                        : model_run(w->rows, w->env, eo.l.kem, &eo.l.cfg, eo.l.allow_unbuildable,
                                    status);
    if (rc == EXIT_OK && w->cfg->per) {
        rc = monte_carlo(w, &eo, per, c, status);
    }
    if (rc == EXIT_OK && w->cfg->chain) {
        rc = lowpan_chain_summarize(&w->chain, w->env, &eo.w, status);
    }
    return rc;
}

/* ---- writing ---- */

static unsigned config_groups(const struct sweep_cfg *cfg)
{
    return GROUP_CONFIG | GROUP_NO_SIDE | (cfg->lowpan ? GROUP_802154 : 0u);
}

static unsigned side_groups(const struct sweep_cfg *cfg)
{
    return GROUP_HEADLINE | GROUP_DETAIL | (cfg->lowpan ? GROUP_802154 : 0u) |
           (cfg->signs ? (unsigned)GROUP_SIG : 0u) | (cfg->lesc ? (unsigned)GROUP_LESC : 0u);
}


static const char *const stat_names[4] = {"mean", "p50", "p90", "p99"};

static double stat_of(const struct lowpan_stats *st, int k)
{
    const double v[4] = {st->mean, st->p50, st->p90, st->p99};
    return v[k];
}

/* The value of input option i: its value, "on" for a flag. */
static const char *input_value(const struct sweep_worker *w, size_t i)
{
    return w->cfg->grid.opts[i].flag ? "on" : w->values[i];
}

static const char *per_value(const struct sweep_worker *w)
{
    size_t i;
    for (i = 0; i < w->cfg->grid.n; i++) {
        if (w->cfg->grid.opts[i].kind == SWEEP_PER) {
            return w->values[i];
        }
    }
    return "0";
}

void sweep_write_header(FILE *f, const struct sweep_cfg *cfg)
{
    const struct sweep_grid *g = &cfg->grid;
    unsigned groups = side_groups(cfg);
    char prefix[32];
    size_t i;
    int s, k;
    if (cfg->format == SWEEP_JSONL) {
        return;
    }
    fputs("config,configs,status", f);
    for (i = 0; i < g->n; i++) {
        if (g->opts[i].kind != SWEEP_PER) {
            fprintf(f, ",%s", g->opts[i].column);
        }
    }
    model_print_flat(f, NULL, config_groups(cfg), "", FLAT_CSV_NAMES);
    for (s = 0; s < MODEL_SIDES; s++) {
        snprintf(prefix, sizeof prefix, "%s_", model_side_name(groups, s));
        model_print_flat(f, NULL, groups, prefix, FLAT_CSV_NAMES);
    }
    if (cfg->chain) {
        fputs(",chain_latency_ms,chain_initiator_uj,chain_forwarder_max_uj,chain_responder_uj", f);
    }
    if (cfg->per) {
        fputs(",sim_per,sim_runs,sim_seed,sim_failed,sim_failure_rate", f);
        for (s = 0; s < MODEL_SIDES; s++) {
            for (k = 0; k < 4; k++) {
                fprintf(f, ",sim_%s_energy_%s_uj", model_side_name(groups, s), stat_names[k]);
            }
        }
        for (k = 0; k < 4; k++) {
            fprintf(f, ",sim_latency_%s_ms", stat_names[k]);
        }
    }
    fputc('\n', f);
}

/* A number member or field; CSV: ",V", JSON: ",\"NAME\":V"; null/empty when !valid. */
static void number(FILE *f, int json, const char *name, int valid, const char *fmt, double v)
{
    if (json) {
        fprintf(f, ",\"%s\":", name);
    } else {
        fputc(',', f);
    }
    if (valid) {
        fprintf(f, fmt, v);
    } else if (json) {
        fputs("null", f);
    }
}

/* The same for an integer. */
static void count(FILE *f, int json, const char *name, int valid, unsigned long long v)
{
    if (json) {
        fprintf(f, ",\"%s\":", name);
    } else {
        fputc(',', f);
    }
    if (valid) {
        fprintf(f, "%llu", v);
    } else if (json) {
        fputs("null", f);
    }
}

static void write_mc(FILE *f, const struct sweep_worker *w, int valid)
{
    const struct sweep_cfg *cfg = w->cfg;
    int json = cfg->format == SWEEP_JSONL;
    unsigned groups = side_groups(cfg);
    char name[64];
    int s, k;
    if (json) {
        fputs(",\"sim_per\":", f);
        model_json_string(f, per_value(w));
    } else {
        fputc(',', f);
        cli_csv_string(f, per_value(w));
    }
    count(f, json, "sim_runs", 1, cfg->runs);
    count(f, json, "sim_seed", valid, w->mc.seed);
    count(f, json, "sim_failed", valid, w->mc.failed);
    number(f, json, "sim_failure_rate", valid, "%.6f", (double)w->mc.failed / cfg->runs);
    for (s = 0; s < MODEL_SIDES; s++) {
        for (k = 0; k < 4; k++) {
            snprintf(name, sizeof name, "sim_%s_energy_%s_uj", model_side_name(groups, s),
                     stat_names[k]);
            number(f, json, name, valid, "%.3f", stat_of(&w->mc.energy_uj[s], k));
        }
    }
    for (k = 0; k < 4; k++) {
        snprintf(name, sizeof name, "sim_latency_%s_ms", stat_names[k]);
        number(f, json, name, valid, "%.3f", stat_of(&w->mc.latency_ms, k));
    }
}

/* The chain's columns: latency and energy per node (all-states accounting). */
static void write_chain(FILE *f, const struct sweep_worker *w, int valid)
{
    int json = w->cfg->format == SWEEP_JSONL;
    const struct lowpan_chain_summary *s = &w->chain;
    number(f, json, "chain_latency_ms", valid, "%.3f", s->latency_ms);
    number(f, json, "chain_initiator_uj", valid, "%.3f", s->initiator_uj);
    number(f, json, "chain_forwarder_max_uj", valid && s->forwarder_uj >= 0.0, "%.3f",
           s->forwarder_uj);
    number(f, json, "chain_responder_uj", valid, "%.3f", s->responder_uj);
}

static void write_row(FILE *f, const struct sweep_worker *w, uint64_t c, int valid,
                      const char *status)
{
    const struct sweep_cfg *cfg = w->cfg;
    const struct sweep_grid *g = &cfg->grid;
    int json = cfg->format == SWEEP_JSONL;
    enum model_flat style = json ? FLAT_JSON : FLAT_CSV;
    unsigned groups = side_groups(cfg);
    char prefix[32];
    size_t i;
    int s;
    if (json) {
        fprintf(f, "{\"config\":%llu,\"configs\":%llu,\"status\":", (unsigned long long)c,
                (unsigned long long)g->total);
        model_json_string(f, status);
    } else {
        fprintf(f, "%llu,%llu,", (unsigned long long)c, (unsigned long long)g->total);
        cli_csv_string(f, status);
    }
    for (i = 0; i < g->n; i++) {
        if (g->opts[i].kind == SWEEP_PER) {
            continue;
        }
        if (json) {
            fprintf(f, ",\"%s\":", g->opts[i].column);
            model_json_string(f, input_value(w, i));
        } else {
            fputc(',', f);
            cli_csv_string(f, input_value(w, i));
        }
    }
    model_print_flat(f, valid ? &w->rows[0] : NULL, config_groups(cfg), "", style);
    for (s = 0; s < MODEL_SIDES; s++) {
        snprintf(prefix, sizeof prefix, "%s_", model_side_name(groups, s));
        model_print_flat(f, valid ? &w->rows[s] : NULL, groups, prefix, style);
    }
    if (cfg->chain) {
        write_chain(f, w, valid);
    }
    if (cfg->per) {
        write_mc(f, w, valid);
    }
    fputs(json ? "}\n" : "\n", f);
}

int sweep_write_row(FILE *f, struct sweep_worker *w, uint64_t c, struct cli_msg *msg)
{
    struct cli_msg status;
    int fatal, rc = compute(w, c, &status, &fatal, msg);
    if (fatal) {
        return rc;
    }
    if (rc == EXIT_OK || !w->cfg->valid_only) {
        write_row(f, w, c, rc == EXIT_OK, rc == EXIT_OK ? "ok" : status.text);
    }
    return EXIT_OK;
}

/* Loads the environment of the energy options in values[]. */
static int load_env(struct model_env *env, const struct sweep_grid *g, const char **values)
{
    struct model_opts m;
    int rc = energy_opts(&m, g, values);
    return rc != EXIT_OK ? rc : model_env_load(env, &m, SWEEP_CMD);
}

int sweep_check_envs(const struct sweep_cfg *cfg)
{
    const struct sweep_grid *g = &cfg->grid;
    struct sweep_worker *w = sweep_worker_new(cfg);
    size_t i;
    uint64_t k;
    int rc = EXIT_OK;
    if (w == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", SWEEP_CMD);
        return EXIT_FAILURE_RUN;
    }
    for (i = 0; i < g->n; i++) {
        w->values[i] = sweep_value(&g->opts[i], 0, w->bufs[i]);
    }
    rc = load_env(w->env, g, w->values);
    for (i = 0; i < g->n && rc == EXIT_OK; i++) {
        const struct sweep_opt *o = &g->opts[i];
        for (k = 1; o->kind == SWEEP_ENERGY && k < o->count && rc == EXIT_OK; k++) {
            w->values[i] = sweep_value(o, k, w->bufs[i]);
            rc = load_env(w->env, g, w->values);
        }
        w->values[i] = sweep_value(o, 0, w->bufs[i]);
    }
    sweep_worker_free(w);
    return rc;
}
