/* pqpan kem: ML-KEM key generation, encapsulation and decapsulation from hex inputs;
 * `kem acvp` is `pqpan acvp` (cli/acvp.c). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "opts.h"
#include "pqpan/kem.h"
#include "read_input.h"

#define CMD "kem"

/* The values given on the command line; NULL when absent. */
struct kem_args {
    const struct pqpan_kem *kem;
    struct cli_secret_arg d, z, m, dk;
    const char *ek, *c;
};

/* What the option table stores: the parameter set's index in kem_param_words and the
 * values as given. */
struct kem_opts {
    int param;
    struct kem_args args;
};

static const char *const kem_param_words[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", NULL};

#define KEM_ARG(field) (offsetof(struct kem_opts, args) + offsetof(struct kem_args, field))

static const struct cli_opt kem_rows[] = {
    {.name = "--param", .kind = CLI_OPT_WORD, .meta = "P", .words = kem_param_words,
     .def = PQPAN_DEFAULT_KEM_PARAM, .store = CLI_STORE_INT,
     .offset = offsetof(struct kem_opts, param),
     .help = "parameter set (FIPS 203 section 8, Table 2)"},
    {.name = "--d", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = KEM_ARG(d.hex), .def = PQPAN_DEFAULT_KEM_D,
     .help = "keygen seed d, 32 bytes (64 hex digits)"},
    {.name = "--d-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = KEM_ARG(d.file), .help = CLI_SECRET_FILE_HELP("d")},
    {.name = "--z", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = KEM_ARG(z.hex), .def = PQPAN_DEFAULT_KEM_Z,
     .help = "keygen implicit-rejection seed z, 32 bytes"},
    {.name = "--z-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = KEM_ARG(z.file), .help = CLI_SECRET_FILE_HELP("z")},
    {.name = "--ek", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = KEM_ARG(ek),
     .help = "encapsulation key (800 / 1184 / 1568 bytes); checked per FIPS 203 section 7.2"},
    {.name = "--m", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = KEM_ARG(m.hex), .def = PQPAN_DEFAULT_KEM_M,
     .help = "encaps randomness m, 32 bytes"},
    {.name = "--m-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = KEM_ARG(m.file), .help = CLI_SECRET_FILE_HELP("m")},
    {.name = "--dk", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = KEM_ARG(dk.hex),
     .help = "decapsulation key (1632 / 2400 / 3168 bytes); checked per section 7.3"},
    {.name = "--dk-file", .kind = CLI_OPT_TEXT, .meta = "F", .store = CLI_STORE_STR,
     .offset = KEM_ARG(dk.file),
     .help = CLI_SECRET_FILE_HELP("dk") " (dk: also the JSON that keygen prints)"},
    {.name = "--c", .kind = CLI_OPT_TEXT, .meta = "HEX", .store = CLI_STORE_STR,
     .offset = KEM_ARG(c), .help = "ciphertext (768 / 1088 / 1568 bytes)"},
};

static void kem_opts_init(void *p)
{
    struct kem_opts *o = p;
    memset(o, 0, sizeof *o);
    cli_opt_table_defaults(&kem_opts_table, o);
}

const struct cli_opt_table kem_opts_table =
    CLI_OPT_TABLE("kem", NULL, kem_rows, struct kem_opts, kem_opts_init);

const char *const kem_keygen_opts[] = {"--param", "--d", "--d-file", "--z", "--z-file", NULL};
const char *const kem_encaps_opts[] = {"--param", "--ek", "--m", "--m-file", NULL};
const char *const kem_decaps_opts[] = {"--param", "--dk", "--dk-file", "--c", NULL};

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
            "options:\n");
    cli_opt_rows_help(out, &kem_opts_table);
    fprintf(out,
            "\nacvp FILE runs a NIST ACVP vector file and prints the ACVP response (see\n"
            "`pqpan acvp --help`: ML-KEM and ML-DSA sets, --expected FILE).\n\n"
            "Hex may be upper or lower case. Bad hex, a wrong length or a key that fails its\n"
            "FIPS 203 section 7 check: message on stderr, nothing on stdout, exit 3; a file\n"
            "that cannot be read or the OS random source failing: exit 4.\n");
}

/* The values of argv[2..argc) (argv[1] is the operation) through the option table. */
static int parse_args(int argc, char **argv, struct kem_args *a)
{
    struct kem_opts o;
    int rc;
    kem_opts_init(&o);
    rc = cli_opt_parse_all(&kem_opts_table, &o, CMD, argc, argv, 2);
    *a = o.args;
    a->kem = pqpan_kem_by_name(kem_param_words[o.param]);
    return rc;
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

/* The operations, matched in any case. */
static const char *const kem_operations[] = {"keygen", "encaps", "decaps", "acvp", NULL};

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
    (void)cli_word_canonical(argv[1], kem_operations);
    if (strcmp(argv[1], "acvp") == 0) {
        return cli_acvp_run(argc - 1, argv + 1);
    }
    if (strcmp(argv[1], "keygen") != 0 && strcmp(argv[1], "encaps") != 0 &&
        strcmp(argv[1], "decaps") != 0) {
        return cli_unknown_word(CMD, "operation", argv[1], kem_operations);
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
