/* The work of a PQKE exchange (pqpan_pqke_side_work, pqke.h) split into the steps the
 * link models and the simulator run it in: what each side computes before each message
 * it sends, and after the last one (docs/PROTOCOL.md §3.4 and §4). Shared by the BLE and
 * IEEE 802.15.4 estimators and the simulator's PQKE application, so that they book the
 * same operations at the same moment. */
#ifndef PQPAN_COMMON_PQKE_STEPS_H
#define PQPAN_COMMON_PQKE_STEPS_H

#include <stddef.h>

#include "pqpan/ledger.h"
#include "pqpan/pqke.h"

enum pqke_step {
    PQKE_STEP_INIT = 0,  /* the initiator, before it sends INIT */
    PQKE_STEP_RESP,      /* the responder, after INIT, before it sends RESP */
    PQKE_STEP_FIN,       /* the initiator, after RESP, before it sends FIN */
    PQKE_STEP_AFTER_FIN, /* the responder, after FIN (the last message) */
    PQKE_STEPS
};

/* Executions of each operation (enum pqpan_op) in each step. */
struct pqke_steps {
    unsigned ops[PQKE_STEPS][PQPAN_OP_COUNT];
};

/* The steps of a suite, mode and (sig modes) ML-DSA set sig (enum pqpan_sig_id; ignored in
 * the other modes). The initiator before INIT: KeyGen, its P-256 key pair (hybrid) and its
 * Encaps to the responder's static key (kem-auth*). The responder before RESP: its P-256 key
 * pair and shared secret (hybrid), Encaps (two in kem-auth-mutual), the Decaps of the
 * static ciphertext (kem-auth*), its key schedule (one KDF) and its signature (sig modes).
 * The initiator before FIN: Decaps (two in kem-auth-mutual), its P-256 shared secret
 * (hybrid), key schedule, the check of the responder's signature and its own (sig-mutual).
 * The responder after FIN: the check of the initiator's signature (sig-mutual); its check
 * of the initiator's tag is part of its key schedule's cost. PQPAN_OK, or the error of
 * pqpan_pqke_side_work (steps zeroed). */
int pqpan_pqke_steps_of(struct pqke_steps *s, unsigned suite, unsigned mode, unsigned sig,
                  size_t prologue_len);

#endif
