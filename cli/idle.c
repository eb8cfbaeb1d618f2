/* pqpan idle: what an idle link costs between key exchanges — a BLE connection with
 * nothing to send (src/ble/idle.c), per side: average current, charge per connection
 * event, and the time, current and charge of every phase of the events accounting. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "idle_battery.h"
#include "lowpan_model.h"
#include "opts_registry.h"

#define CMD "idle"

struct idle_opts {
    struct model_opts m;
    struct pqpan_ble_idle_config cfg;
    enum pqpan_ble_role role;
    struct idle_battery_opts bat;
};

/* The states of an idle period in the order an event runs them, then sleep. */
static const enum pqpan_state idle_states[] = {
    PQPAN_STATE_PRE, PQPAN_STATE_HFXO_START, PQPAN_STATE_RAMP_TX, PQPAN_STATE_RAMP_RX,
    PQPAN_STATE_RX_WINDOW, PQPAN_STATE_TX, PQPAN_STATE_IFS, PQPAN_STATE_RX,
    PQPAN_STATE_POST, PQPAN_STATE_SLEEP,
};
#define N_IDLE_STATES (sizeof idle_states / sizeof idle_states[0])

/* Time, current and charge of one state over the period. */
struct phase_cost {
    double time_us, current_ua, charge_uc;
};

struct idle_result {
    struct pqpan_ble_idle link;
    struct phase_cost phase[N_IDLE_STATES];
    double period_ms, charge_period_uc, charge_event_uc, avg_current_ua;
    uint32_t events;
};

void cli_idle_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan idle [OPTIONS]\n\n"
            "What a link costs while it carries nothing: a BLE connection whose central sends an\n"
            "empty PDU at every anchor and whose peripheral answers it, skipping up to\n"
            "--idle-latency events (Core v5.4 Vol 6 Part B §4.5.1): the idle link between key\n"
            "exchanges that `pqpan advise` assumes, with its options and defaults. For one side\n"
            "it prints the average current (sleep included), the charge of one connection event\n"
            "and the time, current and charge of every phase of the period: CPU pre-processing,\n"
            "crystal (HFXO) start, radio ramp-up, receive window (window widening over the\n"
            "period + the controller's fixed margin; on the central, the wait for an answer that\n"
            "does not come), TX, T_IFS, RX, CPU post-processing and sleep. Every figure comes\n"
            "from the device profile (see `pqpan profiles show NAME`); derived figures are named\n"
            "in the output.\n\n");
    cli_opt_table_help(out, &idle_opts_table);
    fputs("\nenergy options:\n", out);
    cli_opt_rows_help(out, &model_energy_table);
    cli_opt_rows_help(out, &model_ramp_table);
    cli_opt_rows_help(out, &cli_format_table);
    idle_battery_help(out);
    fprintf(out,
            "\n"
            "Output fields: period_ms (one latency period: (latency+1) intervals),\n"
            "events_per_period (events the side wakes for), charge_per_event_uc (the charge of\n"
            "one event above nothing: wake-up to back to sleep), charge_per_period_uc (sleep\n"
            "included), sleep_ua, avg_current_ua (charge per period / period), and per phase\n"
            "time_us, current_ua, charge_uc (CSV: t_<phase>_us, q_<phase>_uc). No gamma applies:\n"
            "this is the events accounting.\n"
            "Exit codes: 0 ok, 2 usage (unknown or out-of-range option, a figure the profile\n"
            "lacks), 3 bad data file, 4 I/O.\n");
    cli_idle_802154_help(out);
}

/* --role words, in enum pqpan_ble_role order. */
static const char *const role_words[] = {"central", "peripheral", NULL};

#define IDLE(m) offsetof(struct idle_opts, m)

static const struct cli_opt idle_rows[] = {
    {.name = "--idle-phy", .kind = CLI_OPT_WORD, .words_fn = link_phy_words,
     .def = PQPAN_DEFAULT_IDLE_PHY, .store = CLI_STORE_INT, .offset = IDLE(cfg.phy),
     .help = "PHY of the idle connection"},
    /* connInterval: Core v5.4 Vol 6 Part B §4.5.1 */
    {.name = "--idle-ci-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 7.5,
     .max = 4000, .allowed = "7.5..4000 ms in steps of 1.25, Core v5.4 Vol 6 Part B §4.5.1",
     .def = PQPAN_DEFAULT_IDLE_CI_MS, .set = link_set_conn_interval, .offset = IDLE(cfg.ci_ns),
     .help = "connection interval of the idle connection (advise's idle link; the exchange's "
             "is estimate's --ci-ms)"},
    {.name = "--idle-latency", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_BLE_LATENCY_MAX, .def = PQPAN_DEFAULT_IDLE_LATENCY, .store = CLI_STORE_U32,
     .offset = IDLE(cfg.latency),
     .help = "peripheral latency: connection events the peripheral may skip, with (N+1) x "
             "interval < 16 s"},
    {.name = "--role", .kind = CLI_OPT_WORD, .words = role_words, .def = PQPAN_DEFAULT_ROLE,
     .store = CLI_STORE_INT, .offset = IDLE(role), .help = "the side reported"},
};


static void idle_opts_init(void *p)
{
    struct idle_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    cli_opt_table_defaults(&idle_opts_table, o);
    idle_battery_init(&o->bat);
}

const struct cli_opt_table idle_opts_table =
    CLI_OPT_TABLE("idle", "link options", idle_rows, struct idle_opts, idle_opts_init);

/* The energy options that apply: the device's figures and the ramp-up, not the γ and
 * cycle-table ones (an idle link runs no crypto and the events accounting has no γ). */
static const struct cli_opt_table *const idle_energy[] = {&model_energy_table,
                                                         &model_ramp_table};

static int parse_args(struct idle_opts *o, int argc, char **argv)
{
    int i;
    idle_opts_init(o);
    for (i = 1; i < argc; i++) {
        int rc = cli_opt_take(&idle_opts_table, o, CMD, argc, argv, &i);
        size_t k;
        for (k = 0; rc == 0 && k < sizeof idle_energy / sizeof idle_energy[0]; k++) {
            rc = cli_opt_take(idle_energy[k], &o->m, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take(&cli_format_table, &o->m.format, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = idle_battery_take(&o->bat, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, "ble", argv[i]);
        }
    }
    return EXIT_OK;
}

static int compute(struct idle_result *r, const struct idle_opts *o, const struct model_env *env)
{
    const struct pqpan_ledger *l;
    struct pqpan_energy e;
    struct pqpan_energy_opts eo = env->eopts;
    struct cli_msg msg;
    double v = env->in.profile.supply_v, sleep_uc;
    size_t k;
    int rc;
    uint64_t period = ((uint64_t)o->cfg.latency + 1u) * o->cfg.ci_ns;
    memset(r, 0, sizeof *r);
    if (period >= PQPAN_BLE_IDLE_PERIOD_MAX_NS) {
        return cli_usage_error(CMD, "(--idle-latency + 1) x --idle-ci-ms = %.0f ms: it must stay "
                                    "below 16 s, half the longest supervision timeout (Core v5.4 "
                                    "Vol 6 Part B §4.5.2)",
                               (double)period * 1e-6);
    }
    if (pqpan_ble_idle(&r->link, &o->cfg, &env->dev) != PQPAN_OK) {
        return cli_usage_error(CMD, "window widening over %.0f ms reaches half the interval at "
                                    "the profile's sleep clock accuracy (Core v5.4 Vol 6 Part B "
                                    "§4.2.4): lower --idle-latency", (double)period * 1e-6);
    }
    l = &r->link.ledger[o->role];
    eo.radio = model_radio_of(o->cfg.phy);
    rc = cli_msg_report(CMD, model_energy(&e, l, env, eo.radio, &msg), &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    for (k = 0; k < N_IDLE_STATES; k++) {
        struct phase_cost *c = &r->phase[k];
        if (pqpan_energy_state_ua(&c->current_ua, &env->in.profile, &eo, idle_states[k]) !=
            PQPAN_OK) {
            return cli_usage_error(CMD, "energy model: no current for state %s",
                                   pqpan_state_name(idle_states[k]));
        }
        c->time_us = (double)l->ns[PQPAN_PHASE_IDLE][idle_states[k]] * 1e-3;
        c->charge_uc = c->time_us * 1e-6 * c->current_ua;
    }
    r->events = r->link.events[o->role];
    r->period_ms = (double)r->link.period_ns * 1e-6;
    r->charge_period_uc = e.comm_events_uj / v;
    sleep_uc = e.ev_sleep_uj / v;
    r->charge_event_uc = (r->charge_period_uc - sleep_uc) / (double)r->events;
    r->avg_current_ua = r->charge_period_uc / (r->period_ms * 1e-3);
    return EXIT_OK;
}

static const char *role_name(enum pqpan_ble_role r)
{
    return r == PQPAN_BLE_CENTRAL ? "central" : "peripheral";
}

static void print_table(const struct idle_opts *o, const struct model_env *env,
                        const struct idle_result *r)
{
    size_t k;
    printf("pqpan idle: an idle BLE connection on LE %s, CI %.2f ms, peripheral latency %u;\n"
           "  the %s's side (%u of its events per period; the central sends an empty PDU at\n"
           "  every anchor, the peripheral answers one anchor per period)\n",
           pqpan_ble_phy_name(o->cfg.phy), (double)o->cfg.ci_ns * 1e-6, o->cfg.latency,
           role_name(o->role), r->events);
    model_print_profile_line(stdout, env, "  ");
    printf("  currents: %s table, TX %d dBm; T_IFS and receive windows at the RX current (T_IFS: "
           "assumption, no turnaround current in the datasheet); ramp-up %s\n",
           pqpan_current_table_name(env->table), env->eopts.tx_dbm,
           env->ramp_normal ? "normal" : "fast");
    model_print_derived(stdout, env, model_radio_of(o->cfg.phy), "  ");
    printf("  accounting: events (every state of the period, no gamma)\n\n");
    printf("%-38s %12.3f\n", "period (ms)", r->period_ms);
    printf("%-38s %12u\n", "events per period", r->events);
    printf("%-38s %12.3f\n", "charge per event (uC)", r->charge_event_uc);
    printf("%-38s %12.3f\n", "charge per period, sleep included (uC)", r->charge_period_uc);
    printf("%-38s %12.3f\n", "sleep current (uA)", env->in.profile.sleep_ua);
    printf("%-38s %12.3f\n\n", "average current (uA)", r->avg_current_ua);
    printf("%-12s %14s %14s %14s\n", "phase", "time (us)", "current (uA)", "charge (uC)");
    for (k = 0; k < N_IDLE_STATES; k++) {
        const struct phase_cost *c = &r->phase[k];
        printf("%-12s %14.3f %14.1f %14.4f\n", pqpan_state_name(idle_states[k]), c->time_us,
               c->current_ua, c->charge_uc);
    }
}

static void print_csv(const struct idle_opts *o, const struct model_env *env,
                      const struct idle_result *r)
{
    size_t k;
    printf("profile,role,phy,ci_ms,latency,currents,tx_dbm,period_ms,events_per_period,"
           "avg_current_ua,charge_per_event_uc,charge_per_period_uc,sleep_ua");
    for (k = 0; k < N_IDLE_STATES; k++) {
        printf(",t_%s_us,q_%s_uc", pqpan_state_name(idle_states[k]),
               pqpan_state_name(idle_states[k]));
    }
    printf("\n%s,%s,%s,%.2f,%u,%s,%d,%.3f,%u,%.4f,%.4f,%.4f,%.4f", env->in.profile.name,
           role_name(o->role), pqpan_ble_phy_name(o->cfg.phy), (double)o->cfg.ci_ns * 1e-6,
           o->cfg.latency, pqpan_current_table_name(env->table), env->eopts.tx_dbm, r->period_ms,
           r->events, r->avg_current_ua, r->charge_event_uc, r->charge_period_uc,
           env->in.profile.sleep_ua);
    for (k = 0; k < N_IDLE_STATES; k++) {
        printf(",%.3f,%.5f", r->phase[k].time_us, r->phase[k].charge_uc);
    }
    putchar('\n');
}

static void print_json(const struct idle_opts *o, const struct model_env *env,
                       const struct idle_result *r)
{
    size_t k;
    printf("{\n  \"link\": \"ble\",\n  \"profile\": ");
    model_print_profile_json(stdout, env, "  ");
    printf(",\n  \"currents\": \"%s\",\n  \"tx_dbm\": %d,\n  \"ramp\": \"%s\",\n",
           pqpan_current_table_name(env->table), env->eopts.tx_dbm,
           env->ramp_normal ? "normal" : "fast");
    model_print_derived_json(stdout, env, model_radio_of(o->cfg.phy), "  ");
    printf("  \"accounting\": \"events\",\n  \"role\": \"%s\",\n  \"phy\": \"%s\",\n"
           "  \"ci_ms\": %.2f,\n  \"latency\": %u,\n  \"period_ms\": %.3f,\n"
           "  \"events_per_period\": %u,\n  \"avg_current_ua\": %.4f,\n"
           "  \"charge_per_event_uc\": %.4f,\n  \"charge_per_period_uc\": %.4f,\n"
           "  \"phases\": [\n",
           role_name(o->role), pqpan_ble_phy_name(o->cfg.phy), (double)o->cfg.ci_ns * 1e-6,
           o->cfg.latency, r->period_ms, r->events, r->avg_current_ua, r->charge_event_uc,
           r->charge_period_uc);
    for (k = 0; k < N_IDLE_STATES; k++) {
        const struct phase_cost *c = &r->phase[k];
        printf("    {\"phase\": \"%s\", \"time_us\": %.3f, \"current_ua\": %.1f, "
               "\"charge_uc\": %.5f}%s\n",
               pqpan_state_name(idle_states[k]), c->time_us, c->current_ua, c->charge_uc,
               k + 1 < N_IDLE_STATES ? "," : "");
    }
    printf("  ]");
}

/* The output in --format's form, the battery figures after idle's own when asked for. */
static int print_result(const struct idle_opts *o, const struct model_env *env,
                        const struct idle_result *r)
{
    struct pqpan_advise_battery bat;
    double v = env->in.profile.supply_v;
    int wanted;
    int rc = idle_battery_check(&o->bat, o->m.format, &wanted);
    if (rc == EXIT_OK && wanted) {
        rc = idle_battery_compute(&bat, &o->bat, r->avg_current_ua, v);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->m.format == FORMAT_TABLE) {
        print_table(o, env, r);
        if (wanted) {
            idle_battery_print_table(&o->bat, &bat, r->avg_current_ua, v, role_name(o->role));
        }
    } else if (o->m.format == FORMAT_CSV) {
        print_csv(o, env, r);
    } else {
        print_json(o, env, r);
        if (wanted) {
            idle_battery_print_json(&o->bat, &bat, r->avg_current_ua, v, role_name(o->role));
        }
        printf("\n}\n");
    }
    return EXIT_OK;
}

int cli_idle_run(int argc, char **argv)
{
    struct idle_opts o;
    struct model_env *env;
    struct idle_result r;
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_idle_help(stdout);
        return EXIT_OK;
    }
    if (lowpan_link_requested(argc, argv)) {
        return cli_idle_802154_run(argc, argv);
    }
    rc = parse_args(&o, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = compute(&r, &o, env);
    }
    if (rc == EXIT_OK) {
        rc = print_result(&o, env, &r);
    }
    free(env);
    return rc;
}
