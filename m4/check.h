/* Pass/fail bookkeeping for the Cortex-M4 test program (no stdio: results go out through
 * semihosting). A suite returns its counts; main prints one summary line per suite. */
#ifndef PQPAN_M4_CHECK_H
#define PQPAN_M4_CHECK_H

#include <stddef.h>
#include <stdint.h>

struct pqpan_m4_tally {
    uint32_t passed;
    uint32_t failed;
};

/* Counts one check; on failure prints "FAIL <what> tcId=<id>". */
void pqpan_m4_check(struct pqpan_m4_tally *t, int ok, const char *what, uint32_t id);
/* 1 if got[0..len) equals the bytes of the lowercase hex string want (2*len digits). */
int pqpan_m4_equal_hex(const uint8_t *got, size_t len, const char *want);
/* Decodes the lowercase hex string hex (exactly 2*len digits) into out; 1 on success. */
int pqpan_m4_from_hex(uint8_t *out, size_t len, const char *hex);
/* xorshift64 (G. Marsaglia, "Xorshift RNGs", J. Stat. Softw. 8(14), 2003) on *state
 * (non-zero): test inputs only, never a source of secrets. */
uint64_t pqpan_m4_random(uint64_t *state);
/* 1 if p[0..len) is all zero. */
int pqpan_m4_all_zero(const uint8_t *p, size_t len);

/* Suites (one per module of the portable core). */
struct pqpan_m4_tally pqpan_m4_test_sha3(void);
struct pqpan_m4_tally pqpan_m4_test_kem(void);
struct pqpan_m4_tally pqpan_m4_test_sig(void);
struct pqpan_m4_tally pqpan_m4_test_pqke(void);
struct pqpan_m4_tally pqpan_m4_test_ecdh(void);
struct pqpan_m4_tally pqpan_m4_test_lesc(void);

#endif
