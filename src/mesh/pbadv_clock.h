/* The PB-ADV clock shared by the estimator (pbadv.c) and the simulator (pbadv_sim.c): one
 * advertising event of a side, its cost booked on both sides' ledgers, each side's next
 * free slot, and the scanning that fills the rest of the run (docs/MODEL.md "Mesh
 * provisioning"). Internal to src/mesh. */
#ifndef PQPAN_MESH_PBADV_CLOCK_H
#define PQPAN_MESH_PBADV_CLOCK_H

#include "pqpan/mesh_prov.h"

/* The advertising channels of one legacy advertising event (Core v5.4 Vol 6 Part B
 * §4.4.2.1): 37, 38, 39 in order. */
#define MESH_PBADV_CHANNELS 3u
#define MESH_PBADV_FIRST_CHANNEL 37u

/* One non-connectable advertising event of a device: its length, when a scanner has its
 * PDU (the end of the mean channel's packet, from the event's start) and the packet's
 * octets on the air. Shared by the PB-ADV clock and the network bearer's (net_clock.c). */
struct mesh_adv_event {
    uint64_t len_ns;
    uint64_t heard_ns;
    uint64_t octets;
};

/* Books on l the sender's states of one ADV_NONCONN_IND event carrying payload octets
 * (AdvA + AdvData) on the three channels, its counts (pdus_tx, bytes_tx, events), and
 * fills *ev. */
void pqpan_mesh_adv_event_book(struct mesh_adv_event *ev, struct pqpan_ledger *l,
                               const struct pqpan_ble_device *d, enum pqpan_ble_phy phy,
                               uint32_t payload, enum pqpan_phase phase);

/* Books x events of pqpan_mesh_adv_event_book's kind (a fraction: an expectation under
 * loss) on l; returns one event's length. */
uint64_t pqpan_mesh_adv_events_expected(struct pqpan_ledger *l, const struct pqpan_ble_device *d,
                                        enum pqpan_ble_phy phy, uint32_t payload, double x,
                                        enum pqpan_phase phase);

/* A node that neither advertises nor computes scans (MshPRT v1.1 §5.2.1, §3.3.1): books
 * end_ns - busy_ns of RX on l (none if busy_ns >= end_ns). */
void pqpan_mesh_adv_scan_book(struct pqpan_ledger *l, uint64_t end_ns, uint64_t busy_ns);

struct mesh_pbadv_clock {
    struct pqpan_mesh_pbadv_estimate *out;
    const struct pqpan_mesh_pbadv_config *cfg;
    const struct pqpan_ble_device *dev;
    uint64_t t_adv_mean;  /* E[T_advEvent] = advInterval + E[advDelay] */
    uint64_t free_ns[2];  /* earliest start of the side's next advertising event */
    uint64_t busy_ns[2];  /* time booked in states other than scanning */
    uint64_t end_ns;      /* end of the latest event */
    uint64_t last_end_ns[2]; /* end of the side's latest event */
};

/* Zeroes out and its ledgers, sets the clock for cfg and dev. */
void pqpan_mesh_pbadv_clock_init(struct mesh_pbadv_clock *r, struct pqpan_mesh_pbadv_estimate *out,
                           const struct pqpan_mesh_pbadv_config *cfg,
                           const struct pqpan_ble_device dev[2]);

/* One advertising event of side s starting no earlier than at, carrying a Generic
 * Provisioning PDU of gp octets: books it, *start = its start. Returns the time the peer
 * has the PDU (the end of the mean channel's packet). */
uint64_t pqpan_mesh_pbadv_clock_event(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint64_t at,
                          uint32_t gp, enum pqpan_phase phase, uint64_t *start);

/* The length of an event of side s carrying gp octets: pre-processing, three ramp-ups and
 * packets, post-processing. */
uint64_t pqpan_mesh_pbadv_clock_event_ns(const struct mesh_pbadv_clock *r,
                                         enum pqpan_mesh_prov_role s, uint32_t gp);

/* Books x events (the estimate's expected, fractional retransmissions) of side s carrying
 * gp octets: their states and counts (rounded) on the ledgers; no slot taken. */
void pqpan_mesh_pbadv_clock_expected(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                                     double x, uint32_t gp, enum pqpan_phase phase);

/* When an event of side s asked for at at would start (its queue's next free slot). */
uint64_t pqpan_mesh_pbadv_clock_next(const struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                                     uint64_t at);

/* Start of the packet on channel index ch (0..2) of an event of side s started at start
 * carrying gp octets (after the pre-processing and the channel's ramp-up). */
uint64_t pqpan_mesh_pbadv_clock_channel_ns(const struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s,
                               uint64_t start, uint32_t ch, uint32_t gp);

/* Books the crypto ops (bits of enum pqpan_op) side s runs from at; returns when done. */
uint64_t pqpan_mesh_pbadv_clock_compute(struct mesh_pbadv_clock *r, enum pqpan_mesh_prov_role s, uint64_t at,
                            uint32_t ops, const uint64_t cycles[PQPAN_OP_COUNT]);

/* Each side scans whenever it neither advertises nor computes (MshPRT v1.1 §5.2.1), in its
 * scan windows only (the rest SLEEP); sets out->span_ns. */
void pqpan_mesh_pbadv_clock_finish(struct mesh_pbadv_clock *r);

/* Legacy advertising on LE 1M, advInterval in range, every transmission count > 0, per in
 * 0..1, the timers > 0, the scan window and interval in range, window <= interval. */
int pqpan_mesh_pbadv_config_ok(const struct pqpan_mesh_pbadv_config *c);

#endif
