/* The run layer (src/run/, part of libpqpan-io; docs/RUN.md): what a run of a computing
 * command gives, as data. A run's output is rows; each row is one record of a field table
 * (its fields' names, units, types and table labels), and the CLI, the Python package and
 * the web page print or return those rows as they are, so that they agree by construction
 * (issue 28, DESIGN.md "Interfaces: one engine, three faces").
 *
 * This header holds the field tables of an exchange (estimate, reproduce, simulate,
 * sweep's per-side columns): one struct pqpan_run_exchange_row per side, the table that
 * names, orders and types its fields for each link, and the typed value of a field; and
 * pqpan_run, the entry point: a command and its options as text in, rows out through the
 * caller's callback, errors as PQPAN_ERR_* codes with a message naming the option. */
#ifndef PQPAN_RUN_H
#define PQPAN_RUN_H

#include <stddef.h>

#include "pqpan/energy.h"
#include "pqpan/ledger.h"

/* The links an exchange runs on, each with its own field table (names and labels in its
 * own terms: LL PDUs and events on BLE, frames, CCA and backoff on IEEE 802.15.4). */
enum pqpan_run_link { PQPAN_RUN_LINK_BLE = 0, PQPAN_RUN_LINK_802154, PQPAN_RUN_LINK_COUNT };

/* The groups of fields a command shows (a mask of them). */
enum pqpan_run_group {
    PQPAN_RUN_GROUP_CONFIG = 1,   /* side, kem, protocol, link settings */
    PQPAN_RUN_GROUP_HEADLINE = 2, /* e_comp_uj, e_comm_uj, e_total_uj, comm_share_pct, latency_ms */
    PQPAN_RUN_GROUP_DETAIL = 4,   /* per-op computation, TX/RX/IFS, events accounting, times,
                                     counts */
    PQPAN_RUN_GROUP_READING = 8,  /* the reading field first (reproduce) */
    PQPAN_RUN_GROUP_SIG = 64,     /* ML-DSA signing's mean cycles and spread */
    PQPAN_RUN_GROUP_LESC = 128,   /* LE SC's P-256 rows, key pair and named parts */
    PQPAN_RUN_GROUP_JSON = 256    /* idle's IDLE row: the fields its JSON prints as members
                                     of their own (the others: in the notes' members, or in
                                     the table and CSV only) */
};

/* The sides of an exchange, one row each (BLE: peripheral, central, total; IEEE 802.15.4:
 * initiator, responder, total). */
enum pqpan_run_side {
    PQPAN_RUN_SIDE_0 = 0,
    PQPAN_RUN_SIDE_1,
    PQPAN_RUN_SIDE_TOTAL,
    PQPAN_RUN_SIDES
};

/* One side of one exchange, flat: every numeric field a double or a count. Which of its
 * members a link's field table shows, under which name, is the table's (a member may be
 * named differently on each link: phy is BLE's "phy" and IEEE 802.15.4's "radio_mode"). */
struct pqpan_run_exchange_row {
    const char *reading; /* reproduce only (GROUP_READING): "defaults" or "study" */
    const char *side;
    const char *kem;
    const char *protocol;
    const char *auth;   /* the PQKE mode (--auth): "none" for the study's exchange and LE SC */
    const char *phy;
    const char *transfer;
    const char *keygen_side;
    unsigned att_mtu, ll_octets, ll_octets_eff;
    int dle;
    double ci_ms;
    double e_comp_uj, e_comp_op_uj[PQPAN_OP_COUNT];
    double e_comm_uj, e_comm_tx_uj, e_comm_rx_uj, e_comm_ifs_uj;
    double e_total_uj, comm_share_pct;
    double e_comm_events_uj, e_ev_radio_uj, e_ev_hfxo_uj, e_ev_ramp_uj, e_ev_sleep_uj;
    double e_ev_pre_uj, e_ev_post_uj, e_ev_rx_window_uj;
    double e_ev_cpu_uj; /* CPU outside the CRYPTO phase and event pre/post (802.15.4 wake-ups) */
    double e_total_events_uj, comm_share_events_pct;
    double e_exchange_events_uj; /* events accounting of the exchange's phases only (BLE) */
    double latency_ms, setup_ms, t_tx_ms, t_rx_ms, t_ifs_ms, t_crypto_ms;
    double e_phase_uj[PQPAN_PHASE_COUNT]; /* events accounting by phase (E_comp in CRYPTO) */
    double t_phase_ms[PQPAN_PHASE_COUNT]; /* span of each set-up phase */
    unsigned long long pdus_tx, pdus_rx, data_pdus_tx, empty_pdus_tx, bytes_tx, bytes_rx;
    /* conn_events: every connection event of the connection, its first (after CONNECT_IND)
     * to the exchange's last, idle ones included (docs/MODEL.md "Connection events: the
     * count"); idle_events: those with only empty PDUs, the first left out. */
    unsigned long long att_pdus_tx, conn_events, idle_events;
    /* the radio when a node neither sends, receives nor computes: BLE "sleep"; 802.15.4
     * "listen" or "sleep" */
    const char *idle;
    /* IEEE 802.15.4 only */
    const char *backoff; /* the radio in a CSMA-CA backoff: "listen", "sleep" */
    const char *mac_security;   /* --mac-security level name ("none", "enc-mic32", ...) */
    double t_cca_ms, e_cca_uj, t_backoff_ms, e_backoff_rx_uj, e_backoff_sleep_uj;
    unsigned long long data_frames_tx, acks_tx;
    /* ML-DSA signing (GROUP_SIG): the cycle tables' mean (what the energy uses) and spread
     * (0: not in the tables), where they come from (NULL: no signing configured), and this
     * side's signing time at the mean and at the p99, and energy at the p99 (< 0: unknown). */
    const char *sig_sign_source;
    unsigned long long sig_signs; /* signings on this side (the ledger's op count) */
    unsigned long long sig_sign_runs, sig_sign_cycles_mean, sig_sign_cycles_median;
    unsigned long long sig_sign_cycles_p99, sig_sign_cycles_max;
    double t_sig_sign_ms, t_sig_sign_p99_ms, e_comp_sig_sign_p99_uj;
    /* LE Secure Connections' named parts (GROUP_LESC; docs/MODEL.md "LE SC as stacks run
     * it"): the P-256 rows used, the key pair's lifetime, and the energy of the LL
     * encryption start (its PDUs, the CONFIRM phase: bits accounting with γ_comm, events
     * accounting) and of the Phase 3 key distribution (none distributed: 0). */
    const char *p256_impl, *p256_source, *lesc_keypair;
    double e_lesc_enc_start_uj, e_lesc_enc_start_events_uj, e_lesc_key_dist_uj;
};

/* How a field is stored in the row: a string (NULL: no value), an unsigned, an int, an
 * unsigned long long or a double; the _OPT ones have "no value" too (0, a negative double:
 * empty in CSV, null in JSON, "-" in a table). */
enum pqpan_run_store {
    PQPAN_RUN_STORE_TEXT,
    PQPAN_RUN_STORE_UINT,
    PQPAN_RUN_STORE_INT,
    PQPAN_RUN_STORE_ULL,
    PQPAN_RUN_STORE_REAL,
    PQPAN_RUN_STORE_OPT_ULL,
    PQPAN_RUN_STORE_OPT_REAL
};

/* One column of a field table. */
struct pqpan_run_field {
    const char *name;  /* CSV column, JSON key, Python key: stable, unit in the name */
    const char *label; /* a table's row label */
    const char *unit;  /* "uJ", "ms", "%", "octets", "cycles"; NULL: none (a word, a count) */
    unsigned group;    /* enum pqpan_run_group */
    enum pqpan_run_store store;
    size_t offset;     /* of the member in the record's struct (struct pqpan_run_exchange_row,
                          struct pqpan_run_idle_row, struct pqpan_run_idle_phase) */
    int decimals;      /* a REAL's digits after the point in text output */
};

/* The most fields a table of the run layer has (fields.c checks its tables against it). */
#define PQPAN_RUN_FIELDS_MAX 128

/* The field table of an exchange on link (every field, in output order); *n its length. */
const struct pqpan_run_field *pqpan_run_exchange_fields(enum pqpan_run_link link, size_t *n);

/* Whether field f is shown for the group mask groups. */
int pqpan_run_field_shown(const struct pqpan_run_field *f, unsigned groups);

/* The kinds of value a row's field has. */
enum pqpan_run_type { PQPAN_RUN_TEXT, PQPAN_RUN_INT, PQPAN_RUN_COUNT, PQPAN_RUN_REAL };

/* A field's value in a row: known 0 when it has none. */
struct pqpan_run_value {
    enum pqpan_run_type type;
    int known;
    const char *text;       /* TEXT */
    long long i;            /* INT */
    unsigned long long u;   /* COUNT */
    double x;               /* REAL */
};

/* The value of field f in row r. */
void pqpan_run_field_value(struct pqpan_run_value *out, const struct pqpan_run_field *f,
                           const struct pqpan_run_exchange_row *r);

/* The value of field f in data, the struct of f's table (an exchange row, an idle row, an
 * idle phase). */
void pqpan_run_record_value(struct pqpan_run_value *out, const struct pqpan_run_field *f,
                            const void *data);

/* ---- idle (BLE): one side of an idle connection over one latency period ---- */

/* The states of an idle period, in the order an event runs them, then sleep: pre, hfxo_start,
 * ramp_tx, ramp_rx, rx_window, tx, ifs, rx, post, sleep (pqpan_state_name). */
#define PQPAN_RUN_IDLE_PHASES 10

/* The side's figures over one period ((latency + 1) intervals; events accounting, no γ). */
struct pqpan_run_idle_row {
    const char *profile, *role, *phy, *currents;
    double ci_ms;
    unsigned latency;
    int tx_dbm;
    double period_ms;
    unsigned events_per_period;
    double avg_current_ua;       /* charge per period / period */
    double charge_per_event_uc;  /* one event above nothing: wake-up to back to sleep */
    double charge_per_period_uc; /* sleep included */
    double sleep_ua, supply_v;   /* the profile's (supply_v: the run's supply) */
};

/* One state of the period: its time, current and charge. */
struct pqpan_run_idle_phase {
    const char *phase;
    double time_us, current_ua, charge_uc;
};

/* ---- idle --link 802154: a sleepy end device's data poll over one poll period ---- */

/* The period's figures (IDLE row on PQPAN_RUN_LINK_802154): the link's settings, the two
 * frames, the expected CCAs and wake-ups, the charge of the active part and of sleep, and
 * the average current. */
struct pqpan_run_poll_row {
    const char *profile, *mac_security, *addr, *backoff, *csma, *currents;
    double poll_ms;
    int key_id_mode, tx_dbm;
    double busy, tx_ua, rx_ua;
    unsigned request_psdu_octets, ack_psdu_octets;
    double expected_ccas, expected_wake_ups;
    double active_us, charge_per_poll_uc; /* every phase but sleep */
    double poll_current_ua;               /* charge_per_poll_uc / active_us */
    double sleep_charge_uc, period_us, charge_per_period_uc;
    double avg_current_ua; /* charge per period / period */
    double supply_v;
};

/* One phase of the poll period (PHASE row on PQPAN_RUN_LINK_802154): the ledger state it
 * is spent in, its time, current and charge. */
struct pqpan_run_poll_phase {
    const char *phase, *state;
    double time_us, current_ua, charge_uc;
};

/* ---- the PQKE across a chain of 802.15.4 hops: one node (events accounting) ---- */

struct pqpan_run_chain_node {
    unsigned node;            /* 0 the initiator .. hops the responder */
    const char *role;         /* "initiator", "forwarder", "responder" */
    double e_total_events_uj; /* every radio state and the CPU, idle listening included */
    double e_comm_events_uj;  /* the radio's part */
    double t_tx_ms, t_rx_ms;  /* time in TX, in RX */
};

/* ---- profiles: a device profile's key figures ---- */

/* The figures `pqpan profiles` lists for a profile: supply voltage, CPU clock and current,
 * sleep current, TX at 0 dBm and RX on LE 1M in the system-level and the radio-only tables
 * (below 0: the datasheet gives none), how many figures are assumptions and how many are
 * derived from others, the main datasheet, the description and where the profile was read
 * from. */
struct pqpan_run_profile_row {
    const char *name;
    double supply_v, cpu_mhz, cpu_ua, sleep_ua;
    double tx_0dbm_system_ua, rx_1m_system_ua, tx_0dbm_radio_only_ua, rx_1m_radio_only_ua;
    unsigned long long assumptions, derived;
    const char *datasheet, *description, *origin;
};

/* ---- simulate (BLE): what only a simulation shows, per side ---- */

/* One side of one simulated exchange (peripheral, central; total: both sides' counts),
 * the run's settings and outcome repeated on each: the columns `pqpan simulate --format
 * csv` adds after the estimate's, plus the connection events, the latency and whether the
 * exchange succeeded. */
struct pqpan_run_sim_row {
    const char *side;
    unsigned long long seed;
    double per, ber;
    const char *transport; /* "gatt", "l2cap-coc", "smp" (LE SC pairing) */
    const char *messages;  /* "pqke" (the real PQKE), "lesc", "estimate" (the study's raw ek
                              and ct) */
    unsigned long long packets_tx, retransmissions, crc_errors_rx, missed_rx;
    unsigned att_mtu, ll_octets; /* negotiated */
    unsigned long long conn_events;
    double latency_ms, sim_time_ms;
    const char *result;           /* "completed" or why the run stopped */
    const char *keys_equal;       /* "true", "false"; NULL: no keys (the study's messages) */
    const char *key_confirmation; /* "ok", "failed"; NULL: none */
    double energy_until_failure_uj; /* a failed run's energy (events accounting); < 0: the run
                                       completed */
    int succeeded; /* 1: the exchange completed (with equal confirmed keys where there are
                      keys); 0: it failed, the CLI exits 1 */
};

/* The field table of a SIM row; *n its length. */
const struct pqpan_run_field *pqpan_run_sim_fields(size_t *n);

/* ---- simulate --link 802154: the Monte Carlo's summary and statistics ---- */

/* The settings and outcome of the runs (the columns `simulate --link 802154 --format csv`
 * repeats on each line). */
struct pqpan_run_sim154_row {
    const char *kem;
    unsigned nodes, hidden;
    const char *capture;     /* "none", "first" */
    double load_fps;         /* each background node's offered frames/s */
    unsigned frame_bytes;    /* background PSDU, octets */
    double channel_load_pct; /* (nodes - 2) x load x one frame's airtime, % */
    unsigned reasm_timeout_ms, dgram_retries, runs;
    unsigned long long seed; /* run i uses seed + i */
    unsigned failed;
    double failure_rate;
    const char *currents, *idle, *backoff, *mac_security, *protocol, *auth;
};

/* One statistic over the runs (energy of a side in uJ, all-states accounting; latency in
 * ms: mean, nearest-rank p50, p90, p99) or one count of the pair (per_run 1: the mean per
 * run only, the percentiles < 0: none). */
struct pqpan_run_metric_row {
    const char *metric; /* energy_initiator_uj, energy_responder_uj, energy_total_uj,
                           latency_ms; a count: data_frames, mac_retries, ... */
    const char *unit;   /* "uJ", "ms"; NULL for a count */
    int per_run;
    double mean, p50, p90, p99;
};

/* A long run's progress. */
struct pqpan_run_progress_row {
    unsigned done, runs;
};

/* The field tables of a SIM154 and of a METRIC row; *n their length. */
const struct pqpan_run_field *pqpan_run_sim154_fields(size_t *n);
const struct pqpan_run_field *pqpan_run_metric_fields(size_t *n);
/* ---- advise: one recommendation of the search ---- */

/* The configuration and what it costs (the JSON output's "recommendations" entry; NULL
 * texts and negative optional figures: not on this link). */
struct pqpan_run_advise_choice {
    unsigned rank;
    const char *kem;
    unsigned category;
    const char *link;        /* "ble", "802154" */
    const char *auth;        /* the variant: "psk", "sig-mutual (ML-DSA-65)", ... */
    const char *phy;         /* BLE */
    unsigned ll_octets, att_mtu; /* BLE (0: 802.15.4) */
    const char *transfer;    /* BLE */
    double ci_ms;            /* BLE (< 0: 802.15.4) */
    const char *addressing;  /* 802.15.4 */
    double poll_ms;          /* 802.15.4 (< 0: BLE) */
    const char *keygen_side;
    const char *device_side;
    double energy_device_uj, energy_peer_uj, objective_uj;
    double latency_ms, exchange_latency_ms, idle_again_ms, peak_current_ma;
    double saving_vs_study_uj; /* BLE (< 0 is a loss; 802.15.4: unknown, see known) */
    int saving_known;
    double floor_uj, floor_ratio;
    double life_years;       /* the shortest of the battery sides */
    unsigned hops;           /* 802.15.4: hops to the peer (1: one link; 0: BLE) */
    const char *forwarding;  /* 802.15.4 across a chain: "reassemble", "fragment" (NULL: none) */
    double forwarder_max_uj; /* a chain: the busiest forwarder's energy per exchange, an
                                always-on router whose battery is not searched (< 0: none) */
};

/* The field table of a CHOICE row (units uJ, ms, mA, years). */
const struct pqpan_run_field *pqpan_run_advise_choice_fields(size_t *n);

/* ---- advise --link ble-mesh: one provisioning configuration of the search ---- */

/* A configuration of BLE Mesh provisioning the search ranked (docs/MODEL.md "Advice over BLE
 * Mesh provisioning"): rank 1.. in the ranked list (MESH_CHOICE), 0 as the best of its
 * bearer (MESH_BEST); bearer "pb-adv" or "pb-gatt", the ML-KEM set and its NIST category,
 * hybrid "none" or "p256", the Start algorithm ("cmac", "hmac"), the energy of the device
 * and of the provisioner (events accounting, every state) and the provisioning's latency,
 * the bearer's settings as `pqpan estimate` options and the whole `pqpan estimate` options
 * that reproduce it. */
struct pqpan_run_mesh_choice {
    unsigned rank;
    const char *bearer, *kem;
    unsigned category;
    const char *hybrid, *prov_alg;
    double device_uj, provisioner_uj, latency_ms;
    const char *estimate;
    const char *settings; /* the table's column (not a member of the JSON's items) */
};

/* The field table of a MESH_CHOICE or MESH_BEST row (units uJ, ms); group
 * PQPAN_RUN_GROUP_JSON: the members of the CLI's JSON items (the rows carry it as their
 * groups); *n its length. */
const struct pqpan_run_field *pqpan_run_mesh_choice_fields(size_t *n);

/* ---- calibrate: γ fitted to measured PPK2 traces ---- */

/* One fitted γ: γ_comp of an operation or γ_comm, least squares through the origin over
 * every trace (pqpan_calibrate_fit), and the study's range for it. */
struct pqpan_run_calibrate_fit {
    const char *parameter;     /* an operation (pqpan_op_name) or "comm" */
    double gamma;
    double gamma_se;           /* its standard error; < 0: one point, none */
    unsigned long long points;
    double study_min, study_max;
    int in_study_range;        /* 1: study_min <= gamma <= study_max */
};

/* One data point of a fit: what a trace measured for one quantity against the model at
 * γ = 1 (uJ), the fit of that quantity, and the residual m - γ p (residual_uj and
 * residual_pct rounded to 0.001, as the CLI prints them). */
struct pqpan_run_calibrate_point {
    unsigned long long trace;  /* 1.. in the order of --trace */
    const char *file, *side, *quantity;
    double measured_uj, model_g1_uj;
    double gamma, gamma_se;    /* gamma_se < 0: none */
    unsigned long long points;
    double fitted_uj, residual_uj, residual_pct;
    const char *protocol, *auth, *idle;
};

/* What one trace measured: its rows and segments, the radio energy outside the advertising
 * segment against the model's link-layer events, and the advertising segment. */
struct pqpan_run_calibrate_trace {
    unsigned long long trace;
    const char *file, *side;
    unsigned long long rows_read, crypto_segments, radio_segments, overlap_rows;
    double radio_uj, events_radio_model_uj, advertise_ms, advertise_uj;
};
/* ---- estimate / simulate --link ble-mesh: one side of a provisioning run ---- */

/* One side (provisioner, device; total: both) of BLE Mesh provisioning over PB-ADV or
 * PB-GATT (docs/MODEL.md "Mesh provisioning"), or pqpan's PQKE between two mesh nodes
 * (--bearer network, "Keys between mesh nodes"): the run's settings, energy (events
 * accounting; e_comm_bits_uj: TX and RX time x gamma_comm), times and counts. */
struct pqpan_run_mesh_row {
    const char *side, *bearer, *kem, *hybrid, *variant, *prov_alg;
    double e_comp_uj, e_comm_uj, e_total_uj, comm_share_pct, e_comm_bits_uj;
    double latency_ms, t_tx_ms, t_rx_ms, t_crypto_ms;
    unsigned long long pdus_tx, pdus_rx, bytes_tx, bytes_rx;
    unsigned long long segments, adv_events; /* PB-ADV */
    unsigned long long proxy_pdus;           /* PB-GATT */
    const char *keys_equal;                  /* simulate: "yes" (every completed run), "no",
                                                "-" (no run completed); NULL: estimate */
    double resent_segments; /* PB-ADV with --per: segment transmissions after the timer
                               (estimate: expected; simulate: mean per run) */
    unsigned long long runs, completed, failed; /* simulate with --runs > 1 or --per */
    double e_mean_uj, e_p50_uj, e_p90_uj, e_p99_uj; /* the side's total energy, completed runs */
    double latency_mean_ms, latency_p50_ms, latency_p90_ms, latency_p99_ms;
    /* --bearer network (keys between mesh nodes): sides initiator, responder, relay (one
     * relay node), total (every node); segments and adv_events as on PB-ADV */
    const char *auth;                        /* the PQKE's --auth */
    unsigned long long hops, relays;         /* the path's hops, relays per relay stage */
    unsigned long long nodes;                /* nodes the row covers (relay: 1) */
    unsigned long long access_messages;      /* parts sent (pqpan's framing) */
    unsigned long long seg_acks;             /* Segment Acknowledgment messages sent */
    double hop_ms;                           /* one relay stage's delay on a full segment */
};

/* The field table of a MESH row, every field (a row carries those of its bearer and
 * command: segments and adv_events on PB-ADV, proxy_pdus on PB-GATT, keys_equal when
 * simulated, resent_segments with --per, the runs' statistics when simulated with --runs >
 * 1 or --per); *n its length. Groups: CONFIG the settings (a table output's heading, CSV
 * columns), JSON the members of a "sides" entry (side and the figures), a figure
 * PQPAN_RUN_GROUP_DETAIL too; CSV prints every field of the row. Units uJ, %, ms, octets. */
const struct pqpan_run_field *pqpan_run_mesh_fields(size_t *n);

/* ---- sweep: a configuration's columns after its sides ---- */

/* Mean, nearest-rank p50, p90, p99 over the runs of a configuration. */
struct pqpan_run_sweep_stats {
    double mean, p50, p90, p99;
};

/* The chain's summary (--hops / --forwarding on 802.15.4: latency and the energy, all-states
 * accounting, of the initiator, the busiest forwarder (< 0: none, one hop) and the
 * responder) and the Monte Carlo of the BLE packet simulator (--per: the packet error
 * rate as given, the runs, the seed of run 0, failed runs, each side's energy (events
 * accounting; peripheral, central, total) and the latency). */
struct pqpan_run_sweep_extra {
    double chain_latency_ms, chain_initiator_uj, chain_forwarder_max_uj, chain_responder_uj;
    const char *sim_per;
    unsigned long long sim_runs, sim_seed, sim_failed;
    double sim_failure_rate;
    struct pqpan_run_sweep_stats sim_energy_uj[PQPAN_RUN_SIDES];
    struct pqpan_run_sweep_stats sim_latency_ms;
};
/* ---- compare: the PQKE over BLE against IEEE 802.15.4 at three channel loads ---- */

/* One cell: an ML-KEM level over one link ("ble-noDLE", "ble-DLE": the analytic estimator,
 * events accounting, failure rate 0; "802154-0", "-10", "-30": the contention simulator at
 * that channel load, all-states accounting, mean and p90 over the runs), both sides. */
struct pqpan_run_compare_cell {
    const char *kem, *link;
    double channel_load_pct; /* % of the channel's time the background frames take */
    unsigned nodes;          /* the pair and the background nodes */
    double load_fps;         /* each background node's offered frames/s */
    double energy_uj, energy_p90_uj, latency_ms, latency_p90_ms;
    double failure_rate;     /* failed runs / runs */
    const char *idle_802154, *backoff_802154; /* "listen", "sleep"; BLE: "n/a" */
    const char *protocol, *auth;
};

/* The field table of a CELL row (units uJ, ms, %, frames/s); *n its length. */
const struct pqpan_run_field *pqpan_run_compare_cell_fields(size_t *n);

/* compare --mesh: one ML-KEM level over one network, energy per node in the all-states
 * accounting. network "802154-reassemble" or "802154-fragment" (--forwarding): the PQKE
 * across a chain of hops hops, source the initiator, forwarder_max_uj the busiest
 * forwarder's, destination the responder; "ble-mesh-pb-adv", "ble-mesh-pb-gatt":
 * provisioning with estimate --link ble-mesh's defaults (hops 1), source the provisioner,
 * destination the device, forwarder_max_uj -1 (none: JSON null, CSV empty). latency_ms:
 * the source's. */
struct pqpan_run_mesh_cell {
    const char *kem, *network;
    unsigned hops;
    double latency_ms, source_uj, forwarder_max_uj, destination_uj;
};

/* The field table of a MESH_CELL row (units ms, uJ); *n its length. */
const struct pqpan_run_field *pqpan_run_compare_mesh_fields(size_t *n);

/* ---- reproduce: the study's matrix and headline figures, per reading ---- */

/* One headline figure of a reading (the peripheral, bits accounting) beside the study's
 * range: the model's range over the levels (lo = hi for one value), in unit ("%", "x"),
 * and whether it falls inside the study's ("inside", "overlaps", "outside"). */
struct pqpan_run_headline_row {
    const char *reading, *figure, *side;
    double model_lo, model_hi;
    const char *study; /* the study's words: "57-63 %" */
    double study_lo, study_hi;
    const char *verdict;
    const char *label, *unit; /* the table's line (not fields of the row) */
};

/* One side of pqpan's protocol in one PQKE mode (with the P-256 hybrid suite when hybrid
 * is 1) at one level and DLE setting, on the study preset: its energy in the bits
 * accounting and that over mode none's and over LE SC pairing's, the same side. */
struct pqpan_run_mode_row {
    const char *reading, *kem;
    unsigned dle;
    const char *mode, *sig; /* sig: the ML-DSA set, "" outside the sig modes */
    int hybrid;
    const char *protocol, *side;
    double e_total_uj, x_none, x_lesc;
};

/* One side of a sig mode in one of pqpan's Cortex-M4 builds ("small", "speed"; crypto_impl
 * its rows of data/cycles/pqpan_m4.csv): energy in the bits accounting and that over the
 * small build's. */
struct pqpan_run_build_row {
    const char *reading, *kem;
    unsigned dle;
    const char *mode, *sig, *side, *build, *crypto_impl;
    double e_total_uj, x_small;
};

/* The field tables of HEADLINE, MODE and BUILD rows (units %, uJ); *n their length. */
const struct pqpan_run_field *pqpan_run_headline_fields(size_t *n);
const struct pqpan_run_field *pqpan_run_mode_fields(size_t *n);
const struct pqpan_run_field *pqpan_run_build_fields(size_t *n);

/* ---- idle --exchange-uj: the battery figures of the idle link with rekeying ---- */

/* advise's battery arithmetic (pqpan_advise_battery) on the idle link idle priced and one
 * key exchange of the caller's energy every --rekey-every: the JSON output's "battery"
 * object (GROUP_JSON fields, in its order) and the supply the energy became charge at. */
struct pqpan_run_idle_battery {
    const char *side;        /* the battery side: BLE's --role, "device" on 802.15.4 */
    double battery_mah;
    const char *rekey_every; /* --rekey-every as given */
    double rekey_every_s, exchange_uj, exchange_ms;
    double charge_per_exchange_uc; /* exchange_uj / supply_v */
    double exchanges_per_battery, usable_uc;
    double idle_current_ua, rekey_current_ua, drain_ua, avg_current_ua;
    double rekey_share_pct;
    double life_years, life_idle_years; /* years of 365.25 days */
    const char *caveats;       /* what the figure leaves out or includes */
    const char *exchange_note; /* what the exchange's energy is and is not */
    double supply_v;
};

/* ---- trace: a Power Profiler Kit II capture's statistics (pqpan_trace, trace.h) ---- */

/* The capture (TRACE row): rows read and skipped, the supply, the baseline subtracted and
 * where it comes from ("none", "fixed", "auto"), the sampling intervals and the quantiles'
 * error bounds. */
struct pqpan_run_trace_row {
    unsigned long long rows_read, rows_skipped;
    double voltage_v, baseline_ua;
    const char *baseline_source;
    double min_interval_ms, max_interval_ms;
    double quantile_rel_error, quantile_abs_error_ua;
};

/* The whole trace ("total") or one phase (TRACE_PHASE row), net of the baseline. */
struct pqpan_run_trace_phase {
    const char *phase;
    unsigned long long samples, segments;
    double duration_ms, energy_uj, avg_current_ua, min_current_ua, median_current_ua;
    double p99_current_ua, max_current_ua;
};

/* One segment of a --phases phase (SEGMENT row: a run of rows with its channel at 1). */
struct pqpan_run_trace_segment {
    const char *phase;
    unsigned long long index, samples;
    double start_ms, duration_ms, energy_uj, avg_current_ua, min_current_ua, max_current_ua;
};

/* ---- pqpan_run: a command and its options in, rows out ---- */

/* One option of a request: the name as the CLI spells it ("--att-mtu") and its value as
 * text ("247"). A flag (--encrypted) is set by value NULL, "on", "true", "yes" or "1" and
 * left unset by "off", "false", "no" or "0". The run reads the strings during the call
 * only. */
struct pqpan_run_opt {
    const char *name;
    const char *value;
};

/* Why a run refused or failed: code a PQPAN_ERR_* (error.h: PQPAN_ERR_INVALID_ARG for an
 * unknown option, a bad value or options that do not go together, PQPAN_ERR_MALFORMED for a
 * data file that does not parse, PQPAN_ERR_IO for one that cannot be read or an emit that
 * stopped the run, PQPAN_ERR_UNSUPPORTED for a request the run cannot price), option the
 * option the message is about ("" when none), message one line naming it. */
#define PQPAN_RUN_MESSAGE_MAX 512
struct pqpan_run_error {
    int code;
    char option[48];
    char message[PQPAN_RUN_MESSAGE_MAX];
};

/* What a row of a run is. */
enum pqpan_run_record {
    PQPAN_RUN_RECORD_SIDE,    /* one side of an exchange: the link's exchange field table */
    PQPAN_RUN_RECORD_NOTE,    /* one line a table output prints before the rows (the
                                 assumptions block): one TEXT field, "text" */
    PQPAN_RUN_RECORD_MEMBERS, /* the same notes as JSON members ("name": value, one a line,
                                 each followed by a comma): one TEXT field, "json" */
    PQPAN_RUN_RECORD_WARNING, /* figures that describe an unlikely case (the run goes on):
                                 one TEXT field, "text" */
    PQPAN_RUN_RECORD_IDLE,    /* idle: the side's figures (struct pqpan_run_idle_row; on
                                 PQPAN_RUN_LINK_802154 struct pqpan_run_poll_row) */
    PQPAN_RUN_RECORD_PHASE,   /* idle: one state of the period (struct pqpan_run_idle_phase),
                                 PQPAN_RUN_IDLE_PHASES rows after the IDLE row; on
                                 PQPAN_RUN_LINK_802154 one phase of the poll period (struct
                                 pqpan_run_poll_phase) */
    PQPAN_RUN_RECORD_NODE,    /* estimate --link 802154 --hops H > 1: one node of the chain
                                 (struct pqpan_run_chain_node), H + 1 rows, initiator first */
    PQPAN_RUN_RECORD_CONFIG,  /* sweep: one configuration of the grid (data NULL): config,
                                 configs (COUNT), status ("ok" or why it is invalid) and one
                                 TEXT field per option given but --per (in_<option>: its
                                 value, "on" for a flag; unit the option's); its sides follow
                                 as SIDE rows, exchange NULL and every value unknown when the
                                 status is not ok, then any SWEEP_EXTRA row */
    PQPAN_RUN_RECORD_PROFILE, /* profiles: one device profile's key figures (struct
                                 pqpan_run_profile_row); GROUP_HEADLINE: the columns the
                                 list shows */
    PQPAN_RUN_RECORD_FIGURE,  /* profiles: one figure of the profile before it (data NULL):
                                 field, value (REAL, unknown when the file gives none), text
                                 (a figure that is a word), source, derived (how a derived
                                 figure is computed), other_chip, column (the list's column
                                 that shows it); the list gives those of its columns, --show
                                 every figure of the file */
    PQPAN_RUN_RECORD_SIM,     /* simulate (BLE): one side of the simulated run (struct
                                 pqpan_run_sim_row, pqpan_run_sim_fields), one row per side
                                 after the SIDE rows */
    PQPAN_RUN_RECORD_SIM154,  /* simulate --link 802154: the Monte Carlo's settings and
                                 failures (struct pqpan_run_sim154_row), the last row */
    PQPAN_RUN_RECORD_METRIC,  /* simulate --link 802154: one statistic or count (struct
                                 pqpan_run_metric_row), before the SIM154 row */
    PQPAN_RUN_RECORD_PROGRESS, /* a long run's progress (struct pqpan_run_progress_row): done 0
                                 before the first of runs, then after each */
    PQPAN_RUN_RECORD_CHOICE,  /* advise: one recommendation, in rank order
                                 (struct pqpan_run_advise_choice) */
    PQPAN_RUN_RECORD_FIT,     /* calibrate: one fitted γ (struct pqpan_run_calibrate_fit) */
    PQPAN_RUN_RECORD_RESIDUAL, /* calibrate: one data point of a fit (struct
                                  pqpan_run_calibrate_point), after the FIT rows */
    PQPAN_RUN_RECORD_CALIBRATE_TRACE, /* calibrate: what one trace measured (struct
                                 pqpan_run_calibrate_trace), after the RESIDUAL rows */
    PQPAN_RUN_RECORD_MESH,    /* estimate / simulate --link ble-mesh: one side of the
                                 provisioning run (struct pqpan_run_mesh_row,
                                 pqpan_run_mesh_fields), provisioner, device, total */
    PQPAN_RUN_RECORD_SWEEP_EXTRA, /* sweep with --per, or --hops / --forwarding on 802.15.4:
                                 a configuration's columns after its sides (struct
                                 pqpan_run_sweep_extra), one row after its SIDE rows; the
                                 chain's and the Monte Carlo's fields only when asked, every
                                 value unknown but sim_per and sim_runs when the status is
                                 not ok */
    PQPAN_RUN_RECORD_CELL,    /* compare: one ML-KEM level over one link (struct
                                 pqpan_run_compare_cell), level by level, BLE first */
    PQPAN_RUN_RECORD_MATRIX,  /* reproduce: one side of one configuration of the study's
                                 matrix in one reading (struct pqpan_run_exchange_row, the BLE
                                 exchange table; groups: the fields shown) */
    PQPAN_RUN_RECORD_HEADLINE, /* reproduce: one headline figure of a reading beside the
                                  study's range (struct pqpan_run_headline_row) */
    PQPAN_RUN_RECORD_MODE,    /* reproduce: one side of one PQKE mode at one level and DLE
                                 setting (struct pqpan_run_mode_row) */
    PQPAN_RUN_RECORD_BUILD,   /* reproduce: one side of a sig mode in one of pqpan's Cortex-M4
                                 builds (struct pqpan_run_build_row) */
    PQPAN_RUN_RECORD_BATTERY, /* idle with --exchange-uj: the battery figures (struct
                                 pqpan_run_idle_battery), after the PHASE rows */
    PQPAN_RUN_RECORD_TRACE,   /* trace: the capture (struct pqpan_run_trace_row), first */
    PQPAN_RUN_RECORD_TRACE_PHASE, /* trace: the whole trace (phase "total"), then each phase
                                     (struct pqpan_run_trace_phase) */
    PQPAN_RUN_RECORD_SEGMENT, /* trace --segments: one segment of a channel phase (struct
                                 pqpan_run_trace_segment), in the capture's order, last */
    PQPAN_RUN_RECORD_MESH_CELL, /* compare --mesh: one level over one network (struct
                                  pqpan_run_mesh_cell), after the notes */
    PQPAN_RUN_RECORD_MESH_CHOICE, /* advise --link ble-mesh: one configuration of the ranked
                                  list (struct pqpan_run_mesh_choice), in rank order, after
                                  the notes */
    PQPAN_RUN_RECORD_MESH_BEST /* advise --link ble-mesh: the best configuration of one bearer
                                  (struct pqpan_run_mesh_choice, rank 0), PB-ADV first, after
                                  the MESH_CHOICE rows */
};

/* One row: its record, the field table it is a record of and one typed value per field.
 * groups (SIDE): the groups of fields the command shows (a mask of enum pqpan_run_group;
 * a table output prints the CONFIG group in its heading, not as rows). exchange (SIDE):
 * the row the values were read from, for C faces that print through the field table. */
struct pqpan_run_row {
    enum pqpan_run_record record;
    enum pqpan_run_link link;
    unsigned groups;
    const struct pqpan_run_field *fields;
    size_t n_fields;
    const struct pqpan_run_value *values;
    const struct pqpan_run_exchange_row *exchange;
    const void *data; /* IDLE, PHASE, NODE: the struct the values come from */
};

/* Receives each row of a run, in output order (notes, then sides); a non-zero return stops
 * the run (PQPAN_ERR_IO). */
typedef int (*pqpan_run_emit)(void *ctx, const struct pqpan_run_row *row);

/* Runs command ("estimate", "idle", "sweep", "profiles", "simulate", "advise", "calibrate",
 * "compare", "reproduce", "trace"; estimate and simulate on --link ble, 802154 or ble-mesh)
 * with opts[0..n_opts) (trace's FILE as the pair ("FILE", path)), each checked against the
 * command's option tables (the CLI's: `pqpan help --json`; every option left out takes its
 * default), and passes its rows to emit. PQPAN_OK, or a PQPAN_ERR_* code with *err filled
 * (err may be NULL). Allocates the run's energy inputs and frees them before it returns. */
int pqpan_run(const char *command, const struct pqpan_run_opt *opts, size_t n_opts,
              pqpan_run_emit emit, void *ctx, struct pqpan_run_error *err);

/* Whether flag name is on in opts[0..n_opts) as pqpan_run reads it: its last pair has no
 * value or an on word (on, true, yes, 1, any case). For a face laying out a run's output
 * (trace --segments: a "segments" list even when it has no items). */
int pqpan_run_flag_on(const struct pqpan_run_opt *opts, size_t n_opts, const char *name);

/* Where a record's rows go in the CLI's JSON output: the array member they are the items of
 * ("sides", "phases", "nodes", "segments"; advise --link ble-mesh's "choices" and
 * "best_per_bearer"; compare's (--mesh's too) and reproduce's "rows", reproduce's
 * "headline", "modes", "builds"; profiles' "profiles" and "figures", which the CLI nests: its
 * list is the bare array of the profiles, each with its figures as "sources" {column:
 * source}, and show's object is the profile's name and description with its "figures"),
 * "" for a record whose fields are members of the
 * top-level object (IDLE, TRACE), "battery" for BATTERY, the one object member of that name
 * (of its GROUP_JSON fields), NULL for the notes and warnings (NOTE, MEMBERS, WARNING: text,
 * not rows) and for rows a face lays out itself (TRACE_PHASE: the first, "total", is the
 * member "total", the others the items of "phases"). */
const char *pqpan_run_record_key(enum pqpan_run_record record);

/* The CLI's exit status (docs/CLI.md) for a pqpan_run result: 0 for PQPAN_OK, 2 for
 * PQPAN_ERR_INVALID_ARG, 3 for PQPAN_ERR_MALFORMED, 4 for PQPAN_ERR_IO, 1 otherwise. */
int pqpan_run_exit_status(int code);

#endif
