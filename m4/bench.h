/* Measurement harness for the Cortex-M4 programs under QEMU: stack painting and the
 * begin/end markers seen by the instruction-counting plugin (tools/qemu-insn). */
#ifndef PQPAN_M4_BENCH_H
#define PQPAN_M4_BENCH_H

#include <stddef.h>
#include <stdint.h>

/* Instructions executed by pqpan_m4_known_insns, its BX LR included. */
#define PQPAN_M4_KNOWN_INSNS 52
/* Data loads among them (memory reads; it stores nothing). */
#define PQPAN_M4_KNOWN_LOADS 3

void pqpan_m4_mark_begin(void);
void pqpan_m4_mark_end(void);
void pqpan_m4_known_insns(void);

/* One measured operation: its stack high-water mark below the caller's frame. The
 * instruction count of the same run comes from the plugin, in the same order. */
struct pqpan_m4_result {
    const char *scheme;    /* "ml-kem-768", "ml-dsa-44", "keccak", "pqke-ml-kem-768" ... */
    const char *operation; /* "keygen", "encaps", "decaps", ... */
    uint32_t stack_bytes;
    int status;            /* the operation's return value (0 = success) */
};

/* Fills the stack below the current frame with a known pattern. */
void pqpan_m4_stack_paint(void);
/* Bytes of stack used below `top` since the last paint (lowest overwritten word). */
uint32_t pqpan_m4_stack_used(uintptr_t top);

/* Prints "bench,<scheme>,<operation>,<stack_bytes>,<status>". */
void pqpan_m4_report(const struct pqpan_m4_result *r);

static inline uintptr_t pqpan_m4_sp(void)
{
    uintptr_t sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    return sp;
}

/* Measurement suites, each reporting its operations in a fixed order. */
int pqpan_m4_bench_kem(void);
int pqpan_m4_bench_sig(void);
int pqpan_m4_bench_pqke(void);
int pqpan_m4_bench_ecdh(void);

#endif
