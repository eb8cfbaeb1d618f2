/* Bit packing of FIPS 204 §7.1-7.2 (Alg. 16-21, 28). */
#include "crypto/mldsa/packing.h"

#include "common/bytes.h"
#include "common/compiler.h"

/* Eight coefficients fill `bits` whole bytes: pack_bits and unpack_bits work on such
 * groups, so that in the copies made for a constant width (pqpan_mldsa_pack, _unpack) each
 * coefficient's byte position and shift within its group are constants. */
#define GROUP 8

/* Alg. 16 / 17 with Alg. 9 and 11, one group at a time: a 32-bit accumulator takes each
 * value at the next free bit (at most 7 bits are pending, so 7 + 24 bits fit) and hands
 * out whole bytes; a group ends on a byte boundary. */
static PQPAN_ALWAYS_INLINE void pack_bits(uint8_t *out, const int32_t *a, size_t n,
                                          unsigned bits, int32_t offset, int negate)
{
    const uint32_t mask = (1u << bits) - 1u;
    size_t g;
    for (g = 0; g < n; g += GROUP, out += bits) {
        uint32_t acc = 0;
        unsigned have = 0, o = 0, c;
        for (c = 0; c < GROUP; c++) {
            const int32_t v = negate ? offset - a[g + c] : a[g + c] - offset;
            acc |= ((uint32_t)v & mask) << have;
            have += bits;
            while (have >= 8) {
                out[o++] = (uint8_t)acc;
                acc >>= 8;
                have -= 8;
            }
        }
    }
}

/* The little-endian value of the bytes in[first .. min(first + 4, end)). */
static PQPAN_ALWAYS_INLINE uint32_t load_within(const uint8_t *in, unsigned first, unsigned end)
{
    uint32_t w = 0;
    unsigned b;
    if (first + 4 <= end) {
        return pqpan_load32_le(in + first);
    }
    for (b = first; b < end; b++) {
        w |= (uint32_t)in[b] << (8 * (b - first));
    }
    return w;
}

/* Alg. 18 / 19 with Alg. 10 and 12, one group at a time: each value is read from the
 * (up to) 4 bytes of its group from the byte holding its first bit, shifted; bits <= 24
 * plus a shift of at most 7 stay within them. */
static PQPAN_ALWAYS_INLINE void unpack_bits(int32_t *a, const uint8_t *in, size_t n,
                                            unsigned bits, int32_t offset, int negate)
{
    const uint32_t mask = (1u << bits) - 1u;
    size_t g;
    for (g = 0; g < n; g += GROUP, in += bits) {
        unsigned c;
        for (c = 0; c < GROUP; c++) {
            const unsigned pos = c * bits;
            const int32_t v = (int32_t)((load_within(in, pos / 8, bits) >> (pos % 8)) & mask);
            a[g + c] = negate ? offset - v : v + offset;
        }
    }
}

/* The widths FIPS 204 encodes (params.h: eta 3, 4; t1 10; t0 13; z 18, 20) each get their
 * own copy of pack_bits and unpack_bits, where positions and shifts fold into constants;
 * any other width takes the same loops with them computed. */
void pqpan_mldsa_pack(uint8_t *out, const int32_t *a, size_t n, unsigned bits, int32_t offset,
                      int negate)
{
    switch (bits) {
    case 3: pack_bits(out, a, n, 3, offset, negate); break;
    case 4: pack_bits(out, a, n, 4, offset, negate); break;
    case 10: pack_bits(out, a, n, 10, offset, negate); break;
    case 13: pack_bits(out, a, n, 13, offset, negate); break;
    case 18: pack_bits(out, a, n, 18, offset, negate); break;
    case 20: pack_bits(out, a, n, 20, offset, negate); break;
    default: pack_bits(out, a, n, bits, offset, negate); break;
    }
}

void pqpan_mldsa_unpack(int32_t *a, const uint8_t *in, size_t n, unsigned bits, int32_t offset,
                        int negate)
{
    switch (bits) {
    case 3: unpack_bits(a, in, n, 3, offset, negate); break;
    case 4: unpack_bits(a, in, n, 4, offset, negate); break;
    case 10: unpack_bits(a, in, n, 10, offset, negate); break;
    case 13: unpack_bits(a, in, n, 13, offset, negate); break;
    case 18: unpack_bits(a, in, n, 18, offset, negate); break;
    case 20: unpack_bits(a, in, n, 20, offset, negate); break;
    default: unpack_bits(a, in, n, bits, offset, negate); break;
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
