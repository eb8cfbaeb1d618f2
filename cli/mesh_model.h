/* BLE Mesh provisioning as the CLI runs it (`estimate --link ble-mesh`, `compare`, `make
 * run`): options as data, the library's estimators (include/pqpan/mesh_prov.h:
 * pqpan_mesh_pbadv_estimate, pqpan_mesh_pbgatt_estimate) and the energy model (src/energy)
 * → one row per side (provisioner, device, total) printed by one field table. */
#ifndef PQPAN_CLI_MESH_MODEL_H
#define PQPAN_CLI_MESH_MODEL_H

#include <stdio.h>

#include "ble_model.h"
#include "link_opts.h"
#include "lowpan_model.h"
#include "pqpan/mesh_prov.h"
#include "pqpan/mesh_sim.h"

/* --bearer, in its words' order. */
enum mesh_bearer { MESH_BEARER_PB_ADV = 0, MESH_BEARER_PB_GATT, MESH_BEARER_NETWORK };

/* The --kem word of the specification's P-256 public keys. */
#define MESH_P256_NAME "P-256"

struct mesh_opts {
    int bearer;               /* enum mesh_bearer */
    const char *kem;          /* an ML-KEM name or MESH_P256_NAME */
    int hybrid;               /* --hybrid p256: P-256 key || ML-KEM key in each Public Key PDU */
    int alg;                  /* --prov-alg: enum pqpan_mesh_prov_alg */
    uint64_t adv_interval_ns; /* PB-ADV */
    uint32_t pdu_transmissions, ack_transmissions, close_transmissions;
    struct link_opts gatt;    /* --phy (both bearers), --att-mtu, --ll-octets, --ci-ms, --reply */
    const char *adv_given;    /* the first PB-ADV-only option given, or NULL */
    const char *gatt_given;   /* the first PB-GATT-only option given, or NULL */
};

/* The options of struct mesh_opts as data (opts.h); the link options PB-GATT shares with the
 * BLE link are link_opts_table's rows named in mesh_gatt_opts. */
extern const struct cli_opt_table mesh_opts_table;
extern const char *const mesh_gatt_opts[];

void mesh_opts_init(struct mesh_opts *o);

/* 1 if argv holds "--link ble-mesh". */
int mesh_link_requested(int argc, char **argv);

/* Tries argv[*i] as an option of --link ble-mesh (the link's, then PB-GATT's link
 * options). 1 consumed, 0 not one, -1 after a usage error. */
int mesh_opts_parse(struct mesh_opts *o, const char *cmd, int argc, char **argv, int *i);

/* After parsing: EXIT_OK, or EXIT_USAGE after a message (the network bearer, an option of
 * the other bearer, --hybrid with P-256, a PHY PB-ADV cannot use). */
int mesh_opts_check(const struct mesh_opts *o, const char *cmd);

/* Help lines of the options. */
void mesh_opts_help(FILE *out);

enum mesh_side { MESH_PROVISIONER = 0, MESH_DEVICE, MESH_TOTAL, MESH_SIDES };

/* One side of one provisioning run: energy (events accounting: every state the ledger
 * holds, scanning included), times and counts. */
struct mesh_row {
    const char *side;
    double e_comp_uj, e_comm_uj, e_total_uj, comm_share_pct, e_comm_bits_uj;
    double latency_ms, t_tx_ms, t_rx_ms, t_crypto_ms;
    unsigned long long pdus_tx, pdus_rx, bytes_tx, bytes_rx;
    unsigned long long segments, adv_events; /* PB-ADV */
    unsigned long long proxy_pdus;           /* PB-GATT */
};

/* A run: its rows and what it agreed. */
struct mesh_result {
    struct mesh_row rows[MESH_SIDES];
    struct pqpan_mesh_prov_keys keys;
    uint32_t transactions; /* PB-ADV: Provisioning PDUs (one transaction each) */
    uint32_t pk_parts[2];  /* Public Key PDUs each side sends (> 1: the key split, PB-ADV) */
    double span_ms;        /* PB-ADV: to the end of the last event (Link Close) */
};

/* Runs the provisioning o describes with env's energy inputs (both sides env's device).
 * A cli.h exit code, message in *msg. */
int mesh_estimate(struct mesh_result *r, const struct model_env *env, const struct mesh_opts *o,
                  struct cli_msg *msg);

/* A simulated run (`simulate --link ble-mesh`): the seed in, what the run agreed out. */
struct mesh_sim_info {
    uint64_t seed;
    int keys_equal, complete;
    uint8_t failed_code; /* the device's Provisioning Failed error code, 0 if none */
    uint32_t packets;    /* advertising PDUs on the air */
    uint8_t device_key[PQPAN_MESH_KEY_BYTES]; /* the provisioner's */
};

/* Runs the provisioning o describes over PB-ADV through the library's simulator
 * (pqpan_mesh_pbadv_simulate), each advertising PDU to on_packet(ctx) when not NULL; rows
 * as mesh_estimate's. A cli.h exit code, message in *msg (a refused option: EXIT_USAGE). */
int mesh_simulate(struct mesh_result *r, struct mesh_sim_info *info, const struct model_env *env,
                  const struct mesh_opts *o, pqpan_mesh_pbadv_packet_fn on_packet, void *ctx,
                  struct cli_msg *msg);

/* Prints r as cmd's table, CSV or JSON; sim adds the simulated run's lines / members (NULL
 * for estimate). */
void mesh_print(const struct mesh_opts *o, const struct model_env *env,
                const struct mesh_result *r, enum cli_format format, const char *cmd,
                const struct mesh_sim_info *sim);

/* `pqpan simulate --link ble-mesh ...` (simulate.c dispatches to it; cli/mesh_simulate.c). */
int mesh_simulate_run(int argc, char **argv);

/* "PB-ADV", "PB-GATT"; the variant as the output names it ("mlkem", "p256", "hybrid"). */
const char *mesh_bearer_name(int bearer);

/* `pqpan estimate --link ble-mesh ...` (estimate.c dispatches to it). */
int mesh_estimate_run(int argc, char **argv);

/* `pqpan compare --mesh` (compare_mesh.c): per ML-KEM level, the PQKE across 1..8 hops of
 * 6LoWPAN with l's radio states, forwarding and variant, and provisioning over PB-ADV and
 * PB-GATT with the defaults; one table, CSV or JSON. A cli.h exit code, message printed. */
int mesh_compare_print(const struct model_env *env, const struct lowpan_opts *l,
                       enum cli_format format);

/* The rows as the table, CSV or JSON prints them (mesh_estimate.c). */
void mesh_print_rows_csv(FILE *f, const struct mesh_opts *o, const struct mesh_result *r);

#endif
