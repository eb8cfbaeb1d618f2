/* Connection events (Core v5.4 Vol 6 Part B §4.5.1 connection events, §4.5.6 closing
 * connection events with the MD bit, §4.2.4 window widening): how the transactions of a
 * key exchange fill events, and the radio time each side spends in them.
 *
 * Model (docs/MODEL.md "Link model"): an event is a sequence of pairs — the central's
 * PDU, T_IFS, the peripheral's PDU, T_IFS — kept open by the MD bit while either side has
 * data, until the event length is used up. A side without data answers with an empty PDU
 * (which also carries the acknowledgement, SN/NESN §4.5.9). A reply produced by a host
 * (ATT Confirmation/Response, the next SMP PDU) goes in the next event; a computation
 * starts when the event that delivered its input closes and its output joins the
 * reply's event when ready by its anchor. The packing and timeline mirror the packet
 * simulator (src/sim/sim.c), which the unit tests hold it to. */
#include "ble/setup.h"
#include "pqpan/ble.h"

/* Air time is affine in the PDU octets on every PHY (phy.c): t(n) = t(0) + n·per_octet,
 * octets(n) = octets(0) + n. The coefficients come from phy.c once per schedule call, so
 * the closed forms below need no per-PDU call. */
struct air {
    uint64_t t_empty;     /* empty PDU */
    uint64_t per_octet;   /* ns per PDU octet */
    uint64_t oct_empty;
};

static void air_of(struct air *a, enum pqpan_ble_phy phy)
{
    a->t_empty = pqpan_ble_packet_ns(phy, 0, 0);
    a->per_octet = pqpan_ble_packet_ns(phy, 1, 0) - a->t_empty;
    a->oct_empty = pqpan_ble_packet_octets(phy, 0, 0);
}

/* Air time of one PDU with a payload of n octets (MIC when encrypted and n > 0). */
static uint64_t air_ns(const struct air *a, uint32_t n, int enc)
{
    uint64_t mic = (enc && n > 0u) ? PQPAN_BLE_MIC_BYTES : 0u;
    return a->t_empty + (n + mic) * a->per_octet;
}

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1u) / b;
}

/* Longest event the link allows (0 = the interval minus T_IFS). */
static uint64_t event_len(const struct pqpan_ble_link *l)
{
    if (l->event_len_ns != 0u) {
        return l->event_len_ns;
    }
    return l->ci_ns > PQPAN_BLE_T_IFS_NS ? l->ci_ns - PQPAN_BLE_T_IFS_NS : 0u;
}

/* What every txn of one schedule call shares, derived once per call, and the last
 * answer of pairs_per_event (the txns of an exchange mostly ask the same question: their
 * longest PDU is a full LL fragment). */
struct call {
    struct air air;
    uint64_t len_ns;       /* event length (event_len) */
    uint64_t ci_ns;
    uint32_t ll_octets;
    uint32_t max_pairs;
    uint64_t ppe_data_ns;  /* the data_ns pairs_per_event was last asked for, */
    uint64_t ppe;          /* and its answer */
};

static inline void call_of(struct call *c, const struct pqpan_ble_link *l)
{
    air_of(&c->air, l->phy);
    c->len_ns = event_len(l);
    c->ci_ns = l->ci_ns;
    c->ll_octets = l->ll_octets;
    c->max_pairs = l->max_pairs;
    c->ppe_data_ns = UINT64_MAX; /* no PDU takes that long: the first question computes */
    c->ppe = 0u;
}

/* No reply: what an unconfirmed txn's replies add. */
static const struct pqpan_ble_shape no_reply = {0u, 0u, 0u, 0u, 0u, 0u};

/* An LL control PDU is one PDU of len octets; an L2CAP PDU fragments per
 * pqpan_ble_fragment, which is called only when it is longer than one LL PDU: the one-PDU
 * case is the common one. A single fragment's full_ns is its whole air time. */
static void shape_of(struct pqpan_ble_shape *s, const struct call *c, uint32_t len, int ll_control,
                     int enc)
{
    uint64_t payload = len;
    s->count = 1u;
    s->full = len;
    if (!ll_control) {
        s->full = len + PQPAN_L2CAP_HDR_BYTES;
        payload += PQPAN_L2CAP_HDR_BYTES;
        if (s->full > c->ll_octets) {
            struct pqpan_ble_frags f;
            pqpan_ble_fragment(&f, len, c->ll_octets);
            s->count = f.count;
            s->full = f.full;
        }
    }
    if (enc && payload > 0u) {
        payload += (uint64_t)s->count * PQPAN_BLE_MIC_BYTES;
    }
    s->ns = s->count * c->air.t_empty + payload * c->air.per_octet;
    s->octets = s->count * c->air.oct_empty + payload;
    s->full_ns = s->count == 1u ? s->ns : air_ns(&c->air, s->full, enc);
    s->last_ns = s->ns - (s->count - 1u) * s->full_ns;
}

/* Pairs that fit in one event when the longer PDU of a pair takes data_ns:
 * k pairs take k·(data + empty + 2·T_IFS) − T_IFS ≤ event length. At least one. */
static uint64_t pairs_per_event(struct call *c, uint64_t data_ns)
{
    uint64_t pair = data_ns + c->air.t_empty + 2u * PQPAN_BLE_T_IFS_NS;
    uint64_t k;
    if (data_ns == c->ppe_data_ns) {
        return c->ppe;
    }
    k = (c->len_ns + PQPAN_BLE_T_IFS_NS) / pair;
    if (k == 0u) {
        k = 1u;
    }
    if (c->max_pairs != 0u && k > c->max_pairs) {
        k = c->max_pairs;
    }
    c->ppe_data_ns = data_ns;
    c->ppe = k;
    return k;
}

/* The data PDUs of a run: n_a L2CAP PDUs shaped a, then one shaped b; fragments are
 * numbered in sending order. na_frags and na_ns (the fragments and air time of the n_a
 * PDUs) and n (all fragments) are derived once by seq_of. */
struct seq {
    const struct pqpan_ble_shape *a, *b;
    uint64_t na_frags, na_ns, n;
    int by_peripheral; /* the peripheral sends the data */
};

static inline void seq_of(struct seq *q, const struct pqpan_ble_shape *a,
                          const struct pqpan_ble_shape *b, uint64_t n_a, int by_peripheral)
{
    q->a = a;
    q->b = b;
    q->na_frags = n_a * a->count;
    q->na_ns = n_a * a->ns;
    q->n = q->na_frags + b->count;
    q->by_peripheral = by_peripheral;
}

/* Air time of the first j fragments (j <= count) of one PDU. */
static uint64_t part_prefix_ns(const struct pqpan_ble_shape *s, uint64_t j)
{
    return j < s->count ? j * s->full_ns : s->ns;
}

/* Air time of the first j fragments of a sequence. */
static uint64_t seq_prefix_ns(const struct seq *q, uint64_t j)
{
    if (j >= q->na_frags) {
        return q->na_ns + part_prefix_ns(q->b, j - q->na_frags);
    }
    return j / q->a->count * q->a->ns + part_prefix_ns(q->a, j % q->a->count);
}

/* A fragment of a sequence, walked in sending order: its PDU's shape and its place there. */
struct frag {
    uint64_t j; /* in the sequence */
    uint64_t f; /* in its PDU */
    const struct pqpan_ble_shape *s;
};

static inline void frag_at(struct frag *x, const struct seq *q, uint64_t j)
{
    x->j = j;
    x->s = j >= q->na_frags ? q->b : q->a;
    x->f = j >= q->na_frags ? j - q->na_frags : j % q->a->count;
}

/* Air time of the fragment (prefix(j + 1) - prefix(j) of seq_prefix_ns). */
static uint64_t frag_ns(const struct frag *x)
{
    return x->f + 1u < x->s->count ? x->s->full_ns : x->s->last_ns;
}

/* Air time of the fragment before it (j > 0): a full one of its PDU, or the last of the PDU
 * before, which is shaped a (only the sequence's last PDU is shaped b). */
static uint64_t frag_before_ns(const struct frag *x, const struct seq *q)
{
    return x->f > 0u ? x->s->full_ns : q->a->last_ns;
}

static inline void frag_next(struct frag *x, const struct seq *q)
{
    x->j++;
    if (++x->f == x->s->count) {
        x->f = 0u;
        x->s = x->j >= q->na_frags ? q->b : q->a;
    }
}

/* Close of an event of m pairs, one side sending data_ns of PDUs, the other empty PDUs:
 * the event ends with the last received PDU (§4.5.6). */
static uint64_t event_close_ns(const struct air *air, uint64_t m, uint64_t data_ns)
{
    return m * (air->t_empty + 2u * PQPAN_BLE_T_IFS_NS) - PQPAN_BLE_T_IFS_NS + data_ns;
}

struct packing {
    uint64_t events;        /* events opened (a head event is not opened here) */
    uint64_t last_close_ns; /* close of the last event, from its anchor */
    int by_side;            /* which side sends changed a guess of the packing loop (the
                               central's guess of a fragment's length: its own, or the
                               peripheral's last); 0: the same packing whoever sends */
};

/* An event the run joins: it already holds `pairs` pairs (the previous reply) and
 * closes at close_ns; pairs = 0 for none. */
struct head {
    uint64_t pairs;
    uint64_t close_ns;
};

static const struct head no_head = {0u, 0u};

/* Whether k more pairs carrying data_ns fit after what an event already holds. */
static inline int fits(const struct call *c, const struct head *h, uint64_t k, uint64_t data_ns)
{
    uint64_t end = event_close_ns(&c->air, k, data_ns);
    if (h->pairs > 0u) {
        end += h->close_ns + PQPAN_BLE_T_IFS_NS;
    }
    return end <= c->len_ns && (c->max_pairs == 0u || h->pairs + k <= c->max_pairs);
}

/* Packs the fragments of q into events as the central does (§4.5.6): a pair goes in the
 * event while it ends within the event length and under the pair cap, at least one pair
 * per new event; the first fragments may join a head event. lo (pairs of the longest
 * fragment that fit a new event) is a lower bound, so the loop runs about once per
 * event. The central assumes for fragment j its own fragment's air time or, when the
 * peripheral sends, the peripheral's last packet's (it cannot know the peripheral's next
 * length; src/sim/sim.c does the same). The prefix sums walk along with j: end is the
 * air time of fragments [0, i+k), prev of [0, i+k-1), base of [0, i). */
static void pack_events(struct packing *pk, const struct call *c, const struct seq *q,
                        uint64_t lo, const struct head *head)
{
    uint64_t i = 0, base = 0;
    struct head h = *head;
    pk->events = 0;
    pk->by_side = 0;
    pk->last_close_ns = h.close_ns;
    while (i < q->n) {
        uint64_t k = h.pairs > 0u ? 0u : (lo < q->n - i ? lo : q->n - i);
        uint64_t end = seq_prefix_ns(q, i + k);
        struct frag f;
        int last_known = i + k > 0u && i + k < q->n; /* a last packet to guess from */
        uint64_t prev;
        frag_at(&f, q, i + k);
        prev = last_known ? end - frag_before_ns(&f, q) : 0u;
        while (i + k < q->n) {
            uint64_t own = frag_ns(&f);
            /* the central's guess of the fragment's air time: its own, or the peripheral's
             * last packet's; the packing is the same whoever sends while both guesses
             * give the same answer */
            int fit_own = fits(c, &h, k + 1u, end - base + own);
            int fit_last = last_known ? fits(c, &h, k + 1u, end - base + (end - prev)) : fit_own;
            pk->by_side |= fit_own != fit_last;
            if (!(q->by_peripheral ? fit_last : fit_own)) {
                break;
            }
            prev = end;
            end += own;
            last_known = 1;
            k++;
            frag_next(&f, q);
        }
        if (h.pairs == 0u) {
            pk->events++;
            pk->last_close_ns = event_close_ns(&c->air, k, end - base);
        } else if (k > 0u) {
            pk->last_close_ns =
                h.close_ns + PQPAN_BLE_T_IFS_NS + event_close_ns(&c->air, k, end - base);
        }
        h.pairs = 0u;
        i += k;
        base = end;
    }
}

/* pack_events, short-cut where the loop would take one step: a single fragment after a
 * head event (it joins the head if it fits, else opens one event), or no head event and
 * all of q in the first event (at most lo fragments). */
static inline void pack(struct packing *pk, const struct call *c, const struct seq *q,
                        uint64_t lo, const struct head *head)
{
    if (head->pairs > 0u && q->n == 1u) { /* one fragment (b's): in the head event or a new one */
        pk->by_side = 0;
        if (fits(c, head, 1u, q->b->ns)) {
            pk->events = 0u;
            pk->last_close_ns =
                head->close_ns + PQPAN_BLE_T_IFS_NS + event_close_ns(&c->air, 1u, q->b->ns);
        } else {
            pk->events = 1u;
            pk->last_close_ns = event_close_ns(&c->air, 1u, q->b->ns);
        }
        return;
    }
    if (head->pairs == 0u && q->n <= lo) {
        pk->events = 1u;
        pk->by_side = 0;
        pk->last_close_ns = event_close_ns(&c->air, q->n, q->na_ns + q->b->ns);
        return;
    }
    pack_events(pk, c, q, lo, head);
}

/* A txn as the packing reads it: its shapes (s sends the messages, o the replies). */
struct txn_view {
    const struct pqpan_ble_shaped_txn *x;
    const struct pqpan_ble_shape *rsp; /* &no_reply when unconfirmed */
    int s, o;
};

/* Where a run leaves the schedule: its events, the last data event's close (from its
 * anchor), and the reply events after it (0 unless replies take events of their own). */
struct run {
    uint64_t events;
    uint64_t data_close_ns;
    uint64_t replies;
    uint64_t reply_close_ns;
    uint64_t reply_pairs;
    int by_side; /* a packing of the run depended on which side sends (struct packing) */
};

/* Replies in events of their own: each message (with the head event for the first) then
 * its reply. The count-1 first messages pack alike, so they are packed once. per_event:
 * pairs_per_event of the run's longest fragment, the lower bound pack needs. */
static void run_separate(struct run *r, const struct call *c, const struct pqpan_ble_txn *t,
                         const struct txn_view *v, const struct head *head, uint64_t per_event)
{
    const struct pqpan_ble_shaped_txn *x = v->x;
    struct seq qa, qb, qr;
    struct packing pa, pb, pr;
    uint64_t events;
    seq_of(&qb, &x->a, &x->b, 0u, v->s);
    seq_of(&qr, v->rsp, v->rsp, 0u, v->o);
    pack(&pr, c, &qr, per_event, &no_head);
    if (t->count > 1u) {
        struct packing pa1;
        seq_of(&qa, &x->a, &x->a, 0u, v->s);
        pack(&pa, c, &qa, per_event, &no_head);
        pa1 = pa;
        if (head->pairs > 0u) {
            pack(&pa1, c, &qa, per_event, head);
        }
        if (x->b_is_a) { /* qb is qa */
            pb = pa;
        } else {
            pack(&pb, c, &qb, per_event, &no_head);
        }
        events = (uint64_t)(t->count - 2u) * (pa.events + pr.events) + pa1.events + pr.events;
        r->by_side = pa.by_side | pa1.by_side;
    } else {
        pack(&pb, c, &qb, per_event, head);
        events = 0u;
        r->by_side = 0;
    }
    r->by_side |= pb.by_side | pr.by_side;
    r->events = events + pb.events + pr.events;
    r->replies = pr.events;
    r->reply_pairs = v->rsp->count;
    r->data_close_ns = pb.last_close_ns;
    r->reply_close_ns = pr.last_close_ns;
}

/* Replies in the data's events (same-event replies, or none): the data packs as one
 * sequence; with replies the pairs are counted whole per event. */
static void run_shared(struct run *r, const struct call *c, const struct pqpan_ble_txn *t,
                       const struct txn_view *v, const struct head *head, uint64_t per_event)
{
    const struct pqpan_ble_shaped_txn *x = v->x;
    int confirmed = t->rsp_len != 0u;
    struct seq q;
    struct packing p;
    seq_of(&q, &x->a, &x->b, (uint64_t)(t->count - 1u), v->s);
    pack(&p, c, &q, per_event, confirmed ? &no_head : head);
    r->events = confirmed ? ceil_div(x->n_req + x->n_rsp, per_event) : p.events;
    r->data_close_ns = p.last_close_ns;
    r->by_side = p.by_side;
    r->replies = 0u;
    r->reply_close_ns = 0u;
    r->reply_pairs = 0u;
}

/* One transaction run's events and where it leaves the schedule (see the file comment
 * for the rules). */
static void run_txn(struct run *r, struct call *c, const struct pqpan_ble_txn *t,
                    const struct pqpan_ble_shaped_txn *x, const struct head *head,
                    int same_event_reply)
{
    struct txn_view v;
    uint64_t per_event = pairs_per_event(c, x->biggest_ns);
    v.x = x;
    v.rsp = t->rsp_len != 0u ? &x->rsp : &no_reply;
    v.s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
    v.o = 1 - v.s;
    if (t->rsp_len != 0u && !same_event_reply) {
        run_separate(r, c, t, &v, head, per_event);
    } else {
        run_shared(r, c, t, &v, head, per_event);
    }
}

_Static_assert(PQPAN_PHASE_COUNT <= 32, "a bit per phase in the sums' used");

/* The air sums' phase ph, zeroed when first used. */
static struct pqpan_ble_phase_air *phase_air(struct pqpan_ble_air_sums *sm, enum pqpan_phase ph)
{
    struct pqpan_ble_phase_air *q = &sm->ph[ph];
    if ((sm->used & (1u << ph)) == 0u) {
        sm->used |= 1u << ph;
        sm->order[sm->n_used++] = (unsigned char)ph;
        q->tx_ns[0] = q->tx_ns[1] = 0u;
        q->pairs = 0u;
    }
    return q;
}

static void air_init(struct pqpan_ble_air_sums *sm)
{
    sm->used = 0u;
    sm->n_used = 0u;
    sm->pairs = 0u;
    sm->data_tx[0] = sm->data_tx[1] = 0u;
    sm->data_octets[0] = sm->data_octets[1] = 0u;
    sm->sdus[0][0] = sm->sdus[0][1] = sm->sdus[1][0] = sm->sdus[1][1] = 0u;
}

/* The events of a schedule's runs and its idle events (a pair of empty PDUs each, the link
 * kept alive), per phase (events[p] and idle[p] in use when bit p of used is set) and in
 * total. */
struct time_sums {
    uint32_t used;
    uint32_t n_used;                        /* the phases in use, in the order first used */
    unsigned char order[PQPAN_PHASE_COUNT];
    uint64_t events[PQPAN_PHASE_COUNT];
    uint64_t idle[PQPAN_PHASE_COUNT];
    uint64_t events_total, idle_total;
};

static void time_init(struct time_sums *ts)
{
    ts->used = 0u;
    ts->n_used = 0u;
    ts->events_total = ts->idle_total = 0u;
}

static inline void time_add(struct time_sums *ts, enum pqpan_phase ph, uint64_t events,
                            uint64_t idle)
{
    if ((ts->used & (1u << ph)) == 0u) {
        ts->used |= 1u << ph;
        ts->order[ts->n_used++] = (unsigned char)ph;
        ts->events[ph] = ts->idle[ph] = 0u;
    }
    ts->events[ph] += events;
    ts->idle[ph] += idle;
    ts->events_total += events;
    ts->idle_total += idle;
}

/* A txn's shapes on the link (b a copy of a, rsp of a or zero, as the lengths say), its
 * data PDUs and its longest fragment. */
static void shape_txn(struct pqpan_ble_shaped_txn *x, const struct call *c,
                      const struct pqpan_ble_txn *t)
{
    uint64_t biggest;
    shape_of(&x->a, c, t->len, t->ll_control, t->encrypted);
    x->b_is_a = t->last_len == t->len;
    if (x->b_is_a) {
        x->b = x->a;
    } else {
        shape_of(&x->b, c, t->last_len, t->ll_control, t->encrypted);
    }
    if (t->rsp_len == 0u) {
        x->rsp = no_reply;
    } else if (t->rsp_len == t->len) { /* a Prepare Write Response echoes its request */
        x->rsp = x->a;
    } else {
        shape_of(&x->rsp, c, t->rsp_len, t->ll_control, t->encrypted);
    }
    x->n_req = (uint64_t)(t->count - 1u) * x->a.count + x->b.count;
    x->n_rsp = (uint64_t)t->count * x->rsp.count;
    biggest = x->a.full_ns > x->b.full_ns ? x->a.full_ns : x->b.full_ns;
    x->biggest_ns = x->rsp.full_ns > biggest ? x->rsp.full_ns : biggest;
}

/* A txn run's air: the sender's data PDUs (n_req) and the replies (n_rsp), each answered
 * by an empty PDU from the other side. */
static void sum_air(struct pqpan_ble_air_sums *sm, const struct call *c,
                    const struct pqpan_ble_txn *t, const struct pqpan_ble_shaped_txn *x)
{
    struct pqpan_ble_phase_air *q = phase_air(sm, t->phase);
    int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1, o = 1 - s;
    uint64_t m = (uint64_t)(t->count - 1u);
    uint64_t o_msgs = t->rsp_len != 0u ? t->count : 0u;
    q->tx_ns[s] += m * x->a.ns + x->b.ns + x->n_rsp * c->air.t_empty;
    q->tx_ns[o] += (uint64_t)t->count * x->rsp.ns + x->n_req * c->air.t_empty;
    q->pairs += x->n_req + x->n_rsp;
    sm->pairs += x->n_req + x->n_rsp;
    sm->data_tx[s] += x->n_req;
    sm->data_tx[o] += x->n_rsp;
    sm->data_octets[s] += m * x->a.octets + x->b.octets;
    sm->data_octets[o] += (uint64_t)t->count * x->rsp.octets;
    sm->sdus[t->ll_control != 0][s] += t->count;
    sm->sdus[t->ll_control != 0][o] += o_msgs;
}

const char *pqpan_ble_bits_ifs_name(enum pqpan_ble_bits_ifs b)
{
    return b == PQPAN_BLE_BITS_IFS_PER_PDU_SENT ? "per-pdu-sent" : "each";
}

/* One phase's air into both sides' ledgers: what one side sends, the other receives. */
static inline void book_air(struct pqpan_ledger led[2], int ph, const uint64_t tx_ns[2],
                            uint64_t ifs_ns)
{
    int i;
    for (i = 0; i < 2; i++) {
        led[i].ns[ph][PQPAN_STATE_TX] += tx_ns[i];
        led[i].ns[ph][PQPAN_STATE_RX] += tx_ns[1 - i];
        led[i].ns[ph][PQPAN_STATE_IFS] += ifs_ns;
    }
}

/* The PDUs, octets and events of both sides: pairs pairs (each side sends one PDU per
 * pair), data_tx of them data PDUs of data_octets per side, the rest empty. */
static inline void book_totals(struct pqpan_ledger led[2], const struct air *air,
                               uint64_t pairs, uint64_t events, const uint64_t data_tx[2],
                               const uint64_t data_octets[2])
{
    int i;
    for (i = 0; i < 2; i++) {
        uint64_t me = data_octets[i] + (pairs - data_tx[i]) * air->oct_empty;
        uint64_t peer = data_octets[1 - i] + (pairs - data_tx[1 - i]) * air->oct_empty;
        led[i].pdus_tx += pairs;
        led[i].pdus_rx += pairs;
        led[i].bytes_tx += me;
        led[i].bytes_rx += peer;
        led[i].events += events;
    }
}

/* T_IFS per the rule (ble.h enum pqpan_ble_bits_ifs): two per pair but none after an
 * event's last PDU, or one per PDU a side sends. */
static uint64_t ifs_ns(enum pqpan_ble_bits_ifs rule, uint64_t pairs, uint64_t events)
{
    uint64_t n = rule == PQPAN_BLE_BITS_IFS_PER_PDU_SENT ? pairs : 2u * pairs - events;
    return n * PQPAN_BLE_T_IFS_NS;
}

/* Phase p of a schedule's sums: the air (0 when the phase sent none) and the events. */
struct phase_total {
    uint64_t tx_ns[2], pairs, events, idle;
};

static inline void phase_total(struct phase_total *q, const struct pqpan_ble_air_sums *air,
                               const struct time_sums *ts, int p)
{
    int has_air = (air->used >> p) & 1u, has_time = (ts->used >> p) & 1u;
    q->tx_ns[0] = has_air ? air->ph[p].tx_ns[0] : 0u;
    q->tx_ns[1] = has_air ? air->ph[p].tx_ns[1] : 0u;
    q->pairs = has_air ? air->ph[p].pairs : 0u;
    q->events = has_time ? ts->events[p] : 0u;
    q->idle = has_time ? ts->idle[p] : 0u;
}

/* The events accounting: txn runs and idle events (a pair of empty PDUs each), every
 * T_IFS, and with dev the per-event costs (linear in the events, so booked per phase). */
static void book_led(struct pqpan_ledger led[2], const struct pqpan_ble_air_sums *air,
                     const struct time_sums *ts, const struct call *c,
                     const struct pqpan_ble_device *dev)
{
    uint32_t k;
    int i;
    for (k = 0; k < air->n_used + ts->n_used; k++) {
        /* the air's phases, then the timeline's that sent no air (idle waits) */
        int p = k < air->n_used ? air->order[k] : ts->order[k - air->n_used];
        struct phase_total q;
        uint64_t tx_ns[2];
        if (k >= air->n_used && ((air->used >> p) & 1u) != 0u) {
            continue;
        }
        phase_total(&q, air, ts, p);
        tx_ns[0] = q.tx_ns[0] + q.idle * c->air.t_empty;
        tx_ns[1] = q.tx_ns[1] + q.idle * c->air.t_empty;
        book_air(led, p, tx_ns,
                 ifs_ns(PQPAN_BLE_BITS_IFS_EACH, q.pairs + q.idle, q.events + q.idle));
        for (i = 0; i < 2 && dev != NULL; i++) {
            pqpan_ble_event_costs(&led[i], (enum pqpan_phase)p, dev, c->ci_ns,
                                  (enum pqpan_ble_role)i, q.events + q.idle);
        }
    }
    book_totals(led, &c->air, air->pairs + ts->idle_total, ts->events_total + ts->idle_total,
                air->data_tx, air->data_octets);
}

/* The bits accounting (the study's): txn runs only, T_IFS per the link's rule. */
static void book_bits(struct pqpan_ledger bits[2], const struct pqpan_ble_air_sums *air,
                      const struct time_sums *ts, const struct call *c,
                      enum pqpan_ble_bits_ifs rule)
{
    uint32_t k;
    for (k = 0; k < air->n_used; k++) {
        struct phase_total q;
        phase_total(&q, air, ts, air->order[k]);
        book_air(bits, air->order[k], q.tx_ns, ifs_ns(rule, q.pairs, q.events));
    }
    book_totals(bits, &c->air, air->pairs, ts->events_total, air->data_tx, air->data_octets);
}

static void book_counts(struct pqpan_ble_counts *counts, const struct pqpan_ble_air_sums *air,
                        const struct time_sums *ts)
{
    int i;
    counts->events += ts->events_total;
    counts->idle_events += ts->idle_total;
    for (i = 0; i < 2; i++) {
        counts->data_pdus_tx[i] += air->data_tx[i];
        counts->empty_pdus_tx[i] += air->pairs - air->data_tx[i] + ts->idle_total;
        counts->att_pdus[i] += air->sdus[0][i];
        counts->llctrl_pdus[i] += air->sdus[1][i];
    }
}

/* Where the schedule stands: the last data event's close (from its anchor), the reply
 * events booked after it, and the elapsed time (anchor after the last event). */
struct cursor {
    uint64_t close_ns;
    uint64_t replies;
    uint64_t reply_close_ns;
    uint64_t reply_pairs;
    uint64_t elapsed;
};

/* Where a schedule call stands (the cursor), the events it has summed, and the link's
 * and device's constants. */
struct timeline {
    struct call c;
    struct cursor cur;
    struct time_sums ts;
    const struct pqpan_ble_device *dev;
    uint64_t lead[2];       /* pqpan_ble_event_lead_ns of each role at the link's interval */
    int by_side;            /* a run's packing, or the anchor a computation's output goes
                               at, depended on which side sends (struct packing,
                               idle_before) */
    uint64_t end_flipped_ns; /* the last computation's end, run by the other side */
};

/* Where a computation ends, from the anchor of the event that delivered its input, and
 * the first anchor after it (1 = the next one). */
struct finish {
    uint64_t end_ns;
    uint64_t anchor;
};

/* A computation of cpu_ns on side role after the event that closed at c->close_ns (from
 * its anchor): the side's CPU is the application's from that event's post-processing's
 * end, and every connection event takes it back from its start (pqpan_ble_event_lead_ns
 * before its anchor) to the end of its post-processing, suspending the computation (the
 * controller's interrupts preempt the application: docs/MODEL.md "Waits"; the packet
 * simulator's struct pqpan_sim_cpu). The events that pass are the reply events, closing
 * at c->reply_close_ns (a computation follows a message whose replies, ATT confirmations
 * and responses of one PDU, take one event), then idle ones (a pair of empty PDUs each),
 * whose gaps are all alike: a closed form after the replies. */
static void finish_of(struct finish *f, const struct timeline *tl, uint64_t cpu_ns,
                      enum pqpan_ble_role role)
{
    const struct cursor *c = &tl->cur;
    uint64_t ci = tl->c.ci_ns, lead = tl->lead[role];
    uint64_t post = tl->dev->post_ns, idle_close = 2u * tl->c.air.t_empty + PQPAN_BLE_T_IFS_NS;
    uint64_t t = c->close_ns + post, left = cpu_ns, k = 1u, gap, q;
    for (;; k++) {
        uint64_t start = k * ci > lead ? k * ci - lead : 0u; /* event k takes the CPU here */
        gap = start > t ? start - t : 0u;
        if (left <= gap) {
            f->end_ns = t + left;
            f->anchor = k;
            return;
        }
        left -= gap;
        t = k * ci + (k <= c->replies ? c->reply_close_ns : idle_close) + post;
        if (k >= c->replies) {
            break;
        }
    }
    /* from event k + 1 on, idle events: gap per interval ci − lead − idle_close − post */
    gap = ci > lead + idle_close + post ? ci - lead - idle_close - post : 1u;
    q = ceil_div(left, gap);
    f->end_ns = t + (q - 1u) * ci + (left - (q - 1u) * gap);
    f->anchor = k + q;
}

/* Idle events before a txn, and whether its first PDUs join the previous reply event.
 * A computation (a CRYPTO wait, run by the txn's sender) ends as finish_of says and its
 * output goes at the first anchor after it (Vol 6 Part B §4.5.1: data is sent at
 * anchors); if that is the anchor of the reply event the two share it (§4.5.6, MD). Other
 * waits (the PHY instant) count whole intervals from the last event. Where a computation
 * ends depends on the side that runs it (the peripheral's event starts earlier, by its
 * receive window): an anchor that would differ marks the timeline by_side, and the end
 * the other side would reach is kept (struct pqpan_ble_flip). */
static uint64_t idle_before(const struct pqpan_ble_txn *t, struct timeline *tl,
                            struct pqpan_ble_counts *counts, int *join)
{
    const struct cursor *c = &tl->cur;
    struct finish f, g;
    enum pqpan_ble_role other;
    uint64_t anchor;
    *join = 0;
    if (t->wait_ns == 0u && !(t->count == 0u && t->wait_phase == PQPAN_PHASE_CRYPTO)) {
        return 0u; /* a message sent with nothing computed before it */
    }
    if (t->wait_phase != PQPAN_PHASE_CRYPTO) {
        return ceil_div(t->wait_ns, tl->c.ci_ns) - 1u;
    }
    other = t->sender == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    finish_of(&f, tl, t->wait_ns, t->sender);
    if (f.anchor == 1u && f.end_ns + tl->lead[other] <= tl->c.ci_ns) {
        g = f; /* done before the next event on either side */
    } else {
        finish_of(&g, tl, t->wait_ns, other);
    }
    anchor = c->elapsed - c->replies * tl->c.ci_ns;
    tl->by_side |= f.anchor != g.anchor;
    tl->end_flipped_ns = anchor + g.end_ns;
    if (counts != NULL) {
        if (counts->crypto_end_ns == 0u) {
            counts->crypto_start_ns = anchor + c->close_ns + tl->dev->post_ns;
        }
        counts->crypto_end_ns = anchor + f.end_ns;
    }
    if (f.anchor <= c->replies) {
        *join = t->count > 0u;
        return 0u;
    }
    return f.anchor - 1u - c->replies;
}

/* Moves the cursor past a run. */
static void advance(struct cursor *c, const struct run *r, uint64_t ci_ns)
{
    c->close_ns = r->data_close_ns;
    c->replies = r->replies;
    c->reply_close_ns = r->reply_close_ns;
    c->reply_pairs = r->reply_pairs;
    c->elapsed += r->events * ci_ns;
}

/* Without a device the events take no time beyond their PDUs. */
static const struct pqpan_ble_device no_device;

static void timeline_start(struct timeline *tl, const struct pqpan_ble_link *link,
                           const uint64_t *elapsed_ns, const struct pqpan_ble_device *dev)
{
    call_of(&tl->c, link);
    tl->dev = dev != NULL ? dev : &no_device;
    tl->lead[PQPAN_BLE_CENTRAL] = pqpan_ble_event_lead_ns(tl->dev, link->ci_ns, PQPAN_BLE_CENTRAL);
    tl->lead[PQPAN_BLE_PERIPHERAL] =
        pqpan_ble_event_lead_ns(tl->dev, link->ci_ns, PQPAN_BLE_PERIPHERAL);
    tl->end_flipped_ns = 0u;
    tl->cur.close_ns = link->start_close_ns;
    tl->cur.replies = 0u;
    tl->cur.reply_close_ns = 0u;
    tl->cur.reply_pairs = 0u;
    tl->cur.elapsed = elapsed_ns != NULL ? *elapsed_ns : 0u;
    time_init(&tl->ts);
    tl->by_side = 0;
}

/* txn t (shaped x; unread when t carries no message) on the timeline: the idle events
 * before it, then its run. */
static inline void timeline_step(struct timeline *tl, const struct pqpan_ble_link *link,
                                 struct pqpan_ble_counts *counts,
                                 const struct pqpan_ble_txn *t,
                                 const struct pqpan_ble_shaped_txn *x)
{
    struct cursor *cur = &tl->cur;
    struct run r;
    struct head head;
    int join;
    uint64_t idle = idle_before(t, tl, counts, &join);
    if (idle > 0u) {
        time_add(&tl->ts, t->wait_phase, 0u, idle);
        cur->elapsed += idle * link->ci_ns;
        cur->replies = 0u;
    }
    if (t->count == 0u) {
        return;
    }
    head.pairs = join ? cur->reply_pairs : 0u;
    head.close_ns = cur->reply_close_ns;
    run_txn(&r, &tl->c, t, x, &head, link->same_event_reply);
    time_add(&tl->ts, t->phase, r.events, 0u);
    tl->by_side |= r.by_side;
    if (counts != NULL) {
        counts->last_close_ns = r.replies > 0u ? r.reply_close_ns : r.data_close_ns;
    }
    advance(cur, &r, link->ci_ns);
}

/* The sums into the ledgers and counts, the elapsed time out. */
static void timeline_end(const struct timeline *tl, const struct pqpan_ble_air_sums *air,
                         struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                         struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                         const struct pqpan_ble_link *link, const struct pqpan_ble_device *dev)
{
    if (led != NULL) {
        book_led(led, air, &tl->ts, &tl->c, dev);
    }
    if (bits != NULL) {
        book_bits(bits, air, &tl->ts, &tl->c, link->bits_ifs);
    }
    if (counts != NULL) {
        book_counts(counts, air, &tl->ts);
    }
    if (elapsed_ns != NULL) {
        *elapsed_ns = tl->cur.elapsed;
    }
}

void pqpan_ble_schedule(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                        struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                        const struct pqpan_ble_link *link, const struct pqpan_ble_device *dev,
                        const struct pqpan_ble_txn *txns, uint32_t n)
{
    struct timeline tl;
    struct pqpan_ble_air_sums air;
    uint32_t k;
    timeline_start(&tl, link, elapsed_ns, dev);
    air_init(&air);
    for (k = 0; k < n; k++) {
        struct pqpan_ble_shaped_txn x;
        if (txns[k].count > 0u) {
            shape_txn(&x, &tl.c, &txns[k]);
            sum_air(&air, &tl.c, &txns[k], &x);
        }
        timeline_step(&tl, link, counts, &txns[k], &x);
    }
    timeline_end(&tl, &air, led, bits, counts, elapsed_ns, link, dev);
}

void pqpan_ble_shape_txns(struct pqpan_ble_shaped *out, const struct pqpan_ble_link *link,
                          const struct pqpan_ble_txn *txns, uint32_t n)
{
    struct call c;
    uint32_t k;
    call_of(&c, link);
    air_init(&out->air);
    out->n = n;
    for (k = 0; k < n; k++) {
        if (txns[k].count > 0u) {
            shape_txn(&out->x[k], &c, &txns[k]);
            sum_air(&out->air, &c, &txns[k], &out->x[k]);
        }
    }
}

void pqpan_ble_schedule_shaped(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                               struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                               const struct pqpan_ble_link *link,
                               const struct pqpan_ble_device *dev,
                               const struct pqpan_ble_txn *txns,
                               const struct pqpan_ble_shaped *shaped,
                               struct pqpan_ble_flip *flip)
{
    struct timeline tl;
    uint32_t k;
    timeline_start(&tl, link, elapsed_ns, dev);
    for (k = 0; k < shaped->n; k++) {
        timeline_step(&tl, link, counts, &txns[k], &shaped->x[k]);
    }
    timeline_end(&tl, &shaped->air, led, bits, counts, elapsed_ns, link, dev);
    flip->by_side = tl.by_side;
    flip->crypto_end_ns = tl.end_flipped_ns;
}
