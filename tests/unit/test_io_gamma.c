/* Tests for libpqpan-io's calibration files (src/io/load/gamma.c): γ values overlaid onto
 * the defaults, and every error path: malformed files and values outside the range the
 * command line accepts (tests/fixtures/calibration/), a directory, a file over the cap,
 * NULL arguments. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "pqpan/energy.h"
#include "pqpan/io.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static void test_calibration_overlay(void **state)
{
    struct pqpan_gamma g;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    pqpan_gamma_default(&g);
    assert_int_equal(pqpan_io_gamma_load(&g, FIXTURES "calibration/good.json", err, sizeof err),
                     PQPAN_OK);
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
        {"bad_huge.json", "gamma_comm"}, /* 1e300: --gamma-comm refuses it, so does a file */
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        struct pqpan_gamma g;
        char path[512], err[PQPAN_IO_ERR_MAX];
        snprintf(path, sizeof path, FIXTURES "calibration/%s", cases[i].file);
        pqpan_gamma_default(&g);
        if (pqpan_io_gamma_load(&g, path, err, sizeof err) != PQPAN_ERR_MALFORMED) {
            fail_msg("%s: accepted", cases[i].file);
        }
        assert_true(g.comm == 0.0); /* zeroed, never half written */
        if (strstr(err, cases[i].file) == NULL || strstr(err, cases[i].field) == NULL) {
            fail_msg("%s: message does not name '%s': %s", cases[i].file, cases[i].field, err);
        }
    }
}

/* The bounds are PQPAN_IO_GAMMA_MIN..PQPAN_IO_GAMMA_MAX inclusive. */
static void test_gamma_bounds(void **state)
{
    static const char lo[] = "{\"format\": \"pqpan-calibration/1\", \"gamma_comm\": 0.01, "
                             "\"provenance\": {\"source\": \"t\"}}";
    static const char below[] = "{\"format\": \"pqpan-calibration/1\", \"gamma_comm\": 0.0099, "
                                "\"provenance\": {\"source\": \"t\"}}";
    static const char dot[] = "{\"gamma_comm\": 1.}";
    static const char hi[] = "{\"format\": \"pqpan-calibration/1\", \"gamma_comp\": "
                             "{\"kdf\": 100}, \"provenance\": {\"source\": \"t\"}}";
    struct pqpan_gamma g;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    pqpan_gamma_default(&g);
    assert_int_equal(pqpan_io_gamma_parse(&g, lo, strlen(lo), "lo", err, sizeof err), PQPAN_OK);
    assert_true(g.comm == PQPAN_IO_GAMMA_MIN);
    assert_int_equal(pqpan_io_gamma_parse(&g, hi, strlen(hi), "hi", err, sizeof err), PQPAN_OK);
    assert_true(g.comp[PQPAN_OP_KDF] == PQPAN_IO_GAMMA_MAX);
    assert_int_equal(pqpan_io_gamma_parse(&g, below, strlen(below), "below", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_string_equal(err, "below: gamma_comm: not a number in 0.01..100 (the range of "
                             "--gamma-comp / --gamma-comm)");
    /* the number grammar of --gamma-comm: "1." is refused in a file as on the command line */
    assert_int_equal(pqpan_io_gamma_parse(&g, dot, strlen(dot), "dot", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_non_null(strstr(err, "dot: line 1: number '1.' is not a JSON number"));
    assert_true(g.comm == 0.0);
}

static void test_directory_oversize_and_arguments(void **state)
{
    char path[] = "/tmp/pqpan_io_gamma_XXXXXX";
    struct pqpan_gamma g;
    char err[PQPAN_IO_ERR_MAX];
    int fd;
    (void)state;
    pqpan_gamma_default(&g);
    assert_int_equal(pqpan_io_gamma_load(&g, FIXTURES "calibration", err, sizeof err),
                     PQPAN_ERR_IO);
    assert_non_null(strstr(err, "calibration: is a directory"));
    fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)PQPAN_IO_SMALL_FILE_MAX + 1), 0);
    close(fd);
    assert_int_equal(pqpan_io_gamma_load(&g, path, err, sizeof err), PQPAN_ERR_IO);
    unlink(path);
    assert_non_null(strstr(err, "larger than"));
    assert_int_equal(pqpan_io_gamma_load(NULL, "x", err, sizeof err), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_gamma_parse(&g, NULL, 0, "x", err, sizeof err),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_gamma_parse(&g, "{}", 2, "empty", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_non_null(strstr(err, "empty: format"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration_overlay),
        cmocka_unit_test(test_malformed_calibrations),
        cmocka_unit_test(test_gamma_bounds),
        cmocka_unit_test(test_directory_oversize_and_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
