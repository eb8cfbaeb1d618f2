/* P-256 ECDH on the Cortex-M4 (src/crypto/p256/):
 *   every NIST CAVP ECC CDH primitive case for P-256 (m4/gen_ecc_cdh.cmake embeds
 *   tests/vectors/ecc-cdh/): dIUT -> QIUT, ZIUT from QCAVS uncompressed and compressed;
 *   RFC 5903 §8.1 (256-bit random ECP group): both key pairs and g^ir both ways;
 *   Bluetooth Core v5.4 Vol 3 Part H Appendix D.1, whose Private A / Public A are the
 *   §2.3.5.6.1 debug key pair: both key pairs and the DHKey both ways;
 *   public-key validation: off the curve, a coordinate >= p, the point at infinity and a
 *   private key of 0 or n rejected, with zeroed outputs;
 *   with the backend in the speed build (PQPAN_M4_ASM, PQPAN_P256_IMPL=speed), its field
 *   product, sum and difference (src/crypto/m4/p256_fe_m4.S) against field.c's on edge
 *   values and pseudo-random ones, each also with the result over an operand. */
#include <string.h>

#include "check.h"
#include "crypto/m4/backend.h"
#include "crypto/p256/p256.h"
#include "ecc_cdh_kat.h"
#include "pqpan/ecdh.h"

#define PK PQPAN_ECDH_P256_PUBLIC_BYTES
#define COORD PQPAN_ECDH_P256_COORD_BYTES

/* Two key pairs and their shared x-coordinate, hex as the sources print them. */
struct pair_case {
    const char *name;
    const char *da, *ax, *ay, *db, *bx, *by, *shared;
};

static const struct pair_case pairs[] = {
    {"rfc5903 8.1", "c88f01f510d9ac3f70a292daa2316de544e9aab8afe84049c62a9c57862d1433",
     "dad0b65394221cf9b051e1feca5787d098dfe637fc90b9ef945d0c3772581180",
     "5271a0461cdb8252d61f1c456fa3e59ab1f45b33accf5f58389e0577b8990bb3",
     "c6ef9c5d78ae012a011164acb397ce2088685d8f06bf9be0b283ab46476bee53",
     "d12dfb5289c8d4f81208b70270398c342296970a0bccb74c736fc7554494bf63",
     "56fbf3ca366cc23e8157854c13c58d6aac23f046ada30f8353e74f33039872ab",
     "d6840f6b42f6edafd13116e0e12565202fef8e9ece7dce03812464d04b9442de"},
    {"bt D.1 / debug key", "3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd",
     "20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6",
     "dc809c49652aeb6d63329abf5a52155c766345c28fed3024741c8ed01589d28b",
     "55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd",
     "1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190",
     "4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214a",
     "ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698"},
};

/* 04 || x || y from two hex coordinates. */
static int public_from_hex(uint8_t pk[PK], const char *x, const char *y)
{
    pk[0] = 0x04;
    return pqpan_m4_from_hex(pk + 1, COORD, x) && pqpan_m4_from_hex(pk + 1 + COORD, COORD, y);
}

/* Private key d gives the public key (x, y). */
static int keypair_gives(const char *d, const char *x, const char *y)
{
    uint8_t sk[32], want[PK], got[PK];
    return pqpan_m4_from_hex(sk, 32, d) && public_from_hex(want, x, y) &&
           pqpan_ecdh_p256_keypair_derand(got, sk) == PQPAN_OK && memcmp(got, want, PK) == 0;
}

/* Private key d with the peer's (x, y), given uncompressed (compressed = 0) or
 * compressed, gives the shared x-coordinate z. */
static int shared_gives(const char *d, const char *x, const char *y, int compressed, const char *z)
{
    uint8_t sk[32], pk[PK], c[PQPAN_ECDH_P256_COMPRESSED_BYTES], ss[32];
    const uint8_t *peer = pk;
    size_t len = PK;
    if (!pqpan_m4_from_hex(sk, 32, d) || !public_from_hex(pk, x, y)) {
        return 0;
    }
    if (compressed) {
        if (pqpan_ecdh_p256_public_compress(c, pk, PK) != PQPAN_OK) {
            return 0;
        }
        peer = c;
        len = sizeof c;
    }
    return pqpan_ecdh_p256_shared(ss, sk, peer, len) == PQPAN_OK && pqpan_m4_equal_hex(ss, 32, z);
}

static void cavp(struct pqpan_m4_tally *t)
{
    for (unsigned i = 0; i < pqpan_m4_cdh_count; i++) {
        const struct pqpan_m4_cdh_case *c = &pqpan_m4_cdh_cases[i];
        pqpan_m4_check(t, keypair_gives(c->d_iut, c->qiut_x, c->qiut_y), "cavp cdh keygen", c->count);
        pqpan_m4_check(t, shared_gives(c->d_iut, c->qcavs_x, c->qcavs_y, 0, c->z_iut), "cavp cdh Z",
                       c->count);
        pqpan_m4_check(t, shared_gives(c->d_iut, c->qcavs_x, c->qcavs_y, 1, c->z_iut),
                       "cavp cdh Z compressed", c->count);
    }
    pqpan_m4_check(t, pqpan_m4_cdh_count == 25, "cavp cdh case count", pqpan_m4_cdh_count);
}

static void pairs_both_ways(struct pqpan_m4_tally *t)
{
    for (uint32_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        const struct pair_case *c = &pairs[i];
        pqpan_m4_check(t, keypair_gives(c->da, c->ax, c->ay), c->name, i);
        pqpan_m4_check(t, keypair_gives(c->db, c->bx, c->by), c->name, i);
        pqpan_m4_check(t, shared_gives(c->da, c->bx, c->by, 0, c->shared), c->name, i);
        pqpan_m4_check(t, shared_gives(c->db, c->ax, c->ay, 1, c->shared), c->name, i);
    }
}

/* A rejected public key gives PQPAN_ERR_BAD_KEY and a zeroed secret. */
static int rejected(const uint8_t *pk, size_t len)
{
    uint8_t sk[32] = {1}, ss[32];
    memset(ss, 0xff, sizeof ss);
    return pqpan_ecdh_p256_shared(ss, sk, pk, len) == PQPAN_ERR_BAD_KEY && pqpan_m4_all_zero(ss, sizeof ss);
}

static void validation(struct pqpan_m4_tally *t)
{
    static const char p_hex[] = "ffffffff00000001000000000000000000000000ffffffffffffffffffffffff";
    static const char n_hex[] = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
    const struct pair_case *c = &pairs[0];
    uint8_t pk[PK], sk[32], out[PK];
    static const uint8_t infinity[1] = {0x00};

    public_from_hex(pk, c->ax, c->ay);
    pk[PK - 1] ^= 1u; /* y + 1 or y - 1: off the curve */
    pqpan_m4_check(t, rejected(pk, PK), "off-curve point rejected", 1);
    public_from_hex(pk, p_hex, c->ay);
    pqpan_m4_check(t, rejected(pk, PK), "x = p rejected", 2);
    pqpan_m4_check(t, rejected(infinity, sizeof infinity), "point at infinity rejected", 3);
    memset(sk, 0, sizeof sk);
    memset(out, 0xff, sizeof out);
    pqpan_m4_check(t, pqpan_ecdh_p256_keypair_derand(out, sk) == PQPAN_ERR_BAD_KEY && pqpan_m4_all_zero(out, PK),
                   "private key 0 rejected", 4);
    pqpan_m4_from_hex(sk, 32, n_hex);
    pqpan_m4_check(t, pqpan_ecdh_p256_keypair_derand(out, sk) == PQPAN_ERR_BAD_KEY, "private key n rejected", 5);
}

#if defined(PQPAN_M4_ASM) && !defined(PQPAN_P256_SMALL)
#define FIELD_RUNS 300
#define FIELD_EDGES 9

/* Operand number i: the first ones 0, 1, 2, p - 1, p - 2, 2^224 - 1, 2^255,
 * 2^256 - 2^224 - 1 (the largest value below p with a top limb under p's) and
 * sum 2^31 2^(32 j) (every limb's top bit: each cross product's doubled bit carries)
 * (limbs, least significant first; SP 800-186 §3.2.1.3 for p), then pseudo-random
 * values below p. */
static void field_operand(uint32_t a[P256_LIMBS], uint32_t i, uint64_t *seed)
{
    static const uint32_t edges[FIELD_EDGES][P256_LIMBS] = {
        {0, 0, 0, 0, 0, 0, 0, 0},
        {1, 0, 0, 0, 0, 0, 0, 0},
        {2, 0, 0, 0, 0, 0, 0, 0},
        {0xfffffffeu, 0xffffffffu, 0xffffffffu, 0, 0, 0, 1, 0xffffffffu},
        {0xfffffffdu, 0xffffffffu, 0xffffffffu, 0, 0, 0, 1, 0xffffffffu},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0},
        {0, 0, 0, 0, 0, 0, 0, 0x80000000u},
        {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu,
         0xfffffffeu},
        {0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u, 0x80000000u,
         0x80000000u}};
    const uint32_t n_edges = sizeof edges / sizeof edges[0];
    if (i < n_edges) {
        memcpy(a, edges[i], sizeof edges[i]);
        return;
    }
    do {
        for (unsigned l = 0; l < P256_LIMBS; l++) {
            a[l] = (uint32_t)pqpan_m4_random(seed);
        }
    } while (!pqpan_p256_below_p(a));
}

typedef void field_op_m4(uint32_t r[8], const uint32_t a[8], const uint32_t b[8]);
typedef void field_op_c(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *a,
                        const struct pqpan_p256_fe *b);

/* pqpan_p256_m4_sqr(a) == field.c's a a, into a third buffer and over a. */
static int square_agrees(const struct pqpan_p256_fe *a)
{
    struct pqpan_p256_fe want, got, over = *a;
    pqpan_p256_fe_mul(&want, a, a);
    pqpan_p256_m4_sqr(got.w, a->w);
    pqpan_p256_m4_sqr(over.w, over.w);
    return memcmp(&got, &want, sizeof want) == 0 && memcmp(&over, &want, sizeof want) == 0;
}

/* pqpan_p256_m4_half(a) is below p and twice it is a by field.c, into a third buffer
 * and over a. */
static int half_agrees(const struct pqpan_p256_fe *a)
{
    struct pqpan_p256_fe got, twice, over = *a;
    pqpan_p256_m4_half(got.w, a->w);
    pqpan_p256_m4_half(over.w, over.w);
    pqpan_p256_fe_add(&twice, &got, &got);
    return pqpan_p256_below_p(got.w) && memcmp(&twice, a, sizeof twice) == 0 &&
           memcmp(&over, &got, sizeof got) == 0;
}

/* op_m4(a, b) == op_c(a, b), into a third buffer and over a. */
static int field_op_agrees(field_op_m4 *op_m4, field_op_c *op_c, const struct pqpan_p256_fe *a,
                           const struct pqpan_p256_fe *b)
{
    struct pqpan_p256_fe want, got, over = *a;
    op_c(&want, a, b);
    op_m4(got.w, a->w, b->w);
    op_m4(over.w, over.w, b->w);
    return memcmp(&got, &want, sizeof want) == 0 && memcmp(&over, &want, sizeof want) == 0;
}

static void field_against_portable(struct pqpan_m4_tally *t)
{
    uint64_t seed = 0x5032353666656d34u;
    for (uint32_t i = 0; i < FIELD_RUNS; i++) {
        struct pqpan_p256_fe a, b;
        field_operand(a.w, i % 16 < FIELD_EDGES ? i % 16 : i, &seed);
        field_operand(b.w, i / 16 < FIELD_EDGES ? i / 16 : i, &seed);
        pqpan_m4_check(t, field_op_agrees(pqpan_p256_m4_mul, pqpan_p256_fe_mul, &a, &b), "p256 m4 mul vs field.c", i);
        pqpan_m4_check(t, field_op_agrees(pqpan_p256_m4_add, pqpan_p256_fe_add, &a, &b), "p256 m4 add vs field.c", i);
        pqpan_m4_check(t, field_op_agrees(pqpan_p256_m4_sub, pqpan_p256_fe_sub, &a, &b), "p256 m4 sub vs field.c", i);
        pqpan_m4_check(t, square_agrees(&a), "p256 m4 sqr vs field.c", i);
        pqpan_m4_check(t, half_agrees(&a), "p256 m4 half: twice it by field.c", i);
    }
}
#endif

struct pqpan_m4_tally pqpan_m4_test_ecdh(void)
{
    struct pqpan_m4_tally t = {0, 0};
#if defined(PQPAN_M4_ASM) && !defined(PQPAN_P256_SMALL)
    field_against_portable(&t);
#endif
    cavp(&t);
    pairs_both_ways(&t);
    validation(&t);
    return t;
}
