/* Tests for ML-DSA signing's spread in the CLI's model (cli/ble_model.h, model_fill_sig):
 * the median and p99 stated come from the cycle table's row, the energy keeps the mean,
 * and the p99 energy and time follow from the table's p99 (docs/MODEL.md "ML-DSA signing:
 * the mean and its spread"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ble_model.h"

/* ML-KEM-768 and ML-DSA-65 rows of a made-up implementation "t": signing with a mean of
 * 4 000 000 cycles, median 3 000 000 and p99 16 000 000 over 1000 runs. */
static const char table_csv[] =
    "scheme,implementation,operation,cycles_mean,runs,cycles_median,cycles_p99\n"
    "ml-kem-768,t,keygen,1000000,1,,\n"
    "ml-kem-768,t,encaps,1100000,1,,\n"
    "ml-kem-768,t,decaps,1200000,1,,\n"
    "ml-kem-768,t,kdf,200000,1,,\n"
    "ml-dsa-65,t,sign,4000000,1000,3000000,16000000\n"
    "ml-dsa-65,t,verify,2000000,1,,\n";

/* The same rows without a spread. */
static const char mean_only_csv[] = "scheme,implementation,operation,cycles_mean\n"
                                    "ml-kem-768,t,keygen,1000000\n"
                                    "ml-kem-768,t,encaps,1100000\n"
                                    "ml-kem-768,t,decaps,1200000\n"
                                    "ml-kem-768,t,kdf,200000\n"
                                    "ml-dsa-65,t,sign,4000000\n"
                                    "ml-dsa-65,t,verify,2000000\n";

/* The default environment with only the rows of csv in its cycle table, implementation t. */
/* csv, read as the file origin, into env's cycle tables (added to what they hold). */
static void add_table(struct model_env *env, const char *csv, const char *origin)
{
    char err[256];
    assert_int_equal(pqpan_io_cycles_parse(&env->in.cycles, csv, strlen(csv), origin, err,
                                           sizeof err),
                     PQPAN_OK);
}

static struct model_env *load_env(const char *csv)
{
    struct model_opts mo;
    struct model_env *env = malloc(sizeof *env);
    assert_non_null(env);
    model_opts_init(&mo);
    assert_int_equal(model_env_load(env, &mo, "test"), EXIT_OK);
    memset(&env->in.cycles, 0, sizeof env->in.cycles);
    add_table(env, csv, "t.csv");
    strcpy(env->in.crypto_impl, "t");
    return env;
}

static void run_sig(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, unsigned mode)
{
    struct pqpan_ble_config cfg;
    struct cli_msg msg;
    pqpan_ble_config_default(&cfg);
    cfg.protocol = PQPAN_BLE_PROTO_PQPAN;
    cfg.pqke_mode = mode;
    assert_int_equal(model_run(rows, env, "ML-KEM-768", &cfg, 0, &msg), EXIT_OK);
}

static void assert_close(double got, double want)
{
    double tol = 1e-9 * (want > 0 ? want : -want) + 1e-9;
    if (got < want - tol || got > want + tol) {
        fail_msg("got %.12g, want %.12g", got, want);
    }
}

static void test_p99_from_the_table(void **state)
{
    struct model_env *env = load_env(table_csv);
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    int s;
    (void)state;
    run_sig(rows, env, PQPAN_PQKE_MODE_SIG);
    for (s = 0; s < MODEL_SIDES; s++) {
        const struct pqpan_run_exchange_row *r = &rows[s];
        assert_string_equal(r->sig_sign_source, "t.csv");
        assert_int_equal(r->sig_sign_cycles_mean, 4000000);
        assert_int_equal(r->sig_sign_runs, 1000);
        assert_int_equal(r->sig_sign_cycles_median, 3000000);
        assert_int_equal(r->sig_sign_cycles_p99, 16000000);
        assert_int_equal(r->sig_sign_cycles_max, 0);
        /* p99 / mean = 4 */
        assert_close(r->e_comp_sig_sign_p99_uj, 4.0 * r->e_comp_op_uj[PQPAN_OP_SIG_SIGN]);
        /* at the profile's 64 MHz: 62.5 ms per signing at the mean, 250 ms at the p99 */
        assert_close(r->t_sig_sign_ms, 62.5 * (double)r->sig_signs);
        assert_close(r->t_sig_sign_p99_ms, 250.0 * (double)r->sig_signs);
    }
    /* sig: the responder signs once, the initiator not at all */
    assert_int_equal(rows[MODEL_TOTAL].sig_signs, 1);
    assert_true(rows[MODEL_TOTAL].e_comp_op_uj[PQPAN_OP_SIG_SIGN] > 0.0);
    free(env);
}

static void test_mutual_signs_on_both_sides(void **state)
{
    struct model_env *env = load_env(table_csv);
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    (void)state;
    run_sig(rows, env, PQPAN_PQKE_MODE_SIG_MUTUAL);
    assert_int_equal(rows[MODEL_PERIPHERAL].sig_signs, 1);
    assert_int_equal(rows[MODEL_CENTRAL].sig_signs, 1);
    assert_close(rows[MODEL_TOTAL].t_sig_sign_p99_ms, 500.0);
    free(env);
}

/* A spread measured with another mean (another measurement) is not stated: p99 unknown. */
static void test_spread_of_another_mean_not_used(void **state)
{
    static const char other[] = "scheme,implementation,operation,cycles_mean,executions,cycles_max\n"
                                "ml-dsa-65,t,sign,4100000,1000,9000000\n";
    struct model_env *env = load_env(mean_only_csv);
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    (void)state;
    add_table(env, other, "o.csv");
    run_sig(rows, env, PQPAN_PQKE_MODE_SIG);
    assert_string_equal(rows[MODEL_TOTAL].sig_sign_source, "t.csv");
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_cycles_mean, 4000000);
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_runs, 0);
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_cycles_p99, 0);
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_cycles_max, 0);
    assert_true(rows[MODEL_TOTAL].e_comp_sig_sign_p99_uj < 0.0);
    free(env);
}

/* pqm4's layout: the mean in one file, executions and max in the detail file. */
static void test_spread_from_a_second_file(void **state)
{
    static const char detail[] = "scheme,implementation,operation,executions,cycles_mean,cycles_max\n"
                                 "ml-dsa-65,t,sign,1000,4000000,70000000\n";
    struct model_env *env = load_env(mean_only_csv);
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    (void)state;
    add_table(env, detail, "d.csv");
    run_sig(rows, env, PQPAN_PQKE_MODE_SIG);
    assert_string_equal(rows[MODEL_TOTAL].sig_sign_source, "d.csv");
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_runs, 1000);
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_cycles_max, 70000000);
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_cycles_p99, 0);
    free(env);
}

static void test_no_signing_no_fields(void **state)
{
    struct model_env *env = load_env(table_csv);
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    (void)state;
    run_sig(rows, env, PQPAN_PQKE_MODE_NONE);
    assert_null(rows[MODEL_TOTAL].sig_sign_source);
    assert_int_equal(rows[MODEL_TOTAL].sig_sign_cycles_mean, 0);
    free(env);
}

static void test_bad_spread_value_refused(void **state)
{
    static const char csv[] = "scheme,implementation,operation,cycles_mean,cycles_p99\n"
                              "ml-dsa-65,t,sign,4000000,many\n";
    struct pqpan_cycle_table *t = calloc(1, sizeof *t);
    char err[256];
    (void)state;
    assert_non_null(t);
    assert_int_equal(pqpan_io_cycles_parse(t, csv, strlen(csv), "b.csv", err, sizeof err),
                     PQPAN_ERR_MALFORMED);
    assert_non_null(strstr(err, "cycles_p99"));
    assert_int_equal(t->count, 0);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_p99_from_the_table),
        cmocka_unit_test(test_mutual_signs_on_both_sides),
        cmocka_unit_test(test_spread_of_another_mean_not_used),
        cmocka_unit_test(test_spread_from_a_second_file),
        cmocka_unit_test(test_no_signing_no_fields),
        cmocka_unit_test(test_bad_spread_value_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
