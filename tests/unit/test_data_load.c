/* Tests for the CLI's data loaders (cli/data_load.h): built-in profiles and cycle tables,
 * users' files, malformed files (tests/fixtures/), and energy from the built-in data
 * against hand-computed values. */
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "cli.h"
#include "data_load.h"
#include "pqpan/energy.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static void test_every_builtin_profile_loads(void **state)
{
    char err[DATA_ERR_MAX], name[64];
    size_t i, n = data_profile_builtin_count();
    (void)state;
    assert_true(n >= 3);
    for (i = 0; i < n; i++) {
        struct pqpan_profile p;
        const char *nm = data_profile_builtin_name(i, name, sizeof name);
        assert_non_null(nm);
        if (data_profile_load(&p, nm, err, sizeof err) != EXIT_OK) {
            fail_msg("%s: %s", nm, err);
        }
        assert_string_equal(p.name, nm);
        assert_int_equal(pqpan_profile_check(&p), PQPAN_OK);
    }
}

/* The nRF52840 figures of DESIGN.md, system-level and radio-only kept apart. */
static void test_nrf52840_figures(void **state)
{
    struct pqpan_profile p;
    char err[DATA_ERR_MAX];
    double ua;
    (void)state;
    assert_int_equal(data_profile_load(&p, DATA_DEFAULT_PROFILE, err, sizeof err), EXIT_OK);
    assert_true(p.supply_v == 3.0);
    assert_int_equal(p.cpu_hz, 64000000);
    assert_true(p.cpu_ua == 3300.0);
    assert_int_equal(p.cpu_radio_given, 1);
    assert_true(p.cpu_tx_ua == 8100.0 && p.cpu_rx_ua == 8600.0);
    assert_int_equal(p.ramp_fast_ns, 40000);
    assert_int_equal(p.ramp_normal_ns, 140000);
    assert_int_equal(pqpan_profile_tx_ua(&p, PQPAN_CURRENTS_SYSTEM, 0, &ua), PQPAN_OK);
    assert_true(ua == 6400.0);
    assert_int_equal(pqpan_profile_tx_ua(&p, PQPAN_CURRENTS_RADIO_ONLY, 0, &ua), PQPAN_OK);
    assert_true(ua == 4800.0);
    assert_int_equal(pqpan_profile_rx_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_BLE_1M, &ua),
                     PQPAN_OK);
    assert_true(ua == 6260.0);
    assert_int_equal(pqpan_profile_rx_ua(&p, PQPAN_CURRENTS_RADIO_ONLY, PQPAN_RADIO_BLE_1M, &ua),
                     PQPAN_OK);
    assert_true(ua == 4600.0);
    assert_int_equal(pqpan_profile_rx_ua(&p, PQPAN_CURRENTS_RADIO_ONLY, PQPAN_RADIO_BLE_2M, &ua),
                     PQPAN_OK);
    assert_true(ua == 5200.0);
    /* derived: radio-only RX 2M + (system - radio-only) at 1M = 5.2 + 6.26 - 4.6 mA */
    assert_int_equal(pqpan_profile_rx_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_BLE_2M, &ua),
                     PQPAN_OK);
    assert_true(fabs(ua - (5200.0 + 6260.0 - 4600.0)) < 1e-9);
    /* S140 SDS tSlaveNominalWindow: 16 + 16 us of fixed margin per side */
    assert_int_equal(p.ble_event.rx_margin_ns, 32000);
    assert_int_equal(p.ble_event.pre_ns, 40000 + 18000);
    assert_int_equal(p.ble_event.post_ns, 90000 + 30000);
}

/* Every built-in profile prices all four PHYs on its system table at 0 dBm (through
 * derived figures where the datasheet has no row), with the connection-event figures. */
static void test_builtin_profiles_price_every_phy(void **state)
{
    static const enum pqpan_radio_mode modes[] = {PQPAN_RADIO_BLE_1M, PQPAN_RADIO_BLE_2M,
                                                  PQPAN_RADIO_BLE_CODED};
    size_t i, m, n = data_profile_builtin_count();
    (void)state;
    assert_true(n >= 3);
    for (i = 0; i < n; i++) {
        struct pqpan_profile p;
        char err[DATA_ERR_MAX], name[64];
        assert_int_equal(data_profile_load(&p, data_profile_builtin_name(i, name, sizeof name),
                                           err, sizeof err),
                         EXIT_OK);
        for (m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            const struct pqpan_energy_opts o = {modes[m], PQPAN_CURRENTS_SYSTEM, 0};
            double ua;
            int st;
            for (st = 0; st < PQPAN_STATE_COUNT; st++) {
                assert_int_equal(pqpan_energy_state_ua(&ua, &p, &o, (enum pqpan_state)st),
                                 PQPAN_OK);
                assert_true(ua > 0.0);
            }
        }
    }
}

/* The derived figures of a profile are collected with their path, value and derivation. */
static void test_derived_figures_collected(void **state)
{
    struct profile_derived_list *d = malloc(sizeof *d);
    struct data_text t;
    char err[DATA_ERR_MAX];
    size_t i, dropped;
    int seen_2m = 0;
    (void)state;
    assert_non_null(d);
    assert_int_equal(data_profile_text(&t, "nrf52840", err, sizeof err), EXIT_OK);
    profile_derived_collect(d, &dropped, t.text, t.len);
    data_text_free(&t);
    assert_int_equal(dropped, 0);
    assert_true(d->count >= 5);
    for (i = 0; i < d->count; i++) {
        assert_true(d->item[i].how[0] != '\0');
        if (strcmp(d->item[i].path, "currents.system.rx_ua.ble_2m") == 0) {
            seen_2m = 1;
            assert_true(d->item[i].value == 6860.0);
            assert_non_null(strstr(d->item[i].how, "radio-only RX 2M"));
        }
    }
    assert_true(seen_2m);
    free(d);
}

/* The nRF52840's 802.15.4 section: PS v1.7 §5.2 IRADIO_TX5 6.40 mA, IRADIO_RX2 6.53 mA,
 * tTXEN,FAST / tTXEN in 802.15.4 mode 40 / 130 µs, the radio listening when idle and in
 * backoff; each with its source. */
static void test_nrf52840_802154_section(void **state)
{
    struct pqpan_profile p;
    struct data_802154_sources *src = malloc(sizeof *src);
    char err[DATA_ERR_MAX];
    double ua;
    (void)state;
    assert_non_null(src);
    assert_int_equal(data_profile_load_sourced(&p, src, "nrf52840", err, sizeof err), EXIT_OK);
    assert_int_equal(pqpan_profile_tx_mode_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_IEEE802154,
                                              0, &ua),
                     PQPAN_OK);
    assert_true(ua == 6400.0);
    assert_int_equal(pqpan_profile_rx_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_IEEE802154, &ua),
                     PQPAN_OK);
    assert_true(ua == 6530.0);
    assert_int_equal(pqpan_profile_tx_mode_ua(&p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_IEEE802154,
                                              8, &ua),
                     PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_profile_rx_ua(&p, PQPAN_CURRENTS_RADIO_ONLY, PQPAN_RADIO_IEEE802154,
                                         &ua),
                     PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(p.ieee802154.ramp_tx_fast_ns, 40000);
    assert_int_equal(p.ieee802154.ramp_tx_normal_ns, 130000);
    assert_int_equal(p.ieee802154.idle_rx, 1);
    assert_int_equal(p.ieee802154.backoff_rx, 1);
    assert_non_null(strstr(src->tx[PQPAN_CURRENTS_SYSTEM][0], "IRADIO_TX5"));
    assert_non_null(strstr(src->rx[PQPAN_CURRENTS_SYSTEM], "IRADIO_RX2"));
    assert_non_null(strstr(src->ramp_tx_fast, "tTXEN,FAST,IEEE 802.15.4"));
    assert_non_null(strstr(src->backoff, "nrf_802154_csma_ca.c"));
    assert_non_null(strstr(src->idle, "csma.c"));
    free(src);
}

/* One {"value", "source"} number of the section, read with cJSON here (not the loader). */
static double json_number(const cJSON *sec, const char *key, const char *sub, int *given)
{
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(sec, key);
    const cJSON *v;
    if (sub != NULL) {
        o = cJSON_GetObjectItemCaseSensitive(o, sub);
    }
    v = cJSON_GetObjectItemCaseSensitive(o, "value");
    *given = cJSON_IsNumber(v);
    return *given ? v->valuedouble : 0.0;
}

static void check_section_read_back(const struct pqpan_profile *p, const cJSON *sec)
{
    static const char *const tables[PQPAN_CURRENT_TABLE_COUNT] = {"system", "radio_only"};
    int t, given;
    double x;
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        const cJSON *e;
        x = json_number(sec, "rx_ua", tables[t], &given);
        assert_int_equal(p->rx_given[t][PQPAN_RADIO_IEEE802154], given);
        assert_true(p->rx_ua[t][PQPAN_RADIO_IEEE802154] == x);
        cJSON_ArrayForEach(e, cJSON_GetObjectItemCaseSensitive(
                                  cJSON_GetObjectItemCaseSensitive(sec, "tx_ua"), tables[t]))
        {
            const cJSON *v = cJSON_GetObjectItemCaseSensitive(e, "value");
            int dbm = cJSON_GetObjectItemCaseSensitive(e, "dbm")->valueint;
            double ua;
            int rc = pqpan_profile_tx_mode_ua(p, (enum pqpan_current_table)t,
                                              PQPAN_RADIO_IEEE802154, dbm, &ua);
            assert_int_equal(rc, cJSON_IsNumber(v) ? PQPAN_OK : PQPAN_ERR_UNSUPPORTED);
            assert_true(ua == (cJSON_IsNumber(v) ? v->valuedouble : 0.0));
        }
    }
    x = json_number(sec, "ramp_tx_fast_us", NULL, &given);
    assert_int_equal(p->ieee802154.ramp_tx_fast_ns, (uint32_t)(x * 1000.0));
    x = json_number(sec, "ramp_tx_normal_us", NULL, &given);
    assert_int_equal(p->ieee802154.ramp_tx_normal_ns, (uint32_t)(x * 1000.0));
    assert_int_equal(p->ieee802154.idle_rx,
                     strcmp(cJSON_GetObjectItemCaseSensitive(
                                cJSON_GetObjectItemCaseSensitive(sec, "idle"), "value")
                                ->valuestring,
                            "rx") == 0);
    assert_int_equal(p->ieee802154.backoff_rx,
                     strcmp(cJSON_GetObjectItemCaseSensitive(
                                cJSON_GetObjectItemCaseSensitive(sec, "backoff"), "value")
                                ->valuestring,
                            "rx") == 0);
    x = json_number(sec, "wake_cpu_us", NULL, &given);
    assert_int_equal(p->ieee802154.wake_cpu_given, given);
    assert_int_equal(p->ieee802154.wake_cpu_ns, (uint32_t)(x * 1000.0));
}

/* Every built-in profile and the minimal fixture: the loaded section equals the JSON. */
static void test_802154_section_reads_back(void **state)
{
    char err[DATA_ERR_MAX], name[64];
    size_t i, n = data_profile_builtin_count();
    (void)state;
    for (i = 0; i <= n; i++) {
        const char *nm = i < n ? data_profile_builtin_name(i, name, sizeof name)
                               : FIXTURES "profiles/minimal.json";
        struct data_text t;
        struct pqpan_profile p;
        cJSON *doc;
        assert_int_equal(data_profile_text(&t, nm, err, sizeof err), EXIT_OK);
        assert_int_equal(data_profile_parse(&p, t.text, t.len, t.origin, err, sizeof err),
                         EXIT_OK);
        doc = cJSON_ParseWithLength(t.text, t.len);
        assert_non_null(doc);
        check_section_read_back(&p, cJSON_GetObjectItemCaseSensitive(doc, "ieee802154"));
        cJSON_Delete(doc);
        data_text_free(&t);
    }
}

static void test_user_profile_file(void **state)
{
    struct pqpan_profile p;
    char err[DATA_ERR_MAX];
    (void)state;
    assert_int_equal(data_profile_load(&p, FIXTURES "profiles/minimal.json", err, sizeof err),
                     EXIT_OK);
    assert_string_equal(p.name, "minimal");
    assert_int_equal(p.cpu_radio_given, 0);
    assert_int_equal(p.tx_level_count, 1);
    assert_int_equal(p.hfxo_start_ns, 400000);
    assert_int_equal(p.ble_event.pre_ns, 0);
    assert_int_equal(p.ble_event.rx_margin_ns, 32000);
    assert_true(p.ble_event.ramp_ua[PQPAN_CURRENTS_SYSTEM] == 5000.0);
    assert_int_equal(p.ble_event.ramp_given[PQPAN_CURRENTS_RADIO_ONLY], 0);
    /* its ieee802154 section: idle sleeps, backoff listens, one 0 dBm level of 5900 µA */
    assert_int_equal(p.ieee802154.idle_rx, 0);
    assert_int_equal(p.ieee802154.backoff_rx, 1);
    assert_int_equal(p.ieee802154.tx_level_count, 2);
    assert_int_equal(p.ieee802154.ramp_tx_normal_ns, 0);
    assert_int_equal(p.ieee802154.wake_cpu_ns, 100000);
    assert_int_equal(p.ieee802154.wake_cpu_given, 1);
}

/* Each malformed file fails with exit 3 and a message naming the file and the field. */
static void test_malformed_profiles(void **state)
{
    static const struct {
        const char *file, *field;
    } cases[] = {
        {"bad_negative.json", "sleep_ua"},
        {"bad_string.json", "cpu_ua"},
        {"bad_missing_field.json", "hfxo_start_us"},
        {"bad_no_source.json", "currents.system.tx_ua[0]"},
        {"bad_unknown_field.json", "cpu_mA"},
        {"bad_format.json", "format"},
        {"bad_null_required.json", "supply_v"},
        {"bad_one_cpu_radio.json", "cpu_tx_ua"},
        {"bad_zero_current.json", "currents.system.rx_ua.ble_1m"},
        {"bad_no_radio.json", "currents"},
        {"bad_dup_tx.json", "currents.system.tx_ua[1]"},
        {"bad_truncated.json", "(file)"},
        {"bad_no_section.json", "ieee802154"},
        {"bad_section_state.json", "ieee802154.idle"},
        {"bad_section_tx.json", "ieee802154.tx_ua.system[0]"},
        {"bad_section_no_source.json", "ieee802154.backoff"},
        {"bad_section_old_rx.json", "currents.system.rx_ua.ieee802154"},
        {"bad_section_unknown.json", "ieee802154.tx_dbm"},
        {"bad_section_zero_rx.json", "ieee802154.rx_ua.system"},
        {"bad_huge_current.json", "ieee802154.rx_ua.system"}, /* 1e308 uA: inf energies */
        {"bad_section_wake_cpu.json", "ieee802154.wake_cpu_us"},
        {"bad_section_no_wake_cpu.json", "ieee802154.wake_cpu_us"},
        {"bad_no_ble_event.json", "ble_event"},
        {"bad_ble_event_unknown.json", "ble_event.pre_ms"},
        {"bad_ble_event_zero.json", "ble_event.ramp_ua.system"},
        {"bad_ble_event_null.json", "ble_event.post_ua"},
        {"bad_derived_empty.json", "sleep_ua"},
        {"bad_figure_member.json", "cpu_ua"},
        /* plausibility limits, not only range: 1e-300 V, 5 kA, 2 A, 5000 ppm */
        {"bad_tiny_supply.json", "supply_v"},
        {"bad_huge_cpu_current.json", "cpu_ua"},
        {"bad_huge_tx_current.json", "currents.system.tx_ua[0]"},
        {"bad_sca_ppm.json", "sca_ppm"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pqpan_profile p;
        char path[512], err[DATA_ERR_MAX];
        snprintf(path, sizeof path, FIXTURES "profiles/%s", cases[i].file);
        memset(&p, 0xA5, sizeof p);
        if (data_profile_load(&p, path, err, sizeof err) != EXIT_BAD_INPUT) {
            fail_msg("%s: accepted", cases[i].file);
        }
        if (strstr(err, cases[i].file) == NULL || strstr(err, cases[i].field) == NULL) {
            fail_msg("%s: message does not name file and field '%s': %s", cases[i].file,
                     cases[i].field, err);
        }
        assert_int_equal(p.cpu_hz, 0);
    }
}

static void test_profile_names_and_paths(void **state)
{
    struct pqpan_profile p;
    char err[DATA_ERR_MAX];
    (void)state;
    assert_int_equal(data_profile_load(&p, "nosuchchip", err, sizeof err), EXIT_USAGE);
    assert_non_null(strstr(err, "nrf52840"));
    assert_int_equal(data_profile_load(&p, FIXTURES "profiles/absent.json", err, sizeof err),
                     EXIT_IO);
}

static void test_calibration_overlay(void **state)
{
    struct pqpan_gamma g;
    char err[DATA_ERR_MAX];
    (void)state;
    pqpan_gamma_default(&g);
    assert_int_equal(data_gamma_load(&g, FIXTURES "calibration/good.json", err, sizeof err),
                     EXIT_OK);
    assert_true(g.comp[PQPAN_OP_KEM_KEYGEN] == 1.41);
    assert_true(g.comp[PQPAN_OP_KEM_DECAPS] == 1.5);
    assert_true(g.comp[PQPAN_OP_KEM_ENCAPS] == 1.37); /* default kept */
    assert_true(g.comm == 1.13);
}

static void test_malformed_calibrations(void **state)
{
    static const struct {
        const char *file, *field;
    } cases[] = {
        {"bad_no_provenance.json", "provenance.source"},
        {"bad_negative.json", "gamma_comm"},
        {"bad_unknown_op.json", "gamma_comp.keygen"},
        {"bad_string.json", "gamma_comp.kdf"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pqpan_gamma g;
        char path[512], err[DATA_ERR_MAX];
        snprintf(path, sizeof path, FIXTURES "calibration/%s", cases[i].file);
        pqpan_gamma_default(&g);
        if (data_gamma_load(&g, path, err, sizeof err) != EXIT_BAD_INPUT) {
            fail_msg("%s: accepted", cases[i].file);
        }
        if (strstr(err, cases[i].file) == NULL || strstr(err, cases[i].field) == NULL) {
            fail_msg("%s: message does not name '%s': %s", cases[i].file, cases[i].field, err);
        }
    }
}

static struct pqpan_cycle_table table;

/* Values straight from data/cycles/ (pqm4 commit cc2c1b99, Emill/P256-Cortex-M4 README). */
/* Both pqpan M4 builds have a row for every ML-KEM level and operation (--crypto-impl
 * pqpan-m4 and pqpan-m4-asm), and the assembly backend is never the slower. */
static void kem_rows_of_both_m4_builds(void)
{
    static const char *const kems[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
    static const enum pqpan_op ops[] = {PQPAN_OP_KEM_KEYGEN, PQPAN_OP_KEM_ENCAPS, PQPAN_OP_KEM_DECAPS};
    for (size_t k = 0; k < 3; k++) {
        for (size_t o = 0; o < 3; o++) {
            uint64_t portable, backend;
            assert_int_equal(pqpan_cycles_lookup(&table, kems[k], "pqpan-m4", ops[o], &portable), PQPAN_OK);
            assert_int_equal(pqpan_cycles_lookup(&table, kems[k], "pqpan-m4-asm", ops[o], &backend), PQPAN_OK);
            assert_true(backend > 0 && backend < portable);
        }
    }
}

static void test_builtin_cycles(void **state)
{
    char err[DATA_ERR_MAX];
    uint64_t c;
    (void)state;
    if (data_cycles_load_builtin(&table, err, sizeof err) != EXIT_OK) {
        fail_msg("%s", err);
    }
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-KEM-768", "clean", PQPAN_OP_KEM_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 988722);
    assert_int_equal(
        pqpan_cycles_lookup(&table, "ML-KEM-768", "m4fspeed", PQPAN_OP_KEM_DECAPS, &c), PQPAN_OK);
    assert_int_equal(c, 707827);
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-KEM-1024", "m4fstack", PQPAN_OP_KEM_ENCAPS,
                                         &c),
                     PQPAN_OK);
    assert_int_equal(c, 1037953);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 327000);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_SHARED, &c),
                     PQPAN_OK);
    assert_int_equal(c, 906000);
    assert_int_equal(pqpan_cycles_lookup(&table, "X25519", NULL, PQPAN_OP_ECDH_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 548873);
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-KEM-768", "clean", PQPAN_OP_KDF, &c),
                     PQPAN_OK);
    assert_int_equal(c, 253000); /* estimate: 23 permutations x 11000 */
    /* ML-DSA rows (pqm4 means; signing is the mean over its benchmark's messages) */
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-DSA-44", "m4fstack", PQPAN_OP_SIG_SIGN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 12134284);
    assert_int_equal(pqpan_cycles_lookup(&table, "ml-dsa-87", "clean", PQPAN_OP_SIG_VERIFY, &c),
                     PQPAN_OK);
    assert_int_equal(c, 5610203);
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-DSA-65", "m4f", PQPAN_OP_SIG_KEYGEN, &c),
                     PQPAN_OK);
    assert_int_equal(c, 2516006);
    /* pqpan's own rows (make bench-m4; their values move with the code) */
    assert_int_equal(pqpan_cycles_lookup(&table, "ML-DSA-44", "pqpan-m4", PQPAN_OP_SIG_SIGN, &c),
                     PQPAN_OK);
    assert_true(c > 0);
    kem_rows_of_both_m4_builds();
}

static void test_cycles_csv_file(void **state)
{
    struct data_text t;
    char err[DATA_ERR_MAX];
    const struct pqpan_cycle_row *r;
    (void)state;
    memset(&table, 0, sizeof table);
    assert_int_equal(data_read_file(&t, FIXTURES "cycles/good.csv", err, sizeof err), EXIT_OK);
    assert_int_equal(data_cycles_parse(&table, t.text, t.len, t.origin, err, sizeof err), EXIT_OK);
    data_text_free(&t);
    assert_int_equal(table.count, 4); /* the ECDSA row is skipped */
    r = pqpan_cycles_find(&table, "ML-DSA-44", "mine", PQPAN_OP_SIG_KEYGEN);
    assert_non_null(r);
    assert_int_equal(r->cycles, 999);
    r = pqpan_cycles_find(&table, "ml-kem-768", "MINE", PQPAN_OP_KEM_KEYGEN);
    assert_non_null(r);
    assert_int_equal(r->cycles, 123456);
    assert_int_equal(r->stack_bytes, 100);
    assert_string_equal(r->source, "good.csv");
    r = pqpan_cycles_find(&table, "ML-KEM-768", "mine", PQPAN_OP_KEM_DECAPS);
    assert_non_null(r);
    assert_int_equal(r->code_bytes, 0);
}

static void test_malformed_cycles(void **state)
{
    static const struct {
        const char *file, *where;
    } cases[] = {
        {"bad_number.csv", "line 2: cycles"},
        {"bad_fields.csv", "line 2"},
        {"bad_quote.csv", "line 3"},
        {"bad_header.csv", "line 1"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct data_text t;
        char path[512], err[DATA_ERR_MAX];
        snprintf(path, sizeof path, FIXTURES "cycles/%s", cases[i].file);
        memset(&table, 0, sizeof table);
        assert_int_equal(data_read_file(&t, path, err, sizeof err), EXIT_OK);
        if (data_cycles_parse(&table, t.text, t.len, t.origin, err, sizeof err) !=
            EXIT_BAD_INPUT) {
            fail_msg("%s: accepted", cases[i].file);
        }
        data_text_free(&t);
        if (strstr(err, cases[i].file) == NULL || strstr(err, cases[i].where) == NULL) {
            fail_msg("%s: message does not say '%s': %s", cases[i].file, cases[i].where, err);
        }
        assert_int_equal(table.count, 0);
    }
}

/* LE Secure Connections crypto per side on the nRF52840 with default γ, by hand:
 * (327 000 + 906 000) cycles / 64 MHz = 19.265625 ms; × 3 V × 3300 µA = 190.7296875 µJ;
 * × γ_comp 1.12 = 213.6172500 µJ. */
static void test_lesc_baseline_crypto_energy(void **state)
{
    struct pqpan_profile p;
    struct pqpan_gamma g;
    struct pqpan_ledger l;
    struct pqpan_energy e;
    const struct pqpan_energy_opts o = {PQPAN_RADIO_BLE_1M, PQPAN_CURRENTS_SYSTEM, 0};
    char err[DATA_ERR_MAX];
    uint64_t keygen, shared;
    double got;
    (void)state;
    assert_int_equal(data_profile_load(&p, "nrf52840", err, sizeof err), EXIT_OK);
    assert_int_equal(data_cycles_load_builtin(&table, err, sizeof err), EXIT_OK);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_KEYGEN, &keygen),
                     PQPAN_OK);
    assert_int_equal(pqpan_cycles_lookup(&table, "P-256", NULL, PQPAN_OP_ECDH_SHARED, &shared),
                     PQPAN_OK);
    pqpan_gamma_default(&g);
    pqpan_ledger_init(&l);
    pqpan_ledger_add_op(&l, PQPAN_OP_ECDH_KEYGEN, keygen);
    pqpan_ledger_add_op(&l, PQPAN_OP_ECDH_SHARED, shared);
    assert_int_equal(pqpan_energy_compute(&e, &l, &p, &o, &g), PQPAN_OK);
    got = e.comp_uj;
    if (got < 213.61725 - 1e-6 || got > 213.61725 + 1e-6) {
        fail_msg("LESC crypto energy %.9f µJ, want 213.61725", got);
    }
}

static struct data_energy_inputs inputs;

static void test_energy_inputs(void **state)
{
    char err[DATA_ERR_MAX];
    uint64_t c;
    (void)state;
    assert_int_equal(data_energy_inputs_load(&inputs, NULL, NULL, NULL, err, sizeof err), EXIT_OK);
    assert_string_equal(inputs.profile.name, "nrf52840");
    assert_string_equal(inputs.crypto_impl, "clean");
    assert_true(inputs.gamma.comm == 1.15);
    assert_int_equal(data_energy_inputs_load(&inputs, FIXTURES "profiles/minimal.json",
                                             FIXTURES "calibration/good.json", "m4fstack", err,
                                             sizeof err),
                     EXIT_OK);
    assert_string_equal(inputs.profile.name, "minimal");
    assert_true(inputs.gamma.comm == 1.13);
    assert_int_equal(pqpan_cycles_lookup(&inputs.cycles, "ML-KEM-512", inputs.crypto_impl,
                                         PQPAN_OP_KEM_DECAPS, &c),
                     PQPAN_OK);
    assert_int_equal(c, 430202);
    assert_int_equal(data_energy_inputs_load(&inputs, NULL, NULL, "fastest", err, sizeof err),
                     EXIT_USAGE);
    assert_non_null(strstr(err, "fastest"));
    assert_int_equal(data_energy_inputs_load(&inputs, NULL, FIXTURES "calibration/bad_negative.json",
                                             NULL, err, sizeof err),
                     EXIT_BAD_INPUT);
}

/* A directory is 'is a directory' (EXIT_IO), never 'out of memory'; a file over the
 * limit is refused before it is read. */
static void test_read_file_limits(void **state)
{
    struct data_text t;
    char err[DATA_ERR_MAX];
    (void)state;
    assert_int_equal(data_read_file(&t, FIXTURES "profiles", err, sizeof err), EXIT_IO);
    assert_non_null(strstr(err, "is a directory"));
    assert_null(t.owned);
    assert_int_equal(data_read_file_max(&t, FIXTURES "profiles/minimal.json", 100, err, sizeof err),
                     EXIT_IO);
    assert_non_null(strstr(err, "larger than 100 bytes"));
    assert_int_equal(data_read_file_max(&t, FIXTURES "profiles/minimal.json", 1u << 20, err,
                                        sizeof err),
                     EXIT_OK);
    assert_true(t.len > 100 && t.text[t.len] == '\0');
    data_text_free(&t);
    assert_int_equal(data_read_file(&t, FIXTURES "no/such/file", err, sizeof err), EXIT_IO);
    assert_non_null(strstr(err, "cannot open"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_builtin_profile_loads),
        cmocka_unit_test(test_nrf52840_figures),
        cmocka_unit_test(test_builtin_profiles_price_every_phy),
        cmocka_unit_test(test_derived_figures_collected),
        cmocka_unit_test(test_read_file_limits),
        cmocka_unit_test(test_nrf52840_802154_section),
        cmocka_unit_test(test_802154_section_reads_back),
        cmocka_unit_test(test_user_profile_file),
        cmocka_unit_test(test_malformed_profiles),
        cmocka_unit_test(test_profile_names_and_paths),
        cmocka_unit_test(test_calibration_overlay),
        cmocka_unit_test(test_malformed_calibrations),
        cmocka_unit_test(test_builtin_cycles),
        cmocka_unit_test(test_cycles_csv_file),
        cmocka_unit_test(test_malformed_cycles),
        cmocka_unit_test(test_lesc_baseline_crypto_energy),
        cmocka_unit_test(test_energy_inputs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
