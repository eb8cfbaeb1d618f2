/* The per-mode table of `pqpan reproduce` (src/run/run_reproduce_modes.c; private to the run
 * layer): for each ML-KEM level and
 * DLE setting of the study's matrix, pqpan's protocol in every PQKE mode (include/pqpan/pqke.h;
 * the sig modes with the ML-DSA set of the level's category), alone and with the P-256
 * hybrid suite, on the study preset, with each side's energy in the bits accounting against
 * mode none and against LE Secure Connections pairing at the same DLE setting (the baseline
 * rows of the matrix). */
#ifndef PQPAN_RUN_REPRODUCE_MODES_H
#define PQPAN_RUN_REPRODUCE_MODES_H

#include <stdio.h>

#include "model.h"
#include "pqpan/run.h"

#define MODES_MAX 16 /* 7 modes x (alone, hybrid) */
#define MODES_LEVELS 3
#define MODES_DLE 2
#define MODES_SIDES 2 /* MODEL_PERIPHERAL (KeyGen side: the initiator), MODEL_CENTRAL */

struct modes_cell {
    double uj[MODES_SIDES];      /* e_total_uj, bits accounting */
    double vs_none[MODES_SIDES]; /* uj / the same side's uj in mode none */
    double vs_lesc[MODES_SIDES]; /* uj / the same side's LE SC pairing at this DLE setting */
};

struct modes_table {
    unsigned n_modes;
    unsigned mode[MODES_MAX]; /* enum pqpan_pqke_mode, none first */
    int hybrid[MODES_MAX];    /* the P-256 hybrid suite */
    struct modes_cell cell[MODES_LEVELS][MODES_DLE][MODES_MAX];
};

/* Runs every implemented mode at every level (levels[]) and DLE setting (ll_of_dle[]) with
 * the study preset (bits T_IFS rule ifs) in env; lesc[d] are the matrix's LE SC rows at DLE
 * setting d. An exit code (run_text.h), the message in *msg. */
int modes_run(struct modes_table *t, const struct model_env *env, enum pqpan_ble_bits_ifs ifs,
              const char *const levels[MODES_LEVELS], const unsigned ll_of_dle[MODES_DLE],
              const struct pqpan_run_exchange_row (*lesc)[MODEL_SIDES], struct cli_msg *msg);

/* The rows of the per-mode table, reading's (MODES_ROWS at most; the number returned), and
 * the lines that introduce the table. */
#define MODES_ROWS (MODES_LEVELS * MODES_DLE * MODES_MAX * MODES_SIDES)
size_t modes_rows(struct pqpan_run_mode_row *out, const struct modes_table *t,
                  const char *const levels[MODES_LEVELS], const char *reading);
void modes_print_intro(FILE *f);

/* The sig modes in pqpan's two Cortex-M4 builds (issue 30; docs/M4.md): every operation's
 * cycles from the build's rows of data/cycles/pqpan_m4.csv (make bench-m4), ML-KEM included,
 * the builds differing only in ML-DSA and P-256: small (the stack-lean designs) and speed
 * (NTT(y), the matrix and the transformed secrets kept, as pqm4 m4f). */
#define MODES_BUILDS 2
#define MODES_SIG_MODES 2 /* sig, sig-mutual */

struct modes_builds {
    double uj[MODES_LEVELS][MODES_DLE][MODES_SIG_MODES][MODES_BUILDS][MODES_SIDES];
};

/* Runs the sig modes of each level and DLE setting in both builds, env's other inputs kept.
 * An exit code, the message in *msg. */
int modes_builds_run(struct modes_builds *b, const struct model_env *env,
                     enum pqpan_ble_bits_ifs ifs, const char *const levels[MODES_LEVELS],
                     const unsigned ll_of_dle[MODES_DLE], struct cli_msg *msg);
/* The rows of the builds' table (MODES_BUILD_ROWS at most; the number returned), and the
 * lines that introduce it. */
#define MODES_BUILD_ROWS (MODES_LEVELS * MODES_DLE * MODES_SIG_MODES * MODES_SIDES * MODES_BUILDS)
size_t modes_builds_rows(struct pqpan_run_build_row *out, const struct modes_builds *b,
                         const char *const levels[MODES_LEVELS], const char *reading);
void modes_builds_print_intro(FILE *f);

#endif
