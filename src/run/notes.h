/* Private to the run layer and its faces: the notes of a run (notes.c), the assumptions
 * block a table output prints before its rows and the JSON members it is in a JSON output.
 * pqpan_run renders them as note rows (run.h); the commands not yet on pqpan_run print
 * them with these functions. */
#ifndef PQPAN_RUN_NOTES_H
#define PQPAN_RUN_NOTES_H

#include <stdio.h>

#include "model.h"

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

/* How the bits accounting counts T_IFS under rule b, in words ("one per PDU sent (1 per
 * pair; ...)"): the line `bits accounting, T_IFS: ...` of reproduce and estimate. */
const char *model_bits_ifs_about(enum pqpan_ble_bits_ifs b);
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
/* Writes a row's typed value as JSON: a REAL to field's decimals (as the CLI's JSON prints
 * it), null where the row has none. */
void model_json_value(FILE *f, const struct pqpan_run_field *field, const struct pqpan_run_value *v);
/* The same as a CSV value: a text as it is, nothing where the row has none. */
void model_csv_value(FILE *f, const struct pqpan_run_field *field, const struct pqpan_run_value *v);
/* A CSV header of the names of fields[0..n) shown for the group mask groups (0: every
 * field), and one line of their values read from data (the struct of the fields' table). */
void model_fields_csv_header(FILE *f, const struct pqpan_run_field *fields, size_t n,
                             unsigned groups);
void model_fields_csv_row(FILE *f, const struct pqpan_run_field *fields, size_t n,
                          unsigned groups, const void *data);

/* The GATT roles of cfg and who sends each message how (link_gatt_words) as two lines of
 * prefix "GATT: the peripheral is the server, ...", and one more saying why it cannot be
 * built when it cannot (priced with --allow-unbuildable); nothing for kem
 * MODEL_LESC_NAME. */
void link_print_gatt(FILE *out, const struct pqpan_ble_config *cfg, const char *kem,
                     const char *prefix);

/* What the variant of pqpan's protocol (cfg's --auth, --sig, --hybrid) adds to the cycle
 * tables: the derived kdf figure of a mode other than none or a hybrid suite, the ML-DSA
 * rows of a sig mode (with model_print_sig_spread), P-256's; lines after prefix. */
void model_print_pqke_variant(FILE *f, const struct pqpan_ble_config *cfg, const char *kem,
                              const struct model_env *env, const char *prefix);
/* Signing's cycles of ML-DSA set sig: the mean the energy uses, the spread beside it and
 * their sources (nothing when the tables have no signing row). */
void model_print_sig_spread(FILE *f, const struct model_env *env, unsigned sig,
                            const char *prefix);

#endif
