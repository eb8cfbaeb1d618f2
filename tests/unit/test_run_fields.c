/* Tests for the run layer's field tables (src/run/fields.c, include/pqpan/run.h): every
 * field of each link's table has a unique name, a unit that its name says (_uj, _ms, _pct),
 * a place inside the row and a value of its store's type; the optional stores have no value
 * where the row says unknown. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/run.h"

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The unit a field name's suffix says (docs/CLI.md: units in names), or NULL. */
static const char *unit_of_name(const char *name)
{
    if (ends_with(name, "_uj")) {
        return "uJ";
    }
    if (ends_with(name, "_ms")) {
        return "ms";
    }
    return ends_with(name, "_pct") ? "%" : NULL;
}

static void check_table(enum pqpan_run_link link)
{
    size_t n = 0, i, j;
    const struct pqpan_run_field *t = pqpan_run_exchange_fields(link, &n);
    assert_true(n > 40u);
    for (i = 0; i < n; i++) {
        const char *want = unit_of_name(t[i].name);
        assert_true(t[i].offset < sizeof(struct pqpan_run_exchange_row));
        assert_non_null(t[i].label);
        if (want != NULL) {
            assert_non_null(t[i].unit);
            assert_string_equal(t[i].unit, want);
        }
        for (j = i + 1; j < n; j++) {
            assert_string_not_equal(t[i].name, t[j].name);
        }
    }
}

static void test_tables_are_well_formed(void **state)
{
    (void)state;
    check_table(PQPAN_RUN_LINK_BLE);
    check_table(PQPAN_RUN_LINK_802154);
}

static const struct pqpan_run_field *field_named(enum pqpan_run_link link, const char *name)
{
    size_t n = 0, i;
    const struct pqpan_run_field *t = pqpan_run_exchange_fields(link, &n);
    for (i = 0; i < n; i++) {
        if (strcmp(t[i].name, name) == 0) {
            return &t[i];
        }
    }
    fail_msg("no field %s", name);
    return NULL;
}

/* Each field reads its own member: the 802.15.4 table's names differ from the members
 * (radio_mode is phy, octets_tx bytes_tx), and the optional ones have no value at 0 / < 0. */
static void test_values_read_their_members(void **state)
{
    struct pqpan_run_exchange_row r;
    struct pqpan_run_value v;
    (void)state;
    memset(&r, 0, sizeof r);
    r.phy = "2M";
    r.att_mtu = 247;
    r.dle = 1;
    r.e_total_uj = 1825.72;
    r.bytes_tx = 4242u;
    r.t_sig_sign_p99_ms = -1.0;
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_802154, "radio_mode"), &r);
    assert_int_equal(v.type, PQPAN_RUN_TEXT);
    assert_string_equal(v.text, "2M");
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_BLE, "att_mtu"), &r);
    assert_int_equal(v.type, PQPAN_RUN_COUNT);
    assert_int_equal(v.u, 247);
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_BLE, "dle"), &r);
    assert_int_equal(v.type, PQPAN_RUN_INT);
    assert_int_equal(v.i, 1);
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_BLE, "e_total_uj"), &r);
    assert_int_equal(v.type, PQPAN_RUN_REAL);
    assert_true(v.known && v.x == 1825.72);
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_802154, "octets_tx"), &r);
    assert_int_equal(v.u, 4242);
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_BLE, "t_sig_sign_p99_ms"), &r);
    assert_false(v.known);
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_BLE, "sig_sign_cycles_mean"), &r);
    assert_false(v.known);
    pqpan_run_field_value(&v, field_named(PQPAN_RUN_LINK_BLE, "sig_sign_cycles_source"), &r);
    assert_false(v.known);
}

/* A group mask shows exactly the fields of its groups. */
static void test_groups_select_fields(void **state)
{
    (void)state;
    assert_true(pqpan_run_field_shown(field_named(PQPAN_RUN_LINK_BLE, "kem"),
                                      PQPAN_RUN_GROUP_CONFIG));
    assert_false(pqpan_run_field_shown(field_named(PQPAN_RUN_LINK_BLE, "kem"),
                                       PQPAN_RUN_GROUP_HEADLINE | PQPAN_RUN_GROUP_DETAIL));
    assert_false(pqpan_run_field_shown(field_named(PQPAN_RUN_LINK_BLE, "reading"),
                                       PQPAN_RUN_GROUP_CONFIG | PQPAN_RUN_GROUP_DETAIL));
    assert_true(pqpan_run_field_shown(field_named(PQPAN_RUN_LINK_BLE, "p256_impl"),
                                      PQPAN_RUN_GROUP_LESC));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tables_are_well_formed),
        cmocka_unit_test(test_values_read_their_members),
        cmocka_unit_test(test_groups_select_fields),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
