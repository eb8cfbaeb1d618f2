/* Shared pieces of the pqpan command-line tool (not part of the library). */
#ifndef PQPAN_CLI_H
#define PQPAN_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run_text.h"

/* One subcommand: `pqpan NAME ...`. run() gets argv with argv[0] == NAME. */
struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *out);
};

/* The subcommand table (main.c). Terminated by a row whose name is NULL. */
extern const struct cli_command cli_commands[];

/* Prints "pqpan CMD: usage: ..." style short usage to stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* --out DIR of cmd created (figure.h figure_dir): its exit code, the message printed as a
 * usage error (a name with a quote) or an I/O one. */
int cli_figure_dir(const char *cmd, const char *dir);

/* Prints "pqpan CMD: warning: ..." on stderr: an option or input that has no effect, or
 * figures that describe an unlikely case (the run goes on, exit status unchanged). */
void cli_warn(const char *cmd, const char *fmt, ...);

/* A progress line for long runs, on stderr only when it is a terminal ("\rpqpan CMD: WHAT
 * k/N", rewritten when the percentage changes, erased at the end): data and files are
 * never touched. */
struct cli_progress {
    const char *cmd, *what;
    unsigned long long total;
    unsigned last_pct;
    int on;
};
void cli_progress_start(struct cli_progress *p, const char *cmd, const char *what,
                        unsigned long long total);
void cli_progress_step(struct cli_progress *p, unsigned long long done);
void cli_progress_end(struct cli_progress *p);

/* A progress callback of the run layer's Monte Carlo (lowpan_sim.h): ctx a struct
 * cli_progress whose cmd is set; "802.15.4 run k/N" (started at done 0, ended at runs). */
void cli_progress_runs(void *ctx, unsigned done, unsigned runs);

/* 1 if --help or -h is among argv[1..argc), wherever it stands (e.g. after --link 802154). */
int cli_wants_help(int argc, char **argv);

/* 1 if "--link LINK" is among argv[1..argc) (a command that dispatches on its link before
 * it parses). */
int cli_link_requested(int argc, char **argv, const char *link);

/* Prints "pqpan CMD: MESSAGE" on stderr when rc is not EXIT_OK. Returns rc. */
int cli_msg_report(const char *cmd, int rc, const struct cli_msg *m);

/* "pqpan CMD: unknown WHAT 'V' (want WORDS); did you mean ...?" (the nearest of words) on
 * stderr; EXIT_USAGE. */
int cli_unknown_word(const char *cmd, const char *what, const char *v, const char *const *words);

/* "--NAME=VALUE" as the two arguments "--NAME" "VALUE", for every command: argv's strings
 * are split in place (the '=' becomes the end of the name) into out, which holds
 * 2 * argc + 1 pointers; returns the new count. Only the first '=' splits, and only
 * after a name of letters, digits and '-'. */
int cli_split_assignments(int argc, char **argv, char **out);

/* Decodes hex (upper or lower case) into out; exactly want bytes expected.
 * Returns 0, or -1 on a bad digit / odd length / wrong length. */
int cli_hex_decode(uint8_t *out, size_t want, const char *hex);

/* Decodes hex of any even length up to cap bytes into out; *len gets the byte count.
 * Returns 0, or -1 on an odd length, a bad digit or more than cap bytes. */
int cli_hex_decode_any(uint8_t *out, size_t cap, size_t *len, const char *hex);

/* len bytes of the operating system's randomness (getrandom(2), platform.h: the CLI's
 * random source; the library never reads one). Returns 0, or -1 when it fails. */
int cli_random(uint8_t *out, size_t len);

/* Decodes --name HEX into exactly want bytes; "pqpan CMD: --name: ..." on stderr and
 * EXIT_BAD_INPUT otherwise. */
int cli_decode_hex_exact(uint8_t *out, size_t want, const char *cmd, const char *name,
                         const char *hex);

/* Prints "name":"<lowercase hex>" to stdout, opening the JSON object when first, else
 * after a comma. */
void cli_print_hex_field(const char *name, const uint8_t *p, size_t len, int first);

/* Writes len bytes as lowercase hex to f. */
void cli_hex_print(FILE *f, const uint8_t *p, size_t len);

/* s as a CSV field, quoted when it holds a comma, quote or line end (RFC 4180). */
void cli_csv_string(FILE *f, const char *s);

/* The same, written to f. */
void cli_print_fixed(FILE *f, double x, int decimals);

#endif
