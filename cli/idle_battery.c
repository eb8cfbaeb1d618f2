/* pqpan idle's battery figures (idle_battery.h): advise's battery arithmetic
 * (pqpan_advise_battery) on the idle link idle prices and an exchange the caller gives. */
#include <stddef.h>
#include <string.h>

#include "idle_battery.h"
#include "ble_model.h"

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

int idle_battery_take(struct idle_battery_opts *b, const char *cmd, int argc, char **argv,
                      int *i)
{
    const char *name = argv[*i];
    int rc = cli_opt_take(&idle_battery_table, b, cmd, argc, argv, i);
    if (rc == 0) {
        rc = cli_opt_take_only(&advise_device_table, idle_battery_advise_opts, &b->adv, cmd,
                               argc, argv, i);
        if (rc == 1 && b->given == NULL) {
            b->given = name;
        }
    }
    return rc;
}

void idle_battery_help(FILE *out)
{
    fputs("\nbattery life with rekeying, on both links (as `pqpan advise`; with --exchange-uj):\n", out);
    cli_opt_rows_help(out, &idle_battery_table);
    cli_opt_rows_help_only(out, &advise_device_table, idle_battery_advise_opts);
    fputs("  Output (table and JSON's \"battery\"): the average current of the idle link, of\n"
          "  rekeying, of the other drain (--app-ua, self-discharge) and in total (uA), exchanges\n"
          "  per battery and the battery life with and without rekeying (years of 365.25 days),\n"
          "  with what it leaves out.\n", out);
}

int idle_battery_check(const struct idle_battery_opts *b, enum cli_format format, int *wanted)
{
    *wanted = b->exchange_uj > 0.0;
    if (!*wanted && b->given != NULL) {
        return cli_usage_error("idle", "%s needs --exchange-uj: the energy of one key exchange "
                                       "on the battery side (e.g. estimate's e_exchange_events_uj)",
                               b->given);
    }
    if (*wanted && format == FORMAT_CSV) {
        return cli_usage_error("idle", "--exchange-uj: the battery figures are printed as a table "
                                       "or JSON (--format table|json), not as CSV");
    }
    return EXIT_OK;
}

int idle_battery_compute(struct pqpan_advise_battery *out, const struct idle_battery_opts *b,
                         double idle_ua, double supply_v)
{
    struct pqpan_advise_battery_in in;
    in.capacity_mah = b->adv.battery_mah;
    in.idle_ua = idle_ua;
    in.exchange_uc = b->exchange_uj / supply_v;
    in.exchange_s = b->exchange_ms * 1e-3;
    in.rekey_s = b->adv.rekey_s;
    in.app_ua = b->adv.app_ua;
    in.self_discharge = b->adv.self_discharge_pct / 100.0;
    in.derate = b->adv.derate;
    if (pqpan_advise_battery(out, &in) != PQPAN_OK) {
        return cli_usage_error("idle", "--exchange-ms %.3f: the exchange must take less than "
                                       "the rekey interval (--rekey-every %s)",
                               b->exchange_ms, b->adv.rekey_text);
    }
    return EXIT_OK;
}

void idle_battery_print_table(const struct idle_battery_opts *b,
                              const struct pqpan_advise_battery *r, double idle_ua,
                              double supply_v, const char *side)
{
    char caveats[256];
    advise_battery_caveats(caveats, sizeof caveats, &b->adv, 0);
    printf("\nbattery, %s: %.3f mAh; one key exchange of %.3f uJ (%.3f uC at %.2f V, %.3f ms)\n"
           "  every %s (as pqpan advise; no link switch for the exchange)\n",
           side, b->adv.battery_mah, b->exchange_uj, b->exchange_uj / supply_v, supply_v,
           b->exchange_ms, b->adv.rekey_text);
    printf("%-38s %12.4f\n", "average current, idle link (uA)", idle_ua);
    printf("%-38s %12.6f\n", "average current, rekeying (uA)", r->rekey_ua);
    printf("%-38s %12.6f\n", "average current, other drain (uA)", r->drain_ua);
    printf("%-38s %12.4f\n", "average current, total (uA)", r->avg_ua);
    printf("%-38s %12.4f\n", "rekeying share (%)", 100.0 * r->rekey_share);
    printf("%-38s %12.4g\n", "exchanges per battery", r->exchanges);
    printf("%-38s %12.4f\n", "battery life (years)", r->life_s / ADV_SECONDS_PER_YEAR);
    printf("%-38s %12.4f\n", "battery life without rekeying (years)",
           r->life_idle_s / ADV_SECONDS_PER_YEAR);
    printf("  (%s)\n", caveats);
}

void idle_battery_print_json(const struct idle_battery_opts *b,
                             const struct pqpan_advise_battery *r, double idle_ua,
                             double supply_v, const char *side)
{
    char caveats[256];
    advise_battery_caveats(caveats, sizeof caveats, &b->adv, 0);
    printf(",\n  \"battery\": {\"side\": \"%s\", \"battery_mah\": %.3f, \"rekey_every\": ", side,
           b->adv.battery_mah);
    model_json_string(stdout, b->adv.rekey_text);
    printf(", \"rekey_every_s\": %.0f, \"exchange_uj\": %.3f, \"exchange_ms\": %.3f,\n"
           "    \"charge_per_exchange_uc\": %.4f, \"exchanges_per_battery\": %.1f, "
           "\"usable_uc\": %.1f,\n    \"idle_current_ua\": %.4f, \"rekey_current_ua\": %.6f, "
           "\"drain_ua\": %.6f, \"avg_current_ua\": %.4f, \"rekey_share_pct\": %.4f,\n"
           "    \"life_years\": %.4f, \"life_idle_years\": %.4f,\n    \"caveats\": ",
           b->adv.rekey_s, b->exchange_uj, b->exchange_ms, b->exchange_uj / supply_v,
           r->exchanges, r->usable_uc, idle_ua, r->rekey_ua, r->drain_ua, r->avg_ua,
           100.0 * r->rekey_share, r->life_s / ADV_SECONDS_PER_YEAR,
           r->life_idle_s / ADV_SECONDS_PER_YEAR);
    model_json_string(stdout, caveats);
    printf(",\n    \"exchange_note\": \"the exchange's energy as given (--exchange-uj); a link "
           "switch for it and back is not included (pqpan advise prices it)\"}");
}
