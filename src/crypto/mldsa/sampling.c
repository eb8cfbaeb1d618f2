/* Pseudorandom sampling of FIPS 204 §7.3 on SHAKE128 (G) and SHAKE256 (H) (§3.7). */
#include "crypto/mldsa/sampling.h"

#include <string.h>

#include "common/bytes.h"
#include "common/compiler.h"
#include "crypto/ct_testing.h"
#include "crypto/m4/backend.h"
#include "crypto/mldsa/acc.h"
#include "crypto/mldsa/ntt.h"
#include "pqpan/common.h"
#include "pqpan/sha3.h"

/* RejNTTPoly reads the SHAKE128 output 8 candidates (24 bytes) at a time: 24 divides the
 * rate, so every piece is whole lanes of one block. */
_Static_assert(PQPAN_SHAKE128_RATE % PQPAN_MLDSA_REJ_PIECE == 0,
               "RejNTTPoly pieces do not straddle blocks");

/* G = SHAKE128 absorbing rho' = rho || IntegerToBytes(col, 1) || IntegerToBytes(row, 1)
 * (Alg. 32 line 4), ready to squeeze (Alg. 30 line 2). */
static void entry_xof(struct pqpan_shake128_ctx *xof, const uint8_t rho[PQPAN_MLDSA_SEEDBYTES],
                      unsigned col, unsigned row)
{
    uint8_t idx[2];
    idx[0] = (uint8_t)col;
    idx[1] = (uint8_t)row;
    pqpan_shake128_init(xof);
    pqpan_shake128_absorb(xof, rho, PQPAN_MLDSA_SEEDBYTES);
    pqpan_shake128_absorb(xof, idx, sizeof idx);
    pqpan_shake128_finalize(xof);
}

void pqpan_mldsa_entry_start(struct mldsa_entry_stream *e,
                             const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned col, unsigned row)
{
    entry_xof(&e->xof, rho, col, row);
    e->pos = PQPAN_MLDSA_REJ_PIECE;
}

/* CoeffFromThreeBytes (Alg. 14) of the three bytes at b: the top bit of the third byte
 * cleared; the caller accepts the value when it is below q. */
static int32_t three_bytes(const uint8_t *b)
{
    return (int32_t)((uint32_t)b[0] | (uint32_t)b[1] << 8 | ((uint32_t)b[2] & 0x7F) << 16);
}

/* Alg. 30 lines 5-9 for one candidate z (CoeffFromThreeBytes already applied): kept as
 * coefficient n when below q, while coefficients are missing. Returns the new count. The
 * matrix is public, so the rejection may branch. */
static unsigned rej_take(int32_t a[PQPAN_MLDSA_N], unsigned n, uint32_t z)
{
    if (n < PQPAN_MLDSA_N) {
        a[n] = (int32_t)z;
        n += z < PQPAN_MLDSA_Q;
    }
    return n;
}

/* Bytes read at once by rej_parse: four candidates in three 32-bit words. */
#define REJ_GROUP 12
#define REJ_LOW23 0x7FFFFFu /* Alg. 14: the top bit of the third byte cleared */
_Static_assert(PQPAN_SHAKE128_RATE % REJ_GROUP == 0, "candidate groups do not straddle blocks");

/* RejNTTPoly's loop (Alg. 30 lines 3-11) over len bytes at buf (a multiple of REJ_GROUP)
 * from coefficient n on; returns the number of coefficients held afterwards. Candidate
 * t of a group is bytes 3t..3t+2 of its three little-endian words (Alg. 14). */
static unsigned rej_parse(int32_t a[PQPAN_MLDSA_N], unsigned n, const uint8_t *buf, size_t len)
{
    size_t pos;
    for (pos = 0; pos < len && n < PQPAN_MLDSA_N; pos += REJ_GROUP) {
        const uint32_t w0 = pqpan_load32_le(buf + pos), w1 = pqpan_load32_le(buf + pos + 4);
        const uint32_t w2 = pqpan_load32_le(buf + pos + 8);
        n = rej_take(a, n, w0 & REJ_LOW23);
        n = rej_take(a, n, (w0 >> 24 | w1 << 8) & REJ_LOW23);
        n = rej_take(a, n, (w1 >> 16 | w2 << 16) & REJ_LOW23);
        n = rej_take(a, n, (w2 >> 8) & REJ_LOW23);
    }
    return n;
}

/* Blocks squeezed at once: 5 blocks hold 280 candidates, each accepted with probability
 * q / 2^23 > 0.999, so a sixth block is rarely needed. */
#define REJ_FIRST_BLOCKS 5

void pqpan_mldsa_rej_ntt_poly(int32_t a[PQPAN_MLDSA_N], const uint8_t rho[PQPAN_MLDSA_SEEDBYTES],
                              unsigned col, unsigned row)
{
    struct pqpan_shake128_ctx xof;
    uint8_t buf[REJ_FIRST_BLOCKS * PQPAN_SHAKE128_RATE];
    unsigned n;
    entry_xof(&xof, rho, col, row);
    pqpan_shake128_squeezeblocks(&xof, buf, REJ_FIRST_BLOCKS);
    n = rej_parse(a, 0, buf, sizeof buf);
    while (n < PQPAN_MLDSA_N) {
        pqpan_shake128_squeezeblocks(&xof, buf, 1);
        n = rej_parse(a, n, buf, PQPAN_SHAKE128_RATE);
    }
}

/* Alg. 30 and 32 with the product of Alg. 45 fused in: CoeffFromThreeBytes (Alg. 14)
 * clears the top bit of the third byte and accepts values < q. The candidates are
 * squeezed a piece at a time into the stream's 24-byte buffer (the sponge's state is not
 * read directly: with the Cortex-M4 backend it is held interleaved). */
void pqpan_mldsa_entry_acc(uint8_t acc[PQPAN_MLDSA_ACC_BYTES], struct mldsa_entry_stream *e,
                           unsigned first, unsigned count, const int32_t *b)
{
    unsigned n = 0, pos = e->pos;
    while (n < count) {
        int32_t z;
        if (pos == PQPAN_MLDSA_REJ_PIECE) {
            pqpan_shake128_squeeze(&e->xof, e->buf, PQPAN_MLDSA_REJ_PIECE); /* FIPS 202 Alg. 8 */
            pos = 0;
        }
        z = three_bytes(e->buf + pos);
        pos += 3;
        if (z < PQPAN_MLDSA_Q) {
            mldsa_acc_add(acc, first + n, mldsa_mont_mul(z, b[n]));
            n++;
        }
    }
    e->pos = pos;
}

void pqpan_mldsa_matacc(uint8_t acc[PQPAN_MLDSA_ACC_BYTES],
                        const uint8_t rho[PQPAN_MLDSA_SEEDBYTES], unsigned col, unsigned row,
                        const int32_t b[PQPAN_MLDSA_N])
{
    struct mldsa_entry_stream e;
    pqpan_mldsa_entry_start(&e, rho, col, row);
    pqpan_mldsa_entry_acc(acc, &e, 0, PQPAN_MLDSA_N, b);
}

/* Streams packed coefficients of `bits` bits into a byte string (Alg. 17, 9, 11). */
struct bit_writer {
    uint8_t *out;
    uint32_t acc;
    unsigned have;
};

/* The packed value eta - CoeffFromHalfByte(b) (Alg. 15 then Alg. 24's BitPack(s, eta,
 * eta)) of an accepted half-byte: b mod 5 for eta = 2 (b < 15), b itself for eta = 4
 * (b < 9). b mod 5 = b - 5 floor(13 b / 64) for b < 15, without a division. */
static uint32_t packed_eta_value(uint32_t b, unsigned eta)
{
    return eta == 2 ? b - 5 * ((13 * b) >> 6) : b;
}

/* 1 if the half-byte b is accepted (Alg. 15: b < 15 for eta = 2, b < 9 for eta = 4), as
 * a value the caller may branch on: see the header. */
static unsigned half_byte_accepted(uint32_t b, unsigned eta)
{
    unsigned ok = (unsigned)(((int32_t)b - (eta == 2 ? 15 : 9)) >> 31) & 1u;
    PQPAN_CT_DECLASSIFY(&ok, sizeof ok);
    return ok;
}

/* Alg. 31 lines 4-14 over one squeezed block buf from coefficient n on: each accepted
 * half-byte (low half first) packed at w, until 256 are held; returns the new count. The
 * writer is read into locals for the loop, so that it stays in registers, and written
 * back (the caller wipes it). */
static unsigned pack_half_bytes(struct bit_writer *w, const uint8_t buf[PQPAN_SHAKE256_RATE],
                                unsigned n, unsigned eta, unsigned bits)
{
    uint8_t *out = w->out;
    uint32_t acc = w->acc;
    unsigned have = w->have, pos, half;
    for (pos = 0; pos < PQPAN_SHAKE256_RATE && n < PQPAN_MLDSA_N; pos++) {
        for (half = 0; half < 2 && n < PQPAN_MLDSA_N; half++) {
            const uint32_t b = (uint32_t)(buf[pos] >> (4 * half)) & 15u;
            if (half_byte_accepted(b, eta)) {
                acc |= packed_eta_value(b, eta) << have; /* bits <= 4: one byte at most */
                have += bits;
                if (have >= 8) {
                    *out++ = (uint8_t)acc;
                    acc >>= 8;
                    have -= 8;
                }
                n++;
            }
        }
    }
    w->out = out;
    w->acc = acc;
    w->have = have;
    return n;
}

/* RejBoundedPoly (Alg. 31) into its BitPack encoding at out. */
static void rej_bounded_packed(uint8_t *out, const struct mldsa_params *p,
                               const uint8_t rhoprime[PQPAN_MLDSA_CRHBYTES], unsigned nonce)
{
    struct pqpan_shake256_ctx xof;
    struct bit_writer w;
    uint8_t buf[PQPAN_SHAKE256_RATE];
    uint8_t idx[2];
    unsigned n = 0;
    idx[0] = (uint8_t)nonce; /* Alg. 33 lines 3, 6: IntegerToBytes(r, 2) */
    idx[1] = (uint8_t)(nonce >> 8);
    w.out = out;
    w.acc = 0;
    w.have = 0;
    pqpan_shake256_init(&xof);
    pqpan_shake256_absorb(&xof, rhoprime, PQPAN_MLDSA_CRHBYTES);
    pqpan_shake256_absorb(&xof, idx, sizeof idx);
    pqpan_shake256_finalize(&xof);
    while (n < PQPAN_MLDSA_N) {
        pqpan_shake256_squeeze(&xof, buf, sizeof buf);
        n = pack_half_bytes(&w, buf, n, p->eta, p->eta_bits);
    }
    pqpan_wipe(&xof, sizeof xof);
    pqpan_wipe(buf, sizeof buf);
    pqpan_wipe(&w, sizeof w);
}

void pqpan_mldsa_expand_s(uint8_t *out, const struct mldsa_params *p,
                          const uint8_t rhoprime[PQPAN_MLDSA_CRHBYTES])
{
    unsigned r;
    for (r = 0; r < p->k + p->l; r++) {
        rej_bounded_packed(out + r * mldsa_eta_poly_bytes(p), p, rhoprime, r);
    }
}

void pqpan_mldsa_expand_mask(uint8_t *out, size_t out_len,
                             const uint8_t rhopp[PQPAN_MLDSA_CRHBYTES], unsigned nonce)
{
    struct pqpan_shake256_ctx xof;
    uint8_t idx[2];
    idx[0] = (uint8_t)nonce; /* Alg. 34 line 4: IntegerToBytes(mu + r, 2) */
    idx[1] = (uint8_t)(nonce >> 8);
    pqpan_shake256_init(&xof);
    pqpan_shake256_absorb(&xof, rhopp, PQPAN_MLDSA_CRHBYTES);
    pqpan_shake256_absorb(&xof, idx, sizeof idx);
    pqpan_shake256_squeeze(&xof, out, out_len);
    pqpan_wipe(&xof, sizeof xof);
}

/* SampleInBall works on c eight coefficients (one 64-bit word) at a time. */
#define BYTES_ONES 0x0101010101010101u
#define BYTES_LOW7 0x7F7F7F7F7F7F7F7Fu

static uint64_t load_word(const int8_t *c)
{
    uint64_t w;
    memcpy(&w, c, sizeof w);
    return w;
}

static void store_word(int8_t *c, uint64_t w)
{
    memcpy(c, &w, sizeof w);
}

/* 0xFF in each byte of x that is zero, 0 in the others, without a branch: a byte's top bit
 * after adding 0x7F to its low seven bits, ORed with the byte, is clear only for zero (no
 * carry crosses bytes). */
static uint64_t zero_bytes(uint64_t x)
{
    const uint64_t y = ~(((x & BYTES_LOW7) + BYTES_LOW7) | x | BYTES_LOW7);
    return (y >> 7) * 0xFFu;
}

/* The byte positions 8 w .. 8 w + 7 of word w, in memory order (so the comparison does
 * not depend on the byte order of the machine). */
static uint64_t position_word(unsigned w)
{
    static const uint8_t first[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    uint64_t v;
    memcpy(&v, first, sizeof v);
    return v + (uint64_t)(8 * w) * BYTES_ONES;
}

/* The output of H that SampleInBall reads, eight bytes (one lane) at a time: fewer calls
 * into the sponge than a byte at a time, and no more memory than the 8 sign bytes took. */
struct ball_stream {
    struct pqpan_shake256_ctx xof;
    uint8_t buf[8];
    unsigned pos;
};

static uint8_t next_byte(struct ball_stream *st)
{
    if (st->pos == sizeof st->buf) {
        pqpan_shake256_squeeze(&st->xof, st->buf, sizeof st->buf);
        st->pos = 0;
    }
    return st->buf[st->pos++];
}

/* The byte j of Alg. 29 lines 6-9: read until j <= i. */
static unsigned next_position(struct ball_stream *st, unsigned i)
{
    for (;;) {
        const uint8_t j = next_byte(st);
        unsigned rejected;
        rejected = j > i;
        PQPAN_CT_DECLASSIFY(&rejected, sizeof rejected);
        if (!rejected) {
            return j;
        }
    }
}

/* Alg. 29 lines 10-11 for position i and j <= i: c_i = c_j, then c_j = sign (0x01 or 0xFF,
 * the byte of +1 or -1), reading and writing every word up to c_i so that j stays hidden. */
void PQPAN_M4_PORTABLE(pqpan_mldsa_ball_step)(int8_t c[PQPAN_MLDSA_N], unsigned i, unsigned j,
                                              uint8_t sign)
{
    const uint64_t jj = (uint64_t)j * BYTES_ONES, sign_word = (uint64_t)sign * BYTES_ONES;
    const unsigned words = i / 8 + 1; /* the words holding c_0 .. c_i */
    uint64_t cj = 0;
    unsigned w;
    for (w = 0; w < words; w++) { /* line 10 */
        cj |= load_word(c + 8 * w) & zero_bytes(position_word(w) ^ jj);
    }
    cj |= cj >> 32;
    cj |= cj >> 16;
    cj |= cj >> 8;
    c[i] = (int8_t)(uint8_t)cj;
    for (w = 0; w < words; w++) { /* line 11 */
        const uint64_t m = zero_bytes(position_word(w) ^ jj);
        store_word(c + 8 * w, (load_word(c + 8 * w) & ~m) | (sign_word & m));
    }
}

/* Both forms of SampleInBall, each with four arguments (all in registers on the Cortex-M4,
 * so that the callers' frames hold no fifth). */
static PQPAN_ALWAYS_INLINE void sample_in_ball(int8_t c[PQPAN_MLDSA_N], const uint8_t *seed,
                                               size_t seed_len, unsigned tau,
                                               enum mldsa_seed seed_is)
{
    struct ball_stream st;
    uint64_t signs = 0;
    unsigned i, k;
    memset(c, 0, PQPAN_MLDSA_N);
    pqpan_shake256_init(&st.xof);
    pqpan_shake256_absorb(&st.xof, seed, seed_len);
    st.pos = sizeof st.buf;
    for (k = 0; k < 8; k++) { /* lines 3-4: h = BytesToBits(the first 8 bytes) */
        signs |= (uint64_t)next_byte(&st) << (8 * k);
    }
    for (i = PQPAN_MLDSA_N - tau; i < PQPAN_MLDSA_N; i++) {
        const unsigned j = next_position(&st, i);
        const uint8_t sign = (uint8_t)(1 - 2 * (int)(signs & 1u)); /* (-1)^h[i + tau - 256] */
        if (seed_is == MLDSA_SEED_PUBLIC) { /* lines 10-11 as written */
            c[i] = c[j];
            c[j] = (int8_t)sign;
        } else {
            pqpan_mldsa_ball_step(c, i, j, sign);
        }
        signs >>= 1;
    }
    pqpan_wipe(&st, sizeof st);
}

void pqpan_mldsa_sample_in_ball(int8_t c[PQPAN_MLDSA_N], const uint8_t *seed, size_t seed_len,
                                unsigned tau)
{
    sample_in_ball(c, seed, seed_len, tau, MLDSA_SEED_SECRET);
}

void pqpan_mldsa_sample_in_ball_public(int8_t c[PQPAN_MLDSA_N], const uint8_t *seed,
                                       size_t seed_len, unsigned tau)
{
    sample_in_ball(c, seed, seed_len, tau, MLDSA_SEED_PUBLIC);
}
