/* The analytic estimator: one PQKE (or one LE Secure Connections pairing) over the link
 * model of conn.c/att.c/phy.c, counted instead of simulated (docs/MODEL.md "Link model").
 * Closed forms per transaction run, no per-PDU loop: a few hundred ns per configuration. */
#include <stddef.h>
#include <string.h>

#include "ble/estimate_memo.h"
#include "ble/setup.h"
#include "common/pqke_steps.h"
#include "pqpan/ble.h"
#include "pqpan/defaults.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"

/* Vol 6 Part B §2.4.2: LL control PDU payloads (opcode + CtrData). */
#define LL_ENC_REQ_BYTES 23u       /* §2.4.2.4: Rand 8, EDIV 2, SKD_C 8, IV_C 4 */
#define LL_ENC_RSP_BYTES 13u       /* §2.4.2.5: SKD_P 8, IV_P 4 */
#define LL_START_ENC_BYTES 1u      /* §2.4.2.6/7: opcode only */
/* Vol 3 Part H §3.5: SMP PDU sizes (code + parameters). */
#define SMP_PAIRING_BYTES 7u   /* §3.5.1/2: IO cap, OOB, AuthReq, key size, 2 key dists */
#define SMP_PUBLIC_KEY_BYTES 65u /* §3.5.6: X 32 + Y 32 */
#define SMP_VALUE16_BYTES 17u  /* §3.5.3/4/7: Confirm, Random, DHKey Check (16 octets) */

void pqpan_ble_config_default(struct pqpan_ble_config *cfg)
{
    const struct pqpan_kem *kem = pqpan_kem_by_name(pqpan_default_value(PQPAN_DEFAULT_KEM));
    memset(cfg, 0, sizeof *cfg);
    cfg->protocol = pqpan_default_is(PQPAN_DEFAULT_PROTOCOL, "pqpan") ? PQPAN_BLE_PROTO_PQPAN
                                                                     : PQPAN_BLE_PROTO_STUDY;
    cfg->att_mtu = pqpan_default_u32(PQPAN_DEFAULT_ATT_MTU);
    cfg->ll_octets = pqpan_default_u32(PQPAN_DEFAULT_LL_OCTETS);
    cfg->ci_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_CI_MS);
    cfg->max_pairs = pqpan_default_u32(PQPAN_DEFAULT_MAX_PDUS_PER_EVENT);
    cfg->same_event_reply = pqpan_default_is(PQPAN_DEFAULT_REPLY, "same-event");
    cfg->keygen_side = pqpan_default_is(PQPAN_DEFAULT_KEYGEN_SIDE, "central") ? PQPAN_BLE_CENTRAL
                                                                             : PQPAN_BLE_PERIPHERAL;
    cfg->gatt_server = pqpan_default_is(PQPAN_DEFAULT_GATT_SERVER, "central") ? PQPAN_BLE_CENTRAL
                                                                             : PQPAN_BLE_PERIPHERAL;
    cfg->ek_bytes = kem != NULL ? (uint32_t)kem->ek_bytes : 0u;
    cfg->ct_bytes = kem != NULL ? (uint32_t)kem->ct_bytes : 0u;
    cfg->adv_interval_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_ADV_INTERVAL_MS);
    cfg->features = pqpan_default_is(PQPAN_DEFAULT_FEATURES, "on");
    cfg->conn_update = pqpan_default_is(PQPAN_DEFAULT_CONN_UPDATE, "on");
    cfg->idle_ci_ns = pqpan_default_ms_ns(PQPAN_DEFAULT_INITIAL_CI_MS);
    cfg->discovery = pqpan_default_is(PQPAN_DEFAULT_DISCOVERY, "on");
    cfg->pqke_mode = pqpan_pqke_mode_by_name(pqpan_default_value(PQPAN_DEFAULT_AUTH));
    cfg->pqke_hybrid = !pqpan_default_is(PQPAN_DEFAULT_HYBRID, "none");
    cfg->bits_ifs = pqpan_default_is(PQPAN_DEFAULT_BITS_IFS, "per-pdu-sent")
                        ? PQPAN_BLE_BITS_IFS_PER_PDU_SENT
                        : PQPAN_BLE_BITS_IFS_EACH;
    /* words of the table that do not parse (tests/unit/test_defaults.c) leave a zero
     * configuration, which pqpan_ble_config_fault refuses */
    if (pqpan_ble_phy_parse(&cfg->phy, pqpan_default_value(PQPAN_DEFAULT_PHY)) != PQPAN_OK ||
        pqpan_ble_transfer_choice_parse(&cfg->server_transfer, &cfg->client_transfer,
                                        pqpan_default_value(PQPAN_DEFAULT_TRANSFER)) != PQPAN_OK) {
        memset(cfg, 0, sizeof *cfg);
    }
}

static int ci_ok(uint64_t ci_ns)
{
    return ci_ns >= PQPAN_BLE_CI_MIN_NS && ci_ns <= PQPAN_BLE_CI_MAX_NS;
}

/* An interval of 1.25 ms × (6..3200) (Vol 6 Part B §4.5.1). */
static int ci_on_step(uint64_t ci_ns)
{
    return ci_ok(ci_ns) && ci_ns % PQPAN_BLE_CI_STEP_NS == 0u;
}

uint32_t pqpan_ble_config_ll_octets(const struct pqpan_ble_config *c)
{
    uint32_t o = c->ll_octets;
    if (c->max_tx_time_us != 0u) {
        uint32_t by_time = pqpan_ble_payload_for_time(c->phy, c->max_tx_time_us, c->encrypted);
        o = by_time < o ? by_time : o;
    }
    return o;
}

uint64_t pqpan_ble_config_event_ns(const struct pqpan_ble_config *cfg)
{
    if (cfg->event_len_ns != 0u) {
        return cfg->event_len_ns;
    }
    return cfg->ci_ns > PQPAN_BLE_T_IFS_NS ? cfg->ci_ns - PQPAN_BLE_T_IFS_NS : 0u;
}

uint64_t pqpan_ble_config_pair_ns(const struct pqpan_ble_config *cfg)
{
    return pqpan_ble_packet_ns(cfg->phy, pqpan_ble_config_ll_octets(cfg), cfg->encrypted) +
           PQPAN_BLE_T_IFS_NS + pqpan_ble_packet_ns(cfg->phy, 0u, 0);
}

enum pqpan_ble_config_fault pqpan_ble_config_fault(const struct pqpan_ble_config *cfg)
{
    if (cfg->phy < 0 || cfg->phy >= PQPAN_BLE_PHY_COUNT ||
        cfg->ll_octets < PQPAN_LL_DATA_MIN_PAYLOAD || cfg->ll_octets > PQPAN_LL_DATA_MAX_PAYLOAD ||
        !ci_ok(cfg->ci_ns) || (cfg->conn_update && !ci_ok(cfg->idle_ci_ns))) {
        return PQPAN_BLE_CONFIG_RANGE;
    }
    if (!ci_on_step(cfg->ci_ns)) {
        return PQPAN_BLE_CONFIG_CI_STEP;
    }
    if (cfg->conn_update && !ci_on_step(cfg->idle_ci_ns)) {
        return PQPAN_BLE_CONFIG_IDLE_CI_STEP;
    }
    if (cfg->event_len_ns > cfg->ci_ns) {
        return PQPAN_BLE_CONFIG_EVENT_LEN;
    }
    if (pqpan_ble_config_pair_ns(cfg) > pqpan_ble_config_event_ns(cfg)) {
        return PQPAN_BLE_CONFIG_PAIR;
    }
    return PQPAN_BLE_CONFIG_OK;
}

/* No advertising (0), or an advInterval of Vol 6 Part B §4.4.2.2. */
static int adv_ok(uint64_t adv_ns)
{
    return adv_ns == 0u || (adv_ns >= PQPAN_BLE_ADV_INTERVAL_MIN_NS &&
                            adv_ns <= PQPAN_BLE_ADV_INTERVAL_MAX_NS &&
                            adv_ns % PQPAN_BLE_ADV_INTERVAL_STEP_NS == 0u);
}

/* The PQKE suite of the configuration's KEM sizes (its hybrid suite with pqke_hybrid), 0
 * if none matches. */
static unsigned suite_of(const struct pqpan_ble_config *c)
{
    size_t i;
    for (i = 0; i < PQPAN_KEM_COUNT; i++) {
        const struct pqpan_kem *k = pqpan_kem_at(i);
        if (k->ek_bytes == c->ek_bytes && k->ct_bytes == c->ct_bytes) {
            return c->pqke_hybrid ? pqpan_pqke_hybrid_suite_for_kem(k->id)
                                  : pqpan_pqke_suite_for_kem(k->id);
        }
    }
    return 0;
}

static int transfer_ok(enum pqpan_ble_transfer t)
{
    return t >= 0 && t < PQPAN_BLE_TRANSFER_COUNT;
}

static int role_ok(enum pqpan_ble_role r)
{
    return r == PQPAN_BLE_CENTRAL || r == PQPAN_BLE_PERIPHERAL;
}

/* The transfers and the keygen side are in range, the study preset on both roles or on
 * neither (config_ok's part that a sweep varies fastest). */
static int side_ok(const struct pqpan_ble_config *c)
{
    return transfer_ok(c->server_transfer) && transfer_ok(c->client_transfer) &&
           (c->server_transfer == PQPAN_BLE_STUDY) == (c->client_transfer == PQPAN_BLE_STUDY) &&
           role_ok(c->keygen_side);
}

static int config_ok(const struct pqpan_ble_config *c, const struct pqpan_ble_device *d)
{
    return c->phy >= 0 && c->phy < PQPAN_BLE_PHY_COUNT && c->att_mtu >= PQPAN_ATT_DEFAULT_MTU &&
           c->att_mtu <= PQPAN_ATT_MAX_MTU && c->ll_octets >= PQPAN_LL_DATA_MIN_PAYLOAD &&
           c->ll_octets <= PQPAN_LL_DATA_MAX_PAYLOAD && ci_ok(c->ci_ns) &&
           (!c->conn_update || ci_ok(c->idle_ci_ns)) && adv_ok(c->adv_interval_ns) &&
           side_ok(c) && role_ok(c->gatt_server) &&
           c->ek_bytes > 0u && c->ct_bytes > 0u && d->cpu_hz > 0u &&
           (c->protocol == PQPAN_BLE_PROTO_STUDY ||
            (c->protocol == PQPAN_BLE_PROTO_PQPAN && suite_of(c) != 0)) &&
           c->bits_ifs >= 0 && c->bits_ifs < PQPAN_BLE_BITS_IFS_COUNT;
}

static void link_of(struct pqpan_ble_link *l, const struct pqpan_ble_config *c,
                    enum pqpan_ble_phy phy, uint32_t ll_octets)
{
    memset(l, 0, sizeof *l);
    l->phy = phy;
    l->ll_octets = ll_octets;
    l->ci_ns = c->ci_ns;
    l->event_len_ns = c->event_len_ns;
    l->max_pairs = c->max_pairs;
    l->same_event_reply = c->same_event_reply;
    l->bits_ifs = c->bits_ifs;
}

static uint64_t cpu_ns(uint64_t cycles, const struct pqpan_ble_device *d)
{
    return pqpan_cycles_to_ns(cycles, d->cpu_hz);
}

/* ns[op] = cpu_ns(cycles[op]) for the ops first..last, each computed once. */
static void ops_ns(uint64_t ns[PQPAN_OP_COUNT], const uint64_t cycles[PQPAN_OP_COUNT],
                   const struct pqpan_ble_device *d, enum pqpan_op first, enum pqpan_op last)
{
    int op;
    for (op = (int)first; op <= (int)last; op++) {
        ns[op] = cpu_ns(cycles[op], d);
    }
}

/* times executions of op in a side's book: its cycles, and its CPU time ns[op] (cpu_ns of
 * its cycles), each times over (what as many pqpan_ledger_add_op calls add, the sums being
 * exact). */
static void book_ops(struct pqpan_ble_crypto_book *b, enum pqpan_op op, uint64_t times,
                     const uint64_t cycles[], const uint64_t ns[])
{
    b->op_count[op] += times;
    b->op_cycles[op] += times * cycles[op];
    b->cpu_ns += times * ns[op];
}

/* A side's book on its ledger. */
static void book_put(struct pqpan_ledger *restrict l,
                     const struct pqpan_ble_crypto_book *restrict b)
{
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        l->op_count[op] += b->op_count[op];
        l->op_cycles[op] += b->op_cycles[op];
    }
    pqpan_ledger_add(l, PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, b->cpu_ns);
}

/* Sleep fills the part of span a side spends in none of the other states of the
 * exchange's phases (KEY_TRANSFER, CRYPTO, CONFIRM, which follow one another in enum
 * pqpan_phase); it is booked in KEY_TRANSFER. */
_Static_assert(PQPAN_PHASE_CRYPTO == PQPAN_PHASE_KEY_TRANSFER + 1 &&
                   PQPAN_PHASE_CONFIRM == PQPAN_PHASE_KEY_TRANSFER + 2,
               "the exchange's phases are one run of phases");

static void add_sleep(struct pqpan_ledger led[2], uint64_t span)
{
    int i, p, st;
    for (i = 0; i < 2; i++) {
        uint64_t busy = 0;
        for (p = PQPAN_PHASE_KEY_TRANSFER; p <= PQPAN_PHASE_CONFIRM; p++) {
            for (st = 0; st < PQPAN_STATE_COUNT; st++) {
                busy += led[i].ns[p][st];
            }
        }
        led[i].ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_SLEEP] += span > busy ? span - busy : 0u;
    }
}

/* The last step after the last message (the study's Decaps; pqpan's protocol: the check of
 * the last message, whose cost is part of the side's key schedule, so it may take no time),
 * run by side: the events that pass while it runs, as a txn with only a wait (its sender
 * the side that computes, as for a message's wait). It ends the latency even when it takes
 * no time: the exchange is over when the last message has been received. */
static void add_tail(struct pqpan_ble_txn *t, uint32_t *n, uint64_t tail_ns,
                     enum pqpan_ble_role side)
{
    struct pqpan_ble_txn *x = &t[(*n)++];
    memset(x, 0, sizeof *x);
    x->sender = side;
    x->wait_ns = tail_ns;
    x->wait_phase = PQPAN_PHASE_CRYPTO;
}

/* The exchange on the link, which starts when the last set-up event closes; the
 * latency runs from the first computation's start to the last one's end. shaped: the
 * txns already shaped for the configuration's PHY and LL octets, or NULL. *flip: what
 * would differ with the keygen side flipped (its crypto_end_ns made the latency). */
static void exchange(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                     const struct pqpan_ble_device *dev, const struct pqpan_ble_txn *t, uint32_t n,
                     const struct pqpan_ble_shaped *shaped, struct pqpan_ble_flip *flip)
{
    struct pqpan_ble_link l;
    uint64_t elapsed = 0;
    out->ll_octets_eff = pqpan_ble_config_ll_octets(cfg);
    link_of(&l, cfg, cfg->phy, out->ll_octets_eff);
    l.start_close_ns = out->counts.last_close_ns;
    out->counts.crypto_start_ns = 0u;
    out->counts.crypto_end_ns = 0u;
    flip->by_side = 1; /* unknown without the shaped schedule */
    flip->crypto_end_ns = 0u;
    if (shaped != NULL) {
        pqpan_ble_schedule_shaped(out->ledger, out->bits, &out->counts, &elapsed, &l, dev, t,
                                  shaped, flip);
    } else {
        pqpan_ble_schedule(out->ledger, out->bits, &out->counts, &elapsed, &l, dev, t, n);
    }
    out->latency_ns = out->counts.crypto_end_ns - out->counts.crypto_start_ns;
    flip->crypto_end_ns -= out->counts.crypto_start_ns; /* now the flipped latency */
}

/* Appends the transactions of one message to t[*n..), with its sender's method; the first
 * waits wait_ns of the sender's CPU work. */
static int add_message(struct pqpan_ble_txn *t, uint32_t *n, const struct pqpan_ble_config *c,
                       int is_ek, uint32_t len, enum pqpan_ble_role sender, enum pqpan_phase ph,
                       uint64_t wait_ns)
{
    uint32_t m = 0, i;
    int rc = pqpan_ble_plan_message(t + *n, &m, pqpan_ble_config_transfer(c, sender), is_ek, len,
                                    c->att_mtu, sender, ph);
    if (rc != PQPAN_OK) {
        return rc;
    }
    for (i = *n; i < *n + m; i++) {
        t[i].encrypted = c->encrypted;
    }
    t[*n].wait_ns = wait_ns;
    t[*n].wait_phase = PQPAN_PHASE_CRYPTO;
    *n += m;
    return PQPAN_OK;
}

/* The operations of each step (common/pqke_steps.h) and, for pqpan's protocol, the
 * message sizes: the study's exchange is KeyGen before ek, Encaps before ct, and the
 * keygen side's Decaps after it (booked as its FIN step, with no FIN message); pqpan's
 * protocol those of the configuration's suite (hybrid or not), PQKE mode and ML-DSA set,
 * from the protocol's own sizes and work, whether or not this build runs the mode. */
_Static_assert(PQPAN_BLE_WORK_STEPS == PQKE_STEPS, "ble.h's work memo holds every PQKE step");

/* The work (estimate_memo.h struct pqpan_ble_work_memo: ops and msg_bytes) of c's exchange. */
static int exchange_work(struct pqpan_ble_work_memo *w, const struct pqpan_ble_config *c)
{
    struct pqke_steps st;
    struct pqpan_pqke_sizes sz;
    int rc;
    memset(w->ops, 0, sizeof w->ops);
    if (c->protocol == PQPAN_BLE_PROTO_PQPAN) {
        sz = pqpan_pqke_message_sizes(suite_of(c), c->pqke_mode, c->pqke_sig);
        rc = pqpan_pqke_steps_of(&st, suite_of(c), c->pqke_mode, c->pqke_sig, 0);
        memcpy(w->ops, st.ops, sizeof w->ops);
        w->msg_bytes[0] = (uint32_t)sz.init_bytes;
        w->msg_bytes[1] = (uint32_t)sz.resp_bytes;
        w->msg_bytes[2] = (uint32_t)sz.fin_bytes;
        w->msg_bytes[3] = (uint32_t)sz.reveal_bytes;
        return rc;
    }
    w->ops[PQKE_STEP_INIT][PQPAN_OP_KEM_KEYGEN] = 1;
    w->ops[PQKE_STEP_RESP][PQPAN_OP_KEM_ENCAPS] = 1;
    w->ops[PQKE_STEP_FIN][PQPAN_OP_KEM_DECAPS] = 1;
    w->msg_bytes[0] = c->ek_bytes;
    w->msg_bytes[1] = c->ct_bytes;
    w->msg_bytes[2] = 0u;
    w->msg_bytes[3] = 0u;
    return PQPAN_OK;
}

/* The inputs of exchange_work: protocol, KEM sizes and (pqpan's protocol) mode, ML-DSA
 * set and hybrid flag. */
static void work_key(uint32_t k[4], const struct pqpan_ble_config *c)
{
    int pqpan = c->protocol == PQPAN_BLE_PROTO_PQPAN;
    k[0] = (uint32_t)c->protocol;
    k[1] = c->ek_bytes;
    k[2] = c->ct_bytes;
    k[3] = pqpan ? c->pqke_mode | c->pqke_sig << 8 | (uint32_t)(c->pqke_hybrid != 0) << 16 : 0u;
}

/* c's work from the memo's slot, or derived into it (NULL on an error, the slot emptied). */
static const struct pqpan_ble_work_memo *work_memo(struct pqpan_ble_work_memo *m,
                                                   const struct pqpan_ble_config *c)
{
    uint32_t key[4];
    work_key(key, c);
    if (m->valid && m->key[0] == key[0] && m->key[1] == key[1] && m->key[2] == key[2] &&
        m->key[3] == key[3]) {
        return m;
    }
    m->valid = exchange_work(m, c) == PQPAN_OK;
    m->times_valid = 0;
    memcpy(m->key, key, sizeof key);
    return m->valid ? m : NULL;
}

/* CPU time of each step: its operations' times ns[op]. */
static void steps_ns(uint64_t step[PQKE_STEPS], const struct pqpan_ble_work_memo *w,
                     const uint64_t ns[])
{
    int k, op;
    for (k = 0; k < PQKE_STEPS; k++) {
        step[k] = 0;
        for (op = 0; op < PQPAN_OP_COUNT; op++) {
            step[k] += w->ops[k][op] * ns[op];
        }
    }
}

/* The CPU times of work m (ops first..last, the others 0) into ns and step: the memo's
 * when its clock and those ops' cycles are the same, else computed and kept there. */
static void times_memo(uint64_t ns[PQPAN_OP_COUNT], uint64_t step[PQKE_STEPS],
                       struct pqpan_ble_work_memo *m, const uint64_t cycles[PQPAN_OP_COUNT],
                       const struct pqpan_ble_device *dev, enum pqpan_op first, enum pqpan_op last)
{
    int op, same = m->times_valid && m->cpu_hz == dev->cpu_hz;
    for (op = (int)first; same && op <= (int)last; op++) {
        same = m->cycles[op] == cycles[op];
    }
    if (!same) {
        memset(m->ns, 0, sizeof m->ns);
        ops_ns(m->ns, cycles, dev, first, last);
        steps_ns(m->step_ns, m, m->ns);
        memcpy(m->cycles, cycles, sizeof m->cycles);
        m->cpu_hz = dev->cpu_hz;
        m->times_valid = 1;
    }
    memcpy(ns, m->ns, sizeof m->ns);
    memcpy(step, m->step_ns, sizeof m->step_ns);
}

/* The messages of the exchange (docs/MODEL.md "Link model"). The study's prototype: ek
 * after KeyGen, ct after Encaps, then Decaps. pqpan's protocol (include/pqpan/pqke.h,
 * docs/PROTOCOL.md), sizes and steps of the configuration's mode (w): INIT after the
 * INIT step, RESP after the RESP step, FIN (CONFIRM phase) after the FIN step and, in numeric
 * mode, REVEAL (CONFIRM) from the other side after its AFTER_FIN step. Returns the CPU time
 * that follows the last message (the study's Decaps, the responder's AFTER_FIN step, or 0
 * after REVEAL) in *tail_ns and the side that runs it in *tail_side. */
static int plan_exchange(struct pqpan_ble_txn *t, uint32_t *n, uint64_t *tail_ns,
                         enum pqpan_ble_role *tail_side, const struct pqpan_ble_config *c,
                         const struct pqpan_ble_work_memo *w, const uint64_t step[])
{
    enum pqpan_ble_role k = c->keygen_side;
    enum pqpan_ble_role o = k == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    const enum pqpan_phase kt = PQPAN_PHASE_KEY_TRANSFER;
    int rc;
    *n = 0;
    if (c->protocol == PQPAN_BLE_PROTO_STUDY) {
        rc = add_message(t, n, c, 1, w->msg_bytes[0], k, kt, step[PQKE_STEP_INIT]);
        if (rc == PQPAN_OK) {
            rc = add_message(t, n, c, 0, w->msg_bytes[1], o, kt, step[PQKE_STEP_RESP]);
        }
        *tail_ns = step[PQKE_STEP_FIN];
        *tail_side = k;
        return rc;
    }
    rc = add_message(t, n, c, 1, w->msg_bytes[0], k, kt, step[PQKE_STEP_INIT]);
    if (rc == PQPAN_OK) {
        rc = add_message(t, n, c, 0, w->msg_bytes[1], o, kt, step[PQKE_STEP_RESP]);
    }
    if (rc == PQPAN_OK) {
        rc = add_message(t, n, c, 1, w->msg_bytes[2], k, PQPAN_PHASE_CONFIRM,
                         step[PQKE_STEP_FIN]);
    }
    if (w->msg_bytes[3] == 0u) {
        *tail_ns = step[PQKE_STEP_AFTER_FIN];
        *tail_side = o;
        return rc;
    }
    if (rc == PQPAN_OK) {
        rc = add_message(t, n, c, 0, w->msg_bytes[3], o, PQPAN_PHASE_CONFIRM,
                         step[PQKE_STEP_AFTER_FIN]);
    }
    *tail_ns = 0;
    *tail_side = k; /* the initiator, on REVEAL */
    return rc;
}

/* Books the operations of every step on the side that runs it: INIT and FIN on the
 * keygen side (the initiator), RESP and AFTER_FIN on the other. */
static void book_crypto(struct pqpan_ble_crypto_book book[2], const struct pqpan_ble_config *cfg,
                        const struct pqpan_ble_work_memo *w, const uint64_t cycles[],
                        const uint64_t ns[])
{
    enum pqpan_ble_role k = cfg->keygen_side;
    enum pqpan_ble_role o = k == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    int step, op;
    for (step = 0; step < PQKE_STEPS; step++) {
        struct pqpan_ble_crypto_book *b =
            &book[step == PQKE_STEP_INIT || step == PQKE_STEP_FIN ? k : o];
        for (op = 0; op < PQPAN_OP_COUNT; op++) {
            if (w->ops[step][op] != 0u) {
                book_ops(b, (enum pqpan_op)op, w->ops[step][op], cycles, ns);
            }
        }
    }
}

/* ---- the plans of the exchanges (estimate_memo.h struct pqpan_ble_plan) ---- */

/* The operations whose cycles an exchange reads, *first..*last: the plan's CPU times
 * (ops_ns) and the memo's key both take them from here. */
static void exchange_ops(enum pqpan_op *first, enum pqpan_op *last,
                         const struct pqpan_ble_config *cfg, int lesc)
{
    *first = lesc ? PQPAN_OP_ECDH_KEYGEN : PQPAN_OP_KEM_KEYGEN;
    *last = lesc                                     ? PQPAN_OP_ECDH_SHARED
            : cfg->protocol == PQPAN_BLE_PROTO_PQPAN ? PQPAN_OP_SIG_VERIFY /* KDF, P-256, ML-DSA */
                                                     : PQPAN_OP_KEM_DECAPS;
}

/* The PQKE's plan, its work taken from the memo's slot work (derived when NULL):
 * PQPAN_ERR_INVALID_ARG when its messages do not fit the configuration (e.g. the study's
 * transfer below ATT_MTU 403). */
static int plan_pqke(struct pqpan_ble_plan *p, const struct pqpan_ble_config *cfg,
                     const struct pqpan_ble_device *dev, const uint64_t cycles[PQPAN_OP_COUNT],
                     struct pqpan_ble_work_memo *work)
{
    struct pqpan_ble_work_memo own; /* the work, when no memo holds it */
    const struct pqpan_ble_work_memo *w;
    uint64_t tail = 0, step[PQKE_STEPS], ns[PQPAN_OP_COUNT];
    enum pqpan_ble_role tail_side = cfg->keygen_side;
    enum pqpan_op first, last;
    p->n = 0;
    exchange_ops(&first, &last, cfg, 0);
    if (work != NULL) {
        w = work_memo(work, cfg);
        if (w != NULL) {
            times_memo(ns, step, work, cycles, dev, first, last);
        }
    } else {
        w = exchange_work(&own, cfg) == PQPAN_OK ? &own : NULL;
        memset(ns, 0, sizeof ns);
        ops_ns(ns, cycles, dev, first, last);
        steps_ns(step, &own, ns);
    }
    if (w == NULL ||
        plan_exchange(p->t, &p->n, &tail, &tail_side, cfg, w, step) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    add_tail(p->t, &p->n, tail, tail_side);
    book_crypto(p->book, cfg, w, cycles, ns);
    return PQPAN_OK;
}

/* LE Secure Connections, Just Works / Numeric Comparison (Vol 3 Part H §2.3.5.6.2 and
 * Figure 2.2/C.x): Pairing Request/Response, Public Key ×2 (the responder's Confirm right
 * after its key), Random ×2, DHKey Check ×2; each SMP PDU answers the previous one and so
 * goes in the next event. Then the encryption start (Vol 6 Part B §5.1.3.1): LL_ENC_REQ,
 * LL_ENC_RSP, LL_START_ENC_REQ (after the host's LTK reply), LL_START_ENC_RSP ×2
 * (encrypted). Phase 3 key distribution is not modelled (no keys distributed). */
static void plan_lesc(struct pqpan_ble_plan *p, const struct pqpan_ble_device *dev,
                      const uint64_t cycles[PQPAN_OP_COUNT])
{
    struct pqpan_ble_txn *t = p->t, *x;
    const enum pqpan_ble_role c = PQPAN_BLE_CENTRAL, r = PQPAN_BLE_PERIPHERAL;
    const enum pqpan_phase kt = PQPAN_PHASE_KEY_TRANSFER, cf = PQPAN_PHASE_CONFIRM;
    uint32_t *n = &p->n;
    uint64_t ns[PQPAN_OP_COUNT] = {0u};
    enum pqpan_op first, last;
    int i;
    p->n = 0;
    exchange_ops(&first, &last, NULL, 1);
    ops_ns(ns, cycles, dev, first, last);
    for (i = 0; i < 2; i++) {
        book_ops(&p->book[i], PQPAN_OP_ECDH_KEYGEN, 1u, cycles, ns);
        book_ops(&p->book[i], PQPAN_OP_ECDH_SHARED, 1u, cycles, ns);
    }
    pqpan_ble_txn_add(t, n, c, kt, SMP_PAIRING_BYTES, 0u, 0);
    pqpan_ble_txn_add(t, n, r, kt, SMP_PAIRING_BYTES, 0u, 0);
    x = pqpan_ble_txn_add(t, n, c, kt, SMP_PUBLIC_KEY_BYTES, 0u, 0);
    x->wait_ns = ns[PQPAN_OP_ECDH_KEYGEN];
    x->wait_phase = PQPAN_PHASE_CRYPTO;
    x = pqpan_ble_txn_add(t, n, r, kt, SMP_PUBLIC_KEY_BYTES, 0u, 0);
    x->count = 2u;
    x->last_len = SMP_VALUE16_BYTES;
    x->wait_ns = ns[PQPAN_OP_ECDH_KEYGEN];
    x->wait_phase = PQPAN_PHASE_CRYPTO;
    pqpan_ble_txn_add(t, n, c, kt, SMP_VALUE16_BYTES, 0u, 0);
    pqpan_ble_txn_add(t, n, r, kt, SMP_VALUE16_BYTES, 0u, 0);
    x = pqpan_ble_txn_add(t, n, c, kt, SMP_VALUE16_BYTES, 0u, 0);
    x->wait_ns = ns[PQPAN_OP_ECDH_SHARED];
    x->wait_phase = PQPAN_PHASE_CRYPTO;
    pqpan_ble_txn_add(t, n, r, kt, SMP_VALUE16_BYTES, 0u, 0);
    pqpan_ble_txn_add(t, n, c, cf, LL_ENC_REQ_BYTES, 0u, 1);
    pqpan_ble_txn_add(t, n, r, cf, LL_ENC_RSP_BYTES, 0u, 1);
    pqpan_ble_txn_add(t, n, r, cf, LL_START_ENC_BYTES, 0u, 1);
    pqpan_ble_txn_add(t, n, c, cf, LL_START_ENC_BYTES, 0u, 1)->encrypted = 1;
    pqpan_ble_txn_add(t, n, r, cf, LL_START_ENC_BYTES, 0u, 1)->encrypted = 1;
}

/* The plan of the exchange (work: the memo's work slot, or NULL). */
static int plan_of(struct pqpan_ble_plan *p, const struct pqpan_ble_config *cfg,
                   const struct pqpan_ble_device *dev, const uint64_t cycles[PQPAN_OP_COUNT],
                   int lesc, struct pqpan_ble_work_memo *work)
{
    memset(p->book, 0, sizeof p->book);
    if (lesc) {
        plan_lesc(p, dev, cycles);
        return PQPAN_OK;
    }
    return plan_pqke(p, cfg, dev, cycles, work);
}

/* The exchange of plan p after the set-up *out holds: the messages on the link, each
 * side's crypto, the sleep that fills the latency. */
static void run_plan(struct pqpan_ble_estimate *out, const struct pqpan_ble_plan *p,
                     const struct pqpan_ble_shaped *shaped, const struct pqpan_ble_config *cfg,
                     const struct pqpan_ble_device *dev, struct pqpan_ble_flip *flip)
{
    int i;
    exchange(out, cfg, dev, p->t, p->n, shaped, flip);
    for (i = 0; i < 2; i++) {
        book_put(&out->ledger[i], &p->book[i]);
    }
    add_sleep(out->ledger, out->latency_ns);
}

/* The plain estimator: the plan, the set-up, the exchange, everything computed. */
static int estimate_plain(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                          const struct pqpan_ble_device *dev,
                          const uint64_t cycles[PQPAN_OP_COUNT], int lesc)
{
    struct pqpan_ble_plan p;
    struct pqpan_ble_flip flip;
    memset(out, 0, sizeof *out);
    if (!config_ok(cfg, dev) || plan_of(&p, cfg, dev, cycles, lesc, NULL) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    pqpan_ble_setup_run(out, cfg, dev);
    run_plan(out, &p, NULL, cfg, dev, &flip);
    return PQPAN_OK;
}

/* ---- the memo (estimate_memo.h struct pqpan_ble_memo, stored in ble.h's
 * struct pqpan_ble_estimate_cache) ---- */

void pqpan_ble_estimate_cache_init(struct pqpan_ble_estimate_cache *cache)
{
    memset(cache, 0, sizeof *cache);
}

void pqpan_ble_estimate_cache_stats(struct pqpan_ble_estimate_cache_stats *out,
                                    const struct pqpan_ble_estimate_cache *cache)
{
    const struct pqpan_ble_memo *m = pqpan_ble_memo_of_const(cache);
    out->hits = m->hits;
    out->misses = m->misses;
    out->exchange_hits = m->exchange_hits;
    out->exchange_misses = m->exchange_misses;
    out->exchange_mirrors = m->exchange_mirrors;
    out->setup_slots = PQPAN_BLE_ESTIMATE_CACHE_SLOTS;
    out->exchange_slots = PQPAN_BLE_EXCHANGE_CACHE_SLOTS;
}

/* The memo's keys are 64-bit words: each field, or small fields packed side by side at
 * fixed bit offsets wide enough for every value config_ok lets through, so that two
 * configurations have the same key only if they agree on every field in it. */

/* Whether n key words are equal: every word compared inline, no early exit (a memcmp call
 * costs more than these few words). */
static int words_equal(const uint64_t *a, const uint64_t *b, unsigned n)
{
    uint64_t diff = 0;
    unsigned i;
    for (i = 0; i < n; i++) {
        diff |= a[i] ^ b[i];
    }
    return diff == 0u;
}

/* A key's slot among `slots`: each word times its own odd 64-bit constant (word_weight),
 * summed (the products do not wait on each other, unlike FNV's chain; a sum can be
 * updated a word at a time), then mixed by splitmix64's finaliser so that every word
 * reaches the low bits. */
static uint64_t word_weight(unsigned i)
{
    return UINT64_C(0x9E3779B97F4A7C15) * (2u * i + 1u);
}

/* The weighted sum of the words but word `skip` (words: none skipped). */
static uint64_t key_sum(const uint64_t *k, unsigned words, unsigned skip)
{
    uint64_t h = 0;
    unsigned i;
    for (i = 0; i < words; i++) {
        h += i == skip ? 0u : k[i] * word_weight(i);
    }
    return h;
}

static uint32_t slot_of_sum(uint64_t h, uint32_t slots)
{
    h = (h ^ h >> 30) * UINT64_C(0xBF58476D1CE4E5B9);
    h = (h ^ h >> 27) * UINT64_C(0x94D049BB133111EB);
    return (uint32_t)((h ^ h >> 31) % slots);
}

static uint32_t key_slot(const uint64_t *k, unsigned words, uint32_t slots)
{
    return slot_of_sum(key_sum(k, words, words), slots);
}

/* The device's per-event timing and clock, seven 32-bit fields two to a word, from k on
 * (four words). */
#define KEY_DEVICE_WORDS 4u

static void key_device(uint64_t *k, const struct pqpan_ble_device *d)
{
    k[0] = d->hfxo_start_ns | (uint64_t)d->ramp_ns << 32;
    k[1] = d->pre_ns | (uint64_t)d->post_ns << 32;
    k[2] = d->sca_ppm | (uint64_t)d->rx_margin_ns << 32;
    k[3] = d->cpu_hz;
}

/* Every input pqpan_ble_setup_run reads (src/ble/setup.c): the advertising interval, the
 * interval the connection opens at (idle_ci_ns with conn_update, else ci_ns) and the
 * exchange's; the PHY; whether the LL payload switches from 27 octets (the set-up compares
 * ll_octets with 27 only) and whether the ATT_MTU exchange runs (att_mtu > 23); the
 * features, discovery and same_event_reply flags (each read as a truth value); which side
 * is the GATT server (its client runs the MTU exchange and the discovery); and the
 * device's timing. */
static void setup_key(uint64_t k[PQPAN_BLE_SETUP_KEY_WORDS], const struct pqpan_ble_config *c,
                      const struct pqpan_ble_device *d)
{
    k[0] = c->adv_interval_ns;
    k[1] = c->conn_update ? c->idle_ci_ns : c->ci_ns;
    k[2] = c->ci_ns;
    k[3] = (uint64_t)c->phy | (uint64_t)(c->ll_octets != PQPAN_LL_DATA_MIN_PAYLOAD) << 8 |
           (uint64_t)(c->att_mtu > PQPAN_ATT_DEFAULT_MTU) << 9 |
           (uint64_t)(c->features != 0) << 10 |
           (uint64_t)(c->discovery != 0) << 11 | (uint64_t)(c->same_event_reply != 0) << 12 |
           (uint64_t)(c->gatt_server == PQPAN_BLE_CENTRAL) << 13;
    key_device(&k[4], d);
}

_Static_assert(PQPAN_BLE_SETUP_KEY_WORDS == 4u + KEY_DEVICE_WORDS, "a set-up key's words");

/* The LL payload an exchange's L2CAP PDUs see: its effective LL octets, or fewer when even
 * those cannot cut its largest L2CAP PDU (one fragment either way, pqpan_ble_fragment):
 * an ATT PDU is at most ATT_MTU octets (Vol 3 Part F §3.2.8), an SMP PDU of LE Secure
 * Connections at most its Public Key's 65 (Vol 3 Part H §3.2, §3.5.6); each behind the
 * L2CAP basic header. So a sweep's LL sizes above that share one exchange. */
static uint32_t fragment_octets(const struct pqpan_ble_config *c, uint32_t ll_eff, int lesc)
{
    uint32_t sdu_max = lesc ? SMP_PUBLIC_KEY_BYTES : c->att_mtu;
    uint32_t pdu_max = sdu_max + PQPAN_L2CAP_HDR_BYTES;
    return ll_eff < pdu_max ? ll_eff : pdu_max;
}

/* The number of the timing (device and the cycles c's exchange reads) in the memo: the
 * timing matched last (checked first on the operations it was matched for, the others
 * being 0 there), another the memo keeps, or a new number in the slot after the last (ble.h
 * struct pqpan_ble_timing_memo). */
static uint64_t timing_id(struct pqpan_ble_memo *cache,
                          const struct pqpan_ble_config *c, const struct pqpan_ble_device *d,
                          const uint64_t cycles[PQPAN_OP_COUNT], int lesc)
{
    uint64_t read[PQPAN_OP_COUNT], dev[KEY_DEVICE_WORDS];
    struct pqpan_ble_timing_memo *m = &cache->timing[cache->last_timing];
    enum pqpan_op first, last;
    uint32_t i, j;
    int op;
    exchange_ops(&first, &last, c, lesc);
    key_device(dev, d);
    if (m->id != 0u && m->first == first && m->last == last &&
        words_equal(m->dev, dev, KEY_DEVICE_WORDS) &&
        words_equal(&m->cycles[first], &cycles[first], (unsigned)(last - first) + 1u)) {
        return m->id; /* the last call's timing */
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        read[op] = op >= (int)first && op <= (int)last ? cycles[op] : 0u;
    }
    for (i = 0; i < PQPAN_BLE_TIMING_SLOTS; i++) {
        j = (cache->last_timing + i) % PQPAN_BLE_TIMING_SLOTS;
        m = &cache->timing[j];
        if (m->id != 0u && words_equal(m->dev, dev, KEY_DEVICE_WORDS) &&
            words_equal(m->cycles, read, PQPAN_OP_COUNT)) {
            cache->last_timing = j;
            m->first = first;
            m->last = last;
            return m->id;
        }
    }
    cache->last_timing = (cache->last_timing + 1u) % PQPAN_BLE_TIMING_SLOTS;
    m = &cache->timing[cache->last_timing];
    memcpy(m->dev, dev, sizeof dev);
    memcpy(m->cycles, read, sizeof read);
    m->first = first;
    m->last = last;
    m->id = ++cache->timing_ids;
    return m->id;
}

/* Every input of the exchange (run_plan after plan_of). Its first PQPAN_BLE_PLAN_KEY_WORDS
 * words are the plan's: the timing's number (the device's timing and the cycles of the
 * operations the exchange runs; the others are not read and may hold anything); the KEM
 * sizes; for pqpan's protocol the PQKE mode and ML-DSA set; which exchange, and the fields
 * of cfg its messages are made of (PQKE: protocol, keygen side, hybrid suite, the method
 * of the keygen side's messages and of the other side's as the PDUs they send, ATT_MTU; LE
 * SC reads none of them), encryption and the event rule. Then the link (PHY, bits
 * accounting, the LL octets its PDUs see, pair cap, interval, event length) and the close
 * of the set-up's last event. The methods are keyed by message, not by GATT role, so the
 * key with the keygen side flipped is the same messages from the other sides (mirror_of). */
static uint64_t key_messages(const struct pqpan_ble_config *c, int lesc)
{
    int pqpan = !lesc && c->protocol == PQPAN_BLE_PROTO_PQPAN;
    uint64_t k = (uint64_t)lesc | (uint64_t)(c->encrypted != 0) << 1 |
                 (uint64_t)(c->same_event_reply != 0) << 2;
    if (!lesc) {
        enum pqpan_ble_role o =
            c->keygen_side == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
        k |= (uint64_t)c->protocol << 3 | (uint64_t)c->keygen_side << 4 |
             (uint64_t)(pqpan && c->pqke_hybrid != 0) << 5 |
             (uint64_t)pqpan_ble_transfer_pdus(pqpan_ble_config_transfer(c, c->keygen_side)) << 8 |
             (uint64_t)pqpan_ble_transfer_pdus(pqpan_ble_config_transfer(c, o)) << 11 |
             (uint64_t)c->att_mtu << 16;
    }
    return k;
}

_Static_assert(PQPAN_BLE_TRANSFER_COUNT <= 8, "a message's method takes 3 bits of a key");

static void exchange_key(uint64_t k[PQPAN_BLE_EXCHANGE_KEY_WORDS],
                         const struct pqpan_ble_config *c, uint64_t timing,
                         uint64_t start_close_ns, uint32_t ll_eff, int lesc)
{
    int pqke = !lesc, pqpan = pqke && c->protocol == PQPAN_BLE_PROTO_PQPAN;
    k[0] = timing;
    k[1] = pqke ? c->ek_bytes | (uint64_t)c->ct_bytes << 32 : 0u;
    k[2] = pqpan ? c->pqke_mode | (uint64_t)c->pqke_sig << 32 : 0u;
    k[3] = key_messages(c, lesc);
    k[4] = (uint64_t)c->phy | (uint64_t)c->bits_ifs << 8 |
           (uint64_t)fragment_octets(c, ll_eff, lesc) << 16 | (uint64_t)c->max_pairs << 32;
    k[5] = c->ci_ns;
    k[6] = c->event_len_ns;
    k[7] = start_close_ns;
}

_Static_assert(PQPAN_BLE_PLAN_KEY_WORDS == 4u && PQPAN_BLE_EXCHANGE_KEY_WORDS == 8u,
               "a plan's key is the exchange key's k[0..3]");

/* Whether set-up slot m holds the set-up of key. */
static int setup_slot_holds(const struct pqpan_ble_setup_memo *m,
                            const uint64_t key[PQPAN_BLE_SETUP_KEY_WORDS])
{
    return m->valid && words_equal(m->key, key, PQPAN_BLE_SETUP_KEY_WORDS);
}

/* The slot for key among the SETUP_WAYS of its set (slots SETUP_WAYS·j .. SETUP_WAYS·j +
 * SETUP_WAYS - 1: a key hashed to one may sit in any, so that the set-ups a sweep cycles
 * through do not evict each other): the one holding key, else the one stored longest ago
 * (or an empty one). */
#define SETUP_WAYS 8u

static uint32_t setup_slot_of(const struct pqpan_ble_memo *cache,
                              const uint64_t key[PQPAN_BLE_SETUP_KEY_WORDS])
{
    uint32_t h = key_slot(key, PQPAN_BLE_SETUP_KEY_WORDS, PQPAN_BLE_ESTIMATE_CACHE_SLOTS);
    uint32_t set = h - h % SETUP_WAYS, oldest = set, i;
    for (i = set; i < set + SETUP_WAYS; i++) {
        if (setup_slot_holds(&cache->slot[i], key)) {
            return i;
        }
        oldest = cache->slot[i].stamp < cache->slot[oldest].stamp ? i : oldest;
    }
    return oldest;
}

_Static_assert(PQPAN_BLE_ESTIMATE_CACHE_SLOTS % SETUP_WAYS == 0u, "whole sets of set-up slots");

/* The set-up of cfg from the memo, or computed (on cache->out, which then holds it) and
 * stored there. */
static const struct pqpan_ble_setup_memo *setup_memo(struct pqpan_ble_memo *cache,
                                                     const struct pqpan_ble_config *cfg,
                                                     const struct pqpan_ble_device *dev)
{
    uint64_t key[PQPAN_BLE_SETUP_KEY_WORDS];
    struct pqpan_ble_setup_memo *m;
    struct pqpan_ble_estimate *out = &cache->out;
    setup_key(key, cfg, dev);
    m = &cache->slot[cache->last_setup_slot]; /* a sweep's neighbours share their set-up */
    if (!setup_slot_holds(m, key)) {
        cache->last_setup_slot = setup_slot_of(cache, key);
        m = &cache->slot[cache->last_setup_slot];
    }
    if (setup_slot_holds(m, key)) {
        cache->hits++;
        return m;
    }
    cache->misses++;
    memset(out, 0, sizeof *out);
    pqpan_ble_setup_run(out, cfg, dev);
    memcpy(m->key, key, sizeof key);
    m->valid = 1;
    m->stamp = ++cache->stores;
    memcpy(m->ledger, out->ledger, sizeof m->ledger);
    m->counts = out->counts;
    memcpy(m->span_ns, out->span_ns, sizeof m->span_ns);
    m->setup_ns = out->setup_ns;
    cache->out_setup_stamp = m->stamp;
    cache->out_exchange_stamp = 0;
    return m;
}

/* The phases KEY_TRANSFER .. CONFIRM are what the exchange writes (the set-up writes the
 * phases before them and the totals; no estimate writes IDLE, which stays 0 in the memo's
 * estimate). Copied field by field: each copy has a small fixed size, which the compiler
 * moves in vector registers. */
#define EXCHANGE_PHASES PQPAN_BLE_EXCHANGE_PHASES

/* A ledger's totals, in the order of a tail's totals[]. */
static void totals_take(uint64_t t[5], const struct pqpan_ledger *l)
{
    t[0] = l->pdus_tx;
    t[1] = l->pdus_rx;
    t[2] = l->bytes_tx;
    t[3] = l->bytes_rx;
    t[4] = l->events;
}

static void totals_put(struct pqpan_ledger *l, const uint64_t t[5])
{
    l->pdus_tx = t[0];
    l->pdus_rx = t[1];
    l->bytes_tx = t[2];
    l->bytes_rx = t[3];
    l->events = t[4];
}

static void tail_take(struct pqpan_ble_ledger_tail *t, const struct pqpan_ledger *l)
{
    int p;
    for (p = 0; p < EXCHANGE_PHASES; p++) {
        memcpy(t->ns[p], l->ns[PQPAN_PHASE_KEY_TRANSFER + p], sizeof t->ns[p]);
    }
    memcpy(t->op_count, l->op_count, sizeof t->op_count);
    memcpy(t->op_cycles, l->op_cycles, sizeof t->op_cycles);
    totals_take(t->totals, l);
}

static void tail_put(struct pqpan_ledger *l, const struct pqpan_ble_ledger_tail *t)
{
    int p;
    for (p = 0; p < EXCHANGE_PHASES; p++) {
        memcpy(l->ns[PQPAN_PHASE_KEY_TRANSFER + p], t->ns[p], sizeof t->ns[p]);
    }
    memcpy(l->op_count, t->op_count, sizeof t->op_count);
    memcpy(l->op_cycles, t->op_cycles, sizeof t->op_cycles);
    totals_put(l, t->totals);
}

/* A bits ledger's part (its TX, RX and IFS, which follow one another in enum
 * pqpan_state, and its totals). */
_Static_assert(PQPAN_STATE_RX == PQPAN_STATE_TX + 1 && PQPAN_STATE_IFS == PQPAN_STATE_TX + 2,
               "a bits tail holds TX, RX and IFS as one run of states");

static void bits_take(struct pqpan_ble_bits_tail *t, const struct pqpan_ledger *l)
{
    int p;
    for (p = 0; p < EXCHANGE_PHASES; p++) {
        memcpy(t->ns[p], &l->ns[PQPAN_PHASE_KEY_TRANSFER + p][PQPAN_STATE_TX], sizeof t->ns[p]);
    }
    totals_take(t->totals, l);
}

static void bits_put(struct pqpan_ledger *l, const struct pqpan_ble_bits_tail *t)
{
    int p;
    for (p = 0; p < EXCHANGE_PHASES; p++) {
        memcpy(&l->ns[PQPAN_PHASE_KEY_TRANSFER + p][PQPAN_STATE_TX], t->ns[p], sizeof t->ns[p]);
    }
    totals_put(l, t->totals);
}

/* The set-up's parts of out: the phases before KEY_TRANSFER, its counts and spans (the
 * totals and the rest follow with the exchange). */
static void put_setup(struct pqpan_ble_estimate *out, const struct pqpan_ble_setup_memo *s)
{
    int i;
    int p;
    for (i = 0; i < 2; i++) {
        for (p = 0; p < PQPAN_PHASE_KEY_TRANSFER; p++) {
            memcpy(out->ledger[i].ns[p], s->ledger[i].ns[p], sizeof out->ledger[i].ns[p]);
        }
    }
    out->counts = s->counts;
    memcpy(out->span_ns, s->span_ns, sizeof out->span_ns);
    out->setup_ns = s->setup_ns;
}

/* The ledgers' totals: the set-up's added to the exchange's. */
static void add_setup_totals(struct pqpan_ble_estimate *out, const struct pqpan_ble_setup_memo *s)
{
    int i;
    for (i = 0; i < 2; i++) {
        out->ledger[i].pdus_tx += s->ledger[i].pdus_tx;
        out->ledger[i].pdus_rx += s->ledger[i].pdus_rx;
        out->ledger[i].bytes_tx += s->ledger[i].bytes_tx;
        out->ledger[i].bytes_rx += s->ledger[i].bytes_rx;
        out->ledger[i].events += s->ledger[i].events;
    }
}

/* d = a - b over the counts the exchange adds to; the three it sets are a's. With
 * sign = +1 and b the set-up's, counts_step(a, s, d) gives back the exchange's result. */
static inline void counts_step(struct pqpan_ble_counts *d, const struct pqpan_ble_counts *a,
                        const struct pqpan_ble_counts *b, int sign)
{
    int i;
    uint64_t m = sign > 0 ? 1u : UINT64_MAX; /* b × m: +b or −b modulo 2^64 */
    for (i = 0; i < 2; i++) {
        d->data_pdus_tx[i] = a->data_pdus_tx[i] + b->data_pdus_tx[i] * m;
        d->empty_pdus_tx[i] = a->empty_pdus_tx[i] + b->empty_pdus_tx[i] * m;
        d->att_pdus[i] = a->att_pdus[i] + b->att_pdus[i] * m;
        d->llctrl_pdus[i] = a->llctrl_pdus[i] + b->llctrl_pdus[i] * m;
    }
    d->events = a->events + b->events * m;
    d->idle_events = a->idle_events + b->idle_events * m;
    d->setup_events = a->setup_events + b->setup_events * m;
    d->crypto_start_ns = a->crypto_start_ns;
    d->crypto_end_ns = a->crypto_end_ns;
    d->last_close_ns = a->last_close_ns;
}

/* The exchange of slot x after the set-up s on out, which holds s's parts. */
static void put_exchange(struct pqpan_ble_estimate *out, const struct pqpan_ble_setup_memo *s,
                         const struct pqpan_ble_exchange_memo *x)
{
    int j;
    for (j = 0; j < 2; j++) {
        tail_put(&out->ledger[j], &x->tail[j]);
        bits_put(&out->bits[j], &x->bits_tail[j]);
    }
    add_setup_totals(out, s);
    counts_step(&out->counts, &x->counts, &s->counts, 1);
    out->latency_ns = x->latency_ns;
}

static int exchange_slot_holds(const struct pqpan_ble_exchange_memo *x,
                               const uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS])
{
    return x->valid && words_equal(x->key, key, PQPAN_BLE_EXCHANGE_KEY_WORDS);
}

/* The plan of the exchange whose key is key, from the memo's plan slots or planned there,
 * with its txns shaped for cfg's PHY and LL octets ll_eff (kept from the last call on the
 * same link, or shaped now): PQPAN_OK with *slot, or why its messages do not fit. */
static int plan_memo(const struct pqpan_ble_plan_memo **slot,
                     struct pqpan_ble_memo *cache,
                     const uint64_t key[PQPAN_BLE_PLAN_KEY_WORDS],
                     const struct pqpan_ble_config *cfg, const struct pqpan_ble_device *dev,
                     const uint64_t cycles[PQPAN_OP_COUNT], uint32_t ll_eff, int lesc)
{
    struct pqpan_ble_plan_memo *m =
        &cache->plan[key_slot(key, PQPAN_BLE_PLAN_KEY_WORDS, PQPAN_BLE_PLAN_CACHE_SLOTS)];
    uint64_t shaped_link = 1u | (uint64_t)cfg->phy << 8 | (uint64_t)ll_eff << 32;
    if (!m->valid || !words_equal(m->key, key, PQPAN_BLE_PLAN_KEY_WORDS)) {
        m->rc = plan_of(&m->plan, cfg, dev, cycles, lesc, &cache->work);
        memcpy(m->key, key, sizeof m->key);
        m->valid = 1;
        m->shaped_link = 0u;
    }
    if (m->rc == PQPAN_OK && m->shaped_link != shaped_link) {
        struct pqpan_ble_link l;
        link_of(&l, cfg, cfg->phy, ll_eff);
        pqpan_ble_shape_txns(&m->shaped, &l, m->plan.t, m->plan.n);
        m->shaped_link = shaped_link;
    }
    *slot = m;
    return m->rc;
}

/* Runs plan p on out after the set-up s (out holds s's parts) and stores what it adds in
 * slot x under key. */
static void compute_exchange(struct pqpan_ble_memo *cache,
                             const struct pqpan_ble_setup_memo *s,
                             struct pqpan_ble_exchange_memo *x,
                             const uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS],
                             const struct pqpan_ble_plan_memo *p,
                             const struct pqpan_ble_config *cfg, const struct pqpan_ble_device *dev)
{
    static const struct pqpan_ble_ledger_tail zero;
    static const struct pqpan_ble_bits_tail zero_bits;
    struct pqpan_ble_estimate *out = &cache->out;
    struct pqpan_ble_flip flip;
    int j;
    for (j = 0; j < 2; j++) {
        tail_put(&out->ledger[j], &zero);
        bits_put(&out->bits[j], &zero_bits);
    }
    out->counts = s->counts;
    run_plan(out, &p->plan, &p->shaped, cfg, dev, &flip);
    x->by_side = flip.by_side;
    x->latency_flipped_ns = flip.crypto_end_ns;
    for (j = 0; j < 2; j++) {
        tail_take(&x->tail[j], &out->ledger[j]);
        bits_take(&x->bits_tail[j], &out->bits[j]);
    }
    counts_step(&x->counts, &out->counts, &s->counts, -1);
    x->latency_ns = out->latency_ns;
    memcpy(x->key, key, sizeof x->key);
    x->valid = 1;
    x->stamp = ++cache->stores;
    add_setup_totals(out, s);
}

/* The key of the same exchange with the keygen side flipped (exchange_key's k[3] bit 4). */
#define KEY_SIDE_BIT (UINT64_C(1) << 4)

/* Side i of slot x from the other side of slot m, for mirror_exchange. */
static void mirror_side(struct pqpan_ble_exchange_memo *x, const struct pqpan_ble_exchange_memo *m,
                        int i)
{
    struct pqpan_ble_ledger_tail *t = &x->tail[i];
    const struct pqpan_ble_ledger_tail *o = &m->tail[1 - i];
    uint64_t busy = 0;
    int p, st;
    for (p = 0; p < EXCHANGE_PHASES; p++) {
        t->ns[p][PQPAN_STATE_TX] = o->ns[p][PQPAN_STATE_TX];
        t->ns[p][PQPAN_STATE_RX] = o->ns[p][PQPAN_STATE_RX];
        t->ns[p][PQPAN_STATE_CPU] = o->ns[p][PQPAN_STATE_CPU];
        t->ns[p][PQPAN_STATE_SLEEP] = 0u;
        x->bits_tail[i].ns[p][0] = m->bits_tail[1 - i].ns[p][0]; /* TX */
        x->bits_tail[i].ns[p][1] = m->bits_tail[1 - i].ns[p][1]; /* RX */
    }
    for (p = 0; p < EXCHANGE_PHASES; p++) {
        for (st = 0; st < PQPAN_STATE_COUNT; st++) {
            busy += t->ns[p][st];
        }
    }
    t->ns[0][PQPAN_STATE_SLEEP] = x->latency_ns > busy ? x->latency_ns - busy : 0u;
    memcpy(t->op_count, o->op_count, sizeof t->op_count);
    memcpy(t->op_cycles, o->op_cycles, sizeof t->op_cycles);
    memcpy(t->totals, o->totals, sizeof t->totals);
    memcpy(x->bits_tail[i].totals, m->bits_tail[1 - i].totals, sizeof x->bits_tail[i].totals);
    x->counts.data_pdus_tx[i] = m->counts.data_pdus_tx[1 - i];
    x->counts.empty_pdus_tx[i] = m->counts.empty_pdus_tx[1 - i];
    x->counts.att_pdus[i] = m->counts.att_pdus[1 - i];
    x->counts.llctrl_pdus[i] = m->counts.llctrl_pdus[1 - i];
}

/* Slot x (under key) from slot m, the same exchange with every message's sender swapped
 * (the keygen side flipped), m's timeline not depending on which side sent (m->by_side
 * 0): the events and waits are m's, and so is each side's per-event cost (its role's:
 * HFXO, ramp, pre/post-processing, RX window) and T_IFS; the latency is m's with the
 * computations run by the other sides (m->latency_flipped_ns: the events that suspend
 * them start earlier on the peripheral); what a side sends and receives (TX, RX, octets,
 * data PDUs, messages) and computes (CPU, operations) is what the other side of m did,
 * and its sleep fills the latency around the rest, as add_sleep does. x and m are the two
 * slots of one pair (exchange_slot_index). */
static void mirror_exchange(struct pqpan_ble_memo *cache,
                            struct pqpan_ble_exchange_memo *x,
                            const struct pqpan_ble_exchange_memo *m,
                            const uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS])
{
    int i;
    *x = *m;
    x->latency_ns = m->latency_flipped_ns;
    x->latency_flipped_ns = m->latency_ns;
    x->counts.crypto_end_ns = x->counts.crypto_start_ns + x->latency_ns;
    for (i = 0; i < 2; i++) {
        mirror_side(x, m, i);
    }
    memcpy(x->key, key, sizeof x->key);
    x->stamp = ++cache->stores;
}

/* The exchange slot of key: the slot its key hashes to without the keygen side, its
 * last bit the side's, so that the two sides of one exchange sit side by side (the other
 * side's slot is this one's index ^ 1). rest: key_sum of the key but word 3, which holds
 * the side and the methods (the words a sweep's fastest options leave alone). */
static uint32_t exchange_slot_index(const uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS],
                                    uint64_t rest)
{
    uint64_t sum = rest + (key[3] & ~KEY_SIDE_BIT) * word_weight(3u);
    uint32_t h = slot_of_sum(sum, PQPAN_BLE_EXCHANGE_CACHE_SLOTS);
    return (h & ~1u) | (uint32_t)((key[3] & KEY_SIDE_BIT) != 0u);
}

_Static_assert(PQPAN_BLE_EXCHANGE_CACHE_SLOTS % 2u == 0u, "exchange slots in pairs of sides");

/* The slot holding the mirror of the PQKE exchange under key in slot index (the keygen
 * side flipped, its timeline the same whoever sends), or NULL. */
static const struct pqpan_ble_exchange_memo *
mirror_of(const struct pqpan_ble_memo *cache,
          const uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS], uint32_t index)
{
    uint64_t flipped[PQPAN_BLE_EXCHANGE_KEY_WORDS];
    const struct pqpan_ble_exchange_memo *m = &cache->exchange[index ^ 1u];
    memcpy(flipped, key, sizeof flipped);
    flipped[3] ^= KEY_SIDE_BIT;
    return exchange_slot_holds(m, flipped) && !m->by_side ? m : NULL;
}

/* Every field of two configurations equal, compared inline (under perf, a memcmp call
 * here took a tenth of the memo path's time). */
_Static_assert(sizeof(struct pqpan_ble_config) == 120u,
               "config_equal compares every field of struct pqpan_ble_config: update both");

static int config_equal(const struct pqpan_ble_config *a, const struct pqpan_ble_config *b)
{
    uint64_t d = (uint64_t)(a->protocol ^ b->protocol) | (uint64_t)(a->phy ^ b->phy) |
                 (a->att_mtu ^ b->att_mtu) | (a->ll_octets ^ b->ll_octets) |
                 (a->max_tx_time_us ^ b->max_tx_time_us) |
                 (uint64_t)(a->server_transfer ^ b->server_transfer) |
                 (uint64_t)(a->client_transfer ^ b->client_transfer) |
                 (uint64_t)(a->gatt_server ^ b->gatt_server) |
                 (a->ci_ns ^ b->ci_ns) | (a->event_len_ns ^ b->event_len_ns) |
                 (a->max_pairs ^ b->max_pairs) |
                 (uint64_t)(unsigned)(a->same_event_reply ^ b->same_event_reply) |
                 (uint64_t)(a->keygen_side ^ b->keygen_side) |
                 (uint64_t)(unsigned)(a->encrypted ^ b->encrypted) | (a->ek_bytes ^ b->ek_bytes) |
                 (a->ct_bytes ^ b->ct_bytes) | (a->adv_interval_ns ^ b->adv_interval_ns) |
                 (uint64_t)(unsigned)(a->features ^ b->features) |
                 (uint64_t)(unsigned)(a->conn_update ^ b->conn_update) |
                 (a->idle_ci_ns ^ b->idle_ci_ns) |
                 (uint64_t)(unsigned)(a->discovery ^ b->discovery) |
                 (uint64_t)(a->bits_ifs ^ b->bits_ifs) | (a->pqke_mode ^ b->pqke_mode) |
                 (a->pqke_sig ^ b->pqke_sig) |
                 (uint64_t)(unsigned)(a->pqke_hybrid ^ b->pqke_hybrid);
    return d == 0u;
}

static int device_equal(const struct pqpan_ble_device *a, const struct pqpan_ble_device *b)
{
    return ((a->cpu_hz ^ b->cpu_hz) | (a->hfxo_start_ns ^ b->hfxo_start_ns) |
            (a->ramp_ns ^ b->ramp_ns) | (a->pre_ns ^ b->pre_ns) | (a->post_ns ^ b->post_ns) |
            (a->sca_ppm ^ b->sca_ppm) | (a->rx_margin_ns ^ b->rx_margin_ns)) == 0u;
}

/* Whether the call differs from the last one at most in its keygen side and transfers (the
 * last one's copy takes this call's three, then compares whole). */
static int same_but_side(struct pqpan_ble_last_call *last, const struct pqpan_ble_config *cfg,
                         const struct pqpan_ble_device *dev, const uint64_t cycles[PQPAN_OP_COUNT],
                         int lesc)
{
    if (!last->valid || last->lesc != lesc) {
        return 0;
    }
    last->cfg.keygen_side = cfg->keygen_side;
    last->cfg.server_transfer = cfg->server_transfer;
    last->cfg.client_transfer = cfg->client_transfer;
    return config_equal(cfg, &last->cfg) && device_equal(dev, &last->dev) &&
           words_equal(cycles, last->cycles, PQPAN_OP_COUNT);
}

static void remember(struct pqpan_ble_last_call *last, const struct pqpan_ble_config *cfg,
                     const struct pqpan_ble_device *dev, const uint64_t cycles[PQPAN_OP_COUNT],
                     int lesc)
{
    last->valid = 1;
    last->lesc = lesc;
    last->cfg = *cfg;
    last->dev = *dev;
    memcpy(last->cycles, cycles, sizeof last->cycles);
}

static int estimate_memo(const struct pqpan_ble_estimate **res, const struct pqpan_ble_config *cfg,
                         const struct pqpan_ble_device *dev,
                         const uint64_t cycles[PQPAN_OP_COUNT],
                         struct pqpan_ble_memo *cache, int lesc)
{
    uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS];
    const struct pqpan_ble_setup_memo *s;
    struct pqpan_ble_exchange_memo *x;
    const struct pqpan_ble_plan_memo *p = NULL;
    const struct pqpan_ble_exchange_memo *mirror;
    uint32_t ll_eff, index;
    uint64_t rest;
    int hit;
    *res = NULL;
    if (same_but_side(&cache->last, cfg, dev, cycles, lesc)) {
        if (!side_ok(cfg)) {
            return PQPAN_ERR_INVALID_ARG;
        }
        cache->hits++;
        s = &cache->slot[cache->last.setup_slot];
        ll_eff = cache->last.ll_eff;
        memcpy(key, cache->last.key, sizeof key);
        key[3] = key_messages(cfg, lesc);
        rest = cache->last.key_rest;
    } else {
        if (!config_ok(cfg, dev)) {
            return PQPAN_ERR_INVALID_ARG;
        }
        s = setup_memo(cache, cfg, dev);
        ll_eff = pqpan_ble_config_ll_octets(cfg);
        exchange_key(key, cfg, timing_id(cache, cfg, dev, cycles, lesc), s->counts.last_close_ns,
                     ll_eff, lesc);
        rest = key_sum(key, PQPAN_BLE_EXCHANGE_KEY_WORDS, 3u);
        remember(&cache->last, cfg, dev, cycles, lesc);
        cache->last.setup_slot = (uint32_t)(s - cache->slot);
        cache->last.ll_eff = ll_eff;
        memcpy(cache->last.key, key, sizeof key);
        cache->last.key_rest = rest;
    }
    index = exchange_slot_index(key, rest);
    x = &cache->exchange[index];
    hit = exchange_slot_holds(x, key);
    mirror = hit || lesc ? NULL : mirror_of(cache, key, index);
    if (!hit && mirror == NULL &&
        plan_memo(&p, cache, key, cfg, dev, cycles, ll_eff, lesc) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (cache->out_setup_stamp != s->stamp) {
        put_setup(&cache->out, s);
        cache->out_setup_stamp = s->stamp;
        cache->out_exchange_stamp = 0;
    }
    if (hit) {
        cache->exchange_hits++;
        if (cache->out_exchange_stamp != x->stamp) {
            put_exchange(&cache->out, s, x);
        }
    } else if (mirror != NULL) {
        cache->exchange_mirrors++;
        mirror_exchange(cache, x, mirror, key);
        put_exchange(&cache->out, s, x);
    } else {
        cache->exchange_misses++;
        compute_exchange(cache, s, x, key, p, cfg, dev);
    }
    cache->out_exchange_stamp = x->stamp;
    cache->out.ll_octets_eff = ll_eff; /* the slot may come from a larger LL size */
    *res = &cache->out;
    return PQPAN_OK;
}

/* The memo's estimate copied to out (zeroed on an error), or the plain estimator. */
static int estimate_copy(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                         const struct pqpan_ble_device *dev,
                         const uint64_t cycles[PQPAN_OP_COUNT],
                         struct pqpan_ble_memo *cache, int lesc)
{
    const struct pqpan_ble_estimate *e;
    int rc;
    if (cache == NULL) {
        return estimate_plain(out, cfg, dev, cycles, lesc);
    }
    rc = estimate_memo(&e, cfg, dev, cycles, cache, lesc);
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
        return rc;
    }
    memcpy(out, e, sizeof *out);
    return PQPAN_OK;
}

/* ---- the entry points ---- */

int pqpan_ble_estimate_pqke(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                            const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    return estimate_plain(out, cfg, dev, cycles, 0);
}

int pqpan_ble_estimate_lesc(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                            const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    return estimate_plain(out, cfg, dev, cycles, 1);
}

int pqpan_ble_estimate_pqke_cached(struct pqpan_ble_estimate *out,
                                   const struct pqpan_ble_config *cfg,
                                   const struct pqpan_ble_device *dev,
                                   const uint64_t cycles[PQPAN_OP_COUNT],
                                   struct pqpan_ble_estimate_cache *cache)
{
    return estimate_copy(out, cfg, dev, cycles, pqpan_ble_memo_of(cache), 0);
}

int pqpan_ble_estimate_lesc_cached(struct pqpan_ble_estimate *out,
                                   const struct pqpan_ble_config *cfg,
                                   const struct pqpan_ble_device *dev,
                                   const uint64_t cycles[PQPAN_OP_COUNT],
                                   struct pqpan_ble_estimate_cache *cache)
{
    return estimate_copy(out, cfg, dev, cycles, pqpan_ble_memo_of(cache), 1);
}

int pqpan_ble_estimate_pqke_memo(const struct pqpan_ble_estimate **out,
                                 const struct pqpan_ble_config *cfg,
                                 const struct pqpan_ble_device *dev,
                                 const uint64_t cycles[PQPAN_OP_COUNT],
                                 struct pqpan_ble_estimate_cache *cache)
{
    return estimate_memo(out, cfg, dev, cycles, pqpan_ble_memo_of(cache), 0);
}

int pqpan_ble_estimate_lesc_memo(const struct pqpan_ble_estimate **out,
                                 const struct pqpan_ble_config *cfg,
                                 const struct pqpan_ble_device *dev,
                                 const uint64_t cycles[PQPAN_OP_COUNT],
                                 struct pqpan_ble_estimate_cache *cache)
{
    return estimate_memo(out, cfg, dev, cycles, pqpan_ble_memo_of(cache), 1);
}
