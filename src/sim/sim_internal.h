/* Shared between the simulator's engine (sim.c: connection events, link layer) and its
 * host (host.c: L2CAP, ATT/GATT, credit-based channel, application). */
#ifndef PQPAN_SIM_INTERNAL_H
#define PQPAN_SIM_INTERNAL_H

#include "pqpan/sim.h"

/* L2CAP channel IDs of the credit-based channel (Vol 3 Part A §2.1: dynamically
 * allocated LE CIDs start at 0x0040) and its LE_PSM (§4.22: dynamic range 0x0080..0x00FF). */
#define SIM_COC_CID_CENTRAL 0x0040u
#define SIM_COC_CID_PERIPHERAL 0x0041u
#define SIM_COC_PSM 0x0080u
/* Credits each side grants at channel set-up; consumed K-frames are returned with an
 * LE Flow Control Credit packet each time the host runs (§4.24, §10.1). */
#define SIM_COC_INITIAL_CREDITS 8u
/* The attribute handle of the key-exchange characteristic value (any non-zero handle;
 * Vol 3 Part F §3.2.2). */
#define SIM_ATT_HANDLE 0x0012u

/* Static random device addresses (Vol 6 Part B §1.3.2.1: the two top bits 0b11) of the
 * central (InitA) and the peripheral (AdvA), little-endian as on the air. */
#define PQPAN_SIM_CENTRAL_ADDR "\x01\x00\x00\x00\x00\xC0"
#define PQPAN_SIM_PERIPHERAL_ADDR "\x02\x00\x00\x00\x00\xC0"

/* The i-th L2CAP PDU waiting in side n's link-layer ring (0 = the one being sent). */
static inline struct pqpan_sim_l2cap *txq_at(struct pqpan_sim_node *nd, unsigned i)
{
    return &nd->txq[(nd->txq_head + i) % PQPAN_SIM_TXQ];
}

/* The side holding the GATT server, and its client (Core v5.4 Vol 3 Part G §2.2), as node
 * indexes. */
static inline int sim_gatt_server(const struct pqpan_sim *s)
{
    return (int)s->cfg.ble.gatt_server;
}

static inline int sim_gatt_client(const struct pqpan_sim *s)
{
    return 1 - sim_gatt_server(s);
}

/* Host side, called by the engine. All return PQPAN_OK or a negative error that stops
 * the run. */

/* A complete L2CAP PDU arrived at side n (the host looks at it at once; what it sends
 * back goes to the host queues, released by pqpan_sim_host_release). */
int pqpan_sim_host_rx(struct pqpan_sim *s, int n, const uint8_t *l2cap, size_t len);
/* The host of side n runs: replies decided since the last run become sendable, a
 * complete incoming message goes to the application. */
int pqpan_sim_host_release(struct pqpan_sim *s, int n, const struct pqpan_sim_app *app,
                           void *app_ctx);
/* Moves message PDUs into side n's LL queue while flow control allows. */
int pqpan_sim_host_pump(struct pqpan_sim *s, int n);
/* The side that starts the exchange runs the application's start(). */
int pqpan_sim_host_start_app(struct pqpan_sim *s, const struct pqpan_sim_app *app,
                             void *app_ctx);
/* Queues the ATT MTU exchange (GATT) or the credit-based connection request (CoC). */
int pqpan_sim_host_connect_transport(struct pqpan_sim *s);
/* An ATT PDU (or one of just an opcode) from side n's host, into its reply queue. */
int pqpan_sim_reply_att(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_reply_opcode(struct pqpan_sim *s, int n, uint8_t opcode);

/* Link Layer control procedures of the set-up (llcp.c): the central queues the first PDU
 * of each; pqpan_sim_ll_control_rx answers or completes them; pqpan_sim_ll_instant applies
 * a PHY or interval at its instant's anchor. */
int pqpan_sim_start_features(struct pqpan_sim *s);
int pqpan_sim_start_conn_update(struct pqpan_sim *s);
int pqpan_sim_start_phy(struct pqpan_sim *s);
int pqpan_sim_start_length(struct pqpan_sim *s);
int pqpan_sim_ll_control_rx(struct pqpan_sim *s, int n, const uint8_t *p, size_t len);
void pqpan_sim_ll_instant(struct pqpan_sim *s);

/* GATT discovery (gatt.c): the client's requests and the server's answers. */
int pqpan_sim_start_discovery(struct pqpan_sim *s);
const uint8_t *pqpan_sim_gatt_service_uuid(void);
int pqpan_sim_gatt_find_by_type(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_read_by_type(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_find_information(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_on_find_by_type_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_on_read_by_type_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_on_find_info_rsp(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_on_error(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
int pqpan_sim_gatt_is_cccd(uint16_t handle);
int pqpan_sim_gatt_write_cccd(struct pqpan_sim *s, int n, const struct pqpan_att_pdu *p);
/* 1 if a Write Response was the discovery's (its CCCD write, which ends it), else 0. */
int pqpan_sim_gatt_on_write_rsp(struct pqpan_sim *s, int n);

/* The advertising phase (adv.c): books it and sets connect_at_ns and adv_channel.
 * PQPAN_ERR_TIMEOUT when no CONNECT_IND comes within max_sim_ns. */
int pqpan_sim_advertise(struct pqpan_sim *s, const struct pqpan_sim_observer *obs, void *obs_ctx);
/* Primary advertising channel 37..39 → RF channel (Vol 6 Part A §2). */
uint8_t pqpan_sim_adv_rf_channel(uint8_t channel);

/* Engine side, called by the host. */

/* Queues an L2CAP PDU on side n's host reply queue. */
int pqpan_sim_queue_reply(struct pqpan_sim *s, int n, const uint8_t *l2cap, size_t len);
/* Queues an LL control PDU on side n (released with the host replies). */
int pqpan_sim_queue_ctrl(struct pqpan_sim *s, int n, const uint8_t *ctrl, size_t len);
/* The negotiation step finished; the engine starts the next one. */
void pqpan_sim_negotiation_done(struct pqpan_sim *s);
/* Queues side n's crypto operations (ops[op] executions of each, in enum order) behind
 * those it has queued: their cycles become CPU time on the ledger now, and they run in the
 * time the connection events leave the CPU (struct pqpan_sim_cpu). *queued (if not NULL):
 * how many. PQPAN_ERR_CAPACITY when they do not fit. */
int pqpan_sim_queue_crypto(struct pqpan_sim *s, int n, const uint32_t ops[PQPAN_OP_COUNT],
                           uint32_t *queued);
/* Side n's message is ready once its CPU has finished the first `after` operations it has
 * queued: its host runs then (at once for 0). */
int pqpan_sim_ready_after(struct pqpan_sim *s, int n, uint32_t after);
/* The central's host hands its link layer the LTK: LL_ENC_REQ goes out at the next anchor
 * (Vol 6 Part B §5.1.3.1); the rest of the procedure follows in the link layer. */
int pqpan_sim_start_encryption(struct pqpan_sim *s);
/* LL control PDUs of the encryption start received by side n (lesc_ll.c, dispatched by
 * pqpan_sim_ll_control_rx): LL_ENC_REQ at the peripheral, LL_ENC_RSP at the central,
 * LL_START_ENC_REQ / LL_START_ENC_RSP. PQPAN_ERR_MALFORMED for a PDU the side should not
 * receive; PQPAN_ERR_STATE for LL_ENC_REQ before the peripheral's host has an LTK. */
int pqpan_sim_on_enc_req(struct pqpan_sim *s, int n, const uint8_t *p, size_t len);
int pqpan_sim_on_enc_rsp(struct pqpan_sim *s, int n, const uint8_t *p, size_t len);
int pqpan_sim_on_start_enc(struct pqpan_sim *s, int n, const uint8_t *p, size_t len);
/* Moves side n's host replies and LL control responses to its LL queues. */
void pqpan_sim_release_replies(struct pqpan_sim *s, int n);
/* Current simulated time. */
uint64_t pqpan_sim_now(const struct pqpan_sim *s);
/* Reports [t0, t1) of side n in a state and phase to the observer (not to the ledger). */
void pqpan_sim_emit_span(const struct pqpan_sim_observer *obs, void *ctx, int side, int state,
                         int phase, uint64_t t0, uint64_t t1);
/* Damages s->air (s->air.len octets and the CRC after them) as the sender's channel does;
 * sets s->air_lost when the access address is hit. */
void pqpan_sim_apply_channel(struct pqpan_sim *s, int sender);

#endif
