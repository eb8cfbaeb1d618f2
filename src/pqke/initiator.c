/* PQKE initiator (docs/PROTOCOL.md §4.1): IDLE -start-> WAIT_RESP -RESP-> DONE (numeric:
 * WAIT_REVEAL -REVEAL-> WAIT_USER -user confirms-> DONE) -take_session-> RELEASED; any error
 * -> FAILED. Runs ML-KEM KeyGen and Decaps (FIPS 203 Alg. 19, 21), in the hybrid suites a
 * P-256 key pair and shared secret, and per mode an Encaps to the responder's pinned static
 * key (kem-auth*, as KEMTLS-PDK's client does), a Decaps with its own static key
 * (kem-auth-mutual), the verification of the responder's ML-DSA signature (sig*) and its own
 * signature (sig-mutual). */
#include <string.h>

#include "crypto/ct_testing.h"
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

/* The suite's and mode's fields of INIT, written straight into their places in out: the
 * P-256 public key (hybrid) and the ciphertext to the responder's static key (kem-auth*);
 * numeric draws its nonce n_I (revealed in FIN, after the responder's commitment), and
 * sig-mutual rnd for the signature FIN will carry. */
static int init_mode_fields(struct pqpan_pqke_initiator *ctx, pqpan_rng_fn rng, void *rng_ctx,
                            uint8_t *out, const struct pqpan_pqke_layout *l)
{
    int rc = PQPAN_OK;
    if (l->ecdh != 0) {
        rc = pqpan_pqke_ecdh_keypair(out + l->ecdh, ctx->ecdh_sk, rng, rng_ctx);
    }
    if (rc == PQPAN_OK && l->ct_static != 0) {
        rc = pqpan_pqke_kem_encaps(ctx->suite, out + l->ct_static, ctx->ss_static,
                                   ctx->cred.peer_ek, rng, rng_ctx);
    }
    if (rc == PQPAN_OK && ctx->mode == PQPAN_PQKE_MODE_NUMERIC &&
        rng(rng_ctx, ctx->numeric_nonce, sizeof ctx->numeric_nonce) != 0) {
        rc = PQPAN_ERR_RNG;
    }
    if (rc == PQPAN_OK && pqpan_pqke_mode_sig_initiator(ctx->mode) &&
        rng(rng_ctx, ctx->sig_rnd, sizeof ctx->sig_rnd) != 0) {
        rc = PQPAN_ERR_RNG;
    }
    return rc;
}

/* Checks the credentials the whole exchange needs and keeps a copy of them. */
static int take_credentials(struct pqpan_pqke_initiator *ctx,
                            const struct pqpan_pqke_credentials *cred)
{
    int rc = pqpan_pqke_check_credentials(
        cred, pqpan_pqke_needs(ctx->mode, PQPAN_PQKE_ROLE_INITIATOR), ctx->suite, 0);
    if (rc == PQPAN_OK && cred != 0) {
        ctx->cred = *cred;
    }
    return rc;
}

/* INIT, built in place: nonce_i, KeyGen's ek and the mode's fields go straight into their
 * message fields; init_write then adds the header and the offer around them. Random draws,
 * in order: nonce_i, KeyGen's d and z, [the P-256 key], [Encaps' m], [numeric: n_I],
 * [sig-mutual: the signature's rnd]. The identities (given ones, and in the sig modes the
 * pinned keys') enter the transcript before INIT. */
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
    rc = rng == 0 || out == 0 || out_len == 0 ? PQPAN_ERR_INVALID_ARG : PQPAN_OK;
    if (rc == PQPAN_OK) {
        rc = take_credentials(ctx, cred);
    }
    if (rc == PQPAN_OK) {
        ctx->sig = pqpan_pqke_mode_sig_responder(ctx->mode) ? (uint8_t)cred->sig : 0u;
        rc = pqpan_pqke_layout_of(&l, PQPAN_PQKE_MSG_INIT, ctx->suite, ctx->mode, ctx->sig);
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
        rc = init_mode_fields(ctx, rng, rng_ctx, out, &l);
    }
    if (rc == PQPAN_OK) {
        memset(&m, 0, sizeof m);
        m.suite = ctx->suite;
        m.mode = ctx->mode;
        m.offer_suites = ctx->offer_suites;
        m.offer_modes = ctx->offer_modes;
        m.sig = ctx->sig;
        m.nonce = out + l.nonce;
        m.ek = out + l.ek;
        m.ek_len = l.ek_len;
        m.ecdh = l.ecdh != 0 ? out + l.ecdh : 0;
        m.ct_static = l.ct_static != 0 ? out + l.ct_static : 0;
        m.ct_static_len = l.ct_static_len;
        rc = pqpan_pqke_init_write(out, out_cap, out_len, &m);
    }
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    /* INIT is sent: public from here on (the transcript hash, signed and verified in the sig
     * modes, derives from it). */
    PQPAN_CT_DECLASSIFY(out, *out_len);
    pqpan_pqke_absorb_identities(&ctx->transcript, ctx->mode, PQPAN_PQKE_ROLE_INITIATOR,
                                 &ctx->cred);
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
        rc = pqpan_pqke_check_run(in, in_len, ctx->suite, ctx->mode, ctx->sig);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_resp_parse(m, in, in_len);
    }
    if (rc == PQPAN_OK &&
        out_cap < pqpan_pqke_message_sizes(ctx->suite, ctx->mode, ctx->sig).fin_bytes) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    return rc;
}

/* th = SHA3-256(prologue block || [identities] || INIT || RESP up to its tag). In the sig
 * modes th_r, the same hash up to sig_r, is taken on the way, and sig_r must verify under
 * the key pinned at start. */
static int resp_transcript(struct pqpan_pqke_initiator *ctx, const struct pqpan_pqke_resp_msg *m,
                           const uint8_t *in, size_t in_len, uint8_t th[PQKE_TH_BYTES])
{
    const size_t upto = in_len - PQPAN_PQKE_TAG_BYTES;
    const size_t sig_at = m->signature != 0 ? (size_t)(m->signature - in) : upto;
    struct pqpan_sha3_256_ctx h;
    int rc = PQPAN_OK;
    pqpan_sha3_256_absorb(&ctx->transcript, in, sig_at);
    if (m->signature != 0) {
        h = ctx->transcript;
        pqpan_sha3_256_final(&h, th);
        rc = pqpan_pqke_verify(m->signature, &ctx->cred, PQPAN_PQKE_ROLE_RESPONDER, th);
        pqpan_sha3_256_absorb(&ctx->transcript, in + sig_at, upto - sig_at);
    }
    pqpan_sha3_256_final(&ctx->transcript, th);
    return rc;
}

/* Z = ss_e || [ss_ecdh (hybrid)] || [ss_static_r (kem-auth*)] || [ss_static_i
 * (kem-auth-mutual)] || [psk]. */
static int initiator_z(struct pqpan_pqke_z *z, const struct pqpan_pqke_initiator *ctx,
                       const struct pqpan_pqke_resp_msg *m)
{
    uint8_t ss[PQKE_SS_BYTES];
    int rc = pqpan_pqke_kem_decaps_own_dk(ctx->suite, ss, m->ct, ctx->dk);
    z->len = 0;
    if (rc == PQPAN_OK) {
        pqpan_pqke_z_append(z, ss, sizeof ss);
    }
    if (rc == PQPAN_OK && m->ecdh != 0) {
        rc = pqpan_pqke_ecdh_shared(ss, ctx->ecdh_sk, m->ecdh);
        pqpan_pqke_z_append(z, ss, sizeof ss);
    }
    if (rc == PQPAN_OK) {
        if (pqpan_pqke_mode_ct_to_responder(ctx->mode)) {
            pqpan_pqke_z_append(z, ctx->ss_static, sizeof ctx->ss_static);
        }
        if (m->ct_static != 0) {
            rc = pqpan_pqke_kem_decaps(ctx->suite, ss, m->ct_static, ctx->cred.own_dk);
            pqpan_pqke_z_append(z, ss, sizeof ss);
        }
        if (ctx->mode == PQPAN_PQKE_MODE_PSK) {
            pqpan_pqke_z_append(z, ctx->cred.psk, ctx->cred.psk_len);
        }
    }
    pqpan_wipe(ss, sizeof ss);
    return rc;
}

/* FIN = header || [sig set] || [n_I] || [sig_i] || tag_i; sig-mutual signs th straight into
 * its place in out. */
static int write_fin(struct pqpan_pqke_initiator *ctx, const uint8_t tag[PQPAN_PQKE_TAG_BYTES],
                     const uint8_t th[PQKE_TH_BYTES], uint8_t *out, size_t out_cap,
                     size_t *out_len)
{
    struct pqpan_pqke_fin_msg fin;
    struct pqpan_pqke_layout l;
    int rc = pqpan_pqke_layout_of(&l, PQPAN_PQKE_MSG_FIN, ctx->suite, ctx->mode, ctx->sig);
    if (rc == PQPAN_OK && l.sig != 0) {
        rc = pqpan_pqke_sign(out + l.sig, &ctx->cred, PQPAN_PQKE_ROLE_INITIATOR, th, ctx->sig_rnd);
    }
    if (rc == PQPAN_OK) {
        memset(&fin, 0, sizeof fin);
        fin.suite = ctx->suite;
        fin.mode = ctx->mode;
        fin.sig = ctx->sig;
        fin.numeric_nonce = l.numeric_nonce != 0 ? ctx->numeric_nonce : 0;
        fin.signature = l.sig != 0 ? out + l.sig : 0;
        fin.signature_len = l.sig_len;
        fin.tag = tag;
        rc = pqpan_pqke_fin_write(out, out_cap, out_len, &fin);
    }
    return rc;
}

/* Verifies tag_r, then that the responder's accepted sets (now authenticated as far as the
 * mode authenticates) leave no better common choice, then writes FIN with tag_i (numeric:
 * over th || n_I, and n_I is public from here on). */
static int confirm_and_answer(struct pqpan_pqke_initiator *ctx,
                              const struct pqpan_pqke_resp_msg *m,
                              const struct pqpan_pqke_keys *keys, const uint8_t th[PQKE_TH_BYTES],
                              uint8_t *out, size_t out_cap, size_t *out_len)
{
    const int numeric = ctx->mode == PQPAN_PQKE_MODE_NUMERIC;
    uint8_t tag[PQPAN_PQKE_TAG_BYTES];
    int rc = pqpan_pqke_confirm_tag(tag, keys->responder_confirm_key, PQPAN_PQKE_ROLE_RESPONDER,
                                    th, 0);
    if (rc == PQPAN_OK && !pqpan_pqke_tags_equal(tag, m->tag)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_best(ctx->suite, ctx->mode, ctx->offer_suites, ctx->offer_modes,
                                   m->accepted_suites, m->accepted_modes);
    }
    if (rc == PQPAN_OK && numeric) {
        PQPAN_CT_DECLASSIFY(ctx->numeric_nonce, sizeof ctx->numeric_nonce);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(tag, keys->initiator_confirm_key, PQPAN_PQKE_ROLE_INITIATOR,
                                    th, numeric ? ctx->numeric_nonce : 0);
    }
    if (rc == PQPAN_OK) {
        rc = write_fin(ctx, tag, th, out, out_cap, out_len);
    }
    if (rc == PQPAN_OK && numeric) {
        memcpy(ctx->commit, m->commit, sizeof ctx->commit);
    }
    pqpan_wipe(tag, sizeof tag);
    return rc;
}

/* WAIT_RESP: sig_r (sig*), Decaps (and ECDH), key schedule over th = SHA3-256(prologue block
 * || [identities] || INIT || RESP without its tag), the responder's tag in constant time, the
 * downgrade check, then FIN. */
static int handle_resp(struct pqpan_pqke_initiator *ctx, const uint8_t *in, size_t in_len,
                       uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_resp_msg m;
    struct pqpan_pqke_keys keys;
    struct pqpan_pqke_z z;
    uint8_t th[PQKE_TH_BYTES];
    int rc = out == 0 ? PQPAN_ERR_INVALID_ARG : check_resp(ctx, &m, in, in_len, out_cap);
    if (rc != PQPAN_OK) {
        return rc;
    }
    z.len = 0;
    rc = resp_transcript(ctx, &m, in, in_len, th);
    if (rc == PQPAN_OK) {
        rc = initiator_z(&z, ctx, &m);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_derive_keys(
            &keys, &z, pqpan_pqke_message_sizes(ctx->suite, ctx->mode, ctx->sig).key_bytes, th);
    }
    if (rc == PQPAN_OK) {
        rc = confirm_and_answer(ctx, &m, &keys, th, out, out_cap, out_len);
    }
    if (rc == PQPAN_OK) {
        pqpan_pqke_keep_secrets(&ctx->secrets, &keys, th);
        pqpan_wipe(ctx->dk, sizeof ctx->dk);
        pqpan_wipe(ctx->ecdh_sk, sizeof ctx->ecdh_sk);
        pqpan_wipe(ctx->ss_static, sizeof ctx->ss_static);
        pqpan_wipe(ctx->sig_rnd, sizeof ctx->sig_rnd);
        ctx->state = ctx->mode == PQPAN_PQKE_MODE_NUMERIC ? PQPAN_PQKE_STATE_WAIT_REVEAL
                                                          : PQPAN_PQKE_STATE_DONE;
    }
    pqpan_wipe(&keys, sizeof keys);
    pqpan_wipe(&z, sizeof z);
    pqpan_wipe(th, sizeof th);
    return rc;
}

/* WAIT_REVEAL (numeric): n_R must open RESP's commitment; then the value to display, over
 * n_I || n_R and th. Writes nothing. */
static int handle_reveal(struct pqpan_pqke_initiator *ctx, const uint8_t *in, size_t in_len,
                         size_t *out_len)
{
    struct pqpan_pqke_reveal_msg m;
    uint8_t commit[PQPAN_PQKE_COMMIT_BYTES];
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_REVEAL);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_check_run(in, in_len, ctx->suite, ctx->mode, ctx->sig);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_reveal_parse(&m, in, in_len);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_numeric_commit(commit, m.numeric_nonce);
    }
    if (rc == PQPAN_OK && !pqpan_pqke_tags_equal(commit, ctx->commit)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_numeric_value(&ctx->numeric_value, ctx->numeric_nonce, m.numeric_nonce,
                                      ctx->secrets.th);
    }
    if (rc == PQPAN_OK) {
        pqpan_wipe(ctx->numeric_nonce, sizeof ctx->numeric_nonce);
        pqpan_wipe(ctx->commit, sizeof ctx->commit);
        ctx->state = PQPAN_PQKE_STATE_WAIT_USER;
        *out_len = 0;
    }
    pqpan_wipe(commit, sizeof commit);
    return rc;
}

int pqpan_pqke_initiator_handle(struct pqpan_pqke_initiator *ctx, const uint8_t *in,
                                size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (ctx->state != PQPAN_PQKE_STATE_WAIT_RESP && ctx->state != PQPAN_PQKE_STATE_WAIT_REVEAL) {
        return fail(ctx, PQPAN_ERR_STATE, out, out_cap, out_len);
    }
    if (pqpan_buffers_overlap(in, in_len, out, out_cap)) {
        /* In place: the output is the caller's message, which stays as it was. */
        return fail(ctx, PQPAN_ERR_INVALID_ARG, 0, 0, out_len);
    }
    if ((in == 0 && in_len != 0) || (out == 0 && out_cap != 0) || out_len == 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    rc = ctx->state == PQPAN_PQKE_STATE_WAIT_RESP
             ? handle_resp(ctx, in, in_len, out, out_cap, out_len)
             : handle_reveal(ctx, in, in_len, out_len);
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
