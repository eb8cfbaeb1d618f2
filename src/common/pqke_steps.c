#include <string.h>

#include "common/pqke_steps.h"

int pqke_steps_of(struct pqke_steps *s, unsigned suite, unsigned mode, size_t prologue_len)
{
    struct pqpan_pqke_work ini, rsp;
    int rc = pqpan_pqke_side_work(&ini, suite, mode, PQPAN_PQKE_ROLE_INITIATOR, prologue_len);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_side_work(&rsp, suite, mode, PQPAN_PQKE_ROLE_RESPONDER, prologue_len);
    }
    memset(s, 0, sizeof *s);
    if (rc != PQPAN_OK) {
        return rc;
    }
    s->ops[PQKE_STEP_INIT][PQPAN_OP_KEM_KEYGEN] = ini.kem_keygen;
    s->ops[PQKE_STEP_INIT][PQPAN_OP_KEM_ENCAPS] = ini.kem_encaps;
    s->ops[PQKE_STEP_RESP][PQPAN_OP_KEM_ENCAPS] = rsp.kem_encaps;
    s->ops[PQKE_STEP_RESP][PQPAN_OP_KEM_DECAPS] = rsp.kem_decaps;
    s->ops[PQKE_STEP_RESP][PQPAN_OP_KDF] = 1;
    s->ops[PQKE_STEP_FIN][PQPAN_OP_KEM_DECAPS] = ini.kem_decaps;
    s->ops[PQKE_STEP_FIN][PQPAN_OP_KDF] = 1;
    return PQPAN_OK;
}
