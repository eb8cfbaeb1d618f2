#include <string.h>

#include "common/pqke_steps.h"

int pqpan_pqke_steps_of(struct pqke_steps *s, unsigned suite, unsigned mode, unsigned sig,
                  size_t prologue_len)
{
    struct pqpan_pqke_work ini, rsp;
    unsigned *in = s->ops[PQKE_STEP_INIT], *re = s->ops[PQKE_STEP_RESP];
    unsigned *fi = s->ops[PQKE_STEP_FIN], *af = s->ops[PQKE_STEP_AFTER_FIN];
    int rc = pqpan_pqke_side_work(&ini, suite, mode, sig, PQPAN_PQKE_ROLE_INITIATOR, prologue_len);
    if (rc == PQPAN_OK) {
        rc = pqpan_pqke_side_work(&rsp, suite, mode, sig, PQPAN_PQKE_ROLE_RESPONDER, prologue_len);
    }
    memset(s, 0, sizeof *s);
    if (rc != PQPAN_OK) {
        return rc;
    }
    in[PQPAN_OP_KEM_KEYGEN] = ini.kem_keygen;
    in[PQPAN_OP_ECDH_KEYGEN] = ini.ecdh_keygen;
    in[PQPAN_OP_KEM_ENCAPS] = ini.kem_encaps;
    re[PQPAN_OP_ECDH_KEYGEN] = rsp.ecdh_keygen;
    re[PQPAN_OP_ECDH_SHARED] = rsp.ecdh_shared;
    re[PQPAN_OP_KEM_ENCAPS] = rsp.kem_encaps;
    re[PQPAN_OP_KEM_DECAPS] = rsp.kem_decaps;
    re[PQPAN_OP_KDF] = 1;
    re[PQPAN_OP_SIG_SIGN] = rsp.sig_sign;
    fi[PQPAN_OP_KEM_DECAPS] = ini.kem_decaps;
    fi[PQPAN_OP_ECDH_SHARED] = ini.ecdh_shared;
    fi[PQPAN_OP_KDF] = 1;
    fi[PQPAN_OP_SIG_VERIFY] = ini.sig_verify;
    fi[PQPAN_OP_SIG_SIGN] = ini.sig_sign;
    af[PQPAN_OP_SIG_VERIFY] = rsp.sig_verify;
    return PQPAN_OK;
}
