/* The driver of the distribution benchmarks (`pqpan bench sig`, `pqpan bench ecdh`): runs
 * the chosen parameter sets and operations N times each and prints mean, median and 99th
 * percentile of cycles and time. The benchmarks differ only in their callbacks
 * (struct bench_dist_spec, cli/bench.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "platform.h"

#define CMD "bench"

/* The index of the parameter set named name, or -1. */
static int param_index(const struct bench_dist_spec *spec, const char *name)
{
    size_t k;
    for (k = 0; k < spec->n_params; k++) {
        if (strcmp(spec->param_name(k), name) == 0) {
            return (int)k;
        }
    }
    return -1;
}

/* Runs op of parameter set k n times after one setup; 0 if every run succeeded. */
static int measure(const struct bench_dist_spec *spec, size_t k, int op, unsigned long long n,
                   struct bench_dist_row *row, uint64_t *cycles, uint64_t *ns)
{
    struct cli_progress progress;
    char what[64];
    unsigned long long i;
    int failed = spec->setup(k, op);
    snprintf(what, sizeof what, "%s %s", spec->param_name(k), spec->ops[op]);
    cli_progress_start(&progress, CMD, what, n);
    for (i = 0; i < n && !failed; i++) {
        const uint64_t c0 = cli_cycles_now(), t0 = bench_now_ns();
        failed = spec->run(k, op, i);
        ns[i] = bench_now_ns() - t0;
        cycles[i] = cli_cycles_now() - c0;
        cli_progress_step(&progress, i + 1u); /* outside the timed span */
    }
    cli_progress_end(&progress);
    row->param = spec->param_name(k);
    row->op = spec->ops[op];
    row->iterations = n;
    bench_distribution(&row->cycles, cycles, (size_t)n);
    bench_distribution(&row->ns, ns, (size_t)n);
    return failed;
}

/* Measures every chosen (parameter set, operation) into rows; EXIT_FAILURE_RUN when one
 * failed. */
static int measure_all(const struct bench_dist_spec *spec, const struct bench_args *o, int only,
                       struct bench_dist_row *rows, size_t *n_rows, uint64_t *cycles, uint64_t *ns)
{
    size_t k;
    int op;
    for (k = 0; k < spec->n_params; k++) {
        for (op = 0; spec->ops[op] != NULL && (only < 0 || (size_t)only == k); op++) {
            if (o->op >= 0 && o->op != op) {
                continue;
            }
            if (measure(spec, k, op, o->iterations, &rows[(*n_rows)++], cycles, ns) != 0) {
                fprintf(stderr, "pqpan bench: %s %s failed\n", spec->param_name(k), spec->ops[op]);
                return EXIT_FAILURE_RUN;
            }
        }
    }
    return EXIT_OK;
}

int bench_dist_run(int argc, char **argv, const struct bench_dist_spec *spec)
{
    struct bench_args o;
    struct bench_dist_row rows[BENCH_DIST_MAX_ROWS];
    uint64_t *cycles, *ns;
    size_t n_rows = 0;
    int only = -1;
    int rc = bench_parse_args(argc, argv, spec->options, &o);
    if (rc == EXIT_OK && o.param != NULL && (only = param_index(spec, o.param)) < 0) {
        rc = cli_usage_error(CMD, "unknown parameter set '%s'", o.param);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    cycles = malloc((size_t)o.iterations * sizeof *cycles);
    ns = malloc((size_t)o.iterations * sizeof *ns);
    if (cycles == NULL || ns == NULL) {
        fprintf(stderr, "pqpan bench: out of memory\n");
        rc = EXIT_FAILURE_RUN;
    } else {
        rc = measure_all(spec, &o, only, rows, &n_rows, cycles, ns);
    }
    if (rc == EXIT_OK) {
        bench_print_dist(rows, n_rows, o.format);
    }
    free(cycles);
    free(ns);
    return rc;
}
