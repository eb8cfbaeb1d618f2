/* PB-GATT (Mesh Protocol v1.1 §5.2.2): Provisioning PDUs in Proxy PDUs (§6.3.1) over the
 * Mesh Provisioning Service (§7.1), priced by the BLE connection model
 * (docs/MODEL.md "Mesh provisioning"). */
#include <string.h>

#include "pqpan/ble_pdu.h"
#include "pqpan/defaults.h"
#include "pqpan/mesh_prov.h"
#include "pbgatt_sim.h"

uint32_t pqpan_mesh_proxy_segments(uint32_t len, uint32_t att_mtu)
{
    uint32_t room;
    if (len == 0u || att_mtu < PQPAN_ATT_HANDLE_VALUE_HDR + PQPAN_MESH_PROXY_HDR_BYTES + 1u) {
        return 0u;
    }
    room = att_mtu - PQPAN_ATT_HANDLE_VALUE_HDR - PQPAN_MESH_PROXY_HDR_BYTES;
    return (len + room - 1u) / room;
}

void pqpan_mesh_pbgatt_config_default(struct pqpan_mesh_pbgatt_config *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    pqpan_mesh_prov_keys_default(&cfg->keys);
    cfg->phy = PQPAN_BLE_PHY_1M;
    cfg->att_mtu = pqpan_default_u32(PQPAN_DEFAULT_ATT_MTU);
    cfg->ll_octets = pqpan_default_u32(PQPAN_DEFAULT_LL_OCTETS);
    cfg->ci_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_CI_MS);
    cfg->same_event_reply = 0;
    cfg->setup = PQPAN_MESH_PBGATT_SETUP_FULL;
    cfg->adv_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_PBGATT_ADV_INTERVAL_MS);
}

static int adv_interval_ok(uint64_t ns)
{
    return ns >= PQPAN_BLE_ADV_INTERVAL_MIN_NS && ns <= PQPAN_BLE_ADV_INTERVAL_MAX_NS &&
           ns % PQPAN_BLE_ADV_INTERVAL_STEP_NS == 0u;
}

int pqpan_mesh_pbgatt_config_ok(const struct pqpan_mesh_pbgatt_config *c)
{
    return (unsigned)c->phy < PQPAN_BLE_PHY_COUNT && c->att_mtu >= PQPAN_ATT_DEFAULT_MTU &&
           c->att_mtu <= PQPAN_ATT_MAX_MTU && c->ll_octets >= PQPAN_LL_DATA_MIN_PAYLOAD &&
           c->ll_octets <= PQPAN_LL_DATA_MAX_PAYLOAD && c->ci_ns >= PQPAN_BLE_CI_MIN_NS &&
           c->ci_ns <= PQPAN_BLE_CI_MAX_NS &&
           (c->setup == PQPAN_MESH_PBGATT_SETUP_NONE ||
            (c->setup == PQPAN_MESH_PBGATT_SETUP_FULL && adv_interval_ok(c->adv_interval_ns)));
}

void pqpan_mesh_pbgatt_service(struct pqpan_ble_service *svc)
{
    static const struct pqpan_ble_att_step steps[] = {
        {PQPAN_MESH_PBGATT_FIND_BY_TYPE_REQ_BYTES, PQPAN_ATT_FIND_BY_TYPE_RSP_BYTES},
        {PQPAN_MESH_PBGATT_FIND_BY_TYPE_REQ_BYTES, PQPAN_ATT_ERROR_RSP_BYTES},
        {PQPAN_ATT_READ_BY_TYPE_REQ_BYTES, PQPAN_MESH_PBGATT_READ_BY_TYPE_RSP_BYTES},
        {PQPAN_ATT_READ_BY_TYPE_REQ_BYTES, PQPAN_ATT_ERROR_RSP_BYTES},
        {PQPAN_ATT_FIND_INFO_REQ_BYTES, PQPAN_ATT_FIND_INFO_RSP_BYTES},
        {PQPAN_ATT_CCCD_WRITE_REQ_BYTES, PQPAN_ATT_OPCODE_ONLY_BYTES},
    };
    pqpan_ble_service_init(svc, PQPAN_MESH_PBGATT_ADV_IND_PAYLOAD, steps,
                           (uint32_t)(sizeof steps / sizeof steps[0]));
}

void pqpan_mesh_pbgatt_link(struct pqpan_ble_link *link, const struct pqpan_mesh_pbgatt_config *c)
{
    memset(link, 0, sizeof *link);
    link->phy = c->phy;
    link->ll_octets = c->ll_octets;
    link->ci_ns = c->ci_ns;
    link->same_event_reply = c->same_event_reply;
}

/* The BLE link's set-up configuration for c: the connection opens at ci_ns (no parameter
 * update: the provisioner connects with the interval it runs at), the feature and version
 * exchange (the BLE link's --features default, src/common/defaults.c), the device the
 * peripheral and GATT server, the provisioner's discovery. */
static void setup_config(struct pqpan_ble_config *b, const struct pqpan_mesh_pbgatt_config *c)
{
    pqpan_ble_config_default(b);
    b->phy = c->phy;
    b->att_mtu = c->att_mtu;
    b->ll_octets = c->ll_octets;
    b->ci_ns = c->ci_ns;
    b->same_event_reply = c->same_event_reply;
    b->gatt_server = PQPAN_BLE_PERIPHERAL;
    b->adv_interval_ns = c->adv_interval_ns;
    b->features = 1;
    b->conn_update = 0;
    b->discovery = 1;
}

int pqpan_mesh_pbgatt_setup(struct pqpan_ble_estimate *out,
                            const struct pqpan_mesh_pbgatt_config *c,
                            const struct pqpan_ble_device *dev)
{
    struct pqpan_ble_config b;
    struct pqpan_ble_service svc;
    setup_config(&b, c);
    pqpan_mesh_pbgatt_service(&svc);
    return pqpan_ble_setup(out, &b, dev, &svc);
}

int pqpan_mesh_pbgatt_connection(struct pqpan_mesh_pbgatt_estimate *out,
                                 const struct pqpan_mesh_pbgatt_config *c,
                                 const struct pqpan_ble_device dev[2],
                                 const struct pqpan_ble_txn *txns, uint32_t n)
{
    static const struct pqpan_ble_estimate none;
    struct pqpan_ble_estimate s = none;
    struct pqpan_ble_link link;
    uint64_t elapsed = 0;
    int i;
    pqpan_mesh_pbgatt_link(&link, c);
    if (c->setup == PQPAN_MESH_PBGATT_SETUP_FULL) {
        int rc = pqpan_mesh_pbgatt_setup(&s, c, dev);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    for (i = 0; i < 2; i++) {
        pqpan_ledger_accumulate(&out->ledger[i], &s.ledger[i]);
    }
    out->counts = s.counts;
    link.start_close_ns = s.counts.last_close_ns;
    pqpan_ble_schedule(out->ledger, NULL, &out->counts, &elapsed, &link, dev, txns, n);
    out->setup_ns = s.setup_ns;
    /* the set-up ends at its last event's close, start_close_ns after its anchor; the run's
     * elapsed time runs from that anchor */
    out->latency_ns = s.setup_ns - link.start_close_ns + elapsed;
    return PQPAN_OK;
}

/* One Provisioning PDU as ATT Write Commands (provisioner) or Handle Value Notifications
 * (device), unconfirmed: each ATT PDU opcode + handle + a Proxy PDU of at most
 * ATT_MTU - 3 octets. */
void pqpan_mesh_pbgatt_txn(struct pqpan_ble_txn *t, enum pqpan_mesh_prov_role sender,
                           enum pqpan_phase phase, uint32_t length, uint32_t att_mtu,
                           uint64_t wait_ns)
{
    uint32_t segs = pqpan_mesh_proxy_segments(length, att_mtu);
    uint32_t room = att_mtu - PQPAN_ATT_HANDLE_VALUE_HDR - PQPAN_MESH_PROXY_HDR_BYTES;
    uint32_t last = length - (segs - 1u) * room;
    memset(t, 0, sizeof *t);
    t->sender = (enum pqpan_ble_role)sender;
    t->phase = phase;
    t->count = segs;
    t->len = att_mtu;
    t->last_len = PQPAN_ATT_HANDLE_VALUE_HDR + PQPAN_MESH_PROXY_HDR_BYTES + last;
    t->wait_ns = wait_ns;
    t->wait_phase = PQPAN_PHASE_CRYPTO;
}

_Static_assert((int)PQPAN_MESH_PROVISIONER == (int)PQPAN_BLE_CENTRAL &&
                   (int)PQPAN_MESH_DEVICE == (int)PQPAN_BLE_PERIPHERAL,
               "the provisioner is the central, the device the peripheral");

int pqpan_mesh_pbgatt_estimate(struct pqpan_mesh_pbgatt_estimate *out,
                               const struct pqpan_mesh_pbgatt_config *cfg,
                               const struct pqpan_ble_device dev[2],
                               const uint64_t cycles[2][PQPAN_OP_COUNT])
{
    struct pqpan_mesh_prov_step steps[PQPAN_MESH_PROV_STEPS_MAX];
    struct pqpan_ble_txn txns[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t n, i;
    int rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (cfg == NULL || dev == NULL || cycles == NULL || !pqpan_mesh_pbgatt_config_ok(cfg)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_mesh_prov_plan(steps, &n, cfg->keys.variant, cfg->keys.kem, cfg->keys.alg,
                              PQPAN_MESH_PBGATT_PDU_MAX);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_ledger_init(&out->ledger[0]);
    pqpan_ledger_init(&out->ledger[1]);
    for (i = 0; i < n; i++) {
        enum pqpan_mesh_prov_role s = steps[i].sender;
        uint64_t wait = pqpan_mesh_prov_book_ops(&out->ledger[s], steps[i].ops_before, cycles[s],
                                                 dev[s].cpu_hz);
        pqpan_mesh_pbgatt_txn(&txns[i], s, steps[i].phase, steps[i].length, cfg->att_mtu, wait);
        out->proxy_pdus[s] += txns[i].count;
    }
    rc = pqpan_mesh_pbgatt_connection(out, cfg, dev, txns, n);
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
    }
    return rc;
}
