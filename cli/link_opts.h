/* The BLE link options shared by `estimate` and `simulate` (and anything else that runs
 * one BLE configuration): KEM, PHY, ATT_MTU, LL size, transfer method, connection
 * interval and event limits, reply timing, KeyGen side, encryption, the set-up before
 * the exchange (advertising, feature exchange, parameter update, discovery) and the pqpan
 * protocol's authentication mode (--auth; cfg.pqke_mode). */
#ifndef PQPAN_CLI_LINK_OPTS_H
#define PQPAN_CLI_LINK_OPTS_H

#include <stdio.h>

#include "cli.h"
#include "link.h"
#include "opts.h"

/* Tries argv[*i] as --auth, --sig or --hybrid with its value: 1 if consumed (*i advanced),
 * 0 if not one of them, -1 after a usage error. */
int link_pqke_parse(struct link_pqke *p, const char *cmd, int argc, char **argv, int *i);

/* Tries argv[*i] (and its value) as a link option. Returns 1 if consumed (*i advanced past
 * its value), 0 if it is not one, or -1 after printing a usage error. */
int link_opts_parse(struct link_opts *o, const char *cmd, int argc, char **argv, int *i);

/* Help lines for the link options (with units and defaults). */
void link_opts_help(FILE *out);

#endif
