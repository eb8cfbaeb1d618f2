/* PQKE responder (docs/PROTOCOL.md §4.2): IDLE -INIT-> WAIT_FIN -FIN-> DONE (numeric: FIN,
 * REVEAL out -> WAIT_USER -user confirms-> DONE) -take_session-> RELEASED; any error ->
 * FAILED. Runs
 * ML-KEM Encaps (FIPS 203 Alg. 20), in the hybrid suites a P-256 key pair and shared secret,
 * and per mode a Decaps with its static key (kem-auth*), an Encaps to the initiator's pinned
 * static key (kem-auth-mutual), its ML-DSA signature (sig*) and the verification of the
 * initiator's (sig-mutual); enforces its policy and refuses a downgrade. */
#include <string.h>

#include "crypto/ct_testing.h"
#include "pqke/pqke_internal.h"

static int fail(struct pqpan_pqke_responder *ctx, int err, uint8_t *out, size_t out_cap,
                size_t *out_len)
{
    int first = ctx->state == PQPAN_PQKE_STATE_FAILED ? ctx->error : err;
    pqpan_wipe(ctx, sizeof *ctx);
    ctx->state = PQPAN_PQKE_STATE_FAILED;
    ctx->error = first;
    pqpan_pqke_clear_output(out, out_cap, out_len);
    return err;
}

int pqpan_pqke_responder_init(struct pqpan_pqke_responder *ctx,
                              const struct pqpan_pqke_policy *policy,
                              const struct pqpan_pqke_credentials *cred)
{
    if (ctx == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if (pqpan_pqke_policy_check(policy) != PQPAN_OK) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, 0, 0, 0);
    }
    ctx->state = PQPAN_PQKE_STATE_IDLE;
    ctx->error = PQPAN_OK;
    ctx->accepted_suites = (uint8_t)policy->suites;
    ctx->accepted_modes = (uint8_t)policy->modes;
    if (cred != 0) {
        ctx->cred = *cred;
    }
    pqpan_pqke_transcript_start(&ctx->transcript, policy);
    return PQPAN_OK;
}

/* 1 if value (a wire byte) is in a set of at most 8 bits. */
static int in_set(unsigned value, uint8_t set)
{
    return value < 8 && (set & (1u << value)) != 0;
}

/* Checks an INIT before any work: order, policy (suite, then mode), syntax, the downgrade
 * check against the initiator's offer, the credentials of its suite and mode (static keys of
 * another ML-KEM: SUITE, before a key is read; their ML-DSA set), randomness, output room. */
static int check_init(const struct pqpan_pqke_responder *ctx, struct pqpan_pqke_init_msg *m,
                      pqpan_rng_fn rng, const uint8_t *in, size_t in_len, size_t out_cap)
{
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_INIT);
    if (rc == PQPAN_OK && !in_set(pqpan_pqke_header_suite(in), ctx->accepted_suites)) {
        rc = PQPAN_ERR_SUITE;
    }
    if (rc == PQPAN_OK && !in_set(pqpan_pqke_header_mode(in), ctx->accepted_modes)) {
        rc = PQPAN_ERR_MODE;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_init_parse(m, in, in_len);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_best(m->suite, m->mode, m->offer_suites, m->offer_modes,
                                   ctx->accepted_suites, ctx->accepted_modes);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_credentials(
            &ctx->cred, pqpan_pqke_needs(m->mode, PQPAN_PQKE_ROLE_RESPONDER), m->suite, 0);
    }
    if (rc == PQPAN_OK && m->sig != 0 && m->sig != ctx->cred.sig) {
        /* The initiator pinned keys of another ML-DSA set than this responder holds. */
        rc = PQPAN_ERR_SUITE;
    }
    if (rc == PQPAN_OK && rng == 0) {
        rc = PQPAN_ERR_INVALID_ARG;
    }
    if (rc == PQPAN_OK &&
        out_cap < pqpan_pqke_message_sizes(m->suite, m->mode, m->sig).resp_bytes) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    return rc;
}

/* hybrid: the responder's P-256 key pair into RESP and the shared secret with INIT's key. */
static int resp_ecdh(uint8_t ss[PQKE_SS_BYTES], const struct pqpan_pqke_init_msg *m,
                     pqpan_rng_fn rng, void *rng_ctx, uint8_t *out,
                     const struct pqpan_pqke_layout *l)
{
    uint8_t sk[PQPAN_ECDH_P256_SECRET_BYTES];
    int rc = pqpan_pqke_ecdh_keypair(out + l->ecdh, sk, rng, rng_ctx);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_ecdh_shared(ss, sk, m->ecdh);
    }
    pqpan_wipe(sk, sizeof sk);
    return rc;
}

/* numeric: the responder's nonce n_R, kept secret until REVEAL, and its commitment into
 * RESP, before the initiator reveals n_I (Core v5.4 Vol 3 Part H §2.3.5.6.2: Cb before Na). */
static int resp_commit(struct pqpan_pqke_responder *ctx, pqpan_rng_fn rng, void *rng_ctx,
                       uint8_t *out, const struct pqpan_pqke_layout *l)
{
    if (rng(rng_ctx, ctx->numeric_nonce, sizeof ctx->numeric_nonce) != 0) {
        return PQPAN_ERR_RNG;
    }
    return pqpan_pqke_numeric_commit(out + l->commit, ctx->numeric_nonce);
}

/* Writes RESP's nonce, ciphertexts, P-256 key and commitment in place and collects Z = ss_e ||
 * [ss_ecdh] || [ss_static_r] || [ss_static_i] || [psk]. Random draws, in order: nonce_r,
 * Encaps' m, [the P-256 key], [the second Encaps' m], [numeric: n_R]. */
static int resp_fields(struct pqpan_pqke_z *z, struct pqpan_pqke_responder *ctx,
                       const struct pqpan_pqke_init_msg *m, pqpan_rng_fn rng, void *rng_ctx,
                       uint8_t *out, const struct pqpan_pqke_layout *l)
{
    const struct pqpan_pqke_credentials *cred = &ctx->cred;
    uint8_t ss_e[PQKE_SS_BYTES], ss_x[PQKE_SS_BYTES], ss_r[PQKE_SS_BYTES], ss_i[PQKE_SS_BYTES];
    int rc = rng(rng_ctx, out + l->nonce, PQPAN_PQKE_NONCE_BYTES) != 0 ? PQPAN_ERR_RNG : PQPAN_OK;
    z->len = 0;
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_kem_encaps(m->suite, out + l->ct, ss_e, m->ek, rng, rng_ctx);
    }
    if (rc == PQPAN_OK && l->ecdh != 0) {
        rc = resp_ecdh(ss_x, m, rng, rng_ctx, out, l);
    }
    if (rc == PQPAN_OK && l->ct_static != 0) {
        rc = pqpan_pqke_kem_encaps(m->suite, out + l->ct_static, ss_i, cred->peer_ek, rng, rng_ctx);
    }
    if (rc == PQPAN_OK && m->ct_static != 0) {
        rc = pqpan_pqke_kem_decaps(m->suite, ss_r, m->ct_static, cred->own_dk);
    }
    if (rc == PQPAN_OK && l->commit != 0) {
        rc = resp_commit(ctx, rng, rng_ctx, out, l);
    }
    if (rc == PQPAN_OK) {
        pqpan_pqke_z_append(z, ss_e, sizeof ss_e);
        if (l->ecdh != 0) {
            pqpan_pqke_z_append(z, ss_x, sizeof ss_x);
        }
        if (m->ct_static != 0) {
            pqpan_pqke_z_append(z, ss_r, sizeof ss_r);
        }
        if (l->ct_static != 0) {
            pqpan_pqke_z_append(z, ss_i, sizeof ss_i);
        }
        if (m->mode == PQPAN_PQKE_MODE_PSK) {
            pqpan_pqke_z_append(z, cred->psk, cred->psk_len);
        }
    }
    pqpan_wipe(ss_e, sizeof ss_e);
    pqpan_wipe(ss_x, sizeof ss_x);
    pqpan_wipe(ss_r, sizeof ss_r);
    pqpan_wipe(ss_i, sizeof ss_i);
    return rc;
}

/* th over the transcript: prologue block (in ctx), [identities], INIT, RESP up to its tag. In
 * the sig modes th_r, the same hash up to sig_r, is signed into sig_r's place on the way
 * (rnd drawn from rng: hedged ML-DSA, FIPS 204 §3.4). */
static int resp_transcript(const struct pqpan_pqke_responder *ctx, unsigned mode,
                           pqpan_rng_fn rng, void *rng_ctx, const uint8_t *in, size_t in_len,
                           uint8_t *out, const struct pqpan_pqke_layout *l,
                           uint8_t th[PQKE_TH_BYTES])
{
    const struct pqpan_pqke_credentials *cred = &ctx->cred;
    struct pqpan_sha3_256_ctx h = ctx->transcript, th_r;
    uint8_t rnd[PQPAN_MLDSA_RND_BYTES];
    const size_t sig_at = l->sig != 0 ? l->sig : l->tag;
    int rc = PQPAN_OK;
    /* RESP up to sig_r is sent as it is: public (its ciphertexts come from secret randomness) */
    PQPAN_CT_DECLASSIFY(out, sig_at);
    pqpan_pqke_absorb_identities(&h, mode, PQPAN_PQKE_ROLE_RESPONDER, cred);
    pqpan_sha3_256_absorb(&h, in, in_len);
    pqpan_sha3_256_absorb(&h, out, sig_at);
    if (l->sig != 0) {
        th_r = h;
        pqpan_sha3_256_final(&th_r, th);
        rc = rng(rng_ctx, rnd, sizeof rnd) != 0 ? PQPAN_ERR_RNG : PQPAN_OK;
        if (rc == PQPAN_OK) {
            rc = pqpan_pqke_sign(out + l->sig, cred, PQPAN_PQKE_ROLE_RESPONDER, th, rnd);
        }
        pqpan_sha3_256_absorb(&h, out + l->sig, l->sig_len);
    }
    pqpan_sha3_256_final(&h, th);
    pqpan_wipe(rnd, sizeof rnd);
    return rc;
}

/* RESP = header || [sig set] || accepted || ct || [ecdh_r] || [ct_static] || nonce_r ||
 * [commit] || [sig_r] || tag_r, built in place; the tag last, over th = SHA3-256(prologue
 * block || [identities] || INIT || RESP[0 .. tag)). The party keeps the key of the tag FIN
 * must carry, the session keys, th and (numeric) its nonce. */
static int answer_init(struct pqpan_pqke_responder *ctx, const struct pqpan_pqke_init_msg *m,
                       pqpan_rng_fn rng, void *rng_ctx, const uint8_t *in, size_t in_len,
                       uint8_t *out, size_t out_cap, size_t *out_len)
{
    static const uint8_t zero_tag[PQPAN_PQKE_TAG_BYTES] = {0};
    struct pqpan_pqke_resp_msg r;
    struct pqpan_pqke_layout l;
    struct pqpan_pqke_keys keys;
    struct pqpan_pqke_z z;
    uint8_t th[PQKE_TH_BYTES];
    int rc = pqpan_pqke_layout_of(&l, PQPAN_PQKE_MSG_RESP, m->suite, m->mode, m->sig);
    z.len = 0;
    if (rc == PQPAN_OK) {
        rc = resp_fields(&z, ctx, m, rng, rng_ctx, out, &l);
    }
    if (rc == PQPAN_OK) {
        memset(&r, 0, sizeof r);
        r.suite = m->suite;
        r.mode = m->mode;
        r.accepted_suites = ctx->accepted_suites;
        r.accepted_modes = ctx->accepted_modes;
        r.sig = m->sig;
        r.ct = out + l.ct;
        r.ct_len = l.ct_len;
        r.ecdh = l.ecdh != 0 ? out + l.ecdh : 0;
        r.ct_static = l.ct_static != 0 ? out + l.ct_static : 0;
        r.ct_static_len = l.ct_static_len;
        r.nonce = out + l.nonce;
        r.commit = l.commit != 0 ? out + l.commit : 0;
        r.signature = l.sig != 0 ? out + l.sig : 0; /* signed after the header is written */
        r.signature_len = l.sig_len;
        r.tag = zero_tag;
        rc = pqpan_pqke_resp_write(out, out_cap, out_len, &r);
    }
    if (rc == PQPAN_OK) {
        rc = resp_transcript(ctx, m->mode, rng, rng_ctx, in, in_len, out, &l, th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_derive_keys(
            &keys, &z, pqpan_pqke_message_sizes(m->suite, m->mode, m->sig).key_bytes, th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(out + l.tag, keys.responder_confirm_key,
                                    PQPAN_PQKE_ROLE_RESPONDER, th, 0);
    }
    if (rc == PQPAN_OK) {
        pqpan_pqke_keep_secrets(&ctx->secrets, &keys, th);
        memcpy(ctx->fin_key, keys.initiator_confirm_key, sizeof ctx->fin_key);
        ctx->suite = m->suite;
        ctx->mode = m->mode;
        ctx->sig = m->sig;
        ctx->state = PQPAN_PQKE_STATE_WAIT_FIN;
    }
    pqpan_wipe(&keys, sizeof keys);
    pqpan_wipe(&z, sizeof z);
    pqpan_wipe(th, sizeof th);
    return rc;
}

static int handle_init(struct pqpan_pqke_responder *ctx, pqpan_rng_fn rng, void *rng_ctx,
                       const uint8_t *in, size_t in_len, uint8_t *out, size_t out_cap,
                       size_t *out_len)
{
    struct pqpan_pqke_init_msg m;
    int rc = check_init(ctx, &m, rng, in, in_len, out_cap);
    if (rc == PQPAN_OK) {
        rc = answer_init(ctx, &m, rng, rng_ctx, in, in_len, out, out_cap, out_len);
    }
    return rc;
}

/* numeric: the value over n_I || n_R and th, shown as the responder writes REVEAL, so that
 * it is on the display before the peer can learn it (docs/PROTOCOL.md §5.5). */
static int reveal_and_show(struct pqpan_pqke_responder *ctx, const uint8_t *n_i, uint8_t *out,
                           size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_reveal_msg r;
    int rc = pqpan_pqke_numeric_value(&ctx->numeric_value, n_i, ctx->numeric_nonce,
                                      ctx->secrets.th);
    if (rc == PQPAN_OK) {
        /* n_R is sent: public from here on. */
        PQPAN_CT_DECLASSIFY(ctx->numeric_nonce, sizeof ctx->numeric_nonce);
        r.suite = ctx->suite;
        r.mode = ctx->mode;
        r.numeric_nonce = ctx->numeric_nonce;
        rc = pqpan_pqke_reveal_write(out, out_cap, out_len, &r);
    }
    return rc;
}

/* FIN: the initiator's tag (numeric: over th || n_I), compared in constant time with the one
 * expected; sig-mutual: its signature of th under its pinned key; numeric: the value and
 * REVEAL. */
static int handle_fin(struct pqpan_pqke_responder *ctx, const uint8_t *in, size_t in_len,
                      uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_fin_msg m;
    uint8_t tag[PQPAN_PQKE_TAG_BYTES];
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_FIN);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_run(in, in_len, ctx->suite, ctx->mode, ctx->sig);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_fin_parse(&m, in, in_len);
    }
    if (rc == PQPAN_OK && m.numeric_nonce != 0 && out_cap < PQPAN_PQKE_REVEAL_MSG_BYTES) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(tag, ctx->fin_key, PQPAN_PQKE_ROLE_INITIATOR,
                                    ctx->secrets.th, m.numeric_nonce);
    }
    if (rc == PQPAN_OK && !pqpan_pqke_tags_equal(m.tag, tag)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK && m.signature != 0) {
        rc = pqpan_pqke_verify(m.signature, &ctx->cred, PQPAN_PQKE_ROLE_INITIATOR,
                               ctx->secrets.th);
    }
    *out_len = 0;
    if (rc == PQPAN_OK && m.numeric_nonce != 0) {
        rc = reveal_and_show(ctx, m.numeric_nonce, out, out_cap, out_len);
    }
    if (rc == PQPAN_OK) {
        pqpan_wipe(ctx->fin_key, sizeof ctx->fin_key);
        pqpan_wipe(ctx->numeric_nonce, sizeof ctx->numeric_nonce);
        ctx->state = ctx->mode == PQPAN_PQKE_MODE_NUMERIC ? PQPAN_PQKE_STATE_WAIT_USER
                                                          : PQPAN_PQKE_STATE_DONE;
    }
    pqpan_wipe(tag, sizeof tag);
    return rc;
}

int pqpan_pqke_responder_handle(struct pqpan_pqke_responder *ctx, pqpan_rng_fn rng,
                                void *rng_ctx, const uint8_t *in, size_t in_len, uint8_t *out,
                                size_t out_cap, size_t *out_len)
{
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (pqpan_buffers_overlap(in, in_len, out, out_cap)) {
        /* In place: the output is the caller's message, which stays as it was. */
        return fail(ctx, PQPAN_ERR_INVALID_ARG, 0, 0, out_len);
    }
    if ((in == 0 && in_len != 0) || (out == 0 && out_cap != 0) || out_len == 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    switch (ctx->state) {
    case PQPAN_PQKE_STATE_IDLE:
        rc = handle_init(ctx, rng, rng_ctx, in, in_len, out, out_cap, out_len);
        break;
    case PQPAN_PQKE_STATE_WAIT_FIN:
        rc = handle_fin(ctx, in, in_len, out, out_cap, out_len);
        break;
    default:
        rc = PQPAN_ERR_STATE;
        break;
    }
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    return PQPAN_OK;
}

int pqpan_pqke_responder_numeric_value(const struct pqpan_pqke_responder *ctx, uint32_t *value)
{
    return pqpan_pqke_numeric_of(value, ctx != 0, ctx != 0 ? ctx->state : 0u,
                                 ctx != 0 ? ctx->numeric_value : 0u);
}

int pqpan_pqke_responder_user_confirm(struct pqpan_pqke_responder *ctx, int values_match)
{
    int rc = ctx != 0 ? pqpan_pqke_user_verdict(ctx->state, values_match) : PQPAN_ERR_INVALID_ARG;
    if (ctx != 0 && rc != PQPAN_OK) {
        return fail(ctx, rc, 0, 0, 0);
    }
    if (rc == PQPAN_OK) {
        ctx->state = PQPAN_PQKE_STATE_DONE;
    }
    return rc;
}

/* DONE -> RELEASED: the session goes to out, every secret of the context is wiped. */
int pqpan_pqke_responder_take_session(struct pqpan_pqke_responder *ctx,
                                      struct pqpan_pqke_session *out)
{
    uint8_t kept[2];
    int rc = pqpan_pqke_copy_session(out, ctx != 0, ctx != 0 ? ctx->state : 0u,
                                     ctx != 0 ? ctx->suite : 0u, ctx != 0 ? ctx->mode : 0u,
                                     ctx != 0 ? ctx->sig : 0u, ctx != 0 ? &ctx->secrets : 0);
    if (ctx == 0 || rc != PQPAN_OK) {
        return ctx != 0 ? fail(ctx, rc, 0, 0, 0) : rc;
    }
    kept[0] = ctx->suite;
    kept[1] = ctx->mode;
    pqpan_wipe(ctx, sizeof *ctx);
    ctx->state = PQPAN_PQKE_STATE_RELEASED;
    ctx->suite = kept[0];
    ctx->mode = kept[1];
    return PQPAN_OK;
}

enum pqpan_pqke_state pqpan_pqke_responder_state(const struct pqpan_pqke_responder *ctx)
{
    return ctx != 0 ? (enum pqpan_pqke_state)ctx->state : PQPAN_PQKE_STATE_FAILED;
}

int pqpan_pqke_responder_error(const struct pqpan_pqke_responder *ctx)
{
    return ctx != 0 ? ctx->error : PQPAN_ERR_INVALID_ARG;
}

void pqpan_pqke_responder_abort(struct pqpan_pqke_responder *ctx)
{
    if (ctx != 0) {
        (void)fail(ctx, PQPAN_ERR_STATE, 0, 0, 0);
    }
}
