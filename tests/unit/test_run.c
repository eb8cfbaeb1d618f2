/* Tests for pqpan_run (include/pqpan/run.h, src/run/run.c, run_estimate.c): a request of
 * estimate gives its notes and three sides as rows of the BLE field table; a flag takes
 * on / off; a bad value, an unknown option and an unknown command are PQPAN_ERR_INVALID_ARG
 * with a message naming what was wrong; an emit that stops the run is PQPAN_ERR_IO. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/error.h"
#include "pqpan/run.h"

/* What a run gave: counts of each record, and the sides' e_total_uj and e_comm_uj. */
struct got {
    int notes, members, sides, stop_after;
    char side[PQPAN_RUN_SIDES][16];
    double e_total[PQPAN_RUN_SIDES], e_comm[PQPAN_RUN_SIDES];
    int json_has_profile;
};

/* The value of field name in row, of type type. */
static const struct pqpan_run_value *field(const struct pqpan_run_row *row, const char *name,
                                           enum pqpan_run_type type)
{
    size_t k;
    for (k = 0; k < row->n_fields && strcmp(row->fields[k].name, name) != 0; k++) {
    }
    assert_true(k < row->n_fields);
    assert_int_equal(row->values[k].type, type);
    return &row->values[k];
}

static int collect(void *ctx, const struct pqpan_run_row *row)
{
    struct got *g = ctx;
    int s = g->sides;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        g->notes++;
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        g->members++;
        g->json_has_profile = strstr(row->values[0].text, "\"profile\": \"nrf52840\"") != NULL;
        break;
    case PQPAN_RUN_RECORD_WARNING:
        break;
    case PQPAN_RUN_RECORD_SIDE:
        assert_int_equal(row->link, PQPAN_RUN_LINK_BLE);
        assert_true(s < PQPAN_RUN_SIDES);
        strncpy(g->side[s], field(row, "side", PQPAN_RUN_TEXT)->text, sizeof g->side[s] - 1);
        g->e_total[s] = field(row, "e_total_uj", PQPAN_RUN_REAL)->x;
        g->e_comm[s] = field(row, "e_comm_uj", PQPAN_RUN_REAL)->x;
        g->sides++;
        break;
    }
    return g->stop_after > 0 && g->notes >= g->stop_after ? -1 : 0;
}

static int run(struct got *g, const struct pqpan_run_opt *opts, size_t n, struct pqpan_run_error *err)
{
    memset(g, 0, sizeof *g);
    return pqpan_run("estimate", opts, n, collect, g, err);
}

static void test_estimate_rows(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--kem", "ML-KEM-512"}, {"--att-mtu", "517"}};
    struct pqpan_run_error err;
    struct got g;
    (void)state;
    assert_int_equal(run(&g, opts, 2, &err), PQPAN_OK);
    assert_true(g.notes > 5);
    assert_int_equal(g.members, 1);
    assert_true(g.json_has_profile);
    assert_int_equal(g.sides, PQPAN_RUN_SIDES);
    assert_string_equal(g.side[0], "peripheral");
    assert_string_equal(g.side[1], "central");
    assert_string_equal(g.side[2], "total");
    assert_true(g.e_total[0] > 0.0 && g.e_total[1] > 0.0);
    assert_true(fabs(g.e_total[2] - (g.e_total[0] + g.e_total[1])) < 1e-6 * g.e_total[2]);
}

/* --encrypted is a flag: "off" is the flag left out, "on" the flag given (a MIC on every
 * data PDU costs air time). */
static void test_flag_on_off(void **state)
{
    static const struct pqpan_run_opt off[] = {{"--encrypted", "off"}};
    static const struct pqpan_run_opt on[] = {{"--encrypted", "on"}};
    static const struct pqpan_run_opt bare[] = {{"--encrypted", NULL}};
    struct pqpan_run_error err;
    struct got none, g_off, g_on, g_bare;
    (void)state;
    assert_int_equal(run(&none, NULL, 0, &err), PQPAN_OK);
    assert_int_equal(run(&g_off, off, 1, &err), PQPAN_OK);
    assert_int_equal(run(&g_on, on, 1, &err), PQPAN_OK);
    assert_int_equal(run(&g_bare, bare, 1, &err), PQPAN_OK);
    assert_true(g_off.e_comm[2] == none.e_comm[2]);
    assert_true(g_on.e_comm[2] == g_bare.e_comm[2]);
    assert_true(g_on.e_comm[2] > g_off.e_comm[2]);
}

static void test_errors(void **state)
{
    static const struct pqpan_run_opt bad_value[] = {{"--kem", "ML-KEM-512"}, {"--att-mtu", "9"}};
    static const struct pqpan_run_opt unknown[] = {{"--att-mut", "517"}};
    static const struct pqpan_run_opt bad_flag[] = {{"--encrypted", "maybe"}};
    static const struct pqpan_run_opt no_value[] = {{"--phy", NULL}};
    static const struct pqpan_run_opt auth_study[] = {{"--protocol", "study"}, {"--auth", "psk"}};
    struct pqpan_run_error err;
    struct got g;
    (void)state;
    assert_int_equal(run(&g, bad_value, 2, &err), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(err.code, PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--att-mtu");
    assert_non_null(strstr(err.message, "--att-mtu: '9'"));
    assert_int_equal(g.notes + g.sides, 0);
    assert_int_equal(run(&g, unknown, 1, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "did you mean --att-mtu"));
    assert_int_equal(run(&g, bad_flag, 1, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--encrypted");
    assert_int_equal(run(&g, no_value, 1, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "--phy needs a value"));
    assert_int_equal(run(&g, auth_study, 2, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "--protocol pqpan"));
    assert_int_equal(pqpan_run("no-such-command", NULL, 0, collect, &g, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "no-such-command"));
}

static void test_emit_stops(void **state)
{
    struct pqpan_run_error err;
    struct got g;
    (void)state;
    memset(&g, 0, sizeof g);
    g.stop_after = 1;
    assert_int_equal(pqpan_run("estimate", NULL, 0, collect, &g, &err), PQPAN_ERR_IO);
    assert_int_equal(g.notes, 1);
    assert_int_equal(g.sides, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_rows),
        cmocka_unit_test(test_flag_on_off),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_emit_stops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
