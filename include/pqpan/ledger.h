/* The ledger: integer nanoseconds per node, per phase of the exchange, per power state,
 * plus the crypto operations the node executed (DESIGN.md "Energy model"; the idea is
 * Contiki-NG's energest, without its global array: the caller owns every ledger).
 *
 * The link model / estimator / simulator fill ledgers; src/energy turns a ledger, a device
 * profile and the γ factors into energy. Nothing here knows about currents. */
#ifndef PQPAN_LEDGER_H
#define PQPAN_LEDGER_H

#include <stdint.h>

/* Power states. Radio states follow the nRF52840 RADIO state machine
 * (nRF52840 PS v1.7 §6.20.5: TXRU/RXRU ramp-up, TX, RX, DISABLED). */
enum pqpan_state {
    PQPAN_STATE_SLEEP = 0,   /* System ON, RTC running, RAM retained, radio and HFXO off */
    PQPAN_STATE_CPU,         /* CPU running from flash with HFXO on, radio off */
    PQPAN_STATE_HFXO_START,  /* 64 MHz crystal starting before a radio event */
    PQPAN_STATE_RAMP_TX,     /* radio ramping up to TX (TXRU) */
    PQPAN_STATE_RAMP_RX,     /* radio ramping up to RX (RXRU) */
    PQPAN_STATE_TX,          /* transmitting PHY bits */
    PQPAN_STATE_RX,          /* receiving PHY bits, window widening and idle listening */
    PQPAN_STATE_IFS,         /* inter-frame space between a PDU and its reply (T_IFS) */
    PQPAN_STATE_PRE,         /* CPU pre-processing of a radio event (stack, radio set-up) */
    PQPAN_STATE_POST,        /* CPU post-processing of a radio event (PDU bookkeeping) */
    PQPAN_STATE_RX_WINDOW,   /* receiver open before a packet: window widening + margin */
    PQPAN_STATE_COUNT
};

/* Phases of a connection's life around one key establishment, in the order they happen
 * (docs/MODEL.md "Link model": set-up, exchange). The set-up phases before KEY_TRANSFER
 * belong to the events accounting only; the bits accounting (the study's) sees
 * KEY_TRANSFER and CONFIRM. */
enum pqpan_phase {
    PQPAN_PHASE_ADVERTISE = 0, /* connectable advertising until the CONNECT_IND */
    PQPAN_PHASE_CONNECT,       /* connection set-up (CONNECT_IND to the first event) */
    PQPAN_PHASE_FEATURES,      /* LL feature exchange + version exchange */
    PQPAN_PHASE_CONN_UPDATE,   /* connection parameters request / update to the exchange's */
    PQPAN_PHASE_PHY_UPDATE,    /* LL_PHY_REQ/RSP, LL_PHY_UPDATE_IND and its instant */
    PQPAN_PHASE_LENGTH_UPDATE, /* LL_LENGTH_REQ/RSP (data length update) */
    PQPAN_PHASE_MTU_EXCHANGE,  /* ATT Exchange MTU (or an L2CAP credit-based channel's set-up) */
    PQPAN_PHASE_DISCOVERY,     /* GATT service / characteristic / descriptor discovery, CCCD write */
    PQPAN_PHASE_KEY_TRANSFER,  /* the key-exchange messages (ek, ct, tags) on the air */
    PQPAN_PHASE_CRYPTO,        /* KeyGen / Encaps / Decaps / KDF / ECDH on the CPU */
    PQPAN_PHASE_CONFIRM,       /* key confirmation / LL encryption start */
    PQPAN_PHASE_IDLE,          /* an idle connection / a sleepy node's polls (`pqpan idle`) */
    PQPAN_PHASE_COUNT
};

/* Crypto operations whose cycles come from a cycle table (data/cycles/). */
enum pqpan_op {
    PQPAN_OP_KEM_KEYGEN = 0,
    PQPAN_OP_KEM_ENCAPS,
    PQPAN_OP_KEM_DECAPS,
    PQPAN_OP_KDF,          /* key schedule + confirmation tags (SHA-3 based) */
    PQPAN_OP_ECDH_KEYGEN,  /* classical baseline: P-256 key generation */
    PQPAN_OP_ECDH_SHARED,  /* classical baseline: P-256 ECDH incl. public-key validation */
    PQPAN_OP_SIG_KEYGEN,   /* ML-DSA (FIPS 204) key generation */
    PQPAN_OP_SIG_SIGN,     /* ML-DSA signing: the mean over messages of a rejection loop */
    PQPAN_OP_SIG_VERIFY,   /* ML-DSA verification */
    PQPAN_OP_COUNT
};

struct pqpan_ledger {
    uint64_t ns[PQPAN_PHASE_COUNT][PQPAN_STATE_COUNT];
    uint64_t op_count[PQPAN_OP_COUNT];
    uint64_t op_cycles[PQPAN_OP_COUNT]; /* total cycles spent in each op */
    uint64_t pdus_tx;                   /* link-layer PDUs sent, ACK/empty PDUs included */
    uint64_t pdus_rx;                   /* link-layer PDUs received */
    uint64_t bytes_tx;                  /* PHY bytes sent (preamble .. CRC) */
    uint64_t bytes_rx;
    uint64_t events;                    /* connection events (or CSMA attempts) taken part in */
};

void pqpan_ledger_init(struct pqpan_ledger *l);

/* Adds ns nanoseconds in a state during a phase. */
void pqpan_ledger_add(struct pqpan_ledger *l, enum pqpan_phase phase, enum pqpan_state state,
                      uint64_t ns);

/* Records one execution of op costing cycles; the caller adds its CPU time separately. */
void pqpan_ledger_add_op(struct pqpan_ledger *l, enum pqpan_op op, uint64_t cycles);

/* Sum of the ledger's time in a state over all phases, and in a phase over all states. */
uint64_t pqpan_ledger_state_ns(const struct pqpan_ledger *l, enum pqpan_state state);
uint64_t pqpan_ledger_phase_ns(const struct pqpan_ledger *l, enum pqpan_phase phase);

/* a += b, field by field (e.g. total = peripheral + central). */
void pqpan_ledger_accumulate(struct pqpan_ledger *a, const struct pqpan_ledger *b);

/* Stable lower-case names for output field names: "sleep", "cpu", "hfxo_start",
 * "ramp_tx", "ramp_rx", "tx", "rx", "ifs", "event_pre", "event_post", "rx_window";
 * "advertise", "connect", "features", "conn_update", "phy_update", "length_update",
 * "mtu_exchange", "discovery", "key_transfer", "crypto", "confirm", "idle"; "kem_keygen",
 * "kem_encaps", "kem_decaps", "kdf", "ecdh_keygen", "ecdh_shared", "sig_keygen",
 * "sig_sign", "sig_verify". */
const char *pqpan_state_name(enum pqpan_state s);
const char *pqpan_phase_name(enum pqpan_phase p);
const char *pqpan_op_name(enum pqpan_op op);

#endif
