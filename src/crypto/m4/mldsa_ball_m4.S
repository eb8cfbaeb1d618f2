/* One swap of ML-DSA's SampleInBall (FIPS 204 Alg. 29 lines 10-11) for the Cortex-M4
 * (PQPAN_M4_ASM); pqpan_mldsa_ball_step of src/crypto/mldsa/sampling.c is the
 * specification and the reference (kept as pqpan_mldsa_ball_step_portable, m4/test_sig.c
 * compares them):
 *   void pqpan_mldsa_ball_step(int8_t c[256], unsigned i, unsigned j, uint8_t sign);
 * c_i = c_j, then c_j = sign (0x01 or 0xFF), for j <= i, with c_k = 0 for k > i.
 *
 * One pass over the words c_0..c_i, four coefficients per 32-bit word, the byte positions
 * of the word in r4 (0x03020100 + 0x04040404 per word). USUB8 of (positions XOR j) minus
 * 0x01 in each byte sets GE[b] exactly where position b differs from j (ARMv7-M ARM, Arm
 * DDI 0403E, §A7.7 USUB8); SEL then takes, byte by byte, the word's byte where GE is set
 * and the other operand's where it is clear (§A7.7 SEL): once to collect c_j (zero
 * elsewhere) into r6, once to write sign at j. The word is read before it is written, so
 * r6 holds the old c_j. After the pass c_i |= c_j folded to a byte: c_i was 0, unless
 * j = i, when the pass has just set it to sign and the old c_j was 0, so the OR gives
 * c_j in both cases.
 *
 * Constant time: the loop runs over i / 4 + 1 words whatever j and sign (i is the public
 * loop position of Alg. 29), every address depends on the word index alone, and EOR,
 * USUB8, SEL, ORR take one cycle whatever the operands (Cortex-M4 TRM, Arm DDI 0439B,
 * §3.3.1 Table 3-1). Registers: r0 the word pointer, r1 the end, r2 j in every byte, r3
 * sign in every byte, r12 0x01010101, r7 zero, lr the address of c_i. */
@ callgraph-frame pqpan_mldsa_ball_step 32
    .syntax unified
    .thumb
    .cpu cortex-m4

    .section .text.pqpan_mldsa_ball_step,"ax",%progbits
    .global pqpan_mldsa_ball_step
    .type pqpan_mldsa_ball_step, %function
    .p2align 2
pqpan_mldsa_ball_step:
    push {r4-r10, lr}
    add lr, r0, r1
    lsrs r1, r1, #2
    add r1, r0, r1, lsl #2
    adds r1, r1, #4
    mov r12, #0x01010101
    mul r2, r2, r12
    mul r3, r3, r12
    movw r4, #0x0100
    movt r4, #0x0302
    mov r5, #0x04040404
    movs r6, #0
    movs r7, #0
1:  ldr r9, [r0]
    eor r10, r4, r2
    usub8 r10, r10, r12
    sel r10, r7, r9
    orr r6, r6, r10
    sel r9, r9, r3
    str r9, [r0], #4
    add r4, r4, r5
    cmp r0, r1
    bne 1b
    orr r6, r6, r6, lsr #16
    orr r6, r6, r6, lsr #8
    ldrb r9, [lr]
    orr r9, r9, r6
    strb r9, [lr]
    pop {r4-r10, pc}
    .size pqpan_mldsa_ball_step, .-pqpan_mldsa_ball_step
