/* Small pieces every module uses: the injected random source, secret wiping,
 * constant-time comparison. */
#ifndef PQPAN_COMMON_H
#define PQPAN_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"

/* Randomness is injected (STYLE.md habit 11): fill out[0..len) and return 0, or return
 * non-zero on failure. The library never reads /dev/urandom itself. */
typedef int (*pqpan_rng_fn)(void *ctx, uint8_t *out, size_t len);

/* Overwrites len bytes at p with zeros in a way the compiler may not remove. */
void pqpan_wipe(void *p, size_t len);

/* 1 if a[0..len) == b[0..len), else 0; time depends on len only. */
int pqpan_ct_equal(const uint8_t *a, const uint8_t *b, size_t len);

/* floor(cycles x 1e9 / hz): CPU time of `cycles` at `hz` (> 0) in ns, computed without
 * the intermediate product overflowing; exact whenever the result fits in 64 bits
 * (cycles / hz below 1.8e10 s). */
uint64_t pqpan_cycles_to_ns(uint64_t cycles, uint32_t hz);

/* The library's version, e.g. "0.1.0". */
const char *pqpan_version(void);

#endif
