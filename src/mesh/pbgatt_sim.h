/* The PB-GATT simulator's state, shared by the run (pbgatt_sim.c) and its capture
 * (pbgatt_capture.c). Internal to src/mesh. */
#ifndef PQPAN_MESH_PBGATT_SIM_H
#define PQPAN_MESH_PBGATT_SIM_H

#include "pqpan/ble.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/common.h"
#include "pqpan/mesh_sim.h"
#include "prov_sim.h"

/* MshPRT v1.1 §6.3.1, Table 6.2: SAR; Table 6.3: Message Type 0x03 Provisioning PDU. */
#define MESH_PROXY_SAR_COMPLETE 0x0u
#define MESH_PROXY_SAR_FIRST 0x1u
#define MESH_PROXY_SAR_CONTINUATION 0x2u
#define MESH_PROXY_SAR_LAST 0x3u
#define MESH_PROXY_TYPE_PROVISIONING 0x03u

/* The device's GATT database (pqpan's layout; the Mesh Provisioning Service 0x1827 of §7.1
 * with its two characteristics, Assigned Numbers §3.8): the Data In value (Write Without
 * Response), the Data Out value (Notify) and its Client Characteristic Configuration
 * descriptor (Core v5.4 Vol 3 Part G §3.3.3.3, UUID 0x2902). */
#define MESH_PBGATT_HANDLE_DATA_IN 0x0012u
#define MESH_PBGATT_HANDLE_DATA_OUT 0x0014u
#define MESH_PBGATT_HANDLE_CCCD 0x0015u
#define MESH_PBGATT_UUID_DATA_IN 0x2ADBu
#define MESH_PBGATT_UUID_DATA_OUT 0x2ADCu
#define MESH_PBGATT_UUID_CCCD 0x2902u

/* A Provisioning PDU being reassembled by its receiver. */
struct pbgatt_rx {
    uint8_t pdu[MESH_PROV_PDU_MAX];
    uint32_t len;
    int open;
};

/* A Provisioning PDU as sent (the capture segments it again). */
struct pbgatt_sent {
    enum pqpan_mesh_prov_role sender;
    uint8_t pdu[MESH_PROV_PDU_MAX];
    uint32_t len;
};

struct pbgatt_sim {
    struct pqpan_mesh_pbgatt_sim_result *res;
    const struct pqpan_mesh_pbgatt_sim_config *cfg;
    const struct pqpan_ble_device *dev;
    const uint64_t (*cycles)[PQPAN_OP_COUNT];
    struct mesh_prov_run run;
    struct pbgatt_rx rx[2];
    uint64_t wait_ns; /* the crypto before the PDU being sent */
    struct pqpan_ble_txn txns[PQPAN_MESH_PROV_STEPS_MAX];
    struct pbgatt_sent sent[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t n_sent;
};

/* The ATT PDU of segment seg of s's Provisioning PDU pdu[0..len) at att_mtu: a Write Command
 * to Data In (provisioner) or a Notification of Data Out (device) whose value is one Proxy
 * PDU. Its length, 0 if it does not fit out[0..cap). */
size_t pqpan_mesh_pbgatt_att_segment(uint8_t *out, size_t cap, enum pqpan_mesh_prov_role s,
                                     const uint8_t *pdu, uint32_t len, uint32_t seg,
                                     uint32_t att_mtu);

/* The connection model's link for c (pbgatt.c), from the start of the run's first event. */
void pqpan_mesh_pbgatt_link(struct pqpan_ble_link *link, const struct pqpan_mesh_pbgatt_config *c);

/* The set-up of c (pqpan_ble_setup with the Mesh Provisioning Service; pbgatt.c), whatever
 * c->setup says: into *out; its errors. */
int pqpan_mesh_pbgatt_setup(struct pqpan_ble_estimate *out,
                            const struct pqpan_mesh_pbgatt_config *c,
                            const struct pqpan_ble_device *dev);

/* The connection of c with the run's txns[0..n) (pbgatt.c), what the estimator and the
 * simulator both book: the set-up when c asks for it, then the txns from its last event's
 * close; adds to out's ledgers (which hold the run's crypto), sets counts, setup_ns and
 * latency_ns. PQPAN_OK, or the set-up's error. */
int pqpan_mesh_pbgatt_connection(struct pqpan_mesh_pbgatt_estimate *out,
                                 const struct pqpan_mesh_pbgatt_config *c,
                                 const struct pqpan_ble_device dev[2],
                                 const struct pqpan_ble_txn *txns, uint32_t n);

/* Gives every LL PDU of the run to cfg->on_packet (pbgatt_capture.c). PQPAN_OK, or
 * PQPAN_ERR_IO when it stopped the run. */
int pqpan_mesh_pbgatt_capture(struct pbgatt_sim *m);

#endif
