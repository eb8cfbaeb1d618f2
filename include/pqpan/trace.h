/* Measured current traces: the Nordic Power Profiler Kit II CSV format (streaming push
 * parser and writer) and per-phase energy analysis of a trace.
 *
 * Format (nRF Connect Power Profiler "Export", pc-nrfconnect-ppk src/actions/
 * exportChartAction.ts): a header line, then one row per sample,
 *   Timestamp(ms),Current(uA)[,D0-D7][,D0,D1,D2,D3,D4,D5,D6,D7]
 * Timestamp in milliseconds with any number of decimals, current in microamps (the app
 * writes 3 decimals; negative values occur at the noise floor), D0-D7 as eight
 * characters (D0 first), the split form as one character per column. Each digital state
 * is '0', '1', '-' (no data) or 'X' (mixed within an averaged sample). Samples the app
 * could not read are left out, so timestamps may jump (gaps).
 *
 * The library reads no files and allocates nothing: the caller feeds bytes in chunks of
 * any size and gets one callback per row; memory use is the parser struct, whatever the
 * file size. Numbers are parsed by the library's own fixed-format decimal reader (no
 * strtod, no locale). */
#ifndef PQPAN_TRACE_H
#define PQPAN_TRACE_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"

/* Longest accepted line in bytes, '\n' excluded (a '\r' before it counts). The longest
 * row the app writes (both digital forms, long timestamp) is under 80 bytes. */
#define PQPAN_PPK2_LINE_MAX 256
#define PQPAN_PPK2_CHANNELS 8

/* The PPK2 samples at up to 100 kS/s, 10 us between rows (nRF Connect Power Profiler
 * app, pc-nrfconnect-ppk data-logger reducer: samplingTime 10 us, maxSampleFreq 10^5;
 * the SenSys '26 study's captures used 100 kHz). The rate pqpan's simulator writes. */
#define PQPAN_PPK2_SAMPLE_PERIOD_NS 10000

/* Digital channels as pqpan's simulator drives them (simulate --trace) and calibration
 * reads them: D0 high during a crypto operation (from its start to its end, through the
 * connection events that suspend it), D1 high while the radio is active (a link-layer
 * event from its CPU pre-processing to its post-processing), D2 high while the side
 * advertises or scans, until the connection. */
#define PQPAN_PPK2_CH_CRYPTO 0
#define PQPAN_PPK2_CH_RADIO 1
#define PQPAN_PPK2_CH_ADVERTISE 2

/* Largest |timestamp| accepted, in ms (about 127 years): the difference of any two
 * timestamps in ns still fits in an int64_t. */
#define PQPAN_PPK2_TIME_MAX_MS 4000000000000LL
#define PQPAN_PPK2_TIME_MAX_NS (PQPAN_PPK2_TIME_MAX_MS * 1000000LL)

/* Parser flag: skip and count bad data rows instead of stopping at the first one. */
#define PQPAN_PPK2_LENIENT 1u

/* Which columns follow Timestamp(ms),Current(uA). */
enum pqpan_ppk2_layout {
    PQPAN_PPK2_LAYOUT_NONE = 0,   /* header not read yet */
    PQPAN_PPK2_LAYOUT_CURRENT,    /* Timestamp(ms),Current(uA) */
    PQPAN_PPK2_LAYOUT_PACKED,     /* ...,D0-D7 */
    PQPAN_PPK2_LAYOUT_SPLIT,      /* ...,D0,D1,D2,D3,D4,D5,D6,D7 */
    PQPAN_PPK2_LAYOUT_BOTH        /* ...,D0-D7,D0,D1,D2,D3,D4,D5,D6,D7 */
};

/* One digital channel's state in one sample. */
enum pqpan_ppk2_digital {
    PQPAN_PPK2_DIG_LOW = 0,   /* '0' */
    PQPAN_PPK2_DIG_HIGH,      /* '1' */
    PQPAN_PPK2_DIG_NONE,      /* '-': no data (also every channel of a CURRENT layout) */
    PQPAN_PPK2_DIG_MIXED      /* 'X': both levels within the sample */
};

/* Why the parser stopped (strict mode) or skipped a line (lenient mode). */
enum pqpan_ppk2_error {
    PQPAN_PPK2_E_NONE = 0,
    PQPAN_PPK2_E_HEADER,          /* first line is none of the four known headers */
    PQPAN_PPK2_E_NUMBER,          /* timestamp or current is not a decimal number */
    PQPAN_PPK2_E_RANGE,           /* |t| > PQPAN_PPK2_TIME_MAX_MS or |I| >= 1e15 uA */
    PQPAN_PPK2_E_DIGITAL,         /* a digital field that is not 0, 1, - or X */
    PQPAN_PPK2_E_DIGITAL_MISMATCH,/* D0-D7 and D0..D7 columns of one row disagree */
    PQPAN_PPK2_E_COLUMNS,         /* wrong number of columns for the header */
    PQPAN_PPK2_E_TIME_BACKWARDS,  /* timestamp smaller than the previous row's */
    PQPAN_PPK2_E_LINE_TOO_LONG,   /* longer than PQPAN_PPK2_LINE_MAX bytes */
    PQPAN_PPK2_E_TRUNCATED,       /* last line without newline and incomplete */
    PQPAN_PPK2_E_CALLBACK         /* the sample callback returned an error */
};

struct pqpan_ppk2_sample {
    int64_t time_ns;     /* timestamp, rounded to the nearest ns */
    double current_ua;   /* current in microamps */
    uint64_t line;       /* line number in the file (the header is line 1) */
    uint8_t channels;    /* number of digital channels the file carries: 0 or 8 */
    uint8_t digital[PQPAN_PPK2_CHANNELS]; /* enum pqpan_ppk2_digital per channel D0..D7 */
};

/* Called once per accepted row. Return 0 to go on, or a negative PQPAN_ERR_* to stop:
 * the feed/finish call then returns that code with error PQPAN_PPK2_E_CALLBACK. */
typedef int (*pqpan_ppk2_sample_fn)(void *ctx, const struct pqpan_ppk2_sample *s);

/* Parser state. Caller-owned, no pointers inside (a struct copy clones it). Fields after
 * `layout` are read-only results. */
struct pqpan_ppk2_parser {
    char line[PQPAN_PPK2_LINE_MAX];
    size_t line_len;
    uint64_t line_no;          /* number of the line being assembled */
    int64_t last_time_ns;
    unsigned flags;
    unsigned last_decimals;    /* decimals of the previous row's current */
    uint8_t discarding;        /* skipping the rest of an over-long line */
    uint8_t failed;
    uint8_t finished;
    uint8_t layout;            /* enum pqpan_ppk2_layout */
    uint64_t rows_read;        /* data rows accepted */
    uint64_t rows_skipped;     /* data rows skipped (lenient mode only) */
    uint64_t blank_lines;      /* empty lines, ignored */
    uint8_t error;             /* enum pqpan_ppk2_error that stopped the parser */
    uint64_t error_line;
    uint8_t first_skip_error;  /* lenient: why the first skipped line was bad */
    uint64_t first_skip_line;
};

void pqpan_ppk2_parser_init(struct pqpan_ppk2_parser *p, unsigned flags);

/* Parses bytes[0..len) and calls cb for every complete row. Returns 0, or
 * PQPAN_ERR_MALFORMED (p->error, p->error_line say why and where), the callback's error,
 * PQPAN_ERR_STATE after an earlier error or after finish, PQPAN_ERR_INVALID_ARG. */
PQPAN_MUST_CHECK int pqpan_ppk2_feed(struct pqpan_ppk2_parser *p, const uint8_t *bytes,
                                     size_t len, pqpan_ppk2_sample_fn cb, void *cb_ctx);

/* Ends the input: parses a last line that has no newline. Such a line is accepted only
 * if it is complete: every column present and valid and, when the current is the last
 * column, with as many decimals as the previous row's (a file cut inside the number is
 * PQPAN_PPK2_E_TRUNCATED, never a silently shortened value). An input without any line
 * is PQPAN_PPK2_E_HEADER. */
PQPAN_MUST_CHECK int pqpan_ppk2_finish(struct pqpan_ppk2_parser *p, pqpan_ppk2_sample_fn cb,
                                       void *cb_ctx);

/* A short English description of an enum pqpan_ppk2_error (never NULL). */
const char *pqpan_ppk2_error_text(int error);

/* Writer. Both write into out[0..cap) without a terminating NUL, set *written and return
 * 0, or PQPAN_ERR_BUFFER_TOO_SMALL (PQPAN_PPK2_LINE_MAX + 1 always suffices) or
 * PQPAN_ERR_INVALID_ARG (unknown layout, NaN or |I| >= 1e15 uA, bad digital state).
 * Rows: timestamp in ms with the shortest exact decimals of its ns value, current with 3
 * decimals (as the app writes), digital columns per layout, then '\n'. */
PQPAN_MUST_CHECK int pqpan_ppk2_write_header(char *out, size_t cap, int layout,
                                             size_t *written);
PQPAN_MUST_CHECK int pqpan_ppk2_write_row(char *out, size_t cap, int layout,
                                          const struct pqpan_ppk2_sample *s, size_t *written);

/* ---- Analysis ---------------------------------------------------------------------- */

#define PQPAN_TRACE_MAX_PHASES 16
#define PQPAN_TRACE_NAME_MAX 24     /* phase name, NUL included */

/* Current histogram used for quantiles: |I| from PQPAN_TRACE_HIST_FLOOR_UA to 1e7 uA in
 * logarithmic bins, each a factor (1 + PQPAN_TRACE_HIST_STEP) wide, one set per sign,
 * and one bin for |I| < floor. Each bin keeps its count and the exact min and max of its
 * samples; a reported quantile is the midpoint of its bin's min and max, so it is within
 * half a bin, PQPAN_TRACE_QUANTILE_REL_ERROR, of the exact nearest-rank quantile (within
 * the floor for values near 0), and exact when the bin holds one repeated value. |I|
 * above 1e7 uA land in the outermost bin, still between that bin's exact min and max. */
#define PQPAN_TRACE_HIST_FLOOR_UA 0.01
#define PQPAN_TRACE_HIST_STEP 0.005
#define PQPAN_TRACE_HIST_SIDE 4156  /* ceil(ln(1e9) / ln(1.005)) */
#define PQPAN_TRACE_HIST_BINS (2 * PQPAN_TRACE_HIST_SIDE + 1)
#define PQPAN_TRACE_QUANTILE_REL_ERROR 0.0025 /* half a bin: 0.005 / 2 */

struct pqpan_trace_bin {
    uint64_t count;
    double min_ua;
    double max_ua;
};

/* Workspace length in bins: PQPAN_TRACE_HIST_BINS for the whole trace + as many per phase. */
#define PQPAN_TRACE_WORKSPACE_LEN(n_phases) ((size_t)PQPAN_TRACE_HIST_BINS * ((size_t)(n_phases) + 1u))

enum pqpan_trace_phase_kind {
    PQPAN_TRACE_PHASE_DIGITAL = 1, /* active while digital channel `channel` reads '1' */
    PQPAN_TRACE_PHASE_WINDOW       /* active for start_ns <= t < end_ns */
};

struct pqpan_trace_phase_def {
    char name[PQPAN_TRACE_NAME_MAX];
    uint8_t kind;        /* enum pqpan_trace_phase_kind */
    uint8_t channel;     /* 0..7, DIGITAL only */
    int64_t start_ns;    /* WINDOW only */
    int64_t end_ns;
};

enum pqpan_trace_baseline {
    PQPAN_TRACE_BASELINE_NONE = 0,
    PQPAN_TRACE_BASELINE_FIXED,     /* config.baseline_ua */
    PQPAN_TRACE_BASELINE_PERCENTILE /* config.baseline_percentile of all samples */
};

struct pqpan_trace_config {
    double voltage_v;            /* supply voltage, > 0 */
    uint8_t baseline;            /* enum pqpan_trace_baseline */
    double baseline_ua;          /* FIXED */
    double baseline_percentile;  /* PERCENTILE, in (0, 100) */
    size_t n_phases;
    struct pqpan_trace_phase_def phases[PQPAN_TRACE_MAX_PHASES];
};

struct pqpan_trace_acc {
    uint64_t samples;
    uint64_t segments;     /* runs of consecutive active samples */
    int64_t duration_ns;
    double charge_ua_ms;   /* integral of I dt, trapezoid */
    double min_ua;
    double max_ua;
    uint8_t active;        /* the previous sample was active */
};

/* One segment of a DIGITAL phase: a run of consecutive rows whose channel reads '1',
 * from its first row to the next row (or to the trace's last row). Segments of the crypto
 * channel are the individual operations (KeyGen, Encaps, Decaps in the order run). */
struct pqpan_trace_segment {
    size_t phase;          /* index into the config's phases */
    uint64_t index;        /* 0 for the phase's first segment */
    int64_t start_ns;
    int64_t duration_ns;
    uint64_t samples;
    double charge_ua_ms;   /* gross integral of I dt (no baseline subtracted) */
    double min_ua;         /* gross */
    double max_ua;
};

/* Called when a segment ends. Return 0, or a negative PQPAN_ERR_* that pqpan_trace_add or
 * pqpan_trace_end then return (the analysis must then be discarded). */
typedef int (*pqpan_trace_segment_fn)(void *ctx, const struct pqpan_trace_segment *seg);

/* Analysis state: holds the previous sample, one accumulator and one open segment per
 * phase. The histogram counters live in a caller-given workspace, passed to every call.
 * seg_fn/seg_ctx are the caller's (set by pqpan_trace_on_segment), never interior. */
struct pqpan_trace {
    struct pqpan_trace_config cfg;
    struct pqpan_trace_acc total;
    struct pqpan_trace_acc phase[PQPAN_TRACE_MAX_PHASES];
    struct pqpan_trace_segment seg[PQPAN_TRACE_MAX_PHASES];
    pqpan_trace_segment_fn seg_fn;
    void *seg_ctx;
    struct pqpan_ppk2_sample prev;
    uint8_t have_prev;
    uint8_t ended;
    int64_t min_interval_ns;
    int64_t max_interval_ns;
};

/* Results; currents and energies are net of the baseline (gross = net + baseline·V·t). */
struct pqpan_trace_stats {
    char name[PQPAN_TRACE_NAME_MAX];
    uint64_t samples;
    uint64_t segments;
    double duration_ms;
    double energy_uj;
    double avg_current_ua;
    double min_ua;
    double median_ua;
    double p99_ua;
    double max_ua;
};

struct pqpan_trace_result {
    double baseline_ua;          /* what was subtracted (0 for NONE) */
    double voltage_v;
    double min_interval_ms;      /* smallest / largest time step between rows; a largest */
    double max_interval_ms;      /* step well above the smallest means a gap, bridged by the trapezoid */
    struct pqpan_trace_stats total;
    size_t n_phases;
    struct pqpan_trace_stats phase[PQPAN_TRACE_MAX_PHASES];
};

/* Checks cfg (voltage > 0, phases valid, windows start < end) and that ws_len >=
 * PQPAN_TRACE_WORKSPACE_LEN(cfg->n_phases); zeroes ws. */
PQPAN_MUST_CHECK int pqpan_trace_init(struct pqpan_trace *t, const struct pqpan_trace_config *cfg,
                                      struct pqpan_trace_bin *ws, size_t ws_len);

/* Reports every DIGITAL phase segment to fn as it ends (fn == NULL: none). Call after
 * pqpan_trace_init, before the first sample. */
void pqpan_trace_on_segment(struct pqpan_trace *t, pqpan_trace_segment_fn fn, void *ctx);

/* Adds one sample (times must not decrease and stay within +-PQPAN_PPK2_TIME_MAX_NS). PQPAN_ERR_UNSUPPORTED if a DIGITAL phase is
 * configured and the sample carries no digital channels. */
PQPAN_MUST_CHECK int pqpan_trace_add(struct pqpan_trace *t, struct pqpan_trace_bin *ws,
                                     const struct pqpan_ppk2_sample *s);

/* Ends the trace: reports the segments still open (they end at the last row). Further
 * pqpan_trace_add calls return PQPAN_ERR_STATE. */
PQPAN_MUST_CHECK int pqpan_trace_end(struct pqpan_trace *t);

/* Energy in uJ of a charge (uA*ms) over duration_ms at voltage_v, net of baseline_ua:
 * (charge - baseline * duration) * V / 1000. */
double pqpan_trace_energy_uj(double charge_ua_ms, double duration_ms, double baseline_ua,
                             double voltage_v);

/* Fills out (zeroed first). Quantiles come from the histogram, see above. */
PQPAN_MUST_CHECK int pqpan_trace_result(const struct pqpan_trace *t,
                                        const struct pqpan_trace_bin *ws,
                                        struct pqpan_trace_result *out);

#endif
