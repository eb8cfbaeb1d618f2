/* The chain simulator (include/pqpan/multihop154.h): each message carried frame by frame in
 * time order across the hops. A node draws its CSMA-CA backoffs from the PRNG and its
 * CCAs sense the transmissions of the nodes it hears (IEEE 802.15.4-2020 §6.2.5.1,
 * pqpan_802154_csma_run); a node starts a unit under the chain rule; every transmission
 * is checked against those its receiver hears. Steps, segments and hand-overs are the
 * shared run's (src/ieee802154/chain.c). */
#include <string.h>

#include "ieee802154/chain.h"
#include "pqpan/multihop154.h"
#include "pqpan/sim.h"

#define AIR_MAX 64u /* transmissions remembered: far more than a chain has on the air at once */

struct air {
    uint64_t start_ns, end_ns;
    unsigned node, rcv;
};

struct hop {
    uint32_t next;       /* the next frame of the message to send on this hop */
    uint32_t units_done; /* units carried whole on this hop */
    uint64_t free_ns;    /* its sender may start again (after its SIFS/LIFS) */
    uint64_t end_ns;     /* the frame in flight ends (its Imm-Ack, or the hand-over) */
    int active;
};

struct sim {
    struct pqpan_prng rng;
    struct pqpan_802154_chain_sim_result *out;
    struct air air[AIR_MAX];
    unsigned air_n, air_next;
    unsigned cca_node;
    uint64_t base_ns; /* the segment's start: air times are absolute */
};

/* A chain: node a hears node b iff they are neighbours. */
static int hears(unsigned a, unsigned b)
{
    return a + 1u == b || b + 1u == a;
}

static int cca_busy(void *ctx, uint64_t t_ns)
{
    struct sim *s = ctx;
    unsigned i;
    for (i = 0; i < s->air_n; i++) {
        const struct air *x = &s->air[i];
        if (hears(s->cca_node, x->node) && x->start_ns < t_ns + PQPAN_802154_CCA_NS &&
            t_ns < x->end_ns) {
            return 1;
        }
    }
    return 0;
}

/* Records a transmission and counts a collision for each one on the air at the same time
 * that the receiver of either hears (or that the receiver is sending). */
static void on_air(struct sim *s, uint64_t a, uint64_t b, unsigned node, unsigned rcv)
{
    unsigned i;
    for (i = 0; i < s->air_n; i++) {
        const struct air *x = &s->air[i];
        if (x->start_ns >= b || a >= x->end_ns || x->node == node) {
            continue;
        }
        if (hears(rcv, x->node) || x->node == rcv) {
            s->out->collisions++;
        }
        if (hears(x->rcv, node) || x->rcv == node) {
            s->out->collisions++;
        }
    }
    s->air[s->air_next].start_ns = a;
    s->air[s->air_next].end_ns = b;
    s->air[s->air_next].node = node;
    s->air[s->air_next].rcv = rcv;
    s->air_next = (s->air_next + 1u) % AIR_MAX;
    if (s->air_n < AIR_MAX) {
        s->air_n++;
    }
}

/* Whether hop g may start its next frame: a frame inside a unit already begun may; the
 * first of unit u needs u whole at the sender and unit u - 1 past hop g + 2 (chain rule). */
static int may_start(const struct hop *h, unsigned hops, unsigned g,
                     const struct pqpan_802154_chain_msg *m)
{
    uint32_t k = h[g].next, u;
    unsigned ahead = g + 2u < hops ? g + 2u : hops - 1u;
    if (h[g].active || k >= m->frames) {
        return 0;
    }
    u = m->frame[k].unit;
    if (k != 0 && m->frame[k - 1u].unit == u) {
        return 1;
    }
    return (g == 0 || h[g - 1u].units_done > u) && (u == 0 || h[ahead].units_done >= u);
}

/* Hop g sends its next frame, its CSMA-CA starting at t (segment time). */
static int start_frame(struct sim *s, struct chain_run *r, struct hop *h, unsigned g,
                       const struct pqpan_802154_chain_msg *m, int from_init, uint64_t t,
                       uint64_t *handover)
{
    unsigned hops = r->c->hops;
    unsigned snd = pqpan_802154_chain_sender(hops, from_init, g);
    unsigned rcv = pqpan_802154_chain_receiver(hops, from_init, g);
    const struct pqpan_802154_chain_frame *f = &m->frame[h[g].next];
    struct pqpan_802154_csma_result res;
    uint64_t backoff = 0, ccas = 0, rx_end;
    int rc;
    s->cca_node = snd;
    do {
        rc = pqpan_802154_csma_run(&res, &r->c->exch.csma, pqpan_prng_fill, &s->rng, cca_busy, s,
                                   s->base_ns + t);
        if (rc != PQPAN_OK) {
            return rc;
        }
        backoff += res.backoff_ns;
        ccas += res.ccas;
        s->out->ccas += res.ccas;
        s->out->cca_busy += res.ccas - (res.success ? 1u : 0u);
        t = res.tx_start_ns - s->base_ns; /* the CCA's end + aTurnaroundTime */
    } while (!res.success);
    pqpan_802154_chain_book_frame(r, snd, rcv, f, backoff, ccas * PQPAN_802154_CCA_NS);
    rx_end = t + f->airtime_ns;
    on_air(s, s->base_ns + t, s->base_ns + rx_end, snd, rcv);
    s->out->frames++;
    h[g].active = 1;
    if (h[g].next + 1u == m->frames && g + 1u == hops) {
        h[g].end_ns = rx_end;
        *handover = rx_end;
        return PQPAN_OK;
    }
    pqpan_802154_chain_book_ack(r, snd, rcv, m);
    on_air(s, s->base_ns + rx_end + m->turnaround_ns,
           s->base_ns + rx_end + m->turnaround_ns + m->ack_airtime_ns, rcv, snd);
    h[g].end_ns = rx_end + m->turnaround_ns + m->ack_airtime_ns;
    return PQPAN_OK;
}

static void end_frame(struct hop *h, unsigned g, const struct pqpan_802154_chain_msg *m)
{
    uint32_t k = h[g].next++;
    h[g].active = 0;
    h[g].free_ns = h[g].end_ns + m->frame[k].ifs_ns;
    if (h[g].next == m->frames || m->frame[h[g].next].unit != m->frame[k].unit) {
        h[g].units_done++;
    }
}

/* The next event: the earliest end of a frame in flight (ends first on a tie), else the
 * earliest start. Returns the hop, or hops if none; *is_end says which. */
static unsigned next_event(const struct hop *h, unsigned hops,
                           const struct pqpan_802154_chain_msg *m, uint64_t now, uint64_t *t,
                           int *is_end)
{
    unsigned g, best = hops;
    uint64_t when;
    for (g = 0; g < hops; g++) {
        int end = h[g].active;
        if (!end && !may_start(h, hops, g, m)) {
            continue;
        }
        when = end ? h[g].end_ns : (h[g].free_ns > now ? h[g].free_ns : now);
        if (best == hops || when < *t || (when == *t && end && !*is_end)) {
            best = g;
            *t = when;
            *is_end = end;
        }
    }
    return best;
}

static int transfer(void *ctx, struct chain_run *r, const struct pqpan_802154_chain_msg *m,
                    int from_init, uint64_t *handover)
{
    struct sim *s = ctx;
    struct hop h[PQPAN_802154_HOPS_MAX];
    unsigned hops = r->c->hops, g;
    uint64_t now = 0, t = 0;
    int is_end = 0, rc;
    memset(h, 0, sizeof h);
    s->base_ns = r->latency_ns;
    for (;;) {
        g = next_event(h, hops, m, now, &t, &is_end);
        if (g == hops) {
            break;
        }
        now = t;
        if (is_end) {
            end_frame(h, g, m);
            continue;
        }
        rc = start_frame(s, r, h, g, m, from_init, t, handover);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return h[hops - 1u].next == m->frames ? PQPAN_OK : PQPAN_ERR_TIMEOUT;
}

int pqpan_802154_chain_simulate(struct pqpan_802154_chain_sim_result *out,
                                const struct pqpan_802154_chain_config *c,
                                const uint64_t cycles[PQPAN_OP_COUNT], uint64_t seed)
{
    struct chain_run r;
    struct sim s;
    int rc;
    if (out == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (pqpan_802154_chain_run_init(&r, c, cycles, out->ledger, NULL) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(&s, 0, sizeof s);
    s.out = out;
    pqpan_prng_seed(&s.rng, seed);
    rc = pqpan_802154_chain_drive(&r, cycles, transfer, &s);
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    out->latency_ns = r.latency_ns;
    memcpy(out->transfer_ns, r.transfer_ns, sizeof out->transfer_ns);
    return PQPAN_OK;
}
