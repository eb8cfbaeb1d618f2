/* Compiler hints for the library. PQPAN_NOINLINE keeps a function out of line, so that its
 * locals are not part of its caller's frame while the caller makes deeper calls; the
 * ML-KEM code uses it to keep the peak stack low (docs/M4.md). gcc and clang spell it
 * __attribute__((noinline)); other compilers get no hint. PQPAN_ALWAYS_INLINE is the
 * opposite: a function written once for a parameter that its callers pass as constants
 * (ML-DSA's gamma2) is inlined into each, where the constant folds. */
#ifndef PQPAN_COMMON_COMPILER_H
#define PQPAN_COMMON_COMPILER_H

/* PQPAN_OPAQUE(x) hides the value of the variable x from the optimiser (an empty asm
 * statement that may change it), so that a multiplication by a constant held in x stays
 * one multiply instruction instead of the shift-and-add sequence gcc prefers for x86-64:
 * the ML-DSA NTT multiplies by q twice per butterfly. Other compilers get nothing. */
#if defined(__GNUC__) || defined(__clang__)
#define PQPAN_NOINLINE __attribute__((noinline))
#define PQPAN_ALWAYS_INLINE inline __attribute__((always_inline))
#define PQPAN_OPAQUE(x) __asm__("" : "+r"(x))
#else
#define PQPAN_NOINLINE
#define PQPAN_ALWAYS_INLINE inline
#define PQPAN_OPAQUE(x) ((void)(x))
#endif

#endif
