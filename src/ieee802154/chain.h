/* Internal to the chain (include/pqpan/multihop154.h): the run of one PQKE across the
 * chain that the estimator (src/ieee802154/multihop.c) and the chain simulator
 * (src/sim/chain154.c) share. The run books the crypto steps, the idle time and the
 * hand-over of each message; a transfer function carries a message hop by hop and books
 * its frames: in closed form (the estimator) or frame by frame with drawn backoffs (the
 * simulator). Time is cut into segments as in src/ieee802154/internal.h. */
#ifndef PQPAN_IEEE802154_CHAIN_H
#define PQPAN_IEEE802154_CHAIN_H

#include <stdint.h>

#include "pqpan/ledger.h"
#include "pqpan/multihop154.h"

struct chain_run {
    const struct pqpan_802154_chain_config *c;
    struct pqpan_ledger *ledger; /* hops + 1 of them */
    struct pqpan_ledger *bits;   /* hops + 1, or NULL */
    enum pqpan_phase phase;      /* of the current segment */
    uint64_t busy_ns[PQPAN_802154_CHAIN_NODES]; /* booked in the current segment */
    uint64_t latency_ns;         /* where the current segment began */
    uint64_t tail_ns;            /* the last message's last Imm-Ack exchange */
    unsigned tail_node[2];       /* its two nodes */
    uint64_t transfer_ns[PQPAN_802154_MESSAGES];
    uint32_t frames[PQPAN_802154_MESSAGES];
    uint32_t packets[PQPAN_802154_MESSAGES];
};

/* The node that sends on hop g of a message from the initiator (from_init 1) or from the
 * responder, and the node that receives. */
unsigned pqpan_802154_chain_sender(unsigned hops, int from_init, unsigned g);
unsigned pqpan_802154_chain_receiver(unsigned hops, int from_init, unsigned g);

/* Books ns in state st to node (and to its bits ledger when bits is set). */
void pqpan_802154_chain_book(struct chain_run *r, unsigned node, enum pqpan_state st, uint64_t ns,
                             int bits);

/* A data frame f from s to d after a CSMA-CA run of backoff_ns (RX) and ccas CCAs (RX),
 * then aTurnaroundTime (RAMP_TX): the counters and states of both nodes. */
void pqpan_802154_chain_book_frame(struct chain_run *r, unsigned s, unsigned d,
                                   const struct pqpan_802154_chain_frame *f, uint64_t backoff_ns,
                                   uint64_t cca_ns);

/* The Imm-Ack exchange after a frame from s to d: aTurnaroundTime (IFS) on both, the ACK
 * (TX at d, RX at s). */
void pqpan_802154_chain_book_ack(struct chain_run *r, unsigned s, unsigned d,
                                 const struct pqpan_802154_chain_msg *m);

/* Carries message m (from the initiator if from_init) hop by hop from the start of the
 * current segment, books its frames and every Imm-Ack but that of its last frame on its
 * last hop, and gives the hand-over time (its last frame received at the destination)
 * from the segment's start. */
typedef int (*chain_transfer_fn)(void *ctx, struct chain_run *r,
                                 const struct pqpan_802154_chain_msg *m, int from_init,
                                 uint64_t *handover_ns);

/* Sets r up for configuration c with ledgers ledger (and bits, or NULL), hops + 1 each:
 * PQPAN_OK, or PQPAN_ERR_INVALID_ARG for a bad c or cycles (NULL). */
int pqpan_802154_chain_run_init(struct chain_run *r, const struct pqpan_802154_chain_config *c,
                                const uint64_t *cycles, struct pqpan_ledger *ledger,
                                struct pqpan_ledger *bits);

/* Runs the PQKE: ledgers (r->ledger, r->bits) zeroed and filled; r->latency_ns is the
 * latency at the end. */
int pqpan_802154_chain_drive(struct chain_run *r, const uint64_t cycles[PQPAN_OP_COUNT],
                             chain_transfer_fn transfer, void *ctx);

#endif
