/* Private to the run layer and its faces: simulate's options as data (the CLI's help and
 * `pqpan help --json` list them; pqpan_run "simulate" parses a request with them). */
#ifndef PQPAN_RUN_SIMULATE_H
#define PQPAN_RUN_SIMULATE_H

#include "lowpan_sim.h"
#include "model.h"
#include "run_opts.h"

/* --transport, --per, --ber, --seed, --supervision-timeout-ms, --pcap, --trace,
 * --trace-side, --adv-case (BLE). */
extern const struct cli_opt_table simulate_opts_table;

/* The row of option name among simulate's tables on BLE (the energy options, --format,
 * --protocol, the link, set-up and PQKE options, the simulation options), NULL if none. */
const struct cli_opt *simulate_opt_row(const char *name);

/* simulate --link 802154's request: the energy options, the 802.15.4 link and the
 * simulation options (simulate_802154_table's base). */
struct lowpan_sim_opts {
    struct model_opts m;
    struct lowpan_opts l;
    struct lowpan_sim_cfg s;
    const char *pcap;
};

/* Sets *(struct lowpan_sim_opts *)p to the defaults. */
void simulate_802154_opts_init(void *p);

/* --nodes, --load, --frame-bytes, --hidden, --capture, --reasm-timeout, --dgram-retries,
 * --runs, --seed, --pcap (--link 802154). */
extern const struct cli_opt_table simulate_802154_table;

/* The row of option name among simulate's tables with --link 802154, NULL if none. */
const struct cli_opt *simulate_802154_opt_row(const char *name);

#endif
