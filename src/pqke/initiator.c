/* PQKE initiator (docs/PROTOCOL.md §4.1): IDLE -start-> WAIT_RESP -RESP-> DONE (numeric:
 * WAIT_USER -user confirms-> DONE) -take_session-> RELEASED; any error -> FAILED. Runs
 * ML-KEM KeyGen and Decaps (FIPS 203 Alg. 19, 21), and per mode an Encaps to the
 * responder's pinned static key (kem-auth*, as KEMTLS-PDK's client does) and a Decaps with
 * its own static key (kem-auth-mutual). */
#include <string.h>

#include "pqke/pqke_internal.h"

/* Wipes every secret, records the first error, and zeroes the caller's output. */
static int fail(struct pqpan_pqke_initiator *ctx, int err, uint8_t *out, size_t out_cap,
                size_t *out_len)
{
    int first = ctx->state == PQPAN_PQKE_STATE_FAILED ? ctx->error : err;
    pqpan_wipe(ctx, sizeof *ctx);
    ctx->state = PQPAN_PQKE_STATE_FAILED;
    ctx->error = first;
    pqpan_pqke_clear_output(out, out_cap, out_len);
    return err;
}

int pqpan_pqke_initiator_init(struct pqpan_pqke_initiator *ctx,
                              const struct pqpan_pqke_policy *policy, unsigned suite,
                              unsigned mode)
{
    if (ctx == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if (pqpan_pqke_policy_check(policy) != PQPAN_OK || !pqpan_pqke_suite_known(suite) ||
        !pqpan_pqke_mode_implemented(mode) || (policy->suites & PQPAN_PQKE_SUITE_BIT(suite)) == 0 ||
        (policy->modes & PQPAN_PQKE_MODE_BIT(mode)) == 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, 0, 0, 0);
    }
    ctx->state = PQPAN_PQKE_STATE_IDLE;
    ctx->suite = (uint8_t)suite;
    ctx->mode = (uint8_t)mode;
    ctx->offer_suites = (uint8_t)policy->suites;
    ctx->offer_modes = (uint8_t)policy->modes;
    ctx->error = PQPAN_OK;
    pqpan_pqke_transcript_start(&ctx->transcript, policy);
    return PQPAN_OK;
}

/* The mode's fields of INIT: the ciphertext to the responder's static key (kem-auth*) and
 * the commitment (numeric), written straight into their places in out. */
static int init_mode_fields(struct pqpan_pqke_initiator *ctx,
                            const struct pqpan_pqke_credentials *cred, pqpan_rng_fn rng,
                            void *rng_ctx, uint8_t *out, const struct pqpan_pqke_layout *l)
{
    int rc = PQPAN_OK;
    if (l->ct_static != 0) {
        rc = pqpan_pqke_kem_encaps(ctx->suite, out + l->ct_static, ctx->ss_static, cred->peer_ek,
                                   rng, rng_ctx);
    }
    if (rc == PQPAN_OK && l->commit != 0) {
        rc = rng(rng_ctx, ctx->reveal, sizeof ctx->reveal) != 0 ? PQPAN_ERR_RNG : PQPAN_OK;
        if (rc == PQPAN_OK) {
            rc = pqpan_pqke_numeric_commit(out + l->commit, ctx->reveal);
        }
    }
    return rc;
}

/* INIT, built in place: nonce_i, KeyGen's ek and the mode's fields go straight into their
 * message fields; init_write then adds the header and the offer around them. Random draws,
 * in order: nonce_i, KeyGen's d and z, [Encaps' m], [the numeric secret]. */
int pqpan_pqke_initiator_start(struct pqpan_pqke_initiator *ctx,
                               const struct pqpan_pqke_credentials *cred, pqpan_rng_fn rng,
                               void *rng_ctx, uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_init_msg m;
    struct pqpan_pqke_layout l;
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (ctx->state != PQPAN_PQKE_STATE_IDLE) {
        return fail(ctx, PQPAN_ERR_STATE, out, out_cap, out_len);
    }
    rc = pqpan_pqke_layout_of(&l, PQPAN_PQKE_MSG_INIT, ctx->suite, ctx->mode);
    if (rc == PQPAN_OK && (rng == 0 || out == 0 || out_len == 0)) {
        rc = PQPAN_ERR_INVALID_ARG;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_credentials(cred, 0, 0, l.ct_static != 0);
    }
    if (rc == PQPAN_OK && out_cap < l.total) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (rc == PQPAN_OK && rng(rng_ctx, out + l.nonce, PQPAN_PQKE_NONCE_BYTES) != 0) {
        rc = PQPAN_ERR_RNG;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_kem_keypair(ctx->suite, out + l.ek, ctx->dk, rng, rng_ctx);
    }
    if (rc == PQPAN_OK) {
        rc = init_mode_fields(ctx, cred, rng, rng_ctx, out, &l);
    }
    if (rc == PQPAN_OK) {
        memset(&m, 0, sizeof m);
        m.suite = ctx->suite;
        m.mode = ctx->mode;
        m.offer_suites = ctx->offer_suites;
        m.offer_modes = ctx->offer_modes;
        m.nonce = out + l.nonce;
        m.ek = out + l.ek;
        m.ek_len = l.ek_len;
        m.ct_static = l.ct_static != 0 ? out + l.ct_static : 0;
        m.ct_static_len = l.ct_static_len;
        m.commit = l.commit != 0 ? out + l.commit : 0;
        rc = pqpan_pqke_init_write(out, out_cap, out_len, &m);
    }
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    pqpan_sha3_256_absorb(&ctx->transcript, out, *out_len);
    ctx->state = PQPAN_PQKE_STATE_WAIT_RESP;
    return PQPAN_OK;
}

/* Checks a RESP before any secret is touched: order, the run's suite and mode, syntax,
 * output room. */
static int check_resp(const struct pqpan_pqke_initiator *ctx, struct pqpan_pqke_resp_msg *m,
                      const uint8_t *in, size_t in_len, size_t out_cap)
{
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_RESP);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_run(in, ctx->suite, ctx->mode);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_resp_parse(m, in, in_len);
    }
    if (rc == PQPAN_OK && out_cap < pqpan_pqke_message_sizes(ctx->suite, ctx->mode, 0).fin_bytes) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    return rc;
}

/* Z = ss_e || [ss_static_r (kem-auth*)] || [ss_static_i (kem-auth-mutual)] || [psk]. */
static int initiator_z(struct pqpan_pqke_z *z, const struct pqpan_pqke_initiator *ctx,
                       const struct pqpan_pqke_credentials *cred,
                       const struct pqpan_pqke_resp_msg *m)
{
    uint8_t ss[PQKE_SS_BYTES];
    int rc = pqpan_pqke_kem_decaps(ctx->suite, ss, m->ct, ctx->dk);
    z->len = 0;
    if (rc == PQPAN_OK) {
        pqpan_pqke_z_append(z, ss, sizeof ss);
        if (pqpan_pqke_mode_ct_to_responder(ctx->mode)) {
            pqpan_pqke_z_append(z, ctx->ss_static, sizeof ctx->ss_static);
        }
        if (m->ct_static != 0) {
            rc = pqpan_pqke_kem_decaps(ctx->suite, ss, m->ct_static, cred->own_dk);
            pqpan_pqke_z_append(z, ss, sizeof ss);
        }
        if (ctx->mode == PQPAN_PQKE_MODE_PSK) {
            pqpan_pqke_z_append(z, cred->psk, PQPAN_PQKE_PSK_BYTES);
        }
    }
    pqpan_wipe(ss, sizeof ss);
    return rc;
}

/* Verifies tag_r, then that the responder's accepted sets (now authenticated as far as the
 * mode authenticates) leave no better common choice, then writes FIN with tag_i. */
static int confirm_and_answer(struct pqpan_pqke_initiator *ctx,
                              const struct pqpan_pqke_resp_msg *m,
                              const struct pqpan_pqke_keys *keys, const uint8_t th[PQKE_TH_BYTES],
                              uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_fin_msg fin;
    uint8_t tag[PQPAN_PQKE_TAG_BYTES];
    int rc = pqpan_pqke_confirm_tag(tag, keys, PQPAN_PQKE_ROLE_RESPONDER, th);
    if (rc == PQPAN_OK && !pqpan_pqke_tags_equal(tag, m->tag)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_best(ctx->suite, ctx->mode, ctx->offer_suites, ctx->offer_modes,
                                   m->accepted_suites, m->accepted_modes);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(tag, keys, PQPAN_PQKE_ROLE_INITIATOR, th);
    }
    if (rc == PQPAN_OK) {
        fin.suite = ctx->suite;
        fin.mode = ctx->mode;
        fin.reveal = ctx->mode == PQPAN_PQKE_MODE_NUMERIC ? ctx->reveal : 0;
        fin.tag = tag;
        rc = pqpan_pqke_fin_write(out, out_cap, out_len, &fin);
    }
    if (rc == PQPAN_OK && ctx->mode == PQPAN_PQKE_MODE_NUMERIC) {
        rc = pqpan_pqke_numeric_value(&ctx->numeric_value, ctx->reveal, th);
    }
    pqpan_wipe(tag, sizeof tag);
    return rc;
}

/* Decaps, key schedule over th = SHA3-256(prologue block || INIT || RESP without its tag),
 * the responder's tag in constant time, the downgrade check, then FIN. */
int pqpan_pqke_initiator_handle(struct pqpan_pqke_initiator *ctx,
                                const struct pqpan_pqke_credentials *cred, const uint8_t *in,
                                size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_resp_msg m;
    struct pqpan_pqke_keys keys;
    struct pqpan_pqke_z z;
    uint8_t th[PQKE_TH_BYTES];
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (ctx->state != PQPAN_PQKE_STATE_WAIT_RESP) {
        return fail(ctx, PQPAN_ERR_STATE, out, out_cap, out_len);
    }
    if ((in == 0 && in_len != 0) || out == 0 || out_len == 0 ||
        pqpan_buffers_overlap(in, in_len, out, out_cap)) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    rc = pqpan_pqke_check_credentials(cred, ctx->mode == PQPAN_PQKE_MODE_PSK,
                                      pqpan_pqke_mode_ct_to_initiator(ctx->mode), 0);
    if (rc == PQPAN_OK) {
        rc = check_resp(ctx, &m, in, in_len, out_cap);
    }
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    pqpan_sha3_256_absorb(&ctx->transcript, in, in_len - PQPAN_PQKE_TAG_BYTES);
    pqpan_sha3_256_final(&ctx->transcript, th);
    rc = initiator_z(&z, ctx, cred, &m);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_derive_keys(&keys, &z, pqpan_pqke_message_sizes(ctx->suite, ctx->mode, 0).key_bytes,
                                    th);
    }
    if (rc == PQPAN_OK) {
        rc = confirm_and_answer(ctx, &m, &keys, th, out, out_cap, out_len);
    }
    if (rc == PQPAN_OK) {
        pqpan_pqke_keep_secrets(&ctx->secrets, &keys, th);
        pqpan_wipe(ctx->dk, sizeof ctx->dk);
        pqpan_wipe(ctx->ss_static, sizeof ctx->ss_static);
        pqpan_wipe(ctx->reveal, sizeof ctx->reveal);
        ctx->state = ctx->mode == PQPAN_PQKE_MODE_NUMERIC ? PQPAN_PQKE_STATE_WAIT_USER
                                                          : PQPAN_PQKE_STATE_DONE;
    }
    pqpan_wipe(&keys, sizeof keys);
    pqpan_wipe(&z, sizeof z);
    pqpan_wipe(th, sizeof th);
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    return PQPAN_OK;
}

int pqpan_pqke_initiator_numeric_value(const struct pqpan_pqke_initiator *ctx, uint32_t *value)
{
    return pqpan_pqke_numeric_of(value, ctx != 0, ctx != 0 ? ctx->state : 0u,
                                 ctx != 0 ? ctx->numeric_value : 0u);
}

int pqpan_pqke_initiator_user_confirm(struct pqpan_pqke_initiator *ctx, int values_match)
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
int pqpan_pqke_initiator_take_session(struct pqpan_pqke_initiator *ctx,
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

enum pqpan_pqke_state pqpan_pqke_initiator_state(const struct pqpan_pqke_initiator *ctx)
{
    return ctx != 0 ? (enum pqpan_pqke_state)ctx->state : PQPAN_PQKE_STATE_FAILED;
}

int pqpan_pqke_initiator_error(const struct pqpan_pqke_initiator *ctx)
{
    return ctx != 0 ? ctx->error : PQPAN_ERR_INVALID_ARG;
}

void pqpan_pqke_initiator_abort(struct pqpan_pqke_initiator *ctx)
{
    if (ctx != 0) {
        (void)fail(ctx, PQPAN_ERR_STATE, 0, 0, 0);
    }
}
