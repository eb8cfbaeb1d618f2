/* Private to the run layer and its faces: the run of `pqpan sweep` (pqpan_run "sweep",
 * docs/RUN.md) in its pieces, so that a face that runs configurations on threads (the
 * CLI's --jobs) calls the same code as pqpan_run: the grid of option values
 * (sweep_grid.c), the plan of a request (its options checked, every environment loaded
 * once) and one configuration's rows (run_sweep.c). The run layer has no threads: a
 * worker (sweep_worker_new) owns what one thread computes with. */
#ifndef PQPAN_RUN_SWEEP_H
#define PQPAN_RUN_SWEEP_H

#include <stdint.h>

#include "link.h"
#include "lowpan.h"
#include "mesh_model.h"
#include "model.h"
#include "run_internal.h"

#define SWEEP_CMD "sweep"

/* More configurations than this need --force. */
#define SWEEP_FORCE_ABOVE 1000000000ull

/* Longest value a range writes ("PREFIX=" + a number). */
#define SWEEP_VALUE_MAX 96

/* One item of an option's value list: a word (one value) or a range A..B:STEP, whose
 * values are exact decimals first + k * step (scaled by 10^decimals) after an optional
 * prefix ("kem_keygen=" in --gamma-comp kem_keygen=1.1..1.5:0.1). */
struct sweep_item {
    const char *word;  /* the item as given (a range: its text) */
    size_t prefix_len; /* range: characters of word before A */
    int64_t first, step;
    uint64_t count;    /* values: 1 for a word */
    int decimals;
};

enum sweep_kind {
    SWEEP_ENERGY, /* an energy option of estimate (model_opts): selects the loaded environment */
    SWEEP_LINK,   /* a link or protocol option of estimate */
    SWEEP_PER     /* --per: the packet error rate of the Monte Carlo */
};

/* Where a link option's value is stored in a configuration's struct sweep_link (MESH: the
 * provisioning's options, MESH_GATT: the BLE link options PB-GATT takes). */
enum sweep_store {
    SWEEP_STORE_L,
    SWEEP_STORE_L_PQKE,
    SWEEP_STORE_W,
    SWEEP_STORE_W_PQKE,
    SWEEP_STORE_MESH,
    SWEEP_STORE_MESH_GATT
};

/* The link a sweep runs on (--link): estimate's options and model on it. */
enum sweep_on { SWEEP_ON_BLE = 0, SWEEP_ON_802154 = 1, SWEEP_ON_MESH = 2 };

/* One option of the request and its values (one for a fixed option, none for a flag). */
struct sweep_opt {
    const char *name; /* "--phy" */
    enum sweep_kind kind;
    int flag;
    const struct cli_opt *row; /* estimate's table row (NULL for --per) */
    enum sweep_store store;    /* SWEEP_LINK: where row stores */
    struct sweep_item *items;
    size_t n_items;
    uint64_t count;  /* values (1 for a flag) */
    uint64_t stride; /* in the configuration index: value k of this option spans stride */
    char column[64]; /* "in_phy" */
};

struct sweep_grid {
    struct sweep_opt *opts; /* in request order */
    size_t n;
    uint64_t total;      /* configurations: the product of the counts */
    uint64_t env_stride; /* configurations that share one loaded environment */
    char **owned;        /* words copied for `all` */
    size_t n_owned;
};

/* ---- sweep_grid.c ---- */

/* Splits value into items (comma list; ranges; `all` as the words of estimate's option on
 * link on, an enum sweep_on). An exit code (run_text.h), the message naming o and value in
 * *msg. */
int sweep_items_parse(struct sweep_opt *o, const char *value, int on, struct sweep_grid *g,
                      struct cli_msg *msg);

/* The value to try opt with to learn whether it is an option and takes a value: the
 * first item of value (a range's first value, the first word of `all`). Kept in g; NULL
 * when out of memory. */
const char *sweep_probe_value(const char *value, const char *opt, int on, struct sweep_grid *g);

/* The row of option name as estimate takes it on link on (enum sweep_on), NULL if none. */
const struct cli_opt *sweep_estimate_row(int on, const char *name);

/* Value k (0 .. o->count - 1) of o: a pointer to the word, or to buf for a range value. */
const char *sweep_value(const struct sweep_opt *o, uint64_t k, char buf[SWEEP_VALUE_MAX]);

/* Index of o's value in configuration c. */
uint64_t sweep_value_index(const struct sweep_opt *o, uint64_t c);

/* Orders the grid (energy options outermost, then the others, each in request order; the
 * last varies fastest), fills strides, total and env_stride. EXIT_USAGE with the message
 * in *msg when the product does not fit in 64 bits. */
int sweep_grid_finish(struct sweep_grid *g, struct cli_msg *msg);

void sweep_grid_free(struct sweep_grid *g);

/* ---- run_sweep.c: the plan ---- */

enum sweep_format { SWEEP_CSV, SWEEP_JSONL };

/* A planned sweep: the grid and the sweep's own options. --format, --out and --jobs are
 * the face's (how it writes the rows, on how many threads): the run checks and keeps them
 * and computes the same rows whatever they are. */
struct sweep_cfg {
    struct sweep_grid grid;
    int lowpan;             /* --link 802154 */
    int mesh;               /* --link ble-mesh: the provisioning's MESH rows (mesh_model.h) */
    enum sweep_format format;
    const char *out;        /* NULL: stdout */
    unsigned jobs;
    uint64_t shard_k, shard_n; /* 1-based K of N */
    uint64_t lo, hi;        /* the shard's configurations [lo, hi) */
    int valid_only;
    int force;
    int per;                /* --per given: the Monte Carlo's columns (SWEEP_EXTRA) */
    unsigned runs;
    unsigned long long seed;
    int signs;              /* some --auth value is a sig mode: ML-DSA signing's columns */
    int lesc;               /* some --kem value is LE SC: its named parts' columns */
    int chain;              /* --link 802154 with --hops or --forwarding: the chain's columns
                               (SWEEP_EXTRA) */
    struct pqpan_run_field *fields; /* the CONFIG record's table: config, configs, status,
                                       then each option's column */
    size_t n_fields;
    struct pqpan_run_field *mesh_fields; /* --link ble-mesh: the MESH rows' table
                                            (mesh_sweep_fields) */
    size_t n_mesh_fields;
    /* Held while a worker loads an environment (NULL: one thread): cJSON, which reads the
     * profile and calibration files, writes a global error position on every parse. */
    void (*lock)(void *lock_ctx);
    void (*unlock)(void *lock_ctx);
    void *lock_ctx;
    struct cli_msg msg; /* a set function's message (--per) */
};

/* The sweep's own options (--format, --out, --jobs, --shard, --valid-only, --force, --per,
 * --runs, --seed), as data (run_opts.h). */
extern const struct cli_opt_table sweep_opts_table;

/* Plans the request opts[0..n_opts) into *cfg: the sweep's options and estimate's, each of
 * estimate's a LIST on the link --link says; every value checked, every environment loaded.
 * PQPAN_OK, or the error in r->err (cfg freed). The values stay in r (keep it until
 * sweep_cfg_free). */
int sweep_plan(struct run_ctx *r, struct sweep_cfg *cfg, const struct pqpan_run_opt *opts,
               size_t n_opts);

void sweep_cfg_free(struct sweep_cfg *cfg);

/* Shown groups of a configuration's SIDE rows (with the GROUP_CONFIG fields of side 0). */
unsigned sweep_side_groups(const struct sweep_cfg *cfg);

/* ---- run_sweep.c: one configuration ---- */

/* A configuration's link options. */
struct sweep_link {
    struct link_opts l;   /* BLE */
    struct lowpan_opts w; /* IEEE 802.15.4 */
    struct mesh_opts m;   /* BLE Mesh provisioning */
};

/* The link of cfg (enum sweep_on). */
int sweep_on(const struct sweep_cfg *cfg);

/* ---- sweep_extra.c: a configuration's columns after its sides ---- */

/* The SWEEP_EXTRA record's fields of cfg (the chain's with cfg->chain, the Monte Carlo's
 * with cfg->per), in the CSV's order; *n 0 when it has none. */
const struct pqpan_run_field *sweep_extra_fields(const struct sweep_cfg *cfg, size_t *n);

/* Whether f is one of the sweep's settings (sim_per, sim_runs): known in an invalid
 * configuration too. */
int sweep_extra_setting(const struct pqpan_run_field *f);

/* What one thread runs --per's Monte Carlo with: the packet simulator, its applications
 * and the runs' samples. */
struct sweep_sim;

struct sweep_sim *sweep_sim_new(unsigned runs);
void sweep_sim_free(struct sweep_sim *s);

/* The runs of the BLE packet simulator at packet error rate per on l, run i with seed
 * seed + i, into x's sim_ members (not sim_per, sim_runs). EXIT_OK, or another exit code
 * with why the configuration is invalid in *status. */
int sweep_sim_run(struct pqpan_run_sweep_extra *x, struct sweep_sim *s,
                  const struct model_env *env, const struct link_opts *l, double per,
                  unsigned long long seed, struct cli_msg *status);

/* What one thread computes with: the loaded environment (with its key), the BLE
 * estimator's set-up memo, --per's simulator, buffers. */
struct sweep_worker;

struct sweep_worker *sweep_worker_new(const struct sweep_cfg *cfg);
void sweep_worker_free(struct sweep_worker *w);

/* Runs configuration c and passes its rows to emit: one CONFIG row (config, configs,
 * status, the options' values but --per's), then its sides as SIDE rows (every value
 * unknown and exchange NULL when the status is not ok; --link ble-mesh: MESH rows of
 * cfg->mesh_fields, provisioner, device, total, a field of the other bearer unknown, every
 * value but the side's unknown when the status is not ok), then with --per or the chain one
 * SWEEP_EXTRA row (its Monte Carlo and chain run after a valid estimate); nothing when
 * --valid-only and c is not valid. An exit code: not EXIT_OK only when the sweep cannot
 * go on (an environment that did not load, emit stopped the run), the reason in *fatal. */
int sweep_config_run(struct sweep_worker *w, uint64_t c, pqpan_run_emit emit, void *ctx,
                     struct cli_msg *fatal);

#endif
