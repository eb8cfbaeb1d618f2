/* Writes a pcap (LINKTYPE_IEEE802_15_4_WITHFCS) of the PQKE's UDP datagrams over 6LoWPAN
 * on IEEE 802.15.4: every datagram compressed (IPHC + NHC UDP), fragmented (RFC 4944),
 * framed with FCS, each frame acknowledged by an Imm-Ack, frames spaced by unslotted
 * CSMA-CA on an idle channel. Before writing, it checks its own output: every frame
 * parses, reassembly gives back the datagram, and the planner predicted the same frames.
 * Message sizes are pqke.h's (docs/PROTOCOL.md §2.5): INIT, RESP and FIN of each suite.
 *
 * usage: ieee802154_exchange OUT.pcap [ns]
 * stdout: one line per datagram: "<udp_payload_octets> <frames>".
 *
 * usage: ieee802154_exchange OUT.pcap sim SEED LEVEL
 * writes the air of one seeded run of the 802.15.4 packet simulator instead (src/sim/
 * net154.c: the real PQKE of ML-KEM-LEVEL, 10 nodes, 8 of them sending 127-octet
 * broadcasts at 10 frames/s); stdout: "<status> <datagrams lost> <frames on air>". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/ieee802154.h"
#include "pqpan/pcap.h"
#include "pqpan/pqke.h"
#include "pqpan/sim154.h"

#define MAX_FRAMES 32

struct run {
    struct pqpan_pcap_writer pcap;
    uint64_t t_ns;
    uint64_t rng_state;
    uint8_t seq;
    uint16_t tag;
};

static int file_write(void *ctx, const uint8_t *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

/* splitmix64, seeded: the CSMA-CA backoff draws. */
static int rng_bytes(void *ctx, uint8_t *out, size_t len)
{
    uint64_t *s = (uint64_t *)ctx, z;
    size_t i;
    for (i = 0; i < len; i++) {
        z = (*s += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        out[i] = (uint8_t)((z ^ (z >> 31)) >> 56);
    }
    return 0;
}

static int channel_idle(void *ctx, uint64_t t_ns)
{
    (void)ctx;
    (void)t_ns;
    return 0;
}

static void pcap_frame(void *ctx, uint64_t t_ns, const uint8_t *psdu, size_t len)
{
    if (pqpan_pcap_write_packet((struct pqpan_pcap_writer *)ctx, t_ns, psdu, len) != PQPAN_OK) {
        fprintf(stderr, "ieee802154_exchange: pcap write failed\n");
    }
}

static int fail(const char *what, int rc)
{
    fprintf(stderr, "ieee802154_exchange: %s: %s\n", what, pqpan_strerror(rc));
    return 1;
}

/* CSMA-CA, data frame, turnaround, Imm-Ack; returns 0 or 1 (error printed). */
static int send_frame(struct run *r, const struct pqpan_802154_link_cfg *c, const uint8_t *lowpan,
                      size_t lowpan_len, uint8_t psdu[PQPAN_802154_MAX_PSDU], size_t *psdu_len)
{
    struct pqpan_802154_csma_params cp = pqpan_802154_csma_ieee();
    struct pqpan_802154_csma_result cr;
    struct pqpan_802154_mhr h;
    uint8_t ack[PQPAN_802154_ACK_PSDU];
    int rc;
    rc = pqpan_802154_csma_run(&cr, &cp, rng_bytes, &r->rng_state, channel_idle, 0, r->t_ns);
    if (rc != PQPAN_OK || !cr.success) {
        return fail("csma", rc);
    }
    r->t_ns = cr.tx_start_ns;
    pqpan_802154_plan_mhr(&h, c, r->seq);
    rc = pqpan_802154_mac_build(psdu, PQPAN_802154_MAX_PSDU, psdu_len, &h, lowpan, lowpan_len, NULL);
    if (rc == PQPAN_OK) {
        rc = pqpan_pcap_write_packet(&r->pcap, r->t_ns, psdu, *psdu_len);
    }
    if (rc != PQPAN_OK) {
        return fail("data frame", rc);
    }
    r->t_ns += pqpan_802154_phy_ppdu_ns(*psdu_len) + PQPAN_802154_TURNAROUND_NS;
    pqpan_802154_mac_build_ack(ack, r->seq, 0);
    rc = pqpan_pcap_write_packet(&r->pcap, r->t_ns, ack, sizeof ack);
    if (rc != PQPAN_OK) {
        return fail("ack frame", rc);
    }
    r->t_ns += pqpan_802154_phy_ppdu_ns(sizeof ack) + pqpan_802154_mac_ifs_ns(*psdu_len);
    r->seq++;
    return 0;
}

/* Receiver-side self-check of one sent frame: parse, reassemble. */
static int receive_frame(struct pqpan_6lowpan_reasm *ra, uint8_t *buf, size_t cap, size_t *got,
                         const uint8_t *psdu, size_t psdu_len, uint64_t t_ns)
{
    struct pqpan_802154_frame f;
    int rc = pqpan_802154_mac_parse(&f, psdu, psdu_len);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_reasm_input(ra, buf, cap, got, psdu + f.payload_off, f.payload_len,
                                       &f.mhr.src, &f.mhr.dst, t_ns);
    }
    return rc == PQPAN_OK ? 0 : fail("receive", rc);
}

static int send_datagram(struct run *r, const struct pqpan_802154_link_cfg *c, size_t udp_len)
{
    static uint8_t payload[2048], dgram[2100], rebuilt[2100];
    uint8_t comp[PQPAN_6LOWPAN_MAX_COMP_HDR], lowpan[PQPAN_802154_MAX_PSDU], psdu[PQPAN_802154_MAX_PSDU];
    struct pqpan_6lowpan_udp_spec s;
    struct pqpan_6lowpan_frag f;
    struct pqpan_6lowpan_reasm ra;
    struct pqpan_802154_plan plan;
    struct pqpan_802154_frame_plan fp[MAX_FRAMES];
    struct pqpan_802154_mhr h;
    size_t i, len, clen, ulen, count, lowpan_len, psdu_len, got = 0;
    int rc;
    for (i = 0; i < udp_len; i++) {
        payload[i] = (uint8_t)(i * 7 + udp_len);
    }
    pqpan_802154_link_udp_spec(&s, c);
    pqpan_802154_plan_mhr(&h, c, 0);
    rc = pqpan_6lowpan_build_udp(dgram, sizeof dgram, &len, &s, payload, udp_len);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_compress(comp, sizeof comp, &clen, &ulen, dgram, len, &c->src, &c->dst,
                                    c->nhc_udp);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_frag_count(&count, clen, ulen, len - ulen, pqpan_802154_mac_max_payload(&h));
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_802154_plan_udp(&plan, fp, MAX_FRAMES, c, udp_len);
    }
    if (rc != PQPAN_OK) {
        return fail("datagram", rc);
    }
    if (plan.frames != count) {
        fprintf(stderr, "planner says %zu frames, framing gives %zu\n", plan.frames, count);
        return 1;
    }
    pqpan_6lowpan_reasm_init(&ra, PQPAN_6LOWPAN_REASM_TIMEOUT_NS);
    for (i = 0; i < count; i++) {
        rc = pqpan_6lowpan_frag_piece(&f, i, clen, ulen, len - ulen, pqpan_802154_mac_max_payload(&h));
        if (rc == PQPAN_OK) {
            rc = pqpan_6lowpan_frag_write(lowpan, sizeof lowpan, &lowpan_len, &f, len, r->tag, comp,
                                          dgram + ulen);
        }
        if (rc != PQPAN_OK) {
            return fail("fragment", rc);
        }
        if (send_frame(r, c, lowpan, lowpan_len, psdu, &psdu_len) != 0 ||
            receive_frame(&ra, rebuilt, sizeof rebuilt, &got, psdu, psdu_len, r->t_ns) != 0) {
            return 1;
        }
        if (psdu_len != fp[i].psdu_octets) {
            fprintf(stderr, "frame %zu: planner %u octets, framing %zu\n", i, fp[i].psdu_octets, psdu_len);
            return 1;
        }
    }
    if (got != len || memcmp(rebuilt, dgram, len) != 0) {
        fprintf(stderr, "reassembly did not give back the datagram\n");
        return 1;
    }
    r->tag++;
    printf("%zu %zu\n", udp_len, count);
    return 0;
}

static struct pqpan_802154_link_cfg link_cfg(int ext, int reverse)
{
    struct pqpan_802154_link_cfg c;
    struct pqpan_802154_addr a, b;
    memset(&c, 0, sizeof c);
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.mode = b.mode = (uint8_t)(ext ? PQPAN_802154_ADDR_EXT : PQPAN_802154_ADDR_SHORT);
    a.ext_addr = 0x00124B0001020304ull;
    b.ext_addr = 0x00124B00A0B0C0D0ull;
    a.short_addr = 0x0001;
    b.short_addr = 0x0002;
    c.src = reverse ? b : a;
    c.dst = reverse ? a : b;
    c.pan_id = 0xABCD;
    c.pan_id_compression = 1;
    c.ack_request = 1;
    c.nhc_udp = 1;
    c.hop_limit = 64;
    c.src_port = reverse ? 0xF0B1 : 0xF0B2;
    c.dst_port = reverse ? 0xF0B2 : 0xF0B1;
    return c;
}

/* One seeded simulator run of the real PQKE at suite; the pcap shows every frame. */
static int simulate(struct pqpan_pcap_writer *w, uint64_t seed, unsigned suite)
{
    static struct pqpan_sim154 sim;
    static struct pqpan_sim_pqke app;
    struct pqpan_sim154_config c;
    int rc;
    pqpan_sim154_config_default(&c);
    c.cycles[PQPAN_OP_KEM_KEYGEN] = 640000;
    c.cycles[PQPAN_OP_KEM_ENCAPS] = 768000;
    c.cycles[PQPAN_OP_KEM_DECAPS] = 832000;
    c.cycles[PQPAN_OP_KDF] = 64000;
    c.nodes = 10;
    c.load_fps = 10.0;
    c.load_psdu = 127;
    c.seed = seed;
    rc = pqpan_sim_pqke_init(&app, suite, PQPAN_PQKE_MODE_NONE, 0, (enum pqpan_ble_role)c.initiator_side, seed);
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_init(&sim, &c);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_run(&sim, pqpan_sim_pqke_app(), &app, pcap_frame, w);
    }
    pqpan_sim_pqke_wipe(&app);
    if (rc != PQPAN_OK) {
        return fail("simulator", rc);
    }
    printf("%d %u %u\n", sim.res.status, sim.res.dgram_failed[0] + sim.res.dgram_failed[1],
           w->packets);
    return 0;
}

int main(int argc, char **argv)
{
    /* {INIT, RESP, FIN} for ML-KEM-512, -768, -1024 (pqke.h, mode none). */
    static const size_t sizes[3][3] = {
        {PQPAN_PQKE_INIT_BYTES(0, PQPAN_MLKEM512_EK_BYTES, 0, 0),
         PQPAN_PQKE_RESP_BYTES(0, PQPAN_MLKEM512_CT_BYTES, 0, 0, 0, 0), PQPAN_PQKE_FIN_BYTES(0, 0, 0)},
        {PQPAN_PQKE_INIT_BYTES(0, PQPAN_MLKEM768_EK_BYTES, 0, 0),
         PQPAN_PQKE_RESP_BYTES(0, PQPAN_MLKEM768_CT_BYTES, 0, 0, 0, 0), PQPAN_PQKE_FIN_BYTES(0, 0, 0)},
        {PQPAN_PQKE_INIT_BYTES(0, PQPAN_MLKEM1024_EK_BYTES, 0, 0),
         PQPAN_PQKE_RESP_BYTES(0, PQPAN_MLKEM1024_CT_BYTES, 0, 0, 0, 0), PQPAN_PQKE_FIN_BYTES(0, 0, 0)}};
    struct run r;
    FILE *out;
    unsigned suite = 0;
    int level, msg, rc = 0, sim = argc == 5 && strcmp(argv[2], "sim") == 0;
    if (sim) {
        unsigned long lv = strtoul(argv[4], 0, 10);
        suite = lv == 512 ? PQPAN_PQKE_SUITE_MLKEM512
                : lv == 768 ? PQPAN_PQKE_SUITE_MLKEM768
                : lv == 1024 ? PQPAN_PQKE_SUITE_MLKEM1024 : 0u;
    }
    if (argc < 2 || argc > 5 || argc == 4 || (argc == 5 && suite == 0)) {
        fprintf(stderr, "usage: ieee802154_exchange OUT.pcap [ns | sim SEED 512|768|1024]\n");
        return 2;
    }
    out = fopen(argv[1], "wb");
    if (out == 0) {
        perror(argv[1]);
        return 4;
    }
    memset(&r, 0, sizeof r);
    r.t_ns = 1000000000u;
    r.rng_state = 42;
    if (pqpan_pcap_writer_init(&r.pcap, file_write, out, PQPAN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS,
                               argc == 3) != PQPAN_OK) {
        rc = 4;
    }
    if (sim && rc == 0) {
        rc = simulate(&r.pcap, strtoull(argv[3], 0, 10), suite);
    }
    for (level = 0; level < 3 && rc == 0 && !sim; level++) {
        for (msg = 0; msg < 3 && rc == 0; msg++) {
            /* ML-KEM-512 with short addresses, the others with extended addresses. */
            struct pqpan_802154_link_cfg c = link_cfg(level != 0, msg == 1);
            rc = send_datagram(&r, &c, sizes[level][msg]);
        }
    }
    if (fclose(out) != 0) {
        rc = 4;
    }
    return rc;
}
