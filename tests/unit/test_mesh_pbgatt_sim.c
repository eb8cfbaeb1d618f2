/* Tests for the executed PB-GATT provisioning (src/mesh/pbgatt_sim.c, pbgatt_capture.c,
 * prov_sim.c): equal keys at every ML-KEM level, P-256 and the hybrid; estimate = simulate
 * within 1 % at zero loss (energy per side, latency) and the same Proxy PDU counts; a
 * substituted Confirmation refused; the capture: every LL data PDU's CRC good, the Proxy
 * PDUs' SAR in order and the Provisioning PDUs whole again when reassembled from the
 * packets (MshPRT v1.1 §6.3.1), times in order. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ble_pdu.h"
#include "pqpan/energy.h"
#include "pqpan/mesh_sim.h"

#include "mesh_round_profile.h"

static const struct pqpan_ble_device dev1 = {64000000u, 0u, 40000u, 60000u, 40000u, 50u, 0u};

static void cycles_of(uint64_t c[2][PQPAN_OP_COUNT])
{
    int s;
    memset(c, 0, 2 * sizeof c[0]);
    for (s = 0; s < 2; s++) {
        c[s][PQPAN_OP_KEM_KEYGEN] = 1200000u;
        c[s][PQPAN_OP_KEM_ENCAPS] = 1400000u;
        c[s][PQPAN_OP_KEM_DECAPS] = 1500000u;
        c[s][PQPAN_OP_ECDH_KEYGEN] = 6000000u;
        c[s][PQPAN_OP_ECDH_SHARED] = 12000000u;
    }
}

static void sim_config_alg(struct pqpan_mesh_pbgatt_sim_config *c, enum pqpan_mesh_prov_variant v,
                           enum pqpan_kem_id kem, enum pqpan_mesh_prov_alg alg)
{
    pqpan_mesh_pbgatt_sim_config_default(c);
    c->link.keys.variant = v;
    c->link.keys.kem = kem;
    c->link.keys.alg = alg;
    c->seed = 11u + (uint64_t)kem;
}

static void sim_config(struct pqpan_mesh_pbgatt_sim_config *c, enum pqpan_mesh_prov_variant v,
                       enum pqpan_kem_id kem)
{
    sim_config_alg(c, v, kem, PQPAN_MESH_PROV_ALG_CMAC);
}

static void simulate(struct pqpan_mesh_pbgatt_sim_result *r,
                     const struct pqpan_mesh_pbgatt_sim_config *c)
{
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    uint64_t cyc[2][PQPAN_OP_COUNT];
    cycles_of(cyc);
    assert_int_equal(pqpan_mesh_pbgatt_simulate(r, c, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                     PQPAN_OK);
}

static const enum pqpan_mesh_prov_variant variants[] = {PQPAN_MESH_PROV_MLKEM,
                                                        PQPAN_MESH_PROV_HYBRID};

/* Every level, ML-KEM alone and hybrid, then P-256; ATT_MTU 23 (many segments) and 517;
 * both Start algorithms (mtu 0: CMAC, 1: HMAC-SHA-256 with 32-octet values). */
static void test_keys_equal_every_level(void **state)
{
    static const uint8_t zero[PQPAN_MESH_KEY_BYTES];
    static struct pqpan_mesh_pbgatt_sim_result r;
    struct pqpan_mesh_pbgatt_sim_config c;
    int level, v, mtu;
    (void)state;
    for (level = 1; level <= 4; level++) {
        for (v = 0; v < 2 && (level <= 3 || v == 0); v++) {
            for (mtu = 0; mtu < 4; mtu++) {
                sim_config_alg(&c, level <= 3 ? variants[v] : PQPAN_MESH_PROV_P256,
                               (enum pqpan_kem_id)(level <= 3 ? level : 2),
                               mtu < 2 ? PQPAN_MESH_PROV_ALG_CMAC : PQPAN_MESH_PROV_ALG_HMAC);
                c.link.att_mtu = mtu % 2 ? PQPAN_ATT_MAX_MTU : PQPAN_ATT_DEFAULT_MTU;
                simulate(&r, &c);
                assert_true(r.complete && r.keys_equal);
                assert_int_equal(r.failed_code, 0);
                assert_memory_equal(r.device_key[0], r.device_key[1], PQPAN_MESH_KEY_BYTES);
                assert_memory_equal(r.net_key[0], r.net_key[1], PQPAN_MESH_KEY_BYTES);
                assert_memory_not_equal(r.device_key[0], zero, PQPAN_MESH_KEY_BYTES);
                /* one Public Key PDU each: Invite, Start, Key, Confirmation, Random, Data */
                assert_int_equal(r.prov_pdus[PQPAN_MESH_PROVISIONER], 6);
                assert_int_equal(r.prov_pdus[PQPAN_MESH_DEVICE], 5);
            }
        }
    }
}

static double energy_uj(const struct pqpan_ledger *l)
{
    static const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};
    struct pqpan_profile p;
    struct pqpan_gamma g;
    struct pqpan_energy en;
    round_profile(&p);
    pqpan_gamma_default(&g);
    assert_int_equal(pqpan_energy_compute(&en, l, &p, &o, &g), PQPAN_OK);
    return en.total_events_uj;
}

static void assert_within_1pct(double sim, double est)
{
    assert_true(est > 0.0);
    assert_true(sim >= est * 0.99 && sim <= est * 1.01);
}

/* The bar: per side energy and latency within 1 % at zero loss, every level and
 * variant, at two ATT_MTUs and reply timings, both Start algorithms. */
static void test_estimate_equals_simulate(void **state)
{
    static struct pqpan_mesh_pbgatt_sim_result r;
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    uint64_t cyc[2][PQPAN_OP_COUNT];
    struct pqpan_mesh_pbgatt_sim_config c;
    struct pqpan_mesh_pbgatt_estimate e;
    int level, v, s, mtu;
    (void)state;
    cycles_of(cyc);
    for (level = 1; level <= 3; level++) {
        for (v = 0; v < 2; v++) {
            for (mtu = 0; mtu < 4; mtu++) {
                sim_config_alg(&c, variants[v], (enum pqpan_kem_id)level,
                               mtu < 2 ? PQPAN_MESH_PROV_ALG_CMAC : PQPAN_MESH_PROV_ALG_HMAC);
                c.link.att_mtu = mtu % 2 ? 247u : PQPAN_ATT_DEFAULT_MTU;
                c.link.same_event_reply = mtu % 2;
                simulate(&r, &c);
                assert_int_equal(pqpan_mesh_pbgatt_estimate(&e, &c.link, dev,
                                                            (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                                 PQPAN_OK);
                assert_within_1pct((double)r.run.latency_ns, (double)e.latency_ns);
                for (s = 0; s < 2; s++) {
                    assert_within_1pct(energy_uj(&r.run.ledger[s]), energy_uj(&e.ledger[s]));
                    assert_int_equal(r.run.proxy_pdus[s], e.proxy_pdus[s]);
                }
            }
        }
    }
}

/* §5.4.2.4: a substituted Confirmation ends the run with Provisioning Failed 0x04. */
static void test_corrupted_confirmation_fails(void **state)
{
    static struct pqpan_mesh_pbgatt_sim_result r;
    struct pqpan_mesh_pbgatt_sim_config c;
    (void)state;
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM768);
    c.corrupt_confirmation = 1;
    simulate(&r, &c);
    assert_false(r.complete);
    assert_false(r.keys_equal);
    assert_int_equal(r.failed_code, PQPAN_MESH_PROV_ERR_CONFIRMATION_FAILED);
}

/* What a sniffer would check: CRCs, times, and the Provisioning PDUs reassembled from the
 * packets' Proxy PDUs (L2CAP frames joined from their LL fragments). */
struct sniffer {
    uint32_t packets, data_pdus, bad_crc, connect_ind, adv_ind, out_of_order;
    uint64_t last_t;
    uint32_t crc_init;
    uint8_t frame[2][4 + PQPAN_ATT_MAX_MTU];
    size_t frame_len[2];
    uint8_t pdu[2][2048];
    size_t pdu_len[2];
    uint32_t prov_pdus[2], sar_errors;
};

/* A whole ATT PDU of direction d: its Proxy PDU appended per its SAR. */
static void proxy(struct sniffer *s, int d, const uint8_t *att, size_t n)
{
    uint8_t sar = (uint8_t)(att[3] >> 6);
    if ((att[0] != PQPAN_ATT_WRITE_CMD && att[0] != PQPAN_ATT_HANDLE_VALUE_NTF) ||
        (att[3] & 0x3Fu) != 0x03u) {
        return; /* the set-up's ATT PDUs */
    }
    if (sar == 0u || sar == 1u) {
        s->sar_errors += s->pdu_len[d] != 0u;
        s->pdu_len[d] = 0;
    }
    memcpy(s->pdu[d] + s->pdu_len[d], att + 4, n - 4u);
    s->pdu_len[d] += n - 4u;
    if (sar == 0u || sar == 3u) {
        s->prov_pdus[d]++;
        s->pdu_len[d] = 0;
    }
}

static int on_packet(void *ctx, uint64_t t, const struct pqpan_pcap_ble_info *info,
                     const uint8_t *pdu, size_t len)
{
    struct sniffer *s = ctx;
    int d = info->pdu_type == PQPAN_PCAP_BLE_DATA_P_TO_C;
    size_t n = len - PQPAN_LL_HDR_BYTES - PQPAN_LL_CRC_BYTES;
    s->packets++;
    s->out_of_order += t < s->last_t;
    s->last_t = t;
    if (info->access_address == PQPAN_LL_ADV_AA) {
        s->adv_ind += (pdu[0] & 0x0Fu) == 0x0u; /* Vol 6 Part B §2.3: PDU Type ADV_IND */
        if ((pdu[0] & 0x0Fu) != 0x5u) {         /* CONNECT_IND */
            s->bad_crc += !pqpan_crc24_check(PQPAN_LL_ADV_CRC_INIT, pdu, len - PQPAN_LL_CRC_BYTES);
            return 0;
        }
        s->connect_ind++;
        s->crc_init = (uint32_t)pdu[18] | (uint32_t)pdu[19] << 8 | (uint32_t)pdu[20] << 16;
        s->bad_crc += !pqpan_crc24_check(PQPAN_LL_ADV_CRC_INIT, pdu, len - PQPAN_LL_CRC_BYTES);
        return 0;
    }
    s->bad_crc += !pqpan_crc24_check(s->crc_init, pdu, len - PQPAN_LL_CRC_BYTES);
    if (n == 0u) {
        return 0;
    }
    s->data_pdus++;
    if ((pdu[0] & 3u) == PQPAN_LLID_START) {
        s->frame_len[d] = 0;
    }
    memcpy(s->frame[d] + s->frame_len[d], pdu + PQPAN_LL_HDR_BYTES, n);
    s->frame_len[d] += n;
    if (s->frame_len[d] >= 4u &&
        s->frame_len[d] == 4u + ((size_t)s->frame[d][0] | (size_t)s->frame[d][1] << 8)) {
        proxy(s, d, s->frame[d] + 4, s->frame_len[d] - 4u);
    }
    return 0;
}

static void test_capture(void **state)
{
    static struct pqpan_mesh_pbgatt_sim_result r;
    static struct sniffer s;
    struct pqpan_mesh_pbgatt_sim_config c;
    (void)state;
    memset(&s, 0, sizeof s);
    sim_config(&c, PQPAN_MESH_PROV_HYBRID, PQPAN_KEM_MLKEM1024);
    c.link.att_mtu = 64u;
    c.link.ll_octets = 27u;
    c.on_packet = on_packet;
    c.packet_ctx = &s;
    simulate(&r, &c);
    assert_int_equal(s.adv_ind, 2);
    assert_int_equal(s.connect_ind, 1);
    assert_int_equal(s.bad_crc, 0);
    assert_int_equal(s.out_of_order, 0);
    /* the LL data PDUs with a payload, as the connection model counts them: the set-up's
     * (feature and version exchange, MTU exchange, discovery, CCCD write; requests and
     * responses) and the run's */
    assert_int_equal(s.data_pdus, r.packets);
    assert_int_equal(r.packets, r.run.counts.data_pdus_tx[0] + r.run.counts.data_pdus_tx[1]);
    /* on the priced clock: the last packet in the last event, which the latency ends one
     * interval after */
    assert_true(s.last_t < r.run.latency_ns && s.last_t > r.run.latency_ns - c.link.ci_ns);
    assert_int_equal(s.sar_errors, 0);
    assert_int_equal(s.prov_pdus[0], r.prov_pdus[PQPAN_MESH_PROVISIONER]);
    assert_int_equal(s.prov_pdus[1], r.prov_pdus[PQPAN_MESH_DEVICE]);
    assert_true(r.run.proxy_pdus[0] > r.prov_pdus[0]); /* the keys segmented */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_keys_equal_every_level),
        cmocka_unit_test(test_estimate_equals_simulate),
        cmocka_unit_test(test_corrupted_confirmation_fails),
        cmocka_unit_test(test_capture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
