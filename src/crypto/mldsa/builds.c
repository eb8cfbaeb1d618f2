/* Both ML-DSA builds as function tables, for tests/unit/test_mldsa_impl.c, which checks
 * that they agree byte for byte. Nothing in the library refers to these tables, so no
 * program but the tests links this file or, through it, the build it does not use. */
#include "crypto/mldsa/mldsa.h"

const struct mldsa_impl pqpan_mldsa_small_impl = {pqpan_mldsa_keygen, pqpan_mldsa_sign,
                                                  pqpan_mldsa_verify};
const struct mldsa_impl pqpan_mldsa_speed_impl = {pqpan_mldsa_keygen_speed, pqpan_mldsa_sign_speed,
                                                  pqpan_mldsa_verify_speed};
