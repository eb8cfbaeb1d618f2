/* Tests for src/crypto/p256 against published values, each case counted:
 *
 * - NIST CAVP ECC CDH primitive vectors for P-256 (KAS_ECC_CDH_PrimitiveTest.txt, CAVS
 *   14.1, tests/vectors/ecc-cdh/, 25 cases): dIUT gives QIUT, and dIUT with QCAVS gives
 *   ZIUT, with QCAVS uncompressed and compressed;
 * - RFC 5903 §8.1 (the 256-bit random ECP group): both key pairs and g^ir from each side;
 * - the Bluetooth Core v5.4 LE Secure Connections debug key pair (Vol 3 Part H
 *   §2.3.5.6.1) and the P-256 sample data of Vol 3 Part H Appendix D.1 (two key pairs and
 *   their DHKey), as printed there (most significant octet first);
 * - SEC 1 / SP 800-56A §5.6.2.3.3 rejections (infinity, coordinates >= p, off-curve
 *   points, x with no square root, bad encodings) and private-key ranges;
 * - the complete formulas (RCB 2016) on the cases incomplete ones get wrong: P + P,
 *   P + (-P), P + O, O + O, against doubling and scalar identities. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "crypto/p256/p256.h"
#include "pqpan/io.h"
#include "pqpan/ecdh.h"

#define PK_BYTES PQPAN_ECDH_P256_PUBLIC_BYTES
#define CPK_BYTES PQPAN_ECDH_P256_COMPRESSED_BYTES

static void hex32(uint8_t out[32], const char *hex)
{
    assert_int_equal(strlen(hex), 64);
    assert_int_equal(cli_hex_decode(out, 32, hex), 0);
}

/* 04 || X || Y from two hex coordinates. */
static void public_hex(uint8_t out[PK_BYTES], const char *x, const char *y)
{
    out[0] = 0x04;
    hex32(out + 1, x);
    hex32(out + 33, y);
}

static void assert_hex32(const uint8_t got[32], const char *hex)
{
    uint8_t want[32];
    hex32(want, hex);
    assert_memory_equal(got, want, 32);
}

static int all_zero(const uint8_t *p, size_t len)
{
    uint8_t acc = 0;
    size_t i;
    for (i = 0; i < len; i++) {
        acc |= p[i];
    }
    return acc == 0;
}

/* ---- NIST CAVP ---- */

struct cdh_case {
    char qx[65], qy[65], d[65], px[65], py[65], z[65];
};

/* The value of "NAME = hex" in line, copied into out if the name matches. */
static int take_field(char out[65], const char *line, const char *name)
{
    size_t n = strlen(name);
    if (strncmp(line, name, n) != 0 || strncmp(line + n, " = ", 3) != 0) {
        return 0;
    }
    assert_true(strlen(line + n + 3) >= 64);
    memcpy(out, line + n + 3, 64);
    out[64] = '\0';
    return 1;
}

static void run_cdh_case(const struct cdh_case *c)
{
    uint8_t d[32], q[PK_BYTES], p[PK_BYTES], got[PK_BYTES], cq[CPK_BYTES], ss[32];
    hex32(d, c->d);
    public_hex(q, c->qx, c->qy);
    public_hex(p, c->px, c->py);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(got, d), PQPAN_OK);
    assert_memory_equal(got, p, PK_BYTES);
    assert_int_equal(pqpan_ecdh_p256_shared(ss, d, q, PK_BYTES), PQPAN_OK);
    assert_hex32(ss, c->z);
    assert_int_equal(pqpan_ecdh_p256_public_compress(cq, q, PK_BYTES), PQPAN_OK);
    memset(ss, 0, sizeof ss);
    assert_int_equal(pqpan_ecdh_p256_shared(ss, d, cq, CPK_BYTES), PQPAN_OK);
    assert_hex32(ss, c->z);
    assert_int_equal(pqpan_ecdh_p256_public_decode(got, cq, CPK_BYTES), PQPAN_OK);
    assert_memory_equal(got, q, PK_BYTES);
}

static void test_cavp_cdh(void **state)
{
    char path[1024], err[256];
    struct pqpan_io_text t;
    struct cdh_case c;
    const char *line;
    unsigned fields = 0, cases = 0;
    int in_p256 = 0;
    (void)state;
    snprintf(path, sizeof path, "%s/ecc-cdh/KAS_ECC_CDH_PrimitiveTest_P256.txt", PQPAN_VECTORS_DIR);
    assert_int_equal(pqpan_io_read_file(&t, path, PQPAN_IO_FILE_MAX, err, sizeof err), PQPAN_OK);
    memset(&c, 0, sizeof c);
    for (line = t.text; line != NULL && *line != '\0';) {
        const char *next = strchr(line, '\n');
        if (line[0] == '[') {
            in_p256 = strncmp(line, "[P-256]", 7) == 0;
        } else if (in_p256) {
            fields += (unsigned)(take_field(c.qx, line, "QCAVSx") + take_field(c.qy, line, "QCAVSy") +
                                 take_field(c.d, line, "dIUT") + take_field(c.px, line, "QIUTx") +
                                 take_field(c.py, line, "QIUTy"));
            if (take_field(c.z, line, "ZIUT")) {
                assert_int_equal(fields, 5); /* a complete case */
                run_cdh_case(&c);
                cases++;
                fields = 0;
            }
        }
        line = next != NULL ? next + 1 : NULL;
    }
    pqpan_io_text_free(&t);
    assert_int_equal(cases, 25); /* every P-256 case of the file ran */
}

/* Two published key pairs (private keys and public coordinates as hex) and their shared
 * x-coordinate: each private key gives its public key, and each side computes the secret. */
struct pair_case {
    const char *da, *ax, *ay, *db, *bx, *by, *shared;
};

static void check_pair(const struct pair_case *c)
{
    uint8_t da[32], db[32], pa[PK_BYTES], pb[PK_BYTES], got[PK_BYTES], ss[32];
    hex32(da, c->da);
    hex32(db, c->db);
    public_hex(pa, c->ax, c->ay);
    public_hex(pb, c->bx, c->by);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(got, da), PQPAN_OK);
    assert_memory_equal(got, pa, PK_BYTES);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(got, db), PQPAN_OK);
    assert_memory_equal(got, pb, PK_BYTES);
    assert_int_equal(pqpan_ecdh_p256_shared(ss, da, pb, PK_BYTES), PQPAN_OK);
    assert_hex32(ss, c->shared);
    assert_int_equal(pqpan_ecdh_p256_shared(ss, db, pa, PK_BYTES), PQPAN_OK);
    assert_hex32(ss, c->shared);
}

/* RFC 5903 §8.1: i, g^i, r, g^r, and the x of g^ir. */
static void test_rfc5903(void **state)
{
    static const struct pair_case c = {
        "C88F01F510D9AC3F70A292DAA2316DE544E9AAB8AFE84049C62A9C57862D1433",
        "DAD0B65394221CF9B051E1FECA5787D098DFE637FC90B9EF945D0C3772581180",
        "5271A0461CDB8252D61F1C456FA3E59AB1F45B33ACCF5F58389E0577B8990BB3",
        "C6EF9C5D78AE012A011164ACB397CE2088685D8F06BF9BE0B283AB46476BEE53",
        "D12DFB5289C8D4F81208B70270398C342296970A0BCCB74C736FC7554494BF63",
        "56FBF3CA366CC23E8157854C13C58D6AAC23F046ADA30F8353E74F33039872AB",
        "D6840F6B42F6EDAFD13116E0E12565202FEF8E9ECE7DCE03812464D04B9442DE",
    };
    (void)state;
    check_pair(&c);
}

/* Bluetooth Core v5.4 Vol 3 Part H: the §2.3.5.6.1 debug private key is D.1's Private A
 * and the debug public key its Public A; D.1's Private B, Public B and DHKey. */
static void test_bluetooth_keys(void **state)
{
    static const struct pair_case c = {
        "3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd",
        "20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6",
        "dc809c49652aeb6d63329abf5a52155c766345c28fed3024741c8ed01589d28b",
        "55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd",
        "1ea1f0f01faf1d9609592284f19e4c0047b58afd8615a69f559077b22faaa190",
        "4c55f33e429dad377356703a9ab85160472d1130e28e36765f89aff915b1214a",
        "ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698",
    };
    (void)state;
    check_pair(&c);
}

/* ---- private-key range (SEC 1 §3.2.1: 1 <= d <= n - 1) ---- */

static const char n_hex[] = "ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551";
static const char gx_hex[] = "6b17d1f2e12c4247f8bce6e563a440f277037d812deb33a0f4a13945d898c296";
static const char gy_hex[] = "4fe342e2fe1a7f9b8ee7eb4a7c0f9e162bce33576b315ececbb6406837bf51f5";
/* p - gy: the y of -G. */
static const char neg_gy_hex[] = "b01cbd1c01e58065711814b583f061e9d431cca994cea1313449bf97c840ae0a";

static void test_private_key_range(void **state)
{
    uint8_t sk[32], pk[PK_BYTES], want[PK_BYTES], ss[32], g[PK_BYTES];
    (void)state;
    public_hex(g, gx_hex, gy_hex);
    memset(sk, 0, sizeof sk);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pk, sk), PQPAN_ERR_BAD_KEY);
    assert_true(all_zero(pk, PK_BYTES));
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, g, PK_BYTES), PQPAN_ERR_BAD_KEY);
    assert_true(all_zero(ss, 32));
    sk[31] = 1; /* 1 · G = G */
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pk, sk), PQPAN_OK);
    assert_memory_equal(pk, g, PK_BYTES);
    hex32(sk, n_hex); /* n is out of range */
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pk, sk), PQPAN_ERR_BAD_KEY);
    memset(sk, 0xff, sizeof sk);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pk, sk), PQPAN_ERR_BAD_KEY);
    hex32(sk, n_hex); /* n - 1: (n - 1) · G = -G = (gx, p - gy) */
    sk[31] = (uint8_t)(sk[31] - 1);
    public_hex(want, gx_hex, neg_gy_hex);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pk, sk), PQPAN_OK);
    assert_memory_equal(pk, want, PK_BYTES);
    /* (n - 1) · G = -G, whose x is gx */
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, g, PK_BYTES), PQPAN_OK);
    assert_hex32(ss, gx_hex);
}

/* ---- public-key validation ---- */

/* Compressed encoding of x = small value v, with parity bit `odd`. */
static void compressed_small(uint8_t out[CPK_BYTES], unsigned v, int odd)
{
    memset(out, 0, CPK_BYTES);
    out[0] = (uint8_t)(odd ? 0x03 : 0x02);
    out[CPK_BYTES - 1] = (uint8_t)v;
}

/* Adds p to the x-coordinate of an encoding (x small, so x + p < 2^256). */
static void add_p_to_x(uint8_t *enc)
{
    static const uint32_t field_p[P256_LIMBS] = {0xffffffffu, 0xffffffffu, 0xffffffffu, 0, 0, 0, 1,
                                                 0xffffffffu}; /* SP 800-186 §3.2.1.3 */
    uint32_t x[P256_LIMBS];
    uint64_t carry = 0;
    unsigned i;
    pqpan_p256_from_bytes(x, enc + 1);
    for (i = 0; i < P256_LIMBS; i++) {
        uint64_t s = (uint64_t)x[i] + field_p[i] + carry;
        x[i] = (uint32_t)s;
        carry = s >> 32;
    }
    assert_int_equal(carry, 0);
    pqpan_p256_to_bytes(enc + 1, x);
}

static void test_public_key_validation(void **state)
{
    uint8_t g[PK_BYTES], bad[PK_BYTES + 1], out[PK_BYTES], c[CPK_BYTES], ss[32], sk[32];
    unsigned v, found_point = 0, found_nonresidue = 0;
    (void)state;
    memset(sk, 0x11, sizeof sk);
    public_hex(g, gx_hex, gy_hex);
    /* the point at infinity (SEC 1 §2.3.3: the single octet 00) */
    bad[0] = 0x00;
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, bad, 1), PQPAN_ERR_BAD_KEY);
    assert_true(all_zero(ss, 32));
    /* a point off the curve: y + 1 */
    memcpy(bad, g, PK_BYTES);
    bad[PK_BYTES - 1] ^= 0x01;
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, bad, PK_BYTES), PQPAN_ERR_BAD_KEY);
    assert_int_equal(pqpan_ecdh_p256_public_decode(out, bad, PK_BYTES), PQPAN_ERR_BAD_KEY);
    assert_true(all_zero(out, PK_BYTES));
    /* (0, 0) and a coordinate of all ones (>= p) */
    memset(bad, 0, sizeof bad);
    bad[0] = 0x04;
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, bad, PK_BYTES), PQPAN_ERR_BAD_KEY);
    memset(bad + 1, 0xff, 32);
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, bad, PK_BYTES), PQPAN_ERR_BAD_KEY);
    /* encodings of another length or first octet */
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, g, PK_BYTES - 1), PQPAN_ERR_MALFORMED);
    memcpy(bad, g, PK_BYTES);
    bad[PK_BYTES] = 0;
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, bad, PK_BYTES + 1), PQPAN_ERR_MALFORMED);
    for (v = 0; v < 256; v++) {
        bad[0] = (uint8_t)v;
        if (v != 0x04) {
            assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, bad, PK_BYTES), PQPAN_ERR_MALFORMED);
        }
    }
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, g, CPK_BYTES), PQPAN_ERR_MALFORMED); /* 04 || 32 */
    assert_int_equal(pqpan_ecdh_p256_shared(ss, sk, NULL, PK_BYTES), PQPAN_ERR_MALFORMED);
    /* small x: the first one on the curve is accepted, and the same x + p is rejected
     * (coordinates must be < p); the first with no square root is rejected */
    for (v = 0; v < 64 && (!found_point || !found_nonresidue); v++) {
        int rc;
        compressed_small(c, v, 0);
        rc = pqpan_ecdh_p256_public_decode(out, c, CPK_BYTES);
        assert_true(rc == PQPAN_OK || rc == PQPAN_ERR_BAD_KEY);
        if (rc == PQPAN_OK && !found_point) {
            found_point = 1;
            assert_int_equal(out[PK_BYTES - 1] & 1, 0); /* parity as asked */
            compressed_small(c, v, 1);
            assert_int_equal(pqpan_ecdh_p256_public_decode(out, c, CPK_BYTES), PQPAN_OK);
            assert_int_equal(out[PK_BYTES - 1] & 1, 1);
            memcpy(bad, out, PK_BYTES);
            add_p_to_x(bad);
            assert_int_equal(pqpan_ecdh_p256_public_decode(out, bad, PK_BYTES), PQPAN_ERR_BAD_KEY);
            add_p_to_x(c);
            assert_int_equal(pqpan_ecdh_p256_public_decode(out, c, CPK_BYTES), PQPAN_ERR_BAD_KEY);
        } else if (rc == PQPAN_ERR_BAD_KEY) {
            found_nonresidue = 1;
        }
    }
    assert_true(found_point && found_nonresidue);
}

/* ---- key generation from the RNG ---- */

struct scripted_rng {
    unsigned calls;
    unsigned bad_draws; /* first draws of all ones (>= n), then 0x5a... */
    int fail;
};

static int scripted(void *ctx, uint8_t *out, size_t len)
{
    struct scripted_rng *r = ctx;
    r->calls++;
    if (r->fail) {
        return -1;
    }
    memset(out, r->calls <= r->bad_draws ? 0xff : 0x5a, len);
    return 0;
}

static void test_keypair_rng(void **state)
{
    uint8_t sk[32], pk[PK_BYTES], want_pk[PK_BYTES], want_sk[32];
    struct scripted_rng r = {0, 3, 0};
    (void)state;
    memset(want_sk, 0x5a, sizeof want_sk);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(want_pk, want_sk), PQPAN_OK);
    assert_int_equal(pqpan_ecdh_p256_keypair(pk, sk, scripted, &r), PQPAN_OK);
    assert_int_equal(r.calls, 4); /* three draws >= n rejected */
    assert_memory_equal(sk, want_sk, 32);
    assert_memory_equal(pk, want_pk, PK_BYTES);
    r.calls = 0;
    r.bad_draws = 1000;
    assert_int_equal(pqpan_ecdh_p256_keypair(pk, sk, scripted, &r), PQPAN_ERR_RNG);
    assert_int_equal(r.calls, 64);
    assert_true(all_zero(sk, 32) && all_zero(pk, PK_BYTES));
    r.calls = 0;
    r.fail = 1;
    assert_int_equal(pqpan_ecdh_p256_keypair(pk, sk, scripted, &r), PQPAN_ERR_RNG);
    assert_true(all_zero(sk, 32) && all_zero(pk, PK_BYTES));
    assert_int_equal(pqpan_ecdh_p256_keypair(pk, sk, NULL, NULL), PQPAN_ERR_INVALID_ARG);
}

/* ---- the group law (white box) ---- */

static int same_affine(const struct pqpan_p256_point *a, const struct pqpan_p256_point *b)
{
    uint32_t ax[P256_LIMBS], ay[P256_LIMBS], bx[P256_LIMBS], by[P256_LIMBS];
    uint32_t ia = pqpan_p256_point_affine(ax, ay, a);
    uint32_t ib = pqpan_p256_point_affine(bx, by, b);
    return ia == ib && memcmp(ax, bx, sizeof ax) == 0 && memcmp(ay, by, sizeof ay) == 0;
}

static int is_infinity(const struct pqpan_p256_point *a)
{
    uint32_t x[P256_LIMBS], y[P256_LIMBS];
    return pqpan_p256_point_affine(x, y, a) == 1;
}

/* P scaled to (sX : sY : sZ): the same point in another representation. */
static void rescale(struct pqpan_p256_point *p, unsigned s)
{
    struct pqpan_p256_fe f;
    uint32_t v[P256_LIMBS] = {s};
    pqpan_p256_fe_to_mont(&f, v);
    pqpan_p256_fe_mul(&p->x, &p->x, &f);
    pqpan_p256_fe_mul(&p->y, &p->y, &f);
    pqpan_p256_fe_mul(&p->z, &p->z, &f);
}

static void scalar_small(uint8_t k[32], unsigned v)
{
    memset(k, 0, 32);
    k[30] = (uint8_t)(v >> 8);
    k[31] = (uint8_t)v;
}

static void test_complete_formulas(void **state)
{
    struct pqpan_p256_point g, o, p, q, r, s, neg;
    struct pqpan_p256_fe zero;
    uint8_t k[32];
    unsigned i, j;
    (void)state;
    memset(&zero, 0, sizeof zero);
    pqpan_p256_point_generator(&g);
    pqpan_p256_point_infinity(&o);
    pqpan_p256_point_add(&r, &o, &o);
    assert_true(is_infinity(&r));
    pqpan_p256_point_double(&r, &o);
    assert_true(is_infinity(&r));
    for (i = 1; i <= 20; i++) {
        scalar_small(k, i * 977u);
        pqpan_p256_point_mul(&p, &g, k);
        q = p;
        rescale(&q, i + 1); /* P + P with different representations */
        pqpan_p256_point_add(&r, &p, &q);
        pqpan_p256_point_double(&s, &p);
        assert_true(same_affine(&r, &s));
        pqpan_p256_point_add(&r, &p, &o); /* P + O and O + P */
        assert_true(same_affine(&r, &p));
        pqpan_p256_point_add(&r, &o, &q);
        assert_true(same_affine(&r, &p));
        neg = q; /* P + (-P) */
        pqpan_p256_fe_sub(&neg.y, &zero, &neg.y);
        pqpan_p256_point_add(&r, &p, &neg);
        assert_true(is_infinity(&r));
    }
    /* (a + b) · G = a · G + b · G for small a, b, by the table of multiples */
    for (i = 1; i < 40; i += 7) {
        for (j = 1; j < 40; j += 5) {
            scalar_small(k, i);
            pqpan_p256_point_mul(&p, &g, k);
            scalar_small(k, j);
            pqpan_p256_point_mul(&q, &g, k);
            pqpan_p256_point_add(&r, &p, &q);
            scalar_small(k, i + j);
            pqpan_p256_point_mul(&s, &g, k);
            assert_true(same_affine(&r, &s));
        }
    }
    memset(k, 0, sizeof k); /* 0 · G and n · G are the point at infinity */
    pqpan_p256_point_mul(&r, &g, k);
    assert_true(is_infinity(&r));
    hex32(k, n_hex);
    pqpan_p256_point_mul(&r, &g, k);
    assert_true(is_infinity(&r));
}

/* b in Montgomery form converts back to b as SP 800-186 prints it. */
static void test_field_constants(void **state)
{
    struct pqpan_p256_fe b;
    uint32_t plain[P256_LIMBS];
    uint8_t bytes[32];
    (void)state;
    pqpan_p256_fe_b(&b);
    pqpan_p256_fe_from_mont(plain, &b);
    pqpan_p256_to_bytes(bytes, plain);
    assert_hex32(bytes, "5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cavp_cdh),
        cmocka_unit_test(test_rfc5903),
        cmocka_unit_test(test_bluetooth_keys),
        cmocka_unit_test(test_private_key_range),
        cmocka_unit_test(test_public_key_validation),
        cmocka_unit_test(test_keypair_rng),
        cmocka_unit_test(test_complete_formulas),
        cmocka_unit_test(test_field_constants),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
