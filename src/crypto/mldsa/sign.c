/* ML-DSA.Sign_internal (FIPS 204 Alg. 7) in small memory.
 *
 * No vector of polynomials is ever held. The mask y (Alg. 7 line 11, ExpandMask) is
 * squeezed straight into the z part of the caller's signature buffer: its bytes are the
 * encoding BitPack(y, gamma1 - 1, gamma1) that sigEncode gives z (Alg. 26), so y is read
 * from there wherever it is needed and z = y + <<c s1>> is written back in place. The
 * commitment w = NTT^-1(A_hat o NTT(y)) is computed row by row twice: once to hash w1
 * into c~ (lines 12-15), and once more, after the challenge is known, to take the low
 * bits and hints (lines 21-28); storing w would take more memory than recomputing it.
 * Products with c are taken in the NTT domain with c_hat kept for the whole response.
 * The peak is two polynomials (c_hat, one operand), a row of w as a 24-bit accumulator
 * (acc.h) and one SHAKE state.
 *
 * Constant time: every attempt runs to the end; the checks of lines 23, 28 and the hint
 * count are ORed into one flag that is declassified once per attempt, so only the number
 * of attempts is visible (FIPS 204 §3.4). The challenge of a rejected attempt stays
 * secret: SampleInBall and the products with c use no secret-dependent index. */
#include <string.h>

#include "common/compiler.h"
#include "crypto/ct_testing.h"
#include "crypto/mldsa/mldsa.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/packing.h"
#include "crypto/mldsa/rounding.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/common.h"

/* What one signature carries from attempt to attempt (no interior pointers to itself). */
struct sign_state {
    const struct mldsa_params *p;
    const uint8_t *sk;
    uint8_t *sig;
    uint8_t mu[PQPAN_MLDSA_CRHBYTES];
    uint8_t rhopp[PQPAN_MLDSA_CRHBYTES];
    uint8_t ctilde[PQPAN_MLDSA_CRHBYTES];
    uint8_t hint[PQPAN_MLDSA_K_MAX][PQPAN_MLDSA_N / 8]; /* h as a bitmap, row by row */
};

static uint8_t *z_poly(const struct sign_state *s, unsigned j)
{
    return s->sig + s->p->ctilde_bytes + j * mldsa_z_poly_bytes(s->p);
}

/* Row i of A_hat o NTT(y) (Alg. 7 line 12) into the accumulator acc. */
static void w_row(const struct sign_state *s, uint8_t acc[PQPAN_MLDSA_ACC_BYTES],
                  int32_t tmp[PQPAN_MLDSA_N], unsigned i)
{
    pqpan_mldsa_matrix_row(acc, tmp, s->sk, i, s->p->l, z_poly(s, 0), mldsa_z_poly_bytes(s->p),
                           s->p->z_bits, s->p->gamma1);
}

/* Row i of w1 = HighBits(w) (line 13), w1Encode absorbed into the hash of c~ (line 15). */
static PQPAN_NOINLINE void commit_row(const struct sign_state *s, struct pqpan_shake256_ctx *h,
                                      unsigned i)
{
    uint8_t acc[PQPAN_MLDSA_ACC_BYTES];
    int32_t w[PQPAN_MLDSA_N];
    unsigned n;
    w_row(s, acc, w, i);
    pqpan_mldsa_acc_to_poly(w, acc);
    pqpan_mldsa_invntt(w);
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        w[n] = mldsa_highbits(mldsa_freeze(w[n]), s->p->gamma2);
    }
    pqpan_mldsa_absorb_w1(h, w, s->p->w1_bits);
    pqpan_wipe(acc, sizeof acc);
    pqpan_wipe(w, sizeof w);
}

/* c~ = H(mu || w1Encode(w1), lambda / 4) (Alg. 7 line 15). */
static PQPAN_NOINLINE void commit(struct sign_state *s)
{
    struct pqpan_shake256_ctx h;
    unsigned i;
    pqpan_shake256_init(&h);
    pqpan_shake256_absorb(&h, s->mu, sizeof s->mu);
    for (i = 0; i < s->p->k; i++) {
        commit_row(s, &h, i);
    }
    pqpan_shake256_squeeze(&h, s->ctilde, s->p->ctilde_bytes);
    pqpan_wipe(&h, sizeof h);
}

PQPAN_NOINLINE void pqpan_mldsa_challenge_ntt(int32_t chat[PQPAN_MLDSA_N],
                                              const uint8_t *ctilde, const struct mldsa_params *p,
                                              enum mldsa_seed ctilde_is)
{
    int8_t c[PQPAN_MLDSA_N];
    unsigned n;
    if (ctilde_is == MLDSA_SEED_PUBLIC) {
        pqpan_mldsa_sample_in_ball_public(c, ctilde, p->ctilde_bytes, p->tau);
    } else {
        pqpan_mldsa_sample_in_ball(c, ctilde, p->ctilde_bytes, p->tau);
    }
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        chat[n] = c[n];
    }
    pqpan_mldsa_ntt(chat);
    pqpan_wipe(c, sizeof c);
}

/* a = NTT^-1(c_hat o NTT(v)), v the secret polynomial packed at in (s1, s2 or t0 of sk):
 * <<c s1>>, <<c s2>>, <<c t0>> of Alg. 7 lines 18-19, 25; |a_i| < q. */
static void times_c(int32_t a[PQPAN_MLDSA_N], const int32_t chat[PQPAN_MLDSA_N],
                    const uint8_t *in, unsigned bits, int32_t offset)
{
    pqpan_mldsa_ntt_unpacked(a, in, bits, offset);
    pqpan_mldsa_pointwise(a, chat, a);
    pqpan_mldsa_invntt(a);
}

/* Row i of the response checks (Alg. 7 lines 21-28) with r = w - <<c s2>> and
 * ct0 = <<c t0>>: ||LowBits(r)|| >= gamma2 - beta and ||ct0|| >= gamma2 are failures, and
 * h_i = MakeHint(-ct0, r + ct0) = [HighBits(r + ct0) != HighBits(r)] goes into the
 * bitmap. Returns the failure flag (0 or 1); adds the number of hints to *count. */
static PQPAN_NOINLINE uint32_t respond_row(struct sign_state *s, const int32_t chat[PQPAN_MLDSA_N],
                                           unsigned i, uint32_t *count)
{
    const struct mldsa_params *p = s->p;
    const size_t eta_bytes = mldsa_eta_poly_bytes(p);
    uint8_t r[PQPAN_MLDSA_ACC_BYTES];
    int32_t tmp[PQPAN_MLDSA_N];
    uint32_t fail = 0;
    unsigned n;

    w_row(s, r, tmp, i);
    pqpan_mldsa_ntt_unpacked(tmp, s->sk + mldsa_sk_s2_offset(p) + i * eta_bytes, p->eta_bits,
                             (int32_t)p->eta);
    pqpan_mldsa_pointwise(tmp, chat, tmp);
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        mldsa_acc_add(r, n, -tmp[n]); /* w - c s2 in the NTT domain */
    }
    pqpan_mldsa_acc_to_poly(tmp, r);
    pqpan_mldsa_invntt(tmp);
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        mldsa_acc_set(r, n, mldsa_freeze(tmp[n]));
    }
    times_c(tmp, chat, s->sk + mldsa_sk_t0_offset(p) + i * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T0_BITS),
            PQPAN_MLDSA_T0_BITS, 1 << (PQPAN_MLDSA_D - 1));
    memset(s->hint[i], 0, sizeof s->hint[i]);
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        const uint32_t h = mldsa_sign_hint(&fail, mldsa_acc_get(r, n), mldsa_center(tmp[n]),
                                           p->gamma2, p->beta);
        s->hint[i][n / 8] = (uint8_t)(s->hint[i][n / 8] | h << (n % 8));
        *count += h;
    }
    pqpan_wipe(r, sizeof r);
    pqpan_wipe(tmp, sizeof tmp);
    return fail;
}

/* z_j = y_j + <<c s1>>_j (Alg. 7 lines 18, 20), written over y_j in the signature; returns
 * 1 if ||z_j|| >= gamma1 - beta (line 23). The check and the write go 8 coefficients
 * (z_bits bytes) at a time. */
static PQPAN_NOINLINE uint32_t respond_col(struct sign_state *s, const int32_t chat[PQPAN_MLDSA_N],
                                           unsigned j)
{
    const struct mldsa_params *p = s->p;
    int32_t cs1[PQPAN_MLDSA_N], z[8];
    uint8_t *out = z_poly(s, j);
    uint32_t fail = 0;
    unsigned n, t;
    times_c(cs1, chat, s->sk + mldsa_sk_s1_offset() + j * mldsa_eta_poly_bytes(p), p->eta_bits,
            (int32_t)p->eta);
    for (n = 0; n < PQPAN_MLDSA_N; n += 8, out += p->z_bits) {
        pqpan_mldsa_unpack(z, out, 8, p->z_bits, p->gamma1, 1);
        for (t = 0; t < 8; t++) {
            z[t] += mldsa_center(cs1[n + t]);
            fail |= mldsa_at_least(mldsa_abs(z[t]), p->gamma1 - p->beta);
        }
        pqpan_mldsa_pack(out, z, 8, p->z_bits, p->gamma1, 1);
    }
    pqpan_wipe(cs1, sizeof cs1);
    pqpan_wipe(z, sizeof z);
    return fail;
}

/* Lines 16-29 of one attempt: 0 if (z, h) is a signature, 1 if it is rejected. */
static PQPAN_NOINLINE uint32_t respond(struct sign_state *s)
{
    int32_t chat[PQPAN_MLDSA_N];
    uint32_t fail = 0, count = 0;
    unsigned i;
    pqpan_mldsa_challenge_ntt(chat, s->ctilde, s->p, MLDSA_SEED_SECRET);
    for (i = 0; i < s->p->k; i++) {
        fail |= respond_row(s, chat, i, &count);
    }
    for (i = 0; i < s->p->l; i++) {
        fail |= respond_col(s, chat, i);
    }
    fail |= mldsa_at_least((int32_t)count, (int32_t)s->p->omega + 1); /* line 28: too many hints */
    pqpan_wipe(chat, sizeof chat);
    return fail;
}

void pqpan_mldsa_pack_hints(uint8_t *y, const uint8_t *hint,
                            const struct mldsa_params *p)
{
    unsigned i, n, index = 0;
    memset(y, 0, p->omega + p->k);
    for (i = 0; i < p->k; i++) {
        for (n = 0; n < PQPAN_MLDSA_N; n++) {
            if ((hint[i * (PQPAN_MLDSA_N / 8) + n / 8] >> (n % 8)) & 1) {
                y[index++] = (uint8_t)n;
            }
        }
        y[p->omega + i] = (uint8_t)index;
    }
}

/* One pass of the loop of Alg. 7 (lines 11-31) with kappa = attempt l. Returns 1 when the
 * signature is complete in s->sig. */
static int attempt(struct sign_state *s, unsigned number)
{
    const struct mldsa_params *p = s->p;
    uint32_t fail;
    unsigned j;
    for (j = 0; j < p->l; j++) { /* line 11: y = ExpandMask(rho'', kappa) */
        pqpan_mldsa_expand_mask(z_poly(s, j), mldsa_z_poly_bytes(p), s->rhopp,
                                number * p->l + j);
    }
    commit(s);
    fail = respond(s);
    PQPAN_CT_DECLASSIFY(&fail, sizeof fail); /* which attempt succeeds may be seen */
    if (fail != 0) {
        return 0;
    }
    PQPAN_CT_DECLASSIFY(s->ctilde, sizeof s->ctilde); /* the signature is public */
    PQPAN_CT_DECLASSIFY(s->hint, sizeof s->hint);
    memcpy(s->sig, s->ctilde, p->ctilde_bytes); /* line 33: sigEncode(c~, z, h) */
    pqpan_mldsa_pack_hints(s->sig + mldsa_sig_hint_offset(p), s->hint[0], p);
    return 1;
}

int pqpan_mldsa_check_sk(const struct mldsa_params *p, const uint8_t *sk)
{
    int bad = pqpan_mldsa_values_at_most(sk + mldsa_sk_s1_offset(), (p->k + p->l) * PQPAN_MLDSA_N,
                                         p->eta_bits, 2 * p->eta);
    PQPAN_CT_DECLASSIFY(&bad, sizeof bad);
    return bad != 0 ? PQPAN_ERR_BAD_KEY : PQPAN_OK;
}

PQPAN_NOINLINE void pqpan_mldsa_sign_seeds(uint8_t mu[PQPAN_MLDSA_CRHBYTES],
                                           uint8_t rhopp[PQPAN_MLDSA_CRHBYTES], const uint8_t *sk,
                                           const struct mldsa_msg *m,
                                           const uint8_t rnd[PQPAN_MLDSA_RND_BYTES])
{
    struct pqpan_shake256_ctx h;
    pqpan_mldsa_hash_mu(mu, sk + 2 * PQPAN_MLDSA_SEEDBYTES, m);
    pqpan_shake256_init(&h);
    pqpan_shake256_absorb(&h, sk + PQPAN_MLDSA_SEEDBYTES, PQPAN_MLDSA_SEEDBYTES);
    pqpan_shake256_absorb(&h, rnd, PQPAN_MLDSA_RND_BYTES);
    pqpan_shake256_absorb(&h, mu, PQPAN_MLDSA_CRHBYTES);
    pqpan_shake256_squeeze(&h, rhopp, PQPAN_MLDSA_CRHBYTES);
    pqpan_wipe(&h, sizeof h);
}

int pqpan_mldsa_sign(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                     const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES])
{
    struct sign_state s;
    unsigned number;
    int ret = pqpan_mldsa_check_sk(p, sk);
    if (ret != PQPAN_OK) {
        memset(sig, 0, p->sig_bytes);
        return ret;
    }
    s.p = p;
    s.sk = sk;
    s.sig = sig;
    pqpan_mldsa_sign_seeds(s.mu, s.rhopp, sk, m, rnd);
    ret = PQPAN_ERR_BAD_KEY;
    for (number = 0; number < PQPAN_MLDSA_SIGN_ATTEMPTS_MAX; number++) {
        if (attempt(&s, number)) {
            ret = PQPAN_OK;
            break;
        }
    }
    if (ret != PQPAN_OK) {
        memset(sig, 0, p->sig_bytes);
    }
    pqpan_wipe(&s, sizeof s);
    return ret;
}
