#include "pqpan/common.h"

#ifndef PQPAN_VERSION_STRING
#define PQPAN_VERSION_STRING "0.0.0"
#endif

/* Stores through a volatile pointer cannot be proven dead, so they are not removed. */
void pqpan_wipe(void *p, size_t len)
{
    volatile uint8_t *q = (volatile uint8_t *)p;
    size_t i;
    if (p == 0) {
        return;
    }
    for (i = 0; i < len; i++) {
        q[i] = 0;
    }
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
