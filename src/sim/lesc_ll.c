/* The simulator's LL encryption start after LE Secure Connections pairing (Core v5.4
 * Vol 6 Part B §5.1.3.1, Vol 6 Part E): the central's LL_ENC_REQ with its SKD and IV
 * halves, the peripheral's LL_ENC_RSP, both deriving the session key from the LTK that
 * pairing gave their hosts, and the LL_START_ENC_REQ / LL_START_ENC_RSP handshake that
 * turns AES-CCM on in each direction. The engine (sim.c) sends LL_START_ENC_REQ after
 * LL_ENC_RSP and encrypts or decrypts the PDUs once a side's enc_tx / enc_rx is set. */
#include <string.h>

#include "pqpan/sim.h"
#include "sim/sim_internal.h"

/* A fresh SKD and IV from the run's random numbers (§2.4.2.4, §2.4.2.5: random values).
 * Rand and EDIV stay 0: the LTK of LE Secure Connections has none (Vol 3 Part H
 * §2.4.4). */
static void random_enc(struct pqpan_sim *s, struct pqpan_ll_enc *e)
{
    uint64_t skd = pqpan_prng_next(&s->rng);
    uint64_t iv = pqpan_prng_next(&s->rng);
    unsigned i;
    memset(e, 0, sizeof *e);
    for (i = 0; i < PQPAN_LL_SKD_BYTES; i++) {
        e->skd[i] = (uint8_t)(skd >> (8 * i));
    }
    for (i = 0; i < PQPAN_LL_IV_BYTES; i++) {
        e->iv[i] = (uint8_t)(iv >> (8 * i));
    }
}

int pqpan_sim_start_encryption(struct pqpan_sim *s)
{
    struct pqpan_sim_node *c = &s->node[PQPAN_BLE_CENTRAL];
    uint8_t b[PQPAN_LL_ENC_REQ_CTR_BYTES];
    size_t w;
    int rc;
    random_enc(s, &c->enc);
    rc = pqpan_ll_pdu_enc_write(b, sizeof b, PQPAN_LL_ENC_REQ, &c->enc, &w);
    rc = rc != PQPAN_OK ? rc : pqpan_sim_queue_ctrl(s, PQPAN_BLE_CENTRAL, b, w);
    if (rc == PQPAN_OK) {
        pqpan_sim_release_replies(s, PQPAN_BLE_CENTRAL);
        s->enc_started = 1;
    }
    return rc;
}

/* The peripheral answers LL_ENC_REQ with LL_ENC_RSP (its SKD_P and IV_P) and derives the
 * session key with the LTK its host gave; no LTK: the procedure cannot run. */
int pqpan_sim_on_enc_req(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[PQPAN_BLE_PERIPHERAL];
    struct pqpan_ll_enc req;
    uint8_t b[PQPAN_LL_ENC_RSP_CTR_BYTES];
    size_t w;
    int rc = pqpan_ll_pdu_enc_parse(&req, p, len);
    if (rc != PQPAN_OK || p[0] != PQPAN_LL_ENC_REQ || n != PQPAN_BLE_PERIPHERAL) {
        return PQPAN_ERR_MALFORMED;
    }
    if (!nd->has_ltk) {
        return PQPAN_ERR_STATE;
    }
    random_enc(s, &nd->enc);
    pqpan_ll_crypt_init(&nd->crypt, nd->ltk, &req, &nd->enc);
    rc = pqpan_ll_pdu_enc_write(b, sizeof b, PQPAN_LL_ENC_RSP, &nd->enc, &w);
    return rc != PQPAN_OK ? rc : pqpan_sim_queue_ctrl(s, PQPAN_BLE_PERIPHERAL, b, w);
}

/* The central derives the session key when LL_ENC_RSP brings the peripheral's half. */
int pqpan_sim_on_enc_rsp(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    struct pqpan_sim_node *nd = &s->node[PQPAN_BLE_CENTRAL];
    struct pqpan_ll_enc rsp;
    if (pqpan_ll_pdu_enc_parse(&rsp, p, len) != PQPAN_OK || p[0] != PQPAN_LL_ENC_RSP ||
        n != PQPAN_BLE_CENTRAL) {
        return PQPAN_ERR_MALFORMED;
    }
    pqpan_ll_crypt_init(&nd->crypt, nd->ltk, &nd->enc, &rsp);
    return PQPAN_OK;
}

/* LL_START_ENC_REQ at the central: from now it sends and expects encrypted PDUs and
 * answers with an encrypted LL_START_ENC_RSP; LL_START_ENC_RSP at the peripheral: it
 * answers with its own, encrypted; at the central: encryption is on both ways. */
int pqpan_sim_on_start_enc(struct pqpan_sim *s, int n, const uint8_t *p, size_t len)
{
    static const uint8_t start_enc_rsp = PQPAN_LL_START_ENC_RSP;
    struct pqpan_sim_node *nd = &s->node[n];
    if (len != 1) {
        return PQPAN_ERR_MALFORMED;
    }
    if (p[0] == PQPAN_LL_START_ENC_REQ) {
        if (n != PQPAN_BLE_CENTRAL) {
            return PQPAN_ERR_MALFORMED;
        }
        nd->enc_tx = 1;
        nd->enc_rx = 1;
        return pqpan_sim_queue_ctrl(s, n, &start_enc_rsp, 1);
    }
    if (n == PQPAN_BLE_CENTRAL) {
        s->res.encrypted = 1;
        return PQPAN_OK;
    }
    nd->enc_tx = 1;
    return pqpan_sim_queue_ctrl(s, n, &start_enc_rsp, 1);
}
