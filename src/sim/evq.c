/* The simulator's event queue: a fixed-size binary min-heap ordered by time, then by
 * insertion (so simultaneous events run in the order they were scheduled). */
#include "pqpan/sim.h"

static int before(const struct pqpan_ev *a, const struct pqpan_ev *b)
{
    return a->t_ns < b->t_ns || (a->t_ns == b->t_ns && a->seq < b->seq);
}

void pqpan_evq_init(struct pqpan_evq *q)
{
    q->n = 0;
    q->next_seq = 0;
}

int pqpan_evq_push(struct pqpan_evq *q, uint64_t t_ns, uint8_t kind, uint8_t node)
{
    uint32_t i;
    if (q->n == PQPAN_EVQ_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    i = q->n++;
    q->heap[i].t_ns = t_ns;
    q->heap[i].seq = q->next_seq++;
    q->heap[i].kind = kind;
    q->heap[i].node = node;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        struct pqpan_ev tmp;
        if (!before(&q->heap[i], &q->heap[parent])) {
            break;
        }
        tmp = q->heap[i];
        q->heap[i] = q->heap[parent];
        q->heap[parent] = tmp;
        i = parent;
    }
    return PQPAN_OK;
}

int pqpan_evq_pop(struct pqpan_evq *q, struct pqpan_ev *ev)
{
    uint32_t i = 0;
    if (q->n == 0) {
        return 0;
    }
    *ev = q->heap[0];
    if (--q->n == 0) {
        return 1;
    }
    q->heap[0] = q->heap[q->n];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        struct pqpan_ev tmp;
        if (l < q->n && before(&q->heap[l], &q->heap[m])) {
            m = l;
        }
        if (r < q->n && before(&q->heap[r], &q->heap[m])) {
            m = r;
        }
        if (m == i) {
            break;
        }
        tmp = q->heap[i];
        q->heap[i] = q->heap[m];
        q->heap[m] = tmp;
        i = m;
    }
    return 1;
}
