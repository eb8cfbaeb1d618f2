/* Pieces shared by the `pqpan kem` subcommand files (cli/kem.c, cli/kem_acvp.c). */
#ifndef PQPAN_CLI_KEM_H
#define PQPAN_CLI_KEM_H

#include <stddef.h>
#include <stdint.h>

/* Decodes hex of any even length up to cap bytes into out; *len gets the byte count.
 * Returns 0, or -1 on an odd length, a bad digit or more than cap bytes. */
int cli_kem_hex_any(uint8_t *out, size_t cap, size_t *len, const char *hex);

/* `pqpan kem acvp FILE`: runs an ACVP ML-KEM vector file, prints the response JSON. */
int cli_kem_acvp(const char *path);

#endif
