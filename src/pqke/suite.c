/* PQKE suites: wire suite id -> ML-KEM parameter set (FIPS 203) through the generic KEM
 * layer of kem.h. The wire values are this protocol's own (docs/PROTOCOL.md §2.1). */
#include "pqke/pqke_internal.h"

struct suite_row {
    unsigned suite;
    enum pqpan_kem_id kem;
};

static const struct suite_row suite_rows[] = {
    {PQPAN_PQKE_SUITE_MLKEM512, PQPAN_KEM_MLKEM512},
    {PQPAN_PQKE_SUITE_MLKEM768, PQPAN_KEM_MLKEM768},
    {PQPAN_PQKE_SUITE_MLKEM1024, PQPAN_KEM_MLKEM1024},
};

/* The KEM of a suite, or NULL for an unknown suite. */
static const struct pqpan_kem *suite_kem(unsigned suite)
{
    size_t i;
    for (i = 0; i < sizeof suite_rows / sizeof suite_rows[0]; i++) {
        if (suite_rows[i].suite == suite) {
            return pqpan_kem_by_id(suite_rows[i].kem);
        }
    }
    return 0;
}

int pqpan_pqke_suite_known(unsigned suite)
{
    return suite_kem(suite) != 0;
}

struct pqpan_pqke_sizes pqpan_pqke_suite_sizes(unsigned suite)
{
    struct pqpan_pqke_sizes s = {0, 0, 0, 0, 0};
    const struct pqpan_kem *kem = suite_kem(suite);
    if (kem != 0) {
        s.ek_bytes = kem->ek_bytes;
        s.ct_bytes = kem->ct_bytes;
        s.init_bytes = PQPAN_PQKE_INIT_BYTES(kem->ek_bytes);
        s.resp_bytes = PQPAN_PQKE_RESP_BYTES(kem->ct_bytes);
        s.fin_bytes = PQPAN_PQKE_FIN_BYTES;
    }
    return s;
}

unsigned pqpan_pqke_suite_for_kem(enum pqpan_kem_id kem)
{
    size_t i;
    for (i = 0; i < sizeof suite_rows / sizeof suite_rows[0]; i++) {
        if (suite_rows[i].kem == kem) {
            return suite_rows[i].suite;
        }
    }
    return 0;
}

const char *pqpan_pqke_suite_name(unsigned suite)
{
    const struct pqpan_kem *kem = suite_kem(suite);
    return kem != 0 ? kem->name : 0;
}

int pqpan_pqke_kem_keypair(unsigned suite, uint8_t *ek, uint8_t *dk, pqpan_rng_fn rng,
                           void *rng_ctx)
{
    const struct pqpan_kem *kem = suite_kem(suite);
    return kem != 0 ? kem->keypair(ek, dk, rng, rng_ctx) : PQPAN_ERR_SUITE;
}

int pqpan_pqke_kem_encaps(unsigned suite, uint8_t *ct, uint8_t ss[PQKE_SS_BYTES],
                          const uint8_t *ek, pqpan_rng_fn rng, void *rng_ctx)
{
    const struct pqpan_kem *kem = suite_kem(suite);
    return kem != 0 ? kem->encaps(ct, ss, ek, rng, rng_ctx) : PQPAN_ERR_SUITE;
}

int pqpan_pqke_kem_decaps(unsigned suite, uint8_t ss[PQKE_SS_BYTES], const uint8_t *ct,
                          const uint8_t *dk)
{
    const struct pqpan_kem *kem = suite_kem(suite);
    return kem != 0 ? kem->decaps(ss, ct, dk) : PQPAN_ERR_SUITE;
}
