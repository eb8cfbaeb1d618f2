/* Tests for src/ieee802154/contention.c: with two nodes and no load the simulator agrees
 * with the analytic estimator (deterministic ledger terms exactly, latency within 1 %
 * on average over seeded runs); with load, runs with the same seed are identical byte
 * for byte (results and every transmitted frame); contention costs retries. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

static struct pqpan_802154_csim ws;

struct xs {
    uint64_t s;
};

static int xs_rng(void *ctx, uint8_t *out, size_t len)
{
    struct xs *x = (struct xs *)ctx;
    size_t i;
    for (i = 0; i < len; i++) {
        x->s ^= x->s >> 12;
        x->s ^= x->s << 25;
        x->s ^= x->s >> 27;
        out[i] = (uint8_t)((x->s * 0x2545F4914F6CDD1Dull) >> 56);
    }
    return 0;
}

/* FNV-1a over every frame and its time: a fingerprint of the whole run. */
struct trace {
    uint64_t h;
    uint64_t frames;
};

static void hash_frame(void *ctx, uint64_t t_ns, const uint8_t *psdu, size_t len)
{
    struct trace *tr = (struct trace *)ctx;
    size_t i;
    for (i = 0; i < 8; i++) {
        tr->h = (tr->h ^ (uint8_t)(t_ns >> (8 * i))) * 0x100000001B3ull;
    }
    for (i = 0; i < len; i++) {
        tr->h = (tr->h ^ psdu[i]) * 0x100000001B3ull;
    }
    tr->frames++;
}

static void cycles_of(uint64_t cycles[PQPAN_OP_COUNT])
{
    memset(cycles, 0, PQPAN_OP_COUNT * sizeof cycles[0]);
    cycles[PQPAN_OP_KEM_KEYGEN] = 640000;
    cycles[PQPAN_OP_KEM_ENCAPS] = 768000;
    cycles[PQPAN_OP_KEM_DECAPS] = 832000;
    cycles[PQPAN_OP_KDF] = 64000;
}

static void config(struct pqpan_802154_csim_config *c, uint32_t nodes, double fps)
{
    memset(c, 0, sizeof *c);
    pqpan_802154_est_config_default(&c->exch);
    c->exch.msg_octets[0] = 1218; /* the sizes the frame counts below were computed for */
    c->exch.msg_octets[1] = 1122;
    c->exch.msg_octets[2] = 34;
    c->exch.rx_always_on = 0;
    c->exch.backoff_rx = 0;
    c->nodes = nodes;
    c->load_fps = fps;
    c->load_psdu = 60;
}

static void test_one_link_no_load_matches_estimator(void **state)
{
    struct pqpan_802154_csim_config c;
    struct pqpan_802154_csim_result r;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    struct xs rng = {0x1234567};
    double mean = 0;
    const int runs = 200;
    int i, n, st;
    (void)state;
    cycles_of(cycles);
    config(&c, 2, 0);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c.exch, cycles), PQPAN_OK);
    for (i = 0; i < runs; i++) {
        assert_int_equal(pqpan_802154_csim_run(&r, &ws, &c, cycles, xs_rng, &rng, 0, 0), PQPAN_OK);
        assert_int_equal(r.status, PQPAN_OK);
        assert_int_equal(r.retries[0] + r.retries[1], 0);
        assert_int_equal(r.frames[0], 14);
        assert_int_equal(r.frames[1], 12);
        assert_int_equal(r.ccas[0], 14);
        for (n = 0; n < 2; n++) {
            /* Everything but the idle time (random backoffs) is deterministic. */
            for (st = PQPAN_STATE_CPU; st < PQPAN_STATE_COUNT; st++) {
                assert_int_equal(pqpan_ledger_state_ns(&r.ledger[n], (enum pqpan_state)st),
                                 pqpan_ledger_state_ns(&e.ledger[n], (enum pqpan_state)st));
            }
            assert_int_equal(pqpan_ledger_state_ns(&r.ledger[n], PQPAN_STATE_SLEEP) +
                                 pqpan_ledger_state_ns(&r.ledger[n], PQPAN_STATE_CPU) +
                                 pqpan_ledger_state_ns(&r.ledger[n], PQPAN_STATE_TX) +
                                 pqpan_ledger_state_ns(&r.ledger[n], PQPAN_STATE_RX) +
                                 pqpan_ledger_state_ns(&r.ledger[n], PQPAN_STATE_RAMP_TX) +
                                 pqpan_ledger_state_ns(&r.ledger[n], PQPAN_STATE_IFS),
                             r.latency_ns);
            assert_int_equal(r.ledger[n].op_cycles[PQPAN_OP_KDF], e.ledger[n].op_cycles[PQPAN_OP_KDF]);
        }
        mean += (double)r.latency_ns / runs;
    }
    assert_true(mean > 0.99 * (double)e.latency_ns && mean < 1.01 * (double)e.latency_ns);
}

static void test_seeded_runs_are_reproducible(void **state)
{
    struct pqpan_802154_csim_config c;
    struct pqpan_802154_csim_result a, b;
    uint64_t cycles[PQPAN_OP_COUNT];
    struct xs r1 = {99}, r2 = {99}, r3 = {100};
    struct trace t1 = {0xCBF29CE484222325ull, 0}, t2 = t1, t3 = t1;
    (void)state;
    cycles_of(cycles);
    config(&c, 20, 20.0);
    assert_int_equal(pqpan_802154_csim_run(&a, &ws, &c, cycles, xs_rng, &r1, hash_frame, &t1), PQPAN_OK);
    assert_int_equal(pqpan_802154_csim_run(&b, &ws, &c, cycles, xs_rng, &r2, hash_frame, &t2), PQPAN_OK);
    assert_memory_equal(&a, &b, sizeof a);
    assert_true(t1.h == t2.h && t1.frames == t2.frames);
    assert_true(a.bg_frames > 0);
    assert_true(t1.frames > a.bg_frames + a.frames[0] + a.frames[1]); /* + ACKs */
    assert_int_equal(pqpan_802154_csim_run(&b, &ws, &c, cycles, xs_rng, &r3, hash_frame, &t3), PQPAN_OK);
    assert_true(t3.h != t1.h);
}

static void test_load_costs_retries(void **state)
{
    struct pqpan_802154_csim_config c;
    struct pqpan_802154_csim_result r;
    uint64_t cycles[PQPAN_OP_COUNT];
    struct xs rng = {7};
    uint64_t busy = 0, lost = 0, ok = 0, base = 0;
    int i;
    (void)state;
    cycles_of(cycles);
    config(&c, 2, 0);
    assert_int_equal(pqpan_802154_csim_run(&r, &ws, &c, cycles, xs_rng, &rng, 0, 0), PQPAN_OK);
    base = r.latency_ns;
    config(&c, 10, 10.0);
    c.load_psdu = 127;
    for (i = 0; i < 10; i++) {
        assert_int_equal(pqpan_802154_csim_run(&r, &ws, &c, cycles, xs_rng, &rng, 0, 0), PQPAN_OK);
        busy += r.ccas[0] + r.ccas[1] - (r.frames[0] + r.frames[1]);
        lost += r.lost[0] + r.lost[1];
        if (r.status == PQPAN_OK) {
            ok++;
            assert_true(r.latency_ns > base);
        }
    }
    /* 8 background nodes x 10 frames/s x 4.256 ms: about 34 % offered load. */
    assert_true(busy > 0);
    assert_true(lost > 0);
    assert_true(ok > 0);
}

static void test_rejects_bad_config(void **state)
{
    struct pqpan_802154_csim_config c;
    struct pqpan_802154_csim_result r;
    uint64_t cycles[PQPAN_OP_COUNT];
    struct xs rng = {1};
    (void)state;
    cycles_of(cycles);
    config(&c, 1, 0);
    assert_int_equal(pqpan_802154_csim_run(&r, &ws, &c, cycles, xs_rng, &rng, 0, 0), PQPAN_ERR_INVALID_ARG);
    config(&c, 201, 0);
    assert_int_equal(pqpan_802154_csim_run(&r, &ws, &c, cycles, xs_rng, &rng, 0, 0), PQPAN_ERR_INVALID_ARG);
    config(&c, 5, 10.0);
    c.load_psdu = 16;
    assert_int_equal(pqpan_802154_csim_run(&r, &ws, &c, cycles, xs_rng, &rng, 0, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(r.latency_ns, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_link_no_load_matches_estimator),
        cmocka_unit_test(test_seeded_runs_are_reproducible),
        cmocka_unit_test(test_load_costs_retries),
        cmocka_unit_test(test_rejects_bad_config),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
