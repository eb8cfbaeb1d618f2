/* Bit packing of FIPS 204 §7.1-7.2 (Alg. 16-21, 28). */
#include "crypto/mldsa/packing.h"

#include "common/bytes.h"

/* Alg. 16 / 17 with Alg. 9 and 11: a 32-bit accumulator takes each value at the next free
 * bit (at most 7 bits are pending, so 7 + 24 bits fit) and hands out whole bytes; n bits
 * is a multiple of 8 bytes' worth, so nothing is left at the end. The loop structure
 * depends on n and bits only. */
void pqpan_mldsa_pack(uint8_t *out, const int32_t *a, size_t n, unsigned bits, int32_t offset,
                      int negate)
{
    const uint32_t mask = (1u << bits) - 1u;
    uint32_t acc = 0;
    unsigned have = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        const int32_t v = negate ? offset - a[i] : a[i] - offset;
        acc |= ((uint32_t)v & mask) << have;
        have += bits;
        while (have >= 8) {
            *out++ = (uint8_t)acc;
            acc >>= 8;
            have -= 8;
        }
    }
}

/* Coefficients read from a whole little-endian word: those with at least 4 more after them
 * when bits >= 8, whose word (the 4 bytes from the one holding their first bit) ends
 * inside the input, since those 4 coefficients fill at least 32 bits; bits <= 24 plus a
 * shift of at most 7 stay within the word. */
#define UNPACK_TAIL 4

/* Alg. 18 / 19 with Alg. 10 and 12: the coefficients before the tail read from a word each
 * (pqpan_load32_le at the byte of their first bit, shifted), the rest through a 32-bit
 * accumulator that takes bytes while fewer than bits (<= 24) bits are pending, so at most
 * 23 + 8 bits are held. */
void pqpan_mldsa_unpack(int32_t *a, const uint8_t *in, size_t n, unsigned bits, int32_t offset,
                        int negate)
{
    const uint32_t mask = (1u << bits) - 1u;
    const size_t words = bits >= 8 && n > UNPACK_TAIL ? n - UNPACK_TAIL : 0;
    uint32_t acc;
    unsigned have;
    size_t i, pos = 0;
    for (i = 0; i < words; i++, pos += bits) {
        const int32_t v = (int32_t)((pqpan_load32_le(in + pos / 8) >> (pos % 8)) & mask);
        a[i] = negate ? offset - v : v + offset;
    }
    in += pos / 8;
    acc = pos % 8 != 0 ? (uint32_t)*in++ >> (pos % 8) : 0; /* the rest of a started byte */
    have = pos % 8 != 0 ? 8 - (unsigned)(pos % 8) : 0;
    for (; i < n; i++) {
        int32_t v;
        while (have < bits) {
            acc |= (uint32_t)*in++ << have;
            have += 8;
        }
        v = (int32_t)((uint32_t)acc & mask);
        acc >>= bits;
        have -= bits;
        a[i] = negate ? offset - v : v + offset;
    }
}

int pqpan_mldsa_values_at_most(const uint8_t *in, size_t n, unsigned bits, uint32_t max)
{
    const uint32_t mask = (1u << bits) - 1u;
    uint32_t over = 0, acc = 0;
    unsigned have = 0;
    size_t i;
    for (i = 0; i < n; i++) {
        while (have < bits) {
            acc |= (uint32_t)*in++ << have;
            have += 8;
        }
        over |= max - (acc & mask); /* top bit set iff the value exceeds max */
        acc >>= bits;
        have -= bits;
    }
    return -(int)(over >> 31);
}

/* Alg. 21 lines 2-15, without building h (the caller reads the positions from y). */
int pqpan_mldsa_hint_check(const uint8_t *y, unsigned k, unsigned omega)
{
    unsigned i, index = 0;
    for (i = 0; i < k; i++) {
        const unsigned end = y[omega + i];
        const unsigned first = index;
        if (end < index || end > omega) {
            return -1;
        }
        for (; index < end; index++) {
            if (index > first && y[index - 1] >= y[index]) {
                return -1;
            }
        }
    }
    for (; index < omega; index++) {
        if (y[index] != 0) {
            return -1;
        }
    }
    return 0;
}
