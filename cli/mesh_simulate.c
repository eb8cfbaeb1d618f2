/* pqpan simulate --link ble-mesh: BLE Mesh provisioning over PB-ADV executed by the
 * library's simulator (pqpan_mesh_pbadv_simulate: real PDUs, keys and crypto), rows as
 * `estimate --link ble-mesh` prints them plus whether both sides hold equal keys; --pcap
 * writes every advertising PDU (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR). Parse and print only. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "mesh_model.h"
#include "outfile.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/pcap.h"

#define CMD "simulate"

struct mesh_sim_opts {
    unsigned long long seed;
    const char *pcap;
};

#define MSIM(m) offsetof(struct mesh_sim_opts, m)

static const struct cli_opt msim_rows[] = {
    {.name = "--seed", .kind = CLI_OPT_UINT, .meta = "S", .min = 0, .max = (double)ULLONG_MAX,
     .def = PQPAN_DEFAULT_SEED, .store = CLI_STORE_ULL, .offset = MSIM(seed),
     .help = "the random source of the keys, Randoms, Link ID, UUID and NetKey"},
    {.name = "--pcap", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = MSIM(pcap),
     .help = "every advertising event's PDU as the peer receives it (on channel 38, the "
             "mean channel), LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256)"},
};

static void init_msim(void *o)
{
    memset(o, 0, sizeof(struct mesh_sim_opts));
}

static const struct cli_opt_table msim_table =
    CLI_OPT_TABLE("ble-mesh-simulate", "simulate --link ble-mesh options", msim_rows,
                  struct mesh_sim_opts, init_msim);

/* The records of the run, written sorted by time when it ends: the simulator books a
 * transaction's segments, then the peer's Acks, so its PDUs arrive out of time order. */
struct record {
    uint64_t t_ns;
    uint32_t seq, len;
    uint8_t bytes[PQPAN_PCAP_BLE_RECORD_MAX];
};

struct capture {
    struct cli_outfile file; /* file.f NULL: no --pcap */
    struct pqpan_pcap_writer w;
    struct record *v;
    size_t n, cap;
};

static int file_write(void *ctx, const uint8_t *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

static struct record *next_record(struct capture *c)
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

/* One ADV_NONCONN_IND as recorded on the advertising access address. */
static int on_packet(void *ctx, uint64_t t_ns, uint8_t channel, const uint8_t *pdu, size_t len)
{
    struct capture *c = ctx;
    struct pqpan_pcap_ble_info info;
    struct record *r;
    size_t n;
    if (channel != CAPTURE_CHANNEL) {
        return 0;
    }
    r = next_record(c);
    if (r == NULL) {
        return -1;
    }
    memset(&info, 0, sizeof info);
    info.rf_channel = CAPTURE_RF_CHANNEL;
    info.pdu_type = PQPAN_PCAP_BLE_ADV;
    info.crc_valid = 1;
    info.access_address = PQPAN_LL_ADV_AA;
    if (pqpan_pcap_ble_record(r->bytes, sizeof r->bytes, &info, pdu, len, &n) != PQPAN_OK) {
        return -1;
    }
    r->t_ns = t_ns;
    r->seq = (uint32_t)c->n;
    r->len = (uint32_t)n;
    return 0;
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
static int write_capture(struct capture *c)
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

static int parse_args(struct mesh_opts *o, struct model_opts *m, struct mesh_sim_opts *s,
                      int argc, char **argv)
{
    int i;
    mesh_opts_init(o);
    model_opts_init(m);
    cli_opt_table_defaults(&msim_table, s);
    for (i = 1; i < argc; i++) {
        int rc = model_opts_parse(m, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = cli_opt_take(&msim_table, s, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = mesh_opts_parse(o, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_usage_error(CMD, "unknown option for --link ble-mesh '%s'", argv[i]);
        }
    }
    if (o->bearer == MESH_BEARER_PB_GATT) {
        return cli_usage_error(CMD, "--bearer pb-gatt is estimated only (pqpan estimate --link "
                                    "ble-mesh --bearer pb-gatt); simulate runs pb-adv");
    }
    return mesh_opts_check(o, CMD);
}

static int open_capture(struct capture *c, const char *path)
{
    int rc = cli_outfile_open(&c->file, CMD, path);
    if (rc == EXIT_OK &&
        pqpan_pcap_writer_init(&c->w, file_write, c->file.f,
                               PQPAN_PCAP_LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR, 1) != PQPAN_OK) {
        cli_outfile_failed(&c->file);
        (void)cli_outfile_close(&c->file, CMD, 0);
        return EXIT_IO;
    }
    return rc;
}

int mesh_simulate_run(int argc, char **argv)
{
    static struct mesh_result r;
    struct mesh_opts o;
    struct model_opts m;
    struct mesh_sim_opts so;
    struct mesh_sim_info info;
    struct model_env *env = NULL;
    struct capture cap;
    struct cli_msg msg;
    int rc = parse_args(&o, &m, &so, argc, argv);
    memset(&cap, 0, sizeof cap);
    memset(&info, 0, sizeof info);
    info.seed = so.seed;
    if (rc == EXIT_OK) {
        rc = model_env_new(&env, &m, CMD);
    }
    if (rc == EXIT_OK && so.pcap != NULL) {
        rc = open_capture(&cap, so.pcap);
    }
    if (rc == EXIT_OK) {
        rc = cli_msg_report(CMD, mesh_simulate(&r, &info, env, &o,
                                               so.pcap != NULL ? on_packet : NULL, &cap, &msg),
                            &msg);
    }
    if (rc == EXIT_OK && cap.file.f != NULL) {
        rc = write_capture(&cap);
    } else if (cap.file.f != NULL) {
        (void)cli_outfile_close(&cap.file, CMD, 0);
    }
    if (rc == EXIT_OK) {
        mesh_print(&o, env, &r, m.format, CMD, &info);
        if (!info.keys_equal) {
            fprintf(stderr, "pqpan %s: the provisioning ended without equal keys\n", CMD);
            rc = EXIT_FAILURE_RUN;
        }
    }
    free(cap.v);
    free(env);
    return rc;
}
