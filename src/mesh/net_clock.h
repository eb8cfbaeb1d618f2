/* The clock of keys between mesh nodes, shared by the estimator (net_estimate.c) and the
 * simulator (net_sim.c): every node's advertising events (each priced as the PB-ADV
 * clock's, pbadv_clock.h), one part's segments and acknowledgment, the endpoints'
 * computation and the scanning that fills the rest (docs/MODEL.md "Keys between mesh
 * nodes"). Internal to src/mesh. */
#ifndef PQPAN_MESH_NET_CLOCK_H
#define PQPAN_MESH_NET_CLOCK_H

#include "pqpan/mesh_net.h"

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
    struct pqpan_ledger relays; /* every relay node's states, summed; the relay row their mean */
    struct pqpan_prng *loss;    /* NULL: every copy heard; else cfg->per drawn from it */
    /* A test's fixed loss pattern in place of the draws (with cfg->per > 0): whether the
     * n-th draw (0, 1, ... in the order the clock makes them: per receiver, per event until
     * one is heard) loses the event's copies. */
    int (*lose)(void *ctx, uint32_t n);
    void *lose_ctx;
    uint32_t draws;
};

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

/* Scanning to the last event's end on every node; out->span_ns, out->hop_ns. */
void pqpan_mesh_net_clock_finish(struct mesh_net_clock *c);

#endif
