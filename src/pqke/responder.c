/* PQKE responder (docs/PROTOCOL.md §4.2): IDLE -INIT-> WAIT_FIN -FIN-> DONE; any error
 * -> FAILED. Runs ML-KEM Encaps (FIPS 203 Alg. 20) and enforces the suite policy. */
#include <string.h>

#include "crypto/ct_testing.h"
#include "pqke/pqke_internal.h"

static int fail(struct pqpan_pqke_responder *ctx, int err, uint8_t *out, size_t out_cap,
                size_t *out_len)
{
    pqpan_wipe(ctx, sizeof *ctx);
    ctx->state = PQPAN_PQKE_STATE_FAILED;
    ctx->error = err;
    pqpan_pqke_clear_output(out, out_cap, out_len);
    return err;
}

int pqpan_pqke_responder_init(struct pqpan_pqke_responder *ctx, uint32_t accepted_suites)
{
    if (ctx == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if (accepted_suites == 0 || (accepted_suites & ~(uint32_t)PQPAN_PQKE_SUITES_ALL) != 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, 0, 0, 0);
    }
    ctx->state = PQPAN_PQKE_STATE_IDLE;
    ctx->error = PQPAN_OK;
    ctx->accepted_suites = accepted_suites;
    return PQPAN_OK;
}

static int suite_accepted(const struct pqpan_pqke_responder *ctx, unsigned suite)
{
    return suite < 32 && pqpan_pqke_suite_known(suite) &&
           (ctx->accepted_suites & PQPAN_PQKE_SUITE_BIT(suite)) != 0;
}

/* Checks an INIT before any work: order, syntax, policy, randomness, output room. */
static int check_init(const struct pqpan_pqke_responder *ctx, struct pqpan_pqke_init_msg *m,
                      pqpan_rng_fn rng, const uint8_t *in, size_t in_len, size_t out_cap)
{
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_INIT);
    if (rc == PQPAN_OK && !suite_accepted(ctx, pqpan_pqke_header_suite(in))) {
        rc = PQPAN_ERR_SUITE;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_init_parse(m, in, in_len);
    }
    if (rc == PQPAN_OK && rng == 0) {
        rc = PQPAN_ERR_INVALID_ARG;
    }
    if (rc == PQPAN_OK && out_cap < pqpan_pqke_suite_sizes(m->suite).resp_bytes) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    return rc;
}

/* RESP = header || ct || nonce_r || tag_r, built in place: nonce_r and Encaps' ct go
 * straight into their fields, the tag last, over th = SHA3-256(INIT || RESP[0 .. tag)). */
static int answer_init(struct pqpan_pqke_responder *ctx, const struct pqpan_pqke_init_msg *m,
                       pqpan_rng_fn rng, void *rng_ctx, const uint8_t *in, size_t in_len,
                       uint8_t *out, size_t out_cap, size_t *out_len)
{
    static const uint8_t zero_tag[PQPAN_PQKE_TAG_BYTES] = {0};
    struct pqpan_pqke_resp_msg r;
    struct pqpan_pqke_keys keys;
    struct pqpan_sha3_256_ctx h;
    uint8_t ss[PQKE_SS_BYTES];
    uint8_t th[PQKE_TH_BYTES];
    int rc = PQPAN_OK;
    r.suite = m->suite;
    r.ct = out + PQPAN_PQKE_HEADER_BYTES;
    r.ct_len = pqpan_pqke_suite_sizes(m->suite).ct_bytes;
    r.nonce = r.ct + r.ct_len;
    r.tag = zero_tag;
    if (rng(rng_ctx, out + PQPAN_PQKE_HEADER_BYTES + r.ct_len, PQPAN_PQKE_NONCE_BYTES) != 0) {
        rc = PQPAN_ERR_RNG;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_kem_encaps(m->suite, out + PQPAN_PQKE_HEADER_BYTES, ss, m->ek, rng,
                                   rng_ctx);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_resp_write(out, out_cap, out_len, &r);
    }
    if (rc == PQPAN_OK) {
        pqpan_sha3_256_init(&h);
        pqpan_sha3_256_absorb(&h, in, in_len);
        pqpan_sha3_256_absorb(&h, out, *out_len - PQPAN_PQKE_TAG_BYTES);
        pqpan_sha3_256_final(&h, th);
        rc = pqpan_pqke_derive_keys(&keys, ss, th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(out + *out_len - PQPAN_PQKE_TAG_BYTES, &keys,
                                    PQPAN_PQKE_ROLE_RESPONDER, th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(ctx->fin_tag, &keys, PQPAN_PQKE_ROLE_INITIATOR, th);
    }
    if (rc == PQPAN_OK) {
        memcpy(ctx->session_key, keys.session_key, PQPAN_PQKE_SESSION_KEY_BYTES);
        ctx->suite = m->suite;
        ctx->state = PQPAN_PQKE_STATE_WAIT_FIN;
    }
    pqpan_wipe(&keys, sizeof keys);
    pqpan_wipe(ss, sizeof ss);
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

/* FIN: the initiator's tag, compared in constant time with the one expected. */
static int handle_fin(struct pqpan_pqke_responder *ctx, const uint8_t *in, size_t in_len,
                      size_t *out_len)
{
    struct pqpan_pqke_fin_msg m;
    int equal;
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_FIN);
    if (rc == PQPAN_OK && pqpan_pqke_header_suite(in) != ctx->suite) {
        rc = PQPAN_ERR_SUITE;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_fin_parse(&m, in, in_len);
    }
    if (rc == PQPAN_OK) {
        equal = pqpan_ct_equal(m.tag, ctx->fin_tag, PQPAN_PQKE_TAG_BYTES);
        PQPAN_CT_DECLASSIFY(&equal, sizeof equal); /* the verdict is public */
        rc = equal ? PQPAN_OK : PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK) {
        pqpan_wipe(ctx->fin_tag, sizeof ctx->fin_tag);
        ctx->state = PQPAN_PQKE_STATE_DONE;
        *out_len = 0;
    }
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
    if ((in == 0 && in_len != 0) || (out == 0 && out_cap != 0) || out_len == 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    switch (ctx->state) {
    case PQPAN_PQKE_STATE_IDLE:
        rc = handle_init(ctx, rng, rng_ctx, in, in_len, out, out_cap, out_len);
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

int pqpan_pqke_responder_session_key(const struct pqpan_pqke_responder *ctx,
                                     uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES])
{
    return pqpan_pqke_release_key(key, ctx != 0, ctx != 0 ? (unsigned)ctx->state : 0u,
                                  ctx != 0 ? ctx->session_key : 0);
}

enum pqpan_pqke_state pqpan_pqke_responder_state(const struct pqpan_pqke_responder *ctx)
{
    return (enum pqpan_pqke_state)ctx->state;
}

int pqpan_pqke_responder_error(const struct pqpan_pqke_responder *ctx)
{
    return ctx->error;
}

void pqpan_pqke_responder_abort(struct pqpan_pqke_responder *ctx)
{
    if (ctx != 0) {
        (void)fail(ctx, PQPAN_ERR_STATE, 0, 0, 0);
    }
}
