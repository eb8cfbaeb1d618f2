/* The simulators' event queue: a binary min-heap ordered by time, then by insertion (so
 * simultaneous events run in the order they were scheduled), over caller-given storage. */
#include "pqpan/sim.h"

static int before(const struct pqpan_ev *a, const struct pqpan_ev *b)
{
    return a->t_ns < b->t_ns || (a->t_ns == b->t_ns && a->seq < b->seq);
}

static void swap(struct pqpan_ev *heap, uint32_t i, uint32_t j)
{
    struct pqpan_ev tmp = heap[i];
    heap[i] = heap[j];
    heap[j] = tmp;
}

void pqpan_evheap_init(struct pqpan_evheap *h)
{
    h->n = 0;
    h->next_seq = 0;
}

int pqpan_evheap_push(struct pqpan_evheap *h, struct pqpan_ev *heap, uint32_t cap, uint64_t t_ns,
                      uint8_t kind, uint8_t node, uint32_t gen)
{
    uint32_t i;
    if (h->n >= cap) {
        return PQPAN_ERR_CAPACITY;
    }
    i = h->n++;
    heap[i].t_ns = t_ns;
    heap[i].seq = h->next_seq++;
    heap[i].gen = gen;
    heap[i].kind = kind;
    heap[i].node = node;
    while (i > 0) {
        uint32_t parent = (i - 1) / 2;
        if (!before(&heap[i], &heap[parent])) {
            break;
        }
        swap(heap, i, parent);
        i = parent;
    }
    return PQPAN_OK;
}

int pqpan_evheap_pop(struct pqpan_evheap *h, struct pqpan_ev *heap, struct pqpan_ev *ev)
{
    uint32_t i = 0;
    if (h->n == 0) {
        return 0;
    }
    *ev = heap[0];
    if (--h->n == 0) {
        return 1;
    }
    heap[0] = heap[h->n];
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        if (l < h->n && before(&heap[l], &heap[m])) {
            m = l;
        }
        if (r < h->n && before(&heap[r], &heap[m])) {
            m = r;
        }
        if (m == i) {
            break;
        }
        swap(heap, i, m);
        i = m;
    }
    return 1;
}

void pqpan_evq_init(struct pqpan_evq *q)
{
    pqpan_evheap_init(&q->h);
}

int pqpan_evq_push(struct pqpan_evq *q, uint64_t t_ns, uint8_t kind, uint8_t node)
{
    return pqpan_evheap_push(&q->h, q->heap, PQPAN_EVQ_MAX, t_ns, kind, node, 0);
}

int pqpan_evq_pop(struct pqpan_evq *q, struct pqpan_ev *ev)
{
    return pqpan_evheap_pop(&q->h, q->heap, ev);
}
