/* Per-operation measurements of P-256 ECDH and the LE Secure Connections functions on the
 * Cortex-M4, the operations of data/cycles/classical_ecc_cortex_m4.csv (keygen, ECDH
 * shared secret with public-key validation, point decompression) and of LE SC pairing
 * phase 2 (f4, f5, f6, g2; Bluetooth Core v5.4 Vol 3 Part H §2.2.6-2.2.9). Inputs are
 * RFC 5903 §8.1's key pairs, so every run executes the same instructions. Keys and
 * outputs live in this file's buffers, outside the painted stack, as in pqm4's stack
 * benchmark: the figure is the operation's own stack. */
#include "bench.h"
#include "pqpan/ecdh.h"
#include "pqpan/lesc.h"

/* RFC 5903 §8.1: the initiator's private key i and the responder's public key g^r. */
static const uint8_t sk_i[32] = {
    0xc8, 0x8f, 0x01, 0xf5, 0x10, 0xd9, 0xac, 0x3f, 0x70, 0xa2, 0x92, 0xda, 0xa2, 0x31, 0x6d, 0xe5,
    0x44, 0xe9, 0xaa, 0xb8, 0xaf, 0xe8, 0x40, 0x49, 0xc6, 0x2a, 0x9c, 0x57, 0x86, 0x2d, 0x14, 0x33};
static const uint8_t pk_r[PQPAN_ECDH_P256_PUBLIC_BYTES] = {
    0x04, 0xd1, 0x2d, 0xfb, 0x52, 0x89, 0xc8, 0xd4, 0xf8, 0x12, 0x08, 0xb7, 0x02, 0x70, 0x39, 0x8c,
    0x34, 0x22, 0x96, 0x97, 0x0a, 0x0b, 0xcc, 0xb7, 0x4c, 0x73, 0x6f, 0xc7, 0x55, 0x44, 0x94, 0xbf,
    0x63, 0x56, 0xfb, 0xf3, 0xca, 0x36, 0x6c, 0xc2, 0x3e, 0x81, 0x57, 0x85, 0x4c, 0x13, 0xc5, 0x8d,
    0x6a, 0xac, 0x23, 0xf0, 0x46, 0xad, 0xa3, 0x0f, 0x83, 0x53, 0xe7, 0x4f, 0x33, 0x03, 0x98, 0x72,
    0xab};

static uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES], compressed[PQPAN_ECDH_P256_COMPRESSED_BYTES];
static uint8_t shared[PQPAN_ECDH_P256_SHARED_BYTES], mackey[16], ltk[16], tag[16];
static const uint8_t n1[16] = {0x11}, n2[16] = {0x22}, r[16], iocap[3] = {1, 1, 2};
static const uint8_t a1[7] = {0x00, 0x56}, a2[7] = {0x00, 0xa7};

static int keygen(void)
{
    return pqpan_ecdh_p256_keypair_derand(pk, sk_i);
}

static int shared_uncompressed(void)
{
    return pqpan_ecdh_p256_shared(shared, sk_i, pk_r, sizeof pk_r);
}

static int shared_compressed(void)
{
    return pqpan_ecdh_p256_shared(shared, sk_i, compressed, sizeof compressed);
}

static int decompress(void)
{
    return pqpan_ecdh_p256_public_decode(pk, compressed, sizeof compressed);
}

static int f4(void)
{
    pqpan_lesc_f4(tag, pk + 1, pk_r + 1, n1, 0);
    return 0;
}

static int f5(void)
{
    pqpan_lesc_f5(mackey, ltk, shared, n1, n2, a1, a2);
    return 0;
}

static int f6(void)
{
    pqpan_lesc_f6(tag, mackey, n1, n2, r, iocap, a1, a2);
    return 0;
}

static int g2(void)
{
    return pqpan_lesc_g2(pk + 1, pk_r + 1, n1, n2) == 0u; /* 0 only by a 2^-32 chance */
}

/* Paints the stack, runs op between the markers and reports it; 1 if it failed. */
static int measure(const char *scheme, const char *operation, int (*op)(void))
{
    struct pqpan_m4_result res = {scheme, operation, 0, 0};
    uintptr_t top = pqpan_m4_sp();
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    res.status = op();
    pqpan_m4_mark_end();
    res.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&res);
    return res.status != 0;
}

int pqpan_m4_bench_ecdh(void)
{
    int failed = pqpan_ecdh_p256_public_compress(compressed, pk_r, sizeof pk_r) != PQPAN_OK;
    failed |= measure("p-256", "keygen", keygen);
    failed |= measure("p-256", "ecdh_shared_secret", shared_uncompressed);
    failed |= measure("p-256", "ecdh_shared_secret_compressed", shared_compressed);
    failed |= measure("p-256", "point_decompression", decompress);
    failed |= measure("le-sc", "f4", f4);
    failed |= measure("le-sc", "f5", f5);
    failed |= measure("le-sc", "f6", f6);
    failed |= measure("le-sc", "g2", g2);
    return failed;
}
