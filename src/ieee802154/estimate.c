/* Analytic estimator: one PQKE carried as three UDP datagrams over 6LoWPAN on IEEE
 * 802.15.4, with the expected unslotted CSMA-CA cost in closed form (§6.2.5.1) and the
 * frames of the shared planner. Fills one ledger per node. */
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
};

static void book(struct est *e, unsigned node, enum pqpan_state state, uint64_t ns, int bits)
{
    pqpan_802154_seg_book(&e->seg, e->out->ledger, bits ? e->out->bits : 0, node, state, ns);
}

static void seg_begin(struct est *e, enum pqpan_phase phase)
{
    pqpan_802154_seg_begin(&e->seg, phase, e->out->latency_ns);
    e->seg_len_ns = 0;
}

static void seg_end(struct est *e)
{
    e->out->latency_ns += e->seg_len_ns;
    pqpan_802154_seg_end(&e->seg, e->out->ledger, e->out->latency_ns, e->c->rx_always_on);
}

static void compute(struct est *e, unsigned node, enum pqpan_op op, const uint64_t cycles[])
{
    uint64_t ns = pqpan_cycles_to_ns(cycles[op], e->c->cpu_hz);
    pqpan_ledger_add_op(&e->out->ledger[node], op, cycles[op]);
    book(e, node, PQPAN_STATE_CPU, ns, 0);
    e->seg_len_ns += ns;
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

/* One acknowledged data frame from node s to node r; first: the first of its message (the
 * sender has been computing, so it is awake). */
static void frame(struct est *e, unsigned s, const struct pqpan_802154_frame_plan *f,
                  const struct pqpan_802154_plan *p, int first)
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
    wake(e, r, idle_sleeps ? 1.0 : 0.0);
    book(e, s, e->c->backoff_rx ? PQPAN_STATE_RX : PQPAN_STATE_SLEEP, backoff_ns, 0);
    book(e, s, PQPAN_STATE_RX, cca_ns, 0);
    book(e, s, PQPAN_STATE_RAMP_TX, PQPAN_802154_TURNAROUND_NS, 0);
    book(e, s, PQPAN_STATE_TX, f->airtime_ns, 1);
    book(e, r, PQPAN_STATE_RX, f->airtime_ns, 1);
    book(e, s, PQPAN_STATE_IFS, p->turnaround_ns, 1);
    book(e, r, PQPAN_STATE_IFS, p->turnaround_ns, 1);
    book(e, r, PQPAN_STATE_TX, p->ack_airtime_ns, 1);
    book(e, s, PQPAN_STATE_RX, p->ack_airtime_ns, 1);
    e->seg_len_ns += backoff_ns + cca_ns + PQPAN_802154_TURNAROUND_NS + f->airtime_ns +
                     p->turnaround_ns + p->ack_airtime_ns + f->ifs_ns;
    e->out->ledger[s].pdus_tx++;
    e->out->ledger[r].pdus_rx++;
    e->out->ledger[s].bytes_tx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + f->psdu_octets;
    e->out->ledger[r].bytes_rx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + f->psdu_octets;
    e->out->ledger[s].events++;
    if (p->ack_airtime_ns != 0) {
        e->out->ledger[r].pdus_tx++;
        e->out->ledger[s].pdus_rx++;
        e->out->ledger[r].bytes_tx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + PQPAN_802154_ACK_PSDU;
        e->out->ledger[s].bytes_rx += PQPAN_802154_SHR_OCTETS + PQPAN_802154_PHR_OCTETS + PQPAN_802154_ACK_PSDU;
    }
}

/* One datagram of a message from sender; first: the message's first (the sender has been
 * computing, so it is awake). Adds its frames to *frames. */
static int datagram(struct est *e, unsigned sender, const struct pqpan_802154_link_cfg *link,
                    size_t udp_len, int first, uint32_t *frames)
{
    struct pqpan_802154_frame_plan f[PQPAN_802154_MAX_FRAMES];
    struct pqpan_802154_plan p;
    size_t i;
    int rc = pqpan_802154_plan_udp(&p, f, sizeof f / sizeof f[0], link, udp_len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    for (i = 0; i < p.frames; i++) {
        frame(e, sender, &f[i], &p, first && i == 0);
    }
    *frames += (uint32_t)p.frames;
    return PQPAN_OK;
}

/* Message msg in its datagrams (one, or segments: ieee802154.h), back to back. */
static int message(struct est *e, unsigned sender, unsigned msg, enum pqpan_phase phase)
{
    struct pqpan_802154_link_cfg link;
    size_t len = e->c->msg_octets[msg], n = pqpan_802154_msg_datagrams(len), i;
    int rc = n != 0 ? PQPAN_OK : PQPAN_ERR_BAD_LENGTH;
    if (sender == PQPAN_802154_INITIATOR) {
        link = e->c->link;
    } else {
        pqpan_802154_link_reverse(&link, &e->c->link);
    }
    seg_begin(e, phase);
    for (i = 0; i < n && rc == PQPAN_OK; i++) {
        rc = datagram(e, sender, &link, pqpan_802154_msg_datagram_len(len, i), i == 0,
                      &e->out->frames[msg]);
    }
    seg_end(e);
    e->out->datagrams[msg] = (uint32_t)n;
    return rc;
}

static int config_valid(const struct pqpan_802154_est_config *c)
{
    return c->cpu_hz != 0 && c->p_busy >= 0.0 && c->p_busy < MAX_BUSY &&
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

/* node runs step k's operations; after a message it has slept through the SIFS/LIFS when
 * idle nodes sleep, so it wakes first (in the message's phase). A step without operations
 * books nothing. */
static void crypto_step(struct est *e, unsigned node, unsigned k, const uint64_t cycles[],
                        enum pqpan_phase after)
{
    unsigned op, i, any = 0;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        any |= e->c->step_ops[k][op];
    }
    if (!any) {
        return;
    }
    if (after != PQPAN_PHASE_COUNT && !e->c->rx_always_on) {
        seg_begin(e, after);
        e->seg_len_ns += wake(e, node, 1.0);
        seg_end(e);
    }
    seg_begin(e, PQPAN_PHASE_CRYPTO);
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        for (i = 0; i < e->c->step_ops[k][op]; i++) {
            compute(e, node, (enum pqpan_op)op, cycles);
        }
    }
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
    crypto_step(&e, PQPAN_802154_INITIATOR, PQKE_STEP_INIT, cycles, PQPAN_PHASE_COUNT);
    rc = message(&e, PQPAN_802154_INITIATOR, 0, PQPAN_PHASE_KEY_TRANSFER);
    if (rc == PQPAN_OK) {
        crypto_step(&e, PQPAN_802154_RESPONDER, PQKE_STEP_RESP, cycles, PQPAN_PHASE_KEY_TRANSFER);
        rc = message(&e, PQPAN_802154_RESPONDER, 1, PQPAN_PHASE_KEY_TRANSFER);
    }
    if (rc == PQPAN_OK) {
        crypto_step(&e, PQPAN_802154_INITIATOR, PQKE_STEP_FIN, cycles, PQPAN_PHASE_KEY_TRANSFER);
        rc = message(&e, PQPAN_802154_INITIATOR, 2, PQPAN_PHASE_CONFIRM);
    }
    if (rc == PQPAN_OK) {
        crypto_step(&e, PQPAN_802154_RESPONDER, PQKE_STEP_AFTER_FIN, cycles, PQPAN_PHASE_CONFIRM);
    }
    if (rc == PQPAN_OK && c->msg_octets[3] != 0) {
        /* numeric: REVEAL, once the responder has checked FIN and shows its value */
        rc = message(&e, PQPAN_802154_RESPONDER, 3, PQPAN_PHASE_CONFIRM);
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
