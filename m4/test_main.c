/* The Cortex-M4 test program: runs every suite of the portable core under QEMU
 * mps2-an386 and exits non-zero (through semihosting) if any check failed. Suites for
 * modules not in this build (ML-KEM, ML-DSA, PQKE before they exist) are left out by m4/CMakeLists.txt. */
#include "check.h"
#include "semihost.h"

struct suite {
    const char *name;
    struct pqpan_m4_tally (*run)(void);
};

static const struct suite suites[] = {
    {"sha3", pqpan_m4_test_sha3},
    {"p-256 ecdh", pqpan_m4_test_ecdh},
    {"aes, cmac, le sc f4-g2", pqpan_m4_test_lesc},
#ifdef PQPAN_M4_HAVE_KEM
    {"ml-kem acvp", pqpan_m4_test_kem},
#endif
#ifdef PQPAN_M4_HAVE_SIG
    {"ml-dsa acvp", pqpan_m4_test_sig},
#endif
#ifdef PQPAN_M4_HAVE_PQKE
    {"pqke exchange", pqpan_m4_test_pqke},
#endif
};

int main(void)
{
    struct pqpan_m4_tally total = {0, 0};
    for (size_t i = 0; i < sizeof suites / sizeof suites[0]; i++) {
        struct pqpan_m4_tally t = suites[i].run();
        pqpan_m4_puts("m4 suite ");
        pqpan_m4_puts(suites[i].name);
        pqpan_m4_puts(": ");
        pqpan_m4_put_u32(t.passed);
        pqpan_m4_puts(" passed, ");
        pqpan_m4_put_u32(t.failed);
        pqpan_m4_puts(" failed\n");
        total.passed += t.passed;
        total.failed += t.failed;
    }
    pqpan_m4_puts("m4 total: ");
    pqpan_m4_put_u32(total.passed);
    pqpan_m4_puts(" passed, ");
    pqpan_m4_put_u32(total.failed);
    pqpan_m4_puts(" failed\n");
    return total.failed == 0 && total.passed > 0 ? 0 : 1;
}
