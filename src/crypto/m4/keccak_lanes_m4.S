/* Whole lanes in and out of the Cortex-M4 backend's Keccak state (PQPAN_M4_ASM), for the
 * sponge of src/crypto/sha3.c; pqpan_keccak_m4_lane and pqpan_keccak_m4_xor_lane of
 * src/crypto/m4/sponge_m4.c are the specification and the reference (m4/test_sha3.c
 * compares them on random states):
 *   void pqpan_keccak_m4_extract(const uint64_t state[25], uint8_t *out, unsigned first,
 *                                unsigned count);
 * writes lanes first .. first + count - 1 in the standard layout, 8 bytes each, little
 * endian (FIPS 202 §3.1.2 and B.1), at out of any alignment;
 *   void pqpan_keccak_m4_absorb(uint64_t state[25], const uint8_t *in, unsigned first,
 *                               unsigned count);
 * XORs the 8 little-endian bytes in[8 i .. 8 i + 7] into lane first + i for i < count, in
 * of any alignment. (Unaligned LDR and STR are allowed on ARMv7-M, Arm DDI 0403E
 * §A3.2.1.)
 *
 * Per lane out, as pqpan_keccak_m4_lane: each stored word rotated back out of its frame
 * (the stored word is ROL(word, frame), so ROR by the frame), the even and odd words'
 * halves paired with PKHBT / PKHTB (§A7.7), and each half's bits put back in order by the
 * four swaps of shift 8, 4, 2, 1 (x ^= t ^ (t << s), t = (x ^ (x >> s)) & mask), the
 * inverse of sponge_m4.c's unshuffle. Per lane in, as pqpan_keccak_m4_xor_lane, the same
 * steps in reverse: the swaps of shift 1, 2, 4, 8 move each half's even bits low and its
 * odd bits high, PKHBT / PKHTB pair them into the even and the odd word, each word is
 * rotated into its frame (ROR by 32 - frame; ROR by 32 leaves it as it is) and XORed into
 * the state. Only the lane index (public) chooses addresses, and there is no branch on
 * the data. Registers: r0 the state, r1 out / in, r3 the end of the lanes, r12 the
 * frames, r4..r7 the words, r2 and lr the swaps' temporaries. */
@ callgraph-frame pqpan_keccak_m4_extract 20
@ callgraph-frame pqpan_keccak_m4_absorb 20
    .syntax unified
    .thumb
    .cpu cortex-m4

/* x ^= t ^ (t << s), t = (x ^ (x >> s)) & mask, with t in \tmp. */
.macro swap x, s, mask, tmp
    eor \tmp, \x, \x, lsr #\s
    and \tmp, \tmp, #\mask
    eor \x, \x, \tmp
    eor \x, \x, \tmp, lsl #\s
.endm

/* Entry of both functions: saves r4-r7 and lr, points r12 at lane first's frames, r0 at
 * its words and r3 after lane first + count - 1, and skips to 2 when count is 0. */
.macro lanes_entry
    push {r4-r7, lr}
    movw r12, #:lower16:pqpan_keccak_m4_frames
    movt r12, #:upper16:pqpan_keccak_m4_frames
    add r12, r12, r2, lsl #1
    add r0, r0, r2, lsl #3
    add r3, r0, r3, lsl #3
    cmp r0, r3
    beq 2f
.endm

    .section .text.pqpan_keccak_m4_extract,"ax",%progbits
    .global pqpan_keccak_m4_extract
    .type pqpan_keccak_m4_extract, %function
    .p2align 2
pqpan_keccak_m4_extract:
    lanes_entry
1:  ldrd r4, r5, [r0], #8
    ldrb r6, [r12], #1
    ldrb r7, [r12], #1
    ror r4, r4, r6
    ror r5, r5, r7
    pkhbt r6, r4, r5, lsl #16
    pkhtb r7, r5, r4, asr #16
    swap r6, 8, 0x0000ff00, r2
    swap r7, 8, 0x0000ff00, lr
    swap r6, 4, 0x00f000f0, r2
    swap r7, 4, 0x00f000f0, lr
    swap r6, 2, 0x0c0c0c0c, r2
    swap r7, 2, 0x0c0c0c0c, lr
    swap r6, 1, 0x22222222, r2
    swap r7, 1, 0x22222222, lr
    str r6, [r1], #4
    str r7, [r1], #4
    cmp r0, r3
    bne 1b
2:  pop {r4-r7, pc}
    .size pqpan_keccak_m4_extract, .-pqpan_keccak_m4_extract

    .section .text.pqpan_keccak_m4_absorb,"ax",%progbits
    .global pqpan_keccak_m4_absorb
    .type pqpan_keccak_m4_absorb, %function
    .p2align 2
pqpan_keccak_m4_absorb:
    lanes_entry
1:  ldr r4, [r1], #4
    ldr r5, [r1], #4
    swap r4, 1, 0x22222222, r2
    swap r5, 1, 0x22222222, lr
    swap r4, 2, 0x0c0c0c0c, r2
    swap r5, 2, 0x0c0c0c0c, lr
    swap r4, 4, 0x00f000f0, r2
    swap r5, 4, 0x00f000f0, lr
    swap r4, 8, 0x0000ff00, r2
    swap r5, 8, 0x0000ff00, lr
    pkhbt r6, r4, r5, lsl #16
    pkhtb r7, r5, r4, asr #16
    ldrb r2, [r12], #1
    ldrb lr, [r12], #1
    rsb r2, r2, #32
    rsb lr, lr, #32
    ror r6, r6, r2
    ror r7, r7, lr
    ldrd r4, r5, [r0]
    eor r4, r4, r6
    eor r5, r5, r7
    strd r4, r5, [r0], #8
    cmp r0, r3
    bne 1b
2:  pop {r4-r7, pc}
    .size pqpan_keccak_m4_absorb, .-pqpan_keccak_m4_absorb
