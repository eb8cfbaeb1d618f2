/* The Mesh security functions the provisioning protocol uses (MshPRT v1.1 §3.9.2: s1,
 * k1 over AES-CMAC, RFC 4493 = NIST SP 800-38B; s2, k5 over HMAC-SHA-256, FIPS 198-1). */
#include <string.h>

#include "pqpan/aes.h"
#include "pqpan/common.h"
#include "pqpan/mesh_sim.h"
#include "pqpan/sha256.h"

/* §3.9.2.2: s1(M) = AES-CMAC_ZERO(M), ZERO the 128-bit all-zero key. */
void pqpan_mesh_s1(uint8_t out[16], const uint8_t *m, size_t len)
{
    static const uint8_t zero[PQPAN_AES128_KEY_BYTES];
    pqpan_aes_cmac(out, zero, m, len);
}

/* §3.9.2.3: T = AES-CMAC_SALT(N); k1(N, SALT, P) = AES-CMAC_T(P). */
void pqpan_mesh_k1(uint8_t out[16], const uint8_t *n, size_t n_len, const uint8_t salt[16],
                   const uint8_t *p, size_t p_len)
{
    uint8_t t[PQPAN_AES_CMAC_BYTES];
    pqpan_aes_cmac(t, salt, n, n_len);
    pqpan_aes_cmac(out, t, p, p_len);
    pqpan_wipe(t, sizeof t);
}

/* §3.9.2 s2: s2(M) = HMAC-SHA-256_ZERO(M), ZERO the 256-bit all-zero key. */
void pqpan_mesh_s2(uint8_t out[32], const uint8_t *m, size_t len)
{
    static const uint8_t zero[PQPAN_SHA256_BYTES];
    pqpan_hmac_sha256(out, zero, sizeof zero, m, len);
}

/* §3.9.2 k5: T = HMAC-SHA-256_SALT(N); k5(N, SALT, P) = HMAC-SHA-256_T(P). */
void pqpan_mesh_k5(uint8_t out[32], const uint8_t *n, size_t n_len, const uint8_t salt[32],
                   const uint8_t *p, size_t p_len)
{
    uint8_t t[PQPAN_SHA256_BYTES];
    pqpan_hmac_sha256(t, salt, PQPAN_SHA256_BYTES, n, n_len);
    pqpan_hmac_sha256(out, t, sizeof t, p, p_len);
    pqpan_wipe(t, sizeof t);
}
