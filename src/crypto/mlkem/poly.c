/* Polynomial arithmetic, compression and encodings of FIPS 203 §4.2. */
#include "crypto/mlkem/poly.h"

#include "common/bytes.h"
#include "common/compiler.h"
#include "crypto/m4/backend.h"
#include "crypto/mlkem/ntt.h"
#include "pqpan/common.h"

void PQPAN_M4_PORTABLE(pqpan_mlkem_poly_reduce)(struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = mlkem_barrett_reduce(p->c[i]);
    }
}

void PQPAN_M4_PORTABLE(pqpan_mlkem_poly_tomont)(struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = mlkem_fqmul(p->c[i], PQPAN_MLKEM_R2);
    }
}

void PQPAN_M4_PORTABLE(pqpan_mlkem_poly_frommont)(struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = mlkem_montgomery_reduce(p->c[i]);
    }
}

/* ByteEncode_12 (FIPS 203 Alg. 5): 12-bit values, least significant bits first; four
 * values (48 bits) at a time, the first 32 bits as one word (the third value straddling
 * it), then two bytes. */
void pqpan_mlkem_poly_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], const struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 4; i++) {
        const uint32_t t0 = mlkem_to_unsigned(p->c[4 * i]);
        const uint32_t t1 = mlkem_to_unsigned(p->c[4 * i + 1]);
        const uint32_t t2 = mlkem_to_unsigned(p->c[4 * i + 2]);
        const uint32_t t3 = mlkem_to_unsigned(p->c[4 * i + 3]);
        pqpan_store32_le(r + 6 * i, t0 | t1 << 12 | t2 << 24);
        r[6 * i + 4] = (uint8_t)(t2 >> 8 | t3 << 4);
        r[6 * i + 5] = (uint8_t)(t3 >> 4);
    }
}

void PQPAN_M4_PORTABLE(pqpan_mlkem_poly_reduce_tobytes)(uint8_t r[PQPAN_MLKEM_POLYBYTES],
                                                       struct mlkem_poly *p)
{
    pqpan_mlkem_poly_reduce(p);
    pqpan_mlkem_poly_tobytes(r, p);
}

void PQPAN_M4_PORTABLE(pqpan_mlkem_poly_tomont_tobytes)(uint8_t r[PQPAN_MLKEM_POLYBYTES],
                                                       struct mlkem_poly *p)
{
    pqpan_mlkem_poly_tomont(p);
    pqpan_mlkem_poly_tobytes(r, p);
}

/* x mod q for x < 2^12 without a branch: subtract q, add it back if that went negative. */
static int16_t reduce_12bit(uint16_t x)
{
    int16_t r = (int16_t)(x - PQPAN_MLKEM_Q);
    return (int16_t)(r + ((r >> 15) & PQPAN_MLKEM_Q));
}

/* ByteDecode_12 (FIPS 203 Alg. 6), each value taken mod q. */
void pqpan_mlkem_poly_frombytes(struct mlkem_poly *p, const uint8_t a[PQPAN_MLKEM_POLYBYTES])
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 2; i++) {
        uint16_t t0 = (uint16_t)(a[3 * i] | ((a[3 * i + 1] & 0x0F) << 8));
        uint16_t t1 = (uint16_t)((a[3 * i + 1] >> 4) | (a[3 * i + 2] << 4));
        p->c[2 * i] = reduce_12bit(t0);
        p->c[2 * i + 1] = reduce_12bit(t1);
    }
}

/* 2^12 - q: a 12-bit t is >= q iff t + CANON_BIAS (< 2^13) has bit 12 set. */
#define CANON_BIAS ((1u << 12) - PQPAN_MLKEM_Q)

/* Four values (6 bytes) per step, read as the overlapping words of bytes 0-3 and 2-5, the
 * bit-12 flags ORed together: no branch per value. */
int pqpan_mlkem_poly_bytes_canonical(const uint8_t a[PQPAN_MLKEM_POLYBYTES])
{
    uint32_t over = 0;
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 4; i++) {
        const uint32_t lo = pqpan_load32_le(a + 6 * i), hi = pqpan_load32_le(a + 6 * i + 2);
        over |= ((lo & 0xFFFu) + CANON_BIAS) | (((lo >> 12) & 0xFFFu) + CANON_BIAS) |
                (((hi >> 8) & 0xFFFu) + CANON_BIAS) | ((hi >> 20) + CANON_BIAS);
    }
    return (int)(((over >> 12) & 1u) ^ 1u);
}

/* floor(n / q) as (n * ceil(2^40 / q)) >> 40: exact while n (ceil(2^40 / q) - 2^40 / q)
 * < 2^40 / q, i.e. for n < 2^40 / q ~ 3.3 * 10^8; the unit test checks it exhaustively
 * for every n = 2^d x + 1664 with 0 <= x < 4q and every d it is used with (1, 4, 5, 10,
 * 11; n < 2^25). No division instruction, whose timing may depend on its operands. */
#define DIV_Q_MAGIC 330282857u
#define DIV_Q_SHIFT 40

/* Compress_d(x) = round(2^d x / q) mod 2^d (FIPS 203 eq. 4.7) of the residue of x, for
 * |x| < 2q. Since q is odd, rounding never ties and round(y / q) = floor((y + (q - 1) / 2)
 * / q). Adding 2q to x adds 2^(d+1) to round(2^d x / q), a multiple of 2^d, so the
 * residue's value is that of x + 2q, which lies in [0, 4q): no reduction or sign
 * correction is needed first. */
static inline uint32_t compress_bias(unsigned d)
{
    return (2u * PQPAN_MLKEM_Q << d) + (PQPAN_MLKEM_Q - 1) / 2;
}

/* On 32-bit Arm, where these constants are no Thumb-2 immediates, the loops below hold
 * their bias in a register (PQPAN_OPAQUE before the loop): one ADD with a shifted operand,
 * or MLA in decompress, per coefficient instead of a shift and two ADDs of immediates.
 * x86-64 takes the constants as immediates (a barrier there cost 0.1-0.3 % of encaps and
 * decaps, scripts/bench_kem.sh). */
#if defined(__arm__)
#define HOLD_IN_REGISTER(v) PQPAN_OPAQUE(v)
#else
#define HOLD_IN_REGISTER(v) ((void)(v))
#endif

/* bias is compress_bias(d), passed in so that the loops can hold it in a register; the
 * sum is taken mod 2^32, its true value n lying in [0, 2^25). */
static inline uint16_t compress(int16_t x, unsigned d, uint32_t bias)
{
    const uint32_t n = (uint32_t)((int32_t)x * (int32_t)(1u << d)) + bias;
    const uint32_t quot = (uint32_t)(((uint64_t)n * DIV_Q_MAGIC) >> DIV_Q_SHIFT);
    return (uint16_t)(quot & ((1u << d) - 1));
}

uint16_t pqpan_mlkem_compress(int16_t x, unsigned d)
{
    return compress(x, d, compress_bias(d));
}

/* Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d) (eq. 4.8); half is
 * 2^(d-1), passed in as compress's bias. */
static int16_t decompress(uint32_t y, unsigned d, uint32_t half)
{
    return (int16_t)((y * PQPAN_MLKEM_Q + half) >> d);
}

/* ByteEncode_d (FIPS 203 Alg. 5) of eight d-bit values: bit b of v[i] is bit d i + b of
 * the d output bytes, least significant first. Written out per d, a word at a time and
 * without loops (gcc -O2 does not unroll them), so that every shift is a constant: d = 4
 * two values per byte; d = 5 the first 32 bits as one word, v[6] straddling it; d = 10
 * two runs of four values in 5 bytes; d = 11 the first 64 bits as one word, v[5]
 * straddling it, then 24 bits. */
static inline void byte_encode8(uint8_t *out, const uint16_t v[8], unsigned d)
{
    if (d == 4) {
        pqpan_store32_le(out, (uint32_t)v[0] | (uint32_t)v[1] << 4 | (uint32_t)v[2] << 8 |
                                  (uint32_t)v[3] << 12 | (uint32_t)v[4] << 16 |
                                  (uint32_t)v[5] << 20 | (uint32_t)v[6] << 24 |
                                  (uint32_t)v[7] << 28);
    } else if (d == 5) { /* v[6] keeps its low 2 bits in the word */
        pqpan_store32_le(out, (uint32_t)v[0] | (uint32_t)v[1] << 5 | (uint32_t)v[2] << 10 |
                                  (uint32_t)v[3] << 15 | (uint32_t)v[4] << 20 |
                                  (uint32_t)v[5] << 25 | (uint32_t)v[6] << 30);
        out[4] = (uint8_t)(v[6] >> 2 | v[7] << 3);
    } else if (d == 10) {
        pqpan_store32_le(out, (uint32_t)v[0] | (uint32_t)v[1] << 10 | (uint32_t)v[2] << 20 |
                                  (uint32_t)v[3] << 30);
        out[4] = (uint8_t)(v[3] >> 2);
        pqpan_store32_le(out + 5, (uint32_t)v[4] | (uint32_t)v[5] << 10 | (uint32_t)v[6] << 20 |
                                      (uint32_t)v[7] << 30);
        out[9] = (uint8_t)(v[7] >> 2);
    } else { /* v[2] and v[5] straddle the two words, v[5] the 64-bit boundary */
        const uint32_t t = (uint32_t)v[5] >> 9 | (uint32_t)v[6] << 2 | (uint32_t)v[7] << 13;
        pqpan_store32_le(out, (uint32_t)v[0] | (uint32_t)v[1] << 11 | (uint32_t)v[2] << 22);
        pqpan_store32_le(out + 4, (uint32_t)v[2] >> 10 | (uint32_t)v[3] << 1 |
                                      (uint32_t)v[4] << 12 | (uint32_t)v[5] << 23);
        out[8] = (uint8_t)t;
        out[9] = (uint8_t)(t >> 8);
        out[10] = (uint8_t)(t >> 16);
    }
}

/* ByteDecode_d (FIPS 203 Alg. 6) of eight d-bit values from d bytes, the inverse of
 * byte_encode8 (no reduction: 2^d < q for these d). */
static inline void byte_decode8(uint16_t v[8], const uint8_t *in, unsigned d)
{
    const uint32_t m = (1u << d) - 1, w = pqpan_load32_le(in);
    if (d == 4) {
        v[0] = (uint16_t)(w & m);
        v[1] = (uint16_t)((w >> 4) & m);
        v[2] = (uint16_t)((w >> 8) & m);
        v[3] = (uint16_t)((w >> 12) & m);
        v[4] = (uint16_t)((w >> 16) & m);
        v[5] = (uint16_t)((w >> 20) & m);
        v[6] = (uint16_t)((w >> 24) & m);
        v[7] = (uint16_t)(w >> 28);
    } else if (d == 5) {
        v[0] = (uint16_t)(w & m);
        v[1] = (uint16_t)((w >> 5) & m);
        v[2] = (uint16_t)((w >> 10) & m);
        v[3] = (uint16_t)((w >> 15) & m);
        v[4] = (uint16_t)((w >> 20) & m);
        v[5] = (uint16_t)((w >> 25) & m);
        v[6] = (uint16_t)((w >> 30 | (uint32_t)in[4] << 2) & m);
        v[7] = (uint16_t)(in[4] >> 3);
    } else if (d == 10) {
        const uint32_t w2 = pqpan_load32_le(in + 5);
        v[0] = (uint16_t)(w & m);
        v[1] = (uint16_t)((w >> 10) & m);
        v[2] = (uint16_t)((w >> 20) & m);
        v[3] = (uint16_t)(w >> 30 | (uint32_t)in[4] << 2);
        v[4] = (uint16_t)(w2 & m);
        v[5] = (uint16_t)((w2 >> 10) & m);
        v[6] = (uint16_t)((w2 >> 20) & m);
        v[7] = (uint16_t)(w2 >> 30 | (uint32_t)in[9] << 2);
    } else {
        const uint32_t w2 = pqpan_load32_le(in + 4);
        const uint32_t t = (uint32_t)in[8] | (uint32_t)in[9] << 8 | (uint32_t)in[10] << 16;
        v[0] = (uint16_t)(w & m);
        v[1] = (uint16_t)((w >> 11) & m);
        v[2] = (uint16_t)((w >> 22 | w2 << 10) & m);
        v[3] = (uint16_t)((w2 >> 1) & m);
        v[4] = (uint16_t)((w2 >> 12) & m);
        v[5] = (uint16_t)((w2 >> 23 | t << 9) & m);
        v[6] = (uint16_t)((t >> 2) & m);
        v[7] = (uint16_t)(t >> 13);
    }
}

/* Compress_d of four coefficients (|c_i| < 2q), written out for the same reason. */
static inline void compress4(uint16_t v[4], const int16_t c[4], unsigned d, uint32_t bias)
{
    v[0] = compress(c[0], d, bias);
    v[1] = compress(c[1], d, bias);
    v[2] = compress(c[2], d, bias);
    v[3] = compress(c[3], d, bias);
}

/* ByteEncode_d(Compress_d(c[0..7])) (FIPS 203 Alg. 5): eight values of d bits, so every
 * group of 8 starts on a byte boundary. */
static inline void compress_group(uint8_t *out, const int16_t c[8], unsigned d, uint32_t bias)
{
    uint16_t v[8];
    compress4(v, c, d, bias);
    compress4(v + 4, c + 4, d, bias);
    byte_encode8(out, v, d);
}

/* Decompress_d of four values. */
static inline void decompress4(int16_t c[4], const uint16_t v[4], unsigned d, uint32_t half)
{
    c[0] = decompress(v[0], d, half);
    c[1] = decompress(v[1], d, half);
    c[2] = decompress(v[2], d, half);
    c[3] = decompress(v[3], d, half);
}

/* Decompress_d(ByteDecode_d(in)) (Alg. 6) of one group of 8 values from d bytes. */
static inline void decompress_group(int16_t c[8], const uint8_t *in, unsigned d, uint32_t half)
{
    uint16_t v[8];
    byte_decode8(v, in, d);
    decompress4(c, v, d, half);
    decompress4(c + 4, v + 4, d, half);
}

/* The OR of the byte differences of two d-byte groups folded into 8 bits (0 iff equal),
 * a word at a time. */
static inline unsigned group_diff(const uint8_t *a, const uint8_t *b, unsigned d)
{
    uint32_t x = pqpan_load32_le(a) ^ pqpan_load32_le(b);
    if (d >= 8) {
        x |= pqpan_load32_le(a + 4) ^ pqpan_load32_le(b + 4);
    }
    if (d % 4 >= 1) {
        x |= (uint32_t)(a[d - d % 4] ^ b[d - d % 4]);
    }
    if (d % 4 >= 2) {
        x |= (uint32_t)(a[d - d % 4 + 1] ^ b[d - d % 4 + 1]);
    }
    if (d % 4 == 3) {
        x |= (uint32_t)(a[d - 1] ^ b[d - 1]);
    }
    return (x | x >> 8 | x >> 16 | x >> 24) & 0xFFu;
}

static inline void compress_all(uint8_t *r, const struct mlkem_poly *p, unsigned d)
{
    uint32_t bias = compress_bias(d);
    unsigned g;
    HOLD_IN_REGISTER(bias);
    for (g = 0; g < PQPAN_MLKEM_N / 8; g++) {
        compress_group(r + d * g, p->c + 8 * g, d, bias);
    }
}

/* Compares group by group; the group buffer holds secret-derived bytes and is wiped. */
static inline unsigned compress_diff_all(const uint8_t *expected, const struct mlkem_poly *p,
                                         unsigned d)
{
    uint8_t buf[11];
    uint32_t bias = compress_bias(d);
    unsigned diff = 0, g;
    HOLD_IN_REGISTER(bias);
    for (g = 0; g < PQPAN_MLKEM_N / 8; g++) {
        compress_group(buf, p->c + 8 * g, d, bias);
        diff |= group_diff(buf, expected + d * g, d);
    }
    pqpan_wipe(buf, sizeof buf);
    return diff;
}

static inline void decompress_all(struct mlkem_poly *p, const uint8_t *a, unsigned d)
{
    uint32_t half = 1u << (d - 1);
    unsigned g;
    HOLD_IN_REGISTER(half);
    for (g = 0; g < PQPAN_MLKEM_N / 8; g++) {
        decompress_group(p->c + 8 * g, a + d * g, d, half);
    }
}

/* The public functions dispatch on d so that each inlined copy has d constant and the
 * compiler unrolls the groups completely. */
void pqpan_mlkem_poly_compress(uint8_t *r, const struct mlkem_poly *p, unsigned d)
{
    switch (d) {
    case 4:
        compress_all(r, p, 4);
        break;
    case 5:
        compress_all(r, p, 5);
        break;
    case 10:
        compress_all(r, p, 10);
        break;
    default:
        compress_all(r, p, 11);
        break;
    }
}

unsigned pqpan_mlkem_poly_compress_diff(const uint8_t *expected, const struct mlkem_poly *p,
                                        unsigned d)
{
    switch (d) {
    case 4:
        return compress_diff_all(expected, p, 4);
    case 5:
        return compress_diff_all(expected, p, 5);
    case 10:
        return compress_diff_all(expected, p, 10);
    default:
        return compress_diff_all(expected, p, 11);
    }
}

void pqpan_mlkem_poly_decompress(struct mlkem_poly *p, const uint8_t *a, unsigned d)
{
    switch (d) {
    case 4:
        decompress_all(p, a, 4);
        break;
    case 5:
        decompress_all(p, a, 5);
        break;
    case 10:
        decompress_all(p, a, 10);
        break;
    default:
        decompress_all(p, a, 11);
        break;
    }
}

/* Decompress_1 of bit b is round(q / 2) b = 1665 b, computed with a mask. */
void PQPAN_M4_PORTABLE(pqpan_mlkem_poly_add_msg)(struct mlkem_poly *p, const uint8_t m[PQPAN_MLKEM_SYMBYTES])
{
    unsigned i, j;
    for (i = 0; i < PQPAN_MLKEM_SYMBYTES; i++) {
        for (j = 0; j < 8; j++) {
            const uint16_t bit = (uint16_t)((m[i] >> j) & 1u);
            const uint16_t add = (uint16_t)((uint16_t)(0u - bit) & ((PQPAN_MLKEM_Q + 1) / 2));
            p->c[8 * i + j] = (int16_t)(p->c[8 * i + j] + (int16_t)add);
        }
    }
}

/* Compress_1(v_j - w_j) as bit j. */
static inline unsigned msg_bit(const int16_t v[8], const int16_t w[8], unsigned j, uint32_t bias)
{
    return (unsigned)compress((int16_t)(v[j] - w[j]), 1, bias) << j;
}

/* ByteEncode_1(Compress_1(v - w)) of eight coefficients: one message byte, written out
 * (gcc -O2 leaves a loop over the bits rolled). */
static inline uint8_t msg_byte(const int16_t v[8], const int16_t w[8], uint32_t bias)
{
    return (uint8_t)(msg_bit(v, w, 0, bias) | msg_bit(v, w, 1, bias) | msg_bit(v, w, 2, bias) |
                     msg_bit(v, w, 3, bias) | msg_bit(v, w, 4, bias) | msg_bit(v, w, 5, bias) |
                     msg_bit(v, w, 6, bias) | msg_bit(v, w, 7, bias));
}

void pqpan_mlkem_poly_tomsg(uint8_t m[PQPAN_MLKEM_SYMBYTES], const struct mlkem_poly *v,
                            const struct mlkem_poly *w)
{
    uint32_t bias = compress_bias(1);
    unsigned i;
    HOLD_IN_REGISTER(bias);
    for (i = 0; i < PQPAN_MLKEM_SYMBYTES; i++) {
        m[i] = msg_byte(v->c + 8 * i, w->c + 8 * i, bias);
    }
}
