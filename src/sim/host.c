/* The simulator's hosts: L2CAP (basic frames, LE credit-based channel: Core v5.4 Vol 3
 * Part A §3.4, §4.22-§4.24, §10.1), ATT/GATT transfer of the application's messages
 * (Vol 3 Part F §3.4, Part G §4.9-§4.11) or SMP PDUs on the Security Manager channel
 * (Vol 3 Part H §3), and the application itself.
 *
 * Receive paths are driven by a table of ATT opcode handlers. What a host decides while
 * an event runs (responses, confirmations, credits, the next message) becomes sendable
 * when the host runs at the event's end, so replies go in the next event; message PDUs
 * already decided move to the link layer as soon as it has room. */
#include <string.h>

#include "pqpan/sim.h"
#include "sim/sim_internal.h"

#include "ble/le_bytes.h"

/* How one message goes: the ATT procedure, K-frames, or SMP PDUs. */
enum xfer { X_NOTIFY, X_INDICATE, X_WRITE_REQ, X_WRITE_CMD, X_LONG, X_COC, X_SMP };

/* How side n sends its messages: over GATT with its GATT role's method
 * (pqpan_ble_config_procedure: the study preset's ek by indications, ct by write requests). */
static enum xfer xfer_of(const struct pqpan_sim *s, int n)
{
    if (s->cfg.transport == PQPAN_SIM_L2CAP_COC) {
        return X_COC;
    }
    if (s->cfg.transport == PQPAN_SIM_SMP) {
        return X_SMP;
    }
    switch (pqpan_ble_config_procedure(&s->cfg.ble, (enum pqpan_ble_role)n)) {
    case PQPAN_BLE_NOTIFY:
        return X_NOTIFY;
    case PQPAN_BLE_INDICATE:
        return X_INDICATE;
    case PQPAN_BLE_WRITE_REQ:
        return X_WRITE_REQ;
    case PQPAN_BLE_WRITE_CMD:
        return X_WRITE_CMD;
    default:
        return X_LONG;
    }
}

static int is_ek_of(const struct pqpan_sim *s, int sender)
{
    return sender == (int)s->cfg.ble.keygen_side;
}

/* The study preset puts a frame-number octet before each ct value (the other side's
 * messages than the KeyGen side's). */
static int has_frame_number(const struct pqpan_sim *s, int sender)
{
    return s->cfg.transport == PQPAN_SIM_GATT &&
           pqpan_ble_config_transfer(&s->cfg.ble, (enum pqpan_ble_role)sender) == PQPAN_BLE_STUDY &&
           !is_ek_of(s, sender);
}

static int other_side(int n)
{
    return 1 - n;
}

static uint16_t coc_cid(int n)
{
    return n == PQPAN_BLE_CENTRAL ? SIM_COC_CID_CENTRAL : SIM_COC_CID_PERIPHERAL;
}

/* K-frame payload limit: one K-frame per LL PDU (MPS ≥ 23, Vol 3 Part A §4.22). */
static uint16_t coc_mps(const struct pqpan_sim *s)
{
    return (uint16_t)(s->ll_octets - PQPAN_L2CAP_HDR_BYTES);
}

/* ---- building L2CAP PDUs ---------------------------------------------------------- */

static int l2cap_to(struct pqpan_sim_l2cap *out, uint16_t cid, const uint8_t *info, size_t len)
{
    struct pqpan_l2cap_hdr h;
    if (len > PQPAN_SIM_L2CAP_MAX - PQPAN_L2CAP_HDR_BYTES) {
        return PQPAN_ERR_CAPACITY;
    }
    h.length = (uint16_t)len;
    h.cid = cid;
    memcpy(out->b + PQPAN_L2CAP_HDR_BYTES, info, len);
    out->len = (uint16_t)(PQPAN_L2CAP_HDR_BYTES + len);
    return pqpan_l2cap_pdu_hdr_write(out->b, &h);
}

/* An ATT PDU on the ATT fixed channel, into the reply queue. */
int pqpan_sim_reply_att(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    struct pqpan_sim_l2cap out;
    uint8_t b[PQPAN_ATT_MAX_MTU];
    size_t w;
    int rc = pqpan_att_pdu_write(b, sizeof b, p, &w);
    rc = rc != PQPAN_OK ? rc : l2cap_to(&out, PQPAN_L2CAP_CID_ATT, b, w);
    s->res.counts.att_pdus[n]++;
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_reply(s, n, out.b, out.len);
}

int pqpan_sim_reply_opcode(struct pqpan_sim *s, int n, uint8_t opcode)
{
    struct pqpan_att_pdu p;
    memset(&p, 0, sizeof p);
    p.opcode = opcode;
    return pqpan_sim_reply_att(s, n, &p);
}

/* ---- sending a message ------------------------------------------------------------ */

/* The next ATT PDU of a GATT message (value sizes from pqpan_ble_plan_message). */
static int next_att(struct pqpan_sim *s, int n, struct pqpan_sim_l2cap *out)
{
    struct pqpan_sim_node *nd = &s->node[n];
    enum xfer x = xfer_of(s, n);
    struct pqpan_att_pdu p;
    uint8_t value[PQPAN_ATT_MAX_MTU];
    uint32_t left = (uint32_t)nd->out_len - nd->out_sent, v;
    uint8_t b[PQPAN_ATT_MAX_MTU];
    size_t w, extra = has_frame_number(s, n) ? 1u : 0u;
    int rc;
    memset(&p, 0, sizeof p);
    p.handle = SIM_ATT_HANDLE;
    if (x == X_LONG) {
        uint32_t part = s->att_mtu - PQPAN_ATT_PREPARE_HDR;
        if (nd->lw_value_len == 0u) {
            nd->lw_value_len = (uint16_t)(left < PQPAN_BLE_ATT_VALUE_MAX ? left : PQPAN_BLE_ATT_VALUE_MAX);
            nd->lw_value_off = 0;
        }
        if (nd->lw_value_off == nd->lw_value_len) {
            p.opcode = PQPAN_ATT_EXECUTE_WRITE_REQ;
            p.flags = 1; /* §3.4.6.3: write all prepared values */
            nd->lw_value_len = 0;
        } else {
            v = (uint32_t)nd->lw_value_len - nd->lw_value_off;
            v = v < part ? v : part;
            p.opcode = PQPAN_ATT_PREPARE_WRITE_REQ;
            p.offset = nd->lw_value_off;
            p.value = nd->out + nd->out_sent;
            p.value_len = v;
            nd->lw_value_off = (uint16_t)(nd->lw_value_off + v);
            nd->out_sent = (uint16_t)(nd->out_sent + v);
        }
        nd->wait_rsp = 1;
    } else {
        v = left < nd->out_unit ? left : nd->out_unit;
        value[0] = (uint8_t)nd->out_seq;
        memcpy(value + extra, nd->out + nd->out_sent, v);
        p.value = value;
        p.value_len = v + extra;
        p.opcode = x == X_NOTIFY      ? PQPAN_ATT_HANDLE_VALUE_NTF
                   : x == X_INDICATE  ? PQPAN_ATT_HANDLE_VALUE_IND
                   : x == X_WRITE_REQ ? PQPAN_ATT_WRITE_REQ
                                      : PQPAN_ATT_WRITE_CMD;
        nd->wait_rsp = (uint8_t)(x == X_INDICATE || x == X_WRITE_REQ);
        nd->out_sent = (uint16_t)(nd->out_sent + v);
    }
    nd->out_seq++;
    rc = pqpan_att_pdu_write(b, sizeof b, &p, &w);
    if (rc == PQPAN_OK) {
        s->res.counts.att_pdus[n]++;
    }
    return rc != PQPAN_OK ? rc : l2cap_to(out, PQPAN_L2CAP_CID_ATT, b, w);
}

/* The next K-frame of the SDU (§3.4.2: the first carries the SDU length). */
static int next_kframe(struct pqpan_sim *s, int n, struct pqpan_sim_l2cap *out)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint8_t b[PQPAN_LL_DATA_MAX_PAYLOAD];
    uint32_t mps = coc_mps(s), left = (uint32_t)nd->out_len - nd->out_sent, head = 0, v;
    if (nd->out_sent == 0u) {
        put_le16(b, nd->out_len);
        head = PQPAN_L2CAP_SDU_LEN_BYTES;
    }
    v = left < mps - head ? left : mps - head;
    memcpy(b + head, nd->out + nd->out_sent, v);
    nd->out_sent = (uint16_t)(nd->out_sent + v);
    nd->coc_credits--;
    s->res.counts.att_pdus[n]++;
    return l2cap_to(out, coc_cid(other_side(n)), b, head + v);
}

/* The next SMP PDU of the message: the message is SMP PDUs back to back, each of the
 * length its code has (Vol 3 Part H §3.5), each sent in its own L2CAP basic frame on the
 * Security Manager channel (Vol 3 Part H §3.2). */
static int next_smp(struct pqpan_sim *s, int n, struct pqpan_sim_l2cap *out)
{
    struct pqpan_sim_node *nd = &s->node[n];
    size_t len = pqpan_smp_pdu_len(nd->out[nd->out_sent]);
    if (len == 0 || len > (size_t)nd->out_len - nd->out_sent) {
        return PQPAN_ERR_MALFORMED;
    }
    nd->out_sent = (uint16_t)(nd->out_sent + len);
    s->res.counts.att_pdus[n]++;
    return l2cap_to(out, PQPAN_L2CAP_CID_SMP, nd->out + nd->out_sent - len, len);
}

/* 1 if every octet of side n's message has gone out (a long write: executed too). */
static int out_all_sent(const struct pqpan_sim *s, int n)
{
    const struct pqpan_sim_node *nd = &s->node[n];
    return nd->out_sent == nd->out_len && !(xfer_of(s, n) == X_LONG && nd->lw_value_len != 0u);
}

int pqpan_sim_host_pump(struct pqpan_sim *s, int n)
{
    struct pqpan_sim_node *nd = &s->node[n];
    enum xfer x = xfer_of(s, n);
    while (nd->out_busy && !nd->out_ready_pending && !nd->wait_rsp &&
           nd->txq_n < PQPAN_SIM_TXQ) {
        struct pqpan_sim_l2cap *pdu = txq_at(nd, nd->txq_n);
        int rc;
        if (out_all_sent(s, n)) {
            nd->out_busy = 0;
            break;
        }
        if (x == X_COC) {
            if (nd->coc_credits == 0u) {
                break;
            }
            rc = next_kframe(s, n, pdu);
        } else if (x == X_SMP) {
            rc = next_smp(s, n, pdu);
        } else {
            rc = next_att(s, n, pdu);
        }
        if (rc != PQPAN_OK) {
            return rc;
        }
        nd->txq_n++;
    }
    return PQPAN_OK;
}

/* Takes the application's output of side n: sent once its CPU has finished the first
 * ready_after operations it has queued (its crypto). */
static int start_message(struct pqpan_sim *s, int n, const uint8_t *msg, size_t len,
                         uint32_t ready_after)
{
    struct pqpan_sim_node *nd = &s->node[n];
    struct pqpan_ble_txn t[PQPAN_BLE_TXN_MAX];
    uint32_t cnt = 0;
    int rc;
    if (len == 0) {
        return PQPAN_OK;
    }
    if (nd->out_busy && !nd->wait_rsp && out_all_sent(s, n)) {
        /* The last message is out and answered; the pump has not yet noticed (numeric's
         * REVEAL follows RESP on the same side, with FIN and RESP's last answer in one event). */
        nd->out_busy = 0;
    }
    if (nd->out_busy || len > PQPAN_SIM_MSG_MAX) {
        return PQPAN_ERR_STATE;
    }
    nd->is_ek = (uint8_t)is_ek_of(s, n);
    s->messages++;
    rc = s->cfg.transport != PQPAN_SIM_GATT
             ? PQPAN_OK
             : pqpan_ble_plan_message(t, &cnt,
                                      pqpan_ble_config_transfer(&s->cfg.ble, (enum pqpan_ble_role)n),
                                      nd->is_ek, (uint32_t)len, s->att_mtu,
                                      (enum pqpan_ble_role)n, PQPAN_PHASE_KEY_TRANSFER);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (s->cfg.transport == PQPAN_SIM_GATT) {
        nd->out_unit = (uint16_t)(t[0].len - PQPAN_ATT_HANDLE_VALUE_HDR -
                                  (has_frame_number(s, n) ? 1u : 0u));
    }
    memcpy(nd->out, msg, len);
    nd->out_len = (uint16_t)len;
    nd->out_sent = 0;
    nd->out_seq = 0;
    nd->lw_value_len = 0;
    nd->out_busy = 1;
    nd->out_ready_pending = 1;
    return pqpan_sim_ready_after(s, n, ready_after);
}

/* ---- the application -------------------------------------------------------------- */

/* The host takes an LTK from its application (struct pqpan_sim_work): the central
 * starts the LL encryption with it at once. */
static int take_ltk(struct pqpan_sim *s, int n, const uint8_t *ltk)
{
    struct pqpan_sim_node *nd = &s->node[n];
    memcpy(nd->ltk, ltk, sizeof nd->ltk);
    nd->has_ltk = 1;
    return n == PQPAN_BLE_CENTRAL ? pqpan_sim_start_encryption(s) : PQPAN_OK;
}

static int app_step(struct pqpan_sim *s, int n, int rc, const uint8_t *out, size_t out_len,
                    const struct pqpan_sim_work *w)
{
    uint32_t queued = 0, ready_after;
    if (rc == PQPAN_OK) {
        rc = pqpan_sim_queue_crypto(s, n, w->ops, &queued);
    }
    /* the message waits for this step's operations (and so for those queued before
     * them); one that needs none goes at once */
    ready_after = queued > 0u ? s->node[n].cpu.n : 0u;
    if (rc == PQPAN_OK) {
        rc = pqpan_sim_queue_crypto(s, n, w->ops_after, NULL);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (w->last_step && queued == 0u && s->crypto_started) {
        /* the exchange's last step computes nothing (its check is in the key schedule's
         * cost): the latency ends when it runs, once the CPU is the application's again */
        uint64_t t = s->node[n].cpu.free_ns > s->now_ns ? s->node[n].cpu.free_ns : s->now_ns;
        s->crypto_last_ns = t > s->crypto_last_ns ? t : s->crypto_last_ns;
    }
    if (w->done) {
        s->node[n].done = 1;
    }
    rc = start_message(s, n, out, out_len, ready_after);
    return rc == PQPAN_OK && w->ltk != NULL ? take_ltk(s, n, w->ltk) : rc;
}

int pqpan_sim_host_start_app(struct pqpan_sim *s, const struct pqpan_sim_app *app,
                             void *app_ctx)
{
    uint8_t out[PQPAN_SIM_MSG_MAX];
    struct pqpan_sim_work w;
    size_t out_len = 0;
    /* SMP pairing starts at the central, the initiator (Vol 3 Part H §2.3) */
    int k = s->cfg.transport == PQPAN_SIM_SMP ? PQPAN_BLE_CENTRAL : (int)s->cfg.ble.keygen_side;
    int i, rc;
    memset(&w, 0, sizeof w);
    rc = app->start(app_ctx, (enum pqpan_ble_role)k, out, sizeof out, &out_len, &w);
    for (i = 0; i < 2; i++) {
        s->node[i].in_expect = (uint16_t)app->expect(app_ctx, (enum pqpan_ble_role)i);
    }
    return app_step(s, k, rc, out, out_len, &w);
}

static int deliver(struct pqpan_sim *s, int n, const struct pqpan_sim_app *app, void *app_ctx)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint8_t out[PQPAN_SIM_MSG_MAX];
    struct pqpan_sim_work w;
    size_t out_len = 0;
    int rc;
    memset(&w, 0, sizeof w);
    nd->deliver_pending = 0;
    rc = app->receive(app_ctx, (enum pqpan_ble_role)n, nd->in, nd->in_len, out, sizeof out,
                      &out_len, &w);
    nd->in_len = 0;
    nd->in_frame = 0;
    nd->in_expect = (uint16_t)app->expect(app_ctx, (enum pqpan_ble_role)n);
    return app_step(s, n, rc, out, out_len, &w);
}

/* ---- receiving -------------------------------------------------------------------- */

/* Appends message octets; a message is complete at the size the application expects. */
static int append_in(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[n];
    if (nd->in_expect == 0u || len > (size_t)nd->in_expect - nd->in_len || nd->deliver_pending) {
        return PQPAN_ERR_MALFORMED;
    }
    memcpy(nd->in + nd->in_len, p, len);
    nd->in_len = (uint16_t)(nd->in_len + len);
    if (nd->in_len == nd->in_expect) {
        nd->deliver_pending = 1;
    }
    return PQPAN_OK;
}

/* A value write or notification of the key-exchange characteristic. */
static int value_in(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    struct pqpan_sim_node *nd = &s->node[n];
    if (p->handle != SIM_ATT_HANDLE) {
        return PQPAN_ERR_MALFORMED;
    }
    if (has_frame_number(s, other_side(n))) {
        if (p->value_len < 1u || p->value[0] != (uint8_t)nd->in_frame) {
            return PQPAN_ERR_MALFORMED;
        }
        nd->in_frame++;
        return append_in(s, n, p->value + 1, p->value_len - 1u);
    }
    return append_in(s, n, p->value, p->value_len);
}

typedef int (*att_handler)(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);

static int on_mtu_req(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    struct pqpan_att_pdu r;
    if (p->mtu < PQPAN_ATT_DEFAULT_MTU) {
        return PQPAN_ERR_MALFORMED;
    }
    memset(&r, 0, sizeof r);
    r.opcode = PQPAN_ATT_EXCHANGE_MTU_RSP;
    r.mtu = (uint16_t)s->cfg.ble.att_mtu;
    return pqpan_sim_reply_att(s, n, &r);
}

/* Vol 3 Part F §3.4.2.2: ATT_MTU = min(Client Rx MTU, Server Rx MTU). */
static int on_mtu_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    (void)n;
    if (p->mtu < PQPAN_ATT_DEFAULT_MTU) {
        return PQPAN_ERR_MALFORMED;
    }
    s->att_mtu = (uint16_t)(p->mtu < s->cfg.ble.att_mtu ? p->mtu : s->cfg.ble.att_mtu);
    pqpan_sim_negotiation_done(s);
    return PQPAN_OK;
}

static int on_value(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    return value_in(s, n, p);
}

static int on_indication(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    int rc = value_in(s, n, p);
    return rc != PQPAN_OK ? rc : pqpan_sim_reply_opcode(s, n, PQPAN_ATT_HANDLE_VALUE_CFM);
}

/* A Write Request: to the CCCD (the discovery's last step) or of a message's value. */
static int on_write_req(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    int rc;
    if (pqpan_sim_gatt_is_cccd(p->handle)) {
        return pqpan_sim_gatt_write_cccd(s, n, p);
    }
    rc = value_in(s, n, p);
    return rc != PQPAN_OK ? rc : pqpan_sim_reply_opcode(s, n, PQPAN_ATT_WRITE_RSP);
}

/* §3.4.6.1/2: parts queued in offset order; the response echoes the request. */
static int on_prepare_req(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    struct pqpan_sim_node *nd = &s->node[n];
    struct pqpan_att_pdu r = *p;
    if (p->handle != SIM_ATT_HANDLE || p->offset != nd->prep_len ||
        p->value_len > (size_t)PQPAN_BLE_ATT_VALUE_MAX - nd->prep_len) {
        return PQPAN_ERR_MALFORMED;
    }
    memcpy(nd->prep + nd->prep_len, p->value, p->value_len);
    nd->prep_len = (uint16_t)(nd->prep_len + p->value_len);
    r.opcode = PQPAN_ATT_PREPARE_WRITE_RSP;
    return pqpan_sim_reply_att(s, n, &r);
}

static int on_execute_req(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    struct pqpan_sim_node *nd = &s->node[n];
    int rc = PQPAN_OK;
    if (p->flags == 1u) {
        rc = append_in(s, n, nd->prep, nd->prep_len);
    }
    nd->prep_len = 0;
    return rc != PQPAN_OK ? rc : pqpan_sim_reply_opcode(s, n, PQPAN_ATT_EXECUTE_WRITE_RSP);
}

/* A response or confirmation to this side's request: the host sends the next one. */
static int on_response(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    struct pqpan_sim_node *nd = &s->node[n];
    (void)p;
    if (!nd->wait_rsp) {
        return PQPAN_ERR_MALFORMED;
    }
    nd->got_rsp = 1;
    return PQPAN_OK;
}

struct att_row {
    uint8_t opcode;
    att_handler fn;
};

static int on_write_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p)
{
    return pqpan_sim_gatt_on_write_rsp(s, n) ? PQPAN_OK : on_response(s, n, p);
}

static const struct att_row att_handlers[] = {
    {PQPAN_ATT_ERROR_RSP, pqpan_sim_gatt_on_error},
    {PQPAN_ATT_EXCHANGE_MTU_REQ, on_mtu_req},
    {PQPAN_ATT_EXCHANGE_MTU_RSP, on_mtu_rsp},
    {PQPAN_ATT_FIND_INFORMATION_REQ, pqpan_sim_gatt_find_information},
    {PQPAN_ATT_FIND_INFORMATION_RSP, pqpan_sim_gatt_on_find_info_rsp},
    {PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ, pqpan_sim_gatt_find_by_type},
    {PQPAN_ATT_FIND_BY_TYPE_VALUE_RSP, pqpan_sim_gatt_on_find_by_type_rsp},
    {PQPAN_ATT_READ_BY_TYPE_REQ, pqpan_sim_gatt_read_by_type},
    {PQPAN_ATT_READ_BY_TYPE_RSP, pqpan_sim_gatt_on_read_by_type_rsp},
    {PQPAN_ATT_WRITE_REQ, on_write_req},
    {PQPAN_ATT_WRITE_RSP, on_write_rsp},
    {PQPAN_ATT_WRITE_CMD, on_value},
    {PQPAN_ATT_PREPARE_WRITE_REQ, on_prepare_req},
    {PQPAN_ATT_PREPARE_WRITE_RSP, on_response},
    {PQPAN_ATT_EXECUTE_WRITE_REQ, on_execute_req},
    {PQPAN_ATT_EXECUTE_WRITE_RSP, on_response},
    {PQPAN_ATT_HANDLE_VALUE_NTF, on_value},
    {PQPAN_ATT_HANDLE_VALUE_IND, on_indication},
    {PQPAN_ATT_HANDLE_VALUE_CFM, on_response},
};

static int att_rx(struct pqpan_sim *s, int n, const uint8_t *in, size_t len)
{
    struct pqpan_att_pdu p;
    size_t i;
    int rc = pqpan_att_pdu_parse(&p, in, len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    for (i = 0; i < sizeof att_handlers / sizeof att_handlers[0]; i++) {
        if (att_handlers[i].opcode == p.opcode) {
            return att_handlers[i].fn(s, n, &p);
        }
    }
    return PQPAN_ERR_UNSUPPORTED;
}

/* ---- the credit-based channel ----------------------------------------------------- */

static int reply_sig(struct pqpan_sim *s, int n, const uint8_t *b, size_t len)
{
    struct pqpan_sim_l2cap out;
    int rc = l2cap_to(&out, PQPAN_L2CAP_CID_LE_SIGNALING, b, len);
    s->res.counts.att_pdus[n]++;
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_reply(s, n, out.b, out.len);
}

static uint8_t next_sig_id(struct pqpan_sim_node *nd)
{
    nd->sig_id = (uint8_t)(nd->sig_id == 0xFFu ? 1u : nd->sig_id + 1u);
    return nd->sig_id;
}

static void conn_params(const struct pqpan_sim *s, int n, struct pqpan_l2cap_le_conn *c)
{
    memset(c, 0, sizeof *c);
    c->psm = SIM_COC_PSM;
    c->cid = coc_cid(n);
    c->mtu = PQPAN_SIM_MSG_MAX;
    c->mps = coc_mps(s);
    c->credits = SIM_COC_INITIAL_CREDITS;
}

int pqpan_sim_host_connect_transport(struct pqpan_sim *s)
{
    struct pqpan_att_pdu p;
    struct pqpan_l2cap_le_conn c;
    uint8_t b[32];
    size_t w;
    int rc;
    if (s->cfg.transport != PQPAN_SIM_L2CAP_COC) {
        memset(&p, 0, sizeof p);
        p.opcode = PQPAN_ATT_EXCHANGE_MTU_REQ; /* by the client: Vol 3 Part F §3.4.2.1 */
        p.mtu = (uint16_t)s->cfg.ble.att_mtu;
        return pqpan_sim_reply_att(s, sim_gatt_client(s), &p);
    }
    conn_params(s, PQPAN_BLE_CENTRAL, &c);
    rc = pqpan_l2cap_pdu_le_conn_write(b, sizeof b, PQPAN_L2CAP_LE_CREDIT_CONN_REQ,
                                       next_sig_id(&s->node[PQPAN_BLE_CENTRAL]), &c, &w);
    return rc != PQPAN_OK ? rc : reply_sig(s, PQPAN_BLE_CENTRAL, b, w);
}

static int sig_rx(struct pqpan_sim *s, int n, const uint8_t *in, size_t len)
{
    struct pqpan_l2cap_sig sig;
    struct pqpan_l2cap_le_conn c, mine;
    uint8_t b[32];
    size_t w;
    int rc = pqpan_l2cap_pdu_sig_parse(&sig, &c, in, len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (sig.code == PQPAN_L2CAP_FLOW_CONTROL_CREDIT) {
        s->node[n].coc_credits = (uint16_t)(s->node[n].coc_credits + c.credits);
        return pqpan_sim_host_pump(s, n);
    }
    if (sig.code == PQPAN_L2CAP_LE_CREDIT_CONN_REQ && n == PQPAN_BLE_PERIPHERAL) {
        if (c.psm != SIM_COC_PSM || c.cid != coc_cid(other_side(n)) || c.mps < 23u) {
            return PQPAN_ERR_MALFORMED;
        }
        s->node[n].coc_credits = c.credits;
        conn_params(s, n, &mine);
        rc = pqpan_l2cap_pdu_le_conn_write(b, sizeof b, PQPAN_L2CAP_LE_CREDIT_CONN_RSP, sig.identifier,
                                           &mine, &w);
        return rc != PQPAN_OK ? rc : reply_sig(s, n, b, w);
    }
    if (sig.code == PQPAN_L2CAP_LE_CREDIT_CONN_RSP && n == PQPAN_BLE_CENTRAL) {
        if (c.result != 0u || c.cid != coc_cid(other_side(n))) {
            return PQPAN_ERR_MALFORMED;
        }
        s->node[n].coc_credits = c.credits;
        pqpan_sim_negotiation_done(s);
        return PQPAN_OK;
    }
    return PQPAN_ERR_MALFORMED;
}

/* §3.4.2: the first K-frame of an SDU starts with the SDU length. */
static int kframe_rx(struct pqpan_sim *s, int n, const uint8_t *in, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[n];
    nd->coc_rx_frames++;
    if (nd->coc_sdu_left == 0u) {
        if (len < PQPAN_L2CAP_SDU_LEN_BYTES || get_le16(in) != nd->in_expect) {
            return PQPAN_ERR_MALFORMED;
        }
        nd->coc_sdu_left = get_le16(in);
        in += PQPAN_L2CAP_SDU_LEN_BYTES;
        len -= PQPAN_L2CAP_SDU_LEN_BYTES;
    }
    if (len > nd->coc_sdu_left) {
        return PQPAN_ERR_MALFORMED;
    }
    nd->coc_sdu_left = (uint16_t)(nd->coc_sdu_left - len);
    return append_in(s, n, in, len);
}

int pqpan_sim_host_rx(struct pqpan_sim *s, int n, const uint8_t *l2cap, size_t len)
{
    struct pqpan_l2cap_hdr h;
    int rc = pqpan_l2cap_pdu_hdr_parse(&h, l2cap, len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if ((size_t)h.length != len - PQPAN_L2CAP_HDR_BYTES) {
        return PQPAN_ERR_MALFORMED;
    }
    l2cap += PQPAN_L2CAP_HDR_BYTES;
    if (h.cid == PQPAN_L2CAP_CID_ATT) {
        return att_rx(s, n, l2cap, h.length);
    }
    if (h.cid == PQPAN_L2CAP_CID_LE_SIGNALING) {
        return sig_rx(s, n, l2cap, h.length);
    }
    if (s->cfg.transport == PQPAN_SIM_L2CAP_COC && h.cid == coc_cid(n)) {
        return kframe_rx(s, n, l2cap, h.length);
    }
    if (s->cfg.transport == PQPAN_SIM_SMP && h.cid == PQPAN_L2CAP_CID_SMP) {
        return append_in(s, n, l2cap, h.length);
    }
    return PQPAN_ERR_MALFORMED;
}

/* ---- the host runs ---------------------------------------------------------------- */

static int return_credits(struct pqpan_sim *s, int n)
{
    struct pqpan_sim_node *nd = &s->node[n];
    uint8_t b[16];
    size_t w;
    int rc;
    if (nd->coc_rx_frames == 0u) {
        return PQPAN_OK;
    }
    rc = pqpan_l2cap_pdu_credit_write(b, sizeof b, next_sig_id(nd), coc_cid(n), nd->coc_rx_frames, &w);
    nd->coc_rx_frames = 0;
    return rc != PQPAN_OK ? rc : reply_sig(s, n, b, w);
}

int pqpan_sim_host_release(struct pqpan_sim *s, int n, const struct pqpan_sim_app *app,
                           void *app_ctx)
{
    struct pqpan_sim_node *nd = &s->node[n];
    int rc = return_credits(s, n);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (nd->got_rsp) {
        nd->got_rsp = 0;
        nd->wait_rsp = 0;
    }
    pqpan_sim_release_replies(s, n);
    if (nd->deliver_pending) {
        rc = deliver(s, n, app, app_ctx);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return pqpan_sim_host_pump(s, n);
}
