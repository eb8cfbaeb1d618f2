/* Private to the run layer and its faces: simulate's options as data (the CLI's help and
 * `pqpan help --json` list them; pqpan_run "simulate" parses a request with them). */
#ifndef PQPAN_RUN_SIMULATE_H
#define PQPAN_RUN_SIMULATE_H

#include "run_opts.h"

/* --transport, --per, --ber, --seed, --supervision-timeout-ms, --pcap, --trace,
 * --trace-side, --adv-case (BLE). */
extern const struct cli_opt_table simulate_opts_table;

/* The row of option name among simulate's tables on BLE (the energy options, --format,
 * --protocol, the link, set-up and PQKE options, the simulation options), NULL if none. */
const struct cli_opt *simulate_opt_row(const char *name);

#endif
