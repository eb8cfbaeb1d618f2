/* The packet simulator on IEEE 802.15.4 / 6LoWPAN: the application's real messages (the
 * PQKE of pqke.h through struct pqpan_sim_app, as on the BLE simulator of sim.h) carried
 * as UDP datagrams between two nodes that contend for one channel with background senders
 * (DESIGN.md "Architecture"; docs/MODEL.md "Packet simulator on IEEE 802.15.4").
 *
 * Nodes 0 (the initiator: it starts the application) and 1 (the responder) exchange the
 * messages; nodes 2..N-1 send unacknowledged 6LoWPAN UDP broadcasts with Poisson arrivals.
 * Every node runs unslotted CSMA-CA (IEEE 802.15.4-2020 §6.2.5.1); data frames of the
 * exchange ask for an Imm-Ack and are retransmitted up to macMaxFrameRetries times (§6.7.4;
 * a channel access failure also uses one attempt, as Contiki-NG's CSMA does). A message is
 * one UDP datagram (RFC 768), or, when it is longer than a datagram within the IPv6 MTU
 * can carry, a series of segments, one datagram each (ieee802154.h "PQKE messages in UDP
 * datagrams"), or with exch.ipv6_frag one datagram in IPv6 fragments (RFC 8200 §4.5), in
 * IPv6 compressed by IPHC (RFC 6282) and fragmented per RFC 4944 §5.3; the receiver feeds
 * every frame it receives through the real reassembly (6LoWPAN, then IPv6 for fragments),
 * checks the UDP checksum, joins the segments in order and hands the message to the
 * application as the reception of its last frame ends (its Imm-Ack goes on while the
 * application computes; the SIFS/LIFS spaces only the sender's next frame, IEEE
 * 802.15.4-2020 §6.2.4).
 *
 * Loss as on real stacks: RFC 4944 has no per-fragment recovery, so a fragment out of MAC
 * attempts costs its sender the whole datagram; the receiver drops the partial datagram
 * when its reassembly timeout expires; the application sends the whole message again (a
 * new datagram tag) reassembly_timeout after the failure, or after a delivered message
 * that got no answer within that time, up to dgram_retries times; a repeated request is
 * answered again. Duplicate complete datagrams (delivered, but the ACK of the last
 * fragment lost) are dropped before the application.
 *
 * Reception: a node hears another per a symmetric predicate (zones: a and b hear each
 * other iff zone[a] & zone[b] != 0). With hidden = K, the last K background nodes are
 * hidden from node 0 (neither hears the other) but hear node 1 and the other background
 * nodes. A CCA is busy if a transmission the node hears overlaps it; a frame is lost at
 * its receiver if another transmission the receiver hears overlaps it, or the receiver was
 * transmitting. Capture: none by default (any overlap destroys both frames); with
 * PQPAN_SIM154_CAPTURE_FIRST a receiver that has synchronised to a frame (its SHR,
 * IEEE 802.15.4-2020 §12.1.1, received whole) keeps it whatever starts later, as if the
 * first frame were always the stronger: an optimistic bound, the simulator has no
 * received powers to decide capture by.
 *
 * Discrete events on the event heap of sim.h (timers cancelled lazily by generation);
 * integer nanoseconds; randomness from the PRNG of sim.h seeded with cfg.seed. The context
 * holds no pointers (a struct copy clones a run); no allocation, no globals. */
#ifndef PQPAN_SIM154_H
#define PQPAN_SIM154_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"
#include "pqpan/ieee802154.h"
#include "pqpan/ledger.h"
#include "pqpan/sim.h"

#define PQPAN_SIM154_MAX_NODES 200u
/* Events pending at once: per background node at most 2 (MAC timer, next arrival), per
 * exchanging node a few live timers plus superseded ones (a cancelled MAC timer until it
 * falls due, a retransmission or reassembly timer per datagram): well under 1024. */
#define PQPAN_SIM154_EVQ_MAX 1024u
/* Transmissions remembered for CCA and collision checks (those of the last 10 ms). */
#define PQPAN_SIM154_AIR_MAX 1024u
/* Smallest background frame: MHR 9 (short addresses, PAN ID compression) + IPHC and NHC
 * UDP 6 + FCS 2 (RFC 6282 §3.1, §4.3). */
#define PQPAN_SIM154_MIN_BG_PSDU 17u

/* RFC 4944 §5.3 bounds the reassembly timeout by 60 s; the default (defaults.h,
 * --reasm-timeout) is Contiki-NG's SICSLOWPAN_REASS_MAXAGE = 8 s (os/net/ipv6/uipopt.h);
 * RIOT's GNRC uses 3 s (CONFIG_GNRC_SIXLOWPAN_FRAG_RBUF_TIMEOUT_US). */
#define PQPAN_SIM154_REASM_TIMEOUT_MS_MAX 60000u
/* Datagram retransmissions by the application: the default (defaults.h, --dgram-retries)
 * is CoAP's MAX_RETRANSMIT = 4 for confirmable messages (RFC 7252 §4.8). */
#define PQPAN_SIM154_DGRAM_RETRIES_MAX 16u

enum pqpan_sim154_capture {
    PQPAN_SIM154_CAPTURE_NONE = 0, /* any overlap destroys the frame (default) */
    PQPAN_SIM154_CAPTURE_FIRST     /* a frame whose SHR was received survives later starts */
};

/* The key that secures the pair's frames when exch.link.sec_level != 0 (background frames
 * stay unsecured): a published test key, so that a pcap can be dissected with it
 * (tshark -o 'uat:ieee802154_keys:"<hex>","1","No hash"'). Octets 0x70 0x71 .. 0x7f. */
#define PQPAN_SIM154_KEY_FIRST_OCTET 0x70u

struct pqpan_sim154_config {
    /* The pair's link (node 0 -> node 1; node 1 swaps addresses and ports; its MAC
     * security), CSMA-CA set, cpu_hz, rx_always_on (idle = RX or SLEEP), backoff_rx
     * (backoff = RX or SLEEP) and the wake-up times (the rules of ieee802154.h
     * "Wake-ups"). p_busy and msg_octets are unused: contention is simulated, messages
     * are real. */
    struct pqpan_802154_est_config exch;
    uint64_t cycles[PQPAN_OP_COUNT]; /* cycles of one execution of each operation */
    uint8_t initiator_side;  /* the application side (enum pqpan_ble_role) node 0 plays */
    uint32_t nodes;          /* 2 .. PQPAN_SIM154_MAX_NODES */
    uint32_t hidden;         /* background nodes hidden from node 0, 0 .. nodes - 2 */
    double load_fps;         /* frames/s offered by each background node (Poisson), 0 .. 1e6 */
    uint8_t load_psdu;       /* background PSDU octets, PQPAN_SIM154_MIN_BG_PSDU .. 127 */
    uint32_t reasm_timeout_ms; /* 1 .. PQPAN_SIM154_REASM_TIMEOUT_MS_MAX */
    uint32_t dgram_retries;  /* 0 .. PQPAN_SIM154_DGRAM_RETRIES_MAX */
    uint8_t capture;         /* enum pqpan_sim154_capture */
    uint64_t seed;
    uint64_t max_ns;         /* simulated-time limit (status PQPAN_ERR_TIMEOUT); 0 = 600 s */
};

/* Defaults (include/pqpan/defaults.h): pqpan_802154_est_config_default, the initiator on
 * --keygen-side's side (the peripheral), --nodes, no load, --frame-bytes background
 * frames, no hidden node, --reasm-timeout, --dgram-retries, --seed. cycles are left
 * zero. */
void pqpan_sim154_config_default(struct pqpan_sim154_config *c);

/* Checks c: PQPAN_OK or PQPAN_ERR_INVALID_ARG. */
PQPAN_MUST_CHECK int pqpan_sim154_config_check(const struct pqpan_sim154_config *c);

struct pqpan_sim154_result {
    struct pqpan_ledger ledger[2]; /* nodes 0 and 1, phases and states as the estimator's */
    int status;            /* PQPAN_OK (both done, app->verify passed), the verify error,
                              PQPAN_ERR_TIMEOUT (datagram retries or time limit exhausted),
                              or the application's error */
    int done[2];           /* the application finished on that node */
    uint64_t latency_ns;   /* first crypto operation .. the end (both done, nothing in flight:
                              the last message acknowledged), or the time limit */
    uint32_t frames[2];    /* data frame transmissions, retransmissions included */
    uint32_t retries[2];   /* extra MAC attempts (missing ACK or channel access failure) */
    uint32_t access_failures[2];
    uint32_t ccas[2];
    uint32_t rx_lost[2];   /* frames to node n (data or ACK) lost at n: another transmission
                              it hears overlapped, or it was transmitting */
    uint32_t dgrams[2];    /* datagrams sent, retransmissions included */
    uint32_t dgram_failed[2];  /* datagrams abandoned: a fragment out of MAC attempts */
    uint32_t dgram_retx[2];    /* datagrams sent again by the application */
    uint32_t reasm_timeouts[2]; /* partial datagrams dropped at node n on timeout */
    uint32_t duplicates[2];    /* complete duplicate datagrams dropped at node n */
    uint64_t bg_frames;    /* background frames sent */
    uint64_t events;       /* events processed */
};

/* Observer: every transmission at its start (exchange data frames, Imm-Acks, background
 * frames), its real PSDU with FCS; e.g. a pcap writer (LINKTYPE 195). */
typedef void (*pqpan_sim154_frame_fn)(void *ctx, uint64_t t_ns, const uint8_t *psdu, size_t len);

/* ---- the context (fields are internal) ---- */

struct pqpan_sim154_node {
    uint64_t cca_start_ns, tx_start_ns;
    uint64_t ack_end_ns;    /* end of the last Imm-Ack it sent (its radio's busy until then) */
    uint32_t gen_main;      /* MAC timer generation */
    uint32_t pending;       /* background frames waiting */
    uint16_t psdu_len;
    uint8_t state, nb, be, attempts, seq, ack_seq;
    uint8_t zone;           /* hearing zones, a bit set */
};

/* The largest UDP datagram of a message: IPv6 and UDP headers + the message. */
#define PQPAN_SIM154_PACKET_MAX (PQPAN_IPV6_HDR_OCTETS + PQPAN_UDP_HDR_OCTETS + PQPAN_SIM_MSG_MAX)

/* The sending and receiving side of an exchanging node. */
struct pqpan_sim154_party {
    /* outgoing message (kept for retransmission) and the datagram carrying it */
    uint8_t msg[PQPAN_SIM_MSG_MAX];
    uint16_t msg_len;
    uint8_t next[PQPAN_SIM_MSG_MAX]; /* a newer message waiting for the MAC */
    uint16_t next_len;
    uint8_t has_next;
    uint8_t sending;        /* a datagram is being sent */
    uint8_t delivered;      /* ... and it is the message's last, acknowledged whole */
    uint8_t rtx_pending;    /* a retransmission is scheduled */
    uint8_t phase;          /* enum pqpan_phase of the message */
    uint8_t seg;            /* the IPv6 packet of the message being sent (a segment or an IPv6
                               fragment: pqpan_802154_msg_packets) */
    uint32_t retries_used;
    uint32_t gen_rtx, gen_reasm, gen_cpu;
    uint8_t whole[PQPAN_SIM154_PACKET_MAX]; /* the message's UDP datagram (IPv6 fragments) */
    uint16_t whole_len;
    uint32_t ident;         /* Identification of its fragments (RFC 8200 §4.5) */
    uint8_t dgram[PQPAN_6LOWPAN_MAX_DATAGRAM + 1u];
    uint16_t dgram_len, comp_len, uncomp_len, frames, frame, tag;
    uint8_t comp[PQPAN_6LOWPAN_MAX_COMP_HDR];
    uint8_t psdu[PQPAN_802154_MAX_PSDU];
    struct pqpan_802154_link_cfg link;
    /* incoming */
    struct pqpan_6lowpan_reasm reasm;
    uint8_t rx[PQPAN_6LOWPAN_MAX_DATAGRAM + 1u];
    uint16_t rx_len;        /* a complete 6LoWPAN datagram (an IPv6 packet) to deliver */
    struct pqpan_ipv6frag_reasm ip_reasm;
    uint8_t ip_rx[PQPAN_SIM154_PACKET_MAX]; /* the IPv6 packet it completes */
    uint8_t have_rx_seq;    /* a data frame was received: node.ack_seq is its DSN */
    uint8_t seg_in[PQPAN_SIM_MSG_MAX]; /* a segmented message's segments so far */
    uint16_t seg_in_len;
    uint8_t seg_in_next;    /* the index of the segment expected next */
    uint8_t seg_in_count;   /* the segments of that message */
    uint8_t last_in[PQPAN_SIM_MSG_MAX]; /* the last message handed to the application */
    uint16_t last_in_len;
    /* application */
    uint8_t out[PQPAN_SIM_MSG_MAX];  /* its reply, released when the crypto ends */
    uint16_t out_len;
    uint8_t computing;
    uint8_t answered;       /* msg answers last_in: a duplicate of last_in gets it again */
    uint8_t done;
    uint64_t acct_ns;       /* the ledger holds this node's time up to here */
    uint8_t last_state;     /* enum pqpan_state of the time booked last (SLEEP: asleep), */
    uint8_t last_phase;     /* its phase */
    uint64_t last_start_ns; /* and where it began */
    uint32_t frame_counter; /* of its next secured frame (§9.4.3) */
};

struct pqpan_sim154_air {
    uint64_t start_ns, end_ns;
    uint8_t node;
};

struct pqpan_sim154 {
    struct pqpan_sim154_config cfg;
    struct pqpan_prng rng;
    struct pqpan_ev heap[PQPAN_SIM154_EVQ_MAX];
    struct pqpan_evheap q;
    struct pqpan_sim154_node node[PQPAN_SIM154_MAX_NODES];
    struct pqpan_sim154_party party[2];
    struct pqpan_sim154_air air[PQPAN_SIM154_AIR_MAX]; /* a ring in start order */
    uint32_t air_head, air_n;
    struct pqpan_sim154_result res;
    uint64_t now_ns;
    uint8_t phase;  /* enum pqpan_phase the time now is booked to (CPU time: CRYPTO) */
    uint8_t stop;
    uint8_t messages; /* the application's messages so far (both parties) */
};

/* Checks cfg, seeds the PRNG, zeroes the result. PQPAN_ERR_INVALID_ARG on a bad
 * configuration. */
PQPAN_MUST_CHECK int pqpan_sim154_init(struct pqpan_sim154 *s, const struct pqpan_sim154_config *cfg);

/* Runs one exchange to its end (see pqpan_sim154_result.status); the result is in s->res
 * either way. Returns PQPAN_OK when the simulator itself worked (the exchange may still
 * have failed: res.status), or a library error (PQPAN_ERR_CAPACITY, a framing error, or
 * PQPAN_ERR_INVALID_ARG for a missing application), with res zeroed but for status.
 * on_frame may be NULL. */
PQPAN_MUST_CHECK int pqpan_sim154_run(struct pqpan_sim154 *s, const struct pqpan_sim_app *app,
                                      void *app_ctx, pqpan_sim154_frame_fn on_frame,
                                      void *frame_ctx);

#endif
