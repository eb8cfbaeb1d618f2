/* The packet simulator: a key exchange's real bytes over a simulated Bluetooth LE
 * connection (DESIGN.md "Architecture"; docs/MODEL.md "Packet simulator").
 *
 * Discrete events in integer nanoseconds on a caller-owned, fixed-size queue. Two nodes,
 * the central and the peripheral, run connection events per Core v5.4 Vol 6 Part B §4.5:
 * anchor points every connection interval, T_IFS between packets, the MD bit keeping an
 * event open (§4.5.6), SN/NESN acknowledgement and retransmission (§4.5.9), an event
 * closed by two consecutive CRC errors (§4.5.6) or by a missed packet, and the
 * supervision timeout ending the connection (§4.5.2). Set-up is simulated: CONNECT_IND,
 * LL_PHY_REQ/RSP/UPDATE_IND, LL_LENGTH_REQ/RSP, the ATT MTU exchange, and for an L2CAP
 * LE credit-based channel its connection request/response.
 *
 * Messages of the application (pqke, or a synthetic one) travel over GATT (the transfer
 * methods of ble.h, sized by pqpan_ble_plan_message) or an L2CAP credit-based channel,
 * as real L2CAP/ATT PDUs in LL PDUs with CRC-24; the channel flips bits (PER or BER per
 * direction, seeded PRNG) so a damaged packet really fails its CRC.
 *
 * The same link rules as the estimator (ble.h: air time, fragmentation, per-event costs,
 * replies in the next event unless same_event_reply) fill one ledger per node.
 *
 * The context holds no pointers (a struct copy clones a run); the application and the
 * observers are passed to pqpan_sim_run. No allocation, no globals. */
#ifndef PQPAN_SIM_H
#define PQPAN_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/ble.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/error.h"
#include "pqpan/ledger.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

/* ---- PRNG: xoshiro256** seeded through splitmix64 (Blackman & Vigna 2018) ---------- */

struct pqpan_prng {
    uint64_t s[4];
};
void pqpan_prng_seed(struct pqpan_prng *r, uint64_t seed);
uint64_t pqpan_prng_next(struct pqpan_prng *r);
/* Uniform in [0, n), n > 0. */
uint64_t pqpan_prng_below(struct pqpan_prng *r, uint64_t n);
/* 1 with probability p (p <= 0: never, p >= 1: always). */
int pqpan_prng_chance(struct pqpan_prng *r, double p);
/* A pqpan_rng_fn over the generator ctx (a struct pqpan_prng): simulated keys and nonces
 * only, never real ones. Always returns 0. */
int pqpan_prng_fill(void *ctx, uint8_t *out, size_t len);

/* ---- event queue ------------------------------------------------------------------ */

/* One event. gen lets a simulator cancel a timer lazily: it keeps a generation counter per
 * timer, stamps each event it schedules with it and bumps it to cancel; a popped event
 * whose gen no longer matches is stale and skipped. */
struct pqpan_ev {
    uint64_t t_ns;
    uint64_t seq;  /* insertion order: equal times pop first-in first-out (64 bits: no
                      wrap within any run) */
    uint32_t gen;
    uint8_t kind;
    uint8_t node;
};

/* A binary min-heap on (t_ns, seq) over caller-given storage heap[0..cap): the counters
 * live here, the array with the caller (a fixed array in a context, no pointer kept), so
 * one implementation serves the BLE simulator's small queue and the 802.15.4 simulator's
 * large one. */
struct pqpan_evheap {
    uint32_t n;
    uint64_t next_seq;
};
void pqpan_evheap_init(struct pqpan_evheap *h);
/* Adds ev (its seq is assigned here). PQPAN_ERR_CAPACITY when n == cap. */
PQPAN_MUST_CHECK int pqpan_evheap_push(struct pqpan_evheap *h, struct pqpan_ev *heap, uint32_t cap,
                                       uint64_t t_ns, uint8_t kind, uint8_t node, uint32_t gen);
/* 0 if empty, else 1 and the earliest event in *ev. */
int pqpan_evheap_pop(struct pqpan_evheap *h, struct pqpan_ev *heap, struct pqpan_ev *ev);

/* The BLE simulator's queue: the heap with 32 entries of its own. */
#define PQPAN_EVQ_MAX 32

struct pqpan_evq {
    struct pqpan_ev heap[PQPAN_EVQ_MAX];
    struct pqpan_evheap h;
};
void pqpan_evq_init(struct pqpan_evq *q);
/* PQPAN_ERR_CAPACITY when full. */
PQPAN_MUST_CHECK int pqpan_evq_push(struct pqpan_evq *q, uint64_t t_ns, uint8_t kind, uint8_t node);
/* 0 if empty, else 1 and the earliest event in *ev. */
int pqpan_evq_pop(struct pqpan_evq *q, struct pqpan_ev *ev);

/* ---- configuration ---------------------------------------------------------------- */

enum pqpan_sim_transport {
    PQPAN_SIM_GATT = 0,      /* ATT PDUs per cfg.ble.transfer */
    PQPAN_SIM_L2CAP_COC,     /* an LE credit-based connection-oriented channel */
    PQPAN_SIM_SMP            /* SMP PDUs on the Security Manager channel (LE Secure
                                Connections pairing); the set-up is GATT's */
};

/* Errors of one direction of the channel: each packet is damaged with probability per,
 * and each of its bits (access address to CRC) flips with probability ber. A damaged
 * access address loses the packet (no sync); other damage fails the CRC. */
struct pqpan_sim_channel {
    double per;
    double ber;
};

struct pqpan_sim_config {
    struct pqpan_ble_config ble;     /* link and GATT transfer, as for the estimator */
    struct pqpan_ble_device dev;     /* per-event timing, as for the estimator */
    uint64_t cycles[PQPAN_OP_COUNT]; /* cycles of one execution of each operation */
    enum pqpan_sim_transport transport;
    struct pqpan_sim_channel chan[2]; /* index = transmitting role (enum pqpan_ble_role) */
    uint64_t seed;
    uint32_t supervision_timeout_ms; /* 100 .. 32000 (Vol 6 Part B §4.5.2) */
    uint64_t max_sim_ns;             /* hard stop (PQPAN_ERR_TIMEOUT) this long after the
                                        CONNECT_IND; 0 = 10 minutes */
    /* The advertising phase (ble.adv_interval_ns != 0): the primary channel the central
     * scans (37..39) and the wait from the moment it listens to the ADV_IND on that
     * channel. 0 = drawn from the seeded PRNG as in pqpan_ble_adv_mean's assumption
     * (channel uniform, the wait the stationary residual of the advertiser's events);
     * pqpan_ble_adv_mean gives the estimator's expected case. */
    uint8_t adv_scan_channel;
    uint64_t adv_wait_ns;
};

/* Defaults (include/pqpan/defaults.h): the estimator's (pqpan_ble_config_default),
 * --transport, no loss, --seed, --supervision-timeout-ms. dev and cycles are left zero for
 * the caller. */
void pqpan_sim_config_default(struct pqpan_sim_config *c);

/* ---- the application carried over the link --------------------------------------- */

/* The largest application message: PQKE's largest (pqke.h PQPAN_PQKE_MSG_MAX_BYTES, the
 * sig-mutual RESP with ML-DSA-87 at P-256 + ML-KEM-1024, 6332 bytes) fits, so the simulators
 * carry the sig modes once the protocol runs them. */
#define PQPAN_SIM_MSG_MAX 8192

/* What one application step did: the crypto operations it ran (their cycles from the
 * configuration become CPU time before the output is sent), operations it runs after the
 * output is sent (ops_after: off the message's path, e.g. an LE SC responder's DHKey
 * while it waits for the initiator's nonce), whether this side is finished (no more
 * messages to send or receive), and a Long Term Key (most significant octet first) the
 * host hands its link layer: the central then starts the LL encryption procedure (Vol 6
 * Part B §5.1.3.1), the peripheral answers it with that key. ops_after and ltk are the
 * BLE simulator's; the 802.15.4 simulator (sim154.h) has no use for them. */
struct pqpan_sim_work {
    uint32_t ops[PQPAN_OP_COUNT];
    uint32_t ops_after[PQPAN_OP_COUNT];
    int done;
    int last_step; /* the exchange's last step: the latency runs to its end, even if it
                      computes nothing (PQKE: the responder on FIN; numeric: the initiator on
                      REVEAL) */
    const uint8_t *ltk;
};

/* The two parties. start() runs on the side that speaks first (cfg.ble.keygen_side;
 * the central, the SMP initiator, with PQPAN_SIM_SMP) once the link is set up; receive() on every message delivered. Both may write one
 * message to out[0..cap) (set *out_len, 0 = nothing to send). expect() gives the size of
 * the next message a side waits for (GATT carries no message boundaries). A negative
 * return ends the run with that error. verify() (may be NULL) judges a run in which both
 * sides reported done: PQPAN_OK if its outcome is sound (PQKE: both confirmed, keys
 * equal), else an error; the 802.15.4 simulator makes that its status. */
struct pqpan_sim_app {
    int (*start)(void *ctx, enum pqpan_ble_role side, uint8_t *out, size_t cap, size_t *out_len,
                 struct pqpan_sim_work *work);
    int (*receive)(void *ctx, enum pqpan_ble_role side, const uint8_t *msg, size_t len,
                   uint8_t *out, size_t cap, size_t *out_len, struct pqpan_sim_work *work);
    size_t (*expect)(void *ctx, enum pqpan_ble_role side);
    int (*verify)(void *ctx);
};

/* ---- observers (pcap, current trace) ---------------------------------------------- */

/* One packet as the intended receiver got it (missed packets are not reported). */
struct pqpan_sim_packet {
    uint64_t t_ns;        /* start of the packet (first bit of the access address) */
    uint32_t access_address;
    uint8_t rf_channel;   /* 0..39 (Vol 6 Part A §2) */
    uint8_t advertising;  /* 1 for the CONNECT_IND */
    uint8_t sender;       /* enum pqpan_ble_role */
    uint8_t phy;          /* enum pqpan_ble_phy */
    uint8_t crc_ok;
    uint8_t decrypted;    /* an encrypted PDU received intact, given decrypted: its
                             plaintext header and payload (Length without the MIC), then
                             the CRC sent; as a sniffer that holds the LTK records it */
    const uint8_t *pdu;   /* header, payload and 3 CRC octets */
    size_t len;
};

/* A span [t0, t1) a side spent in a state during a phase (sleep is not reported). */
struct pqpan_sim_span {
    uint64_t t0_ns, t1_ns;
    uint8_t side;   /* enum pqpan_ble_role */
    uint8_t state;  /* enum pqpan_state */
    uint8_t phase;  /* enum pqpan_phase */
    uint8_t op;     /* enum pqpan_op of a crypto operation's CPU span, else PQPAN_OP_COUNT */
    uint8_t resumed; /* 1: a crypto operation's span that goes on with the same execution
                        after a connection event suspended it (struct pqpan_sim_cpu) */
};

struct pqpan_sim_observer {
    void (*packet)(void *ctx, const struct pqpan_sim_packet *p);
    void (*span)(void *ctx, const struct pqpan_sim_span *s);
};

/* ---- results ---------------------------------------------------------------------- */

struct pqpan_sim_result {
    struct pqpan_ledger ledger[2]; /* events accounting, index = role */
    struct pqpan_ledger bits[2];   /* PDU air time + T_IFS of events with data */
    struct pqpan_ble_counts counts;
    uint64_t retransmissions[2];   /* PDUs sent again (not acknowledged) */
    uint64_t crc_errors[2];        /* packets received with a bad CRC */
    uint64_t missed[2];            /* packets not received at all */
    uint64_t conn_events;          /* every connection event, idle ones included */
    uint64_t latency_ns;           /* first crypto operation start .. last one end */
    uint64_t setup_ns;             /* start .. link ready (the set-up phases' spans) */
    uint64_t span_ns[PQPAN_PHASE_COUNT]; /* time of each set-up phase: ADVERTISE from the
                                            start to the CONNECT_IND, CONNECT from there to
                                            the close of the first event, the others from the
                                            close of the event before to their last close */
    uint64_t end_ns;               /* simulated time at the end */
    uint32_t att_mtu;              /* negotiated */
    uint32_t ll_octets;            /* negotiated connMaxTxOctets */
    int done[2];                   /* the application finished on that side */
    int encrypted;                 /* the LL encryption procedure completed (both
                                      LL_START_ENC_RSP delivered) */
    int established;               /* a data packet was received (Vol 6 Part B §4.5.2); with
                                      status PQPAN_ERR_LINK_LOST and 0 here, the link was
                                      lost by the six-interval establishment rule, not the
                                      supervision timeout */
    int status;                    /* PQPAN_OK or why the run stopped */
};

/* ---- the simulator context (fields are internal) ---------------------------------- */

#define PQPAN_SIM_L2CAP_MAX (PQPAN_L2CAP_HDR_BYTES + PQPAN_ATT_MAX_MTU)
#define PQPAN_SIM_LLQ 4      /* LL control PDUs waiting per side */
#define PQPAN_SIM_HOSTQ 8    /* host replies waiting per side */
#define PQPAN_SIM_TXQ 8      /* L2CAP PDUs handed to the LL per side */

struct pqpan_sim_pdu {
    uint8_t b[PQPAN_LL_HDR_BYTES + PQPAN_LL_DATA_MAX_PAYLOAD + PQPAN_LL_MIC_BYTES + PQPAN_LL_CRC_BYTES];
    uint16_t len;        /* header + payload (CRC not included) */
};

struct pqpan_sim_l2cap {
    uint8_t b[PQPAN_SIM_L2CAP_MAX];
    uint16_t len;
};

struct pqpan_sim_ctrl {
    uint8_t b[PQPAN_LL_CTRL_MAX_BYTES];
    uint8_t len;
};

/* Crypto operations one side may have queued and not finished. */
#define PQPAN_SIM_CPU_OPS 16

/* One side's application CPU (docs/MODEL.md "Packet simulator"): the crypto operations its
 * application asked for, run one after another in the time the link layer leaves it. The
 * controller's interrupts preempt the application for every connection event, from its
 * pre-processing to its post-processing (Nordic S140 SoftDevice Specification,
 * "Interrupt model and processor availability", "Interrupt priority levels": SoftDevice and application interrupts are interwoven, an
 * application interrupt or thread is postponed or preempted; Zephyr's controller runs its
 * event preparation and radio ISR at CONFIG_BT_CTLR_LLL_PRIO, default 0, the highest):
 * an operation running when an event starts is suspended and goes on after it. */
struct pqpan_sim_cpu {
    uint64_t left_ns[PQPAN_SIM_CPU_OPS]; /* CPU time each queued operation still needs */
    uint64_t free_ns;                    /* the CPU is the application's from here on */
    uint8_t op[PQPAN_SIM_CPU_OPS];       /* enum pqpan_op, a ring: [head, head + n) */
    uint8_t head, n;
    uint8_t head_started;                /* the head operation has run already */
    uint8_t msg_after;                   /* operations to finish before the message waiting
                                            for them is ready (0: none waits) */
};

/* One side's link layer (§4.5.9) and host (L2CAP, ATT/GATT or CoC, application). */
struct pqpan_sim_node {
    /* link layer */
    uint8_t sn, nesn;
    uint8_t have_pdu;        /* cur holds a PDU not yet acknowledged */
    uint8_t sent_once;       /* ... that was already sent */
    uint8_t crc_errors_in_row;
    struct pqpan_sim_pdu cur;
    struct pqpan_sim_ctrl llq[PQPAN_SIM_LLQ];
    uint8_t llq_n;
    struct pqpan_sim_l2cap txq[PQPAN_SIM_TXQ]; /* a ring; txq[txq_head] is being fragmented */
    uint8_t txq_head;
    uint8_t txq_n;
    uint16_t frag_off;
    struct pqpan_sim_l2cap rx;  /* L2CAP PDU being reassembled from LL fragments */
    uint8_t rx_active;
    uint64_t last_rx_ok_ns;     /* supervision timer (§4.5.2) */
    /* LL encryption (Vol 6 Part B §5.1.3.1, Part E) */
    uint8_t ltk[PQPAN_LL_KEY_BYTES]; /* from the host (struct pqpan_sim_work ltk) */
    uint8_t has_ltk;
    uint8_t enc_tx, enc_rx;     /* this side sends / expects encrypted PDUs */
    struct pqpan_ll_enc enc;    /* its SKD and IV (and the central's Rand, EDIV) */
    struct pqpan_ll_crypt crypt;
    struct pqpan_sim_pdu plain; /* cur before encryption, when cur_encrypted */
    uint8_t cur_encrypted;
    /* host replies decided during an event, released at its end (or at once) */
    struct pqpan_sim_l2cap hostq[PQPAN_SIM_HOSTQ];
    uint8_t hostq_n;
    struct pqpan_sim_ctrl hostllq[PQPAN_SIM_LLQ];
    uint8_t hostllq_n;
    /* outgoing message */
    uint8_t out[PQPAN_SIM_MSG_MAX];
    uint16_t out_len;
    uint16_t out_sent;          /* message octets put into L2CAP PDUs so far */
    uint16_t out_unit;          /* value octets per ATT PDU / SDU octets per K-frame */
    uint16_t out_seq;           /* ATT PDUs (or K-frames) of this message so far */
    uint8_t out_busy;           /* a message is being sent */
    uint8_t wait_rsp;           /* waiting for an ATT response/confirmation */
    uint8_t got_rsp;            /* ... which arrived; the host sees it when it runs */
    uint8_t out_ready_pending;  /* crypto running; message released at ready_ns */
    uint64_t ready_ns;
    uint16_t lw_value_off;      /* long write: offset inside the current value */
    uint16_t lw_value_len;
    /* incoming message */
    uint8_t in[PQPAN_SIM_MSG_MAX];
    uint16_t in_len;
    uint16_t in_expect;
    uint16_t in_frame;          /* study preset: next frame number */
    uint8_t prep[PQPAN_BLE_ATT_VALUE_MAX]; /* long write: prepared value */
    uint16_t prep_len;
    uint8_t deliver_pending;    /* a complete message waits for the host */
    /* CoC */
    uint16_t coc_credits;       /* K-frames this side may still send */
    uint16_t coc_sdu_left;      /* octets of the SDU being received */
    uint16_t coc_rx_frames;     /* K-frames consumed since credits were last returned */
    uint8_t sig_id;
    uint8_t is_ek;              /* the message is the keygen side's (study preset) */
    uint8_t done;
    struct pqpan_sim_cpu cpu;
};

struct pqpan_sim {
    struct pqpan_sim_config cfg;
    struct pqpan_prng rng;
    struct pqpan_evq q;
    struct pqpan_sim_node node[2];
    struct pqpan_sim_result res;
    uint64_t now_ns;
    /* connection */
    uint32_t access_address;
    uint32_t crc_init;
    uint64_t anchor_ns;
    uint64_t ci_ns;
    uint64_t event_end_ns;       /* last moment a packet of this event may end */
    uint16_t event_counter;
    uint8_t unmapped_channel;
    uint8_t channel;             /* data channel index of the current event */
    uint8_t hop;
    uint8_t phy;                 /* current enum pqpan_ble_phy */
    uint8_t pending_phy;
    uint16_t phy_instant;
    uint8_t phy_update_pending;
    uint64_t pending_ci_ns;      /* connection parameters update: the new interval */
    uint16_t ci_instant;
    uint8_t ci_update_pending;
    uint16_t ll_octets;          /* connEffectiveMaxTxOctets */
    uint16_t att_mtu;
    uint8_t established;         /* first packet received by the peripheral (§4.5.2) */
    uint8_t negotiation_step;
    uint8_t nego_advance;        /* start the next step when the event closes */
    uint8_t version_sent[2];     /* LL_VERSION_IND sent (at most one, §5.1.5) */
    uint8_t disc_state;          /* the central's GATT discovery (src/sim/gatt.c) */
    uint16_t disc_service_start; /* handles found by it */
    uint16_t disc_service_end;
    uint16_t disc_value_handle;
    uint16_t disc_cccd_handle;
    uint16_t cccd;               /* the peripheral's CCCD value */
    uint64_t connect_at_ns;      /* the CONNECT_IND's start (advertising never heard: the
                                    end of the run) */
    uint8_t adv_channel;         /* the primary channel it goes on (37..39) */
    uint8_t link_ready;
    uint8_t messages;            /* application messages started so far */
    uint8_t enc_started;         /* the central sent LL_ENC_REQ (Vol 6 Part B §5.1.3.1) */
    uint64_t last_close_ns;      /* close of the last connection event */
    uint64_t phase_start_ns;     /* where the current set-up phase's span starts */
    uint8_t phase;               /* enum pqpan_phase booked now */
    uint8_t in_event;
    uint8_t event_has_data;
    uint8_t event_data_phase;
    uint32_t event_pairs;
    /* packet in flight */
    struct pqpan_sim_pdu air;
    struct pqpan_sim_pdu air_plain; /* its plaintext when air_encrypted (for observers) */
    uint8_t air_encrypted;
    uint8_t air_sender;
    uint8_t air_lost;
    uint8_t air_crc_ok;
    uint64_t air_start_ns;
    /* radio time of the current event (phase 0), booked at its end */
    struct pqpan_ledger ev_led[2];
    uint64_t ev_data_tx[2];
    uint64_t ev_empty_tx[2];
    uint64_t crypto_busy_until;  /* end of the last crypto operation finished */
    uint64_t crypto_first_ns;
    uint64_t crypto_last_ns;
    uint8_t crypto_started;
    uint8_t stop;
};

/* Checks cfg (ranges of ble.h, a link that can hold: pqpan_ble_config_fault, and the
 * channel), seeds the PRNG, zeroes the result. PQPAN_ERR_INVALID_ARG on a bad
 * configuration. */
PQPAN_MUST_CHECK int pqpan_sim_init(struct pqpan_sim *s, const struct pqpan_sim_config *cfg);

/* Runs one exchange to its end: both sides done (PQPAN_OK), the application failing (its
 * error), the link lost (PQPAN_ERR_LINK_LOST: the supervision timeout, or no packet in
 * the first 6 intervals when res.established is 0) or max_sim_ns
 * (PQPAN_ERR_TIMEOUT). The result is in s->res either way (status = the return value).
 * obs may be NULL; its callbacks get obs_ctx. */
PQPAN_MUST_CHECK int pqpan_sim_run(struct pqpan_sim *s, const struct pqpan_sim_app *app,
                                   void *app_ctx, const struct pqpan_sim_observer *obs,
                                   void *obs_ctx);

/* The advertising phase's drawn wait: from a uniformly distributed moment to the next
 * advertising event of an advertiser with advInterval adv_interval_ns and advDelay
 * uniform in 0..10 ms (Vol 6 Part B §4.4.2.2) — the stationary residual of T_advEvent,
 * whose mean is pqpan_ble_adv_mean's wait. */
uint64_t pqpan_sim_adv_wait(struct pqpan_prng *r, uint64_t adv_interval_ns);

/* ---- a synthetic application: the estimator's messages, no real crypto -------------- */

/* Sends the ek (ek_bytes) from keygen_side after KeyGen, the ct (ct_bytes) back after
 * Encaps, then runs Decaps; message bytes are a counter pattern checked on receipt
 * (PQPAN_ERR_MALFORMED if damaged). Used by the agreement tests and the benchmark. */
struct pqpan_sim_synth {
    uint32_t ek_bytes;
    uint32_t ct_bytes;
    uint8_t keygen_side;
    uint8_t stage[2];
};
void pqpan_sim_synth_init(struct pqpan_sim_synth *a, uint32_t ek_bytes, uint32_t ct_bytes,
                          enum pqpan_ble_role keygen_side);
const struct pqpan_sim_app *pqpan_sim_synth_app(void);

/* ---- the real protocol: PQKE (pqke.h) between the two sides ----------------------- */

/* The initiator (KeyGen, Decaps) is keygen_side. Randomness comes from a PRNG seeded
 * with seed, so a run is reproducible: for simulation only, never for real keys. The
 * long-term credentials of the mode (a PSK, static ML-KEM or ML-DSA key pairs) are made at init from
 * their own PRNG stream: a device's provisioning, not part of the exchange or its cost.
 * Both sides bind PQPAN_SIM_PQKE_PROLOGUE and, in every mode, the two link sides' identities
 * PQPAN_SIM_PQKE_ID_CENTRAL and _PERIPHERAL (the names stand for the devices' addresses). In
 * numeric mode (four messages: INIT, RESP, FIN, REVEAL) the simulated user compares the two
 * values and confirms when they are equal (the time a person takes is not modelled).
 * Each party reports its ML-KEM operations and one KDF (key schedule, tags, numeric
 * commitment and value) per key schedule as its work (pqpan_pqke_side_work). */
#define PQPAN_SIM_PQKE_PROLOGUE "pqpan-sim"
#define PQPAN_SIM_PQKE_ID_CENTRAL "central"
#define PQPAN_SIM_PQKE_ID_PERIPHERAL "peripheral"
struct pqpan_sim_pqke {
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder rsp;
    struct pqpan_prng rng;
    uint8_t suite;
    uint8_t mode;
    uint8_t initiator_side;
    uint8_t kem; /* enum pqpan_kem_id of the suite (and of the static keys) */
    uint8_t taken[2]; /* 1 once a party's session was taken (index: 0 responder, 1 initiator) */
    struct pqpan_pqke_session session[2];
    uint8_t psk[PQPAN_PQKE_PSK_BYTES];
    uint8_t responder_ek[PQPAN_KEM_EK_MAX_BYTES];
    uint8_t responder_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t initiator_ek[PQPAN_KEM_EK_MAX_BYTES];
    uint8_t initiator_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t sig; /* sig modes: the ML-DSA set (enum pqpan_sig_id), else 0 */
    uint8_t responder_pk[PQPAN_SIG_PK_MAX_BYTES]; /* ML-DSA: the responder's (sig*) */
    uint8_t responder_sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t initiator_pk[PQPAN_SIG_PK_MAX_BYTES]; /* ML-DSA: the initiator's (sig-mutual) */
    uint8_t initiator_sk[PQPAN_SIG_SK_MAX_BYTES];
};

/* suite: any of pqke.h (the hybrid ones too); sig: the ML-DSA set (enum pqpan_sig_id) of
 * the sig modes, ignored in the others. PQPAN_OK, or an error for a suite, mode or set this
 * build does not implement. */
PQPAN_MUST_CHECK int pqpan_sim_pqke_init(struct pqpan_sim_pqke *a, unsigned suite, unsigned mode,
                                         unsigned sig, enum pqpan_ble_role initiator_side,
                                         uint64_t seed);
const struct pqpan_sim_app *pqpan_sim_pqke_app(void);

/* After a run: 1 if both parties finished (each verified the other's confirmation tag; in
 * numeric mode the user confirmed) and handed over their sessions. */
int pqpan_sim_pqke_confirmed(const struct pqpan_sim_pqke *a);
/* 1 if both sessions were handed over and hold the same keys and transcript hash, else 0. */
int pqpan_sim_pqke_keys_equal(const struct pqpan_sim_pqke *a);
/* Wipes both parties. */
void pqpan_sim_pqke_wipe(struct pqpan_sim_pqke *a);

/* ---- LE Secure Connections pairing between the two sides (run with PQPAN_SIM_SMP) --- */

/* Phase 2 of LE Secure Connections pairing, Just Works (Core v5.4 Vol 3 Part H
 * §2.3.5.6.1-§2.3.5.6.5, Figure 2.3), with real values: the central (initiator) sends the
 * Pairing Request; after the Pairing Response it generates its P-256 key pair and sends
 * its Public Key; the peripheral generates its key pair, sends its Public Key and the
 * confirm value Cb = f4(PKbx, PKax, Nb, 0), then computes the DHKey while it waits; Na and
 * Nb are exchanged, the central checks Cb, computes the DHKey, MacKey || LTK =
 * f5(DHKey, Na, Nb, A, B) and sends Ea = f6(MacKey, Na, Nb, 0, IOcapA, A, B); the
 * peripheral checks it and answers Eb = f6(MacKey, Nb, Na, 0, IOcapB, B, A). Both hand the
 * LTK to their link layer, which starts encryption. Keys and nonces come from a PRNG
 * seeded with the run's seed: for simulation only. Public keys are validated in full
 * (ecdh.h); a failed check ends the run with PQPAN_ERR_AUTH (PQPAN_ERR_BAD_KEY for an
 * invalid public key). Phase 3 (key distribution) is not run: both distribution fields
 * are 0, as in the estimator's baseline. */
struct pqpan_sim_lesc_side {
    uint8_t sk[32];             /* P-256 private key */
    uint8_t pk[65];             /* own public key, SEC 1 uncompressed */
    uint8_t peer_pk[65];
    uint8_t nonce[16], peer_nonce[16];
    uint8_t peer_confirm[16];   /* the initiator keeps Cb until Nb comes */
    uint8_t dhkey[32];
    uint8_t mackey[16], ltk[16];
    uint8_t stage;
    uint8_t checked;            /* the peer's DHKey check verified */
};

struct pqpan_sim_lesc {
    struct pqpan_sim_lesc_side side[2]; /* index enum pqpan_ble_role */
    uint8_t iocap[2][3];                /* IOcapA, IOcapB (AuthReq || OOB || IO capability) */
    struct pqpan_prng rng;
};

void pqpan_sim_lesc_init(struct pqpan_sim_lesc *a, uint64_t seed);
const struct pqpan_sim_app *pqpan_sim_lesc_app(void);
/* After a run: 1 if both sides verified the other's DHKey check. */
int pqpan_sim_lesc_confirmed(const struct pqpan_sim_lesc *a);
/* 1 if both sides derived an LTK and the two are equal. */
int pqpan_sim_lesc_keys_equal(const struct pqpan_sim_lesc *a);
void pqpan_sim_lesc_wipe(struct pqpan_sim_lesc *a);

#endif
