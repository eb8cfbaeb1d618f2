/* Tests for a Low Power Node polling its Friend (--lpn; src/mesh/net_friend.c): one message
 * to an LPN against a hand computation from the poll cycle's formulas, the LPN's part-size
 * rule, the Friend Queue refusal, the friendship credentials and the Friend Poll against the
 * specification's sample data, and simulate = estimate (docs/MODEL.md "A Low Power Node
 * polling its Friend"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "pqpan/mesh_net.h"
#include "pqpan/pqke.h"

/* A device without per-event timing: an event is its three packets, a PDU heard two packets
 * after the event starts (the second channel), as tests/unit/test_mesh_net.c's. */
static const struct pqpan_ble_device bare = {64000000u, 0u, 0u, 0u, 0u, 50u, 0u};

static void lpn_config(struct pqpan_mesh_net_config *cfg, uint32_t lpn, uint32_t hops)
{
    pqpan_mesh_net_config_default(cfg);
    cfg->lpn = lpn;
    cfg->hops = hops;
}

/* Three octets of message: upper 3 + 2 + 3 + 4 = 12, one segment, a Network PDU of 29 octets
 * (packet 37 + 10 = 47 octets at 1 Mb/s: 376 us, heard at 752 us). At one hop the Friend is
 * the initiator: it queues the segment at 0 and sends nothing. The LPN (the responder) polls
 * at 0: a Friend Poll of 19 octets (payload 6 + 2 + 19 = 27, packet 296 us, heard at 592 us)
 * twice, at 0 and 25 ms (20 ms + 5 ms mean advDelay). The Friend answers 100 + 255 / 5 = 151 ms
 * after it has the Poll, at 151.592 ms, with the queued PDU, heard at 152.344 ms: the
 * latency. The LPN scans from 100 - 2 = 98 ms: 54.344 ms. It polls again at once (152.344;
 * its advertiser is free since 50 ms): the Friend has the Poll at 152.936 and answers at
 * 303.936 with a Friend Update (24 octets: payload 32, packet 42 octets, 336 us, heard at
 * 672 us) heard at 304.608, its event ending at 303.936 + 1.008 = 304.944 ms (the span). The
 * LPN scans 250.344 .. 304.608 = 54.264 ms; MD 0: it sleeps the rest. */
static void test_one_segment_to_lpn_by_hand(void **state)
{
    const enum pqpan_mesh_net_role lpn = PQPAN_MESH_NET_RESPONDER, frnd = PQPAN_MESH_NET_INITIATOR;
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    uint64_t lpn_tx = 4u * 3u * 296000u, rx = 54344000u + 54264000u;
    (void)state;
    lpn_config(&cfg, PQPAN_MESH_NET_LPN_RESPONDER, 1);
    assert_int_equal(pqpan_mesh_net_message_estimate(&e, &cfg, &bare, 3), PQPAN_OK);
    assert_int_equal(e.latency_ns, UINT64_C(152344000));
    assert_int_equal(e.span_ns, UINT64_C(304944000));
    assert_int_equal(e.polls, 2);
    assert_int_equal(e.friend_pdus, 1);
    assert_int_equal(e.friend_updates, 1);
    assert_int_equal(e.friend_queue_peak, 1);
    assert_int_equal(e.lpn_rx_ns, rx);
    assert_int_equal(e.adv_events[lpn], 4);
    assert_int_equal(e.adv_events[frnd], 2);
    assert_int_equal(e.segments[frnd], 1);
    assert_int_equal(e.seg_acks[lpn], 0); /* the Friend queued its own segment: no ack */
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[lpn], PQPAN_STATE_TX), lpn_tx);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[lpn], PQPAN_STATE_RX), rx);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[lpn], PQPAN_STATE_SLEEP),
                     UINT64_C(304944000) - lpn_tx - rx);
    /* the Friend sends the PDU (3 x 376 us) and the Update (3 x 336 us), scans the rest */
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[frnd], PQPAN_STATE_TX), 2136000u);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[frnd], PQPAN_STATE_RX),
                     UINT64_C(304944000) - 2136000u);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[frnd], PQPAN_STATE_SLEEP), 0);
}

/* The same message two hops away, the Friend the relay between. The initiator's segment
 * (three events at 0, 25, 50 ms) reaches the Friend at 0.752 ms. The LPN's first Poll (at 0,
 * heard at 0.592) comes before it: the Friend answers at 151.592 with a Friend Update, MD 1
 * (the segment arrived meanwhile), heard at 152.264; the LPN polls again at once, the Friend
 * has that Poll at 152.856 and answers at 303.856 with the segment, heard at 304.608: the
 * latency. The LPN owes one more cycle: Poll at 304.608 (its advertiser free since 202.264),
 * had at 305.200, Friend Update MD 0 at 456.200, heard at 456.872, ending at 457.208 (the
 * span). Its windows: 98 .. 152.264, 250.264 .. 304.608, 402.608 .. 456.872 = 162.872 ms.
 * The Friend acknowledges on the LPN's behalf from 0.752 (its Network Transmit: three
 * events of the 24-octet Segment Acknowledgment, 3 x 1.008 ms) and answers three times
 * (1.008 + 1.128 + 1.008 ms); it relays nothing for its LPN and scans the rest. */
static void test_one_segment_via_relay_friend_by_hand(void **state)
{
    const enum pqpan_mesh_net_role lpn = PQPAN_MESH_NET_RESPONDER, frnd = PQPAN_MESH_NET_FRIEND;
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    const uint64_t span = 457208000u, friend_tx = 3024000u + 3144000u;
    (void)state;
    lpn_config(&cfg, PQPAN_MESH_NET_LPN_RESPONDER, 2);
    assert_int_equal(pqpan_mesh_net_message_estimate(&e, &cfg, &bare, 3), PQPAN_OK);
    assert_int_equal(e.latency_ns, UINT64_C(304608000));
    assert_int_equal(e.span_ns, span);
    assert_int_equal(e.polls, 3);
    assert_int_equal(e.friend_pdus, 1);
    assert_int_equal(e.friend_updates, 2);
    assert_int_equal(e.lpn_rx_ns, UINT64_C(162872000));
    assert_int_equal(e.adv_events[lpn], 6);
    assert_int_equal(e.adv_events[frnd], 6);
    assert_int_equal(e.relay_nodes, 1);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[frnd], PQPAN_STATE_TX), friend_tx);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[frnd], PQPAN_STATE_RX), span - friend_tx);
    assert_int_equal(e.ledger[frnd].pdus_rx, 1);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_NET_INITIATOR], PQPAN_STATE_TX),
                     3384000u);
}

/* The LPN's rule: a part to it has at most QueueSize - 1 segments: (16 - 1) x 12 = 180
 * octets of upper transport, 180 - TransMIC 4 - opcode 3 - Part header 2 = 171 octets of
 * PQKE message; from it, and with a queue of 33 or more, the usual 375. */
static void test_part_rule(void **state)
{
    struct pqpan_mesh_net_config cfg;
    (void)state;
    lpn_config(&cfg, PQPAN_MESH_NET_LPN_RESPONDER, 2);
    cfg.friend_queue = 16;
    assert_int_equal(pqpan_mesh_net_part_max_to(&cfg, 2), 171);
    assert_int_equal(pqpan_mesh_net_part_max_to(&cfg, 0), 375);
    assert_int_equal(pqpan_mesh_net_parts_to(&cfg, 2, 1224), 8); /* 7 x 171 = 1197 < 1224 */
    assert_int_equal(pqpan_mesh_net_part_data_to(&cfg, 2, 1224, 7), 27);
    cfg.friend_queue = 33;
    assert_int_equal(pqpan_mesh_net_part_max_to(&cfg, 2), 375);
    cfg.friend_queue = 3; /* 2 x 12 - 9 = 15 */
    assert_int_equal(pqpan_mesh_net_part_max_to(&cfg, 2), 15);
    cfg.lpn = PQPAN_MESH_NET_LPN_NONE;
    assert_int_equal(pqpan_mesh_net_part_max_to(&cfg, 2), 375);
}

/* Zephyr's default Friend Queue (16) cannot hold what piles up for an LPN responder two
 * hops away (segments arrive every 75 ms, the LPN takes one per 151 ms poll cycle): the run
 * is refused, saying how many PDUs the queue had to hold; the default (255) carries it. */
static void test_friend_queue_refused(void **state)
{
    static const uint64_t zero[PQPAN_OP_COUNT];
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    (void)state;
    lpn_config(&cfg, PQPAN_MESH_NET_LPN_RESPONDER, 2);
    assert_int_equal(pqpan_mesh_net_estimate(&e, &cfg, &bare, zero), PQPAN_OK);
    assert_true(e.friend_queue_peak > 16u && e.friend_queue_peak <= cfg.friend_queue);
    cfg.friend_queue = 16;
    assert_int_equal(pqpan_mesh_net_estimate(&e, &cfg, &bare, zero), PQPAN_ERR_CAPACITY);
    assert_true(e.friend_queue_peak > 16u);
    cfg.friend_queue = 2;
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_ERR_INVALID_ARG);
    cfg.friend_queue = 16;
    cfg.lpn_recv_delay_ns = 9000000u; /* ReceiveDelay 0x00..0x09 is prohibited */
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_ERR_INVALID_ARG);
}

/* hex into out, exactly n octets */
static void unhex(uint8_t *out, size_t n, const char *hex)
{
    assert_int_equal(cli_hex_decode(out, n, hex), 0);
}

/* MshPRT sample data §8.2.3 (friendship credentials: NetKey 7dd7..d6, P = 01 || LPN 1201 ||
 * Friend 2345 || LPNCounter 0000 || FriendCounter 072f; transcribed in BlueZ
 * unit/test-mesh-crypto.c s8_2_3) and §8.3.4 Message #4, the LPN's Friend Poll (SEQ 2, FSN
 * 0, IV Index 0x12345678): 5e84eba092380fb0e5d0ad970d579a4e88051c. */
static void test_friend_poll_sample_data(void **state)
{
    const struct pqpan_mesh_net_hdr poll = {1, 0, 2, 0x1201, 0x2345};
    static const uint8_t tpdu[2] = {PQPAN_MESH_NET_FRIEND_POLL_OP, 0x00};
    struct pqpan_mesh_net_keys k;
    uint8_t net_key[16], p[9], want[PQPAN_MESH_NET_FRIEND_POLL_PDU], out[PQPAN_MESH_NET_PDU_MAX];
    uint8_t w[16];
    size_t len = 0;
    (void)state;
    unhex(net_key, 16, "7dd7364cd842ad18c17c2b820c84c3d6");
    unhex(p, 9, "01120123450000072f");
    pqpan_mesh_k2(&k, net_key, p, sizeof p);
    assert_int_equal(k.nid, 0x5e);
    unhex(w, 16, "be635105434859f484fc798e043ce40e");
    assert_memory_equal(k.encryption_key, w, 16);
    unhex(w, 16, "5d396d4b54d3cbafe943e051fe9a4eb8");
    assert_memory_equal(k.privacy_key, w, 16);
    assert_int_equal(pqpan_mesh_net_pdu_encode(out, &len, &k, 0x12345678u, &poll, tpdu, 2),
                     PQPAN_OK);
    assert_int_equal(len, PQPAN_MESH_NET_FRIEND_POLL_PDU);
    unhex(want, sizeof want, "5e84eba092380fb0e5d0ad970d579a4e88051c");
    assert_memory_equal(out, want, len);
    assert_int_equal(pqpan_mesh_net_friend_check(&k, 0x12345678u, 0x1201, 0x2345,
                                                 PQPAN_MESH_NET_FRIEND_POLL_OP, 0, 2),
                     PQPAN_OK);
    assert_int_equal(pqpan_mesh_net_friend_check(&k, 0x12345678u, 0x2345, 0x1201,
                                                 PQPAN_MESH_NET_FRIEND_UPDATE_OP, 1, 0x014834),
                     PQPAN_OK);
}

/* The executed exchange with an LPN against the estimate, every level, each endpoint the
 * LPN, 1 and 3 hops: keys equal, the same latency, span, polls, events and radio times. */
static void test_simulate_equals_estimate(void **state)
{
    static const enum pqpan_kem_id kems[3] = {PQPAN_KEM_MLKEM512, PQPAN_KEM_MLKEM768,
                                              PQPAN_KEM_MLKEM1024};
    static struct pqpan_mesh_net_sim sim;
    static const uint64_t zero[PQPAN_OP_COUNT];
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    unsigned k, hops, lpn, r;
    (void)state;
    for (k = 0; k < 3; k++) {
        for (lpn = PQPAN_MESH_NET_LPN_INITIATOR; lpn <= PQPAN_MESH_NET_LPN_RESPONDER; lpn++) {
            for (hops = 1; hops <= 3; hops += 2) {
                lpn_config(&cfg, lpn, hops);
                cfg.suite = pqpan_pqke_suite_for_kem(kems[k]);
                assert_int_equal(pqpan_mesh_net_estimate(&e, &cfg, &bare, zero), PQPAN_OK);
                assert_int_equal(pqpan_mesh_net_simulate(&sim, &cfg, 7u, &bare, zero), PQPAN_OK);
                assert_true(sim.keys_equal && sim.complete);
                assert_int_equal(sim.network_pdus, sim.decoded);
                assert_int_equal(sim.run.latency_ns, e.latency_ns);
                assert_int_equal(sim.run.span_ns, e.span_ns);
                assert_int_equal(sim.run.polls, e.polls);
                assert_int_equal(sim.run.friend_pdus, e.friend_pdus);
                assert_int_equal(sim.run.lpn_rx_ns, e.lpn_rx_ns);
                for (r = 0; r < PQPAN_MESH_NET_ROLES; r++) {
                    assert_int_equal(sim.run.adv_events[r], e.adv_events[r]);
                    assert_int_equal(pqpan_ledger_state_ns(&sim.run.ledger[r], PQPAN_STATE_TX),
                                     pqpan_ledger_state_ns(&e.ledger[r], PQPAN_STATE_TX));
                    assert_int_equal(pqpan_ledger_state_ns(&sim.run.ledger[r], PQPAN_STATE_RX),
                                     pqpan_ledger_state_ns(&e.ledger[r], PQPAN_STATE_RX));
                }
            }
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_segment_to_lpn_by_hand),
        cmocka_unit_test(test_one_segment_via_relay_friend_by_hand),
        cmocka_unit_test(test_part_rule),
        cmocka_unit_test(test_friend_queue_refused),
        cmocka_unit_test(test_friend_poll_sample_data),
        cmocka_unit_test(test_simulate_equals_estimate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
