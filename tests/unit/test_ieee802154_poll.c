/* Tests for src/ieee802154/poll.c: one sleepy end device's data poll, every phase and its
 * charge computed by hand from the nRF52840 profile's figures (data/profiles/nrf52840.json:
 * TX 0 dBm 6400 uA, RX 6530 uA (802.15.4 mode, PS v1.7 §5.2), sleep 3.16 uA, crystal start
 * 1400 us at 267 uA, CPU 3300 uA, ieee802154.wake_cpu_us 100) and the frame sizes of IEEE
 * 802.15.4 (§7.5.5 Data Request, §9.4 auxiliary security header, Table 9-6 MIC). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

#define US 1000ull

static void nrf52840_currents(double ua[PQPAN_STATE_COUNT])
{
    memset(ua, 0, PQPAN_STATE_COUNT * sizeof ua[0]);
    ua[PQPAN_STATE_SLEEP] = 3.16;
    ua[PQPAN_STATE_CPU] = 3300.0;
    ua[PQPAN_STATE_HFXO_START] = 267.0;
    ua[PQPAN_STATE_RAMP_TX] = 6400.0; /* the turnaround before a frame: TX current */
    ua[PQPAN_STATE_TX] = 6400.0;
    ua[PQPAN_STATE_RX] = 6530.0;
}

/* Extended addresses both ways (the CLI's default), 1 s period, idle channel. */
static void config(struct pqpan_802154_poll_cfg *c)
{
    struct pqpan_802154_est_config e;
    pqpan_802154_est_config_default(&e);
    memset(c, 0, sizeof *c);
    c->link = e.link;
    c->csma = pqpan_802154_csma_ieee();
    c->backoff_rx = 1;
    c->wake_xtal_ns = 1400 * US;
    c->wake_cpu_ns = 100 * US;
    c->period_ns = 1000000 * US;
}

static void assert_close(double got, double want)
{
    if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want))) {
        fail_msg("got %.12f, want %.12f", got, want);
    }
}

/* ENC-MIC-32, key identifier mode 1 (Thread): Data Request = MHR 21 (extended addresses,
 * PAN ID compression) + aux 6 + Command ID 1 + MIC 4 + FCS 2 = 34 octets, on air
 * (6 + 34) x 32 us = 1 280 us. One wake-up (1400 + 100 us), backoff (2^3 - 1)/2 x 320 =
 * 1 120 us listening, CCA 128, turnaround 192, the frame, ACK wait 192 + 11 x 32 = 544 us:
 * 4 764 us active. Charges (uA x us = pC): 267 x 1400 = 0.3738 uC, 3300 x 100 = 0.33,
 * 6530 x 1120 = 7.3136, 6530 x 128 = 0.83584, 6400 x 192 = 1.2288, 6400 x 1280 = 8.192,
 * 6530 x 544 = 3.55232: 21.82636 uC per poll; sleep 3.16 uA x 995 236 us = 3.14494576 uC;
 * average (21.82636 + 3.14494576) uC / 1 s = 24.97130576 uA. */
static void test_secured_poll_hand_computed(void **state)
{
    struct pqpan_802154_poll_cfg c;
    struct pqpan_802154_poll p;
    struct pqpan_802154_poll_charge q;
    double ua[PQPAN_STATE_COUNT];
    (void)state;
    config(&c);
    c.link.sec_level = PQPAN_802154_SEC_ENC_MIC_32;
    c.link.key_id_mode = 1;
    nrf52840_currents(ua);
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_OK);
    assert_int_equal(p.request_psdu, 34);
    assert_int_equal(p.ns[PQPAN_802154_POLL_WAKE_XTAL], 1400 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_WAKE_CPU], 100 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_BACKOFF], 1120 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_CCA], 128 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_TURNAROUND], 192 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_TX], 1280 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_ACK_WAIT], 544 * US);
    assert_int_equal(p.active_ns, 4764 * US);
    assert_int_equal(p.ns[PQPAN_802154_POLL_SLEEP], 995236 * US);
    pqpan_802154_poll_charge(&q, &p, ua);
    assert_close(q.uc[PQPAN_802154_POLL_BACKOFF], 7.3136);
    assert_close(q.uc[PQPAN_802154_POLL_TX], 8.192);
    assert_close(q.poll_uc, 21.82636);
    assert_close(q.sleep_uc, 3.14494576);
    assert_close(q.avg_ua, 24.97130576);
}

/* Short addresses, unsecured: MHR 2 + 1 + 2 + 2 + 2 = 9, Command ID 1, FCS 2 = 12 octets,
 * (6 + 12) x 32 = 576 us. Backoff with the radio off: charged at sleep, 3.16 x 1120 =
 * 0.0035392 uC; the wake-up is then before the CCA, still one. Poll: 0.3738 + 0.33 +
 * 0.0035392 + 0.83584 + 1.2288 + 6400 x 576 (3.6864) + 3.55232 = 10.0106992 uC. */
static void test_plain_poll_backoff_asleep(void **state)
{
    struct pqpan_802154_poll_cfg c;
    struct pqpan_802154_poll p;
    struct pqpan_802154_poll_charge q;
    double ua[PQPAN_STATE_COUNT];
    (void)state;
    config(&c);
    c.link.src.mode = PQPAN_802154_ADDR_SHORT;
    c.link.dst.mode = PQPAN_802154_ADDR_SHORT;
    c.backoff_rx = 0;
    nrf52840_currents(ua);
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_OK);
    assert_int_equal(p.request_psdu, 12);
    assert_int_equal(p.ns[PQPAN_802154_POLL_TX], 576 * US);
    assert_int_equal(p.state[PQPAN_802154_POLL_BACKOFF], PQPAN_STATE_SLEEP);
    assert_true(p.wakes == 1.0);
    pqpan_802154_poll_charge(&q, &p, ua);
    assert_close(q.uc[PQPAN_802154_POLL_BACKOFF], 0.0035392);
    assert_close(q.poll_uc, 10.0106992);
}

/* A busy channel, p = 0.3: E[CCAs] = 1 + 0.3 + 0.09 + 0.027 + 0.0081 = 1.4251 (§6.2.5.1,
 * macMaxCsmaBackoffs 4); with the radio off in the backoff every CCA needs a wake-up:
 * 1.4251 x 1400 us = 1 995.14 us of crystal start; listening in the backoff, one. */
static void test_busy_channel_wakes_per_cca(void **state)
{
    struct pqpan_802154_poll_cfg c;
    struct pqpan_802154_poll p;
    (void)state;
    config(&c);
    c.p_busy = 0.3;
    c.backoff_rx = 0;
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_OK);
    assert_true(fabs(p.ccas - 1.4251) < 1e-12);
    assert_int_equal(p.ns[PQPAN_802154_POLL_WAKE_XTAL], 1995140);
    assert_int_equal(p.ns[PQPAN_802154_POLL_CCA], 182413);
    c.backoff_rx = 1;
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_OK);
    assert_int_equal(p.ns[PQPAN_802154_POLL_WAKE_XTAL], 1400 * US);
}

static void test_rejects(void **state)
{
    struct pqpan_802154_poll_cfg c;
    struct pqpan_802154_poll p;
    (void)state;
    config(&c);
    /* unsecured, extended: 24 octets, 960 us on air; active 1400 + 100 + 1120 + 128 + 192 +
     * 960 + 544 = 4 444 us: a shorter period is refused, the active part reported */
    c.period_ns = 4443 * US;
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(p.active_ns, 4444 * US);
    c.period_ns = 4444 * US;
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_OK);
    assert_int_equal(p.ns[PQPAN_802154_POLL_SLEEP], 0);
    c.p_busy = 1.0;
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_ERR_INVALID_ARG);
    c.p_busy = 0.0;
    c.link.key_id_mode = 4;
    c.link.sec_level = PQPAN_802154_SEC_MIC_32;
    assert_int_equal(pqpan_802154_poll_plan(&p, &c), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_802154_poll_plan(NULL, &c), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(pqpan_802154_poll_phase_name(PQPAN_802154_POLL_ACK_WAIT), "ack_wait");
    assert_string_equal(pqpan_802154_poll_phase_name(PQPAN_802154_POLL_SLEEP), "sleep");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_secured_poll_hand_computed),
        cmocka_unit_test(test_plain_poll_backoff_asleep),
        cmocka_unit_test(test_busy_channel_wakes_per_cca),
        cmocka_unit_test(test_rejects),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
