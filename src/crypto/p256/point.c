/* The P-256 group law with the complete formulas of Renes, Costello and Batina (EUROCRYPT
 * 2016, ePrint 2015/1060) for a = -3: Algorithm 4 (addition) and Algorithm 6 (doubling)
 * in homogeneous projective coordinates. They are correct for every pair of inputs, the
 * point at infinity and P + P included, so the scalar multiplication needs no special
 * case and no branch. Step numbers in the comments are the algorithms' lines. */
#include "crypto/p256/p256.h"

typedef struct pqpan_p256_fe fe;

static void add(fe *r, const fe *a, const fe *b)
{
    pqpan_p256_fe_add(r, a, b);
}

static void sub(fe *r, const fe *a, const fe *b)
{
    pqpan_p256_fe_sub(r, a, b);
}

static void mul(fe *r, const fe *a, const fe *b)
{
    pqpan_p256_fe_mul(r, a, b);
}

/* RCB Algorithm 4: 12M + 2m_b + 29a. */
void pqpan_p256_point_add(struct pqpan_p256_point *r, const struct pqpan_p256_point *p,
                          const struct pqpan_p256_point *q)
{
    fe t0, t1, t2, t3, t4, x3, y3, z3, b;
    pqpan_p256_fe_b(&b);
    mul(&t0, &p->x, &q->x);  /* 1 */
    mul(&t1, &p->y, &q->y);  /* 2 */
    mul(&t2, &p->z, &q->z);  /* 3 */
    add(&t3, &p->x, &p->y);  /* 4 */
    add(&t4, &q->x, &q->y);  /* 5 */
    mul(&t3, &t3, &t4);      /* 6 */
    add(&t4, &t0, &t1);      /* 7 */
    sub(&t3, &t3, &t4);      /* 8 */
    add(&t4, &p->y, &p->z);  /* 9 */
    add(&x3, &q->y, &q->z);  /* 10 */
    mul(&t4, &t4, &x3);      /* 11 */
    add(&x3, &t1, &t2);      /* 12 */
    sub(&t4, &t4, &x3);      /* 13 */
    add(&x3, &p->x, &p->z);  /* 14 */
    add(&y3, &q->x, &q->z);  /* 15 */
    mul(&x3, &x3, &y3);      /* 16 */
    add(&y3, &t0, &t2);      /* 17 */
    sub(&y3, &x3, &y3);      /* 18 */
    mul(&z3, &b, &t2);       /* 19 */
    sub(&x3, &y3, &z3);      /* 20 */
    add(&z3, &x3, &x3);      /* 21 */
    add(&x3, &x3, &z3);      /* 22 */
    sub(&z3, &t1, &x3);      /* 23 */
    add(&x3, &t1, &x3);      /* 24 */
    mul(&y3, &b, &y3);       /* 25 */
    add(&t1, &t2, &t2);      /* 26 */
    add(&t2, &t1, &t2);      /* 27 */
    sub(&y3, &y3, &t2);      /* 28 */
    sub(&y3, &y3, &t0);      /* 29 */
    add(&t1, &y3, &y3);      /* 30 */
    add(&y3, &t1, &y3);      /* 31 */
    add(&t1, &t0, &t0);      /* 32 */
    add(&t0, &t1, &t0);      /* 33 */
    sub(&t0, &t0, &t2);      /* 34 */
    mul(&t1, &t4, &y3);      /* 35 */
    mul(&t2, &t0, &y3);      /* 36 */
    mul(&y3, &x3, &z3);      /* 37 */
    add(&y3, &y3, &t2);      /* 38 */
    mul(&x3, &t3, &x3);      /* 39 */
    sub(&x3, &x3, &t1);      /* 40 */
    mul(&z3, &t4, &z3);      /* 41 */
    mul(&t1, &t3, &t0);      /* 42 */
    add(&z3, &z3, &t1);      /* 43 */
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

/* RCB Algorithm 6: 8M + 3S + 2m_b + 21a (squarings as products here). */
void pqpan_p256_point_double(struct pqpan_p256_point *r, const struct pqpan_p256_point *p)
{
    fe t0, t1, t2, t3, x3, y3, z3, b;
    pqpan_p256_fe_b(&b);
    mul(&t0, &p->x, &p->x);  /* 1 */
    mul(&t1, &p->y, &p->y);  /* 2 */
    mul(&t2, &p->z, &p->z);  /* 3 */
    mul(&t3, &p->x, &p->y);  /* 4 */
    add(&t3, &t3, &t3);      /* 5 */
    mul(&z3, &p->x, &p->z);  /* 6 */
    add(&z3, &z3, &z3);      /* 7 */
    mul(&y3, &b, &t2);       /* 8 */
    sub(&y3, &y3, &z3);      /* 9 */
    add(&x3, &y3, &y3);      /* 10 */
    add(&y3, &x3, &y3);      /* 11 */
    sub(&x3, &t1, &y3);      /* 12 */
    add(&y3, &t1, &y3);      /* 13 */
    mul(&y3, &x3, &y3);      /* 14 */
    mul(&x3, &x3, &t3);      /* 15 */
    add(&t3, &t2, &t2);      /* 16 */
    add(&t2, &t2, &t3);      /* 17 */
    mul(&z3, &b, &z3);       /* 18 */
    sub(&z3, &z3, &t2);      /* 19 */
    sub(&z3, &z3, &t0);      /* 20 */
    add(&t3, &z3, &z3);      /* 21 */
    add(&z3, &z3, &t3);      /* 22 */
    add(&t3, &t0, &t0);      /* 23 */
    add(&t0, &t3, &t0);      /* 24 */
    sub(&t0, &t0, &t2);      /* 25 */
    mul(&t0, &t0, &z3);      /* 26 */
    add(&y3, &y3, &t0);      /* 27 */
    mul(&t0, &p->y, &p->z);  /* 28 */
    add(&t0, &t0, &t0);      /* 29 */
    mul(&z3, &t0, &z3);      /* 30 */
    sub(&x3, &x3, &z3);      /* 31 */
    mul(&z3, &t0, &t1);      /* 32 */
    add(&z3, &z3, &z3);      /* 33 */
    add(&z3, &z3, &z3);      /* 34 */
    r->x = x3;
    r->y = y3;
    r->z = z3;
}

void pqpan_p256_point_infinity(struct pqpan_p256_point *r)
{
    static const uint32_t zero[P256_LIMBS] = {0}, one[P256_LIMBS] = {1};
    pqpan_p256_fe_to_mont(&r->x, zero);
    pqpan_p256_fe_to_mont(&r->y, one);
    r->z = r->x;
}

/* SP 800-186 §3.2.1.3: G = (6b17d1f2 e12c4247 f8bce6e5 63a440f2 77037d81 2deb33a0 f4a13945
 * d898c296, 4fe342e2 fe1a7f9b 8ee7eb4a 7c0f9e16 2bce3357 6b315ece cbb64068 37bf51f5). */
void pqpan_p256_point_generator(struct pqpan_p256_point *r)
{
    static const uint32_t gx[P256_LIMBS] = {0xd898c296u, 0xf4a13945u, 0x2deb33a0u, 0x77037d81u,
                                            0x63a440f2u, 0xf8bce6e5u, 0xe12c4247u, 0x6b17d1f2u};
    static const uint32_t gy[P256_LIMBS] = {0x37bf51f5u, 0xcbb64068u, 0x6b315eceu, 0x2bce3357u,
                                            0x7c0f9e16u, 0x8ee7eb4au, 0xfe1a7f9bu, 0x4fe342e2u};
    static const uint32_t one[P256_LIMBS] = {1};
    pqpan_p256_fe_to_mont(&r->x, gx);
    pqpan_p256_fe_to_mont(&r->y, gy);
    pqpan_p256_fe_to_mont(&r->z, one);
}

#define WINDOW_BITS 4
#define TABLE_SIZE (1u << WINDOW_BITS)

/* r = table[index], reading every entry: the index (a digit of the secret scalar) picks
 * by mask, never by address. */
static void table_select(struct pqpan_p256_point *r, const struct pqpan_p256_point table[TABLE_SIZE],
                         uint32_t index)
{
    uint32_t i;
    *r = table[0];
    for (i = 1; i < TABLE_SIZE; i++) {
        uint32_t diff = i ^ index;
        uint32_t mask = 0u - (((diff | (0u - diff)) >> 31) ^ 1u); /* all ones iff i == index */
        pqpan_p256_fe_cmov(&r->x, &table[i].x, mask);
        pqpan_p256_fe_cmov(&r->y, &table[i].y, mask);
        pqpan_p256_fe_cmov(&r->z, &table[i].z, mask);
    }
}

/* Digit i (0 = least significant) of k in base 16; k is 32 big-endian bytes. The byte
 * position depends on i only. */
static uint32_t scalar_digit(const uint8_t k[P256_BYTES], unsigned i)
{
    uint32_t byte = k[P256_BYTES - 1 - i / 2];
    return (i % 2 == 0 ? byte : byte >> 4) & (TABLE_SIZE - 1u);
}

/* Fixed window, most significant digit first: Q = 16 Q + table[digit] for the 64 digits,
 * table[j] = j · P with table[0] the point at infinity (adding it is a complete-formula
 * addition like any other). */
void pqpan_p256_point_mul(struct pqpan_p256_point *r, const struct pqpan_p256_point *p,
                          const uint8_t k[P256_BYTES])
{
    struct pqpan_p256_point table[TABLE_SIZE];
    struct pqpan_p256_point acc, t;
    unsigned i, d;
    pqpan_p256_point_infinity(&table[0]);
    table[1] = *p;
    for (i = 2; i < TABLE_SIZE; i++) {
        pqpan_p256_point_add(&table[i], &table[i - 1], p);
    }
    table_select(&acc, table, scalar_digit(k, 2 * P256_BYTES - 1));
    for (i = 2 * P256_BYTES - 1; i-- > 0;) {
        for (d = 0; d < WINDOW_BITS; d++) {
            pqpan_p256_point_double(&acc, &acc);
        }
        table_select(&t, table, scalar_digit(k, i));
        pqpan_p256_point_add(&acc, &acc, &t);
    }
    *r = acc;
}

uint32_t pqpan_p256_point_affine(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                                 const struct pqpan_p256_point *p)
{
    fe zinv, ax, ay;
    uint32_t z[P256_LIMBS];
    pqpan_p256_fe_from_mont(z, &p->z);
    pqpan_p256_fe_inv(&zinv, &p->z); /* 0 for Z = 0, so the coordinates come out 0 */
    mul(&ax, &p->x, &zinv);
    mul(&ay, &p->y, &zinv);
    pqpan_p256_fe_from_mont(x, &ax);
    pqpan_p256_fe_from_mont(y, &ay);
    return pqpan_p256_is_zero(z);
}

/* x^3 - 3x + b, the right-hand side of the curve equation (SP 800-186 §3.2.1.3, a = -3). */
void pqpan_p256_curve_rhs(struct pqpan_p256_fe *r, const struct pqpan_p256_fe *x)
{
    fe t, b;
    pqpan_p256_fe_b(&b);
    mul(r, x, x);
    mul(r, r, x);
    add(&t, x, x);
    add(&t, &t, x);
    sub(r, r, &t);
    add(r, r, &b);
}

uint32_t pqpan_p256_on_curve(const struct pqpan_p256_fe *x, const struct pqpan_p256_fe *y)
{
    fe lhs, rhs;
    mul(&lhs, y, y);
    pqpan_p256_curve_rhs(&rhs, x);
    return pqpan_p256_fe_equal(&lhs, &rhs);
}
