/* Tests for src/energy/ledger.c. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pqpan/ledger.h"

static void test_sums_by_state_and_phase(void **state)
{
    struct pqpan_ledger l;
    (void)state;
    pqpan_ledger_init(&l);
    pqpan_ledger_add(&l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_TX, 2088000);
    pqpan_ledger_add(&l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_IFS, 150000);
    pqpan_ledger_add(&l, PQPAN_PHASE_PHY_UPDATE, PQPAN_STATE_TX, 80000);
    pqpan_ledger_add(&l, PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_TX, 80000);
    assert_int_equal(pqpan_ledger_state_ns(&l, PQPAN_STATE_TX), 2248000);
    assert_int_equal(pqpan_ledger_phase_ns(&l, PQPAN_PHASE_KEY_TRANSFER), 2318000);
    assert_int_equal(pqpan_ledger_state_ns(&l, PQPAN_STATE_RX), 0);
}

static void test_ops_and_accumulate(void **state)
{
    struct pqpan_ledger a, b;
    (void)state;
    pqpan_ledger_init(&a);
    pqpan_ledger_init(&b);
    pqpan_ledger_add_op(&a, PQPAN_OP_KEM_KEYGEN, 988722);
    pqpan_ledger_add_op(&b, PQPAN_OP_KEM_KEYGEN, 1000);
    pqpan_ledger_add_op(&b, PQPAN_OP_KEM_DECAPS, 7);
    b.pdus_tx = 3;
    pqpan_ledger_add(&b, PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, 5);
    pqpan_ledger_accumulate(&a, &b);
    assert_int_equal(a.op_count[PQPAN_OP_KEM_KEYGEN], 2);
    assert_int_equal(a.op_cycles[PQPAN_OP_KEM_KEYGEN], 989722);
    assert_int_equal(a.op_count[PQPAN_OP_KEM_DECAPS], 1);
    assert_int_equal(a.pdus_tx, 3);
    assert_int_equal(a.ns[PQPAN_PHASE_CRYPTO][PQPAN_STATE_CPU], 5);
}

/* The phase names are output field names (notes: shared interface decisions). */
static void test_names_are_stable(void **state)
{
    static const char *const phases[PQPAN_PHASE_COUNT] = {
        "advertise",    "connect",   "features",     "conn_update", "phy_update", "length_update",
        "mtu_exchange", "discovery", "key_transfer", "crypto",      "confirm",    "idle",
    };
    int p;
    (void)state;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        assert_string_equal(pqpan_phase_name((enum pqpan_phase)p), phases[p]);
    }
    assert_string_equal(pqpan_phase_name(PQPAN_PHASE_COUNT), "unknown");
    assert_string_equal(pqpan_state_name(PQPAN_STATE_HFXO_START), "hfxo_start");
    assert_string_equal(pqpan_phase_name(PQPAN_PHASE_KEY_TRANSFER), "key_transfer");
    assert_string_equal(pqpan_op_name(PQPAN_OP_ECDH_SHARED), "ecdh_shared");
    assert_string_equal(pqpan_state_name(PQPAN_STATE_COUNT), "unknown");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sums_by_state_and_phase),
        cmocka_unit_test(test_ops_and_accumulate),
        cmocka_unit_test(test_names_are_stable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
