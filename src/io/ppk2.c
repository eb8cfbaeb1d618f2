/* PPK2 CSV: streaming push parser and row writer (format: see include/pqpan/trace.h). */
#include <string.h>

#include "pqpan/trace.h"

#define MAX_FIELDS 11                       /* Timestamp, Current, D0-D7, D0..D7 */
#define NS_PER_MS 1000000
#define CURRENT_INT_DIGITS_MAX 15           /* |I| < 1e15 uA */
#define MANTISSA_DIGITS_MAX 18              /* < 2^63; exact in a double up to 2^53 */
#define MILLI_LIMIT 1000000000000000000ULL  /* 1e15 uA in units of 1e-3 uA */

static const char *const headers[] = {
    NULL,
    "Timestamp(ms),Current(uA)",
    "Timestamp(ms),Current(uA),D0-D7",
    "Timestamp(ms),Current(uA),D0,D1,D2,D3,D4,D5,D6,D7",
    "Timestamp(ms),Current(uA),D0-D7,D0,D1,D2,D3,D4,D5,D6,D7",
};

static const size_t layout_fields[] = {0, 2, 3, 10, 11};

/* A decimal "[+-]digits[.digits]" split into its parts; no exponent, no locale. */
struct decimal {
    uint8_t neg;
    const char *int_digits;
    size_t int_len;
    const char *frac_digits;
    size_t frac_len;
};

struct field {
    size_t start;
    size_t len;
};

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int split_decimal(const char *s, size_t len, struct decimal *d)
{
    size_t i = 0;
    memset(d, 0, sizeof *d);
    if (len > 0 && (s[0] == '-' || s[0] == '+')) {
        d->neg = (uint8_t)(s[0] == '-');
        i = 1;
    }
    d->int_digits = s + i;
    while (i < len && is_digit(s[i])) {
        i++;
    }
    d->int_len = (size_t)(s + i - d->int_digits);
    if (d->int_len == 0) {
        return -1;
    }
    if (i < len && s[i] == '.') {
        i++;
        d->frac_digits = s + i;
        while (i < len && is_digit(s[i])) {
            i++;
        }
        d->frac_len = (size_t)(s + i - d->frac_digits);
        if (d->frac_len == 0) {
            return -1;
        }
    }
    return i == len ? 0 : -1;
}

/* Milliseconds with any decimals -> ns, rounded half up on the 7th decimal. */
static enum pqpan_ppk2_error parse_time_ns(const char *s, size_t len, int64_t *out)
{
    struct decimal d;
    uint64_t ms = 0, frac = 0;
    size_t i;
    if (split_decimal(s, len, &d) != 0) {
        return PQPAN_PPK2_E_NUMBER;
    }
    for (i = 0; i < d.int_len; i++) {
        ms = ms * 10u + (uint64_t)(d.int_digits[i] - '0');
        if (ms > (uint64_t)PQPAN_PPK2_TIME_MAX_MS) {
            return PQPAN_PPK2_E_RANGE;
        }
    }
    for (i = 0; i < 6; i++) {
        frac = frac * 10u + (i < d.frac_len ? (uint64_t)(d.frac_digits[i] - '0') : 0u);
    }
    if (d.frac_len > 6 && d.frac_digits[6] >= '5') {
        frac++;
    }
    if (ms == (uint64_t)PQPAN_PPK2_TIME_MAX_MS && frac > 0) {
        return PQPAN_PPK2_E_RANGE;
    }
    *out = (int64_t)(ms * NS_PER_MS + frac);
    if (d.neg) {
        *out = -*out;
    }
    return PQPAN_PPK2_E_NONE;
}

static double pow10_of(size_t k)
{
    double v = 1.0;
    while (k-- > 0) {
        v *= 10.0;
    }
    return v;
}

/* Microamps with any decimals -> double. Up to 18 significant digits are kept exactly in
 * an integer and divided once by a power of ten (correctly rounded while the mantissa is
 * below 2^53 and the scale at most 22). */
static enum pqpan_ppk2_error parse_current(const char *s, size_t len, double *out,
                                           unsigned *decimals)
{
    struct decimal d;
    uint64_t mant = 0;
    size_t i, digits = 0, scale = 0;
    double v;
    if (split_decimal(s, len, &d) != 0) {
        return PQPAN_PPK2_E_NUMBER;
    }
    for (i = 0; i < d.int_len; i++) {
        mant = mant * 10u + (uint64_t)(d.int_digits[i] - '0');
        digits += (mant != 0);
    }
    if (digits > CURRENT_INT_DIGITS_MAX) {
        return PQPAN_PPK2_E_RANGE;
    }
    for (i = 0; i < d.frac_len && digits < MANTISSA_DIGITS_MAX; i++) {
        mant = mant * 10u + (uint64_t)(d.frac_digits[i] - '0');
        digits += (mant != 0);
        scale++;
    }
    v = (double)mant;
    while (scale > 22) {
        v /= 1e22;
        scale -= 22;
    }
    v /= pow10_of(scale);
    *out = d.neg ? -v : v;
    *decimals = (unsigned)(d.frac_len > 255 ? 255 : d.frac_len);
    return PQPAN_PPK2_E_NONE;
}

static int digital_state(char c)
{
    switch (c) {
    case '0':
        return PQPAN_PPK2_DIG_LOW;
    case '1':
        return PQPAN_PPK2_DIG_HIGH;
    case '-':
        return PQPAN_PPK2_DIG_NONE;
    case 'X':
        return PQPAN_PPK2_DIG_MIXED;
    default:
        return -1;
    }
}

static const char digital_chars[] = {'0', '1', '-', 'X'};

static enum pqpan_ppk2_error parse_packed(const char *s, size_t len, uint8_t dig[8])
{
    size_t i;
    if (len != PQPAN_PPK2_CHANNELS) {
        return PQPAN_PPK2_E_DIGITAL;
    }
    for (i = 0; i < PQPAN_PPK2_CHANNELS; i++) {
        int st = digital_state(s[i]);
        if (st < 0) {
            return PQPAN_PPK2_E_DIGITAL;
        }
        dig[i] = (uint8_t)st;
    }
    return PQPAN_PPK2_E_NONE;
}

static enum pqpan_ppk2_error parse_split(const char *line, const struct field *f, uint8_t dig[8])
{
    size_t i;
    for (i = 0; i < PQPAN_PPK2_CHANNELS; i++) {
        int st = f[i].len == 1 ? digital_state(line[f[i].start]) : -1;
        if (st < 0) {
            return PQPAN_PPK2_E_DIGITAL;
        }
        dig[i] = (uint8_t)st;
    }
    return PQPAN_PPK2_E_NONE;
}

static size_t split_fields(const char *line, size_t len, struct field f[MAX_FIELDS])
{
    size_t n = 0, start = 0, i;
    for (i = 0; i <= len; i++) {
        if (i == len || line[i] == ',') {
            if (n == MAX_FIELDS) {
                return MAX_FIELDS + 1;
            }
            f[n].start = start;
            f[n].len = i - start;
            n++;
            start = i + 1;
        }
    }
    return n;
}

static enum pqpan_ppk2_error parse_digital(const struct pqpan_ppk2_parser *p, const char *line,
                                           const struct field *f, struct pqpan_ppk2_sample *s)
{
    uint8_t split[PQPAN_PPK2_CHANNELS];
    enum pqpan_ppk2_error e = PQPAN_PPK2_E_NONE;
    switch (p->layout) {
    case PQPAN_PPK2_LAYOUT_PACKED:
        e = parse_packed(line + f[2].start, f[2].len, s->digital);
        break;
    case PQPAN_PPK2_LAYOUT_SPLIT:
        e = parse_split(line, f + 2, s->digital);
        break;
    case PQPAN_PPK2_LAYOUT_BOTH:
        e = parse_packed(line + f[2].start, f[2].len, s->digital);
        if (e == PQPAN_PPK2_E_NONE) {
            e = parse_split(line, f + 3, split);
        }
        if (e == PQPAN_PPK2_E_NONE && memcmp(split, s->digital, sizeof split) != 0) {
            e = PQPAN_PPK2_E_DIGITAL_MISMATCH;
        }
        break;
    default:
        memset(s->digital, PQPAN_PPK2_DIG_NONE, sizeof s->digital);
        return PQPAN_PPK2_E_NONE;
    }
    s->channels = PQPAN_PPK2_CHANNELS;
    return e;
}

/* Parses one data row. `last` marks an unterminated final line, which must be complete. */
static enum pqpan_ppk2_error parse_row(const struct pqpan_ppk2_parser *p, const char *line,
                                       size_t len, int last, struct pqpan_ppk2_sample *s,
                                       unsigned *decimals)
{
    struct field f[MAX_FIELDS];
    size_t n = split_fields(line, len, f);
    enum pqpan_ppk2_error e;
    memset(s, 0, sizeof *s);
    if (n != layout_fields[p->layout]) {
        return last ? PQPAN_PPK2_E_TRUNCATED : PQPAN_PPK2_E_COLUMNS;
    }
    e = parse_time_ns(line + f[0].start, f[0].len, &s->time_ns);
    if (e == PQPAN_PPK2_E_NONE) {
        e = parse_current(line + f[1].start, f[1].len, &s->current_ua, decimals);
    }
    if (e == PQPAN_PPK2_E_NONE) {
        e = parse_digital(p, line, f, s);
    }
    if (e != PQPAN_PPK2_E_NONE) {
        return last ? PQPAN_PPK2_E_TRUNCATED : e;
    }
    if (last && p->layout == PQPAN_PPK2_LAYOUT_CURRENT && p->rows_read > 0 &&
        *decimals != p->last_decimals) {
        return PQPAN_PPK2_E_TRUNCATED;
    }
    if (p->rows_read > 0 && s->time_ns < p->last_time_ns) {
        return PQPAN_PPK2_E_TIME_BACKWARDS;
    }
    s->line = p->line_no;
    return PQPAN_PPK2_E_NONE;
}

static int parse_header(struct pqpan_ppk2_parser *p, const char *line, size_t len)
{
    static const char bom[] = "\xEF\xBB\xBF";
    size_t i;
    if (len >= 3 && memcmp(line, bom, 3) == 0) {
        line += 3;
        len -= 3;
    }
    for (i = PQPAN_PPK2_LAYOUT_CURRENT; i <= PQPAN_PPK2_LAYOUT_BOTH; i++) {
        if (strlen(headers[i]) == len && memcmp(headers[i], line, len) == 0) {
            p->layout = (uint8_t)i;
            return 0;
        }
    }
    return -1;
}

static int fail(struct pqpan_ppk2_parser *p, enum pqpan_ppk2_error e, int ret)
{
    p->failed = 1;
    p->error = (uint8_t)e;
    p->error_line = p->line_no;
    return ret;
}

/* A bad data row: fatal in strict mode, counted in lenient mode. */
static int reject_row(struct pqpan_ppk2_parser *p, enum pqpan_ppk2_error e)
{
    if ((p->flags & PQPAN_PPK2_LENIENT) == 0) {
        return fail(p, e, PQPAN_ERR_MALFORMED);
    }
    if (p->rows_skipped == 0) {
        p->first_skip_error = (uint8_t)e;
        p->first_skip_line = p->line_no;
    }
    p->rows_skipped++;
    return PQPAN_OK;
}

/* Handles the complete line in p->line (line ending removed). */
static int process_line(struct pqpan_ppk2_parser *p, int last, pqpan_ppk2_sample_fn cb,
                        void *cb_ctx)
{
    struct pqpan_ppk2_sample s;
    enum pqpan_ppk2_error e;
    unsigned decimals = 0;
    size_t len = p->line_len;
    int ret;
    if (len > 0 && p->line[len - 1] == '\r') {
        len--;
    }
    if (p->layout == PQPAN_PPK2_LAYOUT_NONE) {
        return parse_header(p, p->line, len) == 0 ? PQPAN_OK
                                                  : fail(p, PQPAN_PPK2_E_HEADER, PQPAN_ERR_MALFORMED);
    }
    if (len == 0) {
        p->blank_lines++;
        return PQPAN_OK;
    }
    e = parse_row(p, p->line, len, last, &s, &decimals);
    if (e != PQPAN_PPK2_E_NONE) {
        return reject_row(p, e);
    }
    ret = cb != NULL ? cb(cb_ctx, &s) : 0;
    if (ret != 0) {
        return fail(p, PQPAN_PPK2_E_CALLBACK, ret < 0 ? ret : PQPAN_ERR_INVALID_ARG);
    }
    p->rows_read++;
    p->last_time_ns = s.time_ns;
    p->last_decimals = decimals;
    return PQPAN_OK;
}

void pqpan_ppk2_parser_init(struct pqpan_ppk2_parser *p, unsigned flags)
{
    memset(p, 0, sizeof *p);
    p->flags = flags;
    p->line_no = 1;
}

/* Appends bytes up to the next newline to the line buffer; returns how many it used and
 * sets *eol when the newline was among them. Over-long lines switch to discarding. */
static size_t take_line_bytes(struct pqpan_ppk2_parser *p, const uint8_t *bytes, size_t len,
                              int *eol)
{
    const uint8_t *nl = memchr(bytes, '\n', len);
    size_t n = nl != NULL ? (size_t)(nl - bytes) : len;
    *eol = nl != NULL;
    if (!p->discarding) {
        if (n > PQPAN_PPK2_LINE_MAX - p->line_len) {
            p->discarding = 1;
        } else {
            memcpy(p->line + p->line_len, bytes, n);
            p->line_len += n;
        }
    }
    return n + (size_t)*eol;
}

static int end_of_line(struct pqpan_ppk2_parser *p, int last, pqpan_ppk2_sample_fn cb,
                       void *cb_ctx)
{
    int ret;
    if (p->discarding) {
        ret = p->layout == PQPAN_PPK2_LAYOUT_NONE
                  ? fail(p, PQPAN_PPK2_E_HEADER, PQPAN_ERR_MALFORMED)
                  : reject_row(p, PQPAN_PPK2_E_LINE_TOO_LONG);
    } else {
        ret = process_line(p, last, cb, cb_ctx);
    }
    p->discarding = 0;
    p->line_len = 0;
    if (ret == PQPAN_OK) {
        p->line_no++;
    }
    return ret;
}

int pqpan_ppk2_feed(struct pqpan_ppk2_parser *p, const uint8_t *bytes, size_t len,
                    pqpan_ppk2_sample_fn cb, void *cb_ctx)
{
    size_t pos = 0;
    if (p == NULL || (bytes == NULL && len > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (p->failed || p->finished) {
        return PQPAN_ERR_STATE;
    }
    while (pos < len) {
        int eol, ret;
        pos += take_line_bytes(p, bytes + pos, len - pos, &eol);
        if (!eol) {
            break;
        }
        ret = end_of_line(p, 0, cb, cb_ctx);
        if (ret != PQPAN_OK) {
            return ret;
        }
    }
    if (p->discarding && p->layout == PQPAN_PPK2_LAYOUT_NONE) {
        return fail(p, PQPAN_PPK2_E_HEADER, PQPAN_ERR_MALFORMED);
    }
    return PQPAN_OK;
}

int pqpan_ppk2_finish(struct pqpan_ppk2_parser *p, pqpan_ppk2_sample_fn cb, void *cb_ctx)
{
    int ret = PQPAN_OK;
    if (p == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (p->failed || p->finished) {
        return PQPAN_ERR_STATE;
    }
    if (p->line_len > 0 || p->discarding) {
        ret = end_of_line(p, 1, cb, cb_ctx);
    }
    if (ret == PQPAN_OK && p->layout == PQPAN_PPK2_LAYOUT_NONE) {
        ret = fail(p, PQPAN_PPK2_E_HEADER, PQPAN_ERR_MALFORMED);
    }
    p->finished = 1;
    return ret;
}

const char *pqpan_ppk2_error_text(int error)
{
    static const char *const texts[] = {
        "no error",
        "unknown header (expected Timestamp(ms),Current(uA)[,D0-D7][,D0,...,D7])",
        "non-numeric field (expected a decimal number like 12.345)",
        "number out of range",
        "bad digital state (expected 0, 1, - or X per channel)",
        "D0-D7 and D0,...,D7 columns disagree",
        "wrong number of columns for the header",
        "time going backwards",
        "line too long",
        "truncated last line (no newline and incomplete)",
        "sample rejected by the analysis",
    };
    if (error < 0 || (size_t)error >= sizeof texts / sizeof texts[0]) {
        return "unknown PPK2 error";
    }
    return texts[error];
}

/* ---- Writer ---------------------------------------------------------------------- */

struct out_buf {
    char *p;
    size_t cap;
    size_t len;
    int overflow;
};

static void put_bytes(struct out_buf *o, const char *s, size_t n)
{
    if (n > o->cap - o->len) {
        o->overflow = 1;
        return;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

static void put_char(struct out_buf *o, char c)
{
    put_bytes(o, &c, 1);
}

/* Unsigned decimal, at least min_digits wide with leading zeros. */
static void put_uint(struct out_buf *o, uint64_t v, unsigned min_digits)
{
    char tmp[24];
    size_t n = 0;
    do {
        tmp[sizeof tmp - 1 - n] = (char)('0' + (v % 10u));
        v /= 10u;
        n++;
    } while (v != 0 || n < min_digits);
    put_bytes(o, tmp + sizeof tmp - n, n);
}

static void put_time_ms(struct out_buf *o, int64_t ns)
{
    uint64_t mag = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    uint64_t frac = mag % NS_PER_MS;
    unsigned digits = 6;
    if (ns < 0) {
        put_char(o, '-');
    }
    put_uint(o, mag / NS_PER_MS, 1);
    if (frac == 0) {
        return;
    }
    while (frac % 10u == 0) {
        frac /= 10u;
        digits--;
    }
    put_char(o, '.');
    put_uint(o, frac, digits);
}

/* Current with exactly 3 decimals, rounded half away from zero (JS toFixed(3)). */
static int put_current(struct out_buf *o, double ua)
{
    double scaled;
    uint64_t milli;
    if (!(ua > -1e15 && ua < 1e15)) {
        return -1;
    }
    scaled = (ua < 0 ? -ua : ua) * 1000.0 + 0.5;
    milli = (uint64_t)scaled;
    if (milli >= MILLI_LIMIT) {
        return -1;
    }
    if (ua < 0 && milli != 0) {
        put_char(o, '-');
    }
    put_uint(o, milli / 1000u, 1);
    put_char(o, '.');
    put_uint(o, milli % 1000u, 3);
    return 0;
}

static int put_digital(struct out_buf *o, const uint8_t dig[8], int split)
{
    size_t i;
    for (i = 0; i < PQPAN_PPK2_CHANNELS; i++) {
        if (dig[i] > PQPAN_PPK2_DIG_MIXED) {
            return -1;
        }
        if (split) {
            put_char(o, ',');
        }
        put_char(o, digital_chars[dig[i]]);
    }
    return 0;
}

static int finish_out(const struct out_buf *o, char *out, size_t *written)
{
    if (o->overflow) {
        memset(out, 0, o->cap);
        *written = 0;
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    *written = o->len;
    return PQPAN_OK;
}

int pqpan_ppk2_write_header(char *out, size_t cap, int layout, size_t *written)
{
    struct out_buf o = {out, cap, 0, 0};
    if (out == NULL || written == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *written = 0;
    if (layout < PQPAN_PPK2_LAYOUT_CURRENT || layout > PQPAN_PPK2_LAYOUT_BOTH) {
        return PQPAN_ERR_INVALID_ARG;
    }
    put_bytes(&o, headers[layout], strlen(headers[layout]));
    put_char(&o, '\n');
    return finish_out(&o, out, written);
}

int pqpan_ppk2_write_row(char *out, size_t cap, int layout, const struct pqpan_ppk2_sample *s,
                         size_t *written)
{
    struct out_buf o = {out, cap, 0, 0};
    int bad = 0;
    if (out == NULL || written == NULL || s == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *written = 0;
    if (layout < PQPAN_PPK2_LAYOUT_CURRENT || layout > PQPAN_PPK2_LAYOUT_BOTH) {
        return PQPAN_ERR_INVALID_ARG;
    }
    put_time_ms(&o, s->time_ns);
    put_char(&o, ',');
    bad |= put_current(&o, s->current_ua);
    if (layout == PQPAN_PPK2_LAYOUT_PACKED || layout == PQPAN_PPK2_LAYOUT_BOTH) {
        put_char(&o, ',');
        bad |= put_digital(&o, s->digital, 0);
    }
    if (layout == PQPAN_PPK2_LAYOUT_SPLIT || layout == PQPAN_PPK2_LAYOUT_BOTH) {
        bad |= put_digital(&o, s->digital, 1);
    }
    put_char(&o, '\n');
    if (bad) {
        memset(out, 0, cap);
        return PQPAN_ERR_INVALID_ARG;
    }
    return finish_out(&o, out, written);
}
