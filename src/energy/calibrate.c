/* Least-squares γ fit through the origin (docs/MODEL.md "Calibration"). */
#include <math.h>
#include <string.h>

#include "pqpan/calibrate.h"

static int points_valid(const double *measured, const double *predicted, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (!isfinite(measured[i]) || !isfinite(predicted[i]) || predicted[i] <= 0.0) {
            return 0;
        }
    }
    return 1;
}

/* Two passes: the slope from the sums, then the residuals directly (Σm² − γΣmp would
 * cancel catastrophically when the fit is good). */
int pqpan_calibrate_fit(struct pqpan_calibrate_fit *out, const double *measured,
                        const double *predicted, size_t n)
{
    double smp = 0.0, spp = 0.0, rss = 0.0;
    size_t i;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (measured == NULL || predicted == NULL || n == 0 ||
        !points_valid(measured, predicted, n)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    for (i = 0; i < n; i++) {
        smp += measured[i] * predicted[i];
        spp += predicted[i] * predicted[i];
    }
    out->gamma = smp / spp;
    for (i = 0; i < n; i++) {
        double r = measured[i] - out->gamma * predicted[i];
        rss += r * r;
    }
    out->rss = rss;
    out->sum_p2 = spp;
    out->n = n;
    if (n >= 2) {
        out->se = sqrt(rss / (double)(n - 1) / spp);
        out->se_valid = 1;
    }
    return PQPAN_OK;
}

int pqpan_calibrate_in_range(double gamma, double lo, double hi)
{
    return gamma >= lo && gamma <= hi;
}

size_t pqpan_calibrate_side_ops(enum pqpan_op ops[PQPAN_CALIBRATE_SIDE_OPS_MAX],
                                enum pqpan_calibrate_exchange x, int runs_keygen)
{
    size_t n = 0;
    if (x == PQPAN_CALIBRATE_LESC) {
        ops[n++] = PQPAN_OP_ECDH_KEYGEN;
        ops[n++] = PQPAN_OP_ECDH_SHARED;
        return n;
    }
    if (x != PQPAN_CALIBRATE_STUDY && x != PQPAN_CALIBRATE_PQPAN) {
        return 0;
    }
    if (runs_keygen) {
        ops[n++] = PQPAN_OP_KEM_KEYGEN;
        ops[n++] = PQPAN_OP_KEM_DECAPS;
    } else {
        ops[n++] = PQPAN_OP_KEM_ENCAPS;
    }
    if (x == PQPAN_CALIBRATE_PQPAN) {
        ops[n++] = PQPAN_OP_KDF;
    }
    return n;
}
