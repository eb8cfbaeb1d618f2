/* `pqpan acvp`: NIST ACVP vector sets for the algorithms pqpan implements. cli/acvp.c reads
 * the file, dispatches on the vector set's algorithm and mode, builds the ACVP response
 * and, with --expected, compares it case by case; one file per algorithm runs the tests
 * (cli/acvp_mlkem.c, cli/acvp_mldsa.c). */
#ifndef PQPAN_CLI_ACVP_H
#define PQPAN_CLI_ACVP_H

#include <stddef.h>
#include <stdint.h>

#include <cjson/cJSON.h>

/* Where a message points to: the file, the group and the test case (-1 when none). */
struct acvp_ctx {
    const char *path;
    long tg_id;
    long tc_id;
};

/* Prints "pqpan acvp: FILE: tgId N tcId M: WHAT 'NAME'" and returns EXIT_BAD_INPUT. */
int acvp_error(const struct acvp_ctx *x, const char *what, const char *name);

/* The string field `name` of the test case, else of its group (ACVP puts shared inputs
 * there); NULL if neither has it. */
const char *acvp_field(const cJSON *test, const cJSON *group, const char *name);

/* Decodes the hex field into out (at most cap bytes; exactly want unless want is 0), *len
 * the byte count (len may be NULL). A message and EXIT_BAD_INPUT when it is missing or is
 * not hex of a fitting length. */
int acvp_hex_field(const struct acvp_ctx *x, uint8_t *out, size_t cap, size_t want, size_t *len,
                   const cJSON *test, const cJSON *group, const char *name);

/* Adds name: HEX (upper case, as ACVP writes it); 0, or -1 when out of memory. */
int acvp_add_hex(cJSON *obj, const char *name, const uint8_t *p, size_t len);

/* Runs one test case of an implemented (algorithm, mode), adding the outputs to res.
 * Returns a cli.h exit code. */
typedef int (*acvp_test_fn)(const struct acvp_ctx *x, const cJSON *group, const cJSON *test,
                            cJSON *res);

/* The handlers (cli/acvp_mlkem.c, cli/acvp_mldsa.c). */
int acvp_mlkem_keygen(const struct acvp_ctx *x, const cJSON *group, const cJSON *test, cJSON *res);
int acvp_mlkem_encap_decap(const struct acvp_ctx *x, const cJSON *group, const cJSON *test,
                           cJSON *res);
int acvp_mldsa_keygen(const struct acvp_ctx *x, const cJSON *group, const cJSON *test, cJSON *res);
int acvp_mldsa_siggen(const struct acvp_ctx *x, const cJSON *group, const cJSON *test, cJSON *res);
int acvp_mldsa_sigver(const struct acvp_ctx *x, const cJSON *group, const cJSON *test, cJSON *res);

#endif
