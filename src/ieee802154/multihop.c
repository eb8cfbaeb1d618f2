/* Analytic estimator of one PQKE across a chain of IEEE 802.15.4 hops
 * (include/pqpan/multihop154.h): each message's units carried hop by hop in closed form,
 * the expected CSMA-CA of §6.2.5.1 on every frame, the chain rule (a node starts a unit
 * once its previous unit has finished the hop two hops further down). */
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

/* ---- the closed form ---- */

struct est {
    struct pqpan_802154_chain_estimate *out;
    uint64_t backoff_ns, cca_ns; /* expected, rounded as the single-link estimator */
    double backoff, ccas;
};

static uint64_t max_u64(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

/* The frames of one unit (first .. end-1) on hop g from t: each after the expected CSMA-CA,
 * then its Imm-Ack but for the message's last frame on the last hop (the hand-over,
 * *handover). Returns the end of its last Imm-Ack. */
static uint64_t unit_on_hop(struct est *e, struct chain_run *r,
                            const struct pqpan_802154_chain_msg *m, int from_init, unsigned g,
                            uint32_t first, uint32_t end, uint64_t t, uint64_t *handover)
{
    unsigned s = pqpan_802154_chain_sender(r->c->hops, from_init, g);
    unsigned d = pqpan_802154_chain_receiver(r->c->hops, from_init, g);
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
            *handover = t;
            return t;
        }
        pqpan_802154_chain_book_ack(r, s, d, m);
        t += m->turnaround_ns + m->ack_airtime_ns;
    }
    return t;
}

/* Unit u on hop g starts when it has arrived (its end on hop g - 1), the sender's previous
 * unit and its SIFS/LIFS are over, and the previous unit has finished hop g + 2 (or the
 * last hop): the chain rule. */
static int transfer(void *ctx, struct chain_run *r, const struct pqpan_802154_chain_msg *m,
                    int from_init, uint64_t *handover)
{
    struct est *e = ctx;
    uint64_t prev_end[PQPAN_802154_HOPS_MAX], cur_end[PQPAN_802154_HOPS_MAX];
    uint64_t prev_ifs = 0, t;
    unsigned hops = r->c->hops, g, ahead;
    uint32_t first = 0, end, u;
    for (u = 0; u < m->units; u++) {
        for (end = first; end < m->frames && m->frame[end].unit == u; end++) {
        }
        for (g = 0; g < hops; g++) {
            t = g == 0 ? 0 : cur_end[g - 1u];
            if (u != 0) {
                ahead = g + 2u < hops ? g + 2u : hops - 1u;
                t = max_u64(t, prev_end[g] + prev_ifs);
                t = max_u64(t, prev_end[ahead]);
            }
            cur_end[g] = unit_on_hop(e, r, m, from_init, g, first, end, t, handover);
        }
        memcpy(prev_end, cur_end, hops * sizeof cur_end[0]);
        prev_ifs = m->frame[end - 1u].ifs_ns;
        first = end;
    }
    return PQPAN_OK;
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
