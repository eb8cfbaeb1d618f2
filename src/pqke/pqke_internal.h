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
/* The longest Z = ss_e || ss_ecdh || ss_static_responder || ss_static_initiator (hybrid
 * kem-auth-mutual) or ss_e || ss_ecdh || psk (hybrid psk, the longest PSK). */
#define PQKE_Z_MAX_BYTES (4 * PQKE_SS_BYTES)
_Static_assert(2 * PQKE_SS_BYTES + PQPAN_PQKE_PSK_MAX_BYTES <= PQKE_Z_MAX_BYTES,
               "Z holds the longest PSK");

/* 1 if suite is a known suite. */
int pqpan_pqke_suite_known(unsigned suite);
/* The ML-KEM parameter set of a suite (hybrid or not), or NULL for an unknown suite. */
const struct pqpan_kem *pqpan_pqke_suite_kem(unsigned suite);
/* 1 if the mode carries a ciphertext to the responder's static key in INIT (kem-auth*),
 * resp. to the initiator's static key in RESP (kem-auth-mutual). */
int pqpan_pqke_mode_ct_to_responder(unsigned mode);
int pqpan_pqke_mode_ct_to_initiator(unsigned mode);

/* ---- P-256 ECDH of the hybrid suites (NIST SP 800-56A r3 §5.7.1.2) ---- */

/* A fresh key pair; the public key as the wire's X || Y (PQPAN_PQKE_ECDH_PUBLIC_BYTES). */
PQPAN_MUST_CHECK int pqpan_pqke_ecdh_keypair(uint8_t pub[PQPAN_PQKE_ECDH_PUBLIC_BYTES],
                                             uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES],
                                             pqpan_rng_fn rng, void *rng_ctx);
/* The shared X coordinate with the peer's wire public key, validated in full (BAD_KEY). */
PQPAN_MUST_CHECK int pqpan_pqke_ecdh_shared(uint8_t ss[PQPAN_ECDH_P256_SHARED_BYTES],
                                            const uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES],
                                            const uint8_t peer[PQPAN_PQKE_ECDH_PUBLIC_BYTES]);

/* ---- ML-DSA of the sig modes (FIPS 204) ---- */

/* What the transcript absorbs after the prologue (docs/PROTOCOL.md §3): the identities block
 * LE16(len) || id of the initiator, then of the responder, when the credentials give
 * identities; then, in the sig modes, the pinned keys' identities tr = H(pk, 64) of the
 * responder and, in sig-mutual, of the initiator (a party takes its own tr from its secret
 * key, skEncode, FIPS 204 Alg. 24: rho || K || tr || ..., and hashes the peer's pinned key). */
void pqpan_pqke_absorb_identities(struct pqpan_sha3_256_ctx *t, unsigned mode,
                                  enum pqpan_pqke_role role,
                                  const struct pqpan_pqke_credentials *cred);
/* sig = ML-DSA.Sign(own_sk, th, ctx = role's label) (FIPS 204 Alg. 2), hedged with rnd. */
PQPAN_MUST_CHECK int pqpan_pqke_sign(uint8_t *sig, const struct pqpan_pqke_credentials *cred,
                                     enum pqpan_pqke_role role, const uint8_t th[32],
                                     const uint8_t rnd[PQPAN_MLDSA_RND_BYTES]);
/* PQPAN_OK if sig (of the set's length) is the role's ML-DSA signature of th under
 * cred->peer_pk, else AUTH (whatever FIPS 204 refuses it for). */
PQPAN_MUST_CHECK int pqpan_pqke_verify(const uint8_t *sig, const struct pqpan_pqke_credentials *cred,
                                       enum pqpan_pqke_role role, const uint8_t th[32]);

/* ML-KEM (FIPS 203) of the suite: KeyGen (Alg. 19), Encaps (Alg. 20), Decaps (Alg. 21). */
PQPAN_MUST_CHECK int pqpan_pqke_kem_keypair(unsigned suite, uint8_t *ek, uint8_t *dk,
                                            pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_pqke_kem_encaps(unsigned suite, uint8_t *ct,
                                           uint8_t ss[PQKE_SS_BYTES], const uint8_t *ek,
                                           pqpan_rng_fn rng, void *rng_ctx);
PQPAN_MUST_CHECK int pqpan_pqke_kem_decaps(unsigned suite, uint8_t ss[PQKE_SS_BYTES],
                                           const uint8_t *ct, const uint8_t *dk);
/* Decaps of a dk that pqpan_pqke_kem_keypair made in this context (the initiator's
 * ephemeral key): Alg. 18 without the §7.3 H(ek) == h check, which §7.3 lets a module skip
 * for a key it generated itself. A dk loaded from outside goes through kem_decaps. */
PQPAN_MUST_CHECK int pqpan_pqke_kem_decaps_own_dk(unsigned suite, uint8_t ss[PQKE_SS_BYTES],
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
    size_t commit;        /* numeric, RESP */
    size_t numeric_nonce; /* numeric, FIN and REVEAL */
    size_t tag;
    size_t sig_set; /* sig modes: the ML-DSA set byte */
    size_t ecdh;    /* hybrid: the P-256 public key */
    size_t sig;     /* the signature (RESP: sig*, FIN: sig-mutual) */
    size_t ek_len;
    size_t ct_len;
    size_t ct_static_len;
    size_t sig_len;
};
/* The layout of a message type for a suite, mode and (sig modes) ML-DSA set: SUITE / MODE for
 * unknown values, MALFORMED for an unknown type or, in a sig mode, set (l zeroed), else
 * PQPAN_OK. */
PQPAN_MUST_CHECK int pqpan_pqke_layout_of(struct pqpan_pqke_layout *l, unsigned type,
                                          unsigned suite, unsigned mode, unsigned sig);

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
/* tag = KMAC256(K = confirm key, X = th || [n_I], 256, role's confirmation label), where
 * n_I (numeric: the initiator's nonce, which FIN carries; NULL otherwise) is bound into the
 * initiator's tag. key is the role's confirmation key. */
PQPAN_MUST_CHECK int pqpan_pqke_confirm_tag(uint8_t tag[PQPAN_PQKE_TAG_BYTES],
                                            const uint8_t key[PQKE_CONFIRM_KEY_BYTES],
                                            enum pqpan_pqke_role role,
                                            const uint8_t th[PQKE_TH_BYTES],
                                            const uint8_t *numeric_nonce);
/* numeric: commit = KMAC256(n_R, "", 256, "pqpan-pqke-v2 numeric commit"). */
PQPAN_MUST_CHECK int pqpan_pqke_numeric_commit(
    uint8_t commit[PQPAN_PQKE_COMMIT_BYTES],
    const uint8_t n_r[PQPAN_PQKE_NUMERIC_NONCE_BYTES]);
/* numeric: value = LE64(KMAC256(n_I || n_R, th, 64, "pqpan-pqke-v2 numeric value")) mod 10^6. */
PQPAN_MUST_CHECK int pqpan_pqke_numeric_value(uint32_t *value,
                                              const uint8_t n_i[PQPAN_PQKE_NUMERIC_NONCE_BYTES],
                                              const uint8_t n_r[PQPAN_PQKE_NUMERIC_NONCE_BYTES],
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
/* SUITE or MODE if a later message's header differs from the run's suite or mode, SUITE if
 * (sig modes) its ML-DSA set byte differs from the run's set (BAD_LENGTH if it is missing). */
PQPAN_MUST_CHECK int pqpan_pqke_check_run(const uint8_t *in, size_t in_len, unsigned suite,
                                          unsigned mode, unsigned sig);
/* What an exchange needs of the credentials (OR of the bits). */
#define PQKE_NEED_PSK 1u
#define PQKE_NEED_OWN_DK 2u   /* and cred->kem the suite's */
#define PQKE_NEED_PEER_EK 4u  /* and cred->kem the suite's */
#define PQKE_NEED_OWN_SK 8u  /* and a known ML-DSA set */
#define PQKE_NEED_PEER_PK 16u /* and a known ML-DSA set */
#define PQKE_NEED_IDS 32u     /* psk, numeric: own_id and peer_id */
/* The credentials one role needs in an exchange of a mode, all steps together. */
unsigned pqpan_pqke_needs(unsigned mode, enum pqpan_pqke_role role);
/* Checks the credentials an exchange needs: present (INVALID_ARG), a PSK of
 * PQPAN_PQKE_PSK_BYTES..PQPAN_PQKE_PSK_MAX_BYTES (INVALID_ARG), static ML-KEM keys of the
 * suite's parameter set (cred->kem 0: INVALID_ARG; another set: SUITE), ML-DSA keys of a
 * known set equal to the run's set sig (0: not known yet; else INVALID_ARG), identities
 * (needed, or given: both, 1..PQPAN_PQKE_ID_MAX_BYTES bytes each, not equal; else
 * INVALID_ARG). PQPAN_OK otherwise. */
PQPAN_MUST_CHECK int pqpan_pqke_check_credentials(const struct pqpan_pqke_credentials *cred,
                                                  unsigned needs, unsigned suite, unsigned sig);

/* Zeroes the first min(cap, PQPAN_PQKE_MSG_MAX_BYTES) bytes of out and *out_len. */
void pqpan_pqke_clear_output(uint8_t *out, size_t cap, size_t *out_len);
/* Copies a party's session to out if state is DONE and returns PQPAN_OK; otherwise zeroes
 * out and returns INVALID_ARG (out NULL or no context) or STATE. */
PQPAN_MUST_CHECK int pqpan_pqke_copy_session(struct pqpan_pqke_session *out, int have_ctx,
                                             unsigned state, unsigned suite, unsigned mode,
                                             unsigned sig, const struct pqpan_pqke_secrets *s);
/* The numeric value of a party in WAIT_USER (else *value = 0 and INVALID_ARG or STATE). */
PQPAN_MUST_CHECK int pqpan_pqke_numeric_of(uint32_t *value, int have_ctx, unsigned state,
                                           uint32_t numeric);
/* PQPAN_OK if the user's verdict moves a party from WAIT_USER to DONE, else the error that
 * fails it (STATE outside WAIT_USER, AUTH for values that differ). */
PQPAN_MUST_CHECK int pqpan_pqke_user_verdict(unsigned state, int values_match);

#endif
