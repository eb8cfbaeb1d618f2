/* Private to the run layer and its faces: trace's options as data (the CLI's help and
 * `pqpan help --json` list them; pqpan_run "trace" takes them). */
#ifndef PQPAN_RUN_TRACE_H
#define PQPAN_RUN_TRACE_H

#include "run_opts.h"

/* The name of the request's pair that carries trace's FILE (the CLI's argument, not an
 * option of the table). */
#define TRACE_FILE "FILE"

/* --voltage, --phases, --window, --baseline-ua, --baseline-percentile, --segments,
 * --lenient. */
extern const struct cli_opt_table trace_opts_table;

/* The row of option name among trace's tables (its options, --format), or NULL. */
const struct cli_opt *trace_opt_row(const char *name);

#endif
