/* pqpan idle: what an idle link costs between key exchanges — a BLE connection with
 * nothing to send, per side: average current, charge per connection event, and the time,
 * current and charge of every phase of the events accounting; with --link 802154 a sleepy
 * end device's data poll (cli/idle_802154.c prints its rows). The figures come from the run
 * layer (pqpan_run "idle", src/run/run_idle.c, run_idle_802154.c and, with --exchange-uj,
 * idle_battery.c): this file turns argv into a request and prints the rows it gets back,
 * the battery figures after them. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "idle_802154.h"
#include "idle_battery.h"
#include "lowpan_model.h"
#include "opts_registry.h"
#include "pqpan/error.h"
#include "pqpan/run.h"
#include "run_idle.h"

#define CMD "idle"

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
    fputs("\nbattery life with rekeying, on both links (as `pqpan advise`; with --exchange-uj):\n",
          out);
    cli_opt_rows_help(out, &idle_battery_table);
    cli_opt_rows_help_only(out, &advise_device_table, idle_battery_advise_opts);
    fputs("  Output (table and JSON's \"battery\"): the average current of the idle link, of\n"
          "  rekeying, of the other drain (--app-ua, self-discharge) and in total (uA), exchanges\n"
          "  per battery and the battery life with and without rekeying (years of 365.25 days),\n"
          "  with what it leaves out.\n", out);
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

/* argv as a request of pqpan_run "idle": each option of idle's tables on the link lowpan
 * says (the battery options included) with its value, a flag without one. EXIT_OK, or
 * EXIT_USAGE after a message (an unknown option, one without its value). */
static int request_of(struct pqpan_run_opt *req, size_t *n, int lowpan, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = lowpan ? idle_802154_opt_row(argv[i]) : idle_opt_row(argv[i]);
        if (o == NULL) {
            return cli_unknown_option(CMD, lowpan ? "802154" : "ble", argv[i]);
        }
        rc = cli_request_add(req, n, o, CMD, argc, argv, &i);
    }
    return rc;
}

/* What the run gave, kept until it ends (the battery figures may still refuse): the notes
 * as text, the side's figures and the phases, their words copied (the run frees what they
 * point into), the battery figures as text. */
struct printer {
    enum cli_format format;
    char *head;
    size_t head_len;
    FILE *notes;
    char *tail;
    size_t tail_len;
    FILE *battery;
    struct pqpan_run_idle_row row;
    char profile[64], role[16], phy[16], currents[16];
    struct pqpan_run_idle_phase phase[PQPAN_RUN_IDLE_PHASES];
    char phase_name[PQPAN_RUN_IDLE_PHASES][16];
    size_t phases;
    int lowpan;              /* --link 802154: the rows go to poll */
    struct poll_printer poll;
};

static const char *copy_word(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src);
    return dst;
}

static void keep_row(struct printer *p, const struct pqpan_run_idle_row *r)
{
    p->row = *r;
    p->row.profile = copy_word(p->profile, sizeof p->profile, r->profile);
    p->row.role = copy_word(p->role, sizeof p->role, r->role);
    p->row.phy = copy_word(p->phy, sizeof p->phy, r->phy);
    p->row.currents = copy_word(p->currents, sizeof p->currents, r->currents);
}

static int keep_phase(struct printer *p, const struct pqpan_run_idle_phase *c)
{
    if (p->phases == PQPAN_RUN_IDLE_PHASES) {
        return -1;
    }
    p->phase[p->phases] = *c;
    p->phase[p->phases].phase =
        copy_word(p->phase_name[p->phases], sizeof p->phase_name[0], c->phase);
    p->phases++;
    return 0;
}

/* The battery figures after idle's own: table lines, or the JSON member
 * ",\n  \"battery\": {...}". */
static void print_battery(FILE *f, enum cli_format format, const struct pqpan_run_idle_battery *b)
{
    if (format == FORMAT_TABLE) {
        fprintf(f,
                "\nbattery, %s: %.3f mAh; one key exchange of %.3f uJ (%.3f uC at %.2f V, %.3f "
                "ms)\n  every %s (as pqpan advise; no link switch for the exchange)\n",
                b->side, b->battery_mah, b->exchange_uj, b->charge_per_exchange_uc, b->supply_v,
                b->exchange_ms, b->rekey_every);
        fprintf(f, "%-38s %12.4f\n", "average current, idle link (uA)", b->idle_current_ua);
        fprintf(f, "%-38s %12.6f\n", "average current, rekeying (uA)", b->rekey_current_ua);
        fprintf(f, "%-38s %12.6f\n", "average current, other drain (uA)", b->drain_ua);
        fprintf(f, "%-38s %12.4f\n", "average current, total (uA)", b->avg_current_ua);
        fprintf(f, "%-38s %12.4f\n", "rekeying share (%)", b->rekey_share_pct);
        fprintf(f, "%-38s %12.4g\n", "exchanges per battery", b->exchanges_per_battery);
        fprintf(f, "%-38s %12.4f\n", "battery life (years)", b->life_years);
        fprintf(f, "%-38s %12.4f\n", "battery life without rekeying (years)",
                b->life_idle_years);
        fprintf(f, "  (%s)\n", b->caveats);
        return;
    }
    fprintf(f, ",\n  \"battery\": {\"side\": \"%s\", \"battery_mah\": %.3f, \"rekey_every\": ",
            b->side, b->battery_mah);
    model_json_string(f, b->rekey_every);
    fprintf(f, ", \"rekey_every_s\": %.0f, \"exchange_uj\": %.3f, \"exchange_ms\": %.3f,\n"
               "    \"charge_per_exchange_uc\": %.4f, \"exchanges_per_battery\": %.1f, "
               "\"usable_uc\": %.1f,\n    \"idle_current_ua\": %.4f, \"rekey_current_ua\": %.6f, "
               "\"drain_ua\": %.6f, \"avg_current_ua\": %.4f, \"rekey_share_pct\": %.4f,\n"
               "    \"life_years\": %.4f, \"life_idle_years\": %.4f,\n    \"caveats\": ",
            b->rekey_every_s, b->exchange_uj, b->exchange_ms, b->charge_per_exchange_uc,
            b->exchanges_per_battery, b->usable_uc, b->idle_current_ua, b->rekey_current_ua,
            b->drain_ua, b->avg_current_ua, b->rekey_share_pct, b->life_years,
            b->life_idle_years);
    model_json_string(f, b->caveats);
    fprintf(f, ",\n    \"exchange_note\": ");
    model_json_string(f, b->exchange_note);
    fputc('}', f);
}

/* pqpan_run's emit: notes as lines (table) or members (JSON) into p->notes, the side's
 * figures and phases kept. */
static int keep(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
        if (p->format == FORMAT_TABLE) {
            fprintf(p->notes, "%s\n", row->values[0].text);
        }
        break;
    case PQPAN_RUN_RECORD_MEMBERS:
        if (p->format == FORMAT_JSON) {
            fprintf(p->notes, "{\n%s", row->values[0].text);
        }
        break;
    case PQPAN_RUN_RECORD_IDLE:
        if (p->lowpan) {
            return idle_802154_keep(&p->poll, p->notes, row);
        }
        keep_row(p, row->data);
        break;
    case PQPAN_RUN_RECORD_PHASE:
        return p->lowpan ? idle_802154_keep(&p->poll, p->notes, row) : keep_phase(p, row->data);
    case PQPAN_RUN_RECORD_WARNING:
        cli_warn(CMD, "%s", row->values[0].text);
        break;
    case PQPAN_RUN_RECORD_BATTERY:
        print_battery(p->battery, p->format, row->data);
        return ferror(p->battery) ? -1 : 0;
    default:
        return -1; /* other commands' records: not idle's */
    }
    return ferror(p->notes) ? -1 : 0;
}

static void print_table(const struct printer *p)
{
    const struct pqpan_run_idle_row *r = &p->row;
    size_t k;
    printf("\n%-38s %12.3f\n", "period (ms)", r->period_ms);
    printf("%-38s %12u\n", "events per period", r->events_per_period);
    printf("%-38s %12.3f\n", "charge per event (uC)", r->charge_per_event_uc);
    printf("%-38s %12.3f\n", "charge per period, sleep included (uC)", r->charge_per_period_uc);
    printf("%-38s %12.3f\n", "sleep current (uA)", r->sleep_ua);
    printf("%-38s %12.3f\n\n", "average current (uA)", r->avg_current_ua);
    printf("%-12s %14s %14s %14s\n", "phase", "time (us)", "current (uA)", "charge (uC)");
    for (k = 0; k < p->phases; k++) {
        const struct pqpan_run_idle_phase *c = &p->phase[k];
        printf("%-12s %14.3f %14.1f %14.4f\n", c->phase, c->time_us, c->current_ua,
               c->charge_uc);
    }
}

static void print_csv(const struct printer *p)
{
    const struct pqpan_run_idle_row *r = &p->row;
    size_t k;
    printf("profile,role,phy,ci_ms,latency,currents,tx_dbm,period_ms,events_per_period,"
           "avg_current_ua,charge_per_event_uc,charge_per_period_uc,sleep_ua");
    for (k = 0; k < p->phases; k++) {
        printf(",t_%s_us,q_%s_uc", p->phase[k].phase, p->phase[k].phase);
    }
    printf("\n%s,%s,%s,%.2f,%u,%s,%d,%.3f,%u,%.4f,%.4f,%.4f,%.4f", r->profile, r->role, r->phy,
           r->ci_ms, r->latency, r->currents, r->tx_dbm, r->period_ms, r->events_per_period,
           r->avg_current_ua, r->charge_per_event_uc, r->charge_per_period_uc, r->sleep_ua);
    for (k = 0; k < p->phases; k++) {
        printf(",%.3f,%.5f", p->phase[k].time_us, p->phase[k].charge_uc);
    }
    putchar('\n');
}

static void print_json(const struct printer *p)
{
    const struct pqpan_run_idle_row *r = &p->row;
    size_t k;
    printf("  \"role\": \"%s\",\n  \"phy\": \"%s\",\n"
           "  \"ci_ms\": %.2f,\n  \"latency\": %u,\n  \"period_ms\": %.3f,\n"
           "  \"events_per_period\": %u,\n  \"avg_current_ua\": %.4f,\n"
           "  \"charge_per_event_uc\": %.4f,\n  \"charge_per_period_uc\": %.4f,\n"
           "  \"phases\": [\n",
           r->role, r->phy, r->ci_ms, r->latency, r->period_ms, r->events_per_period,
           r->avg_current_ua, r->charge_per_event_uc, r->charge_per_period_uc);
    for (k = 0; k < p->phases; k++) {
        const struct pqpan_run_idle_phase *c = &p->phase[k];
        printf("    {\"phase\": \"%s\", \"time_us\": %.3f, \"current_ua\": %.1f, "
               "\"charge_uc\": %.5f}%s\n",
               c->phase, c->time_us, c->current_ua, c->charge_uc,
               k + 1 < p->phases ? "," : "");
    }
    printf("  ]");
}

/* The link's figures after the notes in --format's form. */
static void print_link(const struct printer *p)
{
    if (p->lowpan) {
        idle_802154_finish(&p->poll, stdout);
    } else if (p->format == FORMAT_TABLE) {
        print_table(p);
    } else if (p->format == FORMAT_CSV) {
        print_csv(p);
    } else {
        print_json(p);
    }
}

/* The output in --format's form, the battery figures after idle's own when asked for. */
static int print_result(const struct printer *p)
{
    fwrite(p->head, 1, p->head_len, stdout);
    print_link(p);
    fwrite(p->tail, 1, p->tail_len, stdout);
    if (p->format == FORMAT_JSON) {
        printf("\n}\n");
    }
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "pqpan %s: cannot write the output\n", CMD);
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* The run's result as the CLI's exit status, its message on stderr. */
static int run_status(int code, const struct pqpan_run_error *err)
{
    return cli_run_status(CMD, code, err);
}

static int run_request(int argc, char **argv, int lowpan)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer *p;
    size_t n;
    int closed;
    int rc = request_of(req, &n, lowpan, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p = calloc(1, sizeof *p);
    if (p == NULL || (p->notes = open_memstream(&p->head, &p->head_len)) == NULL ||
        (p->battery = open_memstream(&p->tail, &p->tail_len)) == NULL) {
        if (p != NULL && p->notes != NULL) {
            fclose(p->notes);
            free(p->head);
        }
        free(p);
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    p->format = cli_request_format(req, n);
    p->lowpan = lowpan;
    p->poll.format = p->format;
    rc = run_status(pqpan_run(CMD, req, n, keep, p, &err), &err);
    closed = fclose(p->notes) == 0;
    closed = fclose(p->battery) == 0 && closed; /* both closed, whatever the first gave */
    if (!closed && rc == EXIT_OK) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        rc = print_result(p);
    }
    free(p->head);
    free(p->tail);
    free(p);
    return rc;
}

int cli_idle_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        cli_idle_help(stdout);
        return EXIT_OK;
    }
    return run_request(argc, argv, lowpan_link_requested(argc, argv));
}
