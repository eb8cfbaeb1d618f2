/* The PQKE across a multi-hop 6LoWPAN: a chain of H hops (H + 1 nodes) of IEEE 802.15.4
 * links, route-over (RFC 6550 RPL: the DODAG is formed, every forwarder a router), with
 * per-hop reassembly (RFC 4944 §5.3, each forwarder rebuilds the datagram, routes it and
 * fragments it again) or fragment forwarding (RFC 8930, with a Virtual Reassembly Buffer:
 * the forwarder relays each fragment as it arrives). The analytic estimator
 * (src/ieee802154/multihop.c) and a chain simulator (src/sim/chain154.c) that draws the
 * CSMA-CA backoffs and senses the channel (docs/MODEL.md "Multi-hop 6LoWPAN").
 *
 * Node 0 is the initiator, node H the responder, nodes 1..H-1 forwarders; node k hears
 * only nodes k - 1 and k + 1 (a chain, no other traffic). INIT and FIN travel 0 -> H,
 * RESP and REVEAL H -> 0.
 *
 * Units. What a node sends as one piece is a unit: with fragment forwarding one frame
 * (an RFC 4944 fragment), with per-hop reassembly one IPv6 packet (a datagram, a segment
 * or an IPv6 fragment: a forwarder can forward a packet only once it holds all of it).
 * A unit's frames go back to back on a hop as on one link (ieee802154.h: CSMA-CA, frame,
 * Imm-Ack, SIFS/LIFS).
 *
 * Intra-flow contention. A hop's exchange (a data frame k -> k + 1 and its Imm-Ack
 * k + 1 -> k) interferes with the exchange on any hop at most two hops away (nodes within
 * one hop of one of its nodes hear it), so hops a and b can carry frames at once only if
 * |a - b| >= 3: a chain whose interference range is its radio range reuses the channel
 * every third hop (the chain argument of Li et al., "Capacity of Ad Hoc Wireless
 * Networks", MobiCom 2001, made with this range; pqpan's assumption, not a measurement).
 * The rule pqpan applies: a node starts its next unit only once its previous unit has
 * finished the hop two hops further down (it is >= 3 hops downstream, or delivered): a
 * pacing of the kind RFC 8931's inter-frame gap gives a fragment source (RIOT implements
 * it as GNRC_SIXLOWPAN_FRAG_SFR_INTER_FRAG_GAP_MSG), here set to exactly what the chain
 * needs. With it no two frames of the flow collide; every node
 * forwards first in, first out. Forwarders listen (RX) whenever they neither send nor
 * receive: always-on routers.
 *
 * Frames. Every hop carries the frames the single-link planner gives for the
 * configuration (pqpan_802154_plan_msg_packet): a forwarder that reassembles fragments
 * the packet again as the source did. pqpan does not model what a routed packet adds: IIDs
 * that the MAC addresses of a middle hop do not imply (up to 16 octets inline, RFC 6282
 * §3.1.1), an RPL Option (RFC 6553) or its RFC 8138 form, the Hop Limit once decremented
 * (inline, RFC 6282 §3.1.1 HLIM). */
#ifndef PQPAN_MULTIHOP154_H
#define PQPAN_MULTIHOP154_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"
#include "pqpan/ieee802154.h"
#include "pqpan/ledger.h"

#define PQPAN_802154_HOPS_MAX 16u
#define PQPAN_802154_CHAIN_NODES (PQPAN_802154_HOPS_MAX + 1u)
/* Frames of one message on one hop the chain plans: the largest PQKE message pqpan sends
 * (a signature mode's, under 8 kB) takes under 100. */
#define PQPAN_802154_CHAIN_FRAMES_MAX 512u

enum pqpan_802154_forwarding {
    PQPAN_802154_FWD_REASSEMBLE = 0, /* per-hop reassembly (RFC 4944 §5.3, route-over) */
    PQPAN_802154_FWD_FRAGMENT        /* fragment forwarding (RFC 8930, VRB) */
};

/* "reassemble" / "fragment"; NULL for another value. */
const char *pqpan_802154_forwarding_name(unsigned forwarding);

struct pqpan_802154_chain_config {
    struct pqpan_802154_est_config exch; /* the link of every hop, messages, steps; needs
                                            rx_always_on and backoff_rx (always-on routers) */
    uint8_t hops;       /* 1 .. PQPAN_802154_HOPS_MAX */
    uint8_t forwarding; /* enum pqpan_802154_forwarding */
};

/* One frame of a message on a hop, and the unit it belongs to. */
struct pqpan_802154_chain_frame {
    uint64_t airtime_ns; /* the PPDU */
    uint64_t ifs_ns;     /* the SIFS/LIFS after its Imm-Ack */
    uint16_t psdu_octets;
    uint16_t unit;
};

/* A message's frames on every hop, in sending order. */
struct pqpan_802154_chain_msg {
    struct pqpan_802154_chain_frame frame[PQPAN_802154_CHAIN_FRAMES_MAX];
    uint32_t frames;
    uint32_t units;
    uint32_t packets;        /* IPv6 packets (datagrams, segments or IPv6 fragments) */
    uint64_t turnaround_ns;  /* aTurnaroundTime before an Imm-Ack */
    uint64_t ack_airtime_ns; /* the Imm-Ack PPDU */
};

/* Plans message msg (0 INIT, 1 RESP, 2 FIN, 3 REVEAL) of c: its frames (the planner's, in
 * the message's direction) and units. PQPAN_ERR_BAD_LENGTH for a message of 0 octets or
 * too many segments, PQPAN_ERR_CAPACITY for more than PQPAN_802154_CHAIN_FRAMES_MAX
 * frames; m zeroed then. */
PQPAN_MUST_CHECK int pqpan_802154_chain_plan_msg(struct pqpan_802154_chain_msg *m,
                                                 const struct pqpan_802154_chain_config *c,
                                                 unsigned msg);

/* PQPAN_OK, or PQPAN_ERR_INVALID_ARG: hops out of range, an unknown forwarding, a sleeping
 * radio (rx_always_on or backoff_rx 0), or an invalid exch. */
PQPAN_MUST_CHECK int pqpan_802154_chain_config_check(const struct pqpan_802154_chain_config *c);

struct pqpan_802154_chain_estimate {
    struct pqpan_ledger ledger[PQPAN_802154_CHAIN_NODES]; /* node 0 .. hops */
    struct pqpan_ledger bits[PQPAN_802154_CHAIN_NODES];   /* frames, ACKs, turnaround between */
    uint32_t frames[PQPAN_802154_MESSAGES];    /* data frames of each message on one hop */
    uint32_t datagrams[PQPAN_802154_MESSAGES]; /* its IPv6 packets */
    uint64_t transfer_ns[PQPAN_802154_MESSAGES]; /* its first CSMA-CA .. its last frame received
                                                    by its destination */
    double backoff_ns;   /* expected random backoff, all frames on all hops */
    double ccas;         /* expected CCAs, all frames on all hops */
    double p_success;    /* P(no frame on any hop fails channel access) */
    uint64_t latency_ns; /* KeyGen start .. the last message acknowledged, the last step done */
};

/* Estimates one PQKE across the chain: the steps and messages of
 * pqpan_802154_estimate_pqke, each message carried hop by hop under the rule above (expected
 * CSMA-CA, closed form for exch.p_busy, on every hop; a unit's start, the latest of random
 * times, by Clark's moments of a maximum: src/ieee802154/multihop.c). A message is handed over when its
 * last frame reaches the destination: the Imm-Ack of that frame overlaps the destination's
 * computation, as on one link. With hops = 1 it books what pqpan_802154_estimate_pqke
 * books. cycles[op]: cycles of one execution. Errors as pqpan_802154_estimate_pqke, and
 * PQPAN_ERR_CAPACITY for a message of more than PQPAN_802154_CHAIN_FRAMES_MAX frames; *out
 * zeroed then. */
PQPAN_MUST_CHECK int pqpan_802154_chain_estimate(struct pqpan_802154_chain_estimate *out,
                                                 const struct pqpan_802154_chain_config *c,
                                                 const uint64_t cycles[PQPAN_OP_COUNT]);

/* ---- the chain simulator (src/sim/chain154.c) ----
 * The same chain and rule, run frame by frame in time order: each node draws its CSMA-CA
 * backoffs (random(2^BE - 1) periods, IEEE 802.15.4-2020 §6.2.5.1) from a PRNG seeded with
 * seed, and its CCAs sense the frames and Imm-Acks of the nodes it hears. A frame whose
 * channel access fails (which the rule should make impossible on an idle chain) is counted
 * in cca_busy and tried again at once. Ledgers as the estimator's. */
struct pqpan_802154_chain_sim_result {
    struct pqpan_ledger ledger[PQPAN_802154_CHAIN_NODES];
    uint64_t latency_ns;
    uint64_t transfer_ns[PQPAN_802154_MESSAGES];
    uint32_t frames;     /* data frames sent, all hops */
    uint32_t ccas;       /* CCAs performed */
    uint32_t cca_busy;   /* CCAs that found the channel busy */
    uint32_t collisions; /* frames or Imm-Acks overlapped at their receiver by a frame it hears */
};

PQPAN_MUST_CHECK int pqpan_802154_chain_simulate(struct pqpan_802154_chain_sim_result *out,
                                                 const struct pqpan_802154_chain_config *c,
                                                 const uint64_t cycles[PQPAN_OP_COUNT],
                                                 uint64_t seed);

#endif
