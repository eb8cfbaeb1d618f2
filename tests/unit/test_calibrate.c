/* Tests for src/energy/calibrate.c: least-squares γ fits worked out by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/calibrate.h"

static void check_close(double got, double want, double tol, const char *file, int line)
{
    if (!(fabs(got - want) <= tol)) {
        print_error("got %.15g, want %.15g (tolerance %g)\n", got, want, tol);
        _fail(file, line);
    }
}
#define assert_close(got, want, tol) check_close((got), (want), (tol), __FILE__, __LINE__)

/* m = (2, 4.2, 5.7), p = (1, 2, 3): Σmp = 2 + 8.4 + 17.1 = 27.5, Σp² = 14,
 * γ = 27.5/14 = 55/28. Residuals 1/28, 7.6/28, −5.4/28: RSS = (1 + 57.76 + 29.16)/784
 * = 87.92/784; SE = sqrt(RSS / 2 / 14). */
static void test_three_points(void **state)
{
    const double m[3] = {2.0, 4.2, 5.7};
    const double p[3] = {1.0, 2.0, 3.0};
    struct pqpan_calibrate_fit f;
    (void)state;
    assert_int_equal(pqpan_calibrate_fit(&f, m, p, 3), PQPAN_OK);
    assert_close(f.gamma, 55.0 / 28.0, 1e-15);
    assert_close(f.rss, 87.92 / 784.0, 1e-15);
    assert_close(f.sum_p2, 14.0, 0.0);
    assert_close(f.se, sqrt(87.92 / 784.0 / 2.0 / 14.0), 1e-15);
    assert_close(f.se, 0.0632859, 1e-7);
    assert_int_equal(f.n, 3);
    assert_int_equal(f.se_valid, 1);
}

/* Measurements exactly 1.3 × the predictions: γ = 1.3, no residual. */
static void test_exact_proportion(void **state)
{
    const double p[4] = {120.5, 98.25, 300.0, 7.0};
    double m[4];
    struct pqpan_calibrate_fit f;
    size_t i;
    (void)state;
    for (i = 0; i < 4; i++) {
        m[i] = 1.3 * p[i];
    }
    assert_int_equal(pqpan_calibrate_fit(&f, m, p, 4), PQPAN_OK);
    assert_close(f.gamma, 1.3, 1e-14);
    assert_close(f.rss, 0.0, 1e-20);
    assert_close(f.se, 0.0, 1e-12);
}

/* Two points with the same prediction: γ is their mean ratio, (110 + 130) / 2 / 100 = 1.2;
 * residuals ±10: RSS 200, SE = sqrt(200 / 1 / 20000) = 0.1. */
static void test_repeated_configuration(void **state)
{
    const double m[2] = {110.0, 130.0};
    const double p[2] = {100.0, 100.0};
    struct pqpan_calibrate_fit f;
    (void)state;
    assert_int_equal(pqpan_calibrate_fit(&f, m, p, 2), PQPAN_OK);
    assert_close(f.gamma, 1.2, 1e-15);
    assert_close(f.rss, 200.0, 1e-9);
    assert_close(f.se, 0.1, 1e-15);
}

/* One point: γ = m/p, no confidence. */
static void test_single_point(void **state)
{
    const double m = 3.0, p = 2.0;
    struct pqpan_calibrate_fit f;
    (void)state;
    assert_int_equal(pqpan_calibrate_fit(&f, &m, &p, 1), PQPAN_OK);
    assert_close(f.gamma, 1.5, 0.0);
    assert_int_equal(f.se_valid, 0);
    assert_close(f.se, 0.0, 0.0);
}

static void expect_invalid(const double *m, const double *p, size_t n)
{
    struct pqpan_calibrate_fit f;
    memset(&f, 0x55, sizeof f);
    assert_int_equal(pqpan_calibrate_fit(&f, m, p, n), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(f.n, 0);
    assert_close(f.gamma, 0.0, 0.0);
}

static void test_bad_input(void **state)
{
    const double ok[2] = {1.0, 2.0};
    const double zero_p[2] = {1.0, 0.0};
    const double neg_p[2] = {1.0, -2.0};
    double nan_m[2] = {1.0, 0.0};
    (void)state;
    nan_m[1] = nan("");
    expect_invalid(ok, ok, 0);
    expect_invalid(NULL, ok, 2);
    expect_invalid(ok, NULL, 2);
    expect_invalid(ok, zero_p, 2);
    expect_invalid(ok, neg_p, 2);
    expect_invalid(nan_m, ok, 2);
    expect_invalid(ok, nan_m, 2);
    assert_int_equal(pqpan_calibrate_fit(NULL, ok, ok, 2), PQPAN_ERR_INVALID_ARG);
}

/* A negative measurement (net of a baseline set too high) still fits. */
static void test_negative_measurement(void **state)
{
    const double m[2] = {-1.0, 3.0};
    const double p[2] = {1.0, 1.0};
    struct pqpan_calibrate_fit f;
    (void)state;
    assert_int_equal(pqpan_calibrate_fit(&f, m, p, 2), PQPAN_OK);
    assert_close(f.gamma, 1.0, 0.0);
    assert_close(f.rss, 8.0, 0.0);
}

static void test_range(void **state)
{
    (void)state;
    assert_int_equal(pqpan_calibrate_in_range(1.12, PQPAN_GAMMA_COMP_STUDY_MIN,
                                              PQPAN_GAMMA_COMP_STUDY_MAX), 1);
    assert_int_equal(pqpan_calibrate_in_range(1.62, PQPAN_GAMMA_COMP_STUDY_MIN,
                                              PQPAN_GAMMA_COMP_STUDY_MAX), 1);
    assert_int_equal(pqpan_calibrate_in_range(1.63, PQPAN_GAMMA_COMP_STUDY_MIN,
                                              PQPAN_GAMMA_COMP_STUDY_MAX), 0);
    assert_int_equal(pqpan_calibrate_in_range(1.05, PQPAN_GAMMA_COMM_STUDY_MIN,
                                              PQPAN_GAMMA_COMM_STUDY_MAX), 0);
    assert_int_equal(pqpan_calibrate_in_range(1.15, PQPAN_GAMMA_COMM_STUDY_MIN,
                                              PQPAN_GAMMA_COMM_STUDY_MAX), 1);
    assert_int_equal(pqpan_calibrate_in_range(nan(""), 0.0, 10.0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_three_points),
        cmocka_unit_test(test_exact_proportion),
        cmocka_unit_test(test_repeated_configuration),
        cmocka_unit_test(test_single_point),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_negative_measurement),
        cmocka_unit_test(test_range),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
