/* The CLI's face of a configuration of `pqpan sweep`: the rows the run layer gives
 * (sweep_config_run, src/run/run_sweep.c: one CONFIG row, then the sides) written as one
 * CSV line or JSON object with estimate's field table, and the columns the run layer does
 * not compute yet: with --per the Monte Carlo of the packet simulator, with --hops or
 * --forwarding on 802.15.4 the chain's (sweep_extra_fn). */
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

struct sweep_writer {
    const struct sweep_cfg *cfg;
    struct sweep_worker *run; /* the run layer's worker */
    FILE *f;                  /* the block being written */
    int sides;                /* sides of the current row written */
    int valid;                /* the current row's status is ok */
    const char *per;          /* the current row's --per value */
    struct mc mc;
    struct lowpan_chain_summary chain; /* --hops / --forwarding on 802.15.4 */
    struct pqpan_sim *sim;
    struct ble_sim_apps *apps;
    double *samples; /* (MODEL_SIDES + 1) x runs */
};

struct sweep_writer *sweep_writer_new(const struct sweep_cfg *cfg)
{
    struct sweep_writer *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return NULL;
    }
    w->cfg = cfg;
    w->run = sweep_worker_new(cfg);
    if (cfg->per) {
        w->sim = malloc(sizeof *w->sim);
        w->apps = malloc(sizeof *w->apps);
        w->samples = malloc((MODEL_SIDES + 1u) * cfg->runs * sizeof *w->samples);
    }
    if (w->run == NULL ||
        (cfg->per && (w->sim == NULL || w->apps == NULL || w->samples == NULL))) {
        sweep_writer_free(w);
        return NULL;
    }
    return w;
}

void sweep_writer_free(struct sweep_writer *w)
{
    if (w == NULL) {
        return;
    }
    sweep_worker_free(w->run);
    free(w->sim);
    free(w->apps);
    free(w->samples);
    free(w);
}

/* ---- Monte Carlo (--per) ---- */

static int monte_carlo(struct sweep_writer *w, const struct model_env *env,
                       const struct link_opts *l, double per, uint64_t c, struct cli_msg *status)
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
        rc = ble_sim_run(w->sim, w->apps, &keys, env, l, &so, NULL, NULL, status);
        if (rc == EXIT_OK) {
            rc = ble_sim_rows(rows, env, l->kem, w->sim, status);
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

/* The columns the run layer does not compute yet (sweep_extra_fn): ctx is the writer. */
static int extra(void *ctx, const struct model_env *env, const struct sweep_link *k,
                 const char *per, uint64_t c, struct cli_msg *status)
{
    struct sweep_writer *w = ctx;
    double p = 0.0;
    int rc = EXIT_OK;
    if (w->cfg->per) {
        rc = cli_parse_double(per, 0.0, 1.0, &p) == 0
                 ? monte_carlo(w, env, &k->l, p, c, status)
                 : cli_msg_set(status, EXIT_USAGE, "--per %s did not parse", per);
    }
    if (rc == EXIT_OK && w->cfg->chain) {
        rc = lowpan_chain_summarize(&w->chain, env, &k->w, status);
    }
    return rc;
}

/* The extra columns' function when the sweep has any. */
static sweep_extra_fn cfg_extra(const struct sweep_cfg *cfg)
{
    return cfg->per || cfg->chain ? extra : NULL;
}

/* ---- writing ---- */

/* The CONFIG group of side 0 (no side column) and the groups of every side. */
static unsigned config_groups(const struct sweep_cfg *cfg)
{
    return GROUP_CONFIG | GROUP_NO_SIDE | (cfg->lowpan ? GROUP_802154 : 0u);
}

static unsigned side_groups(const struct sweep_cfg *cfg)
{
    return (sweep_side_groups(cfg) & ~(unsigned)GROUP_CONFIG) | (cfg->lowpan ? GROUP_802154 : 0u);
}

static const char *const stat_names[4] = {"mean", "p50", "p90", "p99"};

static double stat_of(const struct lowpan_stats *st, int k)
{
    const double v[4] = {st->mean, st->p50, st->p90, st->p99};
    return v[k];
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

static void write_mc(FILE *f, const struct sweep_writer *w, int valid)
{
    const struct sweep_cfg *cfg = w->cfg;
    int json = cfg->format == SWEEP_JSONL;
    unsigned groups = side_groups(cfg);
    char name[64];
    int s, k;
    if (json) {
        fputs(",\"sim_per\":", f);
        model_json_string(f, w->per);
    } else {
        fputc(',', f);
        cli_csv_string(f, w->per);
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
static void write_chain(FILE *f, const struct sweep_writer *w, int valid)
{
    int json = w->cfg->format == SWEEP_JSONL;
    const struct lowpan_chain_summary *s = &w->chain;
    number(f, json, "chain_latency_ms", valid, "%.3f", s->latency_ms);
    number(f, json, "chain_initiator_uj", valid, "%.3f", s->initiator_uj);
    number(f, json, "chain_forwarder_max_uj", valid && s->forwarder_uj >= 0.0, "%.3f",
           s->forwarder_uj);
    number(f, json, "chain_responder_uj", valid, "%.3f", s->responder_uj);
}

/* The CONFIG row: config, configs, status and the options' values (sim_per, --per's,
 * comes with the Monte Carlo columns). */
static void write_head(struct sweep_writer *w, const struct pqpan_run_row *row)
{
    FILE *f = w->f;
    int json = w->cfg->format == SWEEP_JSONL;
    size_t i;
    if (json) {
        fprintf(f, "{\"config\":%llu,\"configs\":%llu,\"status\":", row->values[0].u,
                row->values[1].u);
        model_json_string(f, row->values[2].text);
    } else {
        fprintf(f, "%llu,%llu,", row->values[0].u, row->values[1].u);
        cli_csv_string(f, row->values[2].text);
    }
    w->valid = strcmp(row->values[2].text, "ok") == 0;
    w->per = "0";
    for (i = 3; i < row->n_fields; i++) {
        if (w->cfg->grid.opts[i - 3].kind == SWEEP_PER) {
            w->per = row->values[i].text;
        } else if (json) {
            fprintf(f, ",\"%s\":", row->fields[i].name);
            model_json_string(f, row->values[i].text);
        } else {
            fputc(',', f);
            cli_csv_string(f, row->values[i].text);
        }
    }
}

/* A SIDE row: side 0 also writes the configuration's fields; the last, the chain's and
 * Monte Carlo's columns and the end of the line. */
static void write_side(struct sweep_writer *w, const struct pqpan_run_row *row)
{
    const struct sweep_cfg *cfg = w->cfg;
    enum model_flat style = cfg->format == SWEEP_JSONL ? FLAT_JSON : FLAT_CSV;
    unsigned groups = side_groups(cfg);
    char prefix[32];
    if (w->sides == 0) {
        model_print_flat(w->f, row->exchange, config_groups(cfg), "", style);
    }
    snprintf(prefix, sizeof prefix, "%s_", model_side_name(groups, w->sides));
    model_print_flat(w->f, row->exchange, groups, prefix, style);
    if (++w->sides < MODEL_SIDES) {
        return;
    }
    w->sides = 0;
    if (cfg->chain) {
        write_chain(w->f, w, w->valid);
    }
    if (cfg->per) {
        write_mc(w->f, w, w->valid);
    }
    fputs(style == FLAT_JSON ? "}\n" : "\n", w->f);
}

/* The run layer's emit: ctx is the writer. */
static int write_record(void *ctx, const struct pqpan_run_row *row)
{
    struct sweep_writer *w = ctx;
    if (row->record == PQPAN_RUN_RECORD_CONFIG) {
        write_head(w, row);
    } else if (row->record == PQPAN_RUN_RECORD_SIDE) {
        write_side(w, row);
    } else {
        return -1; /* a sweep has no other records */
    }
    return 0;
}

int sweep_write_row(FILE *f, struct sweep_writer *w, uint64_t c, struct cli_msg *msg)
{
    w->f = f;
    w->sides = 0;
    return sweep_config_run(w->run, c, cfg_extra(w->cfg), write_record, w, msg);
}
