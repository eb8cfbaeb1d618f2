/* Pieces shared by the `pqpan bench` benchmarks (cli/bench.c for ML-KEM, cli/bench_sig.c
 * for ML-DSA, cli/bench_ecdh.c for P-256; cli/bench_dist.c drives the last two). */
#ifndef PQPAN_CLI_BENCH_H
#define PQPAN_CLI_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "opts.h"

/* The --param word for every parameter set (each benchmark's words function lists it
 * first). */
#define BENCH_ALL "all"

/* The options every benchmark takes: --param (checked by the caller), --op (one of ops, a
 * NULL-terminated list), --iterations (1..max), --format. */
struct bench_args {
    const char *param;             /* NULL: all parameter sets */
    int op;                        /* index in ops, -1: all */
    unsigned long long iterations;
    enum cli_format format;
};

/* The defaults of struct bench_args (all sets, all operations, the default iterations,
 * table). */
void bench_args_init(void *o);

/* A cli_opt set function: --param's word into bench_args.param, NULL for BENCH_ALL. */
int bench_set_param(void *field, const char *v);

/* A benchmark's option rows (opts.h) in struct bench_args: --param (one of the words
 * params_fn lists: BENCH_ALL, then the sets), --op (one of ops), --iterations (1..max). */
#define BENCH_OPTION_ROWS(PARAMS_FN, OPS, MAX_N)                                                  \
    {.name = "--param", .kind = CLI_OPT_WORD, .meta = "P", .words_fn = PARAMS_FN,               \
     .def = PQPAN_DEFAULT_BENCH_PARAM, .set = bench_set_param,                                  \
     .offset = offsetof(struct bench_args, param), .help = "parameter set, or all of them"},     \
    {.name = "--op", .kind = CLI_OPT_WORD, .meta = "OP", .words = OPS,                          \
     .def = PQPAN_DEFAULT_BENCH_OP, .store = CLI_STORE_INT,                                     \
     .offset = offsetof(struct bench_args, op), .help = "operation"},                           \
    {.name = "--iterations", .kind = CLI_OPT_UINT, .meta = "N", .min = 1, .max = MAX_N,         \
     .def = PQPAN_DEFAULT_ITERATIONS, .store = CLI_STORE_ULL,                                   \
     .offset = offsetof(struct bench_args, iterations),                                         \
     .help = "runs per operation. With --op, exactly N operations of that kind run after one "  \
             "setup, so an instruction count (valgrind --tool=callgrind) divided by N is per "  \
             "operation"}

/* Parses argv[2..argc) (argv[1] names the benchmark) against options and --format. A
 * usage error for an unknown option, operation or value. */
int bench_parse_args(int argc, char **argv, const struct cli_opt_table *options,
                     struct bench_args *o);

/* The options of bench kem, sig and ecdh (bench.c, bench_sig.c, bench_ecdh.c). */
extern const struct cli_opt_table bench_kem_table;
extern const struct cli_opt_table bench_sig_table;
extern const struct cli_opt_table bench_ecdh_table;

/* A benchmark's option lines (its table and --format). */
void bench_options_help(FILE *out, const struct cli_opt_table *options);

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t bench_now_ns(void);

/* The median of v[0..n) (n > 0); sorts v. */
uint64_t bench_median(uint64_t *v, size_t n);

/* Mean, median and 99th percentile (nearest rank: the ceil(0.99 n)-th smallest) of n > 0
 * samples; sorts v. */
struct bench_dist {
    uint64_t mean, median, p99;
};
void bench_distribution(struct bench_dist *d, uint64_t *v, size_t n);

/* One row of a distribution benchmark (bench sig). */
struct bench_dist_row {
    const char *param;
    const char *op;
    unsigned long long iterations;
    struct bench_dist cycles, ns;
};

/* Prints rows as a table, CSV or JSON: param, op, iterations, mean_cycles, median_cycles,
 * p99_cycles, mean_ns, median_ns, p99_ns (cycles empty / null where the machine has no
 * cycle counter). */
void bench_print_dist(const struct bench_dist_row *rows, size_t n, enum cli_format format);

/* A distribution benchmark: parameter sets 0..n_params-1, operations ops[] (NULL-
 * terminated). setup(k, op) prepares set k for op once (keys, a signature); run(k, op, i)
 * is the i-th measured call, with inputs varied by i where the operation's cost depends on
 * them. Both return 0 on success. */
struct bench_dist_spec {
    const char *const *ops;
    size_t n_params;
    const char *(*param_name)(size_t k);
    int (*setup)(size_t k, int op);
    int (*run)(size_t k, int op, unsigned long long i);
    const struct cli_opt_table *options;
};
/* Rows a distribution benchmark may print (parameter sets x operations). */
#define BENCH_DIST_MAX_ROWS 16

/* Parses the options (bench_parse_args), measures and prints (bench_print_dist). */
int bench_dist_run(int argc, char **argv, const struct bench_dist_spec *spec);

/* `pqpan bench sig` (cli/bench_sig.c), `pqpan bench ecdh` (cli/bench_ecdh.c): argv[0] =
 * "bench", argv[1] = "sig" / "ecdh". */
int cli_bench_sig_run(int argc, char **argv);
void cli_bench_sig_help(FILE *out);
int cli_bench_ecdh_run(int argc, char **argv);
void cli_bench_ecdh_help(FILE *out);

#endif
