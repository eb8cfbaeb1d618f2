/* pqpan ecdh: P-256 key generation and ECDH (include/pqpan/ecdh.h) from hex inputs, in the
 * style of `pqpan kem`: one JSON object on stdout, byte strings as lowercase hex. */
#include <stddef.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "pqpan/ecdh.h"
#include "read_input.h"

#define CMD "ecdh"
#define CURVE "P-256"

void cli_ecdh_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan ecdh keygen [--sk HEX | --sk-file F]\n"
            "       pqpan ecdh shared (--sk HEX | --sk-file F) --pk HEX\n\n"
            "ECDH on NIST P-256 (SP 800-186; the ECC CDH primitive of SP 800-56A section\n"
            "5.7.1.2), constant time in the private key. keygen prints {\"sk\":...,\"pk\":...}\n"
            "with pk the SEC 1 uncompressed point 04 || X || Y; shared prints {\"shared\":...},\n"
            "the x-coordinate of sk * pk (32 bytes). Numbers are big-endian hex.\n\n"
            "options:\n"
            "  --sk HEX     private key, 32 bytes, 1 <= sk <= n - 1; keygen default: drawn from\n"
            "               the OS, getrandom (rejection sampling into that range)\n"
            "  --sk-file F  the private key from file F ('-': stdin), as hex or as the JSON that\n"
            "               keygen prints, so that it need not be on the command line\n"
            "  --pk HEX     the peer's public key, SEC 1 uncompressed (65 bytes, 04 || X || Y)\n"
            "               or compressed (33 bytes, 02|03 || X); validated in full: not the\n"
            "               point at infinity, coordinates below p, on the curve\n"
            "  --param P-256  the curve (the only one; for symmetry with kem and sig)\n\n"
            "Hex may be upper or lower case. Bad hex, a wrong length, a private key out of\n"
            "range or a public key that is invalid or not on the curve: message on stderr,\n"
            "nothing on stdout, exit 3.\n");
}

struct ecdh_args {
    struct cli_secret_arg sk;
    const char *pk;
};

static const struct cli_option value_options[] = {
    {"--sk", offsetof(struct ecdh_args, sk.hex)},
    {"--sk-file", offsetof(struct ecdh_args, sk.file)},
    {"--pk", offsetof(struct ecdh_args, pk)},
};

static int parse_args(int argc, char **argv, struct ecdh_args *a)
{
    const char *param = CURVE;
    int rc;
    memset(a, 0, sizeof *a);
    rc = cli_parse_options(argc, argv, 2, CMD, a, value_options,
                           sizeof value_options / sizeof value_options[0], NULL, 0, &param);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (strcmp(param, CURVE) != 0) {
        return cli_usage_error(CMD, "unknown curve '%s' (" CURVE ")", param);
    }
    return EXIT_OK;
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
    if (strcmp(argv[1], "keygen") != 0 && strcmp(argv[1], "shared") != 0) {
        return cli_usage_error(CMD, "unknown operation '%s'", argv[1]);
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
