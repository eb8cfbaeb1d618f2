/* The run of one PQKE across a chain of 802.15.4 hops (src/ieee802154/chain.h): steps,
 * messages, segments and the hand-over at a message's last frame, as the single-link
 * estimator (src/ieee802154/estimate.c) runs them for two nodes. */
#include <string.h>

#include "common/pqke_steps.h"
#include "ieee802154/chain.h"

#define FRAME_OVERHEAD_OCTETS (PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS)

unsigned pqpan_802154_chain_sender(unsigned hops, int from_init, unsigned g)
{
    return from_init ? g : hops - g;
}

unsigned pqpan_802154_chain_receiver(unsigned hops, int from_init, unsigned g)
{
    return from_init ? g + 1u : hops - g - 1u;
}

void pqpan_802154_chain_book(struct chain_run *r, unsigned node, enum pqpan_state st, uint64_t ns,
                             int bits)
{
    pqpan_ledger_add(&r->ledger[node], r->phase, st, ns);
    if (bits && r->bits != 0) {
        pqpan_ledger_add(&r->bits[node], r->phase, st, ns);
    }
    r->busy_ns[node] += ns;
}

void pqpan_802154_chain_book_frame(struct chain_run *r, unsigned s, unsigned d,
                                   const struct pqpan_802154_chain_frame *f, uint64_t backoff_ns,
                                   uint64_t cca_ns)
{
    pqpan_802154_chain_book(r, s, PQPAN_STATE_RX, backoff_ns, 0);
    pqpan_802154_chain_book(r, s, PQPAN_STATE_RX, cca_ns, 0);
    pqpan_802154_chain_book(r, s, PQPAN_STATE_RAMP_TX, PQPAN_802154_TURNAROUND_NS, 0);
    pqpan_802154_chain_book(r, s, PQPAN_STATE_TX, f->airtime_ns, 1);
    pqpan_802154_chain_book(r, d, PQPAN_STATE_RX, f->airtime_ns, 1);
    r->ledger[s].pdus_tx++;
    r->ledger[d].pdus_rx++;
    r->ledger[s].bytes_tx += FRAME_OVERHEAD_OCTETS + f->psdu_octets;
    r->ledger[d].bytes_rx += FRAME_OVERHEAD_OCTETS + f->psdu_octets;
    r->ledger[s].events++;
}

void pqpan_802154_chain_book_ack(struct chain_run *r, unsigned s, unsigned d,
                                 const struct pqpan_802154_chain_msg *m)
{
    pqpan_802154_chain_book(r, s, PQPAN_STATE_IFS, m->turnaround_ns, 1);
    pqpan_802154_chain_book(r, d, PQPAN_STATE_IFS, m->turnaround_ns, 1);
    pqpan_802154_chain_book(r, d, PQPAN_STATE_TX, m->ack_airtime_ns, 1);
    pqpan_802154_chain_book(r, s, PQPAN_STATE_RX, m->ack_airtime_ns, 1);
    r->ledger[d].pdus_tx++;
    r->ledger[s].pdus_rx++;
    r->ledger[d].bytes_tx += FRAME_OVERHEAD_OCTETS + PQPAN_802154_ACK_PSDU;
    r->ledger[s].bytes_rx += FRAME_OVERHEAD_OCTETS + PQPAN_802154_ACK_PSDU;
}

/* A segment begins where the latency so far ends; the two nodes of the last message's
 * last hop are still busy with its Imm-Ack exchange (booked already). */
static void seg_begin(struct chain_run *r, enum pqpan_phase phase)
{
    memset(r->busy_ns, 0, sizeof r->busy_ns);
    r->busy_ns[r->tail_node[0]] = r->tail_ns;
    r->busy_ns[r->tail_node[1]] = r->tail_ns;
    r->phase = phase;
}

/* The segment lasts len (at least the tail): every node's time not booked is idle
 * listening (always-on routers, pqpan_802154_chain_config_check). */
static void seg_end(struct chain_run *r, uint64_t len)
{
    unsigned n;
    if (len < r->tail_ns) {
        len = r->tail_ns;
    }
    for (n = 0; n <= r->c->hops; n++) {
        if (len > r->busy_ns[n]) {
            pqpan_ledger_add(&r->ledger[n], r->phase, PQPAN_STATE_RX, len - r->busy_ns[n]);
        }
    }
    r->tail_ns = 0;
    r->latency_ns += len;
}

/* node runs step k: it starts at once after the message before, while its radio ends that
 * message's Imm-Ack (the tail): CPU time booked past the tail. */
static void crypto_step(struct chain_run *r, unsigned node, unsigned k, const uint64_t cycles[])
{
    uint64_t ns = 0;
    unsigned op, i;
    seg_begin(r, PQPAN_PHASE_CRYPTO);
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        for (i = 0; i < r->c->exch.step_ops[k][op]; i++) {
            pqpan_ledger_add_op(&r->ledger[node], (enum pqpan_op)op, cycles[op]);
            ns += pqpan_cycles_to_ns(cycles[op], r->c->exch.cpu_hz);
        }
    }
    if (ns > r->busy_ns[node]) {
        pqpan_802154_chain_book(r, node, PQPAN_STATE_CPU, ns - r->busy_ns[node], 0);
    }
    seg_end(r, ns);
}

static int message(struct chain_run *r, unsigned msg, enum pqpan_phase phase,
                   chain_transfer_fn transfer, void *ctx)
{
    static const int from_init[PQPAN_802154_MESSAGES] = {1, 0, 1, 0};
    struct pqpan_802154_chain_msg m;
    unsigned last = r->c->hops - 1u;
    uint64_t handover = 0;
    int rc = pqpan_802154_chain_plan_msg(&m, r->c, msg);
    if (rc != PQPAN_OK) {
        return rc;
    }
    seg_begin(r, phase);
    rc = transfer(ctx, r, &m, from_init[msg], &handover);
    if (rc != PQPAN_OK) {
        return rc;
    }
    seg_end(r, handover);
    r->transfer_ns[msg] = handover;
    r->frames[msg] = m.frames;
    r->packets[msg] = m.packets;
    /* the tail: the Imm-Ack of the last frame, in the message's phase */
    r->tail_node[0] = pqpan_802154_chain_sender(r->c->hops, from_init[msg], last);
    r->tail_node[1] = pqpan_802154_chain_receiver(r->c->hops, from_init[msg], last);
    pqpan_802154_chain_book_ack(r, r->tail_node[0], r->tail_node[1], &m);
    r->tail_ns = m.turnaround_ns + m.ack_airtime_ns;
    return PQPAN_OK;
}

int pqpan_802154_chain_run_init(struct chain_run *r, const struct pqpan_802154_chain_config *c,
                                const uint64_t *cycles, struct pqpan_ledger *ledger,
                                struct pqpan_ledger *bits)
{
    memset(r, 0, sizeof *r);
    if (cycles == 0 || pqpan_802154_chain_config_check(c) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    r->c = c;
    r->ledger = ledger;
    r->bits = bits;
    return PQPAN_OK;
}

int pqpan_802154_chain_drive(struct chain_run *r, const uint64_t cycles[PQPAN_OP_COUNT],
                             chain_transfer_fn transfer, void *ctx)
{
    unsigned n, resp = r->c->hops;
    int rc;
    for (n = 0; n <= r->c->hops; n++) {
        pqpan_ledger_init(&r->ledger[n]);
        if (r->bits != 0) {
            pqpan_ledger_init(&r->bits[n]);
        }
    }
    r->latency_ns = 0;
    r->tail_ns = 0;
    r->tail_node[0] = 0;
    r->tail_node[1] = 0;
    crypto_step(r, 0, PQKE_STEP_INIT, cycles);
    rc = message(r, 0, PQPAN_PHASE_KEY_TRANSFER, transfer, ctx);
    if (rc == PQPAN_OK) {
        crypto_step(r, resp, PQKE_STEP_RESP, cycles);
        rc = message(r, 1, PQPAN_PHASE_KEY_TRANSFER, transfer, ctx);
    }
    if (rc == PQPAN_OK) {
        crypto_step(r, 0, PQKE_STEP_FIN, cycles);
        rc = message(r, 2, PQPAN_PHASE_CONFIRM, transfer, ctx);
    }
    if (rc == PQPAN_OK) {
        crypto_step(r, resp, PQKE_STEP_AFTER_FIN, cycles);
    }
    if (rc == PQPAN_OK && r->c->exch.msg_octets[3] != 0) {
        rc = message(r, 3, PQPAN_PHASE_CONFIRM, transfer, ctx);
    }
    if (rc == PQPAN_OK && r->tail_ns != 0) {
        seg_begin(r, PQPAN_PHASE_CONFIRM);
        seg_end(r, 0);
    }
    return rc;
}
