/* idle's battery figures (idle_battery.h): advise's battery arithmetic
 * (pqpan_advise_battery) on the idle link idle prices and an exchange the caller gives,
 * emitted as one BATTERY row (run.h struct pqpan_run_idle_battery). */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "idle_battery.h"
#include "run_internal.h"

#define IB(m) offsetof(struct idle_battery_opts, m)
#define EXCHANGE_UJ_MAX 1e9
#define EXCHANGE_MS_MAX 1e9

static const struct cli_opt battery_rows[] = {
    {.name = "--exchange-uj", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "uJ", .min = 0,
     .max = EXCHANGE_UJ_MAX, .open = 1, .store = CLI_STORE_DOUBLE, .offset = IB(exchange_uj),
     .help = "the battery side's energy of one key exchange (e.g. `pqpan estimate`'s \"exchange "
             "on an open link, events\", e_exchange_events_uj, of that side): adds the average "
             "current of rekeying every --rekey-every and the battery life from --battery-mah, "
             "as `pqpan advise` computes them (no link switch for the exchange: advise prices "
             "that)"},
    {.name = "--exchange-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0,
     .max = EXCHANGE_MS_MAX, .store = CLI_STORE_DOUBLE, .offset = IB(exchange_ms),
     .help = "the time the exchange occupies (the idle link's current is not drawn meanwhile; "
             "default 0)"},
};

/* The table's own rows only: advise's rows are stored into .adv by idle_battery_take. */
static void battery_table_init(void *p)
{
    struct idle_battery_opts *b = p;
    b->exchange_uj = 0.0;
    b->exchange_ms = 0.0;
}

const struct cli_opt_table idle_battery_table =
    CLI_OPT_TABLE("idle-battery", NULL, battery_rows, struct idle_battery_opts,
                  battery_table_init);

const char *const idle_battery_advise_opts[] = {"--battery-mah", "--rekey-every", "--app-ua",
                                                "--self-discharge-pct-year",
                                                "--battery-derate", NULL};

void idle_battery_init(struct idle_battery_opts *b)
{
    memset(b, 0, sizeof *b);
    advise_device_table.init(&b->adv);
    battery_table_init(b);
}

/* The row of name among advise's rows idle takes, or NULL. */
static const struct cli_opt *advise_row(const char *name)
{
    return cli_opt_listed(idle_battery_advise_opts, name) ? cli_opt_find(&advise_device_table, name)
                                                          : NULL;
}

const struct cli_opt *idle_battery_row(const char *name)
{
    const struct cli_opt *o = cli_opt_find(&idle_battery_table, name);
    return o != NULL ? o : advise_row(name);
}

int idle_battery_take(struct run_ctx *r, struct idle_battery_opts *b,
                      const struct pqpan_run_opt *opt)
{
    const struct cli_opt *o = cli_opt_find(&idle_battery_table, opt->name);
    if (o != NULL) {
        return run_set(r, o, b, opt);
    }
    o = advise_row(opt->name);
    if (o == NULL) {
        return IDLE_BATTERY_NOT_MINE;
    }
    if (b->given == NULL) {
        b->given = o->name;
    }
    return run_set(r, o, &b->adv, opt);
}

int idle_battery_check(struct run_ctx *r, const struct idle_battery_opts *b,
                       enum cli_format format)
{
    struct cli_msg msg;
    if (b->exchange_uj <= 0.0 && b->given != NULL) {
        (void)cli_msg_set(&msg, EXIT_USAGE,
                          "%s needs --exchange-uj: the energy of one key exchange on the "
                          "battery side (e.g. estimate's e_exchange_events_uj)",
                          b->given);
        return run_fail(r, EXIT_USAGE, b->given, msg.text);
    }
    if (b->exchange_uj > 0.0 && format == FORMAT_CSV) {
        return run_fail(r, EXIT_USAGE, "--exchange-uj",
                        "--exchange-uj: the battery figures are printed as a table or JSON "
                        "(--format table|json), not as CSV");
    }
    return PQPAN_OK;
}

/* The figures of a BATTERY row and the text its caveats point into. */
struct battery_out {
    struct pqpan_run_idle_battery row;
    char caveats[256];
};

static int compute(struct run_ctx *r, struct battery_out *out, const struct idle_battery_opts *b,
                   double idle_ua, double supply_v)
{
    struct pqpan_advise_battery_in in;
    struct pqpan_advise_battery res;
    struct pqpan_run_idle_battery *row = &out->row;
    struct cli_msg msg;
    in.capacity_mah = b->adv.battery_mah;
    in.idle_ua = idle_ua;
    in.exchange_uc = b->exchange_uj / supply_v;
    in.exchange_s = b->exchange_ms * 1e-3;
    in.rekey_s = b->adv.rekey_s;
    in.app_ua = b->adv.app_ua;
    in.self_discharge = b->adv.self_discharge_pct / 100.0;
    in.derate = b->adv.derate;
    if (pqpan_advise_battery(&res, &in) != PQPAN_OK) {
        (void)cli_msg_set(&msg, EXIT_USAGE,
                          "--exchange-ms %.3f: the exchange must take less than the rekey "
                          "interval (--rekey-every %s)",
                          b->exchange_ms, b->adv.rekey_text);
        return run_fail(r, EXIT_USAGE, "--exchange-ms", msg.text);
    }
    advise_battery_caveats(out->caveats, sizeof out->caveats, &b->adv, 0);
    row->battery_mah = b->adv.battery_mah;
    row->rekey_every = b->adv.rekey_text;
    row->rekey_every_s = b->adv.rekey_s;
    row->exchange_uj = b->exchange_uj;
    row->exchange_ms = b->exchange_ms;
    row->charge_per_exchange_uc = in.exchange_uc;
    row->exchanges_per_battery = res.exchanges;
    row->usable_uc = res.usable_uc;
    row->idle_current_ua = idle_ua;
    row->rekey_current_ua = res.rekey_ua;
    row->drain_ua = res.drain_ua;
    row->avg_current_ua = res.avg_ua;
    row->rekey_share_pct = 100.0 * res.rekey_share;
    row->life_years = res.life_s / ADV_SECONDS_PER_YEAR;
    row->life_idle_years = res.life_idle_s / ADV_SECONDS_PER_YEAR;
    row->caveats = out->caveats;
    row->exchange_note = "the exchange's energy as given (--exchange-uj); a link switch for it "
                         "and back is not included (pqpan advise prices it)";
    row->supply_v = supply_v;
    return PQPAN_OK;
}

#define BAT(m) offsetof(struct pqpan_run_idle_battery, m)
#define RUN_S(s) PQPAN_RUN_STORE_##s
#define RUN_JSON PQPAN_RUN_GROUP_JSON

/* The JSON output's "battery" object, in its order (GROUP_JSON), then the supply. */
static const struct pqpan_run_field battery_fields[] = {
    {"side", "battery side", NULL, RUN_JSON, RUN_S(TEXT), BAT(side), 0},
    {"battery_mah", "battery (mAh)", "mAh", RUN_JSON, RUN_S(REAL), BAT(battery_mah), 3},
    {"rekey_every", "rekey every", NULL, RUN_JSON, RUN_S(TEXT), BAT(rekey_every), 0},
    {"rekey_every_s", "rekey interval (s)", "s", RUN_JSON, RUN_S(REAL), BAT(rekey_every_s), 0},
    {"exchange_uj", "one key exchange (uJ)", "uJ", RUN_JSON, RUN_S(REAL), BAT(exchange_uj), 3},
    {"exchange_ms", "one key exchange (ms)", "ms", RUN_JSON, RUN_S(REAL), BAT(exchange_ms), 3},
    {"charge_per_exchange_uc", "charge per exchange (uC)", "uC", RUN_JSON, RUN_S(REAL),
     BAT(charge_per_exchange_uc), 4},
    {"exchanges_per_battery", "exchanges per battery", NULL, RUN_JSON, RUN_S(REAL),
     BAT(exchanges_per_battery), 1},
    {"usable_uc", "usable charge (uC)", "uC", RUN_JSON, RUN_S(REAL), BAT(usable_uc), 1},
    {"idle_current_ua", "average current, idle link (uA)", "uA", RUN_JSON, RUN_S(REAL),
     BAT(idle_current_ua), 4},
    {"rekey_current_ua", "average current, rekeying (uA)", "uA", RUN_JSON, RUN_S(REAL),
     BAT(rekey_current_ua), 6},
    {"drain_ua", "average current, other drain (uA)", "uA", RUN_JSON, RUN_S(REAL),
     BAT(drain_ua), 6},
    {"avg_current_ua", "average current, total (uA)", "uA", RUN_JSON, RUN_S(REAL),
     BAT(avg_current_ua), 4},
    {"rekey_share_pct", "rekeying share (%)", "%", RUN_JSON, RUN_S(REAL), BAT(rekey_share_pct),
     4},
    {"life_years", "battery life (years)", "years", RUN_JSON, RUN_S(REAL), BAT(life_years), 4},
    {"life_idle_years", "battery life without rekeying (years)", "years", RUN_JSON, RUN_S(REAL),
     BAT(life_idle_years), 4},
    {"caveats", "caveats", NULL, RUN_JSON, RUN_S(TEXT), BAT(caveats), 0},
    {"exchange_note", "exchange", NULL, RUN_JSON, RUN_S(TEXT), BAT(exchange_note), 0},
    {"supply_v", "supply (V)", "V", 0, RUN_S(REAL), BAT(supply_v), 2},
};
#define N_BATTERY_FIELDS (sizeof battery_fields / sizeof battery_fields[0])

int idle_battery_emit(struct run_ctx *r, enum pqpan_run_link link,
                      const struct idle_battery_opts *b, double idle_ua, double supply_v,
                      const char *side)
{
    struct battery_out out;
    int rc;
    memset(&out, 0, sizeof out);
    rc = compute(r, &out, b, idle_ua, supply_v);
    out.row.side = side;
    return rc != PQPAN_OK ? rc
                          : run_record(r, PQPAN_RUN_RECORD_BATTERY, link, battery_fields,
                                       N_BATTERY_FIELDS, &out.row);
}
