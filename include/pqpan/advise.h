/* The advisor's arithmetic (`pqpan advise`, docs/MODEL.md "Advice"): the energy of a key
 * exchange on an established link, battery life at a rekey interval, the physical floor
 * of an exchange, and the two orders the search keeps — the best few configurations and
 * the energy/latency Pareto front. The search itself (which configurations, through
 * which estimator) is the caller's; everything here is allocation-free arithmetic on
 * caller-owned structs. */
#ifndef PQPAN_ADVISE_H
#define PQPAN_ADVISE_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/ble.h"
#include "pqpan/energy.h"
#include "pqpan/error.h"
#include "pqpan/ledger.h"

/* The phases of one key exchange on a link that is already up (bit 1u << phase): the
 * messages, the computation and the confirmation; connection set-up and the link-layer
 * procedures before it are not part of a rekey. */
#define PQPAN_ADVISE_EXCHANGE_PHASES                                                     \
    ((1u << PQPAN_PHASE_KEY_TRANSFER) | (1u << PQPAN_PHASE_CRYPTO) |                     \
     (1u << PQPAN_PHASE_CONFIRM))

/* *out = the part of l in the phases of mask: their times per state, and l's crypto
 * operations (counts and cycles, which belong to the exchange); the PDU, octet and event
 * counters, which the ledger does not split by phase, are zero. */
void pqpan_advise_ledger_phases(struct pqpan_ledger *out, const struct pqpan_ledger *l,
                                unsigned mask);

/* The energy model's radio mode of a BLE PHY: LE Coded runs the 1 Msym/s modulation
 * (Core v5.4 Vol 6 Part A §1), so both coded PHYs use the coded mode's figures. */
enum pqpan_radio_mode pqpan_advise_radio_mode(enum pqpan_ble_phy phy);

/* ---- battery life at a rekey interval (charge-based: µC, µA, mAh) ---- */

struct pqpan_advise_battery_in {
    double capacity_mah; /* the battery's capacity, > 0 */
    double idle_ua;      /* average current of the link between exchanges, > 0 */
    double exchange_uc;  /* charge of one exchange (link switching included), > 0 */
    double exchange_s;   /* time it occupies, >= 0 and < rekey_s */
    double rekey_s;      /* one exchange every rekey_s seconds, > 0 */
    double app_ua;       /* the application's own average current besides the link, >= 0 */
    double self_discharge; /* the cell's self-discharge, a fraction of the capacity per year
                              (0 .. 1; 0.01 = 1 %/year), taken as a constant drain */
    double derate;       /* the fraction of the capacity the device can draw at its load,
                            e.g. a coin cell's under pulse currents (0 < derate <= 1) */
};

struct pqpan_advise_battery {
    double capacity_uc;   /* capacity_mah × 3.6e6 (1 mAh = 3.6 C) */
    double usable_uc;     /* capacity_uc × derate */
    double exchanges;     /* usable / exchange charge: exchanges if the battery did nothing else */
    double drain_ua;      /* the application's current + the self-discharge as a current
                             (capacity_uc × self_discharge / one year of 365.25 days) */
    double avg_ua;        /* average current over a rekey interval: the exchange, then the
                             idle link for the rest of the interval, plus drain_ua */
    double rekey_ua;      /* avg_ua − idle_ua − drain_ua: what rekeying adds */
    double rekey_share;   /* rekey_ua / avg_ua, 0..1 */
    double life_s;        /* usable / avg_ua */
    double life_idle_s;   /* usable / (idle_ua + drain_ua): no rekeying */
};

/* Fills *out. Charge only: the energy model's µJ divided by its supply voltage, so no
 * voltage conversion enters. With app_ua 0, self_discharge 0 and derate 1 the figures leave
 * out the application's load, the cell's self-discharge and its derating (the caller says
 * so). Errors: PQPAN_ERR_INVALID_ARG (NULL, a value out of the ranges above, not finite);
 * *out zeroed. */
PQPAN_MUST_CHECK int pqpan_advise_battery(struct pqpan_advise_battery *out,
                                          const struct pqpan_advise_battery_in *in);

/* ---- the physical floor of one side of an exchange ---- */

struct pqpan_advise_floor {
    enum pqpan_ble_phy phy; /* the allowed PHY with the least energy for these bits */
    double link_uj;         /* the payload bits alone on it: sent at the TX current, received
                               at the RX current, each bit lasting the PHY's bit time */
    double comp_uj;         /* Σ count × cycles × V × I_CPU / f_CPU (no γ) */
    double total_uj;        /* link_uj + comp_uj */
};

/* The floor of one side that sends tx_octets and receives rx_octets of message payload
 * and runs count[op] executions of op at cycles[op] each (the cheapest implementation the
 * caller found), on the PHYs whose bit (1u << phy) is set in phys, with profile p's
 * currents from table t and TX at tx_dbm. The bit time is the PHY's air time per payload
 * octet / 8 (pqpan_ble_packet_ns). Errors: PQPAN_ERR_INVALID_ARG (NULL, no PHY, bad
 * profile), PQPAN_ERR_UNSUPPORTED (the profile lacks a needed current for every allowed
 * PHY); *out zeroed. */
PQPAN_MUST_CHECK int pqpan_advise_floor(struct pqpan_advise_floor *out,
                                        const struct pqpan_profile *p,
                                        enum pqpan_current_table t, int tx_dbm, unsigned phys,
                                        uint64_t tx_octets, uint64_t rx_octets,
                                        const uint64_t cycles[PQPAN_OP_COUNT],
                                        const uint64_t count[PQPAN_OP_COUNT]);

/* The same over IEEE 802.15.4 (2.4 GHz O-QPSK, 250 kb/s: 32 µs per octet, IEEE Std
 * 802.15.4-2020 §12), with the profile's ieee802154 TX level at tx_dbm and its RX current
 * (phy is left 0). Errors as pqpan_advise_floor (UNSUPPORTED: no 802.15.4 current). */
PQPAN_MUST_CHECK int pqpan_advise_floor_802154(struct pqpan_advise_floor *out,
                                               const struct pqpan_profile *p,
                                               enum pqpan_current_table t, int tx_dbm,
                                               uint64_t tx_octets, uint64_t rx_octets,
                                               const uint64_t cycles[PQPAN_OP_COUNT],
                                               const uint64_t count[PQPAN_OP_COUNT]);

/* ---- temporary link optimisation: the link switched for the exchange and back ---- */

/* The procedure phases of a link switch (ble.h pqpan_ble_link_switch). */
#define PQPAN_ADVISE_SWITCH_PHASES                                                       \
    ((1u << PQPAN_PHASE_CONN_UPDATE) | (1u << PQPAN_PHASE_PHY_UPDATE) |                  \
     (1u << PQPAN_PHASE_LENGTH_UPDATE))

/* The two legs of a round trip: idle settings to the exchange's before it, and back. */
enum pqpan_advise_leg { PQPAN_ADVISE_THERE = 0, PQPAN_ADVISE_BACK, PQPAN_ADVISE_LEGS };

struct pqpan_advise_round_trip {
    struct pqpan_ledger led[PQPAN_ADVISE_LEGS][2]; /* [leg][role]: the procedures' time per
                                                      state, SLEEP filling each span */
    enum pqpan_ble_phy phy[PQPAN_ADVISE_LEGS][PQPAN_PHASE_COUNT]; /* the PHY a procedure's
                                                      PDUs run on (its instant's event aside) */
    uint64_t span_ns[PQPAN_ADVISE_LEGS];           /* each leg's duration */
    unsigned procedures[PQPAN_ADVISE_LEGS];        /* bit 1u << phase of each procedure run */
    struct pqpan_ble_counts counts;                /* events and LL control PDUs, both legs */
};

/* The link model's price of running the exchange on settings `opt` when the connection
 * idles on `idle` (docs/MODEL.md "Advice"): before the exchange the central switches
 * idle -> opt with pqpan_ble_link_switch (the connection update first, at the idle
 * interval, so that the PHY and data length updates run at the exchange's interval);
 * after it, opt -> idle with the PHY and data length updates first, still at the
 * exchange's interval, and the connection update last. Each leg starts after an empty
 * event on its PHY (2 empty PDUs and T_IFS). Procedures whose setting does not change are
 * not run (idle == opt: everything zero). PQPAN_ERR_INVALID_ARG for NULL or settings out
 * of range (*out zeroed). */
PQPAN_MUST_CHECK int pqpan_advise_round_trip(struct pqpan_advise_round_trip *out,
                                             const struct pqpan_ble_link_settings *idle,
                                             const struct pqpan_ble_link_settings *opt,
                                             int same_event_reply,
                                             const struct pqpan_ble_device *dev);

/* ---- the best few, and the Pareto front ---- */

/* One evaluated configuration: its objective (energy), latency and the caller's id. */
struct pqpan_advise_point {
    double energy;
    double latency;
    uint32_t id;
};

/* a before b: lower energy, then lower latency, then lower id. */
int pqpan_advise_point_before(const struct pqpan_advise_point *a,
                              const struct pqpan_advise_point *b);

#define PQPAN_ADVISE_TOP_MAX 50u

/* The n best points seen, best first (pqpan_advise_point_before). */
struct pqpan_advise_rank {
    size_t n, count;
    struct pqpan_advise_point pt[PQPAN_ADVISE_TOP_MAX];
};

/* Keeps the best n (1 .. PQPAN_ADVISE_TOP_MAX; clamped). */
void pqpan_advise_rank_init(struct pqpan_advise_rank *r, size_t n);

/* Offers p; returns 1 if it is now among the best n, else 0. */
int pqpan_advise_rank_add(struct pqpan_advise_rank *r, const struct pqpan_advise_point *p);

#define PQPAN_ADVISE_FRONT_MAX 1024u

/* The points no other point beats in both energy and latency, by increasing latency (and
 * so strictly decreasing energy). Of equal points the first offered stays. */
struct pqpan_advise_front {
    size_t count;
    struct pqpan_advise_point pt[PQPAN_ADVISE_FRONT_MAX];
};

void pqpan_advise_front_init(struct pqpan_advise_front *f);

/* Offers p: drops it if a point of the front is at least as good in both, else inserts it
 * and removes the points it beats. PQPAN_ERR_CAPACITY if it would be the
 * PQPAN_ADVISE_FRONT_MAX + 1-th point (the front is left as it was). */
PQPAN_MUST_CHECK int pqpan_advise_front_add(struct pqpan_advise_front *f,
                                            const struct pqpan_advise_point *p);

#endif
