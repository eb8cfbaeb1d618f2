/* Constant-time check of ML-KEM under valgrind memcheck: the secret inputs (d, z, m, the
 * secret parts of dk) are marked undefined, so any branch or memory index that depends on
 * them is reported as a use of an uninitialised value and the run fails
 * (--error-exitcode=1). Outputs that the protocol publishes (ek, c, the copy of ek and
 * H(ek) in dk) are marked defined again before use. The library is linked in its
 * PQPAN_CT_TESTING build, where the seed rho (public: it is part of ek) is declassified. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/kem.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static int check_level(const struct pqpan_kem *kem)
{
    static uint8_t ek[PQPAN_KEM_EK_MAX_BYTES], dk[PQPAN_KEM_DK_MAX_BYTES];
    static uint8_t ct[PQPAN_KEM_CT_MAX_BYTES];
    uint8_t d[32], z[32], m[32], ss_enc[32], ss_dec[32], ss_rej[32];
    const size_t dk_pke = kem->dk_bytes - kem->ek_bytes - 64;
    int ret = 0;

    memset(d, 0x11, sizeof d);
    memset(z, 0x22, sizeof z);
    memset(m, 0x33, sizeof m);
    SECRET(d, sizeof d);
    SECRET(z, sizeof z);
    SECRET(m, sizeof m);

    ret |= kem->keypair_derand(ek, dk, d, z);
    PUBLIC(ek, kem->ek_bytes);
    PUBLIC(dk + dk_pke, kem->ek_bytes + 32); /* ek || H(ek) inside dk */

    ret |= kem->encaps_derand(ct, ss_enc, ek, m);
    PUBLIC(ct, kem->ct_bytes);

    ret |= kem->decaps(ss_dec, ct, dk);
    ct[0] ^= 1; /* implicit rejection path (Alg. 18 line 10) */
    ret |= kem->decaps(ss_rej, ct, dk);

    PUBLIC(ss_enc, sizeof ss_enc);
    PUBLIC(ss_dec, sizeof ss_dec);
    PUBLIC(ss_rej, sizeof ss_rej);
    PUBLIC(&ret, sizeof ret);
    if (ret != 0 || memcmp(ss_enc, ss_dec, 32) != 0 || memcmp(ss_enc, ss_rej, 32) == 0) {
        fprintf(stderr, "%s: functional failure\n", kem->name);
        return 1;
    }
    return 0;
}

int main(void)
{
    size_t i;
    int failed = 0;
    for (i = 0; i < PQPAN_KEM_COUNT; i++) {
        failed |= check_level(pqpan_kem_at(i));
    }
    return failed;
}
