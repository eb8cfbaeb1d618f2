/* Output directories and gnuplot figures for `reproduce --out` and `compare --out`. */
#ifndef PQPAN_CLI_FIGURE_H
#define PQPAN_CLI_FIGURE_H

#include <stdio.h>

/* Creates dir (if missing). A cli.h exit code, message printed. */
int figure_dir(const char *cmd, const char *dir);

/* Opens dir/name for writing, or prints why not and returns NULL. */
FILE *figure_open(const char *cmd, const char *dir, const char *name);

/* Closes f; EXIT_IO (message printed) on a write error. */
int figure_close(const char *cmd, FILE *f, const char *name);

/* Writes gnuplot commands that render plot (one plot command, newline-terminated) into
 * stem.svg and stem.png, 900 x 540 each. */
void figure_render(FILE *f, const char *stem, const char *plot);

/* Runs gnuplot on dir/script in dir. EXIT_FAILURE_RUN (message printed) on failure. */
int figure_gnuplot(const char *cmd, const char *dir, const char *script);

#endif
