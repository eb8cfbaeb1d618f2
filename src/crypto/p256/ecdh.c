/* ECDH on P-256: key pairs, the CDH primitive with full public-key validation and the
 * SEC 1 v2 point encodings (include/pqpan/ecdh.h). */
#include "pqpan/ecdh.h"

#include <string.h>

#include "crypto/ct_testing.h"
#include "crypto/p256/p256.h"
#include "crypto/p256/speed/point.h"

/* SEC 1 §2.3.3: the first octet of an encoded point. */
#define SEC1_INFINITY 0x00u
#define SEC1_COMPRESSED_EVEN 0x02u
#define SEC1_COMPRESSED_ODD 0x03u
#define SEC1_UNCOMPRESSED 0x04u
/* Draws of 32 random bytes before keypair() gives up (each is rejected with probability
 * (2^256 - n + 1) / 2^256 < 2^-32, so 64 failures mean a broken source). */
#define KEYGEN_ATTEMPTS 64

/* (p + 1) / 4: p = 3 mod 4, so a^((p+1)/4) is a square root of a when one exists. */
static const uint32_t sqrt_exponent[P256_LIMBS] = {0x00000000u, 0x00000000u, 0x40000000u,
                                                   0x00000000u, 0x00000000u, 0x40000000u,
                                                   0xc0000000u, 0x3fffffffu};

/* The scalar multiplications of the build chosen by PQPAN_P256_IMPL (CMakeLists.txt):
 * (x, y) = k G, and (x, y) = k Q returning 1 if that is the point at infinity; for
 * 1 <= k <= n - 1. */
#ifdef PQPAN_P256_SMALL
static void base_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS], const uint8_t k[P256_BYTES])
{
    struct pqpan_p256_point g, q;
    pqpan_p256_point_generator(&g);
    pqpan_p256_point_mul(&q, &g, k);
    (void)pqpan_p256_point_affine(x, y, &q); /* never infinity: 1 <= k < n, n prime */
    pqpan_wipe(&q, sizeof q);
}

static uint32_t point_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                          const struct pqpan_p256_point *q, const uint8_t k[P256_BYTES])
{
    struct pqpan_p256_point r;
    uint32_t infinity;
    pqpan_p256_point_mul(&r, q, k);
    infinity = pqpan_p256_point_affine(x, y, &r);
    pqpan_wipe(&r, sizeof r);
    return infinity;
}
#else
static void base_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS], const uint8_t k[P256_BYTES])
{
    pqpan_p256_speed_base_mul(x, y, k);
}

static uint32_t point_mul(uint32_t x[P256_LIMBS], uint32_t y[P256_LIMBS],
                          const struct pqpan_p256_point *q, const uint8_t k[P256_BYTES])
{
    return pqpan_p256_speed_mul(x, y, q, k);
}
#endif

/* 1 if 1 <= k <= n - 1 (SEC 1 §3.2.1), constant time. */
static uint32_t scalar_valid(const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES])
{
    uint32_t k[P256_LIMBS];
    uint32_t ok;
    pqpan_p256_from_bytes(k, sk);
    ok = pqpan_p256_below_n(k) & (pqpan_p256_is_zero(k) ^ 1u);
    pqpan_wipe(k, sizeof k);
    return ok;
}

/* A coordinate (32 big-endian octets) < p into Montgomery form; 0 if it is >= p. The
 * coordinates are public. */
static int coord_decode(struct pqpan_p256_fe *out, const uint8_t in[P256_BYTES])
{
    uint32_t v[P256_LIMBS];
    pqpan_p256_from_bytes(v, in);
    if (!pqpan_p256_below_p(v)) {
        return 0;
    }
    pqpan_p256_fe_to_mont(out, v);
    return 1;
}

/* y for a compressed point (SEC 1 §2.3.4 step 2.4.1): alpha = x^3 - 3x + b, beta =
 * alpha^((p+1)/4), which is a root iff beta^2 = alpha; y = beta or p - beta by parity. */
static int decompress(struct pqpan_p256_fe *y, const struct pqpan_p256_fe *x, unsigned parity)
{
    struct pqpan_p256_fe alpha, beta, t, zero;
    uint32_t plain[P256_LIMBS];
    memset(&zero, 0, sizeof zero);
    pqpan_p256_curve_rhs(&alpha, x);
    pqpan_p256_fe_pow(&beta, &alpha, sqrt_exponent);
    pqpan_p256_fe_mul(&t, &beta, &beta);
    if (!pqpan_p256_fe_equal(&t, &alpha)) {
        return 0;
    }
    pqpan_p256_fe_from_mont(plain, &beta);
    if ((plain[0] & 1u) != parity) {
        pqpan_p256_fe_sub(&beta, &zero, &beta);
    }
    *y = beta;
    return 1;
}

/* SEC 1 §2.3.4 with the validation of SP 800-56A Rev. 3 §5.6.2.3.3 (all on public data). */
static int point_decode(struct pqpan_p256_point *q, const uint8_t *pk, size_t len)
{
    static const uint32_t one[P256_LIMBS] = {1};
    if (pk == NULL || len == 0) {
        return PQPAN_ERR_MALFORMED;
    }
    if (len == 1 && pk[0] == SEC1_INFINITY) {
        return PQPAN_ERR_BAD_KEY; /* the point at infinity is no public key */
    }
    if (len == PQPAN_ECDH_P256_PUBLIC_BYTES && pk[0] == SEC1_UNCOMPRESSED) {
        if (!coord_decode(&q->x, pk + 1) || !coord_decode(&q->y, pk + 1 + P256_BYTES) ||
            !pqpan_p256_on_curve(&q->x, &q->y)) {
            return PQPAN_ERR_BAD_KEY;
        }
    } else if (len == PQPAN_ECDH_P256_COMPRESSED_BYTES &&
               (pk[0] == SEC1_COMPRESSED_EVEN || pk[0] == SEC1_COMPRESSED_ODD)) {
        if (!coord_decode(&q->x, pk + 1) || !decompress(&q->y, &q->x, pk[0] & 1u)) {
            return PQPAN_ERR_BAD_KEY;
        }
    } else {
        return PQPAN_ERR_MALFORMED;
    }
    pqpan_p256_fe_to_mont(&q->z, one);
    return PQPAN_OK;
}

/* The uncompressed encoding of affine coordinates (plain integers). */
static void encode_uncompressed(uint8_t out[PQPAN_ECDH_P256_PUBLIC_BYTES],
                                const uint32_t x[P256_LIMBS], const uint32_t y[P256_LIMBS])
{
    out[0] = SEC1_UNCOMPRESSED;
    pqpan_p256_to_bytes(out + 1, x);
    pqpan_p256_to_bytes(out + 1 + P256_BYTES, y);
}

int pqpan_ecdh_p256_keypair_derand(uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES],
                                   const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES])
{
    uint32_t x[P256_LIMBS], y[P256_LIMBS];
    uint32_t valid;
    if (pk == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(pk, 0, PQPAN_ECDH_P256_PUBLIC_BYTES);
    if (sk == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    valid = scalar_valid(sk);
    PQPAN_CT_DECLASSIFY(&valid, sizeof valid); /* whether the key is usable is no secret */
    if (!valid) {
        return PQPAN_ERR_BAD_KEY;
    }
    base_mul(x, y, sk);
    encode_uncompressed(pk, x, y);
    PQPAN_CT_DECLASSIFY(pk, PQPAN_ECDH_P256_PUBLIC_BYTES); /* the public key is public */
    return PQPAN_OK;
}

int pqpan_ecdh_p256_keypair(uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES],
                            uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], pqpan_rng_fn rng,
                            void *rng_ctx)
{
    unsigned attempt;
    int rc = PQPAN_ERR_RNG;
    if (pk == NULL || sk == NULL || rng == NULL) {
        if (pk != NULL) {
            memset(pk, 0, PQPAN_ECDH_P256_PUBLIC_BYTES);
        }
        if (sk != NULL) {
            memset(sk, 0, PQPAN_ECDH_P256_SECRET_BYTES);
        }
        return PQPAN_ERR_INVALID_ARG;
    }
    for (attempt = 0; attempt < KEYGEN_ATTEMPTS && rc == PQPAN_ERR_RNG; attempt++) {
        if (rng(rng_ctx, sk, PQPAN_ECDH_P256_SECRET_BYTES) != 0) {
            break;
        }
        rc = pqpan_ecdh_p256_keypair_derand(pk, sk);
        if (rc == PQPAN_ERR_BAD_KEY) {
            rc = PQPAN_ERR_RNG; /* out of range: draw again */
        }
    }
    if (rc != PQPAN_OK) {
        pqpan_wipe(sk, PQPAN_ECDH_P256_SECRET_BYTES);
        memset(pk, 0, PQPAN_ECDH_P256_PUBLIC_BYTES);
    }
    return rc;
}

int pqpan_ecdh_p256_shared(uint8_t ss[PQPAN_ECDH_P256_SHARED_BYTES],
                           const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES], const uint8_t *pk,
                           size_t pk_len)
{
    struct pqpan_p256_point q;
    uint32_t x[P256_LIMBS], y[P256_LIMBS];
    uint32_t valid, infinity;
    int rc;
    if (ss == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ss, 0, PQPAN_ECDH_P256_SHARED_BYTES);
    if (sk == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = point_decode(&q, pk, pk_len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    valid = scalar_valid(sk);
    PQPAN_CT_DECLASSIFY(&valid, sizeof valid);
    if (!valid) {
        return PQPAN_ERR_BAD_KEY;
    }
    infinity = point_mul(x, y, &q, sk);
    PQPAN_CT_DECLASSIFY(&infinity, sizeof infinity); /* 0 for every valid input */
    if (!infinity) {
        pqpan_p256_to_bytes(ss, x);
    } else {
        rc = PQPAN_ERR_BAD_KEY;
    }
    pqpan_wipe(x, sizeof x);
    pqpan_wipe(y, sizeof y);
    return rc;
}

int pqpan_ecdh_p256_public_decode(uint8_t out[PQPAN_ECDH_P256_PUBLIC_BYTES], const uint8_t *pk,
                                  size_t pk_len)
{
    struct pqpan_p256_point q;
    uint32_t x[P256_LIMBS], y[P256_LIMBS];
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, PQPAN_ECDH_P256_PUBLIC_BYTES);
    rc = point_decode(&q, pk, pk_len);
    if (rc == PQPAN_OK) {
        pqpan_p256_fe_from_mont(x, &q.x);
        pqpan_p256_fe_from_mont(y, &q.y);
        encode_uncompressed(out, x, y);
    }
    return rc;
}

int pqpan_ecdh_p256_public_compress(uint8_t out[PQPAN_ECDH_P256_COMPRESSED_BYTES],
                                    const uint8_t *pk, size_t pk_len)
{
    uint8_t full[PQPAN_ECDH_P256_PUBLIC_BYTES];
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, PQPAN_ECDH_P256_COMPRESSED_BYTES);
    rc = pqpan_ecdh_p256_public_decode(full, pk, pk_len);
    if (rc == PQPAN_OK) {
        /* SEC 1 §2.3.3 step 2.2.1: the parity bit is y mod 2, y's last octet's low bit */
        out[0] = (uint8_t)(SEC1_COMPRESSED_EVEN | (full[PQPAN_ECDH_P256_PUBLIC_BYTES - 1] & 1u));
        memcpy(out + 1, full + 1, P256_BYTES);
    }
    return rc;
}
