/* Tests for src/common: wiping, constant-time comparison, error strings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/common.h"

static void test_wipe_zeroes_every_byte(void **state)
{
    uint8_t buf[67];
    size_t i;
    (void)state;
    memset(buf, 0xA5, sizeof buf);
    pqpan_wipe(buf, sizeof buf);
    for (i = 0; i < sizeof buf; i++) {
        assert_int_equal(buf[i], 0);
    }
}

static void test_ct_equal_detects_each_single_bit_difference(void **state)
{
    uint8_t a[32], b[32];
    size_t i;
    int bit;
    (void)state;
    for (i = 0; i < sizeof a; i++) {
        a[i] = (uint8_t)(i * 7 + 1);
    }
    memcpy(b, a, sizeof a);
    assert_int_equal(pqpan_ct_equal(a, b, sizeof a), 1);
    for (i = 0; i < sizeof a; i++) {
        for (bit = 0; bit < 8; bit++) {
            b[i] = (uint8_t)(a[i] ^ (1u << bit));
            assert_int_equal(pqpan_ct_equal(a, b, sizeof a), 0);
            b[i] = a[i];
        }
    }
    assert_int_equal(pqpan_ct_equal(a, b, 0), 1);
}

/* Hand-computed: 1184 cycles at 64 MHz = 18.5 us; 2e10 cycles at 64 MHz = 312.5 s (the
 * product 2e10 x 1e9 does not fit in 64 bits); 2^64 - 1 = (2^32 - 1)(2^32 + 1); 1 cycle at
 * 3 Hz rounds down to 333 333 333 ns. */
static void test_cycles_to_ns_is_exact_without_overflow(void **state)
{
    (void)state;
    assert_int_equal(pqpan_cycles_to_ns(1184u, 64000000u), 18500u);
    assert_int_equal(pqpan_cycles_to_ns(20000000000ull, 64000000u), 312500000000ull);
    assert_int_equal(pqpan_cycles_to_ns(UINT64_MAX, 4294967295u), 4294967297000000000ull);
    assert_int_equal(pqpan_cycles_to_ns(1u, 3u), 333333333u);
    assert_int_equal(pqpan_cycles_to_ns(0u, 1u), 0u);
}

static void test_strerror_names_every_code(void **state)
{
    int code;
    (void)state;
    assert_string_equal(pqpan_strerror(PQPAN_OK), "success");
    for (code = PQPAN_ERR_INVALID_ARG; code >= PQPAN_ERR_LAST; code--) {
        assert_string_not_equal(pqpan_strerror(code), "unknown error");
    }
    assert_string_equal(pqpan_strerror(12345), "unknown error");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wipe_zeroes_every_byte),
        cmocka_unit_test(test_ct_equal_detects_each_single_bit_difference),
        cmocka_unit_test(test_cycles_to_ns_is_exact_without_overflow),
        cmocka_unit_test(test_strerror_names_every_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
