/* SampleNTT and SamplePolyCBD (FIPS 203 §4.2.2) on SHAKE128 / SHAKE256. */
#include "crypto/mlkem/sampling.h"

#include <string.h>

#include "common/bytes.h"
#include "crypto/m4/backend.h"
#include "crypto/mlkem/ntt.h"
#include "pqpan/common.h"
#include "pqpan/sha3.h"

/* SampleNTT squeezes a quarter of a SHAKE128 block (42 bytes, 14 triples) at a time,
 * which quarters the byte buffer on the stack (this frame is on ML-KEM's deepest call
 * chain; it brings the portable -Os build under pqm4 m4fstack, docs/M4.md); 42 is a
 * multiple of 3, so no candidate straddles two pieces, and four pieces cost the same
 * permutation as one block. The Cortex-M4 backend's builds, under m4fstack either way,
 * squeeze half a block (84 bytes) per call: half the squeeze calls, about 2 % of key
 * generation's cycles (make bench-m4, ML-KEM-512 asm -O2 keygen: 409,239 estimated cycles
 * with 42-byte pieces at 449d9f1, 397,309 with 84-byte ones at 933f54b). The accepted values are
 * gathered one run of the base multiplication at a time (PART_COEFFS = 64 coefficients,
 * 32 degree-2 factors) and then multiplied in with one call, whose product loop has a
 * constant trip count. */
#ifdef PQPAN_M4_ASM
#define XOF_PIECE (PQPAN_SHAKE128_RATE / 2)
#else
#define XOF_PIECE (PQPAN_SHAKE128_RATE / 4)
#endif
#define PART_COEFFS (2 * PQPAN_MLKEM_BASEMUL_RUN)

_Static_assert(XOF_PIECE % 3 == 0, "SampleNTT pieces hold whole triples");
_Static_assert(PQPAN_MLKEM_N % PART_COEFFS == 0, "a polynomial is whole parts");

static uint32_t load24_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

/* Alg. 7 lines 5-14 on buf[*pos .. len), appending to a[count] until at least max values
 * are held or the bytes run out: d1, d2 are the two 12-bit halves of each 3 bytes, taken
 * if < q. Every candidate is stored and the count advanced only when it is accepted (no
 * branch per candidate). While four more values fit, 6 bytes (two triples) are read as
 * one 64-bit word; near max, one triple at a time, so the count stops at max or max + 1
 * (the second value of the last triple): a must have max + 1 slots. buf must have 2
 * readable bytes after len. Advances *pos to the first unread triple; returns the new
 * count. */
/* Stores candidate d at a[count]; the new count (advanced if d < q). */
static inline unsigned keep_if_below_q(int16_t *a, unsigned count, uint32_t d)
{
    a[count] = (int16_t)d;
    return count + (d < PQPAN_MLKEM_Q);
}

unsigned PQPAN_M4_PORTABLE(pqpan_mlkem_rej_uniform)(int16_t *a, unsigned count, unsigned max,
                                                    const uint8_t *buf, size_t len, size_t *pos)
{
    size_t p = *pos;
    for (; p + 6 <= len && count + 4 <= max; p += 6) {
        /* the four 12-bit values of the 48 bits, from the two 32-bit halves */
        const uint64_t t = pqpan_load64_le(buf + p);
        const uint32_t lo = (uint32_t)t, hi = (uint32_t)(t >> 32);
        count = keep_if_below_q(a, count, lo & 0xFFF);
        count = keep_if_below_q(a, count, (lo >> 12) & 0xFFF);
        count = keep_if_below_q(a, count, ((lo >> 24) | (hi << 8)) & 0xFFF);
        count = keep_if_below_q(a, count, (hi >> 4) & 0xFFF);
    }
    for (; p + 3 <= len && count < max; p += 3) {
        const uint32_t t = load24_le(buf + p);
        count = keep_if_below_q(a, count, t & 0xFFF);
        count = keep_if_below_q(a, count, t >> 12);
    }
    *pos = p;
    return count;
}

/* FIPS 203 Alg. 7, one part at a time: once PART_COEFFS values are accepted they are
 * multiplied into acc; one more (the second value of the triple that completed the part)
 * opens the next part, and after the last part it is dropped, as Alg. 7 stops at
 * j = 256. The loop bounds depend on rho, which is public. */
void pqpan_mlkem_matacc(int16_t acc[PQPAN_MLKEM_N], const uint8_t rho[PQPAN_MLKEM_SYMBYTES],
                        uint8_t x, uint8_t y, const uint8_t b[PQPAN_MLKEM_POLYBYTES])
{
    struct pqpan_shake128_ctx xof;
    uint8_t buf[XOF_PIECE + 2];
    int16_t vals[PART_COEFFS + 1];
    uint8_t idx[2];
    size_t pos = XOF_PIECE;
    unsigned held = 0, part;
    idx[0] = x;
    idx[1] = y;
    pqpan_shake128_init(&xof);
    pqpan_shake128_absorb(&xof, rho, PQPAN_MLKEM_SYMBYTES);
    pqpan_shake128_absorb(&xof, idx, sizeof idx);
    pqpan_shake128_finalize(&xof);
    buf[XOF_PIECE] = 0;
    buf[XOF_PIECE + 1] = 0;
    for (part = 0; part < PQPAN_MLKEM_N / PART_COEFFS; part++) {
        while (held < PART_COEFFS) {
            if (pos == XOF_PIECE) {
                pqpan_shake128_squeeze(&xof, buf, XOF_PIECE);
                pos = 0;
            }
            held = pqpan_mlkem_rej_uniform(vals, held, PART_COEFFS, buf, XOF_PIECE, &pos);
        }
        pqpan_mlkem_basemul_acc_bytes(acc, vals, b, part * PART_COEFFS / 2, PART_COEFFS / 2);
        held -= PART_COEFFS;
        if (held != 0) {
            vals[0] = vals[PART_COEFFS];
        }
    }
}

static uint32_t load32_le(const uint8_t *p)
{
    return load24_le(p) | (uint32_t)p[3] << 24;
}

/* SamplePolyCBD reads the PRF output in four pieces of 16 eta bytes, 64 coefficients
 * each, so that only one piece is on the stack. */
#define CBD_PIECE_COEFFS 64

/* Alg. 8 with eta = 2 on one piece, written to c or (add = 1) added to it: per 4 input
 * bits b0..b3, f = (b0 + b1) - (b2 + b3). The bit sums are formed for eight coefficients
 * at once from a 32-bit word. Inlined with add constant. */
static inline void cbd2(int16_t c[CBD_PIECE_COEFFS], const uint8_t buf[32], int add)
{
    unsigned i, j;
    for (i = 0; i < CBD_PIECE_COEFFS / 8; i++) {
        const uint32_t t = load32_le(buf + 4 * i);
        const uint32_t d = (t & 0x55555555u) + ((t >> 1) & 0x55555555u);
        for (j = 0; j < 8; j++) {
            const int16_t x = (int16_t)((d >> (4 * j)) & 3u);
            const int16_t y = (int16_t)((d >> (4 * j + 2)) & 3u);
            const int16_t old = add ? c[8 * i + j] : 0;
            c[8 * i + j] = (int16_t)(old + x - y);
        }
    }
}

/* cbd2 on one piece of 64 coefficients with add as a parameter: the function the M4
 * backend replaces (src/crypto/m4/ntt_m4.c). */
void PQPAN_M4_PORTABLE(pqpan_mlkem_cbd2_piece)(int16_t c[64], const uint8_t buf[32], int add)
{
    if (add) {
        cbd2(c, buf, 1);
    } else {
        cbd2(c, buf, 0);
    }
}

/* Alg. 8 with eta = 3 on one piece, written or added as cbd2: per 6 input bits,
 * (b0 + b1 + b2) - (b3 + b4 + b5), four coefficients per 24-bit word. */
static inline void cbd3(int16_t c[CBD_PIECE_COEFFS], const uint8_t buf[48], int add)
{
    unsigned i, j;
    for (i = 0; i < CBD_PIECE_COEFFS / 4; i++) {
        const uint32_t t = load24_le(buf + 3 * i);
        const uint32_t d = (t & 0x00249249u) + ((t >> 1) & 0x00249249u) + ((t >> 2) & 0x00249249u);
        for (j = 0; j < 4; j++) {
            const int16_t x = (int16_t)((d >> (6 * j)) & 7u);
            const int16_t y = (int16_t)((d >> (6 * j + 3)) & 7u);
            const int16_t old = add ? c[4 * i + j] : 0;
            c[4 * i + j] = (int16_t)(old + x - y);
        }
    }
}

/* cbd3 on one piece of 64 coefficients with add as a parameter: the function the M4
 * backend replaces (src/crypto/m4/ntt_m4.c). */
void PQPAN_M4_PORTABLE(pqpan_mlkem_cbd3_piece)(int16_t c[64], const uint8_t buf[48], int add)
{
    if (add) {
        cbd3(c, buf, 1);
    } else {
        cbd3(c, buf, 0);
    }
}

/* PRF_eta(s, b) = SHAKE256(s || b, 64 eta) (FIPS 203 eq. 4.3), then Alg. 8 written to
 * or added to p, piece by piece. */
static void cbd(struct mlkem_poly *p, const uint8_t seed[PQPAN_MLKEM_SYMBYTES], uint8_t nonce,
                unsigned eta, int add)
{
    struct pqpan_shake256_ctx prf;
    uint8_t buf[CBD_PIECE_COEFFS / 4 * 3];
    unsigned off;
    pqpan_shake256_init(&prf);
    pqpan_shake256_absorb(&prf, seed, PQPAN_MLKEM_SYMBYTES);
    pqpan_shake256_absorb(&prf, &nonce, 1);
    for (off = 0; off < PQPAN_MLKEM_N; off += CBD_PIECE_COEFFS) {
        int16_t *c = p->c + off;
        pqpan_shake256_squeeze(&prf, buf, CBD_PIECE_COEFFS / 4 * (size_t)eta);
        if (eta == 2) {
            pqpan_mlkem_cbd2_piece(c, buf, add);
        } else {
            pqpan_mlkem_cbd3_piece(c, buf, add);
        }
    }
    pqpan_wipe(&prf, sizeof prf);
    pqpan_wipe(buf, sizeof buf);
}

void pqpan_mlkem_sample_cbd(struct mlkem_poly *p, const uint8_t seed[PQPAN_MLKEM_SYMBYTES],
                            uint8_t nonce, unsigned eta)
{
    cbd(p, seed, nonce, eta, 0);
}

void pqpan_mlkem_add_cbd(struct mlkem_poly *p, const uint8_t seed[PQPAN_MLKEM_SYMBYTES],
                         uint8_t nonce, unsigned eta)
{
    cbd(p, seed, nonce, eta, 1);
}
