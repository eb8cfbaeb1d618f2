/* Tests for pqpan_run (include/pqpan/run.h, src/run/run.c, run_estimate.c, run_idle.c): a request of
 * estimate gives its notes and three sides as rows of the BLE field table; a flag takes
 * on / off; a bad value, an unknown option and an unknown command are PQPAN_ERR_INVALID_ARG
 * with a message naming what was wrong; an emit that stops the run is PQPAN_ERR_IO. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/error.h"
#include "pqpan/run.h"

/* What a run gave: counts of each record, and the sides' e_total_uj and e_comm_uj. */
struct got {
    int notes, members, warnings, sides, stop_after;
    enum pqpan_run_link link;
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
        g->warnings++;
        break;
    case PQPAN_RUN_RECORD_SIDE:
        g->link = row->link;
        assert_true(s < PQPAN_RUN_SIDES);
        strncpy(g->side[s], field(row, "side", PQPAN_RUN_TEXT)->text, sizeof g->side[s] - 1);
        g->e_total[s] = field(row, "e_total_uj", PQPAN_RUN_REAL)->x;
        g->e_comm[s] = field(row, "e_comm_uj", PQPAN_RUN_REAL)->x;
        g->sides++;
        break;
    case PQPAN_RUN_RECORD_IDLE:
    case PQPAN_RUN_RECORD_PHASE:
    case PQPAN_RUN_RECORD_CHOICE:
        fail_msg("estimate gave an idle or advise record");
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
    assert_int_equal(g.link, PQPAN_RUN_LINK_BLE);
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

/* --link 802154: the 802.15.4 field table's sides, its own options (a BLE one is unknown),
 * a warning when every frame gets the channel only rarely, --hops > 1 not through the run. */
static void test_802154(void **state)
{
    static const struct pqpan_run_opt lowpan[] = {{"--link", "802154"}, {"--kem", "ML-KEM-512"}};
    static const struct pqpan_run_opt busy[] = {{"--link", "802154"}, {"--busy", "0.9"}};
    static const struct pqpan_run_opt ble_opt[] = {{"--link", "802154"}, {"--att-mtu", "517"}};
    static const struct pqpan_run_opt hops[] = {{"--link", "802154"}, {"--hops", "3"}};
    struct pqpan_run_error err;
    struct got g;
    (void)state;
    assert_int_equal(run(&g, lowpan, 2, &err), PQPAN_OK);
    assert_int_equal(g.link, PQPAN_RUN_LINK_802154);
    assert_int_equal(g.sides, PQPAN_RUN_SIDES);
    assert_string_equal(g.side[0], "initiator");
    assert_string_equal(g.side[1], "responder");
    assert_int_equal(g.warnings, 0);
    assert_true(fabs(g.e_total[2] - (g.e_total[0] + g.e_total[1])) < 1e-6 * g.e_total[2]);
    assert_int_equal(run(&g, busy, 2, &err), PQPAN_OK);
    assert_int_equal(g.warnings, 1);
    assert_int_equal(run(&g, ble_opt, 2, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--att-mtu");
    assert_int_equal(run(&g, hops, 2, &err), PQPAN_ERR_UNSUPPORTED);
    assert_string_equal(err.option, "--hops");
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

/* What an idle run gave: the side's figures and the sum of its phases' charges. */
struct idle_got {
    int notes, members, idle, phases;
    unsigned events, latency;
    double period_ms, avg_ua, q_event_uc, q_period_uc, sleep_ua, q_phases_uc, q_sleep_uc;
    double sleep_phase_ua;
};

static int collect_idle(void *ctx, const struct pqpan_run_row *row)
{
    struct idle_got *g = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        g->notes++;
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        g->members++;
        break;
    case PQPAN_RUN_RECORD_IDLE:
        g->idle++;
        g->events = (unsigned)field(row, "events_per_period", PQPAN_RUN_COUNT)->u;
        g->latency = (unsigned)field(row, "latency", PQPAN_RUN_COUNT)->u;
        g->period_ms = field(row, "period_ms", PQPAN_RUN_REAL)->x;
        g->avg_ua = field(row, "avg_current_ua", PQPAN_RUN_REAL)->x;
        g->q_event_uc = field(row, "charge_per_event_uc", PQPAN_RUN_REAL)->x;
        g->q_period_uc = field(row, "charge_per_period_uc", PQPAN_RUN_REAL)->x;
        g->sleep_ua = field(row, "sleep_ua", PQPAN_RUN_REAL)->x;
        break;
    case PQPAN_RUN_RECORD_PHASE:
        assert_int_equal(g->idle, 1);
        g->phases++;
        g->q_phases_uc += field(row, "charge_uc", PQPAN_RUN_REAL)->x;
        if (strcmp(field(row, "phase", PQPAN_RUN_TEXT)->text, "sleep") == 0) {
            g->q_sleep_uc = field(row, "charge_uc", PQPAN_RUN_REAL)->x;
            g->sleep_phase_ua = field(row, "current_ua", PQPAN_RUN_REAL)->x;
        }
        break;
    default:
        fail_msg("idle gave a record not its own");
    }
    return 0;
}

static int run_idle(struct idle_got *g, const struct pqpan_run_opt *opts, size_t n,
                    struct pqpan_run_error *err)
{
    memset(g, 0, sizeof *g);
    return pqpan_run("idle", opts, n, collect_idle, g, err);
}

/* idle through pqpan_run, checked by hand: the period is (latency + 1) x interval, the
 * central wakes for every event of it and the peripheral for one, the period's charge is
 * the sum of its phases', the average current that charge over the period and the charge
 * of an event the period's without sleep, per event. */
static void test_idle(void **state)
{
    static const struct pqpan_run_opt central[] = {
        {"--idle-ci-ms", "100"}, {"--idle-latency", "4"}, {"--role", "central"}};
    static const struct pqpan_run_opt peripheral[] = {
        {"--idle-ci-ms", "100"}, {"--idle-latency", "4"}, {"--role", "peripheral"}};
    const struct pqpan_run_opt *req[] = {central, peripheral};
    static const unsigned events[] = {5, 1};
    struct pqpan_run_error err;
    struct idle_got g;
    size_t k;
    (void)state;
    for (k = 0; k < 2; k++) {
        assert_int_equal(run_idle(&g, req[k], 3, &err), PQPAN_OK);
        assert_true(g.notes > 3);
        assert_int_equal(g.members, 1);
        assert_int_equal(g.idle, 1);
        assert_int_equal(g.phases, PQPAN_RUN_IDLE_PHASES);
        assert_int_equal(g.latency, 4);
        assert_true(fabs(g.period_ms - 500.0) < 1e-9);
        assert_int_equal(g.events, events[k]);
        assert_true(fabs(g.q_phases_uc - g.q_period_uc) < 1e-9 * g.q_period_uc);
        assert_true(fabs(g.avg_ua - g.q_period_uc / 0.5) < 1e-9 * g.avg_ua);
        assert_true(fabs(g.q_event_uc - (g.q_period_uc - g.q_sleep_uc) / events[k]) <
                    1e-9 * g.q_event_uc);
        assert_true(g.sleep_phase_ua == g.sleep_ua);
    }
}

/* idle's errors: an estimate option is unknown to it, a period of 16 s or more names
 * --idle-latency (Core v5.4 Vol 6 Part B §4.5.2). */
static void test_idle_errors(void **state)
{
    static const struct pqpan_run_opt estimate_opt[] = {{"--att-mtu", "517"}};
    static const struct pqpan_run_opt too_long[] = {{"--idle-ci-ms", "4000"},
                                                    {"--idle-latency", "3"}};
    struct pqpan_run_error err;
    struct idle_got g;
    (void)state;
    assert_int_equal(run_idle(&g, estimate_opt, 1, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--att-mtu");
    assert_int_equal(run_idle(&g, too_long, 2, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--idle-latency");
    assert_non_null(strstr(err.message, "16 s"));
    assert_int_equal(g.notes + g.idle + g.phases, 0);
}

/* What an advise run gave: its CHOICE rows' figures and the JSON members. */
struct advised {
    int choices, notes, members;
    double objective[16], device_uj[16];
    const char *objective_unit;
    char link[16];
    char json[16384];
};

static int collect_advise(void *ctx, const struct pqpan_run_row *row)
{
    struct advised *a = ctx;
    size_t k;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        a->notes++;
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        a->members++;
        strncpy(a->json, row->values[0].text, sizeof a->json - 1);
        break;
    case PQPAN_RUN_RECORD_CHOICE:
        assert_true(a->choices < 16);
        a->objective[a->choices] = field(row, "objective_uj", PQPAN_RUN_REAL)->x;
        a->device_uj[a->choices] = field(row, "energy_device_uj", PQPAN_RUN_REAL)->x;
        assert_int_equal(field(row, "rank", PQPAN_RUN_COUNT)->u, (unsigned)a->choices + 1u);
        strncpy(a->link, field(row, "link", PQPAN_RUN_TEXT)->text, sizeof a->link - 1);
        for (k = 0; k < row->n_fields; k++) {
            a->objective_unit = strcmp(row->fields[k].name, "objective_uj") == 0
                                    ? row->fields[k].unit
                                    : a->objective_unit;
        }
        a->choices++;
        break;
    default:
        break;
    }
    return 0;
}

/* advise over 802.15.4 through pqpan_run: the CHOICE rows, in rank order, carry the
 * figures the CLI's JSON output (the MEMBERS row, what `pqpan advise --format json`
 * prints) gives for each recommendation, typed, with units. */
static void test_advise(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--link", "802154"}, {"--top", "3"}};
    struct pqpan_run_error err;
    struct advised *a = calloc(1, sizeof *a);
    const char *at;
    int k;
    (void)state;
    assert_non_null(a);
    assert_int_equal(pqpan_run("advise", opts, 2, collect_advise, a, &err), PQPAN_OK);
    assert_int_equal(a->members, 1);
    assert_true(a->notes > 10);
    assert_int_equal(a->choices, 3);
    assert_string_equal(a->link, "802154");
    assert_string_equal(a->objective_unit, "uJ");
    at = strstr(a->json, "\"recommendations\"");
    assert_non_null(at);
    for (k = 0; k < a->choices; k++) {
        at = strstr(at, "\"objective_uj\": ");
        assert_non_null(at);
        at += strlen("\"objective_uj\": ");
        assert_true(fabs(strtod(at, NULL) - a->objective[k]) <= 0.0005);
        /* one battery side, the device: the objective is its energy */
        assert_true(a->objective[k] == a->device_uj[k]);
        assert_true(k == 0 || a->objective[k] >= a->objective[k - 1]);
    }
    free(a);
}

/* advise refuses what it searches itself, naming the option. */
static void test_advise_errors(void **state)
{
    static const struct pqpan_run_opt kem[] = {{"--kem", "ML-KEM-768"}};
    struct pqpan_run_error err;
    struct advised *a = calloc(1, sizeof *a);
    (void)state;
    assert_non_null(a);
    assert_int_equal(pqpan_run("advise", kem, 1, collect_advise, a, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--kem");
    assert_non_null(strstr(err.message, "--min-level"));
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_rows),
        cmocka_unit_test(test_flag_on_off),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_802154),
        cmocka_unit_test(test_emit_stops),
        cmocka_unit_test(test_idle),
        cmocka_unit_test(test_idle_errors),
        cmocka_unit_test(test_advise),
        cmocka_unit_test(test_advise_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
