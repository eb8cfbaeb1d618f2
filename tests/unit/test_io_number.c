/* Tests for the one number grammar of every option and text file (libpqpan-io,
 * src/io/load/number.c; the CLI's pqpan_io_parse_uint / pqpan_io_parse_double call it): JSON's number
 * (RFC 8259 §6); the spellings strtod alone accepted (spaces, '+',
 * hex floats, "inf", "nan", a negative number read as a huge unsigned one) refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "io/load/number.h"
#include "pqpan/io.h"

static void test_double_grammar(void **state)
{
    static const char *const good[] = {"0", "-0", "7.5", "-4", "1e3", "1E3", "7.5e-1", "2e+2", "0.25"};
    static const double want[] = {0.0, 0.0, 7.5, -4.0, 1000.0, 1000.0, 0.75, 200.0, 0.25};
    static const char *const bad[] = {"", " 7.5", "7.5 ", "+7.5", "0x1p3", "inf", "-inf", "nan",
                                      "07.5", ".5", "5.", "1e", "1e+", "7,5", "1e999", "1e-400",
                                      "--1", "7.5x"};
    double v;
    size_t i;
    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        assert_int_equal(pqpan_io_parse_double(good[i], -10.0, 1e4, &v), 0);
        assert_true(v == want[i]);
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (pqpan_io_parse_double(bad[i], -1e308, 1e308, &v) != -1) {
            fail_msg("'%s' accepted", bad[i]);
        }
    }
    assert_int_equal(pqpan_io_parse_double("4001", 7.5, 4000.0, &v), -1);
    assert_int_equal(pqpan_io_parse_double(NULL, 0.0, 1.0, &v), -1);
}

static void test_uint_grammar(void **state)
{
    static const char *const bad[] = {"", " 5", "5 ", "+5", "-1", " -1", "0x10", "05", "5.0",
                                      "5e0", "18446744073709551616"};
    unsigned long long v;
    size_t i;
    (void)state;
    assert_int_equal(pqpan_io_parse_uint("0", 0, 10, &v), 0);
    assert_true(v == 0u);
    assert_int_equal(pqpan_io_parse_uint("18446744073709551615", 0, ~0ull, &v), 0);
    assert_true(v == ~0ull);
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (pqpan_io_parse_uint(bad[i], 0, ~0ull, &v) != -1) {
            fail_msg("'%s' accepted", bad[i]);
        }
    }
    assert_int_equal(pqpan_io_parse_uint("11", 0, 10, &v), -1);
}

/* The numbers of a JSON file (profiles, calibration files) follow the same grammar; cJSON
 * alone would take "03" and "3.". Numbers inside strings are not numbers. */
static void test_json_numbers(void **state)
{
    static const char *const good[] = {"{\"a\": 0, \"b\": -0.5e-3, \"c\": [1, 2E+2]}",
                                       "{\"s\": \"03, 3. and +1 in a string\\\" 07\"}",
                                       "  {\"x\":\t12.5 }", ""};
    static const struct {
        const char *text, *message;
    } bad[] = {
        {"{\"a\": 03}", "f.json: line 1: number '03' is not a JSON number"},
        {"{\"a\":\n 3.}", "f.json: line 2: number '3.' is not a JSON number"},
        {"{\"a\": 1,\n\n\"b\": -07.5}", "f.json: line 3: number '-07.5' is not"},
        {"[1e]", "number '1e' is not"},
        {"[--1]", "number '--1' is not"},
    };
    char err[PQPAN_IO_ERR_MAX];
    size_t i;
    (void)state;
    for (i = 0; i < sizeof good / sizeof good[0]; i++) {
        if (pqpan_io_json_numbers_check(good[i], strlen(good[i]), "f.json", err, sizeof err) !=
            PQPAN_OK) {
            fail_msg("refused: %s: %s", good[i], err);
        }
    }
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(pqpan_io_json_numbers_check(bad[i].text, strlen(bad[i].text), "f.json",
                                                     err, sizeof err),
                         PQPAN_ERR_MALFORMED);
        if (strstr(err, bad[i].message) == NULL) {
            fail_msg("%s: message '%s' lacks '%s'", bad[i].text, err, bad[i].message);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_json_numbers),
        cmocka_unit_test(test_double_grammar),
        cmocka_unit_test(test_uint_grammar),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
