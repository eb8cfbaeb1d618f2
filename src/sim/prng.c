/* xoshiro256** 1.0 with splitmix64 seeding (D. Blackman, S. Vigna, "Scrambled linear
 * pseudorandom number generators", ACM TOMS 47(4), 2021; constants from the authors'
 * reference description at prng.di.unimi.it). Not for cryptography: it drives the
 * simulated channel, so the same seed gives the same run. */
#include "pqpan/sim.h"

static uint64_t rotl(uint64_t x, int k)
{
    return (x << k) | (x >> (64 - k));
}

/* splitmix64: increment 0x9E3779B97F4A7C15, then two xor-shift-multiply rounds. */
static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    return z ^ (z >> 31);
}

void pqpan_prng_seed(struct pqpan_prng *r, uint64_t seed)
{
    int i;
    for (i = 0; i < 4; i++) {
        r->s[i] = splitmix64(&seed);
    }
}

uint64_t pqpan_prng_next(struct pqpan_prng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5u, 7) * 9u;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* Rejects the lowest (2^64 mod n) values so that x mod n is unbiased. */
uint64_t pqpan_prng_below(struct pqpan_prng *r, uint64_t n)
{
    uint64_t threshold = (0u - n) % n;
    for (;;) {
        uint64_t x = pqpan_prng_next(r);
        if (x >= threshold) {
            return x % n;
        }
    }
}

/* A 53-bit uniform in [0, 1) against p. */
int pqpan_prng_chance(struct pqpan_prng *r, double p)
{
    if (p <= 0.0) {
        return 0;
    }
    if (p >= 1.0) {
        return 1;
    }
    return (double)(pqpan_prng_next(r) >> 11) * (1.0 / 9007199254740992.0) < p;
}

/* As a pqpan_rng_fn (ctx: the struct pqpan_prng): each 64-bit output gives 8 octets,
 * least significant first. For simulated keys and nonces only. */
int pqpan_prng_fill(void *ctx, uint8_t *out, size_t len)
{
    struct pqpan_prng *r = ctx;
    uint64_t word = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        if (i % 8 == 0) {
            word = pqpan_prng_next(r);
        }
        out[i] = (uint8_t)(word >> (8 * (i % 8)));
    }
    return 0;
}
