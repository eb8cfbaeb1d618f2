/* BLE Mesh provisioning as the run layer runs it (`estimate` / `simulate --link ble-mesh`,
 * run_mesh.c; `compare --mesh`): options as data, the library's estimators
 * (include/pqpan/mesh_prov.h: pqpan_mesh_pbadv_estimate, pqpan_mesh_pbgatt_estimate), its
 * simulators (include/pqpan/mesh_sim.h) and the energy model (src/energy) → one row per side
 * (provisioner, device, total). */
#ifndef PQPAN_RUN_MESH_MODEL_H
#define PQPAN_RUN_MESH_MODEL_H

#include <stdio.h>

#include "link.h"
#include "lowpan.h"
#include "model.h"
#include "pqpan/mesh_net.h"
#include "pqpan/mesh_prov.h"
#include "pqpan/mesh_sim.h"
#include "pqpan/run.h"
#include "run_ns.h"

/* --bearer, in its words' order. */
enum mesh_bearer { MESH_BEARER_PB_ADV = 0, MESH_BEARER_PB_GATT, MESH_BEARER_NETWORK };

/* Transmissions of one PB-ADV PDU: Zephyr's BT_MESH_TRANSMIT count is 3 bits (0..7
 * retransmissions), as the Network Transmit Count state of MshPRT v1.1 §4.2.19. */
#define MESH_TRANSMISSIONS_MAX 8u

/* The --kem word of the specification's P-256 public keys. */
#define MESH_P256_NAME "P-256"

/* --bearer network's own options (mesh_net_opts_table). */
struct mesh_net_opts {
    uint32_t hops, relays, ttl;
    uint32_t net_transmit_count, relay_retransmit_count;
    uint64_t net_transmit_interval_ns, relay_retransmit_interval_ns, seg_interval_ns;
    int transmic; /* --transmic: 0 32 bits, 1 64 bits */
    int lpn;      /* --lpn: enum pqpan_mesh_net_lpn */
    uint32_t friend_queue;
    uint64_t lpn_recv_delay_ns, friend_recv_win_ns, lpn_poll_ns;
    /* the SAR states (--sar-*, MshPRT v1.1 §4.2.48, §4.2.49) */
    uint32_t sar_retrans_count, sar_retrans_no_progress, sar_ack_delay_inc;
    uint64_t sar_retrans_step_ns, sar_retrans_inc_ns, sar_rx_seg_interval_ns;
    uint32_t sar_discard_s;
    int relay_collisions; /* --relay-collisions: 0 off, 1 on */
};

struct mesh_opts {
    int bearer;               /* enum mesh_bearer */
    const char *kem;          /* an ML-KEM name or MESH_P256_NAME */
    int hybrid;               /* --hybrid p256: P-256 key || ML-KEM key in each Public Key PDU */
    int alg;                  /* --prov-alg: enum pqpan_mesh_prov_alg */
    uint64_t adv_interval_ns; /* PB-ADV */
    uint32_t pdu_transmissions, ack_transmissions, close_transmissions;
    double per;               /* PB-ADV: packet error rate of each advertising packet */
    uint64_t scan_window_ns, scan_interval_ns; /* PB-ADV: each side's scanning */
    int setup;                /* PB-GATT --setup: enum pqpan_mesh_pbgatt_setup */
    uint64_t pbgatt_adv_interval_ns; /* PB-GATT: the device's advInterval (--setup full) */
    struct link_opts gatt;    /* --phy (both bearers), --att-mtu, --ll-octets, --ci-ms, --reply */
    struct mesh_net_opts net; /* --bearer network */
    struct link_pqke pqke;    /* --auth, --sig (--bearer network; --hybrid is o->hybrid) */
    const char *adv_given;    /* the first PB-ADV-only option given, or NULL */
    const char *gatt_given;   /* the first PB-GATT-only option given, or NULL */
    const char *net_given;    /* the first --bearer network-only option given, or NULL */
    const char *prov_given;   /* --prov-alg when given (provisioning only), or NULL */
    const char *per_given;    /* --per when given (PB-ADV and network), or NULL */
};

/* The options of struct mesh_opts as data (opts.h); the link options PB-GATT shares with the
 * BLE link are link_opts_table's rows named in mesh_gatt_opts. */
extern const struct cli_opt_table mesh_opts_table;
extern const char *const mesh_gatt_opts[];
/* --bearer network's options (mesh_net_model.c), and the rows of link_pqke_table it takes
 * (--auth, --sig). */
extern const struct cli_opt_table mesh_net_opts_table;
extern const char *const mesh_pqke_opts[];

void mesh_opts_init(struct mesh_opts *o);

/* Notes that option name (given: the request held it) went into o: the first option of
 * one bearer only, for mesh_opts_check. */
void mesh_opts_given(struct mesh_opts *o, const char *name);

/* After the options: EXIT_OK, or EXIT_USAGE with the message in *msg and the option it is
 * about in *option (the network bearer, an option of the other bearer, --hybrid with P-256,
 * a PHY PB-ADV cannot use). */
int mesh_opts_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg);

enum mesh_side { MESH_PROVISIONER = 0, MESH_DEVICE, MESH_TOTAL, MESH_SIDES };
/* --bearer network's rows: initiator, responder, relay (with hops > 1), friend (--lpn with
 * hops > 1), total. */
#define MESH_ROWS_MAX 5

/* A run: its rows and what it agreed. */
struct mesh_result {
    struct pqpan_run_mesh_row rows[MESH_ROWS_MAX]; /* the figures; the run names the texts */
    int n_rows;            /* MESH_SIDES, or the network bearer's 3 or 4 */
    struct pqpan_mesh_prov_keys keys;
    uint32_t transactions; /* PB-ADV: Provisioning PDUs (one transaction each) */
    uint32_t pk_parts[2];  /* Public Key PDUs each side sends (> 1: the key split, PB-ADV) */
    double span_ms;        /* PB-ADV: to the end of the last event (Link Close); network:
                              of the last event of any node */
    double setup_ms;       /* PB-GATT: the set-up's part of the latency (0 with --setup none) */
    uint32_t msg_octets[4]; /* network: INIT, RESP, FIN, REVEAL (0: none) */
    uint32_t msg_parts[4];  /* network: the access messages of each */
    uint32_t polls, friend_updates, friend_pdus, friend_queue_peak; /* network, --lpn */
    double lpn_rx_ms;       /* network, --lpn: the LPN's receive windows */
    double completes;       /* network, estimate: the chance every message completes */
};

/* --bearer network's estimate (mesh_net_model.c): rows initiator, responder, relay (one
 * relay node; with hops > 1), total (every node). A cli.h exit code, message in *msg. */
int mesh_net_estimate(struct mesh_result *r, const struct model_env *env,
                      const struct mesh_opts *o, struct cli_msg *msg);

/* --bearer network executed info->runs times (pqpan_mesh_net_simulate, seeds info->seed
 * ..): rows as mesh_net_estimate's, of the first run, with the statistics of the completed
 * runs (mesh_runs_stats); info's keys_equal, complete, packets (Network PDUs built) of the
 * first run, completed and keys_differ of all; the first run's advertising packets into cap
 * when not NULL (mesh_capture_open). */
struct mesh_sim_info;
struct mesh_capture;
int mesh_net_simulate(struct mesh_result *r, struct mesh_sim_info *info,
                      const struct model_env *env, const struct mesh_opts *o,
                      struct mesh_capture *cap, struct cli_msg *msg);

/* After the options, for --bearer network: EXIT_OK or EXIT_USAGE (a provisioning
 * option, P-256, a PHY other than LE 1M, an interval off the 10 ms grid), *option the
 * option it is about. */
int mesh_net_opts_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg);

/* A row's energy and counts from one ledger (both accountings of the energy model):
 * model_fill_side's figures. A cli.h exit code, message in *msg. */
int mesh_fill_row(struct pqpan_run_mesh_row *row, const struct model_env *env,
                  enum pqpan_radio_mode radio, const struct pqpan_ledger *l, struct cli_msg *msg);

/* The notes of a --bearer network run: the table's lines after its title, the JSON
 * members (each followed by a comma). */
void mesh_net_table_notes(FILE *f, const struct mesh_opts *o, const struct mesh_result *r);
void mesh_net_json_notes(FILE *f, const struct mesh_opts *o, const struct mesh_result *r);

/* The TransMIC of o in octets (4 or 8). */
uint32_t mesh_net_transmic(const struct mesh_opts *o);

/* Runs the provisioning o describes with env's energy inputs (both sides env's device).
 * A cli.h exit code, message in *msg. */
int mesh_estimate(struct mesh_result *r, const struct model_env *env, const struct mesh_opts *o,
                  struct cli_msg *msg);

/* A simulated run (`simulate --link ble-mesh`): the seed in, what the run agreed out. */
struct mesh_sim_info {
    uint64_t seed;
    unsigned runs;       /* in: runs, seeds seed .. seed + runs - 1 (the first's rows) */
    unsigned completed;  /* out: runs that reached Provisioning Complete */
    int keys_differ;     /* out: a completed run whose keys differ */
    int keys_equal, complete;
    uint8_t failed_code; /* the device's Provisioning Failed error code, 0 if none */
    uint32_t packets;    /* PB-ADV: advertising PDUs on the air; PB-GATT: LL data PDUs with
                            a payload */
    uint8_t device_key[PQPAN_MESH_KEY_BYTES]; /* the provisioner's */
};

/* Runs the provisioning o describes info->runs times through the library's simulator of
 * its bearer (pqpan_mesh_pbadv_simulate, pqpan_mesh_pbgatt_simulate), the first run's
 * packets into cap when not NULL (mesh_capture_open); rows as mesh_estimate's, of the first
 * run, with the statistics over the completed runs when mesh_stats_shown. A cli.h exit code, message in *msg (a
 * refused option: EXIT_USAGE). */
int mesh_simulate(struct mesh_result *r, struct mesh_sim_info *info, const struct model_env *env,
                  const struct mesh_opts *o, struct mesh_capture *cap, struct cli_msg *msg);

/* Whether advertising events can go unheard: --per > 0 (PB-ADV or network), or (PB-ADV) a
 * scan window below its interval. */
int mesh_lossy(const struct mesh_opts *o);

/* The statistics of n completed runs of runs into r's rows (its n_rows): v holds each
 * row's energy, then the latency, runs values apart. */
void mesh_runs_stats(struct mesh_result *r, unsigned runs, double *v, unsigned n);

/* Whether a simulated run's rows carry the runs' statistics (--runs > 1 or mesh_lossy). */
int mesh_stats_shown(const struct mesh_opts *o, unsigned runs);

/* simulate --link ble-mesh's own options (--seed, --pcap; run_mesh.c). */
extern const struct cli_opt_table mesh_simulate_table;

/* The option row of name as --link ble-mesh takes it (simulated: simulate's, with
 * mesh_simulate_table), NULL if it takes none: what the CLI turns argv into a request by. */
const struct cli_opt *mesh_opt_row(int simulated, const char *name);

/* --pcap (mesh_capture.c): the packets a simulated run gives, written sorted by time when
 * it ends. open: EXIT_OK or EXIT_IO (message printed, as outfile.c says why); packet: the
 * simulator's packet callback with the capture as ctx; close: writes them (keep) or removes
 * the file and frees the capture, EXIT_OK or EXIT_IO. */
int mesh_capture_open(struct mesh_capture **out, const char *path);
int mesh_capture_packet(void *ctx, uint64_t t_ns, uint8_t channel, const uint8_t *pdu,
                        size_t len);
int mesh_capture_close(struct mesh_capture *c, int keep);
/* PB-GATT's packet callback (pqpan_mesh_pbgatt_packet_fn): any LL PDU, as given. */
int mesh_capture_ll(void *ctx, uint64_t t_ns, const struct pqpan_pcap_ble_info *info,
                    const uint8_t *pdu, size_t len);

/* "PB-ADV", "PB-GATT", "the mesh network". */
const char *mesh_bearer_name(int bearer);

/* "provisioner", "device", "total": side s (enum mesh_side). */
const char *mesh_side_name(int s);

/* ---- the MESH record (run_mesh.c) ---- */

/* The MESH record's fields estimate gives for the provisioning (pqpan_run_mesh_fields up
 * to keys_equal, simulate's, which the runs' statistics follow, but auth, the PQKE's of
 * --bearer network alone): the columns of a --link ble-mesh sweep, which covers the
 * provisioning only (its Start always names Authentication Method 0x00, No OOB: Mesh
 * Protocol §5.4.1.3, src/mesh/prov_sim.c; its Start algorithm is the prov_alg column).
 * Copied into out[0..cap) when out is not NULL; their count. */
size_t mesh_sweep_fields(struct pqpan_run_field *out, size_t cap);

/* Whether a row of o's bearer has field f of mesh_sweep_fields and keys_equal (segments
 * and adv_events PB-ADV's, proxy_pdus PB-GATT's, resent_segments mesh_lossy's; keys_equal
 * only when simulated). */
int mesh_field_on(const struct pqpan_run_field *f, const struct mesh_opts *o, int simulated);

/* The texts of res's rows (bearer, kem, hybrid, variant, prov_alg; keys_equal from sim,
 * NULL for an estimate) from the options o of the run. */
void mesh_row_texts(struct mesh_result *res, const struct mesh_opts *o,
                    const struct mesh_sim_info *sim);

#endif
