/* pqpan advise: recommends the cheapest key-exchange configuration for a battery-powered
 * device under constraints, with its battery life and its distance to the physical floor
 * (docs/CLI.md "pqpan advise"; docs/MODEL.md "Advice"). The search and the answer are the
 * run layer's (pqpan_run "advise", src/run/run_advise*.c): this file turns argv into a
 * request and prints the rows it gets back (the table's lines, or the JSON's members); the
 * run writes --out's figures (src/run/advise_figures.c). */
#define _POSIX_C_SOURCE 200809L
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "mesh_cli.h"
#include "notes.h"
#include "opts_registry.h"
#include "outfile.h"
#include "pqpan/error.h"
#include "pqpan/run.h"
#include "run_advise.h"

/* The option lines of `pqpan help advise`, from the tables, by help section. */
static void advise_opts_help(FILE *out)
{
    size_t k;
    for (k = 0; k < advise_n_tables; k++) {
        if (advise_tables[k].section != NULL) {
            fprintf(out, "%s%s:\n", k > 0 ? "\n" : "", advise_tables[k].section);
        }
        cli_opt_rows_help_only(out, advise_tables[k].t, advise_tables[k].only);
    }
}

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
            "optimum of this space, ties broken by the time to key.\n");
    fprintf(out,
            "802.15.4 with --hops H > 1: the exchange crosses a chain of H hops to the device's\n"
            "peer, priced as `pqpan estimate --link 802154 --hops H` (--forwarding, docs/MODEL.md\n"
            "\"Multi-hop 6LoWPAN\"): the device is the chain's initiator (node 0) when it runs\n"
            "KeyGen, else its responder (node H), both searched; its energy and the time to key\n"
            "are the chain's. The H - 1 forwarders are always-on routers: the output gives each\n"
            "one's energy per exchange (uJ, the peer's profile), their battery life is not\n"
            "searched. The chain's nodes listen between frames: it needs --sed-idle listen and\n"
            "--backoff listen (between exchanges the device still polls its parent).\n\n");
    fprintf(out,
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
            "--link ble-mesh: BLE Mesh provisioning instead (`pqpan estimate --link ble-mesh`): the\n"
            "configuration that costs the device (the unprovisioned node, on its battery) the\n"
            "least energy over the whole provisioning (events accounting, every state; PB-ADV\n"
            "scans continuously), zero loss. Search space: ML-KEM-512/768/1024 from --min-level\n"
            "(--hybrid p256: the hybrid variant) x --prov-alg cmac, hmac x PB-ADV (advInterval\n"
            "20, 50, 100, 200 ms x 1..8 transmissions of each PDU, each ack, the Link Close) and\n"
            "PB-GATT (each PHY the profile prices x ATT_MTU 23, 55, ..., 247 and 517 x LL payload\n"
            "27, 59, ..., 251 x connection interval 7.5, 15, 30, 50, 100 ms x reply next-event or\n"
            "same-event). It takes the energy options, --min-level, --max-latency-ms (the\n"
            "provisioning's latency), --top, --format and --hybrid none|p256; the answer line\n"
            "first, the `pqpan estimate` line that gives it, then the ranked list with the\n"
            "device's and the provisioner's energy and the latency, and the best per bearer.\n\n");
    fprintf(out,
            "Exit codes: 0 ok, 1 no configuration meets the constraints (the nearest is named; when\n"
            "the time to key is over --max-latency-ms, so is a shorter --idle-ci-ms that meets it)\n"
            "or gnuplot failed, 2 usage (unknown or out-of-range option, empty search space, a figure\n"
            "a profile lacks), 3 bad data file, 4 I/O (--out or the standard output not writable).\n");
}

/* argv as a request of pqpan_run "advise": each option of advise's tables with its value, a
 * flag without one. EXIT_OK, or EXIT_USAGE after a message. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int mesh = mesh_link_requested(argc, argv);
    void *scratch = malloc(mesh ? advise_mesh_opts_size() : sizeof(struct advise_opts));
    struct cli_msg msg;
    int i, rc = scratch == NULL ? cli_usage_error(ADV_CMD, "out of memory") : EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        void *into;
        const struct cli_opt *o;
        if (advise_refused(argv[i], &msg) != EXIT_OK) {
            rc = cli_usage_error(ADV_CMD, "%s", msg.text);
            break;
        }
        o = mesh ? advise_mesh_opt_row(argv[i], scratch, &into)
                 : advise_opt_row(argv[i], scratch, &into);
        rc = o != NULL ? cli_request_add(req, n, o, ADV_CMD, argc, argv, &i)
             : mesh    ? cli_usage_error(ADV_CMD, "unknown option for --link ble-mesh '%s' (%s)",
                                         argv[i], ADV_MESH_TAKES)
                       : cli_unknown_option(ADV_CMD, NULL, argv[i]);
    }
    free(scratch);
    return rc;
}

/* What the run's rows are printed as, and its hints kept for after its message; JSON: whether
 * the object is open (its members printed) and the record of the list open in it (--link
 * ble-mesh's "choices", "best_per_bearer"; PQPAN_RUN_RECORD_NOTE: none). */
struct printer {
    enum cli_format format;
    FILE *hints;
    int open;
    enum pqpan_run_record list;
};

/* A MESH_CHOICE or MESH_BEST row as a line of the table: its rank ("-": the best of its
 * bearer), the bearer in capitals, the figures and the bearer's settings. */
static void print_mesh_line(const struct pqpan_run_mesh_choice *c)
{
    char bearer[16], no[16];
    size_t k;
    for (k = 0; k + 1 < sizeof bearer && c->bearer[k] != '\0'; k++) {
        bearer[k] = (char)toupper((unsigned char)c->bearer[k]);
    }
    bearer[k] = '\0';
    if (c->rank > 0) {
        snprintf(no, sizeof no, "%u", c->rank);
    } else {
        snprintf(no, sizeof no, "-");
    }
    printf("  %4s  %-7s  %-11s  %-4s  %12.3f  %12.3f  %10.3f  %s\n", no, bearer, c->kem,
           c->prov_alg, c->device_uj, c->provisioner_uj, c->latency_ms, c->settings);
}

/* A MESH_CHOICE or MESH_BEST row as an item of its JSON list (pqpan_run_record_key), the
 * list opened at its first row and the one before closed. */
static void print_mesh_item(struct printer *p, const struct pqpan_run_row *row)
{
    size_t k;
    int first = 1;
    if (p->list != row->record) {
        printf("%s  \"%s\": [\n", p->list != PQPAN_RUN_RECORD_NOTE ? "\n  ],\n" : "",
               pqpan_run_record_key(row->record));
        p->list = row->record;
    } else {
        printf(",\n");
    }
    printf("    {");
    for (k = 0; k < row->n_fields; k++) {
        if (pqpan_run_field_shown(&row->fields[k], row->groups)) {
            printf("%s\"%s\": ", first ? "" : ", ", row->fields[k].name);
            model_json_value(stdout, &row->fields[k], &row->values[k]);
            first = 0;
        }
    }
    putchar('}');
}

/* pqpan_run's emit: the table's lines or the JSON's members on the standard output (the
 * CHOICE rows are what those lines say, typed: the CLI prints the lines); --link ble-mesh's
 * configurations from their rows. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    int mesh = row->record == PQPAN_RUN_RECORD_MESH_CHOICE ||
               row->record == PQPAN_RUN_RECORD_MESH_BEST;
    if (row->record == PQPAN_RUN_RECORD_NOTE && p->format != FORMAT_JSON) {
        printf("%s\n", row->values[0].text);
    } else if (row->record == PQPAN_RUN_RECORD_MEMBERS && p->format == FORMAT_JSON) {
        printf("{\n%s", row->values[0].text);
        p->open = 1;
    } else if (mesh && p->format == FORMAT_JSON) {
        print_mesh_item(p, row);
    } else if (mesh) {
        if (row->record != p->list && row->record == PQPAN_RUN_RECORD_MESH_BEST) {
            printf("\n  best per bearer:\n");
        }
        p->list = row->record;
        print_mesh_line(row->data);
    } else if (row->record == PQPAN_RUN_RECORD_WARNING) {
        fprintf(p->hints, "pqpan %s: %s\n", ADV_CMD, row->values[0].text);
    }
    return ferror(stdout) ? -1 : 0;
}

/* The JSON object's end, after its last list if one is open. */
static void close_json(const struct printer *p)
{
    if (p->open) {
        printf("%s}\n", p->list != PQPAN_RUN_RECORD_NOTE ? "\n  ]\n" : "");
    }
}

/* The run's result as the CLI's exit status, its message on stderr (then its hints). */
static int run_status(int code, const struct pqpan_run_error *err)
{
    return cli_run_status(ADV_CMD, code, err);
}

static int run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    char *hints = NULL;
    size_t n, hints_len = 0;
    int code, rc = request_of(req, &n, argc, argv);
    if (rc == EXIT_OK) {
        rc = cli_stdout_check(ADV_CMD);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    memset(&p, 0, sizeof p);
    p.format = cli_request_format(req, n);
    p.list = PQPAN_RUN_RECORD_NOTE;
    p.hints = open_memstream(&hints, &hints_len);
    if (p.hints == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", ADV_CMD);
        return EXIT_FAILURE_RUN;
    }
    code = pqpan_run(ADV_CMD, req, n, print_row, &p, &err);
    close_json(&p);
    rc = run_status(code, &err);
    if (fclose(p.hints) == 0 && hints != NULL) {
        fputs(hints, stderr);
    }
    free(hints);
    return rc;
}

int cli_advise_run(int argc, char **argv)
{
    if (cli_wants_help(argc, argv)) {
        cli_advise_help(stdout);
        return EXIT_OK;
    }
    return run(argc, argv);
}
