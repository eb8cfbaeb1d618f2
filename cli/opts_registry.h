/* The option tables of each command (opts.h), in the order its help lists them. */
#ifndef PQPAN_CLI_OPTS_REGISTRY_H
#define PQPAN_CLI_OPTS_REGISTRY_H

#include <stdio.h>

#include "opts.h"

/* One table a command reads, on one link ("ble", "802154") or on both (NULL): all its
 * options, those in only, or all but those in except (each NULL-terminated; NULL: no
 * restriction). */
struct cli_opt_group {
    const struct cli_opt_table *table;
    const char *link;
    const char *const *only;
    const char *const *except;
};

/* Whether group g takes option name (cli_opt_taken over its only and except). */
int cli_opt_group_takes(const struct cli_opt_group *g, const char *name);

struct cli_cmd_opts {
    const char *cmd;
    const struct cli_opt_group *groups;
    size_t n;
    int complete; /* 1: every option the command accepts is in its tables */
};

/* Every command with tables; the last row's cmd is NULL. */
extern const struct cli_cmd_opts cli_cmd_opts[];

/* The row of cmd, or NULL. */
const struct cli_cmd_opts *cli_cmd_opts_find(const char *cmd);

/* The nearest option names of cmd (its registry rows: "cmd" and "cmd OPERATION") on link
 * ("ble", "802154"; NULL: both) to opt, and --help: "; did you mean --x?" or "" (in
 * s->text). */
const char *cli_option_suggestion(struct cli_suggest *s, const char *cmd, const char *link,
                                  const char *opt);

/* "pqpan CMD: unknown option 'OPT'" (on --link 802154: "unknown option for --link 802154
 * 'OPT'") with the suggestion, on stderr; EXIT_USAGE. */
int cli_unknown_option(const char *cmd, const char *link, const char *opt);

/* `pqpan help --json`: every command's tables and the library's table of defaults
 * (include/pqpan/defaults.h: option, value, note, why) as one JSON object. */
void cli_cmd_opts_json(FILE *out);

/* `pqpan help --options-md ID...`: one Markdown table of the options of the tables
 * called ids[0..n) (docs/CLI.md's option lists), each "ID" or "ID:--a,--b" for part of a
 * table, or a command's name for all its tables (every link); -1 (nothing printed) for an
 * unknown id or none. */
int cli_opts_md(FILE *out, int n, char **ids);

/* `pqpan help --defaults-md`: the library's table of defaults as a Markdown table (option,
 * default, why), docs/CLI.md "Defaults". */
void cli_defaults_md(FILE *out);

#endif
