/* Private to the run layer and its faces: calibrate's options as data (the CLI's help and
 * `pqpan help --json` list them; pqpan_run "calibrate" takes them). */
#ifndef PQPAN_RUN_CALIBRATE_H
#define PQPAN_RUN_CALIBRATE_H

#include "run_opts.h"

/* --protocol, --trace, --side, --voltage, --baseline-ua, --phases, --ops, --comm-model,
 * --overlap, --out. */
extern const struct cli_opt_table calibrate_opts_table;

/* The row of option name among calibrate's tables (its own, the BLE link's, the energy
 * options but the γ ones, --format) or among the γ options (which pqpan_run "calibrate"
 * refuses: the fit compares with the model at γ = 1), or NULL. */
const struct cli_opt *calibrate_opt_row(const char *name);

#endif
