/* compare's run (src/run/run_compare.c, --mesh's in run_compare_mesh.c): its options and
 * tables, shared with the CLI (cli/compare.c: argv into a request). Private to the run layer
 * and its faces. */
#ifndef PQPAN_RUN_COMPARE_H
#define PQPAN_RUN_COMPARE_H

#include "lowpan.h"
#include "model.h"
#include "run_opts.h"

/* Background traffic that makes up a channel load: COMPARE_BG_NODES nodes sending
 * COMPARE_BG_PSDU-octet frames, each at load / (nodes x airtime(PSDU)) frames/s. */
#define COMPARE_BG_NODES 10u
#define COMPARE_BG_PSDU 60u

struct compare_opts {
    struct model_opts m;
    struct lowpan_opts l; /* only --idle, --backoff, --auth, --sig and --hybrid are taken */
    unsigned runs;
    unsigned long long seed;
    const char *out;
    int mesh; /* --mesh: the mesh table instead */
};

/* compare's own options, and the 802.15.4 options it takes: --idle and --ipv6-frag of the
 * exchange's, --backoff of the link's, --forwarding of the chain's (for --mesh). */
extern const struct cli_opt_table compare_opts_table;
extern const char *const compare_exchange[];
extern const char *const compare_backoff[];
extern const char *const compare_forwarding[];

/* The row of option name among compare's tables (NULL: none), *into where in *o its value
 * is stored. */
const struct cli_opt *compare_opt_row(const char *name, struct compare_opts *o, void **into);

/* --mesh's run (run_compare_mesh.c): the notes (table lines, JSON members), then one
 * MESH_CELL row per level and network, on o's radio states, forwarding and variant.
 * PQPAN_OK or the error. */
struct run_ctx;
int run_compare_mesh(struct run_ctx *r, const struct compare_opts *o,
                     const struct model_env *env);

#endif
