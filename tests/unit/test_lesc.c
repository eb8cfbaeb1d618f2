/* Tests for src/crypto/lesc.c with the sample data of Bluetooth Core v5.4 Vol 3 Part H
 * Appendix D (values as printed there, most significant octet first):
 *   D.2 f4, D.3 f5 (MacKey and LTK), D.4 f6, D.5 g2 (and its 6-digit value);
 * and the chain D.1 (P-256 DHKey) -> D.3 -> D.4 as pairing computes it. Every sample is
 * counted. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "pqpan/ecdh.h"
#include "pqpan/lesc.h"

/* The sample inputs of Appendix D. U and V of D.2/D.5 are printed as the Public A x and
 * the Private B of D.1 (the spec's own choice of sample values). */
static const char u_hex[] = "20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6";
static const char v_hex[] = "55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd";
static const char n1_hex[] = "d5cb8454d177733effffb2ec712baeab"; /* X of D.2, N1 of D.3 */
static const char n2_hex[] = "a6e8e7cc25a75f6e216583f7ff3dc4cf"; /* N2 of D.3, Y of D.5 */
static const char w_hex[] = "ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698";
static const char a1_hex[] = "0056123737bfce";
static const char a2_hex[] = "00a713702dcfc1";
static const char mackey_hex[] = "2965f176a1084a02fd3f6a20ce636e20";

static void from_hex(uint8_t *out, size_t len, const char *hex)
{
    assert_int_equal(strlen(hex), 2 * len);
    assert_int_equal(cli_hex_decode(out, len, hex), 0);
}

static void assert_hex(const uint8_t *got, size_t len, const char *hex)
{
    uint8_t want[32];
    from_hex(want, len, hex);
    assert_memory_equal(got, want, len);
}

static unsigned samples;

/* The nonces and addresses of D.3/D.4. */
struct d3_inputs {
    uint8_t n1[16], n2[16], a1[7], a2[7];
};

static void load_d3(struct d3_inputs *in)
{
    from_hex(in->n1, 16, n1_hex);
    from_hex(in->n2, 16, n2_hex);
    from_hex(in->a1, 7, a1_hex);
    from_hex(in->a2, 7, a2_hex);
}

/* D.2: f4(U, V, X, Z = 0x00) = f2c916f1 07a9bd1c f1eda1be a974872d */
static void test_f4_d2(void **state)
{
    uint8_t u[32], v[32], x[16], out[16];
    (void)state;
    from_hex(u, 32, u_hex);
    from_hex(v, 32, v_hex);
    from_hex(x, 16, n1_hex);
    pqpan_lesc_f4(out, u, v, x, 0x00);
    assert_hex(out, 16, "f2c916f107a9bd1cf1eda1bea974872d");
    samples++;
}

/* D.3: f5(W, N1, N2, A1, A2) = MacKey 2965f176..., LTK 69867911... */
static void test_f5_d3(void **state)
{
    struct d3_inputs in;
    uint8_t w[32], mackey[16], ltk[16];
    (void)state;
    from_hex(w, 32, w_hex);
    load_d3(&in);
    pqpan_lesc_f5(mackey, ltk, w, in.n1, in.n2, in.a1, in.a2);
    assert_hex(mackey, 16, mackey_hex);
    assert_hex(ltk, 16, "6986791169d7cd23980522b594750a38");
    samples++;
}

/* D.4: f6(MacKey, N1, N2, R, IOcap = 01 01 02, A1, A2) = e3c47398 9cd0e8c5 d26c0b09 da958f61 */
static void test_f6_d4(void **state)
{
    struct d3_inputs in;
    uint8_t w[16], r[16], io[3], out[16];
    (void)state;
    from_hex(w, 16, mackey_hex);
    load_d3(&in);
    from_hex(r, 16, "12a3343bb453bb5408da42d20c2d0fc8");
    from_hex(io, 3, "010102");
    pqpan_lesc_f6(out, w, in.n1, in.n2, r, io, in.a1, in.a2);
    assert_hex(out, 16, "e3c473989cd0e8c5d26c0b09da958f61");
    samples++;
}

/* D.5: g2(U, V, X, Y) = 2f9ed5ba; the numeric comparison value 0x2f9ed5ba mod 10^6. */
static void test_g2_d5(void **state)
{
    uint8_t u[32], v[32], x[16], y[16];
    uint32_t g;
    (void)state;
    from_hex(u, 32, u_hex);
    from_hex(v, 32, v_hex);
    from_hex(x, 16, n1_hex);
    from_hex(y, 16, n2_hex);
    g = pqpan_lesc_g2(u, v, x, y);
    assert_int_equal(g, 0x2f9ed5bau);
    assert_int_equal(g % PQPAN_LESC_NUMERIC_MOD, 938554u); /* 798938554 mod 10^6 */
    samples++;
}

static void test_all_samples_ran(void **state)
{
    (void)state;
    assert_int_equal(samples, 4);
}

/* The samples chained as the pairing chains them (§2.3.5.6.5): the DHKey that P-256 ECDH
 * computes from the D.1 key pairs, on either side, is the W of D.3, and f5 on it gives
 * D.3's MacKey and LTK, with which f6 gives D.4's check value. */
static void test_chain_from_ecdh(void **state)
{
    struct d3_inputs in;
    uint8_t ska[32], skb[32], pka[65], pkb[65], dha[32], dhb[32];
    uint8_t r[16], io[3], mackey[16], ltk[16], e[16];
    (void)state;
    from_hex(ska, 32, "3f49f6d4a3c55f3874c9b3e3d2103f504aff607beb40b7995899b8a6cd3c1abd");
    from_hex(skb, 32, v_hex);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pka, ska), PQPAN_OK);
    assert_int_equal(pqpan_ecdh_p256_keypair_derand(pkb, skb), PQPAN_OK);
    assert_int_equal(pqpan_ecdh_p256_shared(dha, ska, pkb, sizeof pkb), PQPAN_OK);
    assert_int_equal(pqpan_ecdh_p256_shared(dhb, skb, pka, sizeof pka), PQPAN_OK);
    assert_hex(dha, 32, w_hex);
    assert_hex(dhb, 32, w_hex);
    load_d3(&in);
    pqpan_lesc_f5(mackey, ltk, dha, in.n1, in.n2, in.a1, in.a2);
    assert_hex(mackey, 16, mackey_hex);
    assert_hex(ltk, 16, "6986791169d7cd23980522b594750a38");
    from_hex(r, 16, "12a3343bb453bb5408da42d20c2d0fc8");
    from_hex(io, 3, "010102");
    pqpan_lesc_f6(e, mackey, in.n1, in.n2, r, io, in.a1, in.a2);
    assert_hex(e, 16, "e3c473989cd0e8c5d26c0b09da958f61");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_f4_d2),           cmocka_unit_test(test_f5_d3),
        cmocka_unit_test(test_f6_d4),           cmocka_unit_test(test_g2_d5),
        cmocka_unit_test(test_all_samples_ran), cmocka_unit_test(test_chain_from_ecdh),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
