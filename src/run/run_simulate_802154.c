/* The run of `pqpan simulate --link 802154` at one hop (pqpan_run "simulate" with --link
 * 802154, run.h): Monte Carlo runs of the 802.15.4 packet simulator (src/sim/net154.c,
 * lowpan_sim.c), the real PQKE between the exchanging pair plus background senders on one
 * channel. Rows: a PROGRESS row before the first run and after each, the notes (the
 * table's heading; the JSON members, the "simulation" object included), a WARNING when
 * --load has no effect, one METRIC row per statistic (energy per side and latency: mean,
 * p50, p90, p99) and per count of the pair (mean per run), then the SIM154 row (the
 * settings, runs, failures). --hops > 1 runs the chain simulator instead (chain_sim.c:
 * the notes, one NODE row per node). */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "chain.h"
#include "lowpan.h"
#include "lowpan_sim.h"
#include "notes.h"
#include "outfile.h"
#include "pqpan/sim154.h"
#include "run_internal.h"
#include "run_simulate.h"

#define CMD "simulate"

/* --capture words (none = 0). */
static const char *const capture_words[] = {"none", "first", NULL};

_Static_assert(sizeof(unsigned) == sizeof(uint32_t), "the counts are stored as uint32_t");

#define S154(m) offsetof(struct lowpan_sim_opts, m)

static const struct cli_opt s154_rows[] = {
    {.name = "--nodes", .kind = CLI_OPT_UINT, .meta = "N", .min = 2,
     .max = PQPAN_SIM154_MAX_NODES, .def = PQPAN_DEFAULT_NODES, .store = CLI_STORE_U32,
     .offset = S154(s.nodes),
     .help = "nodes on the channel (2: the pair alone)"},
    {.name = "--load", .kind = CLI_OPT_NUMBER, .meta = "L", .unit = "frames/s", .min = 0,
     .max = 1000, .def = PQPAN_DEFAULT_LOAD, .store = CLI_STORE_DOUBLE, .offset = S154(s.load_fps),
     .help = "background frames offered by each background node, Poisson arrivals"},
    {.name = "--frame-bytes", .kind = CLI_OPT_UINT, .meta = "B", .unit = "octets",
     .min = PQPAN_SIM154_MIN_BG_PSDU, .max = PQPAN_802154_MAX_PSDU,
     .def = PQPAN_DEFAULT_FRAME_BYTES,
     .store = CLI_STORE_U32, .offset = S154(s.frame_psdu), .help = "background frame PSDU"},
    {.name = "--hidden", .kind = CLI_OPT_UINT, .meta = "K", .min = 0,
     .max = PQPAN_SIM154_MAX_NODES - 2u, .def = PQPAN_DEFAULT_HIDDEN, .store = CLI_STORE_U32,
     .offset = S154(s.hidden),
     .help = "background nodes hidden from the initiator (they and the initiator do not hear "
             "each other; the responder hears all), at most N - 2"},
    {.name = "--capture", .kind = CLI_OPT_WORD, .words = capture_words,
     .def = PQPAN_DEFAULT_CAPTURE,
     .store = CLI_STORE_INT, .offset = S154(s.capture_first),
     .help = "none: a frame overlapped at its receiver by a transmission the receiver hears is "
             "lost; first: a receiver that has the frame's SHR (160 us) keeps it whatever starts "
             "later, as if it were always the stronger signal (an optimistic bound: no received "
             "powers are modelled)"},
    /* RFC 4944 §5.3 caps the reassembly timeout at 60 s; the default is Contiki-NG's
     * SICSLOWPAN_REASS_MAXAGE (sim154.h) */
    {.name = "--reasm-timeout", .kind = CLI_OPT_UINT, .meta = "MS", .unit = "ms", .min = 1,
     .max = PQPAN_SIM154_REASM_TIMEOUT_MS_MAX, .def = PQPAN_DEFAULT_REASM_TIMEOUT,
     .store = CLI_STORE_U32,
     .offset = S154(s.reasm_timeout_ms),
     .help = "6LoWPAN reassembly timeout (default: Contiki-NG's SICSLOWPAN_REASS_MAXAGE; RFC "
             "4944 s5.3 caps it at 60 s); also the wait before a message is resent"},
    {.name = "--dgram-retries", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_SIM154_DGRAM_RETRIES_MAX, .def = PQPAN_DEFAULT_DGRAM_RETRIES,
     .store = CLI_STORE_U32,
     .offset = S154(s.dgram_retries),
     .help = "whole-message retransmissions after a lost datagram (default as CoAP's "
             "MAX_RETRANSMIT, RFC 7252 s4.8)"},
    {.name = "--runs", .kind = CLI_OPT_UINT, .meta = "R", .min = 1, .max = 100000,
     .def = PQPAN_DEFAULT_RUNS,
     .store = CLI_STORE_U32, .offset = S154(s.runs), .help = "Monte Carlo runs"},
    {.name = "--seed", .kind = CLI_OPT_UINT, .meta = "S", .min = 0, .max = (double)ULLONG_MAX,
     .def = PQPAN_DEFAULT_SEED, .store = CLI_STORE_ULL, .offset = S154(s.seed),
     .help = "run i uses seed S + i; the same seed gives byte-identical outputs"},
    {.name = "--pcap", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = S154(pcap),
     .help = "the frames of the FIRST run only (data with the real PQKE bytes, ACKs, "
             "background), LINKTYPE_IEEE802_15_4_WITHFCS (195)"},
};

void simulate_802154_opts_init(void *p)
{
    struct lowpan_sim_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->l);
    lowpan_sim_cfg_init(&o->s);
}

const struct cli_opt_table simulate_802154_table =
    CLI_OPT_TABLE("simulate-802154", "simulation options (--link 802154)", s154_rows,
                  struct lowpan_sim_opts, simulate_802154_opts_init);

/* simulate's tables with --link 802154, in the order the CLI tries them. */
static const struct cli_opt_table *const tables[] = {
    &simulate_802154_table, &model_energy_table,    &model_ramp_table,  &model_crypto_table,
    &model_gamma_table,     &cli_format_table,      &link_pqke_table,   &lowpan_opts_table,
    &lowpan_exchange_table, &lowpan_chain_table};
#define N_TABLES (sizeof tables / sizeof tables[0])

static void *base_of(struct lowpan_sim_opts *o, const struct cli_opt_table *t)
{
    if (t == &simulate_802154_table) {
        return o;
    }
    if (t == &cli_format_table) {
        return &o->m.format;
    }
    if (t == &link_pqke_table) {
        return &o->l.pqke;
    }
    return t == &lowpan_opts_table || t == &lowpan_exchange_table || t == &lowpan_chain_table
               ? (void *)&o->l
               : (void *)&o->m;
}

const struct cli_opt *simulate_802154_opt_row(const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_TABLES && found == NULL; k++) {
        found = cli_opt_find(tables[k], name);
    }
    return found;
}

static int take(struct run_ctx *r, struct lowpan_sim_opts *o, const struct pqpan_run_opt *opt)
{
    size_t k;
    if (cli_opt_find(&lowpan_busy_table, opt->name) != NULL) {
        return run_fail(r, EXIT_USAGE, opt->name,
                        "--busy is for estimate; simulate contends with --nodes and --load");
    }
    for (k = 0; k < N_TABLES; k++) {
        const struct cli_opt *row = cli_opt_find(tables[k], opt->name);
        if (row != NULL) {
            return run_set(r, row, base_of(o, tables[k]), opt);
        }
    }
    return run_unknown(r, opt->name, tables, N_TABLES);
}

/* The options, then what they ask together. */
static int parse(struct run_ctx *r, struct lowpan_sim_opts *o, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    struct cli_msg msg;
    size_t i;
    int rc = PQPAN_OK;
    simulate_802154_opts_init(o);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, o, &opts[i])
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (o->s.hidden > o->s.nodes - 2u) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "--hidden %u: at most N - 2 = %u background nodes",
                          o->s.hidden, o->s.nodes - 2u);
        return run_fail(r, EXIT_USAGE, "--hidden", msg.text);
    }
    if (o->s.nodes == 2u && o->s.load_fps > 0.0) {
        rc = run_warning(r, "--load has no effect with --nodes 2: the background load is sent by "
                            "the N - 2 other nodes (add --nodes)");
    }
    if (rc == PQPAN_OK && model_pqke_check(o->l.pqke.mode, o->l.pqke.sig, &msg) != EXIT_OK) {
        return run_fail(r, EXIT_USAGE, "--sig", msg.text);
    }
    if (rc == PQPAN_OK && o->l.hops > 1 && (o->pcap != NULL || o->s.nodes != 2u)) {
        return run_fail(r, EXIT_USAGE, o->pcap != NULL ? "--pcap" : "--nodes",
                        "--hops > 1 runs the chain simulator: no --pcap, --nodes");
    }
    return rc;
}

static const char *const metric_names[MODEL_SIDES + 1] = {
    "energy_initiator_uj", "energy_responder_uj", "energy_total_uj", "latency_ms"};

static const struct lowpan_stats *metric(const struct lowpan_series *r, int k)
{
    return k < MODEL_SIDES ? &r->energy_uj[k] : &r->latency_ms;
}

/* The pair's counts, mean per run: one row drives table, CSV and JSON. */
static const struct {
    const char *name;
    size_t off;
} count_fields[] = {
    {"data_frames", offsetof(struct lowpan_counts, frames)},
    {"mac_retries", offsetof(struct lowpan_counts, retries)},
    {"access_failures", offsetof(struct lowpan_counts, access_failures)},
    {"ccas", offsetof(struct lowpan_counts, ccas)},
    {"frames_lost_rx", offsetof(struct lowpan_counts, rx_lost)},
    {"datagram_retransmissions", offsetof(struct lowpan_counts, dgram_retx)},
    {"reassembly_timeouts", offsetof(struct lowpan_counts, reasm_timeouts)},
    {"duplicate_datagrams", offsetof(struct lowpan_counts, duplicates)},
};
#define N_COUNTS (sizeof count_fields / sizeof count_fields[0])

static double count_of(const struct lowpan_series *r, size_t k)
{
    double v;
    memcpy(&v, (const char *)&r->counts + count_fields[k].off, sizeof v);
    return v;
}

static double failure_rate(const struct lowpan_series *r)
{
    return (double)r->failed / (double)r->runs;
}

static double load_pct(const struct lowpan_sim_opts *o)
{
    return 100.0 * lowpan_channel_load(o->s.nodes - 2u, o->s.load_fps, o->s.frame_psdu);
}

static const char *capture_name(const struct lowpan_sim_opts *o)
{
    return o->s.capture_first ? "first" : "none";
}

/* What the notes are rendered from. */
struct notes154 {
    const struct lowpan_sim_opts *o;
    const struct model_env *env;
    const struct lowpan_series *r;
};

/* The lines a table prints before the statistics. */
static void table_notes(FILE *f, const void *arg)
{
    const struct notes154 *a = arg;
    const struct lowpan_sim_opts *o = a->o;
    fprintf(f, "pqpan simulate: %s (%s protocol) over 6LoWPAN / IEEE 802.15.4, %s addresses,\n"
               "  CSMA-CA %s; %u nodes (%u background at %.3f frames/s of %u octets: channel load "
               "%.2f %%)\n  %u hidden from the initiator; capture %s; reassembly timeout %u ms, %u "
               "datagram retries\n  %u runs, seeds %llu..%llu; energy: all-states accounting\n",
            o->l.kem, lowpan_protocol_name(&o->l), o->l.short_addr ? "short" : "extended",
            o->l.contiki ? "contiki" : "ieee", o->s.nodes, o->s.nodes - 2u, o->s.load_fps,
            o->s.frame_psdu, load_pct(o), o->s.hidden, capture_name(o), o->s.reasm_timeout_ms,
            o->s.dgram_retries, o->s.runs, o->s.seed, o->s.seed + o->s.runs - 1u);
    lowpan_print_exchange_line(f, a->env, &o->l, "  ");
    lowpan_print_assumptions(f, a->env, &o->l, "  ");
}

/* The JSON members: the assumptions and the link as estimate --link 802154 prints them,
 * the accounting of every energy here (all states, no gamma), then the Monte Carlo in a
 * "simulation" object, as simulate prints it for BLE (the last member: no comma). */
static void json_notes(FILE *f, const void *arg)
{
    const struct notes154 *a = arg;
    const struct lowpan_sim_opts *o = a->o;
    const struct lowpan_series *r = a->r;
    int k;
    fprintf(f, "  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(f, a->env, &o->l, "  ");
    fprintf(f, "  \"energy_accounting\": \"all-states\",\n");
    fprintf(f, "  \"kem\": \"%s\",\n  \"protocol\": \"%s\",\n  \"auth\": \"%s\",\n"
               "  \"addr\": \"%s\",\n  \"csma\": \"%s\",\n",
            o->l.kem, lowpan_protocol_name(&o->l), pqpan_pqke_mode_name(o->l.pqke.mode),
            o->l.short_addr ? "short" : "extended", o->l.contiki ? "contiki" : "ieee");
    fprintf(f, "  \"simulation\": {\n    \"nodes\": %u,\n    \"hidden\": %u,\n    \"capture\": \"%s\",\n"
               "    \"load_fps\": %.3f,\n    \"frame_bytes\": %u,\n    \"channel_load_pct\": %.3f,\n"
               "    \"reasm_timeout_ms\": %u,\n    \"dgram_retries\": %u,\n    \"runs\": %u,\n"
               "    \"seed\": %llu,\n    \"failed\": %u,\n    \"failure_rate\": %.6f,\n",
            o->s.nodes, o->s.hidden, capture_name(o), o->s.load_fps, o->s.frame_psdu, load_pct(o),
            o->s.reasm_timeout_ms, o->s.dgram_retries, r->runs, o->s.seed, r->failed,
            failure_rate(r));
    for (k = 0; k <= MODEL_SIDES; k++) {
        const struct lowpan_stats *st = metric(r, k);
        fprintf(f, "    \"%s\": {\"mean\": %.3f, \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f},\n",
                metric_names[k], st->mean, st->p50, st->p90, st->p99);
    }
    fprintf(f, "    \"per_run_mean\": {");
    for (k = 0; k < (int)N_COUNTS; k++) {
        fprintf(f, "%s\"%s\": %.3f", k > 0 ? ", " : "", count_fields[k].name,
                count_of(r, (size_t)k));
    }
    fprintf(f, "}\n  }\n");
}

#define S154F(m) offsetof(struct pqpan_run_sim154_row, m)
static const struct pqpan_run_field sim154_fields[] = {
    {"kem", "KEM", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(kem), 0},
    {"nodes", "nodes", NULL, 0, PQPAN_RUN_STORE_UINT, S154F(nodes), 0},
    {"hidden", "hidden from the initiator", NULL, 0, PQPAN_RUN_STORE_UINT, S154F(hidden), 0},
    {"capture", "capture", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(capture), 0},
    {"load_fps", "background load", "frames/s", 0, PQPAN_RUN_STORE_REAL, S154F(load_fps), 3},
    {"frame_bytes", "background frame", "octets", 0, PQPAN_RUN_STORE_UINT, S154F(frame_bytes), 0},
    {"channel_load_pct", "channel load", "%", 0, PQPAN_RUN_STORE_REAL, S154F(channel_load_pct), 3},
    {"reasm_timeout_ms", "reassembly timeout", "ms", 0, PQPAN_RUN_STORE_UINT,
     S154F(reasm_timeout_ms), 0},
    {"dgram_retries", "datagram retries", NULL, 0, PQPAN_RUN_STORE_UINT, S154F(dgram_retries), 0},
    {"runs", "runs", NULL, 0, PQPAN_RUN_STORE_UINT, S154F(runs), 0},
    {"seed", "seed", NULL, 0, PQPAN_RUN_STORE_ULL, S154F(seed), 0},
    {"failed", "failed exchanges", NULL, 0, PQPAN_RUN_STORE_UINT, S154F(failed), 0},
    {"failure_rate", "failure rate", NULL, 0, PQPAN_RUN_STORE_REAL, S154F(failure_rate), 6},
    {"currents", "currents", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(currents), 0},
    {"idle", "idle radio", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(idle), 0},
    {"backoff", "backoff radio", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(backoff), 0},
    {"mac_security", "MAC security", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(mac_security), 0},
    {"protocol", "protocol", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(protocol), 0},
    {"auth", "auth", NULL, 0, PQPAN_RUN_STORE_TEXT, S154F(auth), 0},
};
#define N_SIM154_FIELDS (sizeof sim154_fields / sizeof sim154_fields[0])

#define METRICF(m) offsetof(struct pqpan_run_metric_row, m)
static const struct pqpan_run_field metric_fields[] = {
    {"metric", "metric", NULL, 0, PQPAN_RUN_STORE_TEXT, METRICF(metric), 0},
    {"unit", "unit", NULL, 0, PQPAN_RUN_STORE_TEXT, METRICF(unit), 0},
    {"per_run", "a count, mean per run", NULL, 0, PQPAN_RUN_STORE_INT, METRICF(per_run), 0},
    {"mean", "mean", NULL, 0, PQPAN_RUN_STORE_REAL, METRICF(mean), 3},
    {"p50", "p50", NULL, 0, PQPAN_RUN_STORE_OPT_REAL, METRICF(p50), 3},
    {"p90", "p90", NULL, 0, PQPAN_RUN_STORE_OPT_REAL, METRICF(p90), 3},
    {"p99", "p99", NULL, 0, PQPAN_RUN_STORE_OPT_REAL, METRICF(p99), 3},
};
#define N_METRIC_FIELDS (sizeof metric_fields / sizeof metric_fields[0])

const struct pqpan_run_field *pqpan_run_sim154_fields(size_t *n)
{
    *n = N_SIM154_FIELDS;
    return sim154_fields;
}

const struct pqpan_run_field *pqpan_run_metric_fields(size_t *n)
{
    *n = N_METRIC_FIELDS;
    return metric_fields;
}


static int emit_summary(struct run_ctx *r, const struct lowpan_sim_opts *o,
                        const struct model_env *env, const struct lowpan_series *res)
{
    struct pqpan_run_sim154_row s;
    memset(&s, 0, sizeof s);
    s.kem = o->l.kem;
    s.nodes = o->s.nodes;
    s.hidden = o->s.hidden;
    s.capture = capture_name(o);
    s.load_fps = o->s.load_fps;
    s.frame_bytes = o->s.frame_psdu;
    s.channel_load_pct = load_pct(o);
    s.reasm_timeout_ms = o->s.reasm_timeout_ms;
    s.dgram_retries = o->s.dgram_retries;
    s.runs = res->runs;
    s.seed = o->s.seed;
    s.failed = res->failed;
    s.failure_rate = failure_rate(res);
    s.currents = pqpan_current_table_name(env->table);
    s.idle = lowpan_idle_listens(&o->l, env) ? "listen" : "sleep";
    s.backoff = lowpan_backoff_listens(&o->l, env) ? "listen" : "sleep";
    s.mac_security = lowpan_sec_name(o->l.sec_level);
    s.protocol = lowpan_protocol_name(&o->l);
    s.auth = pqpan_pqke_mode_name(o->l.pqke.mode);
    return run_record(r, PQPAN_RUN_RECORD_SIM154, PQPAN_RUN_LINK_802154, sim154_fields,
                      N_SIM154_FIELDS, &s);
}

/* The statistics (energy per side in uJ, latency in ms), then the pair's counts. */
static int emit_metrics(struct run_ctx *r, const struct lowpan_series *res)
{
    static const char *const units[MODEL_SIDES + 1] = {"uJ", "uJ", "uJ", "ms"};
    struct pqpan_run_metric_row m;
    int k, rc = PQPAN_OK;
    for (k = 0; k <= MODEL_SIDES && rc == PQPAN_OK; k++) {
        const struct lowpan_stats *st = metric(res, k);
        memset(&m, 0, sizeof m);
        m.metric = metric_names[k];
        m.unit = units[k];
        m.mean = st->mean;
        m.p50 = st->p50;
        m.p90 = st->p90;
        m.p99 = st->p99;
        rc = run_record(r, PQPAN_RUN_RECORD_METRIC, PQPAN_RUN_LINK_802154, metric_fields,
                        N_METRIC_FIELDS, &m);
    }
    for (k = 0; k < (int)N_COUNTS && rc == PQPAN_OK; k++) {
        memset(&m, 0, sizeof m);
        m.metric = count_fields[k].name;
        m.per_run = 1;
        m.mean = count_of(res, (size_t)k);
        m.p50 = m.p90 = m.p99 = -1.0;
        rc = run_record(r, PQPAN_RUN_RECORD_METRIC, PQPAN_RUN_LINK_802154, metric_fields,
                        N_METRIC_FIELDS, &m);
    }
    return rc;
}

#define PROGF(m) offsetof(struct pqpan_run_progress_row, m)
static const struct pqpan_run_field progress_fields[] = {
    {"done", "runs done", NULL, 0, PQPAN_RUN_STORE_UINT, PROGF(done), 0},
    {"runs", "runs", NULL, 0, PQPAN_RUN_STORE_UINT, PROGF(runs), 0},
};
#define N_PROGRESS_FIELDS (sizeof progress_fields / sizeof progress_fields[0])

void run_on_progress(void *ctx, unsigned done, unsigned runs)
{
    struct run_progress *p = ctx;
    struct pqpan_run_progress_row g;
    g.done = done;
    g.runs = runs;
    if (!p->stopped && run_record(p->r, PQPAN_RUN_RECORD_PROGRESS, PQPAN_RUN_LINK_802154,
                                  progress_fields, N_PROGRESS_FIELDS, &g) != PQPAN_OK) {
        p->stopped = 1;
    }
}

static int rows_of(struct run_ctx *r, const struct lowpan_sim_opts *o, const struct model_env *env,
                   const struct lowpan_series *res)
{
    struct notes154 notes;
    int rc;
    notes.o = o;
    notes.env = env;
    notes.r = res;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    rc = rc == PQPAN_OK ? emit_metrics(r, res) : rc;
    return rc == PQPAN_OK ? emit_summary(r, o, env, res) : rc;
}

static int simulate(struct run_ctx *r, struct lowpan_sim_opts *o, const struct model_env *env)
{
    struct lowpan_series res;
    struct cli_outfile pcap;
    struct run_progress prog;
    struct cli_msg msg;
    int rc;
    if (o->pcap != NULL) {
        if (cli_outfile_open(&pcap, CMD, o->pcap) != EXIT_OK) {
            (void)cli_msg_set(&msg, EXIT_IO, "cannot write %s", o->pcap);
            return run_fail(r, EXIT_IO, "--pcap", msg.text);
        }
        o->s.pcap = pcap.f;
    }
    prog.r = r;
    prog.stopped = 0;
    o->s.progress = run_on_progress;
    o->s.progress_ctx = &prog;
    rc = lowpan_simulate(&res, env, &o->l, &o->s, &msg);
    if (o->s.pcap != NULL &&
        cli_outfile_close(&pcap, CMD, rc == EXIT_OK || rc == EXIT_FAILURE_RUN) != EXIT_OK &&
        rc == EXIT_OK) {
        (void)cli_msg_set(&msg, EXIT_IO, "cannot write %s", o->pcap);
        return run_fail(r, EXIT_IO, "--pcap", msg.text);
    }
    if (prog.stopped) {
        return run_fail(r, EXIT_IO, NULL, "the caller stopped the run");
    }
    return rc != EXIT_OK ? run_fail(r, rc, NULL, msg.text) : rows_of(r, o, env, &res);
}

int run_simulate_802154(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct lowpan_sim_opts *o = malloc(sizeof *o);
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc;
    if (o == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = parse(r, o, opts, n_opts);
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &o->m, &msg);
        rc = load != EXIT_OK  ? run_fail(r, load, NULL, msg.text)
             : o->l.hops > 1 ? chain_simulate_run(r, env, &o->l, o->s.runs, o->s.seed)
                              : simulate(r, o, env);
    }
    free(env);
    free(o);
    return rc;
}
