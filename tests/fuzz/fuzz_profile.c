/* Fuzzes the CLI's JSON data parsers (cli/profile_load.c, cli/gamma_load.c): any input
 * must give EXIT_OK with a profile that passes pqpan_profile_check (its ieee802154 section
 * included, with the sources of idle and backoff kept), or an error with the profile and
 * the sources zeroed. */
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
    struct data_802154_sources *src = malloc(sizeof *src);
    int rc;
    if (src == NULL) {
        return 0;
    }
    rc = data_profile_parse_sourced(&p, src, (const char *)data, size, "fuzz", err, sizeof err);
    if (rc == EXIT_OK && (pqpan_profile_check(&p) != PQPAN_OK || p.ieee802154.idle_rx > 1 ||
                          p.ieee802154.backoff_rx > 1 ||
                          p.ieee802154.tx_level_count > PQPAN_PROFILE_TX_LEVELS_MAX ||
                          src->idle[0] == '\0' || src->backoff[0] == '\0')) {
        abort();
    }
    if (rc != EXIT_OK && (p.cpu_hz != 0 || p.ieee802154.tx_level_count != 0 || src->idle[0] != '\0')) {
        abort();
    }
    free(src);
    pqpan_gamma_default(&g);
    rc = data_gamma_parse(&g, (const char *)data, size, "fuzz", err, sizeof err);
    if (rc == EXIT_OK && !pqpan_gamma_valid(&g)) {
        abort();
    }
    return 0;
}
