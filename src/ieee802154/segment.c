#include <string.h>

#include "ieee802154/internal.h"

void pqpan_802154_seg_begin(struct pqpan_802154_seg *s, enum pqpan_phase phase, uint64_t start_ns)
{
    memset(s, 0, sizeof *s);
    s->phase = phase;
    s->start_ns = start_ns;
}

void pqpan_802154_seg_book(struct pqpan_802154_seg *s, struct pqpan_ledger led[2],
                           struct pqpan_ledger *bits, unsigned node, enum pqpan_state st,
                           uint64_t ns)
{
    pqpan_ledger_add(&led[node], s->phase, st, ns);
    if (bits != 0) {
        pqpan_ledger_add(&bits[node], s->phase, st, ns);
    }
    s->busy_ns[node] += ns;
}

void pqpan_802154_seg_end(struct pqpan_802154_seg *s, struct pqpan_ledger led[2], uint64_t end_ns,
                          int rx_always_on)
{
    enum pqpan_state idle = rx_always_on ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP;
    uint64_t len = end_ns - s->start_ns;
    unsigned n;
    for (n = 0; n < 2; n++) {
        if (len > s->busy_ns[n]) {
            pqpan_ledger_add(&led[n], s->phase, idle, len - s->busy_ns[n]);
        }
    }
}
