/* The ML-DSA build behind the public API: speed when compiled with PQPAN_MLDSA_SPEED
 * (CMake PQPAN_MLDSA_IMPL=speed, the host default), small otherwise (the Cortex-M4 and web
 * builds, which pass no definition). Alone in its file so that the test suite can link
 * the other choice ahead of the library (tests/CMakeLists.txt) and run both builds. */
#include "crypto/mldsa/mldsa.h"

#ifdef PQPAN_MLDSA_SPEED
#define BUILD(name) pqpan_mldsa_##name##_speed
#define BUILD_NAME "speed"
#else
#define BUILD(name) pqpan_mldsa_##name
#define BUILD_NAME "small"
#endif

void pqpan_mldsa_build_keygen(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                              const uint8_t xi[PQPAN_MLDSA_SEEDBYTES])
{
    BUILD(keygen)(p, pk, sk, xi);
}

int pqpan_mldsa_build_sign(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                           const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES])
{
    return BUILD(sign)(p, sig, sk, m, rnd);
}

int pqpan_mldsa_build_verify(const struct mldsa_params *p, const uint8_t *pk,
                             const struct mldsa_msg *m, const uint8_t *sig, size_t sig_len)
{
    return BUILD(verify)(p, pk, m, sig, sig_len);
}

const char *pqpan_mldsa_build_name(void)
{
    return BUILD_NAME;
}
