/* pqpan kem: ML-KEM key generation, encapsulation and decapsulation from hex inputs;
 * `kem acvp` is `pqpan acvp` (cli/acvp.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "pqpan/kem.h"
#include "read_input.h"

#define CMD "kem"
#define DEFAULT_PARAM "ML-KEM-768"

void cli_kem_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan kem keygen [--param P] [--d HEX | --d-file F]\n"
            "                        [--z HEX | --z-file F]\n"
            "       pqpan kem encaps [--param P] --ek HEX [--m HEX | --m-file F]\n"
            "       pqpan kem decaps [--param P] (--dk HEX | --dk-file F) --c HEX\n"
            "       pqpan kem acvp FILE (the same as pqpan acvp FILE)\n\n"
            "ML-KEM (FIPS 203). keygen prints {\"ek\":...,\"dk\":...}, encaps {\"c\":...,\"k\":...},\n"
            "decaps {\"k\":...}: one JSON object on one line, byte strings as lowercase hex.\n\n"
            "options:\n"
            "  --param P   parameter set: ML-KEM-512, ML-KEM-768 or ML-KEM-1024\n"
            "              (default " DEFAULT_PARAM ")\n"
            "  --d HEX     keygen seed d, 32 bytes (64 hex digits); default: from the OS (getrandom)\n"
            "  --z HEX     keygen implicit-rejection seed z, 32 bytes; default: from the OS\n"
            "  --ek HEX    encapsulation key (800 / 1184 / 1568 bytes); checked per FIPS 203 7.2\n"
            "  --m HEX     encaps randomness m, 32 bytes; default: from the OS (getrandom)\n"
            "  --dk HEX    decapsulation key (1632 / 2400 / 3168 bytes); checked per 7.3\n"
            "  --c HEX     ciphertext (768 / 1088 / 1568 bytes)\n"
            "  --X-file F  for the secrets X = d, z, m, dk: the value from file F ('-': stdin,\n"
            "              for one option) instead of the command line, as hex or as a JSON\n"
            "              object with member X (dk: the JSON that keygen prints); excludes --X\n"
            "\nacvp FILE runs a NIST ACVP vector file and prints the ACVP response (see\n"
            "`pqpan acvp --help`: ML-KEM and ML-DSA sets, --expected FILE).\n\n"
            "Hex may be upper or lower case. Bad hex, a wrong length or a key that fails its\n"
            "FIPS 203 section 7 check: message on stderr, nothing on stdout, exit 3; a file\n"
            "that cannot be read or the OS random source failing: exit 4.\n");
}

/* The values given on the command line; NULL when absent. */
struct kem_args {
    const struct pqpan_kem *kem;
    struct cli_secret_arg d, z, m, dk;
    const char *ek, *c;
};

/* The options with a value and where parse_args stores each (STYLE.md habit 10: one row
 * each). */
static const struct cli_option value_options[] = {
    {"--d", offsetof(struct kem_args, d.hex)},   {"--d-file", offsetof(struct kem_args, d.file)},
    {"--z", offsetof(struct kem_args, z.hex)},   {"--z-file", offsetof(struct kem_args, z.file)},
    {"--m", offsetof(struct kem_args, m.hex)},   {"--m-file", offsetof(struct kem_args, m.file)},
    {"--dk", offsetof(struct kem_args, dk.hex)}, {"--dk-file", offsetof(struct kem_args, dk.file)},
    {"--ek", offsetof(struct kem_args, ek)},     {"--c", offsetof(struct kem_args, c)},
};

static int parse_args(int argc, char **argv, struct kem_args *a)
{
    const char *param = DEFAULT_PARAM;
    int rc;
    memset(a, 0, sizeof *a);
    rc = cli_parse_options(argc, argv, 2, CMD, a, value_options,
                           sizeof value_options / sizeof value_options[0], NULL, 0, &param);
    if (rc != EXIT_OK) {
        return rc;
    }
    a->kem = pqpan_kem_by_name(param);
    if (a->kem == NULL) {
        return cli_usage_error(CMD, "unknown parameter set '%s' (ML-KEM-512, ML-KEM-768, ML-KEM-1024)",
                               param);
    }
    return EXIT_OK;
}

/* Decodes --name HEX into exactly want bytes; a message and EXIT_BAD_INPUT otherwise. */
static int decode_input(uint8_t *out, size_t want, const char *name, const char *hex)
{
    return cli_decode_hex_exact(out, want, CMD, name, hex);
}

/* A 32-byte seed from --NAME or --NAME-file, or from the OS (getrandom) when absent. */
static int seed_input(uint8_t out[32], const char *name, const struct cli_secret_arg *s)
{
    return cli_secret_or_random(out, 32, s, CMD, name);
}

static int report_lib_error(int ret)
{
    fprintf(stderr, "pqpan kem: %s\n", pqpan_strerror(ret));
    return ret == PQPAN_ERR_BAD_KEY || ret == PQPAN_ERR_BAD_LENGTH ? EXIT_BAD_INPUT
                                                                   : EXIT_FAILURE_RUN;
}

static int run_keygen(const struct kem_args *a)
{
    uint8_t d[32], z[32], ek[PQPAN_KEM_EK_MAX_BYTES], dk[PQPAN_KEM_DK_MAX_BYTES];
    int rc = seed_input(d, "d", &a->d);
    if (rc == EXIT_OK) {
        rc = seed_input(z, "z", &a->z);
    }
    if (rc == EXIT_OK) {
        int ret = a->kem->keypair_derand(ek, dk, d, z);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error(ret);
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("ek", ek, a->kem->ek_bytes, 1);
        cli_print_hex_field("dk", dk, a->kem->dk_bytes, 0);
        printf("}\n");
    }
    pqpan_wipe(d, sizeof d);
    pqpan_wipe(z, sizeof z);
    pqpan_wipe(dk, sizeof dk);
    return rc;
}

static int run_encaps(const struct kem_args *a)
{
    uint8_t ek[PQPAN_KEM_EK_MAX_BYTES], m[32], c[PQPAN_KEM_CT_MAX_BYTES], k[32];
    int rc, ret;
    if (a->ek == NULL) {
        return cli_usage_error(CMD, "encaps needs --ek");
    }
    rc = decode_input(ek, a->kem->ek_bytes, "ek", a->ek);
    if (rc == EXIT_OK) {
        rc = seed_input(m, "m", &a->m);
    }
    if (rc == EXIT_OK) {
        ret = a->kem->encaps_derand(c, k, ek, m);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error(ret);
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("c", c, a->kem->ct_bytes, 1);
        cli_print_hex_field("k", k, 32, 0);
        printf("}\n");
    }
    pqpan_wipe(m, sizeof m);
    pqpan_wipe(k, sizeof k);
    return rc;
}

static int run_decaps(const struct kem_args *a)
{
    uint8_t dk[PQPAN_KEM_DK_MAX_BYTES], c[PQPAN_KEM_CT_MAX_BYTES], k[32];
    int rc, ret;
    if (!cli_secret_given(&a->dk) || a->c == NULL) {
        return cli_usage_error(CMD, "decaps needs --dk or --dk-file, and --c");
    }
    rc = cli_secret_read(dk, a->kem->dk_bytes, &a->dk, CMD, "dk");
    if (rc == EXIT_OK) {
        rc = decode_input(c, a->kem->ct_bytes, "c", a->c);
    }
    if (rc == EXIT_OK) {
        ret = a->kem->decaps(k, c, dk);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error(ret);
    }
    if (rc == EXIT_OK) {
        cli_print_hex_field("k", k, 32, 1);
        printf("}\n");
    }
    pqpan_wipe(dk, sizeof dk);
    pqpan_wipe(k, sizeof k);
    return rc;
}

/* Options that do not belong to an operation are usage errors, as unknown ones are. */
static int check_unused(const struct kem_args *a, const char *op)
{
    const int keygen = strcmp(op, "keygen") == 0, encaps = strcmp(op, "encaps") == 0;
    const int decaps = strcmp(op, "decaps") == 0;
    if ((!keygen && (cli_secret_given(&a->d) || cli_secret_given(&a->z))) ||
        (!encaps && (a->ek != NULL || cli_secret_given(&a->m))) ||
        (!decaps && (cli_secret_given(&a->dk) || a->c != NULL))) {
        return cli_usage_error(CMD, "option not used by '%s'", op);
    }
    return EXIT_OK;
}

int cli_kem_run(int argc, char **argv)
{
    struct kem_args a;
    int rc, i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cli_kem_help(stdout);
            return EXIT_OK;
        }
    }
    if (argc < 2) {
        return cli_usage_error(CMD, "missing operation (keygen, encaps, decaps, acvp)");
    }
    if (strcmp(argv[1], "acvp") == 0) {
        return cli_acvp_run(argc - 1, argv + 1);
    }
    if (strcmp(argv[1], "keygen") != 0 && strcmp(argv[1], "encaps") != 0 &&
        strcmp(argv[1], "decaps") != 0) {
        return cli_usage_error(CMD, "unknown operation '%s'", argv[1]);
    }
    rc = parse_args(argc, argv, &a);
    if (rc == EXIT_OK) {
        rc = check_unused(&a, argv[1]);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (strcmp(argv[1], "keygen") == 0) {
        return run_keygen(&a);
    }
    return strcmp(argv[1], "encaps") == 0 ? run_encaps(&a) : run_decaps(&a);
}
