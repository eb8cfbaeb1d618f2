/* pqpan simulate --link 802154: Monte Carlo runs of the 802.15.4 packet simulator
 * (src/sim/net154.c): the real PQKE between the exchanging pair plus background senders
 * on one channel; energy and latency percentiles, link and datagram counts, the failure
 * rate. */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lowpan_model.h"
#include "outfile.h"
#include "pqpan/sim154.h"
#include "opts_registry.h"

#define CMD "simulate"

struct lowpan_sim_opts {
    struct model_opts m;
    struct lowpan_opts l;
    struct lowpan_sim_cfg s;
    const char *pcap;
};

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

static void s154_init(void *p)
{
    struct lowpan_sim_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->l);
    lowpan_sim_cfg_init(&o->s);
}

const struct cli_opt_table simulate_802154_table =
    CLI_OPT_TABLE("simulate-802154", "simulation options (--link 802154)", s154_rows,
                  struct lowpan_sim_opts, s154_init);

void simulate_802154_help(FILE *out)
{
    fprintf(out,
            "\nIEEE 802.15.4 (--link 802154): the real exchange (pqpan's INIT / RESP / FIN with\n"
            "ML-KEM, each message one UDP datagram over 6LoWPAN: IPHC, RFC 4944 fragments,\n"
            "acknowledged frames, unslotted CSMA-CA, retries) between two nodes that share one\n"
            "channel with N - 2 background nodes, repeated over R seeded runs.\n"
            "A fragment out of MAC attempts loses its datagram (RFC 4944 has no per-fragment\n"
            "recovery): the receiver drops the partial datagram after the reassembly timeout,\n"
            "the sender's application sends the whole message again after the same time (or\n"
            "when no answer came within it; a repeated message is answered again). Prints\n"
            "mean, p50, p90, p99 of the energy (all states: every radio and CPU state, uJ)\n"
            "of the initiator, responder and both, of the latency (ms, KeyGen start to the end of\n"
            "the exchange, or to the failure), the mean per run of the pair's counts, and the\n"
            "fraction of failed exchanges (datagram retries exhausted, or keys not confirmed and\n"
            "equal). Channel load = (N - 2) x L x airtime of one background frame. BLE options do\n"
            "not apply; --auth, --sig, --hybrid and the energy options do (--busy does not: the\n"
            "channel is contended instead).\n");
    lowpan_opts_help(out);
    cli_opt_rows_help(out, &lowpan_chain_table);
    cli_opt_rows_help(out, &simulate_802154_table);
    fprintf(out,
            "\nOutput (--link 802154): table (default: the assumptions of `estimate --link\n"
            "802154`, then the statistics and counts), csv (one line per metric: the settings\n"
            "(kem, nodes, hidden, capture, load_fps, frame_bytes, channel_load_pct, ...,\n"
            "failed, failure_rate), then metric, mean, p50, p90, p99, currents, idle, backoff,\n"
            "mac_security, protocol; counts as <name>_per_run with the mean only) or json (the\n"
            "assumptions, energy_accounting \"all-states\", kem, addr, csma and a \"simulation\"\n"
            "object: the contention settings, runs, seed, failed, failure_rate, the statistics\n"
            "and per_run_mean). Exit codes (--link 802154): 0 even when some exchanges failed (the\n"
            "failure rate is the result), 2 usage, 3 bad data file, 4 I/O (--pcap).\n");
}

static int parse_args(struct lowpan_sim_opts *o, int argc, char **argv)
{
    int i;
    s154_init(o);
    for (i = 1; i < argc; i++) {
        int rc;
        if (cli_opt_find(&lowpan_busy_table, argv[i]) != NULL) {
            return cli_usage_error(CMD, "--busy is for estimate; simulate contends with --nodes "
                                        "and --load");
        }
        rc = cli_opt_take(&simulate_802154_table, o, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = link_pqke_parse(&o->l.pqke, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take(&lowpan_opts_table, &o->l, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take(&lowpan_exchange_table, &o->l, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take(&lowpan_chain_table, &o->l, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, "802154", argv[i]);
        }
    }
    if (o->s.hidden > o->s.nodes - 2u) {
        return cli_usage_error(CMD, "--hidden %u: at most N - 2 = %u background nodes", o->s.hidden,
                               o->s.nodes - 2u);
    }
    if (o->s.nodes == 2u && o->s.load_fps > 0.0) {
        cli_warn(CMD, "--load has no effect with --nodes 2: the background load is sent by the "
                      "N - 2 other nodes (add --nodes)");
    }
    return lowpan_pqke_usable(&o->l, CMD);
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

static void print_table(const struct lowpan_sim_opts *o, const struct model_env *env,
                        const struct lowpan_series *r)
{
    int k;
    printf("pqpan simulate: %s (%s protocol) over 6LoWPAN / IEEE 802.15.4, %s addresses,\n"
           "  CSMA-CA %s; %u nodes (%u background at %.3f frames/s of %u octets: channel load "
           "%.2f %%)\n  %u hidden from the initiator; capture %s; reassembly timeout %u ms, %u "
           "datagram retries\n  %u runs, seeds %llu..%llu; energy: all-states accounting\n",
           o->l.kem, lowpan_protocol_name(&o->l), o->l.short_addr ? "short" : "extended",
           o->l.contiki ? "contiki" : "ieee", o->s.nodes, o->s.nodes - 2u, o->s.load_fps, o->s.frame_psdu, load_pct(o), o->s.hidden,
           capture_name(o), o->s.reasm_timeout_ms, o->s.dgram_retries, o->s.runs, o->s.seed,
           o->s.seed + o->s.runs - 1u);
    lowpan_print_exchange_line(stdout, env, &o->l, "  ");
    lowpan_print_assumptions(stdout, env, &o->l, "  ");
    putchar('\n');
    printf("%-22s %12s %12s %12s %12s\n", "", "mean", "p50", "p90", "p99");
    for (k = 0; k <= MODEL_SIDES; k++) {
        const struct lowpan_stats *st = metric(r, k);
        printf("%-22s %12.3f %12.3f %12.3f %12.3f\n", metric_names[k], st->mean, st->p50,
               st->p90, st->p99);
    }
    printf("\nper run, both nodes (mean)\n");
    for (k = 0; k < (int)N_COUNTS; k++) {
        printf("%-26s %12.3f\n", count_fields[k].name, count_of(r, (size_t)k));
    }
    printf("\nfailed exchanges: %u of %u (%.4f)\n", r->failed, r->runs, failure_rate(r));
}

static void print_csv(const struct lowpan_sim_opts *o, const struct model_env *env,
                      const struct lowpan_series *r)
{
    const char *idle = lowpan_idle_listens(&o->l, env) ? "listen" : "sleep";
    const char *backoff = lowpan_backoff_listens(&o->l, env) ? "listen" : "sleep";
    int k;
    printf("kem,nodes,hidden,capture,load_fps,frame_bytes,channel_load_pct,reasm_timeout_ms,"
           "dgram_retries,runs,seed,failed,failure_rate,metric,mean,p50,p90,p99,currents,idle,"
           "backoff,mac_security,protocol,auth\n");
    for (k = 0; k <= MODEL_SIDES + (int)N_COUNTS; k++) {
        printf("%s,%u,%u,%s,%.3f,%u,%.3f,%u,%u,%u,%llu,%u,%.6f,", o->l.kem, o->s.nodes,
               o->s.hidden, capture_name(o), o->s.load_fps, o->s.frame_psdu, load_pct(o),
               o->s.reasm_timeout_ms, o->s.dgram_retries, r->runs, o->s.seed, r->failed, failure_rate(r));
        if (k <= MODEL_SIDES) {
            const struct lowpan_stats *st = metric(r, k);
            printf("%s,%.3f,%.3f,%.3f,%.3f,", metric_names[k], st->mean, st->p50, st->p90,
                   st->p99);
        } else {
            size_t c = (size_t)(k - MODEL_SIDES - 1);
            printf("%s_per_run,%.3f,,,,", count_fields[c].name, count_of(r, c));
        }
        printf("%s,%s,%s,%s,%s,%s\n", pqpan_current_table_name(env->table), idle, backoff,
               lowpan_sec_name(o->l.sec_level), lowpan_protocol_name(&o->l),
               pqpan_pqke_mode_name(o->l.pqke.mode));
    }
}

/* The assumptions and the link as estimate --link 802154 prints them, the accounting of
 * every energy here (all states, no gamma), then the Monte Carlo in a "simulation" object,
 * as simulate prints it for BLE. */
static void print_json(const struct lowpan_sim_opts *o, const struct model_env *env,
                       const struct lowpan_series *r)
{
    int k;
    printf("{\n  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(stdout, env, &o->l, "  ");
    printf("  \"energy_accounting\": \"all-states\",\n");
    printf("  \"kem\": \"%s\",\n  \"protocol\": \"%s\",\n  \"auth\": \"%s\",\n"
           "  \"addr\": \"%s\",\n  \"csma\": \"%s\",\n",
           o->l.kem, lowpan_protocol_name(&o->l), pqpan_pqke_mode_name(o->l.pqke.mode),
           o->l.short_addr ? "short" : "extended", o->l.contiki ? "contiki" : "ieee");
    printf("  \"simulation\": {\n    \"nodes\": %u,\n    \"hidden\": %u,\n    \"capture\": \"%s\",\n"
           "    \"load_fps\": %.3f,\n    \"frame_bytes\": %u,\n    \"channel_load_pct\": %.3f,\n"
           "    \"reasm_timeout_ms\": %u,\n    \"dgram_retries\": %u,\n    \"runs\": %u,\n"
           "    \"seed\": %llu,\n    \"failed\": %u,\n    \"failure_rate\": %.6f,\n",
           o->s.nodes, o->s.hidden, capture_name(o), o->s.load_fps, o->s.frame_psdu, load_pct(o),
           o->s.reasm_timeout_ms, o->s.dgram_retries, r->runs, o->s.seed, r->failed,
           failure_rate(r));
    for (k = 0; k <= MODEL_SIDES; k++) {
        const struct lowpan_stats *st = metric(r, k);
        printf("    \"%s\": {\"mean\": %.3f, \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f},\n",
               metric_names[k], st->mean, st->p50, st->p90, st->p99);
    }
    printf("    \"per_run_mean\": {");
    for (k = 0; k < (int)N_COUNTS; k++) {
        printf("%s\"%s\": %.3f", k > 0 ? ", " : "", count_fields[k].name, count_of(r, (size_t)k));
    }
    printf("}\n  }\n}\n");
}

static int run(struct lowpan_sim_opts *o, const struct model_env *env)
{
    struct lowpan_series r;
    struct cli_outfile pcap;
    struct cli_msg msg;
    int rc;
    if (o->l.hops > 1 && (o->pcap != NULL || o->s.nodes != 2u || o->m.format != FORMAT_TABLE)) {
        return cli_usage_error(CMD, "--hops > 1 runs the chain simulator: no --pcap, --nodes, "
                                    "--format csv|json yet");
    }
    if (o->l.hops > 1) {
        return lowpan_chain_simulate(env, &o->l, o->s.runs, o->s.seed);
    }
    if (o->pcap != NULL) {
        rc = cli_outfile_open(&pcap, CMD, o->pcap);
        if (rc != EXIT_OK) {
            return rc;
        }
        o->s.pcap = pcap.f;
    }
    o->s.progress_cmd = CMD;
    rc = cli_msg_report(CMD, lowpan_simulate(&r, env, &o->l, &o->s, &msg), &msg);
    if (o->s.pcap != NULL && cli_outfile_close(&pcap, CMD, rc == EXIT_OK || rc == EXIT_FAILURE_RUN) != EXIT_OK &&
        rc == EXIT_OK) {
        rc = EXIT_IO;
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->m.format == FORMAT_TABLE) {
        print_table(o, env, &r);
    } else if (o->m.format == FORMAT_CSV) {
        print_csv(o, env, &r);
    } else {
        print_json(o, env, &r);
    }
    return EXIT_OK;
}

int simulate_802154_run(int argc, char **argv)
{
    struct lowpan_sim_opts o;
    struct model_env *env;
    int rc = parse_args(&o, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = run(&o, env);
    }
    free(env);
    return rc;
}
