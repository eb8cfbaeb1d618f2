/* IEEE 802.15.4 link (2.4 GHz O-QPSK PHY, MAC data and Imm-Ack frames, unslotted
 * CSMA-CA), 6LoWPAN (RFC 6282 IPHC, RFC 4944 fragmentation and reassembly) and the
 * frame planner that the analytic estimator and the simulator share.
 *
 * Clause numbers are those of IEEE Std 802.15.4-2020 unless another edition is named.
 * Times are integer nanoseconds. Frames are written with Frame Version 1
 * (IEEE 802.15.4-2006): PAN ID Compression then means "source PAN ID omitted, equal to
 * the destination PAN ID" (2006 §7.2.1.1.5), which is what Contiki-NG's CSMA stack and
 * Wireshark expect for 6LoWPAN data frames. The parser accepts Frame Versions 0 and 1;
 * version 2 (2015 rules) and secured frames are reported as unsupported. */
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

/* The MAC header fields of a data or Imm-Ack frame (flags are 0 or 1). */
struct pqpan_802154_mhr {
    uint8_t frame_type;    /* PQPAN_802154_FRAME_* */
    uint8_t frame_version; /* 0 (2003) or 1 (2006) */
    uint8_t security;      /* must be 0: security is not implemented */
    uint8_t frame_pending;
    uint8_t ack_request; /* AR */
    uint8_t pan_id_compression;
    uint8_t seq;
    uint16_t dst_pan;
    uint16_t src_pan; /* ignored when pan_id_compression is set */
    struct pqpan_802154_addr dst;
    struct pqpan_802154_addr src;
};

/* A parsed frame: the header plus where the payload lies in the parsed buffer. */
struct pqpan_802154_frame {
    struct pqpan_802154_mhr mhr;
    size_t mhr_len;
    size_t payload_off;
    size_t payload_len;
};

/* CRC-16/KERMIT (ITU-T polynomial x^16 + x^12 + x^5 + 1, reflected, initial value 0,
 * no final XOR) over data[0..len): the FCS field of §7.2. */
uint16_t pqpan_802154_mac_fcs(const uint8_t *data, size_t len);

/* Length of the MAC header h describes, or 0 if h is not a valid unsecured data frame
 * header of Frame Version 0 or 1. */
size_t pqpan_802154_mac_mhr_len(const struct pqpan_802154_mhr *h);

/* The largest frame payload with header h: aMaxPhyPacketSize - MHR - FCS (0 if invalid). */
size_t pqpan_802154_mac_max_payload(const struct pqpan_802154_mhr *h);

/* Writes a data frame (MHR, payload, FCS little-endian) into psdu; *psdu_len is its
 * length (<= 127). */
PQPAN_MUST_CHECK int pqpan_802154_mac_build_data(uint8_t *psdu, size_t cap, size_t *psdu_len,
                                                 const struct pqpan_802154_mhr *h,
                                                 const uint8_t *payload, size_t payload_len);

/* Writes the 5-octet Imm-Ack frame for sequence number seq (§7.3.3, Frame Version 0). */
void pqpan_802154_mac_build_ack(uint8_t psdu[PQPAN_802154_ACK_PSDU], uint8_t seq,
                                uint8_t frame_pending);

/* Parses a PSDU (MAC frame with FCS). Checks the length, the FCS and the frame control
 * field; fills f. PQPAN_ERR_MALFORMED for a bad frame or FCS, PQPAN_ERR_UNSUPPORTED for
 * frame types other than data/ack, Frame Version 2 or security. */
PQPAN_MUST_CHECK int pqpan_802154_mac_parse(struct pqpan_802154_frame *f, const uint8_t *psdu,
                                            size_t len);

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
};

struct pqpan_802154_plan {
    size_t frames;
    size_t datagram_octets;  /* uncompressed IPv6 datagram: 40 + 8 + UDP payload */
    size_t comp_hdr_octets;  /* IPHC (+ NHC UDP) header */
    size_t mhr_octets;       /* MAC header per frame */
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

/* The configuration of the way back: c with source and destination addresses and ports
 * swapped (the responder's messages). */
void pqpan_802154_link_reverse(struct pqpan_802154_link_cfg *back,
                               const struct pqpan_802154_link_cfg *c);

/* The IPv6/UDP header fields of configuration c's datagrams (link-local addresses from the
 * MAC addresses, hop limit, ports) for pqpan_6lowpan_build_udp. */
void pqpan_802154_link_udp_spec(struct pqpan_6lowpan_udp_spec *spec,
                                const struct pqpan_802154_link_cfg *c);

/* The MAC header the planner uses for configuration c (data frame, version 1). */
void pqpan_802154_plan_mhr(struct pqpan_802154_mhr *h, const struct pqpan_802154_link_cfg *c,
                           uint8_t seq);

/* ---- Analytic estimator of one PQKE over 6LoWPAN / IEEE 802.15.4 ---- */

/* Index of the two nodes: the initiator runs KeyGen and sends INIT and FIN, the
 * responder runs Encaps and sends RESP. */
#define PQPAN_802154_INITIATOR 0u
#define PQPAN_802154_RESPONDER 1u
#define PQPAN_802154_MESSAGES 3u /* INIT, RESP, FIN */

struct pqpan_802154_est_config {
    struct pqpan_802154_link_cfg link; /* initiator -> responder; RESP swaps the addresses and ports */
    struct pqpan_802154_csma_params csma;
    double p_busy;       /* probability that a CCA finds the channel busy, 0 <= p < 1 */
    uint32_t msg_octets[PQPAN_802154_MESSAGES]; /* UDP payloads of INIT, RESP, FIN */
    uint32_t cpu_hz;     /* crypto cycles -> time */
    uint8_t rx_always_on; /* 1: a node neither sending nor computing listens (RX), as a
                             non-duty-cycled 6LoWPAN node; 0: it sleeps (ideal wake-up) */
    uint8_t backoff_rx;   /* 1: the radio listens (RX) through a CSMA-CA random backoff;
                             0: it is off (SLEEP) until the CCA. The profile says which */
};

struct pqpan_802154_estimate {
    struct pqpan_ledger ledger[2]; /* everything, index PQPAN_802154_INITIATOR/RESPONDER */
    struct pqpan_ledger bits[2];   /* frames, ACKs and the turnaround between them only */
    uint32_t frames[PQPAN_802154_MESSAGES]; /* data frames of each message */
    double backoff_ns;   /* expected random backoff, all frames */
    double ccas;         /* expected CCAs, all frames */
    double p_frame_fail; /* P(channel access failure) of one frame: p^(macMaxCsmaBackoffs+1) */
    double p_success;    /* P(no frame of the exchange fails channel access) */
    uint64_t latency_ns; /* KeyGen start .. FIN acknowledged */
};

/* Defaults: extended addresses, PAN ID 0xABCD with compression, AR, NHC UDP (ports
 * 0xF0B1/0xF0B2), hop limit 64, IEEE CSMA-CA defaults, idle channel, ML-KEM-768 message
 * sizes (pqke.h, mode none: INIT 1224, RESP 1160, FIN 38), 64 MHz CPU, receivers always on. */
void pqpan_802154_est_config_default(struct pqpan_802154_est_config *c);

/* Estimates one PQKE: KeyGen (initiator), INIT, Encaps + KDF (responder), RESP,
 * Decaps + KDF (initiator), FIN. Each frame costs its expected unslotted CSMA-CA run
 * (closed form for p_busy; backoff as RX or SLEEP per backoff_rx, CCAs as RX, then aTurnaroundTime as
 * RAMP_TX), the data frame (TX / RX), aTurnaroundTime before the Imm-Ack (IFS state on
 * both nodes), the ACK (TX / RX) and the SIFS/LIFS after it (idle). Costs assume every
 * frame gets the channel; p_success says how likely that is. cycles[op] are the cycles
 * of one execution. Errors: PQPAN_ERR_INVALID_ARG (configuration), PQPAN_ERR_BAD_LENGTH
 * (a message too large for 6LoWPAN fragmentation); *out is zeroed. */
PQPAN_MUST_CHECK int pqpan_802154_estimate_pqke(struct pqpan_802154_estimate *out,
                                                const struct pqpan_802154_est_config *c,
                                                const uint64_t cycles[PQPAN_OP_COUNT]);

#endif
