/* Tests for the packet simulator (src/sim/): event queue order, PRNG determinism, complete
 * exchanges over every transfer method and transport at zero loss with the estimator's
 * data PDU counts, same seed → same run, and 100 seeded runs per loss level up to 30 %
 * that each end with both sides done or a defined error, never a hang. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/sim.h"

static void base_config(struct pqpan_sim_config *c)
{
    pqpan_sim_config_default(c);
    c->dev.cpu_hz = 64000000u;
    c->dev.hfxo_start_ns = 400000u;
    c->dev.ramp_ns = 40000u;
    c->dev.pre_ns = 50000u;
    c->dev.post_ns = 50000u;
    c->dev.sca_ppm = 50u;
    c->cycles[PQPAN_OP_KEM_KEYGEN] = 1000000u;
    c->cycles[PQPAN_OP_KEM_ENCAPS] = 1200000u;
    c->cycles[PQPAN_OP_KEM_DECAPS] = 1300000u;
}

static int run(struct pqpan_sim *s, const struct pqpan_sim_config *c)
{
    struct pqpan_sim_synth a;
    int rc = pqpan_sim_init(s, c);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_sim_synth_init(&a, c->ble.ek_bytes, c->ble.ct_bytes, c->ble.keygen_side);
    return pqpan_sim_run(s, pqpan_sim_synth_app(), &a, NULL, NULL);
}

static void test_evq_order(void **state)
{
    struct pqpan_evq q;
    struct pqpan_ev ev;
    static const uint64_t t[6] = {50, 10, 30, 10, 20, 10};
    static const uint8_t want_kind[6] = {1, 3, 5, 4, 2, 0};
    int i;
    (void)state;
    pqpan_evq_init(&q);
    for (i = 0; i < 6; i++) {
        assert_int_equal(pqpan_evq_push(&q, t[i], (uint8_t)i, 0), 0);
    }
    for (i = 0; i < 6; i++) {
        assert_int_equal(pqpan_evq_pop(&q, &ev), 1);
        assert_int_equal(ev.kind, want_kind[i]);
    }
    assert_int_equal(pqpan_evq_pop(&q, &ev), 0);
}

static void test_prng(void **state)
{
    struct pqpan_prng a, b, c;
    int i, hits = 0;
    (void)state;
    pqpan_prng_seed(&a, 42);
    pqpan_prng_seed(&b, 42);
    pqpan_prng_seed(&c, 43);
    for (i = 0; i < 1000; i++) {
        assert_true(pqpan_prng_next(&a) == pqpan_prng_next(&b));
        assert_true(pqpan_prng_below(&c, 37) < 37u);
        hits += pqpan_prng_chance(&c, 0.25);
    }
    assert_in_range(hits, 200, 300);
}

/* Zero loss: every method and transport completes; GATT data PDUs equal the estimator's
 * (the same fragmentation and ATT plans). */
static void test_zero_loss_all_methods(void **state)
{
    static struct pqpan_sim s;
    struct pqpan_sim_config c;
    struct pqpan_ble_estimate e;
    int t, phy, oct;
    static const uint32_t octets[2] = {27, 251};
    (void)state;
    for (t = 0; t < PQPAN_BLE_TRANSFER_COUNT; t++) {
        for (phy = 0; phy < PQPAN_BLE_PHY_COUNT; phy++) {
            for (oct = 0; oct < 2; oct++) {
                base_config(&c);
                c.ble.transfer = (enum pqpan_ble_transfer)t;
                c.ble.phy = (enum pqpan_ble_phy)phy;
                c.ble.ll_octets = octets[oct];
                if (run(&s, &c) != PQPAN_OK) {
                    fail_msg("transfer %d phy %d octets %u: %s", t, phy, octets[oct],
                             pqpan_strerror(s.res.status));
                }
                assert_true(s.res.done[0] && s.res.done[1]);
                assert_int_equal(s.res.retransmissions[0] + s.res.retransmissions[1], 0);
                if (pqpan_ble_estimate_pqke(&e, &c.ble, &c.dev, c.cycles) != PQPAN_OK) {
                    fail_msg("estimate: transfer %d phy %d octets %u", t, phy, octets[oct]);
                }
                assert_int_equal(s.res.counts.data_pdus_tx[0], e.counts.data_pdus_tx[0]);
                assert_int_equal(s.res.counts.data_pdus_tx[1], e.counts.data_pdus_tx[1]);
                assert_int_equal(s.res.ll_octets, octets[oct]);
            }
        }
    }
    base_config(&c);
    c.transport = PQPAN_SIM_L2CAP_COC;
    c.ble.ll_octets = 251;
    assert_int_equal(run(&s, &c), PQPAN_OK);
    assert_true(s.res.done[0] && s.res.done[1]);
}

static void test_same_seed_same_run(void **state)
{
    static struct pqpan_sim a, b;
    struct pqpan_sim_config c;
    (void)state;
    base_config(&c);
    c.chan[0].per = 0.2;
    c.chan[1].ber = 1e-4;
    c.seed = 7;
    (void)run(&a, &c);
    (void)run(&b, &c);
    assert_memory_equal(&a.res, &b.res, sizeof a.res);
    assert_true(a.res.retransmissions[0] + a.res.retransmissions[1] > 0u);
}

/* 100 runs per PER level: both sides done, or the link lost / a damaged message caught;
 * the run always ends (bounded by the supervision timeout and max_sim_ns). */
static void test_loss_levels(void **state)
{
    static struct pqpan_sim s;
    struct pqpan_sim_config c;
    static const double per[4] = {0.05, 0.1, 0.2, 0.3};
    int lvl, seed, ok = 0;
    (void)state;
    for (lvl = 0; lvl < 4; lvl++) {
        for (seed = 1; seed <= 100; seed++) {
            int rc;
            base_config(&c);
            c.ble.ll_octets = 251;
            c.ble.att_mtu = 403;
            c.ble.transfer = (enum pqpan_ble_transfer)(seed % PQPAN_BLE_TRANSFER_COUNT);
            c.transport = seed % 7 == 0 ? PQPAN_SIM_L2CAP_COC : PQPAN_SIM_GATT;
            c.ble.ci_ns = 7500000u;
            c.chan[0].per = per[lvl];
            c.chan[1].per = per[lvl];
            c.seed = (uint64_t)seed;
            rc = run(&s, &c);
            if (rc == PQPAN_OK) {
                assert_true(s.res.done[0] && s.res.done[1]);
                ok++;
            } else {
                if (!(rc == PQPAN_ERR_LINK_LOST || rc == PQPAN_ERR_MALFORMED || rc == PQPAN_ERR_TIMEOUT)) {
                    fail_msg("per %g seed %d transfer %d: %s", per[lvl], seed, seed % 6, pqpan_strerror(rc));
                }
                assert_true(rc == PQPAN_ERR_LINK_LOST || rc == PQPAN_ERR_MALFORMED ||
                            rc == PQPAN_ERR_TIMEOUT);
            }
            assert_true(s.res.end_ns < 600000000000u);
        }
    }
    assert_true(ok >= 300);
}

static double rel_diff(uint64_t a, uint64_t b)
{
    double d = (double)a - (double)b;
    if (b == 0u) {
        return a == 0u ? 0.0 : 1.0;
    }
    return (d < 0 ? -d : d) / (double)b;
}

/* Every phase x state time and every op's cycles of one ledger within 1 %. Each field of
 * struct pqpan_energy is a sum of these times and cycles with non-negative coefficients
 * (currents, voltage, gamma), so this bounds every energy term by 1 % for any profile. */
static void assert_ledgers_agree(const struct pqpan_ledger *sim, const struct pqpan_ledger *est,
                                 double *worst)
{
    int ph, st, op;
    for (ph = 0; ph < PQPAN_PHASE_COUNT; ph++) {
        for (st = 0; st < PQPAN_STATE_COUNT; st++) {
            double d = rel_diff(sim->ns[ph][st], est->ns[ph][st]);
            *worst = d > *worst ? d : *worst;
            if (d > 0.01) {
                fail_msg("%s %s: simulated %llu ns, estimated %llu ns",
                         pqpan_phase_name((enum pqpan_phase)ph), pqpan_state_name((enum pqpan_state)st),
                         (unsigned long long)sim->ns[ph][st], (unsigned long long)est->ns[ph][st]);
            }
        }
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        assert_int_equal(sim->op_cycles[op], est->op_cycles[op]);
    }
    assert_int_equal(sim->pdus_tx, est->pdus_tx);
    assert_int_equal(sim->pdus_rx, est->pdus_rx);
    assert_int_equal(sim->bytes_tx, est->bytes_tx);
    assert_int_equal(sim->bytes_rx, est->bytes_rx);
}

/* At zero loss the simulator and the estimator (same framing and timing code, ble.h)
 * agree on both accountings of both sides (every phase x state within 1 %, PDUs, octets
 * and cycles equal), on the PDU and event counts and on the latency, for every ML-KEM
 * level x PHY x LL size x transfer method (docs/MODEL.md "Simulator versus estimator"). */
static void test_agreement_with_estimator(void **state)
{
    static struct pqpan_sim s;
    struct pqpan_sim_config c;
    struct pqpan_ble_estimate e;
    static const uint32_t ek[3] = {800, 1184, 1568}, ct[3] = {768, 1088, 1568};
    static const uint32_t octets[3] = {27, 100, 251};
    double worst = 0.0;
    int lv, phy, o, t, side;
    (void)state;
    for (lv = 0; lv < 3; lv++) {
        for (phy = 0; phy < PQPAN_BLE_PHY_COUNT; phy++) {
            for (o = 0; o < 3; o++) {
                for (t = 0; t < PQPAN_BLE_TRANSFER_COUNT; t++) {
                    base_config(&c);
                    c.ble.ek_bytes = ek[lv];
                    c.ble.ct_bytes = ct[lv];
                    c.ble.phy = (enum pqpan_ble_phy)phy;
                    c.ble.ll_octets = octets[o];
                    c.ble.transfer = (enum pqpan_ble_transfer)t;
                    assert_int_equal(run(&s, &c), PQPAN_OK);
                    assert_int_equal(pqpan_ble_estimate_pqke(&e, &c.ble, &c.dev, c.cycles), PQPAN_OK);
                    for (side = 0; side < 2; side++) {
                        assert_ledgers_agree(&s.res.ledger[side], &e.ledger[side], &worst);
                        assert_ledgers_agree(&s.res.bits[side], &e.bits[side], &worst);
                        assert_int_equal(s.res.counts.data_pdus_tx[side], e.counts.data_pdus_tx[side]);
                        assert_int_equal(s.res.counts.empty_pdus_tx[side], e.counts.empty_pdus_tx[side]);
                    }
                    assert_int_equal(s.res.counts.events, e.counts.events);
                    assert_int_equal(s.res.counts.idle_events, e.counts.idle_events);
                    assert_int_equal(s.res.counts.negotiate_events, e.counts.negotiate_events);
                    assert_int_equal(s.res.latency_ns, e.latency_ns);
                }
            }
        }
    }
    print_message("sim vs estimate: worst phase x state time %.2f %%\n", 100.0 * worst);
}

static int run_pqke(struct pqpan_sim *s, struct pqpan_sim_pqke *a, const struct pqpan_sim_config *c,
                    unsigned suite)
{
    int rc = pqpan_sim_init(s, c);
    if (rc != PQPAN_OK) {
        return rc;
    }
    rc = pqpan_sim_pqke_init(a, suite, PQPAN_PQKE_MODE_NONE, c->ble.keygen_side, c->seed);
    return rc != PQPAN_OK ? rc : pqpan_sim_run(s, pqpan_sim_pqke_app(), a, NULL, NULL);
}

/* The real protocol over every method and both transports: equal, confirmed keys. */
static void test_pqke_all_methods(void **state)
{
    static struct pqpan_sim s;
    static struct pqpan_sim_pqke a;
    struct pqpan_sim_config c;
    int t;
    (void)state;
    for (t = 0; t <= PQPAN_BLE_TRANSFER_COUNT; t++) {
        base_config(&c);
        c.ble.att_mtu = 403;
        c.ble.ll_octets = 251;
        c.ble.keygen_side = t % 2 ? PQPAN_BLE_CENTRAL : PQPAN_BLE_PERIPHERAL;
        if (t == PQPAN_BLE_TRANSFER_COUNT) {
            c.transport = PQPAN_SIM_L2CAP_COC;
        } else {
            c.ble.transfer = (enum pqpan_ble_transfer)t;
        }
        assert_int_equal(run_pqke(&s, &a, &c, PQPAN_PQKE_SUITE_MLKEM512 + (unsigned)t % 3u), PQPAN_OK);
        assert_true(pqpan_sim_pqke_confirmed(&a));
        assert_true(pqpan_sim_pqke_keys_equal(&a));
        assert_int_equal(s.res.ledger[0].op_count[PQPAN_OP_KDF] + s.res.ledger[1].op_count[PQPAN_OP_KDF], 2);
        if (c.transport == PQPAN_SIM_GATT) {
            /* The estimator's pqpan protocol: the same INIT/RESP/FIN PDUs and bits. */
            struct pqpan_ble_estimate e;
            struct pqpan_pqke_sizes z = pqpan_pqke_message_sizes(PQPAN_PQKE_SUITE_MLKEM512 + (unsigned)t % 3u,
                                                                 PQPAN_PQKE_MODE_NONE);
            int side;
            c.ble.protocol = PQPAN_BLE_PROTO_PQPAN;
            c.ble.ek_bytes = (uint32_t)z.ek_bytes;
            c.ble.ct_bytes = (uint32_t)z.ct_bytes;
            assert_int_equal(pqpan_ble_estimate_pqke(&e, &c.ble, &c.dev, c.cycles), PQPAN_OK);
            for (side = 0; side < 2; side++) {
                assert_int_equal(s.res.counts.data_pdus_tx[side], e.counts.data_pdus_tx[side]);
                assert_true(rel_diff(pqpan_ledger_state_ns(&s.res.bits[side], PQPAN_STATE_TX),
                                     pqpan_ledger_state_ns(&e.bits[side], PQPAN_STATE_TX)) <= 0.01);
            }
        }
    }
}

/* 100 runs per PER level up to 30 % with the real protocol: equal confirmed keys or a
 * defined error, never a completed run with different keys. */
static void test_pqke_loss(void **state)
{
    static struct pqpan_sim s;
    static struct pqpan_sim_pqke a;
    struct pqpan_sim_config c;
    static const double per[3] = {0.1, 0.2, 0.3};
    int lvl, seed, ok = 0;
    (void)state;
    for (lvl = 0; lvl < 3; lvl++) {
        for (seed = 1; seed <= 100; seed++) {
            int rc;
            base_config(&c);
            c.ble.ll_octets = 251;
            c.ble.ci_ns = 7500000u;
            c.ble.transfer = (enum pqpan_ble_transfer)(seed % PQPAN_BLE_TRANSFER_COUNT);
            c.chan[0].per = per[lvl];
            c.chan[1].per = per[lvl];
            c.chan[1].ber = seed % 5 == 0 ? 1e-4 : 0.0;
            c.seed = (uint64_t)seed;
            rc = run_pqke(&s, &a, &c, PQPAN_PQKE_SUITE_MLKEM768);
            if (rc == PQPAN_OK) {
                assert_true(pqpan_sim_pqke_confirmed(&a));
                assert_true(pqpan_sim_pqke_keys_equal(&a));
                ok++;
            } else {
                assert_false(pqpan_sim_pqke_confirmed(&a));
                assert_true(rc == PQPAN_ERR_LINK_LOST || rc == PQPAN_ERR_TIMEOUT || rc < 0);
            }
        }
    }
    assert_true(ok >= 250);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_evq_order),
        cmocka_unit_test(test_prng),
        cmocka_unit_test(test_zero_loss_all_methods),
        cmocka_unit_test(test_same_seed_same_run),
        cmocka_unit_test(test_loss_levels),
        cmocka_unit_test(test_agreement_with_estimator),
        cmocka_unit_test(test_pqke_all_methods),
        cmocka_unit_test(test_pqke_loss),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
