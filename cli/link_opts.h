/* The BLE link options shared by `estimate` and `simulate` (and anything else that runs
 * one BLE configuration): KEM, PHY, ATT_MTU, LL size, transfer method, connection
 * interval and event limits, reply timing, KeyGen side, encryption, the set-up before
 * the exchange (advertising, feature exchange, parameter update, discovery) and the pqpan
 * protocol's authentication mode (--auth; cfg.pqke_mode). */
#ifndef PQPAN_CLI_LINK_OPTS_H
#define PQPAN_CLI_LINK_OPTS_H

#include <stdio.h>

#include "cli.h"
#include "opts.h"
#include "pqpan/ble.h"

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
/* Tries argv[*i] as --auth, --sig or --hybrid with its value: 1 if consumed (*i advanced),
 * 0 if not one of them, -1 after a usage error. */
int link_pqke_parse(struct link_pqke *p, const char *cmd, int argc, char **argv, int *i);
/* The words of --auth, --sig, --hybrid to add (1), or 0 for another option. */
int link_pqke_choices(const char *opt, cli_word_fn add, void *ctx);

/* The study's defaults (pqpan_ble_config_default) and ML-KEM-768. */
void link_opts_init(struct link_opts *o);

/* Tries argv[*i] (and its value) as a link option. Returns 1 if consumed (*i advanced past
 * its value), 0 if it is not one, or -1 after printing a usage error. */
int link_opts_parse(struct link_opts *o, const char *cmd, int argc, char **argv, int *i);

/* EXIT_OK if cfg's link can hold (pqpan_ble_config_fault), else EXIT_USAGE with the rule
 * it breaks and the options involved in *msg: what `estimate` and `simulate` both check
 * before any work. */
int link_opts_check(const struct pqpan_ble_config *cfg, struct cli_msg *msg);

/* EXIT_OK if every message of cfg's PQKE goes by a procedure its sender's GATT role sends
 * (pqpan_ble_config_gatt_fault; always for kem MODEL_LESC_NAME, whose pairing is SMP), else
 * EXIT_USAGE with "unbuildable: " and which side would send which message how, and what
 * to give instead, in *msg. */
int link_gatt_check(const struct pqpan_ble_config *cfg, const char *kem, struct cli_msg *msg);

/* The GATT roles of cfg and who sends each message how (link_gatt_words) as two lines of
 * prefix "GATT: the peripheral is the server, ...", and one more saying why it cannot be
 * built when it cannot (priced with --allow-unbuildable); nothing for kem
 * MODEL_LESC_NAME. */
void link_print_gatt(FILE *out, const struct pqpan_ble_config *cfg, const char *kem,
                     const char *prefix);

/* Who sends each message of cfg's PQKE how, in words: "ek: central writes (Write
 * Commands); ct: peripheral notifies" (pqpan's protocol names its messages INIT, RESP,
 * FIN; the study's preset resolved to the indications and Write Requests it sends). */
void link_gatt_words(char *buf, size_t len, const struct pqpan_ble_config *cfg);

/* Help lines for the link options (with units and defaults). */
void link_opts_help(FILE *out);

/* If opt takes one word of a finite set (--kem, --phy, --transfer, --gatt-server, --reply,
 * --keygen-side, --features, --conn-update, --discovery, --auth, --sig, --hybrid), passes
 * each to add and returns 1; else 0. */
int link_opts_choices(const char *opt, cli_word_fn add, void *ctx);

#endif
