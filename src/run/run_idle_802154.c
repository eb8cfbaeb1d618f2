/* The run of `pqpan idle --link 802154` (pqpan_run "idle" with --link 802154, run.h): a
 * sleepy end device's periodic data poll to its parent (src/ieee802154/poll.c): the notes
 * (the assumptions block, as lines and as JSON members), one IDLE row of the poll period's
 * figures (struct pqpan_run_poll_row: the charge per poll, the average current) and one
 * PHASE row per phase of the period (struct pqpan_run_poll_phase: time, current, charge). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idle_battery.h"
#include "lowpan.h"
#include "notes.h"
#include "run_idle.h"
#include "run_internal.h"

#define POLL_MS_MAX 86400000.0 /* one day */
/* The battery side of --exchange-uj on 802.15.4: the polling device. */
#define BATTERY_SIDE_802154 "device"

struct idle154_req {
    struct model_opts m;
    struct lowpan_opts l;
    double poll_ms; /* < 0: not given, the idle link's interval (--poll-ms's default) */
    struct idle_battery_opts bat; /* --exchange-uj, advise's battery rows */
};

#define IDLE154(m) offsetof(struct idle154_req, m)

static const struct cli_opt poll_rows[] = {
    {.name = "--poll-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0.001,
     .max = POLL_MS_MAX, .def = PQPAN_DEFAULT_POLL_MS, .store = CLI_STORE_DOUBLE,
     .offset = IDLE154(poll_ms),
     .help = "poll period; shorter than one poll's active part is exit 2"},
};

static void idle154_init(void *p)
{
    struct idle154_req *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->l);
    o->poll_ms = -1.0;
}

const struct cli_opt_table idle_802154_table =
    CLI_OPT_TABLE("idle-802154", NULL, poll_rows, struct idle154_req, idle154_init);

/* The tables idle --link 802154 reads, in the order help lists them. */
static const struct cli_opt_table *const poll_tables[] = {
    &idle_802154_table, &lowpan_opts_table, &lowpan_busy_table, &model_energy_table,
    &cli_format_table};
#define N_POLL_TABLES (sizeof poll_tables / sizeof poll_tables[0])

/* Tables of estimate --link 802154 that a poll has no use for (no key exchange runs). */
static const struct cli_opt_table *const not_for_idle[] = {
    &lowpan_exchange_table, &model_ramp_table, &model_crypto_table, &model_gamma_table};
#define N_NOT_FOR_IDLE (sizeof not_for_idle / sizeof not_for_idle[0])

const struct cli_opt_table *const *idle_802154_tables(size_t *n)
{
    *n = N_POLL_TABLES;
    return poll_tables;
}

static const struct cli_opt *find_in(const struct cli_opt_table *const *t, size_t n,
                                     const char *name, size_t *at)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < n && found == NULL; k++) {
        found = cli_opt_find(t[k], name);
        *at = k;
    }
    return found;
}

const struct cli_opt *idle_802154_opt_row(const char *name)
{
    size_t at;
    const struct cli_opt *o = find_in(poll_tables, N_POLL_TABLES, name, &at);
    if (o == NULL) {
        o = idle_battery_row(name);
    }
    return o != NULL ? o : find_in(not_for_idle, N_NOT_FOR_IDLE, name, &at);
}

static void *base_of(struct idle154_req *q, const struct cli_opt_table *t)
{
    if (t == &idle_802154_table) {
        return q;
    }
    if (t == &cli_format_table) {
        return &q->m.format;
    }
    return t == &model_energy_table ? (void *)&q->m : (void *)&q->l;
}

static int take(struct run_ctx *r, struct idle154_req *q, const struct pqpan_run_opt *opt)
{
    struct cli_msg msg;
    size_t at;
    const struct cli_opt *o = find_in(poll_tables, N_POLL_TABLES, opt->name, &at);
    int rc;
    if (o != NULL) {
        return run_set(r, o, base_of(q, poll_tables[at]), opt);
    }
    rc = idle_battery_take(r, &q->bat, opt);
    if (rc != IDLE_BATTERY_NOT_MINE) {
        return rc;
    }
    if (find_in(not_for_idle, N_NOT_FOR_IDLE, opt->name, &at) != NULL) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "%s does not apply to --link 802154 (a sleepy end "
                                            "device sleeps between polls; no key exchange runs)",
                          opt->name);
        return run_fail(r, EXIT_USAGE, opt->name, msg.text);
    }
    return run_unknown(r, opt->name, poll_tables, N_POLL_TABLES);
}

static int parse(struct run_ctx *r, struct idle154_req *q, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    size_t i;
    int rc = PQPAN_OK;
    idle154_init(q);
    idle_battery_init(&q->bat);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, q, &opts[i])
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (q->poll_ms < 0.0) {
        q->poll_ms = (double)pqpan_default_ms_ns(PQPAN_DEFAULT_IDLE_CI_MS) * 1e-6;
    }
    return rc != PQPAN_OK ? rc : idle_battery_check(r, &q->bat, q->m.format);
}

/* The current of each ledger state for the poll: the 802.15.4 TX level at --tx-dbm and RX
 * from the --currents table, the profile's sleep, CPU and crystal-start currents. */
static int poll_currents(double ua[PQPAN_STATE_COUNT], const struct model_env *env,
                         struct cli_msg *msg)
{
    const struct pqpan_profile *p = &env->in.profile;
    double tx = 0.0, rx = 0.0;
    if (pqpan_profile_tx_mode_ua(p, env->table, PQPAN_RADIO_IEEE802154, env->eopts.tx_dbm, &tx) !=
            PQPAN_OK ||
        pqpan_profile_rx_ua(p, env->table, PQPAN_RADIO_IEEE802154, &rx) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "profile %s gives no %s current in 802.15.4 mode for TX %d dBm or RX "
                           "(its ieee802154 section); try another --currents table or --tx-dbm, "
                           "or a profile with 802.15.4 figures (built in: nrf52840 at 0 dBm)",
                           p->name, pqpan_current_table_name(env->table), env->eopts.tx_dbm);
    }
    memset(ua, 0, PQPAN_STATE_COUNT * sizeof ua[0]);
    ua[PQPAN_STATE_SLEEP] = p->sleep_ua;
    ua[PQPAN_STATE_CPU] = p->cpu_ua;
    ua[PQPAN_STATE_HFXO_START] = p->hfxo_start_ua;
    ua[PQPAN_STATE_RAMP_TX] = tx;
    ua[PQPAN_STATE_TX] = tx;
    ua[PQPAN_STATE_RX] = rx;
    ua[PQPAN_STATE_IFS] = rx;
    return EXIT_OK;
}

static int setup(struct pqpan_802154_poll_cfg *c, const struct lowpan_opts *l, double poll_ms,
                 const struct model_env *env, struct cli_msg *msg)
{
    struct pqpan_802154_est_config d;
    pqpan_802154_est_config_default(&d);
    memset(c, 0, sizeof *c);
    c->link = d.link;
    lowpan_link(&c->link, l);
    c->csma = l->contiki ? pqpan_802154_csma_contiki() : pqpan_802154_csma_ieee();
    c->p_busy = l->busy;
    c->backoff_rx = (uint8_t)lowpan_backoff_listens(l, env);
    c->period_ns = (uint64_t)(poll_ms * 1e6 + 0.5);
    return lowpan_wake(&c->wake_xtal_ns, &c->wake_cpu_ns, env, msg);
}

int lowpan_poll(struct pqpan_802154_poll *p, struct pqpan_802154_poll_charge *q,
                double ua[PQPAN_STATE_COUNT], const struct model_env *env,
                const struct lowpan_opts *l, double poll_ms, struct cli_msg *msg)
{
    struct pqpan_802154_poll_cfg c;
    int rc = setup(&c, l, poll_ms, env, msg);
    if (rc == EXIT_OK) {
        rc = poll_currents(ua, env, msg);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_poll_plan(p, &c) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "--poll-ms %.3f is shorter than one poll's active "
                           "part (%.3f ms)", poll_ms, (double)p->active_ns * 1e-6);
    }
    pqpan_802154_poll_charge(q, p, ua);
    return EXIT_OK;
}

struct poll_result {
    struct pqpan_802154_poll p;
    struct pqpan_802154_poll_charge q;
    double ua[PQPAN_STATE_COUNT];
    struct pqpan_run_poll_row row;
    struct pqpan_run_poll_phase phase[PQPAN_802154_POLL_PHASES];
};

static const char *backoff_name(const struct pqpan_802154_poll *p)
{
    return p->state[PQPAN_802154_POLL_BACKOFF] == PQPAN_STATE_RX ? "listen" : "sleep";
}

static void fill_phases(struct poll_result *res)
{
    int ph;
    for (ph = 0; ph < PQPAN_802154_POLL_PHASES; ph++) {
        struct pqpan_run_poll_phase *c = &res->phase[ph];
        c->phase = pqpan_802154_poll_phase_name((enum pqpan_802154_poll_phase)ph);
        c->state = pqpan_state_name((enum pqpan_state)res->p.state[ph]);
        c->time_us = (double)res->p.ns[ph] * 1e-3;
        c->current_ua = res->ua[res->p.state[ph]];
        c->charge_uc = res->q.uc[ph];
    }
}

static void fill_row(struct poll_result *res, const struct idle154_req *q,
                     const struct model_env *env)
{
    struct pqpan_run_poll_row *w = &res->row;
    w->profile = env->in.profile.name;
    w->poll_ms = q->poll_ms;
    w->mac_security = lowpan_sec_name(q->l.sec_level);
    w->key_id_mode = q->l.key_id_mode;
    w->addr = q->l.short_addr ? "short" : "extended";
    w->backoff = backoff_name(&res->p);
    w->csma = q->l.contiki ? "contiki" : "ieee";
    w->busy = q->l.busy;
    w->currents = pqpan_current_table_name(env->table);
    w->tx_dbm = env->eopts.tx_dbm;
    w->tx_ua = res->ua[PQPAN_STATE_TX];
    w->rx_ua = res->ua[PQPAN_STATE_RX];
    w->request_psdu_octets = (unsigned)res->p.request_psdu;
    w->ack_psdu_octets = (unsigned)PQPAN_802154_ACK_PSDU;
    w->expected_ccas = res->p.ccas;
    w->expected_wake_ups = res->p.wakes;
    w->active_us = (double)res->p.active_ns * 1e-3;
    w->charge_per_poll_uc = res->q.poll_uc;
    w->poll_current_ua = res->q.poll_uc / ((double)res->p.active_ns * 1e-9);
    w->sleep_charge_uc = res->q.sleep_uc;
    w->period_us = q->poll_ms * 1e3;
    w->charge_per_period_uc = res->q.poll_uc + res->q.sleep_uc;
    w->avg_current_ua = res->q.avg_ua;
    w->supply_v = env->in.profile.supply_v;
}

/* What the notes are rendered from. */
struct poll_notes {
    const struct idle154_req *q;
    const struct model_env *env;
    const struct poll_result *res;
};

/* The lines a table prints before the phases. */
static void poll_table_notes(FILE *f, const void *arg)
{
    const struct poll_notes *a = arg;
    const struct model_env *env = a->env;
    const struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_run_poll_row *w = &a->res->row;
    fprintf(f,
            "pqpan idle: a sleepy IEEE 802.15.4 end device polls its parent every %.3f ms\n"
            "  (Data Request command, IEEE 802.15.4-2015 §7.5.5, acknowledged; Imm-Ack with Frame\n"
            "  Pending 0, then the radio off until the next poll); %s addresses, CSMA-CA %s,\n"
            "  channel busy p = %.3f\n",
            w->poll_ms, w->addr, w->csma, w->busy);
    model_print_profile_line(f, env, "  ");
    fprintf(f,
            "  currents: profile section ieee802154, %s table: TX %d dBm %.0f uA, RX %.0f uA;\n"
            "    sleep %.2f uA (sleep_ua), CPU %.0f uA (cpu_ua), crystal start %.0f uA "
            "(hfxo_start_ua)\n",
            w->currents, w->tx_dbm, w->tx_ua, w->rx_ua, p->sleep_ua, p->cpu_ua, p->hfxo_start_ua);
    fprintf(f, "  CSMA-CA backoff: %s (%s)\n", w->backoff,
            a->q->l.backoff >= 0 ? "--backoff, command line" : "profile ieee802154.backoff");
    lowpan_print_security_wake(f, env, &a->q->l, 1, "  ");
    lowpan_print_derived(f, env, 1, "  ");
    fprintf(f,
            "  Data Request %u octets (PSDU), %.0f us on air; Imm-Ack %u octets, %.0f us;\n"
            "  expected CCAs %.4f, wake-ups %.4f per poll\n",
            w->request_psdu_octets, a->res->phase[PQPAN_802154_POLL_TX].time_us,
            w->ack_psdu_octets, (double)pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU) * 1e-3,
            w->expected_ccas, w->expected_wake_ups);
}

/* The index of the profile's 802.15.4 TX level at tx_dbm, or -1. */
static int tx_level(const struct pqpan_profile *p, int tx_dbm)
{
    int lvl = -1;
    size_t i;
    for (i = 0; i < p->ieee802154.tx_level_count; i++) {
        if (p->ieee802154.tx_dbm[i] == tx_dbm) {
            lvl = (int)i;
        }
    }
    return lvl;
}

/* The same as JSON members, up to the phases. */
static void poll_json_notes(FILE *f, const void *arg)
{
    const struct poll_notes *a = arg;
    const struct model_env *env = a->env;
    const struct pqpan_io_802154_sources *src = &env->in.src802154;
    const struct pqpan_run_poll_row *w = &a->res->row;
    int lvl = tx_level(&env->in.profile, w->tx_dbm);
    fprintf(f, "  \"link\": \"802154\",\n  \"profile\": ");
    model_print_profile_json(f, env, "  ");
    fprintf(f, ",\n  \"currents\": \"%s\",\n  \"tx_dbm\": %d,\n  \"tx_ua\": %.1f,\n  \"tx_source\": ",
            w->currents, w->tx_dbm, w->tx_ua);
    model_json_string(f, lvl >= 0 ? src->tx[env->table][lvl] : "");
    fprintf(f, ",\n  \"rx_ua\": %.1f,\n  \"rx_source\": ", w->rx_ua);
    model_json_string(f, src->rx[env->table]);
    fprintf(f, ",\n  \"cpu_ua\": %.1f,\n  \"backoff\": \"%s\",\n  \"backoff_source\": ",
            env->in.profile.cpu_ua, w->backoff);
    model_json_string(f, a->q->l.backoff >= 0 ? "--backoff (command line)" : src->backoff);
    fprintf(f, ",\n");
    lowpan_print_security_wake_json(f, env, &a->q->l, 1, "  ");
    lowpan_print_derived_json(f, env, 1, "  ");
    fprintf(f,
            "  \"addr\": \"%s\",\n  \"csma\": \"%s\",\n  \"busy\": %.4f,\n  \"poll_ms\": %.3f,\n"
            "  \"request_psdu_octets\": %u,\n  \"ack_psdu_octets\": %u,\n"
            "  \"expected_ccas\": %.4f,\n  \"expected_wake_ups\": %.4f,\n",
            w->addr, w->csma, w->busy, w->poll_ms, w->request_psdu_octets, w->ack_psdu_octets,
            w->expected_ccas, w->expected_wake_ups);
}

#define ROW(m) offsetof(struct pqpan_run_poll_row, m)
#define RUN_S(s) PQPAN_RUN_STORE_##s
#define RUN_JSON PQPAN_RUN_GROUP_JSON

/* The poll period's figures: the CSV's leading columns in its order, then the rest. */
static const struct pqpan_run_field poll_fields[] = {
    {"poll_ms", "poll period (ms)", "ms", 0, RUN_S(REAL), ROW(poll_ms), 3},
    {"mac_security", "MAC security", NULL, 0, RUN_S(TEXT), ROW(mac_security), 0},
    {"key_id_mode", "key identifier mode", NULL, 0, RUN_S(INT), ROW(key_id_mode), 0},
    {"addr", "addresses", NULL, 0, RUN_S(TEXT), ROW(addr), 0},
    {"backoff", "CSMA-CA backoff", NULL, 0, RUN_S(TEXT), ROW(backoff), 0},
    {"currents", "currents", NULL, 0, RUN_S(TEXT), ROW(currents), 0},
    {"tx_dbm", "TX power (dBm)", "dBm", 0, RUN_S(INT), ROW(tx_dbm), 0},
    {"profile", "profile", NULL, 0, RUN_S(TEXT), ROW(profile), 0},
    {"csma", "CSMA-CA", NULL, 0, RUN_S(TEXT), ROW(csma), 0},
    {"busy", "channel busy probability", NULL, 0, RUN_S(REAL), ROW(busy), 4},
    {"tx_ua", "TX current (uA)", "uA", 0, RUN_S(REAL), ROW(tx_ua), 1},
    {"rx_ua", "RX current (uA)", "uA", 0, RUN_S(REAL), ROW(rx_ua), 1},
    {"request_psdu_octets", "Data Request PSDU (octets)", "octets", 0, RUN_S(UINT),
     ROW(request_psdu_octets), 0},
    {"ack_psdu_octets", "Imm-Ack PSDU (octets)", "octets", 0, RUN_S(UINT), ROW(ack_psdu_octets),
     0},
    {"expected_ccas", "expected CCAs per poll", NULL, 0, RUN_S(REAL), ROW(expected_ccas), 4},
    {"expected_wake_ups", "expected wake-ups per poll", NULL, 0, RUN_S(REAL),
     ROW(expected_wake_ups), 4},
    {"active_us", "active time per poll (us)", "us", RUN_JSON, RUN_S(REAL), ROW(active_us), 3},
    {"charge_per_poll_uc", "charge per poll, all but sleep (uC)", "uC", RUN_JSON, RUN_S(REAL),
     ROW(charge_per_poll_uc), 6},
    {"poll_current_ua", "average current while polling (uA)", "uA", 0, RUN_S(REAL),
     ROW(poll_current_ua), 3},
    {"sleep_charge_uc", "sleep charge per period (uC)", "uC", RUN_JSON, RUN_S(REAL),
     ROW(sleep_charge_uc), 6},
    {"period_us", "period (us)", "us", 0, RUN_S(REAL), ROW(period_us), 3},
    {"charge_per_period_uc", "charge per period (uC)", "uC", 0, RUN_S(REAL),
     ROW(charge_per_period_uc), 6},
    {"avg_current_ua", "average current (uA)", "uA", RUN_JSON, RUN_S(REAL), ROW(avg_current_ua), 6},
    {"supply_v", "supply (V)", "V", 0, RUN_S(REAL), ROW(supply_v), 2},
};
#define N_POLL_FIELDS (sizeof poll_fields / sizeof poll_fields[0])

#define PHASE(m) offsetof(struct pqpan_run_poll_phase, m)

static const struct pqpan_run_field poll_phase_fields[] = {
    {"phase", "phase", NULL, 0, RUN_S(TEXT), PHASE(phase), 0},
    {"state", "state", NULL, 0, RUN_S(TEXT), PHASE(state), 0},
    {"time_us", "time (us)", "us", 0, RUN_S(REAL), PHASE(time_us), 3},
    {"current_ua", "current (uA)", "uA", 0, RUN_S(REAL), PHASE(current_ua), 3},
    {"charge_uc", "charge (uC)", "uC", 0, RUN_S(REAL), PHASE(charge_uc), 6},
};
#define N_POLL_PHASE_FIELDS (sizeof poll_phase_fields / sizeof poll_phase_fields[0])

static int emit_result(struct run_ctx *r, const struct idle154_req *q,
                       const struct model_env *env, const struct poll_result *res)
{
    struct poll_notes notes;
    size_t k;
    int rc;
    notes.q = q;
    notes.env = env;
    notes.res = res;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, poll_table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, poll_json_notes, &notes);
    }
    if (rc == PQPAN_OK) {
        rc = run_record(r, PQPAN_RUN_RECORD_IDLE, PQPAN_RUN_LINK_802154, poll_fields,
                        N_POLL_FIELDS, &res->row);
    }
    for (k = 0; k < PQPAN_802154_POLL_PHASES && rc == PQPAN_OK; k++) {
        rc = run_record(r, PQPAN_RUN_RECORD_PHASE, PQPAN_RUN_LINK_802154, poll_phase_fields,
                        N_POLL_PHASE_FIELDS, &res->phase[k]);
    }
    if (rc == PQPAN_OK && q->bat.exchange_uj > 0.0) {
        rc = idle_battery_emit(r, PQPAN_RUN_LINK_802154, &q->bat, res->row.avg_current_ua,
                               res->row.supply_v, BATTERY_SIDE_802154);
    }
    return rc;
}

static int compute(struct run_ctx *r, struct poll_result *res, const struct idle154_req *q,
                   const struct model_env *env)
{
    struct cli_msg msg;
    int rc = lowpan_poll(&res->p, &res->q, res->ua, env, &q->l, q->poll_ms, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    fill_phases(res);
    fill_row(res, q, env);
    return PQPAN_OK;
}

int run_idle_802154(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct idle154_req q;
    struct poll_result *res = malloc(sizeof *res);
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc = res != NULL ? parse(r, &q, opts, n_opts)
                         : run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &q.m, &msg);
        rc = load != EXIT_OK ? run_fail(r, load, NULL, msg.text) : compute(r, res, &q, env);
    }
    if (rc == PQPAN_OK) {
        rc = emit_result(r, &q, env, res);
    }
    free(env);
    free(res);
    return rc;
}
