/* Check helpers for the Cortex-M4 test program. */
#include "check.h"

#include "semihost.h"

void pqpan_m4_check(struct pqpan_m4_tally *t, int ok, const char *what, uint32_t id)
{
    if (ok) {
        t->passed++;
        return;
    }
    t->failed++;
    pqpan_m4_puts("FAIL ");
    pqpan_m4_puts(what);
    pqpan_m4_puts(" tcId=");
    pqpan_m4_put_u32(id);
    pqpan_m4_puts("\n");
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    return -1;
}

int pqpan_m4_equal_hex(const uint8_t *got, size_t len, const char *want)
{
    for (size_t i = 0; i < len; i++) {
        int hi = hex_value(want[2 * i]);
        int lo = hex_value(want[2 * i + 1]);
        if (hi < 0 || lo < 0 || got[i] != (uint8_t)(hi * 16 + lo)) {
            return 0;
        }
    }
    return want[2 * len] == '\0';
}

int pqpan_m4_from_hex(uint8_t *out, size_t len, const char *hex)
{
    for (size_t i = 0; i < len; i++) {
        int hi = hex_value(hex[2 * i]);
        int lo = hi < 0 ? -1 : hex_value(hex[2 * i + 1]);
        if (lo < 0) {
            return 0;
        }
        out[i] = (uint8_t)(hi * 16 + lo);
    }
    return hex[2 * len] == '\0';
}

int pqpan_m4_all_zero(const uint8_t *p, size_t len)
{
    uint8_t acc = 0;
    for (size_t i = 0; i < len; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

uint64_t pqpan_m4_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}
