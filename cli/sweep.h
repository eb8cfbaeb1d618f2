/* pqpan sweep: `estimate` over a grid of configurations (cli/sweep.c). Internal to the
 * sweep's files: the grid of option values (sweep_grid.c), the rows (sweep_row.c), the run
 * on worker threads (sweep_run.c) and the joining of shards (sweep_merge.c). */
#ifndef PQPAN_CLI_SWEEP_H
#define PQPAN_CLI_SWEEP_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "ble_sim.h"
#include "estimate.h"
#include "outfile.h"

#define SWEEP_CMD "sweep"

/* More configurations than this need --force. */
#define SWEEP_FORCE_ABOVE 1000000000ull

/* Longest value a range writes ("PREFIX=" + a number). */
#define SWEEP_VALUE_MAX 96

/* Exit code of a sweep stopped by SIGINT (128 + SIGINT, the shell's convention). */
#define SWEEP_EXIT_INTERRUPTED 130

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

/* One option of the command line and its values (one for a fixed option, none for a
 * flag). */
struct sweep_opt {
    const char *name; /* "--phy" */
    enum sweep_kind kind;
    int flag;
    struct sweep_item *items;
    size_t n_items;
    uint64_t count;  /* values (1 for a flag) */
    uint64_t stride; /* in the configuration index: value k of this option spans stride */
    char column[64]; /* "in_phy" */
};

struct sweep_grid {
    struct sweep_opt *opts; /* in command-line order */
    size_t n;
    uint64_t total;      /* configurations: the product of the counts */
    uint64_t env_stride; /* configurations that share one loaded environment */
    char **owned;        /* words copied for `all` */
    size_t n_owned;
};

/* ---- sweep_grid.c ---- */

/* Splits value into items (comma list; ranges; `all` as the words choices gives). A
 * cli.h exit code, message printed naming opt and value. */
int sweep_items_parse(struct sweep_opt *o, const char *value, const struct estimate_opts *eo,
                      struct sweep_grid *g);

/* The value to try opt with to learn whether it is an option and takes a value: the
 * first item of value (a range's first value, the first word of `all`). Kept in g; NULL
 * when out of memory. */
const char *sweep_probe_value(const char *value, const char *opt, const struct estimate_opts *eo,
                              struct sweep_grid *g);

/* Value k (0 .. o->count - 1) of o: a pointer to the word, or to buf for a range value. */
const char *sweep_value(const struct sweep_opt *o, uint64_t k, char buf[SWEEP_VALUE_MAX]);

/* Index of o's value in configuration c. */
uint64_t sweep_value_index(const struct sweep_opt *o, uint64_t c);

/* Orders the grid (energy options outermost, then the others, each in command-line
 * order; the last varies fastest), fills strides, total and env_stride. EXIT_USAGE with a
 * message when the product does not fit in 64 bits. */
int sweep_grid_finish(struct sweep_grid *g);

void sweep_grid_free(struct sweep_grid *g);

/* ---- sweep.c: the options ---- */

enum sweep_format { SWEEP_CSV, SWEEP_JSONL };

struct sweep_cfg {
    struct sweep_grid grid;
    int lowpan;
    enum sweep_format format;
    const char *out;        /* NULL: stdout */
    unsigned jobs;
    uint64_t shard_k, shard_n; /* 1-based K of N */
    uint64_t lo, hi;        /* the shard's configurations [lo, hi) */
    int valid_only;
    int force;
    int per;                /* --per given: Monte Carlo columns */
    unsigned runs;
    unsigned long long seed;
    int signs;              /* some --auth value is a sig mode: ML-DSA signing's columns */
    int lesc;               /* some --kem value is LE SC: its named parts' columns */
    int chain;              /* --link 802154 with --hops or --forwarding: the chain's columns */
    /* Held while a worker loads an environment (NULL: one thread): cJSON, which reads the
     * profile and calibration files, writes a global error position on every parse. */
    pthread_mutex_t *env_lock;
};

/* ---- sweep_row.c: one configuration's row ---- */

/* What a worker keeps between configurations: the loaded environment (with its key), the
 * simulator, buffers. */
struct sweep_worker;

struct sweep_worker *sweep_worker_new(const struct sweep_cfg *cfg);
void sweep_worker_free(struct sweep_worker *w);

/* The header line (CSV) or nothing (JSON Lines). */
void sweep_write_header(FILE *f, const struct sweep_cfg *cfg);

/* Writes the row of configuration c to f (nothing when --valid-only and c is not valid).
 * A cli.h exit code: not EXIT_OK only when the sweep cannot go on (an environment failed
 * to load, out of memory), with the reason in *msg. */
int sweep_write_row(FILE *f, struct sweep_worker *w, uint64_t c, struct cli_msg *msg);

/* Loads the environment of every value of every energy option (the others at their first
 * value) before any work: a profile or calibration file that does not load stops the
 * sweep. A cli.h exit code, message printed. */
int sweep_check_envs(const struct sweep_cfg *cfg);

/* ---- sweep_run.c: the rows on threads, in order, to the output ---- */

struct sigaction;

/* SIGINT from now on stops the sweep (sweep_run returns SWEEP_EXIT_INTERRUPTED) instead
 * of the process; sweep_sigint_restore puts the previous action back. */
void sweep_sigint_catch(struct sigaction *old);
void sweep_sigint_restore(const struct sigaction *old);

/* Runs configurations [cfg->lo, cfg->hi) on cfg->jobs threads and writes their rows in
 * order to out (the header already written). Returns a cli.h exit code, or
 * SWEEP_EXIT_INTERRUPTED after SIGINT with every row done up to the first one not done
 * written. */
int sweep_run(FILE *out, const struct sweep_cfg *cfg);

/* The sweep's own options (sweep.c), as data (opts.h). */
extern const struct cli_opt_table sweep_opts_table;
/* `sweep merge`'s options (cli/sweep_merge.c). */
extern const struct cli_opt_table sweep_merge_table;

/* ---- sweep_output.c ---- */

struct sweep_output {
    FILE *f;                 /* stdout or file.f */
    const char *path;        /* NULL: stdout */
    struct cli_outfile file; /* path through path.tmp.PID */
};

/* stdout (path NULL) or a temporary file next to path. EXIT_OK, or EXIT_IO (message
 * printed) when it cannot be written: a directory, a missing directory, no permission. */
int sweep_output_open(struct sweep_output *o, const char *path);

/* Closes the output: the file is renamed to its path when rc is EXIT_OK or
 * SWEEP_EXIT_INTERRUPTED, else removed. Returns rc, or EXIT_IO (message printed) when
 * the output could not be written. */
int sweep_output_close(struct sweep_output *o, int rc);

/* ---- sweep_merge.c ---- */

int sweep_merge_run(int argc, char **argv);

#endif
