/* BLE Mesh provisioning over PB-ADV, executed (include/pqpan/mesh_sim.h): Provisioning
 * PDUs built and checked byte by byte (MshPRT v1.1 §5.4.1), carried in Generic
 * Provisioning transactions (§5.3) in ADV_NONCONN_IND PDUs (§5.2.1), crypto from
 * src/crypto, times and ledgers on the estimator's clock (pbadv_clock.h). */
#include <stdlib.h>
#include <string.h>

#include "pqpan/ble_pdu.h"
#include "pqpan/common.h"
#include "pqpan/mesh_sim.h"
#include "pbadv_clock.h"
#include "prov_sim.h"

#define P PQPAN_MESH_PROVISIONER
#define D PQPAN_MESH_DEVICE

/* §5.2.1: «PB-ADV» AD Type (Assigned Numbers, Common Data Types: 0x29). */
#define AD_TYPE_PB_ADV 0x29u
/* Core v5.4 Vol 6 Part B §2.3, Table 2.3: PDU Type ADV_NONCONN_IND = 0b0010; TxAdd (bit 6)
 * set: AdvA is a random (static) address. */
#define ADV_NONCONN_IND_HDR0 0x42u
#define ADV_A_BYTES 6u
/* §5.3.1: GPCF, the 2 low bits of a Generic Provisioning PDU's first octet. */
#define GPCF_START 0x0u
#define GPCF_ACK 0x1u
#define GPCF_CONT 0x2u
#define GPCF_CONTROL 0x3u
/* §5.3.1.4, Table 5.5: BearerOpcode Link Open 0x00, Link Ack 0x01, Link Close 0x02; Link
 * Close Reason (Table 5.6): 0x00 Success, 0x02 Fail. */
#define BEARER_LINK_OPEN 0x00u
#define BEARER_LINK_ACK 0x01u
#define BEARER_LINK_CLOSE 0x02u
#define CLOSE_SUCCESS 0x00u
#define CLOSE_TIMEOUT 0x01u
#define CLOSE_FAIL 0x02u
/* §5.2.1 / §5.3.2: a provisioner numbers its transactions from 0x00, a device from 0x80. */
#define TXN_FIRST_PROVISIONER 0x00u
#define TXN_FIRST_DEVICE 0x80u
#define UUID_BYTES 16u
/* The loss draws' own source, apart from the keys' (so a --per changes no key). */
#define LOSS_SEED_XOR UINT64_C(0x9e3779b97f4a7c15)

struct adv_side {
    uint8_t addr[ADV_A_BYTES];
    uint8_t txn;                     /* current transaction number */
    uint64_t acked_ns;               /* when its Ack (or the Link Ack) was heard, 0: not yet */
    uint64_t ack_end_ns;             /* end of the last Ack this side sent (pending before) */
    /* receiving (§5.3.2 reassembly); rx_total 0 while the Transaction Start is missing */
    uint8_t rx[PQPAN_MESH_PBADV_TRANSACTION_MAX];
    uint8_t rx_len[PQPAN_MESH_PBADV_SEGMENTS_MAX]; /* each Continuation's octets */
    uint32_t rx_total, rx_segn, rx_fcs;
    uint64_t rx_mask;
    int rx_open, rx_have_done;
    uint8_t rx_txn, rx_done_txn;
};

struct sim {
    struct pqpan_mesh_pbadv_sim_result *res;
    const struct pqpan_mesh_pbadv_sim_config *cfg;
    const uint64_t (*cycles)[PQPAN_OP_COUNT];
    struct mesh_pbadv_clock clock;
    struct mesh_prov_run run; /* the protocol (prov_sim.h); run.error stops the bearer too */
    struct adv_side side[2];
    uint32_t link_id;
    uint8_t uuid[UUID_BYTES];
    uint64_t last_rx_ns;   /* the last Provisioning PDU delivered */
    uint64_t ack_out_ns;   /* when the last Transaction Ack reached its peer */
    struct pqpan_prng loss_rng;
    uint32_t events;       /* advertising events booked (the loss hook's index) */
};

/* ---- Generic Provisioning FCS (§5.3.1.1: 3GPP TS 27.010 §5.2.1.6) -------------------- */

/* CRC-8 with generator x^8 + x^2 + x + 1, bits LSB first (reflected: 0xE0), register
 * preset to 0xFF; the FCS is the ones' complement of the register. */
static uint8_t gp_fcs(const uint8_t *data, size_t len)
{
    uint8_t r = 0xFFu;
    size_t i;
    int b;
    for (i = 0; i < len; i++) {
        r ^= data[i];
        for (b = 0; b < 8; b++) {
            r = (uint8_t)((r & 1u) ? (r >> 1) ^ 0xE0u : r >> 1);
        }
    }
    return (uint8_t)(0xFFu - r);
}

/* ---- the air: one advertising event's bytes ------------------------------------------ */

static void put_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}

/* The ADV_NONCONN_IND PDU of side s carrying gp[0..gp_len) in transaction txn (§5.2.1:
 * AdvData = Length, «PB-ADV», Link ID, Transaction Number, Generic Provisioning PDU), its
 * CRC appended. Returns the PDU's length with the CRC. */
static size_t adv_pdu(uint8_t *out, const struct sim *m, enum pqpan_mesh_prov_role s,
                      uint8_t txn, const uint8_t *gp, uint32_t gp_len)
{
    uint32_t payload = pqpan_mesh_pbadv_adv_payload(gp_len);
    uint8_t *ad = out + PQPAN_LL_HDR_BYTES + ADV_A_BYTES;
    out[0] = ADV_NONCONN_IND_HDR0;
    out[1] = (uint8_t)payload;
    memcpy(out + PQPAN_LL_HDR_BYTES, m->side[s].addr, ADV_A_BYTES);
    ad[0] = (uint8_t)(payload - ADV_A_BYTES - 1u); /* AD Length: AD Type + data */
    ad[1] = AD_TYPE_PB_ADV;
    put_be32(ad + 2, m->link_id);
    ad[6] = txn;
    memcpy(ad + 7, gp, gp_len);
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, out, PQPAN_LL_HDR_BYTES + payload);
    return PQPAN_LL_HDR_BYTES + payload + PQPAN_LL_CRC_BYTES;
}

static void deliver(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *pdu,
                    size_t len, uint64_t t);

/* Whether the peer receives the event's PDU: the test's loss pattern, or the event in one
 * of its scan windows (probability window / interval, drawn only below 100 %) and its
 * packet on the scanned channel undamaged (a packet error with probability per). */
static int heard(struct sim *m, enum pqpan_mesh_prov_role to)
{
    uint32_t n = m->events++;
    double duty = pqpan_mesh_pbadv_scan_duty(&m->cfg->link);
    if (m->cfg->lose != NULL) {
        return m->cfg->lose(m->cfg->loss_ctx, to, n) == 0;
    }
    if (duty < 1.0 && pqpan_prng_chance(&m->loss_rng, 1.0 - duty)) {
        return 0;
    }
    return !pqpan_prng_chance(&m->loss_rng, m->cfg->link.per);
}

/* One advertising event of s: booked on the clock, each channel's PDU captured (a sniffer
 * beside the sender has them all), the PDU delivered to the peer at the clock's reception
 * time unless lost. */
static void advertise(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at, uint8_t txn,
                      const uint8_t *gp, uint32_t gp_len, enum pqpan_phase phase)
{
    uint8_t pdu[PQPAN_LL_HDR_BYTES + ADV_A_BYTES + PQPAN_ADV_DATA_MAX + PQPAN_LL_CRC_BYTES];
    size_t len = adv_pdu(pdu, m, s, txn, gp, gp_len);
    uint64_t start, rx = pqpan_mesh_pbadv_clock_event(&m->clock, s, at, gp_len, phase, &start);
    uint32_t ch;
    for (ch = 0; ch < MESH_PBADV_CHANNELS && m->cfg->on_packet != NULL && m->run.error == 0; ch++) {
        uint64_t t = pqpan_mesh_pbadv_clock_channel_ns(&m->clock, s, start, ch, gp_len);
        if (m->cfg->on_packet(m->cfg->packet_ctx, t, (uint8_t)(MESH_PBADV_FIRST_CHANNEL + ch),
                              pdu, len) != 0) {
            m->run.error = PQPAN_ERR_IO;
        }
    }
    m->res->packets += MESH_PBADV_CHANNELS;
    if (heard(m, (enum pqpan_mesh_prov_role)(1 - s))) {
        deliver(m, (enum pqpan_mesh_prov_role)(1 - s), pdu, len, rx);
    } else {
        m->res->lost_events++;
    }
}

static void advertise_times(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at, uint8_t txn,
                            const uint8_t *gp, uint32_t gp_len, uint32_t times,
                            enum pqpan_phase phase)
{
    uint32_t i;
    for (i = 0; i < times && m->run.error == 0; i++) {
        advertise(m, s, at, txn, gp, gp_len, phase);
    }
}

/* ---- Generic Provisioning transactions (§5.3.1, §5.3.2) ------------------------------ */

static enum pqpan_phase phase_of(const uint8_t *pdu)
{
    return pdu[0] <= PQPAN_MESH_PROV_PUBLIC_KEY ? PQPAN_PHASE_KEY_TRANSFER : PQPAN_PHASE_CONFIRM;
}

/* Segment seg of pdu[0..len): Transaction Start (SegN, TotalLength, FCS) or Continuation
 * (SegmentIndex). Returns the Generic Provisioning PDU's length. */
static uint32_t gp_segment(uint8_t *gp, const uint8_t *pdu, uint32_t len, uint32_t seg)
{
    uint32_t data = pqpan_mesh_pbadv_segment_data(len, seg), off;
    if (seg == 0u) {
        gp[0] = (uint8_t)(((pqpan_mesh_pbadv_segments(len) - 1u) << 2) | GPCF_START);
        gp[1] = (uint8_t)(len >> 8);
        gp[2] = (uint8_t)len;
        gp[3] = gp_fcs(pdu, len);
        memcpy(gp + PQPAN_MESH_PBADV_START_HDR_BYTES, pdu, data);
        return PQPAN_MESH_PBADV_START_HDR_BYTES + data;
    }
    off = PQPAN_MESH_PBADV_START_DATA_MAX + (seg - 1u) * PQPAN_MESH_PBADV_CONT_DATA_MAX;
    gp[0] = (uint8_t)((seg << 2) | GPCF_CONT);
    memcpy(gp + PQPAN_MESH_PBADV_CONT_HDR_BYTES, pdu + off, data);
    return PQPAN_MESH_PBADV_CONT_HDR_BYTES + data;
}

/* What one round of a reliable send carries: a transaction's segments, or the Link Open. */
struct round {
    const uint8_t *pdu;
    uint32_t len;
    int link_open;
};

/* Whether side s has its acknowledgement before an event asked for at at would start. */
static int acked_before(const struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at)
{
    uint64_t a = m->side[s].acked_ns;
    return a != 0u && a <= pqpan_mesh_pbadv_clock_next(&m->clock, s, at);
}

/* One round from at: every segment (or the Link Open) pdu_transmissions times, stopped at
 * the first event that would start after the acknowledgement was heard. */
static void send_round(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at,
                       const struct round *rd, int resend)
{
    struct adv_side *p = &m->side[s];
    uint8_t gp[PQPAN_MESH_PBADV_GP_MTU];
    uint32_t segs = rd->link_open ? 1u : pqpan_mesh_pbadv_segments(rd->len), i, k;
    enum pqpan_phase phase = rd->link_open ? PQPAN_PHASE_CONNECT : phase_of(rd->pdu);
    for (i = 0; i < segs && m->run.error == 0; i++) {
        uint32_t gp_len = rd->link_open ? rd->len : gp_segment(gp, rd->pdu, rd->len, i);
        const uint8_t *what = rd->link_open ? rd->pdu : gp;
        for (k = 0; k < m->cfg->link.pdu_transmissions && m->run.error == 0; k++) {
            if (acked_before(m, s, at)) {
                return;
            }
            advertise(m, s, at, rd->link_open ? 0u : p->txn, what, gp_len, phase);
            m->clock.out->resent_segments[s] += resend && !rd->link_open ? 1.0 : 0.0;
        }
    }
}

static void link_close(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at, uint8_t reason);

/* §5.3.2: rounds until the acknowledgement is heard before the retransmission timer
 * (started after the side's last event of a round) fires; a timer firing after the
 * transaction timeout closes the link, reason Timeout. */
static void send_reliably(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at,
                          const struct round *rd)
{
    uint64_t start = at, fire;
    int resend = 0;
    m->side[s].acked_ns = 0u;
    while (m->run.error == 0) {
        send_round(m, s, at, rd, resend);
        fire = m->clock.last_end_ns[s] + m->cfg->link.retrans_ns;
        if (m->side[s].acked_ns != 0u && m->side[s].acked_ns <= fire) {
            return;
        }
        if (fire - start > m->cfg->link.txn_timeout_ns) {
            m->res->timed_out = 1;
            m->run.closed = 1;
            link_close(m, s, fire, CLOSE_TIMEOUT);
            return;
        }
        at = fire;
        resend = 1;
    }
}

static void send_transaction(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at,
                             const uint8_t *pdu, uint32_t len)
{
    struct round rd;
    rd.pdu = pdu;
    rd.len = len;
    rd.link_open = 0;
    send_reliably(m, s, at, &rd);
    m->clock.out->segments[s] += pqpan_mesh_pbadv_segments(len);
    m->clock.out->transactions++;
    m->side[s].txn++;
}

/* A Transaction Ack of txn from side to at t (§5.3.1.2); until its last event it is pending. */
static void send_ack(struct sim *m, enum pqpan_mesh_prov_role to, uint64_t t, uint8_t txn)
{
    uint8_t ack = GPCF_ACK;
    advertise_times(m, to, t, txn, &ack, PQPAN_MESH_PBADV_ACK_BYTES,
                    m->cfg->link.ack_transmissions, phase_of(m->side[to].rx));
    m->side[to].ack_end_ns = m->clock.last_end_ns[to];
}

/* A segment of the transaction already received: acknowledged again, unless an Ack is
 * still being sent (Zephyr pb_adv.c: "Resending ack" when none is pending), not delivered
 * again. */
static void duplicate(struct sim *m, enum pqpan_mesh_prov_role to, uint64_t t)
{
    if (t >= m->side[to].ack_end_ns) {
        send_ack(m, to, t, m->side[to].rx_done_txn);
    }
}

/* A whole transaction received: FCS and length checked (§5.3.2: a wrong FCS discards it),
 * the Transaction Ack sent, the Provisioning PDU handed to the protocol. */
static void transaction_done(struct sim *m, enum pqpan_mesh_prov_role to, uint64_t t)
{
    struct adv_side *p = &m->side[to];
    p->rx_open = 0;
    if (gp_fcs(p->rx, p->rx_total) != p->rx_fcs) {
        return;
    }
    p->rx_have_done = 1;
    p->rx_done_txn = p->rx_txn;
    send_ack(m, to, t, p->rx_txn);
    m->last_rx_ns = t;
    pqpan_mesh_prov_run_receive(&m->run, to, p->rx, p->rx_total, t);
}

/* A new transaction being reassembled, nothing of it received yet. */
static void rx_reset(struct adv_side *p, uint8_t txn)
{
    p->rx_open = 1;
    p->rx_txn = txn;
    p->rx_total = 0;
    p->rx_segn = 0;
    p->rx_mask = 0;
}

/* The Continuations received before the Start that agree with its TotalLength and SegN. */
static uint64_t rx_kept(const struct adv_side *p)
{
    uint64_t keep = 0;
    uint32_t i;
    for (i = 1; i <= p->rx_segn; i++) {
        if ((p->rx_mask & ((uint64_t)1u << i)) &&
            p->rx_len[i] == pqpan_mesh_pbadv_segment_data(p->rx_total, i)) {
            keep |= (uint64_t)1u << i;
        }
    }
    return keep;
}

static void rx_start(struct sim *m, enum pqpan_mesh_prov_role to, uint8_t txn, const uint8_t *gp,
                     uint32_t len, uint64_t t)
{
    struct adv_side *p = &m->side[to];
    uint32_t total, data;
    if (len < PQPAN_MESH_PBADV_START_HDR_BYTES) {
        return;
    }
    if (p->rx_have_done && txn == p->rx_done_txn) {
        duplicate(m, to, t);
        return;
    }
    total = ((uint32_t)gp[1] << 8) | gp[2];
    data = len - PQPAN_MESH_PBADV_START_HDR_BYTES;
    if (total == 0u || total > PQPAN_MESH_PBADV_TRANSACTION_MAX ||
        pqpan_mesh_pbadv_segments(total) != (uint32_t)(gp[0] >> 2) + 1u ||
        data != pqpan_mesh_pbadv_segment_data(total, 0u)) {
        return;
    }
    if (p->rx_open && p->rx_txn == txn && (p->rx_mask & 1u)) {
        return;
    }
    if (!p->rx_open || p->rx_txn != txn) {
        rx_reset(p, txn);
    }
    p->rx_total = total;
    p->rx_segn = (uint32_t)(gp[0] >> 2);
    p->rx_fcs = gp[3];
    p->rx_mask = rx_kept(p) | 1u;
    memcpy(p->rx, gp + PQPAN_MESH_PBADV_START_HDR_BYTES, data);
}

/* A Continuation, kept even before its Start (Zephyr pb_adv.c: "Start segment lost"). */
static void rx_continuation(struct sim *m, enum pqpan_mesh_prov_role to, uint8_t txn,
                            const uint8_t *gp, uint32_t len, uint64_t t)
{
    struct adv_side *p = &m->side[to];
    uint32_t idx = (uint32_t)(gp[0] >> 2), data = len - PQPAN_MESH_PBADV_CONT_HDR_BYTES;
    if (p->rx_have_done && txn == p->rx_done_txn) {
        duplicate(m, to, t);
        return;
    }
    if (idx == 0u || data == 0u || data > PQPAN_MESH_PBADV_CONT_DATA_MAX) {
        return;
    }
    if (!p->rx_open || txn != p->rx_txn) {
        rx_reset(p, txn);
    }
    if ((p->rx_mask & ((uint64_t)1u << idx)) ||
        (p->rx_total != 0u &&
         (idx > p->rx_segn || data != pqpan_mesh_pbadv_segment_data(p->rx_total, idx)))) {
        return;
    }
    memcpy(p->rx + PQPAN_MESH_PBADV_START_DATA_MAX + (idx - 1u) * PQPAN_MESH_PBADV_CONT_DATA_MAX,
           gp + PQPAN_MESH_PBADV_CONT_HDR_BYTES, data);
    p->rx_len[idx] = (uint8_t)data;
    p->rx_mask |= (uint64_t)1u << idx;
}

static void rx_control(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *gp,
                       uint32_t len, uint64_t t)
{
    uint8_t opcode = (uint8_t)(gp[0] >> 2), ack = (uint8_t)((BEARER_LINK_ACK << 2) | GPCF_CONTROL);
    if (opcode == BEARER_LINK_OPEN && to == D && len == PQPAN_MESH_PBADV_LINK_OPEN_BYTES &&
        memcmp(gp + 1, m->uuid, UUID_BYTES) == 0 &&
        (m->run.side[D].ready_ns == 0u || t >= m->side[D].ack_end_ns)) {
        /* the Link Ack, again for a repeated Link Open while none is being sent */
        if (m->run.side[D].ready_ns == 0u) {
            m->run.side[D].ready_ns = t;
        }
        advertise_times(m, D, t, 0u, &ack, PQPAN_MESH_PBADV_LINK_ACK_BYTES,
                        m->cfg->link.ack_transmissions, PQPAN_PHASE_CONNECT);
        m->side[D].ack_end_ns = m->clock.last_end_ns[D];
    } else if (opcode == BEARER_LINK_ACK && to == P && m->run.side[P].ready_ns == 0u) {
        m->run.side[P].ready_ns = t;
        m->side[P].acked_ns = t;
    }
}

/* One advertising PDU received by to at t (zero loss): the PB-ADV AD structure parsed,
 * the Generic Provisioning PDU dispatched on its GPCF. */
static void deliver(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *pdu,
                    size_t len, uint64_t t)
{
    struct adv_side *p = &m->side[to];
    const uint8_t *ad = pdu + PQPAN_LL_HDR_BYTES + ADV_A_BYTES, *gp = ad + 7;
    size_t head = PQPAN_LL_HDR_BYTES + ADV_A_BYTES + 7u + PQPAN_LL_CRC_BYTES;
    uint32_t gp_len, link;
    if (len <= head || !pqpan_crc24_check(PQPAN_LL_ADV_CRC_INIT, pdu, len - PQPAN_LL_CRC_BYTES) ||
        ad[1] != AD_TYPE_PB_ADV || (size_t)ad[0] + 1u != len - PQPAN_LL_HDR_BYTES - ADV_A_BYTES -
                                                            PQPAN_LL_CRC_BYTES) {
        return;
    }
    link = ((uint32_t)ad[2] << 24) | ((uint32_t)ad[3] << 16) | ((uint32_t)ad[4] << 8) | ad[5];
    gp_len = (uint32_t)(len - head);
    if (link != m->link_id) {
        return;
    }
    switch (gp[0] & 3u) {
    case GPCF_START:
        rx_start(m, to, ad[6], gp, gp_len, t);
        break;
    case GPCF_CONT:
        rx_continuation(m, to, ad[6], gp, gp_len, t);
        break;
    case GPCF_ACK:
        if (ad[6] == p->txn && p->acked_ns == 0u) {
            p->acked_ns = t;
            m->run.side[to].ready_ns = t;
            m->ack_out_ns = t;
        }
        return;
    default:
        rx_control(m, to, gp, gp_len, t);
        return;
    }
    if (p->rx_open && p->rx_total != 0u && p->rx_mask == (UINT64_MAX >> (63u - p->rx_segn))) {
        transaction_done(m, to, t);
    }
}
/* ---- the run ------------------------------------------------------------------------ */

/* Link Open (§5.3.1.4: the device's UUID) until the device's Link Ack is heard, resent on
 * the retransmission timer as a transaction; Transaction Number 0. */
static void open_link(struct sim *m)
{
    uint8_t open[PQPAN_MESH_PBADV_LINK_OPEN_BYTES];
    struct round rd;
    open[0] = (uint8_t)((BEARER_LINK_OPEN << 2) | GPCF_CONTROL);
    memcpy(open + 1, m->uuid, UUID_BYTES);
    rd.pdu = open;
    rd.len = sizeof open;
    rd.link_open = 1;
    send_reliably(m, P, 0u, &rd);
}

/* Link Close from s at at (§5.3.1.4, Reason: Table 5.6), close_transmissions events. */
static void link_close(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at, uint8_t reason)
{
    uint8_t close[PQPAN_MESH_PBADV_LINK_CLOSE_BYTES];
    close[0] = (uint8_t)((BEARER_LINK_CLOSE << 2) | GPCF_CONTROL);
    close[1] = reason;
    advertise_times(m, s, at, 0u, close, sizeof close, m->cfg->link.close_transmissions,
                    PQPAN_PHASE_CONFIRM);
}

static void close_link(struct sim *m)
{
    link_close(m, P, m->ack_out_ns, m->run.out.complete ? CLOSE_SUCCESS : CLOSE_FAIL);
}

/* The bearer's operations for the protocol (prov_sim.h): crypto on the PB-ADV clock, each
 * Provisioning PDU one transaction. */
static uint64_t bearer_compute(void *ctx, enum pqpan_mesh_prov_role s, uint64_t at, uint32_t ops)
{
    struct sim *m = ctx;
    return pqpan_mesh_pbadv_clock_compute(&m->clock, s, at, ops, m->cycles[s]);
}

static void bearer_send(void *ctx, enum pqpan_mesh_prov_role s, uint64_t t, const uint8_t *pdu,
                        uint32_t len)
{
    send_transaction(ctx, s, t, pdu, len);
}

static void side_init(struct adv_side *p, enum pqpan_mesh_prov_role r, uint64_t seed)
{
    uint32_t i;
    p->txn = r == P ? TXN_FIRST_PROVISIONER : TXN_FIRST_DEVICE;
    /* A random static address (Core v5.4 Vol 6 Part B §1.3.2.1: the two most significant
     * bits 1), little-endian on the air. */
    for (i = 0; i < ADV_A_BYTES; i++) {
        p->addr[i] = (uint8_t)(seed >> (8u * i)) ^ (uint8_t)(0x11u * (r + 1u));
    }
    p->addr[ADV_A_BYTES - 1u] |= 0xC0u;
}

static int sim_setup(struct sim *m, struct pqpan_mesh_pbadv_sim_result *res,
                     const struct pqpan_mesh_pbadv_sim_config *cfg,
                     const struct pqpan_ble_device dev[2], const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    uint8_t id[4];
    int rc;
    m->res = res;
    m->cfg = cfg;
    m->cycles = cycles;
    rc = pqpan_mesh_prov_run_init(&m->run, &cfg->link.keys, PQPAN_MESH_PBADV_TRANSACTION_MAX,
                                  cfg->seed, cfg->corrupt_confirmation);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_mesh_pbadv_clock_init(&m->clock, &res->run, &cfg->link, dev);
    pqpan_prng_seed(&m->loss_rng, cfg->seed ^ LOSS_SEED_XOR);
    side_init(&m->side[P], P, cfg->seed);
    side_init(&m->side[D], D, cfg->seed);
    /* Link ID (§5.2.1: random, chosen by the provisioner), the device's UUID, then the
     * Provisioning Data. */
    if (pqpan_mesh_prov_run_random(&m->run, id, sizeof id) != 0 ||
        pqpan_mesh_prov_run_random(&m->run, m->uuid, UUID_BYTES) != 0) {
        return PQPAN_ERR_RNG;
    }
    m->link_id = ((uint32_t)id[0] << 24) | ((uint32_t)id[1] << 16) | ((uint32_t)id[2] << 8) | id[3];
    return pqpan_mesh_prov_run_data(&m->run);
}

void pqpan_mesh_pbadv_sim_config_default(struct pqpan_mesh_pbadv_sim_config *c)
{
    memset(c, 0, sizeof *c);
    pqpan_mesh_pbadv_config_default(&c->link);
    c->seed = 1u;
}

static void finish(struct sim *m)
{
    struct pqpan_mesh_pbadv_sim_result *r = m->res;
    const struct mesh_prov_outcome *o = &m->run.out;
    r->run.latency_ns = m->last_rx_ns;
    pqpan_mesh_pbadv_clock_finish(&m->clock);
    pqpan_mesh_prov_run_finish(&m->run);
    pqpan_mesh_prov_run_keys(&m->run, r->session_key, r->device_key, r->net_key);
    memcpy(r->prov_pdus, o->prov_pdus, sizeof r->prov_pdus);
    r->keys_equal = o->keys_equal;
    r->complete = o->complete;
    r->failed_code = o->failed_code;
}

int pqpan_mesh_pbadv_simulate(struct pqpan_mesh_pbadv_sim_result *res,
                              const struct pqpan_mesh_pbadv_sim_config *cfg,
                              const struct pqpan_ble_device dev[2],
                              const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    struct sim *m;
    int rc;
    if (res == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(res, 0, sizeof *res);
    rc = pqpan_mesh_prov_sim_args(cfg != NULL && dev != NULL && cycles != NULL &&
                                      pqpan_mesh_pbadv_config_ok(&cfg->link),
                                  cfg != NULL ? cfg->link.keys.alg : PQPAN_MESH_PROV_ALG_CMAC);
    if (rc != PQPAN_OK) {
        return rc;
    }
    m = calloc(1, sizeof *m);
    if (m == NULL) {
        return PQPAN_ERR_CAPACITY;
    }
    rc = sim_setup(m, res, cfg, dev, cycles);
    if (rc == PQPAN_OK) {
        struct mesh_prov_bearer b;
        b.compute = bearer_compute;
        b.send = bearer_send;
        b.ctx = m;
        open_link(m);
        if (m->run.error == 0 && !m->run.closed) {
            pqpan_mesh_prov_run_exchange(&m->run, &b);
        }
        if (m->run.error == 0 && !m->run.closed) {
            close_link(m);
        }
        finish(m);
        rc = m->run.error;
    }
    pqpan_wipe(m, sizeof *m);
    free(m);
    if (rc != PQPAN_OK) {
        memset(res, 0, sizeof *res);
    }
    return rc;
}
