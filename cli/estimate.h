/* The options of `pqpan estimate`, parsed one at a time by the same functions for
 * `estimate` and `sweep` (which runs them for every configuration of a grid): energy
 * options (model_opts), then the link's: BLE (--protocol and link_opts) or, with
 * --link 802154, the 802.15.4 link (lowpan_opts). An option added to those parsers is
 * an option of both commands. */
#ifndef PQPAN_CLI_ESTIMATE_H
#define PQPAN_CLI_ESTIMATE_H

#include "ble_model.h"
#include "link_opts.h"
#include "lowpan_model.h"
#include "run_estimate.h"

struct estimate_opts {
    int lowpan;           /* 1: --link 802154 */
    struct model_opts m;  /* energy options */
    struct link_opts l;   /* BLE: link options and --protocol (l.cfg.protocol) */
    struct lowpan_opts w; /* 802.15.4 link options */
};


/* Defaults of the BLE link (lowpan 0) or of --link 802154 (lowpan 1). */
void estimate_opts_init(struct estimate_opts *o, int lowpan);

/* Tries argv[*i] (and its value) as a link or protocol option of the link o->lowpan says.
 * Returns 1 if consumed (*i advanced past its value), 0 if it is not one, or -1 after
 * printing a usage error naming the option and value. */
int estimate_link_parse(struct estimate_opts *o, const char *cmd, int argc, char **argv, int *i);

/* The same for any option of estimate: energy options first, then the link's. */
int estimate_opts_parse(struct estimate_opts *o, const char *cmd, int argc, char **argv, int *i);

/* The table row of option name on o's link, or NULL. */
const struct cli_opt *estimate_opt_find(const struct estimate_opts *o, const char *name);

/* If opt takes one word of a finite set on this link (--kem, --phy, --profile, ...),
 * passes each to add (which copies what it keeps) and returns 1; else 0. */
int estimate_opts_choices(const struct estimate_opts *o, const char *opt, cli_word_fn add,
                          void *ctx);

#endif
