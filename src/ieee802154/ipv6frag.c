/* IPv6 fragmentation and reassembly (RFC 8200 §4.5) of packets whose unfragmentable part is
 * the 40-octet IPv6 header (no extension headers), at the 1280-octet MTU of a 6LoWPAN link
 * (RFC 4944 §4). */
#include <string.h>

#include "ieee802154/internal.h"
#include "pqpan/ieee802154.h"

/* RFC 8200 §3: IPv6 header fields. */
#define IPV6_OFF_PAYLOAD_LEN 4
#define IPV6_OFF_NEXT_HEADER 6
#define IPV6_OFF_SRC 8
#define IPV6_OFF_DST 24
#define IPV6_ADDR_OCTETS 16
/* RFC 8200 §4.5: Fragment header fields. */
#define FRAG_OFF_NEXT_HEADER 0
#define FRAG_OFF_OFFSET 2
#define FRAG_OFF_IDENT 4
#define FRAG_OFFSET_SHIFT 3
#define FRAG_M 0x0001u

static void put_be16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}

static uint16_t get_be16(const uint8_t *p)
{
    return (uint16_t)((p[0] << 8) | p[1]);
}

static void put_be32(uint8_t *p, uint32_t v)
{
    put_be16(p, (uint16_t)(v >> 16));
    put_be16(p + 2, (uint16_t)v);
}

static uint32_t get_be32(const uint8_t *p)
{
    return ((uint32_t)get_be16(p) << 16) | get_be16(p + 2);
}

/* A 40-octet IPv6 header whose Payload Length matches the packet's length. */
static int header_ok(const uint8_t *pkt, size_t len)
{
    return len >= PQPAN_IPV6_HDR_OCTETS && (pkt[0] >> 4) == 6 &&
           get_be16(pkt + IPV6_OFF_PAYLOAD_LEN) == len - PQPAN_IPV6_HDR_OCTETS;
}

size_t pqpan_ipv6frag_count(size_t pkt_len)
{
    size_t data;
    if (pkt_len < PQPAN_IPV6_HDR_OCTETS || pkt_len - PQPAN_IPV6_HDR_OCTETS > PQPAN_IPV6_PAYLOAD_MAX) {
        return 0;
    }
    if (pkt_len <= PQPAN_6LOWPAN_IPV6_MTU) {
        return 1;
    }
    data = pkt_len - PQPAN_IPV6_HDR_OCTETS;
    return (data + PQPAN_IPV6_FRAG_DATA_MAX - 1u) / PQPAN_IPV6_FRAG_DATA_MAX;
}

size_t pqpan_ipv6frag_len(size_t pkt_len, size_t i)
{
    size_t n = pqpan_ipv6frag_count(pkt_len), data;
    if (i >= n) {
        return 0;
    }
    if (n == 1) {
        return pkt_len;
    }
    data = pkt_len - PQPAN_IPV6_HDR_OCTETS;
    return PQPAN_IPV6_HDR_OCTETS + PQPAN_IPV6_FRAG_HDR_OCTETS +
           (i + 1 < n ? PQPAN_IPV6_FRAG_DATA_MAX : data - i * PQPAN_IPV6_FRAG_DATA_MAX);
}

int pqpan_ipv6frag_write(uint8_t *out, size_t cap, size_t *out_len, const uint8_t *pkt,
                         size_t pkt_len, size_t i, uint32_t ident)
{
    size_t n = pqpan_ipv6frag_count(pkt_len), len = pqpan_ipv6frag_len(pkt_len, i);
    size_t off = i * PQPAN_IPV6_FRAG_DATA_MAX, slice;
    uint8_t *f = out + PQPAN_IPV6_HDR_OCTETS;
    if (out_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *out_len = 0;
    if (out == 0 || pkt == 0 || len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (!header_ok(pkt, pkt_len)) {
        return PQPAN_ERR_MALFORMED;
    }
    if (cap < len) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (n == 1) {
        memcpy(out, pkt, pkt_len);
        *out_len = pkt_len;
        return PQPAN_OK;
    }
    slice = len - PQPAN_IPV6_HDR_OCTETS - PQPAN_IPV6_FRAG_HDR_OCTETS;
    memcpy(out, pkt, PQPAN_IPV6_HDR_OCTETS);
    put_be16(out + IPV6_OFF_PAYLOAD_LEN, (uint16_t)(PQPAN_IPV6_FRAG_HDR_OCTETS + slice));
    out[IPV6_OFF_NEXT_HEADER] = PQPAN_IPV6_NEXT_HEADER_FRAGMENT;
    f[FRAG_OFF_NEXT_HEADER] = pkt[IPV6_OFF_NEXT_HEADER];
    f[FRAG_OFF_NEXT_HEADER + 1] = 0; /* Reserved */
    put_be16(f + FRAG_OFF_OFFSET, (uint16_t)((off / PQPAN_IPV6_FRAG_UNIT) << FRAG_OFFSET_SHIFT |
                                             (i + 1 < n ? FRAG_M : 0u)));
    put_be32(f + FRAG_OFF_IDENT, ident);
    memcpy(out + PQPAN_IPV6_HDR_OCTETS + PQPAN_IPV6_FRAG_HDR_OCTETS,
           pkt + PQPAN_IPV6_HDR_OCTETS + off, slice);
    *out_len = len;
    return PQPAN_OK;
}

/* ---- Reassembly ---- */

void pqpan_ipv6frag_reasm_init(struct pqpan_ipv6frag_reasm *r, uint64_t timeout_ns)
{
    memset(r, 0, sizeof *r);
    r->timeout_ns = timeout_ns;
}

static void reasm_drop(struct pqpan_ipv6frag_reasm *r)
{
    pqpan_ipv6frag_reasm_init(r, r->timeout_ns);
}

int pqpan_ipv6frag_reasm_expire(struct pqpan_ipv6frag_reasm *r, uint64_t now_ns)
{
    if (r->active && now_ns - r->start_ns > r->timeout_ns) {
        reasm_drop(r);
        return 1;
    }
    return 0;
}

static int same_packet(const struct pqpan_ipv6frag_reasm *r, const uint8_t *in, uint32_t ident)
{
    return r->active && r->ident == ident &&
           memcmp(r->src, in + IPV6_OFF_SRC, IPV6_ADDR_OCTETS) == 0 &&
           memcmp(r->dst, in + IPV6_OFF_DST, IPV6_ADDR_OCTETS) == 0;
}

static void reasm_start(struct pqpan_ipv6frag_reasm *r, const uint8_t *in, uint32_t ident,
                        uint64_t now_ns)
{
    reasm_drop(r);
    r->active = 1;
    r->ident = ident;
    memcpy(r->src, in + IPV6_OFF_SRC, IPV6_ADDR_OCTETS);
    memcpy(r->dst, in + IPV6_OFF_DST, IPV6_ADDR_OCTETS);
    r->start_ns = now_ns;
}

/* The last fragment (M = 0) fixes the packet's length: no fragment may end after it, and
 * none after a known end. */
static int length_consistent(const struct pqpan_ipv6frag_reasm *r, size_t end, int more)
{
    if (!more) {
        return !(r->have_last && end != r->total) && r->end <= end;
    }
    return !r->have_last || end <= r->total;
}

/* Places fragment data[0..dlen) at offset off of the fragmentable part. */
static int place(struct pqpan_ipv6frag_reasm *r, uint8_t *buf, size_t *pkt_len, const uint8_t *in,
                 size_t off, const uint8_t *data, size_t dlen, int more)
{
    int fresh;
    if (!length_consistent(r, off + dlen, more)) {
        reasm_drop(r);
        return PQPAN_ERR_MALFORMED;
    }
    fresh = pqpan_802154_reasm_mark(r->have, off, dlen);
    if (fresh < 0) {
        reasm_drop(r); /* overlapping fragments: the packet is abandoned */
        return PQPAN_OK;
    }
    if (fresh == 0) {
        return PQPAN_OK;
    }
    if (off == 0) { /* the unfragmentable part comes from the offset-zero fragment */
        memcpy(buf, in, PQPAN_IPV6_HDR_OCTETS);
        buf[IPV6_OFF_NEXT_HEADER] = in[PQPAN_IPV6_HDR_OCTETS + FRAG_OFF_NEXT_HEADER];
    }
    memcpy(buf + PQPAN_IPV6_HDR_OCTETS + off, data, dlen);
    r->received += (uint32_t)dlen;
    if (off + dlen > r->end) {
        r->end = (uint32_t)(off + dlen);
    }
    if (!more) {
        r->have_last = 1;
        r->total = (uint32_t)(off + dlen);
    }
    if (r->have_last && r->received == r->total) {
        put_be16(buf + IPV6_OFF_PAYLOAD_LEN, (uint16_t)r->total);
        *pkt_len = PQPAN_IPV6_HDR_OCTETS + r->total;
        reasm_drop(r);
    }
    return PQPAN_OK;
}

static int input_fragment(struct pqpan_ipv6frag_reasm *r, uint8_t *buf, size_t cap,
                          size_t *pkt_len, const uint8_t *in, size_t len, uint64_t now_ns)
{
    const uint8_t *f = in + PQPAN_IPV6_HDR_OCTETS;
    size_t hdrs = PQPAN_IPV6_HDR_OCTETS + PQPAN_IPV6_FRAG_HDR_OCTETS, dlen, off;
    uint16_t field;
    uint32_t ident;
    int more;
    if (len <= hdrs) {
        return PQPAN_ERR_MALFORMED;
    }
    field = get_be16(f + FRAG_OFF_OFFSET);
    off = (size_t)(field >> FRAG_OFFSET_SHIFT) * PQPAN_IPV6_FRAG_UNIT;
    more = (field & FRAG_M) != 0;
    ident = get_be32(f + FRAG_OFF_IDENT);
    dlen = len - hdrs;
    if ((more && dlen % PQPAN_IPV6_FRAG_UNIT != 0) || off + dlen > PQPAN_IPV6_PAYLOAD_MAX) {
        return PQPAN_ERR_MALFORMED;
    }
    if (cap < PQPAN_IPV6_HDR_OCTETS + off + dlen) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    if (!same_packet(r, in, ident)) {
        reasm_start(r, in, ident, now_ns);
    }
    return place(r, buf, pkt_len, in, off, in + hdrs, dlen, more);
}

int pqpan_ipv6frag_reasm_input(struct pqpan_ipv6frag_reasm *r, uint8_t *buf, size_t cap,
                               size_t *pkt_len, const uint8_t *in, size_t len, uint64_t now_ns)
{
    if (pkt_len == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *pkt_len = 0;
    if (r == 0 || buf == 0 || in == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    (void)pqpan_ipv6frag_reasm_expire(r, now_ns);
    if (!header_ok(in, len)) {
        return PQPAN_ERR_MALFORMED;
    }
    if (in[IPV6_OFF_NEXT_HEADER] == PQPAN_IPV6_NEXT_HEADER_FRAGMENT) {
        return input_fragment(r, buf, cap, pkt_len, in, len, now_ns);
    }
    if (cap < len) {
        return PQPAN_ERR_BUFFER_TOO_SMALL;
    }
    memcpy(buf, in, len);
    *pkt_len = len;
    return PQPAN_OK;
}
