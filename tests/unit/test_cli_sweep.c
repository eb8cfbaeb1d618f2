/* Tests for pqpan sweep's grid (src/run/sweep_grid.c) and the number writers its rows use
 * (cli_format_fixed, cli_format_int, cli_format_uint): range values computed by hand, the
 * errors of bad lists, the nested-loop order, and the writers against the C library's
 * printf. */
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "sweep.h"

/* Parses value as the list of opt into o (one option of grid g). */
static int parse(struct sweep_grid *g, struct sweep_opt *o, const char *opt, const char *value)
{
    struct cli_msg msg;
    memset(o, 0, sizeof *o);
    o->name = opt;
    return sweep_items_parse(o, value, 0, g, &msg);
}

/* The values of o joined with spaces. */
static void values(const struct sweep_opt *o, char *out, size_t cap)
{
    char buf[SWEEP_VALUE_MAX];
    uint64_t k;
    out[0] = '\0';
    for (k = 0; k < o->count; k++) {
        size_t n = strlen(out);
        snprintf(out + n, cap - n, "%s%s", k > 0 ? " " : "", sweep_value(o, k, buf));
    }
}

static void assert_values(const char *opt, const char *list, uint64_t count, const char *want)
{
    struct sweep_grid g;
    struct sweep_opt o;
    char got[2048];
    memset(&g, 0, sizeof g);
    assert_int_equal(parse(&g, &o, opt, list), EXIT_OK);
    assert_int_equal(o.count, count);
    values(&o, got, sizeof got);
    assert_string_equal(got, want);
    free(o.items);
    sweep_grid_free(&g);
}

/* A..B:STEP: A, A + STEP, ... while <= B; B included when a step lands on it. */
static void test_ranges(void **state)
{
    (void)state;
    assert_values("--ll-octets", "27..251:56", 5, "27 83 139 195 251");
    assert_values("--ll-octets", "27..250:56", 4, "27 83 139 195");
    assert_values("--tx-dbm", "-8..8:4", 5, "-8 -4 0 4 8");
    /* exact decimals: 0.1 + 0.1 + 0.1 is 0.3 here, not 0.30000000000000004 */
    assert_values("--busy", "0.1..0.3:0.1", 3, "0.1 0.2 0.3");
    assert_values("--ci-ms", "7.5..30:7.5", 4, "7.5 15.0 22.5 30.0");
    assert_values("--ci-ms", "7.5..100:7.5", 13,
                  "7.5 15.0 22.5 30.0 37.5 45.0 52.5 60.0 67.5 75.0 82.5 90.0 97.5");
    assert_values("--gamma-comm", "-0.5..0.5:0.25", 5, "-0.50 -0.25 0.00 0.25 0.50");
    assert_values("--gamma-comp", "kem_keygen=1.1..1.3:0.1", 3,
                  "kem_keygen=1.1 kem_keygen=1.2 kem_keygen=1.3");
    assert_values("--att-mtu", "23,247..251:2,517", 5, "23 247 249 251 517");
    assert_values("--ll-octets", "27..27:1", 1, "27");
}

/* Words, paths with "..", and `all` from the option's own word list. */
static void test_words(void **state)
{
    (void)state;
    assert_values("--phy", "1M,S8", 2, "1M S8");
    assert_values("--profile", "../profiles/x.json", 1, "../profiles/x.json");
    assert_values("--phy", "all", 4, "1M 2M S2 S8");
    assert_values("--kem", "all", 4, "ML-KEM-512 ML-KEM-768 ML-KEM-1024 LESC-P256");
    assert_values("--phy", "2M,all", 5, "2M 1M 2M S2 S8");
}

static void assert_bad(const char *opt, const char *list)
{
    struct sweep_grid g;
    struct sweep_opt o;
    memset(&g, 0, sizeof g);
    assert_int_equal(parse(&g, &o, opt, list), EXIT_USAGE);
    free(o.items);
    sweep_grid_free(&g);
}

static void test_bad_lists(void **state)
{
    (void)state;
    assert_bad("--ll-octets", "27..251:0");    /* zero step */
    assert_bad("--ll-octets", "27..251:-8");   /* negative step */
    assert_bad("--ll-octets", "251..27:8");    /* A > B */
    assert_bad("--ll-octets", "27..251");      /* no step */
    assert_bad("--ll-octets", "27..x:1");      /* B not a number */
    assert_bad("--ll-octets", "27..251:1e3");  /* no exponents */
    assert_bad("--phy", "");                    /* empty list */
    assert_bad("--phy", "1M,,2M");              /* empty item */
    assert_bad("--phy", "1M,");
    assert_bad("--ci-ms", "all");               /* no fixed set */
    assert_bad("--busy", "0.1234567891..1:1");  /* more than 9 decimals */
    assert_bad("--att-mtu", "1..1000000000000000000:1"); /* more than 18 digits */
    /* a prefix whose values would not fit SWEEP_VALUE_MAX (found by fuzz_sweep_list) */
    assert_bad("--gamma-comp", "kem_keygen_kem_keygen_kem_keygen_kem_keygen_kem_keygen_kem_keygen_"
                               "kem_keygen_kem_keygen=1..2:1");
}

/* Energy options outermost, then the others, each in command-line order; the last
 * varies fastest. */
static void test_order(void **state)
{
    struct sweep_grid g;
    struct sweep_opt o[3];
    struct cli_msg msg;
    uint64_t c;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(parse(&g, &o[0], "--kem", "ML-KEM-512,ML-KEM-768"), EXIT_OK);
    o[0].kind = SWEEP_LINK;
    assert_int_equal(parse(&g, &o[1], "--profile", "all"), EXIT_OK);
    o[1].kind = SWEEP_ENERGY;
    assert_int_equal(parse(&g, &o[2], "--phy", "1M,2M"), EXIT_OK);
    o[2].kind = SWEEP_LINK;
    g.opts = o;
    g.n = 3;
    assert_int_equal(sweep_grid_finish(&g, &msg), EXIT_OK);
    assert_int_equal(g.total, 4 * o[1].count);
    assert_int_equal(g.env_stride, 4);
    for (c = 0; c < g.total; c++) {
        assert_int_equal(sweep_value_index(&o[1], c), c / 4);
        assert_int_equal(sweep_value_index(&o[0], c), (c / 2) % 2);
        assert_int_equal(sweep_value_index(&o[2], c), c % 2);
    }
    g.opts = NULL;
    g.n = 0;
    free(o[0].items);
    free(o[1].items);
    free(o[2].items);
    sweep_grid_free(&g);
}

static void test_product_overflow(void **state)
{
    struct sweep_grid g;
    struct sweep_opt o[3];
    struct cli_msg msg;
    size_t k;
    (void)state;
    memset(&g, 0, sizeof g);
    for (k = 0; k < 3; k++) {
        assert_int_equal(parse(&g, &o[k], "--max-pdus-per-event", "0..999999999:1"), EXIT_OK);
        o[k].kind = SWEEP_LINK;
    }
    g.opts = o;
    g.n = 3;
    assert_int_equal(sweep_grid_finish(&g, &msg), EXIT_USAGE); /* 10^27 > 2^64 */
    assert_non_null(strstr(msg.text, "more configurations than 2^64"));
    g.opts = NULL;
    g.n = 0;
    for (k = 0; k < 3; k++) {
        free(o[k].items);
    }
    sweep_grid_free(&g);
}

static void assert_fixed(double x, int d)
{
    char got[CLI_FIXED_MAX], want[CLI_FIXED_MAX];
    int n = cli_format_fixed(got, x, d);
    snprintf(want, sizeof want, "%.*f", d, x);
    if (strcmp(got, want) != 0) {
        fail_msg("%.17g with %d decimals: got %s, printf %s", x, d, got, want);
    }
    assert_int_equal(n, (int)strlen(want));
}

/* The same bytes as printf's %.Nf: ties to even on the exact binary value, the sign of
 * zero, and random values over 30 orders of magnitude. */
static void test_fixed_is_printf(void **state)
{
    static const double exact[] = {0.0,   -0.0,   0.5,     1.5,      2.5,   0.125,  0.0625,
                                   0.375, 2.0625, -0.0004, -0.0625,  1e-300, 123456.5, 999.9995,
                                   0.0005, 1e14,  -1e14,   99999.9999, 5e-324};
    uint64_t s = 0x9e3779b97f4a7c15u;
    size_t k;
    int d;
    (void)state;
    for (k = 0; k < sizeof exact / sizeof exact[0]; k++) {
        for (d = 0; d <= 4; d++) {
            assert_fixed(exact[k], d);
        }
    }
    for (k = 0; k < 2000000; k++) {
        double x;
        s = s * 6364136223846793005u + 1442695040888963407u;
        /* a random significand in [0, 1) at 10^-12 .. 10^18, both signs */
        x = (double)(s >> 11) * 0x1p-53 * pow(10.0, (double)((s >> 3) % 31) - 12.0);
        x = (s & 1u) ? -x : x;
        assert_fixed(x, (int)(k % 4));
    }
    assert_fixed(NAN, 3);
    assert_fixed(INFINITY, 2);
}

static void test_int_is_printf(void **state)
{
    static const long long v[] = {0, 1, -1, 9, 10, -10, 4294967295LL, LLONG_MAX, LLONG_MIN};
    char got[CLI_FIXED_MAX], want[CLI_FIXED_MAX];
    size_t k;
    (void)state;
    for (k = 0; k < sizeof v / sizeof v[0]; k++) {
        cli_format_int(got, v[k]);
        snprintf(want, sizeof want, "%lld", v[k]);
        assert_string_equal(got, want);
        cli_format_uint(got, (unsigned long long)v[k]);
        snprintf(want, sizeof want, "%llu", (unsigned long long)v[k]);
        assert_string_equal(got, want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_words),
        cmocka_unit_test(test_bad_lists),
        cmocka_unit_test(test_order),
        cmocka_unit_test(test_product_overflow),
        cmocka_unit_test(test_fixed_is_printf),
        cmocka_unit_test(test_int_is_printf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
