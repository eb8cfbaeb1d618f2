/* ML-KEM parameters (FIPS 203 §8, Table 2) and every size derived from them (Table 3).
 * One header for the whole scheme (STYLE.md habit 3); each size is pinned below. */
#ifndef PQPAN_MLKEM_PARAMS_H
#define PQPAN_MLKEM_PARAMS_H

#include <stddef.h>

#include "pqpan/kem.h"

/* n = 256, q = 3329 (FIPS 203 §2.4). */
#define PQPAN_MLKEM_N 256
#define PQPAN_MLKEM_Q 3329
/* Seeds, hashes, messages and shared secrets are 32 bytes (FIPS 203 §3.3, Alg. 13-18). */
#define PQPAN_MLKEM_SYMBYTES 32
/* ByteEncode_12 of one polynomial: 256 * 12 / 8 bytes (FIPS 203 Alg. 5). */
#define PQPAN_MLKEM_POLYBYTES (PQPAN_MLKEM_N * 12 / 8)

/* Table 2: k, eta1, eta2, du, dv. eta2 = 2 for every set. */
#define PQPAN_MLKEM_ETA2 2
#define PQPAN_MLKEM512_K 2
#define PQPAN_MLKEM512_ETA1 3
#define PQPAN_MLKEM512_DU 10
#define PQPAN_MLKEM512_DV 4
#define PQPAN_MLKEM768_K 3
#define PQPAN_MLKEM768_ETA1 2
#define PQPAN_MLKEM768_DU 10
#define PQPAN_MLKEM768_DV 4
#define PQPAN_MLKEM1024_K 4
#define PQPAN_MLKEM1024_ETA1 2
#define PQPAN_MLKEM1024_DU 11
#define PQPAN_MLKEM1024_DV 5

/* Table 3 sizes from Alg. 13/14/16: ek = 384k + 32, dk = 768k + 96,
 * c = 32 (du k + dv). */
#define PQPAN_MLKEM_EK_SIZE(k) (PQPAN_MLKEM_POLYBYTES * (k) + PQPAN_MLKEM_SYMBYTES)
#define PQPAN_MLKEM_DKPKE_SIZE(k) (PQPAN_MLKEM_POLYBYTES * (k))
#define PQPAN_MLKEM_DK_SIZE(k) \
    (PQPAN_MLKEM_DKPKE_SIZE(k) + PQPAN_MLKEM_EK_SIZE(k) + 2 * PQPAN_MLKEM_SYMBYTES)
#define PQPAN_MLKEM_CT_SIZE(k, du, dv) (PQPAN_MLKEM_N / 8 * ((du) * (k) + (dv)))

_Static_assert(PQPAN_MLKEM_EK_SIZE(PQPAN_MLKEM512_K) == PQPAN_MLKEM512_EK_BYTES, "ek 512");
_Static_assert(PQPAN_MLKEM_DK_SIZE(PQPAN_MLKEM512_K) == PQPAN_MLKEM512_DK_BYTES, "dk 512");
_Static_assert(PQPAN_MLKEM_CT_SIZE(PQPAN_MLKEM512_K, PQPAN_MLKEM512_DU, PQPAN_MLKEM512_DV) ==
                   PQPAN_MLKEM512_CT_BYTES, "ct 512");
_Static_assert(PQPAN_MLKEM_EK_SIZE(PQPAN_MLKEM768_K) == PQPAN_MLKEM768_EK_BYTES, "ek 768");
_Static_assert(PQPAN_MLKEM_DK_SIZE(PQPAN_MLKEM768_K) == PQPAN_MLKEM768_DK_BYTES, "dk 768");
_Static_assert(PQPAN_MLKEM_CT_SIZE(PQPAN_MLKEM768_K, PQPAN_MLKEM768_DU, PQPAN_MLKEM768_DV) ==
                   PQPAN_MLKEM768_CT_BYTES, "ct 768");
_Static_assert(PQPAN_MLKEM_EK_SIZE(PQPAN_MLKEM1024_K) == PQPAN_MLKEM1024_EK_BYTES, "ek 1024");
_Static_assert(PQPAN_MLKEM_DK_SIZE(PQPAN_MLKEM1024_K) == PQPAN_MLKEM1024_DK_BYTES, "dk 1024");
_Static_assert(PQPAN_MLKEM_CT_SIZE(PQPAN_MLKEM1024_K, PQPAN_MLKEM1024_DU,
                                   PQPAN_MLKEM1024_DV) == PQPAN_MLKEM1024_CT_BYTES, "ct 1024");
/* FIPS 203 Table 3, the published sizes in bytes. */
_Static_assert(PQPAN_MLKEM512_EK_BYTES == 800 && PQPAN_MLKEM512_DK_BYTES == 1632 &&
                   PQPAN_MLKEM512_CT_BYTES == 768, "Table 3, ML-KEM-512");
_Static_assert(PQPAN_MLKEM768_EK_BYTES == 1184 && PQPAN_MLKEM768_DK_BYTES == 2400 &&
                   PQPAN_MLKEM768_CT_BYTES == 1088, "Table 3, ML-KEM-768");
_Static_assert(PQPAN_MLKEM1024_EK_BYTES == 1568 && PQPAN_MLKEM1024_DK_BYTES == 3168 &&
                   PQPAN_MLKEM1024_CT_BYTES == 1568, "Table 3, ML-KEM-1024");
_Static_assert(PQPAN_MLKEM_SS_BYTES == PQPAN_MLKEM_SYMBYTES, "shared secret is 32 bytes");

/* One parameter set at run time; the kem.c entry points pass one of three constants. */
struct mlkem_params {
    unsigned k;
    unsigned eta1;
    unsigned du;
    unsigned dv;
    size_t ek_bytes;
    size_t dk_bytes;
    size_t ct_bytes;
};

#endif
