/* Little-endian byte codecs shared by the library's modules (STYLE.md habit 9). On a
 * little-endian target a word is its bytes in memory order and memcpy compiles to one load
 * or store; otherwise the bytes are assembled one by one. __BYTE_ORDER__ is predefined by
 * gcc and clang. */
#ifndef PQPAN_COMMON_BYTES_H
#define PQPAN_COMMON_BYTES_H

#include <stdint.h>
#include <string.h>

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static inline uint64_t pqpan_load64_le(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

static inline void pqpan_store64_le(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, sizeof v);
}
#else
static inline uint64_t pqpan_load64_le(const uint8_t *p)
{
    uint64_t v = 0;
    unsigned i;
    for (i = 0; i < 8; i++) {
        v |= (uint64_t)p[i] << (8 * i);
    }
    return v;
}

static inline void pqpan_store64_le(uint8_t *p, uint64_t v)
{
    unsigned i;
    for (i = 0; i < 8; i++) {
        p[i] = (uint8_t)(v >> (8 * i));
    }
}
#endif

#endif
