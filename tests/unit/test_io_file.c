/* Tests for libpqpan-io's whole-file reader (src/io/load/file.c): regular files, a
 * directory ("is a directory", never "out of memory"), the size cap checked before a
 * regular file is read (a sparse file far over it is refused at once), pipes and standard
 * input ("-"), files that do not exist, NULL arguments. */
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

#include "pqpan/io.h"

#define FIXTURES PQPAN_SOURCE_DIR "/tests/fixtures/"

static void test_regular_file(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_read_file(&t, FIXTURES "profiles/minimal.json",
                                        PQPAN_IO_SMALL_FILE_MAX, err, sizeof err),
                     PQPAN_OK);
    assert_true(t.len > 100 && t.text[t.len] == '\0' && t.text == t.owned);
    assert_string_equal(t.origin, FIXTURES "profiles/minimal.json");
    assert_int_equal(t.text[0], '{');
    pqpan_io_text_free(&t);
    assert_null(t.owned);
    assert_int_equal(t.len, 0);
}

static void test_directory(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_read_file(&t, FIXTURES "profiles", PQPAN_IO_FILE_MAX, err,
                                        sizeof err),
                     PQPAN_ERR_IO);
    assert_string_equal(err, FIXTURES "profiles: is a directory");
    assert_null(t.owned);
}

static void test_over_the_cap(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_read_file(&t, FIXTURES "profiles/minimal.json", 100, err,
                                        sizeof err),
                     PQPAN_ERR_IO);
    assert_non_null(strstr(err, "minimal.json: larger than 100 bytes: not read"));
    assert_null(t.owned);
}

/* A 3 GB sparse file: refused from its size alone (a read would take seconds and 3 GB). */
static void test_sparse_file_refused_unread(void **state)
{
    char path[] = "/tmp/pqpan_io_sparse_XXXXXX";
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    int fd = mkstemp(path);
    (void)state;
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, (off_t)3 << 30), 0);
    close(fd);
    assert_int_equal(pqpan_io_read_file(&t, path, PQPAN_IO_SMALL_FILE_MAX, err, sizeof err),
                     PQPAN_ERR_IO);
    unlink(path);
    assert_non_null(strstr(err, "larger than 1048576 bytes"));
}

static void test_missing_file(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_read_file(&t, FIXTURES "no/such/file", PQPAN_IO_FILE_MAX, err,
                                        sizeof err),
                     PQPAN_ERR_IO);
    assert_non_null(strstr(err, "no/such/file: cannot open: "));
}

/* A pipe holding text, its write end closed; returns the read end. */
static int pipe_with(const char *text)
{
    int fds[2];
    size_t n = strlen(text);
    assert_int_equal(pipe(fds), 0);
    assert_int_equal(write(fds[1], text, n), (ssize_t)n);
    close(fds[1]);
    return fds[0];
}

/* A pipe by its /dev/fd path (fstat says FIFO: no size to check, read as it comes). */
static void test_pipe_path(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX], path[64];
    int fd = pipe_with("a,b\n1,2\n");
    (void)state;
    snprintf(path, sizeof path, "/dev/fd/%d", fd);
    assert_int_equal(pqpan_io_read_file(&t, path, 64, err, sizeof err), PQPAN_OK);
    assert_int_equal(t.len, 8);
    assert_string_equal(t.text, "a,b\n1,2\n");
    pqpan_io_text_free(&t);
    close(fd);
    fd = pipe_with("0123456789");
    snprintf(path, sizeof path, "/dev/fd/%d", fd);
    assert_int_equal(pqpan_io_read_file(&t, path, 9, err, sizeof err), PQPAN_ERR_IO);
    assert_non_null(strstr(err, "larger than 9 bytes"));
    close(fd);
}

/* "-" reads standard input (here a pipe put in its place); the origin is "(stdin)". */
static void test_stdin(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    int saved = dup(STDIN_FILENO);
    int fd = pipe_with("{\"x\": 1}");
    (void)state;
    assert_true(saved >= 0);
    assert_int_equal(dup2(fd, STDIN_FILENO), STDIN_FILENO);
    close(fd);
    clearerr(stdin);
    assert_int_equal(pqpan_io_read_file(&t, "-", 1024, err, sizeof err), PQPAN_OK);
    assert_string_equal(t.text, "{\"x\": 1}");
    assert_string_equal(t.origin, "(stdin)");
    pqpan_io_text_free(&t);
    assert_int_equal(dup2(saved, STDIN_FILENO), STDIN_FILENO);
    close(saved);
    clearerr(stdin);
}

static void test_character_device(void **state)
{
    struct pqpan_io_text t;
    char err[PQPAN_IO_ERR_MAX];
    (void)state;
    assert_int_equal(pqpan_io_read_file(&t, "/dev/null", 16, err, sizeof err), PQPAN_OK);
    assert_int_equal(t.len, 0);
    assert_string_equal(t.text, "");
    pqpan_io_text_free(&t);
}

static void test_bad_arguments(void **state)
{
    struct pqpan_io_text t;
    char err[8];
    (void)state;
    assert_int_equal(pqpan_io_read_file(NULL, "x", 1, err, sizeof err), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_read_file(&t, NULL, 1, err, sizeof err), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_io_read_file(&t, "x", 1, NULL, 8), PQPAN_ERR_INVALID_ARG);
    /* no message buffer at all: the error code alone */
    assert_int_equal(pqpan_io_read_file(&t, FIXTURES "profiles", 1, NULL, 0), PQPAN_ERR_IO);
    /* a short buffer: the message truncated, NUL-terminated */
    assert_int_equal(pqpan_io_read_file(&t, FIXTURES "profiles", 1, err, sizeof err),
                     PQPAN_ERR_IO);
    assert_int_equal(strlen(err), sizeof err - 1);
    pqpan_io_text_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_regular_file),
        cmocka_unit_test(test_directory),
        cmocka_unit_test(test_over_the_cap),
        cmocka_unit_test(test_sparse_file_refused_unread),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_pipe_path),
        cmocka_unit_test(test_stdin),
        cmocka_unit_test(test_character_device),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
