/* One key exchange in the BLE packet simulator (src/sim) as the CLI runs it: `simulate`
 * and the Monte Carlo columns of `sweep --per`. */
#ifndef PQPAN_RUN_BLE_SIM_H
#define PQPAN_RUN_BLE_SIM_H

#include "link.h"
#include "model.h"
#include "pqpan/sim.h"

struct ble_sim_opts {
    enum pqpan_sim_transport transport;
    double per, ber;              /* packet and bit error rate, each direction */
    unsigned long long seed;      /* the channel's and the protocol's randomness */
    unsigned long long timeout_ms; /* supervision timeout */
    int adv_mean;                 /* 1: the advertising phase's expected case, 0: drawn */
};

/* The defaults of --transport, --per, --ber, --seed, --supervision-timeout-ms and
 * --adv-case (include/pqpan/defaults.h). The messages are l->cfg.protocol's: the study's
 * raw ek and ct (the synthetic application), or pqpan's real PQKE. */
void ble_sim_opts_init(struct ble_sim_opts *o);

/* What the run proved about the keys (real protocols only). */
struct ble_sim_keys {
    int protocol; /* 1 = the PQKE or the LE SC pairing ran, 0 = the study's raw messages */
    int lesc;     /* 1 = LE Secure Connections pairing (then encrypted counts too) */
    int equal;    /* session keys / LTKs equal */
    int confirmed; /* both tags / both DHKey checks verified */
    int encrypted; /* LE SC: the LL encryption start completed */
};

/* The applications' state of one run (large: callers allocate it). */
struct ble_sim_apps {
    struct pqpan_sim_pqke pqke;
    struct pqpan_sim_lesc lesc;
};

/* EXIT_OK if l's configuration can be simulated with o, else EXIT_USAGE with the reason in
 * *msg (--encrypted is not; over GATT, one GATT cannot build unless --allow-unbuildable,
 * link_gatt_check; LESC-P256 runs its own pairing over SMP, so not over --transport
 * l2cap-coc, and whatever --protocol says, as in estimate). */
int ble_sim_check(const struct link_opts *l, const struct ble_sim_opts *o, struct cli_msg *msg);

/* Sets *s up for l's configuration (sizes and cycles from env, the messages of
 * l->cfg.protocol) and
 * runs one exchange; obs may be NULL. A failed exchange (link lost, damaged message) is
 * EXIT_OK with s->res.status saying why; a configuration that cannot be simulated
 * (ble_sim_check, values out of the simulator's range) is a cli.h exit code with the
 * reason in *msg. */
int ble_sim_run(struct pqpan_sim *s, struct ble_sim_apps *apps, struct ble_sim_keys *k,
                const struct model_env *env, const struct link_opts *l,
                const struct ble_sim_opts *o, const struct pqpan_sim_observer *obs,
                void *obs_ctx, struct cli_msg *msg);

/* 1 if the run ended with the exchange done and, for the real protocol, equal confirmed
 * keys. */
int ble_sim_succeeded(const struct pqpan_sim *s, const struct ble_sim_keys *k);

/* Why the run stopped, as `simulate` and the web page's timeline say it: "completed", or
 * the error with the six-interval establishment rule and an advertiser never heard told
 * apart from the supervision timeout and the time limit. */
const char *ble_sim_status_text(const struct pqpan_sim_result *r);

/* The rows of `estimate` for the run *s (its ledgers, counts and latency). */
int ble_sim_rows(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, const char *kem,
                 const struct pqpan_sim *s, struct cli_msg *msg);

#endif
