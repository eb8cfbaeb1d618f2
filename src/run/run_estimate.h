/* Private to the run layer and its faces: estimate's options as data (the --protocol table
 * the other BLE commands share) and the run's pieces the CLI's other commands still use. */
#ifndef PQPAN_RUN_ESTIMATE_H
#define PQPAN_RUN_ESTIMATE_H

#include "model.h"
#include "pqpan/run.h"
#include "run_opts.h"

/* --protocol (stored in struct link_opts' cfg.protocol), as data. */
extern const struct cli_opt_table estimate_protocol_table;

/* --bits-ifs (cfg.bits_ifs of struct link_opts): estimate's alone on BLE, the bits
 * accounting's T_IFS rule (enum pqpan_ble_bits_ifs). */
extern const struct cli_opt_table estimate_bits_table;

/* The row of option name among estimate's tables on BLE (lowpan 0) or with --link 802154
 * (lowpan 1), what pqpan_run "estimate" takes, or NULL: the CLI splits argv into a request
 * with it. */
const struct cli_opt *estimate_opt_row(int lowpan, const char *name);


/* GROUP_SIG when the exchange signs (model_fill_sig has filled the rows), GROUP_LESC for
 * LE SC (model_fill has filled its named parts). */
unsigned estimate_sig_group(const struct pqpan_run_exchange_row rows[MODEL_SIDES]);

#endif
