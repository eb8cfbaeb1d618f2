/* Unslotted CSMA-CA, IEEE 802.15.4-2020 §6.2.5.1 (Figure 6-2, nonbeacon-enabled PAN). */
#include <string.h>

#include "ieee802154/internal.h"
#include "pqpan/ieee802154.h"

/* Table 8-94 ranges: macMaxBE 3..8, macMinBE 0..macMaxBE, macMaxCsmaBackoffs 0..5,
 * macMaxFrameRetries 0..7. */
#define MAX_BE_LIMIT 8u
#define MAX_BACKOFFS_LIMIT 5u
#define MAX_RETRIES_LIMIT 7u

struct pqpan_802154_csma_params pqpan_802154_csma_ieee(void)
{
    struct pqpan_802154_csma_params p = {3, 5, 4, 3}; /* Table 8-94 defaults */
    return p;
}

struct pqpan_802154_csma_params pqpan_802154_csma_contiki(void)
{
    struct pqpan_802154_csma_params p = {3, 5, 5, 7}; /* Contiki-NG csma.h defaults */
    return p;
}

int pqpan_802154_csma_params_check(const struct pqpan_802154_csma_params *p)
{
    if (p == 0 || p->max_be > MAX_BE_LIMIT || p->min_be > p->max_be ||
        p->max_backoffs > MAX_BACKOFFS_LIMIT || p->max_frame_retries > MAX_RETRIES_LIMIT) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}

/* random(2^be - 1): uniform on 0..2^be-1 from one octet (be <= 8). */
int pqpan_802154_csma_draw(uint32_t *periods, uint8_t be, pqpan_rng_fn rng, void *rng_ctx)
{
    uint8_t octet = 0;
    if (rng(rng_ctx, &octet, 1) != 0) {
        return PQPAN_ERR_RNG;
    }
    *periods = (uint32_t)octet & ((1u << be) - 1u);
    return PQPAN_OK;
}

int pqpan_802154_csma_run(struct pqpan_802154_csma_result *res,
                          const struct pqpan_802154_csma_params *p, pqpan_rng_fn rng,
                          void *rng_ctx, pqpan_802154_cca_fn cca, void *cca_ctx,
                          uint64_t start_ns)
{
    uint8_t nb = 0, be;
    uint64_t t = start_ns;
    uint32_t periods;
    int rc;
    if (res == 0) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(res, 0, sizeof *res);
    if (rng == 0 || cca == 0 || pqpan_802154_csma_params_check(p) != PQPAN_OK) {
        return PQPAN_ERR_INVALID_ARG;
    }
    be = p->min_be;
    for (;;) {
        rc = pqpan_802154_csma_draw(&periods, be, rng, rng_ctx);
        if (rc != PQPAN_OK) {
            memset(res, 0, sizeof *res);
            return rc;
        }
        res->backoff_ns += (uint64_t)periods * PQPAN_802154_UNIT_BACKOFF_NS;
        t += (uint64_t)periods * PQPAN_802154_UNIT_BACKOFF_NS;
        res->ccas++;
        if (!cca(cca_ctx, t)) {
            res->success = 1;
            res->end_ns = t + PQPAN_802154_CCA_NS;
            res->tx_start_ns = res->end_ns + PQPAN_802154_TURNAROUND_NS;
            return PQPAN_OK;
        }
        t += PQPAN_802154_CCA_NS;
        nb++;
        be = (uint8_t)(be + 1u < p->max_be ? be + 1u : p->max_be);
        if (nb > p->max_backoffs) {
            res->end_ns = t;
            res->tx_start_ns = t;
            return PQPAN_OK;
        }
    }
}

/* Mean of random(2^be - 1) in unit backoff periods: (2^be - 1) / 2. */
static double mean_periods(unsigned be)
{
    return ((double)(1u << be) - 1.0) / 2.0;
}

double pqpan_802154_csma_expected_backoff_ns(const struct pqpan_802154_csma_params *p, double p_busy)
{
    double reach = 1.0, sum = 0.0;
    unsigned i, be;
    for (i = 0; i <= p->max_backoffs; i++) {
        be = p->min_be + i < p->max_be ? p->min_be + i : p->max_be;
        sum += reach * mean_periods(be);
        reach *= p_busy;
    }
    return sum * (double)PQPAN_802154_UNIT_BACKOFF_NS;
}

double pqpan_802154_csma_expected_ccas(const struct pqpan_802154_csma_params *p, double p_busy)
{
    double reach = 1.0, sum = 0.0;
    unsigned i;
    for (i = 0; i <= p->max_backoffs; i++) {
        sum += reach;
        reach *= p_busy;
    }
    return sum;
}

double pqpan_802154_csma_failure_prob(const struct pqpan_802154_csma_params *p, double p_busy)
{
    double prob = 1.0;
    unsigned i;
    for (i = 0; i <= p->max_backoffs; i++) {
        prob *= p_busy;
    }
    return prob;
}
