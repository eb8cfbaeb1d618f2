/* Bluetooth LE link model: PHY airtime, LL / L2CAP / ATT framing, connection-event
 * scheduling, and the analytic estimator built on them (docs/MODEL.md "Link model").
 *
 * Every function here is pure arithmetic on sizes and times, so the estimator and the
 * packet simulator share one copy of the framing and timing rules: the simulator sends
 * the PDUs these functions count. Clauses refer to the Bluetooth Core Specification v5.4. */
#ifndef PQPAN_BLE_H
#define PQPAN_BLE_H

#include <stdint.h>

#include "pqpan/ble_pdu.h"
#include "pqpan/error.h"
#include "pqpan/ledger.h"

/* ---- PHY (Vol 6 Part A §3; packet formats Vol 6 Part B §2.1, §2.2) ---- */

enum pqpan_ble_phy {
    PQPAN_BLE_PHY_1M = 0,   /* LE 1M, 1 Msym/s uncoded */
    PQPAN_BLE_PHY_2M,       /* LE 2M, 2 Msym/s uncoded */
    PQPAN_BLE_PHY_CODED_S2, /* LE Coded, S=2 for FEC block 2 (500 kb/s) */
    PQPAN_BLE_PHY_CODED_S8, /* LE Coded, S=8 (125 kb/s) */
    PQPAN_BLE_PHY_COUNT
};

/* Vol 6 Part B §4.5.1: connInterval = 1.25 ms × (6 .. 3200), 7.5 ms .. 4 s. */
#define PQPAN_BLE_CI_STEP_NS 1250000u
#define PQPAN_BLE_CI_MIN_NS 7500000u
#define PQPAN_BLE_CI_MAX_NS 4000000000u
/* Vol 6 Part B §4.1.1: inter frame space T_IFS = 150 µs. */
#define PQPAN_BLE_T_IFS_NS 150000u
/* Vol 6 Part B §2.4: MIC 4 octets on an encrypted link, never on a PDU with an empty
 * payload. The other field sizes (access address, header, CRC, payload limits 27..251,
 * L2CAP headers, ATT_MTU 23..517) are the byte-level ones of ble_pdu.h. */
#define PQPAN_BLE_MIC_BYTES 4u
/* Vol 3 Part F §3.2.9: an attribute value is at most 512 octets (bounds a long write). */
#define PQPAN_BLE_ATT_VALUE_MAX 512u

/* Air time (ns) of one data-channel packet whose LL PDU payload is payload_len octets
 * (0 = empty PDU), with a MIC when encrypted != 0 and payload_len > 0. */
uint64_t pqpan_ble_packet_ns(enum pqpan_ble_phy phy, uint32_t payload_len, int encrypted);

/* Octets of that packet from preamble to CRC as sent by the radio; on the Coded PHY the
 * preamble is not octets and is not counted (access address .. CRC only). */
uint32_t pqpan_ble_packet_octets(enum pqpan_ble_phy phy, uint32_t payload_len, int encrypted);

/* Largest LL payload (27..251) whose packet fits in max_time_us on phy, as the data
 * length update procedure restricts it (Vol 6 Part B §4.5.10); 27 if even that does not. */
uint32_t pqpan_ble_payload_for_time(enum pqpan_ble_phy phy, uint32_t max_time_us, int encrypted);

/* Air time (ns) of a packet's preamble and access address on phy: how long a receiver
 * listens before it knows a packet has come (Vol 6 Part B §2.1, §2.2). */
uint64_t pqpan_ble_sync_ns(enum pqpan_ble_phy phy);

/* "1M", "2M", "S2", "S8"; parse accepts those (returns PQPAN_ERR_INVALID_ARG otherwise). */
const char *pqpan_ble_phy_name(enum pqpan_ble_phy phy);
PQPAN_MUST_CHECK int pqpan_ble_phy_parse(enum pqpan_ble_phy *out, const char *name);

/* ---- framing: LL fragmentation of L2CAP PDUs, ATT PDU sizes ---- */

/* An L2CAP PDU split into LL data PDUs (Vol 6 Part B §2.4: LLID start / continuation):
 * count PDUs, the first count-1 carrying full octets each, the last last octets. */
struct pqpan_ble_frags {
    uint32_t count;
    uint32_t full;
    uint32_t last;
};

/* Fragments an L2CAP information payload of sdu_len octets (the 4-octet basic header is
 * added here) into LL PDUs of at most ll_octets. */
void pqpan_ble_fragment(struct pqpan_ble_frags *out, uint32_t sdu_len, uint32_t ll_octets);

/* ATT PDU sizes (Vol 3 Part F §3.4). */
#define PQPAN_ATT_MTU_REQ_BYTES 3u       /* §3.4.2.1/2: opcode + Client/Server Rx MTU */
#define PQPAN_ATT_HANDLE_VALUE_HDR 3u    /* §3.4.7.1/2, §3.4.5.1/3: opcode + handle */
#define PQPAN_ATT_PREPARE_HDR 5u         /* §3.4.6.1/2: opcode + handle + offset */
#define PQPAN_ATT_EXECUTE_REQ_BYTES 2u   /* §3.4.6.3: opcode + flags */
#define PQPAN_ATT_OPCODE_ONLY_BYTES 1u   /* Write Response, Confirmation, Execute Write Rsp */

/* How one message goes over ATT (GATT sub-procedures, Vol 3 Part G §4.9–§4.11). Only a
 * GATT server notifies and indicates, only a client writes (Part G §2.2: the client sends
 * requests and commands, the server responses, notifications and indications; Part F
 * §3.4.5–§3.4.7), so a configuration gives each GATT role its own method
 * (struct pqpan_ble_config: server_transfer, client_transfer, gatt_server). */
enum pqpan_ble_transfer {
    PQPAN_BLE_NOTIFY = 0,  /* Handle Value Notification (§4.10), unconfirmed: server */
    PQPAN_BLE_INDICATE,    /* Handle Value Indication + Confirmation (§4.11): server */
    PQPAN_BLE_WRITE_REQ,   /* Write Request + Write Response (§4.9.3): client */
    PQPAN_BLE_WRITE_CMD,   /* Write Command (§4.9.1), unconfirmed: client */
    PQPAN_BLE_LONG_WRITE,  /* Prepare Write Requests/Responses + Execute Write (§4.9.4):
                              client */
    PQPAN_BLE_STUDY,       /* the study's prototype, on both roles: the KeyGen side's
                              messages (ek) by indications of at most 400 octets, the
                              other side's (ct) by Write Requests with a frame number */
    PQPAN_BLE_TRANSFER_COUNT
};

/* "notify", "indicate", "write-req", "write-cmd", "long-write", "study". */
const char *pqpan_ble_transfer_name(enum pqpan_ble_transfer t);
PQPAN_MUST_CHECK int pqpan_ble_transfer_parse(enum pqpan_ble_transfer *out, const char *name);

/* Whether a GATT server sends with t (notify, indicate: Part G §4.10, §4.11), whether a
 * client does (write-req, write-cmd, long-write: §4.9). Neither for study, which names a
 * method per message (pqpan_ble_config_procedure resolves it). */
int pqpan_ble_transfer_of_server(enum pqpan_ble_transfer t);
int pqpan_ble_transfer_of_client(enum pqpan_ble_transfer t);

/* The (server_transfer, client_transfer) pairs that have a name, as `--transfer` takes
 * them, in this order: each method alone ("notify": both roles send with it, the model
 * before issue 27 item 3, which GATT cannot build: one of the two sides sends a message,
 * pqpan_ble_config_gatt_fault), "study" (the preset on both roles), then SERVER/CLIENT for
 * SERVER notify, indicate and CLIENT write-req, write-cmd, long-write
 * ("notify/write-cmd"). */
#define PQPAN_BLE_TRANSFER_CHOICES 12u

/* Choice i (0 .. PQPAN_BLE_TRANSFER_CHOICES - 1): its name, and its methods in *server and
 * *client (either may be NULL); NULL past the last (the methods left alone). */
const char *pqpan_ble_transfer_choice(unsigned i, enum pqpan_ble_transfer *server,
                                      enum pqpan_ble_transfer *client);
/* The name of the pair (server, client), or NULL when it is no choice (a study preset on
 * one role only, a pair of a client method / a server method). */
const char *pqpan_ble_transfer_choice_name(enum pqpan_ble_transfer server,
                                           enum pqpan_ble_transfer client);
/* A choice by its name: PQPAN_OK, or PQPAN_ERR_INVALID_ARG (both methods left alone). */
PQPAN_MUST_CHECK int pqpan_ble_transfer_choice_parse(enum pqpan_ble_transfer *server,
                                                     enum pqpan_ble_transfer *client,
                                                     const char *name);

/* ---- transactions and connection events ---- */

enum pqpan_ble_role { PQPAN_BLE_CENTRAL = 0, PQPAN_BLE_PERIPHERAL = 1 };

/* A run of count messages from one side: the first count-1 have len octets, the last
 * last_len. If rsp_len != 0 every message waits for a reply of rsp_len octets from the
 * other side (ATT Confirmation/Response, or an LL control response) before the next one.
 * Lengths are L2CAP information payloads (ATT/SMP PDUs), or LL control PDU payloads when
 * ll_control != 0 (no L2CAP header, one LL PDU each). wait_ns is CPU work the sender
 * finishes before the first message (e.g. KeyGen), or a wait for an instant; it is not
 * added to the ledger here, but the connection events that pass meanwhile (empty PDUs
 * only) are, in phase wait_phase. */
struct pqpan_ble_txn {
    enum pqpan_ble_role sender;
    enum pqpan_phase phase;
    uint32_t count;
    uint32_t len;
    uint32_t last_len;
    uint32_t rsp_len;
    int ll_control;
    int encrypted;
    uint64_t wait_ns;
    enum pqpan_phase wait_phase;
};

#define PQPAN_BLE_TXN_MAX 8

/* The ATT transactions that carry a msg_len-octet message with transfer method t at
 * att_mtu (study: frame sizes of the study's prototype, see docs/MODEL.md). Fills
 * out[0..*n). Errors: PQPAN_ERR_INVALID_ARG (sizes out of range, att_mtu too small for
 * the study preset). */
PQPAN_MUST_CHECK int pqpan_ble_plan_message(struct pqpan_ble_txn out[PQPAN_BLE_TXN_MAX],
                                            uint32_t *n, enum pqpan_ble_transfer t,
                                            int is_ek, uint32_t msg_len, uint32_t att_mtu,
                                            enum pqpan_ble_role sender,
                                            enum pqpan_phase phase);

/* How the bits accounting (the study's, `bits` ledgers) counts T_IFS. The study's text
 * ("PHY bits ... headers, ACKs and inter-frame spacing included") does not say how many;
 * the events accounting (`led`) always books every T_IFS (docs/MODEL.md "Reproducing the
 * study"). */
enum pqpan_ble_bits_ifs {
    PQPAN_BLE_BITS_IFS_EACH = 0,     /* every T_IFS of an event, on both sides: 2 per pair,
                                        none after the event's last PDU (default) */
    PQPAN_BLE_BITS_IFS_PER_PDU_SENT, /* one T_IFS per PDU the side sends (per-frame air
                                        time + T_IFS): 1 per pair */
    PQPAN_BLE_BITS_IFS_COUNT
};

/* "each", "per-pdu-sent". */
const char *pqpan_ble_bits_ifs_name(enum pqpan_ble_bits_ifs b);

/* Link parameters the scheduler needs. */
struct pqpan_ble_link {
    enum pqpan_ble_phy phy;
    uint32_t ll_octets;        /* effective connMaxTxOctets, both directions */
    uint64_t ci_ns;            /* connection interval (Vol 6 Part B §4.5.1) */
    uint64_t event_len_ns;     /* longest connection event; 0 = interval - T_IFS */
    uint32_t max_pairs;        /* most PDU pairs (central+peripheral) per event; 0 = no cap */
    int same_event_reply;      /* replies may go in the same event (fast host), see MODEL.md */
    uint64_t start_close_ns;   /* close of the event before the first txn, from its anchor:
                                  a computation waiting before the first txn starts then */
    enum pqpan_ble_bits_ifs bits_ifs; /* T_IFS in the bits ledgers */
};

/* Device timing of one side for the per-event costs (events accounting), in the order an
 * event runs them (docs/MODEL.md "Connection-event phases"). */
struct pqpan_ble_device {
    uint32_t cpu_hz;          /* crypto cycles → ns */
    uint32_t hfxo_start_ns;   /* crystal start before each event */
    uint32_t ramp_ns;         /* radio ramp-up before the first packet of an event */
    uint32_t pre_ns;          /* CPU before the event (scheduling, radio set-up) */
    uint32_t post_ns;         /* CPU after the event (PDU processing) */
    uint32_t sca_ppm;         /* sleep clock accuracy (Vol 6 Part B §4.2.2) */
    uint32_t rx_margin_ns;    /* peripheral: receiver opened this long before the widened
                                 window (the controller's fixed margin) */
};

struct pqpan_profile; /* include/pqpan/energy.h */

/* Fills *dev from a device profile (pqpan_io_profile_* in include/pqpan/io.h loads one):
 * CPU clock, crystal start, radio ramp-up (normal mode when ramp_normal, else fast), the
 * event's CPU before and after, sleep clock accuracy (rounded to whole ppm) and the
 * receive margin. PQPAN_OK, or PQPAN_ERR_INVALID_ARG for a NULL pointer. */
PQPAN_MUST_CHECK int pqpan_ble_device_from_profile(struct pqpan_ble_device *dev,
                                                   const struct pqpan_profile *p,
                                                   int ramp_normal);

/* Counters the schedule produces, per side (index enum pqpan_ble_role). */
struct pqpan_ble_counts {
    uint64_t data_pdus_tx[2];  /* PDUs with a payload */
    uint64_t empty_pdus_tx[2]; /* empty PDUs (acknowledgements, idle events) */
    uint64_t events;           /* connection events with traffic (set-up and exchange) */
    uint64_t idle_events;      /* events with only empty PDUs (a side computes, an instant
                                  comes); the connection's first event is not counted */
    uint64_t setup_events;     /* connection events of the set-up after the first one
                                  (FEATURES .. DISCOVERY), idle ones included */
    uint64_t att_pdus[2];      /* L2CAP SDUs (ATT/SMP PDUs) sent */
    uint64_t llctrl_pdus[2];
    /* Timeline of the last pqpan_ble_schedule call, in ns from one interval before the
     * anchor its elapsed time started at (so the link's start_close_ns is at 0 + it). */
    uint64_t crypto_start_ns;  /* the first computation (a CRYPTO wait) starts */
    uint64_t crypto_end_ns;    /* the last computation ends */
    uint64_t last_close_ns;    /* close of the last event with data, from its anchor */
};

/* Schedules txns[0..n) in order over link; adds each side's radio time (TX/RX/IFS per
 * phase; with dev != NULL also the per-event HFXO, ramp, pre/post CPU and window
 * widening) to led[role] and bits[role] (PDU air time and T_IFS of non-idle events
 * only, the study's accounting), and the elapsed time to *elapsed_ns. Any pointer
 * except link/txns may be NULL. */
void pqpan_ble_schedule(struct pqpan_ledger led[2], struct pqpan_ledger bits[2],
                        struct pqpan_ble_counts *counts, uint64_t *elapsed_ns,
                        const struct pqpan_ble_link *link, const struct pqpan_ble_device *dev,
                        const struct pqpan_ble_txn *txns, uint32_t n);

/* ---- the analytic estimator (src/ble/estimate.c) ---- */

/* Which messages the exchange sends. */
enum pqpan_ble_protocol {
    PQPAN_BLE_PROTO_STUDY = 0, /* the study's prototype: raw ek, raw ct, no KDF, no confirmation */
    PQPAN_BLE_PROTO_PQPAN      /* pqpan's INIT / RESP / FIN with key schedule (pqke.h) */
};

struct pqpan_ble_config {
    enum pqpan_ble_protocol protocol;
    enum pqpan_ble_phy phy;
    uint32_t att_mtu;           /* 23..517 */
    uint32_t ll_octets;         /* 27..251; > 27 means DLE (LL_LENGTH_REQ/RSP) */
    uint32_t max_tx_time_us;    /* connMaxTxTime; 0 = what ll_octets needs on phy */
    /* How each GATT role sends its messages (the choices of pqpan_ble_transfer_choice):
     * the server notifies or indicates, the client writes; study on both roles for the
     * study's preset; one method on both for the model before issue 27 item 3, which
     * GATT cannot build (pqpan_ble_config_gatt_fault) but the estimator prices. */
    enum pqpan_ble_transfer server_transfer;
    enum pqpan_ble_transfer client_transfer;
    enum pqpan_ble_role gatt_server; /* the side holding the key-exchange service (the
                                        GATT server); the other is the client, which
                                        exchanges the ATT_MTU and runs the discovery.
                                        Default: the peripheral, as in the study */
    uint64_t ci_ns;
    uint64_t event_len_ns;      /* 0 = interval - T_IFS */
    uint32_t max_pairs;         /* 0 = no cap */
    int same_event_reply;
    enum pqpan_ble_role keygen_side;
    int encrypted;              /* PQKE over an already encrypted link (MIC on PDUs) */
    uint32_t ek_bytes;          /* KEM sizes (FIPS 203 Table 3 via kem.h) */
    uint32_t ct_bytes;
    /* The set-up before the exchange, events accounting (docs/MODEL.md "Set-up"): */
    uint64_t adv_interval_ns;   /* connectable advertising until connected at this advInterval
                                   (Vol 6 Part B §4.4.2.2: 20 ms .. 10485.759375 s in steps of
                                   0.625 ms); 0 = no advertising phase */
    int features;               /* LL feature exchange + version exchange */
    int conn_update;            /* the connection starts at idle_ci_ns and the central updates
                                   it to ci_ns (connection parameters request procedure) */
    uint64_t idle_ci_ns;        /* the connection's interval before the update */
    int discovery;              /* GATT discovery + the CCCD write, by the central */
    enum pqpan_ble_bits_ifs bits_ifs; /* T_IFS in the bits accounting (default each) */
    unsigned pqke_mode;         /* protocol pqpan: enum pqpan_pqke_mode (default none) */
    unsigned pqke_sig;          /* sig modes: the ML-DSA set, enum pqpan_sig_id of sig.h */
    int pqke_hybrid;            /* protocol pqpan: the P-256 + ML-KEM suite of the KEM */
};

struct pqpan_ble_estimate {
    struct pqpan_ledger ledger[2]; /* everything (events accounting), index = role */
    struct pqpan_ledger bits[2];   /* PDU bits + T_IFS of the exchange (bits accounting) */
    struct pqpan_ble_counts counts;
    uint32_t ll_octets_eff;        /* after the max TX time restriction */
    uint64_t latency_ns;           /* first crypto operation start .. last one end */
    uint64_t setup_ns;             /* the set-up before that: advertising .. discovery */
    uint64_t span_ns[PQPAN_PHASE_COUNT]; /* the time of each set-up phase, from the close of
                                            the event before it to the close of its last one
                                            (the exchange's phases: 0, see latency_ns) */
};

/* The connection events of an estimate, from the connection's first to the exchange's last:
 * counts.events + counts.idle_events + 1, the connection's first event, which the set-up
 * schedules in the connect phase and counts in neither (src/ble/setup.c connect(); the
 * simulator's conn_events counts it too: docs/MODEL.md "Connection events: the count").
 * The one definition behind every front end's conn_events. */
uint64_t pqpan_ble_conn_events(const struct pqpan_ble_estimate *est);

/* Estimates one PQKE: the set-up cfg asks for, KeyGen on keygen_side, ek transfer, Encaps on the
 * other side, ct transfer, Decaps (with protocol PQPAN_BLE_PROTO_PQPAN: INIT, RESP after
 * Encaps + KDF, FIN after Decaps + KDF), each message with its sender's method
 * (pqpan_ble_config_transfer). cycles[op] are the cycles of one execution. It prices what
 * GATT cannot build too (pqpan_ble_config_gatt_fault says so). Errors:
 * PQPAN_ERR_INVALID_ARG (out-of-range configuration, a study preset on one role only);
 * *out is zeroed. */
PQPAN_MUST_CHECK int pqpan_ble_estimate_pqke(struct pqpan_ble_estimate *out,
                                             const struct pqpan_ble_config *cfg,
                                             const struct pqpan_ble_device *dev,
                                             const uint64_t cycles[PQPAN_OP_COUNT]);

/* Estimates LE Secure Connections pairing (Vol 3 Part H §2.3.5.6, §3.5) followed by the
 * LL encryption start (Vol 6 Part B §5.1.3.1) on the same link, with P-256 key
 * generation and ECDH on each side. cfg's transfers, KEM sizes and keygen_side are unused. */
PQPAN_MUST_CHECK int pqpan_ble_estimate_lesc(struct pqpan_ble_estimate *out,
                                             const struct pqpan_ble_config *cfg,
                                             const struct pqpan_ble_device *dev,
                                             const uint64_t cycles[PQPAN_OP_COUNT]);

/* ---- the estimator with a memo (src/ble/estimate.c) ---- */

/* A memo of the set-ups, exchanges, plans and timings an estimator call computed, keyed on
 * their inputs, so that a sweep's neighbours (which share most of them) cost a look-up.
 * Its layout is private (src/ble/estimate_memo.h); the caller owns the storage, one per
 * thread (every call writes it). It holds no pointers, so it may be copied or zeroed
 * freely. Its size in 64-bit words is pinned by a static assert in the private header. */
#define PQPAN_BLE_ESTIMATE_CACHE_WORDS 189541u

struct pqpan_ble_estimate_cache {
    uint64_t opaque[PQPAN_BLE_ESTIMATE_CACHE_WORDS];
};

/* How the memo answered so far: hits / misses count the set-up's look-ups, exchange_hits /
 * exchange_misses the exchange's, exchange_mirrors the exchanges mirrored from the other
 * keygen side's. */
struct pqpan_ble_estimate_cache_stats {
    uint64_t hits, misses;
    uint64_t exchange_hits, exchange_misses;
    uint64_t exchange_mirrors;
    uint32_t setup_slots, exchange_slots; /* the slots it has for each */
};

void pqpan_ble_estimate_cache_stats(struct pqpan_ble_estimate_cache_stats *out,
                                    const struct pqpan_ble_estimate_cache *cache);

/* Empties the memo (a zeroed struct is empty too). */
void pqpan_ble_estimate_cache_init(struct pqpan_ble_estimate_cache *cache);

/* pqpan_ble_estimate_pqke / pqpan_ble_estimate_lesc with the set-up and the exchange taken
 * from the memo when an earlier call had the same inputs for them (and stored there
 * otherwise): *out is bit for bit what the plain functions give (tests/unit/test_ble_cache.c
 * checks it over grids of every PHY, LL size, ATT_MTU, transfer, GATT server, interval, KEM,
 * protocol, side, set-up variant and device timing). cache NULL: no memo, the plain
 * functions. */
PQPAN_MUST_CHECK int pqpan_ble_estimate_pqke_cached(struct pqpan_ble_estimate *out,
                                                    const struct pqpan_ble_config *cfg,
                                                    const struct pqpan_ble_device *dev,
                                                    const uint64_t cycles[PQPAN_OP_COUNT],
                                                    struct pqpan_ble_estimate_cache *cache);
PQPAN_MUST_CHECK int pqpan_ble_estimate_lesc_cached(struct pqpan_ble_estimate *out,
                                                    const struct pqpan_ble_config *cfg,
                                                    const struct pqpan_ble_device *dev,
                                                    const uint64_t cycles[PQPAN_OP_COUNT],
                                                    struct pqpan_ble_estimate_cache *cache);

/* The same estimates without the copy: *out points to the memo's own estimate,
 * which stays valid until the next call with this memo, and which only the fields that
 * differ from the previous estimate's were rewritten in (a sweep's neighbours share the
 * set-up, often the exchange). On an error *out is NULL. cache must not be NULL. */
PQPAN_MUST_CHECK int pqpan_ble_estimate_pqke_memo(const struct pqpan_ble_estimate **out,
                                                  const struct pqpan_ble_config *cfg,
                                                  const struct pqpan_ble_device *dev,
                                                  const uint64_t cycles[PQPAN_OP_COUNT],
                                                  struct pqpan_ble_estimate_cache *cache);
PQPAN_MUST_CHECK int pqpan_ble_estimate_lesc_memo(const struct pqpan_ble_estimate **out,
                                                  const struct pqpan_ble_config *cfg,
                                                  const struct pqpan_ble_device *dev,
                                                  const uint64_t cycles[PQPAN_OP_COUNT],
                                                  struct pqpan_ble_estimate_cache *cache);

/* Fills cfg with the defaults of include/pqpan/defaults.h (the rows of --protocol, --kem's
 * sizes, --phy, --att-mtu, --ll-octets, --transfer, --ci-ms, --max-pdus-per-event,
 * --reply, --keygen-side, --gatt-server, --auth, --hybrid and the set-up's --adv-interval-ms,
 * --features, --conn-update, --initial-ci-ms (idle_ci_ns), --discovery): the study's link
 * (1M, ATT_MTU 403, LL 27, study transfer, 50 ms, KeyGen on the peripheral, the
 * peripheral the GATT server) with pqpan's
 * protocol in mode none; unencrypted, events as long as the interval allows
 * (event_len_ns 0), no TX time limit. */
void pqpan_ble_config_default(struct pqpan_ble_config *cfg);

/* ---- who sends what over GATT (src/ble/att.c) ---- */

/* The method of the messages `sender` sends: server_transfer when it is the GATT server,
 * else client_transfer (the study preset as it is: its framing follows the message). */
enum pqpan_ble_transfer pqpan_ble_config_transfer(const struct pqpan_ble_config *cfg,
                                                  enum pqpan_ble_role sender);

/* The ATT procedure of those messages: pqpan_ble_config_transfer with the study preset
 * resolved (the KeyGen side's messages by indications, the other side's by Write
 * Requests); never PQPAN_BLE_STUDY. */
enum pqpan_ble_transfer pqpan_ble_config_procedure(const struct pqpan_ble_config *cfg,
                                                   enum pqpan_ble_role sender);

/* Which GATT rule a PQKE's messages break (Vol 3 Part G §2.2): both sides send messages,
 * each with its procedure (pqpan_ble_config_procedure), which must be one its GATT role
 * sends. LE SC's pairing is SMP, no GATT message: ask only for a PQKE. */
enum pqpan_ble_gatt_fault {
    PQPAN_BLE_GATT_OK = 0,
    PQPAN_BLE_GATT_SERVER_WRITES,   /* the server's messages would be writes, which only a
                                       client sends (§4.9) */
    PQPAN_BLE_GATT_CLIENT_NOTIFIES  /* the client's would be notifications or indications,
                                       which only a server sends (§4.10, §4.11) */
};

/* The fault of the first side that breaks a rule, the KeyGen side first (its message goes
 * first), that side in *side (when not NULL; left alone for PQPAN_BLE_GATT_OK). */
enum pqpan_ble_gatt_fault pqpan_ble_config_gatt_fault(const struct pqpan_ble_config *cfg,
                                                      enum pqpan_ble_role *side);

/* ---- whether a configuration's link can hold (src/ble/estimate.c) ---- */

/* The first rule a configuration's link timing breaks. The estimator books at least one
 * PDU pair per event whatever the event length, so it returns figures for a link that
 * cannot exist; pqpan_sim_init refuses such a link (pqpan_ble_config_fault), and so do
 * the CLI's estimate and simulate before any work. */
enum pqpan_ble_config_fault {
    PQPAN_BLE_CONFIG_OK = 0,
    PQPAN_BLE_CONFIG_RANGE,     /* PHY, LL octets or interval outside their ranges */
    PQPAN_BLE_CONFIG_CI_STEP,   /* ci_ns not a multiple of 1.25 ms (Vol 6 Part B §4.5.1) */
    PQPAN_BLE_CONFIG_IDLE_CI_STEP, /* idle_ci_ns (with conn_update) not one either */
    PQPAN_BLE_CONFIG_EVENT_LEN, /* event_len_ns longer than the interval: an event would
                                   still run at the next one's anchor (§4.5.1) */
    PQPAN_BLE_CONFIG_PAIR       /* the longest PDU pair (pqpan_ble_config_pair_ns) is longer
                                   than an event (pqpan_ble_config_event_ns) */
};

enum pqpan_ble_config_fault pqpan_ble_config_fault(const struct pqpan_ble_config *cfg);

/* The longest connection event of cfg's exchange: event_len_ns, or the interval minus
 * T_IFS when it is 0. */
uint64_t pqpan_ble_config_event_ns(const struct pqpan_ble_config *cfg);

/* The exchange's LL payload: ll_octets, or fewer when max_tx_time_us limits the packet
 * (Vol 6 Part B §4.5.10, pqpan_ble_payload_for_time). */
uint32_t pqpan_ble_config_ll_octets(const struct pqpan_ble_config *cfg);

/* The shortest PDU pair that carries the longest data PDU of cfg's exchange
 * (docs/MODEL.md "Connection events"): a data PDU of the effective LL payload
 * (pqpan_ble_config_ll_octets, with the MIC when encrypted), T_IFS, and an empty PDU
 * (the other side's data waits for the next event when it does not fit too). cfg's PHY
 * and LL octets must be in range. */
uint64_t pqpan_ble_config_pair_ns(const struct pqpan_ble_config *cfg);

/* ---- set-up and link switches (src/ble/setup.c) ------------------------------------ */

/* Advertising (Vol 6 Part B §4.4.2.2): T_advEvent = advInterval + advDelay, advDelay a
 * pseudo-random value in 0..10 ms per event; advInterval 20 ms .. 10485.759375 s in steps
 * of 0.625 ms. The primary channels are 37, 38, 39 (§1.4.1). */
#define PQPAN_BLE_ADV_DELAY_MAX_NS 10000000u
#define PQPAN_BLE_ADV_INTERVAL_MIN_NS 20000000u
#define PQPAN_BLE_ADV_INTERVAL_MAX_NS UINT64_C(10485759375000)
#define PQPAN_BLE_ADV_INTERVAL_STEP_NS 625000u
#define PQPAN_BLE_ADV_FIRST_CHANNEL 37u
#define PQPAN_BLE_ADV_MEAN_CHANNEL 38u
/* ADV_IND payload (Vol 6 Part B §2.3.1.1): AdvA 6 + AdvData of the study's peripheral as
 * pqpan models it: Flags (3: Length, AD Type 0x01, flags) + Complete List of 128-bit Service
 * UUIDs (18: Length, AD Type 0x07, the service's UUID) (Vol 3 Part C §11; CSS Part A §1.1,
 * §1.3) = 27 octets. */
#define PQPAN_BLE_ADV_IND_PAYLOAD 27u
/* After each ADV_IND the advertiser listens for a SCAN_REQ / CONNECT_IND, which would start
 * T_IFS ± 2 µs after the ADV_IND's end (§4.1.1, §4.2.1): after T_IFS (booked as IFS) its
 * receiver stays open (RX_WINDOW) for the tolerance both ways and a request's preamble and
 * access address on LE 1M (§2.1), as a connection event's unanswered listen (idle.c):
 * 2 · 2 + 40 = 44 µs. */
uint64_t pqpan_ble_adv_listen_ns(void);

/* The expected case of the advertising phase (docs/MODEL.md "Advertising"). Assumption:
 * the central starts scanning continuously (scan window = scan interval) on one primary
 * channel at a moment uniformly distributed over the advertiser's events, whose advDelay
 * is uniform in 0..10 ms; no packet is lost. The wait W from the moment the scanner
 * listens to the ADV_IND on its channel is the stationary residual of T_advEvent:
 * E[W] = E[T²] / (2·E[T]) = E[T]/2 + 10²/(24·E[T]) ms, E[T] = advInterval + 5 ms. The
 * scanner's channel is on average the event's second (channel 38 for the order 37, 38, 39;
 * the mean is the same for a randomized order). Every cost of the phase is linear in W and
 * in the channel's position, so the phase of this one case is the expected phase; only the
 * case of a scan starting inside the answered event before its own ADV_IND (probability
 * under (event length) / E[T]) is not corrected for. */
void pqpan_ble_adv_mean(uint64_t adv_interval_ns, uint8_t *scan_channel, uint64_t *wait_ns);

/* Link settings a switch changes. */
struct pqpan_ble_link_settings {
    enum pqpan_ble_phy phy;
    uint32_t ll_octets; /* connMaxTxOctets both ways, 27..251 (27: no data length extension) */
    uint64_t ci_ns;     /* connInterval, PQPAN_BLE_CI_MIN_NS .. PQPAN_BLE_CI_MAX_NS */
};

/* The cost of switching a connection from link settings `from` to `to`, each procedure
 * initiated by the central and only when its setting changes, in this order:
 *  - CONN_UPDATE (interval): connection parameters request procedure (Vol 6 Part B
 *    §5.1.7): LL_CONNECTION_PARAM_REQ (24 octets) / LL_CONNECTION_PARAM_RSP (24) /
 *    LL_CONNECTION_UPDATE_IND (12) at the old interval, 5 idle events, then the event at
 *    the instant (6 events after the LL_CONNECTION_UPDATE_IND's, §5.5), the first at the
 *    new interval, which comes one old interval after the one before (§5.1.1);
 *  - PHY_UPDATE (PHY): LL_PHY_REQ (3) / LL_PHY_RSP (3) / LL_PHY_UPDATE_IND (5) on the old
 *    PHY, 5 idle events, the instant's event on the new PHY (§5.1.10);
 *  - LENGTH_UPDATE (LL octets): LL_LENGTH_REQ / LL_LENGTH_RSP (9 each, §5.1.9) on the new
 *    PHY.
 * A request's response comes in the next event (in the same one with same_event_reply,
 * as for the exchange's PDUs), and a procedure completes when its instant has passed, so
 * the next one starts in the event after it. Adds each side's time (per-event costs with
 * dev != NULL) to led[role] in the procedure's phase, SLEEP so that each phase adds up to
 * its span, the spans to span_ns[phase] and the events to counts. counts->last_close_ns is
 * the close of the event before the switch (from its anchor) on entry and of its last event
 * on return. For "optimise the link for the exchange, then switch back" call it for A → B
 * before the exchange and B → A after. PQPAN_ERR_INVALID_ARG for settings out of range. */
PQPAN_MUST_CHECK int pqpan_ble_link_switch(struct pqpan_ledger led[2],
                                           struct pqpan_ble_counts *counts,
                                           uint64_t span_ns[PQPAN_PHASE_COUNT],
                                           const struct pqpan_ble_link_settings *from,
                                           const struct pqpan_ble_link_settings *to,
                                           int same_event_reply,
                                           const struct pqpan_ble_device *dev);

/* The service a set-up's peripheral advertises and its GATT client discovers, as data: the
 * ADV_IND's payload and the discovery's ATT requests and responses in the order the client
 * sends them, the CCCD write last (each request answered in the next event, or the same
 * one with same_event_reply). */
#define PQPAN_BLE_DISCOVERY_STEPS_MAX 8u
struct pqpan_ble_att_step {
    uint32_t req; /* the client's request, ATT PDU octets (Vol 3 Part F §3.4) */
    uint32_t rsp; /* the server's response, ATT PDU octets */
};
struct pqpan_ble_service {
    uint32_t adv_ind_payload; /* ADV_IND payload: AdvA 6 + AdvData 0..31 (Vol 6 Part B
                                 §2.3.1.1) */
    uint32_t n_discovery;     /* 0 .. PQPAN_BLE_DISCOVERY_STEPS_MAX */
    struct pqpan_ble_att_step discovery[PQPAN_BLE_DISCOVERY_STEPS_MAX];
};

/* svc = an ADV_IND payload of adv_ind_payload octets and the discovery steps[0..n) (n at
 * most PQPAN_BLE_DISCOVERY_STEPS_MAX; with more, svc is out of range: pqpan_ble_setup
 * refuses it). */
void pqpan_ble_service_init(struct pqpan_ble_service *svc, uint32_t adv_ind_payload,
                            const struct pqpan_ble_att_step *steps, uint32_t n);

/* The study's service (docs/MODEL.md "Set-up"): ADV_IND of PQPAN_BLE_ADV_IND_PAYLOAD
 * octets, the discovery of one primary service with a 128-bit UUID, its one characteristic
 * and its CCCD (the PQPAN_ATT_*_BYTES sizes below), then the CCCD write. */
void pqpan_ble_service_study(struct pqpan_ble_service *svc);

/* The set-up cfg asks for (advertising, connection, feature exchange, link switch, ATT_MTU
 * exchange, discovery: what pqpan_ble_estimate_pqke books before the exchange) with svc's
 * advertising payload and discovery, into *out: each side's ledger in the set-up's phases,
 * counts (last_close_ns the close of its last event, from its anchor, where an exchange
 * continues: struct pqpan_ble_link's start_close_ns), span_ns and setup_ns; the rest 0.
 * Errors (*out zeroed): PQPAN_ERR_INVALID_ARG (NULL, a link out of range:
 * pqpan_ble_config_fault, a service out of range). */
PQPAN_MUST_CHECK int pqpan_ble_setup(struct pqpan_ble_estimate *out,
                                     const struct pqpan_ble_config *cfg,
                                     const struct pqpan_ble_device *dev,
                                     const struct pqpan_ble_service *svc);

/* GATT discovery and CCCD write PDU sizes (Vol 3 Part F §3.4) on the study's server: one
 * primary service with a 128-bit UUID, one characteristic, its CCCD. */
#define PQPAN_ATT_FIND_BY_TYPE_REQ_BYTES 23u /* §3.4.3.3: opcode, 2 handles, type, UUID 16 */
#define PQPAN_ATT_FIND_BY_TYPE_RSP_BYTES 5u  /* §3.4.3.4: opcode, found handle, group end */
#define PQPAN_ATT_ERROR_RSP_BYTES 5u         /* §3.4.1.1: opcode, request, handle, code */
#define PQPAN_ATT_READ_BY_TYPE_REQ_BYTES 7u  /* §3.4.4.1: opcode, 2 handles, UUID 2 */
#define PQPAN_ATT_READ_BY_TYPE_RSP_BYTES 23u /* §3.4.4.2: opcode, length, handle 2 +
                                                declaration: properties 1, handle 2, UUID 16 */
#define PQPAN_ATT_FIND_INFO_REQ_BYTES 5u     /* §3.4.3.1: opcode, 2 handles */
#define PQPAN_ATT_FIND_INFO_RSP_BYTES 6u     /* §3.4.3.2: opcode, format, handle, UUID 2 */
#define PQPAN_ATT_CCCD_WRITE_REQ_BYTES 5u    /* §3.4.5.1: opcode, handle, value 2 */

/* ---- per-event costs of the link model (src/ble/ble_event.c) ---------------------- */

/* Adds `events` connection events' fixed costs of one side (ble.h struct
 * pqpan_ble_device): CPU pre-processing (PRE), HFXO start, radio ramp-up (TX for the
 * central, RX for the peripheral), the peripheral's early receive window (RX_WINDOW:
 * window widening + the fixed margin) and CPU post-processing (POST). */
void pqpan_ble_event_costs(struct pqpan_ledger *l, enum pqpan_phase ph,
                           const struct pqpan_ble_device *d, uint64_t ci_ns,
                           enum pqpan_ble_role role, uint64_t events);
/* Vol 6 Part B §4.2.4: the peripheral widens its receive window by (centralSCA +
 * peripheralSCA)/10^6 × the time since the last anchor; both ends use d's SCA. */
uint64_t pqpan_ble_event_widening_ns(const struct pqpan_ble_device *d, uint64_t ci_ns);

/* The peripheral's receiver time before the central's first packet of an event whose
 * last anchor heard lies since_anchor_ns back: widening + the fixed margin. */
uint64_t pqpan_ble_event_rx_window_ns(const struct pqpan_ble_device *d,
                                      uint64_t since_anchor_ns);

/* How long before its anchor a connection event at interval ci_ns takes side role's CPU
 * and radio: pre-processing, crystal start, ramp-up and, on the peripheral, the receive
 * window (the states pqpan_ble_event_costs books before the anchor). Until the event's
 * post-processing ends, the application's computations are suspended (docs/MODEL.md
 * "Connection events", Waits). */
uint64_t pqpan_ble_event_lead_ns(const struct pqpan_ble_device *d, uint64_t ci_ns,
                                 enum pqpan_ble_role role);

/* ---- an idle connection (src/ble/idle.c; docs/MODEL.md "Idle connection") -------- */

/* Vol 6 Part B §4.5.2: connSupervisionTimeout is at most 32 s and must exceed
 * (1 + connPeripheralLatency) × connInterval × 2, so one latency period stays below 16 s. */
#define PQPAN_BLE_IDLE_PERIOD_MAX_NS 16000000000ull
/* Vol 4 Part E §7.8.12 (HCI LE Create Connection, Max_Latency): 0 .. 0x01F3. */
#define PQPAN_BLE_LATENCY_MAX 499u
/* Vol 6 Part B §4.2.1: a packet answering another starts T_IFS ± 2 µs after it. */
#define PQPAN_BLE_T_IFS_TOLERANCE_NS 2000u

struct pqpan_ble_idle_config {
    enum pqpan_ble_phy phy;
    uint64_t ci_ns;   /* connection interval, 7.5 ms .. 4 s */
    uint32_t latency; /* connPeripheralLatency: events the peripheral may skip */
};

/* One latency period ((latency + 1) intervals) of a connection with nothing to send: the
 * central sends an empty PDU at every anchor; the peripheral wakes at one anchor of the
 * period and answers it (Vol 6 Part B §4.5.1). ledger[role] holds that side's time in
 * phase IDLE, sleep included, so it sums to period_ns. */
struct pqpan_ble_idle {
    struct pqpan_ledger ledger[2];
    uint64_t period_ns;
    uint32_t events[2];         /* events each side wakes for in the period */
    uint32_t unanswered_events; /* central events with no answer (the peripheral skips) */
};

/* Fills *out. Per event each side pays the per-event costs of dev (pre-processing, HFXO
 * start, ramp-up, post-processing; the peripheral its receive window, widened over the
 * whole period); an answered event is empty PDU, T_IFS, empty PDU; an unanswered one is
 * the central's empty PDU, T_IFS and a receive window of ±T_IFS tolerance plus one
 * preamble + access address (then it gives up). Errors: PQPAN_ERR_INVALID_ARG (NULL,
 * PHY, interval or latency out of range, a period of 16 s or more, a receive window
 * wider than the Core allows: widening ≥ connInterval/2 − T_IFS, §4.2.4); *out zeroed. */
PQPAN_MUST_CHECK int pqpan_ble_idle(struct pqpan_ble_idle *out,
                                    const struct pqpan_ble_idle_config *cfg,
                                    const struct pqpan_ble_device *dev);

#endif
