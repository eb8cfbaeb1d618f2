/* Tests for src/ieee802154/estimate.c: one ML-KEM-768-sized PQKE over 6LoWPAN/802.15.4,
 * every ledger entry hand-computed.
 *
 * Extended addresses, PAN ID compression, NHC UDP with 0xF0Bx ports: MHR 21, FCS 2,
 * compressed header 6; FRAG1 carries 88 payload octets (136 of the datagram), FRAGN 96.
 *   INIT 1218 -> datagram 1266: 136 + 11 x 96 + 74 -> 13 frames, PSDUs 121, 11 x 124, 102;
 *        airtime (127 + 11 x 130 + 108) x 32 µs = 53 280 µs.
 *   RESP 1122 -> datagram 1170: 136 + 10 x 96 + 74 -> 12 frames, PSDUs 121, 10 x 124, 102;
 *        airtime (127 + 10 x 130 + 108) x 32 µs = 49 120 µs.
 *   FIN 34 -> datagram 82, 6 + 34 = 40 octets fit one frame: PSDU 63, 69 x 32 = 2 208 µs.
 * Per frame on an idle channel: backoff 3.5 x 320 = 1 120, CCA 128, turnaround 192,
 * turnaround before the ACK 192, ACK 352, LIFS 640: 2 624 µs besides the frame itself.
 * Crypto at 64 MHz: KeyGen 10 ms, Encaps 12 ms, Decaps 13 ms, KDF 1 ms (x 2). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

#define US 1000ull

static void cycles_of(uint64_t cycles[PQPAN_OP_COUNT])
{
    memset(cycles, 0, PQPAN_OP_COUNT * sizeof cycles[0]);
    cycles[PQPAN_OP_KEM_KEYGEN] = 640000;
    cycles[PQPAN_OP_KEM_ENCAPS] = 768000;
    cycles[PQPAN_OP_KEM_DECAPS] = 832000;
    cycles[PQPAN_OP_KDF] = 64000;
}

/* The message sizes the hand computations below use (INIT 1218, RESP 1122, FIN 34 octets
 * of UDP payload), independent of the PQKE sizes the default configuration carries. */
static void hand_sizes(struct pqpan_802154_est_config *c)
{
    c->msg_octets[0] = 1218;
    c->msg_octets[1] = 1122;
    c->msg_octets[2] = 34;
}

static uint64_t total_ns(const struct pqpan_ledger *l)
{
    uint64_t t = 0;
    int s;
    for (s = 0; s < PQPAN_STATE_COUNT; s++) {
        t += pqpan_ledger_state_ns(l, (enum pqpan_state)s);
    }
    return t;
}

static void test_default_sizes_are_pqke_ml_kem_768(void **state)
{
    struct pqpan_802154_est_config c;
    (void)state;
    pqpan_802154_est_config_default(&c);
    /* docs/PROTOCOL.md (v2, mode none): INIT = 6 + 2 + 32 + 1184, RESP = 6 + 2 + 1088 + 32 +
     * 32, FIN = 6 + 32. */
    assert_int_equal(c.msg_octets[0], 1224);
    assert_int_equal(c.msg_octets[1], 1160);
    assert_int_equal(c.msg_octets[2], 38);
}

/* The hand-computed configuration: default link, hand_sizes messages, radios asleep when
 * idle and during backoff. */
static void hand_config(struct pqpan_802154_est_config *c)
{
    pqpan_802154_est_config_default(c);
    hand_sizes(c);
    c->rx_always_on = 0;
    c->backoff_rx = 0;
}

/* A radio that listens through its backoffs spends E[backoff] = (2^macMinBE - 1)/2 unit
 * periods = 3.5 x 320 us = 1 120 us more in RX per frame sent on an idle channel
 * (§6.2.5.1), moved out of sleep: the initiator sends 14 frames. */
static void test_backoff_listening_moves_backoff_to_rx(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate off, on;
    uint64_t cycles[PQPAN_OP_COUNT];
    const struct pqpan_ledger *a, *b;
    (void)state;
    cycles_of(cycles);
    hand_config(&c);
    assert_int_equal(pqpan_802154_estimate_pqke(&off, &c, cycles), PQPAN_OK);
    c.backoff_rx = 1;
    assert_int_equal(pqpan_802154_estimate_pqke(&on, &c, cycles), PQPAN_OK);
    a = &off.ledger[PQPAN_802154_INITIATOR];
    b = &on.ledger[PQPAN_802154_INITIATOR];
    assert_int_equal(pqpan_ledger_state_ns(b, PQPAN_STATE_RX) - pqpan_ledger_state_ns(a, PQPAN_STATE_RX),
                     14 * 1120 * US);
    assert_int_equal(pqpan_ledger_state_ns(a, PQPAN_STATE_SLEEP) - pqpan_ledger_state_ns(b, PQPAN_STATE_SLEEP),
                     14 * 1120 * US);
    assert_int_equal(on.latency_ns, off.latency_ns);
}

static void test_idle_channel_hand_computed(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    const struct pqpan_ledger *ini, *rsp;
    (void)state;
    cycles_of(cycles);
    hand_config(&c);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.frames[0], 13);
    assert_int_equal(e.frames[1], 12);
    assert_int_equal(e.frames[2], 1);
    /* 37 ms crypto + INIT 13 x 2 624 + 53 280 + RESP 12 x 2 624 + 49 120 + FIN 2 624 + 2 208. */
    assert_int_equal(e.latency_ns, (37000 + 87392 + 80608 + 4832) * US);
    ini = &e.ledger[PQPAN_802154_INITIATOR];
    rsp = &e.ledger[PQPAN_802154_RESPONDER];
    /* Initiator: sends INIT + FIN (14 frames), acknowledges RESP (12 ACKs). */
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_TX), (53280 + 2208 + 12 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_RX), (14 * 128 + 14 * 352 + 49120) * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_RAMP_TX), 14 * 192 * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_IFS), 26 * 192 * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_CPU), 24000 * US);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_KEYGEN], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_DECAPS], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KDF], 1);
    /* Responder: sends RESP (12 frames), acknowledges INIT + FIN (14 ACKs). */
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_TX), (49120 + 14 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_RX), (53280 + 2208 + 12 * 128 + 12 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_RAMP_TX), 12 * 192 * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_CPU), 13000 * US);
    assert_int_equal(rsp->op_count[PQPAN_OP_KEM_ENCAPS], 1);
    /* Each node's ledger covers the whole exchange; the rest is sleep. */
    assert_int_equal(total_ns(ini), e.latency_ns);
    assert_int_equal(total_ns(rsp), e.latency_ns);
    assert_int_equal(pqpan_ledger_phase_ns(ini, PQPAN_PHASE_CONFIRM), 4832 * US);
    /* Bits accounting: frames, ACKs and the turnaround between them, no CSMA. */
    assert_int_equal(pqpan_ledger_state_ns(&e.bits[0], PQPAN_STATE_TX), (53280 + 2208 + 12 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(&e.bits[0], PQPAN_STATE_RX), (14 * 352 + 49120) * US);
    assert_int_equal(pqpan_ledger_state_ns(&e.bits[0], PQPAN_STATE_IFS), 26 * 192 * US);
    assert_int_equal(pqpan_ledger_state_ns(&e.bits[0], PQPAN_STATE_SLEEP), 0);
    assert_int_equal(ini->pdus_tx, 14 + 12);
    assert_int_equal(rsp->pdus_rx, 14 + 12);
    assert_true(fabs(e.backoff_ns - 26 * 1120000.0) < 1e-3);
    assert_true(fabs(e.ccas - 26.0) < 1e-12);
    assert_true(e.p_success == 1.0);
}

static void test_busy_channel_and_always_on(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate idle, busy;
    uint64_t cycles[PQPAN_OP_COUNT];
    (void)state;
    cycles_of(cycles);
    pqpan_802154_est_config_default(&c);
    hand_sizes(&c);
    assert_int_equal(pqpan_802154_estimate_pqke(&idle, &c, cycles), PQPAN_OK);
    /* Always-on receivers listen instead of sleeping. */
    assert_int_equal(pqpan_ledger_state_ns(&idle.ledger[0], PQPAN_STATE_SLEEP), 0);
    assert_int_equal(total_ns(&idle.ledger[1]), idle.latency_ns);
    /* p = 0.3: per frame 7.68905 periods of backoff (2 460 496 ns) instead of 3.5
     * (1 120 000 ns) and 1.4251 CCAs (182 413 ns) instead of 1 (128 000 ns). */
    c.p_busy = 0.3;
    assert_int_equal(pqpan_802154_estimate_pqke(&busy, &c, cycles), PQPAN_OK);
    assert_int_equal(busy.latency_ns - idle.latency_ns, 26ull * ((2460496 - 1120000) + (182413 - 128000)));
    assert_true(fabs(busy.p_frame_fail - 0.00243) < 1e-12);
    assert_true(fabs(busy.p_success - pow(1 - 0.00243, 26)) < 1e-12);
    c.p_busy = 1.0;
    assert_int_equal(pqpan_802154_estimate_pqke(&busy, &c, cycles), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(busy.latency_ns, 0);
    c.p_busy = 0;
    c.msg_octets[0] = 2100;
    assert_int_equal(pqpan_802154_estimate_pqke(&busy, &c, cycles), PQPAN_ERR_BAD_LENGTH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_sizes_are_pqke_ml_kem_768),
        cmocka_unit_test(test_idle_channel_hand_computed),
        cmocka_unit_test(test_backoff_listening_moves_backoff_to_rx),
        cmocka_unit_test(test_busy_channel_and_always_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
