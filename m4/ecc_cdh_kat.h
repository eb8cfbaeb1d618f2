/* The NIST CAVP ECC CDH primitive cases for P-256 (KAS_ECC_CDH_PrimitiveTest.txt, CAVS
 * 14.1, [P-256]; tests/vectors/ecc-cdh/), embedded by m4/gen_ecc_cdh.cmake as the file
 * prints them: lowercase hex, coordinates and scalars big-endian. */
#ifndef PQPAN_M4_ECC_CDH_KAT_H
#define PQPAN_M4_ECC_CDH_KAT_H

struct pqpan_m4_cdh_case {
    unsigned count;
    const char *qcavs_x, *qcavs_y; /* the peer's public key */
    const char *d_iut;             /* the private key */
    const char *qiut_x, *qiut_y;   /* its public key */
    const char *z_iut;             /* the shared secret */
};

extern const struct pqpan_m4_cdh_case pqpan_m4_cdh_cases[];
extern const unsigned pqpan_m4_cdh_count;

#endif
