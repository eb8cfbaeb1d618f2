/* pqpan simulate --link 802154: Monte Carlo runs of the contention simulator
 * (src/ieee802154/contention.c): the exchanging pair plus background senders on one
 * channel; energy and latency percentiles and the failure rate. */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lowpan_model.h"

#define CMD "simulate"

struct lowpan_sim_opts {
    struct model_opts m;
    struct lowpan_opts l;
    struct lowpan_sim_cfg s;
    const char *pcap;
};

void simulate_802154_help(FILE *out)
{
    fprintf(out,
            "\nIEEE 802.15.4 (--link 802154): the exchange (pqpan's INIT / RESP / FIN over 6LoWPAN,\n"
            "acknowledged frames, unslotted CSMA-CA, retries) between two nodes that share one\n"
            "channel with N - 2 background nodes (all in range, no capture effect), repeated over\n"
            "R seeded runs. Prints mean, p50, p90, p99 of the energy (all-states accounting: every\n"
            "radio and CPU state, uJ) of the initiator, responder and both, of the latency (ms,\n"
            "KeyGen start to FIN acknowledged, or to the failure), and the fraction of failed\n"
            "exchanges (a frame out of attempts). Channel load = (N - 2) x L x airtime of one\n"
            "background frame. BLE options do not apply.\n");
    lowpan_opts_help(out);
    fprintf(out,
            "  --nodes N              nodes on the channel, 2..200 (default 2: the pair alone)\n"
            "  --load L               background frames/s offered by each background node,\n"
            "                         Poisson arrivals, 0..1000 (default 0)\n"
            "  --frame-bytes B        background frame PSDU octets, 17..127 (default 60)\n"
            "  --runs R               Monte Carlo runs, 1..100000 (default 100)\n"
            "  --seed S               run i uses seed S + i (default 1); the same seed gives\n"
            "                         byte-identical outputs\n"
            "  --pcap FILE            the frames of the FIRST run only (data, ACKs, background),\n"
            "                         LINKTYPE_IEEE802_15_4_WITHFCS (195)\n");
}

static int value_opt(struct lowpan_sim_opts *o, const char *opt, const char *v)
{
    unsigned long long u = 0;
    int bad = 0;
    if (strcmp(opt, "--nodes") == 0) {
        bad = cli_parse_uint(v, 2, PQPAN_802154_CSIM_MAX_NODES, &u) != 0;
        o->s.nodes = (unsigned)u;
    } else if (strcmp(opt, "--load") == 0) {
        bad = cli_parse_double(v, 0.0, 1000.0, &o->s.load_fps) != 0;
    } else if (strcmp(opt, "--frame-bytes") == 0) {
        bad = cli_parse_uint(v, 17, PQPAN_802154_MAX_PSDU, &u) != 0;
        o->s.frame_psdu = (unsigned)u;
    } else if (strcmp(opt, "--runs") == 0) {
        bad = cli_parse_uint(v, 1, 100000, &u) != 0;
        o->s.runs = (unsigned)u;
    } else if (strcmp(opt, "--seed") == 0) {
        bad = cli_parse_uint(v, 0, ~0ull, &o->s.seed) != 0;
    } else if (strcmp(opt, "--pcap") == 0) {
        o->pcap = v;
    } else {
        return 0;
    }
    if (bad) {
        cli_usage_error(CMD, "%s %s: out of range (see --help)", opt, v);
        return -1;
    }
    return 1;
}

static int parse_args(struct lowpan_sim_opts *o, int argc, char **argv)
{
    int i;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->l);
    o->s.nodes = 2;
    o->s.frame_psdu = 60;
    o->s.runs = 100;
    o->s.seed = 1;
    for (i = 1; i < argc; i++) {
        int rc = 0;
        if (strcmp(argv[i], "--busy") == 0) {
            return cli_usage_error(CMD, "--busy is for estimate; simulate contends with --nodes "
                                        "and --load");
        }
        if (i + 1 < argc) {
            rc = value_opt(o, argv[i], argv[i + 1]);
            i += rc > 0;
        }
        if (rc == 0) {
            rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = lowpan_opts_parse(&o->l, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_usage_error(CMD, "unknown option for --link 802154 '%s'", argv[i]);
        }
    }
    return EXIT_OK;
}

static const char *const metric_names[MODEL_SIDES + 1] = {
    "energy_initiator_uj", "energy_responder_uj", "energy_total_uj", "latency_ms"};

static const struct lowpan_stats *metric(const struct lowpan_series *r, int k)
{
    return k < MODEL_SIDES ? &r->energy_uj[k] : &r->latency_ms;
}

static double load_pct(const struct lowpan_sim_opts *o)
{
    return 100.0 * lowpan_channel_load(o->s.nodes - 2u, o->s.load_fps, o->s.frame_psdu);
}

static void print_table(const struct lowpan_sim_opts *o, const struct model_env *env,
                        const struct lowpan_series *r)
{
    int k;
    printf("pqpan simulate: %s (pqpan protocol) over 6LoWPAN / IEEE 802.15.4, %s addresses,\n"
           "  CSMA-CA %s; %u nodes (%u background at %.3f frames/s of %u octets: channel load "
           "%.2f %%)\n  %u runs, seeds %llu..%llu; energy: all-states accounting\n",
           o->l.kem, o->l.short_addr ? "short" : "extended", o->l.contiki ? "contiki" : "ieee",
           o->s.nodes, o->s.nodes - 2u, o->s.load_fps, o->s.frame_psdu, load_pct(o), o->s.runs,
           o->s.seed, o->s.seed + o->s.runs - 1u);
    lowpan_print_assumptions(stdout, env, &o->l, "  ");
    putchar('\n');
    printf("%-22s %12s %12s %12s %12s\n", "", "mean", "p50", "p90", "p99");
    for (k = 0; k <= MODEL_SIDES; k++) {
        const struct lowpan_stats *st = metric(r, k);
        printf("%-22s %12.3f %12.3f %12.3f %12.3f\n", metric_names[k], st->mean, st->p50,
               st->p90, st->p99);
    }
    printf("\nfailed exchanges: %u of %u (%.4f)\n", r->failed, r->runs,
           (double)r->failed / (double)r->runs);
}

static void print_csv(const struct lowpan_sim_opts *o, const struct model_env *env,
                      const struct lowpan_series *r)
{
    const char *idle = lowpan_idle_listens(&o->l, env) ? "listen" : "sleep";
    const char *backoff = lowpan_backoff_listens(&o->l, env) ? "listen" : "sleep";
    int k;
    printf("kem,nodes,load_fps,frame_bytes,channel_load_pct,runs,seed,failed,failure_rate,"
           "metric,mean,p50,p90,p99,currents,idle,backoff\n");
    for (k = 0; k <= MODEL_SIDES; k++) {
        const struct lowpan_stats *st = metric(r, k);
        printf("%s,%u,%.3f,%u,%.3f,%u,%llu,%u,%.6f,%s,%.3f,%.3f,%.3f,%.3f,%s,%s,%s\n", o->l.kem,
               o->s.nodes, o->s.load_fps, o->s.frame_psdu, load_pct(o), r->runs, o->s.seed,
               r->failed, (double)r->failed / (double)r->runs, metric_names[k], st->mean,
               st->p50, st->p90, st->p99, pqpan_current_table_name(env->table), idle, backoff);
    }
}

static void print_json(const struct lowpan_sim_opts *o, const struct model_env *env,
                       const struct lowpan_series *r)
{
    int k;
    printf("{\n  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(stdout, env, &o->l, "  ");
    printf("  \"kem\": \"%s\",\n  \"addr\": \"%s\",\n  \"csma\": \"%s\",\n  \"nodes\": %u,\n"
           "  \"load_fps\": %.3f,\n  \"frame_bytes\": %u,\n  \"channel_load_pct\": %.3f,\n"
           "  \"runs\": %u,\n  \"seed\": %llu,\n  \"failed\": %u,\n  \"failure_rate\": %.6f,\n",
           o->l.kem, o->l.short_addr ? "short" : "extended", o->l.contiki ? "contiki" : "ieee",
           o->s.nodes, o->s.load_fps, o->s.frame_psdu, load_pct(o), r->runs, o->s.seed,
           r->failed, (double)r->failed / (double)r->runs);
    for (k = 0; k <= MODEL_SIDES; k++) {
        const struct lowpan_stats *st = metric(r, k);
        printf("  \"%s\": {\"mean\": %.3f, \"p50\": %.3f, \"p90\": %.3f, \"p99\": %.3f}%s\n",
               metric_names[k], st->mean, st->p50, st->p90, st->p99, k < MODEL_SIDES ? "," : "");
    }
    printf("}\n");
}

static int run(struct lowpan_sim_opts *o, const struct model_env *env)
{
    struct lowpan_series r;
    int rc;
    if (o->pcap != NULL) {
        o->s.pcap = fopen(o->pcap, "wb");
        if (o->s.pcap == NULL) {
            fprintf(stderr, "pqpan %s: cannot write %s\n", CMD, o->pcap);
            return EXIT_IO;
        }
    }
    rc = lowpan_simulate(&r, env, &o->l, &o->s, CMD);
    if (o->s.pcap != NULL && fclose(o->s.pcap) != 0 && rc == EXIT_OK) {
        fprintf(stderr, "pqpan %s: cannot write %s\n", CMD, o->pcap);
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
    env = malloc(sizeof *env);
    if (env == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    rc = model_env_load(env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = run(&o, env);
    }
    free(env);
    return rc;
}
