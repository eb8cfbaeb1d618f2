/* Per-step measurements of a PQKE exchange (mode none) on the Cortex-M4 (docs/PROTOCOL.md): the
 * initiator's start (KeyGen + INIT), the responder's INIT handling (Encaps + key schedule
 * + RESP), the initiator's RESP handling (Decaps + key schedule + tag check + FIN) and the
 * responder's FIN handling (tag check). Both parties and the messages live in the
 * caller's frame; the figures are each step's own stack. */
#include "bench.h"
#include "pqke_rng.h"
#include "pqpan/pqke.h"

struct parties {
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder rsp;
    uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES];
    uint8_t resp[PQPAN_PQKE_RESP_MAX_BYTES];
    uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
    size_t init_len, resp_len, fin_len, done_len;
};

static const char *const scheme_names[] = {"", "pqke-ml-kem-512", "pqke-ml-kem-768", "pqke-ml-kem-1024"};

static void finish(struct pqpan_m4_result *r, uintptr_t top, int status)
{
    r->stack_bytes = pqpan_m4_stack_used(top);
    r->status = status;
    pqpan_m4_report(r);
}

static int bench_suite(struct parties *p, unsigned suite)
{
    struct pqpan_m4_rng rng = {(uint8_t)suite, 0};
    struct pqpan_m4_result r = {scheme_names[suite], "initiator_start", 0, 0};
    struct pqpan_pqke_policy policy = {PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE), 0, 0};
    uintptr_t top = pqpan_m4_sp();
    int failed = pqpan_pqke_initiator_init(&p->ini, &policy, suite, PQPAN_PQKE_MODE_NONE) != 0 ||
                 pqpan_pqke_responder_init(&p->rsp, &policy, NULL) != 0;
    int rc;

    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    rc = pqpan_pqke_initiator_start(&p->ini, NULL, pqpan_m4_rng, &rng, p->init, sizeof p->init, &p->init_len);
    pqpan_m4_mark_end();
    finish(&r, top, rc | failed);

    r.operation = "responder_init";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    rc = pqpan_pqke_responder_handle(&p->rsp, pqpan_m4_rng, &rng, p->init, p->init_len, p->resp, sizeof p->resp,
                                     &p->resp_len);
    pqpan_m4_mark_end();
    finish(&r, top, rc);

    r.operation = "initiator_resp";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    rc = pqpan_pqke_initiator_handle(&p->ini, p->resp, p->resp_len, p->fin, sizeof p->fin, &p->fin_len);
    pqpan_m4_mark_end();
    finish(&r, top, rc);

    r.operation = "responder_fin";
    pqpan_m4_stack_paint();
    pqpan_m4_mark_begin();
    rc = pqpan_pqke_responder_handle(&p->rsp, NULL, NULL, p->fin, p->fin_len, p->resp, sizeof p->resp, &p->done_len);
    pqpan_m4_mark_end();
    finish(&r, top, rc | (pqpan_pqke_responder_state(&p->rsp) != PQPAN_PQKE_STATE_DONE));
    return r.status != 0 || failed;
}

int pqpan_m4_bench_pqke(void)
{
    struct parties p;
    int failed = 0;
    for (unsigned suite = PQPAN_PQKE_SUITE_MLKEM512; suite <= PQPAN_PQKE_SUITE_MLKEM1024; suite++) {
        failed |= bench_suite(&p, suite);
    }
    return failed;
}
