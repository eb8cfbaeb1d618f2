/* Internal interfaces of the PQKE module: suite table and KEM calls, key schedule. */
#ifndef PQPAN_PQKE_INTERNAL_H
#define PQPAN_PQKE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/pqke.h"

#define PQKE_SS_BYTES PQPAN_MLKEM_SS_BYTES
#define PQKE_TH_BYTES PQPAN_SHA3_256_BYTES
#define PQKE_CONFIRM_KEY_BYTES 32

/* 1 if suite is one of enum pqpan_pqke_suite. */
int pqpan_pqke_suite_known(unsigned suite);

/* ML-KEM (FIPS 203) of the suite: KeyGen (Alg. 19), Encaps (Alg. 20), Decaps (Alg. 21). */
PQPAN_MUST_CHECK int pqpan_pqke_kem_keypair(unsigned suite, uint8_t *ek, uint8_t *dk,
                                            pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_pqke_kem_encaps(unsigned suite, uint8_t *ct,
                                           uint8_t ss[PQKE_SS_BYTES], const uint8_t *ek,
                                           pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_pqke_kem_decaps(unsigned suite, uint8_t ss[PQKE_SS_BYTES],
                                           const uint8_t *ct, const uint8_t *dk);

/* The key schedule's outputs (docs/PROTOCOL.md §3). */
struct pqpan_pqke_keys {
    uint8_t session_key[PQPAN_PQKE_SESSION_KEY_BYTES];
    uint8_t responder_confirm_key[PQKE_CONFIRM_KEY_BYTES];
    uint8_t initiator_confirm_key[PQKE_CONFIRM_KEY_BYTES];
};

/* Which party a confirmation tag proves. */
enum pqpan_pqke_role {
    PQPAN_PQKE_ROLE_RESPONDER = 0,
    PQPAN_PQKE_ROLE_INITIATOR = 1
};

/* keys = KMAC256(ss, th, 640, "pqpan-pqke-v1 keys") split 16 | 32 | 32. */
PQPAN_MUST_CHECK int pqpan_pqke_derive_keys(struct pqpan_pqke_keys *keys,
                                            const uint8_t ss[PQKE_SS_BYTES],
                                            const uint8_t th[PQKE_TH_BYTES]);
/* tag = KMAC256(confirm key of role, th, 256, role's confirmation label). */
PQPAN_MUST_CHECK int pqpan_pqke_confirm_tag(uint8_t tag[PQPAN_PQKE_TAG_BYTES],
                                            const struct pqpan_pqke_keys *keys,
                                            enum pqpan_pqke_role role,
                                            const uint8_t th[PQKE_TH_BYTES]);

/* Checks the header fields that select a handler: BAD_LENGTH if in_len < header,
 * VERSION for another version, MALFORMED for an unknown type, STATE for a known type other
 * than `type` (a message out of order), else PQPAN_OK. */
PQPAN_MUST_CHECK int pqpan_pqke_check_type(const uint8_t *in, size_t in_len, unsigned type);

/* The suite byte of a message whose header check_type accepted. */
uint8_t pqpan_pqke_header_suite(const uint8_t *in);

/* Zeroes the first min(cap, PQPAN_PQKE_MSG_MAX_BYTES) bytes of out and *out_len. */
void pqpan_pqke_clear_output(uint8_t *out, size_t cap, size_t *out_len);

/* Releases a party's session key: copies it to key only when state is DONE (have_ctx
 * non-zero); otherwise zeroes key and returns INVALID_ARG (no context) or STATE. */
PQPAN_MUST_CHECK int pqpan_pqke_release_key(uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES],
                                            int have_ctx, unsigned state,
                                            const uint8_t session_key[PQPAN_PQKE_SESSION_KEY_BYTES]);

#endif
