/* libFuzzer target: the PQKE parties fed arbitrary bytes. Input byte 0 picks the party
 * (0: a fresh responder, 1: an initiator waiting for RESP, 2: a responder waiting for
 * FIN), byte 1 the suite; the rest is the message. The waiting parties come from one
 * deterministic exchange per suite, run once and cloned by struct copy for each input.
 * Neither waiting party may ever reach DONE (that would need a forged confirmation tag);
 * every refusal must leave the party FAILED with no key.
 * Seeds (tests/fuzz/corpus/pqke_handle/): for each suite, the INIT, RESP and FIN of one
 * real exchange run with other randomness than the target's, each behind its party byte. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/pqke.h"

/* A counter-mode byte source: deterministic, good enough to drive the exchange. */
static int counter_rng(void *ctx, uint8_t *out, size_t len)
{
    uint32_t *state = ctx;
    size_t i;
    for (i = 0; i < len; i++) {
        *state = *state * 1664525u + 1013904223u;
        out[i] = (uint8_t)(*state >> 24);
    }
    return 0;
}

static void require(int condition)
{
    if (!condition) {
        abort();
    }
}

static void check_no_key(int rc, enum pqpan_pqke_state state, int err, int key_rc,
                         const uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES])
{
    static const uint8_t zero[PQPAN_PQKE_SESSION_KEY_BYTES];
    require(rc < 0 && state == PQPAN_PQKE_STATE_FAILED && err == rc);
    require(key_rc == PQPAN_ERR_STATE && memcmp(key, zero, sizeof zero) == 0);
}

/* The waiting parties of one deterministic exchange per suite, built on first use and
 * then cloned by struct copy for every input (contexts hold no pointers). */
struct waiting {
    int ready;
    struct pqpan_pqke_initiator ini;  /* WAIT_RESP */
    struct pqpan_pqke_responder resp; /* WAIT_FIN */
};

static const struct waiting *waiting_for(unsigned suite)
{
    static struct waiting cache[3];
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], answer[PQPAN_PQKE_RESP_MAX_BYTES];
    struct waiting *w = &cache[suite - PQPAN_PQKE_SUITE_MLKEM512];
    uint32_t seed = 1;
    size_t init_len, answer_len;
    if (!w->ready) {
        require(pqpan_pqke_initiator_init(&w->ini, suite) == PQPAN_OK);
        require(pqpan_pqke_responder_init(&w->resp, PQPAN_PQKE_SUITES_ALL) == PQPAN_OK);
        require(pqpan_pqke_initiator_start(&w->ini, counter_rng, &seed, init, sizeof init,
                                           &init_len) == PQPAN_OK);
        require(pqpan_pqke_responder_handle(&w->resp, counter_rng, &seed, init, init_len, answer,
                                            sizeof answer, &answer_len) == PQPAN_OK);
        w->ready = 1;
    }
    return w;
}

static void run_initiator(unsigned suite, const uint8_t *msg, size_t len, uint8_t *buf,
                          size_t cap)
{
    struct pqpan_pqke_initiator ini = waiting_for(suite)->ini;
    uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES];
    size_t out_len;
    int rc = pqpan_pqke_initiator_handle(&ini, msg, len, buf, cap, &out_len);
    check_no_key(rc, pqpan_pqke_initiator_state(&ini), pqpan_pqke_initiator_error(&ini),
                 pqpan_pqke_initiator_session_key(&ini, key), key);
}

static void run_responder(unsigned suite, int waiting, const uint8_t *msg, size_t len,
                          uint8_t *buf, size_t cap)
{
    struct pqpan_pqke_responder resp;
    uint8_t key[PQPAN_PQKE_SESSION_KEY_BYTES];
    uint32_t seed = 2;
    size_t out_len;
    int rc;
    if (waiting) {
        resp = waiting_for(suite)->resp;
    } else {
        require(pqpan_pqke_responder_init(&resp, PQPAN_PQKE_SUITES_ALL) == PQPAN_OK);
    }
    rc = pqpan_pqke_responder_handle(&resp, counter_rng, &seed, msg, len, buf, cap, &out_len);
    if (!waiting && rc == PQPAN_OK) {
        /* A well-formed INIT is answered; the responder then waits for a FIN. */
        require(pqpan_pqke_responder_state(&resp) == PQPAN_PQKE_STATE_WAIT_FIN);
        return;
    }
    check_no_key(rc, pqpan_pqke_responder_state(&resp), pqpan_pqke_responder_error(&resp),
                 pqpan_pqke_responder_session_key(&resp, key), key);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[PQPAN_PQKE_MSG_MAX_BYTES];
    unsigned suite;
    if (size < 2) {
        return 0;
    }
    suite = PQPAN_PQKE_SUITE_MLKEM512 + data[1] % 3u;
    switch (data[0] % 3u) {
    case 0:
        run_responder(suite, 0, data + 2, size - 2, buf, sizeof buf);
        break;
    case 1:
        run_initiator(suite, data + 2, size - 2, buf, sizeof buf);
        break;
    default:
        run_responder(suite, 1, data + 2, size - 2, buf, sizeof buf);
        break;
    }
    return 0;
}
