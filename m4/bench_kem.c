/* Per-operation measurements of ML-KEM on the Cortex-M4 (pqm4's operations: keygen,
 * encaps, decaps; deterministic inputs so every run executes the same instructions).
 * The keys and ciphertext live in this frame, above the painted area, as in pqm4's
 * stack benchmark: the figure is the operation's own stack. */
#include "bench.h"
#include "kem_table.h"

struct kem_buffers {
    uint8_t ek[PQPAN_M4_MAX_EK];
    uint8_t dk[PQPAN_M4_MAX_DK];
    uint8_t ct[PQPAN_M4_MAX_CT];
    uint8_t ss_enc[32], ss_dec[32];
};

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

    r.operation = "decaps";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    r.status = kem->decaps(b->ss_dec, b->ct, b->dk);
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

int pqpan_m4_bench_kem(void)
{
    struct kem_buffers b;
    int failed = 0;
    for (size_t l = 0; l < PQPAN_M4_KEMS; l++) {
        failed |= bench_level(&pqpan_m4_kems[l], &b);
    }
    return failed;
}
