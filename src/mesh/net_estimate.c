/* The expected PQKE between two mesh nodes across relays (mesh_net.h): each node's
 * advertising events on a shared clock, each priced by the PB-ADV clock's event
 * (pbadv_clock.h), and the scanning that fills the rest (docs/MODEL.md "Keys between mesh
 * nodes"). */
#include <string.h>

#include "../common/pqke_steps.h"
#include "net_sar.h"

/* One part of upper octets from the endpoint at from: its segments' Network PDUs as
 * pqpan_mesh_net_segment_pdu sizes them. */
static uint64_t send_part(struct mesh_net_clock *c, uint32_t from, uint64_t at, uint32_t upper,
                          enum pqpan_phase phase, uint64_t *rx)
{
    uint32_t pdu[PQPAN_MESH_NET_SEGMENTS_MAX], segs = pqpan_mesh_net_segments(upper), k;
    uint64_t acked;
    for (k = 0; k < segs; k++) {
        pdu[k] = pqpan_mesh_net_segment_pdu(upper, k);
    }
    acked = pqpan_mesh_net_clock_part(c, from, at, pdu, segs, pqpan_mesh_net_ack_pdu(), phase, rx);
    pqpan_mesh_net_sar_expected(c, from, pdu, segs, pqpan_mesh_net_ack_pdu(), phase, rx, &acked);
    return acked;
}

/* A PQKE message of len octets from the endpoint at from, its parts one after the other
 * (each once the last is acknowledged). *rx = when the destination has all of it;
 * returns when the sender has the last acknowledgment. */
static uint64_t send_message(struct mesh_net_clock *c, uint32_t from, uint64_t at, uint32_t len,
                             enum pqpan_phase phase, uint64_t *rx)
{
    uint32_t to = from == 0u ? c->cfg->hops : 0u;
    uint32_t parts = pqpan_mesh_net_parts_to(c->cfg, to, len), p;
    uint64_t acked = at;
    for (p = 0; p < parts; p++) {
        uint32_t data = pqpan_mesh_net_part_data_to(c->cfg, to, len, p);
        acked = send_part(c, from, acked, pqpan_mesh_net_upper_len(data, c->cfg->transmic),
                          phase, rx);
    }
    return acked;
}

/* The messages' sizes and the steps of the PQKE the configuration names. */
static int plan(uint32_t len[4], struct pqke_steps *st, const struct pqpan_mesh_net_config *cfg)
{
    struct pqpan_pqke_sizes sz;
    unsigned m;
    int rc = pqpan_pqke_steps_of(st, cfg->suite, cfg->mode, cfg->sig, 0);
    if (rc != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    sz = pqpan_pqke_message_sizes(cfg->suite, cfg->mode, cfg->sig);
    len[0] = (uint32_t)sz.init_bytes;
    len[1] = (uint32_t)sz.resp_bytes;
    len[2] = (uint32_t)sz.fin_bytes;
    len[3] = (uint32_t)sz.reveal_bytes;
    for (m = 0; m < 4u; m++) {
        uint32_t to = m % 2u == 0u ? cfg->hops : 0u; /* INIT, FIN to the responder */
        if (len[m] != 0u && pqpan_mesh_net_parts_to(cfg, to, len[m]) == 0u) {
            return PQPAN_ERR_CAPACITY;
        }
    }
    return PQPAN_OK;
}

static uint64_t later(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The endpoint s runs step k of st from at. */
static uint64_t compute(struct mesh_net_clock *c, enum pqpan_mesh_net_role s,
                        const struct pqke_steps *st, unsigned k, uint64_t at,
                        const uint64_t cycles[PQPAN_OP_COUNT])
{
    uint32_t ops[PQPAN_OP_COUNT];
    unsigned op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        ops[op] = st->ops[k][op];
    }
    return pqpan_mesh_net_clock_compute(c, s, ops, at, cycles);
}

/* INIT step, INIT, RESP step, RESP, FIN step, FIN, AFTER_FIN step, REVEAL (numeric), as
 * the 802.15.4 estimator orders them (pqpan_802154_estimate_pqke). */
static void run_pqke(struct mesh_net_clock *c, const uint32_t len[4], const struct pqke_steps *st,
                     const uint64_t cycles[PQPAN_OP_COUNT])
{
    const uint32_t resp = c->cfg->hops;
    uint64_t t, rx, acked;
    t = compute(c, PQPAN_MESH_NET_INITIATOR, st, PQKE_STEP_INIT, 0u, cycles);
    (void)send_message(c, 0u, t, len[0], PQPAN_PHASE_KEY_TRANSFER, &rx);
    t = compute(c, PQPAN_MESH_NET_RESPONDER, st, PQKE_STEP_RESP, rx, cycles);
    (void)send_message(c, resp, t, len[1], PQPAN_PHASE_KEY_TRANSFER, &rx);
    t = compute(c, PQPAN_MESH_NET_INITIATOR, st, PQKE_STEP_FIN, rx, cycles);
    acked = send_message(c, 0u, t, len[2], PQPAN_PHASE_CONFIRM, &rx);
    t = compute(c, PQPAN_MESH_NET_RESPONDER, st, PQKE_STEP_AFTER_FIN, rx, cycles);
    c->out->latency_ns = later(t, acked);
    if (len[3] != 0u) {
        acked = send_message(c, resp, t, len[3], PQPAN_PHASE_CONFIRM, &rx);
        c->out->latency_ns = later(rx, acked);
    }
}

/* A finished estimate's return: PQPAN_ERR_TIMEOUT with c->out zeroed when a part's
 * expected cost of loss was too large to book (the loss leaves no expected run), else
 * PQPAN_ERR_CAPACITY when the Friend Queue overflows, else PQPAN_OK. */
static int outcome(struct mesh_net_clock *c)
{
    if (c->beyond) {
        memset(c->out, 0, sizeof *c->out);
        return PQPAN_ERR_TIMEOUT;
    }
    return c->out->friend_queue_peak > c->cfg->friend_queue ? PQPAN_ERR_CAPACITY : PQPAN_OK;
}

int pqpan_mesh_net_estimate(struct pqpan_mesh_net_estimate *out,
                            const struct pqpan_mesh_net_config *cfg,
                            const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    struct mesh_net_clock c;
    struct pqke_steps st;
    uint32_t len[4];
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    /* every packet lost: no message ever completes, there is no expected run */
    if (dev == NULL || cycles == NULL || pqpan_mesh_net_config_check(cfg) != PQPAN_OK ||
        cfg->per >= 1.0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = plan(len, &st, cfg);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_mesh_net_clock_init(&c, out, cfg, dev);
    run_pqke(&c, len, &st, cycles);
    pqpan_mesh_net_clock_finish(&c);
    return outcome(&c);
}

int pqpan_mesh_net_message_estimate(struct pqpan_mesh_net_estimate *out,
                                    const struct pqpan_mesh_net_config *cfg,
                                    const struct pqpan_ble_device *dev, uint32_t msg_len)
{
    struct mesh_net_clock c;
    uint64_t rx = 0;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (dev == NULL || pqpan_mesh_net_config_check(cfg) != PQPAN_OK || cfg->per >= 1.0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (pqpan_mesh_net_parts_to(cfg, cfg->hops, msg_len) == 0u) {
        return msg_len == 0u ? PQPAN_ERR_INVALID_ARG : PQPAN_ERR_CAPACITY;
    }
    pqpan_mesh_net_clock_init(&c, out, cfg, dev);
    (void)send_message(&c, 0u, 0u, msg_len, PQPAN_PHASE_KEY_TRANSFER, &rx);
    pqpan_mesh_net_clock_finish(&c);
    out->latency_ns = rx;
    return outcome(&c);
}
