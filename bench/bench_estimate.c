/* Estimator throughput, configurations per second of CPU time on one core (issue 12:
 * target >= 10 million for `pqpan sweep`'s BLE estimator; DESIGN.md: >= 1 million). A grid
 * in the shape of a sweep (device timing × protocol × KEM level × PHY × LL octets ×
 * ATT_MTU × interval × transfer (every --transfer choice, pqpan_ble_transfer_choice, as
 * `--transfer all`) × keygen side, the last varying fastest as in `pqpan sweep`), every configuration evaluated once per pass, so no estimate is asked for twice:
 * by the plain pqpan_ble_estimate_pqke, by pqpan_ble_estimate_pqke_cached (the memo,
 * copied out) and by pqpan_ble_estimate_pqke_memo (the memo's own estimate), each memo
 * empty at its pass's start, in turn, best of PASSES each; the ratios are to the plain
 * estimator's rate in the same run. The three fold their outputs into checksums, which
 * must agree. The energy-only options of a sweep (--tx-dbm, γ, the profile's currents) do
 * not reach the estimator and are not in the grid. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "pqpan/ble.h"
#include "pqpan/kem.h"

#define PASSES 5
#define TARGET_PER_S 10000000.0

/* CPU time of this thread: the one-core figure, whatever else the machine runs. */
static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Two device timings and cycle tables, bench inputs only (not profiles): the nRF52840-like
 * figures this bench always used, and a slower CPU with a slower crystal start. */
static const struct pqpan_ble_device devs[2] = {
    {64000000u, 256000u, 40000u, 60000u, 60000u, 50u, 32000u},
    {48000000u, 400000u, 130000u, 90000u, 80000u, 100u, 50000u},
};
static const uint64_t dev_cycles[2][PQPAN_OP_COUNT] = {
    {988722, 1138225, 1387984, 120000, 327000, 906000},
    {1400000, 1700000, 1900000, 180000, 500000, 1300000},
};
static const uint32_t mtus[] = {23, 247, 403, 517};

#define N_LL 29u  /* 27..251 step 8 */
#define N_CI 20u  /* 7.5..150 ms step 7.5 */

/* Grid dimensions, outermost first. */
enum { D_DEV, D_PROTO, D_KEM, D_PHY, D_LL, D_MTU, D_CI, D_TRANSFER, D_SIDE, D_COUNT };
static const uint64_t dim[D_COUNT] = {2, 2, PQPAN_KEM_COUNT, PQPAN_BLE_PHY_COUNT, N_LL,
                                      sizeof mtus / sizeof mtus[0], N_CI,
                                      PQPAN_BLE_TRANSFER_CHOICES, 2};

/* The grid is walked as an odometer: v[d] is the configuration's value number in dimension
 * d, and only the fields of the dimensions that moved are set (no division per
 * configuration: the harness should cost little next to the estimator it measures). */
static void set_dim(struct pqpan_ble_config *cfg, int d, uint64_t x)
{
    const struct pqpan_kem *kem;
    switch (d) {
    case D_PROTO:
        cfg->protocol = x ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
        break;
    case D_KEM:
        kem = pqpan_kem_at((size_t)x);
        cfg->ek_bytes = (uint32_t)kem->ek_bytes;
        cfg->ct_bytes = (uint32_t)kem->ct_bytes;
        break;
    case D_PHY:
        cfg->phy = (enum pqpan_ble_phy)x;
        break;
    case D_LL:
        cfg->ll_octets = 27u + 8u * (uint32_t)x;
        break;
    case D_MTU:
        cfg->att_mtu = mtus[x];
        break;
    case D_CI:
        cfg->ci_ns = 7500000u * (x + 1u);
        break;
    case D_TRANSFER:
        (void)pqpan_ble_transfer_choice((unsigned)x, &cfg->server_transfer,
                                        &cfg->client_transfer);
        break;
    case D_SIDE:
        cfg->keygen_side = (enum pqpan_ble_role)x;
        break;
    default: /* D_DEV: the device, not a field of cfg */
        break;
    }
}

/* Moves v to the next configuration and sets cfg's fields from the first dimension that
 * moved on (every one after it went back to its first value). */
static void grid_next(struct pqpan_ble_config *cfg, uint64_t v[D_COUNT])
{
    int d = D_COUNT - 1;
    while (d > 0 && v[d] + 1u == dim[d]) {
        v[d--] = 0u;
    }
    v[d]++;
    for (; d < D_COUNT; d++) {
        set_dim(cfg, d, v[d]);
    }
}

static void grid_first(struct pqpan_ble_config *cfg, uint64_t v[D_COUNT])
{
    int d;
    for (d = 0; d < D_COUNT; d++) {
        v[d] = 0u;
        set_dim(cfg, d, 0u);
    }
}

static uint64_t grid_size(void)
{
    uint64_t n = 1;
    int d;
    for (d = 0; d < D_COUNT; d++) {
        n *= dim[d];
    }
    return n;
}

/* Folds what an estimate says into a checksum (equal outputs, equal sums). */
static uint64_t fold(uint64_t h, int rc, const struct pqpan_ble_estimate *e)
{
    h = h * 1099511628211u + (uint64_t)rc;
    h = h * 1099511628211u + e->latency_ns;
    h = h * 1099511628211u + e->setup_ns;
    h = h * 1099511628211u + e->ledger[0].ns[PQPAN_PHASE_KEY_TRANSFER][PQPAN_STATE_SLEEP];
    h = h * 1099511628211u + e->ledger[1].ns[PQPAN_PHASE_DISCOVERY][PQPAN_STATE_TX];
    h = h * 1099511628211u + e->bits[1].bytes_tx + e->counts.events;
    return h;
}

/* The three ways to an estimate: the plain estimator; the memo, copied out
 * (pqpan_ble_estimate_pqke_cached); the memo's own estimate (pqpan_ble_estimate_pqke_memo). */
enum path { PLAIN, CACHED, MEMO, PATH_COUNT };

static const char *const path_names[PATH_COUNT] = {
    "pqpan_ble_estimate_pqke (plain)",
    "pqpan_ble_estimate_pqke_cached (memo, copied out)",
    "pqpan_ble_estimate_pqke_memo (memo, its own estimate)",
};

/* One pass over the grid on path p, the memo (not PLAIN) empty at its start. Returns CPU
 * seconds. */
static double pass(enum path p, struct pqpan_ble_estimate_cache *cache, uint64_t n, uint64_t *sum)
{
    static const struct pqpan_ble_estimate zero;
    struct pqpan_ble_config cfg;
    struct pqpan_ble_estimate e;
    uint64_t i, h = 0, v[D_COUNT];
    double t0;
    pqpan_ble_config_default(&cfg);
    pqpan_ble_estimate_cache_init(cache);
    grid_first(&cfg, v);
    t0 = now_s();
    for (i = 0; i < n; i++, grid_next(&cfg, v)) {
        size_t d = (size_t)v[D_DEV];
        const struct pqpan_ble_estimate *m = &e;
        int rc;
        if (p == PLAIN) {
            rc = pqpan_ble_estimate_pqke(&e, &cfg, &devs[d], dev_cycles[d]);
        } else if (p == CACHED) {
            rc = pqpan_ble_estimate_pqke_cached(&e, &cfg, &devs[d], dev_cycles[d], cache);
        } else {
            rc = pqpan_ble_estimate_pqke_memo(&m, &cfg, &devs[d], dev_cycles[d], cache);
            m = m != NULL ? m : &zero;
        }
        h = fold(h, rc, m);
    }
    *sum = h;
    return now_s() - t0;
}

int main(void)
{
    static struct pqpan_ble_estimate_cache cache;
    struct pqpan_ble_estimate_cache_stats st;
    const uint64_t n = grid_size();
    double best[PATH_COUNT] = {0.0};
    uint64_t sum[PATH_COUNT] = {0u};
    int p, k, same = 1;
    for (p = 0; p < PASSES; p++) {
        for (k = 0; k < PATH_COUNT; k++) {
            double t = pass((enum path)k, &cache, n, &sum[k]);
            best[k] = p == 0 || t < best[k] ? t : best[k];
        }
    }
    printf("estimator: %llu distinct configurations (2 device timings x 2 protocols x %d KEMs x "
           "%d PHYs x LL 27..251:8 x ATT_MTU 23,247,403,517 x CI 7.5..150:7.5 ms x %d "
           "transfers x 2 keygen sides), each once per pass; CPU time of one core, best of %d "
           "passes each\n",
           (unsigned long long)n, PQPAN_KEM_COUNT, PQPAN_BLE_PHY_COUNT,
           PQPAN_BLE_TRANSFER_CHOICES, PASSES);
    for (k = 0; k < PATH_COUNT; k++) {
        printf("estimator: %s: %.3f s = %.0f configurations/s = %.2fx plain\n", path_names[k],
               best[k], (double)n / best[k], best[PLAIN] / best[k]);
        same &= sum[k] == sum[PLAIN];
    }
    pqpan_ble_estimate_cache_stats(&st, &cache);
    printf("estimator: memo of the last pass: set-up %llu hits, %llu misses (%u slots); "
           "exchange %llu hits, %llu mirrored from the other keygen side, %llu misses (%u "
           "slots)\n",
           (unsigned long long)st.hits, (unsigned long long)st.misses, st.setup_slots,
           (unsigned long long)st.exchange_hits, (unsigned long long)st.exchange_mirrors,
           (unsigned long long)st.exchange_misses, st.exchange_slots);
    printf("estimator: target >= %.0f configurations/s (issue 12): %s%s\n", TARGET_PER_S,
           (double)n / best[MEMO] >= TARGET_PER_S ? "met" : "NOT met",
           same ? "" : " [the paths' outputs DIFFER]");
    return same ? 0 : 1;
}
