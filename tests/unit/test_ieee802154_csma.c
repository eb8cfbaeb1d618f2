/* Tests for src/ieee802154/csma.c: the unslotted CSMA-CA algorithm step by step
 * (IEEE 802.15.4-2020 §6.2.5.1) and its backoff distribution against the closed form,
 * with many seeded draws. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

/* xorshift64* (Vigna 2016): a seeded generator independent of the library. */
struct xs {
    uint64_t s;
};

static uint64_t xs_next(struct xs *x)
{
    x->s ^= x->s >> 12;
    x->s ^= x->s << 25;
    x->s ^= x->s >> 27;
    return x->s * 0x2545F4914F6CDD1Dull;
}

static int xs_rng(void *ctx, uint8_t *out, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)(xs_next((struct xs *)ctx) >> 56);
    }
    return 0;
}

/* A channel that is busy at each CCA with probability p, from its own generator. */
struct channel {
    struct xs x;
    double p;
};

static int busy_random(void *ctx, uint64_t t_ns)
{
    struct channel *c = (struct channel *)ctx;
    (void)t_ns;
    return (double)(xs_next(&c->x) >> 11) * (1.0 / 9007199254740992.0) < c->p;
}

static int always_busy(void *ctx, uint64_t t_ns)
{
    (void)ctx;
    (void)t_ns;
    return 1;
}

static int always_idle(void *ctx, uint64_t t_ns)
{
    (void)ctx;
    (void)t_ns;
    return 0;
}

static int const_rng(void *ctx, uint8_t *out, size_t len)
{
    memset(out, *(const uint8_t *)ctx, len);
    return 0;
}

static int failing_rng(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    (void)out;
    (void)len;
    return -1;
}

/* Records the CCA start times. */
struct trace {
    uint64_t t[8];
    int n;
};

static int busy_trace(void *ctx, uint64_t t_ns)
{
    struct trace *tr = (struct trace *)ctx;
    if (tr->n < 8) {
        tr->t[tr->n] = t_ns;
    }
    tr->n++;
    return 1;
}

static void test_named_parameter_sets(void **state)
{
    struct pqpan_802154_csma_params p = pqpan_802154_csma_ieee();
    (void)state;
    assert_int_equal(p.min_be, 3);
    assert_int_equal(p.max_be, 5);
    assert_int_equal(p.max_backoffs, 4);
    assert_int_equal(p.max_frame_retries, 3);
    assert_int_equal(pqpan_802154_csma_params_check(&p), PQPAN_OK);
    p = pqpan_802154_csma_contiki();
    assert_int_equal(p.min_be, 3);
    assert_int_equal(p.max_be, 5);
    assert_int_equal(p.max_backoffs, 5);
    assert_int_equal(p.max_frame_retries, 7);
    assert_int_equal(pqpan_802154_csma_params_check(&p), PQPAN_OK);
    p.max_backoffs = 6;
    assert_int_equal(pqpan_802154_csma_params_check(&p), PQPAN_ERR_INVALID_ARG);
    p = pqpan_802154_csma_ieee();
    p.min_be = 6;
    assert_int_equal(pqpan_802154_csma_params_check(&p), PQPAN_ERR_INVALID_ARG);
}

static void test_busy_channel_walks_be_and_fails(void **state)
{
    struct pqpan_802154_csma_params p = pqpan_802154_csma_ieee();
    struct pqpan_802154_csma_result r;
    struct trace tr;
    uint8_t all_ones = 0xFF;
    (void)state;
    memset(&tr, 0, sizeof tr);
    /* Draw 0xFF masked to BE bits: BE = 3, 4, 5, 5, 5 -> 7, 15, 31, 31, 31 periods;
     * NB reaches 5 > macMaxCsmaBackoffs (4) after 5 CCAs. */
    assert_int_equal(pqpan_802154_csma_run(&r, &p, const_rng, &all_ones, busy_trace, &tr, 1000),
                     PQPAN_OK);
    assert_int_equal(r.success, 0);
    assert_int_equal(r.ccas, 5);
    assert_int_equal(tr.n, 5);
    assert_int_equal(r.backoff_ns, (7 + 15 + 31 + 31 + 31) * 320000ull);
    assert_int_equal(r.end_ns, 1000 + 115 * 320000ull + 5 * 128000ull);
    assert_int_equal(tr.t[0], 1000 + 7 * 320000ull);
    assert_int_equal(tr.t[1], tr.t[0] + 128000 + 15 * 320000ull);
    assert_int_equal(tr.t[4], tr.t[3] + 128000 + 31 * 320000ull);
    /* Contiki-NG: one more backoff (6 CCAs). */
    p = pqpan_802154_csma_contiki();
    assert_int_equal(pqpan_802154_csma_run(&r, &p, const_rng, &all_ones, always_busy, 0, 0), PQPAN_OK);
    assert_int_equal(r.ccas, 6);
    assert_int_equal(r.success, 0);
}

static void test_idle_channel_first_cca_succeeds(void **state)
{
    struct pqpan_802154_csma_params p = pqpan_802154_csma_ieee();
    struct pqpan_802154_csma_result r;
    uint8_t draw = 0x2D; /* low 3 bits: 5 periods */
    (void)state;
    assert_int_equal(pqpan_802154_csma_run(&r, &p, const_rng, &draw, always_idle, 0, 0), PQPAN_OK);
    assert_int_equal(r.success, 1);
    assert_int_equal(r.ccas, 1);
    assert_int_equal(r.backoff_ns, 5 * 320000);
    assert_int_equal(r.end_ns, 5 * 320000 + 128000);
    assert_int_equal(r.tx_start_ns, 5 * 320000 + 128000 + 192000);
    assert_int_equal(pqpan_802154_csma_run(&r, &p, failing_rng, 0, always_idle, 0, 0), PQPAN_ERR_RNG);
    assert_int_equal(r.ccas, 0);
}

static void test_closed_form_hand_values(void **state)
{
    struct pqpan_802154_csma_params p = pqpan_802154_csma_ieee();
    (void)state;
    /* Idle: (2^3 - 1)/2 = 3.5 periods = 1.12 ms. */
    assert_true(fabs(pqpan_802154_csma_expected_backoff_ns(&p, 0.0) - 1120000.0) < 1e-6);
    assert_true(fabs(pqpan_802154_csma_expected_ccas(&p, 0.0) - 1.0) < 1e-12);
    /* p = 0.3: 3.5 + 0.3*7.5 + 0.09*15.5 + 0.027*15.5 + 0.0081*15.5 = 7.68905 periods. */
    assert_true(fabs(pqpan_802154_csma_expected_backoff_ns(&p, 0.3) - 7.68905 * 320000.0) < 1e-3);
    assert_true(fabs(pqpan_802154_csma_expected_ccas(&p, 0.3) - 1.4251) < 1e-9);
    assert_true(fabs(pqpan_802154_csma_failure_prob(&p, 0.3) - 0.00243) < 1e-12);
    p = pqpan_802154_csma_contiki();
    assert_true(fabs(pqpan_802154_csma_failure_prob(&p, 0.5) - 1.0 / 64.0) < 1e-15);
}

static void monte_carlo(const struct pqpan_802154_csma_params *p, double busy, uint64_t seed, int runs)
{
    struct xs rng = {seed};
    struct channel ch;
    struct pqpan_802154_csma_result r;
    double backoff = 0, ccas = 0, fails = 0;
    double e_backoff = pqpan_802154_csma_expected_backoff_ns(p, busy);
    double e_ccas = pqpan_802154_csma_expected_ccas(p, busy);
    double e_fail = pqpan_802154_csma_failure_prob(p, busy);
    int i;
    ch.x.s = seed ^ 0x9E3779B97F4A7C15ull;
    ch.p = busy;
    for (i = 0; i < runs; i++) {
        assert_int_equal(pqpan_802154_csma_run(&r, p, xs_rng, &rng, busy_random, &ch, 0), PQPAN_OK);
        backoff += (double)r.backoff_ns;
        ccas += r.ccas;
        fails += r.success ? 0 : 1;
    }
    assert_true(fabs(backoff / runs - e_backoff) / e_backoff < 0.01);
    assert_true(fabs(ccas / runs - e_ccas) / e_ccas < 0.01);
    /* Binomial: within 5 standard deviations (plus a floor for tiny p). */
    assert_true(fabs(fails / runs - e_fail) < 5.0 * sqrt(e_fail * (1 - e_fail) / runs) + 1e-9);
}

static void test_backoff_distribution_matches_closed_form(void **state)
{
    struct pqpan_802154_csma_params ieee = pqpan_802154_csma_ieee();
    struct pqpan_802154_csma_params contiki = pqpan_802154_csma_contiki();
    (void)state;
    monte_carlo(&ieee, 0.0, 1, 200000);
    monte_carlo(&ieee, 0.3, 2, 200000);
    monte_carlo(&contiki, 0.5, 3, 200000);
    monte_carlo(&contiki, 0.8, 4, 200000);
}

static void test_idle_backoff_is_uniform(void **state)
{
    /* random(2^3 - 1): each of 0..7 periods with probability 1/8. */
    struct pqpan_802154_csma_params p = pqpan_802154_csma_ieee();
    struct pqpan_802154_csma_result r;
    struct xs rng = {12345};
    int counts[8] = {0}, i, runs = 80000;
    (void)state;
    for (i = 0; i < runs; i++) {
        assert_int_equal(pqpan_802154_csma_run(&r, &p, xs_rng, &rng, always_idle, 0, 0), PQPAN_OK);
        assert_true(r.backoff_ns % 320000 == 0 && r.backoff_ns <= 7 * 320000);
        counts[r.backoff_ns / 320000]++;
    }
    for (i = 0; i < 8; i++) {
        /* expected 10000, sd ~94 */
        assert_true(abs(counts[i] - runs / 8) < 500);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_named_parameter_sets),
        cmocka_unit_test(test_busy_channel_walks_be_and_fails),
        cmocka_unit_test(test_idle_channel_first_cca_succeeds),
        cmocka_unit_test(test_closed_form_hand_values),
        cmocka_unit_test(test_backoff_distribution_matches_closed_form),
        cmocka_unit_test(test_idle_backoff_is_uniform),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
