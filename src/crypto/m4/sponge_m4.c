/* The lanes of the Cortex-M4 backend's Keccak state (PQPAN_M4_ASM): the sponge of
 * src/crypto/sha3.c keeps its state as pqpan_keccak_m4_permute works on it, each lane
 * bit-interleaved into an even and an odd 32-bit word (the low and high halves of the
 * uint64_t slot on this little-endian core), each word rotated into its frame
 * (scripts/gen_keccak_m4.py: the stored word is ROL(word, frame)). Only the lanes the
 * sponge absorbs or squeezes are converted, here. Shifts and masks only: no branch or
 * address depends on the data (the frames are constants of the lane index, which is
 * public). Every build compiles this file; only the backend build gets the code. */
#include <stdint.h>

#include "crypto/m4/backend.h"

_Static_assert(sizeof(uint64_t) == 2 * sizeof(uint32_t), "a lane slot holds the two words");

#ifdef PQPAN_M4_ASM

/* The bit swap x ^= t ^ (t << shift), t = (x ^ (x >> shift)) & mask. unshuffle applies it
 * for shift 1, 2, 4, 8, which moves the even bits of x to its low half and the odd bits
 * to its high half; each swap is an involution, so shuffle applies them in the reverse
 * order. Written out (not a loop over a table) so that the masks are immediates. */
#define SWAP(x, shift, mask)                                                          \
    do {                                                                              \
        const uint32_t t_ = ((x) ^ ((x) >> (shift))) & (mask);                        \
        (x) ^= t_ ^ (t_ << (shift));                                                  \
    } while (0)

static inline __attribute__((always_inline)) uint32_t unshuffle(uint32_t x)
{
    SWAP(x, 1, 0x22222222u);
    SWAP(x, 2, 0x0c0c0c0cu);
    SWAP(x, 4, 0x00f000f0u);
    SWAP(x, 8, 0x0000ff00u);
    return x;
}

static inline __attribute__((always_inline)) uint32_t shuffle(uint32_t x)
{
    SWAP(x, 8, 0x0000ff00u);
    SWAP(x, 4, 0x00f000f0u);
    SWAP(x, 2, 0x0c0c0c0cu);
    SWAP(x, 1, 0x22222222u);
    return x;
}

static inline __attribute__((always_inline)) uint32_t rol32(uint32_t x, unsigned n)
{
    return (x << (n & 31)) | (x >> ((32 - n) & 31));
}

void pqpan_keccak_m4_xor_lane(uint64_t state[25], unsigned i, uint64_t v)
{
    const uint32_t lo = unshuffle((uint32_t)v), hi = unshuffle((uint32_t)(v >> 32));
    const uint32_t even = (lo & 0xFFFFu) | (hi << 16), odd = (lo >> 16) | (hi & 0xFFFF0000u);
    state[i] ^= (uint64_t)rol32(even, pqpan_keccak_m4_frames[2 * i]) |
                (uint64_t)rol32(odd, pqpan_keccak_m4_frames[2 * i + 1]) << 32;
}

uint64_t pqpan_keccak_m4_lane(const uint64_t state[25], unsigned i)
{
    const uint32_t even = rol32((uint32_t)state[i], 32 - pqpan_keccak_m4_frames[2 * i]);
    const uint32_t odd = rol32((uint32_t)(state[i] >> 32), 32 - pqpan_keccak_m4_frames[2 * i + 1]);
    const uint32_t lo = shuffle((even & 0xFFFFu) | (odd << 16));
    const uint32_t hi = shuffle((even >> 16) | (odd & 0xFFFF0000u));
    return (uint64_t)hi << 32 | lo;
}

#endif
