/* The CLI's only platform-specific code (STYLE.md habit 12): a cycle counter. The library
 * has no timing at all. */
#ifndef PQPAN_CLI_PLATFORM_H
#define PQPAN_CLI_PLATFORM_H

#include <stdint.h>

#if defined(__x86_64__)
#include <x86intrin.h>
/* Time-stamp counter (Intel SDM Vol. 2B, RDTSC): constant-rate reference cycles on current
 * x86_64 parts, which equal core cycles only at the nominal frequency. */
#define PQPAN_CLI_HAVE_CYCLES 1
static inline uint64_t cli_cycles_now(void)
{
    return (uint64_t)__rdtsc();
}
#else
#define PQPAN_CLI_HAVE_CYCLES 0
static inline uint64_t cli_cycles_now(void)
{
    return 0;
}
#endif

#endif
