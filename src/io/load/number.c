/* The one number grammar of every file and option (include/pqpan/io.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "number.h"
#include "pqpan/io.h"

/* The digits at s[0..n): their count. */
static size_t digits_at(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && s[i] >= '0' && s[i] <= '9') {
        i++;
    }
    return i;
}

/* Whether s[0..n) is all one number of JSON's grammar (RFC 8259 §6):
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; an integer only (no sign, fraction or
 * exponent) when integer is set. Nothing else: no spaces, '+', hex, "inf" or "nan". */
static int json_number(const char *s, size_t n, int integer)
{
    size_t i = 0, d;
    if (!integer && i < n && s[i] == '-') {
        i++;
    }
    d = digits_at(s + i, n - i);
    if (d == 0 || (s[i] == '0' && d > 1)) {
        return 0;
    }
    i += d;
    if (!integer && i < n && s[i] == '.') {
        i++;
        d = digits_at(s + i, n - i);
        if (d == 0) {
            return 0;
        }
        i += d;
    }
    if (!integer && i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        i += i < n && (s[i] == '+' || s[i] == '-');
        d = digits_at(s + i, n - i);
        if (d == 0) {
            return 0;
        }
        i += d;
    }
    return i == n;
}

/* The length of the number-like token at s (the characters a number may hold). */
static size_t token_len(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && ((s[i] >= '0' && s[i] <= '9') || strchr("+-.eE", s[i]) != NULL)) {
        i++;
    }
    return i;
}

int pqpan_io_json_numbers_check(const char *text, size_t len, const char *origin, char *err,
                                size_t errlen)
{
    size_t i = 0, line = 1;
    int in_string = 0;
    while (i < len) {
        char c = text[i];
        size_t n;
        if (in_string) {
            i += c == '\\' ? 2u : 1u;
            in_string = c != '"';
            continue;
        }
        line += c == '\n';
        in_string = c == '"';
        if (c != '-' && (c < '0' || c > '9')) {
            i++;
            continue;
        }
        n = token_len(text + i, len - i);
        if (!json_number(text + i, n, 0)) {
            snprintf(err, errlen, "%s: line %zu: number '%.*s' is not a JSON number (RFC 8259 "
                                  "§6: no leading zeros, no '+', digits after a '.')",
                     origin, line, (int)(n > 40 ? 40 : n), text + i);
            return PQPAN_ERR_MALFORMED;
        }
        i += n;
    }
    return PQPAN_OK;
}

int pqpan_io_parse_uint(const char *s, unsigned long long min, unsigned long long max,
                        unsigned long long *out)
{
    unsigned long long v;
    if (s == NULL || out == NULL || !json_number(s, strlen(s), 1)) {
        return -1;
    }
    errno = 0;
    v = strtoull(s, NULL, 10);
    if (errno != 0 || v < min || v > max) {
        return -1;
    }
    *out = v;
    return 0;
}

int pqpan_io_parse_double(const char *s, double min, double max, double *out)
{
    double v;
    if (s == NULL || out == NULL || !json_number(s, strlen(s), 0)) {
        return -1;
    }
    errno = 0;
    v = strtod(s, NULL);
    if (errno != 0 || !isfinite(v) || v < min || v > max) {
        return -1;
    }
    *out = v;
    return 0;
}
