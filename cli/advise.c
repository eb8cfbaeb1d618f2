/* pqpan advise: recommends the cheapest key-exchange configuration for a battery-powered
 * device under constraints, with its battery life and its distance to the physical floor
 * (advise.h; docs/CLI.md "pqpan advise"; docs/MODEL.md "Advice"). */
#include <stdlib.h>
#include <string.h>

#include "advise.h"
#include "commands.h"
#include "figure.h"

void cli_advise_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan advise [OPTIONS]\n\n"
            "Searches the configurations of one post-quantum key exchange over BLE (or 802.15.4) for\n"
            "the one that costs the battery-powered side the least energy, within the constraints,\n"
            "authenticated as --auth allows (by default both devices: psk, kem-auth-mutual or\n"
            "sig-mutual). The table output opens with the answer in a few lines (the settings, who is\n"
            "authenticated, the energy per rekey, the time to key, the peak current, the battery life\n"
            "and what rekeying takes of it, the level the battery affords, and a `pqpan estimate`\n"
            "line that reproduces it; --brief stops there), then the details: the next best, each\n"
            "with the energy of both sides, the time to key, the saving against the study's\n"
            "configuration at the same level, the battery life it leaves and its distance to the\n"
            "physical floor; then, per ML-KEM level, the battery life its best configuration leaves.\n"
            "The exchange runs on a connection that is already up (set-up is not part of a rekey),\n"
            "priced by the analytic link model (`pqpan estimate`) in the events accounting; when it\n"
            "runs on other link settings than the idle link's, with the cost of switching there and\n"
            "back, and its net saving against the idle settings left unchanged.\n\n");
    advise_opts_help(out);
    fprintf(out,
            "\n"
            "Search space: ML-KEM-512/768/1024 (levels below --min-level are searched for the\n"
            "security-level table only) x the --auth modes (x ML-KEM alone / with P-256, --hybrid;\n"
            "the sig modes with --sig's ML-DSA set) x the peer's PHYs that both profiles price x LL payload\n"
            "27, 59, ..., 251 (steps of 32) up to --peer-max-ll-octets, that maximum and\n"
            "--idle-ll-octets x ATT_MTU 23, 55, ..., 503 (steps of 32) and 517, those <=\n"
            "--peer-max-mtu, and --peer-max-mtu itself x connection interval 7.5, 15, 30, 50,\n"
            "100, 200, 500 ms and --idle-ci-ms x the ways GATT can send the messages (Core v5.4\n"
            "Vol 3 Part G §2.2: the peripheral is the GATT server, which notifies or indicates,\n"
            "the central the client, which writes): --transfer SERVER/CLIENT, SERVER notify or\n"
            "indicate, CLIENT write-req, write-cmd or long-write, with KeyGen on the peripheral or\n"
            "the central, and the study's preset (needs ATT_MTU >= 403) with KeyGen on the\n"
            "peripheral (the MTU is set once per connection). 802.15.4:\n"
            "ML-KEM-512/768/1024 x extended or short addresses x KeyGen on the device or its\n"
            "parent (x the --auth modes). Every configuration is run; the recommendation is the\n"
            "optimum of this space, ties broken by the time to key.\n\n"
            "Time to key (--max-latency-ms limits it): from the decision to rekey to both sides\n"
            "holding the key: the BLE link switch there (when the exchange's settings differ from\n"
            "the idle link's), then the exchange from its first computation to its last message;\n"
            "the output also gives when the link is back on its idle settings.\n\n"
            "Temporary link optimisation: a configuration whose PHY, LL size or interval differs\n"
            "from the idle link's is priced with the switch there and back (link model, Core v5.4\n"
            "Vol 6 Part B): the central runs, only for the settings that change, the connection\n"
            "parameters request (LL_CONNECTION_PARAM_REQ/RSP, LL_CONNECTION_UPDATE_IND, §5.1.7),\n"
            "the PHY update (LL_PHY_REQ/RSP, LL_PHY_UPDATE_IND, §5.1.10), each with its instant 6\n"
            "connection events ahead (§5.5), and the data length update (LL_LENGTH_REQ/RSP,\n"
            "§5.1.9); before the exchange the connection update comes first (at the idle interval),\n"
            "after it the PHY and length updates come first (at the exchange's interval). A\n"
            "switch's cost is every state of each side over the procedures' spans (uJ, events\n"
            "accounting, each procedure at its PHY's currents) and its time (ms) the spans; the\n"
            "peripheral listens at every event meanwhile. Net saving (vs idle, uJ) = the same\n"
            "exchange on the idle settings - (this exchange + the switch), battery side(s);\n"
            "when it is <= 0 switching does not pay and the output says to stay on the idle\n"
            "settings. The switching decision then compares, over the whole search, the cheapest\n"
            "configuration on the idle settings with the cheapest with a switch (both within the\n"
            "constraints) and says whether switching pays, with the figures.\n\n"
            "Objective: the battery side's energy per exchange (both: the sum), link switch\n"
            "included, events accounting of the exchange's own phases (every state: radio,\n"
            "per-event costs, idle events while a side computes, sleep; gamma_comp on the\n"
            "computation): estimate's \"exchange on an open link, events\" (e_exchange_events_uj) +\n"
            "the link switch. Battery life is charge-based (energy / supply voltage = uC): per rekey\n"
            "interval the switch and the exchange, then the idle link, plus --app-ua and the\n"
            "self-discharge as currents, from the capacity x --battery-derate; the output says\n"
            "what it leaves out.\n"
            "Floor: the messages' payload bits alone on the peer PHY with the least energy per bit\n"
            "(TX and RX currents of the profile, the PHY's bit time) plus the computation at the\n"
            "fewest cycles any implementation in data/cycles/ has, no gamma.\n\n");
    fprintf(out,
            "Exit codes: 0 ok, 1 no configuration meets the constraints (the nearest is named; when\n"
            "the time to key is over --max-latency-ms, so is a shorter --idle-ci-ms that meets it)\n"
            "or gnuplot failed, 2 usage (unknown or out-of-range option, empty search space, a figure\n"
            "a profile lacks), 3 bad data file, 4 I/O (--out or the standard output not writable).\n");
}

/* --out: created, and a file written in it, before any work. */
static int check_out_dir(const char *dir)
{
    static const char probe[] = ".pqpan_advise_write_check";
    char path[1024];
    struct cli_outfile o;
    int rc = figure_dir(ADV_CMD, dir);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (figure_open(&o, ADV_CMD, dir, probe) != EXIT_OK) {
        return EXIT_IO;
    }
    rc = figure_close(&o, ADV_CMD);
    snprintf(path, sizeof path, "%s/%s", dir, probe);
    remove(path);
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
 * poll, when it follows the idle interval). A cli.h exit code, message printed. */
static int probe_idle_ci(struct idle_probe *p, const struct advise_opts *o, uint64_t units)
{
    struct advise_opts at = *o;
    struct advise_ctx c;
    struct advise_result *r;
    struct advise_cfg cfg;
    struct advise_eval ev;
    int rc;
    at.idle.ci_ns = units * ADV_CI_UNIT_NS;
    if (at.poll_from_idle) {
        at.poll_ms = (double)at.idle.ci_ns * 1e-6;
    }
    rc = advise_ctx_load(&c, &at);
    if (rc != EXIT_OK) {
        return rc;
    }
    r = malloc(sizeof *r);
    rc = r == NULL ? cli_usage_error(ADV_CMD, "out of memory") : advise_search(r, &c);
    if (rc == EXIT_OK && r->feasible == 0 && !r->nearest_found) {
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        struct cli_msg msg;
        p->feasible = r->feasible > 0;
        p->idle_ua = c.idle_ua[c.dev_role];
        advise_cfg_of(&cfg, &c, p->feasible ? r->rank.pt[0].id : r->nearest.id);
        rc = cli_msg_report(ADV_CMD, advise_eval(&ev, &c, &cfg, &msg), &msg);
        p->latency_ms = ev.latency_ms;
    }
    free(r);
    advise_ctx_free(&c);
    return rc;
}
/* --max-latency-ms is out of reach on the idle BLE link given: finds a shorter idle
 * interval that reaches it and says what it costs on the battery side. The time to key is dominated by the idle
 * interval's events (the switch's instant, or the exchange at that interval), so each try
 * scales the interval by the limit over the last time found, and a whole search checks it. */
static void suggest_idle_ci(const struct advise_ctx *c, double fastest_ms)
{
    const struct advise_opts *o = c->o;
    uint64_t units = o->idle.ci_ns / ADV_CI_UNIT_NS;
    double latency_ms = fastest_ms;
    struct idle_probe p;
    int k;
    for (k = 0; k < ADV_IDLE_PROBES && units > ADV_CI_MIN_UNITS; k++) {
        uint64_t next = (uint64_t)((double)units * o->max_latency_ms / latency_ms);
        units = next >= units ? units - 1u : next < ADV_CI_MIN_UNITS ? ADV_CI_MIN_UNITS : next;
        if (probe_idle_ci(&p, o, units) != EXIT_OK) {
            return;
        }
        if (p.feasible) {
            fprintf(stderr, "pqpan %s: with --idle-ci-ms %.2f it is met (key in %.3f ms); the "
                            "idle link then draws %.3f uA instead of %.3f uA on the battery "
                            "side: add --idle-ci-ms %.2f for that answer\n",
                    ADV_CMD, (double)units * 1.25, p.latency_ms, p.idle_ua, c->idle_ua[c->dev_role],
                    (double)units * 1.25);
            return;
        }
        latency_ms = p.latency_ms;
    }
    fprintf(stderr, "pqpan %s: no shorter idle interval tried (down to --idle-ci-ms %.2f, "
                    "key in %.3f ms) meets --max-latency-ms\n",
            ADV_CMD, (double)units * 1.25, latency_ms);
}

/* No configuration meets the constraints: why, and the nearest one. */
static int report_none(const struct advise_ctx *c, const struct advise_result *r)
{
    struct advise_cfg cfg;
    struct advise_eval ev;
    struct cli_msg msg;
    char d[ADV_DESCRIBE_MAX];
    int occupies;
    if (!r->nearest_found) {
        fprintf(stderr, "pqpan %s: no configuration at NIST category >= %u runs on this link\n",
                ADV_CMD, c->o->min_level);
        return EXIT_FAILURE_RUN;
    }
    advise_cfg_of(&cfg, c, r->nearest.id);
    if (cli_msg_report(ADV_CMD, advise_eval(&ev, c, &cfg, &msg), &msg) != EXIT_OK) {
        return EXIT_FAILURE_RUN;
    }
    fprintf(stderr, "pqpan %s: no configuration meets the constraints: the fastest at NIST "
                    "category >= %u takes %.3f ms",
            ADV_CMD, c->o->min_level, ev.latency_ms);
    if (c->o->max_latency_ms > 0.0 && ev.latency_ms > c->o->max_latency_ms) {
        fprintf(stderr, " (--max-latency-ms %.3f)", c->o->max_latency_ms);
    }
    occupies = ev.t_s[0] >= c->o->rekey_s || ev.t_s[1] >= c->o->rekey_s;
    if (occupies) {
        fprintf(stderr, " and occupies the link longer than --rekey-every %s", c->o->rekey_text);
    }
    advise_describe(d, sizeof d, c, &cfg);
    fprintf(stderr, ": %s, %s\n", advise_kem_name(cfg.level), d);
    if ((c->o->links & ADV_LINK_BLE) && c->o->max_latency_ms > 0.0 &&
        ev.latency_ms > c->o->max_latency_ms && !occupies) {
        suggest_idle_ci(c, ev.latency_ms);
    }
    return EXIT_FAILURE_RUN;
}

static int run(const struct advise_opts *o)
{
    struct advise_ctx c;
    struct advise_result *r;
    int rc = cli_stdout_check(ADV_CMD);
    if (rc == EXIT_OK && o->out_dir != NULL) {
        rc = check_out_dir(o->out_dir);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = advise_ctx_load(&c, o);
    if (rc != EXIT_OK) {
        return rc;
    }
    r = malloc(sizeof *r);
    if (r == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", ADV_CMD);
        advise_ctx_free(&c);
        return EXIT_FAILURE_RUN;
    }
    rc = advise_search(r, &c);
    if (rc == EXIT_OK && r->feasible == 0) {
        rc = report_none(&c, r);
    }
    if (rc == EXIT_OK) {
        rc = o->m.format == FORMAT_JSON ? advise_print_json(&c, r) : advise_print_table(&c, r);
    }
    if (rc == EXIT_OK && o->out_dir != NULL) {
        fflush(stdout);
        rc = advise_write_figures(&c, r);
    }
    free(r);
    advise_ctx_free(&c);
    return rc;
}

int cli_advise_run(int argc, char **argv)
{
    struct advise_opts o;
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_advise_help(stdout);
        return EXIT_OK;
    }
    rc = advise_opts_parse(&o, argc, argv);
    return rc != EXIT_OK ? rc : run(&o);
}
