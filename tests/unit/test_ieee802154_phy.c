/* Tests for src/ieee802154/phy.c: O-QPSK 2450 MHz timing against hand-computed values
 * (IEEE 802.15.4-2020 §12: 62.5 ksymbol/s, 2 symbols per octet, SHR 5 + PHR 1 octets). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

static void test_symbol_and_octet_durations(void **state)
{
    (void)state;
    /* 1 s / 62 500 symbols = 16 µs; 8 bits / 4 bits per symbol = 2 symbols = 32 µs. */
    assert_int_equal(1000000000u / PQPAN_802154_SYMBOL_NS, 62500);
    assert_int_equal(PQPAN_802154_OCTET_NS, 32000);
    assert_int_equal(pqpan_802154_phy_symbols_ns(1), 16000);
    assert_int_equal(pqpan_802154_phy_symbols_ns(62500), 1000000000u);
}

static void test_mac_timing_constants(void **state)
{
    (void)state;
    assert_int_equal(PQPAN_802154_TURNAROUND_NS, 192000);   /* 12 symbols */
    assert_int_equal(PQPAN_802154_CCA_NS, 128000);          /* 8 symbols */
    assert_int_equal(PQPAN_802154_UNIT_BACKOFF_NS, 320000); /* 20 symbols */
    assert_int_equal(PQPAN_802154_SHR_SYMBOLS, 10);
    assert_int_equal(PQPAN_802154_MAX_PSDU, 127);
}

static void test_ppdu_airtimes(void **state)
{
    (void)state;
    /* (5 SHR + 1 PHR + PSDU) octets x 32 µs. */
    assert_int_equal(pqpan_802154_phy_ppdu_ns(0), 192000);
    assert_int_equal(pqpan_802154_phy_ppdu_ns(5), 352000);     /* Imm-Ack: 11 x 32 µs */
    assert_int_equal(pqpan_802154_phy_ppdu_ns(127), 4256000);  /* 133 x 32 µs */
    assert_int_equal(pqpan_802154_phy_ppdu_ns(124), 4160000);  /* 130 x 32 µs */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_symbol_and_octet_durations),
        cmocka_unit_test(test_mac_timing_constants),
        cmocka_unit_test(test_ppdu_airtimes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
