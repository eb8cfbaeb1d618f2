/* pqpan idle's battery figures: the idle link's average current (BLE connection or
 * 802.15.4 poll) plus one key exchange every --rekey-every, as battery life from
 * --battery-mah — the arithmetic of `pqpan advise` (include/pqpan/advise.h
 * pqpan_advise_battery) for an exchange whose energy the caller gives (--exchange-uj:
 * the battery side's, e.g. `pqpan estimate`'s "exchange on an open link, events"). */
#ifndef PQPAN_CLI_IDLE_BATTERY_H
#define PQPAN_CLI_IDLE_BATTERY_H

#include <stdio.h>

#include "run_advise.h"
#include "pqpan/advise.h"

struct idle_battery_opts {
    struct advise_opts adv; /* advise's battery rows: --battery-mah, --app-ua,
                               --self-discharge-pct-year, --battery-derate, --rekey-every */
    double exchange_uj;     /* --exchange-uj; <= 0: not given, no battery figures */
    double exchange_ms;     /* --exchange-ms: the time the exchange occupies */
    const char *given;      /* the first battery option given (for the message when
                               --exchange-uj is missing), or NULL */
};

/* --exchange-uj and --exchange-ms (`pqpan help --json`: idle's "battery" group). */
extern const struct cli_opt_table idle_battery_table;
/* The rows of advise's "device and its battery" table that idle takes. */
extern const char *const idle_battery_advise_opts[];

void idle_battery_init(struct idle_battery_opts *b);

/* Tries argv[*i] as a battery option (as cli_opt_take: 1 consumed, 0 not one, -1 error). */
int idle_battery_take(struct idle_battery_opts *b, const char *cmd, int argc, char **argv,
                      int *i);

/* Help lines of the battery options. */
void idle_battery_help(FILE *out);

/* Whether the battery figures are asked for; EXIT_USAGE (message printed) when a battery
 * option came without --exchange-uj or with --format csv. */
int idle_battery_check(const struct idle_battery_opts *b, enum cli_format format, int *wanted);

/* *out for the idle link's average current idle_ua and the profile's supply_v (energy to
 * charge). EXIT_OK, or EXIT_USAGE with a message. */
int idle_battery_compute(struct pqpan_advise_battery *out, const struct idle_battery_opts *b,
                         double idle_ua, double supply_v);

/* The figures after idle's own: table lines, or a JSON member ",\n  \"battery\": {...}"
 * (side: the battery side's name). */
void idle_battery_print_table(const struct idle_battery_opts *b,
                              const struct pqpan_advise_battery *r, double idle_ua,
                              double supply_v, const char *side);
void idle_battery_print_json(const struct idle_battery_opts *b,
                             const struct pqpan_advise_battery *r, double idle_ua,
                             double supply_v, const char *side);

#endif
