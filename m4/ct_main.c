/* The constant-time check on the Cortex-M4 (issue 18): runs each ML-KEM operation between
 * the measurement markers several times with the same public inputs and different
 * secrets, while the plugin (tools/qemu-insn, trace=on) hashes the sequence of executed
 * blocks and data addresses; tests/integration/m4_qemu.sh requires equal hashes for all
 * runs of an operation. Two canaries with a planted secret-dependent branch and a
 * secret-indexed load must give different hashes, which shows the check can fail.
 *
 * Secrets varied, per level:
 *   keygen  z (the implicit-rejection secret). d is not varied: it also determines rho,
 *           and SampleNTT's rejection loop runs a rho-dependent (public) number of times;
 *           the secret vectors of keygen go through the same NTT, base multiplication
 *           and CBD code that encaps and decaps exercise with varied secrets.
 *   encaps  the message m (hence the shared secret, r and the noise), same ek.
 *   decaps  the ciphertext accepted or rejected (implicit rejection: one byte of c
 *           flipped), and the secret vector s (one coefficient of dk changed).
 * Prints "ct,<scheme>,<operation>,<status>" per run; the plugin prints one trace line per
 * run, in the same order. */
#include <string.h>

#include "bench.h"
#include "kem_table.h"
#include "semihost.h"

struct ct_buffers {
    uint8_t ek[PQPAN_M4_MAX_EK];
    uint8_t dk[PQPAN_M4_MAX_DK];
    uint8_t dk_in[PQPAN_M4_MAX_DK];
    uint8_t ct[PQPAN_M4_MAX_CT];
    uint8_t ct_in[PQPAN_M4_MAX_CT];
    uint8_t ss[32];
};

static void report(const char *scheme, const char *operation, int status)
{
    pqpan_m4_puts("ct,");
    pqpan_m4_puts(scheme);
    pqpan_m4_puts(",");
    pqpan_m4_puts(operation);
    pqpan_m4_puts(",");
    pqpan_m4_put_u32(status == 0 ? 0u : 1u);
    pqpan_m4_puts("\n");
}

static int keygen_runs(const struct pqpan_m4_kem *kem, struct ct_buffers *b)
{
    static const uint8_t d[32] = {0x11};
    uint8_t z[32];
    int failed = 0;
    for (int run = 0; run < 2; run++) {
        memset(z, run ? 0xff : 0x00, sizeof z);
        pqpan_m4_mark_begin();
        int rc = kem->keypair_derand(b->ek, b->dk, d, z);
        pqpan_m4_mark_end();
        report(kem->scheme, "keygen", rc);
        failed |= rc != 0;
    }
    return failed;
}

static int encaps_runs(const struct pqpan_m4_kem *kem, struct ct_buffers *b)
{
    uint8_t m[32];
    int failed = 0;
    for (int run = 0; run < 3; run++) {
        for (size_t i = 0; i < sizeof m; i++) {
            m[i] = (uint8_t)(run == 0 ? 0x00 : run == 1 ? 0xff : 37 * i + 5);
        }
        pqpan_m4_mark_begin();
        int rc = kem->encaps_derand(b->ct, b->ss, b->ek, m);
        pqpan_m4_mark_end();
        report(kem->scheme, "encaps", rc);
        failed |= rc != 0;
    }
    return failed;
}

/* Decapsulation of the last encapsulation's c: accepted with dk, rejected when c has one
 * byte flipped, rejected with another s (the first coefficient of dk_PKE changed by one,
 * still a 12-bit value). Each run's inputs are copied to the same buffers first, so
 * that only their contents differ. */
static int decaps_runs(const struct pqpan_m4_kem *kem, struct ct_buffers *b)
{
    int failed = 0;
    memcpy(b->ct_in, b->ct, kem->ct_bytes);
    for (int run = 0; run < 3; run++) {
        memcpy(b->dk_in, b->dk, kem->dk_bytes);
        b->ct_in[kem->ct_bytes / 2] ^= (uint8_t)(run == 1);
        b->dk_in[0] ^= (uint8_t)(run == 2);
        pqpan_m4_mark_begin();
        int rc = kem->decaps(b->ss, b->ct_in, b->dk_in);
        pqpan_m4_mark_end();
        report(kem->scheme, "decaps", rc);
        failed |= rc != 0;
        b->ct_in[kem->ct_bytes / 2] ^= (uint8_t)(run == 1);
    }
    return failed;
}

/* Planted leaks, for the check's own test: a branch on a secret bit, and a load whose
 * address is a secret byte. Their traces must differ between the two secrets. */
static volatile uint32_t canary_sink;

__attribute__((noinline)) static void leak_branch(const uint8_t *secret)
{
    if (secret[0] & 1) {
        canary_sink = canary_sink + 1;
    }
}

__attribute__((noinline)) static void leak_address(const uint8_t *secret)
{
    static volatile uint8_t table[256];
    canary_sink = table[secret[0]];
}

static void canary_runs(void)
{
    static const uint8_t secrets[2][1] = {{0x00}, {0x81}};
    for (int run = 0; run < 2; run++) {
        pqpan_m4_mark_begin();
        leak_branch(secrets[run]);
        pqpan_m4_mark_end();
        report("canary", "branch", 0);
    }
    for (int run = 0; run < 2; run++) {
        pqpan_m4_mark_begin();
        leak_address(secrets[run]);
        pqpan_m4_mark_end();
        report("canary", "address", 0);
    }
}

int main(void)
{
    static struct ct_buffers b;
    int failed = 0;
    canary_runs();
    for (size_t l = 0; l < PQPAN_M4_KEMS; l++) {
        failed |= keygen_runs(&pqpan_m4_kems[l], &b);
        failed |= encaps_runs(&pqpan_m4_kems[l], &b);
        failed |= decaps_runs(&pqpan_m4_kems[l], &b);
    }
    pqpan_m4_puts(failed ? "ct: FAILED\n" : "ct: done\n");
    return failed;
}
