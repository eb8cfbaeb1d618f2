/* Keys between mesh nodes: pqpan's PQKE (INIT / RESP / FIN, and REVEAL in numeric mode;
 * docs/PROTOCOL.md) between two provisioned nodes of a BLE Mesh network, carried in access
 * messages of a vendor model over the mesh network and relayed by managed flooding (issue
 * 29 item 2; docs/MODEL.md "Keys between mesh nodes", docs/PROTOCOL.md §11).
 *
 * Mesh Protocol v1.1 (MshPRT), the layers a PQKE message goes through:
 *   access (§3.7.3): a vendor message, opcode 3 octets, then pqpan's Part header and a run
 *     of the PQKE message's octets (pqpan's framing: a PQKE message longer than one access
 *     message is split into parts);
 *   upper transport (§3.6.2): the access payload encrypted with an application key and a
 *     TransMIC of 4 octets (SZMIC 0) or 8 (SZMIC 1);
 *   lower transport (§3.5.2.2): segmented access messages, each a 4-octet header (SEG,
 *     AKF, AID, SZMIC, SeqZero, SegO, SegN) and up to 12 octets of the upper transport PDU;
 *     SegN is 5 bits, so at most 32 segments = 384 octets; the receiver acknowledges with
 *     a Segment Acknowledgment message (§3.5.2.3.1, a control message, opcode 0x00);
 *   network (§3.4.4): IVI/NID 1 + CTL/TTL 1 + SEQ 3 + SRC 2 + DST 2 + the lower transport
 *     PDU + NetMIC (4 octets for access messages, 8 for control), at most 29 octets;
 *   advertising bearer (§3.3.1): one Network PDU in an AD structure of AD type «Mesh
 *     Message» in an ADV_NONCONN_IND (Core v5.4 Vol 6 Part B §2.3.1.3).
 * A node sends each Network PDU Network Transmit Count + 1 times (§4.2.19), a relay each
 * one it relays Relay Retransmit Count + 1 times (§4.2.20), relaying a PDU once (its
 * network message cache drops the copies, §3.4.6.5) while its TTL is at least 2 (§3.4.6.3). */
#ifndef PQPAN_MESH_NET_H
#define PQPAN_MESH_NET_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/ble.h"
#include "pqpan/error.h"
#include "pqpan/ledger.h"
#include "pqpan/sim.h"

/* ---- sizes (octets) --------------------------------------------------------------- */

/* §3.7.3.1: a 3-octet opcode (0b11xxxxxx + a 16-bit Company Identifier) is a vendor
 * opcode, the only kind not assigned by the Bluetooth SIG. pqpan's «PQKE Part» message
 * uses opcode 0x01 with Company ID 0xFFFF (the Assigned Numbers' value for tests before a
 * company ID is assigned): 0xC1 0xFF 0xFF. */
#define PQPAN_MESH_NET_OPCODE_BYTES 3u
#define PQPAN_MESH_NET_OPCODE 0xC1u
#define PQPAN_MESH_NET_COMPANY_ID 0xFFFFu
/* pqpan's framing (docs/PROTOCOL.md §11): Part (the index, 1 octet) and Parts (their
 * number, 1 octet) before the run of PQKE message octets; the PQKE message's own first
 * octet says which message it is. */
#define PQPAN_MESH_NET_PART_HDR_BYTES 2u
#define PQPAN_MESH_NET_PARTS_MAX 255u
/* §3.6.2: TransMIC 32 bits (SZMIC 0) or 64 bits (SZMIC 1). */
#define PQPAN_MESH_NET_TRANSMIC_SMALL 4u
#define PQPAN_MESH_NET_TRANSMIC_LARGE 8u
/* §3.5.2.2 segmented access message: 4 octets of header, 1..12 of segment. */
#define PQPAN_MESH_NET_SEG_HDR_BYTES 4u
#define PQPAN_MESH_NET_SEG_DATA_MAX 12u
#define PQPAN_MESH_NET_SEGMENTS_MAX 32u /* SegN 5 bits */
#define PQPAN_MESH_NET_UPPER_MAX (PQPAN_MESH_NET_SEG_DATA_MAX * PQPAN_MESH_NET_SEGMENTS_MAX)
/* §3.5.2.3.1 Segment Acknowledgment: SEG 0 + Opcode 0x00 (1), OBO + SeqZero + RFU (2),
 * BlockAck (4). */
#define PQPAN_MESH_NET_SEG_ACK_BYTES 7u
/* §3.4.4 Network PDU: header 9, NetMIC 4 (CTL 0) or 8 (CTL 1), at most 29 octets. */
#define PQPAN_MESH_NET_HDR_BYTES 9u
#define PQPAN_MESH_NET_NETMIC_ACCESS 4u
#define PQPAN_MESH_NET_NETMIC_CONTROL 8u
#define PQPAN_MESH_NET_PDU_MAX 29u
/* §3.3.1: AD structure Length 1 + AD Type «Mesh Message» (0x2A) 1. */
#define PQPAN_MESH_NET_AD_HDR_BYTES 2u
#define PQPAN_MESH_NET_AD_TYPE 0x2Au
/* §4.2.19 / §4.2.20: count 3 bits, interval (steps + 1) × 10 ms with 5-bit steps. */
#define PQPAN_MESH_NET_COUNT_MAX 7u
#define PQPAN_MESH_NET_STEP_NS 10000000u
#define PQPAN_MESH_NET_STEPS_MAX 32u
/* §3.6.6 Friend feature, the control messages between a Low Power Node and its Friend
 * (unsegmented control messages, CTL 1, NetMIC 64 bits; v1.0 §3.6.5.1 / §3.6.5.2): Friend
 * Poll, opcode 0x01, FSN 1 octet → 9 + 1 + 1 + 8 = 19 octets; Friend Update, opcode 0x02,
 * Flags 1 + IV Index 4 + MD 1 → 9 + 1 + 6 + 8 = 24 octets. */
#define PQPAN_MESH_NET_FRIEND_POLL_OP 0x01u
#define PQPAN_MESH_NET_FRIEND_UPDATE_OP 0x02u
#define PQPAN_MESH_NET_FRIEND_POLL_PDU 19u
#define PQPAN_MESH_NET_FRIEND_UPDATE_PDU 24u
/* The Friend Queue sizes pqpan takes: 3 (the smallest whose part carries a PQKE octet) ..
 * 255 (the Friend Offer's QueueSize is one octet, §3.6.5.4 in v1.0's numbering). */
#define PQPAN_MESH_NET_FRIEND_QUEUE_MIN 3u
#define PQPAN_MESH_NET_FRIEND_QUEUE_MAX 255u

/* §3.4.4: TTL 7 bits, 2..127 relayed. */
#define PQPAN_MESH_NET_TTL_MAX 127u
#define PQPAN_MESH_NET_HOPS_MAX 32u
/* Relay nodes in range of one hop (pqpan's bound: the estimate's flooding chain over 0 ..
 * relays holders). */
#define PQPAN_MESH_NET_RELAYS_MAX 64u
/* The SAR states (§4.2.48, §4.2.49; Zephyr sar_cfg_internal.h): counts 4 bits; the
 * retransmission interval step and increment (n + 1) × 25 ms, n 4 bits; the receiver's
 * segment interval (n + 1) × 10 ms, n 4 bits; the discard timeout (n + 1) × 5 s, n 4 bits;
 * the acknowledgment delay increment n + 1.5 segments, n 3 bits. */
#define PQPAN_MESH_NET_SAR_COUNT_MAX 15u
#define PQPAN_MESH_NET_SAR_RETRANS_STEP_NS 25000000u
#define PQPAN_MESH_NET_SAR_DISCARD_STEP_NS UINT64_C(5000000000)
#define PQPAN_MESH_NET_SAR_STEPS_MAX 16u
#define PQPAN_MESH_NET_SAR_ACK_INC_MAX 7u

/* Octets of PQKE message data one access message carries with a TransMIC of transmic
 * octets: 384 - TransMIC - opcode 3 - Part header 2 (375 or 371); 0 for another transmic. */
uint32_t pqpan_mesh_net_part_data_max(uint32_t transmic);

/* Access messages (parts) of a PQKE message of msg_len octets (0 for 0 octets, a bad
 * transmic or more than PQPAN_MESH_NET_PARTS_MAX parts). */
uint32_t pqpan_mesh_net_parts(uint32_t msg_len, uint32_t transmic);

/* Octets of the message in part p (the parts filled in order); 0 past the last. */
uint32_t pqpan_mesh_net_part_data(uint32_t msg_len, uint32_t transmic, uint32_t p);

/* The upper transport PDU of an access message carrying data octets of the PQKE
 * message: opcode + Part header + data + TransMIC. */
uint32_t pqpan_mesh_net_upper_len(uint32_t data, uint32_t transmic);

/* Segments of an upper transport PDU of upper octets: ceil(upper / 12); 0 for 0 or above
 * PQPAN_MESH_NET_UPPER_MAX. */
uint32_t pqpan_mesh_net_segments(uint32_t upper);

/* The Network PDU of segment seg of an upper transport PDU of upper octets (header 9 +
 * segment header 4 + its octets + NetMIC 4); 0 for a segment it does not have. */
uint32_t pqpan_mesh_net_segment_pdu(uint32_t upper, uint32_t seg);

/* The parts of a PQKE message to the endpoint at position to (0 the initiator, cfg->hops
 * the responder): as pqpan_mesh_net_part_data_max, pqpan_mesh_net_parts and
 * pqpan_mesh_net_part_data, but a part to a Low Power Node has at most friend_queue - 1
 * segments (the LPN's rule: Zephyr's Friend takes a segmented message for its LPN only
 * while it has fewer segments than the free room of its queue, friend.c
 * friend_queue_has_space), so (friend_queue - 1) × 12 - TransMIC - 5 octets of the message. */
struct pqpan_mesh_net_config;
uint32_t pqpan_mesh_net_part_max_to(const struct pqpan_mesh_net_config *cfg, uint32_t to);
uint32_t pqpan_mesh_net_parts_to(const struct pqpan_mesh_net_config *cfg, uint32_t to,
                                 uint32_t msg_len);
uint32_t pqpan_mesh_net_part_data_to(const struct pqpan_mesh_net_config *cfg, uint32_t to,
                                     uint32_t msg_len, uint32_t p);

/* The Network PDU of a Segment Acknowledgment: 9 + 7 + 8 = 24. */
uint32_t pqpan_mesh_net_ack_pdu(void);

/* The ADV_NONCONN_IND payload carrying a Network PDU of pdu octets: AdvA 6 + 2 + pdu. */
uint32_t pqpan_mesh_net_adv_payload(uint32_t pdu);

/* ---- the network layer's security (MshPRT v1.1 §3.9.5 - §3.9.7; v1.0 §3.8.5 - §3.8.7) --- */

/* The keys a NetKey gives the network layer: k2(NetKey, 0x00) (§3.9.2.6, master
 * credentials): NID (7 bits), EncryptionKey, PrivacyKey. */
struct pqpan_mesh_net_keys {
    uint8_t nid;
    uint8_t encryption_key[16];
    uint8_t privacy_key[16];
};

/* k2(N, P) (§3.9.2.6): salt = s1("smk2"), T = AES-CMAC_salt(N), T1 = AES-CMAC_T(P ||
 * 0x01), T2 = AES-CMAC_T(T1 || P || 0x02), T3 = AES-CMAC_T(T2 || P || 0x03); NID = the
 * low 7 bits of T1's last octet, EncryptionKey = T2, PrivacyKey = T3. p_len 1..16. */
void pqpan_mesh_k2(struct pqpan_mesh_net_keys *k, const uint8_t net_key[16], const uint8_t *p,
                   size_t p_len);

/* The clear header of a Network PDU (§3.4.4). */
struct pqpan_mesh_net_hdr {
    uint8_t ctl;  /* 0 access message (NetMIC 32 bits), 1 control (64) */
    uint8_t ttl;  /* 0..127 */
    uint32_t seq; /* 24 bits */
    uint16_t src, dst;
};

/* Builds the Network PDU carrying the lower transport PDU tpdu[0..t_len) (1..16 octets
 * with CTL 0, 1..12 with CTL 1): IVI (the IV Index's low bit) and NID, then CTL/TTL, SEQ,
 * SRC obfuscated with PECB = AES_PrivacyKey(0x0000000000 || IV Index || Privacy Random)
 * (§3.9.7.3), then DST || TransportPDU encrypted with AES-CCM under EncryptionKey and the
 * network nonce 0x00 || CTL/TTL || SEQ || SRC || 0x0000 || IV Index (§3.9.5.1) with the
 * NetMIC (§3.9.7.2). out holds PQPAN_MESH_NET_PDU_MAX octets; *out_len its length.
 * PQPAN_OK or PQPAN_ERR_INVALID_ARG (a field out of range, t_len out of range). */
PQPAN_MUST_CHECK int pqpan_mesh_net_pdu_encode(uint8_t out[PQPAN_MESH_NET_PDU_MAX], size_t *out_len,
                                               const struct pqpan_mesh_net_keys *k, uint32_t iv_index,
                                               const struct pqpan_mesh_net_hdr *h,
                                               const uint8_t *tpdu, size_t t_len);

/* The reverse: checks the NID and IVI, deobfuscates, decrypts and checks the NetMIC; *h and
 * tpdu[0..*t_len) (16 octets of room) on PQPAN_OK. PQPAN_ERR_BAD_LENGTH (shorter than a
 * header, DST and the MIC, or longer than 29), PQPAN_ERR_AUTH (another NID or IVI, or a
 * NetMIC that does not verify). */
PQPAN_MUST_CHECK int pqpan_mesh_net_pdu_decode(struct pqpan_mesh_net_hdr *h, uint8_t tpdu[16],
                                               size_t *t_len, const struct pqpan_mesh_net_keys *k,
                                               uint32_t iv_index, const uint8_t *pdu, size_t len);

/* The Friend's forwarding of a Network PDU to its LPN (§3.6.6.4 / Zephyr friend.c
 * encrypt_friend_pdu): pdu[0..*len) decoded with the master credentials and built again,
 * the same header, with the friendship credentials (k2 with P = 0x01 || LPNAddress ||
 * FriendAddress || LPNCounter || FriendCounter). Errors: those of the decode and encode. */
PQPAN_MUST_CHECK int pqpan_mesh_net_friend_forward(const struct pqpan_mesh_net_keys *master,
                                                   const struct pqpan_mesh_net_keys *friend_keys,
                                                   uint32_t iv_index,
                                                   uint8_t pdu[PQPAN_MESH_NET_PDU_MAX], size_t *len);

/* A Friend Poll (op 0x01, param = FSN) or Friend Update (op 0x02, Flags 0, the IV Index,
 * param = MD) from src to dst, SEQ seq, TTL 0, under k (friendship credentials), as the
 * Network PDU pdu[0..*len): PQPAN_OK, or PQPAN_ERR_MALFORMED when its length is not
 * PQPAN_MESH_NET_FRIEND_POLL_PDU / _UPDATE_PDU (or the encoder's error). */
PQPAN_MUST_CHECK int pqpan_mesh_net_friend_build(uint8_t pdu[PQPAN_MESH_NET_PDU_MAX], size_t *len,
                                                 const struct pqpan_mesh_net_keys *k,
                                                 uint32_t iv_index, uint16_t src, uint16_t dst,
                                                 uint8_t op, uint8_t param, uint32_t seq);

/* pqpan_mesh_net_friend_build, then the PDU decoded back and compared: PQPAN_OK or
 * PQPAN_ERR_MALFORMED. */
PQPAN_MUST_CHECK int pqpan_mesh_net_friend_check(const struct pqpan_mesh_net_keys *k,
                                                 uint32_t iv_index, uint16_t src, uint16_t dst,
                                                 uint8_t op, uint8_t param, uint32_t seq);

/* The upper transport's encryption of an access payload (§3.9.7.1): AES-CCM under the
 * application key (nonce type 0x01) or a device key (0x02) with the nonce type || ASZMIC
 * (1 with a 64-bit TransMIC on a segmented message) || SEQ || SRC || DST || IV Index
 * (§3.9.5.2, §3.9.5.3), msg encrypted in place, the TransMIC (mic_len 4 or 8) written.
 * Decrypt reverses it: PQPAN_ERR_AUTH if the TransMIC does not verify. */
#define PQPAN_MESH_NONCE_APPLICATION 0x01u
#define PQPAN_MESH_NONCE_DEVICE 0x02u
struct pqpan_mesh_upper_nonce {
    uint8_t type, aszmic;
    uint32_t seq, iv_index;
    uint16_t src, dst;
};
PQPAN_MUST_CHECK int pqpan_mesh_upper_encrypt(uint8_t *msg, size_t len, uint8_t *mic, size_t mic_len,
                                              const uint8_t key[16],
                                              const struct pqpan_mesh_upper_nonce *n);
PQPAN_MUST_CHECK int pqpan_mesh_upper_decrypt(uint8_t *msg, size_t len, const uint8_t *mic,
                                              size_t mic_len, const uint8_t key[16],
                                              const struct pqpan_mesh_upper_nonce *n);

/* ---- the estimate -------------------------------------------------------------- */

/* Node roles: the initiator (KeyGen, INIT, FIN), the responder (RESP, REVEAL) and a relay. */
enum pqpan_mesh_net_role {
    PQPAN_MESH_NET_INITIATOR = 0,
    PQPAN_MESH_NET_RESPONDER,
    PQPAN_MESH_NET_RELAY,
    PQPAN_MESH_NET_FRIEND, /* the LPN's Friend when it is a relay (--lpn, hops > 1) */
    PQPAN_MESH_NET_ROLES
};

/* Which endpoint is a Low Power Node (§3.6.6): none, the initiator or the responder. Its
 * Friend is the node one hop away: a relay of the next stage, or the other endpoint at one
 * hop. The friendship is established before the exchange. */
enum pqpan_mesh_net_lpn {
    PQPAN_MESH_NET_LPN_NONE = 0,
    PQPAN_MESH_NET_LPN_INITIATOR,
    PQPAN_MESH_NET_LPN_RESPONDER
};

struct pqpan_mesh_net_config {
    unsigned suite, mode, sig;          /* the PQKE (pqke.h), as the other links take it */
    uint32_t transmic;                  /* 4 or 8 */
    uint32_t hops;                      /* 1 .. PQPAN_MESH_NET_HOPS_MAX: hops - 1 relay stages */
    uint32_t relays;                    /* relay nodes in each stage, >= 1 */
    uint32_t ttl;                       /* the endpoints' Default TTL, hops .. 127 */
    uint32_t net_transmit_count;        /* 0..7: transmissions = count + 1 */
    uint64_t net_transmit_interval_ns;  /* 10 .. 320 ms in steps of 10 ms */
    uint32_t relay_retransmit_count;    /* 0..7 */
    uint64_t relay_retransmit_interval_ns;
    uint64_t seg_interval_ns;           /* SAR Segment Interval (§4.2.48.1) */
    uint32_t lpn;                       /* enum pqpan_mesh_net_lpn */
    uint32_t friend_queue;              /* the Friend Queue's PDUs (Friend Offer QueueSize) */
    uint64_t lpn_recv_delay_ns;         /* ReceiveDelay, 10 .. 255 ms (Friend Request) */
    uint64_t friend_recv_win_ns;        /* ReceiveWindow, 1 .. 255 ms (Friend Offer) */
    uint64_t lpn_poll_ns;               /* the LPN's poll period when its Friend had nothing */
    /* Loss and the lower transport's SAR timers (net_sar.h; docs/MODEL.md "Loss on the
     * mesh network"): per, the packet error rate of each advertising packet on the
     * channel a receiver scans, drawn at every receiver of every advertising event. */
    double per;                         /* 0 .. 1 (estimate: below 1) */
    int relay_collisions;               /* 1: the copies the relays of one stage send of an
                                           event collide at a receiver when they overlap
                                           (net_clock.h); 0: never (the default) */
    uint32_t sar_retrans_count;         /* SAR Unicast Retransmissions Count (§4.2.48.2):
                                           retransmission rounds after the first, 0..15 */
    uint32_t sar_retrans_no_progress;   /* ... Without Progress Count (§4.2.48.3), 0..15 */
    uint64_t sar_retrans_step_ns;       /* ... Interval Step (§4.2.48.4): 25 .. 400 ms */
    uint64_t sar_retrans_inc_ns;        /* ... Interval Increment (§4.2.48.5): 25 .. 400 ms
                                           per hop of the TTL above 1 */
    uint32_t sar_ack_delay_inc;         /* SAR Acknowledgment Delay Increment (§4.2.49.2):
                                           state 0..7, the delay in segments state + 1.5 */
    uint64_t sar_rx_seg_interval_ns;    /* SAR Receiver Segment Interval (§4.2.49.5): 10 ..
                                           160 ms */
    uint64_t sar_discard_ns;            /* SAR Discard Timeout (§4.2.49.4): 5 .. 80 s */
};

/* Defaults (defaults.h rows --ttl, --net-transmit-*, --relay-retransmit-*, --seg-interval-ms,
 * --transmic, --hops, --relays): ML-KEM-768 mode none (the defaults of the other links),
 * TransMIC 4 octets, one hop, one relay per stage, TTL 7, Network Transmit 2 / 20 ms,
 * Relay Retransmit 2 / 20 ms (Zephyr Kconfig BT_MESH_DEFAULT_TTL,
 * BT_MESH_NETWORK_TRANSMIT_COUNT / _INTERVAL, BT_MESH_RELAY_RETRANSMIT_COUNT / _INTERVAL),
 * SAR Segment Interval 60 ms (MshPRT v1.1 §4.2.48.1's default step 0b0101); per 0; the
 * other SAR states at the specification's defaults (defaults.h rows --sar-*: 2 and 2
 * retransmission rounds, 200 + 50 ms per TTL step, acknowledgment delay increment 2.5,
 * 60 ms, 10 s). */
void pqpan_mesh_net_config_default(struct pqpan_mesh_net_config *cfg);

/* The lower transport's timers (MshPRT v1.1 §3.5.3.3, §3.5.3.4; Zephyr
 * subsys/bluetooth/mesh/sar_cfg_internal.h): the SAR transmitter's unicast retransmissions
 * timer, interval step + increment × (TTL - 1) when the TTL is above 0, the step alone with
 * TTL 0; the receiver's acknowledgment delay for a message of seg_n + 1 segments,
 * min(SegN + 0.5, SAR Acknowledgment Delay Increment + 1.5) × SAR Receiver Segment
 * Interval. */
uint64_t pqpan_mesh_net_sar_retrans_ns(const struct pqpan_mesh_net_config *cfg);
uint64_t pqpan_mesh_net_sar_ack_delay_ns(const struct pqpan_mesh_net_config *cfg, uint32_t seg_n);

/* PQPAN_OK, or PQPAN_ERR_INVALID_ARG: transmic not 4 or 8, hops or relays out of range,
 * a TTL that does not reach the responder (ttl < hops: a relay at stage k receives TTL
 * ttl - k + 1 and relays only from 2; 0 over more than one hop; 1, which §3.4.4 does not
 * send; above 127), a count above 7, an interval not a multiple of
 * 10 ms in 10 .. 320 ms, a segment interval of 0, more than PQPAN_MESH_NET_RELAYS_MAX
 * relays, per outside 0 .. 1, a SAR state outside its field (§4.2.48, §4.2.49); with an
 * LPN, a Friend Queue outside PQPAN_MESH_NET_FRIEND_QUEUE_MIN .. _MAX, a ReceiveDelay
 * outside 10 .. 255 ms, a ReceiveWindow outside 1 .. 255 ms, a poll period below 10 ms or
 * beyond PollTimeout, or loss (per > 0, relay_collisions: the LPN model is lossless). */
PQPAN_MUST_CHECK int pqpan_mesh_net_config_check(const struct pqpan_mesh_net_config *cfg);

struct pqpan_mesh_net_estimate {
    struct pqpan_ledger ledger[PQPAN_MESH_NET_ROLES]; /* the relay's: each relay's (all alike) */
    uint64_t latency_ns;  /* KeyGen start .. the last message delivered and acknowledged, the
                             last step done */
    uint64_t span_ns;     /* .. the end of the last advertising event of any node */
    uint64_t hop_ns;      /* one relay stage's delay on a full segment: a relay hears it,
                             then its own first event is heard by the next node */
    uint32_t parts[2];        /* access messages each endpoint sent */
    uint32_t segments[2];     /* segmented access messages each endpoint sent */
    uint32_t seg_acks[2];     /* Segment Acknowledgment messages each endpoint sent */
    uint32_t adv_events[PQPAN_MESH_NET_ROLES];
    uint32_t relay_nodes;     /* (hops - 1) × relays (the Friend, a relay, among them) */
    uint32_t polls;           /* Friend Polls the LPN sent (each Network Transmit'ed twice) */
    uint32_t friend_updates;  /* Friend Updates its Friend answered with */
    uint32_t friend_pdus;     /* queued Network PDUs its Friend answered with */
    uint32_t friend_queue_peak; /* the most PDUs its Friend Queue had to hold at once */
    uint64_t lpn_rx_ns;       /* the LPN's receive windows, in all */
    double resent_segments[2]; /* under loss: segments each endpoint sent again (the
                                  estimate's expected number) */
    uint32_t lost_pdus;       /* simulate: Network PDUs no node of the next stage heard */
    double completes;         /* estimate: the chance every message completes within the
                                 SAR rounds (1 at zero loss); the figures are those of a
                                 completed run */
    int abandoned;            /* simulate: a segmented message given up by its sender
                                 (§3.5.3.3) or discarded by its receiver (§3.5.3.4) */
};

/* The expected PQKE between two mesh nodes (at zero loss; with cfg->per > 0 each part's
 * expected cost of loss added, net_sar.h pqpan_mesh_net_sar_expected): the steps and
 * messages of the
 * PQKE (pqpan_pqke_steps_of, pqpan_pqke_message_sizes: the plan of the other links), each
 * message in parts, each part a segmented access message: its segments SAR Segment
 * Interval apart (or when the sender's advertiser is free), each Network PDU sent
 * net_transmit_count + 1 times and relayed stage by stage (each relay of a stage hears the
 * first transmission of the stage before it on the mean channel and starts its own at
 * once, relay_retransmit_count + 1 events); the receiver acknowledges the part when it
 * has every segment (one Segment Acknowledgment, relayed back), and the sender starts its
 * next part when it has that acknowledgment (§3.5.3.3: one segmented message to a
 * destination at a time). A node's advertising events start at least its interval +
 * E[advDelay] = 5 ms apart (Core v5.4 Vol 6 Part B §4.4.2.2.1), each priced as the PB-ADV
 * clock prices one (pbadv_clock.h); every node scans whenever it neither advertises nor
 * computes (a relay the whole run). dev: every node's device; cycles[op]: one execution.
 * With cfg->lpn an endpoint is a Low Power Node polling its Friend instead of scanning
 * (src/mesh/net_friend.c, docs/MODEL.md "A Low Power Node polling its Friend"): polls,
 * friend_updates, friend_pdus, friend_queue_peak and lpn_rx_ns say how.
 * Errors (*out zeroed): PQPAN_ERR_INVALID_ARG (NULL, pqpan_mesh_net_config_check, an
 * unknown PQKE, per 1: no message completes), PQPAN_ERR_CAPACITY (a message of more than
 * PQPAN_MESH_NET_PARTS_MAX parts; or, *out kept, a Friend Queue that would have to hold
 * more than cfg->friend_queue PDUs at once: friend_queue_peak says how many),
 * PQPAN_ERR_TIMEOUT (*out zeroed: a loss so high that a part's expected rounds exceed
 * what the estimate can book, 2^22 events or 2^53 ns a part; no message completes in
 * practice). */
PQPAN_MUST_CHECK int pqpan_mesh_net_estimate(struct pqpan_mesh_net_estimate *out,
                                             const struct pqpan_mesh_net_config *cfg,
                                             const struct pqpan_ble_device *dev,
                                             const uint64_t cycles[PQPAN_OP_COUNT]);

/* One PQKE message of msg_len octets from the initiator to the responder alone (no
 * crypto), priced as pqpan_mesh_net_estimate prices each: latency_ns = its last segment
 * received, span_ns the end of the last event (the last Segment Acknowledgment's relaying
 * included). Errors as pqpan_mesh_net_estimate. */
PQPAN_MUST_CHECK int pqpan_mesh_net_message_estimate(struct pqpan_mesh_net_estimate *out,
                                                     const struct pqpan_mesh_net_config *cfg,
                                                     const struct pqpan_ble_device *dev,
                                                     uint32_t msg_len);

/* ---- the executed exchange (src/mesh/net_sim.c) --------------------------------- */

/* The largest PQKE message the simulator carries (sig-mutual's RESP at ML-KEM-1024 is
 * 6268 octets). */
#define PQPAN_MESH_NET_MSG_MAX 8192u

/* The keys and addresses of the simulated network: the specification's sample NetKey
 * 7dd7364cd842ad18c17c2b820c84c3d6, AppKey 63964771734fbd76e3b40519d1d94a48 and IV Index
 * 0x12345678 (MshPRT sample data §8.2, §8.3); the initiator's unicast address 0x0001, the
 * responder's 0x0002. */
#define PQPAN_MESH_NET_SIM_INITIATOR_ADDR 0x0001u
#define PQPAN_MESH_NET_SIM_RESPONDER_ADDR 0x0002u
#define PQPAN_MESH_NET_SIM_IV_INDEX 0x12345678u
/* The Friend's unicast address when it is a relay (--lpn, hops > 1). */
#define PQPAN_MESH_NET_SIM_FRIEND_ADDR 0x0003u

/* A run and its workspace (caller-owned: the PQKE parties and two message buffers). */
struct pqpan_mesh_net_sim {
    struct pqpan_mesh_net_estimate run; /* ledgers and times, as the estimator's */
    int keys_equal;         /* both PQKE sessions hold the same keys */
    int complete;           /* both parties confirmed */
    uint32_t network_pdus;  /* Network PDUs built: the endpoints' and each relay stage's */
    uint32_t decoded;       /* Network PDUs decoded with a valid NetMIC */
    /* The capture (NULL: none): every advertising event of every node on the path as an
     * ADV_NONCONN_IND on each of channels 37, 38, 39 (LL header to CRC, AdvData one «Mesh
     * Message» AD structure), at the packet's start on the clock; with an LPN also its Friend
     * Polls and its Friend's answers (the queued PDUs and Friend Updates, under the friendship
     * credentials). Returns 0, or non-zero to stop (PQPAN_ERR_IO). Set by the caller. */
    int (*on_packet)(void *ctx, uint64_t t_ns, uint8_t channel, const uint8_t *pdu, size_t len);
    void *packet_ctx;
    struct pqpan_sim_pqke pqke;
    uint8_t msg[2][PQPAN_MESH_NET_MSG_MAX];
    /* Workspace: the part in flight's Network PDUs as the node at each position sends them
     * (index: segment, or the segment count for the Segment Acknowledgment; position). */
    uint8_t air[PQPAN_MESH_NET_SEGMENTS_MAX + 1u][PQPAN_MESH_NET_HOPS_MAX + 1u]
               [PQPAN_MESH_NET_PDU_MAX];
    uint8_t air_len[PQPAN_MESH_NET_SEGMENTS_MAX + 1u][PQPAN_MESH_NET_HOPS_MAX + 1u];
};

/* Runs the PQKE between the two nodes for real (pqpan_sim_pqke: the protocol, its crypto,
 * randomness from seed) with every message carried byte by byte: each part an access
 * message «PQKE Part» encrypted by the upper transport under the AppKey (TransMIC),
 * segmented (§3.5.2.2 headers), each segment a Network PDU (pqpan_mesh_net_pdu_encode)
 * that each relay stage decodes, checks against its message cache and TTL, and encodes
 * again with the TTL decremented; the destination decodes, reassembles, decrypts and
 * answers with a Segment Acknowledgment carried back the same way; the parts are joined
 * and handed to the PQKE party. Times and energy on the estimator's clock with the
 * lengths actually built, the computation the parties report: at zero loss simulate =
 * estimate. With cfg->per > 0 each advertising event is lost at each receiver as drawn from
 * seed (a source apart from the keys') and the lower transport's SAR rounds resend
 * (net_sar.h); a message given up ends the run without keys: PQPAN_OK with complete 0 and
 * run.abandoned 1 (per 1 included). Errors: those of pqpan_mesh_net_estimate but per 1,
 * PQPAN_ERR_CAPACITY (a message above PQPAN_MESH_NET_MSG_MAX), PQPAN_ERR_MALFORMED /
 * PQPAN_ERR_AUTH (a PDU that does not decode: a bug), the PQKE's, PQPAN_ERR_IO
 * (s->on_packet returned non-zero). */
PQPAN_MUST_CHECK int pqpan_mesh_net_simulate(struct pqpan_mesh_net_sim *s,
                                             const struct pqpan_mesh_net_config *cfg, uint64_t seed,
                                             const struct pqpan_ble_device *dev,
                                             const uint64_t cycles[PQPAN_OP_COUNT]);

#endif
