/* Tests for src/pqke (PQKE v2): message codecs, negotiation, key schedule, initiator and
 * responder in every suite (ML-KEM alone and hybrid with P-256) and every mode, and the
 * attacker's moves: a man in the middle, single-bit flips, truncations, replays,
 * reflections, downgrades.
 *
 * Independent references: message sizes computed by hand from the FIPS 203 §8 Table 3
 * sizes and the layouts of docs/PROTOCOL.md §2; the session keys recomputed here from the
 * documented formula (§3) with the KMAC256 of kmac.h (itself checked against the NIST SP
 * 800-185 samples in test_kmac.c), from Z rebuilt by decapsulating the messages' ciphertexts
 * with the test's own copies of the keys (and the P-256 secret from the initiator's ephemeral
 * key), the signatures verified with ML-DSA.Verify of sig.h over the documented transcript
 * hashes; Keccak permutation counts computed by hand. Every
 * rejection test checks the exact error code, the FAILED state and that no key comes out. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pqke/pqke_internal.h"
#include "pqpan/ecdh.h"
#include "pqpan/kmac.h"
#include "pqpan/pqke.h"
#include "pqpan/sha3.h"
#include "pqpan/sig.h"

static const unsigned all_suites[] = {PQPAN_PQKE_SUITE_MLKEM512,      PQPAN_PQKE_SUITE_MLKEM768,
                                      PQPAN_PQKE_SUITE_MLKEM1024,     PQPAN_PQKE_SUITE_P256_MLKEM512,
                                      PQPAN_PQKE_SUITE_P256_MLKEM768, PQPAN_PQKE_SUITE_P256_MLKEM1024};
/* The modes of version 2's first release first (the pinned digests follow this order). */
static const unsigned all_modes[] = {PQPAN_PQKE_MODE_NONE,     PQPAN_PQKE_MODE_PSK,
                                     PQPAN_PQKE_MODE_KEM_AUTH, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL,
                                     PQPAN_PQKE_MODE_NUMERIC,  PQPAN_PQKE_MODE_SIG,
                                     PQPAN_PQKE_MODE_SIG_MUTUAL};
#define N_SUITES (sizeof all_suites / sizeof all_suites[0])
#define N_MODES (sizeof all_modes / sizeof all_modes[0])
#define N_MLKEM_SUITES 3 /* all_suites[0..3): ML-KEM alone */
#define N_V1_MODES 5     /* all_modes[0..5): no signatures */

static const char test_prologue[] = "AA:BB:CC:DD:EE:01|AA:BB:CC:DD:EE:02|door-lock";

/* ---- deterministic randomness (splitmix64) ---- */

struct test_rng {
    uint64_t s;
    int fail_after; /* calls that succeed before one fails; < 0: never fail */
};

static uint64_t next64(struct test_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static int test_rng_fill(void *ctx, uint8_t *out, size_t len)
{
    struct test_rng *r = ctx;
    size_t i;
    if (r->fail_after == 0) {
        return -1;
    }
    if (r->fail_after > 0) {
        r->fail_after--;
    }
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)next64(r);
    }
    return 0;
}

static struct test_rng rng_seeded(uint64_t seed)
{
    struct test_rng r;
    r.s = seed;
    r.fail_after = -1;
    return r;
}

/* ---- long-term credentials: one set per "device pair" (victims) and one of an attacker ---- */

struct keyset {
    uint8_t psk[PQPAN_PQKE_PSK_BYTES];
    unsigned kem; /* the ML-KEM set of the static keys */
    uint8_t r_ek[PQPAN_KEM_EK_MAX_BYTES], r_dk[PQPAN_KEM_DK_MAX_BYTES]; /* responder's static */
    uint8_t i_ek[PQPAN_KEM_EK_MAX_BYTES], i_dk[PQPAN_KEM_DK_MAX_BYTES]; /* initiator's static */
    unsigned sig; /* the ML-DSA set of the signature keys */
    uint8_t r_pk[PQPAN_SIG_PK_MAX_BYTES], r_sk[PQPAN_SIG_SK_MAX_BYTES]; /* responder's ML-DSA */
    uint8_t i_pk[PQPAN_SIG_PK_MAX_BYTES], i_sk[PQPAN_SIG_SK_MAX_BYTES]; /* initiator's ML-DSA */
};

static const struct pqpan_kem *kem_of(unsigned suite)
{
    /* wire values 1..3 and 4..6 (with P-256) = kem ids 1..3 */
    return pqpan_kem_by_id((enum pqpan_kem_id)((suite - 1) % 3 + 1));
}

/* The tests pair each ML-KEM level with the ML-DSA set of its category: 44, 65, 87. */
static unsigned sig_of_suite(unsigned suite)
{
    return (suite - 1) % 3 + 1;
}

/* The ML-DSA set a run of (suite, mode) announces: 0 outside the sig modes. */
static unsigned run_sig(unsigned suite, unsigned mode)
{
    return pqpan_pqke_mode_sig_responder(mode) ? sig_of_suite(suite) : 0u;
}

static void keyset_make(struct keyset *k, unsigned suite, uint64_t seed)
{
    struct test_rng r = rng_seeded(seed);
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)sig_of_suite(suite));
    assert_int_equal(test_rng_fill(&r, k->psk, sizeof k->psk), 0);
    k->kem = kem_of(suite)->id;
    assert_int_equal(kem_of(suite)->keypair(k->r_ek, k->r_dk, test_rng_fill, &r), PQPAN_OK);
    assert_int_equal(kem_of(suite)->keypair(k->i_ek, k->i_dk, test_rng_fill, &r), PQPAN_OK);
    k->sig = ds->id;
    assert_int_equal(ds->keypair(k->r_pk, k->r_sk, test_rng_fill, &r), PQPAN_OK);
    assert_int_equal(ds->keypair(k->i_pk, k->i_sk, test_rng_fill, &r), PQPAN_OK);
}

/* The two devices' identities (their link addresses, as the prologue names them). */
static const char id_initiator[] = "AA:BB:CC:DD:EE:01";
static const char id_responder[] = "AA:BB:CC:DD:EE:02";

/* The credentials of one side of the keyset's device pair: its own secrets and identity,
 * the peer's pinned keys and identity. */
static struct pqpan_pqke_credentials cred_of(const struct keyset *k, int initiator)
{
    struct pqpan_pqke_credentials c;
    memset(&c, 0, sizeof c);
    c.psk = k->psk;
    c.psk_len = sizeof k->psk;
    c.kem = k->kem;
    c.own_dk = initiator ? k->i_dk : k->r_dk;
    c.peer_ek = initiator ? k->r_ek : k->i_ek;
    c.sig = k->sig;
    c.own_sk = initiator ? k->i_sk : k->r_sk;
    c.peer_pk = initiator ? k->r_pk : k->i_pk;
    c.own_id = (const uint8_t *)(initiator ? id_initiator : id_responder);
    c.own_id_len = sizeof id_initiator - 1;
    c.peer_id = (const uint8_t *)(initiator ? id_responder : id_initiator);
    c.peer_id_len = sizeof id_responder - 1;
    return c;
}

static struct pqpan_pqke_credentials cred_initiator(const struct keyset *k)
{
    return cred_of(k, 1);
}

static struct pqpan_pqke_credentials cred_responder(const struct keyset *k)
{
    return cred_of(k, 0);
}

static struct pqpan_pqke_policy policy_of(uint32_t suites, uint32_t modes)
{
    struct pqpan_pqke_policy p;
    p.suites = suites;
    p.modes = modes;
    p.prologue = (const uint8_t *)test_prologue;
    p.prologue_len = sizeof test_prologue - 1;
    return p;
}

/* ---- running both parties in memory ---- */

struct exchange {
    unsigned suite, mode, sig;
    struct keyset keys;
    struct pqpan_pqke_initiator ini;  /* after INIT, before RESP */
    struct pqpan_pqke_responder resp; /* after RESP, before FIN */
    uint8_t init_msg[PQPAN_PQKE_INIT_MAX_BYTES];
    size_t init_len;
    uint8_t resp_msg[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t resp_len;
    uint8_t fin_msg[PQPAN_PQKE_FIN_MAX_BYTES];
    size_t fin_len;
    uint8_t reveal_msg[PQPAN_PQKE_REVEAL_MSG_BYTES]; /* numeric */
    size_t reveal_len;
    uint32_t value; /* numeric: what both devices showed */
    struct pqpan_pqke_session s_ini, s_resp;
};

/* Runs INIT and RESP; keeps the parties at WAIT_RESP / WAIT_FIN in x. */
static void exchange_first_two(struct exchange *x, unsigned suite, unsigned mode, uint64_t seed)
{
    struct test_rng ri = rng_seeded(seed), rr = rng_seeded(seed ^ 0xABCDEF);
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(mode));
    struct pqpan_pqke_credentials ci, cr;
    memset(x, 0, sizeof *x);
    x->suite = suite;
    x->mode = mode;
    x->sig = run_sig(suite, mode);
    keyset_make(&x->keys, suite, 7000 + suite);
    ci = cred_initiator(&x->keys);
    cr = cred_responder(&x->keys);
    assert_int_equal(pqpan_pqke_initiator_init(&x->ini, &p, suite, mode), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&x->resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&x->ini, &ci, test_rng_fill, &ri, x->init_msg,
                                                sizeof x->init_msg, &x->init_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&x->resp, test_rng_fill, &rr, x->init_msg,
                                                 x->init_len, x->resp_msg, sizeof x->resp_msg,
                                                 &x->resp_len),
                     PQPAN_OK);
}

/* In numeric mode both devices show a value; an honest user compares and confirms. Returns
 * the value. */
static uint32_t user_compares(struct pqpan_pqke_initiator *ini, struct pqpan_pqke_responder *resp)
{
    uint32_t vi = 99999999, vr = 88888888;
    assert_int_equal(pqpan_pqke_initiator_state(ini), PQPAN_PQKE_STATE_WAIT_USER);
    assert_int_equal(pqpan_pqke_responder_state(resp), PQPAN_PQKE_STATE_WAIT_USER);
    assert_int_equal(pqpan_pqke_initiator_numeric_value(ini, &vi), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_numeric_value(resp, &vr), PQPAN_OK);
    assert_int_equal(vi, vr);
    assert_true(vi < PQPAN_PQKE_NUMERIC_MODULUS);
    assert_int_equal(pqpan_pqke_initiator_user_confirm(ini, 1), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_user_confirm(resp, 1), PQPAN_OK);
    return vi;
}

/* Runs a whole exchange and takes both sessions. */
static void exchange_full(struct exchange *x, unsigned suite, unsigned mode, uint64_t seed)
{
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    size_t none = 99;
    exchange_first_two(x, suite, mode, seed);
    ini = x->ini;
    resp = x->resp;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x->resp_msg, x->resp_len, x->fin_msg,
                                                 sizeof x->fin_msg, &x->fin_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, NULL, NULL, x->fin_msg, x->fin_len,
                                                 x->reveal_msg, sizeof x->reveal_msg,
                                                 &x->reveal_len),
                     PQPAN_OK);
    if (mode == PQPAN_PQKE_MODE_NUMERIC) {
        /* The responder shows its value as it sends REVEAL; the initiator after REVEAL. */
        assert_int_equal(x->reveal_len, PQPAN_PQKE_REVEAL_MSG_BYTES);
        assert_int_equal(pqpan_pqke_responder_state(&resp), PQPAN_PQKE_STATE_WAIT_USER);
        assert_int_equal(pqpan_pqke_initiator_state(&ini), PQPAN_PQKE_STATE_WAIT_REVEAL);
        assert_int_equal(pqpan_pqke_initiator_handle(&ini, x->reveal_msg, x->reveal_len, NULL, 0,
                                                     &none),
                         PQPAN_OK);
        assert_int_equal(none, 0);
        x->value = user_compares(&ini, &resp);
    } else {
        assert_int_equal(x->reveal_len, 0);
    }
    assert_int_equal(pqpan_pqke_initiator_state(&ini), PQPAN_PQKE_STATE_DONE);
    assert_int_equal(pqpan_pqke_responder_state(&resp), PQPAN_PQKE_STATE_DONE);
    assert_int_equal(pqpan_pqke_initiator_take_session(&ini, &x->s_ini), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_take_session(&resp, &x->s_resp), PQPAN_OK);
}

static int all_zero(const void *p, size_t n)
{
    const uint8_t *b = p;
    size_t i;
    uint8_t acc = 0;
    for (i = 0; i < n; i++) {
        acc |= b[i];
    }
    return acc == 0;
}

static void assert_initiator_failed(struct pqpan_pqke_initiator *ini, int err)
{
    struct pqpan_pqke_session s;
    struct pqpan_pqke_initiator copy = *ini;
    memset(&s, 0xEE, sizeof s);
    assert_int_equal(pqpan_pqke_initiator_state(ini), PQPAN_PQKE_STATE_FAILED);
    assert_int_equal(pqpan_pqke_initiator_error(ini), err);
    assert_true(all_zero(ini->dk, sizeof ini->dk));
    assert_true(all_zero(ini->ss_static, sizeof ini->ss_static));
    assert_true(all_zero(ini->numeric_nonce, sizeof ini->numeric_nonce));
    assert_true(all_zero(ini->commit, sizeof ini->commit));
    assert_true(all_zero(&ini->cred, sizeof ini->cred));
    assert_true(all_zero(ini->ecdh_sk, sizeof ini->ecdh_sk));
    assert_true(all_zero(ini->sig_rnd, sizeof ini->sig_rnd));
    assert_true(all_zero(&ini->secrets, sizeof ini->secrets));
    assert_int_equal(pqpan_pqke_initiator_take_session(&copy, &s), PQPAN_ERR_STATE);
    assert_true(all_zero(&s, sizeof s));
    assert_int_equal(pqpan_pqke_initiator_error(&copy), err); /* the first error is kept */
}

static void assert_responder_failed(struct pqpan_pqke_responder *resp, int err)
{
    struct pqpan_pqke_session s;
    struct pqpan_pqke_responder copy = *resp;
    memset(&s, 0xEE, sizeof s);
    assert_int_equal(pqpan_pqke_responder_state(resp), PQPAN_PQKE_STATE_FAILED);
    assert_int_equal(pqpan_pqke_responder_error(resp), err);
    assert_true(all_zero(resp->fin_key, sizeof resp->fin_key));
    assert_true(all_zero(resp->numeric_nonce, sizeof resp->numeric_nonce));
    assert_true(all_zero(&resp->cred, sizeof resp->cred));
    assert_true(all_zero(&resp->secrets, sizeof resp->secrets));
    assert_int_equal(pqpan_pqke_responder_take_session(&copy, &s), PQPAN_ERR_STATE);
    assert_true(all_zero(&s, sizeof s));
    assert_int_equal(pqpan_pqke_responder_error(&copy), err);
}

/* Feeds a (modified) RESP to a clone of the waiting initiator; returns its result. */
static int initiator_try(const struct exchange *x, const uint8_t *msg, size_t len)
{
    struct pqpan_pqke_initiator ini = x->ini;
    uint8_t out[PQPAN_PQKE_FIN_MAX_BYTES];
    size_t out_len = 77;
    int rc = pqpan_pqke_initiator_handle(&ini, msg, len, out, sizeof out, &out_len);
    if (rc != PQPAN_OK) {
        assert_initiator_failed(&ini, rc);
        assert_int_equal(out_len, 0);
        assert_true(all_zero(out, sizeof out));
    }
    return rc;
}

/* Feeds a (modified) FIN to a clone of the waiting responder; returns its result. */
static int responder_try_fin(const struct exchange *x, const uint8_t *msg, size_t len)
{
    struct pqpan_pqke_responder resp = x->resp;
    uint8_t out[PQPAN_PQKE_REVEAL_MSG_BYTES];
    size_t out_len = 77;
    int rc = pqpan_pqke_responder_handle(&resp, NULL, NULL, msg, len, out, sizeof out, &out_len);
    if (rc != PQPAN_OK) {
        assert_responder_failed(&resp, rc);
        assert_int_equal(out_len, 0);
        assert_true(all_zero(out, sizeof out));
    }
    return rc;
}

/* numeric: feeds a (modified) REVEAL to a clone of x's initiator after FIN; returns its
 * result. */
static int initiator_try_reveal(const struct exchange *x, const uint8_t *msg, size_t len)
{
    struct pqpan_pqke_initiator ini = x->ini;
    uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
    size_t fin_len, out_len = 77;
    int rc;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x->resp_msg, x->resp_len, fin, sizeof fin,
                                                 &fin_len),
                     PQPAN_OK);
    rc = pqpan_pqke_initiator_handle(&ini, msg, len, NULL, 0, &out_len);
    if (rc != PQPAN_OK) {
        assert_initiator_failed(&ini, rc);
    }
    assert_int_equal(out_len, 0);
    return rc;
}

/* Feeds a (modified) INIT to a fresh responder of x's policy; on success *out holds RESP. */
static int responder_try_init(const struct exchange *x, const uint8_t *msg, size_t len,
                              uint64_t seed, uint8_t *out, size_t *out_len)
{
    struct pqpan_pqke_policy p =
        policy_of(PQPAN_PQKE_SUITE_BIT(x->suite), PQPAN_PQKE_MODE_BIT(x->mode));
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials c = cred_responder(&x->keys);
    struct test_rng r = rng_seeded(seed);
    int rc;
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &c), PQPAN_OK);
    rc = pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, msg, len, out,
                                     PQPAN_PQKE_RESP_MAX_BYTES, out_len);
    if (rc != PQPAN_OK) {
        assert_responder_failed(&resp, rc);
        assert_int_equal(*out_len, 0);
    }
    return rc;
}

/* ---- sizes, names, codecs ---- */

static void test_message_sizes_per_suite_and_mode(void **state)
{
    /* header 6 + sets 2 + nonce 32 + ek [+ ct]; header 6 + sets 2 + ct [+ ct] + nonce 32
     * [+ commit 32] + tag 32; header 6 [+ n_I 32] + tag 32; numeric's REVEAL header 6 + n_R
     * 32. ek / ct: FIPS 203 §8 Table 3 (800/768, 1184/1088, 1568/1568). Rows: none, psk,
     * kem-auth, kem-auth-mutual, numeric; INIT, RESP, FIN, REVEAL, key. */
    static const size_t want[3][5][5] = {
        {{840, 840, 38, 0, 16}, {840, 840, 38, 0, 16}, {1608, 840, 38, 0, 16},
         {1608, 1608, 38, 0, 16}, {840, 872, 70, 38, 16}},
        {{1224, 1160, 38, 0, 32}, {1224, 1160, 38, 0, 32}, {2312, 1160, 38, 0, 32},
         {2312, 2248, 38, 0, 32}, {1224, 1192, 70, 38, 32}},
        {{1608, 1640, 38, 0, 32}, {1608, 1640, 38, 0, 32}, {3176, 1640, 38, 0, 32},
         {3176, 3208, 38, 0, 32}, {1608, 1672, 70, 38, 32}}};
    size_t i, j;
    (void)state;
    for (i = 0; i < N_MLKEM_SUITES; i++) {
        for (j = 0; j < N_V1_MODES; j++) {
            struct pqpan_pqke_sizes s = pqpan_pqke_message_sizes(all_suites[i], all_modes[j], 0);
            assert_int_equal(s.init_bytes, want[i][j][0]);
            assert_int_equal(s.resp_bytes, want[i][j][1]);
            assert_int_equal(s.fin_bytes, want[i][j][2]);
            assert_int_equal(s.reveal_bytes, want[i][j][3]);
            assert_int_equal(s.key_bytes, want[i][j][4]);
        }
    }
    /* ML-KEM-1024 with P-256: kem-auth INIT 6 + 2 + 32 + 1568 + 64 + 1568; sig-mutual RESP
     * with ML-DSA-87 (FIPS 204 Table 2: 4627) 6 + 1 + 2 + 1568 + 64 + 32 + 4627 + 32; its FIN
     * 6 + 1 + 4627 + 32. */
    assert_int_equal(PQPAN_PQKE_INIT_MAX_BYTES, 3240);
    assert_int_equal(PQPAN_PQKE_RESP_MAX_BYTES, 6332);
    assert_int_equal(PQPAN_PQKE_FIN_MAX_BYTES, 4666);
    assert_int_equal(PQPAN_PQKE_MSG_MAX_BYTES, 6332);
    /* docs/PROTOCOL.md §4 footprint (the host the unit tests run on: x86-64) */
    assert_int_equal(sizeof(struct pqpan_pqke_initiator), 3752);
    assert_int_equal(sizeof(struct pqpan_pqke_responder), 488);
    /* unknown values, and a sig mode without a known ML-DSA set, have no sizes */
    assert_int_equal(pqpan_pqke_message_sizes(2, PQPAN_PQKE_MODE_SIG, 0).resp_bytes, 0);
    assert_int_equal(pqpan_pqke_message_sizes(2, PQPAN_PQKE_MODE_SIG_MUTUAL, 4).init_bytes, 0);
    assert_int_equal(pqpan_pqke_message_sizes(0, 1, 0).fin_bytes, 0);
    assert_int_equal(pqpan_pqke_message_sizes(7, 1, 0).init_bytes, 0);
    assert_int_equal(pqpan_pqke_message_sizes(2, 8, 0).fin_bytes, 0);
    assert_int_equal(pqpan_pqke_message_sizes(2, 0, 2).fin_bytes, 0);
}

/* The sig modes and the hybrid suites, by hand from docs/PROTOCOL.md §2: the sig modes add a
 * set byte to every message, sig_r to RESP and (sig-mutual) sig_i to FIN (ML-DSA-44/65/87:
 * 2420 / 3309 / 4627 bytes, FIPS 204 Table 2); the hybrid suites a 64-byte P-256 public key
 * to INIT and to RESP. The set is ignored outside the sig modes. */
static void test_message_sizes_of_sig_modes_and_hybrid_suites(void **state)
{
    static const struct {
        unsigned suite, mode, sig;
        size_t init, resp, fin, key, ecdh, sig_bytes;
    } rows[] = {
        /* 6+1+2+32+800 = 841; 6+1+2+768+32+2420+32 = 3261; 6+1+32 = 39 */
        {1, PQPAN_PQKE_MODE_SIG, 1, 841, 3261, 39, 16, 0, 2420},
        /* 6+1+2+32+1184 = 1225; 6+1+2+1088+32+3309+32 = 4470; 39 (+ 3309) */
        {2, PQPAN_PQKE_MODE_SIG, 2, 1225, 4470, 39, 32, 0, 3309},
        {2, PQPAN_PQKE_MODE_SIG_MUTUAL, 2, 1225, 4470, 3348, 32, 0, 3309},
        /* 6+1+2+32+1568 = 1609; 6+1+2+1568+32+2420+32 = 4061; 39 + 2420 */
        {3, PQPAN_PQKE_MODE_SIG_MUTUAL, 1, 1609, 4061, 2459, 32, 0, 2420},
        /* 6+2+32+1184+64 = 1288; 6+2+1088+64+32+32 = 1224 */
        {5, PQPAN_PQKE_MODE_NONE, 3, 1288, 1224, 38, 32, 64, 0},
        {5, PQPAN_PQKE_MODE_PSK, 0, 1288, 1224, 38, 32, 64, 0},
        /* 6+2+32+800+64 = 904; 6+2+768+64+32+32+32 = 936; 6+32+32 = 70 */
        {4, PQPAN_PQKE_MODE_NUMERIC, 0, 904, 936, 70, 16, 64, 0},
        /* 6+2+32+800+64+768 = 1672; 6+2+768+64+32+32 = 904 */
        {4, PQPAN_PQKE_MODE_KEM_AUTH, 0, 1672, 904, 38, 16, 64, 0},
        /* 6+2+32+1568+64+1568 = 3240; 6+2+1568+64+1568+32+32 = 3272 */
        {6, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 0, 3240, 3272, 38, 32, 64, 0},
        /* 6+1+2+32+1568+64 = 1673; 6+1+2+1568+64+32+4627+32 = 6332; 6+1+4627+32 = 4666 */
        {6, PQPAN_PQKE_MODE_SIG_MUTUAL, 3, 1673, 6332, 4666, 32, 64, 4627},
        {4, PQPAN_PQKE_MODE_SIG, 3, 905, 5532, 39, 16, 64, 4627},
        /* docs/PROTOCOL.md §2.5's rows: 6+1+2+32+800 = 841, 3261, 39 + 2420 = 2459; for
         * ML-KEM-1024 with ML-DSA-87: 1609, 6+1+2+1568+32+4627+32 = 6268, 39 (+ 4627) */
        {1, PQPAN_PQKE_MODE_SIG_MUTUAL, 1, 841, 3261, 2459, 16, 0, 2420},
        {3, PQPAN_PQKE_MODE_SIG, 3, 1609, 6268, 39, 32, 0, 4627},
        {3, PQPAN_PQKE_MODE_SIG_MUTUAL, 3, 1609, 6268, 4666, 32, 0, 4627},
    };
    size_t i;
    (void)state;
    for (i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        struct pqpan_pqke_sizes s = pqpan_pqke_message_sizes(rows[i].suite, rows[i].mode, rows[i].sig);
        assert_int_equal(s.init_bytes, rows[i].init);
        assert_int_equal(s.resp_bytes, rows[i].resp);
        assert_int_equal(s.fin_bytes, rows[i].fin);
        assert_int_equal(s.key_bytes, rows[i].key);
        assert_int_equal(s.ecdh_bytes, rows[i].ecdh);
        assert_int_equal(s.sig_bytes, rows[i].sig_bytes);
    }
}

static void test_names_and_mode_properties(void **state)
{
    size_t i;
    (void)state;
    assert_string_equal(pqpan_pqke_suite_name(PQPAN_PQKE_SUITE_MLKEM768), "ML-KEM-768");
    assert_string_equal(pqpan_pqke_suite_name(PQPAN_PQKE_SUITE_P256_MLKEM1024),
                        "P-256+ML-KEM-1024");
    assert_null(pqpan_pqke_suite_name(9));
    assert_int_equal(pqpan_pqke_suite_for_kem(PQPAN_KEM_MLKEM1024), PQPAN_PQKE_SUITE_MLKEM1024);
    assert_int_equal(pqpan_pqke_suite_for_kem((enum pqpan_kem_id)0), 0);
    assert_int_equal(pqpan_pqke_hybrid_suite_for_kem(PQPAN_KEM_MLKEM768), PQPAN_PQKE_SUITE_P256_MLKEM768);
    assert_int_equal(pqpan_pqke_hybrid_suite_for_kem((enum pqpan_kem_id)0), 0);
    assert_true(pqpan_pqke_mode_sig_responder(PQPAN_PQKE_MODE_SIG));
    assert_false(pqpan_pqke_mode_sig_initiator(PQPAN_PQKE_MODE_SIG));
    assert_true(pqpan_pqke_mode_sig_initiator(PQPAN_PQKE_MODE_SIG_MUTUAL));
    assert_false(pqpan_pqke_mode_sig_responder(PQPAN_PQKE_MODE_KEM_AUTH));
    for (i = 1; i <= 7; i++) {
        assert_int_equal(pqpan_pqke_mode_by_name(pqpan_pqke_mode_name((unsigned)i)), i);
    }
    assert_int_equal(pqpan_pqke_mode_by_name("kem-auth-mutual"), PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL);
    assert_int_equal(pqpan_pqke_mode_by_name("KEM-AUTH"), 0);
    assert_int_equal(pqpan_pqke_mode_by_name(NULL), 0);
    assert_null(pqpan_pqke_mode_name(0));
    assert_true(pqpan_pqke_mode_implemented(PQPAN_PQKE_MODE_SIG));
    assert_true(pqpan_pqke_mode_implemented(PQPAN_PQKE_MODE_SIG_MUTUAL));
    assert_true(pqpan_pqke_mode_implemented(PQPAN_PQKE_MODE_NUMERIC));
    assert_false(pqpan_pqke_mode_implemented(8));
    assert_string_equal(pqpan_pqke_suite_name(PQPAN_PQKE_SUITE_P256_MLKEM768), "P-256+ML-KEM-768");
    assert_true(pqpan_pqke_suite_hybrid(PQPAN_PQKE_SUITE_P256_MLKEM512));
    assert_false(pqpan_pqke_suite_hybrid(PQPAN_PQKE_SUITE_MLKEM1024));
    /* Which modes authenticate whom: none authenticates nobody. */
    assert_false(pqpan_pqke_mode_authenticates_responder(PQPAN_PQKE_MODE_NONE));
    assert_false(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_NONE));
    assert_true(pqpan_pqke_mode_authenticates_responder(PQPAN_PQKE_MODE_KEM_AUTH));
    assert_false(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_KEM_AUTH));
    assert_true(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL));
    assert_true(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_PSK));
    assert_true(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_NUMERIC));
    assert_true(pqpan_pqke_mode_authenticates_responder(PQPAN_PQKE_MODE_SIG));
    assert_false(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_SIG));
    assert_true(pqpan_pqke_mode_authenticates_responder(PQPAN_PQKE_MODE_SIG_MUTUAL));
    assert_true(pqpan_pqke_mode_authenticates_initiator(PQPAN_PQKE_MODE_SIG_MUTUAL));
}

static void test_codecs_write_documented_bytes_and_parse_back(void **state)
{
    uint8_t nonce[32], tag[32], commit[32], n_i[32];
    uint8_t body[PQPAN_MLKEM1024_EK_BYTES], body2[PQPAN_MLKEM1024_CT_BYTES];
    uint8_t buf[PQPAN_PQKE_MSG_MAX_BYTES];
    struct pqpan_pqke_init_msg im, ip;
    struct pqpan_pqke_resp_msg rm, rp;
    struct pqpan_pqke_fin_msg fm, fp;
    struct pqpan_pqke_reveal_msg vm, vp;
    size_t len, i;
    (void)state;
    for (i = 0; i < sizeof body; i++) {
        body[i] = (uint8_t)(i * 13 + 1);
        body2[i] = (uint8_t)(i * 7 + 3);
    }
    memset(nonce, 0x4E, sizeof nonce);
    memset(tag, 0x7A, sizeof tag);
    memset(commit, 0xC0, sizeof commit);
    memset(n_i, 0x5E, sizeof n_i);

    /* kem-auth INIT for ML-KEM-768: 6 + 2 + 32 + 1184 + 1088 = 2312 = 0x0908 */
    memset(&im, 0, sizeof im);
    im.suite = PQPAN_PQKE_SUITE_MLKEM768;
    im.mode = PQPAN_PQKE_MODE_KEM_AUTH;
    im.offer_suites = 0x0C; /* 768, 1024 */
    im.offer_modes = 0x0A;  /* none, kem-auth */
    im.nonce = nonce;
    im.ek = body;
    im.ek_len = PQPAN_MLKEM768_EK_BYTES;
    im.ct_static = body2;
    im.ct_static_len = PQPAN_MLKEM768_CT_BYTES;
    assert_int_equal(pqpan_pqke_init_write(buf, sizeof buf, &len, &im), PQPAN_OK);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x01, 0x02, 0x03, 0x08, 0x09, 0x0C, 0x0A}), 8);
    assert_int_equal(len, 2312);
    assert_memory_equal(buf + 8, nonce, 32);
    assert_memory_equal(buf + 40, body, 1184);
    assert_memory_equal(buf + 1224, body2, 1088);
    assert_int_equal(pqpan_pqke_init_parse(&ip, buf, len), PQPAN_OK);
    assert_int_equal(ip.offer_suites, 0x0C);
    assert_int_equal(ip.offer_modes, 0x0A);
    assert_ptr_equal(ip.ek, buf + 40);
    assert_ptr_equal(ip.ct_static, buf + 1224);

    /* numeric INIT for ML-KEM-512: no field of its own, 6 + 2 + 32 + 800 = 840 */
    im.suite = PQPAN_PQKE_SUITE_MLKEM512;
    im.mode = PQPAN_PQKE_MODE_NUMERIC;
    im.offer_suites = 0x02;
    im.offer_modes = 0x80;
    im.ek_len = PQPAN_MLKEM512_EK_BYTES;
    im.ct_static = NULL;
    im.ct_static_len = 0;
    assert_int_equal(pqpan_pqke_init_write(buf, sizeof buf, &len, &im), PQPAN_OK);
    assert_int_equal(len, 840);
    assert_int_equal(pqpan_pqke_init_parse(&ip, buf, len), PQPAN_OK);

    /* numeric RESP for ML-KEM-512: the commitment after nonce_r, 6 + 2 + 768 + 32 + 32 + 32
     * = 872 = 0x0368 */
    memset(&rm, 0, sizeof rm);
    rm.suite = PQPAN_PQKE_SUITE_MLKEM512;
    rm.mode = PQPAN_PQKE_MODE_NUMERIC;
    rm.accepted_suites = 0x02;
    rm.accepted_modes = 0x80;
    rm.ct = body;
    rm.ct_len = 768;
    rm.nonce = nonce;
    rm.commit = commit;
    rm.tag = tag;
    assert_int_equal(pqpan_pqke_resp_write(buf, sizeof buf, &len, &rm), PQPAN_OK);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x02, 0x01, 0x07, 0x68, 0x03}), 6);
    assert_int_equal(len, 872);
    assert_memory_equal(buf + 776, nonce, 32);
    assert_memory_equal(buf + 808, commit, 32);
    assert_memory_equal(buf + 840, tag, 32);
    assert_int_equal(pqpan_pqke_resp_parse(&rp, buf, len), PQPAN_OK);
    assert_ptr_equal(rp.commit, buf + 808);
    rm.commit = NULL; /* numeric without its commitment: refused */
    assert_int_equal(pqpan_pqke_resp_write(buf, sizeof buf, &len, &rm), PQPAN_ERR_BAD_LENGTH);

    /* kem-auth-mutual RESP for ML-KEM-512: 6 + 2 + 768 + 768 + 32 + 32 = 1608 = 0x0648 */
    memset(&rm, 0, sizeof rm);
    rm.suite = PQPAN_PQKE_SUITE_MLKEM512;
    rm.mode = PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL;
    rm.accepted_suites = 0x0E;
    rm.accepted_modes = 0x12;
    rm.ct = body;
    rm.ct_len = 768;
    rm.ct_static = body2;
    rm.ct_static_len = 768;
    rm.nonce = nonce;
    rm.tag = tag;
    assert_int_equal(pqpan_pqke_resp_write(buf, sizeof buf, &len, &rm), PQPAN_OK);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x02, 0x01, 0x04, 0x48, 0x06, 0x0E, 0x12}), 8);
    assert_int_equal(len, 1608);
    assert_memory_equal(buf + 8, body, 768);
    assert_memory_equal(buf + 776, body2, 768);
    assert_memory_equal(buf + 1544, nonce, 32);
    assert_memory_equal(buf + 1576, tag, 32);
    assert_int_equal(pqpan_pqke_resp_parse(&rp, buf, len), PQPAN_OK);
    assert_ptr_equal(rp.ct_static, buf + 776);
    assert_ptr_equal(rp.tag, buf + 1576);
    assert_null(rp.commit);

    /* numeric FIN: 6 + 32 + 32 = 70 */
    memset(&fm, 0, sizeof fm);
    fm.suite = PQPAN_PQKE_SUITE_MLKEM1024;
    fm.mode = PQPAN_PQKE_MODE_NUMERIC;
    fm.numeric_nonce = n_i;
    fm.tag = tag;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_OK);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x03, 0x03, 0x07, 0x46, 0x00}), 6);
    assert_memory_equal(buf + 6, n_i, 32);
    assert_memory_equal(buf + 38, tag, 32);
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_OK);
    assert_ptr_equal(fp.numeric_nonce, buf + 6);
    /* a field the mode does not have, or lacks one it has: refused */
    fm.mode = PQPAN_PQKE_MODE_PSK;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_ERR_BAD_LENGTH);
    fm.mode = PQPAN_PQKE_MODE_NUMERIC;
    fm.numeric_nonce = NULL;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_ERR_BAD_LENGTH);

    /* numeric REVEAL: 6 + 32 = 38 = 0x26, type 4; no such message in another mode */
    vm.suite = PQPAN_PQKE_SUITE_MLKEM768;
    vm.mode = PQPAN_PQKE_MODE_NUMERIC;
    vm.numeric_nonce = n_i;
    assert_int_equal(pqpan_pqke_reveal_write(buf, sizeof buf, &len, &vm), PQPAN_OK);
    assert_int_equal(len, 38);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x04, 0x02, 0x07, 0x26, 0x00}), 6);
    assert_memory_equal(buf + 6, n_i, 32);
    assert_int_equal(pqpan_pqke_reveal_parse(&vp, buf, len), PQPAN_OK);
    assert_ptr_equal(vp.numeric_nonce, buf + 6);
    assert_int_equal(pqpan_pqke_reveal_parse(&vp, buf, len - 1), PQPAN_ERR_BAD_LENGTH);
    assert_null(vp.numeric_nonce);
    buf[3] = PQPAN_PQKE_MODE_PSK;
    assert_int_equal(pqpan_pqke_reveal_parse(&vp, buf, len), PQPAN_ERR_MALFORMED);
    vm.mode = PQPAN_PQKE_MODE_NONE;
    assert_int_equal(pqpan_pqke_reveal_write(buf, sizeof buf, &len, &vm), PQPAN_ERR_MALFORMED);
    assert_int_equal(len, 0);
    /* an offer without the message's own mode: refused */
    im.offer_modes = 0x02;
    assert_int_equal(pqpan_pqke_init_write(buf, sizeof buf, &len, &im), PQPAN_ERR_MALFORMED);
}

static void test_codec_errors_in_documented_order(void **state)
{
    uint8_t tag[32] = {0};
    uint8_t buf[64];
    struct pqpan_pqke_fin_msg fm, fp;
    struct pqpan_pqke_init_msg ip;
    size_t len;
    (void)state;
    memset(&fm, 0, sizeof fm);
    fm.suite = PQPAN_PQKE_SUITE_MLKEM512;
    fm.mode = PQPAN_PQKE_MODE_NONE;
    fm.tag = tag;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_OK);
    assert_int_equal(len, 38);
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, 5), PQPAN_ERR_BAD_LENGTH);
    assert_null(fp.tag);
    buf[0] = 1; /* version 1 messages are refused */
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_VERSION);
    buf[0] = 2;
    assert_int_equal(pqpan_pqke_init_parse(&ip, buf, len), PQPAN_ERR_MALFORMED);
    buf[1] = 0x42;
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_MALFORMED);
    buf[1] = 3;
    buf[2] = 0;
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_SUITE);
    buf[2] = PQPAN_PQKE_SUITE_P256_MLKEM512; /* the hybrid FIN has the same layout */
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_OK);
    buf[2] = 1;
    buf[3] = 9;
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_MODE);
    buf[3] = PQPAN_PQKE_MODE_SIG_MUTUAL; /* byte 6 (tag[0] = 0) is not an ML-DSA set */
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_MALFORMED);
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, 6), PQPAN_ERR_BAD_LENGTH); /* no set byte */
    buf[6] = PQPAN_SIG_MLDSA44; /* a set, but sig-mutual's FIN is 39 + 2420 bytes */
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_BAD_LENGTH);
    buf[6] = 0;
    buf[3] = 1;
    buf[4] = 39;
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_BAD_LENGTH);
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, 39), PQPAN_ERR_BAD_LENGTH);
    buf[4] = 38;
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_OK);
    buf[3] = PQPAN_PQKE_MODE_NUMERIC; /* numeric FIN is 70 bytes */
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_ERR_BAD_LENGTH);

    memset(buf, 0xCC, sizeof buf);
    len = 5;
    assert_int_equal(pqpan_pqke_fin_write(buf, 37, &len, &fm), PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_int_equal(len, 0);
    assert_true(all_zero(buf, 37));
    assert_int_equal(buf[37], 0xCC);
    fm.suite = 7;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_ERR_SUITE);
}

/* The hybrid and sig fields by hand (docs/PROTOCOL.md §2): P-256+ML-KEM-512, sig-mutual,
 * ML-DSA-44 (FIPS 204 Table 2: signature 2420 bytes). */
static void test_codecs_of_hybrid_suites_and_sig_modes(void **state)
{
    static uint8_t nonce[32], tag[32], ecdh[64], body[800], sig[2420], buf[PQPAN_PQKE_MSG_MAX_BYTES];
    struct pqpan_pqke_init_msg im, ip;
    struct pqpan_pqke_resp_msg rm, rp;
    struct pqpan_pqke_fin_msg fm, fp;
    size_t len, i;
    (void)state;
    for (i = 0; i < sizeof sig; i++) {
        sig[i] = (uint8_t)(i * 5 + 2);
        body[i % sizeof body] = (uint8_t)(i * 3 + 9);
        ecdh[i % sizeof ecdh] = (uint8_t)(i + 0x40);
    }
    memset(nonce, 0x4E, sizeof nonce);
    memset(tag, 0x7A, sizeof tag);
    /* INIT: 6 + 1 + 2 + 32 + 800 + 64 = 905 = 0x0389; set byte 6, offer 7..8, nonce 9, ek 41,
     * ecdh 841 */
    memset(&im, 0, sizeof im);
    im.suite = PQPAN_PQKE_SUITE_P256_MLKEM512;
    im.mode = PQPAN_PQKE_MODE_SIG_MUTUAL;
    im.sig = PQPAN_SIG_MLDSA44;
    im.offer_suites = 0x10;
    im.offer_modes = 0x40;
    im.nonce = nonce;
    im.ek = body;
    im.ek_len = 800;
    im.ecdh = ecdh;
    assert_int_equal(pqpan_pqke_init_write(buf, sizeof buf, &len, &im), PQPAN_OK);
    assert_int_equal(len, 905);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x01, 0x04, 0x06, 0x89, 0x03, 0x01, 0x10, 0x40}), 9);
    assert_memory_equal(buf + 9, nonce, 32);
    assert_memory_equal(buf + 41, body, 800);
    assert_memory_equal(buf + 841, ecdh, 64);
    assert_int_equal(pqpan_pqke_init_parse(&ip, buf, len), PQPAN_OK);
    assert_int_equal(ip.sig, PQPAN_SIG_MLDSA44);
    assert_ptr_equal(ip.ecdh, buf + 841);
    assert_null(ip.ct_static);
    buf[6] = 4; /* not an ML-DSA set */
    assert_int_equal(pqpan_pqke_init_parse(&ip, buf, len), PQPAN_ERR_MALFORMED);
    im.ecdh = NULL;
    assert_int_equal(pqpan_pqke_init_write(buf, sizeof buf, &len, &im), PQPAN_ERR_BAD_LENGTH);
    im.ecdh = ecdh;
    im.sig = 0;
    assert_int_equal(pqpan_pqke_init_write(buf, sizeof buf, &len, &im), PQPAN_ERR_MALFORMED);
    /* RESP: 6 + 1 + 2 + 768 + 64 + 32 + 2420 + 32 = 3325 = 0x0CFD; ct 9, ecdh 777, nonce 841,
     * sig_r 873, tag 3293 */
    memset(&rm, 0, sizeof rm);
    rm.suite = PQPAN_PQKE_SUITE_P256_MLKEM512;
    rm.mode = PQPAN_PQKE_MODE_SIG_MUTUAL;
    rm.sig = PQPAN_SIG_MLDSA44;
    rm.accepted_suites = 0x12;
    rm.accepted_modes = 0x42;
    rm.ct = body;
    rm.ct_len = 768;
    rm.ecdh = ecdh;
    rm.nonce = nonce;
    rm.signature = sig;
    rm.signature_len = sizeof sig;
    rm.tag = tag;
    assert_int_equal(pqpan_pqke_resp_write(buf, sizeof buf, &len, &rm), PQPAN_OK);
    assert_int_equal(len, 3325);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x02, 0x04, 0x06, 0xFD, 0x0C, 0x01, 0x12, 0x42}), 9);
    assert_memory_equal(buf + 9, body, 768);
    assert_memory_equal(buf + 777, ecdh, 64);
    assert_memory_equal(buf + 841, nonce, 32);
    assert_memory_equal(buf + 873, sig, sizeof sig);
    assert_memory_equal(buf + 3293, tag, 32);
    assert_int_equal(pqpan_pqke_resp_parse(&rp, buf, len), PQPAN_OK);
    assert_ptr_equal(rp.signature, buf + 873);
    assert_int_equal(rp.signature_len, 2420);
    assert_ptr_equal(rp.ecdh, buf + 777);
    rm.signature_len = 3309;
    assert_int_equal(pqpan_pqke_resp_write(buf, sizeof buf, &len, &rm), PQPAN_ERR_BAD_LENGTH);
    rm.signature_len = sizeof sig;
    rm.mode = PQPAN_PQKE_MODE_KEM_AUTH; /* a signature where the mode has none */
    rm.accepted_modes = 0x08;
    assert_int_equal(pqpan_pqke_resp_write(buf, sizeof buf, &len, &rm), PQPAN_ERR_BAD_LENGTH);
    /* FIN: 6 + 1 + 2420 + 32 = 2459 = 0x099B; sig_i 7, tag 2427 */
    memset(&fm, 0, sizeof fm);
    fm.suite = PQPAN_PQKE_SUITE_P256_MLKEM512;
    fm.mode = PQPAN_PQKE_MODE_SIG_MUTUAL;
    fm.sig = PQPAN_SIG_MLDSA44;
    fm.signature = sig;
    fm.signature_len = sizeof sig;
    fm.tag = tag;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_OK);
    assert_int_equal(len, 2459);
    assert_memory_equal(buf, ((const uint8_t[]){0x02, 0x03, 0x04, 0x06, 0x9B, 0x09, 0x01}), 7);
    assert_memory_equal(buf + 7, sig, sizeof sig);
    assert_memory_equal(buf + 2427, tag, 32);
    assert_int_equal(pqpan_pqke_fin_parse(&fp, buf, len), PQPAN_OK);
    assert_ptr_equal(fp.signature, buf + 7);
    /* sig's FIN: the set byte and the tag only, 39 bytes */
    fm.mode = PQPAN_PQKE_MODE_SIG;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_ERR_BAD_LENGTH);
    fm.signature = NULL;
    fm.signature_len = 0;
    assert_int_equal(pqpan_pqke_fin_write(buf, sizeof buf, &len, &fm), PQPAN_OK);
    assert_int_equal(len, 39);
    assert_int_equal(buf[6], PQPAN_SIG_MLDSA44);
}

/* Set bytes: bit 0 (no value 0), bit 7 of the suites (no suite 7) and sets without the
 * message's own suite or mode are malformed; bits of other known values are allowed. */
static void test_set_bytes_are_checked(void **state)
{
    struct exchange x;
    struct pqpan_pqke_init_msg m;
    uint8_t msg[PQPAN_PQKE_INIT_MAX_BYTES];
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NONE, 3);
    memcpy(msg, x.init_msg, x.init_len);
    assert_int_equal(msg[6], PQPAN_PQKE_SUITE_BIT(1));
    assert_int_equal(msg[7], PQPAN_PQKE_MODE_BIT(1));
    msg[6] |= 0x01;
    assert_int_equal(pqpan_pqke_init_parse(&m, msg, x.init_len), PQPAN_ERR_MALFORMED);
    msg[6] = 0x80 | 0x02;
    assert_int_equal(pqpan_pqke_init_parse(&m, msg, x.init_len), PQPAN_ERR_MALFORMED);
    msg[6] = 0x04;
    assert_int_equal(pqpan_pqke_init_parse(&m, msg, x.init_len), PQPAN_ERR_MALFORMED);
    msg[6] = 0x02 | PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_P256_MLKEM512);
    msg[7] = 0x02 | PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG);
    assert_int_equal(pqpan_pqke_init_parse(&m, msg, x.init_len), PQPAN_OK);
    msg[7] = 0x01 | 0x02;
    assert_int_equal(pqpan_pqke_init_parse(&m, msg, x.init_len), PQPAN_ERR_MALFORMED);
}

/* ---- key schedule, recomputed from the documented formula ---- */

/* Z from the messages and the test's own copy of the keys: ss_e by decapsulating RESP's ct
 * with the initiator's ephemeral dk, ss_ecdh from the initiator's ephemeral P-256 key and
 * RESP's public key (ecdh.h with the SEC 1 prefix 04), ss_static_r by decapsulating INIT's
 * ct_static with the responder's static dk, ss_static_i from RESP's ct_static and the
 * initiator's static dk, then the PSK. */
static void rebuild_z(struct pqpan_pqke_z *z, const struct exchange *x,
                      const struct pqpan_pqke_initiator *before)
{
    struct pqpan_pqke_init_msg im;
    struct pqpan_pqke_resp_msg rm;
    uint8_t ss[32], sec1[65] = {0x04};
    assert_int_equal(pqpan_pqke_init_parse(&im, x->init_msg, x->init_len), PQPAN_OK);
    assert_int_equal(pqpan_pqke_resp_parse(&rm, x->resp_msg, x->resp_len), PQPAN_OK);
    z->len = 0;
    assert_int_equal(kem_of(x->suite)->decaps(ss, rm.ct, before->dk), PQPAN_OK);
    pqpan_pqke_z_append(z, ss, 32);
    if (rm.ecdh != NULL) {
        memcpy(sec1 + 1, rm.ecdh, 64);
        assert_int_equal(pqpan_ecdh_p256_shared(ss, before->ecdh_sk, sec1, sizeof sec1), PQPAN_OK);
        pqpan_pqke_z_append(z, ss, 32);
    }
    if (im.ct_static != NULL) {
        assert_int_equal(kem_of(x->suite)->decaps(ss, im.ct_static, x->keys.r_dk), PQPAN_OK);
        pqpan_pqke_z_append(z, ss, 32);
    }
    if (rm.ct_static != NULL) {
        assert_int_equal(kem_of(x->suite)->decaps(ss, rm.ct_static, x->keys.i_dk), PQPAN_OK);
        pqpan_pqke_z_append(z, ss, 32);
    }
    if (x->mode == PQPAN_PQKE_MODE_PSK) {
        pqpan_pqke_z_append(z, x->keys.psk, 32);
    }
}

/* The transcript up to RESP[0 .. upto): SHA3-256(LE16(len) || prologue || LE16(len) ||
 * id_I || LE16(len) || id_R || [H(pk_R, 64) || [H(pk_I, 64)]] || INIT || RESP[0 .. upto)),
 * the pinned keys' identities hashed here from the public keys (FIPS 204 Alg. 6 line 8: tr =
 * H(pk, 64) with H = SHAKE256). */
static void transcript_upto(uint8_t th[32], const struct exchange *x, size_t upto)
{
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)x->keys.sig);
    struct pqpan_sha3_256_ctx h;
    uint8_t len2[2] = {(uint8_t)(sizeof test_prologue - 1), 0}, tr[64];
    const uint8_t id_len[2] = {(uint8_t)(sizeof id_initiator - 1), 0};
    pqpan_sha3_256_init(&h);
    pqpan_sha3_256_absorb(&h, len2, 2);
    pqpan_sha3_256_absorb(&h, (const uint8_t *)test_prologue, sizeof test_prologue - 1);
    pqpan_sha3_256_absorb(&h, id_len, 2);
    pqpan_sha3_256_absorb(&h, (const uint8_t *)id_initiator, sizeof id_initiator - 1);
    pqpan_sha3_256_absorb(&h, id_len, 2);
    pqpan_sha3_256_absorb(&h, (const uint8_t *)id_responder, sizeof id_responder - 1);
    if (pqpan_pqke_mode_sig_responder(x->mode)) {
        pqpan_shake256(tr, sizeof tr, x->keys.r_pk, ds->pk_bytes);
        pqpan_sha3_256_absorb(&h, tr, sizeof tr);
    }
    if (pqpan_pqke_mode_sig_initiator(x->mode)) {
        pqpan_shake256(tr, sizeof tr, x->keys.i_pk, ds->pk_bytes);
        pqpan_sha3_256_absorb(&h, tr, sizeof tr);
    }
    pqpan_sha3_256_absorb(&h, x->init_msg, x->init_len);
    pqpan_sha3_256_absorb(&h, x->resp_msg, upto);
    pqpan_sha3_256_final(&h, th);
}

/* sig modes: sig_r = ML-DSA.Sign(sk_R, th_r, ctx "pqpan-pqke-v2 responder signature") over the
 * transcript up to sig_r, sig_i (sig-mutual) over th with "... initiator signature": both
 * verify under the pinned public keys (ML-DSA.Verify, FIPS 204 Alg. 3). */
static void assert_signatures_follow_formula(const struct exchange *x, const uint8_t th[32])
{
    static const char ctx_r[] = "pqpan-pqke-v2 responder signature";
    static const char ctx_i[] = "pqpan-pqke-v2 initiator signature";
    const struct pqpan_sig *ds = pqpan_sig_by_id((enum pqpan_sig_id)x->keys.sig);
    struct pqpan_pqke_resp_msg rm;
    struct pqpan_pqke_fin_msg fm;
    uint8_t th_r[32];
    assert_int_equal(pqpan_pqke_resp_parse(&rm, x->resp_msg, x->resp_len), PQPAN_OK);
    assert_int_equal(pqpan_pqke_fin_parse(&fm, x->fin_msg, x->fin_len), PQPAN_OK);
    if (rm.signature == NULL) {
        assert_null(fm.signature);
        return;
    }
    transcript_upto(th_r, x, (size_t)(rm.signature - x->resp_msg));
    assert_int_equal(ds->verify(x->keys.r_pk, th_r, 32, (const uint8_t *)ctx_r, sizeof ctx_r - 1,
                                rm.signature, rm.signature_len),
                     PQPAN_OK);
    assert_int_not_equal(ds->verify(x->keys.r_pk, th, 32, (const uint8_t *)ctx_r,
                                    sizeof ctx_r - 1, rm.signature, rm.signature_len),
                         PQPAN_OK);
    if (pqpan_pqke_mode_sig_initiator(x->mode)) {
        assert_int_equal(ds->verify(x->keys.i_pk, th, 32, (const uint8_t *)ctx_i, sizeof ctx_i - 1,
                                    fm.signature, fm.signature_len),
                         PQPAN_OK);
    } else {
        assert_null(fm.signature);
    }
}

/* th = SHA3-256(LE16(len) || prologue || [identities] || INIT || RESP minus tag); K_OUT =
 * KMAC256(Z, th, 8 (2 kb + 64), "pqpan-pqke-v2 keys") = key_i2r | key_r2i | confirm_r |
 * confirm_i; tags = KMAC256(confirm key, th, 256, label); the signatures as above. */
static void test_session_follows_documented_formula(void **state)
{
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SUITES; i++) {
        for (j = 0; j < N_MODES; j++) {
            struct exchange x;
            struct pqpan_pqke_initiator before;
            struct pqpan_pqke_z z;
            uint8_t th[32], th_fin[64], kout[128], tag[32];
            size_t kb = kem_of(all_suites[i])->security_category <= 1 ? 16 : 32;
            exchange_first_two(&x, all_suites[i], all_modes[j], 1000 + i);
            before = x.ini;
            exchange_full(&x, all_suites[i], all_modes[j], 1000 + i);
            rebuild_z(&z, &x, &before);
            transcript_upto(th, &x, x.resp_len - 32);
            assert_signatures_follow_formula(&x, th);
            assert_int_equal(x.s_ini.sig, x.sig);
            assert_int_equal(pqpan_kmac256(kout, 2 * kb + 64, z.bytes, z.len, th, 32,
                                           (const uint8_t *)"pqpan-pqke-v2 keys", 18),
                             PQPAN_OK);
            assert_int_equal(x.s_ini.key_bytes, kb);
            assert_memory_equal(x.s_ini.key_i2r, kout, kb);
            assert_memory_equal(x.s_ini.key_r2i, kout + kb, kb);
            assert_memory_equal(x.s_resp.key_i2r, kout, kb);
            assert_memory_equal(x.s_resp.key_r2i, kout + kb, kb);
            assert_memory_equal(x.s_ini.transcript_hash, th, 32);
            assert_int_equal(pqpan_kmac256(tag, 32, kout + 2 * kb, 32, th, 32,
                                           (const uint8_t *)"pqpan-pqke-v2 responder confirm", 31),
                             PQPAN_OK);
            assert_memory_equal(tag, x.resp_msg + x.resp_len - 32, 32);
            /* tag_i over th || [n_I, numeric: FIN's first field] */
            memcpy(th_fin, th, 32);
            memcpy(th_fin + 32, x.fin_msg + 6, 32);
            assert_int_equal(pqpan_kmac256(tag, 32, kout + 2 * kb + 32, 32, th_fin,
                                           all_modes[j] == PQPAN_PQKE_MODE_NUMERIC ? 64u : 32u,
                                           (const uint8_t *)"pqpan-pqke-v2 initiator confirm", 31),
                             PQPAN_OK);
            assert_memory_equal(tag, x.fin_msg + x.fin_len - 32, 32);
        }
    }
}

/* numeric: commit = KMAC256(n_R, "", 256, "pqpan-pqke-v2 numeric commit") in RESP before
 * the tag, n_I in FIN, n_R in REVEAL; value = LE64(KMAC256(n_I || n_R, th, 64, "pqpan-pqke-v2
 * numeric value")) mod 10^6 on both devices. */
static void test_numeric_commitment_and_value_follow_formula(void **state)
{
    struct exchange x;
    uint8_t commit[32], v8[8], key[64], th[32];
    uint64_t v = 0;
    uint32_t shown = 0;
    size_t k;
    (void)state;
    exchange_full(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_NUMERIC, 5);
    /* RESP: 6 + 2 + 1088 + 32 (nonce_r), then the commitment */
    assert_int_equal(x.resp_len, 1192);
    assert_int_equal(pqpan_kmac256(commit, 32, x.reveal_msg + 6, 32, NULL, 0,
                                   (const uint8_t *)"pqpan-pqke-v2 numeric commit", 28),
                     PQPAN_OK);
    assert_memory_equal(commit, x.resp_msg + 1128, 32);
    memcpy(key, x.fin_msg + 6, 32);
    memcpy(key + 32, x.reveal_msg + 6, 32);
    transcript_upto(th, &x, x.resp_len - 32);
    assert_int_equal(pqpan_kmac256(v8, 8, key, 64, th, 32,
                                   (const uint8_t *)"pqpan-pqke-v2 numeric value", 27),
                     PQPAN_OK);
    for (k = 0; k < 8; k++) {
        v |= (uint64_t)v8[k] << (8 * k);
    }
    /* both sessions were confirmed over the same th (exchange_full compared the values) */
    assert_memory_equal(x.s_ini.transcript_hash, th, 32);
    shown = (uint32_t)(v % 1000000u);
    assert_true(shown < PQPAN_PQKE_NUMERIC_MODULUS);
    assert_int_equal(x.value, shown);
}

/* Keccak-f[1600] permutations per side, counted by hand (prologue of 9 bytes): SHA3-256
 * (rate 136) of 2 + 9 + INIT + RESP - 32 bytes = n / 136 + 1 permutations; each KMAC256 call
 * 3 (the bytepad'ed "KMAC" and label prefix, the bytepad'ed key of at most 128 bytes, the
 * 32-byte X with right_encode(L) and the padding; outputs of at most 136 bytes need no
 * further permutation) x 3 calls; numeric 2 more calls. ML-KEM-768 none: 2363 / 136 + 1 =
 * 18, + 9 = 27; kem-auth: 3451 / 136 + 1 = 26, + 9 = 35; numeric: 2395 / 136 + 1 = 18, + 15
 * = 33; ML-KEM-1024 kem-auth-mutual: 2 + 9 + 3176 + 3208 - 32 = 6363: 47 + 9 = 56. */
static void test_side_work_counts(void **state)
{
    struct pqpan_pqke_work w;
    (void)state;
    assert_int_equal(pqpan_pqke_side_work(&w, 2, PQPAN_PQKE_MODE_NONE, 0, PQPAN_PQKE_ROLE_INITIATOR, 9),
                     PQPAN_OK);
    assert_int_equal(w.keccak_permutations, 27);
    assert_int_equal(w.kem_keygen, 1);
    assert_int_equal(w.kem_encaps, 0);
    assert_int_equal(w.kem_decaps, 1);
    assert_int_equal(pqpan_pqke_side_work(&w, 2, PQPAN_PQKE_MODE_KEM_AUTH, 0, PQPAN_PQKE_ROLE_INITIATOR, 9),
                     PQPAN_OK);
    assert_int_equal(w.keccak_permutations, 35);
    assert_int_equal(w.kem_encaps, 1);
    assert_int_equal(w.kem_decaps, 1);
    assert_int_equal(pqpan_pqke_side_work(&w, 2, PQPAN_PQKE_MODE_KEM_AUTH, 0, PQPAN_PQKE_ROLE_RESPONDER, 9),
                     PQPAN_OK);
    assert_int_equal(w.kem_keygen, 0);
    assert_int_equal(w.kem_encaps, 1);
    assert_int_equal(w.kem_decaps, 1);
    assert_int_equal(pqpan_pqke_side_work(&w, 2, PQPAN_PQKE_MODE_NUMERIC, 0, PQPAN_PQKE_ROLE_RESPONDER, 9),
                     PQPAN_OK);
    assert_int_equal(w.keccak_permutations, 33);
    assert_int_equal(pqpan_pqke_side_work(&w, 3, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 0,
                                          PQPAN_PQKE_ROLE_INITIATOR, 9),
                     PQPAN_OK);
    assert_int_equal(w.keccak_permutations, 56);
    assert_int_equal(w.kem_keygen, 1);
    assert_int_equal(w.kem_encaps, 1);
    assert_int_equal(w.kem_decaps, 2);
    assert_int_equal(pqpan_pqke_side_work(&w, 3, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 0,
                                          PQPAN_PQKE_ROLE_RESPONDER, 9),
                     PQPAN_OK);
    assert_int_equal(w.kem_encaps, 2);
    assert_int_equal(w.kem_decaps, 1);
    assert_int_equal(w.sig_sign + w.sig_verify + w.ecdh_keygen + w.ecdh_shared, 0);
    assert_int_equal(pqpan_pqke_side_work(&w, 2, PQPAN_PQKE_MODE_SIG, 0, PQPAN_PQKE_ROLE_RESPONDER, 0),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(w.keccak_permutations, 0);
    assert_int_equal(pqpan_pqke_side_work(&w, 9, 1, 0, PQPAN_PQKE_ROLE_RESPONDER, 0), PQPAN_ERR_SUITE);
    assert_int_equal(pqpan_pqke_side_work(&w, 2, 8, 0, PQPAN_PQKE_ROLE_RESPONDER, 0), PQPAN_ERR_MODE);
    assert_int_equal(pqpan_pqke_side_work(NULL, 2, 1, 0, PQPAN_PQKE_ROLE_RESPONDER, 0),
                     PQPAN_ERR_INVALID_ARG);
}

/* The sig modes and hybrid suites, by hand. Transcript: prologue block 2 + 9, the pinned
 * identities (64 bytes per authenticated side), INIT, RESP without tag_r; th_r is one more
 * final block; a side hashes each pinned peer key (SHAKE256 of 1952 bytes for ML-DSA-65:
 * 1952 / 136 + 1 = 15 permutations). ML-KEM-768 sig, ML-DSA-65: 2 + 9 + 64 + 1225 + 4470 - 32
 * = 5738: 42 + 1 = 43, + 1 (th_r) + 9 (KMAC) = 53 for the responder, + 15 = 68 for the
 * initiator; sig-mutual: 5802 -> 43 + 1 + 15 + 9 = 68 for both. P-256+ML-KEM-768 none: 2 + 9
 * + 1288 + 1224 - 32 = 2491 -> 19, + 9 = 28 (Z = 64 bytes, one key block). P-256+ML-KEM-1024
 * kem-auth-mutual: 2 + 9 + 3240 + 3272 - 32 = 6491 -> 48, + 9 = 57 (Z = 128 bytes: 2 + 3 + 128
 * = 133 <= 136, still one key block). */
/* One side's work in one configuration; ANY: a count this row does not check. */
#define ANY UINT_MAX
struct side_work_case {
    unsigned suite, mode, sig;
    enum pqpan_pqke_role role;
    unsigned keccak, kem_keygen, kem_encaps, kem_decaps, sig_sign, sig_verify, ecdh_keygen,
        ecdh_shared;
};

static void expect_count(unsigned got, unsigned want)
{
    if (want != ANY) {
        assert_int_equal(got, want);
    }
}

static void test_side_work_of_sig_modes_and_hybrid_suites(void **state)
{
    static const struct side_work_case cases[] = {
        {2, PQPAN_PQKE_MODE_SIG, 2, PQPAN_PQKE_ROLE_RESPONDER, 53, ANY, 1, 0, 1, 0, 0, 0},
        {2, PQPAN_PQKE_MODE_SIG, 2, PQPAN_PQKE_ROLE_INITIATOR, 68, 1, ANY, 1, 0, 1, ANY, ANY},
        {2, PQPAN_PQKE_MODE_SIG_MUTUAL, 2, PQPAN_PQKE_ROLE_RESPONDER, 68, ANY, ANY, ANY, 1, 1,
         ANY, ANY},
        {2, PQPAN_PQKE_MODE_SIG_MUTUAL, 2, PQPAN_PQKE_ROLE_INITIATOR, 68, ANY, ANY, ANY, 1, 1,
         ANY, ANY},
        {5, PQPAN_PQKE_MODE_NONE, 0, PQPAN_PQKE_ROLE_INITIATOR, 28, ANY, ANY, ANY, 0, 0, 1, 1},
        {5, PQPAN_PQKE_MODE_NONE, 0, PQPAN_PQKE_ROLE_RESPONDER, ANY, ANY, 1, ANY, ANY, ANY, 1, 1},
        {6, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 0, PQPAN_PQKE_ROLE_RESPONDER, 57, ANY, 2, 1, ANY,
         ANY, 1, ANY},
    };
    size_t k;
    (void)state;
    for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        const struct side_work_case *c = &cases[k];
        struct pqpan_pqke_work w;
        assert_int_equal(pqpan_pqke_side_work(&w, c->suite, c->mode, c->sig, c->role, 9), PQPAN_OK);
        expect_count(w.keccak_permutations, c->keccak);
        expect_count(w.kem_keygen, c->kem_keygen);
        expect_count(w.kem_encaps, c->kem_encaps);
        expect_count(w.kem_decaps, c->kem_decaps);
        expect_count(w.sig_sign, c->sig_sign);
        expect_count(w.sig_verify, c->sig_verify);
        expect_count(w.ecdh_keygen, c->ecdh_keygen);
        expect_count(w.ecdh_shared, c->ecdh_shared);
    }
}
#undef ANY


/* docs/PROTOCOL.md §3.4's table, empty prologue, per ML-KEM level with the ML-DSA set of its
 * category: sig initiator 51 / 68 / 89 (e.g. ML-KEM-512, ML-DSA-44: 2 + 64 + 841 + 3261 - 32 =
 * 4136 -> 31, + 1 + 9 + 1312 / 136 + 1 = 10: 51), sig responder 41 / 53 / 69, sig-mutual 51 /
 * 68 / 89 on both sides (2 + 128 + 841 + 3261 - 32 = 4200 -> 31); P-256 none 23 / 28 / 34. */
static void test_side_work_table_of_the_protocol_doc(void **state)
{
    static const unsigned sig_i[3] = {51, 68, 89}, sig_r[3] = {41, 53, 69}, hybrid[3] = {23, 28, 34};
    struct pqpan_pqke_work w;
    unsigned lv;
    (void)state;
    for (lv = 1; lv <= 3; lv++) {
        assert_int_equal(pqpan_pqke_side_work(&w, lv, PQPAN_PQKE_MODE_SIG, lv, PQPAN_PQKE_ROLE_INITIATOR, 0),
                         PQPAN_OK);
        assert_int_equal(w.keccak_permutations, sig_i[lv - 1]);
        assert_int_equal(pqpan_pqke_side_work(&w, lv, PQPAN_PQKE_MODE_SIG, lv, PQPAN_PQKE_ROLE_RESPONDER, 0),
                         PQPAN_OK);
        assert_int_equal(w.keccak_permutations, sig_r[lv - 1]);
        assert_int_equal(pqpan_pqke_side_work(&w, lv, PQPAN_PQKE_MODE_SIG_MUTUAL, lv,
                                              PQPAN_PQKE_ROLE_RESPONDER, 0),
                         PQPAN_OK);
        assert_int_equal(w.keccak_permutations, sig_i[lv - 1]);
        assert_int_equal(pqpan_pqke_side_work(&w, lv + 3, PQPAN_PQKE_MODE_NONE, 0,
                                              PQPAN_PQKE_ROLE_INITIATOR, 0),
                         PQPAN_OK);
        assert_int_equal(w.keccak_permutations, hybrid[lv - 1]);
    }
}

/* ---- full exchanges ---- */

static void test_every_suite_and_mode_gives_equal_keys(void **state)
{
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SUITES; i++) {
        for (j = 0; j < N_MODES; j++) {
            struct exchange x, y;
            struct pqpan_pqke_sizes s = pqpan_pqke_message_sizes(
                all_suites[i], all_modes[j], run_sig(all_suites[i], all_modes[j]));
            exchange_full(&x, all_suites[i], all_modes[j], 1 + i);
            assert_int_equal(x.init_len, s.init_bytes);
            assert_int_equal(x.resp_len, s.resp_bytes);
            assert_int_equal(x.fin_len, s.fin_bytes);
            assert_int_equal(x.s_ini.key_bytes, s.key_bytes);
            assert_int_equal(x.s_resp.key_bytes, s.key_bytes);
            assert_int_equal(x.s_ini.mode, all_modes[j]);
            assert_int_equal(x.s_ini.sig, x.sig);
            assert_memory_equal(&x.s_ini, &x.s_resp, sizeof x.s_ini);
            assert_false(all_zero(x.s_ini.key_i2r, s.key_bytes));
            assert_memory_not_equal(x.s_ini.key_i2r, x.s_ini.key_r2i, s.key_bytes);
            assert_true(all_zero(x.s_ini.key_i2r + s.key_bytes, 32 - s.key_bytes));
            exchange_full(&y, all_suites[i], all_modes[j], 100 + i);
            assert_memory_not_equal(x.s_ini.key_i2r, y.s_ini.key_i2r, s.key_bytes);
            /* Same seeds, same run: the parties are deterministic given their randomness. */
            exchange_full(&y, all_suites[i], all_modes[j], 1 + i);
            assert_memory_equal(x.init_msg, y.init_msg, x.init_len);
            assert_memory_equal(&x.s_ini, &y.s_ini, sizeof x.s_ini);
        }
    }
}

/* Regression pin (values produced by this implementation, not independent): with the
 * splitmix64 randomness above, ML-KEM's bytes are fixed by FIPS 203 and the rest by
 * docs/PROTOCOL.md, so any correct implementation reproduces them; a change means the wire
 * format, the key schedule or the order of random draws changed (ML-DSA and P-256 are
 * deterministic given their random bytes: hedged signing takes rnd from the same source).
 * Pinned: SHA3-256(INIT || RESP || FIN || [REVEAL] || key_i2r || key_r2i) of
 * exchange_full(suite, mode, seed 2026), ML-KEM-768 alone and with P-256. */
static void test_seeded_runs_are_pinned(void **state)
{
    static const unsigned suites[2] = {PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_SUITE_P256_MLKEM768};
    static const char *const want[2][N_MODES] = {
        {"9da310e320a78e4470403b2c664ed220489704d0957ec0d465967c9218fffed4",
         "c38aec01565001c11cc561057ed1437916efb48916497eacb395f56c51e1137d",
         "072a7835698d2d5e5b70c7cd1569f2bd0cba762053c281d1dd98eb66a8aab396",
         "663e5636f3eef7a1d8edd9280621622c04e6208df25b3b1e2968ab4a588dda58",
         "e370c49ddc42cfa525296d0c2451cec2e4b7f3ae1f26cfdae72a3b94f9c0fdbc",
         "338b61c188e2b551cd2f6656eba33b5ced8d965fc24653bbf50c52c6a4157bfc",
         "8471884bf3b7a4db4fe6b8faa38aa1c6025a70f7ffeb29fd2fb5f7d27c2dfa1c"},
        {"bf18e654633e9bcce8938d328fe19d424a45ae1e370e1e727ceeca2594fc9133",
         "c127fd1fed91aa4ddd808765b4f87e0303c9d05ea0788f17e190e407184fa308",
         "29e96a5f32ec85931bb7768b4c225088899b53c87956c975cf3aaa60b9471a18",
         "e0e7ddf9c4022270e6734bfb33ade284c572c8ef8e026395dc10ccf75133a801",
         "dabdfdda3311b822ff4863d31fd880c500f9984d2265c132893040b7142d1d40",
         "b2e4f3b67a31738e4be641da9d6a8be6d8c74a2e82197a28e22bc3c70f118f34",
         "612764d1c82cae5e0e64467425648e8ceb1fbaaa8f561f23946685b3fa738fd0"}};
    size_t i, j, k;
    int wrong = 0;
    (void)state;
    for (i = 0; i < 2; i++) {
        for (j = 0; j < N_MODES; j++) {
            struct exchange x;
            struct pqpan_sha3_256_ctx h;
            uint8_t digest[32];
            char hex[65];
            exchange_full(&x, suites[i], all_modes[j], 2026);
            pqpan_sha3_256_init(&h);
            pqpan_sha3_256_absorb(&h, x.init_msg, x.init_len);
            pqpan_sha3_256_absorb(&h, x.resp_msg, x.resp_len);
            pqpan_sha3_256_absorb(&h, x.fin_msg, x.fin_len);
            pqpan_sha3_256_absorb(&h, x.reveal_msg, x.reveal_len);
            pqpan_sha3_256_absorb(&h, x.s_ini.key_i2r, 32);
            pqpan_sha3_256_absorb(&h, x.s_ini.key_r2i, 32);
            pqpan_sha3_256_final(&h, digest);
            for (k = 0; k < 32; k++) {
                snprintf(hex + 2 * k, 3, "%02x", digest[k]);
            }
            if (strcmp(hex, want[i][j]) != 0) {
                print_message("suite %u mode %u digest %s\n", suites[i], all_modes[j], hex);
                wrong++;
            }
        }
    }
    assert_int_equal(wrong, 0);
}

/* A struct copy clones a party: two copies of one waiting initiator both finish. */
static void test_context_copy_clones_a_party(void **state)
{
    struct exchange x;
    struct pqpan_pqke_initiator a, b;
    struct pqpan_pqke_session sa, sb;
    uint8_t fa[80], fb[80];
    size_t la, lb;
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 7);
    a = x.ini;
    b = a;
    assert_int_equal(pqpan_pqke_initiator_handle(&a, x.resp_msg, x.resp_len, fa, sizeof fa, &la),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&b, x.resp_msg, x.resp_len, fb, sizeof fb, &lb),
                     PQPAN_OK);
    assert_int_equal(la, lb);
    assert_memory_equal(fa, fb, la);
    assert_true(all_zero(a.dk, sizeof a.dk)); /* dk and static secret wiped once done */
    assert_true(all_zero(a.ss_static, sizeof a.ss_static));
    assert_int_equal(pqpan_pqke_initiator_take_session(&a, &sa), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_take_session(&b, &sb), PQPAN_OK);
    assert_memory_equal(&sa, &sb, sizeof sa);
}

/* take_session hands the session over once and wipes it from the context. */
static void test_take_session_wipes_and_releases_once(void **state)
{
    struct exchange x;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_session s;
    uint8_t fin[80];
    size_t fin_len, none;
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_PSK, 8);
    ini = x.ini;
    resp = x.resp;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x.resp_msg, x.resp_len, fin,
                                                 sizeof fin, &fin_len),
                     PQPAN_OK);
    assert_false(all_zero(&ini.secrets, sizeof ini.secrets));
    assert_int_equal(pqpan_pqke_initiator_take_session(&ini, &s), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_state(&ini), PQPAN_PQKE_STATE_RELEASED);
    assert_int_equal(pqpan_pqke_initiator_error(&ini), PQPAN_OK);
    assert_true(all_zero(&ini.secrets, sizeof ini.secrets));
    assert_true(all_zero(&ini.transcript, sizeof ini.transcript));
    assert_int_equal(pqpan_pqke_initiator_take_session(&ini, &s), PQPAN_ERR_STATE);
    assert_true(all_zero(&s, sizeof s));
    assert_initiator_failed(&ini, PQPAN_ERR_STATE);
    /* Before DONE: refused, and the party fails. */
    assert_int_equal(pqpan_pqke_responder_take_session(&resp, &s), PQPAN_ERR_STATE);
    assert_responder_failed(&resp, PQPAN_ERR_STATE);
    /* The responder's FIN, then take. */
    resp = x.resp;
    assert_int_equal(pqpan_pqke_responder_handle(&resp, NULL, NULL, fin, fin_len, NULL, 0,
                                                 &none),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_take_session(&resp, NULL), PQPAN_ERR_INVALID_ARG);
    assert_responder_failed(&resp, PQPAN_ERR_INVALID_ARG);
}

/* ---- the man in the middle: a third party running both sides ---- */

struct mitm_result {
    int ini_rc, resp_rc;           /* the victims' results on the attacker's RESP / FIN */
    uint32_t ini_value, resp_value; /* numeric: what each victim displays */
    int attacker_has_both_keys;    /* the attacker's two sessions equal the victims' */
};

/* The attacker M sits between a victim initiator I and a victim responder R with their own
 * pinned keys / PSK (which M does not have). M answers I as a responder and opens its own
 * exchange with R as an initiator, using credentials of its own for whatever it must
 * supply; it relays nothing. */
static void run_mitm(struct mitm_result *res, unsigned suite, unsigned mode, uint64_t seed)
{
    static struct keyset victims, attacker;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(mode));
    struct pqpan_pqke_initiator vi, mi;
    struct pqpan_pqke_responder vr, mr;
    struct pqpan_pqke_credentials vic_i, vic_r, att_i, att_r;
    struct test_rng r1 = rng_seeded(seed), r2 = rng_seeded(seed + 1), r3 = rng_seeded(seed + 2),
                    r4 = rng_seeded(seed + 3);
    static uint8_t init1[PQPAN_PQKE_INIT_MAX_BYTES], resp1[PQPAN_PQKE_RESP_MAX_BYTES];
    static uint8_t init2[PQPAN_PQKE_INIT_MAX_BYTES], resp2[PQPAN_PQKE_RESP_MAX_BYTES];
    static uint8_t fin1[PQPAN_PQKE_FIN_MAX_BYTES], fin2[PQPAN_PQKE_FIN_MAX_BYTES];
    static uint8_t rev1[PQPAN_PQKE_REVEAL_MSG_BYTES], rev2[PQPAN_PQKE_REVEAL_MSG_BYTES];
    size_t l_init1, l_resp1, l_fin1 = 0, l_init2, l_resp2, l_fin2 = 0, l_rev1, l_rev2, none;
    struct pqpan_pqke_session s_vi, s_vr, s_mi, s_mr;
    memset(res, 0, sizeof *res);
    keyset_make(&victims, suite, 500 + suite);
    keyset_make(&attacker, suite, 900 + suite);
    vic_i = cred_initiator(&victims);
    vic_r = cred_responder(&victims);
    att_i = cred_initiator(&attacker); /* M's guesses: its own PSK and keys */
    att_r = cred_responder(&attacker);
    /* M pretends to R to be I: where kem-auth and sig need R's pinned key, M knows it (it is
     * public). */
    att_i.peer_ek = victims.r_ek;
    att_i.peer_pk = victims.r_pk;
    assert_int_equal(pqpan_pqke_initiator_init(&vi, &p, suite, mode), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&vr, &p, &vic_r), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_init(&mi, &p, suite, mode), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&mr, &p, &att_r), PQPAN_OK);
    /* I -> M: INIT1; M -> R: INIT2 (M's own); R -> M: RESP2; M -> I: RESP1 (M's own). */
    assert_int_equal(pqpan_pqke_initiator_start(&vi, &vic_i, test_rng_fill, &r1, init1,
                                                sizeof init1, &l_init1),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&mi, &att_i, test_rng_fill, &r2, init2,
                                                sizeof init2, &l_init2),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&vr, test_rng_fill, &r3, init2, l_init2,
                                                 resp2, sizeof resp2, &l_resp2),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&mr, test_rng_fill, &r4, init1, l_init1,
                                                 resp1, sizeof resp1, &l_resp1),
                     PQPAN_OK);
    /* M's initiator side on R's answer, and the victim initiator on M's answer. */
    if (pqpan_pqke_initiator_handle(&mi, resp2, l_resp2, fin2, sizeof fin2, &l_fin2) !=
        PQPAN_OK) {
        l_fin2 = 0;
    }
    res->ini_rc = pqpan_pqke_initiator_handle(&vi, resp1, l_resp1, fin1, sizeof fin1,
                                              &l_fin1);
    if (res->ini_rc == PQPAN_OK) {
        assert_int_equal(pqpan_pqke_responder_handle(&mr, NULL, NULL, fin1, l_fin1, rev1,
                                                     sizeof rev1, &l_rev1),
                         PQPAN_OK);
    }
    res->resp_rc = l_fin2 != 0 ? pqpan_pqke_responder_handle(&vr, NULL, NULL, fin2, l_fin2,
                                                             rev2, sizeof rev2, &l_rev2)
                               : PQPAN_ERR_AUTH;
    if (mode == PQPAN_PQKE_MODE_NUMERIC && res->ini_rc == PQPAN_OK && res->resp_rc == PQPAN_OK) {
        /* numeric: REVEAL from M's responder to I, and from R to M's initiator */
        assert_int_equal(pqpan_pqke_initiator_handle(&vi, rev1, l_rev1, NULL, 0, &none),
                         PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_handle(&mi, rev2, l_rev2, NULL, 0, &none),
                         PQPAN_OK);
        /* The two victims display their values; the user compares them. */
        assert_int_equal(pqpan_pqke_initiator_numeric_value(&vi, &res->ini_value), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_numeric_value(&vr, &res->resp_value), PQPAN_OK);
        if (res->ini_value != res->resp_value) {
            res->ini_rc = pqpan_pqke_initiator_user_confirm(&vi, 0);
            res->resp_rc = pqpan_pqke_responder_user_confirm(&vr, 0);
        }
    }
    if (res->ini_rc == PQPAN_OK && res->resp_rc == PQPAN_OK) {
        assert_int_equal(pqpan_pqke_initiator_take_session(&vi, &s_vi), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_take_session(&vr, &s_vr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_take_session(&mi, &s_mi), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_take_session(&mr, &s_mr), PQPAN_OK);
        res->attacker_has_both_keys = memcmp(s_vi.key_i2r, s_mr.key_i2r, 32) == 0 &&
                                      memcmp(s_vr.key_i2r, s_mi.key_i2r, 32) == 0 &&
                                      memcmp(s_vi.key_r2i, s_mr.key_r2i, 32) == 0;
        /* channel binding: the two transcript hashes differ, so a later check sees M */
        assert_memory_not_equal(s_vi.transcript_hash, s_vr.transcript_hash, 32);
    }
}

/* none: the attacker ends up holding both keys (and both victims are DONE), in every suite:
 * the hybrid suites add secrecy, not authentication. Every other mode: detected. psk: both
 * victims refuse (AUTH). kem-auth and sig: the victim initiator refuses (only the responder
 * is authenticated; R talking to M as an unauthenticated initiator is the mode's documented
 * limit). kem-auth-mutual and sig-mutual: both refuse (sig-mutual: M cannot even finish its
 * exchange with R, whose identity binding differs, so R never gets a FIN). numeric: the tags
 * verify, but the displayed values differ and the user refuses on both devices. */
static void test_man_in_the_middle_succeeds_only_in_none(void **state)
{
    size_t i;
    (void)state;
    for (i = 0; i < N_SUITES; i++) {
        struct mitm_result r;
        unsigned s = all_suites[i];
        run_mitm(&r, s, PQPAN_PQKE_MODE_NONE, 10 + i);
        assert_int_equal(r.ini_rc, PQPAN_OK);
        assert_int_equal(r.resp_rc, PQPAN_OK);
        assert_true(r.attacker_has_both_keys);
        run_mitm(&r, s, PQPAN_PQKE_MODE_SIG, 50 + i);
        assert_int_equal(r.ini_rc, PQPAN_ERR_AUTH);
        assert_int_equal(r.resp_rc, PQPAN_OK); /* R cannot tell M from I: one-sided */
        assert_false(r.attacker_has_both_keys);
        run_mitm(&r, s, PQPAN_PQKE_MODE_SIG_MUTUAL, 60 + i);
        assert_int_equal(r.ini_rc, PQPAN_ERR_AUTH);
        assert_int_equal(r.resp_rc, PQPAN_ERR_AUTH);
        assert_false(r.attacker_has_both_keys);
        run_mitm(&r, s, PQPAN_PQKE_MODE_PSK, 20 + i);
        assert_int_equal(r.ini_rc, PQPAN_ERR_AUTH);
        assert_int_equal(r.resp_rc, PQPAN_ERR_AUTH);
        run_mitm(&r, s, PQPAN_PQKE_MODE_KEM_AUTH, 30 + i);
        assert_int_equal(r.ini_rc, PQPAN_ERR_AUTH);
        run_mitm(&r, s, PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL, 40 + i);
        assert_int_equal(r.ini_rc, PQPAN_ERR_AUTH);
        assert_int_equal(r.resp_rc, PQPAN_ERR_AUTH);
        assert_false(r.attacker_has_both_keys);
    }
}

/* numeric, many attempts: the values the two victims display never coincided in 300
 * attacks (each attack succeeds with probability 1e-6, docs/PROTOCOL.md §5.5). */
static void test_man_in_the_middle_numeric_values_differ(void **state)
{
    uint64_t seed;
    (void)state;
    for (seed = 0; seed < 300; seed++) {
        struct mitm_result r;
        run_mitm(&r, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NUMERIC, 1000 + 7 * seed);
        assert_int_not_equal(r.ini_value, r.resp_value);
        assert_int_equal(r.ini_rc, PQPAN_ERR_AUTH);
        assert_int_equal(r.resp_rc, PQPAN_ERR_AUTH);
        assert_false(r.attacker_has_both_keys);
    }
}

/* The user refusing a matching value (or confirming outside WAIT_USER) fails the party. */
static void test_user_refusal_and_misuse_of_numeric_calls(void **state)
{
    struct exchange x;
    struct pqpan_pqke_initiator ini;
    uint8_t fin[80];
    size_t fin_len;
    uint32_t v = 5;
    (void)state;
    exchange_full(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_NUMERIC, 9);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_numeric_value(&ini, &v), PQPAN_ERR_STATE);
    assert_int_equal(v, 0);
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x.resp_msg, x.resp_len, fin,
                                                 sizeof fin, &fin_len),
                     PQPAN_OK);
    /* after FIN, before REVEAL: nothing to show yet */
    assert_int_equal(pqpan_pqke_initiator_numeric_value(&ini, &v), PQPAN_ERR_STATE);
    assert_int_equal(pqpan_pqke_initiator_user_confirm(&ini, 1), PQPAN_ERR_STATE);
    assert_initiator_failed(&ini, PQPAN_ERR_STATE);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x.resp_msg, x.resp_len, fin,
                                                 sizeof fin, &fin_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x.reveal_msg, x.reveal_len, NULL, 0,
                                                 &fin_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_numeric_value(&ini, &v), PQPAN_OK);
    assert_int_equal(v, x.value);
    assert_int_equal(pqpan_pqke_initiator_user_confirm(&ini, 0), PQPAN_ERR_AUTH);
    assert_initiator_failed(&ini, PQPAN_ERR_AUTH);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_user_confirm(&ini, 1), PQPAN_ERR_STATE);
    assert_initiator_failed(&ini, PQPAN_ERR_STATE);
    /* psk mode has no value to compare */
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_PSK, 9);
    assert_int_equal(pqpan_pqke_responder_numeric_value(&x.resp, &v), PQPAN_ERR_STATE);
}

/* ---- tampering: every single-bit flip of every message, every mode ---- */

/* The error a flipped header byte must give (bytes 0..5). */
static int header_flip_error(size_t pos, uint8_t flipped)
{
    switch (pos) {
    case 0:
        return PQPAN_ERR_VERSION;
    case 1:
        return (flipped >= 1 && flipped <= 4) ? PQPAN_ERR_STATE : PQPAN_ERR_MALFORMED;
    case 2:
        return PQPAN_ERR_SUITE; /* outside the single-suite policy, or not the run's suite */
    case 3:
        return PQPAN_ERR_MODE;
    default:
        return PQPAN_ERR_BAD_LENGTH;
    }
}

/* The layout of message type t of x's run. */
static struct pqpan_pqke_layout layout_of_run(const struct exchange *x, unsigned t)
{
    struct pqpan_pqke_layout l;
    assert_int_equal(pqpan_pqke_layout_of(&l, t, x->suite, x->mode, x->sig), PQPAN_OK);
    return l;
}

/* A flipped set byte: malformed if it breaks the set rules, else the message parses and the
 * transcript differs (the receiving side learns of it through a tag or signature: AUTH). */
static int set_flip_malformed(const uint8_t *msg, const struct pqpan_pqke_layout *l,
                              unsigned suite, unsigned mode)
{
    uint8_t suites = msg[l->sets], modes = msg[l->sets + 1];
    return (suites & 0x81u) != 0 || (modes & 0x01u) != 0 || (suites & (1u << suite)) == 0 ||
           (modes & (1u << mode)) == 0;
}

static int in_sets(const struct pqpan_pqke_layout *l, size_t pos)
{
    return l->sets != 0 && pos >= l->sets && pos < l->sets + 2;
}

static int in_field(size_t at, size_t len, size_t pos)
{
    return at != 0 && pos >= at && pos < at + len;
}

/* Where pos lies in a field of message t after the header, the set byte and the sets: 1 and
 * *off = pos - the field's start, *large = 1 for the ML-KEM keys and ciphertexts and the
 * ML-DSA signatures; else 0. */
static int body_field(const struct exchange *x, unsigned t, size_t pos, size_t *off, int *large)
{
    const struct pqpan_pqke_layout l = layout_of_run(x, t);
    const size_t starts[9] = {l.ek, l.ct, l.ct_static, l.sig, l.nonce, l.ecdh, l.commit, l.numeric_nonce,
                              l.tag};
    const size_t lens[9] = {l.ek_len, l.ct_len, l.ct_static_len, l.sig_len, PQPAN_PQKE_NONCE_BYTES,
                            PQPAN_PQKE_ECDH_PUBLIC_BYTES, PQPAN_PQKE_COMMIT_BYTES,
                            PQPAN_PQKE_NUMERIC_NONCE_BYTES, PQPAN_PQKE_TAG_BYTES};
    size_t f;
    for (f = 0; f < 9; f++) {
        if (in_field(starts[f], lens[f], pos)) {
            *off = pos - starts[f];
            *large = f < 4;
            return 1;
        }
    }
    return 0;
}

/* Flips per byte. The ML-KEM-only suites without signatures (version 2's first modes): all 8
 * flips of every byte but the large fields, whose bytes all take the same code path: there
 * the lowest and the highest bit of every byte. The hybrid suites and the sig modes, where a
 * refusal may run ML-DSA signing and verification and P-256 scalar multiplications (tens of
 * milliseconds per flip, messages up to 6 KB): all 8 flips of the header, the ML-DSA set
 * byte and the sets; in every other field the lowest and the highest bit of its first byte
 * and of every 97th byte after it (a sample, so the test stays within seconds). */
#define FLIP_SAMPLE_STRIDE 97
static unsigned flips_at(const struct exchange *x, unsigned t, size_t pos)
{
    size_t off;
    int large;
    if (!body_field(x, t, pos, &off, &large)) {
        return 8u;
    }
    if (pqpan_pqke_suite_hybrid(x->suite) || x->sig != 0) {
        return off % FLIP_SAMPLE_STRIDE == 0 ? 2u : 0u;
    }
    return large ? 2u : 8u;
}

static uint8_t flip_mask(const struct exchange *x, unsigned t, size_t pos, unsigned b)
{
    return (uint8_t)(flips_at(x, t, pos) == 8u ? 1u << b : (b == 0 ? 0x01u : 0x80u));
}

/* The error for a flipped ML-DSA set byte: not a set at all, or another set than the run's
 * (the responder's keys, the initiator's run). */
static int sig_set_flip_error(uint8_t flipped)
{
    return pqpan_sig_by_id((enum pqpan_sig_id)flipped) == NULL ? PQPAN_ERR_MALFORMED
                                                                : PQPAN_ERR_SUITE;
}

struct flip_tally {
    unsigned long flips;
    unsigned long wrong_keys;
};

/* The responder's verdict on a flipped INIT byte, if it is decided by the syntax (else
 * PQPAN_OK: the message parses). */
static int init_flip_syntax_error(const struct exchange *x, const uint8_t *msg, size_t pos)
{
    const struct pqpan_pqke_layout l = layout_of_run(x, PQPAN_PQKE_MSG_INIT);
    if (pos < PQPAN_PQKE_HEADER_BYTES) {
        return header_flip_error(pos, msg[pos]);
    }
    if (pos == l.sig_set && l.sig_set != 0) {
        return sig_set_flip_error(msg[pos]);
    }
    if (in_sets(&l, pos) && set_flip_malformed(msg, &l, x->suite, x->mode)) {
        return PQPAN_ERR_MALFORMED;
    }
    return PQPAN_OK;
}

/* Checks one flipped copy msg (len bytes, bit b of byte pos changed) of a message of x;
 * returns 1 if a side reached a session from it. */
typedef int (*flip_check_fn)(const struct exchange *x, const uint8_t *msg, size_t len, size_t pos,
                             unsigned b);

_Static_assert(PQPAN_PQKE_INIT_MAX_BYTES <= PQPAN_PQKE_MSG_MAX_BYTES &&
                   PQPAN_PQKE_FIN_MAX_BYTES <= PQPAN_PQKE_MSG_MAX_BYTES,
               "one buffer of PQPAN_PQKE_MSG_MAX_BYTES holds every message");

/* Every flip of flips_at on message orig (type t, len bytes) of x, each checked by check. */
static void flip_each(const struct exchange *x, unsigned t, const uint8_t *orig, size_t len,
                      flip_check_fn check, struct flip_tally *tally)
{
    static uint8_t msg[PQPAN_PQKE_MSG_MAX_BYTES];
    size_t pos;
    unsigned b;
    for (pos = 0; pos < len; pos++) {
        for (b = 0; b < flips_at(x, t, pos); b++) {
            memcpy(msg, orig, len);
            msg[pos] ^= flip_mask(x, t, pos, b);
            tally->wrong_keys += (unsigned long)check(x, msg, len, pos, b);
            tally->flips++;
        }
    }
}

/* INIT flips: refused by the responder (header, set byte, sets, ek modulus, P-256 point) or
 * answered, and then the real initiator refuses that answer (AUTH): neither side reaches a
 * session. */
static int check_init_flip(const struct exchange *x, const uint8_t *msg, size_t len, size_t pos,
                           unsigned b)
{
    static uint8_t out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t out_len = 0;
    int rc = responder_try_init(x, msg, len, pos * 8 + b, out, &out_len);
    int want = init_flip_syntax_error(x, msg, pos);
    if (want != PQPAN_OK) {
        assert_int_equal(rc, want);
        return 0;
    }
    if (rc != PQPAN_OK) {
        /* FIPS 203 §7.2 on the flipped ek, SP 800-56A §5.6.2.3.3 on the P-256 key */
        assert_int_equal(rc, PQPAN_ERR_BAD_KEY);
        return 0;
    }
    rc = initiator_try(x, out, out_len);
    assert_int_equal(rc, PQPAN_ERR_AUTH);
    return rc == PQPAN_OK;
}

/* The initiator's verdict on a flipped RESP byte: the syntax as for INIT (the set byte must be
 * the run's: SUITE); then a signature over a changed transcript (sig modes: AUTH, checked
 * first); a P-256 key off the curve (BAD_KEY); else the tag (AUTH). */
static int resp_flip_error(const struct exchange *x, const uint8_t *msg, size_t pos)
{
    const struct pqpan_pqke_layout l = layout_of_run(x, PQPAN_PQKE_MSG_RESP);
    if (pos < PQPAN_PQKE_HEADER_BYTES) {
        return header_flip_error(pos, msg[pos]);
    }
    if (pos == l.sig_set && l.sig_set != 0) {
        return PQPAN_ERR_SUITE;
    }
    if (in_sets(&l, pos) && set_flip_malformed(msg, &l, x->suite, x->mode)) {
        return PQPAN_ERR_MALFORMED;
    }
    if (x->sig == 0 && in_field(l.ecdh, PQPAN_PQKE_ECDH_PUBLIC_BYTES, pos)) {
        return PQPAN_ERR_BAD_KEY;
    }
    return PQPAN_ERR_AUTH;
}

static int check_resp_flip(const struct exchange *x, const uint8_t *msg, size_t len, size_t pos,
                           unsigned b)
{
    int rc = initiator_try(x, msg, len);
    (void)b;
    assert_int_equal(rc, resp_flip_error(x, msg, pos));
    return rc == PQPAN_OK;
}

/* FIN flips: the header, the set byte (SUITE), else the tag, the commitment or sig_i (AUTH). */
static int check_fin_flip(const struct exchange *x, const uint8_t *msg, size_t len, size_t pos,
                          unsigned b)
{
    const struct pqpan_pqke_layout l = layout_of_run(x, PQPAN_PQKE_MSG_FIN);
    int want = pos < PQPAN_PQKE_HEADER_BYTES        ? header_flip_error(pos, msg[pos])
               : pos == l.sig_set && l.sig_set != 0 ? PQPAN_ERR_SUITE
                                                    : PQPAN_ERR_AUTH;
    int rc = responder_try_fin(x, msg, len);
    (void)b;
    assert_int_equal(rc, want);
    return rc == PQPAN_OK;
}

/* numeric REVEAL flips: the header, else a nonce that does not open RESP's commitment (AUTH). */
static int check_reveal_flip(const struct exchange *x, const uint8_t *msg, size_t len, size_t pos,
                             unsigned b)
{
    int want = pos < PQPAN_PQKE_HEADER_BYTES ? header_flip_error(pos, msg[pos]) : PQPAN_ERR_AUTH;
    int rc = initiator_try_reveal(x, msg, len);
    (void)b;
    assert_int_equal(rc, want);
    return rc == PQPAN_OK;
}

/* Every suite and mode, the flips of flips_at: exhaustive over the bytes (sampled bits in the
 * large fields) for the ML-KEM-only suites without signatures, sampled for the hybrid suites
 * and the sig modes. */
static void test_flipped_messages_never_give_a_key(void **state)
{
    struct flip_tally t = {0, 0};
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SUITES; i++) {
        for (j = 0; j < N_MODES; j++) {
            struct exchange x;
            exchange_full(&x, all_suites[i], all_modes[j], 11 + j);
            flip_each(&x, PQPAN_PQKE_MSG_INIT, x.init_msg, x.init_len, check_init_flip, &t);
            flip_each(&x, PQPAN_PQKE_MSG_RESP, x.resp_msg, x.resp_len, check_resp_flip, &t);
            flip_each(&x, PQPAN_PQKE_MSG_FIN, x.fin_msg, x.fin_len, check_fin_flip, &t);
            flip_each(&x, PQPAN_PQKE_MSG_REVEAL, x.reveal_msg, x.reveal_len, check_reveal_flip,
                      &t);
        }
    }
    print_message("single-bit flips tried: %lu, sessions from a flipped message: %lu\n", t.flips,
                  t.wrong_keys);
    assert_int_equal(t.wrong_keys, 0);
    assert_int_equal(t.flips, 119140); /* the count docs/PROTOCOL.md §5.1 gives */
}

/* ---- truncated and oversized messages ---- */

/* Feeds msg (len bytes) to the side that expects the message; returns its verdict. */
typedef int (*feed_fn)(const struct exchange *x, const uint8_t *msg, size_t len);

static int feed_init(const struct exchange *x, const uint8_t *msg, size_t len)
{
    static uint8_t out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t out_len;
    return responder_try_init(x, msg, len, len, out, &out_len);
}

/* Every length 0 .. len + 1 but len of message orig (the tail zeros), each BAD_LENGTH from
 * feed; returns how many were tried. */
static unsigned long bad_lengths(const struct exchange *x, const uint8_t *orig, size_t len,
                                 feed_fn feed)
{
    static uint8_t big[PQPAN_PQKE_MSG_MAX_BYTES + 1];
    unsigned long tried = 0;
    size_t n;
    for (n = 0; n <= len + 1; n++) {
        if (n == len) {
            continue;
        }
        memset(big, 0, sizeof big);
        memcpy(big, orig, n < len ? n : len);
        assert_int_equal(feed(x, big, n), PQPAN_ERR_BAD_LENGTH);
        tried++;
    }
    return tried;
}

static void test_truncated_or_oversized_messages_are_bad_length(void **state)
{
    unsigned long tried = 0;
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SUITES; i++) {
        for (j = 0; j < N_MODES; j++) {
            struct exchange x;
            exchange_full(&x, all_suites[i], all_modes[j], 21);
            tried += bad_lengths(&x, x.init_msg, x.init_len, feed_init);
            tried += bad_lengths(&x, x.resp_msg, x.resp_len, initiator_try);
            tried += bad_lengths(&x, x.fin_msg, x.fin_len, responder_try_fin);
            if (x.reveal_len != 0) {
                tried += bad_lengths(&x, x.reveal_msg, x.reveal_len, initiator_try_reveal);
            }
        }
    }
    print_message("truncated / oversized messages tried: %lu\n", tried);
    assert_int_equal(tried, 190112); /* the count docs/PROTOCOL.md §5.1 gives */
}

/* ---- order: duplicated, reordered, replayed, reflected ---- */

static void test_duplicated_and_reordered_messages_are_state_errors(void **state)
{
    size_t j;
    (void)state;
    for (j = 0; j < N_MODES; j++) {
        struct exchange x;
        struct pqpan_pqke_responder resp;
        struct pqpan_pqke_policy p;
        struct pqpan_pqke_credentials cr;
        struct test_rng r = rng_seeded(5);
        static uint8_t out[PQPAN_PQKE_MSG_MAX_BYTES];
        size_t out_len;
        exchange_full(&x, PQPAN_PQKE_SUITE_MLKEM512, all_modes[j], 31);
        p = policy_of(PQPAN_PQKE_SUITE_BIT(x.suite), PQPAN_PQKE_MODE_BIT(x.mode));
        cr = cred_responder(&x.keys);
        /* a second INIT, or the responder's own RESP reflected back, to a waiting responder */
        resp = x.resp;
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                     x.init_len, out, sizeof out, &out_len),
                         PQPAN_ERR_STATE);
        assert_responder_failed(&resp, PQPAN_ERR_STATE);
        assert_int_equal(responder_try_fin(&x, x.resp_msg, x.resp_len), PQPAN_ERR_STATE);
        /* FIN or RESP first to a fresh responder */
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.fin_msg,
                                                     x.fin_len, out, sizeof out, &out_len),
                         PQPAN_ERR_STATE);
        assert_responder_failed(&resp, PQPAN_ERR_STATE);
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.resp_msg,
                                                     x.resp_len, out, sizeof out, &out_len),
                         PQPAN_ERR_STATE);
        /* the initiator's own INIT or FIN reflected back to it */
        assert_int_equal(initiator_try(&x, x.init_msg, x.init_len), PQPAN_ERR_STATE);
        assert_int_equal(initiator_try(&x, x.fin_msg, x.fin_len), PQPAN_ERR_STATE);
    }
}

/* Messages of one run fed into another run of the same suite and mode fail authentication;
 * the responder's tag reflected as the initiator's fails too (the labels differ). */
static void test_replayed_and_reflected_tags_fail_authentication(void **state)
{
    size_t j;
    (void)state;
    for (j = 0; j < N_MODES; j++) {
        struct exchange a, b;
        uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
        exchange_full(&a, PQPAN_PQKE_SUITE_MLKEM1024, all_modes[j], 41);
        exchange_full(&b, PQPAN_PQKE_SUITE_MLKEM1024, all_modes[j], 42);
        assert_int_equal(initiator_try(&b, a.resp_msg, a.resp_len), PQPAN_ERR_AUTH);
        assert_int_equal(responder_try_fin(&b, a.fin_msg, a.fin_len), PQPAN_ERR_AUTH);
        memcpy(fin, b.fin_msg, b.fin_len);
        memcpy(fin + b.fin_len - 32, b.resp_msg + b.resp_len - 32, 32);
        assert_int_equal(responder_try_fin(&b, fin, b.fin_len), PQPAN_ERR_AUTH);
        if (all_modes[j] == PQPAN_PQKE_MODE_SIG_MUTUAL) {
            /* the responder's signature reflected as the initiator's (same set and length) */
            size_t sig_len = b.fin_len - 39;
            memcpy(fin, b.fin_msg, b.fin_len);
            memcpy(fin + 7, b.resp_msg + b.resp_len - 32 - sig_len, sig_len);
            assert_int_equal(responder_try_fin(&b, fin, b.fin_len), PQPAN_ERR_AUTH);
            /* another run's valid sig_i (of another transcript) with this run's tag */
            memcpy(fin, b.fin_msg, b.fin_len);
            memcpy(fin + 7, a.fin_msg + 7, sig_len);
            assert_int_equal(responder_try_fin(&b, fin, b.fin_len), PQPAN_ERR_AUTH);
        }
    }
}

/* Identity misbinding (unknown key share): E, who holds its own ML-DSA key, relays I's INIT
 * to a responder R that pinned E's key as its peer's, hoping to make R believe it talks to
 * E while it talks to I (E would swap I's sig_i for its own signature of the same th). The
 * pinned identities are in the transcript: R's th binds E's key, I's binds its own, so R's
 * tag and signature fail at I and I never sends FIN. */
static void test_identity_misbinding_is_refused(void **state)
{
    static struct keyset victims, eve;
    struct exchange x;
    struct pqpan_pqke_credentials cr;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(6));
    struct test_rng r = rng_seeded(45);
    static uint8_t out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t out_len;
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_SIG_MUTUAL, 45);
    victims = x.keys;
    keyset_make(&eve, PQPAN_PQKE_SUITE_MLKEM768, 46);
    cr = cred_responder(&victims);
    cr.peer_pk = eve.i_pk;
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                 x.init_len, out, sizeof out, &out_len),
                     PQPAN_OK);
    assert_int_equal(initiator_try(&x, out, out_len), PQPAN_ERR_AUTH);
}

/* numeric: a REVEAL whose nonce does not open RESP's commitment is refused, also one that
 * is another run's valid REVEAL; a FIN whose n_I was changed fails its tag (tag_i covers
 * n_I). */
static void test_numeric_reveal_must_open_the_commitment(void **state)
{
    struct exchange x, other;
    uint8_t msg[PQPAN_PQKE_FIN_MAX_BYTES];
    (void)state;
    exchange_full(&x, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NUMERIC, 43);
    exchange_full(&other, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NUMERIC, 44);
    assert_int_equal(initiator_try_reveal(&x, x.reveal_msg, x.reveal_len), PQPAN_OK);
    memcpy(msg, x.reveal_msg, x.reveal_len);
    msg[6] ^= 0x20;
    assert_int_equal(initiator_try_reveal(&x, msg, x.reveal_len), PQPAN_ERR_AUTH);
    assert_int_equal(initiator_try_reveal(&x, other.reveal_msg, other.reveal_len),
                     PQPAN_ERR_AUTH);
    memcpy(msg, x.fin_msg, x.fin_len);
    msg[6] ^= 0x20;
    assert_int_equal(responder_try_fin(&x, msg, x.fin_len), PQPAN_ERR_AUTH);
}

/* ---- prologue, version, suite and mode policy ---- */

static void test_different_prologues_fail_authentication(void **state)
{
    struct exchange x;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(1));
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials cr;
    struct test_rng r = rng_seeded(3);
    uint8_t out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t out_len;
    (void)state;
    exchange_first_two(&x, 2, PQPAN_PQKE_MODE_NONE, 44);
    cr = cred_responder(&x.keys);
    p.prologue = (const uint8_t *)"another prologue";
    p.prologue_len = 16;
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                 x.init_len, out, sizeof out, &out_len),
                     PQPAN_OK);
    assert_int_equal(initiator_try(&x, out, out_len), PQPAN_ERR_AUTH);
}

static void test_wrong_version_is_refused_by_every_handler(void **state)
{
    static const uint8_t versions[] = {0x00, 0x01, 0x03, 0xFF};
    struct exchange x;
    size_t v;
    (void)state;
    exchange_full(&x, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NONE, 51);
    for (v = 0; v < sizeof versions; v++) {
        static uint8_t msg[PQPAN_PQKE_MSG_MAX_BYTES], out[PQPAN_PQKE_MSG_MAX_BYTES];
        size_t out_len;
        memcpy(msg, x.init_msg, x.init_len);
        msg[0] = versions[v];
        assert_int_equal(responder_try_init(&x, msg, x.init_len, v, out, &out_len),
                         PQPAN_ERR_VERSION);
        memcpy(msg, x.resp_msg, x.resp_len);
        msg[0] = versions[v];
        assert_int_equal(initiator_try(&x, msg, x.resp_len), PQPAN_ERR_VERSION);
        memcpy(msg, x.fin_msg, x.fin_len);
        msg[0] = versions[v];
        assert_int_equal(responder_try_fin(&x, msg, x.fin_len), PQPAN_ERR_VERSION);
    }
}

/* The responder's policy: a suite or mode outside it is refused before any work. */
static void test_responder_policy(void **state)
{
    size_t i, j;
    (void)state;
    for (i = 0; i < N_SUITES; i++) {
        struct exchange x;
        exchange_first_two(&x, all_suites[i], PQPAN_PQKE_MODE_PSK, 61);
        for (j = 0; j < N_SUITES; j++) {
            struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(all_suites[j]),
                                                   PQPAN_PQKE_MODES_ALL);
            struct pqpan_pqke_responder resp;
            struct pqpan_pqke_credentials cr = cred_responder(&x.keys);
            struct test_rng r = rng_seeded(j);
            static uint8_t out[PQPAN_PQKE_MSG_MAX_BYTES];
            size_t out_len;
            int want = i == j ? PQPAN_OK : PQPAN_ERR_SUITE;
            assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
            assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                         x.init_len, out, sizeof out, &out_len),
                             want);
            if (want != PQPAN_OK) {
                assert_responder_failed(&resp, want);
            }
            /* the same suite without psk among the modes: MODE */
            p.suites = PQPAN_PQKE_SUITES_ALL;
            p.modes = PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE) |
                      PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NUMERIC);
            assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
            assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                         x.init_len, out, sizeof out, &out_len),
                             PQPAN_ERR_MODE);
            assert_responder_failed(&resp, PQPAN_ERR_MODE);
        }
    }
}

/* A whole valid RESP / FIN of another suite or mode: refused as a mismatch of the run. */
static void test_messages_of_another_suite_or_mode_are_refused(void **state)
{
    struct exchange a, b, c;
    (void)state;
    exchange_full(&a, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NONE, 71);
    exchange_full(&b, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_NONE, 72);
    exchange_full(&c, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_PSK, 73);
    assert_int_equal(initiator_try(&b, a.resp_msg, a.resp_len), PQPAN_ERR_SUITE);
    assert_int_equal(responder_try_fin(&b, a.fin_msg, a.fin_len), PQPAN_ERR_SUITE);
    assert_int_equal(initiator_try(&b, c.resp_msg, c.resp_len), PQPAN_ERR_MODE);
    assert_int_equal(responder_try_fin(&c, b.fin_msg, b.fin_len), PQPAN_ERR_MODE);
}

/* sig modes: the ML-DSA set is the run's. An INIT announcing another set than the
 * responder's keys is refused (SUITE) before any work; so are a RESP and a FIN whose set byte
 * is not the run's. */
static void test_ml_dsa_set_must_be_the_runs(void **state)
{
    static struct exchange a;
    static uint8_t msg[PQPAN_PQKE_MSG_MAX_BYTES], out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t out_len;
    (void)state;
    exchange_full(&a, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_SIG_MUTUAL, 74);
    assert_int_equal(a.init_msg[6], PQPAN_SIG_MLDSA65);
    memcpy(msg, a.init_msg, a.init_len);
    msg[6] = PQPAN_SIG_MLDSA44;
    assert_int_equal(responder_try_init(&a, msg, a.init_len, 1, out, &out_len), PQPAN_ERR_SUITE);
    memcpy(msg, a.resp_msg, a.resp_len);
    msg[6] = PQPAN_SIG_MLDSA87;
    assert_int_equal(initiator_try(&a, msg, a.resp_len), PQPAN_ERR_SUITE);
    memcpy(msg, a.fin_msg, a.fin_len);
    msg[6] = PQPAN_SIG_MLDSA44;
    assert_int_equal(responder_try_fin(&a, msg, a.fin_len), PQPAN_ERR_SUITE);
}

/* ---- downgrade: never fall back silently ---- */

/* An initiator that accepts {768, 1024} x {kem-auth, none} retries with ML-KEM-768 or with
 * none after its first INIT was dropped: a responder that accepts the better choice refuses
 * (DOWNGRADE). With the responder that accepts only ML-KEM-768, the retry is the legitimate
 * best choice and succeeds. */
static void test_downgraded_retry_is_refused(void **state)
{
    static struct keyset k;
    struct pqpan_pqke_policy both =
        policy_of(PQPAN_PQKE_SUITE_BIT(2) | PQPAN_PQKE_SUITE_BIT(3),
                  PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH) | PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE));
    struct pqpan_pqke_policy only768 = both;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials ci, cr;
    struct test_rng r = rng_seeded(81);
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t init_len, out_len;
    (void)state;
    only768.suites = PQPAN_PQKE_SUITE_BIT(2);
    keyset_make(&k, 2, 81);
    ci = cred_initiator(&k);
    cr = cred_responder(&k);
    /* suite downgrade: 768 sent, 1024 accepted by both */
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &both, 2, PQPAN_PQKE_MODE_KEM_AUTH), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r, init, sizeof init,
                                                &init_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &both, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, init, init_len,
                                                 out, sizeof out, &out_len),
                     PQPAN_ERR_DOWNGRADE);
    assert_responder_failed(&resp, PQPAN_ERR_DOWNGRADE);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &only768, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, init, init_len,
                                                 out, sizeof out, &out_len),
                     PQPAN_OK);
    assert_int_equal(out[6], PQPAN_PQKE_SUITE_BIT(2)); /* the responder's accepted set */
    /* mode downgrade: none sent, kem-auth accepted by both */
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &both, 2, PQPAN_PQKE_MODE_NONE), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r, init, sizeof init,
                                                &init_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &only768, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, init, init_len,
                                                 out, sizeof out, &out_len),
                     PQPAN_ERR_DOWNGRADE);
}

/* Runs start with (suite, mode) under the initiator policy ip and INIT to a responder of
 * policy rp; returns the responder's result (*ini left waiting for RESP, out holding it). */
static int offer_to(struct pqpan_pqke_initiator *ini, const struct pqpan_pqke_policy *ip,
                    const struct pqpan_pqke_policy *rp, unsigned suite, unsigned mode,
                    const struct keyset *k, uint8_t *out, size_t *out_len)
{
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES];
    struct pqpan_pqke_credentials ci = cred_initiator(k), cr = cred_responder(k);
    struct pqpan_pqke_responder resp;
    struct test_rng r = rng_seeded(84 + suite * 8 + mode);
    size_t init_len;
    assert_int_equal(pqpan_pqke_initiator_init(ini, ip, suite, mode), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(ini, &ci, test_rng_fill, &r, init, sizeof init,
                                                &init_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&resp, rp, &cr), PQPAN_OK);
    return pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, init, init_len, out,
                                       PQPAN_PQKE_RESP_MAX_BYTES, out_len);
}

/* Hybrid suites and signature modes in the policies: an initiator that accepts
 * {ML-KEM-768, P-256+ML-KEM-768} x {sig, sig-mutual} retries with ML-KEM-768 alone or with
 * the one-sided sig: a responder that accepts the better choice refuses (DOWNGRADE); the best
 * common choice, P-256+ML-KEM-768 sig-mutual, goes through. */
static void test_downgrade_from_hybrid_or_mutual_signature_is_refused(void **state)
{
    static struct keyset k;
    static uint8_t out[PQPAN_PQKE_RESP_MAX_BYTES];
    const unsigned hybrid = PQPAN_PQKE_SUITE_P256_MLKEM768;
    struct pqpan_pqke_policy both = policy_of(
        PQPAN_PQKE_SUITE_BIT(2) | PQPAN_PQKE_SUITE_BIT(hybrid),
        PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG) | PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG_MUTUAL));
    struct pqpan_pqke_initiator ini;
    size_t out_len;
    (void)state;
    keyset_make(&k, 2, 84);
    assert_int_equal(offer_to(&ini, &both, &both, 2, PQPAN_PQKE_MODE_SIG_MUTUAL, &k, out, &out_len),
                     PQPAN_ERR_DOWNGRADE);
    assert_int_equal(offer_to(&ini, &both, &both, hybrid, PQPAN_PQKE_MODE_SIG, &k, out, &out_len),
                     PQPAN_ERR_DOWNGRADE);
    assert_int_equal(offer_to(&ini, &both, &both, hybrid, PQPAN_PQKE_MODE_SIG_MUTUAL, &k, out,
                              &out_len),
                     PQPAN_OK);
}

/* An attacker who strips the hybrid suite from a sig-mode INIT's offer changes the transcript
 * the responder signs: the initiator refuses the signature (AUTH). */
static void test_stripped_hybrid_offer_fails_the_signature(void **state)
{
    static struct keyset k;
    static uint8_t out[PQPAN_PQKE_RESP_MAX_BYTES], init[PQPAN_PQKE_INIT_MAX_BYTES];
    struct pqpan_pqke_policy ip =
        policy_of(PQPAN_PQKE_SUITE_BIT(2) | PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_P256_MLKEM768),
                  PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG));
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials ci, cr;
    struct test_rng r = rng_seeded(85);
    uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
    size_t init_len, out_len, fin_len;
    (void)state;
    keyset_make(&k, 2, 85);
    ci = cred_initiator(&k);
    cr = cred_responder(&k);
    /* ML-KEM-768 is sent (the hybrid suite was refused earlier, or so the attacker claims) */
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &ip, 2, PQPAN_PQKE_MODE_SIG), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r, init, sizeof init,
                                                &init_len),
                     PQPAN_OK);
    init[7] = PQPAN_PQKE_SUITE_BIT(2); /* the attacker's edit of the offer (after the set byte) */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &ip, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, init, init_len,
                                                 out, sizeof out, &out_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, out, out_len, fin, sizeof fin, &fin_len),
                     PQPAN_ERR_AUTH);
}

/* An attacker who strips the better suite from INIT's offer (so that the responder accepts
 * the weaker one) changes the transcript: in an authenticated mode the initiator refuses. */
static void test_stripped_offer_fails_authentication(void **state)
{
    static struct keyset k;
    struct pqpan_pqke_policy ip = policy_of(PQPAN_PQKE_SUITE_BIT(2) | PQPAN_PQKE_SUITE_BIT(3),
                                            PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_PSK));
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials ci, cr;
    struct test_rng r = rng_seeded(82);
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], out[PQPAN_PQKE_RESP_MAX_BYTES], fin[80];
    size_t init_len, out_len, fin_len;
    (void)state;
    keyset_make(&k, 2, 82);
    ci = cred_initiator(&k);
    cr = cred_responder(&k);
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &ip, 2, PQPAN_PQKE_MODE_PSK), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r, init, sizeof init,
                                                &init_len),
                     PQPAN_OK);
    init[6] = PQPAN_PQKE_SUITE_BIT(2); /* the attacker's edit: "768 only" */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &ip, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, init, init_len,
                                                 out, sizeof out, &out_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, out, out_len, fin, sizeof fin, &fin_len),
                     PQPAN_ERR_AUTH);
}

/* The initiator's own check: a RESP (correctly tagged) whose accepted set shows a better
 * common suite is refused. The RESP is built here from the documented formula, as a
 * responder that skipped its downgrade check would build it. */
static void test_initiator_refuses_resp_showing_better_choice(void **state)
{
    struct pqpan_pqke_policy ip = policy_of(PQPAN_PQKE_SUITE_BIT(1) | PQPAN_PQKE_SUITE_BIT(2),
                                            PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE));
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_init_msg im;
    struct pqpan_pqke_resp_msg rm;
    struct pqpan_pqke_keys keys;
    struct pqpan_pqke_z z;
    struct pqpan_sha3_256_ctx h;
    struct test_rng r = rng_seeded(83);
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], resp[PQPAN_PQKE_RESP_MAX_BYTES], fin[80];
    uint8_t ct[PQPAN_MLKEM512_CT_BYTES], nonce[32], tag[32] = {0}, ss[32], th[32];
    uint8_t len2[2] = {(uint8_t)(sizeof test_prologue - 1), 0};
    size_t init_len, resp_len, fin_len;
    (void)state;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &ip, 1, PQPAN_PQKE_MODE_NONE), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, NULL, test_rng_fill, &r, init, sizeof init,
                                                &init_len),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_init_parse(&im, init, init_len), PQPAN_OK);
    assert_int_equal(kem_of(1)->encaps(ct, ss, im.ek, test_rng_fill, &r), PQPAN_OK);
    memset(nonce, 0x11, sizeof nonce);
    memset(&rm, 0, sizeof rm);
    rm.suite = 1;
    rm.mode = PQPAN_PQKE_MODE_NONE;
    rm.accepted_suites = PQPAN_PQKE_SUITE_BIT(1) | PQPAN_PQKE_SUITE_BIT(2); /* 768 is common */
    rm.accepted_modes = PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE);
    rm.ct = ct;
    rm.ct_len = sizeof ct;
    rm.nonce = nonce;
    rm.tag = tag;
    assert_int_equal(pqpan_pqke_resp_write(resp, sizeof resp, &resp_len, &rm), PQPAN_OK);
    pqpan_sha3_256_init(&h);
    pqpan_sha3_256_absorb(&h, len2, 2);
    pqpan_sha3_256_absorb(&h, (const uint8_t *)test_prologue, sizeof test_prologue - 1);
    pqpan_sha3_256_absorb(&h, init, init_len);
    pqpan_sha3_256_absorb(&h, resp, resp_len - 32);
    pqpan_sha3_256_final(&h, th);
    z.len = 0;
    pqpan_pqke_z_append(&z, ss, 32);
    assert_int_equal(pqpan_pqke_derive_keys(&keys, &z, 16, th), PQPAN_OK);
    assert_int_equal(pqpan_pqke_confirm_tag(resp + resp_len - 32, keys.responder_confirm_key,
                                            PQPAN_PQKE_ROLE_RESPONDER, th, NULL),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, resp, resp_len, fin, sizeof fin,
                                                 &fin_len),
                     PQPAN_ERR_DOWNGRADE);
    assert_initiator_failed(&ini, PQPAN_ERR_DOWNGRADE);
}

static void test_negotiation_ranking(void **state)
{
    (void)state;
    assert_int_equal(pqpan_pqke_best_suite(0x0E), PQPAN_PQKE_SUITE_MLKEM1024);
    assert_int_equal(pqpan_pqke_best_suite(0x06), PQPAN_PQKE_SUITE_MLKEM768);
    assert_int_equal(pqpan_pqke_best_suite(PQPAN_PQKE_SUITE_BIT(3) | PQPAN_PQKE_SUITE_BIT(5)),
                     PQPAN_PQKE_SUITE_MLKEM1024);
    assert_int_equal(pqpan_pqke_best_suite(PQPAN_PQKE_SUITE_BIT(2) | PQPAN_PQKE_SUITE_BIT(5)),
                     PQPAN_PQKE_SUITE_P256_MLKEM768);
    assert_int_equal(pqpan_pqke_best_suite(0), 0);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODES_ALL), PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(2) | PQPAN_PQKE_MODE_BIT(3)),
                     PQPAN_PQKE_MODE_PSK);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(7) | PQPAN_PQKE_MODE_BIT(1)),
                     PQPAN_PQKE_MODE_NUMERIC);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(3) | PQPAN_PQKE_MODE_BIT(7)),
                     PQPAN_PQKE_MODE_KEM_AUTH);
    /* hybrid above ML-KEM alone at equal category; mutual signatures above the PSK, the KEM
     * modes above the signature modes at equal authentication */
    assert_int_equal(pqpan_pqke_best_suite(PQPAN_PQKE_SUITE_BIT(3) | PQPAN_PQKE_SUITE_BIT(6)),
                     PQPAN_PQKE_SUITE_P256_MLKEM1024);
    assert_int_equal(pqpan_pqke_best_suite(PQPAN_PQKE_SUITE_BIT(3) | PQPAN_PQKE_SUITE_BIT(5)),
                     PQPAN_PQKE_SUITE_MLKEM1024);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(2) | PQPAN_PQKE_MODE_BIT(6)),
                     PQPAN_PQKE_MODE_SIG_MUTUAL);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(4) | PQPAN_PQKE_MODE_BIT(6)),
                     PQPAN_PQKE_MODE_KEM_AUTH_MUTUAL);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(3) | PQPAN_PQKE_MODE_BIT(5)),
                     PQPAN_PQKE_MODE_KEM_AUTH);
    assert_int_equal(pqpan_pqke_best_mode(PQPAN_PQKE_MODE_BIT(5) | PQPAN_PQKE_MODE_BIT(7)),
                     PQPAN_PQKE_MODE_SIG);
}

/* ---- random garbage ---- */

/* Random bytes (half of them behind a valid-looking header of a random type, suite and mode
 * with a consistent length) to a fresh responder, a waiting initiator and a waiting
 * responder: never a key, always FAILED with a defined error. */
static void test_random_garbage_never_gives_a_key(void **state)
{
    static const int defined[] = {PQPAN_ERR_BAD_LENGTH, PQPAN_ERR_VERSION, PQPAN_ERR_MALFORMED,
                                  PQPAN_ERR_SUITE,      PQPAN_ERR_STATE,   PQPAN_ERR_AUTH,
                                  PQPAN_ERR_BAD_KEY,    PQPAN_ERR_MODE,    PQPAN_ERR_DOWNGRADE};
    struct exchange x;
    struct test_rng g = rng_seeded(0x5EED);
    int iter;
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_NONE, 81);
    for (iter = 0; iter < 3000; iter++) {
        static uint8_t msg[PQPAN_PQKE_MSG_MAX_BYTES + 8], out[PQPAN_PQKE_MSG_MAX_BYTES];
        size_t len = (size_t)(next64(&g) % 2600), out_len, k;
        int rc[3], p, ok;
        assert_int_equal(test_rng_fill(&g, msg, sizeof msg), 0);
        if ((iter & 1) && len >= PQPAN_PQKE_HEADER_BYTES) {
            unsigned type = 1 + (unsigned)(next64(&g) % 3), suite = 1 + (unsigned)(next64(&g) % 6);
            unsigned mode = all_modes[next64(&g) % N_MODES], sig = 1 + (unsigned)(next64(&g) % 3);
            struct pqpan_pqke_sizes s = pqpan_pqke_message_sizes(suite, mode, sig);
            len = type == 1 ? s.init_bytes : type == 2 ? s.resp_bytes : s.fin_bytes;
            msg[6] = (uint8_t)sig; /* the ML-DSA set byte of the sig modes */
            msg[0] = 2;
            msg[1] = (uint8_t)type;
            msg[2] = (uint8_t)suite;
            msg[3] = (uint8_t)mode;
            msg[4] = (uint8_t)(len & 0xFF);
            msg[5] = (uint8_t)(len >> 8);
        }
        rc[0] = responder_try_init(&x, msg, len, (uint64_t)iter, out, &out_len);
        rc[1] = initiator_try(&x, msg, len);
        rc[2] = responder_try_fin(&x, msg, len);
        /* A well-formed random INIT may be answered (the responder cannot authenticate it in
         * mode none); the initiator and the waiting responder must refuse everything. */
        assert_true(rc[0] == PQPAN_OK || rc[0] < 0);
        for (p = 1; p < 3; p++) {
            ok = 0;
            for (k = 0; k < sizeof defined / sizeof defined[0]; k++) {
                ok |= rc[p] == defined[k];
            }
            assert_true(ok);
        }
    }
}

/* ---- local errors and API misuse ---- */

static void test_rng_failure_fails_cleanly(void **state)
{
    struct pqpan_pqke_initiator ini;
    struct exchange x;
    struct pqpan_pqke_credentials ci;
    struct test_rng r = rng_seeded(1);
    static uint8_t out[PQPAN_PQKE_MSG_MAX_BYTES];
    size_t out_len = 5;
    int calls;
    struct pqpan_pqke_policy p =
        policy_of(PQPAN_PQKE_SUITE_BIT(1), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NUMERIC));
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_NUMERIC, 91);
    ci = cred_initiator(&x.keys);
    /* numeric start draws nonce, d, z, the secret: each failing in turn; then P-256+ML-KEM-512
     * sig-mutual: nonce, d, z, the P-256 key, the signature's rnd */
    for (calls = 0; calls < 4; calls++) {
        r.fail_after = calls;
        assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 1, PQPAN_PQKE_MODE_NUMERIC), PQPAN_OK);
        memset(out, 0xAB, sizeof out);
        assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r, out, sizeof out,
                                                    &out_len),
                         PQPAN_ERR_RNG);
        assert_initiator_failed(&ini, PQPAN_ERR_RNG);
        assert_int_equal(out_len, 0);
        assert_true(all_zero(out, sizeof out));
    }
    for (calls = 0; calls < 2; calls++) {
        struct pqpan_pqke_responder resp;
        struct pqpan_pqke_credentials cr = cred_responder(&x.keys);
        r.fail_after = calls;
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                     x.init_len, out, sizeof out, &out_len),
                         PQPAN_ERR_RNG);
        assert_responder_failed(&resp, PQPAN_ERR_RNG);
        assert_true(all_zero(out, sizeof out));
    }
    exchange_first_two(&x, PQPAN_PQKE_SUITE_P256_MLKEM512, PQPAN_PQKE_MODE_SIG_MUTUAL, 96);
    ci = cred_initiator(&x.keys);
    p = policy_of(PQPAN_PQKE_SUITE_BIT(4), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG_MUTUAL));
    for (calls = 0; calls < 5; calls++) {
        r.fail_after = calls;
        assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 4, PQPAN_PQKE_MODE_SIG_MUTUAL),
                         PQPAN_OK);
        memset(out, 0xAB, sizeof out);
        assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r, out, sizeof out,
                                                    &out_len),
                         PQPAN_ERR_RNG);
        assert_initiator_failed(&ini, PQPAN_ERR_RNG);
        assert_true(all_zero(out, sizeof out));
    }
    /* the responder: nonce, Encaps' m, the P-256 key, the signature's rnd */
    for (calls = 0; calls < 4; calls++) {
        struct pqpan_pqke_responder resp;
        struct pqpan_pqke_credentials cr = cred_responder(&x.keys);
        r.fail_after = calls;
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        memset(out, 0xAB, sizeof out);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                     x.init_len, out, sizeof out, &out_len),
                         PQPAN_ERR_RNG);
        assert_responder_failed(&resp, PQPAN_ERR_RNG);
        assert_true(all_zero(out, sizeof out));
    }
}

/* sig modes: the pinned public key, the own secret key and a known ML-DSA set, all checked
 * when the party takes its credentials (initiator: start; responder: INIT), before any work
 * (INVALID_ARG); the steps after use the credentials kept then. */
static void assert_sig_credentials_are_checked(void)
{
    static struct exchange x;
    static uint8_t out[PQPAN_PQKE_MSG_MAX_BYTES];
    struct pqpan_pqke_policy p =
        policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG_MUTUAL));
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials c;
    struct test_rng r = rng_seeded(97);
    size_t out_len;
    exchange_full(&x, 2, PQPAN_PQKE_MODE_SIG_MUTUAL, 97);
    c = cred_initiator(&x.keys);
    c.peer_pk = NULL;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_SIG_MUTUAL), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &c, test_rng_fill, &r, out, sizeof out,
                                                &out_len),
                     PQPAN_ERR_INVALID_ARG);
    c = cred_initiator(&x.keys);
    c.own_sk = NULL; /* sig-mutual: the initiator's own identity */
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_SIG_MUTUAL), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &c, test_rng_fill, &r, out, sizeof out,
                                                &out_len),
                     PQPAN_ERR_INVALID_ARG);
    c = cred_initiator(&x.keys);
    c.sig = 4;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_SIG_MUTUAL), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &c, test_rng_fill, &r, out, sizeof out,
                                                &out_len),
                     PQPAN_ERR_INVALID_ARG);
    c = cred_responder(&x.keys);
    c.own_sk = NULL;
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &c), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                 x.init_len, out, sizeof out, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    c = cred_responder(&x.keys);
    c.peer_pk = NULL; /* FIN's signature could not be checked: refused at INIT already */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &c), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                 x.init_len, out, sizeof out, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_responder_failed(&resp, PQPAN_ERR_INVALID_ARG);
}

static void test_policies_and_credentials_are_checked(void **state)
{
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(1));
    struct exchange x;
    struct pqpan_pqke_credentials c;
    struct test_rng r = rng_seeded(2);
    static uint8_t out[PQPAN_PQKE_MSG_MAX_BYTES];
    size_t out_len;
    (void)state;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 1, 1), PQPAN_ERR_INVALID_ARG); /* suite */
    assert_initiator_failed(&ini, PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, 2), PQPAN_ERR_INVALID_ARG); /* mode */
    assert_int_equal(pqpan_pqke_initiator_init(&ini, NULL, 2, 1), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_SIG),
                     PQPAN_ERR_INVALID_ARG);
    p.modes = 1u << 8; /* no mode 8 */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, NULL), PQPAN_ERR_INVALID_ARG);
    assert_responder_failed(&resp, PQPAN_ERR_INVALID_ARG);
    p.modes = 0;
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, NULL), PQPAN_ERR_INVALID_ARG);
    p.modes = 2;
    p.suites = PQPAN_PQKE_SUITE_BIT(7); /* no suite 7 */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, NULL), PQPAN_ERR_INVALID_ARG);
    p.suites = 4;
    p.prologue = NULL; /* a length without bytes */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, NULL), PQPAN_ERR_INVALID_ARG);
    p.prologue = out;
    p.prologue_len = PQPAN_PQKE_PROLOGUE_MAX_BYTES + 1;
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, NULL), PQPAN_ERR_INVALID_ARG);
    p.prologue = NULL;
    p.prologue_len = 0; /* no prologue at all is fine */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, NULL), PQPAN_OK);
    /* missing credentials: kem-auth without the pinned key, psk without the PSK */
    p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH));
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_KEM_AUTH), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, NULL, test_rng_fill, &r, out, sizeof out,
                                                &out_len),
                     PQPAN_ERR_INVALID_ARG);
    exchange_first_two(&x, 2, PQPAN_PQKE_MODE_PSK, 92);
    c = cred_responder(&x.keys);
    c.psk = NULL;
    p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_PSK));
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &c), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                 x.init_len, out, sizeof out, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    c = cred_initiator(&x.keys);
    c.psk = NULL;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_PSK), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &c, test_rng_fill, &r, out, sizeof out,
                                                &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_sig_credentials_are_checked();
}

static void test_small_buffers(void **state)
{
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct exchange x;
    struct pqpan_pqke_credentials cr;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(1));
    struct test_rng r = rng_seeded(2);
    static uint8_t out[PQPAN_PQKE_MSG_MAX_BYTES];
    size_t out_len;
    (void)state;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, 1), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, NULL, test_rng_fill, &r, out, 1223, &out_len),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_initiator_failed(&ini, PQPAN_ERR_BUFFER_TOO_SMALL);
    exchange_first_two(&x, 2, PQPAN_PQKE_MODE_NUMERIC, 93);
    cr = cred_responder(&x.keys);
    p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NUMERIC));
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, x.init_msg,
                                                 x.init_len, out, x.resp_len - 1, &out_len),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x.resp_msg, x.resp_len, out, 69, &out_len),
                     PQPAN_ERR_BUFFER_TOO_SMALL);
    assert_initiator_failed(&ini, PQPAN_ERR_BUFFER_TOO_SMALL);
}

/* In-place use: an output buffer that overlaps the input is refused (the responder would
 * overwrite the ek it is encapsulating to). */
static void test_overlapping_buffers_are_refused(void **state)
{
    struct exchange x;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_credentials cr;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(1));
    struct test_rng r = rng_seeded(4);
    static uint8_t buf[2 * PQPAN_PQKE_MSG_MAX_BYTES];
    size_t out_len;
    (void)state;
    exchange_first_two(&x, 2, PQPAN_PQKE_MODE_NONE, 94);
    cr = cred_responder(&x.keys);
    memcpy(buf, x.init_msg, x.init_len);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, buf, x.init_len,
                                                 buf, sizeof buf, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_responder_failed(&resp, PQPAN_ERR_INVALID_ARG);
    memcpy(buf, x.init_msg, x.init_len);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, buf, x.init_len,
                                                 buf + x.init_len - 1, 2000, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    memcpy(buf, x.resp_msg, x.resp_len);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, buf, x.resp_len, buf + 10, 100, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_initiator_failed(&ini, PQPAN_ERR_INVALID_ARG);
    /* adjacent, not overlapping: fine */
    memcpy(buf, x.resp_msg, x.resp_len);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, buf, x.resp_len, buf + x.resp_len, 100,
                                                 &out_len),
                     PQPAN_OK);
}

/* NULL contexts: every call refuses with INVALID_ARG; state reads FAILED; outputs zeroed. */
static void test_null_contexts(void **state)
{
    struct pqpan_pqke_session s;
    struct pqpan_pqke_policy p = policy_of(2, 2);
    uint8_t out[16];
    size_t out_len = 3;
    uint32_t v = 4;
    (void)state;
    memset(out, 0xAA, sizeof out);
    memset(&s, 0xAA, sizeof s);
    assert_int_equal(pqpan_pqke_initiator_init(NULL, &p, 1, 1), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_responder_init(NULL, &p, NULL), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_start(NULL, NULL, test_rng_fill, NULL, out, sizeof out,
                                                &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_true(all_zero(out, sizeof out));
    assert_int_equal(out_len, 0);
    assert_int_equal(pqpan_pqke_initiator_handle(NULL, out, 1, out + 8, 8, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_responder_handle(NULL, NULL, NULL, out, 1, out + 8, 8, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_take_session(NULL, &s), PQPAN_ERR_INVALID_ARG);
    assert_true(all_zero(&s, sizeof s));
    assert_int_equal(pqpan_pqke_responder_take_session(NULL, &s), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_numeric_value(NULL, &v), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(v, 0);
    assert_int_equal(pqpan_pqke_responder_numeric_value(NULL, &v), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_user_confirm(NULL, 1), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_responder_user_confirm(NULL, 1), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_initiator_state(NULL), PQPAN_PQKE_STATE_FAILED);
    assert_int_equal(pqpan_pqke_responder_state(NULL), PQPAN_PQKE_STATE_FAILED);
    assert_int_equal(pqpan_pqke_initiator_error(NULL), PQPAN_ERR_INVALID_ARG);
    assert_int_equal(pqpan_pqke_responder_error(NULL), PQPAN_ERR_INVALID_ARG);
    pqpan_pqke_initiator_abort(NULL);
    pqpan_pqke_responder_abort(NULL);
}

static void test_abort_wipes_and_keeps_the_first_error(void **state)
{
    struct exchange x;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM512, PQPAN_PQKE_MODE_KEM_AUTH, 95);
    ini = x.ini;
    resp = x.resp;
    pqpan_pqke_initiator_abort(&ini);
    pqpan_pqke_responder_abort(&resp);
    assert_initiator_failed(&ini, PQPAN_ERR_STATE);
    assert_responder_failed(&resp, PQPAN_ERR_STATE);
    /* a party failed by AUTH and then aborted still reports AUTH */
    ini = x.ini;
    assert_int_equal(initiator_try(&x, x.resp_msg, x.resp_len - 0), PQPAN_OK);
    x.resp_msg[20] ^= 1;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, x.resp_msg, x.resp_len, NULL, 0, NULL),
                     PQPAN_ERR_INVALID_ARG);
    pqpan_pqke_initiator_abort(&ini);
    assert_int_equal(pqpan_pqke_initiator_error(&ini), PQPAN_ERR_INVALID_ARG);
}


/* ---- the independent review's attacks (issue 25) ---- */

/* numeric: an attacker who may open any number of responder sessions and withhold any
 * message. He runs the victim initiator I's exchange until I's value is fixed and known to
 * him, then opens responder sessions one after the other. In each he advances his own
 * initiator as far as it goes without sending the victim responder anything more; if it
 * shows a value, that is his prediction of what the responder will show, and he could
 * withhold the rest from every session whose prediction differs from I's value. Only if it
 * shows none must he go on, and then he learns the responder's value from its REVEAL. A
 * guess is a responder's value the attacker learns; it is visible if that responder already
 * displays the value when he learns it. A successful MITM must need one visible value per
 * guess: guesses == visible. Each guess is also checked against the value the responder
 * shows, so the count cannot pass by an attacker who predicts wrongly. On the protocol before
 * issue 25 (the initiator committed in INIT, revealed in FIN, and the responder computed its
 * value only from FIN) this test saw 32 guesses and 0 visible values. */
static void test_numeric_attacker_gets_no_silent_guess(void **state)
{
    static struct keyset victims, attacker;
    const unsigned suite = PQPAN_PQKE_SUITE_MLKEM512, mode = PQPAN_PQKE_MODE_NUMERIC;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(mode));
    struct pqpan_pqke_credentials ci, cr, ai, ar;
    struct pqpan_pqke_initiator vi, mi;
    struct pqpan_pqke_responder vr, mr;
    static uint8_t m1[PQPAN_PQKE_MSG_MAX_BYTES], m2[PQPAN_PQKE_MSG_MAX_BYTES];
    static uint8_t m3[PQPAN_PQKE_MSG_MAX_BYTES], m4[PQPAN_PQKE_MSG_MAX_BYTES];
    size_t l1, l2, l3, l4, none;
    unsigned k, guesses = 0, visible = 0;
    uint32_t v_i = 0, learnt = 0, shown = 0;
    struct test_rng r1 = rng_seeded(1), r2 = rng_seeded(2);
    (void)state;
    keyset_make(&victims, suite, 611);
    keyset_make(&attacker, suite, 612);
    ci = cred_initiator(&victims);
    cr = cred_responder(&victims);
    ai = cred_initiator(&attacker); /* M claims the victims' identities, with his own keys */
    ar = cred_responder(&attacker);
    /* I -> M: INIT; M -> I: RESP; I -> M: FIN; M's responder shows I's value to M. */
    assert_int_equal(pqpan_pqke_initiator_init(&vi, &p, suite, mode), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&mr, &p, &ar), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&vi, &ci, test_rng_fill, &r1, m1, sizeof m1, &l1),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&mr, test_rng_fill, &r2, m1, l1, m2, sizeof m2,
                                                 &l2),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&vi, m2, l2, m3, sizeof m3, &l3), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&mr, NULL, NULL, m3, l3, m4, sizeof m4, &l4),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_numeric_value(&mr, &v_i), PQPAN_OK);
    for (k = 0; k < 32; k++) {
        struct test_rng r3 = rng_seeded(100 + k), r4 = rng_seeded(200 + k);
        int before;
        assert_int_equal(pqpan_pqke_initiator_init(&mi, &p, suite, mode), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_init(&vr, &p, &cr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_start(&mi, &ai, test_rng_fill, &r3, m1, sizeof m1,
                                                    &l1),
                         PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&vr, test_rng_fill, &r4, m1, l1, m2,
                                                     sizeof m2, &l2),
                         PQPAN_OK);
        /* The attacker's own initiator on the responder's RESP; its FIN is not sent yet. */
        assert_int_equal(pqpan_pqke_initiator_handle(&mi, m2, l2, m3, sizeof m3, &l3), PQPAN_OK);
        before = pqpan_pqke_initiator_numeric_value(&mi, &learnt) == PQPAN_OK;
        /* Nothing to predict with: FIN goes to the responder, which shows its value as it
         * sends REVEAL, and only then does the attacker learn it. */
        assert_int_equal(pqpan_pqke_responder_handle(&vr, NULL, NULL, m3, l3, m4, sizeof m4, &l4),
                         PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_numeric_value(&vr, &shown), PQPAN_OK);
        if (!before) {
            assert_int_equal(pqpan_pqke_initiator_handle(&mi, m4, l4, NULL, 0, &none), PQPAN_OK);
            assert_int_equal(pqpan_pqke_initiator_numeric_value(&mi, &learnt), PQPAN_OK);
        }
        guesses++;
        visible += !before;
        assert_int_equal(learnt, shown);
        assert_int_not_equal(shown, v_i); /* 32 guesses, each matching with probability 1e-6 */
    }
    assert_int_equal(guesses, 32);
    assert_int_equal(guesses, visible);
}

/* A device holding one PSK (or running numeric) in both roles, its INIT reflected to its own
 * responder and the answers back ("Selfie", Drucker and Gueron, 2019): its two roles bind
 * the identities in opposite places, so the reflected RESP fails its tag. Before issue 25 the
 * psk exchange completed (the initiator took the reflected RESP). A party that names itself
 * as its peer, or runs psk or numeric without identities, is refused. */
static void test_reflection_to_the_same_device_fails(void **state)
{
    static const unsigned modes[] = {PQPAN_PQKE_MODE_PSK, PQPAN_PQKE_MODE_NUMERIC};
    static struct keyset device;
    const unsigned suite = PQPAN_PQKE_SUITE_MLKEM768;
    size_t j;
    (void)state;
    keyset_make(&device, suite, 73);
    for (j = 0; j < 2; j++) {
        struct pqpan_pqke_policy p =
            policy_of(PQPAN_PQKE_SUITE_BIT(suite), PQPAN_PQKE_MODE_BIT(modes[j]));
        struct pqpan_pqke_credentials ci = cred_initiator(&device), cr = ci;
        struct pqpan_pqke_initiator ini;
        struct pqpan_pqke_responder resp;
        struct test_rng r1 = rng_seeded(71), r2 = rng_seeded(72);
        static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], rsp[PQPAN_PQKE_RESP_MAX_BYTES];
        static uint8_t fin[PQPAN_PQKE_FIN_MAX_BYTES];
        size_t l_init, l_rsp, l_fin = 0;
        /* The device D, believing it talks to P in both roles: own D, peer P. */
        cr.own_dk = device.i_dk;
        assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, suite, modes[j]), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init,
                                                    sizeof init, &l_init),
                         PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r2, init, l_init,
                                                     rsp, sizeof rsp, &l_rsp),
                         PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_handle(&ini, rsp, l_rsp, fin, sizeof fin, &l_fin),
                         PQPAN_ERR_AUTH);
        assert_initiator_failed(&ini, PQPAN_ERR_AUTH);
        /* Naming itself as its peer, or no identities: refused before any work. */
        ci.peer_id = ci.own_id;
        assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, suite, modes[j]), PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init,
                                                    sizeof init, &l_init),
                         PQPAN_ERR_INVALID_ARG);
        assert_int_equal(l_init, 0);
        cr.own_id_len = 0;
        cr.peer_id_len = 0;
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        ci = cred_initiator(&device);
        assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, suite, modes[j]), PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init,
                                                    sizeof init, &l_init),
                         PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r2, init, l_init,
                                                     rsp, sizeof rsp, &l_rsp),
                         PQPAN_ERR_INVALID_ARG);
        assert_responder_failed(&resp, PQPAN_ERR_INVALID_ARG);
    }
}

/* kem-auth: a responder that accepts ML-KEM-512 and -1024 and holds a 512 static key (in a
 * buffer of exactly its size), sent a kem-auth INIT for 1024, refuses it with a suite error
 * before it reads the key (the old code read past it: ASan heap-buffer-overflow in check_dk,
 * and BAD_KEY). Credentials without their KEM, and an initiator whose pinned key is of
 * another set than the suite it starts, are refused too. */
static void test_static_key_of_another_kem_is_refused(void **state)
{
    static struct keyset k1024, k512;
    const unsigned s512 = PQPAN_PQKE_SUITE_MLKEM512, s1024 = PQPAN_PQKE_SUITE_MLKEM1024;
    struct pqpan_pqke_policy pi = policy_of(PQPAN_PQKE_SUITE_BIT(s1024),
                                            PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH));
    struct pqpan_pqke_policy pr = policy_of(PQPAN_PQKE_SUITE_BIT(s512) | PQPAN_PQKE_SUITE_BIT(s1024),
                                            PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_KEM_AUTH));
    struct pqpan_pqke_credentials ci, cr;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct test_rng r1 = rng_seeded(81), r2 = rng_seeded(82);
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], out[PQPAN_PQKE_RESP_MAX_BYTES];
    size_t l_init, l_out = 5;
    uint8_t *dk512 = malloc(kem_of(s512)->dk_bytes);
    (void)state;
    assert_non_null(dk512);
    keyset_make(&k1024, s1024, 83);
    keyset_make(&k512, s512, 84);
    memcpy(dk512, k512.r_dk, kem_of(s512)->dk_bytes);
    ci = cred_initiator(&k1024); /* the initiator pinned some 1024 key of this responder's */
    cr = cred_responder(&k512);
    cr.own_dk = dk512;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &pi, s1024, PQPAN_PQKE_MODE_KEM_AUTH),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init, sizeof init,
                                                &l_init),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &pr, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r2, init, l_init, out,
                                                 sizeof out, &l_out),
                     PQPAN_ERR_SUITE);
    assert_responder_failed(&resp, PQPAN_ERR_SUITE);
    assert_int_equal(l_out, 0);
    cr.kem = 0; /* the KEM left out */
    assert_int_equal(pqpan_pqke_responder_init(&resp, &pr, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r2, init, l_init, out,
                                                 sizeof out, &l_out),
                     PQPAN_ERR_INVALID_ARG);
    ci.kem = PQPAN_KEM_MLKEM512; /* a 512 key pinned for a 1024 exchange */
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &pi, s1024, PQPAN_PQKE_MODE_KEM_AUTH),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init, sizeof init,
                                                &l_init),
                     PQPAN_ERR_SUITE);
    assert_initiator_failed(&ini, PQPAN_ERR_SUITE);
    free(dk512);
}

/* sig: the initiator verifies sig_r with the key whose identity it bound at start, which it
 * keeps: the credentials are taken once. Eve, who holds her own ML-DSA key, re-signs an
 * honest RESP's transcript (which names the pinned key) and re-tags it; before issue 25 an
 * application that handed handle() Eve's key (looked up again, say, from something the peer
 * sent) completed with her. Now handle() takes no credentials, and changing the caller's
 * struct after start changes nothing: the honest RESP still verifies, Eve's never. */
static void test_initiator_verifies_with_the_key_it_started_with(void **state)
{
    static struct keyset eve;
    struct exchange x;
    struct pqpan_pqke_credentials ci;
    static uint8_t resp[PQPAN_PQKE_RESP_MAX_BYTES], fin[PQPAN_PQKE_FIN_MAX_BYTES];
    struct pqpan_pqke_resp_msg rm;
    struct pqpan_pqke_initiator ini, started;
    struct pqpan_pqke_keys keys;
    struct pqpan_pqke_z z;
    const struct pqpan_sig *ds;
    static const char ctx_r[] = "pqpan-pqke-v2 responder signature";
    struct test_rng r = rng_seeded(91);
    uint8_t th[32], rnd[32] = {0};
    size_t sig_at, fin_len, init_len;
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES];
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(PQPAN_PQKE_SUITE_MLKEM768),
                                           PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_SIG));
    (void)state;
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_SIG, 91);
    keyset_make(&eve, PQPAN_PQKE_SUITE_MLKEM768, 92);
    ds = pqpan_sig_by_id((enum pqpan_sig_id)x.keys.sig);
    memcpy(resp, x.resp_msg, x.resp_len);
    assert_int_equal(pqpan_pqke_resp_parse(&rm, resp, x.resp_len), PQPAN_OK);
    sig_at = (size_t)(rm.signature - resp);
    transcript_upto(th, &x, sig_at);
    assert_int_equal(ds->sign_derand(resp + sig_at, eve.r_sk, th, 32, (const uint8_t *)ctx_r,
                                     sizeof ctx_r - 1, rnd),
                     PQPAN_OK);
    memcpy(x.resp_msg, resp, x.resp_len);
    transcript_upto(th, &x, x.resp_len - 32);
    rebuild_z(&z, &x, &x.ini);
    assert_int_equal(pqpan_pqke_derive_keys(&keys, &z, 32, th), PQPAN_OK);
    assert_int_equal(pqpan_pqke_confirm_tag(resp + x.resp_len - 32, keys.responder_confirm_key,
                                            PQPAN_PQKE_ROLE_RESPONDER, th, NULL),
                     PQPAN_OK);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, resp, x.resp_len, fin, sizeof fin,
                                                 &fin_len),
                     PQPAN_ERR_AUTH);
    assert_initiator_failed(&ini, PQPAN_ERR_AUTH);
    /* The caller's struct changed after start (Eve's key put in): the party kept its own. */
    exchange_first_two(&x, PQPAN_PQKE_SUITE_MLKEM768, PQPAN_PQKE_MODE_SIG, 93);
    ci = cred_initiator(&x.keys);
    assert_int_equal(pqpan_pqke_initiator_init(&started, &p, PQPAN_PQKE_SUITE_MLKEM768,
                                               PQPAN_PQKE_MODE_SIG),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&started, &ci, test_rng_fill, &r, init,
                                                sizeof init, &init_len),
                     PQPAN_OK);
    ci.peer_pk = eve.r_pk;
    assert_ptr_equal(started.cred.peer_pk, x.keys.r_pk);
    assert_int_equal(initiator_try(&x, x.resp_msg, x.resp_len), PQPAN_OK);
}

/* A call refused because its input and output overlap leaves the input as it was (as the
 * ML-KEM layer does): in place, the output is the caller's message. Before issue 25 the
 * refusal zeroed it. */
static void test_refused_in_place_call_leaves_input_intact(void **state)
{
    struct exchange x;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_credentials cr;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2), PQPAN_PQKE_MODE_BIT(1));
    struct test_rng r = rng_seeded(95);
    static uint8_t buf[PQPAN_PQKE_MSG_MAX_BYTES];
    size_t out_len = 3;
    (void)state;
    exchange_first_two(&x, 2, PQPAN_PQKE_MODE_NONE, 96);
    cr = cred_responder(&x.keys);
    memcpy(buf, x.resp_msg, x.resp_len);
    ini = x.ini;
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, buf, x.resp_len, buf, sizeof buf,
                                                 &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_initiator_failed(&ini, PQPAN_ERR_INVALID_ARG);
    assert_memory_equal(buf, x.resp_msg, x.resp_len);
    assert_int_equal(out_len, 0);
    memcpy(buf, x.init_msg, x.init_len);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r, buf, x.init_len,
                                                 buf + 1, sizeof buf - 1, &out_len),
                     PQPAN_ERR_INVALID_ARG);
    assert_responder_failed(&resp, PQPAN_ERR_INVALID_ARG);
    assert_memory_equal(buf, x.init_msg, x.init_len);
}

/* psk: a PSK shorter than 32 bytes (a PIN, a password) or longer than 64 is refused at the
 * API, by both parties; 32 and 64 bytes work, and a 64-byte PSK gives both sides the same
 * keys. */
static void test_psk_length_is_checked(void **state)
{
    static const size_t lens[] = {0, 6, 31, 65};
    struct exchange x;
    struct pqpan_pqke_policy p = policy_of(PQPAN_PQKE_SUITE_BIT(2),
                                           PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_PSK));
    struct pqpan_pqke_credentials ci, cr;
    struct pqpan_pqke_initiator ini;
    struct pqpan_pqke_responder resp;
    struct pqpan_pqke_session si, sr;
    struct test_rng r1 = rng_seeded(97), r2 = rng_seeded(98);
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], out[PQPAN_PQKE_RESP_MAX_BYTES], fin[80];
    uint8_t psk64[64];
    size_t l_init, l_out, l_fin, none, i;
    (void)state;
    exchange_first_two(&x, 2, PQPAN_PQKE_MODE_PSK, 99);
    for (i = 0; i < sizeof lens / sizeof lens[0]; i++) {
        ci = cred_initiator(&x.keys);
        ci.psk_len = lens[i];
        assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_PSK), PQPAN_OK);
        assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init,
                                                    sizeof init, &l_init),
                         PQPAN_ERR_INVALID_ARG);
        cr = cred_responder(&x.keys);
        cr.psk_len = lens[i];
        assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
        assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r2, x.init_msg,
                                                     x.init_len, out, sizeof out, &l_out),
                         PQPAN_ERR_INVALID_ARG);
    }
    memset(psk64, 0xA5, sizeof psk64);
    ci = cred_initiator(&x.keys);
    cr = cred_responder(&x.keys);
    ci.psk = cr.psk = psk64;
    ci.psk_len = cr.psk_len = sizeof psk64;
    assert_int_equal(pqpan_pqke_initiator_init(&ini, &p, 2, PQPAN_PQKE_MODE_PSK), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_init(&resp, &p, &cr), PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_start(&ini, &ci, test_rng_fill, &r1, init, sizeof init,
                                                &l_init),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, test_rng_fill, &r2, init, l_init, out,
                                                 sizeof out, &l_out),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_handle(&ini, out, l_out, fin, sizeof fin, &l_fin),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_handle(&resp, NULL, NULL, fin, l_fin, NULL, 0, &none),
                     PQPAN_OK);
    assert_int_equal(pqpan_pqke_initiator_take_session(&ini, &si), PQPAN_OK);
    assert_int_equal(pqpan_pqke_responder_take_session(&resp, &sr), PQPAN_OK);
    assert_memory_equal(&si, &sr, sizeof si);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_message_sizes_per_suite_and_mode),
        cmocka_unit_test(test_message_sizes_of_sig_modes_and_hybrid_suites),
        cmocka_unit_test(test_names_and_mode_properties),
        cmocka_unit_test(test_codecs_write_documented_bytes_and_parse_back),
        cmocka_unit_test(test_codec_errors_in_documented_order),
        cmocka_unit_test(test_codecs_of_hybrid_suites_and_sig_modes),
        cmocka_unit_test(test_set_bytes_are_checked),
        cmocka_unit_test(test_session_follows_documented_formula),
        cmocka_unit_test(test_numeric_commitment_and_value_follow_formula),
        cmocka_unit_test(test_side_work_counts),
        cmocka_unit_test(test_side_work_of_sig_modes_and_hybrid_suites),
        cmocka_unit_test(test_side_work_table_of_the_protocol_doc),
        cmocka_unit_test(test_every_suite_and_mode_gives_equal_keys),
        cmocka_unit_test(test_seeded_runs_are_pinned),
        cmocka_unit_test(test_context_copy_clones_a_party),
        cmocka_unit_test(test_take_session_wipes_and_releases_once),
        cmocka_unit_test(test_man_in_the_middle_succeeds_only_in_none),
        cmocka_unit_test(test_man_in_the_middle_numeric_values_differ),
        cmocka_unit_test(test_user_refusal_and_misuse_of_numeric_calls),
        cmocka_unit_test(test_flipped_messages_never_give_a_key),
        cmocka_unit_test(test_truncated_or_oversized_messages_are_bad_length),
        cmocka_unit_test(test_duplicated_and_reordered_messages_are_state_errors),
        cmocka_unit_test(test_replayed_and_reflected_tags_fail_authentication),
        cmocka_unit_test(test_identity_misbinding_is_refused),
        cmocka_unit_test(test_numeric_reveal_must_open_the_commitment),
        cmocka_unit_test(test_different_prologues_fail_authentication),
        cmocka_unit_test(test_wrong_version_is_refused_by_every_handler),
        cmocka_unit_test(test_responder_policy),
        cmocka_unit_test(test_messages_of_another_suite_or_mode_are_refused),
        cmocka_unit_test(test_ml_dsa_set_must_be_the_runs),
        cmocka_unit_test(test_downgraded_retry_is_refused),
        cmocka_unit_test(test_stripped_offer_fails_authentication),
        cmocka_unit_test(test_downgrade_from_hybrid_or_mutual_signature_is_refused),
        cmocka_unit_test(test_stripped_hybrid_offer_fails_the_signature),
        cmocka_unit_test(test_initiator_refuses_resp_showing_better_choice),
        cmocka_unit_test(test_negotiation_ranking),
        cmocka_unit_test(test_random_garbage_never_gives_a_key),
        cmocka_unit_test(test_rng_failure_fails_cleanly),
        cmocka_unit_test(test_policies_and_credentials_are_checked),
        cmocka_unit_test(test_small_buffers),
        cmocka_unit_test(test_overlapping_buffers_are_refused),
        cmocka_unit_test(test_null_contexts),
        cmocka_unit_test(test_abort_wipes_and_keeps_the_first_error),
        cmocka_unit_test(test_numeric_attacker_gets_no_silent_guess),
        cmocka_unit_test(test_reflection_to_the_same_device_fails),
        cmocka_unit_test(test_static_key_of_another_kem_is_refused),
        cmocka_unit_test(test_initiator_verifies_with_the_key_it_started_with),
        cmocka_unit_test(test_refused_in_place_call_leaves_input_intact),
        cmocka_unit_test(test_psk_length_is_checked),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
