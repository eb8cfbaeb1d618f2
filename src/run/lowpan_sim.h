/* Private to the run layer and its faces: the Monte Carlo of the 802.15.4 contention
 * simulator (src/sim/net154.c) as `simulate --link 802154`, `compare` and `sweep` run it:
 * seeded runs of the real PQKE between the exchanging pair plus background senders on
 * one channel, their energy and latency statistics and the pair's counts. */
#ifndef PQPAN_RUN_LOWPAN_SIM_H
#define PQPAN_RUN_LOWPAN_SIM_H

#include <stdio.h>

#include "lowpan.h"
#include "model.h"

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
    /* NULL: quiet; else called with 0 before the first run and with k after the k-th, of
     * runs (the CLI's progress line) */
    void (*progress)(void *ctx, unsigned done, unsigned runs);
    void *progress_ctx;
};

/* Defaults: 2 nodes, no load, 60-octet background frames, no hidden node, 100 runs,
 * seed 1, the simulator's reassembly timeout and datagram retries (sim154.h). */
void lowpan_sim_cfg_init(struct lowpan_sim_cfg *s);

/* Runs s->runs seeded exchanges. A cli.h exit code, message in *msg. */
int lowpan_simulate(struct lowpan_series *out, const struct model_env *env,
                    const struct lowpan_opts *o, const struct lowpan_sim_cfg *s,
                    struct cli_msg *msg);

#endif
