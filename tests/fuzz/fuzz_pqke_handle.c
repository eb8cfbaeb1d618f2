/* libFuzzer target: the PQKE parties fed arbitrary bytes. Input byte 0 picks the party
 * (0: a fresh responder, 1: an initiator waiting for RESP, 2: a responder waiting for
 * FIN, 3: an initiator waiting for REVEAL, which outside numeric mode is one waiting for
 * RESP), byte 1 the suite (of six: ML-KEM alone and with P-256), byte 2 the mode (of seven,
 * the sig modes with the ML-DSA set of the suite's category); the rest is the message.
 * The waiting parties come from one deterministic exchange per suite and mode, run once and
 * cloned by struct copy for each input. No waiting party may ever reach WAIT_REVEAL,
 * WAIT_USER or DONE (that would need a forged confirmation tag, or a nonce that opens
 * another's commitment); every refusal must leave the party FAILED with no session. Seeds
 * (tests/fuzz/corpus/pqke_handle/): for each suite and mode, the INIT, RESP, FIN (and
 * numeric's REVEAL) of one real exchange run with other randomness than the target's, each
 * behind its three selector bytes. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

static const unsigned modes[] = {PQPAN_PQKE_MODE_NONE,     PQPAN_PQKE_MODE_PSK,
                                 PQPAN_PQKE_MODE_KEM_AUTH, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL,
                                 PQPAN_PQKE_MODE_NUMERIC,  PQPAN_PQKE_MODE_SIG,
                                 PQPAN_PQKE_MODE_SIG_MUTUAL};
#define N_MODES (sizeof modes / sizeof modes[0])
#define N_SUITES 6
#define N_LEVELS 3 /* ML-KEM-512/768/1024 (and ML-DSA-44/65/87) */

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

static void check_no_session(int rc, enum pqpan_pqke_state state, int err, int take_rc,
                             const struct pqpan_pqke_session *s)
{
    static const struct pqpan_pqke_session zero;
    require(rc < 0 && state == PQPAN_PQKE_STATE_FAILED && err == rc);
    require(take_rc == PQPAN_ERR_STATE && memcmp(s, &zero, sizeof zero) == 0);
}

/* One device pair's long-term keys per level (static key pairs, PSK, ML-DSA key pairs). */
struct keys {
    uint8_t psk[PQPAN_PQKE_PSK_BYTES];
    uint8_t r_ek[PQPAN_KEM_EK_MAX_BYTES], r_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t i_ek[PQPAN_KEM_EK_MAX_BYTES], i_dk[PQPAN_KEM_DK_MAX_BYTES];
    uint8_t r_pk[PQPAN_SIG_PK_MAX_BYTES], r_sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t i_pk[PQPAN_SIG_PK_MAX_BYTES], i_sk[PQPAN_SIG_SK_MAX_BYTES];
};

/* The waiting parties of one deterministic exchange per suite and mode, built on first use
 * and then cloned by struct copy for every input (contexts hold no pointers). */
struct waiting {
    int ready;
    struct pqpan_pqke_initiator ini;    /* WAIT_RESP */
    struct pqpan_pqke_responder resp;   /* WAIT_FIN */
    struct pqpan_pqke_initiator reveal; /* numeric: WAIT_REVEAL; else WAIT_RESP */
};

static struct keys key_cache[N_LEVELS];

/* The level of a suite: 0, 1, 2 for ML-KEM-512, -768, -1024, alone or with P-256. */
static unsigned level_of(unsigned suite)
{
    return (suite - 1) % N_LEVELS;
}

static const struct keys *keys_for(unsigned suite)
{
    static int ready[N_LEVELS];
    const unsigned lv = level_of(suite);
    struct keys *k = &key_cache[lv];
    const struct pqpan_kem *kem = pqpan_kem_by_id((enum pqpan_kem_id)(lv + 1));
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)(lv + 1));
    uint32_t seed = 77;
    if (!ready[lv]) {
        memset(k->psk, 0x42, sizeof k->psk);
        require(kem->keypair(k->r_ek, k->r_dk, counter_rng, &seed) == PQPAN_OK);
        require(kem->keypair(k->i_ek, k->i_dk, counter_rng, &seed) == PQPAN_OK);
        require(ds->keypair(k->r_pk, k->r_sk, counter_rng, &seed) == PQPAN_OK);
        require(ds->keypair(k->i_pk, k->i_sk, counter_rng, &seed) == PQPAN_OK);
        ready[lv] = 1;
    }
    return k;
}

static struct pqpan_pqke_policy policy_for(unsigned suite, unsigned mode)
{
    struct pqpan_pqke_policy p = {PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(mode),
                                  (const uint8_t *)"fuzz", 4};
    return p;
}

static struct pqpan_pqke_credentials cred(unsigned suite, int initiator)
{
    static const char id_i[] = "fuzz initiator", id_r[] = "fuzz responder";
    const struct keys *k = keys_for(suite);
    struct pqpan_pqke_credentials c;
    memset(&c, 0, sizeof c);
    c.psk = k->psk;
    c.psk_len = sizeof k->psk;
    c.kem = level_of(suite) + 1;
    c.own_dk = initiator ? k->i_dk : k->r_dk;
    c.peer_ek = initiator ? k->r_ek : k->i_ek;
    c.sig = level_of(suite) + 1;
    c.own_sk = initiator ? k->i_sk : k->r_sk;
    c.peer_pk = initiator ? k->r_pk : k->i_pk;
    c.own_id = (const uint8_t *)(initiator ? id_i : id_r);
    c.own_id_len = sizeof id_i - 1;
    c.peer_id = (const uint8_t *)(initiator ? id_r : id_i);
    c.peer_id_len = sizeof id_r - 1;
    return c;
}

static const struct waiting *waiting_for(unsigned suite, unsigned m)
{
    static struct waiting cache[N_SUITES][N_MODES];
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], answer[PQPAN_PQKE_RESP_MAX_BYTES];
    static uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
    struct waiting *w = &cache[suite - 1][m];
    struct pqpan_pqke_policy p = policy_for(suite, modes[m]);
    struct pqpan_pqke_credentials ci = cred(suite, 1), cr = cred(suite, 0);
    uint32_t seed = 1;
    size_t init_len, answer_len, fin_len;
    if (!w->ready) {
        require(pqpan_pqke_initiator_init(&w->ini, &p, suite, modes[m]) == PQPAN_OK);
        require(pqpan_pqke_responder_init(&w->resp, &p, &cr) == PQPAN_OK);
        require(pqpan_pqke_initiator_start(&w->ini, &ci, counter_rng, &seed, init, sizeof init,
                                           &init_len) == PQPAN_OK);
        require(pqpan_pqke_responder_handle(&w->resp, counter_rng, &seed, init, init_len, answer,
                                            sizeof answer, &answer_len) == PQPAN_OK);
        w->reveal = w->ini;
        if (modes[m] == PQPAN_PQKE_MODE_NUMERIC) {
            require(pqpan_pqke_initiator_handle(&w->reveal, answer, answer_len, fin, sizeof fin,
                                                &fin_len) == PQPAN_OK);
        }
        w->ready = 1;
    }
    return w;
}

static void run_initiator(unsigned suite, unsigned m, int revealing, const uint8_t *msg,
                          size_t len, uint8_t *buf, size_t cap)
{
    const struct waiting *w = waiting_for(suite, m);
    struct pqpan_pqke_initiator ini = revealing ? w->reveal : w->ini, copy;
    struct pqpan_pqke_session s;
    size_t out_len;
    int rc = pqpan_pqke_initiator_handle(&ini, msg, len, buf, cap, &out_len);
    copy = ini;
    check_no_session(rc, pqpan_pqke_initiator_state(&ini), pqpan_pqke_initiator_error(&ini),
                     pqpan_pqke_initiator_take_session(&copy, &s), &s);
}

static void run_responder(unsigned suite, unsigned m, int waiting, const uint8_t *msg, size_t len,
                          uint8_t *buf, size_t cap)
{
    struct pqpan_pqke_responder resp, copy;
    struct pqpan_pqke_policy p = policy_for(suite, modes[m]);
    struct pqpan_pqke_credentials c = cred(suite, 0);
    struct pqpan_pqke_session s;
    uint32_t seed = 2;
    size_t out_len;
    int rc;
    if (waiting) {
        resp = waiting_for(suite, m)->resp;
    } else {
        require(pqpan_pqke_responder_init(&resp, &p, &c) == PQPAN_OK);
    }
    rc = pqpan_pqke_responder_handle(&resp, counter_rng, &seed, msg, len, buf, cap, &out_len);
    if (!waiting && rc == PQPAN_OK) {
        /* A well-formed INIT is answered; the responder then waits for a FIN. */
        require(pqpan_pqke_responder_state(&resp) == PQPAN_PQKE_STATE_WAIT_FIN);
        return;
    }
    copy = resp;
    check_no_session(rc, pqpan_pqke_responder_state(&resp), pqpan_pqke_responder_error(&resp),
                     pqpan_pqke_responder_take_session(&copy, &s), &s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint8_t buf[PQPAN_PQKE_MSG_MAX_BYTES];
    unsigned suite, m;
    if (size < 3) {
        return 0;
    }
    suite = PQPAN_PQKE_SUITE_MLKEM512 + data[1] % (unsigned)N_SUITES;
    m = data[2] % (unsigned)N_MODES;
    switch (data[0] % 4u) {
    case 0:
        run_responder(suite, m, 0, data + 3, size - 3, buf, sizeof buf);
        break;
    case 1:
        run_initiator(suite, m, 0, data + 3, size - 3, buf, sizeof buf);
        break;
    case 2:
        run_responder(suite, m, 1, data + 3, size - 3, buf, sizeof buf);
        break;
    default:
        run_initiator(suite, m, 1, data + 3, size - 3, buf, sizeof buf);
        break;
    }
    return 0;
}
