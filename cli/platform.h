/* The CLI's only platform-specific code (STYLE.md habit 12): a cycle counter and the
 * operating system's random source. The library has no timing and no randomness of its
 * own (callers inject an RNG). */
#ifndef PQPAN_CLI_PLATFORM_H
#define PQPAN_CLI_PLATFORM_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include <unistd.h>

/* 1 if standard error is a terminal (a progress line is shown there, never in a file). */
static inline int cli_stderr_is_tty(void)
{
    return isatty(STDERR_FILENO);
}

#if defined(__EMSCRIPTEN__)
/* Emscripten's getentropy (library.js: the browser's crypto.getRandomValues), declared by
 * its unistd.h only with _GNU_SOURCE / _BSD_SOURCE. */
int getentropy(void *buffer, size_t length);
/* At most 256 bytes a call. 0 or -1. */
static inline int cli_os_random(uint8_t *out, size_t len)
{
    while (len > 0) {
        size_t n = len < 256u ? len : 256u;
        if (getentropy(out, n) != 0) {
            return -1;
        }
        out += n;
        len -= n;
    }
    return 0;
}
#else
#include <sys/random.h>
/* getrandom(2) from the kernel's CSPRNG (waits once until it is seeded): no file and no
 * stdio buffer holding key material. Short reads and signals continue. 0 or -1. */
static inline int cli_os_random(uint8_t *out, size_t len)
{
    while (len > 0) {
        ssize_t n = getrandom(out, len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        out += n;
        len -= (size_t)n;
    }
    return 0;
}
#endif

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
