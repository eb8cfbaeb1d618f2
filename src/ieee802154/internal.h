/* Internal to src/ieee802154: the CSMA-CA backoff draw, the reassemblies' bitmap of
 * received units (reasm.c), and the estimator's ledger bookkeeping. Time of the exchange is cut into segments (one message on the air, or one
 * node computing); a node's time in a segment not booked to a state is idle: RX when
 * receivers are always on, else SLEEP. (The simulator, src/sim/net154.c, books each
 * node's time as it passes instead: its nodes can be busy across segments.) */
#ifndef PQPAN_IEEE802154_INTERNAL_H
#define PQPAN_IEEE802154_INTERNAL_H

#include <stdint.h>

#include "pqpan/common.h"
#include "pqpan/ieee802154.h"
#include "pqpan/ledger.h"

/* random(2^be - 1) unit backoff periods from one rng octet (be <= 8), §6.2.5.1. */
int pqpan_802154_csma_draw(uint32_t *periods, uint8_t be, pqpan_rng_fn rng, void *rng_ctx);

/* Marks the 8-octet units [off, off + len) of a datagram (len > 0) in the bitmap have as
 * received: 1 if all were new, 0 if all were there already (an exact duplicate), -1 if
 * they overlap in part (nothing marked then). */
int pqpan_802154_reasm_mark(uint8_t *have, size_t off, size_t len);

struct pqpan_802154_seg {
    enum pqpan_phase phase;
    uint64_t start_ns;
    uint64_t busy_ns[2];
};

void pqpan_802154_seg_begin(struct pqpan_802154_seg *s, enum pqpan_phase phase, uint64_t start_ns);

/* Books ns in state st to node's ledger (and to bits[node] when bits is not NULL). */
void pqpan_802154_seg_book(struct pqpan_802154_seg *s, struct pqpan_ledger led[2],
                           struct pqpan_ledger *bits, unsigned node, enum pqpan_state st,
                           uint64_t ns);

/* Closes the segment at end_ns: each node's unbooked time becomes idle. */
void pqpan_802154_seg_end(struct pqpan_802154_seg *s, struct pqpan_ledger led[2], uint64_t end_ns,
                          int rx_always_on);

#endif
