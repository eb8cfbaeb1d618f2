/* The 802.15.4 contention simulator's Monte Carlo (see lowpan_sim.h; from
 * cli/lowpan_model.c). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lowpan_sim.h"
#include "pqpan/defaults.h"
#include "pqpan/pcap.h"
#include "pqpan/sim.h"
#include "pqpan/sim154.h"

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
    int err; /* errno of the first failed write (EIO when it gave none); 0: none */
};

static void on_frame(void *ctx, uint64_t t_ns, const uint8_t *psdu, size_t len)
{
    struct capture *cap = ctx;
    errno = 0;
    if (pqpan_pcap_write_packet(&cap->w, t_ns, psdu, len) != PQPAN_OK && cap->err == 0) {
        cap->err = errno != 0 ? errno : EIO;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void lowpan_stats_of(struct lowpan_stats *st, double *v, unsigned n)
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
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
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
                   const struct lowpan_sim_cfg *s, struct cli_msg *msg)
{
    const struct pqpan_sim154_result *res = &m->sim.res;
    struct pqpan_ledger none[2];
    int rc, side, capture = s->pcap != NULL && run == 0;
    m->c.seed = s->seed + run;
    rc = pqpan_sim_pqke_init(&m->app, m->suite, o->pqke.mode,
                             model_pqke_sig(o->pqke.mode, o->pqke.sig, o->kem),
                             (enum pqpan_ble_role)m->c.initiator_side, m->c.seed);
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_init(&m->sim, &m->c);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_run(&m->sim, pqpan_sim_pqke_app(), &m->app, capture ? on_frame : NULL,
                              capture ? &m->cap : NULL);
    }
    pqpan_sim_pqke_wipe(&m->app);
    if (rc != PQPAN_OK) {
        return cli_msg_set(msg, rc == PQPAN_ERR_INVALID_ARG ? EXIT_USAGE : EXIT_FAILURE_RUN,
                           "802.15.4 simulator: %s", pqpan_strerror(rc));
    }
    pqpan_ledger_init(&none[0]);
    pqpan_ledger_init(&none[1]);
    rc = lowpan_fill(m->rows, env, o, res->ledger, none, res->latency_ns, msg);
    for (side = 0; side < MODEL_SIDES && rc == EXIT_OK; side++) {
        energy[side][run] = m->rows[side].e_total_events_uj;
    }
    latency[run] = (double)res->latency_ns * 1e-6;
    return rc;
}

static int open_capture(struct capture *cap, FILE *f, struct cli_msg *msg)
{
    if (pqpan_pcap_writer_init(&cap->w, file_write, f, PQPAN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS,
                               1) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_IO, "cannot write the pcap file");
    }
    return EXIT_OK;
}

void lowpan_sim_cfg_init(struct lowpan_sim_cfg *s)
{
    memset(s, 0, sizeof *s);
    s->nodes = pqpan_default_u32(PQPAN_DEFAULT_NODES);
    s->frame_psdu = pqpan_default_u32(PQPAN_DEFAULT_FRAME_BYTES);
    s->runs = pqpan_default_u32(PQPAN_DEFAULT_RUNS);
    s->seed = pqpan_default_u32(PQPAN_DEFAULT_SEED);
    s->reasm_timeout_ms = pqpan_default_u32(PQPAN_DEFAULT_REASM_TIMEOUT);
    s->dgram_retries = pqpan_default_u32(PQPAN_DEFAULT_DGRAM_RETRIES);
}

int lowpan_simulate(struct lowpan_series *out, const struct model_env *env,
                    const struct lowpan_opts *o, const struct lowpan_sim_cfg *s,
                    struct cli_msg *msg)
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
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    memset(m, 0, sizeof *m);
    for (side = 0; side < MODEL_SIDES; side++) {
        energy[side] = buf + (size_t)side * s->runs;
    }
    pqpan_sim154_config_default(&m->c);
    rc = lowpan_setup(&m->c.exch, m->c.cycles, env, o, msg);
    m->c.nodes = s->nodes;
    m->c.hidden = s->hidden;
    m->c.capture = s->capture_first ? PQPAN_SIM154_CAPTURE_FIRST : PQPAN_SIM154_CAPTURE_NONE;
    m->c.load_fps = s->load_fps;
    m->c.load_psdu = (uint8_t)s->frame_psdu;
    m->c.reasm_timeout_ms = s->reasm_timeout_ms;
    m->c.dgram_retries = s->dgram_retries;
    if (rc == EXIT_OK) {
        m->suite = lowpan_suite(o);
    }
    if (rc == EXIT_OK && s->pcap != NULL) {
        rc = open_capture(&m->cap, s->pcap, msg);
    }
    if (s->progress != NULL) {
        s->progress(s->progress_ctx, 0u, s->runs);
    }
    for (run = 0; run < s->runs && rc == EXIT_OK; run++) {
        rc = one_run(m, energy, buf + (size_t)MODEL_SIDES * s->runs, run, env, o, s, msg);
        out->failed += m->sim.res.status != PQPAN_OK;
        add_counts(&out->counts, &m->sim.res);
        if (s->progress != NULL) {
            s->progress(s->progress_ctx, run + 1u, s->runs);
        }
    }
    if (rc == EXIT_OK && m->cap.err != 0) {
        rc = cli_msg_set(msg, EXIT_IO, "cannot write the pcap file: %s", strerror(m->cap.err));
    }
    if (rc == EXIT_OK) {
        out->runs = s->runs;
        for (side = 0; side < MODEL_SIDES; side++) {
            lowpan_stats_of(&out->energy_uj[side], energy[side], s->runs);
        }
        lowpan_stats_of(&out->latency_ms, buf + (size_t)MODEL_SIDES * s->runs, s->runs);
        scale_counts(&out->counts, s->runs);
    }
    free(m);
    free(buf);
    return rc;
}
