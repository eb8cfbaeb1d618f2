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

#endif
