/* Polynomial arithmetic, compression and encodings of FIPS 203 §4.2. */
#include "crypto/mlkem/poly.h"

#include "crypto/mlkem/ntt.h"

void pqpan_mlkem_poly_reduce(struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = mlkem_barrett_reduce(p->c[i]);
    }
}

void pqpan_mlkem_poly_add(struct mlkem_poly *r, const struct mlkem_poly *a,
                          const struct mlkem_poly *b)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        r->c[i] = (int16_t)(a->c[i] + b->c[i]);
    }
}

void pqpan_mlkem_poly_sub(struct mlkem_poly *r, const struct mlkem_poly *a,
                          const struct mlkem_poly *b)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        r->c[i] = (int16_t)(a->c[i] - b->c[i]);
    }
}

void pqpan_mlkem_poly_tomont(struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = mlkem_fqmul(p->c[i], PQPAN_MLKEM_R2);
    }
}

void pqpan_mlkem_poly_from_acc(struct mlkem_poly *p, const int32_t acc[PQPAN_MLKEM_N])
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = mlkem_montgomery_reduce(acc[i]);
    }
}

/* ByteEncode_12 (FIPS 203 Alg. 5): two 12-bit values, least significant bits first,
 * into three bytes. */
void pqpan_mlkem_poly_tobytes(uint8_t r[PQPAN_MLKEM_POLYBYTES], const struct mlkem_poly *p)
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 2; i++) {
        uint16_t t0 = mlkem_to_unsigned(p->c[2 * i]);
        uint16_t t1 = mlkem_to_unsigned(p->c[2 * i + 1]);
        r[3 * i] = (uint8_t)t0;
        r[3 * i + 1] = (uint8_t)((t0 >> 8) | (t1 << 4));
        r[3 * i + 2] = (uint8_t)(t1 >> 4);
    }
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

int pqpan_mlkem_poly_bytes_canonical(const uint8_t a[PQPAN_MLKEM_POLYBYTES])
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 2; i++) {
        unsigned t0 = (unsigned)a[3 * i] | (((unsigned)a[3 * i + 1] & 0x0F) << 8);
        unsigned t1 = ((unsigned)a[3 * i + 1] >> 4) | ((unsigned)a[3 * i + 2] << 4);
        if (t0 >= PQPAN_MLKEM_Q || t1 >= PQPAN_MLKEM_Q) {
            return 0;
        }
    }
    return 1;
}

/* floor(n / q) for n < 2^24 as (n * ceil(2^32 / q)) >> 32; checked exhaustively for every
 * n = 2^d x + 1664, x < q, d <= 11 by the unit test. No division instruction, whose
 * timing may depend on its operands. */
#define DIV_Q_MAGIC 1290168u

/* Compress_d(x) = round(2^d x / q) mod 2^d (FIPS 203 eq. 4.7). Since q is odd, rounding
 * never ties and round(y / q) = floor((y + (q - 1) / 2) / q). */
uint16_t pqpan_mlkem_compress(uint16_t x, unsigned d)
{
    uint32_t n = ((uint32_t)x << d) + (PQPAN_MLKEM_Q - 1) / 2;
    uint32_t quot = (uint32_t)(((uint64_t)n * DIV_Q_MAGIC) >> 32);
    return (uint16_t)(quot & ((1u << d) - 1));
}

/* Decompress_d(y) = round(q y / 2^d) = floor((q y + 2^(d-1)) / 2^d) (eq. 4.8). */
static int16_t decompress(uint32_t y, unsigned d)
{
    return (int16_t)((y * PQPAN_MLKEM_Q + (1u << (d - 1))) >> d);
}

/* ByteEncode_d (FIPS 203 Alg. 5): values of d bits packed least significant bit first,
 * in groups of 8 values (d bytes), so that every group starts on a byte boundary. */
static inline void pack_bits(uint8_t *out, const uint16_t v[PQPAN_MLKEM_N], unsigned d)
{
    unsigned g, i;
    for (g = 0; g < PQPAN_MLKEM_N / 8; g++) {
        uint32_t acc = 0;
        unsigned bits = 0;
        for (i = 0; i < 8; i++) {
            acc |= (uint32_t)v[8 * g + i] << bits;
            bits += d;
            while (bits >= 8) {
                *out++ = (uint8_t)acc;
                acc >>= 8;
                bits -= 8;
            }
        }
    }
}

/* ByteDecode_d (FIPS 203 Alg. 6) for d < 12, in the same groups: no reduction needed
 * (2^d < q). */
static inline void unpack_bits(uint16_t v[PQPAN_MLKEM_N], const uint8_t *in, unsigned d)
{
    const uint32_t mask = (1u << d) - 1;
    unsigned g, i;
    for (g = 0; g < PQPAN_MLKEM_N / 8; g++) {
        uint32_t acc = 0;
        unsigned bits = 0;
        for (i = 0; i < 8; i++) {
            while (bits < d) {
                acc |= (uint32_t)*in++ << bits;
                bits += 8;
            }
            v[8 * g + i] = (uint16_t)(acc & mask);
            acc >>= d;
            bits -= d;
        }
    }
}

/* The packers with d as a constant, so the compiler unrolls each group completely. */
static void pack_d(uint8_t *out, const uint16_t v[PQPAN_MLKEM_N], unsigned d)
{
    switch (d) {
    case 4:
        pack_bits(out, v, 4);
        break;
    case 5:
        pack_bits(out, v, 5);
        break;
    case 10:
        pack_bits(out, v, 10);
        break;
    default:
        pack_bits(out, v, 11);
        break;
    }
}

static void unpack_d(uint16_t v[PQPAN_MLKEM_N], const uint8_t *in, unsigned d)
{
    switch (d) {
    case 4:
        unpack_bits(v, in, 4);
        break;
    case 5:
        unpack_bits(v, in, 5);
        break;
    case 10:
        unpack_bits(v, in, 10);
        break;
    default:
        unpack_bits(v, in, 11);
        break;
    }
}

void pqpan_mlkem_poly_compress(uint8_t *r, const struct mlkem_poly *p, unsigned d)
{
    uint16_t v[PQPAN_MLKEM_N];
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        v[i] = pqpan_mlkem_compress(mlkem_to_unsigned(p->c[i]), d);
    }
    pack_d(r, v, d);
}

void pqpan_mlkem_poly_decompress(struct mlkem_poly *p, const uint8_t *a, unsigned d)
{
    uint16_t v[PQPAN_MLKEM_N];
    unsigned i;
    unpack_d(v, a, d);
    for (i = 0; i < PQPAN_MLKEM_N; i++) {
        p->c[i] = decompress(v[i], d);
    }
}

/* Decompress_1 of bit b is round(q / 2) b = 1665 b, computed with a mask. */
void pqpan_mlkem_poly_frommsg(struct mlkem_poly *p, const uint8_t m[PQPAN_MLKEM_SYMBYTES])
{
    unsigned i, j;
    for (i = 0; i < PQPAN_MLKEM_SYMBYTES; i++) {
        for (j = 0; j < 8; j++) {
            uint16_t bit = (uint16_t)((m[i] >> j) & 1u);
            p->c[8 * i + j] = (int16_t)((uint16_t)(0u - bit) & ((PQPAN_MLKEM_Q + 1) / 2));
        }
    }
}

void pqpan_mlkem_poly_tomsg(uint8_t m[PQPAN_MLKEM_SYMBYTES], const struct mlkem_poly *p)
{
    unsigned i, j;
    for (i = 0; i < PQPAN_MLKEM_SYMBYTES; i++) {
        unsigned byte = 0;
        for (j = 0; j < 8; j++) {
            byte |= (unsigned)pqpan_mlkem_compress(mlkem_to_unsigned(p->c[8 * i + j]), 1) << j;
        }
        m[i] = (uint8_t)byte;
    }
}
