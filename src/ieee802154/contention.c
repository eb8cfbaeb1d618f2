/* Contention simulator: one PQKE between nodes 0 and 1 over 6LoWPAN / IEEE 802.15.4 while
 * background nodes send broadcast frames, every node running unslotted CSMA-CA
 * (IEEE 802.15.4-2020 §6.2.5.1) with Imm-Ack and retransmissions (§6.7.4). Discrete events
 * in integer nanoseconds; the next event is found by scanning the nodes' timers. */
#include <math.h>
#include <string.h>

#include "ieee802154/internal.h"
#include "pqpan/ieee802154.h"

#define NEVER UINT64_MAX
#define DEFAULT_MAX_NS 60000000000ull
#define AIR_KEEP_NS 10000000ull /* a transmission matters for 10 ms (> longest frame) */
#define MIN_BG_PSDU 17u          /* MHR 9 + IPHC/NHC-UDP 6 + FCS 2 */
#define BG_SHORT_BASE 0x0100u    /* short address of background node n: 0x0100 + n */

enum node_state {
    ST_IDLE = 0,
    ST_BACKOFF, /* t_main: CCA start */
    ST_CCA,     /* t_main: CCA end */
    ST_TURN,    /* t_main: TX start */
    ST_TX,      /* t_main: TX end */
    ST_WAIT_ACK,/* t_main: macAckWaitDuration over */
    ST_IFS,     /* t_main: frame finished, SIFS/LIFS over */
    ST_COMPUTE  /* t_main: crypto done */
};

enum timer { T_MAIN = 0, T_ARRIVAL, T_ACK, T_ACK_END, T_COUNT };

struct sim {
    struct pqpan_802154_csim *ws;
    const struct pqpan_802154_csim_config *c;
    struct pqpan_802154_csim_result *res;
    const uint64_t *cycles;
    pqpan_rng_fn rng;
    void *rng_ctx;
    pqpan_802154_frame_fn on_frame;
    void *frame_ctx;
    struct pqpan_802154_seg seg;
    uint64_t now;
    int err;  /* library error (stops the run) */
    int stop; /* the exchange ended (res->status says how) */
};

static int is_exch(uint32_t n)
{
    return n < 2u;
}

/* Books time to an exchanging node's ledger in the current segment. */
static void book(struct sim *s, uint32_t n, enum pqpan_state st, uint64_t ns)
{
    if (is_exch(n)) {
        pqpan_802154_seg_book(&s->seg, s->res->ledger, 0, n, st, ns);
    }
}

/* ---- the air ---- */

static void air_prune(struct pqpan_802154_csim *ws, uint64_t now)
{
    uint32_t i, k = 0;
    for (i = 0; i < ws->air_n; i++) {
        if (ws->air[i].end_ns + AIR_KEEP_NS >= now) {
            ws->air[k++] = ws->air[i];
        }
    }
    ws->air_n = k;
}

static void air_add(struct sim *s, uint32_t n, uint64_t start, uint64_t end)
{
    struct pqpan_802154_csim *ws = s->ws;
    air_prune(ws, start);
    if (ws->air_n == PQPAN_802154_CSIM_MAX_AIR) {
        s->err = PQPAN_ERR_CAPACITY;
        return;
    }
    ws->air[ws->air_n].start_ns = start;
    ws->air[ws->air_n].end_ns = end;
    ws->air[ws->air_n].node = n;
    ws->air_n++;
}

/* Does a transmission by someone other than `except` (or, with mine set, by `except`
 * itself) overlap [a, b)? */
static int air_overlap(const struct pqpan_802154_csim *ws, uint64_t a, uint64_t b, uint32_t except,
                       int mine)
{
    uint32_t i;
    for (i = 0; i < ws->air_n; i++) {
        const struct pqpan_802154_csim_air *x = &ws->air[i];
        if ((x->node == except) == (mine != 0) && x->start_ns < b && x->end_ns > a) {
            return 1;
        }
    }
    return 0;
}

/* ---- CSMA-CA, §6.2.5.1 ---- */

static void backoff(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    uint32_t periods = 0;
    if (pqpan_802154_csma_draw(&periods, x->be, s->rng, s->rng_ctx) != PQPAN_OK) {
        s->err = PQPAN_ERR_RNG;
        return;
    }
    x->state = ST_BACKOFF;
    x->t_main = s->now + (uint64_t)periods * PQPAN_802154_UNIT_BACKOFF_NS;
    book(s, n, s->c->exch.backoff_rx ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP,
         (uint64_t)periods * PQPAN_802154_UNIT_BACKOFF_NS);
}

static void csma_start(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    x->nb = 0;
    x->be = s->c->exch.csma.min_be;
    backoff(s, n);
}

/* ---- frames ---- */

static void emit_exchange_frame(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim *ws = s->ws;
    struct pqpan_6lowpan_frag f;
    struct pqpan_802154_mhr h;
    uint8_t lowpan[PQPAN_802154_MAX_PSDU], psdu[PQPAN_802154_MAX_PSDU];
    size_t lowpan_len = 0, psdu_len = 0;
    int rc;
    pqpan_802154_plan_mhr(&h, &ws->link, ws->node[n].seq);
    rc = pqpan_6lowpan_frag_piece(&f, ws->frame, ws->comp_len, ws->uncomp_len,
                                  ws->dgram_len - ws->uncomp_len, pqpan_802154_mac_max_payload(&h));
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_frag_write(lowpan, sizeof lowpan, &lowpan_len, &f, ws->dgram_len, ws->tag,
                                      ws->comp, ws->dgram + ws->uncomp_len);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_802154_mac_build_data(psdu, sizeof psdu, &psdu_len, &h, lowpan, lowpan_len);
    }
    if (rc != PQPAN_OK) {
        s->err = rc;
        return;
    }
    s->on_frame(s->frame_ctx, s->now, psdu, psdu_len);
}

/* A background frame: an unacknowledged 6LoWPAN UDP datagram (IPHC + NHC UDP, 6 octets of
 * header) from short address 0x0100 + n to the broadcast address, zero payload. */
static void emit_background_frame(struct sim *s, uint32_t n)
{
    struct pqpan_6lowpan_udp_spec spec;
    struct pqpan_802154_mhr h;
    uint8_t zeros[PQPAN_802154_MAX_PSDU], dgram[PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + PQPAN_802154_MAX_PSDU];
    uint8_t lowpan[PQPAN_802154_MAX_PSDU], psdu[PQPAN_802154_MAX_PSDU];
    size_t dlen = 0, clen = 0, ulen = 0, len = 0, udp_len = (size_t)s->c->load_psdu - MIN_BG_PSDU;
    int rc;
    memset(&h, 0, sizeof h);
    h.frame_type = PQPAN_802154_FRAME_DATA;
    h.frame_version = 1;
    h.pan_id_compression = 1;
    h.seq = s->ws->node[n].seq;
    h.dst_pan = s->c->exch.link.pan_id;
    h.dst.mode = PQPAN_802154_ADDR_SHORT;
    h.dst.short_addr = 0xFFFF;
    h.src.mode = PQPAN_802154_ADDR_SHORT;
    h.src.short_addr = (uint16_t)(BG_SHORT_BASE + n);
    memset(&spec, 0, sizeof spec);
    spec.src_mac = h.src;
    spec.dst_mac = h.dst;
    spec.hop_limit = 64;
    spec.src_port = 0xF0BA;
    spec.dst_port = 0xF0BA;
    memset(zeros, 0, sizeof zeros);
    rc = pqpan_6lowpan_build_udp(dgram, sizeof dgram, &dlen, &spec, zeros, udp_len);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_compress(lowpan, sizeof lowpan, &clen, &ulen, dgram, dlen, &h.src, &h.dst, 1);
    }
    if (rc == PQPAN_OK && clen + dlen - ulen <= sizeof lowpan) {
        memcpy(lowpan + clen, dgram + ulen, dlen - ulen);
        rc = pqpan_802154_mac_build_data(psdu, sizeof psdu, &len, &h, lowpan, clen + dlen - ulen);
    }
    if (rc != PQPAN_OK || len != s->c->load_psdu) {
        s->err = rc != PQPAN_OK ? rc : PQPAN_ERR_INVALID_ARG;
        return;
    }
    s->on_frame(s->frame_ctx, s->now, psdu, len);
}

static void tx_start(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    uint64_t air;
    x->psdu_len = is_exch(n) ? s->ws->plan[s->ws->frame].psdu_octets : s->c->load_psdu;
    air = pqpan_802154_phy_ppdu_ns(x->psdu_len);
    x->state = ST_TX;
    x->tx_start = s->now;
    x->t_main = s->now + air;
    air_add(s, n, s->now, s->now + air);
    book(s, n, PQPAN_STATE_TX, air);
    if (is_exch(n)) {
        s->res->frames[n]++;
    } else {
        s->res->bg_frames++;
    }
    if (s->on_frame != 0) {
        if (is_exch(n)) {
            emit_exchange_frame(s, n);
        } else {
            emit_background_frame(s, n);
        }
    }
}

/* ---- the exchange: crypto steps and messages ---- */

static void seg_switch(struct sim *s, enum pqpan_phase phase)
{
    pqpan_802154_seg_end(&s->seg, s->res->ledger, s->now, s->c->exch.rx_always_on);
    pqpan_802154_seg_begin(&s->seg, phase, s->now);
}

static void compute(struct sim *s, uint32_t n, enum pqpan_op op1, enum pqpan_op op2)
{
    uint64_t ns = 0;
    enum pqpan_op ops[2];
    int i;
    ops[0] = op1;
    ops[1] = op2;
    seg_switch(s, PQPAN_PHASE_CRYPTO);
    for (i = 0; i < 2 && ops[i] != PQPAN_OP_COUNT; i++) {
        uint64_t t = s->cycles[ops[i]] * 1000000000u / s->c->exch.cpu_hz;
        pqpan_ledger_add_op(&s->res->ledger[n], ops[i], s->cycles[ops[i]]);
        book(s, n, PQPAN_STATE_CPU, t);
        ns += t;
    }
    s->ws->node[n].state = ST_COMPUTE;
    s->ws->node[n].t_main = s->now + ns;
}

/* Prepares message msg (0 INIT, 1 RESP, 2 FIN) and starts sending its first frame. */
static void message_start(struct sim *s)
{
    struct pqpan_802154_csim *ws = s->ws;
    const struct pqpan_802154_link_cfg *fwd = &s->c->exch.link;
    struct pqpan_6lowpan_udp_spec spec;
    struct pqpan_802154_plan plan;
    uint32_t sender = ws->msg == 1 ? 1u : 0u;
    size_t i, udp_len = s->c->exch.msg_octets[ws->msg];
    int rc;
    ws->link = *fwd;
    if (sender == 1) {
        ws->link.src = fwd->dst;
        ws->link.dst = fwd->src;
        ws->link.src_port = fwd->dst_port;
        ws->link.dst_port = fwd->src_port;
    }
    memset(&spec, 0, sizeof spec);
    spec.src_mac = ws->link.src;
    spec.dst_mac = ws->link.dst;
    spec.hop_limit = ws->link.hop_limit;
    spec.src_port = ws->link.src_port;
    spec.dst_port = ws->link.dst_port;
    /* Message bytes: a fixed pattern (only the sizes matter to the link). */
    for (i = 0; i < udp_len; i++) {
        ws->payload[i] = (uint8_t)(i * 7u + ws->msg);
    }
    rc = pqpan_6lowpan_build_udp(ws->dgram, sizeof ws->dgram, &ws->dgram_len, &spec, ws->payload,
                                 udp_len);
    if (rc == PQPAN_OK) {
        rc = pqpan_6lowpan_compress(ws->comp, sizeof ws->comp, &ws->comp_len, &ws->uncomp_len,
                                    ws->dgram, ws->dgram_len, &ws->link.src, &ws->link.dst,
                                    ws->link.nhc_udp);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_802154_plan_udp(&plan, ws->plan, PQPAN_802154_MAX_FRAMES, &ws->link, udp_len);
    }
    if (rc != PQPAN_OK) {
        s->err = rc;
        return;
    }
    ws->frames = plan.frames;
    ws->frame = 0;
    seg_switch(s, ws->msg == 2 ? PQPAN_PHASE_CONFIRM : PQPAN_PHASE_KEY_TRANSFER);
    ws->node[sender].attempts = 0;
    csma_start(s, sender);
}

/* The sender's message has been delivered: the receiver computes, or the exchange ends. */
static void message_done(struct sim *s, uint32_t sender)
{
    struct pqpan_802154_csim *ws = s->ws;
    ws->node[sender].state = ST_IDLE;
    ws->node[sender].t_main = NEVER;
    ws->tag++;
    if (ws->msg == 0) {
        compute(s, 1, PQPAN_OP_KEM_ENCAPS, PQPAN_OP_KDF);
    } else if (ws->msg == 1) {
        compute(s, 0, PQPAN_OP_KEM_DECAPS, PQPAN_OP_KDF);
    } else {
        s->res->status = PQPAN_OK;
        s->stop = 1;
    }
    ws->msg++;
}

/* A background node finished (or dropped) its frame: next one, or idle. */
static void background_next(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    x->pending--;
    x->seq++;
    if (x->pending != 0) {
        csma_start(s, n);
    } else {
        x->state = ST_IDLE;
        x->t_main = NEVER;
    }
}

/* One attempt of the current frame failed (no ACK, or channel access failure). */
static void attempt_failed(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    if (!is_exch(n)) {
        background_next(s, n);
        return;
    }
    x->attempts++;
    if (x->attempts > s->c->exch.csma.max_frame_retries) {
        s->res->status = PQPAN_ERR_TIMEOUT;
        s->stop = 1;
        return;
    }
    s->res->retries[n]++;
    csma_start(s, n);
}

/* ---- event handlers ---- */

static void on_cca_end(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    const struct pqpan_802154_csma_params *p = &s->c->exch.csma;
    book(s, n, PQPAN_STATE_RX, PQPAN_802154_CCA_NS);
    if (is_exch(n)) {
        s->res->ccas[n]++;
    }
    if (!air_overlap(s->ws, x->cca_start, s->now, n, 0)) {
        book(s, n, PQPAN_STATE_RAMP_TX, PQPAN_802154_TURNAROUND_NS);
        x->state = ST_TURN;
        x->t_main = s->now + PQPAN_802154_TURNAROUND_NS;
        return;
    }
    x->nb++;
    x->be = (uint8_t)(x->be + 1u < p->max_be ? x->be + 1u : p->max_be);
    if (x->nb > p->max_backoffs) {
        if (is_exch(n)) {
            s->res->access_failures[n]++;
        }
        attempt_failed(s, n);
        return;
    }
    backoff(s, n);
}

static void on_tx_end(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    uint32_t r = 1u - n;
    if (!is_exch(n)) {
        x->state = ST_IFS;
        x->t_main = s->now + pqpan_802154_mac_ifs_ns(x->psdu_len);
        return;
    }
    book(s, r, PQPAN_STATE_RX, s->now - x->tx_start);
    if (!air_overlap(s->ws, x->tx_start, s->now, n, 0) &&
        !air_overlap(s->ws, x->tx_start, s->now, r, 1)) {
        s->ws->node[r].t_ack = s->now + PQPAN_802154_TURNAROUND_NS;
        s->ws->node[r].ack_seq = x->seq;
    } else {
        s->res->lost[n]++;
    }
    x->state = ST_WAIT_ACK;
    x->t_main = s->now + pqpan_802154_mac_ack_wait_ns();
}

static void on_ack_start(struct sim *s, uint32_t r)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[r];
    uint8_t ack[PQPAN_802154_ACK_PSDU];
    uint64_t air = pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
    x->t_ack = NEVER;
    if (x->state == ST_TX) {
        return; /* half duplex: busy sending its own frame */
    }
    air_add(s, r, s->now, s->now + air);
    book(s, r, PQPAN_STATE_IFS, PQPAN_802154_TURNAROUND_NS);
    book(s, r, PQPAN_STATE_TX, air);
    x->t_ack_end = s->now + air;
    if (s->on_frame != 0) {
        pqpan_802154_mac_build_ack(ack, x->ack_seq, 0);
        s->on_frame(s->frame_ctx, s->now, ack, sizeof ack);
    }
}

static void on_ack_end(struct sim *s, uint32_t r)
{
    uint32_t n = 1u - r;
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    uint64_t air = pqpan_802154_phy_ppdu_ns(PQPAN_802154_ACK_PSDU);
    s->ws->node[r].t_ack_end = NEVER;
    if (x->state != ST_WAIT_ACK) {
        return;
    }
    if (air_overlap(s->ws, s->now - air, s->now, r, 0)) {
        s->res->lost[r]++;
        return;
    }
    book(s, n, PQPAN_STATE_IFS, PQPAN_802154_TURNAROUND_NS);
    book(s, n, PQPAN_STATE_RX, air);
    x->state = ST_IFS;
    x->t_main = s->now + pqpan_802154_mac_ifs_ns(x->psdu_len);
}

/* Frame acknowledged and IFS over: next frame or message done. */
static void on_ifs_end(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    if (!is_exch(n)) {
        background_next(s, n);
        return;
    }
    x->seq++;
    x->attempts = 0;
    s->ws->frame++;
    if (s->ws->frame < s->ws->frames) {
        csma_start(s, n);
    } else {
        message_done(s, n);
    }
}

static void on_compute_end(struct sim *s, uint32_t n)
{
    (void)n;
    message_start(s);
}

static void on_main(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    x->t_main = NEVER;
    switch (x->state) {
    case ST_BACKOFF:
        x->state = ST_CCA;
        x->cca_start = s->now;
        x->t_main = s->now + PQPAN_802154_CCA_NS;
        break;
    case ST_CCA:
        on_cca_end(s, n);
        break;
    case ST_TURN:
        tx_start(s, n);
        break;
    case ST_TX:
        on_tx_end(s, n);
        break;
    case ST_WAIT_ACK:
        book(s, n, PQPAN_STATE_RX, pqpan_802154_mac_ack_wait_ns());
        attempt_failed(s, n);
        break;
    case ST_IFS:
        on_ifs_end(s, n);
        break;
    case ST_COMPUTE:
        on_compute_end(s, n);
        break;
    default:
        break;
    }
}

/* Poisson arrivals: exponential gaps with mean 1/load_fps, from 53 random bits. */
static void next_arrival(struct sim *s, uint32_t n)
{
    uint8_t b[8];
    uint64_t bits = 0;
    double u;
    int i;
    if (s->rng(s->rng_ctx, b, sizeof b) != 0) {
        s->err = PQPAN_ERR_RNG;
        return;
    }
    for (i = 0; i < 8; i++) {
        bits = (bits << 8) | b[i];
    }
    u = ((double)(bits >> 11) + 1.0) / 9007199254740993.0; /* (0, 1] */
    s->ws->node[n].t_arrival = s->now + (uint64_t)(-log(u) / s->c->load_fps * 1e9);
}

static void on_arrival(struct sim *s, uint32_t n)
{
    struct pqpan_802154_csim_node *x = &s->ws->node[n];
    x->pending++;
    if (x->state == ST_IDLE) {
        csma_start(s, n);
    }
    next_arrival(s, n);
}

static void dispatch(struct sim *s, uint32_t n, enum timer t)
{
    switch (t) {
    case T_MAIN:
        on_main(s, n);
        break;
    case T_ARRIVAL:
        on_arrival(s, n);
        break;
    case T_ACK:
        on_ack_start(s, n);
        break;
    default:
        on_ack_end(s, n);
        break;
    }
}

static uint64_t timer_of(const struct pqpan_802154_csim_node *x, enum timer t)
{
    const uint64_t v[T_COUNT] = {x->t_main, x->t_arrival, x->t_ack, x->t_ack_end};
    return v[t];
}

/* The earliest timer (ties: lowest node, then timer order). 0 if none is set. */
static int next_event(const struct sim *s, uint32_t *node, enum timer *which, uint64_t *t)
{
    uint32_t n;
    int k;
    *t = NEVER;
    for (n = 0; n < s->c->nodes; n++) {
        for (k = 0; k < T_COUNT; k++) {
            uint64_t v = timer_of(&s->ws->node[n], (enum timer)k);
            if (v < *t) {
                *t = v;
                *node = n;
                *which = (enum timer)k;
            }
        }
    }
    return *t != NEVER;
}

static int config_valid(const struct pqpan_802154_csim_config *c)
{
    const struct pqpan_802154_est_config *e = &c->exch;
    return c->nodes >= 2 && c->nodes <= PQPAN_802154_CSIM_MAX_NODES && c->load_fps >= 0.0 &&
           c->load_fps < 1e6 && (c->nodes == 2 || c->load_fps == 0.0 || c->load_psdu >= MIN_BG_PSDU) &&
           c->load_psdu <= PQPAN_802154_MAX_PSDU && e->cpu_hz != 0 && e->link.ack_request &&
           pqpan_802154_csma_params_check(&e->csma) == PQPAN_OK;
}

static void sim_init(struct sim *s)
{
    uint32_t n;
    memset(s->ws, 0, sizeof *s->ws);
    for (n = 0; n < s->c->nodes; n++) {
        struct pqpan_802154_csim_node *x = &s->ws->node[n];
        x->t_main = x->t_arrival = x->t_ack = x->t_ack_end = NEVER;
        if (!is_exch(n) && s->c->load_fps > 0.0) {
            next_arrival(s, n);
        }
    }
    pqpan_ledger_init(&s->res->ledger[0]);
    pqpan_ledger_init(&s->res->ledger[1]);
    pqpan_802154_seg_begin(&s->seg, PQPAN_PHASE_CRYPTO, 0);
    compute(s, 0, PQPAN_OP_KEM_KEYGEN, PQPAN_OP_COUNT);
}

int pqpan_802154_csim_run(struct pqpan_802154_csim_result *res, struct pqpan_802154_csim *ws,
                          const struct pqpan_802154_csim_config *c,
                          const uint64_t cycles[PQPAN_OP_COUNT], pqpan_rng_fn rng, void *rng_ctx,
                          pqpan_802154_frame_fn on_frame, void *frame_ctx)
{
    struct sim s;
    uint64_t limit, t;
    uint32_t n = 0;
    enum timer which = T_MAIN;
    if (res == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(res, 0, sizeof *res);
    if (ws == 0 || c == 0 || cycles == 0 || rng == 0 || !config_valid(c)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(&s, 0, sizeof s);
    s.ws = ws;
    s.c = c;
    s.res = res;
    s.cycles = cycles;
    s.rng = rng;
    s.rng_ctx = rng_ctx;
    s.on_frame = on_frame;
    s.frame_ctx = frame_ctx;
    limit = c->max_ns != 0 ? c->max_ns : DEFAULT_MAX_NS;
    res->status = PQPAN_ERR_TIMEOUT;
    sim_init(&s);
    while (!s.stop && s.err == PQPAN_OK && next_event(&s, &n, &which, &t) && t <= limit) {
        s.now = t;
        dispatch(&s, n, which);
    }
    if (s.err != PQPAN_OK) {
        memset(res, 0, sizeof *res);
        return s.err;
    }
    if (!s.stop) {
        s.now = limit;
    }
    pqpan_802154_seg_end(&s.seg, res->ledger, s.now, c->exch.rx_always_on);
    res->latency_ns = s.now;
    return PQPAN_OK;
}
