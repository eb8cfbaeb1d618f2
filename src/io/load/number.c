/* The one number grammar of every file and option (include/pqpan/io.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "pqpan/io.h"

/* The digits at s: their count. */
static size_t digits_at(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9') {
        n++;
    }
    return n;
}

/* Whether s is all one number of JSON's grammar (RFC 8259 §6):
 * -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?; an integer only (no sign, fraction or
 * exponent) when integer is set. Nothing else: no spaces, '+', hex, "inf" or "nan". */
static int json_number(const char *s, int integer)
{
    size_t n;
    if (!integer && *s == '-') {
        s++;
    }
    n = digits_at(s);
    if (n == 0 || (s[0] == '0' && n > 1)) {
        return 0;
    }
    s += n;
    if (!integer && *s == '.') {
        n = digits_at(++s);
        if (n == 0) {
            return 0;
        }
        s += n;
    }
    if (!integer && (*s == 'e' || *s == 'E')) {
        s++;
        s += *s == '+' || *s == '-';
        n = digits_at(s);
        if (n == 0) {
            return 0;
        }
        s += n;
    }
    return *s == '\0';
}

int pqpan_io_parse_uint(const char *s, unsigned long long min, unsigned long long max,
                        unsigned long long *out)
{
    unsigned long long v;
    if (s == NULL || out == NULL || !json_number(s, 1)) {
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
    if (s == NULL || out == NULL || !json_number(s, 0)) {
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
