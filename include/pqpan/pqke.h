/* PQKE: pqpan's post-quantum key establishment protocol, version 2 (docs/PROTOCOL.md).
 *
 * Three messages over any reliable message transport (four in numeric mode):
 *   initiator -> responder   INIT   (suite, mode, the initiator's acceptable suites and modes,
 *                                    nonce, ephemeral ML-KEM encapsulation key, mode fields)
 *   responder -> initiator   RESP   (the responder's accepted suites and modes, ciphertext,
 *                                    mode fields, nonce, responder confirmation tag)
 *   initiator -> responder   FIN    (mode fields, initiator confirmation tag)
 *   responder -> initiator   REVEAL (numeric only: the responder's committed nonce)
 * The key schedule is KMAC256 (NIST SP 800-185) over every shared secret of the suite and
 * mode and SHA3-256 of the transcript, which starts with a caller-given prologue (both BLE
 * addresses, an application label, ...). Per-direction session keys of 16 bytes (ML-KEM-512)
 * or 32 bytes (ML-KEM-768, -1024), and the transcript hash for channel binding.
 *
 * Suites: ML-KEM-512/768/1024 alone, or hybrid with P-256 ECDH (the LE Secure Connections
 * curve): both shared secrets enter the key schedule, which stays secure while either of
 * ML-KEM and ECDH is unbroken. Every mode below works with every suite.
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
 *   sig              authenticates the responder only: it signs the transcript with ML-DSA
 *                    (FIPS 204), verified with its raw public key pinned by the initiator.
 *   sig-mutual       authenticates both: the initiator signs too, verified with its pinned
 *                    public key.
 *   numeric          authenticates both if the user confirms that the two six-digit values
 *                    match (the order of LE Secure Connections' Numeric Comparison: the
 *                    responder commits, the initiator reveals, the responder reveals and
 *                    displays at once): a man in the middle gets one guess, at most 1e-6,
 *                    per value a user sees. NOT authenticated until the user confirms.
 * psk and numeric bind both ends' identities (the credentials' own_id and peer_id, in the
 * fixed order initiator, responder) into the transcript, so a message reflected to the
 * device that sent it fails.
 * Never fall back silently: INIT carries every suite and mode the initiator accepts, the
 * transcript binds them, and each side refuses (PQPAN_ERR_DOWNGRADE) an exchange that is not
 * the best one both accept; an application that retries must offer the same set.
 *
 * The API is transport-agnostic: it produces and consumes whole messages. Contexts hold no
 * pointers into themselves (a struct copy clones a party), are sized at compile time for
 * ML-KEM-1024, take randomness (pqpan_rng_fn) at the call that needs it, and take the
 * credentials (struct pqpan_pqke_credentials) once: the initiator at start, the responder
 * at init. A party keeps a copy of that struct, so every later step uses the keys whose
 * identities it bound at the start; the keys it points to must stay valid and unchanged
 * until the exchange ends. Any error moves a party to the terminal FAILED state, wipes its
 * secrets and zeroes every output (but a call refused because its input and output overlap
 * leaves both alone: the input is the caller's message); the first error is kept. A session is released only in state
 * DONE, after the peer's confirmation tag (and signature) verified (and, in numeric mode,
 * the user confirmed), and *_take_session hands it over and wipes it from the context.
 * Input and output buffers of one call must not overlap: an overlap is detected and refused
 * (PQPAN_ERR_INVALID_ARG). A NULL context gives PQPAN_ERR_INVALID_ARG everywhere; the state
 * of a NULL context reads as FAILED. */
#ifndef PQPAN_PQKE_H
#define PQPAN_PQKE_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/ecdh.h"
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
#define PQPAN_PQKE_COMMIT_BYTES 32 /* numeric: the responder's commitment (RESP) */
#define PQPAN_PQKE_NUMERIC_NONCE_BYTES 32 /* numeric: each side's nonce (FIN, REVEAL) */
#define PQPAN_PQKE_PSK_BYTES 32     /* the shortest PSK accepted (full entropy, never a PIN) */
#define PQPAN_PQKE_PSK_MAX_BYTES 64
#define PQPAN_PQKE_ID_MAX_BYTES 64 /* own_id / peer_id: a link address, a device name */
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
    PQPAN_PQKE_MSG_FIN = 3,
    PQPAN_PQKE_MSG_REVEAL = 4 /* numeric only */
};

/* Suites (header byte 2). Wire values are fixed, independent of enum pqpan_kem_id. The
 * hybrid suites add P-256 ECDH (the LE Secure Connections curve) to ML-KEM. */
enum pqpan_pqke_suite {
    PQPAN_PQKE_SUITE_MLKEM512 = 1,
    PQPAN_PQKE_SUITE_MLKEM768 = 2,
    PQPAN_PQKE_SUITE_MLKEM1024 = 3,
    PQPAN_PQKE_SUITE_P256_MLKEM512 = 4,
    PQPAN_PQKE_SUITE_P256_MLKEM768 = 5,
    PQPAN_PQKE_SUITE_P256_MLKEM1024 = 6
};

/* Authentication modes (header byte 3). */
enum pqpan_pqke_mode {
    PQPAN_PQKE_MODE_NONE = 1,
    PQPAN_PQKE_MODE_PSK = 2,
    PQPAN_PQKE_MODE_KEM_AUTH = 3,
    PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL = 4,
    PQPAN_PQKE_MODE_SIG = 5,
    PQPAN_PQKE_MODE_SIG_MUTUAL = 6,
    PQPAN_PQKE_MODE_NUMERIC = 7
};

/* Sets of suites and modes (policies, offers): OR of the bits. On the wire a set is one
 * byte, so only values 1..7 are representable. */
#define PQPAN_PQKE_SUITE_BIT(suite) (1u << (unsigned)(suite))
#define PQPAN_PQKE_MODE_BIT(mode) (1u << (unsigned)(mode))
#define PQPAN_PQKE_SUITES_MLKEM                                                                   \
    (PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM512) |                                        \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM768) |                                        \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM1024))
#define PQPAN_PQKE_SUITES_HYBRID                                                                  \
    (PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_P256_MLKEM512) |                                   \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_P256_MLKEM768) |                                   \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_P256_MLKEM1024))
#define PQPAN_PQKE_SUITES_ALL (PQPAN_PQKE_SUITES_MLKEM | PQPAN_PQKE_SUITES_HYBRID)
#define PQPAN_PQKE_MODES_ALL                                                                      \
    (PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE) | PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_PSK) |   \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH) |                                          \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL) |                                   \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG) | PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG_MUTUAL) | \
     PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NUMERIC))

/* Message sizes (docs/PROTOCOL.md §2) for a sig-set field of sig_set bytes (sig modes), a KEM
 * with encapsulation key ek and ciphertext ct bytes, P-256 public keys of ecdh bytes
 * (hybrid suites), ML-DSA signatures of sig bytes and (numeric) a commitment and nonces:
 * INIT   = header || [sig set] || offer || nonce_i || ek || [ecdh_i] || [ct to the
 *          responder's static key]
 * RESP   = header || [sig set] || accepted || ct || [ecdh_r] || [ct to the initiator's static
 *          key] || nonce_r || [commit] || [sig_r] || tag_r
 * FIN    = header || [sig set] || [the initiator's numeric nonce] || [sig_i] || tag_i
 * REVEAL = header || the responder's numeric nonce (numeric only). */
#define PQPAN_PQKE_INIT_BYTES(sig_set, ek, ecdh, ct_static)                                       \
    (PQPAN_PQKE_HEADER_BYTES + (sig_set) + PQPAN_PQKE_SETS_BYTES + PQPAN_PQKE_NONCE_BYTES +     \
     (ek) + (ecdh) + (ct_static))
#define PQPAN_PQKE_RESP_BYTES(sig_set, ct, ecdh, ct_static, commit, sig)                         \
    (PQPAN_PQKE_HEADER_BYTES + (sig_set) + PQPAN_PQKE_SETS_BYTES + (ct) + (ecdh) +              \
     (ct_static) + PQPAN_PQKE_NONCE_BYTES + (commit) + (sig) + PQPAN_PQKE_TAG_BYTES)
#define PQPAN_PQKE_FIN_BYTES(sig_set, numeric_nonce, sig)                                         \
    (PQPAN_PQKE_HEADER_BYTES + (sig_set) + (numeric_nonce) + (sig) + PQPAN_PQKE_TAG_BYTES)
#define PQPAN_PQKE_REVEAL_MSG_BYTES (PQPAN_PQKE_HEADER_BYTES + PQPAN_PQKE_NUMERIC_NONCE_BYTES)
/* Largest messages (ML-KEM-1024 with P-256; the kem-auth INIT, the sig-mutual RESP with
 * ML-DSA-87, the sig-mutual FIN with ML-DSA-87): buffers of these sizes always suffice. */
#define PQPAN_PQKE_INIT_MAX_BYTES                                                                 \
    PQPAN_PQKE_INIT_BYTES(0, PQPAN_MLKEM1024_EK_BYTES, PQPAN_PQKE_ECDH_PUBLIC_BYTES,             \
                          PQPAN_MLKEM1024_CT_BYTES)
#define PQPAN_PQKE_RESP_MAX_BYTES                                                                 \
    PQPAN_PQKE_RESP_BYTES(PQPAN_PQKE_SIG_SET_BYTES, PQPAN_MLKEM1024_CT_BYTES,                    \
                          PQPAN_PQKE_ECDH_PUBLIC_BYTES, 0, 0, PQPAN_MLDSA87_SIG_BYTES)
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
    size_t reveal_bytes; /* numeric: the fourth message, REVEAL, else 0 */
    size_t ecdh_bytes; /* hybrid: each P-256 public key field, else 0 */
    size_t sig_bytes;  /* sig modes: each ML-DSA signature, else 0 */
};
struct pqpan_pqke_sizes pqpan_pqke_message_sizes(unsigned suite, unsigned mode, unsigned sig);
/* "ML-KEM-768", "P-256+ML-KEM-768" etc., or NULL for an unknown suite. */
const char *pqpan_pqke_suite_name(unsigned suite);
/* The ML-KEM-only suite of a KEM (enum pqpan_kem_id of kem.h), or 0 if none uses it. */
unsigned pqpan_pqke_suite_for_kem(enum pqpan_kem_id kem);
/* "none", "psk", "kem-auth", "kem-auth-mutual", "sig", "sig-mutual", "numeric", or NULL. */
const char *pqpan_pqke_mode_name(unsigned mode);
/* The mode of a name above, or 0. */
unsigned pqpan_pqke_mode_by_name(const char *name);
/* 1 if the mode is implemented by this build (every known mode). */
int pqpan_pqke_mode_implemented(unsigned mode);
/* 1 if the mode authenticates the responder to the initiator (psk, kem-auth*, sig*, numeric
 * once the user confirmed), resp. the initiator to the responder (psk, kem-auth-mutual,
 * sig-mutual, numeric). */
int pqpan_pqke_mode_authenticates_responder(unsigned mode);
int pqpan_pqke_mode_authenticates_initiator(unsigned mode);
/* 1 if the responder signs RESP (sig, sig-mutual: these modes need an ML-DSA set, and every
 * message carries it), resp. the initiator signs FIN (sig-mutual). */
int pqpan_pqke_mode_sig_responder(unsigned mode);
int pqpan_pqke_mode_sig_initiator(unsigned mode);
/* 1 if the suite is a hybrid one (P-256 ECDH beside ML-KEM). */
int pqpan_pqke_suite_hybrid(unsigned suite);
/* The hybrid suite of a KEM (P-256 + that ML-KEM), or 0 if none uses it. */
unsigned pqpan_pqke_hybrid_suite_for_kem(enum pqpan_kem_id kem);

/* The work one side does in an exchange (docs/PROTOCOL.md §3.4), for cost models: ML-KEM,
 * ML-DSA (of the exchange's set) and P-256 operations, and Keccak-f[1600] permutations of the
 * key schedule (transcript hash over a prologue of prologue_len bytes, the hash of a pinned
 * ML-DSA public key, KMAC calls, numeric commitment and value), counted from the message
 * sizes and the SP 800-185 encodings. prologue_len counts every byte the transcript absorbs
 * before the messages beyond the prologue's 2-byte length: the prologue and, where the
 * credentials give them, the identities block (4 + both identities' lengths). The
 * permutations inside ML-KEM, ML-DSA and P-256 are part of those operations, not counted
 * here. */
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
 * (VERSION), type (MALFORMED), suite (SUITE), mode (MODE), in the sig modes the ML-DSA set
 * byte after the header (missing: BAD_LENGTH; not 1..3: MALFORMED), the length field equal
 * to the input length and the input length equal to the message size for the suite, mode
 * and set (BAD_LENGTH), then a set byte with bits outside the known values or without the
 * message's own suite and mode (MALFORMED). On error the parsed struct is zeroed. Writers
 * check the suite, mode and ML-DSA set, the variable fields' presence and lengths, then the
 * capacity; on error *out_len = 0 and out[0 .. min(out_cap, PQPAN_PQKE_MSG_MAX_BYTES)) is
 * zeroed. A signature is not verified by a parser, a P-256 key not validated. */

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
    uint8_t sig;          /* sig modes: the ML-DSA set (enum pqpan_sig_id), else 0 */
    const uint8_t *nonce; /* PQPAN_PQKE_NONCE_BYTES */
    const uint8_t *ek;    /* the ephemeral encapsulation key */
    size_t ek_len;
    const uint8_t *ecdh; /* hybrid: the P-256 public key, PQPAN_PQKE_ECDH_PUBLIC_BYTES, else NULL */
    const uint8_t *ct_static; /* kem-auth*: ciphertext to the responder's static key, else NULL */
    size_t ct_static_len;
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
    uint8_t sig;             /* sig modes: the ML-DSA set, else 0 */
    const uint8_t *ct;       /* the ciphertext to the initiator's ephemeral key */
    size_t ct_len;
    const uint8_t *ecdh; /* hybrid: the P-256 public key, else NULL */
    const uint8_t *ct_static; /* kem-auth-mutual: to the initiator's static key, else NULL */
    size_t ct_static_len;
    const uint8_t *nonce;     /* PQPAN_PQKE_NONCE_BYTES */
    const uint8_t *commit;    /* numeric: PQPAN_PQKE_COMMIT_BYTES, else NULL */
    const uint8_t *signature; /* sig modes: the responder's ML-DSA signature, else NULL */
    size_t signature_len;
    const uint8_t *tag; /* PQPAN_PQKE_TAG_BYTES */
};
PQPAN_MUST_CHECK int pqpan_pqke_resp_parse(struct pqpan_pqke_resp_msg *m, const uint8_t *in,
                                           size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_resp_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                           const struct pqpan_pqke_resp_msg *m);

struct pqpan_pqke_fin_msg {
    uint8_t suite;
    uint8_t mode;
    uint8_t sig;              /* sig modes: the ML-DSA set, else 0 */
    const uint8_t *numeric_nonce; /* numeric: PQPAN_PQKE_NUMERIC_NONCE_BYTES, else NULL */
    const uint8_t *signature; /* sig-mutual: the initiator's ML-DSA signature, else NULL */
    size_t signature_len;
    const uint8_t *tag; /* PQPAN_PQKE_TAG_BYTES */
};
PQPAN_MUST_CHECK int pqpan_pqke_fin_parse(struct pqpan_pqke_fin_msg *m, const uint8_t *in,
                                          size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_fin_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                          const struct pqpan_pqke_fin_msg *m);

/* REVEAL exists in numeric mode only: in another mode it is MALFORMED. */
struct pqpan_pqke_reveal_msg {
    uint8_t suite;
    uint8_t mode;
    const uint8_t *numeric_nonce; /* PQPAN_PQKE_NUMERIC_NONCE_BYTES: opens RESP's commitment */
};
PQPAN_MUST_CHECK int pqpan_pqke_reveal_parse(struct pqpan_pqke_reveal_msg *m, const uint8_t *in,
                                             size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_reveal_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                             const struct pqpan_pqke_reveal_msg *m);

/* ---- Configuration ---- */

/* What a party accepts, and the context both bind into the transcript. The same policy
 * (suites, modes) must be given to every retry: it is what makes a fallback visible. */
struct pqpan_pqke_policy {
    uint32_t suites; /* non-empty subset of PQPAN_PQKE_SUITES_ALL */
    uint32_t modes;  /* non-empty subset of PQPAN_PQKE_MODES_ALL */
    const uint8_t *prologue; /* bytes both sides agree on out of band (may be NULL if 0) */
    size_t prologue_len;     /* at most PQPAN_PQKE_PROLOGUE_MAX_BYTES */
};

/* Long-term secrets, pinned peer keys and identities, given once (initiator_start,
 * responder_init; NULL when the mode needs none) and kept by the party (a copy of this
 * struct: the bytes it points to must outlive the exchange).
 *   psk      psk mode, both sides: psk_len bytes, PQPAN_PQKE_PSK_BYTES to
 *            PQPAN_PQKE_PSK_MAX_BYTES, of full entropy: anyone who sends the responder an
 *            INIT can test guesses of the PSK offline (docs/PROTOCOL.md §5.3), so a PIN or a
 *            password, even hashed to 32 bytes, falls at once. A shorter PSK is refused.
 * Static ML-KEM keys (FIPS 203 sizes) are of one parameter set, kem (enum pqpan_kem_id):
 * an exchange of a suite with another ML-KEM is refused (PQPAN_ERR_SUITE) before a key is
 * read; kem 0 with a static key needed is PQPAN_ERR_INVALID_ARG.
 *   own_dk   this party's static decapsulation key: the responder in kem-auth and
 *            kem-auth-mutual, the initiator in kem-auth-mutual.
 *   peer_ek  the peer's pinned static encapsulation key: the initiator in kem-auth and
 *            kem-auth-mutual (the responder's), the responder in kem-auth-mutual (the
 *            initiator's).
 * ML-DSA keys (FIPS 204 encodings, Table 2 sizes) are all of one parameter set, sig:
 *   sig      sig modes: enum pqpan_sig_id of the keys below. The initiator announces it in
 *            INIT; a responder refuses another set (PQPAN_ERR_SUITE).
 *   own_sk   this party's ML-DSA secret key: the responder in sig and sig-mutual, the
 *            initiator in sig-mutual.
 *   peer_pk  the peer's pinned raw ML-DSA public key (no certificate): the initiator in sig
 *            and sig-mutual, the responder in sig-mutual.
 * Identities: what names each end on its link (its BLE or IEEE 802.15.4 address, a device
 * name), 1 to PQPAN_PQKE_ID_MAX_BYTES bytes each, own_id different from peer_id. Required in
 * psk and numeric mode (they bind the roles: a reflected message fails); in the other modes
 * bound when given (both or neither). They enter the transcript as LE16(len) || id of the
 * initiator, then of the responder (docs/PROTOCOL.md §3).
 *   own_id   this party's identity.
 *   peer_id  the identity of the party it means to talk to. */
struct pqpan_pqke_credentials {
    const uint8_t *psk;
    size_t psk_len;
    unsigned kem; /* enum pqpan_kem_id of own_dk and peer_ek */
    const uint8_t *own_dk;
    const uint8_t *peer_ek;
    unsigned sig;
    const uint8_t *own_sk;
    const uint8_t *peer_pk;
    const uint8_t *own_id;
    size_t own_id_len;
    const uint8_t *peer_id;
    size_t peer_id_len;
};

/* ---- Parties (docs/PROTOCOL.md §4) ---- */

enum pqpan_pqke_state {
    PQPAN_PQKE_STATE_IDLE = 0,      /* initialised, nothing sent or received */
    PQPAN_PQKE_STATE_WAIT_RESP = 1, /* initiator: INIT sent */
    PQPAN_PQKE_STATE_WAIT_FIN = 2,  /* responder: RESP sent */
    PQPAN_PQKE_STATE_DONE = 3,      /* authenticated as the mode allows; session available */
    PQPAN_PQKE_STATE_FAILED = 4,    /* terminal; see *_error() */
    PQPAN_PQKE_STATE_WAIT_USER = 5, /* numeric: tags verified, the user must compare values */
    PQPAN_PQKE_STATE_RELEASED = 6,  /* terminal: the session was handed over and wiped */
    PQPAN_PQKE_STATE_WAIT_REVEAL = 7 /* numeric, initiator: FIN sent, REVEAL awaited */
};

/* The result of an exchange, handed over once by *_take_session. */
struct pqpan_pqke_session {
    uint8_t suite;
    uint8_t mode;
    uint8_t sig; /* sig modes: the ML-DSA set of the keys that authenticated, else 0 */
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
    uint8_t sig; /* sig modes: the ML-DSA set, from the credentials at start */
    int error; /* the first error, which moved the party to FAILED; else PQPAN_OK */
    uint32_t numeric_value; /* numeric, in WAIT_USER */
    struct pqpan_pqke_credentials cred;        /* given at start, used by every later step */
    struct pqpan_sha3_256_ctx transcript;      /* prologue, [identities,] INIT, then RESP up to
                                                  its tag */
    uint8_t dk[PQPAN_MLKEM1024_DK_BYTES];      /* the ephemeral decapsulation key */
    uint8_t ecdh_sk[PQPAN_ECDH_P256_SECRET_BYTES]; /* hybrid: the ephemeral P-256 key */
    uint8_t ss_static[PQPAN_MLKEM_SS_BYTES];   /* kem-auth*: the secret encapsulated in INIT */
    uint8_t numeric_nonce[PQPAN_PQKE_NUMERIC_NONCE_BYTES]; /* numeric: r_I, secret until FIN */
    uint8_t commit[PQPAN_PQKE_COMMIT_BYTES];   /* numeric: RESP's commitment, until REVEAL */
    uint8_t sig_rnd[PQPAN_MLDSA_RND_BYTES];    /* sig-mutual: rnd of the hedged signature in FIN,
                                                  drawn at start */
    struct pqpan_pqke_secrets secrets;
};

struct pqpan_pqke_responder {
    uint8_t state; /* enum pqpan_pqke_state */
    uint8_t suite; /* of the INIT accepted, 0 before */
    uint8_t mode;
    uint8_t accepted_suites;
    uint8_t accepted_modes;
    uint8_t sig; /* sig modes: the ML-DSA set of the INIT accepted */
    int error;
    uint32_t numeric_value;
    struct pqpan_pqke_credentials cred;      /* given at init, used by every later step */
    struct pqpan_sha3_256_ctx transcript;    /* the prologue, absorbed at init */
    uint8_t fin_key[PQPAN_PQKE_TAG_BYTES];   /* the initiator's confirmation key (FIN's tag) */
    uint8_t numeric_nonce[PQPAN_PQKE_NUMERIC_NONCE_BYTES]; /* numeric: r_R, secret until REVEAL */
    struct pqpan_pqke_secrets secrets;
};

/* Prepares an initiator for one exchange of (suite, mode), which must be in the policy.
 * INVALID_ARG (ctx FAILED) for an empty or unknown policy, a suite or mode outside it, or a
 * prologue too long. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_init(struct pqpan_pqke_initiator *ctx,
                                               const struct pqpan_pqke_policy *policy,
                                               unsigned suite, unsigned mode);
/* IDLE -> WAIT_RESP: checks and keeps the credentials the whole exchange needs (a copy of
 * *cred), then ML-KEM KeyGen (and, hybrid, a P-256 key pair; kem-auth*, Encaps to
 * cred->peer_ek; numeric, its nonce, kept secret until FIN; the identities and, sig*, the
 * pinned keys' identities into the transcript) and writes INIT to out. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_start(struct pqpan_pqke_initiator *ctx,
                                                const struct pqpan_pqke_credentials *cred,
                                                pqpan_rng_fn rng, void *rng_ctx, uint8_t *out,
                                                size_t out_cap, size_t *out_len);
/* WAIT_RESP -> DONE (numeric: WAIT_REVEAL): consumes RESP (sig*: the responder's
 * signature; Decaps, hybrid ECDH, key schedule, the responder's tag, the downgrade check) and
 * writes FIN to out (sig-mutual: signed; numeric: with its nonce).
 * WAIT_REVEAL -> WAIT_USER (numeric): consumes REVEAL, whose nonce must open RESP's
 * commitment, and writes nothing (*out_len = 0; out may be NULL with out_cap 0). */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_handle(struct pqpan_pqke_initiator *ctx,
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

/* Prepares a responder with its policy and credentials (a copy of *cred is kept; NULL for a
 * responder that needs none). INVALID_ARG (ctx FAILED) as for the initiator; the
 * credentials a mode needs are checked when an INIT of that mode arrives. */
PQPAN_MUST_CHECK int pqpan_pqke_responder_init(struct pqpan_pqke_responder *ctx,
                                               const struct pqpan_pqke_policy *policy,
                                               const struct pqpan_pqke_credentials *cred);
/* IDLE: consumes INIT (policy and downgrade checks, the credentials of its suite and mode,
 * Encaps, hybrid ECDH, and per mode Decaps of the static ciphertext / Encaps to the
 * initiator's pinned key / the signature / numeric: its nonce and commitment; key
 * schedule) and writes RESP -> WAIT_FIN.
 * WAIT_FIN: consumes FIN (the initiator's tag; sig-mutual: the initiator's signature) ->
 * DONE, writing nothing (*out_len = 0; out may be NULL with out_cap 0); numeric: computes the
 * value to display and writes REVEAL -> WAIT_USER, so the value is shown before the peer
 * can learn it. rng is used for INIT only (may be NULL in WAIT_FIN). */
PQPAN_MUST_CHECK int pqpan_pqke_responder_handle(struct pqpan_pqke_responder *ctx,
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
