/* A deterministic random source for the Cortex-M4 programs (the M4 has no entropy source
 * under QEMU): SHAKE128 of a seed and a counter, so runs are repeatable. */
#ifndef PQPAN_M4_PQKE_RNG_H
#define PQPAN_M4_PQKE_RNG_H

#include <stddef.h>
#include <stdint.h>

struct pqpan_m4_rng {
    uint8_t seed;
    uint32_t counter;
};

/* pqpan_rng_fn: out = SHAKE128(seed || counter), counter incremented per call. */
int pqpan_m4_rng(void *ctx, uint8_t *out, size_t len);

#endif
