/* Tests for the CLI's forgiving words (cli/util.c): cli_word_equal and cli_word_canonical
 * ignore ASCII case and respell a word as its list writes it; cli_word_distance is the
 * optimal string alignment distance (the classic pairs, one transposition, case); the
 * suggestion keeps the nearest candidates within its limit, ties included, and says
 * nothing when none is near. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"

static void test_word_equal(void **state)
{
    static const char *const words[] = {"1M", "2M", "notify", NULL};
    char v[] = "NOTIFY", w[] = "2m", x[] = "3M";
    (void)state;
    assert_true(cli_word_equal("ML-KEM-768", "ml-kem-768"));
    assert_false(cli_word_equal("ML-KEM-768", "ML-KEM-76"));
    assert_false(cli_word_equal("", "a"));
    assert_true(cli_word_equal_n("CENTRAL:file.csv", 7, "central"));
    assert_false(cli_word_equal_n("central:file.csv", 6, "central"));
    assert_int_equal(cli_word_canonical(v, words), 2);
    assert_string_equal(v, "notify");
    assert_int_equal(cli_word_canonical(w, words), 1);
    assert_string_equal(w, "2M");
    assert_int_equal(cli_word_canonical(x, words), -1);
    assert_string_equal(x, "3M");
}

static void test_distance(void **state)
{
    (void)state;
    assert_int_equal(cli_word_distance("kitten", "sitting"), 3);
    assert_int_equal(cli_word_distance("flaw", "lawn"), 2);
    assert_int_equal(cli_word_distance("", "abc"), 3);
    assert_int_equal(cli_word_distance("abc", ""), 3);
    assert_int_equal(cli_word_distance("estimate", "estimate"), 0);
    assert_int_equal(cli_word_distance("ESTIMATE", "estimate"), 0);
    assert_int_equal(cli_word_distance("estimat", "estimate"), 1);
    /* one transposition, not two substitutions */
    assert_int_equal(cli_word_distance("--att-mut", "--att-mtu"), 1);
    assert_int_equal(cli_word_distance("ca", "ac"), 1);
    /* optimal string alignment: no edit of a substring edited before */
    assert_int_equal(cli_word_distance("ca", "abc"), 3);
}

static const char *suggest(const char *given, const char *const *candidates,
                           struct cli_suggest *s)
{
    cli_suggest_init(s, given);
    cli_words_each(candidates, cli_suggest_add, s);
    return cli_suggest_text(s);
}

static void test_suggestions(void **state)
{
    static const char *const commands[] = {"estimate", "simulate", "sweep", "idle", NULL};
    static const char *const phys[] = {"1M", "2M", "S2", "S8", NULL};
    static const char *const options[] = {"--att-mtu", "--ll-octets", "--kem", "--idle-ci-ms",
                                          "--sed-idle", NULL};
    static const char *const kems[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", NULL};
    struct cli_suggest s;
    (void)state;
    assert_string_equal(suggest("estimat", commands, &s), "; did you mean estimate?");
    assert_string_equal(suggest("3M", phys, &s), "; did you mean 1M or 2M?");
    assert_string_equal(suggest("--att-mut", options, &s), "; did you mean --att-mtu?");
    assert_string_equal(suggest("--KEM", options, &s), "; did you mean --kem?");
    assert_string_equal(suggest("ML-KEM-51", kems, &s), "; did you mean ML-KEM-512?");
    /* the same option under a longer name */
    assert_string_equal(suggest("--ci-ms", options, &s), "; did you mean --idle-ci-ms?");
    assert_string_equal(suggest("--idle", options, &s), "; did you mean --sed-idle?");
    /* nothing near: no suggestion */
    assert_string_equal(suggest("frobnicate", commands, &s), "");
    assert_string_equal(suggest("Q9", phys, &s), "");
    /* three ties at most, in the order given */
    assert_string_equal(suggest("X", (const char *const[]){"A", "B", "C", "D", NULL}, &s),
                        "; did you mean A, B or C?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_word_equal),
        cmocka_unit_test(test_distance),
        cmocka_unit_test(test_suggestions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
