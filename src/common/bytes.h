/* Byte codecs shared by the library's modules (STYLE.md habit 9). 64-bit little-endian: on
 * a little-endian target a word is its bytes in memory order and memcpy compiles to one
 * load or store; otherwise the bytes are assembled one by one (__BYTE_ORDER__ is predefined
 * by gcc and clang). 32-bit little- and big-endian words for AES and P-256. */
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

/* 32-bit words, little- and big-endian, byte by byte (any alignment, any host order). */
static inline uint32_t pqpan_load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24);
}

static inline void pqpan_store32_le(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static inline uint32_t pqpan_load32_be(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static inline void pqpan_store32_be(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

#endif
