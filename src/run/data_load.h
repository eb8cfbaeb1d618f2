/* Private to the run layer: the energy commands' data inputs (estimate, reproduce,
 * simulate, sweep, advise, ...), loaded through libpqpan-io (include/pqpan/io.h):
 * --profile NAME|FILE, --calibration FILE and --crypto-impl IMPL. */
#ifndef PQPAN_RUN_DATA_LOAD_H
#define PQPAN_RUN_DATA_LOAD_H

#include <stddef.h>

#include "pqpan/energy.h"
#include "pqpan/io.h"
#include "run_ns.h"

/* The CLI's exit code for a libpqpan-io result: EXIT_OK, EXIT_USAGE (no built-in profile of
 * that name), EXIT_IO (a file that cannot be read) or EXIT_BAD_INPUT (anything else: a
 * file that does not parse, a value out of range). */
int data_exit_code(int io_rc);

/* NULL options take the defaults (the --profile and --crypto-impl rows of
 * include/pqpan/defaults.h, pqpan_gamma_default). The cycle table holds every built-in
 * data/cycles/ row; an IMPL no ML-KEM row uses is EXIT_USAGE. */

struct data_energy_inputs {
    struct pqpan_profile profile;
    struct pqpan_gamma gamma;
    struct pqpan_cycle_table cycles;
    char crypto_impl[24];
    char calibration[256]; /* the --calibration file, "" when the defaults are used */
    struct pqpan_io_802154_sources src802154; /* sources of the profile's ieee802154 section */
    struct pqpan_io_derived_list derived;     /* the profile's derived figures */
};

/* A cli.h exit code; on failure err holds one line naming the file and the field. */
int data_energy_inputs_load(struct data_energy_inputs *in, const char *profile,
                            const char *calibration, const char *crypto_impl, char *err,
                            size_t errlen);

#endif
