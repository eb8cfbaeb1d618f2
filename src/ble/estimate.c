/* The analytic estimator: one PQKE (or one LE Secure Connections pairing) over the link
 * model of conn.c/att.c/phy.c, counted instead of simulated (docs/MODEL.md "Link model").
 * Closed forms per transaction run, no per-PDU loop: a few hundred ns per configuration. */
#include <stddef.h>
#include <string.h>

#include "ble/setup.h"
#include "pqpan/ble.h"
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
    memset(cfg, 0, sizeof *cfg);
    cfg->phy = PQPAN_BLE_PHY_1M;
    cfg->att_mtu = 403u;
    cfg->ll_octets = PQPAN_LL_DATA_MIN_PAYLOAD;
    cfg->transfer = PQPAN_BLE_STUDY;
    cfg->ci_ns = 50000000u;
    cfg->keygen_side = PQPAN_BLE_PERIPHERAL;
    cfg->ek_bytes = PQPAN_MLKEM768_EK_BYTES;
    cfg->ct_bytes = PQPAN_MLKEM768_CT_BYTES;
    cfg->adv_interval_ns = PQPAN_BLE_ADV_INTERVAL_DEFAULT_NS;
    cfg->features = 1;
    cfg->conn_update = 1;
    cfg->idle_ci_ns = PQPAN_BLE_IDLE_CI_DEFAULT_NS;
    cfg->discovery = 1;
    cfg->pqke_mode = PQPAN_PQKE_MODE_NONE;
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

/* The PQKE suite of the configuration's KEM sizes, 0 if none matches. */
static unsigned suite_of(const struct pqpan_ble_config *c)
{
    size_t i;
    for (i = 0; i < PQPAN_KEM_COUNT; i++) {
        const struct pqpan_kem *k = pqpan_kem_at(i);
        if (k->ek_bytes == c->ek_bytes && k->ct_bytes == c->ct_bytes) {
            return pqpan_pqke_suite_for_kem(k->id);
        }
    }
    return 0;
}

/* The work of each side (ML-KEM operations) in the configuration's PQKE mode. */
static int pqke_work(struct pqpan_pqke_work *ini, struct pqpan_pqke_work *rsp,
                     struct pqpan_pqke_sizes *sz, const struct pqpan_ble_config *c)
{
    unsigned suite = suite_of(c);
    int rc = pqpan_pqke_side_work(ini, suite, c->pqke_mode, PQPAN_PQKE_ROLE_INITIATOR, 0);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_side_work(rsp, suite, c->pqke_mode, PQPAN_PQKE_ROLE_RESPONDER, 0);
    }
    *sz = pqpan_pqke_message_sizes(suite, c->pqke_mode);
    return rc;
}

static int config_ok(const struct pqpan_ble_config *c, const struct pqpan_ble_device *d)
{
    return c->phy >= 0 && c->phy < PQPAN_BLE_PHY_COUNT && c->att_mtu >= PQPAN_ATT_DEFAULT_MTU &&
           c->att_mtu <= PQPAN_ATT_MAX_MTU && c->ll_octets >= PQPAN_LL_DATA_MIN_PAYLOAD &&
           c->ll_octets <= PQPAN_LL_DATA_MAX_PAYLOAD && ci_ok(c->ci_ns) &&
           (!c->conn_update || ci_ok(c->idle_ci_ns)) && adv_ok(c->adv_interval_ns) &&
           c->transfer >= 0 && c->transfer < PQPAN_BLE_TRANSFER_COUNT &&
           (c->keygen_side == PQPAN_BLE_CENTRAL || c->keygen_side == PQPAN_BLE_PERIPHERAL) &&
           c->ek_bytes > 0u && c->ct_bytes > 0u && d->cpu_hz > 0u &&
           (c->protocol == PQPAN_BLE_PROTO_STUDY ||
            (c->protocol == PQPAN_BLE_PROTO_PQPAN && pqpan_pqke_mode_implemented(c->pqke_mode) &&
             suite_of(c) != 0)) &&
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

/* One execution of op: its cycles, and its CPU time ns[op] (cpu_ns of its cycles). */
static void run_op(struct pqpan_ledger *l, enum pqpan_op op, const uint64_t cycles[],
                   const uint64_t ns[])
{
    pqpan_ledger_add_op(l, op, cycles[op]);
    pqpan_ledger_add(l, PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, ns[op]);
}

/* Sleep fills the part of span a side spends in none of the other states of the phases
 * in mask (bit = 1 << phase); it is booked in phase ph. */
static void add_sleep(struct pqpan_ledger led[2], uint64_t span, unsigned mask,
                      enum pqpan_phase ph)
{
    int i, p;
    for (i = 0; i < 2; i++) {
        uint64_t busy = 0;
        for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
            if (mask & (1u << p)) {
                busy += pqpan_ledger_phase_ns(&led[i], (enum pqpan_phase)p);
            }
        }
        pqpan_ledger_add(&led[i], ph, PQPAN_STATE_SLEEP, span > busy ? span - busy : 0u);
    }
}

#define MASK_EXCHANGE \
    ((1u << PQPAN_PHASE_KEY_TRANSFER) | (1u << PQPAN_PHASE_CRYPTO) | (1u << PQPAN_PHASE_CONFIRM))

/* The last computation (Decaps of the study's exchange) after the last message: the
 * events that pass while it runs, as a txn with only a wait. */
static void add_tail(struct pqpan_ble_txn *t, uint32_t *n, uint64_t tail_ns)
{
    struct pqpan_ble_txn *x;
    if (tail_ns == 0u) {
        return;
    }
    x = &t[(*n)++];
    memset(x, 0, sizeof *x);
    x->wait_ns = tail_ns;
    x->wait_phase = PQPAN_PHASE_CRYPTO;
}

/* The exchange on the link, which starts when the last set-up event closes; the
 * latency runs from the first computation's start to the last one's end. */
static void exchange(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                     const struct pqpan_ble_device *dev, const struct pqpan_ble_txn *t, uint32_t n)
{
    struct pqpan_ble_link l;
    uint64_t elapsed = 0;
    out->ll_octets_eff = pqpan_ble_config_ll_octets(cfg);
    link_of(&l, cfg, cfg->phy, out->ll_octets_eff);
    l.start_close_ns = out->counts.last_close_ns;
    out->counts.crypto_start_ns = 0u;
    out->counts.crypto_end_ns = 0u;
    pqpan_ble_schedule(out->ledger, out->bits, &out->counts, &elapsed, &l, dev, t, n);
    out->latency_ns = out->counts.crypto_end_ns - out->counts.crypto_start_ns;
}

/* Appends the transactions of one message to t[*n..); the first waits wait_ns of the
 * sender's CPU work. */
static int add_message(struct pqpan_ble_txn *t, uint32_t *n, const struct pqpan_ble_config *c,
                       int is_ek, uint32_t len, enum pqpan_ble_role sender, enum pqpan_phase ph,
                       uint64_t wait_ns)
{
    uint32_t m = 0, i;
    int rc = pqpan_ble_plan_message(t + *n, &m, c->transfer, is_ek, len, c->att_mtu, sender, ph);
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

/* The ML-KEM operations of each side (initiator = keygen side, responder) and, for
 * pqpan's protocol, the message sizes: the study's exchange is KeyGen and Decaps on one
 * side, Encaps on the other; pqpan's protocol those of the configuration's PQKE mode. */
struct exchange_work {
    struct pqpan_pqke_work ini, rsp;
    struct pqpan_pqke_sizes sz;
};

static int exchange_work(struct exchange_work *w, const struct pqpan_ble_config *c)
{
    if (c->protocol == PQPAN_BLE_PROTO_PQPAN) {
        return pqke_work(&w->ini, &w->rsp, &w->sz, c);
    }
    memset(w, 0, sizeof *w);
    w->ini.kem_keygen = 1;
    w->ini.kem_decaps = 1;
    w->rsp.kem_encaps = 1;
    return PQPAN_OK;
}

/* The messages of the exchange (docs/MODEL.md "Link model"). The study's prototype: ek
 * after KeyGen, ct after Encaps, then Decaps. pqpan's protocol (include/pqpan/pqke.h,
 * docs/PROTOCOL.md), sizes and operations of the configuration's mode (w): INIT after
 * KeyGen (and kem-auth*'s Encaps to the responder's static key); RESP after the
 * responder's Encaps (kem-auth-mutual: two), Decaps (kem-auth*) and key schedule; FIN
 * after the initiator's Decaps (kem-auth-mutual: two) and key schedule, in the CONFIRM
 * phase. Returns the CPU time that follows the last message (Decaps, or 0). */
static int plan_exchange(struct pqpan_ble_txn *t, uint32_t *n, uint64_t *tail_ns,
                         const struct pqpan_ble_config *c, const struct exchange_work *w,
                         const uint64_t ns[])
{
    enum pqpan_ble_role k = c->keygen_side;
    enum pqpan_ble_role o = k == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    const enum pqpan_phase kt = PQPAN_PHASE_KEY_TRANSFER;
    uint64_t kdf = ns[PQPAN_OP_KDF];
    int rc;
    *n = 0;
    if (c->protocol == PQPAN_BLE_PROTO_STUDY) {
        rc = add_message(t, n, c, 1, c->ek_bytes, k, kt, ns[PQPAN_OP_KEM_KEYGEN]);
        if (rc == PQPAN_OK) {
            rc = add_message(t, n, c, 0, c->ct_bytes, o, kt, ns[PQPAN_OP_KEM_ENCAPS]);
        }
        *tail_ns = ns[PQPAN_OP_KEM_DECAPS];
        return rc;
    }
    rc = add_message(t, n, c, 1, (uint32_t)w->sz.init_bytes, k, kt,
                     ns[PQPAN_OP_KEM_KEYGEN] + w->ini.kem_encaps * ns[PQPAN_OP_KEM_ENCAPS]);
    if (rc == PQPAN_OK) {
        rc = add_message(t, n, c, 0, (uint32_t)w->sz.resp_bytes, o, kt,
                         w->rsp.kem_encaps * ns[PQPAN_OP_KEM_ENCAPS] +
                             w->rsp.kem_decaps * ns[PQPAN_OP_KEM_DECAPS] + kdf);
    }
    if (rc == PQPAN_OK) {
        rc = add_message(t, n, c, 1, (uint32_t)w->sz.fin_bytes, k, PQPAN_PHASE_CONFIRM,
                         w->ini.kem_decaps * ns[PQPAN_OP_KEM_DECAPS] + kdf);
    }
    *tail_ns = 0;
    return rc;
}

/* Books op count times on side l. */
static void run_ops(struct pqpan_ledger *l, enum pqpan_op op, unsigned count,
                    const uint64_t cycles[], const uint64_t ns[])
{
    unsigned i;
    for (i = 0; i < count; i++) {
        run_op(l, op, cycles, ns);
    }
}

/* The crypto each side ran (w): the study's three operations, or the PQKE mode's (with
 * one key schedule per side). */
static void book_crypto(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                        const struct exchange_work *w, const uint64_t cycles[],
                        const uint64_t ns[])
{
    enum pqpan_ble_role k = cfg->keygen_side;
    enum pqpan_ble_role o = k == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    run_ops(&out->ledger[k], PQPAN_OP_KEM_KEYGEN, w->ini.kem_keygen, cycles, ns);
    run_ops(&out->ledger[k], PQPAN_OP_KEM_ENCAPS, w->ini.kem_encaps, cycles, ns);
    run_ops(&out->ledger[o], PQPAN_OP_KEM_ENCAPS, w->rsp.kem_encaps, cycles, ns);
    run_ops(&out->ledger[o], PQPAN_OP_KEM_DECAPS, w->rsp.kem_decaps, cycles, ns);
    run_ops(&out->ledger[k], PQPAN_OP_KEM_DECAPS, w->ini.kem_decaps, cycles, ns);
    if (cfg->protocol == PQPAN_BLE_PROTO_PQPAN) {
        run_op(&out->ledger[k], PQPAN_OP_KDF, cycles, ns);
        run_op(&out->ledger[o], PQPAN_OP_KDF, cycles, ns);
    }
}

/* ---- the set-up memo (ble.h struct pqpan_ble_estimate_cache) ---- */

void pqpan_ble_estimate_cache_init(struct pqpan_ble_estimate_cache *cache)
{
    memset(cache, 0, sizeof *cache);
}

/* Every input pqpan_ble_setup_run reads (src/ble/setup.c): the advertising interval, the
 * interval the connection opens at (idle_ci_ns with conn_update, else ci_ns) and the
 * exchange's; the PHY; whether the LL payload switches from 27 octets (the set-up compares
 * ll_octets with 27 only) and whether the ATT_MTU exchange runs (att_mtu > 23); the
 * features, discovery and same_event_reply flags (each read as a truth value); and the
 * device's timing. 64-bit values as two words, so the key has no padding to compare. */
static void setup_key(uint32_t k[PQPAN_BLE_SETUP_KEY_WORDS], const struct pqpan_ble_config *c,
                      const struct pqpan_ble_device *d)
{
    const uint64_t wide[3] = {c->adv_interval_ns, c->conn_update ? c->idle_ci_ns : c->ci_ns,
                              c->ci_ns};
    int i;
    for (i = 0; i < 3; i++) {
        k[2 * i] = (uint32_t)wide[i];
        k[2 * i + 1] = (uint32_t)(wide[i] >> 32);
    }
    k[6] = (uint32_t)c->phy;
    k[7] = (uint32_t)(c->ll_octets != PQPAN_LL_DATA_MIN_PAYLOAD) |
           (uint32_t)(c->att_mtu > PQPAN_ATT_DEFAULT_MTU) << 1 | (uint32_t)(c->features != 0) << 2 |
           (uint32_t)(c->discovery != 0) << 3 | (uint32_t)(c->same_event_reply != 0) << 4;
    k[8] = d->cpu_hz;
    k[9] = d->hfxo_start_ns;
    k[10] = d->ramp_ns;
    k[11] = d->pre_ns;
    k[12] = d->post_ns;
    k[13] = d->sca_ppm;
    k[14] = d->rx_margin_ns;
}

/* The key's slot: FNV-1a over the words, its high half folded onto the low bits. */
static uint32_t setup_slot(const uint32_t k[PQPAN_BLE_SETUP_KEY_WORDS])
{
    uint32_t h = 2166136261u;
    unsigned i;
    for (i = 0; i < PQPAN_BLE_SETUP_KEY_WORDS; i++) {
        h = (h ^ k[i]) * 16777619u;
    }
    return (h ^ h >> 16) % PQPAN_BLE_ESTIMATE_CACHE_SLOTS;
}

/* Zeroes *out and runs pqpan_ble_setup_run on it, or writes the same bytes from the memo.
 * The set-up reads nothing of *out but zeros and writes only ledger, counts, span_ns and
 * setup_ns, so a result stored for the same key is the same bytes. */
static void setup(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                  const struct pqpan_ble_device *dev, struct pqpan_ble_estimate_cache *cache)
{
    uint32_t key[PQPAN_BLE_SETUP_KEY_WORDS];
    struct pqpan_ble_setup_memo *m;
    if (cache == NULL) {
        memset(out, 0, sizeof *out);
        pqpan_ble_setup_run(out, cfg, dev);
        return;
    }
    setup_key(key, cfg, dev);
    m = &cache->slot[setup_slot(key)];
    if (m->valid && memcmp(m->key, key, sizeof key) == 0) {
        cache->hits++;
        /* the ledgers whole, everything after them zeroed, then the set-up's fields */
        memcpy(out->ledger, m->ledger, sizeof out->ledger);
        memset(&out->bits, 0, sizeof *out - offsetof(struct pqpan_ble_estimate, bits));
        out->counts = m->counts;
        memcpy(out->span_ns, m->span_ns, sizeof out->span_ns);
        out->setup_ns = m->setup_ns;
        return;
    }
    cache->misses++;
    memset(out, 0, sizeof *out);
    pqpan_ble_setup_run(out, cfg, dev);
    memcpy(m->key, key, sizeof key);
    m->valid = 1;
    memcpy(m->ledger, out->ledger, sizeof m->ledger);
    m->counts = out->counts;
    memcpy(m->span_ns, out->span_ns, sizeof m->span_ns);
    m->setup_ns = out->setup_ns;
}

/* ---- the estimates ---- */

static int estimate_pqke(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                         const struct pqpan_ble_device *dev, const uint64_t cycles[PQPAN_OP_COUNT],
                         struct pqpan_ble_estimate_cache *cache)
{
    struct pqpan_ble_txn t[3 * PQPAN_BLE_TXN_MAX + 1];
    uint32_t n = 0;
    uint64_t tail = 0;
    uint64_t ns[PQPAN_OP_COUNT] = {0u};
    struct exchange_work w;

    if (!config_ok(cfg, dev)) {
        memset(out, 0, sizeof *out);
        return PQPAN_ERR_INVALID_ARG;
    }
    ops_ns(ns, cycles, dev, PQPAN_OP_KEM_KEYGEN,
           cfg->protocol == PQPAN_BLE_PROTO_PQPAN ? PQPAN_OP_KDF : PQPAN_OP_KEM_DECAPS);
    if (exchange_work(&w, cfg) != PQPAN_OK || plan_exchange(t, &n, &tail, cfg, &w, ns) != PQPAN_OK) {
        memset(out, 0, sizeof *out);
        return PQPAN_ERR_INVALID_ARG;
    }
    add_tail(t, &n, tail);
    setup(out, cfg, dev, cache);
    exchange(out, cfg, dev, t, n);
    book_crypto(out, cfg, &w, cycles, ns);
    add_sleep(out->ledger, out->latency_ns, MASK_EXCHANGE, PQPAN_PHASE_KEY_TRANSFER);
    return PQPAN_OK;
}

int pqpan_ble_estimate_pqke(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                            const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    return estimate_pqke(out, cfg, dev, cycles, NULL);
}

int pqpan_ble_estimate_pqke_cached(struct pqpan_ble_estimate *out,
                                   const struct pqpan_ble_config *cfg,
                                   const struct pqpan_ble_device *dev,
                                   const uint64_t cycles[PQPAN_OP_COUNT],
                                   struct pqpan_ble_estimate_cache *cache)
{
    return estimate_pqke(out, cfg, dev, cycles, cache);
}

/* LE Secure Connections, Just Works / Numeric Comparison (Vol 3 Part H §2.3.5.6.2 and
 * Figure 2.2/C.x): Pairing Request/Response, Public Key ×2 (the responder's Confirm right
 * after its key), Random ×2, DHKey Check ×2; each SMP PDU answers the previous one and so
 * goes in the next event. Then the encryption start (Vol 6 Part B §5.1.3.1): LL_ENC_REQ,
 * LL_ENC_RSP, LL_START_ENC_REQ (after the host's LTK reply), LL_START_ENC_RSP ×2
 * (encrypted). Phase 3 key distribution is not modelled (no keys distributed). */
static int estimate_lesc(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                         const struct pqpan_ble_device *dev, const uint64_t cycles[PQPAN_OP_COUNT],
                         struct pqpan_ble_estimate_cache *cache)
{
    struct pqpan_ble_txn t[16];
    struct pqpan_ble_txn *x;
    const enum pqpan_ble_role c = PQPAN_BLE_CENTRAL, p = PQPAN_BLE_PERIPHERAL;
    const enum pqpan_phase kt = PQPAN_PHASE_KEY_TRANSFER, cf = PQPAN_PHASE_CONFIRM;
    uint32_t n = 0;
    uint64_t ns[PQPAN_OP_COUNT] = {0u};
    int i;

    if (!config_ok(cfg, dev)) {
        memset(out, 0, sizeof *out);
        return PQPAN_ERR_INVALID_ARG;
    }
    ops_ns(ns, cycles, dev, PQPAN_OP_ECDH_KEYGEN, PQPAN_OP_ECDH_SHARED);
    pqpan_ble_txn_add(t, &n, c, kt, SMP_PAIRING_BYTES, 0u, 0);
    pqpan_ble_txn_add(t, &n, p, kt, SMP_PAIRING_BYTES, 0u, 0);
    x = pqpan_ble_txn_add(t, &n, c, kt, SMP_PUBLIC_KEY_BYTES, 0u, 0);
    x->wait_ns = ns[PQPAN_OP_ECDH_KEYGEN];
    x->wait_phase = PQPAN_PHASE_CRYPTO;
    x = pqpan_ble_txn_add(t, &n, p, kt, SMP_PUBLIC_KEY_BYTES, 0u, 0);
    x->count = 2u;
    x->last_len = SMP_VALUE16_BYTES;
    x->wait_ns = ns[PQPAN_OP_ECDH_KEYGEN];
    x->wait_phase = PQPAN_PHASE_CRYPTO;
    pqpan_ble_txn_add(t, &n, c, kt, SMP_VALUE16_BYTES, 0u, 0);
    pqpan_ble_txn_add(t, &n, p, kt, SMP_VALUE16_BYTES, 0u, 0);
    x = pqpan_ble_txn_add(t, &n, c, kt, SMP_VALUE16_BYTES, 0u, 0);
    x->wait_ns = ns[PQPAN_OP_ECDH_SHARED];
    x->wait_phase = PQPAN_PHASE_CRYPTO;
    pqpan_ble_txn_add(t, &n, p, kt, SMP_VALUE16_BYTES, 0u, 0);
    pqpan_ble_txn_add(t, &n, c, cf, LL_ENC_REQ_BYTES, 0u, 1);
    pqpan_ble_txn_add(t, &n, p, cf, LL_ENC_RSP_BYTES, 0u, 1);
    pqpan_ble_txn_add(t, &n, p, cf, LL_START_ENC_BYTES, 0u, 1);
    pqpan_ble_txn_add(t, &n, c, cf, LL_START_ENC_BYTES, 0u, 1)->encrypted = 1;
    pqpan_ble_txn_add(t, &n, p, cf, LL_START_ENC_BYTES, 0u, 1)->encrypted = 1;
    setup(out, cfg, dev, cache);
    exchange(out, cfg, dev, t, n);
    for (i = 0; i < 2; i++) {
        run_op(&out->ledger[i], PQPAN_OP_ECDH_KEYGEN, cycles, ns);
        run_op(&out->ledger[i], PQPAN_OP_ECDH_SHARED, cycles, ns);
    }
    add_sleep(out->ledger, out->latency_ns, MASK_EXCHANGE, PQPAN_PHASE_KEY_TRANSFER);
    return PQPAN_OK;
}

int pqpan_ble_estimate_lesc(struct pqpan_ble_estimate *out, const struct pqpan_ble_config *cfg,
                            const struct pqpan_ble_device *dev,
                            const uint64_t cycles[PQPAN_OP_COUNT])
{
    return estimate_lesc(out, cfg, dev, cycles, NULL);
}

int pqpan_ble_estimate_lesc_cached(struct pqpan_ble_estimate *out,
                                   const struct pqpan_ble_config *cfg,
                                   const struct pqpan_ble_device *dev,
                                   const uint64_t cycles[PQPAN_OP_COUNT],
                                   struct pqpan_ble_estimate_cache *cache)
{
    return estimate_lesc(out, cfg, dev, cycles, cache);
}
