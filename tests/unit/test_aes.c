/* Tests for src/crypto/aes.c and src/crypto/aes_cmac.c against published values:
 *
 * - FIPS 197 (Nov. 2001) Appendix A.1 (expansion of the 128-bit key 2b7e1516...: its
 *   last round key), Appendix B (the cipher example) and Appendix C.1 (AES-128 with key
 *   000102...0f: all eleven round keys "k_sch" and the output);
 * - NIST SP 800-38B Appendix D.1 (AES-128 CMAC): Examples 1 to 4, Mlen = 0, 128, 320,
 *   512 bits (the same values are RFC 4493 §4).
 * Every case is counted; the test fails unless all ran. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "common/bytes.h"
#include "pqpan/aes.h"

/* hex (2 digits per byte) into out[0..cap); returns the number of bytes. */
static size_t hex_to_bytes(uint8_t *out, size_t cap, const char *hex)
{
    size_t n = strlen(hex) / 2;
    assert_true(n <= cap);
    assert_int_equal(cli_hex_decode(out, n, hex), 0);
    return n;
}

static void assert_hex(const uint8_t *got, size_t len, const char *hex)
{
    uint8_t want[64];
    assert_int_equal(hex_to_bytes(want, sizeof want, hex), len);
    assert_memory_equal(got, want, len);
}

/* Round key r of an expanded key as 16 bytes (w[4r] .. w[4r+3], first byte first). */
static void round_key(uint8_t out[16], const struct pqpan_aes128 *ctx, unsigned r)
{
    unsigned c;
    for (c = 0; c < 4; c++) {
        pqpan_store32_le(out + 4 * c, ctx->w[4 * r + c]);
    }
}

static void encrypt_hex(const char *key_hex, const char *in_hex, const char *out_hex)
{
    struct pqpan_aes128 ctx;
    uint8_t key[16], in[16], out[16];
    hex_to_bytes(key, sizeof key, key_hex);
    hex_to_bytes(in, sizeof in, in_hex);
    pqpan_aes128_init(&ctx, key);
    pqpan_aes128_encrypt(&ctx, out, in);
    assert_hex(out, 16, out_hex);
    pqpan_aes128_encrypt(&ctx, in, in); /* in place */
    assert_hex(in, 16, out_hex);
}

/* FIPS 197 Appendix B: Input 3243f6a8..., Cipher Key 2b7e1516...; Appendix A.1: the same
 * key's w[40..43] = d014f9a8 c9ee2589 e13f0cc8 b6630ca6. */
static void test_fips197_appendix_b(void **state)
{
    struct pqpan_aes128 ctx;
    uint8_t key[16], rk[16];
    (void)state;
    encrypt_hex("2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
                "3925841d02dc09fbdc118597196a0b32");
    hex_to_bytes(key, sizeof key, "2b7e151628aed2a6abf7158809cf4f3c");
    pqpan_aes128_init(&ctx, key);
    round_key(rk, &ctx, 1);
    assert_hex(rk, 16, "a0fafe1788542cb123a339392a6c7605"); /* A.1: w[4..7] */
    round_key(rk, &ctx, 10);
    assert_hex(rk, 16, "d014f9a8c9ee2589e13f0cc8b6630ca6");
}

/* FIPS 197 Appendix C.1: round[r].k_sch for r = 0..10, and the output. */
static void test_fips197_c1(void **state)
{
    static const char *const k_sch[PQPAN_AES128_ROUNDS + 1] = {
        "000102030405060708090a0b0c0d0e0f", "d6aa74fdd2af72fadaa678f1d6ab76fe",
        "b692cf0b643dbdf1be9bc5006830b3fe", "b6ff744ed2c2c9bf6c590cbf0469bf41",
        "47f7f7bc95353e03f96c32bcfd058dfd", "3caaa3e8a99f9deb50f3af57adf622aa",
        "5e390f7df7a69296a7553dc10aa31f6b", "14f9701ae35fe28c440adf4d4ea9c026",
        "47438735a41c65b9e016baf4aebf7ad2", "549932d1f08557681093ed9cbe2c974e",
        "13111d7fe3944a17f307a78b4d2b30c5",
    };
    struct pqpan_aes128 ctx;
    uint8_t key[16], rk[16];
    unsigned r;
    (void)state;
    hex_to_bytes(key, sizeof key, k_sch[0]);
    pqpan_aes128_init(&ctx, key);
    for (r = 0; r <= PQPAN_AES128_ROUNDS; r++) {
        round_key(rk, &ctx, r);
        assert_hex(rk, 16, k_sch[r]);
    }
    encrypt_hex("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
                "69c4e0d86a7b0430d8cdb78070b4c55a");
}

/* SP 800-38B Appendix D.1: K = 2b7e1516..., M the first Mlen bits of the 512-bit message. */
static void test_cmac_sp800_38b_d1(void **state)
{
    static const char message[] = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                                  "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
    static const struct {
        size_t len;
        const char *tag;
    } examples[] = {
        {0, "bb1d6929e95937287fa37d129b756746"},
        {16, "070a16b46b4d4144f79bdd9dd04a287c"},
        {40, "dfa66747de9ae63030ca32611497c827"},
        {64, "51f0bebf7e3b9d92fc49741779363cfe"},
    };
    uint8_t key[16], msg[64], tag[16];
    size_t i, ran = 0;
    (void)state;
    hex_to_bytes(key, sizeof key, "2b7e151628aed2a6abf7158809cf4f3c");
    assert_int_equal(hex_to_bytes(msg, sizeof msg, message), 64);
    for (i = 0; i < sizeof examples / sizeof examples[0]; i++) {
        pqpan_aes_cmac(tag, key, examples[i].len == 0 ? NULL : msg, examples[i].len);
        assert_hex(tag, 16, examples[i].tag);
        ran++;
    }
    assert_int_equal(ran, 4);
}

/* Every message length 0..64 over the D.1 message: a tag depends on every octet and on
 * the length (a changed octet or one more octet of zeros changes the tag). */
static void test_cmac_lengths(void **state)
{
    uint8_t key[16], msg[65], tag[16], other[16];
    size_t len;
    (void)state;
    hex_to_bytes(key, sizeof key, "2b7e151628aed2a6abf7158809cf4f3c");
    memset(msg, 0, sizeof msg);
    for (len = 0; len < 64; len++) {
        pqpan_aes_cmac(tag, key, msg, len);
        pqpan_aes_cmac(other, key, msg, len + 1);
        assert_memory_not_equal(tag, other, 16);
        if (len > 0) {
            msg[len - 1] ^= 0x01;
            pqpan_aes_cmac(other, key, msg, len);
            msg[len - 1] ^= 0x01;
            assert_memory_not_equal(tag, other, 16);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fips197_appendix_b),
        cmocka_unit_test(test_fips197_c1),
        cmocka_unit_test(test_cmac_sp800_38b_d1),
        cmocka_unit_test(test_cmac_lengths),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
