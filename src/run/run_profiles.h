/* Private to the run layer and its faces: the options of pqpan_run "profiles" (--show
 * NAME|FILE, --format), which the CLI turns `pqpan profiles [show NAME]` into. */
#ifndef PQPAN_RUN_PROFILES_H
#define PQPAN_RUN_PROFILES_H

#include "run_opts.h"

/* The row of option name among profiles' (--show, --format), or NULL. */
const struct cli_opt *profiles_opt_row(const char *name);

#endif
