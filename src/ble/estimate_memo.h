/* The estimator's memo (src/ble/estimate.c): its layout, private to src/ble. The public
 * header ble.h declares struct pqpan_ble_estimate_cache by its size only, so the caller
 * owns the storage (the library never allocates) while the slots below can change without
 * changing the API; the static asserts at the end keep that size honest. */
#ifndef PQPAN_BLE_ESTIMATE_MEMO_H
#define PQPAN_BLE_ESTIMATE_MEMO_H

#include <stdint.h>

#include "pqpan/ble.h"


/* The set-up before the exchange (advertising .. discovery, pqpan_ble_setup_run's part of
 * an estimate) depends only on the link settings it switches between (PHY, interval, the
 * opening interval, whether the LL payload or the ATT_MTU is raised), the set-up flags,
 * the advertising interval, same_event_reply, which side is the GATT client (it exchanges
 * the ATT_MTU and runs the discovery) and the device's per-event timing; not on the KEM,
 * the transfer methods, the keygen side, the cycles or the bits accounting. A
 * sweep has few distinct set-ups, so a memo keyed on those inputs spares all but the
 * first of each. Internal to estimate.c; the caller only owns the storage. */
#define PQPAN_BLE_SETUP_KEY_WORDS 8u
#define PQPAN_BLE_ESTIMATE_CACHE_SLOTS 128u

struct pqpan_ble_setup_memo {
    uint64_t key[PQPAN_BLE_SETUP_KEY_WORDS];
    int valid;
    uint64_t stamp;                /* when it was stored (the cache's store count) */
    struct pqpan_ledger ledger[2]; /* the estimate's fields the set-up writes */
    struct pqpan_ble_counts counts;
    uint64_t span_ns[PQPAN_PHASE_COUNT];
    uint64_t setup_ns;
};

/* The exchange after the set-up (KEY_TRANSFER, CRYPTO and CONFIRM: the schedule of the
 * messages, the crypto, the sleep that fills the latency) depends only on the link it
 * runs on (PHY, the LL octets its PDUs are cut at, interval, event rules, bits
 * accounting), where the set-up's last event closed, the messages (protocol, PQKE mode,
 * KEM sizes, the method of each side's messages, ATT_MTU, keygen side, encryption), the
 * cycles and CPU clock of the
 * operations it runs and the device's per-event timing; not on the advertising or the
 * set-up flags. Two configurations that differ elsewhere (the set-up, or options of the
 * energy model only) share it, and so do the methods that send the same PDUs (notify
 * and write-cmd, indicate and write-req), the LL sizes that all carry its largest PDU
 * whole (ATT_MTU 23: every LL size above 27) and, for LE SC, every KEM, transfer and
 * side. A memo slot holds what the exchange adds to an estimate: the tail of each ledger
 * from phase KEY_TRANSFER on (the exchange's phases, the operations and the totals), the
 * counts it adds and the latency. */
#define PQPAN_BLE_EXCHANGE_KEY_WORDS 8u
#define PQPAN_BLE_EXCHANGE_CACHE_SLOTS 512u

/* The device timing and the cycles an exchange reads (the other operations' cycles
 * zeroed), as a number: a key holds that number instead of the 13 words it stands for.
 * The memo keeps the last few timings it numbered; a timing not among them gets a new
 * number (numbers are never reused, so a slot keyed by a forgotten timing never matches
 * again). */
#define PQPAN_BLE_TIMING_SLOTS 4u

struct pqpan_ble_timing_memo {
    uint64_t dev[4]; /* the struct pqpan_ble_device's fields, two to a word */
    uint64_t cycles[PQPAN_OP_COUNT];
    enum pqpan_op first, last; /* the operations it was last matched for */
    uint64_t id; /* 0: empty */
};

/* What an exchange sends and computes, from the configuration's messages, the device's
 * clock and the cycles alone (not the link): its transactions, and the operations each
 * side books (their count, cycles and CPU time). The memo keeps plans keyed by the
 * first PQPAN_BLE_PLAN_KEY_WORDS words of an exchange's key, as a sweep re-plans the same
 * messages for every PHY, LL size and interval. */
#define PQPAN_BLE_PLAN_TXN_MAX (4 * PQPAN_BLE_TXN_MAX + 1) /* four messages and a wait */
#define PQPAN_BLE_PLAN_KEY_WORDS 4u
#define PQPAN_BLE_PLAN_CACHE_SLOTS 64u

struct pqpan_ble_crypto_book {
    uint64_t op_count[PQPAN_OP_COUNT];
    uint64_t op_cycles[PQPAN_OP_COUNT];
    uint64_t cpu_ns; /* phase CRYPTO, state CPU */
};

struct pqpan_ble_plan {
    struct pqpan_ble_txn t[PQPAN_BLE_PLAN_TXN_MAX];
    uint32_t n;
    struct pqpan_ble_crypto_book book[2]; /* central, peripheral */
};

/* A plan's transactions as LL PDUs on one link (src/ble/conn.c): what of the schedule
 * depends on the PHY, the LL octets and the transactions alone, not on the interval, the
 * event rules or where the previous run ended. A sweep runs one plan over many intervals
 * and event rules on each link, so the memo keeps each plan's last shaping beside it
 * (shaped_link: the link it was shaped for). Internal to src/ble. */
struct pqpan_ble_shape {   /* one message: its fragments, air time and octets on the air */
    uint32_t count;        /* fragments, the first count-1 carrying `full` octets */
    uint32_t full;
    uint64_t ns;
    uint64_t octets;
    uint64_t full_ns;      /* air time of one full fragment */
    uint64_t last_ns;      /* air time of the last fragment */
};

struct pqpan_ble_shaped_txn {
    struct pqpan_ble_shape a, b, rsp; /* count-1 messages, the last, each reply (zero when
                                         unconfirmed) */
    int b_is_a;                       /* the last message is as long as the others (the
                                         txn's last_len == len, kept here: reading it from
                                         the txn made bench_estimate 4 % slower) */
    uint64_t n_req, n_rsp;            /* data PDUs of the messages, of the replies */
    uint64_t biggest_ns;              /* the longest fragment's air time */
};

/* The air the runs of a schedule send, summed per phase (ph[p] in use when bit p of used
 * is set) and in total: the TX time, pairs, data PDUs, octets and messages follow from the
 * shapes alone (the events, from the timeline, are summed apart). */
struct pqpan_ble_phase_air {
    uint64_t tx_ns[2]; /* each side's air time in txn runs */
    uint64_t pairs;    /* of txn runs */
};

struct pqpan_ble_air_sums {
    uint32_t used;
    uint32_t n_used;                             /* the phases in use, in the order first */
    unsigned char order[PQPAN_PHASE_COUNT];      /* used (so booking visits only those) */
    struct pqpan_ble_phase_air ph[PQPAN_PHASE_COUNT];
    uint64_t pairs;               /* total of the phases */
    uint64_t data_tx[2];          /* data PDUs per side */
    uint64_t data_octets[2];      /* their octets on the air */
    uint64_t sdus[2][2];          /* [LL control][side]: messages sent */
};

struct pqpan_ble_shaped {
    struct pqpan_ble_air_sums air; /* the runs' air */
    uint32_t n;
    struct pqpan_ble_shaped_txn x[PQPAN_BLE_PLAN_TXN_MAX];
};

struct pqpan_ble_plan_memo {
    uint64_t key[PQPAN_BLE_PLAN_KEY_WORDS];
    int valid;
    int rc; /* PQPAN_OK, or why the messages do not fit the configuration */
    struct pqpan_ble_plan plan;
    uint64_t shaped_link; /* PHY and LL octets of `shaped`; 0: none */
    struct pqpan_ble_shaped shaped;
};

/* A ledger's part from phase KEY_TRANSFER on, field for field: the exchange's phases
 * (KEY_TRANSFER, CRYPTO, CONFIRM; an estimate never writes IDLE), the operations, the
 * totals. */
#define PQPAN_BLE_EXCHANGE_PHASES (PQPAN_PHASE_CONFIRM - PQPAN_PHASE_KEY_TRANSFER + 1)

struct pqpan_ble_ledger_tail {
    uint64_t ns[PQPAN_BLE_EXCHANGE_PHASES][PQPAN_STATE_COUNT];
    uint64_t op_count[PQPAN_OP_COUNT];
    uint64_t op_cycles[PQPAN_OP_COUNT];
    uint64_t totals[5]; /* pdus_tx, pdus_rx, bytes_tx, bytes_rx, events */
};

/* The work of the last PQKE planned (its steps' operations and its messages' sizes): a
 * function of the protocol, the KEM sizes, the PQKE mode, the ML-DSA set and the hybrid
 * flag only, and a sweep varies those outermost, so one slot spares re-deriving it
 * (pqpan_pqke_steps_of, pqpan_pqke_message_sizes) on every exchange the memo computes.
 * Internal to estimate.c. */
#define PQPAN_BLE_WORK_STEPS 4u /* INIT, RESP, FIN, AFTER_FIN (src/common/pqke_steps.h) */

struct pqpan_ble_work_memo {
    uint32_t key[4];
    int valid;
    unsigned ops[PQPAN_BLE_WORK_STEPS][PQPAN_OP_COUNT];
    uint32_t msg_bytes[4]; /* INIT (ek), RESP (ct), FIN (0 in the study's protocol), REVEAL
                              (numeric; else 0) */
    /* the CPU times of the work for the clock cpu_hz and the cycles of the operations it
     * reads (times_valid: computed for this work) */
    int times_valid;
    uint32_t cpu_hz;
    uint64_t cycles[PQPAN_OP_COUNT];
    uint64_t ns[PQPAN_OP_COUNT];                /* one execution of each operation */
    uint64_t step_ns[PQPAN_BLE_WORK_STEPS];     /* each step */
};

/* A bits ledger's part from phase KEY_TRANSFER on: the exchange's PDUs alone (TX, RX and
 * IFS of its phases) and the totals; the schedule writes nothing else there, so its other
 * states and its operations stay 0. */
#define PQPAN_BLE_BITS_STATES 3u /* TX, RX, IFS */

struct pqpan_ble_bits_tail {
    uint64_t ns[PQPAN_BLE_EXCHANGE_PHASES][PQPAN_BLE_BITS_STATES];
    uint64_t totals[5]; /* as a ledger tail's */
};

struct pqpan_ble_exchange_memo {
    uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS];
    int valid;
    uint64_t stamp;
    struct pqpan_ble_ledger_tail tail[2];      /* ledger[0], ledger[1] */
    struct pqpan_ble_bits_tail bits_tail[2];   /* bits[0], bits[1] */
    struct pqpan_ble_counts counts; /* added to the set-up's (crypto_start_ns, crypto_end_ns
                                       and last_close_ns replace them) */
    uint64_t latency_ns;
    uint64_t latency_flipped_ns; /* the latency with the keygen side flipped (by_side 0) */
    int by_side; /* its timeline depended on which side sent (0: the same exchange with the
                    keygen side flipped is this one mirrored) */
};

/* The last call the memo answered: its configuration (whose keygen side and transfers a
 * sweep varies fastest), device, cycles and entry (PQKE or LE SC), and where they led (the
 * set-up's slot, the effective LL octets, the exchange's key but for its word 3, which the
 * side and the methods are in). A call that differs from it in those three fields alone
 * takes them over instead of re-checking and re-keying. */
struct pqpan_ble_last_call {
    int valid;
    int lesc;
    struct pqpan_ble_config cfg;
    struct pqpan_ble_device dev;
    uint64_t cycles[PQPAN_OP_COUNT];
    uint32_t setup_slot;
    uint32_t ll_eff;
    uint64_t key[PQPAN_BLE_EXCHANGE_KEY_WORDS];
    uint64_t key_rest; /* the key's hash sum but word 3 */
};

/* A memo owned by the caller (one per thread: it is written on every call); no pointers
 * inside, so it may be copied or zeroed freely. It also holds the last estimate it gave
 * (out) and which slots that estimate was built from, so that a configuration sharing the
 * set-up or the exchange with the one before rewrites only the other part. hits / misses
 * count the set-up's look-ups, exchange_hits / exchange_misses the exchange's, and
 * exchange_mirrors the exchanges mirrored from the other keygen side's. */
struct pqpan_ble_memo {
    struct pqpan_ble_setup_memo slot[PQPAN_BLE_ESTIMATE_CACHE_SLOTS];
    struct pqpan_ble_exchange_memo exchange[PQPAN_BLE_EXCHANGE_CACHE_SLOTS];
    struct pqpan_ble_work_memo work;
    struct pqpan_ble_plan_memo plan[PQPAN_BLE_PLAN_CACHE_SLOTS];
    struct pqpan_ble_timing_memo timing[PQPAN_BLE_TIMING_SLOTS];
    uint32_t last_timing;                 /* the timing slot matched last (tried first) */
    uint64_t timing_ids;                  /* timings numbered so far: the last number */
    uint64_t hits, misses;
    uint64_t exchange_hits, exchange_misses;
    uint64_t exchange_mirrors;            /* misses answered by mirroring the other side's */
    struct pqpan_ble_last_call last;
    uint64_t stores;                      /* slots stored so far: the next stamp */
    struct pqpan_ble_estimate out;        /* the last estimate pqpan_ble_estimate_*_memo gave */
    uint64_t out_setup_stamp;             /* the stamps of the slots it holds (0: none) */
    uint32_t last_setup_slot;             /* the set-up slot looked up last (tried first) */
    uint64_t out_exchange_stamp;
};

/* The public storage holds the memo with at most 64 octets to spare (x86-64, AArch64 and
 * wasm32: none; the Cortex-M4's short enums pack it 8 octets tighter). */
#define PQPAN_BLE_MEMO_SPARE_MAX 64u
_Static_assert(sizeof(struct pqpan_ble_memo) <= sizeof(struct pqpan_ble_estimate_cache),
               "PQPAN_BLE_ESTIMATE_CACHE_WORDS too small for struct pqpan_ble_memo");
_Static_assert(sizeof(struct pqpan_ble_estimate_cache) - sizeof(struct pqpan_ble_memo) <=
                   PQPAN_BLE_MEMO_SPARE_MAX,
               "PQPAN_BLE_ESTIMATE_CACHE_WORDS larger than struct pqpan_ble_memo needs");
_Static_assert(_Alignof(struct pqpan_ble_memo) <= _Alignof(struct pqpan_ble_estimate_cache),
               "struct pqpan_ble_estimate_cache is less aligned than the memo");

/* The memo a caller's storage holds (NULL: none). */
static inline struct pqpan_ble_memo *pqpan_ble_memo_of(struct pqpan_ble_estimate_cache *cache)
{
    return (struct pqpan_ble_memo *)(void *)cache;
}

static inline const struct pqpan_ble_memo *
pqpan_ble_memo_of_const(const struct pqpan_ble_estimate_cache *cache)
{
    return (const struct pqpan_ble_memo *)(const void *)cache;
}

#endif
