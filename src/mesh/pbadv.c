/* PB-ADV (Mesh Protocol v1.1 §5.2.1) and Generic Provisioning transactions (§5.3): the
 * segmentation of a Provisioning PDU and the expected cost of a provisioning run over
 * advertising events (docs/MODEL.md "Mesh provisioning"). */
#include <string.h>

#include "pqpan/defaults.h"
#include "pqpan/mesh_prov.h"

/* AdvA of the ADV_NONCONN_IND (Core v5.4 Vol 6 Part B §2.3.1.3). */
#define ADV_A_BYTES 6u
/* The advertising channels of one legacy advertising event (Vol 6 Part B §4.4.2.1). */
#define ADV_CHANNELS 3u
/* The scanner hears an event's PDU on the mean (second) of its channels, as the set-up's
 * advertising phase assumes (pqpan_ble_adv_mean, PQPAN_BLE_ADV_MEAN_CHANNEL). */
#define MEAN_CHANNEL_INDEX 2u

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
}

/* The run's clock: each side's next free advertising slot and its busy time. */
struct run {
    struct pqpan_mesh_pbadv_estimate *out;
    const struct pqpan_mesh_pbadv_config *cfg;
    const struct pqpan_ble_device *dev;
    uint64_t t_adv_mean;  /* E[T_advEvent] = advInterval + E[advDelay] */
    uint64_t free_ns[2];  /* earliest start of the side's next advertising event */
    uint64_t busy_ns[2];  /* time booked in states other than scanning */
    uint64_t end_ns;      /* end of the latest event */
};

/* One advertising event of side s starting no earlier than at, carrying a Generic
 * Provisioning PDU of gp octets: ADV_NONCONN_IND on three channels (Vol 6 Part B
 * §4.4.2.2: no listening after a non-connectable PDU). Books the sender's states and the
 * peer's reception; returns the time the peer has the PDU (end of the mean channel's). */
static uint64_t adv_event(struct run *r, enum pqpan_mesh_prov_role s, uint64_t at,
                          uint32_t gp, enum pqpan_phase phase)
{
    const struct pqpan_ble_device *d = &r->dev[s];
    struct pqpan_ledger *l = &r->out->ledger[s], *peer = &r->out->ledger[1 - s];
    uint32_t payload = pqpan_mesh_pbadv_adv_payload(gp);
    uint64_t t_pdu = pqpan_ble_packet_ns(r->cfg->phy, payload, 0);
    uint64_t octets = pqpan_ble_packet_octets(r->cfg->phy, payload, 0);
    uint64_t start = at > r->free_ns[s] ? at : r->free_ns[s];
    uint64_t len = (uint64_t)d->pre_ns + ADV_CHANNELS * (d->ramp_ns + t_pdu) + d->post_ns;
    pqpan_ledger_add(l, phase, PQPAN_STATE_PRE, d->pre_ns);
    pqpan_ledger_add(l, phase, PQPAN_STATE_RAMP_TX, ADV_CHANNELS * (uint64_t)d->ramp_ns);
    pqpan_ledger_add(l, phase, PQPAN_STATE_TX, ADV_CHANNELS * t_pdu);
    pqpan_ledger_add(l, phase, PQPAN_STATE_POST, d->post_ns);
    l->pdus_tx += ADV_CHANNELS;
    l->bytes_tx += ADV_CHANNELS * octets;
    l->events++;
    peer->pdus_rx++;
    peer->bytes_rx += octets;
    r->out->adv_events[s]++;
    r->busy_ns[s] += len;
    r->free_ns[s] = start + r->t_adv_mean;
    if (start + len > r->end_ns) {
        r->end_ns = start + len;
    }
    return start + d->pre_ns + MEAN_CHANNEL_INDEX * (d->ramp_ns + t_pdu);
}

/* times transmissions of one PDU; the peer has it from the first (zero loss). */
static uint64_t send_repeated(struct run *r, enum pqpan_mesh_prov_role s, uint64_t at,
                              uint32_t gp, uint32_t times, enum pqpan_phase phase)
{
    uint64_t first = adv_event(r, s, at, gp, phase);
    uint32_t i;
    for (i = 1; i < times; i++) {
        (void)adv_event(r, s, at, gp, phase);
    }
    return first;
}

/* The crypto ops (bits of enum pqpan_op) side s runs from at; returns when it is done. */
static uint64_t compute(struct run *r, enum pqpan_mesh_prov_role s, uint64_t at, uint32_t ops,
                        const uint64_t cycles[PQPAN_OP_COUNT])
{
    uint64_t ns = pqpan_mesh_prov_book_ops(&r->out->ledger[s], ops, cycles, r->dev[s].cpu_hz);
    r->busy_ns[s] += ns;
    return at + ns;
}

/* One Generic Provisioning transaction (§5.3.2) of a Provisioning PDU of len octets from
 * s, its segments from at, the peer's Transaction Ack after the last. *rx = when the peer
 * has the PDU; returns when the sender has the Ack. */
static uint64_t transaction(struct run *r, enum pqpan_mesh_prov_role s, uint64_t at,
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

/* Each side scans whenever it neither advertises nor computes (§5.2.1: a PB-ADV device
 * scans continuously). */
static void book_scanning(struct run *r)
{
    int s;
    for (s = 0; s < 2; s++) {
        uint64_t rx = r->end_ns > r->busy_ns[s] ? r->end_ns - r->busy_ns[s] : 0u;
        pqpan_ledger_add(&r->out->ledger[s], PQPAN_PHASE_KEY_TRANSFER, PQPAN_STATE_RX, rx);
    }
}

static int config_ok(const struct pqpan_mesh_pbadv_config *c)
{
    /* Legacy advertising PDUs go on LE 1M only (Core v5.4 Vol 6 Part B §2.3). */
    return c->phy == PQPAN_BLE_PHY_1M &&
           c->adv_interval_ns >= PQPAN_BLE_ADV_INTERVAL_MIN_NS &&
           c->adv_interval_ns <= PQPAN_BLE_ADV_INTERVAL_MAX_NS && c->pdu_transmissions > 0u &&
           c->ack_transmissions > 0u && c->close_transmissions > 0u;
}

/* Link establishment (§5.3.1.4, §5.3.2): the provisioner's Link Open, the device's Link Ack
 * (bearer control PDUs, not acknowledged by a Transaction Ack). Returns when the
 * provisioner has the Link Ack. */
static uint64_t open_link(struct run *r)
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
    struct run r;
    uint32_t n, i;
    uint64_t rx = 0, acked, t;
    enum pqpan_mesh_prov_role prev;
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (cfg == NULL || dev == NULL || cycles == NULL || !config_ok(cfg)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_mesh_prov_plan(steps, &n, cfg->keys.variant, cfg->keys.kem, cfg->keys.alg,
                              PQPAN_MESH_PBADV_TRANSACTION_MAX);
    if (rc != PQPAN_OK) {
        return rc;
    }
    memset(&r, 0, sizeof r);
    r.out = out;
    r.cfg = cfg;
    r.dev = dev;
    r.t_adv_mean = cfg->adv_interval_ns + PQPAN_BLE_ADV_DELAY_MAX_NS / 2u;
    pqpan_ledger_init(&out->ledger[0]);
    pqpan_ledger_init(&out->ledger[1]);
    acked = open_link(&r);
    prev = PQPAN_MESH_PROVISIONER;
    /* A side sends its next PDU when it has the peer's last PDU, or, sending twice in a row,
     * when its last transaction is acknowledged (one transaction at a time, §5.3.2). */
    for (i = 0; i < n; i++) {
        enum pqpan_mesh_prov_role s = steps[i].sender;
        t = s == prev ? acked : rx;
        t = compute(&r, s, t, steps[i].ops_before, cycles[s]);
        acked = transaction(&r, s, t, steps[i].length, steps[i].phase, &rx);
        prev = s;
    }
    out->latency_ns = rx;
    (void)send_repeated(&r, PQPAN_MESH_PROVISIONER, acked, PQPAN_MESH_PBADV_LINK_CLOSE_BYTES,
                        cfg->close_transmissions, PQPAN_PHASE_CONFIRM);
    book_scanning(&r);
    out->span_ns = r.end_ns;
    return PQPAN_OK;
}
