/* Output directories and gnuplot figures for `advise --out` (the run layer's) and the
 * CLI's `reproduce --out` and `compare --out`. */
#ifndef PQPAN_RUN_FIGURE_H
#define PQPAN_RUN_FIGURE_H

#include <stdio.h>

#include "outfile.h"
#include "run_text.h"

/* Creates dir (if missing): EXIT_OK, EXIT_USAGE (a name with a quote, which the gnuplot
 * command line cannot take) or EXIT_IO, with the message in *msg. */
int figure_dir(const char *dir, struct cli_msg *msg);

/* Opens dir/name for writing through a temporary name (outfile.h); an exit code,
 * message printed. */
int figure_open(struct cli_outfile *o, const char *cmd, const char *dir, const char *name);

/* Closes o and renames it into place; EXIT_IO (message printed) on a write error. */
int figure_close(struct cli_outfile *o, const char *cmd);

/* Writes gnuplot commands that render plot (one plot command, newline-terminated) into
 * stem.svg and stem.png, 900 x 540 each. */
void figure_render(FILE *f, const char *stem, const char *plot);

/* Runs gnuplot on dir/script in dir (every output stream flushed first, so that what
 * gnuplot prints comes after it). EXIT_FAILURE_RUN (message printed) on failure. */
int figure_gnuplot(const char *cmd, const char *dir, const char *script);

#endif
