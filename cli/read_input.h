/* Secret values given in a file (or standard input) so that they need not appear on the
 * command line (`--sk-file`, `--dk-file`); the file is read by pqpan_io_read_file. */
#ifndef PQPAN_CLI_READ_INPUT_H
#define PQPAN_CLI_READ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/* A secret byte string from a file (path, or "-" for standard input): the file holds the
 * value as hex, surrounding white space allowed, or a JSON object whose string member
 * `member` holds it (the output of `pqpan sig keygen` or `pqpan kem keygen`). Decodes
 * exactly want bytes into out. Returns EXIT_OK; EXIT_IO when the file cannot be read and
 * EXIT_BAD_INPUT when it holds no such value, each with a message "pqpan CMD: OPTION: ..."
 * on stderr. The text read is wiped before it is freed; out is zeroed on failure. */
int cli_secret_from_file(uint8_t *out, size_t want, const char *path, const char *member,
                         const char *cmd, const char *option);

/* A secret option NAME, given on the command line as --NAME HEX or as --NAME-file F (F a
 * file or "-" for standard input, read by cli_secret_from_file with member NAME); each
 * NULL when absent. An option table stores the two with offsetof(ARGS, NAME.hex) and
 * offsetof(ARGS, NAME.file). */
struct cli_secret_arg {
    const char *hex, *file;
};

/* The help line of --X-file for the secret option --X (the option tables of kem, sig, ecdh). */
#define CLI_SECRET_FILE_HELP(x)                                                                \
    "the value of --" x " from file F ('-': stdin, for one option) instead of the command "   \
    "line, as hex or as a JSON object with member " x "; excludes --" x

/* 1 if --NAME or --NAME-file was given. */
int cli_secret_given(const struct cli_secret_arg *s);

/* Decodes secret option name (its hex, or its file) into exactly want bytes. EXIT_OK;
 * EXIT_USAGE when both or neither of --NAME and --NAME-file are given, EXIT_BAD_INPUT for
 * bad hex or a wrong length, EXIT_IO for a file that cannot be read; each with a message
 * on stderr, out zeroed on failure. The caller wipes out after use. */
int cli_secret_read(uint8_t *out, size_t want, const struct cli_secret_arg *s, const char *cmd,
                    const char *name);

/* The same, or want bytes from the OS random source (cli_random) when the option is
 * absent (EXIT_IO with a message if it cannot be read). */
int cli_secret_or_random(uint8_t *out, size_t want, const struct cli_secret_arg *s,
                         const char *cmd, const char *name);

#endif
