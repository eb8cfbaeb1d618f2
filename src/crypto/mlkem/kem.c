/* ML-KEM (FIPS 203): K-PKE (§5), the internal algorithms (§6), the checked external
 * interface (§7) for ML-KEM-512/768/1024, and the parameter-generic descriptors. */
#include <string.h>

#include "common/compiler.h"
#include "common/overlap.h"
#include "crypto/ct_testing.h"
#include "crypto/mlkem/ntt.h"
#include "crypto/mlkem/params.h"
#include "crypto/mlkem/poly.h"
#include "crypto/mlkem/sampling.h"
#include "pqpan/common.h"
#include "pqpan/kem.h"
#include "pqpan/sha3.h"

static const struct mlkem_params params512 = {
    PQPAN_MLKEM512_K,        PQPAN_MLKEM512_ETA1,     PQPAN_MLKEM512_DU,
    PQPAN_MLKEM512_DV,       PQPAN_MLKEM512_EK_BYTES, PQPAN_MLKEM512_DK_BYTES,
    PQPAN_MLKEM512_CT_BYTES,
};
static const struct mlkem_params params768 = {
    PQPAN_MLKEM768_K,        PQPAN_MLKEM768_ETA1,     PQPAN_MLKEM768_DU,
    PQPAN_MLKEM768_DV,       PQPAN_MLKEM768_EK_BYTES, PQPAN_MLKEM768_DK_BYTES,
    PQPAN_MLKEM768_CT_BYTES,
};
static const struct mlkem_params params1024 = {
    PQPAN_MLKEM1024_K,        PQPAN_MLKEM1024_ETA1,     PQPAN_MLKEM1024_DU,
    PQPAN_MLKEM1024_DV,       PQPAN_MLKEM1024_EK_BYTES, PQPAN_MLKEM1024_DK_BYTES,
    PQPAN_MLKEM1024_CT_BYTES,
};

#define SYM PQPAN_MLKEM_SYMBYTES
#define POLYBYTES PQPAN_MLKEM_POLYBYTES

/* The stack is kept small by never holding a whole vector or matrix of polynomials
 * unencoded: the matrix entries are generated block by block inside the products
 * (pqpan_mlkem_matacc), s_hat goes straight into dk and is read back from there, y_hat
 * is kept as ByteEncode_12 (384 bytes per polynomial, storage declared by the
 * per-parameter-set entry points below), and each output polynomial is encoded into the
 * caller's buffer, or compared with the expected ciphertext, as soon as it is complete.
 * At most two polynomials are alive at a time. */

/* out[i] = ByteEncode_12(NTT(SamplePolyCBD_eta(PRF_eta(seed, i)))) for i < k, reduced
 * to [0, q) (Alg. 13 lines 8-11, 16, 20 for s_hat; Alg. 14 lines 9-12, 18 for y_hat).
 * Out of line, so that its polynomial is not in KeyGen's frame while the t_hat rows are
 * computed (gcc -O2 inlined it there once its body was small, +488 B of stack). */
static PQPAN_NOINLINE void sample_ntt_vec_bytes(uint8_t *out, unsigned k, const uint8_t seed[SYM],
                                 unsigned eta)
{
    struct mlkem_poly p;
    unsigned i;
    for (i = 0; i < k; i++) {
        pqpan_mlkem_sample_cbd(&p, seed, (uint8_t)i, eta);
        pqpan_mlkem_ntt(p.c);
        pqpan_mlkem_poly_reduce_tobytes(out + POLYBYTES * i, &p);
    }
    pqpan_wipe(&p, sizeof p);
}

/* acc += R^-1 sum_j A'[row][j] o v[j], v given as k encoded polynomials, where
 * A'[row][j] = SampleNTT(rho || x || y) with (x, y) = (j, row) for A (Alg. 13 line 18)
 * or (row, j) for A^T (Alg. 14 line 19). |acc_i| grows by less than k q. */
static void matrix_row_acc(struct mlkem_poly *acc, const uint8_t rho[SYM], unsigned k,
                           unsigned row, int transposed, const uint8_t *v)
{
    unsigned j;
    for (j = 0; j < k; j++) {
        const uint8_t x = (uint8_t)(transposed ? row : j);
        const uint8_t y = (uint8_t)(transposed ? j : row);
        pqpan_mlkem_matacc(acc->c, rho, x, y, v + POLYBYTES * j);
    }
}

/* Row i of t_hat = A o s_hat + e_hat (Alg. 13 lines 12-15, 17-19) into t_out. The one
 * polynomial starts as NTT(e_i) R^-1, so that the products (each carrying R^-1) add to
 * it, and a final multiplication by R leaves t_hat[i]: |t_i| < q after tomont. Out of
 * line, so that the polynomial is not in KeyGen's frame while s_hat is sampled. */
static PQPAN_NOINLINE void keygen_t_row(const struct mlkem_params *prm,
                                        uint8_t t_out[POLYBYTES], const uint8_t rho[SYM],
                                        const uint8_t sigma[SYM], const uint8_t *s_hat,
                                        unsigned i)
{
    struct mlkem_poly t;
    pqpan_mlkem_sample_cbd(&t, sigma, (uint8_t)(prm->k + i), prm->eta1); /* lines 12-15 */
    pqpan_mlkem_ntt(t.c);                                              /* line 17 */
    pqpan_mlkem_poly_frommont(&t);
    matrix_row_acc(&t, rho, prm->k, i, 0, s_hat); /* line 18 */
    pqpan_mlkem_poly_tomont_tobytes(t_out, &t); /* line 19 */
    pqpan_wipe(&t, sizeof t);
}

/* K-PKE.KeyGen (FIPS 203 Alg. 13): ek_pke = ByteEncode_12(t_hat) || rho, dk_pke =
 * ByteEncode_12(s_hat). s_hat is written to dk_pke first and read from there. */
static void kpke_keygen(const struct mlkem_params *prm, uint8_t *ek, uint8_t *dk_pke,
                        const uint8_t d[SYM])
{
    uint8_t rho_sigma[2 * SYM];
    const uint8_t *rho = rho_sigma, *sigma = rho_sigma + SYM;
    unsigned i;

    { /* the block scope lets seed_in share its stack slot */
        uint8_t seed_in[SYM + 1];
        memcpy(seed_in, d, SYM);
        seed_in[SYM] = (uint8_t)prm->k; /* line 1: (rho, sigma) = G(d || k) */
        pqpan_sha3_512(rho_sigma, seed_in, sizeof seed_in);
        pqpan_wipe(seed_in, sizeof seed_in);
    }
    PQPAN_CT_DECLASSIFY(rho_sigma, SYM); /* rho is published in ek */

    sample_ntt_vec_bytes(dk_pke, prm->k, sigma, prm->eta1); /* lines 8-11, 16, 20 */
    for (i = 0; i < prm->k; i++) {
        keygen_t_row(prm, ek + POLYBYTES * i, rho, sigma, dk_pke, i);
    }
    memcpy(ek + POLYBYTES * prm->k, rho, SYM);
    pqpan_wipe(rho_sigma, sizeof rho_sigma);
}

/* Where K-PKE.Encrypt puts its ciphertext: into out, or, when out is NULL, compared
 * with expected on the fly, so that Decaps needs no second ciphertext (Alg. 18 line 9). */
struct ct_sink {
    uint8_t *out;
    const uint8_t *expected;
};

/* ByteEncode_d(Compress_d(p)) at byte offset off of the sink (Alg. 14 lines 22-23).
 * Returns the OR of the byte differences from the expected ciphertext (0 when writing). */
static unsigned emit_compressed(const struct ct_sink *sink, size_t off,
                                const struct mlkem_poly *p, unsigned d)
{
    if (sink->out != NULL) {
        pqpan_mlkem_poly_compress(sink->out + off, p, d);
        return 0;
    }
    return pqpan_mlkem_poly_compress_diff(sink->expected + off, p, d);
}

/* Row i of u = NTT^-1(A^T o y_hat) + e1 (FIPS 203 Alg. 14 lines 13-16, 19), emitted as
 * c1 part i (line 22). */
static unsigned encrypt_u_row(const struct mlkem_params *prm, const uint8_t *y_hat,
                              unsigned i, const struct ct_sink *sink, const uint8_t rho[SYM],
                              const uint8_t r[SYM])
{
    struct mlkem_poly u;
    unsigned diff;
    memset(&u, 0, sizeof u);
    matrix_row_acc(&u, rho, prm->k, i, 1, y_hat); /* line 19; |u_i| < k q <= 4q */
    pqpan_mlkem_invntt(u.c);
    pqpan_mlkem_add_cbd(&u, r, (uint8_t)(prm->k + i), PQPAN_MLKEM_ETA2); /* 13-16 */
    /* |u_i| < q + eta2 < 2q, compression's input range: no reduction */
    diff = emit_compressed(sink, PQPAN_MLKEM_N / 8 * prm->du * i, &u, prm->du); /* 22 */
    pqpan_wipe(&u, sizeof u);
    return diff;
}

/* v = R^-1 t_hat^T o y_hat (FIPS 203 Alg. 14 lines 2, 21), unreduced: |v_i| < k q <= 4q,
 * the inverse NTT's input range. Both operands decoded from their encodings pair by pair. */
static void t_times_y(struct mlkem_poly *v, unsigned k, const uint8_t *ek, const uint8_t *y_hat)
{
    unsigned i;
    memset(v, 0, sizeof *v);
    for (i = 0; i < k; i++) {
        pqpan_mlkem_basemul_acc_encoded(v->c, ek + POLYBYTES * i, y_hat + POLYBYTES * i); /* 2 */
    }
}

/* v = NTT^-1(t_hat^T o y_hat) + e2 + mu (FIPS 203 Alg. 14 lines 2, 17, 20-21), emitted
 * as c2 (line 23). */
static unsigned encrypt_v(const struct mlkem_params *prm, const uint8_t *y_hat,
                          const struct ct_sink *sink, const uint8_t *ek, const uint8_t m[SYM],
                          const uint8_t r[SYM])
{
    const unsigned k = prm->k;
    struct mlkem_poly v;
    unsigned diff;

    t_times_y(&v, k, ek, y_hat);
    pqpan_mlkem_invntt(v.c);
    pqpan_mlkem_add_cbd(&v, r, (uint8_t)(2 * k), PQPAN_MLKEM_ETA2); /* line 17 */
    pqpan_mlkem_poly_add_msg(&v, m);                                /* lines 20-21 */
    /* |v_i| < q + eta2 + 1665 < 2q, compression's input range: no reduction */
    diff = emit_compressed(sink, PQPAN_MLKEM_N / 8 * prm->du * k, &v, prm->dv); /* 23 */
    pqpan_wipe(&v, sizeof v);
    return diff;
}

/* K-PKE.Encrypt (FIPS 203 Alg. 14) with ek_pke already checked (§7.2), y_hat the
 * workspace of k encoded polynomials. Returns the OR of the byte differences from
 * sink->expected (0 when the sink writes). */
static unsigned kpke_encrypt(const struct mlkem_params *prm, uint8_t *y_hat,
                             const struct ct_sink *sink, const uint8_t *ek,
                             const uint8_t m[SYM], const uint8_t r[SYM])
{
    const uint8_t *rho = ek + POLYBYTES * prm->k;
    unsigned i, diff = 0;

    sample_ntt_vec_bytes(y_hat, prm->k, r, prm->eta1); /* lines 9-12, 18 */
    for (i = 0; i < prm->k; i++) {
        diff |= encrypt_u_row(prm, y_hat, i, sink, rho, r);
    }
    diff |= encrypt_v(prm, y_hat, sink, ek, m, r);
    pqpan_wipe(y_hat, POLYBYTES * prm->k);
    return diff;
}

/* K-PKE.Decrypt (FIPS 203 Alg. 15); s_hat is read from dk_pke pair by pair. Out of line,
 * so that its two polynomials are not in Decaps' frame during the re-encryption. */
static PQPAN_NOINLINE void kpke_decrypt(const struct mlkem_params *prm, uint8_t m[SYM],
                                        const uint8_t *dk_pke, const uint8_t *c)
{
    struct mlkem_poly u, w;
    unsigned i;

    memset(&w, 0, sizeof w);
    for (i = 0; i < prm->k; i++) {
        pqpan_mlkem_poly_decompress(&u, c + PQPAN_MLKEM_N / 8 * prm->du * i, prm->du); /* 3 */
        pqpan_mlkem_ntt(u.c);
        pqpan_mlkem_poly_reduce(&u);
        pqpan_mlkem_basemul_acc_bytes(w.c, u.c, dk_pke + POLYBYTES * i, 0,
                                      PQPAN_MLKEM_N / 2); /* line 5 */
    }
    pqpan_mlkem_invntt(w.c); /* line 6: w = v - NTT^-1(s_hat^T o NTT(u)); |w_i| < k q */
    pqpan_mlkem_poly_decompress(&u, c + PQPAN_MLKEM_N / 8 * prm->du * prm->k, prm->dv); /* 4 */
    pqpan_mlkem_poly_tomsg(m, &u, &w); /* line 7 of u - w: u_i in [0, q), |w_i| < q */
    pqpan_wipe(&w, sizeof w);
}

/* FIPS 203 §7.2 modulus check: ByteEncode_12(ByteDecode_12(ek)) == ek for the k
 * polynomials of t (the 32-byte rho needs no check). The length is fixed by the type. */
static int check_ek(const struct mlkem_params *prm, const uint8_t *ek)
{
    unsigned i;
    if (ek == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    for (i = 0; i < prm->k; i++) {
        if (!pqpan_mlkem_poly_bytes_canonical(ek + POLYBYTES * i)) {
            return PQPAN_ERR_BAD_KEY;
        }
    }
    return PQPAN_OK;
}

/* Offsets inside dk = dk_pke || ek || H(ek) || z (FIPS 203 Alg. 16 line 3). */
static size_t dk_ek_offset(const struct mlkem_params *prm)
{
    return POLYBYTES * prm->k;
}

static size_t dk_hash_offset(const struct mlkem_params *prm)
{
    return dk_ek_offset(prm) + prm->ek_bytes;
}

/* FIPS 203 §7.3 hash check: H(dk[384k : 768k + 32]) == dk[768k + 32 : 768k + 64]. Both
 * sides are public parts of dk, so the result may be branched on. */
static int check_dk(const struct mlkem_params *prm, const uint8_t *dk)
{
    uint8_t h[SYM];
    int ok;
    if (dk == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    pqpan_sha3_256(h, dk + dk_ek_offset(prm), prm->ek_bytes);
    ok = pqpan_ct_equal(h, dk + dk_hash_offset(prm), SYM);
    return ok ? PQPAN_OK : PQPAN_ERR_BAD_KEY;
}

/* ML-KEM.KeyGen_internal (FIPS 203 Alg. 16). */
static int keypair_derand(const struct mlkem_params *prm, uint8_t *ek, uint8_t *dk,
                          const uint8_t d[SYM], const uint8_t z[SYM])
{
    if (pqpan_buffers_overlap(ek, prm->ek_bytes, dk, prm->dk_bytes) ||
        pqpan_buffers_overlap(ek, prm->ek_bytes, d, SYM) ||
        pqpan_buffers_overlap(ek, prm->ek_bytes, z, SYM) ||
        pqpan_buffers_overlap(dk, prm->dk_bytes, d, SYM) ||
        pqpan_buffers_overlap(dk, prm->dk_bytes, z, SYM)) {
        return PQPAN_ERR_INVALID_ARG; /* nothing written: zeroing would destroy an input */
    }
    if (ek == NULL || dk == NULL || d == NULL || z == NULL) {
        if (ek != NULL) {
            memset(ek, 0, prm->ek_bytes);
        }
        if (dk != NULL) {
            memset(dk, 0, prm->dk_bytes);
        }
        return PQPAN_ERR_INVALID_ARG;
    }
    kpke_keygen(prm, ek, dk, d);
    memcpy(dk + dk_ek_offset(prm), ek, prm->ek_bytes);
    pqpan_sha3_256(dk + dk_hash_offset(prm), ek, prm->ek_bytes);
    memcpy(dk + dk_hash_offset(prm) + SYM, z, SYM);
    return PQPAN_OK;
}

/* ML-KEM.KeyGen (FIPS 203 Alg. 19): d, then z, from the random source. */
static int keypair(const struct mlkem_params *prm, uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng,
                   void *rng_ctx)
{
    uint8_t d[SYM], z[SYM];
    int ret;
    if (rng == NULL) {
        ret = keypair_derand(prm, ek, dk, NULL, NULL);
        goto out;
    }
    if (rng(rng_ctx, d, SYM) != 0 || rng(rng_ctx, z, SYM) != 0) {
        (void)keypair_derand(prm, ek, dk, NULL, NULL); /* zeroes the outputs */
        ret = PQPAN_ERR_RNG;
        goto out;
    }
    ret = keypair_derand(prm, ek, dk, d, z);
out:
    pqpan_wipe(d, sizeof d);
    pqpan_wipe(z, sizeof z);
    return ret;
}

static void zero_ct_ss(const struct mlkem_params *prm, uint8_t *ct, uint8_t *ss)
{
    if (ct != NULL) {
        memset(ct, 0, prm->ct_bytes);
    }
    if (ss != NULL) {
        memset(ss, 0, SYM);
    }
}

/* (key, r) = G(a || b) = SHA3-512 (FIPS 203 §4.1 eq. 4.5) of two 32-byte strings, split
 * into its two halves; key and r may overlap a or b (both are copied first). Out of line,
 * so that its input and output copies are not in the callers' frames during
 * K-PKE.Encrypt: the callers hold only r there, the key going straight to their output. */
static PQPAN_NOINLINE void hash_g(uint8_t key[SYM], uint8_t r[SYM], const uint8_t a[SYM],
                                  const uint8_t b[SYM])
{
    uint8_t in[2 * SYM], out[2 * SYM];
    memcpy(in, a, SYM);
    memcpy(in + SYM, b, SYM);
    pqpan_sha3_512(out, in, sizeof in);
    memcpy(key, out, SYM);
    memcpy(r, out + SYM, SYM);
    pqpan_wipe(in, sizeof in);
    pqpan_wipe(out, sizeof out);
}

/* J(z || c) = SHAKE256(z || c, 32 bytes) (FIPS 203 §4.1 eq. 4.4). Out of line, so that
 * its SHAKE256 state is not in Decaps' frame during the re-encryption. */
static PQPAN_NOINLINE void hash_j(uint8_t out[SYM], const uint8_t z[SYM], const uint8_t *c,
                                  size_t c_len)
{
    struct pqpan_shake256_ctx ctx;
    pqpan_shake256_init(&ctx);
    pqpan_shake256_absorb(&ctx, z, SYM);
    pqpan_shake256_absorb(&ctx, c, c_len);
    pqpan_shake256_squeeze(&ctx, out, SYM);
    pqpan_wipe(&ctx, sizeof ctx);
}

/* out = b ? x : out, for b in {0, 1}, without a branch. Reading b through a volatile
 * keeps the compiler from turning the mask back into a conditional jump. */
static void ct_select(uint8_t *out, const uint8_t *x, size_t len, unsigned b)
{
    volatile unsigned vb = b;
    const uint8_t mask = (uint8_t)(0u - vb);
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)(out[i] ^ (mask & (out[i] ^ x[i])));
    }
}

/* Alg. 18 lines 7, 9-11 after the re-encryption: ss holds K' and becomes
 * K_bar = J(z || c) unless same (1 iff c == c'), without a branch. Out of line, so that
 * K_bar is not in Decaps' frame during the re-encryption. */
static PQPAN_NOINLINE void implicit_reject(uint8_t ss[SYM], const uint8_t z[SYM],
                                           const uint8_t *c, size_t c_len, unsigned same)
{
    uint8_t k_bar[SYM];
    hash_j(k_bar, z, c, c_len);
    ct_select(ss, k_bar, SYM, same ^ 1u);
    pqpan_wipe(k_bar, sizeof k_bar);
}

/* ML-KEM.Encaps_internal (FIPS 203 Alg. 17) after the §7.2 input check. */
static int encaps_derand(const struct mlkem_params *prm, uint8_t *y_hat, uint8_t *ct,
                         uint8_t *ss, const uint8_t *ek, const uint8_t m[SYM])
{
    uint8_t r[SYM];
    struct ct_sink sink;
    int ret;
    if (pqpan_buffers_overlap(ct, prm->ct_bytes, ek, prm->ek_bytes) ||
        pqpan_buffers_overlap(ct, prm->ct_bytes, ss, SYM) ||
        pqpan_buffers_overlap(ct, prm->ct_bytes, m, SYM) ||
        pqpan_buffers_overlap(ss, SYM, ek, prm->ek_bytes) || pqpan_buffers_overlap(ss, SYM, m, SYM)) {
        return PQPAN_ERR_INVALID_ARG; /* nothing written: zeroing would destroy an input */
    }
    if (ct == NULL || ss == NULL || m == NULL) {
        ret = PQPAN_ERR_INVALID_ARG;
        goto fail;
    }
    ret = check_ek(prm, ek);
    if (ret != PQPAN_OK) {
        goto fail;
    }
    pqpan_sha3_256(r, ek, prm->ek_bytes); /* line 1: (K, r) = G(m || H(ek)), K into ss */
    hash_g(ss, r, m, r);
    sink.out = ct;
    sink.expected = NULL;
    (void)kpke_encrypt(prm, y_hat, &sink, ek, m, r); /* line 2 */
    pqpan_wipe(r, sizeof r);
    return PQPAN_OK;
fail:
    zero_ct_ss(prm, ct, ss);
    return ret;
}

/* ML-KEM.Encaps (FIPS 203 Alg. 20). */
static int encaps(const struct mlkem_params *prm, uint8_t *y_hat, uint8_t *ct,
                  uint8_t *ss, const uint8_t *ek, pqpan_rng_fn rng, void *rng_ctx)
{
    uint8_t m[SYM];
    int ret;
    if (rng == NULL) {
        zero_ct_ss(prm, ct, ss);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (pqpan_buffers_overlap(ct, prm->ct_bytes, ek, prm->ek_bytes) ||
        pqpan_buffers_overlap(ct, prm->ct_bytes, ss, SYM) ||
        pqpan_buffers_overlap(ss, SYM, ek, prm->ek_bytes)) {
        return PQPAN_ERR_INVALID_ARG; /* before drawing m; nothing written */
    }
    if (rng(rng_ctx, m, SYM) != 0) {
        zero_ct_ss(prm, ct, ss);
        ret = PQPAN_ERR_RNG;
        goto out;
    }
    ret = encaps_derand(prm, y_hat, ct, ss, ek, m);
out:
    pqpan_wipe(m, sizeof m);
    return ret;
}

/* ML-KEM.Decaps (FIPS 203 Alg. 21): the §7.3 check when check_key is set (a caller that
 * already checked dk, or generated it, may skip it: §7.3), then ML-KEM.Decaps_internal
 * (Alg. 18) with implicit rejection. */
static int decaps(const struct mlkem_params *prm, uint8_t *y_hat, uint8_t *ss,
                  const uint8_t *ct, const uint8_t *dk, int check_key)
{
    uint8_t m[SYM], r[SYM];
    struct ct_sink sink;
    const uint8_t *ek, *h, *z;
    unsigned diff, same;
    int ret;

    if (pqpan_buffers_overlap(ss, SYM, ct, prm->ct_bytes) ||
        pqpan_buffers_overlap(ss, SYM, dk, prm->dk_bytes)) {
        return PQPAN_ERR_INVALID_ARG; /* nothing written: zeroing would destroy an input */
    }
    if (ss == NULL || ct == NULL || dk == NULL) {
        ret = PQPAN_ERR_INVALID_ARG;
        goto fail;
    }
    ret = check_key ? check_dk(prm, dk) : PQPAN_OK;
    if (ret != PQPAN_OK) {
        goto fail;
    }
    ek = dk + dk_ek_offset(prm); /* Alg. 18 lines 1-4 */
    h = dk + dk_hash_offset(prm);
    z = h + SYM;

    kpke_decrypt(prm, m, dk, ct); /* line 5 */
    hash_g(ss, r, m, h);          /* line 6: (K', r') = G(m' || h), K' into ss */
    sink.out = NULL;              /* line 8, compared with c on the fly (line 9) */
    sink.expected = ct;
    diff = kpke_encrypt(prm, y_hat, &sink, ek, m, r);
    same = 1u & ((diff - 1u) >> 8); /* diff <= 255: 1 iff diff == 0, without a branch */
    implicit_reject(ss, z, ct, prm->ct_bytes, same); /* lines 7, 9-11 */

    pqpan_wipe(m, sizeof m);
    pqpan_wipe(r, sizeof r);
    return PQPAN_OK;
fail:
    if (ss != NULL) {
        memset(ss, 0, SYM);
    }
    return ret;
}

/* The public entry points of one parameter set, all forwarding to the generic code;
 * encaps and decaps declare here the y_hat workspace of k encoded polynomials, sized for
 * this set's k. */
#define PQPAN_MLKEM_DEFINE_API(N)                                                            \
    int pqpan_mlkem##N##_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t d[32],      \
                                        const uint8_t z[32])                                 \
    {                                                                                        \
        return keypair_derand(&params##N, ek, dk, d, z);                                     \
    }                                                                                        \
    int pqpan_mlkem##N##_keypair(uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng, void *rng_ctx) \
    {                                                                                        \
        return keypair(&params##N, ek, dk, rng, rng_ctx);                                    \
    }                                                                                        \
    int pqpan_mlkem##N##_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,      \
                                       const uint8_t m[32])                                  \
    {                                                                                        \
        uint8_t y_hat[PQPAN_MLKEM##N##_K * POLYBYTES];                                       \
        return encaps_derand(&params##N, y_hat, ct, ss, ek, m);                              \
    }                                                                                        \
    int pqpan_mlkem##N##_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,             \
                                pqpan_rng_fn rng, void *rng_ctx)                             \
    {                                                                                        \
        uint8_t y_hat[PQPAN_MLKEM##N##_K * POLYBYTES];                                       \
        return encaps(&params##N, y_hat, ct, ss, ek, rng, rng_ctx);                          \
    }                                                                                        \
    int pqpan_mlkem##N##_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk)       \
    {                                                                                        \
        uint8_t y_hat[PQPAN_MLKEM##N##_K * POLYBYTES];                                       \
        return decaps(&params##N, y_hat, ss, ct, dk, 1);                                     \
    }                                                                                        \
    int pqpan_mlkem##N##_decaps_checked_dk(uint8_t ss[32], const uint8_t *ct,               \
                                           const uint8_t *dk)                                \
    {                                                                                        \
        uint8_t y_hat[PQPAN_MLKEM##N##_K * POLYBYTES];                                       \
        return decaps(&params##N, y_hat, ss, ct, dk, 0);                                     \
    }                                                                                        \
    int pqpan_mlkem##N##_check_ek(const uint8_t *ek, size_t len)                             \
    {                                                                                        \
        return len == params##N.ek_bytes ? check_ek(&params##N, ek) : PQPAN_ERR_BAD_LENGTH;  \
    }                                                                                        \
    int pqpan_mlkem##N##_check_dk(const uint8_t *dk, size_t len)                             \
    {                                                                                        \
        return len == params##N.dk_bytes ? check_dk(&params##N, dk) : PQPAN_ERR_BAD_LENGTH;  \
    }

PQPAN_MLKEM_DEFINE_API(512)
PQPAN_MLKEM_DEFINE_API(768)
PQPAN_MLKEM_DEFINE_API(1024)

/* Names and NIST security categories from FIPS 203 §8 and Table 2. */
#define PQPAN_MLKEM_DESCRIPTOR(N, id, category)                                               \
    {                                                                                        \
        id, "ML-KEM-" #N, category, PQPAN_MLKEM##N##_EK_BYTES, PQPAN_MLKEM##N##_DK_BYTES,    \
            PQPAN_MLKEM##N##_CT_BYTES, PQPAN_MLKEM_SS_BYTES, pqpan_mlkem##N##_keypair_derand, \
            pqpan_mlkem##N##_keypair, pqpan_mlkem##N##_encaps_derand,                        \
            pqpan_mlkem##N##_encaps, pqpan_mlkem##N##_decaps, pqpan_mlkem##N##_check_ek,     \
            pqpan_mlkem##N##_check_dk, pqpan_mlkem##N##_decaps_checked_dk                    \
    }

static const struct pqpan_kem kems[PQPAN_KEM_COUNT] = {
    PQPAN_MLKEM_DESCRIPTOR(512, PQPAN_KEM_MLKEM512, 1),
    PQPAN_MLKEM_DESCRIPTOR(768, PQPAN_KEM_MLKEM768, 3),
    PQPAN_MLKEM_DESCRIPTOR(1024, PQPAN_KEM_MLKEM1024, 5),
};

const struct pqpan_kem *pqpan_kem_at(size_t i)
{
    return i < PQPAN_KEM_COUNT ? &kems[i] : NULL;
}

const struct pqpan_kem *pqpan_kem_by_id(enum pqpan_kem_id id)
{
    size_t i;
    for (i = 0; i < PQPAN_KEM_COUNT; i++) {
        if (kems[i].id == id) {
            return &kems[i];
        }
    }
    return NULL;
}

const struct pqpan_kem *pqpan_kem_by_name(const char *name)
{
    size_t i;
    if (name == NULL) {
        return NULL;
    }
    for (i = 0; i < PQPAN_KEM_COUNT; i++) {
        if (strcmp(kems[i].name, name) == 0) {
            return &kems[i];
        }
    }
    return NULL;
}
