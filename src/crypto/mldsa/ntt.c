/* The NTT of FIPS 204 §7.5 with Montgomery arithmetic (R = 2^32). */
#include "crypto/mldsa/ntt.h"

#include "common/compiler.h"
#include "crypto/m4/backend.h"

/* pqpan_mldsa_zetas[m] = zeta^BitRev8(m) R mod q with zeta = 1753 (FIPS 204 §7.5, the list in
 * Appendix B times R), as representatives in [-(q-1)/2, (q-1)/2]. Computed as
 * pow(1753, brv8(m), q) * 2^32 % q, then centred; tests/unit/test_mldsa.c pins every
 * entry through products checked against schoolbook multiplication. Entry 0 is not used.
 * The Cortex-M4 backend (src/crypto/m4/mldsa_ntt_m4.S) reads the same table. */
PQPAN_M4_SHARED const int32_t pqpan_mldsa_zetas[PQPAN_MLDSA_N] = {
    -4186625, 25847, -2608894, -518909, 237124, -777960, -876248, 466468,
    1826347, 2353451, -359251, -2091905, 3119733, -2884855, 3111497, 2680103,
    2725464, 1024112, -1079900, 3585928, -549488, -1119584, 2619752, -2108549,
    -2118186, -3859737, -1399561, -3277672, 1757237, -19422, 4010497, 280005,
    2706023, 95776, 3077325, 3530437, -1661693, -3592148, -2537516, 3915439,
    -3861115, -3043716, 3574422, -2867647, 3539968, -300467, 2348700, -539299,
    -1699267, -1643818, 3505694, -3821735, 3507263, -2140649, -1600420, 3699596,
    811944, 531354, 954230, 3881043, 3900724, -2556880, 2071892, -2797779,
    -3930395, -1528703, -3677745, -3041255, -1452451, 3475950, 2176455, -1585221,
    -1257611, 1939314, -4083598, -1000202, -3190144, -3157330, -3632928, 126922,
    3412210, -983419, 2147896, 2715295, -2967645, -3693493, -411027, -2477047,
    -671102, -1228525, -22981, -1308169, -381987, 1349076, 1852771, -1430430,
    -3343383, 264944, 508951, 3097992, 44288, -1100098, 904516, 3958618,
    -3724342, -8578, 1653064, -3249728, 2389356, -210977, 759969, -1316856,
    189548, -3553272, 3159746, -1851402, -2409325, -177440, 1315589, 1341330,
    1285669, -1584928, -812732, -1439742, -3019102, -3881060, -3628969, 3839961,
    2091667, 3407706, 2316500, 3817976, -3342478, 2244091, -2446433, -3562462,
    266997, 2434439, -1235728, 3513181, -3520352, -3759364, -1197226, -3193378,
    900702, 1859098, 909542, 819034, 495491, -1613174, -43260, -522500,
    -655327, -3122442, 2031748, 3207046, -3556995, -525098, -768622, -3595838,
    342297, 286988, -2437823, 4108315, 3437287, -3342277, 1735879, 203044,
    2842341, 2691481, -2590150, 1265009, 4055324, 1247620, 2486353, 1595974,
    -3767016, 1250494, 2635921, -3548272, -2994039, 1869119, 1903435, -1050970,
    -1333058, 1237275, -3318210, -1430225, -451100, 1312455, 3306115, -1962642,
    -1279661, 1917081, -2546312, -1374803, 1500165, 777191, 2235880, 3406031,
    -542412, -2831860, -1671176, -1846953, -2584293, -3724270, 594136, -3776993,
    -2013608, 2432395, 2454455, -164721, 1957272, 3369112, 185531, -1207385,
    -3183426, 162844, 1616392, 3014001, 810149, 1652634, -3694233, -1799107,
    -3038916, 3523897, 3866901, 269760, 2213111, -975884, 1717735, 472078,
    -426683, 1723600, -1803090, 1910376, -1667432, -1104333, -260646, -3833893,
    -2939036, -2235985, -420899, -2286327, 183443, -976891, 1612842, -3545687,
    -554416, 3919660, -48306, -1362209, 3937738, 1400424, -846154, 1976782,
};

/* 256^-1 R^2 mod q: the final scaling of Alg. 42 (multiply by 256^-1 = 8347681) combined
 * with a factor R that cancels the R^-1 of pqpan_mldsa_pointwise. */
#define INVNTT_SCALE 41978

/* zeta b R^-1 mod q in (-q, q), |b| < 2^31, given zeta_qinv = zeta q^-1 mod 2^32: the
 * Montgomery reduction of zeta b with its factor t = lo32(zeta b q^-1) computed from b
 * directly (the same t, so the same result as mldsa_mont_mul(zeta, b)); hoisting
 * zeta_qinv out of a layer's inner loop leaves two multiplications per product. */
static inline int32_t mont_mul_zeta(int32_t b, int32_t zeta, int32_t zeta_qinv, int64_t q)
{
    const int32_t t = (int32_t)((uint32_t)b * (uint32_t)zeta_qinv);
    return (int32_t)(((int64_t)b * zeta - (int64_t)t * q) >> 32);
}

/* q in a register the optimiser cannot see through (PQPAN_OPAQUE), as a 32-bit value
 * widened, so that a 32-bit target still multiplies 32 x 32 -> 64 bits (SMULL). */
static inline int64_t opaque_q(void)
{
    int32_t q = PQPAN_MLDSA_Q;
    PQPAN_OPAQUE(q);
    return q;
}

/* zeta q^-1 mod 2^32, hidden from the optimiser (PQPAN_OPAQUE), which would otherwise
 * fold it back into a third multiplication per product. */
static inline int32_t times_qinv(int32_t zeta)
{
    int32_t zq = (int32_t)((uint32_t)zeta * (uint32_t)PQPAN_MLDSA_QINV);
    PQPAN_OPAQUE(zq);
    return zq;
}

/* One Cooley-Tukey butterfly of Alg. 41 (lines 7-9): (x, y) = (x + zeta y, x - zeta y). */
static inline void ct_butterfly(int32_t *x, int32_t *y, int32_t zeta, int32_t zeta_qinv, int64_t q)
{
    const int32_t t = mont_mul_zeta(*y, zeta, zeta_qinv, q);
    *y = *x - t;
    *x = *x + t;
}

/* The layers len and len / 2 of Alg. 41 in one pass over a[0..n): the four coefficients
 * j, j + len / 2, j + len, j + 3 len / 2 of a block are loaded once for their four
 * butterflies (the same operations as layer by layer, so the same results). */
static void ntt_two_layers(int32_t *a, size_t n, size_t offset, size_t len, int64_t q)
{
    const size_t half = len / 2;
    const int32_t *z1 = pqpan_mldsa_zetas + 128 / len + offset / (2 * len);
    const int32_t *z2 = pqpan_mldsa_zetas + 128 / half + offset / len;
    size_t start, j;
    for (start = 0; start < n; start += 2 * len, z1++, z2 += 2) {
        const int32_t za = z1[0], zaq = times_qinv(za);
        const int32_t zb = z2[0], zbq = times_qinv(zb);
        const int32_t zc = z2[1], zcq = times_qinv(zc);
        int32_t *x = a + start;
        for (j = 0; j < half; j++) {
            int32_t a0 = x[j], a1 = x[j + half], a2 = x[j + len], a3 = x[j + len + half];
            ct_butterfly(&a0, &a2, za, zaq, q); /* layer len */
            ct_butterfly(&a1, &a3, za, zaq, q);
            ct_butterfly(&a0, &a1, zb, zbq, q); /* layer len / 2 */
            ct_butterfly(&a2, &a3, zc, zcq, q);
            x[j] = a0;
            x[j + half] = a1;
            x[j + len] = a2;
            x[j + len + half] = a3;
        }
    }
}

/* FIPS 204 Alg. 41: Cooley-Tukey butterflies, len = 128 .. 1, two layers per pass. Each
 * product is a Montgomery multiplication by zeta R (|t| < q), so every layer grows the
 * bound by less than q: 8 layers from |a_i| < q stay below 9q. The layers below
 * len = n / 2 of the coefficients [offset, offset + n) touch only those: a holds them,
 * and block b of the layer with length len (coefficients start = 2 len b ..) uses
 * pqpan_mldsa_zetas[128 / len + b] (Alg. 41's m counts 1 for len = 128, 2..3 for 64, 4..7 for 32,
 * ...). */
void pqpan_mldsa_ntt_layers(int32_t *a, unsigned n, unsigned offset)
{
    const int64_t q = opaque_q();
    size_t len = n / 2, start;
    for (; len >= 2; len /= 4) {
        ntt_two_layers(a, n, offset, len, q);
    }
    if (len == 1) { /* an odd number of layers: the last one alone */
        for (start = 0; start < n; start += 2) {
            const int32_t z = pqpan_mldsa_zetas[128 + (offset + start) / 2];
            ct_butterfly(&a[start], &a[start + 1], z, times_qinv(z), q);
        }
    }
}

void PQPAN_M4_PORTABLE(pqpan_mldsa_ntt)(int32_t a[PQPAN_MLDSA_N])
{
    pqpan_mldsa_ntt_layers(a, PQPAN_MLDSA_N, 0);
}

int32_t pqpan_mldsa_ntt_zeta(unsigned m)
{
    return pqpan_mldsa_zetas[m];
}

/* One Gentleman-Sande butterfly of Alg. 42 (lines 7-10) with z = -zeta:
 * (x, y) = (x + y, z (x - y)). */
static inline void gs_butterfly(int32_t *x, int32_t *y, int32_t z, int32_t z_qinv, int64_t q)
{
    const int32_t t = *x;
    *x = t + *y;
    *y = mont_mul_zeta(t - *y, z, z_qinv, q);
}

/* The final Gentleman-Sande butterfly with the scaling of Alg. 42 line 21 folded in:
 * (x, y) = (s (x + y), s z (x - y)), given s and sz = s z R^-1 (Montgomery factors). */
static inline void gs_butterfly_scaled(int32_t *x, int32_t *y, const int32_t f[4], int64_t q)
{
    const int32_t t = *x;
    *x = mont_mul_zeta(t + *y, f[0], f[1], q);
    *y = mont_mul_zeta(t - *y, f[2], f[3], q);
}

/* The layers len and 2 len of Alg. 42 in one pass: block b of layer len uses
 * -pqpan_mldsa_zetas[256 / len - 1 - b] (m counts down from 255), and the four coefficients j,
 * j + len, j + 2 len, j + 3 len of a group are loaded once for their four butterflies.
 * With last = 1 (len = 64, the final pass) the second layer also applies the scaling by
 * 256^-1 R^2 (INVNTT_SCALE), so no pass of its own is needed; the optimiser compiles the
 * two cases apart. */
static inline void invntt_two_layers(int32_t a[PQPAN_MLDSA_N], size_t len, int64_t q, int last)
{
    size_t start, j, group = 0;
    for (start = 0; start < PQPAN_MLDSA_N; start += 4 * len, group++) {
        const int32_t za = -pqpan_mldsa_zetas[256 / len - 1 - 2 * group], zaq = times_qinv(za);
        const int32_t zb = -pqpan_mldsa_zetas[256 / len - 2 - 2 * group], zbq = times_qinv(zb);
        const int32_t zc = -pqpan_mldsa_zetas[128 / len - 1 - group], zcq = times_qinv(zc);
        const int32_t zcs = mldsa_mont_mul(zc, INVNTT_SCALE);
        const int32_t scaled[4] = {INVNTT_SCALE, times_qinv(INVNTT_SCALE), zcs, times_qinv(zcs)};
        int32_t *x = a + start;
        for (j = 0; j < len; j++) {
            int32_t a0 = x[j], a1 = x[j + len], a2 = x[j + 2 * len], a3 = x[j + 3 * len];
            gs_butterfly(&a0, &a1, za, zaq, q); /* layer len */
            gs_butterfly(&a2, &a3, zb, zbq, q);
            if (last) { /* layer 2 len = 128 and line 21 */
                gs_butterfly_scaled(&a0, &a2, scaled, q);
                gs_butterfly_scaled(&a1, &a3, scaled, q);
            } else { /* layer 2 len */
                gs_butterfly(&a0, &a2, zc, zcq, q);
                gs_butterfly(&a1, &a3, zc, zcq, q);
            }
            x[j] = a0;
            x[j + len] = a1;
            x[j + 2 * len] = a2;
            x[j + 3 * len] = a3;
        }
    }
}

/* FIPS 204 Alg. 42: Gentleman-Sande butterflies, len = 1 .. 128, two layers per pass,
 * with -pqpan_mldsa_zetas[m] for m from 255 down to 1, the final scaling folded into the
 * last layer. The differences go through a Montgomery multiplication (|.| < q); the sums double their
 * bound per layer, so inputs reduced to |a_i| <= 6283009 (mldsa_reduce32) stay below
 * 256 * 6283009 < 2^31 without further reduction, and the last layer's Montgomery
 * multiplications bring every output below q. */
void PQPAN_M4_PORTABLE(pqpan_mldsa_invntt)(int32_t a[PQPAN_MLDSA_N])
{
    const int64_t q = opaque_q();
    size_t len, j;
    for (j = 0; j < PQPAN_MLDSA_N; j++) {
        a[j] = mldsa_reduce32(a[j]);
    }
    for (len = 1; len < PQPAN_MLDSA_N / 4; len *= 4) {
        invntt_two_layers(a, len, q, 0);
    }
    invntt_two_layers(a, PQPAN_MLDSA_N / 4, q, 1);
}

void PQPAN_M4_PORTABLE(pqpan_mldsa_pointwise)(int32_t r[PQPAN_MLDSA_N],
                                              const int32_t a[PQPAN_MLDSA_N],
                                              const int32_t b[PQPAN_MLDSA_N])
{
    unsigned i;
    for (i = 0; i < PQPAN_MLDSA_N; i++) {
        r[i] = mldsa_mont_mul(a[i], b[i]);
    }
}

void PQPAN_M4_PORTABLE(pqpan_mldsa_pointwise_acc)(int32_t r[PQPAN_MLDSA_N],
                                                  const int32_t a[PQPAN_MLDSA_N],
                                                  const int32_t b[PQPAN_MLDSA_N])
{
    unsigned i;
    for (i = 0; i < PQPAN_MLDSA_N; i++) {
        r[i] += mldsa_mont_mul(a[i], b[i]);
    }
}
