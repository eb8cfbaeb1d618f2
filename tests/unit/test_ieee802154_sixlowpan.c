/* Tests for src/ieee802154/sixlowpan.c: link-local addresses from MAC addresses, the UDP
 * checksum (checked with an independent sum), IPHC/NHC bytes assembled by hand from
 * RFC 6282, compress/decompress round trips, RFC 4944 fragmentation arithmetic and
 * reassembly (order, duplicates, overlaps, loss and timeout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

static const struct pqpan_802154_addr mac_a = {PQPAN_802154_ADDR_EXT, 0, 0x00124B0001020304ull};
static const struct pqpan_802154_addr mac_b = {PQPAN_802154_ADDR_EXT, 0, 0x00124B00A0B0C0D0ull};
static const struct pqpan_802154_addr short_a = {PQPAN_802154_ADDR_SHORT, 0x0001, 0};
static const struct pqpan_802154_addr short_b = {PQPAN_802154_ADDR_SHORT, 0xBEEF, 0};

static void fill(uint8_t *p, size_t n, unsigned seed)
{
    size_t i;
    for (i = 0; i < n; i++) {
        p[i] = (uint8_t)(i * 31u + seed);
    }
}

static size_t make_udp(uint8_t *dgram, size_t cap, struct pqpan_802154_addr src,
                       struct pqpan_802154_addr dst, uint8_t hlim, uint16_t sp, uint16_t dp,
                       size_t payload_len)
{
    struct pqpan_6lowpan_udp_spec s;
    uint8_t payload[2048] = {0};
    size_t len;
    memset(&s, 0, sizeof s);
    s.src_mac = src;
    s.dst_mac = dst;
    s.hop_limit = hlim;
    s.src_port = sp;
    s.dst_port = dp;
    fill(payload, payload_len, 7);
    assert_int_equal(pqpan_6lowpan_build_udp(dgram, cap, &len, &s, payload, payload_len), PQPAN_OK);
    return len;
}

static void test_link_local_addresses(void **state)
{
    uint8_t a[16];
    const uint8_t from_ext[16] = {0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0x02, 0x12, 0x4B, 0x00, 0x01, 0x02, 0x03, 0x04};
    const uint8_t from_short[16] = {0xFE, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFE, 0, 0xBE, 0xEF};
    struct pqpan_802154_addr none = {0, 0, 0};
    (void)state;
    assert_int_equal(pqpan_6lowpan_link_local(a, &mac_a), PQPAN_OK);
    assert_memory_equal(a, from_ext, 16); /* U/L bit 0x02 of the first octet inverted */
    assert_int_equal(pqpan_6lowpan_link_local(a, &short_b), PQPAN_OK);
    assert_memory_equal(a, from_short, 16);
    assert_int_equal(pqpan_6lowpan_link_local(a, &none), PQPAN_ERR_INVALID_ARG);
}

/* Independent check: the one's complement sum over pseudo-header + UDP header (with the
 * checksum) + data must be 0xFFFF. */
static unsigned verify_sum(const uint8_t *d, size_t len)
{
    uint32_t acc = 0;
    size_t i, udp_len = len - 40;
    for (i = 8; i < 40; i += 2) {
        acc += (uint32_t)(d[i] << 8 | d[i + 1]);
    }
    acc += (uint32_t)udp_len + 17u;
    for (i = 40; i + 1 < len; i += 2) {
        acc += (uint32_t)(d[i] << 8 | d[i + 1]);
    }
    if ((len - 40) % 2) {
        acc += (uint32_t)d[len - 1] << 8;
    }
    while (acc >> 16) {
        acc = (acc & 0xFFFF) + (acc >> 16);
    }
    return acc;
}

static void test_build_udp_and_checksum(void **state)
{
    uint8_t d[2048];
    size_t len;
    uint16_t sum;
    (void)state;
    len = make_udp(d, sizeof d, mac_a, mac_b, 64, 0xF0B1, 0xF0B2, 13);
    assert_int_equal(len, 40 + 8 + 13);
    assert_int_equal(d[0], 0x60);
    assert_int_equal(d[4] << 8 | d[5], 21); /* payload length = UDP length */
    assert_int_equal(d[6], 17);
    assert_int_equal(d[7], 64);
    assert_int_equal(d[44] << 8 | d[45], 21);
    assert_int_equal(verify_sum(d, len), 0xFFFF);
    assert_int_equal(pqpan_6lowpan_udp_checksum(&sum, d, len), PQPAN_OK);
    assert_int_equal(sum, d[46] << 8 | d[47]);
    len = make_udp(d, sizeof d, short_a, short_b, 255, 5683, 5684, 1218);
    assert_int_equal(verify_sum(d, len), 0xFFFF);
    d[100] ^= 1;
    assert_int_not_equal(verify_sum(d, len), 0xFFFF);
    assert_int_equal(pqpan_6lowpan_udp_checksum(&sum, d, len - 1), PQPAN_ERR_MALFORMED);
}

static void test_iphc_bytes_by_hand(void **state)
{
    uint8_t d[128], c[PQPAN_6LOWPAN_MAX_COMP_HDR];
    size_t len, clen, ulen;
    (void)state;
    len = make_udp(d, sizeof d, mac_a, mac_b, 64, 0xF0B1, 0xF0B2, 10);
    /* IPHC: 011 TF=11 NH=1 HLIM=10 -> 0x7E; CID=0 SAC=0 SAM=11 M=0 DAC=0 DAM=11 -> 0x33.
     * NHC UDP 11110 C=0 P=11 -> 0xF3, ports 4+4 bits -> 0x12, checksum inline. */
    assert_int_equal(pqpan_6lowpan_compress(c, sizeof c, &clen, &ulen, d, len, &mac_a, &mac_b, 1), PQPAN_OK);
    assert_int_equal(clen, 6);
    assert_int_equal(ulen, 48);
    assert_int_equal(c[0], 0x7E);
    assert_int_equal(c[1], 0x33);
    assert_int_equal(c[2], 0xF3);
    assert_int_equal(c[3], 0x12);
    assert_int_equal(c[4], d[46]);
    assert_int_equal(c[5], d[47]);
    /* Next header inline (NH=0): 0x7A 0x33 0x11. */
    assert_int_equal(pqpan_6lowpan_compress(c, sizeof c, &clen, &ulen, d, len, &mac_a, &mac_b, 0), PQPAN_OK);
    assert_int_equal(clen, 3);
    assert_int_equal(ulen, 40);
    assert_int_equal(c[0], 0x7A);
    assert_int_equal(c[1], 0x33);
    assert_int_equal(c[2], 0x11);
    /* Hop limit 17 inline; ports 5683 -> 0xF005 (P=01: src inline, dst low octet). */
    len = make_udp(d, sizeof d, short_a, short_b, 17, 5683, 0xF005, 0);
    assert_int_equal(pqpan_6lowpan_compress(c, sizeof c, &clen, &ulen, d, len, &short_a, &short_b, 1), PQPAN_OK);
    assert_int_equal(clen, 2 + 1 + 1 + 2 + 1 + 2);
    assert_int_equal(c[0], 0x7C);
    assert_int_equal(c[1], 0x33);
    assert_int_equal(c[2], 17);
    assert_int_equal(c[3], 0xF1);
    assert_int_equal(c[4], 5683 >> 8);
    assert_int_equal(c[5], 5683 & 0xFF);
    assert_int_equal(c[6], 0x05);
    /* The addresses do not match the MAC addresses: short form inline (SAM/DAM = 10). */
    assert_int_equal(pqpan_6lowpan_compress(c, sizeof c, &clen, &ulen, d, len, &mac_a, &mac_b, 1), PQPAN_OK);
    assert_int_equal(c[1], 0x22);
    assert_int_equal(pqpan_6lowpan_compress(c, 5, &clen, &ulen, d, len, &mac_a, &mac_b, 1),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
}

/* compress -> payload appended -> decompress must give back the datagram exactly. */
static void roundtrip(const uint8_t *d, size_t len, const struct pqpan_802154_addr *src,
                      const struct pqpan_802154_addr *dst, int nhc)
{
    uint8_t c[2100], out[2100];
    size_t clen, ulen, ulen2, consumed;
    assert_int_equal(pqpan_6lowpan_compress(c, sizeof c, &clen, &ulen, d, len, src, dst, nhc), PQPAN_OK);
    memcpy(c + clen, d + ulen, len - ulen);
    assert_int_equal(pqpan_6lowpan_decompress(out, sizeof out, &ulen2, &consumed, c, clen + len - ulen,
                                              src, dst, 0),
                     PQPAN_OK);
    assert_int_equal(ulen2, ulen);
    assert_int_equal(consumed, clen);
    memcpy(out + ulen2, c + consumed, len - ulen);
    assert_memory_equal(out, d, len);
}

static void test_iphc_roundtrips(void **state)
{
    uint8_t d[2048];
    size_t len;
    const uint8_t hlims[4] = {1, 64, 255, 17};
    const uint16_t ports[4][2] = {{0xF0B1, 0xF0BF}, {5683, 0xF00A}, {0xF0AA, 5684}, {1000, 2000}};
    int h, p, nhc;
    (void)state;
    for (h = 0; h < 4; h++) {
        for (p = 0; p < 4; p++) {
            for (nhc = 0; nhc < 2; nhc++) {
                len = make_udp(d, sizeof d, mac_a, mac_b, hlims[h], ports[p][0], ports[p][1], 33);
                roundtrip(d, len, &mac_a, &mac_b, nhc);
                len = make_udp(d, sizeof d, short_a, mac_b, hlims[h], ports[p][0], ports[p][1], 0);
                roundtrip(d, len, &short_a, &mac_b, nhc);
            }
        }
    }
    /* Addresses not derived from these MACs (SAM/DAM 01 and 10), a global source
     * (SAM 00), traffic class and flow label (TF 00 and 10), multicast destination. */
    len = make_udp(d, sizeof d, mac_a, short_b, 64, 1, 2, 20);
    roundtrip(d, len, &mac_b, &short_a, 1);
    d[8] = 0x20;
    d[9] = 0x01;
    d[1] = 0xB0; /* traffic class 0x0B, flow label 0 */
    roundtrip(d, len, &mac_a, &short_b, 1);
    d[1] = 0xBA;
    d[2] = 0xBC;
    d[3] = 0xDE; /* flow label 0xABCDE */
    roundtrip(d, len, &mac_a, &short_b, 0);
    d[24] = 0xFF;
    d[25] = 0x02;
    roundtrip(d, len, &mac_a, &short_b, 1);
}

static void test_decompress_rejects(void **state)
{
    uint8_t out[64];
    size_t ulen, consumed;
    const uint8_t stateful[2] = {0x7E, 0xB3};  /* CID = 1 */
    const uint8_t truncated[3] = {0x7E, 0x00, 0xF3};  /* SAM 00 needs 16 octets */
    const uint8_t nhc_c[4] = {0x7E, 0x33, 0xF7, 0x12}; /* C = 1: checksum elided */
    const uint8_t not_iphc[2] = {0x41, 0x60};
    (void)state;
    assert_int_equal(pqpan_6lowpan_decompress(out, sizeof out, &ulen, &consumed, stateful, 2, &mac_a, &mac_b, 0),
                     PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_6lowpan_decompress(out, sizeof out, &ulen, &consumed, truncated, 3, &mac_a, &mac_b, 0),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_6lowpan_decompress(out, sizeof out, &ulen, &consumed, nhc_c, 4, &mac_a, &mac_b, 0),
                     PQPAN_ERR_UNSUPPORTED);
    assert_int_equal(pqpan_6lowpan_decompress(out, sizeof out, &ulen, &consumed, not_iphc, 2, &mac_a, &mac_b, 0),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(ulen, 0);
}

/* RFC 4944 arithmetic, 802.15.4 frames with extended addresses on both sides and PAN ID
 * compression: MHR 21 + FCS 2 -> 127 - 23 = 104 octets of 6LoWPAN per frame.
 * Compressed header IPHC 2 + NHC-UDP (1 + ports 1 + checksum 2) = 6 octets for 48.
 *   FRAG1: 104 - 4 - 6 = 94 octets of room; 48 + 94 = 142 -> 136 (17 units of 8),
 *          so FRAG1 carries 136 - 48 = 88 payload octets.
 *   FRAGN: 104 - 5 = 99 -> 96 octets (12 units) each.
 * 848 read as the IPv6 datagram (UDP payload 800): 848 - 136 = 712 = 7 x 96 + 40
 *   -> 8 FRAGNs -> 9 frames.
 * 848 read as the UDP payload (datagram 896): 896 - 136 = 760 = 7 x 96 + 88
 *   -> 8 FRAGNs -> 9 frames. Both readings give the 9 frames of the claim. */
static void test_fragment_arithmetic_848(void **state)
{
    struct pqpan_6lowpan_frag f;
    size_t count;
    (void)state;
    assert_int_equal(pqpan_6lowpan_frag_count(&count, 6, 48, 800, 104), PQPAN_OK);
    assert_int_equal(count, 9);
    assert_int_equal(pqpan_6lowpan_frag_count(&count, 6, 48, 848, 104), PQPAN_OK);
    assert_int_equal(count, 9);
    assert_int_equal(pqpan_6lowpan_frag_piece(&f, 0, 6, 48, 800, 104), PQPAN_OK);
    assert_int_equal(f.hdr_len, 4);
    assert_int_equal(f.comp_hdr_len, 6);
    assert_int_equal(f.payload_len, 88);
    assert_int_equal(pqpan_6lowpan_frag_piece(&f, 1, 6, 48, 800, 104), PQPAN_OK);
    assert_int_equal(f.hdr_len, 5);
    assert_int_equal(f.offset_units, 17);
    assert_int_equal(f.payload_off, 88);
    assert_int_equal(f.payload_len, 96);
    assert_int_equal(pqpan_6lowpan_frag_piece(&f, 8, 6, 48, 800, 104), PQPAN_OK);
    assert_int_equal(f.offset_units, 17 + 7 * 12);
    assert_int_equal(f.payload_len, 40);
    assert_int_equal(pqpan_6lowpan_frag_piece(&f, 9, 6, 48, 800, 104), PQPAN_ERR_INVALID_ARG);
    /* Fits in one frame: 6 + 98 = 104, no fragment header. */
    assert_int_equal(pqpan_6lowpan_frag_count(&count, 6, 48, 98, 104), PQPAN_OK);
    assert_int_equal(count, 1);
    assert_int_equal(pqpan_6lowpan_frag_count(&count, 6, 48, 99, 104), PQPAN_OK);
    assert_int_equal(count, 2);
    /* datagram_size is 11 bits: 2047 at most. */
    assert_int_equal(pqpan_6lowpan_frag_count(&count, 6, 48, 2000, 104), PQPAN_ERR_BAD_LENGTH);
}

struct piece {
    uint8_t b[128];
    size_t len;
};

/* Fragments a datagram into pieces (max 104 octets of 6LoWPAN each). */
static size_t fragment(struct piece *pieces, const uint8_t *d, size_t len, uint16_t tag)
{
    uint8_t c[PQPAN_6LOWPAN_MAX_COMP_HDR];
    struct pqpan_6lowpan_frag f;
    size_t clen, ulen, count, i;
    assert_int_equal(pqpan_6lowpan_compress(c, sizeof c, &clen, &ulen, d, len, &mac_a, &mac_b, 1), PQPAN_OK);
    assert_int_equal(pqpan_6lowpan_frag_count(&count, clen, ulen, len - ulen, 104), PQPAN_OK);
    for (i = 0; i < count; i++) {
        assert_int_equal(pqpan_6lowpan_frag_piece(&f, i, clen, ulen, len - ulen, 104), PQPAN_OK);
        assert_int_equal(pqpan_6lowpan_frag_write(pieces[i].b, sizeof pieces[i].b, &pieces[i].len, &f,
                                                  len, tag, c, d + ulen),
                         PQPAN_OK);
        assert_true(pieces[i].len <= 104);
    }
    return count;
}

static void test_fragment_header_bytes(void **state)
{
    uint8_t d[1400];
    struct piece pieces[20];
    size_t len, n;
    (void)state;
    len = make_udp(d, sizeof d, mac_a, mac_b, 64, 0xF0B1, 0xF0B2, 1218);
    n = fragment(pieces, d, len, 0x1234);
    assert_int_equal(len, 1266);
    /* 1266 - 136 = 1130 = 11 x 96 + 74 -> 12 FRAGNs + FRAG1. */
    assert_int_equal(n, 13);
    /* FRAG1: 11000 + size 1266 (0x4F2) -> C4 F2, tag 12 34. */
    assert_int_equal(pieces[0].b[0], 0xC4);
    assert_int_equal(pieces[0].b[1], 0xF2);
    assert_int_equal(pieces[0].b[2], 0x12);
    assert_int_equal(pieces[0].b[3], 0x34);
    assert_int_equal(pieces[0].b[4], 0x7E); /* IPHC follows */
    /* FRAGN: 11100 + size -> E4 F2, tag, offset 17. */
    assert_int_equal(pieces[1].b[0], 0xE4);
    assert_int_equal(pieces[1].b[1], 0xF2);
    assert_int_equal(pieces[1].b[4], 17);
    assert_int_equal(pieces[12].b[4], 17 + 11 * 12);
    assert_int_equal(pieces[12].len, 5 + 74);
}

static void test_reassembly_in_and_out_of_order(void **state)
{
    uint8_t d[1400], buf[2048];
    struct piece pieces[20];
    struct pqpan_6lowpan_reasm r;
    size_t len, n, i, got = 0;
    (void)state;
    len = make_udp(d, sizeof d, mac_a, mac_b, 64, 0xF0B1, 0xF0B2, 1218);
    n = fragment(pieces, d, len, 7);
    pqpan_6lowpan_reasm_init(&r, PQPAN_6LOWPAN_REASM_TIMEOUT_NS);
    for (i = 0; i < n; i++) {
        assert_int_equal(got, 0);
        assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[i].b, pieces[i].len,
                                                   &mac_a, &mac_b, i * 5000000u),
                         PQPAN_OK);
    }
    assert_int_equal(got, len);
    assert_memory_equal(buf, d, len);
    /* Reverse order, with a duplicate in the middle. */
    memset(buf, 0, sizeof buf);
    got = 0;
    for (i = n; i-- > 0;) {
        assert_int_equal(got, 0);
        assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[i].b, pieces[i].len,
                                                   &mac_a, &mac_b, 0),
                         PQPAN_OK);
        if (i == 5) {
            assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[6].b, pieces[6].len,
                                                       &mac_a, &mac_b, 0),
                             PQPAN_OK);
        }
    }
    assert_int_equal(got, len);
    assert_memory_equal(buf, d, len);
}

static void test_reassembly_loss_timeout_and_overlap(void **state)
{
    uint8_t d[1400], buf[2048];
    struct piece pieces[20];
    struct pqpan_6lowpan_reasm r;
    size_t len, n, i, got = 0;
    (void)state;
    len = make_udp(d, sizeof d, mac_a, mac_b, 64, 0xF0B1, 0xF0B2, 848);
    n = fragment(pieces, d, len, 9);
    pqpan_6lowpan_reasm_init(&r, 1000000000u);
    for (i = 0; i < n; i++) {
        if (i == 3) {
            continue; /* lost */
        }
        assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[i].b, pieces[i].len,
                                                   &mac_a, &mac_b, 100),
                         PQPAN_OK);
        assert_int_equal(got, 0);
    }
    assert_int_equal(pqpan_6lowpan_reasm_expire(&r, 100 + 1000000000u), 0);
    assert_int_equal(pqpan_6lowpan_reasm_expire(&r, 101 + 1000000000u), 1);
    /* The retransmitted fragment after the timeout cannot complete the datagram. */
    assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[3].b, pieces[3].len,
                                               &mac_a, &mac_b, 2000000000u),
                     PQPAN_OK);
    assert_int_equal(got, 0);
    /* A fragment overlapping received data at another offset discards the datagram. */
    pqpan_6lowpan_reasm_init(&r, 1000000000u);
    assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[1].b, pieces[1].len,
                                               &mac_a, &mac_b, 0),
                     PQPAN_OK);
    pieces[2].b[4] = (uint8_t)(pieces[1].b[4] + 4);
    assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[2].b, pieces[2].len,
                                               &mac_a, &mac_b, 0),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(r.active, 0);
    /* A fragment whose size is not a multiple of 8 and not the last one. */
    assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[1].b, pieces[1].len - 1,
                                               &mac_a, &mac_b, 0),
                     PQPAN_ERR_MALFORMED);
    /* Too small a buffer for the announced datagram_size. */
    assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, 100, &got, pieces[1].b, pieces[1].len,
                                               &mac_a, &mac_b, 0),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
}

static void test_unfragmented_datagram(void **state)
{
    uint8_t d[256], buf[256];
    struct piece pieces[2];
    struct pqpan_6lowpan_reasm r;
    size_t len, got;
    (void)state;
    len = make_udp(d, sizeof d, mac_a, mac_b, 64, 0xF0B1, 0xF0B2, 34);
    assert_int_equal(fragment(pieces, d, len, 1), 1);
    assert_int_equal(pieces[0].len, 6 + 34);
    pqpan_6lowpan_reasm_init(&r, PQPAN_6LOWPAN_REASM_TIMEOUT_NS);
    assert_int_equal(pqpan_6lowpan_reasm_input(&r, buf, sizeof buf, &got, pieces[0].b, pieces[0].len,
                                               &mac_a, &mac_b, 0),
                     PQPAN_OK);
    assert_int_equal(got, len);
    assert_memory_equal(buf, d, len);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_link_local_addresses),
        cmocka_unit_test(test_build_udp_and_checksum),
        cmocka_unit_test(test_iphc_bytes_by_hand),
        cmocka_unit_test(test_iphc_roundtrips),
        cmocka_unit_test(test_decompress_rejects),
        cmocka_unit_test(test_fragment_arithmetic_848),
        cmocka_unit_test(test_fragment_header_bytes),
        cmocka_unit_test(test_reassembly_in_and_out_of_order),
        cmocka_unit_test(test_reassembly_loss_timeout_and_overlap),
        cmocka_unit_test(test_unfragmented_datagram),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
