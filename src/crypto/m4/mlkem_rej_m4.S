/* SampleNTT's rejection step (FIPS 203 Alg. 7 lines 5-14) for the Cortex-M4 backend
 * (PQPAN_M4_ASM); pqpan_mlkem_rej_uniform_portable of src/crypto/mlkem/sampling.c is the
 * specification and the reference (m4/test_kem.c compares them):
 *   unsigned pqpan_mlkem_rej_uniform(int16_t *a, unsigned count, unsigned max,
 *                                    const uint8_t *buf, size_t len, size_t *pos);
 * From byte *pos of buf, each 3 bytes give d1 = b0 + 256 (b1 mod 16) and
 * d2 = (b1 >> 4) + 16 b2; each candidate is stored at a[count] and count advanced when it
 * is below q. Four triples at a time while 12 bytes and 8 free places remain, two while
 * 6 bytes and 4 free places remain, then one triple at a time while 3 bytes and 1 free
 * place remain, so count ends at max or max + 1, as in the C (whose loop of two triples
 * runs exactly where the loop of four runs, twice per pass: the four's bounds are the
 * two's for both pairs). Each triple is read as one unaligned word (ARMv7-M allows it,
 * Arm DDI 0403E §A3.2.1): buf must have 1 readable byte after len (the C asks for 2).
 * The acceptance adds the sign bit of d - q to count (SUB ... ASR #31), no branch per
 * candidate; the loops test both bounds with one branch (the OR of the two signed
 * margins is negative when either is). The matrix is public (rho), so the data-dependent
 * store addresses and trip counts are as in the C.
 * Registers: r0 a, r1 count, r2 max, r3 buf, r4 the end of the bytes, r5 pos, r6 the read
 * pointer, r7 q, r8 / r9 the last start and the largest count of the running loop, r12
 * and lr temporaries. */
@ callgraph-frame pqpan_mlkem_rej_uniform 28
    .syntax unified
    .thumb
    .cpu cortex-m4

/* The two candidates of the triple at r6 (advanced by 3) into a[count]. */
.macro triple
    ldr r12, [r6], #3
    ubfx lr, r12, #0, #12
    strh lr, [r0, r1, lsl #1]
    sub lr, lr, r7
    sub r1, r1, lr, asr #31
    ubfx lr, r12, #12, #12
    strh lr, [r0, r1, lsl #1]
    sub lr, lr, r7
    sub r1, r1, lr, asr #31
.endm

/* Branches to \label while r6 <= r8 and r1 <= r9 (signed margins). */
.macro again label
    sub r12, r8, r6
    sub lr, r9, r1
    orrs r12, r12, lr
    bpl \label
.endm

    .section .text.pqpan_mlkem_rej_uniform,"ax",%progbits
    .global pqpan_mlkem_rej_uniform
    .type pqpan_mlkem_rej_uniform, %function
    .p2align 2
pqpan_mlkem_rej_uniform:
    push {r4-r9, lr}
    ldr r4, [sp, #28]
    ldr r5, [sp, #32]
    ldr r6, [r5]
    add r6, r3, r6
    add r4, r3, r4
    movw r7, #3329
    sub r8, r4, #12
    sub r9, r2, #8
    b 6f
5:  triple
    triple
    triple
    triple
6:  again 5b
    sub r8, r4, #6
    sub r9, r2, #4
    b 2f
1:  triple
    triple
2:  again 1b
    sub r8, r4, #3
    sub r9, r2, #1
    b 4f
3:  triple
4:  again 3b
    sub r6, r6, r3
    str r6, [r5]
    mov r0, r1
    pop {r4-r9, pc}
    .size pqpan_mlkem_rej_uniform, .-pqpan_mlkem_rej_uniform
