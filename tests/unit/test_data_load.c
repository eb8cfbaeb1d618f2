/* Tests for the CLI's energy inputs (cli/data_load.c): --profile, --calibration and
 * --crypto-impl loaded through libpqpan-io, and its error codes turned into exit codes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "data_load.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static struct data_energy_inputs inputs;

static void test_energy_inputs(void **state)
{
    char err[PQPAN_IO_ERR_MAX];
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

static void test_exit_codes(void **state)
{
    (void)state;
    assert_int_equal(data_exit_code(PQPAN_OK), EXIT_OK);
    assert_int_equal(data_exit_code(PQPAN_ERR_NOT_FOUND), EXIT_USAGE);
    assert_int_equal(data_exit_code(PQPAN_ERR_IO), EXIT_IO);
    assert_int_equal(data_exit_code(PQPAN_ERR_MALFORMED), EXIT_BAD_INPUT);
    assert_int_equal(data_exit_code(PQPAN_ERR_CAPACITY), EXIT_BAD_INPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_energy_inputs),
        cmocka_unit_test(test_exit_codes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
