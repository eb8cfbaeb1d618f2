/* Tests for src/ieee802154/ipv6frag.c: IPv6 fragmentation at the 1280-octet MTU of a
 * 6LoWPAN link (RFC 8200 §4.5, RFC 4944 §4): how many packets, their sizes, the Fragment
 * header's octets written by hand, and reassembly in any order (with duplicates, overlaps,
 * malformed fragments, another packet's fragments and the timeout). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

#define BIG 3000u /* UDP payload octets of the packet fragmented below */

static uint8_t pkt[PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + BIG];
static uint8_t frags[4][PQPAN_6LOWPAN_IPV6_MTU];
static size_t frag_len[4];
static uint8_t out[PQPAN_IPV6_HDR_OCTETS + PQPAN_IPV6_PAYLOAD_MAX];

/* A UDP datagram of BIG octets between two link-local addresses, cut into its 3 fragment
 * packets (Identification 0x01020304). */
static size_t make_fragments(void)
{
    static const struct pqpan_802154_addr a = {PQPAN_802154_ADDR_EXT, 0, 0x00124B0001020304ull};
    static const struct pqpan_802154_addr b = {PQPAN_802154_ADDR_EXT, 0, 0x00124B00A0B0C0D0ull};
    struct pqpan_6lowpan_udp_spec s;
    uint8_t payload[BIG];
    size_t i, len = 0;
    memset(&s, 0, sizeof s);
    s.src_mac = a;
    s.dst_mac = b;
    s.hop_limit = 64;
    s.src_port = 0xF0B1;
    s.dst_port = 0xF0B2;
    for (i = 0; i < BIG; i++) {
        payload[i] = (uint8_t)(i * 13u + 5u);
    }
    assert_int_equal(pqpan_6lowpan_build_udp(pkt, sizeof pkt, &len, &s, payload, BIG), PQPAN_OK);
    assert_int_equal(pqpan_ipv6frag_count(len), 3);
    for (i = 0; i < 3; i++) {
        assert_int_equal(pqpan_ipv6frag_write(frags[i], sizeof frags[i], &frag_len[i], pkt, len,
                                              i, 0x01020304u),
                         PQPAN_OK);
    }
    return len;
}

/* (1280 - 40 - 8) = 1232, a multiple of 8: 1232 octets of the fragmentable part per
 * fragment. A packet within 1280 octets goes whole. */
static void test_counts_and_sizes(void **state)
{
    (void)state;
    assert_int_equal(PQPAN_IPV6_FRAG_DATA_MAX, 1232);
    assert_int_equal(pqpan_ipv6frag_count(39), 0);
    assert_int_equal(pqpan_ipv6frag_count(1280), 1);
    assert_int_equal(pqpan_ipv6frag_len(1280, 0), 1280);
    assert_int_equal(pqpan_ipv6frag_len(1280, 1), 0);
    assert_int_equal(pqpan_ipv6frag_count(1281), 2);
    assert_int_equal(pqpan_ipv6frag_len(1281, 0), 1280);
    assert_int_equal(pqpan_ipv6frag_len(1281, 1), 40 + 8 + 9);
    /* ML-KEM-1024's INIT: 1608 octets of UDP payload, a 1656-octet packet: 1616 octets to
     * fragment, 1232 + 384. */
    assert_int_equal(pqpan_ipv6frag_count(1656), 2);
    assert_int_equal(pqpan_ipv6frag_len(1656, 1), 40 + 8 + 384);
    assert_int_equal(pqpan_ipv6frag_count(40 + 65535), 54);
    assert_int_equal(pqpan_ipv6frag_count(40 + 65536), 0);
}

/* The fragment packets' headers, octet by octet (RFC 8200 §3, §4.5). */
static void test_fragment_headers_by_hand(void **state)
{
    size_t len = make_fragments(), i;
    static const uint8_t offsets[3][2] = {{0x00, 0x01}, {0x04, 0xD1}, {0x09, 0xA0}};
    (void)state;
    assert_int_equal(len, 3048);
    for (i = 0; i < 3; i++) {
        const uint8_t *f = frags[i];
        size_t slice = i < 2 ? 1232u : 3008u - 2u * 1232u;
        assert_int_equal(frag_len[i], 48 + slice);
        assert_memory_equal(f, pkt, 4);                /* version, class, flow label */
        assert_int_equal((f[4] << 8) | f[5], 8 + slice); /* Payload Length */
        assert_int_equal(f[6], 44);                      /* Next Header: Fragment */
        assert_memory_equal(f + 7, pkt + 7, 33);         /* hop limit, addresses */
        assert_int_equal(f[40], 17);                     /* Next Header: UDP */
        assert_int_equal(f[41], 0);                      /* Reserved */
        /* Fragment Offset 0, 154, 308 units of 8 octets << 3, M = 1, 1, 0 */
        assert_memory_equal(f + 42, offsets[i], 2);
        assert_int_equal(f[44], 0x01);
        assert_int_equal(f[47], 0x04);
        assert_memory_equal(f + 48, pkt + 40 + i * 1232u, slice);
    }
    /* a packet within the MTU is written unchanged */
    assert_int_equal(pqpan_ipv6frag_write(out, sizeof out, &len, frags[0], frag_len[0], 0, 9),
                     PQPAN_OK);
    assert_int_equal(len, frag_len[0]);
    assert_memory_equal(out, frags[0], len);
    assert_int_equal(pqpan_ipv6frag_write(out, 100, &len, pkt, 3048, 0, 9),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(pqpan_ipv6frag_write(out, sizeof out, &len, pkt, 3048, 3, 9),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_ipv6frag_write(out, sizeof out, &len, pkt, 3047, 0, 9),
                     PQPAN_ERR_MALFORMED); /* Payload Length disagrees */
}

/* In any order the fragments give back the packet, its UDP checksum good. */
static void test_reassembly_any_order(void **state)
{
    static const unsigned orders[3][3] = {{0, 1, 2}, {2, 1, 0}, {1, 2, 0}};
    struct pqpan_ipv6frag_reasm r;
    size_t len = make_fragments(), got = 0;
    unsigned o, k;
    uint16_t sum = 0;
    (void)state;
    pqpan_ipv6frag_reasm_init(&r, PQPAN_IPV6_REASM_TIMEOUT_NS);
    for (o = 0; o < 3; o++) {
        memset(out, 0, sizeof out);
        for (k = 0; k < 3; k++) {
            unsigned i = orders[o][k];
            assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, frags[i],
                                                        frag_len[i], 1000u * k),
                             PQPAN_OK);
            assert_int_equal(got, k == 2 ? len : 0);
        }
        assert_memory_equal(out, pkt, len);
        assert_int_equal(r.active, 0);
    }
    assert_int_equal(pqpan_6lowpan_udp_checksum(&sum, out, len), PQPAN_OK);
    assert_int_equal(sum, (out[46] << 8) | out[47]);
    /* a packet without a Fragment header is complete at once */
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, pkt, 48 + 100, 0),
                     PQPAN_ERR_MALFORMED); /* its Payload Length says 3008 */
    pkt[4] = 0;
    pkt[5] = 8 + 100;
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, pkt, 48 + 100, 0),
                     PQPAN_OK);
    assert_int_equal(got, 148);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, 100, &got, pkt, 48 + 100, 0),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
}

/* An exact duplicate is dropped alone; a fragment that overlaps another in part abandons
 * the packet (RFC 8200 §4.5); a non-final fragment not a multiple of 8 octets and one
 * ending after the last are malformed; another packet's fragment starts over; the timeout
 * drops a partial packet. */
static void test_reassembly_refusals(void **state)
{
    struct pqpan_ipv6frag_reasm r;
    uint8_t bad[PQPAN_6LOWPAN_IPV6_MTU];
    size_t got = 0;
    (void)state;
    make_fragments();
    pqpan_ipv6frag_reasm_init(&r, 5000u);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, frags[0], frag_len[0], 0), PQPAN_OK);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, frags[0], frag_len[0], 0), PQPAN_OK);
    assert_int_equal(r.active, 1);
    assert_int_equal(r.received, 1232);
    /* the second fragment moved back by 8 octets overlaps the first: abandoned */
    memcpy(bad, frags[1], frag_len[1]);
    bad[43] = (uint8_t)(bad[43] - 8u);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, bad, frag_len[1], 0), PQPAN_OK);
    assert_int_equal(r.active, 0);
    assert_int_equal(got, 0);
    /* a non-final fragment of 1231 octets */
    memcpy(bad, frags[0], frag_len[0] - 1);
    bad[5] = (uint8_t)(bad[5] - 1u);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, bad, frag_len[0] - 1, 0),
                     PQPAN_ERR_MALFORMED);
    /* the last fragment, then the middle one claimed last too but ending elsewhere */
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, frags[2], frag_len[2], 0), PQPAN_OK);
    memcpy(bad, frags[1], frag_len[1]);
    bad[43] = (uint8_t)(bad[43] & ~1u);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, bad, frag_len[1], 0),
                     PQPAN_ERR_MALFORMED);
    assert_int_equal(r.active, 0);
    /* another Identification replaces the packet in progress */
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, frags[0], frag_len[0], 0), PQPAN_OK);
    memcpy(bad, frags[1], frag_len[1]);
    bad[47] = 0x05;
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, sizeof out, &got, bad, frag_len[1], 0), PQPAN_OK);
    assert_int_equal(r.received, 1232);
    assert_int_equal(r.ident, 0x01020305u);
    /* past the timeout the partial packet is dropped */
    assert_int_equal(pqpan_ipv6frag_reasm_expire(&r, 5000u), 0);
    assert_int_equal(pqpan_ipv6frag_reasm_expire(&r, 5001u), 1);
    assert_int_equal(r.active, 0);
    assert_int_equal(pqpan_ipv6frag_reasm_input(&r, out, 1000, &got, frags[0], frag_len[0], 0),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_and_sizes),
        cmocka_unit_test(test_fragment_headers_by_hand),
        cmocka_unit_test(test_reassembly_any_order),
        cmocka_unit_test(test_reassembly_refusals),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
