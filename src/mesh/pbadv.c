/* PB-ADV (Mesh Protocol v1.1 §5.2.1) and Generic Provisioning transactions (§5.3): the
 * segmentation of a Provisioning PDU and the expected cost of a provisioning run over
 * advertising events (docs/MODEL.md "Mesh provisioning"). */
#include <string.h>

#include "pqpan/defaults.h"
#include "pqpan/mesh_prov.h"
#include "pbadv_clock.h"

/* AdvA of the ADV_NONCONN_IND (Core v5.4 Vol 6 Part B §2.3.1.3). */
#define ADV_A_BYTES 6u

uint32_t pqpan_mesh_pbadv_segments(uint32_t total_len)
{
    if (total_len == 0u || total_len > PQPAN_MESH_PBADV_TRANSACTION_MAX) {
        return 0u;
    }
    if (total_len <= PQPAN_MESH_PBADV_START_DATA_MAX) {
        return 1u;
    }
    return 1u + (total_len - PQPAN_MESH_PBADV_START_DATA_MAX + PQPAN_MESH_PBADV_CONT_DATA_MAX - 1u) /
                    PQPAN_MESH_PBADV_CONT_DATA_MAX;
}

/* §5.3.1.1, §5.3.1.3: the Start carries the first 20 octets, each Continuation the next 23. */
uint32_t pqpan_mesh_pbadv_segment_data(uint32_t total_len, uint32_t seg)
{
    uint32_t segs = pqpan_mesh_pbadv_segments(total_len), before;
    if (seg >= segs) {
        return 0u;
    }
    if (seg == 0u) {
        return total_len < PQPAN_MESH_PBADV_START_DATA_MAX ? total_len
                                                           : PQPAN_MESH_PBADV_START_DATA_MAX;
    }
    before = PQPAN_MESH_PBADV_START_DATA_MAX + (seg - 1u) * PQPAN_MESH_PBADV_CONT_DATA_MAX;
    return total_len - before < PQPAN_MESH_PBADV_CONT_DATA_MAX ? total_len - before
                                                               : PQPAN_MESH_PBADV_CONT_DATA_MAX;
}

uint32_t pqpan_mesh_pbadv_segment_gp(uint32_t total_len, uint32_t seg)
{
    uint32_t data = pqpan_mesh_pbadv_segment_data(total_len, seg);
    if (data == 0u) {
        return 0u;
    }
    return data + (seg == 0u ? PQPAN_MESH_PBADV_START_HDR_BYTES : PQPAN_MESH_PBADV_CONT_HDR_BYTES);
}

/* §5.2.1, §3.3.1: the PB-ADV AD structure is the AdvData (no Flags on a non-connectable
 * event); AdvData + AdvA <= 37 for every Generic Provisioning PDU of at most 24 octets. */
uint32_t pqpan_mesh_pbadv_adv_payload(uint32_t gp_len)
{
    return ADV_A_BYTES + PQPAN_MESH_PBADV_AD_HDR_BYTES + PQPAN_MESH_PBADV_LINK_ID_BYTES +
           PQPAN_MESH_PBADV_TXN_BYTES + gp_len;
}

void pqpan_mesh_pbadv_config_default(struct pqpan_mesh_pbadv_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    pqpan_mesh_prov_keys_default(&cfg->keys);
    cfg->phy = PQPAN_BLE_PHY_1M;
    cfg->adv_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_PBADV_INTERVAL_MS);
    cfg->pdu_transmissions = pqpan_default_u32(PQPAN_DEFAULT_PBADV_PDU_TRANSMISSIONS);
    cfg->ack_transmissions = pqpan_default_u32(PQPAN_DEFAULT_PBADV_ACK_TRANSMISSIONS);
    cfg->close_transmissions = pqpan_default_u32(PQPAN_DEFAULT_PBADV_CLOSE_TRANSMISSIONS);
    cfg->per = 0.0;
    cfg->retrans_ns = PQPAN_MESH_PBADV_RETRANS_NS;
    cfg->txn_timeout_ns = PQPAN_MESH_PBADV_TXN_TIMEOUT_NS;
}

/* times transmissions of one PDU; the peer has it from the first (zero loss). */
static uint64_t send_repeated(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                              uint64_t at, uint32_t gp, uint32_t times, enum pqpan_phase phase)
{
    uint64_t start;
    uint64_t first = pqpan_mesh_pbadv_clock_event(r, s, at, gp, phase, &start);
    uint32_t i;
    for (i = 1; i < times; i++) {
        (void)pqpan_mesh_pbadv_clock_event(r, s, at, gp, phase, &start);
    }
    return first;
}

/* One Generic Provisioning transaction (§5.3.2) of a Provisioning PDU of len octets from
 * s, its segments from at, the peer's Transaction Ack after the last. *rx = when the peer
 * has the PDU; returns when the sender has the Ack. */
static uint64_t transaction(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint64_t at,
                            uint32_t len, enum pqpan_phase phase, uint64_t *rx)
{
    enum pqpan_mesh_prov_role peer = (enum pqpan_mesh_prov_role)(1 - s);
    uint32_t segs = pqpan_mesh_pbadv_segments(len), i;
    uint64_t last = at;
    for (i = 0; i < segs; i++) {
        last = send_repeated(r, s, at, pqpan_mesh_pbadv_segment_gp(len, i),
                             r->cfg->pdu_transmissions, phase);
    }
    r->out->segments[s] += segs;
    r->out->transactions++;
    *rx = last;
    return send_repeated(r, peer, last, PQPAN_MESH_PBADV_ACK_BYTES, r->cfg->ack_transmissions,
                         phase);
}

/* Link establishment (§5.3.1.4, §5.3.2): the provisioner's Link Open, the device's Link Ack
 * (bearer control PDUs, not acknowledged by a Transaction Ack). Returns when the
 * provisioner has the Link Ack. */
static uint64_t open_link(struct mesh_pbadv_clock *r)
{
    uint64_t rx = send_repeated(r, PQPAN_MESH_PROVISIONER, 0u, PQPAN_MESH_PBADV_LINK_OPEN_BYTES,
                                r->cfg->pdu_transmissions, PQPAN_PHASE_CONNECT);
    return send_repeated(r, PQPAN_MESH_DEVICE, rx, PQPAN_MESH_PBADV_LINK_ACK_BYTES,
                         r->cfg->ack_transmissions, PQPAN_PHASE_CONNECT);
}

int pqpan_mesh_pbadv_estimate(struct pqpan_mesh_pbadv_estimate *out,
                              const struct pqpan_mesh_pbadv_config *cfg,
                              const struct pqpan_ble_device dev[2],
                              const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    struct pqpan_mesh_prov_step steps[PQPAN_MESH_PROV_STEPS_MAX];
    struct mesh_pbadv_clock r;
    uint32_t n, i;
    uint64_t rx = 0, acked, t;
    enum pqpan_mesh_prov_role prev;
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (cfg == NULL || dev == NULL || cycles == NULL || !pqpan_mesh_pbadv_config_ok(cfg)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_mesh_prov_plan(steps, &n, cfg->keys.variant, cfg->keys.kem, cfg->keys.alg,
                              PQPAN_MESH_PBADV_TRANSACTION_MAX);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_mesh_pbadv_clock_init(&r, out, cfg, dev);
    acked = open_link(&r);
    prev = PQPAN_MESH_PROVISIONER;
    /* A side sends its next PDU when it has the peer's last PDU, or, sending twice in a row,
     * when its last transaction is acknowledged (one transaction at a time, §5.3.2). */
    for (i = 0; i < n; i++) {
        enum pqpan_mesh_prov_role s = steps[i].sender;
        t = s == prev ? acked : rx;
        t = pqpan_mesh_pbadv_clock_compute(&r, s, t, steps[i].ops_before, cycles[s]);
        acked = transaction(&r, s, t, steps[i].length, steps[i].phase, &rx);
        prev = s;
    }
    out->latency_ns = rx;
    (void)send_repeated(&r, PQPAN_MESH_PROVISIONER, acked, PQPAN_MESH_PBADV_LINK_CLOSE_BYTES,
                        cfg->close_transmissions, PQPAN_PHASE_CONFIRM);
    pqpan_mesh_pbadv_clock_finish(&r);
    return PQPAN_OK;
}
