/* pqpan idle's battery figures: the idle link's average current (BLE connection or
 * 802.15.4 poll) plus one key exchange every --rekey-every, as battery life from
 * --battery-mah — the arithmetic of `pqpan advise` (include/pqpan/advise.h
 * pqpan_advise_battery) for an exchange whose energy the caller gives (--exchange-uj:
 * the battery side's, e.g. `pqpan estimate`'s "exchange on an open link, events"). Private
 * to the run layer and its faces: pqpan_run "idle" takes the options and emits the figures
 * as a BATTERY row (run.h struct pqpan_run_idle_battery). */
#ifndef PQPAN_RUN_IDLE_BATTERY_H
#define PQPAN_RUN_IDLE_BATTERY_H

#include "pqpan/advise.h"
#include "pqpan/run.h"
#include "run_advise.h"

struct run_ctx;

struct idle_battery_opts {
    struct advise_opts adv; /* advise's battery rows: --battery-mah, --app-ua,
                               --self-discharge-pct-year, --battery-derate, --rekey-every */
    double exchange_uj;     /* --exchange-uj; <= 0: not given, no battery figures */
    double exchange_ms;     /* --exchange-ms: the time the exchange occupies */
    const char *given;      /* the first of advise's rows given (for the message when
                               --exchange-uj is missing), or NULL */
};

/* --exchange-uj and --exchange-ms (`pqpan help --json`: idle's "battery" group). */
extern const struct cli_opt_table idle_battery_table;
/* The rows of advise's "device and its battery" table that idle takes. */
extern const char *const idle_battery_advise_opts[];

void idle_battery_init(struct idle_battery_opts *b);

/* The row of option name among the battery options (idle_battery_table, advise's rows idle
 * takes), or NULL: the CLI builds idle's request with it. */
const struct cli_opt *idle_battery_row(const char *name);

/* What idle_battery_take answers for an option that is not a battery option. */
#define IDLE_BATTERY_NOT_MINE 1

/* Stores opt into b when it is a battery option: PQPAN_OK, a PQPAN_ERR_* code (a bad value,
 * *r's error filled), or IDLE_BATTERY_NOT_MINE. */
int idle_battery_take(struct run_ctx *r, struct idle_battery_opts *b,
                      const struct pqpan_run_opt *opt);

/* PQPAN_OK, or PQPAN_ERR_INVALID_ARG when one of advise's battery rows came without
 * --exchange-uj (naming it) or the figures are asked for as CSV (they are a table's lines
 * or a JSON object). */
int idle_battery_check(struct run_ctx *r, const struct idle_battery_opts *b,
                       enum cli_format format);

/* The figures for the idle link's average current idle_ua and the supply supply_v (energy
 * to charge) on the battery side, as one BATTERY row on link: PQPAN_OK, or
 * PQPAN_ERR_INVALID_ARG naming --exchange-ms when the exchange does not fit in the rekey
 * interval. */
int idle_battery_emit(struct run_ctx *r, enum pqpan_run_link link,
                      const struct idle_battery_opts *b, double idle_ua, double supply_v,
                      const char *side);

#endif
