/* LE Secure Connections functions f4, f5, f6, g2 (Core v5.4 Vol 3 Part H §2.2.6-§2.2.9):
 * each concatenates its inputs, most significant octet first, and runs AES-CMAC. */
#include "pqpan/lesc.h"

#include <string.h>

#include "common/bytes.h"
#include "pqpan/aes.h"
#include "pqpan/common.h"

#define KEY PQPAN_LESC_KEY_BYTES
#define COORD PQPAN_LESC_COORD_BYTES
#define ADDR PQPAN_LESC_ADDR_BYTES
#define IOCAP PQPAN_LESC_IOCAP_BYTES

/* §2.2.7: SALT = 0x6C88 8391 AAF5 A538 6037 0BDB 5A60 83BE, keyID = 0x6274 6c65,
 * Length = 0x0100 (256 bits of output: MacKey and LTK). */
static const uint8_t f5_salt[KEY] = {0x6c, 0x88, 0x83, 0x91, 0xaa, 0xf5, 0xa5, 0x38,
                                     0x60, 0x37, 0x0b, 0xdb, 0x5a, 0x60, 0x83, 0xbe};
static const uint8_t f5_key_id[4] = {0x62, 0x74, 0x6c, 0x65};
static const uint8_t f5_length[2] = {0x01, 0x00};

/* Appends len octets at *at and moves *at past them. */
static void put(uint8_t **at, const uint8_t *p, size_t len)
{
    memcpy(*at, p, len);
    *at += len;
}

void pqpan_lesc_f4(uint8_t out[PQPAN_LESC_KEY_BYTES], const uint8_t u[PQPAN_LESC_COORD_BYTES],
                   const uint8_t v[PQPAN_LESC_COORD_BYTES], const uint8_t x[PQPAN_LESC_KEY_BYTES],
                   uint8_t z)
{
    uint8_t m[2 * COORD + 1];
    uint8_t *at = m;
    put(&at, u, COORD);
    put(&at, v, COORD);
    put(&at, &z, 1);
    pqpan_aes_cmac(out, x, m, sizeof m);
}

void pqpan_lesc_f5(uint8_t mackey[PQPAN_LESC_KEY_BYTES], uint8_t ltk[PQPAN_LESC_KEY_BYTES],
                   const uint8_t w[PQPAN_LESC_COORD_BYTES], const uint8_t n1[PQPAN_LESC_KEY_BYTES],
                   const uint8_t n2[PQPAN_LESC_KEY_BYTES], const uint8_t a1[PQPAN_LESC_ADDR_BYTES],
                   const uint8_t a2[PQPAN_LESC_ADDR_BYTES])
{
    uint8_t t[KEY];
    uint8_t m[1 + sizeof f5_key_id + 2 * KEY + 2 * ADDR + sizeof f5_length];
    uint8_t *at = m + 1; /* m[0] is the Counter */
    put(&at, f5_key_id, sizeof f5_key_id);
    put(&at, n1, KEY);
    put(&at, n2, KEY);
    put(&at, a1, ADDR);
    put(&at, a2, ADDR);
    put(&at, f5_length, sizeof f5_length);
    pqpan_aes_cmac(t, f5_salt, w, COORD);
    m[0] = 0; /* Counter = 0: MacKey */
    pqpan_aes_cmac(mackey, t, m, sizeof m);
    m[0] = 1; /* Counter = 1: LTK */
    pqpan_aes_cmac(ltk, t, m, sizeof m);
    pqpan_wipe(t, sizeof t);
}

void pqpan_lesc_f6(uint8_t out[PQPAN_LESC_KEY_BYTES], const uint8_t w[PQPAN_LESC_KEY_BYTES],
                   const uint8_t n1[PQPAN_LESC_KEY_BYTES], const uint8_t n2[PQPAN_LESC_KEY_BYTES],
                   const uint8_t r[PQPAN_LESC_KEY_BYTES], const uint8_t iocap[PQPAN_LESC_IOCAP_BYTES],
                   const uint8_t a1[PQPAN_LESC_ADDR_BYTES], const uint8_t a2[PQPAN_LESC_ADDR_BYTES])
{
    uint8_t m[3 * KEY + IOCAP + 2 * ADDR];
    uint8_t *at = m;
    put(&at, n1, KEY);
    put(&at, n2, KEY);
    put(&at, r, KEY);
    put(&at, iocap, IOCAP);
    put(&at, a1, ADDR);
    put(&at, a2, ADDR);
    pqpan_aes_cmac(out, w, m, sizeof m);
}

uint32_t pqpan_lesc_g2(const uint8_t u[PQPAN_LESC_COORD_BYTES], const uint8_t v[PQPAN_LESC_COORD_BYTES],
                       const uint8_t x[PQPAN_LESC_KEY_BYTES], const uint8_t y[PQPAN_LESC_KEY_BYTES])
{
    uint8_t m[2 * COORD + KEY], tag[KEY];
    uint8_t *at = m;
    put(&at, u, COORD);
    put(&at, v, COORD);
    put(&at, y, KEY);
    pqpan_aes_cmac(tag, x, m, sizeof m);
    /* mod 2^32: the least significant 32 bits, the last four octets */
    return pqpan_load32_be(tag + KEY - 4);
}
