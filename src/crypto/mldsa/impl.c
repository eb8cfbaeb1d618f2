/* The ML-DSA build behind the public API: speed when compiled with PQPAN_MLDSA_SPEED
 * (CMake PQPAN_MLDSA_IMPL=speed, the host default), small otherwise (the Cortex-M4 and web
 * builds, which pass no definition). Alone in its file so that the test suite can link
 * the other choice ahead of the library (tests/CMakeLists.txt) and run both builds. */
#include "crypto/mldsa/mldsa.h"

#ifdef PQPAN_MLDSA_SPEED
const struct mldsa_impl *const pqpan_mldsa_impl = &pqpan_mldsa_speed_impl;
#else
const struct mldsa_impl *const pqpan_mldsa_impl = &pqpan_mldsa_small_impl;
#endif
