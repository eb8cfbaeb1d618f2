/* BLE Mesh provisioning with ML-KEM, priced over the PB-ADV bearer (issue 29 item 1;
 * docs/MODEL.md "Mesh provisioning", docs/PROTOCOL.md "Mesh provisioning with ML-KEM").
 *
 * Mesh Protocol v1.1 (MshPRT): the provisioning protocol (§5.4) runs over a provisioning
 * bearer (§5.2); on PB-ADV (§5.2.1) each Provisioning PDU is one Generic Provisioning
 * transaction (§5.3), segmented into Transaction Start / Continuation PDUs, each carried in
 * one AD structure of a non-connectable advertising PDU (§3.3.1, Core v5.4 Vol 6 Part B
 * §2.3.1.3 ADV_NONCONN_IND), acknowledged by a Transaction Acknowledgment PDU.
 *
 * The PQ and hybrid variants are pqpan's proposal, not PDUs of the specification: the two
 * Provisioning Public Key PDUs carry an ML-KEM encapsulation key (provisioner → device)
 * and a ciphertext (device → provisioner), after a P-256 key (64 octets) in the hybrid. */
#ifndef PQPAN_MESH_PROV_H
#define PQPAN_MESH_PROV_H

#include <stdint.h>

#include "pqpan/ble.h"
#include "pqpan/error.h"
#include "pqpan/kem.h"
#include "pqpan/ledger.h"

/* ---- Provisioning PDUs (MshPRT v1.1 §5.4.1) ---------------------------------------- */

/* Provisioning PDU Type (§5.4.1, 6 bits after 2 bits of padding: one octet). */
enum pqpan_mesh_prov_type {
    PQPAN_MESH_PROV_INVITE = 0x00,
    PQPAN_MESH_PROV_CAPABILITIES = 0x01,
    PQPAN_MESH_PROV_START = 0x02,
    PQPAN_MESH_PROV_PUBLIC_KEY = 0x03,
    PQPAN_MESH_PROV_INPUT_COMPLETE = 0x04,
    PQPAN_MESH_PROV_CONFIRMATION = 0x05,
    PQPAN_MESH_PROV_RANDOM = 0x06,
    PQPAN_MESH_PROV_DATA = 0x07,
    PQPAN_MESH_PROV_COMPLETE = 0x08,
    PQPAN_MESH_PROV_FAILED = 0x09
};

/* Parameter sizes, octets (§5.4.1: the tables of each PDU's fields). */
#define PQPAN_MESH_PROV_TYPE_BYTES 1u         /* Padding (2 bits) + Type (6 bits) */
#define PQPAN_MESH_PROV_INVITE_PARAMS 1u      /* Attention Duration */
/* Capabilities: Number of Elements 1, Algorithms 2, Public Key Type 1, OOB Type 1, Output
 * OOB Size 1, Output OOB Action 2, Input OOB Size 1, Input OOB Action 2. */
#define PQPAN_MESH_PROV_CAPABILITIES_PARAMS 11u
/* Start: Algorithm 1, Public Key 1, Authentication Method 1, Authentication Action 1,
 * Authentication Size 1. */
#define PQPAN_MESH_PROV_START_PARAMS 5u
#define PQPAN_MESH_PROV_P256_KEY_BYTES 64u    /* Public Key X 32 + Public Key Y 32 */
/* Confirmation and Random: 16 octets with BTM_ECDH_P256_CMAC_AES128_AES_CCM, 32 with
 * BTM_ECDH_P256_HMAC_SHA256_AES_CCM (§5.4.1 Confirmation / Random, §5.4.2.3). */
#define PQPAN_MESH_PROV_CMAC_VALUE_BYTES 16u
#define PQPAN_MESH_PROV_HMAC_VALUE_BYTES 32u
/* Data: Encrypted Provisioning Data 25 + Provisioning Data MIC 8. */
#define PQPAN_MESH_PROV_DATA_PARAMS 33u

/* Key agreement of a provisioning run. */
enum pqpan_mesh_prov_variant {
    PQPAN_MESH_PROV_P256 = 0, /* the specification's: P-256 public keys, ECDH */
    PQPAN_MESH_PROV_MLKEM,    /* pqpan's proposal: ek → device, ct → provisioner */
    PQPAN_MESH_PROV_HYBRID,   /* pqpan's proposal: P-256 key || ek, P-256 key || ct */
    PQPAN_MESH_PROV_VARIANT_COUNT
};

/* The Start PDU's Algorithm: sets the Confirmation and Random sizes. */
enum pqpan_mesh_prov_alg {
    PQPAN_MESH_PROV_ALG_CMAC = 0, /* BTM_ECDH_P256_CMAC_AES128_AES_CCM: 16-octet values */
    PQPAN_MESH_PROV_ALG_HMAC,     /* BTM_ECDH_P256_HMAC_SHA256_AES_CCM: 32-octet values */
    PQPAN_MESH_PROV_ALG_COUNT
};

enum pqpan_mesh_prov_role { PQPAN_MESH_PROVISIONER = 0, PQPAN_MESH_DEVICE = 1 };

/* pqpan's variant, a key too long for one PB-ADV transaction: each Public Key PDU of the
 * PQ and hybrid variants carries one Part octet (part index in the high nibble, parts - 1
 * in the low nibble) after its Type, then the next run of key octets, the parts filled in
 * order to the largest transaction (docs/PROTOCOL.md "Mesh provisioning with ML-KEM"). */
#define PQPAN_MESH_PROV_PART_BYTES 1u
#define PQPAN_MESH_PROV_PARTS_MAX 4u

/* One Provisioning PDU of a run, in the order sent. */
struct pqpan_mesh_prov_step {
    enum pqpan_mesh_prov_role sender;
    enum pqpan_mesh_prov_type type;
    uint32_t length;      /* the Provisioning PDU, octets, Type included */
    uint32_t key_octets;  /* Public Key PDUs: octets of key (or ct) it carries */
    uint8_t part, parts;  /* Public Key PDUs of the PQ / hybrid variants: 0..parts-1 */
    enum pqpan_phase phase; /* KEY_TRANSFER (Invite .. Public Key), CONFIRM (the rest) */
    uint32_t ops_before;  /* bit (1u << enum pqpan_op): the sender runs these before it */
};

#define PQPAN_MESH_PROV_STEPS_MAX 20u

/* The PDUs of a provisioning run with No OOB authentication (§5.4.2: Invite, Capabilities,
 * Start, Public Key ×2, Confirmation ×2, Random ×2, Data, Complete) over a bearer whose
 * largest Provisioning PDU is max_pdu octets (PQPAN_MESH_PBADV_TRANSACTION_MAX on PB-ADV),
 * and the crypto each side runs before the PDU that needs it: P-256 key generation before
 * a side's Public Key, ECDH before its Confirmation; ML-KEM KeyGen (provisioner) before
 * its Public Key, Encaps (device) before its Public Key, Decaps (provisioner) before its
 * Confirmation. Errors (*n = 0): PQPAN_ERR_INVALID_ARG (NULL, variant / alg out of range,
 * unknown KEM for a PQ variant, max_pdu too small for the fixed PDUs),
 * PQPAN_ERR_CAPACITY (a key needing more than PQPAN_MESH_PROV_PARTS_MAX parts). */
PQPAN_MUST_CHECK int pqpan_mesh_prov_plan(struct pqpan_mesh_prov_step out[PQPAN_MESH_PROV_STEPS_MAX],
                                          uint32_t *n, enum pqpan_mesh_prov_variant variant,
                                          enum pqpan_kem_id kem, enum pqpan_mesh_prov_alg alg,
                                          uint32_t max_pdu);

/* What a provisioning run agrees and with which values (the Start PDU's choices). */
struct pqpan_mesh_prov_keys {
    enum pqpan_mesh_prov_variant variant;
    enum pqpan_kem_id kem; /* PQ and hybrid variants */
    enum pqpan_mesh_prov_alg alg;
};

/* k = ML-KEM-768 in the PQ variant with HMAC values. */
void pqpan_mesh_prov_keys_default(struct pqpan_mesh_prov_keys *k);

/* Books the operations ops (bits 1u << enum pqpan_op) on l: their cycles and counts, and
 * their CPU time (cycles at cpu_hz) in the CRYPTO phase, as the BLE estimator prices
 * computation; returns that time, ns. */
uint64_t pqpan_mesh_prov_book_ops(struct pqpan_ledger *l, uint32_t ops,
                                  const uint64_t cycles[PQPAN_OP_COUNT], uint32_t cpu_hz);

/* "p256", "mlkem", "hybrid"; "cmac", "hmac". */
const char *pqpan_mesh_prov_variant_name(enum pqpan_mesh_prov_variant v);
const char *pqpan_mesh_prov_alg_name(enum pqpan_mesh_prov_alg a);

/* ---- PB-ADV and Generic Provisioning (MshPRT v1.1 §5.2.1, §5.3) --------------------- */

/* §5.2.1: PB-ADV PDU = Link ID (4) + Transaction Number (1) + Generic Provisioning PDU, the
 * Generic Provisioning PDU at most 24 octets (the bearer's MTU), in an AD structure of AD
 * Type «PB-ADV» (Length 1 + AD Type 1). */
#define PQPAN_MESH_PBADV_LINK_ID_BYTES 4u
#define PQPAN_MESH_PBADV_TXN_BYTES 1u
#define PQPAN_MESH_PBADV_AD_HDR_BYTES 2u
#define PQPAN_MESH_PBADV_GP_MTU 24u
/* §5.3.1.1 Transaction Start: SegN (6 bits) + GPCF (2 bits) 1, TotalLength 2, FCS 1, then
 * up to 24 - 4 = 20 octets of the Provisioning PDU. §5.3.1.3 Transaction Continuation:
 * SegmentIndex (6 bits) + GPCF 1, then up to 23 octets. §5.3.1.2 Transaction
 * Acknowledgment: Padding (6 bits) + GPCF, 1 octet. §5.3.1.4 Provisioning Bearer Control:
 * BearerOpcode (6 bits) + GPCF 1, then Link Open: Device UUID 16, Link Ack: none, Link
 * Close: Reason 1. */
#define PQPAN_MESH_PBADV_START_HDR_BYTES 4u
#define PQPAN_MESH_PBADV_CONT_HDR_BYTES 1u
#define PQPAN_MESH_PBADV_START_DATA_MAX (PQPAN_MESH_PBADV_GP_MTU - PQPAN_MESH_PBADV_START_HDR_BYTES)
#define PQPAN_MESH_PBADV_CONT_DATA_MAX (PQPAN_MESH_PBADV_GP_MTU - PQPAN_MESH_PBADV_CONT_HDR_BYTES)
#define PQPAN_MESH_PBADV_ACK_BYTES 1u
#define PQPAN_MESH_PBADV_LINK_OPEN_BYTES 17u
#define PQPAN_MESH_PBADV_LINK_ACK_BYTES 1u
#define PQPAN_MESH_PBADV_LINK_CLOSE_BYTES 2u
/* SegN and SegmentIndex are 6 bits: segments 0..63, so a transaction carries at most
 * 20 + 63 × 23 = 1469 octets (TotalLength, 16 bits, could say more). */
#define PQPAN_MESH_PBADV_SEGMENTS_MAX 64u
#define PQPAN_MESH_PBADV_TRANSACTION_MAX                                                      \
    (PQPAN_MESH_PBADV_START_DATA_MAX +                                                        \
     (PQPAN_MESH_PBADV_SEGMENTS_MAX - 1u) * PQPAN_MESH_PBADV_CONT_DATA_MAX)

/* Segments of a transaction carrying a Provisioning PDU of total_len octets (SegN + 1);
 * 0 when total_len is 0 or above PQPAN_MESH_PBADV_TRANSACTION_MAX. */
uint32_t pqpan_mesh_pbadv_segments(uint32_t total_len);

/* Octets of the Provisioning PDU in segment seg (0 = Transaction Start) of a transaction of
 * total_len octets; 0 for a segment the transaction does not have. */
uint32_t pqpan_mesh_pbadv_segment_data(uint32_t total_len, uint32_t seg);

/* The ADV_NONCONN_IND payload (AdvA 6 + AdvData) carrying one Generic Provisioning PDU of
 * gp_len octets: AdvA + AD header + Link ID + Transaction Number + gp_len. */
uint32_t pqpan_mesh_pbadv_adv_payload(uint32_t gp_len);

/* The Generic Provisioning PDU of segment seg of a transaction of total_len octets. */
uint32_t pqpan_mesh_pbadv_segment_gp(uint32_t total_len, uint32_t seg);

/* ---- Estimate over PB-ADV ----------------------------------------------------------- */

struct pqpan_mesh_pbadv_config {
    struct pqpan_mesh_prov_keys keys;
    enum pqpan_ble_phy phy;       /* legacy advertising: LE 1M only (Core Vol 6 Part B §2.3) */
    uint64_t adv_interval_ns;     /* advInterval of every PB-ADV transmission */
    uint32_t pdu_transmissions;   /* advertising events per segment */
    uint32_t ack_transmissions;   /* advertising events per Transaction Ack / Link Ack */
    uint32_t close_transmissions; /* advertising events of the Link Close */
    double per;                   /* packet error rate of each advertising packet (0: no loss) */
    uint64_t retrans_ns;          /* the retransmission timer of a transaction */
    uint64_t txn_timeout_ns;      /* a transaction given up (the link closed) after this */
    uint64_t scan_window_ns;      /* each side's scanning: scanWindow every scanInterval, */
    uint64_t scan_interval_ns;    /* window <= interval (equal: continuous scanning) */
};

/* Scanning (Core v5.4 Vol 6 Part B §4.4.3; HCI LE Set Scan Parameters, Vol 4 Part E
 * §7.8.10: LE_Scan_Interval and LE_Scan_Window 2.5 ms .. 10.24 s, window <= interval).
 * MshPRT v1.1 §5.2.1: a PB-ADV device should scan with a duty cycle close to 100 %; Zephyr
 * (subsys/bluetooth/mesh/adv.h) BT_MESH_SCAN_INTERVAL_MS = BT_MESH_SCAN_WINDOW_MS = 30. An
 * event's PDU is heard when its packet on the channel being scanned falls in a window:
 * with probability window / interval (the event, 1.1 ms, short against the windows). */
#define PQPAN_MESH_SCAN_MIN_NS UINT64_C(2500000)
#define PQPAN_MESH_SCAN_MAX_NS UINT64_C(10240000000)

/* §5.3.2: a transaction's sender retransmits it until it receives the Transaction Ack, and
 * gives up (closing the link, Link Close reason Timeout) when none comes within the
 * transaction timeout. Zephyr (subsys/bluetooth/mesh/pb_adv.c, Kconfig):
 * BT_MESH_PB_ADV_RETRANS_TIMEOUT 500 ms (range 100..800), TRANSACTION_TIMEOUT 30 s. */
#define PQPAN_MESH_PBADV_RETRANS_NS UINT64_C(500000000)
#define PQPAN_MESH_PBADV_TXN_TIMEOUT_NS UINT64_C(30000000000)

/* Defaults: the rows of the table of defaults (defaults.h: --pbadv-interval-ms,
 * --pdu-transmissions, --ack-transmissions, --close-transmissions), each from Zephyr's
 * mesh stack (subsys/bluetooth/mesh/pb_adv.c, Kconfig): pb_adv.c creates every PB-ADV
 * buffer with BT_MESH_TRANSMIT(count, 20): a 20 ms interval;
 * BT_MESH_PB_ADV_TRANS_PDU_RETRANSMIT_COUNT 0 (one transmission per segment, the
 * transaction retransmitted by its timer), BT_MESH_PB_ADV_TRANS_ACK_RETRANSMIT_COUNT 2 and
 * BT_MESH_PB_ADV_LINK_CLOSE_RETRANSMIT_COUNT 2 (three transmissions). */

/* cfg = the defaults above, LE 1M, the keys of pqpan_mesh_prov_keys_default. */
void pqpan_mesh_pbadv_config_default(struct pqpan_mesh_pbadv_config *cfg);

/* scanWindow / scanInterval: the share of time each side listens, and the probability
 * that it hears an event (but for packet errors). */
double pqpan_mesh_pbadv_scan_duty(const struct pqpan_mesh_pbadv_config *c);

struct pqpan_mesh_pbadv_estimate {
    struct pqpan_ledger ledger[2]; /* index enum pqpan_mesh_prov_role */
    uint64_t latency_ns;           /* first Link Open event .. Complete received */
    uint64_t span_ns;              /* first event .. end of the last event of either side */
    uint32_t transactions;         /* Provisioning PDUs (one transaction each) */
    uint32_t segments[2];          /* Generic Provisioning segments each side sent */
    uint32_t adv_events[2];        /* advertising events each side ran */
    double resent_segments[2];     /* segment transmissions each side sent after a
                                      retransmission timer (the estimate: expected) */
};

/* The expected provisioning over PB-ADV at zero loss (docs/MODEL.md "Mesh provisioning"):
 * Link Open / Link Ack, the PDUs of pqpan_mesh_prov_plan (max_pdu the largest transaction),
 * each a transaction of segments and a Transaction Ack, the Link Close. A transmission is
 * one advertising event: ADV_NONCONN_IND on channels 37, 38, 39 (pre-processing, three
 * radio ramp-ups and packets, post-processing); a side's events start E[T_advEvent] =
 * advInterval + 5 ms apart (Core Vol 6 Part B §4.4.2.2.1); the peer, scanning
 * continuously, receives an event's PDU on the mean (second) channel. Each side scans
 * (RX) whenever it neither advertises nor computes. dev and cycles are per side (index
 * enum pqpan_mesh_prov_role). Errors (*out zeroed): PQPAN_ERR_INVALID_ARG (NULL, an option
 * out of range: interval below 20 ms, zero transmissions), those of pqpan_mesh_prov_plan. */
PQPAN_MUST_CHECK int pqpan_mesh_pbadv_estimate(struct pqpan_mesh_pbadv_estimate *out,
                                               const struct pqpan_mesh_pbadv_config *cfg,
                                               const struct pqpan_ble_device dev[2],
                                               const uint64_t cycles[2][PQPAN_OP_COUNT]);

/* ---- Estimate over PB-GATT (MshPRT v1.1 §5.2.2, §6.3.1, §7.1) ------------------------- */

/* A Proxy PDU: SAR (2 bits) + Message Type (6 bits, 0x03 = Provisioning PDU), then data
 * (§6.3.1); a Provisioning PDU longer than one ATT value is segmented (SAR first /
 * continuation / last). Zephyr (subsys/bluetooth/mesh/proxy_msg.c) fills each segment to
 * ATT_MTU - 3 octets (the ATT opcode and handle taken off), header included. */
#define PQPAN_MESH_PROXY_HDR_BYTES 1u

/* Proxy PDUs (ATT values) carrying a Provisioning PDU of len octets at att_mtu: one when
 * len <= att_mtu - 4, else ceil(len / (att_mtu - 4)); 0 when att_mtu < 5 or len is 0. */
uint32_t pqpan_mesh_proxy_segments(uint32_t len, uint32_t att_mtu);

/* The device is the GATT server of the Mesh Provisioning Service (§7.1) and the
 * peripheral; the provisioner, its client, writes Mesh Provisioning Data In with Write
 * Without Response (ATT Write Command) and is notified on Mesh Provisioning Data Out. */
/* Which part of the connection's life a PB-GATT run prices. */
enum pqpan_mesh_pbgatt_setup {
    PQPAN_MESH_PBGATT_SETUP_NONE = 0, /* the provisioning over an open connection */
    PQPAN_MESH_PBGATT_SETUP_FULL      /* the set-up before it too (pqpan_mesh_pbgatt_service) */
};

struct pqpan_mesh_pbgatt_config {
    struct pqpan_mesh_prov_keys keys;
    enum pqpan_ble_phy phy;
    uint32_t att_mtu;   /* 23 .. 517 (Core Vol 3 Part F §3.2.8, §3.4.2) */
    uint32_t ll_octets; /* 27 .. 251 */
    uint64_t ci_ns;     /* connection interval */
    int same_event_reply;
    enum pqpan_mesh_pbgatt_setup setup;
    uint64_t adv_interval_ns; /* the device's advInterval until the provisioner connects
                                 (with the set-up; Core v5.4 Vol 6 Part B §4.4.2.2: 20 ms ..
                                 10485.759375 s in steps of 0.625 ms) */
};

/* cfg = the keys of pqpan_mesh_prov_keys_default over the link defaults of the BLE
 * estimator (the study's: LE 1M, ATT_MTU 403, 27 LL octets, 50 ms, replies in the next
 * event; src/common/defaults.c), the full set-up, advertising at
 * PQPAN_DEFAULT_PBGATT_ADV_INTERVAL_MS. */
void pqpan_mesh_pbgatt_config_default(struct pqpan_mesh_pbgatt_config *cfg);

/* The unprovisioned device's Mesh Provisioning Service (MshPRT v1.1 §7.1) as the set-up
 * advertises and discovers it. AdvData (§7.1.2.2.1; Core v5.4 Vol 3 Part C §11, CSS Part A
 * §1.1, §1.3, §1.11): Flags (3 octets), Complete List of 16-bit Service UUIDs with 0x1827
 * (4), Service Data - 16-bit UUID: 0x1827, Device UUID (16), OOB Information (2) (22), after
 * AdvA (6): an ADV_IND payload of 35 octets. The device's attribute table (handles of
 * src/mesh/pbgatt_sim.h): the primary service 0x1827 (0x0010), Data In's declaration
 * (0x0011: Write Without Response, value 0x0012, UUID 0x2ADB), Data Out's (0x0013: Notify,
 * value 0x0014, UUID 0x2ADC), Data Out's CCCD (0x0015), the last handle. The provisioner
 * (GATT client) runs (Core v5.4 Vol 3 Part G, Part F §3.4): Discover Primary Service by
 * Service UUID (§4.4.2: Find By Type Value Request 9 / Response 5, then the request for
 * the handles after 0x0015 / Error Response, Attribute Not Found, 5), Discover All
 * Characteristics of a Service (§4.6.1: Read By Type Request 7 / Response 16: two
 * declarations of 7 octets, then the request for 0x0014..0x0015 / Error Response 5),
 * Discover All Characteristic Descriptors of Data Out (§4.7.1: Find Information Request
 * 5 / Response 6, the CCCD, the range's end; Data In has no descriptor range), Write
 * Characteristic Descriptors (§4.12.3: Write Request 5 enabling notifications, Part G
 * §3.3.3.3 0x0001 / Write Response 1). */
#define PQPAN_MESH_PBGATT_ADV_IND_PAYLOAD 35u
#define PQPAN_MESH_PBGATT_FIND_BY_TYPE_REQ_BYTES 9u /* opcode, 2 handles, type, UUID 2 */
#define PQPAN_MESH_PBGATT_READ_BY_TYPE_RSP_BYTES 16u /* opcode, length, 2 x (handle 2 +
                                                       properties 1 + value handle 2 +
                                                       UUID 2) */
void pqpan_mesh_pbgatt_service(struct pqpan_ble_service *svc);

struct pqpan_mesh_pbgatt_estimate {
    struct pqpan_ledger ledger[2]; /* index enum pqpan_mesh_prov_role (= enum pqpan_ble_role) */
    uint64_t latency_ns;           /* first Provisioning PDU .. the last delivered; with the
                                      set-up from the provisioner's scan start */
    uint64_t setup_ns;             /* the set-up's part of it (0 without) */
    uint32_t proxy_pdus[2];        /* ATT values each side sent */
    struct pqpan_ble_counts counts;
};

/* The provisioning PDUs of pqpan_mesh_prov_plan (no transaction limit on PB-GATT: a key is
 * one Public Key PDU) over an established connection, scheduled by the BLE connection
 * model (pqpan_ble_schedule: LL fragmentation, connection events, per-event costs with
 * dev); crypto before the PDU that needs it, booked as pqpan_mesh_prov_book_ops. With
 * PQPAN_MESH_PBGATT_SETUP_FULL the connection's set-up before it (pqpan_ble_setup with
 * pqpan_mesh_pbgatt_service, dev[0]'s timing on both sides as the schedule's): the device
 * advertising at adv_interval_ns until the provisioner, scanning from time 0, connects
 * (the expected case, pqpan_ble_adv_mean), the CONNECT_IND and first event at ci_ns, the
 * feature and version exchange, a PHY update (phy other than LE 1M) and a data length
 * update (ll_octets above 27), the ATT_MTU exchange (att_mtu above 23), the discovery and
 * the CCCD write; the run starts when its last event closes. Errors (*out zeroed): PQPAN_ERR_INVALID_ARG (NULL, option out of range), those
 * of pqpan_mesh_prov_plan. */
PQPAN_MUST_CHECK int pqpan_mesh_pbgatt_estimate(struct pqpan_mesh_pbgatt_estimate *out,
                                                const struct pqpan_mesh_pbgatt_config *cfg,
                                                const struct pqpan_ble_device dev[2],
                                                const uint64_t cycles[2][PQPAN_OP_COUNT]);

#endif
