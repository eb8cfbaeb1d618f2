/* Tests for src/ieee802154/mac.c: FCS (CRC-16/KERMIT check value), frame layouts
 * hand-assembled from the Frame Control bit map, parse/build round trips and rejects. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/ieee802154.h"

static struct pqpan_802154_addr ext_addr(uint64_t v)
{
    struct pqpan_802154_addr a = {PQPAN_802154_ADDR_EXT, 0, v};
    return a;
}

static struct pqpan_802154_addr short_addr(uint16_t v)
{
    struct pqpan_802154_addr a = {PQPAN_802154_ADDR_SHORT, v, 0};
    return a;
}

static struct pqpan_802154_mhr data_mhr(struct pqpan_802154_addr dst, struct pqpan_802154_addr src)
{
    struct pqpan_802154_mhr h;
    memset(&h, 0, sizeof h);
    h.frame_type = PQPAN_802154_FRAME_DATA;
    h.frame_version = 1;
    h.ack_request = 1;
    h.pan_id_compression = 1;
    h.seq = 0x42;
    h.dst_pan = 0xABCD;
    h.src_pan = 0xABCD;
    h.dst = dst;
    h.src = src;
    return h;
}

static void test_fcs_check_value(void **state)
{
    const uint8_t check[] = "123456789";
    (void)state;
    /* CRC-16/KERMIT catalogue check value. */
    assert_int_equal(pqpan_802154_mac_fcs(check, 9), 0x2189);
    assert_int_equal(pqpan_802154_mac_fcs(check, 0), 0x0000);
}

static void test_fcs_residue_of_frame_is_zero(void **state)
{
    /* A reflected CRC with init 0 and no final XOR, appended least significant octet
     * first, makes the CRC over frame + FCS zero. */
    uint8_t ack[PQPAN_802154_ACK_PSDU];
    (void)state;
    pqpan_802154_mac_build_ack(ack, 0x56, 0);
    assert_int_equal(pqpan_802154_mac_fcs(ack, sizeof ack), 0);
}

static void test_ack_frame_bytes(void **state)
{
    uint8_t ack[PQPAN_802154_ACK_PSDU];
    uint16_t fcs;
    (void)state;
    pqpan_802154_mac_build_ack(ack, 0x56, 0);
    assert_int_equal(ack[0], 0x02); /* frame type 2 (ack), everything else 0 */
    assert_int_equal(ack[1], 0x00);
    assert_int_equal(ack[2], 0x56);
    fcs = pqpan_802154_mac_fcs(ack, 3);
    assert_int_equal(ack[3], fcs & 0xFF);
    assert_int_equal(ack[4], fcs >> 8);
    pqpan_802154_mac_build_ack(ack, 0x56, 1);
    assert_int_equal(ack[0], 0x12); /* + frame pending, bit 4 */
}

static void test_header_lengths(void **state)
{
    struct pqpan_802154_mhr h = data_mhr(ext_addr(1), ext_addr(2));
    (void)state;
    /* FCF 2 + seq 1 + dst PAN 2 + dst 8 + src 8 = 21; payload 127 - 21 - 2 = 104. */
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 21);
    assert_int_equal(pqpan_802154_mac_max_payload(&h), 104);
    h.pan_id_compression = 0; /* + src PAN 2 */
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 23);
    h = data_mhr(short_addr(1), short_addr(2));
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 9);
    assert_int_equal(pqpan_802154_mac_max_payload(&h), 116);
    h.src.mode = PQPAN_802154_ADDR_NONE;
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 0); /* compression needs both */
    h.pan_id_compression = 0;
    assert_int_equal(pqpan_802154_mac_mhr_len(&h), 7);
}

static void test_build_data_frame_bytes(void **state)
{
    struct pqpan_802154_mhr h = data_mhr(ext_addr(0x0011223344556677ull), ext_addr(0x8899AABBCCDDEEFFull));
    const uint8_t payload[3] = {0x7E, 0x33, 0xF3};
    /* FCF = type 1 | AR (bit 5) | PAN ID comp (bit 6) | dst mode 3 (bits 10-11) |
     * version 1 (bits 12-13) | src mode 3 (bits 14-15) = 0xDC61, sent LE. */
    const uint8_t expect_mhr[21] = {0x61, 0xDC, 0x42, 0xCD, 0xAB, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22,
                                    0x11, 0x00, 0xFF, 0xEE, 0xDD, 0xCC, 0xBB, 0xAA, 0x99, 0x88};
    uint8_t psdu[127];
    size_t len;
    uint16_t fcs;
    (void)state;
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 3, NULL), PQPAN_OK);
    assert_int_equal(len, 21 + 3 + 2);
    assert_memory_equal(psdu, expect_mhr, 21);
    assert_memory_equal(psdu + 21, payload, 3);
    fcs = pqpan_802154_mac_fcs(psdu, 24);
    assert_int_equal(psdu[24], fcs & 0xFF);
    assert_int_equal(psdu[25], fcs >> 8);

    h = data_mhr(short_addr(0xFFFF), short_addr(0x0001));
    h.ack_request = 0;
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 0, NULL), PQPAN_OK);
    /* 0x9841: type 1, PAN ID comp, dst short, version 1, src short. */
    assert_int_equal(psdu[0], 0x41);
    assert_int_equal(psdu[1], 0x98);
    assert_int_equal(len, 11);
}

static void test_build_rejects(void **state)
{
    struct pqpan_802154_mhr h = data_mhr(ext_addr(1), ext_addr(2));
    uint8_t psdu[127], payload[105];
    size_t len = 99;
    (void)state;
    memset(payload, 0, sizeof payload);
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 105, NULL),
                     PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(len, 0);
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 104, NULL), PQPAN_OK);
    assert_int_equal(len, 127);
    assert_int_equal(pqpan_802154_mac_build(psdu, 126, &len, &h, payload, 104, NULL),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    h.security = 1;
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 1, NULL),
                     PQPAN_ERR_INVALID_ARG);
}

static void roundtrip(struct pqpan_802154_mhr h, size_t payload_len)
{
    uint8_t psdu[127], payload[127];
    struct pqpan_802154_frame f;
    size_t len, i;
    for (i = 0; i < payload_len; i++) {
        payload[i] = (uint8_t)(i * 13 + 5);
    }
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, payload_len, NULL),
                     PQPAN_OK);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_OK);
    assert_int_equal(f.mhr.frame_type, h.frame_type);
    assert_int_equal(f.mhr.frame_version, h.frame_version);
    assert_int_equal(f.mhr.ack_request, h.ack_request);
    assert_int_equal(f.mhr.pan_id_compression, h.pan_id_compression);
    assert_int_equal(f.mhr.seq, h.seq);
    assert_int_equal(f.mhr.dst.mode, h.dst.mode);
    assert_int_equal(f.mhr.src.mode, h.src.mode);
    assert_true(f.mhr.dst.ext_addr == h.dst.ext_addr);
    assert_true(f.mhr.src.ext_addr == h.src.ext_addr);
    assert_int_equal(f.mhr.dst.short_addr, h.dst.short_addr);
    assert_int_equal(f.mhr.src.short_addr, h.src.short_addr);
    if (h.dst.mode != PQPAN_802154_ADDR_NONE) {
        assert_int_equal(f.mhr.dst_pan, h.dst_pan);
    }
    if (h.src.mode != PQPAN_802154_ADDR_NONE) {
        assert_int_equal(f.mhr.src_pan, h.src_pan);
    }
    assert_int_equal(f.mhr_len, pqpan_802154_mac_mhr_len(&h));
    assert_int_equal(f.payload_len, payload_len);
    assert_memory_equal(psdu + f.payload_off, payload, payload_len);
}

static void test_parse_roundtrips(void **state)
{
    struct pqpan_802154_mhr h;
    (void)state;
    roundtrip(data_mhr(ext_addr(0x00124B0000000001ull), ext_addr(0x00124B0000000002ull)), 104);
    roundtrip(data_mhr(short_addr(0x1234), short_addr(0xBEEF)), 0);
    roundtrip(data_mhr(short_addr(0x1234), ext_addr(7)), 50);
    h = data_mhr(ext_addr(9), short_addr(3));
    h.pan_id_compression = 0;
    h.src_pan = 0x1111;
    h.ack_request = 0;
    h.frame_version = 0;
    roundtrip(h, 17);
    memset(&h.src, 0, sizeof h.src);
    roundtrip(h, 3);
}

static void test_parse_ack(void **state)
{
    uint8_t ack[PQPAN_802154_ACK_PSDU];
    struct pqpan_802154_frame f;
    (void)state;
    pqpan_802154_mac_build_ack(ack, 0x9A, 0);
    assert_int_equal(pqpan_802154_mac_parse(&f, ack, sizeof ack), PQPAN_OK);
    assert_int_equal(f.mhr.frame_type, PQPAN_802154_FRAME_ACK);
    assert_int_equal(f.mhr.seq, 0x9A);
    assert_int_equal(f.payload_len, 0);
}

static void test_parse_rejects(void **state)
{
    struct pqpan_802154_mhr h = data_mhr(ext_addr(1), ext_addr(2));
    uint8_t psdu[128], payload[8] = {0};
    struct pqpan_802154_frame f;
    size_t len;
    uint16_t fcs;
    (void)state;
    assert_int_equal(pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, payload, 8, NULL), PQPAN_OK);
    psdu[5] ^= 0x01; /* any bit error breaks the FCS */
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_ERR_MALFORMED);
    assert_int_equal(f.mhr.seq, 0);
    psdu[5] ^= 0x01;
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, 4), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, 128), PQPAN_ERR_MALFORMED);
    /* Frame version 2 (IEEE 802.15.4-2015 rules), FCS fixed up: unsupported. */
    psdu[1] = (uint8_t)((psdu[1] & ~0x30u) | 0x20u);
    fcs = pqpan_802154_mac_fcs(psdu, len - 2);
    psdu[len - 2] = (uint8_t)fcs;
    psdu[len - 1] = (uint8_t)(fcs >> 8);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, len), PQPAN_ERR_UNSUPPORTED);
    /* Header longer than the frame: 2006 data frame, both extended, only 10 octets. */
    pqpan_802154_mac_build_ack(psdu, 1, 0);
    psdu[0] = 0x41;
    psdu[1] = 0xDC;
    fcs = pqpan_802154_mac_fcs(psdu, 8);
    psdu[8] = (uint8_t)fcs;
    psdu[9] = (uint8_t)(fcs >> 8);
    assert_int_equal(pqpan_802154_mac_parse(&f, psdu, 10), PQPAN_ERR_MALFORMED);
}

static void test_ack_wait_duration(void **state)
{
    (void)state;
    /* 20 + 12 + 10 + 6 x 2 = 54 symbols x 16 µs = 864 µs. */
    assert_int_equal(PQPAN_802154_ACK_WAIT_SYMBOLS, 54);
    assert_int_equal(pqpan_802154_mac_ack_wait_ns(), 864000);
}

static void test_ifs(void **state)
{
    (void)state;
    /* SIFS 12 symbols up to 18 octets, LIFS 40 symbols above. */
    assert_int_equal(pqpan_802154_mac_ifs_ns(5), 192000);
    assert_int_equal(pqpan_802154_mac_ifs_ns(18), 192000);
    assert_int_equal(pqpan_802154_mac_ifs_ns(19), 640000);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fcs_check_value),
        cmocka_unit_test(test_fcs_residue_of_frame_is_zero),
        cmocka_unit_test(test_ack_frame_bytes),
        cmocka_unit_test(test_header_lengths),
        cmocka_unit_test(test_build_data_frame_bytes),
        cmocka_unit_test(test_build_rejects),
        cmocka_unit_test(test_parse_roundtrips),
        cmocka_unit_test(test_parse_ack),
        cmocka_unit_test(test_parse_rejects),
        cmocka_unit_test(test_ack_wait_duration),
        cmocka_unit_test(test_ifs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
