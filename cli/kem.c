/* pqpan kem: ML-KEM key generation, encapsulation and decapsulation from hex inputs, and
 * the ACVP runner (cli/kem_acvp.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "kem.h"
#include "pqpan/kem.h"

#define CMD "kem"
#define DEFAULT_PARAM "ML-KEM-768"

void cli_kem_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan kem keygen [--param P] [--d HEX] [--z HEX]\n"
            "       pqpan kem encaps [--param P] --ek HEX [--m HEX]\n"
            "       pqpan kem decaps [--param P] --dk HEX --c HEX\n"
            "       pqpan kem acvp FILE\n\n"
            "ML-KEM (FIPS 203). keygen prints {\"ek\":...,\"dk\":...}, encaps {\"c\":...,\"k\":...},\n"
            "decaps {\"k\":...}: one JSON object on one line, byte strings as lowercase hex.\n\n"
            "options:\n"
            "  --param P   parameter set: ML-KEM-512, ML-KEM-768 or ML-KEM-1024\n"
            "              (default " DEFAULT_PARAM ")\n"
            "  --d HEX     keygen seed d, 32 bytes (64 hex digits); default: from /dev/urandom\n"
            "  --z HEX     keygen implicit-rejection seed z, 32 bytes; default: /dev/urandom\n"
            "  --ek HEX    encapsulation key (800 / 1184 / 1568 bytes); checked per FIPS 203 7.2\n"
            "  --m HEX     encaps randomness m, 32 bytes; default: from /dev/urandom\n"
            "  --dk HEX    decapsulation key (1632 / 2400 / 3168 bytes); checked per 7.3\n"
            "  --c HEX     ciphertext (768 / 1088 / 1568 bytes)\n\n"
            "acvp FILE runs a NIST ACVP ML-KEM vector file (mode keyGen or encapDecap, prompt\n"
            "or internalProjection form, inputs at test or group level; FILE '-' is stdin) and\n"
            "prints the ACVP response: testGroups[].tests[] with tcId and the computed ek/dk,\n"
            "c/k, k or testPassed (hex in upper case as in ACVP).\n\n"
            "Hex may be upper or lower case. Bad hex, a wrong length or a key that fails its\n"
            "FIPS 203 section 7 check: message on stderr, nothing on stdout, exit 3.\n");
}

int cli_kem_hex_any(uint8_t *out, size_t cap, size_t *len, const char *hex)
{
    const size_t digits = strlen(hex);
    if (digits % 2 != 0 || digits / 2 > cap) {
        return -1;
    }
    *len = digits / 2;
    return cli_hex_decode(out, *len, hex);
}

/* The values given on the command line; NULL when absent. */
struct kem_args {
    const struct pqpan_kem *kem;
    const char *d, *z, *ek, *m, *dk, *c;
};

/* The hex options and where parse_args stores each (STYLE.md habit 10: one row each). */
static const struct {
    const char *name;
    size_t offset;
} hex_options[] = {
    {"--d", offsetof(struct kem_args, d)},   {"--z", offsetof(struct kem_args, z)},
    {"--ek", offsetof(struct kem_args, ek)}, {"--m", offsetof(struct kem_args, m)},
    {"--dk", offsetof(struct kem_args, dk)}, {"--c", offsetof(struct kem_args, c)},
};

static const char **option_slot(struct kem_args *a, const char *name)
{
    size_t i;
    for (i = 0; i < sizeof hex_options / sizeof hex_options[0]; i++) {
        if (strcmp(name, hex_options[i].name) == 0) {
            return (const char **)(void *)((char *)a + hex_options[i].offset);
        }
    }
    return NULL;
}

static int parse_args(int argc, char **argv, struct kem_args *a)
{
    const char *param = DEFAULT_PARAM;
    int i;
    memset(a, 0, sizeof *a);
    for (i = 2; i < argc; i++) {
        const char **slot = option_slot(a, argv[i]);
        if (strcmp(argv[i], "--param") != 0 && slot == NULL) {
            return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
        }
        if (i + 1 >= argc) {
            return cli_usage_error(CMD, "option %s needs a value", argv[i]);
        }
        if (slot != NULL) {
            *slot = argv[++i];
        } else {
            param = argv[++i];
        }
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
    const size_t digits = strlen(hex);
    if (digits % 2 == 0 && digits / 2 != want) {
        fprintf(stderr, "pqpan kem: --%s: %zu bytes, want %zu\n", name, digits / 2, want);
        return EXIT_BAD_INPUT;
    }
    if (cli_hex_decode(out, want, hex) != 0) {
        fprintf(stderr, "pqpan kem: --%s: not a hex string\n", name);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

static int urandom_rng(void *ctx, uint8_t *out, size_t len)
{
    FILE *f = fopen("/dev/urandom", "rb");
    size_t got = 0;
    (void)ctx;
    if (f != NULL) {
        got = fread(out, 1, len, f);
        fclose(f);
    }
    return got == len ? 0 : -1;
}

/* A 32-byte seed from --name HEX, or from /dev/urandom when the option is absent. */
static int seed_input(uint8_t out[32], const char *name, const char *hex)
{
    if (hex != NULL) {
        return decode_input(out, 32, name, hex);
    }
    if (urandom_rng(NULL, out, 32) != 0) {
        fprintf(stderr, "pqpan kem: cannot read /dev/urandom\n");
        return EXIT_IO;
    }
    return EXIT_OK;
}

static void print_hex_field(const char *name, const uint8_t *p, size_t len, int first)
{
    printf("%s\"%s\":\"", first ? "{" : ",", name);
    cli_hex_print(stdout, p, len);
    printf("\"");
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
    int rc = seed_input(d, "d", a->d);
    if (rc == EXIT_OK) {
        rc = seed_input(z, "z", a->z);
    }
    if (rc == EXIT_OK) {
        int ret = a->kem->keypair_derand(ek, dk, d, z);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error(ret);
    }
    if (rc == EXIT_OK) {
        print_hex_field("ek", ek, a->kem->ek_bytes, 1);
        print_hex_field("dk", dk, a->kem->dk_bytes, 0);
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
        rc = seed_input(m, "m", a->m);
    }
    if (rc == EXIT_OK) {
        ret = a->kem->encaps_derand(c, k, ek, m);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error(ret);
    }
    if (rc == EXIT_OK) {
        print_hex_field("c", c, a->kem->ct_bytes, 1);
        print_hex_field("k", k, 32, 0);
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
    if (a->dk == NULL || a->c == NULL) {
        return cli_usage_error(CMD, "decaps needs --dk and --c");
    }
    rc = decode_input(dk, a->kem->dk_bytes, "dk", a->dk);
    if (rc == EXIT_OK) {
        rc = decode_input(c, a->kem->ct_bytes, "c", a->c);
    }
    if (rc == EXIT_OK) {
        ret = a->kem->decaps(k, c, dk);
        rc = ret == PQPAN_OK ? EXIT_OK : report_lib_error(ret);
    }
    if (rc == EXIT_OK) {
        print_hex_field("k", k, 32, 1);
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
    if ((!keygen && (a->d != NULL || a->z != NULL)) || (!encaps && (a->ek != NULL || a->m != NULL)) ||
        (!decaps && (a->dk != NULL || a->c != NULL))) {
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
        if (argc != 3) {
            return cli_usage_error(CMD, "usage: pqpan kem acvp FILE");
        }
        return cli_kem_acvp(argv[2]);
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
