/* BLE Mesh provisioning over PB-ADV, executed (include/pqpan/mesh_sim.h): Provisioning
 * PDUs built and checked byte by byte (MshPRT v1.1 §5.4.1), carried in Generic
 * Provisioning transactions (§5.3) in ADV_NONCONN_IND PDUs (§5.2.1), crypto from
 * src/crypto, times and ledgers on the estimator's clock (pbadv_clock.h). */
#include <stdlib.h>
#include <string.h>

#include "pqpan/aes.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/common.h"
#include "pqpan/ecdh.h"
#include "pqpan/ieee802154.h"
#include "pqpan/mesh_sim.h"
#include "pqpan/sim.h"
#include "pbadv_clock.h"

#define OP_BIT(op) (1u << (unsigned)(op))
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
#define CLOSE_FAIL 0x02u
/* §5.2.1 / §5.3.2: a provisioner numbers its transactions from 0x00, a device from 0x80. */
#define TXN_FIRST_PROVISIONER 0x00u
#define TXN_FIRST_DEVICE 0x80u
#define UUID_BYTES 16u
/* §5.4.1.3 Start (Table 5.22-5.26): Public Key 0x00 (No OOB Public Key), Authentication
 * Method 0x00 (No OOB), Action and Size 0. §5.4.1.2 Capabilities Algorithms bit 0:
 * BTM_ECDH_P256_CMAC_AES128_AES_CCM. */
#define ALGORITHMS_CMAC 0x0001u
#define AUTH_VALUE_BYTES 16u /* No OOB: AuthValue = 16 zero octets (§5.4.2.4) */
#define VALUE_BYTES PQPAN_MESH_PROV_CMAC_VALUE_BYTES
#define KEY_RUN_MAX (PQPAN_MESH_PROV_P256_KEY_BYTES + PQPAN_KEM_EK_MAX_BYTES)
/* ConfirmationInputs (§5.4.2.4): Invite, Capabilities, Start parameters, both keys. */
#define INPUTS_MAX                                                                             \
    (PQPAN_MESH_PROV_INVITE_PARAMS + PQPAN_MESH_PROV_CAPABILITIES_PARAMS +                     \
     PQPAN_MESH_PROV_START_PARAMS + 2u * KEY_RUN_MAX)
#define SECRET_MAX (PQPAN_ECDH_P256_SHARED_BYTES + PQPAN_MLKEM_SS_BYTES)
#define OUTBOX_MAX (PQPAN_MESH_PROV_PARTS_MAX + 1u)
#define PART_ROOM (PQPAN_MESH_PBADV_TRANSACTION_MAX - PQPAN_MESH_PROV_TYPE_BYTES - \
                   PQPAN_MESH_PROV_PART_BYTES)

struct outgoing {
    uint8_t pdu[PQPAN_MESH_PBADV_TRANSACTION_MAX];
    uint32_t len;
    uint32_t ops; /* crypto run since the previous PDU was queued (bits of enum pqpan_op) */
};

struct party {
    enum pqpan_mesh_prov_role role;
    uint8_t addr[ADV_A_BYTES];
    /* crypto */
    uint8_t ek[PQPAN_KEM_EK_MAX_BYTES], dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t p256_pk[PQPAN_ECDH_P256_PUBLIC_BYTES], p256_sk[PQPAN_ECDH_P256_SECRET_BYTES];
    uint8_t secret[SECRET_MAX];
    size_t secret_len;
    uint8_t key_run[2][KEY_RUN_MAX]; /* each side's Public Key octets, parts concatenated */
    uint32_t key_len[2], key_parts_got[2];
    uint8_t inputs[INPUTS_MAX];      /* Invite .. Start parameters, then the key runs */
    uint32_t inputs_len;
    uint8_t random[VALUE_BYTES], peer_random[VALUE_BYTES], peer_confirmation[VALUE_BYTES];
    uint8_t conf_salt[16], conf_key[16];
    uint32_t ops;                    /* crypto run since the last PDU was queued */
    /* sending */
    struct outgoing out[OUTBOX_MAX];
    uint32_t n_out, head;
    uint64_t ready_ns;
    uint8_t txn, acked;              /* current transaction number; its Ack received */
    /* receiving (§5.3.2 reassembly) */
    uint8_t rx[PQPAN_MESH_PBADV_TRANSACTION_MAX];
    uint32_t rx_total, rx_segn, rx_fcs;
    uint64_t rx_mask;
    int rx_open, rx_have_done;
    uint8_t rx_txn, rx_done_txn;
};

struct sim {
    struct pqpan_mesh_pbadv_sim_result *res;
    const struct pqpan_mesh_pbadv_sim_config *cfg;
    const struct pqpan_kem *kem;
    const uint64_t (*cycles)[PQPAN_OP_COUNT];
    struct mesh_pbadv_clock clock;
    struct pqpan_prng rng;
    struct party side[2];
    struct pqpan_mesh_prov_step plan[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t plan_n, plan_at;
    uint32_t link_id;
    uint8_t uuid[UUID_BYTES];
    uint8_t prov_data[PQPAN_MESH_PROV_DATA_BYTES];
    uint64_t last_rx_ns;   /* the last Provisioning PDU delivered */
    uint64_t ack_out_ns;   /* when the last Transaction Ack reached its peer */
    int failed, error;
};

static int rng_fill(struct sim *m, uint8_t *out, size_t len)
{
    return pqpan_prng_fill(&m->rng, out, len);
}

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

/* One advertising event of s: booked on the clock, each channel's PDU captured, the PDU
 * delivered to the peer at the clock's reception time. */
static void advertise(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at, uint8_t txn,
                      const uint8_t *gp, uint32_t gp_len, enum pqpan_phase phase)
{
    uint8_t pdu[PQPAN_LL_HDR_BYTES + ADV_A_BYTES + PQPAN_ADV_DATA_MAX + PQPAN_LL_CRC_BYTES];
    size_t len = adv_pdu(pdu, m, s, txn, gp, gp_len);
    uint64_t start, rx = pqpan_mesh_pbadv_clock_event(&m->clock, s, at, gp_len, phase, &start);
    uint32_t ch;
    for (ch = 0; ch < MESH_PBADV_CHANNELS && m->cfg->on_packet != NULL && m->error == 0; ch++) {
        uint64_t t = pqpan_mesh_pbadv_clock_channel_ns(&m->clock, s, start, ch, gp_len);
        if (m->cfg->on_packet(m->cfg->packet_ctx, t, (uint8_t)(MESH_PBADV_FIRST_CHANNEL + ch),
                              pdu, len) != 0) {
            m->error = PQPAN_ERR_IO;
        }
    }
    m->res->packets += MESH_PBADV_CHANNELS;
    deliver(m, (enum pqpan_mesh_prov_role)(1 - s), pdu, len, rx);
}

static void advertise_times(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at, uint8_t txn,
                            const uint8_t *gp, uint32_t gp_len, uint32_t times,
                            enum pqpan_phase phase)
{
    uint32_t i;
    for (i = 0; i < times && m->error == 0; i++) {
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

static void send_transaction(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t at,
                             const uint8_t *pdu, uint32_t len)
{
    struct party *p = &m->side[s];
    uint8_t gp[PQPAN_MESH_PBADV_GP_MTU];
    uint32_t segs = pqpan_mesh_pbadv_segments(len), i;
    p->acked = 0;
    for (i = 0; i < segs && m->error == 0; i++) {
        uint32_t gp_len = gp_segment(gp, pdu, len, i);
        advertise_times(m, s, at, p->txn, gp, gp_len, m->cfg->link.pdu_transmissions,
                        phase_of(pdu));
    }
    m->clock.out->segments[s] += segs;
    m->clock.out->transactions++;
    if (m->error == 0 && !p->acked) {
        m->error = PQPAN_ERR_STATE; /* zero loss: the Ack came with the last segment */
    }
    p->txn++;
}

static void handle_pdu(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *pdu,
                       uint32_t len, uint64_t t);

/* A whole transaction received: FCS and length checked (§5.3.2: a wrong FCS discards it),
 * the Transaction Ack sent, the Provisioning PDU handed to the protocol. */
static void transaction_done(struct sim *m, enum pqpan_mesh_prov_role to, uint64_t t)
{
    struct party *p = &m->side[to];
    uint8_t ack = GPCF_ACK;
    p->rx_open = 0;
    if (gp_fcs(p->rx, p->rx_total) != p->rx_fcs) {
        return;
    }
    p->rx_have_done = 1;
    p->rx_done_txn = p->rx_txn;
    advertise_times(m, to, t, p->rx_txn, &ack, PQPAN_MESH_PBADV_ACK_BYTES,
                    m->cfg->link.ack_transmissions, phase_of(p->rx));
    m->last_rx_ns = t;
    handle_pdu(m, to, p->rx, p->rx_total, t);
}

static void rx_start(struct party *p, uint8_t txn, const uint8_t *gp, uint32_t len)
{
    uint32_t total, data;
    if (len < PQPAN_MESH_PBADV_START_HDR_BYTES || (p->rx_have_done && txn == p->rx_done_txn)) {
        return; /* a copy of a transaction already received */
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
        p->rx_mask = 0;
    }
    p->rx_open = 1;
    p->rx_txn = txn;
    p->rx_total = total;
    p->rx_segn = (uint32_t)(gp[0] >> 2);
    p->rx_fcs = gp[3];
    p->rx_mask |= 1u;
    memcpy(p->rx, gp + PQPAN_MESH_PBADV_START_HDR_BYTES, data);
}

static void rx_continuation(struct party *p, uint8_t txn, const uint8_t *gp, uint32_t len)
{
    uint32_t idx = (uint32_t)(gp[0] >> 2), data = len - PQPAN_MESH_PBADV_CONT_HDR_BYTES;
    if (!p->rx_open || txn != p->rx_txn || idx == 0u || idx > p->rx_segn ||
        (p->rx_mask & ((uint64_t)1u << idx)) ||
        data != pqpan_mesh_pbadv_segment_data(p->rx_total, idx)) {
        return;
    }
    memcpy(p->rx + PQPAN_MESH_PBADV_START_DATA_MAX + (idx - 1u) * PQPAN_MESH_PBADV_CONT_DATA_MAX,
           gp + PQPAN_MESH_PBADV_CONT_HDR_BYTES, data);
    p->rx_mask |= (uint64_t)1u << idx;
}

static void rx_control(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *gp,
                       uint32_t len, uint64_t t)
{
    uint8_t opcode = (uint8_t)(gp[0] >> 2), ack = (uint8_t)((BEARER_LINK_ACK << 2) | GPCF_CONTROL);
    if (opcode == BEARER_LINK_OPEN && to == D && len == PQPAN_MESH_PBADV_LINK_OPEN_BYTES &&
        memcmp(gp + 1, m->uuid, UUID_BYTES) == 0 && m->side[D].ready_ns == 0u) {
        m->side[D].ready_ns = t;
        advertise_times(m, D, t, 0u, &ack, PQPAN_MESH_PBADV_LINK_ACK_BYTES,
                        m->cfg->link.ack_transmissions, PQPAN_PHASE_CONNECT);
    } else if (opcode == BEARER_LINK_ACK && to == P && m->side[P].ready_ns == 0u) {
        m->side[P].ready_ns = t;
    }
}

/* One advertising PDU received by to at t (zero loss): the PB-ADV AD structure parsed,
 * the Generic Provisioning PDU dispatched on its GPCF. */
static void deliver(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *pdu,
                    size_t len, uint64_t t)
{
    struct party *p = &m->side[to];
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
        rx_start(p, ad[6], gp, gp_len);
        break;
    case GPCF_CONT:
        rx_continuation(p, ad[6], gp, gp_len);
        break;
    case GPCF_ACK:
        if (ad[6] == p->txn && !p->acked) {
            p->acked = 1;
            p->ready_ns = t;
            m->ack_out_ns = t;
        }
        return;
    default:
        rx_control(m, to, gp, gp_len, t);
        return;
    }
    if (p->rx_open && p->rx_mask == (UINT64_MAX >> (63u - p->rx_segn))) {
        transaction_done(m, to, t);
    }
}

/* ---- the provisioning protocol (§5.4.2) ---------------------------------------------- */

/* Queues a Provisioning PDU of type with params[0..n); the crypto run since the last one
 * goes with it (booked before it is sent). */
static void queue(struct sim *m, enum pqpan_mesh_prov_role s, uint8_t type, const uint8_t *params,
                  uint32_t n, uint64_t ready)
{
    struct party *p = &m->side[s];
    struct outgoing *o;
    if (p->n_out >= OUTBOX_MAX) {
        m->error = PQPAN_ERR_STATE;
        return;
    }
    o = &p->out[p->n_out++];
    o->pdu[0] = type;
    if (n > 0u) {
        memcpy(o->pdu + PQPAN_MESH_PROV_TYPE_BYTES, params, n);
    }
    o->len = PQPAN_MESH_PROV_TYPE_BYTES + n;
    o->ops = p->ops;
    p->ops = 0;
    p->ready_ns = ready;
}

static void inputs_add(struct party *p, const uint8_t *data, uint32_t n)
{
    memcpy(p->inputs + p->inputs_len, data, n);
    p->inputs_len += n;
}

static int variant_has_p256(const struct sim *m)
{
    return m->cfg->link.keys.variant != PQPAN_MESH_PROV_MLKEM;
}

static int variant_has_kem(const struct sim *m)
{
    return m->cfg->link.keys.variant != PQPAN_MESH_PROV_P256;
}

/* The octets of role r's key run: X || Y (P-256, hybrid), then ek (provisioner) or ct. */
static uint32_t key_run_len(const struct sim *m, enum pqpan_mesh_prov_role r)
{
    uint32_t n = variant_has_p256(m) ? PQPAN_MESH_PROV_P256_KEY_BYTES : 0u;
    if (variant_has_kem(m)) {
        n += (uint32_t)(r == P ? m->kem->ek_bytes : m->kem->ct_bytes);
    }
    return n;
}

/* A side's Public Key PDU(s) (§5.4.1.4; pqpan's Part octet in the PQ variants,
 * docs/PROTOCOL.md §10): the run filled in order into parts of at most PART_ROOM octets. */
static void queue_key(struct sim *m, enum pqpan_mesh_prov_role s, uint64_t ready)
{
    struct party *p = &m->side[s];
    uint8_t params[PQPAN_MESH_PBADV_TRANSACTION_MAX];
    uint32_t len = p->key_len[s], parts, i, off = 0;
    if (!variant_has_kem(m)) {
        queue(m, s, PQPAN_MESH_PROV_PUBLIC_KEY, p->key_run[s], len, ready);
        return;
    }
    parts = (len + PART_ROOM - 1u) / PART_ROOM;
    for (i = 0; i < parts; i++) {
        uint32_t take = len - off < PART_ROOM ? len - off : PART_ROOM;
        params[0] = (uint8_t)((i << 4) | (parts - 1u));
        memcpy(params + PQPAN_MESH_PROV_PART_BYTES, p->key_run[s] + off, take);
        queue(m, s, PQPAN_MESH_PROV_PUBLIC_KEY, params, PQPAN_MESH_PROV_PART_BYTES + take, ready);
        off += take;
    }
}

/* The P-256 part of s's run: a fresh key pair, X || Y (§5.4.1.4: big-endian coordinates). */
static void make_p256_key(struct sim *m, struct party *p)
{
    int rc = pqpan_ecdh_p256_keypair(p->p256_pk, p->p256_sk, pqpan_prng_fill, &m->rng);
    if (rc != PQPAN_OK) {
        m->error = rc;
        return;
    }
    p->ops |= OP_BIT(PQPAN_OP_ECDH_KEYGEN);
    memcpy(p->key_run[p->role], p->p256_pk + 1, PQPAN_MESH_PROV_P256_KEY_BYTES);
    p->key_len[p->role] = PQPAN_MESH_PROV_P256_KEY_BYTES;
}

/* ECDHSecret from the peer's X || Y; written at the start of p->secret. */
static void p256_secret(struct sim *m, struct party *p)
{
    uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES];
    int rc;
    pk[0] = 0x04u; /* SEC 1 §2.3.3 uncompressed */
    memcpy(pk + 1, p->key_run[1 - p->role], PQPAN_MESH_PROV_P256_KEY_BYTES);
    rc = pqpan_ecdh_p256_shared(p->secret, p->p256_sk, pk, sizeof pk);
    if (rc != PQPAN_OK) {
        m->error = rc;
        return;
    }
    p->ops |= OP_BIT(PQPAN_OP_ECDH_SHARED);
    p->secret_len = variant_has_kem(m) ? SECRET_MAX : PQPAN_ECDH_P256_SHARED_BYTES;
}

/* The KEM's shared secret goes after ECDHSecret (hybrid) or alone (docs/PROTOCOL.md §10). */
static uint8_t *kem_secret(const struct sim *m, struct party *p)
{
    p->secret_len = variant_has_p256(m) ? SECRET_MAX : PQPAN_MLKEM_SS_BYTES;
    return p->secret + (variant_has_p256(m) ? PQPAN_ECDH_P256_SHARED_BYTES : 0u);
}

/* §5.4.2.4: ConfirmationSalt = s1(ConfirmationInputs), ConfirmationKey = k1(ECDHSecret,
 * ConfirmationSalt, "prck"), a fresh Random, Confirmation = AES-CMAC_ConfirmationKey(Random ||
 * AuthValue). */
static void make_confirmation(struct sim *m, struct party *p, uint8_t conf[VALUE_BYTES])
{
    static const uint8_t prck[4] = {'p', 'r', 'c', 'k'};
    uint8_t msg[VALUE_BYTES + AUTH_VALUE_BYTES];
    pqpan_mesh_s1(p->conf_salt, p->inputs, p->inputs_len);
    pqpan_mesh_k1(p->conf_key, p->secret, p->secret_len, p->conf_salt, prck, sizeof prck);
    if (rng_fill(m, p->random, VALUE_BYTES) != 0) {
        m->error = PQPAN_ERR_RNG;
    }
    memset(msg, 0, sizeof msg);
    memcpy(msg, p->random, VALUE_BYTES);
    pqpan_aes_cmac(conf, p->conf_key, msg, sizeof msg);
}

/* The peer's Confirmation against its Random (§5.4.2.4). */
static int confirmation_ok(const struct party *p)
{
    uint8_t msg[VALUE_BYTES + AUTH_VALUE_BYTES], want[VALUE_BYTES];
    memset(msg, 0, sizeof msg);
    memcpy(msg, p->peer_random, VALUE_BYTES);
    pqpan_aes_cmac(want, p->conf_key, msg, sizeof msg);
    return pqpan_ct_equal(want, p->peer_confirmation, VALUE_BYTES);
}

/* §5.4.2.5: ProvisioningSalt = s1(ConfirmationSalt || RandomProvisioner || RandomDevice);
 * SessionKey, SessionNonce (13 LSOs), DeviceKey = k1(ECDHSecret, ProvisioningSalt, "prsk" /
 * "prsn" / "prdk"). */
static void session_keys(struct sim *m, struct party *p, uint8_t nonce[PQPAN_MESH_NONCE_BYTES])
{
    static const uint8_t prsk[4] = {'p', 'r', 's', 'k'}, prsn[4] = {'p', 'r', 's', 'n'},
                         prdk[4] = {'p', 'r', 'd', 'k'};
    uint8_t in[16 + 2 * VALUE_BYTES], salt[16], n16[16];
    const uint8_t *rp = p->role == P ? p->random : p->peer_random;
    const uint8_t *rd = p->role == P ? p->peer_random : p->random;
    memcpy(in, p->conf_salt, 16);
    memcpy(in + 16, rp, VALUE_BYTES);
    memcpy(in + 16 + VALUE_BYTES, rd, VALUE_BYTES);
    pqpan_mesh_s1(salt, in, sizeof in);
    pqpan_mesh_k1(m->res->session_key[p->role], p->secret, p->secret_len, salt, prsk, 4);
    pqpan_mesh_k1(n16, p->secret, p->secret_len, salt, prsn, 4);
    pqpan_mesh_k1(m->res->device_key[p->role], p->secret, p->secret_len, salt, prdk, 4);
    memcpy(nonce, n16 + 16 - PQPAN_MESH_NONCE_BYTES, PQPAN_MESH_NONCE_BYTES);
}

/* A Public Key PDU into the sender's run (parts in index order); 1 when the run is whole. */
static int take_key_part(struct sim *m, struct party *p, enum pqpan_mesh_prov_role from,
                         const uint8_t *params, uint32_t n)
{
    uint32_t want = key_run_len(m, from), idx, parts;
    if (!variant_has_kem(m)) {
        if (n != want) {
            m->error = PQPAN_ERR_MALFORMED;
            return 0;
        }
        memcpy(p->key_run[from], params, n);
        p->key_len[from] = n;
        return 1;
    }
    idx = (uint32_t)(params[0] >> 4);
    parts = (uint32_t)(params[0] & 0x0Fu) + 1u;
    n -= PQPAN_MESH_PROV_PART_BYTES;
    if (n == 0u || idx != p->key_parts_got[from] || parts > PQPAN_MESH_PROV_PARTS_MAX ||
        p->key_len[from] + n > want) {
        m->error = PQPAN_ERR_MALFORMED;
        return 0;
    }
    memcpy(p->key_run[from] + p->key_len[from], params + PQPAN_MESH_PROV_PART_BYTES, n);
    p->key_len[from] += n;
    p->key_parts_got[from]++;
    if (idx + 1u < parts) {
        return 0;
    }
    if (p->key_len[from] != want) {
        m->error = PQPAN_ERR_MALFORMED;
        return 0;
    }
    return 1;
}

/* Both runs in ConfirmationInputs: the provisioner's, then the device's (§5.4.2.4). */
static void inputs_add_keys(struct party *p)
{
    inputs_add(p, p->key_run[P], p->key_len[P]);
    inputs_add(p, p->key_run[D], p->key_len[D]);
}

/* Device: both keys known after the provisioner's; P-256 key pair and / or Encaps. */
static void device_public_key(struct sim *m, struct party *p, uint64_t t)
{
    int rc;
    if (variant_has_p256(m)) {
        make_p256_key(m, p);
    }
    if (variant_has_kem(m) && m->error == 0) {
        const uint8_t *ek = p->key_run[P] + (variant_has_p256(m) ? PQPAN_MESH_PROV_P256_KEY_BYTES : 0u);
        uint8_t *ct = p->key_run[D] + p->key_len[D];
        rc = m->kem->encaps(ct, kem_secret(m, p), ek, pqpan_prng_fill, &m->rng);
        if (rc != PQPAN_OK) {
            m->error = rc;
            return;
        }
        p->ops |= OP_BIT(PQPAN_OP_KEM_ENCAPS);
        p->key_len[D] += (uint32_t)m->kem->ct_bytes;
    }
    inputs_add_keys(p);
    queue_key(m, D, t);
}

/* Provisioner: its own key run after the Start (P-256 key pair and / or ML-KEM KeyGen). */
static void provisioner_public_key(struct sim *m, struct party *p, uint64_t t)
{
    int rc;
    if (variant_has_p256(m)) {
        make_p256_key(m, p);
    }
    if (variant_has_kem(m) && m->error == 0) {
        rc = m->kem->keypair(p->ek, p->dk, pqpan_prng_fill, &m->rng);
        if (rc != PQPAN_OK) {
            m->error = rc;
            return;
        }
        p->ops |= OP_BIT(PQPAN_OP_KEM_KEYGEN);
        memcpy(p->key_run[P] + p->key_len[P], p->ek, m->kem->ek_bytes);
        p->key_len[P] += (uint32_t)m->kem->ek_bytes;
    }
    queue_key(m, P, t);
}

/* The Capabilities the device sends (§5.4.1.2): one element, the CMAC algorithm, no OOB
 * public key, no static, output or input OOB. */
static void device_capabilities(struct sim *m, struct party *p, uint64_t t)
{
    uint8_t caps[PQPAN_MESH_PROV_CAPABILITIES_PARAMS];
    memset(caps, 0, sizeof caps);
    caps[0] = 1u;
    caps[1] = (uint8_t)(ALGORITHMS_CMAC >> 8);
    caps[2] = (uint8_t)ALGORITHMS_CMAC;
    inputs_add(p, caps, sizeof caps);
    queue(m, D, PQPAN_MESH_PROV_CAPABILITIES, caps, sizeof caps, t);
}

/* The provisioner's Start (§5.4.1.3): CMAC algorithm, No OOB public key and authentication. */
static void provisioner_start(struct sim *m, struct party *p, const uint8_t *caps, uint64_t t)
{
    uint8_t start[PQPAN_MESH_PROV_START_PARAMS];
    if (caps[0] == 0u || (((uint32_t)caps[1] << 8 | caps[2]) & ALGORITHMS_CMAC) == 0u) {
        m->error = PQPAN_ERR_SUITE;
        return;
    }
    inputs_add(p, caps, PQPAN_MESH_PROV_CAPABILITIES_PARAMS);
    memset(start, 0, sizeof start);
    inputs_add(p, start, sizeof start);
    queue(m, P, PQPAN_MESH_PROV_START, start, sizeof start, t);
    provisioner_public_key(m, p, t);
}

static void fail(struct sim *m, uint8_t code, uint64_t t)
{
    m->failed = 1;
    queue(m, D, PQPAN_MESH_PROV_FAILED, &code, 1u, t);
}

/* Provisioner: the device's Random checked, the Provisioning Data encrypted (§5.4.2.5:
 * AES-CCM with SessionKey and SessionNonce, 64-bit MIC). */
static void provisioner_data(struct sim *m, struct party *p, uint64_t t)
{
    uint8_t nonce[PQPAN_MESH_NONCE_BYTES], data[PQPAN_MESH_PROV_DATA_BYTES + PQPAN_MESH_PROV_MIC_BYTES];
    int rc;
    if (!confirmation_ok(p)) {
        m->failed = 1; /* the provisioner ends the run: Link Close, reason Fail */
        return;
    }
    session_keys(m, p, nonce);
    memcpy(data, m->prov_data, PQPAN_MESH_PROV_DATA_BYTES);
    rc = pqpan_802154_ccm_star_encrypt(data, PQPAN_MESH_PROV_DATA_BYTES,
                                       data + PQPAN_MESH_PROV_DATA_BYTES, PQPAN_MESH_PROV_MIC_BYTES,
                                       m->res->session_key[P], nonce, NULL, 0);
    if (rc != PQPAN_OK) {
        m->error = rc;
        return;
    }
    memcpy(m->res->net_key[P], m->prov_data, PQPAN_MESH_KEY_BYTES);
    queue(m, P, PQPAN_MESH_PROV_DATA, data, sizeof data, t);
}

/* Device: the Provisioning Data decrypted and its MIC checked. */
static void device_data(struct sim *m, struct party *p, const uint8_t *params, uint64_t t)
{
    uint8_t nonce[PQPAN_MESH_NONCE_BYTES], data[PQPAN_MESH_PROV_DATA_BYTES];
    session_keys(m, p, nonce);
    memcpy(data, params, sizeof data);
    if (pqpan_802154_ccm_star_decrypt(data, sizeof data, params + PQPAN_MESH_PROV_DATA_BYTES,
                                      PQPAN_MESH_PROV_MIC_BYTES, m->res->session_key[D], nonce,
                                      NULL, 0) != PQPAN_OK) {
        fail(m, PQPAN_MESH_PROV_ERR_DECRYPTION_FAILED, t);
        return;
    }
    memcpy(m->res->net_key[D], data, PQPAN_MESH_KEY_BYTES);
    queue(m, D, PQPAN_MESH_PROV_COMPLETE, NULL, 0u, t);
}

/* The provisioner's and device's Confirmation after both keys: secrets first. */
static void confirm(struct sim *m, struct party *p, uint64_t t)
{
    uint8_t conf[VALUE_BYTES];
    int rc;
    if (variant_has_kem(m) && p->role == P) {
        size_t off = variant_has_p256(m) ? PQPAN_MESH_PROV_P256_KEY_BYTES : 0u;
        rc = m->kem->decaps(kem_secret(m, p), p->key_run[D] + off, p->dk);
        if (rc != PQPAN_OK) {
            m->error = rc;
            return;
        }
        p->ops |= OP_BIT(PQPAN_OP_KEM_DECAPS);
    }
    if (variant_has_p256(m)) {
        p256_secret(m, p);
    }
    make_confirmation(m, p, conf);
    if (p->role == P && m->cfg->corrupt_confirmation) {
        conf[0] ^= 0x01u; /* a substituted Confirmation: its FCS is recomputed, it passes */
    }
    queue(m, p->role, PQPAN_MESH_PROV_CONFIRMATION, conf, VALUE_BYTES, t);
}

static void device_pdu(struct sim *m, struct party *p, const uint8_t *pdu, uint32_t n, uint64_t t)
{
    const uint8_t *prm = pdu + PQPAN_MESH_PROV_TYPE_BYTES;
    switch (pdu[0]) {
    case PQPAN_MESH_PROV_INVITE:
        inputs_add(p, prm, PQPAN_MESH_PROV_INVITE_PARAMS);
        device_capabilities(m, p, t);
        break;
    case PQPAN_MESH_PROV_START:
        if (prm[0] != PQPAN_MESH_PROV_ALG_CMAC || prm[1] != 0u || prm[2] != 0u) {
            m->error = PQPAN_ERR_SUITE;
            return;
        }
        inputs_add(p, prm, PQPAN_MESH_PROV_START_PARAMS);
        break;
    case PQPAN_MESH_PROV_PUBLIC_KEY:
        if (take_key_part(m, p, P, prm, n - PQPAN_MESH_PROV_TYPE_BYTES)) {
            device_public_key(m, p, t);
        }
        break;
    case PQPAN_MESH_PROV_CONFIRMATION:
        memcpy(p->peer_confirmation, prm, VALUE_BYTES);
        confirm(m, p, t);
        break;
    case PQPAN_MESH_PROV_RANDOM:
        memcpy(p->peer_random, prm, VALUE_BYTES);
        if (!confirmation_ok(p)) {
            fail(m, PQPAN_MESH_PROV_ERR_CONFIRMATION_FAILED, t);
        } else {
            queue(m, D, PQPAN_MESH_PROV_RANDOM, p->random, VALUE_BYTES, t);
        }
        break;
    case PQPAN_MESH_PROV_DATA:
        device_data(m, p, prm, t);
        break;
    default:
        m->error = PQPAN_ERR_STATE;
    }
}

static void provisioner_pdu(struct sim *m, struct party *p, const uint8_t *pdu, uint32_t n,
                            uint64_t t)
{
    const uint8_t *prm = pdu + PQPAN_MESH_PROV_TYPE_BYTES;
    switch (pdu[0]) {
    case PQPAN_MESH_PROV_CAPABILITIES:
        provisioner_start(m, p, prm, t);
        break;
    case PQPAN_MESH_PROV_PUBLIC_KEY:
        if (take_key_part(m, p, D, prm, n - PQPAN_MESH_PROV_TYPE_BYTES)) {
            inputs_add_keys(p);
            confirm(m, p, t);
        }
        break;
    case PQPAN_MESH_PROV_CONFIRMATION:
        memcpy(p->peer_confirmation, prm, VALUE_BYTES);
        queue(m, P, PQPAN_MESH_PROV_RANDOM, p->random, VALUE_BYTES, t);
        break;
    case PQPAN_MESH_PROV_RANDOM:
        memcpy(p->peer_random, prm, VALUE_BYTES);
        provisioner_data(m, p, t);
        break;
    case PQPAN_MESH_PROV_COMPLETE:
        m->res->complete = 1;
        break;
    case PQPAN_MESH_PROV_FAILED:
        m->res->failed_code = prm[0];
        m->failed = 1;
        break;
    default:
        m->error = PQPAN_ERR_STATE;
    }
}

/* §5.4.1: each PDU's length is fixed by its Type, but for the Public Keys. */
static void handle_pdu(struct sim *m, enum pqpan_mesh_prov_role to, const uint8_t *pdu,
                       uint32_t len, uint64_t t)
{
    static const uint8_t params[PQPAN_MESH_PROV_FAILED + 1] = {
        PQPAN_MESH_PROV_INVITE_PARAMS, PQPAN_MESH_PROV_CAPABILITIES_PARAMS,
        PQPAN_MESH_PROV_START_PARAMS, 0u, 0u, VALUE_BYTES, VALUE_BYTES,
        PQPAN_MESH_PROV_DATA_PARAMS, 0u, 1u};
    if (pdu[0] > PQPAN_MESH_PROV_FAILED ||
        (pdu[0] == PQPAN_MESH_PROV_PUBLIC_KEY ? len < 2u : len != 1u + params[pdu[0]])) {
        m->error = PQPAN_ERR_MALFORMED;
        return;
    }
    if (to == D) {
        device_pdu(m, &m->side[D], pdu, len, t);
    } else {
        provisioner_pdu(m, &m->side[P], pdu, len, t);
    }
}

/* ---- the run ------------------------------------------------------------------------ */

/* The PDU about to go must be the plan's next step (sender, Type, length, the crypto
 * before it): the executed run and the estimator's plan are the same run (zero loss). A
 * failed run departs from the plan at its Provisioning Failed. */
static int follows_plan(struct sim *m, enum pqpan_mesh_prov_role s, const struct outgoing *o)
{
    const struct pqpan_mesh_prov_step *st;
    if (m->failed) {
        return 1;
    }
    if (m->plan_at >= m->plan_n) {
        return 0;
    }
    st = &m->plan[m->plan_at++];
    return st->sender == s && (uint8_t)st->type == o->pdu[0] && st->length == o->len &&
           st->ops_before == o->ops;
}

/* Link Open (§5.3.1.4: the device's UUID) and the device's Link Ack; Transaction Number 0. */
static void open_link(struct sim *m)
{
    uint8_t open[PQPAN_MESH_PBADV_LINK_OPEN_BYTES];
    open[0] = (uint8_t)((BEARER_LINK_OPEN << 2) | GPCF_CONTROL);
    memcpy(open + 1, m->uuid, UUID_BYTES);
    advertise_times(m, P, 0u, 0u, open, sizeof open, m->cfg->link.pdu_transmissions,
                    PQPAN_PHASE_CONNECT);
    if (m->side[P].ready_ns == 0u && m->error == 0) {
        m->error = PQPAN_ERR_STATE;
    }
}

static void close_link(struct sim *m)
{
    uint8_t close[PQPAN_MESH_PBADV_LINK_CLOSE_BYTES];
    close[0] = (uint8_t)((BEARER_LINK_CLOSE << 2) | GPCF_CONTROL);
    close[1] = m->res->complete ? CLOSE_SUCCESS : CLOSE_FAIL;
    advertise_times(m, P, m->ack_out_ns, 0u, close, sizeof close,
                    m->cfg->link.close_transmissions, PQPAN_PHASE_CONFIRM);
}

/* Sends whatever a side has queued, one transaction at a time, until neither has any. */
static void exchange(struct sim *m)
{
    uint8_t invite = 0u; /* Attention Duration 0 s (§5.4.1.1) */
    struct party *pv = &m->side[P];
    inputs_add(pv, &invite, 1u);
    queue(m, P, PQPAN_MESH_PROV_INVITE, &invite, 1u, pv->ready_ns);
    while (m->error == 0) {
        enum pqpan_mesh_prov_role s = m->side[P].head < m->side[P].n_out ? P : D;
        struct party *p = &m->side[s];
        struct outgoing *o;
        uint64_t t;
        if (p->head >= p->n_out) {
            break;
        }
        o = &p->out[p->head++];
        if (!follows_plan(m, s, o)) {
            m->error = PQPAN_ERR_STATE;
            break;
        }
        t = pqpan_mesh_pbadv_clock_compute(&m->clock, s, p->ready_ns, o->ops, m->cycles[s]);
        m->res->prov_pdus[s]++;
        send_transaction(m, s, t, o->pdu, o->len);
        if (p->head == p->n_out) {
            p->head = p->n_out = 0;
        }
    }
}

static void party_init(struct party *p, enum pqpan_mesh_prov_role r, uint64_t seed)
{
    uint32_t i;
    p->role = r;
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
    m->kem = pqpan_kem_by_id(cfg->link.keys.kem);
    if (cfg->link.keys.variant != PQPAN_MESH_PROV_P256 && m->kem == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_mesh_prov_plan(m->plan, &m->plan_n, cfg->link.keys.variant, cfg->link.keys.kem,
                              cfg->link.keys.alg, PQPAN_MESH_PBADV_TRANSACTION_MAX);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_mesh_pbadv_clock_init(&m->clock, &res->run, &cfg->link, dev);
    pqpan_prng_seed(&m->rng, cfg->seed);
    party_init(&m->side[P], P, cfg->seed);
    party_init(&m->side[D], D, cfg->seed);
    /* Link ID (§5.2.1: random, chosen by the provisioner), the device's UUID, the
     * Provisioning Data: NetKey, Key Index 0, Flags 0, IV Index 0, unicast address 0x0002
     * (the provisioner's 0x0001). */
    if (rng_fill(m, id, sizeof id) != 0 || rng_fill(m, m->uuid, UUID_BYTES) != 0 ||
        rng_fill(m, m->prov_data, PQPAN_MESH_KEY_BYTES) != 0) {
        return PQPAN_ERR_RNG;
    }
    m->link_id = ((uint32_t)id[0] << 24) | ((uint32_t)id[1] << 16) | ((uint32_t)id[2] << 8) | id[3];
    m->prov_data[PQPAN_MESH_PROV_DATA_BYTES - 1u] = 0x02u;
    return PQPAN_OK;
}

void pqpan_mesh_pbadv_sim_config_default(struct pqpan_mesh_pbadv_sim_config *c)
{
    memset(c, 0, sizeof *c);
    pqpan_mesh_pbadv_config_default(&c->link);
    c->link.keys.alg = PQPAN_MESH_PROV_ALG_CMAC;
    c->seed = 1u;
}

static void finish(struct sim *m)
{
    struct pqpan_mesh_pbadv_sim_result *r = m->res;
    r->run.latency_ns = m->last_rx_ns;
    pqpan_mesh_pbadv_clock_finish(&m->clock);
    r->keys_equal = r->complete &&
                    memcmp(r->session_key[P], r->session_key[D], PQPAN_MESH_KEY_BYTES) == 0 &&
                    memcmp(r->device_key[P], r->device_key[D], PQPAN_MESH_KEY_BYTES) == 0 &&
                    memcmp(r->net_key[P], r->net_key[D], PQPAN_MESH_KEY_BYTES) == 0;
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
    if (cfg == NULL || dev == NULL || cycles == NULL || !pqpan_mesh_pbadv_config_ok(&cfg->link)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cfg->link.keys.alg != PQPAN_MESH_PROV_ALG_CMAC) {
        return PQPAN_ERR_UNSUPPORTED; /* HMAC-SHA-256: no SHA-256 in src/crypto */
    }
    m = calloc(1, sizeof *m);
    if (m == NULL) {
        return PQPAN_ERR_CAPACITY;
    }
    rc = sim_setup(m, res, cfg, dev, cycles);
    if (rc == PQPAN_OK) {
        open_link(m);
        if (m->error == 0) {
            exchange(m);
        }
        if (m->error == 0) {
            close_link(m);
        }
        finish(m);
        rc = m->error;
    }
    pqpan_wipe(m, sizeof *m);
    free(m);
    if (rc != PQPAN_OK) {
        memset(res, 0, sizeof *res);
    }
    return rc;
}
