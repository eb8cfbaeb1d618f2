/* The PQKE over 6LoWPAN / IEEE 802.15.4 for the CLI (see lowpan_model.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lowpan_model.h"
#include "pqpan/kem.h"
#include "pqpan/pcap.h"
#include "pqpan/pqke.h"
#include "pqpan/sim.h"
#include "pqpan/sim154.h"

void lowpan_opts_init(struct lowpan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kem = "ML-KEM-768";
}

void lowpan_opts_help(FILE *out)
{
    fprintf(out,
            "  --link ble|802154      the link: BLE (default) or 6LoWPAN over IEEE 802.15.4\n"
            "                         (2.4 GHz O-QPSK, 250 kb/s, acknowledged frames)\n"
            "  --kem NAME             ML-KEM-512, ML-KEM-768 (default), ML-KEM-1024; messages\n"
            "                         are pqpan's INIT / RESP / FIN (docs/PROTOCOL.md) in UDP\n"
            "  --csma ieee|contiki    CSMA-CA set: ieee (macMinBE 3, macMaxBE 5, 4 backoffs,\n"
            "                         3 retries; default) or contiki (3, 5, 5, 7: Contiki-NG)\n"
            "  --addr short|extended  MAC addressing: 16-bit short or 64-bit extended (default)\n");
}

int lowpan_link_requested(int argc, char **argv)
{
    int i;
    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--link") == 0 && strcmp(argv[i + 1], "802154") == 0) {
            return 1;
        }
    }
    return 0;
}

int lowpan_opts_parse(struct lowpan_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    const char *opt = argv[*i];
    const char *v;
    int bad = 0;
    if (strcmp(opt, "--link") != 0 && strcmp(opt, "--kem") != 0 && strcmp(opt, "--busy") != 0 &&
        strcmp(opt, "--csma") != 0 && strcmp(opt, "--addr") != 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    v = argv[++*i];
    if (strcmp(opt, "--link") == 0) {
        bad = strcmp(v, "802154") != 0;
    } else if (strcmp(opt, "--kem") == 0) {
        o->kem = v;
    } else if (strcmp(opt, "--busy") == 0) {
        bad = cli_parse_double(v, 0.0, 0.99, &o->busy) != 0;
    } else if (strcmp(opt, "--csma") == 0) {
        bad = strcmp(v, "ieee") != 0 && strcmp(v, "contiki") != 0;
        o->contiki = strcmp(v, "contiki") == 0;
    } else {
        bad = strcmp(v, "short") != 0 && strcmp(v, "extended") != 0;
        o->short_addr = strcmp(v, "short") == 0;
    }
    if (bad) {
        cli_usage_error(cmd, "%s %s: see --help for the allowed values", opt, v);
        return -1;
    }
    return 1;
}

static void set_addressing(struct pqpan_802154_link_cfg *l, int short_addr)
{
    if (short_addr) {
        l->src.mode = PQPAN_802154_ADDR_SHORT;
        l->src.short_addr = 0x0001;
        l->dst.mode = PQPAN_802154_ADDR_SHORT;
        l->dst.short_addr = 0x0002;
    }
}

int lowpan_setup(struct pqpan_802154_est_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                 const struct model_env *env, const struct lowpan_opts *o, const char *cmd)
{
    const struct pqpan_kem *k = pqpan_kem_by_name(o->kem);
    struct pqpan_ble_config ble;
    struct pqpan_pqke_sizes sz;
    int rc;
    pqpan_802154_est_config_default(c);
    if (k == NULL) {
        return cli_usage_error(cmd, "unknown KEM '%s' (ML-KEM-512, ML-KEM-768, ML-KEM-1024)",
                               o->kem);
    }
    pqpan_ble_config_default(&ble);
    ble.protocol = PQPAN_BLE_PROTO_PQPAN;
    rc = model_setup(cycles, &ble, env, o->kem, cmd);
    if (rc != EXIT_OK) {
        return rc;
    }
    sz = pqpan_pqke_suite_sizes(pqpan_pqke_suite_for_kem(k->id));
    c->msg_octets[0] = (uint32_t)sz.init_bytes;
    c->msg_octets[1] = (uint32_t)sz.resp_bytes;
    c->msg_octets[2] = (uint32_t)sz.fin_bytes;
    c->csma = o->contiki ? pqpan_802154_csma_contiki() : pqpan_802154_csma_ieee();
    c->p_busy = o->busy;
    c->cpu_hz = env->in.profile.cpu_hz;
    set_addressing(&c->link, o->short_addr);
    return EXIT_OK;
}

int lowpan_fill(struct model_row rows[MODEL_SIDES], const struct model_env *env,
                const char *kem, const struct pqpan_ledger led[2],
                const struct pqpan_ledger bits[2], uint64_t latency_ns, const char *cmd)
{
    static const char *const side_names[MODEL_SIDES] = {"initiator", "responder", "total"};
    struct pqpan_ledger l[MODEL_SIDES], b[MODEL_SIDES];
    int s, rc = EXIT_OK;
    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    pqpan_ledger_init(&l[MODEL_TOTAL]);
    pqpan_ledger_init(&b[MODEL_TOTAL]);
    for (s = 0; s < 2; s++) {
        l[s] = led[s];
        b[s] = bits[s];
        pqpan_ledger_accumulate(&l[MODEL_TOTAL], &l[s]);
        pqpan_ledger_accumulate(&b[MODEL_TOTAL], &b[s]);
    }
    for (s = 0; s < MODEL_SIDES && rc == EXIT_OK; s++) {
        struct model_row *r = &rows[s];
        rc = model_fill_side(r, env, PQPAN_RADIO_IEEE802154, &l[s], &b[s], cmd);
        r->side = side_names[s];
        r->kem = kem;
        r->protocol = "pqpan";
        r->phy = pqpan_radio_mode_name(PQPAN_RADIO_IEEE802154);
        r->latency_ms = (double)latency_ns * 1e-6;
        r->pdus_tx = l[s].pdus_tx;
        r->pdus_rx = l[s].pdus_rx;
        r->bytes_tx = l[s].bytes_tx;
        r->bytes_rx = l[s].bytes_rx;
    }
    if (rc != EXIT_OK) {
        memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    }
    return rc;
}

void lowpan_csma_split(struct lowpan_csma_side out[2], const struct pqpan_802154_estimate *e,
                       const struct model_env *env)
{
    const struct pqpan_profile *p = &env->in.profile;
    unsigned total = e->frames[0] + e->frames[1] + e->frames[2];
    double ua = 0.0;
    int s;
    memset(out, 0, 2 * sizeof out[0]);
    if (pqpan_profile_rx_ua(p, env->table, PQPAN_RADIO_IEEE802154, &ua) != PQPAN_OK || total == 0) {
        return;
    }
    out[PQPAN_802154_INITIATOR].frames_tx = e->frames[0] + e->frames[2];
    out[PQPAN_802154_RESPONDER].frames_tx = e->frames[1];
    for (s = 0; s < 2; s++) {
        double share = (double)out[s].frames_tx / (double)total;
        out[s].t_cca_ms = e->ccas * share * (double)PQPAN_802154_CCA_NS * 1e-6;
        out[s].t_backoff_ms = e->backoff_ns * share * 1e-6;
        /* uA x V = uW; uW x ms = nJ */
        out[s].e_cca_uj = ua * p->supply_v * out[s].t_cca_ms * 1e-3;
        out[s].e_backoff_uj = ua * p->supply_v * out[s].t_backoff_ms * 1e-3;
    }
}

double lowpan_frame_ms(unsigned psdu)
{
    return (double)pqpan_802154_phy_ppdu_ns(psdu) * 1e-6;
}

double lowpan_channel_load(unsigned bg_nodes, double fps, unsigned psdu)
{
    return (double)bg_nodes * fps * lowpan_frame_ms(psdu) * 1e-3;
}

/* ---- Monte Carlo ---- */

static int file_write(void *ctx, const uint8_t *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

struct capture {
    struct pqpan_pcap_writer w;
    int failed;
};

static void on_frame(void *ctx, uint64_t t_ns, const uint8_t *psdu, size_t len)
{
    struct capture *cap = ctx;
    if (pqpan_pcap_write_packet(&cap->w, t_ns, psdu, len) != PQPAN_OK) {
        cap->failed = 1;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Mean and nearest-rank percentiles of v[0..n) (sorts v). */
static void stats_of(struct lowpan_stats *st, double *v, unsigned n)
{
    static const double q[3] = {50.0, 90.0, 99.0};
    double *out[3];
    double sum = 0.0;
    unsigned i;
    out[0] = &st->p50;
    out[1] = &st->p90;
    out[2] = &st->p99;
    for (i = 0; i < n; i++) {
        sum += v[i];
    }
    st->mean = sum / (double)n;
    qsort(v, n, sizeof v[0], cmp_double);
    for (i = 0; i < 3; i++) {
        size_t rank = (size_t)ceil(q[i] / 100.0 * (double)n);
        *out[i] = v[rank > 0 ? rank - 1 : 0];
    }
}

struct mc {
    struct pqpan_sim154 sim;
    struct pqpan_sim154_config c;
    struct pqpan_sim_pqke app;
    unsigned suite;
    struct model_row rows[MODEL_SIDES];
    struct capture cap;
};

static void add_counts(struct lowpan_counts *sum, const struct pqpan_sim154_result *r)
{
    int n;
    for (n = 0; n < 2; n++) {
        sum->frames += r->frames[n];
        sum->retries += r->retries[n];
        sum->access_failures += r->access_failures[n];
        sum->ccas += r->ccas[n];
        sum->rx_lost += r->rx_lost[n];
        sum->dgram_retx += r->dgram_retx[n];
        sum->reasm_timeouts += r->reasm_timeouts[n];
        sum->duplicates += r->duplicates[n];
    }
}

static void scale_counts(struct lowpan_counts *c, unsigned runs)
{
    double k = 1.0 / (double)runs;
    c->frames *= k;
    c->retries *= k;
    c->access_failures *= k;
    c->ccas *= k;
    c->rx_lost *= k;
    c->dgram_retx *= k;
    c->reasm_timeouts *= k;
    c->duplicates *= k;
}

/* One seeded exchange: the real PQKE (seed S + run for the channel and the parties). */
static int one_run(struct mc *m, double *energy[MODEL_SIDES], double *latency, unsigned run,
                   const struct model_env *env, const struct lowpan_opts *o,
                   const struct lowpan_sim_cfg *s, const char *cmd)
{
    const struct pqpan_sim154_result *res = &m->sim.res;
    struct pqpan_ledger none[2];
    int rc, side, capture = s->pcap != NULL && run == 0;
    m->c.seed = s->seed + run;
    rc = pqpan_sim_pqke_init(&m->app, m->suite, (enum pqpan_ble_role)m->c.initiator_side, m->c.seed);
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_init(&m->sim, &m->c);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_run(&m->sim, pqpan_sim_pqke_app(), &m->app, capture ? on_frame : NULL,
                              capture ? &m->cap : NULL);
    }
    pqpan_sim_pqke_wipe(&m->app);
    if (rc != PQPAN_OK) {
        fprintf(stderr, "pqpan %s: 802.15.4 simulator: %s\n", cmd, pqpan_strerror(rc));
        return rc == PQPAN_ERR_INVALID_ARG ? EXIT_USAGE : EXIT_FAILURE_RUN;
    }
    pqpan_ledger_init(&none[0]);
    pqpan_ledger_init(&none[1]);
    rc = lowpan_fill(m->rows, env, o->kem, res->ledger, none, res->latency_ns, cmd);
    for (side = 0; side < MODEL_SIDES && rc == EXIT_OK; side++) {
        energy[side][run] = m->rows[side].e_total_events_uj;
    }
    latency[run] = (double)res->latency_ns * 1e-6;
    return rc;
}

static int open_capture(struct capture *cap, FILE *f, const char *cmd)
{
    if (pqpan_pcap_writer_init(&cap->w, file_write, f, PQPAN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS,
                               1) != PQPAN_OK) {
        fprintf(stderr, "pqpan %s: cannot write the pcap file\n", cmd);
        return EXIT_IO;
    }
    return EXIT_OK;
}

void lowpan_sim_cfg_init(struct lowpan_sim_cfg *s)
{
    memset(s, 0, sizeof *s);
    s->nodes = 2;
    s->frame_psdu = 60;
    s->runs = 100;
    s->seed = 1;
    s->reasm_timeout_ms = PQPAN_SIM154_REASM_TIMEOUT_MS_DEFAULT;
    s->dgram_retries = PQPAN_SIM154_DGRAM_RETRIES_DEFAULT;
}

int lowpan_simulate(struct lowpan_series *out, const struct model_env *env,
                    const struct lowpan_opts *o, const struct lowpan_sim_cfg *s,
                    const char *cmd)
{
    struct mc *m = malloc(sizeof *m);
    double *buf = malloc((MODEL_SIDES + 1u) * s->runs * sizeof(double));
    double *energy[MODEL_SIDES];
    unsigned run, side;
    int rc = EXIT_OK;
    memset(out, 0, sizeof *out);
    if (m == NULL || buf == NULL || s->runs == 0) {
        free(m);
        free(buf);
        fprintf(stderr, "pqpan %s: out of memory\n", cmd);
        return EXIT_FAILURE_RUN;
    }
    memset(m, 0, sizeof *m);
    for (side = 0; side < MODEL_SIDES; side++) {
        energy[side] = buf + (size_t)side * s->runs;
    }
    pqpan_sim154_config_default(&m->c);
    rc = lowpan_setup(&m->c.exch, m->c.cycles, env, o, cmd);
    m->c.nodes = s->nodes;
    m->c.hidden = s->hidden;
    m->c.load_fps = s->load_fps;
    m->c.load_psdu = (uint8_t)s->frame_psdu;
    m->c.reasm_timeout_ms = s->reasm_timeout_ms;
    m->c.dgram_retries = s->dgram_retries;
    if (rc == EXIT_OK) {
        m->suite = pqpan_pqke_suite_for_kem(pqpan_kem_by_name(o->kem)->id);
    }
    if (rc == EXIT_OK && s->pcap != NULL) {
        rc = open_capture(&m->cap, s->pcap, cmd);
    }
    for (run = 0; run < s->runs && rc == EXIT_OK; run++) {
        rc = one_run(m, energy, buf + (size_t)MODEL_SIDES * s->runs, run, env, o, s, cmd);
        out->failed += m->sim.res.status != PQPAN_OK;
        add_counts(&out->counts, &m->sim.res);
    }
    if (rc == EXIT_OK && m->cap.failed) {
        fprintf(stderr, "pqpan %s: cannot write the pcap file\n", cmd);
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK) {
        out->runs = s->runs;
        for (side = 0; side < MODEL_SIDES; side++) {
            stats_of(&out->energy_uj[side], energy[side], s->runs);
        }
        stats_of(&out->latency_ms, buf + (size_t)MODEL_SIDES * s->runs, s->runs);
        scale_counts(&out->counts, s->runs);
    }
    free(m);
    free(buf);
    return rc;
}
