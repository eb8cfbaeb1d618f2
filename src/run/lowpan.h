/* Private to the run layer and its faces: the PQKE over 6LoWPAN / IEEE 802.15.4 as a run
 * prices it (estimate --link 802154; simulate and compare use its options and rows): the
 * options as data, the analytic estimator's configuration (src/ieee802154/estimate.c) ->
 * per-side rows of the 802.15.4 field table, and the notes of an 802.15.4 run. The CLI's
 * argv walk, help and the contention simulator's runs: cli/lowpan_model.h. */
#ifndef PQPAN_RUN_LOWPAN_H
#define PQPAN_RUN_LOWPAN_H

#include <stdio.h>

#include "link.h"
#include "model.h"
#include "pqpan/ieee802154.h"

/* Options of the 802.15.4 link shared by estimate, simulate and compare. */
struct lowpan_opts {
    const char *kem;
    double busy;      /* channel-busy probability of one CCA (estimate) */
    int contiki;      /* 1: Contiki-NG CSMA parameters, 0: IEEE defaults */
    int short_addr;   /* 1: 16-bit short addresses, 0: extended (EUI-64) */
    int idle;         /* --idle: 1 listen, 0 sleep, -1 the profile's ieee802154.idle */
    int backoff;      /* --backoff: 1 listen, 0 sleep, -1 the profile's ieee802154.backoff */
    int sec_level;    /* --mac-security: enum pqpan_802154_sec_level (0 none) */
    int key_id_mode;  /* --key-id-mode 0..3 (default 1, Thread's) */
    int ipv6_frag;    /* --ipv6-frag: a message over one datagram in IPv6 fragments */
    int hops;         /* --hops: 802.15.4 hops between the two nodes (1: one link) */
    int forwarding;   /* --forwarding: enum pqpan_802154_forwarding */
    struct link_pqke pqke; /* --auth, --sig, --hybrid (link_opts.h; parsed by the commands
                              that price or run the exchange: estimate, simulate, compare) */
};

/* The name of a MAC security level as --mac-security takes it ("none", "mic32", ...,
 * "enc-mic128"; NULL for level 4, ENC, reserved in IEEE 802.15.4-2015 Table 9-6). */
const char *lowpan_sec_name(int level);

/* The options of struct lowpan_opts as data (opts.h): the link's, the exchange's, and
 * --busy (estimate's closed-form CSMA; simulate contends instead). */
extern const struct cli_opt_table lowpan_opts_table;
/* --kem and --idle: what the key exchange adds to the link (idle --link 802154 has none). */
extern const struct cli_opt_table lowpan_exchange_table;
extern const struct cli_opt_table lowpan_busy_table;
/* --hops and --forwarding (estimate and simulate). */
extern const struct cli_opt_table lowpan_chain_table;

void lowpan_opts_init(struct lowpan_opts *o);

/* If opt takes one word of a finite set (--kem, --csma, --addr, --idle, --backoff),
 * passes each to add and returns 1; else 0. */
int lowpan_opts_choices(const char *opt, cli_word_fn add, void *ctx);

/* The PQKE suite of o's KEM (its P-256 hybrid with --hybrid p256), or 0. */
unsigned lowpan_suite(const struct lowpan_opts *o);
/* The protocol field of o's variant (model_protocol_name, the ML-DSA set resolved). */
const char *lowpan_protocol_name(const struct lowpan_opts *o);

/* The estimator configuration (message sizes and steps of the KEM's PQKE suite in the
 * --auth mode, pqke.h, with the KDF cycles scaled to the mode as model_setup does; CSMA set,
 * addressing, MAC security, busy probability, CPU clock and wake-up of the profile: its
 * crystal start and ieee802154.wake_cpu_us, which a radio that sleeps needs) and the
 * crypto cycles. A cli.h exit code, message in *msg. */
int lowpan_setup(struct pqpan_802154_est_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                 const struct model_env *env, const struct lowpan_opts *o, struct cli_msg *msg);

/* The options of o that differ from their defaults, as command-line words that reproduce
 * them (" --csma contiki --busy 0.1 --hops 3 --forwarding reassemble"): the link's (--csma,
 * --backoff, --mac-security, --key-id-mode), --ipv6-frag, --busy (estimate only: simulate
 * contends instead) and the chain's. --kem, --addr, --idle and the PQKE variant are the
 * caller's. Into buf (len bytes, cut short if it is too small). */
void lowpan_link_args(char *buf, size_t len, const struct lowpan_opts *o, int estimate);

/* The link part of lowpan_setup (addressing, MAC security) over c's defaults. */
void lowpan_link(struct pqpan_802154_link_cfg *c, const struct lowpan_opts *o);

/* The wake-up times of the profile (crystal start, ieee802154.wake_cpu_us) into *xtal_ns
 * and *cpu_ns; EXIT_USAGE (message in *msg) if the profile gives no wake_cpu_us. */
int lowpan_wake(uint64_t *xtal_ns, uint64_t *cpu_ns, const struct model_env *env,
                struct cli_msg *msg);

/* The MAC security and wake-up lines of the assumptions (table: prefixed lines; JSON:
 * members, each line ending with a comma). wakes: whether the radio ever sleeps, i.e.
 * wake-ups are charged. */
void lowpan_print_security_wake(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                                int wakes, const char *prefix);
void lowpan_print_security_wake_json(FILE *f, const struct model_env *env,
                                     const struct lowpan_opts *o, int wakes, const char *indent);
/* The derived figures an 802.15.4 run uses (the crystal start's only with wake-ups): table
 * lines / the JSON "derived_figures" and "other_chip_figures" members and their commas. */
void lowpan_print_derived(FILE *f, const struct model_env *env, int wakes, const char *prefix);
void lowpan_print_derived_json(FILE *f, const struct model_env *env, int wakes,
                               const char *indent);

/* Rows (initiator, responder, total) from per-node ledgers, latency, and the energy model
 * (radio mode ieee802154); kem and protocol fields from o. A cli.h exit code, message in
 * *msg. */
int lowpan_fill(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                const struct lowpan_opts *o, const struct pqpan_ledger led[2],
                const struct pqpan_ledger bits[2], uint64_t latency_ns, struct cli_msg *msg);

/* Whether the radio listens (1) or sleeps (0) when idle / in a CSMA-CA backoff: the
 * option if given, else the profile's ieee802154 section. */
int lowpan_idle_listens(const struct lowpan_opts *o, const struct model_env *env);
int lowpan_backoff_listens(const struct lowpan_opts *o, const struct model_env *env);

/* The 802.15.4 fields of the estimate's rows (struct pqpan_run_exchange_row, "IEEE 802.15.4 only"): idle and
 * backoff state, data frames and Imm-Acks sent, and the expected CCA and backoff time and
 * energy of the side's data frames. They are parts of the all-states accounting (CCA at
 * the RX current, backoff at the RX or sleep current as c->backoff_rx says), split out. */
void lowpan_fill_802154(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct pqpan_802154_estimate *e,
                        const struct pqpan_802154_est_config *c, const struct model_env *env);

/* `estimate --link 802154` for one configuration: the configuration it ran in *c (message
 * sizes, link), the estimator's result in *e and the rows with their 802.15.4 fields. A
 * cli.h exit code; on failure the reason is in *msg and the rows are zero. */
int lowpan_estimate(struct pqpan_run_exchange_row rows[MODEL_SIDES], struct pqpan_802154_est_config *c,
                    struct pqpan_802154_estimate *e, const struct model_env *env,
                    const struct lowpan_opts *o, struct cli_msg *msg);

/* The idle assumption of the exchange line: the radio between frames and in a backoff,
 * and who said so (the profile or --idle / --backoff), in buf. */
#define LOWPAN_IDLE_TEXT_MAX 160
const char *lowpan_idle_text(char buf[LOWPAN_IDLE_TEXT_MAX], const struct lowpan_opts *o,
                             const struct model_env *env);

/* The exchange line of an 802.15.4 output (model_print_exchange_line): protocol, auth
 * mode, lowpan_idle_text. */
void lowpan_print_exchange_line(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                                const char *prefix);

/* The assumptions block of an 802.15.4 result: profile, the current table and section
 * used with the TX/RX figures and their sources, the idle and backoff radio states and
 * where they come from, CCA/turnaround charging, crypto cycles, γ and the accountings;
 * the JSON form as members (no braces). */
void lowpan_print_assumptions(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                              const char *prefix);
void lowpan_print_assumptions_json(FILE *f, const struct model_env *env,
                                   const struct lowpan_opts *o, const char *indent);

/* A sleepy end device's poll every poll_ms with the link options l (src/run/run_idle_802154.c,
 * `pqpan idle --link 802154`; advise's idle link): the plan, its charge and the current of each state. A cli.h
 * exit code; EXIT_USAGE (message in *msg) when the profile lacks an 802.15.4 current or the
 * period is shorter than one poll. */
int lowpan_poll(struct pqpan_802154_poll *p, struct pqpan_802154_poll_charge *q,
                double ua[PQPAN_STATE_COUNT], const struct model_env *env,
                const struct lowpan_opts *l, double poll_ms, struct cli_msg *msg);

#endif
