/* The BLE key-exchange model as the CLI runs it (shared by `estimate` and `reproduce`):
 * options → link configuration + energy inputs → per-side ledgers (src/ble/estimate.c) →
 * energy (src/energy) → one flat row per side, printed by one field table in table, CSV
 * and JSON (STYLE.md habit 10). */
#ifndef PQPAN_CLI_BLE_MODEL_H
#define PQPAN_CLI_BLE_MODEL_H

#include <stdio.h>

#include "cli.h"
#include "model.h"
#include "notes.h"
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
/* The member "sides": rows[0..n) as JSON rows, then the object's closing brace. */
void model_print_json_sides(FILE *f, const struct pqpan_run_exchange_row *rows, size_t n,
                            unsigned groups);
/* The fields of one row on the current line, each after a comma: FLAT_CSV_NAMES their
 * names, FLAT_CSV their values, FLAT_JSON "name":value members; every name is prefixed
 * with prefix (e.g. "central_"). r NULL: empty CSV values, JSON nulls. */
enum model_flat { FLAT_CSV_NAMES, FLAT_CSV, FLAT_JSON };
void model_print_flat(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups, const char *prefix,
                      enum model_flat style);


/* Rows = fields (detail groups), columns = the given rows (e.g. peripheral, central, total). */
void model_print_table(FILE *f, const struct pqpan_run_exchange_row *rows, int n, unsigned groups);

#endif
