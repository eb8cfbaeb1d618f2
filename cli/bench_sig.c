/* pqpan bench sig: cycles and time per ML-DSA operation as a distribution (mean, median,
 * 99th percentile): signing repeats its rejection loop a random number of times
 * (FIPS 204 Alg. 7), so one figure does not describe it. */
#define _POSIX_C_SOURCE 199309L
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench.h"
#include "cli.h"
#include "platform.h"
#include "pqpan/sig.h"

#define CMD "bench"
#define MAX_ITERATIONS 10000000ULL

enum sig_op { OP_KEYGEN, OP_SIGN, OP_VERIFY, OP_COUNT };
static const char *const op_names[OP_COUNT + 1] = {"keygen", "sign", "verify", NULL};

void cli_bench_sig_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan bench sig [--param P] [--op keygen|sign|verify] [--iterations N]\n"
            "                       [--format table|csv|json]\n\n"
            "Runs ML-DSA operations on this machine and prints, per parameter set and\n"
            "operation, the mean, median and 99th percentile (nearest rank) over N runs of\n"
            "the time-stamp-counter cycles (x86_64 only, otherwise empty / null) and of the\n"
            "wall-clock time (CLOCK_MONOTONIC). keygen is KeyGen_internal (Alg. 6) with a\n"
            "different seed each run; sign is deterministic Sign (Alg. 2, empty context) of a\n"
            "different 32-byte message each run, so its number of rejection-loop attempts\n"
            "varies as it does in use; verify checks one signature (Alg. 3).\n\n"
            "options:\n"
            "  --param P         ML-DSA-44, ML-DSA-65 or ML-DSA-87 (default: all three)\n"
            "  --op OP           keygen, sign or verify (default: all three)\n"
            "  --iterations N    runs per operation, 1 to %llu (default %llu). With --op,\n"
            "                    exactly N operations of that kind run after one setup (a key\n"
            "                    pair, and a signature for verify), so an instruction count\n"
            "                    (valgrind --tool=callgrind) divided by N is per operation\n"
            "  --format F        table (default), csv or json\n",
            MAX_ITERATIONS, BENCH_DEFAULT_ITERATIONS);
}

/* Keys, message and signature of one parameter set, made once before the timed runs. */
struct sig_state {
    uint8_t seed[32], msg[32], rnd[32];
    uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES];
};

static int setup(const struct pqpan_sig *sig, int op, struct sig_state *s)
{
    memset(s, 0, sizeof *s);
    memset(s->seed, 0x5E, sizeof s->seed);
    memset(s->msg, 0x4D, sizeof s->msg);
    if (op == OP_KEYGEN) {
        return 0;
    }
    if (sig->keypair_derand(s->pk, s->sk, s->seed) != 0) {
        return -1;
    }
    return op == OP_VERIFY ? sig->sign_derand(s->sig, s->sk, s->msg, sizeof s->msg, NULL, 0, s->rnd)
                           : 0;
}

/* One operation; the seed or message bytes change with i. */
static int run_op(const struct pqpan_sig *sig, int op, struct sig_state *s, unsigned long long i)
{
    switch (op) {
    case OP_KEYGEN:
        memcpy(s->seed, &i, sizeof i);
        return sig->keypair_derand(s->pk, s->sk, s->seed);
    case OP_SIGN:
        memcpy(s->msg, &i, sizeof i);
        return sig->sign_derand(s->sig, s->sk, s->msg, sizeof s->msg, NULL, 0, s->rnd);
    default:
        return sig->verify(s->pk, s->msg, sizeof s->msg, NULL, 0, s->sig, sig->sig_bytes);
    }
}

static int measure(const struct pqpan_sig *sig, int op, unsigned long long n,
                   struct bench_dist_row *row, uint64_t *cycles, uint64_t *ns)
{
    static struct sig_state s;
    unsigned long long i;
    int failed = setup(sig, op, &s);
    for (i = 0; i < n && !failed; i++) {
        const uint64_t c0 = cli_cycles_now(), t0 = bench_now_ns();
        failed = run_op(sig, op, &s, i);
        ns[i] = bench_now_ns() - t0;
        cycles[i] = cli_cycles_now() - c0;
    }
    row->param = sig->name;
    row->op = op_names[op];
    row->iterations = n;
    bench_distribution(&row->cycles, cycles, (size_t)n);
    bench_distribution(&row->ns, ns, (size_t)n);
    return failed;
}

int cli_bench_sig_run(int argc, char **argv)
{
    struct bench_args o;
    const struct pqpan_sig *only = NULL;
    struct bench_dist_row rows[PQPAN_SIG_COUNT * OP_COUNT];
    uint64_t *cycles, *ns;
    size_t n_rows = 0, k;
    int rc = bench_parse_args(argc, argv, op_names, MAX_ITERATIONS, &o), op;
    if (rc == EXIT_OK && o.param != NULL && (only = pqpan_sig_by_name(o.param)) == NULL) {
        rc = cli_usage_error(CMD, "unknown parameter set '%s'", o.param);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    cycles = malloc((size_t)o.iterations * sizeof *cycles);
    ns = malloc((size_t)o.iterations * sizeof *ns);
    for (k = 0; k < PQPAN_SIG_COUNT && cycles != NULL && ns != NULL && rc == EXIT_OK; k++) {
        const struct pqpan_sig *sig = pqpan_sig_at(k);
        if (only != NULL && only != sig) {
            continue;
        }
        for (op = 0; op < OP_COUNT && rc == EXIT_OK; op++) {
            if (o.op >= 0 && o.op != op) {
                continue;
            }
            if (measure(sig, op, o.iterations, &rows[n_rows++], cycles, ns) != 0) {
                fprintf(stderr, "pqpan bench: %s %s failed\n", sig->name, op_names[op]);
                rc = EXIT_FAILURE_RUN;
            }
        }
    }
    if (cycles == NULL || ns == NULL) {
        fprintf(stderr, "pqpan bench: out of memory\n");
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        bench_print_dist(rows, n_rows, o.format);
    }
    free(cycles);
    free(ns);
    return rc;
}
