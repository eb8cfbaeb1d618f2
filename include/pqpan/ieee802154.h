/* IEEE 802.15.4 link (2.4 GHz O-QPSK PHY, MAC data and Imm-Ack frames, unslotted
 * CSMA-CA), 6LoWPAN (RFC 6282 IPHC, RFC 4944 fragmentation and reassembly) and the
 * frame planner that the analytic estimator and the simulator share.
 *
 * Clause numbers are those of IEEE Std 802.15.4-2020 unless another edition is named.
 * Times are integer nanoseconds. Frames are written with Frame Version 1
 * (IEEE 802.15.4-2006): PAN ID Compression then means "source PAN ID omitted, equal to
 * the destination PAN ID" (2006 §7.2.1.1.5), which is what Contiki-NG's CSMA stack and
 * Wireshark expect for 6LoWPAN data frames. The parser accepts Frame Versions 0 and 1,
 * secured frames of version 1 (auxiliary security header, IEEE 802.15.4-2015 §9.4, with
 * the Frame Version 1 rules of 2006 §7.6: no frame counter suppression, no ASN in the
 * nonce); version 2 (2015 rules) is reported as unsupported. */
#ifndef PQPAN_IEEE802154_H
#define PQPAN_IEEE802154_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/error.h"
#include "pqpan/ledger.h"

/* ---- PHY: O-QPSK in the 2450 MHz band (§12) ---- */

/* §12.3.3: 62.5 ksymbol/s, so one symbol lasts 16 µs. */
#define PQPAN_802154_SYMBOL_NS 16000u
/* §12.2.3: 4 bits per symbol (250 kb/s), so one octet is 2 symbols = 32 µs. */
#define PQPAN_802154_SYMBOLS_PER_OCTET 2u
#define PQPAN_802154_OCTET_NS (PQPAN_802154_SYMBOL_NS * PQPAN_802154_SYMBOLS_PER_OCTET)
/* §12.1.1 preamble (4 octets of zero) + §12.1.2 SFD (1 octet, 0xA7). */
#define PQPAN_802154_SHR_OCTETS 5u
/* phySHRDuration for this PHY: 5 octets = 10 symbols (§11.3 Table 11-2). */
#define PQPAN_802154_SHR_SYMBOLS (PQPAN_802154_SHR_OCTETS * PQPAN_802154_SYMBOLS_PER_OCTET)
/* §12.1.3: PHR = 7-bit Frame Length + 1 reserved bit. */
#define PQPAN_802154_PHR_OCTETS 1u
/* aMaxPhyPacketSize, §11.3 Table 11-1: the largest PSDU (MAC frame incl. FCS). */
#define PQPAN_802154_MAX_PSDU 127u
/* aTurnaroundTime, §11.3 Table 11-1: RX-to-TX or TX-to-RX, 12 symbols. */
#define PQPAN_802154_TURNAROUND_SYMBOLS 12u
/* aCcaTime, §11.3 Table 11-1: 8 symbols. */
#define PQPAN_802154_CCA_SYMBOLS 8u
/* aUnitBackoffPeriod = aTurnaroundTime + aCcaTime, §8.4.2 Table 8-93: 20 symbols. */
#define PQPAN_802154_UNIT_BACKOFF_SYMBOLS (PQPAN_802154_TURNAROUND_SYMBOLS + PQPAN_802154_CCA_SYMBOLS)

#define PQPAN_802154_TURNAROUND_NS (PQPAN_802154_TURNAROUND_SYMBOLS * PQPAN_802154_SYMBOL_NS)
#define PQPAN_802154_CCA_NS (PQPAN_802154_CCA_SYMBOLS * PQPAN_802154_SYMBOL_NS)
#define PQPAN_802154_UNIT_BACKOFF_NS (PQPAN_802154_UNIT_BACKOFF_SYMBOLS * PQPAN_802154_SYMBOL_NS)

/* Duration of `symbols` PHY symbols. */
uint64_t pqpan_802154_phy_symbols_ns(uint32_t symbols);

/* On-air time of one PPDU carrying a PSDU of psdu_octets (SHR + PHR + PSDU), §12.1. */
uint64_t pqpan_802154_phy_ppdu_ns(size_t psdu_octets);

/* ---- MAC frames (§7.2, §7.3) ---- */

#define PQPAN_802154_FCS_OCTETS 2u
/* Imm-Ack frame: Frame Control 2 + Sequence Number 1 + FCS 2 (§7.3.3). */
#define PQPAN_802154_ACK_PSDU 5u
/* macAckWaitDuration = aUnitBackoffPeriod + aTurnaroundTime + phySHRDuration
 *                      + ceil(6 * phySymbolsPerOctet)
 * (IEEE 802.15.4-2006 §7.4.2 Table 86; the 6 octets are the PHR and the 5-octet ACK)
 * = 20 + 12 + 10 + 12 = 54 symbols = 864 µs. */
#define PQPAN_802154_ACK_WAIT_SYMBOLS                                                         \
    (PQPAN_802154_UNIT_BACKOFF_SYMBOLS + PQPAN_802154_TURNAROUND_SYMBOLS +                  \
     PQPAN_802154_SHR_SYMBOLS + 6u * PQPAN_802154_SYMBOLS_PER_OCTET)

/* Interframe spacing after a frame (after its ACK when acknowledged), §6.2.4:
 * SIFS for frames of at most aMaxSifsFrameSize octets, else LIFS. aMaxSifsFrameSize = 18
 * (§8.4.2 Table 8-93); macSifsPeriod 12 and macLifsPeriod 40 symbols for the O-QPSK PHY
 * (§8.4.3.1 Table 8-94). */
#define PQPAN_802154_MAX_SIFS_FRAME 18u
#define PQPAN_802154_SIFS_SYMBOLS 12u
#define PQPAN_802154_LIFS_SYMBOLS 40u

/* Frame Type values, §7.2 (Frame Control field), Table 7-1. */
#define PQPAN_802154_FRAME_DATA 1u
#define PQPAN_802154_FRAME_ACK 2u
#define PQPAN_802154_FRAME_CMD 3u

/* MAC command frames (IEEE 802.15.4-2015 §7.5): the MHR, then the Command ID (1 octet),
 * then the command's content. The Data Request command (§7.5.5, Command ID
 * 0x04) has no content: a device asks its coordinator (a sleepy end device its parent)
 * for pending data; the Imm-Ack's Frame Pending bit says whether data follow. */
#define PQPAN_802154_CMD_ID_OCTETS 1u
#define PQPAN_802154_CMD_DATA_REQUEST 0x04u

/* ---- MAC security (IEEE 802.15.4-2015 §9) ---- */

/* Security levels, Table 9-6: MIC length 0/4/8/16 octets, levels 4..7 encrypt. */
enum pqpan_802154_sec_level {
    PQPAN_802154_SEC_NONE = 0,
    PQPAN_802154_SEC_MIC_32,
    PQPAN_802154_SEC_MIC_64,
    PQPAN_802154_SEC_MIC_128,
    PQPAN_802154_SEC_ENC,
    PQPAN_802154_SEC_ENC_MIC_32,
    PQPAN_802154_SEC_ENC_MIC_64,
    PQPAN_802154_SEC_ENC_MIC_128
};

/* Key Identifier Mode (Security Control field, §9.4.2): 0 implicit key (no Key Identifier field),
 * 1 Key Index (1 octet), 2 Key Source 4 octets + Key Index, 3 Key Source 8 + Key Index.
 * Thread secures its MAC frames with level 5 (ENC-MIC-32) and mode 1. */
#define PQPAN_802154_KEY_ID_MODE_MAX 3u
#define PQPAN_802154_KEY_OCTETS 16u   /* AES-128 (Annex B) */
#define PQPAN_802154_NONCE_OCTETS 13u /* CCM* nonce: source 8 + frame counter 4 + level 1 */
/* Longest auxiliary security header: 1 + 4 + 9 octets (§9.4.1, mode 3). */
#define PQPAN_802154_AUX_MAX 14u

/* The fields of the auxiliary security header (§9.4). */
struct pqpan_802154_aux {
    uint8_t level;          /* enum pqpan_802154_sec_level, not 0 in a secured frame */
    uint8_t key_id_mode;    /* 0..3 */
    uint8_t key_index;      /* modes 1..3 */
    uint64_t key_source;    /* modes 2 (low 32 bits) and 3 */
    uint32_t frame_counter; /* §9.4.3 */
};

/* MIC octets of a security level (Table 9-6), 0 for none/ENC and unknown levels. */
size_t pqpan_802154_sec_mic_len(uint8_t level);

/* 1 if the level encrypts the private payload (levels 4..7, Table 9-6). */
int pqpan_802154_sec_encrypts(uint8_t level);

/* Octets of the auxiliary security header: Security Control 1 + Frame Counter 4 + Key
 * Identifier 0/1/5/9 (§9.4.1, §9.4.4); 0 for level 0 or an invalid level or mode. */
size_t pqpan_802154_sec_aux_len(uint8_t level, uint8_t key_id_mode);

/* The CCM* nonce (IEEE 802.15.4-2006 §7.6.3.2; the same for Frame Version 1 frames in
 * 2015): the originator's extended address and the frame counter, most significant octet
 * first, then the security level. */
void pqpan_802154_sec_nonce(uint8_t nonce[PQPAN_802154_NONCE_OCTETS], uint64_t src_ext,
                            uint32_t frame_counter, uint8_t level);

/* AES-128 on one block (FIPS 197 §5.1). Not constant time (a table-driven S-box): it
 * secures the frames of a model, not a product's traffic. */
void pqpan_802154_aes128_encrypt(uint8_t out[16], const uint8_t key[PQPAN_802154_KEY_OCTETS],
                                 const uint8_t in[16]);

/* CCM* (Annex B, L = 2): authenticates adata[0..a_len) and m, encrypts m in place and
 * writes the encrypted MIC (mic_len octets: 0, 4, 6, ..., 16; 0 = encryption only).
 * a_len < 65280. Decrypt reverses it; PQPAN_ERR_AUTH (m left as given) if the MIC does
 * not verify. */
PQPAN_MUST_CHECK int pqpan_802154_ccm_star_encrypt(uint8_t *m, size_t m_len, uint8_t *mic,
                                                   size_t mic_len,
                                                   const uint8_t key[PQPAN_802154_KEY_OCTETS],
                                                   const uint8_t nonce[PQPAN_802154_NONCE_OCTETS],
                                                   const uint8_t *adata, size_t a_len);
PQPAN_MUST_CHECK int pqpan_802154_ccm_star_decrypt(uint8_t *m, size_t m_len, const uint8_t *mic,
                                                   size_t mic_len,
                                                   const uint8_t key[PQPAN_802154_KEY_OCTETS],
                                                   const uint8_t nonce[PQPAN_802154_NONCE_OCTETS],
                                                   const uint8_t *adata, size_t a_len);

/* The keying material of one secured frame: the key and the extended address of the
 * frame's originator (the nonce needs it even when the header carries a short address). */
struct pqpan_802154_keying {
    uint8_t key[PQPAN_802154_KEY_OCTETS];
    uint64_t src_ext;
};

/* Addressing modes, §7.2 (Frame Control field), Table 7-3. */
#define PQPAN_802154_ADDR_NONE 0u
#define PQPAN_802154_ADDR_SHORT 2u
#define PQPAN_802154_ADDR_EXT 3u

/* A MAC address. ext_addr is the EUI-64 as a number: its most significant octet is the
 * first octet of the canonical (printed) form; on air it is sent least significant
 * octet first (§4.5). */
struct pqpan_802154_addr {
    uint8_t mode; /* PQPAN_802154_ADDR_* */
    uint16_t short_addr;
    uint64_t ext_addr;
};

/* The MAC header fields of a data, MAC command or Imm-Ack frame (flags are 0 or 1). */
struct pqpan_802154_mhr {
    uint8_t frame_type;    /* PQPAN_802154_FRAME_* */
    uint8_t frame_version; /* 0 (2003) or 1 (2006); a secured frame needs 1 */
    uint8_t security;      /* Security Enabled: aux follows the addresses */
    struct pqpan_802154_aux aux;
    uint8_t frame_pending;
    uint8_t ack_request; /* AR */
    uint8_t pan_id_compression;
    uint8_t seq;
    uint16_t dst_pan;
    uint16_t src_pan; /* ignored when pan_id_compression is set */
    struct pqpan_802154_addr dst;
    struct pqpan_802154_addr src;
};

/* A parsed frame: the header (auxiliary security header included) plus where the payload
 * lies in the parsed buffer. A command frame's payload starts with its Command ID. The
 * MIC of a secured frame follows the payload. */
struct pqpan_802154_frame {
    struct pqpan_802154_mhr mhr;
    size_t mhr_len;
    size_t payload_off;
    size_t payload_len;
    size_t mic_len;
};

/* CRC-16/KERMIT (ITU-T polynomial x^16 + x^12 + x^5 + 1, reflected, initial value 0,
 * no final XOR) over data[0..len): the FCS field of §7.2. */
uint16_t pqpan_802154_mac_fcs(const uint8_t *data, size_t len);

/* Length of the MAC header h describes, auxiliary security header included, or 0 if h is
 * not a valid data or MAC command frame header of Frame Version 0 or 1 (security only with
 * version 1, a level 1..7 and a key identifier mode 0..3). */
size_t pqpan_802154_mac_mhr_len(const struct pqpan_802154_mhr *h);

/* The largest frame payload with header h: aMaxPhyPacketSize - MHR - MIC - FCS (0 if
 * invalid). */
size_t pqpan_802154_mac_max_payload(const struct pqpan_802154_mhr *h);

/* Writes a data or MAC command frame (MHR, payload, MIC, FCS little-endian) into psdu;
 * *psdu_len is its length (<= 127). A command frame's payload starts with its Command ID.
 * A secured header (h->security) needs keying k, else k may be NULL: the frame is secured
 * by CCM* (2006 §7.6.3 rules for Frame Version 1: the authentication data are the MHR,
 * and for a command frame the Command ID; the rest of the payload is the private part,
 * encrypted at levels 4..7; at levels 1..3 everything is authenticated, nothing
 * encrypted). */
PQPAN_MUST_CHECK int pqpan_802154_mac_build(uint8_t *psdu, size_t cap, size_t *psdu_len,
                                            const struct pqpan_802154_mhr *h,
                                            const uint8_t *payload, size_t payload_len,
                                            const struct pqpan_802154_keying *k);

/* The Data Request command (§7.5.5) with header h (frame_type set to command here). */
PQPAN_MUST_CHECK int pqpan_802154_mac_build_data_request(uint8_t *psdu, size_t cap,
                                                         size_t *psdu_len,
                                                         const struct pqpan_802154_mhr *h,
                                                         const struct pqpan_802154_keying *k);

/* Writes the 5-octet Imm-Ack frame for sequence number seq (§7.3.3, Frame Version 0). */
void pqpan_802154_mac_build_ack(uint8_t psdu[PQPAN_802154_ACK_PSDU], uint8_t seq,
                                uint8_t frame_pending);

/* Parses a PSDU (MAC frame with FCS). Checks the length, the FCS, the frame control
 * field and the auxiliary security header; fills f (a secured frame's payload stays as
 * sent: pqpan_802154_mac_unsecure opens it). PQPAN_ERR_MALFORMED for a bad frame or FCS
 * (an auxiliary security header with level 0 or the Frame Version 2 bits Frame Counter
 * Suppression / ASN in Nonce included), PQPAN_ERR_UNSUPPORTED for frame types other than
 * data/ack/command, Frame Version 2, security on a Frame Version 0 frame (2003 rules) or
 * on an Imm-Ack. */
PQPAN_MUST_CHECK int pqpan_802154_mac_parse(struct pqpan_802154_frame *f, const uint8_t *psdu,
                                            size_t len);

/* Verifies the MIC of a secured frame parsed into f and decrypts its private payload in
 * place (psdu as given to the parser). PQPAN_ERR_AUTH (psdu unchanged) if the MIC does
 * not verify; PQPAN_ERR_INVALID_ARG if f is not secured. */
PQPAN_MUST_CHECK int pqpan_802154_mac_unsecure(uint8_t *psdu, size_t len,
                                               const struct pqpan_802154_frame *f,
                                               const struct pqpan_802154_keying *k);

/* macAckWaitDuration in nanoseconds (864 µs). */
uint64_t pqpan_802154_mac_ack_wait_ns(void);

/* The IFS that must follow a frame of psdu_octets (SIFS 192 µs or LIFS 640 µs). */
uint64_t pqpan_802154_mac_ifs_ns(size_t psdu_octets);

/* ---- Unslotted CSMA-CA (§6.2.5.1) ---- */

struct pqpan_802154_csma_params {
    uint8_t min_be;            /* macMinBE */
    uint8_t max_be;            /* macMaxBE, at most 8 */
    uint8_t max_backoffs;      /* macMaxCsmaBackoffs, 0..5 */
    uint8_t max_frame_retries; /* macMaxFrameRetries, 0..7 */
};

/* IEEE defaults, §8.4.3.1 Table 8-94: macMinBE 3, macMaxBE 5, macMaxCsmaBackoffs 4,
 * macMaxFrameRetries 3. */
struct pqpan_802154_csma_params pqpan_802154_csma_ieee(void);
/* Contiki-NG os/net/mac/csma/csma.h defaults: CSMA_MIN_BE 3, CSMA_MAX_BE 5,
 * CSMA_MAX_BACKOFF 5, CSMA_MAX_FRAME_RETRIES 7. */
struct pqpan_802154_csma_params pqpan_802154_csma_contiki(void);

/* PQPAN_OK if the parameters are within the ranges of Table 8-94. */
PQPAN_MUST_CHECK int pqpan_802154_csma_params_check(const struct pqpan_802154_csma_params *p);

/* Clear channel assessment: return 1 if the channel is busy during the CCA that starts
 * at t_ns, 0 if idle. */
typedef int (*pqpan_802154_cca_fn)(void *ctx, uint64_t t_ns);

struct pqpan_802154_csma_result {
    uint8_t success;     /* 1: channel access granted; 0: failure after max_backoffs + 1 CCAs */
    uint8_t ccas;        /* CCAs performed (NB + 1) */
    uint64_t backoff_ns; /* total random backoff delay */
    uint64_t end_ns;     /* end of the last CCA */
    uint64_t tx_start_ns; /* success: end_ns + aTurnaroundTime; failure: end_ns */
};

/* Runs the unslotted CSMA-CA algorithm starting at start_ns: NB = 0, BE = macMinBE;
 * wait random(2^BE - 1) unit backoff periods, CCA; idle -> success; busy -> NB += 1,
 * BE = min(BE + 1, macMaxBE), fail if NB > macMaxCsmaBackoffs (§6.2.5.1, Figure 6-2).
 * Each random draw takes one octet from rng (uniform because 2^BE divides 256). */
PQPAN_MUST_CHECK int pqpan_802154_csma_run(struct pqpan_802154_csma_result *res,
                                           const struct pqpan_802154_csma_params *p,
                                           pqpan_rng_fn rng, void *rng_ctx,
                                           pqpan_802154_cca_fn cca, void *cca_ctx,
                                           uint64_t start_ns);

/* Closed forms for independent CCAs, each busy with probability p_busy (0 <= p < 1 or 1):
 * attempt i (i = 0..M, M = macMaxCsmaBackoffs) happens with probability p^i and waits
 * on average (2^BE_i - 1)/2 unit backoff periods, BE_i = min(macMinBE + i, macMaxBE).
 *   E[backoff] = sum_i p^i (2^BE_i - 1)/2 * aUnitBackoffPeriod
 *   E[CCAs]    = sum_i p^i
 *   P[failure] = p^(M+1)
 * For an idle channel (p = 0): E[backoff] = (2^macMinBE - 1)/2 periods (1.12 ms for
 * macMinBE 3). */
double pqpan_802154_csma_expected_backoff_ns(const struct pqpan_802154_csma_params *p, double p_busy);
double pqpan_802154_csma_expected_ccas(const struct pqpan_802154_csma_params *p, double p_busy);
double pqpan_802154_csma_failure_prob(const struct pqpan_802154_csma_params *p, double p_busy);

/* ---- 6LoWPAN (RFC 4944, RFC 6282) ---- */

#define PQPAN_IPV6_HDR_OCTETS 40u
#define PQPAN_UDP_HDR_OCTETS 8u
#define PQPAN_IPV6_NEXT_HEADER_UDP 17u
/* RFC 4944 §5.3: fragment header sizes. */
#define PQPAN_6LOWPAN_FRAG1_OCTETS 4u
#define PQPAN_6LOWPAN_FRAGN_OCTETS 5u
/* RFC 4944 §5.3: datagram_size is an 11-bit field. */
#define PQPAN_6LOWPAN_MAX_DATAGRAM 2047u
/* RFC 4944 §4: the IPv6 MTU over IEEE 802.15.4 is 1280 octets. */
#define PQPAN_6LOWPAN_IPV6_MTU 1280u
/* RFC 4944 §5.3: a reassembly timeout of at most 60 s. */
#define PQPAN_6LOWPAN_REASM_TIMEOUT_NS 60000000000ull
/* Largest compressed IPHC + NHC header this code writes (RFC 6282 §3.1, §4.3). */
#define PQPAN_6LOWPAN_MAX_COMP_HDR 48u

/* A UDP datagram between two link-local addresses derived from MAC addresses. */
struct pqpan_6lowpan_udp_spec {
    struct pqpan_802154_addr src_mac;
    struct pqpan_802154_addr dst_mac;
    uint8_t hop_limit;
    uint16_t src_port;
    uint16_t dst_port;
};

/* fe80::IID where the IID comes from the MAC address: EUI-64 with the U/L bit inverted
 * (RFC 4944 §6, RFC 4291 App. A) or 0000:00ff:fe00:XXXX for a short address
 * (RFC 6282 §3.2.2). PQPAN_ERR_INVALID_ARG for mode NONE. */
PQPAN_MUST_CHECK int pqpan_6lowpan_link_local(uint8_t addr[16], const struct pqpan_802154_addr *mac);

/* UDP checksum of an IPv6 datagram (40-octet header, no extension headers, then UDP),
 * over the pseudo-header of RFC 8200 §8.1 and the UDP header with checksum field taken
 * as zero. A computed 0 is returned as 0xFFFF (RFC 768). */
PQPAN_MUST_CHECK int pqpan_6lowpan_udp_checksum(uint16_t *sum, const uint8_t *dgram, size_t len);

/* Builds the uncompressed IPv6 + UDP datagram (checksum filled in) into dgram. */
PQPAN_MUST_CHECK int pqpan_6lowpan_build_udp(uint8_t *dgram, size_t cap, size_t *len,
                                             const struct pqpan_6lowpan_udp_spec *s,
                                             const uint8_t *payload, size_t payload_len);

/* Compresses the IPv6 header (and with nhc_udp the UDP header, RFC 6282 §4.3: ports
 * compressed where possible, checksum inline) of dgram into out. *comp_len is the
 * compressed header length, *uncomp_len the number of datagram octets it replaces
 * (40, or 48 with NHC UDP); dgram[*uncomp_len..] follows unchanged. */
PQPAN_MUST_CHECK int pqpan_6lowpan_compress(uint8_t *out, size_t cap, size_t *comp_len,
                                            size_t *uncomp_len, const uint8_t *dgram,
                                            size_t dgram_len,
                                            const struct pqpan_802154_addr *src_mac,
                                            const struct pqpan_802154_addr *dst_mac,
                                            int nhc_udp);

/* Decompresses the IPHC header at in[0..in_len) into out: *uncomp_len octets of IPv6
 * (+ UDP) header; *consumed compressed octets. dgram_size is the whole uncompressed
 * datagram size, or 0 when in holds the whole datagram (unfragmented). Stateless only:
 * CID, SAC, DAC set or multicast with DAM != 00 give PQPAN_ERR_UNSUPPORTED. */
PQPAN_MUST_CHECK int pqpan_6lowpan_decompress(uint8_t *out, size_t cap, size_t *uncomp_len,
                                              size_t *consumed, const uint8_t *in,
                                              size_t in_len,
                                              const struct pqpan_802154_addr *src_mac,
                                              const struct pqpan_802154_addr *dst_mac,
                                              size_t dgram_size);

/* One link-layer payload of a (possibly fragmented) compressed datagram. */
struct pqpan_6lowpan_frag {
    uint8_t hdr_len;      /* 0 (unfragmented), 4 (FRAG1) or 5 (FRAGN) */
    uint8_t offset_units; /* datagram_offset in 8-octet units (FRAGN) */
    size_t comp_hdr_len;  /* compressed header octets carried (first piece only) */
    size_t payload_off;   /* offset into the datagram payload (after the header) */
    size_t payload_len;
};

/* Fragmentation of a datagram with a compressed header of comp_len octets replacing
 * uncomp_len uncompressed octets, and payload_len further octets (RFC 4944 §5.3), into
 * link payloads of at most max_link_payload octets: one piece without fragment header
 * if it fits, else FRAG1 (carrying the whole compressed header) and FRAGNs, each but
 * the last covering a multiple of 8 octets of the uncompressed datagram.
 * pqpan_6lowpan_frag_count gives the number of pieces, pqpan_6lowpan_frag_piece piece
 * number index (0-based). */
PQPAN_MUST_CHECK int pqpan_6lowpan_frag_count(size_t *count, size_t comp_len, size_t uncomp_len,
                                              size_t payload_len, size_t max_link_payload);
PQPAN_MUST_CHECK int pqpan_6lowpan_frag_piece(struct pqpan_6lowpan_frag *f, size_t index,
                                              size_t comp_len, size_t uncomp_len,
                                              size_t payload_len, size_t max_link_payload);

/* Writes one piece: fragment header (datagram_size = uncomp_len + payload_len, tag),
 * compressed header if first, payload slice. */
PQPAN_MUST_CHECK int pqpan_6lowpan_frag_write(uint8_t *out, size_t cap, size_t *len,
                                              const struct pqpan_6lowpan_frag *f,
                                              size_t dgram_size, uint16_t tag,
                                              const uint8_t *comp_hdr, const uint8_t *payload);

/* Reassembly of one datagram at a time (RFC 4944 §5.3). The datagram is rebuilt,
 * uncompressed, in a caller buffer passed to every call (the context holds no pointer). */
struct pqpan_6lowpan_reasm {
    uint8_t active;
    uint16_t tag;
    uint16_t size;
    uint16_t received; /* octets received so far */
    struct pqpan_802154_addr src;
    struct pqpan_802154_addr dst;
    uint64_t start_ns;
    uint64_t timeout_ns;
    uint8_t have[(PQPAN_6LOWPAN_MAX_DATAGRAM + 1u) / 64u]; /* one bit per 8-octet unit */
};

void pqpan_6lowpan_reasm_init(struct pqpan_6lowpan_reasm *r, uint64_t timeout_ns);

/* Drops a datagram whose first fragment arrived more than timeout_ns before now_ns;
 * returns 1 if one was dropped (a lost fragment costs the whole datagram). */
int pqpan_6lowpan_reasm_expire(struct pqpan_6lowpan_reasm *r, uint64_t now_ns);

/* Feeds one MAC frame payload (FRAG1, FRAGN or an unfragmented IPHC datagram) received
 * at now_ns from src_mac to dst_mac. *dgram_len is set to the datagram length when the
 * datagram in buf is complete, else 0. A fragment of another datagram (other tag or
 * addresses) replaces the one in progress; an overlapping fragment that is not a pure
 * duplicate discards the datagram (RFC 4944 §5.3). */
PQPAN_MUST_CHECK int pqpan_6lowpan_reasm_input(struct pqpan_6lowpan_reasm *r, uint8_t *buf,
                                               size_t cap, size_t *dgram_len,
                                               const uint8_t *payload, size_t len,
                                               const struct pqpan_802154_addr *src_mac,
                                               const struct pqpan_802154_addr *dst_mac,
                                               uint64_t now_ns);

/* ---- IPv6 fragmentation (RFC 8200 §4.5; src/ieee802154/ipv6frag.c) ----
 * A source fragments a packet that exceeds the path MTU (1280 octets on a 6LoWPAN link,
 * RFC 4944 §4): the unfragmentable part (here the 40-octet IPv6 header: the packets have
 * no extension headers) is repeated in every fragment packet, followed by an 8-octet
 * Fragment header (Next Header, Reserved, 13-bit Fragment Offset in 8-octet units, 2 bits
 * reserved, M flag, 32-bit Identification) and a slice of the fragmentable part (the UDP
 * header and payload); every slice but the last is a multiple of 8 octets, and each
 * fragment packet fits the MTU, so a slice is at most (1280 - 40 - 8) rounded down to a
 * multiple of 8 = 1232 octets. A packet within the MTU is sent whole (RFC 8021 deprecates
 * atomic fragments). The destination reassembles one packet at a time, abandons it when
 * fragments overlap (RFC 8200 §4.5, RFC 5722) or after its timeout (at most 60 s). */
#define PQPAN_IPV6_NEXT_HEADER_FRAGMENT 44u /* RFC 8200 §4.5 */
#define PQPAN_IPV6_FRAG_HDR_OCTETS 8u
#define PQPAN_IPV6_FRAG_UNIT 8u
#define PQPAN_IPV6_FRAG_DATA_MAX                                                                  \
    ((PQPAN_6LOWPAN_IPV6_MTU - PQPAN_IPV6_HDR_OCTETS - PQPAN_IPV6_FRAG_HDR_OCTETS) /             \
     PQPAN_IPV6_FRAG_UNIT * PQPAN_IPV6_FRAG_UNIT)
/* The largest packet (Payload Length is 16 bits) and the reassembly timeout bound. */
#define PQPAN_IPV6_PAYLOAD_MAX 65535u
#define PQPAN_IPV6_REASM_TIMEOUT_NS 60000000000ull

/* The IPv6 packets a packet of pkt_len octets (40-octet header, no extension header) is
 * sent in: 1 if it fits the 1280-octet MTU, else ceil((pkt_len - 40) / 1232) fragments;
 * 0 if pkt_len is below 40 or its payload above 65535. */
size_t pqpan_ipv6frag_count(size_t pkt_len);
/* The octets of packet i of those (a fragment packet: 40 + 8 + its slice), 0 if none. */
size_t pqpan_ipv6frag_len(size_t pkt_len, size_t i);
/* Writes packet i of pkt[0..pkt_len) into out (*out_len octets): the packet itself when it
 * fits the MTU, else fragment i with Identification ident. */
PQPAN_MUST_CHECK int pqpan_ipv6frag_write(uint8_t *out, size_t cap, size_t *out_len,
                                          const uint8_t *pkt, size_t pkt_len, size_t i,
                                          uint32_t ident);

/* Reassembly of one packet at a time, rebuilt in a caller buffer passed to every call. */
struct pqpan_ipv6frag_reasm {
    uint8_t active;
    uint8_t have_last;      /* the fragment with M = 0 arrived: total is known */
    uint32_t ident;
    uint8_t src[16], dst[16];
    uint32_t total;         /* fragmentable octets of the packet */
    uint32_t received;
    uint32_t end;           /* the furthest octet placed so far */
    uint64_t start_ns;
    uint64_t timeout_ns;
    uint8_t have[(PQPAN_IPV6_PAYLOAD_MAX / PQPAN_IPV6_FRAG_UNIT + 8u) / 8u]; /* per 8 octets */
};

void pqpan_ipv6frag_reasm_init(struct pqpan_ipv6frag_reasm *r, uint64_t timeout_ns);

/* Abandons a packet whose first fragment arrived more than timeout_ns before now_ns;
 * returns 1 if one was abandoned. */
int pqpan_ipv6frag_reasm_expire(struct pqpan_ipv6frag_reasm *r, uint64_t now_ns);

/* Feeds one IPv6 packet in[0..len) received at now_ns. A packet without a Fragment header
 * is complete at once (copied to buf); a fragment is placed, and *pkt_len is set to the
 * reassembled packet's length (Next Header and Payload Length restored) when it completes
 * it, else 0. A fragment of another packet (Identification, addresses) replaces the one in
 * progress; an overlapping fragment abandons the packet (PQPAN_OK, nothing delivered).
 * PQPAN_ERR_MALFORMED for a bad packet (lengths, a non-final fragment not a multiple of 8
 * octets, a packet beyond 65535 octets of payload), PQPAN_ERR_BUFFER_TOO_SMALL when buf
 * cannot hold it. */
PQPAN_MUST_CHECK int pqpan_ipv6frag_reasm_input(struct pqpan_ipv6frag_reasm *r, uint8_t *buf,
                                                size_t cap, size_t *pkt_len, const uint8_t *in,
                                                size_t len, uint64_t now_ns);

/* ---- Frame planner ---- */

/* Most frames one datagram can need: with the longest MAC header (23 octets) a frame
 * carries 102 octets of 6LoWPAN, so FRAGNs carry 96; 2047 octets need at most
 * 1 + ceil((2047 - 48) / 96) = 22 frames. */
#define PQPAN_802154_MAX_FRAMES 32u

/* What a UDP datagram costs on the link: one entry per MAC frame. */
struct pqpan_802154_frame_plan {
    uint16_t psdu_octets;   /* MAC frame incl. FCS */
    uint16_t lowpan_octets; /* 6LoWPAN octets in the frame payload */
    uint64_t airtime_ns;    /* SHR + PHR + PSDU */
    uint64_t ifs_ns;        /* SIFS or LIFS after the frame (after its ACK with AR) */
};

struct pqpan_802154_link_cfg {
    struct pqpan_802154_addr src;
    struct pqpan_802154_addr dst;
    uint16_t pan_id;
    uint8_t pan_id_compression;
    uint8_t ack_request;
    uint8_t nhc_udp;
    uint8_t hop_limit;
    uint16_t src_port;
    uint16_t dst_port;
    uint8_t sec_level;   /* enum pqpan_802154_sec_level of the data frames (0: unsecured) */
    uint8_t key_id_mode; /* their key identifier mode, with sec_level != 0 */
};

/* The Key Index written with key identifier modes 1..3 (Thread's first key: key sequence
 * 0 -> index 1) and the Key Source of modes 2 and 3; a model's choice, they change no
 * size. */
#define PQPAN_802154_KEY_INDEX_DEFAULT 1u
#define PQPAN_802154_KEY_SOURCE_DEFAULT 0x0000000100000001ull

struct pqpan_802154_plan {
    size_t frames;
    size_t datagram_octets;  /* uncompressed IPv6 datagram: 40 + 8 + UDP payload */
    size_t comp_hdr_octets;  /* IPHC (+ NHC UDP) header */
    size_t mhr_octets;       /* MAC header per frame, auxiliary security header included */
    size_t mic_octets;       /* MIC per frame (Table 9-6) */
    size_t psdu_octets;      /* sum over frames */
    uint64_t data_airtime_ns; /* sum over frames */
    uint64_t ack_airtime_ns; /* one Imm-Ack PPDU (0 without AR) */
    uint64_t turnaround_ns;  /* aTurnaroundTime before each ACK (0 without AR) */
    uint64_t ack_wait_ns;    /* macAckWaitDuration (0 without AR) */
    uint64_t ifs_ns;         /* sum of the IFS after each frame */
    uint64_t total_ns;       /* frames + per frame (turnaround + ACK + IFS), no CSMA */
    uint8_t exceeds_mtu;     /* 1 if datagram_octets > 1280 (RFC 4944 §4) */
};

/* Plans the frames carrying a UDP payload of udp_payload_len octets with configuration
 * c. frames may be NULL; otherwise its capacity cap must hold every frame
 * (else PQPAN_ERR_BUFFER_TOO_SMALL). The header sizes come from the real
 * compression code, not a separate formula. */
PQPAN_MUST_CHECK int pqpan_802154_plan_udp(struct pqpan_802154_plan *plan,
                                           struct pqpan_802154_frame_plan *frames, size_t cap,
                                           const struct pqpan_802154_link_cfg *c,
                                           size_t udp_payload_len);

/* Plans the frames of an IPv6 fragment packet of pkt_len octets (40 + the 8-octet Fragment
 * header + its slice, at most 1280) with configuration c: IPHC with the Next Header (44)
 * inline, then the Fragment header and the slice uncompressed (in the first fragment the
 * UDP header too), as Zephyr and Linux send it (plan.c says why not RFC 6282 §4.2's NHC). */
PQPAN_MUST_CHECK int pqpan_802154_plan_ipv6_fragment(struct pqpan_802154_plan *plan,
                                                     struct pqpan_802154_frame_plan *frames,
                                                     size_t cap,
                                                     const struct pqpan_802154_link_cfg *c,
                                                     size_t pkt_len);

/* ---- PQKE messages in UDP datagrams (docs/MODEL.md "PQKE messages over 6LoWPAN") ----
 * RFC 4944 §4 gives a 6LoWPAN link the IPv6 MTU of 1280 octets (the minimum of RFC 8200
 * §5), and stacks size their buffers to it (Contiki-NG os/contiki-default-conf.h:
 * UIP_CONF_BUFFER_SIZE 1280, "an upper bound on the largest IP packet that can be
 * received"). So a PQKE message of at most 1280 - 40 - 8 = 1232 octets is the payload of
 * one datagram, unchanged. A longer one (every ML-KEM-1024 INIT and RESP, kem-auth INIT and
 * kem-auth-mutual RESP from ML-KEM-768, signature modes) is cut by the application into
 * segments, one datagram each, sent one after the other: a 2-octet segment header
 * (0x80 | index, count; a PQKE message starts with its version, < 0x80, so the receiver
 * tells the two apart by the first octet) followed by up to 1230 octets of the message,
 * every segment but the last full, so that each segment's datagram fits 1280 octets. The
 * receiver appends segment i to segments 0..i-1 of the same message and hands the message
 * over when the last arrives; segment 0 starts a message again (the sender retransmits
 * whole messages). Each segment is priced like any datagram: its own IPHC header,
 * FRAG1/FRAGN headers and frames. (The alternative, IPv6 fragmentation, is below.) */
#define PQPAN_802154_UDP_PAYLOAD_MAX                                                              \
    (PQPAN_6LOWPAN_IPV6_MTU - PQPAN_IPV6_HDR_OCTETS - PQPAN_UDP_HDR_OCTETS)
#define PQPAN_802154_SEG_HDR_OCTETS 2u
#define PQPAN_802154_SEG_FLAG 0x80u
#define PQPAN_802154_SEG_DATA_MAX                                                                 \
    (PQPAN_6LOWPAN_IPV6_MTU - PQPAN_IPV6_HDR_OCTETS - PQPAN_UDP_HDR_OCTETS -                   \
     PQPAN_802154_SEG_HDR_OCTETS)
#define PQPAN_802154_SEG_COUNT_MAX 127u /* the index's 7 bits */

/* The datagrams a message of len octets takes (1 if len <= PQPAN_802154_UDP_PAYLOAD_MAX,
 * else ceil(len / PQPAN_802154_SEG_DATA_MAX)); 0 if len is 0 or would need more than
 * PQPAN_802154_SEG_COUNT_MAX segments. */
size_t pqpan_802154_msg_datagrams(size_t len);
/* The UDP payload octets of datagram i of a message of len octets (segment header
 * included), 0 if there is no such datagram. */
size_t pqpan_802154_msg_datagram_len(size_t len, size_t i);
/* Writes datagram i's UDP payload of msg[0..len) into out: *out_len octets. */
PQPAN_MUST_CHECK int pqpan_802154_msg_datagram_write(uint8_t *out, size_t cap, size_t *out_len,
                                                     const uint8_t *msg, size_t len, size_t i);

/* A message of len octets in IPv6 packets: with ipv6_frag 0 its datagrams (one, or the
 * segments above), with ipv6_frag 1 one UDP datagram, whole within the MTU, else in IPv6
 * fragments (RFC 8200 §4.5, above). pqpan_802154_msg_packets gives how many (0: len 0, or
 * too long); pqpan_802154_plan_msg_packet plans packet i (PQPAN_ERR_BAD_LENGTH: no such
 * packet). */
size_t pqpan_802154_msg_packets(size_t len, int ipv6_frag);
PQPAN_MUST_CHECK int pqpan_802154_plan_msg_packet(struct pqpan_802154_plan *plan,
                                                  struct pqpan_802154_frame_plan *frames,
                                                  size_t cap,
                                                  const struct pqpan_802154_link_cfg *c,
                                                  size_t len, size_t i, int ipv6_frag);

/* The configuration of the way back: c with source and destination addresses and ports
 * swapped (the responder's messages). */
void pqpan_802154_link_reverse(struct pqpan_802154_link_cfg *back,
                               const struct pqpan_802154_link_cfg *c);

/* The IPv6/UDP header fields of configuration c's datagrams (link-local addresses from the
 * MAC addresses, hop limit, ports) for pqpan_6lowpan_build_udp. */
void pqpan_802154_link_udp_spec(struct pqpan_6lowpan_udp_spec *spec,
                                const struct pqpan_802154_link_cfg *c);

/* The MAC header the planner uses for configuration c (data frame, version 1; secured
 * with c's level and key identifier mode, frame counter 0: the sender sets its own). */
void pqpan_802154_plan_mhr(struct pqpan_802154_mhr *h, const struct pqpan_802154_link_cfg *c,
                           uint8_t seq);

/* ---- A sleepy end device's data poll ---- */

/* A sleepy end device (a Thread SED) wakes every poll period, asks its parent for pending
 * data with a Data Request command (§7.5.5, acknowledged, unslotted CSMA-CA), gets an
 * Imm-Ack with Frame Pending 0 (no data) and goes back to sleep with the radio off. The
 * phases of one period, in order: */
enum pqpan_802154_poll_phase {
    PQPAN_802154_POLL_WAKE_XTAL = 0, /* crystal start of the wake-ups (HFXO_START) */
    PQPAN_802154_POLL_WAKE_CPU,      /* their CPU part (CPU) */
    PQPAN_802154_POLL_BACKOFF,       /* CSMA-CA random backoff (RX, or SLEEP with the radio off) */
    PQPAN_802154_POLL_CCA,           /* aCcaTime per CCA (RX) */
    PQPAN_802154_POLL_TURNAROUND,    /* aTurnaroundTime RX-to-TX before the frame (RAMP_TX) */
    PQPAN_802154_POLL_TX,            /* the Data Request PPDU (TX) */
    PQPAN_802154_POLL_ACK_WAIT,      /* aTurnaroundTime TX-to-RX + the Imm-Ack PPDU (RX) */
    PQPAN_802154_POLL_SLEEP,         /* the rest of the period (SLEEP) */
    PQPAN_802154_POLL_PHASES
};

/* Stable output names: "wake_xtal", "wake_cpu", "backoff", "cca", "turnaround", "tx",
 * "ack_wait", "sleep". */
const char *pqpan_802154_poll_phase_name(enum pqpan_802154_poll_phase ph);

struct pqpan_802154_poll_cfg {
    struct pqpan_802154_link_cfg link; /* src: the end device, dst: its parent; addressing,
                                          PAN ID, MAC security (ports etc. unused) */
    struct pqpan_802154_csma_params csma;
    double p_busy;        /* probability that a CCA finds the channel busy, 0 <= p < 1 */
    uint8_t backoff_rx;   /* the radio listens through the backoff (1) or is off (0) */
    uint64_t wake_xtal_ns; /* one wake-up: crystal start, then ... */
    uint64_t wake_cpu_ns;  /* ... CPU */
    uint64_t period_ns;    /* poll period */
};

struct pqpan_802154_poll {
    uint64_t ns[PQPAN_802154_POLL_PHASES];    /* expected time of each phase in one period */
    uint8_t state[PQPAN_802154_POLL_PHASES];  /* enum pqpan_state each is charged at */
    size_t request_psdu; /* Data Request PSDU octets, from the frame builder */
    double wakes;        /* expected wake-ups per poll (ieee802154.h "Wake-ups") */
    double ccas;         /* expected CCAs per poll */
    uint64_t active_ns;  /* every phase but sleep */
};

/* Plans one poll period (expected values, closed-form CSMA-CA as the estimator; the poll
 * assumed to get the channel and its ACK). PQPAN_ERR_INVALID_ARG for a bad configuration
 * or a period shorter than the active part (*out then holds the active part, for the
 * message). */
PQPAN_MUST_CHECK int pqpan_802154_poll_plan(struct pqpan_802154_poll *out,
                                            const struct pqpan_802154_poll_cfg *c);

/* Charge of one poll period from the current of each power state (ua, µA, indexed by
 * enum pqpan_state): per phase (µC = µA x s), the poll (every phase but sleep), the sleep,
 * and the average current over the period. */
struct pqpan_802154_poll_charge {
    double uc[PQPAN_802154_POLL_PHASES];
    double poll_uc;
    double sleep_uc;
    double avg_ua;
};

void pqpan_802154_poll_charge(struct pqpan_802154_poll_charge *out,
                              const struct pqpan_802154_poll *p,
                              const double ua[PQPAN_STATE_COUNT]);

/* ---- Analytic estimator of one PQKE over 6LoWPAN / IEEE 802.15.4 ---- */

/* Index of the two nodes: the initiator runs KeyGen and sends INIT and FIN, the
 * responder runs Encaps and sends RESP (and, in numeric mode, REVEAL). */
#define PQPAN_802154_INITIATOR 0u
#define PQPAN_802154_RESPONDER 1u
#define PQPAN_802154_MESSAGES 4u /* INIT, RESP, FIN, REVEAL (numeric; else 0 octets) */
/* The steps of computation: the initiator before INIT, the responder before RESP, the
 * initiator before FIN, the responder after FIN. */
#define PQPAN_802154_STEPS 4u

struct pqpan_802154_est_config {
    struct pqpan_802154_link_cfg link; /* initiator -> responder; RESP swaps the addresses and ports */
    struct pqpan_802154_csma_params csma;
    double p_busy;       /* probability that a CCA finds the channel busy, 0 <= p < 1 */
    uint32_t msg_octets[PQPAN_802154_MESSAGES]; /* INIT, RESP, FIN, REVEAL (PQKE message
                                                   octets; 0: no such message) */
    uint8_t ipv6_frag;   /* a message over one datagram: 0 in application segments, 1 in
                            IPv6 fragments (pqpan_802154_msg_packets) */
    /* executions of each operation (enum pqpan_op) in each step (PQPAN_802154_STEPS) */
    uint8_t step_ops[PQPAN_802154_STEPS][PQPAN_OP_COUNT];
    uint32_t cpu_hz;     /* crypto cycles -> time */
    uint8_t rx_always_on; /* 1: a node neither sending nor computing listens (RX), as a
                             non-duty-cycled 6LoWPAN node; 0: it sleeps (ideal wake-up) */
    uint8_t backoff_rx;   /* 1: the radio listens (RX) through a CSMA-CA random backoff;
                             0: it is off (SLEEP) until the CCA. The profile says which */
    uint64_t wake_xtal_ns; /* one wake-up from SLEEP: the crystal start (HFXO_START) */
    uint64_t wake_cpu_ns;  /* ... then the CPU's part (CPU state, outside CRYPTO) */
};

/* Wake-ups. SLEEP is the chip asleep (crystal off): every return from SLEEP to work costs
 * one wake-up, wake_xtal_ns in HFXO_START then wake_cpu_ns in CPU, before the work. So a
 * node sleeps and wakes per frame when it sleeps while idle (rx_always_on 0: between the
 * frames of a message, in the SIFS/LIFS, and while the other node computes) or in the
 * backoff (backoff_rx 0: then before every CCA). A sender wakes before its CSMA-CA (or its
 * CCA after a sleeping backoff), delaying it; a receiver wakes just before the frame it
 * receives (no delay). The exchange starts awake (KeyGen), and a node that has been
 * computing is awake (its CPU current includes the crystal). With rx_always_on and
 * backoff_rx no node ever sleeps: no wake-up. */

/* Wake-ups of a sender for one frame: before each CCA after a sleeping backoff (ccas of
 * them), else one before the CSMA-CA if the node was asleep (asleep 1), else none. */
double pqpan_802154_sender_wakes(uint8_t backoff_rx, int asleep, double ccas);

struct pqpan_802154_estimate {
    struct pqpan_ledger ledger[2]; /* everything, index PQPAN_802154_INITIATOR/RESPONDER */
    struct pqpan_ledger bits[2];   /* frames, ACKs and the turnaround between them only */
    uint32_t frames[PQPAN_802154_MESSAGES]; /* data frames of each message */
    uint32_t datagrams[PQPAN_802154_MESSAGES]; /* IPv6 packets (segments or fragments) of each
                                                  message */
    double backoff_ns;   /* expected random backoff, all frames */
    double ccas;         /* expected CCAs, all frames */
    double p_frame_fail; /* P(channel access failure) of one frame: p^(macMaxCsmaBackoffs+1) */
    double p_success;    /* P(no frame of the exchange fails channel access) */
    uint64_t latency_ns; /* KeyGen start .. FIN acknowledged */
};

/* Defaults: extended addresses, PAN ID 0xABCD with compression, AR, NHC UDP (ports
 * 0xF0B1/0xF0B2), hop limit 64, no MAC security, the --csma set, idle channel, the --kem
 * and --auth of include/pqpan/defaults.h: ML-KEM-768 mode none (pqke.h: INIT 1224, RESP
 * 1160, FIN 38; steps KeyGen | Encaps, KDF | Decaps, KDF | none), 64 MHz CPU, receivers
 * always on and listening in the backoff (so no wake-up; its times are left 0). */
void pqpan_802154_est_config_default(struct pqpan_802154_est_config *c);

/* The message sizes (pqpan_pqke_message_sizes) and steps of a PQKE suite (hybrid ones
 * included), mode and, in the sig modes, ML-DSA set sig (enum pqpan_sig_id) into c (the
 * operations of pqpan_pqke_side_work, each in the step the protocol runs it in). PQPAN_OK,
 * or the error of pqpan_pqke_side_work (c unchanged). */
PQPAN_MUST_CHECK int pqpan_802154_est_config_pqke(struct pqpan_802154_est_config *c,
                                                  unsigned suite, unsigned mode, unsigned sig);

/* Estimates one PQKE: the INIT step (initiator), INIT, the RESP step (responder), RESP,
 * the FIN step (initiator), FIN, the AFTER_FIN step (responder, if it has operations);
 * each message in its datagrams (segments above). Each frame costs the sender's wake-ups (above), its
 * expected unslotted CSMA-CA run (closed form for p_busy; backoff as RX or SLEEP per
 * backoff_rx, CCAs as RX, then aTurnaroundTime as RAMP_TX), the data frame (TX / RX; the
 * receiver's wake-up before it), aTurnaroundTime before the Imm-Ack (IFS state on both
 * nodes), the ACK (TX / RX) and the SIFS/LIFS after it (idle), which spaces the sender's
 * next frame (§6.2.4). A message is handed over when its last frame ends: the receiver,
 * awake, starts its step at once while its radio sends that frame's Imm-Ack (booked to
 * the radio, the CPU time after it; the step lasts at least that long), and no SIFS/LIFS
 * follows that frame; the exchange ends when FIN is acknowledged and the AFTER_FIN step
 * is done. Costs assume every frame gets the channel; p_success says how likely that is.
 * cycles[op] are the cycles
 * of one execution. Errors: PQPAN_ERR_INVALID_ARG (configuration), PQPAN_ERR_BAD_LENGTH
 * (a message of 0 octets or more than PQPAN_802154_SEG_COUNT_MAX segments); *out is
 * zeroed. */
PQPAN_MUST_CHECK int pqpan_802154_estimate_pqke(struct pqpan_802154_estimate *out,
                                                const struct pqpan_802154_est_config *c,
                                                const uint64_t cycles[PQPAN_OP_COUNT]);

#endif
