/* Pieces shared by the `pqpan bench` benchmarks (cli/bench.c for ML-KEM, cli/bench_sig.c
 * for ML-DSA, cli/bench_ecdh.c for P-256; cli/bench_dist.c drives the last two). */
#ifndef PQPAN_CLI_BENCH_H
#define PQPAN_CLI_BENCH_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"

/* Runs per operation when --iterations is not given. */
#define BENCH_DEFAULT_ITERATIONS 1000ULL

/* The options every benchmark takes: --param (checked by the caller), --op (one of ops, a
 * NULL-terminated list), --iterations (1..max), --format. */
struct bench_args {
    const char *param;             /* NULL: all parameter sets */
    int op;                        /* index in ops, -1: all */
    unsigned long long iterations;
    enum cli_format format;
};

/* Parses argv[2..argc) (argv[1] names the benchmark). A usage error for an unknown option,
 * operation or value. */
int bench_parse_args(int argc, char **argv, const char *const *ops,
                     unsigned long long max_iterations, struct bench_args *o);

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
    unsigned long long max_iterations;
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
