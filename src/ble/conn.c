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
#include <string.h>

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

/* One message as LL PDUs: fragments, total air time and total octets on the air. */
struct shape {
    struct pqpan_ble_frags f;
    uint64_t ns;
    uint64_t octets;
};

static void shape_of(struct shape *s, const struct pqpan_ble_link *l, const struct air *a,
                     uint32_t len, int ll_control, int enc)
{
    uint64_t payload;
    if (ll_control) {
        s->f.count = 1u;
        s->f.full = len;
        s->f.last = len;
        payload = len;
    } else {
        pqpan_ble_fragment(&s->f, len, l->ll_octets);
        payload = (uint64_t)len + PQPAN_L2CAP_HDR_BYTES;
    }
    if (enc && payload > 0u) {
        payload += (uint64_t)s->f.count * PQPAN_BLE_MIC_BYTES;
    }
    s->ns = s->f.count * a->t_empty + payload * a->per_octet;
    s->octets = s->f.count * a->oct_empty + payload;
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

/* Pairs that fit in one event when the longer PDU of a pair takes data_ns:
 * k pairs take k·(data + empty + 2·T_IFS) − T_IFS ≤ event length. At least one. */
static uint64_t pairs_per_event(const struct pqpan_ble_link *l, const struct air *a,
                                uint64_t data_ns)
{
    uint64_t len = event_len(l);
    uint64_t pair = data_ns + a->t_empty + 2u * PQPAN_BLE_T_IFS_NS;
    uint64_t k;
    k = (len + PQPAN_BLE_T_IFS_NS) / pair;
    if (k == 0u) {
        k = 1u;
    }
    if (l->max_pairs != 0u && k > l->max_pairs) {
        k = l->max_pairs;
    }
    return k;
}

/* Radio activity of one side during a run of pairs. */
struct side_air {
    uint64_t tx_ns, rx_ns;
    uint64_t data_tx, empty_tx;
    uint64_t octets_tx, octets_rx;
};

struct run {
    uint64_t pairs, events;
    struct side_air side[2];
    uint64_t replies;       /* reply events after the last data event */
    uint64_t data_close_ns; /* close of the last data event, from its anchor */
    uint64_t reply_close_ns;
    uint64_t reply_pairs;
};

static void add_air(struct pqpan_ledger *l, enum pqpan_phase ph, const struct side_air *a,
                    uint64_t ifs_ns, uint64_t events)
{
    pqpan_ledger_add(l, ph, PQPAN_STATE_TX, a->tx_ns);
    pqpan_ledger_add(l, ph, PQPAN_STATE_RX, a->rx_ns);
    pqpan_ledger_add(l, ph, PQPAN_STATE_IFS, ifs_ns);
    l->pdus_tx += a->data_tx + a->empty_tx;
    l->bytes_tx += a->octets_tx;
    l->bytes_rx += a->octets_rx;
    l->events += events;
}

/* The data PDUs of a run: n_a L2CAP PDUs shaped a, then one shaped b; fragments are
 * numbered in sending order. */
struct seq {
    const struct shape *a, *b;
    uint64_t n_a;
    int enc;
    int by_peripheral; /* the peripheral sends the data */
};

/* Air time of the first j fragments (j <= count) of one PDU. */
static uint64_t part_prefix_ns(const struct air *air, const struct shape *s, uint64_t j, int enc)
{
    return j < s->f.count ? j * air_ns(air, s->f.full, enc) : s->ns;
}

/* Air time of the first j fragments of a sequence. */
static uint64_t seq_prefix_ns(const struct air *air, const struct seq *q, uint64_t j)
{
    uint64_t na = q->n_a * q->a->f.count;
    if (j <= na) {
        return j / q->a->f.count * q->a->ns + part_prefix_ns(air, q->a, j % q->a->f.count, q->enc);
    }
    return q->n_a * q->a->ns + part_prefix_ns(air, q->b, j - na, q->enc);
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
};

/* An event the run joins: it already holds `pairs` pairs (the previous reply) and
 * closes at close_ns; pairs = 0 for none. */
struct head {
    uint64_t pairs;
    uint64_t close_ns;
};

/* Whether k more pairs carrying data_ns fit after what an event already holds. */
static int fits(const struct pqpan_ble_link *l, const struct air *air, const struct head *h,
                uint64_t k, uint64_t data_ns)
{
    uint64_t end = event_close_ns(air, k, data_ns);
    if (h->pairs > 0u) {
        end += h->close_ns + PQPAN_BLE_T_IFS_NS;
    }
    return end <= event_len(l) && (l->max_pairs == 0u || h->pairs + k <= l->max_pairs);
}

/* The air time the central assumes for fragment j when it decides whether the pair
 * fits: its own fragment's, or, when the peripheral sends, the peripheral's last packet's
 * (the central cannot know the peripheral's next length; src/sim/sim.c does the same). */
static uint64_t next_guess_ns(const struct air *air, const struct seq *q, uint64_t j)
{
    if (q->by_peripheral && j > 0u) {
        j--;
    }
    return seq_prefix_ns(air, q, j + 1u) - seq_prefix_ns(air, q, j);
}

/* Packs the fragments of q into events as the central does (§4.5.6): a pair goes in the
 * event while it ends within the event length and under the pair cap, at least one pair
 * per new event; the first fragments may join a head event. lo (pairs of the longest
 * fragment that fit a new event) is a lower bound, so the loop runs about once per
 * event. */
static void pack(struct packing *pk, const struct pqpan_ble_link *l, const struct air *air,
                 const struct seq *q, uint64_t lo, const struct head *head)
{
    uint64_t n = q->n_a * q->a->f.count + q->b->f.count;
    uint64_t i = 0;
    struct head h = *head;
    pk->events = 0;
    pk->last_close_ns = h.close_ns;
    while (i < n) {
        uint64_t base = seq_prefix_ns(air, q, i);
        uint64_t k = h.pairs > 0u ? 0u : (lo < n - i ? lo : n - i);
        while (i + k < n && fits(l, air, &h, k + 1u, seq_prefix_ns(air, q, i + k) - base +
                                                        next_guess_ns(air, q, i + k))) {
            k++;
        }
        if (h.pairs == 0u) {
            pk->events++;
            pk->last_close_ns = event_close_ns(air, k, seq_prefix_ns(air, q, i + k) - base);
        } else if (k > 0u) {
            pk->last_close_ns = h.close_ns + PQPAN_BLE_T_IFS_NS +
                                event_close_ns(air, k, seq_prefix_ns(air, q, i + k) - base);
        }
        h.pairs = 0u;
        i += k;
    }
}

/* The pairs and events of one transaction run; see the file comment for the rules. */
static void run_txn(struct run *r, const struct pqpan_ble_link *l, const struct air *air,
                    const struct pqpan_ble_txn *t, const struct head *head)
{
    static const struct head none = {0u, 0u};
    struct shape a, b, rsp;
    uint32_t biggest;
    uint64_t per_event, n_req, t0;
    int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
    int o = 1 - s;
    int confirmed = t->rsp_len != 0u;

    memset(r, 0, sizeof *r);
    memset(&rsp, 0, sizeof rsp);
    shape_of(&a, l, air, t->len, t->ll_control, t->encrypted);
    shape_of(&b, l, air, t->last_len, t->ll_control, t->encrypted);
    if (confirmed) {
        shape_of(&rsp, l, air, t->rsp_len, t->ll_control, t->encrypted);
    }
    biggest = a.f.full > b.f.full ? a.f.full : b.f.full;
    biggest = rsp.f.full > biggest ? rsp.f.full : biggest;
    per_event = pairs_per_event(l, air, air_ns(air, biggest, t->encrypted));
    n_req = (uint64_t)(t->count - 1u) * a.f.count + b.f.count;
    r->pairs = n_req + (uint64_t)t->count * rsp.f.count;
    if (confirmed && !l->same_event_reply) {
        struct seq qa = {&a, &a, 0u, t->encrypted, s}, qb = {&a, &b, 0u, t->encrypted, s};
        struct seq qr = {&rsp, &rsp, 0u, t->encrypted, o};
        struct packing pa = {0u, 0u}, pa1 = {0u, 0u}, pb, pr;
        if (t->count > 1u) {
            pack(&pa, l, air, &qa, per_event, &none);
            pa1 = pa;
            if (head->pairs > 0u) {
                pack(&pa1, l, air, &qa, per_event, head);
            }
            pack(&pb, l, air, &qb, per_event, &none);
        } else {
            pack(&pb, l, air, &qb, per_event, head);
        }
        pack(&pr, l, air, &qr, per_event, &none);
        r->events = (uint64_t)(t->count - 1u) * (pa.events + pr.events) + pb.events + pr.events;
        if (t->count > 1u) {
            r->events = r->events - pa.events + pa1.events;
        }
        r->replies = pr.events;
        r->reply_pairs = rsp.f.count;
        r->data_close_ns = pb.last_close_ns;
        r->reply_close_ns = pr.last_close_ns;
    } else {
        /* same-event replies: the replies share the data's events (pairs counted whole) */
        struct seq q = {&a, &b, (uint64_t)(t->count - 1u), t->encrypted, s};
        struct packing p;
        pack(&p, l, air, &q, per_event, confirmed ? &none : head);
        r->events = confirmed ? ceil_div(r->pairs, per_event) : p.events;
        r->data_close_ns = p.last_close_ns;
    }
    t0 = air->t_empty;
    r->side[s].data_tx = n_req;
    r->side[s].empty_tx = (uint64_t)t->count * rsp.f.count;
    r->side[s].tx_ns = (uint64_t)(t->count - 1u) * a.ns + b.ns + r->side[s].empty_tx * t0;
    r->side[s].octets_tx = (uint64_t)(t->count - 1u) * a.octets + b.octets +
                           r->side[s].empty_tx * air->oct_empty;
    r->side[o].data_tx = (uint64_t)t->count * rsp.f.count;
    r->side[o].empty_tx = n_req;
    r->side[o].tx_ns = (uint64_t)t->count * rsp.ns + n_req * t0;
    r->side[o].octets_tx = (uint64_t)t->count * rsp.octets +
                           n_req * air->oct_empty;
    r->side[s].rx_ns = r->side[o].tx_ns;
    r->side[o].rx_ns = r->side[s].tx_ns;
    r->side[s].octets_rx = r->side[o].octets_tx;
    r->side[o].octets_rx = r->side[s].octets_tx;
}

/* `events` events with one pair of empty PDUs each (the link kept alive, latency 0). */
static void run_idle(struct run *r, const struct air *a, uint64_t events)
{
    uint64_t t0 = a->t_empty;
    uint64_t o0 = a->oct_empty;
    int i;
    memset(r, 0, sizeof *r);
    r->pairs = events;
    r->events = events;
    for (i = 0; i < 2; i++) {
        r->side[i].empty_tx = events;
        r->side[i].tx_ns = events * t0;
        r->side[i].rx_ns = events * t0;
        r->side[i].octets_tx = events * o0;
        r->side[i].octets_rx = events * o0;
    }
}

static void book(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                 const struct pqpan_ble_link *l, const struct pqpan_ble_device *dev,
                 const struct run *r, enum pqpan_phase ph)
{
    uint64_t ifs = (2u * r->pairs - r->events) * PQPAN_BLE_T_IFS_NS;
    int i;
    for (i = 0; i < 2; i++) {
        if (led != NULL) {
            add_air(&led[i], ph, &r->side[i], ifs, r->events);
            led[i].pdus_rx += r->side[1 - i].data_tx + r->side[1 - i].empty_tx;
            if (dev != NULL) {
                pqpan_ble_event_costs(&led[i], ph, dev, l->ci_ns, (enum pqpan_ble_role)i, r->events);
            }
        }
        if (bits != NULL) {
            add_air(&bits[i], ph, &r->side[i], ifs, r->events);
            bits[i].pdus_rx += r->side[1 - i].data_tx + r->side[1 - i].empty_tx;
        }
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

/* Idle events before a txn, and whether its first PDUs join the previous reply event.
 * A computation (a CRYPTO wait) starts when the event that delivered its input closes
 * and its output goes at the first anchor after it ends (Vol 6 Part B §4.5.1: data is
 * sent at anchors); if that is the anchor of the reply event the two share it (§4.5.6,
 * MD). Other waits (the PHY instant) count whole intervals from the last event. */
static uint64_t idle_before(const struct pqpan_ble_txn *t, const struct pqpan_ble_link *l,
                            struct cursor *c, struct pqpan_ble_counts *counts, int *join)
{
    uint64_t d;
    *join = 0;
    if (t->wait_ns == 0u) {
        return 0u;
    }
    if (t->wait_phase != PQPAN_PHASE_CRYPTO) {
        return ceil_div(t->wait_ns, l->ci_ns) - 1u;
    }
    if (counts != NULL) {
        uint64_t start = c->elapsed - c->replies * l->ci_ns + c->close_ns;
        if (counts->crypto_end_ns == 0u) {
            counts->crypto_start_ns = start;
        }
        counts->crypto_end_ns = start + t->wait_ns;
    }
    d = ceil_div(c->close_ns + t->wait_ns, l->ci_ns);
    if (d <= c->replies) {
        *join = t->count > 0u;
        return 0u;
    }
    return d - 1u - c->replies;
}

static void count_run(struct pqpan_ble_counts *counts, const struct pqpan_ble_txn *t,
                      const struct run *r)
{
    int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
    counts->events += r->events;
    counts->data_pdus_tx[s] += r->side[s].data_tx;
    counts->data_pdus_tx[1 - s] += r->side[1 - s].data_tx;
    counts->empty_pdus_tx[0] += r->side[0].empty_tx;
    counts->empty_pdus_tx[1] += r->side[1].empty_tx;
    if (t->ll_control) {
        counts->llctrl_pdus[s] += t->count;
        counts->llctrl_pdus[1 - s] += t->rsp_len != 0u ? t->count : 0u;
    } else {
        counts->att_pdus[s] += t->count;
        counts->att_pdus[1 - s] += t->rsp_len != 0u ? t->count : 0u;
    }
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

void pqpan_ble_schedule(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                        struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                        const struct pqpan_ble_link *link, const struct pqpan_ble_device *dev,
                        const struct pqpan_ble_txn *txns, uint32_t n)
{
    struct air air;
    struct cursor cur;
    uint32_t k;
    air_of(&air, link->phy);
    memset(&cur, 0, sizeof cur);
    cur.close_ns = link->start_close_ns;
    cur.elapsed = elapsed_ns != NULL ? *elapsed_ns : 0u;
    for (k = 0; k < n; k++) {
        const struct pqpan_ble_txn *t = &txns[k];
        struct run r;
        struct head head;
        int join;
        uint64_t idle = idle_before(t, link, &cur, counts, &join);
        if (idle > 0u) {
            run_idle(&r, &air, idle);
            book(led, NULL, link, dev, &r, t->wait_phase);
            if (counts != NULL) {
                counts->idle_events += idle;
                counts->empty_pdus_tx[0] += idle;
                counts->empty_pdus_tx[1] += idle;
            }
            cur.elapsed += idle * link->ci_ns;
            cur.replies = 0u;
        }
        if (t->count == 0u) {
            continue;
        }
        head.pairs = join ? cur.reply_pairs : 0u;
        head.close_ns = cur.reply_close_ns;
        run_txn(&r, link, &air, t, &head);
        book(led, bits, link, dev, &r, t->phase);
        if (counts != NULL) {
            count_run(counts, t, &r);
            counts->last_close_ns = r.replies > 0u ? r.reply_close_ns : r.data_close_ns;
        }
        advance(&cur, &r, link->ci_ns);
    }
    if (elapsed_ns != NULL) {
        *elapsed_ns = cur.elapsed;
    }
}
