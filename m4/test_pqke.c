/* A full PQKE exchange (docs/PROTOCOL.md) between two in-memory parties on the Cortex-M4,
 * for every suite (ML-KEM alone and with P-256) and every mode (sig modes with the ML-DSA set
 * of the suite's category): INIT, RESP, FIN (numeric: both devices show the same value and
 * the user confirms); both parties must hand over the same session. Then the same exchange
 * with one ciphertext byte of RESP flipped: the initiator must fail (its confirmation tag
 * check, or in the sig modes the responder's signature) and release no session. The check
 * id printed on a failure is 16 x suite + mode. */
#include <string.h>

#include "check.h"
#include "pqke_rng.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

static const unsigned modes[] = {PQPAN_PQKE_MODE_NONE,    PQPAN_PQKE_MODE_PSK, PQPAN_PQKE_MODE_KEM_AUTH,
                                 PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, PQPAN_PQKE_MODE_NUMERIC,
                                 PQPAN_PQKE_MODE_SIG,     PQPAN_PQKE_MODE_SIG_MUTUAL};

struct exchange {
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder rsp;
    uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES];
    uint8_t resp[PQPAN_PQKE_RESP_MAX_BYTES];
    uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
    uint8_t reveal[PQPAN_PQKE_REVEAL_MSG_BYTES];
    size_t init_len, resp_len, fin_len, reveal_len;
    /* one device pair's long-term keys: PSK, the responder's and the initiator's static keys */
    uint8_t psk[PQPAN_PQKE_PSK_BYTES];
    uint8_t r_ek[PQPAN_KEM_EK_MAX_BYTES], r_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t i_ek[PQPAN_KEM_EK_MAX_BYTES], i_dk[PQPAN_KEM_DK_MAX_BYTES];
    /* ML-DSA key pairs of the level's set (sig modes) */
    uint8_t r_pk[PQPAN_SIG_PK_MAX_BYTES], r_sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t i_pk[PQPAN_SIG_PK_MAX_BYTES], i_sk[PQPAN_SIG_SK_MAX_BYTES];
    struct pqpan_pqke_credentials ci, cr;
};

/* Keys of an ML-KEM level (1..3), and ML-DSA keys of the same category (44, 65, 87). */
static int provision(struct exchange *x, unsigned level)
{
    const struct pqpan_kem *kem = pqpan_kem_by_id((enum pqpan_kem_id)level);
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)level);
    struct pqpan_m4_rng rng = {(uint8_t)(0x80u + level), 0};
    static const uint8_t id_i[] = {'I'}, id_r[] = {'R'};
    memset(x->psk, 0x3C, sizeof x->psk);
    memset(&x->ci, 0, sizeof x->ci);
    memset(&x->cr, 0, sizeof x->cr);
    x->ci.psk = x->psk;
    x->ci.psk_len = sizeof x->psk;
    x->ci.kem = level;
    x->ci.own_dk = x->i_dk;
    x->ci.peer_ek = x->r_ek;
    x->ci.sig = level;
    x->ci.own_sk = x->i_sk;
    x->ci.peer_pk = x->r_pk;
    x->ci.own_id = id_i;
    x->ci.own_id_len = sizeof id_i;
    x->ci.peer_id = id_r;
    x->ci.peer_id_len = sizeof id_r;
    x->cr = x->ci;
    x->cr.own_dk = x->r_dk;
    x->cr.peer_ek = x->i_ek;
    x->cr.own_sk = x->r_sk;
    x->cr.peer_pk = x->i_pk;
    x->cr.own_id = id_r;
    x->cr.peer_id = id_i;
    return kem->keypair(x->r_ek, x->r_dk, pqpan_m4_rng, &rng) | kem->keypair(x->i_ek, x->i_dk, pqpan_m4_rng, &rng) |
           ds->keypair(x->r_pk, x->r_sk, pqpan_m4_rng, &rng) | ds->keypair(x->i_pk, x->i_sk, pqpan_m4_rng, &rng);
}

/* The first ciphertext byte of RESP: after the header, the sig modes' set byte and the sets. */
static size_t resp_ct_at(unsigned mode)
{
    int sig = mode == PQPAN_PQKE_MODE_SIG || mode == PQPAN_PQKE_MODE_SIG_MUTUAL;
    return PQPAN_PQKE_HEADER_BYTES + (sig ? PQPAN_PQKE_SIG_SET_BYTES : 0u) + PQPAN_PQKE_SETS_BYTES;
}

/* INIT and RESP; tamper flips a ciphertext byte of RESP before the initiator sees it.
 * Returns the initiator's result on RESP. */
static int run_to_resp(struct exchange *x, unsigned suite, unsigned mode, int tamper, struct pqpan_m4_rng *rng)
{
    struct pqpan_pqke_policy p = {PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(mode), (const uint8_t *)"m4", 2};
    if (pqpan_pqke_initiator_init(&x->ini, &p, suite, mode) != 0 || pqpan_pqke_responder_init(&x->rsp, &p, &x->cr) != 0 ||
        pqpan_pqke_initiator_start(&x->ini, &x->ci, pqpan_m4_rng, rng, x->init, sizeof x->init, &x->init_len) != 0 ||
        pqpan_pqke_responder_handle(&x->rsp, pqpan_m4_rng, rng, x->init, x->init_len, x->resp, sizeof x->resp,
                                    &x->resp_len) != 0) {
        return -1;
    }
    if (tamper) {
        x->resp[resp_ct_at(mode)] ^= 0x01;
    }
    return pqpan_pqke_initiator_handle(&x->ini, x->resp, x->resp_len, x->fin, sizeof x->fin, &x->fin_len);
}

/* numeric: REVEAL to the initiator; both devices show a value; the user confirms if they are
 * equal. */
static int user_compares(struct exchange *x)
{
    uint32_t vi = 1, vr = 2;
    size_t none = 1;
    if (x->reveal_len != PQPAN_PQKE_REVEAL_MSG_BYTES ||
        pqpan_pqke_initiator_handle(&x->ini, x->reveal, x->reveal_len, NULL, 0, &none) != 0 || none != 0 ||
        pqpan_pqke_initiator_numeric_value(&x->ini, &vi) != 0 || pqpan_pqke_responder_numeric_value(&x->rsp, &vr) != 0 ||
        vi != vr || vi >= PQPAN_PQKE_NUMERIC_MODULUS) {
        return -1;
    }
    return pqpan_pqke_initiator_user_confirm(&x->ini, 1) | pqpan_pqke_responder_user_confirm(&x->rsp, 1);
}

static void exchange_ok(struct pqpan_m4_tally *t, struct exchange *x, unsigned suite, unsigned mode)
{
    struct pqpan_m4_rng rng = {(uint8_t)(suite * 16u + mode), 0};
    struct pqpan_pqke_session s_ini, s_rsp;
    struct pqpan_pqke_sizes sz = pqpan_pqke_message_sizes(suite, mode, x->ci.sig);
    int ok = run_to_resp(x, suite, mode, 0, &rng) == 0 && x->init_len == sz.init_bytes &&
             x->resp_len == sz.resp_bytes && x->fin_len == sz.fin_bytes &&
             pqpan_pqke_responder_handle(&x->rsp, NULL, NULL, x->fin, x->fin_len, x->reveal, sizeof x->reveal,
                                         &x->reveal_len) == 0 &&
             x->reveal_len == sz.reveal_bytes && (mode != PQPAN_PQKE_MODE_NUMERIC || user_compares(x) == 0) &&
             pqpan_pqke_initiator_state(&x->ini) == PQPAN_PQKE_STATE_DONE &&
             pqpan_pqke_responder_state(&x->rsp) == PQPAN_PQKE_STATE_DONE &&
             pqpan_pqke_initiator_take_session(&x->ini, &s_ini) == 0 &&
             pqpan_pqke_responder_take_session(&x->rsp, &s_rsp) == 0 && memcmp(&s_ini, &s_rsp, sizeof s_ini) == 0 &&
             s_ini.key_bytes == sz.key_bytes && !pqpan_m4_all_zero(s_ini.key_i2r, s_ini.key_bytes);
    pqpan_m4_check(t, ok, "pqke exchange, 16 x suite + mode", suite * 16u + mode);
}

static void exchange_tampered(struct pqpan_m4_tally *t, struct exchange *x, unsigned suite, unsigned mode)
{
    struct pqpan_m4_rng rng = {(uint8_t)(suite * 16u + mode), 0};
    struct pqpan_pqke_session s;
    int rc = run_to_resp(x, suite, mode, 1, &rng);
    int ok = rc < 0 && x->fin_len == 0 && pqpan_pqke_initiator_state(&x->ini) == PQPAN_PQKE_STATE_FAILED &&
             pqpan_pqke_initiator_take_session(&x->ini, &s) < 0 && pqpan_m4_all_zero((const uint8_t *)&s, sizeof s);
    pqpan_m4_check(t, ok, "pqke tampered RESP rejected, 16 x suite + mode", suite * 16u + mode);
}

struct pqpan_m4_tally pqpan_m4_test_pqke(void)
{
    static struct exchange x;
    struct pqpan_m4_tally t = {0, 0};
    for (unsigned suite = PQPAN_PQKE_SUITE_MLKEM512; suite <= PQPAN_PQKE_SUITE_P256_MLKEM1024; suite++) {
        pqpan_m4_check(&t, provision(&x, (suite - 1) % 3 + 1) == 0, "pqke static keys, suite", suite);
        for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
            exchange_ok(&t, &x, suite, modes[m]);
            exchange_tampered(&t, &x, suite, modes[m]);
        }
    }
    return t;
}
