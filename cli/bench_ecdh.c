/* pqpan bench ecdh: cycles and time per P-256 operation (include/pqpan/ecdh.h) as mean,
 * median and 99th percentile, like `bench sig`. The scalar multiplication is constant
 * time, so the spread is the machine's, not the input's. */
#include <string.h>

#include "bench.h"
#include "cli.h"
#include "pqpan/ecdh.h"

#define MAX_ITERATIONS 10000000ULL

enum ecdh_op { OP_KEYGEN, OP_SHARED, OP_DECODE, OP_COUNT };
static const char *const op_names[OP_COUNT + 1] = {"keygen", "shared", "decode", NULL};
_Static_assert(OP_COUNT <= BENCH_DIST_MAX_ROWS, "every row fits the driver's table");

void cli_bench_ecdh_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan bench ecdh [--param P-256] [--op keygen|shared|decode]\n"
            "                        [--iterations N] [--format table|csv|json]\n\n"
            "Runs P-256 operations on this machine and prints the mean, median and 99th\n"
            "percentile (nearest rank) over N runs of the time-stamp-counter cycles (x86_64\n"
            "only, otherwise empty / null) and of the wall-clock time (CLOCK_MONOTONIC).\n"
            "keygen is d -> d G (pqpan_ecdh_p256_keypair_derand) with a different d each run;\n"
            "shared is the x-coordinate of d Q for an uncompressed Q, validated first\n"
            "(pqpan_ecdh_p256_shared), with a different d each run; decode decompresses and\n"
            "validates a compressed public key (pqpan_ecdh_p256_public_decode: the square\n"
            "root that a compressed key adds to shared).\n\n"
            "options:\n");
    bench_options_help(out, &bench_ecdh_table);
}

/* The private key d (its last 8 bytes vary by run: d stays in [1, n-1] since its first
 * byte is below n's 0xff), the peer's public key in both encodings, and the outputs. */
static struct ecdh_state {
    uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], peer_sk[PQPAN_ECDH_P256_SECRET_BYTES];
    uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES], peer_pk[PQPAN_ECDH_P256_PUBLIC_BYTES];
    uint8_t peer_compressed[PQPAN_ECDH_P256_COMPRESSED_BYTES];
    uint8_t ss[PQPAN_ECDH_P256_SHARED_BYTES];
} state;

static const char *param_name(size_t k)
{
    (void)k;
    return "P-256";
}

static void curve_names(cli_word_fn add, void *ctx)
{
    add(ctx, BENCH_ALL);
    add(ctx, param_name(0));
}

static const struct cli_opt ecdh_rows[] = {
    BENCH_OPTION_ROWS(curve_names, op_names, MAX_ITERATIONS),
};

const struct cli_opt_table bench_ecdh_table =
    CLI_OPT_TABLE("bench-ecdh", "options", ecdh_rows, struct bench_args, bench_args_init);

static int setup(size_t k, int op)
{
    struct ecdh_state *s = &state;
    (void)k;
    memset(s, 0, sizeof *s);
    memset(s->sk, 0x4D, sizeof s->sk);
    memset(s->peer_sk, 0x5E, sizeof s->peer_sk);
    if (op == OP_KEYGEN) {
        return 0; /* no key generation outside the measured calls (callgrind counts them) */
    }
    if (pqpan_ecdh_p256_keypair_derand(s->peer_pk, s->peer_sk) != PQPAN_OK) {
        return -1;
    }
    return pqpan_ecdh_p256_public_compress(s->peer_compressed, s->peer_pk, sizeof s->peer_pk);
}

static int run_op(size_t k, int op, unsigned long long i)
{
    struct ecdh_state *s = &state;
    (void)k;
    memcpy(s->sk + sizeof s->sk - sizeof i, &i, sizeof i);
    switch (op) {
    case OP_KEYGEN:
        return pqpan_ecdh_p256_keypair_derand(s->pk, s->sk);
    case OP_SHARED:
        return pqpan_ecdh_p256_shared(s->ss, s->sk, s->peer_pk, sizeof s->peer_pk);
    default:
        return pqpan_ecdh_p256_public_decode(s->pk, s->peer_compressed, sizeof s->peer_compressed);
    }
}

int cli_bench_ecdh_run(int argc, char **argv)
{
    static const struct bench_dist_spec spec = {op_names, 1, param_name, setup, run_op,
                                                &bench_ecdh_table};
    return bench_dist_run(argc, argv, &spec);
}
