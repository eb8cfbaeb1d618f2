#include <string.h>

#include "pqpan/ledger.h"

static const char *const state_names[PQPAN_STATE_COUNT] = {
    "sleep", "cpu", "hfxo_start", "ramp_tx", "ramp_rx", "tx",
    "rx",    "ifs", "event_pre",  "event_post", "rx_window",
};
static const char *const phase_names[PQPAN_PHASE_COUNT] = {
    "advertise",     "connect",      "features",     "conn_update",
    "phy_update",    "length_update", "mtu_exchange", "discovery",
    "key_transfer",  "crypto",       "confirm",      "idle",
};
static const char *const op_names[PQPAN_OP_COUNT] = {
    "kem_keygen", "kem_encaps", "kem_decaps", "kdf",      "ecdh_keygen",
    "ecdh_shared", "sig_keygen", "sig_sign",  "sig_verify",
};

void pqpan_ledger_init(struct pqpan_ledger *l)
{
    memset(l, 0, sizeof *l);
}

void pqpan_ledger_add(struct pqpan_ledger *l, enum pqpan_phase phase, enum pqpan_state state,
                      uint64_t ns)
{
    l->ns[phase][state] += ns;
}

void pqpan_ledger_add_op(struct pqpan_ledger *l, enum pqpan_op op, uint64_t cycles)
{
    l->op_count[op] += 1;
    l->op_cycles[op] += cycles;
}

uint64_t pqpan_ledger_state_ns(const struct pqpan_ledger *l, enum pqpan_state state)
{
    uint64_t sum = 0;
    int p;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        sum += l->ns[p][state];
    }
    return sum;
}

uint64_t pqpan_ledger_phase_ns(const struct pqpan_ledger *l, enum pqpan_phase phase)
{
    uint64_t sum = 0;
    int s;
    for (s = 0; s < PQPAN_STATE_COUNT; s++) {
        sum += l->ns[phase][s];
    }
    return sum;
}

void pqpan_ledger_accumulate(struct pqpan_ledger *a, const struct pqpan_ledger *b)
{
    int p, s, op;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        for (s = 0; s < PQPAN_STATE_COUNT; s++) {
            a->ns[p][s] += b->ns[p][s];
        }
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        a->op_count[op] += b->op_count[op];
        a->op_cycles[op] += b->op_cycles[op];
    }
    a->pdus_tx += b->pdus_tx;
    a->pdus_rx += b->pdus_rx;
    a->bytes_tx += b->bytes_tx;
    a->bytes_rx += b->bytes_rx;
    a->events += b->events;
}

const char *pqpan_state_name(enum pqpan_state s)
{
    return (s >= 0 && s < PQPAN_STATE_COUNT) ? state_names[s] : "unknown";
}

const char *pqpan_phase_name(enum pqpan_phase p)
{
    return (p >= 0 && p < PQPAN_PHASE_COUNT) ? phase_names[p] : "unknown";
}

const char *pqpan_op_name(enum pqpan_op op)
{
    return (op >= 0 && op < PQPAN_OP_COUNT) ? op_names[op] : "unknown";
}
