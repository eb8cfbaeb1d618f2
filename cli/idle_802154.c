/* pqpan idle --link 802154: a sleepy end device's periodic data poll to its parent. The
 * figures come from the run layer (pqpan_run "idle" with --link 802154,
 * src/run/run_idle_802154.c); this file prints its help section and its rows: the phases of
 * the period as a table, CSV or JSON, the period's figures after them. cli/idle.c (the
 * command) turns argv into the request and prints the notes and the battery figures. */
#include <stdio.h>

#include "commands.h"
#include "idle_802154.h"
#include "run_idle.h"

void cli_idle_802154_help(FILE *out)
{
    size_t k, n;
    const struct cli_opt_table *const *t = idle_802154_tables(&n);
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
    for (k = 0; k < n; k++) {
        cli_opt_rows_help(out, t[k]);
    }
}

/* One CSV row of the period: the link's columns, then the phase's. */
static void csv_row(FILE *out, const struct pqpan_run_poll_row *w, const char *phase,
                    const char *state, double us, double ua, double uc)
{
    fprintf(out, "%.3f,%s,%d,%s,%s,%s,%d,%s,%s,%.3f,%.3f,%.6f\n", w->poll_ms, w->mac_security,
            w->key_id_mode, w->addr, w->backoff, w->currents, w->tx_dbm, phase, state, us, ua,
            uc);
}

static void keep_row(struct poll_printer *pp, FILE *out, const struct pqpan_run_poll_row *w)
{
    pp->row = *w;
    if (pp->format == FORMAT_TABLE) {
        fprintf(out, "\n%-12s %-11s %14s %14s %14s\n", "phase", "state", "time (us)",
                "current (uA)", "charge (uC)");
    } else if (pp->format == FORMAT_CSV) {
        fprintf(out, "poll_ms,mac_security,key_id_mode,addr,backoff,currents,tx_dbm,phase,state,"
                     "time_us,current_ua,charge_uc\n");
    } else {
        fprintf(out, "  \"phases\": [\n");
    }
}

static void keep_phase(struct poll_printer *pp, FILE *out, const struct pqpan_run_poll_phase *c)
{
    if (pp->format == FORMAT_TABLE) {
        fprintf(out, "%-12s %-11s %14.3f %14.3f %14.6f\n", c->phase, c->state, c->time_us,
                c->current_ua, c->charge_uc);
    } else if (pp->format == FORMAT_CSV) {
        csv_row(out, &pp->row, c->phase, c->state, c->time_us, c->current_ua, c->charge_uc);
    } else {
        fprintf(out, "%s    {\"phase\": \"%s\", \"state\": \"%s\", \"time_us\": %.3f, "
                     "\"current_ua\": %.3f, \"charge_uc\": %.6f}",
                pp->phases > 0 ? ",\n" : "", c->phase, c->state, c->time_us, c->current_ua,
                c->charge_uc);
    }
    pp->phases++;
}

int idle_802154_keep(struct poll_printer *pp, FILE *out, const struct pqpan_run_row *row)
{
    if (row->record == PQPAN_RUN_RECORD_IDLE) {
        keep_row(pp, out, row->data);
        return 0;
    }
    if (row->record == PQPAN_RUN_RECORD_PHASE) {
        keep_phase(pp, out, row->data);
        return 0;
    }
    return -1;
}

void idle_802154_finish(const struct poll_printer *pp, FILE *out)
{
    const struct pqpan_run_poll_row *w = &pp->row;
    if (pp->format == FORMAT_TABLE) {
        fprintf(out,
                "\ncharge per poll, all but sleep (uC)  %14.6f\n"
                "active time per poll (us)            %14.3f\n"
                "sleep charge per period (uC)         %14.6f\n"
                "average current (uA)                 %14.6f\n",
                w->charge_per_poll_uc, w->active_us, w->sleep_charge_uc, w->avg_current_ua);
    } else if (pp->format == FORMAT_CSV) {
        /* "poll": every phase but sleep; "period": its current is the average current */
        csv_row(out, w, "poll", "", w->active_us, w->poll_current_ua, w->charge_per_poll_uc);
        csv_row(out, w, "period", "", w->period_us, w->avg_current_ua, w->charge_per_period_uc);
    } else {
        fprintf(out,
                "\n  ],\n  \"active_us\": %.3f,\n  \"charge_per_poll_uc\": %.6f,\n"
                "  \"sleep_charge_uc\": %.6f,\n  \"avg_current_ua\": %.6f",
                w->active_us, w->charge_per_poll_uc, w->sleep_charge_uc, w->avg_current_ua);
    }
}
