/* Loading data files for the energy model (CLI side: the library never reads files).
 *
 * Profiles: data/profiles/NAME.json (built in) or any file in the same format
 * (docs/MODEL.md "Profile file format"). Calibration overlays: JSON with γ values
 * (docs/MODEL.md "Calibration file format"). Cycle tables: data/cycles/ (CSV).
 *
 * Every function returns a cli.h exit code: EXIT_OK, EXIT_USAGE (unknown built-in name),
 * EXIT_BAD_INPUT (a file that does not parse or a field that is missing, negative or not
 * a number) or EXIT_IO (a file that cannot be read). On failure err holds one line naming
 * the file and the field ("FILE: FIELD: problem"), and the output is zeroed. */
#ifndef PQPAN_CLI_DATA_LOAD_H
#define PQPAN_CLI_DATA_LOAD_H

#include <stddef.h>

#include "pqpan/energy.h"
#include "profile_walk.h"

#define DATA_ERR_MAX 512

/* The built-in profile loaded when no --profile is given. */
#define DATA_DEFAULT_PROFILE "nrf52840"

/* A file's bytes, NUL-terminated: a built-in (static) or one read from disk (owned). */
struct data_text {
    const char *text;
    size_t len;
    char origin[256]; /* "data/profiles/nrf52840.json (built in)" or the path given */
    char *owned;      /* free()d by data_text_free */
};

void data_text_free(struct data_text *t);

/* The text of a profile: a built-in NAME, or a path (anything with a '/' or ending in
 * ".json", or any existing file). */
int data_profile_text(struct data_text *out, const char *name_or_path, char *err, size_t errlen);

/* Number of built-in profiles and the i-th name ("nrf52840"), in file-name order. */
size_t data_profile_builtin_count(void);
const char *data_profile_builtin_name(size_t i, char *buf, size_t buflen);

int data_profile_parse(struct pqpan_profile *p, const char *text, size_t len, const char *origin,
                       char *err, size_t errlen);
int data_profile_load(struct pqpan_profile *p, const char *name_or_path, char *err,
                      size_t errlen);

/* The sources of a profile's "ieee802154" section, for the outputs (each truncated to
 * DATA_SOURCE_MAX - 1 characters); tx[table][i] belongs to p->ieee802154.tx_dbm[i]. */
#define DATA_SOURCE_MAX 512

struct data_802154_sources {
    char rx[PQPAN_CURRENT_TABLE_COUNT][DATA_SOURCE_MAX];
    char tx[PQPAN_CURRENT_TABLE_COUNT][PQPAN_PROFILE_TX_LEVELS_MAX][DATA_SOURCE_MAX];
    char ramp_tx_fast[DATA_SOURCE_MAX];
    char ramp_tx_normal[DATA_SOURCE_MAX];
    char idle[DATA_SOURCE_MAX];
    char backoff[DATA_SOURCE_MAX];
    char wake_cpu[DATA_SOURCE_MAX];
};

/* The same, also keeping the section's sources in *src (src may be NULL). */
int data_profile_parse_sourced(struct pqpan_profile *p, struct data_802154_sources *src,
                               const char *text, size_t len, const char *origin, char *err,
                               size_t errlen);
int data_profile_load_sourced(struct pqpan_profile *p, struct data_802154_sources *src,
                              const char *name_or_path, char *err, size_t errlen);

/* Overlays the γ values a calibration file gives onto *g (the others stay). */
int data_gamma_parse(struct pqpan_gamma *g, const char *text, size_t len, const char *origin,
                     char *err, size_t errlen);
int data_gamma_load(struct pqpan_gamma *g, const char *path, char *err, size_t errlen);

/* Appends the rows of one cycles CSV. Rows whose operation pqpan does not model (ECDSA,
 * ...) are skipped. */
int data_cycles_parse(struct pqpan_cycle_table *t, const char *text, size_t len,
                      const char *origin, char *err, size_t errlen);
/* Every built-in data/cycles/ CSV with a "cycles" or "cycles_mean" column, in file-name
 * order (so a measured row of data/cycles/pqpan_m4.csv is found like any other). */
int data_cycles_load_builtin(struct pqpan_cycle_table *t, char *err, size_t errlen);

/* Everything an energy command (estimate, reproduce, simulate) needs from its options
 * --profile NAME|FILE, --calibration FILE and --crypto-impl IMPL; NULL takes the default
 * (DATA_DEFAULT_PROFILE, pqpan_gamma_default, DATA_DEFAULT_CRYPTO_IMPL). The cycle table
 * holds every built-in data/cycles/ row; an IMPL no ML-KEM row uses is EXIT_USAGE. */
#define DATA_DEFAULT_CRYPTO_IMPL "clean"

struct data_energy_inputs {
    struct pqpan_profile profile;
    struct pqpan_gamma gamma;
    struct pqpan_cycle_table cycles;
    char crypto_impl[24];
    char calibration[256]; /* the --calibration file, "" when the defaults are used */
    struct data_802154_sources src802154; /* sources of the profile's ieee802154 section */
    struct profile_derived_list derived;  /* the profile's derived figures */
};

int data_energy_inputs_load(struct data_energy_inputs *in, const char *profile,
                            const char *calibration, const char *crypto_impl, char *err,
                            size_t errlen);

/* Reads a whole file ("-" = standard input, pipes included), at most max bytes (a regular
 * file's size is checked before it is read). EXIT_OK, or EXIT_IO naming the file: cannot
 * open, is a directory, larger than max, read error. */
#define DATA_FILE_MAX ((size_t)64 << 20)       /* vector files, cycle tables, traces */
#define DATA_SMALL_FILE_MAX ((size_t)1 << 20)  /* profiles, calibration files */
int data_read_file_max(struct data_text *out, const char *path, size_t max, char *err,
                       size_t errlen);
/* The same with max = DATA_FILE_MAX. */
int data_read_file(struct data_text *out, const char *path, char *err, size_t errlen);

#endif
