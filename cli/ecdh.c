/* pqpan ecdh: P-256 key generation and ECDH (include/pqpan/ecdh.h) from hex inputs, in the
 * style of `pqpan kem`: one JSON object on stdout, byte strings as lowercase hex. */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "opts.h"
#include "pqpan/ecdh.h"
#include "read_input.h"

#define CMD "ecdh"
#define CURVE "P-256"

struct ecdh_args {
    struct cli_secret_arg sk;
    const char *pk;
};

/* What the option table stores: --param's index (P-256, the only curve) and the values as
 * given. */
struct ecdh_opts {
    int param;
    struct ecdh_args args;
};

static const char *const ecdh_param_words[] = {CURVE, NULL};

#define ECDH_ARG(field) (offsetof(struct ecdh_opts, args) + offsetof(struct ecdh_args, field))

static const struct cli_opt ecdh_rows[] = {
    {.name = "--sk", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = ECDH_ARG(sk.hex),
     .def = PQPAN_DEFAULT_ECDH_SK,
     .allowed = "hex of 32 bytes, 1 <= sk <= n - 1", .help = "private key"},
    {.name = "--sk-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = ECDH_ARG(sk.file),
     .help = CLI_SECRET_FILE_HELP("sk") " (sk: also the JSON that keygen prints)"},
    {.name = "--pk", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = ECDH_ARG(pk),
     .help = "the peer's public key, SEC 1 uncompressed (65 bytes, 04 || X || Y) or compressed "
             "(33 bytes, 02|03 || X); validated in full: not the point at infinity, "
             "coordinates below p, on the curve"},
    {.name = "--param", .kind = CLI_OPT_WORD, .meta = "P", .words = ecdh_param_words,
     .def = PQPAN_DEFAULT_ECDH_PARAM, .store = CLI_STORE_INT,
     .offset = offsetof(struct ecdh_opts, param),
     .help = "the curve (the only one; for symmetry with kem and sig)"},
};

static void ecdh_opts_init(void *p)
{
    memset(p, 0, sizeof(struct ecdh_opts));
    cli_opt_table_defaults(&ecdh_opts_table, p);
}

const struct cli_opt_table ecdh_opts_table =
    CLI_OPT_TABLE("ecdh", NULL, ecdh_rows, struct ecdh_opts, ecdh_opts_init);

const char *const ecdh_keygen_opts[] = {"--sk", "--sk-file", "--param", NULL};
const char *const ecdh_shared_opts[] = {"--sk", "--sk-file", "--pk", "--param", NULL};

void cli_ecdh_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan ecdh keygen [--sk HEX | --sk-file F]\n"
            "       pqpan ecdh shared (--sk HEX | --sk-file F) --pk HEX\n\n"
            "ECDH on NIST P-256 (SP 800-186; the ECC CDH primitive of SP 800-56A section\n"
            "5.7.1.2), constant time in the private key. keygen prints {\"sk\":...,\"pk\":...}\n"
            "with pk the SEC 1 uncompressed point 04 || X || Y; shared prints {\"shared\":...},\n"
            "the x-coordinate of sk * pk (32 bytes). Numbers are big-endian hex.\n\n"
            "options:\n");
    cli_opt_rows_help(out, &ecdh_opts_table);
    fprintf(out,
            "\n"
            "Hex may be upper or lower case. Bad hex, a wrong length, a private key out of\n"
            "range or a public key that is invalid or not on the curve: message on stderr,\n"
            "nothing on stdout, exit 3.\n");
}

/* The values of argv[2..argc) (argv[1] is the operation) through the option table. */
static int parse_args(int argc, char **argv, struct ecdh_args *a)
{
    struct ecdh_opts o;
    int rc;
    ecdh_opts_init(&o);
    rc = cli_opt_parse_all(&ecdh_opts_table, &o, CMD, argc, argv, 2);
    *a = o.args;
    return rc;
}

/* The library's error about --sk or --pk as an exit code, with a message that says what
 * is wrong with it. */
static int report_lib_error(const char *what, int ret)
{
    const char *why = pqpan_strerror(ret);
    if (ret == PQPAN_ERR_BAD_KEY) {
        why = strcmp(what, "--pk") == 0
                  ? "not a valid P-256 public key (the point at infinity, a coordinate >= p, "
                    "or a point not on the curve)"
                  : "private key out of range (1 <= sk <= n - 1)";
    } else if (ret == PQPAN_ERR_MALFORMED) {
        why = "not a SEC 1 point encoding (65 bytes 04 || X || Y, or 33 bytes 02|03 || X)";
    }
    fprintf(stderr, "pqpan %s: %s: %s\n", CMD, what, why);
    return ret == PQPAN_ERR_BAD_KEY || ret == PQPAN_ERR_MALFORMED ? EXIT_BAD_INPUT : EXIT_FAILURE_RUN;
}

/* The private key from --sk or --sk-file; 1 in *given if either was used. */
static int private_key(uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], const struct ecdh_args *a, int *given)
{
    *given = cli_secret_given(&a->sk);
    return *given ? cli_secret_read(sk, PQPAN_ECDH_P256_SECRET_BYTES, &a->sk, CMD, "sk") : EXIT_OK;
}

/* A pqpan_rng_fn on the OS random source (cli_random). */
static int os_rng(void *ctx, uint8_t *out, size_t len)
{
    (void)ctx;
    return cli_random(out, len);
}

static int run_keygen(const struct ecdh_args *a)
{
    uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], pk[PQPAN_ECDH_P256_PUBLIC_BYTES];
    int given, ret;
    int rc = private_key(sk, a, &given);
    if (rc == EXIT_OK) {
        ret = given ? pqpan_ecdh_p256_keypair_derand(pk, sk)
                    : pqpan_ecdh_p256_keypair(pk, sk, os_rng, NULL);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error("--sk", ret);
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("sk", sk, sizeof sk, 1);
        cli_print_hex_field("pk", pk, sizeof pk, 0);
        printf("}\n");
    }
    pqpan_wipe(sk, sizeof sk);
    return rc;
}

static int run_shared(const struct ecdh_args *a)
{
    uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], pk[PQPAN_ECDH_P256_PUBLIC_BYTES];
    uint8_t point[PQPAN_ECDH_P256_PUBLIC_BYTES], ss[PQPAN_ECDH_P256_SHARED_BYTES];
    size_t pk_len = 0;
    int given, ret, rc;
    if (a->pk == NULL || !cli_secret_given(&a->sk)) {
        return cli_usage_error(CMD, "shared needs --sk or --sk-file, and --pk");
    }
    if (cli_hex_decode_any(pk, sizeof pk, &pk_len, a->pk) != 0) {
        fprintf(stderr, "pqpan %s: --pk: not a hex string of at most %zu bytes\n", CMD, sizeof pk);
        return EXIT_BAD_INPUT;
    }
    rc = private_key(sk, a, &given);
    if (rc == EXIT_OK) {
        /* the point first, so that its error is told apart from the private key's */
        ret = pqpan_ecdh_p256_public_decode(point, pk, pk_len);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error("--pk", ret);
    }
    if (rc == EXIT_OK) {
        ret = pqpan_ecdh_p256_shared(ss, sk, point, sizeof point);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error("--sk", ret);
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("shared", ss, sizeof ss, 1);
        printf("}\n");
    }
    pqpan_wipe(sk, sizeof sk);
    pqpan_wipe(ss, sizeof ss);
    return rc;
}

/* The operations, matched in any case. */
static const char *const ecdh_operations[] = {"keygen", "shared", NULL};

int cli_ecdh_run(int argc, char **argv)
{
    struct ecdh_args a;
    int rc;
    if (cli_wants_help(argc, argv)) {
        cli_ecdh_help(stdout);
        return EXIT_OK;
    }
    if (argc < 2) {
        return cli_usage_error(CMD, "missing operation (keygen, shared)");
    }
    (void)cli_word_canonical(argv[1], ecdh_operations);
    if (strcmp(argv[1], "keygen") != 0 && strcmp(argv[1], "shared") != 0) {
        return cli_unknown_word(CMD, "operation", argv[1], ecdh_operations);
    }
    rc = parse_args(argc, argv, &a);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (strcmp(argv[1], "keygen") == 0) {
        return a.pk != NULL ? cli_usage_error(CMD, "option --pk not used by 'keygen'") : run_keygen(&a);
    }
    return run_shared(&a);
}
