/* PQKE suites and modes: wire values -> ML-KEM parameter set (FIPS 203) through the generic
 * KEM layer of kem.h, mode properties, message sizes, and the work of one side. The wire
 * values are this protocol's own (docs/PROTOCOL.md §2.1). */
#include <string.h>

#include "pqke/pqke_internal.h"
#include "pqpan/kmac.h"

struct suite_row {
    unsigned suite;
    enum pqpan_kem_id kem;
    const char *name;
    int ecdh; /* hybrid: P-256 ECDH beside ML-KEM */
};

static const struct suite_row suite_rows[] = {
    {PQPAN_PQKE_SUITE_MLKEM512, PQPAN_KEM_MLKEM512, "ML-KEM-512", 0},
    {PQPAN_PQKE_SUITE_MLKEM768, PQPAN_KEM_MLKEM768, "ML-KEM-768", 0},
    {PQPAN_PQKE_SUITE_MLKEM1024, PQPAN_KEM_MLKEM1024, "ML-KEM-1024", 0},
    {PQPAN_PQKE_SUITE_P256_MLKEM512, PQPAN_KEM_MLKEM512, "P-256+ML-KEM-512", 1},
    {PQPAN_PQKE_SUITE_P256_MLKEM768, PQPAN_KEM_MLKEM768, "P-256+ML-KEM-768", 1},
    {PQPAN_PQKE_SUITE_P256_MLKEM1024, PQPAN_KEM_MLKEM1024, "P-256+ML-KEM-1024", 1},
};

struct mode_row {
    unsigned mode;
    const char *name;
    int ct_to_responder;   /* INIT carries a ciphertext to the responder's static key */
    int ct_to_initiator;   /* RESP carries a ciphertext to the initiator's static key */
    int sig_responder;     /* RESP carries the responder's ML-DSA signature (and every
                              message the ML-DSA set) */
    int sig_initiator;     /* FIN carries the initiator's ML-DSA signature */
    int auth_responder;    /* the responder is authenticated to the initiator */
    int auth_initiator;    /* the initiator is authenticated to the responder */
};

static const struct mode_row mode_rows[] = {
    {PQPAN_PQKE_MODE_NONE, "none", 0, 0, 0, 0, 0, 0},
    {PQPAN_PQKE_MODE_PSK, "psk", 0, 0, 0, 0, 1, 1},
    {PQPAN_PQKE_MODE_KEM_AUTH, "kem-auth", 1, 0, 0, 0, 1, 0},
    {PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, "kem-auth-mutual", 1, 1, 0, 0, 1, 1},
    {PQPAN_PQKE_MODE_SIG, "sig", 0, 0, 1, 0, 1, 0},
    {PQPAN_PQKE_MODE_SIG_MUTUAL, "sig-mutual", 0, 0, 1, 1, 1, 1},
    {PQPAN_PQKE_MODE_NUMERIC, "numeric", 0, 0, 0, 0, 1, 1},
};

/* The protocol's fixed preference order, best first (docs/PROTOCOL.md §4.3). Suites: the
 * ML-KEM security category first, then hybrid above ML-KEM alone. Modes: mutual above
 * one-sided authentication; asymmetric above pre-shared keys (a PSK taken from either device
 * impersonates both); at equal authentication the KEM mode above the signature mode (fewer
 * bytes on the air); numeric (1e-6 per attempt, needs a user) above none. */
static const unsigned suite_rank[] = {
    PQPAN_PQKE_SUITE_P256_MLKEM1024, PQPAN_PQKE_SUITE_MLKEM1024,
    PQPAN_PQKE_SUITE_P256_MLKEM768,  PQPAN_PQKE_SUITE_MLKEM768,
    PQPAN_PQKE_SUITE_P256_MLKEM512,  PQPAN_PQKE_SUITE_MLKEM512,
};
static const unsigned mode_rank[] = {
    PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, PQPAN_PQKE_MODE_SIG_MUTUAL, PQPAN_PQKE_MODE_PSK,
    PQPAN_PQKE_MODE_KEM_AUTH,        PQPAN_PQKE_MODE_SIG,        PQPAN_PQKE_MODE_NUMERIC,
    PQPAN_PQKE_MODE_NONE,
};

#define N_ROWS(a) (sizeof(a) / sizeof((a)[0]))

static const struct suite_row *suite_row(unsigned suite)
{
    size_t i;
    for (i = 0; i < N_ROWS(suite_rows); i++) {
        if (suite_rows[i].suite == suite) {
            return &suite_rows[i];
        }
    }
    return 0;
}

static const struct mode_row *mode_row(unsigned mode)
{
    size_t i;
    for (i = 0; i < N_ROWS(mode_rows); i++) {
        if (mode_rows[i].mode == mode) {
            return &mode_rows[i];
        }
    }
    return 0;
}

/* The ML-KEM parameter set of a suite, or NULL. */
const struct pqpan_kem *pqpan_pqke_suite_kem(unsigned suite)
{
    const struct suite_row *r = suite_row(suite);
    return r != 0 ? pqpan_kem_by_id(r->kem) : 0;
}

int pqpan_pqke_suite_known(unsigned suite)
{
    return pqpan_pqke_suite_kem(suite) != 0;
}

int pqpan_pqke_suite_hybrid(unsigned suite)
{
    const struct suite_row *r = suite_row(suite);
    return r != 0 && r->ecdh;
}

int pqpan_pqke_mode_implemented(unsigned mode)
{
    return mode_row(mode) != 0;
}

int pqpan_pqke_mode_sig_responder(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 && r->sig_responder;
}

int pqpan_pqke_mode_sig_initiator(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 && r->sig_initiator;
}

int pqpan_pqke_mode_ct_to_responder(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 && r->ct_to_responder;
}

int pqpan_pqke_mode_ct_to_initiator(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 && r->ct_to_initiator;
}

int pqpan_pqke_mode_authenticates_responder(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 && r->auth_responder;
}

int pqpan_pqke_mode_authenticates_initiator(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 && r->auth_initiator;
}

const char *pqpan_pqke_mode_name(unsigned mode)
{
    const struct mode_row *r = mode_row(mode);
    return r != 0 ? r->name : 0;
}

unsigned pqpan_pqke_mode_by_name(const char *name)
{
    size_t i;
    for (i = 0; name != 0 && i < N_ROWS(mode_rows); i++) {
        if (strcmp(mode_rows[i].name, name) == 0) {
            return mode_rows[i].mode;
        }
    }
    return 0;
}

const char *pqpan_pqke_suite_name(unsigned suite)
{
    const struct suite_row *r = suite_row(suite);
    return r != 0 ? r->name : 0;
}

/* The suite of a KEM alone (ecdh 0) or with P-256 (ecdh 1), or 0. */
static unsigned suite_of_kem(enum pqpan_kem_id kem, int ecdh)
{
    size_t i;
    for (i = 0; i < N_ROWS(suite_rows); i++) {
        if (suite_rows[i].kem == kem && suite_rows[i].ecdh == ecdh) {
            return suite_rows[i].suite;
        }
    }
    return 0;
}

unsigned pqpan_pqke_suite_for_kem(enum pqpan_kem_id kem)
{
    return suite_of_kem(kem, 0);
}

unsigned pqpan_pqke_hybrid_suite_for_kem(enum pqpan_kem_id kem)
{
    return suite_of_kem(kem, 1);
}

/* 16-byte session keys for ML-KEM-512 (NIST category 1, AES-128), 32 bytes for categories
 * 3 and 5 (AES-256): FIPS 203 Table 2 gives the categories, SP 800-57 Part 1 r5 Table 2
 * the symmetric strengths they match. */
static size_t key_bytes_for(const struct pqpan_kem *kem)
{
    return kem->security_category <= 1 ? 16u : 32u;
}

/* The ML-DSA parameter set of a sig mode (NULL for an unknown set), or NULL in another mode;
 * *ok = 0 for a sig mode without a known set or an unknown mode. */
static const struct pqpan_sig *mode_sig(const struct mode_row *mr, unsigned sig, int *ok)
{
    const struct pqpan_sig *ds = 0;
    *ok = mr != 0;
    if (mr != 0 && mr->sig_responder) {
        ds = pqpan_sig_by_id((enum pqpan_sig_id)sig);
        *ok = ds != 0;
    }
    return ds;
}

struct pqpan_pqke_sizes pqpan_pqke_message_sizes(unsigned suite, unsigned mode, unsigned sig)
{
    struct pqpan_pqke_sizes s;
    const struct suite_row *sr = suite_row(suite);
    const struct mode_row *mr = mode_row(mode);
    const struct pqpan_kem *kem = sr != 0 ? pqpan_kem_by_id(sr->kem) : 0;
    int ok;
    const struct pqpan_sig *ds = mode_sig(mr, sig, &ok);
    size_t sig_set;
    memset(&s, 0, sizeof s);
    if (kem == 0 || !ok) {
        return s;
    }
    sig_set = ds != 0 ? (size_t)PQPAN_PQKE_SIG_SET_BYTES : 0u;
    s.ek_bytes = kem->ek_bytes;
    s.ct_bytes = kem->ct_bytes;
    s.key_bytes = key_bytes_for(kem);
    s.ecdh_bytes = sr->ecdh ? (size_t)PQPAN_PQKE_ECDH_PUBLIC_BYTES : 0u;
    s.sig_bytes = ds != 0 ? ds->sig_bytes : 0u;
    s.init_bytes = PQPAN_PQKE_INIT_BYTES(sig_set, kem->ek_bytes, s.ecdh_bytes,
                                         mr->ct_to_responder ? kem->ct_bytes : 0u);
    s.resp_bytes = PQPAN_PQKE_RESP_BYTES(
        sig_set, kem->ct_bytes, s.ecdh_bytes, mr->ct_to_initiator ? kem->ct_bytes : 0u,
        mode == PQPAN_PQKE_MODE_NUMERIC ? (size_t)PQPAN_PQKE_COMMIT_BYTES : 0u, s.sig_bytes);
    s.fin_bytes = PQPAN_PQKE_FIN_BYTES(
        sig_set, mode == PQPAN_PQKE_MODE_NUMERIC ? (size_t)PQPAN_PQKE_NUMERIC_NONCE_BYTES : 0u,
        mr->sig_initiator ? s.sig_bytes : 0u);
    s.reveal_bytes = mode == PQPAN_PQKE_MODE_NUMERIC ? (size_t)PQPAN_PQKE_REVEAL_MSG_BYTES : 0u;
    return s;
}

/* ---- negotiation ---- */

static unsigned best_of(uint32_t set, const unsigned *rank, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if ((set & (1u << rank[i])) != 0) {
            return rank[i];
        }
    }
    return 0;
}

unsigned pqpan_pqke_best_suite(uint32_t set)
{
    return best_of(set, suite_rank, N_ROWS(suite_rank));
}

unsigned pqpan_pqke_best_mode(uint32_t set)
{
    return best_of(set, mode_rank, N_ROWS(mode_rank));
}

int pqpan_pqke_check_best(unsigned suite, unsigned mode, uint32_t offer_suites,
                          uint32_t offer_modes, uint32_t accepted_suites, uint32_t accepted_modes)
{
    if (pqpan_pqke_best_suite(offer_suites & accepted_suites) != suite ||
        pqpan_pqke_best_mode(offer_modes & accepted_modes) != mode) {
        return PQPAN_ERR_DOWNGRADE;
    }
    return PQPAN_OK;
}

int pqpan_pqke_policy_check(const struct pqpan_pqke_policy *policy)
{
    if (policy == 0 || policy->suites == 0 || policy->modes == 0 ||
        (policy->suites & ~(uint32_t)PQPAN_PQKE_SUITES_ALL) != 0 ||
        (policy->modes & ~(uint32_t)PQPAN_PQKE_MODES_ALL) != 0 ||
        policy->prologue_len > PQPAN_PQKE_PROLOGUE_MAX_BYTES ||
        (policy->prologue == 0 && policy->prologue_len != 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}

void pqpan_pqke_transcript_start(struct pqpan_sha3_256_ctx *t, const struct pqpan_pqke_policy *p)
{
    const uint8_t len[2] = {(uint8_t)(p->prologue_len & 0xFFu),
                            (uint8_t)((p->prologue_len >> 8) & 0xFFu)};
    pqpan_sha3_256_init(t);
    pqpan_sha3_256_absorb(t, len, sizeof len);
    if (p->prologue_len != 0) {
        pqpan_sha3_256_absorb(t, p->prologue, p->prologue_len);
    }
}

/* ---- the work of one side ---- */

/* Bytes of left_encode(x) / right_encode(x) (SP 800-185 §2.3.1): one length byte and the
 * big-endian bytes of x, at least one. */
static size_t encode_bytes(size_t x)
{
    size_t n = 1;
    while (x > 0xFF) {
        x >>= 8;
        n++;
    }
    return n + 1;
}

/* Keccak-f[1600] permutations of one KMAC256(K, X, L, S) call (SP 800-185 §4.3.1): the
 * bytepad'ed prefix encode_string("KMAC") || encode_string(S), the bytepad'ed
 * encode_string(K), then X || right_encode(L) and its padding, then one permutation per
 * further output block. */
static unsigned kmac_permutations(size_t key_len, size_t x_len, size_t out_len, size_t custom_len)
{
    const size_t rate = PQPAN_KMAC256_RATE;
    size_t prefix = encode_bytes(rate) + encode_bytes(8 * 4) + 4 + encode_bytes(8 * custom_len) +
                    custom_len;
    size_t key = encode_bytes(rate) + encode_bytes(8 * key_len) + key_len;
    size_t tail = x_len + encode_bytes(8 * out_len);
    size_t blocks = (prefix + rate - 1) / rate + (key + rate - 1) / rate + tail / rate + 1 +
                    (out_len - 1) / rate;
    return (unsigned)blocks;
}

/* SHA3-256 of n bytes (FIPS 202 §6.1): one permutation per full block, one more for the
 * final block with the padding. */
static unsigned sha3_256_permutations(size_t n)
{
    return (unsigned)(n / PQPAN_SHA3_256_RATE + 1);
}

/* The longest customization string of the key schedule ("pqpan-pqke-v2 initiator confirm",
 * 31 bytes); every label is at most this long, so each call has the same prefix cost. */
#define LABEL_MAX_BYTES 31

/* SHAKE256(pk, 64) (FIPS 202 §6.2; tr = H(pk, 64) of FIPS 204 Alg. 6 line 8) of a pinned
 * ML-DSA public key: one permutation per full block, one for the padded last block; the 64
 * bytes fit in the first squeezed block. */
static unsigned pk_hash_permutations(const struct pqpan_sig *ds)
{
    return (unsigned)(ds->pk_bytes / PQPAN_SHAKE256_RATE + 1);
}

/* The operations of one side, by role: ML-KEM as in PROTOCOL.md §1, one P-256 key pair and
 * shared secret per side in the hybrid suites, an ML-DSA signature per authenticated side and
 * its verification by the peer. */
static void side_operations(struct pqpan_pqke_work *work, const struct suite_row *sr,
                            const struct mode_row *mr, enum pqpan_pqke_role role)
{
    const unsigned to_r = (unsigned)mr->ct_to_responder, to_i = (unsigned)mr->ct_to_initiator;
    const unsigned sig_r = (unsigned)mr->sig_responder, sig_i = (unsigned)mr->sig_initiator;
    if (role == PQPAN_PQKE_ROLE_INITIATOR) {
        work->kem_keygen = 1;
        work->kem_encaps = to_r;
        work->kem_decaps = 1 + to_i;
        work->sig_sign = sig_i;
        work->sig_verify = sig_r;
    } else {
        work->kem_encaps = 1 + to_i;
        work->kem_decaps = to_r;
        work->sig_sign = sig_r;
        work->sig_verify = sig_i;
    }
    work->ecdh_keygen = (unsigned)sr->ecdh;
    work->ecdh_shared = (unsigned)sr->ecdh;
}

int pqpan_pqke_side_work(struct pqpan_pqke_work *work, unsigned suite, unsigned mode,
                         unsigned sig, enum pqpan_pqke_role role, size_t prologue_len)
{
    struct pqpan_pqke_sizes s;
    const struct suite_row *sr = suite_row(suite);
    const struct mode_row *mr = mode_row(mode);
    const struct pqpan_sig *ds;
    size_t z_len, ids_len = 0;
    int ok;
    if (work == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(work, 0, sizeof *work);
    if (sr == 0) {
        return PQPAN_ERR_SUITE;
    }
    if (mr == 0) {
        return PQPAN_ERR_MODE;
    }
    ds = mode_sig(mr, sig, &ok);
    if (!ok) {
        return PQPAN_ERR_INVALID_ARG;
    }
    s = pqpan_pqke_message_sizes(suite, mode, sig);
    side_operations(work, sr, mr, role);
    z_len = PQKE_SS_BYTES * (1u + (unsigned)sr->ecdh + (unsigned)mr->ct_to_responder +
                             (unsigned)mr->ct_to_initiator) +
            (mode == PQPAN_PQKE_MODE_PSK ? (size_t)PQPAN_PQKE_PSK_BYTES : 0u);
    if (ds != 0) {
        /* The pinned identities (tr of each authenticated side) enter the transcript; a side
         * hashes each peer key it pinned, and th_r is one more final block. */
        ids_len = PQKE_ID_BYTES * (1u + (unsigned)mr->sig_initiator);
        work->keccak_permutations =
            (role == PQPAN_PQKE_ROLE_INITIATOR ? 1u : (unsigned)mr->sig_initiator) *
                pk_hash_permutations(ds) +
            1u;
    }
    /* Transcript hash, then keys, tag_r and tag_i (numeric: over th || n_I). */
    work->keccak_permutations +=
        sha3_256_permutations(2 + prologue_len + ids_len + s.init_bytes + s.resp_bytes -
                              PQPAN_PQKE_TAG_BYTES) +
        kmac_permutations(z_len, PQKE_TH_BYTES, 2 * s.key_bytes + 2 * PQKE_CONFIRM_KEY_BYTES,
                          LABEL_MAX_BYTES) +
        kmac_permutations(PQKE_CONFIRM_KEY_BYTES, PQKE_TH_BYTES, PQPAN_PQKE_TAG_BYTES,
                          LABEL_MAX_BYTES) +
        kmac_permutations(PQKE_CONFIRM_KEY_BYTES,
                          PQKE_TH_BYTES + (mode == PQPAN_PQKE_MODE_NUMERIC
                                               ? (size_t)PQPAN_PQKE_NUMERIC_NONCE_BYTES
                                               : 0u),
                          PQPAN_PQKE_TAG_BYTES, LABEL_MAX_BYTES);
    if (mode == PQPAN_PQKE_MODE_NUMERIC) {
        /* The commitment (computed by the responder, checked by the initiator) and the
         * value both display, keyed with n_I || n_R. */
        work->keccak_permutations +=
            kmac_permutations(PQPAN_PQKE_NUMERIC_NONCE_BYTES, 0, PQPAN_PQKE_COMMIT_BYTES,
                              LABEL_MAX_BYTES) +
            kmac_permutations(2 * PQPAN_PQKE_NUMERIC_NONCE_BYTES, PQKE_TH_BYTES, 8,
                              LABEL_MAX_BYTES);
    }
    return PQPAN_OK;
}

/* ---- ML-KEM of a suite ---- */

int pqpan_pqke_kem_keypair(unsigned suite, uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng,
                           void *rng_ctx)
{
    const struct pqpan_kem *kem = pqpan_pqke_suite_kem(suite);
    return kem != 0 ? kem->keypair(ek, dk, rng, rng_ctx) : PQPAN_ERR_SUITE;
}

int pqpan_pqke_kem_encaps(unsigned suite, uint8_t *ct, uint8_t ss[PQKE_SS_BYTES],
                          const uint8_t *ek, pqpan_rng_fn rng, void *rng_ctx)
{
    const struct pqpan_kem *kem = pqpan_pqke_suite_kem(suite);
    return kem != 0 ? kem->encaps(ct, ss, ek, rng, rng_ctx) : PQPAN_ERR_SUITE;
}

int pqpan_pqke_kem_decaps(unsigned suite, uint8_t ss[PQKE_SS_BYTES], const uint8_t *ct,
                          const uint8_t *dk)
{
    const struct pqpan_kem *kem = pqpan_pqke_suite_kem(suite);
    return kem != 0 ? kem->decaps(ss, ct, dk) : PQPAN_ERR_SUITE;
}

int pqpan_pqke_kem_decaps_own_dk(unsigned suite, uint8_t ss[PQKE_SS_BYTES], const uint8_t *ct,
                                 const uint8_t *dk)
{
    const struct pqpan_kem *kem = pqpan_pqke_suite_kem(suite);
    return kem != 0 ? kem->decaps_checked_dk(ss, ct, dk) : PQPAN_ERR_SUITE;
}
