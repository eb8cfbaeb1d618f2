/* The Montgomery product mod p of P-256 for the Cortex-M4 (speed build, PQPAN_P256_IMPL=speed
 * with PQPAN_M4_ASM; src/crypto/p256/speed/fe.h):
 * void pqpan_p256_m4_mul(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]):
 * r = a b 2^-256 mod p, inputs and result below p, least significant limb first; r may
 * alias a or b (written last). pqpan_p256_m4_sqr (r = a^2 2^-256, below) and
 * pqpan_p256_m4_half (r = a / 2) take r and a; pqpan_p256_m4_add and pqpan_p256_m4_sub
 * (the product's signature): r = a + b and a - b mod p. All leaves; their stack frames
 * are in the lines below, which give scripts/bench_m4.sh the frames gcc's
 * -fcallgraph-info cannot see.
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
 * executes UMULL, UMLAL, UMAAL, ADCS and SBCS in one cycle whatever the operands (Cortex-M4 TRM,
 * DDI 0439B §3.3.1 Table 3-1). The accumulator's 9 limbs live in a window of 9 registers that
 * rotates by one at each step (the cleared limb 0 becomes the new top limb). */
@ callgraph-frame pqpan_p256_m4_mul 44
@ callgraph-frame pqpan_p256_m4_sqr 104
@ callgraph-frame pqpan_p256_m4_half 32
@ callgraph-frame pqpan_p256_m4_add 36
@ callgraph-frame pqpan_p256_m4_sub 36
    .syntax unified
    .thumb
    .cpu cortex-m4
    .section .text.pqpan_p256_m4_mul,"ax",%progbits

/* acc (w0..w8) += a_i b for row i: a's address is reloaded from the stack (the caller's
 * r1, pushed) into lr, which then takes a_i, so that r0 and r1 are free to take b_j and
 * b_j+1 by one LDRD; r2 is b, r12 the carry. */
.macro mul_row i, w0, w1, w2, w3, w4, w5, w6, w7, w8
    ldr lr, [sp, #4]
    ldr lr, [lr, #4 * \i]
    mov.w r12, #0
    ldrd r0, r1, [r2, #0]
    umaal \w0, r12, lr, r0
    umaal \w1, r12, lr, r1
    ldrd r0, r1, [r2, #8]
    umaal \w2, r12, lr, r0
    umaal \w3, r12, lr, r1
    ldrd r0, r1, [r2, #16]
    umaal \w4, r12, lr, r0
    umaal \w5, r12, lr, r1
    ldrd r0, r1, [r2, #24]
    umaal \w6, r12, lr, r0
    umaal \w7, r12, lr, r1
    add \w8, \w8, r12
.endm

/* acc = (acc + m p) / 2^32 with m = w0: afterwards the limbs are w1..w8, w0 (top).
 * lr must hold 2^32 - 1 (p_7); a carry flag C becomes a register by ADC from it:
 * (2^32 - 1) + 1 + C = C mod 2^32. */
.macro reduce_core w0, w1, w2, w3, w4, w5, w6, w7, w8
    adds \w3, \w3, \w0
    adcs \w4, \w4, #0
    adcs \w5, \w5, #0
    adcs \w6, \w6, \w0
    adc r12, lr, #1
    umaal \w7, r12, \w0, lr
    adds \w8, \w8, r12
    adc \w0, lr, #1
.endm

.macro reduce_step w0, w1, w2, w3, w4, w5, w6, w7, w8
    mov.w lr, #-1
    reduce_core \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
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

.macro step i, w0, w1, w2, w3, w4, w5, w6, w7, w8
    mul_row \i, \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
    reduce_step \w0, \w1, \w2, \w3, \w4, \w5, \w6, \w7, \w8
.endm

    .global pqpan_p256_m4_mul
    .type pqpan_p256_m4_mul, %function
    .align 2
    .thumb_func
pqpan_p256_m4_mul:
    push {r0, r1, r4-r11, lr}
    mov.w r3, #0
    mov.w r4, #0
    mov.w r5, #0
    mov.w r6, #0
    mov.w r7, #0
    mov.w r8, #0
    mov.w r9, #0
    mov.w r10, #0
    mov.w r11, #0
    step 0, r3, r4, r5, r6, r7, r8, r9, r10, r11
    step 1, r4, r5, r6, r7, r8, r9, r10, r11, r3
    step 2, r5, r6, r7, r8, r9, r10, r11, r3, r4
    step 3, r6, r7, r8, r9, r10, r11, r3, r4, r5
    step 4, r7, r8, r9, r10, r11, r3, r4, r5, r6
    step 5, r8, r9, r10, r11, r3, r4, r5, r6, r7
    step 6, r9, r10, r11, r3, r4, r5, r6, r7, r8
    step 7, r10, r11, r3, r4, r5, r6, r7, r8, r9
    reduce_once r11, r3, r4, r5, r6, r7, r8, r9, r10
    ldr r0, [sp]
    str r11, [r0], #4
    stm r0, {r3-r9}
    pop {r0, r1, r4-r11, pc}
    .size pqpan_p256_m4_mul, .-pqpan_p256_m4_mul

/* acc += lr a_j, accB += lr a_j+1 with the carry in/out: two products of a squaring
 * row, a_j and a_j+1 read by one LDRD into r0 and r12 (r12 is free in the rows). */
.macro sq_mac2 acc, accB, carry, j
    ldrd r0, r12, [r1, #4 * \j]
    umaal \acc, \carry, lr, r0
    umaal \accB, \carry, lr, r12
.endm

/* acc += lr a_7 with the carry in/out (a row's last, unpaired product). */
.macro sq_mac7 acc, carry
    ldr r0, [r1, #28]
    umaal \acc, \carry, lr, r0
.endm

/* A row's start: lr = a_i and r0 = a_i+1 by one LDRD, the carry cleared, acc += a_i a_i+1. */
.macro sq_row_start i, acc, carry
    ldrd lr, r0, [r1, #4 * \i]
    mov.w \carry, #0
    umaal \acc, \carry, lr, r0
.endm

/* One pair of the square's diagonal: (hi:lo) = a_i^2 + (S_2i-1 >> 31) + (S_2i >> 31) 2^32
 * with UMLAL (at most (2^32 - 1)^2 + 1 + 2^32 < 2^64: no overflow), then
 * T_2i = lo + (S_2i << 1) + C and T_2i+1 = hi + (S_2i+1 << 1) + C with ADCS on a shifted
 * register (ARMv7-M ARM, DDI 0403E, ADC (register): the carry out is the adder's, the bit
 * shifted out of S is the one moved into the next pair). On entry lo holds S_2i-1 >> 31;
 * the flags' carry runs from one pair to the next, so nothing between two pairs may set
 * the flags (UMAAL, UMLAL, LDR, STRD, MOV.W and LSR.W without S do not). */
.macro sq_pair ai, lo, hi, s_even, s_odd
    lsr.w \hi, \s_even, #31
    umlal \lo, \hi, \ai, \ai
    adcs \lo, \lo, \s_even, lsl #1
    adcs \hi, \hi, \s_odd, lsl #1
.endm

/* void pqpan_p256_m4_sqr(uint32_t r[8], const uint32_t a[8]): r = a^2 2^-256 mod p, a below
 * p, r may alias a (written last).
 * 1. The off-diagonal sum S = sum_{i<j} a_i a_j 2^(32(i+j)) (limbs S_1..S_14) by rows: row
 *    i adds a_i a_j for j = i+1..7 into S_2i+1..S_i+7 with UMAAL and leaves its carry as
 *    S_i+8: the 28 products once. After row i, S_2i+1 and S_2i+2 receive nothing more
 *    (row i+1 starts at S_2i+3), so pair i (sq_pair) turns them into the limbs T_2i,
 *    T_2i+1 of T = a^2 = 2 S + sum a_i^2 2^(64 i) at once. T_0..T_7 go to the stack as
 *    they come, T_8..T_15 after the last pair (64 bytes).
 * 2. Montgomery reduction of the low half alone: (T_low + M p) / 2^256 with
 *    M = -T_low p^-1 mod 2^256 is the 8 steps of reduce_step from T_0..T_7 (the same
 *    steps as the product's), at most (2^256 - 1 + (2^256 - 1) p) / 2^256 < p + 1; adding
 *    T_high = floor(T / 2^256) < p^2 / 2^256 < p gives a value below 2p congruent to
 *    T 2^-256, and reduce_once ends below p. */
    .global pqpan_p256_m4_sqr
    .type pqpan_p256_m4_sqr, %function
    .align 2
    .thumb_func
pqpan_p256_m4_sqr:
    push {r0, r4-r11, lr}
    sub sp, sp, #64
    /* row 0: S_1..S_7 = a_0 (a_1..a_7) in r2..r8, S_8 = r9 (each limb register cleared
     * just before it first takes the carry) */
    ldrd lr, r0, [r1, #0]
    umull r2, r3, lr, r0
    ldrd r0, r12, [r1, #8]
    mov.w r4, #0
    umaal r3, r4, lr, r0
    mov.w r5, #0
    umaal r4, r5, lr, r12
    ldrd r0, r12, [r1, #16]
    mov.w r6, #0
    umaal r5, r6, lr, r0
    mov.w r7, #0
    umaal r6, r7, lr, r12
    ldrd r0, r12, [r1, #24]
    mov.w r8, #0
    umaal r7, r8, lr, r0
    mov.w r9, #0
    umaal r8, r9, lr, r12
    /* pair 0: T_0 = lo(a_0^2), T_1 = hi(a_0^2) + 2 S_1 (S_0 = 0): the carry chain starts */
    umull r10, r11, lr, lr
    adds r11, r11, r2, lsl #1
    strd r10, r11, [sp, #0]
    lsr.w r2, r2, #31
    /* row 1: S_3..S_8 (r4..r9) += a_1 (a_2..a_7), S_9 = r10 */
    sq_row_start 1, r4, r10
    sq_mac2 r5, r6, r10, 3
    sq_mac2 r7, r8, r10, 5
    sq_mac7 r9, r10
    /* pair 1: S_2 = r3, S_3 = r4 -> T_2, T_3 */
    sq_pair lr, r2, r11, r3, r4
    strd r2, r11, [sp, #8]
    lsr.w r4, r4, #31
    /* row 2: S_5..S_9 (r6..r10) += a_2 (a_3..a_7), S_10 = r11 */
    sq_row_start 2, r6, r11
    sq_mac2 r7, r8, r11, 4
    sq_mac2 r9, r10, r11, 6
    /* pair 2: S_4 = r5, S_5 = r6 -> T_4, T_5 */
    sq_pair lr, r4, r2, r5, r6
    strd r4, r2, [sp, #16]
    lsr.w r6, r6, #31
    /* row 3: S_7..S_10 (r8..r11) += a_3 (a_4..a_7), S_11 = r2 */
    sq_row_start 3, r8, r2
    sq_mac2 r9, r10, r2, 5
    sq_mac7 r11, r2
    /* pair 3: S_6 = r7, S_7 = r8 -> T_6, T_7 */
    sq_pair lr, r6, r3, r7, r8
    strd r6, r3, [sp, #24]
    lsr.w r8, r8, #31
    /* row 4: S_9..S_11 (r10, r11, r2) += a_4 (a_5..a_7), S_12 = r3 */
    sq_row_start 4, r10, r3
    sq_mac2 r11, r2, r3, 6
    /* pair 4: S_8 = r9, S_9 = r10 -> T_8 = r8, T_9 = r4 */
    sq_pair lr, r8, r4, r9, r10
    lsr.w r10, r10, #31
    /* row 5: S_11, S_12 (r2, r3) += a_5 (a_6, a_7), S_13 = r5 */
    sq_row_start 5, r2, r5
    sq_mac7 r3, r5
    /* pair 5: S_10 = r11, S_11 = r2 -> T_10 = r10, T_11 = r6 */
    sq_pair lr, r10, r6, r11, r2
    lsr.w r2, r2, #31
    /* row 6: S_13 (r5) += a_6 a_7, S_14 = r7; r0 keeps a_7 for pair 7 */
    sq_row_start 6, r5, r7
    /* pair 6: S_12 = r3, S_13 = r5 -> T_12 = r2, T_13 = r9 */
    sq_pair lr, r2, r9, r3, r5
    lsr.w r5, r5, #31
    /* pair 7: S_14 = r7, S_15 = 0 -> T_14 = r5, T_15 = r11 (no carry out: T < 2^512) */
    lsr.w r11, r7, #31
    umlal r5, r11, r0, r0
    adcs r5, r5, r7, lsl #1
    adc r11, r11, #0
    strd r8, r4, [sp, #32]
    strd r10, r6, [sp, #40]
    strd r2, r9, [sp, #48]
    strd r5, r11, [sp, #56]
    /* reduction of T_0..T_7 (r3..r10, r11 the top), lr = 2^32 - 1 throughout */
    ldm sp, {r3-r10}
    mov.w r11, #0
    mov.w lr, #-1
    reduce_core r3, r4, r5, r6, r7, r8, r9, r10, r11
    reduce_core r4, r5, r6, r7, r8, r9, r10, r11, r3
    reduce_core r5, r6, r7, r8, r9, r10, r11, r3, r4
    reduce_core r6, r7, r8, r9, r10, r11, r3, r4, r5
    reduce_core r7, r8, r9, r10, r11, r3, r4, r5, r6
    reduce_core r8, r9, r10, r11, r3, r4, r5, r6, r7
    reduce_core r9, r10, r11, r3, r4, r5, r6, r7, r8
    reduce_core r10, r11, r3, r4, r5, r6, r7, r8, r9
    /* + T_high: limbs r11, r3..r9, top r10 */
    ldrd r0, r1, [sp, #32]
    adds r11, r11, r0
    adcs r3, r3, r1
    ldrd r0, r1, [sp, #40]
    adcs r4, r4, r0
    adcs r5, r5, r1
    ldrd r0, r1, [sp, #48]
    adcs r6, r6, r0
    adcs r7, r7, r1
    ldrd r0, r1, [sp, #56]
    adcs r8, r8, r0
    adcs r9, r9, r1
    adc r10, r10, #0
    reduce_once r11, r3, r4, r5, r6, r7, r8, r9, r10
    add sp, sp, #64
    ldr r0, [sp]
    str r11, [r0], #4
    stm r0, {r3-r9}
    pop {r0, r4-r11, pc}
    .size pqpan_p256_m4_sqr, .-pqpan_p256_m4_sqr

/* void pqpan_p256_m4_half(uint32_t r[8], const uint32_t a[8]): r = a / 2 mod p for a below
 * p: a + p (a 257-bit value below 2p) where a is odd, a where it is even, shifted right by
 * one; the result is below p. p is added under the mask -(a mod 2) (p's limbs: ffffffff x 3,
 * 0 x 3, 1, ffffffff; the 1 is the mask's top bit). */
    .global pqpan_p256_m4_half
    .type pqpan_p256_m4_half, %function
    .align 2
    .thumb_func
pqpan_p256_m4_half:
    push {r4-r10, lr}
    ldm r1, {r3-r10}
    and r2, r3, #1
    rsb r2, r2, #0
    adds r3, r3, r2
    adcs r4, r4, r2
    adcs r5, r5, r2
    adcs r6, r6, #0
    adcs r7, r7, #0
    adcs r8, r8, #0
    adcs r9, r9, r2, lsr #31
    adcs r10, r10, r2
    mov.w r12, #0
    adc r12, r12, #0
    lsr.w r3, r3, #1
    orr r3, r3, r4, lsl #31
    lsr.w r4, r4, #1
    orr r4, r4, r5, lsl #31
    lsr.w r5, r5, #1
    orr r5, r5, r6, lsl #31
    lsr.w r6, r6, #1
    orr r6, r6, r7, lsl #31
    lsr.w r7, r7, #1
    orr r7, r7, r8, lsl #31
    lsr.w r8, r8, #1
    orr r8, r8, r9, lsl #31
    lsr.w r9, r9, #1
    orr r9, r9, r10, lsl #31
    lsr.w r10, r10, #1
    orr r10, r10, r12, lsl #31
    stm r0, {r3-r10}
    pop {r4-r10, pc}
    .size pqpan_p256_m4_half, .-pqpan_p256_m4_half

/* r = a + b mod p: the 257-bit sum (b read two limbs at a time by LDRD into r12 and lr),
 * then reduce_once. */
    .global pqpan_p256_m4_add
    .type pqpan_p256_m4_add, %function
    .align 2
    .thumb_func
pqpan_p256_m4_add:
    push {r4-r11, lr}
    ldm r1, {r3-r10}
    ldrd r12, lr, [r2, #0]
    adds r3, r3, r12
    adcs r4, r4, lr
    ldrd r12, lr, [r2, #8]
    adcs r5, r5, r12
    adcs r6, r6, lr
    ldrd r12, lr, [r2, #16]
    adcs r7, r7, r12
    adcs r8, r8, lr
    ldrd r12, lr, [r2, #24]
    adcs r9, r9, r12
    adcs r10, r10, lr
    mov.w r11, #0
    adc r11, r11, #0
    reduce_once r3, r4, r5, r6, r7, r8, r9, r10, r11
    stm r0, {r3-r10}
    pop {r4-r11, pc}
    .size pqpan_p256_m4_add, .-pqpan_p256_m4_add

/* r = a - b mod p: the difference (b read as in the sum), then p added under the mask of
 * its borrow. */
    .global pqpan_p256_m4_sub
    .type pqpan_p256_m4_sub, %function
    .align 2
    .thumb_func
pqpan_p256_m4_sub:
    push {r4-r11, lr}
    ldm r1, {r3-r10}
    ldrd r12, lr, [r2, #0]
    subs r3, r3, r12
    sbcs r4, r4, lr
    ldrd r12, lr, [r2, #8]
    sbcs r5, r5, r12
    sbcs r6, r6, lr
    ldrd r12, lr, [r2, #16]
    sbcs r7, r7, r12
    sbcs r8, r8, lr
    ldrd r12, lr, [r2, #24]
    sbcs r9, r9, r12
    sbcs r10, r10, lr
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
