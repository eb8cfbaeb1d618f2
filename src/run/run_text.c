/* The run layer's text helpers (run_text.h), taken from the CLI's cli/util.c so that a run
 * checks words and numbers and words its messages as the CLI always has: words matched
 * ignoring ASCII case, "did you mean" suggestions, numbers in the one grammar of
 * pqpan_io_parse_uint / _double, fixed-point numbers as printf writes them. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pqpan/io.h"
#include "run_text.h"

int cli_msg_set(struct cli_msg *m, int rc, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(m->text, sizeof m->text, fmt, ap);
    va_end(ap);
    return rc;
}

/* 'A'..'Z' as 'a'..'z' (ASCII only: no locale). */
static int fold(int c)
{
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int cli_word_equal(const char *a, const char *b)
{
    for (; *a != '\0' && fold((unsigned char)*a) == fold((unsigned char)*b); a++, b++) {
    }
    return *a == '\0' && *b == '\0';
}

int cli_word_equal_n(const char *s, size_t len, const char *word)
{
    size_t k;
    if (strlen(word) != len) {
        return 0;
    }
    for (k = 0; k < len && fold((unsigned char)s[k]) == fold((unsigned char)word[k]); k++) {
    }
    return k == len;
}

int cli_word_index(const char *const *words, const char *v)
{
    int k;
    for (k = 0; words[k] != NULL; k++) {
        if (cli_word_equal(words[k], v)) {
            return k;
        }
    }
    return -1;
}

void cli_word_respell(char *v, const char *word)
{
    if (strcmp(v, word) != 0 && cli_word_equal(v, word)) {
        memcpy(v, word, strlen(word));
    }
}

/* Collects words joined with ", " into a struct joined (cli_words_join's helper). */
struct joined {
    char *buf;
    size_t len;
};


static void join_word(void *ctx, const char *word);

int cli_unknown_word_msg(struct cli_msg *m, const char *what, const char *v,
                         const char *const *words)
{
    char list[CLI_WORDS_MAX];
    struct joined j = {list, 0};
    struct cli_suggest s;
    list[0] = '\0';
    cli_words_each(words, join_word, &j);
    cli_suggest_init(&s, v);
    cli_words_each(words, cli_suggest_add, &s);
    return cli_msg_set(m, EXIT_USAGE, "unknown %s '%s' (want %s)%s", what, v, list,
                       cli_suggest_text(&s));
}

int cli_word_canonical(char *v, const char *const *words)
{
    int k = cli_word_index(words, v);
    if (k >= 0) {
        cli_word_respell(v, words[k]);
    }
    return k;
}

size_t cli_word_distance(const char *a, const char *b)
{
    /* rows i-2, i-1, i of the distance matrix (Wagner-Fischer with transpositions) */
    size_t d[3][CLI_WORD_DISTANCE_MAX + 1];
    size_t n = strlen(a), m = strlen(b), i, j;
    n = n < CLI_WORD_DISTANCE_MAX ? n : CLI_WORD_DISTANCE_MAX;
    m = m < CLI_WORD_DISTANCE_MAX ? m : CLI_WORD_DISTANCE_MAX;
    for (j = 0; j <= m; j++) {
        d[0][j] = j;
    }
    for (i = 1; i <= n; i++) {
        size_t *row = d[i % 3], *up = d[(i - 1) % 3], *up2 = d[(i + 1) % 3];
        row[0] = i;
        for (j = 1; j <= m; j++) {
            int ca = fold((unsigned char)a[i - 1]), cb = fold((unsigned char)b[j - 1]);
            size_t best = up[j - 1] + (ca != cb);
            best = up[j] + 1 < best ? up[j] + 1 : best;
            best = row[j - 1] + 1 < best ? row[j - 1] + 1 : best;
            if (i > 1 && j > 1 && ca == fold((unsigned char)b[j - 2]) &&
                fold((unsigned char)a[i - 2]) == cb && up2[j - 2] + 1 < best) {
                best = up2[j - 2] + 1;
            }
            row[j] = best;
        }
    }
    return d[n % 3][m];
}

void cli_suggest_init(struct cli_suggest *s, const char *given)
{
    size_t len = strlen(given);
    s->given = given;
    s->limit = len <= 7 ? 1u : len <= 11 ? 2u : 3u;
    s->best = s->limit + 1u;
    s->n = 0;
    s->text[0] = '\0';
}

/* Whether word is an option that ends in "-" + given's name: --idle-phy for --phy, an
 * option of the same thing under a longer name. */
static int longer_name(const char *given, const char *word)
{
    size_t g = strlen(given), w = strlen(word);
    return strncmp(given, "--", 2) == 0 && g > 2 && w > g && word[w - g + 1] == '-' &&
           cli_word_equal(word + w - g + 2, given + 2);
}

void cli_suggest_add(void *ctx, const char *word)
{
    struct cli_suggest *s = ctx;
    size_t d = cli_word_distance(s->given, word), k;
    if (d > s->limit && longer_name(s->given, word)) {
        d = s->limit;
    }
    if (d > s->limit || d > s->best || strlen(word) >= sizeof s->words[0]) {
        return;
    }
    if (d < s->best) {
        s->best = d;
        s->n = 0;
    }
    for (k = 0; k < s->n; k++) {
        if (strcmp(s->words[k], word) == 0) {
            return;
        }
    }
    if (s->n < CLI_SUGGEST_WORDS) {
        strcpy(s->words[s->n++], word);
    }
}

const char *cli_suggest_text(struct cli_suggest *s)
{
    size_t k, len = 0;
    s->text[0] = '\0';
    for (k = 0; k < s->n; k++) {
        const char *sep = k == 0 ? "; did you mean " : k + 1 < s->n ? ", " : " or ";
        int w = snprintf(s->text + len, sizeof s->text - len, "%s%s", sep, s->words[k]);
        len += w > 0 && (size_t)w < sizeof s->text - len ? (size_t)w : 0u;
    }
    if (s->n > 0 && len + 1 < sizeof s->text) {
        s->text[len] = '?';
        s->text[len + 1] = '\0';
    }
    return s->text;
}

void cli_words_each(const char *const *words, cli_word_fn add, void *ctx)
{
    size_t k;
    for (k = 0; words[k] != NULL; k++) {
        add(ctx, words[k]);
    }
}

static void join_word(void *ctx, const char *word)
{
    struct joined *j = ctx;
    int n = snprintf(j->buf + j->len, CLI_WORDS_MAX - j->len, "%s%s", j->len > 0 ? ", " : "", word);
    if (n > 0) {
        j->len += (size_t)n < CLI_WORDS_MAX - j->len ? (size_t)n : CLI_WORDS_MAX - 1u - j->len;
    }
}

const char *cli_words_join(char buf[CLI_WORDS_MAX], cli_choices_fn choices, const char *opt)
{
    struct joined j = {buf, 0};
    buf[0] = '\0';
    (void)choices(opt, join_word, &j);
    return buf;
}


int cli_parse_format(const char *value, enum cli_format *out)
{
    if (strcmp(value, "table") == 0) {
        *out = FORMAT_TABLE;
    } else if (strcmp(value, "csv") == 0) {
        *out = FORMAT_CSV;
    } else if (strcmp(value, "json") == 0) {
        *out = FORMAT_JSON;
    } else {
        return -1;
    }
    return 0;
}

/* round(|x| x 10^decimals) as printf rounds it, for |x| < 2^53 and decimals 0..3: |x| is
 * m x 2^(e-53) exactly (IEEE 754 binary64: m the 52 fraction bits under an implicit 1, e
 * the biased exponent less 1022; no libm call), so m x 10^decimals < 2^63 is an exact
 * integer and the bits shifted out decide the rounding: ties to even on the exact value.
 * Zero and subnormals (|x| < 2^-1022) round to 0. */
static uint64_t scaled_round(double x, int decimals)
{
    static const uint64_t scale[4] = {1u, 10u, 100u, 1000u};
    const uint64_t frac_mask = (UINT64_C(1) << 52) - 1u;
    uint64_t bits, ms, q, rest, half;
    int biased, sh;
    memcpy(&bits, &x, sizeof bits);
    biased = (int)(bits >> 52 & 0x7FFu);
    if (biased == 0) {
        return 0;
    }
    ms = ((bits & frac_mask) | (UINT64_C(1) << 52)) * scale[decimals];
    sh = 53 - (biased - 1022);
    if (sh >= 64) {
        return 0; /* below 2^63 / 2^64 = 0.5 */
    }
    q = ms >> sh;
    rest = ms & ((UINT64_C(1) << sh) - 1u);
    half = UINT64_C(1) << (sh - 1);
    return q + (rest > half || (rest == half && (q & 1u) != 0));
}

/* q / 10^decimals in decimal, with decimals digits after the point, after a minus when
 * neg; returns the length. */
static int write_decimal(char *out, uint64_t q, int decimals, int neg)
{
    char digits[24];
    int n = 0, len = 0;
    do {
        digits[n++] = (char)('0' + q % 10u);
        q /= 10u;
    } while (q > 0 || n <= decimals);
    if (neg) {
        out[len++] = '-';
    }
    while (n > decimals) {
        out[len++] = digits[--n];
    }
    if (decimals > 0) {
        out[len++] = '.';
        while (n > 0) {
            out[len++] = digits[--n];
        }
    }
    out[len] = '\0';
    return len;
}

int cli_format_fixed(char out[CLI_FIXED_MAX], double x, int decimals)
{
    if (decimals < 0 || decimals > 3 || !isfinite(x) || fabs(x) >= 1e15) {
        return snprintf(out, CLI_FIXED_MAX, "%.*f", decimals, x);
    }
    return write_decimal(out, scaled_round(x, decimals), decimals, signbit(x) != 0);
}

int cli_format_int(char out[CLI_FIXED_MAX], long long v)
{
    uint64_t mag = v < 0 ? (uint64_t)(-(v + 1)) + 1u : (uint64_t)v;
    return write_decimal(out, mag, 0, v < 0);
}

int cli_format_uint(char out[CLI_FIXED_MAX], unsigned long long v)
{
    return write_decimal(out, v, 0, 0);
}

int cli_parse_uint(const char *s, unsigned long long min, unsigned long long max,
                   unsigned long long *out)
{
    return pqpan_io_parse_uint(s, min, max, out);
}

int cli_parse_double(const char *s, double min, double max, double *out)
{
    return pqpan_io_parse_double(s, min, max, out);
}

int cli_parse_conn_interval(const char *s, uint64_t *ns)
{
    double ms, units;
    uint64_t n;
    if (cli_parse_double(s, 7.5, 4000.0, &ms) != 0) {
        return -1;
    }
    units = ms / 1.25;
    n = (uint64_t)(units + 0.5);
    if (fabs(units - (double)n) > 1e-9) {
        return -1;
    }
    *ns = n * 1250000u;
    return 0;
}

void cli_wrap(FILE *out, const char *s, size_t col, size_t indent)
{
    int first = 1;
    s += strspn(s, " ");
    while (*s != '\0') {
        size_t n = strcspn(s, " ");
        if (!first && col + 1 + n > CLI_WRAP_WIDTH) {
            fprintf(out, "\n%*s", (int)indent, "");
            col = indent;
        } else if (!first) {
            fputc(' ', out);
            col++;
        }
        fwrite(s, 1, n, out);
        col += n;
        first = 0;
        s += n;
        s += strspn(s, " ");
    }
}
