/* BLE Mesh provisioning over PB-GATT, executed (include/pqpan/mesh_sim.h): the protocol of
 * prov_sim.c, each Provisioning PDU carried in Proxy PDUs (MshPRT v1.1 §6.3.1) in ATT
 * Write Commands to Mesh Provisioning Data In or Handle Value Notifications of Mesh
 * Provisioning Data Out (§7.1), built, parsed and reassembled byte by byte; times and
 * ledgers by the PB-GATT estimator's connection model over the PDUs sent (pbgatt.c), the
 * capture by pbgatt_capture.c. */
#include <stdlib.h>
#include <string.h>

#include "pbgatt_sim.h"

#define P PQPAN_MESH_PROVISIONER
#define D PQPAN_MESH_DEVICE

/* ---- Proxy PDUs (§6.3.1) -------------------------------------------------------------- */

/* Octets of a Provisioning PDU in one Proxy PDU at att_mtu: the ATT value (ATT_MTU - 3)
 * less the Proxy header, as Zephyr fills them (mesh_prov.h). */
static uint32_t proxy_room(uint32_t att_mtu)
{
    return att_mtu - PQPAN_ATT_HANDLE_VALUE_HDR - PQPAN_MESH_PROXY_HDR_BYTES;
}

size_t pqpan_mesh_pbgatt_att_segment(uint8_t *out, size_t cap, enum pqpan_mesh_prov_role s,
                                     const uint8_t *pdu, uint32_t len, uint32_t seg,
                                     uint32_t att_mtu)
{
    uint8_t value[PQPAN_ATT_MAX_MTU];
    uint32_t segs = pqpan_mesh_proxy_segments(len, att_mtu), room = proxy_room(att_mtu);
    uint32_t off = seg * room, n = len - off < room ? len - off : room;
    uint8_t sar = segs == 1u              ? MESH_PROXY_SAR_COMPLETE
                  : seg == 0u             ? MESH_PROXY_SAR_FIRST
                  : seg + 1u == segs      ? MESH_PROXY_SAR_LAST
                                          : MESH_PROXY_SAR_CONTINUATION;
    struct pqpan_att_pdu a;
    size_t written = 0;
    value[0] = (uint8_t)(((unsigned)sar << 6) | MESH_PROXY_TYPE_PROVISIONING);
    memcpy(value + PQPAN_MESH_PROXY_HDR_BYTES, pdu + off, n);
    memset(&a, 0, sizeof a);
    a.opcode = s == P ? PQPAN_ATT_WRITE_CMD : PQPAN_ATT_HANDLE_VALUE_NTF;
    a.handle = s == P ? MESH_PBGATT_HANDLE_DATA_IN : MESH_PBGATT_HANDLE_DATA_OUT;
    a.value = value;
    a.value_len = PQPAN_MESH_PROXY_HDR_BYTES + n;
    return pqpan_att_pdu_write(out, cap, &a, &written) == PQPAN_OK ? written : 0u;
}

/* One ATT PDU received by to: a Write Command to Data In (the device) or a Notification of
 * Data Out (the provisioner) carrying a Provisioning Proxy PDU, appended to the PDU being
 * reassembled; a whole one goes to the protocol. */
static void att_receive(struct pbgatt_sim *m, enum pqpan_mesh_prov_role to, const uint8_t *att,
                        size_t len, uint64_t t)
{
    struct pbgatt_rx *rx = &m->rx[to];
    struct pqpan_att_pdu a;
    uint32_t sar, n;
    if (pqpan_att_pdu_parse(&a, att, len) != PQPAN_OK || a.value_len <= 1u ||
        a.opcode != (to == D ? PQPAN_ATT_WRITE_CMD : PQPAN_ATT_HANDLE_VALUE_NTF) ||
        a.handle != (to == D ? MESH_PBGATT_HANDLE_DATA_IN : MESH_PBGATT_HANDLE_DATA_OUT) ||
        (a.value[0] & 0x3Fu) != MESH_PROXY_TYPE_PROVISIONING) {
        m->run.error = PQPAN_ERR_MALFORMED;
        return;
    }
    sar = (uint32_t)(a.value[0] >> 6);
    n = (uint32_t)a.value_len - PQPAN_MESH_PROXY_HDR_BYTES;
    if (sar == MESH_PROXY_SAR_COMPLETE || sar == MESH_PROXY_SAR_FIRST) {
        rx->len = 0;
        rx->open = 1;
    }
    if (!rx->open || rx->len + n > sizeof rx->pdu) {
        m->run.error = PQPAN_ERR_MALFORMED; /* §6.3.1: a segment out of order */
        return;
    }
    memcpy(rx->pdu + rx->len, a.value + PQPAN_MESH_PROXY_HDR_BYTES, n);
    rx->len += n;
    if (sar == MESH_PROXY_SAR_COMPLETE || sar == MESH_PROXY_SAR_LAST) {
        rx->open = 0;
        pqpan_mesh_prov_run_receive(&m->run, to, rx->pdu, rx->len, t);
    }
}

/* ---- the bearer's operations (prov_sim.h) ---------------------------------------------- */

/* The crypto before a PDU, booked as the estimator books it; the connection model waits it
 * out before the PDU's transaction. */
static uint64_t bearer_compute(void *ctx, enum pqpan_mesh_prov_role s, uint64_t at, uint32_t ops)
{
    struct pbgatt_sim *m = ctx;
    m->wait_ns = pqpan_mesh_prov_book_ops(&m->res->run.ledger[s], ops, m->cycles[s],
                                          m->dev[s].cpu_hz);
    return at;
}

static void bearer_send(void *ctx, enum pqpan_mesh_prov_role s, uint64_t t, const uint8_t *pdu,
                        uint32_t len)
{
    struct pbgatt_sim *m = ctx;
    const struct pqpan_mesh_prov_step *st = pqpan_mesh_prov_run_step(&m->run);
    uint32_t att_mtu = m->cfg->link.att_mtu, segs = pqpan_mesh_proxy_segments(len, att_mtu), i;
    struct pbgatt_sent *sent;
    uint8_t att[PQPAN_ATT_MAX_MTU];
    if (m->n_sent >= PQPAN_MESH_PROV_STEPS_MAX || segs == 0u) {
        m->run.error = PQPAN_ERR_STATE;
        return;
    }
    sent = &m->sent[m->n_sent];
    pqpan_mesh_pbgatt_txn(&m->txns[m->n_sent], s, st != NULL ? st->phase : PQPAN_PHASE_CONFIRM,
                          len, att_mtu, m->wait_ns);
    sent->sender = s;
    sent->len = len;
    memcpy(sent->pdu, pdu, len);
    m->n_sent++;
    m->res->run.proxy_pdus[s] += segs;
    for (i = 0; i < segs && m->run.error == 0; i++) {
        size_t n = pqpan_mesh_pbgatt_att_segment(att, sizeof att, s, pdu, len, i, att_mtu);
        if (n == 0u) {
            m->run.error = PQPAN_ERR_STATE;
            return;
        }
        att_receive(m, (enum pqpan_mesh_prov_role)(1 - s), att, n, t);
    }
}

/* ---- the run --------------------------------------------------------------------------- */

void pqpan_mesh_pbgatt_sim_config_default(struct pqpan_mesh_pbgatt_sim_config *c)
{
    memset(c, 0, sizeof *c);
    pqpan_mesh_pbgatt_config_default(&c->link);
    c->seed = 1u;
}

static int finish(struct pbgatt_sim *m)
{
    struct pqpan_mesh_pbgatt_sim_result *r = m->res;
    const struct mesh_prov_outcome *o = &m->run.out;
    int rc = pqpan_mesh_pbgatt_connection(&r->run, &m->cfg->link, m->dev, m->txns, m->n_sent);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_mesh_prov_run_finish(&m->run);
    r->packets = (uint32_t)(r->run.counts.data_pdus_tx[0] + r->run.counts.data_pdus_tx[1]);
    pqpan_mesh_prov_run_keys(&m->run, r->session_key, r->device_key, r->net_key);
    memcpy(r->prov_pdus, o->prov_pdus, sizeof r->prov_pdus);
    r->keys_equal = o->keys_equal;
    r->complete = o->complete;
    r->failed_code = o->failed_code;
    return PQPAN_OK;
}

static int run(struct pbgatt_sim *m)
{
    struct mesh_prov_bearer b;
    int rc = pqpan_mesh_prov_run_init(&m->run, &m->cfg->link.keys, PQPAN_MESH_PBGATT_PDU_MAX,
                                      m->cfg->seed, m->cfg->corrupt_confirmation);
    if (rc == PQPAN_OK) {
        rc = pqpan_mesh_prov_run_data(&m->run);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_ledger_init(&m->res->run.ledger[P]);
    pqpan_ledger_init(&m->res->run.ledger[D]);
    b.compute = bearer_compute;
    b.send = bearer_send;
    b.ctx = m;
    pqpan_mesh_prov_run_exchange(&m->run, &b);
    if (m->run.error != 0) {
        return m->run.error;
    }
    rc = finish(m);
    if (rc != PQPAN_OK) {
        return rc;
    }
    return m->cfg->on_packet != NULL ? pqpan_mesh_pbgatt_capture(m) : PQPAN_OK;
}

int pqpan_mesh_pbgatt_simulate(struct pqpan_mesh_pbgatt_sim_result *res,
                               const struct pqpan_mesh_pbgatt_sim_config *cfg,
                               const struct pqpan_ble_device dev[2],
                               const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    struct pbgatt_sim *m;
    int rc;
    if (res == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(res, 0, sizeof *res);
    rc = pqpan_mesh_prov_sim_args(cfg != NULL && dev != NULL && cycles != NULL &&
                                      pqpan_mesh_pbgatt_config_ok(&cfg->link),
                                  cfg != NULL ? cfg->link.keys.alg : PQPAN_MESH_PROV_ALG_CMAC);
    if (rc != PQPAN_OK) {
        return rc;
    }
    m = calloc(1, sizeof *m);
    if (m == NULL) {
        return PQPAN_ERR_CAPACITY;
    }
    m->res = res;
    m->cfg = cfg;
    m->dev = dev;
    m->cycles = cycles;
    rc = run(m);
    pqpan_wipe(m, sizeof *m);
    free(m);
    if (rc != PQPAN_OK) {
        memset(res, 0, sizeof *res);
    }
    return rc;
}
