/* The Cortex-M4 measurement program (`make bench-m4`): for each operation it paints the
 * stack, calls the operation between the two markers the instruction-counting plugin
 * watches, and prints the stack high-water mark. scripts/bench_m4.sh pairs these lines
 * with the plugin's counts, in order. Two calibration runs come first: an empty marker
 * pair (overhead to subtract) and a function of exactly PQPAN_M4_KNOWN_INSNS
 * instructions (checks that the counter is exact). */
#include "bench.h"
#include "crypto/m4/backend.h"
#include "pqpan/sha3.h"
#include "semihost.h"

extern uint32_t __stack_limit[];

#define PAINT 0xa5a5a5a5u

__attribute__((noinline)) void pqpan_m4_stack_paint(void)
{
    volatile uint32_t *p = __stack_limit;
    uintptr_t sp = pqpan_m4_sp();
    while ((uintptr_t)p < sp - 64u) {
        *p++ = PAINT;
    }
}

__attribute__((noinline)) uint32_t pqpan_m4_stack_used(uintptr_t top)
{
    const volatile uint32_t *p = __stack_limit;
    while ((uintptr_t)p < top && *p == PAINT) {
        p++;
    }
    return (uint32_t)(top - (uintptr_t)p);
}

void pqpan_m4_report(const struct pqpan_m4_result *r)
{
    pqpan_m4_puts("bench,");
    pqpan_m4_puts(r->scheme);
    pqpan_m4_puts(",");
    pqpan_m4_puts(r->operation);
    pqpan_m4_puts(",");
    pqpan_m4_put_u32(r->stack_bytes);
    pqpan_m4_puts(",");
    pqpan_m4_put_u32(r->status == 0 ? 0u : 1u);
    pqpan_m4_puts("\n");
}

static int bench_calibration(void)
{
    struct pqpan_m4_result r = {"calibration", "empty", 0, 0};
    pqpan_m4_mark_begin();
    pqpan_m4_mark_end();
    pqpan_m4_report(&r);
    r.operation = "known";
    pqpan_m4_mark_begin();
    pqpan_m4_known_insns();
    pqpan_m4_mark_end();
    pqpan_m4_report(&r);
    return 0;
}

static int bench_keccak(void)
{
    uint64_t lanes[25] = {0};
    struct pqpan_m4_result r = {"keccak", "f1600", 0, 0};
    uintptr_t top = pqpan_m4_sp();
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    pqpan_keccak_f1600(lanes);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&r);
#ifdef PQPAN_M4_ASM
    /* the backend's rounds alone, on the sponge's interleaved state (no conversion) */
    r.operation = "m4_permute";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    pqpan_keccak_m4_permute(lanes);
    pqpan_m4_mark_end();
    r.stack_bytes = pqpan_m4_stack_used(top);
    pqpan_m4_report(&r);
#endif
    return 0;
}

struct bench {
    int (*run)(void);
};

static const struct bench benches[] = {
    {bench_calibration},
    {bench_keccak},
    {pqpan_m4_bench_ecdh},
#ifdef PQPAN_M4_HAVE_KEM
    {pqpan_m4_bench_kem},
#endif
#ifdef PQPAN_M4_HAVE_SIG
    {pqpan_m4_bench_sig},
#endif
#ifdef PQPAN_M4_HAVE_PQKE
    {pqpan_m4_bench_pqke},
#endif
};

int main(void)
{
    int failed = 0;
    for (size_t i = 0; i < sizeof benches / sizeof benches[0]; i++) {
        failed |= benches[i].run();
    }
    pqpan_m4_puts(failed ? "bench: FAILED\n" : "bench: done\n");
    return failed;
}
