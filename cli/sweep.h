/* pqpan sweep: `estimate` over a grid of configurations (cli/sweep.c), run by the run layer
 * (src/run/run_sweep.h: the grid, the plan, one configuration's rows). Internal to the
 * sweep's files: the rows written (sweep_row.c), the run on worker threads (sweep_run.c)
 * and the joining of shards (sweep_merge.c). */
#ifndef PQPAN_CLI_SWEEP_H
#define PQPAN_CLI_SWEEP_H

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "ble_sim.h"
#include "estimate.h"
#include "outfile.h"
#include "run_sweep.h"

/* Exit code of a sweep stopped by SIGINT (128 + SIGINT, the shell's convention). */
#define SWEEP_EXIT_INTERRUPTED 130

/* ---- sweep_row.c: one configuration's row ---- */

/* What a thread writes with: the run layer's worker (run_sweep.h) and the state of the
 * columns the CLI adds (the simulator of --per, the chain's figures). */
struct sweep_writer;

struct sweep_writer *sweep_writer_new(const struct sweep_cfg *cfg);
void sweep_writer_free(struct sweep_writer *w);

/* The header line (CSV) or nothing (JSON Lines). */
void sweep_write_header(FILE *f, const struct sweep_cfg *cfg);

/* Writes the row of configuration c to f (nothing when --valid-only and c is not valid).
 * A cli.h exit code: not EXIT_OK only when the sweep cannot go on (an environment failed
 * to load, out of memory), with the reason in *msg. */
int sweep_write_row(FILE *f, struct sweep_writer *w, uint64_t c, struct cli_msg *msg);

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
