/* Hooks for the constant-time test (tests/ct): with PQPAN_CT_TESTING defined, values that
 * are derived from secrets but public by design (e.g. the ML-KEM matrix seed rho, which is
 * part of ek) are marked "defined" for valgrind memcheck, which otherwise reports every
 * branch on them. In normal builds the hook compiles to nothing. */
#ifndef PQPAN_CT_TESTING_H
#define PQPAN_CT_TESTING_H

#ifdef PQPAN_CT_TESTING
#include <valgrind/memcheck.h>
#define PQPAN_CT_DECLASSIFY(p, len) ((void)VALGRIND_MAKE_MEM_DEFINED((p), (len)))
#else
#define PQPAN_CT_DECLASSIFY(p, len) ((void)(p), (void)(len))
#endif

#endif
