/* The run of `pqpan idle` on BLE (pqpan_run "idle", run.h): what an idle connection costs
 * between key exchanges (src/ble/idle.c), for one side over one latency period: the notes
 * (the assumptions block, as lines and as JSON members), one IDLE row of the side's figures,
 * then one PHASE row per state of the period (its time, current and charge). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idle_battery.h"
#include "link.h"
#include "notes.h"
#include "run_idle.h"
#include "run_internal.h"

struct idle_req {
    struct model_opts m;
    struct pqpan_ble_idle_config cfg;
    enum pqpan_ble_role role;
    struct idle_battery_opts bat; /* --exchange-uj, advise's battery rows */
};

/* --role words, in enum pqpan_ble_role order. */
static const char *const role_words[] = {"central", "peripheral", NULL};

_Static_assert(sizeof(enum pqpan_ble_role) == sizeof(int), "--role is stored as an int");

#define IDLE(m) offsetof(struct idle_req, m)

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

static void idle_req_init(void *p)
{
    struct idle_req *q = p;
    memset(q, 0, sizeof *q);
    model_opts_init(&q->m);
    cli_opt_table_defaults(&idle_opts_table, q);
}

const struct cli_opt_table idle_opts_table =
    CLI_OPT_TABLE("idle", "link options", idle_rows, struct idle_req, idle_req_init);

/* The energy options that apply: the device's figures and the ramp-up, not the γ and
 * cycle-table ones (an idle link runs no crypto and the events accounting has no γ). */
static const struct cli_opt_table *const idle_tables[] = {&idle_opts_table, &model_energy_table,
                                                          &model_ramp_table, &cli_format_table};
#define N_IDLE_TABLES (sizeof idle_tables / sizeof idle_tables[0])

const struct cli_opt *idle_opt_row(const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_IDLE_TABLES && found == NULL; k++) {
        found = cli_opt_find(idle_tables[k], name);
    }
    return found != NULL ? found : idle_battery_row(name);
}

static void *base_of(struct idle_req *q, const struct cli_opt_table *t)
{
    return t == &idle_opts_table ? (void *)q : t == &cli_format_table ? (void *)&q->m.format
                                                                       : (void *)&q->m;
}

static int parse(struct run_ctx *r, struct idle_req *q, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    size_t i, k;
    int rc = PQPAN_OK;
    idle_req_init(q);
    idle_battery_init(&q->bat);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        const struct cli_opt *o = NULL;
        if (opts[i].name == NULL) {
            return run_fail(r, EXIT_USAGE, NULL, "an option without a name");
        }
        for (k = 0; k < N_IDLE_TABLES && o == NULL; k++) {
            o = cli_opt_find(idle_tables[k], opts[i].name);
        }
        rc = o != NULL ? run_set(r, o, base_of(q, idle_tables[k - 1]), &opts[i])
                       : idle_battery_take(r, &q->bat, &opts[i]);
        if (rc == IDLE_BATTERY_NOT_MINE) {
            rc = run_unknown(r, opts[i].name, idle_tables, N_IDLE_TABLES);
        }
    }
    return rc != PQPAN_OK ? rc : idle_battery_check(r, &q->bat, q->m.format);
}

/* The states of an idle period in the order an event runs them, then sleep. */
static const enum pqpan_state idle_states[PQPAN_RUN_IDLE_PHASES] = {
    PQPAN_STATE_PRE, PQPAN_STATE_HFXO_START, PQPAN_STATE_RAMP_TX, PQPAN_STATE_RAMP_RX,
    PQPAN_STATE_RX_WINDOW, PQPAN_STATE_TX, PQPAN_STATE_IFS, PQPAN_STATE_RX,
    PQPAN_STATE_POST, PQPAN_STATE_SLEEP,
};

struct idle_result {
    struct pqpan_run_idle_row row;
    struct pqpan_run_idle_phase phase[PQPAN_RUN_IDLE_PHASES];
};

/* The link's ledger of the side: pqpan_ble_idle within the period's limits. */
static int idle_link(struct run_ctx *r, struct pqpan_ble_idle *link, const struct idle_req *q,
                     const struct model_env *env)
{
    struct cli_msg msg;
    uint64_t period = ((uint64_t)q->cfg.latency + 1u) * q->cfg.ci_ns;
    if (period >= PQPAN_BLE_IDLE_PERIOD_MAX_NS) {
        (void)cli_msg_set(&msg, EXIT_USAGE,
                          "(--idle-latency + 1) x --idle-ci-ms = %.0f ms: it must stay below 16 "
                          "s, half the longest supervision timeout (Core v5.4 Vol 6 Part B §4.5.2)",
                          (double)period * 1e-6);
        return run_fail(r, EXIT_USAGE, "--idle-latency", msg.text);
    }
    if (pqpan_ble_idle(link, &q->cfg, &env->dev) != PQPAN_OK) {
        (void)cli_msg_set(&msg, EXIT_USAGE,
                          "window widening over %.0f ms reaches half the interval at the "
                          "profile's sleep clock accuracy (Core v5.4 Vol 6 Part B §4.2.4): lower "
                          "--idle-latency",
                          (double)period * 1e-6);
        return run_fail(r, EXIT_USAGE, "--idle-latency", msg.text);
    }
    return PQPAN_OK;
}

/* Time, current and charge of every state of the period on ledger l. */
static int idle_phases(struct run_ctx *r, struct idle_result *res, const struct pqpan_ledger *l,
                       const struct model_env *env, const struct pqpan_energy_opts *eo)
{
    struct cli_msg msg;
    size_t k;
    for (k = 0; k < PQPAN_RUN_IDLE_PHASES; k++) {
        struct pqpan_run_idle_phase *c = &res->phase[k];
        c->phase = pqpan_state_name(idle_states[k]);
        if (pqpan_energy_state_ua(&c->current_ua, &env->in.profile, eo, idle_states[k]) !=
            PQPAN_OK) {
            (void)cli_msg_set(&msg, EXIT_USAGE, "energy model: no current for state %s",
                              c->phase);
            return run_fail(r, EXIT_USAGE, "--profile", msg.text);
        }
        c->time_us = (double)l->ns[PQPAN_PHASE_IDLE][idle_states[k]] * 1e-3;
        c->charge_uc = c->time_us * 1e-6 * c->current_ua;
    }
    return PQPAN_OK;
}

static int compute(struct run_ctx *r, struct idle_result *res, const struct idle_req *q,
                   const struct model_env *env)
{
    struct pqpan_ble_idle link;
    struct pqpan_energy e;
    struct pqpan_energy_opts eo = env->eopts;
    struct pqpan_run_idle_row *w = &res->row;
    struct cli_msg msg;
    double v = env->in.profile.supply_v;
    int rc = idle_link(r, &link, q, env);
    const struct pqpan_ledger *l = &link.ledger[q->role];
    if (rc != PQPAN_OK) {
        return rc;
    }
    eo.radio = model_radio_of(q->cfg.phy);
    rc = model_energy(&e, l, env, eo.radio, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    rc = idle_phases(r, res, l, env, &eo);
    if (rc != PQPAN_OK) {
        return rc;
    }
    w->profile = env->in.profile.name;
    w->role = role_words[q->role];
    w->phy = pqpan_ble_phy_name(q->cfg.phy);
    w->currents = pqpan_current_table_name(env->table);
    w->ci_ms = (double)q->cfg.ci_ns * 1e-6;
    w->latency = q->cfg.latency;
    w->tx_dbm = env->eopts.tx_dbm;
    w->events_per_period = link.events[q->role];
    w->period_ms = (double)link.period_ns * 1e-6;
    w->charge_per_period_uc = e.comm_events_uj / v;
    w->charge_per_event_uc =
        (w->charge_per_period_uc - e.ev_sleep_uj / v) / (double)w->events_per_period;
    w->avg_current_ua = w->charge_per_period_uc / (w->period_ms * 1e-3);
    w->sleep_ua = env->in.profile.sleep_ua;
    w->supply_v = v;
    return PQPAN_OK;
}

/* What the notes are rendered from. */
struct idle_notes {
    const struct idle_req *q;
    const struct model_env *env;
    const struct pqpan_run_idle_row *row;
};

/* The lines a table prints before the figures. */
static void idle_table_notes(FILE *f, const void *arg)
{
    const struct idle_notes *a = arg;
    const struct model_env *env = a->env;
    fprintf(f,
            "pqpan idle: an idle BLE connection on LE %s, CI %.2f ms, peripheral latency %u;\n"
            "  the %s's side (%u of its events per period; the central sends an empty PDU at\n"
            "  every anchor, the peripheral answers one anchor per period)\n",
            a->row->phy, a->row->ci_ms, a->row->latency, a->row->role,
            a->row->events_per_period);
    model_print_profile_line(f, env, "  ");
    fprintf(f,
            "  currents: %s table, TX %d dBm; T_IFS and receive windows at the RX current (T_IFS: "
            "assumption, no turnaround current in the datasheet); ramp-up %s\n",
            a->row->currents, env->eopts.tx_dbm, env->ramp_normal ? "normal" : "fast");
    model_print_derived(f, env, model_radio_of(a->q->cfg.phy), "  ");
    fprintf(f, "  accounting: events (every state of the period, no gamma)\n");
}

/* The same as JSON members. */
static void idle_json_notes(FILE *f, const void *arg)
{
    const struct idle_notes *a = arg;
    const struct model_env *env = a->env;
    fprintf(f, "  \"link\": \"ble\",\n  \"profile\": ");
    model_print_profile_json(f, env, "  ");
    fprintf(f, ",\n  \"currents\": \"%s\",\n  \"tx_dbm\": %d,\n  \"ramp\": \"%s\",\n",
            a->row->currents, env->eopts.tx_dbm, env->ramp_normal ? "normal" : "fast");
    model_print_derived_json(f, env, model_radio_of(a->q->cfg.phy), "  ");
    fprintf(f, "  \"accounting\": \"events\",\n");
}

#define ROW(m) offsetof(struct pqpan_run_idle_row, m)
#define RUN_S(s) PQPAN_RUN_STORE_##s
#define RUN_JSON PQPAN_RUN_GROUP_JSON

/* The side's figures: the CSV's columns before the phases, in its order, then supply_v. */
static const struct pqpan_run_field idle_fields[] = {
    {"profile", "profile", NULL, 0, RUN_S(TEXT), ROW(profile), 0},
    {"role", "role", NULL, RUN_JSON, RUN_S(TEXT), ROW(role), 0},
    {"phy", "PHY", NULL, RUN_JSON, RUN_S(TEXT), ROW(phy), 0},
    {"ci_ms", "connection interval (ms)", "ms", RUN_JSON, RUN_S(REAL), ROW(ci_ms), 2},
    {"latency", "peripheral latency", NULL, RUN_JSON, RUN_S(UINT), ROW(latency), 0},
    {"currents", "currents", NULL, 0, RUN_S(TEXT), ROW(currents), 0},
    {"tx_dbm", "TX power (dBm)", "dBm", 0, RUN_S(INT), ROW(tx_dbm), 0},
    {"period_ms", "period (ms)", "ms", RUN_JSON, RUN_S(REAL), ROW(period_ms), 3},
    {"events_per_period", "events per period", NULL, RUN_JSON, RUN_S(UINT), ROW(events_per_period), 0},
    {"avg_current_ua", "average current (uA)", "uA", RUN_JSON, RUN_S(REAL), ROW(avg_current_ua), 4},
    {"charge_per_event_uc", "charge per event (uC)", "uC", RUN_JSON, RUN_S(REAL),
     ROW(charge_per_event_uc), 4},
    {"charge_per_period_uc", "charge per period, sleep included (uC)", "uC", RUN_JSON, RUN_S(REAL),
     ROW(charge_per_period_uc), 4},
    {"sleep_ua", "sleep current (uA)", "uA", 0, RUN_S(REAL), ROW(sleep_ua), 4},
    {"supply_v", "supply (V)", "V", 0, RUN_S(REAL), ROW(supply_v), 2},
};
#define N_IDLE_FIELDS (sizeof idle_fields / sizeof idle_fields[0])

#define PHASE(m) offsetof(struct pqpan_run_idle_phase, m)

static const struct pqpan_run_field phase_fields[] = {
    {"phase", "phase", NULL, 0, RUN_S(TEXT), PHASE(phase), 0},
    {"time_us", "time (us)", "us", 0, RUN_S(REAL), PHASE(time_us), 3},
    {"current_ua", "current (uA)", "uA", 0, RUN_S(REAL), PHASE(current_ua), 1},
    {"charge_uc", "charge (uC)", "uC", 0, RUN_S(REAL), PHASE(charge_uc), 5},
};
#define N_PHASE_FIELDS (sizeof phase_fields / sizeof phase_fields[0])

static int emit_result(struct run_ctx *r, const struct idle_req *q, const struct model_env *env,
                       const struct idle_result *res)
{
    struct idle_notes notes;
    size_t k;
    int rc;
    notes.q = q;
    notes.env = env;
    notes.row = &res->row;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, idle_table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, idle_json_notes, &notes);
    }
    if (rc == PQPAN_OK) {
        rc = run_record(r, PQPAN_RUN_RECORD_IDLE, PQPAN_RUN_LINK_BLE, idle_fields, N_IDLE_FIELDS,
                        &res->row);
    }
    for (k = 0; k < PQPAN_RUN_IDLE_PHASES && rc == PQPAN_OK; k++) {
        rc = run_record(r, PQPAN_RUN_RECORD_PHASE, PQPAN_RUN_LINK_BLE, phase_fields,
                        N_PHASE_FIELDS, &res->phase[k]);
    }
    if (rc == PQPAN_OK && q->bat.exchange_uj > 0.0) {
        rc = idle_battery_emit(r, PQPAN_RUN_LINK_BLE, &q->bat, res->row.avg_current_ua,
                               res->row.supply_v, res->row.role);
    }
    return rc;
}

int run_idle(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct idle_req q;
    struct idle_result res;
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc;
    if (run_wants_802154(opts, n_opts)) {
        return run_idle_802154(r, opts, n_opts);
    }
    rc = parse(r, &q, opts, n_opts);
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &q.m, &msg);
        rc = load != EXIT_OK ? run_fail(r, load, NULL, msg.text) : compute(r, &res, &q, env);
    }
    if (rc == PQPAN_OK) {
        rc = emit_result(r, &q, env, &res);
    }
    free(env);
    return rc;
}
