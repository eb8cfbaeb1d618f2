/* ML-DSA.KeyGen_internal, Sign_internal and Verify_internal (FIPS 204 Alg. 6-8) for speed:
 * the build chosen by CMake PQPAN_MLDSA_IMPL=speed. Where the small build (keygen.c,
 * sign.c, verify.c) recomputes to save memory, this one holds vectors of polynomials:
 *
 * - signing expands A_hat once per signature and keeps it, transforms s1, s2 and t0 once
 *   per signature (not per attempt), and NTT(y) once per attempt for all k rows; w is kept
 *   from the commitment to the hints instead of being recomputed;
 * - key generation transforms s1 once and streams A_hat one entry at a time;
 * - verification unpacks and transforms z once, t1 once per row, c once.
 *
 * A_hat is squeezed in whole SHAKE128 blocks (pqpan_mldsa_rej_ntt_poly). Each function's
 * workspace is one struct in its frame sized for ML-DSA-87, so the stack is the same for
 * the three parameter sets (docs/SIG.md gives the bytes); nothing is allocated. Every secret
 * it holds (s1, s2, t0 and their transforms, y, NTT(y), w, c, the products) is wiped
 * before it returns. The results are those of the small build, byte for byte
 * (tests/unit/test_mldsa_impl.c).
 *
 * Constant time: an attempt stops at the first of Alg. 7's checks it fails, as the
 * reference implementations and mldsa-native do: the outcome of each check (||z||, line
 * 23; ||r0||, line 23; ||<<c t0>>|| and the hint count, line 28) is declassified on its
 * own. Whether an attempt is rejected, and by which check, is public (FIPS 204 §3.4: the
 * number of attempts may be seen; each check's outcome is a function of values that
 * are uniform whatever the key, y for z and w0 for r0); the values checked stay secret.
 * SampleInBall and the products with c use no secret-dependent index or branch. */
#include <stddef.h>
#include <string.h>

#include "common/compiler.h"
#include "crypto/ct_testing.h"
#include "crypto/mldsa/mldsa.h"
#include "crypto/mldsa/ntt.h"
#include "crypto/mldsa/packing.h"
#include "crypto/mldsa/rounding.h"
#include "crypto/mldsa/sampling.h"
#include "pqpan/common.h"

struct poly {
    int32_t c[PQPAN_MLDSA_N];
};

/* r = (sum_j a_j o v_j) R^-1 for j < l: a row of A_hat o v (Alg. 45 MultiplyNTT, summed),
 * one Montgomery reduction per term. a_j in [0, q) and |v_j| < 9q, so each term is below q
 * and the sum of l <= 7 terms far below what pqpan_mldsa_invntt accepts. */
static void row_times(struct poly *r, const struct poly *a, const struct poly *v, unsigned l)
{
    unsigned j;
    pqpan_mldsa_pointwise(r->c, a[0].c, v[0].c);
    for (j = 1; j < l; j++) {
        pqpan_mldsa_pointwise_acc(r->c, a[j].c, v[j].c);
    }
}

/* w1 and w0 of Decompose (Alg. 36) held in one word: w1 (< 44) in the top byte, w0 (|w0| <=
 * gamma2 < 2^19) as a 24-bit two's complement number below it. */
static int32_t w_pack(int32_t w1, int32_t w0)
{
    return (int32_t)((uint32_t)w1 << 24 | ((uint32_t)w0 & 0xFFFFFFu));
}

static int32_t w_high(int32_t v)
{
    return (int32_t)((uint32_t)v >> 24);
}

static int32_t w_low(int32_t v)
{
    return (int32_t)((uint32_t)v << 8) >> 8; /* sign-extended from bit 23 */
}

/* Decompose (Alg. 36) of one row of w, w frozen into [0, q) first: w1 = HighBits(w) into
 * w1 (line 13), both halves packed in place of w for the hints. Written for gamma2 a
 * constant: w_decompose gives each of the two values of FIPS 204 Table 1 its own copy, in
 * which the quotient and the wrap of Decompose fold into immediates. */
static PQPAN_ALWAYS_INLINE void decompose_row(struct poly *w, struct poly *w1, int32_t gamma2)
{
    unsigned n;
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        int32_t w0;
        w1->c[n] = mldsa_decompose(&w0, mldsa_freeze(w->c[n]), gamma2);
        w->c[n] = w_pack(w1->c[n], w0);
    }
}

_Static_assert(PQPAN_MLDSA87_GAMMA2 == PQPAN_MLDSA65_GAMMA2, "gamma2 takes two values");

static void w_decompose(struct poly *w, struct poly *w1, int32_t gamma2)
{
    if (gamma2 == PQPAN_MLDSA44_GAMMA2) { /* gamma2 is public: it names the parameter set */
        decompose_row(w, w1, PQPAN_MLDSA44_GAMMA2);
    } else {
        decompose_row(w, w1, PQPAN_MLDSA65_GAMMA2);
    }
}

/* 1 if x != 0, else 0, for x > INT32_MIN. */
static uint32_t nonzero(int32_t x)
{
    return ((uint32_t)x | (uint32_t)-x) >> 31;
}

/* NTT(v_j) for the count polynomials packed at in, one every `bytes` bytes, as BitUnpack
 * with offset `offset` reads them (s1, s2, t0 of sk; z of a signature). */
static void ntt_unpacked_vec(struct poly *v, unsigned count, const uint8_t *in, size_t bytes,
                             unsigned bits, int32_t offset)
{
    unsigned j;
    for (j = 0; j < count; j++) {
        pqpan_mldsa_ntt_unpacked(v[j].c, in + j * bytes, bits, offset);
    }
}

/* Key generation: NTT(s1) and one entry of A_hat at a time. */
struct keygen_ws {
    struct poly s1hat[PQPAN_MLDSA_L_MAX];
    struct poly a, t;
};

void pqpan_mldsa_keygen_speed(const struct mldsa_params *p, uint8_t *pk, uint8_t *sk,
                              const uint8_t xi[PQPAN_MLDSA_SEEDBYTES])
{
    struct keygen_ws ws;
    unsigned i, j;
    pqpan_mldsa_keygen_seeds(p, pk, sk, xi); /* lines 1-4: rho, K, s1, s2 into pk, sk */
    ntt_unpacked_vec(ws.s1hat, p->l, sk + mldsa_sk_s1_offset(), mldsa_eta_poly_bytes(p),
                     p->eta_bits, (int32_t)p->eta);
    for (i = 0; i < p->k; i++) { /* line 5: t = NTT^-1(A_hat o NTT(s1)) + s2, row i */
        memset(&ws.t, 0, sizeof ws.t);
        for (j = 0; j < p->l; j++) {
            pqpan_mldsa_rej_ntt_poly(ws.a.c, sk, j, i);
            pqpan_mldsa_pointwise_acc(ws.t.c, ws.a.c, ws.s1hat[j].c);
        }
        pqpan_mldsa_invntt(ws.t.c);
        pqpan_mldsa_keygen_split_row(p, pk, sk, i, ws.t.c); /* lines 5-6 */
    }
    /* line 8: tr = H(pk, 64), stored in sk (Alg. 24) */
    pqpan_shake256(sk + 2 * PQPAN_MLDSA_SEEDBYTES, PQPAN_MLDSA_TRBYTES, pk, p->pk_bytes);
    pqpan_wipe(&ws, sizeof ws);
}

/* Signing. The public matrix comes first, so that the secrets after it are wiped as one
 * block. */
struct sign_ws {
    struct poly mat[PQPAN_MLDSA_K_MAX][PQPAN_MLDSA_L_MAX]; /* A_hat */
    struct poly s1hat[PQPAN_MLDSA_L_MAX], s2hat[PQPAN_MLDSA_K_MAX], t0hat[PQPAN_MLDSA_K_MAX];
    struct poly y[PQPAN_MLDSA_L_MAX];    /* y, then z = y + <<c s1>> */
    struct poly yhat[PQPAN_MLDSA_L_MAX]; /* NTT(y) */
    struct poly w[PQPAN_MLDSA_K_MAX];    /* w1 and w0 of Decompose(w), then w1 and r0 (w_pack) */
    struct poly chat, cs, ct0;
    uint8_t hint[PQPAN_MLDSA_K_MAX][PQPAN_MLDSA_N / 8]; /* h as a bitmap, row by row */
    uint8_t mu[PQPAN_MLDSA_CRHBYTES];
    uint8_t rhopp[PQPAN_MLDSA_CRHBYTES];
    uint8_t ctilde[PQPAN_MLDSA_CRHBYTES];
};

/* What Alg. 7 computes once per signature (lines 1-5, 9-10): s1_hat, s2_hat, t0_hat from
 * skDecode (Alg. 25) and A_hat = ExpandA(rho) (Alg. 32). */
static PQPAN_NOINLINE void sign_setup(struct sign_ws *s, const struct mldsa_params *p,
                                      const uint8_t *sk)
{
    const size_t eta_bytes = mldsa_eta_poly_bytes(p);
    unsigned i, j;
    ntt_unpacked_vec(s->s1hat, p->l, sk + mldsa_sk_s1_offset(), eta_bytes, p->eta_bits,
                     (int32_t)p->eta);
    ntt_unpacked_vec(s->s2hat, p->k, sk + mldsa_sk_s2_offset(p), eta_bytes, p->eta_bits,
                     (int32_t)p->eta);
    ntt_unpacked_vec(s->t0hat, p->k, sk + mldsa_sk_t0_offset(p),
                     PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T0_BITS), PQPAN_MLDSA_T0_BITS,
                     1 << (PQPAN_MLDSA_D - 1));
    for (i = 0; i < p->k; i++) {
        for (j = 0; j < p->l; j++) {
            pqpan_mldsa_rej_ntt_poly(s->mat[i][j].c, sk, j, i); /* rho = the first 32 bytes */
        }
    }
}

/* y = ExpandMask(rho'', kappa) with kappa = number l (line 11) and NTT(y). */
static PQPAN_NOINLINE void mask(struct sign_ws *s, const struct mldsa_params *p,
                                unsigned number)
{
    uint8_t buf[PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_Z_BITS(PQPAN_MLDSA65_GAMMA1))];
    unsigned j;
    for (j = 0; j < p->l; j++) {
        pqpan_mldsa_expand_mask(buf, mldsa_z_poly_bytes(p), s->rhopp, number * p->l + j);
        pqpan_mldsa_unpack(s->y[j].c, buf, PQPAN_MLDSA_N, p->z_bits, p->gamma1, 1);
        s->yhat[j] = s->y[j];
        pqpan_mldsa_ntt(s->yhat[j].c);
    }
    pqpan_wipe(buf, sizeof buf);
}

/* w = NTT^-1(A_hat o NTT(y)) (line 12), kept decomposed; w1 = HighBits(w) (line 13);
 * c~ = H(mu || w1Encode(w1), lambda / 4) (line 15). */
static PQPAN_NOINLINE void commit(struct sign_ws *s, const struct mldsa_params *p)
{
    struct pqpan_shake256_ctx h;
    unsigned i;
    pqpan_shake256_init(&h);
    pqpan_shake256_absorb(&h, s->mu, sizeof s->mu);
    for (i = 0; i < p->k; i++) {
        struct poly *w = &s->w[i];
        row_times(w, s->mat[i], s->yhat, p->l);
        pqpan_mldsa_invntt(w->c);
        w_decompose(w, &s->cs, p->gamma2);
        pqpan_mldsa_absorb_w1(&h, s->cs.c, p->w1_bits);
    }
    pqpan_shake256_squeeze(&h, s->ctilde, p->ctilde_bytes);
    pqpan_wipe(&h, sizeof h);
}

/* r = NTT^-1(c_hat o v_hat): <<c s1>>, <<c s2>>, <<c t0>> (lines 18-19, 25), |r_n| < q
 * (pqpan_mldsa_invntt), so mldsa_center_small gives their centred values. */
static void times_c(struct poly *r, const struct poly *chat, const struct poly *vhat)
{
    pqpan_mldsa_pointwise(r->c, chat->c, vhat->c);
    pqpan_mldsa_invntt(r->c);
}

/* z = y + <<c s1>> (lines 18, 20) in place of y; 1 if ||z|| >= gamma1 - beta (line 23). */
static PQPAN_NOINLINE uint32_t respond_z(struct sign_ws *s, const struct mldsa_params *p)
{
    uint32_t fail = 0;
    unsigned j, n;
    for (j = 0; j < p->l; j++) {
        times_c(&s->cs, &s->chat, &s->s1hat[j]);
        for (n = 0; n < PQPAN_MLDSA_N; n++) {
            const int32_t z = s->y[j].c[n] + mldsa_center_small(s->cs.c[n]);
            s->y[j].c[n] = z;
            fail |= mldsa_at_least(mldsa_abs(z), p->gamma1 - p->beta);
        }
    }
    return fail;
}

/* r0 = LowBits(w - <<c s2>>) row by row (lines 19, 21): with ||<<c s2>>|| <= beta, when
 * ||w0 - <<c s2>>|| < gamma2 - beta this is w0 - <<c s2>> and HighBits(w - <<c s2>>) = w1,
 * so line 23 rejects the attempts that check rejects. r0 is stored in place of w0 (|r0| <
 * gamma2 + beta < 2^23 fits its 24 bits). 1 if ||r0|| >= gamma2 - beta for some
 * coefficient (line 23), else 0. */
static PQPAN_NOINLINE uint32_t respond_r0(struct sign_ws *s, const struct mldsa_params *p)
{
    uint32_t fail = 0;
    unsigned i, n;
    for (i = 0; i < p->k; i++) {
        times_c(&s->cs, &s->chat, &s->s2hat[i]);
        for (n = 0; n < PQPAN_MLDSA_N; n++) {
            const int32_t v = s->w[i].c[n];
            const int32_t r0 = w_low(v) - mldsa_center_small(s->cs.c[n]);
            s->w[i].c[n] = w_pack(w_high(v), r0);
            fail |= mldsa_at_least(mldsa_abs(r0), p->gamma2 - p->beta);
        }
    }
    return fail;
}

/* The check of line 28 on ct0 = <<c t0>> for row i, with the hints into row i of the
 * bitmap: the failures ORed into *fail, the number of hints added to *count. Written for
 * gamma2 a constant, as decompose_row.
 *
 * From r0 and w1 (respond_r0) rather than from Decompose(w - <<c s2>> + ct0), as the
 * Dilithium reference does: with ||r0|| < gamma2 - beta (line 23 passed) and ||ct0|| <
 * gamma2 (line 28), MakeHint(-ct0, w - <<c s2>> + ct0) (Alg. 39) is 1 exactly when a0 = r0
 * + ct0 leaves (-gamma2, gamma2], except at a0 = -gamma2 with w1 = 0: there w - <<c s2>> +
 * ct0 = q - gamma2 falls in Decompose's wrap (r1 = 0), so its high bits are still w1. A
 * hint computed on an attempt that fails line 28 is never used. */
static PQPAN_ALWAYS_INLINE void row_hints(struct sign_ws *s, unsigned i, int32_t gamma2,
                                          uint32_t *fail, uint32_t *count)
{
    unsigned n, b;
    for (n = 0; n < PQPAN_MLDSA_N; n += 8) { /* one byte of the bitmap at a time */
        uint32_t bits = 0;
        for (b = 0; b < 8; b++) {
            const int32_t v = s->w[i].c[n + b];
            const int32_t ct0 = mldsa_center_small(s->ct0.c[n + b]);
            const int32_t a0 = w_low(v) + ct0;
            const uint32_t h = (uint32_t)(gamma2 - a0) >> 31 | (uint32_t)(a0 + gamma2) >> 31 |
                               ((nonzero(a0 + gamma2) ^ 1u) & nonzero(w_high(v)));
            *fail |= mldsa_at_least(mldsa_abs(ct0), gamma2); /* line 28 */
            bits |= h << b;
            *count += h;
        }
        s->hint[i][n / 8] = (uint8_t)bits;
    }
}

/* Lines 25-28 row by row: 1 if ||<<c t0>>|| >= gamma2 or there are more than omega hints,
 * else 0. */
static PQPAN_NOINLINE uint32_t respond_hints(struct sign_ws *s, const struct mldsa_params *p)
{
    uint32_t fail = 0, count = 0;
    unsigned i;
    for (i = 0; i < p->k; i++) {
        times_c(&s->ct0, &s->chat, &s->t0hat[i]);
        if (p->gamma2 == PQPAN_MLDSA44_GAMMA2) { /* public, as in w_decompose */
            row_hints(s, i, PQPAN_MLDSA44_GAMMA2, &fail, &count);
        } else {
            row_hints(s, i, PQPAN_MLDSA65_GAMMA2, &fail, &count);
        }
    }
    return fail | mldsa_at_least((int32_t)count, (int32_t)p->omega + 1); /* too many hints */
}

/* The outcome of one check of Alg. 7, declassified (public: see the top of this file):
 * 1 when the attempt is rejected. */
static int rejected(uint32_t fail)
{
    PQPAN_CT_DECLASSIFY(&fail, sizeof fail);
    return fail != 0;
}

/* One pass of the loop of Alg. 7 (lines 11-31) with kappa = number l. Returns 1 when the
 * signature is complete in sig (line 33: sigEncode, Alg. 26). */
static int attempt(struct sign_ws *s, const struct mldsa_params *p, uint8_t *sig,
                   unsigned number)
{
    unsigned j;
    mask(s, p, number);
    commit(s, p);
    pqpan_mldsa_challenge_ntt(s->chat.c, s->ctilde, p, MLDSA_SEED_SECRET);
    if (rejected(respond_z(s, p)) || rejected(respond_r0(s, p)) ||
        rejected(respond_hints(s, p))) {
        return 0;
    }
    PQPAN_CT_DECLASSIFY(s->ctilde, sizeof s->ctilde); /* the signature is public */
    PQPAN_CT_DECLASSIFY(s->hint, sizeof s->hint);
    memcpy(sig, s->ctilde, p->ctilde_bytes);
    for (j = 0; j < p->l; j++) {
        pqpan_mldsa_pack(sig + p->ctilde_bytes + j * mldsa_z_poly_bytes(p), s->y[j].c,
                         PQPAN_MLDSA_N, p->z_bits, p->gamma1, 1);
    }
    pqpan_mldsa_pack_hints(sig + mldsa_sig_hint_offset(p), s->hint[0], p);
    return 1;
}

int pqpan_mldsa_sign_speed(const struct mldsa_params *p, uint8_t *sig, const uint8_t *sk,
                           const struct mldsa_msg *m, const uint8_t rnd[PQPAN_MLDSA_RND_BYTES])
{
    struct sign_ws s;
    const size_t secrets = offsetof(struct sign_ws, s1hat);
    unsigned number;
    int ret = pqpan_mldsa_check_sk(p, sk);
    if (ret != PQPAN_OK) {
        memset(sig, 0, p->sig_bytes);
        return ret;
    }
    pqpan_mldsa_sign_seeds(s.mu, s.rhopp, sk, m, rnd);
    sign_setup(&s, p, sk);
    ret = PQPAN_ERR_BAD_KEY;
    for (number = 0; number < PQPAN_MLDSA_SIGN_ATTEMPTS_MAX; number++) {
        if (attempt(&s, p, sig, number)) {
            ret = PQPAN_OK;
            break;
        }
    }
    if (ret != PQPAN_OK) {
        memset(sig, 0, p->sig_bytes);
    }
    pqpan_wipe((uint8_t *)&s + secrets, sizeof s - secrets);
    return ret;
}

/* Verification: NTT(z), NTT(c), and one entry of A_hat and one row of t1 at a time. */
struct verify_ws {
    struct poly zhat[PQPAN_MLDSA_L_MAX];
    struct poly chat, a, w, t1hat;
};

/* NTT(t1_i 2^d), t1_i unpacked from pk (SimpleBitPack in 10 bits, Alg. 22, 23). */
static void t1_ntt(struct poly *r, const uint8_t *pk, unsigned i)
{
    unsigned n;
    pqpan_mldsa_unpack(r->c, pk + PQPAN_MLDSA_SEEDBYTES + i * PQPAN_MLDSA_POLY_BYTES(PQPAN_MLDSA_T1_BITS),
                       PQPAN_MLDSA_N, PQPAN_MLDSA_T1_BITS, 0, 0);
    for (n = 0; n < PQPAN_MLDSA_N; n++) {
        r->c[n] <<= PQPAN_MLDSA_D; /* below 2^23 < q */
    }
    pqpan_mldsa_ntt(r->c);
}

int pqpan_mldsa_verify_speed(const struct mldsa_params *p, const uint8_t *pk,
                             const struct mldsa_msg *m, const uint8_t *sig, size_t sig_len)
{
    struct pqpan_shake256_ctx h;
    struct verify_ws v;
    unsigned i, j, n;
    const int form = pqpan_mldsa_check_sig_form(p, sig, sig_len);
    if (form != PQPAN_OK) {
        return form;
    }
    pqpan_mldsa_absorb_mu(&h, p, pk, m);
    pqpan_mldsa_challenge_ntt(v.chat.c, sig, p, MLDSA_SEED_PUBLIC); /* line 8 */
    ntt_unpacked_vec(v.zhat, p->l, sig + p->ctilde_bytes, mldsa_z_poly_bytes(p), p->z_bits,
                     p->gamma1);
    for (i = 0; i < p->k; i++) { /* line 9: w'_Approx = NTT^-1(A_hat o z_hat - c_hat o t1_hat) */
        memset(&v.w, 0, sizeof v.w);
        for (j = 0; j < p->l; j++) {
            pqpan_mldsa_rej_ntt_poly(v.a.c, pk, j, i);
            pqpan_mldsa_pointwise_acc(v.w.c, v.a.c, v.zhat[j].c);
        }
        t1_ntt(&v.t1hat, pk, i);
        for (n = 0; n < PQPAN_MLDSA_N; n++) {
            v.w.c[n] -= mldsa_mont_mul(v.chat.c[n], v.t1hat.c[n]);
        }
        pqpan_mldsa_invntt(v.w.c);
        pqpan_mldsa_use_hints_row(v.w.c, p, sig, i); /* line 10 */
        pqpan_mldsa_absorb_w1(&h, v.w.c, p->w1_bits); /* line 12 */
    }
    return pqpan_mldsa_challenge_matches(&h, p, sig) ? PQPAN_OK : PQPAN_ERR_AUTH;
}
