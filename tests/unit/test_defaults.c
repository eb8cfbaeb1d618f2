/* Tests for the table of defaults (include/pqpan/defaults.h, src/common/defaults.c):
 * every row names an option and says either a value or a note, and why; the number
 * readers agree with strtod / strtoul on every row; and the library's *_default()
 * functions give what the rows say, read here independently of them (strtod and the
 * library's word parsers). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ble.h"
#include "pqpan/defaults.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sim.h"
#include "pqpan/sim154.h"

static const char *value_of(enum pqpan_default_id id)
{
    const char *v = pqpan_default_value(id);
    assert_non_null(v);
    return v;
}

/* The value of id, a number of ms, in ns by strtod. */
static uint64_t ms_ns(enum pqpan_default_id id)
{
    return (uint64_t)llround(strtod(value_of(id), NULL) * 1e6);
}

static unsigned long u32(enum pqpan_default_id id)
{
    return strtoul(value_of(id), NULL, 10);
}

static void test_rows_well_formed(void **state)
{
    int id;
    (void)state;
    assert_null(pqpan_default_get(PQPAN_DEFAULT_NONE));
    assert_null(pqpan_default_get(PQPAN_DEFAULT_COUNT));
    for (id = PQPAN_DEFAULT_NONE + 1; id < PQPAN_DEFAULT_COUNT; id++) {
        const struct pqpan_default *d = pqpan_default_get((enum pqpan_default_id)id);
        assert_non_null(d);
        assert_non_null(d->option);
        assert_int_equal(strncmp(d->option, "--", 2), 0);
        if ((d->value == NULL) == (d->note == NULL)) {
            fail_msg("%s: want exactly one of a value and a note", d->option);
        }
        assert_non_null(d->why);
        assert_true(strlen(d->why) > 0);
    }
}

/* pqpan_default_u32 and pqpan_default_ms_ns read what strtoul and strtod read, on every
 * row whose value is a number, and give 0 for the others. */
static void test_number_readers(void **state)
{
    int id;
    (void)state;
    for (id = PQPAN_DEFAULT_NONE + 1; id < PQPAN_DEFAULT_COUNT; id++) {
        const char *v = pqpan_default_value((enum pqpan_default_id)id);
        char *end = NULL;
        double x = v != NULL ? strtod(v, &end) : 0.0;
        int number = v != NULL && end != v && *end == '\0';
        int integer = number && strspn(v, "0123456789") == strlen(v);
        assert_int_equal(pqpan_default_ms_ns((enum pqpan_default_id)id),
                         number ? (uint64_t)llround(x * 1e6) : 0u);
        assert_int_equal(pqpan_default_u32((enum pqpan_default_id)id),
                         integer ? strtoul(v, NULL, 10) : 0u);
    }
}

static void test_ble_config_follows_table(void **state)
{
    struct pqpan_ble_config cfg;
    enum pqpan_ble_phy phy;
    enum pqpan_ble_transfer server, client;
    const struct pqpan_kem *kem = pqpan_kem_by_name(value_of(PQPAN_DEFAULT_KEM));
    (void)state;
    pqpan_ble_config_default(&cfg);
    assert_int_equal(pqpan_ble_config_fault(&cfg), PQPAN_BLE_CONFIG_OK);
    assert_int_equal(cfg.protocol, strcmp(value_of(PQPAN_DEFAULT_PROTOCOL), "pqpan") == 0
                                       ? PQPAN_BLE_PROTO_PQPAN
                                       : PQPAN_BLE_PROTO_STUDY);
    assert_int_equal(pqpan_ble_phy_parse(&phy, value_of(PQPAN_DEFAULT_PHY)), PQPAN_OK);
    assert_int_equal(cfg.phy, phy);
    assert_int_equal(pqpan_ble_transfer_choice_parse(&server, &client,
                                                     value_of(PQPAN_DEFAULT_TRANSFER)),
                     PQPAN_OK);
    assert_int_equal(cfg.server_transfer, server);
    assert_int_equal(cfg.client_transfer, client);
    assert_int_equal(cfg.att_mtu, u32(PQPAN_DEFAULT_ATT_MTU));
    assert_int_equal(cfg.ll_octets, u32(PQPAN_DEFAULT_LL_OCTETS));
    assert_int_equal(cfg.max_pairs, u32(PQPAN_DEFAULT_MAX_PDUS_PER_EVENT));
    assert_int_equal(cfg.ci_ns, ms_ns(PQPAN_DEFAULT_CI_MS));
    assert_int_equal(cfg.idle_ci_ns, ms_ns(PQPAN_DEFAULT_INITIAL_CI_MS));
    assert_int_equal(cfg.adv_interval_ns, ms_ns(PQPAN_DEFAULT_ADV_INTERVAL_MS));
    assert_int_equal(cfg.same_event_reply, strcmp(value_of(PQPAN_DEFAULT_REPLY), "same-event") == 0);
    assert_int_equal(cfg.keygen_side, strcmp(value_of(PQPAN_DEFAULT_KEYGEN_SIDE), "central") == 0
                                          ? PQPAN_BLE_CENTRAL
                                          : PQPAN_BLE_PERIPHERAL);
    assert_int_equal(cfg.gatt_server, strcmp(value_of(PQPAN_DEFAULT_GATT_SERVER), "central") == 0
                                          ? PQPAN_BLE_CENTRAL
                                          : PQPAN_BLE_PERIPHERAL);
    assert_int_equal(cfg.features, strcmp(value_of(PQPAN_DEFAULT_FEATURES), "on") == 0);
    assert_int_equal(cfg.conn_update, strcmp(value_of(PQPAN_DEFAULT_CONN_UPDATE), "on") == 0);
    assert_int_equal(cfg.discovery, strcmp(value_of(PQPAN_DEFAULT_DISCOVERY), "on") == 0);
    assert_int_equal(cfg.pqke_mode, pqpan_pqke_mode_by_name(value_of(PQPAN_DEFAULT_AUTH)));
    assert_int_equal(cfg.pqke_hybrid, strcmp(value_of(PQPAN_DEFAULT_HYBRID), "none") != 0);
    assert_non_null(kem);
    assert_int_equal(cfg.ek_bytes, kem->ek_bytes);
    assert_int_equal(cfg.ct_bytes, kem->ct_bytes);
    assert_int_equal(cfg.max_tx_time_us, 0);   /* --max-tx-time-us: a note, none */
    assert_int_equal(cfg.event_len_ns, 0);     /* --event-len-ms: a note, the interval */
    assert_null(pqpan_default_value(PQPAN_DEFAULT_MAX_TX_TIME_US));
    assert_null(pqpan_default_value(PQPAN_DEFAULT_EVENT_LEN_MS));
}

static void test_sim_configs_follow_table(void **state)
{
    struct pqpan_sim_config s;
    struct pqpan_sim154_config n;
    (void)state;
    pqpan_sim_config_default(&s);
    assert_int_equal(s.transport, strcmp(value_of(PQPAN_DEFAULT_TRANSPORT), "gatt") == 0
                                      ? PQPAN_SIM_GATT
                                      : PQPAN_SIM_L2CAP_COC);
    assert_int_equal(s.seed, u32(PQPAN_DEFAULT_SEED));
    assert_int_equal(s.supervision_timeout_ms, u32(PQPAN_DEFAULT_SUPERVISION_TIMEOUT_MS));
    assert_true(s.chan[0].per == strtod(value_of(PQPAN_DEFAULT_PER), NULL));
    assert_true(s.chan[1].ber == strtod(value_of(PQPAN_DEFAULT_BER), NULL));
    pqpan_sim154_config_default(&n);
    assert_int_equal(pqpan_sim154_config_check(&n), PQPAN_OK);
    assert_int_equal(n.nodes, u32(PQPAN_DEFAULT_NODES));
    assert_int_equal(n.load_psdu, u32(PQPAN_DEFAULT_FRAME_BYTES));
    assert_int_equal(n.reasm_timeout_ms, u32(PQPAN_DEFAULT_REASM_TIMEOUT));
    assert_int_equal(n.dgram_retries, u32(PQPAN_DEFAULT_DGRAM_RETRIES));
    assert_int_equal(n.seed, u32(PQPAN_DEFAULT_SEED));
    assert_true(n.load_fps == strtod(value_of(PQPAN_DEFAULT_LOAD), NULL));
    assert_int_equal(n.hidden, u32(PQPAN_DEFAULT_HIDDEN));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_rows_well_formed),
        cmocka_unit_test(test_number_readers),
        cmocka_unit_test(test_ble_config_follows_table),
        cmocka_unit_test(test_sim_configs_follow_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
