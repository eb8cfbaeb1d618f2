/* Fuzzes the CLI's cycle-table CSV parser (cli/cycles_load.c): any input must give
 * EXIT_OK with only well-formed rows, or an error with the table left as it was. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "data_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct pqpan_cycle_table table;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[DATA_ERR_MAX];
    size_t i;
    memset(&table, 0, sizeof table);
    if (data_cycles_parse(&table, (const char *)data, size, "fuzz.csv", err, sizeof err) !=
        EXIT_OK) {
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
