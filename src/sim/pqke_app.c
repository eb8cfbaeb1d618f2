/* The simulator's application for the real protocol: a PQKE initiator on one side, a
 * responder on the other (pqke.h), each message carried over the simulated link. */
#include <string.h>

#include "pqpan/sim.h"

static int prng_fill(void *ctx, uint8_t *out, size_t len)
{
    struct pqpan_prng *r = ctx;
    size_t i;
    for (i = 0; i < len; i += 8) {
        uint64_t x = pqpan_prng_next(r);
        size_t k;
        for (k = 0; k < 8 && i + k < len; k++) {
            out[i + k] = (uint8_t)(x >> (8 * k));
        }
    }
    return 0;
}

int pqpan_sim_pqke_init(struct pqpan_sim_pqke *a, unsigned suite, enum pqpan_ble_role initiator_side,
                        uint64_t seed)
{
    int rc;
    memset(a, 0, sizeof *a);
    a->suite = (uint8_t)suite;
    a->initiator_side = (uint8_t)initiator_side;
    /* A stream apart from the channel's: the same seed, a fixed offset. */
    pqpan_prng_seed(&a->rng, seed ^ 0x50514B45u);
    rc = pqpan_pqke_initiator_init(&a->ini, suite);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_responder_init(&a->rsp, PQPAN_PQKE_SUITE_BIT(suite));
    }
    if (rc != PQPAN_OK) {
        pqpan_sim_pqke_wipe(a);
    }
    return rc;
}

static int pqke_start(void *ctx, enum pqpan_ble_role side, uint8_t *out, size_t cap,
                      size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_pqke *a = ctx;
    *out_len = 0;
    if (side != a->initiator_side) {
        return PQPAN_ERR_STATE;
    }
    work->ops[PQPAN_OP_KEM_KEYGEN] = 1;
    return pqpan_pqke_initiator_start(&a->ini, prng_fill, &a->rng, out, cap, out_len);
}

static int pqke_receive(void *ctx, enum pqpan_ble_role side, const uint8_t *msg, size_t len,
                        uint8_t *out, size_t cap, size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_pqke *a = ctx;
    int rc;
    *out_len = 0;
    if (side == a->initiator_side) {
        /* RESP: Decaps, key schedule, the responder's tag; FIN out. */
        work->ops[PQPAN_OP_KEM_DECAPS] = 1;
        work->ops[PQPAN_OP_KDF] = 1;
        rc = pqpan_pqke_initiator_handle(&a->ini, msg, len, out, cap, out_len);
        work->done = rc == PQPAN_OK;
        a->fin_sent = rc == PQPAN_OK;
        return rc;
    }
    if (pqpan_pqke_responder_state(&a->rsp) == PQPAN_PQKE_STATE_IDLE) {
        /* INIT: Encaps, key schedule; RESP out. */
        work->ops[PQPAN_OP_KEM_ENCAPS] = 1;
        work->ops[PQPAN_OP_KDF] = 1;
        return pqpan_pqke_responder_handle(&a->rsp, prng_fill, &a->rng, msg, len, out, cap, out_len);
    }
    /* FIN: the initiator's tag. */
    rc = pqpan_pqke_responder_handle(&a->rsp, NULL, NULL, msg, len, out, cap, out_len);
    work->done = rc == PQPAN_OK;
    return rc;
}

static size_t pqke_expect(void *ctx, enum pqpan_ble_role side)
{
    const struct pqpan_sim_pqke *a = ctx;
    struct pqpan_pqke_sizes z = pqpan_pqke_suite_sizes(a->suite);
    if (side == a->initiator_side) {
        return pqpan_pqke_initiator_state(&a->ini) == PQPAN_PQKE_STATE_WAIT_RESP ? z.resp_bytes : 0u;
    }
    switch (pqpan_pqke_responder_state(&a->rsp)) {
    case PQPAN_PQKE_STATE_IDLE:
        return z.init_bytes;
    case PQPAN_PQKE_STATE_WAIT_FIN:
        return z.fin_bytes;
    default:
        return 0u;
    }
}

/* Both parties DONE and holding the same session key, else PQPAN_ERR_AUTH. */
static int pqke_verify(void *ctx)
{
    const struct pqpan_sim_pqke *a = ctx;
    return pqpan_sim_pqke_confirmed(a) && pqpan_sim_pqke_keys_equal(a) ? PQPAN_OK : PQPAN_ERR_AUTH;
}

static const struct pqpan_sim_app pqke_app = {pqke_start, pqke_receive, pqke_expect, pqke_verify};

const struct pqpan_sim_app *pqpan_sim_pqke_app(void)
{
    return &pqke_app;
}

int pqpan_sim_pqke_confirmed(const struct pqpan_sim_pqke *a)
{
    return pqpan_pqke_initiator_state(&a->ini) == PQPAN_PQKE_STATE_DONE &&
           pqpan_pqke_responder_state(&a->rsp) == PQPAN_PQKE_STATE_DONE;
}

int pqpan_sim_pqke_keys_equal(const struct pqpan_sim_pqke *a)
{
    uint8_t ki[PQPAN_PQKE_SESSION_KEY_BYTES], kr[PQPAN_PQKE_SESSION_KEY_BYTES];
    int eq = pqpan_pqke_initiator_session_key(&a->ini, ki) == PQPAN_OK &&
             pqpan_pqke_responder_session_key(&a->rsp, kr) == PQPAN_OK &&
             pqpan_ct_equal(ki, kr, sizeof ki);
    pqpan_wipe(ki, sizeof ki);
    pqpan_wipe(kr, sizeof kr);
    return eq;
}

void pqpan_sim_pqke_wipe(struct pqpan_sim_pqke *a)
{
    pqpan_wipe(a, sizeof *a);
}
