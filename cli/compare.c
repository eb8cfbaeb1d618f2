/* pqpan compare: for each ML-KEM level, the PQKE over BLE (study preset, LL 27 without
 * DLE and LL 251 with DLE, analytic) against IEEE 802.15.4 / 6LoWPAN at 0 %, 10 % and 30 %
 * channel load (contention simulator, Monte Carlo): energy, latency, failure rate. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "figure.h"
#include "lowpan_model.h"
#include "mesh_model.h"
#include "opts_registry.h"

#define CMD "compare"
#define N_KEMS 3
#define N_LINKS 5 /* BLE no DLE, BLE DLE, 802.15.4 at 0, 10, 30 % */
/* Background traffic that makes up a channel load: BG_NODES nodes sending BG_PSDU-octet
 * frames, each at load / (BG_NODES x airtime(BG_PSDU)) frames/s. */
#define BG_NODES 10u
#define BG_PSDU 60u

static const char *const kems[N_KEMS] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
static const double load_pct[3] = {0.0, 10.0, 30.0};

struct compare_opts {
    struct model_opts m;
    struct lowpan_opts l; /* only --idle, --backoff, --auth, --sig and --hybrid are taken */
    unsigned runs;
    unsigned long long seed;
    const char *out;
    int mesh; /* --mesh: the mesh table instead */
};

struct cell {
    const char *kem;
    const char *link;
    double load_pct, load_fps;
    unsigned nodes;
    double energy_uj, energy_p90_uj, latency_ms, latency_p90_ms, failure_rate;
    const char *idle, *backoff; /* 802.15.4 radio states ("listen", "sleep"); BLE: "n/a" */
    const char *protocol;       /* "pqpan" (mode none) or "pqpan-MODE" */
    const char *auth;           /* the mode (--auth) */
};

#define COMPARE(m) offsetof(struct compare_opts, m)

static const struct cli_opt compare_rows[] = {
    {.name = "--runs", .kind = CLI_OPT_UINT, .meta = "R", .min = 1, .max = 100000,
     .def = PQPAN_DEFAULT_RUNS,
     .store = CLI_STORE_U32, .offset = COMPARE(runs), .help = "Monte Carlo runs per 802.15.4 cell"},
    {.name = "--seed", .kind = CLI_OPT_UINT, .meta = "S", .min = 0, .max = (double)ULLONG_MAX,
     .def = PQPAN_DEFAULT_SEED, .store = CLI_STORE_ULL, .offset = COMPARE(seed),
     .help = "run i uses seed S + i; same seed, same output"},
    {.name = "--out", .kind = CLI_OPT_TEXT, .meta = "DIR", .store = CLI_STORE_STR,
     .def = PQPAN_DEFAULT_OUT, .offset = COMPARE(out),
     .help = "also write DIR/compare.csv and a gnuplot figure (compare.dat, compare.gp, "
             "compare.svg, compare.png)"},
    {.name = "--mesh", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT, .offset = COMPARE(mesh),
     .help = "the mesh table instead: per ML-KEM level, energy per node (source, busiest "
             "forwarder, destination) and latency of the PQKE across 1..8 hops of 6LoWPAN "
             "(--forwarding, the radio states and variant given), and of BLE Mesh provisioning "
             "over PB-ADV and PB-GATT (estimate --link ble-mesh's defaults); no --out"},
};

static void compare_opts_init(void *p)
{
    struct compare_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->l);
    cli_opt_table_defaults(&compare_opts_table, o);
}

const struct cli_opt_table compare_opts_table =
    CLI_OPT_TABLE("compare", NULL, compare_rows, struct compare_opts, compare_opts_init);

/* Of the 802.15.4 options, compare takes the radio states only (the rest is its preset). */
const char *const compare_exchange[] = {"--idle", "--ipv6-frag", NULL};
const char *const compare_backoff[] = {"--backoff", NULL};
/* --mesh's chains take --forwarding. */
const char *const compare_forwarding[] = {"--forwarding", NULL};

static int parse_args(struct compare_opts *o, int argc, char **argv)
{
    int i;
    compare_opts_init(o);
    for (i = 1; i < argc; i++) {
        int rc = cli_opt_take(&compare_opts_table, o, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = link_pqke_parse(&o->l.pqke, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take_only(&lowpan_exchange_table, compare_exchange, &o->l, CMD, argc,
                                   argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take_only(&lowpan_opts_table, compare_backoff, &o->l, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take_only(&lowpan_chain_table, compare_forwarding, &o->l, CMD, argc,
                                   argv, &i);
        }
        if (rc == 0) {
            rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, NULL, argv[i]);
        }
    }
    return lowpan_pqke_usable(&o->l, CMD);
}

void cli_compare_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan compare [OPTIONS]\n\n"
            "The PQKE (pqpan's INIT / RESP / FIN) for ML-KEM-512, -768 and -1024 over:\n"
            "  ble-noDLE, ble-DLE      BLE, the study's preset with LL payloads of 27 and 251\n"
            "                          octets (analytic estimator, no losses: failure rate 0)\n"
            "  802154-0, -10, -30      6LoWPAN over IEEE 802.15.4 (IEEE CSMA-CA defaults,\n"
            "                          extended addresses) at 0 %%, 10 %% and 30 %% channel load\n"
            "                          (contention simulator, --runs seeded runs)\n"
            "Channel load X %% = %u background nodes, each sending %u-octet frames (PSDU;\n"
            "%.3f ms on air) at X / (%u x %.3f ms) frames/s, Poisson; 0 %% = the pair alone.\n"
            "Energy is both sides together, every radio and CPU state (BLE: events accounting\n"
            "from the CONNECT_IND with the ATT MTU exchange, without advertising, feature\n"
            "exchange, parameter update or discovery, which 802.15.4 has no counterpart of here;\n"
            "802.15.4: all-states accounting with the profile's ieee802154 currents), mean and\n"
            "p90 over the runs; latency is KeyGen start to the last acknowledgement.\n\n"
            "options:\n",
            BG_NODES, BG_PSDU, lowpan_frame_ms(BG_PSDU), BG_NODES, lowpan_frame_ms(BG_PSDU));
    cli_opt_rows_help(out, &compare_opts_table);
    cli_opt_rows_help_only(out, &lowpan_exchange_table, compare_exchange);
    cli_opt_rows_help_only(out, &lowpan_opts_table, compare_backoff);
    cli_opt_rows_help_only(out, &lowpan_chain_table, compare_forwarding);
    cli_opt_rows_help(out, &link_pqke_table);
    model_opts_help(out);
    fprintf(out, "\nExit codes: 0 ok, 1 gnuplot failed, 2 usage, 3 bad data file, 4 I/O.\n");
}

static int ble_cell(struct cell *c, const struct model_env *env, const char *kem, unsigned ll,
                    const struct compare_opts *o)
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct pqpan_ble_config cfg;
    struct cli_msg msg;
    int rc;
    pqpan_ble_config_default(&cfg);
    cfg.ll_octets = ll;
    cfg.protocol = PQPAN_BLE_PROTO_PQPAN;
    cfg.pqke_mode = o->l.pqke.mode;
    cfg.pqke_sig = o->l.pqke.sig;
    cfg.pqke_hybrid = o->l.pqke.hybrid;
    /* the 802.15.4 side has no association or discovery: the BLE side keeps the connection
     * and its MTU exchange only */
    cfg.adv_interval_ns = 0u;
    cfg.features = 0;
    cfg.conn_update = 0;
    cfg.discovery = 0;
    rc = cli_msg_report(CMD, model_run(rows, env, kem, &cfg, 0, &msg), &msg);
    c->kem = kem;
    c->nodes = 2;
    c->link = ll > PQPAN_LL_DATA_MIN_PAYLOAD ? "ble-DLE" : "ble-noDLE";
    c->energy_uj = rows[MODEL_TOTAL].e_total_events_uj;
    c->energy_p90_uj = c->energy_uj;
    c->latency_ms = rows[MODEL_TOTAL].latency_ms;
    c->latency_p90_ms = c->latency_ms;
    c->idle = "n/a";
    c->backoff = "n/a";
    c->auth = pqpan_pqke_mode_name(cfg.pqke_mode);
    c->protocol = model_protocol_name(cfg.pqke_mode, model_pqke_sig(cfg.pqke_mode, cfg.pqke_sig, kem),
                                      cfg.pqke_hybrid);
    return rc;
}

static int lowpan_cell(struct cell *c, const struct model_env *env, const char *kem, int k,
                       const struct compare_opts *o)
{
    static const char *const names[3] = {"802154-0", "802154-10", "802154-30"};
    struct lowpan_opts l;
    struct lowpan_sim_cfg s;
    struct lowpan_series r;
    struct cli_progress progress;
    struct cli_msg msg;
    int rc;
    lowpan_opts_init(&l);
    l.kem = kem;
    l.idle = o->l.idle;
    l.backoff = o->l.backoff;
    l.ipv6_frag = o->l.ipv6_frag;
    l.pqke = o->l.pqke;
    lowpan_sim_cfg_init(&s);
    s.nodes = load_pct[k] > 0.0 ? BG_NODES + 2u : 2u;
    s.frame_psdu = BG_PSDU;
    s.load_fps = load_pct[k] > 0.0
                     ? load_pct[k] / 100.0 / ((double)BG_NODES * lowpan_frame_ms(BG_PSDU) * 1e-3)
                     : 0.0;
    s.runs = o->runs;
    s.seed = o->seed;
    progress.cmd = CMD;
    s.progress = cli_progress_runs;
    s.progress_ctx = &progress;
    rc = cli_msg_report(CMD, lowpan_simulate(&r, env, &l, &s, &msg), &msg);
    c->kem = kem;
    c->link = names[k];
    c->load_pct = load_pct[k];
    c->load_fps = s.load_fps;
    c->nodes = s.nodes;
    c->energy_uj = r.energy_uj[MODEL_TOTAL].mean;
    c->energy_p90_uj = r.energy_uj[MODEL_TOTAL].p90;
    c->latency_ms = r.latency_ms.mean;
    c->latency_p90_ms = r.latency_ms.p90;
    c->failure_rate = r.runs > 0 ? (double)r.failed / (double)r.runs : 0.0;
    c->idle = lowpan_idle_listens(&l, env) ? "listen" : "sleep";
    c->backoff = lowpan_backoff_listens(&l, env) ? "listen" : "sleep";
    c->protocol = lowpan_protocol_name(&l);
    c->auth = pqpan_pqke_mode_name(l.pqke.mode);
    return rc;
}

static int run_all(struct cell cells[N_KEMS][N_LINKS], const struct model_env *env,
                   const struct compare_opts *o)
{
    int k, j, rc = EXIT_OK;
    memset(cells, 0, N_KEMS * sizeof cells[0]);
    for (k = 0; k < N_KEMS && rc == EXIT_OK; k++) {
        rc = ble_cell(&cells[k][0], env, kems[k], PQPAN_LL_DATA_MIN_PAYLOAD, o);
        if (rc == EXIT_OK) {
            rc = ble_cell(&cells[k][1], env, kems[k], 251, o);
        }
        for (j = 0; j < 3 && rc == EXIT_OK; j++) {
            rc = lowpan_cell(&cells[k][2 + j], env, kems[k], j, o);
        }
    }
    return rc;
}

static void print_csv(FILE *f, struct cell cells[N_KEMS][N_LINKS])
{
    int k, j;
    fprintf(f, "kem,link,channel_load_pct,nodes,load_fps,energy_uj,energy_p90_uj,latency_ms,"
               "latency_p90_ms,failure_rate,idle_802154,backoff_802154,protocol,auth\n");
    for (k = 0; k < N_KEMS; k++) {
        for (j = 0; j < N_LINKS; j++) {
            const struct cell *c = &cells[k][j];
            fprintf(f, "%s,%s,%.1f,%u,%.3f,%.3f,%.3f,%.3f,%.3f,%.4f,%s,%s,%s,%s\n", c->kem,
                    c->link, c->load_pct, c->nodes, c->load_fps, c->energy_uj, c->energy_p90_uj,
                    c->latency_ms, c->latency_p90_ms, c->failure_rate, c->idle, c->backoff,
                    c->protocol, c->auth);
        }
    }
}

/* The exchange line (model_print_exchange_line): the protocol and mode every cell runs,
 * and the idle assumption of each link. */
static void print_exchange_line(const struct compare_opts *o, const struct model_env *env,
                                struct cell cells[N_KEMS][N_LINKS])
{
    char lowpan[LOWPAN_IDLE_TEXT_MAX], idle[LOWPAN_IDLE_TEXT_MAX + 80];
    snprintf(idle, sizeof idle, "BLE %s; 802.15.4 %s", MODEL_BLE_IDLE_TEXT,
             lowpan_idle_text(lowpan, &o->l, env));
    model_print_exchange_line(stdout, "  ", cells[0][0].protocol,
                              pqpan_pqke_mode_name(o->l.pqke.mode), idle);
}

static void print_table(const struct compare_opts *o, const struct model_env *env,
                        struct cell cells[N_KEMS][N_LINKS])
{
    int k, j;
    printf("pqpan compare: PQKE (pqpan protocol, --auth %s%s), both sides, every state; BLE analytic\n"
           "  (study preset), 802.15.4 simulated (%u runs, seeds %llu..%llu); channel load X %% =\n"
           "  %u background nodes x %u-octet frames (%.3f ms) at X / (%u x %.3f ms) frames/s\n",
           pqpan_pqke_mode_name(o->l.pqke.mode), o->l.pqke.hybrid ? ", --hybrid p256" : "", o->runs, o->seed, o->seed + o->runs - 1u, BG_NODES, BG_PSDU, lowpan_frame_ms(BG_PSDU),
           BG_NODES, lowpan_frame_ms(BG_PSDU));
    print_exchange_line(o, env, cells);
    printf("802.15.4 radio and energy inputs:\n");
    lowpan_print_assumptions(stdout, env, &o->l, "  ");
    putchar('\n');
    printf("%-12s %-10s %9s %12s %12s %11s %11s %8s\n", "KEM", "link", "load fps", "energy uJ",
           "p90 uJ", "latency ms", "p90 ms", "failed");
    for (k = 0; k < N_KEMS; k++) {
        for (j = 0; j < N_LINKS; j++) {
            const struct cell *c = &cells[k][j];
            printf("%-12s %-10s %9.3f %12.3f %12.3f %11.3f %11.3f %8.4f\n", c->kem, c->link,
                   c->load_fps, c->energy_uj, c->energy_p90_uj, c->latency_ms, c->latency_p90_ms,
                   c->failure_rate);
        }
    }
}

/* One object like every command's JSON: what was run and on what inputs (the 802.15.4
 * assumptions block), then one row per KEM and link. */
static void print_json(const struct compare_opts *o, const struct model_env *env,
                       struct cell cells[N_KEMS][N_LINKS])
{
    int k, j;
    printf("{\n  \"protocol\": \"%s\",\n  \"auth\": \"%s\",\n"
           "  \"energy_accounting\": \"all-states\",\n"
           "  \"ble\": \"analytic (estimator, study preset, events accounting from the "
           "CONNECT_IND)\",\n  \"ieee802154\": \"simulated\",\n  \"runs\": %u,\n  \"seed\": %llu,\n"
           "  \"background_nodes\": %u,\n  \"background_frame_bytes\": %u,\n",
           cells[0][0].protocol, pqpan_pqke_mode_name(o->l.pqke.mode), o->runs, o->seed,
           BG_NODES, BG_PSDU);
    lowpan_print_assumptions_json(stdout, env, &o->l, "  ");
    printf("  \"rows\": [\n");
    for (k = 0; k < N_KEMS; k++) {
        for (j = 0; j < N_LINKS; j++) {
            const struct cell *c = &cells[k][j];
            printf("    {\"kem\": \"%s\", \"link\": \"%s\", \"channel_load_pct\": %.1f, "
                   "\"nodes\": %u, \"load_fps\": %.3f, \"energy_uj\": %.3f, "
                   "\"energy_p90_uj\": %.3f, \"latency_ms\": %.3f, \"latency_p90_ms\": %.3f, "
                   "\"failure_rate\": %.4f, \"idle_802154\": \"%s\", "
                   "\"backoff_802154\": \"%s\", \"protocol\": \"%s\", \"auth\": \"%s\"}%s\n",
                   c->kem, c->link, c->load_pct, c->nodes, c->load_fps, c->energy_uj,
                   c->energy_p90_uj, c->latency_ms, c->latency_p90_ms, c->failure_rate, c->idle,
                   c->backoff, c->protocol, c->auth, k + 1 < N_KEMS || j + 1 < N_LINKS ? "," : "");
        }
    }
    printf("  ]\n}\n");
}

static int write_figure(const char *dir, struct cell cells[N_KEMS][N_LINKS])
{
    struct cli_outfile o;
    char plot[96];
    FILE *f;
    int k, j;
    if (figure_open(&o, CMD, dir, "compare.dat") != EXIT_OK) {
        return EXIT_IO;
    }
    f = o.f;
    fprintf(f, "# energy (uJ, both sides, every state) per link; rows: ML-KEM levels\n"
               "kem");
    for (j = 0; j < N_LINKS; j++) {
        fprintf(f, " %s", cells[0][j].link);
    }
    fputc('\n', f);
    for (k = 0; k < N_KEMS; k++) {
        fprintf(f, "%s", kems[k]);
        for (j = 0; j < N_LINKS; j++) {
            fprintf(f, " %.3f", cells[k][j].energy_uj);
        }
        fputc('\n', f);
    }
    if (figure_close(&o, CMD) != EXIT_OK) {
        return EXIT_IO;
    }
    if (figure_open(&o, CMD, dir, "compare.gp") != EXIT_OK) {
        return EXIT_IO;
    }
    f = o.f;
    fprintf(f, "set style data histograms\nset style histogram clustered gap 1\n"
               "set style fill solid 0.8 border -1\nset key top left autotitle columnhead\n"
               "set ylabel 'energy, both sides (uJ)'\nset grid ytics\n"
               "set title 'PQKE energy: BLE (no DLE / DLE) vs IEEE 802.15.4 at 0, 10, 30 %% load'\n");
    snprintf(plot, sizeof plot, "plot for [c=2:%d] 'compare.dat' using c:xtic(1)\n", N_LINKS + 1);
    figure_render(f, "compare", plot);
    return figure_close(&o, CMD);
}

static int write_out(const char *dir, struct cell cells[N_KEMS][N_LINKS])
{
    struct cli_outfile o;
    int rc;
    if (figure_open(&o, CMD, dir, "compare.csv") != EXIT_OK) {
        return EXIT_IO;
    }
    print_csv(o.f, cells);
    rc = figure_close(&o, CMD);
    if (rc == EXIT_OK) {
        rc = write_figure(dir, cells);
    }
    return rc == EXIT_OK ? figure_gnuplot(CMD, dir, "compare.gp") : rc;
}

/* --mesh: the mesh table (compare_mesh.c). */
static int compare_mesh(const struct compare_opts *o)
{
    struct model_env *env;
    int rc = model_env_new(&env, &o->m, CMD);
    if (rc == EXIT_OK) {
        rc = mesh_compare_print(env, &o->l, o->m.format);
    }
    free(env);
    return rc;
}

int cli_compare_run(int argc, char **argv)
{
    struct compare_opts o;
    struct model_env *env;
    struct cell cells[N_KEMS][N_LINKS];
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_compare_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(&o, argc, argv);
    if (rc == EXIT_OK && o.mesh && o.out != NULL) {
        return cli_usage_error(CMD, "--mesh prints its table only: no --out");
    }
    if (rc == EXIT_OK && o.mesh) {
        return compare_mesh(&o);
    }
    if (rc == EXIT_OK && o.out != NULL) {
        rc = cli_figure_dir(CMD, o.out); /* before any work: a bad --out fails at once */
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = run_all(cells, env, &o);
    }
    if (rc == EXIT_OK) {
        if (o.m.format == FORMAT_TABLE) {
            print_table(&o, env, cells);
        } else if (o.m.format == FORMAT_CSV) {
            print_csv(stdout, cells);
        } else {
            print_json(&o, env, cells);
        }
        if (o.out != NULL) {
            rc = write_out(o.out, cells);
        }
    }
    free(env);
    return rc;
}
