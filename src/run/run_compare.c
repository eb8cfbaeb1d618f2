/* pqpan compare's run: for each ML-KEM level, the PQKE over BLE (study preset, LL 27 without
 * DLE and LL 251 with DLE, analytic) against IEEE 802.15.4 / 6LoWPAN at 0 %, 10 % and 30 %
 * channel load (contention simulator, Monte Carlo): energy, latency, failure rate, one CELL
 * row each (moved from cli/compare.c, which turns argv into the request and prints the
 * rows). --out's files are written here. --mesh's table: run_compare_mesh.c. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"
#include "lowpan.h"
#include "lowpan_sim.h"
#include "model.h"
#include "notes.h"
#include "run_compare.h"
#include "run_internal.h"

#define CMD "compare"
#define N_KEMS 3
#define N_LINKS 5 /* BLE no DLE, BLE DLE, 802.15.4 at 0, 10, 30 % */
#define N_CELLS (N_KEMS * N_LINKS)

static const char *const kems[N_KEMS] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
static const double load_pct[3] = {0.0, 10.0, 30.0};

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

/* compare's tables in the order the CLI tries them, each with the names it takes (NULL:
 * all) and where in struct compare_opts its options are stored. */
enum into { INTO_OPTS, INTO_PQKE, INTO_LOWPAN, INTO_MODEL, INTO_FORMAT };
struct compare_table {
    const struct cli_opt_table *t;
    const char *const *only;
    enum into into;
};

static const struct compare_table compare_tables[] = {
    {&compare_opts_table, NULL, INTO_OPTS},
    {&link_pqke_table, NULL, INTO_PQKE},
    {&lowpan_exchange_table, compare_exchange, INTO_LOWPAN},
    {&lowpan_opts_table, compare_backoff, INTO_LOWPAN},
    {&lowpan_chain_table, compare_forwarding, INTO_LOWPAN},
    {&model_energy_table, NULL, INTO_MODEL},
    {&model_ramp_table, NULL, INTO_MODEL},
    {&model_crypto_table, NULL, INTO_MODEL},
    {&model_gamma_table, NULL, INTO_MODEL},
    {&cli_format_table, NULL, INTO_FORMAT},
};
#define N_COMPARE_TABLES (sizeof compare_tables / sizeof compare_tables[0])

const struct cli_opt *compare_opt_row(const char *name, struct compare_opts *o, void **into)
{
    size_t k;
    for (k = 0; k < N_COMPARE_TABLES; k++) {
        const struct compare_table *t = &compare_tables[k];
        const struct cli_opt *row =
            cli_opt_listed(t->only, name) ? cli_opt_find(t->t, name) : NULL;
        if (row != NULL) {
            *into = t->into == INTO_OPTS     ? (void *)o
                    : t->into == INTO_PQKE   ? (void *)&o->l.pqke
                    : t->into == INTO_LOWPAN ? (void *)&o->l
                    : t->into == INTO_MODEL  ? (void *)&o->m
                                             : (void *)&o->m.format;
            return row;
        }
    }
    return NULL;
}

/* An unknown option: "unknown option 'X'; did you mean ...?" among the names compare
 * takes. */
static int unknown(struct run_ctx *r, const char *name)
{
    const struct cli_opt_table *tables[N_COMPARE_TABLES];
    size_t k;
    for (k = 0; k < N_COMPARE_TABLES; k++) {
        tables[k] = compare_tables[k].t;
    }
    return run_unknown(r, name, tables, N_COMPARE_TABLES);
}

static int parse(struct run_ctx *r, struct compare_opts *o, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    struct cli_msg msg;
    size_t i;
    int rc = PQPAN_OK;
    compare_opts_init(o);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        void *into;
        const struct cli_opt *row =
            opts[i].name != NULL ? compare_opt_row(opts[i].name, o, &into) : NULL;
        rc = row != NULL            ? run_set(r, row, into, &opts[i])
             : opts[i].name != NULL ? unknown(r, opts[i].name)
                                    : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc == PQPAN_OK && model_pqke_check(o->l.pqke.mode, o->l.pqke.sig, &msg) != EXIT_OK) {
        rc = run_fail(r, EXIT_USAGE, "--auth", msg.text);
    }
    if (rc == PQPAN_OK && o->mesh && o->out != NULL) {
        rc = run_fail(r, EXIT_USAGE, "--out", "--mesh prints its table only: no --out");
    }
    return rc;
}

/* ---- the cells ---- */

/* The message of a model or simulator error, as the run's error. */
static int cell_failed(struct run_ctx *r, int rc, const struct cli_msg *msg)
{
    return rc == EXIT_OK ? PQPAN_OK : run_fail(r, rc, NULL, msg->text);
}

static int ble_cell(struct run_ctx *r, struct pqpan_run_compare_cell *c,
                    const struct model_env *env, const char *kem, unsigned ll,
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
    rc = model_run(rows, env, kem, &cfg, 0, &msg);
    c->kem = kem;
    c->nodes = 2;
    c->link = ll > PQPAN_LL_DATA_MIN_PAYLOAD ? "ble-DLE" : "ble-noDLE";
    c->energy_uj = rows[MODEL_TOTAL].e_total_events_uj;
    c->energy_p90_uj = c->energy_uj;
    c->latency_ms = rows[MODEL_TOTAL].latency_ms;
    c->latency_p90_ms = c->latency_ms;
    c->idle_802154 = "n/a";
    c->backoff_802154 = "n/a";
    c->auth = pqpan_pqke_mode_name(cfg.pqke_mode);
    c->protocol = model_protocol_name(cfg.pqke_mode, model_pqke_sig(cfg.pqke_mode, cfg.pqke_sig, kem),
                                      cfg.pqke_hybrid);
    return cell_failed(r, rc, &msg);
}

static int lowpan_cell(struct run_ctx *r, struct pqpan_run_compare_cell *c,
                       const struct model_env *env, const char *kem, int k,
                       const struct compare_opts *o)
{
    static const char *const names[3] = {"802154-0", "802154-10", "802154-30"};
    struct lowpan_opts l;
    struct lowpan_sim_cfg s;
    struct lowpan_series res;
    struct run_progress progress;
    struct cli_msg msg;
    int rc;
    lowpan_opts_init(&l);
    l.kem = kem;
    l.idle = o->l.idle;
    l.backoff = o->l.backoff;
    l.ipv6_frag = o->l.ipv6_frag;
    l.pqke = o->l.pqke;
    lowpan_sim_cfg_init(&s);
    s.nodes = load_pct[k] > 0.0 ? COMPARE_BG_NODES + 2u : 2u;
    s.frame_psdu = COMPARE_BG_PSDU;
    s.load_fps = load_pct[k] > 0.0 ? load_pct[k] / 100.0 /
                                         ((double)COMPARE_BG_NODES *
                                          lowpan_frame_ms(COMPARE_BG_PSDU) * 1e-3)
                                   : 0.0;
    s.runs = o->runs;
    s.seed = o->seed;
    progress.r = r;
    progress.stopped = 0;
    s.progress = run_on_progress;
    s.progress_ctx = &progress;
    rc = lowpan_simulate(&res, env, &l, &s, &msg);
    if (progress.stopped) {
        return run_fail(r, EXIT_IO, NULL, "the caller stopped the run");
    }
    c->kem = kem;
    c->link = names[k];
    c->channel_load_pct = load_pct[k];
    c->load_fps = s.load_fps;
    c->nodes = s.nodes;
    c->energy_uj = res.energy_uj[MODEL_TOTAL].mean;
    c->energy_p90_uj = res.energy_uj[MODEL_TOTAL].p90;
    c->latency_ms = res.latency_ms.mean;
    c->latency_p90_ms = res.latency_ms.p90;
    c->failure_rate = res.runs > 0 ? (double)res.failed / (double)res.runs : 0.0;
    c->idle_802154 = lowpan_idle_listens(&l, env) ? "listen" : "sleep";
    c->backoff_802154 = lowpan_backoff_listens(&l, env) ? "listen" : "sleep";
    c->protocol = lowpan_protocol_name(&l);
    c->auth = pqpan_pqke_mode_name(l.pqke.mode);
    return cell_failed(r, rc, &msg);
}

/* cells[k * N_LINKS + j]: level k, link j. */
static int run_all(struct run_ctx *r, struct pqpan_run_compare_cell cells[N_CELLS],
                   const struct model_env *env, const struct compare_opts *o)
{
    int k, j, rc = PQPAN_OK;
    memset(cells, 0, N_CELLS * sizeof cells[0]);
    for (k = 0; k < N_KEMS && rc == PQPAN_OK; k++) {
        struct pqpan_run_compare_cell *row = &cells[k * N_LINKS];
        rc = ble_cell(r, &row[0], env, kems[k], PQPAN_LL_DATA_MIN_PAYLOAD, o);
        if (rc == PQPAN_OK) {
            rc = ble_cell(r, &row[1], env, kems[k], PQPAN_LL_DATA_MAX_PAYLOAD, o);
        }
        for (j = 0; j < 3 && rc == PQPAN_OK; j++) {
            rc = lowpan_cell(r, &row[2 + j], env, kems[k], j, o);
        }
    }
    return rc;
}

/* ---- the field table of a cell ---- */

#define CELL(m) offsetof(struct pqpan_run_compare_cell, m)
static const struct pqpan_run_field cell_fields[] = {
    {"kem", "KEM", NULL, 0, PQPAN_RUN_STORE_TEXT, CELL(kem), 0},
    {"link", "link", NULL, 0, PQPAN_RUN_STORE_TEXT, CELL(link), 0},
    {"channel_load_pct", "channel load", "%", 0, PQPAN_RUN_STORE_REAL, CELL(channel_load_pct), 1},
    {"nodes", "nodes", NULL, 0, PQPAN_RUN_STORE_UINT, CELL(nodes), 0},
    {"load_fps", "load fps", "frames/s", 0, PQPAN_RUN_STORE_REAL, CELL(load_fps), 3},
    {"energy_uj", "energy uJ", "uJ", 0, PQPAN_RUN_STORE_REAL, CELL(energy_uj), 3},
    {"energy_p90_uj", "p90 uJ", "uJ", 0, PQPAN_RUN_STORE_REAL, CELL(energy_p90_uj), 3},
    {"latency_ms", "latency ms", "ms", 0, PQPAN_RUN_STORE_REAL, CELL(latency_ms), 3},
    {"latency_p90_ms", "p90 ms", "ms", 0, PQPAN_RUN_STORE_REAL, CELL(latency_p90_ms), 3},
    {"failure_rate", "failed", NULL, 0, PQPAN_RUN_STORE_REAL, CELL(failure_rate), 4},
    {"idle_802154", "idle 802.15.4", NULL, 0, PQPAN_RUN_STORE_TEXT, CELL(idle_802154), 0},
    {"backoff_802154", "backoff 802.15.4", NULL, 0, PQPAN_RUN_STORE_TEXT, CELL(backoff_802154), 0},
    {"protocol", "protocol", NULL, 0, PQPAN_RUN_STORE_TEXT, CELL(protocol), 0},
    {"auth", "auth", NULL, 0, PQPAN_RUN_STORE_TEXT, CELL(auth), 0},
};
#define N_CELL_FIELDS (sizeof cell_fields / sizeof cell_fields[0])

const struct pqpan_run_field *pqpan_run_compare_cell_fields(size_t *n)
{
    *n = N_CELL_FIELDS;
    return cell_fields;
}

/* ---- the notes: the table's heading and the JSON's members ---- */

struct compare_notes {
    const struct compare_opts *o;
    const struct model_env *env;
    const char *protocol; /* every cell's (the first's) */
};

static void table_notes(FILE *f, const void *arg)
{
    const struct compare_notes *n = arg;
    const struct compare_opts *o = n->o;
    char lowpan[LOWPAN_IDLE_TEXT_MAX], idle[LOWPAN_IDLE_TEXT_MAX + 80];
    fprintf(f,
            "pqpan compare: PQKE (pqpan protocol, --auth %s%s), both sides, every state; BLE "
            "analytic\n"
            "  (study preset), 802.15.4 simulated (%u runs, seeds %llu..%llu); channel load X %% "
            "=\n"
            "  %u background nodes x %u-octet frames (%.3f ms) at X / (%u x %.3f ms) frames/s\n",
            pqpan_pqke_mode_name(o->l.pqke.mode), o->l.pqke.hybrid ? ", --hybrid p256" : "",
            o->runs, o->seed, o->seed + o->runs - 1u, COMPARE_BG_NODES, COMPARE_BG_PSDU,
            lowpan_frame_ms(COMPARE_BG_PSDU), COMPARE_BG_NODES, lowpan_frame_ms(COMPARE_BG_PSDU));
    /* the exchange line (model_print_exchange_line): the protocol and mode every cell runs,
     * and the idle assumption of each link */
    snprintf(idle, sizeof idle, "BLE %s; 802.15.4 %s", MODEL_BLE_IDLE_TEXT,
             lowpan_idle_text(lowpan, &o->l, n->env));
    model_print_exchange_line(f, "  ", n->protocol, pqpan_pqke_mode_name(o->l.pqke.mode), idle);
    fprintf(f, "802.15.4 radio and energy inputs:\n");
    lowpan_print_assumptions(f, n->env, &o->l, "  ");
    fputc('\n', f);
}

/* The members of compare's JSON object before its "rows": what was run and on what inputs
 * (the 802.15.4 assumptions block). */
static void json_notes(FILE *f, const void *arg)
{
    const struct compare_notes *n = arg;
    fprintf(f,
            "  \"protocol\": \"%s\",\n  \"auth\": \"%s\",\n"
            "  \"energy_accounting\": \"all-states\",\n"
            "  \"ble\": \"analytic (estimator, study preset, events accounting from the "
            "CONNECT_IND)\",\n  \"ieee802154\": \"simulated\",\n  \"runs\": %u,\n  \"seed\": %llu,\n"
            "  \"background_nodes\": %u,\n  \"background_frame_bytes\": %u,\n",
            n->protocol, pqpan_pqke_mode_name(n->o->l.pqke.mode), n->o->runs, n->o->seed,
            COMPARE_BG_NODES, COMPARE_BG_PSDU);
    lowpan_print_assumptions_json(f, n->env, &n->o->l, "  ");
}

/* ---- --out DIR: compare.csv and the figure ---- */

static void write_csv(FILE *f, const struct pqpan_run_compare_cell cells[N_CELLS])
{
    size_t i;
    model_fields_csv_header(f, cell_fields, N_CELL_FIELDS, 0);
    for (i = 0; i < N_CELLS; i++) {
        model_fields_csv_row(f, cell_fields, N_CELL_FIELDS, 0, &cells[i]);
    }
}

static int write_figure(const char *dir, const struct pqpan_run_compare_cell cells[N_CELLS])
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
        fprintf(f, " %s", cells[j].link);
    }
    fputc('\n', f);
    for (k = 0; k < N_KEMS; k++) {
        fprintf(f, "%s", kems[k]);
        for (j = 0; j < N_LINKS; j++) {
            fprintf(f, " %.3f", cells[k * N_LINKS + j].energy_uj);
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

/* The files, their messages printed by figure.c (outfile.c); the run's error names --out. */
static int write_out(struct run_ctx *r, const char *dir,
                     const struct pqpan_run_compare_cell cells[N_CELLS])
{
    struct cli_outfile o;
    int rc = figure_open(&o, CMD, dir, "compare.csv");
    if (rc == EXIT_OK) {
        write_csv(o.f, cells);
        rc = figure_close(&o, CMD);
    }
    if (rc == EXIT_OK) {
        rc = write_figure(dir, cells);
    }
    if (rc == EXIT_OK) {
        rc = figure_gnuplot(CMD, dir, "compare.gp");
    }
    return rc == EXIT_OK ? PQPAN_OK
                         : run_fail(r, rc, "--out",
                                    rc == EXIT_IO ? "cannot write --out's files"
                                                  : "gnuplot failed on --out's figure");
}

/* --out: created before any work, so that a bad one fails at once. */
static int out_dir(struct run_ctx *r, const char *dir)
{
    struct cli_msg msg;
    int rc = figure_dir(dir, &msg);
    if (rc == EXIT_OK) {
        return PQPAN_OK;
    }
    if (rc == EXIT_USAGE) {
        return run_fail(r, rc, "--out", msg.text);
    }
    fprintf(stderr, "pqpan %s: %s\n", CMD, msg.text); /* as outfile.c says a file's error */
    return run_fail(r, rc, "--out", "cannot create --out");
}

static int rows_of(struct run_ctx *r, const struct compare_opts *o, const struct model_env *env,
                   const struct pqpan_run_compare_cell cells[N_CELLS])
{
    struct compare_notes notes;
    size_t i;
    int rc;
    notes.o = o;
    notes.env = env;
    notes.protocol = cells[0].protocol;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    for (i = 0; i < N_CELLS && rc == PQPAN_OK; i++) {
        rc = run_record(r, PQPAN_RUN_RECORD_CELL, PQPAN_RUN_LINK_BLE, cell_fields, N_CELL_FIELDS,
                        &cells[i]);
    }
    return rc;
}

/* The BLE / 802.15.4 table: its cells, their rows, --out's files. */
static int run_table(struct run_ctx *r, const struct compare_opts *o, const struct model_env *env)
{
    struct pqpan_run_compare_cell cells[N_CELLS];
    int rc = run_all(r, cells, env, o);
    if (rc == PQPAN_OK) {
        rc = rows_of(r, o, env, cells);
    }
    if (rc == PQPAN_OK && o->out != NULL) {
        rc = write_out(r, o->out, cells);
    }
    return rc;
}

int run_compare(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct compare_opts o;
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc = parse(r, &o, opts, n_opts);
    if (rc == PQPAN_OK && o.out != NULL) {
        rc = out_dir(r, o.out);
    }
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &o.m, &msg);
        rc = load == EXIT_OK ? PQPAN_OK : run_fail(r, load, NULL, msg.text);
    }
    if (rc == PQPAN_OK) {
        rc = o.mesh ? run_compare_mesh(r, &o, env) : run_table(r, &o, env);
    }
    free(env);
    return rc;
}
