/* The PQKE over 6LoWPAN / IEEE 802.15.4 as the CLI runs it (`estimate --link 802154`,
 * `simulate --link 802154`, `compare`): options, the analytic estimator
 * (src/ieee802154/estimate.c) and the contention simulator (src/sim/net154.c)
 * → per-side rows of the BLE model's field table (ble_model.h), energy from src/energy. */
#ifndef PQPAN_CLI_LOWPAN_MODEL_H
#define PQPAN_CLI_LOWPAN_MODEL_H

#include <stdio.h>

#include "ble_model.h"
#include "chain.h"
#include "link_opts.h"
#include "lowpan.h"
#include "lowpan_sim.h"
#include "pqpan/ieee802154.h"

/* Tries argv[*i] as an 802.15.4 link option (--link 802154 included). Returns 1 if
 * consumed, 0 if not one, -1 after a usage error. */
int lowpan_opts_parse(struct lowpan_opts *o, const char *cmd, int argc, char **argv, int *i);

/* Help lines for the link options. */
void lowpan_opts_help(FILE *out);

/* 1 if argv holds "--link 802154". */
int lowpan_link_requested(int argc, char **argv);

/* One NODE row of pqpan_run (a node of the chain, --hops > 1) as a table line, a CSV line
 * or a JSON object of "nodes", the header (or the member's opening) before the first
 * (printed: the NODE rows printed before this one). */
void lowpan_print_node_row(enum cli_format format, unsigned printed, const struct pqpan_run_row *row);

/* "unknown option" for opt on the BLE link of cmd, or that it needs --link 802154.
 * Returns EXIT_USAGE. */
int lowpan_unknown_option(const char *cmd, const char *opt, int sim);


/* simulate --link 802154 (cli/simulate_802154.c): help section and run. */
void simulate_802154_help(FILE *out);
int simulate_802154_run(int argc, char **argv);

#endif
