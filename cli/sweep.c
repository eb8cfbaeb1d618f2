/* pqpan sweep: `estimate` over every configuration of a grid of option values, one row
 * per configuration, streamed as CSV or JSON Lines (see sweep.h for the parts). */
#define _POSIX_C_SOURCE 200809L
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "mesh_cli.h"
#include "sweep.h"
#include "opts_registry.h"

/* estimate's tables on each link, for the options that take `all`. */
static const struct cli_opt_table *const all_ble[] = {
    &estimate_protocol_table, &link_opts_table,  &link_pqke_table,    &link_setup_table,
    &model_energy_table,      &model_ramp_table, &model_crypto_table};
static const struct cli_opt_table *const all_lowpan[] = {
    &lowpan_opts_table, &lowpan_exchange_table, &link_pqke_table};
static const struct cli_opt_table *const all_mesh[] = {&mesh_opts_table};

void cli_sweep_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan sweep [estimate options, each a LIST] [--link 802154|ble-mesh]\n"
            "                   [--per LIST --runs R --seed S] [--format csv|jsonl] [--out FILE]\n"
            "                   [--jobs N] [--shard K/N] [--valid-only] [--force]\n"
            "       pqpan sweep merge [--valid-only] [--out FILE] FILE...\n\n"
            "Runs `pqpan estimate` for every combination of the values given and writes one row\n"
            "per configuration. Every option of estimate (`pqpan help estimate`: link, protocol and\n"
            "energy options, BLE, --link 802154 or --link ble-mesh) takes a LIST: comma-separated\n"
            "items, each a value, a range A..B:STEP (A, A+STEP, ... up to B, B included when a\n"
            "step lands on it; STEP > 0; integers or decimals; a PREFIX= before A is kept, as in\n"
            "--gamma-comp kem_keygen=1.1..1.5:0.1; only for a number, and whole numbers for an\n"
            "integer), or `all` for an option with a fixed set of values (the words `pqpan help\n"
            "estimate` lists; --profile all = the built-in profiles).\n");
    cli_opt_names_with_words(out, all_ble, sizeof all_ble / sizeof all_ble[0],
                             "Options that take all, BLE: ", ";");
    cli_opt_names_with_words(out, all_lowpan, sizeof all_lowpan / sizeof all_lowpan[0],
                             "with --link 802154: ", ";");
    cli_opt_names_with_words(out, all_mesh, sizeof all_mesh / sizeof all_mesh[0],
                             "with --link ble-mesh: ", ", and of the BLE link's --phy, --reply.");
    fprintf(out,
            "Example: --kem all --phy 1M,2M --ll-octets 27..251:8 --ci-ms 7.5..100:7.5.\n"
            "A flag (--encrypted) takes no list; --link takes one value. Every value is checked\n"
            "(and every profile and calibration file loaded) before any row is computed.\n\n"
            "Rows: configuration 0, 1, ... in nested-loop order: the energy options (--profile,\n"
            "--currents, --tx-dbm, --ramp, --gamma-*, --calibration, --crypto-impl) outermost, then\n"
            "the others, each group in the order given; the last option varies fastest. Columns:\n"
            "config, configs (their number), status (ok, or why the configuration is invalid: the\n"
            "message estimate prints, e.g. ATT_MTU too small for --transfer study, a TX level or\n"
            "PHY the profile has no current for), in_<option> for every option given (its value),\n"
            "then estimate's CSV fields: the configuration's (kem, phy, att_mtu, ...) and every\n"
            "energy, time and count field once per side, named <side>_<field> (peripheral_,\n"
            "central_, total_; 802.15.4: initiator_, responder_, total_). An invalid row keeps\n"
            "its inputs and leaves the results empty (JSON: null).\n\n"
            "--link ble-mesh: BLE Mesh provisioning (`pqpan estimate --link ble-mesh`) over the\n"
            "lists of its options and of the BLE link options PB-GATT takes (--phy, --att-mtu,\n"
            "--ll-octets, --ci-ms, --reply): the configuration's bearer, kem, hybrid, variant,\n"
            "prov_alg once, then every figure per side as provisioner_, device_, total_; a\n"
            "bearer's counter on the other bearer is empty (segments, adv_events: PB-ADV;\n"
            "proxy_pdus: PB-GATT). A configuration estimate refuses is a row with its message\n"
            "as status: an option of the other bearer (--att-mtu with pb-adv), --phy 2M on\n"
            "PB-ADV, --hybrid p256 with --kem P-256.\n\n");
    cli_opt_table_help(out, &sweep_opts_table);
    fprintf(out,
            "\n"
            "merge: joins the files of `--shard K/N` runs (any order, CSV or JSON Lines) into the\n"
            "file the whole sweep writes: their headers must agree, and together they must hold\n"
            "every configuration 0 .. configs-1 once (exit 3 otherwise). --valid-only then leaves\n"
            "out the invalid rows, as the whole sweep with --valid-only would. merge options:\n");
    cli_opt_rows_help(out, &sweep_merge_table);
    fprintf(out,
            "\n"
            "A progress line (configurations done/total, rate, ETA) goes to stderr when stderr is\n"
            "a terminal. Exit codes: 0 ok, 1 a failure while running (out of memory), 2 usage (bad\n"
            "option, value, list or range; more than 10^9 configurations without --force), 3 bad\n"
            "data file (profile, calibration) or bad shard files (merge), 4 output not writable,\n"
            "130 interrupted by SIGINT: the rows done so far (complete rows, in order, up to the\n"
            "first configuration not done) are in the output, renamed into place.\n");
}

/* ---- argv as a request of the run layer ---- */

static int out_of_memory(void)
{
    fprintf(stderr, "pqpan %s: out of memory\n", SWEEP_CMD);
    return EXIT_FAILURE_RUN;
}

/* The words of link on (enum sweep_on) in messages. */
static const char *const on_link[] = {"ble", "802154", "ble-mesh"};

/* An option of estimate on link on (enum sweep_on) at argv[*i] with its list (the next
 * argument unless it is an option: a flag has none) into req. */
static int estimate_option(struct pqpan_run_opt *req, size_t *n, int on, int argc, char **argv,
                           int *i)
{
    const char *t = argv[*i];
    const char *v = *i + 1 < argc && strncmp(argv[*i + 1], "--", 2) != 0 ? argv[*i + 1] : NULL;
    const struct cli_opt *o;
    struct cli_suggest s;
    if (strncmp(t, "--", 2) != 0) {
        return cli_usage_error(SWEEP_CMD, "unexpected argument '%s'", t);
    }
    o = sweep_estimate_row(on, t);
    if (o == NULL) {
        return cli_usage_error(SWEEP_CMD,
                               "unknown option '%s' (not an option of pqpan estimate%s%s)%s", t,
                               on != SWEEP_ON_BLE ? " --link " : "",
                               on != SWEEP_ON_BLE ? on_link[on] : "",
                               cli_option_suggestion(&s, SWEEP_CMD, on_link[on], t));
    }
    if (o->kind == CLI_OPT_FLAG && v != NULL) { /* on the command line a flag takes no word */
        return cli_usage_error(SWEEP_CMD, "%s is a flag: it takes no value, so no list ('%s')",
                               t, v);
    }
    if (*n == CLI_REQUEST_MAX) {
        return cli_usage_error(SWEEP_CMD, "too many options (at most %d)", CLI_REQUEST_MAX);
    }
    req[*n].name = t;
    req[(*n)++].value = v;
    *i += v != NULL;
    return EXIT_OK;
}

/* argv as a request: the sweep's own options and estimate's, each with its value. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int on, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = cli_opt_find(&sweep_opts_table, argv[i]);
        rc = o != NULL ? cli_request_add(req, n, o, SWEEP_CMD, argc, argv, &i)
                       : estimate_option(req, n, on, argc, argv, &i);
    }
    return rc;
}

/* The run layer's plan of the request, its error said as the CLI says it. */
static int plan(struct run_ctx *r, struct sweep_cfg *cfg, const struct pqpan_run_opt *req,
                size_t n)
{
    struct pqpan_run_error err;
    int rc;
    memset(&err, 0, sizeof err);
    memset(r, 0, sizeof *r);
    r->err = &err;
    rc = sweep_plan(r, cfg, req, n);
    r->err = NULL;
    return cli_run_status(SWEEP_CMD, rc, &err);
}

static void env_lock(void *mu)
{
    pthread_mutex_lock(mu);
}

static void env_unlock(void *mu)
{
    pthread_mutex_unlock(mu);
}

/* The output opened, the header and the rows written, the output closed; SIGINT caught
 * from before the output exists until it is closed. */
static int run(struct sweep_cfg *cfg)
{
    struct sweep_output out;
    struct sigaction old;
    pthread_mutex_t mu;
    int rc;
    sweep_sigint_catch(&old);
    rc = sweep_output_open(&out, cfg->out);
    if (rc == EXIT_OK) {
        pthread_mutex_init(&mu, NULL);
        cfg->lock = env_lock;
        cfg->unlock = env_unlock;
        cfg->lock_ctx = &mu;
        sweep_write_header(out.f, cfg);
        rc = sweep_output_close(&out, sweep_run(out.f, cfg));
        cfg->lock = NULL;
        cfg->unlock = NULL;
        pthread_mutex_destroy(&mu);
    }
    sweep_sigint_restore(&old);
    return rc;
}

int cli_sweep_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct sweep_cfg cfg;
    struct run_ctx *r;
    size_t n;
    int rc;
    if (argc >= 2 && strcmp(argv[1], "merge") == 0) {
        return sweep_merge_run(argc - 1, argv + 1);
    }
    if (cli_wants_help(argc, argv)) {
        cli_sweep_help(stdout);
        return EXIT_OK;
    }
    rc = request_of(req, &n,
                    mesh_link_requested(argc, argv)     ? SWEEP_ON_MESH
                    : lowpan_link_requested(argc, argv) ? SWEEP_ON_802154
                                                        : SWEEP_ON_BLE,
                    argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    r = malloc(sizeof *r); /* holds the request's values while the sweep runs */
    if (r == NULL) {
        return out_of_memory();
    }
    rc = plan(r, &cfg, req, n);
    if (rc == EXIT_OK) {
        rc = run(&cfg);
        sweep_cfg_free(&cfg);
    }
    free(r);
    return rc;
}
