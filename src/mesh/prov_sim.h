/* The provisioning protocol executed, whatever carries it (MshPRT v1.1 §5.4): the
 * provisioner and the device build and check every Provisioning PDU of
 * pqpan_mesh_prov_plan byte by byte, with real ML-KEM / P-256 from src/crypto and the key
 * derivations of §5.4.2.4-.5. A bearer (PB-ADV: pbadv_sim.c; PB-GATT: pbgatt_sim.c) gives
 * the run a table of two operations, books the crypto and carries the PDUs, and hands
 * every PDU it delivers back with mesh_prov_receive. Internal to src/mesh. */
#ifndef PQPAN_MESH_PROV_SIM_H
#define PQPAN_MESH_PROV_SIM_H

#include "pqpan/ecdh.h"
#include "pqpan/kem.h"
#include "pqpan/mesh_sim.h"
#include "pqpan/sim.h"

/* A Provisioning PDU on PB-GATT is not limited by a segment counter (§6.3.1: SAR first,
 * continuation, last): pqpan plans every key as one PDU (of at most 65535 octets, the
 * TotalLength PB-ADV would give it). */
#define PQPAN_MESH_PBGATT_PDU_MAX UINT32_C(65535)

/* Confirmation, Random, ConfirmationSalt and ConfirmationKey: 16 octets with the CMAC
 * algorithm, 32 with HMAC-SHA-256 (§5.4.2.4); buffers hold the larger. */
#define MESH_PROV_VALUE_BYTES PQPAN_MESH_PROV_HMAC_VALUE_BYTES
#define MESH_PROV_KEY_RUN_MAX (PQPAN_MESH_PROV_P256_KEY_BYTES + PQPAN_KEM_EK_MAX_BYTES)
/* The longest Provisioning PDU: a whole key run in one Public Key PDU (PB-GATT). */
#define MESH_PROV_PDU_MAX                                                                      \
    (PQPAN_MESH_PROV_TYPE_BYTES + PQPAN_MESH_PROV_PART_BYTES + MESH_PROV_KEY_RUN_MAX)
/* ConfirmationInputs (§5.4.2.4): Invite, Capabilities, Start parameters, both keys. */
#define MESH_PROV_INPUTS_MAX                                                                   \
    (PQPAN_MESH_PROV_INVITE_PARAMS + PQPAN_MESH_PROV_CAPABILITIES_PARAMS +                     \
     PQPAN_MESH_PROV_START_PARAMS + 2u * MESH_PROV_KEY_RUN_MAX)
#define MESH_PROV_SECRET_MAX (PQPAN_ECDH_P256_SHARED_BYTES + PQPAN_MLKEM_SS_BYTES)
#define MESH_PROV_OUTBOX_MAX (PQPAN_MESH_PROV_PARTS_MAX + 1u)

struct mesh_prov_outgoing {
    uint8_t pdu[MESH_PROV_PDU_MAX];
    uint32_t len;
    uint32_t ops; /* crypto run since the previous PDU was queued (bits of enum pqpan_op) */
};

/* One side of the protocol. */
struct mesh_prov_party {
    enum pqpan_mesh_prov_role role;
    uint8_t ek[PQPAN_KEM_EK_MAX_BYTES], dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t p256_pk[PQPAN_ECDH_P256_PUBLIC_BYTES], p256_sk[PQPAN_ECDH_P256_SECRET_BYTES];
    uint8_t secret[MESH_PROV_SECRET_MAX];
    size_t secret_len;
    uint8_t key_run[2][MESH_PROV_KEY_RUN_MAX]; /* each side's Public Key octets, parts joined */
    uint32_t key_len[2], key_parts_got[2];
    uint8_t inputs[MESH_PROV_INPUTS_MAX];      /* Invite .. Start parameters, then the keys */
    uint32_t inputs_len;
    uint8_t random[MESH_PROV_VALUE_BYTES], peer_random[MESH_PROV_VALUE_BYTES];
    uint8_t peer_confirmation[MESH_PROV_VALUE_BYTES];
    uint8_t conf_salt[MESH_PROV_VALUE_BYTES], conf_key[MESH_PROV_VALUE_BYTES];
    uint32_t ops;                              /* crypto run since the last PDU was queued */
    struct mesh_prov_outgoing out[MESH_PROV_OUTBOX_MAX];
    uint32_t n_out, head;
    uint64_t ready_ns; /* when the side may send (its bearer's time) */
};

/* What the run agreed (index enum pqpan_mesh_prov_role). */
struct mesh_prov_outcome {
    uint8_t session_key[2][PQPAN_MESH_KEY_BYTES];
    uint8_t device_key[2][PQPAN_MESH_KEY_BYTES];
    uint8_t net_key[2][PQPAN_MESH_KEY_BYTES];
    int keys_equal, complete;
    uint8_t failed_code;
    uint32_t prov_pdus[2];
};

struct mesh_prov_run {
    const struct pqpan_kem *kem;
    struct pqpan_mesh_prov_keys keys;
    uint32_t part_room; /* key octets in one Public Key PDU (the bearer's largest PDU) */
    int corrupt_confirmation;
    struct pqpan_prng rng;
    struct mesh_prov_party side[2];
    struct pqpan_mesh_prov_step plan[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t plan_n, plan_at;
    uint8_t prov_data[PQPAN_MESH_PROV_DATA_BYTES];
    struct mesh_prov_outcome out;
    int failed; /* the run left the plan at a Provisioning Failed (or the provisioner's
                   check of the device's Confirmation) */
    int error;  /* a PQPAN_ERR_* that stops the run (the bearer's too) */
    int closed; /* the bearer closed the link (a transaction timed out): the run stops */
};

/* What a bearer does for the run: books the crypto ops (bits of enum pqpan_op) side s runs
 * from at and returns when they end; sends pdu[0..len) of s at t (handing it to the peer
 * with mesh_prov_receive when it is delivered). */
struct mesh_prov_bearer {
    uint64_t (*compute)(void *ctx, enum pqpan_mesh_prov_role s, uint64_t at, uint32_t ops);
    void (*send)(void *ctx, enum pqpan_mesh_prov_role s, uint64_t t, const uint8_t *pdu,
                 uint32_t len);
    void *ctx;
};

/* Sets up run for keys (CMAC only) with the bearer's largest Provisioning PDU max_pdu
 * (the plan's), the random source seeded with seed. PQPAN_OK, PQPAN_ERR_INVALID_ARG (no
 * such KEM), or pqpan_mesh_prov_plan's errors. */
int pqpan_mesh_prov_run_init(struct mesh_prov_run *run, const struct pqpan_mesh_prov_keys *keys,
                             uint32_t max_pdu, uint64_t seed, int corrupt_confirmation);

/* len octets of the run's random source (a bearer's Link ID, UUID); non-zero on failure. */
int pqpan_mesh_prov_run_random(struct mesh_prov_run *run, uint8_t *out, size_t len);

/* The Provisioning Data (§5.4.2.5): a random NetKey, Key Index 0, Flags 0, IV Index 0,
 * unicast address 0x0002 (the provisioner's 0x0001). PQPAN_OK or PQPAN_ERR_RNG. */
int pqpan_mesh_prov_run_data(struct mesh_prov_run *run);

/* Runs the protocol from the Invite until neither side has a PDU to send or the bearer
 * closed the link (run->closed), over b. */
void pqpan_mesh_prov_run_exchange(struct mesh_prov_run *run, const struct mesh_prov_bearer *b);

/* The step of the plan the PDU being sent is (NULL after a Provisioning Failed). */
const struct pqpan_mesh_prov_step *pqpan_mesh_prov_run_step(const struct mesh_prov_run *run);

/* A whole Provisioning PDU received by to at t. */
void pqpan_mesh_prov_run_receive(struct mesh_prov_run *run, enum pqpan_mesh_prov_role to,
                                 const uint8_t *pdu, uint32_t len, uint64_t t);

/* Sets run->out.keys_equal: complete, and the three keys equal on both sides. */
void pqpan_mesh_prov_run_finish(struct mesh_prov_run *run);

/* The keys the run agreed, into a simulator's result (index enum pqpan_mesh_prov_role). */
void pqpan_mesh_prov_run_keys(const struct mesh_prov_run *run,
                              uint8_t session_key[2][PQPAN_MESH_KEY_BYTES],
                              uint8_t device_key[2][PQPAN_MESH_KEY_BYTES],
                              uint8_t net_key[2][PQPAN_MESH_KEY_BYTES]);

/* A simulator's arguments: args_ok (no NULL, the bearer's options in range) and a known
 * Start algorithm (CMAC or HMAC-SHA-256), else PQPAN_ERR_INVALID_ARG. */
int pqpan_mesh_prov_sim_args(int args_ok, enum pqpan_mesh_prov_alg alg);

/* PB-GATT's (pbgatt.c), shared by its estimator and simulator: the link options in range;
 * the connection model's transaction of one Provisioning PDU of length octets from sender
 * (Proxy PDUs in ATT Write Commands / Notifications of ATT_MTU octets, the last shorter),
 * after wait_ns of crypto. */
int pqpan_mesh_pbgatt_config_ok(const struct pqpan_mesh_pbgatt_config *c);
void pqpan_mesh_pbgatt_txn(struct pqpan_ble_txn *t, enum pqpan_mesh_prov_role sender,
                           enum pqpan_phase phase, uint32_t length, uint32_t att_mtu,
                           uint64_t wait_ns);

#endif
