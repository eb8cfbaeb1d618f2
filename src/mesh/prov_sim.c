/* The provisioning protocol executed (prov_sim.h): Provisioning PDUs built and checked byte
 * by byte (MshPRT v1.1 §5.4.1), the keys of §5.4.2.4-.5, the plan followed step by step;
 * the bearer that carries the PDUs is a table of two operations (PB-ADV: pbadv_sim.c,
 * PB-GATT: pbgatt_sim.c). */
#include <string.h>

#include "pqpan/aes.h"
#include "pqpan/common.h"
#include "pqpan/ieee802154.h"
#include "pqpan/sha256.h"
#include "prov_sim.h"

#define OP_BIT(op) (1u << (unsigned)(op))
#define P PQPAN_MESH_PROVISIONER
#define D PQPAN_MESH_DEVICE

/* §5.4.1.3 Start (Table 5.22-5.26): Algorithm 0x00 (BTM_ECDH_P256_CMAC_AES128_AES_CCM) or
 * 0x01 (BTM_ECDH_P256_HMAC_SHA256_AES_CCM), the values of enum pqpan_mesh_prov_alg; Public
 * Key 0x00 (No OOB Public Key), Authentication Method 0x00 (No OOB), Action and Size 0.
 * §5.4.1.2 Capabilities Algorithms: bit n set for Start Algorithm n (bit 0 CMAC, bit 1
 * HMAC); the simulated device supports the run's algorithm only. With No OOB the AuthValue
 * is zero octets as long as the algorithm's values: 16 (CMAC), 32 (HMAC) (§5.4.2.4). */
#define AUTH_VALUE_MAX PQPAN_MESH_PROV_HMAC_VALUE_BYTES
#define ALG_CMAC_KEY "prck"    /* §5.4.2.4: ConfirmationKey = k1(ECDHSecret, salt, "prck") */
#define ALG_HMAC_KEY "prck256" /* §5.4.2.4: k5(ECDHSecret || AuthValue, salt, "prck256") */

static int rng_fill(struct mesh_prov_run *m, uint8_t *out, size_t len)
{
    return pqpan_prng_fill(&m->rng, out, len);
}

/* ---- the provisioning protocol (§5.4.2) ---------------------------------------------- */

/* Queues a Provisioning PDU of type with params[0..n); the crypto run since the last one
 * goes with it (booked before it is sent). */
static void queue(struct mesh_prov_run *m, enum pqpan_mesh_prov_role s, uint8_t type, const uint8_t *params,
                  uint32_t n, uint64_t ready)
{
    struct mesh_prov_party *p = &m->side[s];
    struct mesh_prov_outgoing *o;
    if (p->n_out >= MESH_PROV_OUTBOX_MAX) {
        m->error = PQPAN_ERR_STATE;
        return;
    }
    o = &p->out[p->n_out++];
    o->pdu[0] = type;
    if (n > 0u) {
        memcpy(o->pdu + PQPAN_MESH_PROV_TYPE_BYTES, params, n);
    }
    o->len = PQPAN_MESH_PROV_TYPE_BYTES + n;
    o->ops = p->ops;
    p->ops = 0;
    p->ready_ns = ready;
}

static void inputs_add(struct mesh_prov_party *p, const uint8_t *data, uint32_t n)
{
    memcpy(p->inputs + p->inputs_len, data, n);
    p->inputs_len += n;
}

static int variant_has_p256(const struct mesh_prov_run *m)
{
    return m->keys.variant != PQPAN_MESH_PROV_MLKEM;
}

static int variant_has_kem(const struct mesh_prov_run *m)
{
    return m->keys.variant != PQPAN_MESH_PROV_P256;
}

static int alg_is_hmac(const struct mesh_prov_run *m)
{
    return m->keys.alg == PQPAN_MESH_PROV_ALG_HMAC;
}

/* Confirmation and Random octets (§5.4.1.6-.7): 16 (CMAC), 32 (HMAC-SHA-256). */
static uint32_t value_len(const struct mesh_prov_run *m)
{
    return alg_is_hmac(m) ? PQPAN_MESH_PROV_HMAC_VALUE_BYTES : PQPAN_MESH_PROV_CMAC_VALUE_BYTES;
}

static uint16_t algorithms_bit(const struct mesh_prov_run *m)
{
    return (uint16_t)(1u << (unsigned)m->keys.alg);
}

/* The octets of role r's key run: X || Y (P-256, hybrid), then ek (provisioner) or ct. */
static uint32_t key_run_len(const struct mesh_prov_run *m, enum pqpan_mesh_prov_role r)
{
    uint32_t n = variant_has_p256(m) ? PQPAN_MESH_PROV_P256_KEY_BYTES : 0u;
    if (variant_has_kem(m)) {
        n += (uint32_t)(r == P ? m->kem->ek_bytes : m->kem->ct_bytes);
    }
    return n;
}

/* A side's Public Key PDU(s) (§5.4.1.4; pqpan's Part octet in the PQ variants,
 * docs/PROTOCOL.md §10): the run filled in order into parts of at most m->part_room octets. */
static void queue_key(struct mesh_prov_run *m, enum pqpan_mesh_prov_role s, uint64_t ready)
{
    struct mesh_prov_party *p = &m->side[s];
    uint8_t params[MESH_PROV_PDU_MAX];
    uint32_t len = p->key_len[s], parts, i, off = 0;
    if (!variant_has_kem(m)) {
        queue(m, s, PQPAN_MESH_PROV_PUBLIC_KEY, p->key_run[s], len, ready);
        return;
    }
    parts = (len + m->part_room - 1u) / m->part_room;
    for (i = 0; i < parts; i++) {
        uint32_t take = len - off < m->part_room ? len - off : m->part_room;
        params[0] = (uint8_t)((i << 4) | (parts - 1u));
        memcpy(params + PQPAN_MESH_PROV_PART_BYTES, p->key_run[s] + off, take);
        queue(m, s, PQPAN_MESH_PROV_PUBLIC_KEY, params, PQPAN_MESH_PROV_PART_BYTES + take, ready);
        off += take;
    }
}

/* The P-256 part of s's run: a fresh key pair, X || Y (§5.4.1.4: big-endian coordinates). */
static void make_p256_key(struct mesh_prov_run *m, struct mesh_prov_party *p)
{
    int rc = pqpan_ecdh_p256_keypair(p->p256_pk, p->p256_sk, pqpan_prng_fill, &m->rng);
    if (rc != PQPAN_OK) {
        m->error = rc;
        return;
    }
    p->ops |= OP_BIT(PQPAN_OP_ECDH_KEYGEN);
    memcpy(p->key_run[p->role], p->p256_pk + 1, PQPAN_MESH_PROV_P256_KEY_BYTES);
    p->key_len[p->role] = PQPAN_MESH_PROV_P256_KEY_BYTES;
}

/* ECDHSecret from the peer's X || Y; written at the start of p->secret. */
static void p256_secret(struct mesh_prov_run *m, struct mesh_prov_party *p)
{
    uint8_t pk[PQPAN_ECDH_P256_PUBLIC_BYTES];
    int rc;
    pk[0] = 0x04u; /* SEC 1 §2.3.3 uncompressed */
    memcpy(pk + 1, p->key_run[1 - p->role], PQPAN_MESH_PROV_P256_KEY_BYTES);
    rc = pqpan_ecdh_p256_shared(p->secret, p->p256_sk, pk, sizeof pk);
    if (rc != PQPAN_OK) {
        m->error = rc;
        return;
    }
    p->ops |= OP_BIT(PQPAN_OP_ECDH_SHARED);
    p->secret_len = variant_has_kem(m) ? MESH_PROV_SECRET_MAX : PQPAN_ECDH_P256_SHARED_BYTES;
}

/* The KEM's shared secret goes after ECDHSecret (hybrid) or alone (docs/PROTOCOL.md §10). */
static uint8_t *kem_secret(const struct mesh_prov_run *m, struct mesh_prov_party *p)
{
    p->secret_len = variant_has_p256(m) ? MESH_PROV_SECRET_MAX : PQPAN_MLKEM_SS_BYTES;
    return p->secret + (variant_has_p256(m) ? PQPAN_ECDH_P256_SHARED_BYTES : 0u);
}

/* §5.4.2.4, CMAC: ConfirmationSalt = s1(ConfirmationInputs), ConfirmationKey = k1(ECDHSecret,
 * ConfirmationSalt, "prck"). HMAC: ConfirmationSalt = s2(ConfirmationInputs), ConfirmationKey
 * = k5(ECDHSecret || AuthValue, ConfirmationSalt, "prck256"). */
static void confirmation_key(const struct mesh_prov_run *m, struct mesh_prov_party *p)
{
    uint8_t n[MESH_PROV_SECRET_MAX + AUTH_VALUE_MAX];
    if (!alg_is_hmac(m)) {
        pqpan_mesh_s1(p->conf_salt, p->inputs, p->inputs_len);
        pqpan_mesh_k1(p->conf_key, p->secret, p->secret_len, p->conf_salt,
                      (const uint8_t *)ALG_CMAC_KEY, sizeof ALG_CMAC_KEY - 1u);
        return;
    }
    memcpy(n, p->secret, p->secret_len);
    memset(n + p->secret_len, 0, AUTH_VALUE_MAX); /* No OOB AuthValue */
    pqpan_mesh_s2(p->conf_salt, p->inputs, p->inputs_len);
    pqpan_mesh_k5(p->conf_key, n, p->secret_len + AUTH_VALUE_MAX, p->conf_salt,
                  (const uint8_t *)ALG_HMAC_KEY, sizeof ALG_HMAC_KEY - 1u);
    pqpan_wipe(n, sizeof n);
}

/* §5.4.2.4: the Confirmation of a Random. CMAC: AES-CMAC_ConfirmationKey(Random || AuthValue)
 * (AuthValue 16 zero octets); HMAC: HMAC-SHA-256_ConfirmationKey(Random). */
static void confirmation_of(const struct mesh_prov_run *m, const struct mesh_prov_party *p,
                            uint8_t conf[MESH_PROV_VALUE_BYTES], const uint8_t *random)
{
    uint8_t msg[PQPAN_MESH_PROV_CMAC_VALUE_BYTES * 2u];
    if (alg_is_hmac(m)) {
        pqpan_hmac_sha256(conf, p->conf_key, PQPAN_SHA256_BYTES, random,
                          PQPAN_MESH_PROV_HMAC_VALUE_BYTES);
        return;
    }
    memset(msg, 0, sizeof msg);
    memcpy(msg, random, PQPAN_MESH_PROV_CMAC_VALUE_BYTES);
    pqpan_aes_cmac(conf, p->conf_key, msg, sizeof msg);
}

/* The side's ConfirmationKey, a fresh Random and its Confirmation (§5.4.2.4). */
static void make_confirmation(struct mesh_prov_run *m, struct mesh_prov_party *p, uint8_t conf[MESH_PROV_VALUE_BYTES])
{
    confirmation_key(m, p);
    if (rng_fill(m, p->random, value_len(m)) != 0) {
        m->error = PQPAN_ERR_RNG;
    }
    confirmation_of(m, p, conf, p->random);
}

/* The peer's Confirmation against its Random (§5.4.2.4). */
static int confirmation_ok(const struct mesh_prov_run *m, const struct mesh_prov_party *p)
{
    uint8_t want[MESH_PROV_VALUE_BYTES];
    confirmation_of(m, p, want, p->peer_random);
    return pqpan_ct_equal(want, p->peer_confirmation, value_len(m));
}

/* §5.4.2.5: ProvisioningSalt = s1(ConfirmationSalt || RandomProvisioner || RandomDevice)
 * (each 16 octets with CMAC, 32 with HMAC); SessionKey, SessionNonce (13 LSOs), DeviceKey =
 * k1(ECDHSecret, ProvisioningSalt, "prsk" / "prsn" / "prdk"). */
static void session_keys(struct mesh_prov_run *m, struct mesh_prov_party *p, uint8_t nonce[PQPAN_MESH_NONCE_BYTES])
{
    static const uint8_t prsk[4] = {'p', 'r', 's', 'k'}, prsn[4] = {'p', 'r', 's', 'n'},
                         prdk[4] = {'p', 'r', 'd', 'k'};
    uint8_t in[3 * MESH_PROV_VALUE_BYTES], salt[16], n16[16];
    const uint8_t *rp = p->role == P ? p->random : p->peer_random;
    const uint8_t *rd = p->role == P ? p->peer_random : p->random;
    uint32_t v = value_len(m);
    memcpy(in, p->conf_salt, v);
    memcpy(in + v, rp, v);
    memcpy(in + 2u * v, rd, v);
    pqpan_mesh_s1(salt, in, 3u * v);
    pqpan_mesh_k1(m->out.session_key[p->role], p->secret, p->secret_len, salt, prsk, 4);
    pqpan_mesh_k1(n16, p->secret, p->secret_len, salt, prsn, 4);
    pqpan_mesh_k1(m->out.device_key[p->role], p->secret, p->secret_len, salt, prdk, 4);
    memcpy(nonce, n16 + 16 - PQPAN_MESH_NONCE_BYTES, PQPAN_MESH_NONCE_BYTES);
}

/* A Public Key PDU into the sender's run (parts in index order); 1 when the run is whole. */
static int take_key_part(struct mesh_prov_run *m, struct mesh_prov_party *p, enum pqpan_mesh_prov_role from,
                         const uint8_t *params, uint32_t n)
{
    uint32_t want = key_run_len(m, from), idx, parts;
    if (!variant_has_kem(m)) {
        if (n != want) {
            m->error = PQPAN_ERR_MALFORMED;
            return 0;
        }
        memcpy(p->key_run[from], params, n);
        p->key_len[from] = n;
        return 1;
    }
    idx = (uint32_t)(params[0] >> 4);
    parts = (uint32_t)(params[0] & 0x0Fu) + 1u;
    n -= PQPAN_MESH_PROV_PART_BYTES;
    if (n == 0u || idx != p->key_parts_got[from] || parts > PQPAN_MESH_PROV_PARTS_MAX ||
        p->key_len[from] + n > want) {
        m->error = PQPAN_ERR_MALFORMED;
        return 0;
    }
    memcpy(p->key_run[from] + p->key_len[from], params + PQPAN_MESH_PROV_PART_BYTES, n);
    p->key_len[from] += n;
    p->key_parts_got[from]++;
    if (idx + 1u < parts) {
        return 0;
    }
    if (p->key_len[from] != want) {
        m->error = PQPAN_ERR_MALFORMED;
        return 0;
    }
    return 1;
}

/* Both runs in ConfirmationInputs: the provisioner's, then the device's (§5.4.2.4). */
static void inputs_add_keys(struct mesh_prov_party *p)
{
    inputs_add(p, p->key_run[P], p->key_len[P]);
    inputs_add(p, p->key_run[D], p->key_len[D]);
}

/* Device: both keys known after the provisioner's; P-256 key pair and / or Encaps. */
static void device_public_key(struct mesh_prov_run *m, struct mesh_prov_party *p, uint64_t t)
{
    int rc;
    if (variant_has_p256(m)) {
        make_p256_key(m, p);
    }
    if (variant_has_kem(m) && m->error == 0) {
        const uint8_t *ek = p->key_run[P] + (variant_has_p256(m) ? PQPAN_MESH_PROV_P256_KEY_BYTES : 0u);
        uint8_t *ct = p->key_run[D] + p->key_len[D];
        rc = m->kem->encaps(ct, kem_secret(m, p), ek, pqpan_prng_fill, &m->rng);
        if (rc != PQPAN_OK) {
            m->error = rc;
            return;
        }
        p->ops |= OP_BIT(PQPAN_OP_KEM_ENCAPS);
        p->key_len[D] += (uint32_t)m->kem->ct_bytes;
    }
    inputs_add_keys(p);
    queue_key(m, D, t);
}

/* Provisioner: its own key run after the Start (P-256 key pair and / or ML-KEM KeyGen). */
static void provisioner_public_key(struct mesh_prov_run *m, struct mesh_prov_party *p, uint64_t t)
{
    int rc;
    if (variant_has_p256(m)) {
        make_p256_key(m, p);
    }
    if (variant_has_kem(m) && m->error == 0) {
        rc = m->kem->keypair(p->ek, p->dk, pqpan_prng_fill, &m->rng);
        if (rc != PQPAN_OK) {
            m->error = rc;
            return;
        }
        p->ops |= OP_BIT(PQPAN_OP_KEM_KEYGEN);
        memcpy(p->key_run[P] + p->key_len[P], p->ek, m->kem->ek_bytes);
        p->key_len[P] += (uint32_t)m->kem->ek_bytes;
    }
    queue_key(m, P, t);
}

/* The Capabilities the device sends (§5.4.1.2): one element, the run's algorithm, no OOB
 * public key, no static, output or input OOB. */
static void device_capabilities(struct mesh_prov_run *m, struct mesh_prov_party *p, uint64_t t)
{
    uint8_t caps[PQPAN_MESH_PROV_CAPABILITIES_PARAMS];
    memset(caps, 0, sizeof caps);
    caps[0] = 1u;
    caps[1] = (uint8_t)(algorithms_bit(m) >> 8);
    caps[2] = (uint8_t)algorithms_bit(m);
    inputs_add(p, caps, sizeof caps);
    queue(m, D, PQPAN_MESH_PROV_CAPABILITIES, caps, sizeof caps, t);
}

/* The provisioner's Start (§5.4.1.3): the run's algorithm, No OOB public key and
 * authentication. */
static void provisioner_start(struct mesh_prov_run *m, struct mesh_prov_party *p, const uint8_t *caps, uint64_t t)
{
    uint8_t start[PQPAN_MESH_PROV_START_PARAMS];
    if (caps[0] == 0u || (((uint32_t)caps[1] << 8 | caps[2]) & algorithms_bit(m)) == 0u) {
        m->error = PQPAN_ERR_SUITE;
        return;
    }
    inputs_add(p, caps, PQPAN_MESH_PROV_CAPABILITIES_PARAMS);
    memset(start, 0, sizeof start);
    start[0] = (uint8_t)m->keys.alg;
    inputs_add(p, start, sizeof start);
    queue(m, P, PQPAN_MESH_PROV_START, start, sizeof start, t);
    provisioner_public_key(m, p, t);
}

static void fail(struct mesh_prov_run *m, uint8_t code, uint64_t t)
{
    m->failed = 1;
    queue(m, D, PQPAN_MESH_PROV_FAILED, &code, 1u, t);
}

/* Provisioner: the device's Random checked, the Provisioning Data encrypted (§5.4.2.5:
 * AES-CCM with SessionKey and SessionNonce, 64-bit MIC). */
static void provisioner_data(struct mesh_prov_run *m, struct mesh_prov_party *p, uint64_t t)
{
    uint8_t nonce[PQPAN_MESH_NONCE_BYTES], data[PQPAN_MESH_PROV_DATA_BYTES + PQPAN_MESH_PROV_MIC_BYTES];
    int rc;
    if (!confirmation_ok(m, p)) {
        m->failed = 1; /* the provisioner ends the run: Link Close, reason Fail */
        return;
    }
    session_keys(m, p, nonce);
    memcpy(data, m->prov_data, PQPAN_MESH_PROV_DATA_BYTES);
    rc = pqpan_802154_ccm_star_encrypt(data, PQPAN_MESH_PROV_DATA_BYTES,
                                       data + PQPAN_MESH_PROV_DATA_BYTES, PQPAN_MESH_PROV_MIC_BYTES,
                                       m->out.session_key[P], nonce, NULL, 0);
    if (rc != PQPAN_OK) {
        m->error = rc;
        return;
    }
    memcpy(m->out.net_key[P], m->prov_data, PQPAN_MESH_KEY_BYTES);
    queue(m, P, PQPAN_MESH_PROV_DATA, data, sizeof data, t);
}

/* Device: the Provisioning Data decrypted and its MIC checked. */
static void device_data(struct mesh_prov_run *m, struct mesh_prov_party *p, const uint8_t *params, uint64_t t)
{
    uint8_t nonce[PQPAN_MESH_NONCE_BYTES], data[PQPAN_MESH_PROV_DATA_BYTES];
    session_keys(m, p, nonce);
    memcpy(data, params, sizeof data);
    if (pqpan_802154_ccm_star_decrypt(data, sizeof data, params + PQPAN_MESH_PROV_DATA_BYTES,
                                      PQPAN_MESH_PROV_MIC_BYTES, m->out.session_key[D], nonce,
                                      NULL, 0) != PQPAN_OK) {
        fail(m, PQPAN_MESH_PROV_ERR_DECRYPTION_FAILED, t);
        return;
    }
    memcpy(m->out.net_key[D], data, PQPAN_MESH_KEY_BYTES);
    queue(m, D, PQPAN_MESH_PROV_COMPLETE, NULL, 0u, t);
}

/* The provisioner's and device's Confirmation after both keys: secrets first. */
static void confirm(struct mesh_prov_run *m, struct mesh_prov_party *p, uint64_t t)
{
    uint8_t conf[MESH_PROV_VALUE_BYTES];
    int rc;
    if (variant_has_kem(m) && p->role == P) {
        size_t off = variant_has_p256(m) ? PQPAN_MESH_PROV_P256_KEY_BYTES : 0u;
        rc = m->kem->decaps(kem_secret(m, p), p->key_run[D] + off, p->dk);
        if (rc != PQPAN_OK) {
            m->error = rc;
            return;
        }
        p->ops |= OP_BIT(PQPAN_OP_KEM_DECAPS);
    }
    if (variant_has_p256(m)) {
        p256_secret(m, p);
    }
    make_confirmation(m, p, conf);
    if (p->role == P && m->corrupt_confirmation) {
        conf[0] ^= 0x01u; /* a substituted Confirmation: its FCS is recomputed, it passes */
    }
    queue(m, p->role, PQPAN_MESH_PROV_CONFIRMATION, conf, value_len(m), t);
}

static void device_pdu(struct mesh_prov_run *m, struct mesh_prov_party *p, const uint8_t *pdu, uint32_t n, uint64_t t)
{
    const uint8_t *prm = pdu + PQPAN_MESH_PROV_TYPE_BYTES;
    switch (pdu[0]) {
    case PQPAN_MESH_PROV_INVITE:
        inputs_add(p, prm, PQPAN_MESH_PROV_INVITE_PARAMS);
        device_capabilities(m, p, t);
        break;
    case PQPAN_MESH_PROV_START:
        if (prm[0] != (uint8_t)m->keys.alg || prm[1] != 0u || prm[2] != 0u) {
            m->error = PQPAN_ERR_SUITE;
            return;
        }
        inputs_add(p, prm, PQPAN_MESH_PROV_START_PARAMS);
        break;
    case PQPAN_MESH_PROV_PUBLIC_KEY:
        if (take_key_part(m, p, P, prm, n - PQPAN_MESH_PROV_TYPE_BYTES)) {
            device_public_key(m, p, t);
        }
        break;
    case PQPAN_MESH_PROV_CONFIRMATION:
        memcpy(p->peer_confirmation, prm, value_len(m));
        confirm(m, p, t);
        break;
    case PQPAN_MESH_PROV_RANDOM:
        memcpy(p->peer_random, prm, value_len(m));
        if (!confirmation_ok(m, p)) {
            fail(m, PQPAN_MESH_PROV_ERR_CONFIRMATION_FAILED, t);
        } else {
            queue(m, D, PQPAN_MESH_PROV_RANDOM, p->random, value_len(m), t);
        }
        break;
    case PQPAN_MESH_PROV_DATA:
        device_data(m, p, prm, t);
        break;
    default:
        m->error = PQPAN_ERR_STATE;
    }
}

static void provisioner_pdu(struct mesh_prov_run *m, struct mesh_prov_party *p, const uint8_t *pdu, uint32_t n,
                            uint64_t t)
{
    const uint8_t *prm = pdu + PQPAN_MESH_PROV_TYPE_BYTES;
    switch (pdu[0]) {
    case PQPAN_MESH_PROV_CAPABILITIES:
        provisioner_start(m, p, prm, t);
        break;
    case PQPAN_MESH_PROV_PUBLIC_KEY:
        if (take_key_part(m, p, D, prm, n - PQPAN_MESH_PROV_TYPE_BYTES)) {
            inputs_add_keys(p);
            confirm(m, p, t);
        }
        break;
    case PQPAN_MESH_PROV_CONFIRMATION:
        memcpy(p->peer_confirmation, prm, value_len(m));
        queue(m, P, PQPAN_MESH_PROV_RANDOM, p->random, value_len(m), t);
        break;
    case PQPAN_MESH_PROV_RANDOM:
        memcpy(p->peer_random, prm, value_len(m));
        provisioner_data(m, p, t);
        break;
    case PQPAN_MESH_PROV_COMPLETE:
        m->out.complete = 1;
        break;
    case PQPAN_MESH_PROV_FAILED:
        m->out.failed_code = prm[0];
        m->failed = 1;
        break;
    default:
        m->error = PQPAN_ERR_STATE;
    }
}

/* §5.4.1: each PDU's length is fixed by its Type (Confirmation and Random by the Start
 * algorithm too), but for the Public Keys. */
static void handle_pdu(struct mesh_prov_run *m, enum pqpan_mesh_prov_role to, const uint8_t *pdu,
                       uint32_t len, uint64_t t)
{
    static const uint8_t params[PQPAN_MESH_PROV_FAILED + 1] = {
        PQPAN_MESH_PROV_INVITE_PARAMS, PQPAN_MESH_PROV_CAPABILITIES_PARAMS,
        PQPAN_MESH_PROV_START_PARAMS, 0u, 0u, 0u, 0u, PQPAN_MESH_PROV_DATA_PARAMS, 0u, 1u};
    uint32_t want;
    if (pdu[0] > PQPAN_MESH_PROV_FAILED) {
        m->error = PQPAN_ERR_MALFORMED;
        return;
    }
    want = pdu[0] == PQPAN_MESH_PROV_CONFIRMATION || pdu[0] == PQPAN_MESH_PROV_RANDOM
               ? value_len(m)
               : params[pdu[0]];
    if (pdu[0] == PQPAN_MESH_PROV_PUBLIC_KEY ? len < 2u : len != 1u + want) {
        m->error = PQPAN_ERR_MALFORMED;
        return;
    }
    if (to == D) {
        device_pdu(m, &m->side[D], pdu, len, t);
    } else {
        provisioner_pdu(m, &m->side[P], pdu, len, t);
    }
}


/* The PDU about to go must be the plan's next step (sender, Type, length, the crypto
 * before it): the executed run and the estimator's plan are the same run (zero loss). A
 * failed run departs from the plan at its Provisioning Failed. */
static int follows_plan(struct mesh_prov_run *m, enum pqpan_mesh_prov_role s, const struct mesh_prov_outgoing *o)
{
    const struct pqpan_mesh_prov_step *st;
    if (m->failed) {
        return 1;
    }
    if (m->plan_at >= m->plan_n) {
        return 0;
    }
    st = &m->plan[m->plan_at++];
    return st->sender == s && (uint8_t)st->type == o->pdu[0] && st->length == o->len &&
           st->ops_before == o->ops;
}

int pqpan_mesh_prov_run_init(struct mesh_prov_run *m, const struct pqpan_mesh_prov_keys *keys,
                             uint32_t max_pdu, uint64_t seed, int corrupt_confirmation)
{
    memset(m, 0, sizeof *m);
    m->keys = *keys;
    m->corrupt_confirmation = corrupt_confirmation;
    m->kem = pqpan_kem_by_id(keys->kem);
    if (keys->variant != PQPAN_MESH_PROV_P256 && m->kem == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    /* every key run fits one PDU of MESH_PROV_PDU_MAX octets */
    m->part_room = (max_pdu < MESH_PROV_PDU_MAX ? max_pdu : MESH_PROV_PDU_MAX) -
                   PQPAN_MESH_PROV_TYPE_BYTES - PQPAN_MESH_PROV_PART_BYTES;
    m->side[P].role = P;
    m->side[D].role = D;
    pqpan_prng_seed(&m->rng, seed);
    return pqpan_mesh_prov_plan(m->plan, &m->plan_n, keys->variant, keys->kem, keys->alg,
                                max_pdu);
}

int pqpan_mesh_prov_run_random(struct mesh_prov_run *m, uint8_t *out, size_t len)
{
    return rng_fill(m, out, len);
}

int pqpan_mesh_prov_run_data(struct mesh_prov_run *m)
{
    if (rng_fill(m, m->prov_data, PQPAN_MESH_KEY_BYTES) != 0) {
        return PQPAN_ERR_RNG;
    }
    m->prov_data[PQPAN_MESH_PROV_DATA_BYTES - 1u] = 0x02u;
    return PQPAN_OK;
}

const struct pqpan_mesh_prov_step *pqpan_mesh_prov_run_step(const struct mesh_prov_run *m)
{
    return m->failed || m->plan_at == 0u ? NULL : &m->plan[m->plan_at - 1u];
}

void pqpan_mesh_prov_run_receive(struct mesh_prov_run *m, enum pqpan_mesh_prov_role to,
                                 const uint8_t *pdu, uint32_t len, uint64_t t)
{
    handle_pdu(m, to, pdu, len, t);
}

/* Sends whatever a side has queued, one PDU at a time, until neither has any. */
void pqpan_mesh_prov_run_exchange(struct mesh_prov_run *m, const struct mesh_prov_bearer *b)
{
    uint8_t invite = 0u; /* Attention Duration 0 s (§5.4.1.1) */
    struct mesh_prov_party *pv = &m->side[P];
    inputs_add(pv, &invite, 1u);
    queue(m, P, PQPAN_MESH_PROV_INVITE, &invite, 1u, pv->ready_ns);
    while (m->error == 0 && !m->closed) {
        enum pqpan_mesh_prov_role s = m->side[P].head < m->side[P].n_out ? P : D;
        struct mesh_prov_party *p = &m->side[s];
        struct mesh_prov_outgoing *o;
        uint64_t t;
        if (p->head >= p->n_out) {
            break;
        }
        o = &p->out[p->head++];
        if (!follows_plan(m, s, o)) {
            m->error = PQPAN_ERR_STATE;
            break;
        }
        t = b->compute(b->ctx, s, p->ready_ns, o->ops);
        m->out.prov_pdus[s]++;
        b->send(b->ctx, s, t, o->pdu, o->len);
        if (p->head == p->n_out) {
            p->head = p->n_out = 0;
        }
    }
}

void pqpan_mesh_prov_run_finish(struct mesh_prov_run *m)
{
    struct mesh_prov_outcome *r = &m->out;
    r->keys_equal = r->complete &&
                    memcmp(r->session_key[P], r->session_key[D], PQPAN_MESH_KEY_BYTES) == 0 &&
                    memcmp(r->device_key[P], r->device_key[D], PQPAN_MESH_KEY_BYTES) == 0 &&
                    memcmp(r->net_key[P], r->net_key[D], PQPAN_MESH_KEY_BYTES) == 0;
}

void pqpan_mesh_prov_run_keys(const struct mesh_prov_run *m,
                              uint8_t session_key[2][PQPAN_MESH_KEY_BYTES],
                              uint8_t device_key[2][PQPAN_MESH_KEY_BYTES],
                              uint8_t net_key[2][PQPAN_MESH_KEY_BYTES])
{
    memcpy(session_key, m->out.session_key, sizeof m->out.session_key);
    memcpy(device_key, m->out.device_key, sizeof m->out.device_key);
    memcpy(net_key, m->out.net_key, sizeof m->out.net_key);
}

int pqpan_mesh_prov_sim_args(int args_ok, enum pqpan_mesh_prov_alg alg)
{
    if (!args_ok) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return (unsigned)alg < PQPAN_MESH_PROV_ALG_COUNT ? PQPAN_OK : PQPAN_ERR_INVALID_ARG;
}
