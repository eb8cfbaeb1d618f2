/* simulate --link ble-mesh --pcap: the packets of the simulated provisioning, kept as the
 * simulator gives them and written sorted by time (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_model.h"
#include "outfile.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/pcap.h"

#define CMD "simulate"

/* The records of the run, written sorted by time when it ends: the simulator books a
 * transaction's segments, then the peer's Acks, so its PDUs arrive out of time order. */
struct record {
    uint64_t t_ns;
    uint32_t seq, len;
    uint8_t bytes[PQPAN_PCAP_BLE_RECORD_MAX];
};

struct mesh_capture {
    struct cli_outfile file; /* file.f NULL: no --pcap */
    struct pqpan_pcap_writer w;
    struct record *v;
    size_t n, cap;
};

static int file_write(void *ctx, const uint8_t *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

static struct record *next_record(struct mesh_capture *c)
{
    if (c->n == c->cap) {
        size_t cap = c->cap ? 2 * c->cap : 1024;
        struct record *v = realloc(c->v, cap * sizeof *v);
        if (v == NULL) {
            return NULL;
        }
        c->v = v;
        c->cap = cap;
    }
    return &c->v[c->n++];
}

/* The capture is the receiver's view: the copy of each event on the mean channel, the one
 * the peer takes (the estimator's rule, PQPAN_BLE_ADV_MEAN_CHANNEL). A sniffer on one
 * channel records the same; all three copies would make tshark's reassembly see every
 * segment three times ("New fragment overlaps old data"). Channel index 38 is RF channel
 * 12, 2426 MHz (Core v5.4 Vol 6 Part A §2), the pseudo-header's RF channel. */
#define CAPTURE_CHANNEL PQPAN_BLE_ADV_MEAN_CHANNEL
#define CAPTURE_RF_CHANNEL 12u

int mesh_capture_ll(void *ctx, uint64_t t_ns, const struct pqpan_pcap_ble_info *info,
                    const uint8_t *pdu, size_t len)
{
    struct mesh_capture *c = ctx;
    struct record *r = next_record(c);
    size_t n;
    if (r == NULL || pqpan_pcap_ble_record(r->bytes, sizeof r->bytes, info, pdu, len, &n) !=
                         PQPAN_OK) {
        return -1;
    }
    r->t_ns = t_ns;
    r->seq = (uint32_t)c->n;
    r->len = (uint32_t)n;
    return 0;
}

/* One ADV_NONCONN_IND as recorded on the advertising access address. */
int mesh_capture_packet(void *ctx, uint64_t t_ns, uint8_t channel, const uint8_t *pdu, size_t len)
{
    struct pqpan_pcap_ble_info info;
    if (channel != CAPTURE_CHANNEL) {
        return 0;
    }
    memset(&info, 0, sizeof info);
    info.rf_channel = CAPTURE_RF_CHANNEL;
    info.pdu_type = PQPAN_PCAP_BLE_ADV;
    info.crc_valid = 1;
    info.access_address = PQPAN_LL_ADV_AA;
    return mesh_capture_ll(ctx, t_ns, &info, pdu, len);
}

static int by_time(const void *a, const void *b)
{
    const struct record *x = a, *y = b;
    if (x->t_ns != y->t_ns) {
        return x->t_ns < y->t_ns ? -1 : 1;
    }
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sorts and writes the records; EXIT_OK or EXIT_IO (message printed). */
static int write_capture(struct mesh_capture *c)
{
    size_t i;
    qsort(c->v, c->n, sizeof *c->v, by_time);
    errno = 0;
    for (i = 0; i < c->n; i++) {
        if (pqpan_pcap_write_packet(&c->w, c->v[i].t_ns, c->v[i].bytes, c->v[i].len) != PQPAN_OK) {
            cli_outfile_failed(&c->file);
            break;
        }
    }
    return cli_outfile_close(&c->file, CMD, 1);
}

int mesh_capture_open(struct mesh_capture **out, const char *path)
{
    struct mesh_capture *c = calloc(1, sizeof *c);
    int rc;
    *out = NULL;
    if (c == NULL) {
        return EXIT_IO;
    }
    rc = cli_outfile_open(&c->file, CMD, path);
    if (rc == EXIT_OK &&
        pqpan_pcap_writer_init(&c->w, file_write, c->file.f,
                               PQPAN_PCAP_LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR, 1) != PQPAN_OK) {
        cli_outfile_failed(&c->file);
        (void)cli_outfile_close(&c->file, CMD, 0);
        rc = EXIT_IO;
    }
    if (rc != EXIT_OK) {
        free(c);
        return rc;
    }
    *out = c;
    return EXIT_OK;
}

int mesh_capture_close(struct mesh_capture *c, int keep)
{
    int rc = keep ? write_capture(c) : cli_outfile_close(&c->file, CMD, 0);
    free(c->v);
    free(c);
    return rc;
}
