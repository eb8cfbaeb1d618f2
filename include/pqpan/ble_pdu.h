/* Bluetooth LE bytes on the air: CRC-24, link-layer data and control PDUs, the CONNECT_IND
 * advertising PDU, L2CAP (basic frames, LE credit-based K-frames and signaling) and ATT
 * PDUs. One write/parse pair per PDU (NimBLE's ble_att_*_write/_parse habit); every
 * multi-octet field little-endian through explicit codecs; every parser checks lengths
 * first. Sizes and timing of the same PDUs (airtime, T_IFS, limits) live in ble.h; this
 * header is only about their bytes. */
#ifndef PQPAN_BLE_PDU_H
#define PQPAN_BLE_PDU_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"

/* ---- Link layer: Core v5.4 Vol 6 Part B ------------------------------------------- */

#define PQPAN_LL_CRC_BYTES 3             /* §2.1.4 */
#define PQPAN_LL_AA_BYTES 4              /* §2.1.2 */
#define PQPAN_LL_HDR_BYTES 2             /* §2.4: 16-bit data PDU header */
#define PQPAN_LL_DATA_MAX_PAYLOAD 251    /* §2.4: Length field 0..251 (no MIC) */
#define PQPAN_LL_DATA_MIN_PAYLOAD 27     /* §4.5.10: connInitialMaxTxOctets */
#define PQPAN_LL_ADV_AA 0x8E89BED6u      /* §2.1.2: advertising physical channel AA */
#define PQPAN_LL_ADV_CRC_INIT 0x555555u  /* §3.1.1: CRC preset on the advertising channels */
/* Longest LL packet without preamble: AA + header + payload + CRC. */
#define PQPAN_LL_PACKET_MAX (PQPAN_LL_AA_BYTES + PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD + PQPAN_LL_CRC_BYTES)

/* LLID values of the data physical channel PDU header (§2.4, Table 2.15). */
enum pqpan_ll_llid {
    PQPAN_LLID_CONTINUE = 1, /* continuation fragment of an L2CAP message, or an empty PDU */
    PQPAN_LLID_START = 2,    /* start of an L2CAP message, or a complete one */
    PQPAN_LLID_CONTROL = 3   /* LL control PDU */
};

/* Data PDU header fields (§2.4, Figure 2.13). */
struct pqpan_ll_hdr {
    uint8_t llid;   /* enum pqpan_ll_llid */
    uint8_t nesn;   /* next expected sequence number, 0/1 */
    uint8_t sn;     /* sequence number, 0/1 */
    uint8_t md;     /* more data, 0/1 */
    uint8_t length; /* payload octets, 0..251 */
};

/* LL control PDU opcodes used by the simulator (§2.4.2, Table 2.18). */
enum pqpan_ll_ctrl_opcode {
    PQPAN_LL_CONNECTION_UPDATE_IND = 0x00,
    PQPAN_LL_ENC_REQ = 0x03,        /* §2.4.2.4 */
    PQPAN_LL_ENC_RSP = 0x04,        /* §2.4.2.5 */
    PQPAN_LL_START_ENC_REQ = 0x05,  /* §2.4.2.6 */
    PQPAN_LL_START_ENC_RSP = 0x06,  /* §2.4.2.7 */
    PQPAN_LL_FEATURE_REQ = 0x08,
    PQPAN_LL_FEATURE_RSP = 0x09,
    PQPAN_LL_VERSION_IND = 0x0C,
    PQPAN_LL_CONNECTION_PARAM_REQ = 0x0F,
    PQPAN_LL_CONNECTION_PARAM_RSP = 0x10,
    PQPAN_LL_LENGTH_REQ = 0x14,
    PQPAN_LL_LENGTH_RSP = 0x15,
    PQPAN_LL_PHY_REQ = 0x16,
    PQPAN_LL_PHY_RSP = 0x17,
    PQPAN_LL_PHY_UPDATE_IND = 0x18
};

/* PHY bit masks of LL_PHY_REQ/RSP and LL_PHY_UPDATE_IND (§2.4.2.22, §2.4.2.23). */
#define PQPAN_LL_PHY_1M 0x01u
#define PQPAN_LL_PHY_2M 0x02u
#define PQPAN_LL_PHY_CODED 0x04u

/* CtrData of LL_LENGTH_REQ/RSP (§2.4.2.21): 8 octets. */
#define PQPAN_LL_LENGTH_CTR_BYTES 9
struct pqpan_ll_length {
    uint16_t max_rx_octets;
    uint16_t max_rx_time_us;
    uint16_t max_tx_octets;
    uint16_t max_tx_time_us;
};

/* LL_PHY_REQ/RSP (§2.4.2.22): TX_PHYS, RX_PHYS; LL_PHY_UPDATE_IND (§2.4.2.23):
 * PHY_C_TO_P, PHY_P_TO_C, Instant. */
#define PQPAN_LL_PHY_REQ_CTR_BYTES 3
#define PQPAN_LL_PHY_UPDATE_CTR_BYTES 5
struct pqpan_ll_phy_update {
    uint8_t phy_c_to_p;
    uint8_t phy_p_to_c;
    uint16_t instant;
};

/* LL_FEATURE_REQ/RSP (§2.4.2.9, §2.4.2.10): FeatureSet, 8 octets; bit n of the set is bit
 * n % 8 of octet n / 8 (§4.6). */
#define PQPAN_LL_FEATURE_SET_BYTES 8
#define PQPAN_LL_FEATURE_CTR_BYTES (1 + PQPAN_LL_FEATURE_SET_BYTES)

/* The FeatureSet pqpan's Link Layers send (the simulator's, the PB-GATT capture's; §4.6,
 * bit n = bit n % 8 of octet n / 8): LE Encryption (0), Connection Parameters Request
 * procedure (1), Extended Reject Indication (2), Peripheral-initiated Features Exchange
 * (3), LE Data Packet Length Extension (5), LE 2M PHY (8), LE Coded PHY (11); the other
 * octets 0. LE Ping (4), LL Privacy (6) and Extended Scanner Filter Policies (7) are not
 * sent to a peer (§4.6: set to 0 in the PDUs). */
#define PQPAN_LL_FEATURES_OCTET0 0x2Fu
#define PQPAN_LL_FEATURES_OCTET1 0x09u
/* §5.5 (procedures with an instant): the Central should leave at least 6 connection events
 * before the instant; pqpan's estimator, simulator and PB-GATT capture all leave 6. */
#define PQPAN_LL_INSTANT_EVENTS 6u
/* §4.5.10: connMaxRxTime / connMaxTxTime range: the LE 1M time of 27 octets, the most. */
#define PQPAN_LL_MIN_TIME_US 328u
#define PQPAN_LL_MAX_TIME_US 17040u

/* LL_VERSION_IND (§2.4.2.13): VersNr 1, CompId 2, SubVersNr 2. pqpan's Link Layers send
 * VersNr 0x0D (Core 5.4), CompId 0xFFFF (Assigned Numbers: not assigned to a company, for
 * testing), SubVersNr 0. */
#define PQPAN_LL_VERS_NR_CORE_5_4 0x0Du
#define PQPAN_LL_COMP_ID_TESTING 0xFFFFu
#define PQPAN_LL_VERSION_CTR_BYTES 6
struct pqpan_ll_version {
    uint8_t vers_nr;      /* Link Layer version (Assigned Numbers: 0x0D = Core 5.4) */
    uint16_t comp_id;     /* company identifier (Assigned Numbers) */
    uint16_t sub_vers_nr;
};

/* What pqpan's Link Layers send: fs = the FeatureSet above (PQPAN_LL_FEATURES_OCTET0/1, the
 * other octets 0); the version PQPAN_LL_VERS_NR_CORE_5_4, PQPAN_LL_COMP_ID_TESTING, 0. */
void pqpan_ll_own_features(uint8_t fs[PQPAN_LL_FEATURE_SET_BYTES]);
struct pqpan_ll_version pqpan_ll_own_version(void);

/* LL_CONNECTION_PARAM_REQ/RSP (§2.4.2.16, §2.4.2.17): Interval_Min, Interval_Max, Latency,
 * Timeout (2 each), PreferredPeriodicity 1, ReferenceConnEventCount 2, Offset0..5 (2 each). */
#define PQPAN_LL_CONN_PARAM_OFFSETS 6
#define PQPAN_LL_CONN_PARAM_CTR_BYTES 24
struct pqpan_ll_conn_param {
    uint16_t interval_min;  /* units of 1.25 ms */
    uint16_t interval_max;
    uint16_t latency;       /* connection events */
    uint16_t timeout;       /* units of 10 ms */
    uint8_t preferred_periodicity;
    uint16_t ref_conn_event_count;
    uint16_t offset[PQPAN_LL_CONN_PARAM_OFFSETS]; /* 0xFFFF = no preference */
};

/* LL_CONNECTION_UPDATE_IND (§2.4.2.1): WinSize 1, WinOffset, Interval, Latency, Timeout,
 * Instant (2 each). */
#define PQPAN_LL_CONN_UPDATE_CTR_BYTES 12
struct pqpan_ll_conn_update {
    uint8_t win_size;     /* units of 1.25 ms */
    uint16_t win_offset;  /* units of 1.25 ms */
    uint16_t interval;    /* units of 1.25 ms */
    uint16_t latency;
    uint16_t timeout;     /* units of 10 ms */
    uint16_t instant;     /* connEventCount at which the new parameters apply */
};

/* The largest LL control PDU payload the codecs write. */
#define PQPAN_LL_CTRL_MAX_BYTES PQPAN_LL_CONN_PARAM_CTR_BYTES

/* CRC-24 over a PDU (header + payload) with the LFSR of Vol 6 Part B §3.1.1
 * (x^24 + x^10 + x^9 + x^6 + x^4 + x^3 + x + 1, preset crc_init, bits in air order).
 * The result r is such that its three little-endian bytes (r, r>>8, r>>16) are the CRC
 * octets as they follow the PDU in a de-whitened capture. */
uint32_t pqpan_crc24_compute(uint32_t crc_init, const uint8_t *pdu, size_t len);

/* Appends the 3 CRC octets of pdu[0..len) at pdu[len..len+3). */
void pqpan_crc24_append(uint32_t crc_init, uint8_t *pdu, size_t len);

/* 1 if the 3 octets after pdu[0..len) are its CRC, else 0. */
int pqpan_crc24_check(uint32_t crc_init, const uint8_t *pdu, size_t len);

/* Data PDU header codec (§2.4). write: PQPAN_ERR_INVALID_ARG on a field out of range. */
PQPAN_MUST_CHECK int pqpan_ll_pdu_hdr_write(uint8_t out[PQPAN_LL_HDR_BYTES],
                                            const struct pqpan_ll_hdr *h);
/* parse: PQPAN_ERR_BAD_LENGTH if len < 2 or the Length field exceeds len - 2 or 251;
 * PQPAN_ERR_MALFORMED if LLID is 0 (reserved). */
PQPAN_MUST_CHECK int pqpan_ll_pdu_hdr_parse(struct pqpan_ll_hdr *h, const uint8_t *in,
                                            size_t len);

/* LL control PDUs: opcode + CtrData into out[0..cap), *written set. */
PQPAN_MUST_CHECK int pqpan_ll_pdu_length_write(uint8_t *out, size_t cap, uint8_t opcode,
                                               const struct pqpan_ll_length *l,
                                               size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_length_parse(struct pqpan_ll_length *l, const uint8_t *in,
                                               size_t len);
PQPAN_MUST_CHECK int pqpan_ll_pdu_phy_req_write(uint8_t *out, size_t cap, uint8_t opcode,
                                                uint8_t tx_phys, uint8_t rx_phys,
                                                size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_phy_update_write(uint8_t *out, size_t cap,
                                                   const struct pqpan_ll_phy_update *u,
                                                   size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_phy_update_parse(struct pqpan_ll_phy_update *u,
                                                   const uint8_t *in, size_t len);
/* opcode PQPAN_LL_FEATURE_REQ or _RSP; parse accepts either. */
PQPAN_MUST_CHECK int pqpan_ll_pdu_feature_write(uint8_t *out, size_t cap, uint8_t opcode,
                                                const uint8_t features[PQPAN_LL_FEATURE_SET_BYTES],
                                                size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_feature_parse(uint8_t features[PQPAN_LL_FEATURE_SET_BYTES],
                                                const uint8_t *in, size_t len);
PQPAN_MUST_CHECK int pqpan_ll_pdu_version_write(uint8_t *out, size_t cap,
                                                const struct pqpan_ll_version *v, size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_version_parse(struct pqpan_ll_version *v, const uint8_t *in,
                                                size_t len);
/* opcode PQPAN_LL_CONNECTION_PARAM_REQ or _RSP; parse accepts either and checks the
 * ranges of §2.4.2.16 (PQPAN_ERR_MALFORMED outside them). */
PQPAN_MUST_CHECK int pqpan_ll_pdu_conn_param_write(uint8_t *out, size_t cap, uint8_t opcode,
                                                   const struct pqpan_ll_conn_param *p,
                                                   size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_conn_param_parse(struct pqpan_ll_conn_param *p,
                                                   const uint8_t *in, size_t len);
/* parse checks the ranges of §2.4.2.1 and §5.1.1 (PQPAN_ERR_MALFORMED outside them). */
PQPAN_MUST_CHECK int pqpan_ll_pdu_conn_update_write(uint8_t *out, size_t cap,
                                                    const struct pqpan_ll_conn_update *u,
                                                    size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_conn_update_parse(struct pqpan_ll_conn_update *u,
                                                    const uint8_t *in, size_t len);

/* LL_ENC_REQ (§2.4.2.4): Opcode, Rand 8, EDIV 2, SKD_C 8, IV_C 4; LL_ENC_RSP (§2.4.2.5):
 * Opcode, SKD_P 8, IV_P 4. Rand, SKD and IV are octet strings as on the air (least
 * significant octet first). */
#define PQPAN_LL_ENC_REQ_CTR_BYTES 23
#define PQPAN_LL_ENC_RSP_CTR_BYTES 13
#define PQPAN_LL_SKD_BYTES 8
#define PQPAN_LL_IV_BYTES 4
struct pqpan_ll_enc {
    uint8_t rand[8];   /* LL_ENC_REQ only */
    uint16_t ediv;     /* LL_ENC_REQ only */
    uint8_t skd[PQPAN_LL_SKD_BYTES];
    uint8_t iv[PQPAN_LL_IV_BYTES];
};
/* opcode PQPAN_LL_ENC_REQ or PQPAN_LL_ENC_RSP. */
PQPAN_MUST_CHECK int pqpan_ll_pdu_enc_write(uint8_t *out, size_t cap, uint8_t opcode,
                                            const struct pqpan_ll_enc *e, size_t *written);
PQPAN_MUST_CHECK int pqpan_ll_pdu_enc_parse(struct pqpan_ll_enc *e, const uint8_t *in,
                                            size_t len);

/* ---- LE encryption of data PDUs: Core v5.4 Vol 6 Part E §1, §2 -------------------- */

#define PQPAN_LL_MIC_BYTES 4     /* Vol 6 Part E §2.3: MIC of 32 bits */
#define PQPAN_LL_KEY_BYTES 16

/* The state of one encrypted connection: the session key SK = e(LTK, SKD) with
 * SKD = SKD_P || SKD_C (SKD_C its least significant half), the IV = IV_C || IV_P as the
 * nonce carries it, and one 39-bit packet counter per direction (Vol 6 Part E §2.1). */
struct pqpan_ll_crypt {
    uint8_t sk[PQPAN_LL_KEY_BYTES];  /* most significant octet first (the AES key) */
    uint8_t iv[2 * PQPAN_LL_IV_BYTES];
    uint64_t counter[2];             /* index: the sending role, 0 central, 1 peripheral */
};

/* Derives SK from the LTK (most significant octet first, as f5 returns it) and the SKD
 * and IV halves as the LL_ENC_REQ / LL_ENC_RSP carry them; counters start at 0. */
void pqpan_ll_crypt_init(struct pqpan_ll_crypt *c, const uint8_t ltk[PQPAN_LL_KEY_BYTES],
                         const struct pqpan_ll_enc *central, const struct pqpan_ll_enc *peripheral);

/* Encrypts the data PDU pdu[0..2+length) sent by `sender` (0 central, 1 peripheral) in
 * place with AES-CCM (Vol 6 Part E §2): the payload is encrypted, the MIC appended and the
 * Length field grown by 4; the header's NESN, SN and MD bits are masked out of the
 * authenticated data (§2.4). cap is the buffer size. A PDU with an empty payload is left
 * as is (Vol 6 Part B §2.4: no MIC). PQPAN_ERR_BUFFER_TOO_SMALL / PQPAN_ERR_INVALID_ARG. */
PQPAN_MUST_CHECK int pqpan_ll_crypt_encrypt(struct pqpan_ll_crypt *c, int sender, uint8_t *pdu,
                                            size_t cap);
/* The reverse on reception: verifies and strips the MIC (Length shrinks by 4) and
 * advances the sender's counter; PQPAN_ERR_AUTH (pdu unchanged, counter kept) if the
 * MIC does not verify, PQPAN_ERR_MALFORMED if the payload is shorter than a MIC. */
PQPAN_MUST_CHECK int pqpan_ll_crypt_decrypt(struct pqpan_ll_crypt *c, int sender, uint8_t *pdu,
                                            size_t len);

/* ---- CONNECT_IND: Vol 6 Part B §2.3.3.1 ------------------------------------------- */

#define PQPAN_CONNECT_IND_PAYLOAD 34 /* InitA 6 + AdvA 6 + LLData 22 */
#define PQPAN_CONNECT_IND_PDU (PQPAN_LL_HDR_BYTES + PQPAN_CONNECT_IND_PAYLOAD)

struct pqpan_connect_ind {
    uint8_t init_addr[6];     /* InitA, little-endian as on the air */
    uint8_t adv_addr[6];      /* AdvA */
    uint8_t tx_add_random;    /* TxAdd: InitA is a random address */
    uint8_t rx_add_random;    /* RxAdd: AdvA is a random address */
    uint32_t access_address;
    uint32_t crc_init;        /* 24 bits */
    uint8_t win_size;         /* units of 1.25 ms */
    uint16_t win_offset;      /* units of 1.25 ms */
    uint16_t interval;        /* units of 1.25 ms, 6..3200 */
    uint16_t latency;
    uint16_t timeout;         /* units of 10 ms, 10..3200 */
    uint8_t chm[5];           /* channel map, bit n = data channel n used */
    uint8_t hop;              /* 5..16 */
    uint8_t sca;              /* 0..7 */
};

/* Writes the advertising PDU (header + payload, no AA, no CRC) into out. */
PQPAN_MUST_CHECK int pqpan_connect_ind_write(uint8_t out[PQPAN_CONNECT_IND_PDU],
                                             const struct pqpan_connect_ind *c);
PQPAN_MUST_CHECK int pqpan_connect_ind_parse(struct pqpan_connect_ind *c, const uint8_t *in,
                                             size_t len);

/* ---- ADV_IND: Vol 6 Part B §2.3.1.1 ---------------------------------------------- */

#define PQPAN_BD_ADDR_BYTES 6
#define PQPAN_ADV_DATA_MAX 31 /* AdvData 0..31 octets */
#define PQPAN_ADV_IND_PDU_MAX (PQPAN_LL_HDR_BYTES + PQPAN_BD_ADDR_BYTES + PQPAN_ADV_DATA_MAX)

struct pqpan_adv_ind {
    uint8_t adv_addr[PQPAN_BD_ADDR_BYTES]; /* AdvA, little-endian as on the air */
    uint8_t tx_add_random;                 /* TxAdd: AdvA is a random address */
    uint8_t data[PQPAN_ADV_DATA_MAX];      /* AdvData: AD structures (Vol 3 Part C §11) */
    uint8_t data_len;
};

/* Writes the advertising PDU (header + payload, no AA, no CRC) into out[0..cap). */
PQPAN_MUST_CHECK int pqpan_adv_ind_write(uint8_t *out, size_t cap, const struct pqpan_adv_ind *a,
                                         size_t *written);
/* Parses an ADV_IND, checking that AdvData is a sequence of AD structures. */
PQPAN_MUST_CHECK int pqpan_adv_ind_parse(struct pqpan_adv_ind *a, const uint8_t *in, size_t len);

/* ---- L2CAP: Core v5.4 Vol 3 Part A ------------------------------------------------ */

#define PQPAN_L2CAP_HDR_BYTES 4          /* §3.1: Length, Channel ID */
#define PQPAN_L2CAP_SDU_LEN_BYTES 2      /* §3.4.2: SDU Length of the first K-frame */
#define PQPAN_L2CAP_CID_ATT 0x0004u      /* §2.1, Table 2.3 */
#define PQPAN_L2CAP_CID_LE_SIGNALING 0x0005u
#define PQPAN_L2CAP_SIG_HDR_BYTES 4      /* §4: Code, Identifier, Length */

/* LE signaling codes (§4, Table 4.2). */
enum pqpan_l2cap_sig_code {
    PQPAN_L2CAP_LE_CREDIT_CONN_REQ = 0x14, /* §4.22 */
    PQPAN_L2CAP_LE_CREDIT_CONN_RSP = 0x15, /* §4.23 */
    PQPAN_L2CAP_FLOW_CONTROL_CREDIT = 0x16 /* §4.24 */
};
#define PQPAN_L2CAP_LE_CREDIT_CONN_REQ_BYTES 10
#define PQPAN_L2CAP_LE_CREDIT_CONN_RSP_BYTES 10
#define PQPAN_L2CAP_FLOW_CONTROL_CREDIT_BYTES 4

struct pqpan_l2cap_hdr {
    uint16_t length; /* information payload octets */
    uint16_t cid;
};

/* LE Credit Based Connection Request/Response fields (§4.22, §4.23). */
struct pqpan_l2cap_le_conn {
    uint16_t psm;      /* request only */
    uint16_t cid;      /* source CID (request) or destination CID (response) */
    uint16_t mtu;
    uint16_t mps;
    uint16_t credits;
    uint16_t result;   /* response only */
};

struct pqpan_l2cap_sig {
    uint8_t code;
    uint8_t identifier;
    uint16_t length;
};

PQPAN_MUST_CHECK int pqpan_l2cap_pdu_hdr_write(uint8_t out[PQPAN_L2CAP_HDR_BYTES],
                                               const struct pqpan_l2cap_hdr *h);
/* parse: needs 4 octets; does not check Length against the bytes that follow. */
PQPAN_MUST_CHECK int pqpan_l2cap_pdu_hdr_parse(struct pqpan_l2cap_hdr *h, const uint8_t *in,
                                               size_t len);
/* A whole signaling C-frame payload (command header + data) for the three LE commands. */
PQPAN_MUST_CHECK int pqpan_l2cap_pdu_le_conn_write(uint8_t *out, size_t cap, uint8_t code,
                                                   uint8_t identifier,
                                                   const struct pqpan_l2cap_le_conn *c,
                                                   size_t *written);
PQPAN_MUST_CHECK int pqpan_l2cap_pdu_credit_write(uint8_t *out, size_t cap, uint8_t identifier,
                                                  uint16_t cid, uint16_t credits,
                                                  size_t *written);
/* Parses the command header; for the three LE codes also their data into c (for
 * FLOW_CONTROL_CREDIT: c->cid and c->credits). PQPAN_ERR_UNSUPPORTED for other codes. */
PQPAN_MUST_CHECK int pqpan_l2cap_pdu_sig_parse(struct pqpan_l2cap_sig *s,
                                               struct pqpan_l2cap_le_conn *c,
                                               const uint8_t *in, size_t len);

/* ---- SMP: Core v5.4 Vol 3 Part H §3 ----------------------------------------------- */

#define PQPAN_L2CAP_CID_SMP 0x0006u   /* Vol 3 Part A §2.1, Table 2.3: Security Manager */

/* SMP command codes (Vol 3 Part H §3.3, Table 3.3) of LE Secure Connections pairing. */
enum pqpan_smp_code {
    PQPAN_SMP_PAIRING_REQUEST = 0x01,    /* §3.5.1 */
    PQPAN_SMP_PAIRING_RESPONSE = 0x02,   /* §3.5.2 */
    PQPAN_SMP_PAIRING_CONFIRM = 0x03,    /* §3.5.3 */
    PQPAN_SMP_PAIRING_RANDOM = 0x04,     /* §3.5.4 */
    PQPAN_SMP_PAIRING_FAILED = 0x05,     /* §3.5.5 */
    PQPAN_SMP_PAIRING_PUBLIC_KEY = 0x0C, /* §3.5.6 */
    PQPAN_SMP_PAIRING_DHKEY_CHECK = 0x0D /* §3.5.7 */
};

#define PQPAN_SMP_PAIRING_BYTES 7      /* code + 6 parameter octets (§3.5.1, §3.5.2) */
#define PQPAN_SMP_VALUE_BYTES 17       /* code + 16-octet value (§3.5.3, §3.5.4, §3.5.7) */
#define PQPAN_SMP_PUBLIC_KEY_BYTES 65  /* code + X 32 + Y 32 (§3.5.6) */
#define PQPAN_SMP_FAILED_BYTES 2       /* code + reason (§3.5.5) */
/* AuthReq bits (§3.5.1, Figure 3.3): Bonding_Flags (2 bits), MITM, SC, Keypress, CT2. */
#define PQPAN_SMP_AUTH_SC 0x08u
/* IO Capability (§3.5.1, Table 3.4): NoInputNoOutput (Just Works). */
#define PQPAN_SMP_IO_NO_INPUT_NO_OUTPUT 0x03u

/* Pairing Request / Response parameters (§3.5.1, §3.5.2). */
struct pqpan_smp_pairing {
    uint8_t io_capability;     /* 0x00..0x04 */
    uint8_t oob_data_flag;     /* 0x00, 0x01 */
    uint8_t auth_req;
    uint8_t max_key_size;      /* 7..16 */
    uint8_t initiator_key_dist;
    uint8_t responder_key_dist;
};

/* Octets of the SMP PDU with this code (code included); 0 for a code not listed above. */
size_t pqpan_smp_pdu_len(uint8_t code);

/* The writers put a whole SMP PDU (code + parameters) in out[0..cap), *written set. Values
 * (confirm, random, DHKey check, coordinates) are given most significant octet first, as
 * include/pqpan/lesc.h and ecdh.h use them, and go on the air least significant octet
 * first (Vol 3 Part H §1.2.1); the parsers reverse them back. Parsers check the exact
 * length (PQPAN_ERR_BAD_LENGTH) and code and ranges (PQPAN_ERR_MALFORMED). */
PQPAN_MUST_CHECK int pqpan_smp_pdu_pairing_write(uint8_t *out, size_t cap, uint8_t code,
                                                 const struct pqpan_smp_pairing *p,
                                                 size_t *written);
PQPAN_MUST_CHECK int pqpan_smp_pdu_pairing_parse(struct pqpan_smp_pairing *p, uint8_t code,
                                                 const uint8_t *in, size_t len);
/* Confirm, Random, DHKey Check: code + a 16-octet value. */
PQPAN_MUST_CHECK int pqpan_smp_pdu_value_write(uint8_t *out, size_t cap, uint8_t code,
                                               const uint8_t value[16], size_t *written);
PQPAN_MUST_CHECK int pqpan_smp_pdu_value_parse(uint8_t value[16], uint8_t code, const uint8_t *in,
                                               size_t len);
/* Pairing Public Key: x and y of a P-256 point. */
PQPAN_MUST_CHECK int pqpan_smp_pdu_public_key_write(uint8_t *out, size_t cap, const uint8_t x[32],
                                                    const uint8_t y[32], size_t *written);
PQPAN_MUST_CHECK int pqpan_smp_pdu_public_key_parse(uint8_t x[32], uint8_t y[32], const uint8_t *in,
                                                    size_t len);
/* Pairing Failed with a reason (§3.5.5, Table 3.7: 0x01..0x0F; e.g. 0x04 Confirm Value
 * Failed, 0x0B DHKey Check Failed). */
PQPAN_MUST_CHECK int pqpan_smp_pdu_failed_write(uint8_t *out, size_t cap, uint8_t reason,
                                                size_t *written);
PQPAN_MUST_CHECK int pqpan_smp_pdu_failed_parse(uint8_t *reason, const uint8_t *in, size_t len);

/* ---- ATT: Core v5.4 Vol 3 Part F §3.4 --------------------------------------------- */

enum pqpan_att_opcode {
    PQPAN_ATT_ERROR_RSP = 0x01,           /* §3.4.1.1 */
    PQPAN_ATT_EXCHANGE_MTU_REQ = 0x02,    /* §3.4.2.1 */
    PQPAN_ATT_EXCHANGE_MTU_RSP = 0x03,    /* §3.4.2.2 */
    PQPAN_ATT_FIND_INFORMATION_REQ = 0x04, /* §3.4.3.1 */
    PQPAN_ATT_FIND_INFORMATION_RSP = 0x05, /* §3.4.3.2 */
    PQPAN_ATT_FIND_BY_TYPE_VALUE_REQ = 0x06, /* §3.4.3.3 */
    PQPAN_ATT_FIND_BY_TYPE_VALUE_RSP = 0x07, /* §3.4.3.4 */
    PQPAN_ATT_READ_BY_TYPE_REQ = 0x08,    /* §3.4.4.1 */
    PQPAN_ATT_READ_BY_TYPE_RSP = 0x09,    /* §3.4.4.2 */
    PQPAN_ATT_WRITE_REQ = 0x12,           /* §3.4.5.1 */
    PQPAN_ATT_WRITE_RSP = 0x13,           /* §3.4.5.2 */
    PQPAN_ATT_PREPARE_WRITE_REQ = 0x16,   /* §3.4.6.1 */
    PQPAN_ATT_PREPARE_WRITE_RSP = 0x17,   /* §3.4.6.2 */
    PQPAN_ATT_EXECUTE_WRITE_REQ = 0x18,   /* §3.4.6.3 */
    PQPAN_ATT_EXECUTE_WRITE_RSP = 0x19,   /* §3.4.6.4 */
    PQPAN_ATT_HANDLE_VALUE_NTF = 0x1B,    /* §3.4.7.1 */
    PQPAN_ATT_HANDLE_VALUE_IND = 0x1D,    /* §3.4.7.2 */
    PQPAN_ATT_HANDLE_VALUE_CFM = 0x1E,    /* §3.4.7.3 */
    PQPAN_ATT_WRITE_CMD = 0x52            /* §3.4.5.3 */
};

/* §3.4.1.1, Table 3.4: error codes the GATT discovery meets. */
#define PQPAN_ATT_ERR_INVALID_HANDLE 0x01u
#define PQPAN_ATT_ERR_READ_NOT_PERMITTED 0x02u
#define PQPAN_ATT_ERR_ATTRIBUTE_NOT_FOUND 0x0Au
/* §3.4.3.2: Find Information Response formats. */
#define PQPAN_ATT_FORMAT_UUID16 0x01u
#define PQPAN_ATT_FORMAT_UUID128 0x02u

#define PQPAN_ATT_DEFAULT_MTU 23   /* Vol 3 Part G §5.2.1: ATT_MTU for LE */
#define PQPAN_ATT_MAX_MTU 517      /* Vol 3 Part F §3.2.9: attribute value ≤ 512 + 5 */

/* One decoded ATT PDU; which fields matter depends on the opcode. value points into the
 * parsed buffer (no copy). */
struct pqpan_att_pdu {
    uint8_t opcode;
    uint16_t handle;     /* writes, prepare writes, notifications, indications; the starting
                            handle of a range request; the handle in error */
    uint16_t end_handle; /* ending handle of a range request (find, read by type) */
    uint16_t offset;     /* prepare write req/rsp */
    uint16_t mtu;        /* exchange MTU req/rsp */
    uint16_t type16;     /* find by type value req: the attribute type */
    uint8_t flags;       /* execute write req: 0 cancel, 1 write */
    uint8_t format;      /* find information rsp: Format; read by type rsp: Length */
    uint8_t req_opcode;  /* error rsp: the request in error */
    uint8_t error_code;  /* error rsp */
    const uint8_t *value; /* the value; read by type req: the 2- or 16-octet UUID; the
                             responses' lists of handles / handle-value pairs */
    size_t value_len;
};

/* Writes an ATT PDU into out[0..cap) from p (value copied). PQPAN_ERR_UNSUPPORTED for an
 * opcode not listed above, PQPAN_ERR_BUFFER_TOO_SMALL if it does not fit,
 * PQPAN_ERR_INVALID_ARG for a UUID that is neither 2 nor 16 octets or a list that is empty
 * or not made of whole items of its format. */
PQPAN_MUST_CHECK int pqpan_att_pdu_write(uint8_t *out, size_t cap, const struct pqpan_att_pdu *p,
                                         size_t *written);
/* Parses one ATT PDU (at most PQPAN_ATT_MAX_MTU octets; fixed parts length-checked per
 * opcode; UUIDs and lists as for write, PQPAN_ERR_MALFORMED otherwise). */
PQPAN_MUST_CHECK int pqpan_att_pdu_parse(struct pqpan_att_pdu *p, const uint8_t *in, size_t len);

/* ---- capture records: LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256) ------------------- */

/* The 10-octet pseudo-header (tcpdump.org/linktypes/LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR):
 * RF channel, signal power, noise power, access address offenses, reference access
 * address (4, LE), flags (2, LE); then the LE packet without preamble: access address,
 * on LE Coded the coding indicator octet, PDU, CRC. Flag values as Wireshark's btle_rf
 * dissector reads them. */
#define PQPAN_PCAP_BLE_PHDR_BYTES 10
#define PQPAN_PCAP_BLE_DEWHITENED 0x0001u
#define PQPAN_PCAP_BLE_DECRYPTED 0x0008u
#define PQPAN_PCAP_BLE_REF_AA_VALID 0x0010u
#define PQPAN_PCAP_BLE_PDU_TYPE_SHIFT 7       /* bits 7-9 */
#define PQPAN_PCAP_BLE_CRC_CHECKED 0x0400u
#define PQPAN_PCAP_BLE_CRC_VALID 0x0800u
#define PQPAN_PCAP_BLE_MIC_CHECKED 0x1000u
#define PQPAN_PCAP_BLE_MIC_VALID 0x2000u
#define PQPAN_PCAP_BLE_PHY_SHIFT 14           /* bits 14-15 */
#define PQPAN_PCAP_BLE_RECORD_MAX (PQPAN_PCAP_BLE_PHDR_BYTES + PQPAN_LL_AA_BYTES + 1 + \
                                   PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD +     \
                                   PQPAN_LL_MIC_BYTES + PQPAN_LL_CRC_BYTES)

enum pqpan_pcap_ble_pdu_type {
    PQPAN_PCAP_BLE_ADV = 0,       /* advertising (or data, direction unspecified) */
    PQPAN_PCAP_BLE_DATA_C_TO_P = 2,
    PQPAN_PCAP_BLE_DATA_P_TO_C = 3
};

/* PHY field values: 0 LE 1M, 1 LE 2M, 2 LE Coded. */
struct pqpan_pcap_ble_info {
    uint8_t rf_channel;       /* 0..39 */
    uint8_t pdu_type;         /* enum pqpan_pcap_ble_pdu_type */
    uint8_t phy;              /* 0, 1, 2 */
    uint8_t coding_s2;        /* LE Coded: 1 = S=2, 0 = S=8 (CI, Vol 6 Part B §2.2.3) */
    uint8_t crc_valid;        /* the receiver's CRC check (always marked checked) */
    uint8_t decrypted;        /* an encrypted PDU given decrypted, its MIC checked and valid
                                 (as a sniffer holding the LTK records it: the plaintext,
                                 Length without the MIC, no MIC octets) */
    uint32_t access_address;
};

/* Writes pseudo-header + access address (+ CI) + pdu[0..len) (header, payload and CRC)
 * into out[0..cap); PQPAN_ERR_BUFFER_TOO_SMALL / PQPAN_ERR_INVALID_ARG. */
PQPAN_MUST_CHECK int pqpan_pcap_ble_record(uint8_t *out, size_t cap,
                                           const struct pqpan_pcap_ble_info *info,
                                           const uint8_t *pdu, size_t len, size_t *written);

#endif
