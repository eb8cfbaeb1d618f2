/* Tests for pqpan_run (include/pqpan/run.h, src/run/run.c, run_estimate.c, run_idle.c,
 * run_sweep.c, run_profiles.c, run_idle_802154.c, run_simulate.c, run_compare.c,
 * run_reproduce.c): a request of
 * estimate gives its notes and three sides as rows of the BLE field table; a flag takes
 * on / off; a bad value, an unknown option and an unknown command are PQPAN_ERR_INVALID_ARG
 * with a message naming what was wrong; an emit that stops the run is PQPAN_ERR_IO. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/error.h"
#include "pqpan/multihop154.h"
#include "pqpan/run.h"

/* What a run gave: counts of each record, and the sides' e_total_uj and e_comm_uj. */
struct got {
    int notes, members, warnings, sides, stop_after;
    int meshes; /* MESH rows (their side and energies in side, e_total, e_comm) */
    enum pqpan_run_link link;
    char side[PQPAN_RUN_SIDES][16];
    double e_total[PQPAN_RUN_SIDES], e_comm[PQPAN_RUN_SIDES];
    double e_ifs[PQPAN_RUN_SIDES], t_ifs[PQPAN_RUN_SIDES], e_tx[PQPAN_RUN_SIDES];
    double e_events[PQPAN_RUN_SIDES];
    unsigned long long pdus_tx[PQPAN_RUN_SIDES];
    int json_has_profile, json_has_bits_ifs;
    int nodes;
    char role[PQPAN_802154_CHAIN_NODES][16];
    double node_total[PQPAN_802154_CHAIN_NODES], node_comm[PQPAN_802154_CHAIN_NODES];
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

/* A SIDE or MESH row's side name and energies. */
static void take_side(struct got *g, const struct pqpan_run_row *row)
{
    int s = g->sides;
    g->link = row->link;
    assert_true(s < PQPAN_RUN_SIDES);
    strncpy(g->side[s], field(row, "side", PQPAN_RUN_TEXT)->text, sizeof g->side[s] - 1);
    g->e_total[s] = field(row, "e_total_uj", PQPAN_RUN_REAL)->x;
    g->e_comm[s] = field(row, "e_comm_uj", PQPAN_RUN_REAL)->x;
    g->sides++;
}

static int collect(void *ctx, const struct pqpan_run_row *row)
{
    struct got *g = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        g->notes++;
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        g->members++;
        g->json_has_profile = strstr(row->values[0].text, "\"profile\": \"nrf52840\"") != NULL;
        g->json_has_bits_ifs = strstr(row->values[0].text, "\"bits_ifs\": \"per-pdu-sent\"") != NULL;
        break;
    case PQPAN_RUN_RECORD_WARNING:
        g->warnings++;
        break;
    case PQPAN_RUN_RECORD_MESH:
        assert_string_equal(row->fields[0].name, "side");
        g->meshes++;
        take_side(g, row);
        break;
    case PQPAN_RUN_RECORD_SIDE:
        if (row->link == PQPAN_RUN_LINK_BLE) {
            int s = g->sides;
            assert_true(s < PQPAN_RUN_SIDES);
            g->e_ifs[s] = field(row, "e_comm_ifs_uj", PQPAN_RUN_REAL)->x;
            g->t_ifs[s] = field(row, "t_ifs_ms", PQPAN_RUN_REAL)->x;
            g->e_tx[s] = field(row, "e_comm_tx_uj", PQPAN_RUN_REAL)->x;
            g->e_events[s] = field(row, "e_total_events_uj", PQPAN_RUN_REAL)->x;
            g->pdus_tx[s] = field(row, "pdus_tx", PQPAN_RUN_COUNT)->u;
        }
        take_side(g, row);
        break;
    case PQPAN_RUN_RECORD_NODE:
        assert_true(g->nodes < (int)PQPAN_802154_CHAIN_NODES);
        assert_int_equal(field(row, "node", PQPAN_RUN_COUNT)->u, (unsigned long long)g->nodes);
        strncpy(g->role[g->nodes], field(row, "role", PQPAN_RUN_TEXT)->text, 15);
        g->node_total[g->nodes] = field(row, "e_total_events_uj", PQPAN_RUN_REAL)->x;
        g->node_comm[g->nodes] = field(row, "e_comm_events_uj", PQPAN_RUN_REAL)->x;
        g->nodes++;
        break;
    default:
        fail_msg("estimate gave another command's record (or simulate --hops)");
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

/* pqpan_run_flag_on reads a flag as pqpan_run does: no value or an on word sets it, an off
 * word leaves it unset, the last pair of the name wins, other names do not count. */
static void test_flag_on_reads_the_request(void **state)
{
    static const struct pqpan_run_opt given[] = {{"--segments", NULL}};
    static const struct pqpan_run_opt words[] = {{"--segments", "YES"}, {"--lenient", "off"}};
    static const struct pqpan_run_opt last_off[] = {{"--segments", "on"}, {"--segments", "0"}};
    static const struct pqpan_run_opt other[] = {{"--lenient", "on"}};
    (void)state;
    assert_true(pqpan_run_flag_on(given, 1, "--segments"));
    assert_true(pqpan_run_flag_on(words, 2, "--segments"));
    assert_false(pqpan_run_flag_on(words, 2, "--lenient"));
    assert_false(pqpan_run_flag_on(last_off, 2, "--segments"));
    assert_false(pqpan_run_flag_on(other, 1, "--segments"));
    assert_false(pqpan_run_flag_on(NULL, 0, "--segments"));
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

/* T_IFS, Core v5.4 Vol 6 Part B §4.1.1: 150 us. */
#define T_IFS_MS 0.150

/* --bits-ifs per-pdu-sent books one T_IFS per PDU a side sends in the bits accounting
 * (ble.h enum pqpan_ble_bits_ifs): t_ifs_ms = pdus_tx x 150 us on each side, fewer than
 * each's two per pair; the IFS energy scales with that time (the same RX current and
 * gamma), TX, RX and the events accounting do not move; the notes name the rule. */
static void test_bits_ifs(void **state)
{
    static const struct pqpan_run_opt per_pdu[] = {{"--bits-ifs", "per-pdu-sent"}};
    static const struct pqpan_run_opt each[] = {{"--bits-ifs", "each"}};
    static const struct pqpan_run_opt bad[] = {{"--bits-ifs", "none"}};
    struct pqpan_run_error err;
    struct got dflt, g_each, g_per;
    int s;
    (void)state;
    assert_int_equal(run(&dflt, NULL, 0, &err), PQPAN_OK);
    assert_int_equal(run(&g_each, each, 1, &err), PQPAN_OK);
    assert_int_equal(run(&g_per, per_pdu, 1, &err), PQPAN_OK);
    assert_false(dflt.json_has_bits_ifs);
    assert_true(g_per.json_has_bits_ifs);
    assert_int_equal(g_per.notes, dflt.notes + 1);
    for (s = 0; s < PQPAN_RUN_SIDES; s++) {
        assert_true(g_each.e_comm[s] == dflt.e_comm[s]);
        assert_true(fabs(g_per.t_ifs[s] - (double)g_per.pdus_tx[s] * T_IFS_MS) < 1e-9);
        assert_true(g_per.t_ifs[s] < dflt.t_ifs[s]);
        assert_true(fabs(g_per.e_ifs[s] / dflt.e_ifs[s] - g_per.t_ifs[s] / dflt.t_ifs[s]) < 1e-9);
        assert_true(fabs((dflt.e_comm[s] - g_per.e_comm[s]) - (dflt.e_ifs[s] - g_per.e_ifs[s])) <
                    1e-9 * dflt.e_comm[s]);
        assert_true(g_per.e_tx[s] == dflt.e_tx[s]);
        assert_true(g_per.e_events[s] == dflt.e_events[s]);
    }
    assert_int_equal(run(&g_per, bad, 1, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--bits-ifs");
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
    static const struct pqpan_run_opt sleepy_hops[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--idle", "sleep"}};
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
    assert_int_equal(run(&g, hops, 2, &err), PQPAN_OK);
    assert_int_equal(g.sides, 0);
    assert_int_equal(g.members, 1);
    assert_int_equal(g.nodes, 4);
    assert_string_equal(g.role[0], "initiator");
    assert_string_equal(g.role[1], "forwarder");
    assert_string_equal(g.role[2], "forwarder");
    assert_string_equal(g.role[3], "responder");
    /* the ends compute (KeyGen, Encaps, Decaps, KDF), a forwarder only relays */
    assert_true(g.node_comm[0] < g.node_total[0] && g.node_comm[3] < g.node_total[3]);
    assert_true(g.node_comm[1] == g.node_total[1] && g.node_comm[2] == g.node_total[2]);
    assert_int_equal(run(&g, sleepy_hops, 3, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "--idle listen"));
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
    int battery;
    enum pqpan_run_link battery_link;
    char battery_side[16];
    double b_exchange_uc, b_idle_ua, b_rekey_ua, b_drain_ua, b_avg_ua, b_usable_uc;
    double b_life_years, b_life_idle_years, b_supply_v;
};

/* The BATTERY row's figures into g. */
static void collect_battery(struct idle_got *g, const struct pqpan_run_row *row)
{
    assert_int_equal(g->phases > 0, 1);
    g->battery++;
    g->battery_link = row->link;
    strncpy(g->battery_side, field(row, "side", PQPAN_RUN_TEXT)->text, 15);
    g->b_exchange_uc = field(row, "charge_per_exchange_uc", PQPAN_RUN_REAL)->x;
    g->b_idle_ua = field(row, "idle_current_ua", PQPAN_RUN_REAL)->x;
    g->b_rekey_ua = field(row, "rekey_current_ua", PQPAN_RUN_REAL)->x;
    g->b_drain_ua = field(row, "drain_ua", PQPAN_RUN_REAL)->x;
    g->b_avg_ua = field(row, "avg_current_ua", PQPAN_RUN_REAL)->x;
    g->b_usable_uc = field(row, "usable_uc", PQPAN_RUN_REAL)->x;
    g->b_life_years = field(row, "life_years", PQPAN_RUN_REAL)->x;
    g->b_life_idle_years = field(row, "life_idle_years", PQPAN_RUN_REAL)->x;
    g->b_supply_v = field(row, "supply_v", PQPAN_RUN_REAL)->x;
}

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
        g->avg_ua = field(row, "avg_current_ua", PQPAN_RUN_REAL)->x;
        if (row->link == PQPAN_RUN_LINK_802154) {
            break; /* a poll: test_idle_802154's */
        }
        g->events = (unsigned)field(row, "events_per_period", PQPAN_RUN_COUNT)->u;
        g->latency = (unsigned)field(row, "latency", PQPAN_RUN_COUNT)->u;
        g->period_ms = field(row, "period_ms", PQPAN_RUN_REAL)->x;
        g->q_event_uc = field(row, "charge_per_event_uc", PQPAN_RUN_REAL)->x;
        g->q_period_uc = field(row, "charge_per_period_uc", PQPAN_RUN_REAL)->x;
        g->sleep_ua = field(row, "sleep_ua", PQPAN_RUN_REAL)->x;
        break;
    case PQPAN_RUN_RECORD_PHASE:
        assert_int_equal(g->idle, 1);
        g->phases++;
        if (row->link == PQPAN_RUN_LINK_802154) {
            break;
        }
        g->q_phases_uc += field(row, "charge_uc", PQPAN_RUN_REAL)->x;
        if (strcmp(field(row, "phase", PQPAN_RUN_TEXT)->text, "sleep") == 0) {
            g->q_sleep_uc = field(row, "charge_uc", PQPAN_RUN_REAL)->x;
            g->sleep_phase_ua = field(row, "current_ua", PQPAN_RUN_REAL)->x;
        }
        break;
    case PQPAN_RUN_RECORD_BATTERY:
        collect_battery(g, row);
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
/* One year of 365.25 days, in seconds (advise's battery life). */
#define YEAR_S (365.25 * 86400.0)

static int near(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fabs(b);
}

/* idle --exchange-uj: one BATTERY row after the phases, by hand: the exchange's charge is
 * its energy over the supply, rekeying every hour adds that charge per 3600 s (the exchange
 * taking no time), the total is idle + rekeying + drain, and the life is the usable charge
 * (1000 mAh x 3.6 C/mAh x derate) over it; without --exchange-uj no BATTERY row. On both
 * links: the BLE side is --role's, 802.15.4's the polling device. */
static void test_idle_battery(void **state)
{
    static const struct pqpan_run_opt ble[] = {
        {"--exchange-uj", "5000"}, {"--rekey-every", "1h"}, {"--battery-mah", "1000"},
        {"--battery-derate", "0.8"}, {"--role", "central"}};
    static const struct pqpan_run_opt lowpan[] = {
        {"--link", "802154"}, {"--exchange-uj", "5000"}, {"--rekey-every", "1h"}};
    struct pqpan_run_error err;
    struct idle_got g, plain;
    (void)state;
    assert_int_equal(run_idle(&plain, ble + 4, 1, &err), PQPAN_OK);
    assert_int_equal(plain.battery, 0);
    assert_int_equal(run_idle(&g, ble, 5, &err), PQPAN_OK);
    assert_int_equal(g.battery, 1);
    assert_int_equal(g.battery_link, PQPAN_RUN_LINK_BLE);
    assert_string_equal(g.battery_side, "central");
    assert_true(near(g.b_idle_ua, plain.avg_ua));
    assert_true(near(g.b_exchange_uc, 5000.0 / g.b_supply_v));
    assert_true(near(g.b_rekey_ua, g.b_exchange_uc / 3600.0));
    assert_true(near(g.b_avg_ua, g.b_idle_ua + g.b_rekey_ua + g.b_drain_ua));
    assert_true(near(g.b_usable_uc, 1000.0 * 3.6e6 * 0.8));
    assert_true(near(g.b_life_years, g.b_usable_uc / g.b_avg_ua / YEAR_S));
    assert_true(near(g.b_life_idle_years, g.b_usable_uc / (g.b_idle_ua + g.b_drain_ua) / YEAR_S));
    assert_int_equal(run_idle(&g, lowpan, 3, &err), PQPAN_OK);
    assert_int_equal(g.battery, 1);
    assert_int_equal(g.battery_link, PQPAN_RUN_LINK_802154);
    assert_string_equal(g.battery_side, "device");
    assert_true(near(g.b_idle_ua, g.avg_ua));
}

/* The battery options' refusals, each naming its option: one of advise's rows without
 * --exchange-uj, the figures as CSV, an exchange longer than the rekey interval, on both
 * links. */
static void test_idle_battery_errors(void **state)
{
    static const struct pqpan_run_opt no_exchange[] = {{"--battery-mah", "1000"}};
    static const struct pqpan_run_opt csv[] = {{"--exchange-uj", "5000"}, {"--format", "csv"}};
    static const struct pqpan_run_opt too_long[] = {
        {"--link", "802154"}, {"--exchange-uj", "5000"}, {"--rekey-every", "1s"},
        {"--exchange-ms", "2000"}};
    struct pqpan_run_error err;
    struct idle_got g;
    (void)state;
    assert_int_equal(run_idle(&g, no_exchange, 1, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--battery-mah");
    assert_non_null(strstr(err.message, "needs --exchange-uj"));
    assert_int_equal(run_idle(&g, csv, 2, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--exchange-uj");
    assert_int_equal(run_idle(&g, too_long, 4, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--exchange-ms");
    assert_int_equal(g.battery, 0);
}

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

/* What a sweep gave: its CONFIG rows, its SIDE rows, and the total side's e_total_uj of the
 * configuration whose options' values are want[0..n_want). */
struct swept {
    int configs, sides, valid;
    unsigned long long total;
    const char *const *want;
    size_t n_want;
    int matched;   /* the last CONFIG row is the one wanted */
    double e_total;
};

static int collect_sweep(void *ctx, const struct pqpan_run_row *row)
{
    struct swept *g = ctx;
    size_t k;
    if (row->record == PQPAN_RUN_RECORD_CONFIG) {
        assert_int_equal(row->n_fields, 3 + g->n_want);
        assert_int_equal(field(row, "config", PQPAN_RUN_COUNT)->u, (unsigned long long)g->configs);
        g->total = field(row, "configs", PQPAN_RUN_COUNT)->u;
        g->valid += strcmp(field(row, "status", PQPAN_RUN_TEXT)->text, "ok") == 0;
        g->matched = 1;
        for (k = 0; k < g->n_want; k++) {
            g->matched &= strcmp(row->values[3 + k].text, g->want[k]) == 0;
        }
        g->configs++;
    } else {
        assert_int_equal(row->record, PQPAN_RUN_RECORD_SIDE);
        if (g->matched && strcmp(field(row, "side", PQPAN_RUN_TEXT)->text, "total") == 0) {
            g->e_total = field(row, "e_total_uj", PQPAN_RUN_REAL)->x;
        }
        g->sides++;
    }
    return 0;
}

/* sweep: one CONFIG row per configuration (the product of the lists' lengths: 2 x 2 x 3),
 * each followed by its three sides; a configuration's figures are estimate's for the same
 * options. */
static void test_sweep(void **state)
{
    static const struct pqpan_run_opt opts[] = {
        {"--kem", "ML-KEM-512,ML-KEM-768"}, {"--att-mtu", "403,517"}, {"--phy", "1M,2M,S8"}};
    static const char *const want[] = {"ML-KEM-768", "517", "2M"};
    static const struct pqpan_run_opt one[] = {
        {"--kem", "ML-KEM-768"}, {"--att-mtu", "517"}, {"--phy", "2M"}};
    struct pqpan_run_error err;
    struct swept g;
    struct got e;
    (void)state;
    memset(&g, 0, sizeof g);
    g.want = want;
    g.n_want = 3;
    assert_int_equal(pqpan_run("sweep", opts, 3, collect_sweep, &g, &err), PQPAN_OK);
    assert_int_equal(g.configs, 2 * 2 * 3);
    assert_int_equal(g.total, 2 * 2 * 3);
    assert_int_equal(g.valid, 2 * 2 * 3);
    assert_int_equal(g.sides, 2 * 2 * 3 * PQPAN_RUN_SIDES);
    assert_int_equal(run(&e, one, 3, &err), PQPAN_OK);
    assert_true(e.e_total[2] > 0.0);
    assert_true(g.e_total == e.e_total[2]);
}

/* sweep's errors: a bad value in a list names its option. */
static void test_sweep_errors(void **state)
{
    static const struct pqpan_run_opt bad[] = {{"--att-mtu", "247,9"}};
    struct pqpan_run_error err;
    struct swept g;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("sweep", bad, 1, collect_sweep, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--att-mtu");
    assert_non_null(strstr(err.message, "'9'"));
    assert_int_equal(g.configs, 0);
}

/* What a sweep's SWEEP_EXTRA rows gave (at most 4 configurations). */
struct extras {
    int configs, rows, config_fields;
    size_t n_fields[4];
    struct pqpan_run_value v[4][8]; /* the first 8 values of each */
    const char *name[8];            /* of the first row */
    char per[4][8];
};

static int collect_extra(void *ctx, const struct pqpan_run_row *row)
{
    struct extras *x = ctx;
    size_t k;
    if (row->record == PQPAN_RUN_RECORD_CONFIG) {
        x->config_fields = (int)row->n_fields;
        x->configs++;
    } else if (row->record == PQPAN_RUN_RECORD_SWEEP_EXTRA) {
        assert_true(x->rows < 4 && x->rows == x->configs - 1);
        x->n_fields[x->rows] = row->n_fields;
        for (k = 0; k < row->n_fields && k < 8; k++) {
            x->v[x->rows][k] = row->values[k];
            x->name[k] = row->fields[k].name;
            if (strcmp(row->fields[k].name, "sim_per") == 0) {
                strncpy(x->per[x->rows], row->values[k].text, 7);
            }
        }
        x->rows++;
    } else {
        assert_int_equal(row->record, PQPAN_RUN_RECORD_SIDE);
    }
    return 0;
}

/* sweep --per and the 802.15.4 chain through pqpan_run (they were the CLI's): --per 0,1
 * with 3 runs from seed 10: one SWEEP_EXTRA row per configuration after its sides
 * (sim_per as given, not a CONFIG field), run 0 of configuration c seeded 10 + 3c, no
 * failure at PER 0, all 3 runs failed at PER 1; --hops 1,3: the chain's four columns, no
 * forwarder at one hop, and at 3 hops the initiator's energy is estimate --hops 3's node
 * 0; --idle sleep makes the chain invalid: its values unknown. */
static void test_sweep_extra(void **state)
{
    static const struct pqpan_run_opt per[] = {{"--per", "0,1"}, {"--runs", "3"}, {"--seed", "10"}};
    static const struct pqpan_run_opt chain[] = {{"--link", "802154"}, {"--hops", "1,3"}};
    static const struct pqpan_run_opt hops3[] = {{"--link", "802154"}, {"--hops", "3"}};
    static const struct pqpan_run_opt sleepy[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--idle", "listen,sleep"}};
    struct pqpan_run_error err;
    struct extras x;
    struct got e;
    (void)state;
    memset(&x, 0, sizeof x);
    assert_int_equal(pqpan_run("sweep", per, 3, collect_extra, &x, &err), PQPAN_OK);
    assert_int_equal(x.rows, 2);
    assert_int_equal(x.config_fields, 3);
    assert_string_equal(x.name[0], "sim_per");
    assert_string_equal(x.name[3], "sim_failed");
    assert_string_equal(x.per[0], "0");
    assert_string_equal(x.per[1], "1");
    assert_int_equal(x.v[0][1].u, 3);  /* sim_runs */
    assert_int_equal(x.v[0][2].u, 10); /* sim_seed */
    assert_int_equal(x.v[1][2].u, 13);
    assert_int_equal(x.v[0][3].u, 0);  /* sim_failed */
    assert_int_equal(x.v[1][3].u, 3);
    assert_true(x.v[1][4].x == 1.0);   /* sim_failure_rate */
    memset(&x, 0, sizeof x);
    assert_int_equal(pqpan_run("sweep", chain, 2, collect_extra, &x, &err), PQPAN_OK);
    assert_int_equal(x.rows, 2);
    assert_int_equal(x.n_fields[0], 4);
    assert_string_equal(x.name[1], "chain_initiator_uj");
    assert_false(x.v[0][2].known); /* no forwarder at one hop */
    assert_true(x.v[1][2].known && x.v[1][2].x > 0.0);
    assert_int_equal(run(&e, hops3, 2, &err), PQPAN_OK);
    assert_true(x.v[1][1].x == e.node_total[0]);
    memset(&x, 0, sizeof x);
    assert_int_equal(pqpan_run("sweep", sleepy, 3, collect_extra, &x, &err), PQPAN_OK);
    assert_true(x.v[0][0].known && !x.v[1][0].known && !x.v[1][1].known);
}

/* What a profiles run gave. */
struct listed {
    int profiles, figures, nrf52840;
    double supply_v;
};

static int collect_profiles(void *ctx, const struct pqpan_run_row *row)
{
    struct listed *g = ctx;
    if (row->record == PQPAN_RUN_RECORD_PROFILE) {
        const struct pqpan_run_profile_row *p = row->data;
        g->profiles++;
        assert_string_equal(field(row, "name", PQPAN_RUN_TEXT)->text, p->name);
        if (strcmp(p->name, "nrf52840") == 0) {
            g->nrf52840 = 1;
            g->supply_v = field(row, "supply_v", PQPAN_RUN_REAL)->x;
        }
    } else {
        assert_int_equal(row->record, PQPAN_RUN_RECORD_FIGURE);
        g->figures++;
    }
    return 0;
}

/* profiles: one PROFILE row per built-in profile (nrf52840 among them, at a supply in the
 * nRF52840's 1.7..5.5 V, Product Specification v1.7 §5.3.2), the listed columns' sources
 * after each; --show gives one profile and every figure of its file; an unknown name is
 * refused. */
static void test_profiles(void **state)
{
    static const struct pqpan_run_opt show[] = {{"--show", "NRF52840"}};
    static const struct pqpan_run_opt unknown[] = {{"--show", "no-such-chip"}};
    struct pqpan_run_error err;
    struct listed all, one;
    (void)state;
    memset(&all, 0, sizeof all);
    memset(&one, 0, sizeof one);
    assert_int_equal(pqpan_run("profiles", NULL, 0, collect_profiles, &all, &err), PQPAN_OK);
    assert_true(all.profiles >= 2 && all.nrf52840);
    assert_true(all.supply_v >= 1.7 && all.supply_v <= 5.5);
    assert_true(all.figures >= all.profiles);
    assert_int_equal(pqpan_run("profiles", show, 1, collect_profiles, &one, &err), PQPAN_OK);
    assert_int_equal(one.profiles, 1);
    assert_true(one.nrf52840 && one.figures > all.figures / all.profiles);
    assert_int_not_equal(pqpan_run("profiles", unknown, 1, collect_profiles, &one, &err), PQPAN_OK);
    assert_non_null(strstr(err.message, "no-such-chip"));
}

/* What idle --link 802154 gave: the period's figures and the sum of its phases' charges. */
struct poll_got {
    int notes, members, idle, phases;
    double poll_uc, sleep_uc, period_uc, avg_ua, active_us, period_us, q_active_uc, tx_us;
    unsigned psdu;
};

static int collect_poll(void *ctx, const struct pqpan_run_row *row)
{
    struct poll_got *g = ctx;
    assert_true(row->record == PQPAN_RUN_RECORD_NOTE || row->record == PQPAN_RUN_RECORD_MEMBERS ||
                row->link == PQPAN_RUN_LINK_802154);
    if (row->record == PQPAN_RUN_RECORD_NOTE) {
        g->notes++;
    } else if (row->record == PQPAN_RUN_RECORD_MEMBERS) {
        g->members++;
    } else if (row->record == PQPAN_RUN_RECORD_IDLE) {
        g->idle++;
        g->poll_uc = field(row, "charge_per_poll_uc", PQPAN_RUN_REAL)->x;
        g->sleep_uc = field(row, "sleep_charge_uc", PQPAN_RUN_REAL)->x;
        g->period_uc = field(row, "charge_per_period_uc", PQPAN_RUN_REAL)->x;
        g->avg_ua = field(row, "avg_current_ua", PQPAN_RUN_REAL)->x;
        g->active_us = field(row, "active_us", PQPAN_RUN_REAL)->x;
        g->period_us = field(row, "period_us", PQPAN_RUN_REAL)->x;
        g->psdu = (unsigned)field(row, "request_psdu_octets", PQPAN_RUN_COUNT)->u;
    } else if (row->record == PQPAN_RUN_RECORD_PHASE) {
        assert_int_equal(g->idle, 1);
        g->phases++;
        if (strcmp(field(row, "phase", PQPAN_RUN_TEXT)->text, "sleep") != 0) {
            g->q_active_uc += field(row, "charge_uc", PQPAN_RUN_REAL)->x;
        }
        if (strcmp(field(row, "phase", PQPAN_RUN_TEXT)->text, "tx") == 0) {
            g->tx_us = field(row, "time_us", PQPAN_RUN_REAL)->x;
        }
    } else {
        fail_msg("idle --link 802154 gave a record not its own");
    }
    return 0;
}

/* idle --link 802154 through pqpan_run on the nRF52840 profile, Thread-like (short
 * addresses, ENC-MIC-32), checked by hand as tests/unit/test_cli_idle_802154.c: Data
 * Request MHR 9 + aux 6 + Command ID 1 + MIC 4 + FCS 2 = 22 octets, (6 + 22) x 32 = 896 us
 * on air (IEEE 802.15.4-2015 §7.5.5, O-QPSK 250 kb/s); poll 19.36876 uC in 4 380 us, sleep
 * 3.16 uA x 0.99562 s = 3.1461592 uC, average (19.36876 + 3.1461592) uC / 1 s. The active
 * phases add up to the poll's charge. */
static void test_idle_802154(void **state)
{
    static const struct pqpan_run_opt req[] = {{"--link", "802154"}, {"--poll-ms", "1000"},
                                               {"--addr", "short"},
                                               {"--mac-security", "enc-mic32"}};
    struct pqpan_run_error err;
    struct poll_got g;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("idle", req, 4, collect_poll, &g, &err), PQPAN_OK);
    assert_true(g.notes > 3);
    assert_int_equal(g.members, 1);
    assert_int_equal(g.idle, 1);
    assert_int_equal(g.phases, 8);
    assert_int_equal(g.psdu, 22);
    assert_true(fabs(g.tx_us - 896.0) < 1e-9);
    assert_true(fabs(g.active_us - 4380.0) < 1e-9);
    assert_true(fabs(g.period_us - 1e6) < 1e-6);
    assert_true(fabs(g.poll_uc - 19.36876) < 1e-6);
    assert_true(fabs(g.sleep_uc - 3.1461592) < 1e-6);
    assert_true(fabs(g.period_uc - (19.36876 + 3.1461592)) < 1e-6);
    assert_true(fabs(g.avg_ua - 22.5149192) < 1e-6);
    assert_true(fabs(g.q_active_uc - g.poll_uc) < 1e-9 * g.poll_uc);
}

/* idle --link 802154's errors: an option of estimate's exchange is refused naming it, a
 * BLE idle option is unknown on 802.15.4, a period shorter than one poll is refused. */
static void test_idle_802154_errors(void **state)
{
    static const struct pqpan_run_opt kem[] = {{"--link", "802154"}, {"--kem", "ML-KEM-512"}};
    static const struct pqpan_run_opt ble[] = {{"--link", "802154"}, {"--idle-ci-ms", "100"}};
    static const struct pqpan_run_opt too_short[] = {{"--link", "802154"}, {"--poll-ms", "3"}};
    struct pqpan_run_error err;
    struct poll_got g;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("idle", kem, 2, collect_poll, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--kem");
    assert_non_null(strstr(err.message, "does not apply"));
    assert_int_equal(pqpan_run("idle", ble, 2, collect_poll, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--idle-ci-ms");
    assert_int_equal(pqpan_run("idle", too_short, 2, collect_poll, &g, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "shorter than one poll"));
    assert_int_equal(g.notes + g.idle + g.phases, 0);
}


/* ---- simulate (BLE) ---- */

/* What a simulate run gave: per side, the SIDE row's connection events, latency and events energy,
 * and the SIM row's packets, retransmissions, latency, energy until failure, outcome. */
struct sim_got {
    int sides, sims, notes, members;
    unsigned long long side_events[PQPAN_RUN_SIDES], sim_events[PQPAN_RUN_SIDES];
    unsigned long long packets_tx[PQPAN_RUN_SIDES];
    unsigned long long retransmissions[PQPAN_RUN_SIDES];
    double side_latency_ms[PQPAN_RUN_SIDES], sim_latency_ms[PQPAN_RUN_SIDES];
    double e_events_uj[PQPAN_RUN_SIDES], until_failure_uj[PQPAN_RUN_SIDES];
    int until_failure_known[PQPAN_RUN_SIDES];
    long long succeeded;
    char result[128];
};

static int collect_sim(void *ctx, const struct pqpan_run_row *row)
{
    struct sim_got *g = ctx;
    int s;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        g->notes++;
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        g->members++;
        assert_non_null(strstr(row->values[0].text, "\"simulation\": {"));
        break;
    case PQPAN_RUN_RECORD_SIDE:
        s = g->sides++;
        assert_true(s < PQPAN_RUN_SIDES);
        g->side_events[s] = field(row, "conn_events", PQPAN_RUN_COUNT)->u;
        g->side_latency_ms[s] = field(row, "latency_ms", PQPAN_RUN_REAL)->x;
        g->e_events_uj[s] = field(row, "e_total_events_uj", PQPAN_RUN_REAL)->x;
        break;
    case PQPAN_RUN_RECORD_SIM:
        s = g->sims++;
        assert_int_equal(g->sides, PQPAN_RUN_SIDES); /* after the sides */
        assert_true(s < PQPAN_RUN_SIDES);
        g->packets_tx[s] = field(row, "packets_tx", PQPAN_RUN_COUNT)->u;
        g->sim_events[s] = field(row, "conn_events", PQPAN_RUN_COUNT)->u;
        g->retransmissions[s] = field(row, "retransmissions", PQPAN_RUN_COUNT)->u;
        g->sim_latency_ms[s] = field(row, "latency_ms", PQPAN_RUN_REAL)->x;
        g->until_failure_known[s] = field(row, "energy_until_failure_uj", PQPAN_RUN_REAL)->known;
        g->until_failure_uj[s] = field(row, "energy_until_failure_uj", PQPAN_RUN_REAL)->x;
        g->succeeded = field(row, "succeeded", PQPAN_RUN_INT)->i;
        strncpy(g->result, field(row, "result", PQPAN_RUN_TEXT)->text, sizeof g->result - 1);
        break;
    default:
        fail_msg("simulate gave record %d", (int)row->record);
    }
    return 0;
}

/* A clean channel: the exchange completes with nothing resent; the total's packets are
 * both sides' (the SIM row of total sums them), and the connection events and the latency
 * are the same in the SIM rows and in the exchange field table's. */
static void test_simulate(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--seed", "7"}};
    static const char *const units_of[][2] = {
        {"latency_ms", "ms"}, {"energy_until_failure_uj", "uJ"}, {"negotiated_att_mtu", "octets"}};
    struct sim_got g;
    struct pqpan_run_error err;
    const struct pqpan_run_field *f;
    size_t n, k, u;
    int s;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("simulate", opts, 1, collect_sim, &g, &err), PQPAN_OK);
    assert_int_equal(g.sims, PQPAN_RUN_SIDES);
    assert_true(g.notes > 3);
    assert_int_equal(g.members, 1);
    assert_int_equal(g.succeeded, 1);
    assert_string_equal(g.result, "completed");
    for (s = 0; s < PQPAN_RUN_SIDES; s++) {
        assert_true(g.packets_tx[s] > 0);
        assert_int_equal(g.sim_events[s], g.side_events[s]);
        assert_int_equal(g.retransmissions[s], 0);
        assert_true(fabs(g.sim_latency_ms[s] - g.side_latency_ms[s]) < 1e-9);
        assert_false(g.until_failure_known[s]);
    }
    assert_int_equal(g.packets_tx[2], g.packets_tx[0] + g.packets_tx[1]);
    f = pqpan_run_sim_fields(&n);
    for (u = 0; u < sizeof units_of / sizeof units_of[0]; u++) {
        for (k = 0; k < n && strcmp(f[k].name, units_of[u][0]) != 0; k++) {
        }
        assert_true(k < n);
        assert_string_equal(f[k].unit, units_of[u][1]);
    }
}

/* Every packet damaged: the link is lost, which is a result (PQPAN_OK, succeeded 0), and
 * each side's energy until failure is its events accounting. */
static void test_simulate_failed(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--per", "1"}};
    struct sim_got g;
    struct pqpan_run_error err;
    int s;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("simulate", opts, 1, collect_sim, &g, &err), PQPAN_OK);
    assert_int_equal(g.succeeded, 0);
    assert_string_not_equal(g.result, "completed");
    for (s = 0; s < PQPAN_RUN_SIDES; s++) {
        assert_true(g.until_failure_known[s]);
        assert_true(fabs(g.until_failure_uj[s] - g.e_events_uj[s]) < 1e-9);
    }
}

/* What the CLI refuses: LE SC over a channel, --encrypted, a bad --transport. */
static void test_simulate_errors(void **state)
{
    static const struct pqpan_run_opt lesc[] = {{"--kem", "LESC-P256"}, {"--transport", "l2cap-coc"}};
    static const struct pqpan_run_opt enc[] = {{"--encrypted", "on"}};
    static const struct pqpan_run_opt bad[] = {{"--transport", "udp"}};
    struct sim_got g;
    struct pqpan_run_error err;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("simulate", lesc, 2, collect_sim, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "--transport does not apply"));
    assert_int_equal(pqpan_run("simulate", enc, 1, collect_sim, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "--encrypted is not simulated"));
    assert_int_equal(pqpan_run("simulate", bad, 1, collect_sim, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--transport");
    assert_int_equal(g.sides, 0);
}

/* ---- simulate --link 802154 (one hop) ---- */

struct s154_got {
    int metrics, per_run, progress, summary;
    unsigned last_done, runs, failed;
    double failure_rate, load_pct, latency_mean;
};

static int collect_154(void *ctx, const struct pqpan_run_row *row)
{
    struct s154_got *g = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_PROGRESS:
        g->progress++;
        g->last_done = (unsigned)field(row, "done", PQPAN_RUN_COUNT)->u;
        break;
    case PQPAN_RUN_RECORD_METRIC:
        assert_int_equal(g->summary, 0); /* before the summary */
        g->metrics++;
        g->per_run += (int)field(row, "per_run", PQPAN_RUN_INT)->i;
        if (strcmp(field(row, "metric", PQPAN_RUN_TEXT)->text, "latency_ms") == 0) {
            assert_string_equal(field(row, "unit", PQPAN_RUN_TEXT)->text, "ms");
            g->latency_mean = field(row, "mean", PQPAN_RUN_REAL)->x;
        }
        break;
    case PQPAN_RUN_RECORD_SIM154:
        g->summary++;
        g->runs = (unsigned)field(row, "runs", PQPAN_RUN_COUNT)->u;
        g->failed = (unsigned)field(row, "failed", PQPAN_RUN_COUNT)->u;
        g->failure_rate = field(row, "failure_rate", PQPAN_RUN_REAL)->x;
        g->load_pct = field(row, "channel_load_pct", PQPAN_RUN_REAL)->x;
        break;
    default:
        break;
    }
    return 0;
}

/* Three runs on a channel with two background nodes at 10 frames/s of 60 octets: a
 * progress row before the first run and after each, the four statistics and the eight
 * counts, then the summary; the channel load by hand: 2 nodes x 10 frames/s x one frame's
 * airtime, (SHR 5 + PHR 1 + PSDU 60) octets x 32 us (IEEE 802.15.4-2020 §12.1: PPDU =
 * SHR + PHR + PSDU, 2 symbols an octet; §12.3.3: 62.5 ksymbol/s) = 2.112 ms: 4.224 %. */
/* estimate --link ble-mesh through pqpan_run: three MESH rows (provisioner, device, total),
 * the total's energy the two sides' sum, units from the field table; simulate gives the
 * same rows at zero loss with equal keys; the link's refusals name their option. */
static void test_mesh(void **state)
{
    static const struct pqpan_run_opt est[] = {{"--link", "ble-mesh"}, {"--kem", "ML-KEM-768"},
                                               {"--prov-alg", "cmac"}};
    struct pqpan_run_error err;
    struct got e, m;
    size_t n, k;
    const struct pqpan_run_field *f = pqpan_run_mesh_fields(&n);
    int s;
    (void)state;
    memset(&e, 0, sizeof e);
    assert_int_equal(pqpan_run("estimate", est, 3, collect, &e, &err), PQPAN_OK);
    assert_int_equal(e.meshes, 3);
    assert_string_equal(e.side[0], "provisioner");
    assert_string_equal(e.side[2], "total");
    assert_true(e.notes > 5 && e.members == 1);
    assert_true(fabs(e.e_total[0] + e.e_total[1] - e.e_total[2]) < 1e-6 * e.e_total[2]);
    memset(&m, 0, sizeof m);
    assert_int_equal(pqpan_run("simulate", est, 3, collect, &m, &err), PQPAN_OK);
    assert_int_equal(m.meshes, 3);
    for (s = 0; s < 3; s++) {
        assert_true(fabs(m.e_total[s] - e.e_total[s]) < 1e-9 * e.e_total[s]);
    }
    for (k = 0; k < n && strcmp(f[k].name, "e_total_uj") != 0; k++) {
    }
    assert_true(k < n);
    assert_string_equal(f[k].unit, "uJ");
    {
        static const struct pqpan_run_opt net[] = {{"--link", "ble-mesh"}, {"--bearer", "network"}};
        static const struct pqpan_run_opt mtu[] = {{"--link", "ble-mesh"}, {"--att-mtu", "247"}};
        static const struct pqpan_run_opt bad[] = {{"--link", "ble-mesh"}, {"--ber", "0.1"}};
        memset(&e, 0, sizeof e);
        assert_int_equal(pqpan_run("estimate", net, 2, collect, &e, &err), PQPAN_OK);
        assert_int_equal(e.meshes, 3); /* one hop: no relay row */
        assert_string_equal(e.side[0], "initiator");
        assert_string_equal(e.side[1], "responder");
        assert_string_equal(e.side[2], "total");
        assert_true(fabs(e.e_total[0] + e.e_total[1] - e.e_total[2]) < 1e-6 * e.e_total[2]);
        memset(&m, 0, sizeof m);
        assert_int_equal(pqpan_run("simulate", net, 2, collect, &m, &err), PQPAN_OK);
        assert_int_equal(m.meshes, 3);
        for (s = 0; s < 3; s++) { /* executed = estimated at zero loss */
            assert_true(fabs(m.e_total[s] - e.e_total[s]) < 1e-9 * e.e_total[s]);
        }
        memset(&e, 0, sizeof e);
        assert_int_equal(pqpan_run("estimate", mtu, 2, collect, &e, &err), PQPAN_ERR_INVALID_ARG);
        assert_string_equal(err.option, "--att-mtu");
        assert_int_equal(pqpan_run("simulate", bad, 2, collect, &e, &err), PQPAN_ERR_INVALID_ARG);
        assert_string_equal(err.option, "--ber");
        assert_int_equal(e.meshes, 0);
    }
}

static void test_simulate_802154(void **state)
{
    static const struct pqpan_run_opt opts[] = {
        {"--link", "802154"}, {"--runs", "3"}, {"--nodes", "4"}, {"--load", "10"}};
    struct s154_got g;
    struct pqpan_run_error err;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("simulate", opts, 4, collect_154, &g, &err), PQPAN_OK);
    assert_int_equal(g.progress, 4);
    assert_int_equal(g.last_done, 3);
    assert_int_equal(g.metrics, 12);
    assert_int_equal(g.per_run, 8);
    assert_int_equal(g.summary, 1);
    assert_int_equal(g.runs, 3);
    assert_true(fabs(g.failure_rate - (double)g.failed / 3.0) < 1e-12);
    assert_true(fabs(g.load_pct - 2.0 * 10.0 * 66.0 * 32e-6 * 100.0) < 1e-9);
    assert_true(g.latency_mean > 0.0);
}

/* simulate --link 802154 --hops 3 (the chain simulator): the notes, one NODE row per node
 * (initiator, two forwarders, responder), a forwarder's energy all radio; two runs' energy
 * is the mean of the two runs made one by one (seeds 1 and 2); --nodes and --pcap refused
 * by name, a sleeping radio refused as estimate refuses it. */
static void test_simulate_chain(void **state)
{
    static const struct pqpan_run_opt two[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--runs", "2"}, {"--seed", "1"}};
    static const struct pqpan_run_opt first[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--runs", "1"}, {"--seed", "1"}};
    static const struct pqpan_run_opt second[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--runs", "1"}, {"--seed", "2"}};
    static const struct pqpan_run_opt crowd[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--nodes", "3"}};
    static const struct pqpan_run_opt sleepy[] = {
        {"--link", "802154"}, {"--hops", "3"}, {"--idle", "sleep"}};
    struct pqpan_run_error err;
    struct got g, a, b;
    int n;
    (void)state;
    memset(&g, 0, sizeof g);
    assert_int_equal(pqpan_run("simulate", two, 4, collect, &g, &err), PQPAN_OK);
    assert_int_equal(g.sides, 0);
    assert_int_equal(g.members, 1);
    assert_true(g.json_has_profile);
    assert_true(g.notes > 2);
    assert_int_equal(g.nodes, 4);
    assert_string_equal(g.role[0], "initiator");
    assert_string_equal(g.role[1], "forwarder");
    assert_string_equal(g.role[3], "responder");
    assert_true(g.node_comm[1] == g.node_total[1] && g.node_comm[0] < g.node_total[0]);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    assert_int_equal(pqpan_run("simulate", first, 4, collect, &a, &err), PQPAN_OK);
    assert_int_equal(pqpan_run("simulate", second, 4, collect, &b, &err), PQPAN_OK);
    for (n = 0; n < 4; n++) {
        double mean = (a.node_total[n] + b.node_total[n]) / 2.0;
        assert_true(fabs(g.node_total[n] - mean) < 1e-9 * mean);
    }
    assert_int_equal(pqpan_run("simulate", crowd, 3, collect, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--nodes");
    assert_int_equal(pqpan_run("simulate", sleepy, 3, collect, &g, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "--idle listen"));
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
    case PQPAN_RUN_RECORD_CELL:
    case PQPAN_RUN_RECORD_MATRIX:
    case PQPAN_RUN_RECORD_HEADLINE:
    case PQPAN_RUN_RECORD_MODE:
    case PQPAN_RUN_RECORD_BUILD:
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

/* What a calibrate run gave: per quantity (FIT rows, in order) its gamma and points, and
 * sum(m p) and sum(p^2) over its RESIDUAL rows. */
#define CAL_Q 8
struct calibrated {
    int fits, points, traces, members, notes;
    char parameter[CAL_Q][16];
    double gamma[CAL_Q], mp[CAL_Q], pp[CAL_Q];
    unsigned long long n_fit[CAL_Q], n_points[CAL_Q];
    const char *measured_unit;
};

static int quantity_index(const struct calibrated *c, const char *name)
{
    int q;
    for (q = 0; q < c->fits; q++) {
        if (strcmp(c->parameter[q], name) == 0) {
            return q;
        }
    }
    fail_msg("a RESIDUAL row of a quantity no FIT row gave: %s", name);
    return -1;
}

static void calibrate_point(struct calibrated *c, const struct pqpan_run_row *row)
{
    int q = quantity_index(c, field(row, "quantity", PQPAN_RUN_TEXT)->text);
    double m = field(row, "measured_uj", PQPAN_RUN_REAL)->x;
    double p = field(row, "model_g1_uj", PQPAN_RUN_REAL)->x;
    size_t k;
    c->mp[q] += m * p;
    c->pp[q] += p * p;
    c->n_points[q]++;
    c->points++;
    for (k = 0; k < row->n_fields; k++) {
        c->measured_unit = strcmp(row->fields[k].name, "measured_uj") == 0 ? row->fields[k].unit
                                                                            : c->measured_unit;
    }
}

static int collect_calibrate(void *ctx, const struct pqpan_run_row *row)
{
    struct calibrated *c = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        c->notes++;
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        c->members++;
        break;
    case PQPAN_RUN_RECORD_FIT:
        assert_true(c->fits < CAL_Q);
        strncpy(c->parameter[c->fits], field(row, "parameter", PQPAN_RUN_TEXT)->text, 15);
        c->gamma[c->fits] = field(row, "gamma", PQPAN_RUN_REAL)->x;
        c->n_fit[c->fits] = field(row, "points", PQPAN_RUN_COUNT)->u;
        c->fits++;
        break;
    case PQPAN_RUN_RECORD_RESIDUAL:
        calibrate_point(c, row);
        break;
    case PQPAN_RUN_RECORD_CALIBRATE_TRACE:
        c->traces++;
        assert_int_equal(field(row, "trace", PQPAN_RUN_COUNT)->u, (unsigned long long)c->traces);
        break;
    default:
        break;
    }
    return 0;
}

#define CAL_FIXTURE(name) PQPAN_SOURCE_DIR "/tests/fixtures/calibrate/" name

/* calibrate through pqpan_run (the commit before it answered "unknown command"): each FIT
 * row's gamma is sum(m p) / sum(p^2) over the RESIDUAL rows of its quantity, by hand, with
 * as many points; one TRACE row per trace; units on the rows. Three traces of the study's
 * exchange: the peripheral's KeyGen and Decaps (two traces), the central's Encaps. */
static void test_calibrate(void **state)
{
    static const struct pqpan_run_opt opts[] = {
        {"--protocol", "study"},
        {"--trace", CAL_FIXTURE("peripheral_1.csv")},
        {"--trace", CAL_FIXTURE("peripheral_2.csv")},
        {"--trace", "central:" CAL_FIXTURE("central_1.csv")}};
    struct pqpan_run_error err;
    struct calibrated *c = calloc(1, sizeof *c);
    int q;
    (void)state;
    assert_non_null(c);
    assert_int_equal(pqpan_run("calibrate", opts, 4, collect_calibrate, c, &err), PQPAN_OK);
    assert_int_equal(c->members, 1);
    assert_true(c->notes > 10);
    assert_int_equal(c->traces, 3);
    assert_int_equal(c->fits, 4); /* kem_keygen, kem_encaps, kem_decaps, comm */
    assert_int_equal(c->points, 2 + 2 + 1 + 3);
    assert_string_equal(c->measured_unit, "uJ");
    for (q = 0; q < c->fits; q++) {
        assert_true(c->pp[q] > 0.0);
        assert_true(fabs(c->gamma[q] - c->mp[q] / c->pp[q]) <= 1e-12 * c->gamma[q]);
        assert_int_equal(c->n_fit[q], c->n_points[q]);
    }
    assert_int_equal(c->n_points[quantity_index(c, "comm")], 3);
    free(c);
}

/* calibrate's refusals name the option: no trace, a gamma option, a trace that cannot be
 * read (PQPAN_ERR_IO), one that does not parse (PQPAN_ERR_MALFORMED), kdf in the study. */
static void test_calibrate_errors(void **state)
{
    static const struct pqpan_run_opt none[] = {{"--protocol", "study"}};
    static const struct pqpan_run_opt gamma[] = {{"--trace", CAL_FIXTURE("peripheral_1.csv")},
                                                 {"--gamma-comm", "1.2"}};
    static const struct pqpan_run_opt missing[] = {{"--protocol", "study"},
                                                   {"--trace", CAL_FIXTURE("no_such.csv")}};
    static const struct pqpan_run_opt bad[] = {
        {"--protocol", "study"}, {"--trace", PQPAN_SOURCE_DIR "/tests/fixtures/ppk2/bad_rows.csv"}};
    static const struct pqpan_run_opt kdf[] = {{"--protocol", "study"},
                                               {"--trace", CAL_FIXTURE("peripheral_1.csv")},
                                               {"--ops", "kem_keygen,kdf"}};
    struct pqpan_run_error err;
    struct calibrated *c = calloc(1, sizeof *c);
    (void)state;
    assert_non_null(c);
    assert_int_equal(pqpan_run("calibrate", none, 1, collect_calibrate, c, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--trace");
    assert_int_equal(pqpan_run("calibrate", gamma, 2, collect_calibrate, c, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--gamma-comm");
    assert_int_equal(pqpan_run("calibrate", missing, 2, collect_calibrate, c, &err), PQPAN_ERR_IO);
    assert_string_equal(err.option, "--trace");
    assert_int_equal(pqpan_run("calibrate", bad, 2, collect_calibrate, c, &err),
                     PQPAN_ERR_MALFORMED);
    assert_non_null(strstr(err.message, "bad_rows.csv:4: "));
    assert_int_equal(pqpan_run("calibrate", kdf, 3, collect_calibrate, c, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--ops");
    assert_int_equal(c->fits, 0);
    free(c);
}

/* What advise --link ble-mesh gave: its MESH_CHOICE and MESH_BEST rows, in order. */
struct mesh_advised {
    struct pqpan_run_mesh_choice c[8];
    char estimate[8][320];
    int choices, bests, members, notes;
};

static int collect_mesh_advise(void *ctx, const struct pqpan_run_row *row)
{
    struct mesh_advised *a = ctx;
    int k = a->choices + a->bests;
    if (row->record == PQPAN_RUN_RECORD_NOTE || row->record == PQPAN_RUN_RECORD_MEMBERS) {
        assert_int_equal(k, 0); /* the notes first */
        a->notes += row->record == PQPAN_RUN_RECORD_NOTE;
        a->members += row->record == PQPAN_RUN_RECORD_MEMBERS;
        return 0;
    }
    assert_true(row->record == PQPAN_RUN_RECORD_MESH_CHOICE ||
                row->record == PQPAN_RUN_RECORD_MESH_BEST);
    assert_true(k < 8);
    assert_int_equal(row->groups, PQPAN_RUN_GROUP_JSON);
    assert_string_equal(row->fields[field(row, "device_uj", PQPAN_RUN_REAL) - row->values].unit,
                        "uJ");
    assert_string_equal(row->fields[field(row, "latency_ms", PQPAN_RUN_REAL) - row->values].unit,
                        "ms");
    a->c[k] = *(const struct pqpan_run_mesh_choice *)row->data;
    strncpy(a->estimate[k], a->c[k].estimate, sizeof a->estimate[k] - 1);
    a->c[k].estimate = a->estimate[k]; /* the row's texts live during the call only */
    a->c[k].settings = NULL;
    if (row->record == PQPAN_RUN_RECORD_MESH_CHOICE) {
        assert_int_equal(a->bests, 0); /* the ranked list, then the best per bearer */
        a->choices++;
    } else {
        a->bests++;
    }
    return 0;
}

/* estimate's device and provisioner e_total_uj and latency for the options in text
 * ("--link ble-mesh --bearer pb-gatt ...", name value pairs). */
static void mesh_estimate_of(struct got *g, const char *text)
{
    char buf[320], *words[40], *w;
    struct pqpan_run_opt opts[20];
    struct pqpan_run_error err;
    size_t n = 0, k;
    strncpy(buf, text, sizeof buf - 1);
    buf[sizeof buf - 1] = '\0';
    for (w = strtok(buf, " "); w != NULL && n < 40; w = strtok(NULL, " ")) {
        words[n++] = w;
    }
    assert_int_equal(n % 2, 0);
    for (k = 0; k < n / 2; k++) {
        opts[k].name = words[2 * k];
        opts[k].value = words[2 * k + 1];
    }
    assert_int_equal(run(g, opts, n / 2, &err), PQPAN_OK);
    assert_int_equal(g->meshes, 3);
}

/* advise --link ble-mesh through pqpan_run: the ranked list as MESH_CHOICE rows (rank 1..,
 * device energy not decreasing), the best of each bearer as MESH_BEST rows (rank 0, PB-ADV
 * first, the list's first the cheaper of them), pqpan_run_record_key naming their JSON
 * lists; each row's estimate options, run through pqpan_run "estimate", give its device and
 * provisioner energy (the independent check: the search's figures are estimate's). */
static void test_advise_mesh(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--link", "ble-mesh"}, {"--min-level", "5"},
                                                {"--top", "3"}};
    struct pqpan_run_error err;
    struct mesh_advised *a = calloc(1, sizeof *a);
    struct got *g = calloc(1, sizeof *g);
    int k;
    (void)state;
    assert_non_null(a);
    assert_non_null(g);
    assert_int_equal(pqpan_run("advise", opts, 3, collect_mesh_advise, a, &err), PQPAN_OK);
    assert_int_equal(a->members, 1);
    assert_true(a->notes > 4);
    assert_int_equal(a->choices, 3);
    assert_int_equal(a->bests, 2);
    for (k = 0; k < a->choices; k++) {
        assert_int_equal(a->c[k].rank, (unsigned)k + 1u);
        assert_int_equal(a->c[k].category, 5u);
        assert_string_equal(a->c[k].kem, "ML-KEM-1024");
        assert_true(k == 0 || a->c[k].device_uj >= a->c[k - 1].device_uj);
    }
    assert_string_equal(a->c[3].bearer, "pb-adv");
    assert_string_equal(a->c[4].bearer, "pb-gatt");
    assert_int_equal(a->c[3].rank, 0u);
    assert_true(a->c[0].device_uj == fmin(a->c[3].device_uj, a->c[4].device_uj));
    for (k = 0; k < a->choices + a->bests; k++) {
        mesh_estimate_of(g, a->c[k].estimate);
        assert_true(fabs(g->e_total[1] - a->c[k].device_uj) < 1e-9 * a->c[k].device_uj);
        assert_true(fabs(g->e_total[0] - a->c[k].provisioner_uj) < 1e-9 * a->c[k].provisioner_uj);
    }
    assert_string_equal(pqpan_run_record_key(PQPAN_RUN_RECORD_MESH_CHOICE), "choices");
    assert_string_equal(pqpan_run_record_key(PQPAN_RUN_RECORD_MESH_BEST), "best_per_bearer");
    free(g);
    free(a);
}

/* advise refuses what it searches itself, naming the option. */
/* The lines of file path that are not comments or blank, or -1 when it cannot be read. */
static int data_lines(const char *path)
{
    char line[256];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL) {
        return -1;
    }
    while (fgets(line, sizeof line, f) != NULL) {
        n += line[0] != '#' && line[0] != '\n';
    }
    fclose(f);
    return n;
}

#define OUT_DIR "test_run_advise_out"

/* advise --out DIR through pqpan_run: the run writes the figures' data and scripts (the
 * front as many points as the JSON's "pareto_front" has items; gnuplot, when installed,
 * renders them), and a directory it cannot make is PQPAN_ERR_IO naming --out before any
 * row. */
static void test_advise_out(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--link", "802154"}, {"--out", OUT_DIR}};
    static const struct pqpan_run_opt bad[] = {{"--link", "802154"},
                                               {"--out", "no/such/dir/below"}};
    struct pqpan_run_error err;
    struct advised *a = calloc(1, sizeof *a);
    const char *at;
    int rc, items = 0;
    (void)state;
    assert_non_null(a);
    rc = pqpan_run("advise", opts, 2, collect_advise, a, &err);
    assert_true(rc == PQPAN_OK || (rc == PQPAN_ERR_UNSUPPORTED && strcmp(err.option, "--out") == 0));
    for (at = strstr(a->json, "\"pareto_front\""); at != NULL && (at = strstr(at, "{\"id\"")) != NULL;
         at++) {
        items++;
    }
    assert_true(items > 0);
    assert_int_equal(data_lines(OUT_DIR "/advise_front.dat"), items);
    assert_true(data_lines(OUT_DIR "/advise_points.dat") >= items);
    assert_true(data_lines(OUT_DIR "/advise_pareto.gp") > 0);
    remove(OUT_DIR "/advise_front.dat");
    remove(OUT_DIR "/advise_points.dat");
    remove(OUT_DIR "/advise_pareto.gp");
    remove(OUT_DIR "/advise_pareto.svg");
    remove(OUT_DIR "/advise_pareto.png");
    remove(OUT_DIR);
    memset(a, 0, sizeof *a);
    assert_int_equal(pqpan_run("advise", bad, 2, collect_advise, a, &err), PQPAN_ERR_IO);
    assert_string_equal(err.option, "--out");
    assert_int_equal(a->notes + a->members + a->choices, 0);
    free(a);
}

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

/* What compare gave: its cells in order, and the PROGRESS rows. */
struct compared {
    int members, progress, cells;
    struct pqpan_run_compare_cell cell[15];
    const char *energy_unit, *load_unit;
};

static int collect_compare(void *ctx, const struct pqpan_run_row *row)
{
    struct compared *c = ctx;
    size_t n;
    if (row->record == PQPAN_RUN_RECORD_CELL) {
        assert_ptr_equal(row->fields, pqpan_run_compare_cell_fields(&n));
        assert_int_equal(row->n_fields, n);
        assert_true(c->cells < 15);
        c->cell[c->cells++] = *(const struct pqpan_run_compare_cell *)row->data;
        c->energy_unit = row->fields[5].unit;
        c->load_unit = row->fields[2].unit;
        assert_string_equal(row->fields[5].name, "energy_uj");
        assert_true(field(row, "energy_uj", PQPAN_RUN_REAL)->x == c->cell[c->cells - 1].energy_uj);
    }
    c->members += row->record == PQPAN_RUN_RECORD_MEMBERS;
    c->progress += row->record == PQPAN_RUN_RECORD_PROGRESS;
    return 0;
}

/* compare: 3 levels x 5 links, BLE first; BLE is analytic (no losses, p90 = mean, the pair
 * alone); a loaded 802.15.4 cell has the pair and 10 background nodes, each offering
 * load / (10 x one 60-octet PSDU's airtime) frames/s: (60 + 6 octets of SHR and PHR) x 32 us
 * per octet on O-QPSK 2.4 GHz (IEEE 802.15.4-2020 §12.3: 62.5 ksymbol/s, 2 symbols per
 * octet) = 2.112 ms. */
static void test_compare(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--runs", "2"}, {"--seed", "7"}};
    static const char *const links[5] = {"ble-noDLE", "ble-DLE", "802154-0", "802154-10",
                                         "802154-30"};
    static const double loads[5] = {0.0, 0.0, 0.0, 10.0, 30.0};
    struct pqpan_run_error err;
    struct compared *c = calloc(1, sizeof *c);
    int k, j;
    (void)state;
    assert_non_null(c);
    assert_int_equal(pqpan_run("compare", opts, 2, collect_compare, c, &err), PQPAN_OK);
    assert_int_equal(c->cells, 15);
    assert_int_equal(c->members, 1);
    assert_int_equal(c->progress, 9 * (2 + 1)); /* each 802.15.4 cell: before, after each run */
    assert_string_equal(c->energy_unit, "uJ");
    assert_string_equal(c->load_unit, "%");
    for (k = 0; k < 3; k++) {
        for (j = 0; j < 5; j++) {
            const struct pqpan_run_compare_cell *x = &c->cell[k * 5 + j];
            assert_string_equal(x->link, links[j]);
            assert_true(x->channel_load_pct == loads[j]);
            assert_true(fabs(x->load_fps - loads[j] / 100.0 / (10 * 2.112e-3)) < 1e-9);
            assert_int_equal(x->nodes, loads[j] > 0.0 ? 12 : 2);
            assert_true(x->energy_uj > 0.0 && x->latency_ms > 0.0);
            if (j < 2) {
                assert_true(x->failure_rate == 0.0 && x->energy_p90_uj == x->energy_uj);
                assert_string_equal(x->idle_802154, "n/a");
            }
        }
        /* DLE carries the same messages in fewer, longer PDUs: less energy */
        assert_true(c->cell[k * 5 + 1].energy_uj < c->cell[k * 5].energy_uj);
    }
    assert_string_equal(c->cell[0].kem, "ML-KEM-512");
    assert_string_equal(c->cell[14].kem, "ML-KEM-1024");
    free(c);
}

/* What compare --mesh gave: its MESH_CELL rows in order, and whether each had a forwarder. */
struct mesh_compared {
    int members, cells;
    struct pqpan_run_mesh_cell cell[54];
    int forwarder_known[54];
    const char *latency_unit, *forwarder_unit;
};

static int collect_mesh_compare(void *ctx, const struct pqpan_run_row *row)
{
    struct mesh_compared *c = ctx;
    size_t n;
    c->members += row->record == PQPAN_RUN_RECORD_MEMBERS;
    if (row->record != PQPAN_RUN_RECORD_MESH_CELL) {
        assert_true(row->record == PQPAN_RUN_RECORD_NOTE ||
                    row->record == PQPAN_RUN_RECORD_MEMBERS);
        return 0;
    }
    assert_ptr_equal(row->fields, pqpan_run_compare_mesh_fields(&n));
    assert_int_equal(row->n_fields, n);
    assert_true(c->cells < 54);
    c->cell[c->cells] = *(const struct pqpan_run_mesh_cell *)row->data;
    c->forwarder_known[c->cells] = field(row, "forwarder_max_uj", PQPAN_RUN_REAL)->known;
    assert_true(field(row, "hops", PQPAN_RUN_COUNT)->u == c->cell[c->cells].hops);
    c->latency_unit = row->fields[3].unit;
    c->forwarder_unit = row->fields[5].unit;
    c->cells++;
    return 0;
}

/* The e_total_uj of estimate --link ble-mesh's MESH rows, in order. */
struct mesh_sides {
    int n;
    double e_total_uj[3];
};

static int collect_mesh_sides(void *ctx, const struct pqpan_run_row *row)
{
    struct mesh_sides *m = ctx;
    if (row->record == PQPAN_RUN_RECORD_MESH && m->n < 3) {
        m->e_total_uj[m->n++] = field(row, "e_total_uj", PQPAN_RUN_REAL)->x;
    }
    return 0;
}

/* compare --mesh: per level, chains of 1..8 hops, PB-ADV and PB-GATT, then the mesh
 * network at 1..8 hops (54 rows); a forwarder (a relay) only at 2 hops or more. Reassembly is store and forward: every hop
 * carries the whole exchange again, so latency(H) = latency(1) + (H - 1) x one hop's
 * transfer, a straight line in H (checked by hand on the golden table: 163.177, 287.113,
 * 411.049 ms, +123.936 per hop, ML-KEM-512). The PB-ADV row is estimate --link ble-mesh's
 * provisioner and device at that level, the network's first row estimate --bearer
 * network's initiator and responder. */
static void test_compare_mesh(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--mesh", NULL}};
    static const struct pqpan_run_opt est[] = {{"--link", "ble-mesh"}, {"--kem", "ML-KEM-512"}};
    static const struct pqpan_run_opt net[] = {
        {"--link", "ble-mesh"}, {"--kem", "ML-KEM-512"}, {"--bearer", "network"}};
    struct pqpan_run_error err;
    struct mesh_compared *c = calloc(1, sizeof *c);
    struct mesh_sides sides = {0, {0.0, 0.0, 0.0}};
    const struct pqpan_run_mesh_cell *x;
    unsigned h;
    (void)state;
    assert_non_null(c);
    assert_int_equal(pqpan_run("compare", opts, 1, collect_mesh_compare, c, &err), PQPAN_OK);
    assert_int_equal(c->cells, 54);
    assert_int_equal(c->members, 1);
    assert_string_equal(c->latency_unit, "ms");
    assert_string_equal(c->forwarder_unit, "uJ");
    for (h = 1; h <= 8; h++) {
        x = &c->cell[h - 1];
        assert_string_equal(x->network, "802154-reassemble");
        assert_int_equal(x->hops, h);
        assert_int_equal(c->forwarder_known[h - 1], h > 1);
        assert_true(fabs(x->latency_ms - (c->cell[0].latency_ms +
                                          (double)(h - 1) * (c->cell[1].latency_ms -
                                                             c->cell[0].latency_ms))) < 1e-6);
    }
    assert_true(fabs(c->cell[1].latency_ms - c->cell[0].latency_ms - 123.936) < 5e-4);
    assert_string_equal(c->cell[8].network, "ble-mesh-pb-adv");
    assert_string_equal(c->cell[9].network, "ble-mesh-pb-gatt");
    assert_false(c->forwarder_known[8] || c->forwarder_known[9]);
    for (h = 1; h <= 8; h++) {
        x = &c->cell[9 + h];
        assert_string_equal(x->network, "ble-mesh-network");
        assert_int_equal(x->hops, h);
        assert_int_equal(c->forwarder_known[9 + h], h > 1);
        assert_true(h == 1 || x->latency_ms > c->cell[8 + h].latency_ms);
    }
    assert_string_equal(c->cell[53].kem, "ML-KEM-1024");
    assert_int_equal(pqpan_run("estimate", est, 2, collect_mesh_sides, &sides, &err), PQPAN_OK);
    assert_true(c->cell[8].source_uj == sides.e_total_uj[0]);
    assert_true(c->cell[8].destination_uj == sides.e_total_uj[1]);
    sides.n = 0;
    assert_int_equal(pqpan_run("estimate", net, 3, collect_mesh_sides, &sides, &err), PQPAN_OK);
    assert_true(c->cell[10].source_uj == sides.e_total_uj[0]);
    assert_true(c->cell[10].destination_uj == sides.e_total_uj[1]);
    free(c);
}

/* compare refuses a bad value and an option of another command naming it, and --out with
 * --mesh (its table is printed only). */
static void test_compare_errors(void **state)
{
    static const struct pqpan_run_opt runs[] = {{"--runs", "0"}};
    static const struct pqpan_run_opt mtu[] = {{"--att-mtu", "247"}};
    static const struct pqpan_run_opt mesh[] = {{"--mesh", "on"}, {"--out", "/tmp/x"}};
    struct pqpan_run_error err;
    struct compared *c = calloc(1, sizeof *c);
    (void)state;
    assert_non_null(c);
    assert_int_equal(pqpan_run("compare", runs, 1, collect_compare, c, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--runs");
    assert_int_equal(pqpan_run("compare", mtu, 1, collect_compare, c, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--att-mtu");
    assert_int_equal(pqpan_run("compare", mesh, 2, collect_compare, c, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--out");
    assert_int_equal(c->cells, 0);
    free(c);
}

/* What reproduce gave: its rows per record, the peripheral's e_total_uj of the matrix
 * (no DLE, DLE per level) and the headline's DLE saving. */
struct reproduced {
    int matrix, headline, modes, builds, members;
    double periph[3][2];
    double saving_lo, saving_hi, ratio_lo;
    int mode_none_is_one;
};

static int collect_reproduce(void *ctx, const struct pqpan_run_row *row)
{
    struct reproduced *g = ctx;
    g->members += row->record == PQPAN_RUN_RECORD_MEMBERS;
    if (row->record == PQPAN_RUN_RECORD_MATRIX) {
        const struct pqpan_run_exchange_row *w = row->exchange;
        int level = strcmp(w->kem, "ML-KEM-512") == 0   ? 0
                    : strcmp(w->kem, "ML-KEM-768") == 0 ? 1
                    : strcmp(w->kem, "ML-KEM-1024") == 0 ? 2
                                                         : -1;
        assert_string_equal(field(row, "reading", PQPAN_RUN_TEXT)->text, "defaults");
        if (level >= 0 && strcmp(w->side, "peripheral") == 0) {
            g->periph[level][w->dle ? 1 : 0] = w->e_total_uj;
        }
        g->matrix++;
    } else if (row->record == PQPAN_RUN_RECORD_HEADLINE) {
        const struct pqpan_run_headline_row *h = row->data;
        if (strcmp(h->figure, "dle_saving_pct") == 0) {
            g->saving_lo = h->model_lo;
            g->saving_hi = h->model_hi;
        }
        g->headline++;
    } else if (row->record == PQPAN_RUN_RECORD_MODE) {
        const struct pqpan_run_mode_row *m = row->data;
        if (strcmp(m->mode, "none") == 0 && !m->hybrid) {
            g->mode_none_is_one += m->x_none == 1.0;
        }
        g->modes++;
    } else if (row->record == PQPAN_RUN_RECORD_BUILD) {
        g->builds++;
    }
    return 0;
}

/* reproduce --reading defaults: the matrix (3 levels x 2 DLE settings + LE SC at both, 3
 * sides each), 4 headline figures, the per-mode table (3 levels x 2 DLE x every mode alone
 * and hybrid x 2 sides) and the builds' (3 x 2 x 2 sig modes x 2 sides x 2 builds); the
 * headline's DLE saving is the range of 100 x (1 - DLE / no DLE) over the matrix's rows. */
static void test_reproduce(void **state)
{
    static const struct pqpan_run_opt opts[] = {{"--reading", "defaults"}};
    struct pqpan_run_error err;
    struct reproduced *g = calloc(1, sizeof *g);
    double lo = 1e9, hi = -1e9;
    int k;
    (void)state;
    assert_non_null(g);
    assert_int_equal(pqpan_run("reproduce", opts, 1, collect_reproduce, g, &err), PQPAN_OK);
    assert_int_equal(g->members, 1);
    assert_int_equal(g->matrix, 8 * 3);
    assert_int_equal(g->headline, 4);
    assert_int_equal(g->modes % (3 * 2 * 2), 0);
    assert_true(g->modes >= 3 * 2 * 2 * 2);
    assert_int_equal(g->builds, 3 * 2 * 2 * 2 * 2);
    assert_int_equal(g->mode_none_is_one, 3 * 2 * 2);
    for (k = 0; k < 3; k++) {
        double saving = 100.0 * (1.0 - g->periph[k][1] / g->periph[k][0]);
        lo = saving < lo ? saving : lo;
        hi = saving > hi ? saving : hi;
    }
    assert_true(fabs(lo - g->saving_lo) < 1e-9 && fabs(hi - g->saving_hi) < 1e-9);
    free(g);
}

static void test_reproduce_errors(void **state)
{
    static const struct pqpan_run_opt bad[] = {{"--reading", "none"}};
    static const struct pqpan_run_opt other[] = {{"--runs", "2"}};
    struct pqpan_run_error err;
    struct reproduced *g = calloc(1, sizeof *g);
    (void)state;
    assert_non_null(g);
    assert_int_equal(pqpan_run("reproduce", bad, 1, collect_reproduce, g, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--reading");
    assert_int_equal(pqpan_run("reproduce", other, 1, collect_reproduce, g, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--runs");
    assert_int_equal(g->matrix, 0);
    free(g);
}

/* What a trace run gave: the rows of each record and the figures checked. */
struct traced {
    int trace, phases, segments, order_ok;
    unsigned long long rows_read;
    double voltage_v;
    char phase[4][16];
    double duration_ms[4], energy_uj[4];
    unsigned long long samples[4], seg_samples;
    double seg_start_ms, seg_energy_uj;
};

static int collect_trace(void *ctx, const struct pqpan_run_row *row)
{
    struct traced *t = ctx;
    int k = t->phases;
    switch (row->record) {
    case PQPAN_RUN_RECORD_TRACE:
        t->trace++;
        t->order_ok = t->phases == 0 && t->segments == 0;
        t->rows_read = field(row, "rows_read", PQPAN_RUN_COUNT)->u;
        t->voltage_v = field(row, "voltage_v", PQPAN_RUN_REAL)->x;
        break;
    case PQPAN_RUN_RECORD_TRACE_PHASE:
        assert_true(k < 4 && t->segments == 0);
        strncpy(t->phase[k], field(row, "phase", PQPAN_RUN_TEXT)->text, 15);
        t->duration_ms[k] = field(row, "duration_ms", PQPAN_RUN_REAL)->x;
        t->energy_uj[k] = field(row, "energy_uj", PQPAN_RUN_REAL)->x;
        t->samples[k] = field(row, "samples", PQPAN_RUN_COUNT)->u;
        t->phases++;
        break;
    case PQPAN_RUN_RECORD_SEGMENT:
        t->segments++;
        t->seg_samples = field(row, "samples", PQPAN_RUN_COUNT)->u;
        t->seg_start_ms = field(row, "start_ms", PQPAN_RUN_REAL)->x;
        t->seg_energy_uj = field(row, "energy_uj", PQPAN_RUN_REAL)->x;
        break;
    case PQPAN_RUN_RECORD_WARNING:
        break;
    default:
        fail_msg("trace gave a record not its own");
    }
    return 0;
}

/* A capture of 5 rows 1 ms apart at 1000 uA, D0 at 1 on rows 1 and 2. */
static const char capture[] = "Timestamp(ms),Current(uA),D0,D1,D2,D3,D4,D5,D6,D7\n"
                              "0,1000,0,0,0,0,0,0,0,0\n"
                              "1,1000,1,0,0,0,0,0,0,0\n"
                              "2,1000,1,0,0,0,0,0,0,0\n"
                              "3,1000,0,0,0,0,0,0,0,0\n"
                              "4,1000,0,0,0,0,0,0,0,0\n";
#define CAPTURE_PATH "test_run_trace.csv"

/* trace through pqpan_run, by hand: the TRACE row first, then the whole trace and the
 * phase, then the segment; at 1000 uA and 3 V the 4 ms of the trace hold 12 uJ
 * (1000 uA x 3 V x 4 ms), the phase the 2 ms of the intervals starting at its rows (6 uJ),
 * its one segment the same from 1 ms. */
static void test_trace(void **state)
{
    static const struct pqpan_run_opt opts[] = {
        {"FILE", CAPTURE_PATH}, {"--phases", "d0=crypto"}, {"--segments", NULL},
        {"--voltage", "3"}};
    struct pqpan_run_error err;
    struct traced t;
    FILE *f = fopen(CAPTURE_PATH, "wb");
    (void)state;
    assert_non_null(f);
    assert_int_equal(fwrite(capture, 1, sizeof capture - 1, f), sizeof capture - 1);
    assert_int_equal(fclose(f), 0);
    memset(&t, 0, sizeof t);
    assert_int_equal(pqpan_run("trace", opts, 4, collect_trace, &t, &err), PQPAN_OK);
    assert_int_equal(t.trace, 1);
    assert_true(t.order_ok);
    assert_int_equal(t.rows_read, 5);
    assert_true(t.voltage_v == 3.0);
    assert_int_equal(t.phases, 2);
    assert_string_equal(t.phase[0], "total");
    assert_string_equal(t.phase[1], "crypto");
    assert_true(fabs(t.duration_ms[0] - 4.0) < 1e-9 && fabs(t.energy_uj[0] - 12.0) < 1e-9);
    assert_true(fabs(t.duration_ms[1] - 2.0) < 1e-9 && fabs(t.energy_uj[1] - 6.0) < 1e-9);
    assert_int_equal(t.samples[0], 5);
    assert_int_equal(t.samples[1], 2);
    assert_int_equal(t.segments, 1);
    assert_int_equal(t.seg_samples, 2);
    assert_true(fabs(t.seg_start_ms - 1.0) < 1e-9 && fabs(t.seg_energy_uj - 6.0) < 1e-9);
    remove(CAPTURE_PATH);
}

/* trace's refusals: no FILE, two, a bad --phases item (naming it), a file that is not
 * there (PQPAN_ERR_IO). */
static void test_trace_errors(void **state)
{
    static const struct pqpan_run_opt two[] = {{"FILE", "a.csv"}, {"FILE", "b.csv"}};
    static const struct pqpan_run_opt bad_phase[] = {{"FILE", "a.csv"}, {"--phases", "d9=x"}};
    static const struct pqpan_run_opt missing[] = {{"FILE", "no/such/file.csv"}};
    struct pqpan_run_error err;
    struct traced t;
    (void)state;
    memset(&t, 0, sizeof t);
    assert_int_equal(pqpan_run("trace", NULL, 0, collect_trace, &t, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "no FILE given"));
    assert_int_equal(pqpan_run("trace", two, 2, collect_trace, &t, &err), PQPAN_ERR_INVALID_ARG);
    assert_non_null(strstr(err.message, "more than one FILE"));
    assert_int_equal(pqpan_run("trace", bad_phase, 2, collect_trace, &t, &err),
                     PQPAN_ERR_INVALID_ARG);
    assert_string_equal(err.option, "--phases");
    assert_non_null(strstr(err.message, "d9=x"));
    assert_int_equal(pqpan_run("trace", missing, 1, collect_trace, &t, &err), PQPAN_ERR_IO);
    assert_non_null(strstr(err.message, "no/such/file.csv"));
    assert_int_equal(t.trace + t.phases + t.segments, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_rows),
        cmocka_unit_test(test_flag_on_off),
        cmocka_unit_test(test_flag_on_reads_the_request),
        cmocka_unit_test(test_bits_ifs),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_802154),
        cmocka_unit_test(test_emit_stops),
        cmocka_unit_test(test_idle),
        cmocka_unit_test(test_idle_errors),
        cmocka_unit_test(test_idle_battery),
        cmocka_unit_test(test_idle_battery_errors),
        cmocka_unit_test(test_trace),
        cmocka_unit_test(test_trace_errors),
        cmocka_unit_test(test_sweep),
        cmocka_unit_test(test_sweep_errors),
        cmocka_unit_test(test_sweep_extra),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_idle_802154),
        cmocka_unit_test(test_idle_802154_errors),
        cmocka_unit_test(test_simulate),
        cmocka_unit_test(test_simulate_failed),
        cmocka_unit_test(test_simulate_errors),
        cmocka_unit_test(test_simulate_802154),
        cmocka_unit_test(test_mesh),
        cmocka_unit_test(test_simulate_chain),
        cmocka_unit_test(test_advise),
        cmocka_unit_test(test_advise_mesh),
        cmocka_unit_test(test_advise_out),
        cmocka_unit_test(test_advise_errors),
        cmocka_unit_test(test_calibrate),
        cmocka_unit_test(test_calibrate_errors),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_compare_mesh),
        cmocka_unit_test(test_compare_errors),
        cmocka_unit_test(test_reproduce),
        cmocka_unit_test(test_reproduce_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
