/* The clock of keys between mesh nodes, shared by the estimator (net_estimate.c) and the
 * simulator (net_sim.c): every node's advertising events (each priced as the PB-ADV
 * clock's, pbadv_clock.h), one part's segments and acknowledgment, the endpoints'
 * computation and the scanning that fills the rest (docs/MODEL.md "Keys between mesh
 * nodes"). Internal to src/mesh. */
#ifndef PQPAN_MESH_NET_CLOCK_H
#define PQPAN_MESH_NET_CLOCK_H

#include "pqpan/mesh_net.h"

/* The Friend Queue and the LPN's polling (net_friend.c): zero without an LPN. */
struct mesh_friend {
    uint32_t lpn_pos, friend_pos;  /* positions; friend_pos = the other endpoint at one hop */
    uint32_t relay_pos;            /* the stage whose relay the relay ledger prices */
    int friend_own;                /* the Friend's relaying on its own ledger (hops > 2) */
    int friend_tx;                 /* 1 while the Friend sends its own PDUs (its ledger) */
    int poll_pending;              /* the LPN polls again at once (after data or MD 1) */
    uint64_t poll_at;              /* when the LPN's next Friend Poll is due */
    uint64_t delivered[PQPAN_MESH_NET_FRIEND_QUEUE_MAX]; /* the last PDUs' delivery times */
    uint32_t n_delivered;
};

/* The nodes along the path: position 0 the initiator, hops the responder, 1 .. hops - 1
 * the relay stages (the relays of a stage act at once, alike). */
struct mesh_net_clock {
    struct pqpan_mesh_net_estimate *out;
    const struct pqpan_mesh_net_config *cfg;
    const struct pqpan_ble_device *dev;
    uint64_t free_ns[PQPAN_MESH_NET_HOPS_MAX + 1u]; /* next event of the node at a position */
    uint64_t busy_ns[PQPAN_MESH_NET_ROLES];          /* not scanning: events, computation (the
                                                        relays': every relay node's, summed) */
    uint64_t end_ns;
    struct mesh_friend friend; /* --lpn: the LPN's polling and its Friend (net_friend.h) */
    struct pqpan_ledger relays; /* every relay node's states, summed; the relay row their mean */
    struct pqpan_prng *loss;    /* NULL: every copy heard; else cfg->per drawn from it */
    /* A test's fixed loss pattern in place of the draws (with cfg->per > 0): whether the
     * n-th draw (0, 1, ... in the order the clock makes them: per receiver, per event until
     * one is heard) loses the event's copies. */
    int (*lose)(void *ctx, uint32_t n);
    void *lose_ctx;
    uint32_t draws;
    /* The simulator's capture (NULL: none): an event of the holder-th node at pos starting at
     * start_ns that carries the PDU tag of the part in flight. */
    void (*on_event)(void *ctx, uint32_t pos, uint32_t holder, uint64_t start_ns);
    void *event_ctx;
    uint32_t tag; /* the part's PDU being flooded: segment k, or segs for its acknowledgment */
    int beyond;   /* a part's expected cost of loss too large to book (net_sar_expected.c) */
};

/* c->tag beyond a part's PDUs (net_friend.c): the LPN's Friend Poll, the Friend's Friend
 * Update with MD 0 or 1. */
#define MESH_NET_TAG_POLL (PQPAN_MESH_NET_SEGMENTS_MAX + 1u)
#define MESH_NET_TAG_UPDATE (PQPAN_MESH_NET_SEGMENTS_MAX + 2u)
#define MESH_NET_TAG_UPDATE_MD (PQPAN_MESH_NET_SEGMENTS_MAX + 3u)

/* Whether events can go unheard: cfg->per > 0 and a loss source or pattern. */
int pqpan_mesh_net_clock_lossy(const struct mesh_net_clock *c);

/* What pqpan_mesh_net_clock_flood returns for a Network PDU nobody at a stage heard. */
#define MESH_NET_LOST UINT64_MAX

/* Zeroes out and its ledgers, sets the clock for cfg (checked) and dev. */
void pqpan_mesh_net_clock_init(struct mesh_net_clock *c, struct pqpan_mesh_net_estimate *out,
                               const struct pqpan_mesh_net_config *cfg,
                               const struct pqpan_ble_device *dev);

/* One Network PDU of pdu octets from the endpoint at from to the other, from at: the
 * source's Network Transmit, then each relay stage's Relay Retransmit, the relays of a stage
 * that heard it relaying it together from the first copy one of them heard (at zero loss
 * every relay alike). With c->loss, a receiver misses an event when each holder's copy is
 * lost (cfg->per each, drawn per receiver and event). Returns when the destination has it,
 * or MESH_NET_LOST; *sent = the end of the source's last event. */
uint64_t pqpan_mesh_net_clock_flood(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                    uint32_t pdu, enum pqpan_phase phase, uint64_t *sent);

/* One part from the endpoint at from (0 or hops): its segments' Network PDUs, pdu[k]
 * octets each, due at + k × SAR Segment Interval, each sent Network Transmit Count + 1
 * times and relayed stage by stage; then the destination's Segment Acknowledgment
 * (ack_pdu octets) relayed back. *rx = when the destination has the last segment;
 * returns when the sender has the acknowledgment. */
uint64_t pqpan_mesh_net_clock_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                   const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                                   enum pqpan_phase phase, uint64_t *rx);

/* The endpoint s runs ops[op] executions of each operation from at (cycles of one each);
 * returns when it is done. */
uint64_t pqpan_mesh_net_clock_compute(struct mesh_net_clock *c, enum pqpan_mesh_net_role s,
                                      const uint32_t ops[PQPAN_OP_COUNT], uint64_t at,
                                      const uint64_t cycles[PQPAN_OP_COUNT]);

/* One Network PDU of pdu octets from the node at from to the one at to (positions), relayed
 * by the stages between; returns when to has it (net_clock.c's flood_to). */
uint64_t pqpan_mesh_net_clock_send(struct mesh_net_clock *c, uint32_t from, uint32_t to,
                                   uint64_t at, uint32_t pdu, enum pqpan_phase phase);

/* times (at most PQPAN_MESH_NET_COUNT_MAX + 1) events of the node at pos carrying pdu octets,
 * spacing_ns + E[advDelay] apart; returns when a neighbour has the first (net_clock.c's
 * transmit). */
uint64_t pqpan_mesh_net_clock_transmit(struct mesh_net_clock *c, uint32_t pos, uint64_t at,
                                       uint32_t pdu, uint32_t times, uint64_t spacing_ns,
                                       enum pqpan_phase phase);

/* ---- net_friend.c: the LPN's side of pqpan_mesh_net_clock_part and _finish ---- */

/* Sets c->friend for cfg (after pqpan_mesh_net_clock_init). */
void pqpan_mesh_net_friend_init(struct mesh_net_clock *c);

/* pqpan_mesh_net_clock_part when one endpoint is a Low Power Node. */
uint64_t pqpan_mesh_net_friend_part(struct mesh_net_clock *c, uint32_t from, uint64_t at,
                                    const uint32_t *pdu, uint32_t segs, uint32_t ack_pdu,
                                    enum pqpan_phase phase, uint64_t *rx);

/* Before the idle time is booked: the LPN's last poll cycle, the Friend's relaying. */
void pqpan_mesh_net_friend_finish(struct mesh_net_clock *c);

/* Books role r's idle time to c->end_ns: scanning, or sleep for the LPN; nothing for a
 * role no node has. */
void pqpan_mesh_net_friend_idle(struct mesh_net_clock *c, enum pqpan_mesh_net_role r);

/* Scanning to the last event's end on every node; out->span_ns, out->hop_ns. */
void pqpan_mesh_net_clock_finish(struct mesh_net_clock *c);

#endif
