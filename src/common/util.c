#include "pqpan/common.h"
#include "common/overlap.h"

#include <string.h>

#ifndef PQPAN_VERSION_STRING
#define PQPAN_VERSION_STRING "0.0.0"
#endif

/* memset called through a volatile function pointer: the compiler cannot know which
 * function runs, so it cannot prove the stores dead and remove them (the technique of
 * OpenSSL's OPENSSL_cleanse). memset itself writes whole words, unlike a byte loop. */
void pqpan_wipe(void *p, size_t len)
{
    void *(*volatile const wipe_fn)(void *, int, size_t) = memset;
    if (p == 0) {
        return;
    }
    wipe_fn(p, 0, len);
}

uint64_t pqpan_cycles_to_ns(uint64_t cycles, uint32_t hz)
{
    const uint64_t ns_per_s = 1000000000u;
    return cycles / hz * ns_per_s + cycles % hz * ns_per_s / hz;
}

int pqpan_ct_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
    uint32_t diff = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        diff |= (uint32_t)(a[i] ^ b[i]);
    }
    /* diff in 0..255: (diff - 1) >> 31 is 1 exactly when diff == 0. */
    return (int)((diff - 1u) >> 31);
}

const char *pqpan_version(void)
{
    return PQPAN_VERSION_STRING;
}

/* Compared as integers (uintptr_t): relational operators on pointers into different objects
 * are undefined in C, their integer values are not. */
int pqpan_buffers_overlap(const uint8_t *a, size_t a_len, const uint8_t *b, size_t b_len)
{
    uintptr_t pa = (uintptr_t)a;
    uintptr_t pb = (uintptr_t)b;
    if (a == 0 || b == 0 || a_len == 0 || b_len == 0) {
        return 0;
    }
    return pa < pb + b_len && pb < pa + a_len;
}
