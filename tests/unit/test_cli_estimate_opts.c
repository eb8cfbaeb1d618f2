/* Tests for estimate's option parsing (cli/estimate.h): every word an option lists for
 * `sweep --OPT all` (estimate_opts_choices) is a value its parser takes, and a loaded
 * profile or cycle implementation for the energy options; the sets are the ones the
 * standards and data files define. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "estimate.h"

#define WORDS_MAX 16

struct words {
    char w[WORDS_MAX][32];
    size_t n;
};

static void add_word(void *ctx, const char *word)
{
    struct words *ws = ctx;
    assert_true(ws->n < WORDS_MAX);
    assert_true(strlen(word) < sizeof ws->w[0]);
    strcpy(ws->w[ws->n++], word);
}

/* The words of opt on a link; fails if opt lists none. */
static struct words words_of(const char *opt, int lowpan)
{
    struct estimate_opts o;
    struct words ws;
    memset(&ws, 0, sizeof ws);
    estimate_opts_init(&o, lowpan);
    assert_int_equal(estimate_opts_choices(&o, opt, add_word, &ws), 1);
    return ws;
}

/* Each word parses as opt's value (two arguments consumed). */
static void assert_words_parse(const char *opt, int lowpan)
{
    struct words ws = words_of(opt, lowpan);
    size_t k;
    assert_true(ws.n >= 2);
    for (k = 0; k < ws.n; k++) {
        struct estimate_opts o;
        char *argv[3];
        int i = 1;
        argv[0] = "test";
        argv[1] = (char *)opt;
        argv[2] = ws.w[k];
        estimate_opts_init(&o, lowpan);
        assert_int_equal(estimate_opts_parse(&o, "test", 3, argv, &i), 1);
        assert_int_equal(i, 2);
    }
}

static void test_every_word_parses(void **state)
{
    static const char *const ble[] = {"--kem",        "--phy",         "--transfer",
                                      "--reply",      "--keygen-side", "--protocol",
                                      "--profile",    "--crypto-impl", "--currents",
                                      "--ramp",       "--features",    "--conn-update",
                                      "--discovery"};
    static const char *const lowpan[] = {"--kem", "--csma", "--addr", "--idle", "--backoff",
                                         "--profile", "--currents", "--ramp"};
    size_t k;
    (void)state;
    for (k = 0; k < sizeof ble / sizeof ble[0]; k++) {
        assert_words_parse(ble[k], 0);
    }
    for (k = 0; k < sizeof lowpan / sizeof lowpan[0]; k++) {
        assert_words_parse(lowpan[k], 1);
    }
}

static int has(const struct words *ws, const char *w)
{
    size_t k;
    for (k = 0; k < ws->n; k++) {
        if (strcmp(ws->w[k], w) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The sets: LE PHYs of Core v5.4 Vol 6 Part A §3 (1M, 2M, Coded S=2, S=8); FIPS 203's
 * three parameter sets, plus the LE Secure Connections baseline on BLE only. */
static void test_sets(void **state)
{
    struct words phy = words_of("--phy", 0), kem = words_of("--kem", 0);
    struct words kem154 = words_of("--kem", 1), impl = words_of("--crypto-impl", 0);
    (void)state;
    assert_int_equal(phy.n, 4);
    assert_true(has(&phy, "1M") && has(&phy, "2M") && has(&phy, "S2") && has(&phy, "S8"));
    assert_int_equal(kem.n, 4);
    assert_true(has(&kem, "ML-KEM-512") && has(&kem, "ML-KEM-1024") && has(&kem, "LESC-P256"));
    assert_int_equal(kem154.n, 3);
    assert_false(has(&kem154, "LESC-P256"));
    assert_true(has(&impl, "clean") && has(&impl, "m4fspeed") && has(&impl, "m4fstack"));
}

/* Profiles and cycle implementations are checked when loaded: each listed one loads. */
static void test_energy_words_load(void **state)
{
    static const char *const opts[] = {"--profile", "--crypto-impl"};
    struct model_env *env = malloc(sizeof *env);
    size_t j, k;
    (void)state;
    assert_non_null(env);
    for (j = 0; j < 2; j++) {
        struct words ws = words_of(opts[j], 0);
        for (k = 0; k < ws.n; k++) {
            struct model_opts m;
            model_opts_init(&m);
            if (j == 0) {
                m.profile = ws.w[k];
            } else {
                m.crypto_impl = ws.w[k];
            }
            assert_int_equal(model_env_load(env, &m, "test"), EXIT_OK);
        }
    }
    free(env);
}

/* Options that take a number or a file list no words. */
static void test_open_options_list_none(void **state)
{
    static const char *const opts[] = {"--ci-ms",       "--att-mtu",         "--tx-dbm",
                                       "--calibration", "--adv-interval-ms", "--idle-ci-ms",
                                       "--encrypted",   "--busy"};
    struct estimate_opts o;
    size_t k;
    (void)state;
    for (k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        struct words ws;
        memset(&ws, 0, sizeof ws);
        estimate_opts_init(&o, k == 7); /* --busy is 802.15.4's */
        assert_int_equal(estimate_opts_choices(&o, opts[k], add_word, &ws), 0);
        assert_int_equal(ws.n, 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_word_parses),
        cmocka_unit_test(test_sets),
        cmocka_unit_test(test_energy_words_load),
        cmocka_unit_test(test_open_options_list_none),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
