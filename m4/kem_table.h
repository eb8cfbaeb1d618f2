/* The three ML-KEM parameter sets behind one table, for the Cortex-M4 programs. Uses the
 * exact public names of include/pqpan/kem.h (issue 2). */
#ifndef PQPAN_M4_KEM_TABLE_H
#define PQPAN_M4_KEM_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct pqpan_m4_kem {
    const char *scheme; /* "ml-kem-512" ... (the pqm4 CSV spelling) */
    size_t ek_bytes, dk_bytes, ct_bytes;
    int (*keypair_derand)(uint8_t *ek, uint8_t *dk, const uint8_t d[32], const uint8_t z[32]);
    int (*encaps_derand)(uint8_t *ct, uint8_t ss[32], const uint8_t *ek, const uint8_t m[32]);
    int (*decaps)(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
    int (*decaps_checked_dk)(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
};

#define PQPAN_M4_KEMS 3
/* ML-KEM-512, ML-KEM-768, ML-KEM-1024, in that order. */
extern const struct pqpan_m4_kem pqpan_m4_kems[PQPAN_M4_KEMS];

/* Largest sizes (ML-KEM-1024, FIPS 203 Table 3) for buffers shared by all levels. */
#define PQPAN_M4_MAX_EK 1568
#define PQPAN_M4_MAX_DK 3168
#define PQPAN_M4_MAX_CT 1568

#endif
