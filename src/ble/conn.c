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

/* One message as LL PDUs: fragments, total air time and total octets on the air, and
 * the air time of one full fragment (kept so the packing does not recompute it). */
struct shape {
    struct pqpan_ble_frags f;
    uint64_t ns;
    uint64_t octets;
    uint64_t full_ns;
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
    s->full_ns = air_ns(a, s->f.full, enc);
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

/* What one side sends during a run of pairs (the other side receives it). */
struct side_air {
    uint64_t tx_ns;
    uint64_t data_tx, empty_tx;
    uint64_t octets_tx;
};

struct run {
    uint64_t pairs, events;
    struct side_air side[2];
    uint64_t replies;       /* reply events after the last data event */
    uint64_t data_close_ns; /* close of the last data event, from its anchor */
    uint64_t reply_close_ns;
    uint64_t reply_pairs;
};

/* The data PDUs of a run: n_a L2CAP PDUs shaped a, then one shaped b; fragments are
 * numbered in sending order. na_frags and na_ns (the fragments and air time of the n_a
 * PDUs) and n (all fragments) are derived once by seq_of. */
struct seq {
    const struct shape *a, *b;
    uint64_t na_frags, na_ns, n;
    int by_peripheral; /* the peripheral sends the data */
};

static void seq_of(struct seq *q, const struct shape *a, const struct shape *b, uint64_t n_a,
                   int by_peripheral)
{
    q->a = a;
    q->b = b;
    q->na_frags = n_a * a->f.count;
    q->na_ns = n_a * a->ns;
    q->n = q->na_frags + b->f.count;
    q->by_peripheral = by_peripheral;
}

/* Air time of the first j fragments (j <= count) of one PDU. */
static uint64_t part_prefix_ns(const struct shape *s, uint64_t j)
{
    return j < s->f.count ? j * s->full_ns : s->ns;
}

/* Air time of the first j fragments of a sequence. */
static uint64_t seq_prefix_ns(const struct seq *q, uint64_t j)
{
    if (j >= q->na_frags) {
        return q->na_ns + part_prefix_ns(q->b, j - q->na_frags);
    }
    return j / q->a->f.count * q->a->ns + part_prefix_ns(q->a, j % q->a->f.count);
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

/* Whether k more pairs carrying data_ns fit after what an event already holds, in an
 * event of at most len_ns. */
static int fits(const struct pqpan_ble_link *l, const struct air *air, uint64_t len_ns,
                const struct head *h, uint64_t k, uint64_t data_ns)
{
    uint64_t end = event_close_ns(air, k, data_ns);
    if (h->pairs > 0u) {
        end += h->close_ns + PQPAN_BLE_T_IFS_NS;
    }
    return end <= len_ns && (l->max_pairs == 0u || h->pairs + k <= l->max_pairs);
}

/* Packs the fragments of q into events as the central does (§4.5.6): a pair goes in the
 * event while it ends within the event length and under the pair cap, at least one pair
 * per new event; the first fragments may join a head event. lo (pairs of the longest
 * fragment that fit a new event) is a lower bound, so the loop runs about once per
 * event. The central assumes for fragment j its own fragment's air time or, when the
 * peripheral sends, the peripheral's last packet's (it cannot know the peripheral's next
 * length; src/sim/sim.c does the same). The prefix sums walk along with j: end is the
 * air time of fragments [0, i+k), prev of [0, i+k-1), base of [0, i). */
static void pack_events(struct packing *pk, const struct pqpan_ble_link *l, const struct air *air,
                        const struct seq *q, uint64_t lo, const struct head *head)
{
    uint64_t len_ns = event_len(l);
    uint64_t i = 0, base = 0;
    struct head h = *head;
    pk->events = 0;
    pk->last_close_ns = h.close_ns;
    while (i < q->n) {
        uint64_t k = h.pairs > 0u ? 0u : (lo < q->n - i ? lo : q->n - i);
        uint64_t end = seq_prefix_ns(q, i + k);
        int guess_last = q->by_peripheral && i + k > 0u && i + k < q->n;
        uint64_t prev = guess_last ? seq_prefix_ns(q, i + k - 1u) : 0u;
        while (i + k < q->n) {
            uint64_t next = seq_prefix_ns(q, i + k + 1u);
            uint64_t guess = guess_last ? end - prev : next - end;
            if (!fits(l, air, len_ns, &h, k + 1u, end - base + guess)) {
                break;
            }
            prev = end;
            end = next;
            guess_last = q->by_peripheral;
            k++;
        }
        if (h.pairs == 0u) {
            pk->events++;
            pk->last_close_ns = event_close_ns(air, k, end - base);
        } else if (k > 0u) {
            pk->last_close_ns = h.close_ns + PQPAN_BLE_T_IFS_NS + event_close_ns(air, k, end - base);
        }
        h.pairs = 0u;
        i += k;
        base = end;
    }
}

/* pack_events, short-cut when no head event is joined and all of q fits the first event
 * (at most lo fragments): the loop would take them in one step. */
static void pack(struct packing *pk, const struct pqpan_ble_link *l, const struct air *air,
                 const struct seq *q, uint64_t lo, const struct head *head)
{
    if (head->pairs == 0u && q->n <= lo) {
        pk->events = 1u;
        pk->last_close_ns = event_close_ns(air, q->n, q->na_ns + q->b->ns);
        return;
    }
    pack_events(pk, l, air, q, lo, head);
}

/* The pairs per event of the longest PDU of a run (pairs_per_event), the lower bound
 * pack and the same-event count need. A packing of single fragments needs only lo >= 1,
 * so a run of one-fragment PDUs whose replies go in later events skips the division. */
static uint64_t lower_pairs(const struct pqpan_ble_link *l, const struct air *air,
                            const struct pqpan_ble_txn *t, const struct shape *a,
                            const struct shape *b, const struct shape *rsp, int separate)
{
    uint32_t biggest;
    if (a->f.count == 1u && b->f.count == 1u && rsp->f.count <= 1u && separate) {
        return 1u;
    }
    biggest = a->f.full > b->f.full ? a->f.full : b->f.full;
    biggest = rsp->f.full > biggest ? rsp->f.full : biggest;
    return pairs_per_event(l, air, air_ns(air, biggest, t->encrypted));
}

/* The pairs and events of one transaction run; see the file comment for the rules. */
static void run_txn(struct run *r, const struct pqpan_ble_link *l, const struct air *air,
                    const struct pqpan_ble_txn *t, const struct head *head)
{
    static const struct head none = {0u, 0u};
    struct shape a, b, rsp;
    uint64_t per_event, n_req, t0;
    int s = t->sender == PQPAN_BLE_CENTRAL ? 0 : 1;
    int o = 1 - s;
    int confirmed = t->rsp_len != 0u;
    int separate = confirmed && !l->same_event_reply;

    r->replies = 0u; /* the reply fields stay 0 unless replies take events of their own */
    r->reply_close_ns = 0u;
    r->reply_pairs = 0u;
    memset(&rsp, 0, sizeof rsp);
    shape_of(&a, l, air, t->len, t->ll_control, t->encrypted);
    if (t->last_len == t->len) {
        b = a;
    } else {
        shape_of(&b, l, air, t->last_len, t->ll_control, t->encrypted);
    }
    if (confirmed && t->rsp_len == t->len) { /* a Prepare Write Response echoes its request */
        rsp = a;
    } else if (confirmed) {
        shape_of(&rsp, l, air, t->rsp_len, t->ll_control, t->encrypted);
    }
    per_event = lower_pairs(l, air, t, &a, &b, &rsp, separate);
    n_req = (uint64_t)(t->count - 1u) * a.f.count + b.f.count;
    r->pairs = n_req + (uint64_t)t->count * rsp.f.count;
    if (separate) {
        struct seq qa, qb, qr;
        struct packing pa = {0u, 0u}, pa1 = {0u, 0u}, pb, pr;
        seq_of(&qb, &a, &b, 0u, s);
        seq_of(&qr, &rsp, &rsp, 0u, o);
        if (t->count > 1u) {
            seq_of(&qa, &a, &a, 0u, s);
            pack(&pa, l, air, &qa, per_event, &none);
            pa1 = pa;
            if (head->pairs > 0u) {
                pack_events(&pa1, l, air, &qa, per_event, head);
            }
            if (t->last_len == t->len) { /* qb is qa */
                pb = pa;
            } else {
                pack(&pb, l, air, &qb, per_event, &none);
            }
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
        struct seq q;
        struct packing p;
        seq_of(&q, &a, &b, (uint64_t)(t->count - 1u), s);
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
        r->side[i].octets_tx = events * o0;
    }
}

const char *pqpan_ble_bits_ifs_name(enum pqpan_ble_bits_ifs b)
{
    return b == PQPAN_BLE_BITS_IFS_PER_PDU_SENT ? "per-pdu-sent" : "each";
}

/* Adds a run to both sides' ledgers: what one side sends, the other receives. Each side
 * sends one PDU per pair; T_IFS per the rule (ble.h enum pqpan_ble_bits_ifs). */
static void add_run(struct pqpan_ledger led[2], enum pqpan_phase ph, const struct run *r,
                    enum pqpan_ble_bits_ifs rule)
{
    uint64_t n_ifs = rule == PQPAN_BLE_BITS_IFS_PER_PDU_SENT ? r->pairs : 2u * r->pairs - r->events;
    uint64_t ifs = n_ifs * PQPAN_BLE_T_IFS_NS;
    int i;
    for (i = 0; i < 2; i++) {
        const struct side_air *me = &r->side[i], *peer = &r->side[1 - i];
        led[i].ns[ph][PQPAN_STATE_TX] += me->tx_ns;
        led[i].ns[ph][PQPAN_STATE_RX] += peer->tx_ns;
        led[i].ns[ph][PQPAN_STATE_IFS] += ifs;
        led[i].pdus_tx += me->data_tx + me->empty_tx;
        led[i].pdus_rx += peer->data_tx + peer->empty_tx;
        led[i].bytes_tx += me->octets_tx;
        led[i].bytes_rx += peer->octets_tx;
        led[i].events += r->events;
    }
}

/* The per-event costs (HFXO, ramp, CPU, window widening) are linear in the events, so a
 * schedule call counts its events per phase and books their costs once, at its end. */
static void add_event_costs(struct pqpan_ledger led[2], const uint64_t events[PQPAN_PHASE_COUNT],
                            const struct pqpan_ble_link *l, const struct pqpan_ble_device *dev)
{
    int p, i;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        if (events[p] == 0u) {
            continue;
        }
        for (i = 0; i < 2; i++) {
            pqpan_ble_event_costs(&led[i], (enum pqpan_phase)p, dev, l->ci_ns,
                                  (enum pqpan_ble_role)i, events[p]);
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
    uint64_t events[PQPAN_PHASE_COUNT] = {0u}; /* per phase, for add_event_costs */
    struct pqpan_ble_link lk = *link;           /* with its event length resolved once */
    uint32_t k;
    air_of(&air, link->phy);
    lk.event_len_ns = event_len(link);
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
            if (led != NULL) {
                add_run(led, t->wait_phase, &r, PQPAN_BLE_BITS_IFS_EACH);
                events[t->wait_phase] += r.events;
            }
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
        run_txn(&r, &lk, &air, t, &head);
        if (led != NULL) {
            add_run(led, t->phase, &r, PQPAN_BLE_BITS_IFS_EACH);
            events[t->phase] += r.events;
        }
        if (bits != NULL) {
            add_run(bits, t->phase, &r, link->bits_ifs);
        }
        if (counts != NULL) {
            count_run(counts, t, &r);
            counts->last_close_ns = r.replies > 0u ? r.reply_close_ns : r.data_close_ns;
        }
        advance(&cur, &r, link->ci_ns);
    }
    if (led != NULL && dev != NULL) {
        add_event_costs(led, events, link, dev);
    }
    if (elapsed_ns != NULL) {
        *elapsed_ns = cur.elapsed;
    }
}
