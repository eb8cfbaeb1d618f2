/* Private to the run layer and its faces: idle's BLE options as data (the CLI's help and
 * `pqpan help --json` list them; pqpan_run "idle" takes them). */
#ifndef PQPAN_RUN_IDLE_H
#define PQPAN_RUN_IDLE_H

#include "run_opts.h"

/* --idle-phy, --idle-ci-ms, --idle-latency, --role. */
extern const struct cli_opt_table idle_opts_table;

/* The row of option name among idle's tables on BLE (the link options, the device's energy
 * figures and ramp-up, --format), what pqpan_run "idle" takes, or NULL. */
const struct cli_opt *idle_opt_row(const char *name);

/* --poll-ms: idle --link 802154's own option. */
extern const struct cli_opt_table idle_802154_table;

/* The tables idle --link 802154 takes, in the order help lists them; *n their count. */
const struct cli_opt_table *const *idle_802154_tables(size_t *n);

/* The row of option name among idle --link 802154's tables, or among the tables of estimate
 * --link 802154 it refuses (pqpan_run "idle" says they do not apply), or NULL. */
const struct cli_opt *idle_802154_opt_row(const char *name);

#endif
