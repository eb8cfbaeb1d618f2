/* The BLE key-exchange model as the CLI runs it (shared by `estimate` and `reproduce`):
 * options → link configuration + energy inputs → per-side ledgers (src/ble/estimate.c) →
 * energy (src/energy) → one flat row per side, printed by one field table in table, CSV
 * and JSON (STYLE.md habit 10). */
#ifndef PQPAN_CLI_BLE_MODEL_H
#define PQPAN_CLI_BLE_MODEL_H

#include <stdio.h>

#include "cli.h"
#include "model.h"
#include "opts.h"
#include "pqpan/ble.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/energy.h"
#include "pqpan/run.h"

/* Tries argv[*i] (and its value) as one of the shared options. Returns 1 if consumed
 * (*i advanced past its value), 0 if not one of them, or -1 after printing a usage error. */
int model_opts_parse(struct model_opts *o, const char *cmd, int argc, char **argv, int *i);

/* Help lines for the shared options. */
void model_opts_help(FILE *out);

/* model_env_load_msg and model_env_new_msg (model.h) with the message printed as
 * "pqpan CMD: MESSAGE". */
int model_env_load(struct model_env *env, const struct model_opts *o, const char *cmd);
int model_env_new(struct model_env **env, const struct model_opts *o, const char *cmd);


/* Field table printers (the groups: model.h). */
void model_print_csv_header(FILE *f, unsigned groups);
void model_print_csv_row(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups);
void model_print_json_row(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups, const char *indent);
/* The fields of one row on the current line, each after a comma: FLAT_CSV_NAMES their
 * names, FLAT_CSV their values, FLAT_JSON "name":value members; every name is prefixed
 * with prefix (e.g. "central_"). r NULL: empty CSV values, JSON nulls. */
enum model_flat { FLAT_CSV_NAMES, FLAT_CSV, FLAT_JSON };
void model_print_flat(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups, const char *prefix,
                      enum model_flat style);


/* Rows = fields (detail groups), columns = the given rows (e.g. peripheral, central, total). */
void model_print_table(FILE *f, const struct pqpan_run_exchange_row *rows, int n, unsigned groups);

/* The assumptions block of a run on radio mode `radio`: profile, current table, the
 * derived figures it uses (each with how it is computed), crypto implementation, γ and
 * sources. */
void model_print_assumptions(FILE *f, const struct model_env *env, enum pqpan_radio_mode radio,
                             const char *prefix);
/* The same as JSON members (no braces), each line starting with indent; the derived figures
 * as "derived_figures": [{"field", "value", "derived"}, ...], those from another chip as
 * "other_chip_figures": [{"field", "value", "other_chip"}, ...]. */
void model_print_assumptions_json(FILE *f, const struct model_env *env,
                                  enum pqpan_radio_mode radio, const char *indent);
/* The derived figures a run on radio mode `radio` uses, one line each with how it is
 * computed, then those that stand on another chip's figures, one line each naming the chip
 * (nothing when none); JSON: the "derived_figures" and "other_chip_figures" members
 * ([{"field", "value", "derived" | "other_chip"}, ...]) and their commas. */
void model_print_derived(FILE *f, const struct model_env *env, enum pqpan_radio_mode radio,
                         const char *prefix);
void model_print_derived_json(FILE *f, const struct model_env *env,
                              enum pqpan_radio_mode radio, const char *indent);
/* Whether a run on radio mode `radio` uses the profile figure at path (pqpan_io_profile_walk). */
int model_figure_used(const struct model_env *env, enum pqpan_radio_mode radio, const char *path);
/* The set-up before the exchange that cfg asks for, and its assumptions (text lines, or
 * JSON members setup_*). */
void model_print_setup(FILE *f, const struct pqpan_ble_config *cfg, const char *prefix);
void model_print_setup_json(FILE *f, const struct pqpan_ble_config *cfg, const char *indent);
/* The same two printers for the derived figures a predicate selects (ctx passed on). */
typedef int (*model_figure_pred)(const struct model_env *env, const char *path, const void *ctx);
void model_print_derived_where(FILE *f, const struct model_env *env, model_figure_pred used,
                               const void *ctx, const char *prefix);
void model_print_derived_where_json(FILE *f, const struct model_env *env, model_figure_pred used,
                                    const void *ctx, const char *indent);
/* Parts of them any link shares: the profile line; the crypto cycle table and γ lines
 * (text) or members (JSON: crypto_impl, gamma_source, gamma_comm, gamma_comp_*). */
void model_print_profile_line(FILE *f, const struct model_env *env, const char *prefix);
/* The JSON members of the profile: "profile": NAME, then "supply_v", "supply_model",
 * "ram_retained", "sleep_ua" (no comma after the last; each line after the first starts
 * with indent). */
void model_print_profile_json(FILE *f, const struct model_env *env, const char *indent);

/* The header line of every exchange output (docs/CLI.md "What an output says it
 * assumed"): "PREFIXprotocol: P, auth: A; idle: IDLE", P and A as the protocol and auth
 * fields print them. */
void model_print_exchange_line(FILE *f, const char *prefix, const char *protocol,
                               const char *auth, const char *idle);
void model_print_crypto_gamma(FILE *f, const struct model_env *env, const char *prefix);
void model_print_crypto_gamma_json(FILE *f, const struct model_env *env, const char *indent);

/* Writes s as a JSON string literal. */
void model_json_string(FILE *f, const char *s);

#endif
