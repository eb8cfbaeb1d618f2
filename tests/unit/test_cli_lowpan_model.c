/* Tests for the CLI's IEEE 802.15.4 model (cli/lowpan_model.h): the radio states the
 * profile's ieee802154 section and --idle/--backoff choose, and the energy they cost,
 * against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lowpan_model.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static struct model_env *load_env(const char *profile)
{
    struct model_opts mo;
    struct model_env *env = malloc(sizeof *env);
    assert_non_null(env);
    model_opts_init(&mo);
    mo.profile = profile;
    assert_int_equal(model_env_load(env, &mo, "test"), EXIT_OK);
    return env;
}

/* Estimate rows of one ML-KEM-768 exchange for the options. */
static void estimate(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                     const struct lowpan_opts *o)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    struct cli_msg msg;
    assert_int_equal(lowpan_estimate(rows, &c, &e, env, o, &msg), EXIT_OK);
}

static void assert_close(double got, double want, double tol)
{
    if (got < want - tol || got > want + tol) {
        fail_msg("got %.9f, want %.9f (+-%g)", got, want, tol);
    }
}

/* One wake-up on the nRF52840 profile: crystal start 267 uA x 1400 us + CPU 3300 uA x
 * 100 us, at 3 V: (0.3738 + 0.33) uC x 3 V = 2.1114 uJ, taking 1.5 ms. */
#define WAKE_UJ 2.1114
#define WAKE_MS 1.5

/* nRF52840, idle channel: each of the 13 + 13 + 1 data frames waits on average
 * (2^macMinBE - 1) / 2 = 3.5 unit backoff periods of 320 us = 1.12 ms (IEEE 802.15.4-2020
 * §6.2.5.1, macMinBE 3): 30.24 ms in all. Sleeping through the backoff instead of
 * listening saves (6530 - 3.16) uA x 3 V x 30.24 ms = 592.1149248 uJ, but the chip then
 * wakes before each of the 27 CCAs (ieee802154.h "Wake-ups"): 27 x 2.1114 uJ, and each
 * delays the exchange by 1.5 ms while the other node listens (idle: rx): 27 x 1.5 ms x
 * 6530 uA x 3 V. Net 592.1149248 - 57.0078 - 793.395 = -258.2878752 uJ: with a 1.4 ms
 * crystal start, sleeping through the backoff costs more than it saves. */
static void test_backoff_sleep_hand_computed(void **state)
{
    struct model_env *env = load_env(NULL);
    struct pqpan_run_exchange_row listen[MODEL_SIDES], sleep[MODEL_SIDES];
    struct lowpan_opts o;
    const double backoff_ms = 27 * 3.5 * 0.320;
    const double saved_uj = (6530.0 - 3.16) * 3.0 * backoff_ms * 1e-3 - 27 * WAKE_UJ -
                            27 * WAKE_MS * 6530.0 * 3.0 * 1e-3;
    (void)state;
    lowpan_opts_init(&o);
    o.backoff = 1;
    estimate(listen, env, &o);
    o.backoff = 0;
    estimate(sleep, env, &o);
    assert_int_equal(listen[MODEL_TOTAL].data_frames_tx, 27);
    assert_close(listen[MODEL_TOTAL].t_backoff_ms, backoff_ms, 1e-9);
    assert_close(listen[MODEL_TOTAL].e_total_events_uj - sleep[MODEL_TOTAL].e_total_events_uj,
                 saved_uj, 1e-6);
    assert_close(saved_uj, -258.2878752, 1e-6);
    assert_close(listen[MODEL_TOTAL].e_backoff_rx_uj, 6530.0 * 3.0 * backoff_ms * 1e-3, 1e-6);
    assert_close(sleep[MODEL_TOTAL].e_backoff_sleep_uj, 3.16 * 3.0 * backoff_ms * 1e-3, 1e-9);
    assert_close(sleep[MODEL_TOTAL].e_ev_hfxo_uj + sleep[MODEL_TOTAL].e_ev_cpu_uj, 27 * WAKE_UJ,
                 1e-9);
    assert_close(listen[MODEL_TOTAL].e_total_uj, sleep[MODEL_TOTAL].e_total_uj, 1e-9);
    assert_close(sleep[MODEL_TOTAL].latency_ms - listen[MODEL_TOTAL].latency_ms, 27 * WAKE_MS,
                 1e-9);
    assert_string_equal(sleep[PQPAN_802154_INITIATOR].backoff, "sleep");
    free(env);
}

/* Idle sleep instead of listening moves the idle time from RX to SLEEP: (RX - sleep) x V x
 * the sleep time the sleeping run books; but a sleeping node wakes (listening backoff):
 * initiator 12 (INIT but its first frame) + 0 (FIN) as sender, 13 (RESP) as receiver = 25;
 * responder 12 + 14 = 26 (a node computes awake right after the message it received):
 * 51 x 2.1114 uJ. Of them 12 + 12 = 24 delay the exchange, for both nodes: the sleeping
 * run's 51 x 1.5 ms of wake-up replace 2 x 24 x 1.5 ms of sleep, and the listening run
 * listens for 3 x 1.5 ms more than the sleeping run sleeps: + 6530 uA x 3 V x 4.5 ms. */
static void test_idle_sleep_saves_rx_minus_sleep(void **state)
{
    struct model_env *env = load_env(NULL);
    struct pqpan_run_exchange_row listen[MODEL_SIDES], sleep[MODEL_SIDES];
    struct lowpan_opts o;
    double sleep_ms;
    (void)state;
    lowpan_opts_init(&o);
    o.idle = 1;
    estimate(listen, env, &o);
    o.idle = 0;
    estimate(sleep, env, &o);
    assert_close(listen[MODEL_TOTAL].e_ev_sleep_uj, 0.0, 1e-12);
    sleep_ms = sleep[MODEL_TOTAL].e_ev_sleep_uj / (3.16 * 3.0) * 1e3;
    assert_true(sleep_ms > 60.0); /* at least the other side's crypto, 62.8 ms in all */
    assert_close(sleep[MODEL_TOTAL].e_ev_hfxo_uj + sleep[MODEL_TOTAL].e_ev_cpu_uj, 51 * WAKE_UJ,
                 1e-9);
    assert_close(sleep[MODEL_TOTAL].latency_ms - listen[MODEL_TOTAL].latency_ms, 24 * WAKE_MS,
                 1e-9);
    assert_close(listen[MODEL_TOTAL].e_total_events_uj - sleep[MODEL_TOTAL].e_total_events_uj,
                 (6530.0 - 3.16) * 3.0 * sleep_ms * 1e-3 - 51 * WAKE_UJ +
                     (51 - 2 * 24) * WAKE_MS * 6530.0 * 3.0 * 1e-3,
                 1e-6);
    free(env);
}

/* Defaults come from the profile's section (the minimal fixture: idle sleep, backoff rx);
 * the options override them. */
static void test_profile_sets_the_states(void **state)
{
    struct model_env *env = load_env(FIXTURES "profiles/minimal.json");
    struct pqpan_802154_est_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    struct lowpan_opts o;
    struct cli_msg msg;
    (void)state;
    lowpan_opts_init(&o);
    assert_int_equal(lowpan_setup(&c, cycles, env, &o, &msg), EXIT_OK);
    assert_int_equal(c.rx_always_on, 0);
    assert_int_equal(c.backoff_rx, 1);
    o.idle = 1;
    o.backoff = 0;
    assert_int_equal(lowpan_setup(&c, cycles, env, &o, &msg), EXIT_OK);
    assert_int_equal(c.rx_always_on, 1);
    assert_int_equal(c.backoff_rx, 0);
    free(env);
}

static void test_options_parse(void **state)
{
    static char *argv[] = {"estimate", "--idle", "sleep", "--backoff", "listen", "--idle", "off"};
    struct lowpan_opts o;
    int i;
    (void)state;
    lowpan_opts_init(&o);
    assert_int_equal(o.idle, -1);
    i = 1;
    assert_int_equal(lowpan_opts_parse(&o, "test", 7, argv, &i), 1);
    assert_int_equal(o.idle, 0);
    i = 3;
    assert_int_equal(lowpan_opts_parse(&o, "test", 7, argv, &i), 1);
    assert_int_equal(o.backoff, 1);
    i = 5;
    assert_int_equal(lowpan_opts_parse(&o, "test", 7, argv, &i), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_backoff_sleep_hand_computed),
        cmocka_unit_test(test_idle_sleep_saves_rx_minus_sleep),
        cmocka_unit_test(test_profile_sets_the_states),
        cmocka_unit_test(test_options_parse),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
