/* pqpan sig: ML-DSA (FIPS 204) key generation, signing and verification from hex inputs. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "opts.h"
#include "pqpan/sig.h"
#include "read_input.h"

#define CMD "sig"

/* The values given on the command line; NULL / 0 when absent. */
struct sig_args {
    const struct pqpan_sig *sig;
    struct cli_secret_arg seed, sk, rnd;
    const char *message, *context, *pk, *signature;
    int hedged, internal;
};

/* What the option table stores: the parameter set's index in sig_param_words and the
 * values as given. */
struct sig_opts {
    int param;
    struct sig_args args;
};

static const char *const sig_param_words[] = {"ML-DSA-44", "ML-DSA-65", "ML-DSA-87", NULL};

#define SIG_ARG(field) (offsetof(struct sig_opts, args) + offsetof(struct sig_args, field))

static const struct cli_opt sig_rows[] = {
    {.name = "--param", .kind = CLI_OPT_WORD, .meta = "P", .words = sig_param_words,
     .def = PQPAN_DEFAULT_SIG_PARAM, .store = CLI_STORE_INT,
     .offset = offsetof(struct sig_opts, param),
     .help = "parameter set (FIPS 204 section 4, Table 1)"},
    {.name = "--seed", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(seed.hex), .def = PQPAN_DEFAULT_SIG_SEED,
     .help = "keygen seed xi, 32 bytes (KeyGen_internal, Alg. 6)"},
    {.name = "--seed-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = SIG_ARG(seed.file), .help = CLI_SECRET_FILE_HELP("seed")},
    {.name = "--sk", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(sk.hex), .allowed = "hex of 2560, 4032 or 4896 bytes",
     .help = "secret key"},
    {.name = "--sk-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = SIG_ARG(sk.file),
     .help = CLI_SECRET_FILE_HELP("sk") " (sk: also the JSON that keygen prints)"},
    {.name = "--message", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(message), .help = "the message M (any length, '' for none)"},
    {.name = "--context", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(context), .def = PQPAN_DEFAULT_SIG_CONTEXT,
     .help = "context string, at most 255 bytes (Alg. 2, 3)"},
    {.name = "--rnd", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(rnd.hex), .def = PQPAN_DEFAULT_SIG_RND,
     .help = "signing randomness, 32 bytes"},
    {.name = "--rnd-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = SIG_ARG(rnd.file), .help = CLI_SECRET_FILE_HELP("rnd")},
    {.name = "--hedged", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT,
     .offset = SIG_ARG(hedged), .help = "rnd from the OS, getrandom (hedged signing)"},
    {.name = "--internal", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT,
     .offset = SIG_ARG(internal),
     .help = "take the message as M' of Sign_internal / Verify_internal (Alg. 7, 8): no "
             "context, no 0 || |ctx| || ctx prefix"},
    {.name = "--pk", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(pk), .help = "public key (1312 / 1952 / 2592 bytes)"},
    {.name = "--signature", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = SIG_ARG(signature), .help = "signature (2420 / 3309 / 4627 bytes)"},
};

static void sig_opts_init(void *p)
{
    struct sig_opts *o = p;
    memset(o, 0, sizeof *o);
    cli_opt_table_defaults(&sig_opts_table, o);
}

const struct cli_opt_table sig_opts_table =
    CLI_OPT_TABLE("sig", NULL, sig_rows, struct sig_opts, sig_opts_init);

const char *const sig_keygen_opts[] = {"--param", "--seed", "--seed-file", NULL};
const char *const sig_sign_opts[] = {"--param",   "--sk",      "--sk-file",  "--message",
                                     "--context", "--rnd",     "--rnd-file", "--hedged",
                                     "--internal", NULL};
const char *const sig_verify_opts[] = {"--param",   "--pk",       "--message", "--signature",
                                       "--context", "--internal", NULL};

void cli_sig_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan sig keygen [--param P] [--seed HEX | --seed-file F]\n"
            "       pqpan sig sign [--param P] (--sk HEX | --sk-file F) --message HEX\n"
            "                      [--context HEX] [--rnd HEX | --rnd-file F | --hedged]\n"
            "                      [--internal]\n"
            "       pqpan sig verify [--param P] --pk HEX --message HEX --signature HEX\n"
            "                        [--context HEX] [--internal]\n\n"
            "ML-DSA (FIPS 204). keygen prints {\"pk\":...,\"sk\":...}, sign {\"signature\":...},\n"
            "verify {\"valid\":true|false}: one JSON object on one line, byte strings as\n"
            "lowercase hex.\n\n"
            "options:\n");
    cli_opt_rows_help(out, &sig_opts_table);
    fprintf(out,
            "\n"
            "Exit codes: 0 success (verify: valid); 1 verify: the signature does not verify;\n"
            "2 usage; 3 bad hex, a wrong length, a secret key with coefficients out of range, or\n"
            "a signature whose hints HintBitUnpack (Alg. 21) refuses or whose ||z|| reaches\n"
            "gamma1 - beta (verify then prints {\"valid\":false} and the reason on stderr);\n"
            "4 a file or the OS random source cannot be read.\n");
}

/* The values of argv[2..argc) (argv[1] is the operation) through the option table. */
static int parse_args(int argc, char **argv, struct sig_args *a)
{
    struct sig_opts o;
    int rc;
    sig_opts_init(&o);
    rc = cli_opt_parse_all(&sig_opts_table, &o, CMD, argc, argv, 2);
    *a = o.args;
    a->sig = pqpan_sig_by_name(sig_param_words[o.param]);
    return rc;
}

/* Options that do not belong to the operation, or that exclude each other, are usage
 * errors. */
static int check_options(const struct sig_args *a, const char *op)
{
    const int keygen = strcmp(op, "keygen") == 0, sign = strcmp(op, "sign") == 0;
    const int verify = strcmp(op, "verify") == 0;
    if ((!keygen && cli_secret_given(&a->seed)) ||
        (!sign && (cli_secret_given(&a->sk) || cli_secret_given(&a->rnd) || a->hedged)) ||
        (!verify && (a->pk != NULL || a->signature != NULL)) ||
        (keygen && (a->message != NULL || a->context != NULL || a->internal))) {
        return cli_usage_error(CMD, "option not used by '%s'", op);
    }
    if (cli_secret_given(&a->rnd) && a->hedged) {
        return cli_usage_error(CMD, "--rnd (or --rnd-file) and --hedged exclude each other");
    }
    if (a->internal && a->context != NULL) {
        return cli_usage_error(CMD, "--internal takes M' as given: no --context");
    }
    if (sign && (a->message == NULL || !cli_secret_given(&a->sk))) {
        return cli_usage_error(CMD, "sign needs --sk or --sk-file, and --message");
    }
    if (verify && (a->pk == NULL || a->message == NULL || a->signature == NULL)) {
        return cli_usage_error(CMD, "verify needs --pk, --message and --signature");
    }
    return EXIT_OK;
}

/* Decodes --name HEX into exactly want bytes; a message and EXIT_BAD_INPUT otherwise. */
static int decode_input(uint8_t *out, size_t want, const char *name, const char *hex)
{
    return cli_decode_hex_exact(out, want, CMD, name, hex);
}

/* A byte string of any length (at most cap) from --name HEX. */
static int decode_any(uint8_t *out, size_t cap, size_t *len, const char *name, const char *hex)
{
    if (cli_hex_decode_any(out, cap, len, hex) != 0) {
        fprintf(stderr, "pqpan sig: --%s: not a hex string of at most %zu bytes\n", name, cap);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

static int run_keygen(const struct sig_args *a)
{
    uint8_t seed[PQPAN_MLDSA_SEED_BYTES], pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
    int rc = cli_secret_or_random(seed, sizeof seed, &a->seed, CMD, "seed");
    if (rc == EXIT_OK && a->sig->keypair_derand(pk, sk, seed) != PQPAN_OK) {
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("pk", pk, a->sig->pk_bytes, 1);
        cli_print_hex_field("sk", sk, a->sig->sk_bytes, 0);
        printf("}\n");
    }
    pqpan_wipe(seed, sizeof seed);
    pqpan_wipe(sk, sizeof sk);
    return rc;
}

/* The message (malloc()ed, at least one byte so that an empty message has a pointer). */
static int read_message(uint8_t **msg, size_t *len, const char *hex)
{
    const size_t cap = strlen(hex) / 2;
    *msg = malloc(cap + 1);
    if (*msg == NULL) {
        fprintf(stderr, "pqpan sig: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    return decode_any(*msg, cap, len, "message", hex);
}

/* rnd: --rnd HEX or --rnd-file F, 32 random bytes with --hedged, else 32 zero bytes
 * (deterministic). */
static int signing_rnd(uint8_t rnd[PQPAN_MLDSA_RND_BYTES], const struct sig_args *a)
{
    memset(rnd, 0, PQPAN_MLDSA_RND_BYTES);
    if (a->hedged || cli_secret_given(&a->rnd)) {
        return cli_secret_or_random(rnd, PQPAN_MLDSA_RND_BYTES, &a->rnd, CMD, "rnd");
    }
    return EXIT_OK;
}

static int run_sign(const struct sig_args *a)
{
    uint8_t sk[PQPAN_SIG_SK_MAX_BYTES], rnd[PQPAN_MLDSA_RND_BYTES], ctx[PQPAN_MLDSA_CTX_MAX_BYTES];
    uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES], *msg = NULL;
    size_t msg_len = 0, ctx_len = 0;
    int rc = cli_secret_read(sk, a->sig->sk_bytes, &a->sk, CMD, "sk");
    if (rc == EXIT_OK) {
        rc = read_message(&msg, &msg_len, a->message);
    }
    if (rc == EXIT_OK && a->context != NULL) {
        rc = decode_any(ctx, sizeof ctx, &ctx_len, "context", a->context);
    }
    if (rc == EXIT_OK) {
        rc = signing_rnd(rnd, a);
    }
    if (rc == EXIT_OK) {
        const int ret = a->internal ? a->sig->sign_internal(sig, sk, msg, msg_len, rnd)
                                    : a->sig->sign_derand(sig, sk, msg, msg_len, ctx, ctx_len, rnd);
        if (ret != PQPAN_OK) {
            fprintf(stderr, "pqpan sig: %s\n", pqpan_strerror(ret));
            rc = EXIT_BAD_INPUT;
        }
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("signature", sig, a->sig->sig_bytes, 1);
        printf("}\n");
    }
    free(msg);
    pqpan_wipe(sk, sizeof sk);
    pqpan_wipe(rnd, sizeof rnd);
    return rc;
}

/* Verification's verdict: valid (exit 0), invalid (1), or a malformed signature (3, with
 * the reason); the JSON is printed in every case the library decided. */
static int report_verdict(int ret)
{
    printf("{\"valid\":%s}\n", ret == PQPAN_OK ? "true" : "false");
    if (ret == PQPAN_OK) {
        return EXIT_OK;
    }
    if (ret == PQPAN_ERR_MALFORMED) {
        fprintf(stderr, "pqpan sig: malformed signature: hints refused by HintBitUnpack "
                        "(FIPS 204 Alg. 21) or ||z|| >= gamma1 - beta\n");
        return EXIT_BAD_INPUT;
    }
    fprintf(stderr, "pqpan sig: the signature does not verify\n");
    return EXIT_FAILURE_RUN;
}

static int run_verify(const struct sig_args *a)
{
    uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], ctx[PQPAN_MLDSA_CTX_MAX_BYTES];
    uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES], *msg = NULL;
    size_t msg_len = 0, ctx_len = 0;
    int rc = decode_input(pk, a->sig->pk_bytes, "pk", a->pk);
    if (rc == EXIT_OK) {
        rc = decode_input(sig, a->sig->sig_bytes, "signature", a->signature);
    }
    if (rc == EXIT_OK) {
        rc = read_message(&msg, &msg_len, a->message);
    }
    if (rc == EXIT_OK && a->context != NULL) {
        rc = decode_any(ctx, sizeof ctx, &ctx_len, "context", a->context);
    }
    if (rc == EXIT_OK) {
        rc = report_verdict(a->internal
                                ? a->sig->verify_internal(pk, msg, msg_len, sig, a->sig->sig_bytes)
                                : a->sig->verify(pk, msg, msg_len, ctx, ctx_len, sig,
                                                 a->sig->sig_bytes));
    }
    free(msg);
    return rc;
}

/* The operations, matched in any case. */
static const char *const sig_operations[] = {"keygen", "sign", "verify", NULL};

int cli_sig_run(int argc, char **argv)
{
    struct sig_args a;
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_sig_help(stdout);
        return EXIT_OK;
    }
    if (argc < 2) {
        return cli_usage_error(CMD, "missing operation (keygen, sign, verify)");
    }
    (void)cli_word_canonical(argv[1], sig_operations);
    if (strcmp(argv[1], "keygen") != 0 && strcmp(argv[1], "sign") != 0 &&
        strcmp(argv[1], "verify") != 0) {
        return cli_unknown_word(CMD, "operation", argv[1], sig_operations);
    }
    rc = parse_args(argc, argv, &a);
    if (rc == EXIT_OK) {
        rc = check_options(&a, argv[1]);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (strcmp(argv[1], "keygen") == 0) {
        return run_keygen(&a);
    }
    return strcmp(argv[1], "sign") == 0 ? run_sign(&a) : run_verify(&a);
}
