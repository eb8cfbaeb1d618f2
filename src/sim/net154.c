/* The packet simulator on IEEE 802.15.4 / 6LoWPAN (include/pqpan/sim154.h): unslotted
 * CSMA-CA (IEEE 802.15.4-2020 §6.2.5.1), Imm-Ack and retransmissions (§6.7.4), RFC 4944
 * fragmentation and reassembly (§5.3) with RFC 6282 IPHC, the application's real messages
 * in UDP, on the event heap shared with the BLE simulator (src/sim/evq.c). */
#include <math.h>
#include <string.h>

#include "pqpan/defaults.h"
#include "pqpan/sim154.h"

#define DEFAULT_MAX_NS 600000000000ull
#define AIR_KEEP_NS 10000000ull /* a transmission matters for 10 ms (> longest frame) */
#define BG_SHORT_BASE 0x0100u    /* short address of background node n: 0x0100 + n */
#define BG_PORT 0xF0BAu          /* compressible by NHC UDP (RFC 6282 §4.3.3) */
#define BG_HOP_LIMIT 64u
#define ZONE_INITIATOR 1u        /* hearing zones: nodes hear each other iff they share one */
#define ZONE_HIDDEN 2u
#define UDP_CHECKSUM_OFF (PQPAN_IPV6_HDR_OCTETS + 6u) /* RFC 768 */
#define IPV6_NEXT_HEADER_OFF 6u                       /* RFC 8200 §3 */

enum mac_state { ST_IDLE = 0, ST_BACKOFF, ST_CCA, ST_TURN, ST_TX, ST_WAIT_ACK, ST_IFS };

enum ev_kind {
    EV_MAIN = 0,  /* the node's MAC timer (gen_main) */
    EV_ARRIVAL,   /* a background frame arrives */
    EV_ACK_START, /* the receiver sends its Imm-Ack */
    EV_ACK_END,
    EV_CPU,       /* the application's crypto is done (gen_cpu) */
    EV_RTX,       /* the application sends its message again (gen_rtx) */
    EV_REASM,     /* the reassembly timeout of a partial datagram (gen_reasm) */
    EV_DELIVER    /* a complete datagram goes up the stack */
};

struct run {
    struct pqpan_sim154 *s;
    const struct pqpan_sim_app *app;
    void *app_ctx;
    pqpan_sim154_frame_fn on_frame;
    void *frame_ctx;
    int err; /* a library error: stops the run */
    uint64_t limit_ns; /* simulated-time limit */
};

static int is_party(unsigned n)
{
    return n < 2u;
}

static void schedule(struct run *r, uint64_t t_ns, enum ev_kind k, unsigned n, uint32_t gen)
{
    struct pqpan_sim154 *s = r->s;
    int rc = pqpan_evheap_push(&s->q, s->heap, PQPAN_SIM154_EVQ_MAX, t_ns, (uint8_t)k, (uint8_t)n, gen);
    if (rc != PQPAN_OK) {
        r->err = rc;
    }
}

static void set_main(struct run *r, unsigned n, uint64_t t_ns)
{
    struct pqpan_sim154_node *x = &r->s->node[n];
    schedule(r, t_ns, EV_MAIN, n, ++x->gen_main);
}

/* ---- the ledgers: every nanosecond of a party booked once ----
 * Each party's ledger is accounted up to acct_ns. Time is booked after it has passed: on
 * every MAC state change, computation start and end, and phase change, the time since
 * acct_ns goes to the state the node was in (fill_state); a received frame, an Imm-Ack
 * sent or received is booked as an explicit span [a, b), clipped to what is not booked yet.
 * So a node's states never overlap and its ledger adds up to the latency. */

/* The state of node n since acct_ns: its MAC's radio activity, else computing, else the
 * backoff's or the idle radio state of the configuration. */
static enum pqpan_state fill_state(const struct pqpan_sim154 *s, unsigned n)
{
    switch (s->node[n].state) {
    case ST_CCA:
    case ST_WAIT_ACK:
        return PQPAN_STATE_RX;
    case ST_TURN:
        return PQPAN_STATE_RAMP_TX;
    case ST_TX:
        return PQPAN_STATE_TX;
    default:
        break;
    }
    if (s->party[n].computing) {
        return PQPAN_STATE_CPU;
    }
    if (s->node[n].state == ST_BACKOFF) {
        return s->cfg.exch.backoff_rx ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP;
    }
    return s->cfg.exch.rx_always_on ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP;
}

/* Books party n's time from acct_ns to t in state st and phase. */
static void booked(struct pqpan_sim154 *s, unsigned n, enum pqpan_phase phase, enum pqpan_state st,
                   uint64_t t)
{
    struct pqpan_sim154_party *p = &s->party[n];
    pqpan_ledger_add(&s->res.ledger[n], phase, st, t - p->acct_ns);
    p->last_start_ns = p->acct_ns;
    p->last_phase = (uint8_t)phase;
    p->last_state = (uint8_t)st;
    p->acct_ns = t;
}

/* Books party n's time from acct_ns to t in its current state (CPU time always in the
 * CRYPTO phase). */
static void catch_up(struct pqpan_sim154 *s, unsigned n, uint64_t t)
{
    enum pqpan_state st;
    if (!is_party(n) || t <= s->party[n].acct_ns) {
        return;
    }
    st = fill_state(s, n);
    booked(s, n, st == PQPAN_STATE_CPU ? PQPAN_PHASE_CRYPTO : (enum pqpan_phase)s->phase, st, t);
}

/* Books [a, b) of party n in state st and phase, the part not booked already. */
static void book_span_in(struct pqpan_sim154 *s, unsigned n, enum pqpan_phase phase,
                         enum pqpan_state st, uint64_t a, uint64_t b)
{
    struct pqpan_sim154_party *p;
    if (!is_party(n)) {
        return;
    }
    p = &s->party[n];
    catch_up(s, n, a);
    if (b > p->acct_ns) {
        booked(s, n, phase, st, b);
    }
}

/* The same in the current phase. */
static void book_span(struct pqpan_sim154 *s, unsigned n, enum pqpan_state st, uint64_t a, uint64_t b)
{
    book_span_in(s, n, (enum pqpan_phase)s->phase, st, a, b);
}

/* Gives back the sleep booked last by party n after t (when it began before t): a wake-up
 * found later takes that time. */
static void unbook_sleep(struct pqpan_sim154 *s, unsigned n, uint64_t t)
{
    struct pqpan_sim154_party *p = &s->party[n];
    if (p->acct_ns > t && p->last_state == PQPAN_STATE_SLEEP && p->last_start_ns <= t) {
        s->res.ledger[n].ns[p->last_phase][PQPAN_STATE_SLEEP] -= p->acct_ns - t;
        p->acct_ns = t;
    }
}

/* ---- wake-ups (ieee802154.h "Wake-ups") ---- */

/* Has party n been asleep up to now? (Its time is booked up to now, the last of it in
 * SLEEP.) */
static int asleep(struct pqpan_sim154 *s, unsigned n)
{
    if (!is_party(n)) {
        return 0;
    }
    catch_up(s, n, s->now_ns);
    return s->party[n].acct_ns == s->now_ns && s->party[n].last_state == PQPAN_STATE_SLEEP;
}

/* Party n wakes from now on: the crystal start, then the CPU's part, booked ahead in the
 * current phase. Returns how long it takes (0 for a background node). */
static uint64_t wake_up(struct pqpan_sim154 *s, unsigned n)
{
    uint64_t xtal = s->cfg.exch.wake_xtal_ns, cpu = s->cfg.exch.wake_cpu_ns, t = s->now_ns;
    if (!is_party(n)) {
        return 0;
    }
    book_span(s, n, PQPAN_STATE_HFXO_START, t, t + xtal);
    book_span(s, n, PQPAN_STATE_CPU, t + xtal, t + xtal + cpu);
    return xtal + cpu;
}

/* A sleeping receiver wakes just before a frame reaches it (ideal timing): the wake-up
 * takes the sleep before now (booked already, in an earlier phase, if a phase began since;
 * the wake-up goes to the frame's phase, as in the estimator). */
static void wake_for_frame(struct pqpan_sim154 *s, unsigned n)
{
    uint64_t xtal = s->cfg.exch.wake_xtal_ns, cpu = s->cfg.exch.wake_cpu_ns, t = s->now_ns;
    if (!is_party(n) || fill_state(s, n) != PQPAN_STATE_SLEEP || t < xtal + cpu) {
        return;
    }
    unbook_sleep(s, n, t - xtal - cpu);
    book_span(s, n, PQPAN_STATE_HFXO_START, t - xtal - cpu, t - cpu);
    book_span(s, n, PQPAN_STATE_CPU, t - cpu, t);
}

/* Node n's MAC enters state st (enum mac_state) now. */
static void set_state(struct pqpan_sim154 *s, unsigned n, uint8_t st)
{
    catch_up(s, n, s->now_ns);
    s->node[n].state = st;
}

static void set_computing(struct pqpan_sim154 *s, unsigned n, uint8_t on)
{
    catch_up(s, n, s->now_ns);
    s->party[n].computing = on;
}

/* From now on time goes to phase; both parties' time so far to the phase before. */
static void phase_switch(struct run *r, enum pqpan_phase phase)
{
    struct pqpan_sim154 *s = r->s;
    catch_up(s, 0, s->now_ns);
    catch_up(s, 1, s->now_ns);
    s->phase = (uint8_t)phase;
}

static void stop(struct run *r, int status)
{
    r->s->res.status = status;
    r->s->stop = 1;
}

/* ---- who hears whom, and the air ---- */

static int hears(const struct pqpan_sim154 *s, unsigned a, unsigned b)
{
    return (s->node[a].zone & s->node[b].zone) != 0;
}

static const struct pqpan_sim154_air *air_at(const struct pqpan_sim154 *s, uint32_t i)
{
    return &s->air[(s->air_head + i) % PQPAN_SIM154_AIR_MAX];
}

/* Transmissions start in time order, so the oldest are at the head of the ring. */
static void air_add(struct run *r, unsigned n, uint64_t start, uint64_t end)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_air *a;
    while (s->air_n > 0 && s->air[s->air_head].start_ns + AIR_KEEP_NS < start) {
        s->air_head = (s->air_head + 1u) % PQPAN_SIM154_AIR_MAX;
        s->air_n--;
    }
    if (s->air_n == PQPAN_SIM154_AIR_MAX) {
        r->err = PQPAN_ERR_CAPACITY;
        return;
    }
    a = &s->air[(s->air_head + s->air_n) % PQPAN_SIM154_AIR_MAX];
    a->start_ns = start;
    a->end_ns = end;
    a->node = (uint8_t)n;
    s->air_n++;
}

/* Does a transmission that `listener` hears, by anyone but `listener` and `except`,
 * overlap [a, b) and start before `latest` (later starts do not count: capture)? */
static int air_heard(const struct pqpan_sim154 *s, unsigned listener, uint64_t a, uint64_t b,
                     unsigned except, uint64_t latest)
{
    uint32_t i;
    for (i = 0; i < s->air_n; i++) {
        const struct pqpan_sim154_air *x = air_at(s, i);
        if (x->node != listener && x->node != except && x->start_ns < b && x->end_ns > a &&
            x->start_ns < latest && hears(s, listener, x->node)) {
            return 1;
        }
    }
    return 0;
}

/* Is a frame on the air during [a, b), sent by `sender`, destroyed at `listener` by
 * another transmission it hears? Without capture any overlap destroys it; with
 * PQPAN_SIM154_CAPTURE_FIRST only a transmission that began before the frame's SHR was
 * over (§12.1.1: the receiver synchronises on the SHR). */
static int air_destroys(const struct pqpan_sim154 *s, unsigned listener, uint64_t a, uint64_t b,
                        unsigned sender)
{
    uint64_t latest = s->cfg.capture == PQPAN_SIM154_CAPTURE_FIRST
                          ? a + (uint64_t)PQPAN_802154_SHR_OCTETS * PQPAN_802154_OCTET_NS
                          : b;
    return air_heard(s, listener, a, b, sender, latest);
}

/* Was n itself transmitting during [a, b)? (Half duplex.) */
static int air_own(const struct pqpan_sim154 *s, unsigned n, uint64_t a, uint64_t b)
{
    uint32_t i;
    for (i = 0; i < s->air_n; i++) {
        const struct pqpan_sim154_air *x = air_at(s, i);
        if (x->node == n && x->start_ns < b && x->end_ns > a) {
            return 1;
        }
    }
    return 0;
}

/* ---- unslotted CSMA-CA, §6.2.5.1 ---- */

/* A random backoff from now + delay. */
static void backoff(struct run *r, unsigned n, uint64_t delay)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    uint64_t ns = pqpan_prng_below(&s->rng, 1ull << x->be) * PQPAN_802154_UNIT_BACKOFF_NS;
    set_state(s, n, ST_BACKOFF);
    set_main(r, n, s->now_ns + delay + ns);
}

/* A party that listens through its backoff and was asleep wakes first; a node whose radio
 * is still sending an Imm-Ack starts when that is over. */
static void csma_start(struct run *r, unsigned n)
{
    struct pqpan_sim154_node *x = &r->s->node[n];
    uint64_t delay = 0, now = r->s->now_ns;
    x->nb = 0;
    x->be = r->s->cfg.exch.csma.min_be;
    if (r->s->cfg.exch.backoff_rx && asleep(r->s, n)) {
        delay = wake_up(r->s, n);
    }
    if (x->ack_end_ns > now + delay) {
        delay = x->ack_end_ns - now;
    }
    backoff(r, n, delay);
}

/* The backoff is over: the CCA, after a wake-up if the party slept through the backoff. */
static void cca_start(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    uint64_t delay = s->cfg.exch.backoff_rx ? 0 : wake_up(s, n);
    set_state(s, n, ST_CCA);
    x->cca_start_ns = s->now_ns + delay;
    set_main(r, n, x->cca_start_ns + PQPAN_802154_CCA_NS);
}

/* ---- frames ---- */

/* The keying of frames sent by party n: the simulator's key and n's extended address
 * (the CCM* nonce's, also when the header carries a short address). */
static void keying_of(struct pqpan_802154_keying *k, const struct pqpan_sim154 *s, unsigned n)
{
    unsigned i;
    for (i = 0; i < PQPAN_802154_KEY_OCTETS; i++) {
        k->key[i] = (uint8_t)(PQPAN_SIM154_KEY_FIRST_OCTET + i);
    }
    k->src_ext = s->party[n].link.src.ext_addr;
}

/* Builds party n's current fragment as a data frame (RFC 4944 §5.3 piece in a MAC frame
 * with FCS, §7.2; secured with the next frame counter if the link is, §9) into its psdu
 * buffer; retransmissions send it unchanged (§6.7.4). */
static void build_fragment(struct run *r, unsigned n)
{
    struct pqpan_sim154_party *p = &r->s->party[n];
    struct pqpan_sim154_node *x = &r->s->node[n];
    struct pqpan_6lowpan_frag f;
    struct pqpan_802154_mhr h;
    struct pqpan_802154_keying k;
    uint8_t lowpan[PQPAN_802154_MAX_PSDU];
    size_t lowpan_len = 0, psdu_len = 0;
    int rc;
    pqpan_802154_plan_mhr(&h, &p->link, x->seq);
    h.aux.frame_counter = p->frame_counter++;
    keying_of(&k, r->s, n);
    rc = pqpan_6lowpan_frag_piece(&f, p->frame, p->comp_len, p->uncomp_len,
                                  (size_t)p->dgram_len - p->uncomp_len,
                                  pqpan_802154_mac_max_payload(&h));
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_frag_write(lowpan, sizeof lowpan, &lowpan_len, &f, p->dgram_len, p->tag,
                                      p->comp, p->dgram + p->uncomp_len);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_802154_mac_build(p->psdu, sizeof p->psdu, &psdu_len, &h, lowpan, lowpan_len, &k);
    }
    if (rc != PQPAN_OK) {
        r->err = rc;
        return;
    }
    x->psdu_len = (uint16_t)psdu_len;
}

/* A background frame: an unacknowledged 6LoWPAN UDP datagram (IPHC + NHC UDP) of zeros
 * from short address 0x0100 + n to the broadcast address, built only for the observer. */
static void emit_background(struct run *r, unsigned n)
{
    const struct pqpan_sim154_config *c = &r->s->cfg;
    struct pqpan_6lowpan_udp_spec spec;
    struct pqpan_802154_mhr h;
    uint8_t zeros[PQPAN_802154_MAX_PSDU];
    uint8_t dgram[PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + PQPAN_802154_MAX_PSDU];
    uint8_t lowpan[PQPAN_802154_MAX_PSDU], psdu[PQPAN_802154_MAX_PSDU];
    size_t dlen = 0, clen = 0, ulen = 0, len = 0;
    int rc;
    memset(&h, 0, sizeof h);
    h.frame_type = PQPAN_802154_FRAME_DATA;
    h.frame_version = 1;
    h.pan_id_compression = 1;
    h.seq = r->s->node[n].seq;
    h.dst_pan = c->exch.link.pan_id;
    h.dst.mode = PQPAN_802154_ADDR_SHORT;
    h.dst.short_addr = 0xFFFF;
    h.src.mode = PQPAN_802154_ADDR_SHORT;
    h.src.short_addr = (uint16_t)(BG_SHORT_BASE + n);
    memset(&spec, 0, sizeof spec);
    spec.src_mac = h.src;
    spec.dst_mac = h.dst;
    spec.hop_limit = BG_HOP_LIMIT;
    spec.src_port = BG_PORT;
    spec.dst_port = BG_PORT;
    memset(zeros, 0, sizeof zeros);
    rc = pqpan_6lowpan_build_udp(dgram, sizeof dgram, &dlen, &spec, zeros,
                                 (size_t)c->load_psdu - PQPAN_SIM154_MIN_BG_PSDU);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_compress(lowpan, sizeof lowpan, &clen, &ulen, dgram, dlen, &h.src, &h.dst, 1);
    }
    if (rc == PQPAN_OK && clen + dlen - ulen <= sizeof lowpan) {
        memcpy(lowpan + clen, dgram + ulen, dlen - ulen);
        rc = pqpan_802154_mac_build(psdu, sizeof psdu, &len, &h, lowpan, clen + dlen - ulen, NULL);
    }
    if (rc != PQPAN_OK || len != c->load_psdu) {
        r->err = rc != PQPAN_OK ? rc : PQPAN_ERR_INVALID_ARG;
        return;
    }
    r->on_frame(r->frame_ctx, r->s->now_ns, psdu, len);
}

static void count_tx(struct pqpan_ledger *l, size_t psdu)
{
    l->pdus_tx++;
    l->bytes_tx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + psdu;
}

static void count_rx(struct pqpan_ledger *l, size_t psdu)
{
    l->pdus_rx++;
    l->bytes_rx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + psdu;
}

/* Party rcv received a data frame intact: its radio turns around (aTurnaroundTime, IFS
 * state) and sends the Imm-Ack (§6.7.4), booked now in the phase of the frame's message,
 * ahead of whatever the party does meanwhile (it may compute: the radio's time comes first,
 * the CPU's is booked after it). The MAC starts no frame of its own before that is over. */
static void book_ack_ahead(struct pqpan_sim154 *s, unsigned rcv, enum pqpan_phase phase)
{
    uint64_t t = s->now_ns, turn = t + PQPAN_802154_TURNAROUND_NS;
    uint64_t end = turn + pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
    book_span_in(s, rcv, phase, PQPAN_STATE_IFS, t, turn);
    book_span_in(s, rcv, phase, PQPAN_STATE_TX, turn, end);
    s->node[rcv].ack_end_ns = end;
}

static void tx_start(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    uint64_t air;
    if (!is_party(n)) {
        x->psdu_len = s->cfg.load_psdu;
    }
    air = pqpan_802154_phy_ppdu_ns(x->psdu_len);
    set_state(s, n, ST_TX);
    x->tx_start_ns = s->now_ns;
    set_main(r, n, s->now_ns + air);
    air_add(r, n, s->now_ns, s->now_ns + air);
    if (!is_party(n)) {
        s->res.bg_frames++;
        if (r->on_frame != NULL) {
            emit_background(r, n);
        }
        return;
    }
    wake_for_frame(s, 1u - n);
    s->res.frames[n]++;
    s->res.ledger[n].events++;
    count_tx(&s->res.ledger[n], x->psdu_len);
    if (r->on_frame != NULL) {
        r->on_frame(r->frame_ctx, s->now_ns, s->party[n].psdu, x->psdu_len);
    }
}

/* ---- the application and its datagrams ---- */

static unsigned side_of(const struct pqpan_sim154 *s, unsigned n)
{
    return n == 0u ? s->cfg.initiator_side : 1u - s->cfg.initiator_side;
}

/* The IPv6 packets party n's message of len octets goes in. */
static size_t packets_of(const struct pqpan_sim154 *s, size_t len)
{
    return pqpan_802154_msg_packets(len, s->cfg.exch.ipv6_frag);
}

/* Both done and nothing left to send (a message whose last frame is acknowledged is not
 * in flight: the IFS that follows spaces only a next frame): the run ends, judged by the
 * application. */
static void check_end(struct run *r)
{
    const struct pqpan_sim154_party *p = r->s->party;
    unsigned n;
    for (n = 0; n < 2; n++) {
        if (!p[n].done || (p[n].sending && !p[n].delivered) || p[n].has_next ||
            p[n].rtx_pending || p[n].computing) {
            return;
        }
    }
    stop(r, r->app->verify != NULL ? r->app->verify(r->app_ctx) : PQPAN_OK);
}

/* Builds datagram p->seg of party n's message into p->dgram: the message, or one of its
 * segments (ieee802154.h), in UDP (RFC 768) and IPv6. */
static int build_segment(struct pqpan_sim154_party *p, size_t *dlen)
{
    struct pqpan_6lowpan_udp_spec spec;
    uint8_t payload[PQPAN_802154_UDP_PAYLOAD_MAX];
    size_t plen = 0;
    int rc;
    pqpan_802154_link_udp_spec(&spec, &p->link);
    rc = pqpan_802154_msg_datagram_write(payload, sizeof payload, &plen, p->msg, p->msg_len, p->seg);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_build_udp(p->dgram, sizeof p->dgram, dlen, &spec, payload, plen);
    }
    return rc;
}

/* The message's whole UDP datagram, and a new Identification for its fragments (RFC 8200
 * §4.5): once per sending of the message. */
static int build_whole(struct pqpan_sim154_party *p)
{
    struct pqpan_6lowpan_udp_spec spec;
    size_t len = 0;
    int rc;
    pqpan_802154_link_udp_spec(&spec, &p->link);
    rc = pqpan_6lowpan_build_udp(p->whole, sizeof p->whole, &len, &spec, p->msg, p->msg_len);
    p->whole_len = (uint16_t)len;
    p->ident++;
    return rc;
}

/* Builds party n's IPv6 packet p->seg of its message (the message, a segment, or an IPv6
 * fragment of its datagram) and starts its first 6LoWPAN fragment: RFC 6282 IPHC (NHC UDP
 * where the packet's next header is UDP), a new datagram tag each time (RFC 4944 §5.3). */
static void start_datagram(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_party *p = &s->party[n];
    struct pqpan_802154_mhr h;
    size_t dlen = 0, clen = 0, ulen = 0, frames = 0;
    int frag = s->cfg.exch.ipv6_frag && packets_of(s, p->msg_len) > 1, rc;
    pqpan_802154_plan_mhr(&h, &p->link, 0);
    if (frag) {
        rc = pqpan_ipv6frag_write(p->dgram, sizeof p->dgram, &dlen, p->whole, p->whole_len, p->seg,
                                  p->ident);
    } else {
        rc = build_segment(p, &dlen);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_compress(p->comp, sizeof p->comp, &clen, &ulen, p->dgram, dlen,
                                    &p->link.src, &p->link.dst, frag ? 0 : p->link.nhc_udp);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_frag_count(&frames, clen, ulen, dlen - ulen, pqpan_802154_mac_max_payload(&h));
    }
    if (rc != PQPAN_OK) {
        r->err = rc;
        return;
    }
    p->dgram_len = (uint16_t)dlen;
    p->comp_len = (uint16_t)clen;
    p->uncomp_len = (uint16_t)ulen;
    p->frames = (uint16_t)frames;
    p->frame = 0;
    p->tag++;
    p->sending = 1;
    p->delivered = 0;
    s->res.dgrams[n]++;
    phase_switch(r, (enum pqpan_phase)p->phase);
    s->node[n].attempts = 0;
    build_fragment(r, n);
    csma_start(r, n);
}

/* Party n sends its message (again) from its first IPv6 packet. */
static void start_message(struct run *r, unsigned n)
{
    struct pqpan_sim154_party *p = &r->s->party[n];
    int rc = r->s->cfg.exch.ipv6_frag ? build_whole(p) : PQPAN_OK;
    p->seg = 0;
    if (rc != PQPAN_OK) {
        r->err = rc;
        return;
    }
    start_datagram(r, n);
}

/* Party n's retransmission timer: reassembly_timeout from now (by then the receiver has
 * dropped any partial datagram of the message). */
static void arm_retry(struct run *r, unsigned n)
{
    struct pqpan_sim154_party *p = &r->s->party[n];
    p->rtx_pending = 1;
    schedule(r, r->s->now_ns + (uint64_t)r->s->cfg.reasm_timeout_ms * 1000000u, EV_RTX, n,
             ++p->gen_rtx);
}

static void cancel_retry(struct pqpan_sim154_party *p)
{
    p->rtx_pending = 0;
    p->gen_rtx++;
}

/* The application of party n has a message: sent at once, or after the datagram the MAC
 * is busy with. A new message supersedes a pending retransmission. */
static void queue_message(struct run *r, unsigned n, const uint8_t *msg, size_t len)
{
    struct pqpan_sim154_party *p = &r->s->party[n];
    cancel_retry(p);
    p->retries_used = 0;
    /* INIT and RESP transfer the keys; the messages after them (PQKE's FIN, numeric's
     * REVEAL) confirm, as the BLE simulator and both estimators book them. */
    p->phase = (uint8_t)(r->s->messages >= 2u ? PQPAN_PHASE_CONFIRM : PQPAN_PHASE_KEY_TRANSFER);
    r->s->messages++;
    if (p->sending) {
        memcpy(p->next, msg, len);
        p->next_len = (uint16_t)len;
        p->has_next = 1;
        return;
    }
    memcpy(p->msg, msg, len);
    p->msg_len = (uint16_t)len;
    start_message(r, n);
}

/* CPU time of an application step's operations (cycles / cpu_hz each, as the estimator). */
static uint64_t work_ns(const struct pqpan_sim154 *s, const struct pqpan_sim_work *w)
{
    uint64_t ns = 0;
    unsigned op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        ns += w->ops[op] * pqpan_cycles_to_ns(s->cfg.cycles[op], s->cfg.exch.cpu_hz);
    }
    return ns;
}

/* An application step: its operations become CPU time (in the CRYPTO phase, after a
 * wake-up if the party was asleep), its message is released when they end. */
static void app_step(struct run *r, unsigned n, int rc, const struct pqpan_sim_work *w, size_t out_len)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_party *p = &s->party[n];
    uint64_t ns, wake_ns = 0;
    unsigned op, k;
    if (rc != PQPAN_OK) {
        stop(r, rc);
        return;
    }
    if (out_len > sizeof p->out) {
        r->err = PQPAN_ERR_BUFFER_TOO_SMALL;
        return;
    }
    p->done = p->done || w->done;
    s->res.done[n] = p->done;
    p->out_len = (uint16_t)out_len;
    ns = work_ns(s, w);
    if (ns != 0) {
        wake_ns = asleep(s, n) ? wake_up(s, n) : 0;
        phase_switch(r, PQPAN_PHASE_CRYPTO);
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        for (k = 0; k < w->ops[op]; k++) {
            pqpan_ledger_add_op(&s->res.ledger[n], (enum pqpan_op)op, s->cfg.cycles[op]);
        }
    }
    set_computing(s, n, 1);
    schedule(r, s->now_ns + wake_ns + ns, EV_CPU, n, ++p->gen_cpu);
}

static void on_cpu_done(struct run *r, unsigned n, uint32_t gen)
{
    struct pqpan_sim154_party *p = &r->s->party[n];
    if (gen != p->gen_cpu) {
        return;
    }
    set_computing(r->s, n, 0);
    if (p->out_len != 0) {
        queue_message(r, n, p->out, p->out_len);
        p->out_len = 0;
    }
    check_end(r);
}

/* Party n's datagram is over: every fragment acknowledged (ok) or one out of attempts.
 * The next segment of the message follows an acknowledged one. The application sends the
 * whole message again when the timer fires: after a loss, or when a party still waiting
 * for an answer gets none (the receiver may have dropped a datagram whose fragments were
 * all acknowledged but arrived later than its reassembly timeout). */
static void datagram_done(struct run *r, unsigned n, int ok)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_party *p = &s->party[n];
    set_state(s, n, ST_IDLE);
    s->node[n].gen_main++;
    s->node[n].seq++;
    p->sending = 0;
    if (!ok) {
        s->res.dgram_failed[n]++;
    }
    if (p->has_next) {
        memcpy(p->msg, p->next, p->next_len);
        p->msg_len = p->next_len;
        p->has_next = 0;
        start_message(r, n);
        return;
    }
    if (ok && p->seg + 1u < packets_of(s, p->msg_len)) {
        p->seg++;
        start_datagram(r, n);
        return;
    }
    if (!ok || !p->done) {
        arm_retry(r, n);
        return;
    }
    check_end(r);
}

/* The retransmission timer: the message again (a new datagram), or, with no retries left,
 * the end: failed unless both parties are done. */
static void on_rtx(struct run *r, unsigned n, uint32_t gen)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_party *p = &s->party[n];
    if (gen != p->gen_rtx || !p->rtx_pending) {
        return;
    }
    p->rtx_pending = 0;
    if (p->retries_used >= s->cfg.dgram_retries) {
        if (!(s->party[0].done && s->party[1].done)) {
            stop(r, PQPAN_ERR_TIMEOUT);
            return;
        }
        check_end(r);
        return;
    }
    p->retries_used++;
    s->res.dgram_retx[n]++;
    start_message(r, n);
}

/* A reassembled IPv6 datagram carries UDP (RFC 8200 §3) with a good checksum (RFC 768,
 * pseudo-header of RFC 8200 §8.1) and the right length. */
static int udp_ok(const uint8_t *d, size_t len)
{
    uint16_t sum = 0;
    size_t udp_len;
    if (len < PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS ||
        d[IPV6_NEXT_HEADER_OFF] != PQPAN_IPV6_NEXT_HEADER_UDP) {
        return 0;
    }
    udp_len = ((size_t)d[PQPAN_IPV6_HDR_OCTETS + 4] << 8) | d[PQPAN_IPV6_HDR_OCTETS + 5];
    return udp_len == len - PQPAN_IPV6_HDR_OCTETS &&
           pqpan_6lowpan_udp_checksum(&sum, d, len) == PQPAN_OK &&
           sum == (uint16_t)(((unsigned)d[UDP_CHECKSUM_OFF] << 8) | d[UDP_CHECKSUM_OFF + 1]);
}

/* A segment (ieee802154.h) of d_len octets at d: segment 0 starts a message, segment i
 * follows segment i - 1 of the same count; any other (a stale or repeated segment) is
 * ignored, the sender starting the message again from segment 0 if it is lost. Returns
 * 1 when the last segment completed the message in p->seg_in. */
static int segment_in(struct pqpan_sim154_party *p, const uint8_t *d, size_t d_len)
{
    unsigned i = d[0] & ~PQPAN_802154_SEG_FLAG & 0xFFu, count = d[1];
    size_t data = d_len - PQPAN_802154_SEG_HDR_OCTETS;
    if (i == 0) {
        p->seg_in_len = 0;
        p->seg_in_next = 0;
        p->seg_in_count = (uint8_t)count;
    }
    if (i != p->seg_in_next || count != p->seg_in_count || count < 2u || i >= count ||
        p->seg_in_len + data > sizeof p->seg_in) {
        return 0;
    }
    memcpy(p->seg_in + p->seg_in_len, d + PQPAN_802154_SEG_HDR_OCTETS, data);
    p->seg_in_len = (uint16_t)(p->seg_in_len + data);
    p->seg_in_next++;
    return p->seg_in_next == count;
}

/* The frame that completed a datagram has been received: the datagram goes up the stack
 * at once (the receiver's Imm-Ack goes on meanwhile; the IFS spaces only the sender's own
 * frames, IEEE 802.15.4-2020 §6.2.4). Its UDP payload is the message, or a segment of one;
 * a whole message goes to the application unless it duplicates the last one. */
static void on_deliver(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_party *p = &s->party[n];
    const uint8_t *msg = p->ip_rx + PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS;
    struct pqpan_sim_work w;
    size_t len = 0, out_len = 0;
    int rc = pqpan_ipv6frag_reasm_input(&p->ip_reasm, p->ip_rx, sizeof p->ip_rx, &len, p->rx,
                                        p->rx_len, s->now_ns);
    p->rx_len = 0;
    if (rc != PQPAN_OK || (len != 0 && !udp_ok(p->ip_rx, len))) {
        r->err = rc != PQPAN_OK ? rc : PQPAN_ERR_MALFORMED;
        return;
    }
    if (len == 0) {
        return; /* an IPv6 fragment: the packet is not complete yet */
    }
    len -= PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS;
    if (len >= PQPAN_802154_SEG_HDR_OCTETS && (msg[0] & PQPAN_802154_SEG_FLAG) != 0) {
        if (!segment_in(p, msg, len)) {
            return;
        }
        msg = p->seg_in;
        len = p->seg_in_len;
    }
    if (len > sizeof p->last_in) {
        r->err = PQPAN_ERR_BUFFER_TOO_SMALL;
        return;
    }
    if (len == p->last_in_len && memcmp(msg, p->last_in, len) == 0) {
        /* The peer sent its message again: our answer was lost; send it again. */
        s->res.duplicates[n]++;
        if (p->answered && !p->sending && !p->has_next && !p->computing) {
            cancel_retry(p);
            s->res.dgram_retx[n]++;
            start_message(r, n);
        }
        return;
    }
    memcpy(p->last_in, msg, len);
    p->last_in_len = (uint16_t)len;
    /* The peer's message answers ours: no retransmission of ours any more. */
    cancel_retry(p);
    memset(&w, 0, sizeof w);
    rc = r->app->receive(r->app_ctx, (enum pqpan_ble_role)side_of(s, n), p->last_in, len, p->out,
                         sizeof p->out, &out_len, &w);
    p->answered = rc == PQPAN_OK && out_len != 0;
    app_step(r, n, rc, &w, out_len);
}

/* Parses the frame party snd sent (a copy: the sender keeps its own for retransmissions)
 * into psdu and f, and opens it if secured (MIC verified, payload decrypted, §9). */
static int open_frame(const struct pqpan_sim154 *s, unsigned snd, struct pqpan_802154_frame *f,
                      uint8_t psdu[PQPAN_802154_MAX_PSDU])
{
    size_t len = s->node[snd].psdu_len;
    struct pqpan_802154_keying k;
    int rc;
    memcpy(psdu, s->party[snd].psdu, len);
    rc = pqpan_802154_mac_parse(f, psdu, len);
    if (rc == PQPAN_OK && f->mhr.security) {
        keying_of(&k, s, snd);
        rc = pqpan_802154_mac_unsecure(psdu, len, f, &k);
    }
    return rc;
}

/* Data frame from party snd received intact by party rcv: it is acknowledged (§6.7.4);
 * a repeat of the last frame (same DSN: its ACK was lost) is then dropped, as Contiki-NG's
 * CSMA does (os/net/mac/mac-sequence.c); the payload goes through reassembly (RFC 4944
 * §5.3). */
static void receive_frame(struct run *r, unsigned rcv, unsigned snd)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_party *p = &s->party[rcv];
    const struct pqpan_sim154_node *x = &s->node[snd];
    struct pqpan_802154_frame f;
    uint8_t psdu[PQPAN_802154_MAX_PSDU];
    size_t dlen = 0;
    int rc;
    count_rx(&s->res.ledger[rcv], x->psdu_len);
    if (s->node[rcv].ack_seq == x->seq && p->have_rx_seq) {
        return;
    }
    s->node[rcv].ack_seq = x->seq;
    p->have_rx_seq = 1;
    rc = open_frame(s, snd, &f, psdu);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_reasm_input(&p->reasm, p->rx, sizeof p->rx, &dlen,
                                       psdu + f.payload_off, f.payload_len, &f.mhr.src,
                                       &f.mhr.dst, s->now_ns);
    }
    if (rc != PQPAN_OK) {
        r->err = rc;
        return;
    }
    if (p->reasm.active && p->reasm.start_ns == s->now_ns) {
        schedule(r, s->now_ns + p->reasm.timeout_ns + 1u, EV_REASM, rcv, ++p->gen_reasm);
    }
    if (dlen != 0) {
        p->rx_len = (uint16_t)dlen;
        schedule(r, s->now_ns, EV_DELIVER, rcv, 0);
    }
}

static void on_reasm_timeout(struct run *r, unsigned n, uint32_t gen)
{
    struct pqpan_sim154_party *p = &r->s->party[n];
    if (gen == p->gen_reasm && pqpan_6lowpan_reasm_expire(&p->reasm, r->s->now_ns)) {
        r->s->res.reasm_timeouts[n]++;
    }
}

/* ---- the MAC of one node ---- */

static void background_next(struct run *r, unsigned n)
{
    struct pqpan_sim154_node *x = &r->s->node[n];
    x->pending--;
    x->seq++;
    if (x->pending != 0) {
        csma_start(r, n);
    } else {
        set_state(r->s, n, ST_IDLE);
    }
}

/* One attempt failed (no ACK, or channel access failure): again while attempts remain
 * (macMaxFrameRetries, §6.7.4), else the datagram is lost (RFC 4944 has no per-fragment
 * recovery). */
static void attempt_failed(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    if (!is_party(n)) {
        background_next(r, n);
        return;
    }
    x->attempts++;
    if (x->attempts > s->cfg.exch.csma.max_frame_retries) {
        datagram_done(r, n, 0);
        return;
    }
    s->res.retries[n]++;
    csma_start(r, n);
}

/* CCA over (§6.2.5.1): idle -> aTurnaroundTime then the frame; busy -> NB + 1,
 * BE = min(BE + 1, macMaxBE), another backoff or a channel access failure. */
static void on_cca_end(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    const struct pqpan_802154_csma_params *cp = &s->cfg.exch.csma;
    if (is_party(n)) {
        s->res.ccas[n]++;
    }
    if (!air_heard(s, n, x->cca_start_ns, s->now_ns, n, s->now_ns)) {
        set_state(s, n, ST_TURN);
        set_main(r, n, s->now_ns + PQPAN_802154_TURNAROUND_NS);
        return;
    }
    x->nb++;
    x->be = (uint8_t)(x->be + 1u < cp->max_be ? x->be + 1u : cp->max_be);
    if (x->nb > cp->max_backoffs) {
        if (is_party(n)) {
            s->res.access_failures[n]++;
        }
        attempt_failed(r, n);
        return;
    }
    backoff(r, n, 0);
}

/* Frame sent: a broadcast waits its IFS (§6.2.4); a data frame of the pair reaches the
 * peer unless a transmission the peer hears overlapped it, and waits for its Imm-Ack up
 * to macAckWaitDuration (§6.7.4). */
static void on_tx_end(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    unsigned rcv = 1u - n;
    int own;
    if (!is_party(n)) {
        set_state(s, n, ST_IFS);
        set_main(r, n, s->now_ns + pqpan_802154_mac_ifs_ns(x->psdu_len));
        return;
    }
    own = air_own(s, rcv, x->tx_start_ns, s->now_ns);
    if (!own) {
        book_span(s, rcv, PQPAN_STATE_RX, x->tx_start_ns, s->now_ns);
    }
    if (!own && !air_destroys(s, rcv, x->tx_start_ns, s->now_ns, n)) {
        book_ack_ahead(s, rcv, (enum pqpan_phase)s->party[n].phase);
        receive_frame(r, rcv, n);
        schedule(r, s->now_ns + PQPAN_802154_TURNAROUND_NS, EV_ACK_START, rcv, 0);
    } else {
        s->res.rx_lost[rcv]++;
    }
    set_state(s, n, ST_WAIT_ACK);
    set_main(r, n, s->now_ns + pqpan_802154_mac_ack_wait_ns());
}

/* The Imm-Ack, aTurnaroundTime after the data frame (§6.7.4); its time is booked already. */
static void on_ack_start(struct run *r, unsigned rcv)
{
    struct pqpan_sim154 *s = r->s;
    uint8_t ack[PQPAN_802154_ACK_PSDU];
    uint64_t air = pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
    if (s->node[rcv].state == ST_TX) {
        return; /* half duplex: busy sending its own frame */
    }
    air_add(r, rcv, s->now_ns, s->now_ns + air);
    count_tx(&s->res.ledger[rcv], PQPAN_802154_ACK_PSDU);
    schedule(r, s->now_ns + air, EV_ACK_END, rcv, 0);
    if (r->on_frame != NULL) {
        pqpan_802154_mac_build_ack(ack, s->node[rcv].ack_seq, 0);
        r->on_frame(r->frame_ctx, s->now_ns, ack, sizeof ack);
    }
}

/* The ACK reaches the sender unless a transmission it hears overlapped it (booked in the
 * phase of the sender's message); then the IFS after the acknowledged frame (§6.2.4). The
 * acknowledged last frame of a message delivers it: the exchange may end here. */
static void on_ack_end(struct run *r, unsigned rcv)
{
    struct pqpan_sim154 *s = r->s;
    unsigned n = 1u - rcv;
    struct pqpan_sim154_node *x = &s->node[n];
    struct pqpan_sim154_party *p;
    enum pqpan_phase phase;
    uint64_t air = pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
    if (x->state != ST_WAIT_ACK || s->node[rcv].ack_seq != x->seq) {
        return;
    }
    if (air_destroys(s, n, s->now_ns - air, s->now_ns, rcv)) {
        s->res.rx_lost[n]++;
        return;
    }
    p = &s->party[n];
    phase = (enum pqpan_phase)p->phase;
    book_span_in(s, n, phase, PQPAN_STATE_IFS, s->now_ns - air - PQPAN_802154_TURNAROUND_NS,
                 s->now_ns - air);
    book_span_in(s, n, phase, PQPAN_STATE_RX, s->now_ns - air, s->now_ns);
    count_rx(&s->res.ledger[n], PQPAN_802154_ACK_PSDU);
    set_state(s, n, ST_IFS);
    set_main(r, n, s->now_ns + pqpan_802154_mac_ifs_ns(x->psdu_len));
    if (p->frame + 1u == p->frames && p->seg + 1u == packets_of(s, p->msg_len)) {
        p->delivered = 1;
        check_end(r);
    }
}

/* Frame acknowledged (or broadcast) and IFS over: the next fragment, or the datagram done. */
static void on_ifs_end(struct run *r, unsigned n)
{
    struct pqpan_sim154_party *p;
    if (!is_party(n)) {
        background_next(r, n);
        return;
    }
    p = &r->s->party[n];
    p->frame++;
    if (p->frame == p->frames) {
        datagram_done(r, n, 1);
        return;
    }
    r->s->node[n].seq++;
    r->s->node[n].attempts = 0;
    build_fragment(r, n);
    csma_start(r, n);
}

static void on_main(struct run *r, unsigned n, uint32_t gen)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim154_node *x = &s->node[n];
    if (gen != x->gen_main) {
        return;
    }
    switch (x->state) {
    case ST_BACKOFF:
        cca_start(r, n);
        break;
    case ST_CCA:
        on_cca_end(r, n);
        break;
    case ST_TURN:
        tx_start(r, n);
        break;
    case ST_TX:
        on_tx_end(r, n);
        break;
    case ST_WAIT_ACK:
        attempt_failed(r, n);
        break;
    case ST_IFS:
        on_ifs_end(r, n);
        break;
    default:
        break;
    }
}

/* Poisson arrivals: exponential gaps with mean 1/load_fps, from 53 random bits. A gap
 * past the time limit (at a very low load it may not even fit in 64 bits) is an arrival
 * just after the limit: the run ends there either way. */
static void next_arrival(struct run *r, unsigned n)
{
    struct pqpan_sim154 *s = r->s;
    double u = ((double)(pqpan_prng_next(&s->rng) >> 11) + 1.0) / 9007199254740993.0; /* (0, 1] */
    double gap_ns = -log(u) / s->cfg.load_fps * 1e9;
    uint64_t left = r->limit_ns - s->now_ns;
    uint64_t t = r->limit_ns < UINT64_MAX ? r->limit_ns + 1u : r->limit_ns;
    if (gap_ns <= (double)left && (uint64_t)gap_ns <= left) {
        t = s->now_ns + (uint64_t)gap_ns;
    }
    schedule(r, t, EV_ARRIVAL, n, 0);
}

static void on_arrival(struct run *r, unsigned n)
{
    struct pqpan_sim154_node *x = &r->s->node[n];
    x->pending++;
    if (x->state == ST_IDLE) {
        csma_start(r, n);
    }
    next_arrival(r, n);
}

static void dispatch(struct run *r, const struct pqpan_ev *ev)
{
    unsigned n = ev->node;
    switch ((enum ev_kind)ev->kind) {
    case EV_MAIN:
        on_main(r, n, ev->gen);
        break;
    case EV_ARRIVAL:
        on_arrival(r, n);
        break;
    case EV_ACK_START:
        on_ack_start(r, n);
        break;
    case EV_ACK_END:
        on_ack_end(r, n);
        break;
    case EV_CPU:
        on_cpu_done(r, n, ev->gen);
        break;
    case EV_RTX:
        on_rtx(r, n, ev->gen);
        break;
    case EV_REASM:
        on_reasm_timeout(r, n, ev->gen);
        break;
    default:
        on_deliver(r, n);
        break;
    }
}

/* ---- configuration and the run ---- */

void pqpan_sim154_config_default(struct pqpan_sim154_config *c)
{
    memset(c, 0, sizeof *c);
    pqpan_802154_est_config_default(&c->exch);
    c->initiator_side = (uint8_t)(pqpan_default_is(PQPAN_DEFAULT_KEYGEN_SIDE, "central")
                                      ? PQPAN_BLE_CENTRAL
                                      : PQPAN_BLE_PERIPHERAL);
    c->nodes = pqpan_default_u32(PQPAN_DEFAULT_NODES);
    c->load_psdu = (uint8_t)pqpan_default_u32(PQPAN_DEFAULT_FRAME_BYTES);
    c->reasm_timeout_ms = pqpan_default_u32(PQPAN_DEFAULT_REASM_TIMEOUT);
    c->dgram_retries = pqpan_default_u32(PQPAN_DEFAULT_DGRAM_RETRIES);
    c->seed = pqpan_default_u32(PQPAN_DEFAULT_SEED);
}

int pqpan_sim154_config_check(const struct pqpan_sim154_config *c)
{
    const struct pqpan_802154_est_config *e;
    int bg_ok;
    if (c == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    e = &c->exch;
    bg_ok = c->nodes == 2u || c->load_fps == 0.0 ||
            (c->load_psdu >= PQPAN_SIM154_MIN_BG_PSDU && c->load_psdu <= PQPAN_802154_MAX_PSDU);
    if (c->nodes < 2u || c->nodes > PQPAN_SIM154_MAX_NODES || c->hidden > c->nodes - 2u ||
        !(c->load_fps >= 0.0 && c->load_fps < 1e6) || !bg_ok || c->initiator_side > 1u ||
        c->reasm_timeout_ms == 0 || c->reasm_timeout_ms > PQPAN_SIM154_REASM_TIMEOUT_MS_MAX ||
        c->dgram_retries > PQPAN_SIM154_DGRAM_RETRIES_MAX ||
        c->capture > PQPAN_SIM154_CAPTURE_FIRST || e->cpu_hz == 0 || e->ipv6_frag > 1u ||
        !e->link.ack_request || e->link.src.mode == PQPAN_802154_ADDR_NONE ||
        (e->link.sec_level != PQPAN_802154_SEC_NONE &&
         pqpan_802154_sec_aux_len(e->link.sec_level, e->link.key_id_mode) == 0) ||
        e->link.dst.mode == PQPAN_802154_ADDR_NONE ||
        pqpan_802154_csma_params_check(&e->csma) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}

int pqpan_sim154_init(struct pqpan_sim154 *s, const struct pqpan_sim154_config *cfg)
{
    unsigned n;
    int rc;
    if (s == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(s, 0, sizeof *s);
    rc = pqpan_sim154_config_check(cfg);
    if (rc != PQPAN_OK) {
        return rc;
    }
    s->cfg = *cfg;
    pqpan_prng_seed(&s->rng, cfg->seed);
    pqpan_evheap_init(&s->q);
    for (n = 0; n < cfg->nodes; n++) {
        s->node[n].zone = (uint8_t)(ZONE_INITIATOR | ZONE_HIDDEN);
    }
    s->node[0].zone = ZONE_INITIATOR;
    for (n = cfg->nodes - cfg->hidden; n < cfg->nodes; n++) {
        s->node[n].zone = ZONE_HIDDEN;
    }
    /* Node 0 sends as configured, node 1 the way back. */
    s->party[0].link = cfg->exch.link;
    pqpan_802154_link_reverse(&s->party[1].link, &cfg->exch.link);
    for (n = 0; n < 2; n++) {
        s->party[n].tag = (uint16_t)(n << 15);
        pqpan_6lowpan_reasm_init(&s->party[n].reasm, (uint64_t)cfg->reasm_timeout_ms * 1000000u);
        pqpan_ipv6frag_reasm_init(&s->party[n].ip_reasm,
                                  (uint64_t)cfg->reasm_timeout_ms * 1000000u);
        s->party[n].last_state = PQPAN_STATE_CPU; /* the exchange starts awake */
        pqpan_ledger_init(&s->res.ledger[n]);
    }
    s->res.status = PQPAN_ERR_TIMEOUT;
    return PQPAN_OK;
}

static void run_start(struct run *r)
{
    struct pqpan_sim154 *s = r->s;
    struct pqpan_sim_work w;
    size_t out_len = 0;
    unsigned n;
    int rc;
    for (n = 2; n < s->cfg.nodes && s->cfg.load_fps > 0.0; n++) {
        next_arrival(r, n);
    }
    s->phase = PQPAN_PHASE_CRYPTO;
    memset(&w, 0, sizeof w);
    rc = r->app->start(r->app_ctx, (enum pqpan_ble_role)side_of(s, 0), s->party[0].out,
                       sizeof s->party[0].out, &out_len, &w);
    app_step(r, 0, rc, &w, out_len);
}

/* The run ends now, or later if a party's radio has time booked ahead (an Imm-Ack or a
 * wake-up under way when the time limit cut the run): both ledgers are booked to the end. */
static void run_end(struct pqpan_sim154 *s)
{
    uint64_t end = s->now_ns;
    unsigned n;
    for (n = 0; n < 2; n++) {
        if (s->party[n].acct_ns > end) {
            end = s->party[n].acct_ns;
        }
    }
    catch_up(s, 0, end);
    catch_up(s, 1, end);
    s->res.latency_ns = end;
}

int pqpan_sim154_run(struct pqpan_sim154 *s, const struct pqpan_sim_app *app, void *app_ctx,
                     pqpan_sim154_frame_fn on_frame, void *frame_ctx)
{
    struct run r;
    struct pqpan_ev ev;
    uint64_t limit;
    if (s == NULL || app == NULL || app->start == NULL || app->receive == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(&r, 0, sizeof r);
    r.s = s;
    r.app = app;
    r.app_ctx = app_ctx;
    r.on_frame = on_frame;
    r.frame_ctx = frame_ctx;
    limit = s->cfg.max_ns != 0 ? s->cfg.max_ns : DEFAULT_MAX_NS;
    r.limit_ns = limit;
    run_start(&r);
    while (!s->stop && r.err == PQPAN_OK && pqpan_evheap_pop(&s->q, s->heap, &ev)) {
        if (ev.t_ns > limit) {
            s->now_ns = limit;
            break;
        }
        s->now_ns = ev.t_ns;
        s->res.events++;
        dispatch(&r, &ev);
    }
    if (r.err != PQPAN_OK) {
        memset(&s->res, 0, sizeof s->res);
        s->res.status = r.err;
        return r.err;
    }
    run_end(s);
    return PQPAN_OK;
}
