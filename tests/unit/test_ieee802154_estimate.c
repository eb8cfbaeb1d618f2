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
 * A message is handed over when its last frame ends: that frame's ACK (544 µs) overlaps
 * the receiver's computation (its CPU time booked after it), its LIFS spaces nothing:
 * 1 184 µs less on the latency; FIN's ACK ends the exchange (640 µs less).
 * Crypto at 64 MHz: KeyGen 10 ms, Encaps 12 ms, Decaps 13 ms, KDF 1 ms (x 2). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

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
    /* 37 ms crypto + INIT 13 x 2 624 + 53 280 - 1 184 + RESP 12 x 2 624 + 49 120 - 1 184 +
     * FIN 2 624 + 2 208 - 640. */
    assert_int_equal(e.latency_ns, (37000 + 86208 + 79424 + 4192) * US);
    ini = &e.ledger[PQPAN_802154_INITIATOR];
    rsp = &e.ledger[PQPAN_802154_RESPONDER];
    /* Initiator: sends INIT + FIN (14 frames), acknowledges RESP (12 ACKs). */
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_TX), (53280 + 2208 + 12 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_RX), (14 * 128 + 14 * 352 + 49120) * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_RAMP_TX), 14 * 192 * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_IFS), 26 * 192 * US);
    /* KeyGen, then Decaps + KDF less RESP's last ACK exchange (its radio's) */
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_CPU), (24000 - 544) * US);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_KEYGEN], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_DECAPS], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KDF], 1);
    /* Responder: sends RESP (12 frames), acknowledges INIT + FIN (14 ACKs). */
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_TX), (49120 + 14 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_RX), (53280 + 2208 + 12 * 128 + 12 * 352) * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_RAMP_TX), 12 * 192 * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_CPU), (13000 - 544) * US);
    assert_int_equal(rsp->op_count[PQPAN_OP_KEM_ENCAPS], 1);
    /* Each node's ledger covers the whole exchange; the rest is sleep. */
    assert_int_equal(total_ns(ini), e.latency_ns);
    assert_int_equal(total_ns(rsp), e.latency_ns);
    assert_int_equal(pqpan_ledger_phase_ns(ini, PQPAN_PHASE_CONFIRM), 4192 * US);
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

/* When a message is handed over: at the end of the reception of its last frame. The
 * receiver's Imm-Ack (aTurnaroundTime + the ACK) goes on while it computes, and the SIFS/
 * LIFS only spaces the sender's own next frame (IEEE 802.15.4-2020 §6.2.4, 2006 §7.5.1.3):
 * neither delays the receiver. The exchange ends when FIN is acknowledged. By hand from the
 * PHY (2450 MHz O-QPSK, 250 kb/s: 32 us per octet, SHR + PHR 6 octets) for three messages
 * of 10 octets of UDP payload, each one frame: PSDU = MHR 21 (extended addresses) + IPHC
 * and NHC UDP 6 + 10 + FCS 2 = 39 octets, (6 + 39) x 32 = 1 440 us on the air, after an
 * idle channel's expected backoff 3.5 x 320 us, CCA 128 us and aTurnaroundTime 192 us;
 * the FIN's ACK 192 + (6 + 5) x 32 = 544 us. Radios listening when idle (no wake-up). */
static void test_handover_at_the_end_of_the_last_frame(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    const uint64_t octet_us = 32, frame_us = (6 + 21 + 6 + 10 + 2) * octet_us;
    const uint64_t csma_us = 1120 + 128 + 192, ack_us = 192 + (6 + 5) * octet_us;
    const uint64_t keygen_us = 10000, resp_work_us = 12000 + 1000, fin_work_us = 13000 + 1000;
    (void)state;
    cycles_of(cycles);
    pqpan_802154_est_config_default(&c);
    c.msg_octets[0] = c.msg_octets[1] = c.msg_octets[2] = 10;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.frames[0] + e.frames[1] + e.frames[2], 3);
    assert_int_equal(e.latency_ns, (keygen_us + 3 * (csma_us + frame_us) + resp_work_us +
                                    fin_work_us + ack_us) * US);
    assert_int_equal(total_ns(&e.ledger[0]), e.latency_ns);
    assert_int_equal(total_ns(&e.ledger[1]), e.latency_ns);
}

/* numeric mode's fourth message, REVEAL (docs/PROTOCOL.md §2.4), from the responder after
 * FIN: the exchange ends when REVEAL is acknowledged. The three messages of
 * test_handover_at_the_end_of_the_last_frame and a fourth of 10 octets, each one frame:
 * FIN's ACK exchange passes before REVEAL's CSMA-CA (the responder has nothing to compute
 * after FIN in these step operations), then REVEAL and its ACK exchange, 544 us. */
static void test_numeric_ends_when_reveal_is_acknowledged(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    const uint64_t octet_us = 32, frame_us = (6 + 21 + 6 + 10 + 2) * octet_us;
    const uint64_t csma_us = 1120 + 128 + 192, ack_us = 192 + (6 + 5) * octet_us;
    const uint64_t keygen_us = 10000, resp_work_us = 12000 + 1000, fin_work_us = 13000 + 1000;
    (void)state;
    cycles_of(cycles);
    pqpan_802154_est_config_default(&c);
    c.msg_octets[0] = c.msg_octets[1] = c.msg_octets[2] = c.msg_octets[3] = 10;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.frames[3], 1);
    assert_int_equal(e.latency_ns, (keygen_us + 4 * (csma_us + frame_us) + resp_work_us +
                                    fin_work_us + 2 * ack_us) * US);
    assert_int_equal(total_ns(&e.ledger[0]), e.latency_ns);
    assert_int_equal(total_ns(&e.ledger[1]), e.latency_ns);
}

/* Wake-ups (ieee802154.h "Wake-ups"), crystal 360 us + CPU 100 us = 460 us each.
 * Radio asleep when idle and in the backoff: a sender wakes before each CCA (1 per frame on
 * an idle channel), a receiver before each frame; a node computes awake right after the
 * message it received, KeyGen starts awake. Initiator: 14 sent + 12 received = 26
 * wake-ups, responder: 12 + 14 = 26. The senders' 26 wake-ups add 26 x 460 us to the
 * latency. */
static void test_wake_ups_sleeping_radio(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    const struct pqpan_ledger *ini, *rsp;
    (void)state;
    cycles_of(cycles);
    hand_config(&c);
    c.wake_xtal_ns = 360 * US;
    c.wake_cpu_ns = 100 * US;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.latency_ns, (37000 + 86208 + 79424 + 4192 + 26 * 460) * US);
    ini = &e.ledger[PQPAN_802154_INITIATOR];
    rsp = &e.ledger[PQPAN_802154_RESPONDER];
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_HFXO_START), 26 * 360 * US);
    assert_int_equal(pqpan_ledger_state_ns(ini, PQPAN_STATE_CPU), (24000 - 544 + 26 * 100) * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_HFXO_START), 26 * 360 * US);
    assert_int_equal(pqpan_ledger_state_ns(rsp, PQPAN_STATE_CPU), (13000 - 544 + 26 * 100) * US);
    /* the wake-up CPU time is not crypto: outside the CRYPTO phase */
    assert_int_equal(ini->ns[PQPAN_PHASE_CRYPTO][PQPAN_STATE_CPU], (24000 - 544) * US);
    assert_int_equal(total_ns(ini), e.latency_ns);
    assert_int_equal(total_ns(rsp), e.latency_ns);
}

/* The hand-computed configuration asleep when idle, listening in the backoff; a wake-up
 * is a crystal start of xtal_us and 100 us of CPU. */
static void sleep_idle_listen_backoff(struct pqpan_802154_est_config *c, uint64_t xtal_us)
{
    hand_config(c);
    c->backoff_rx = 1;
    c->wake_xtal_ns = xtal_us * US;
    c->wake_cpu_ns = 100 * US;
}

/* A receiver's wake-up longer than the sender's lead before the first frame of a message
 * (the nRF52840's crystal start 1 400 us + CPU 100 us against backoff 1 120 + CCA 128 +
 * turnaround 192 = 1 440 us: the sender has been computing, awake) begins before the
 * message: its 60 us come out of the receiver's sleep before (the phase before), as the
 * simulator books it, and each ledger still adds up to the latency. */
static void test_wake_longer_than_the_lead(void **state)
{
    struct pqpan_802154_est_config c, shortc;
    struct pqpan_802154_estimate e, shorte;
    uint64_t cycles[PQPAN_OP_COUNT];
    unsigned n;
    (void)state;
    cycles_of(cycles);
    sleep_idle_listen_backoff(&c, 1400);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    shortc = c;
    shortc.wake_xtal_ns = 1340 * US; /* a wake-up of exactly the lead */
    assert_int_equal(pqpan_802154_estimate_pqke(&shorte, &shortc, cycles), PQPAN_OK);
    for (n = 0; n < 2; n++) {
        assert_int_equal(total_ns(&e.ledger[n]), e.latency_ns);
        assert_int_equal(total_ns(&shorte.ledger[n]), shorte.latency_ns);
    }
    /* the receivers' wake-ups are not on the latency, the senders' 23 are (12 + 11 + 0) */
    assert_int_equal(e.latency_ns - shorte.latency_ns, 23 * 60 * US);
}

/* Asleep when idle but listening in the backoff: a sender wakes before its CSMA-CA except
 * for the first frame of a message (it has been computing): initiator 12 (INIT) + 0 (FIN)
 * sent + 12 received = 24, responder 11 (RESP) + 14 = 25; on the latency 12 + 11 + 0 = 23
 * wake-ups. No wake-up at all when the radio listens when idle too. */
static void test_wake_ups_listening_backoff(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    (void)state;
    cycles_of(cycles);
    sleep_idle_listen_backoff(&c, 360);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.latency_ns, (37000 + 86208 + 79424 + 4192 + 23 * 460) * US);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[0], PQPAN_STATE_HFXO_START), 24 * 360 * US);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[1], PQPAN_STATE_HFXO_START), 25 * 360 * US);
    c.rx_always_on = 1;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[0], PQPAN_STATE_HFXO_START), 0);
    assert_int_equal(e.latency_ns, (37000 + 86208 + 79424 + 4192) * US);
}

/* ENC-MIC-32, key identifier mode 1: MHR 21 + aux 6 = 27, MIC 4, FCS 2 leave 94 octets of
 * 6LoWPAN. FRAG1: 4 + IPHC/NHC 6 + 80 payload octets (covering 48 + 80 = 128 of the
 * datagram), PSDU 27 + 90 + 4 + 2 = 123; FRAGN: 5 + 88, PSDU 126.
 *   INIT 1218 -> datagram 1266 = 128 + 12 x 88 + 82: 14 frames, PSDUs 123, 12 x 126, 120;
 *        airtime (129 + 12 x 132 + 126) x 32 us = 58 848 us.
 *   RESP 1122 -> 1170 = 128 + 11 x 88 + 74: 13 frames, PSDUs 123, 11 x 126, 112;
 *        (129 + 11 x 132 + 118) x 32 = 54 368 us.
 *   FIN 34 -> 6 + 34 = 40 octets: PSDU 27 + 40 + 4 + 2 = 73, 79 x 32 = 2 528 us.
 * Per frame 2 624 us besides it (idle channel), as unsecured: 28 frames; the last frames
 * of INIT and RESP 1 184 us less, FIN's 640 us less (all three PSDUs above 18: LIFS). */
static void test_secured_frames_hand_computed(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    uint64_t cycles[PQPAN_OP_COUNT];
    (void)state;
    cycles_of(cycles);
    hand_config(&c);
    c.link.sec_level = PQPAN_802154_SEC_ENC_MIC_32;
    c.link.key_id_mode = 1;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.frames[0], 14);
    assert_int_equal(e.frames[1], 13);
    assert_int_equal(e.frames[2], 1);
    assert_int_equal(e.latency_ns, (37000 + 14 * 2624 + 58848 + 13 * 2624 + 54368 + 2624 + 2528 -
                                    2 * 1184 - 640) * US);
    /* octets sent by the initiator: SHR + PHR 6 per frame + PSDUs, 13 Imm-Acks of 11 */
    assert_int_equal(e.ledger[0].bytes_tx, (129 + 12 * 132 + 126) + 79 + 13 * 11);
    c.link.key_id_mode = 4;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_ERR_INVALID_ARG);
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
}

/* The IPv6 MTU of 1280 octets (RFC 4944 §4): a UDP payload of at most 1280 - 48 = 1232
 * octets is one datagram, a longer message goes in segments of a 2-octet header + at most
 * 1230 octets (datagrams of at most 1280 octets). */
static void test_segments_of_long_messages(void **state)
{
    uint8_t msg[3000], out[PQPAN_802154_UDP_PAYLOAD_MAX], joined[3000];
    size_t i, len, at = 0;
    (void)state;
    assert_int_equal(PQPAN_802154_UDP_PAYLOAD_MAX, 1232);
    assert_int_equal(pqpan_802154_msg_datagrams(0), 0);
    assert_int_equal(pqpan_802154_msg_datagrams(1232), 1);
    assert_int_equal(pqpan_802154_msg_datagram_len(1232, 0), 1232);
    assert_int_equal(pqpan_802154_msg_datagram_len(1232, 1), 0);
    assert_int_equal(pqpan_802154_msg_datagrams(1233), 2);
    assert_int_equal(pqpan_802154_msg_datagram_len(1233, 0), 2 + 1230);
    assert_int_equal(pqpan_802154_msg_datagram_len(1233, 1), 2 + 3);
    assert_int_equal(pqpan_802154_msg_datagrams(127u * 1230u), 127);
    assert_int_equal(pqpan_802154_msg_datagrams(127u * 1230u + 1u), 0);
    for (i = 0; i < sizeof msg; i++) {
        msg[i] = (uint8_t)(i * 7u + 1u);
    }
    for (i = 0; i < 3; i++) {
        assert_int_equal(pqpan_802154_msg_datagram_write(out, sizeof out, &len, msg, sizeof msg, i),
                         PQPAN_OK);
        assert_int_equal(out[0], 0x80u | i);
        assert_int_equal(out[1], 3);
        memcpy(joined + at, out + 2, len - 2);
        at += len - 2;
    }
    assert_int_equal(at, sizeof msg);
    assert_memory_equal(joined, msg, sizeof msg);
    assert_int_equal(pqpan_802154_msg_datagram_write(out, sizeof out, &len, msg, sizeof msg, 3),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(len, 0);
    assert_int_equal(pqpan_802154_msg_datagram_write(out, 100, &len, msg, sizeof msg, 0),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    /* a message that fits is carried unchanged, without a segment header */
    assert_int_equal(pqpan_802154_msg_datagram_write(out, sizeof out, &len, msg, 1224, 0), PQPAN_OK);
    assert_int_equal(len, 1224);
    assert_memory_equal(out, msg, 1224);
}

/* Every IPv6 packet of message m of configuration c, with or without IPv6 fragmentation,
 * is within the 1280-octet MTU. */
static void check_packets_fit(const struct pqpan_802154_est_config *c, unsigned m, int frag)
{
    struct pqpan_802154_plan p;
    size_t i, n = pqpan_802154_msg_packets(c->msg_octets[m], frag);
    assert_true(n >= 1);
    for (i = 0; i < n; i++) {
        assert_int_equal(pqpan_802154_plan_msg_packet(&p, NULL, 0, &c->link, c->msg_octets[m], i,
                                                      frag),
                         PQPAN_OK);
        assert_in_range(p.datagram_octets, 49, 1280);
        assert_int_equal(p.exceeds_mtu, 0);
    }
}

/* RFC 4944 §4 and RFC 8200 §5: the IPv6 MTU of a 6LoWPAN link is 1280 octets. Every IPv6
 * packet of every message of every suite, mode and signature set fits it (ML-KEM-1024's
 * INIT of 1656 octets and RESP of 1688 do not fit one), in segments and in IPv6
 * fragments. */
static void test_every_datagram_fits_the_ipv6_mtu(void **state)
{
    struct pqpan_802154_est_config c;
    unsigned suite, mode, sig, m;
    (void)state;
    pqpan_802154_est_config_default(&c);
    for (suite = PQPAN_PQKE_SUITE_MLKEM512; suite <= PQPAN_PQKE_SUITE_P256_MLKEM1024; suite++) {
        for (mode = PQPAN_PQKE_MODE_NONE; mode <= PQPAN_PQKE_MODE_NUMERIC; mode++) {
            for (sig = 0; sig <= PQPAN_SIG_COUNT; sig++) {
                if (pqpan_802154_est_config_pqke(&c, suite, mode, sig) != PQPAN_OK) {
                    continue;
                }
                for (m = 0; m < PQPAN_802154_MESSAGES && c.msg_octets[m] != 0; m++) {
                    check_packets_fit(&c, m, 0);
                    check_packets_fit(&c, m, 1);
                }
            }
        }
    }
}

/* The sum of the PSDUs of IPv6 packet i of a message of len octets (extended addresses),
 * its frames in *frames. */
static size_t packet_psdus(const struct pqpan_802154_est_config *c, size_t len, size_t i,
                           int frag, size_t *frames)
{
    struct pqpan_802154_frame_plan f[PQPAN_802154_MAX_FRAMES];
    struct pqpan_802154_plan p;
    size_t k, sum = 0;
    assert_int_equal(pqpan_802154_plan_msg_packet(&p, f, PQPAN_802154_MAX_FRAMES, &c->link, len, i,
                                                  frag),
                     PQPAN_OK);
    for (k = 0; k < p.frames; k++) {
        sum += f[k].psdu_octets;
    }
    *frames = p.frames;
    return sum;
}

/* ML-KEM-1024's INIT (1608 octets) in IPv6 fragments (RFC 8200 §4.5): a 1656-octet packet,
 * 1616 octets after the IPv6 header, in fragment packets of 40 + 8 + 1232 = 1280 and
 * 40 + 8 + 384 = 432 octets. IPHC carries the Next Header (44) inline: 3 octets replace
 * the 40 of the IPv6 header, the Fragment header and UDP header go uncompressed. Extended
 * addresses: 104 octets of 6LoWPAN per frame; FRAG1 4 + 3 + 96 (covering 136 octets of the
 * packet), PSDU 21 + 103 + 2 = 126; FRAGN 5 + 96, PSDU 124.
 *   1280: 136 + 11 x 96 + 88 -> PSDUs 126 + 11 x 124 + 116 = 1606, 13 frames.
 *   432: 136 + 3 x 96 + 8 -> 126 + 3 x 124 + 36 = 534, 5 frames.
 * In segments (IPHC + NHC UDP 6 octets replace 48; FRAG1 4 + 6 + 88, PSDU 121): UDP
 * payloads 1232 (datagram 1280) and 2 + 378 (428): 121 + 11 x 124 + 116 = 1601 and
 * 121 + 3 x 124 + 32 = 525, the same 13 + 5 frames, 14 octets fewer. RESP (1640) likewise:
 * fragments 1280 and 464 (566 octets), segments 1280 and 460 (557): 14 fewer too. */
static void test_ipv6_fragments_priced(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate seg, frag;
    uint64_t cycles[PQPAN_OP_COUNT];
    size_t frames;
    (void)state;
    cycles_of(cycles);
    pqpan_802154_est_config_default(&c);
    assert_int_equal(pqpan_802154_est_config_pqke(&c, PQPAN_PQKE_SUITE_MLKEM1024,
                                                  PQPAN_PQKE_MODE_NONE, 0), PQPAN_OK);
    assert_int_equal(c.msg_octets[0], 1608);
    assert_int_equal(pqpan_802154_msg_packets(1608, 1), 2);
    assert_int_equal(packet_psdus(&c, 1608, 0, 1, &frames), 1606);
    assert_int_equal(frames, 13);
    assert_int_equal(packet_psdus(&c, 1608, 1, 1, &frames), 534);
    assert_int_equal(frames, 5);
    assert_int_equal(packet_psdus(&c, 1608, 0, 0, &frames), 1601);
    assert_int_equal(packet_psdus(&c, 1608, 1, 0, &frames), 525);
    assert_int_equal(packet_psdus(&c, 1640, 1, 1, &frames), 566);
    assert_int_equal(packet_psdus(&c, 1640, 1, 0, &frames), 557);
    assert_int_equal(pqpan_802154_estimate_pqke(&seg, &c, cycles), PQPAN_OK);
    c.ipv6_frag = 1;
    assert_int_equal(pqpan_802154_estimate_pqke(&frag, &c, cycles), PQPAN_OK);
    assert_int_equal(frag.datagrams[0], 2);
    assert_int_equal(frag.datagrams[1], 2);
    assert_int_equal(frag.datagrams[2], 1);
    assert_int_equal(frag.frames[0], seg.frames[0]);
    assert_int_equal(frag.ledger[0].bytes_tx - seg.ledger[0].bytes_tx, 14);
    assert_int_equal(frag.ledger[1].bytes_tx - seg.ledger[1].bytes_tx, 14);
    assert_int_equal(frag.latency_ns - seg.latency_ns, 2u * 14u * 32u * US);
    /* a message that fits one datagram is the same either way */
    pqpan_802154_est_config_default(&c);
    assert_int_equal(pqpan_802154_estimate_pqke(&seg, &c, cycles), PQPAN_OK);
    c.ipv6_frag = 1;
    assert_int_equal(pqpan_802154_estimate_pqke(&frag, &c, cycles), PQPAN_OK);
    assert_int_equal(frag.latency_ns, seg.latency_ns);
    assert_int_equal(pqpan_802154_plan_msg_packet(NULL, NULL, 0, &c.link, 1608, 2, 1),
                     PQPAN_ERR_INVALID_ARG);
}

/* kem-auth at ML-KEM-768: INIT of 2312 octets in two segments, UDP payloads 1232 and 1084
 * (datagrams 1280 and 1132): 136 + 11 x 96 + 88 -> 13 frames, 136 + 10 x 96 + 36 -> 12.
 * The steps: KeyGen and Encaps (to the responder's static key) before INIT; Encaps, Decaps
 * and KDF before RESP; Decaps and KDF before FIN (pqpan_pqke_side_work). */
static void test_kem_auth_init_in_segments(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e, none;
    uint64_t cycles[PQPAN_OP_COUNT];
    const struct pqpan_ledger *ini = &e.ledger[PQPAN_802154_INITIATOR];
    const struct pqpan_ledger *rsp = &e.ledger[PQPAN_802154_RESPONDER];
    (void)state;
    cycles_of(cycles);
    pqpan_802154_est_config_default(&c);
    assert_int_equal(pqpan_802154_estimate_pqke(&none, &c, cycles), PQPAN_OK);
    assert_int_equal(none.datagrams[0], 1);
    assert_int_equal(pqpan_802154_est_config_pqke(&c, PQPAN_PQKE_SUITE_MLKEM768,
                                                  PQPAN_PQKE_MODE_KEM_AUTH, 0), PQPAN_OK);
    assert_int_equal(c.msg_octets[0], 2312);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.datagrams[0], 2);
    assert_int_equal(e.frames[0], 13 + 12);
    assert_int_equal(e.datagrams[1], 1);
    assert_int_equal(e.frames[1], none.frames[1]);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_KEYGEN], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_ENCAPS], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_DECAPS], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_KDF], 1);
    assert_int_equal(rsp->op_count[PQPAN_OP_KEM_ENCAPS], 1);
    assert_int_equal(rsp->op_count[PQPAN_OP_KEM_DECAPS], 1);
    assert_int_equal(rsp->op_count[PQPAN_OP_KDF], 1);
    /* one more Encaps (12 ms) and Decaps (13 ms) than none on the critical path */
    assert_true(e.latency_ns > none.latency_ns + 25000 * US);
    assert_int_equal(pqpan_802154_est_config_pqke(&c, PQPAN_PQKE_SUITE_MLKEM768,
                                                  PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 0), PQPAN_OK);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(e.datagrams[1], 2);
    assert_int_equal(ini->op_count[PQPAN_OP_KEM_DECAPS], 2);
    assert_int_equal(rsp->op_count[PQPAN_OP_KEM_ENCAPS], 2);
    /* a message too long for 127 segments, or empty, is refused */
    c.msg_octets[0] = 127u * 1230u + 1u;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(e.latency_ns, 0);
    c.msg_octets[0] = 0;
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_802154_est_config_pqke(&c, PQPAN_PQKE_SUITE_MLKEM768, 99, 0),
                     PQPAN_ERR_MODE);
}

/* sig-mutual with ML-DSA-65 over the P-256 hybrid suite of ML-KEM-768: the responder signs
 * before RESP, the initiator verifies and signs before FIN, the responder verifies after
 * FIN (a step after the last message, on the latency); each side makes a P-256 key pair and
 * a shared secret (pqpan_pqke_side_work). The messages carry the signatures and keys. */
static void test_sig_mutual_hybrid_steps(void **state)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e, none;
    uint64_t cycles[PQPAN_OP_COUNT];
    const struct pqpan_ledger *ini = &e.ledger[PQPAN_802154_INITIATOR];
    const struct pqpan_ledger *rsp = &e.ledger[PQPAN_802154_RESPONDER];
    struct pqpan_pqke_sizes sz =
        pqpan_pqke_message_sizes(PQPAN_PQKE_SUITE_P256_MLKEM768, PQPAN_PQKE_MODE_SIG_MUTUAL,
                                 PQPAN_SIG_MLDSA65);
    (void)state;
    cycles_of(cycles);
    cycles[PQPAN_OP_SIG_SIGN] = 6400000;   /* 100 ms */
    cycles[PQPAN_OP_SIG_VERIFY] = 1280000; /* 20 ms */
    cycles[PQPAN_OP_ECDH_KEYGEN] = 320000;
    cycles[PQPAN_OP_ECDH_SHARED] = 640000;
    pqpan_802154_est_config_default(&c);
    assert_int_equal(pqpan_802154_estimate_pqke(&none, &c, cycles), PQPAN_OK);
    assert_int_equal(pqpan_802154_est_config_pqke(&c, PQPAN_PQKE_SUITE_P256_MLKEM768,
                                                  PQPAN_PQKE_MODE_SIG_MUTUAL, PQPAN_SIG_MLDSA65),
                     PQPAN_OK);
    assert_int_equal(c.msg_octets[1], sz.resp_bytes);
    assert_int_equal(c.msg_octets[2], sz.fin_bytes);
    assert_int_equal(c.step_ops[1][PQPAN_OP_SIG_SIGN], 1);
    assert_int_equal(c.step_ops[2][PQPAN_OP_SIG_VERIFY], 1);
    assert_int_equal(c.step_ops[2][PQPAN_OP_SIG_SIGN], 1);
    assert_int_equal(c.step_ops[3][PQPAN_OP_SIG_VERIFY], 1);
    assert_int_equal(c.step_ops[0][PQPAN_OP_ECDH_KEYGEN], 1);
    assert_int_equal(c.step_ops[1][PQPAN_OP_ECDH_SHARED], 1);
    assert_int_equal(c.step_ops[2][PQPAN_OP_ECDH_SHARED], 1);
    assert_int_equal(pqpan_802154_estimate_pqke(&e, &c, cycles), PQPAN_OK);
    assert_int_equal(ini->op_count[PQPAN_OP_SIG_SIGN], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_SIG_VERIFY], 1);
    assert_int_equal(rsp->op_count[PQPAN_OP_SIG_SIGN], 1);
    assert_int_equal(rsp->op_count[PQPAN_OP_SIG_VERIFY], 1);
    assert_int_equal(ini->op_count[PQPAN_OP_ECDH_KEYGEN] + ini->op_count[PQPAN_OP_ECDH_SHARED], 2);
    assert_int_equal(rsp->op_count[PQPAN_OP_ECDH_KEYGEN] + rsp->op_count[PQPAN_OP_ECDH_SHARED], 2);
    assert_true(e.datagrams[1] > 1 && e.datagrams[2] > 1); /* the signatures need segments */
    /* on the critical path: two signatures, two verifications, 4 P-256 operations */
    assert_true(e.latency_ns > none.latency_ns + (200 + 40 + 30) * 1000 * US);
    assert_int_equal(pqpan_802154_est_config_pqke(&c, PQPAN_PQKE_SUITE_MLKEM768,
                                                  PQPAN_PQKE_MODE_SIG, 9), PQPAN_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_sizes_are_pqke_ml_kem_768),
        cmocka_unit_test(test_idle_channel_hand_computed),
        cmocka_unit_test(test_handover_at_the_end_of_the_last_frame),
        cmocka_unit_test(test_numeric_ends_when_reveal_is_acknowledged),
        cmocka_unit_test(test_backoff_listening_moves_backoff_to_rx),
        cmocka_unit_test(test_busy_channel_and_always_on),
        cmocka_unit_test(test_wake_ups_sleeping_radio),
        cmocka_unit_test(test_wake_ups_listening_backoff),
        cmocka_unit_test(test_wake_longer_than_the_lead),
        cmocka_unit_test(test_secured_frames_hand_computed),
        cmocka_unit_test(test_segments_of_long_messages),
        cmocka_unit_test(test_every_datagram_fits_the_ipv6_mtu),
        cmocka_unit_test(test_ipv6_fragments_priced),
        cmocka_unit_test(test_kem_auth_init_in_segments),
        cmocka_unit_test(test_sig_mutual_hybrid_steps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
