/* Per-operation measurements of ML-KEM on the Cortex-M4 (pqm4's operations: keygen,
 * encaps, decaps; deterministic inputs so every run executes the same instructions).
 * The keys and ciphertext live in this frame, above the painted area, as in pqm4's
 * stack benchmark: the figure is the operation's own stack. */
#include <string.h>

#include "bench.h"
#include "crypto/mlkem/ntt.h"
#include "kem_table.h"

struct kem_buffers {
    uint8_t ek[PQPAN_M4_MAX_EK];
    uint8_t dk[PQPAN_M4_MAX_DK];
    uint8_t ct[PQPAN_M4_MAX_CT];
    uint8_t ss_enc[32], ss_dec[32];
};

/* Decaps of the ciphertext just made, with the §7.3 dk check (op "decaps") or without it
 * ("decaps_checked_dk", the entry for a dk made by keygen here, like pqm4's decaps); the
 * shared key must equal encaps'. */
static int bench_decaps(const struct pqpan_m4_kem *kem, struct kem_buffers *b, int check_key)
{
    struct pqpan_m4_result r = {kem->scheme, check_key ? "decaps" : "decaps_checked_dk", 0, 0};
    uintptr_t top = pqpan_m4_sp(); /* this frame's: the stack the call itself uses */

    memset(b->ss_dec, 0, sizeof b->ss_dec);
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    r.status = check_key ? kem->decaps(b->ss_dec, b->ct, b->dk)
                         : kem->decaps_checked_dk(b->ss_dec, b->ct, b->dk);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    if (r.status == 0) {
        for (size_t i = 0; i < 32; i++) {
            r.status |= b->ss_enc[i] ^ b->ss_dec[i];
        }
    }
    pqpan_m4_report(&r);
    return r.status != 0;
}

static int bench_level(const struct pqpan_m4_kem *kem, struct kem_buffers *b)
{
    static const uint8_t d[32] = {0x11}, z[32] = {0x22}, m[32] = {0x33};
    struct pqpan_m4_result r = {kem->scheme, "keygen", 0, 0};
    uintptr_t top = pqpan_m4_sp();

    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    r.status = kem->keypair_derand(b->ek, b->dk, d, z);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&r);

    r.operation = "encaps";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    r.status = kem->encaps_derand(b->ct, b->ss_enc, b->ek, m);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&r);

    if (bench_decaps(kem, b, 1) != 0) {
        return 1;
    }
    return bench_decaps(kem, b, 0);
}

/* The ML-KEM kernels the assembly backend targets, alone (scheme "mlkem-kernel"):
 * forward and inverse NTT of one polynomial, and one full base multiplication with
 * accumulation from two ByteEncode_12 operands. */
struct kernel_operands {
    int16_t poly[PQPAN_MLKEM_N];
    uint8_t enc_a[PQPAN_MLKEM_POLYBYTES], enc_b[PQPAN_MLKEM_POLYBYTES];
};

static void run_ntt(struct kernel_operands *k) { pqpan_mlkem_ntt(k->poly); }
static void run_invntt(struct kernel_operands *k) { pqpan_mlkem_invntt(k->poly); }
static void run_basemul(struct kernel_operands *k)
{
    pqpan_mlkem_basemul_acc_encoded(k->poly, k->enc_a, k->enc_b);
}

static int bench_kernels(void)
{
    static const struct {
        const char *name;
        void (*run)(struct kernel_operands *k);
    } kernels[] = {{"ntt", run_ntt}, {"invntt", run_invntt}, {"basemul_acc_encoded", run_basemul}};
    static struct kernel_operands k;
    uintptr_t top = pqpan_m4_sp();

    for (size_t i = 0; i < PQPAN_MLKEM_N; i++) {
        k.poly[i] = (int16_t)((i * 1021u) % PQPAN_MLKEM_Q);
    }
    memset(k.enc_a, 0x5a, sizeof k.enc_a);
    memset(k.enc_b, 0x3c, sizeof k.enc_b);
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        struct pqpan_m4_result r = {"mlkem-kernel", kernels[i].name, 0, 0};
        pqpan_m4_stack_paint();
        pqpan_m4_mark_begin();
        kernels[i].run(&k);
        pqpan_m4_mark_end();
        r.stack_bytes = pqpan_m4_stack_used(top);
        pqpan_m4_report(&r);
    }
    return 0;
}

int pqpan_m4_bench_kem(void)
{
    struct kem_buffers b;
    int failed = bench_kernels();
    for (size_t l = 0; l < PQPAN_M4_KEMS; l++) {
        failed |= bench_level(&pqpan_m4_kems[l], &b);
    }
    return failed;
}
