/* Classic pcap writer (pcap-savefile(5)): global header, then per packet a record header
 * and the packet bytes. */
#include <string.h>

#include "pqpan/pcap.h"

#define VERSION_MAJOR 2u
#define VERSION_MINOR 4u

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static void put_le16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

/* magic, version 2.4, thiszone 0, sigfigs 0, snaplen, network (link type). */
void pqpan_pcap_global_header(uint8_t out[PQPAN_PCAP_GLOBAL_HDR_OCTETS], uint32_t linktype,
                              int nanosecond)
{
    put_le32(out, nanosecond ? PQPAN_PCAP_MAGIC_NS : PQPAN_PCAP_MAGIC_US);
    put_le16(out + 4, VERSION_MAJOR);
    put_le16(out + 6, VERSION_MINOR);
    put_le32(out + 8, 0);
    put_le32(out + 12, 0);
    put_le32(out + 16, PQPAN_PCAP_SNAPLEN);
    put_le32(out + 20, linktype);
}

/* ts_sec, ts_usec (or ts_nsec), incl_len, orig_len. */
int pqpan_pcap_record_header(uint8_t out[PQPAN_PCAP_RECORD_HDR_OCTETS], uint64_t t_ns,
                             size_t len, int nanosecond)
{
    uint64_t sec = t_ns / 1000000000u, frac = t_ns % 1000000000u;
    if (out == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, PQPAN_PCAP_RECORD_HDR_OCTETS);
    if (sec > 0xFFFFFFFFu || len > PQPAN_PCAP_SNAPLEN) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    put_le32(out, (uint32_t)sec);
    put_le32(out + 4, (uint32_t)(nanosecond ? frac : frac / 1000u));
    put_le32(out + 8, (uint32_t)len);
    put_le32(out + 12, (uint32_t)len);
    return PQPAN_OK;
}

int pqpan_pcap_writer_init(struct pqpan_pcap_writer *w, pqpan_pcap_write_fn write, void *ctx,
                           uint32_t linktype, int nanosecond)
{
    uint8_t hdr[PQPAN_PCAP_GLOBAL_HDR_OCTETS];
    if (w == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(w, 0, sizeof *w);
    if (write == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    pqpan_pcap_global_header(hdr, linktype, nanosecond);
    if (write(ctx, hdr, sizeof hdr) != 0) {
        return PQPAN_ERR_IO;
    }
    w->write = write;
    w->ctx = ctx;
    w->linktype = linktype;
    w->nanosecond = nanosecond ? 1 : 0;
    return PQPAN_OK;
}

int pqpan_pcap_write_packet(struct pqpan_pcap_writer *w, uint64_t t_ns, const uint8_t *data,
                            size_t len)
{
    uint8_t hdr[PQPAN_PCAP_RECORD_HDR_OCTETS];
    int rc;
    if (w == 0 || w->write == 0 || (data == 0 && len != 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_pcap_record_header(hdr, t_ns, len, w->nanosecond);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (w->write(w->ctx, hdr, sizeof hdr) != 0 || (len != 0 && w->write(w->ctx, data, len) != 0)) {
        return PQPAN_ERR_IO;
    }
    w->packets++;
    return PQPAN_OK;
}
