/* PQKE initiator (docs/PROTOCOL.md §4.1): IDLE -start-> WAIT_RESP -RESP-> DONE; any error
 * -> FAILED. Runs ML-KEM KeyGen and Decaps (FIPS 203 Alg. 19, 21). */
#include <string.h>

#include "crypto/ct_testing.h"
#include "pqke/pqke_internal.h"

/* Wipes every secret, records err, and zeroes the caller's output. */
static int fail(struct pqpan_pqke_initiator *ctx, int err, uint8_t *out, size_t out_cap,
                size_t *out_len)
{
    pqpan_wipe(ctx, sizeof *ctx);
    ctx->state = PQPAN_PQKE_STATE_FAILED;
    ctx->error = err;
    pqpan_pqke_clear_output(out, out_cap, out_len);
    return err;
}

int pqpan_pqke_initiator_init(struct pqpan_pqke_initiator *ctx, unsigned suite)
{
    if (ctx == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(ctx, 0, sizeof *ctx);
    if (!pqpan_pqke_suite_known(suite)) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, 0, 0, 0);
    }
    ctx->state = PQPAN_PQKE_STATE_IDLE;
    ctx->suite = (uint8_t)suite;
    ctx->error = PQPAN_OK;
    pqpan_sha3_256_init(&ctx->transcript);
    return PQPAN_OK;
}

/* INIT = header || nonce_i || ek, built in place: the nonce and KeyGen's ek are written
 * straight into their message fields. */
int pqpan_pqke_initiator_start(struct pqpan_pqke_initiator *ctx, pqpan_rng_fn rng,
                               void *rng_ctx, uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_init_msg m;
    size_t init_bytes;
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (ctx->state != PQPAN_PQKE_STATE_IDLE) {
        return fail(ctx, PQPAN_ERR_STATE, out, out_cap, out_len);
    }
    if (rng == 0 || out == 0 || out_len == 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    init_bytes = pqpan_pqke_suite_sizes(ctx->suite).init_bytes;
    if (out_cap < init_bytes) {
        return fail(ctx, PQPAN_ERR_BUFFER_TOO_SMALL, out, out_cap, out_len);
    }
    m.suite = ctx->suite;
    m.nonce = out + PQPAN_PQKE_HEADER_BYTES;
    m.ek = m.nonce + PQPAN_PQKE_NONCE_BYTES;
    m.ek_len = pqpan_pqke_suite_sizes(ctx->suite).ek_bytes;
    if (rng(rng_ctx, out + PQPAN_PQKE_HEADER_BYTES, PQPAN_PQKE_NONCE_BYTES) != 0) {
        return fail(ctx, PQPAN_ERR_RNG, out, out_cap, out_len);
    }
    rc = pqpan_pqke_kem_keypair(ctx->suite, out + PQPAN_PQKE_HEADER_BYTES +
                                                PQPAN_PQKE_NONCE_BYTES,
                                ctx->dk, rng, rng_ctx);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_init_write(out, out_cap, out_len, &m);
    }
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    pqpan_sha3_256_absorb(&ctx->transcript, out, *out_len);
    ctx->state = PQPAN_PQKE_STATE_WAIT_RESP;
    return PQPAN_OK;
}

/* Checks a RESP before any secret is touched: order, syntax, suite, output room. */
static int check_resp(const struct pqpan_pqke_initiator *ctx, struct pqpan_pqke_resp_msg *m,
                      const uint8_t *in, size_t in_len, size_t out_cap)
{
    int rc = pqpan_pqke_check_type(in, in_len, PQPAN_PQKE_MSG_RESP);
    if (rc == PQPAN_OK && pqpan_pqke_header_suite(in) != ctx->suite) {
        rc = PQPAN_ERR_SUITE;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_resp_parse(m, in, in_len);
    }
    if (rc == PQPAN_OK && out_cap < PQPAN_PQKE_FIN_BYTES) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    return rc;
}

/* Constant-time comparison; only the verdict is public (it decides the reply). */
static int tags_equal(const uint8_t a[PQPAN_PQKE_TAG_BYTES], const uint8_t b[PQPAN_PQKE_TAG_BYTES])
{
    int equal = pqpan_ct_equal(a, b, PQPAN_PQKE_TAG_BYTES);
    PQPAN_CT_DECLASSIFY(&equal, sizeof equal);
    return equal;
}

/* Decaps, key schedule over th = SHA3-256(INIT || RESP without its tag), checks tag_r in
 * constant time, then writes FIN with tag_i. */
int pqpan_pqke_initiator_handle(struct pqpan_pqke_initiator *ctx, const uint8_t *in,
                                size_t in_len, uint8_t *out, size_t out_cap, size_t *out_len)
{
    struct pqpan_pqke_resp_msg m;
    struct pqpan_pqke_fin_msg fin;
    struct pqpan_pqke_keys keys;
    uint8_t ss[PQKE_SS_BYTES];
    uint8_t th[PQKE_TH_BYTES];
    uint8_t tag[PQPAN_PQKE_TAG_BYTES];
    int rc;
    if (ctx == 0) {
        pqpan_pqke_clear_output(out, out_cap, out_len);
        return PQPAN_ERR_INVALID_ARG;
    }
    if (ctx->state != PQPAN_PQKE_STATE_WAIT_RESP) {
        return fail(ctx, PQPAN_ERR_STATE, out, out_cap, out_len);
    }
    if ((in == 0 && in_len != 0) || out == 0 || out_len == 0) {
        return fail(ctx, PQPAN_ERR_INVALID_ARG, out, out_cap, out_len);
    }
    rc = check_resp(ctx, &m, in, in_len, out_cap);
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    pqpan_sha3_256_absorb(&ctx->transcript, in, in_len - PQPAN_PQKE_TAG_BYTES);
    pqpan_sha3_256_final(&ctx->transcript, th);
    rc = pqpan_pqke_kem_decaps(ctx->suite, ss, m.ct, ctx->dk);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_derive_keys(&keys, ss, th);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(tag, &keys, PQPAN_PQKE_ROLE_RESPONDER, th);
    }
    if (rc == PQPAN_OK && !tags_equal(tag, m.tag)) {
        rc = PQPAN_ERR_AUTH;
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_confirm_tag(tag, &keys, PQPAN_PQKE_ROLE_INITIATOR, th);
    }
    if (rc == PQPAN_OK) {
        fin.suite = ctx->suite;
        fin.tag = tag;
        rc = pqpan_pqke_fin_write(out, out_cap, out_len, &fin);
    }
    if (rc == PQPAN_OK) {
        memcpy(ctx->session_key, keys.session_key, PQPAN_PQKE_SESSION_KEY_BYTES);
        pqpan_wipe(ctx->dk, sizeof ctx->dk);
        ctx->state = PQPAN_PQKE_STATE_DONE;
    }
    pqpan_wipe(&keys, sizeof keys);
    pqpan_wipe(ss, sizeof ss);
    pqpan_wipe(th, sizeof th);
    pqpan_wipe(tag, sizeof tag);
    if (rc != PQPAN_OK) {
        return fail(ctx, rc, out, out_cap, out_len);
    }
    return PQPAN_OK;
}

int pqpan_pqke_initiator_session_key(const struct pqpan_pqke_initiator *ctx,
                                     uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES])
{
    return pqpan_pqke_release_key(key, ctx != 0, ctx != 0 ? (unsigned)ctx->state : 0u,
                                  ctx != 0 ? ctx->session_key : 0);
}

enum pqpan_pqke_state pqpan_pqke_initiator_state(const struct pqpan_pqke_initiator *ctx)
{
    return (enum pqpan_pqke_state)ctx->state;
}

int pqpan_pqke_initiator_error(const struct pqpan_pqke_initiator *ctx)
{
    return ctx->error;
}

void pqpan_pqke_initiator_abort(struct pqpan_pqke_initiator *ctx)
{
    if (ctx != 0) {
        (void)fail(ctx, PQPAN_ERR_STATE, 0, 0, 0);
    }
}
