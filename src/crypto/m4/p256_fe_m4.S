/* The Montgomery product mod p of P-256 for the Cortex-M4 (speed build, PQPAN_P256_IMPL=speed
 * with PQPAN_M4_ASM; src/crypto/p256/speed/fe.h):
 * void pqpan_p256_m4_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]):
 * r = a b 2^-256 mod p, inputs and result below p, least significant limb first; r may
 * alias a or b (written last). pqpan_p256_m4_add and pqpan_p256_m4_sub (same
 * signature): r = a + b and a - b mod p. Leaves with 40, 36 and 36 bytes of stack (the
 * lines below give scripts/bench_m4.sh the frames gcc's -fcallgraph-info cannot see).
 *
 * p = 2^256 - 2^224 + 2^192 + 2^96 - 1 (SP 800-186 §3.2.1.3): limbs ffffffff x 3, 0 x 3,
 * 1, ffffffff. Coarsely integrated operand scanning (Koc, Acar, Kaliski 1996, "CIOS"):
 * for each limb a_i, acc += a_i b with UMAAL (ARMv7-M ARM, DDI 0403E, UMAAL: RdHi:RdLo = Rn Rm +
 * RdHi + RdLo, which cannot overflow 64 bits), then one reduction step acc = (acc + m p)
 * / 2^32 with m = acc_0, since -p^-1 = 1 mod 2^32. The step needs a single multiply:
 * m p_0 + acc_0 = m 2^32 clears limb 0 and carries m; limbs 1 and 2 then take
 * m (2^32 - 1) + m = m 2^32, i.e. stay and carry m again; limbs 3..5 (p_j = 0) add the
 * carry m, limb 6 adds m (p_6 = 1), limb 7 is one UMAAL by 2^32 - 1. acc stays below 2p
 * (9 limbs, the top one 0 or 1) and fits 9 limbs after acc += a_i b, since
 * 2p + (2^32 - 1) p < 2^288. One masked subtraction of p at the end.
 *
 * Constant time: no branch, every address fixed (the loop is unrolled), and the Cortex-M4
 * executes UMAAL, ADCS and SBCS in one cycle whatever the operands (Cortex-M4 TRM,
 * DDI 0439B §3.3.1 Table 3-1). The accumulator's 9 limbs live in a window of 9 registers that
 * rotates by one at each step (the cleared limb 0 becomes the new top limb). */
@ callgraph-frame pqpan_p256_m4_mul 40
@ callgraph-frame pqpan_p256_m4_add 36
@ callgraph-frame pqpan_p256_m4_sub 36
    .syntax unified
    .thumb
    .cpu cortex-m4
    .section .text.pqpan_p256_m4_mul,"ax",%progbits

/* acc (w0..w8) += a_i b; r1 walks a, r2 is b, lr holds a_i, r0 b_j, r12 the carry. */
.macro mul_row w0, w1, w2, w3, w4, w5, w6, w7, w8
    ldr lr, [r1], #4
    mov.w r12, #0
    ldr r0, [r2, #0]
    umaal \w0, r12, lr, r0
    ldr r0, [r2, #4]
    umaal \w1, r12, lr, r0
    ldr r0, [r2, #8]
    umaal \w2, r12, lr, r0
    ldr r0, [r2, #12]
    umaal \w3, r12, lr, r0
    ldr r0, [r2, #16]
    umaal \w4, r12, lr, r0
    ldr r0, [r2, #20]
    umaal \w5, r12, lr, r0
    ldr r0, [r2, #24]
    umaal \w6, r12, lr, r0
    ldr r0, [r2, #28]
    umaal \w7, r12, lr, r0
    add \w8, \w8, r12
.endm

/* acc = (acc + m p) / 2^32 with m = w0: afterwards the limbs are w1..w8, w0 (top). */
.macro reduce_step w0, w1, w2, w3, w4, w5, w6, w7, w8
    mov.w lr, #-1
    adds \w3, \w3, \w0
    adcs \w4, \w4, #0
    adcs \w5, \w5, #0
    adcs \w6, \w6, \w0
    mov.w r12, #0
    adc r12, r12, #0
    umaal \w7, r12, \w0, lr
    adds \w8, \w8, r12
    mov.w \w0, #0
    adc \w0, \w0, #0
.endm

/* (w0..w7) = v - p if v >= p, else v, for v = (w0..w7) + top 2^256 below 2p: the borrow
 * of v - p, computed into r12 and dropped, gives the mask of p in lr. */
.macro reduce_once w0, w1, w2, w3, w4, w5, w6, w7, top
    mov.w lr, #-1
    subs r12, \w0, lr
    sbcs r12, \w1, lr
    sbcs r12, \w2, lr
    sbcs r12, \w3, #0
    sbcs r12, \w4, #0
    sbcs r12, \w5, #0
    sbcs r12, \w6, #1
    sbcs r12, \w7, lr
    sbcs r12, \top, #0
    sbc lr, lr, lr
    mvn lr, lr
    subs \w0, \w0, lr
    sbcs \w1, \w1, lr
    sbcs \w2, \w2, lr
    sbcs \w3, \w3, #0
    sbcs \w4, \w4, #0
    sbcs \w5, \w5, #0
    sbcs \w6, \w6, lr, lsr #31
    sbc \w7, \w7, lr
.endm

.macro step w0, w1, w2, w3, w4, w5, w6, w7, w8
    mul_row \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
    reduce_step \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
.endm

    .global pqpan_p256_m4_mul
    .type pqpan_p256_m4_mul, %function
    .align 2
    .thumb_func
pqpan_p256_m4_mul:
    push {r0, r4-r11, lr}
    mov.w r3, #0
    mov.w r4, #0
    mov.w r5, #0
    mov.w r6, #0
    mov.w r7, #0
    mov.w r8, #0
    mov.w r9, #0
    mov.w r10, #0
    mov.w r11, #0
    step r3, r4, r5, r6, r7, r8, r9, r10, r11
    step r4, r5, r6, r7, r8, r9, r10, r11, r3
    step r5, r6, r7, r8, r9, r10, r11, r3, r4
    step r6, r7, r8, r9, r10, r11, r3, r4, r5
    step r7, r8, r9, r10, r11, r3, r4, r5, r6
    step r8, r9, r10, r11, r3, r4, r5, r6, r7
    step r9, r10, r11, r3, r4, r5, r6, r7, r8
    step r10, r11, r3, r4, r5, r6, r7, r8, r9
    reduce_once r11, r3, r4, r5, r6, r7, r8, r9, r10
    ldr r0, [sp]
    str r11, [r0], #4
    stm r0, {r3-r9}
    pop {r0, r4-r11, pc}
    .size pqpan_p256_m4_mul, .-pqpan_p256_m4_mul

/* r = a + b mod p: the 257-bit sum, then reduce_once. */
    .global pqpan_p256_m4_add
    .type pqpan_p256_m4_add, %function
    .align 2
    .thumb_func
pqpan_p256_m4_add:
    push {r4-r11, lr}
    ldm r1, {r3-r10}
    ldr r12, [r2, #0]
    adds r3, r3, r12
    ldr r12, [r2, #4]
    adcs r4, r4, r12
    ldr r12, [r2, #8]
    adcs r5, r5, r12
    ldr r12, [r2, #12]
    adcs r6, r6, r12
    ldr r12, [r2, #16]
    adcs r7, r7, r12
    ldr r12, [r2, #20]
    adcs r8, r8, r12
    ldr r12, [r2, #24]
    adcs r9, r9, r12
    ldr r12, [r2, #28]
    adcs r10, r10, r12
    mov.w r11, #0
    adc r11, r11, #0
    reduce_once r3, r4, r5, r6, r7, r8, r9, r10, r11
    stm r0, {r3-r10}
    pop {r4-r11, pc}
    .size pqpan_p256_m4_add, .-pqpan_p256_m4_add

/* r = a - b mod p: the difference, then p added under the mask of its borrow. */
    .global pqpan_p256_m4_sub
    .type pqpan_p256_m4_sub, %function
    .align 2
    .thumb_func
pqpan_p256_m4_sub:
    push {r4-r11, lr}
    ldm r1, {r3-r10}
    ldr r12, [r2, #0]
    subs r3, r3, r12
    ldr r12, [r2, #4]
    sbcs r4, r4, r12
    ldr r12, [r2, #8]
    sbcs r5, r5, r12
    ldr r12, [r2, #12]
    sbcs r6, r6, r12
    ldr r12, [r2, #16]
    sbcs r7, r7, r12
    ldr r12, [r2, #20]
    sbcs r8, r8, r12
    ldr r12, [r2, #24]
    sbcs r9, r9, r12
    ldr r12, [r2, #28]
    sbcs r10, r10, r12
    sbc lr, lr, lr
    adds r3, r3, lr
    adcs r4, r4, lr
    adcs r5, r5, lr
    adcs r6, r6, #0
    adcs r7, r7, #0
    adcs r8, r8, #0
    adcs r9, r9, lr, lsr #31
    adc r10, r10, lr
    stm r0, {r3-r10}
    pop {r4-r11, pc}
    .size pqpan_p256_m4_sub, .-pqpan_p256_m4_sub
