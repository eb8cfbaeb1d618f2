/* AES-128, AES-CMAC and the LE Secure Connections functions on the Cortex-M4
 * (src/crypto/aes.c, src/crypto/lesc.c):
 *   FIPS 197 Appendix C.1 (AES-128 example) and Appendix B (cipher example);
 *   SP 800-38B Appendix D.1, Examples 1-4 (AES-128 CMAC, Mlen 0, 128, 320, 512 bits);
 *   Bluetooth Core v5.4 Vol 3 Part H Appendix D.2 (f4), D.3 (f5), D.4 (f6), D.5 (g2). */
#include <string.h>

#include "check.h"
#include "pqpan/aes.h"
#include "pqpan/lesc.h"

static int aes_gives(const char *key, const char *in, const char *out)
{
    struct pqpan_aes128 ctx;
    uint8_t k[16], b[16];
    if (!pqpan_m4_from_hex(k, 16, key) || !pqpan_m4_from_hex(b, 16, in)) {
        return 0;
    }
    pqpan_aes128_init(&ctx, k);
    pqpan_aes128_encrypt(&ctx, b, b);
    return pqpan_m4_equal_hex(b, 16, out);
}

static void aes(struct pqpan_m4_tally *t)
{
    pqpan_m4_check(t, aes_gives("000102030405060708090a0b0c0d0e0f", "00112233445566778899aabbccddeeff",
                                "69c4e0d86a7b0430d8cdb78070b4c55a"), "fips197 C.1", 1);
    pqpan_m4_check(t, aes_gives("2b7e151628aed2a6abf7158809cf4f3c", "3243f6a8885a308d313198a2e0370734",
                                "3925841d02dc09fbdc118597196a0b32"), "fips197 B", 2);
}

static void cmac(struct pqpan_m4_tally *t)
{
    static const char message[] = "6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e51"
                                  "30c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710";
    static const struct {
        uint8_t len;
        const char *tag;
    } examples[4] = {
        {0, "bb1d6929e95937287fa37d129b756746"},
        {16, "070a16b46b4d4144f79bdd9dd04a287c"},
        {40, "dfa66747de9ae63030ca32611497c827"},
        {64, "51f0bebf7e3b9d92fc49741779363cfe"},
    };
    uint8_t key[16], msg[64], tag[16];
    pqpan_m4_from_hex(key, 16, "2b7e151628aed2a6abf7158809cf4f3c");
    pqpan_m4_from_hex(msg, 64, message);
    for (uint32_t i = 0; i < 4; i++) {
        pqpan_aes_cmac(tag, key, msg, examples[i].len);
        pqpan_m4_check(t, pqpan_m4_equal_hex(tag, 16, examples[i].tag), "sp800-38b D.1 example", i + 1);
    }
}

/* Appendix D's inputs: U, V of D.2/D.5 are D.1's Public A x and Public B x; W the DHKey. */
struct lesc_inputs {
    uint8_t u[32], v[32], w[32], n1[16], n2[16], r[16], io[3], a1[7], a2[7];
};

static int load(struct lesc_inputs *in)
{
    return pqpan_m4_from_hex(in->u, 32, "20b003d2f297be2c5e2c83a7e9f9a5b9eff49111acf4fddbcc0301480e359de6") &&
           pqpan_m4_from_hex(in->v, 32, "55188b3d32f6bb9a900afcfbeed4e72a59cb9ac2f19d7cfb6b4fdd49f47fc5fd") &&
           pqpan_m4_from_hex(in->w, 32, "ec0234a357c8ad05341010a60a397d9b99796b13b4f866f1868d34f373bfa698") &&
           pqpan_m4_from_hex(in->n1, 16, "d5cb8454d177733effffb2ec712baeab") &&
           pqpan_m4_from_hex(in->n2, 16, "a6e8e7cc25a75f6e216583f7ff3dc4cf") &&
           pqpan_m4_from_hex(in->r, 16, "12a3343bb453bb5408da42d20c2d0fc8") &&
           pqpan_m4_from_hex(in->io, 3, "010102") && pqpan_m4_from_hex(in->a1, 7, "0056123737bfce") &&
           pqpan_m4_from_hex(in->a2, 7, "00a713702dcfc1");
}

static void lesc(struct pqpan_m4_tally *t)
{
    struct lesc_inputs in;
    uint8_t out[16], mackey[16], ltk[16];
    pqpan_m4_check(t, load(&in), "appendix D inputs", 0);
    pqpan_lesc_f4(out, in.u, in.v, in.n1, 0x00);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 16, "f2c916f107a9bd1cf1eda1bea974872d"), "f4 D.2", 2);
    pqpan_lesc_f5(mackey, ltk, in.w, in.n1, in.n2, in.a1, in.a2);
    pqpan_m4_check(t, pqpan_m4_equal_hex(mackey, 16, "2965f176a1084a02fd3f6a20ce636e20") &&
                          pqpan_m4_equal_hex(ltk, 16, "6986791169d7cd23980522b594750a38"),
                   "f5 D.3", 3);
    pqpan_lesc_f6(out, mackey, in.n1, in.n2, in.r, in.io, in.a1, in.a2);
    pqpan_m4_check(t, pqpan_m4_equal_hex(out, 16, "e3c473989cd0e8c5d26c0b09da958f61"), "f6 D.4", 4);
    pqpan_m4_check(t, pqpan_lesc_g2(in.u, in.v, in.n1, in.n2) == 0x2f9ed5bau, "g2 D.5", 5);
}

struct pqpan_m4_tally pqpan_m4_test_lesc(void)
{
    struct pqpan_m4_tally t = {0, 0};
    aes(&t);
    cmac(&t);
    lesc(&t);
    return t;
}
