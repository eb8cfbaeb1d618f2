/* ML-KEM (FIPS 203): K-PKE (§5), the internal algorithms (§6), the checked external
 * interface (§7) for ML-KEM-512/768/1024, and the parameter-generic descriptors. */
#include <string.h>

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

/* A vector of k polynomials in the NTT domain with their base-multiplication cache. The
 * storage is declared by the per-parameter-set entry points (PQPAN_MLKEM_VEC below), so
 * the stack of each set holds exactly k polynomials. */
struct ntt_vec {
    struct mlkem_poly *p;
    int16_t (*cache)[PQPAN_MLKEM_N / 2];
};

/* Declares storage for a vector of k polynomials and the ntt_vec `name` viewing it. */
#define PQPAN_MLKEM_VEC(name, k)                         \
    struct mlkem_poly name##_p[k];                       \
    int16_t name##_cache[k][PQPAN_MLKEM_N / 2];          \
    struct ntt_vec name = {name##_p, name##_cache}

static void wipe_ntt_vec(const struct ntt_vec *v, unsigned k)
{
    pqpan_wipe(v->p, k * sizeof *v->p);
    pqpan_wipe(v->cache, k * sizeof *v->cache);
}

/* v[i] = NTT(SamplePolyCBD_eta(PRF_eta(seed, nonce0 + i))) for i < k, reduced to
 * |c| < q, with the cache for multiplying by them. */
static void sample_ntt_vec(const struct ntt_vec *v, unsigned k, const uint8_t seed[SYM],
                           unsigned nonce0, unsigned eta)
{
    unsigned i;
    for (i = 0; i < k; i++) {
        pqpan_mlkem_sample_cbd(&v->p[i], seed, (uint8_t)(nonce0 + i), eta);
        pqpan_mlkem_ntt(v->p[i].c);
        pqpan_mlkem_poly_reduce(&v->p[i]);
        pqpan_mlkem_mulcache(v->cache[i], v->p[i].c);
    }
}

/* out * R^-1 = sum_j A'[row][j] o v[j], where A'[row][j] = SampleNTT(rho || x || y) with
 * (x, y) = (j, row) for A (Alg. 13 line 18) or (row, j) for A^T (Alg. 14 line 19).
 * Matrix entries are generated one at a time and never stored whole. */
static void matrix_row_times(struct mlkem_poly *out, const uint8_t rho[SYM], unsigned k,
                             unsigned row, int transposed, const struct ntt_vec *v)
{
    int32_t acc[PQPAN_MLKEM_N];
    struct mlkem_poly a;
    unsigned j;
    memset(acc, 0, sizeof acc);
    for (j = 0; j < k; j++) {
        const uint8_t x = (uint8_t)(transposed ? row : j);
        const uint8_t y = (uint8_t)(transposed ? j : row);
        pqpan_mlkem_sample_ntt(&a, rho, x, y);
        pqpan_mlkem_basemul_acc(acc, a.c, v->p[j].c, v->cache[j]);
    }
    pqpan_mlkem_poly_from_acc(out, acc);
    pqpan_wipe(acc, sizeof acc);
}

/* K-PKE.KeyGen (FIPS 203 Alg. 13): ek_pke = ByteEncode_12(t) || rho, dk_pke =
 * ByteEncode_12(s). */
static void kpke_keygen(const struct mlkem_params *prm, const struct ntt_vec *s, uint8_t *ek,
                        uint8_t *dk_pke, const uint8_t d[SYM])
{
    uint8_t rho_sigma[2 * SYM];
    const uint8_t *rho = rho_sigma, *sigma = rho_sigma + SYM;
    unsigned i;

    { /* block scopes let seed_in share its stack slot with t and e */
        uint8_t seed_in[SYM + 1];
        memcpy(seed_in, d, SYM);
        seed_in[SYM] = (uint8_t)prm->k; /* line 1: (rho, sigma) = G(d || k) */
        pqpan_sha3_512(rho_sigma, seed_in, sizeof seed_in);
        pqpan_wipe(seed_in, sizeof seed_in);
    }
    PQPAN_CT_DECLASSIFY(rho_sigma, SYM); /* rho is published in ek */

    sample_ntt_vec(s, prm->k, sigma, 0, prm->eta1); /* lines 8-11, 16 */
    for (i = 0; i < prm->k; i++) {
        struct mlkem_poly t, e;
        matrix_row_times(&t, rho, prm->k, i, 0, s); /* line 18 */
        pqpan_mlkem_poly_tomont(&t);
        pqpan_mlkem_sample_cbd(&e, sigma, (uint8_t)(prm->k + i), prm->eta1); /* 12-15 */
        pqpan_mlkem_ntt(e.c);                                                 /* line 17 */
        pqpan_mlkem_poly_add(&t, &t, &e);
        pqpan_mlkem_poly_reduce(&t);
        pqpan_mlkem_poly_tobytes(ek + POLYBYTES * i, &t); /* line 19 */
        pqpan_mlkem_poly_tobytes(dk_pke + POLYBYTES * i, &s->p[i]); /* line 20 */
        pqpan_wipe(&t, sizeof t);
        pqpan_wipe(&e, sizeof e);
    }
    memcpy(ek + POLYBYTES * prm->k, rho, SYM);

    pqpan_wipe(rho_sigma, sizeof rho_sigma);
    wipe_ntt_vec(s, prm->k);
}

/* Where K-PKE.Encrypt puts its ciphertext: into out, or, when out is NULL, compared
 * with expected on the fly, so that Decaps needs no second ciphertext (Alg. 18 line 9). */
struct ct_sink {
    uint8_t *out;
    const uint8_t *expected;
};

/* Largest ByteEncode_d(Compress_d(p)) of one polynomial: d = du = 11 of ML-KEM-1024
 * (FIPS 203 Table 2). */
#define COMPRESSED_MAX (PQPAN_MLKEM_N / 8 * PQPAN_MLKEM1024_DU)

/* ByteEncode_d(Compress_d(p)) at byte offset off of the sink (Alg. 14 lines 22-23).
 * Returns the OR of the byte differences from the expected ciphertext (0 when writing). */
static unsigned emit_compressed(const struct ct_sink *sink, size_t off,
                                const struct mlkem_poly *p, unsigned d)
{
    uint8_t buf[COMPRESSED_MAX];
    const size_t len = PQPAN_MLKEM_N / 8 * d;
    unsigned diff = 0;
    size_t i;
    if (sink->out != NULL) {
        pqpan_mlkem_poly_compress(sink->out + off, p, d);
        return 0;
    }
    pqpan_mlkem_poly_compress(buf, p, d);
    for (i = 0; i < len; i++) {
        diff |= (unsigned)(buf[i] ^ sink->expected[off + i]);
    }
    pqpan_wipe(buf, sizeof buf);
    return diff;
}

/* Row i of u = NTT^-1(A^T o y) + e1 (FIPS 203 Alg. 14 lines 13-16, 19), emitted as
 * c1 part i (line 22). */
static unsigned encrypt_u_row(const struct mlkem_params *prm, const struct ntt_vec *y,
                              unsigned i, const struct ct_sink *sink, const uint8_t rho[SYM],
                              const uint8_t r[SYM])
{
    struct mlkem_poly u, noise;
    unsigned diff;
    matrix_row_times(&u, rho, prm->k, i, 1, y); /* line 19 */
    pqpan_mlkem_invntt(u.c);
    pqpan_mlkem_sample_cbd(&noise, r, (uint8_t)(prm->k + i), PQPAN_MLKEM_ETA2); /* 13-16 */
    pqpan_mlkem_poly_add(&u, &u, &noise);
    pqpan_mlkem_poly_reduce(&u);
    diff = emit_compressed(sink, PQPAN_MLKEM_N / 8 * prm->du * i, &u, prm->du); /* 22 */
    pqpan_wipe(&u, sizeof u);
    pqpan_wipe(&noise, sizeof noise);
    return diff;
}

/* v = NTT^-1(t^T o y) + e2 + mu (FIPS 203 Alg. 14 lines 2, 17, 20-21), emitted as c2
 * (line 23). */
static unsigned encrypt_v(const struct mlkem_params *prm, const struct ntt_vec *y,
                          const struct ct_sink *sink, const uint8_t *ek, const uint8_t m[SYM],
                          const uint8_t r[SYM])
{
    const unsigned k = prm->k;
    struct mlkem_poly v, t;
    int32_t acc[PQPAN_MLKEM_N];
    unsigned i, diff;

    memset(acc, 0, sizeof acc);
    for (i = 0; i < k; i++) {
        pqpan_mlkem_poly_frombytes(&t, ek + POLYBYTES * i); /* line 2 */
        pqpan_mlkem_basemul_acc(acc, t.c, y->p[i].c, y->cache[i]);
    }
    pqpan_mlkem_poly_from_acc(&v, acc);
    pqpan_mlkem_invntt(v.c);
    pqpan_mlkem_sample_cbd(&t, r, (uint8_t)(2 * k), PQPAN_MLKEM_ETA2); /* line 17 */
    pqpan_mlkem_poly_add(&v, &v, &t);
    pqpan_mlkem_poly_frommsg(&t, m); /* line 20 */
    pqpan_mlkem_poly_add(&v, &v, &t);
    pqpan_mlkem_poly_reduce(&v);
    diff = emit_compressed(sink, PQPAN_MLKEM_N / 8 * prm->du * k, &v, prm->dv); /* 23 */

    pqpan_wipe(&v, sizeof v);
    pqpan_wipe(&t, sizeof t);
    pqpan_wipe(acc, sizeof acc);
    return diff;
}

/* K-PKE.Encrypt (FIPS 203 Alg. 14) with ek_pke already checked (§7.2), y the workspace
 * for the vector y. Returns the OR of the byte differences from sink->expected (0 when
 * the sink writes). */
static unsigned kpke_encrypt(const struct mlkem_params *prm, const struct ntt_vec *y,
                             const struct ct_sink *sink, const uint8_t *ek,
                             const uint8_t m[SYM], const uint8_t r[SYM])
{
    const uint8_t *rho = ek + POLYBYTES * prm->k;
    unsigned i, diff = 0;

    sample_ntt_vec(y, prm->k, r, 0, prm->eta1); /* lines 9-12, 18 */
    for (i = 0; i < prm->k; i++) {
        diff |= encrypt_u_row(prm, y, i, sink, rho, r);
    }
    diff |= encrypt_v(prm, y, sink, ek, m, r);
    wipe_ntt_vec(y, prm->k);
    return diff;
}

/* K-PKE.Decrypt (FIPS 203 Alg. 15). */
static void kpke_decrypt(const struct mlkem_params *prm, uint8_t m[SYM], const uint8_t *dk_pke,
                         const uint8_t *c)
{
    struct mlkem_poly u, s; /* s also holds w once the sum is done */
    int16_t cache[PQPAN_MLKEM_N / 2];
    int32_t acc[PQPAN_MLKEM_N];
    unsigned i;

    memset(acc, 0, sizeof acc);
    for (i = 0; i < prm->k; i++) {
        pqpan_mlkem_poly_decompress(&u, c + PQPAN_MLKEM_N / 8 * prm->du * i, prm->du); /* 3 */
        pqpan_mlkem_ntt(u.c);
        pqpan_mlkem_poly_reduce(&u);
        pqpan_mlkem_mulcache(cache, u.c);
        pqpan_mlkem_poly_frombytes(&s, dk_pke + POLYBYTES * i); /* line 5 */
        pqpan_mlkem_basemul_acc(acc, s.c, u.c, cache);
    }
    pqpan_mlkem_poly_from_acc(&s, acc); /* line 6: w = v - NTT^-1(s^T o NTT(u)) */
    pqpan_mlkem_invntt(s.c);
    pqpan_mlkem_poly_decompress(&u, c + PQPAN_MLKEM_N / 8 * prm->du * prm->k, prm->dv); /* 4 */
    pqpan_mlkem_poly_sub(&s, &u, &s);
    pqpan_mlkem_poly_reduce(&s);
    pqpan_mlkem_poly_tomsg(m, &s); /* line 7 */

    pqpan_wipe(&s, sizeof s);
    pqpan_wipe(acc, sizeof acc);
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
static int keypair_derand(const struct mlkem_params *prm, const struct ntt_vec *s, uint8_t *ek,
                          uint8_t *dk, const uint8_t d[SYM], const uint8_t z[SYM])
{
    if (ek == NULL || dk == NULL || d == NULL || z == NULL) {
        if (ek != NULL) {
            memset(ek, 0, prm->ek_bytes);
        }
        if (dk != NULL) {
            memset(dk, 0, prm->dk_bytes);
        }
        return PQPAN_ERR_INVALID_ARG;
    }
    kpke_keygen(prm, s, ek, dk, d);
    memcpy(dk + dk_ek_offset(prm), ek, prm->ek_bytes);
    pqpan_sha3_256(dk + dk_hash_offset(prm), ek, prm->ek_bytes);
    memcpy(dk + dk_hash_offset(prm) + SYM, z, SYM);
    return PQPAN_OK;
}

/* ML-KEM.KeyGen (FIPS 203 Alg. 19): d, then z, from the random source. */
static int keypair(const struct mlkem_params *prm, const struct ntt_vec *s, uint8_t *ek,
                   uint8_t *dk, pqpan_rng_fn rng, void *rng_ctx)
{
    uint8_t d[SYM], z[SYM];
    int ret;
    if (rng == NULL) {
        ret = keypair_derand(prm, s, ek, dk, NULL, NULL);
        goto out;
    }
    if (rng(rng_ctx, d, SYM) != 0 || rng(rng_ctx, z, SYM) != 0) {
        (void)keypair_derand(prm, s, ek, dk, NULL, NULL); /* zeroes the outputs */
        ret = PQPAN_ERR_RNG;
        goto out;
    }
    ret = keypair_derand(prm, s, ek, dk, d, z);
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

/* ML-KEM.Encaps_internal (FIPS 203 Alg. 17) after the §7.2 input check. */
static int encaps_derand(const struct mlkem_params *prm, const struct ntt_vec *y, uint8_t *ct,
                         uint8_t *ss, const uint8_t *ek, const uint8_t m[SYM])
{
    uint8_t g_in[2 * SYM], k_r[2 * SYM];
    struct ct_sink sink;
    int ret;
    if (ct == NULL || ss == NULL || m == NULL) {
        ret = PQPAN_ERR_INVALID_ARG;
        goto fail;
    }
    ret = check_ek(prm, ek);
    if (ret != PQPAN_OK) {
        goto fail;
    }
    memcpy(g_in, m, SYM); /* line 1: (K, r) = G(m || H(ek)) */
    pqpan_sha3_256(g_in + SYM, ek, prm->ek_bytes);
    pqpan_sha3_512(k_r, g_in, sizeof g_in);
    sink.out = ct;
    sink.expected = NULL;
    (void)kpke_encrypt(prm, y, &sink, ek, m, k_r + SYM); /* line 2 */
    memcpy(ss, k_r, SYM);
    pqpan_wipe(g_in, sizeof g_in);
    pqpan_wipe(k_r, sizeof k_r);
    return PQPAN_OK;
fail:
    zero_ct_ss(prm, ct, ss);
    return ret;
}

/* ML-KEM.Encaps (FIPS 203 Alg. 20). */
static int encaps(const struct mlkem_params *prm, const struct ntt_vec *y, uint8_t *ct,
                  uint8_t *ss, const uint8_t *ek, pqpan_rng_fn rng, void *rng_ctx)
{
    uint8_t m[SYM];
    int ret;
    if (rng == NULL) {
        zero_ct_ss(prm, ct, ss);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (rng(rng_ctx, m, SYM) != 0) {
        zero_ct_ss(prm, ct, ss);
        ret = PQPAN_ERR_RNG;
        goto out;
    }
    ret = encaps_derand(prm, y, ct, ss, ek, m);
out:
    pqpan_wipe(m, sizeof m);
    return ret;
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

/* ML-KEM.Decaps (FIPS 203 Alg. 21): §7.3 check, then ML-KEM.Decaps_internal (Alg. 18)
 * with implicit rejection. */
static int decaps(const struct mlkem_params *prm, const struct ntt_vec *y, uint8_t *ss,
                  const uint8_t *ct, const uint8_t *dk)
{
    uint8_t m[SYM], g_in[2 * SYM], k_r[2 * SYM], k_bar[SYM];
    struct pqpan_shake256_ctx j_ctx;
    struct ct_sink sink;
    const uint8_t *ek, *h, *z;
    unsigned diff, same;
    int ret;

    if (ss == NULL || ct == NULL) {
        ret = PQPAN_ERR_INVALID_ARG;
        goto fail;
    }
    ret = check_dk(prm, dk);
    if (ret != PQPAN_OK) {
        goto fail;
    }
    ek = dk + dk_ek_offset(prm); /* Alg. 18 lines 1-4 */
    h = dk + dk_hash_offset(prm);
    z = h + SYM;

    kpke_decrypt(prm, m, dk, ct); /* line 5 */
    memcpy(g_in, m, SYM);         /* line 6: (K', r') = G(m' || h) */
    memcpy(g_in + SYM, h, SYM);
    pqpan_sha3_512(k_r, g_in, sizeof g_in);
    pqpan_shake256_init(&j_ctx); /* line 7: K_bar = J(z || c) */
    pqpan_shake256_absorb(&j_ctx, z, SYM);
    pqpan_shake256_absorb(&j_ctx, ct, prm->ct_bytes);
    pqpan_shake256_squeeze(&j_ctx, k_bar, SYM);
    sink.out = NULL; /* line 8, compared with c on the fly (line 9) */
    sink.expected = ct;
    diff = kpke_encrypt(prm, y, &sink, ek, m, k_r + SYM);
    same = 1u & ((diff - 1u) >> 8); /* diff <= 255: 1 iff diff == 0, without a branch */
    ct_select(k_r, k_bar, SYM, 1u - same); /* lines 9-11 */
    memcpy(ss, k_r, SYM);

    pqpan_wipe(m, sizeof m);
    pqpan_wipe(g_in, sizeof g_in);
    pqpan_wipe(k_r, sizeof k_r);
    pqpan_wipe(k_bar, sizeof k_bar);
    pqpan_wipe(&j_ctx, sizeof j_ctx);
    return PQPAN_OK;
fail:
    if (ss != NULL) {
        memset(ss, 0, SYM);
    }
    return ret;
}

/* The public entry points of one parameter set, all forwarding to the generic code; the
 * K-dependent vector storage lives here, sized for this set's k. */
#define PQPAN_MLKEM_DEFINE_API(N)                                                            \
    int pqpan_mlkem##N##_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t d[32],      \
                                        const uint8_t z[32])                                 \
    {                                                                                        \
        PQPAN_MLKEM_VEC(s, PQPAN_MLKEM##N##_K);                                              \
        return keypair_derand(&params##N, &s, ek, dk, d, z);                                 \
    }                                                                                        \
    int pqpan_mlkem##N##_keypair(uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng, void *rng_ctx) \
    {                                                                                        \
        PQPAN_MLKEM_VEC(s, PQPAN_MLKEM##N##_K);                                              \
        return keypair(&params##N, &s, ek, dk, rng, rng_ctx);                                \
    }                                                                                        \
    int pqpan_mlkem##N##_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,      \
                                       const uint8_t m[32])                                  \
    {                                                                                        \
        PQPAN_MLKEM_VEC(y, PQPAN_MLKEM##N##_K);                                              \
        return encaps_derand(&params##N, &y, ct, ss, ek, m);                                 \
    }                                                                                        \
    int pqpan_mlkem##N##_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,             \
                                pqpan_rng_fn rng, void *rng_ctx)                             \
    {                                                                                        \
        PQPAN_MLKEM_VEC(y, PQPAN_MLKEM##N##_K);                                              \
        return encaps(&params##N, &y, ct, ss, ek, rng, rng_ctx);                             \
    }                                                                                        \
    int pqpan_mlkem##N##_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk)       \
    {                                                                                        \
        PQPAN_MLKEM_VEC(y, PQPAN_MLKEM##N##_K);                                              \
        return decaps(&params##N, &y, ss, ct, dk);                                           \
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
            pqpan_mlkem##N##_check_dk                                                        \
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
