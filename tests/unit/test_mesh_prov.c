/* Tests for BLE Mesh provisioning over PB-ADV (src/mesh/prov.c, src/mesh/pbadv.c): the
 * segmentation against Mesh Protocol v1.1 §5.3.1 worked by hand, the PDU sequence of
 * §5.4.2 with pqpan's ML-KEM variants, and the expected run's timeline and counts against
 * a hand computation (docs/MODEL.md "Mesh provisioning"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/energy.h"
#include "pqpan/mesh_prov.h"

#include "mesh_round_profile.h"

/* §5.3.1.1 / §5.3.1.3: Start 20 octets, Continuation 23; SegN 6 bits: 64 segments. */
static void test_segment_counts(void **state)
{
    (void)state;
    assert_int_equal(PQPAN_MESH_PBADV_START_DATA_MAX, 20);
    assert_int_equal(PQPAN_MESH_PBADV_CONT_DATA_MAX, 23);
    assert_int_equal(PQPAN_MESH_PBADV_TRANSACTION_MAX, 1469); /* 20 + 63 × 23 */
    assert_int_equal(pqpan_mesh_pbadv_segments(0), 0);
    assert_int_equal(pqpan_mesh_pbadv_segments(1), 1);
    assert_int_equal(pqpan_mesh_pbadv_segments(20), 1);
    assert_int_equal(pqpan_mesh_pbadv_segments(21), 2);
    assert_int_equal(pqpan_mesh_pbadv_segments(43), 2);
    assert_int_equal(pqpan_mesh_pbadv_segments(44), 3);
    assert_int_equal(pqpan_mesh_pbadv_segments(65), 3); /* P-256 Public Key PDU */
    assert_int_equal(pqpan_mesh_pbadv_segments(1469), 64);
    assert_int_equal(pqpan_mesh_pbadv_segments(1470), 0);
    /* 770 = 20 + 32 × 23 + 14: the last Continuation carries 14 octets. */
    assert_int_equal(pqpan_mesh_pbadv_segment_data(770, 0), 20);
    assert_int_equal(pqpan_mesh_pbadv_segment_data(770, 32), 23);
    assert_int_equal(pqpan_mesh_pbadv_segment_data(770, 33), 14);
    assert_int_equal(pqpan_mesh_pbadv_segment_data(770, 34), 0);
    assert_int_equal(pqpan_mesh_pbadv_segment_gp(770, 0), 24);
    assert_int_equal(pqpan_mesh_pbadv_segment_gp(770, 33), 15);
    assert_int_equal(pqpan_mesh_pbadv_segment_data(5, 0), 5);
}

/* A full segment: AdvA 6 + AD header 2 + Link ID 4 + Transaction Number 1 + 24 = 37 octets
 * of ADV_NONCONN_IND payload (the legacy maximum, AdvData 31); on LE 1M the packet is
 * preamble 1 + AA 4 + header 2 + 37 + CRC 3 = 47 octets = 376 µs, three channels 1128 µs. */
static void test_segment_air_time(void **state)
{
    uint32_t payload = pqpan_mesh_pbadv_adv_payload(PQPAN_MESH_PBADV_GP_MTU);
    (void)state;
    assert_int_equal(payload, 37);
    assert_int_equal(3u * pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, payload, 0), 1128000u);
    /* Transaction Ack: GP PDU 1 octet, payload 14, packet 24 octets = 192 µs. */
    assert_int_equal(pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M,
                                         pqpan_mesh_pbadv_adv_payload(PQPAN_MESH_PBADV_ACK_BYTES), 0),
                     192000u);
}

/* The Public Key PDUs per level (PQ variant: Type 1 + Part 1 + key): ek 800 / 1184 / 1568,
 * ct 768 / 1088 / 1568 (FIPS 203 Table 3). ML-KEM-1024's 1570 octets exceed 1469: two
 * PDUs, 1467 + 101 key octets. */
static void test_public_key_pdus(void **state)
{
    static const uint32_t segs[3][2] = {{35, 34}, {52, 48}, {64, 64}};
    struct pqpan_mesh_prov_step st[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t n;
    int level;
    (void)state;
    for (level = 0; level < 3; level++) {
        assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_MLKEM,
                                              (enum pqpan_kem_id)(level + 1), PQPAN_MESH_PROV_ALG_HMAC,
                                              PQPAN_MESH_PBADV_TRANSACTION_MAX),
                         PQPAN_OK);
        assert_int_equal(st[3].type, PQPAN_MESH_PROV_PUBLIC_KEY);
        assert_int_equal(st[3].sender, PQPAN_MESH_PROVISIONER);
        assert_int_equal(pqpan_mesh_pbadv_segments(st[3].length), segs[level][0]);
        assert_int_equal(n, level < 2 ? 11 : 13);
    }
    /* ML-KEM-1024: ek in st[3], st[4]; ct in st[5], st[6]. */
    assert_int_equal(st[3].length, 1469);
    assert_int_equal(st[4].length, 103);
    assert_int_equal(st[4].key_octets, 101);
    assert_int_equal(st[4].part, 1);
    assert_int_equal(st[4].parts, 2);
    assert_int_equal(st[5].sender, PQPAN_MESH_DEVICE);
    assert_int_equal(st[6].key_octets, 101);
    assert_int_equal(pqpan_mesh_pbadv_segments(st[4].length), 5);
    /* Hybrid ML-KEM-768: 64 + 1184 = 1248 key octets, one PDU of 1250. */
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_HYBRID, PQPAN_KEM_MLKEM768,
                                          PQPAN_MESH_PROV_ALG_HMAC, PQPAN_MESH_PBADV_TRANSACTION_MAX),
                     PQPAN_OK);
    assert_int_equal(st[3].length, 1250);
    assert_int_equal(st[4].length, 1154); /* 64 + 1088 + 2 */
    assert_int_equal(st[3].ops_before, (1u << PQPAN_OP_KEM_KEYGEN) | (1u << PQPAN_OP_ECDH_KEYGEN));
    assert_int_equal(st[5].ops_before, (1u << PQPAN_OP_KEM_DECAPS) | (1u << PQPAN_OP_ECDH_SHARED));
    assert_int_equal(st[6].ops_before, 1u << PQPAN_OP_ECDH_SHARED);
    /* Hybrid ML-KEM-512: PDUs 866 (38 segments) and 834 (37); ML-KEM-768: 55 and 51. */
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_HYBRID, PQPAN_KEM_MLKEM512,
                                          PQPAN_MESH_PROV_ALG_HMAC, PQPAN_MESH_PBADV_TRANSACTION_MAX),
                     PQPAN_OK);
    assert_int_equal(st[3].length, 866);
    assert_int_equal(pqpan_mesh_pbadv_segments(st[3].length), 38);
    assert_int_equal(pqpan_mesh_pbadv_segments(st[4].length), 37);
    assert_int_equal(pqpan_mesh_pbadv_segments(1250), 55);
    assert_int_equal(pqpan_mesh_pbadv_segments(1154), 51);
    /* Hybrid ML-KEM-1024: 64 + 1568 = 1632 key octets: 1467 + 165, PDUs 1469 + 167. */
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_HYBRID, PQPAN_KEM_MLKEM1024,
                                          PQPAN_MESH_PROV_ALG_HMAC, PQPAN_MESH_PBADV_TRANSACTION_MAX),
                     PQPAN_OK);
    assert_int_equal(st[4].length, 167);
    assert_int_equal(pqpan_mesh_pbadv_segments(st[4].length), 8);
}

/* The specification's run: Invite 2, Capabilities 12, Start 6, Public Key 65 ×2,
 * Confirmation / Random 17 (CMAC), Data 34, Complete 1 (§5.4.1). */
static void test_p256_sequence(void **state)
{
    static const uint32_t len[11] = {2, 12, 6, 65, 65, 17, 17, 17, 17, 34, 1};
    static const enum pqpan_mesh_prov_role who[11] = {0, 1, 0, 0, 1, 0, 1, 0, 1, 0, 1};
    struct pqpan_mesh_prov_step st[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t n, i;
    (void)state;
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_P256, PQPAN_KEM_MLKEM512,
                                          PQPAN_MESH_PROV_ALG_CMAC, PQPAN_MESH_PBADV_TRANSACTION_MAX),
                     PQPAN_OK);
    assert_int_equal(n, 11);
    for (i = 0; i < n; i++) {
        assert_int_equal(st[i].length, len[i]);
        assert_int_equal(st[i].sender, who[i]);
    }
}

static void test_plan_errors(void **state)
{
    struct pqpan_mesh_prov_step st[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t n = 7;
    (void)state;
    /* 800 key octets in PDUs of 65: 13 parts, more than 4. */
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM512,
                                          PQPAN_MESH_PROV_ALG_HMAC, 65),
                     PQPAN_ERR_CAPACITY);
    assert_int_equal(n, 0);
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_P256, PQPAN_KEM_MLKEM512,
                                          PQPAN_MESH_PROV_ALG_CMAC, 64),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_mesh_prov_plan(st, &n, PQPAN_MESH_PROV_MLKEM, (enum pqpan_kem_id)9,
                                          PQPAN_MESH_PROV_ALG_HMAC, 1469),
                     PQPAN_ERR_INVALID_ARG);
}

/* A device without per-event timing (no pre/post-processing, no ramp-up) and free crypto:
 * the timeline is the advertising schedule alone. */
static const struct pqpan_ble_device bare = {64000000u, 0u, 0u, 0u, 0u, 50u, 0u};

static void run(struct pqpan_mesh_pbadv_estimate *e, enum pqpan_kem_id kem,
                const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    struct pqpan_mesh_pbadv_config cfg;
    const struct pqpan_ble_device dev[2] = {bare, bare};
    pqpan_mesh_pbadv_config_default(&cfg);
    cfg.keys.kem = kem;
    assert_int_equal(pqpan_mesh_pbadv_estimate(e, &cfg, dev, cycles), PQPAN_OK);
}

/* ML-KEM-512 by hand, E[T_advEvent] = 25 ms, a PDU heard 2 × its air time after its event
 * starts (second channel), each side's events 25 ms apart and in order, 3 transmissions
 * per Ack (times in ms):
 *   Link Open 0 → heard 0.640; Link Ack ×3 from 0.640 (D busy to 75.640).
 *   Invite at 25 (P's next slot) → 25.464; Ack at 75.640 → 76.024.
 *   Capabilities at 150.640 → 151.264; Start at 226.264 → 226.792 (Ack 226.792 → 227.176).
 *   ek: 35 segments from 251.264, the last at 1101.264 → 1102.016.
 *   ct: 34 segments from 1177.016, the last (14 octets, 304 µs) at 2002.016 → 2002.624.
 *   Confirmation P at 2077.624, 2102.624 → 2103.216; Confirmation D 2178.216 → 2203.808;
 *   Random P 2278.808 → 2304.400; Random D 2379.400 → 2404.992;
 *   Data 2479.992, 2504.992 → 2505.600; Complete at 2580.600 (224 µs) → 2581.048.
 *   Acks of Complete 2581.048 .. 2631.048, Link Close at 2656.048, 2681.048, 2706.048 + 0.600. */
static void test_mlkem512_by_hand(void **state)
{
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    struct pqpan_mesh_pbadv_estimate e;
    int s;
    (void)state;
    run(&e, PQPAN_KEM_MLKEM512, zero);
    assert_int_equal(e.latency_ns, UINT64_C(2581048000));
    assert_int_equal(e.span_ns, UINT64_C(2706648000));
    assert_int_equal(e.transactions, 11);
    assert_int_equal(e.segments[PQPAN_MESH_PROVISIONER], 1 + 1 + 35 + 2 + 2 + 2);
    assert_int_equal(e.segments[PQPAN_MESH_DEVICE], 1 + 34 + 2 + 2 + 1);
    /* + Link Open, 5 Acks ×3, Link Close ×3; + Link Ack ×3, 6 Acks ×3. */
    assert_int_equal(e.adv_events[PQPAN_MESH_PROVISIONER], 43 + 1 + 15 + 3);
    assert_int_equal(e.adv_events[PQPAN_MESH_DEVICE], 40 + 3 + 18);
    /* Without per-event timing a side is either sending or scanning the whole span. */
    for (s = 0; s < 2; s++) {
        uint64_t tx = pqpan_ledger_state_ns(&e.ledger[s], PQPAN_STATE_TX);
        uint64_t rx = pqpan_ledger_state_ns(&e.ledger[s], PQPAN_STATE_RX);
        assert_int_equal(tx + rx, e.span_ns);
        assert_int_equal(e.ledger[s].pdus_tx, 3u * e.adv_events[s]);
    }
}

/* The computation hides in the waits for a free advertising slot (each ≥ 24 ms here):
 * the latency does not move, the CPU time is the cycles at 64 MHz. */
static void test_crypto_hidden_in_slots(void **state)
{
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    uint64_t cyc[2][PQPAN_OP_COUNT] = {{0}};
    struct pqpan_mesh_pbadv_estimate a, b;
    (void)state;
    cyc[PQPAN_MESH_PROVISIONER][PQPAN_OP_KEM_KEYGEN] = 640000u;   /* 10 ms */
    cyc[PQPAN_MESH_PROVISIONER][PQPAN_OP_KEM_DECAPS] = 1280000u;  /* 20 ms */
    cyc[PQPAN_MESH_DEVICE][PQPAN_OP_KEM_ENCAPS] = 960000u;        /* 15 ms */
    run(&a, PQPAN_KEM_MLKEM512, zero);
    run(&b, PQPAN_KEM_MLKEM512, (const uint64_t(*)[PQPAN_OP_COUNT])cyc);
    assert_int_equal(b.latency_ns, a.latency_ns);
    assert_int_equal(pqpan_ledger_state_ns(&b.ledger[PQPAN_MESH_PROVISIONER], PQPAN_STATE_CPU),
                     30000000u);
    assert_int_equal(pqpan_ledger_state_ns(&b.ledger[PQPAN_MESH_DEVICE], PQPAN_STATE_CPU),
                     15000000u);
    assert_int_equal(b.ledger[PQPAN_MESH_DEVICE].op_count[PQPAN_OP_KEM_ENCAPS], 1);
}

/* The device's energy through the library's energy model. Its events' packets per channel
 * (µs): Link Ack 3 × 192, Capabilities 312, ct 33 × 376 + 304, Confirmation and Random
 * 2 × (376 + 296), Complete 224, 6 Acks × 3 × 192 = 18624; three channels: TX 55.872 ms,
 * RX the rest of 2706.648 ms = 2650.776 ms.
 * E = 2 V · (6000 µA · 0.055872 s + 6500 µA · 2.650776 s) = 35130.552 µJ. */
static void test_device_energy(void **state)
{
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    static const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};
    struct pqpan_mesh_pbadv_estimate e;
    struct pqpan_profile p;
    struct pqpan_gamma g;
    struct pqpan_energy en;
    (void)state;
    run(&e, PQPAN_KEM_MLKEM512, zero);
    round_profile(&p);
    pqpan_gamma_default(&g);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_DEVICE], PQPAN_STATE_TX),
                     55872000u);
    assert_int_equal(pqpan_energy_compute(&en, &e.ledger[PQPAN_MESH_DEVICE], &p, &o, &g), PQPAN_OK);
    assert_float_equal(en.total_events_uj, 35130.552, 1e-6);
}

static void test_estimate_errors(void **state)
{
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    const struct pqpan_ble_device dev[2] = {bare, bare};
    struct pqpan_mesh_pbadv_config cfg;
    struct pqpan_mesh_pbadv_estimate e;
    (void)state;
    pqpan_mesh_pbadv_config_default(&cfg);
    cfg.adv_interval_ns = 19000000u;
    assert_int_equal(pqpan_mesh_pbadv_estimate(&e, &cfg, dev, zero), PQPAN_ERR_INVALID_ARG);
    pqpan_mesh_pbadv_config_default(&cfg);
    cfg.phy = PQPAN_BLE_PHY_2M;
    assert_int_equal(pqpan_mesh_pbadv_estimate(&e, &cfg, dev, zero), PQPAN_ERR_INVALID_ARG);
    pqpan_mesh_pbadv_config_default(&cfg);
    cfg.ack_transmissions = 0;
    assert_int_equal(pqpan_mesh_pbadv_estimate(&e, &cfg, dev, zero), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(e.latency_ns, 0);
}

/* Proxy PDUs: each ATT value at most ATT_MTU - 3 octets, the 1-octet header included:
 * ceil(len / (ATT_MTU - 4)) values (Zephyr proxy_msg.c). At ATT_MTU 403: 399 each. */
static void test_proxy_segments(void **state)
{
    (void)state;
    assert_int_equal(pqpan_mesh_proxy_segments(2, 23), 1);
    assert_int_equal(pqpan_mesh_proxy_segments(19, 23), 1);
    assert_int_equal(pqpan_mesh_proxy_segments(20, 23), 2);
    assert_int_equal(pqpan_mesh_proxy_segments(1186, 403), 3);
    assert_int_equal(pqpan_mesh_proxy_segments(1570, 403), 4);
    assert_int_equal(pqpan_mesh_proxy_segments(1, 4), 0);
}

/* ML-KEM-768 at ATT_MTU 403: provisioner Invite 1, Start 1, ek 1186 → 3, Confirmation 1,
 * Random 1, Data 1 = 8 values; device Capabilities 1, ct 1090 → 3, Confirmation 1,
 * Random 1, Complete 1 = 7. ML-KEM-1024's key is one Public Key PDU on PB-GATT (1570
 * octets, 4 values), so the run has 11 PDUs at every level. */
static void test_pbgatt_counts(void **state)
{
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    const struct pqpan_ble_device dev[2] = {bare, bare};
    struct pqpan_mesh_pbgatt_config cfg;
    struct pqpan_mesh_pbgatt_estimate e[3];
    int l;
    (void)state;
    for (l = 0; l < 3; l++) {
        pqpan_mesh_pbgatt_config_default(&cfg);
        cfg.setup = PQPAN_MESH_PBGATT_SETUP_NONE; /* the open connection (set-up: below) */
        cfg.keys.kem = (enum pqpan_kem_id)(l + 1);
        assert_int_equal(pqpan_mesh_pbgatt_estimate(&e[l], &cfg, dev, zero), PQPAN_OK);
        assert_true(l == 0 ||
                    pqpan_ledger_state_ns(&e[l].ledger[PQPAN_MESH_DEVICE], PQPAN_STATE_TX) >
                        pqpan_ledger_state_ns(&e[l - 1].ledger[PQPAN_MESH_DEVICE], PQPAN_STATE_TX));
        /* A 50 ms event carries any of the PDUs whole; each answer waits for the next
         * event (--reply next-event): one interval per PDU, 11 PDUs, at every level. */
        assert_int_equal(e[l].latency_ns, 11u * cfg.ci_ns);
    }
    assert_int_equal(e[1].proxy_pdus[PQPAN_MESH_PROVISIONER], 8);
    assert_int_equal(e[1].proxy_pdus[PQPAN_MESH_DEVICE], 7);
    assert_int_equal(e[2].proxy_pdus[PQPAN_MESH_PROVISIONER], 9);
    assert_int_equal(e[1].counts.att_pdus[PQPAN_BLE_CENTRAL], 8);
    pqpan_mesh_pbgatt_config_default(&cfg);
    cfg.att_mtu = 22;
    assert_int_equal(pqpan_mesh_pbgatt_estimate(&e[0], &cfg, dev, zero), PQPAN_ERR_INVALID_ARG);
}

/* PB-GATT's set-up by hand (Core v5.4; LE 1M: a PDU of n payload octets is
 * (1 preamble + 4 AA + 2 header + n + 3 CRC) x 8 us, Vol 6 Part B §2.1, §2.4; T_IFS 150 us,
 * §4.1.1), the default link (ATT_MTU 403, LL 27, CI 50 ms, replies in the next event),
 * advInterval 100 ms, the bare device (no per-event costs, so the scanner listens from 0):
 * - advertising (§4.4.2.2; pqpan_ble_adv_mean): E[T] = 100 + 5 = 105 ms, E[W] = 105/2 +
 *   10^2 / (24 x 105) ms = 52 539 682 ns (integer ns); ADV_IND of 35 octets 360 us, sent on
 *   37 and 38 (the device: 720 us TX), heard on 38 (the provisioner: 360 us RX), answered
 *   T_IFS later: span 52 539 682 + 360 000 + 150 000 ns;
 * - CONNECT_IND 34 octets = 352 us (provisioner TX, device RX), transmitWindowDelay
 *   1.25 ms (§4.5.3), the first event: empty PDUs of 80 us each way, closing 80 + 150 + 80
 *   = 310 us after its anchor;
 * - then 18 events at 50 ms, each request answered in the next (a request event: the
 *   request / the peer's empty 80 us; a response event: empty / the response), LL payloads
 *   (ATT PDUs + 4 of L2CAP): LL_FEATURE_REQ/RSP 9 (152 us), LL_VERSION_IND 6 (128 us) both
 *   ways; Exchange MTU Request/Response 7 (136 us); Find By Type Value 13 (184 us) / 9
 *   (152 us), again / Error Response 9 (152 us); Read By Type 11 (168 us) / 20 (240 us),
 *   again / Error 9 (152 us); Find Information 9 (152 us) / 10 (160 us); Write Request 9
 *   (152 us) / Write Response 5 (120 us); the last event closes 80 + 150 + 120 = 350 us
 *   after its anchor.
 * Device TX: 720 + 80 (first event) + 80 + 152 + 80 + 128 (features: an empty PDU in each
 *   request's event, LL_FEATURE_RSP, the answering LL_VERSION_IND) + 80 + 136 (MTU)
 *   + 6 x 80 + 152 + 152 + 240 + 152 + 160 + 120 (discovery) = 2 912 us;
 * device RX: 352 + 80 + 152 + 80 + 128 + 80 + 136 + 80 + 184 + 184 + 168 + 168 + 152 + 152
 *   + 6 x 80 = 2 576 us (its mirror is the provisioner's TX);
 * provisioner RX: 360 + 2 912 - 720 = 2 552 us.
 * Set-up: 53 049 682 + (352 000 + 1 250 000 + 310 000) + 18 x 50 ms + 350 000 - 310 000
 *   = 955 001 682 ns; the run continues from the last anchor (350 us before the set-up's
 *   end), so the latency grows by 955 001 682 - 350 000 = 954 651 682 ns. */
/* What the set-up adds to a side's state st: with it less without it. */
static uint64_t added_ns(const struct pqpan_ledger *with, const struct pqpan_ledger *without,
                         enum pqpan_state st)
{
    return pqpan_ledger_state_ns(with, st) - pqpan_ledger_state_ns(without, st);
}

static void test_pbgatt_setup_by_hand(void **state)
{
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    const struct pqpan_ble_device dev[2] = {bare, bare};
    struct pqpan_mesh_pbgatt_config cfg;
    struct pqpan_mesh_pbgatt_estimate full, none;
    const struct pqpan_ledger *fd = &full.ledger[PQPAN_MESH_DEVICE];
    const struct pqpan_ledger *nd = &none.ledger[PQPAN_MESH_DEVICE];
    const struct pqpan_ledger *fp = &full.ledger[PQPAN_MESH_PROVISIONER];
    const struct pqpan_ledger *np = &none.ledger[PQPAN_MESH_PROVISIONER];
    (void)state;
    pqpan_mesh_pbgatt_config_default(&cfg);
    cfg.adv_interval_ns = 100000000u;
    assert_int_equal(pqpan_mesh_pbgatt_estimate(&full, &cfg, dev, zero), PQPAN_OK);
    cfg.setup = PQPAN_MESH_PBGATT_SETUP_NONE;
    assert_int_equal(pqpan_mesh_pbgatt_estimate(&none, &cfg, dev, zero), PQPAN_OK);
    assert_int_equal(full.setup_ns, 955001682u);
    assert_int_equal(none.setup_ns, 0u);
    assert_int_equal(full.latency_ns - none.latency_ns, 954651682u);
    assert_int_equal(added_ns(fd, nd, PQPAN_STATE_TX), 2912000u);
    assert_int_equal(added_ns(fd, nd, PQPAN_STATE_RX), 2576000u);
    assert_int_equal(added_ns(fp, np, PQPAN_STATE_TX), 2576000u);
    assert_int_equal(added_ns(fp, np, PQPAN_STATE_RX), 2552000u);
    /* the scanner listens for E[W] (RX_WINDOW) in the advertising phase */
    assert_int_equal(pqpan_ledger_phase_ns(fp, PQPAN_PHASE_ADVERTISE) -
                         fp->ns[PQPAN_PHASE_ADVERTISE][PQPAN_STATE_SLEEP],
                     52539682u + 360000u + 150000u);
    /* the device's ATT PDUs: 1 (MTU) + 6 (discovery) answers more than the open connection */
    assert_int_equal(full.counts.att_pdus[PQPAN_BLE_PERIPHERAL] -
                         none.counts.att_pdus[PQPAN_BLE_PERIPHERAL],
                     7u);
    assert_int_equal(full.counts.llctrl_pdus[PQPAN_BLE_PERIPHERAL], 2u);
}

/* The crypto on PB-GATT: booked on the side that runs it, CPU = cycles at 64 MHz. */
static void test_pbgatt_crypto(void **state)
{
    uint64_t cyc[2][PQPAN_OP_COUNT] = {{0}};
    const struct pqpan_ble_device dev[2] = {bare, bare};
    struct pqpan_mesh_pbgatt_config cfg;
    struct pqpan_mesh_pbgatt_estimate e;
    (void)state;
    cyc[PQPAN_MESH_PROVISIONER][PQPAN_OP_KEM_KEYGEN] = 640000u;
    cyc[PQPAN_MESH_PROVISIONER][PQPAN_OP_KEM_DECAPS] = 640000u;
    cyc[PQPAN_MESH_DEVICE][PQPAN_OP_KEM_ENCAPS] = 64000u;
    pqpan_mesh_pbgatt_config_default(&cfg);
    assert_int_equal(
        pqpan_mesh_pbgatt_estimate(&e, &cfg, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
        PQPAN_OK);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_PROVISIONER], PQPAN_STATE_CPU),
                     20000000u);
    assert_int_equal(pqpan_ledger_state_ns(&e.ledger[PQPAN_MESH_DEVICE], PQPAN_STATE_CPU),
                     1000000u);
    assert_int_equal(e.ledger[PQPAN_MESH_PROVISIONER].op_count[PQPAN_OP_KEM_DECAPS], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_segment_counts),
        cmocka_unit_test(test_segment_air_time),
        cmocka_unit_test(test_public_key_pdus),
        cmocka_unit_test(test_p256_sequence),
        cmocka_unit_test(test_plan_errors),
        cmocka_unit_test(test_mlkem512_by_hand),
        cmocka_unit_test(test_crypto_hidden_in_slots),
        cmocka_unit_test(test_device_energy),
        cmocka_unit_test(test_estimate_errors),
        cmocka_unit_test(test_proxy_segments),
        cmocka_unit_test(test_pbgatt_counts),
        cmocka_unit_test(test_pbgatt_crypto),
        cmocka_unit_test(test_pbgatt_setup_by_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
