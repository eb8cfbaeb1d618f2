/* Marker functions for the instruction counter (tools/qemu-insn): the plugin counts the
 * instructions executed from the first instruction of pqpan_m4_mark_begin to the first
 * instruction of pqpan_m4_mark_end. They must stay real, separate calls. */
#include "bench.h"

__attribute__((noinline)) void pqpan_m4_mark_begin(void)
{
    __asm__ volatile("" ::: "memory");
}

__attribute__((noinline)) void pqpan_m4_mark_end(void)
{
    __asm__ volatile("" ::: "memory");
}

/* Exactly PQPAN_M4_KNOWN_INSNS instructions including its return: 48 data-processing
 * instructions, PQPAN_M4_KNOWN_LOADS loads (of the word at sp) and BX LR, no store. The
 * calibration run checks that the counter sees exactly this (plus the BL that calls it,
 * which reads no data memory). */
__attribute__((naked, noinline)) void pqpan_m4_known_insns(void)
{
    __asm__ volatile(".rept 48\n\tadds r0, r0, #1\n\t.endr\n"
                     ".rept 3\n\tldr r1, [sp]\n\t.endr\n\tbx lr\n");
}
