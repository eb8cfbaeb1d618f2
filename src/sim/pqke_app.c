/* The simulator's application for the real protocol: a PQKE initiator on one side, a
 * responder on the other (pqke.h), in any implemented mode, each message carried over the
 * simulated link. */
#include <string.h>

#include "common/pqke_steps.h"
#include "pqpan/sim.h"

_Static_assert(PQPAN_SIM_MSG_MAX >= PQPAN_PQKE_MSG_MAX_BYTES, "every PQKE message fits");

#define SIDE_RESPONDER 0
#define SIDE_INITIATOR 1

/* The ML-DSA key pairs of the sig modes: the responder's, and in sig-mutual the
 * initiator's, of the set a->sig. */
static int provision_sig(struct pqpan_sim_pqke *a, struct pqpan_prng *r)
{
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)a->sig);
    int rc;
    if (ds == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = ds->keypair(a->responder_pk, a->responder_sk, pqpan_prng_fill, r);
    if (rc == PQPAN_OK && a->mode == PQPAN_PQKE_MODE_SIG_MUTUAL) {
        rc = ds->keypair(a->initiator_pk, a->initiator_sk, pqpan_prng_fill, r);
    }
    return rc;
}

/* The mode's long-term credentials, from a PRNG stream apart from the exchange's: static
 * key pairs for kem-auth (the responder's) and kem-auth-mutual (both), a PSK for psk,
 * ML-DSA key pairs for sig (the responder's) and sig-mutual (both). */
static int provision(struct pqpan_sim_pqke *a, uint64_t seed)
{
    const struct pqpan_kem *kem = 0;
    struct pqpan_prng r;
    size_t i;
    int rc = PQPAN_OK;
    pqpan_prng_seed(&r, seed ^ 0x50524F56u);
    for (i = 0; i < PQPAN_KEM_COUNT && kem == 0; i++) {
        enum pqpan_kem_id id = pqpan_kem_at(i)->id;
        if (pqpan_pqke_suite_for_kem(id) == a->suite || pqpan_pqke_hybrid_suite_for_kem(id) == a->suite) {
            kem = pqpan_kem_at(i);
        }
    }
    if (kem == 0) {
        return PQPAN_ERR_SUITE;
    }
    a->kem = (uint8_t)kem->id;
    if (a->mode == PQPAN_PQKE_MODE_PSK) {
        rc = pqpan_prng_fill(&r, a->psk, sizeof a->psk) != 0 ? PQPAN_ERR_RNG : PQPAN_OK;
    }
    if (rc == PQPAN_OK && (a->mode == PQPAN_PQKE_MODE_KEM_AUTH ||
                           a->mode == PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL)) {
        rc = kem->keypair(a->responder_ek, a->responder_dk, pqpan_prng_fill, &r);
    }
    if (rc == PQPAN_OK && a->mode == PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL) {
        rc = kem->keypair(a->initiator_ek, a->initiator_dk, pqpan_prng_fill, &r);
    }
    if (rc == PQPAN_OK && a->sig != 0) {
        rc = provision_sig(a, &r);
    }
    pqpan_wipe(&r, sizeof r);
    return rc;
}

/* The identity of a link side (sim.h PQPAN_SIM_PQKE_ID_*). */
static const char *side_id(unsigned link_side)
{
    return link_side == PQPAN_BLE_CENTRAL ? PQPAN_SIM_PQKE_ID_CENTRAL : PQPAN_SIM_PQKE_ID_PERIPHERAL;
}

/* Each party's view of the credentials: its own secrets and identity, the peer's pinned key
 * and identity. */
static struct pqpan_pqke_credentials creds_of(const struct pqpan_sim_pqke *a, int side)
{
    const unsigned own_link = side == SIDE_INITIATOR ? a->initiator_side : 1u - a->initiator_side;
    const char *own = side_id(own_link), *peer = side_id(1u - own_link);
    struct pqpan_pqke_credentials c;
    memset(&c, 0, sizeof c);
    c.psk = a->psk;
    c.psk_len = sizeof a->psk;
    c.kem = a->kem;
    c.own_dk = side == SIDE_INITIATOR ? a->initiator_dk : a->responder_dk;
    c.peer_ek = side == SIDE_INITIATOR ? a->responder_ek : a->initiator_ek;
    c.sig = a->sig;
    c.own_sk = side == SIDE_INITIATOR ? a->initiator_sk : a->responder_sk;
    c.peer_pk = side == SIDE_INITIATOR ? a->responder_pk : a->initiator_pk;
    c.own_id = (const uint8_t *)own;
    c.own_id_len = strlen(own);
    c.peer_id = (const uint8_t *)peer;
    c.peer_id_len = strlen(peer);
    return c;
}

int pqpan_sim_pqke_init(struct pqpan_sim_pqke *a, unsigned suite, unsigned mode, unsigned sig,
                        enum pqpan_ble_role initiator_side, uint64_t seed)
{
    static const char prologue[] = PQPAN_SIM_PQKE_PROLOGUE;
    struct pqpan_pqke_policy policy;
    struct pqpan_pqke_credentials c;
    int rc;
    memset(a, 0, sizeof *a);
    a->suite = (uint8_t)suite;
    a->mode = (uint8_t)mode;
    a->initiator_side = (uint8_t)initiator_side;
    a->sig = (uint8_t)(mode == PQPAN_PQKE_MODE_SIG || mode == PQPAN_PQKE_MODE_SIG_MUTUAL ? sig : 0u);
    /* A stream apart from the channel's: the same seed, a fixed offset. */
    pqpan_prng_seed(&a->rng, seed ^ 0x50514B45u);
    policy.suites = suite < 8 ? PQPAN_PQKE_SUITE_BIT(suite) : 0u;
    policy.modes = mode < 8 ? PQPAN_PQKE_MODE_BIT(mode) : 0u;
    policy.prologue = (const uint8_t *)prologue;
    policy.prologue_len = sizeof prologue - 1;
    rc = provision(a, seed);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_initiator_init(&a->ini, &policy, suite, mode);
    }
    if (rc == PQPAN_OK) {
        c = creds_of(a, SIDE_RESPONDER);
        rc = pqpan_pqke_responder_init(&a->rsp, &policy, &c);
    }
    if (rc != PQPAN_OK) {
        pqpan_sim_pqke_wipe(a);
    }
    return rc;
}

/* The operations of step k of the exchange (common/pqke_steps.h) as the party's work. */
static void report_work(const struct pqpan_sim_pqke *a, enum pqke_step k,
                        struct pqpan_sim_work *work)
{
    struct pqke_steps st;
    unsigned op;
    if (pqpan_pqke_steps_of(&st, a->suite, a->mode, a->sig, sizeof PQPAN_SIM_PQKE_PROLOGUE - 1) !=
        PQPAN_OK) {
        return;
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        work->ops[op] = st.ops[k][op];
    }
}

static int pqke_start(void *ctx, enum pqpan_ble_role side, uint8_t *out, size_t cap,
                      size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_pqke *a = ctx;
    struct pqpan_pqke_credentials c = creds_of(a, SIDE_INITIATOR);
    *out_len = 0;
    if (side != a->initiator_side) {
        return PQPAN_ERR_STATE;
    }
    report_work(a, PQKE_STEP_INIT, work);
    return pqpan_pqke_initiator_start(&a->ini, &c, pqpan_prng_fill, &a->rng, out, cap, out_len);
}

/* numeric: the simulated user compares the two values once both devices show one. */
static int user_compares(struct pqpan_sim_pqke *a)
{
    uint32_t vi = 0, vr = 0;
    int rc = pqpan_pqke_initiator_numeric_value(&a->ini, &vi);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_responder_numeric_value(&a->rsp, &vr);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_initiator_user_confirm(&a->ini, vi == vr);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_responder_user_confirm(&a->rsp, vi == vr);
    }
    return rc;
}

/* Hands both sessions over once both parties are DONE. */
static int take_sessions(struct pqpan_sim_pqke *a)
{
    int rc = pqpan_pqke_initiator_take_session(&a->ini, &a->session[SIDE_INITIATOR]);
    a->taken[SIDE_INITIATOR] = rc == PQPAN_OK;
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_responder_take_session(&a->rsp, &a->session[SIDE_RESPONDER]);
        a->taken[SIDE_RESPONDER] = rc == PQPAN_OK;
    }
    return rc;
}

/* The exchange is over on both sides (the responder has consumed FIN; numeric: the
 * initiator has consumed REVEAL): the user compares the values, the sessions are taken. */
static int finish(struct pqpan_sim_pqke *a)
{
    int rc = PQPAN_OK;
    if (a->mode == PQPAN_PQKE_MODE_NUMERIC) {
        rc = user_compares(a);
    }
    return rc == PQPAN_OK ? take_sessions(a) : rc;
}

/* The initiator: RESP (Decaps, key schedule, the responder's tag; FIN out), then in numeric
 * mode REVEAL (the commitment opens; the exchange ends). */
static int initiator_receives(struct pqpan_sim_pqke *a, const uint8_t *msg, size_t len,
                              uint8_t *out, size_t cap, size_t *out_len,
                              struct pqpan_sim_work *work)
{
    int numeric = a->mode == PQPAN_PQKE_MODE_NUMERIC, rc;
    if (pqpan_pqke_initiator_state(&a->ini) == PQPAN_PQKE_STATE_WAIT_REVEAL) {
        rc = pqpan_pqke_initiator_handle(&a->ini, msg, len, out, cap, out_len);
        if (rc == PQPAN_OK) {
            rc = finish(a);
        }
        work->done = rc == PQPAN_OK;
        work->last_step = 1;
        return rc;
    }
    report_work(a, PQKE_STEP_FIN, work);
    rc = pqpan_pqke_initiator_handle(&a->ini, msg, len, out, cap, out_len);
    work->done = rc == PQPAN_OK && !numeric;
    return rc;
}

static int pqke_receive(void *ctx, enum pqpan_ble_role side, const uint8_t *msg, size_t len,
                        uint8_t *out, size_t cap, size_t *out_len, struct pqpan_sim_work *work)
{
    struct pqpan_sim_pqke *a = ctx;
    int rc;
    *out_len = 0;
    if (side == a->initiator_side) {
        return initiator_receives(a, msg, len, out, cap, out_len, work);
    }
    if (pqpan_pqke_responder_state(&a->rsp) == PQPAN_PQKE_STATE_IDLE) {
        /* INIT: Encaps (and the mode's static-key operations), key schedule; RESP out. */
        report_work(a, PQKE_STEP_RESP, work);
        return pqpan_pqke_responder_handle(&a->rsp, pqpan_prng_fill, &a->rng, msg, len, out, cap,
                                           out_len);
    }
    /* FIN: the initiator's tag (numeric: its nonce; the value shows, REVEAL out). */
    report_work(a, PQKE_STEP_AFTER_FIN, work);
    rc = pqpan_pqke_responder_handle(&a->rsp, NULL, NULL, msg, len, out, cap, out_len);
    if (rc == PQPAN_OK && a->mode != PQPAN_PQKE_MODE_NUMERIC) {
        rc = finish(a);
    }
    work->done = rc == PQPAN_OK;
    work->last_step = a->mode != PQPAN_PQKE_MODE_NUMERIC;
    return rc;
}

static size_t pqke_expect(void *ctx, enum pqpan_ble_role side)
{
    const struct pqpan_sim_pqke *a = ctx;
    struct pqpan_pqke_sizes z = pqpan_pqke_message_sizes(a->suite, a->mode, a->sig);
    if (side == a->initiator_side) {
        switch (pqpan_pqke_initiator_state(&a->ini)) {
        case PQPAN_PQKE_STATE_WAIT_RESP:
            return z.resp_bytes;
        case PQPAN_PQKE_STATE_WAIT_REVEAL:
            return z.reveal_bytes;
        default:
            return 0u;
        }
    }
    switch (pqpan_pqke_responder_state(&a->rsp)) {
    case PQPAN_PQKE_STATE_IDLE:
        return z.init_bytes;
    case PQPAN_PQKE_STATE_WAIT_FIN:
        return z.fin_bytes;
    default:
        return 0u;
    }
}

/* Both parties finished and hold the same session, else PQPAN_ERR_AUTH. */
static int pqke_verify(void *ctx)
{
    const struct pqpan_sim_pqke *a = ctx;
    return pqpan_sim_pqke_confirmed(a) && pqpan_sim_pqke_keys_equal(a) ? PQPAN_OK : PQPAN_ERR_AUTH;
}

static const struct pqpan_sim_app pqke_app = {pqke_start, pqke_receive, pqke_expect, pqke_verify};

const struct pqpan_sim_app *pqpan_sim_pqke_app(void)
{
    return &pqke_app;
}

int pqpan_sim_pqke_confirmed(const struct pqpan_sim_pqke *a)
{
    return a->taken[SIDE_INITIATOR] && a->taken[SIDE_RESPONDER];
}

int pqpan_sim_pqke_keys_equal(const struct pqpan_sim_pqke *a)
{
    const struct pqpan_pqke_session *i = &a->session[SIDE_INITIATOR];
    const struct pqpan_pqke_session *r = &a->session[SIDE_RESPONDER];
    return pqpan_sim_pqke_confirmed(a) && i->key_bytes == r->key_bytes && i->key_bytes != 0 &&
           pqpan_ct_equal(i->key_i2r, r->key_i2r, sizeof i->key_i2r) &&
           pqpan_ct_equal(i->key_r2i, r->key_r2i, sizeof i->key_r2i) &&
           pqpan_ct_equal(i->transcript_hash, r->transcript_hash, sizeof i->transcript_hash);
}

void pqpan_sim_pqke_wipe(struct pqpan_sim_pqke *a)
{
    pqpan_wipe(a, sizeof *a);
}
