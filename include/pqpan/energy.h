/* The energy model: a device profile (currents per power state, supply voltage, CPU
 * clock), a ledger (time per phase and state, crypto cycles) and the γ correction factors
 * give the energy of one node, in two communication accountings (DESIGN.md "Energy model",
 * docs/MODEL.md "Energy model"):
 *
 *   E_comp            = Σ_op γ_comp(op) · cycles(op) · V · I_CPU / f_CPU
 *   E_comm (bits)     = γ_comm · V · (t_TX·I_TX + t_RX·I_RX + t_IFS·I_IFS), times of the
 *                       KEY_TRANSFER and CONFIRM phases only (the study's accounting)
 *   E_comm (events)   = V · Σ over every phase of every non-crypto state (sleep, HFXO start,
 *                       event pre-/post-processing, radio start-up, receive window, TX, RX,
 *                       IFS, CPU outside the CRYPTO phase), no γ_comm
 *
 * The CPU time the ledger holds for the CRYPTO phase is latency only: its energy is E_comp.
 * Profiles and cycle tables are plain data (no pointers: a struct copy clones them); the
 * library never reads files — libpqpan-io (pqpan/io.h) parses data/profiles/ (JSON) and
 * data/cycles/ (CSV). */
#ifndef PQPAN_ENERGY_H
#define PQPAN_ENERGY_H

#include <stddef.h>
#include <stdint.h>

#include "pqpan/error.h"
#include "pqpan/ledger.h"

enum pqpan_radio_mode {
    PQPAN_RADIO_BLE_1M = 0,
    PQPAN_RADIO_BLE_2M,
    PQPAN_RADIO_BLE_CODED,
    PQPAN_RADIO_IEEE802154, /* 250 kbit/s O-QPSK, 2.4 GHz */
    PQPAN_RADIO_MODE_COUNT
};

/* Which radio current table: system-level figures (the datasheet's current with HFXO,
 * regulator and radio all running, CPU idle) or radio-only figures (the radio block alone). */
enum pqpan_current_table {
    PQPAN_CURRENTS_SYSTEM = 0,
    PQPAN_CURRENTS_RADIO_ONLY,
    PQPAN_CURRENT_TABLE_COUNT
};

#define PQPAN_PROFILE_TX_LEVELS_MAX 16

/* The IEEE 802.15.4 figures of a profile (its "ieee802154" section): TX currents in
 * 802.15.4 mode per output power, the radio's TX ramp-up in that mode, and what the radio
 * does when it neither sends nor receives a frame. The RX current in 802.15.4 mode is
 * rx_ua[table][PQPAN_RADIO_IEEE802154] of struct pqpan_profile. */
struct pqpan_profile_802154 {
    size_t tx_level_count;
    int32_t tx_dbm[PQPAN_PROFILE_TX_LEVELS_MAX];
    double tx_ua[PQPAN_CURRENT_TABLE_COUNT][PQPAN_PROFILE_TX_LEVELS_MAX];
    uint8_t tx_given[PQPAN_CURRENT_TABLE_COUNT][PQPAN_PROFILE_TX_LEVELS_MAX];
    uint32_t ramp_tx_fast_ns;   /* TXEN to READY, fast ramp-up; 0 = not given */
    uint32_t ramp_tx_normal_ns; /* TXEN to READY, default ramp-up; 0 = not given */
    uint8_t idle_rx;    /* 1: between frames and messages the radio listens (RX); 0: off */
    uint8_t backoff_rx; /* 1: through a CSMA-CA random backoff the radio listens; 0: off */
    uint32_t wake_cpu_ns; /* CPU time of one wake-up from sleep before radio work (after the
                             crystal start, hfxo_start_ns), at cpu_ua */
    uint8_t wake_cpu_given; /* 0: the profile gives no figure (null) */
};

/* The phases of a BLE connection event that are not PDUs (the profile's "ble_event"
 * section; docs/MODEL.md "Connection-event phases"), as the vendors' power profiles split an
 * event: CPU pre-processing, crystal start (the profile's hfxo_start_*), radio start-up,
 * the peripheral's receive window (window widening + a fixed margin), the PDUs with their
 * turnarounds, CPU post-processing, back to sleep. */
struct pqpan_profile_ble_event {
    uint32_t pre_ns;       /* CPU pre-processing before each radio event */
    double pre_ua;         /* current during it */
    uint32_t post_ns;      /* CPU post-processing after each radio event */
    double post_ua;        /* current during it */
    double ramp_ua[PQPAN_CURRENT_TABLE_COUNT]; /* radio start-up (TXRU/RXRU), BLE modes */
    uint8_t ramp_given[PQPAN_CURRENT_TABLE_COUNT];
    uint32_t rx_margin_ns; /* peripheral: receiver opened this long before anchor - widening */
};

#define PQPAN_PROFILE_RAM_POINTS_MAX 16

/* How the profile's currents depend on the supply voltage, and the sleep current by
 * retained RAM (the profile's optional "supply" section; docs/MODEL.md "Supply voltage and
 * sleep retention"). The profile's currents are figures at its supply_v. Behind a DC/DC
 * converter the chip's internal power is the same at any supply, so the current drawn from
 * the supply scales as supply_v / V; behind an LDO the current is the same at any supply. */
struct pqpan_profile_supply {
    uint8_t given;       /* 0: no "supply" section: the profile prices its supply_v only */
    double min_v, max_v; /* the device's supply range (VDD) */
    uint8_t active_dcdc; /* 1: every current but sleep scales as supply_v / V; 0: constant */
    uint8_t sleep_dcdc;  /* the same for the sleep current */
    size_t ram_points;   /* System ON sleep current by retained RAM, kB ascending; 0: none */
    double ram_kb[PQPAN_PROFILE_RAM_POINTS_MAX];
    double ram_sleep_ua[PQPAN_PROFILE_RAM_POINTS_MAX];
};

/* A device profile. Currents in µA, times in ns. A figure the datasheet does not give is
 * marked by its *_given flag being 0; using it is PQPAN_ERR_UNSUPPORTED. */
struct pqpan_profile {
    char name[32];
    char description[96];
    double supply_v;
    uint32_t cpu_hz;
    double cpu_ua;        /* CPU running CoreMark from flash, cache on, radio off */
    double cpu_tx_ua;     /* CPU running + radio TX 0 dBm, BLE 1M (not additive) */
    double cpu_rx_ua;     /* CPU running + radio RX, BLE 1M */
    uint8_t cpu_radio_given;
    double sleep_ua;      /* System ON, RTC running, RAM retained */
    double hfxo_start_ua; /* average current while the high-frequency crystal starts */
    uint32_t hfxo_start_ns;
    uint32_t ramp_fast_ns;   /* radio ramp-up (TXRU/RXRU), fast mode */
    uint32_t ramp_normal_ns; /* radio ramp-up, normal (legacy) mode */
    double sca_ppm;          /* sleep clock accuracy, for receive-window widening */
    struct pqpan_profile_ble_event ble_event;
    double rx_ua[PQPAN_CURRENT_TABLE_COUNT][PQPAN_RADIO_MODE_COUNT];
    uint8_t rx_given[PQPAN_CURRENT_TABLE_COUNT][PQPAN_RADIO_MODE_COUNT];
    size_t tx_level_count;
    int32_t tx_dbm[PQPAN_PROFILE_TX_LEVELS_MAX]; /* output power of each TX level */
    double tx_ua[PQPAN_CURRENT_TABLE_COUNT][PQPAN_PROFILE_TX_LEVELS_MAX];
    uint8_t tx_given[PQPAN_CURRENT_TABLE_COUNT][PQPAN_PROFILE_TX_LEVELS_MAX];
    struct pqpan_profile_802154 ieee802154;
    struct pqpan_profile_supply supply;
};

/* Empirical correction factors (the study's γ). */
struct pqpan_gamma {
    double comp[PQPAN_OP_COUNT];
    double comm;
};

struct pqpan_energy_opts {
    enum pqpan_radio_mode radio;
    enum pqpan_current_table table;
    int tx_dbm;
};

/* Energy of one node, µJ. */
struct pqpan_energy {
    double comp_op_uj[PQPAN_OP_COUNT];
    double comp_uj;
    /* bits accounting (the study's): KEY_TRANSFER and CONFIRM phases, × γ_comm */
    double bits_tx_uj, bits_rx_uj, bits_ifs_uj, comm_bits_uj;
    /* events accounting: every phase, every non-crypto state, no γ */
    double ev_hfxo_uj;      /* HFXO_START */
    double ev_ramp_uj;      /* RAMP_TX + RAMP_RX */
    double ev_pre_uj;       /* PRE: CPU pre-processing of radio events */
    double ev_post_uj;      /* POST: CPU post-processing of radio events */
    double ev_cpu_radio_uj; /* CPU outside the CRYPTO phase (host work) */
    double ev_sleep_uj;     /* SLEEP */
    double ev_rx_window_uj; /* RX_WINDOW: receiver open before a packet (widening + margin) */
    double ev_radio_uj;     /* TX + RX + IFS */
    double comm_events_uj;
    double total_bits_uj;   /* comp_uj + comm_bits_uj */
    double total_events_uj; /* comp_uj + comm_events_uj */
};

/* Stable names: "ble_1m", "ble_2m", "ble_coded", "ieee802154"; "system", "radio_only". */
const char *pqpan_radio_mode_name(enum pqpan_radio_mode m);
const char *pqpan_current_table_name(enum pqpan_current_table t);

/* out = p at supply voltage v (V; <= 0: p's own supply_v) with ram_kb kB of RAM retained
 * in sleep (< 0: p's sleep_ua as given): the sleep current from p's retention table
 * (linear between its points), then every current scaled by p->supply_v / v where its
 * regulator is a DC/DC (pqpan_profile_supply), supply_v set to v. out may be p. Errors
 * (out untouched): PQPAN_ERR_INVALID_ARG (NULL, bad profile, v outside [min_v, max_v],
 * ram_kb outside the table's kB), PQPAN_ERR_UNSUPPORTED (v is not p's supply_v and p gives
 * no supply section, or ram_kb >= 0 and p gives no retention table). */
PQPAN_MUST_CHECK int pqpan_profile_at_supply(struct pqpan_profile *out,
                                             const struct pqpan_profile *p, double v,
                                             double ram_kb);

/* Checks a profile: finite positive voltage, clock and currents (connection-event phase
 * currents included), at least one TX level and one RX mode given, no duplicate TX level
 * (BLE or 802.15.4), idle_rx, backoff_rx and wake_cpu_given 0 or 1. PQPAN_ERR_INVALID_ARG
 * otherwise. */
PQPAN_MUST_CHECK int pqpan_profile_check(const struct pqpan_profile *p);

/* TX current at exactly tx_dbm / RX current in a mode, from one table (µA).
 * PQPAN_ERR_UNSUPPORTED if the profile does not give it. *ua = 0 on error. */
PQPAN_MUST_CHECK int pqpan_profile_tx_ua(const struct pqpan_profile *p,
                                         enum pqpan_current_table table, int tx_dbm,
                                         double *ua);
/* TX current at exactly tx_dbm in a radio mode: the 802.15.4 levels for
 * PQPAN_RADIO_IEEE802154, the BLE levels (pqpan_profile_tx_ua) otherwise. */
PQPAN_MUST_CHECK int pqpan_profile_tx_mode_ua(const struct pqpan_profile *p,
                                              enum pqpan_current_table table,
                                              enum pqpan_radio_mode mode, int tx_dbm,
                                              double *ua);
PQPAN_MUST_CHECK int pqpan_profile_rx_ua(const struct pqpan_profile *p,
                                         enum pqpan_current_table table,
                                         enum pqpan_radio_mode mode, double *ua);

/* The defaults of docs/MODEL.md "γ defaults" (inside the study's ranges). */
void pqpan_gamma_default(struct pqpan_gamma *g);

/* 1 if every γ is finite and > 0, else 0. Values below 1 are allowed: a calibration may
 * find the model pessimistic. */
int pqpan_gamma_valid(const struct pqpan_gamma *g);

/* The current (µA) the energy model charges for time in `state` with profile p and radio
 * set-up o (CPU: the CoreMark current, which E_comp uses for crypto). Errors as
 * pqpan_energy_compute; *ua = 0 on error. */
PQPAN_MUST_CHECK int pqpan_energy_state_ua(double *ua, const struct pqpan_profile *p,
                                           const struct pqpan_energy_opts *o,
                                           enum pqpan_state state);

/* The energy of the node whose ledger is l. Errors: PQPAN_ERR_INVALID_ARG (NULL, bad
 * profile, bad γ, mode/table out of range), PQPAN_ERR_UNSUPPORTED (the profile lacks the
 * TX level or radio mode asked for). *out is zeroed on error. */
PQPAN_MUST_CHECK int pqpan_energy_compute(struct pqpan_energy *out,
                                          const struct pqpan_ledger *l,
                                          const struct pqpan_profile *p,
                                          const struct pqpan_energy_opts *o,
                                          const struct pqpan_gamma *g);

/* The events accounting of each phase alone: uj[ph] is the total_events_uj that
 * pqpan_energy_compute gives, bit for bit, for a ledger holding only phase ph of l (and,
 * for PQPAN_PHASE_CRYPTO, l's operations, so the phases add up to l's total_events_uj);
 * the inputs checked once for all phases. Errors as pqpan_energy_compute; uj zeroed on
 * error. */
PQPAN_MUST_CHECK int pqpan_energy_phases(double uj[PQPAN_PHASE_COUNT],
                                         const struct pqpan_ledger *l,
                                         const struct pqpan_profile *p,
                                         const struct pqpan_energy_opts *o,
                                         const struct pqpan_gamma *g);

/* Cycle tables (data/cycles/ (CSV)), filled by the caller (pqpan_io_cycles_load* parse the CSV). */
#define PQPAN_CYCLE_ROWS_MAX 256

struct pqpan_cycle_row {
    char scheme[24]; /* "ML-KEM-768", "P-256"; compared case-insensitively */
    char impl[24];   /* "clean", "m4fspeed", "m4fstack", "pqpan-m4", "*" = any */
    enum pqpan_op op;
    uint64_t cycles; /* the mean when the operation's cost varies (ML-DSA signing) */
    uint32_t stack_bytes;
    uint32_t code_bytes;
    char source[64];
    /* The spread of an operation measured more than once, 0 where the table does not give
     * it: runs measured, and the median, 99th percentile and largest of their cycles. */
    uint32_t runs;
    uint64_t cycles_median, cycles_p99, cycles_max;
};

struct pqpan_cycle_table {
    struct pqpan_cycle_row rows[PQPAN_CYCLE_ROWS_MAX];
    size_t count;
};

/* Appends a row. PQPAN_ERR_CAPACITY when full, PQPAN_ERR_INVALID_ARG on an empty scheme
 * or implementation or an op out of range. */
PQPAN_MUST_CHECK int pqpan_cycles_add(struct pqpan_cycle_table *t,
                                      const struct pqpan_cycle_row *row);

/* The cycles of op for scheme and impl (both case-insensitive). impl == NULL matches the
 * first row of that scheme and op whatever its implementation; a row whose impl is "*"
 * matches any impl. Exact implementation rows win over "*" rows.
 * PQPAN_ERR_NOT_FOUND if no row matches; *cycles = 0 then. */
PQPAN_MUST_CHECK int pqpan_cycles_lookup(const struct pqpan_cycle_table *t,
                                         const char *scheme, const char *impl,
                                         enum pqpan_op op, uint64_t *cycles);

/* The same, returning the whole row (NULL if none). */
const struct pqpan_cycle_row *pqpan_cycles_find(const struct pqpan_cycle_table *t,
                                                const char *scheme, const char *impl,
                                                enum pqpan_op op);

#endif
