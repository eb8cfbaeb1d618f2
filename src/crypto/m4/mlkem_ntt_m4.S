/* ML-KEM's NTT (FIPS 203 Alg. 9), inverse NTT (Alg. 10) and base multiplications with
 * accumulation (Alg. 11 MultiplyNTTs, Alg. 12 BaseCaseMultiply) for the Cortex-M4 with the
 * DSP extension of ARMv7E-M (PQPAN_M4_ASM), q = 3329, R = 2^16. The portable C of
 * src/crypto/mlkem/ntt.c is the specification and the reference (kept as
 * pqpan_mlkem_*_portable; m4/test_kem.c compares them on pseudo-random inputs):
 *   void pqpan_mlkem_ntt(int16_t a[256]);
 *   void pqpan_mlkem_invntt(int16_t a[256]);
 *   void pqpan_mlkem_basemul_acc_encoded(int16_t acc[256], const uint8_t a[384],
 *                                        const uint8_t b[384]);
 *   void pqpan_mlkem_basemul_acc_bytes(int16_t acc[256], const int16_t *a,
 *                                      const uint8_t b[384], unsigned first, unsigned count);
 * Each leaves 36 bytes of stack (the lines below give scripts/bench_m4.sh the frames gcc's
 * -fcallgraph-info cannot see).
 *
 * Two coefficients per 32-bit word (bottom half the lower index). A Montgomery product
 * takes the 32-bit product p of two halves (SMULBB / SMULBT / SMULTB / SMULTT), then
 * t = lo16(p) q^-1 (SMULBB with q^-1 mod 2^16 in the bottom half of r9) and p - t q
 * (SMLABT with -q in r9's top half), whose top half is exactly mlkem_montgomery_reduce(p)
 * (the low half cancels); PKHTB joins two results into a word, and SADD16 / SSUB16 form
 * the butterfly's sum and difference with the int16 wrap-around of the C. The Barrett
 * reduction is mlkem_barrett_reduce: t = (v a + 2^25) >> 26 with SMLABB / SMLATB and
 * v = round(2^26 / q) = 20159, then a - t q. Every product and reduction is the C's on
 * the same operands, so the results are identical bit for bit (ARMv7-M ARM, Arm DDI
 * 0403E, §A7.7: SMULxy, SMLAxy, SMUAD, SMUADX, PKHBT/PKHTB, SADD16, SSUB16).
 *
 * The transforms: eight words (16 coefficients) in r1..r8, three layers per pass where
 * the pairs allow it: forward len = 128 alone (one zeta), then 64, 32, 16 on the words
 * j + 16 k of each half, then 8, 4, 2 on 16 contiguous coefficients; the inverse in the
 * mirror order, its Barrett reductions after the layers len = 2 and 16 as ntt.c's, and
 * the last layer's products as ntt.c's: the sum times 128^-1 R^2 (INVNTT_SCALE = 1441),
 * the difference times zeta^64 128^-1 R^2 (INVNTT_ZETA1_SCALE = 1397), one Montgomery
 * product each. Zetas are read from ntt.c's pqpan_mlkem_zetas as words (two zetas, the
 * half selected by the multiply's B / T variant) with LDR, which allows unaligned
 * addresses (Arm DDI 0403E §A3.2.1), as do the coefficient loads and stores: neither the
 * table nor the polynomials need more than 2-byte alignment.
 *
 * Constant time: the only branches are the fixed-count loops, every address depends on the
 * loop position alone, and every instruction used executes in a fixed number of cycles
 * whatever its operands (Cortex-M4 TRM, Arm DDI 0439B, §3.3.1 Table 3-1: the 16-bit
 * multiplies, SMUAD(X), SMLAxy and the SIMD additions take 1 cycle). Registers of the
 * transforms: r0 the polynomial, r9 q^-1 | -q << 16, r10 the zeta word, r11 r12 lr
 * temporaries; loop bounds and zetas between blocks in s0..s15, caller-saved (AAPCS
 * §6.1.2.1). */
@ callgraph-frame pqpan_mlkem_ntt 36
@ callgraph-frame pqpan_mlkem_invntt 36
@ callgraph-frame pqpan_mlkem_basemul_acc_encoded 36
@ callgraph-frame pqpan_mlkem_basemul_acc_bytes 36
    .syntax unified
    .thumb
    .cpu cortex-m4
    .fpu fpv4-sp-d16

#include "m4_ntt_passes.inc"

/* A function's start (m4_ntt_passes.inc), then r9 = q^-1 mod 2^16 (PQPAN_MLKEM_QINV,
 * 0xF301) in the bottom half, -q = -3329 (FIPS 203 §8 Table 2) in the top half. */
.macro start name
    begin \name
    movw r9, #0xF301
    movt r9, #0xF2FF
.endm

/* r12 = s15 = the address of pqpan_mlkem_zetas. */
.macro zeta_table
    movw r12, #:lower16:pqpan_mlkem_zetas
    movt r12, #:upper16:pqpan_mlkem_zetas
    vmov s15, r12
.endm

/* The top half of p becomes mlkem_montgomery_reduce(p); lr is clobbered. */
.macro mont p
    smulbb lr, \p, r9
    smlabt \p, lr, r9, \p
.endm

/* dst = (fqmul(x.bottom, z), fqmul(x.top, z)) for z the \zh half (b or t) of r10; x may
 * be dst or r12, not r11. */
.macro fqmul2 dst, x, zh
    smulb\zh r11, \x, r10
    smult\zh r12, \x, r10
    mont r11
    mont r12
    pkhtb \dst, r12, r11, asr #16
.endm

/* Cooley-Tukey on both halves (Alg. 9 lines 8-10): (x, y) = (x + zeta y, x - zeta y). */
.macro ct x, y, zh
    fqmul2 r11, \y, \zh
    ssub16 \y, \x, r11
    sadd16 \x, \x, r11
.endm

/* Gentleman-Sande on both halves (Alg. 10 lines 8-10): (x, y) = (x + y, zeta (y - x)). */
.macro gs x, y, zh
    ssub16 r12, \y, \x
    sadd16 \x, \x, \y
    fqmul2 \y, r12, \zh
.endm

/* mlkem_barrett_reduce of both halves of w; r10 = v | q << 16, lr = 2^25. */
.macro barrett w
    smlabb r11, \w, r10, lr
    smlatb r12, \w, r10, lr
    asr r11, r11, #26
    asr r12, r12, #26
    smulbt r11, r11, r10
    smulbt r12, r12, r10
    pkhbt r11, r11, r12, lsl #16
    ssub16 \w, \w, r11
.endm

/* Barrett on r1, r3, r5, r7 (the sums of a layer pairing word k with k + 1); r10 and lr
 * reloaded. */
.macro barrett4
    movw r10, #20159
    movt r10, #3329
    mov lr, #0x2000000
    barrett r1
    barrett r3
    barrett r5
    barrett r7
.endm

/* r1..r4 = the words at r0 + 0, 4, 8, 12 and r5..r8 those 256 bytes (128 coefficients)
 * further: four word pairs of the layer len = 128. */
.macro load_halves
    ldr r1, [r0]
    ldr r2, [r0, #4]
    ldr r3, [r0, #8]
    ldr r4, [r0, #12]
    ldr r5, [r0, #256]
    ldr r6, [r0, #260]
    ldr r7, [r0, #264]
    ldr r8, [r0, #268]
.endm

/* The inverse of load_halves, r0 then advanced by 16 bytes. */
.macro store_halves
    str r5, [r0, #256]
    str r6, [r0, #260]
    str r7, [r0, #264]
    str r8, [r0, #268]
    str r2, [r0, #4]
    str r3, [r0, #8]
    str r4, [r0, #12]
    str r1, [r0], #16
.endm

/* Three forward layers on r1..r8, zeta words in s0..s3: k with k + 4 (s0's bottom), k with
 * k + 2 (s1: bottom for k < 4, top above), k with k + 1 (s2 bottom, s2 top, s3 bottom,
 * s3 top for the four pairs). */
.macro ct3
    vmov r10, s0
    ct r1, r5, b
    ct r2, r6, b
    ct r3, r7, b
    ct r4, r8, b
    vmov r10, s1
    ct r1, r3, b
    ct r2, r4, b
    ct r5, r7, t
    ct r6, r8, t
    vmov r10, s2
    ct r1, r2, b
    ct r3, r4, t
    vmov r10, s3
    ct r5, r6, b
    ct r7, r8, t
.endm

/* s0..s3 = the zeta words of the block or half whose index times 2 is r1, r12 the table:
 * s0 at r12 + r1 + \o0, s1 at r12 + 2 r1 + \o1, s2 and s3 at r12 + 4 r1 + \o2 and
 * \o2 + 4 (\op = add; the inverse passes read downwards, \op = sub, r1 subtracted).
 * Uses r2..r5 and r12. */
.macro block_zetas op, o0, o1, o2
    \op r12, r12, r1
    ldr r2, [r12, #\o0]
    \op r12, r12, r1
    ldr r3, [r12, #\o1]
    \op r12, r12, r1, lsl #1
    ldr r4, [r12, #\o2]
    ldr r5, [r12, #\o2 + 4]
    vmov s0, s1, r2, r3
    vmov s2, s3, r4, r5
.endm

/* Alg. 9. Pass 1: len = 128 on (j, j + 128), zetas[1] (the top half of the table's first
 * word). Pass 2, half h = 0, 1: len = 64, 32, 16 on the words 128 h + j + 16 k
 * (j = 0, 2, .., 14), zetas[2 + h] (an unaligned word read at 2 (2 + h) bytes puts it in
 * the bottom half), [4 + 2h], [5 + 2h], [8 + 4h .. 11 + 4h]. Pass 3, block b = 0..15:
 * len = 8, 4, 2 on coefficients 16 b .. 16 b + 15, zetas[16 + b], [32 + 2b], [33 + 2b],
 * [64 + 4b .. 67 + 4b]. s13 holds 2 h or 2 b, s14 the bound of the running loop. */
    start pqpan_mlkem_ntt
    zeta_table
    ldr r10, [r12]
    add r11, r0, #256
    vmov s14, r11
1:  load_halves
    ct r1, r5, t
    ct r2, r6, t
    ct r3, r7, t
    ct r4, r8, t
    store_halves
    loop_until s14, 1b
    sub r0, r0, #256

    mov r1, #0
2:  vmov s13, r1
    vmov r12, s15
    block_zetas add, 4, 8, 16
    add r12, r0, #32
    vmov s14, r12
3:  load8 32
    ct3
    store8 32, 4
    loop_until s14, 3b
    add r0, r0, #224
    vmov r1, s13
    add r1, r1, #2
    cmp r1, #4
    bne 2b
    sub r0, r0, #512

    mov r1, #0
    add r12, r0, #512
    vmov s14, r12
4:  vmov s13, r1
    vmov r12, s15
    block_zetas add, 32, 64, 128
    load8 4
    ct3
    store8 4, 32
    vmov r1, s13
    add r1, r1, #2
    loop_until s14, 4b
    pop {r4-r11, pc}
    .size pqpan_mlkem_ntt, .-pqpan_mlkem_ntt

/* Three inverse layers on r1..r8, zeta words in s0..s3 (the table read downwards): k with
 * k + 1 (s3 top, s3 bottom, s2 top, s2 bottom for the four pairs: Alg. 10's k counts
 * down), whose sums are Barrett-reduced, k with k + 2 (s1: top below 4, bottom above),
 * then k with k + 4 (s0's bottom). */
.macro gs3
    vmov r10, s3
    gs r1, r2, t
    gs r3, r4, b
    vmov r10, s2
    gs r5, r6, t
    gs r7, r8, b
    barrett4
    vmov r10, s1
    gs r1, r3, t
    gs r2, r4, t
    gs r5, r7, b
    gs r6, r8, b
    vmov r10, s0
    gs r1, r5, b
    gs r2, r6, b
    gs r3, r7, b
    gs r4, r8, b
.endm

/* Alg. 10. Pass 1, block b = 0..15: len = 2, 4, 8 on coefficients 16 b .. 16 b + 15,
 * zetas[127 - 4b .. 124 - 4b] (words at 248 - 8b and 252 - 8b bytes), [63 - 2b],
 * [62 - 2b] (the word at 124 - 4b), [31 - b] (unaligned word at 62 - 2b), sums of len = 2
 * reduced. Pass 2, half h = 0, 1: len = 16, 32, 64 on the words 128 h + j + 16 k,
 * zetas[15 - 4h .. 12 - 4h], [7 - 2h], [6 - 2h], [3 - h], sums of len = 16 reduced.
 * Pass 3: len = 128 on (j, j + 128), the difference times 1397 (zetas[1] 1441 R^-1 mod
 * q = zeta^64 128^-1 R^2) and the sum times 1441 (r10 = 1441 | 1397 << 16). */
    start pqpan_mlkem_invntt
    zeta_table
    mov r1, #0
    add r12, r0, #512
    vmov s14, r12
5:  vmov s13, r1
    vmov r12, s15
    block_zetas sub, 62, 124, 248
    load8 4
    gs3
    store8 4, 32
    vmov r1, s13
    add r1, r1, #2
    loop_until s14, 5b
    sub r0, r0, #512

    mov r1, #0
6:  vmov s13, r1
    vmov r12, s15
    block_zetas sub, 6, 12, 24
    add r12, r0, #32
    vmov s14, r12
7:  load8 32
    gs3
    store8 32, 4
    loop_until s14, 7b
    add r0, r0, #224
    vmov r1, s13
    add r1, r1, #2
    cmp r1, #4
    bne 6b
    sub r0, r0, #512

    movw r10, #1441
    movt r10, #1397
    add r11, r0, #256
    vmov s14, r11
8:  load_halves
    gs r1, r5, t
    gs r2, r6, t
    gs r3, r7, t
    gs r4, r8, t
    fqmul2 r1, r1, b
    fqmul2 r2, r2, b
    fqmul2 r3, r3, b
    fqmul2 r4, r4, b
    store_halves
    loop_until s14, 8b
    pop {r4-r11, pc}
    .size pqpan_mlkem_invntt, .-pqpan_mlkem_invntt

/* ByteDecode_12 (Alg. 6, without the reduction mod q) of the 6 bytes at \p (advanced by
 * 6): \lo = the first two 12-bit values as a word, \hi the next two. PKHBT puts bits
 * 0-15 and 12-27 in the halves and BIC clears the 4 bits above each value; the second
 * pair is bits 8-31 of the unaligned word at \p + 2. */
.macro decode6 p, lo, hi, tmp
    ldr \hi, [\p, #2]
    ldr \lo, [\p], #6
    pkhbt \lo, \lo, \lo, lsl #4
    bic \lo, \lo, #0xF000F000
    ubfx \tmp, \hi, #8, #12
    lsr \hi, \hi, #20
    pkhbt \hi, \tmp, \hi, lsl #16
.endm

/* Alg. 12 for one factor, a = (a0, a1), b = (b0, b1) as words, gamma the \gh half of r8,
 * added to the acc word at r0 (advanced): b1g = fqmul(b1, gamma), then
 * c0 = mont(a0 b0 + a1 b1g) (SMUAD with b0 and b1g paired), c1 = mont(a0 b1 + a1 b0)
 * (SMUADX), as the portable basemul_run. Uses r10, r11, r12 and lr. */
.macro basecase a, b, gh
    smult\gh r10, \b, r8
    mont r10
    pkhtb r10, r10, \b
    smuad r10, \a, r10
    mont r10
    smuadx r11, \a, \b
    mont r11
    pkhtb r10, r11, r10, asr #16
    ldr r12, [r0]
    sadd16 r12, r12, r10
    str r12, [r0], #4
.endm

/* Two factors (2m, 2m + 1: gammas g and -g, one word of pqpan_mlkem_gammas at r3,
 * advanced) with a's words in r4, r5 and b's in r6, r7. */
.macro basecase2
    ldr r8, [r3], #4
    basecase r4, r6, b
    basecase r5, r7, t
.endm

/* r3 = pqpan_mlkem_gammas. */
.macro gamma_table
    movw r3, #:lower16:pqpan_mlkem_gammas
    movt r3, #:upper16:pqpan_mlkem_gammas
.endm

/* acc += a o b R^-1 over the 128 factors, both operands ByteEncode_12 (r1, r2), two
 * factors per step, four per loop pass; s0 the end of acc. */
    start pqpan_mlkem_basemul_acc_encoded
    gamma_table
    add r12, r0, #512
    vmov s0, r12
9:  decode6 r1, r4, r5, r10
    decode6 r2, r6, r7, r10
    basecase2
    decode6 r1, r4, r5, r10
    decode6 r2, r6, r7, r10
    basecase2
    loop_until s0, 9b
    pop {r4-r11, pc}
    .size pqpan_mlkem_basemul_acc_encoded, .-pqpan_mlkem_basemul_acc_encoded

/* acc += a o b R^-1 on the factors first .. first + count - 1 (r3, the stack argument;
 * both multiples of 4, as ntt.h's multiples of PQPAN_MLKEM_BASEMUL_RUN are), a (r1) their int16
 * coefficients, b (r2) ByteEncode_12 of the whole operand: acc and b start at the factor
 * first, the gammas at first; four factors per loop pass. */
    start pqpan_mlkem_basemul_acc_bytes
    ldr r12, [sp, #36]
    add r0, r0, r3, lsl #2
    add r2, r2, r3, lsl #1
    add r2, r2, r3
    add r12, r0, r12, lsl #2
    vmov s0, r12
    cmp r0, r12
    beq 11f
    lsl r12, r3, #1
    gamma_table
    add r3, r3, r12
10: ldr r5, [r1, #4]
    ldr r4, [r1], #8
    decode6 r2, r6, r7, r10
    basecase2
    ldr r5, [r1, #4]
    ldr r4, [r1], #8
    decode6 r2, r6, r7, r10
    basecase2
    loop_until s0, 10b
11: pop {r4-r11, pc}
    .size pqpan_mlkem_basemul_acc_bytes, .-pqpan_mlkem_basemul_acc_bytes
