/* The NTT of FIPS 203 §4.3 with Montgomery arithmetic (R = 2^16). */
#include "crypto/mlkem/ntt.h"

/* zetas[i] = zeta^BitRev7(i) * R mod q, zeta = 17 (FIPS 203 §4.3, the list in Appendix A
 * times R), as representatives in [-(q-1)/2, (q-1)/2]. Computed as
 * pow(17, brv7(i), 3329) * 65536 % 3329, then centred. */
static const int16_t zetas[128] = {
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

/* One layer of Alg. 9 (lines 5-10) with the butterfly distance len; *k indexes zetas.
 * Inlined with a constant len so that the compiler can vectorize the inner loop. */
static inline void ntt_layer(int16_t a[PQPAN_MLKEM_N], unsigned len, unsigned *k)
{
    unsigned start, j;
    for (start = 0; start < PQPAN_MLKEM_N; start += 2 * len) {
        const int16_t zeta = zetas[(*k)++];
        for (j = start; j < start + len; j++) {
            int16_t t = mlkem_fqmul(zeta, a[j + len]);
            a[j + len] = (int16_t)(a[j] - t);
            a[j] = (int16_t)(a[j] + t);
        }
    }
}

/* FIPS 203 Alg. 9: Cooley-Tukey butterflies, len = 128 .. 2. Without reductions the
 * coefficients grow by less than q per layer, so |a_i| < q + 7q = 8q < 2^15. */
void pqpan_mlkem_ntt(int16_t a[PQPAN_MLKEM_N])
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
        const int16_t zeta = zetas[(*k)--];
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
 * layer, so entering a layer with |a_i| < 4q keeps every sum and difference below
 * 8q < 2^15. Starting from |a_i| < q, the sums are Barrett-reduced only in the layers
 * len = 8 and len = 64, which keeps every layer's input below 4q. */
void pqpan_mlkem_invntt(int16_t a[PQPAN_MLKEM_N])
{
    unsigned j, k = 127;
    invntt_layer(a, 2, &k, 0);
    invntt_layer(a, 4, &k, 0);
    invntt_layer(a, 8, &k, 1);
    invntt_layer(a, 16, &k, 0);
    invntt_layer(a, 32, &k, 0);
    invntt_layer(a, 64, &k, 1);
    invntt_layer(a, 128, &k, 0);
    for (j = 0; j < PQPAN_MLKEM_N; j++) {
        a[j] = mlkem_fqmul(a[j], INVNTT_SCALE);
    }
}

/* Alg. 12 on one degree-2 factor with gamma (times R) g: c0 = a0 b0 + a1 (b1 gamma),
 * c1 = a0 b1 + a1 b0. With b_i < 2^12 and |a_i| < 2^12 both sums stay below 2^15 q, the
 * input range of the Montgomery reduction; each adds less than q to |acc_i|. */
static inline void basemul_pair(int16_t acc[2], const int16_t a[2], int32_t b0, int32_t b1,
                                int16_t g)
{
    const int32_t a0 = a[0], a1 = a[1];
    const int32_t b1g = mlkem_fqmul((int16_t)b1, g);
    acc[0] = (int16_t)(acc[0] + mlkem_montgomery_reduce(a0 * b0 + a1 * b1g));
    acc[1] = (int16_t)(acc[1] + mlkem_montgomery_reduce(a0 * b1 + a1 * b0));
}

/* gamma_i = zeta^(2 BitRev7(i) + 1) of the factor i (FIPS 203 Alg. 11), times R: for
 * i = 2m it is zetas[64 + m], for i = 2m + 1 its negative. The factors go two at a time
 * (four coefficients of a, six bytes of b, one zeta) after a leading odd one; the loop
 * bounds are public. */
void pqpan_mlkem_basemul_acc_bytes(int16_t acc[PQPAN_MLKEM_N], const int16_t *a,
                                   const uint8_t b[PQPAN_MLKEM_POLYBYTES], unsigned first,
                                   unsigned count)
{
    const unsigned end = first + count;
    unsigned i = first;
    if ((i & 1u) != 0 && i < end) {
        const uint8_t *bb = b + 3 * i;
        basemul_pair(acc + 2 * i, a, bb[0] | ((bb[1] & 0x0F) << 8), (bb[1] >> 4) | (bb[2] << 4),
                     (int16_t)-zetas[64 + i / 2]);
        a += 2;
        i++;
    }
    for (; i + 2 <= end; i += 2) { /* six bytes as a 32-bit and a 16-bit word */
        const uint8_t *bb = b + 3 * i;
        const uint32_t w0 = (uint32_t)bb[0] | (uint32_t)bb[1] << 8 | (uint32_t)bb[2] << 16 |
                            (uint32_t)bb[3] << 24;
        const uint32_t w1 = (uint32_t)bb[4] | (uint32_t)bb[5] << 8;
        const int16_t zeta = zetas[64 + i / 2];
        basemul_pair(acc + 2 * i, a, (int32_t)(w0 & 0xFFF), (int32_t)((w0 >> 12) & 0xFFF), zeta);
        basemul_pair(acc + 2 * i + 2, a + 2, (int32_t)((w0 >> 24) | ((w1 & 0x0F) << 8)),
                     (int32_t)(w1 >> 4), (int16_t)-zeta);
        a += 4;
    }
    if (i < end) {
        const uint8_t *bb = b + 3 * i;
        basemul_pair(acc + 2 * i, a, bb[0] | ((bb[1] & 0x0F) << 8), (bb[1] >> 4) | (bb[2] << 4),
                     zetas[64 + i / 2]);
    }
}

/* The factors two at a time as above; a is decoded like b, a 12-bit value at most 4095
 * taken mod q. */
void pqpan_mlkem_basemul_acc_encoded(int16_t acc[PQPAN_MLKEM_N],
                                     const uint8_t a[PQPAN_MLKEM_POLYBYTES],
                                     const uint8_t b[PQPAN_MLKEM_POLYBYTES])
{
    unsigned i;
    for (i = 0; i < PQPAN_MLKEM_N / 2; i += 2) {
        const uint8_t *aa = a + 3 * i, *bb = b + 3 * i;
        const uint32_t a0 = (uint32_t)aa[0] | (uint32_t)aa[1] << 8 | (uint32_t)aa[2] << 16 |
                            (uint32_t)aa[3] << 24;
        const uint32_t a1 = (uint32_t)aa[4] | (uint32_t)aa[5] << 8;
        const uint32_t b0 = (uint32_t)bb[0] | (uint32_t)bb[1] << 8 | (uint32_t)bb[2] << 16 |
                            (uint32_t)bb[3] << 24;
        const uint32_t b1 = (uint32_t)bb[4] | (uint32_t)bb[5] << 8;
        const int16_t zeta = zetas[64 + i / 2];
        int16_t av[4];
        av[0] = (int16_t)(a0 & 0xFFF);
        av[1] = (int16_t)((a0 >> 12) & 0xFFF);
        av[2] = (int16_t)((a0 >> 24) | ((a1 & 0x0F) << 8));
        av[3] = (int16_t)(a1 >> 4);
        basemul_pair(acc + 2 * i, av, (int32_t)(b0 & 0xFFF), (int32_t)((b0 >> 12) & 0xFFF), zeta);
        basemul_pair(acc + 2 * i + 2, av + 2, (int32_t)((b0 >> 24) | ((b1 & 0x0F) << 8)),
                     (int32_t)(b1 >> 4), (int16_t)-zeta);
    }
}
