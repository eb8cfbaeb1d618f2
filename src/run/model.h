/* Private to the run layer and its faces: the BLE key-exchange model as a run runs it
 * (estimate, reproduce, sweep, advise, ...): options -> link configuration + energy inputs ->
 * per-side ledgers (src/ble/estimate.c) -> energy (src/energy) -> one flat row per side
 * (struct pqpan_run_exchange_row, run.h). The printers are the CLI's (cli/ble_model.h). */
#ifndef PQPAN_RUN_MODEL_H
#define PQPAN_RUN_MODEL_H

#include "data_load.h"
#include "pqpan/ble.h"
#include "pqpan/energy.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/run.h"
#include "run_opts.h"

/* The LE Secure Connections baseline is asked for as this "KEM" name. */
#define MODEL_LESC_NAME "LESC-P256"
/* The --kem values of the BLE model, for messages. */
#define MODEL_KEM_NAMES "ML-KEM-512, ML-KEM-768, ML-KEM-1024, " MODEL_LESC_NAME

/* LE SC's key pair (--lesc-keypair): generated for this pairing, or generated once before
 * and reused (then its KeyGen is no part of the pairing's cost). */
enum model_lesc_keypair { MODEL_LESC_KEYPAIR_FRESH = 0, MODEL_LESC_KEYPAIR_REUSED };
/* Its --lesc-keypair word: "fresh", "reused". */
const char *model_lesc_keypair_name(enum model_lesc_keypair k);

/* Options shared by estimate and reproduce (energy side). */
struct model_opts {
    const char *profile;     /* NULL = built-in nrf52840 */
    const char *calibration; /* NULL = γ defaults */
    const char *crypto_impl; /* NULL = clean */
    const char *p256_impl;   /* --p256-impl: the P-256 row of every LE SC / hybrid */
    int lesc_keypair;        /* --lesc-keypair: enum model_lesc_keypair */
    enum pqpan_current_table table;
    int tx_dbm;
    double supply_v;        /* <= 0: the profile's supply_v */
    double ram_retained_kb; /* < 0: the profile's sleep_ua as given */
    int ramp_normal;
    double gamma_comm;                  /* < 0: not given */
    double gamma_comp[PQPAN_OP_COUNT];  /* < 0: not given */
    enum cli_format format;
};

/* The options of struct model_opts as data (opts.h): the device's energy figures
 * (--profile, --currents, --tx-dbm), the BLE radio's ramp-up (--ramp), the crypto cycle
 * rows (--crypto-impl) and the γ corrections (--calibration, --gamma-comm, --gamma-comp);
 * --format is cli_format_table's (opts.h), stored in format. */
extern const struct cli_opt_table model_energy_table;
extern const struct cli_opt_table model_ramp_table;
extern const struct cli_opt_table model_crypto_table;
extern const struct cli_opt_table model_gamma_table;
/* The four, in the order help lists them. */
#define MODEL_TABLES 4
extern const struct cli_opt_table *const model_tables[MODEL_TABLES];

void model_opts_init(struct model_opts *o);


/* If opt takes one word of a finite set (--profile: the built-in profiles, --currents,
 * ...), passes each to add (which copies what it keeps) and returns 1; else 0. */
int model_opts_choices(const char *opt, cli_word_fn add, void *ctx);

/* The ML-KEM parameter set names, in increasing security (the LESC baseline is not one). */
void model_kem_names(cli_word_fn add, void *ctx);

struct model_env;

/* The KDF row of the cycle tables is for mode none of the plain ML-KEM suite (docs/PROTOCOL.md
 * §3.4: transcript hash and three KMAC calls); another variant hashes more (a longer
 * transcript, pinned ML-DSA keys, the numeric commitment and value): cycles[KDF] is scaled
 * by the ratio of Keccak-f[1600] permutations per side of (suite or its hybrid suite, mode,
 * ML-DSA set sig) over (suite, none), pqpan_pqke_side_work (a derived figure). A cli.h exit
 * code. */
int model_scale_kdf(uint64_t cycles[PQPAN_OP_COUNT], const struct pqpan_kem *k, unsigned mode,
                    unsigned sig, int hybrid, struct cli_msg *msg);

/* 1 for the sig and sig-mutual modes. */
int model_is_sig_mode(unsigned mode);
/* The ML-DSA set (enum pqpan_sig_id) a sig mode takes by default with KEM k: the smallest of
 * at least its NIST category (ML-KEM-512 -> ML-DSA-44, -768 -> -65, -1024 -> -87). */
unsigned model_sig_for_kem(const struct pqpan_kem *k);
/* The ML-DSA set a variant runs with KEM kem: sig (or, 0, model_sig_for_kem) in the sig
 * modes, 0 in the others or for a name that is not an ML-KEM. */
unsigned model_pqke_sig(unsigned mode, unsigned sig, const char *kem);
/* EXIT_USAGE (message in *msg) for an ML-DSA set (--sig) without a sig mode, else EXIT_OK. */
int model_pqke_check(unsigned mode, unsigned sig, struct cli_msg *msg);
/* The cycle-table implementation the ML-DSA set's Sign and Verify come from: the crypto
 * implementation in use if the tables have its row, else "clean". */
const char *model_sig_impl(const struct model_env *env, unsigned sig);

/* The protocol field of pqpan's protocol: "pqpan", then "-p256" (hybrid), "-MODE" (any mode
 * but none) and "-ML-DSA-xx" (sig modes), e.g. "pqpan-p256-sig-mutual-ML-DSA-65". */
const char *model_protocol_name(unsigned mode, unsigned sig, int hybrid);

/* Loaded energy inputs + the device timing the link model needs. */
struct model_env {
    struct data_energy_inputs in;
    struct pqpan_energy_opts eopts;
    struct pqpan_ble_device dev;
    enum pqpan_current_table table;
    int ramp_normal;
    char p256_impl[24]; /* the P-256 cycle rows' implementation (--p256-impl) */
    enum model_lesc_keypair lesc_keypair;
    double profile_supply_v; /* the profile's own supply_v (in.profile is at the run's) */
    double ram_retained_kb;  /* < 0: the profile's sleep_ua as given */
    /* The BLE estimator's set-up memo (ble.h), owned by the caller, one per thread (pqpan
     * sweep's workers); NULL, as model_env_load leaves it: none. */
    struct pqpan_ble_estimate_cache *memo;
};

/* Loads profile, cycle tables, calibration and applies the γ overrides and the supply
 * voltage and RAM retention (pqpan_profile_at_supply; outside the device's range: a
 * message naming it, EXIT_USAGE). Returns an exit code (run_text.h), the message in *msg.
 * env is large (cycle table): callers allocate it. */
int model_env_load_msg(struct model_env *env, const struct model_opts *o, struct cli_msg *msg);

/* Allocates *env and loads it (model_env_load_msg). On failure *env is NULL and the
 * returned exit code's message is in *msg. The caller frees *env. */
int model_env_new_msg(struct model_env **env, const struct model_opts *o, struct cli_msg *msg);

enum model_side { MODEL_PERIPHERAL = 0, MODEL_CENTRAL, MODEL_TOTAL, MODEL_SIDES };

/* One side of one configuration, flat: the run layer's row (include/pqpan/run.h), whose
 * field tables name, order and type its columns. */
/* Runs one configuration for kem (an ML-KEM name or MODEL_LESC_NAME) and fills
 * rows[MODEL_SIDES]. Returns a cli.h exit code; on failure the reason is in *msg (what
 * `estimate` prints, e.g. a configuration out of range, one GATT cannot build unless
 * allow_unbuildable (link_gatt_check), or a current the profile lacks) and the rows are
 * zero. */
int model_run(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, const char *kem,
              const struct pqpan_ble_config *cfg, int allow_unbuildable, struct cli_msg *msg);

/* The transfer field of cfg: the name of its (server, client) methods
 * (pqpan_ble_transfer_choice_name). */
const char *model_transfer_name(const struct pqpan_ble_config *cfg);

/* ML-DSA signing repeats its rejection loop (FIPS 204 Alg. 7) a random number of times:
 * the cycle tables give the mean (pqpan_cycle_row.cycles, which the energy model uses) and,
 * where measured, the spread (runs, median, p99, max). The spread is read from the first
 * row of the same set, implementation and operation that has runs and the same mean
 * (data/cycles/pqm4_cortex_m4_detail.csv beside pqm4_cortex_m4.csv). */
struct model_sig_spread {
    const struct pqpan_cycle_row *mean;   /* the row the energy uses */
    const struct pqpan_cycle_row *spread; /* NULL: the tables give no spread */
};

/* The spread of ML-DSA set sig's signing with env's tables (sig: enum pqpan_sig_id). 0, or
 * -1 when the tables have no signing row for it. */
int model_sig_spread(struct model_sig_spread *sp, const struct model_env *env, unsigned sig);

/* The GROUP_SIG fields of rows[MODEL_SIDES] (already filled, with their sig_signs) for ML-DSA
 * set sig, 0 for none (the fields stay empty): the mean and spread from env's tables; the
 * p99 energy of a side is its signing energy x p99 / mean (E_comp is linear in cycles, with
 * the same gamma), its times signings x cycles / f_CPU. */
void model_fill_sig(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, unsigned sig);

/* The energy model's radio mode for a PHY. */
enum pqpan_radio_mode model_radio_of(enum pqpan_ble_phy phy);

/* The KEM's sizes into cfg (ek_bytes, ct_bytes) and the cycles of its operations (or of
 * P-256 for MODEL_LESC_NAME) from the loaded tables. A cli.h exit code, message in *msg. */
int model_setup(uint64_t cycles[PQPAN_OP_COUNT], struct pqpan_ble_config *cfg,
                const struct model_env *env, const char *kem, struct cli_msg *msg);

/* Rows from per-side ledgers and counts in est (the estimator's, or a simulated run's in
 * the same form), energy from env. A cli.h exit code, message in *msg. */
int model_fill(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, const char *kem,
               const struct pqpan_ble_config *cfg, const struct pqpan_ble_estimate *est,
               struct cli_msg *msg);

/* The energy of one ledger on radio mode `radio` with env's profile, table, TX level and
 * γ. A cli.h exit code; a missing figure is EXIT_USAGE with a message naming it in *msg. */
int model_energy(struct pqpan_energy *e, const struct pqpan_ledger *l, const struct model_env *env,
                 enum pqpan_radio_mode radio, struct cli_msg *msg);

/* Energy and times of one side from its ledgers (everything, and the bits of the
 * exchange) for a radio mode; config and count fields are left to the caller. A cli.h
 * exit code, message in *msg. */
int model_fill_side(struct pqpan_run_exchange_row *r, const struct model_env *env,
                    enum pqpan_radio_mode radio, const struct pqpan_ledger *led,
                    const struct pqpan_ledger *bits_led, struct cli_msg *msg);

/* The energy of a row's link-layer events in the events accounting: every state from an
 * event's pre-processing to its post-processing (what a trace's radio-event channel spans). */
double model_row_link_event_uj(const struct pqpan_run_exchange_row *r);

/* The idle assumption of the BLE model: between connection events the radio is off (the
 * sleep current), and while a side computes the link keeps its events (empty PDUs every
 * interval, idle_events). MODEL_BLE_IDLE is the idle field, _TEXT the table's words. */
#define MODEL_BLE_IDLE "sleep"
#define MODEL_BLE_IDLE_TEXT                                                                        \
    "sleep between connection events (empty PDUs every interval while a side computes)"

/* The auth field of an exchange: the --auth mode of pqpan's protocol, "none" for the
 * study's exchange and for the LE Secure Connections baseline (Just Works). */
const char *model_auth_name(const char *kem, const struct pqpan_ble_config *cfg);

/* Which fields a command prints or a run emits is a mask of groups. */
enum model_group {
    GROUP_CONFIG = PQPAN_RUN_GROUP_CONFIG,     /* side, kem, phy, att_mtu, ll_octets, dle,
                                                  transfer, ci_ms, keygen_side */
    GROUP_HEADLINE = PQPAN_RUN_GROUP_HEADLINE, /* e_comp_uj, e_comm_uj, e_total_uj,
                                                  comm_share_pct, latency_ms */
    GROUP_DETAIL = PQPAN_RUN_GROUP_DETAIL,     /* per-op computation, TX/RX/IFS, events
                                                  accounting, times, counts */
    GROUP_ALL = 7,
    GROUP_READING = PQPAN_RUN_GROUP_READING, /* the reading field first (reproduce) */
    GROUP_802154 = 16, /* mask flag: the IEEE 802.15.4 field table (its own names and labels) */
    GROUP_NO_SIDE = 32, /* mask flag: without the side column (model_print_flat) */
    GROUP_SIG = PQPAN_RUN_GROUP_SIG,  /* with GROUP_DETAIL: ML-DSA signing's mean cycles and
                                         spread */
    GROUP_LESC = PQPAN_RUN_GROUP_LESC /* LE SC's P-256 rows, key pair and named parts */
};

/* The name of side s (enum model_side) in the rows of the field table groups selects:
 * peripheral, central, total; with GROUP_802154 initiator, responder, total. */
const char *model_side_name(unsigned groups, int s);

#endif
