/* Fuzzes pqpan sweep's value lists (src/run/sweep_grid.c): the first byte picks the option
 * (its top bit the link: 802.15.4 when set), the rest is its list. Any input must give
 * EXIT_OK, with values that fit their buffer and a count equal to the values enumerated, or
 * a usage error. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

#define LIST_MAX 512
#define ENUMERATE_MAX 4096u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const opts[] = {"--ll-octets", "--ci-ms", "--phy", "--gamma-comp",
                                       "--profile", "--tx-dbm", "--kem"};
    struct sweep_grid g;
    struct sweep_opt o;
    struct cli_msg msg;
    char list[LIST_MAX + 1], buf[SWEEP_VALUE_MAX];
    uint64_t k, n = 0;
    size_t i;
    if (size < 1 || size - 1 > LIST_MAX) {
        return 0;
    }
    memcpy(list, data + 1, size - 1);
    list[size - 1] = '\0';
    memset(&g, 0, sizeof g);
    memset(&o, 0, sizeof o);
    o.name = opts[data[0] % (sizeof opts / sizeof opts[0])];
    if (sweep_items_parse(&o, list, data[0] >= 128, &g, &msg) == EXIT_OK) {
        for (i = 0; i < o.n_items; i++) {
            n += o.items[i].count;
        }
        if (n != o.count || o.count == 0) {
            abort();
        }
        for (k = 0; k < o.count && k < ENUMERATE_MAX; k++) {
            const char *v = sweep_value(&o, k, buf);
            if (v == NULL || strlen(v) >= (v == buf ? SWEEP_VALUE_MAX : LIST_MAX + 1)) {
                abort();
            }
        }
    }
    free(o.items);
    sweep_grid_free(&g);
    return 0;
}
