/* pqpan idle --link 802154: a sleepy end device's periodic data poll to its parent
 * (src/ieee802154/poll.c): the time and charge of every phase of one poll period from
 * the profile's figures, the charge per poll and the average current. cli/idle.c (the
 * command, its help and the BLE idle connection) dispatches here on --link 802154. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "idle_battery.h"
#include "lowpan_model.h"
#include "opts_registry.h"

#define CMD "idle"
#define POLL_MS_MAX 86400000.0 /* one day */
/* The battery side of --exchange-uj: the polling device. */
#define BATTERY_SIDE "device"

struct idle154_opts {
    struct model_opts m;
    struct lowpan_opts l;
    double poll_ms; /* < 0: not given, the idle link's interval (--poll-ms's default) */
    struct idle_battery_opts bat;
};

#define IDLE154(m) offsetof(struct idle154_opts, m)

static const struct cli_opt poll_rows[] = {
    {.name = "--poll-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0.001,
     .max = POLL_MS_MAX, .def = PQPAN_DEFAULT_POLL_MS, .store = CLI_STORE_DOUBLE,
     .offset = IDLE154(poll_ms),
     .help = "poll period; shorter than one poll's active part is exit 2"},
};

static void idle154_init(void *p)
{
    struct idle154_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->l);
    o->poll_ms = -1.0;
    idle_battery_init(&o->bat);
}

const struct cli_opt_table idle_802154_table =
    CLI_OPT_TABLE("idle-802154", NULL, poll_rows, struct idle154_opts, idle154_init);

/* Where a table's options are stored in struct idle154_opts. */
enum poll_into { INTO_LINK, INTO_MODEL, INTO_FORMAT, INTO_SELF };

/* The tables idle --link 802154 reads, in the order help lists them. */
static const struct {
    const struct cli_opt_table *t;
    enum poll_into into;
} poll_tables[] = {
    {&idle_802154_table, INTO_SELF},   {&lowpan_opts_table, INTO_LINK},
    {&lowpan_busy_table, INTO_LINK},   {&model_energy_table, INTO_MODEL},
    {&cli_format_table, INTO_FORMAT},
};

/* Tables of estimate --link 802154 that a poll has no use for (no key exchange runs). */
static const struct cli_opt_table *const not_for_idle[] = {
    &lowpan_exchange_table, &model_ramp_table, &model_crypto_table, &model_gamma_table};

#define N_POLL_TABLES (sizeof poll_tables / sizeof poll_tables[0])
#define N_NOT_FOR_IDLE (sizeof not_for_idle / sizeof not_for_idle[0])

void cli_idle_802154_help(FILE *out)
{
    size_t k;
    fprintf(out,
            "\nIEEE 802.15.4 (--link 802154 [--poll-ms X]): a sleepy end device (a Thread SED)\n"
            "that wakes every X ms (by default the BLE idle link's interval, --idle-ci-ms's\n"
            "default), sends its parent a Data Request command (IEEE 802.15.4-2015 s7.5.5;\n"
            "acknowledged, unslotted CSMA-CA), gets an Imm-Ack with Frame Pending 0 (no data\n"
            "waiting) and sleeps with the radio off until the next poll. Prints each phase of one\n"
            "period (wake-up: crystal start and CPU; backoff; CCA; turnaround; the Data Request;\n"
            "ACK wait: turnaround + Imm-Ack; sleep) with its time, current and charge, the charge\n"
            "per poll (every phase but sleep, uC) and the average current (uA).\n"
            "Expected values on a channel that is idle or busy with probability --busy; the poll\n"
            "is assumed to get the channel and its ACK. Currents: the profile's ieee802154\n"
            "section (TX, RX), sleep_ua, hfxo_start_ua, cpu_ua; times: hfxo_start_us and\n"
            "ieee802154.wake_cpu_us. --addr is that of the device and its parent; with --backoff\n"
            "sleep the wake-up is before each CCA; --mac-security secures the Data Request (the\n"
            "Imm-Ack stays unsecured).\n");
    for (k = 0; k < N_POLL_TABLES; k++) {
        cli_opt_rows_help(out, poll_tables[k].t);
    }
}

static int take_poll_option(struct idle154_opts *o, int argc, char **argv, int *i)
{
    size_t k;
    int rc = 0;
    for (k = 0; k < N_POLL_TABLES && rc == 0; k++) {
        void *into = poll_tables[k].into == INTO_LINK     ? (void *)&o->l
                     : poll_tables[k].into == INTO_MODEL  ? (void *)&o->m
                     : poll_tables[k].into == INTO_FORMAT ? (void *)&o->m.format
                                                          : (void *)o;
        rc = cli_opt_take(poll_tables[k].t, into, CMD, argc, argv, i);
    }
    if (rc == 0) {
        rc = idle_battery_take(&o->bat, CMD, argc, argv, i);
    }
    return rc;
}

static int parse_args(struct idle154_opts *o, int argc, char **argv)
{
    int i;
    idle154_init(o);
    for (i = 1; i < argc; i++) {
        int rc = take_poll_option(o, argc, argv, &i);
        size_t k;
        for (k = 0; rc == 0 && k < N_NOT_FOR_IDLE; k++) {
            if (cli_opt_find(not_for_idle[k], argv[i]) != NULL) {
                return cli_usage_error(CMD, "%s does not apply to --link 802154 (a sleepy end "
                                            "device sleeps between polls; no key exchange runs)",
                                       argv[i]);
            }
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, "802154", argv[i]);
        }
    }
    if (o->poll_ms < 0.0) {
        o->poll_ms = (double)pqpan_default_ms_ns(PQPAN_DEFAULT_IDLE_CI_MS) * 1e-6;
    }
    return EXIT_OK;
}

struct result {
    struct pqpan_802154_poll p;
    struct pqpan_802154_poll_charge q;
    double ua[PQPAN_STATE_COUNT];
};

static const char *state_name(const struct result *r, int ph)
{
    return pqpan_state_name((enum pqpan_state)r->p.state[ph]);
}

static double phase_ua(const struct result *r, int ph)
{
    return r->ua[r->p.state[ph]];
}

static const char *addr_name(const struct idle154_opts *o)
{
    return o->l.short_addr ? "short" : "extended";
}

static const char *backoff_name(const struct result *r)
{
    return r->p.state[PQPAN_802154_POLL_BACKOFF] == PQPAN_STATE_RX ? "listen" : "sleep";
}

static void print_table(const struct idle154_opts *o, const struct model_env *env,
                        const struct result *r)
{
    const struct pqpan_profile *p = &env->in.profile;
    int ph;
    printf("pqpan idle: a sleepy IEEE 802.15.4 end device polls its parent every %.3f ms\n"
           "  (Data Request command, IEEE 802.15.4-2015 §7.5.5, acknowledged; Imm-Ack with Frame\n"
           "  Pending 0, then the radio off until the next poll); %s addresses, CSMA-CA %s,\n"
           "  channel busy p = %.3f\n",
           o->poll_ms, addr_name(o), o->l.contiki ? "contiki" : "ieee", o->l.busy);
    model_print_profile_line(stdout, env, "  ");
    printf("  currents: profile section ieee802154, %s table: TX %d dBm %.0f uA, RX %.0f uA;\n"
           "    sleep %.2f uA (sleep_ua), CPU %.0f uA (cpu_ua), crystal start %.0f uA (hfxo_start_ua)\n",
           pqpan_current_table_name(env->table), env->eopts.tx_dbm, r->ua[PQPAN_STATE_TX],
           r->ua[PQPAN_STATE_RX], p->sleep_ua, p->cpu_ua, p->hfxo_start_ua);
    printf("  CSMA-CA backoff: %s (%s)\n", backoff_name(r),
           o->l.backoff >= 0 ? "--backoff, command line" : "profile ieee802154.backoff");
    lowpan_print_security_wake(stdout, env, &o->l, 1, "  ");
    lowpan_print_derived(stdout, env, 1, "  ");
    printf("  Data Request %zu octets (PSDU), %.0f us on air; Imm-Ack %u octets, %.0f us;\n"
           "  expected CCAs %.4f, wake-ups %.4f per poll\n\n",
           r->p.request_psdu, (double)r->p.ns[PQPAN_802154_POLL_TX] * 1e-3,
           (unsigned)PQPAN_802154_ACK_PSDU,
           (double)pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU) * 1e-3, r->p.ccas, r->p.wakes);
    printf("%-12s %-11s %14s %14s %14s\n", "phase", "state", "time (us)", "current (uA)",
           "charge (uC)");
    for (ph = 0; ph < PQPAN_802154_POLL_PHASES; ph++) {
        printf("%-12s %-11s %14.3f %14.3f %14.6f\n",
               pqpan_802154_poll_phase_name((enum pqpan_802154_poll_phase)ph), state_name(r, ph),
               (double)r->p.ns[ph] * 1e-3, phase_ua(r, ph), r->q.uc[ph]);
    }
    printf("\ncharge per poll, all but sleep (uC)  %14.6f\n"
           "active time per poll (us)            %14.3f\n"
           "sleep charge per period (uC)         %14.6f\n"
           "average current (uA)                 %14.6f\n",
           r->q.poll_uc, (double)r->p.active_ns * 1e-3, r->q.sleep_uc, r->q.avg_ua);
}

static void csv_row(const struct idle154_opts *o, const struct model_env *env,
                    const struct result *r, const char *phase, const char *state, double us,
                    double ua, double uc)
{
    printf("%.3f,%s,%d,%s,%s,%s,%d,%s,%s,%.3f,%.3f,%.6f\n", o->poll_ms,
           lowpan_sec_name(o->l.sec_level), o->l.key_id_mode, addr_name(o), backoff_name(r),
           pqpan_current_table_name(env->table), env->eopts.tx_dbm, phase, state, us, ua, uc);
}

/* One row per phase, then "poll" (every phase but sleep) and "period" (whose current is the
 * average current). */
static void print_csv(const struct idle154_opts *o, const struct model_env *env,
                      const struct result *r)
{
    int ph;
    printf("poll_ms,mac_security,key_id_mode,addr,backoff,currents,tx_dbm,phase,state,time_us,"
           "current_ua,charge_uc\n");
    for (ph = 0; ph < PQPAN_802154_POLL_PHASES; ph++) {
        csv_row(o, env, r, pqpan_802154_poll_phase_name((enum pqpan_802154_poll_phase)ph),
                state_name(r, ph), (double)r->p.ns[ph] * 1e-3, phase_ua(r, ph), r->q.uc[ph]);
    }
    csv_row(o, env, r, "poll", "", (double)r->p.active_ns * 1e-3,
            r->q.poll_uc / ((double)r->p.active_ns * 1e-9), r->q.poll_uc);
    csv_row(o, env, r, "period", "", o->poll_ms * 1e3, r->q.avg_ua, r->q.poll_uc + r->q.sleep_uc);
}

static void print_json(const struct idle154_opts *o, const struct model_env *env,
                       const struct result *r)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_io_802154_sources *src = &env->in.src802154;
    int ph, lvl = -1;
    size_t i;
    for (i = 0; i < p->ieee802154.tx_level_count; i++) {
        if (p->ieee802154.tx_dbm[i] == env->eopts.tx_dbm) {
            lvl = (int)i;
        }
    }
    printf("{\n  \"link\": \"802154\",\n  \"profile\": ");
    model_print_profile_json(stdout, env, "  ");
    printf(",\n  \"currents\": \"%s\",\n  \"tx_dbm\": %d,\n  \"tx_ua\": %.1f,\n  \"tx_source\": ",
           pqpan_current_table_name(env->table), env->eopts.tx_dbm, r->ua[PQPAN_STATE_TX]);
    model_json_string(stdout, lvl >= 0 ? src->tx[env->table][lvl] : "");
    printf(",\n  \"rx_ua\": %.1f,\n  \"rx_source\": ", r->ua[PQPAN_STATE_RX]);
    model_json_string(stdout, src->rx[env->table]);
    printf(",\n  \"cpu_ua\": %.1f,\n  \"backoff\": \"%s\",\n"
           "  \"backoff_source\": ",
           p->cpu_ua, backoff_name(r));
    model_json_string(stdout, o->l.backoff >= 0 ? "--backoff (command line)" : src->backoff);
    printf(",\n");
    lowpan_print_security_wake_json(stdout, env, &o->l, 1, "  ");
    lowpan_print_derived_json(stdout, env, 1, "  ");
    printf("  \"addr\": \"%s\",\n  \"csma\": \"%s\",\n  \"busy\": %.4f,\n  \"poll_ms\": %.3f,\n"
           "  \"request_psdu_octets\": %zu,\n  \"ack_psdu_octets\": %u,\n"
           "  \"expected_ccas\": %.4f,\n  \"expected_wake_ups\": %.4f,\n  \"phases\": [\n",
           addr_name(o), o->l.contiki ? "contiki" : "ieee", o->l.busy, o->poll_ms,
           r->p.request_psdu, (unsigned)PQPAN_802154_ACK_PSDU, r->p.ccas, r->p.wakes);
    for (ph = 0; ph < PQPAN_802154_POLL_PHASES; ph++) {
        printf("    {\"phase\": \"%s\", \"state\": \"%s\", \"time_us\": %.3f, \"current_ua\": %.3f, "
               "\"charge_uc\": %.6f}%s\n",
               pqpan_802154_poll_phase_name((enum pqpan_802154_poll_phase)ph), state_name(r, ph),
               (double)r->p.ns[ph] * 1e-3, phase_ua(r, ph), r->q.uc[ph],
               ph + 1 < PQPAN_802154_POLL_PHASES ? "," : "");
    }
    printf("  ],\n  \"active_us\": %.3f,\n  \"charge_per_poll_uc\": %.6f,\n"
           "  \"sleep_charge_uc\": %.6f,\n  \"avg_current_ua\": %.6f",
           (double)r->p.active_ns * 1e-3, r->q.poll_uc, r->q.sleep_uc, r->q.avg_ua);
}

static int run(const struct idle154_opts *o, const struct model_env *env)
{
    struct result r;
    struct cli_msg msg;
    struct pqpan_advise_battery bat;
    double v = env->in.profile.supply_v;
    int wanted;
    int rc = lowpan_poll(&r.p, &r.q, r.ua, env, &o->l, o->poll_ms, &msg);
    if (cli_msg_report(CMD, rc, &msg) != EXIT_OK) {
        return rc;
    }
    rc = idle_battery_check(&o->bat, o->m.format, &wanted);
    if (rc == EXIT_OK && wanted) {
        rc = idle_battery_compute(&bat, &o->bat, r.q.avg_ua, v);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->m.format == FORMAT_TABLE) {
        print_table(o, env, &r);
        if (wanted) {
            idle_battery_print_table(&o->bat, &bat, r.q.avg_ua, v, BATTERY_SIDE);
        }
    } else if (o->m.format == FORMAT_CSV) {
        print_csv(o, env, &r);
    } else {
        print_json(o, env, &r);
        if (wanted) {
            idle_battery_print_json(&o->bat, &bat, r.q.avg_ua, v, BATTERY_SIDE);
        }
        printf("\n}\n");
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pqpan %s: cannot write the output\n", CMD);
        return EXIT_IO;
    }
    return EXIT_OK;
}

int cli_idle_802154_run(int argc, char **argv)
{
    struct idle154_opts o;
    struct model_env *env;
    int rc = parse_args(&o, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = run(&o, env);
    }
    free(env);
    return rc;
}
