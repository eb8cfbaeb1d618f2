/* Analytic estimator of one PQKE across a chain of IEEE 802.15.4 hops
 * (include/pqpan/multihop154.h): each message's units carried hop by hop in closed form,
 * the expected CSMA-CA of §6.2.5.1 on every frame, the chain rule (a node starts a unit
 * once its previous unit has finished the hop two hops further down). */
#include <math.h>
#include <string.h>

#include "ieee802154/chain.h"
#include "pqpan/multihop154.h"

#define MAX_BUSY 1.0

const char *pqpan_802154_forwarding_name(unsigned forwarding)
{
    switch (forwarding) {
    case PQPAN_802154_FWD_REASSEMBLE:
        return "reassemble";
    case PQPAN_802154_FWD_FRAGMENT:
        return "fragment";
    default:
        return NULL;
    }
}

int pqpan_802154_chain_config_check(const struct pqpan_802154_chain_config *c)
{
    const struct pqpan_802154_est_config *x;
    if (c == 0 || c->hops < 1u || c->hops > PQPAN_802154_HOPS_MAX ||
        pqpan_802154_forwarding_name(c->forwarding) == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    x = &c->exch;
    if (x->cpu_hz == 0 || !(x->p_busy >= 0.0 && x->p_busy < MAX_BUSY) || x->ipv6_frag > 1u ||
        !x->link.ack_request || !x->rx_always_on || !x->backoff_rx ||
        pqpan_802154_csma_params_check(&x->csma) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}

/* Appends packet i's frames to m. */
static int plan_packet(struct pqpan_802154_chain_msg *m, const struct pqpan_802154_chain_config *c,
                       const struct pqpan_802154_link_cfg *link, size_t len, size_t i)
{
    struct pqpan_802154_frame_plan f[PQPAN_802154_MAX_FRAMES];
    struct pqpan_802154_plan p;
    size_t k;
    int rc = pqpan_802154_plan_msg_packet(&p, f, sizeof f / sizeof f[0], link, len, i,
                                          c->exch.ipv6_frag);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (m->frames + p.frames > PQPAN_802154_CHAIN_FRAMES_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    for (k = 0; k < p.frames; k++) {
        struct pqpan_802154_chain_frame *x = &m->frame[m->frames];
        x->airtime_ns = f[k].airtime_ns;
        x->ifs_ns = f[k].ifs_ns;
        x->psdu_octets = f[k].psdu_octets;
        /* fragment forwarding: a frame is a unit; per-hop reassembly: a packet is */
        x->unit = (uint16_t)(c->forwarding == PQPAN_802154_FWD_FRAGMENT ? m->frames : i);
        m->frames++;
    }
    m->turnaround_ns = p.turnaround_ns;
    m->ack_airtime_ns = p.ack_airtime_ns;
    return PQPAN_OK;
}

int pqpan_802154_chain_plan_msg(struct pqpan_802154_chain_msg *m,
                                const struct pqpan_802154_chain_config *c, unsigned msg)
{
    struct pqpan_802154_link_cfg link;
    size_t len, n, i;
    int rc;
    if (m == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(m, 0, sizeof *m);
    if (c == 0 || msg >= PQPAN_802154_MESSAGES) {
        return PQPAN_ERR_INVALID_ARG;
    }
    len = c->exch.msg_octets[msg];
    n = pqpan_802154_msg_packets(len, c->exch.ipv6_frag);
    if (n == 0) {
        return PQPAN_ERR_BAD_LENGTH;
    }
    if (msg % 2u == 0u) { /* INIT and FIN: from the initiator */
        link = c->exch.link;
    } else {
        pqpan_802154_link_reverse(&link, &c->exch.link);
    }
    for (i = 0; i < n; i++) {
        rc = plan_packet(m, c, &link, len, i);
        if (rc != PQPAN_OK) {
            memset(m, 0, sizeof *m);
            return rc;
        }
    }
    m->packets = (uint32_t)n;
    m->units = (uint32_t)m->frame[m->frames - 1u].unit + 1u;
    return PQPAN_OK;
}

/* ---- the closed form ----
 * Times are random: each frame's CSMA-CA backoff is drawn (random(2^BE - 1) periods,
 * §6.2.5.1), everything else is fixed. A unit's start is the latest of up to three times
 * (its arrival, the sender's previous unit + SIFS/LIFS, the previous unit past hop g + 2),
 * and the mean of a maximum exceeds the maximum of the means when the times are close (as
 * they are in a fragment-forwarding pipeline). So each time is carried as a normal
 * variable: its mean, and its covariances with the other live times (the ends of the
 * previous and the current unit on every hop); the maximum of two by Clark's moments
 * (C. E. Clark, "The Greatest of a Finite Set of Random Variables", Operations Research
 * 9(2), 1961: mean, second moment, and the covariance of the maximum with a third
 * variable), taken as normal again. Two times whose difference is fixed (equal variances,
 * full correlation) give the later exactly, so a chain of one hop books what the
 * single-link estimator books. */

#define LIVE (2u * PQPAN_802154_HOPS_MAX) /* prev_end[g] at g, cur_end[g] at HOPS_MAX + g */
#define CUR(g) (PQPAN_802154_HOPS_MAX + (g))
#define THETA_MIN_NS2 1e-6 /* below this variance of a difference, it is fixed */
#define INV_SQRT_2PI 0.39894228040143267794 /* 1 / sqrt(2 pi): the normal density at 0 */

struct est {
    struct pqpan_802154_chain_estimate *out;
    uint64_t backoff_ns, cca_ns; /* expected, rounded as the single-link estimator */
    double backoff, ccas;
    double access_var; /* variance of one channel access (backoffs + CCAs), ns^2 */
    double mean[LIVE];
    double cov[LIVE][LIVE];
};

/* A time while it is computed: its mean, variance and covariance with each live time. */
struct gtime {
    double mean, var;
    double cov[LIVE];
};

static void gtime_const(struct gtime *x, double t)
{
    memset(x, 0, sizeof *x);
    x->mean = t;
}

static void gtime_live(struct gtime *x, const struct est *e, unsigned i, double shift)
{
    memcpy(x->cov, e->cov[i], sizeof x->cov);
    x->mean = e->mean[i] + shift;
    x->var = e->cov[i][i];
}

static double phi(double a)
{
    return INV_SQRT_2PI * exp(-0.5 * a * a);
}

static double big_phi(double a)
{
    return 0.5 * erfc(-a / sqrt(2.0));
}

/* x = max(x, y), y a live time (index iy) shifted, or a constant (iy = LIVE). */
static void gtime_max(struct gtime *x, const struct gtime *y, unsigned iy)
{
    double cxy = iy < LIVE ? x->cov[iy] : 0.0;
    double theta2 = x->var + y->var - 2.0 * cxy, theta, a, pa, pb, d, m, m2;
    unsigned i;
    if (theta2 < THETA_MIN_NS2) {
        if (y->mean > x->mean) {
            *x = *y;
        }
        return;
    }
    theta = sqrt(theta2);
    a = (x->mean - y->mean) / theta;
    pa = big_phi(a);
    pb = 1.0 - pa;
    d = phi(a);
    m = x->mean * pa + y->mean * pb + theta * d;
    m2 = (x->mean * x->mean + x->var) * pa + (y->mean * y->mean + y->var) * pb +
         (x->mean + y->mean) * theta * d;
    for (i = 0; i < LIVE; i++) {
        x->cov[i] = x->cov[i] * pa + y->cov[i] * pb;
    }
    x->mean = m;
    x->var = m2 > m * m ? m2 - m * m : 0.0;
}

/* Stores x + a fixed-mean independent duration (mean dur, variance dvar) as live time i. */
static void gtime_store(struct est *e, unsigned i, const struct gtime *x, double dur, double dvar)
{
    unsigned j;
    for (j = 0; j < LIVE; j++) {
        e->cov[i][j] = x->cov[j];
        e->cov[j][i] = x->cov[j];
    }
    e->cov[i][i] = x->var + dvar;
    e->mean[i] = x->mean + dur;
}

/* The current unit's ends become the previous unit's. */
static void gtime_shift(struct est *e, unsigned hops)
{
    unsigned g, j;
    for (g = 0; g < hops; g++) {
        for (j = 0; j < LIVE; j++) {
            e->cov[g][j] = e->cov[CUR(g)][j];
        }
        for (j = 0; j < LIVE; j++) {
            e->cov[j][g] = e->cov[g][j];
        }
        e->cov[g][g] = e->cov[CUR(g)][CUR(g)];
        e->mean[g] = e->mean[CUR(g)];
    }
}

/* Variance of one channel access: stage i (BE = min(macMinBE + i, macMaxBE)) is reached
 * with probability p^i and costs random(2^BE - 1) unit backoff periods and a CCA; the
 * access stops at the first idle CCA or after macMaxCsmaBackoffs + 1 CCAs. */
static double access_variance(const struct pqpan_802154_csma_params *p, double busy)
{
    double reach = 1.0, m = 0.0, v = 0.0, e2 = 0.0, w, n, unit = (double)PQPAN_802154_UNIT_BACKOFF_NS;
    unsigned i, be;
    for (i = 0; i <= p->max_backoffs; i++) {
        be = p->min_be + i < p->max_be ? p->min_be + i : p->max_be;
        n = (double)(1u << be);
        m += (n - 1.0) / 2.0 * unit + (double)PQPAN_802154_CCA_NS;
        v += (n * n - 1.0) / 12.0 * unit * unit;
        w = i < p->max_backoffs ? reach * (1.0 - busy) : reach;
        e2 += w * (v + m * m);
        reach *= busy;
    }
    m = pqpan_802154_csma_expected_backoff_ns(p, busy) +
        pqpan_802154_csma_expected_ccas(p, busy) * (double)PQPAN_802154_CCA_NS;
    return e2 > m * m ? e2 - m * m : 0.0;
}

/* The frames of one unit (first .. end-1) on hop g: each after the expected CSMA-CA, then
 * its Imm-Ack but for the message's last frame on the last hop (the hand-over: *last set).
 * Returns the unit's mean duration, from its first CSMA-CA to its last Imm-Ack's end. */
static uint64_t unit_on_hop(struct est *e, struct chain_run *r,
                            const struct pqpan_802154_chain_msg *m, int from_init, unsigned g,
                            uint32_t first, uint32_t end, int *last)
{
    unsigned s = pqpan_802154_chain_sender(r->c->hops, from_init, g);
    unsigned d = pqpan_802154_chain_receiver(r->c->hops, from_init, g);
    uint64_t t = 0;
    uint32_t k;
    for (k = first; k < end; k++) {
        const struct pqpan_802154_chain_frame *f = &m->frame[k];
        if (k != first) {
            t += m->frame[k - 1u].ifs_ns; /* §6.2.4: the sender's SIFS/LIFS */
        }
        pqpan_802154_chain_book_frame(r, s, d, f, e->backoff_ns, e->cca_ns);
        e->out->backoff_ns += e->backoff;
        e->out->ccas += e->ccas;
        t += e->backoff_ns + e->cca_ns + PQPAN_802154_TURNAROUND_NS + f->airtime_ns;
        if (k + 1u == m->frames && g + 1u == r->c->hops) {
            *last = 1;
            return t;
        }
        pqpan_802154_chain_book_ack(r, s, d, m);
        t += m->turnaround_ns + m->ack_airtime_ns;
    }
    return t;
}

/* Unit u on hop g starts at the latest of: its arrival (its end on hop g - 1), the end of
 * the sender's previous unit + its SIFS/LIFS, and the end of the previous unit on hop
 * g + 2 (or the last hop): the chain rule. */
static int transfer(void *ctx, struct chain_run *r, const struct pqpan_802154_chain_msg *m,
                    int from_init, uint64_t *handover)
{
    struct est *e = ctx;
    struct gtime t, y;
    double prev_ifs = 0.0, dur;
    unsigned hops = r->c->hops, g, ahead;
    uint32_t first = 0, end, u;
    int last = 0;
    memset(e->mean, 0, sizeof e->mean);
    memset(e->cov, 0, sizeof e->cov);
    for (u = 0; u < m->units; u++) {
        for (end = first; end < m->frames && m->frame[end].unit == u; end++) {
        }
        for (g = 0; g < hops; g++) {
            if (g == 0) {
                gtime_const(&t, 0.0);
            } else {
                gtime_live(&t, e, CUR(g - 1u), 0.0);
            }
            if (u != 0) {
                ahead = g + 2u < hops ? g + 2u : hops - 1u;
                gtime_live(&y, e, g, prev_ifs);
                gtime_max(&t, &y, g);
                gtime_live(&y, e, ahead, 0.0);
                gtime_max(&t, &y, ahead);
            }
            dur = (double)unit_on_hop(e, r, m, from_init, g, first, end, &last);
            gtime_store(e, CUR(g), &t, dur, (double)(end - first) * e->access_var);
        }
        gtime_shift(e, hops);
        prev_ifs = (double)m->frame[end - 1u].ifs_ns;
        first = end;
    }
    *handover = (uint64_t)(e->mean[hops - 1u] + 0.5);
    return last ? PQPAN_OK : PQPAN_ERR_INVALID_ARG;
}

int pqpan_802154_chain_estimate(struct pqpan_802154_chain_estimate *out,
                                const struct pqpan_802154_chain_config *c,
                                const uint64_t cycles[PQPAN_OP_COUNT])
{
    struct chain_run r;
    struct est e;
    uint32_t frames = 0, i;
    double p_fail;
    int rc;
    if (out == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (pqpan_802154_chain_run_init(&r, c, cycles, out->ledger, out->bits) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    e.out = out;
    e.backoff = pqpan_802154_csma_expected_backoff_ns(&c->exch.csma, c->exch.p_busy);
    e.ccas = pqpan_802154_csma_expected_ccas(&c->exch.csma, c->exch.p_busy);
    e.backoff_ns = (uint64_t)(e.backoff + 0.5);
    e.cca_ns = (uint64_t)(e.ccas * (double)PQPAN_802154_CCA_NS + 0.5);
    e.access_var = access_variance(&c->exch.csma, c->exch.p_busy);
    rc = pqpan_802154_chain_drive(&r, cycles, transfer, &e);
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    out->latency_ns = r.latency_ns;
    memcpy(out->transfer_ns, r.transfer_ns, sizeof out->transfer_ns);
    memcpy(out->frames, r.frames, sizeof out->frames);
    memcpy(out->datagrams, r.packets, sizeof out->datagrams);
    for (i = 0; i < PQPAN_802154_MESSAGES; i++) {
        frames += out->frames[i] * c->hops;
    }
    p_fail = pqpan_802154_csma_failure_prob(&c->exch.csma, c->exch.p_busy);
    out->p_success = 1.0;
    for (i = 0; i < frames; i++) {
        out->p_success *= 1.0 - p_fail;
    }
    return PQPAN_OK;
}
