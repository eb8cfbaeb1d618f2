/* Constant-time check of AES-128, AES-CMAC and the LE Secure Connections key derivation
 * f5 under valgrind memcheck: key, message and DHKey are marked undefined, so a branch or
 * a memory index that depends on them (a table S-box, a data-dependent xtime) is reported
 * and fails the run. The outputs are compared with the FIPS 197 Appendix C.1, SP 800-38B
 * D.1 Example 2 and Core v5.4 Vol 3 Part H D.3 values after being marked defined. */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/aes.h"
#include "pqpan/lesc.h"

#define SECRET(p, n) VALGRIND_MAKE_MEM_UNDEFINED((p), (n))
#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static int check_cipher(void)
{
    static const uint8_t want[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                     0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    struct pqpan_aes128 ctx;
    uint8_t key[16], in[16], out[16];
    unsigned i;
    for (i = 0; i < 16; i++) {
        key[i] = (uint8_t)i;
        in[i] = (uint8_t)(0x11 * i);
    }
    SECRET(key, sizeof key);
    SECRET(in, sizeof in);
    pqpan_aes128_init(&ctx, key);
    pqpan_aes128_encrypt(&ctx, out, in);
    PUBLIC(out, sizeof out);
    if (memcmp(out, want, sizeof want) != 0) {
        fprintf(stderr, "AES-128: functional failure\n");
        return 1;
    }
    return 0;
}

static int check_cmac(void)
{
    static const uint8_t key0[16] = {0x2b, 0x7e, 0x15, 0x16, 0x28, 0xae, 0xd2, 0xa6,
                                     0xab, 0xf7, 0x15, 0x88, 0x09, 0xcf, 0x4f, 0x3c};
    static const uint8_t msg0[16] = {0x6b, 0xc1, 0xbe, 0xe2, 0x2e, 0x40, 0x9f, 0x96,
                                     0xe9, 0x3d, 0x7e, 0x11, 0x73, 0x93, 0x17, 0x2a};
    static const uint8_t want[16] = {0x07, 0x0a, 0x16, 0xb4, 0x6b, 0x4d, 0x41, 0x44,
                                     0xf7, 0x9b, 0xdd, 0x9d, 0xd0, 0x4a, 0x28, 0x7c};
    uint8_t key[16], msg[16], tag[16], tag_short[16];
    memcpy(key, key0, sizeof key);
    memcpy(msg, msg0, sizeof msg);
    SECRET(key, sizeof key);
    SECRET(msg, sizeof msg);
    pqpan_aes_cmac(tag, key, msg, sizeof msg);
    pqpan_aes_cmac(tag_short, key, msg, 7); /* a padded last block (K2) */
    PUBLIC(tag, sizeof tag);
    PUBLIC(tag_short, sizeof tag_short);
    if (memcmp(tag, want, sizeof want) != 0) {
        fprintf(stderr, "AES-CMAC: functional failure\n");
        return 1;
    }
    return 0;
}

/* f5 of Appendix D.3 with the DHKey secret: LTK 69867911 69d7cd23 980522b5 94750a38. */
static int check_f5(void)
{
    static const uint8_t w0[32] = {0xec, 0x02, 0x34, 0xa3, 0x57, 0xc8, 0xad, 0x05, 0x34, 0x10, 0x10,
                                   0xa6, 0x0a, 0x39, 0x7d, 0x9b, 0x99, 0x79, 0x6b, 0x13, 0xb4, 0xf8,
                                   0x66, 0xf1, 0x86, 0x8d, 0x34, 0xf3, 0x73, 0xbf, 0xa6, 0x98};
    static const uint8_t n1[16] = {0xd5, 0xcb, 0x84, 0x54, 0xd1, 0x77, 0x73, 0x3e,
                                   0xff, 0xff, 0xb2, 0xec, 0x71, 0x2b, 0xae, 0xab};
    static const uint8_t n2[16] = {0xa6, 0xe8, 0xe7, 0xcc, 0x25, 0xa7, 0x5f, 0x6e,
                                   0x21, 0x65, 0x83, 0xf7, 0xff, 0x3d, 0xc4, 0xcf};
    static const uint8_t a1[7] = {0x00, 0x56, 0x12, 0x37, 0x37, 0xbf, 0xce};
    static const uint8_t a2[7] = {0x00, 0xa7, 0x13, 0x70, 0x2d, 0xcf, 0xc1};
    static const uint8_t want[16] = {0x69, 0x86, 0x79, 0x11, 0x69, 0xd7, 0xcd, 0x23,
                                     0x98, 0x05, 0x22, 0xb5, 0x94, 0x75, 0x0a, 0x38};
    uint8_t w[32], mackey[16], ltk[16];
    memcpy(w, w0, sizeof w);
    SECRET(w, sizeof w);
    pqpan_lesc_f5(mackey, ltk, w, n1, n2, a1, a2);
    PUBLIC(mackey, sizeof mackey);
    PUBLIC(ltk, sizeof ltk);
    if (memcmp(ltk, want, sizeof want) != 0) {
        fprintf(stderr, "f5: functional failure\n");
        return 1;
    }
    return 0;
}

int main(void)
{
    return check_cipher() | check_cmac() | check_f5();
}
