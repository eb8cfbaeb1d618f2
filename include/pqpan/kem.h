/* ML-KEM (FIPS 203), all three parameter sets, and a parameter-generic layer.
 *
 * Every function returns 0 on success or a negative PQPAN_ERR_* code. On an error every
 * output buffer is zeroed. Inputs are checked as FIPS 203 §7 requires: encapsulation
 * rejects an ek that fails the modulus check (§7.2), decapsulation a dk whose stored
 * H(ek) does not match (§7.3); both give PQPAN_ERR_BAD_KEY. A ciphertext that does not
 * decrypt consistently is not an error: decapsulation then returns the implicit-rejection
 * key (FIPS 203 Alg. 18). Lengths are fixed per parameter set (the *_BYTES macros).
 * Randomized functions draw from the injected pqpan_rng_fn (32 bytes per call to it).
 * Outputs must not overlap the inputs or each other (e.g. ct written over ek): such a call
 * is refused with PQPAN_ERR_INVALID_ARG before anything is written, outputs included
 * (zeroing them would destroy the input they share bytes with). */
#ifndef PQPAN_KEM_H
#define PQPAN_KEM_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/error.h"

/* FIPS 203 §8, Table 3 (bytes). */
#define PQPAN_MLKEM_SS_BYTES 32
#define PQPAN_MLKEM_SEED_BYTES 32 /* d, z and m */
#define PQPAN_MLKEM512_EK_BYTES 800
#define PQPAN_MLKEM512_DK_BYTES 1632
#define PQPAN_MLKEM512_CT_BYTES 768
#define PQPAN_MLKEM768_EK_BYTES 1184
#define PQPAN_MLKEM768_DK_BYTES 2400
#define PQPAN_MLKEM768_CT_BYTES 1088
#define PQPAN_MLKEM1024_EK_BYTES 1568
#define PQPAN_MLKEM1024_DK_BYTES 3168
#define PQPAN_MLKEM1024_CT_BYTES 1568
/* The largest of each, for buffers sized for any parameter set. */
#define PQPAN_KEM_EK_MAX_BYTES PQPAN_MLKEM1024_EK_BYTES
#define PQPAN_KEM_DK_MAX_BYTES PQPAN_MLKEM1024_DK_BYTES
#define PQPAN_KEM_CT_MAX_BYTES PQPAN_MLKEM1024_CT_BYTES

/* ML-KEM.KeyGen_internal (Alg. 16) / ML-KEM.KeyGen (Alg. 19, d then z from rng). */
PQPAN_MUST_CHECK int pqpan_mlkem512_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                                                   const uint8_t z[32]);
PQPAN_MUST_CHECK int pqpan_mlkem512_keypair(uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng,
                                            void *rng_ctx);
/* ML-KEM.Encaps_internal (Alg. 17) / ML-KEM.Encaps (Alg. 20) with the §7.2 ek check. */
PQPAN_MUST_CHECK int pqpan_mlkem512_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                                                  const uint8_t m[32]);
PQPAN_MUST_CHECK int pqpan_mlkem512_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                                           pqpan_rng_fn rng, void *rng_ctx);
/* ML-KEM.Decaps (Alg. 21 = §7.3 dk check + Alg. 18). */
PQPAN_MUST_CHECK int pqpan_mlkem512_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
/* The §7.2 / §7.3 input checks alone, for a key of len bytes: 0 if it passes,
 * PQPAN_ERR_BAD_LENGTH if len is not the size of the type, PQPAN_ERR_BAD_KEY if the
 * modulus check (ek) or the hash check (dk) fails. */
PQPAN_MUST_CHECK int pqpan_mlkem512_check_ek(const uint8_t *ek, size_t len);
PQPAN_MUST_CHECK int pqpan_mlkem512_check_dk(const uint8_t *dk, size_t len);
/* ML-KEM.Decaps_internal (Alg. 18) without the §7.3 hash check H(ek) == h. FIPS 203 lets
 * the input checks of §7.2 and §7.3 be done once per key rather than with every execution,
 * assurance coming by other means (SP 800-227); FIPS 203's text was not reachable here, the
 * wording of the parallel §7.2 clause is quoted in openssl/openssl pull request #28091.
 * Use this entry only for a dk that check_dk accepted once (e.g. where it was loaded) or
 * that keypair made in this same module (PQKE's ephemeral key). Any other dk must go
 * through decaps. */
PQPAN_MUST_CHECK int pqpan_mlkem512_decaps_checked_dk(uint8_t ss[32], const uint8_t *ct,
                                                   const uint8_t *dk);

PQPAN_MUST_CHECK int pqpan_mlkem768_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                                                   const uint8_t z[32]);
PQPAN_MUST_CHECK int pqpan_mlkem768_keypair(uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng,
                                            void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_mlkem768_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                                                  const uint8_t m[32]);
PQPAN_MUST_CHECK int pqpan_mlkem768_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                                           pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_mlkem768_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
PQPAN_MUST_CHECK int pqpan_mlkem768_check_ek(const uint8_t *ek, size_t len);
PQPAN_MUST_CHECK int pqpan_mlkem768_check_dk(const uint8_t *dk, size_t len);
PQPAN_MUST_CHECK int pqpan_mlkem768_decaps_checked_dk(uint8_t ss[32], const uint8_t *ct,
                                                   const uint8_t *dk);

PQPAN_MUST_CHECK int pqpan_mlkem1024_keypair_derand(uint8_t *ek, uint8_t *dk, const uint8_t d[32],
                                                    const uint8_t z[32]);
PQPAN_MUST_CHECK int pqpan_mlkem1024_keypair(uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng,
                                             void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_mlkem1024_encaps_derand(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                                                   const uint8_t m[32]);
PQPAN_MUST_CHECK int pqpan_mlkem1024_encaps(uint8_t *ct, uint8_t ss[32], const uint8_t *ek,
                                            pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_mlkem1024_decaps(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
PQPAN_MUST_CHECK int pqpan_mlkem1024_check_ek(const uint8_t *ek, size_t len);
PQPAN_MUST_CHECK int pqpan_mlkem1024_check_dk(const uint8_t *dk, size_t len);
PQPAN_MUST_CHECK int pqpan_mlkem1024_decaps_checked_dk(uint8_t ss[32], const uint8_t *ct,
                                                   const uint8_t *dk);

/* Parameter-generic layer: one descriptor per parameter set. */
enum pqpan_kem_id {
    PQPAN_KEM_MLKEM512 = 1,
    PQPAN_KEM_MLKEM768 = 2,
    PQPAN_KEM_MLKEM1024 = 3
};
#define PQPAN_KEM_COUNT 3

struct pqpan_kem {
    enum pqpan_kem_id id;
    const char *name; /* "ML-KEM-512", "ML-KEM-768", "ML-KEM-1024" (FIPS 203 §8) */
    unsigned security_category; /* NIST category 1, 3, 5 (FIPS 203 Table 2) */
    size_t ek_bytes;
    size_t dk_bytes;
    size_t ct_bytes;
    size_t ss_bytes;
    int (*keypair_derand)(uint8_t *ek, uint8_t *dk, const uint8_t d[32], const uint8_t z[32]);
    int (*keypair)(uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng, void *rng_ctx);
    int (*encaps_derand)(uint8_t *ct, uint8_t ss[32], const uint8_t *ek, const uint8_t m[32]);
    int (*encaps)(uint8_t *ct, uint8_t ss[32], const uint8_t *ek, pqpan_rng_fn rng,
                  void *rng_ctx);
    int (*decaps)(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
    int (*check_ek)(const uint8_t *ek, size_t len);
    int (*check_dk)(const uint8_t *dk, size_t len);
    int (*decaps_checked_dk)(uint8_t ss[32], const uint8_t *ct, const uint8_t *dk);
};

/* The descriptor for an id, or NULL if the id is unknown. */
const struct pqpan_kem *pqpan_kem_by_id(enum pqpan_kem_id id);
/* The descriptor for a name ("ML-KEM-768"; case-sensitive), or NULL. */
const struct pqpan_kem *pqpan_kem_by_name(const char *name);
/* The i-th descriptor for i < PQPAN_KEM_COUNT in increasing security, else NULL. */
const struct pqpan_kem *pqpan_kem_at(size_t i);

#endif
