/* Constant-time check of the PQKE parties under valgrind memcheck: every byte the
 * injected random source hands out (nonces, KeyGen's d and z, Encaps' m) is marked
 * undefined, so any branch or memory index that depends on them or on anything derived
 * from them (dk, the shared secret, the derived keys, the tags) is reported and the run
 * fails. A tampered RESP goes through the implicit-rejection and refusal paths too.
 * Messages, once a party has sent them, are public and marked defined again; the
 * only secret-derived value a party may branch on is the tag comparison's verdict, which
 * the library declassifies (src/crypto/ct_testing.h). */
#include <stdio.h>
#include <string.h>

#include <valgrind/memcheck.h>

#include "pqpan/pqke.h"

#define PUBLIC(p, n) VALGRIND_MAKE_MEM_DEFINED((p), (n))

static int secret_rng(void *ctx, uint8_t *out, size_t len)
{
    uint8_t *counter = ctx;
    size_t i;
    for (i = 0; i < len; i++) {
        out[i] = (uint8_t)(*counter + 31 * i);
    }
    (*counter)++;
    VALGRIND_MAKE_MEM_UNDEFINED(out, len);
    return 0;
}

/* dk_pke = 384 * k bytes = ek minus its 32-byte seed rho (FIPS 203 Alg. 13). */
static size_t dk_pke_bytes(unsigned suite)
{
    return pqpan_pqke_suite_sizes(suite).ek_bytes - 32;
}

static int check_suite(unsigned suite)
{
    static struct pqpan_pqke_initiator ini, twin;
    static struct pqpan_pqke_responder resp;
    static uint8_t init[PQPAN_PQKE_INIT_MAX_BYTES], answer[PQPAN_PQKE_RESP_MAX_BYTES];
    uint8_t fin[PQPAN_PQKE_FIN_BYTES], k1[PQPAN_PQKE_SESSION_KEY_BYTES],
        k2[PQPAN_PQKE_SESSION_KEY_BYTES];
    uint8_t counter = (uint8_t)suite;
    size_t init_len, resp_len, fin_len, none;
    int rc = 0, refused;

    rc |= pqpan_pqke_initiator_init(&ini, suite);
    rc |= pqpan_pqke_responder_init(&resp, PQPAN_PQKE_SUITES_ALL);
    rc |= pqpan_pqke_initiator_start(&ini, secret_rng, &counter, init, sizeof init, &init_len);
    PUBLIC(init, init_len);
    /* The copy of ek and H(ek) inside dk is public (FIPS 203 Alg. 16: dk = dk_pke || ek ||
     * H(ek) || z); Decaps' §7.3 check branches on it. */
    PUBLIC(ini.dk + dk_pke_bytes(suite), pqpan_pqke_suite_sizes(suite).ek_bytes + 32);
    rc |= pqpan_pqke_responder_handle(&resp, secret_rng, &counter, init, init_len, answer,
                                      sizeof answer, &resp_len);
    PUBLIC(answer, resp_len);
    /* A tampered ciphertext: implicit rejection inside Decaps, then a refused tag. */
    twin = ini;
    answer[PQPAN_PQKE_HEADER_BYTES] ^= 1;
    refused = pqpan_pqke_initiator_handle(&twin, answer, resp_len, fin, sizeof fin, &fin_len);
    answer[PQPAN_PQKE_HEADER_BYTES] ^= 1;
    rc |= refused == PQPAN_ERR_AUTH ? 0 : 1;
    rc |= pqpan_pqke_initiator_handle(&ini, answer, resp_len, fin, sizeof fin, &fin_len);
    PUBLIC(fin, fin_len);
    rc |= pqpan_pqke_responder_handle(&resp, NULL, NULL, fin, fin_len, NULL, 0, &none);
    rc |= pqpan_pqke_initiator_session_key(&ini, k1);
    rc |= pqpan_pqke_responder_session_key(&resp, k2);
    PUBLIC(k1, sizeof k1);
    PUBLIC(k2, sizeof k2);
    if (rc != 0 || memcmp(k1, k2, sizeof k1) != 0) {
        fprintf(stderr, "suite %u: functional failure (%d)\n", suite, rc);
        return 1;
    }
    return 0;
}

int main(void)
{
    unsigned suite;
    int failed = 0;
    for (suite = PQPAN_PQKE_SUITE_MLKEM512; suite <= PQPAN_PQKE_SUITE_MLKEM1024; suite++) {
        failed |= check_suite(suite);
    }
    return failed;
}
