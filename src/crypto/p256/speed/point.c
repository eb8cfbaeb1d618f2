/* P-256 scalar multiplication for the speed build (point.h), in Jacobian coordinates for
 * a = -3 with the formulas of the Explicit-Formulas Database (EFD, hyperelliptic.org/EFD,
 * "g1p/auto-shortw-jacobian-3"):
 *   doubling    dbl-2004-hmv (Hankerson, Menezes, Vanstone,
 *               "Guide to Elliptic Curve Cryptography", Alg. 3.21) 4M + 4S + 1 halving
 *   addition    add-1998-cmo-2 (Cohen, Miyaji, Ono 1998)         12M + 4S
 *   mixed       madd-2004-hmv (Hankerson, Menezes, Vanstone,
 *               "Guide to Elliptic Curve Cryptography", Alg. 3.22) 8M + 3S
 * against 8M + 3S + 2m_b (doubling) and 12M + 2m_b (addition) of the complete formulas
 * in the small build.
 *
 * Exceptional cases. Doubling is right for every input on a prime-order curve (no point
 * has y = 0), Z = 0 in gives Z = 2YZ = 0 out. The additions are wrong in three cases:
 * an input at infinity (handled here by masks: the result is the other input), P + (-P)
 * (H = 0, so Z3 = 0: the point at infinity, which is right), and P + P (H = R = 0, the
 * result (0 : 0 : 0) is wrong). The scalar multiplications below never add a point to
 * itself for 1 <= k <= n - 1, by the value of the accumulator (comments at each); the
 * differential tests (tests/unit/test_p256_speed.c) run the edge scalars. */
#include "crypto/p256/speed/point.h"

#include <stddef.h>
#include <string.h>

#include "crypto/p256/speed/fe.h"
#include "pqpan/common.h"

typedef struct pqpan_p256_sfe fe;

/* Jacobian (X : Y : Z) and affine (x, y), Montgomery form. */
struct jac {
    fe x, y, z;
};
struct aff {
    fe x, y;
};

#define DIGITS (2 * P256_BYTES) /* 4-bit digits of a scalar */
#define ENTRIES 15              /* table entries: digits 1..15 (0 is no addition) */

/* The generated table of d · 16^i · G, base_table[i][d - 1] = {x, y} (Montgomery),
 * written by tools/p256-table/gen_p256_table.c and checked by ctest p256_table_fresh. */
#include "crypto/p256/speed/base_table.h"

static void add(fe *r, const fe *a, const fe *b)
{
    pqpan_p256_sfe_add(r, a, b);
}

static void sub(fe *r, const fe *a, const fe *b)
{
    pqpan_p256_sfe_sub(r, a, b);
}

static void mul(fe *r, const fe *a, const fe *b)
{
    pqpan_p256_sfe_mul(r, a, b);
}

static void sqr(fe *r, const fe *a)
{
    pqpan_p256_sfe_sqr(r, a);
}

/* dbl-2004-hmv (HMV, "Guide to Elliptic Curve Cryptography", Alg. 3.21): with
 * alpha = 3 (X - Z^2)(X + Z^2), Y' = 2Y and T = X Y'^2 = 4 X Y^2,
 * X3 = alpha^2 - 2T, Y3 = alpha (T - X3) - Y'^4 / 2, Z3 = Y' Z. r may alias p (p's
 * coordinates are read before r's are written). */
static void dbl(struct jac *r, const struct jac *p)
{
    fe alpha, y2, t, u;
    sqr(&u, &p->z);
    sub(&alpha, &p->x, &u);
    add(&u, &p->x, &u);
    mul(&alpha, &alpha, &u);
    add(&u, &alpha, &alpha);
    add(&alpha, &u, &alpha);   /* 3 (X^2 - Z^4) */
    add(&y2, &p->y, &p->y);    /* Y' = 2Y */
    mul(&r->z, &y2, &p->z);    /* Z3 = 2 Y Z */
    sqr(&y2, &y2);             /* 4 Y^2 */
    mul(&t, &y2, &p->x);       /* T = 4 X Y^2 */
    sqr(&y2, &y2);             /* 16 Y^4 */
    pqpan_p256_sfe_half(&y2, &y2); /* 8 Y^4 */
    sqr(&r->x, &alpha);
    add(&u, &t, &t);
    sub(&r->x, &r->x, &u);     /* X3 = alpha^2 - 8 X Y^2 */
    sub(&u, &t, &r->x);
    mul(&u, &alpha, &u);
    sub(&r->y, &u, &y2);       /* Y3 = alpha (4 X Y^2 - X3) - 8 Y^4 */
}

/* r = q where mask is all ones. */
static void jac_cmov(struct jac *r, const struct jac *q, pqpan_p256_limb mask)
{
    pqpan_p256_sfe_cmov(&r->x, &q->x, mask);
    pqpan_p256_sfe_cmov(&r->y, &q->y, mask);
    pqpan_p256_sfe_cmov(&r->z, &q->z, mask);
}

/* The shared tail of both additions: from H = U2 - U1, R = S2 - S1, U1, S1 and the
 * product of the Z's, X3 = R^2 - H^3 - 2 U1 H^2, Y3 = R (U1 H^2 - X3) - S1 H^3,
 * Z3 = Z1 Z2 H. */
static void add_tail(struct jac *r, const fe *h, const fe *rr, const fe *u1, const fe *s1,
                     const fe *zz)
{
    fe hh, hhh, v, t;
    sqr(&hh, h);
    mul(&hhh, &hh, h);
    mul(&v, u1, &hh);
    sqr(&t, rr);
    sub(&t, &t, &hhh);
    sub(&t, &t, &v);
    sub(&r->x, &t, &v);
    sub(&t, &v, &r->x);
    mul(&t, rr, &t);
    mul(&hhh, s1, &hhh);
    sub(&r->y, &t, &hhh);
    mul(&r->z, zz, h);
}

/* add-1998-cmo-2 with the infinity cases masked: U1 = X1 Z2^2, U2 = X2 Z1^2,
 * S1 = Y1 Z2^3, S2 = Y2 Z1^3. Wrong only for p == q (not at infinity). r may alias. */
static void add_jac(struct jac *r, const struct jac *p, const struct jac *q)
{
    fe z1z1, z2z2, u1, u2, s1, s2, h, rr, zz;
    struct jac out;
    pqpan_p256_limb p_inf = pqpan_p256_sfe_zero_mask(&p->z);
    pqpan_p256_limb q_inf = pqpan_p256_sfe_zero_mask(&q->z);
    sqr(&z1z1, &p->z);
    sqr(&z2z2, &q->z);
    mul(&u1, &p->x, &z2z2);
    mul(&u2, &q->x, &z1z1);
    mul(&s1, &p->y, &q->z);
    mul(&s1, &s1, &z2z2);
    mul(&s2, &q->y, &p->z);
    mul(&s2, &s2, &z1z1);
    sub(&h, &u2, &u1);
    sub(&rr, &s2, &s1);
    mul(&zz, &p->z, &q->z);
    add_tail(&out, &h, &rr, &u1, &s1, &zz);
    jac_cmov(&out, q, p_inf);
    jac_cmov(&out, p, q_inf);
    *r = out;
}

/* madd-2004-hmv: p Jacobian, q affine (never infinity); U1 = X1, S1 = Y1, U2 = x2 Z1^2,
 * S2 = y2 Z1^3. p at infinity gives (x2 : y2 : 1). Wrong only for p == q. r may alias p. */
static void add_mixed(struct jac *r, const struct jac *p, const struct aff *q)
{
    fe z1z1, u2, s2, h, rr;
    struct jac out, q_jac;
    pqpan_p256_limb p_inf = pqpan_p256_sfe_zero_mask(&p->z);
    sqr(&z1z1, &p->z);
    mul(&u2, &q->x, &z1z1);
    mul(&s2, &q->y, &p->z);
    mul(&s2, &s2, &z1z1);
    sub(&h, &u2, &p->x);
    sub(&rr, &s2, &p->y);
    add_tail(&out, &h, &rr, &p->x, &p->y, &p->z);
    q_jac.x = q->x;
    q_jac.y = q->y;
    pqpan_p256_sfe_one(&q_jac.z);
    jac_cmov(&out, &q_jac, p_inf);
    *r = out;
}

/* All ones if a == b, else 0, without a branch. */
static pqpan_p256_limb eq_mask(uint32_t a, uint32_t b)
{
    uint32_t diff = a ^ b;
    uint32_t differ = (diff | (0u - diff)) >> 31;
    return (pqpan_p256_limb)differ - 1u;
}

/* The 64 base-16 digits of k (32 big-endian bytes), least significant first. */
static void scalar_digits(uint8_t d[DIGITS], const uint8_t k[P256_BYTES])
{
    unsigned i;
    for (i = 0; i < P256_BYTES; i++) {
        uint8_t byte = k[P256_BYTES - 1 - i];
        d[2 * i] = (uint8_t)(byte & 0x0fu);
        d[2 * i + 1] = (uint8_t)(byte >> 4);
    }
}

/* (x, y) as plain integers from (X : Y : Z); returns 1 if Z = 0 (coordinates 0). */
static uint32_t to_affine(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS], const struct jac *p)
{
    fe zinv, zinv2, ax, ay, plain_one = {{1}};
    struct pqpan_p256_fe out;
    uint32_t infinity = (uint32_t)(pqpan_p256_sfe_zero_mask(&p->z) & 1u);
    pqpan_p256_sfe_inv(&zinv, &p->z); /* 0 for Z = 0 */
    sqr(&zinv2, &zinv);
    mul(&ax, &p->x, &zinv2);
    mul(&zinv2, &zinv2, &zinv);
    mul(&ay, &p->y, &zinv2);
    mul(&ax, &ax, &plain_one); /* out of Montgomery form: a 2^-256 */
    mul(&ay, &ay, &plain_one);
    pqpan_p256_sfe_to_fe(&out, &ax);
    memcpy(x, out.w, sizeof out.w);
    pqpan_p256_sfe_to_fe(&out, &ay);
    memcpy(y, out.w, sizeof out.w);
    pqpan_wipe(&out, sizeof out);
    return infinity;
}

_Static_assert(PQPAN_P256_SFE_LIMBS % 4 == 0, "gather4 takes limbs by fours");

/* out[0..3] = the four limbs at byte offset j stride from `first` for j = d - 1, where
 * every one of the count entries is read and masked in; d = 0 (or d > count) gives 0.
 * The limbs gather in locals, which the compiler keeps in registers (an accumulator in
 * the caller's struct it kept in memory: a load and a store per limb and entry). */
static void gather4(pqpan_p256_limb out[4], const void *first, size_t stride, unsigned count,
                    uint32_t d)
{
    pqpan_p256_limb a0 = 0, a1 = 0, a2 = 0, a3 = 0;
    unsigned j;
    for (j = 0; j < count; j++) {
        pqpan_p256_limb mask = eq_mask(j + 1u, d);
        const pqpan_p256_limb *w = (const pqpan_p256_limb *)((const char *)first + j * stride);
        a0 |= w[0] & mask;
        a1 |= w[1] & mask;
        a2 |= w[2] & mask;
        a3 |= w[3] & mask;
    }
    out[0] = a0;
    out[1] = a1;
    out[2] = a2;
    out[3] = a3;
}

/* r = the entry for digit d (1..15) of one row of base_table, all 15 read; d = 0 gives
 * (0, 0), which the caller does not add. */
static void base_select(struct aff *r, const pqpan_p256_limb row[ENTRIES][2][PQPAN_P256_SFE_LIMBS],
                        uint32_t d)
{
    unsigned l;
    for (l = 0; l < PQPAN_P256_SFE_LIMBS; l += 4) {
        gather4(&r->x.w[l], &row[0][0][l], sizeof row[0], ENTRIES, d);
        gather4(&r->y.w[l], &row[0][1][l], sizeof row[0], ENTRIES, d);
    }
}

/* k = sum d_i 16^i: acc += d_i 16^i G for i = 0..63, skipped (by mask) when d_i = 0.
 * Before step i, acc = A G with 0 <= A < 16^i <= d_i 16^i, and A + d_i 16^i <= k < n:
 * so A != d_i 16^i and A + d_i 16^i != 0 mod n, never P + P (nor P + (-P)). */
void pqpan_p256_speed_base_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                               const uint8_t k[P256_BYTES])
{
    uint8_t d[DIGITS];
    struct jac acc, sum;
    struct aff t;
    unsigned i;
    scalar_digits(d, k);
    pqpan_p256_sfe_one(&acc.x);
    acc.y = acc.x;
    acc.z = (fe){{0}};
    for (i = 0; i < DIGITS; i++) {
        base_select(&t, base_table[i], d[i]);
        add_mixed(&sum, &acc, &t);
        jac_cmov(&acc, &sum, ~eq_mask(d[i], 0));
    }
    (void)to_affine(x, y, &acc);
    pqpan_wipe(d, sizeof d);
    pqpan_wipe(&acc, sizeof acc);
    pqpan_wipe(&sum, sizeof sum);
    pqpan_wipe(&t, sizeof t);
}

/* The variable-base multiplication's signed window: k = sum d_i 32^i with digits
 * d_i in [-15, 16] (i = 0..51, bits 255..259 in the top window). */
#define WINDOW_BITS 5
#define SIGNED_DIGITS 52   /* ceil(257 / 5): 256 bits plus the top digit's carry */
#define SIGNED_ENTRIES 16  /* table of 1..16 P */

/* Bits pos..pos+4 of k (32 big-endian bytes), those past bit 255 zero. pos is public. */
static uint32_t window_bits(const uint8_t k[P256_BYTES], unsigned pos)
{
    unsigned byte = pos / 8;
    uint32_t v = k[P256_BYTES - 1 - byte];
    if (byte + 1 < P256_BYTES) {
        v |= (uint32_t)k[P256_BYTES - 2 - byte] << 8;
    }
    return (v >> (pos % 8)) & ((1u << WINDOW_BITS) - 1u);
}

/* Signed recoding without a branch: w = window + carry in 0..32; w <= 16 gives the digit
 * w, w > 16 the digit w - 32 (magnitude 32 - w) and a carry into the next window. Each
 * digit as magnitude (0..16) and a sign (1 if negative). */
static void scalar_signed_digits(uint8_t mag[SIGNED_DIGITS], uint8_t neg[SIGNED_DIGITS],
                                 const uint8_t k[P256_BYTES])
{
    uint32_t carry = 0;
    unsigned i;
    for (i = 0; i < SIGNED_DIGITS; i++) {
        uint32_t w = window_bits(k, WINDOW_BITS * i) + carry;
        carry = (16u - w) >> 31; /* w > 16 */
        mag[i] = (uint8_t)(w ^ ((w ^ (32u - w)) & (0u - carry)));
        neg[i] = (uint8_t)carry;
    }
}

/* The coordinate at byte offset `member` (offsetof x, y or z: public) of table[d - 1] for
 * d = 1..16, every entry read; d = 0 gives 0. */
static void select_coordinate(fe *r, const struct jac table[SIGNED_ENTRIES], size_t member,
                              uint32_t d)
{
    unsigned l;
    for (l = 0; l < PQPAN_P256_SFE_LIMBS; l += 4) {
        gather4(&r->w[l], (const char *)&table[0] + member + l * sizeof r->w[0], sizeof table[0],
                SIGNED_ENTRIES, d);
    }
}

/* r = table[d - 1] for d = 1..16; d = 0 gives (0 : 0 : 0), the point at infinity. Then y
 * negated (p - y) where neg is 1. */
static void window_select(struct jac *r, const struct jac table[SIGNED_ENTRIES], uint32_t d,
                          uint32_t neg)
{
    fe minus_y, zero = {{0}};
    select_coordinate(&r->x, table, offsetof(struct jac, x), d);
    select_coordinate(&r->y, table, offsetof(struct jac, y), d);
    select_coordinate(&r->z, table, offsetof(struct jac, z), d);
    sub(&minus_y, &zero, &r->y);
    pqpan_p256_sfe_cmov(&r->y, &minus_y, (pqpan_p256_limb)0u - neg);
}

/* Left to right over the signed digits: acc = 32 acc + d_i P. Before adding digit i,
 * acc = B P with B = 32 K where K = sum_{j>i} d_j 32^(j-i-1); K_i = B + d_i equals
 * floor(k / 32^i) + (the carry into digit i), so 0 <= K_i, and K_i < n / 16 for i >= 1.
 * P + P would need B = d_i mod n: for i >= 1, |K_i - 2 d_i| < n forces K_i = 2 d_i, so
 * B = d_i, a multiple of 32 of size <= 16: both 0, both at infinity (the masks). For
 * i = 0, k - 2 d_0 is 0 (k = 2 d_0, the same) or n: k = n + 2 d_0 with d_0 < 0 would
 * need k mod 32 = c_0 = d_0 + 32 and c_0 = (17 + 2 d_0) mod 32 (n = 17 mod 32), i.e.
 * d_0 = -17: outside [-15, 16]. P + (-P) gives infinity, right, and needs K_i = 0 mod n,
 * which only K_i = 0 (both at infinity) meets. The table: 2P by doubling, then
 * (j - 1) P + P for j = 3..16 with (j - 1) P != +-P (n > 17). */
uint32_t pqpan_p256_speed_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                              const struct pqpan_p256_point *p, const uint8_t k[P256_BYTES])
{
    uint8_t mag[SIGNED_DIGITS], neg[SIGNED_DIGITS];
    struct jac table[SIGNED_ENTRIES], acc, t;
    struct aff base;
    uint32_t infinity;
    unsigned i, j;
    scalar_signed_digits(mag, neg, k);
    pqpan_p256_sfe_from_fe(&base.x, &p->x);
    pqpan_p256_sfe_from_fe(&base.y, &p->y);
    table[0].x = base.x;
    table[0].y = base.y;
    pqpan_p256_sfe_one(&table[0].z);
    dbl(&table[1], &table[0]);
    for (j = 2; j < SIGNED_ENTRIES; j++) {
        add_mixed(&table[j], &table[j - 1], &base);
    }
    window_select(&acc, table, mag[SIGNED_DIGITS - 1], neg[SIGNED_DIGITS - 1]);
    for (i = SIGNED_DIGITS - 1; i-- > 0;) {
        for (j = 0; j < WINDOW_BITS; j++) {
            dbl(&acc, &acc);
        }
        window_select(&t, table, mag[i], neg[i]);
        add_jac(&acc, &acc, &t);
    }
    infinity = to_affine(x, y, &acc);
    pqpan_wipe(mag, sizeof mag);
    pqpan_wipe(neg, sizeof neg);
    pqpan_wipe(table, sizeof table);
    pqpan_wipe(&acc, sizeof acc);
    pqpan_wipe(&t, sizeof t);
    return infinity;
}
