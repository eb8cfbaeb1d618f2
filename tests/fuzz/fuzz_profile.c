/* Fuzzes libpqpan-io's JSON data parsers (src/io/load/profile.c, gamma.c, profile_walk.c):
 * any input must give PQPAN_OK with a profile that passes pqpan_profile_check (its
 * ieee802154 section included, with the sources of idle and backoff kept), or an error with
 * the profile and the sources zeroed; the figure walk and the derived-figure list must
 * accept or refuse it without a crash, never listing more than PQPAN_IO_DERIVED_MAX. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void count_figure(const struct pqpan_io_figure *f, void *ctx)
{
    size_t *n = ctx;
    if (memchr(f->path, '\0', sizeof f->path) == NULL || f->source == NULL) {
        abort();
    }
    ++*n;
}

static void fuzz_walk(const char *text, size_t size)
{
    static struct pqpan_io_derived_list derived;
    char err[PQPAN_IO_ERR_MAX];
    size_t figures = 0;
    int rc = pqpan_io_profile_walk(text, size, count_figure, &figures);
    if (rc != PQPAN_OK && rc != PQPAN_ERR_MALFORMED) {
        abort();
    }
    rc = pqpan_io_profile_derived(&derived, text, size, "fuzz", err, sizeof err);
    if (derived.count > PQPAN_IO_DERIVED_MAX || (rc != PQPAN_OK && derived.count != 0)) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *text = (const char *)data;
    struct pqpan_profile p;
    struct pqpan_gamma g;
    char err[PQPAN_IO_ERR_MAX];
    struct pqpan_io_802154_sources *src = malloc(sizeof *src);
    int rc;
    if (src == NULL) {
        return 0;
    }
    rc = pqpan_io_profile_parse(&p, src, text, size, "fuzz", err, sizeof err);
    if (rc == PQPAN_OK && (pqpan_profile_check(&p) != PQPAN_OK || p.ieee802154.idle_rx > 1 ||
                           p.ieee802154.backoff_rx > 1 ||
                           p.ieee802154.tx_level_count > PQPAN_PROFILE_TX_LEVELS_MAX ||
                           src->idle[0] == '\0' || src->backoff[0] == '\0')) {
        abort();
    }
    if (rc != PQPAN_OK && (p.cpu_hz != 0 || p.ieee802154.tx_level_count != 0 || src->idle[0] != '\0')) {
        abort();
    }
    free(src);
    pqpan_gamma_default(&g);
    rc = pqpan_io_gamma_parse(&g, text, size, "fuzz", err, sizeof err);
    if (rc == PQPAN_OK && !pqpan_gamma_valid(&g)) {
        abort();
    }
    fuzz_walk(text, size);
    return 0;
}
