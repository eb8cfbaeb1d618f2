/* Tests for src/energy/advise.c: battery life and floor arithmetic checked by hand, the
 * best-few ranking and the Pareto front checked against brute force on random points. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "pqpan/io.h"
#include "pqpan/advise.h"

/* A CR2032 (235 mAh), an idle link at 7.1 uA, one exchange of 352 uC over 2 s a day.
 * By hand: capacity 235 x 3.6e6 = 846e6 uC; exchanges 846e6 / 352 = 2 403 409.09;
 * per day 352 + 7.1 x (86400 - 2) = 352 + 613 425.8 = 613 777.8 uC, / 86400 s =
 * 7.103 909 72 uA; rekeying 0.003 909 72 uA = 0.055 036 % of it; life 846e6 / 7.103 909 72
 * = 119 089 351 s (3.774 years), idle alone 846e6 / 7.1 = 119 154 930 s. */
static void test_battery_hand(void **state)
{
    const struct pqpan_advise_battery_in in = {235.0, 7.1, 352.0, 2.0, 86400.0, 0.0, 0.0, 1.0};
    struct pqpan_advise_battery b;
    (void)state;
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_OK);
    assert_true(fabs(b.capacity_uc - 846e6) < 1e-3);
    assert_true(fabs(b.exchanges - 2403409.0909) < 1e-3);
    assert_true(fabs(b.avg_ua - 7.10390972) < 1e-8);
    assert_true(fabs(b.rekey_ua - 0.00390972) < 1e-8);
    assert_true(fabs(b.rekey_share - 0.00055036) < 1e-8);
    assert_true(fabs(b.life_s - 119089351.2) < 1.0);
    assert_true(fabs(b.life_idle_s - 119154929.6) < 1.0);
}

/* The same cell with what the plain figure leaves out: an application drawing 2 uA, 1 %
 * self-discharge a year, 80 % of the capacity usable at the load. By hand: usable 846e6 x
 * 0.8 = 676.8e6 uC; exchanges 676.8e6 / 352 = 1 922 727.27; self-discharge 846e6 x 0.01 /
 * 31 557 600 s = 0.268 081 22 uA, drain 2.268 081 22 uA; average 7.103 909 72 + 2.268 081 22
 * = 9.371 990 95 uA; rekeying still 0.003 909 72 uA; life 676.8e6 / 9.371 990 95 = 72 215 179
 * s (2.288 years), idle alone 676.8e6 / 9.368 081 22 = 72 245 317 s. */
static void test_battery_caveats_hand(void **state)
{
    const struct pqpan_advise_battery_in in = {235.0, 7.1, 352.0, 2.0, 86400.0, 2.0, 0.01, 0.8};
    struct pqpan_advise_battery b;
    (void)state;
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_OK);
    assert_true(fabs(b.usable_uc - 676.8e6) < 1e-3);
    assert_true(fabs(b.exchanges - 1922727.2727) < 1e-3);
    assert_true(fabs(b.drain_ua - 2.26808122) < 1e-8);
    assert_true(fabs(b.avg_ua - 9.37199095) < 1e-8);
    assert_true(fabs(b.rekey_ua - 0.00390972) < 1e-8);
    assert_true(fabs(b.life_s - 72215179.0) < 1.0);
    assert_true(fabs(b.life_idle_s - 72245317.0) < 1.0);
}

static void test_battery_rejects(void **state)
{
    struct pqpan_advise_battery_in in = {235.0, 7.1, 352.0, 2.0, 86400.0, 0.0, 0.0, 1.0};
    struct pqpan_advise_battery b;
    (void)state;
    in.exchange_s = in.rekey_s; /* the exchange must end before the next one starts */
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_ERR_INVALID_ARG);
    assert_true(b.life_s == 0.0);
    in.exchange_s = 2.0;
    in.idle_ua = 0.0;
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_ERR_INVALID_ARG);
    in.idle_ua = NAN;
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_ERR_INVALID_ARG);
    in.idle_ua = 7.1;
    in.derate = 0.0; /* nothing usable */
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_ERR_INVALID_ARG);
    in.derate = 1.0;
    in.self_discharge = 1.5;
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_ERR_INVALID_ARG);
    in.self_discharge = 0.0;
    in.app_ua = -1.0;
    assert_int_equal(pqpan_advise_battery(&b, &in), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_advise_battery(&b, NULL), PQPAN_ERR_INVALID_ARG);
}

static void load_nrf52840(struct pqpan_profile *p)
{
    char err[PQPAN_IO_ERR_MAX];
    assert_int_equal(pqpan_io_profile_load_builtin(p, NULL, "nrf52840", err, sizeof err), PQPAN_OK);
}

/* One KeyGen of 1e6 cycles and one Decaps of 2e6. */
static void keygen_decaps(uint64_t cycles[PQPAN_OP_COUNT], uint64_t count[PQPAN_OP_COUNT])
{
    cycles[PQPAN_OP_KEM_KEYGEN] = 1000000u;
    cycles[PQPAN_OP_KEM_DECAPS] = 2000000u;
    count[PQPAN_OP_KEM_KEYGEN] = 1u;
    count[PQPAN_OP_KEM_DECAPS] = 1u;
}

/* nRF52840 system table, 3.00 V, TX 0 dBm 6400 uA, RX 1M 6260, RX 2M 6860 (derived),
 * RX coded 6260 (derived), CPU 3300 uA at 64 MHz. 1000 octets sent, 500 received:
 *   1M  8 us/octet:  3 x 8e-6  x (1000 x 6400 + 500 x 6260) = 228.72 uJ
 *   2M  4 us/octet:  3 x 4e-6  x (1000 x 6400 + 500 x 6860) = 117.96 uJ
 *   S2 16 us/octet:  457.44 uJ;  S8 64 us/octet: 1829.76 uJ
 * computation: KeyGen 1e6 + Decaps 2e6 cycles / 64 MHz = 46.875 ms x 3 V x 3300 uA =
 * 464.0625 uJ (the Encaps row has no execution). */
static void test_floor_hand(void **state)
{
    struct pqpan_profile p;
    struct pqpan_advise_floor f;
    uint64_t cycles[PQPAN_OP_COUNT] = {0u}, count[PQPAN_OP_COUNT] = {0u};
    unsigned all = (1u << PQPAN_BLE_PHY_COUNT) - 1u;
    (void)state;
    load_nrf52840(&p);
    keygen_decaps(cycles, count);
    cycles[PQPAN_OP_KEM_ENCAPS] = 5000000u;
    assert_int_equal(pqpan_advise_floor(&f, &p, PQPAN_CURRENTS_SYSTEM, 0, all, 1000u, 500u,
                                        cycles, count),
                     PQPAN_OK);
    assert_int_equal(f.phy, PQPAN_BLE_PHY_2M);
    assert_true(fabs(f.link_uj - 117.96) < 1e-9);
    assert_true(fabs(f.comp_uj - 464.0625) < 1e-9);
    assert_true(fabs(f.total_uj - 582.0225) < 1e-9);
    assert_int_equal(pqpan_advise_floor(&f, &p, PQPAN_CURRENTS_SYSTEM, 0,
                                        (1u << PQPAN_BLE_PHY_1M) | (1u << PQPAN_BLE_PHY_CODED_S8),
                                        1000u, 500u, cycles, count),
                     PQPAN_OK);
    assert_int_equal(f.phy, PQPAN_BLE_PHY_1M);
    assert_true(fabs(f.link_uj - 228.72) < 1e-9);
    assert_int_equal(pqpan_advise_floor(&f, &p, PQPAN_CURRENTS_SYSTEM, 0,
                                        1u << PQPAN_BLE_PHY_CODED_S2, 1000u, 500u, cycles, count),
                     PQPAN_OK);
    assert_true(fabs(f.link_uj - 457.44) < 1e-9);
}

/* 802.15.4, nRF52840 system table: TX 0 dBm 6400 uA, RX 6530 uA, 32 us per octet:
 * 3 x 32e-6 x (1000 x 6400 + 500 x 6530) = 927.84 uJ; computation as above. */
static void test_floor_802154_hand(void **state)
{
    struct pqpan_profile p;
    struct pqpan_advise_floor f;
    uint64_t cycles[PQPAN_OP_COUNT] = {0u}, count[PQPAN_OP_COUNT] = {0u};
    (void)state;
    load_nrf52840(&p);
    keygen_decaps(cycles, count);
    assert_int_equal(pqpan_advise_floor_802154(&f, &p, PQPAN_CURRENTS_SYSTEM, 0, 1000u, 500u,
                                               cycles, count),
                     PQPAN_OK);
    assert_true(fabs(f.link_uj - 927.84) < 1e-9);
    assert_true(fabs(f.comp_uj - 464.0625) < 1e-9);
    /* the profile has no radio-only 802.15.4 figures */
    assert_int_equal(pqpan_advise_floor_802154(&f, &p, PQPAN_CURRENTS_RADIO_ONLY, 0, 1000u, 500u,
                                               cycles, count),
                     PQPAN_ERR_UNSUPPORTED);
}

static void test_floor_rejects(void **state)
{
    struct pqpan_profile p;
    struct pqpan_advise_floor f;
    uint64_t cycles[PQPAN_OP_COUNT] = {0u}, count[PQPAN_OP_COUNT] = {0u};
    (void)state;
    load_nrf52840(&p);
    assert_int_equal(pqpan_advise_floor(&f, &p, PQPAN_CURRENTS_SYSTEM, 0, 0u, 1u, 1u, cycles, count),
                     PQPAN_ERR_INVALID_ARG);
    /* no TX level at +3 dBm in the profile: no PHY can be priced */
    assert_int_equal(pqpan_advise_floor(&f, &p, PQPAN_CURRENTS_SYSTEM, 3, 1u, 1u, 1u, cycles, count),
                     PQPAN_ERR_UNSUPPORTED);
    assert_true(f.total_uj == 0.0);
}

static void test_ledger_phases(void **state)
{
    struct pqpan_ledger l, out;
    (void)state;
    pqpan_ledger_init(&l);
    pqpan_ledger_add(&l, PQPAN_PHASE_CONNECT, PQPAN_STATE_TX, 7u);
    pqpan_ledger_add(&l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_TX, 11u);
    pqpan_ledger_add(&l, PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, 13u);
    pqpan_ledger_add(&l, PQPAN_PHASE_CONFIRM, PQPAN_STATE_SLEEP, 17u);
    pqpan_ledger_add(&l, PQPAN_PHASE_IDLE, PQPAN_STATE_SLEEP, 19u);
    pqpan_ledger_add_op(&l, PQPAN_OP_KEM_KEYGEN, 1000u);
    l.pdus_tx = 5u;
    pqpan_advise_ledger_phases(&out, &l, PQPAN_ADVISE_EXCHANGE_PHASES);
    assert_int_equal(pqpan_ledger_phase_ns(&out, PQPAN_PHASE_CONNECT), 0);
    assert_int_equal(pqpan_ledger_phase_ns(&out, PQPAN_PHASE_IDLE), 0);
    assert_int_equal(out.ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_TX], 11);
    assert_int_equal(out.ns[PQPAN_PHASE_CRYPTO][PQPAN_STATE_CPU], 13);
    assert_int_equal(out.ns[PQPAN_PHASE_CONFIRM][PQPAN_STATE_SLEEP], 17);
    assert_int_equal(out.op_count[PQPAN_OP_KEM_KEYGEN], 1);
    assert_int_equal(out.op_cycles[PQPAN_OP_KEM_KEYGEN], 1000);
    assert_int_equal(out.pdus_tx, 0);
}

/* A device's connection-event timing for the round trip (ble.h struct pqpan_ble_device:
 * CPU 64 MHz, HFXO start 256 µs, ramp 40 µs, pre 60 µs, post 60 µs, 50 ppm, margin 32 µs);
 * the spans below do not depend on it. */
static const struct pqpan_ble_device rt_dev = {64000000u, 256000u, 40000u, 60000u, 60000u,
                                               50u, 32000u};

/* The round trip {1M, 27, 1000 ms} -> {2M, 251, 50 ms} -> back, by hand from the
 * procedures (Core v5.4 Vol 6 Part B; each with an instant sits 6 events after its
 * indication, §5.5, and the instant's event comes one old interval after the last one
 * before, §5.1.1; a response comes in the next event). An empty event closes 2·80 + 150 =
 * 310 µs after its anchor on 1M, 2·44 + 150 = 238 µs on 2M; the one where the peripheral
 * answers the central's empty PDU with LL_LENGTH_RSP (9 octets of payload + 2 of header +
 * access address 4 + CRC 3 + preamble 1 or 2: 152 µs on 1M, 80 µs on 2M, Vol 6 Part B
 * §2.1) 80 + 150 + 152 = 382 µs on 1M, 44 + 150 + 80 = 274 µs on 2M.
 * There, after an empty 1M event:
 *  - connection update at 1000 ms on 1M (LL_CONNECTION_PARAM_REQ, RSP next event,
 *    LL_CONNECTION_UPDATE_IND, 5 idle events, the instant's): 9 events, 9000 ms;
 *  - PHY update at 50 ms (REQ, RSP, IND, 5 idle, the instant's event on 2M): 9 events,
 *    450 ms − (310 − 238) µs;
 *  - data length update on 2M: 2 events, 100 ms + (274 − 238) µs.
 * Back, after an empty 2M event: PHY update 2M -> 1M at 50 ms, 450 ms + (310 − 238) µs;
 * data length update on 1M, 100 ms + (382 − 310) µs; connection update 50 -> 1000 ms at
 * 50 ms on 1M, 8 · 50 + 50 ms (the instant one old interval later) − (382 − 310) µs.
 * LL control PDUs per leg: the central 2 + 2 + 1, the peripheral 1 + 1 + 1. */
/* Every phase of a ledger. */
static uint64_t all_phases_ns(const struct pqpan_ledger *l)
{
    uint64_t sum = 0;
    int p;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        sum += pqpan_ledger_phase_ns(l, (enum pqpan_phase)p);
    }
    return sum;
}

static void test_round_trip_hand(void **state)
{
    static struct pqpan_advise_round_trip rt;
    const struct pqpan_ble_link_settings idle = {PQPAN_BLE_PHY_1M, 27u, 1000000000u};
    const struct pqpan_ble_link_settings opt = {PQPAN_BLE_PHY_2M, 251u, 50000000u};
    const unsigned all = PQPAN_ADVISE_SWITCH_PHASES;
    int leg, role;
    (void)state;
    assert_int_equal(pqpan_advise_round_trip(&rt, &idle, &opt, 0, &rt_dev), PQPAN_OK);
    assert_int_equal(rt.span_ns[PQPAN_ADVISE_THERE],
                     9000000000u + 450000000u - 72000u + 100000000u + 36000u);
    assert_int_equal(rt.span_ns[PQPAN_ADVISE_BACK],
                     450000000u + 72000u + 100000000u + 72000u + 450000000u - 72000u);
    assert_int_equal(rt.procedures[PQPAN_ADVISE_THERE], all);
    assert_int_equal(rt.procedures[PQPAN_ADVISE_BACK], all);
    assert_int_equal(rt.counts.llctrl_pdus[PQPAN_BLE_CENTRAL], 2 * (2 + 2 + 1));
    assert_int_equal(rt.counts.llctrl_pdus[PQPAN_BLE_PERIPHERAL], 2 * (1 + 1 + 1));
    assert_int_equal(rt.counts.events + rt.counts.idle_events, 2 * (9 + 9 + 2));
    /* the PHY each procedure's PDUs run on */
    assert_int_equal(rt.phy[PQPAN_ADVISE_THERE][PQPAN_PHASE_CONN_UPDATE], PQPAN_BLE_PHY_1M);
    assert_int_equal(rt.phy[PQPAN_ADVISE_THERE][PQPAN_PHASE_PHY_UPDATE], PQPAN_BLE_PHY_1M);
    assert_int_equal(rt.phy[PQPAN_ADVISE_THERE][PQPAN_PHASE_LENGTH_UPDATE], PQPAN_BLE_PHY_2M);
    assert_int_equal(rt.phy[PQPAN_ADVISE_BACK][PQPAN_PHASE_PHY_UPDATE], PQPAN_BLE_PHY_2M);
    assert_int_equal(rt.phy[PQPAN_ADVISE_BACK][PQPAN_PHASE_LENGTH_UPDATE], PQPAN_BLE_PHY_1M);
    assert_int_equal(rt.phy[PQPAN_ADVISE_BACK][PQPAN_PHASE_CONN_UPDATE], PQPAN_BLE_PHY_1M);
    /* each side's ledger fills each leg's span, in the procedures' phases only */
    for (leg = 0; leg < PQPAN_ADVISE_LEGS; leg++) {
        for (role = 0; role < 2; role++) {
            const struct pqpan_ledger *l = &rt.led[leg][role];
            assert_int_equal(pqpan_ledger_phase_ns(l, PQPAN_PHASE_CONN_UPDATE) +
                                 pqpan_ledger_phase_ns(l, PQPAN_PHASE_PHY_UPDATE) +
                                 pqpan_ledger_phase_ns(l, PQPAN_PHASE_LENGTH_UPDATE),
                             rt.span_ns[leg]);
            assert_int_equal(all_phases_ns(l), rt.span_ns[leg]);
        }
    }
}

/* Nothing changes: no procedure, nothing booked. Out of range: rejected, zeroed. */
static void test_round_trip_none_and_rejects(void **state)
{
    static struct pqpan_advise_round_trip rt;
    const struct pqpan_ble_link_settings idle = {PQPAN_BLE_PHY_2M, 100u, 30000000u};
    struct pqpan_ble_link_settings bad = idle;
    (void)state;
    assert_int_equal(pqpan_advise_round_trip(&rt, &idle, &idle, 0, &rt_dev), PQPAN_OK);
    assert_int_equal(rt.span_ns[PQPAN_ADVISE_THERE] + rt.span_ns[PQPAN_ADVISE_BACK], 0);
    assert_int_equal(rt.procedures[PQPAN_ADVISE_THERE] | rt.procedures[PQPAN_ADVISE_BACK], 0);
    assert_int_equal(all_phases_ns(&rt.led[PQPAN_ADVISE_THERE][PQPAN_BLE_PERIPHERAL]), 0);
    /* only the LL size: one data length update each way, 2 events at 30 ms on 2M */
    bad.ll_octets = 251u;
    assert_int_equal(pqpan_advise_round_trip(&rt, &idle, &bad, 0, &rt_dev), PQPAN_OK);
    assert_int_equal(rt.procedures[PQPAN_ADVISE_THERE], 1u << PQPAN_PHASE_LENGTH_UPDATE);
    assert_int_equal(rt.span_ns[PQPAN_ADVISE_THERE], 60000000u + 36000u);
    assert_int_equal(rt.span_ns[PQPAN_ADVISE_BACK], 60000000u + 36000u);
    bad.ci_ns = 5000000u; /* below 7.5 ms (Vol 6 Part B §4.5.1) */
    assert_int_equal(pqpan_advise_round_trip(&rt, &idle, &bad, 0, &rt_dev), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(rt.span_ns[PQPAN_ADVISE_THERE], 0);
    assert_int_equal(pqpan_advise_round_trip(&rt, NULL, &idle, 0, &rt_dev), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_advise_round_trip(NULL, &idle, &idle, 0, &rt_dev), PQPAN_ERR_INVALID_ARG);
}

/* Random points on a coarse grid, so that ties in energy, latency and both occur. */
#define N_RANDOM 3000

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u; /* Numerical Recipes' LCG */
    return *s >> 8;
}

static void random_points(struct pqpan_advise_point *pt, size_t n, uint32_t seed)
{
    size_t i;
    for (i = 0; i < n; i++) {
        pt[i].energy = (double)(lcg(&seed) % 200u);
        pt[i].latency = (double)(lcg(&seed) % 200u);
        pt[i].id = (uint32_t)i;
    }
}

static int cmp_points(const void *a, const void *b)
{
    const struct pqpan_advise_point *x = a, *y = b;
    return pqpan_advise_point_before(x, y) ? -1 : pqpan_advise_point_before(y, x) ? 1 : 0;
}

static void test_rank_is_sorted_prefix(void **state)
{
    static struct pqpan_advise_point pt[N_RANDOM], sorted[N_RANDOM];
    struct pqpan_advise_rank r;
    size_t i;
    (void)state;
    random_points(pt, N_RANDOM, 7u);
    memcpy(sorted, pt, sizeof pt);
    qsort(sorted, N_RANDOM, sizeof sorted[0], cmp_points);
    pqpan_advise_rank_init(&r, 12);
    for (i = 0; i < N_RANDOM; i++) {
        pqpan_advise_rank_add(&r, &pt[i]);
    }
    assert_int_equal(r.count, 12);
    for (i = 0; i < 12; i++) {
        assert_int_equal(r.pt[i].id, sorted[i].id);
    }
    pqpan_advise_rank_init(&r, 0);
    assert_int_equal(r.n, 1);
    pqpan_advise_rank_init(&r, 1000);
    assert_int_equal(r.n, PQPAN_ADVISE_TOP_MAX);
}

/* p is on the front unless some point is at least as good in both and better in one, or
 * equal in both and offered earlier. */
static int on_front(const struct pqpan_advise_point *pt, size_t n, size_t i)
{
    size_t j;
    for (j = 0; j < n; j++) {
        int no_worse = pt[j].energy <= pt[i].energy && pt[j].latency <= pt[i].latency;
        int better = pt[j].energy < pt[i].energy || pt[j].latency < pt[i].latency;
        if (j != i && no_worse && (better || j < i)) {
            return 0;
        }
    }
    return 1;
}

static void test_front_brute_force(void **state)
{
    static struct pqpan_advise_point pt[N_RANDOM];
    static struct pqpan_advise_front f;
    uint32_t seed;
    (void)state;
    for (seed = 1; seed <= 5; seed++) {
        size_t i, k = 0;
        random_points(pt, N_RANDOM, seed);
        pqpan_advise_front_init(&f);
        for (i = 0; i < N_RANDOM; i++) {
            assert_int_equal(pqpan_advise_front_add(&f, &pt[i]), PQPAN_OK);
        }
        for (i = 0; i < N_RANDOM; i++) {
            if (on_front(pt, N_RANDOM, i)) {
                size_t m;
                for (m = 0; m < f.count && f.pt[m].id != pt[i].id; m++) {
                }
                assert_true(m < f.count);
                k++;
            }
        }
        assert_int_equal(f.count, k);
        for (i = 1; i < f.count; i++) {
            assert_true(f.pt[i - 1].latency < f.pt[i].latency);
            assert_true(f.pt[i - 1].energy > f.pt[i].energy);
        }
    }
}

static void test_front_capacity(void **state)
{
    static struct pqpan_advise_front f;
    struct pqpan_advise_point p;
    size_t i;
    (void)state;
    pqpan_advise_front_init(&f);
    for (i = 0; i < PQPAN_ADVISE_FRONT_MAX; i++) {
        p.energy = 1e6 - (double)i;
        p.latency = (double)i;
        p.id = (uint32_t)i;
        assert_int_equal(pqpan_advise_front_add(&f, &p), PQPAN_OK);
    }
    p.energy = 0.5;
    p.latency = 1e6;
    assert_int_equal(pqpan_advise_front_add(&f, &p), PQPAN_ERR_CAPACITY);
    assert_int_equal(f.count, PQPAN_ADVISE_FRONT_MAX);
    p.energy = 0.5; /* beats the last point: it replaces it, so it fits */
    p.latency = (double)(PQPAN_ADVISE_FRONT_MAX - 1u);
    assert_int_equal(pqpan_advise_front_add(&f, &p), PQPAN_OK);
    assert_int_equal(f.count, PQPAN_ADVISE_FRONT_MAX);
    assert_true(f.pt[PQPAN_ADVISE_FRONT_MAX - 1u].energy == 0.5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_battery_hand),
        cmocka_unit_test(test_battery_caveats_hand),
        cmocka_unit_test(test_battery_rejects),
        cmocka_unit_test(test_floor_hand),
        cmocka_unit_test(test_floor_802154_hand),
        cmocka_unit_test(test_floor_rejects),
        cmocka_unit_test(test_ledger_phases),
        cmocka_unit_test(test_round_trip_hand),
        cmocka_unit_test(test_round_trip_none_and_rejects),
        cmocka_unit_test(test_rank_is_sorted_prefix),
        cmocka_unit_test(test_front_brute_force),
        cmocka_unit_test(test_front_capacity),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
