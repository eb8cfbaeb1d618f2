/* Fuzzes the CLI's JSON data parsers (cli/profile_load.c, cli/gamma_load.c): any input
 * must give EXIT_OK with a profile that passes pqpan_profile_check, or an error with the
 * output zeroed. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "data_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct pqpan_profile p;
    struct pqpan_gamma g;
    char err[DATA_ERR_MAX];
    int rc = data_profile_parse(&p, (const char *)data, size, "fuzz", err, sizeof err);
    if (rc == EXIT_OK && pqpan_profile_check(&p) != PQPAN_OK) {
        abort();
    }
    if (rc != EXIT_OK && p.cpu_hz != 0) {
        abort();
    }
    pqpan_gamma_default(&g);
    rc = data_gamma_parse(&g, (const char *)data, size, "fuzz", err, sizeof err);
    if (rc == EXIT_OK && !pqpan_gamma_valid(&g)) {
        abort();
    }
    return 0;
}
