/* Tests for the executed PB-ADV provisioning (src/mesh/pbadv_sim.c, prov_keys.c): the
 * security functions against the specification's sample data, equal keys at every
 * ML-KEM level (and P-256, hybrid), a substituted Confirmation refused, the captured
 * advertising PDUs, and estimate = simulate (docs/MODEL.md "Mesh provisioning"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ble_pdu.h"
#include "pqpan/energy.h"
#include "pqpan/mesh_sim.h"
#include "pqpan/sha256.h"

#include "mesh_round_profile.h"

static void hex(uint8_t *out, const char *s)
{
    size_t i;
    for (i = 0; s[2 * i] != '\0'; i++) {
        unsigned v;
        assert_int_equal(sscanf(s + 2 * i, "%2x", &v), 1);
        out[i] = (uint8_t)v;
    }
}

/* Mesh Profile v1.0.1 §8.1.1 (s1 sample data) and §8.1.2 (k1), repeated in MshPRT v1.1
 * §8.1: s1("test"); k1 with N, SALT, P of the sample. */
static void test_s1_k1_sample_data(void **state)
{
    uint8_t out[16], want[16], n[16], salt[16], p[16];
    (void)state;
    pqpan_mesh_s1(out, (const uint8_t *)"test", 4);
    hex(want, "b73cefbd641ef2ea598c2b6efb62f79c");
    assert_memory_equal(out, want, 16);
    hex(n, "3216d1509884b533248541792b877f98");
    hex(salt, "2ba14ffa0df84a2831938d57d276cab4");
    hex(p, "5a09d60797eeb4478aada59db3352a0d");
    pqpan_mesh_k1(out, n, 16, salt, p, 16);
    hex(want, "f6ed15a8934afbe7d83e8dcb57fcf5d7");
    assert_memory_equal(out, want, 16);
}

/* MshPRT v1.1 §8.7 sample data for BTM_ECDH_P256_HMAC_SHA256_AES_CCM (No OOB with a
 * 32-octet AuthValue), the values as quoted by public mesh stacks' tests and checked
 * against Python's hmac / hashlib: ConfirmationSalt = s2(ConfirmationInputs),
 * ConfirmationKey = k5(ECDHSecret || AuthValue, ConfirmationSalt, "prck256"),
 * ConfirmationProvisioner = HMAC-SHA-256_ConfirmationKey(RandomProvisioner) (§5.4.2.4);
 * then ProvisioningSalt = s1(ConfirmationSalt || RandomProvisioner || RandomDevice) and
 * DevKey = k1(ECDHSecret, ProvisioningSalt, "prdk") (§5.4.2.5). */
static void test_s2_k5_sample_data(void **state)
{
    static const char inputs_hex[] =
        "00010003000100000000000001000100002c31a47b5779809ef44cb5eaaf5c3e43d5f8faad4a8794cb98"
        "7e9b03745c78dd919512183898dfbecd52e2408e43871fd021109117bd3ed4eaf8437743715d4ff465e4"
        "3ff23d3f1b9dc7dfc04da8758184dbc966204796eccf0d6cf5e16500cc0201d048bcbbd899eeefc42416"
        "4e33c201c2b010ca6b4d43a8a155cad8ecb279";
    uint8_t inputs[145], n[64], salt[32], key[32], conf[32], rp[32], rd[32], want[32];
    uint8_t salt_in[96], prov_salt[16], devkey[16];
    (void)state;
    hex(inputs, inputs_hex);
    pqpan_mesh_s2(salt, inputs, sizeof inputs);
    hex(want, "a71141ba8cb6b40f4f52b622e1c091614c73fc308f871b78ca775e769bc3ae69");
    assert_memory_equal(salt, want, 32);
    hex(n, "ab85843a2f6d883f62e5684b38e307335fe6e1945ecd19604105c6f23221eb69"
           "906d73a3c7a7cb3ff730dca68a46b9c18d673f50e078202311473ebbe253669f");
    pqpan_mesh_k5(key, n, sizeof n, salt, (const uint8_t *)"prck256", 7);
    hex(want, "210c3c448152e8d59ef742aa7d22ee5ba59a38648bda6bf05c74f3e46fc2c0bb");
    assert_memory_equal(key, want, 32);
    hex(rp, "36f968b94a13000e64b223576390db6bcc6d62f02617c369ee3f5b3e89df7e1f");
    pqpan_hmac_sha256(conf, key, sizeof key, rp, sizeof rp);
    hex(want, "c99b54617ae646f5f32cf7e1ea6fcc49fd69066078eba9580fa6c7031833e6c8");
    assert_memory_equal(conf, want, 32);
    hex(rd, "5b9b1fc6a64b2de8bece53187ee989c6566db1fc7dc8580a73dafdd6211d56a5");
    pqpan_hmac_sha256(conf, key, sizeof key, rd, sizeof rd);
    hex(want, "56e3722d291373d38c995d6f942c02928c96abb015c233557d7974b6e2df662b");
    assert_memory_equal(conf, want, 32);
    memcpy(salt_in, salt, 32);
    memcpy(salt_in + 32, rp, 32);
    memcpy(salt_in + 64, rd, 32);
    pqpan_mesh_s1(prov_salt, salt_in, sizeof salt_in);
    hex(want, "d1cb10ad8d51286067e348fc4b692122");
    assert_memory_equal(prov_salt, want, 16);
    pqpan_mesh_k1(devkey, n, 32, prov_salt, (const uint8_t *)"prdk", 4);
    hex(want, "2770852a737cf05d8813768f22af3a2d");
    assert_memory_equal(devkey, want, 16);
}

/* nRF52840-like event timing (pre 60 µs, post 40 µs, ramp 40 µs) and the study's M4 cycle
 * counts' order of magnitude, so crypto and per-event CPU time both count. */
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

static const enum pqpan_mesh_prov_alg algs[] = {PQPAN_MESH_PROV_ALG_CMAC, PQPAN_MESH_PROV_ALG_HMAC};

static void sim_config_alg(struct pqpan_mesh_pbadv_sim_config *c, enum pqpan_mesh_prov_variant v,
                           enum pqpan_kem_id kem, enum pqpan_mesh_prov_alg alg)
{
    pqpan_mesh_pbadv_sim_config_default(c);
    c->link.keys.variant = v;
    c->link.keys.kem = kem;
    c->link.keys.alg = alg;
    c->seed = 7u + (uint64_t)kem;
}

static void sim_config(struct pqpan_mesh_pbadv_sim_config *c, enum pqpan_mesh_prov_variant v,
                       enum pqpan_kem_id kem)
{
    sim_config_alg(c, v, kem, PQPAN_MESH_PROV_ALG_CMAC);
}

static void simulate(struct pqpan_mesh_pbadv_sim_result *r,
                     const struct pqpan_mesh_pbadv_sim_config *c)
{
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    uint64_t cyc[2][PQPAN_OP_COUNT];
    cycles_of(cyc);
    assert_int_equal(pqpan_mesh_pbadv_simulate(r, c, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                     PQPAN_OK);
}

static void assert_keys_equal(enum pqpan_mesh_prov_variant v, enum pqpan_kem_id kem,
                              enum pqpan_mesh_prov_alg alg)
{
    static const uint8_t zero[PQPAN_MESH_KEY_BYTES];
    static struct pqpan_mesh_pbadv_sim_result r;
    struct pqpan_mesh_pbadv_sim_config c;
    sim_config_alg(&c, v, kem, alg);
    simulate(&r, &c);
    assert_true(r.complete);
    assert_int_equal(r.failed_code, 0);
    assert_true(r.keys_equal);
    assert_memory_equal(r.session_key[0], r.session_key[1], PQPAN_MESH_KEY_BYTES);
    assert_memory_equal(r.device_key[0], r.device_key[1], PQPAN_MESH_KEY_BYTES);
    assert_memory_equal(r.net_key[0], r.net_key[1], PQPAN_MESH_KEY_BYTES);
    assert_memory_not_equal(r.device_key[0], zero, PQPAN_MESH_KEY_BYTES);
    assert_memory_not_equal(r.session_key[0], r.device_key[0], PQPAN_MESH_KEY_BYTES);
}

/* Both Start algorithms (§5.4.2.4: 16-octet CMAC values, 32-octet HMAC-SHA-256 values). */
static void test_keys_equal_every_level(void **state)
{
    size_t a;
    (void)state;
    for (a = 0; a < sizeof algs / sizeof algs[0]; a++) {
        assert_keys_equal(PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM512, algs[a]);
        assert_keys_equal(PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM768, algs[a]);
        assert_keys_equal(PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM1024, algs[a]);
        assert_keys_equal(PQPAN_MESH_PROV_P256, PQPAN_KEM_MLKEM768, algs[a]);
        assert_keys_equal(PQPAN_MESH_PROV_HYBRID, PQPAN_KEM_MLKEM1024, algs[a]);
    }
}

/* Two seeds: other keys, the same timeline. */
static void test_seed_changes_keys_only(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result a, b;
    struct pqpan_mesh_pbadv_sim_config c;
    (void)state;
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM512);
    simulate(&a, &c);
    c.seed++;
    simulate(&b, &c);
    assert_memory_not_equal(a.device_key[0], b.device_key[0], PQPAN_MESH_KEY_BYTES);
    assert_int_equal(a.run.latency_ns, b.run.latency_ns);
}

/* §5.4.2.4: the device checks the provisioner's Confirmation when its Random arrives; a
 * substituted one ends the run with Provisioning Failed, Confirmation Failed (0x04). */
static void test_corrupted_confirmation_fails(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r;
    struct pqpan_mesh_pbadv_sim_config c;
    int level;
    (void)state;
    for (level = 1; level <= 3; level++) {
        sim_config(&c, PQPAN_MESH_PROV_MLKEM, (enum pqpan_kem_id)level);
        c.corrupt_confirmation = 1;
        simulate(&r, &c);
        assert_false(r.complete);
        assert_false(r.keys_equal);
        assert_int_equal(r.failed_code, PQPAN_MESH_PROV_ERR_CONFIRMATION_FAILED);
        /* Invite, Capabilities, Start, keys, Confirmations, the provisioner's Random, Failed. */
        assert_int_equal(r.prov_pdus[PQPAN_MESH_DEVICE], level < 3 ? 4 : 5);
    }
}

/* An advertising interval below 20 ms (Core Vol 6 Part B §4.4.2.2) is refused. */
static void test_short_interval_refused(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r;
    struct pqpan_mesh_pbadv_sim_config c;
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    (void)state;
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM512);
    c.link.adv_interval_ns = 19000000u;
    assert_int_equal(pqpan_mesh_pbadv_simulate(&r, &c, dev, zero), PQPAN_ERR_INVALID_ARG);
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

static void assert_within_pct(double sim, double est, double pct)
{
    assert_true(est > 0.0);
    assert_true(sim >= est * (1.0 - pct / 100.0) && sim <= est * (1.0 + pct / 100.0));
}

static void assert_within_1pct(double sim, double est)
{
    assert_within_pct(sim, est, 1.0);
}

/* The bar: per side energy and latency within 1 % at zero loss, every level, both
 * algorithms (HMAC's 32-octet Confirmation and Random are in the estimator's plan). */
static void test_estimate_equals_simulate(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r;
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    uint64_t cyc[2][PQPAN_OP_COUNT];
    struct pqpan_mesh_pbadv_sim_config c;
    struct pqpan_mesh_pbadv_estimate e;
    int level, s;
    (void)state;
    cycles_of(cyc);
    for (level = 1; level <= 6; level++) {
        sim_config_alg(&c, PQPAN_MESH_PROV_MLKEM, (enum pqpan_kem_id)((level - 1) % 3 + 1),
                       algs[(level - 1) / 3]);
        simulate(&r, &c);
        assert_int_equal(pqpan_mesh_pbadv_estimate(&e, &c.link, dev,
                                                   (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                         PQPAN_OK);
        assert_within_1pct((double)r.run.latency_ns, (double)e.latency_ns);
        for (s = 0; s < 2; s++) {
            assert_within_1pct(energy_uj(&r.run.ledger[s]), energy_uj(&e.ledger[s]));
            assert_int_equal(r.run.segments[s], e.segments[s]);
            assert_int_equal(r.run.adv_events[s], e.adv_events[s]);
        }
        assert_int_equal(r.run.transactions, e.transactions);
        assert_int_equal(r.packets, 3u * (e.adv_events[0] + e.adv_events[1]));
    }
}

struct capture {
    uint32_t packets, bad_crc, pb_adv, starts, link_open;
    uint64_t last_t;
    int out_of_order;
};

static int on_packet(void *ctx, uint64_t t, uint8_t ch, const uint8_t *pdu, size_t len)
{
    struct capture *c = ctx;
    const uint8_t *ad = pdu + PQPAN_LL_HDR_BYTES + 6;
    c->packets++;
    c->bad_crc += !pqpan_crc24_check(PQPAN_LL_ADV_CRC_INIT, pdu, len - PQPAN_LL_CRC_BYTES);
    c->pb_adv += (pdu[0] & 0x0Fu) == 0x02u && ad[1] == 0x29u && ch >= 37u && ch <= 39u;
    c->starts += (ad[7] & 3u) == 0u && ch == 37u;
    c->link_open += (ad[7] & 3u) == 3u && (ad[7] >> 2) == 0u && ch == 37u;
    c->out_of_order += t < c->last_t;
    c->last_t = t;
    return 0;
}

/* Every PDU captured: CRC good, ADV_NONCONN_IND with the PB-ADV AD type; one Transaction
 * Start per Provisioning PDU, one Link Open. */
static void test_capture(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r;
    struct pqpan_mesh_pbadv_sim_config c;
    struct capture cap;
    (void)state;
    memset(&cap, 0, sizeof cap);
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM1024);
    c.on_packet = on_packet;
    c.packet_ctx = &cap;
    simulate(&r, &c);
    assert_int_equal(cap.packets, r.packets);
    assert_int_equal(cap.bad_crc, 0);
    assert_int_equal(cap.pb_adv, r.packets);
    assert_int_equal(cap.starts, r.prov_pdus[0] + r.prov_pdus[1]);
    assert_int_equal(r.prov_pdus[0] + r.prov_pdus[1], 13);
    assert_int_equal(cap.link_open, 1);
}

/* ---- loss and the retransmission timer (MshPRT v1.1 §5.3.2) ---- */

/* No per-event CPU or ramp-up, free crypto: the times are the packets' and the timers'. */
static const struct pqpan_ble_device bare = {64000000u, 0u, 0u, 0u, 0u, 50u, 0u};

struct loss_pattern {
    uint32_t lose[4];
    uint32_t n;
};

static int lose_listed(void *ctx, enum pqpan_mesh_prov_role to, uint32_t event)
{
    const struct loss_pattern *lp = ctx;
    uint32_t i;
    (void)to;
    for (i = 0; i < lp->n; i++) {
        if (lp->lose[i] == event) {
            return 1;
        }
    }
    return 0;
}

static void simulate_bare(struct pqpan_mesh_pbadv_sim_result *r,
                          const struct pqpan_mesh_pbadv_sim_config *c)
{
    const struct pqpan_ble_device dev[2] = {bare, bare};
    static const uint64_t zero[2][PQPAN_OP_COUNT];
    assert_int_equal(pqpan_mesh_pbadv_simulate(r, c, dev, zero), PQPAN_OK);
}

/* ML-KEM-512 with CMAC, bare timing, without loss (r0) and with lp's (r1): both complete. */
static void simulate_pair(struct pqpan_mesh_pbadv_sim_result *r0,
                          struct pqpan_mesh_pbadv_sim_result *r1, struct loss_pattern *lp)
{
    struct pqpan_mesh_pbadv_sim_config c;
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM512);
    simulate_bare(r0, &c);
    c.lose = lose_listed;
    c.loss_ctx = lp;
    simulate_bare(r1, &c);
    assert_true(r1->keys_equal && r1->complete);
    assert_int_equal(r1->lost_events, lp->n);
}

/* ML-KEM-512, CMAC: the events run Link Open (0), Link Ack x3 (1-3), Invite (4), its Ack
 * x3 (5-7), Capabilities (8), Ack x3 (9-11), Start (12), Ack x3 (13-15), then the ek's 35
 * segments (16-50; the Public Key PDU of 802 octets = 20 + 34 x 23 fills every segment: a
 * 47-octet packet, 376 us, an event of 3 x 376 = 1128 us). Losing event 26 (ek segment 10)
 * at the device: the round ends with segment 34; the timer fires 500 ms after that event
 * ends; the round again from segment 0, 25 ms (advInterval 20 + mean advDelay 5) apart;
 * segment 10 completes the transaction, heard (like segment 34 without loss) at the end of
 * its second packet; the device's Ack stops the round there. The PDU arrives 1.128 + 500 +
 * 10 x 25 = 751.128 ms later than without loss, and everything after it too: 11 segments
 * resent. */
static void test_lost_segment_hand(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r0, r1;
    struct loss_pattern lp = {{26u}, 1u};
    (void)state;
    simulate_pair(&r0, &r1, &lp);
    assert_memory_equal(r1.device_key, r0.device_key, sizeof r0.device_key);
    assert_int_equal(r0.lost_events, 0);
    assert_true(r1.run.resent_segments[PQPAN_MESH_PROVISIONER] == 11.0);
    assert_true(r0.run.resent_segments[PQPAN_MESH_PROVISIONER] == 0.0);
    assert_int_equal(r1.run.adv_events[PQPAN_MESH_PROVISIONER],
                     r0.run.adv_events[PQPAN_MESH_PROVISIONER] + 11u);
    assert_int_equal(r1.run.adv_events[PQPAN_MESH_DEVICE], r0.run.adv_events[PQPAN_MESH_DEVICE]);
    assert_int_equal(r1.run.latency_ns - r0.run.latency_ns, 751128000u);
}

/* The Invite's three Acks lost (events 5-7). Without loss the Invite (a 29-octet packet,
 * 232 us; event 696 us) starts at 25 ms, the device's Acks wait behind its Link Acks
 * (75.640, 100.640, 125.640 ms) and its Capabilities start at 150.640 ms. With the loss
 * the provisioner's timer fires 500 ms after the Invite's event ends (525.696 ms), the
 * Invite again, heard at the end of its second packet (+0.464 ms); the device, its Ack no
 * longer pending, acknowledges the copy again (not delivering it twice: the run's PDUs are
 * those of the plan), three events 25 ms apart, and its Capabilities follow them at
 * 526.160 + 75 = 601.160 ms: 450.520 ms later, and everything after it too; one segment
 * resent, three more device events. */
static void test_lost_ack_hand(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r0, r1;
    struct loss_pattern lp = {{5u, 6u, 7u}, 3u};
    (void)state;
    simulate_pair(&r0, &r1, &lp);
    assert_int_equal(r1.prov_pdus[0] + r1.prov_pdus[1], r0.prov_pdus[0] + r0.prov_pdus[1]);
    assert_true(r1.run.resent_segments[PQPAN_MESH_PROVISIONER] == 1.0);
    assert_int_equal(r1.run.adv_events[PQPAN_MESH_DEVICE],
                     r0.run.adv_events[PQPAN_MESH_DEVICE] + 3u);
    assert_int_equal(r1.run.latency_ns - r0.run.latency_ns, 450520000u);
}

/* At a packet error rate of 97 % a transaction goes unacknowledged for 30 s: the link is
 * closed (reason Timeout), no keys, a result rather than an error. */
static void test_high_per_times_out(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r;
    struct pqpan_mesh_pbadv_sim_config c;
    (void)state;
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM768);
    c.link.per = 0.97;
    simulate(&r, &c);
    assert_true(r.timed_out);
    assert_false(r.complete);
    assert_false(r.keys_equal);
    assert_true(r.lost_events > 0u);
    assert_true(r.run.span_ns > PQPAN_MESH_PBADV_TXN_TIMEOUT_NS);
}

/* Drawn loss: every run completes with equal keys at 10 %, resends some segments, and the
 * keys do not depend on the loss (the loss draws have their own source). */
static void test_per_keys_equal(void **state)
{
    static struct pqpan_mesh_pbadv_sim_result r0, r1;
    struct pqpan_mesh_pbadv_sim_config c;
    (void)state;
    sim_config(&c, PQPAN_MESH_PROV_MLKEM, PQPAN_KEM_MLKEM1024);
    simulate(&r0, &c);
    c.link.per = 0.1;
    simulate(&r1, &c);
    assert_true(r1.keys_equal && r1.complete && !r1.timed_out);
    assert_true(r1.lost_events > 0u && r1.run.resent_segments[PQPAN_MESH_PROVISIONER] > 0.0);
    assert_memory_equal(r1.device_key, r0.device_key, sizeof r0.device_key);
    assert_true(r1.run.latency_ns > r0.run.latency_ns);
}

/* The estimate at a packet error rate (expected retransmission rounds, geometric with the
 * timer) against the mean of 120 simulated runs, every level at 5 % and 20 %: latency and
 * each side's energy within 5 % (the runs' standard error is about 1.5 %; measured over 200
 * runs the estimate is within 3 % from 1 % to 30 %), every run complete with equal keys. */
static void test_estimate_mean_under_loss(void **state)
{
    static const double pers[] = {0.05, 0.2};
    static struct pqpan_mesh_pbadv_sim_result r;
    static struct pqpan_mesh_pbadv_estimate e;
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    uint64_t cyc[2][PQPAN_OP_COUNT];
    struct pqpan_mesh_pbadv_sim_config c;
    const uint32_t runs = 120u;
    uint32_t level, k, i;
    int s;
    (void)state;
    cycles_of(cyc);
    for (level = 1; level <= 3; level++) {
        for (k = 0; k < sizeof pers / sizeof pers[0]; k++) {
            double lat = 0.0, en[2] = {0.0, 0.0};
            sim_config(&c, PQPAN_MESH_PROV_MLKEM, (enum pqpan_kem_id)level);
            c.link.per = pers[k];
            for (i = 0; i < runs; i++) {
                c.seed = 1000u + i;
                simulate(&r, &c);
                assert_true(r.complete && r.keys_equal);
                lat += (double)r.run.latency_ns / runs;
                for (s = 0; s < 2; s++) {
                    en[s] += energy_uj(&r.run.ledger[s]) / runs;
                }
            }
            assert_int_equal(pqpan_mesh_pbadv_estimate(&e, &c.link, dev,
                                                       (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                             PQPAN_OK);
            assert_within_pct(lat, (double)e.latency_ns, 5.0);
            for (s = 0; s < 2; s++) {
                assert_within_pct(en[s], energy_uj(&e.ledger[s]), 5.0);
            }
        }
    }
}

/* Scanning at a duty cycle below 100 % (Core v5.4 Vol 6 Part B §4.4.3): an event is heard
 * with probability window / interval, so a scan of 15 ms every 20 ms (0.75) without packet
 * errors is, event for event, a continuous scan with a 25 % packet error rate: the same
 * expected rounds, latency, events and resent segments. The radio listens only in the
 * windows: each side's RX is 0.75 of the idle time the continuous case books as RX, the
 * other 0.25 SLEEP. */
static void test_scan_duty_hand(void **state)
{
    static struct pqpan_mesh_pbadv_estimate lossy, duty;
    const struct pqpan_ble_device dev[2] = {dev1, dev1};
    uint64_t cyc[2][PQPAN_OP_COUNT];
    struct pqpan_mesh_pbadv_config c;
    int s;
    (void)state;
    cycles_of(cyc);
    pqpan_mesh_pbadv_config_default(&c);
    c.keys.kem = PQPAN_KEM_MLKEM768;
    assert_true(c.scan_window_ns == c.scan_interval_ns); /* continuous by default */
    c.per = 0.25;
    assert_int_equal(pqpan_mesh_pbadv_estimate(&lossy, &c, dev,
                                               (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                     PQPAN_OK);
    c.per = 0.0;
    c.scan_window_ns = 15000000u;
    c.scan_interval_ns = 20000000u;
    assert_true(pqpan_mesh_pbadv_scan_duty(&c) == 0.75);
    assert_int_equal(pqpan_mesh_pbadv_estimate(&duty, &c, dev,
                                               (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                     PQPAN_OK);
    assert_int_equal(duty.latency_ns, lossy.latency_ns);
    assert_int_equal(duty.span_ns, lossy.span_ns);
    for (s = 0; s < 2; s++) {
        uint64_t rx = pqpan_ledger_state_ns(&lossy.ledger[s], PQPAN_STATE_RX);
        assert_int_equal(duty.adv_events[s], lossy.adv_events[s]);
        assert_true(duty.resent_segments[s] == lossy.resent_segments[s]);
        assert_true(lossy.resent_segments[s] > 0.0);
        assert_int_equal(pqpan_ledger_state_ns(&lossy.ledger[s], PQPAN_STATE_SLEEP), 0u);
        assert_true(llabs((long long)pqpan_ledger_state_ns(&duty.ledger[s], PQPAN_STATE_RX) -
                          (long long)(rx * 3u / 4u)) <= 1);
        assert_true(llabs((long long)pqpan_ledger_state_ns(&duty.ledger[s], PQPAN_STATE_SLEEP) -
                          (long long)(rx / 4u)) <= 1);
    }
    c.scan_window_ns = 25000000u; /* a window longer than its interval */
    assert_int_equal(pqpan_mesh_pbadv_estimate(&duty, &c, dev,
                                               (const uint64_t(*)[PQPAN_OP_COUNT])cyc),
                     PQPAN_ERR_INVALID_ARG);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_s1_k1_sample_data),
        cmocka_unit_test(test_s2_k5_sample_data),
        cmocka_unit_test(test_keys_equal_every_level),
        cmocka_unit_test(test_seed_changes_keys_only),
        cmocka_unit_test(test_corrupted_confirmation_fails),
        cmocka_unit_test(test_short_interval_refused),
        cmocka_unit_test(test_estimate_equals_simulate),
        cmocka_unit_test(test_capture),
        cmocka_unit_test(test_lost_segment_hand),
        cmocka_unit_test(test_lost_ack_hand),
        cmocka_unit_test(test_high_per_times_out),
        cmocka_unit_test(test_per_keys_equal),
        cmocka_unit_test(test_estimate_mean_under_loss),
        cmocka_unit_test(test_scan_duty_hand),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
