/* ML-DSA's NTT (FIPS 204 Alg. 41), inverse NTT (Alg. 42) and pointwise Montgomery product
 * (Alg. 45 MultiplyNTT) for the Cortex-M4 (PQPAN_M4_ASM), q = 8380417, 32-bit
 * coefficients; the portable C of src/crypto/mldsa/ntt.c is the specification and the
 * reference (kept as pqpan_mldsa_*_portable, m4/test_sig.c compares them):
 *   void pqpan_mldsa_ntt(int32_t a[256]);
 *   void pqpan_mldsa_invntt(int32_t a[256]);
 *   void pqpan_mldsa_pointwise(int32_t r[256], const int32_t a[256], const int32_t b[256]);
 *   void pqpan_mldsa_pointwise_acc(int32_t r[256], const int32_t a[256], const int32_t b[256]);
 * Each leaves 36 bytes of stack (the lines below give scripts/bench_m4.sh the frames gcc's
 * -fcallgraph-info cannot see).
 *
 * Montgomery product with R = 2^32, as mldsa_montgomery_reduce in ntt.h: for p = y z,
 * t = lo32(p) q^-1 mod 2^32 and (p - t q) / 2^32, exact: SMULL gives p in two registers,
 * MUL gives t, SMLAL adds t (-q) to the 64-bit p, whose low word becomes 0, so the high
 * word is the result (ARMv7-M ARM, Arm DDI 0403E, §A7.7 SMULL, MUL, SMLAL). The C computes
 * t as lo32(y lo32(z q^-1)), the same number, so every product equals the C's.
 *
 * Three layers per pass over the polynomial (8 coefficients in r1..r8 for 7 butterfly
 * groups, 3 passes for the 8 layers: 3 + 3 + 2), the zetas of a pass in s0..s6, loop
 * bounds and table pointers in s7..s12; the butterflies are those of ntt.c in the same
 * order per coefficient, so the results are identical bit for bit. The inverse uses the
 * table of the forward transform: Alg. 42's (x + y, -zeta (x - y)) is computed as
 * (x + y, zeta (y - x)), the same 64-bit product. Its reduction on entry (mldsa_reduce32)
 * is merged into the first pass and the scaling by 256^-1 R^2 into the last, as in ntt.c.
 *
 * Constant time: the only branches are the fixed-count loops, every address depends on the
 * loop position alone, and the Cortex-M4 executes SMULL, SMLAL, MUL and MLA in a fixed
 * number of cycles whatever the operands (Cortex-M4 TRM, Arm DDI 0439B, §3.3.1 Table 3-1:
 * 1 cycle each). Registers: r0 the polynomial, r9 q^-1 mod 2^32, r10 -q, r11 the zeta,
 * r12 and lr the product's low word and t. s0..s15 are caller-saved (AAPCS §6.1.2.1). */
@ callgraph-frame pqpan_mldsa_ntt 36
@ callgraph-frame pqpan_mldsa_invntt 36
@ callgraph-frame pqpan_mldsa_pointwise 36
@ callgraph-frame pqpan_mldsa_pointwise_acc 36
    .syntax unified
    .thumb
    .cpu cortex-m4
    .fpu fpv4-sp-d16

#include "m4_ntt_passes.inc"

/* r9 = q^-1 mod 2^32 = 58728449 (PQPAN_MLDSA_QINV), r10 = -q, q = 8380417 (FIPS 204 §4
 * Table 1); r12 and s12 = the zeta table. */
.macro load_constants
    movw r9, #0x2001
    movt r9, #0x0380
    movw r10, #0x1fff
    movt r10, #0xff80
    movw r12, #:lower16:pqpan_mldsa_zetas
    movt r12, #:upper16:pqpan_mldsa_zetas
    vmov s12, r12
.endm

/* s8, s9, s10 = three pointers into the zeta table (byte offsets). */
.macro zeta_pointers o1, o2, o3
    vmov r12, s12
    add r1, r12, #\o1
    add r2, r12, #\o2
    add r3, r12, #\o3
    vmov s8, s9, r1, r2
    vmov s10, r3
.endm

/* The next zetas from the three pointers (\op: vldmia upwards, vldmdb downwards) into the
 * lists l1, l2, l3, the pointers advanced; uses r1..r3, free between passes over r1..r8. */
.macro next_zetas op, l1, l2, l3
    vmov r1, r2, s8, s9
    vmov r3, s10
    \op r1!, \l1
    \op r2!, \l2
    \op r3!, \l3
    vmov s8, s9, r1, r2
    vmov s10, r3
.endm

/* y = y r11 R^-1 mod q in (-q, q). */
.macro montmul y
    smull r12, \y, \y, r11
    mul lr, r12, r9
    smlal r12, \y, lr, r10
.endm

/* Cooley-Tukey (Alg. 41 lines 7-9): (x, y) = (x + zeta y, x - zeta y), zeta in r11. */
.macro ct x, y
    montmul \y
    add \x, \x, \y
    sub \y, \x, \y, lsl #1
.endm

/* Gentleman-Sande (Alg. 42 lines 7-10) with the table's zeta in r11:
 * (x, y) = (x + y, zeta (y - x)) = (x + y, -zeta (x - y)). */
.macro gs x, y
    sub \y, \y, \x
    add \x, \y, \x, lsl #1
    montmul \y
.endm

/* mldsa_reduce32: x - round(x / 2^23) q. */
.macro reduce32 x
    add lr, \x, #0x400000
    asr lr, lr, #23
    mla \x, lr, r10, \x
.endm

/* Three forward layers on r1..r8 (coefficients at a common stride): the first pairs k with
 * k + 4 (zeta s0), the second k with k + 2 (s1 for k < 4, s2 above), the third k with
 * k + 1 (s3..s6, one per pair). */
.macro ct3
    vmov r11, s0
    ct r1, r5
    ct r2, r6
    ct r3, r7
    ct r4, r8
    vmov r11, s1
    ct r1, r3
    ct r2, r4
    vmov r11, s2
    ct r5, r7
    ct r6, r8
    vmov r11, s3
    ct r1, r2
    vmov r11, s4
    ct r3, r4
    vmov r11, s5
    ct r5, r6
    vmov r11, s6
    ct r7, r8
.endm

/* Three inverse layers on r1..r8: k with k + 1 (zetas s3, s2, s1, s0: Alg. 42's m counts
 * down), k with k + 2 (s5 below 4, s4 above), k with k + 4 (s6). */
.macro gs3
    vmov r11, s3
    gs r1, r2
    vmov r11, s2
    gs r3, r4
    vmov r11, s1
    gs r5, r6
    vmov r11, s0
    gs r7, r8
    vmov r11, s5
    gs r1, r3
    gs r2, r4
    vmov r11, s4
    gs r5, r7
    gs r6, r8
    vmov r11, s6
    gs r1, r5
    gs r2, r6
    gs r3, r7
    gs r4, r8
.endm

/* Alg. 41. Pass 1: len = 128, 64, 32 on a[j + 32 k], zetas[1..7] (m = 1, 2..3, 4..7).
 * Pass 2: len = 16, 8, 4 on a[32 b + j + 4 k] for block b, zetas[8 + b], [16 + 2b ..],
 * [32 + 4b ..]. Pass 3: len = 2, 1 on two blocks of 4 at a time, zetas[64 + 2i ..],
 * [128 + 4i ..]. */
    begin pqpan_mldsa_ntt
    load_constants
    add r11, r12, #4
    vldmia r11, {s0-s6}
    add r11, r0, #128
    vmov s7, r11
1:  load8 128
    ct3
    store8 128, 4
    loop_until s7, 1b
    sub r0, r0, #128

    zeta_pointers 32, 64, 128
    add r12, r0, #1024
    vmov s11, r12
2:  next_zetas vldmia, {s0}, {s1-s2}, {s3-s6}
    add r12, r0, #16
    vmov s7, r12
3:  load8 16
    ct3
    store8 16, 4
    loop_until s7, 3b
    add r0, r0, #112
    loop_until s11, 2b
    sub r0, r0, #1024

    vmov r12, s12
    add r1, r12, #256
    add r2, r12, #512
    vmov s8, s9, r1, r2
4:  vmov r1, r2, s8, s9
    vldmia r1!, {s0-s1}
    vldmia r2!, {s2-s5}
    vmov s8, s9, r1, r2
    ldm r0, {r1-r8}
    vmov r11, s0
    ct r1, r3
    ct r2, r4
    vmov r11, s1
    ct r5, r7
    ct r6, r8
    vmov r11, s2
    ct r1, r2
    vmov r11, s3
    ct r3, r4
    vmov r11, s4
    ct r5, r6
    vmov r11, s5
    ct r7, r8
    stmia r0!, {r1-r8}
    loop_until s11, 4b
    pop {r4-r11, pc}
    .size pqpan_mldsa_ntt, .-pqpan_mldsa_ntt

/* Alg. 42. Pass 1: reduce32, then len = 1, 2, 4 on a[8 i .. 8 i + 7], zetas[255 - 4i ..
 * 252 - 4i], [127 - 2i, 126 - 2i], [63 - i] (read downwards with VLDMDB). Pass 2: len = 8,
 * 16, 32 on a[64 g + j + 8 k], zetas[31 - 4g ..], [15 - 2g ..], [7 - g]. Pass 3: len = 64
 * on (j, j + 64) with zetas[3] and (j + 128, j + 192) with zetas[2], then len = 128 with
 * the scaling of line 21 folded in, as ntt.c's gs_butterfly_scaled:
 * (x, y) = (s (x + y), s' (x - y)), s = 256^-1 R^2 mod q = 41978 (ntt.c INVNTT_SCALE),
 * s' = -zetas[1] s R^-1, two values of j at a time. */
    begin pqpan_mldsa_invntt
    load_constants
    zeta_pointers 1024, 512, 256
    add r12, r0, #1024
    vmov s11, r12
5:  next_zetas vldmdb, {s0-s3}, {s4-s5}, {s6}
    ldm r0, {r1-r8}
    reduce32 r1
    reduce32 r2
    reduce32 r3
    reduce32 r4
    reduce32 r5
    reduce32 r6
    reduce32 r7
    reduce32 r8
    gs3
    stmia r0!, {r1-r8}
    loop_until s11, 5b
    sub r0, r0, #1024

    zeta_pointers 128, 64, 32
6:  next_zetas vldmdb, {s0-s3}, {s4-s5}, {s6}
    add r12, r0, #32
    vmov s7, r12
7:  load8 32
    gs3
    store8 32, 4
    loop_until s7, 7b
    add r0, r0, #224
    loop_until s11, 6b
    sub r0, r0, #1024

    vmov r12, s12
    ldr r1, [r12, #8]
    ldr r2, [r12, #12]
    vmov s0, s1, r2, r1
    ldr r11, [r12, #4]
    rsb r11, r11, #0
    movw r1, #41978
    vmov s4, r1
    montmul r1
    vmov s5, r1
    add r12, r0, #256
    vmov s11, r12
8:  ldrd r1, r2, [r0]
    ldrd r3, r4, [r0, #256]
    ldrd r5, r6, [r0, #512]
    ldrd r7, r8, [r0, #768]
    vmov r11, s0
    gs r1, r3
    gs r2, r4
    vmov r11, s1
    gs r5, r7
    gs r6, r8
    sub r5, r1, r5
    rsb r1, r5, r1, lsl #1
    sub r6, r2, r6
    rsb r2, r6, r2, lsl #1
    sub r7, r3, r7
    rsb r3, r7, r3, lsl #1
    sub r8, r4, r8
    rsb r4, r8, r4, lsl #1
    vmov r11, s4
    montmul r1
    montmul r2
    montmul r3
    montmul r4
    vmov r11, s5
    montmul r5
    montmul r6
    montmul r7
    montmul r8
    strd r3, r4, [r0, #256]
    strd r5, r6, [r0, #512]
    strd r7, r8, [r0, #768]
    strd r1, r2, [r0], #8
    loop_until s11, 8b
    pop {r4-r11, pc}
    .size pqpan_mldsa_invntt, .-pqpan_mldsa_invntt

/* q^-1 mod 2^32 in r11, -q in r12 (as load_constants), r3 and s0 = the end of r. */
.macro pointwise_setup
    movw r11, #0x2001
    movt r11, #0x0380
    movw r12, #0x1fff
    movt r12, #0xff80
    add r3, r0, #1024
    vmov s0, r3
.endm

/* r_n = a_n b_n R^-1, four coefficients per step (each read before its result is written,
 * so r may be a or b). r11 holds q^-1 and r12 -q here; r7..r10 take each product's low
 * word. pqpan_mldsa_pointwise_acc adds the products to r instead (r_n + a_n b_n R^-1, one
 * term of Alg. 45 summed over a row of A_hat), reading r's four coefficients into r7..r10
 * once the products are formed. */
.macro mont_pair x, y
    smull \y, \x, \x, \y
    mul lr, \y, r11
    smlal \y, \x, lr, r12
.endm

/* r3..r6 = the products of the next four coefficients of a (r1) and b (r2), both
 * pointers advanced. */
.macro four_products
    ldm r1!, {r3-r6}
    ldm r2!, {r7-r10}
    mont_pair r3, r7
    mont_pair r4, r8
    mont_pair r5, r9
    mont_pair r6, r10
.endm

/* r3..r6 stored at r0, advanced; back to 9 until r0 reaches the end in s0, then return. */
.macro next_four
    stmia r0!, {r3-r6}
    vmov r3, s0
    cmp r0, r3
    bne 9b
    pop {r4-r11, pc}
.endm

    begin pqpan_mldsa_pointwise
    pointwise_setup
9:  four_products
    next_four
    .size pqpan_mldsa_pointwise, .-pqpan_mldsa_pointwise

    begin pqpan_mldsa_pointwise_acc
    pointwise_setup
9:  four_products
    ldm r0, {r7-r10}
    add r3, r3, r7
    add r4, r4, r8
    add r5, r5, r9
    add r6, r6, r10
    next_four
    .size pqpan_mldsa_pointwise_acc, .-pqpan_mldsa_pointwise_acc
