/* Tests for src/energy/{energy,profile,cycles}.c against hand-computed numbers. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/energy.h"

/* got == want within 1e-9 relative (µJ values are sums of a few products). */
static void check_uj(double got, double want, const char *file, int line)
{
    if (fabs(got - want) > 1e-9 * fmax(1.0, fabs(want))) {
        print_error("got %.12g µJ, want %.12g µJ\n", got, want);
        _fail(file, line);
    }
}
#define assert_uj(got, want) check_uj((got), (want), __FILE__, __LINE__)

/* A made-up profile with round numbers so every expected value is easy to redo by hand:
 * V = 2 V, f = 50 MHz, I_CPU = 4000 µA, sleep 2 µA, HFXO start 1000 µA.
 * TX 0 dBm: system 6000 µA, radio-only 5000 µA; TX 4 dBm: system 8000 µA only.
 * RX 1M: system 6500 µA, radio-only 4500 µA; RX 2M: system 7000 µA only.
 * Connection events: pre-processing at 3000 µA, post-processing at 2500 µA, radio start-up
 * 5000 µA (system) / 3500 µA (radio-only). */
static void make_profile(struct pqpan_profile *p)
{
    memset(p, 0, sizeof *p);
    strcpy(p->name, "test");
    p->supply_v = 2.0;
    p->cpu_hz = 50000000u;
    p->cpu_ua = 4000.0;
    p->sleep_ua = 2.0;
    p->hfxo_start_ua = 1000.0;
    p->hfxo_start_ns = 400000u;
    p->ramp_fast_ns = 40000u;
    p->ramp_normal_ns = 140000u;
    p->sca_ppm = 50.0;
    p->ble_event.pre_ua = 3000.0;
    p->ble_event.post_ua = 2500.0;
    p->ble_event.ramp_ua[PQPAN_CURRENTS_SYSTEM] = 5000.0;
    p->ble_event.ramp_given[PQPAN_CURRENTS_SYSTEM] = 1;
    p->ble_event.ramp_ua[PQPAN_CURRENTS_RADIO_ONLY] = 3500.0;
    p->ble_event.ramp_given[PQPAN_CURRENTS_RADIO_ONLY] = 1;
    p->tx_level_count = 2;
    p->tx_dbm[0] = 0;
    p->tx_ua[PQPAN_CURRENTS_SYSTEM][0] = 6000.0;
    p->tx_given[PQPAN_CURRENTS_SYSTEM][0] = 1;
    p->tx_ua[PQPAN_CURRENTS_RADIO_ONLY][0] = 5000.0;
    p->tx_given[PQPAN_CURRENTS_RADIO_ONLY][0] = 1;
    p->tx_dbm[1] = 4;
    p->tx_ua[PQPAN_CURRENTS_SYSTEM][1] = 8000.0;
    p->tx_given[PQPAN_CURRENTS_SYSTEM][1] = 1;
    p->rx_ua[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_1M] = 6500.0;
    p->rx_given[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_1M] = 1;
    p->rx_ua[PQPAN_CURRENTS_RADIO_ONLY][PQPAN_RADIO_BLE_1M] = 4500.0;
    p->rx_given[PQPAN_CURRENTS_RADIO_ONLY][PQPAN_RADIO_BLE_1M] = 1;
    p->rx_ua[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_2M] = 7000.0;
    p->rx_given[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_2M] = 1;
}

/* Ledger: keygen 1e6 cycles, ECDH 5e5 cycles; KEY_TRANSFER TX 1 ms, RX 0.5 ms, IFS 0.3 ms;
 * CONFIRM TX 0.1 ms; MTU_EXCHANGE TX 2 ms; CRYPTO CPU 20 ms (latency only) + sleep 10 ms;
 * CONNECT HFXO 0.4 ms, ramp TX 40 µs, ramp RX 140 µs, CPU 0.1 ms, pre-processing 60 µs,
 * post-processing 120 µs, receive window 37 µs. */
static void make_ledger(struct pqpan_ledger *l)
{
    pqpan_ledger_init(l);
    pqpan_ledger_add_op(l, PQPAN_OP_KEM_KEYGEN, 1000000u);
    pqpan_ledger_add_op(l, PQPAN_OP_ECDH_SHARED, 500000u);
    pqpan_ledger_add(l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_TX, 1000000u);
    pqpan_ledger_add(l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_RX, 500000u);
    pqpan_ledger_add(l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_IFS, 300000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONFIRM, PQPAN_STATE_TX, 100000u);
    pqpan_ledger_add(l, PQPAN_PHASE_MTU_EXCHANGE, PQPAN_STATE_TX, 2000000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, 20000000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CRYPTO, PQPAN_STATE_SLEEP, 10000000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_HFXO_START, 400000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_RAMP_TX, 40000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_RAMP_RX, 140000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_CPU, 100000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_PRE, 60000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_POST, 120000u);
    pqpan_ledger_add(l, PQPAN_PHASE_CONNECT, PQPAN_STATE_RX_WINDOW, 37000u);
}

static void make_gamma(struct pqpan_gamma *g)
{
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        g->comp[op] = 1.0;
    }
    g->comp[PQPAN_OP_KEM_KEYGEN] = 1.5;
    g->comm = 1.2;
}

static const struct pqpan_energy_opts sys_1m_0dbm = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};

static void test_computation(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_OK);
    /* keygen: 1.5 · 1e6 / 50e6 s · 2 V · 4000 µA = 240 µJ; ECDH: 1.0 · 0.01 · 2 · 4000 = 80 */
    assert_uj(e.comp_op_uj[PQPAN_OP_KEM_KEYGEN], 240.0);
    assert_uj(e.comp_op_uj[PQPAN_OP_ECDH_SHARED], 80.0);
    assert_uj(e.comp_op_uj[PQPAN_OP_KEM_DECAPS], 0.0);
    assert_uj(e.comp_uj, 320.0);
}

/* A signature priced like any operation: pqm4's mean ML-DSA-44 m4fstack signing, 12134284
 * cycles, at γ 1.0: 12134284 / 50e6 s · 2 V · 4000 µA = 1941.48544 µJ. */
static void test_signature_operation(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    (void)state;
    make_profile(&p);
    make_gamma(&g);
    pqpan_ledger_init(&l);
    pqpan_ledger_add_op(&l, PQPAN_OP_SIG_SIGN, 12134284u);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_OK);
    assert_uj(e.comp_op_uj[PQPAN_OP_SIG_SIGN], 1941.48544);
    assert_uj(e.comp_uj, 1941.48544);
    assert_string_equal(pqpan_op_name(PQPAN_OP_SIG_SIGN), "sig_sign");
}

static void test_bits_accounting(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_OK);
    /* TX: 1.2 · (1.0 + 0.1) ms · 6000 µA · 2 V = 15.84 µJ (the 2 ms MTU_EXCHANGE TX is out) */
    assert_uj(e.bits_tx_uj, 15.84);
    /* RX: 1.2 · 0.5 ms · 6500 · 2 = 7.8; IFS at the RX current: 1.2 · 0.3 ms · 6500 · 2 */
    assert_uj(e.bits_rx_uj, 7.8);
    assert_uj(e.bits_ifs_uj, 4.68);
    assert_uj(e.comm_bits_uj, 28.32);
    assert_uj(e.total_bits_uj, 348.32);
}

static void test_events_accounting(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_OK);
    /* radio, all phases, no γ: TX 3.1 ms · 6000 · 2 = 37.2; RX 6.5; IFS 3.9 */
    assert_uj(e.ev_radio_uj, 47.6);
    /* ramp at the start-up current: (40 + 140) µs · 5000 · 2 = 1.8 */
    assert_uj(e.ev_ramp_uj, 1.8);
    assert_uj(e.ev_hfxo_uj, 0.8);   /* 0.4 ms · 1000 · 2 */
    assert_uj(e.ev_sleep_uj, 0.04); /* 10 ms · 2 · 2 */
    /* CPU: only the 0.1 ms outside CRYPTO: 0.1 ms · 4000 · 2; the 20 ms of CRYPTO is E_comp */
    assert_uj(e.ev_cpu_radio_uj, 0.8);
    assert_uj(e.ev_pre_uj, 0.36);        /* 60 µs · 3000 · 2 */
    assert_uj(e.ev_post_uj, 0.6);        /* 120 µs · 2500 · 2 */
    assert_uj(e.ev_rx_window_uj, 0.481); /* 37 µs · 6500 (RX) · 2 */
    assert_uj(e.comm_events_uj, 52.481);
    assert_uj(e.total_events_uj, 372.481);
}

/* pqpan_energy_phases: each phase's figure is, bit for bit, pqpan_energy_compute's
 * total_events_uj for a ledger holding that phase alone (CRYPTO: with the operations), on
 * two radio set-ups; a bad input zeroes every phase and gives compute's error. */
static void test_phases_alone(void **state)
{
    static const struct pqpan_energy_opts radio_2m = {PQPAN_RADIO_BLE_2M, PQPAN_CURRENTS_SYSTEM, 0};
    const struct pqpan_energy_opts *opts[2] = {&sys_1m_0dbm, &radio_2m};
    struct pqpan_profile p;
    struct pqpan_ledger l, one;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    double uj[PQPAN_PHASE_COUNT];
    int i, ph;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    for (i = 0; i < 2; i++) {
        assert_int_equal(pqpan_energy_phases(uj, &l, &p, opts[i], &g), PQPAN_OK);
        for (ph = 0; ph < PQPAN_PHASE_COUNT; ph++) {
            pqpan_ledger_init(&one);
            memcpy(one.ns[ph], l.ns[ph], sizeof one.ns[ph]);
            if (ph == PQPAN_PHASE_CRYPTO) {
                memcpy(one.op_count, l.op_count, sizeof one.op_count);
                memcpy(one.op_cycles, l.op_cycles, sizeof one.op_cycles);
            }
            assert_int_equal(pqpan_energy_compute(&e, &one, &p, opts[i], &g), PQPAN_OK);
            assert_memory_equal(&uj[ph], &e.total_events_uj, sizeof uj[ph]);
        }
    }
    assert_true(uj[PQPAN_PHASE_CONNECT] > 0.0 && uj[PQPAN_PHASE_CRYPTO] > 0.0);
    g.comm = 0.0;
    assert_int_equal(pqpan_energy_phases(uj, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_INVALID_ARG);
    assert_true(uj[PQPAN_PHASE_CONNECT] == 0.0 && uj[PQPAN_PHASE_CRYPTO] == 0.0);
    make_gamma(&g);
    p.tx_given[PQPAN_CURRENTS_SYSTEM][0] = 0; /* no 0 dBm figure */
    assert_int_equal(pqpan_energy_phases(uj, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_energy_phases(NULL, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_INVALID_ARG);
}

/* The per-state currents the events accounting uses, one by one; a BLE run on a table
 * without a radio start-up current is UNSUPPORTED, an 802.15.4 one charges its ramp
 * (aTurnaroundTime) at the TX current instead. */
static void test_state_currents(void **state)
{
    struct pqpan_profile p;
    const struct pqpan_energy_opts radio_only = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_RADIO_ONLY, 0};
    const struct pqpan_energy_opts o154 = {PQPAN_RADIO_IEEE802154, PQPAN_CURRENTS_SYSTEM, 0};
    double ua;
    (void)state;
    make_profile(&p);
    p.ieee802154.tx_level_count = 1;
    p.ieee802154.tx_ua[PQPAN_CURRENTS_SYSTEM][0] = 6400.0;
    p.ieee802154.tx_given[PQPAN_CURRENTS_SYSTEM][0] = 1;
    p.rx_ua[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_IEEE802154] = 6530.0;
    p.rx_given[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_IEEE802154] = 1;
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &sys_1m_0dbm, PQPAN_STATE_PRE), PQPAN_OK);
    assert_true(ua == 3000.0);
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &sys_1m_0dbm, PQPAN_STATE_POST), PQPAN_OK);
    assert_true(ua == 2500.0);
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &sys_1m_0dbm, PQPAN_STATE_RAMP_TX), PQPAN_OK);
    assert_true(ua == 5000.0);
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &sys_1m_0dbm, PQPAN_STATE_RX_WINDOW),
                     PQPAN_OK);
    assert_true(ua == 6500.0);
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &radio_only, PQPAN_STATE_RAMP_RX), PQPAN_OK);
    assert_true(ua == 3500.0);
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &o154, PQPAN_STATE_RAMP_TX), PQPAN_OK);
    assert_true(ua == 6400.0);
    p.ble_event.ramp_given[PQPAN_CURRENTS_RADIO_ONLY] = 0;
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &radio_only, PQPAN_STATE_TX),
                     PQPAN_ERR_UNSUPPORTED);
    assert_true(ua == 0.0);
    assert_int_equal(pqpan_energy_state_ua(&ua, &p, &sys_1m_0dbm, PQPAN_STATE_COUNT),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_energy_state_ua(NULL, &p, &sys_1m_0dbm, PQPAN_STATE_TX),
                     PQPAN_ERR_INVALID_ARG);
}

static void test_gamma_applies_to_its_terms_only(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy a, b;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    assert_int_equal(pqpan_energy_compute(&a, &l, &p, &sys_1m_0dbm, &g), PQPAN_OK);
    g.comm = 2.4;
    g.comp[PQPAN_OP_ECDH_SHARED] = 3.0;
    assert_int_equal(pqpan_energy_compute(&b, &l, &p, &sys_1m_0dbm, &g), PQPAN_OK);
    assert_uj(b.comm_bits_uj, 2.0 * a.comm_bits_uj);
    assert_uj(b.comm_events_uj, a.comm_events_uj);
    assert_uj(b.comp_op_uj[PQPAN_OP_KEM_KEYGEN], a.comp_op_uj[PQPAN_OP_KEM_KEYGEN]);
    assert_uj(b.comp_op_uj[PQPAN_OP_ECDH_SHARED], 240.0);
}

static void test_radio_only_table(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_RADIO_ONLY, 0};
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_OK);
    /* 1.2 · 1.1 ms · 5000 · 2 = 13.2; 1.2 · 0.5 ms · 4500 · 2 = 5.4; 1.2 · 0.3 ms · 4500 · 2 */
    assert_uj(e.bits_tx_uj, 13.2);
    assert_uj(e.bits_rx_uj, 5.4);
    assert_uj(e.bits_ifs_uj, 3.24);
    assert_uj(e.comp_uj, 320.0);
}

static void test_missing_figures(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_2M, PQPAN_CURRENTS_RADIO_ONLY, 0};
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_ERR_UNSUPPORTED);
    assert_uj(e.comp_uj, 0.0);
    o.radio = PQPAN_RADIO_BLE_2M;
    o.table = PQPAN_CURRENTS_SYSTEM;
    o.tx_dbm = 4;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_OK);
    /* 1.2 · 1.1 ms · 8000 · 2 */
    assert_uj(e.bits_tx_uj, 21.12);
    o.tx_dbm = 3;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_ERR_UNSUPPORTED);
    o.tx_dbm = 4;
    o.table = PQPAN_CURRENTS_RADIO_ONLY;
    o.radio = PQPAN_RADIO_BLE_1M;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_ERR_UNSUPPORTED);
    o.radio = PQPAN_RADIO_IEEE802154;
    o.table = PQPAN_CURRENTS_SYSTEM;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_ERR_UNSUPPORTED);
}

static void test_invalid_inputs(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    g.comm = 0.0;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_INVALID_ARG);
    make_gamma(&g);
    p.supply_v = -3.0;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_energy_compute(&e, NULL, &p, &sys_1m_0dbm, &g), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_energy_compute(NULL, &l, &p, &sys_1m_0dbm, &g), PQPAN_ERR_INVALID_ARG);
}

static void test_profile_check(void **state)
{
    struct pqpan_profile p;
    (void)state;
    make_profile(&p);
    assert_int_equal(pqpan_profile_check(&p), PQPAN_OK);
    p.tx_dbm[1] = 0; /* duplicate level */
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    make_profile(&p);
    p.cpu_hz = 0;
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    make_profile(&p);
    p.rx_ua[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_BLE_2M] = -1.0;
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    make_profile(&p);
    p.name[0] = '\0';
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    make_profile(&p);
    p.ble_event.post_ua = 0.0;
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    make_profile(&p);
    p.ble_event.ramp_ua[PQPAN_CURRENTS_RADIO_ONLY] = -5.0;
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    p.ble_event.ramp_given[PQPAN_CURRENTS_RADIO_ONLY] = 0; /* an absent figure's value is moot */
    assert_int_equal(pqpan_profile_check(&p), PQPAN_OK);
}

/* In 802.15.4 mode TX comes from the profile's 802.15.4 levels, not the BLE ones; RX from
 * rx_ua[.][PQPAN_RADIO_IEEE802154]. make_ledger: bits TX 1.1 ms, RX 0.5 ms, IFS 0.3 ms. */
static void test_802154_currents(void **state)
{
    const struct pqpan_energy_opts o = {PQPAN_RADIO_IEEE802154, PQPAN_CURRENTS_SYSTEM, 0};
    struct pqpan_profile p;
    struct pqpan_ledger l;
    struct pqpan_gamma g;
    struct pqpan_energy e;
    double ua;
    (void)state;
    make_profile(&p);
    make_ledger(&l);
    make_gamma(&g);
    p.rx_ua[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_IEEE802154] = 6100.0;
    p.rx_given[PQPAN_CURRENTS_SYSTEM][PQPAN_RADIO_IEEE802154] = 1;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_ERR_UNSUPPORTED);
    p.ieee802154.tx_level_count = 1;
    p.ieee802154.tx_dbm[0] = 0;
    p.ieee802154.tx_ua[PQPAN_CURRENTS_SYSTEM][0] = 5500.0;
    p.ieee802154.tx_given[PQPAN_CURRENTS_SYSTEM][0] = 1;
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_OK);
    assert_uj(e.bits_tx_uj, 1.2 * 1.1e-3 * 5500.0 * 2.0); /* 14.52, not the BLE 6000 µA */
    assert_uj(e.bits_rx_uj, 1.2 * 0.5e-3 * 6100.0 * 2.0);
    assert_int_equal(pqpan_profile_tx_mode_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_BLE_1M, 0,
                                              &ua),
                     PQPAN_OK);
    assert_true(ua == 6000.0);
    assert_int_equal(pqpan_profile_tx_mode_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_IEEE802154,
                                              4, &ua),
                     PQPAN_ERR_UNSUPPORTED);
    assert_true(ua == 0.0);
    p.ieee802154.tx_level_count = 2;
    p.ieee802154.tx_dbm[1] = 0; /* duplicate 802.15.4 level */
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
    p.ieee802154.tx_level_count = 1;
    p.ieee802154.backoff_rx = 2;
    assert_int_equal(pqpan_profile_check(&p), PQPAN_ERR_INVALID_ARG);
}

static void test_gamma_defaults_in_study_ranges(void **state)
{
    struct pqpan_gamma g;
    int op;
    (void)state;
    pqpan_gamma_default(&g);
    assert_true(pqpan_gamma_valid(&g));
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        assert_true(g.comp[op] >= 1.12 && g.comp[op] <= 1.62);
    }
    assert_true(g.comm >= 1.10 && g.comm <= 1.20);
}

static void add_row(struct pqpan_cycle_table *t, const char *scheme, const char *impl,
                    enum pqpan_op op, uint64_t cycles)
{
    struct pqpan_cycle_row r;
    memset(&r, 0, sizeof r);
    strcpy(r.scheme, scheme);
    strcpy(r.impl, impl);
    r.op = op;
    r.cycles = cycles;
    assert_int_equal(pqpan_cycles_add(t, &r), PQPAN_OK);
}

static void test_cycles_lookup(void **state)
{
    static struct pqpan_cycle_table t;
    uint64_t c = 1;
    (void)state;
    memset(&t, 0, sizeof t);
    add_row(&t, "ml-kem-768", "clean", PQPAN_OP_KEM_KEYGEN, 100);
    add_row(&t, "ml-kem-768", "m4fspeed", PQPAN_OP_KEM_KEYGEN, 50);
    add_row(&t, "ML-KEM-768", "*", PQPAN_OP_KDF, 7);
    add_row(&t, "ML-KEM-768", "pqpan-m4", PQPAN_OP_KDF, 5);
    add_row(&t, "P-256", "Emill/P256-Cortex-M4", PQPAN_OP_ECDH_SHARED, 906000);
    assert_int_equal(pqpan_cycles_lookup(&t, "ML-KEM-768", "M4FSPEED", PQPAN_OP_KEM_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 50);
    assert_int_equal(pqpan_cycles_lookup(&t, "ML-KEM-768", "clean", PQPAN_OP_KDF, &c), PQPAN_OK);
    assert_int_equal(c, 7);
    assert_int_equal(pqpan_cycles_lookup(&t, "ML-KEM-768", "pqpan-m4", PQPAN_OP_KDF, &c),
                     PQPAN_OK);
    assert_int_equal(c, 5);
    assert_int_equal(pqpan_cycles_lookup(&t, "p-256", NULL, PQPAN_OP_ECDH_SHARED, &c), PQPAN_OK);
    assert_int_equal(c, 906000);
    assert_int_equal(pqpan_cycles_lookup(&t, "ML-KEM-768", "m4fstack", PQPAN_OP_KEM_KEYGEN, &c),
                     PQPAN_ERR_NOT_FOUND);
    assert_int_equal(c, 0);
    assert_int_equal(pqpan_cycles_lookup(&t, "ML-KEM-76", "clean", PQPAN_OP_KEM_KEYGEN, &c),
                     PQPAN_ERR_NOT_FOUND);
}

static void test_cycles_capacity(void **state)
{
    static struct pqpan_cycle_table t;
    struct pqpan_cycle_row r;
    size_t i;
    (void)state;
    memset(&t, 0, sizeof t);
    memset(&r, 0, sizeof r);
    strcpy(r.scheme, "x");
    strcpy(r.impl, "y");
    for (i = 0; i < PQPAN_CYCLE_ROWS_MAX; i++) {
        assert_int_equal(pqpan_cycles_add(&t, &r), PQPAN_OK);
    }
    assert_int_equal(pqpan_cycles_add(&t, &r), PQPAN_ERR_CAPACITY);
    r.impl[0] = '\0';
    t.count = 0;
    assert_int_equal(pqpan_cycles_add(&t, &r), PQPAN_ERR_INVALID_ARG);
}

/* make_profile (2 V) with a supply section: 1.5..3.0 V, active currents behind a DC/DC,
 * sleep behind an LDO, sleep 1 uA with no RAM retained and 3 uA with 100 kB. */
static void make_supply_profile(struct pqpan_profile *p)
{
    make_profile(p);
    p->supply.given = 1;
    p->supply.min_v = 1.5;
    p->supply.max_v = 3.0;
    p->supply.active_dcdc = 1;
    p->supply.ram_points = 2;
    p->supply.ram_kb[1] = 100.0;
    p->supply.ram_sleep_ua[0] = 1.0;
    p->supply.ram_sleep_ua[1] = 3.0;
}

/* By hand at 2.5 V: DC/DC currents x 2/2.5 = 0.8 (CPU 4000 -> 3200, TX 0 dBm 6000 -> 4800,
 * RX 1M radio-only 4500 -> 3600, HFXO 1000 -> 800, event pre 3000 -> 2400, ramp 5000 ->
 * 4000); sleep at 50 kB = 1 + (3 - 1) x 50/100 = 2 uA, LDO: unscaled; behind a DC/DC 1.6.
 * E_comp = cycles / f x I x V is the same at any V behind a DC/DC. */
static void test_profile_at_supply(void **state)
{
    struct pqpan_profile p, q;
    struct pqpan_ledger l;
    struct pqpan_energy e2, e25;
    struct pqpan_gamma g;
    const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};
    (void)state;
    make_supply_profile(&p);
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.5, 50.0), PQPAN_OK);
    assert_uj(q.supply_v, 2.5);
    assert_uj(q.cpu_ua, 3200.0);
    assert_uj(q.tx_ua[PQPAN_CURRENTS_SYSTEM][0], 4800.0);
    assert_uj(q.rx_ua[PQPAN_CURRENTS_RADIO_ONLY][PQPAN_RADIO_BLE_1M], 3600.0);
    assert_uj(q.hfxo_start_ua, 800.0);
    assert_uj(q.ble_event.pre_ua, 2400.0);
    assert_uj(q.ble_event.ramp_ua[PQPAN_CURRENTS_SYSTEM], 4000.0);
    assert_uj(q.sleep_ua, 2.0);
    p.supply.sleep_dcdc = 1;
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.5, 50.0), PQPAN_OK);
    assert_uj(q.sleep_ua, 1.6);
    /* defaults: the profile's own voltage and sleep_ua, nothing changed */
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 0.0, -1.0), PQPAN_OK);
    assert_memory_equal(&q, &p, sizeof p);
    /* E_comp the same at 2.5 V as at 2 V */
    make_ledger(&l);
    pqpan_gamma_default(&g);
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.5, -1.0), PQPAN_OK);
    assert_int_equal(pqpan_energy_compute(&e2, &l, &p, &o, &g), PQPAN_OK);
    assert_int_equal(pqpan_energy_compute(&e25, &l, &q, &o, &g), PQPAN_OK);
    assert_uj(e25.comp_uj, e2.comp_uj);
}

static void test_profile_at_supply_refusals(void **state)
{
    struct pqpan_profile p, q;
    (void)state;
    make_supply_profile(&p);
    memset(&q, 0x5A, sizeof q);
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 3.5, -1.0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 1.4, -1.0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.0, 101.0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(((unsigned char *)&q)[0], 0x5A); /* out untouched */
    p.supply.ram_points = 0;
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.0, 10.0), PQPAN_ERR_UNSUPPORTED);
    make_profile(&p); /* no supply section: its own voltage only */
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.5, -1.0), PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_profile_at_supply(&q, &p, 2.0, -1.0), PQPAN_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_computation),
        cmocka_unit_test(test_signature_operation),
        cmocka_unit_test(test_bits_accounting),
        cmocka_unit_test(test_events_accounting),
        cmocka_unit_test(test_phases_alone),
        cmocka_unit_test(test_gamma_applies_to_its_terms_only),
        cmocka_unit_test(test_radio_only_table),
        cmocka_unit_test(test_missing_figures),
        cmocka_unit_test(test_invalid_inputs),
        cmocka_unit_test(test_profile_check),
        cmocka_unit_test(test_state_currents),
        cmocka_unit_test(test_802154_currents),
        cmocka_unit_test(test_gamma_defaults_in_study_ranges),
        cmocka_unit_test(test_cycles_lookup),
        cmocka_unit_test(test_profile_at_supply),
        cmocka_unit_test(test_profile_at_supply_refusals),
        cmocka_unit_test(test_cycles_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
