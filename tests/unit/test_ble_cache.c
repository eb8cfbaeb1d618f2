/* Tests for the estimator's memo (src/ble/estimate.c, struct pqpan_ble_estimate_cache: the
 * set-up's and the exchange's slots, and the memo's own last estimate):
 * pqpan_ble_estimate_pqke_cached / _lesc_cached and the _memo functions give, field for
 * field, what the plain estimator gives, over grids where one memo serves configurations
 * of every PHY, LL size, ATT_MTU, interval, KEM, transfer, protocol, side, event rule,
 * set-up variant and device timing, so every hit reuses a set-up or an exchange computed
 * for another configuration, and slots are overwritten many times. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ble.h"
#include "pqpan/defaults.h"
#include "pqpan/sig.h"

/* The memo's counters, through the public accessor (its layout is private). */
static struct pqpan_ble_estimate_cache_stats stats_of(const struct pqpan_ble_estimate_cache *cache)
{
    struct pqpan_ble_estimate_cache_stats st;
    pqpan_ble_estimate_cache_stats(&st, cache);
    return st;
}
#include "pqpan/kem.h"
#include "pqpan/pqke.h"

/* Two device timings differing in every field. */
static const struct pqpan_ble_device devs[2] = {
    {64000000u, 256000u, 40000u, 60000u, 60000u, 50u, 32000u},
    {48000000u, 400000u, 130000u, 90000u, 80000u, 100u, 50000u},
};
static const uint64_t cycles[PQPAN_OP_COUNT] = {988722, 1138225, 1387984, 253000, 327000, 906000};

/* --transfer choice t (pqpan_ble_transfer_choice: each method on both GATT roles, the
 * study's preset, then the SERVER/CLIENT pairs) into cfg. */
static void set_choice(struct pqpan_ble_config *cfg, int t)
{
    assert_non_null(pqpan_ble_transfer_choice((unsigned)t, &cfg->server_transfer,
                                              &cfg->client_transfer));
}

/* Method t on both GATT roles (the model before issue 27 item 3). */
static void both_transfers(struct pqpan_ble_config *cfg, enum pqpan_ble_transfer t)
{
    cfg->server_transfer = t;
    cfg->client_transfer = t;
}

/* Every output field of the two estimates is equal (the ledgers and counts hold only
 * uint64_t, so memcmp compares their fields and nothing else). */
static void assert_same(const struct pqpan_ble_estimate *a, const struct pqpan_ble_estimate *b)
{
    int i;
    for (i = 0; i < 2; i++) {
        assert_memory_equal(&a->ledger[i], &b->ledger[i], sizeof a->ledger[i]);
        assert_memory_equal(&a->bits[i], &b->bits[i], sizeof a->bits[i]);
    }
    assert_memory_equal(&a->counts, &b->counts, sizeof a->counts);
    assert_int_equal(a->ll_octets_eff, b->ll_octets_eff);
    assert_int_equal(a->latency_ns, b->latency_ns);
    assert_int_equal(a->setup_ns, b->setup_ns);
    assert_memory_equal(a->span_ns, b->span_ns, sizeof a->span_ns);
}

/* The memo's own estimate against the plain one: the same return code, and on success
 * the same fields (on an error no estimate). */
static void assert_memo_same(int rc, const struct pqpan_ble_estimate *memo,
                             const struct pqpan_ble_estimate *plain)
{
    if (rc != PQPAN_OK) {
        assert_null(memo);
        return;
    }
    assert_non_null(memo);
    assert_same(plain, memo);
}

/* cfg through the plain and the cached estimator (PQKE and LE SC), compared; then the
 * memo's own estimate (the PQKE right after LE SC on the same set-up, so only the
 * exchange is rewritten; LE SC again, an exchange hit on a rewritten estimate). */
static void check(const struct pqpan_ble_config *cfg, const struct pqpan_ble_device *dev,
                  struct pqpan_ble_estimate_cache *cache)
{
    static struct pqpan_ble_estimate plain, cached, plain_lesc;
    const struct pqpan_ble_estimate *memo;
    int rc;
    memset(&cached, 0xA5, sizeof cached); /* nothing left over may show through */
    assert_int_equal(pqpan_ble_estimate_pqke(&plain, cfg, dev, cycles),
                     pqpan_ble_estimate_pqke_cached(&cached, cfg, dev, cycles, cache));
    assert_same(&plain, &cached);
    memset(&cached, 0x5A, sizeof cached);
    assert_int_equal(pqpan_ble_estimate_lesc(&plain_lesc, cfg, dev, cycles),
                     pqpan_ble_estimate_lesc_cached(&cached, cfg, dev, cycles, cache));
    assert_same(&plain_lesc, &cached);
    rc = pqpan_ble_estimate_pqke_memo(&memo, cfg, dev, cycles, cache);
    assert_int_equal(rc, pqpan_ble_estimate_pqke(&plain, cfg, dev, cycles));
    assert_memo_same(rc, memo, &plain);
    rc = pqpan_ble_estimate_lesc_memo(&memo, cfg, dev, cycles, cache);
    assert_int_equal(rc, PQPAN_OK);
    assert_memo_same(rc, memo, &plain_lesc);
}

/* Variant v: the event rules of test_ble.c's fingerprint (default; same-event replies;
 * short events with a pair cap; encrypted pqpan protocol with a connMaxTxTime limit), then
 * one set-up input changed at a time: no advertising; no feature exchange; no discovery;
 * no connection update; an opening interval equal to the exchange's; another advertising
 * interval; then pqpan's kem-auth mode; the bits accounting's per-PDU T_IFS; the central
 * as the GATT server (the peripheral runs the MTU exchange and the discovery). Variants are
 * the innermost loop, so a set-up input missing from the key would hand one variant the
 * set-up of the one before. */
#define N_VARIANTS 13
static void variant(struct pqpan_ble_config *cfg, int v)
{
    cfg->same_event_reply = v == 1;
    cfg->event_len_ns = v == 2 ? 2500000u : 0u;
    cfg->max_pairs = v == 2 ? 4u : 0u;
    cfg->encrypted = v == 3;
    cfg->protocol = v == 3 || v == 10 ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
    cfg->max_tx_time_us = v == 3 ? 1000u : 0u;
    cfg->adv_interval_ns = v == 4   ? 0u
                           : v == 9 ? 1000000000u
                                    : pqpan_default_ms_ns(PQPAN_DEFAULT_ADV_INTERVAL_MS);
    cfg->features = v != 5;
    cfg->discovery = v != 6;
    cfg->conn_update = v != 7;
    cfg->idle_ci_ns = v == 8 ? cfg->ci_ns : pqpan_default_ms_ns(PQPAN_DEFAULT_INITIAL_CI_MS);
    cfg->pqke_mode = v == 10 ? PQPAN_PQKE_MODE_KEM_AUTH : PQPAN_PQKE_MODE_NONE;
    cfg->bits_ifs = v == 11 ? PQPAN_BLE_BITS_IFS_PER_PDU_SENT : PQPAN_BLE_BITS_IFS_EACH;
    cfg->gatt_server = v == 12 ? PQPAN_BLE_CENTRAL : PQPAN_BLE_PERIPHERAL;
}

/* KEM × PHY × LL × ATT_MTU × interval × transfer × keygen side × variant, one memo for all
 * (its slots overwritten many times: more distinct set-ups than slots). LL 27/28 and
 * ATT_MTU 23/24 straddle the key's two thresholds. */
static void test_cached_equals_plain_cross(void **state)
{
    static const uint32_t lls[] = {27, 28, 251};
    static const uint32_t mtus[] = {23, 24, 517};
    static const uint64_t cis[] = {7500000u, 100000000u, 4000000000u};
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_config cfg;
    size_t k, l, m, c;
    int p, t, s, v;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    for (k = 0; k < PQPAN_KEM_COUNT; k++)
        for (p = 0; p < PQPAN_BLE_PHY_COUNT; p++)
            for (l = 0; l < sizeof lls / sizeof lls[0]; l++)
                for (m = 0; m < sizeof mtus / sizeof mtus[0]; m++)
                    for (c = 0; c < sizeof cis / sizeof cis[0]; c++)
                        for (t = 0; t < (int)PQPAN_BLE_TRANSFER_CHOICES; t++)
                            for (s = 0; s < 2; s++)
                                for (v = 0; v < N_VARIANTS; v++) {
                                    cfg.ek_bytes = (uint32_t)pqpan_kem_at(k)->ek_bytes;
                                    cfg.ct_bytes = (uint32_t)pqpan_kem_at(k)->ct_bytes;
                                    cfg.phy = (enum pqpan_ble_phy)p;
                                    cfg.ll_octets = lls[l];
                                    cfg.att_mtu = mtus[m];
                                    cfg.ci_ns = cis[c];
                                    set_choice(&cfg, t);
                                    cfg.keygen_side = (enum pqpan_ble_role)s;
                                    variant(&cfg, v);
                                    check(&cfg, &devs[0], cache);
                                }
    /* both ways through the memo were taken, and far more often hits; the exchange's
     * slots were overwritten (more distinct exchanges than slots) and hit too */
    assert_true(stats_of(cache).misses > stats_of(cache).setup_slots);
    assert_true(stats_of(cache).hits > 10u * stats_of(cache).misses);
    assert_true(stats_of(cache).exchange_misses > stats_of(cache).exchange_slots);
    assert_true(stats_of(cache).exchange_hits > stats_of(cache).exchange_misses);
    free(cache);
}

/* Device timings that differ from devs[0] in one field each, innermost, over a smaller
 * grid: a device field missing from the key would hand one device another's set-up. */
static void test_cached_equals_plain_devices(void **state)
{
    static const uint64_t cis[] = {7500000u, 100000000u};
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_device d[8];
    struct pqpan_ble_config cfg;
    size_t c;
    int p, t, s, i;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    for (i = 0; i < 8; i++) {
        d[i] = devs[0];
    }
    d[1].cpu_hz = devs[1].cpu_hz;
    d[2].hfxo_start_ns = devs[1].hfxo_start_ns;
    d[3].ramp_ns = devs[1].ramp_ns;
    d[4].pre_ns = devs[1].pre_ns;
    d[5].post_ns = devs[1].post_ns;
    d[6].sca_ppm = devs[1].sca_ppm;
    d[7].rx_margin_ns = devs[1].rx_margin_ns;
    pqpan_ble_config_default(&cfg);
    cfg.ll_octets = 251;
    for (p = 0; p < PQPAN_BLE_PHY_COUNT; p++)
        for (c = 0; c < sizeof cis / sizeof cis[0]; c++)
            for (t = 0; t < (int)PQPAN_BLE_TRANSFER_CHOICES; t++)
                for (s = 0; s < 2; s++)
                    for (i = 0; i < 8; i++) {
                        cfg.phy = (enum pqpan_ble_phy)p;
                        cfg.ci_ns = cis[c];
                        set_choice(&cfg, t);
                        cfg.keygen_side = (enum pqpan_ble_role)s;
                        check(&cfg, &d[i], cache);
                    }
    assert_true(stats_of(cache).hits > 0u);
    free(cache);
}

/* Every LL size 27..251 on every PHY and transfer, with and without encryption (and
 * pqpan's protocol with it): configuration i of the grid, LL varying fastest. */
static void test_cached_equals_plain_ll(void **state)
{
    const uint32_t n_ll = PQPAN_LL_DATA_MAX_PAYLOAD - PQPAN_LL_DATA_MIN_PAYLOAD + 1u;
    const uint32_t n = n_ll * 2u * PQPAN_BLE_TRANSFER_CHOICES * PQPAN_BLE_PHY_COUNT;
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_config cfg;
    uint32_t i;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    cfg.att_mtu = 517;
    for (i = 0; i < n; i++) {
        uint32_t rest = i / n_ll;
        cfg.ll_octets = PQPAN_LL_DATA_MIN_PAYLOAD + i % n_ll;
        cfg.encrypted = (int)(rest % 2u);
        cfg.protocol = cfg.encrypted ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
        set_choice(&cfg, (int)(rest / 2u % PQPAN_BLE_TRANSFER_CHOICES));
        cfg.phy = (enum pqpan_ble_phy)(rest / 2u / PQPAN_BLE_TRANSFER_CHOICES);
        check(&cfg, &devs[0], cache);
    }
    free(cache);
}

/* What the key holds: a set-up is reused across KEM, transfer, keygen side, protocol and LL
 * sizes above 27; a new interval, PHY, LL 27 or another device is a new set-up. */
static void test_cache_key(void **state)
{
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_estimate e;
    struct pqpan_ble_config cfg;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    cfg.ll_octets = 251;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    assert_int_equal(stats_of(cache).misses, 1);
    cfg.ek_bytes = PQPAN_MLKEM512_EK_BYTES;
    cfg.ct_bytes = PQPAN_MLKEM512_CT_BYTES;
    both_transfers(&cfg, PQPAN_BLE_NOTIFY);
    cfg.keygen_side = PQPAN_BLE_CENTRAL;
    cfg.protocol = PQPAN_BLE_PROTO_PQPAN;
    cfg.ll_octets = 100;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_lesc_cached(&e, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    assert_int_equal(stats_of(cache).hits, 2);
    cfg.ci_ns = 60000000u;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    cfg.phy = PQPAN_BLE_PHY_2M;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    cfg.ll_octets = 27;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[1], cycles, cache), PQPAN_OK);
    assert_int_equal(stats_of(cache).hits, 2);
    assert_int_equal(stats_of(cache).misses, 5);
    /* a configuration out of range is refused before the memo, with *out zeroed */
    cfg.att_mtu = 22;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, cache),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(e.latency_ns, 0);
    assert_int_equal(stats_of(cache).hits + stats_of(cache).misses, 7);
    /* without a memo the cached functions are the plain ones */
    cfg.att_mtu = 247;
    assert_int_equal(pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[0], cycles, NULL), PQPAN_OK);
    free(cache);
}

/* An empty memo (malloc'd; the caller frees it) and the default configuration at ATT_MTU
 * 517 and LL 251, where every message's PDUs are the largest. */
static struct pqpan_ble_estimate_cache *new_memo_large_pdus(struct pqpan_ble_config *cfg)
{
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(cfg);
    cfg->att_mtu = 517;
    cfg->ll_octets = 251;
    return cache;
}

/* The memo's own estimate over a grid swept twice, as a sweep runs its inner grid once per
 * value of an energy option (--tx-dbm: the estimator's inputs repeat) and per profile
 * (another device timing), each pass with the devices alternating innermost so that
 * neighbours share no slot: every estimate equals the plain one, whether the memo has
 * it, had it and lost it to another key, or never had it. */
static void test_memo_repeated_grid(void **state)
{
    static const uint64_t cis[] = {7500000u, 45000000u};
    static struct pqpan_ble_estimate plain;
    struct pqpan_ble_config cfg;
    struct pqpan_ble_estimate_cache *cache = new_memo_large_pdus(&cfg);
    const struct pqpan_ble_estimate *memo;
    size_t k, c;
    int pass, p, t, s, d, rc;
    (void)state;
    for (pass = 0; pass < 2; pass++)
        for (k = 0; k < PQPAN_KEM_COUNT; k++)
            for (p = 0; p < PQPAN_BLE_PHY_COUNT; p++)
                for (c = 0; c < sizeof cis / sizeof cis[0]; c++)
                    for (t = 0; t < (int)PQPAN_BLE_TRANSFER_CHOICES; t++)
                        for (s = 0; s < 2; s++)
                            for (d = 0; d < 2; d++) {
                                cfg.ek_bytes = (uint32_t)pqpan_kem_at(k)->ek_bytes;
                                cfg.ct_bytes = (uint32_t)pqpan_kem_at(k)->ct_bytes;
                                cfg.phy = (enum pqpan_ble_phy)p;
                                cfg.ci_ns = cis[c];
                                set_choice(&cfg, t);
                                cfg.keygen_side = (enum pqpan_ble_role)s;
                                rc = pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[d], cycles,
                                                                  cache);
                                assert_int_equal(rc, pqpan_ble_estimate_pqke(&plain, &cfg,
                                                                             &devs[d], cycles));
                                assert_memo_same(rc, memo, &plain);
                            }
    assert_true(stats_of(cache).exchange_misses + stats_of(cache).exchange_mirrors > stats_of(cache).exchange_slots);
    assert_true(stats_of(cache).exchange_hits > 0u);
    assert_true(stats_of(cache).exchange_mirrors > 0u);
    free(cache);
}

/* What the exchange's key holds: the set-up's inputs do not enter it (another advertising
 * interval, no feature exchange: an exchange hit on a new set-up), nor does the transfer
 * beyond the PDUs it sends (write-cmd after notify: a hit), nor the cycles of operations
 * the exchange does not run (the study's protocol runs no KDF); the keygen side, the
 * interval and a device field do; the LL size only where it cuts a PDU. */
static void test_exchange_key(void **state)
{
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_estimate plain;
    const struct pqpan_ble_estimate *memo;
    struct pqpan_ble_config cfg;
    struct pqpan_ble_device dev = devs[0];
    uint64_t cyc[PQPAN_OP_COUNT];
    (void)state;
    assert_non_null(cache);
    memcpy(cyc, cycles, sizeof cyc);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    cfg.protocol = PQPAN_BLE_PROTO_STUDY;
    both_transfers(&cfg, PQPAN_BLE_NOTIFY);
    cfg.ci_ns = 75000000u; /* each computation ends before the next event (none suspended) */
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    cfg.adv_interval_ns = 1000000000u;
    cfg.features = 0;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    both_transfers(&cfg, PQPAN_BLE_WRITE_CMD);
    cyc[PQPAN_OP_KDF] = 12345u;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_pqke(&plain, &cfg, &dev, cyc), PQPAN_OK);
    assert_same(&plain, memo);
    assert_int_equal(stats_of(cache).misses, 2);
    assert_int_equal(stats_of(cache).exchange_misses, 1);
    assert_int_equal(stats_of(cache).exchange_hits, 2);
    /* the keygen side flipped: every message fits one event and no computation meets an
     * event, so the timeline is the same whoever sends, and the memo mirrors the other
     * side's exchange */
    cfg.keygen_side = PQPAN_BLE_CENTRAL;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_pqke(&plain, &cfg, &dev, cyc), PQPAN_OK);
    assert_same(&plain, memo);
    assert_int_equal(stats_of(cache).exchange_mirrors, 1);
    cfg.ci_ns = 60000000u;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    dev.rx_margin_ns++;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_pqke(&plain, &cfg, &dev, cyc), PQPAN_OK);
    assert_same(&plain, memo);
    assert_int_equal(stats_of(cache).exchange_misses, 3);
    assert_int_equal(stats_of(cache).exchange_hits, 2);
    /* ATT_MTU 23: every LL size above 27 carries each L2CAP PDU whole, so LL 100 takes
     * LL 251's exchange (and keeps its own ll_octets_eff); LE SC's exchange is the same
     * for every KEM, transfer and keygen side */
    cfg.att_mtu = 23;
    both_transfers(&cfg, PQPAN_BLE_NOTIFY);
    cfg.ll_octets = 251;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    cfg.ll_octets = 100;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_pqke(&plain, &cfg, &dev, cyc), PQPAN_OK);
    assert_same(&plain, memo);
    assert_int_equal(memo->ll_octets_eff, 100);
    assert_int_equal(stats_of(cache).exchange_misses, 4);
    assert_int_equal(stats_of(cache).exchange_hits, 3);
    assert_int_equal(pqpan_ble_estimate_lesc_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    both_transfers(&cfg, PQPAN_BLE_LONG_WRITE);
    cfg.keygen_side = PQPAN_BLE_PERIPHERAL;
    cfg.ek_bytes = PQPAN_MLKEM1024_EK_BYTES;
    assert_int_equal(pqpan_ble_estimate_lesc_memo(&memo, &cfg, &dev, cyc, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_lesc(&plain, &cfg, &dev, cyc), PQPAN_OK);
    assert_same(&plain, memo);
    assert_int_equal(stats_of(cache).exchange_misses, 5);
    assert_int_equal(stats_of(cache).exchange_hits, 4);
    assert_int_equal(stats_of(cache).exchange_mirrors, 1);
    /* a configuration whose messages do not fit: an error and no estimate */
    both_transfers(&cfg, PQPAN_BLE_STUDY);
    cfg.att_mtu = 247;
    cfg.ek_bytes = PQPAN_MLKEM768_EK_BYTES;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &dev, cyc, cache),
                     PQPAN_ERR_INVALID_ARG);
    assert_null(memo);
    free(cache);
}

/* A call that differs from the last one only in its keygen side or transfer takes over
 * the last one's checks (estimate_memo.h struct pqpan_ble_last_call): a side or transfer out of range
 * is still refused there, with no estimate, and the call after it is answered as the
 * plain estimator answers it. */
static void test_last_call_checks_side(void **state)
{
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_estimate plain;
    const struct pqpan_ble_estimate *memo;
    struct pqpan_ble_config cfg;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    cfg.keygen_side = (enum pqpan_ble_role)2;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cycles, cache),
                     PQPAN_ERR_INVALID_ARG);
    assert_null(memo);
    cfg.keygen_side = PQPAN_BLE_CENTRAL;
    both_transfers(&cfg, PQPAN_BLE_TRANSFER_COUNT);
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cycles, cache),
                     PQPAN_ERR_INVALID_ARG);
    assert_null(memo);
    cfg.server_transfer = PQPAN_BLE_NOTIFY; /* the study's preset on the client only */
    cfg.client_transfer = PQPAN_BLE_STUDY;
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cycles, cache),
                     PQPAN_ERR_INVALID_ARG);
    assert_null(memo);
    both_transfers(&cfg, PQPAN_BLE_NOTIFY);
    assert_int_equal(pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cycles, cache), PQPAN_OK);
    assert_int_equal(pqpan_ble_estimate_pqke(&plain, &cfg, &devs[0], cycles), PQPAN_OK);
    assert_same(&plain, memo);
    assert_int_equal(stats_of(cache).misses, 1); /* one set-up: every call took over the first's */
    free(cache);
}

/* Every cycle count an exchange reads is in its key: for the study's protocol, each
 * implemented PQKE mode and LE SC, the memo holds the exchange of the base cycles, then
 * each operation's cycles change in turn (the others back at the base): the estimate
 * stays the plain one's, so no change is answered from the memo's old slot. */
static void test_exchange_key_cycles(void **state)
{
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_estimate plain;
    const struct pqpan_ble_estimate *memo;
    struct pqpan_ble_config cfg;
    uint64_t cyc[PQPAN_OP_COUNT];
    unsigned mode;
    int op, lesc, rc;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    cfg.pqke_sig = PQPAN_SIG_MLDSA65; /* the sig modes' set; the other modes ignore it */
    for (mode = 0; mode <= PQPAN_PQKE_MODE_NUMERIC + 1u; mode++) {
        lesc = mode == PQPAN_PQKE_MODE_NUMERIC + 1u;
        cfg.protocol = mode == 0 ? PQPAN_BLE_PROTO_STUDY : PQPAN_BLE_PROTO_PQPAN;
        cfg.pqke_mode = mode == 0 || lesc ? PQPAN_PQKE_MODE_NONE : mode;
        if (cfg.protocol == PQPAN_BLE_PROTO_PQPAN && !pqpan_pqke_mode_implemented(cfg.pqke_mode)) {
            continue;
        }
        for (op = 0; op < PQPAN_OP_COUNT; op++) {
            memcpy(cyc, cycles, sizeof cyc);
            rc = lesc ? pqpan_ble_estimate_lesc_memo(&memo, &cfg, &devs[0], cyc, cache)
                      : pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cyc, cache);
            assert_int_equal(rc, PQPAN_OK);
            cyc[op] += 100000u;
            rc = lesc ? pqpan_ble_estimate_lesc_memo(&memo, &cfg, &devs[0], cyc, cache)
                      : pqpan_ble_estimate_pqke_memo(&memo, &cfg, &devs[0], cyc, cache);
            assert_int_equal(rc, PQPAN_OK);
            assert_int_equal(lesc ? pqpan_ble_estimate_lesc(&plain, &cfg, &devs[0], cyc)
                                  : pqpan_ble_estimate_pqke(&plain, &cfg, &devs[0], cyc),
                             PQPAN_OK);
            assert_same(&plain, memo);
        }
    }
    free(cache);
}

/* The memo's own estimate of configuration cfg against the plain estimator's. */
static void check_memo(const struct pqpan_ble_config *cfg, const struct pqpan_ble_device *dev,
                       const uint64_t cyc[PQPAN_OP_COUNT], struct pqpan_ble_estimate_cache *cache)
{
    static struct pqpan_ble_estimate plain;
    const struct pqpan_ble_estimate *memo;
    int rc = pqpan_ble_estimate_pqke_memo(&memo, cfg, dev, cyc, cache);
    assert_int_equal(rc, pqpan_ble_estimate_pqke(&plain, cfg, dev, cyc));
    assert_memo_same(rc, memo, &plain);
}

/* make bench's grid (bench/bench_estimate.c: device × protocol × KEM × PHY × LL 27..251:8
 * × ATT_MTU 23, 247, 403, 517 × interval 7.5..150:7.5 ms × transfer × keygen side, the
 * last fastest), sampled: every 97th of its blocks of one (device, protocol, KEM, PHY, LL,
 * ATT_MTU), each block whole (20 intervals × transfers × sides, in the bench's order, so
 * the memo hits, mirrors and misses as in the bench). One memo for the whole sample. */
#define GRID_LL 29u
#define GRID_CI 20u
#define GRID_BLOCK_STRIDE 97u
static void test_memo_bench_grid_sample(void **state)
{
    static const uint32_t mtus[] = {23, 247, 403, 517};
    const uint32_t blocks = 2u * 2u * PQPAN_KEM_COUNT * PQPAN_BLE_PHY_COUNT * GRID_LL * 4u;
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_config cfg;
    uint32_t b, c;
    int t, s;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    for (b = 0; b < blocks; b += GRID_BLOCK_STRIDE) {
        uint32_t r = b;
        const struct pqpan_kem *kem;
        size_t d;
        cfg.att_mtu = mtus[r % 4u];
        r /= 4u;
        cfg.ll_octets = 27u + 8u * (r % GRID_LL);
        r /= GRID_LL;
        cfg.phy = (enum pqpan_ble_phy)(r % PQPAN_BLE_PHY_COUNT);
        r /= PQPAN_BLE_PHY_COUNT;
        kem = pqpan_kem_at(r % PQPAN_KEM_COUNT);
        cfg.ek_bytes = (uint32_t)kem->ek_bytes;
        cfg.ct_bytes = (uint32_t)kem->ct_bytes;
        r /= PQPAN_KEM_COUNT;
        cfg.protocol = r % 2u ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
        d = r / 2u;
        for (c = 0; c < GRID_CI; c++)
            for (t = 0; t < (int)PQPAN_BLE_TRANSFER_CHOICES; t++)
                for (s = 0; s < 2; s++) {
                    cfg.ci_ns = 7500000u * (c + 1u);
                    set_choice(&cfg, t);
                    cfg.keygen_side = (enum pqpan_ble_role)s;
                    check_memo(&cfg, &devs[d], cycles, cache);
                }
    }
    assert_true(stats_of(cache).exchange_hits > 0u);
    assert_true(stats_of(cache).exchange_mirrors > 0u);
    assert_true(stats_of(cache).exchange_misses + stats_of(cache).exchange_mirrors > stats_of(cache).exchange_hits);
    free(cache);
}

/* The edges of the link model through the memo: an event budget that holds exactly one
 * PDU pair (pqpan_ble_config_pair_ns, the shortest event pqpan_ble_config_fault accepts)
 * and one nanosecond more; ATT_MTU 23 with LL 27; LE Coded S8; the shortest interval,
 * 7.5 ms; for each transfer, keygen side and protocol, encrypted or not. */
static void test_memo_edges(void **state)
{
    static const uint32_t lls[] = {27, 251};
    static const uint32_t mtus[] = {23, 517};
    struct pqpan_ble_estimate_cache *cache = malloc(sizeof *cache);
    struct pqpan_ble_config cfg;
    size_t l, m;
    int p, slack, t, s, proto;
    (void)state;
    assert_non_null(cache);
    pqpan_ble_estimate_cache_init(cache);
    pqpan_ble_config_default(&cfg);
    cfg.ci_ns = PQPAN_BLE_CI_MIN_NS;
    for (p = 0; p < PQPAN_BLE_PHY_COUNT; p++)
        for (l = 0; l < 2; l++)
            for (m = 0; m < 2; m++)
                for (slack = 0; slack < 3; slack++)
                    for (proto = 0; proto < 2; proto++)
                        for (t = 0; t < (int)PQPAN_BLE_TRANSFER_CHOICES; t++)
                            for (s = 0; s < 2; s++) {
                                cfg.phy = (enum pqpan_ble_phy)p;
                                cfg.ll_octets = lls[l];
                                cfg.att_mtu = mtus[m];
                                cfg.protocol = proto ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
                                cfg.encrypted = proto;
                                set_choice(&cfg, t);
                                cfg.keygen_side = (enum pqpan_ble_role)s;
                                cfg.event_len_ns = 0u;
                                if (slack < 2) {
                                    cfg.event_len_ns = pqpan_ble_config_pair_ns(&cfg) + (uint64_t)slack;
                                }
                                if (cfg.event_len_ns <= cfg.ci_ns) {
                                    check_memo(&cfg, &devs[0], cycles, cache);
                                }
                            }
    assert_true(stats_of(cache).exchange_hits > 0u);
    free(cache);
}

/* The memo's work slot (the steps and message sizes of pqpan's protocol) follows the mode,
 * the ML-DSA set and the hybrid flag: each changes innermost, between the study's and
 * pqpan's protocol and the KEM levels, so a stale slot would hand one configuration the
 * work of the one before. */
static void test_memo_work_slot(void **state)
{
    struct pqpan_ble_config cfg;
    struct pqpan_ble_estimate_cache *cache = new_memo_large_pdus(&cfg);
    unsigned mode, sig;
    size_t k;
    int hybrid, t;
    (void)state;
    for (t = 0; t < (int)PQPAN_BLE_TRANSFER_CHOICES; t++)
        for (k = 0; k < PQPAN_KEM_COUNT; k++)
            for (sig = PQPAN_SIG_MLDSA44; sig <= PQPAN_SIG_MLDSA87; sig++)
                for (hybrid = 0; hybrid < 2; hybrid++)
                    for (mode = 0; mode <= PQPAN_PQKE_MODE_NUMERIC; mode++) {
                        set_choice(&cfg, t);
                        cfg.ek_bytes = (uint32_t)pqpan_kem_at(k)->ek_bytes;
                        cfg.ct_bytes = (uint32_t)pqpan_kem_at(k)->ct_bytes;
                        cfg.pqke_sig = sig;
                        cfg.pqke_hybrid = hybrid;
                        cfg.protocol = mode == 0 ? PQPAN_BLE_PROTO_STUDY : PQPAN_BLE_PROTO_PQPAN;
                        cfg.pqke_mode = mode == 0 ? PQPAN_PQKE_MODE_NONE : mode;
                        check_memo(&cfg, &devs[k % 2u], cycles, cache);
                    }
    free(cache);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memo_bench_grid_sample),
        cmocka_unit_test(test_memo_edges),
        cmocka_unit_test(test_memo_work_slot),
        cmocka_unit_test(test_exchange_key_cycles),
        cmocka_unit_test(test_last_call_checks_side),
        cmocka_unit_test(test_exchange_key),
        cmocka_unit_test(test_memo_repeated_grid),
        cmocka_unit_test(test_cache_key),
        cmocka_unit_test(test_cached_equals_plain_ll),
        cmocka_unit_test(test_cached_equals_plain_cross),
        cmocka_unit_test(test_cached_equals_plain_devices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
