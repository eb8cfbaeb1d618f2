/* PQKE: pqpan's post-quantum key establishment protocol (docs/PROTOCOL.md).
 *
 * Three messages over any reliable message transport:
 *   initiator -> responder   INIT (version, suite, initiator nonce, ML-KEM encapsulation key)
 *   responder -> initiator   RESP (ciphertext, responder nonce, responder confirmation tag)
 *   initiator -> responder   FIN  (initiator confirmation tag)
 * The initiator runs ML-KEM KeyGen and Decaps, the responder Encaps; which BLE (or 802.15.4)
 * role plays which protocol role is decided outside this module. The key schedule is
 * KMAC256 (NIST SP 800-185) over the ML-KEM shared secret and SHA3-256 of the transcript.
 *
 * The API is transport-agnostic: it produces and consumes whole messages. Contexts hold no
 * pointers (a struct copy clones a party), are sized at compile time for ML-KEM-1024, and
 * take randomness through pqpan_rng_fn at the call that needs it. Any error moves a party
 * to the terminal FAILED state, wipes its secrets and zeroes every output; a session key
 * is released only in state DONE, after the peer's confirmation tag has verified.
 * Input and output buffers of one call must not overlap. */
#ifndef PQPAN_PQKE_H
#define PQPAN_PQKE_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/error.h"
#include "pqpan/kem.h"
#include "pqpan/sha3.h"

/* ---- Wire constants (docs/PROTOCOL.md §2) ---- */

#define PQPAN_PQKE_VERSION 1
#define PQPAN_PQKE_HEADER_BYTES 5 /* version, type, suite, total length (16-bit LE) */
#define PQPAN_PQKE_NONCE_BYTES 32
#define PQPAN_PQKE_TAG_BYTES 32
#define PQPAN_PQKE_SESSION_KEY_BYTES 16 /* an AES-128 key: BLE LTK, 802.15.4 key */

/* Message types (header byte 1). */
enum pqpan_pqke_msg_type {
    PQPAN_PQKE_MSG_INIT = 1,
    PQPAN_PQKE_MSG_RESP = 2,
    PQPAN_PQKE_MSG_FIN = 3
};

/* Suites (header byte 2): the KEM. Wire values are fixed, independent of enum
 * pqpan_kem_id's numbering. */
enum pqpan_pqke_suite {
    PQPAN_PQKE_SUITE_MLKEM512 = 1,
    PQPAN_PQKE_SUITE_MLKEM768 = 2,
    PQPAN_PQKE_SUITE_MLKEM1024 = 3
};
/* A set of suites for the responder's policy: OR of PQPAN_PQKE_SUITE_BIT(suite). */
#define PQPAN_PQKE_SUITE_BIT(suite) (1u << (unsigned)(suite))
#define PQPAN_PQKE_SUITES_ALL                                                                     \
    (PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM512) |                                        \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM768) |                                        \
     PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM1024))

/* Message sizes for a KEM with encapsulation key ek and ciphertext ct bytes. */
#define PQPAN_PQKE_INIT_BYTES(ek) (PQPAN_PQKE_HEADER_BYTES + PQPAN_PQKE_NONCE_BYTES + (ek))
#define PQPAN_PQKE_RESP_BYTES(ct)                                                                 \
    (PQPAN_PQKE_HEADER_BYTES + (ct) + PQPAN_PQKE_NONCE_BYTES + PQPAN_PQKE_TAG_BYTES)
#define PQPAN_PQKE_FIN_BYTES (PQPAN_PQKE_HEADER_BYTES + PQPAN_PQKE_TAG_BYTES)
/* Largest messages (ML-KEM-1024): buffers of these sizes always suffice. */
#define PQPAN_PQKE_INIT_MAX_BYTES PQPAN_PQKE_INIT_BYTES(PQPAN_MLKEM1024_EK_BYTES)
#define PQPAN_PQKE_RESP_MAX_BYTES PQPAN_PQKE_RESP_BYTES(PQPAN_MLKEM1024_CT_BYTES)
#define PQPAN_PQKE_MSG_MAX_BYTES                                                                  \
    (PQPAN_PQKE_INIT_MAX_BYTES > PQPAN_PQKE_RESP_MAX_BYTES ? PQPAN_PQKE_INIT_MAX_BYTES        \
                                                           : PQPAN_PQKE_RESP_MAX_BYTES)

/* Sizes of one suite; 0 in every field for an unknown suite. */
struct pqpan_pqke_sizes {
    size_t ek_bytes;
    size_t ct_bytes;
    size_t init_bytes;
    size_t resp_bytes;
    size_t fin_bytes;
};
struct pqpan_pqke_sizes pqpan_pqke_suite_sizes(unsigned suite);
/* "ML-KEM-768" etc., or NULL for an unknown suite. */
const char *pqpan_pqke_suite_name(unsigned suite);
/* The suite that uses a KEM (enum pqpan_kem_id of kem.h), or 0 if none does. */
unsigned pqpan_pqke_suite_for_kem(enum pqpan_kem_id kem);

/* ---- Message codecs (one parse/write pair per message) ----
 * A parsed message points into the caller's input buffer (valid while that buffer is).
 * Parsers check, in this order: at least a header's bytes (else BAD_LENGTH), version
 * (VERSION), type (MALFORMED), a known suite (SUITE), the length field equal to the input
 * length (BAD_LENGTH), the input length equal to the message size for the suite
 * (BAD_LENGTH). On error the parsed struct is zeroed. Writers check the suite and that
 * the variable field's length matches it, then the capacity; on error *out_len = 0 and
 * out[0 .. min(out_cap, PQPAN_PQKE_MSG_MAX_BYTES)) is zeroed. */

struct pqpan_pqke_header {
    uint8_t version;
    uint8_t type;
    uint8_t suite;
    uint16_t length; /* total message length in bytes, header included */
};
/* Decodes the 5 header bytes only (no checks beyond in_len >= 5). */
PQPAN_MUST_CHECK int pqpan_pqke_header_parse(struct pqpan_pqke_header *h, const uint8_t *in,
                                             size_t in_len);

struct pqpan_pqke_init_msg {
    uint8_t suite;
    const uint8_t *nonce; /* PQPAN_PQKE_NONCE_BYTES */
    const uint8_t *ek;
    size_t ek_len;
};
PQPAN_MUST_CHECK int pqpan_pqke_init_parse(struct pqpan_pqke_init_msg *m, const uint8_t *in,
                                           size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_init_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                           const struct pqpan_pqke_init_msg *m);

struct pqpan_pqke_resp_msg {
    uint8_t suite;
    const uint8_t *ct;
    size_t ct_len;
    const uint8_t *nonce; /* PQPAN_PQKE_NONCE_BYTES */
    const uint8_t *tag;   /* PQPAN_PQKE_TAG_BYTES */
};
PQPAN_MUST_CHECK int pqpan_pqke_resp_parse(struct pqpan_pqke_resp_msg *m, const uint8_t *in,
                                           size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_resp_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                           const struct pqpan_pqke_resp_msg *m);

struct pqpan_pqke_fin_msg {
    uint8_t suite;
    const uint8_t *tag; /* PQPAN_PQKE_TAG_BYTES */
};
PQPAN_MUST_CHECK int pqpan_pqke_fin_parse(struct pqpan_pqke_fin_msg *m, const uint8_t *in,
                                          size_t in_len);
PQPAN_MUST_CHECK int pqpan_pqke_fin_write(uint8_t *out, size_t out_cap, size_t *out_len,
                                          const struct pqpan_pqke_fin_msg *m);

/* ---- Parties (docs/PROTOCOL.md §4) ---- */

enum pqpan_pqke_state {
    PQPAN_PQKE_STATE_IDLE = 0,      /* initialised, nothing sent or received */
    PQPAN_PQKE_STATE_WAIT_RESP = 1, /* initiator: INIT sent */
    PQPAN_PQKE_STATE_WAIT_FIN = 2,  /* responder: RESP sent */
    PQPAN_PQKE_STATE_DONE = 3,      /* key confirmed; session key available */
    PQPAN_PQKE_STATE_FAILED = 4     /* terminal; see *_error() */
};

struct pqpan_pqke_initiator {
    uint8_t state; /* enum pqpan_pqke_state */
    uint8_t suite;
    int error;     /* the error that moved the party to FAILED, else PQPAN_OK */
    struct pqpan_sha3_256_ctx transcript; /* INIT, then RESP up to its tag */
    uint8_t dk[PQPAN_MLKEM1024_DK_BYTES];
    uint8_t session_key[PQPAN_PQKE_SESSION_KEY_BYTES];
};

struct pqpan_pqke_responder {
    uint8_t state; /* enum pqpan_pqke_state */
    uint8_t suite; /* the suite of the INIT accepted, 0 before */
    int error;
    uint32_t accepted_suites; /* OR of PQPAN_PQKE_SUITE_BIT */
    uint8_t fin_tag[PQPAN_PQKE_TAG_BYTES]; /* the initiator's tag FIN must carry */
    uint8_t session_key[PQPAN_PQKE_SESSION_KEY_BYTES];
};

/* Prepares an initiator for one suite. INVALID_ARG (ctx FAILED) for an unknown suite. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_init(struct pqpan_pqke_initiator *ctx, unsigned suite);
/* IDLE -> WAIT_RESP: runs ML-KEM KeyGen and writes INIT to out. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_start(struct pqpan_pqke_initiator *ctx,
                                                pqpan_rng_fn rng, void *rng_ctx, uint8_t *out,
                                                size_t out_cap, size_t *out_len);
/* WAIT_RESP -> DONE: consumes RESP (Decaps, key schedule, checks the responder's tag) and
 * writes FIN to out. */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_handle(struct pqpan_pqke_initiator *ctx,
                                                 const uint8_t *in, size_t in_len, uint8_t *out,
                                                 size_t out_cap, size_t *out_len);
/* The session key, only in DONE (else STATE and key zeroed). */
PQPAN_MUST_CHECK int pqpan_pqke_initiator_session_key(
    const struct pqpan_pqke_initiator *ctx, uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES]);
enum pqpan_pqke_state pqpan_pqke_initiator_state(const struct pqpan_pqke_initiator *ctx);
int pqpan_pqke_initiator_error(const struct pqpan_pqke_initiator *ctx);
/* Wipes every secret and leaves the context FAILED with error PQPAN_ERR_STATE (a caller
 * abandoning the exchange, e.g. on a transport timeout). */
void pqpan_pqke_initiator_abort(struct pqpan_pqke_initiator *ctx);

/* Prepares a responder that accepts the suites in accepted_suites (a non-empty subset of
 * PQPAN_PQKE_SUITES_ALL, else INVALID_ARG and ctx FAILED). */
PQPAN_MUST_CHECK int pqpan_pqke_responder_init(struct pqpan_pqke_responder *ctx,
                                               uint32_t accepted_suites);
/* IDLE: consumes INIT (Encaps, key schedule) and writes RESP -> WAIT_FIN.
 * WAIT_FIN: consumes FIN (checks the initiator's tag), writes nothing (*out_len = 0) -> DONE.
 * rng is used for INIT only (may be NULL in WAIT_FIN). */
PQPAN_MUST_CHECK int pqpan_pqke_responder_handle(struct pqpan_pqke_responder *ctx,
                                                 pqpan_rng_fn rng, void *rng_ctx,
                                                 const uint8_t *in, size_t in_len, uint8_t *out,
                                                 size_t out_cap, size_t *out_len);
PQPAN_MUST_CHECK int pqpan_pqke_responder_session_key(
    const struct pqpan_pqke_responder *ctx, uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES]);
enum pqpan_pqke_state pqpan_pqke_responder_state(const struct pqpan_pqke_responder *ctx);
int pqpan_pqke_responder_error(const struct pqpan_pqke_responder *ctx);
void pqpan_pqke_responder_abort(struct pqpan_pqke_responder *ctx);

#endif
