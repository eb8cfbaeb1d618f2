/* PQKE responder (docs/PROTOCOL.md §4.2): IDLE -INIT-> WAIT_FIN -FIN-> DONE (numeric:
 * WAIT_USER -user confirms-> DONE) -take_session-> RELEASED; any error -> FAILED. Runs
 * ML-KEM Encaps (FIPS 203 Alg. 20), and per mode a Decaps with its static key (kem-auth*)
 * and an Encaps to the initiator's pinned static key (kem-auth-mutual); enforces its policy
 * and refuses a downgrade. */
#include <string.h>

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
                              const struct pqpan_pqke_policy *policy)
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
    pqpan_pqke_transcript_start(&ctx->transcript, policy);
    return PQPAN_OK;
}

/* 1 if value (a wire byte) is in a set of at most 8 bits. */
static int in_set(unsigned value, uint8_t set)
{
    return value < 8 && (set & (1u << value)) != 0;
}

/* Checks an INIT before any work: order, policy (suite, then mode), syntax, the downgrade
 * check against the initiator's offer, credentials, randomness, output room. */
static int check_init(const struct pqpan_pqke_responder *ctx, struct pqpan_pqke_init_msg *m,
                      const struct pqpan_pqke_credentials *cred, pqpan_rng_fn rng,
                      const uint8_t *in, size_t in_len, size_t out_cap)
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
        rc = pqpan_pqke_check_credentials(cred, m->mode == PQPAN_PQKE_MODE_PSK,
                                          pqpan_pqke_mode_ct_to_responder(m->mode),
                                          pqpan_pqke_mode_ct_to_initiator(m->mode));
    }
    if (rc == PQPAN_OK && rng == 0) {
        rc = PQPAN_ERR_INVALID_ARG;
    }
    if (rc == PQPAN_OK && out_cap < pqpan_pqke_message_sizes(m->suite, m->mode, 0).resp_bytes) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    return rc;
}

/* Writes RESP's nonce and ciphertexts in place and collects Z = ss_e || [ss_static_r] ||
 * [ss_static_i] || [psk]. Random draws, in order: nonce_r, Encaps' m, [the second Encaps'
 * m]. */
static int resp_fields(struct pqpan_pqke_z *z, const struct pqpan_pqke_init_msg *m,
                       const struct pqpan_pqke_credentials *cred, pqpan_rng_fn rng,
                       void *rng_ctx, uint8_t *out, const struct pqpan_pqke_layout *l)
{
    uint8_t ss_e[PQKE_SS_BYTES], ss_r[PQKE_SS_BYTES], ss_i[PQKE_SS_BYTES];
    int rc = rng(rng_ctx, out + l->nonce, PQPAN_PQKE_NONCE_BYTES) != 0 ? PQPAN_ERR_RNG : PQPAN_OK;
    z->len = 0;
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_kem_encaps(m->suite, out + l->ct, ss_e, m->ek, rng, rng_ctx);
    }
    if (rc == PQPAN_OK && l->ct_static != 0) {
        rc = pqpan_pqke_kem_encaps(m->suite, out + l->ct_static, ss_i, cred->peer_ek, rng, rng_ctx);
    }
    if (rc == PQPAN_OK && m->ct_static != 0) {
        rc = pqpan_pqke_kem_decaps(m->suite, ss_r, m->ct_static, cred->own_dk);
    }
    if (rc == PQPAN_OK) {
        pqpan_pqke_z_append(z, ss_e, sizeof ss_e);
        if (m->ct_static != 0) {
            pqpan_pqke_z_append(z, ss_r, sizeof ss_r);
        }
        if (l->ct_static != 0) {
            pqpan_pqke_z_append(z, ss_i, sizeof ss_i);
        }
        if (m->mode == PQPAN_PQKE_MODE_PSK) {
            pqpan_pqke_z_append(z, cred->psk, PQPAN_PQKE_PSK_BYTES);
        }
    }
    pqpan_wipe(ss_e, sizeof ss_e);
    pqpan_wipe(ss_r, sizeof ss_r);
    pqpan_wipe(ss_i, sizeof ss_i);
    return rc;
}

/* RESP = header || accepted || ct || [ct_static] || nonce_r || tag_r, built in place; the tag
 * last, over th = SHA3-256(prologue block || INIT || RESP[0 .. tag)). The party keeps the
 * tag FIN must carry, the session keys, th and (numeric) INIT's commitment. */
static int answer_init(struct pqpan_pqke_responder *ctx, const struct pqpan_pqke_init_msg *m,
                       const struct pqpan_pqke_credentials *cred, pqpan_rng_fn rng,
                       void *rng_ctx, const uint8_t *in, size_t in_len, uint8_t *out,
                       size_t out_cap, size_t *out_len)
{
    static const uint8_t zero_tag[PQPAN_PQKE_TAG_BYTES] = {0};
    struct pqpan_pqke_resp_msg r;
    struct pqpan_pqke_layout l;
    struct pqpan_pqke_keys keys;
    struct pqpan_pqke_z z;
    struct pqpan_sha3_256_ctx h;
    uint8_t th[PQKE_TH_BYTES];
    int rc = pqpan_pqke_layout_of(&l, PQPAN_PQKE_MSG_RESP, m->suite, m->mode);
    if (rc == PQPAN_OK) {
        rc = resp_fields(&z, m, cred, rng, rng_ctx, out, &l);
    }
    if (rc == PQPAN_OK) {
        memset(&r, 0, sizeof r);
        r.suite = m->suite;
        r.mode = m->mode;
        r.accepted_suites = ctx->accepted_suites;
        r.accepted_modes = ctx->accepted_modes;
        r.ct = out + l.ct;
        r.ct_len = l.ct_len;
        r.ct_static = l.ct_static != 0 ? out + l.ct_static : 0;
        r.ct_static_len = l.ct_static_len;
        r.nonce = out + l.nonce;
        r.tag = zero_tag;
        rc = pqpan_pqke_resp_write(out, out_cap, out_len, &r);
    }
    if (rc == PQPAN_OK) {
        h = ctx->transcript;
        pqpan_sha3_256_absorb(&h, in, in_len);
        pqpan_sha3_256_absorb(&h, out, *out_len - PQPAN_PQKE_TAG_BYTES);
        pqpan_sha3_256_final(&h, th);
        rc = pqpan_pqke_derive_keys(&keys, &z, pqpan_pqke_message_sizes(m->suite, m->mode, 0).key_bytes,
                                    th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(out + l.tag, &keys, PQPAN_PQKE_ROLE_RESPONDER, th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(ctx->fin_tag, &keys, PQPAN_PQKE_ROLE_INITIATOR, th);
    }
    if (rc == PQPAN_OK) {
        pqpan_pqke_keep_secrets(&ctx->secrets, &keys, th);
        if (m->commit != 0) {
            memcpy(ctx->commit, m->commit, sizeof ctx->commit);
        }
        ctx->suite = m->suite;
        ctx->mode = m->mode;
        ctx->state = PQPAN_PQKE_STATE_WAIT_FIN;
    }
    pqpan_wipe(&keys, sizeof keys);
    pqpan_wipe(&z, sizeof z);
    pqpan_wipe(th, sizeof th);
    return rc;
}

static int handle_init(struct pqpan_pqke_responder *ctx, const struct pqpan_pqke_credentials *cred,
                       pqpan_rng_fn rng, void *rng_ctx, const uint8_t *in, size_t in_len,
                       uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_init_msg m;
    int rc = check_init(ctx, &m, cred, rng, in, in_len, out_cap);
    if (rc == PQPAN_OK) {
        rc = answer_init(ctx, &m, cred, rng, rng_ctx, in, in_len, out, out_cap, out_len);
    }
    return rc;
}

/* numeric: the revealed secret must open INIT's commitment; then the value to display. */
static int open_commitment(struct pqpan_pqke_responder *ctx, const uint8_t *reveal)
{
    uint8_t commit[PQPAN_PQKE_COMMIT_BYTES];
    int rc = pqpan_pqke_numeric_commit(commit, reveal);
    if (rc == PQPAN_OK && !pqpan_pqke_tags_equal(commit, ctx->commit)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_numeric_value(&ctx->numeric_value, reveal, ctx->secrets.th);
    }
    pqpan_wipe(commit, sizeof commit);
    return rc;
}

/* FIN: the initiator's tag, compared in constant time with the one expected. */
static int handle_fin(struct pqpan_pqke_responder *ctx, const uint8_t *in, size_t in_len,
                      size_t *out_len)
{
    struct pqpan_pqke_fin_msg m;
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_FIN);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_run(in, ctx->suite, ctx->mode);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_fin_parse(&m, in, in_len);
    }
    if (rc == PQPAN_OK && !pqpan_pqke_tags_equal(m.tag, ctx->fin_tag)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK && m.reveal != 0) {
        rc = open_commitment(ctx, m.reveal);
    }
    if (rc == PQPAN_OK) {
        pqpan_wipe(ctx->fin_tag, sizeof ctx->fin_tag);
        pqpan_wipe(ctx->commit, sizeof ctx->commit);
        ctx->state = ctx->mode == PQPAN_PQKE_MODE_NUMERIC ? PQPAN_PQKE_STATE_WAIT_USER
                                                          : PQPAN_PQKE_STATE_DONE;
        *out_len = 0;
    }
    return rc;
}

int pqpan_pqke_responder_handle(struct pqpan_pqke_responder *ctx,
                                const struct pqpan_pqke_credentials *cred, pqpan_rng_fn rng,
                                void *rng_ctx, const uint8_t *in, size_t in_len, uint8_t *out,
                                size_t out_cap, size_t *out_len)
{
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if ((in == 0 && in_len != 0) || (out == 0 && out_cap != 0) || out_len == 0 ||
        pqpan_buffers_overlap(in, in_len, out, out_cap)) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    switch (ctx->state) {
    case PQPAN_PQKE_STATE_IDLE:
        rc = handle_init(ctx, cred, rng, rng_ctx, in, in_len, out, out_cap, out_len);
        break;
    case PQPAN_PQKE_STATE_WAIT_FIN:
        rc = handle_fin(ctx, in, in_len, out_len);
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
                                     ctx != 0 ? &ctx->secrets : 0);
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
