/* pqpan idle --link 802154's printer (cli/idle_802154.c): the rows of pqpan_run "idle" on
 * PQPAN_RUN_LINK_802154 as a table, CSV or JSON. */
#ifndef PQPAN_CLI_IDLE_802154_H
#define PQPAN_CLI_IDLE_802154_H

#include <stdio.h>

#include "opts.h"
#include "pqpan/run.h"

/* What the printer keeps between rows: the period's figures (their numbers only are read
 * after the run: its words point into what the run frees) and the phases printed. */
struct poll_printer {
    enum cli_format format;
    struct pqpan_run_poll_row row;
    size_t phases;
};

/* Prints an IDLE or PHASE row of the run to out (the period's heading, one line per phase);
 * -1 for any other record. */
int idle_802154_keep(struct poll_printer *pp, FILE *out, const struct pqpan_run_row *row);

/* The lines after the phases: the table's summary, CSV's "poll" and "period" rows, JSON's
 * closing of "phases" and the period's members (no closing brace). */
void idle_802154_finish(const struct poll_printer *pp, FILE *out);

#endif
