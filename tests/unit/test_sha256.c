/* Tests for src/crypto/sha256.c against published values:
 *
 * - SHA-256 examples of NIST CSRC "Examples with Intermediate Values" (SHA256.pdf,
 *   SHA256_2.pdf; the same digests are FIPS 180-2 Appendix B.1, B.2, B.3): "abc", the
 *   448-bit message "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq" and one
 *   million 'a' octets;
 * - HMAC-SHA-256: RFC 4231 §4.2 to §4.5, §4.7, §4.8 (test cases 1 to 4, 6 and 7; case 5
 *   truncates the output and is not the function pqpan exposes).
 * Plus a property: any split of the input across update calls gives the one-call digest. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cli.h"
#include "pqpan/sha256.h"

static void assert_hex(const uint8_t got[PQPAN_SHA256_BYTES], const char *hex)
{
    uint8_t want[PQPAN_SHA256_BYTES];
    assert_int_equal(strlen(hex), 2 * PQPAN_SHA256_BYTES);
    assert_int_equal(cli_hex_decode(want, sizeof want, hex), 0);
    assert_memory_equal(got, want, sizeof want);
}

static void digest_of_text(uint8_t out[PQPAN_SHA256_BYTES], const char *text)
{
    pqpan_sha256(out, (const uint8_t *)text, strlen(text));
}

static void test_sha256_one_block(void **state)
{
    uint8_t d[PQPAN_SHA256_BYTES];
    (void)state;
    digest_of_text(d, "abc");
    assert_hex(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

static void test_sha256_two_blocks(void **state)
{
    uint8_t d[PQPAN_SHA256_BYTES];
    (void)state;
    digest_of_text(d, "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq");
    assert_hex(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void test_sha256_million_a(void **state)
{
    struct pqpan_sha256 ctx;
    uint8_t chunk[1000], d[PQPAN_SHA256_BYTES];
    unsigned i;
    (void)state;
    memset(chunk, 'a', sizeof chunk);
    pqpan_sha256_init(&ctx);
    for (i = 0; i < 1000; i++) {
        pqpan_sha256_update(&ctx, chunk, sizeof chunk);
    }
    pqpan_sha256_final(&ctx, d);
    assert_hex(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

/* Lengths around the padding boundary (55, 56, 63, 64, 65 octets) split at every point. */
static void test_sha256_splits(void **state)
{
    static const size_t lens[] = {0, 1, 55, 56, 63, 64, 65, 119, 128, 200};
    uint8_t msg[200], whole[PQPAN_SHA256_BYTES], parts[PQPAN_SHA256_BYTES];
    size_t i, n, cut;
    (void)state;
    for (i = 0; i < sizeof msg; i++) {
        msg[i] = (uint8_t)(i * 7u + 3u);
    }
    for (n = 0; n < sizeof lens / sizeof lens[0]; n++) {
        pqpan_sha256(whole, msg, lens[n]);
        for (cut = 0; cut <= lens[n]; cut++) {
            struct pqpan_sha256 ctx;
            pqpan_sha256_init(&ctx);
            pqpan_sha256_update(&ctx, msg, cut);
            pqpan_sha256_update(&ctx, msg + cut, lens[n] - cut);
            pqpan_sha256_final(&ctx, parts);
            assert_memory_equal(whole, parts, sizeof whole);
        }
    }
}

struct hmac_case {
    uint8_t key_octet; /* 0: the key is key_text */
    size_t key_len;
    const char *key_text;
    uint8_t data_octet; /* 0: the data is data_text */
    size_t data_len;
    const char *data_text;
    const char *mac;
};

static const char rfc4231_tc7_data[] =
    "This is a test using a larger than block-size key and a larger than block-size data. "
    "The key needs to be hashed before being used by the HMAC algorithm.";

/* RFC 4231 §4.2-§4.5, §4.7, §4.8 (HMAC-SHA-256 rows); case 4's key 0x01..0x19 is made below. */
static const struct hmac_case rfc4231[] = {
    {0x0b, 20, NULL, 0, 0, "Hi There",
     "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
    {0, 0, "Jefe", 0, 0, "what do ya want for nothing?",
     "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
    {0xaa, 20, NULL, 0xdd, 50, NULL,
     "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"},
    {0x01, 25, NULL, 0xcd, 50, NULL,
     "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"},
    {0xaa, 131, NULL, 0, 0, "Test Using Larger Than Block-Size Key - Hash Key First",
     "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
    {0xaa, 131, NULL, 0, 0, rfc4231_tc7_data,
     "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"},
};

/* Case 4's key counts up from 0x01; the others repeat one octet. */
static size_t case_key(uint8_t key[131], const struct hmac_case *c)
{
    size_t i;
    if (c->key_text != NULL) {
        memcpy(key, c->key_text, strlen(c->key_text));
        return strlen(c->key_text);
    }
    for (i = 0; i < c->key_len; i++) {
        key[i] = c->key_octet == 0x01 ? (uint8_t)(i + 1) : c->key_octet;
    }
    return c->key_len;
}

static size_t case_data(uint8_t data[160], const struct hmac_case *c)
{
    if (c->data_text != NULL) {
        assert_true(strlen(c->data_text) <= 160);
        memcpy(data, c->data_text, strlen(c->data_text));
        return strlen(c->data_text);
    }
    memset(data, c->data_octet, c->data_len);
    return c->data_len;
}

static void test_hmac_rfc4231(void **state)
{
    uint8_t key[131], data[160], mac[PQPAN_SHA256_BYTES];
    size_t i, ran = 0;
    (void)state;
    for (i = 0; i < sizeof rfc4231 / sizeof rfc4231[0]; i++) {
        size_t key_len = case_key(key, &rfc4231[i]);
        size_t data_len = case_data(data, &rfc4231[i]);
        pqpan_hmac_sha256(mac, key, key_len, data, data_len);
        assert_hex(mac, rfc4231[i].mac);
        ran++;
    }
    assert_int_equal(ran, 6);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sha256_one_block),
        cmocka_unit_test(test_sha256_two_blocks),
        cmocka_unit_test(test_sha256_million_a),
        cmocka_unit_test(test_sha256_splits),
        cmocka_unit_test(test_hmac_rfc4231),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
