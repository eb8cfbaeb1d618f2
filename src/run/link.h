/* Private to the run layer and its faces: the BLE link options (KEM, PHY, ATT_MTU, LL
 * size, transfer method, connection interval and event limits, reply timing, KeyGen side,
 * encryption, the set-up before the exchange, pqpan's --auth / --sig / --hybrid) as data,
 * and the checks of a link configuration. The CLI's argv walk and help: cli/link_opts.h. */
#ifndef PQPAN_RUN_LINK_H
#define PQPAN_RUN_LINK_H

#include <stddef.h>

#include "pqpan/ble.h"
#include "run_opts.h"

/* pqpan's protocol variant: --auth, --sig, --hybrid (shared with the 802.15.4 options). */
struct link_pqke {
    unsigned mode; /* enum pqpan_pqke_mode */
    unsigned sig;  /* sig modes: enum pqpan_sig_id; 0 = the KEM's category */
    int hybrid;    /* 1: the P-256 + ML-KEM suite */
};

struct link_opts {
    struct pqpan_ble_config cfg;
    const char *kem;
    struct link_pqke pqke; /* also copied into cfg.pqke_mode, pqke_sig, pqke_hybrid */
    int allow_unbuildable; /* price what GATT cannot build (link_gatt_check) */
};

/* The options of struct link_pqke (--auth, --sig, --hybrid) and of struct link_opts (the
 * BLE link), as data (opts.h). */
extern const struct cli_opt_table link_pqke_table;
extern const struct cli_opt_table link_opts_table;
/* The set-up before the exchange (advertising, feature exchange, parameter update,
 * discovery), also in struct link_opts. */
extern const struct cli_opt_table link_setup_table;

/* A cli_opt set function: a connection interval on the 1.25 ms grid into the uint64_t
 * nanoseconds at field (cli_parse_conn_interval). */
int link_set_conn_interval(void *field, const char *v);

/* The LE PHY names, in enum pqpan_ble_phy order (--phy's words). */
void link_phy_words(cli_word_fn add, void *ctx);

/* Mode none, no ML-DSA set, no hybrid. */
void link_pqke_init(struct link_pqke *p);

/* The words of --auth, --sig, --hybrid to add (1), or 0 for another option. */
int link_pqke_choices(const char *opt, cli_word_fn add, void *ctx);

/* The study's defaults (pqpan_ble_config_default) and ML-KEM-768. */
void link_opts_init(struct link_opts *o);

/* EXIT_OK if cfg's link can hold (pqpan_ble_config_fault), else EXIT_USAGE with the rule
 * it breaks and the options involved in *msg: what `estimate` and `simulate` both check
 * before any work. */
int link_opts_check(const struct pqpan_ble_config *cfg, struct cli_msg *msg);

/* EXIT_OK if every message of cfg's PQKE goes by a procedure its sender's GATT role sends
 * (pqpan_ble_config_gatt_fault; always for kem MODEL_LESC_NAME, whose pairing is SMP), else
 * EXIT_USAGE with "unbuildable: " and which side would send which message how, and what
 * to give instead, in *msg. */
int link_gatt_check(const struct pqpan_ble_config *cfg, const char *kem, struct cli_msg *msg);

/* Who sends each message of cfg's PQKE how, in words: "ek: central writes (Write
 * Commands); ct: peripheral notifies" (pqpan's protocol names its messages INIT, RESP,
 * FIN; the study's preset resolved to the indications and Write Requests it sends). */
void link_gatt_words(char *buf, size_t len, const struct pqpan_ble_config *cfg);

/* If opt takes one word of a finite set (--kem, --phy, --transfer, --gatt-server, --reply,
 * --keygen-side, --features, --conn-update, --discovery, --auth, --sig, --hybrid), passes
 * each to add and returns 1; else 0. */
int link_opts_choices(const char *opt, cli_word_fn add, void *ctx);

/* "central" or "peripheral". */
const char *link_role_word(enum pqpan_ble_role r);

/* Why cfg's PQKE cannot be built over GATT (link_gatt_check's reason without its
 * "unbuildable: " lead): EXIT_USAGE with it in *msg, or EXIT_OK. */
int link_gatt_reason(const struct pqpan_ble_config *cfg, const char *kem, struct cli_msg *msg);

#endif
