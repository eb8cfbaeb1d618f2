/* Tests for src/ieee802154/plan.c: frame counts, sizes and airtimes of UDP datagrams
 * against hand-computed RFC 4944 / IEEE 802.15.4 arithmetic. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

static struct pqpan_802154_link_cfg ext_cfg(void)
{
    struct pqpan_802154_link_cfg c;
    memset(&c, 0, sizeof c);
    c.src.mode = PQPAN_802154_ADDR_EXT;
    c.src.ext_addr = 0x00124B0000000001ull;
    c.dst.mode = PQPAN_802154_ADDR_EXT;
    c.dst.ext_addr = 0x00124B0000000002ull;
    c.pan_id = 0xABCD;
    c.pan_id_compression = 1;
    c.ack_request = 1;
    c.nhc_udp = 1;
    c.hop_limit = 64;
    c.src_port = 0xF0B1;
    c.dst_port = 0xF0B2;
    return c;
}

/* 800-octet UDP payload = 848-octet IPv6 datagram, extended addresses (see the
 * arithmetic in test_ieee802154_sixlowpan.c): FRAG1 carries 88 payload octets, then
 * 7 FRAGNs of 96 and one of 40.
 *   PSDU sizes: 21 + 4 + 6 + 88 + 2 = 121; 21 + 5 + 96 + 2 = 124 (x7); 21 + 5 + 40 + 2 = 68.
 *   Sum = 121 + 868 + 68 = 1057 octets; airtime = (1057 + 9 x 6) x 32 µs = 35 552 µs.
 *   Each frame is acknowledged: + 9 x (192 µs turnaround + 352 µs ACK) = 4 896 µs.
 *   Every frame is longer than 18 octets, so LIFS (40 symbols = 640 µs) follows each:
 *   + 9 x 640 µs = 5 760 µs. */
/* The way back swaps addresses and ports and keeps the rest; the UDP spec carries the
 * configuration's addresses, hop limit and ports. */
static void test_link_reverse_and_udp_spec(void **state)
{
    struct pqpan_802154_link_cfg c = ext_cfg(), back, again;
    struct pqpan_6lowpan_udp_spec spec;
    (void)state;
    pqpan_802154_link_reverse(&back, &c);
    assert_int_equal(back.src.ext_addr, c.dst.ext_addr);
    assert_int_equal(back.dst.ext_addr, c.src.ext_addr);
    assert_int_equal(back.src_port, 0xF0B2);
    assert_int_equal(back.dst_port, 0xF0B1);
    assert_int_equal(back.pan_id, c.pan_id);
    assert_int_equal(back.hop_limit, c.hop_limit);
    pqpan_802154_link_reverse(&again, &back);
    assert_int_equal(again.src.ext_addr, c.src.ext_addr);
    assert_int_equal(again.dst.ext_addr, c.dst.ext_addr);
    assert_int_equal(again.src_port, c.src_port);
    assert_int_equal(again.dst_port, c.dst_port);
    pqpan_802154_link_udp_spec(&spec, &back);
    assert_int_equal(spec.src_mac.ext_addr, c.dst.ext_addr);
    assert_int_equal(spec.dst_mac.ext_addr, c.src.ext_addr);
    assert_int_equal(spec.hop_limit, 64);
    assert_int_equal(spec.src_port, 0xF0B2);
    assert_int_equal(spec.dst_port, 0xF0B1);
}

static void test_plan_848_octet_datagram(void **state)
{
    struct pqpan_802154_link_cfg c = ext_cfg();
    struct pqpan_802154_plan p;
    struct pqpan_802154_frame_plan f[16];
    size_t i;
    (void)state;
    assert_int_equal(pqpan_802154_plan_udp(&p, f, 16, &c, 800), PQPAN_OK);
    assert_int_equal(p.frames, 9);
    assert_int_equal(p.datagram_octets, 848);
    assert_int_equal(p.comp_hdr_octets, 6);
    assert_int_equal(p.mhr_octets, 21);
    assert_int_equal(f[0].psdu_octets, 121);
    for (i = 1; i < 8; i++) {
        assert_int_equal(f[i].psdu_octets, 124);
        assert_int_equal(f[i].airtime_ns, 130 * 32000);
    }
    assert_int_equal(f[8].psdu_octets, 68);
    assert_int_equal(f[8].lowpan_octets, 45);
    assert_int_equal(p.psdu_octets, 1057);
    assert_int_equal(p.data_airtime_ns, 35552000);
    assert_int_equal(p.ack_airtime_ns, 352000);
    assert_int_equal(p.turnaround_ns, 192000);
    assert_int_equal(p.ack_wait_ns, 864000);
    assert_int_equal(f[0].ifs_ns, 640000);
    assert_int_equal(p.ifs_ns, 5760000);
    assert_int_equal(p.total_ns, 35552000 + 9 * 544000 + 5760000);
    assert_int_equal(p.exceeds_mtu, 0);
    /* 848 as the UDP payload (896-octet datagram): also 9 frames. */
    assert_int_equal(pqpan_802154_plan_udp(&p, 0, 0, &c, 848), PQPAN_OK);
    assert_int_equal(p.frames, 9);
}

static void test_plan_small_and_short_addresses(void **state)
{
    struct pqpan_802154_link_cfg c = ext_cfg();
    struct pqpan_802154_plan p;
    struct pqpan_802154_frame_plan f[2];
    (void)state;
    /* 34-octet payload, no ACK: 21 + 6 + 34 + 2 = 63 octets, (63 + 6) x 32 µs + LIFS. */
    c.ack_request = 0;
    assert_int_equal(pqpan_802154_plan_udp(&p, f, 2, &c, 34), PQPAN_OK);
    assert_int_equal(p.frames, 1);
    assert_int_equal(f[0].psdu_octets, 63);
    assert_int_equal(p.total_ns, 69 * 32000 + 640000);
    assert_int_equal(p.ack_airtime_ns, 0);
    /* Short addresses: MHR 9, 116 octets of 6LoWPAN; UDP ports 5683/5684 inline:
     * IPHC 2 + NHC 1 + ports 4 + checksum 2 = 9. 116 - 9 = 107 octets fit unfragmented. */
    c.src.mode = PQPAN_802154_ADDR_SHORT;
    c.src.short_addr = 1;
    c.dst.mode = PQPAN_802154_ADDR_SHORT;
    c.dst.short_addr = 2;
    c.src_port = 5683;
    c.dst_port = 5684;
    assert_int_equal(pqpan_802154_plan_udp(&p, f, 2, &c, 107), PQPAN_OK);
    assert_int_equal(p.frames, 1);
    assert_int_equal(p.comp_hdr_octets, 9);
    assert_int_equal(f[0].psdu_octets, 127);
    assert_int_equal(pqpan_802154_plan_udp(&p, f, 2, &c, 108), PQPAN_OK);
    assert_int_equal(p.frames, 2);
    assert_int_equal(pqpan_802154_plan_udp(&p, f, 1, &c, 300), PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(p.frames, 0);
}

static void test_plan_pqke_sizes(void **state)
{
    /* ML-KEM-1024 encapsulation key 1568 + 34 octets of message header: datagram
     * 1650 > 1280 (RFC 4944 MTU) but within the 11-bit datagram_size. */
    struct pqpan_802154_link_cfg c = ext_cfg();
    struct pqpan_802154_plan p;
    (void)state;
    assert_int_equal(pqpan_802154_plan_udp(&p, 0, 0, &c, 1602), PQPAN_OK);
    assert_int_equal(p.exceeds_mtu, 1);
    /* 1650 - 136 = 1514 = 15 x 96 + 74 -> 16 FRAGNs + FRAG1. */
    assert_int_equal(p.frames, 17);
    assert_int_equal(pqpan_802154_plan_udp(&p, 0, 0, &c, 2000), PQPAN_ERR_BAD_LENGTH);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_plan_848_octet_datagram),
        cmocka_unit_test(test_plan_small_and_short_addresses),
        cmocka_unit_test(test_plan_pqke_sizes),
        cmocka_unit_test(test_link_reverse_and_udp_spec),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
