/* PQKE: pqpan's post-quantum key establishment protocol, version 2 (docs/PROTOCOL.md).
 *
 * Three messages over any reliable message transport:
 *   initiator -> responder   INIT (suite, mode, the initiator's acceptable suites and modes,
 *                                  nonce, ephemeral ML-KEM encapsulation key, mode fields)
 *   responder -> initiator   RESP (the responder's accepted suites and modes, ciphertext,
 *                                  mode fields, nonce, responder confirmation tag)
 *   initiator -> responder   FIN  (mode fields, initiator confirmation tag)
 * The key schedule is KMAC256 (NIST SP 800-185) over every shared secret of the mode and
 * SHA3-256 of the transcript, which starts with a caller-given prologue (both BLE addresses,
 * an application label, ...). Per-direction session keys of 16 bytes (ML-KEM-512) or 32
 * bytes (ML-KEM-768, -1024), and the transcript hash for channel binding.
 *
 * WHICH MODES AUTHENTICATE (a man in the middle who runs one exchange with each side):
 *   none             NOT authenticated: resists eavesdroppers (also ones with a quantum
 *                    computer later) and tampering, but a man in the middle gets both keys.
 *   psk              authenticates both sides: a 32-byte pre-shared key enters the key
 *                    schedule.
 *   kem-auth         authenticates the responder only: the initiator encapsulates to the
 *                    responder's pinned static ML-KEM key, which only it can decapsulate.
 *   kem-auth-mutual  authenticates both: also the responder encapsulates to the
 *                    initiator's pinned static key.
 *   numeric          authenticates both if the user confirms that the two six-digit values
 *                    match (commitment before the reveal): a man in the middle succeeds
 *                    with probability at most 1e-6 per attempt. NOT authenticated until
 *                    the user confirms.
 * Reserved (wire values fixed, refused with PQPAN_ERR_UNSUPPORTED until their primitives
 * exist): modes sig and sig-mutual (ML-DSA), hybrid suites (P-256 ECDH + ML-KEM).
 * Never fall back silently: INIT carries every suite and mode the initiator accepts, the
 * transcript binds them, and each side refuses (PQPAN_ERR_DOWNGRADE) an exchange that is not
 * the best one both accept; an application that retries must offer the same set.
 *
 * The API is transport-agnostic: it produces and consumes whole messages. Contexts hold no
 * pointers (a struct copy clones a party), are sized at compile time for ML-KEM-1024, and
 * take randomness (pqpan_rng_fn) and credentials (struct pqpan_pqke_credentials) at the call
 * that needs them. Any error moves a party to the terminal FAILED state, wipes its secrets
 * and zeroes every output; the first error is kept. A session is released only in state
 * DONE, after the peer's confirmation tag verified (and, in numeric mode, the user
 * confirmed), and *_take_session hands it over and wipes it from the context.
 * Input and output buffers of one call must not overlap: an overlap is detected and refused
 * (PQPAN_ERR_INVALID_ARG). A NULL context gives PQPAN_ERR_INVALID_ARG everywhere; the state
 * of a NULL context reads as FAILED. */
#ifndef PQPAN_PQKE_H
#define PQPAN_PQKE_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/error.h"
#include "pqpan/kem.h"
#include "pqpan/sha3.h"
#include "pqpan/sig.h"

/* ---- Wire constants (docs/PROTOCOL.md §2) ---- */

#define PQPAN_PQKE_VERSION 2
#define PQPAN_PQKE_HEADER_BYTES 6 /* version, type, suite, mode, total length (16-bit LE) */
#define PQPAN_PQKE_SETS_BYTES 2   /* a suite set and a mode set (INIT: offered; RESP: accepted) */
#define PQPAN_PQKE_NONCE_BYTES 32
#define PQPAN_PQKE_TAG_BYTES 32
#define PQPAN_PQKE_COMMIT_BYTES 32 /* numeric: the initiator's commitment (INIT) */
#define PQPAN_PQKE_REVEAL_BYTES 32 /* numeric: the committed secret, revealed in FIN */
#define PQPAN_PQKE_PSK_BYTES 32
#define PQPAN_PQKE_KEY_MAX_BYTES 32 /* a per-direction session key: 16 or 32 bytes */
#define PQPAN_PQKE_TRANSCRIPT_HASH_BYTES 32
#define PQPAN_PQKE_PROLOGUE_MAX_BYTES 65535 /* its length is encoded in 16 bits */
#define PQPAN_PQKE_NUMERIC_MODULUS 1000000u /* six decimal digits */
#define PQPAN_PQKE_SIG_SET_BYTES 1 /* sig modes: the ML-DSA parameter set, after the header */
#define PQPAN_PQKE_ECDH_PUBLIC_BYTES 64 /* hybrid: a P-256 public key, X || Y (big-endian) */

/* Message types (header byte 1). */
enum pqpan_pqke_msg_type {
    PQPAN_PQKE_MSG_INIT = 1,
    PQPAN_PQKE_MSG_RESP = 2,
    PQPAN_PQKE_MSG_FIN = 3
};

/* Suites (header byte 2). Wire values are fixed, independent of enum pqpan_kem_id. The
 * hybrid suites (P-256 ECDH, the LE Secure Connections curve, with ML-KEM) are reserved. */
enum pqpan_pqke_suite {
    PQPAN_PQKE_SUITE_MLKEM512 = 1,
    PQPAN_PQKE_SUITE_MLKEM768 = 2,
    PQPAN_PQKE_SUITE_MLKEM1024 = 3,
    PQPAN_PQKE_SUITE_P256_MLKEM512 = 4,  /* reserved */
    PQPAN_PQKE_SUITE_P256_MLKEM768 = 5,  /* reserved */
    PQPAN_PQKE_SUITE_P256_MLKEM1024 = 6  /* reserved */
};

/* Authentication modes (header byte 3). sig and sig-mutual (ML-DSA) are reserved. */
enum pqpan_pqke_mode {
    PQPAN_PQKE_MODE_NONE = 1,
    PQPAN_PQKE_MODE_PSK = 2,
    PQPAN_PQKE_MODE_KEM_AUTH = 3,
    PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL = 4,
    PQPAN_PQKE_MODE_SIG = 5,        /* reserved */
    PQPAN_PQKE_MODE_SIG_MUTUAL = 6, /* reserved */
    PQPAN_PQKE_MODE_NUMERIC = 7
};

/* Sets of suites and modes (policies, offers): OR of the bits. On the wire a set is one
 * byte, so only values 1..7 are representable. */
#define PQPAN_PQKE_SUITE_BIT(suite) (1u << (unsigned)(suite))
#define PQPAN_PQKE_MODE_BIT(mode) (1u << (unsigned)(mode))
#define PQPAN_PQKE_SUITES_ALL                                                                     \
    (PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM512) |                                        \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM768) |                                        \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM1024))
#define PQPAN_PQKE_MODES_ALL                                                                      \
    (PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE) | PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_PSK) |   \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH) |                                          \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL) |                                   \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NUMERIC))

/* Message sizes (docs/PROTOCOL.md §2) for a sig-set field of sig_set bytes (sig modes), a KEM
 * with encapsulation key ek and ciphertext ct bytes, P-256 public keys of ecdh bytes
 * (hybrid suites) and ML-DSA signatures of sig bytes:
 * INIT = header || [sig set] || offer || nonce_i || ek || [ecdh_i] || [ct to the responder's
 *        static key] || [commit]
 * RESP = header || [sig set] || accepted || ct || [ecdh_r] || [ct to the initiator's static
 *        key] || nonce_r || [sig_r] || tag_r
 * FIN  = header || [sig set] || [reveal] || [sig_i] || tag_i. */
#define PQPAN_PQKE_INIT_BYTES(sig_set, ek, ecdh, ct_static, commit)                              \
    (PQPAN_PQKE_HEADER_BYTES + (sig_set) + PQPAN_PQKE_SETS_BYTES + PQPAN_PQKE_NONCE_BYTES +     \
     (ek) + (ecdh) + (ct_static) + (commit))
#define PQPAN_PQKE_RESP_BYTES(sig_set, ct, ecdh, ct_static, sig)                                 \
    (PQPAN_PQKE_HEADER_BYTES + (sig_set) + PQPAN_PQKE_SETS_BYTES + (ct) + (ecdh) +              \
     (ct_static) + PQPAN_PQKE_NONCE_BYTES + (sig) + PQPAN_PQKE_TAG_BYTES)
#define PQPAN_PQKE_FIN_BYTES(sig_set, reveal, sig)                                                \
    (PQPAN_PQKE_HEADER_BYTES + (sig_set) + (reveal) + (sig) + PQPAN_PQKE_TAG_BYTES)
/* Largest messages (ML-KEM-1024 with P-256; the kem-auth INIT, the sig-mutual RESP with
 * ML-DSA-87, the sig-mutual FIN with ML-DSA-87): buffers of these sizes always suffice. */
#define PQPAN_PQKE_INIT_MAX_BYTES                                                                 \
    PQPAN_PQKE_INIT_BYTES(0, PQPAN_MLKEM1024_EK_BYTES, PQPAN_PQKE_ECDH_PUBLIC_BYTES,             \
                          PQPAN_MLKEM1024_CT_BYTES, 0)
#define PQPAN_PQKE_RESP_MAX_BYTES                                                                 \
    PQPAN_PQKE_RESP_BYTES(PQPAN_PQKE_SIG_SET_BYTES, PQPAN_MLKEM1024_CT_BYTES,                    \
                          PQPAN_PQKE_ECDH_PUBLIC_BYTES, 0, PQPAN_MLDSA87_SIG_BYTES)
#define PQPAN_PQKE_FIN_MAX_BYTES                                                                  \
    PQPAN_PQKE_FIN_BYTES(PQPAN_PQKE_SIG_SET_BYTES, 0, PQPAN_MLDSA87_SIG_BYTES)
#define PQPAN_PQKE_MSG_MAX_BYTES PQPAN_PQKE_RESP_MAX_BYTES

/* Sizes of one suite and mode (and, in the sig modes, ML-DSA parameter set sig, enum
 * pqpan_sig_id of sig.h; ignored in the other modes); 0 in every field for an unknown suite,
 * mode or (sig modes) parameter set. */
struct pqpan_pqke_sizes {
    size_t ek_bytes;
    size_t ct_bytes;
    size_t key_bytes; /* each per-direction session key */
    size_t init_bytes;
    size_t resp_bytes;
    size_t fin_bytes;
    size_t ecdh_bytes; /* hybrid: each P-256 public key field, else 0 */
    size_t sig_bytes;  /* sig modes: each ML-DSA signature, else 0 */
};
struct pqpan_pqke_sizes pqpan_pqke_message_sizes(unsigned suite, unsigned mode, unsigned sig);
/* "ML-KEM-768" etc. (also the reserved "P-256+ML-KEM-768"), or NULL for an unknown suite. */
const char *pqpan_pqke_suite_name(unsigned suite);
/* The suite that uses a KEM (enum pqpan_kem_id of kem.h), or 0 if none does. */
unsigned pqpan_pqke_suite_for_kem(enum pqpan_kem_id kem);
/* "none", "psk", "kem-auth", "kem-auth-mutual", "sig", "sig-mutual", "numeric", or NULL. */
const char *pqpan_pqke_mode_name(unsigned mode);
/* The mode of a name above, or 0. */
unsigned pqpan_pqke_mode_by_name(const char *name);
/* 1 if the mode is implemented by this build (not reserved, not unknown). */
int pqpan_pqke_mode_implemented(unsigned mode);
/* 1 if the mode authenticates the responder to the initiator (psk, kem-auth*, numeric once
 * the user confirmed), resp. the initiator to the responder (psk, kem-auth-mutual, numeric). */
int pqpan_pqke_mode_authenticates_responder(unsigned mode);
int pqpan_pqke_mode_authenticates_initiator(unsigned mode);

/* The work one side does in an exchange (docs/PROTOCOL.md §3.4), for cost models: ML-KEM,
 * ML-DSA (of the exchange's set) and P-256 operations, and Keccak-f[1600] permutations of the
 * key schedule (transcript hash over a prologue of prologue_len bytes, the hash of a pinned
 * ML-DSA public key, KMAC calls, numeric commitment and value), counted from the message
 * sizes and the SP 800-185 encodings. The permutations inside ML-KEM, ML-DSA and P-256 are
 * part of those operations, not counted here. */
enum pqpan_pqke_role {
    PQPAN_PQKE_ROLE_RESPONDER = 0,
    PQPAN_PQKE_ROLE_INITIATOR = 1
};
struct pqpan_pqke_work {
    unsigned kem_keygen;
    unsigned kem_encaps;
    unsigned kem_decaps;
    unsigned keccak_permutations;
    unsigned sig_sign;    /* ML-DSA.Sign (FIPS 204 Alg. 2), sig modes */
    unsigned sig_verify;  /* ML-DSA.Verify (FIPS 204 Alg. 3), sig modes */
    unsigned ecdh_keygen; /* P-256 ephemeral key pair, hybrid suites */
    unsigned ecdh_shared; /* P-256 shared secret with public-key validation, hybrid suites */
};
/* PQPAN_OK, or PQPAN_ERR_SUITE / PQPAN_ERR_MODE for an unknown suite or mode,
 * PQPAN_ERR_INVALID_ARG for a sig mode with an unknown set sig (work zeroed). sig is ignored
 * in the other modes. */
PQPAN_MUST_CHECK int pqpan_pqke_side_work(struct pqpan_pqke_work *work, unsigned suite,
                                          unsigned mode, unsigned sig, enum pqpan_pqke_role role,
                                          size_t prologue_len);

/* ---- Message codecs (one parse/write pair per message) ----
 * A parsed message points into the caller's input buffer (valid while that buffer is).
 * Parsers check, in this order: at least a header's bytes (else BAD_LENGTH), version
 * (VERSION), type (MALFORMED), suite (unknown: SUITE; reserved: UNSUPPORTED), mode (unknown:
 * MODE; reserved: UNSUPPORTED), the length field equal to the input length and the input
 * length equal to the message size for the suite and mode (BAD_LENGTH), then a set byte
 * with bits outside the implemented values or without the message's own suite and mode
 * (MALFORMED). On error the parsed struct is zeroed. Writers check the suite and mode, the
 * variable fields' presence and lengths, then the capacity; on error *out_len = 0 and
 * out[0 .. min(out_cap, PQPAN_PQKE_MSG_MAX_BYTES)) is zeroed. */

struct pqpan_pqke_header {
    uint8_t version;
    uint8_t type;
    uint8_t suite;
    uint8_t mode;
    uint16_t length; /* total message length in bytes, header included */
};
/* Decodes the 6 header bytes only (no checks beyond in_len >= 6). */
PQPAN_MUST_CHECK int pqpan_pqke_header_parse(struct pqpan_pqke_header *h, const uint8_t *in,
                                             size_t in_len);

struct pqpan_pqke_init_msg {
    uint8_t suite;
    uint8_t mode;
    uint8_t offer_suites; /* every suite the initiator accepts */
    uint8_t offer_modes;  /* every mode the initiator accepts */
    const uint8_t *nonce; /* PQPAN_PQKE_NONCE_BYTES */
    const uint8_t *ek;    /* the ephemeral encapsulation key */
    size_t ek_len;
    const uint8_t *ct_static; /* kem-auth*: ciphertext to the responder's static key, else NULL */
    size_t ct_static_len;
    const uint8_t *commit; /* numeric: PQPAN_PQKE_COMMIT_BYTES, else NULL */
};
PQPAN_MUST_CHECK int pqpan_pqke_init_parse(struct pqpan_pqke_init_msg *m, const uint8_t *in,
                                           size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_init_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                           const struct pqpan_pqke_init_msg *m);

struct pqpan_pqke_resp_msg {
    uint8_t suite;
    uint8_t mode;
    uint8_t accepted_suites; /* every suite the responder accepts */
    uint8_t accepted_modes;  /* every mode the responder accepts */
    const uint8_t *ct;       /* the ciphertext to the initiator's ephemeral key */
    size_t ct_len;
    const uint8_t *ct_static; /* kem-auth-mutual: to the initiator's static key, else NULL */
    size_t ct_static_len;
    const uint8_t *nonce; /* PQPAN_PQKE_NONCE_BYTES */
    const uint8_t *tag;   /* PQPAN_PQKE_TAG_BYTES */
};
PQPAN_MUST_CHECK int pqpan_pqke_resp_parse(struct pqpan_pqke_resp_msg *m, const uint8_t *in,
                                           size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_resp_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                           const struct pqpan_pqke_resp_msg *m);

struct pqpan_pqke_fin_msg {
    uint8_t suite;
    uint8_t mode;
    const uint8_t *reveal; /* numeric: PQPAN_PQKE_REVEAL_BYTES, else NULL */
    const uint8_t *tag;    /* PQPAN_PQKE_TAG_BYTES */
};
PQPAN_MUST_CHECK int pqpan_pqke_fin_parse(struct pqpan_pqke_fin_msg *m, const uint8_t *in,
                                          size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_fin_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                          const struct pqpan_pqke_fin_msg *m);

/* ---- Configuration ---- */

/* What a party accepts, and the context both bind into the transcript. The same policy
 * (suites, modes) must be given to every retry: it is what makes a fallback visible. */
struct pqpan_pqke_policy {
    uint32_t suites; /* non-empty subset of PQPAN_PQKE_SUITES_ALL */
    uint32_t modes;  /* non-empty subset of PQPAN_PQKE_MODES_ALL */
    const uint8_t *prologue; /* bytes both sides agree on out of band (may be NULL if 0) */
    size_t prologue_len;     /* at most PQPAN_PQKE_PROLOGUE_MAX_BYTES */
};

/* Long-term secrets and pinned peer keys, passed to each call that needs them (NULL when the
 * mode needs none). Static ML-KEM keys are of the exchange's suite (FIPS 203 sizes):
 *   psk      psk mode, both sides: PQPAN_PQKE_PSK_BYTES of full entropy (never a PIN).
 *   own_dk   this party's static decapsulation key: the responder in kem-auth and
 *            kem-auth-mutual, the initiator in kem-auth-mutual.
 *   peer_ek  the peer's pinned static encapsulation key: the initiator in kem-auth and
 *            kem-auth-mutual (the responder's), the responder in kem-auth-mutual (the
 *            initiator's). */
struct pqpan_pqke_credentials {
    const uint8_t *psk;
    const uint8_t *own_dk;
    const uint8_t *peer_ek;
};

/* ---- Parties (docs/PROTOCOL.md §4) ---- */

enum pqpan_pqke_state {
    PQPAN_PQKE_STATE_IDLE = 0,      /* initialised, nothing sent or received */
    PQPAN_PQKE_STATE_WAIT_RESP = 1, /* initiator: INIT sent */
    PQPAN_PQKE_STATE_WAIT_FIN = 2,  /* responder: RESP sent */
    PQPAN_PQKE_STATE_DONE = 3,      /* authenticated as the mode allows; session available */
    PQPAN_PQKE_STATE_FAILED = 4,    /* terminal; see *_error() */
    PQPAN_PQKE_STATE_WAIT_USER = 5, /* numeric: tags verified, the user must compare values */
    PQPAN_PQKE_STATE_RELEASED = 6   /* terminal: the session was handed over and wiped */
};

/* The result of an exchange, handed over once by *_take_session. */
struct pqpan_pqke_session {
    uint8_t suite;
    uint8_t mode;
    size_t key_bytes;                                /* 16 (ML-KEM-512) or 32 */
    uint8_t key_i2r[PQPAN_PQKE_KEY_MAX_BYTES];       /* initiator -> responder traffic */
    uint8_t key_r2i[PQPAN_PQKE_KEY_MAX_BYTES];       /* responder -> initiator traffic */
    uint8_t transcript_hash[PQPAN_PQKE_TRANSCRIPT_HASH_BYTES]; /* channel binding */
};

/* The keys and transcript hash one party holds between the key schedule and take_session. */
struct pqpan_pqke_secrets {
    uint8_t key_i2r[PQPAN_PQKE_KEY_MAX_BYTES];
    uint8_t key_r2i[PQPAN_PQKE_KEY_MAX_BYTES];
    uint8_t th[PQPAN_PQKE_TRANSCRIPT_HASH_BYTES];
};

struct pqpan_pqke_initiator {
    uint8_t state; /* enum pqpan_pqke_state */
    uint8_t suite;
    uint8_t mode;
    uint8_t offer_suites;
    uint8_t offer_modes;
    int error; /* the first error, which moved the party to FAILED; else PQPAN_OK */
    uint32_t numeric_value; /* numeric, in WAIT_USER */
    struct pqpan_sha3_256_ctx transcript;      /* prologue, INIT, then RESP up to its tag */
    uint8_t dk[PQPAN_MLKEM1024_DK_BYTES];      /* the ephemeral decapsulation key */
    uint8_t ss_static[PQPAN_MLKEM_SS_BYTES];   /* kem-auth*: the secret encapsulated in INIT */
    uint8_t reveal[PQPAN_PQKE_REVEAL_BYTES];   /* numeric: the committed secret */
    struct pqpan_pqke_secrets secrets;
};

struct pqpan_pqke_responder {
    uint8_t state; /* enum pqpan_pqke_state */
    uint8_t suite; /* of the INIT accepted, 0 before */
    uint8_t mode;
    uint8_t accepted_suites;
    uint8_t accepted_modes;
    int error;
    uint32_t numeric_value;
    struct pqpan_sha3_256_ctx transcript;    /* the prologue, absorbed at init */
    uint8_t fin_tag[PQPAN_PQKE_TAG_BYTES];   /* the initiator's tag FIN must carry */
    uint8_t commit[PQPAN_PQKE_COMMIT_BYTES]; /* numeric: INIT's commitment */
    struct pqpan_pqke_secrets secrets;
};

/* Prepares an initiator for one exchange of (suite, mode), which must be in the policy.
 * INVALID_ARG (ctx FAILED) for an empty or unknown policy, a suite or mode outside it, or a
 * prologue too long. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_init(struct pqpan_pqke_initiator *ctx,
                                               const struct pqpan_pqke_policy *policy,
                                               unsigned suite, unsigned mode);
/* IDLE -> WAIT_RESP: ML-KEM KeyGen (and, kem-auth*, Encaps to cred->peer_ek; numeric, the
 * commitment) and writes INIT to out. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_start(struct pqpan_pqke_initiator *ctx,
                                                const struct pqpan_pqke_credentials *cred,
                                                pqpan_rng_fn rng, void *rng_ctx, uint8_t *out,
                                                size_t out_cap, size_t *out_len);
/* WAIT_RESP -> DONE (numeric: WAIT_USER): consumes RESP (Decaps, key schedule, the
 * responder's tag, the downgrade check) and writes FIN to out. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_handle(struct pqpan_pqke_initiator *ctx,
                                                 const struct pqpan_pqke_credentials *cred,
                                                 const uint8_t *in, size_t in_len, uint8_t *out,
                                                 size_t out_cap, size_t *out_len);
/* WAIT_USER only: the value to display, 0 .. 999999 (else STATE, *value = 0). */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_numeric_value(const struct pqpan_pqke_initiator *ctx,
                                                        uint32_t *value);
/* WAIT_USER -> DONE if the user saw equal values on both devices, else FAILED (AUTH). */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_user_confirm(struct pqpan_pqke_initiator *ctx,
                                                       int values_match);
/* DONE -> RELEASED: copies the session to *out and wipes it from ctx. In any other state:
 * STATE, *out zeroed, ctx FAILED. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_take_session(struct pqpan_pqke_initiator *ctx,
                                                       struct pqpan_pqke_session *out);
enum pqpan_pqke_state pqpan_pqke_initiator_state(const struct pqpan_pqke_initiator *ctx);
int pqpan_pqke_initiator_error(const struct pqpan_pqke_initiator *ctx);
/* Wipes every secret and leaves the context FAILED (error PQPAN_ERR_STATE unless it had
 * failed already): a caller abandoning the exchange, e.g. on a transport timeout. */
void pqpan_pqke_initiator_abort(struct pqpan_pqke_initiator *ctx);

/* Prepares a responder with its policy. INVALID_ARG (ctx FAILED) as for the initiator. */
PQPAN_MUST_CHECK int pqpan_pqke_responder_init(struct pqpan_pqke_responder *ctx,
                                               const struct pqpan_pqke_policy *policy);
/* IDLE: consumes INIT (policy and downgrade checks, Encaps, and per mode Decaps of the
 * static ciphertext / Encaps to cred->peer_ek; key schedule) and writes RESP -> WAIT_FIN.
 * WAIT_FIN: consumes FIN (the initiator's tag; numeric: the commitment), writes nothing
 * (*out_len = 0) -> DONE (numeric: WAIT_USER). rng is used for INIT only (may be NULL in
 * WAIT_FIN); out may be NULL with out_cap 0 for FIN. */
PQPAN_MUST_CHECK int pqpan_pqke_responder_handle(struct pqpan_pqke_responder *ctx,
                                                 const struct pqpan_pqke_credentials *cred,
                                                 pqpan_rng_fn rng, void *rng_ctx,
                                                 const uint8_t *in, size_t in_len, uint8_t *out,
                                                 size_t out_cap, size_t *out_len);
PQPAN_MUST_CHECK int pqpan_pqke_responder_numeric_value(const struct pqpan_pqke_responder *ctx,
                                                        uint32_t *value);
PQPAN_MUST_CHECK int pqpan_pqke_responder_user_confirm(struct pqpan_pqke_responder *ctx,
                                                       int values_match);
PQPAN_MUST_CHECK int pqpan_pqke_responder_take_session(struct pqpan_pqke_responder *ctx,
                                                       struct pqpan_pqke_session *out);
enum pqpan_pqke_state pqpan_pqke_responder_state(const struct pqpan_pqke_responder *ctx);
int pqpan_pqke_responder_error(const struct pqpan_pqke_responder *ctx);
void pqpan_pqke_responder_abort(struct pqpan_pqke_responder *ctx);

#endif
