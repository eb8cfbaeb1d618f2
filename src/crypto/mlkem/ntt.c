/* The NTT of FIPS 203 §4.3 with Montgomery arithmetic (R = 2^16). */
#include "crypto/mlkem/ntt.h"

#include "crypto/m4/backend.h"
#include "pqpan/common.h"

/* zetas[i] = zeta^BitRev7(i) * R mod q, zeta = 17 (FIPS 203 §4.3, the list in Appendix A
 * times R), as representatives in [-(q-1)/2, (q-1)/2]. Computed as
 * pow(17, brv7(i), 3329) * 65536 % 3329, then centred. */
PQPAN_M4_SHARED const int16_t pqpan_mlkem_zetas[128] = {
    -1044, -758,  -359,  -1517, 1493,  1422,  287,   202,   -171,  622,   1577,  182,
    962,   -1202, -1474, 1468,  573,   -1325, 264,   383,   -829,  1458,  -1602, -130,
    -681,  1017,  732,   608,   -1542, 411,   -205,  -1571, 1223,  652,   -552,  1015,
    -1293, 1491,  -282,  -1544, 516,   -8,    -320,  -666,  -1618, -1162, 126,   1469,
    -853,  -90,   -271,  830,   107,   -1421, -247,  -951,  -398,  961,   -1508, -725,
    448,   -1065, 677,   -1275, -1103, 430,   555,   843,   -1251, 871,   1550,  105,
    422,   587,   177,   -235,  -291,  -460,  1574,  1653,  -246,  778,   1159,  -147,
    -777,  1483,  -602,  1119,  -1590, 644,   -872,  349,   418,   329,   -156,  -75,
    817,   1097,  603,   610,   1322,  -1285, -1465, 384,   -1215, -136,  1218,  -1335,
    -874,  220,   -1187, -1659, -1185, -1530, -1278, 794,   -1510, -854,  -870,  478,
    -108,  -308,  996,   991,   958,   -1460, 1522,  1628,
};

/* 128^-1 * R^2 mod q: the final scaling of Alg. 10 (multiply by 128^-1 = 3303) combined
 * with a factor R that cancels the R^-1 of the Montgomery base multiplication. */
#define INVNTT_SCALE 1441
/* zetas[1] INVNTT_SCALE R^-1 mod q, centred: the last layer's difference times zeta^64
 * and the final scaling in one Montgomery product, since fqmul(fqmul(d, zetas[1]),
 * INVNTT_SCALE) = d zetas[1] INVNTT_SCALE R^-2 = fqmul(d, this) mod q. Computed as
 * (-758 * 1441 * pow(65536, -1, 3329)) % 3329. */
#define INVNTT_ZETA1_SCALE 1397

/* One layer of Alg. 9 (lines 5-10) with the butterfly distance len; *k indexes zetas.
 * Inlined with a constant len so that the compiler can vectorize the inner loop. */
static inline void ntt_layer(int16_t a[PQPAN_MLKEM_N], unsigned len, unsigned *k)
{
    unsigned start, j;
    for (start = 0; start < PQPAN_MLKEM_N; start += 2 * len) {
        const int16_t zeta = pqpan_mlkem_zetas[(*k)++];
        for (j = start; j < start + len; j++) {
            int16_t t = mlkem_fqmul(zeta, a[j + len]);
            a[j + len] = (int16_t)(a[j] - t);
            a[j] = (int16_t)(a[j] + t);
        }
    }
}

/* FIPS 203 Alg. 9: Cooley-Tukey butterflies, len = 128 .. 2. Without reductions the
 * coefficients grow by less than q per layer, so |a_i| < q + 7q = 8q < 2^15. */
void PQPAN_M4_PORTABLE(pqpan_mlkem_ntt)(int16_t a[PQPAN_MLKEM_N])
{
    unsigned k = 1;
    ntt_layer(a, 128, &k);
    ntt_layer(a, 64, &k);
    ntt_layer(a, 32, &k);
    ntt_layer(a, 16, &k);
    ntt_layer(a, 8, &k);
    ntt_layer(a, 4, &k);
    ntt_layer(a, 2, &k);
}

/* One layer of Alg. 10 (lines 5-10), len constant after inlining as in ntt_layer. The
 * sums are Barrett-reduced when reduce is set. */
static inline void invntt_layer(int16_t a[PQPAN_MLKEM_N], unsigned len, unsigned *k,
                                int reduce)
{
    unsigned start, j;
    for (start = 0; start < PQPAN_MLKEM_N; start += 2 * len) {
        const int16_t zeta = pqpan_mlkem_zetas[(*k)--];
        for (j = start; j < start + len; j++) {
            int16_t t = a[j];
            int16_t sum = (int16_t)(t + a[j + len]);
            a[j] = reduce ? mlkem_barrett_reduce(sum) : sum;
            a[j + len] = mlkem_fqmul(zeta, (int16_t)(a[j + len] - t));
        }
    }
}

/* FIPS 203 Alg. 10: Gentleman-Sande butterflies, len = 2 .. 128. Each difference goes
 * through a Montgomery multiplication (|result| < q); the sums double their bound per
 * layer. The sums of the layers len = 2 and len = 16 are Barrett-reduced (|r| <= (q-1)/2):
 * an input |a_i| < 4q gives sums below 8q < 2^15 in the first layer, every coefficient
 * is below q after it and after len = 16, so the layers in between and after stay below
 * 8q. The input bound of 4q lets callers pass the sum of up to four base multiplications
 * (each adding less than q) unreduced. The last layer (len = 128, zetas[1]) scales the
 * sum by INVNTT_SCALE and the difference by INVNTT_ZETA1_SCALE, one product each. */
void PQPAN_M4_PORTABLE(pqpan_mlkem_invntt)(int16_t a[PQPAN_MLKEM_N])
{
    unsigned j, k = 127;
    invntt_layer(a, 2, &k, 1);
    invntt_layer(a, 4, &k, 0);
    invntt_layer(a, 8, &k, 0);
    invntt_layer(a, 16, &k, 1);
    invntt_layer(a, 32, &k, 0);
    invntt_layer(a, 64, &k, 0);
    for (j = 0; j < PQPAN_MLKEM_N / 2; j++) {
        const int16_t t = a[j];
        a[j] = mlkem_fqmul((int16_t)(t + a[j + PQPAN_MLKEM_N / 2]), INVNTT_SCALE);
        a[j + PQPAN_MLKEM_N / 2] =
            mlkem_fqmul((int16_t)(a[j + PQPAN_MLKEM_N / 2] - t), INVNTT_ZETA1_SCALE);
    }
}

/* gamma_i = zeta^(2 BitRev7(i) + 1) * R mod q of the degree-2 factor i (FIPS 203 Alg. 11,
 * the second list of Appendix A times R), centred: gammas[2m] = zetas[64 + m] and
 * gammas[2m + 1] = -zetas[64 + m]. Computed as pow(17, 2 brv7(i) + 1, 3329) * 65536 % 3329,
 * then centred. Shared with the Cortex-M4 backend. */
PQPAN_M4_SHARED const int16_t pqpan_mlkem_gammas[128] = {
    -1103, 1103,  430,   -430,  555,   -555,  843,   -843,  -1251, 1251,  871,   -871,
    1550,  -1550, 105,   -105,  422,   -422,  587,   -587,  177,   -177,  -235,  235,
    -291,  291,   -460,  460,   1574,  -1574, 1653,  -1653, -246,  246,   778,   -778,
    1159,  -1159, -147,  147,   -777,  777,   1483,  -1483, -602,  602,   1119,  -1119,
    -1590, 1590,  644,   -644,  -872,  872,   349,   -349,  418,   -418,  329,   -329,
    -156,  156,   -75,   75,    817,   -817,  1097,  -1097, 603,   -603,  610,   -610,
    1322,  -1322, -1285, 1285,  -1465, 1465,  384,   -384,  -1215, 1215,  -136,  136,
    1218,  -1218, -1335, 1335,  -874,  874,   220,   -220,  -1187, 1187,  -1659, 1659,
    -1185, 1185,  -1530, 1530,  -1278, 1278,  794,   -794,  -1510, 1510,  -854,  854,
    -870,  870,   478,   -478,  -108,  108,   -308,  308,   996,   -996,  991,   -991,
    958,   -958,  -1460, 1460,  1522,  -1522, 1628,  -1628,
};

/* The base multiplication works on runs of RUN_PAIRS factors whose 12-bit operands are
 * first decoded into int16 arrays, so that the product loop has a constant trip count,
 * reads contiguous int16 data and vectorizes. */
#define RUN_PAIRS PQPAN_MLKEM_BASEMUL_RUN

static inline uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* ByteDecode_12 (FIPS 203 Alg. 6) of one run (2 RUN_PAIRS values), without the reduction
 * mod q: the 12-bit values stay below 2^12. Six bytes (four values, bits 0-47) at a time,
 * read as two overlapping 32-bit words, bytes 0-3 and 2-5, so that each value is one
 * shift and one mask of a word. */
static inline void decode12_run(int16_t out[2 * RUN_PAIRS], const uint8_t *in)
{
    unsigned i;
    for (i = 0; i < 2 * RUN_PAIRS / 4; i++) {
        const uint32_t lo = load32_le(in + 6 * i), hi = load32_le(in + 6 * i + 2);
        out[4 * i] = (int16_t)(lo & 0xFFF);
        out[4 * i + 1] = (int16_t)((lo >> 12) & 0xFFF);
        out[4 * i + 2] = (int16_t)((hi >> 8) & 0xFFF);
        out[4 * i + 3] = (int16_t)(hi >> 20);
    }
}

/* Alg. 12 on the RUN_PAIRS factors first .. first + RUN_PAIRS - 1 with both operands as
 * int16 values, a and b starting at the first factor: c0 = a0 b0 + a1 (b1 gamma),
 * c1 = a0 b1 + a1 b0, each sum Montgomery-reduced once. The trip count is constant and the
 * three arrays are distinct, so compilers vectorize the loop. With |a_i|, b_i < 2^12 and
 * |b1 gamma| < q both sums stay below 2^15 q, the input range of the Montgomery
 * reduction, and each adds less than q to |acc_i|. */
static inline void basemul_run(int16_t *restrict acc, const int16_t *restrict a,
                               const int16_t *restrict b, unsigned first)
{
    const int16_t *g = pqpan_mlkem_gammas + first;
    unsigned i;
    for (i = 0; i < RUN_PAIRS; i++) {
        const int32_t a0 = a[2 * i], a1 = a[2 * i + 1], b0 = b[2 * i], b1 = b[2 * i + 1];
        const int32_t b1g = mlkem_fqmul((int16_t)b1, g[i]);
        acc[2 * i] = (int16_t)(acc[2 * i] + mlkem_montgomery_reduce(a0 * b0 + a1 * b1g));
        acc[2 * i + 1] = (int16_t)(acc[2 * i + 1] + mlkem_montgomery_reduce(a0 * b1 + a1 * b0));
    }
}

/* Run by run: b decoded RUN_PAIRS factors at a time; the loop bounds are public. */
void PQPAN_M4_PORTABLE(pqpan_mlkem_basemul_acc_bytes)(int16_t acc[PQPAN_MLKEM_N], const int16_t *a,
                                   const uint8_t b[PQPAN_MLKEM_POLYBYTES], unsigned first,
                                   unsigned count)
{
    int16_t bv[2 * RUN_PAIRS];
    unsigned i;
    for (i = first; i < first + count; i += RUN_PAIRS) {
        decode12_run(bv, b + 3 * i);
        basemul_run(acc + 2 * i, a + 2 * (i - first), bv, i);
    }
    pqpan_wipe(bv, sizeof bv);
}

/* Both operands decoded RUN_PAIRS factors at a time. */
void PQPAN_M4_PORTABLE(pqpan_mlkem_basemul_acc_encoded)(int16_t acc[PQPAN_MLKEM_N],
                                     const uint8_t a[PQPAN_MLKEM_POLYBYTES],
                                     const uint8_t b[PQPAN_MLKEM_POLYBYTES])
{
    int16_t av[2 * RUN_PAIRS], bv[2 * RUN_PAIRS];
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 2; i += RUN_PAIRS) {
        decode12_run(av, a + 3 * i);
        decode12_run(bv, b + 3 * i);
        basemul_run(acc + 2 * i, av, bv, i);
    }
    pqpan_wipe(av, sizeof av);
    pqpan_wipe(bv, sizeof bv);
}
