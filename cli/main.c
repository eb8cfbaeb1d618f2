/* pqpan: dispatch only. Each subcommand lives in its own cli/<name>.c. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "opts_registry.h"
#include "pqpan/common.h"

const struct cli_command cli_commands[] = {
    {"estimate", "energy and latency of one key exchange, per side (analytic; BLE or 802.15.4)", cli_estimate_run, cli_estimate_help},
    {"simulate", "one key exchange packet by packet over a simulated BLE or 802.15.4 link (pcap, trace)", cli_simulate_run, cli_simulate_help},
    {"reproduce", "the SenSys '26 study's matrix and headline figures beside the model's", cli_reproduce_run, cli_reproduce_help},
    {"sweep", "estimate over a grid of configurations: one CSV / JSON Lines row each, threads, shards", cli_sweep_run, cli_sweep_help},
    {"compare", "PQKE over BLE (no DLE / DLE) vs IEEE 802.15.4 at 0, 10, 30 % channel load", cli_compare_run, cli_compare_help},
    {"idle", "what an idle link costs: average current and charge per connection event", cli_idle_run, cli_idle_help},
    {"advise", "the cheapest key-exchange settings for a battery device: battery life, floor", cli_advise_run, cli_advise_help},
    {"calibrate", "fit gamma_comp / gamma_comm to measured PPK2 traces, write a calibration file", cli_calibrate_run, cli_calibrate_help},
    {"trace", "energy per phase of a measured PPK2 current trace (CSV)", cli_trace_run, cli_trace_help},
    {"profiles", "device profiles: key figures and the source of every number", cmd_profiles_run, cmd_profiles_help},
    {"kem", "ML-KEM (FIPS 203) keygen / encaps / decaps", cli_kem_run, cli_kem_help},
    {"sig", "ML-DSA (FIPS 204) keygen / sign / verify", cli_sig_run, cli_sig_help},
    {"ecdh", "P-256 ECDH keygen / shared secret (the LE Secure Connections curve)", cli_ecdh_run, cli_ecdh_help},
    {"acvp", "run a NIST ACVP vector set (ML-KEM, ML-DSA), or check it against expected results", cli_acvp_run, cli_acvp_help},
    {"bench", "cycles and time per ML-KEM / ML-DSA / P-256 operation on this machine", cli_bench_run, cli_bench_help},
    {NULL, NULL, NULL, NULL},
};

static void print_main_help(FILE *out)
{
    const struct cli_command *c;
    fprintf(out,
            "pqpan %s - the energy, time and memory cost of post-quantum key establishment\n"
            "over Bluetooth LE and IEEE 802.15.4 / 6LoWPAN.\n\n"
            "usage: pqpan [--help | --version] COMMAND [OPTIONS]\n"
            "       pqpan help COMMAND\n"
            "       pqpan help --json | --options-md TABLE|COMMAND... | --defaults-md\n"
            "                                    (the options and their defaults as data)\n\n"
            "commands:\n",
            pqpan_version());
    for (c = cli_commands; c->name != NULL; c++) {
        fprintf(out, "  %-10s %s\n", c->name, c->summary);
    }
    fprintf(out,
            "\nData goes to stdout, messages to stderr.\n"
            "Files (--out, --pcap, --trace, figures): a regular or new FILE is written to\n"
            "FILE.tmp.PID beside it and renamed when complete; a symbolic link is followed\n"
            "(its target written, the link kept); a character device, FIFO, socket or\n"
            "descriptor (/dev/stdout, /dev/fd/N) is written directly; a directory or a block\n"
            "device is refused.\n"
            "exit codes:\n"
            "  0  success\n"
            "  1  the job ran and failed (e.g. a simulated exchange failed)\n"
            "  2  usage error: unknown command or option, bad option value\n"
            "  3  invalid input data: bad hex, wrong length, failed key check, corrupt file\n"
            "  4  a file could not be read or written\n"
            "  130  pqpan sweep interrupted by SIGINT (the rows done are written)\n");
}

/* The command called name (any case; name respelled as the command), or NULL. */
static const struct cli_command *find_command(char *name)
{
    const struct cli_command *c;
    for (c = cli_commands; c->name != NULL; c++) {
        if (cli_word_equal(c->name, name)) {
            cli_word_respell(name, c->name);
            return c;
        }
    }
    return NULL;
}

/* "unknown command 'NAME'" with the nearest commands, EXIT_USAGE. */
static int unknown_command(const char *name)
{
    const struct cli_command *c;
    struct cli_suggest s;
    cli_suggest_init(&s, name);
    for (c = cli_commands; c->name != NULL; c++) {
        cli_suggest_add(&s, c->name);
    }
    cli_suggest_add(&s, "help");
    return cli_usage_error(NULL, "unknown command '%s'%s", name, cli_suggest_text(&s));
}

static int run_help(int argc, char **argv)
{
    const struct cli_command *c;
    if (argc < 2) {
        print_main_help(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--json") == 0) {
        cli_cmd_opts_json(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--defaults-md") == 0) {
        cli_defaults_md(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--options-md") == 0) {
        if (argc < 3 || cli_opts_md(stdout, argc - 2, argv + 2) != 0) {
            return cli_usage_error(NULL, "help --options-md: want the ids of option tables "
                                         "(`pqpan help --json` lists them)");
        }
        return EXIT_OK;
    }
    c = find_command(argv[1]);
    if (c == NULL) {
        return unknown_command(argv[1]);
    }
    c->help(stdout);
    return EXIT_OK;
}

static int dispatch(int argc, char **argv)
{
    const struct cli_command *c;
    if (argc < 2) {
        fprintf(stderr, "usage: pqpan [--help | --version] COMMAND [OPTIONS]\n");
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
        print_main_help(stdout);
        return EXIT_OK;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("pqpan %s\n", pqpan_version());
        return EXIT_OK;
    }
    if (cli_word_equal(argv[1], "help")) {
        return run_help(argc - 1, argv + 1);
    }
    c = find_command(argv[1]);
    if (c == NULL) {
        return unknown_command(argv[1]);
    }
    return c->run(argc - 1, argv + 1);
}

/* dispatch with "--NAME=VALUE" arguments as "--NAME" "VALUE" (cli_split_assignments). */
static int dispatch_split(int argc, char **argv)
{
    char **args = malloc((2u * (size_t)argc + 1u) * sizeof *args);
    int rc;
    if (args == NULL) {
        fprintf(stderr, "pqpan: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    rc = dispatch(cli_split_assignments(argc, argv, args), args);
    free(args);
    return rc;
}

/* Whatever a command printed must have reached stdout: a full disk, a closed pipe or
 * /dev/full is exit 4, never a success (data lost silently). */
int main(int argc, char **argv)
{
    int rc = dispatch_split(argc, argv);
    int lost = fflush(stdout) != 0 || ferror(stdout);
    if (fclose(stdout) != 0) {
        lost = 1;
    }
    if (lost) {
        fprintf(stderr, "pqpan: cannot write the output (standard output): %s\n",
                errno != 0 ? strerror(errno) : "write error");
        return EXIT_IO;
    }
    return rc;
}
