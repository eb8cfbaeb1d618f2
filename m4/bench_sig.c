/* Per-operation measurements of ML-DSA on the Cortex-M4 (pqm4's operations: keygen, sign,
 * verify). Signing is measured on PQPAN_M4_SIGN_RUNS different messages, each between its
 * own markers, so that scripts/bench_m4.sh can give the mean and spread of its rejection
 * loop. Keys, message and signature live in this file's buffers, outside the painted
 * stack, as in pqm4's stack benchmark: the figure is the operation's own stack. */
#include "bench.h"
#include "pqpan/sig.h"

static const char *const schemes[3] = {"ml-dsa-44", "ml-dsa-65", "ml-dsa-87"};

static uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
static uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES];

static int bench_level(size_t level)
{
    static const uint8_t xi[32] = {0x11}, rnd[32] = {0};
    const struct pqpan_sig *s = pqpan_sig_at(level);
    struct pqpan_m4_result r = {schemes[level], "keygen", 0, 0};
    uint8_t msg[32] = {0x33};
    uintptr_t top = pqpan_m4_sp();
    int failed;

    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    r.status = s->keypair_derand(pk, sk, xi);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&r);
    failed = r.status != 0;

    r.operation = "sign";
    for (uint32_t i = 0; i < PQPAN_M4_SIGN_RUNS; i++) {
        msg[0] = (uint8_t)i;
        msg[1] = (uint8_t)(i >> 8);
        pqpan_m4_stack_paint();
        pqpan_m4_mark_begin();
        r.status = s->sign_derand(sig, sk, msg, sizeof msg, NULL, 0, rnd);
        pqpan_m4_mark_end();
        r.stack_bytes = pqpan_m4_stack_used(top);
        pqpan_m4_report(&r);
        failed |= r.status != 0;
    }

    r.operation = "verify";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    r.status = s->verify(pk, msg, sizeof msg, NULL, 0, sig, s->sig_bytes);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&r);
    return failed | (r.status != 0);
}

int pqpan_m4_bench_sig(void)
{
    int failed = 0;
    for (size_t l = 0; l < PQPAN_SIG_COUNT; l++) {
        failed |= bench_level(l);
    }
    return failed;
}
