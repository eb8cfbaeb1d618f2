/* SamplePolyCBD_2 and _3 (FIPS 203 Alg. 8), the Barrett reduction and the Montgomery
 * domain conversions of a polynomial for the Cortex-M4 with the DSP extension of
 * ARMv7E-M (PQPAN_M4_ASM; the NTT, inverse NTT and base multiplications are assembly,
 * src/crypto/m4/mlkem_ntt_m4.S): two coefficients per 32-bit word, the
 * Montgomery products taken with the 16 x 16-bit multiplies SMULBB / SMULBT / SMULTB and
 * SMLABT, sums and differences with SADD16 / SSUB16. Each of these executes in one cycle
 * on the Cortex-M4 whatever its operands (Cortex-M4 TRM, Arm DDI 0439B, §3.3.1 Table 3-1),
 * and no branch or address depends on a coefficient. The results equal the portable C
 * (src/crypto/mlkem/ntt.c) coefficient for coefficient: same reductions, same
 * representatives; m4/test_kem.c checks it on pseudo-random inputs. Every build compiles
 * this file (src/ is globbed by the host, M4 and web builds); only the M4 backend build
 * (PQPAN_M4_ASM) gets the code, the others only the static assertion. */
#include <string.h>

#include "crypto/m4/backend.h"
#include "crypto/mlkem/ntt.h"
#include "crypto/mlkem/poly.h"

_Static_assert(PQPAN_MLKEM_N % 8 == 0 && PQPAN_MLKEM_BASEMUL_RUN % 4 == 0,
               "the backend takes two coefficients per word, four words or four factors at a time");

#ifdef PQPAN_M4_ASM

/* Every helper below is forced inline, also at -Os: called, they would spill the words. */
#define M4_INLINE static inline __attribute__((always_inline))

/* Bottom half q^-1 mod 2^16 (as PQPAN_MLKEM_QINV), top half -q: the Montgomery reduction
 * t = lo16(p) q^-1, p - t q takes one SMULBB and one SMLABT with this one register. */
#define QINV_NEGQ ((uint32_t)(uint16_t)(-PQPAN_MLKEM_Q) << 16 | (uint32_t)(uint16_t)PQPAN_MLKEM_QINV)
/* Barrett (mlkem_barrett_reduce): v = round(2^26 / q). */
#define BARRETT_V (((1 << 26) + PQPAN_MLKEM_Q / 2) / PQPAN_MLKEM_Q)

/* The DSP instructions, one per function (ARMv7-M ARM, Arm DDI 0403E, §A7.7: SMULBB,
 * SMULTB, SMLABT, SADD16, SSUB16, PKHTB); words carry two int16 halves. */
#define DSP2(name)                                                                   \
    M4_INLINE uint32_t name(uint32_t a, uint32_t b)                              \
    {                                                                                \
        uint32_t r;                                                                  \
        __asm__(#name " %0, %1, %2" : "=r"(r) : "r"(a), "r"(b));                     \
        return r;                                                                    \
    }
DSP2(smulbb)
DSP2(smultb)
DSP2(sadd16)
DSP2(ssub16)
DSP2(ssub8)

/* Bytes 0 and 2 of a (ror 0) or 1 and 3 (ror 8), sign-extended into the two halves. */
M4_INLINE uint32_t sxtb16(uint32_t a)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1" : "=r"(r) : "r"(a));
    return r;
}

M4_INLINE uint32_t sxtb16_ror8(uint32_t a)
{
    uint32_t r;
    __asm__("sxtb16 %0, %1, ror #8" : "=r"(r) : "r"(a));
    return r;
}

/* Bottom half of bottom, top half from the bottom half of top. */
M4_INLINE uint32_t pkhbt_lsl16(uint32_t bottom, uint32_t top)
{
    uint32_t r;
    __asm__("pkhbt %0, %1, %2, lsl #16" : "=r"(r) : "r"(bottom), "r"(top));
    return r;
}

/* a.bottom * b.bottom + c and a.top * b.bottom + c (32-bit). */
#define DSP3(name)                                                                   \
    M4_INLINE uint32_t name(uint32_t a, uint32_t b, uint32_t c)                      \
    {                                                                                \
        uint32_t r;                                                                  \
        __asm__(#name " %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(c));         \
        return r;                                                                    \
    }
DSP3(smlabb)
DSP3(smlatb)

/* a.bottom * b.top + c (32-bit). */
M4_INLINE uint32_t smlabt(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t r;
    __asm__("smlabt %0, %1, %2, %3" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
}

/* Top half of top, bottom half of bottom >> 16. */
M4_INLINE uint32_t pkhtb_asr16(uint32_t top, uint32_t bottom)
{
    uint32_t r;
    __asm__("pkhtb %0, %1, %2, asr #16" : "=r"(r) : "r"(top), "r"(bottom));
    return r;
}

/* p R^-1 mod q in the top half (|p| < 2^15 q gives a result in (-q, q)), exactly as
 * mlkem_montgomery_reduce: t = lo16(p) q^-1 (SMULBB), p - t q (SMLABT). */
M4_INLINE uint32_t montgomery_top(uint32_t p)
{
    return smlabt(smulbb(p, QINV_NEGQ), QINV_NEGQ, p);
}

/* (fqmul(z, w.bottom), fqmul(z, w.top)) packed, z in the bottom half of zeta. */
M4_INLINE uint32_t fqmul2(uint32_t zeta, uint32_t w)
{
    return pkhtb_asr16(montgomery_top(smultb(w, zeta)), montgomery_top(smulbb(w, zeta)));
}

/* mlkem_barrett_reduce on both halves: t = floor((v a + 2^25) / 2^26) (SMLABB / SMLATB
 * with the rounding constant as accumulator), a - t q on both halves at once (SSUB16). */
M4_INLINE uint32_t barrett2(uint32_t w)
{
    const int32_t t_lo = (int32_t)smlabb(w, BARRETT_V, 1u << 25) >> 26;
    const int32_t t_hi = (int32_t)smlatb(w, BARRETT_V, 1u << 25) >> 26;
    return ssub16(w, pkhbt_lsl16((uint32_t)(t_lo * PQPAN_MLKEM_Q), (uint32_t)(t_hi * PQPAN_MLKEM_Q)));
}

M4_INLINE uint32_t load_word(const int16_t *p)
{
    uint32_t w;
    memcpy(&w, p, sizeof w);
    return w;
}

M4_INLINE void store_word(int16_t *p, uint32_t w)
{
    memcpy(p, &w, sizeof w);
}

/* Eight coefficients from one 32-bit word t of PRF output, written to c[0..7] or (add)
 * added to them; the four stores written out (and add a constant in each inlined copy),
 * so that no branch is left in the loop. */
M4_INLINE void cbd2_word(int16_t c[8], uint32_t t, int add)
{
    const uint32_t m2 = 0x03030303u;
    const uint32_t d = t - ((t >> 1) & 0x55555555u);
    const uint32_t even = ssub8(d & m2, (d >> 2) & m2);       /* c[2k] in byte k */
    const uint32_t odd = ssub8((d >> 4) & m2, (d >> 6) & m2); /* c[2k + 1] */
    const uint32_t e02 = sxtb16(even), o02 = sxtb16(odd);
    const uint32_t e13 = sxtb16_ror8(even), o13 = sxtb16_ror8(odd);
    const uint32_t w0 = pkhbt_lsl16(e02, o02), w1 = pkhbt_lsl16(e13, o13);
    const uint32_t w2 = pkhtb_asr16(o02, e02), w3 = pkhtb_asr16(o13, e13);
    store_word(c, add ? sadd16(load_word(c), w0) : w0);
    store_word(c + 2, add ? sadd16(load_word(c + 2), w1) : w1);
    store_word(c + 4, add ? sadd16(load_word(c + 4), w2) : w2);
    store_word(c + 6, add ? sadd16(load_word(c + 6), w3) : w3);
}

/* SamplePolyCBD_2 (FIPS 203 Alg. 8, eta = 2) of one piece, 8 coefficients per input word:
 * d holds the bit sums of each 2-bit pair, so nibble j of d is x_j (bits 0-1) and y_j
 * (bits 2-3); SSUB8 forms x - y for the even and the odd nibbles in the four byte lanes,
 * SXTB16 sign-extends two bytes into halves and PKHBT / PKHTB put the coefficients back
 * in order. Equal to the portable cbd2 (16-bit wrap-around of the sums included). */
void pqpan_mlkem_cbd2_piece(int16_t c[64], const uint8_t buf[32], int add)
{
    uint32_t t;
    if (add) {
        for (unsigned i = 0; i < 8; i++) {
            memcpy(&t, buf + 4 * i, sizeof t);
            cbd2_word(c + 8 * i, t, 1);
        }
    } else {
        for (unsigned i = 0; i < 8; i++) {
            memcpy(&t, buf + 4 * i, sizeof t);
            cbd2_word(c + 8 * i, t, 0);
        }
    }
}

/* Four coefficients from 24 bits t of PRF output (eta = 3), written to c[0..3] or (add)
 * added to them: d holds the bit sums of each 3-bit group, so 3-bit field 2j of d is x_j
 * and field 2j + 1 is y_j (each 0..3). x - y + 3 is formed for the four fields at once
 * (fields 6 bits apart, each x_j + 3 >= y_j, so no borrow crosses a field), the fields
 * are paired into halves, and SSUB16 takes the 3 back off. */
M4_INLINE void cbd3_group(int16_t c[4], uint32_t t, int add)
{
    const uint32_t m3 = 0x00249249u, fields = 0x001C71C7u, three = 0x000C30C3u;
    const uint32_t d = (t & m3) + ((t >> 1) & m3) + ((t >> 2) & m3);
    const uint32_t z = (d & fields) + three - ((d >> 3) & fields);
    const uint32_t w0 = ssub16((z & 63u) | ((z >> 6) & 63u) << 16, 0x00030003u);
    const uint32_t w1 = ssub16(((z >> 12) & 63u) | (z >> 18) << 16, 0x00030003u);
    store_word(c, add ? sadd16(load_word(c), w0) : w0);
    store_word(c + 2, add ? sadd16(load_word(c + 2), w1) : w1);
}

/* Two groups (6 bytes) of SamplePolyCBD_3, 8 coefficients. */
M4_INLINE void cbd3_two(int16_t c[8], const uint8_t *p, int add)
{
    uint32_t w;
    uint16_t h;
    memcpy(&w, p, sizeof w);
    memcpy(&h, p + 4, sizeof h);
    cbd3_group(c, w & 0x00FFFFFFu, add);
    cbd3_group(c + 4, w >> 24 | (uint32_t)h << 8, add);
}

/* SamplePolyCBD_3 (FIPS 203 Alg. 8, eta = 3) of one piece, four coefficients per 24
 * input bits with one subtraction for all four. Equal to the portable cbd3 (16-bit
 * wrap-around of the sums included). */
void pqpan_mlkem_cbd3_piece(int16_t c[64], const uint8_t buf[48], int add)
{
    if (add) {
        for (unsigned i = 0; i < 8; i++) {
            cbd3_two(c + 8 * i, buf + 6 * i, 1);
        }
    } else {
        for (unsigned i = 0; i < 8; i++) {
            cbd3_two(c + 8 * i, buf + 6 * i, 0);
        }
    }
}

/* fqmul(c_i, z) of every coefficient, two per word (fqmul2), four words per pass. */
M4_INLINE void poly_fqmul(struct mlkem_poly *p, int16_t z)
{
    const uint32_t zeta = (uint16_t)z;
    for (unsigned j = 0; j < PQPAN_MLKEM_N; j += 8) {
        store_word(p->c + j, fqmul2(zeta, load_word(p->c + j)));
        store_word(p->c + j + 2, fqmul2(zeta, load_word(p->c + j + 2)));
        store_word(p->c + j + 4, fqmul2(zeta, load_word(p->c + j + 4)));
        store_word(p->c + j + 6, fqmul2(zeta, load_word(p->c + j + 6)));
    }
}

/* c_i R mod q as fqmul(c_i, R^2) and c_i R^-1 as fqmul(c_i, 1) (= mlkem_montgomery_reduce
 * of c_i): equal to the portable pqpan_mlkem_poly_tomont and _frommont. */
void pqpan_mlkem_poly_tomont(struct mlkem_poly *p)
{
    poly_fqmul(p, PQPAN_MLKEM_R2);
}

void pqpan_mlkem_poly_frommont(struct mlkem_poly *p)
{
    poly_fqmul(p, 1);
}

/* Both halves of w (|w_i| < q) to their representatives in [0, q): w + q on both
 * halves (SADD16), then SSUB16 of zero sets the GE flags of the halves of w that are
 * >= 0 and SEL keeps w there, w + q in the others (ARMv7-M ARM, Arm DDI 0403E, §A7.7:
 * SADD16, SSUB16, SEL; 1 cycle each). One statement, so that nothing comes between the
 * flags and SEL. */
M4_INLINE uint32_t to_unsigned2(uint32_t w)
{
    const uint32_t qq = (uint32_t)PQPAN_MLKEM_Q << 16 | PQPAN_MLKEM_Q;
    uint32_t plus_q, flags;
    __asm__("sadd16 %0, %2, %3\n\t"
            "ssub16 %1, %2, %4\n\t"
            "sel %0, %2, %0"
            : "=&r"(plus_q), "=&r"(flags)
            : "r"(w), "r"(qq), "r"(0u)
            : "cc");
    (void)flags;
    return plus_q;
}

/* ByteEncode_12 (FIPS 203 Alg. 5) of four values below 2^12, two per word (a: t0, t1;
 * b: t2, t3), into 6 bytes: t0 | t1 << 12 | t2 << 24 as a word (t1 shifted down from
 * bit 16), then t2 >> 8 | t3 << 4 as a halfword (t3 shifted down from bit 16). */
M4_INLINE void encode12_four(uint8_t out[6], uint32_t a, uint32_t b)
{
    const uint32_t lo = ((a >> 4) & ~0xFFFu) | (a & 0xFFFu) | b << 24; /* BFI */
    const uint16_t hi = (uint16_t)(((b >> 8) & 0xFu) | b >> 12);
    memcpy(out, &lo, sizeof lo);
    memcpy(out + 4, &hi, sizeof hi);
}

/* ByteEncode_12 of every coefficient after barrett2 (tomont 0) or fqmul2 by R^2 (tomont
 * 1, as poly_fqmul), four coefficients per step; p is left unchanged. */
M4_INLINE void encode12_poly(uint8_t r[PQPAN_MLKEM_POLYBYTES], const struct mlkem_poly *p, int tomont)
{
    const int16_t *c = p->c;
    for (uint8_t *out = r; out < r + PQPAN_MLKEM_POLYBYTES; out += 6, c += 4) {
        const uint32_t a = load_word(c), b = load_word(c + 2);
        encode12_four(out, to_unsigned2(tomont ? fqmul2(PQPAN_MLKEM_R2, a) : barrett2(a)),
                      to_unsigned2(tomont ? fqmul2(PQPAN_MLKEM_R2, b) : barrett2(b)));
    }
}

/* pqpan_mlkem_poly_reduce and pqpan_mlkem_poly_tobytes in one pass; equal to the portable
 * pqpan_mlkem_poly_reduce_tobytes. */
void pqpan_mlkem_poly_reduce_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], struct mlkem_poly *p)
{
    encode12_poly(r, p, 0);
}

/* pqpan_mlkem_poly_tomont and pqpan_mlkem_poly_tobytes in one pass; equal to the portable
 * pqpan_mlkem_poly_tomont_tobytes. */
void pqpan_mlkem_poly_tomont_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], struct mlkem_poly *p)
{
    encode12_poly(r, p, 1);
}

/* Bits k and k + 1 of the message byte b, each times Decompress_1(1) = 1665, in the
 * halves of a word. */
M4_INLINE uint32_t msg_pair(uint32_t b, unsigned k)
{
    return (((b >> k) & 1u) | ((b >> (k + 1)) & 1u) << 16) * ((PQPAN_MLKEM_Q + 1) / 2);
}

/* pqpan_mlkem_poly_add_msg two coefficients per SADD16: the same int16 sums as the
 * portable C, no branch or address depending on m. */
void pqpan_mlkem_poly_add_msg(struct mlkem_poly *p, const uint8_t m[PQPAN_MLKEM_SYMBYTES])
{
    for (unsigned i = 0; i < PQPAN_MLKEM_SYMBYTES; i++) {
        const uint32_t b = m[i];
        int16_t *c = p->c + 8 * i;
        store_word(c, sadd16(load_word(c), msg_pair(b, 0)));
        store_word(c + 2, sadd16(load_word(c + 2), msg_pair(b, 2)));
        store_word(c + 4, sadd16(load_word(c + 4), msg_pair(b, 4)));
        store_word(c + 6, sadd16(load_word(c + 6), msg_pair(b, 6)));
    }
}

/* Alg. 10's Barrett reduction (mlkem_barrett_reduce) of every coefficient, a word at a
 * time; equal to the portable pqpan_mlkem_poly_reduce. */
void pqpan_mlkem_poly_reduce(struct mlkem_poly *p)
{
    for (unsigned j = 0; j < PQPAN_MLKEM_N; j += 8) { /* four words per pass: fewer branches */
        store_word(p->c + j, barrett2(load_word(p->c + j)));
        store_word(p->c + j + 2, barrett2(load_word(p->c + j + 2)));
        store_word(p->c + j + 4, barrett2(load_word(p->c + j + 4)));
        store_word(p->c + j + 6, barrett2(load_word(p->c + j + 6)));
    }
}

#endif
