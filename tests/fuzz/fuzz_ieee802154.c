/* Fuzzes the IEEE 802.15.4 MAC frame parser (auxiliary security header included), the
 * opening of secured frames (CCM* with the simulator's key, sim154.h), 6LoWPAN IPHC
 * decompression, RFC 4944 reassembly and IPv6 reassembly (RFC 8200 §4.5). Input: a
 * sequence of records [len:1][PSDU:len]; each PSDU whose FCS is wrong gets it fixed up (so
 * the fuzzer reaches the header parsers), is parsed, opened if secured (a frame whose MIC
 * fails must come back unchanged), and its payload is fed to one reassembly context with a
 * small timeout.
 * Every completed datagram must be self-consistent (IPv6 payload length = size - 40); it
 * is then fed to an IPv6 reassembly context, whose completed packets must be too. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "pqpan/ieee802154.h"
#include "pqpan/sim154.h"

/* Opens a secured frame in place with the simulator's key and the source's extended
 * address (0 for a short one); 0 if it does not verify. */
static int open_secured(uint8_t *psdu, size_t len, const struct pqpan_802154_frame *f)
{
    struct pqpan_802154_keying k;
    uint8_t before[PQPAN_802154_MAX_PSDU];
    unsigned i;
    int rc;
    for (i = 0; i < PQPAN_802154_KEY_OCTETS; i++) {
        k.key[i] = (uint8_t)(PQPAN_SIM154_KEY_FIRST_OCTET + i);
    }
    k.src_ext = f->mhr.src.ext_addr;
    memcpy(before, psdu, len);
    rc = pqpan_802154_mac_unsecure(psdu, len, f, &k);
    if (rc != PQPAN_OK && memcmp(before, psdu, len) != 0) {
        __builtin_trap();
    }
    return rc == PQPAN_OK;
}

/* A packet whose IPv6 Payload Length says its size. */
static void check_ipv6(const uint8_t *p, size_t len)
{
    if (len < 40 || (size_t)((p[4] << 8) | p[5]) != len - 40) {
        __builtin_trap();
    }
}

/* A completed 6LoWPAN datagram through IPv6 reassembly. */
static void feed_ipv6(const uint8_t *dgram, size_t len, uint64_t t_ns)
{
    static struct pqpan_ipv6frag_reasm r;
    static uint8_t pkt[PQPAN_IPV6_HDR_OCTETS + PQPAN_IPV6_PAYLOAD_MAX];
    static int ready;
    size_t got = 0;
    if (!ready) {
        pqpan_ipv6frag_reasm_init(&r, 50000000u);
        ready = 1;
    }
    if (pqpan_ipv6frag_reasm_input(&r, pkt, sizeof pkt, &got, dgram, len, t_ns) == PQPAN_OK &&
        got != 0) {
        check_ipv6(pkt, got);
    }
}

static void feed(struct pqpan_6lowpan_reasm *r, uint8_t *buf, size_t cap, uint8_t *psdu,
                 size_t len, uint64_t t_ns)
{
    struct pqpan_802154_frame f;
    uint8_t hdr[48];
    size_t got = 0, ulen, consumed;
    if (pqpan_802154_mac_parse(&f, psdu, len) != PQPAN_OK) {
        return;
    }
    if (f.mhr.security && !open_secured(psdu, len, &f)) {
        return;
    }
    if (f.payload_len == 0) {
        return;
    }
    (void)pqpan_6lowpan_decompress(hdr, sizeof hdr, &ulen, &consumed, psdu + f.payload_off,
                                   f.payload_len, &f.mhr.src, &f.mhr.dst, 0);
    if (pqpan_6lowpan_reasm_input(r, buf, cap, &got, psdu + f.payload_off, f.payload_len,
                                  &f.mhr.src, &f.mhr.dst, t_ns) == PQPAN_OK &&
        got != 0) {
        check_ipv6(buf, got);
        feed_ipv6(buf, got, t_ns);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[PQPAN_6LOWPAN_MAX_DATAGRAM + 1];
    uint8_t psdu[PQPAN_802154_MAX_PSDU];
    struct pqpan_6lowpan_reasm r;
    size_t off = 0, len;
    uint16_t fcs;
    uint64_t t = 0;
    pqpan_6lowpan_reasm_init(&r, 50000000u);
    while (off < size) {
        len = data[off++] & 0x7Fu;
        if (len > size - off) {
            len = size - off;
        }
        memcpy(psdu, data + off, len);
        off += len;
        if (len >= 2 && (len & 1u)) {
            fcs = pqpan_802154_mac_fcs(psdu, len - 2);
            psdu[len - 2] = (uint8_t)fcs;
            psdu[len - 1] = (uint8_t)(fcs >> 8);
        }
        feed(&r, buf, sizeof buf, psdu, len, t);
        t += 10000000u;
    }
    return 0;
}
