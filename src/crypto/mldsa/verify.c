/* ML-DSA.Verify_internal (FIPS 204 Alg. 8) in small memory: the signature's form is
 * checked first (HintBitUnpack, Alg. 21, and the bound on z), then w'_Approx is computed
 * one row at a time, turned into w1' with the hints of that row and hashed straight into
 * c~'. The product c t1 2^d is taken term by term over the tau non-zero coefficients of c
 * (public here) with t1 read from pk, and the accumulator (acc.h) shares the memory of the
 * one polynomial, so that one polynomial and a quarter of one are alive.
 * Inputs are public: this code branches on them. */
#include <string.h>

#include "common/compiler.h"
#include "crypto/mldsa/mldsa.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/packing.h"
#include "crypto/mldsa/rounding.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/common.h"

/* 1 if every coefficient of z is below gamma1 - beta in absolute value (Alg. 8 line 13).
 * Out of line, so that its buffer is not in the frame of the rows. */
static PQPAN_NOINLINE int z_in_bound(const struct mldsa_params *p, const uint8_t *sig)
{
    const uint8_t *in = sig + p->ctilde_bytes;
    int32_t z[8];
    unsigned n, t;
    for (n = 0; n < p->l * PQPAN_MLDSA_N; n += 8, in += p->z_bits) {
        pqpan_mldsa_unpack(z, in, 8, p->z_bits, p->gamma1, 1);
        for (t = 0; t < 8; t++) {
            if (mldsa_abs(z[t]) >= p->gamma1 - p->beta) {
                return 0;
            }
        }
    }
    return 1;
}

/* c = SampleInBall(c~) (Alg. 8 line 8) as its tau non-zero coefficients: positions in
 * increasing order, neg[t] = 1 when coefficient t is -1. */
struct sparse_c {
    uint8_t pos[PQPAN_MLDSA87_TAU];
    uint8_t neg[PQPAN_MLDSA87_TAU];
    unsigned count;
};

/* Out of line, so that the dense c is not in the frame of the rows. */
static PQPAN_NOINLINE void challenge_sparse(struct sparse_c *sc, const struct mldsa_params *p,
                                            const uint8_t *ctilde)
{
    int8_t c[PQPAN_MLDSA_N];
    unsigned pos;
    pqpan_mldsa_sample_in_ball_public(c, ctilde, p->ctilde_bytes, p->tau);
    sc->count = 0;
    for (pos = 0; pos < PQPAN_MLDSA_N; pos++) {
        if (c[pos] != 0) {
            sc->neg[sc->count] = c[pos] < 0;
            sc->pos[sc->count++] = (uint8_t)pos;
        }
    }
}

/* w -= c (t1 2^d) in R_q (X^256 = -1), term by term over the non-zero coefficients of c,
 * t1 unpacked from pk (SimpleBitPack in 10 bits, Alg. 22) 8 coefficients at a time.
 * |w_i| stays below q + tau 2^23 < 2^31. */
static void sub_c_t1(int32_t w[PQPAN_MLDSA_N], const struct sparse_c *sc, const uint8_t *t1)
{
    int32_t v[8];
    unsigned m, c, t;
    for (m = 0; m < PQPAN_MLDSA_N; m += 8) {
        pqpan_mldsa_unpack(v, t1 + m * PQPAN_MLDSA_T1_BITS / 8, 8, PQPAN_MLDSA_T1_BITS, 0, 0);
        for (c = 0; c < 8; c++) {
            const int32_t term = v[c] << PQPAN_MLDSA_D;
            for (t = 0; t < sc->count; t++) {
                const unsigned k = sc->pos[t] + m + c; /* X^k = -X^(k - 256) for k >= 256 */
                const int negative = sc->neg[t] ^ (k >= PQPAN_MLDSA_N);
                w[k % PQPAN_MLDSA_N] += negative ? term : -term;
            }
        }
    }
}

/* Row i of w'_Approx = NTT^-1(A_hat o NTT(z) - NTT(c) o NTT(t1 2^d)) (Alg. 8 line 9), then
 * w1' = UseHint(h, w'_Approx) (line 10) with the hint positions y[first .. end) of row i,
 * w1Encode absorbed into h (line 12). A_hat o NTT(z) is accumulated in the first 768
 * bytes of w (acc.h), NTT(z_j) a quarter polynomial at a time, then widened in place: w is
 * the only polynomial in this frame and none is in the frames below it. */
static PQPAN_NOINLINE void verify_row(const struct mldsa_params *p, struct pqpan_shake256_ctx *h,
                                      const uint8_t *pk, const struct sparse_c *sc,
                                      const uint8_t *sig, unsigned i)
{
    int32_t w[PQPAN_MLDSA_N];
    uint8_t *acc = (uint8_t *)w;
    const uint8_t *t1 = pk + PQPAN_MLDSA_SEEDBYTES + i * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T1_BITS);
    _Static_assert(sizeof w >= PQPAN_MLDSA_ACC_BYTES, "the accumulator fits in w");
    pqpan_mldsa_matrix_row_parts(acc, pk, i, p->l, sig + p->ctilde_bytes,
                                 mldsa_z_poly_bytes(p), p->z_bits, p->gamma1);
    pqpan_mldsa_acc_to_poly(w, acc);
    pqpan_mldsa_invntt(w);
    sub_c_t1(w, sc, t1);
    pqpan_mldsa_use_hints_row(w, p, sig, i);
    pqpan_mldsa_absorb_w1(h, w, p->w1_bits);
}

/* UseHint on row w with the hint positions y[index .. end), for gamma2 a constant: the
 * two values of FIPS 204 Table 1 get a copy each, where Decompose's quotient and wrap fold
 * into immediates. */
static PQPAN_ALWAYS_INLINE void use_hints(int32_t w[PQPAN_MLDSA_N], const uint8_t *y,
                                          unsigned index, unsigned end, int32_t gamma2)
{
    unsigned n;
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        const unsigned hint = index < end && y[index] == n;
        index += hint;
        w[n] = mldsa_use_hint(mldsa_freeze(w[n]), hint, gamma2);
    }
}

_Static_assert(PQPAN_MLDSA87_GAMMA2 == PQPAN_MLDSA65_GAMMA2, "gamma2 takes two values");

void pqpan_mldsa_use_hints_row(int32_t w[PQPAN_MLDSA_N], const struct mldsa_params *p,
                               const uint8_t *sig, unsigned i)
{
    const uint8_t *y = sig + mldsa_sig_hint_offset(p);
    const unsigned index = i == 0 ? 0 : y[p->omega + i - 1];
    const unsigned end = y[p->omega + i];
    if (p->gamma2 == PQPAN_MLDSA44_GAMMA2) {
        use_hints(w, y, index, end, PQPAN_MLDSA44_GAMMA2);
    } else {
        use_hints(w, y, index, end, PQPAN_MLDSA65_GAMMA2);
    }
}

PQPAN_NOINLINE void pqpan_mldsa_absorb_mu(struct pqpan_shake256_ctx *h,
                                          const struct mldsa_params *p, const uint8_t *pk,
                                          const struct mldsa_msg *m)
{
    uint8_t mu[PQPAN_MLDSA_CRHBYTES];
    pqpan_shake256(mu, PQPAN_MLDSA_TRBYTES, pk, p->pk_bytes); /* line 6: tr = H(pk, 64) */
    pqpan_mldsa_hash_mu(mu, mu, m);                           /* line 7 */
    pqpan_shake256_init(h);
    pqpan_shake256_absorb(h, mu, sizeof mu);
}

int pqpan_mldsa_challenge_matches(struct pqpan_shake256_ctx *h, const struct mldsa_params *p,
                             const uint8_t *ctilde)
{
    uint8_t part[8];
    unsigned off;
    int same = 1;
    for (off = 0; off < p->ctilde_bytes; off += sizeof part) {
        pqpan_shake256_squeeze(h, part, sizeof part);
        same &= pqpan_ct_equal(part, ctilde + off, sizeof part);
    }
    return same;
}

int pqpan_mldsa_check_sig_form(const struct mldsa_params *p, const uint8_t *sig, size_t sig_len)
{
    if (sig_len != p->sig_bytes) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (pqpan_mldsa_hint_check(sig + mldsa_sig_hint_offset(p), p->k, p->omega) != 0 ||
        !z_in_bound(p, sig)) {
        return PQPAN_ERR_MALFORMED; /* Alg. 27 returns h = ⊥ (line 4 of Alg. 8), or line 13 */
    }
    return PQPAN_OK;
}

int pqpan_mldsa_verify(const struct mldsa_params *p, const uint8_t *pk,
                       const struct mldsa_msg *m, const uint8_t *sig, size_t sig_len)
{
    struct pqpan_shake256_ctx h;
    struct sparse_c sc;
    unsigned i;
    const int form = pqpan_mldsa_check_sig_form(p, sig, sig_len);
    if (form != PQPAN_OK) {
        return form;
    }
    pqpan_mldsa_absorb_mu(&h, p, pk, m);
    challenge_sparse(&sc, p, sig); /* line 8 */
    for (i = 0; i < p->k; i++) {
        verify_row(p, &h, pk, &sc, sig, i);
    }
    return pqpan_mldsa_challenge_matches(&h, p, sig) ? PQPAN_OK : PQPAN_ERR_AUTH;
}
