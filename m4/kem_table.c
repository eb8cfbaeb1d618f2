/* ML-KEM parameter sets for the Cortex-M4 programs. */
#include "kem_table.h"

#include "pqpan/kem.h"

_Static_assert(PQPAN_MLKEM1024_EK_BYTES == PQPAN_M4_MAX_EK, "ML-KEM-1024 ek size");
_Static_assert(PQPAN_MLKEM1024_DK_BYTES == PQPAN_M4_MAX_DK, "ML-KEM-1024 dk size");
_Static_assert(PQPAN_MLKEM1024_CT_BYTES == PQPAN_M4_MAX_CT, "ML-KEM-1024 ct size");

const struct pqpan_m4_kem pqpan_m4_kems[PQPAN_M4_KEMS] = {
    {"ml-kem-512", PQPAN_MLKEM512_EK_BYTES, PQPAN_MLKEM512_DK_BYTES, PQPAN_MLKEM512_CT_BYTES,
     pqpan_mlkem512_keypair_derand, pqpan_mlkem512_encaps_derand, pqpan_mlkem512_decaps,
     pqpan_mlkem512_decaps_checked_dk},
    {"ml-kem-768", PQPAN_MLKEM768_EK_BYTES, PQPAN_MLKEM768_DK_BYTES, PQPAN_MLKEM768_CT_BYTES,
     pqpan_mlkem768_keypair_derand, pqpan_mlkem768_encaps_derand, pqpan_mlkem768_decaps,
     pqpan_mlkem768_decaps_checked_dk},
    {"ml-kem-1024", PQPAN_MLKEM1024_EK_BYTES, PQPAN_MLKEM1024_DK_BYTES, PQPAN_MLKEM1024_CT_BYTES,
     pqpan_mlkem1024_keypair_derand, pqpan_mlkem1024_encaps_derand, pqpan_mlkem1024_decaps,
     pqpan_mlkem1024_decaps_checked_dk},
};
