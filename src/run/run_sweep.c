/* The run of `pqpan sweep` (pqpan_run "sweep", run.h; run_sweep.h for its pieces): estimate
 * over every configuration of a grid of option values. The plan checks the request (the
 * sweep's options and estimate's, each of estimate's a LIST of values, ranges or `all`) and
 * loads every environment once; a configuration's run parses its values through
 * estimate's own tables on fresh defaults, runs the analytic link model (model_run,
 * lowpan_estimate; --link ble-mesh: mesh_estimate) and passes one CONFIG row and its sides
 * as SIDE rows (--link ble-mesh: MESH rows), then with --per
 * (the packet simulator's Monte Carlo) or the 802.15.4 chain (--hops, --forwarding) one
 * SWEEP_EXTRA row of their columns (sweep_extra.c). */
#define _POSIX_C_SOURCE 200809L
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pqpan/defaults.h"
#include "pqpan/error.h"
#include "pqpan/pqke.h"
#include "chain.h"
#include "run_estimate.h"
#include "run_sweep.h"

#define JOBS_MAX 256u
#define SHARDS_MAX 1000000ull
#define RUNS_MAX 100000ull

/* ---- the sweep's options ---- */

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

/* --per LIST: field is the struct sweep_cfg (its link already set). A bad list is -1
 * (a table's "bad value" message) with the reason in cfg->msg, which the run gives. */
static int per_option(void *field, const char *v)
{
    struct sweep_cfg *cfg = field;
    struct sweep_opt *o = add_opt(&cfg->grid, "--per", SWEEP_PER);
    uint64_t k;
    int rc;
    if (o == NULL) {
        (void)cli_msg_set(&cfg->msg, EXIT_FAILURE_RUN, "out of memory");
        return -1;
    }
    snprintf(o->column, sizeof o->column, "sim_per");
    rc = sweep_items_parse(o, v, sweep_on(cfg), &cfg->grid, &cfg->msg);
    cfg->per = 1;
    for (k = 0; k < o->count && rc == EXIT_OK; k++) {
        char buf[SWEEP_VALUE_MAX];
        const char *x = sweep_value(o, k, buf);
        double per;
        if (cli_parse_double(x, 0.0, 1.0, &per) != 0) {
            rc = cli_msg_set(&cfg->msg, EXIT_USAGE, "--per %s: want a packet error rate in 0..1",
                             x);
        }
    }
    return rc == EXIT_OK ? 0 : -1;
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
    sweep_cfg_free(p);
}

const struct cli_opt_table sweep_opts_table = CLI_OPT_TABLE_FINI(
    "sweep", "options", sweep_rows, struct sweep_cfg, sweep_cfg_init, sweep_cfg_fini);

void sweep_cfg_free(struct sweep_cfg *cfg)
{
    sweep_grid_free(&cfg->grid);
    free(cfg->fields);
    cfg->fields = NULL;
    cfg->n_fields = 0;
    free(cfg->mesh_fields);
    cfg->mesh_fields = NULL;
    cfg->n_mesh_fields = 0;
}

/* ---- estimate's options, each a LIST ---- */

/* estimate's link tables on each link, in the order estimate's parser tries them, with
 * where each stores. */
struct link_table {
    const struct cli_opt_table *t;
    enum sweep_store store;
};

static const struct link_table ble_tables[] = {
    {&estimate_protocol_table, SWEEP_STORE_L}, {&link_pqke_table, SWEEP_STORE_L_PQKE},
    {&link_opts_table, SWEEP_STORE_L},         {&link_setup_table, SWEEP_STORE_L}};
static const struct link_table lowpan_tables[] = {
    {&link_pqke_table, SWEEP_STORE_W_PQKE}, {&lowpan_chain_table, SWEEP_STORE_W},
    {&lowpan_opts_table, SWEEP_STORE_W},    {&lowpan_exchange_table, SWEEP_STORE_W},
    {&lowpan_busy_table, SWEEP_STORE_W}};
/* --link ble-mesh: mesh_opt_row's tables but the energy ones (model_tables) and --format. */
static const struct link_table mesh_tables[] = {
    {&mesh_opts_table, SWEEP_STORE_MESH}, {&link_opts_table, SWEEP_STORE_MESH_GATT}};

int sweep_on(const struct sweep_cfg *cfg)
{
    return cfg->mesh ? SWEEP_ON_MESH : cfg->lowpan ? SWEEP_ON_802154 : SWEEP_ON_BLE;
}

/* Where o's value goes in k (or m for an energy option). */
static void *base_of(const struct sweep_opt *o, struct model_opts *m, struct sweep_link *k)
{
    if (o->kind == SWEEP_ENERGY) {
        return m;
    }
    switch (o->store) {
    case SWEEP_STORE_L_PQKE:
        return &k->l.pqke;
    case SWEEP_STORE_W:
        return &k->w;
    case SWEEP_STORE_W_PQKE:
        return &k->w.pqke;
    case SWEEP_STORE_MESH:
        return &k->m;
    case SWEEP_STORE_MESH_GATT:
        return &k->m.gatt;
    case SWEEP_STORE_L:
        break;
    }
    return &k->l;
}

/* The tables of estimate's link options on link on (enum sweep_on), *n their count. */
static const struct link_table *tables_on(int on, size_t *n)
{
    if (on == SWEEP_ON_MESH) {
        *n = sizeof mesh_tables / sizeof mesh_tables[0];
        return mesh_tables;
    }
    *n = on == SWEEP_ON_802154 ? sizeof lowpan_tables / sizeof lowpan_tables[0]
                               : sizeof ble_tables / sizeof ble_tables[0];
    return on == SWEEP_ON_802154 ? lowpan_tables : ble_tables;
}

/* o's table row among estimate's on link on (kind, row and store filled); 0 when estimate
 * has no option o->name there. */
static int find_row(struct sweep_opt *o, int on)
{
    size_t k, n;
    const struct link_table *t = tables_on(on, &n);
    for (k = 0; k < MODEL_TABLES; k++) {
        o->row = cli_opt_find(model_tables[k], o->name);
        if (o->row != NULL) {
            o->kind = SWEEP_ENERGY;
            return 1;
        }
    }
    for (k = 0; k < n; k++) {
        o->row = t[k].store != SWEEP_STORE_MESH_GATT || cli_word_index(mesh_gatt_opts, o->name) >= 0
                     ? cli_opt_find(t[k].t, o->name)
                     : NULL; /* PB-GATT takes some of the BLE link's options */
        if (o->row != NULL) {
            o->kind = SWEEP_LINK;
            o->store = t[k].store;
            return 1;
        }
    }
    return 0;
}

/* Stores value v (NULL: a flag) of o into m or k; a pqke option also into the BLE
 * configuration (as estimate's parser does), a BLE Mesh option noted as given (the
 * bearer's check, mesh_opts_check). 0, or -1 with the message in *msg. */
static int store(const struct sweep_opt *o, const char *v, struct model_opts *m,
                 struct sweep_link *k, struct cli_msg *msg)
{
    int rc = o->flag ? cli_opt_store(o->row, base_of(o, m, k), NULL)
                     : cli_opt_set_msg(o->row, base_of(o, m, k), v, msg);
    if (rc != 0 && o->flag) {
        (void)cli_msg_set(msg, EXIT_USAGE, "%s", o->name);
    }
    if (o->kind == SWEEP_LINK && o->store == SWEEP_STORE_L_PQKE) {
        k->l.cfg.pqke_mode = k->l.pqke.mode;
        k->l.cfg.pqke_sig = k->l.pqke.sig;
        k->l.cfg.pqke_hybrid = k->l.pqke.hybrid;
    }
    if (o->kind == SWEEP_LINK && (o->store == SWEEP_STORE_MESH || o->store == SWEEP_STORE_MESH_GATT)) {
        mesh_opts_given(&k->m, o->name);
    }
    return rc != 0 ? -1 : 0;
}

/* Fresh defaults of estimate's options, set once for all the values of an option checked
 * (setting the energy options' defaults reads the cycle table). */
struct fresh {
    struct model_opts m;
    struct sweep_link k;
};

static void fresh_init(struct fresh *f)
{
    model_opts_init(&f->m);
    link_opts_init(&f->k.l);
    lowpan_opts_init(&f->k.w);
    mesh_opts_init(&f->k.m);
}

/* Value v of o on fresh defaults: 0, or -1 with the message in *msg. */
static int check_value(const struct sweep_opt *o, const char *v, const struct fresh *f,
                       struct cli_msg *msg)
{
    struct fresh c = *f;
    return store(o, v, &c.m, &c.k, msg);
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

static int usage(struct run_ctx *r, const char *option, struct cli_msg *msg)
{
    return run_fail(r, EXIT_USAGE, option, msg->text);
}

/* A list v refused before its items are read: "", or an empty item. */
static int list_refused(struct run_ctx *r, const char *t, const char *v)
{
    struct cli_msg msg;
    if (*v != '\0' && *v != ',' && strstr(v, ",,") == NULL && v[strlen(v) - 1] != ',') {
        return PQPAN_OK;
    }
    (void)cli_msg_set(&msg, EXIT_USAGE, "%s '%s': %s", t, v,
                      *v == '\0' ? "empty list" : "empty item in the list");
    return usage(r, t, &msg);
}

/* Every value of o on fresh defaults (set once: setting the energy options' defaults
 * reads the cycle table). EXIT_OK, or an exit code with the message in *msg. */
static int check_values(const struct sweep_opt *o, struct cli_msg *msg)
{
    struct fresh *f = malloc(sizeof *f);
    uint64_t k;
    int rc = f != NULL ? EXIT_OK : cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    if (f != NULL) {
        fresh_init(f);
    }
    for (k = 0; k < o->count && rc == EXIT_OK; k++) {
        char buf[SWEEP_VALUE_MAX];
        rc = check_value(o, sweep_value(o, k, buf), f, msg) == 0 ? EXIT_OK : EXIT_USAGE;
    }
    free(f);
    return rc;
}

/* probe (its row found) as an option of the grid, with its list v (a flag: none). */
static int grid_option(struct run_ctx *r, struct sweep_cfg *cfg, const struct sweep_opt *probe,
                       const char *v)
{
    struct sweep_opt *o = add_opt(&cfg->grid, probe->name, probe->kind);
    struct cli_msg msg;
    int rc;
    if (o == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    *o = *probe;
    column_name(&cfg->grid, o);
    if (o->flag) {
        return PQPAN_OK;
    }
    rc = sweep_items_parse(o, v, sweep_on(cfg), &cfg->grid, &msg);
    if (rc == EXIT_OK) {
        rc = check_values(o, &msg);
    }
    return rc == EXIT_OK ? PQPAN_OK : run_fail(r, rc, o->name, msg.text);
}

/* A flag's value in a request (pqpan_run's rule, run.h): on, or off (left out). */
static const char *const flag_on[] = {"on", "true", "yes", "1", NULL};
static const char *const flag_off[] = {"off", "false", "no", "0", NULL};

/* Whether the option of estimate t, with its list v, is refused before its values are
 * read (one link per sweep; an empty list or item; a flag with a list; no value). */
static int refused(struct run_ctx *r, const struct sweep_opt *probe, const char *t, const char *v)
{
    struct cli_msg msg;
    if (strcmp(t, "--link") == 0 && v != NULL && !cli_word_equal(v, "ble") &&
        strcmp(v, "802154") != 0 && strcmp(v, "ble-mesh") != 0) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "--link %s: one link per sweep (ble, 802154 or "
                                            "ble-mesh; run one sweep per link)", v);
        return usage(r, t, &msg);
    }
    if (v != NULL && list_refused(r, t, v) != PQPAN_OK) {
        return r->err != NULL ? r->err->code : PQPAN_ERR_INVALID_ARG;
    }
    if (probe->flag && v != NULL && cli_word_index(flag_on, v) < 0 &&
        cli_word_index(flag_off, v) < 0) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "%s is a flag: it takes no value, so no list ('%s')",
                          t, v);
        return usage(r, t, &msg);
    }
    if (!probe->flag && v == NULL) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "%s needs a value", t);
        return usage(r, t, &msg);
    }
    return PQPAN_OK;
}

/* Whether the first value pv of t's list is one t takes (the message when not: `all` for
 * an option with no fixed set says so). */
static int first_value(struct run_ctx *r, const struct sweep_opt *probe, const char *t,
                       const char *pv)
{
    struct sweep_opt one = *probe;
    struct sweep_item item;
    struct cli_msg msg;
    memset(&item, 0, sizeof item);
    item.word = pv;
    item.count = 1;
    one.items = &item;
    one.n_items = 1;
    one.count = 1;
    if (check_values(&one, &msg) == EXIT_OK) {
        return PQPAN_OK;
    }
    if (cli_word_equal(pv, "all")) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "%s all: %s has no fixed set of values; give a "
                                            "list or a range A..B:STEP", t, t);
    }
    return usage(r, t, &msg);
}

/* The grid option of an option of estimate, t, with its list v (NULL: a flag). */
static int estimate_option(struct run_ctx *r, struct sweep_cfg *cfg, const char *t, const char *v)
{
    struct sweep_opt probe;
    struct cli_msg msg;
    const char *pv;
    int rc;
    memset(&probe, 0, sizeof probe);
    probe.name = t;
    probe.count = 1;
    if (!find_row(&probe, sweep_on(cfg))) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "unknown option '%s' (not an option of pqpan estimate%s)",
                          t, cfg->mesh ? " --link ble-mesh" : cfg->lowpan ? " --link 802154" : "");
        return usage(r, t, &msg);
    }
    probe.flag = probe.row->kind == CLI_OPT_FLAG;
    rc = refused(r, &probe, t, v);
    if (rc != PQPAN_OK || (probe.flag && v != NULL && cli_word_index(flag_off, v) >= 0)) {
        return rc; /* a flag given "off" is left out, as pqpan_run's flags are */
    }
    if (probe.flag) {
        return grid_option(r, cfg, &probe, NULL);
    }
    pv = sweep_probe_value(v, t, sweep_on(cfg), &cfg->grid);
    if (pv == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = first_value(r, &probe, t, pv);
    return rc != PQPAN_OK ? rc : grid_option(r, cfg, &probe, v);
}

/* One of the sweep's own options. */
static int sweep_option(struct run_ctx *r, struct sweep_cfg *cfg, const struct cli_opt *o,
                        const struct pqpan_run_opt *opt)
{
    int rc = run_set(r, o, cfg, opt);
    if (rc != PQPAN_OK && o->set == per_option) {
        return run_fail(r, EXIT_USAGE, o->name, cfg->msg.text);
    }
    return rc;
}

static int parse(struct run_ctx *r, struct sweep_cfg *cfg, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    int rc = PQPAN_OK, runs_or_seed = 0;
    size_t i;
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        const struct cli_opt *o = opts[i].name != NULL ? cli_opt_find(&sweep_opts_table, opts[i].name)
                                                       : NULL;
        if (opts[i].name == NULL) {
            return run_fail(r, EXIT_USAGE, NULL, "an option without a name");
        }
        runs_or_seed |= strcmp(opts[i].name, "--runs") == 0 || strcmp(opts[i].name, "--seed") == 0;
        if (o != NULL) {
            rc = sweep_option(r, cfg, o, &opts[i]);
        } else {
            char *v = run_value_copy(r, opts[i].value);
            rc = v == NULL && opts[i].value != NULL
                     ? (r->err != NULL ? r->err->code : PQPAN_ERR_INVALID_ARG)
                     : estimate_option(r, cfg, opts[i].name, v);
        }
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (cfg->per && cfg->lowpan) {
        return run_fail(r, EXIT_USAGE, "--per", "--per is for the BLE link (the 802.15.4 simulator "
                                                "has no packet error rate: pqpan simulate --link "
                                                "802154)");
    }
    if (cfg->per && cfg->mesh) {
        return run_fail(r, EXIT_USAGE, "--per", "--per is for the BLE link (the BLE Mesh "
                                                "provisioning simulator runs at zero loss: pqpan "
                                                "simulate --link ble-mesh)");
    }
    return runs_or_seed && !cfg->per
               ? run_fail(r, EXIT_USAGE, "--runs", "--runs and --seed belong to --per")
               : PQPAN_OK;
}

/* ---- the plan ---- */

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

/* The energy options in values[] (request order) on fresh defaults. */
static int energy_opts(struct model_opts *m, const struct sweep_grid *g, const char **values,
                       struct cli_msg *msg)
{
    size_t i;
    model_opts_init(m);
    for (i = 0; i < g->n; i++) {
        if (g->opts[i].kind == SWEEP_ENERGY && store(&g->opts[i], values[i], m, NULL, msg) != 0) {
            return EXIT_USAGE;
        }
    }
    return EXIT_OK;
}

/* Loads the environment of the energy options in values[]. */
static int load_env(struct model_env *env, const struct sweep_grid *g, const char **values,
                    struct cli_msg *msg)
{
    struct model_opts m;
    int rc = energy_opts(&m, g, values, msg);
    return rc != EXIT_OK ? rc : model_env_load_msg(env, &m, msg);
}

/* Loads the environment of every value of every energy option (the others at their first
 * value) before any work: a profile or calibration file that does not load stops the
 * sweep. */
static int check_envs(struct run_ctx *r, const struct sweep_cfg *cfg)
{
    const struct sweep_grid *g = &cfg->grid;
    size_t n = g->n > 0 ? g->n : 1, i;
    struct model_env *env = malloc(sizeof *env);
    char (*bufs)[SWEEP_VALUE_MAX] = malloc(n * sizeof *bufs);
    const char **values = malloc(n * sizeof *values);
    struct cli_msg msg;
    uint64_t k;
    int rc = env == NULL || bufs == NULL || values == NULL
                 ? cli_msg_set(&msg, EXIT_FAILURE_RUN, "out of memory")
                 : EXIT_OK;
    for (i = 0; i < g->n && rc == EXIT_OK; i++) {
        values[i] = sweep_value(&g->opts[i], 0, bufs[i]);
    }
    if (rc == EXIT_OK) {
        rc = load_env(env, g, values, &msg);
    }
    for (i = 0; i < g->n && rc == EXIT_OK; i++) {
        const struct sweep_opt *o = &g->opts[i];
        for (k = 1; o->kind == SWEEP_ENERGY && k < o->count && rc == EXIT_OK; k++) {
            values[i] = sweep_value(o, k, bufs[i]);
            rc = load_env(env, g, values, &msg);
        }
        values[i] = sweep_value(o, 0, bufs[i]);
    }
    free(env);
    free(bufs);
    free(values);
    return rc == EXIT_OK ? PQPAN_OK : run_fail(r, rc, NULL, msg.text);
}

/* --link ble-mesh: the MESH rows' table (mesh_sweep_fields). */
static int mesh_fields_of(struct run_ctx *r, struct sweep_cfg *cfg)
{
    size_t n = mesh_sweep_fields(NULL, 0);
    cfg->mesh_fields = calloc(n, sizeof *cfg->mesh_fields);
    if (cfg->mesh_fields == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    cfg->n_mesh_fields = mesh_sweep_fields(cfg->mesh_fields, n);
    return PQPAN_OK;
}

/* The CONFIG record's table: config, configs, status, then each option's column but
 * --per's (its value as given, in the option's unit; sim_per is a SWEEP_EXTRA field). */
static int config_fields(struct run_ctx *r, struct sweep_cfg *cfg)
{
    static const struct pqpan_run_field head[] = {
        {.name = "config", .label = "configuration", .store = PQPAN_RUN_STORE_ULL},
        {.name = "configs", .label = "configurations", .store = PQPAN_RUN_STORE_ULL},
        {.name = "status", .label = "status", .store = PQPAN_RUN_STORE_TEXT}};
    size_t i, n = sizeof head / sizeof head[0];
    cfg->fields = calloc(n + cfg->grid.n, sizeof *cfg->fields);
    if (cfg->fields == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    memcpy(cfg->fields, head, sizeof head);
    for (i = 0; i < cfg->grid.n; i++) {
        struct pqpan_run_field *f = &cfg->fields[n];
        if (cfg->grid.opts[i].kind == SWEEP_PER) {
            continue;
        }
        f->name = cfg->grid.opts[i].column;
        f->label = cfg->grid.opts[i].name;
        f->unit = cfg->grid.opts[i].row != NULL ? cfg->grid.opts[i].row->unit : NULL;
        f->store = PQPAN_RUN_STORE_TEXT;
        n++;
    }
    cfg->n_fields = n;
    return cfg->mesh ? mesh_fields_of(r, cfg) : PQPAN_OK;
}

static int plan(struct run_ctx *r, struct sweep_cfg *cfg)
{
    struct cli_msg msg;
    int rc = sweep_grid_finish(&cfg->grid, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    cfg->signs = grid_has(&cfg->grid, "--auth", signs);
    cfg->lesc = grid_has(&cfg->grid, "--kem", is_lesc);
    cfg->chain = cfg->lowpan && (grid_has(&cfg->grid, "--hops", any_value) ||
                                 grid_has(&cfg->grid, "--forwarding", any_value));
    if (cfg->grid.total > SWEEP_FORCE_ABOVE && !cfg->force) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "%llu configurations: more than 10^9; add --force to "
                                            "run them", (unsigned long long)cfg->grid.total);
        return run_fail(r, EXIT_USAGE, "--force", msg.text);
    }
    cfg->lo = shard_edge(cfg->grid.total, cfg->shard_k - 1, cfg->shard_n);
    cfg->hi = shard_edge(cfg->grid.total, cfg->shard_k, cfg->shard_n);
    rc = check_envs(r, cfg);
    return rc != PQPAN_OK ? rc : config_fields(r, cfg);
}

int sweep_plan(struct run_ctx *r, struct sweep_cfg *cfg, const struct pqpan_run_opt *opts,
               size_t n_opts)
{
    int rc;
    sweep_cfg_init(cfg);
    cfg->lowpan = run_wants_802154(opts, n_opts);
    cfg->mesh = run_wants_link(opts, n_opts, "ble-mesh");
    rc = parse(r, cfg, opts, n_opts);
    if (rc == PQPAN_OK) {
        rc = plan(r, cfg);
    }
    if (rc != PQPAN_OK) {
        sweep_cfg_free(cfg);
    }
    return rc;
}

unsigned sweep_side_groups(const struct sweep_cfg *cfg)
{
    return GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | (cfg->signs ? (unsigned)GROUP_SIG : 0u) |
           (cfg->lesc ? (unsigned)GROUP_LESC : 0u);
}

/* ---- one configuration ---- */

struct sweep_worker {
    const struct sweep_cfg *cfg;
    struct model_env *env; /* loaded for env_key */
    struct pqpan_ble_estimate_cache *memo; /* this worker's (thread's) set-up memo */
    uint64_t env_key;
    int env_loaded;
    struct sweep_link fresh;       /* the link options' defaults, copied per configuration */
    char (*bufs)[SWEEP_VALUE_MAX]; /* a range value of each option */
    const char **values;           /* each option's value in this configuration */
    struct pqpan_run_value *config_values;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct sweep_sim *sim; /* --per */
    struct pqpan_run_sweep_extra extra;
    struct mesh_result *mesh; /* --link ble-mesh: the provisioning's rows */
    struct mesh_opts mesh_o;  /* its options (the bearer's fields, --per's) */
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
    w->config_values = calloc(cfg->n_fields > 0 ? cfg->n_fields : 1, sizeof *w->config_values);
    w->sim = cfg->per ? sweep_sim_new(cfg->runs) : NULL;
    w->mesh = cfg->mesh ? malloc(sizeof *w->mesh) : NULL;
    if (w->env == NULL || w->memo == NULL || w->bufs == NULL || w->values == NULL ||
        w->config_values == NULL || (cfg->per && w->sim == NULL) ||
        (cfg->mesh && w->mesh == NULL)) {
        sweep_worker_free(w);
        return NULL;
    }
    pqpan_ble_estimate_cache_init(w->memo);
    link_opts_init(&w->fresh.l);
    lowpan_opts_init(&w->fresh.w);
    mesh_opts_init(&w->fresh.m);
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
    free(w->config_values);
    sweep_sim_free(w->sim);
    free(w->mesh);
    free(w);
}

/* The environment of configuration c (its energy options), loaded when it changes. */
static int ensure_env(struct sweep_worker *w, uint64_t c, struct cli_msg *fatal)
{
    const struct sweep_cfg *cfg = w->cfg;
    uint64_t key = c / cfg->grid.env_stride;
    struct model_opts m;
    int rc;
    if (w->env_loaded && w->env_key == key) {
        return EXIT_OK;
    }
    w->env_loaded = 0;
    rc = energy_opts(&m, &cfg->grid, w->values, fatal);
    if (rc == EXIT_OK) {
        if (cfg->lock != NULL) {
            cfg->lock(cfg->lock_ctx);
        }
        rc = model_env_load_msg(w->env, &m, fatal);
        if (cfg->unlock != NULL) {
            cfg->unlock(cfg->lock_ctx);
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

/* The value of --per in this configuration ("0" without it). */
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

/* The columns after the sides of a valid configuration c, k its link options: --per's
 * Monte Carlo (run i with seed --seed + c x --runs + i), the chain's summary. EXIT_OK, or
 * another exit code with why the configuration is invalid in *status. */
static int compute_extra(struct sweep_worker *w, const struct sweep_link *k, uint64_t c,
                         struct cli_msg *status)
{
    const struct sweep_cfg *cfg = w->cfg;
    struct pqpan_run_sweep_extra *x = &w->extra;
    struct lowpan_chain_summary chain;
    double per = 0.0;
    int rc = EXIT_OK;
    if (cfg->per) {
        rc = cli_parse_double(x->sim_per, 0.0, 1.0, &per) == 0
                 ? sweep_sim_run(x, w->sim, w->env, &k->l, per,
                                 cfg->seed + (unsigned long long)c * cfg->runs, status)
                 : cli_msg_set(status, EXIT_USAGE, "--per %s did not parse", x->sim_per);
    }
    if (rc == EXIT_OK && cfg->chain) {
        rc = lowpan_chain_summarize(&chain, w->env, &k->w, status);
        x->chain_latency_ms = chain.latency_ms;
        x->chain_initiator_uj = chain.initiator_uj;
        x->chain_forwarder_max_uj = chain.forwarder_uj;
        x->chain_responder_uj = chain.responder_uj;
    }
    return rc;
}

/* BLE Mesh provisioning on the options o into w->mesh, as estimate --link ble-mesh runs it
 * (run_mesh.c): a bearer's option given to the other bearer, a PHY PB-ADV cannot use, a
 * key the bearer cannot carry make the configuration invalid with estimate's message. */
static int mesh_compute(struct sweep_worker *w, const struct mesh_opts *o, struct cli_msg *status)
{
    const char *option;
    int rc = mesh_opts_check(o, &option, status);
    w->mesh_o = *o;
    if (rc == EXIT_OK && o->bearer == MESH_BEARER_NETWORK) {
        /* its rows are other nodes (initiator, responder, relays) than the columns' */
        rc = cli_msg_set(status, EXIT_USAGE, "a --link ble-mesh sweep covers the provisioning "
                                             "bearers (pb-adv, pb-gatt): --bearer network is "
                                             "`pqpan estimate --link ble-mesh --bearer network`");
    }
    if (rc == EXIT_OK) {
        rc = mesh_estimate(w->mesh, w->env, o, status);
    }
    if (rc == EXIT_OK) {
        mesh_row_texts(w->mesh, o, NULL);
    }
    return rc;
}

/* Runs configuration c into w->rows (and w->extra; --link ble-mesh: w->mesh). EXIT_OK for a valid configuration;
 * another exit code with the reason in *status for an invalid one; *fatal set for one
 * that stops the sweep. */
static int compute(struct sweep_worker *w, uint64_t c, struct cli_msg *status, int *fatal,
                   struct cli_msg *fatal_msg)
{
    const struct sweep_grid *g = &w->cfg->grid;
    struct sweep_link k;
    struct pqpan_802154_est_config lc;
    struct pqpan_802154_estimate e;
    size_t i;
    int rc;
    for (i = 0; i < g->n; i++) {
        w->values[i] = sweep_value(&g->opts[i], sweep_value_index(&g->opts[i], c), w->bufs[i]);
    }
    w->extra.sim_per = per_value(w);
    w->extra.sim_runs = w->cfg->runs;
    *fatal = 0;
    rc = ensure_env(w, c, fatal_msg);
    k = w->fresh;
    for (i = 0; i < g->n && rc == EXIT_OK; i++) {
        const struct sweep_opt *o = &g->opts[i];
        if (o->kind == SWEEP_LINK && store(o, w->values[i], NULL, &k, status) != 0) {
            rc = cli_msg_set(fatal_msg, EXIT_USAGE, "%s %s did not parse", o->name, w->values[i]);
        }
    }
    if (rc != EXIT_OK) {
        *fatal = 1;
        return rc;
    }
    if (w->cfg->mesh) {
        return mesh_compute(w, &k.m, status);
    }
    rc = w->cfg->lowpan ? lowpan_estimate(w->rows, &lc, &e, w->env, &k.w, status)
                        : model_run(w->rows, w->env, k.l.kem, &k.l.cfg, k.l.allow_unbuildable,
                                    status);
    return rc == EXIT_OK && (w->cfg->per || w->cfg->chain) ? compute_extra(w, &k, c, status) : rc;
}

static int emit_config(struct sweep_worker *w, uint64_t c, const char *status, pqpan_run_emit emit,
                       void *ctx)
{
    const struct sweep_cfg *cfg = w->cfg;
    struct pqpan_run_value *v = w->config_values;
    struct pqpan_run_row row;
    size_t i, k;
    memset(&row, 0, sizeof row);
    for (i = 0; i < cfg->n_fields; i++) {
        v[i].type = cfg->fields[i].store == PQPAN_RUN_STORE_TEXT ? PQPAN_RUN_TEXT : PQPAN_RUN_COUNT;
        v[i].known = 1;
    }
    v[0].u = c;
    v[1].u = cfg->grid.total;
    v[2].text = status;
    for (i = 0, k = 3; i < cfg->grid.n; i++) {
        if (cfg->grid.opts[i].kind != SWEEP_PER) {
            v[k++].text = cfg->grid.opts[i].flag ? "on" : w->values[i];
        }
    }
    row.record = PQPAN_RUN_RECORD_CONFIG;
    row.link = cfg->lowpan ? PQPAN_RUN_LINK_802154 : PQPAN_RUN_LINK_BLE;
    row.fields = cfg->fields;
    row.n_fields = cfg->n_fields;
    row.values = v;
    return emit(ctx, &row);
}

/* The sides of the configuration (valid: w->rows; else every value unknown). */
static int emit_sides(struct sweep_worker *w, int valid, pqpan_run_emit emit, void *ctx)
{
    struct pqpan_run_value values[PQPAN_RUN_FIELDS_MAX];
    struct pqpan_run_row row;
    enum pqpan_run_link link = w->cfg->lowpan ? PQPAN_RUN_LINK_802154 : PQPAN_RUN_LINK_BLE;
    size_t n, k;
    int s, rc = 0;
    memset(&row, 0, sizeof row);
    row.record = PQPAN_RUN_RECORD_SIDE;
    row.link = link;
    row.groups = sweep_side_groups(w->cfg);
    row.fields = pqpan_run_exchange_fields(link, &n);
    row.n_fields = n;
    row.values = values;
    if (!valid) {
        memset(values, 0, n * sizeof values[0]);
    }
    for (s = 0; s < PQPAN_RUN_SIDES && rc == 0; s++) {
        for (k = 0; valid && k < n; k++) {
            pqpan_run_field_value(&values[k], &row.fields[k], &w->rows[s]);
        }
        row.exchange = valid ? &w->rows[s] : NULL;
        rc = emit(ctx, &row);
    }
    return rc;
}

/* The MESH rows of the configuration: provisioner, device, total (valid: w->mesh, a field
 * of the other bearer unknown; else every value unknown but the side's). */
static int emit_mesh_sides(struct sweep_worker *w, int valid, pqpan_run_emit emit, void *ctx)
{
    struct pqpan_run_value values[PQPAN_RUN_FIELDS_MAX];
    struct pqpan_run_mesh_row invalid;
    struct pqpan_run_row row;
    size_t n, k;
    int s, rc = 0;
    memset(&row, 0, sizeof row);
    memset(&invalid, 0, sizeof invalid);
    row.record = PQPAN_RUN_RECORD_MESH;
    row.link = PQPAN_RUN_LINK_BLE;
    row.groups = PQPAN_RUN_GROUP_DETAIL;
    row.fields = w->cfg->mesh_fields;
    row.n_fields = n = w->cfg->n_mesh_fields;
    row.values = values;
    for (s = 0; s < MESH_SIDES && rc == 0; s++) {
        const struct pqpan_run_mesh_row *m = valid ? &w->mesh->rows[s] : &invalid;
        invalid.side = mesh_side_name(s);
        for (k = 0; k < n; k++) {
            pqpan_run_record_value(&values[k], &row.fields[k], m);
            values[k].known &= (valid && mesh_field_on(&row.fields[k], &w->mesh_o, 0)) ||
                               strcmp(row.fields[k].name, "side") == 0;
        }
        row.data = m;
        rc = emit(ctx, &row);
    }
    return rc;
}

/* The SWEEP_EXTRA row (valid: w->extra; else every value unknown but the settings). */
static int emit_extra(struct sweep_worker *w, int valid, pqpan_run_emit emit, void *ctx)
{
    struct pqpan_run_value values[PQPAN_RUN_FIELDS_MAX];
    struct pqpan_run_row row;
    size_t n, k;
    memset(&row, 0, sizeof row);
    row.record = PQPAN_RUN_RECORD_SWEEP_EXTRA;
    row.link = w->cfg->lowpan ? PQPAN_RUN_LINK_802154 : PQPAN_RUN_LINK_BLE;
    row.fields = sweep_extra_fields(w->cfg, &n);
    row.n_fields = n;
    row.values = values;
    row.data = &w->extra;
    for (k = 0; k < n; k++) {
        pqpan_run_record_value(&values[k], &row.fields[k], &w->extra);
        values[k].known &= valid || sweep_extra_setting(&row.fields[k]);
    }
    return emit(ctx, &row);
}

int sweep_config_run(struct sweep_worker *w, uint64_t c, pqpan_run_emit emit, void *ctx,
                     struct cli_msg *fatal)
{
    struct cli_msg status;
    int stop, rc, bad = compute(w, c, &status, &stop, fatal);
    if (stop) {
        return bad;
    }
    if (bad != EXIT_OK && w->cfg->valid_only) {
        return EXIT_OK;
    }
    rc = emit_config(w, c, bad == EXIT_OK ? "ok" : status.text, emit, ctx);
    if (rc == 0) {
        rc = w->cfg->mesh ? emit_mesh_sides(w, bad == EXIT_OK, emit, ctx)
                          : emit_sides(w, bad == EXIT_OK, emit, ctx);
    }
    if (rc == 0 && (w->cfg->per || w->cfg->chain)) {
        rc = emit_extra(w, bad == EXIT_OK, emit, ctx);
    }
    return rc == 0 ? EXIT_OK : cli_msg_set(fatal, EXIT_IO, "the caller stopped the run");
}

/* ---- pqpan_run "sweep" ---- */

/* The configurations of the plan on this thread, in order. */
static int run_configs(struct run_ctx *r, const struct sweep_cfg *cfg)
{
    struct sweep_worker *w = sweep_worker_new(cfg);
    struct cli_msg msg;
    uint64_t c;
    int rc = w != NULL ? EXIT_OK : cli_msg_set(&msg, EXIT_FAILURE_RUN, "out of memory");
    for (c = cfg->lo; c < cfg->hi && rc == EXIT_OK; c++) {
        rc = sweep_config_run(w, c, r->emit, r->ctx, &msg);
    }
    sweep_worker_free(w);
    return rc == EXIT_OK ? PQPAN_OK : run_fail(r, rc, NULL, msg.text);
}

int run_sweep(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct sweep_cfg *cfg = malloc(sizeof *cfg);
    int rc;
    if (cfg == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = sweep_plan(r, cfg, opts, n_opts);
    if (rc != PQPAN_OK) {
        free(cfg);
        return rc;
    }
    rc = run_configs(r, cfg);
    sweep_cfg_free(cfg);
    free(cfg);
    return rc;
}
