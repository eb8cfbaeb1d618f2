/* Deterministic RNG for the Cortex-M4 programs. */
#include "pqke_rng.h"

#include "pqpan/sha3.h"

int pqpan_m4_rng(void *ctx, uint8_t *out, size_t len)
{
    struct pqpan_m4_rng *r = ctx;
    uint8_t in[5] = {r->seed, (uint8_t)r->counter, (uint8_t)(r->counter >> 8), (uint8_t)(r->counter >> 16),
                     (uint8_t)(r->counter >> 24)};
    r->counter++;
    pqpan_shake128(out, len, in, sizeof in);
    return 0;
}
