/* A program of a library user, built against an installed libpqpan (tests/integration/
 * install_package.sh builds it with pkg-config and with CMake): SHA3-256 of "abc" (FIPS 202,
 * the NIST example value), then one key exchange over the study's BLE link through the
 * analytic estimator. Prints both; exit 0 only if the digest is the NIST one. */
#include <stdio.h>
#include <string.h>

#include "pqpan/pqpan.h"

int main(void)
{
    static const uint8_t want[32] = {0x3a, 0x98, 0x5d, 0xa7, 0x4f, 0xe2, 0x25, 0xb2,
                                     0x04, 0x5c, 0x17, 0x2d, 0x6b, 0xd3, 0x90, 0xbd,
                                     0x85, 0x5f, 0x08, 0x6e, 0x3e, 0x9d, 0x52, 0x5b,
                                     0x46, 0xbf, 0xe2, 0x45, 0x11, 0x43, 0x15, 0x32};
    static const uint64_t cycles[PQPAN_OP_COUNT] = {988722, 1138225, 1387984, 0, 0, 0};
    static const struct pqpan_ble_device dev = {64000000u, 1400000u, 40000u, 58000u,
                                                120000u,   50u,      32000u};
    struct pqpan_ble_config cfg;
    struct pqpan_ble_estimate est;
    uint8_t digest[32];
    pqpan_sha3_256(digest, (const uint8_t *)"abc", 3);
    pqpan_ble_config_default(&cfg);
    if (pqpan_ble_estimate_pqke(&est, &cfg, &dev, cycles) != PQPAN_OK) {
        fprintf(stderr, "estimate failed\n");
        return 1;
    }
    printf("sha3-256(abc) %s\nlatency_ms %.3f\n", memcmp(digest, want, 32) == 0 ? "ok" : "WRONG",
           (double)est.latency_ns * 1e-6);
    return memcmp(digest, want, 32) == 0 ? 0 : 1;
}
