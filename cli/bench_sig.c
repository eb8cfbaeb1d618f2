/* pqpan bench sig: cycles and time per ML-DSA operation as a distribution (mean, median,
 * 99th percentile): signing repeats its rejection loop a random number of times
 * (FIPS 204 Alg. 7), so one figure does not describe it. */
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "pqpan/sig.h"

#define MAX_ITERATIONS 10000000ULL

enum sig_op { OP_KEYGEN, OP_SIGN, OP_VERIFY, OP_COUNT };
static const char *const op_names[OP_COUNT + 1] = {"keygen", "sign", "verify", NULL};
_Static_assert(PQPAN_SIG_COUNT * OP_COUNT <= BENCH_DIST_MAX_ROWS, "every row fits the driver's table");

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
            "options:\n");
    bench_options_help(out, &bench_sig_table);
}

/* Keys, message and signature of one parameter set, made once before the timed runs. */
static struct sig_state {
    uint8_t seed[32], msg[32], rnd[32];
    uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES];
} state;

static const char *param_name(size_t k)
{
    return pqpan_sig_at(k)->name;
}

static void set_names(cli_word_fn add, void *ctx)
{
    size_t k;
    add(ctx, BENCH_ALL);
    for (k = 0; k < PQPAN_SIG_COUNT; k++) {
        add(ctx, param_name(k));
    }
}

static const struct cli_opt sig_rows[] = {
    BENCH_OPTION_ROWS(set_names, op_names, MAX_ITERATIONS),
};

const struct cli_opt_table bench_sig_table =
    CLI_OPT_TABLE("bench-sig", "options", sig_rows, struct bench_args, bench_args_init);

static int setup(size_t k, int op)
{
    const struct pqpan_sig *sig = pqpan_sig_at(k);
    struct sig_state *s = &state;
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
static int run_op(size_t k, int op, unsigned long long i)
{
    const struct pqpan_sig *sig = pqpan_sig_at(k);
    struct sig_state *s = &state;
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

int cli_bench_sig_run(int argc, char **argv)
{
    static const struct bench_dist_spec spec = {op_names,  PQPAN_SIG_COUNT, param_name,
                                                setup,     run_op,          &bench_sig_table};
    return bench_dist_run(argc, argv, &spec);
}
