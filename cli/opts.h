/* Options as data: every option of the CLI is described once, in a table (name, kind,
 * unit, range, default, help line, where it is stored), and the tables drive parsing,
 * range checks and their messages, `--help`, the man page (generated from help),
 * docs/CLI.md's option lists (`pqpan help --options-md CMD`) and a machine-readable dump
 * (`pqpan help --json`) for the Python package and the web page. */
#ifndef PQPAN_CLI_OPTS_H
#define PQPAN_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "pqpan/run.h"
#include "run_opts.h"

/* Checks v against o and stores it at base + o->offset. 0, or -1 after a usage error of
 * cmd naming the option, the value and what is allowed (cli_opt_set_msg's message). */
int cli_opt_set(const struct cli_opt *o, void *base, const char *cmd, const char *v);

/* Tries argv[*i] as an option of t with its value (argv[*i + 1]), stored into base.
 * 1 if consumed (*i advanced past its value), 0 if not an option of t, -1 after a usage
 * error (missing or bad value). */
int cli_opt_take(const struct cli_opt_table *t, void *base, const char *cmd, int argc,
                 char **argv, int *i);

/* The same for the options of t listed in only (a command that takes part of a table). */
int cli_opt_take_only(const struct cli_opt_table *t, const char *const *only, void *base,
                      const char *cmd, int argc, char **argv, int *i);

/* Parses argv[first..argc) as options of t only, stored into base: EXIT_OK, or EXIT_USAGE
 * after a message (an unknown option, a missing or bad value). For commands with one table
 * and no operands (kem, sig, ecdh after their operation word). */
int cli_opt_parse_all(const struct cli_opt_table *t, void *base, const char *cmd, int argc,
                      char **argv, int first);

/* A table bound to the struct its options are stored in (and, with only, part of it). */
struct cli_opt_bind {
    const struct cli_opt_table *t;
    void *base;
    const char *const *only;
};

/* Tries argv[*i] against each bound table in turn (as cli_opt_take_only). */
int cli_opt_take_any(const struct cli_opt_bind *b, size_t n, const char *cmd, int argc,
                     char **argv, int *i);


/* A paragraph (wrapped as help is) of before, the names of the options of tables[0..n)
 * that take words (--link aside), and after. */
void cli_opt_names_with_words(FILE *out, const struct cli_opt_table *const *tables, size_t n,
                              const char *before, const char *after);

/* Help lines: the title (if any), then one entry per option: name and meta,
 * then help, what is allowed and the default, wrapped under column 25. */
void cli_opt_table_help(FILE *out, const struct cli_opt_table *t);

/* The same without the title: the entries only. */
void cli_opt_rows_help(FILE *out, const struct cli_opt_table *t);
void cli_opt_rows_help_only(FILE *out, const struct cli_opt_table *t, const char *const *only);

/* The table (its options listed in only, NULL: all; but those in except, NULL: none) as one
 * JSON object {"id", "title", "options": [{name, kind, meta, unit, min, max, words, default,
 * default_note, help, allowed}]}, after indent. */
void cli_opt_table_json(FILE *out, const struct cli_opt_table *t, const char *const *only,
                        const char *const *except, const char *indent);

/* s as a JSON string, or null for NULL. */
void cli_json_string_or_null(FILE *out, const char *s);

/* s in a Markdown table cell: '|' escaped. */
void cli_md_cell(FILE *out, const char *s);

/* The header of a Markdown table of options (option, meaning, values, default), and the
 * rows of t in it (docs/CLI.md's option lists): all, or those named in only_csv
 * ("--idle,--backoff") and in only (NULL-terminated; NULL: all), but those in except
 * (NULL-terminated; NULL: none). */
void cli_opt_md_header(FILE *out);
void cli_opt_table_md(FILE *out, const struct cli_opt_table *t, const char *only_csv,
                      const char *const *only, const char *const *except);

/* ---- argv as a request of pqpan_run ---- */

/* The most options a command line gives. */
#define CLI_REQUEST_MAX 256

/* Appends argv[*i], option row o, to req[0..*n) with its value (argv[*i + 1], *i moved past
 * it; a flag has none). EXIT_OK, or EXIT_USAGE after a message (no value, too many). */
int cli_request_add(struct pqpan_run_opt *req, size_t *n, const struct cli_opt *o,
                    const char *cmd, int argc, char **argv, int *i);

/* --format's word in req[0..n) (the last given; table when none; a bad one is the run's
 * to refuse before any row). */
enum cli_format cli_request_format(const struct pqpan_run_opt *req, size_t n);

/* A text row of pqpan_run as every printer takes it: a NOTE as its line in a table output,
 * MEMBERS after "{" in a JSON output (the caller closes it), a WARNING on stderr as
 * "pqpan CMD: warning: ..."; other records are left to the caller. */
void cli_print_text_row(const char *cmd, enum cli_format format, const struct pqpan_run_row *row);

/* A pqpan_run result (code, *err) as the CLI's exit status: a usage error's message
 * followed by "Try 'pqpan help CMD'" (exit 2), any other error's message alone, on stderr.
 * Every face of a run reports its errors so (the web page's web-run too). */
int cli_run_status(const char *cmd, int code, const struct pqpan_run_error *err);

#endif
