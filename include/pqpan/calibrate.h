/* Calibration of the energy model's γ factors against measurements (docs/MODEL.md
 * "Calibration"): each γ is the least-squares slope through the origin of the measured
 * energies m_i against the model's predictions p_i computed with γ = 1,
 *
 *   γ = Σ m_i·p_i / Σ p_i²,   r_i = m_i − γ·p_i,
 *   SE(γ) = sqrt( Σ r_i² / (n − 1) / Σ p_i² )   (n >= 2; undefined for one point).
 *
 * The library only fits numbers; reading traces and running the model is the caller's
 * (the `pqpan calibrate` command). No allocation, no state. */
#ifndef PQPAN_CALIBRATE_H
#define PQPAN_CALIBRATE_H

#include <stddef.h>

#include "pqpan/error.h"
#include "pqpan/ledger.h"

/* The study's ranges (Liu, Ramachandran, Jurdak, SenSys '26, arXiv 2602.18708):
 * γ_comp 1.12–1.62 depending on the operation, γ_comm 1.10–1.20. A fit outside them is
 * worth a warning (a different board, meter or model set-up), never a clamp. */
#define PQPAN_GAMMA_COMP_STUDY_MIN 1.12
#define PQPAN_GAMMA_COMP_STUDY_MAX 1.62
#define PQPAN_GAMMA_COMM_STUDY_MIN 1.10
#define PQPAN_GAMMA_COMM_STUDY_MAX 1.20

struct pqpan_calibrate_fit {
    double gamma;     /* Σ m·p / Σ p² */
    double se;        /* standard error of gamma; 0 when se_valid == 0 */
    double rss;       /* Σ r² (units of m squared) */
    double sum_p2;    /* Σ p² */
    size_t n;         /* number of points */
    int se_valid;     /* 1 when n >= 2 */
};

/* Fits m ≈ γ·p over measured[0..n), predicted[0..n). Every predicted value must be finite
 * and > 0, every measured value finite. Errors: PQPAN_ERR_INVALID_ARG (NULL, n == 0, a bad
 * value); *out is zeroed on error. */
PQPAN_MUST_CHECK int pqpan_calibrate_fit(struct pqpan_calibrate_fit *out, const double *measured,
                                         const double *predicted, size_t n);

/* 1 if gamma lies in [lo, hi], else 0 (a NaN is outside). */
int pqpan_calibrate_in_range(double gamma, double lo, double hi);

/* The key exchanges a trace can be compared with. */
enum pqpan_calibrate_exchange {
    PQPAN_CALIBRATE_STUDY = 0, /* the study's prototype: KeyGen, Encaps, Decaps, no KDF
                                  (ble.h PQPAN_BLE_PROTO_STUDY) */
    PQPAN_CALIBRATE_PQPAN,     /* pqpan's INIT / RESP / FIN: the same plus one key schedule
                                  per side (ble.h PQPAN_BLE_PROTO_PQPAN, docs/PROTOCOL.md) */
    PQPAN_CALIBRATE_LESC       /* LE Secure Connections: P-256 key generation, then ECDH */
};

#define PQPAN_CALIBRATE_SIDE_OPS_MAX 3

/* The crypto operations one side of exchange x runs, in the order it runs them: each is
 * one segment of a trace's crypto channel. runs_keygen: 1 for the side that runs KeyGen
 * (and Decaps), 0 for the side that runs Encaps; LESC is the same on both sides.
 *   study: KeyGen side kem_keygen, kem_decaps; other side kem_encaps
 *   pqpan: KeyGen side kem_keygen, kem_decaps, kdf (the key schedule after Decaps, before
 *          FIN); other side kem_encaps, kdf (after Encaps, before RESP)
 *   lesc:  ecdh_keygen, ecdh_shared
 * Writes ops[0..n) and returns n; 0 (nothing written) for an unknown exchange. */
size_t pqpan_calibrate_side_ops(enum pqpan_op ops[PQPAN_CALIBRATE_SIDE_OPS_MAX],
                                enum pqpan_calibrate_exchange x, int runs_keygen);

#endif
