/* libFuzzer target: P-256 public-key parsing (SEC 1 §2.3.4, uncompressed and compressed,
 * with the validation of SP 800-56A §5.6.2.3.3; src/crypto/p256/ecdh.c). Any input goes
 * through decode, compress and the shared-secret computation with a fixed private key.
 * What is accepted must be consistent: decode and compress agree with each other (the
 * compressed form decodes to the same point), the shared secret is the same from either
 * encoding, and everything rejected is rejected the same way by every entry point with
 * zeroed outputs. Seeds: the generator and the Bluetooth debug key in both encodings, the
 * point at infinity, an off-curve point (tests/fuzz/corpus/ecdh_public/). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/ecdh.h"

static const uint8_t sk[32] = {0x3f, 0x49, 0xf6, 0xd4, 0xa3, 0xc5, 0x5f, 0x38, 0x74, 0xc9, 0xb3,
                               0xe3, 0xd2, 0x10, 0x3f, 0x50, 0x4a, 0xff, 0x60, 0x7b, 0xeb, 0x40,
                               0xb7, 0x99, 0x58, 0x99, 0xb8, 0xa6, 0xcd, 0x3c, 0x1a, 0xbd};

static int all_zero(const uint8_t *p, size_t len)
{
    uint8_t acc = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint8_t full[PQPAN_ECDH_P256_PUBLIC_BYTES], again[PQPAN_ECDH_P256_PUBLIC_BYTES];
    uint8_t comp[PQPAN_ECDH_P256_COMPRESSED_BYTES], ss1[32], ss2[32];
    int rc_decode = pqpan_ecdh_p256_public_decode(full, data, size);
    int rc_compress = pqpan_ecdh_p256_public_compress(comp, data, size);
    int rc_shared = pqpan_ecdh_p256_shared(ss1, sk, data, size);
    if (rc_decode != rc_compress || rc_decode != rc_shared) {
        abort();
    }
    if (rc_decode != PQPAN_OK) {
        if (!all_zero(full, sizeof full) || !all_zero(comp, sizeof comp) || !all_zero(ss1, sizeof ss1)) {
            abort();
        }
        return 0;
    }
    if (pqpan_ecdh_p256_public_decode(again, comp, sizeof comp) != PQPAN_OK ||
        memcmp(again, full, sizeof full) != 0 ||
        pqpan_ecdh_p256_shared(ss2, sk, full, sizeof full) != PQPAN_OK ||
        memcmp(ss1, ss2, sizeof ss1) != 0 || (size == sizeof full && memcmp(full, data, size) != 0) ||
        (size == sizeof comp && memcmp(comp, data, size) != 0)) {
        abort();
    }
    return 0;
}
