/* 6LoWPAN: RFC 6282 IPHC/NHC-UDP header compression (stateless, link-local) and RFC 4944
 * fragmentation and reassembly; the UDP checksum of RFC 8200 §8.1. */
#include <string.h>

#include "ieee802154/internal.h"
#include "pqpan/ieee802154.h"

/* RFC 6282 §3.1.1: IPHC dispatch 011xxxxx and its fields. */
#define IPHC_DISPATCH 0x60u
#define IPHC_DISPATCH_MASK 0xE0u
#define IPHC_TF_SHIFT 3
#define IPHC_NH 0x04u
#define IPHC_HLIM_MASK 0x03u
#define IPHC_CID 0x80u
#define IPHC_SAC 0x40u
#define IPHC_SAM_SHIFT 4
#define IPHC_M 0x08u
#define IPHC_DAC 0x04u
#define IPHC_DAM_MASK 0x03u
/* RFC 6282 §4.3.3: NHC UDP 11110CPP. */
#define NHC_UDP 0xF0u
#define NHC_UDP_MASK 0xF8u
#define NHC_UDP_C 0x04u
#define NHC_UDP_P_MASK 0x03u
/* RFC 4944 §5.3: fragment dispatches 11000 (FRAG1) and 11100 (FRAGN). */
#define FRAG1_DISPATCH 0xC0u
#define FRAGN_DISPATCH 0xE0u
#define FRAG_DISPATCH_MASK 0xF8u
#define FRAG_UNIT 8u

#define ADDR_MODE_INLINE128 0u
#define ADDR_MODE_INLINE64 1u
#define ADDR_MODE_INLINE16 2u
#define ADDR_MODE_ELIDED 3u

#define IPV6_OFF_PAYLOAD_LEN 4
#define IPV6_OFF_NEXT_HEADER 6
#define IPV6_OFF_HOP_LIMIT 7
#define IPV6_OFF_SRC 8
#define IPV6_OFF_DST 24
#define UDP_OFF_LEN 4
#define UDP_OFF_CHECKSUM 6

static void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)(v & 0xFFu);
}

static uint16_t get_be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static const uint8_t link_local_prefix[8] = {0xFE, 0x80, 0, 0, 0, 0, 0, 0};
/* RFC 6282 §3.2.2: IID 0000:00ff:fe00:XXXX for a 16-bit address. */
static const uint8_t short_iid_prefix[6] = {0, 0, 0, 0xFF, 0xFE, 0};

/* RFC 4944 §6 (EUI-64, U/L bit inverted per RFC 4291 App. A) and RFC 6282 §3.2.2. */
static int iid_from_mac(uint8_t iid[8], const struct pqpan_802154_addr *mac)
{
    int i;
    if (mac == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (mac->mode == PQPAN_802154_ADDR_EXT) {
        for (i = 0; i < 8; i++) {
            iid[i] = (uint8_t)(mac->ext_addr >> (56 - 8 * i));
        }
        iid[0] ^= 0x02u;
        return PQPAN_OK;
    }
    if (mac->mode == PQPAN_802154_ADDR_SHORT) {
        memcpy(iid, short_iid_prefix, sizeof short_iid_prefix);
        put_be16(iid + 6, mac->short_addr);
        return PQPAN_OK;
    }
    return PQPAN_ERR_INVALID_ARG;
}

int pqpan_6lowpan_link_local(uint8_t addr[16], const struct pqpan_802154_addr *mac)
{
    int rc;
    if (addr == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memcpy(addr, link_local_prefix, sizeof link_local_prefix);
    rc = iid_from_mac(addr + 8, mac);
    if (rc != PQPAN_OK) {
        memset(addr, 0, 16);
    }
    return rc;
}

/* One's complement sum of 16-bit big-endian words (RFC 1071), odd tail padded with 0. */
static uint32_t sum16(uint32_t acc, const uint8_t *p, size_t len)
{
    size_t i;
    for (i = 0; i + 1 < len; i += 2) {
        acc += get_be16(p + i);
    }
    if (len & 1u) {
        acc += (uint32_t)p[len - 1] << 8;
    }
    return acc;
}

static uint16_t fold(uint32_t acc)
{
    while (acc >> 16) {
        acc = (acc & 0xFFFFu) + (acc >> 16);
    }
    return (uint16_t)acc;
}

/* RFC 8200 §8.1: pseudo-header = source, destination, upper-layer length (32 bits),
 * 3 zero octets, next header; then the UDP header (checksum as 0) and data. */
int pqpan_6lowpan_udp_checksum(uint16_t *sum, const uint8_t *dgram, size_t len)
{
    uint32_t acc = 0;
    size_t udp_len;
    uint16_t c;
    if (sum == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *sum = 0;
    if (dgram == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (len < PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS ||
        dgram[IPV6_OFF_NEXT_HEADER] != PQPAN_IPV6_NEXT_HEADER_UDP) {
        return PQPAN_ERR_MALFORMED;
    }
    udp_len = len - PQPAN_IPV6_HDR_OCTETS;
    if (get_be16(dgram + IPV6_OFF_PAYLOAD_LEN) != udp_len ||
        get_be16(dgram + PQPAN_IPV6_HDR_OCTETS + UDP_OFF_LEN) != udp_len) {
        return PQPAN_ERR_MALFORMED;
    }
    acc = sum16(acc, dgram + IPV6_OFF_SRC, 32);
    acc += (uint32_t)(udp_len >> 16) + (uint32_t)(udp_len & 0xFFFFu);
    acc += PQPAN_IPV6_NEXT_HEADER_UDP;
    acc = sum16(acc, dgram + PQPAN_IPV6_HDR_OCTETS, UDP_OFF_CHECKSUM);
    acc = sum16(acc, dgram + PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS,
                udp_len - PQPAN_UDP_HDR_OCTETS);
    c = (uint16_t)~fold(acc);
    *sum = c == 0 ? 0xFFFFu : c;
    return PQPAN_OK;
}

int pqpan_6lowpan_build_udp(uint8_t *dgram, size_t cap, size_t *len,
                            const struct pqpan_6lowpan_udp_spec *s, const uint8_t *payload,
                            size_t payload_len)
{
    size_t total = PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + payload_len;
    uint8_t *udp = dgram + PQPAN_IPV6_HDR_OCTETS;
    uint16_t sum;
    int rc;
    if (len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *len = 0;
    if (dgram == 0 || s == 0 || (payload == 0 && payload_len != 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (total - PQPAN_IPV6_HDR_OCTETS > 0xFFFFu) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (cap < total) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    memset(dgram, 0, PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS);
    dgram[0] = 0x60; /* version 6, traffic class 0, flow label 0 (RFC 8200 §3) */
    put_be16(dgram + IPV6_OFF_PAYLOAD_LEN, (uint16_t)(total - PQPAN_IPV6_HDR_OCTETS));
    dgram[IPV6_OFF_NEXT_HEADER] = PQPAN_IPV6_NEXT_HEADER_UDP;
    dgram[IPV6_OFF_HOP_LIMIT] = s->hop_limit;
    rc = pqpan_6lowpan_link_local(dgram + IPV6_OFF_SRC, &s->src_mac);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_link_local(dgram + IPV6_OFF_DST, &s->dst_mac);
    }
    if (rc != PQPAN_OK) {
        memset(dgram, 0, PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS);
        return rc;
    }
    put_be16(udp, s->src_port); /* RFC 768 */
    put_be16(udp + 2, s->dst_port);
    put_be16(udp + UDP_OFF_LEN, (uint16_t)(total - PQPAN_IPV6_HDR_OCTETS));
    if (payload_len != 0) {
        memcpy(udp + PQPAN_UDP_HDR_OCTETS, payload, payload_len);
    }
    if (pqpan_6lowpan_udp_checksum(&sum, dgram, total) != PQPAN_OK) {
        memset(dgram, 0, total);
        return PQPAN_ERR_MALFORMED;
    }
    put_be16(udp + UDP_OFF_CHECKSUM, sum);
    *len = total;
    return PQPAN_OK;
}

/* ---- IPHC compression (RFC 6282 §3.1, §3.2) ---- */

struct writer {
    uint8_t *p;
    size_t cap;
    size_t len;
    int overflow;
};

static void w_bytes(struct writer *w, const uint8_t *b, size_t n)
{
    if (w->overflow || w->cap - w->len < n) {
        w->overflow = 1;
        return;
    }
    memcpy(w->p + w->len, b, n);
    w->len += n;
}

static void w_byte(struct writer *w, uint8_t b)
{
    w_bytes(w, &b, 1);
}

/* Traffic class and flow label: TF 11 (both zero), 10 (flow label zero: ECN+DSCP in one
 * octet), else 00 (4 octets: ECN, DSCP, 4 pad bits, 20-bit flow label). */
static unsigned compress_tf(struct writer *w, const uint8_t *ip)
{
    unsigned tc = (unsigned)(((ip[0] & 0x0Fu) << 4) | (ip[1] >> 4));
    uint32_t fl = ((uint32_t)(ip[1] & 0x0Fu) << 16) | ((uint32_t)ip[2] << 8) | ip[3];
    uint8_t tc_inline = (uint8_t)(((tc & 3u) << 6) | (tc >> 2)); /* ECN first */
    if (tc == 0 && fl == 0) {
        return 3;
    }
    w_byte(w, tc_inline);
    if (fl == 0) {
        return 2;
    }
    w_byte(w, (uint8_t)(fl >> 16));
    w_byte(w, (uint8_t)(fl >> 8));
    w_byte(w, (uint8_t)fl);
    return 0;
}

/* RFC 6282 §3.2.3 hop limit: 1, 64, 255 elided; otherwise inline. */
static unsigned compress_hlim(struct writer *w, uint8_t hlim)
{
    switch (hlim) {
    case 1:
        return 1;
    case 64:
        return 2;
    case 255:
        return 3;
    default:
        w_byte(w, hlim);
        return 0;
    }
}

/* Stateless unicast address mode (SAM/DAM with SAC/DAC = 0), RFC 6282 §3.1.1. */
static unsigned compress_addr(struct writer *w, const uint8_t *addr,
                              const struct pqpan_802154_addr *mac)
{
    uint8_t iid[8];
    if (memcmp(addr, link_local_prefix, sizeof link_local_prefix) != 0) {
        w_bytes(w, addr, 16);
        return ADDR_MODE_INLINE128;
    }
    if (iid_from_mac(iid, mac) == PQPAN_OK && memcmp(iid, addr + 8, 8) == 0) {
        return ADDR_MODE_ELIDED;
    }
    if (memcmp(addr + 8, short_iid_prefix, sizeof short_iid_prefix) == 0) {
        w_bytes(w, addr + 14, 2);
        return ADDR_MODE_INLINE16;
    }
    w_bytes(w, addr + 8, 8);
    return ADDR_MODE_INLINE64;
}

/* RFC 6282 §4.3.3: ports 0xF0Bx pair in 4 bits each, 0xF0xx in 8 bits, else inline;
 * checksum always inline (C = 0). */
static void compress_udp(struct writer *w, const uint8_t *udp)
{
    uint16_t sp = get_be16(udp), dp = get_be16(udp + 2);
    if ((sp & 0xFFF0u) == 0xF0B0u && (dp & 0xFFF0u) == 0xF0B0u) {
        w_byte(w, NHC_UDP | 3u);
        w_byte(w, (uint8_t)(((sp & 0xFu) << 4) | (dp & 0xFu)));
    } else if ((dp & 0xFF00u) == 0xF000u) {
        w_byte(w, NHC_UDP | 1u);
        w_bytes(w, udp, 2);
        w_byte(w, (uint8_t)(dp & 0xFFu));
    } else if ((sp & 0xFF00u) == 0xF000u) {
        w_byte(w, NHC_UDP | 2u);
        w_byte(w, (uint8_t)(sp & 0xFFu));
        w_bytes(w, udp + 2, 2);
    } else {
        w_byte(w, NHC_UDP);
        w_bytes(w, udp, 4);
    }
    w_bytes(w, udp + UDP_OFF_CHECKSUM, 2);
}

static int compress_check(const uint8_t *dgram, size_t dgram_len, int nhc_udp)
{
    size_t need = PQPAN_IPV6_HDR_OCTETS + (nhc_udp ? PQPAN_UDP_HDR_OCTETS : 0u);
    if (dgram_len < need || (dgram[0] >> 4) != 6) {
        return PQPAN_ERR_MALFORMED;
    }
    if (get_be16(dgram + IPV6_OFF_PAYLOAD_LEN) != dgram_len - PQPAN_IPV6_HDR_OCTETS) {
        return PQPAN_ERR_MALFORMED;
    }
    if (nhc_udp && (dgram[IPV6_OFF_NEXT_HEADER] != PQPAN_IPV6_NEXT_HEADER_UDP ||
                    get_be16(dgram + PQPAN_IPV6_HDR_OCTETS + UDP_OFF_LEN) !=
                        dgram_len - PQPAN_IPV6_HDR_OCTETS)) {
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

int pqpan_6lowpan_compress(uint8_t *out, size_t cap, size_t *comp_len, size_t *uncomp_len,
                           const uint8_t *dgram, size_t dgram_len,
                           const struct pqpan_802154_addr *src_mac,
                           const struct pqpan_802154_addr *dst_mac, int nhc_udp)
{
    struct writer w;
    unsigned tf, hlim, sam, dam, m = 0;
    int rc;
    if (comp_len == 0 || uncomp_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *comp_len = 0;
    *uncomp_len = 0;
    if (out == 0 || dgram == 0 || src_mac == 0 || dst_mac == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = compress_check(dgram, dgram_len, nhc_udp);
    if (rc != PQPAN_OK) {
        return rc;
    }
    w.p = out;
    w.cap = cap;
    w.len = 2; /* the two IPHC octets are written last */
    w.overflow = cap < 2;
    tf = compress_tf(&w, dgram);
    if (!nhc_udp) {
        w_byte(&w, dgram[IPV6_OFF_NEXT_HEADER]);
    }
    hlim = compress_hlim(&w, dgram[IPV6_OFF_HOP_LIMIT]);
    sam = compress_addr(&w, dgram + IPV6_OFF_SRC, src_mac);
    if (dgram[IPV6_OFF_DST] == 0xFFu) {
        m = 1; /* multicast, carried inline (DAM 00) */
        w_bytes(&w, dgram + IPV6_OFF_DST, 16);
        dam = ADDR_MODE_INLINE128;
    } else {
        dam = compress_addr(&w, dgram + IPV6_OFF_DST, dst_mac);
    }
    if (nhc_udp) {
        compress_udp(&w, dgram + PQPAN_IPV6_HDR_OCTETS);
    }
    if (w.overflow) {
        memset(out, 0, cap);
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    out[0] = (uint8_t)(IPHC_DISPATCH | (tf << IPHC_TF_SHIFT) | (nhc_udp ? IPHC_NH : 0u) | hlim);
    out[1] = (uint8_t)((sam << IPHC_SAM_SHIFT) | (m ? IPHC_M : 0u) | dam);
    *comp_len = w.len;
    *uncomp_len = PQPAN_IPV6_HDR_OCTETS + (nhc_udp ? PQPAN_UDP_HDR_OCTETS : 0u);
    return PQPAN_OK;
}

/* ---- IPHC decompression (RFC 6282 §3.2, §4.3) ---- */

struct reader {
    const uint8_t *p;
    size_t len;
    size_t off;
    int underflow;
};

static void r_bytes(struct reader *r, uint8_t *dst, size_t n)
{
    if (r->underflow || r->len - r->off < n) {
        r->underflow = 1;
        memset(dst, 0, n);
        return;
    }
    memcpy(dst, r->p + r->off, n);
    r->off += n;
}

static uint8_t r_byte(struct reader *r)
{
    uint8_t b;
    r_bytes(r, &b, 1);
    return b;
}

/* Writes version, traffic class and flow label into ip[0..4) from the TF mode. */
static void decompress_tf(uint8_t *ip, unsigned tf, struct reader *r)
{
    unsigned ecn = 0, dscp = 0, tc;
    uint32_t fl = 0;
    uint8_t b;
    if (tf == 0 || tf == 1) { /* ECN (2) + [DSCP (6)] + pad + flow label (20) */
        b = r_byte(r);
        ecn = b >> 6;
        dscp = tf == 0 ? (b & 0x3Fu) : 0u;
        if (tf == 0) {
            b = r_byte(r);
        }
        fl = (uint32_t)(b & 0x0Fu) << 16;
        fl |= (uint32_t)r_byte(r) << 8;
        fl |= r_byte(r);
    } else if (tf == 2) { /* ECN + DSCP, flow label elided */
        b = r_byte(r);
        ecn = b >> 6;
        dscp = b & 0x3Fu;
    }
    tc = (dscp << 2) | ecn;
    ip[0] = (uint8_t)(0x60u | (tc >> 4));
    ip[1] = (uint8_t)(((tc & 0x0Fu) << 4) | (fl >> 16));
    ip[2] = (uint8_t)(fl >> 8);
    ip[3] = (uint8_t)fl;
}

static int decompress_addr(uint8_t addr[16], unsigned mode, struct reader *r,
                           const struct pqpan_802154_addr *mac)
{
    memset(addr, 0, 16);
    if (mode == ADDR_MODE_INLINE128) {
        r_bytes(r, addr, 16);
        return PQPAN_OK;
    }
    memcpy(addr, link_local_prefix, sizeof link_local_prefix);
    if (mode == ADDR_MODE_INLINE64) {
        r_bytes(r, addr + 8, 8);
        return PQPAN_OK;
    }
    if (mode == ADDR_MODE_INLINE16) {
        memcpy(addr + 8, short_iid_prefix, sizeof short_iid_prefix);
        r_bytes(r, addr + 14, 2);
        return PQPAN_OK;
    }
    return iid_from_mac(addr + 8, mac) == PQPAN_OK ? PQPAN_OK : PQPAN_ERR_MALFORMED;
}

static int decompress_udp(uint8_t *udp, struct reader *r)
{
    uint8_t nhc = r_byte(r);
    unsigned p;
    uint8_t b;
    if (r->underflow || (nhc & NHC_UDP_MASK) != NHC_UDP) {
        return r->underflow ? PQPAN_ERR_MALFORMED : PQPAN_ERR_UNSUPPORTED;
    }
    if (nhc & NHC_UDP_C) {
        return PQPAN_ERR_UNSUPPORTED; /* elided checksum needs upper-layer authorization */
    }
    p = nhc & NHC_UDP_P_MASK;
    if (p == 3) {
        b = r_byte(r);
        put_be16(udp, (uint16_t)(0xF0B0u | (b >> 4)));
        put_be16(udp + 2, (uint16_t)(0xF0B0u | (b & 0xFu)));
    } else if (p == 2) {
        put_be16(udp, (uint16_t)(0xF000u | r_byte(r)));
        r_bytes(r, udp + 2, 2);
    } else if (p == 1) {
        r_bytes(r, udp, 2);
        put_be16(udp + 2, (uint16_t)(0xF000u | r_byte(r)));
    } else {
        r_bytes(r, udp, 4);
    }
    r_bytes(r, udp + UDP_OFF_CHECKSUM, 2);
    return r->underflow ? PQPAN_ERR_MALFORMED : PQPAN_OK;
}

static int decompress_fields(uint8_t *out, struct reader *r, const struct pqpan_802154_addr *src_mac,
                             const struct pqpan_802154_addr *dst_mac)
{
    uint8_t b0 = r_byte(r), b1 = r_byte(r);
    static const uint8_t hlim_values[4] = {0, 1, 64, 255};
    int rc;
    if (r->underflow || (b0 & IPHC_DISPATCH_MASK) != IPHC_DISPATCH) {
        return PQPAN_ERR_MALFORMED;
    }
    if ((b1 & (IPHC_CID | IPHC_SAC | IPHC_DAC)) ||
        ((b1 & IPHC_M) && (b1 & IPHC_DAM_MASK) != ADDR_MODE_INLINE128)) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    decompress_tf(out, (b0 >> IPHC_TF_SHIFT) & 3u, r);
    out[IPV6_OFF_NEXT_HEADER] = (b0 & IPHC_NH) ? PQPAN_IPV6_NEXT_HEADER_UDP : r_byte(r);
    out[IPV6_OFF_HOP_LIMIT] = (b0 & IPHC_HLIM_MASK) ? hlim_values[b0 & IPHC_HLIM_MASK] : r_byte(r);
    rc = decompress_addr(out + IPV6_OFF_SRC, (b1 >> IPHC_SAM_SHIFT) & 3u, r, src_mac);
    if (rc == PQPAN_OK) {
        rc = decompress_addr(out + IPV6_OFF_DST, b1 & IPHC_DAM_MASK, r, dst_mac);
    }
    if (rc == PQPAN_OK && (b0 & IPHC_NH)) {
        rc = decompress_udp(out + PQPAN_IPV6_HDR_OCTETS, r);
    }
    if (rc == PQPAN_OK && r->underflow) {
        rc = PQPAN_ERR_MALFORMED;
    }
    return rc;
}

int pqpan_6lowpan_decompress(uint8_t *out, size_t cap, size_t *uncomp_len, size_t *consumed,
                             const uint8_t *in, size_t in_len,
                             const struct pqpan_802154_addr *src_mac,
                             const struct pqpan_802154_addr *dst_mac, size_t dgram_size)
{
    uint8_t hdr[PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS];
    struct reader r;
    size_t ulen, ip_payload;
    int rc;
    if (uncomp_len == 0 || consumed == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *uncomp_len = 0;
    *consumed = 0;
    if (out == 0 || in == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(hdr, 0, sizeof hdr);
    r.p = in;
    r.len = in_len;
    r.off = 0;
    r.underflow = 0;
    rc = decompress_fields(hdr, &r, src_mac, dst_mac);
    if (rc != PQPAN_OK) {
        return rc;
    }
    ulen = PQPAN_IPV6_HDR_OCTETS + ((in[0] & IPHC_NH) ? PQPAN_UDP_HDR_OCTETS : 0u);
    if (dgram_size == 0) {
        dgram_size = ulen + (in_len - r.off);
    }
    if (dgram_size < ulen || dgram_size - PQPAN_IPV6_HDR_OCTETS > 0xFFFFu) {
        return PQPAN_ERR_MALFORMED;
    }
    if (cap < ulen) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    ip_payload = dgram_size - PQPAN_IPV6_HDR_OCTETS;
    put_be16(hdr + IPV6_OFF_PAYLOAD_LEN, (uint16_t)ip_payload);
    if (in[0] & IPHC_NH) {
        put_be16(hdr + PQPAN_IPV6_HDR_OCTETS + UDP_OFF_LEN, (uint16_t)ip_payload);
    }
    memcpy(out, hdr, ulen);
    *uncomp_len = ulen;
    *consumed = r.off;
    return PQPAN_OK;
}

/* ---- Fragmentation (RFC 4944 §5.3) ---- */

/* Uncompressed octets covered by FRAG1: the largest multiple of 8 that fits. */
static int frag1_cover(size_t *cover, size_t comp_len, size_t uncomp_len, size_t max)
{
    size_t room;
    if (max < PQPAN_6LOWPAN_FRAG1_OCTETS + comp_len) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    room = max - PQPAN_6LOWPAN_FRAG1_OCTETS - comp_len;
    *cover = (uncomp_len + room) / FRAG_UNIT * FRAG_UNIT;
    return *cover < uncomp_len ? PQPAN_ERR_BAD_LENGTH : PQPAN_OK;
}

static int fragn_chunk(size_t *chunk, size_t max)
{
    *chunk = max < PQPAN_6LOWPAN_FRAGN_OCTETS ? 0 : (max - PQPAN_6LOWPAN_FRAGN_OCTETS) / FRAG_UNIT * FRAG_UNIT;
    return *chunk == 0 ? PQPAN_ERR_BAD_LENGTH : PQPAN_OK;
}

static int fits_unfragmented(size_t comp_len, size_t payload_len, size_t max)
{
    return comp_len <= max && payload_len <= max - comp_len;
}

int pqpan_6lowpan_frag_count(size_t *count, size_t comp_len, size_t uncomp_len,
                             size_t payload_len, size_t max_link_payload)
{
    size_t cover, chunk, size = uncomp_len + payload_len;
    int rc;
    if (count == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *count = 0;
    if (fits_unfragmented(comp_len, payload_len, max_link_payload)) {
        *count = 1;
        return PQPAN_OK;
    }
    if (size > PQPAN_6LOWPAN_MAX_DATAGRAM) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    rc = frag1_cover(&cover, comp_len, uncomp_len, max_link_payload);
    if (rc == PQPAN_OK) {
        rc = fragn_chunk(&chunk, max_link_payload);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    *count = 1 + (size - cover + chunk - 1) / chunk;
    return PQPAN_OK;
}

int pqpan_6lowpan_frag_piece(struct pqpan_6lowpan_frag *f, size_t index, size_t comp_len,
                             size_t uncomp_len, size_t payload_len, size_t max_link_payload)
{
    size_t count, cover = 0, chunk = 0, start, size = uncomp_len + payload_len;
    int rc;
    if (f == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(f, 0, sizeof *f);
    rc = pqpan_6lowpan_frag_count(&count, comp_len, uncomp_len, payload_len, max_link_payload);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (index >= count) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (count == 1) {
        f->comp_hdr_len = comp_len;
        f->payload_len = payload_len;
        return PQPAN_OK;
    }
    (void)frag1_cover(&cover, comp_len, uncomp_len, max_link_payload);
    (void)fragn_chunk(&chunk, max_link_payload);
    if (index == 0) {
        f->hdr_len = PQPAN_6LOWPAN_FRAG1_OCTETS;
        f->comp_hdr_len = comp_len;
        f->payload_len = cover - uncomp_len;
        return PQPAN_OK;
    }
    start = cover + (index - 1) * chunk;
    f->hdr_len = PQPAN_6LOWPAN_FRAGN_OCTETS;
    f->offset_units = (uint8_t)(start / FRAG_UNIT);
    f->payload_off = start - uncomp_len;
    f->payload_len = size - start < chunk ? size - start : chunk;
    return PQPAN_OK;
}

int pqpan_6lowpan_frag_write(uint8_t *out, size_t cap, size_t *len,
                             const struct pqpan_6lowpan_frag *f, size_t dgram_size, uint16_t tag,
                             const uint8_t *comp_hdr, const uint8_t *payload)
{
    size_t total, off = 0;
    if (len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *len = 0;
    if (out == 0 || f == 0 || (comp_hdr == 0 && f->comp_hdr_len != 0) ||
        (payload == 0 && f->payload_len != 0) || dgram_size > PQPAN_6LOWPAN_MAX_DATAGRAM) {
        return PQPAN_ERR_INVALID_ARG;
    }
    total = f->hdr_len + f->comp_hdr_len + f->payload_len;
    if (cap < total) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (f->hdr_len != 0) {
        out[0] = (uint8_t)((f->hdr_len == PQPAN_6LOWPAN_FRAG1_OCTETS ? FRAG1_DISPATCH : FRAGN_DISPATCH) |
                           ((dgram_size >> 8) & 0x07u));
        out[1] = (uint8_t)(dgram_size & 0xFFu);
        put_be16(out + 2, tag);
        if (f->hdr_len == PQPAN_6LOWPAN_FRAGN_OCTETS) {
            out[4] = f->offset_units;
        }
        off = f->hdr_len;
    }
    if (f->comp_hdr_len != 0) {
        memcpy(out + off, comp_hdr, f->comp_hdr_len);
        off += f->comp_hdr_len;
    }
    if (f->payload_len != 0) {
        memcpy(out + off, payload + f->payload_off, f->payload_len);
    }
    *len = total;
    return PQPAN_OK;
}

/* ---- Reassembly (RFC 4944 §5.3) ---- */

void pqpan_6lowpan_reasm_init(struct pqpan_6lowpan_reasm *r, uint64_t timeout_ns)
{
    memset(r, 0, sizeof *r);
    r->timeout_ns = timeout_ns;
}

static void reasm_drop(struct pqpan_6lowpan_reasm *r)
{
    uint64_t timeout = r->timeout_ns;
    pqpan_6lowpan_reasm_init(r, timeout);
}

int pqpan_6lowpan_reasm_expire(struct pqpan_6lowpan_reasm *r, uint64_t now_ns)
{
    if (r->active && now_ns - r->start_ns > r->timeout_ns) {
        reasm_drop(r);
        return 1;
    }
    return 0;
}

static int same_addr(const struct pqpan_802154_addr *a, const struct pqpan_802154_addr *b)
{
    if (a->mode != b->mode) {
        return 0;
    }
    return a->mode == PQPAN_802154_ADDR_EXT ? a->ext_addr == b->ext_addr
                                            : a->short_addr == b->short_addr;
}

/* An unfragmented IPHC datagram: decompress straight into buf. */
static int input_whole(uint8_t *buf, size_t cap, size_t *dgram_len, const uint8_t *p, size_t len,
                       const struct pqpan_802154_addr *src, const struct pqpan_802154_addr *dst)
{
    size_t ulen, consumed;
    int rc = pqpan_6lowpan_decompress(buf, cap, &ulen, &consumed, p, len, src, dst, 0);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (cap - ulen < len - consumed) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(buf + ulen, p + consumed, len - consumed);
    *dgram_len = ulen + len - consumed;
    return PQPAN_OK;
}

static void reasm_start(struct pqpan_6lowpan_reasm *r, uint16_t size, uint16_t tag,
                        const struct pqpan_802154_addr *src, const struct pqpan_802154_addr *dst,
                        uint64_t now_ns)
{
    reasm_drop(r);
    r->active = 1;
    r->size = size;
    r->tag = tag;
    r->src = *src;
    r->dst = *dst;
    r->start_ns = now_ns;
}

/* Places one fragment's bytes (hdr[0..hlen) then data[0..dlen)) at offset off. */
static int reasm_place(struct pqpan_6lowpan_reasm *r, uint8_t *buf, size_t *dgram_len, size_t off,
                       const uint8_t *hdr, size_t hlen, const uint8_t *data, size_t dlen)
{
    size_t n = hlen + dlen;
    int fresh;
    if (n == 0 || off + n > r->size || (off + n != r->size && n % FRAG_UNIT != 0)) {
        reasm_drop(r);
        return PQPAN_ERR_MALFORMED;
    }
    fresh = pqpan_802154_reasm_mark(r->have, off, n);
    if (fresh < 0) {
        reasm_drop(r);
        return PQPAN_ERR_MALFORMED;
    }
    if (fresh == 0) {
        return PQPAN_OK;
    }
    if (hlen != 0) {
        memcpy(buf + off, hdr, hlen);
    }
    memcpy(buf + off + hlen, data, dlen);
    r->received = (uint16_t)(r->received + n);
    if (r->received == r->size) {
        *dgram_len = r->size;
        reasm_drop(r);
    }
    return PQPAN_OK;
}

static int input_fragment(struct pqpan_6lowpan_reasm *r, uint8_t *buf, size_t cap,
                          size_t *dgram_len, const uint8_t *p, size_t len,
                          const struct pqpan_802154_addr *src, const struct pqpan_802154_addr *dst,
                          uint64_t now_ns)
{
    int first = (p[0] & FRAG_DISPATCH_MASK) == FRAG1_DISPATCH;
    size_t hdr_len = first ? PQPAN_6LOWPAN_FRAG1_OCTETS : PQPAN_6LOWPAN_FRAGN_OCTETS;
    uint8_t ip[PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS];
    uint16_t size, tag;
    size_t ulen, consumed;
    int rc;
    if (len <= hdr_len) {
        return PQPAN_ERR_MALFORMED;
    }
    size = (uint16_t)(((p[0] & 0x07u) << 8) | p[1]);
    tag = get_be16(p + 2);
    if (size < PQPAN_IPV6_HDR_OCTETS) {
        return PQPAN_ERR_MALFORMED;
    }
    if (cap < size) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (!r->active || r->tag != tag || r->size != size || !same_addr(&r->src, src) ||
        !same_addr(&r->dst, dst)) {
        reasm_start(r, size, tag, src, dst, now_ns);
    }
    if (!first) {
        return reasm_place(r, buf, dgram_len, (size_t)p[4] * FRAG_UNIT, 0, 0, p + hdr_len,
                           len - hdr_len);
    }
    rc = pqpan_6lowpan_decompress(ip, sizeof ip, &ulen, &consumed, p + hdr_len, len - hdr_len,
                                  src, dst, size);
    if (rc != PQPAN_OK) {
        reasm_drop(r);
        return rc;
    }
    return reasm_place(r, buf, dgram_len, 0, ip, ulen, p + hdr_len + consumed,
                       len - hdr_len - consumed);
}

int pqpan_6lowpan_reasm_input(struct pqpan_6lowpan_reasm *r, uint8_t *buf, size_t cap,
                              size_t *dgram_len, const uint8_t *payload, size_t len,
                              const struct pqpan_802154_addr *src_mac,
                              const struct pqpan_802154_addr *dst_mac, uint64_t now_ns)
{
    if (dgram_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *dgram_len = 0;
    if (r == 0 || buf == 0 || payload == 0 || src_mac == 0 || dst_mac == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    (void)pqpan_6lowpan_reasm_expire(r, now_ns);
    if (len == 0) {
        return PQPAN_ERR_MALFORMED;
    }
    if ((payload[0] & IPHC_DISPATCH_MASK) == IPHC_DISPATCH) {
        return input_whole(buf, cap, dgram_len, payload, len, src_mac, dst_mac);
    }
    if ((payload[0] & FRAG_DISPATCH_MASK) == FRAG1_DISPATCH ||
        (payload[0] & FRAG_DISPATCH_MASK) == FRAGN_DISPATCH) {
        return input_fragment(r, buf, cap, dgram_len, payload, len, src_mac, dst_mac, now_ns);
    }
    return PQPAN_ERR_UNSUPPORTED;
}
