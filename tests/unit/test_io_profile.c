/* Tests for libpqpan-io's device profiles (src/io/load/profile.c, data.c, profile_walk.c):
 * the built-in profiles by name, users' files by path, documents in memory, their figures
 * and sources, and every error path: malformed and implausible files (tests/fixtures/
 * profiles/), a directory, a file over the cap, an unknown built-in name, NULL arguments. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <cjson/cJSON.h>

#include "pqpan/ble.h"
#include "pqpan/energy.h"
#include "pqpan/defaults.h"
#include "pqpan/io.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static void test_every_builtin_profile_loads(void **state)
{
    char err[PQPAN_IO_ERR_MAX], name[64];
    size_t i, n = pqpan_io_profile_builtin_count();
    (void)state;
    assert_true(n >= 3);
    for (i = 0; i < n; i++) {
        struct pqpan_profile p;
        const char *nm = pqpan_io_profile_builtin_name(i, name, sizeof name);
        assert_non_null(nm);
        if (pqpan_io_profile_load(&p, NULL, nm, err, sizeof err) != PQPAN_OK) {
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
    char err[PQPAN_IO_ERR_MAX];
    double ua;
    (void)state;
    assert_int_equal(
        pqpan_io_profile_load(&p, NULL, pqpan_default_value(PQPAN_DEFAULT_PROFILE), err, sizeof err),
        PQPAN_OK);
    assert_true(p.supply_v == 3.0);
    /* supply section: VDD 1.7..3.6 V, DC/DC active, LDO sleep, ION_RAMOFF_RTC / ION_RAMON_RTC */
    assert_int_equal(p.supply.given, 1);
    assert_true(p.supply.min_v == 1.7 && p.supply.max_v == 3.6);
    assert_int_equal(p.supply.active_dcdc, 1);
    assert_int_equal(p.supply.sleep_dcdc, 0);
    assert_int_equal(p.supply.ram_points, 2);
    assert_true(p.supply.ram_kb[0] == 0.0 && p.supply.ram_sleep_ua[0] == 1.50);
    assert_true(p.supply.ram_kb[1] == 256.0 && p.supply.ram_sleep_ua[1] == p.sleep_ua);
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
/* The built-in nRF52840's BLE timing as the estimator takes it: the figures of
 * data/profiles/nrf52840.json (cpu_hz 64 MHz, hfxo_start_us 1400, ramp_fast_us 40,
 * ramp_normal_us 140, sca_ppm 50) and its ble_event phases; NULL refused. */
static void test_ble_device_from_profile(void **state)
{
    struct pqpan_profile p;
    struct pqpan_ble_device fast, normal;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(
        pqpan_io_profile_load(&p, NULL, pqpan_default_value(PQPAN_DEFAULT_PROFILE), err, sizeof err),
        PQPAN_OK);
    assert_int_equal(pqpan_ble_device_from_profile(&fast, &p, 0), PQPAN_OK);
    assert_int_equal(pqpan_ble_device_from_profile(&normal, &p, 1), PQPAN_OK);
    assert_int_equal(fast.cpu_hz, 64000000);
    assert_int_equal(fast.hfxo_start_ns, 1400000);
    assert_int_equal(fast.ramp_ns, 40000);
    assert_int_equal(normal.ramp_ns, 140000);
    assert_int_equal(fast.sca_ppm, 50);
    assert_int_equal(fast.pre_ns, p.ble_event.pre_ns);
    assert_int_equal(fast.post_ns, p.ble_event.post_ns);
    assert_int_equal(fast.rx_margin_ns, p.ble_event.rx_margin_ns);
    assert_true(fast.pre_ns > 0 && fast.post_ns > 0);
    assert_int_equal(pqpan_ble_device_from_profile(NULL, &p, 0), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_ble_device_from_profile(&fast, NULL, 0), PQPAN_ERR_INVALID_ARG);
}

static void test_builtin_profiles_price_every_phy(void **state)
{
    static const enum pqpan_radio_mode modes[] = {PQPAN_RADIO_BLE_1M, PQPAN_RADIO_BLE_2M,
                                                  PQPAN_RADIO_BLE_CODED};
    size_t i, m, n = pqpan_io_profile_builtin_count();
    (void)state;
    assert_true(n >= 3);
    for (i = 0; i < n; i++) {
        struct pqpan_profile p;
        char err[PQPAN_IO_ERR_MAX], name[64];
        assert_int_equal(pqpan_io_profile_load(&p, NULL, pqpan_io_profile_builtin_name(i, name, sizeof name),
                                           err, sizeof err),
                         PQPAN_OK);
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
    struct pqpan_io_derived_list *d = malloc(sizeof *d);
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    size_t i;
    int seen_2m = 0;
    (void)state;
    assert_non_null(d);
    assert_int_equal(pqpan_io_profile_text(&t, "nrf52840", err, sizeof err), PQPAN_OK);
    assert_int_equal(pqpan_io_profile_derived(d, t.text, t.len, t.origin, err, sizeof err),
                     PQPAN_OK);
    pqpan_io_text_free(&t);
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

/* Which nRF52840 connection-event phase figure stands on another chip's: each of these is
 * read back with the chip it comes from, and no other figure of the profile names one
 * (issue 32 item 5). The phase times are pinned to their sources: pre 58 us = S132 SDS
 * RadioPrepare 40 + RadioStart 18 us, post 120 us = PostProcessing 90 + RadioProcessing
 * 30 us, crystal lead 1400 us = NCS MPSL_HFCLK_LATENCY default outside the nRF54L, fixed RX
 * margin 32 us = S140 SDS 16 + 16 us. */
static void test_nrf52840_other_chip_figures(void **state)
{
    static const struct {
        const char *path, *chip;
    } want[] = {
        {"hfxo_start_ua", "nRF54L"},
        {"ble_event.pre_us", "nRF52832"},
        {"ble_event.post_us", "nRF52832"},
        {"ble_event.ramp_ua.system", "nRF5340"},
        {"ble_event.ramp_ua.radio_only", "nRF5340"},
    };
    struct pqpan_io_derived_list *d = malloc(sizeof *d);
    struct pqpan_io_text t;
    struct pqpan_profile p;
    char err[PQPAN_IO_ERR_MAX];
    size_t i, k, named = 0;
    (void)state;
    assert_non_null(d);
    assert_int_equal(pqpan_io_profile_text(&t, "nrf52840", err, sizeof err), PQPAN_OK);
    assert_int_equal(pqpan_io_profile_derived(d, t.text, t.len, t.origin, err, sizeof err),
                     PQPAN_OK);
    pqpan_io_text_free(&t);
    for (i = 0; i < d->count; i++) {
        const char *chip = NULL;
        for (k = 0; k < sizeof want / sizeof want[0]; k++) {
            if (strcmp(d->item[i].path, want[k].path) == 0) {
                chip = want[k].chip;
            }
        }
        if (chip == NULL) {
            assert_string_equal(d->item[i].other_chip, "");
            continue;
        }
        named++;
        assert_non_null(strstr(d->item[i].other_chip, chip));
        assert_non_null(strstr(d->item[i].other_chip, "no nRF52840 figure found"));
    }
    assert_int_equal(named, sizeof want / sizeof want[0]);
    free(d);
    assert_int_equal(pqpan_io_profile_load(&p, NULL, "nrf52840", err, sizeof err), PQPAN_OK);
    assert_int_equal(p.ble_event.pre_ns, (40u + 18u) * 1000u);
    assert_int_equal(p.ble_event.post_ns, (90u + 30u) * 1000u);
    assert_int_equal(p.hfxo_start_ns, 1400u * 1000u);
    assert_int_equal(p.ble_event.rx_margin_ns, (16u + 16u) * 1000u);
}

/* "other_chip" is a figure member: non-empty text, or the profile is refused. */
static void test_other_chip_member_checked(void **state)
{
    static const char good[] = "{\"x\": {\"value\": 1, \"source\": \"s\", "
                               "\"other_chip\": \"chip Y: no X figure found\"}}";
    struct pqpan_io_derived_list *d = malloc(sizeof *d);
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_non_null(d);
    assert_int_equal(pqpan_io_profile_derived(d, good, sizeof good - 1, "g.json", err, sizeof err),
                     PQPAN_OK);
    assert_int_equal(d->count, 1);
    assert_string_equal(d->item[0].path, "x");
    assert_string_equal(d->item[0].how, "");
    assert_string_equal(d->item[0].other_chip, "chip Y: no X figure found");
    free(d);
}

/* The nRF52840's 802.15.4 section: PS v1.7 §5.2 IRADIO_TX5 6.40 mA, IRADIO_RX2 6.53 mA,
 * tTXEN,FAST / tTXEN in 802.15.4 mode 40 / 130 µs, the radio listening when idle and in
 * backoff; each with its source. */
static void test_nrf52840_802154_section(void **state)
{
    struct pqpan_profile p;
    struct pqpan_io_802154_sources *src = malloc(sizeof *src);
    char err[PQPAN_IO_ERR_MAX];
    double ua;
    (void)state;
    assert_non_null(src);
    assert_int_equal(pqpan_io_profile_load(&p, src, "nrf52840", err, sizeof err), PQPAN_OK);
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
    char err[PQPAN_IO_ERR_MAX], name[64];
    size_t i, n = pqpan_io_profile_builtin_count();
    (void)state;
    for (i = 0; i <= n; i++) {
        const char *nm = i < n ? pqpan_io_profile_builtin_name(i, name, sizeof name)
                               : FIXTURES "profiles/minimal.json";
        struct pqpan_io_text t;
        struct pqpan_profile p;
        cJSON *doc;
        assert_int_equal(pqpan_io_profile_text(&t, nm, err, sizeof err), PQPAN_OK);
        assert_int_equal(pqpan_io_profile_parse(&p, NULL, t.text, t.len, t.origin, err, sizeof err),
                         PQPAN_OK);
        doc = cJSON_ParseWithLength(t.text, t.len);
        assert_non_null(doc);
        check_section_read_back(&p, cJSON_GetObjectItemCaseSensitive(doc, "ieee802154"));
        cJSON_Delete(doc);
        pqpan_io_text_free(&t);
    }
}

static void test_user_profile_file(void **state)
{
    struct pqpan_profile p;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_profile_load(&p, NULL, FIXTURES "profiles/minimal.json", err, sizeof err),
                     PQPAN_OK);
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

/* Each malformed file fails with PQPAN_ERR_MALFORMED (the CLI's exit 3) and a message
 * naming the file and the field; the profile is zeroed. */
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
        {"bad_other_chip_empty.json", "sleep_ua"},
        {"bad_figure_member.json", "cpu_ua"},
        /* plausibility limits, not only range: 1e-300 V, 5 kA, 2 A, 5000 ppm */
        {"bad_tiny_supply.json", "supply_v"},
        {"bad_huge_cpu_current.json", "cpu_ua"},
        {"bad_huge_tx_current.json", "currents.system.tx_ua[0]"},
        {"bad_sca_ppm.json", "sca_ppm"},
        /* the supply section: supply_v outside its range, a regulator word, retention points */
        {"bad_supply_range.json", "supply"},
        {"bad_supply_regulator.json", "supply.active"},
        {"bad_supply_ram_order.json", "supply.sleep_ram_ua[1]"},
        {"bad_supply_unknown.json", "supply.sleep_mode"},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pqpan_profile p;
        char path[512], err[PQPAN_IO_ERR_MAX];
        snprintf(path, sizeof path, FIXTURES "profiles/%s", cases[i].file);
        memset(&p, 0xA5, sizeof p);
        if (pqpan_io_profile_load(&p, NULL, path, err, sizeof err) != PQPAN_ERR_MALFORMED) {
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
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_profile_load(&p, NULL, "nosuchchip", err, sizeof err), PQPAN_ERR_NOT_FOUND);
    assert_non_null(strstr(err, "nrf52840"));
    assert_int_equal(pqpan_io_profile_load(&p, NULL, FIXTURES "profiles/absent.json", err, sizeof err),
                     PQPAN_ERR_IO);
}

/* The three ways in: a built-in by name, a file by path, a document in memory; all give
 * the same struct for the same bytes. */
static void test_builtin_file_and_memory_agree(void **state)
{
    static struct pqpan_profile a, b, c;
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_profile_load_builtin(&a, NULL, "nrf52840", err, sizeof err),
                     PQPAN_OK);
    assert_int_equal(pqpan_io_profile_load_file(&b, NULL, PQPAN_SOURCE_DIR
                                                 "/data/profiles/nrf52840.json", err, sizeof err),
                     PQPAN_OK);
    assert_int_equal(pqpan_io_profile_text(&t, "nrf52840", err, sizeof err), PQPAN_OK);
    assert_string_equal(t.origin, "data/profiles/nrf52840.json (built in)");
    assert_null(t.owned);
    assert_int_equal(pqpan_io_profile_parse(&c, NULL, t.text, t.len, "mem", err, sizeof err),
                     PQPAN_OK);
    pqpan_io_text_free(&t);
    assert_memory_equal(&a, &b, sizeof a);
    assert_memory_equal(&a, &c, sizeof a);
}

/* load_builtin never reads a file, load_file never takes a built-in name. */
static void test_builtin_and_file_kept_apart(void **state)
{
    struct pqpan_profile p;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_profile_load_builtin(&p, NULL, FIXTURES "profiles/minimal.json",
                                                   err, sizeof err),
                     PQPAN_ERR_NOT_FOUND);
    assert_non_null(strstr(err, "built-in profiles: "));
    assert_non_null(strstr(err, "nrf52840"));
    assert_int_equal(pqpan_io_profile_load_file(&p, NULL, "nrf52840", err, sizeof err),
                     PQPAN_ERR_IO);
    assert_non_null(strstr(err, "nrf52840: cannot open"));
    assert_int_equal(pqpan_io_profile_load_builtin(&p, NULL, "", err, sizeof err),
                     PQPAN_ERR_NOT_FOUND);
}

static void test_directory_and_oversize(void **state)
{
    char path[] = "/tmp/pqpan_io_profile_XXXXXX";
    struct pqpan_profile p;
    char err[PQPAN_IO_ERR_MAX];
    int fd;
    (void)state;
    memset(&p, 0xA5, sizeof p);
    assert_int_equal(pqpan_io_profile_load(&p, NULL, FIXTURES "profiles", err, sizeof err),
                     PQPAN_ERR_IO);
    assert_non_null(strstr(err, "profiles: is a directory"));
    assert_int_equal(p.cpu_hz, 0);
    assert_int_equal(pqpan_io_profile_load_file(&p, NULL, FIXTURES "profiles", err, sizeof err),
                     PQPAN_ERR_IO);
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)PQPAN_IO_SMALL_FILE_MAX + 1), 0);
    close(fd);
    assert_int_equal(pqpan_io_profile_load(&p, NULL, path, err, sizeof err), PQPAN_ERR_IO);
    unlink(path);
    assert_non_null(strstr(err, "larger than 1048576 bytes: not read"));
}

/* A document in memory needs no NUL; its origin names it in messages. */
static void test_parse_from_memory(void **state)
{
    static const char text[] = "{\"format\": \"pqpan-profile/1\"}trailing";
    struct pqpan_profile p;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_profile_parse(&p, NULL, text, 30, "buffer", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_string_equal(err, "buffer: name: missing or not a string");
    assert_int_equal(pqpan_io_profile_parse(&p, NULL, "[1]", 3, "buffer", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_string_equal(err, "buffer: (file): not a JSON object");
    assert_int_equal(pqpan_io_profile_parse(NULL, NULL, "{}", 2, "b", err, sizeof err),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_profile_parse(&p, NULL, NULL, 0, "b", err, sizeof err),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_profile_load(&p, NULL, NULL, err, sizeof err),
                     PQPAN_ERR_INVALID_ARG);
}

/* A number cJSON would take but the grammar refuses ("03", "3."), named with its line. */
static void test_number_grammar_in_profiles(void **state)
{
    struct pqpan_io_text t;
    struct pqpan_profile p;
    char err[PQPAN_IO_ERR_MAX], *text;
    char *at;
    (void)state;
    assert_int_equal(pqpan_io_profile_text(&t, "nrf52840", err, sizeof err), PQPAN_OK);
    text = malloc(t.len + 1);
    assert_non_null(text);
    memcpy(text, t.text, t.len + 1);
    at = strstr(text, "\"supply_v\": {\"value\": 3.0");
    assert_non_null(at);
    memcpy(at + strlen("\"supply_v\": {\"value\": "), "03 ", 3);
    assert_int_equal(pqpan_io_profile_parse(&p, NULL, text, t.len, "z.json", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_non_null(strstr(err, "z.json: line 6: number '03' is not a JSON number"));
    assert_int_equal(p.cpu_hz, 0);
    free(text);
    pqpan_io_text_free(&t);
}

static void test_builtin_names(void **state)
{
    char buf[64], tiny[4];
    size_t n = pqpan_io_profile_builtin_count();
    (void)state;
    assert_true(n >= 3);
    assert_ptr_equal(pqpan_io_profile_builtin_name(0, buf, sizeof buf), buf);
    assert_string_equal(buf, "cc2340r5"); /* file-name order: data/profiles/cc2340r5.json first */
    assert_null(pqpan_io_profile_builtin_name(n, buf, sizeof buf));
    assert_null(pqpan_io_profile_builtin_name(0, tiny, sizeof tiny)); /* does not fit */
    assert_null(pqpan_io_profile_builtin_name(0, NULL, 64));
}

/* The walk visits every figure in file order with its path and source. */
struct walked {
    size_t count, derived;
    int saw_tx0, saw_idle;
};

static void walk_one(const struct pqpan_io_figure *f, void *ctx)
{
    struct walked *w = ctx;
    w->count++;
    w->derived += f->derived != NULL;
    if (strcmp(f->path, "currents.system.tx_ua.0dbm") == 0) {
        w->saw_tx0 = f->given && f->value == 6400.0 && f->source[0] != '\0';
    }
    if (strcmp(f->path, "ieee802154.idle") == 0) {
        w->saw_idle = f->text != NULL && strcmp(f->text, "rx") == 0;
    }
}

static void test_walk_figures(void **state)
{
    struct pqpan_io_text t;
    struct walked w = {0, 0, 0, 0};
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_profile_text(&t, "nrf52840", err, sizeof err), PQPAN_OK);
    assert_int_equal(pqpan_io_profile_walk(t.text, t.len, walk_one, &w), PQPAN_OK);
    pqpan_io_text_free(&t);
    assert_true(w.count > 30);
    assert_true(w.derived >= 5);
    assert_true(w.saw_tx0 && w.saw_idle);
    assert_int_equal(pqpan_io_profile_walk("nope", 4, walk_one, &w), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_io_profile_walk("{}", 2, NULL, &w), PQPAN_ERR_INVALID_ARG);
}

/* More derived figures than the list holds: PQPAN_ERR_CAPACITY naming the file. */
static void test_too_many_derived(void **state)
{
    static struct pqpan_io_derived_list d;
    char text[16384], err[PQPAN_IO_ERR_MAX];
    size_t len = 0;
    int i;
    (void)state;
    len += (size_t)snprintf(text + len, sizeof text - len, "{");
    for (i = 0; i <= PQPAN_IO_DERIVED_MAX; i++) {
        len += (size_t)snprintf(text + len, sizeof text - len,
                                "%s\"f%d\": {\"value\": 1, \"source\": \"s\", \"derived\": \"x\"}",
                                i ? ", " : "", i);
    }
    len += (size_t)snprintf(text + len, sizeof text - len, "}");
    assert_int_equal(pqpan_io_profile_derived(&d, text, len, "many.json", err, sizeof err),
                     PQPAN_ERR_CAPACITY);
    assert_string_equal(err, "many.json: more than 32 derived figures");
    assert_int_equal(d.count, 0);
    assert_int_equal(pqpan_io_profile_derived(&d, "x", 1, "bad.json", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_builtin_profile_loads),
        cmocka_unit_test(test_nrf52840_figures),
        cmocka_unit_test(test_ble_device_from_profile),
        cmocka_unit_test(test_builtin_profiles_price_every_phy),
        cmocka_unit_test(test_derived_figures_collected),
        cmocka_unit_test(test_nrf52840_other_chip_figures),
        cmocka_unit_test(test_other_chip_member_checked),
        cmocka_unit_test(test_nrf52840_802154_section),
        cmocka_unit_test(test_802154_section_reads_back),
        cmocka_unit_test(test_user_profile_file),
        cmocka_unit_test(test_malformed_profiles),
        cmocka_unit_test(test_profile_names_and_paths),
        cmocka_unit_test(test_builtin_file_and_memory_agree),
        cmocka_unit_test(test_builtin_and_file_kept_apart),
        cmocka_unit_test(test_directory_and_oversize),
        cmocka_unit_test(test_parse_from_memory),
        cmocka_unit_test(test_builtin_names),
        cmocka_unit_test(test_number_grammar_in_profiles),
        cmocka_unit_test(test_walk_figures),
        cmocka_unit_test(test_too_many_derived),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
