/* Fuzzes ML-KEM decapsulation and the FIPS 203 §7 key checks with arbitrary bytes.
 * Input: byte 0 selects the parameter set (low 2 bits) and whether dk gets a correct
 * H(ek) (bit 2) so that decapsulation runs past the §7.3 check on any dk_pke (coefficients
 * >= q included); then dk, then c, zero-padded when short. Nothing may crash; a dk that
 * passes the check must decapsulate, and the same inputs give the same key. The leading
 * bytes are also run through the ek check at every length the input allows. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/kem.h"
#include "pqpan/sha3.h"

static void take(uint8_t *out, size_t want, const uint8_t **data, size_t *size)
{
    size_t n = *size < want ? *size : want;
    memset(out, 0, want);
    memcpy(out, *data, n);
    *data += n;
    *size -= n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t dk[PQPAN_KEM_DK_MAX_BYTES], c[PQPAN_KEM_CT_MAX_BYTES];
    const struct pqpan_kem *kem;
    uint8_t ss1[32], ss2[32];
    size_t dk_pke_len;
    int fix_hash, ret;
    if (size < 1) {
        return 0;
    }
    kem = pqpan_kem_at((size_t)(data[0] & 3) % PQPAN_KEM_COUNT);
    fix_hash = (data[0] >> 2) & 1;
    data++;
    size--;
    (void)kem->check_ek(data, size < PQPAN_KEM_EK_MAX_BYTES ? size : PQPAN_KEM_EK_MAX_BYTES);
    take(dk, kem->dk_bytes, &data, &size);
    take(c, kem->ct_bytes, &data, &size);
    dk_pke_len = kem->dk_bytes - kem->ek_bytes - 64;
    if (fix_hash) {
        pqpan_sha3_256(dk + dk_pke_len + kem->ek_bytes, dk + dk_pke_len, kem->ek_bytes);
    }
    ret = kem->decaps(ss1, c, dk);
    if (ret != kem->check_dk(dk, kem->dk_bytes)) {
        abort();
    }
    if (ret == 0 && (kem->decaps(ss2, c, dk) != 0 || memcmp(ss1, ss2, 32) != 0)) {
        abort();
    }
    return 0;
}
