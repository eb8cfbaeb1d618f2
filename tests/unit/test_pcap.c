/* Tests for src/io/pcap.c: header layout per pcap-savefile(5), written through a callback. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pqpan/pcap.h"

struct sink {
    uint8_t b[256];
    size_t len;
    int fail_after; /* calls allowed before failing; negative = never fail */
};

static int sink_write(void *ctx, const uint8_t *data, size_t len)
{
    struct sink *s = (struct sink *)ctx;
    if (s->fail_after == 0 || s->len + len > sizeof s->b) {
        return -1;
    }
    if (s->fail_after > 0) {
        s->fail_after--;
    }
    memcpy(s->b + s->len, data, len);
    s->len += len;
    return 0;
}

static void test_global_header_bytes(void **state)
{
    uint8_t h[24];
    const uint8_t expect_us[24] = {0xD4, 0xC3, 0xB2, 0xA1, 2, 0, 4, 0, 0, 0, 0, 0,
                                   0,    0,    0,    0,    0xFF, 0xFF, 0, 0, 195, 0, 0, 0};
    (void)state;
    pqpan_pcap_global_header(h, PQPAN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS, 0);
    assert_memory_equal(h, expect_us, 24);
    pqpan_pcap_global_header(h, PQPAN_PCAP_LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR, 1);
    assert_int_equal(h[0], 0x4D);
    assert_int_equal(h[1], 0x3C);
    assert_int_equal(h[20], 0x00);
    assert_int_equal(h[21], 0x01); /* 256 */
}

static void test_record_header_bytes(void **state)
{
    uint8_t h[16];
    (void)state;
    /* 3.000123456 s: µs file -> 3 s, 123 µs; ns file -> 3 s, 123456 ns. */
    assert_int_equal(pqpan_pcap_record_header(h, 3000123456ull, 127, 0), PQPAN_OK);
    assert_int_equal(h[0], 3);
    assert_int_equal(h[4], 123);
    assert_int_equal(h[8], 127);
    assert_int_equal(h[12], 127);
    assert_int_equal(pqpan_pcap_record_header(h, 3000123456ull, 5, 1), PQPAN_OK);
    assert_int_equal(h[4] | h[5] << 8 | h[6] << 16, 123456);
    assert_int_equal(pqpan_pcap_record_header(h, 0, 70000, 1), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(h[8], 0);
}

static void test_writer_through_callback(void **state)
{
    struct sink s;
    struct pqpan_pcap_writer w;
    const uint8_t pkt[5] = {2, 0, 7, 0xAA, 0xBB};
    (void)state;
    memset(&s, 0, sizeof s);
    s.fail_after = -1;
    assert_int_equal(pqpan_pcap_writer_init(&w, sink_write, &s, 195, 0), PQPAN_OK);
    assert_int_equal(pqpan_pcap_write_packet(&w, 1500, pkt, sizeof pkt), PQPAN_OK);
    assert_int_equal(s.len, 24 + 16 + 5);
    assert_int_equal(s.b[24 + 4], 1); /* 1500 ns -> 1 µs */
    assert_memory_equal(s.b + 40, pkt, 5);
    assert_int_equal(w.packets, 1);
    s.fail_after = 1;
    assert_int_equal(pqpan_pcap_write_packet(&w, 0, pkt, sizeof pkt), PQPAN_ERR_IO);
    s.fail_after = 0;
    assert_int_equal(pqpan_pcap_writer_init(&w, sink_write, &s, 195, 0), PQPAN_ERR_IO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_global_header_bytes),
        cmocka_unit_test(test_record_header_bytes),
        cmocka_unit_test(test_writer_through_callback),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
