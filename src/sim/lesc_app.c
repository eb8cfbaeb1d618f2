/* The simulator's application for LE Secure Connections pairing, phase 2, Just Works
 * (Core v5.4 Vol 3 Part H §2.3.5.6; see sim.h): real SMP PDUs (ble_pdu.h) with values
 * from P-256 (ecdh.h) and the toolbox functions f4, f5, f6 (lesc.h). The central is the
 * initiator (A), the peripheral the responder (B). A message may hold several SMP PDUs
 * back to back (the responder's Public Key and Pairing Confirm); the host sends each in
 * its own L2CAP frame. */
#include <string.h>

#include "pqpan/ecdh.h"
#include "pqpan/lesc.h"
#include "pqpan/sim.h"
#include "sim/sim_internal.h"

enum stage {
    WAIT_PAIRING = 0, /* C: before start; P: for the Pairing Request */
    WAIT_RESPONSE,    /* C: Pairing Response */
    WAIT_PUBLIC_KEY,  /* P: the central's Public Key */
    WAIT_KEY_CONFIRM, /* C: the peripheral's Public Key and Confirm */
    WAIT_NONCE,       /* C: Nb; P: Na */
    WAIT_CHECK,       /* C: Eb; P: Ea */
    FINISHED
};

#define C PQPAN_BLE_CENTRAL
#define P PQPAN_BLE_PERIPHERAL

/* The pairing features both sides offer (§3.5.1, §3.5.2): NoInputNoOutput (so Just
 * Works, §2.3.5.1 Table 2.8), no OOB data, Secure Connections without bonding or MITM,
 * 16-octet keys, no keys distributed in phase 3. */
static const struct pqpan_smp_pairing features = {PQPAN_SMP_IO_NO_INPUT_NO_OUTPUT, 0, PQPAN_SMP_AUTH_SC,
                                                  16, 0, 0};

void pqpan_sim_lesc_init(struct pqpan_sim_lesc *a, uint64_t seed)
{
    memset(a, 0, sizeof *a);
    /* a stream apart from the channel's: the same seed, a fixed offset */
    pqpan_prng_seed(&a->rng, seed ^ 0x4C455343u);
}

/* §2.2.8: IOcap = AuthReq || OOB data flag || IO capability, from a pairing PDU. */
static void iocap_of(uint8_t out[3], const struct pqpan_smp_pairing *p)
{
    out[0] = p->auth_req;
    out[1] = p->oob_data_flag;
    out[2] = p->io_capability;
}

/* §2.2.7: A1/A2 = address type (0x01: random) || the 48-bit address, most significant
 * octet first, from the simulated connection's static random addresses. */
static void address_of(uint8_t out[PQPAN_LESC_ADDR_BYTES], int role)
{
    const char *air = role == C ? PQPAN_SIM_CENTRAL_ADDR : PQPAN_SIM_PERIPHERAL_ADDR;
    unsigned i;
    out[0] = 0x01;
    for (i = 0; i < PQPAN_BD_ADDR_BYTES; i++) {
        out[1 + i] = (uint8_t)air[PQPAN_BD_ADDR_BYTES - 1u - i];
    }
}

/* Counts an SMP PDU just written at out + *out_len into the message. */
static int append_pdu(int rc, size_t written, size_t *out_len)
{
    if (rc == PQPAN_OK) {
        *out_len += written;
    }
    return rc;
}

static int write_public_key(const struct pqpan_sim_lesc_side *me, uint8_t *out, size_t cap,
                            size_t *out_len)
{
    size_t w;
    int rc = pqpan_smp_pdu_public_key_write(out + *out_len, cap - *out_len, me->pk + 1,
                                            me->pk + 33, &w);
    return append_pdu(rc, w, out_len);
}

static int write_value(uint8_t code, const uint8_t v[16], uint8_t *out, size_t cap,
                       size_t *out_len)
{
    size_t w;
    int rc = pqpan_smp_pdu_value_write(out + *out_len, cap - *out_len, code, v, &w);
    return append_pdu(rc, w, out_len);
}

/* The peer's Public Key PDU, validated as a P-256 point (ecdh.h: full validation). */
static int read_public_key(struct pqpan_sim_lesc_side *me, const uint8_t *msg, size_t len)
{
    uint8_t enc[PQPAN_ECDH_P256_PUBLIC_BYTES];
    int rc;
    enc[0] = 0x04;
    rc = pqpan_smp_pdu_public_key_parse(enc + 1, enc + 33, msg, len);
    return rc != PQPAN_OK ? rc : pqpan_ecdh_p256_public_decode(me->peer_pk, enc, sizeof enc);
}

/* The responder's confirm value (§2.3.5.6.2): Cb = f4(PKbx, PKax, Nb, 0). */
static void confirm_value(uint8_t out[16], const struct pqpan_sim_lesc *a, const uint8_t nb[16])
{
    pqpan_lesc_f4(out, a->side[P].pk + 1, a->side[C].pk + 1, nb, 0);
}

/* §2.3.5.6.5: MacKey || LTK = f5(DHKey, Na, Nb, A, B). */
static void derive_keys(struct pqpan_sim_lesc *a, int role)
{
    struct pqpan_sim_lesc_side *me = &a->side[role];
    const uint8_t *na = role == C ? me->nonce : me->peer_nonce;
    const uint8_t *nb = role == C ? me->peer_nonce : me->nonce;
    uint8_t addr_a[PQPAN_LESC_ADDR_BYTES], addr_b[PQPAN_LESC_ADDR_BYTES];
    address_of(addr_a, C);
    address_of(addr_b, P);
    pqpan_lesc_f5(me->mackey, me->ltk, me->dhkey, na, nb, addr_a, addr_b);
}

/* The DHKey check value of side `of` as side `role` computes it (§2.3.5.6.5): E =
 * f6(MacKey, N_of, N_other, 0, IOcap_of, address_of, address_other) (Just Works: r = 0). */
static void check_value(uint8_t out[16], const struct pqpan_sim_lesc *a, int role, int of)
{
    static const uint8_t zero[16] = {0};
    const struct pqpan_sim_lesc_side *me = &a->side[role];
    const uint8_t *n_of = of == role ? me->nonce : me->peer_nonce;
    const uint8_t *n_other = of == role ? me->peer_nonce : me->nonce;
    uint8_t addr_of[PQPAN_LESC_ADDR_BYTES], addr_other[PQPAN_LESC_ADDR_BYTES];
    address_of(addr_of, of);
    address_of(addr_other, 1 - of);
    pqpan_lesc_f6(out, me->mackey, n_of, n_other, zero, a->iocap[of], addr_of, addr_other);
}

static int lesc_start(void *ctx, enum pqpan_ble_role side, uint8_t *out, size_t cap,
                      size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_lesc *a = ctx;
    int rc;
    (void)work;
    *out_len = 0;
    if (side != C || a->side[C].stage != WAIT_PAIRING) {
        return PQPAN_ERR_STATE;
    }
    rc = pqpan_smp_pdu_pairing_write(out, cap, PQPAN_SMP_PAIRING_REQUEST, &features, out_len);
    iocap_of(a->iocap[C], &features);
    a->side[C].stage = WAIT_RESPONSE;
    return rc;
}

/* ---- the central (initiator) ---- */

static int central_receive(struct pqpan_sim_lesc *a, const uint8_t *msg, size_t len, uint8_t *out,
                           size_t cap, size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_lesc_side *me = &a->side[C];
    struct pqpan_smp_pairing rsp;
    uint8_t expect[16], check[16];
    int rc;
    switch (me->stage) {
    case WAIT_RESPONSE: /* Pairing Response: generate the key pair, send Public Key */
        rc = pqpan_smp_pdu_pairing_parse(&rsp, PQPAN_SMP_PAIRING_RESPONSE, msg, len);
        if (rc == PQPAN_OK && !(rsp.auth_req & PQPAN_SMP_AUTH_SC)) {
            rc = PQPAN_ERR_UNSUPPORTED; /* legacy pairing is not this baseline */
        }
        iocap_of(a->iocap[P], &rsp);
        work->ops[PQPAN_OP_ECDH_KEYGEN] = 1;
        rc = rc != PQPAN_OK ? rc : pqpan_ecdh_p256_keypair(me->pk, me->sk, pqpan_prng_fill, &a->rng);
        rc = rc != PQPAN_OK ? rc : write_public_key(me, out, cap, out_len);
        me->stage = WAIT_KEY_CONFIRM;
        return rc;
    case WAIT_KEY_CONFIRM: /* Public Key + Pairing Confirm: keep Cb, send Na */
        if (len != PQPAN_SMP_PUBLIC_KEY_BYTES + PQPAN_SMP_VALUE_BYTES) {
            return PQPAN_ERR_MALFORMED;
        }
        rc = read_public_key(me, msg, PQPAN_SMP_PUBLIC_KEY_BYTES);
        rc = rc != PQPAN_OK ? rc
                            : pqpan_smp_pdu_value_parse(me->peer_confirm, PQPAN_SMP_PAIRING_CONFIRM,
                                                        msg + PQPAN_SMP_PUBLIC_KEY_BYTES,
                                                        len - PQPAN_SMP_PUBLIC_KEY_BYTES);
        rc = rc != PQPAN_OK ? rc : pqpan_prng_fill(&a->rng, me->nonce, sizeof me->nonce);
        rc = rc != PQPAN_OK ? rc : write_value(PQPAN_SMP_PAIRING_RANDOM, me->nonce, out, cap, out_len);
        me->stage = WAIT_NONCE;
        return rc;
    case WAIT_NONCE: /* Nb: check Cb, compute the DHKey and the keys, send Ea */
        rc = pqpan_smp_pdu_value_parse(me->peer_nonce, PQPAN_SMP_PAIRING_RANDOM, msg, len);
        if (rc != PQPAN_OK) {
            return rc;
        }
        confirm_value(expect, a, me->peer_nonce);
        if (!pqpan_ct_equal(expect, me->peer_confirm, sizeof expect)) {
            return PQPAN_ERR_AUTH; /* §2.3.5.6.2: Confirm Value Failed */
        }
        work->ops[PQPAN_OP_ECDH_SHARED] = 1;
        rc = pqpan_ecdh_p256_shared(me->dhkey, me->sk, me->peer_pk, sizeof me->peer_pk);
        if (rc != PQPAN_OK) {
            return rc;
        }
        derive_keys(a, C);
        check_value(check, a, C, C);
        me->stage = WAIT_CHECK;
        return write_value(PQPAN_SMP_PAIRING_DHKEY_CHECK, check, out, cap, out_len);
    case WAIT_CHECK: /* Eb: verify; the LTK goes to the link layer, which encrypts */
        rc = pqpan_smp_pdu_value_parse(check, PQPAN_SMP_PAIRING_DHKEY_CHECK, msg, len);
        if (rc != PQPAN_OK) {
            return rc;
        }
        check_value(expect, a, C, P);
        if (!pqpan_ct_equal(expect, check, sizeof expect)) {
            return PQPAN_ERR_AUTH; /* §2.3.5.6.5: DHKey Check Failed */
        }
        me->checked = 1;
        me->stage = FINISHED;
        work->done = 1;
        work->ltk = me->ltk;
        return PQPAN_OK;
    default:
        return PQPAN_ERR_STATE;
    }
}

/* ---- the peripheral (responder) ---- */

static int peripheral_receive(struct pqpan_sim_lesc *a, const uint8_t *msg, size_t len,
                              uint8_t *out, size_t cap, size_t *out_len,
                              struct pqpan_sim_work *work)
{
    struct pqpan_sim_lesc_side *me = &a->side[P];
    struct pqpan_smp_pairing req;
    uint8_t value[16], expect[16];
    int rc;
    switch (me->stage) {
    case WAIT_PAIRING: /* Pairing Request: answer with the same features */
        rc = pqpan_smp_pdu_pairing_parse(&req, PQPAN_SMP_PAIRING_REQUEST, msg, len);
        iocap_of(a->iocap[C], &req);
        iocap_of(a->iocap[P], &features);
        me->stage = WAIT_PUBLIC_KEY;
        return rc != PQPAN_OK ? rc
                              : pqpan_smp_pdu_pairing_write(out, cap, PQPAN_SMP_PAIRING_RESPONSE,
                                                            &features, out_len);
    case WAIT_PUBLIC_KEY: /* PKa: key pair, Nb, send PKb and Cb; the DHKey afterwards */
        rc = read_public_key(me, msg, len);
        work->ops[PQPAN_OP_ECDH_KEYGEN] = 1;
        rc = rc != PQPAN_OK ? rc : pqpan_ecdh_p256_keypair(me->pk, me->sk, pqpan_prng_fill, &a->rng);
        rc = rc != PQPAN_OK ? rc : pqpan_prng_fill(&a->rng, me->nonce, sizeof me->nonce);
        if (rc != PQPAN_OK) {
            return rc;
        }
        confirm_value(value, a, me->nonce);
        rc = write_public_key(me, out, cap, out_len);
        rc = rc != PQPAN_OK ? rc : write_value(PQPAN_SMP_PAIRING_CONFIRM, value, out, cap, out_len);
        work->ops_after[PQPAN_OP_ECDH_SHARED] = 1;
        rc = rc != PQPAN_OK ? rc
                            : pqpan_ecdh_p256_shared(me->dhkey, me->sk, me->peer_pk, sizeof me->peer_pk);
        me->stage = WAIT_NONCE;
        return rc;
    case WAIT_NONCE: /* Na: send Nb */
        rc = pqpan_smp_pdu_value_parse(me->peer_nonce, PQPAN_SMP_PAIRING_RANDOM, msg, len);
        me->stage = WAIT_CHECK;
        return rc != PQPAN_OK ? rc : write_value(PQPAN_SMP_PAIRING_RANDOM, me->nonce, out, cap, out_len);
    case WAIT_CHECK: /* Ea: keys, verify, send Eb; the LTK goes to the link layer */
        rc = pqpan_smp_pdu_value_parse(value, PQPAN_SMP_PAIRING_DHKEY_CHECK, msg, len);
        if (rc != PQPAN_OK) {
            return rc;
        }
        derive_keys(a, P);
        check_value(expect, a, P, C);
        if (!pqpan_ct_equal(expect, value, sizeof expect)) {
            return PQPAN_ERR_AUTH; /* §2.3.5.6.5: DHKey Check Failed */
        }
        me->checked = 1;
        me->stage = FINISHED;
        check_value(value, a, P, P);
        work->done = 1;
        work->ltk = me->ltk;
        return write_value(PQPAN_SMP_PAIRING_DHKEY_CHECK, value, out, cap, out_len);
    default:
        return PQPAN_ERR_STATE;
    }
}

static int lesc_receive(void *ctx, enum pqpan_ble_role side, const uint8_t *msg, size_t len,
                        uint8_t *out, size_t cap, size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_lesc *a = ctx;
    *out_len = 0;
    return side == C ? central_receive(a, msg, len, out, cap, out_len, work)
                     : peripheral_receive(a, msg, len, out, cap, out_len, work);
}

/* The size of the next message each side waits for: one SMP PDU, or the responder's
 * Public Key and Confirm together. */
static size_t lesc_expect(void *ctx, enum pqpan_ble_role side)
{
    const struct pqpan_sim_lesc *a = ctx;
    switch (a->side[side].stage) {
    case WAIT_PAIRING:
        return side == P ? PQPAN_SMP_PAIRING_BYTES : 0u;
    case WAIT_RESPONSE:
        return PQPAN_SMP_PAIRING_BYTES;
    case WAIT_PUBLIC_KEY:
        return PQPAN_SMP_PUBLIC_KEY_BYTES;
    case WAIT_KEY_CONFIRM:
        return PQPAN_SMP_PUBLIC_KEY_BYTES + PQPAN_SMP_VALUE_BYTES;
    case WAIT_NONCE:
    case WAIT_CHECK:
        return PQPAN_SMP_VALUE_BYTES;
    default:
        return 0u;
    }
}

static int lesc_verify(void *ctx)
{
    const struct pqpan_sim_lesc *a = ctx;
    return pqpan_sim_lesc_confirmed(a) && pqpan_sim_lesc_keys_equal(a) ? PQPAN_OK : PQPAN_ERR_AUTH;
}

static const struct pqpan_sim_app lesc_app = {lesc_start, lesc_receive, lesc_expect, lesc_verify};

const struct pqpan_sim_app *pqpan_sim_lesc_app(void)
{
    return &lesc_app;
}

int pqpan_sim_lesc_confirmed(const struct pqpan_sim_lesc *a)
{
    return a->side[C].checked && a->side[P].checked;
}

int pqpan_sim_lesc_keys_equal(const struct pqpan_sim_lesc *a)
{
    return a->side[C].stage == FINISHED && a->side[P].stage == FINISHED &&
           pqpan_ct_equal(a->side[C].ltk, a->side[P].ltk, sizeof a->side[C].ltk);
}

void pqpan_sim_lesc_wipe(struct pqpan_sim_lesc *a)
{
    pqpan_wipe(a, sizeof *a);
}
