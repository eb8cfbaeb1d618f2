/* The simulator's advertising phase (Core v5.4 Vol 6 Part B §4.4.2): the peripheral's
 * connectable undirected advertising events, each ADV_IND on the primary channels 37, 38,
 * 39 in turn with a listening window for a request after each, until the central, which
 * scans continuously on one channel, receives one and answers with the CONNECT_IND
 * (sim.c). Time 0 is the moment the scanner starts up; what the advertiser did before it
 * is not part of the phase. */
#include <string.h>

#include "pqpan/sim.h"
#include "sim/sim_internal.h"

/* AD types (Assigned Numbers; CSS Part A §1.3 Flags, §1.1 Service UUIDs) and the Flags
 * value LE General Discoverable Mode | BR/EDR Not Supported (0x02 | 0x04). */
#define AD_FLAGS 0x01u
#define AD_UUID128_COMPLETE 0x07u
#define FLAGS_GENERAL_NO_BREDR 0x06u
/* Vol 6 Part A §2: primary advertising channels 37, 38, 39 are RF channels 0, 12, 39. */
static const uint8_t rf_of_adv[3] = {0u, 12u, 39u};

uint8_t pqpan_sim_adv_rf_channel(uint8_t channel)
{
    return rf_of_adv[channel - PQPAN_BLE_ADV_FIRST_CHANNEL];
}

/* The stationary residual of T_advEvent = advInterval + advDelay (advDelay uniform in
 * 0..10 ms, §4.4.2.2) at a uniformly distributed moment: the event interval that holds the
 * moment is size-biased (density ∝ its length, drawn by rejection), and the moment is
 * uniform in it. */
uint64_t pqpan_sim_adv_wait(struct pqpan_prng *r, uint64_t adv_interval_ns)
{
    const uint64_t dmax = PQPAN_BLE_ADV_DELAY_MAX_NS;
    uint64_t d;
    do {
        d = pqpan_prng_below(r, dmax + 1u);
    } while (pqpan_prng_below(r, adv_interval_ns + dmax + 1u) >= adv_interval_ns + d + 1u);
    return pqpan_prng_below(r, adv_interval_ns + d);
}

/* The ADV_IND: AdvA the peripheral's static random address (as in the CONNECT_IND),
 * AdvData Flags + the Complete List of 128-bit Service UUIDs with the key-exchange
 * service (PQPAN_BLE_ADV_IND_PAYLOAD octets of payload). */
static int adv_ind(uint8_t pdu[PQPAN_ADV_IND_PDU_MAX + PQPAN_LL_CRC_BYTES], size_t *len)
{
    struct pqpan_adv_ind a;
    int rc;
    memset(&a, 0, sizeof a);
    memcpy(a.adv_addr, PQPAN_SIM_PERIPHERAL_ADDR, PQPAN_BD_ADDR_BYTES);
    a.tx_add_random = 1;
    a.data[0] = 2u;
    a.data[1] = AD_FLAGS;
    a.data[2] = FLAGS_GENERAL_NO_BREDR;
    a.data[3] = 17u;
    a.data[4] = AD_UUID128_COMPLETE;
    memcpy(a.data + 5, pqpan_sim_gatt_service_uuid(), 16);
    a.data_len = 21u;
    rc = pqpan_adv_ind_write(pdu, PQPAN_ADV_IND_PDU_MAX, &a, len);
    if (rc == PQPAN_OK && *len != PQPAN_LL_HDR_BYTES + PQPAN_BLE_ADV_IND_PAYLOAD) {
        rc = PQPAN_ERR_STATE; /* the estimator counts another size */
    }
    return rc;
}

/* The phase's timeline in signed ns (the advertiser's first event may start before 0). */
struct adv_run {
    struct pqpan_sim *s;
    const struct pqpan_sim_observer *obs;
    void *obs_ctx;
    uint8_t pdu[PQPAN_ADV_IND_PDU_MAX + PQPAN_LL_CRC_BYTES];
    size_t len;
    uint64_t t_adv;  /* ADV_IND air time */
    uint64_t listen; /* the window for a request after T_IFS */
    int64_t lead;    /* the scanner listens from here */
    uint8_t channel; /* the scanner's */
    int64_t heard_at; /* start of the ADV_IND the scanner answers */
};

/* Books [t0, t1) of side n in state st, the part from 0 on. */
static void book(const struct adv_run *a, int n, enum pqpan_state st, int64_t t0, int64_t t1)
{
    if (t0 < 0) {
        t0 = 0;
    }
    if (t1 <= t0) {
        return;
    }
    pqpan_ledger_add(&a->s->res.ledger[n], PQPAN_PHASE_ADVERTISE, st, (uint64_t)(t1 - t0));
    pqpan_sim_emit_span(a->obs, a->obs_ctx, n, (int)st, PQPAN_PHASE_ADVERTISE, (uint64_t)t0, (uint64_t)t1);
}

/* One ADV_IND at t on channel ch: sent by the advertiser, received by the scanner if it
 * listens there (through the channel's errors). Returns 1 if the scanner got it. */
static int send_adv_ind(struct adv_run *a, uint8_t ch, int64_t t)
{
    struct pqpan_sim *s = a->s;
    struct pqpan_sim_packet p;
    int heard = ch == a->channel && t >= a->lead, ok = 1;
    book(a, PQPAN_BLE_PERIPHERAL, PQPAN_STATE_TX, t, t + (int64_t)a->t_adv);
    if (t < 0) {
        return 0;
    }
    s->res.ledger[PQPAN_BLE_PERIPHERAL].pdus_tx++;
    s->res.ledger[PQPAN_BLE_PERIPHERAL].bytes_tx += PQPAN_LL_AA_BYTES + 1u + a->len + PQPAN_LL_CRC_BYTES;
    memcpy(s->air.b, a->pdu, a->len + PQPAN_LL_CRC_BYTES);
    s->air.len = (uint16_t)a->len;
    if (heard) {
        s->res.ledger[PQPAN_BLE_CENTRAL].pdus_rx++;
        s->res.ledger[PQPAN_BLE_CENTRAL].bytes_rx += PQPAN_LL_AA_BYTES + 1u + a->len + PQPAN_LL_CRC_BYTES;
        pqpan_sim_apply_channel(s, PQPAN_BLE_PERIPHERAL);
        ok = !s->air_lost && pqpan_crc24_check(PQPAN_LL_ADV_CRC_INIT, s->air.b, s->air.len);
    }
    if (a->obs != NULL && a->obs->packet != NULL && !(heard && s->air_lost)) {
        memset(&p, 0, sizeof p);
        p.t_ns = (uint64_t)t;
        p.access_address = PQPAN_LL_ADV_AA;
        p.rf_channel = pqpan_sim_adv_rf_channel(ch);
        p.advertising = 1;
        p.sender = PQPAN_BLE_PERIPHERAL;
        p.phy = PQPAN_BLE_PHY_1M;
        p.crc_ok = (uint8_t)ok;
        p.pdu = s->air.b;
        p.len = a->len + PQPAN_LL_CRC_BYTES;
        a->obs->packet(a->obs_ctx, &p);
    }
    return heard && ok;
}

/* One advertising event starting at e (HFXO start, CPU, then per channel: ramp-up,
 * ADV_IND, T_IFS and the request window). Returns the CONNECT_IND's start if the scanner
 * answered in it, else -1. */
static int64_t adv_event(struct adv_run *a, int64_t e)
{
    const struct pqpan_ble_device *d = &a->s->cfg.dev;
    const int n = PQPAN_BLE_PERIPHERAL;
    int64_t t = e + d->pre_ns + d->hfxo_start_ns;
    uint8_t ch;
    book(a, n, PQPAN_STATE_PRE, e, e + d->pre_ns);
    book(a, n, PQPAN_STATE_HFXO_START, e + d->pre_ns, t);
    for (ch = PQPAN_BLE_ADV_FIRST_CHANNEL; ch < PQPAN_BLE_ADV_FIRST_CHANNEL + 3u; ch++) {
        int64_t end;
        book(a, n, PQPAN_STATE_RAMP_TX, t, t + d->ramp_ns);
        t += d->ramp_ns;
        end = t + (int64_t)a->t_adv;
        if (send_adv_ind(a, ch, t)) {
            int64_t connect_at = end + PQPAN_BLE_T_IFS_NS;
            a->heard_at = t;
            book(a, n, PQPAN_STATE_IFS, end, connect_at);
            /* the post-processing follows the CONNECT_IND's reception */
            book(a, n, PQPAN_STATE_POST, connect_at, connect_at + d->post_ns);
            return connect_at;
        }
        t = end + PQPAN_BLE_T_IFS_NS;
        book(a, n, PQPAN_STATE_IFS, end, t);
        book(a, n, PQPAN_STATE_RX_WINDOW, t, t + (int64_t)a->listen);
        t += (int64_t)a->listen;
    }
    book(a, n, PQPAN_STATE_POST, t, t + d->post_ns);
    return -1;
}

/* The central's start of scanning: CPU, crystal start and ramp-up before it listens. */
static void scanner_start(struct adv_run *a)
{
    const struct pqpan_ble_device *d = &a->s->cfg.dev;
    const int c = PQPAN_BLE_CENTRAL;
    book(a, c, PQPAN_STATE_PRE, 0, d->pre_ns);
    book(a, c, PQPAN_STATE_HFXO_START, d->pre_ns, (int64_t)d->pre_ns + d->hfxo_start_ns);
    book(a, c, PQPAN_STATE_RAMP_RX, (int64_t)d->pre_ns + d->hfxo_start_ns, a->lead);
}

int pqpan_sim_advertise(struct pqpan_sim *s, const struct pqpan_sim_observer *obs, void *obs_ctx)
{
    const struct pqpan_ble_device *d = &s->cfg.dev;
    const uint64_t adv_ns = s->cfg.ble.adv_interval_ns;
    const int c = PQPAN_BLE_CENTRAL;
    struct adv_run a;
    uint64_t wait, before_ch;
    int64_t e, connect_at = -1;
    int rc;
    memset(&a, 0, sizeof a);
    a.s = s;
    a.obs = obs;
    a.obs_ctx = obs_ctx;
    rc = adv_ind(a.pdu, &a.len);
    if (rc != PQPAN_OK) {
        return rc;
    }
    pqpan_crc24_append(PQPAN_LL_ADV_CRC_INIT, a.pdu, a.len);
    a.t_adv = pqpan_ble_packet_ns(PQPAN_BLE_PHY_1M, PQPAN_BLE_ADV_IND_PAYLOAD, 0);
    a.listen = pqpan_ble_adv_listen_ns();
    a.lead = (int64_t)d->pre_ns + d->hfxo_start_ns + d->ramp_ns;
    a.channel = s->cfg.adv_scan_channel != 0u
                    ? s->cfg.adv_scan_channel
                    : (uint8_t)(PQPAN_BLE_ADV_FIRST_CHANNEL + pqpan_prng_below(&s->rng, 3u));
    wait = s->cfg.adv_wait_ns != 0u ? s->cfg.adv_wait_ns : pqpan_sim_adv_wait(&s->rng, adv_ns);
    /* the first event holds the ADV_IND on the scanner's channel `wait` after it listens */
    before_ch = (uint64_t)d->pre_ns + d->hfxo_start_ns + d->ramp_ns +
                (uint64_t)(a.channel - PQPAN_BLE_ADV_FIRST_CHANNEL) *
                    (d->ramp_ns + a.t_adv + PQPAN_BLE_T_IFS_NS + a.listen);
    e = a.lead + (int64_t)wait - (int64_t)before_ch;
    while (connect_at < 0) {
        if (e > (int64_t)s->cfg.max_sim_ns) {
            /* never heard: the scanner listened the whole time, the run ends there */
            scanner_start(&a);
            book(&a, c, PQPAN_STATE_RX_WINDOW, a.lead, e);
            s->connect_at_ns = s->now_ns = (uint64_t)e;
            return PQPAN_ERR_TIMEOUT;
        }
        connect_at = adv_event(&a, e);
        e += (int64_t)(adv_ns + pqpan_prng_below(&s->rng, PQPAN_BLE_ADV_DELAY_MAX_NS + 1u));
    }
    scanner_start(&a);
    book(&a, c, PQPAN_STATE_RX_WINDOW, a.lead, a.heard_at);
    book(&a, c, PQPAN_STATE_RX, a.heard_at, connect_at - PQPAN_BLE_T_IFS_NS);
    book(&a, c, PQPAN_STATE_IFS, connect_at - PQPAN_BLE_T_IFS_NS, connect_at);
    s->connect_at_ns = (uint64_t)connect_at;
    s->adv_channel = a.channel;
    return PQPAN_OK;
}
