/* Tests for include/pqpan/trace.h: the PPK2 CSV parser and writer, and trace analysis.
 * Expected energies are computed by hand in the comments (trapezoid rule). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "pqpan/io.h"
#include "pqpan/trace.h"

#define MAX_ROWS 64

/* cmocka 1.1 compares floats only; doubles need their own check. */
#define assert_double_equal(a, b, eps) assert_double_near((a), (b), (eps), __LINE__)

static void assert_double_near(double got, double want, double eps, int line)
{
    if (!(got - want <= eps && want - got <= eps)) {
        fail_msg("line %d: got %.17g, want %.17g (+- %g)", line, got, want, eps);
    }
}

struct collected {
    size_t n;
    struct pqpan_ppk2_sample s[MAX_ROWS];
    int fail_at;   /* return an error from the callback at this row (1-based), 0 = never */
};

static int collect(void *ctx, const struct pqpan_ppk2_sample *s)
{
    struct collected *c = ctx;
    if (c->fail_at != 0 && (size_t)c->fail_at == c->n + 1) {
        return PQPAN_ERR_CAPACITY;
    }
    if (c->n < MAX_ROWS) {
        c->s[c->n] = *s;
    }
    c->n++;
    return 0;
}

/* Feeds text in chunks of `step` bytes, then finishes; returns the first error. */
static int parse_text(struct pqpan_ppk2_parser *p, unsigned flags, const char *text, size_t step,
                      struct collected *c)
{
    size_t len = strlen(text), pos = 0;
    int rc = 0;
    pqpan_ppk2_parser_init(p, flags);
    while (pos < len && rc == 0) {
        size_t n = len - pos < step ? len - pos : step;
        rc = pqpan_ppk2_feed(p, (const uint8_t *)text + pos, n, collect, c);
        pos += n;
    }
    if (rc == 0) {
        rc = pqpan_ppk2_finish(p, collect, c);
    }
    return rc;
}

/* The fixture's text, NUL-terminated; the caller frees it. */
static char *read_fixture(const char *name)
{
    char path[512], err[256];
    struct pqpan_io_text t;
    snprintf(path, sizeof path, "%s/tests/fixtures/ppk2/%s", PQPAN_SOURCE_DIR, name);
    assert_int_equal(pqpan_io_read_file(&t, path, PQPAN_IO_FILE_MAX, err, sizeof err), PQPAN_OK);
    assert_non_null(t.owned);
    return t.owned;
}

/* ---- Parser: the four header variants ---- */

static void check_packed_fixture_samples(const struct collected *c, int with_digital)
{
    assert_int_equal(c->n, 10);
    assert_int_equal(c->s[0].time_ns, 0);
    assert_int_equal(c->s[9].time_ns, 9000000);
    assert_true(c->s[2].current_ua == 2000.0);
    assert_int_equal(c->s[2].line, 4);
    if (with_digital) {
        assert_int_equal(c->s[2].channels, 8);
        assert_int_equal(c->s[2].digital[0], PQPAN_PPK2_DIG_HIGH);
        assert_int_equal(c->s[2].digital[1], PQPAN_PPK2_DIG_LOW);
        assert_int_equal(c->s[5].digital[1], PQPAN_PPK2_DIG_HIGH);
    }
}

static void test_header_variants(void **state)
{
    static const struct {
        const char *file;
        int layout;
    } cases[] = {
        {"packed.csv", PQPAN_PPK2_LAYOUT_PACKED},
        {"split.csv", PQPAN_PPK2_LAYOUT_SPLIT},
        {"both.csv", PQPAN_PPK2_LAYOUT_BOTH},
    };
    struct pqpan_ppk2_parser p;
    struct collected c;
    size_t i;
    char *text;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        text = read_fixture(cases[i].file);
        memset(&c, 0, sizeof c);
        assert_int_equal(parse_text(&p, 0, text, 4096, &c), 0);
        assert_int_equal(p.layout, cases[i].layout);
        check_packed_fixture_samples(&c, 1);
        free(text);
    }
    text = read_fixture("current_only.csv");
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, 0, text, 4096, &c), 0);
    assert_int_equal(p.layout, PQPAN_PPK2_LAYOUT_CURRENT);
    assert_int_equal(c.n, 11);
    assert_int_equal(c.s[10].time_ns, 10000000);
    assert_int_equal(c.s[10].channels, 0);
    assert_int_equal(c.s[10].digital[0], PQPAN_PPK2_DIG_NONE);
    free(text);
}

static void test_chunking_does_not_matter(void **state)
{
    struct pqpan_ppk2_parser p;
    static struct collected whole, bytewise;
    char *text = read_fixture("both.csv");
    size_t step;
    (void)state;
    memset(&whole, 0, sizeof whole);
    assert_int_equal(parse_text(&p, 0, text, 1 << 20, &whole), 0);
    for (step = 1; step < 20; step += 3) {
        memset(&bytewise, 0, sizeof bytewise);
        assert_int_equal(parse_text(&p, 0, text, step, &bytewise), 0);
        assert_int_equal(bytewise.n, whole.n);
        assert_memory_equal(bytewise.s, whole.s, sizeof whole.s);
    }
    free(text);
}

static void test_numbers_states_and_line_endings(void **state)
{
    struct pqpan_ppk2_parser p;
    struct collected c;
    (void)state;
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, 0,
                                "\xEF\xBB\xBFTimestamp(ms),Current(uA),D0-D7\r\n"
                                "0.30000000000000004,-0.5,01-X0000\r\n"
                                "0.3000005,0.125,11111111\r\n"
                                "\r\n"
                                "12345.678901,+7,00000000",
                                5, &c),
                     0);
    assert_int_equal(c.n, 3);
    assert_int_equal(c.s[0].time_ns, 300000);
    assert_true(c.s[0].current_ua == -0.5);
    assert_int_equal(c.s[0].digital[0], PQPAN_PPK2_DIG_LOW);
    assert_int_equal(c.s[0].digital[1], PQPAN_PPK2_DIG_HIGH);
    assert_int_equal(c.s[0].digital[2], PQPAN_PPK2_DIG_NONE);
    assert_int_equal(c.s[0].digital[3], PQPAN_PPK2_DIG_MIXED);
    assert_int_equal(c.s[1].time_ns, 300001); /* 7th decimal rounds half up */
    assert_true(c.s[1].current_ua == 0.125);
    assert_int_equal(c.s[2].time_ns, 12345678901);
    assert_true(c.s[2].current_ua == 7.0);
    assert_int_equal(c.s[2].line, 5);
    assert_int_equal(p.blank_lines, 1);
    assert_int_equal(p.rows_read, 3);
}

/* ---- Parser: each error with its line number ---- */

struct error_case {
    const char *text;
    int error;
    uint64_t line;
};

static const struct error_case error_cases[] = {
    {"Timestamp(ms),Current(mA)\n0,1\n", PQPAN_PPK2_E_HEADER, 1},
    {"", PQPAN_PPK2_E_HEADER, 1},
    {"Timestamp(ms),Current(uA)\n0,1.000\n1,abc\n", PQPAN_PPK2_E_NUMBER, 3},
    {"Timestamp(ms),Current(uA)\n0,1.000\n1e3,1.000\n", PQPAN_PPK2_E_NUMBER, 3},
    {"Timestamp(ms),Current(uA)\n0,1.000\n1,12.\n", PQPAN_PPK2_E_NUMBER, 3},
    {"Timestamp(ms),Current(uA)\n0, 1.000\n", PQPAN_PPK2_E_NUMBER, 2},
    {"Timestamp(ms),Current(uA)\n99999999999999,1.000\n", PQPAN_PPK2_E_RANGE, 2},
    {"Timestamp(ms),Current(uA)\n-4000000000000.0000005,1.000\n", PQPAN_PPK2_E_RANGE, 2},
    {"Timestamp(ms),Current(uA)\n4000000000000,1\n4000000000000.000001,1\n", PQPAN_PPK2_E_RANGE, 3},
    {"Timestamp(ms),Current(uA)\n0,1000000000000000\n", PQPAN_PPK2_E_RANGE, 2},
    {"Timestamp(ms),Current(uA),D0-D7\n0,1.000,0000000\n", PQPAN_PPK2_E_DIGITAL, 2},
    {"Timestamp(ms),Current(uA),D0-D7\n0,1.000,0000000x\n", PQPAN_PPK2_E_DIGITAL, 2},
    {"Timestamp(ms),Current(uA),D0,D1,D2,D3,D4,D5,D6,D7\n0,1.000,0,0,0,0,0,0,0,2\n",
     PQPAN_PPK2_E_DIGITAL, 2},
    {"Timestamp(ms),Current(uA),D0-D7,D0,D1,D2,D3,D4,D5,D6,D7\n0,1.000,10000000,0,0,0,0,0,0,0,0\n",
     PQPAN_PPK2_E_DIGITAL_MISMATCH, 2},
    {"Timestamp(ms),Current(uA)\n0,1.000\n1,1.000,00000000\n", PQPAN_PPK2_E_COLUMNS, 3},
    {"Timestamp(ms),Current(uA),D0-D7\n0,1.000,00000000\n1,1.000\n2,1.000,00000000\n",
     PQPAN_PPK2_E_COLUMNS, 3},
    {"Timestamp(ms),Current(uA)\n0,1.000\n2,1.000\n1.999,1.000\n", PQPAN_PPK2_E_TIME_BACKWARDS, 4},
    {"Timestamp(ms),Current(uA),D0-D7\n0,1.000,00000000\n1,1.0", PQPAN_PPK2_E_TRUNCATED, 3},
    {"Timestamp(ms),Current(uA),D0-D7\n0,1.000,00000000\n1,1.000,0000", PQPAN_PPK2_E_TRUNCATED, 3},
    {"Timestamp(ms),Current(uA)\n0,1.000\n1,1.0", PQPAN_PPK2_E_TRUNCATED, 3},
    {"Timestamp(ms),Current(uA)\n0,1.000\n1,", PQPAN_PPK2_E_TRUNCATED, 3},
};

static void test_errors_name_their_line(void **state)
{
    struct pqpan_ppk2_parser p;
    struct collected c;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof error_cases / sizeof error_cases[0]; i++) {
        memset(&c, 0, sizeof c);
        assert_int_equal(parse_text(&p, 0, error_cases[i].text, 7, &c), PQPAN_ERR_MALFORMED);
        if (p.error != error_cases[i].error || p.error_line != error_cases[i].line) {
            fail_msg("case %zu: got error %d at line %llu, want %d at line %llu", i, p.error,
                     (unsigned long long)p.error_line, error_cases[i].error,
                     (unsigned long long)error_cases[i].line);
        }
        assert_string_not_equal(pqpan_ppk2_error_text(p.error), "unknown PPK2 error");
    }
}

static void test_unterminated_complete_last_line_is_accepted(void **state)
{
    struct pqpan_ppk2_parser p;
    struct collected c;
    (void)state;
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, 0, "Timestamp(ms),Current(uA)\n0,1.000\n1,2.500", 64, &c), 0);
    assert_int_equal(c.n, 2);
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, 0, "Timestamp(ms),Current(uA),D0-D7\n0,1.0,00000000", 64, &c), 0);
    assert_int_equal(c.n, 1);
}

static void test_line_too_long(void **state)
{
    char text[2 * PQPAN_PPK2_LINE_MAX + 100];
    struct pqpan_ppk2_parser p;
    struct collected c;
    size_t n;
    (void)state;
    n = (size_t)snprintf(text, sizeof text, "Timestamp(ms),Current(uA)\n0,1.000\n1,1.");
    memset(text + n, '0', PQPAN_PPK2_LINE_MAX);
    memcpy(text + n + PQPAN_PPK2_LINE_MAX, "\n2,1.000\n", sizeof "\n2,1.000\n");
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, 0, text, 13, &c), PQPAN_ERR_MALFORMED);
    assert_int_equal(p.error, PQPAN_PPK2_E_LINE_TOO_LONG);
    assert_int_equal(p.error_line, 3);
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, PQPAN_PPK2_LENIENT, text, 13, &c), 0);
    assert_int_equal(p.rows_read, 2);
    assert_int_equal(p.rows_skipped, 1);
    assert_int_equal(c.s[1].line, 4);
    /* A line of exactly PQPAN_PPK2_LINE_MAX bytes is still accepted. */
    n = (size_t)snprintf(text, sizeof text, "Timestamp(ms),Current(uA)\n0,1.");
    memset(text + n, '0', PQPAN_PPK2_LINE_MAX - 4);
    memcpy(text + n + PQPAN_PPK2_LINE_MAX - 4, "\n", 2);
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, 0, text, 50, &c), 0);
    assert_int_equal(c.n, 1);
}

static void test_lenient_counts_and_skips(void **state)
{
    struct pqpan_ppk2_parser p;
    struct collected c;
    (void)state;
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, PQPAN_PPK2_LENIENT,
                                "Timestamp(ms),Current(uA),D0-D7\n"
                                "0,1.000,00000000\n"
                                "1,oops,00000000\n"     /* line 3: number */
                                "2,1.000\n"             /* line 4: columns */
                                "3,1.000,00000000\n"
                                "2.5,1.000,00000000\n"  /* line 6: backwards */
                                "4,1.000,0000000Z\n"    /* line 7: digital */
                                "5,1.000,00000000\n"
                                "6,1.0",                /* line 9: truncated */
                                3, &c),
                     0);
    assert_int_equal(p.rows_read, 3);
    assert_int_equal(p.rows_skipped, 5);
    assert_int_equal(p.first_skip_line, 3);
    assert_int_equal(p.first_skip_error, PQPAN_PPK2_E_NUMBER);
    assert_int_equal(c.s[2].time_ns, 5000000);
    /* An unknown header stays fatal: without it no row can be read. */
    memset(&c, 0, sizeof c);
    assert_int_equal(parse_text(&p, PQPAN_PPK2_LENIENT, "time,current\n0,1\n", 64, &c),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(p.error, PQPAN_PPK2_E_HEADER);
}

static void test_callback_error_and_state(void **state)
{
    struct pqpan_ppk2_parser p;
    struct collected c;
    const uint8_t more[] = "3,1.000\n";
    (void)state;
    memset(&c, 0, sizeof c);
    c.fail_at = 2;
    assert_int_equal(parse_text(&p, 0, "Timestamp(ms),Current(uA)\n0,1.000\n1,1.000\n2,1.000\n", 64, &c),
                     PQPAN_ERR_CAPACITY);
    assert_int_equal(p.error, PQPAN_PPK2_E_CALLBACK);
    assert_int_equal(p.error_line, 3);
    assert_int_equal(p.rows_read, 1);
    assert_int_equal(pqpan_ppk2_feed(&p, more, sizeof more - 1, collect, &c), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_ppk2_finish(&p, collect, &c), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_ppk2_feed(NULL, more, 1, collect, &c), PQPAN_ERR_INVALID_ARG);
}

/* ---- Writer ---- */

static void test_writer_formats(void **state)
{
    char buf[PQPAN_PPK2_LINE_MAX + 1];
    struct pqpan_ppk2_sample s;
    size_t n;
    (void)state;
    assert_int_equal(pqpan_ppk2_write_header(buf, sizeof buf, PQPAN_PPK2_LAYOUT_PACKED, &n), 0);
    assert_int_equal(n, strlen("Timestamp(ms),Current(uA),D0-D7\n"));
    assert_memory_equal(buf, "Timestamp(ms),Current(uA),D0-D7\n", n);
    memset(&s, 0, sizeof s);
    s.time_ns = 10000; /* 0.01 ms: one sample at 100 kS/s */
    s.current_ua = 1234.5678;
    s.digital[0] = PQPAN_PPK2_DIG_HIGH;
    s.digital[7] = PQPAN_PPK2_DIG_MIXED;
    s.digital[6] = PQPAN_PPK2_DIG_NONE;
    assert_int_equal(pqpan_ppk2_write_row(buf, sizeof buf, PQPAN_PPK2_LAYOUT_BOTH, &s, &n), 0);
    assert_memory_equal(buf, "0.01,1234.568,100000-X,1,0,0,0,0,0,-,X\n", n);
    s.time_ns = 5000000000;
    s.current_ua = -0.25;
    assert_int_equal(pqpan_ppk2_write_row(buf, sizeof buf, PQPAN_PPK2_LAYOUT_CURRENT, &s, &n), 0);
    assert_memory_equal(buf, "5000,-0.250\n", n);
    assert_int_equal(pqpan_ppk2_write_row(buf, 5, PQPAN_PPK2_LAYOUT_CURRENT, &s, &n),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(n, 0);
    s.current_ua = 1e15;
    assert_int_equal(pqpan_ppk2_write_row(buf, sizeof buf, PQPAN_PPK2_LAYOUT_CURRENT, &s, &n),
                     PQPAN_ERR_INVALID_ARG);
    s.current_ua = 1.0;
    s.digital[3] = 7;
    assert_int_equal(pqpan_ppk2_write_row(buf, sizeof buf, PQPAN_PPK2_LAYOUT_SPLIT, &s, &n),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_ppk2_write_header(buf, sizeof buf, 9, &n), PQPAN_ERR_INVALID_ARG);
}

static uint32_t lcg(uint32_t *x)
{
    *x = *x * 1664525u + 1013904223u;
    return *x >> 8;
}

static void test_writer_reader_round_trip(void **state)
{
    static char text[MAX_ROWS * (PQPAN_PPK2_LINE_MAX + 1) + 128];
    static struct pqpan_ppk2_sample want[MAX_ROWS];
    struct pqpan_ppk2_parser p;
    static struct collected c;
    uint32_t seed = 12345;
    int layout;
    size_t i, j, len, n;
    (void)state;
    for (layout = PQPAN_PPK2_LAYOUT_CURRENT; layout <= PQPAN_PPK2_LAYOUT_BOTH; layout++) {
        assert_int_equal(pqpan_ppk2_write_header(text, sizeof text, layout, &len), 0);
        for (i = 0; i < MAX_ROWS; i++) {
            memset(&want[i], 0, sizeof want[i]);
            want[i].time_ns = (int64_t)i * 10000 + (int64_t)(lcg(&seed) % 7u) * 1000;
            want[i].time_ns += i > 0 && want[i].time_ns < want[i - 1].time_ns ? 10000 : 0;
            want[i].current_ua = (double)((int32_t)(lcg(&seed) % 20000000u) - 1000000) / 1000.0;
            for (j = 0; j < PQPAN_PPK2_CHANNELS && layout != PQPAN_PPK2_LAYOUT_CURRENT; j++) {
                want[i].digital[j] = (uint8_t)(lcg(&seed) % 4u);
            }
            assert_int_equal(pqpan_ppk2_write_row(text + len, sizeof text - len - 1, layout, &want[i], &n), 0);
            len += n;
        }
        text[len] = '\0';
        memset(&c, 0, sizeof c);
        assert_int_equal(parse_text(&p, 0, text, 1000, &c), 0);
        assert_int_equal(c.n, MAX_ROWS);
        for (i = 0; i < MAX_ROWS; i++) {
            assert_int_equal(c.s[i].time_ns, want[i].time_ns);
            assert_true(c.s[i].current_ua == want[i].current_ua);
            if (layout != PQPAN_PPK2_LAYOUT_CURRENT) {
                assert_memory_equal(c.s[i].digital, want[i].digital, PQPAN_PPK2_CHANNELS);
            }
        }
    }
}

/* ---- Analysis ---- */

static struct pqpan_trace_bin ws[PQPAN_TRACE_WORKSPACE_LEN(PQPAN_TRACE_MAX_PHASES)];

struct analysed {
    struct pqpan_trace t;
    struct pqpan_trace_result r;
};

static int add_to_trace(void *ctx, const struct pqpan_ppk2_sample *s)
{
    return pqpan_trace_add(ctx, ws, s);
}

static void analyse_text(const char *text, const struct pqpan_trace_config *cfg, struct analysed *a)
{
    struct pqpan_ppk2_parser p;
    assert_int_equal(pqpan_trace_init(&a->t, cfg, ws, sizeof ws / sizeof ws[0]), 0);
    pqpan_ppk2_parser_init(&p, 0);
    assert_int_equal(pqpan_ppk2_feed(&p, (const uint8_t *)text, strlen(text), add_to_trace, &a->t), 0);
    assert_int_equal(pqpan_ppk2_finish(&p, add_to_trace, &a->t), 0);
    assert_int_equal(pqpan_trace_result(&a->t, ws, &a->r), 0);
}

static void config_default(struct pqpan_trace_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->voltage_v = 3.0;
}

static void add_phase(struct pqpan_trace_config *cfg, const char *name, int kind, int channel,
                      int64_t start_ns, int64_t end_ns)
{
    struct pqpan_trace_phase_def *d = &cfg->phases[cfg->n_phases++];
    memset(d, 0, sizeof *d);
    strcpy(d->name, name);
    d->kind = (uint8_t)kind;
    d->channel = (uint8_t)channel;
    d->start_ns = start_ns;
    d->end_ns = end_ns;
}

static void test_trapezoid_energy(void **state)
{
    static struct analysed a;
    struct pqpan_trace_config cfg;
    char *text = read_fixture("current_only.csv");
    (void)state;
    config_default(&cfg);
    /* 1000 uA for 10 ms at 3 V: 1e-3 A * 3 V * 0.01 s = 30 uJ. */
    analyse_text(text, &cfg, &a);
    assert_int_equal(a.r.total.samples, 11);
    assert_double_equal(a.r.total.duration_ms, 10.0, 1e-12);
    assert_double_equal(a.r.total.energy_uj, 30.0, 1e-9);
    assert_double_equal(a.r.total.avg_current_ua, 1000.0, 1e-9);
    assert_true(a.r.total.median_ua == 1000.0); /* clamped to the exact min = max */
    free(text);
    /* A ramp 0 -> 1000 uA over 10 ms at 2 V: mean 500 uA -> 0.5e-3 * 2 * 0.01 = 10 uJ. */
    cfg.voltage_v = 2.0;
    analyse_text("Timestamp(ms),Current(uA)\n0,0\n10,1000\n", &cfg, &a);
    assert_double_equal(a.r.total.energy_uj, 10.0, 1e-9);
}

static void test_gaps_are_bridged(void **state)
{
    static struct analysed a;
    struct pqpan_trace_config cfg;
    (void)state;
    config_default(&cfg);
    /* Rows at 0, 0.01, 0.05 (gap), 0.06 ms; currents 100, 100, 300, 300 uA.
     * Areas (uA*ms): 0.01*100 + 0.04*200 + 0.01*300 = 1 + 8 + 3 = 12 -> 12*3 nJ = 0.036 uJ. */
    analyse_text("Timestamp(ms),Current(uA)\n0,100\n0.01,100\n0.05,300\n0.06,300\n", &cfg, &a);
    assert_double_equal(a.r.total.energy_uj, 0.036, 1e-12);
    assert_double_equal(a.r.total.duration_ms, 0.06, 1e-12);
    assert_double_equal(a.r.min_interval_ms, 0.01, 1e-12);
    assert_double_equal(a.r.max_interval_ms, 0.04, 1e-12);
}

static void test_digital_phases(void **state)
{
    static struct analysed a;
    struct pqpan_trace_config cfg;
    char *text = read_fixture("split.csv");
    (void)state;
    config_default(&cfg);
    add_phase(&cfg, "crypto", PQPAN_TRACE_PHASE_DIGITAL, 0, 0, 0);
    add_phase(&cfg, "radio", PQPAN_TRACE_PHASE_DIGITAL, 1, 0, 0);
    add_phase(&cfg, "d7", PQPAN_TRACE_PHASE_DIGITAL, 7, 0, 0);
    analyse_text(text, &cfg, &a);
    /* Total: intervals 0-1:10, 1-2:1005, 2-3:2000, 3-4:1005, 4-5:3005, 5-6:6000, 6-7:6000,
     * 7-8:3005, 8-9:10 -> 22040 uA*ms * 3 V = 66.12 uJ over 9 ms. */
    assert_double_equal(a.r.total.energy_uj, 66.12, 1e-9);
    assert_double_equal(a.r.total.duration_ms, 9.0, 1e-12);
    /* crypto (D0 high at 2, 3 ms): intervals 2-3 and 3-4 -> 3005 * 3 = 9.015 uJ, 2 ms. */
    assert_string_equal(a.r.phase[0].name, "crypto");
    assert_double_equal(a.r.phase[0].energy_uj, 9.015, 1e-9);
    assert_double_equal(a.r.phase[0].duration_ms, 2.0, 1e-12);
    assert_int_equal(a.r.phase[0].samples, 2);
    assert_int_equal(a.r.phase[0].segments, 1);
    assert_true(a.r.phase[0].min_ua == 2000.0 && a.r.phase[0].max_ua == 2000.0);
    /* radio (D1 high at 5, 6, 7 ms): 6000 + 6000 + 3005 = 15005 -> 45.015 uJ, 3 ms. */
    assert_double_equal(a.r.phase[1].energy_uj, 45.015, 1e-9);
    assert_double_equal(a.r.phase[1].duration_ms, 3.0, 1e-12);
    assert_double_equal(a.r.phase[1].avg_current_ua, 15005.0 / 3.0, 1e-9);
    assert_int_equal(a.r.phase[2].samples, 0);
    assert_true(a.r.phase[2].energy_uj == 0.0);
    free(text);
}

static void test_window_phases_clip_intervals(void **state)
{
    static struct analysed a;
    struct pqpan_trace_config cfg;
    char *text = read_fixture("current_only.csv");
    (void)state;
    config_default(&cfg);
    add_phase(&cfg, "mid", PQPAN_TRACE_PHASE_WINDOW, 0, 2500000, 4500000);
    add_phase(&cfg, "late", PQPAN_TRACE_PHASE_WINDOW, 0, 9000000, 20000000);
    analyse_text(text, &cfg, &a);
    /* 1000 uA, 2 ms -> 6 uJ; samples at 3 and 4 ms. */
    assert_double_equal(a.r.phase[0].energy_uj, 6.0, 1e-9);
    assert_double_equal(a.r.phase[0].duration_ms, 2.0, 1e-12);
    assert_int_equal(a.r.phase[0].samples, 2);
    /* Window past the end: only 9-10 ms exists -> 3 uJ. */
    assert_double_equal(a.r.phase[1].energy_uj, 3.0, 1e-9);
    free(text);
    /* Ramp 0 -> 1000 uA over 0..10 ms, window 2.5..5 ms: current 250 -> 500, mean 375 uA,
     * 2.5 ms at 3 V -> 375 * 2.5 * 3 nJ = 2.8125 uJ. */
    config_default(&cfg);
    add_phase(&cfg, "w", PQPAN_TRACE_PHASE_WINDOW, 0, 2500000, 5000000);
    analyse_text("Timestamp(ms),Current(uA)\n0,0\n10,1000\n", &cfg, &a);
    assert_double_equal(a.r.phase[0].energy_uj, 2.8125, 1e-9);
}

static void test_baseline_subtraction(void **state)
{
    static struct analysed a;
    struct pqpan_trace_config cfg;
    char *text = read_fixture("packed.csv");
    (void)state;
    config_default(&cfg);
    add_phase(&cfg, "crypto", PQPAN_TRACE_PHASE_DIGITAL, 0, 0, 0);
    cfg.baseline = PQPAN_TRACE_BASELINE_FIXED;
    cfg.baseline_ua = 10.0;
    analyse_text(text, &cfg, &a);
    /* 66.12 uJ - 10 uA * 9 ms * 3 V (0.27 uJ) = 65.85; crypto 9.015 - 10*2*3e-3 = 8.955. */
    assert_double_equal(a.r.total.energy_uj, 65.85, 1e-9);
    assert_double_equal(a.r.phase[0].energy_uj, 8.955, 1e-9);
    assert_double_equal(a.r.total.min_ua, 0.0, 1e-12);
    assert_double_equal(a.r.phase[0].max_ua, 1990.0, 1e-12);
    assert_true(a.r.baseline_ua == 10.0);
    /* Auto: the 5th percentile of all samples is the 10 uA sleep level, exactly, since its
     * histogram bin holds only that one repeated value. */
    cfg.baseline = PQPAN_TRACE_BASELINE_PERCENTILE;
    cfg.baseline_percentile = 5.0;
    analyse_text(text, &cfg, &a);
    assert_true(a.r.baseline_ua == 10.0);
    assert_double_equal(a.r.total.energy_uj, 66.12 - a.r.baseline_ua * 9.0 * 3e-3, 1e-9);
    free(text);
}

static void test_quantiles_within_stated_error(void **state)
{
    static struct analysed a;
    static char text[40000];
    struct pqpan_trace_config cfg;
    size_t len, i;
    (void)state;
    config_default(&cfg);
    len = (size_t)sprintf(text, "Timestamp(ms),Current(uA)\n");
    /* Currents 1..1000 uA in a shuffled order (stride 7 mod 1000 visits each once). */
    for (i = 0; i < 1000; i++) {
        len += (size_t)sprintf(text + len, "%zu,%zu\n", i, (i * 7) % 1000 + 1);
    }
    analyse_text(text, &cfg, &a);
    assert_true(a.r.total.min_ua == 1.0 && a.r.total.max_ua == 1000.0);
    /* Nearest rank: median = 500th smallest = 500, p99 = 990th = 990. */
    assert_double_equal(a.r.total.median_ua, 500.0, 500.0 * PQPAN_TRACE_QUANTILE_REL_ERROR);
    assert_double_equal(a.r.total.p99_ua, 990.0, 990.0 * PQPAN_TRACE_QUANTILE_REL_ERROR);
    /* Negative and near-zero currents order correctly. */
    analyse_text("Timestamp(ms),Current(uA)\n0,-5\n1,-0.001\n2,0.002\n3,-200\n4,3\n", &cfg, &a);
    assert_true(a.r.total.min_ua == -200.0);
    assert_double_equal(a.r.total.median_ua, 0.0, PQPAN_TRACE_HIST_FLOOR_UA);
}

struct segments_seen {
    size_t n;
    struct pqpan_trace_segment seg[8];
    int fail;
};

static int on_segment(void *ctx, const struct pqpan_trace_segment *g)
{
    struct segments_seen *s = ctx;
    if (s->fail) {
        return PQPAN_ERR_CAPACITY;
    }
    if (s->n < 8) {
        s->seg[s->n] = *g;
    }
    s->n++;
    return 0;
}

static void test_segments_of_digital_phases(void **state)
{
    static const char text[] = "Timestamp(ms),Current(uA),D0-D7\n"
                               "0,10,00000000\n1,100,10000000\n2,200,10000000\n3,10,00000000\n"
                               "4,300,10000000\n5,10,00000000\n6,50,10000000\n";
    static struct pqpan_trace t;
    struct pqpan_trace_config cfg;
    struct pqpan_trace_result r;
    struct pqpan_ppk2_parser p;
    struct segments_seen seen;
    (void)state;
    config_default(&cfg);
    add_phase(&cfg, "crypto", PQPAN_TRACE_PHASE_DIGITAL, 0, 0, 0);
    add_phase(&cfg, "win", PQPAN_TRACE_PHASE_WINDOW, 0, 0, 1000000);
    memset(&seen, 0, sizeof seen);
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, sizeof ws / sizeof ws[0]), 0);
    pqpan_trace_on_segment(&t, on_segment, &seen);
    pqpan_ppk2_parser_init(&p, 0);
    assert_int_equal(pqpan_ppk2_feed(&p, (const uint8_t *)text, sizeof text - 1, add_to_trace, &t), 0);
    assert_int_equal(pqpan_ppk2_finish(&p, add_to_trace, &t), 0);
    assert_int_equal(seen.n, 2);
    assert_int_equal(pqpan_trace_end(&t), 0);
    assert_int_equal(seen.n, 3); /* windows have no segments; the open one ends at the end */
    /* Segment 0: rows at 1, 2 ms; intervals (100+200)/2 + (200+10)/2 = 255 uA*ms over 2 ms. */
    assert_int_equal(seen.seg[0].index, 0);
    assert_int_equal(seen.seg[0].phase, 0);
    assert_int_equal(seen.seg[0].start_ns, 1000000);
    assert_int_equal(seen.seg[0].duration_ns, 2000000);
    assert_int_equal(seen.seg[0].samples, 2);
    assert_double_equal(seen.seg[0].charge_ua_ms, 255.0, 1e-9);
    assert_true(seen.seg[0].min_ua == 100.0 && seen.seg[0].max_ua == 200.0);
    /* Segment 1: (300+10)/2 = 155 over 1 ms; segment 2: one row at the end, no interval. */
    assert_double_equal(seen.seg[1].charge_ua_ms, 155.0, 1e-9);
    assert_int_equal(seen.seg[1].start_ns, 4000000);
    assert_int_equal(seen.seg[2].index, 2);
    assert_int_equal(seen.seg[2].duration_ns, 0);
    assert_int_equal(seen.seg[2].samples, 1);
    assert_true(seen.seg[2].max_ua == 50.0);
    /* The phase is the sum of its segments: 410 uA*ms over 3 ms, 3 segments. */
    assert_int_equal(pqpan_trace_result(&t, ws, &r), 0);
    assert_int_equal(r.phase[0].segments, 3);
    assert_double_equal(r.phase[0].energy_uj, pqpan_trace_energy_uj(410.0, 3.0, 0.0, 3.0), 1e-12);
    assert_double_equal(pqpan_trace_energy_uj(255.0, 2.0, 10.0, 3.0), 0.705, 1e-12);
    assert_int_equal(pqpan_trace_add(&t, ws, &t.prev), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_trace_end(&t), PQPAN_ERR_STATE);
    /* A failing segment callback stops the run with its error. */
    memset(&seen, 0, sizeof seen);
    seen.fail = 1;
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, sizeof ws / sizeof ws[0]), 0);
    pqpan_trace_on_segment(&t, on_segment, &seen);
    pqpan_ppk2_parser_init(&p, 0);
    assert_int_equal(pqpan_ppk2_feed(&p, (const uint8_t *)text, sizeof text - 1, add_to_trace, &t),
                     PQPAN_ERR_CAPACITY);
    assert_int_equal(p.error_line, 5);
}

static void test_analysis_rejects_bad_use(void **state)
{
    static struct pqpan_trace t;
    struct pqpan_trace_config cfg;
    struct pqpan_ppk2_sample s;
    (void)state;
    config_default(&cfg);
    cfg.voltage_v = 0.0;
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, sizeof ws / sizeof ws[0]), PQPAN_ERR_INVALID_ARG);
    config_default(&cfg);
    add_phase(&cfg, "w", PQPAN_TRACE_PHASE_WINDOW, 0, 5, 5);
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, sizeof ws / sizeof ws[0]), PQPAN_ERR_INVALID_ARG);
    config_default(&cfg);
    add_phase(&cfg, "d", PQPAN_TRACE_PHASE_DIGITAL, 8, 0, 0);
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, sizeof ws / sizeof ws[0]), PQPAN_ERR_INVALID_ARG);
    config_default(&cfg);
    add_phase(&cfg, "d", PQPAN_TRACE_PHASE_DIGITAL, 0, 0, 0);
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, PQPAN_TRACE_WORKSPACE_LEN(1) - 1), PQPAN_ERR_CAPACITY);
    assert_int_equal(pqpan_trace_init(&t, &cfg, ws, PQPAN_TRACE_WORKSPACE_LEN(1)), 0);
    memset(&s, 0, sizeof s);
    assert_int_equal(pqpan_trace_add(&t, ws, &s), PQPAN_ERR_UNSUPPORTED);
    s.channels = 8;
    s.time_ns = 10;
    assert_int_equal(pqpan_trace_add(&t, ws, &s), 0);
    s.time_ns = 9;
    assert_int_equal(pqpan_trace_add(&t, ws, &s), PQPAN_ERR_INVALID_ARG);
    s.time_ns = PQPAN_PPK2_TIME_MAX_NS + 1;
    assert_int_equal(pqpan_trace_add(&t, ws, &s), PQPAN_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_header_variants),
        cmocka_unit_test(test_chunking_does_not_matter),
        cmocka_unit_test(test_numbers_states_and_line_endings),
        cmocka_unit_test(test_errors_name_their_line),
        cmocka_unit_test(test_unterminated_complete_last_line_is_accepted),
        cmocka_unit_test(test_line_too_long),
        cmocka_unit_test(test_lenient_counts_and_skips),
        cmocka_unit_test(test_callback_error_and_state),
        cmocka_unit_test(test_writer_formats),
        cmocka_unit_test(test_writer_reader_round_trip),
        cmocka_unit_test(test_trapezoid_energy),
        cmocka_unit_test(test_gaps_are_bridged),
        cmocka_unit_test(test_digital_phases),
        cmocka_unit_test(test_window_phases_clip_intervals),
        cmocka_unit_test(test_baseline_subtraction),
        cmocka_unit_test(test_quantiles_within_stated_error),
        cmocka_unit_test(test_segments_of_digital_phases),
        cmocka_unit_test(test_analysis_rejects_bad_use),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
