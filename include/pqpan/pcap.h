/* Classic libpcap capture files (the "pcap" format, version 2.4), written through a
 * caller callback or into caller buffers: the library does no file I/O. Multi-octet
 * header fields are written little-endian; readers detect the byte order from the magic.
 * Format: https://www.tcpdump.org/manpages/pcap-savefile.5.txt; link types:
 * https://www.tcpdump.org/linktypes.html. */
#ifndef PQPAN_PCAP_H
#define PQPAN_PCAP_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"

#define PQPAN_PCAP_GLOBAL_HDR_OCTETS 24u
#define PQPAN_PCAP_RECORD_HDR_OCTETS 16u
/* Magic numbers: timestamps in microseconds or nanoseconds. */
#define PQPAN_PCAP_MAGIC_US 0xA1B2C3D4u
#define PQPAN_PCAP_MAGIC_NS 0xA1B23C4Du
#define PQPAN_PCAP_SNAPLEN 65535u
/* IEEE 802.15.4 PSDU including the 2-octet FCS. */
#define PQPAN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS 195u
/* Bluetooth LE link layer with a pseudo-header. */
#define PQPAN_PCAP_LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR 256u

/* Receives out[0..len); returns 0 on success, non-zero on failure. */
typedef int (*pqpan_pcap_write_fn)(void *ctx, const uint8_t *data, size_t len);

struct pqpan_pcap_writer {
    pqpan_pcap_write_fn write;
    void *ctx;
    uint32_t linktype;
    uint8_t nanosecond;
    uint32_t packets;
};

/* The 24-octet global header. */
void pqpan_pcap_global_header(uint8_t out[PQPAN_PCAP_GLOBAL_HDR_OCTETS], uint32_t linktype,
                              int nanosecond);

/* The 16-octet record header for a packet of len octets captured at t_ns. */
PQPAN_MUST_CHECK int pqpan_pcap_record_header(uint8_t out[PQPAN_PCAP_RECORD_HDR_OCTETS],
                                              uint64_t t_ns, size_t len, int nanosecond);

/* Sets up w and writes the global header through write(ctx, ...). */
PQPAN_MUST_CHECK int pqpan_pcap_writer_init(struct pqpan_pcap_writer *w, pqpan_pcap_write_fn write,
                                            void *ctx, uint32_t linktype, int nanosecond);

/* Writes one packet record (header + data) captured at t_ns. */
PQPAN_MUST_CHECK int pqpan_pcap_write_packet(struct pqpan_pcap_writer *w, uint64_t t_ns,
                                             const uint8_t *data, size_t len);

#endif
