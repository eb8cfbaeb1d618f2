/* reproduce's run (src/run/run_reproduce.c): its options, shared with the CLI
 * (cli/reproduce.c turns argv into a request with them). Private to the run layer and its
 * faces. */
#ifndef PQPAN_RUN_REPRODUCE_H
#define PQPAN_RUN_REPRODUCE_H

#include "model.h"
#include "run_opts.h"

struct repro_opts {
    struct model_opts m;
    const char *out_dir;
    int first, last; /* the readings asked for (--reading) */
};

/* reproduce's own options (--reading, --out). */
extern const struct cli_opt_table reproduce_opts_table;

/* The row of option name among reproduce's tables (its own, the energy options, --format);
 * NULL: none. */
const struct cli_opt *reproduce_opt_row(const char *name);

#endif
