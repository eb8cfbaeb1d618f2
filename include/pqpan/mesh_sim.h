/* BLE Mesh provisioning over PB-ADV, executed (issue 29 item 1): the provisioner and the
 * device build, segment, send, reassemble and check the Provisioning PDUs of
 * pqpan_mesh_prov_plan byte by byte (MshPRT v1.1 §5.3, §5.4), with real ML-KEM / P-256
 * from src/crypto and the key derivations of §5.4.2.4-.5 over AES-CMAC; timing and
 * ledgers by the PB-ADV estimator's rules (src/mesh/pbadv_clock.h: advertising events
 * advInterval + the mean advDelay apart, reception on the mean channel, zero loss), so
 * that estimate = simulate. docs/MODEL.md "Mesh provisioning". */
#ifndef PQPAN_MESH_SIM_H
#define PQPAN_MESH_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/mesh_prov.h"

#define PQPAN_MESH_KEY_BYTES 16u         /* SessionKey, DeviceKey, NetKey (§3.9.2, §5.4.2.5) */
#define PQPAN_MESH_NONCE_BYTES 13u       /* SessionNonce: the 13 LSOs of k1(.., "prsn") */
#define PQPAN_MESH_PROV_DATA_BYTES 25u   /* NetKey 16, Key Index 2, Flags 1, IV Index 4,
                                            Unicast Address 2 (§5.4.2.5) */
#define PQPAN_MESH_PROV_MIC_BYTES 8u     /* Provisioning Data MIC (§5.4.1.8) */
/* Provisioning Failed Error Codes (§5.4.1.10, Table 5.33). */
#define PQPAN_MESH_PROV_ERR_CONFIRMATION_FAILED 0x04u
#define PQPAN_MESH_PROV_ERR_DECRYPTION_FAILED 0x06u

/* One advertising PDU as sent on one channel: LL PDU (header, AdvA, AdvData) and CRC,
 * at t_ns (start of the packet), on channel 37..39. Returns 0, or non-zero to stop. */
typedef int (*pqpan_mesh_pbadv_packet_fn)(void *ctx, uint64_t t_ns, uint8_t channel,
                                          const uint8_t *pdu, size_t len);

/* Whether advertising event n (0, 1, ... in the order the run books them) carrying a PDU
 * to `to` is lost at its receiver: non-zero lost. A test's fixed loss pattern in place of
 * the drawn packet errors. */
typedef int (*pqpan_mesh_pbadv_loss_fn)(void *ctx, enum pqpan_mesh_prov_role to, uint32_t n);

struct pqpan_mesh_pbadv_sim_config {
    struct pqpan_mesh_pbadv_config link; /* keys, timing, the packet error rate link.per */
    uint64_t seed;                       /* the random source of keys, Randoms, NetKey */
    int corrupt_confirmation;            /* flip one bit of the provisioner's Confirmation
                                            on the air (the device must fail, §5.4.2.4) */
    pqpan_mesh_pbadv_packet_fn on_packet; /* NULL: no capture */
    void *packet_ctx;
    pqpan_mesh_pbadv_loss_fn lose;       /* NULL: each event's PDU lost with link.per,
                                            drawn from seed (a source apart from the keys') */
    void *loss_ctx;
};

void pqpan_mesh_pbadv_sim_config_default(struct pqpan_mesh_pbadv_sim_config *c);

struct pqpan_mesh_pbadv_sim_result {
    struct pqpan_mesh_pbadv_estimate run;  /* ledgers, latency, counts as the estimator's */
    uint8_t session_key[2][PQPAN_MESH_KEY_BYTES]; /* index enum pqpan_mesh_prov_role */
    uint8_t device_key[2][PQPAN_MESH_KEY_BYTES];
    uint8_t net_key[2][PQPAN_MESH_KEY_BYTES];     /* sent / decrypted from the Data PDU */
    int keys_equal;           /* session, device and network keys equal on both sides */
    int complete;             /* the provisioner received Provisioning Complete */
    uint8_t failed_code;      /* the device's Provisioning Failed error code, 0 if none */
    uint32_t prov_pdus[2];    /* Provisioning PDUs each side sent */
    uint32_t packets;         /* advertising PDUs on the air (3 per event) */
    uint32_t lost_events;     /* advertising events whose PDU the peer did not receive */
    int timed_out;            /* a transaction went unacknowledged for link.txn_timeout_ns:
                                 the link closed (Link Close, reason Timeout) */
};

/* Runs Link Open / Ack, the provisioning with No OOB authentication, Link Close.
 * dev and cycles per side (index enum pqpan_mesh_prov_role): the crypto is executed on the
 * host and priced with cycles, as the estimator. PQPAN_OK also when the device failed
 * (res->failed_code set, the run ends with the provisioner's Link Close). Errors:
 * PQPAN_ERR_INVALID_ARG (NULL, options out of range, an unknown Start algorithm), those
 * of pqpan_mesh_prov_plan, PQPAN_ERR_STATE
 * (a PDU sequence that departs from the plan: an internal fault), the crypto's errors, a
 * non-zero return of on_packet (PQPAN_ERR_IO). */
PQPAN_MUST_CHECK int pqpan_mesh_pbadv_simulate(struct pqpan_mesh_pbadv_sim_result *res,
                                               const struct pqpan_mesh_pbadv_sim_config *cfg,
                                               const struct pqpan_ble_device dev[2],
                                               const uint64_t cycles[2][PQPAN_OP_COUNT]);

/* ---- PB-GATT, executed (MshPRT v1.1 §5.2.2, §6.3.1, §7.1) ---------------------------- */

struct pqpan_pcap_ble_info; /* include/pqpan/ble_pdu.h */

/* One LL PDU as a sniffer records it: header, payload and CRC, at t_ns (start of the
 * packet), with the pseudo-header's fields (channel, direction, access address). Returns
 * 0, or non-zero to stop. */
typedef int (*pqpan_mesh_pbgatt_packet_fn)(void *ctx, uint64_t t_ns,
                                           const struct pqpan_pcap_ble_info *info,
                                           const uint8_t *pdu, size_t len);

struct pqpan_mesh_pbgatt_sim_config {
    struct pqpan_mesh_pbgatt_config link; /* keys (only PQPAN_MESH_PROV_ALG_CMAC), the link */
    uint64_t seed;                        /* the random source of keys, Randoms, NetKey */
    int corrupt_confirmation;             /* as PB-ADV's */
    pqpan_mesh_pbgatt_packet_fn on_packet; /* NULL: no capture */
    void *packet_ctx;
};

void pqpan_mesh_pbgatt_sim_config_default(struct pqpan_mesh_pbgatt_sim_config *c);

struct pqpan_mesh_pbgatt_sim_result {
    struct pqpan_mesh_pbgatt_estimate run; /* ledgers, latency, counts as the estimator's */
    uint8_t session_key[2][PQPAN_MESH_KEY_BYTES]; /* index enum pqpan_mesh_prov_role */
    uint8_t device_key[2][PQPAN_MESH_KEY_BYTES];
    uint8_t net_key[2][PQPAN_MESH_KEY_BYTES];
    int keys_equal, complete;
    uint8_t failed_code;
    uint32_t prov_pdus[2]; /* Provisioning PDUs each side sent */
    uint32_t packets;      /* LL data PDUs with a payload the run sends (the connection
                              model's count; the capture has these after the set-up's) */
};

/* Runs the provisioning over PB-GATT: each Provisioning PDU segmented into Proxy PDUs
 * (§6.3.1: SAR complete / first / continuation / last, Message Type 0x03), each in an ATT
 * Write Command to Mesh Provisioning Data In (provisioner, the GATT client and central) or
 * a Handle Value Notification of Mesh Provisioning Data Out (device, the server and
 * peripheral), parsed and reassembled by the peer (Core v5.4 Vol 3 Part F §3.4.5.3,
 * §3.4.7.1); the crypto executed and priced with cycles; times and ledgers by the PB-GATT
 * estimator's connection model (pqpan_ble_schedule over the PDUs sent), so that estimate =
 * simulate at zero loss. With on_packet: a CONNECT_IND, the handles' discovery and the
 * CCCD write (set-up the estimate does not price, before the run), then every LL data PDU
 * (L2CAP fragments, each answered by the peer's empty PDU). Errors as
 * pqpan_mesh_pbadv_simulate's. */
PQPAN_MUST_CHECK int pqpan_mesh_pbgatt_simulate(struct pqpan_mesh_pbgatt_sim_result *res,
                                                const struct pqpan_mesh_pbgatt_sim_config *cfg,
                                                const struct pqpan_ble_device dev[2],
                                                const uint64_t cycles[2][PQPAN_OP_COUNT]);

/* ---- The provisioning security functions (MshPRT v1.1 §3.9.2, §5.4.2.4-.5) ---------- */

/* s1(M) = AES-CMAC_ZERO(M) (§3.9.2.2 salt generation function). */
void pqpan_mesh_s1(uint8_t out[16], const uint8_t *m, size_t len);
/* k1(N, SALT, P) = AES-CMAC_T(P), T = AES-CMAC_SALT(N) (§3.9.2.3). */
void pqpan_mesh_k1(uint8_t out[16], const uint8_t *n, size_t n_len, const uint8_t salt[16],
                   const uint8_t *p, size_t p_len);
/* s2(M) = HMAC-SHA-256_ZERO(M), ZERO the 256-bit all-zero key (§3.9.2, the SALT
 * generation function s2; used by BTM_ECDH_P256_HMAC_SHA256_AES_CCM, §5.4.2.4). */
void pqpan_mesh_s2(uint8_t out[32], const uint8_t *m, size_t len);
/* k5(N, SALT, P) = HMAC-SHA-256_T(P), T = HMAC-SHA-256_SALT(N) (§3.9.2, the derivation
 * function k5); N of at least 32 octets, SALT of 32. */
void pqpan_mesh_k5(uint8_t out[32], const uint8_t *n, size_t n_len, const uint8_t salt[32],
                   const uint8_t *p, size_t p_len);

#endif
