/* Fuzzes libpqpan-io's cycle-table CSV parser (src/io/load/cycles.c): any input must give
 * PQPAN_OK with only well-formed rows, or an error with the table left as it was. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/io.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pqpan_cycle_table table;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[PQPAN_IO_ERR_MAX];
    size_t i;
    memset(&table, 0, sizeof table);
    if (pqpan_io_cycles_parse(&table, (const char *)data, size, "fuzz.csv", err, sizeof err) !=
        PQPAN_OK) {
        if (table.count != 0) {
            abort();
        }
        return 0;
    }
    for (i = 0; i < table.count; i++) {
        const struct pqpan_cycle_row *r = &table.rows[i];
        if (r->cycles == 0 || r->scheme[0] == '\0' || r->impl[0] == '\0' ||
            memchr(r->source, '\0', sizeof r->source) == NULL) {
            abort();
        }
    }
    return 0;
}
