/* The PQKE over 6LoWPAN / IEEE 802.15.4 as the CLI runs it (`estimate --link 802154`,
 * `simulate --link 802154`, `compare`): options, the analytic estimator
 * (src/ieee802154/estimate.c) and the contention simulator (src/sim/net154.c)
 * → per-side rows of the BLE model's field table (ble_model.h), energy from src/energy. */
#ifndef PQPAN_CLI_LOWPAN_MODEL_H
#define PQPAN_CLI_LOWPAN_MODEL_H

#include <stdio.h>

#include "ble_model.h"
#include "link_opts.h"
#include "lowpan.h"
#include "pqpan/ieee802154.h"

/* Tries argv[*i] as an 802.15.4 link option (--link 802154 included). Returns 1 if
 * consumed, 0 if not one, -1 after a usage error. */
int lowpan_opts_parse(struct lowpan_opts *o, const char *cmd, int argc, char **argv, int *i);

/* If opt takes one word of a finite set (--kem, --csma, --addr, --idle, --backoff),
 * passes each to add and returns 1; else 0. */
int lowpan_opts_choices(const char *opt, cli_word_fn add, void *ctx);

/* Help lines for the link options. */
void lowpan_opts_help(FILE *out);

/* 1 if argv holds "--link 802154". */
int lowpan_link_requested(int argc, char **argv);

/* Whether opt is an option of --link 802154 only (estimate's, and with sim set also
 * simulate's): a BLE run names it in its message instead of calling it unknown. */
int lowpan_only_option(const char *opt, int sim);

/* "unknown option" for opt on the BLE link of cmd, or that it needs --link 802154.
 * Returns EXIT_USAGE. */
int lowpan_unknown_option(const char *cmd, const char *opt, int sim);

/* For the commands that run the real protocol (simulate, compare): EXIT_OK, or EXIT_USAGE
 * after a message for --sig without a sig mode. */
int lowpan_pqke_usable(const struct lowpan_opts *o, const char *cmd);

/* Airtime of one frame of psdu octets (SHR + PHR + PSDU), ms. */
double lowpan_frame_ms(unsigned psdu);

/* Fraction of the channel the background offers: bg_nodes × fps × frame airtime. */
double lowpan_channel_load(unsigned bg_nodes, double fps, unsigned psdu);

/* One Monte Carlo series of the contention simulator. */
struct lowpan_stats {
    double mean, p50, p90, p99;
};

/* Mean and nearest-rank percentiles of v[0..n), n > 0 (sorts v). */
void lowpan_stats_of(struct lowpan_stats *st, double *v, unsigned n);

/* Counts of both exchanging nodes, mean per run (pqpan_sim154_result). */
struct lowpan_counts {
    double frames, retries, access_failures, ccas, rx_lost, dgram_retx, reasm_timeouts,
        duplicates;
};

struct lowpan_series {
    unsigned runs, failed;
    struct lowpan_stats energy_uj[MODEL_SIDES]; /* events accounting (every state) */
    struct lowpan_stats latency_ms;
    struct lowpan_counts counts;
};

struct lowpan_sim_cfg {
    unsigned nodes;
    unsigned hidden;            /* background nodes hidden from the initiator */
    int capture_first;          /* PQPAN_SIM154_CAPTURE_FIRST, else none */
    double load_fps;
    unsigned frame_psdu;
    unsigned reasm_timeout_ms;  /* RFC 4944 §5.3 reassembly timeout */
    unsigned dgram_retries;     /* whole-message retransmissions by the application */
    unsigned runs;
    unsigned long long seed;
    FILE *pcap; /* NULL: none; else the first run's frames (LINKTYPE 195) */
    const char *progress_cmd; /* NULL: quiet; else a progress line for this command (cli.h) */
};

/* Defaults: 2 nodes, no load, 60-octet background frames, no hidden node, 100 runs,
 * seed 1, the simulator's reassembly timeout and datagram retries (sim154.h). */
void lowpan_sim_cfg_init(struct lowpan_sim_cfg *s);

/* Runs s->runs seeded exchanges. A cli.h exit code, message in *msg. */
int lowpan_simulate(struct lowpan_series *out, const struct model_env *env,
                    const struct lowpan_opts *o, const struct lowpan_sim_cfg *s,
                    struct cli_msg *msg);

/* simulate --link 802154 (cli/simulate_802154.c): help section and run. */
void simulate_802154_help(FILE *out);
int simulate_802154_run(int argc, char **argv);

/* --hops > 1: the PQKE across a chain (lowpan_chain.c, include/pqpan/multihop154.h).
 * estimate prints energy per node and latency; simulate runs the chain simulator (runs
 * seeds from seed). A cli.h exit code. */
int lowpan_chain_estimate(const struct model_env *env, const struct lowpan_opts *o,
                          enum cli_format format);
int lowpan_chain_simulate(const struct model_env *env, const struct lowpan_opts *o, unsigned runs,
                          uint64_t seed);

/* The chain's estimate in a few numbers (sweep, compare, make run): latency and the energy
 * (all-states accounting) of the initiator, the busiest forwarder (< 0: none, one hop) and
 * the responder. A cli.h exit code, message in *msg. */
struct lowpan_chain_summary {
    unsigned hops;
    double latency_ms;
    double initiator_uj, forwarder_uj, responder_uj;
};
int lowpan_chain_summarize(struct lowpan_chain_summary *s, const struct model_env *env,
                           const struct lowpan_opts *o, struct cli_msg *msg);

#endif
