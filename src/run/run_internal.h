/* Private to the run layer: what every command's run shares (run.c) — the request's values
 * copied where a run may respell them, errors as PQPAN_ERR_* codes with a message, and
 * rows passed to the caller's emit. */
#ifndef PQPAN_RUN_INTERNAL_H
#define PQPAN_RUN_INTERNAL_H

#include <stdio.h>

#include "pqpan/run.h"
#include "run_opts.h"

/* The request's values, copied (a word is respelled in place, CLI_STORE_STR keeps the
 * pointer): at most this many octets in all. */
#define RUN_VALUES_MAX 8192

struct run_ctx {
    pqpan_run_emit emit;
    void *ctx;
    struct pqpan_run_error *err;
    size_t used;
    char values[RUN_VALUES_MAX];
};

/* A run's context for emit, ctx and err (*err cleared), after checking the request's
 * shape: PQPAN_OK and *out to free, or PQPAN_ERR_INVALID_ARG, PQPAN_ERR_CAPACITY. */
int run_start(struct run_ctx **out, const struct pqpan_run_opt *opts, size_t n_opts,
              pqpan_run_emit emit, void *ctx, struct pqpan_run_error *err);

/* Fills *r->err from an exit code (run_text.h) and a message about option ("" or NULL:
 * none); returns the PQPAN_ERR_* code. */
int run_fail(struct run_ctx *r, int exit_code, const char *option, const char *message);

/* A writable copy of v (NULL for NULL) in r->values; NULL (and *r->err filled) when full. */
char *run_value_copy(struct run_ctx *r, const char *v);

/* Stores opt's value into base through table row o: PQPAN_OK or the error. */
int run_set(struct run_ctx *r, const struct cli_opt *o, void *base, const struct pqpan_run_opt *opt);

/* "unknown option 'NAME'; did you mean ...?" among the options of tables[0..n). */
int run_unknown(struct run_ctx *r, const char *name, const struct cli_opt_table *const *tables,
                size_t n);

/* Passes what render writes (called with f and arg) as rows of record rec: one NOTE row per
 * line, one MEMBERS row for all of it. PQPAN_OK or the error. */
int run_render(struct run_ctx *r, enum pqpan_run_record rec,
               void (*render)(FILE *f, const void *arg), const void *arg);

/* One WARNING row. */
int run_warning(struct run_ctx *r, const char *text);

/* The sides rows[0..PQPAN_RUN_SIDES) of an exchange on link, groups their shown fields. */
int run_sides(struct run_ctx *r, enum pqpan_run_link link, unsigned groups,
              const struct pqpan_run_exchange_row *rows);

/* Emits *row (its record, link, groups, fields and n_fields set; exchange if any) with its
 * values read from data, the struct of its fields (n_fields at most PQPAN_RUN_FIELDS_MAX).
 * PQPAN_OK or the error. */
int run_emit_row(struct run_ctx *r, struct pqpan_run_row *row, const void *data);

/* One row of record rec on link from data, the struct of fields[0..n) (n at most
 * PQPAN_RUN_FIELDS_MAX). PQPAN_OK or the error. */
int run_record(struct run_ctx *r, enum pqpan_run_record rec, enum pqpan_run_link link,
               const struct pqpan_run_field *fields, size_t n, const void *data);

/* Whether the request asks for --link 802154. */
int run_wants_802154(const struct pqpan_run_opt *opts, size_t n_opts);

/* A progress callback of lowpan_simulate (lowpan_sim.h) that emits PROGRESS rows; ctx a
 * struct run_progress whose r is set and stopped 0 (1 once the caller stopped the run). */
struct run_progress {
    struct run_ctx *r;
    int stopped;
};
void run_on_progress(void *ctx, unsigned done, unsigned runs);

/* The command runs (run_*.c). */
int run_estimate(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_idle(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_sweep(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_profiles(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);

/* trace (run_trace.c). */
int run_trace(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_idle_802154(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_simulate(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_simulate_802154(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_calibrate(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
/* --link ble-mesh: estimate, or simulate when simulated (run_mesh.c). */
int run_mesh(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts, int simulated);
/* Whether the request asks for --link link. */
int run_wants_link(const struct pqpan_run_opt *opts, size_t n_opts, const char *link);
int run_compare(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
int run_reproduce(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
/* advise (run_advise.c), --out's figures included. */
int run_advise(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);
/* advise --link ble-mesh (run_advise_mesh.c). */
int run_advise_mesh(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts);

#endif
