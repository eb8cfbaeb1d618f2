/* libpqpan-io: pqpan's data files read into the library's structs (docs/IO.md).
 *
 * A separate library (libpqpan-io, pkg-config pqpan-io, CMake pqpan::pqpan_io) beside the
 * portable core: it reads files (stdio), allocates (malloc), parses JSON (cJSON) and holds
 * the built-in data/ files (profiles, cycle tables) compiled in. libpqpan itself still reads
 * no file. The CLI, the Python package and the web page load their data through it.
 *
 *   device profiles     format "pqpan-profile/1" (docs/MODEL.md "Profile file format")
 *                       → struct pqpan_profile, for pqpan_ble_estimate_pqke, the 802.15.4
 *                       estimator and the energy model
 *   calibration files   format "pqpan-calibration/1" (docs/MODEL.md "Calibration file
 *                       format") → overlaid onto struct pqpan_gamma
 *   cycle tables        CSV with scheme, implementation, operation and cycles (or
 *                       cycles_mean) columns (data/cycles/, pqm4's and pqpan_m4.csv)
 *                       → struct pqpan_cycle_table
 *
 * Errors: every fallible function returns PQPAN_OK or a negative PQPAN_ERR_* code and, on
 * failure, writes one line into the caller's err buffer (errlen bytes, truncated to fit;
 * PQPAN_IO_ERR_MAX always suffices) naming the file and the field: "FILE: FIELD: problem".
 * The library prints nothing. The outputs are zeroed on failure.
 *   PQPAN_ERR_IO          the file cannot be read: cannot open, is a directory, larger than
 *                         the cap of its kind (checked before anything is read), read error
 *   PQPAN_ERR_MALFORMED   not the format, a field missing, not a number, out of its range or
 *                         outside the plausibility limits
 *   PQPAN_ERR_NOT_FOUND   no built-in profile of that name
 *   PQPAN_ERR_CAPACITY    a cycle table with more rows than PQPAN_CYCLE_ROWS_MAX
 *   PQPAN_ERR_INVALID_ARG a NULL argument
 * Paths may name pipes and character devices; "-" is standard input. */
#ifndef PQPAN_IO_H
#define PQPAN_IO_H

#include <stddef.h>

#include "pqpan/energy.h"
#include "pqpan/error.h"

/* A message buffer of this size holds every message. */
#define PQPAN_IO_ERR_MAX 512

/* Size caps, checked before a regular file is read (a pipe's as it arrives). */
#define PQPAN_IO_SMALL_FILE_MAX ((size_t)1 << 20) /* profiles, calibration files */
#define PQPAN_IO_FILE_MAX ((size_t)64 << 20)      /* cycle tables, vector files, traces */

/* The γ_comp / γ_comm values accepted anywhere (a calibration file, --gamma-comp,
 * --gamma-comm, a file `pqpan calibrate` writes): a multiplier on modelled energy, so
 * positive, and within two orders of magnitude of 1 (the study's fits lie in 1.0-1.5). */
#define PQPAN_IO_GAMMA_MIN 0.01
#define PQPAN_IO_GAMMA_MAX 100.0

/* ---- whole files ---- */

/* A file's bytes, NUL-terminated: a built-in (static) or one read from disk (owned). */
struct pqpan_io_text {
    const char *text;
    size_t len;
    char origin[256]; /* "data/profiles/nrf52840.json (built in)", the path, or "(stdin)" */
    char *owned;      /* freed by pqpan_io_text_free */
};

/* Reads all of path ("-": standard input) into *out, at most max bytes. PQPAN_ERR_IO with
 * "PATH: is a directory", "PATH: larger than MAX bytes: not read", "PATH: cannot open:
 * REASON" or "PATH: cannot read: REASON". */
PQPAN_MUST_CHECK int pqpan_io_read_file(struct pqpan_io_text *out, const char *path, size_t max,
                                        char *err, size_t errlen);
/* Frees what *t owns and zeroes it (t may have failed to load, or be a built-in). */
void pqpan_io_text_free(struct pqpan_io_text *t);

/* ---- numbers (one grammar for every file and option) ---- */

/* Numbers in every text file pqpan reads and on its command line are spelled as JSON
 * numbers (RFC 8259 §6): -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, nothing around it.
 * Refused: leading or trailing spaces, '+', hex, leading zeros, "inf", "nan", and values
 * that overflow or underflow. Each returns 0, or -1 with *out untouched. */
/* A decimal unsigned integer (digits only) in [min, max]. */
int pqpan_io_parse_uint(const char *s, unsigned long long min, unsigned long long max,
                        unsigned long long *out);
/* A finite double in [min, max]. */
int pqpan_io_parse_double(const char *s, double min, double max, double *out);

/* ---- device profiles ---- */

/* The sources of a profile's "ieee802154" section, for outputs that quote them (each
 * truncated to PQPAN_IO_SOURCE_MAX - 1 characters); tx[table][i] belongs to
 * p->ieee802154.tx_dbm[i]. */
#define PQPAN_IO_SOURCE_MAX 512

struct pqpan_io_802154_sources {
    char rx[PQPAN_CURRENT_TABLE_COUNT][PQPAN_IO_SOURCE_MAX];
    char tx[PQPAN_CURRENT_TABLE_COUNT][PQPAN_PROFILE_TX_LEVELS_MAX][PQPAN_IO_SOURCE_MAX];
    char ramp_tx_fast[PQPAN_IO_SOURCE_MAX];
    char ramp_tx_normal[PQPAN_IO_SOURCE_MAX];
    char idle[PQPAN_IO_SOURCE_MAX];
    char backoff[PQPAN_IO_SOURCE_MAX];
    char wake_cpu[PQPAN_IO_SOURCE_MAX];
};

/* Parses a profile document held in memory (text need not be NUL-terminated); origin names
 * it in messages. src (may be NULL) receives the ieee802154 section's sources. */
PQPAN_MUST_CHECK int pqpan_io_profile_parse(struct pqpan_profile *p,
                                            struct pqpan_io_802154_sources *src,
                                            const char *text, size_t len, const char *origin,
                                            char *err, size_t errlen);
/* A profile file (path, "-" for standard input), capped at PQPAN_IO_SMALL_FILE_MAX. */
PQPAN_MUST_CHECK int pqpan_io_profile_load_file(struct pqpan_profile *p,
                                                struct pqpan_io_802154_sources *src,
                                                const char *path, char *err, size_t errlen);
/* A built-in profile by name ("nrf52840"): PQPAN_ERR_NOT_FOUND naming the built-ins. */
PQPAN_MUST_CHECK int pqpan_io_profile_load_builtin(struct pqpan_profile *p,
                                                   struct pqpan_io_802154_sources *src,
                                                   const char *name, char *err, size_t errlen);
/* As the CLI's --profile: a path when name_or_path has a '/', ends in ".json", is "-" or
 * names an existing file; else a built-in name. */
PQPAN_MUST_CHECK int pqpan_io_profile_load(struct pqpan_profile *p,
                                           struct pqpan_io_802154_sources *src,
                                           const char *name_or_path, char *err, size_t errlen);
/* The text pqpan_io_profile_load would parse (for walking its figures). */
PQPAN_MUST_CHECK int pqpan_io_profile_text(struct pqpan_io_text *out, const char *name_or_path,
                                           char *err, size_t errlen);

/* The built-in profiles: how many, and the i-th name (in file-name order) into buf, or NULL
 * when i is out of range or buf too small. */
size_t pqpan_io_profile_builtin_count(void);
const char *pqpan_io_profile_builtin_name(size_t i, char *buf, size_t buflen);

/* Every figure of a profile document in file order: each {"value", "source"[, "derived"]}
 * object, with a dotted path ("currents.system.rx_ua.ble_1m", TX levels as
 * "currents.system.tx_ua.0dbm"). Used for listing sources and derived figures. */
#define PQPAN_IO_PROFILE_PATH_MAX 96

struct pqpan_io_figure {
    char path[PQPAN_IO_PROFILE_PATH_MAX];
    int given;           /* a number was given (value not null) */
    double value;
    const char *text;    /* a string value (ieee802154.idle, .backoff: "rx", "sleep"), else NULL */
    const char *source;  /* "" when the figure has none */
    const char *derived; /* how a derived figure is computed, else NULL */
    const char *other_chip; /* the chip a figure stands on when none of this device's was
                             * found ("other_chip" member), else NULL */
};

typedef void (*pqpan_io_figure_fn)(const struct pqpan_io_figure *f, void *ctx);

/* Calls fn for each figure of the document text (the pointers in *f live until fn
 * returns). PQPAN_ERR_MALFORMED when text is not a JSON object. */
PQPAN_MUST_CHECK int pqpan_io_profile_walk(const char *text, size_t len, pqpan_io_figure_fn fn,
                                           void *ctx);

/* The derived figures of a profile, and those that stand on another chip's figures: path,
 * value, how a derived one is computed ("" if read from a source) and the chip it comes
 * from ("" if this device's) (truncated to PQPAN_IO_DERIVED_TEXT - 1 and
 * PQPAN_IO_OTHER_CHIP_TEXT - 1 characters). */
#define PQPAN_IO_DERIVED_MAX 32
#define PQPAN_IO_DERIVED_TEXT 512
#define PQPAN_IO_OTHER_CHIP_TEXT 256

struct pqpan_io_derived {
    char path[PQPAN_IO_PROFILE_PATH_MAX];
    double value;
    char how[PQPAN_IO_DERIVED_TEXT];
    char other_chip[PQPAN_IO_OTHER_CHIP_TEXT];
};

struct pqpan_io_derived_list {
    size_t count;
    struct pqpan_io_derived item[PQPAN_IO_DERIVED_MAX];
};

/* Fills *out from a profile document's text. PQPAN_ERR_CAPACITY (and a message naming
 * origin) when it has more than PQPAN_IO_DERIVED_MAX derived figures; PQPAN_ERR_MALFORMED
 * when it is not a JSON object. */
PQPAN_MUST_CHECK int pqpan_io_profile_derived(struct pqpan_io_derived_list *out,
                                              const char *text, size_t len, const char *origin,
                                              char *err, size_t errlen);

/* ---- calibration (γ) ---- */

/* Overlays the γ values a calibration file gives onto *g (the others stay): from memory,
 * or from a file capped at PQPAN_IO_SMALL_FILE_MAX. */
PQPAN_MUST_CHECK int pqpan_io_gamma_parse(struct pqpan_gamma *g, const char *text, size_t len,
                                          const char *origin, char *err, size_t errlen);
PQPAN_MUST_CHECK int pqpan_io_gamma_load(struct pqpan_gamma *g, const char *path, char *err,
                                         size_t errlen);

/* ---- cycle tables ---- */

/* Appends the rows of one cycles CSV (RFC 4180 fields; columns found by their header
 * names). Rows whose operation pqpan does not model (ECDSA, ...) are skipped. On failure
 * the table is as it was before the call. */
PQPAN_MUST_CHECK int pqpan_io_cycles_parse(struct pqpan_cycle_table *t, const char *text,
                                           size_t len, const char *origin, char *err,
                                           size_t errlen);
/* The same from a file, capped at PQPAN_IO_FILE_MAX. */
PQPAN_MUST_CHECK int pqpan_io_cycles_load(struct pqpan_cycle_table *t, const char *path,
                                          char *err, size_t errlen);
/* Every built-in data/cycles/ CSV with a "cycles" or "cycles_mean" column, in file-name
 * order (pqm4's tables, data/cycles/pqpan_m4.csv, P-256 and ML-DSA), into a cleared *t. */
PQPAN_MUST_CHECK int pqpan_io_cycles_load_builtin(struct pqpan_cycle_table *t, char *err,
                                                  size_t errlen);

#endif
