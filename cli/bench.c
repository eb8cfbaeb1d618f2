/* pqpan bench: median cycles (time-stamp counter) and nanoseconds per ML-KEM operation
 * (`bench kem`), and the shared pieces of cli/bench.h; `bench sig` is cli/bench_sig.c,
 * `bench ecdh` cli/bench_ecdh.c. */
#define _POSIX_C_SOURCE 199309L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "commands.h"
#include "platform.h"
#include "pqpan/kem.h"
#include "opts_registry.h"

#define CMD "bench"
#define MAX_ITERATIONS 100000000ULL

enum kem_op { OP_KEYGEN, OP_ENCAPS, OP_DECAPS, OP_COUNT };
static const char *const op_names[OP_COUNT + 1] = {"keygen", "encaps", "decaps", NULL};

void cli_bench_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan bench kem [--param P] [--op keygen|encaps|decaps] [--iterations N]\n"
            "                       [--format table|csv|json]\n"
            "       pqpan bench sig ... (ML-DSA; `pqpan bench sig --help`)\n"
            "       pqpan bench ecdh ... (P-256; `pqpan bench ecdh --help`)\n\n"
            "Runs ML-KEM operations on this machine and prints, per parameter set and\n"
            "operation, the median over N runs of the time-stamp-counter cycles\n"
            "(median_cycles; x86_64 only, otherwise empty / null) and of the wall-clock time\n"
            "(median_ns, CLOCK_MONOTONIC). keygen is KeyGen_internal (Alg. 16), encaps\n"
            "Encaps_internal with the ek check (Alg. 17), decaps Decaps with the dk check\n"
            "(Alg. 21); seeds vary from run to run.\n\n"
            "options:\n");
    bench_options_help(out, &bench_kem_table);
}

struct bench_opts {
    const struct pqpan_kem *kem; /* NULL: all */
    struct bench_args a;
};

struct bench_row {
    const char *param;
    const char *op;
    unsigned long long iterations;
    unsigned long long median_cycles;
    unsigned long long median_ns;
};

void bench_args_init(void *p)
{
    struct bench_args *o = p;
    o->param = NULL;
    o->op = -1;
    o->iterations = pqpan_default_u32(PQPAN_DEFAULT_ITERATIONS);
    o->format = FORMAT_TABLE;
}

int bench_parse_args(int argc, char **argv, const struct cli_opt_table *options,
                     struct bench_args *o)
{
    const struct cli_opt_bind b[] = {{options, o, NULL}, {&cli_format_table, &o->format, NULL}};
    int i;
    bench_args_init(o);
    for (i = 2; i < argc; i++) {
        int rc = cli_opt_take_any(b, 2, CMD, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_unknown_option(CMD, NULL, argv[i]);
        }
    }
    return EXIT_OK;
}

void bench_options_help(FILE *out, const struct cli_opt_table *options)
{
    cli_opt_rows_help(out, options);
    cli_opt_rows_help(out, &cli_format_table);
}

int bench_set_param(void *field, const char *v)
{
    const char *param = strcmp(v, BENCH_ALL) == 0 ? NULL : v;
    memcpy(field, &param, sizeof param);
    return 0;
}

static void kem_names(cli_word_fn add, void *ctx)
{
    size_t k;
    add(ctx, BENCH_ALL);
    for (k = 0; pqpan_kem_at(k) != NULL; k++) {
        add(ctx, pqpan_kem_at(k)->name);
    }
}

static const struct cli_opt kem_rows[] = {
    BENCH_OPTION_ROWS(kem_names, op_names, MAX_ITERATIONS),
};

const struct cli_opt_table bench_kem_table =
    CLI_OPT_TABLE("bench-kem", "options", kem_rows, struct bench_args, bench_args_init);

/* The benchmarks, matched in any case. */
static const char *const bench_names[] = {"kem", "sig", "ecdh", NULL};

static int parse_args(int argc, char **argv, struct bench_opts *o)
{
    int rc;
    o->kem = NULL;
    if (argc < 2) {
        return cli_usage_error(CMD, "missing benchmark (available: kem, sig, ecdh)");
    }
    if (strcmp(argv[1], "kem") != 0) {
        return cli_unknown_word(CMD, "benchmark", argv[1], bench_names);
    }
    rc = bench_parse_args(argc, argv, &bench_kem_table, &o->a);
    if (rc == EXIT_OK && o->a.param != NULL) {
        o->kem = pqpan_kem_by_name(o->a.param);
        if (o->kem == NULL) {
            return cli_usage_error(CMD, "unknown parameter set '%s'", o->a.param);
        }
    }
    return rc;
}

uint64_t bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static int cmp_u64(const void *a, const void *b)
{
    const uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

uint64_t bench_median(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof v[0], cmp_u64);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void bench_distribution(struct bench_dist *d, uint64_t *v, size_t n)
{
    uint64_t sum = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        sum += v[i];
    }
    d->median = bench_median(v, n);
    d->mean = (sum + n / 2) / n;
    d->p99 = v[(99 * n + 99) / 100 - 1]; /* nearest rank: ceil(0.99 n) */
}

/* Keys and ciphertext for one parameter set, made once before the timed runs. */
struct kem_state {
    uint8_t d[32], z[32], m[32];
    uint8_t ek[PQPAN_KEM_EK_MAX_BYTES], dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t ct[PQPAN_KEM_CT_MAX_BYTES], ss[32];
};

static int setup(const struct pqpan_kem *kem, int op, struct kem_state *s)
{
    memset(s, 0, sizeof *s);
    memset(s->d, 0xD0, sizeof s->d);
    memset(s->z, 0x2A, sizeof s->z);
    memset(s->m, 0x4D, sizeof s->m);
    if (op == OP_KEYGEN) {
        return 0;
    }
    if (kem->keypair_derand(s->ek, s->dk, s->d, s->z) != 0) {
        return -1;
    }
    return op == OP_DECAPS ? kem->encaps_derand(s->ct, s->ss, s->ek, s->m) : 0;
}

/* One operation; the seed bytes change with i so rejection sampling varies. */
static int run_op(const struct pqpan_kem *kem, int op, struct kem_state *s, unsigned long long i)
{
    switch (op) {
    case OP_KEYGEN:
        memcpy(s->d, &i, sizeof i);
        return kem->keypair_derand(s->ek, s->dk, s->d, s->z);
    case OP_ENCAPS:
        memcpy(s->m, &i, sizeof i);
        return kem->encaps_derand(s->ct, s->ss, s->ek, s->m);
    default:
        return kem->decaps(s->ss, s->ct, s->dk);
    }
}

static int measure(const struct pqpan_kem *kem, int op, unsigned long long n,
                   struct bench_row *row, uint64_t *cycles, uint64_t *ns)
{
    static struct kem_state s;
    struct cli_progress progress;
    unsigned long long i;
    int failed = setup(kem, op, &s);
    cli_progress_start(&progress, CMD, kem->name, n);
    for (i = 0; i < n && !failed; i++) {
        const uint64_t c0 = cli_cycles_now(), t0 = bench_now_ns();
        failed = run_op(kem, op, &s, i);
        ns[i] = bench_now_ns() - t0;
        cycles[i] = cli_cycles_now() - c0;
        cli_progress_step(&progress, i + 1u); /* outside the timed span */
    }
    cli_progress_end(&progress);
    row->param = kem->name;
    row->op = op_names[op];
    row->iterations = n;
    row->median_cycles = bench_median(cycles, (size_t)n);
    row->median_ns = bench_median(ns, (size_t)n);
    return failed;
}

/* The output columns (STYLE.md habit 10): one row drives table, CSV and JSON. */
struct column {
    const char *name;
    int width;
    int is_text;
    int is_cycles;
};

static const struct column columns[] = {
    {"param", 12, 1, 0},          {"op", 7, 1, 0},        {"iterations", 11, 0, 0},
    {"median_cycles", 14, 0, 1}, {"median_ns", 11, 0, 0},
};
#define N_COLUMNS (sizeof columns / sizeof columns[0])

/* Formats the numbers of one row: nums[c] for numeric column c (text columns are param and
 * op); cycle columns are empty where the machine has no cycle counter. */
static void format_cell(const struct column *col, const char *param, const char *op,
                        unsigned long long num, int first, char *buf, size_t len)
{
    if (col->is_text) {
        snprintf(buf, len, "%s", first ? param : op);
    } else if (col->is_cycles && !PQPAN_CLI_HAVE_CYCLES) {
        buf[0] = '\0';
    } else {
        snprintf(buf, len, "%llu", num);
    }
}

/* Prints the header (table, CSV) or opens the JSON array. */
static void print_header(const struct column *cols, size_t n_cols, enum cli_format format)
{
    size_t c;
    for (c = 0; c < n_cols && format != FORMAT_JSON; c++) {
        if (format == FORMAT_TABLE) {
            printf(cols[c].is_text ? "%s%-*s" : "%s%*s", c ? " " : "", cols[c].width, cols[c].name);
        } else {
            printf(c ? ",%s" : "%s", cols[c].name);
        }
    }
    printf(format == FORMAT_JSON ? "[" : "\n");
}

/* Prints row r, its cells in cells[0..n_cols). */
static void print_row(const struct column *cols, size_t n_cols, char cells[][64], size_t r,
                      enum cli_format format)
{
    size_t c;
    for (c = 0; c < n_cols; c++) {
        const char *buf = cells[c];
        if (format == FORMAT_TABLE) {
            printf(cols[c].is_text ? "%s%-*s" : "%s%*s", c ? " " : "", cols[c].width,
                   buf[0] ? buf : "-");
        } else if (format == FORMAT_CSV) {
            printf(c ? ",%s" : "%s", buf);
        } else {
            printf("%s\"%s\":", c ? "," : (r ? ",{" : "{"), cols[c].name);
            printf(cols[c].is_text ? "\"%s\"" : "%s", buf[0] ? buf : "null");
        }
    }
    printf(format == FORMAT_JSON ? "}" : "\n");
}

static void print_rows(const struct bench_row *rows, size_t n, enum cli_format format)
{
    char cells[N_COLUMNS][64];
    size_t r, c;
    print_header(columns, N_COLUMNS, format);
    for (r = 0; r < n; r++) {
        const unsigned long long nums[] = {0, 0, rows[r].iterations, rows[r].median_cycles,
                                           rows[r].median_ns};
        for (c = 0; c < N_COLUMNS; c++) {
            format_cell(&columns[c], rows[r].param, rows[r].op, nums[c], c == 0, cells[c],
                        sizeof cells[c]);
        }
        print_row(columns, N_COLUMNS, cells, r, format);
    }
    if (format == FORMAT_JSON) {
        printf("]\n");
    }
}

/* The distribution benchmarks, each in its own file. */
static const struct {
    const char *name;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *out);
} dist_benches[] = {{"sig", cli_bench_sig_run, cli_bench_sig_help},
                    {"ecdh", cli_bench_ecdh_run, cli_bench_ecdh_help}};

int cli_bench_run(int argc, char **argv)
{
    struct bench_opts o;
    struct bench_row rows[PQPAN_KEM_COUNT * OP_COUNT];
    uint64_t *cycles, *ns;
    size_t n_rows = 0, k;
    int rc, op;
    if (argc >= 2) {
        (void)cli_word_canonical(argv[1], bench_names);
    }
    for (k = 0; argc >= 2 && k < sizeof dist_benches / sizeof dist_benches[0]; k++) {
        if (strcmp(argv[1], dist_benches[k].name) == 0) {
            if (cli_wants_help(argc, argv)) {
                dist_benches[k].help(stdout);
                return EXIT_OK;
            }
            return dist_benches[k].run(argc, argv);
        }
    }
    if (cli_wants_help(argc, argv)) {
        cli_bench_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(argc, argv, &o);
    if (rc != EXIT_OK) {
        return rc;
    }
    cycles = malloc((size_t)o.a.iterations * sizeof *cycles);
    ns = malloc((size_t)o.a.iterations * sizeof *ns);
    for (k = 0; k < PQPAN_KEM_COUNT && cycles != NULL && ns != NULL && rc == EXIT_OK; k++) {
        const struct pqpan_kem *kem = pqpan_kem_at(k);
        if (o.kem != NULL && o.kem != kem) {
            continue;
        }
        for (op = 0; op < OP_COUNT && rc == EXIT_OK; op++) {
            if (o.a.op >= 0 && o.a.op != op) {
                continue;
            }
            if (measure(kem, op, o.a.iterations, &rows[n_rows++], cycles, ns) != 0) {
                fprintf(stderr, "pqpan bench: %s %s failed\n", kem->name, op_names[op]);
                rc = EXIT_FAILURE_RUN;
            }
        }
    }
    if (cycles == NULL || ns == NULL) {
        fprintf(stderr, "pqpan bench: out of memory\n");
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        print_rows(rows, n_rows, o.a.format);
    }
    free(cycles);
    free(ns);
    return rc;
}

/* The columns of a distribution benchmark (STYLE.md habit 10: one table drives table,
 * CSV and JSON). */
static const struct column dist_columns[] = {
    {"param", 12, 1, 0},       {"op", 7, 1, 0},             {"iterations", 11, 0, 0},
    {"mean_cycles", 12, 0, 1}, {"median_cycles", 14, 0, 1}, {"p99_cycles", 12, 0, 1},
    {"mean_ns", 11, 0, 0},     {"median_ns", 11, 0, 0},     {"p99_ns", 11, 0, 0},
};
#define N_DIST_COLUMNS (sizeof dist_columns / sizeof dist_columns[0])

void bench_print_dist(const struct bench_dist_row *rows, size_t n, enum cli_format format)
{
    char cells[N_DIST_COLUMNS][64];
    size_t r, c;
    print_header(dist_columns, N_DIST_COLUMNS, format);
    for (r = 0; r < n; r++) {
        const struct bench_dist_row *w = &rows[r];
        const unsigned long long nums[] = {0, 0, w->iterations, w->cycles.mean, w->cycles.median,
                                           w->cycles.p99, w->ns.mean, w->ns.median, w->ns.p99};
        for (c = 0; c < N_DIST_COLUMNS; c++) {
            format_cell(&dist_columns[c], w->param, w->op, nums[c], c == 0, cells[c],
                        sizeof cells[c]);
        }
        print_row(dist_columns, N_DIST_COLUMNS, cells, r, format);
    }
    if (format == FORMAT_JSON) {
        printf("]\n");
    }
}
