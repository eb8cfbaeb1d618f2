/* A full PQKE exchange (docs/PROTOCOL.md) between two in-memory parties on the Cortex-M4,
 * for every suite: INIT, RESP, FIN; both parties must reach DONE with the same session
 * key. Then the same exchange with one ciphertext byte of RESP flipped: the initiator must
 * fail (its confirmation tag check) and release no key. */
#include <string.h>

#include "check.h"
#include "pqke_rng.h"
#include "pqpan/pqke.h"

struct exchange {
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder rsp;
    uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES];
    uint8_t resp[PQPAN_PQKE_RESP_MAX_BYTES];
    uint8_t fin[PQPAN_PQKE_FIN_BYTES];
    size_t init_len, resp_len, fin_len;
};

/* INIT and RESP; tamper flips a ciphertext byte of RESP before the initiator sees it.
 * Returns the initiator's result on RESP. */
static int run_to_resp(struct exchange *x, unsigned suite, int tamper, struct pqpan_m4_rng *rng)
{
    if (pqpan_pqke_initiator_init(&x->ini, suite) != 0 || pqpan_pqke_responder_init(&x->rsp, PQPAN_PQKE_SUITES_ALL) != 0 ||
        pqpan_pqke_initiator_start(&x->ini, pqpan_m4_rng, rng, x->init, sizeof x->init, &x->init_len) != 0 ||
        pqpan_pqke_responder_handle(&x->rsp, pqpan_m4_rng, rng, x->init, x->init_len, x->resp, sizeof x->resp,
                                    &x->resp_len) != 0) {
        return -1;
    }
    if (tamper) {
        x->resp[PQPAN_PQKE_HEADER_BYTES] ^= 0x01;
    }
    return pqpan_pqke_initiator_handle(&x->ini, x->resp, x->resp_len, x->fin, sizeof x->fin, &x->fin_len);
}

static void exchange_ok(struct pqpan_m4_tally *t, struct exchange *x, unsigned suite)
{
    struct pqpan_m4_rng rng = {(uint8_t)suite, 0};
    uint8_t k_ini[PQPAN_PQKE_SESSION_KEY_BYTES], k_rsp[PQPAN_PQKE_SESSION_KEY_BYTES];
    size_t none = 1;
    struct pqpan_pqke_sizes sz = pqpan_pqke_suite_sizes(suite);
    int ok = run_to_resp(x, suite, 0, &rng) == 0 && x->init_len == sz.init_bytes && x->resp_len == sz.resp_bytes &&
             x->fin_len == sz.fin_bytes &&
             pqpan_pqke_responder_handle(&x->rsp, NULL, NULL, x->fin, x->fin_len, x->resp, sizeof x->resp, &none) == 0 &&
             none == 0 && pqpan_pqke_initiator_state(&x->ini) == PQPAN_PQKE_STATE_DONE &&
             pqpan_pqke_responder_state(&x->rsp) == PQPAN_PQKE_STATE_DONE &&
             pqpan_pqke_initiator_session_key(&x->ini, k_ini) == 0 &&
             pqpan_pqke_responder_session_key(&x->rsp, k_rsp) == 0 && memcmp(k_ini, k_rsp, sizeof k_ini) == 0 &&
             !pqpan_m4_all_zero(k_ini, sizeof k_ini);
    pqpan_m4_check(t, ok, "pqke exchange, suite", suite);
}

static void exchange_tampered(struct pqpan_m4_tally *t, struct exchange *x, unsigned suite)
{
    struct pqpan_m4_rng rng = {(uint8_t)suite, 0};
    uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES];
    int rc = run_to_resp(x, suite, 1, &rng);
    int ok = rc < 0 && x->fin_len == 0 && pqpan_pqke_initiator_state(&x->ini) == PQPAN_PQKE_STATE_FAILED &&
             pqpan_pqke_initiator_session_key(&x->ini, key) < 0 && pqpan_m4_all_zero(key, sizeof key);
    pqpan_m4_check(t, ok, "pqke tampered RESP rejected, suite", suite);
}

struct pqpan_m4_tally pqpan_m4_test_pqke(void)
{
    struct pqpan_m4_tally t = {0, 0};
    struct exchange x;
    for (unsigned suite = PQPAN_PQKE_SUITE_MLKEM512; suite <= PQPAN_PQKE_SUITE_MLKEM1024; suite++) {
        exchange_ok(&t, &x, suite);
        exchange_tampered(&t, &x, suite);
    }
    return t;
}
