/* A synthetic application for the simulator: the estimator's messages (ek, then ct) and
 * operations (KeyGen, Encaps, Decaps) without real crypto. Message octets follow a
 * pattern that the receiver checks, so damage that slipped past the CRC is caught. */
#include <string.h>

#include "pqpan/sim.h"

static uint8_t pattern(uint32_t i, uint32_t salt)
{
    return (uint8_t)((i * 131u + salt * 17u + (i >> 8)) & 0xFFu);
}

static void fill(uint8_t *out, uint32_t len, uint32_t salt)
{
    uint32_t i;
    for (i = 0; i < len; i++) {
        out[i] = pattern(i, salt);
    }
}

static int check(const uint8_t *in, size_t len, uint32_t want, uint32_t salt)
{
    uint32_t i;
    if (len != want) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    for (i = 0; i < want; i++) {
        if (in[i] != pattern(i, salt)) {
            return PQPAN_ERR_MALFORMED;
        }
    }
    return PQPAN_OK;
}

void pqpan_sim_synth_init(struct pqpan_sim_synth *a, uint32_t ek_bytes, uint32_t ct_bytes,
                          enum pqpan_ble_role keygen_side)
{
    memset(a, 0, sizeof *a);
    a->ek_bytes = ek_bytes;
    a->ct_bytes = ct_bytes;
    a->keygen_side = (uint8_t)keygen_side;
}

static int synth_start(void *ctx, enum pqpan_ble_role side, uint8_t *out, size_t cap,
                       size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_synth *a = ctx;
    *out_len = 0;
    if (side != a->keygen_side || a->stage[side] != 0u || cap < a->ek_bytes) {
        return PQPAN_ERR_STATE;
    }
    fill(out, a->ek_bytes, 1u);
    *out_len = a->ek_bytes;
    work->ops[PQPAN_OP_KEM_KEYGEN] = 1;
    a->stage[side] = 1;
    return PQPAN_OK;
}

static int synth_receive(void *ctx, enum pqpan_ble_role side, const uint8_t *msg, size_t len,
                         uint8_t *out, size_t cap, size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_synth *a = ctx;
    int rc;
    *out_len = 0;
    if (side == a->keygen_side) {
        rc = a->stage[side] == 1u ? check(msg, len, a->ct_bytes, 2u) : PQPAN_ERR_STATE;
        if (rc == PQPAN_OK) {
            work->ops[PQPAN_OP_KEM_DECAPS] = 1;
            work->done = 1;
            a->stage[side] = 2;
        }
        return rc;
    }
    rc = a->stage[side] == 0u ? check(msg, len, a->ek_bytes, 1u) : PQPAN_ERR_STATE;
    if (rc == PQPAN_OK && cap < a->ct_bytes) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (rc == PQPAN_OK) {
        fill(out, a->ct_bytes, 2u);
        *out_len = a->ct_bytes;
        work->ops[PQPAN_OP_KEM_ENCAPS] = 1;
        work->done = 1;
        a->stage[side] = 1;
    }
    return rc;
}

static size_t synth_expect(void *ctx, enum pqpan_ble_role side)
{
    const struct pqpan_sim_synth *a = ctx;
    if (side == a->keygen_side) {
        return a->stage[side] == 1u ? a->ct_bytes : 0u;
    }
    return a->stage[side] == 0u ? a->ek_bytes : 0u;
}

static const struct pqpan_sim_app synth_app = {synth_start, synth_receive, synth_expect, NULL};

const struct pqpan_sim_app *pqpan_sim_synth_app(void)
{
    return &synth_app;
}
