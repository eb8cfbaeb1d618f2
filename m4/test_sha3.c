/* SHA-3 on the Cortex-M4: FIPS 202 example values (NIST "Cryptographic Standards and
 * Guidelines: Examples with Intermediate Values", SHA3-256/512 and SHAKE128/256 for the
 * empty message, "abc" and the 1600-bit message of 200 bytes 0xa3), one-shot and
 * incremental. With the assembly backend (PQPAN_M4_ASM), also Keccak-f[1600] against the
 * portable C on pseudo-random states. */
#include <string.h>

#include "check.h"
#include "crypto/m4/backend.h"
#include "pqpan/sha3.h"

static const char sha3_256_empty[] = "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a";
static const char sha3_256_abc[] = "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532";
static const char sha3_256_a3x200[] = "79f38adec5c20307a98ef76e8324afbfd46cfd81b22e3973c65fa1bd9de31787";
static const char sha3_512_abc[] =
    "b751850b1a57168a5693cd924b6b096e08f621827444f70d884f5d0240d2712e"
    "10e116e9192af3c91a7ec57647e3934057340b4cf408d5a56592f8274eec53f0";
static const char sha3_512_a3x200[] =
    "e76dfad22084a8b1467fcf2ffa58361bec7628edf5f3fdc0e4805dc48caeeca8"
    "1b7c13c30adf52a3659584739a2df46be589c51ca1a4a8416df6545a1ce8ba00";
static const char shake128_empty_32[] = "7f9c2ba4e88f827d616045507605853ed73b8093f6efbc88eb1a6eacfa66ef26";
static const char shake128_a3x200_32[] = "131ab8d2b594946b9c81333f9bb6e0ce75c3b93104fa3469d3917457385da037";
static const char shake256_empty_32[] = "46b9dd2b0ba88d13233b3feb743eeb243fcd52ea62b81b82b50c27646ed5762f";

static void one_shot(struct pqpan_m4_tally *t, const uint8_t *a3)
{
    static const uint8_t abc[3] = {'a', 'b', 'c'};
    uint8_t out[64];

    pqpan_sha3_256(out, abc, 0);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, sha3_256_empty), "sha3-256 empty", 1);
    pqpan_sha3_256(out, abc, sizeof abc);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, sha3_256_abc), "sha3-256 abc", 2);
    pqpan_sha3_256(out, a3, 200);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, sha3_256_a3x200), "sha3-256 1600-bit", 3);
    pqpan_sha3_512(out, abc, sizeof abc);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 64, sha3_512_abc), "sha3-512 abc", 4);
    pqpan_sha3_512(out, a3, 200);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 64, sha3_512_a3x200), "sha3-512 1600-bit", 5);
    pqpan_shake128(out, 32, abc, 0);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, shake128_empty_32), "shake128 empty", 6);
    pqpan_shake128(out, 32, a3, 200);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, shake128_a3x200_32), "shake128 1600-bit", 7);
    pqpan_shake256(out, 32, abc, 0);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, shake256_empty_32), "shake256 empty", 8);
}

/* The 1600-bit message absorbed in pieces of every size from 1 to 200 bytes. */
static void incremental(struct pqpan_m4_tally *t, const uint8_t *a3)
{
    for (size_t step = 1; step <= 200; step++) {
        struct pqpan_sha3_256_ctx ctx;
        uint8_t out[32];
        pqpan_sha3_256_init(&ctx);
        for (size_t off = 0; off < 200; off += step) {
            size_t n = 200 - off < step ? 200 - off : step;
            pqpan_sha3_256_absorb(&ctx, a3 + off, n);
        }
        pqpan_sha3_256_final(&ctx, out);
        pqpan_m4_check(t, pqpan_m4_equal_hex(out, 32, sha3_256_a3x200), "sha3-256 split", (uint32_t)step);
    }
}

#ifdef PQPAN_M4_ASM
/* The assembly Keccak-f[1600] equals the portable C on 64 pseudo-random states, each
 * permuted 3 times in a row, and on the all-ones state. */
static void asm_against_portable(struct pqpan_m4_tally *t)
{
    uint64_t seed = 0x9e3779b97f4a7c15ULL;
    for (uint32_t run = 0; run <= 64; run++) {
        uint64_t asm_lanes[25];
        uint64_t c_lanes[25];
        for (size_t i = 0; i < 25; i++) {
            asm_lanes[i] = run == 64 ? ~0ULL : pqpan_m4_random(&seed);
        }
        memcpy(c_lanes, asm_lanes, sizeof c_lanes);
        for (int k = 0; k < 3; k++) {
            pqpan_keccak_f1600(asm_lanes);
            pqpan_keccak_f1600_portable(c_lanes);
        }
        pqpan_m4_check(t, memcmp(asm_lanes, c_lanes, sizeof c_lanes) == 0, "keccak asm vs portable", run);
    }
}

/* Lanes a rate can hold (a multiple of 8 bytes below the 200-byte state): 0..23. */
#define RATE_LANES 24

/* The squeeze's lane extraction in assembly equals pqpan_keccak_m4_lane on 64 pseudo-random
 * states: every range first .. first + count - 1 of lanes 0..23 (each lane's code and
 * every entry and exit of the unrolled assembly), written at an odd address; the bytes
 * around the range stay untouched. */
static void extract_against_lane(struct pqpan_m4_tally *t)
{
    uint64_t seed = 0x3c6ef372fe94f82bULL;
    for (uint32_t run = 0; run < 64; run++) {
        uint64_t state[25];
        uint8_t got[2 + RATE_LANES * 8], want[2 + RATE_LANES * 8];
        int ok = 1;
        for (size_t i = 0; i < 25; i++) {
            state[i] = pqpan_m4_random(&seed);
        }
        for (unsigned first = 0; first < RATE_LANES; first++) {
            for (unsigned count = 0; first + count <= RATE_LANES; count++) {
                memset(want, 0x5a, sizeof want);
                for (unsigned i = 0; i < count; i++) {
                    const uint64_t v = pqpan_keccak_m4_lane(state, first + i);
                    for (unsigned b = 0; b < 8; b++) {
                        want[1 + 8 * i + b] = (uint8_t)(v >> (8 * b));
                    }
                }
                memset(got, 0x5a, sizeof got);
                pqpan_keccak_m4_extract(state, got + 1, first, count);
                ok &= memcmp(got, want, sizeof want) == 0;
            }
        }
        pqpan_m4_check(t, ok, "keccak extract vs lane, every range", run);
    }
}

/* The absorb's lane input in assembly equals pqpan_keccak_m4_xor_lane lane by lane on 64
 * pseudo-random states and inputs, for every range first .. first + count - 1 of lanes
 * 0..23, from an odd address; the other lanes stay untouched. */
static void absorb_against_xor_lane(struct pqpan_m4_tally *t)
{
    uint64_t seed = 0x510e527fade682d1ULL;
    for (uint32_t run = 0; run < 64; run++) {
        uint64_t start[25], got[25], want[25];
        uint8_t in[1 + RATE_LANES * 8];
        int ok = 1;
        for (size_t i = 0; i < 25; i++) {
            start[i] = pqpan_m4_random(&seed);
        }
        for (size_t i = 0; i < sizeof in; i++) {
            in[i] = (uint8_t)pqpan_m4_random(&seed);
        }
        for (unsigned first = 0; first < RATE_LANES; first++) {
            for (unsigned count = 0; first + count <= RATE_LANES; count++) {
                memcpy(want, start, sizeof want);
                memcpy(got, start, sizeof got);
                for (unsigned i = 0; i < count; i++) {
                    uint64_t v = 0;
                    for (unsigned b = 0; b < 8; b++) {
                        v |= (uint64_t)in[1 + 8 * i + b] << (8 * b);
                    }
                    pqpan_keccak_m4_xor_lane(want, first + i, v);
                }
                pqpan_keccak_m4_absorb(got, in + 1, first, count);
                ok &= memcmp(got, want, sizeof want) == 0;
            }
        }
        pqpan_m4_check(t, ok, "keccak absorb vs xor_lane, every range", run);
    }
}
#endif

struct pqpan_m4_tally pqpan_m4_test_sha3(void)
{
    struct pqpan_m4_tally t = {0, 0};
    uint8_t a3[200];
    memset(a3, 0xa3, sizeof a3);
    one_shot(&t, a3);
    incremental(&t, a3);
#ifdef PQPAN_M4_ASM
    asm_against_portable(&t);
    extract_against_lane(&t);
    absorb_against_xor_lane(&t);
#endif
    return t;
}
