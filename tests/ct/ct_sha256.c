/* Constant-time check of SHA-256, HMAC-SHA-256 and the BLE Mesh provisioning key
 * derivations k1 and k5 under valgrind memcheck: the message, the key and the shared
 * secret are marked undefined, so a branch or a memory index that depends on them fails
 * the run. They carry secrets in `simulate --link ble-mesh`: k5 and k1 take the ECDH /
 * ML-KEM secret (MshPRT v1.1 §5.4.2.4-.5), HMAC-SHA-256 the ConfirmationKey. The outputs,
 * marked defined afterwards, are compared with FIPS 180-4's "abc" example (NIST CSRC
 * SHA256.pdf), RFC 4231 §4.3 (test case 2) and the sample data tests/unit/test_mesh_sim.c
 * checks (Mesh Profile v1.0.1 §8.1.2 for k1; MshPRT v1.1 §8.7 as quoted there for k5). */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/mesh_sim.h"
#include "pqpan/sha256.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static void hex(uint8_t *out, const char *s)
{
    size_t i;
    for (i = 0; s[2 * i] != '\0'; i++) {
        unsigned v = 0;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) {
            v = 0;
        }
        out[i] = (uint8_t)v;
    }
}

/* out (n octets) marked defined and compared with want's hex; 1 on a difference. */
static int differs(uint8_t *out, size_t n, const char *want_hex, const char *what)
{
    uint8_t want[32];
    hex(want, want_hex);
    PUBLIC(out, n);
    if (memcmp(out, want, n) != 0) {
        fprintf(stderr, "%s: functional failure\n", what);
        return 1;
    }
    return 0;
}

static int check_sha256(void)
{
    uint8_t msg[3] = {'a', 'b', 'c'}, out[32];
    SECRET(msg, sizeof msg);
    pqpan_sha256(out, msg, sizeof msg);
    return differs(out, sizeof out,
                   "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "SHA-256");
}

static int check_hmac(void)
{
    uint8_t key[4] = {'J', 'e', 'f', 'e'}, mac[32];
    uint8_t msg[28];
    memcpy(msg, "what do ya want for nothing?", sizeof msg);
    SECRET(key, sizeof key);
    SECRET(msg, sizeof msg);
    pqpan_hmac_sha256(mac, key, sizeof key, msg, sizeof msg);
    return differs(mac, sizeof mac,
                   "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
                   "HMAC-SHA-256");
}

static int check_k1(void)
{
    uint8_t n[16], salt[16], p[16], out[16];
    hex(n, "3216d1509884b533248541792b877f98");
    hex(salt, "2ba14ffa0df84a2831938d57d276cab4");
    hex(p, "5a09d60797eeb4478aada59db3352a0d");
    SECRET(n, sizeof n);
    pqpan_mesh_k1(out, n, sizeof n, salt, p, sizeof p);
    return differs(out, sizeof out, "f6ed15a8934afbe7d83e8dcb57fcf5d7", "k1");
}

static int check_k5(void)
{
    uint8_t n[64], salt[32], out[32];
    hex(n, "ab85843a2f6d883f62e5684b38e307335fe6e1945ecd19604105c6f23221eb69"
           "906d73a3c7a7cb3ff730dca68a46b9c18d673f50e078202311473ebbe253669f");
    hex(salt, "a71141ba8cb6b40f4f52b622e1c091614c73fc308f871b78ca775e769bc3ae69");
    SECRET(n, sizeof n);
    pqpan_mesh_k5(out, n, sizeof n, salt, (const uint8_t *)"prck256", 7);
    return differs(out, sizeof out,
                   "210c3c448152e8d59ef742aa7d22ee5ba59a38648bda6bf05c74f3e46fc2c0bb", "k5");
}

int main(void)
{
    int failed = check_sha256() + check_hmac() + check_k1() + check_k5();
    if (failed == 0) {
        printf("ct_sha256: SHA-256, HMAC-SHA-256, k1 and k5 with secret inputs: no "
               "secret-dependent branch or index, outputs as the vectors\n");
    }
    return failed != 0;
}
