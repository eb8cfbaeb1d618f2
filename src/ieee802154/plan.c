/* Frame planner: the MAC frames, airtimes and ACK exchanges that carry one UDP datagram
 * over 6LoWPAN on IEEE 802.15.4. Shared by the analytic estimator and the simulator; the
 * sizes come from the real MAC, IPHC and fragmentation code. */
#include <string.h>

#include "pqpan/ieee802154.h"

#define IPV6_OFF_NEXT_HEADER 6u /* RFC 8200 §3 */

void pqpan_802154_plan_mhr(struct pqpan_802154_mhr *h, const struct pqpan_802154_link_cfg *c,
                           uint8_t seq)
{
    memset(h, 0, sizeof *h);
    h->frame_type = PQPAN_802154_FRAME_DATA;
    h->frame_version = 1;
    h->ack_request = c->ack_request ? 1 : 0;
    h->pan_id_compression = c->pan_id_compression ? 1 : 0;
    h->seq = seq;
    h->dst_pan = c->pan_id;
    h->src_pan = c->pan_id;
    h->dst = c->dst;
    h->src = c->src;
    if (c->sec_level != PQPAN_802154_SEC_NONE) {
        h->security = 1;
        h->aux.level = c->sec_level;
        h->aux.key_id_mode = c->key_id_mode;
        h->aux.key_index = PQPAN_802154_KEY_INDEX_DEFAULT;
        h->aux.key_source = PQPAN_802154_KEY_SOURCE_DEFAULT;
    }
}

void pqpan_802154_link_reverse(struct pqpan_802154_link_cfg *back,
                               const struct pqpan_802154_link_cfg *c)
{
    *back = *c;
    back->src = c->dst;
    back->dst = c->src;
    back->src_port = c->dst_port;
    back->dst_port = c->src_port;
}

void pqpan_802154_link_udp_spec(struct pqpan_6lowpan_udp_spec *spec,
                                const struct pqpan_802154_link_cfg *c)
{
    memset(spec, 0, sizeof *spec);
    spec->src_mac = c->src;
    spec->dst_mac = c->dst;
    spec->hop_limit = c->hop_limit;
    spec->src_port = c->src_port;
    spec->dst_port = c->dst_port;
}

/* Compressed and uncompressed header sizes for configuration c, measured by compressing a
 * header-only datagram (the sizes do not depend on the payload length). A fragment packet
 * (fragment 1) has the Fragment header's Next Header (44) in the IPv6 header: IPHC carries
 * it inline and compresses nothing after it, as Zephyr (subsys/net/ip/6lo.c compress_nh:
 * next header compressed only for UDP) and Linux (net/6lowpan/nhc_fragment.c registers the
 * RFC 6282 §4.2 Fragment NHC, EID 2, without a compressor) send it. RFC 6282 §4.2's NHC for
 * the Fragment header would not shrink a later fragment (1 + Next Header 1 + Length 1 + 6
 * octets = 9, as IPHC's inline 44 + the 8 octets), and NHC UDP after it would elide the UDP
 * length, which §4.3.3 infers from the lower layer, wrong for a fragment. */
static int header_sizes(size_t *comp, size_t *uncomp, const struct pqpan_802154_link_cfg *c,
                        int fragment)
{
    uint8_t dgram[PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS];
    uint8_t out[PQPAN_6LOWPAN_MAX_COMP_HDR];
    struct pqpan_6lowpan_udp_spec s;
    size_t len;
    int rc;
    pqpan_802154_link_udp_spec(&s, c);
    rc = pqpan_6lowpan_build_udp(dgram, sizeof dgram, &len, &s, 0, 0);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (fragment) {
        dgram[IPV6_OFF_NEXT_HEADER] = PQPAN_IPV6_NEXT_HEADER_FRAGMENT;
    }
    return pqpan_6lowpan_compress(out, sizeof out, comp, uncomp, dgram, len, &c->src, &c->dst,
                                  fragment ? 0 : c->nhc_udp);
}

static int plan_frames(struct pqpan_802154_plan *plan, struct pqpan_802154_frame_plan *frames,
                       size_t uncomp, size_t payload_len, size_t max_payload)
{
    struct pqpan_6lowpan_frag f;
    size_t i, lowpan, psdu;
    uint64_t air;
    int rc;
    for (i = 0; i < plan->frames; i++) {
        rc = pqpan_6lowpan_frag_piece(&f, i, plan->comp_hdr_octets, uncomp, payload_len,
                                      max_payload);
        if (rc != PQPAN_OK) {
            return rc;
        }
        lowpan = f.hdr_len + f.comp_hdr_len + f.payload_len;
        psdu = plan->mhr_octets + lowpan + plan->mic_octets + PQPAN_802154_FCS_OCTETS;
        air = pqpan_802154_phy_ppdu_ns(psdu);
        plan->psdu_octets += psdu;
        plan->data_airtime_ns += air;
        plan->ifs_ns += pqpan_802154_mac_ifs_ns(psdu);
        if (frames != 0) {
            frames[i].psdu_octets = (uint16_t)psdu;
            frames[i].lowpan_octets = (uint16_t)lowpan;
            frames[i].airtime_ns = air;
            frames[i].ifs_ns = pqpan_802154_mac_ifs_ns(psdu);
        }
    }
    return PQPAN_OK;
}

/* Plans an IPv6 packet of pkt_len octets whose first uncomp octets IPHC (+ NHC) compresses
 * into comp octets. */
static int plan_packet(struct pqpan_802154_plan *plan, struct pqpan_802154_frame_plan *frames,
                       size_t cap, const struct pqpan_802154_link_cfg *c, size_t pkt_len,
                       int fragment)
{
    struct pqpan_802154_mhr h;
    size_t comp, uncomp, max_payload;
    int rc;
    memset(plan, 0, sizeof *plan);
    pqpan_802154_plan_mhr(&h, c, 0);
    max_payload = pqpan_802154_mac_max_payload(&h);
    if (max_payload == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = header_sizes(&comp, &uncomp, c, fragment);
    if (rc != PQPAN_OK) {
        return rc;
    }
    plan->datagram_octets = pkt_len;
    plan->comp_hdr_octets = comp;
    plan->mhr_octets = pqpan_802154_mac_mhr_len(&h);
    plan->mic_octets = pqpan_802154_sec_mic_len(c->sec_level);
    plan->exceeds_mtu = plan->datagram_octets > PQPAN_6LOWPAN_IPV6_MTU;
    /* the octets after the part the compressed header replaces */
    rc = pqpan_6lowpan_frag_count(&plan->frames, comp, uncomp, pkt_len - uncomp, max_payload);
    if (rc == PQPAN_OK && frames != 0 && cap < plan->frames) {
        rc = PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (rc == PQPAN_OK) {
        rc = plan_frames(plan, frames, uncomp, pkt_len - uncomp, max_payload);
    }
    if (rc != PQPAN_OK) {
        memset(plan, 0, sizeof *plan);
        if (frames != 0) {
            memset(frames, 0, cap * sizeof *frames);
        }
        return rc;
    }
    if (c->ack_request) {
        plan->ack_airtime_ns = pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
        plan->turnaround_ns = PQPAN_802154_TURNAROUND_NS;
        plan->ack_wait_ns = pqpan_802154_mac_ack_wait_ns();
    }
    plan->total_ns = plan->data_airtime_ns + plan->ifs_ns +
                     (uint64_t)plan->frames * (plan->turnaround_ns + plan->ack_airtime_ns);
    return PQPAN_OK;
}

int pqpan_802154_plan_udp(struct pqpan_802154_plan *plan, struct pqpan_802154_frame_plan *frames,
                          size_t cap, const struct pqpan_802154_link_cfg *c,
                          size_t udp_payload_len)
{
    if (plan == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(plan, 0, sizeof *plan);
    if (c == 0 || udp_payload_len > PQPAN_6LOWPAN_MAX_DATAGRAM) {
        return c == 0 ? PQPAN_ERR_INVALID_ARG : PQPAN_ERR_BAD_LENGTH;
    }
    return plan_packet(plan, frames, cap, c,
                       PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + udp_payload_len, 0);
}

int pqpan_802154_plan_ipv6_fragment(struct pqpan_802154_plan *plan,
                                    struct pqpan_802154_frame_plan *frames, size_t cap,
                                    const struct pqpan_802154_link_cfg *c, size_t pkt_len)
{
    if (plan == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(plan, 0, sizeof *plan);
    if (c == 0 || pkt_len <= PQPAN_IPV6_HDR_OCTETS + PQPAN_IPV6_FRAG_HDR_OCTETS ||
        pkt_len > PQPAN_6LOWPAN_IPV6_MTU) {
        return c == 0 ? PQPAN_ERR_INVALID_ARG : PQPAN_ERR_BAD_LENGTH;
    }
    return plan_packet(plan, frames, cap, c, pkt_len, 1);
}

/* ---- PQKE messages in datagrams (segments, ieee802154.h) ---- */

size_t pqpan_802154_msg_datagrams(size_t len)
{
    size_t n;
    if (len == 0) {
        return 0;
    }
    if (len <= PQPAN_802154_UDP_PAYLOAD_MAX) {
        return 1;
    }
    n = (len + PQPAN_802154_SEG_DATA_MAX - 1u) / PQPAN_802154_SEG_DATA_MAX;
    return n <= PQPAN_802154_SEG_COUNT_MAX ? n : 0u;
}

size_t pqpan_802154_msg_datagram_len(size_t len, size_t i)
{
    size_t n = pqpan_802154_msg_datagrams(len);
    if (i >= n) {
        return 0;
    }
    if (n == 1) {
        return len;
    }
    return PQPAN_802154_SEG_HDR_OCTETS +
           (i + 1 < n ? PQPAN_802154_SEG_DATA_MAX : len - i * PQPAN_802154_SEG_DATA_MAX);
}

int pqpan_802154_msg_datagram_write(uint8_t *out, size_t cap, size_t *out_len, const uint8_t *msg,
                                    size_t len, size_t i)
{
    size_t n = pqpan_802154_msg_datagrams(len), dlen = pqpan_802154_msg_datagram_len(len, i);
    if (out_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *out_len = 0;
    if (out == 0 || msg == 0 || dlen == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cap < dlen) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (n == 1) {
        memcpy(out, msg, len);
    } else {
        out[0] = (uint8_t)(PQPAN_802154_SEG_FLAG | i);
        out[1] = (uint8_t)n;
        memcpy(out + PQPAN_802154_SEG_HDR_OCTETS, msg + i * PQPAN_802154_SEG_DATA_MAX,
               dlen - PQPAN_802154_SEG_HDR_OCTETS);
    }
    *out_len = dlen;
    return PQPAN_OK;
}

/* ---- A message in IPv6 packets: segments, or IPv6 fragments ---- */

size_t pqpan_802154_msg_packets(size_t len, int ipv6_frag)
{
    if (!ipv6_frag || len == 0) {
        return pqpan_802154_msg_datagrams(len);
    }
    return pqpan_ipv6frag_count(PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + len);
}

int pqpan_802154_plan_msg_packet(struct pqpan_802154_plan *plan,
                                 struct pqpan_802154_frame_plan *frames, size_t cap,
                                 const struct pqpan_802154_link_cfg *c, size_t len, size_t i,
                                 int ipv6_frag)
{
    size_t pkt = PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + len;
    size_t n = pqpan_802154_msg_packets(len, ipv6_frag);
    if (i >= n) {
        if (plan != 0) {
            memset(plan, 0, sizeof *plan);
        }
        return plan == 0 ? PQPAN_ERR_INVALID_ARG : PQPAN_ERR_BAD_LENGTH;
    }
    if (!ipv6_frag) {
        return pqpan_802154_plan_udp(plan, frames, cap, c, pqpan_802154_msg_datagram_len(len, i));
    }
    if (n == 1) {
        return pqpan_802154_plan_udp(plan, frames, cap, c, len);
    }
    return pqpan_802154_plan_ipv6_fragment(plan, frames, cap, c, pqpan_ipv6frag_len(pkt, i));
}
