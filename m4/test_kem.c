/* ML-KEM on the Cortex-M4 against the NIST ACVP vectors embedded at build time
 * (m4/gen_acvp.cmake): keyGen (FIPS 203 Alg. 16), encapsulation (Alg. 17), decapsulation
 * with valid and modified ciphertexts (Alg. 18, implicit rejection), and the input checks
 * of §7.2 (encapsulation key) and §7.3 (decapsulation key), for every parameter set.
 * With the backend (PQPAN_M4_ASM), also its NTT, inverse NTT, base multiplications,
 * SamplePolyCBD_2 and _3, rejection step, Barrett reduction, Montgomery conversions, the
 * reduced ByteEncode_12 and the message's addition against the portable C on
 * pseudo-random inputs. */
#include <string.h>

#include "acvp_kat.h"
#include "check.h"
#include "crypto/m4/backend.h"
#include "crypto/mlkem/ntt.h"
#include "crypto/mlkem/poly.h"
#include "crypto/mlkem/sampling.h"
#include "kem_table.h"

static int equal(const uint8_t *a, const uint8_t *b, size_t len)
{
    return memcmp(a, b, len) == 0;
}

static void keygen(struct pqpan_m4_tally *t, const struct pqpan_m4_kem *kem, const struct pqpan_m4_kat_level *lv)
{
    uint8_t ek[PQPAN_M4_MAX_EK], dk[PQPAN_M4_MAX_DK];
    for (size_t i = 0; i < lv->n_keygen; i++) {
        const struct pqpan_m4_kat_keygen *v = &lv->keygen[i];
        int rc = kem->keypair_derand(ek, dk, v->d, v->z);
        pqpan_m4_check(t, rc == 0 && equal(ek, v->ek, kem->ek_bytes) && equal(dk, v->dk, kem->dk_bytes),
                       "keyGen", v->tc_id);
    }
}

static void encaps(struct pqpan_m4_tally *t, const struct pqpan_m4_kem *kem, const struct pqpan_m4_kat_level *lv)
{
    uint8_t ct[PQPAN_M4_MAX_CT], ss[32];
    for (size_t i = 0; i < lv->n_encaps; i++) {
        const struct pqpan_m4_kat_encaps *v = &lv->encaps[i];
        int rc = kem->encaps_derand(ct, ss, v->ek, v->m);
        pqpan_m4_check(t, rc == 0 && equal(ct, v->c, kem->ct_bytes) && equal(ss, v->k, 32), "encapsulation",
                       v->tc_id);
    }
}

static void decaps(struct pqpan_m4_tally *t, const struct pqpan_m4_kem *kem, const struct pqpan_m4_kat_level *lv)
{
    uint8_t ss[32];
    for (size_t i = 0; i < lv->n_decaps; i++) {
        const struct pqpan_m4_kat_decaps *v = &lv->decaps[i];
        int rc = kem->decaps(ss, v->c, v->dk);
        pqpan_m4_check(t, rc == 0 && equal(ss, v->k, 32), "decapsulation", v->tc_id);
        memset(ss, 0, sizeof ss); /* the vector's dk passes §7.3: the unchecked entry agrees */
        rc = kem->decaps_checked_dk(ss, v->c, v->dk);
        pqpan_m4_check(t, rc == 0 && equal(ss, v->k, 32), "decapsulation (checked dk)", v->tc_id);
    }
}

/* §7.2 through the fixed-size API: an ACVP key of the wrong length is refused by its
 * length alone; a key of the right length must give the expected result, and a failure
 * must come with zeroed outputs. */
static int encaps_rejects(const struct pqpan_m4_kem *kem, const uint8_t *ek)
{
    static const uint8_t m[32] = {1};
    uint8_t ct[PQPAN_M4_MAX_CT], ss[32];
    int rc = kem->encaps_derand(ct, ss, ek, m);
    return rc < 0 && pqpan_m4_all_zero(ct, kem->ct_bytes) && pqpan_m4_all_zero(ss, 32);
}

static void ek_check(struct pqpan_m4_tally *t, const struct pqpan_m4_kem *kem, const struct pqpan_m4_kat_level *lv)
{
    uint8_t ek[PQPAN_M4_MAX_EK];
    for (size_t i = 0; i < lv->n_ek_check; i++) {
        const struct pqpan_m4_kat_check *v = &lv->ek_check[i];
        int right_length = v->key_len == kem->ek_bytes;
        int ok = v->passed ? right_length && !encaps_rejects(kem, v->key)
                           : !right_length || encaps_rejects(kem, v->key);
        pqpan_m4_check(t, ok, "encapsulationKeyCheck", v->tc_id);
    }
    /* The modulus check itself (ByteEncode12(ByteDecode12(ek)) == ek): a valid ek whose
     * first 12-bit coefficient is set to 4095 >= q. */
    memcpy(ek, lv->keygen[0].ek, kem->ek_bytes);
    ek[0] = 0xff;
    ek[1] |= 0x0f;
    pqpan_m4_check(t, encaps_rejects(kem, ek), "ek coefficient >= q", lv->keygen[0].tc_id);
}

/* §7.3: decapsulation with a failing key must return an error and a zeroed output. */
static void dk_check(struct pqpan_m4_tally *t, const struct pqpan_m4_kem *kem, const struct pqpan_m4_kat_level *lv)
{
    static const uint8_t ct[PQPAN_M4_MAX_CT] = {0};
    uint8_t ss[32];
    for (size_t i = 0; i < lv->n_dk_check; i++) {
        const struct pqpan_m4_kat_check *v = &lv->dk_check[i];
        int rc = kem->decaps(ss, ct, v->key);
        int ok = v->key_len == kem->dk_bytes && (v->passed ? rc == 0 : rc < 0 && pqpan_m4_all_zero(ss, 32));
        pqpan_m4_check(t, ok, "decapsulationKeyCheck", v->tc_id);
    }
}

#ifdef PQPAN_M4_ASM
/* Both base multiplications on pseudo-random operands: values below 2^12 in magnitude
 * (the bound of both functions' inputs) as int16 and 12-bit values as ByteEncode_12 bytes, accumulating into a
 * polynomial with coefficients in (-q, q); the _bytes form on one run of factors. */
static void basemul_against_portable(struct pqpan_m4_tally *t, uint64_t *seed, uint32_t run)
{
    int16_t m4[PQPAN_MLKEM_N], c[PQPAN_MLKEM_N], a[2 * PQPAN_MLKEM_BASEMUL_RUN];
    uint8_t ea[PQPAN_MLKEM_POLYBYTES], eb[PQPAN_MLKEM_POLYBYTES];
    const unsigned first = (run % (PQPAN_MLKEM_N / 2 / PQPAN_MLKEM_BASEMUL_RUN)) * PQPAN_MLKEM_BASEMUL_RUN;
    for (size_t i = 0; i < PQPAN_MLKEM_N; i++) {
        m4[i] = c[i] = (int16_t)((int32_t)(pqpan_m4_random(seed) % (2 * PQPAN_MLKEM_Q - 1)) - (PQPAN_MLKEM_Q - 1));
    }
    for (size_t i = 0; i < sizeof ea; i++) {
        ea[i] = (uint8_t)pqpan_m4_random(seed);
        eb[i] = (uint8_t)pqpan_m4_random(seed);
    }
    for (size_t i = 0; i < 2 * PQPAN_MLKEM_BASEMUL_RUN; i++) { /* |a_i| < 2^12, signed as in decaps */
        a[i] = (int16_t)((int32_t)(pqpan_m4_random(seed) % 8191) - 4095);
    }
    pqpan_mlkem_basemul_acc_encoded(m4, ea, eb);
    pqpan_mlkem_basemul_acc_encoded_portable(c, ea, eb);
    pqpan_m4_check(t, equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c), "basemul_acc_encoded vs portable", run);
    pqpan_mlkem_basemul_acc_bytes(m4, a, eb, first, PQPAN_MLKEM_BASEMUL_RUN);
    pqpan_mlkem_basemul_acc_bytes_portable(c, a, eb, first, PQPAN_MLKEM_BASEMUL_RUN);
    pqpan_m4_check(t, equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c), "basemul_acc_bytes vs portable", run);
}

/* A SamplePolyCBD_eta piece, the backend's against the portable C. */
struct cbd_pair {
    const char *name, *add_name;
    void (*m4)(int16_t *c, const uint8_t *buf, int add);
    void (*portable)(int16_t *c, const uint8_t *buf, int add);
    size_t bytes;  /* 64 x 2 eta / 8: 32 (eta 2) or 48 (eta 3) */
    int ones_run0; /* run 0's bytes all 0xFF: every x and y at eta */
};

/* p's piece, written and added, on pseudo-random PRF bytes. */
static void cbd_against_portable(struct pqpan_m4_tally *t, uint64_t *seed, uint32_t run,
                                 const struct cbd_pair *p)
{
    int16_t m4[64], c[64];
    uint8_t buf[48];
    for (size_t i = 0; i < p->bytes; i++) {
        buf[i] = (uint8_t)(run == 0 && p->ones_run0 ? 0xFF : pqpan_m4_random(seed));
    }
    for (size_t i = 0; i < 64; i++) {
        m4[i] = c[i] = (int16_t)pqpan_m4_random(seed);
    }
    p->m4(m4, buf, 1);
    p->portable(c, buf, 1);
    pqpan_m4_check(t, equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c), p->add_name, run);
    p->m4(m4, buf, 0);
    p->portable(c, buf, 0);
    pqpan_m4_check(t, equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c), p->name, run);
}

static const struct cbd_pair cbd2_pair = {"cbd2 vs portable", "cbd2 add vs portable",
                                          pqpan_mlkem_cbd2_piece,
                                          pqpan_mlkem_cbd2_piece_portable, 32, 0};
static const struct cbd_pair cbd3_pair = {"cbd3 vs portable", "cbd3 add vs portable",
                                          pqpan_mlkem_cbd3_piece,
                                          pqpan_mlkem_cbd3_piece_portable, 48, 1};

/* One rejection step from count and byte pos on buf in both versions: 1 if count, position
 * and all 65 places agree. */
static int rej_case(const uint8_t buf[84 + 2], unsigned count, size_t pos, uint64_t *seed)
{
    int16_t m4[65], c[65];
    size_t pos_m4 = pos, pos_c = pos;
    unsigned n_m4, n_c;
    for (size_t i = 0; i < 65; i++) {
        m4[i] = c[i] = (int16_t)pqpan_m4_random(seed);
    }
    n_m4 = pqpan_mlkem_rej_uniform(m4, count, 64, buf, 84, &pos_m4);
    n_c = pqpan_mlkem_rej_uniform_portable(c, count, 64, buf, 84, &pos_c);
    return n_m4 == n_c && pos_m4 == pos_c && equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c);
}

/* SampleNTT's rejection step on a 84-byte piece (SHAKE128's half block, as
 * pqpan_mlkem_matacc squeezes it) from a pseudo-random start triple and count up to the
 * part's 64 values: the bytes pseudo-random, then in run 0 all 0xFF (every candidate
 * rejected) and in run 1 all zero (every one accepted) from the first triple with every
 * start count 0 .. 64, which meets each loop's bound. */
static void rej_against_portable(struct pqpan_m4_tally *t, uint64_t *seed, uint32_t run)
{
    uint8_t buf[84 + 2];
    int same = 1;
    for (size_t i = 0; i < sizeof buf; i++) {
        buf[i] = (uint8_t)(run == 0 ? 0xFF : run == 1 ? 0 : pqpan_m4_random(seed));
    }
    if (run == 1) { /* every candidate accepted: every start count, so each loop's bound is met */
        for (unsigned count = 0; count <= 64; count++) {
            same &= rej_case(buf, count, 0, seed);
        }
    } else {
        same = rej_case(buf, (unsigned)(pqpan_m4_random(seed) % 65), 3 * (size_t)(pqpan_m4_random(seed) % 29), seed);
    }
    pqpan_m4_check(t, same, "rej_uniform vs portable", run);
}

/* a and b set to the same coefficients over the whole int16 range: in run 0 INT16_MAX and
 * INT16_MIN alternately, else pseudo-random. */
static void same_int16_polys(struct mlkem_poly *a, struct mlkem_poly *b, uint64_t *seed, uint32_t run)
{
    for (size_t i = 0; i < PQPAN_MLKEM_N; i++) {
        a->c[i] = b->c[i] = (int16_t)(run == 0 ? (i % 2 ? INT16_MIN : INT16_MAX) : (int32_t)(pqpan_m4_random(seed) & 0xFFFF) - 32768);
    }
}

/* The Barrett reduction of a polynomial over the whole int16 range. */
static void reduce_against_portable(struct pqpan_m4_tally *t, uint64_t *seed, uint32_t run)
{
    struct mlkem_poly m4, c;
    same_int16_polys(&m4, &c, seed, run);
    pqpan_mlkem_poly_reduce(&m4);
    pqpan_mlkem_poly_reduce_portable(&c);
    pqpan_m4_check(t, equal((const uint8_t *)m4.c, (const uint8_t *)c.c, sizeof c.c), "poly_reduce vs portable", run);
}

/* ByteEncode_12 of the reduced polynomial and of p R over the whole int16 range (run 0: the
 * extremes), and the message's addition (run 0: all bits set) to coefficients over the
 * whole range (the int16 wrap-around of the sums included). */
static void encode_msg_against_portable(struct pqpan_m4_tally *t, uint64_t *seed, uint32_t run)
{
    struct mlkem_poly m4, c;
    uint8_t enc_m4[PQPAN_MLKEM_POLYBYTES], enc_c[PQPAN_MLKEM_POLYBYTES], msg[PQPAN_MLKEM_SYMBYTES];
    same_int16_polys(&m4, &c, seed, run);
    pqpan_mlkem_poly_reduce_tobytes(enc_m4, &m4);
    pqpan_mlkem_poly_reduce_tobytes_portable(enc_c, &c);
    pqpan_m4_check(t, equal(enc_m4, enc_c, sizeof enc_c), "poly_reduce_tobytes vs portable", run);
    same_int16_polys(&m4, &c, seed, run);
    pqpan_mlkem_poly_tomont_tobytes(enc_m4, &m4);
    pqpan_mlkem_poly_tomont_tobytes_portable(enc_c, &c);
    pqpan_m4_check(t, equal(enc_m4, enc_c, sizeof enc_c), "poly_tomont_tobytes vs portable", run);
    same_int16_polys(&m4, &c, seed, run);
    for (size_t i = 0; i < sizeof msg; i++) {
        msg[i] = (uint8_t)(run == 0 ? 0xFF : pqpan_m4_random(seed));
    }
    pqpan_mlkem_poly_add_msg(&m4, msg);
    pqpan_mlkem_poly_add_msg_portable(&c, msg);
    pqpan_m4_check(t, equal((const uint8_t *)m4.c, (const uint8_t *)c.c, sizeof c.c), "poly_add_msg vs portable", run);
}

/* Into and out of the Montgomery domain over the whole int16 range (run 0: the extremes). */
static void mont_against_portable(struct pqpan_m4_tally *t, uint64_t *seed, uint32_t run)
{
    struct mlkem_poly m4, c;
    same_int16_polys(&m4, &c, seed, run);
    pqpan_mlkem_poly_tomont(&m4);
    pqpan_mlkem_poly_tomont_portable(&c);
    pqpan_m4_check(t, equal((const uint8_t *)m4.c, (const uint8_t *)c.c, sizeof c.c), "poly_tomont vs portable", run);
    same_int16_polys(&m4, &c, seed, run);
    pqpan_mlkem_poly_frommont(&m4);
    pqpan_mlkem_poly_frommont_portable(&c);
    pqpan_m4_check(t, equal((const uint8_t *)m4.c, (const uint8_t *)c.c, sizeof c.c), "poly_frommont vs portable", run);
}

/* The backend's transforms equal the portable C coefficient for coefficient on 64
 * polynomials with coefficients in the input range of each (ntt.h): [-(q-1), q-1] for the
 * NTT, [-(4q-1), 4q-1] for the inverse; the last one at the bounds, alternately +
 * and -. */
static void kernels_against_portable(struct pqpan_m4_tally *t)
{
    uint64_t seed = 0x2545f4914f6cdd1dULL;
    for (uint32_t run = 0; run < 64; run++) {
        int16_t m4[PQPAN_MLKEM_N], c[PQPAN_MLKEM_N];
        for (size_t i = 0; i < PQPAN_MLKEM_N; i++) {
            int32_t v = (int32_t)(pqpan_m4_random(&seed) % (2 * PQPAN_MLKEM_Q - 1)) - (PQPAN_MLKEM_Q - 1);
            m4[i] = (int16_t)(run == 63 ? (i % 2 ? -(PQPAN_MLKEM_Q - 1) : PQPAN_MLKEM_Q - 1) : v);
        }
        memcpy(c, m4, sizeof c);
        pqpan_mlkem_ntt(m4);
        pqpan_mlkem_ntt_portable(c);
        pqpan_m4_check(t, equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c), "ntt vs portable", run);
        for (size_t i = 0; i < PQPAN_MLKEM_N; i++) {
            const int32_t bound = 4 * PQPAN_MLKEM_Q - 1;
            int32_t v = (int32_t)(pqpan_m4_random(&seed) % (uint64_t)(2 * bound + 1)) - bound;
            m4[i] = c[i] = (int16_t)(run == 63 ? (i % 2 ? -bound : bound) : v);
        }
        pqpan_mlkem_invntt(m4);
        pqpan_mlkem_invntt_portable(c);
        pqpan_m4_check(t, equal((const uint8_t *)m4, (const uint8_t *)c, sizeof c), "invntt vs portable", run);
        basemul_against_portable(t, &seed, run);
        cbd_against_portable(t, &seed, run, &cbd2_pair);
        cbd_against_portable(t, &seed, run, &cbd3_pair);
        rej_against_portable(t, &seed, run);
        reduce_against_portable(t, &seed, run);
        mont_against_portable(t, &seed, run);
        encode_msg_against_portable(t, &seed, run);
    }
}
#endif

struct pqpan_m4_tally pqpan_m4_test_kem(void)
{
    struct pqpan_m4_tally t = {0, 0};
#ifdef PQPAN_M4_ASM
    kernels_against_portable(&t);
#endif
    for (size_t l = 0; l < PQPAN_M4_KEMS; l++) {
        const struct pqpan_m4_kem *kem = &pqpan_m4_kems[l];
        const struct pqpan_m4_kat_level *lv = &pqpan_m4_kat_levels[l];
        keygen(&t, kem, lv);
        encaps(&t, kem, lv);
        decaps(&t, kem, lv);
        ek_check(&t, kem, lv);
        dk_check(&t, kem, lv);
    }
    return t;
}
