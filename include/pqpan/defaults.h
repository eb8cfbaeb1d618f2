/* One table of defaults: the value every face of pqpan takes for an option it is not
 * given — the CLI's option tables (and so `--help`, the man page, `pqpan help --json`),
 * the Python package's keyword arguments, the web page's controls and the library's own
 * *_default() functions (pqpan_ble_config_default, pqpan_sim_config_default,
 * pqpan_802154_est_config_default, pqpan_sim154_config_default). docs/CLI.md "Defaults"
 * lists it.
 *
 * One row per option meaning: an option that has the same name and takes the same values
 * in two commands reads one row, so no two commands give it different defaults. Where a
 * command needs another value for another purpose it has an option of another name and
 * its own row (the idle link's --idle-ci-ms beside the exchange's --ci-ms; advise's
 * sleepy end device, --sed-idle, beside the 802.15.4 exchange's --idle). A few names are
 * shared by options that take different values (--param of kem, sig, ecdh and bench;
 * --seed of a simulation and of ML-DSA KeyGen; --format of sweep, whose rows have no
 * table form): those are different options with a row each. */
#ifndef PQPAN_DEFAULTS_H
#define PQPAN_DEFAULTS_H

#include <stdint.h>

enum pqpan_default_id {
    PQPAN_DEFAULT_NONE = 0, /* no default: the option is off or absent when not given */
    /* the exchange */
    PQPAN_DEFAULT_PROTOCOL,
    PQPAN_DEFAULT_KEM,
    PQPAN_DEFAULT_AUTH,
    PQPAN_DEFAULT_SIG,
    PQPAN_DEFAULT_HYBRID,
    /* the BLE link of the exchange */
    PQPAN_DEFAULT_LINK,
    PQPAN_DEFAULT_PHY,
    PQPAN_DEFAULT_ATT_MTU,
    PQPAN_DEFAULT_LL_OCTETS,
    PQPAN_DEFAULT_MAX_TX_TIME_US,
    PQPAN_DEFAULT_TRANSFER,
    PQPAN_DEFAULT_CI_MS,
    PQPAN_DEFAULT_EVENT_LEN_MS,
    PQPAN_DEFAULT_MAX_PDUS_PER_EVENT,
    PQPAN_DEFAULT_REPLY,
    PQPAN_DEFAULT_KEYGEN_SIDE,
    PQPAN_DEFAULT_GATT_SERVER,
    PQPAN_DEFAULT_BITS_IFS,
    /* the BLE set-up before the exchange */
    PQPAN_DEFAULT_ADV_INTERVAL_MS,
    PQPAN_DEFAULT_FEATURES,
    PQPAN_DEFAULT_CONN_UPDATE,
    PQPAN_DEFAULT_INITIAL_CI_MS,
    PQPAN_DEFAULT_DISCOVERY,
    /* the idle link between exchanges (idle, advise) */
    PQPAN_DEFAULT_IDLE_PHY,
    PQPAN_DEFAULT_IDLE_CI_MS,
    PQPAN_DEFAULT_IDLE_LATENCY,
    PQPAN_DEFAULT_IDLE_LL_OCTETS,
    PQPAN_DEFAULT_POLL_MS,
    PQPAN_DEFAULT_ROLE,
    /* IEEE 802.15.4 */
    PQPAN_DEFAULT_CSMA,
    PQPAN_DEFAULT_ADDR,
    PQPAN_DEFAULT_BACKOFF,
    PQPAN_DEFAULT_IDLE_RADIO,
    PQPAN_DEFAULT_SED_IDLE,
    PQPAN_DEFAULT_MAC_SECURITY,
    PQPAN_DEFAULT_KEY_ID_MODE,
    PQPAN_DEFAULT_BUSY,
    PQPAN_DEFAULT_HOPS,
    PQPAN_DEFAULT_FORWARDING,
    /* BLE Mesh provisioning (--link ble-mesh) */
    PQPAN_DEFAULT_BEARER,
    PQPAN_DEFAULT_PROV_ALG,
    PQPAN_DEFAULT_PBADV_INTERVAL_MS,
    PQPAN_DEFAULT_PBGATT_SETUP,
    PQPAN_DEFAULT_PBGATT_ADV_INTERVAL_MS,
    PQPAN_DEFAULT_PBADV_PDU_TRANSMISSIONS,
    PQPAN_DEFAULT_PBADV_ACK_TRANSMISSIONS,
    PQPAN_DEFAULT_PBADV_CLOSE_TRANSMISSIONS,
    PQPAN_DEFAULT_MESH_RUNS,
    PQPAN_DEFAULT_SCAN_WINDOW_MS,
    PQPAN_DEFAULT_SCAN_INTERVAL_MS,
    /* keys between mesh nodes (--bearer network) */
    PQPAN_DEFAULT_MESH_RELAYS,
    PQPAN_DEFAULT_MESH_TTL,
    PQPAN_DEFAULT_MESH_NET_TRANSMIT_COUNT,
    PQPAN_DEFAULT_MESH_NET_TRANSMIT_INTERVAL_MS,
    PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_COUNT,
    PQPAN_DEFAULT_MESH_RELAY_RETRANSMIT_INTERVAL_MS,
    PQPAN_DEFAULT_MESH_SEG_INTERVAL_MS,
    PQPAN_DEFAULT_MESH_TRANSMIC,
    PQPAN_DEFAULT_LPN,
    PQPAN_DEFAULT_FRIEND_QUEUE,
    PQPAN_DEFAULT_LPN_RECV_DELAY_MS,
    PQPAN_DEFAULT_FRIEND_RECV_WIN_MS,
    PQPAN_DEFAULT_LPN_POLL_MS,
    PQPAN_DEFAULT_MESH_SAR_RETRANS_COUNT,
    PQPAN_DEFAULT_MESH_SAR_RETRANS_NO_PROGRESS,
    PQPAN_DEFAULT_MESH_SAR_RETRANS_INTERVAL_MS,
    PQPAN_DEFAULT_MESH_SAR_RETRANS_INCREMENT_MS,
    PQPAN_DEFAULT_MESH_SAR_ACK_DELAY_INC,
    PQPAN_DEFAULT_MESH_SAR_RX_SEG_INTERVAL_MS,
    PQPAN_DEFAULT_MESH_SAR_DISCARD_S,
    PQPAN_DEFAULT_MESH_RELAY_COLLISIONS,
    /* simulation */
    PQPAN_DEFAULT_TRANSPORT,
    PQPAN_DEFAULT_PER,
    PQPAN_DEFAULT_BER,
    PQPAN_DEFAULT_SEED,
    PQPAN_DEFAULT_SUPERVISION_TIMEOUT_MS,
    PQPAN_DEFAULT_TRACE_SIDE,
    PQPAN_DEFAULT_ADV_CASE,
    PQPAN_DEFAULT_NODES,
    PQPAN_DEFAULT_LOAD,
    PQPAN_DEFAULT_FRAME_BYTES,
    PQPAN_DEFAULT_HIDDEN,
    PQPAN_DEFAULT_CAPTURE,
    PQPAN_DEFAULT_REASM_TIMEOUT,
    PQPAN_DEFAULT_DGRAM_RETRIES,
    PQPAN_DEFAULT_RUNS,
    /* energy */
    PQPAN_DEFAULT_PROFILE,
    PQPAN_DEFAULT_CURRENTS,
    PQPAN_DEFAULT_TX_DBM,
    PQPAN_DEFAULT_SUPPLY_V,
    PQPAN_DEFAULT_RAM_RETAINED_KB,
    PQPAN_DEFAULT_RAMP,
    PQPAN_DEFAULT_CRYPTO_IMPL,
    PQPAN_DEFAULT_P256_IMPL,
    PQPAN_DEFAULT_LESC_KEYPAIR,
    PQPAN_DEFAULT_CALIBRATION,
    PQPAN_DEFAULT_GAMMA_COMM,
    /* advise */
    PQPAN_DEFAULT_PEER_PROFILE,
    PQPAN_DEFAULT_BATTERY_SIDE,
    PQPAN_DEFAULT_BATTERY_MAH,
    PQPAN_DEFAULT_APP_UA,
    PQPAN_DEFAULT_SELF_DISCHARGE_PCT_YEAR,
    PQPAN_DEFAULT_BATTERY_DERATE,
    PQPAN_DEFAULT_REKEY_EVERY,
    PQPAN_DEFAULT_MIN_LEVEL,
    PQPAN_DEFAULT_MAX_LATENCY_MS,
    PQPAN_DEFAULT_ADVISE_AUTH,
    PQPAN_DEFAULT_ADVISE_HYBRID,
    PQPAN_DEFAULT_PEER_PHYS,
    PQPAN_DEFAULT_PEER_MAX_LL_OCTETS,
    PQPAN_DEFAULT_PEER_MAX_MTU,
    PQPAN_DEFAULT_TOP,
    /* outputs, sweep */
    PQPAN_DEFAULT_FORMAT,
    PQPAN_DEFAULT_SWEEP_FORMAT,
    PQPAN_DEFAULT_OUT,
    PQPAN_DEFAULT_JOBS,
    PQPAN_DEFAULT_SHARD,
    /* calibrate, trace, reproduce */
    PQPAN_DEFAULT_SIDE,
    PQPAN_DEFAULT_CALIBRATE_VOLTAGE,
    PQPAN_DEFAULT_CALIBRATE_BASELINE_UA,
    PQPAN_DEFAULT_CALIBRATE_PHASES,
    PQPAN_DEFAULT_OPS,
    PQPAN_DEFAULT_COMM_MODEL,
    PQPAN_DEFAULT_OVERLAP,
    PQPAN_DEFAULT_TRACE_VOLTAGE,
    PQPAN_DEFAULT_TRACE_PHASES,
    PQPAN_DEFAULT_TRACE_BASELINE_UA,
    PQPAN_DEFAULT_BASELINE_PERCENTILE,
    PQPAN_DEFAULT_READING,
    /* kem, sig, ecdh, bench */
    PQPAN_DEFAULT_KEM_PARAM,
    PQPAN_DEFAULT_KEM_D,
    PQPAN_DEFAULT_KEM_Z,
    PQPAN_DEFAULT_KEM_M,
    PQPAN_DEFAULT_SIG_PARAM,
    PQPAN_DEFAULT_SIG_SEED,
    PQPAN_DEFAULT_SIG_CONTEXT,
    PQPAN_DEFAULT_SIG_RND,
    PQPAN_DEFAULT_ECDH_PARAM,
    PQPAN_DEFAULT_ECDH_SK,
    PQPAN_DEFAULT_BENCH_PARAM,
    PQPAN_DEFAULT_BENCH_OP,
    PQPAN_DEFAULT_ITERATIONS,
    PQPAN_DEFAULT_COUNT
};

/* One default. Exactly one of value and note is set. */
struct pqpan_default {
    const char *option; /* the option it is the default of, "--ci-ms" */
    const char *value;  /* the value, spelled as the option takes it ("50", "1M"), or NULL */
    const char *note;   /* the default in words when it is no value of the option ("the
                           profile's ieee802154.idle"), or NULL */
    const char *why;    /* where the choice comes from (the study, a clause, a datasheet) */
};

/* The row of id, or NULL for PQPAN_DEFAULT_NONE and ids out of range. */
const struct pqpan_default *pqpan_default_get(enum pqpan_default_id id);

/* The value of id (NULL when it has none): what the library's *_default() functions read. */
const char *pqpan_default_value(enum pqpan_default_id id);

/* The value of id as an unsigned integer, or 0 when it is none (a row of a count, a size
 * or a seed: "403", "27", "1"). */
uint32_t pqpan_default_u32(enum pqpan_default_id id);

/* The value of id, a number of milliseconds ("50", "7.5"), in nanoseconds; 0 when it is
 * none. */
uint64_t pqpan_default_ms_ns(enum pqpan_default_id id);

/* 1 if the value of id is word, else 0 (an on/off switch: "on"). */
int pqpan_default_is(enum pqpan_default_id id, const char *word);

#endif
