/* Tests for keys between mesh nodes (src/mesh/net.c, net_estimate.c): the sizes of a PQKE
 * message in the mesh layers against MshPRT v1.1 §3.4.4, §3.5.2.2, §3.6.2 and §3.7.3
 * worked by hand, and the timeline of one message at 1 and 3 hops against a hand
 * computation (docs/MODEL.md "Keys between mesh nodes"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ble_pdu.h"
#include "pqpan/mesh_net.h"
#include "pqpan/pqke.h"

/* 32 segments × 12 = 384 octets of upper transport PDU; 384 - TransMIC 4 - opcode 3 -
 * Part header 2 = 375 octets of PQKE message per access message (371 with TransMIC 8). */
static void test_part_sizes(void **state)
{
    (void)state;
    assert_int_equal(PQPAN_MESH_NET_UPPER_MAX, 384);
    assert_int_equal(pqpan_mesh_net_part_data_max(4), 375);
    assert_int_equal(pqpan_mesh_net_part_data_max(8), 371);
    assert_int_equal(pqpan_mesh_net_part_data_max(6), 0);
    /* INIT of ML-KEM-768 mode none, 1224 octets: 375 + 375 + 375 + 99. */
    assert_int_equal(pqpan_mesh_net_parts(1224, 4), 4);
    assert_int_equal(pqpan_mesh_net_part_data(1224, 4, 0), 375);
    assert_int_equal(pqpan_mesh_net_part_data(1224, 4, 3), 99);
    assert_int_equal(pqpan_mesh_net_part_data(1224, 4, 4), 0);
    assert_int_equal(pqpan_mesh_net_parts(375, 4), 1);
    assert_int_equal(pqpan_mesh_net_parts(376, 4), 2);
    assert_int_equal(pqpan_mesh_net_parts(0, 4), 0);
    assert_int_equal(pqpan_mesh_net_parts(255u * 375u, 4), 255);
    assert_int_equal(pqpan_mesh_net_parts(255u * 375u + 1u, 4), 0);
}

/* A full part: upper 384 → 32 segments of 12; the last part of INIT, 99 octets: upper
 * 3 + 2 + 99 + 4 = 108 → 9 segments. Network PDU 9 + 4 + 12 + 4 = 29 (the maximum), a
 * segment of 11 octets 28; Segment Acknowledgment 9 + 7 + 8 = 24. */
static void test_segments(void **state)
{
    (void)state;
    assert_int_equal(pqpan_mesh_net_upper_len(375, 4), 384);
    assert_int_equal(pqpan_mesh_net_segments(384), 32);
    assert_int_equal(pqpan_mesh_net_segments(385), 0);
    assert_int_equal(pqpan_mesh_net_upper_len(99, 4), 108);
    assert_int_equal(pqpan_mesh_net_segments(108), 9);
    assert_int_equal(pqpan_mesh_net_segments(0), 0);
    assert_int_equal(pqpan_mesh_net_segment_pdu(47, 0), 29);
    assert_int_equal(pqpan_mesh_net_segment_pdu(47, 3), 28);
    assert_int_equal(pqpan_mesh_net_segment_pdu(47, 4), 0);
    assert_int_equal(pqpan_mesh_net_ack_pdu(), 24);
    /* ADV_NONCONN_IND payload: AdvA 6 + Length 1 + AD type 1 + 29 = 37, the legacy max. */
    assert_int_equal(pqpan_mesh_net_adv_payload(29), 37);
    assert_int_equal(pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, 37, 0), 376000u);
    assert_int_equal(pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(28), 0),
                     368000u);
    assert_int_equal(pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, pqpan_mesh_net_adv_payload(24), 0),
                     336000u);
}

/* A device without per-event timing: an event is its three packets, a PDU heard two
 * packets after the event starts (the second channel). */
static const struct pqpan_ble_device bare = {64000000u, 0u, 0u, 0u, 0u, 50u, 0u};

static void one_message(struct pqpan_mesh_net_estimate *e, uint32_t hops)
{
    struct pqpan_mesh_net_config cfg;
    pqpan_mesh_net_config_default(&cfg);
    cfg.hops = hops;
    assert_int_equal(pqpan_mesh_net_message_estimate(e, &cfg, &bare, 38), PQPAN_OK);
}

/* FIN (38 octets): one part, upper 3 + 2 + 38 + 4 = 47 → 4 segments (PDUs 29, 29, 29, 28;
 * heard 0.752, 0.752, 0.752, 0.736 ms after their events start). Network Transmit 3 ×
 * (20 + 5) ms: the initiator's events at 0, 25, 50; the next segment, due at 60, waits
 * for its advertiser to be free at 75: segments start 0, 75, 150, 225. At one hop the
 * responder has the last at 225.736; its Segment Acknowledgment (heard 0.672 after its
 * start) at 225.736, 250.736, 275.736 ends at 275.736 + 3 × 0.336 = 276.744. */
static void test_one_hop_by_hand(void **state)
{
    struct pqpan_mesh_net_estimate e;
    (void)state;
    one_message(&e, 1);
    assert_int_equal(e.latency_ns, UINT64_C(225736000));
    assert_int_equal(e.span_ns, UINT64_C(276744000));
    assert_int_equal(e.segments[PQPAN_MESH_NET_INITIATOR], 4);
    assert_int_equal(e.parts[PQPAN_MESH_NET_INITIATOR], 1);
    assert_int_equal(e.seg_acks[PQPAN_MESH_NET_RESPONDER], 1);
    assert_int_equal(e.adv_events[PQPAN_MESH_NET_INITIATOR], 12);
    assert_int_equal(e.adv_events[PQPAN_MESH_NET_RESPONDER], 3);
    assert_int_equal(e.adv_events[PQPAN_MESH_NET_RELAY], 0);
    assert_int_equal(e.relay_nodes, 0);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_NET_RELAY], PQPAN_STATE_RX), 0);
}

/* Three hops, two relay stages (Relay Retransmit 3 × 25 ms). Segments 0..2: each stage
 * relays at once, 0.752 ms per stage: the responder has segment 2 at 152.256. Segment 3
 * (heard by stage 1 at 225.736) waits for stage 1's advertiser, free at 150.752 + 75 =
 * 225.752; stage 2 hears it at 226.488 and is free at 151.504 + 75 = 226.504; the
 * responder has it at 226.504 + 0.736 = 227.240. The Segment Acknowledgment, heard by
 * stage 2 at 227.912, waits for stage 2 (free 226.504 + 75 = 301.504), stage 1 hears it at
 * 302.176 (free since 300.752) and the initiator at 302.848. Stage 1's last event (the
 * acknowledgment's third) ends at 302.176 + 50 + 1.008 = 353.184, the span. */
static void test_three_hops_by_hand(void **state)
{
    struct pqpan_mesh_net_estimate e;
    (void)state;
    one_message(&e, 3);
    assert_int_equal(e.latency_ns, UINT64_C(227240000));
    assert_int_equal(e.span_ns, UINT64_C(353184000));
    assert_int_equal(e.relay_nodes, 2);
    /* a relay relays the four segments and the acknowledgment, three times each */
    assert_int_equal(e.adv_events[PQPAN_MESH_NET_RELAY], 15);
    assert_int_equal(e.ledger[PQPAN_MESH_NET_RELAY].pdus_rx, 5);
    assert_int_equal(e.hop_ns, UINT64_C(752000));
    /* without per-event timing a relay sends or scans, the whole span */
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_NET_RELAY], PQPAN_STATE_TX) +
                         pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_NET_RELAY], PQPAN_STATE_RX),
                     e.span_ns);
}

/* The whole PQKE (ML-KEM-768 mode none: INIT 1224, RESP 1160, FIN 38 octets, the plan of
 * the other links) with free crypto: INIT 3 × 32 + 9 segments, RESP 1160 = 3 × 375 + 35:
 * 3 × 32 + 4 segments (3 + 2 + 35 + 4 = 44 octets), FIN 4; one acknowledgment per part. */
static void test_pqke_counts(void **state)
{
    static const uint64_t zero[PQPAN_OP_COUNT];
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    struct pqpan_pqke_sizes sz;
    (void)state;
    pqpan_mesh_net_config_default(&cfg);
    sz = pqpan_pqke_message_sizes(cfg.suite, cfg.mode, cfg.sig);
    assert_int_equal(sz.init_bytes, 1224);
    assert_int_equal(sz.resp_bytes, 1160);
    assert_int_equal(sz.fin_bytes, 38);
    assert_int_equal(pqpan_mesh_net_estimate(&e, &cfg, &bare, zero), PQPAN_OK);
    assert_int_equal(e.segments[PQPAN_MESH_NET_INITIATOR], 105 + 4);
    assert_int_equal(e.segments[PQPAN_MESH_NET_RESPONDER], 100);
    assert_int_equal(e.parts[PQPAN_MESH_NET_INITIATOR], 5);
    assert_int_equal(e.parts[PQPAN_MESH_NET_RESPONDER], 4);
    assert_int_equal(e.seg_acks[PQPAN_MESH_NET_INITIATOR], 4);
    assert_int_equal(e.seg_acks[PQPAN_MESH_NET_RESPONDER], 5);
    assert_int_equal(e.adv_events[PQPAN_MESH_NET_INITIATOR], 3 * (109 + 4));
    assert_true(e.latency_ns < e.span_ns);
}

/* Hops grow the latency, each relay stage costs what a relay sends; a relay does not
 * depend on how many relays share its stage. */
static void test_hops_and_relays(void **state)
{
    static const uint64_t zero[PQPAN_OP_COUNT];
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate a, b;
    (void)state;
    pqpan_mesh_net_config_default(&cfg);
    cfg.hops = 2;
    assert_int_equal(pqpan_mesh_net_estimate(&a, &cfg, &bare, zero), PQPAN_OK);
    cfg.hops = 4;
    cfg.relays = 3;
    assert_int_equal(pqpan_mesh_net_estimate(&b, &cfg, &bare, zero), PQPAN_OK);
    assert_true(b.latency_ns > a.latency_ns);
    assert_int_equal(b.relay_nodes, 9);
    assert_int_equal(a.adv_events[PQPAN_MESH_NET_RELAY], b.adv_events[PQPAN_MESH_NET_RELAY]);
}

static void test_config_refused(void **state)
{
    static const uint64_t zero[PQPAN_OP_COUNT];
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    (void)state;
    pqpan_mesh_net_config_default(&cfg);
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_OK);
    cfg.hops = 8;
    cfg.ttl = 7; /* stage 7 would get TTL 1 */
    assert_int_equal(pqpan_mesh_net_estimate(&e, &cfg, &bare, zero), PQPAN_ERR_INVALID_ARG);
    cfg.ttl = 8;
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_OK);
    cfg.ttl = 1;
    cfg.hops = 1;
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_ERR_INVALID_ARG);
    cfg.ttl = 0;
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_OK);
    cfg.net_transmit_interval_ns = 25000000u;
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_ERR_INVALID_ARG);
    pqpan_mesh_net_config_default(&cfg);
    cfg.transmic = 6;
    assert_int_equal(pqpan_mesh_net_config_check(&cfg), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_mesh_net_message_estimate(&e, NULL, &bare, 38), PQPAN_ERR_INVALID_ARG);
}

/* Hex digits into bytes (the sample data's notation). */
static size_t unhex(uint8_t *out, const char *hex)
{
    size_t n = 0;
    unsigned v;
    while (hex[0] != '\0' && sscanf(hex, "%2x", &v) == 1) {
        out[n++] = (uint8_t)v;
        hex += 2;
    }
    return n;
}

static void assert_hex(const uint8_t *got, size_t len, const char *want)
{
    uint8_t w[64];
    assert_int_equal(unhex(w, want), len);
    assert_memory_equal(got, w, len);
}

/* MshPRT sample data §8.1.3 (k2, master) and §8.2.2 (the sample NetKey's NID and keys). */
static void test_k2_sample_data(void **state)
{
    static const uint8_t zero = 0x00;
    struct pqpan_mesh_net_keys k;
    uint8_t net_key[16];
    (void)state;
    unhex(net_key, "f7a2a44f8e8a8029064f173ddc1e2b00");
    pqpan_mesh_k2(&k, net_key, &zero, 1);
    assert_int_equal(k.nid, 0x7f);
    assert_hex(k.encryption_key, 16, "9f589181a0f50de73c8070c7a6d27f46");
    assert_hex(k.privacy_key, 16, "4c715bd4a64b938f99b453351653124f");
    unhex(net_key, "7dd7364cd842ad18c17c2b820c84c3d6");
    pqpan_mesh_k2(&k, net_key, &zero, 1);
    assert_int_equal(k.nid, 0x68);
    assert_hex(k.encryption_key, 16, "0953fa93e7caac9638f58820220a398e");
    assert_hex(k.privacy_key, 16, "8b84eedec100067d670971dd2aa700cf");
}

/* One sample message through the codec both ways: the Network PDU of §8.3 byte for byte. */
static void check_sample(const struct pqpan_mesh_net_hdr *h, const char *tpdu_hex,
                         const char *packet_hex)
{
    static const uint8_t zero = 0x00;
    struct pqpan_mesh_net_keys k;
    struct pqpan_mesh_net_hdr back;
    uint8_t net_key[16], tpdu[16], out[PQPAN_MESH_NET_PDU_MAX], got[16];
    size_t t_len = unhex(tpdu, tpdu_hex), out_len = 0, got_len = 0;
    unhex(net_key, "7dd7364cd842ad18c17c2b820c84c3d6");
    pqpan_mesh_k2(&k, net_key, &zero, 1);
    assert_int_equal(pqpan_mesh_net_pdu_encode(out, &out_len, &k, 0x12345678u, h, tpdu, t_len),
                     PQPAN_OK);
    assert_hex(out, out_len, packet_hex);
    assert_int_equal(pqpan_mesh_net_pdu_decode(&back, got, &got_len, &k, 0x12345678u, out, out_len),
                     PQPAN_OK);
    assert_int_equal(got_len, t_len);
    assert_memory_equal(got, tpdu, t_len);
    assert_int_equal(back.ctl, h->ctl);
    assert_int_equal(back.ttl, h->ttl);
    assert_int_equal(back.seq, h->seq);
    assert_int_equal(back.src, h->src);
    assert_int_equal(back.dst, h->dst);
    out[out_len - 1] ^= 0x01u; /* the NetMIC no longer verifies */
    assert_int_equal(pqpan_mesh_net_pdu_decode(&back, got, &got_len, &k, 0x12345678u, out, out_len),
                     PQPAN_ERR_AUTH);
    assert_int_equal(pqpan_mesh_net_pdu_decode(&back, got, &got_len, &k, 0x12345679u, out, out_len),
                     PQPAN_ERR_AUTH);
}

/* §8.3.6 Message #6 (a segment of a segmented access message, NetMIC 32 bits) and §8.3.7
 * Message #7 (a Segment Acknowledgment, control, NetMIC 64 bits), IV Index 0x12345678. */
static void test_network_pdu_sample_data(void **state)
{
    const struct pqpan_mesh_net_hdr seg = {0, 4, 0x3129ab, 0x0003, 0x1201};
    const struct pqpan_mesh_net_hdr ack = {1, 0x0b, 0x014835, 0x2345, 0x0003};
    (void)state;
    check_sample(&seg, "8026ac01ee9dddfd2169326d23f3afdf",
                 "68cab5c5348a230afba8c63d4e686364979deaf4fd40961145939cda0e");
    check_sample(&ack, "00a6ac00000002", "68e476b5579c980d0d730f94d7f3509df987bb417eb7c05f");
}

/* §8.3.6 Message #6's upper transport: the device nonce 02 00 3129ab 0003 1201 12345678,
 * the access payload encrypted and its 32-bit TransMIC, and back. */
static void test_upper_transport_sample_data(void **state)
{
    struct pqpan_mesh_upper_nonce n = {PQPAN_MESH_NONCE_DEVICE, 0, 0x3129ab, 0x12345678u, 0x0003,
                                       0x1201};
    uint8_t key[16], msg[32], mic[4];
    size_t len;
    (void)state;
    unhex(key, "9d6dd0e96eb25dc19a40ed9914f8f03f");
    len = unhex(msg, "0056341263964771734fbd76e3b40519d1d94a48");
    assert_int_equal(pqpan_mesh_upper_encrypt(msg, len, mic, 4, key, &n), PQPAN_OK);
    assert_hex(msg, len, "ee9dddfd2169326d23f3afdfcfdc18c52fdef772");
    assert_hex(mic, 4, "e0e17308");
    assert_int_equal(pqpan_mesh_upper_decrypt(msg, len, mic, 4, key, &n), PQPAN_OK);
    assert_hex(msg, len, "0056341263964771734fbd76e3b40519d1d94a48");
    n.seq++;
    assert_int_equal(pqpan_mesh_upper_decrypt(msg, len, mic, 4, key, &n), PQPAN_ERR_AUTH);
}

/* The executed exchange against the estimate at zero loss, every level, 1 and 3 hops: keys
 * equal, the same latency, span and events, TX and RX times; the crypto within 1 %. */
static void test_simulate_equals_estimate(void **state)
{
    static const enum pqpan_kem_id kems[3] = {PQPAN_KEM_MLKEM512, PQPAN_KEM_MLKEM768,
                                              PQPAN_KEM_MLKEM1024};
    static struct pqpan_mesh_net_sim sim;
    uint64_t cycles[PQPAN_OP_COUNT];
    struct pqpan_mesh_net_config cfg;
    struct pqpan_mesh_net_estimate e;
    unsigned k, op, hops, r;
    (void)state;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        cycles[op] = 1000000u;
    }
    for (k = 0; k < 3; k++) {
        for (hops = 1; hops <= 3; hops += 2) {
            pqpan_mesh_net_config_default(&cfg);
            cfg.suite = pqpan_pqke_suite_for_kem(kems[k]);
            cfg.hops = hops;
            assert_int_equal(pqpan_mesh_net_estimate(&e, &cfg, &bare, cycles), PQPAN_OK);
            assert_int_equal(pqpan_mesh_net_simulate(&sim, &cfg, 7u, &bare, cycles), PQPAN_OK);
            assert_true(sim.keys_equal && sim.complete);
            assert_int_equal(sim.network_pdus, sim.decoded);
            assert_true(sim.run.latency_ns > 0u);
            assert_true(llabs((long long)sim.run.latency_ns - (long long)e.latency_ns) * 100 <=
                        (long long)e.latency_ns);
            assert_int_equal(sim.run.segments[0], e.segments[0]);
            assert_int_equal(sim.run.segments[1], e.segments[1]);
            for (r = 0; r < PQPAN_MESH_NET_ROLES; r++) {
                uint64_t tx = pqpan_ledger_state_ns(&e.ledger[r], PQPAN_STATE_TX);
                uint64_t cpu = pqpan_ledger_state_ns(&e.ledger[r], PQPAN_STATE_CPU);
                assert_int_equal(sim.run.adv_events[r], e.adv_events[r]);
                assert_int_equal(pqpan_ledger_state_ns(&sim.run.ledger[r], PQPAN_STATE_TX), tx);
                assert_true(llabs((long long)pqpan_ledger_state_ns(&sim.run.ledger[r],
                                                                   PQPAN_STATE_CPU) -
                                  (long long)cpu) * 100 <= (long long)cpu);
            }
        }
    }
}

/* What the capture's checker saw (test_capture). */
struct seen {
    struct pqpan_mesh_net_keys keys, friend_keys;
    uint32_t hops, events, bad;
    uint32_t polls, answers; /* --lpn: friendship-credential PDUs from the LPN, its Friend */
    uint8_t last_channel;
    uint64_t last_t;
    uint32_t last_len;
};

/* A PDU under the friendship credentials (one hop, the responder an LPN): the LPN's
 * Friend Polls (TTL 0, from 0x0002 to 0x0001, op 0x01), the initiator's answers (Friend
 * Updates, op 0x02, TTL 0, or the queued PDUs of the exchange, segments and Segment
 * Acknowledgments, TTL 7). */
static int friend_pdu_ok(struct seen *v, uint32_t pos, const uint8_t *net, size_t len)
{
    struct pqpan_mesh_net_hdr h;
    uint8_t tpdu[16];
    size_t t_len = 0;
    if (pqpan_mesh_net_pdu_decode(&h, tpdu, &t_len, &v->friend_keys, PQPAN_MESH_NET_SIM_IV_INDEX,
                                  net, len) != PQPAN_OK) {
        return 0;
    }
    v->polls += pos == 1u;
    v->answers += pos == 0u;
    if (pos == 1u) {
        return h.ctl && h.ttl == 0u && h.src == 2u && h.dst == 1u && tpdu[0] == 0x01u;
    }
    if (h.ctl && tpdu[0] == 0x02u) {
        return h.src == 1u && h.dst == 2u && h.ttl == 0u;
    }
    return h.src == 1u && h.dst == 2u && h.ttl == 7u && (!h.ctl || tpdu[0] == 0x00u);
}

/* A PDU under the master credentials: SRC and DST the endpoints, TTL 7 less the hops from
 * SRC to the sender at pos. */
static int master_pdu_ok(const struct seen *v, uint32_t pos, const uint8_t *net, size_t len)
{
    struct pqpan_mesh_net_hdr h;
    uint8_t tpdu[16];
    size_t t_len = 0;
    uint32_t from, dist;
    if (pqpan_mesh_net_pdu_decode(&h, tpdu, &t_len, &v->keys, PQPAN_MESH_NET_SIM_IV_INDEX, net,
                                  len) != PQPAN_OK) {
        return 0;
    }
    from = h.src == PQPAN_MESH_NET_SIM_INITIATOR_ADDR ? 0u : v->hops;
    dist = pos > from ? pos - from : from - pos;
    return pos <= v->hops && h.src + h.dst == 3u && dist < v->hops && h.ttl == 7u - dist;
}

/* One packet of simulate's capture, checked against the specifications rather than the
 * simulator: an ADV_NONCONN_IND (Core v5.4 Vol 6 Part B §2.3.1.3: header 0x42, TxAdd 1)
 * with its CRC, AdvA C0:50:00:00:position:relay, one AD structure of type 0x2A holding a
 * Network PDU that decodes with a NetMIC that verifies (master_pdu_ok, friend_pdu_ok); the
 * channels of an event 37, 38, 39 in order, one ramp-up and one packet apart (LE 1M: 8 µs
 * an octet, preamble 1 + access address 4 + header 2 + payload + CRC 3). */
static int check_packet(void *ctx, uint64_t t_ns, uint8_t channel, const uint8_t *pdu,
                        size_t len)
{
    struct seen *v = ctx;
    size_t net = len - 13u; /* 2 header, 6 AdvA, 2 AD, 3 CRC */
    int ok = len > 13u && len <= 13u + PQPAN_MESH_NET_PDU_MAX && pdu[0] == 0x42u &&
             pdu[1] == len - 5u && pqpan_crc24_check(PQPAN_LL_ADV_CRC_INIT, pdu, len - 3u) &&
             pdu[7] == 0xC0u && pdu[6] == 0x50u && pdu[5] == 0u && pdu[4] == 0u &&
             pdu[8] == net + 1u && pdu[9] == 0x2Au;
    if (ok && channel == 38u) {
        ok = v->friend_keys.nid != 0u && pdu[10] == v->friend_keys.nid
                 ? friend_pdu_ok(v, pdu[3], pdu + 10, net)
                 : master_pdu_ok(v, pdu[3], pdu + 10, net);
    }
    if (channel == 37u) {
        ok = ok && v->last_channel != 38u;
        v->events++;
    } else {
        ok = ok && channel == v->last_channel + 1u && len == v->last_len &&
             t_ns - v->last_t == 40000u + 8000u * (1u + 4u + len);
    }
    v->last_channel = channel;
    v->last_t = t_ns;
    v->last_len = (uint32_t)len;
    v->bad += !ok;
    return 0;
}

/* A capture that cannot take a packet. */
static int refuse_packet(void *ctx, uint64_t t_ns, uint8_t channel, const uint8_t *pdu,
                         size_t len)
{
    (void)ctx;
    (void)t_ns;
    (void)channel;
    (void)pdu;
    (void)len;
    return 1;
}

/* simulate's capture at 1 and 3 hops (2 relays a stage): every packet well formed and
 * decoding as above, one record per channel of each advertising event the run counts (the
 * relay row is the mean of the 2 (hops - 1) relay nodes, exact at zero loss). With the
 * responder an LPN at one hop: the PDUs under the friendship credentials (k2 with P = 0x01
 * || LPN 0x0002 || Friend 0x0001 || counters 0, MshPRT §3.9.6.3.1) are two Friend Polls a
 * poll cycle and one answer of the Friend. A capture that refuses a packet ends the run
 * with PQPAN_ERR_IO. */
static void test_capture(void **state)
{
    static const struct pqpan_ble_device ramped = {64000000u, 0u, 40000u, 0u, 0u, 50u, 0u};
    static const uint8_t sample_net_key[16] = {0x7d, 0xd7, 0x36, 0x4c, 0xd8, 0x42, 0xad, 0x18,
                                               0xc1, 0x7c, 0x2b, 0x82, 0x0c, 0x84, 0xc3, 0xd6};
    static const uint8_t zero = 0x00;
    static const uint8_t friendship[9] = {0x01, 0x00, 0x02, 0x00, 0x01, 0, 0, 0, 0};
    static struct pqpan_mesh_net_sim sim;
    uint64_t cycles[PQPAN_OP_COUNT] = {0};
    struct pqpan_mesh_net_config cfg;
    struct seen v;
    uint32_t hops, events;
    (void)state;
    for (hops = 1; hops <= 3; hops += 2) {
        memset(&v, 0, sizeof v);
        pqpan_mesh_k2(&v.keys, sample_net_key, &zero, 1);
        v.hops = hops;
        pqpan_mesh_net_config_default(&cfg);
        cfg.hops = hops;
        cfg.relays = 2u;
        sim.on_packet = check_packet;
        sim.packet_ctx = &v;
        assert_int_equal(pqpan_mesh_net_simulate(&sim, &cfg, 7u, &ramped, cycles), PQPAN_OK);
        assert_true(sim.keys_equal && sim.complete);
        events = sim.run.adv_events[PQPAN_MESH_NET_INITIATOR] +
                 sim.run.adv_events[PQPAN_MESH_NET_RESPONDER] +
                 2u * (hops - 1u) * sim.run.adv_events[PQPAN_MESH_NET_RELAY];
        assert_true(v.events > 0u);
        assert_int_equal(v.events, events);
        assert_int_equal(v.bad, 0);
    }
    memset(&v, 0, sizeof v);
    pqpan_mesh_k2(&v.keys, sample_net_key, &zero, 1);
    pqpan_mesh_k2(&v.friend_keys, sample_net_key, friendship, sizeof friendship);
    v.hops = 1u;
    pqpan_mesh_net_config_default(&cfg);
    cfg.lpn = PQPAN_MESH_NET_LPN_RESPONDER;
    assert_int_equal(pqpan_mesh_net_simulate(&sim, &cfg, 7u, &ramped, cycles), PQPAN_OK);
    assert_true(sim.keys_equal && sim.complete);
    assert_int_equal(v.bad, 0);
    assert_int_equal(v.events, sim.run.adv_events[PQPAN_MESH_NET_INITIATOR] +
                                   sim.run.adv_events[PQPAN_MESH_NET_RESPONDER]);
    assert_true(v.answers > 0u);
    assert_int_equal(v.polls, 2u * v.answers);
    assert_int_equal(v.answers, sim.run.polls);
    sim.on_packet = refuse_packet; /* a capture that fails stops the run: PQPAN_ERR_IO */
    assert_int_equal(pqpan_mesh_net_simulate(&sim, &cfg, 7u, &ramped, cycles), PQPAN_ERR_IO);
    sim.on_packet = NULL;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_part_sizes),        cmocka_unit_test(test_segments),
        cmocka_unit_test(test_one_hop_by_hand),   cmocka_unit_test(test_three_hops_by_hand),
        cmocka_unit_test(test_pqke_counts),       cmocka_unit_test(test_hops_and_relays),
        cmocka_unit_test(test_config_refused),    cmocka_unit_test(test_k2_sample_data),
        cmocka_unit_test(test_network_pdu_sample_data),
        cmocka_unit_test(test_upper_transport_sample_data),
        cmocka_unit_test(test_simulate_equals_estimate),
        cmocka_unit_test(test_capture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
