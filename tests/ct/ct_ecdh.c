/* Constant-time check of P-256 ECDH under valgrind memcheck: the private keys are marked
 * undefined, so a branch or memory index that depends on them (a window digit used as a
 * table address, a conditional subtraction branched on) is reported and fails the run.
 * The library is the PQPAN_CT_TESTING build, which declassifies what is public by design:
 * whether a private key is in range, the public key, and whether the shared point is the
 * point at infinity. Inputs: the RFC 5903 §8.1 key pairs; the results are compared with
 * that section's values after being marked defined. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/ecdh.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static const uint8_t sk_i[32] = {0xc8, 0x8f, 0x01, 0xf5, 0x10, 0xd9, 0xac, 0x3f, 0x70, 0xa2, 0x92,
                                 0xda, 0xa2, 0x31, 0x6d, 0xe5, 0x44, 0xe9, 0xaa, 0xb8, 0xaf, 0xe8,
                                 0x40, 0x49, 0xc6, 0x2a, 0x9c, 0x57, 0x86, 0x2d, 0x14, 0x33};
static const uint8_t sk_r[32] = {0xc6, 0xef, 0x9c, 0x5d, 0x78, 0xae, 0x01, 0x2a, 0x01, 0x11, 0x64,
                                 0xac, 0xb3, 0x97, 0xce, 0x20, 0x88, 0x68, 0x5d, 0x8f, 0x06, 0xbf,
                                 0x9b, 0xe0, 0xb2, 0x83, 0xab, 0x46, 0x47, 0x6b, 0xee, 0x53};
static const uint8_t girx[32] = {0xd6, 0x84, 0x0f, 0x6b, 0x42, 0xf6, 0xed, 0xaf, 0xd1, 0x31, 0x16,
                                 0xe0, 0xe1, 0x25, 0x65, 0x20, 0x2f, 0xef, 0x8e, 0x9e, 0xce, 0x7d,
                                 0xce, 0x03, 0x81, 0x24, 0x64, 0xd0, 0x4b, 0x94, 0x42, 0xde};

int main(void)
{
    uint8_t i[32], r[32], gi[PQPAN_ECDH_P256_PUBLIC_BYTES], gr[PQPAN_ECDH_P256_PUBLIC_BYTES];
    uint8_t gr_c[PQPAN_ECDH_P256_COMPRESSED_BYTES], ss1[32], ss2[32];
    int rc = 0;
    memcpy(i, sk_i, sizeof i);
    memcpy(r, sk_r, sizeof r);
    SECRET(i, sizeof i);
    SECRET(r, sizeof r);
    rc |= pqpan_ecdh_p256_keypair_derand(gi, i);
    rc |= pqpan_ecdh_p256_keypair_derand(gr, r);
    rc |= pqpan_ecdh_p256_public_compress(gr_c, gr, sizeof gr);
    rc |= pqpan_ecdh_p256_shared(ss1, i, gr_c, sizeof gr_c);
    rc |= pqpan_ecdh_p256_shared(ss2, r, gi, sizeof gi);
    PUBLIC(ss1, sizeof ss1);
    PUBLIC(ss2, sizeof ss2);
    PUBLIC(&rc, sizeof rc);
    if (rc != 0 || memcmp(ss1, girx, 32) != 0 || memcmp(ss2, girx, 32) != 0) {
        fprintf(stderr, "P-256 ECDH: functional failure\n");
        return 1;
    }
    return 0;
}
