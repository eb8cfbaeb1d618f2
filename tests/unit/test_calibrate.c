/* Tests for src/energy/calibrate.c: least-squares γ fits worked out by hand; the order of
 * each side's crypto operations against the simulator's runs of the real protocol and
 * the estimator's ledgers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/calibrate.h"
#include "pqpan/sim.h"

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

static void expect_ops(enum pqpan_calibrate_exchange x, int runs_keygen, const enum pqpan_op *want,
                       size_t n_want)
{
    enum pqpan_op ops[PQPAN_CALIBRATE_SIDE_OPS_MAX];
    size_t k, n = pqpan_calibrate_side_ops(ops, x, runs_keygen);
    assert_int_equal(n, n_want);
    for (k = 0; k < n; k++) {
        assert_int_equal(ops[k], want[k]);
    }
}

/* The orders written out from docs/PROTOCOL.md (the responder's key schedule before RESP,
 * the initiator's after Decaps, before FIN) and the study's prototype. */
static void test_side_ops(void **state)
{
    static const enum pqpan_op study_kg[2] = {PQPAN_OP_KEM_KEYGEN, PQPAN_OP_KEM_DECAPS};
    static const enum pqpan_op study_other[1] = {PQPAN_OP_KEM_ENCAPS};
    static const enum pqpan_op pqpan_kg[3] = {PQPAN_OP_KEM_KEYGEN, PQPAN_OP_KEM_DECAPS,
                                              PQPAN_OP_KDF};
    static const enum pqpan_op pqpan_other[2] = {PQPAN_OP_KEM_ENCAPS, PQPAN_OP_KDF};
    static const enum pqpan_op lesc[2] = {PQPAN_OP_ECDH_KEYGEN, PQPAN_OP_ECDH_SHARED};
    enum pqpan_op ops[PQPAN_CALIBRATE_SIDE_OPS_MAX];
    (void)state;
    expect_ops(PQPAN_CALIBRATE_STUDY, 1, study_kg, 2);
    expect_ops(PQPAN_CALIBRATE_STUDY, 0, study_other, 1);
    expect_ops(PQPAN_CALIBRATE_PQPAN, 1, pqpan_kg, 3);
    expect_ops(PQPAN_CALIBRATE_PQPAN, 0, pqpan_other, 2);
    expect_ops(PQPAN_CALIBRATE_LESC, 1, lesc, 2);
    expect_ops(PQPAN_CALIBRATE_LESC, 0, lesc, 2);
    assert_int_equal(pqpan_calibrate_side_ops(ops, (enum pqpan_calibrate_exchange)7, 1), 0);
}

/* The crypto CPU spans of each side in the order the simulator reports them. */
struct op_order {
    enum pqpan_op ops[2][8];
    size_t n[2];
};

static void record_op(void *ctx, const struct pqpan_sim_span *s)
{
    struct op_order *o = ctx;
    if (s->op < PQPAN_OP_COUNT && o->n[s->side] < 8) {
        o->ops[s->side][o->n[s->side]++] = (enum pqpan_op)s->op;
    }
}

/* The order of the operations does not depend on the per-event device costs: left 0. */
static void sim_config(struct pqpan_sim_config *c, enum pqpan_ble_role keygen_side)
{
    pqpan_sim_config_default(c);
    c->dev.cpu_hz = 64000000u;
    c->cycles[PQPAN_OP_KEM_KEYGEN] = 1000000u;
    c->cycles[PQPAN_OP_KEM_ENCAPS] = 1200000u;
    c->cycles[PQPAN_OP_KEM_DECAPS] = 1300000u;
    c->cycles[PQPAN_OP_KDF] = 200000u;
    c->ble.keygen_side = keygen_side;
}

/* One exchange in the simulator (the real PQKE, or the study's messages); the order of
 * each side's operations must be what pqpan_calibrate_side_ops says. */
static void check_sim_order(enum pqpan_calibrate_exchange x, enum pqpan_ble_role keygen_side)
{
    static struct pqpan_sim s;
    static struct pqpan_sim_pqke pq;
    struct pqpan_sim_synth synth;
    struct pqpan_sim_config c;
    struct pqpan_sim_observer obs = {NULL, record_op};
    struct op_order got;
    int side;
    sim_config(&c, keygen_side);
    c.ble.ek_bytes = 800u;
    c.ble.ct_bytes = 768u;
    memset(&got, 0, sizeof got);
    assert_int_equal(pqpan_sim_init(&s, &c), PQPAN_OK);
    if (x == PQPAN_CALIBRATE_PQPAN) {
        assert_int_equal(pqpan_sim_pqke_init(&pq, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NONE, 0, keygen_side, 1u),
                         PQPAN_OK);
        assert_int_equal(pqpan_sim_run(&s, pqpan_sim_pqke_app(), &pq, &obs, &got), PQPAN_OK);
        pqpan_sim_pqke_wipe(&pq);
    } else {
        pqpan_sim_synth_init(&synth, c.ble.ek_bytes, c.ble.ct_bytes, keygen_side);
        assert_int_equal(pqpan_sim_run(&s, pqpan_sim_synth_app(), &synth, &obs, &got), PQPAN_OK);
    }
    for (side = 0; side < 2; side++) {
        enum pqpan_op want[PQPAN_CALIBRATE_SIDE_OPS_MAX];
        size_t k, n = pqpan_calibrate_side_ops(want, x, side == (int)keygen_side);
        assert_int_equal(got.n[side], n);
        for (k = 0; k < n; k++) {
            assert_int_equal(got.ops[side][k], want[k]);
        }
    }
}

static void test_side_ops_as_simulated(void **state)
{
    (void)state;
    check_sim_order(PQPAN_CALIBRATE_PQPAN, PQPAN_BLE_PERIPHERAL);
    check_sim_order(PQPAN_CALIBRATE_PQPAN, PQPAN_BLE_CENTRAL);
    check_sim_order(PQPAN_CALIBRATE_STUDY, PQPAN_BLE_PERIPHERAL);
    check_sim_order(PQPAN_CALIBRATE_STUDY, PQPAN_BLE_CENTRAL);
}

/* Each operation in the list as many times as the estimator's ledger of that side counts
 * it, so each segment's prediction is one run of its operation. */
static void check_estimator_counts(enum pqpan_calibrate_exchange x, enum pqpan_ble_role keygen_side)
{
    struct pqpan_sim_config c;
    struct pqpan_ble_estimate e;
    int side, op;
    sim_config(&c, keygen_side);
    c.ble.ek_bytes = 1184u;
    c.ble.ct_bytes = 1088u;
    c.ble.protocol = x == PQPAN_CALIBRATE_PQPAN ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
    c.cycles[PQPAN_OP_ECDH_KEYGEN] = 327000u;
    c.cycles[PQPAN_OP_ECDH_SHARED] = 906000u;
    assert_int_equal(x == PQPAN_CALIBRATE_LESC ? pqpan_ble_estimate_lesc(&e, &c.ble, &c.dev, c.cycles)
                                               : pqpan_ble_estimate_pqke(&e, &c.ble, &c.dev, c.cycles),
                     PQPAN_OK);
    for (side = 0; side < 2; side++) {
        enum pqpan_op ops[PQPAN_CALIBRATE_SIDE_OPS_MAX];
        size_t k, n = pqpan_calibrate_side_ops(ops, x, side == (int)keygen_side);
        for (op = 0; op < PQPAN_OP_COUNT; op++) {
            uint64_t listed = 0;
            for (k = 0; k < n; k++) {
                listed += ops[k] == (enum pqpan_op)op;
            }
            assert_int_equal(listed, e.ledger[side].op_count[op]);
        }
    }
}

static void test_side_ops_as_estimated(void **state)
{
    int x;
    (void)state;
    for (x = PQPAN_CALIBRATE_STUDY; x <= PQPAN_CALIBRATE_LESC; x++) {
        check_estimator_counts((enum pqpan_calibrate_exchange)x, PQPAN_BLE_PERIPHERAL);
        check_estimator_counts((enum pqpan_calibrate_exchange)x, PQPAN_BLE_CENTRAL);
    }
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
        cmocka_unit_test(test_side_ops),
        cmocka_unit_test(test_side_ops_as_simulated),
        cmocka_unit_test(test_side_ops_as_estimated),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
