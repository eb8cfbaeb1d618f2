/* The run of `pqpan advise` (pqpan_run "advise", run.h): the request checked against
 * advise's option tables (run_advise_opts.c), the whole search (run_advise_search.c), and
 * its answer as rows: the table output's text as NOTE rows (one a line), the JSON output's
 * members as one MEMBERS row, one CHOICE row per recommendation (typed, with units). When
 * no configuration meets the constraints the run fails (PQPAN_ERR_UNSUPPORTED) naming the
 * nearest one, after a WARNING row with a shorter idle interval that would meet
 * --max-latency-ms when there is one. */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_advise.h"
#include "run_internal.h"

int advise_request_parse(struct run_ctx *r, struct advise_opts *o,
                         const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct cli_msg msg;
    const char *option = NULL;
    size_t i;
    int rc = PQPAN_OK;
    advise_opts_defaults(o);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        const struct cli_opt *row;
        void *into = NULL;
        if (opts[i].name == NULL) {
            return run_fail(r, EXIT_USAGE, NULL, "an option without a name");
        }
        if (advise_refused(opts[i].name, &msg) != EXIT_OK) {
            return run_fail(r, EXIT_USAGE, opts[i].name, msg.text);
        }
        row = advise_opt_row(opts[i].name, o, &into);
        if (row != NULL) {
            rc = run_set(r, row, into, &opts[i]);
        } else {
            const struct cli_opt_table *tables[16];
            size_t k;
            for (k = 0; k < advise_n_tables; k++) {
                tables[k] = advise_tables[k].t;
            }
            rc = run_unknown(r, opts[i].name, tables, advise_n_tables);
        }
    }
    if (rc == PQPAN_OK && advise_opts_check(o, &msg, &option) != EXIT_OK) {
        rc = run_fail(r, EXIT_USAGE, option, msg.text);
    }
    return rc;
}

/* connInterval is a multiple of 1.25 ms, at least 7.5 ms (Core v5.4 Vol 6 Part B §4.5.1). */
#define ADV_CI_UNIT_NS 1250000u
#define ADV_CI_MIN_UNITS 6u
/* Searches run to find an idle interval that meets --max-latency-ms (each is a whole advise
 * search, about 0.7 s on a desktop). */
#define ADV_IDLE_PROBES 5

/* What one search at another idle interval found. */
struct idle_probe {
    int feasible;
    double latency_ms; /* feasible: the recommendation's time to key; else the fastest's */
    double idle_ua;    /* the battery side's idle-link current at that interval */
};

/* Runs the whole search with the idle link's interval at units x 1.25 ms (and the 802.15.4
 * poll, when it follows the idle interval). An exit code. */
static int probe_idle_ci(struct idle_probe *p, const struct advise_opts *o, uint64_t units)
{
    struct advise_opts at = *o;
    struct advise_ctx c;
    struct advise_result *r;
    struct advise_cfg cfg;
    struct advise_eval ev;
    struct cli_msg msg;
    int rc;
    at.idle.ci_ns = units * ADV_CI_UNIT_NS;
    if (at.poll_from_idle) {
        at.poll_ms = (double)at.idle.ci_ns * 1e-6;
    }
    rc = advise_ctx_load(&c, &at, &msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    r = malloc(sizeof *r);
    rc = r == NULL ? EXIT_FAILURE_RUN : advise_search(r, &c);
    if (rc == EXIT_OK && r->feasible == 0 && !r->nearest_found) {
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        p->feasible = r->feasible > 0;
        p->idle_ua = c.idle_ua[c.dev_role];
        advise_cfg_of(&cfg, &c, p->feasible ? r->rank.pt[0].id : r->nearest.id);
        rc = advise_eval(&ev, &c, &cfg, &msg);
        p->latency_ms = ev.latency_ms;
    }
    free(r);
    advise_ctx_free(&c);
    return rc;
}

/* --max-latency-ms is out of reach on the idle BLE link given: a shorter idle interval that
 * reaches it and what it costs on the battery side, as a WARNING row. The time to key is
 * dominated by the idle interval's events (the switch's instant, or the exchange at that
 * interval), so each try scales the interval by the limit over the last time found, and a
 * whole search checks it. */
static int suggest_idle_ci(struct run_ctx *run, const struct advise_ctx *c, double fastest_ms)
{
    const struct advise_opts *o = c->o;
    uint64_t units = o->idle.ci_ns / ADV_CI_UNIT_NS;
    double latency_ms = fastest_ms;
    struct idle_probe p;
    char text[PQPAN_RUN_MESSAGE_MAX];
    int k;
    for (k = 0; k < ADV_IDLE_PROBES && units > ADV_CI_MIN_UNITS; k++) {
        uint64_t next = (uint64_t)((double)units * o->max_latency_ms / latency_ms);
        units = next >= units ? units - 1u : next < ADV_CI_MIN_UNITS ? ADV_CI_MIN_UNITS : next;
        if (probe_idle_ci(&p, o, units) != EXIT_OK) {
            return PQPAN_OK;
        }
        if (p.feasible) {
            snprintf(text, sizeof text,
                     "with --idle-ci-ms %.2f it is met (key in %.3f ms); the idle link then "
                     "draws %.3f uA instead of %.3f uA on the battery side: add --idle-ci-ms "
                     "%.2f for that answer",
                     (double)units * 1.25, p.latency_ms, p.idle_ua, c->idle_ua[c->dev_role],
                     (double)units * 1.25);
            return run_warning(run, text);
        }
        latency_ms = p.latency_ms;
    }
    snprintf(text, sizeof text,
             "no shorter idle interval tried (down to --idle-ci-ms %.2f, key in %.3f ms) meets "
             "--max-latency-ms",
             (double)units * 1.25, latency_ms);
    return run_warning(run, text);
}

/* No configuration meets the constraints: why, and the nearest one (the failure). */
static int report_none(struct run_ctx *run, const struct advise_ctx *c,
                       const struct advise_result *r)
{
    const struct advise_opts *o = c->o;
    struct advise_cfg cfg;
    struct advise_eval ev;
    char d[ADV_DESCRIBE_MAX], text[PQPAN_RUN_MESSAGE_MAX];
    size_t len;
    int occupies, slow, rc;
    if (!r->nearest_found) {
        snprintf(text, sizeof text, "no configuration at NIST category >= %u runs on this link",
                 o->min_level);
        return run_fail(run, EXIT_FAILURE_RUN, "--min-level", text);
    }
    advise_cfg_of(&cfg, c, r->nearest.id);
    rc = advise_eval(&ev, c, &cfg, c->msg);
    if (rc != EXIT_OK) {
        return run_fail(run, rc, NULL, c->msg->text);
    }
    slow = o->max_latency_ms > 0.0 && ev.latency_ms > o->max_latency_ms;
    occupies = ev.t_s[0] >= o->rekey_s || ev.t_s[1] >= o->rekey_s;
    len = (size_t)snprintf(text, sizeof text,
                           "no configuration meets the constraints: the fastest at NIST category "
                           ">= %u takes %.3f ms",
                           o->min_level, ev.latency_ms);
    if (slow && len < sizeof text) {
        len += (size_t)snprintf(text + len, sizeof text - len, " (--max-latency-ms %.3f)",
                                o->max_latency_ms);
    }
    if (occupies && len < sizeof text) {
        len += (size_t)snprintf(text + len, sizeof text - len,
                                " and occupies the link longer than --rekey-every %s",
                                o->rekey_text);
    }
    advise_describe(d, sizeof d, c, &cfg);
    if (len < sizeof text) {
        snprintf(text + len, sizeof text - len, ": %s, %s", advise_kem_name(cfg.level), d);
    }
    rc = (o->links & ADV_LINK_BLE) && slow && !occupies ? suggest_idle_ci(run, c, ev.latency_ms)
                                                        : PQPAN_OK;
    return rc != PQPAN_OK ? rc
                          : run_fail(run, EXIT_FAILURE_RUN,
                                     slow ? "--max-latency-ms" : "--rekey-every", text);
}

/* The notes' renderers: advise_print_table / advise_print_json into f, their exit code in
 * *rc. */
struct advise_notes {
    struct advise_ctx *c;
    const struct advise_result *r;
    int *rc;
};

static void table_notes(FILE *f, const void *arg)
{
    const struct advise_notes *a = arg;
    a->c->out = f;
    *a->rc = advise_print_table(a->c, a->r);
}

static void json_notes(FILE *f, const void *arg)
{
    const struct advise_notes *a = arg;
    a->c->out = f;
    *a->rc = advise_print_json(a->c, a->r);
}

/* One row of a CHOICE record. */
static int emit_choice(void *arg, const struct pqpan_run_advise_choice *w)
{
    struct pqpan_run_row row;
    memset(&row, 0, sizeof row);
    row.record = PQPAN_RUN_RECORD_CHOICE;
    row.link = strcmp(w->link, "ble") == 0 ? PQPAN_RUN_LINK_BLE : PQPAN_RUN_LINK_802154;
    row.fields = pqpan_run_advise_choice_fields(&row.n_fields);
    return run_emit_row(arg, &row, w) == PQPAN_OK ? EXIT_OK : EXIT_IO;
}

/* A renderer's failure, or the caller's stop. */
static int notes_status(struct run_ctx *r, int rendered, int printed, const struct advise_ctx *c)
{
    if (rendered != PQPAN_OK) {
        return rendered;
    }
    return printed == EXIT_OK ? PQPAN_OK : run_fail(r, printed, NULL, c->msg->text);
}

/* The rows of a search that found configurations. */
static int emit_answer(struct run_ctx *r, struct advise_ctx *c, const struct advise_result *res)
{
    int printed = EXIT_OK;
    struct advise_notes notes;
    int rc;
    notes.c = c;
    notes.r = res;
    notes.rc = &printed;
    rc = notes_status(r, run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes), printed, c);
    if (rc == PQPAN_OK) {
        rc = notes_status(r, run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes),
                          printed, c);
    }
    if (rc == PQPAN_OK) {
        printed = advise_choices(c, res, emit_choice, r);
        rc = printed == EXIT_IO ? run_fail(r, EXIT_IO, NULL, "the caller stopped the run")
             : printed != EXIT_OK ? run_fail(r, printed, NULL, c->msg->text)
                                  : PQPAN_OK;
    }
    return rc;
}

static int search(struct run_ctx *r, const struct advise_opts *o)
{
    struct advise_ctx c;
    struct advise_result *res;
    struct cli_msg msg;
    int rc = advise_ctx_load(&c, o, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    res = malloc(sizeof *res);
    rc = res == NULL ? run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory") : advise_search(res, &c);
    if (res != NULL && rc != EXIT_OK) {
        rc = run_fail(r, rc, NULL, msg.text);
    } else if (rc == EXIT_OK && res->feasible == 0) {
        rc = report_none(r, &c, res);
    } else if (rc == EXIT_OK) {
        rc = emit_answer(r, &c, res);
    }
    if (rc == PQPAN_OK && o->out_dir != NULL) {
        int written = advise_write_figures(&c, res);
        rc = written == EXIT_OK ? PQPAN_OK
                                : run_fail(r, written, "--out", "the figures were not written");
    }
    free(res);
    advise_ctx_free(&c);
    return rc;
}

int run_advise(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct advise_opts *o = malloc(sizeof *o);
    struct cli_msg msg;
    int rc = o == NULL ? run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory")
                       : advise_request_parse(r, o, opts, n_opts);
    if (rc == PQPAN_OK && o->out_dir != NULL) { /* before any work: a bad --out fails at once */
        int out = advise_out_check(o->out_dir, &msg);
        rc = out == EXIT_OK ? PQPAN_OK : run_fail(r, out, "--out", msg.text);
    }
    if (rc == PQPAN_OK) {
        rc = search(r, o);
    }
    free(o);
    return rc;
}
