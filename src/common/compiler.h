/* Compiler hints for the library. PQPAN_NOINLINE keeps a function out of line, so that its
 * locals are not part of its caller's frame while the caller makes deeper calls; the
 * ML-KEM code uses it to keep the peak stack low (docs/M4.md). gcc and clang spell it
 * __attribute__((noinline)); other compilers get no hint. */
#ifndef PQPAN_COMMON_COMPILER_H
#define PQPAN_COMMON_COMPILER_H

#if defined(__GNUC__) || defined(__clang__)
#define PQPAN_NOINLINE __attribute__((noinline))
#else
#define PQPAN_NOINLINE
#endif

#endif
