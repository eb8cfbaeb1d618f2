/* The provisioning protocol's PDU sequence (Mesh Protocol v1.1 §5.4.1, §5.4.2) with
 * pqpan's ML-KEM and hybrid variants of the Public Key PDUs (docs/PROTOCOL.md "Mesh
 * provisioning with ML-KEM"). */
#include <string.h>

#include "pqpan/common.h"
#include "pqpan/defaults.h"
#include "pqpan/mesh_prov.h"

#define OP_BIT(op) (1u << (unsigned)(op))

static const char *const variant_names[PQPAN_MESH_PROV_VARIANT_COUNT] = {"p256", "mlkem",
                                                                         "hybrid"};
static const char *const alg_names[PQPAN_MESH_PROV_ALG_COUNT] = {"cmac", "hmac"};

const char *pqpan_mesh_prov_variant_name(enum pqpan_mesh_prov_variant v)
{
    return ((unsigned)v < PQPAN_MESH_PROV_VARIANT_COUNT) ? variant_names[v] : "unknown";
}

const char *pqpan_mesh_prov_alg_name(enum pqpan_mesh_prov_alg a)
{
    return ((unsigned)a < PQPAN_MESH_PROV_ALG_COUNT) ? alg_names[a] : "unknown";
}

void pqpan_mesh_prov_keys_default(struct pqpan_mesh_prov_keys *k)
{
    const struct pqpan_kem *kem = pqpan_kem_by_name(pqpan_default_value(PQPAN_DEFAULT_KEM));
    k->variant = PQPAN_MESH_PROV_MLKEM;
    k->kem = kem != NULL ? kem->id : PQPAN_KEM_MLKEM768;
    k->alg = pqpan_default_is(PQPAN_DEFAULT_PROV_ALG, "cmac") ? PQPAN_MESH_PROV_ALG_CMAC
                                                               : PQPAN_MESH_PROV_ALG_HMAC;
}

struct plan {
    struct pqpan_mesh_prov_step *out;
    uint32_t n;
};

static void add(struct plan *p, enum pqpan_mesh_prov_role sender, enum pqpan_mesh_prov_type type,
                uint32_t params, enum pqpan_phase phase, uint32_t ops_before)
{
    struct pqpan_mesh_prov_step *s = &p->out[p->n++];
    memset(s, 0, sizeof *s);
    s->sender = sender;
    s->type = type;
    s->length = PQPAN_MESH_PROV_TYPE_BYTES + params;
    s->phase = phase;
    s->ops_before = ops_before;
}

/* One side's key (P-256 X || Y, or ek / ct after it in the hybrid) in Public Key PDUs:
 * the specification's single PDU for P-256; for the PQ variants the Part octet and runs of
 * at most max_pdu - Type - Part octets, in order. */
static int add_key(struct plan *p, enum pqpan_mesh_prov_role sender, uint32_t key, int parted,
                   uint32_t max_pdu, uint32_t ops_before)
{
    uint32_t room, parts, i, left = key;
    if (!parted) {
        add(p, sender, PQPAN_MESH_PROV_PUBLIC_KEY, key, PQPAN_PHASE_KEY_TRANSFER, ops_before);
        p->out[p->n - 1u].key_octets = key;
        return PQPAN_OK;
    }
    room = max_pdu - PQPAN_MESH_PROV_TYPE_BYTES - PQPAN_MESH_PROV_PART_BYTES;
    parts = (key + room - 1u) / room;
    if (parts > PQPAN_MESH_PROV_PARTS_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    for (i = 0; i < parts; i++) {
        uint32_t take = left < room ? left : room;
        add(p, sender, PQPAN_MESH_PROV_PUBLIC_KEY, PQPAN_MESH_PROV_PART_BYTES + take,
            PQPAN_PHASE_KEY_TRANSFER, i == 0u ? ops_before : 0u);
        p->out[p->n - 1u].key_octets = take;
        p->out[p->n - 1u].part = (uint8_t)i;
        p->out[p->n - 1u].parts = (uint8_t)parts;
        left -= take;
    }
    return PQPAN_OK;
}

/* The key octets each side sends and the crypto before its Public Key and Confirmation. */
struct keys {
    uint32_t octets[2];
    uint32_t ops_key[2];
    uint32_t ops_confirm[2];
};

static int keys_of(struct keys *k, enum pqpan_mesh_prov_variant variant, enum pqpan_kem_id kem)
{
    const struct pqpan_kem *d = pqpan_kem_by_id(kem);
    const uint32_t p256_key = OP_BIT(PQPAN_OP_ECDH_KEYGEN), p256_dh = OP_BIT(PQPAN_OP_ECDH_SHARED);
    memset(k, 0, sizeof *k);
    if (variant == PQPAN_MESH_PROV_P256) {
        k->octets[0] = k->octets[1] = PQPAN_MESH_PROV_P256_KEY_BYTES;
        k->ops_key[0] = k->ops_key[1] = p256_key;
        k->ops_confirm[0] = k->ops_confirm[1] = p256_dh;
        return PQPAN_OK;
    }
    if (d == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    k->octets[PQPAN_MESH_PROVISIONER] = (uint32_t)d->ek_bytes;
    k->octets[PQPAN_MESH_DEVICE] = (uint32_t)d->ct_bytes;
    k->ops_key[PQPAN_MESH_PROVISIONER] = OP_BIT(PQPAN_OP_KEM_KEYGEN);
    k->ops_key[PQPAN_MESH_DEVICE] = OP_BIT(PQPAN_OP_KEM_ENCAPS);
    k->ops_confirm[PQPAN_MESH_PROVISIONER] = OP_BIT(PQPAN_OP_KEM_DECAPS);
    if (variant == PQPAN_MESH_PROV_HYBRID) {
        int i;
        for (i = 0; i < 2; i++) {
            k->octets[i] += PQPAN_MESH_PROV_P256_KEY_BYTES;
            k->ops_key[i] |= p256_key;
            k->ops_confirm[i] |= p256_dh;
        }
    }
    return PQPAN_OK;
}

/* §5.4.2: Invite, Capabilities, Start (§5.4.2.1-.2), Public Keys (§5.4.2.3), then
 * authentication with No OOB: Confirmation and Random both ways (§5.4.2.4-.5), Data and
 * Complete (§5.4.2.6). */
int pqpan_mesh_prov_plan(struct pqpan_mesh_prov_step out[PQPAN_MESH_PROV_STEPS_MAX], uint32_t *n,
                         enum pqpan_mesh_prov_variant variant, enum pqpan_kem_id kem,
                         enum pqpan_mesh_prov_alg alg, uint32_t max_pdu)
{
    const enum pqpan_mesh_prov_role P = PQPAN_MESH_PROVISIONER, D = PQPAN_MESH_DEVICE;
    const enum pqpan_phase KT = PQPAN_PHASE_KEY_TRANSFER, CF = PQPAN_PHASE_CONFIRM;
    struct plan p;
    struct keys k;
    uint32_t value;
    int rc, parted = variant != PQPAN_MESH_PROV_P256;
    if (n == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *n = 0;
    if (out == NULL || (unsigned)variant >= PQPAN_MESH_PROV_VARIANT_COUNT ||
        (unsigned)alg >= PQPAN_MESH_PROV_ALG_COUNT ||
        max_pdu < PQPAN_MESH_PROV_TYPE_BYTES + PQPAN_MESH_PROV_P256_KEY_BYTES) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = keys_of(&k, variant, kem);
    if (rc != PQPAN_OK) {
        return rc;
    }
    value = alg == PQPAN_MESH_PROV_ALG_HMAC ? PQPAN_MESH_PROV_HMAC_VALUE_BYTES
                                            : PQPAN_MESH_PROV_CMAC_VALUE_BYTES;
    p.out = out;
    p.n = 0;
    add(&p, P, PQPAN_MESH_PROV_INVITE, PQPAN_MESH_PROV_INVITE_PARAMS, KT, 0u);
    add(&p, D, PQPAN_MESH_PROV_CAPABILITIES, PQPAN_MESH_PROV_CAPABILITIES_PARAMS, KT, 0u);
    add(&p, P, PQPAN_MESH_PROV_START, PQPAN_MESH_PROV_START_PARAMS, KT, 0u);
    rc = add_key(&p, P, k.octets[P], parted, max_pdu, k.ops_key[P]);
    if (rc == PQPAN_OK) {
        rc = add_key(&p, D, k.octets[D], parted, max_pdu, k.ops_key[D]);
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    add(&p, P, PQPAN_MESH_PROV_CONFIRMATION, value, CF, k.ops_confirm[P]);
    add(&p, D, PQPAN_MESH_PROV_CONFIRMATION, value, CF, k.ops_confirm[D]);
    add(&p, P, PQPAN_MESH_PROV_RANDOM, value, CF, 0u);
    add(&p, D, PQPAN_MESH_PROV_RANDOM, value, CF, 0u);
    add(&p, P, PQPAN_MESH_PROV_DATA, PQPAN_MESH_PROV_DATA_PARAMS, CF, 0u);
    add(&p, D, PQPAN_MESH_PROV_COMPLETE, 0u, CF, 0u);
    *n = p.n;
    return PQPAN_OK;
}

uint64_t pqpan_mesh_prov_book_ops(struct pqpan_ledger *l, uint32_t ops,
                                  const uint64_t cycles[PQPAN_OP_COUNT], uint32_t cpu_hz)
{
    uint64_t ns = 0;
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        if (ops & OP_BIT(op)) {
            uint64_t t = pqpan_cycles_to_ns(cycles[op], cpu_hz);
            pqpan_ledger_add_op(l, (enum pqpan_op)op, cycles[op]);
            pqpan_ledger_add(l, PQPAN_PHASE_CRYPTO, PQPAN_STATE_CPU, t);
            ns += t;
        }
    }
    return ns;
}
