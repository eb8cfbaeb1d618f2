/* Analytic estimator: one PQKE carried as three (numeric: four) messages over 6LoWPAN on IEEE
 * 802.15.4, with the expected unslotted CSMA-CA cost in closed form (§6.2.5.1) and the
 * frames of the shared planner. Fills one ledger per node.
 *
 * A message is handed over when the reception of its last frame ends: the receiver's
 * Imm-Ack (aTurnaroundTime + the ACK, §6.7.4.2) goes on while it computes, and the SIFS/
 * LIFS after the ACK spaces only the sender's own next frame (§6.2.4). That ACK exchange,
 * the tail, is booked to both nodes in the message's phase and overlaps the next segment,
 * which lasts at least as long; the receiver's CPU time is booked where its radio is not
 * busy, so every ledger adds up to the latency. The exchange ends when FIN (numeric:
 * REVEAL) is acknowledged and the responder is done. */
#include <string.h>

#include "common/pqke_steps.h"
#include "ieee802154/internal.h"
#include "pqpan/defaults.h"
#include "pqpan/ieee802154.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"

#define MAX_BUSY 1.0

struct est {
    struct pqpan_802154_estimate *out;
    const struct pqpan_802154_est_config *c;
    struct pqpan_802154_seg seg;
    uint64_t seg_len_ns;
    uint64_t tail_ns; /* the last message's ACK exchange, booked past the latency so far */
    enum pqpan_phase prev_phase; /* the phase of the segment before this one */
};

static void book(struct est *e, unsigned node, enum pqpan_state state, uint64_t ns, int bits)
{
    pqpan_802154_seg_book(&e->seg, e->out->ledger, bits ? e->out->bits : 0, node, state, ns);
}

/* A segment begins where the latency so far ends; both nodes' radios may still be busy
 * with the tail of the message before (booked already): the segment lasts at least that. */
static void seg_begin(struct est *e, enum pqpan_phase phase)
{
    pqpan_802154_seg_begin(&e->seg, phase, e->out->latency_ns);
    e->seg.busy_ns[0] = e->tail_ns;
    e->seg.busy_ns[1] = e->tail_ns;
    e->seg_len_ns = 0;
}

static void seg_end(struct est *e)
{
    e->prev_phase = e->seg.phase;
    if (e->seg_len_ns < e->tail_ns) {
        e->seg_len_ns = e->tail_ns;
    }
    e->tail_ns = 0;
    e->out->latency_ns += e->seg_len_ns;
    pqpan_802154_seg_end(&e->seg, e->out->ledger, e->out->latency_ns, e->c->rx_always_on);
}

double pqpan_802154_sender_wakes(uint8_t backoff_rx, int asleep, double ccas)
{
    if (!backoff_rx) {
        return ccas;
    }
    return asleep ? 1.0 : 0.0;
}

/* count wake-ups of node: crystal start, then the CPU's part. Returns their time. */
static uint64_t wake(struct est *e, unsigned node, double count)
{
    uint64_t xtal = (uint64_t)(count * (double)e->c->wake_xtal_ns + 0.5);
    uint64_t cpu = (uint64_t)(count * (double)e->c->wake_cpu_ns + 0.5);
    book(e, node, PQPAN_STATE_HFXO_START, xtal, 0);
    book(e, node, PQPAN_STATE_CPU, cpu, 0);
    return xtal + cpu;
}

/* Receiver r wakes (once, when idle sleeps) to end as the frame begins, lead_ns after the
 * segment began: a wake-up longer than its idle time so far in the segment began in the
 * segment before, whose sleep gives that part back (the simulator's wake_for_frame). */
static void wake_receiver(struct est *e, unsigned r, uint64_t lead_ns)
{
    uint64_t free_ns = lead_ns > e->seg.busy_ns[r] ? lead_ns - e->seg.busy_ns[r] : 0;
    uint64_t ns = wake(e, r, e->c->rx_always_on ? 0.0 : 1.0), early;
    uint64_t *sleep = &e->out->ledger[r].ns[e->prev_phase][PQPAN_STATE_SLEEP];
    if (ns <= free_ns) {
        return;
    }
    early = ns - free_ns < *sleep ? ns - free_ns : *sleep;
    *sleep -= early;
    e->seg.busy_ns[r] -= early;
}

/* The Imm-Ack exchange after a data frame from node s to node r: aTurnaroundTime (IFS state
 * on both nodes), then the ACK (TX at r, RX at s), in the current segment's phase. */
static void ack(struct est *e, unsigned s, const struct pqpan_802154_plan *p)
{
    unsigned r = 1u - s;
    book(e, s, PQPAN_STATE_IFS, p->turnaround_ns, 1);
    book(e, r, PQPAN_STATE_IFS, p->turnaround_ns, 1);
    book(e, r, PQPAN_STATE_TX, p->ack_airtime_ns, 1);
    book(e, s, PQPAN_STATE_RX, p->ack_airtime_ns, 1);
    if (p->ack_airtime_ns != 0) {
        e->out->ledger[r].pdus_tx++;
        e->out->ledger[s].pdus_rx++;
        e->out->ledger[r].bytes_tx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + PQPAN_802154_ACK_PSDU;
        e->out->ledger[s].bytes_rx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + PQPAN_802154_ACK_PSDU;
    }
}

/* One acknowledged data frame from node s to node r; first: the first of its message (the
 * sender has been computing, so it is awake); last: the last (the message is handed over
 * when it ends: its ACK exchange becomes the tail, its IFS spaces nothing). */
static void frame(struct est *e, unsigned s, const struct pqpan_802154_frame_plan *f,
                  const struct pqpan_802154_plan *p, int first, int last)
{
    unsigned r = 1u - s;
    double backoff = pqpan_802154_csma_expected_backoff_ns(&e->c->csma, e->c->p_busy);
    double ccas = pqpan_802154_csma_expected_ccas(&e->c->csma, e->c->p_busy);
    uint64_t cca_ns = (uint64_t)(ccas * (double)PQPAN_802154_CCA_NS + 0.5);
    uint64_t backoff_ns = (uint64_t)(backoff + 0.5);
    int idle_sleeps = !e->c->rx_always_on;
    e->out->backoff_ns += backoff;
    e->out->ccas += ccas;
    e->seg_len_ns += wake(e, s, pqpan_802154_sender_wakes(e->c->backoff_rx, idle_sleeps && !first, ccas));
    wake_receiver(e, r, e->seg_len_ns + backoff_ns + cca_ns + PQPAN_802154_TURNAROUND_NS);
    book(e, s, e->c->backoff_rx ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP, backoff_ns, 0);
    book(e, s, PQPAN_STATE_RX, cca_ns, 0);
    book(e, s, PQPAN_STATE_RAMP_TX, PQPAN_802154_TURNAROUND_NS, 0);
    book(e, s, PQPAN_STATE_TX, f->airtime_ns, 1);
    book(e, r, PQPAN_STATE_RX, f->airtime_ns, 1);
    e->seg_len_ns += backoff_ns + cca_ns + PQPAN_802154_TURNAROUND_NS + f->airtime_ns;
    e->out->ledger[s].pdus_tx++;
    e->out->ledger[r].pdus_rx++;
    e->out->ledger[s].bytes_tx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + f->psdu_octets;
    e->out->ledger[r].bytes_rx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + f->psdu_octets;
    e->out->ledger[s].events++;
    if (last) {
        return;
    }
    ack(e, s, p);
    e->seg_len_ns += p->turnaround_ns + p->ack_airtime_ns + f->ifs_ns;
}

/* IPv6 packet i of message msg (a datagram, a segment or a fragment) from sender; first:
 * the message's first (the sender has been computing, so it is awake); last: its last.
 * Adds its frames to the message's. The plan of the message's last frame is kept in *tail
 * for its ACK exchange. */
static int packet(struct est *e, unsigned sender, const struct pqpan_802154_link_cfg *link,
                  unsigned msg, size_t i, int last, struct pqpan_802154_plan *tail)
{
    struct pqpan_802154_frame_plan f[PQPAN_802154_MAX_FRAMES];
    struct pqpan_802154_plan p;
    size_t k;
    int rc = pqpan_802154_plan_msg_packet(&p, f, sizeof f / sizeof f[0], link,
                                          e->c->msg_octets[msg], i, e->c->ipv6_frag);
    if (rc != PQPAN_OK) {
        return rc;
    }
    for (k = 0; k < p.frames; k++) {
        frame(e, sender, &f[k], &p, i == 0 && k == 0, last && k + 1 == p.frames);
    }
    e->out->frames[msg] += (uint32_t)p.frames;
    *tail = p;
    return PQPAN_OK;
}

/* Message msg in its IPv6 packets (one, or segments or fragments: ieee802154.h), back to
 * back; its segment ends with its last frame, the ACK exchange of that frame is booked
 * after it. */
static int message(struct est *e, unsigned sender, unsigned msg, enum pqpan_phase phase)
{
    struct pqpan_802154_link_cfg link;
    struct pqpan_802154_plan last;
    size_t n = pqpan_802154_msg_packets(e->c->msg_octets[msg], e->c->ipv6_frag), i;
    int rc = n != 0 ? PQPAN_OK : PQPAN_ERR_BAD_LENGTH;
    if (sender == PQPAN_802154_INITIATOR) {
        link = e->c->link;
    } else {
        pqpan_802154_link_reverse(&link, &e->c->link);
    }
    memset(&last, 0, sizeof last);
    seg_begin(e, phase);
    for (i = 0; i < n && rc == PQPAN_OK; i++) {
        rc = packet(e, sender, &link, msg, i, i + 1 == n, &last);
    }
    seg_end(e);
    if (rc == PQPAN_OK) { /* the tail, in the message's phase */
        pqpan_802154_seg_begin(&e->seg, phase, e->out->latency_ns);
        ack(e, sender, &last);
        e->tail_ns = last.turnaround_ns + last.ack_airtime_ns;
    }
    e->out->datagrams[msg] = (uint32_t)n;
    return rc;
}

static int config_valid(const struct pqpan_802154_est_config *c)
{
    return c->cpu_hz != 0 && c->p_busy >= 0.0 && c->p_busy < MAX_BUSY && c->ipv6_frag <= 1u &&
           c->link.ack_request && pqpan_802154_csma_params_check(&c->csma) == PQPAN_OK;
}

void pqpan_802154_est_config_default(struct pqpan_802154_est_config *c)
{
    const struct pqpan_kem *kem = pqpan_kem_by_name(pqpan_default_value(PQPAN_DEFAULT_KEM));
    unsigned suite = kem != NULL ? pqpan_pqke_suite_for_kem(kem->id) : 0u;
    unsigned mode = pqpan_pqke_mode_by_name(pqpan_default_value(PQPAN_DEFAULT_AUTH));
    memset(c, 0, sizeof *c);
    /* extended addresses: the --addr default */
    c->link.src.mode = PQPAN_802154_ADDR_EXT;
    c->link.src.ext_addr = 0x00124B0001020304ull;
    c->link.dst.mode = PQPAN_802154_ADDR_EXT;
    c->link.dst.ext_addr = 0x00124B00A0B0C0D0ull;
    c->link.pan_id = 0xABCD;
    c->link.pan_id_compression = 1;
    c->link.ack_request = 1;
    c->link.nhc_udp = 1;
    c->link.hop_limit = 64;
    c->link.src_port = 0xF0B1;
    c->link.dst_port = 0xF0B2;
    c->csma = pqpan_default_is(PQPAN_DEFAULT_CSMA, "contiki") ? pqpan_802154_csma_contiki()
                                                             : pqpan_802154_csma_ieee();
    /* PQKE for the default KEM and mode (pqke.h, docs/PROTOCOL.md) */
    if (pqpan_802154_est_config_pqke(c, suite, mode, 0) != PQPAN_OK) {
        memset(c->msg_octets, 0, sizeof c->msg_octets); /* unreachable: both are implemented */
    }
    c->cpu_hz = 64000000u;                /* nRF52840 */
    c->rx_always_on = 1;
    c->backoff_rx = 1;
}

int pqpan_802154_est_config_pqke(struct pqpan_802154_est_config *c, unsigned suite,
                                 unsigned mode, unsigned sig)
{
    struct pqke_steps st;
    struct pqpan_pqke_sizes sz;
    unsigned k, op;
    int rc = c != 0 ? pqpan_pqke_steps_of(&st, suite, mode, sig, 0) : PQPAN_ERR_INVALID_ARG;
    if (rc != PQPAN_OK) {
        return rc;
    }
    sz = pqpan_pqke_message_sizes(suite, mode, sig);
    c->msg_octets[0] = (uint32_t)sz.init_bytes;
    c->msg_octets[1] = (uint32_t)sz.resp_bytes;
    c->msg_octets[2] = (uint32_t)sz.fin_bytes;
    c->msg_octets[3] = (uint32_t)sz.reveal_bytes;
    for (k = 0; k < PQPAN_802154_STEPS; k++) {
        for (op = 0; op < PQPAN_OP_COUNT; op++) {
            c->step_ops[k][op] = (uint8_t)st.ops[k][op];
        }
    }
    return PQPAN_OK;
}

/* node runs step k's operations: after a message it is awake (it has just received its
 * last frame) and starts at once, while its radio finishes the ACK exchange (the tail):
 * its CPU time is booked past the tail, the step lasts at least the tail. A step without
 * operations books nothing but lets the tail pass. */
static void crypto_step(struct est *e, unsigned node, unsigned k, const uint64_t cycles[])
{
    uint64_t ns = 0;
    unsigned op, i;
    seg_begin(e, PQPAN_PHASE_CRYPTO);
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        for (i = 0; i < e->c->step_ops[k][op]; i++) {
            pqpan_ledger_add_op(&e->out->ledger[node], (enum pqpan_op)op, cycles[op]);
            ns += pqpan_cycles_to_ns(cycles[op], e->c->cpu_hz);
        }
    }
    if (ns > e->tail_ns) {
        book(e, node, PQPAN_STATE_CPU, ns - e->tail_ns, 0);
    }
    e->seg_len_ns = ns;
    seg_end(e);
}

int pqpan_802154_estimate_pqke(struct pqpan_802154_estimate *out,
                               const struct pqpan_802154_est_config *c,
                               const uint64_t cycles[PQPAN_OP_COUNT])
{
    struct est e;
    uint32_t frames, i;
    int rc;
    if (out == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (c == 0 || cycles == 0 || !config_valid(c)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    pqpan_ledger_init(&out->ledger[0]);
    pqpan_ledger_init(&out->ledger[1]);
    pqpan_ledger_init(&out->bits[0]);
    pqpan_ledger_init(&out->bits[1]);
    e.out = out;
    e.c = c;
    e.tail_ns = 0;
    e.prev_phase = PQPAN_PHASE_CRYPTO;
    crypto_step(&e, PQPAN_802154_INITIATOR, PQKE_STEP_INIT, cycles);
    rc = message(&e, PQPAN_802154_INITIATOR, 0, PQPAN_PHASE_KEY_TRANSFER);
    if (rc == PQPAN_OK) {
        crypto_step(&e, PQPAN_802154_RESPONDER, PQKE_STEP_RESP, cycles);
        rc = message(&e, PQPAN_802154_RESPONDER, 1, PQPAN_PHASE_KEY_TRANSFER);
    }
    if (rc == PQPAN_OK) {
        crypto_step(&e, PQPAN_802154_INITIATOR, PQKE_STEP_FIN, cycles);
        rc = message(&e, PQPAN_802154_INITIATOR, 2, PQPAN_PHASE_CONFIRM);
    }
    if (rc == PQPAN_OK) {
        crypto_step(&e, PQPAN_802154_RESPONDER, PQKE_STEP_AFTER_FIN, cycles);
    }
    if (rc == PQPAN_OK && c->msg_octets[3] != 0) {
        /* numeric: REVEAL, once the responder has checked FIN and shows its value; the
         * exchange ends when it is acknowledged */
        rc = message(&e, PQPAN_802154_RESPONDER, 3, PQPAN_PHASE_CONFIRM);
        if (rc == PQPAN_OK) {
            seg_begin(&e, PQPAN_PHASE_CONFIRM);
            seg_end(&e);
        }
    }
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    frames = out->frames[0] + out->frames[1] + out->frames[2] + out->frames[3];
    out->p_frame_fail = pqpan_802154_csma_failure_prob(&c->csma, c->p_busy);
    out->p_success = 1.0;
    for (i = 0; i < frames; i++) {
        out->p_success *= 1.0 - out->p_frame_fail;
    }
    return PQPAN_OK;
}
