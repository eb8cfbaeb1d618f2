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
 * And P-256 (src/crypto/p256/, small or speed build, with the backend's field arithmetic
 * in assembly when PQPAN_M4_ASM is on), secret scalar varied over 1, a value of
 * repeated bytes and one close below n:
 *   keygen  k · G (the speed build's fixed-base table: every entry read for each digit).
 *   shared  k · Q for one public key Q (RFC 5903 §8.1's g^r).
 * And ML-DSA's transforms (src/crypto/mldsa/ntt.c, or src/crypto/m4/mldsa_ntt_m4.S with the
 * backend), the polynomial varied over all zero, extreme values of alternating sign and
 * pseudo-random values (the secret operand of signing's products: y, s1, s2, t0, c):
 *   ntt, invntt, and pointwise and pointwise_acc with one fixed public operand (the
 *   accumulator of pointwise_acc holds the secret too);
 *   ball    SampleInBall's swaps (pqpan_mldsa_ball_step) for the 60 positions of
 *           ML-DSA-87 with secret positions j and signs: j = 0 and +1 always, j = i and -1
 *           always, pseudo-random j <= i and signs.
 * And ML-KEM's transforms and base multiplications (src/crypto/mlkem/ntt.c, or
 * src/crypto/m4/mlkem_ntt_m4.S with the backend) on their own, the secret polynomial (s,
 * y, e, the message's u and v: FIPS 203 Alg. 13-15) varied over all zero, extreme values
 * of alternating sign and pseudo-random values within each function's input bound:
 *   ntt, invntt, and basemul_acc_encoded and basemul_acc_bytes with the secret as the
 *   first operand (its ByteEncode_12 or int16 coefficients), the second and the
 *   accumulator fixed.
 * And SHA-256 (src/crypto/sha256.c) over a secret 64-octet block, and HMAC-SHA-256 under a
 * secret key (all zero, all 0xff, pseudo-random) of a fixed message.
 * Prints "ct,<scheme>,<operation>,<status>" per run; the plugin prints one trace line per
 * run, in the same order. */
#include <string.h>

#include "bench.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/sampling.h"
#include "crypto/mlkem/ntt.h"
#include "kem_table.h"
#include "pqpan/ecdh.h"
#include "pqpan/sha256.h"
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

struct ct_ecdh_buffers {
    uint8_t sk[32];
    uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES];
    uint8_t ss[32];
};

/* The secret scalars: 1, 0x5a repeated, 2^128 floor(n / 2^128) - 1 (n: SP 800-186
 * §3.2.1.3, top half ffffffff 00000000 ffffffff ffffffff); all in [1, n - 1]. Copied
 * into the same buffer by the same code for each run, so that only the contents differ
 * (a loop that computed them could be split by the compiler into per-run code inside
 * the measured region). */
static const uint8_t ecdh_secrets[3][32] = {
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
     0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1},
    {0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a,
     0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a, 0x5a},
    {0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
     0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}};

static int ecdh_runs(struct ct_ecdh_buffers *b)
{
    /* RFC 5903 §8.1: g^r = (gx, gy) */
    static const uint8_t peer[PQPAN_ECDH_P256_PUBLIC_BYTES] = {
        0x04, 0xd1, 0x2d, 0xfb, 0x52, 0x89, 0xc8, 0xd4, 0xf8, 0x12, 0x08, 0xb7, 0x02, 0x70,
        0x39, 0x8c, 0x34, 0x22, 0x96, 0x97, 0x0a, 0x0b, 0xcc, 0xb7, 0x4c, 0x73, 0x6f, 0xc7,
        0x55, 0x44, 0x94, 0xbf, 0x63, 0x56, 0xfb, 0xf3, 0xca, 0x36, 0x6c, 0xc2, 0x3e, 0x81,
        0x57, 0x85, 0x4c, 0x13, 0xc5, 0x8d, 0x6a, 0xac, 0x23, 0xf0, 0x46, 0xad, 0xa3, 0x0f,
        0x83, 0x53, 0xe7, 0x4f, 0x33, 0x03, 0x98, 0x72, 0xab};
    int failed = 0;
    for (int run = 0; run < 3; run++) {
        memcpy(b->sk, ecdh_secrets[run], sizeof b->sk);
        pqpan_m4_mark_begin();
        int rc = pqpan_ecdh_p256_keypair_derand(b->pk, b->sk);
        pqpan_m4_mark_end();
        report("p-256", "keygen", rc);
        failed |= rc != 0;
    }
    memcpy(b->pk, peer, sizeof peer);
    for (int run = 0; run < 3; run++) {
        memcpy(b->sk, ecdh_secrets[run], sizeof b->sk);
        pqpan_m4_mark_begin();
        int rc = pqpan_ecdh_p256_shared(b->ss, b->sk, b->pk, sizeof b->pk);
        pqpan_m4_mark_end();
        report("p-256", "shared", rc);
        failed |= rc != 0;
    }
    return failed;
}

struct ct_mldsa_buffers {
    int32_t in[PQPAN_MLDSA_N];
    int32_t a[PQPAN_MLDSA_N];
    int32_t b[PQPAN_MLDSA_N];
    int8_t c[PQPAN_MLDSA_N];           /* SampleInBall's polynomial */
    uint8_t j[PQPAN_MLDSA_N];          /* its secret positions, per i */
    uint8_t sign[PQPAN_MLDSA_N];       /* and signs */
};

/* SampleInBall's positions i = 196..255 (tau = 60, ML-DSA-87). */
#define BALL_FIRST (PQPAN_MLDSA_N - 60)

/* Run `run`'s secret polynomial in b->in, every coefficient within [-bound, bound]: all
 * zero, +bound and -bound alternately, then xorshift32 values (Marsaglia 2003; test
 * inputs only) reduced into the range. Computed outside the measured region. */
static void mldsa_secret(struct ct_mldsa_buffers *b, int run, int32_t bound)
{
    uint32_t x = 0x6d2b79f5u;
    for (size_t i = 0; i < PQPAN_MLDSA_N; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b->in[i] = run == 0   ? 0
                   : run == 1 ? (i % 2 ? -bound : bound)
                              : (int32_t)(x % (2u * (uint32_t)bound + 1u)) - bound;
    }
}

/* One transform of ML-DSA on three secrets, each copied into the same buffer first. */
static void mldsa_runs(struct ct_mldsa_buffers *b, const char *operation, int32_t bound,
                       void (*op)(struct ct_mldsa_buffers *))
{
    for (int run = 0; run < 3; run++) {
        mldsa_secret(b, run, bound);
        memcpy(b->a, b->in, sizeof b->a);
        pqpan_m4_mark_begin();
        op(b);
        pqpan_m4_mark_end();
        report("ml-dsa", operation, 0);
    }
}

static void mldsa_ntt_op(struct ct_mldsa_buffers *b)
{
    pqpan_mldsa_ntt(b->a);
}

static void mldsa_invntt_op(struct ct_mldsa_buffers *b)
{
    pqpan_mldsa_invntt(b->a);
}

static void mldsa_pointwise_op(struct ct_mldsa_buffers *b)
{
    pqpan_mldsa_pointwise(b->a, b->a, b->b);
}

static void mldsa_pointwise_acc_op(struct ct_mldsa_buffers *b)
{
    pqpan_mldsa_pointwise_acc(b->a, b->a, b->b);
}

/* The input bounds of ntt.h: q - 1 for the NTT, 2^31 - 2^22 - 1 for the inverse, 9q - 1
 * for the product (whose public operand is a fixed NTT-domain polynomial). */
static void mldsa_kernel_runs(struct ct_mldsa_buffers *b)
{
    mldsa_runs(b, "ntt", PQPAN_MLDSA_Q - 1, mldsa_ntt_op);
    mldsa_runs(b, "invntt", INT32_MAX - (1 << 22), mldsa_invntt_op);
    for (size_t i = 0; i < PQPAN_MLDSA_N; i++) {
        b->b[i] = (int32_t)(i * 32749u % (18u * PQPAN_MLDSA_Q - 1u)) - (9 * PQPAN_MLDSA_Q - 1);
    }
    mldsa_runs(b, "pointwise", 9 * PQPAN_MLDSA_Q - 1, mldsa_pointwise_op);
    mldsa_runs(b, "pointwise_acc", 9 * PQPAN_MLDSA_Q - 1, mldsa_pointwise_acc_op);
}

/* The swaps of SampleInBall with run `run`'s secret positions and signs, chosen outside the
 * measured region (xorshift32 for the third run, as mldsa_secret). */
static void mldsa_ball_runs(struct ct_mldsa_buffers *b)
{
    uint32_t x = 0x2545f491u;
    for (int run = 0; run < 3; run++) {
        for (unsigned i = BALL_FIRST; i < PQPAN_MLDSA_N; i++) {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            b->j[i] = (uint8_t)(run == 0 ? 0 : run == 1 ? i : x % (i + 1));
            b->sign[i] = run == 0 ? 0x01 : run == 1 ? 0xFF : (x >> 16 & 1 ? 0xFF : 0x01);
        }
        memset(b->c, 0, sizeof b->c);
        pqpan_m4_mark_begin();
        for (unsigned i = BALL_FIRST; i < PQPAN_MLDSA_N; i++) {
            pqpan_mldsa_ball_step(b->c, i, b->j[i], b->sign[i]);
        }
        pqpan_m4_mark_end();
        report("ml-dsa", "ball", 0);
    }
}

struct ct_mlkem_buffers {
    int16_t in[PQPAN_MLKEM_N];
    int16_t a[PQPAN_MLKEM_N];
    int16_t acc[PQPAN_MLKEM_N];
    uint8_t enc[PQPAN_MLKEM_POLYBYTES];   /* the secret as ByteEncode_12 */
    uint8_t pub[PQPAN_MLKEM_POLYBYTES];   /* the fixed second operand */
};

/* Run `run`'s secret polynomial in b->in, every coefficient within [-bound, bound] (all
 * zero, +bound and -bound alternately, xorshift32 values as mldsa_secret), copied to b->a
 * and, as 12-bit values (v mod 2^12 of the two's complement), encoded into b->enc; the
 * accumulator reset. Computed outside the measured region. */
static void mlkem_secret(struct ct_mlkem_buffers *b, int run, int16_t bound)
{
    uint32_t x = 0x1b873593u;
    for (size_t i = 0; i < PQPAN_MLKEM_N; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b->in[i] = (int16_t)(run == 0   ? 0
                             : run == 1 ? (i % 2 ? -bound : bound)
                                        : (int32_t)(x % (2u * (uint32_t)bound + 1u)) - bound);
    }
    for (size_t i = 0; i < PQPAN_MLKEM_N; i += 2) {
        const unsigned v0 = (uint16_t)b->in[i] & 0xFFFu, v1 = (uint16_t)b->in[i + 1] & 0xFFFu;
        b->enc[3 * i / 2] = (uint8_t)v0;
        b->enc[3 * i / 2 + 1] = (uint8_t)(v0 >> 8 | v1 << 4);
        b->enc[3 * i / 2 + 2] = (uint8_t)(v1 >> 4);
    }
    memcpy(b->a, b->in, sizeof b->a);
    memset(b->acc, 0, sizeof b->acc);
}

/* One ML-KEM kernel on three secrets, each copied into the same buffers first. */
static void mlkem_runs(struct ct_mlkem_buffers *b, const char *operation, int16_t bound,
                       void (*op)(struct ct_mlkem_buffers *))
{
    for (int run = 0; run < 3; run++) {
        mlkem_secret(b, run, bound);
        pqpan_m4_mark_begin();
        op(b);
        pqpan_m4_mark_end();
        report("ml-kem", operation, 0);
    }
}

static void mlkem_ntt_op(struct ct_mlkem_buffers *b)
{
    pqpan_mlkem_ntt(b->a);
}

static void mlkem_invntt_op(struct ct_mlkem_buffers *b)
{
    pqpan_mlkem_invntt(b->a);
}

static void mlkem_basemul_encoded_op(struct ct_mlkem_buffers *b)
{
    pqpan_mlkem_basemul_acc_encoded(b->acc, b->enc, b->pub);
}

static void mlkem_basemul_bytes_op(struct ct_mlkem_buffers *b)
{
    pqpan_mlkem_basemul_acc_bytes(b->acc, b->a, b->pub, 0, PQPAN_MLKEM_N / 2);
}

/* The input bounds of ntt.h: q - 1 for the NTT, 4q - 1 for the inverse, 2^12 - 1 for the base
 * multiplications' operands (the secret's 12-bit values; the fixed operand a pattern of
 * bytes). */
static void mlkem_kernel_runs(struct ct_mlkem_buffers *b)
{
    for (size_t i = 0; i < sizeof b->pub; i++) {
        b->pub[i] = (uint8_t)(i * 151u + 7u);
    }
    mlkem_runs(b, "ntt", PQPAN_MLKEM_Q - 1, mlkem_ntt_op);
    mlkem_runs(b, "invntt", 4 * PQPAN_MLKEM_Q - 1, mlkem_invntt_op);
    mlkem_runs(b, "basemul_acc_encoded", 2047, mlkem_basemul_encoded_op);
    mlkem_runs(b, "basemul_acc_bytes", 2047, mlkem_basemul_bytes_op);
}

struct ct_sha_buffers {
    uint8_t secret[64];
    uint8_t msg[64];
    uint8_t out[PQPAN_SHA256_BYTES];
};

/* Run `run`'s secret octets in b->secret: all zero, all 0xff, then xorshift32 values
 * (Marsaglia 2003; test inputs only). Computed outside the measured region. */
static void sha_secret(struct ct_sha_buffers *b, int run)
{
    uint32_t x = 0x9e3779b9u;
    for (size_t i = 0; i < sizeof b->secret; i++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        b->secret[i] = run == 0 ? 0x00 : run == 1 ? 0xff : (uint8_t)x;
    }
}

/* SHA-256 of a secret block and HMAC-SHA-256 under a secret 32-octet key of a public
 * message (the mesh provisioning's s2 / k5 and Confirmation, src/crypto/sha256.c). */
static void sha_runs(struct ct_sha_buffers *b)
{
    for (size_t i = 0; i < sizeof b->msg; i++) {
        b->msg[i] = (uint8_t)(i * 37u);
    }
    for (int run = 0; run < 3; run++) {
        sha_secret(b, run);
        pqpan_m4_mark_begin();
        pqpan_sha256(b->out, b->secret, sizeof b->secret);
        pqpan_m4_mark_end();
        report("sha-256", "digest", 0);
    }
    for (int run = 0; run < 3; run++) {
        sha_secret(b, run);
        pqpan_m4_mark_begin();
        pqpan_hmac_sha256(b->out, b->secret, 32, b->msg, sizeof b->msg);
        pqpan_m4_mark_end();
        report("hmac-sha-256", "mac", 0);
    }
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
    static struct ct_ecdh_buffers e;
    static struct ct_mldsa_buffers d;
    static struct ct_sha_buffers h;
    static struct ct_mlkem_buffers k;
    int failed = 0;
    canary_runs();
    failed |= ecdh_runs(&e);
    mldsa_kernel_runs(&d);
    mlkem_kernel_runs(&k);
    sha_runs(&h);
    mldsa_ball_runs(&d);
    for (size_t l = 0; l < PQPAN_M4_KEMS; l++) {
        failed |= keygen_runs(&pqpan_m4_kems[l], &b);
        failed |= encaps_runs(&pqpan_m4_kems[l], &b);
        failed |= decaps_runs(&pqpan_m4_kems[l], &b);
    }
    pqpan_m4_puts(failed ? "ct: FAILED\n" : "ct: done\n");
    return failed;
}
