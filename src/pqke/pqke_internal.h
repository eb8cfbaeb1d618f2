/* Internal interfaces of the PQKE module: suite and mode tables, KEM calls, negotiation,
 * key schedule, shared checks of the two parties. */
#ifndef PQPAN_PQKE_INTERNAL_H
#define PQPAN_PQKE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "common/overlap.h"
#include "pqpan/pqke.h"

#define PQKE_SS_BYTES PQPAN_MLKEM_SS_BYTES
#define PQKE_TH_BYTES PQPAN_PQKE_TRANSCRIPT_HASH_BYTES
#define PQKE_CONFIRM_KEY_BYTES 32
/* A pinned ML-DSA identity in the transcript: tr = H(pk, 64) (FIPS 204 Alg. 6 line 8). */
#define PQKE_ID_BYTES 64
/* The longest Z = ss_e || ss_static_responder || ss_static_initiator (kem-auth-mutual), or
 * ss_e || psk; the reserved hybrid suites will add a 32-byte ECDH secret after ss_e. */
#define PQKE_Z_MAX_BYTES (3 * PQKE_SS_BYTES)

/* 1 if suite is an implemented suite, resp. a reserved (hybrid) one. */
int pqpan_pqke_suite_known(unsigned suite);
int pqpan_pqke_suite_reserved(unsigned suite);
/* 1 if mode is a reserved (signature) mode. */
int pqpan_pqke_mode_reserved(unsigned mode);
/* 1 if the mode carries a ciphertext to the responder's static key in INIT (kem-auth*),
 * resp. to the initiator's static key in RESP (kem-auth-mutual). */
int pqpan_pqke_mode_ct_to_responder(unsigned mode);
int pqpan_pqke_mode_ct_to_initiator(unsigned mode);

/* ML-KEM (FIPS 203) of the suite: KeyGen (Alg. 19), Encaps (Alg. 20), Decaps (Alg. 21). */
PQPAN_MUST_CHECK int pqpan_pqke_kem_keypair(unsigned suite, uint8_t *ek, uint8_t *dk,
                                            pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_pqke_kem_encaps(unsigned suite, uint8_t *ct,
                                           uint8_t ss[PQKE_SS_BYTES], const uint8_t *ek,
                                           pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_pqke_kem_decaps(unsigned suite, uint8_t ss[PQKE_SS_BYTES],
                                           const uint8_t *ct, const uint8_t *dk);

/* ---- Message layout (docs/PROTOCOL.md §2) ---- */

/* Offsets of a message's fields (0: the field is absent), their lengths, the total size. */
struct pqpan_pqke_layout {
    size_t total;
    size_t sets; /* INIT: offered suites and modes; RESP: accepted ones */
    size_t nonce;
    size_t ek;
    size_t ct;
    size_t ct_static;
    size_t commit;
    size_t reveal;
    size_t tag;
    size_t ek_len;
    size_t ct_len;
    size_t ct_static_len;
};
/* The layout of a message type for a suite and mode: SUITE / MODE for unknown values,
 * UNSUPPORTED for reserved ones, MALFORMED for an unknown type (l zeroed), else PQPAN_OK. */
PQPAN_MUST_CHECK int pqpan_pqke_layout_of(struct pqpan_pqke_layout *l, unsigned type,
                                          unsigned suite, unsigned mode);

/* ---- Negotiation (docs/PROTOCOL.md §4.3) ---- */

/* The best suite, resp. mode, of a set by the protocol's fixed ranking, 0 for an empty set. */
unsigned pqpan_pqke_best_suite(uint32_t set);
unsigned pqpan_pqke_best_mode(uint32_t set);
/* PQPAN_OK if (suite, mode) is the best choice of offer ∩ accepted, else DOWNGRADE. */
PQPAN_MUST_CHECK int pqpan_pqke_check_best(unsigned suite, unsigned mode, uint32_t offer_suites,
                                           uint32_t offer_modes, uint32_t accepted_suites,
                                           uint32_t accepted_modes);
/* PQPAN_OK for a policy with non-empty sets of implemented values and a prologue that fits. */
PQPAN_MUST_CHECK int pqpan_pqke_policy_check(const struct pqpan_pqke_policy *policy);
/* Starts a transcript hash with the prologue: SHA3-256 absorbs LE16(prologue_len) ||
 * prologue, so the prologue's end is unambiguous. */
void pqpan_pqke_transcript_start(struct pqpan_sha3_256_ctx *t, const struct pqpan_pqke_policy *p);

/* ---- Key schedule (docs/PROTOCOL.md §3) ---- */

/* Z: the shared secrets of a mode, concatenated in the documented order. */
struct pqpan_pqke_z {
    uint8_t bytes[PQKE_Z_MAX_BYTES];
    size_t len;
};
void pqpan_pqke_z_append(struct pqpan_pqke_z *z, const uint8_t *secret, size_t len);

/* The key schedule's outputs; the session keys use key_bytes of their arrays. */
struct pqpan_pqke_keys {
    size_t key_bytes;
    uint8_t key_i2r[PQPAN_PQKE_KEY_MAX_BYTES];
    uint8_t key_r2i[PQPAN_PQKE_KEY_MAX_BYTES];
    uint8_t responder_confirm_key[PQKE_CONFIRM_KEY_BYTES];
    uint8_t initiator_confirm_key[PQKE_CONFIRM_KEY_BYTES];
};

/* KMAC256(Z, th, 8 (2 key_bytes + 64), "pqpan-pqke-v2 keys") split as key_i2r | key_r2i |
 * responder confirmation key | initiator confirmation key. */
PQPAN_MUST_CHECK int pqpan_pqke_derive_keys(struct pqpan_pqke_keys *keys,
                                            const struct pqpan_pqke_z *z, size_t key_bytes,
                                            const uint8_t th[PQKE_TH_BYTES]);
/* tag = KMAC256(confirm key of role, th, 256, role's confirmation label). */
PQPAN_MUST_CHECK int pqpan_pqke_confirm_tag(uint8_t tag[PQPAN_PQKE_TAG_BYTES],
                                            const struct pqpan_pqke_keys *keys,
                                            enum pqpan_pqke_role role,
                                            const uint8_t th[PQKE_TH_BYTES]);
/* numeric: commit = KMAC256(reveal, "", 256, "pqpan-pqke-v2 numeric commit"). */
PQPAN_MUST_CHECK int pqpan_pqke_numeric_commit(uint8_t commit[PQPAN_PQKE_COMMIT_BYTES],
                                               const uint8_t reveal[PQPAN_PQKE_REVEAL_BYTES]);
/* numeric: value = LE64(KMAC256(reveal, th, 64, "pqpan-pqke-v2 numeric value")) mod 10^6. */
PQPAN_MUST_CHECK int pqpan_pqke_numeric_value(uint32_t *value,
                                              const uint8_t reveal[PQPAN_PQKE_REVEAL_BYTES],
                                              const uint8_t th[PQKE_TH_BYTES]);
/* Copies the session keys and th into a party's secrets. */
void pqpan_pqke_keep_secrets(struct pqpan_pqke_secrets *s, const struct pqpan_pqke_keys *keys,
                             const uint8_t th[PQKE_TH_BYTES]);
/* 1 if a and b (PQPAN_PQKE_TAG_BYTES each) are equal, in constant time; the verdict is
 * declassified for the constant-time test (it is public: it decides the reply). */
int pqpan_pqke_tags_equal(const uint8_t *a, const uint8_t *b);

/* ---- Shared checks of the parties ---- */

/* Checks the header fields that select a handler: BAD_LENGTH if in_len < header,
 * VERSION for another version, MALFORMED for an unknown type, STATE for a known type other
 * than `type` (a message out of order), else PQPAN_OK. */
PQPAN_MUST_CHECK int pqpan_pqke_check_type(const uint8_t *in, size_t in_len, unsigned type);
/* The suite and mode bytes of a message whose header check_type accepted. */
uint8_t pqpan_pqke_header_suite(const uint8_t *in);
uint8_t pqpan_pqke_header_mode(const uint8_t *in);
/* SUITE or MODE if a later message's header differs from the run's suite or mode. */
PQPAN_MUST_CHECK int pqpan_pqke_check_run(const uint8_t *in, unsigned suite, unsigned mode);
/* INVALID_ARG unless the credentials the mode needs at this step are present. */
PQPAN_MUST_CHECK int pqpan_pqke_check_credentials(const struct pqpan_pqke_credentials *cred,
                                                  int need_psk, int need_own_dk,
                                                  int need_peer_ek);

/* Zeroes the first min(cap, PQPAN_PQKE_MSG_MAX_BYTES) bytes of out and *out_len. */
void pqpan_pqke_clear_output(uint8_t *out, size_t cap, size_t *out_len);
/* Copies a party's session to out if state is DONE and returns PQPAN_OK; otherwise zeroes
 * out and returns INVALID_ARG (out NULL or no context) or STATE. */
PQPAN_MUST_CHECK int pqpan_pqke_copy_session(struct pqpan_pqke_session *out, int have_ctx,
                                             unsigned state, unsigned suite, unsigned mode,
                                             const struct pqpan_pqke_secrets *s);
/* The numeric value of a party in WAIT_USER (else *value = 0 and INVALID_ARG or STATE). */
PQPAN_MUST_CHECK int pqpan_pqke_numeric_of(uint32_t *value, int have_ctx, unsigned state,
                                           uint32_t numeric);
/* PQPAN_OK if the user's verdict moves a party from WAIT_USER to DONE, else the error that
 * fails it (STATE outside WAIT_USER, AUTH for values that differ). */
PQPAN_MUST_CHECK int pqpan_pqke_user_verdict(unsigned state, int values_match);

#endif
