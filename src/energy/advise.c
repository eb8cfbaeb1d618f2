/* The advisor's arithmetic (include/pqpan/advise.h; docs/MODEL.md "Advice"). */
#include <math.h>
#include <string.h>

#include "pqpan/advise.h"
#include "pqpan/ieee802154.h"

void pqpan_advise_ledger_phases(struct pqpan_ledger *out, const struct pqpan_ledger *l,
                                unsigned mask)
{
    int p;
    pqpan_ledger_init(out);
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        if (mask & (1u << p)) {
            memcpy(out->ns[p], l->ns[p], sizeof out->ns[p]);
        }
    }
    memcpy(out->op_count, l->op_count, sizeof out->op_count);
    memcpy(out->op_cycles, l->op_cycles, sizeof out->op_cycles);
}

enum pqpan_radio_mode pqpan_advise_radio_mode(enum pqpan_ble_phy phy)
{
    switch (phy) {
    case PQPAN_BLE_PHY_2M:
        return PQPAN_RADIO_BLE_2M;
    case PQPAN_BLE_PHY_CODED_S2:
    case PQPAN_BLE_PHY_CODED_S8:
        return PQPAN_RADIO_BLE_CODED;
    default:
        return PQPAN_RADIO_BLE_1M;
    }
}

/* ---- battery ---- */

/* 1 mAh = 1e-3 A × 3600 s = 3.6 C = 3.6e6 µC. */
#define UC_PER_MAH 3.6e6

static int finite_positive(double x)
{
    return isfinite(x) && x > 0.0;
}

static int battery_in_ok(const struct pqpan_advise_battery_in *in)
{
    return finite_positive(in->capacity_mah) && finite_positive(in->idle_ua) &&
           finite_positive(in->exchange_uc) && isfinite(in->exchange_s) &&
           in->exchange_s >= 0.0 && finite_positive(in->rekey_s) &&
           in->exchange_s < in->rekey_s && isfinite(in->app_ua) && in->app_ua >= 0.0 &&
           isfinite(in->self_discharge) && in->self_discharge >= 0.0 &&
           in->self_discharge <= 1.0 && finite_positive(in->derate) && in->derate <= 1.0;
}

/* One year of 365.25 days, in seconds: the self-discharge's time base. */
#define SECONDS_PER_YEAR (365.25 * 86400.0)

int pqpan_advise_battery(struct pqpan_advise_battery *out,
                         const struct pqpan_advise_battery_in *in)
{
    double period_uc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (in == NULL || !battery_in_ok(in)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    out->capacity_uc = in->capacity_mah * UC_PER_MAH;
    out->usable_uc = out->capacity_uc * in->derate;
    out->exchanges = out->usable_uc / in->exchange_uc;
    /* The application's load and the self-discharge, both constant currents (µC / s = µA). */
    out->drain_ua = in->app_ua + out->capacity_uc * in->self_discharge / SECONDS_PER_YEAR;
    /* One rekey interval: the exchange (its own charge over exchange_s), then the idle
     * link for the rest, and the drain throughout. */
    period_uc = in->exchange_uc + in->idle_ua * (in->rekey_s - in->exchange_s);
    out->avg_ua = period_uc / in->rekey_s + out->drain_ua;
    out->rekey_ua = out->avg_ua - in->idle_ua - out->drain_ua;
    out->rekey_share = out->rekey_ua / out->avg_ua;
    out->life_s = out->usable_uc / out->avg_ua;
    out->life_idle_s = out->usable_uc / (in->idle_ua + out->drain_ua);
    return PQPAN_OK;
}

/* ---- floor ---- */

/* Energy (µJ) of the payload bits on one PHY, or a negative value if the profile lacks a
 * current it needs. The air time of one more payload octet is 8 bit times on every PHY
 * (uncoded: 8 µs on 1M, 4 µs on 2M; coded: 8·S µs, Vol 6 Part B §2.2). */
static double link_uj(const struct pqpan_profile *p, enum pqpan_current_table t, int tx_dbm,
                      enum pqpan_ble_phy phy, uint64_t tx_octets, uint64_t rx_octets)
{
    double tx_ua, rx_ua;
    double octet_s = (double)(pqpan_ble_packet_ns(phy, 2, 0) - pqpan_ble_packet_ns(phy, 1, 0)) * 1e-9;
    if (pqpan_profile_tx_ua(p, t, tx_dbm, &tx_ua) != PQPAN_OK ||
        pqpan_profile_rx_ua(p, t, pqpan_advise_radio_mode(phy), &rx_ua) != PQPAN_OK) {
        return -1.0;
    }
    return p->supply_v * octet_s * ((double)tx_octets * tx_ua + (double)rx_octets * rx_ua);
}

static double comp_uj(const struct pqpan_profile *p, const uint64_t cycles[PQPAN_OP_COUNT],
                      const uint64_t count[PQPAN_OP_COUNT])
{
    double sum = 0.0;
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        sum += (double)count[op] * (double)cycles[op];
    }
    return sum / (double)p->cpu_hz * p->supply_v * p->cpu_ua;
}

static int floor_args_ok(const struct pqpan_profile *p, enum pqpan_current_table t,
                         const uint64_t *cycles, const uint64_t *count)
{
    return p != NULL && cycles != NULL && count != NULL && t >= 0 &&
           t < PQPAN_CURRENT_TABLE_COUNT && pqpan_profile_check(p) == PQPAN_OK;
}

int pqpan_advise_floor_802154(struct pqpan_advise_floor *out, const struct pqpan_profile *p,
                              enum pqpan_current_table t, int tx_dbm, uint64_t tx_octets,
                              uint64_t rx_octets, const uint64_t cycles[PQPAN_OP_COUNT],
                              const uint64_t count[PQPAN_OP_COUNT])
{
    const double octet_s = (double)PQPAN_802154_OCTET_NS * 1e-9;
    double tx_ua, rx_ua;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (!floor_args_ok(p, t, cycles, count)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (pqpan_profile_tx_mode_ua(p, t, PQPAN_RADIO_IEEE802154, tx_dbm, &tx_ua) != PQPAN_OK ||
        pqpan_profile_rx_ua(p, t, PQPAN_RADIO_IEEE802154, &rx_ua) != PQPAN_OK) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    out->link_uj = p->supply_v * octet_s * ((double)tx_octets * tx_ua + (double)rx_octets * rx_ua);
    out->comp_uj = comp_uj(p, cycles, count);
    out->total_uj = out->link_uj + out->comp_uj;
    return PQPAN_OK;
}

int pqpan_advise_floor(struct pqpan_advise_floor *out, const struct pqpan_profile *p,
                       enum pqpan_current_table t, int tx_dbm, unsigned phys,
                       uint64_t tx_octets, uint64_t rx_octets,
                       const uint64_t cycles[PQPAN_OP_COUNT],
                       const uint64_t count[PQPAN_OP_COUNT])
{
    int phy, found = 0;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (!floor_args_ok(p, t, cycles, count) ||
        (phys & ((1u << PQPAN_BLE_PHY_COUNT) - 1u)) == 0u) {
        return PQPAN_ERR_INVALID_ARG;
    }
    for (phy = 0; phy < PQPAN_BLE_PHY_COUNT; phy++) {
        double e;
        if (!(phys & (1u << phy))) {
            continue;
        }
        e = link_uj(p, t, tx_dbm, (enum pqpan_ble_phy)phy, tx_octets, rx_octets);
        if (e >= 0.0 && (!found || e < out->link_uj)) {
            out->phy = (enum pqpan_ble_phy)phy;
            out->link_uj = e;
            found = 1;
        }
    }
    if (!found) {
        memset(out, 0, sizeof *out);
        return PQPAN_ERR_UNSUPPORTED;
    }
    out->comp_uj = comp_uj(p, cycles, count);
    out->total_uj = out->link_uj + out->comp_uj;
    return PQPAN_OK;
}

/* ---- link round trip ---- */

/* Close of an empty connection event from its anchor: the central's empty PDU, T_IFS, the
 * peripheral's (Vol 6 Part B §4.5.1). */
static uint64_t empty_event_close_ns(enum pqpan_ble_phy phy)
{
    return 2u * pqpan_ble_packet_ns(phy, 0, 0) + PQPAN_BLE_T_IFS_NS;
}

static uint64_t span_sum(const uint64_t span[PQPAN_PHASE_COUNT])
{
    uint64_t sum = 0;
    int p;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        sum += span[p];
    }
    return sum;
}

/* The procedures pqpan_ble_link_switch runs from `from` to `to`, and the PHY each runs on:
 * the connection and PHY updates on the PHY before them, the data length update after the
 * PHY update. */
static unsigned leg_procedures(enum pqpan_ble_phy phy[PQPAN_PHASE_COUNT],
                               const struct pqpan_ble_link_settings *from,
                               const struct pqpan_ble_link_settings *to)
{
    unsigned mask = 0;
    if (from->ci_ns != to->ci_ns) {
        mask |= 1u << PQPAN_PHASE_CONN_UPDATE;
        phy[PQPAN_PHASE_CONN_UPDATE] = from->phy;
    }
    if (from->phy != to->phy) {
        mask |= 1u << PQPAN_PHASE_PHY_UPDATE;
        phy[PQPAN_PHASE_PHY_UPDATE] = from->phy;
    }
    if (from->ll_octets != to->ll_octets) {
        mask |= 1u << PQPAN_PHASE_LENGTH_UPDATE;
        phy[PQPAN_PHASE_LENGTH_UPDATE] = to->phy;
    }
    return mask;
}

/* One leg, as one or two switches: from -> via -> to (via NULL: from -> to). */
static int run_leg(struct pqpan_advise_round_trip *out, enum pqpan_advise_leg leg,
                   const struct pqpan_ble_link_settings *from,
                   const struct pqpan_ble_link_settings *via,
                   const struct pqpan_ble_link_settings *to, int same_event_reply,
                   const struct pqpan_ble_device *dev)
{
    uint64_t span[PQPAN_PHASE_COUNT] = {0};
    const struct pqpan_ble_link_settings *first = via != NULL ? via : to;
    int rc;
    out->counts.last_close_ns = empty_event_close_ns(from->phy);
    out->procedures[leg] = leg_procedures(out->phy[leg], from, first);
    rc = pqpan_ble_link_switch(out->led[leg], &out->counts, span, from, first,
                               same_event_reply, dev);
    if (rc == PQPAN_OK && via != NULL) {
        out->procedures[leg] |= leg_procedures(out->phy[leg], via, to);
        rc = pqpan_ble_link_switch(out->led[leg], &out->counts, span, via, to,
                                   same_event_reply, dev);
    }
    out->span_ns[leg] = span_sum(span);
    return rc;
}

int pqpan_advise_round_trip(struct pqpan_advise_round_trip *out,
                            const struct pqpan_ble_link_settings *idle,
                            const struct pqpan_ble_link_settings *opt, int same_event_reply,
                            const struct pqpan_ble_device *dev)
{
    struct pqpan_ble_link_settings back_first;
    int leg, role, rc;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (idle == NULL || opt == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    for (leg = 0; leg < PQPAN_ADVISE_LEGS; leg++) {
        for (role = 0; role < 2; role++) {
            pqpan_ledger_init(&out->led[leg][role]);
        }
    }
    /* Back: PHY and data length first, at the exchange's (short) interval. */
    back_first = *idle;
    back_first.ci_ns = opt->ci_ns;
    rc = run_leg(out, PQPAN_ADVISE_THERE, idle, NULL, opt, same_event_reply, dev);
    if (rc == PQPAN_OK) {
        rc = run_leg(out, PQPAN_ADVISE_BACK, opt, &back_first, idle, same_event_reply, dev);
    }
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
    }
    return rc;
}

/* ---- rank and front ---- */

int pqpan_advise_point_before(const struct pqpan_advise_point *a,
                              const struct pqpan_advise_point *b)
{
    if (a->energy != b->energy) {
        return a->energy < b->energy;
    }
    if (a->latency != b->latency) {
        return a->latency < b->latency;
    }
    return a->id < b->id;
}

void pqpan_advise_rank_init(struct pqpan_advise_rank *r, size_t n)
{
    memset(r, 0, sizeof *r);
    r->n = n < 1u ? 1u : (n > PQPAN_ADVISE_TOP_MAX ? PQPAN_ADVISE_TOP_MAX : n);
}

int pqpan_advise_rank_add(struct pqpan_advise_rank *r, const struct pqpan_advise_point *p)
{
    size_t i = r->count;
    if (i == r->n) {
        if (!pqpan_advise_point_before(p, &r->pt[i - 1u])) {
            return 0;
        }
        i--; /* the last one drops out */
    } else {
        r->count++;
    }
    while (i > 0u && pqpan_advise_point_before(p, &r->pt[i - 1u])) {
        r->pt[i] = r->pt[i - 1u];
        i--;
    }
    r->pt[i] = *p;
    return 1;
}

void pqpan_advise_front_init(struct pqpan_advise_front *f)
{
    f->count = 0;
}

/* Index of the first point whose latency exceeds lat (points are by increasing latency). */
static size_t first_later(const struct pqpan_advise_front *f, double lat)
{
    size_t lo = 0, hi = f->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2u;
        if (f->pt[mid].latency <= lat) {
            lo = mid + 1u;
        } else {
            hi = mid;
        }
    }
    return lo;
}

int pqpan_advise_front_add(struct pqpan_advise_front *f, const struct pqpan_advise_point *p)
{
    size_t at = first_later(f, p->latency), end = at;
    /* The point before has latency <= p's and the least energy of those: if it is not
     * worse than p, p is beaten (or equal: the first stays). */
    if (at > 0u && f->pt[at - 1u].energy <= p->energy) {
        return PQPAN_OK;
    }
    /* Points of equal latency and more energy sit just before; p beats them. */
    while (at > 0u && f->pt[at - 1u].latency == p->latency) {
        at--;
    }
    /* Later points with no less energy are beaten too (energy decreases along the front). */
    while (end < f->count && f->pt[end].energy >= p->energy) {
        end++;
    }
    if (end == at && f->count == PQPAN_ADVISE_FRONT_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    memmove(&f->pt[at + 1u], &f->pt[end], (f->count - end) * sizeof f->pt[0]);
    f->pt[at] = *p;
    f->count = f->count - (end - at) + 1u;
    return PQPAN_OK;
}
