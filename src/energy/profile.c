/* Device profiles: checks and current look-ups (docs/MODEL.md "Energy model"). */
#include <math.h>

#include "pqpan/energy.h"

static const char *const radio_mode_names[PQPAN_RADIO_MODE_COUNT] = {
    "ble_1m", "ble_2m", "ble_coded", "ieee802154",
};
static const char *const current_table_names[PQPAN_CURRENT_TABLE_COUNT] = {
    "system", "radio_only",
};

const char *pqpan_radio_mode_name(enum pqpan_radio_mode m)
{
    return (m >= 0 && m < PQPAN_RADIO_MODE_COUNT) ? radio_mode_names[m] : "unknown";
}

const char *pqpan_current_table_name(enum pqpan_current_table t)
{
    return (t >= 0 && t < PQPAN_CURRENT_TABLE_COUNT) ? current_table_names[t] : "unknown";
}

static int positive(double x)
{
    return isfinite(x) && x > 0.0;
}

static int check_scalars(const struct pqpan_profile *p)
{
    if (!positive(p->supply_v) || p->cpu_hz == 0 || !positive(p->cpu_ua) ||
        !positive(p->sleep_ua) || !positive(p->hfxo_start_ua)) {
        return 0;
    }
    if (!isfinite(p->sca_ppm) || p->sca_ppm < 0.0) {
        return 0;
    }
    if (p->cpu_radio_given && (!positive(p->cpu_tx_ua) || !positive(p->cpu_rx_ua))) {
        return 0;
    }
    return p->name[0] != '\0';
}

/* Currents of the connection-event phases are > 0 (a radio start-up current where
 * given); their durations may be 0. */
static int check_ble_event(const struct pqpan_profile_ble_event *e)
{
    int t;
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        if (e->ramp_given[t] > 1 || (e->ramp_given[t] && !positive(e->ramp_ua[t]))) {
            return 0;
        }
    }
    return positive(e->pre_ua) && positive(e->post_ua);
}

static int check_rx(const struct pqpan_profile *p)
{
    int t, m, any = 0;
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        for (m = 0; m < PQPAN_RADIO_MODE_COUNT; m++) {
            if (p->rx_given[t][m]) {
                if (!positive(p->rx_ua[t][m])) {
                    return 0;
                }
                any = 1;
            }
        }
    }
    return any;
}

/* A TX level table: at most PQPAN_PROFILE_TX_LEVELS_MAX levels, no level twice, every
 * given current positive. *any is set when some current is given. */
static int check_levels(size_t count, const int32_t dbm[],
                        const double ua[][PQPAN_PROFILE_TX_LEVELS_MAX],
                        const uint8_t given[][PQPAN_PROFILE_TX_LEVELS_MAX], int *any)
{
    size_t i, j;
    int t;
    *any = 0;
    if (count > PQPAN_PROFILE_TX_LEVELS_MAX) {
        return 0;
    }
    for (i = 0; i < count; i++) {
        for (j = i + 1; j < count; j++) {
            if (dbm[i] == dbm[j]) {
                return 0;
            }
        }
        for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
            if (given[t][i]) {
                if (!positive(ua[t][i])) {
                    return 0;
                }
                *any = 1;
            }
        }
    }
    return 1;
}

static int check_tx(const struct pqpan_profile *p)
{
    int any;
    return p->tx_level_count > 0 &&
           check_levels(p->tx_level_count, p->tx_dbm, p->tx_ua, p->tx_given, &any) && any;
}

static int check_802154(const struct pqpan_profile_802154 *s)
{
    int any;
    return check_levels(s->tx_level_count, s->tx_dbm, s->tx_ua, s->tx_given, &any) &&
           s->idle_rx <= 1 && s->backoff_rx <= 1 &&
           s->wake_cpu_given <= 1;
}

/* A supply section: a range holding supply_v, flags 0 or 1, a retention table of at most
 * PQPAN_PROFILE_RAM_POINTS_MAX points, kB ascending from >= 0, currents > 0. */
static int check_supply(const struct pqpan_profile_supply *s, double supply_v)
{
    size_t i;
    if (s->given > 1 || s->active_dcdc > 1 || s->sleep_dcdc > 1 ||
        s->ram_points > PQPAN_PROFILE_RAM_POINTS_MAX) {
        return 0;
    }
    if (s->given && !(positive(s->min_v) && s->min_v <= supply_v && supply_v <= s->max_v &&
                      isfinite(s->max_v))) {
        return 0;
    }
    for (i = 0; i < s->ram_points; i++) {
        if (!positive(s->ram_sleep_ua[i]) || !isfinite(s->ram_kb[i]) || s->ram_kb[i] < 0.0 ||
            (i > 0 && !(s->ram_kb[i] > s->ram_kb[i - 1]))) {
            return 0;
        }
    }
    return 1;
}

int pqpan_profile_check(const struct pqpan_profile *p)
{
    if (p == NULL || !check_scalars(p) || !check_ble_event(&p->ble_event) || !check_rx(p) ||
        !check_tx(p) ||
        !check_802154(&p->ieee802154) || !check_supply(&p->supply, p->supply_v)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return PQPAN_OK;
}

static int table_ok(enum pqpan_current_table table)
{
    return table >= 0 && table < PQPAN_CURRENT_TABLE_COUNT;
}

/* The current of level tx_dbm in one table of a TX level list. */
static int level_ua(size_t count, const int32_t dbm[], const double ua_of[],
                    const uint8_t given[], int tx_dbm, double *ua)
{
    size_t i;
    if (count > PQPAN_PROFILE_TX_LEVELS_MAX) {
        return PQPAN_ERR_INVALID_ARG;
    }
    for (i = 0; i < count; i++) {
        if (dbm[i] == tx_dbm && given[i]) {
            *ua = ua_of[i];
            return PQPAN_OK;
        }
    }
    return PQPAN_ERR_UNSUPPORTED;
}

int pqpan_profile_tx_ua(const struct pqpan_profile *p, enum pqpan_current_table table,
                        int tx_dbm, double *ua)
{
    if (ua == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *ua = 0.0;
    if (p == NULL || !table_ok(table)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    return level_ua(p->tx_level_count, p->tx_dbm, p->tx_ua[table], p->tx_given[table], tx_dbm,
                    ua);
}

int pqpan_profile_tx_mode_ua(const struct pqpan_profile *p, enum pqpan_current_table table,
                             enum pqpan_radio_mode mode, int tx_dbm, double *ua)
{
    const struct pqpan_profile_802154 *s;
    if (mode != PQPAN_RADIO_IEEE802154) {
        return pqpan_profile_tx_ua(p, table, tx_dbm, ua);
    }
    if (ua == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *ua = 0.0;
    if (p == NULL || !table_ok(table)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    s = &p->ieee802154;
    return level_ua(s->tx_level_count, s->tx_dbm, s->tx_ua[table], s->tx_given[table], tx_dbm, ua);
}

int pqpan_profile_rx_ua(const struct pqpan_profile *p, enum pqpan_current_table table,
                        enum pqpan_radio_mode mode, double *ua)
{
    if (ua == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *ua = 0.0;
    if (p == NULL || !table_ok(table) || mode < 0 || mode >= PQPAN_RADIO_MODE_COUNT) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (!p->rx_given[table][mode]) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    *ua = p->rx_ua[table][mode];
    return PQPAN_OK;
}

/* The sleep current at ram_kb kB retained: linear between the two points of the table
 * around it (docs/MODEL.md "Supply voltage and sleep retention"). */
static int sleep_at_ram(const struct pqpan_profile_supply *s, double ram_kb, double *ua)
{
    size_t i;
    if (s->ram_points == 0) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    if (!(ram_kb >= s->ram_kb[0] && ram_kb <= s->ram_kb[s->ram_points - 1])) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (s->ram_points == 1) {
        *ua = s->ram_sleep_ua[0];
        return PQPAN_OK;
    }
    i = 1;
    while (i + 1 < s->ram_points && ram_kb > s->ram_kb[i]) {
        i++;
    }
    *ua = s->ram_sleep_ua[i - 1] + (s->ram_sleep_ua[i] - s->ram_sleep_ua[i - 1]) *
                                       (ram_kb - s->ram_kb[i - 1]) /
                                       (s->ram_kb[i] - s->ram_kb[i - 1]);
    return PQPAN_OK;
}

static void scale_all(double *ua, size_t n, double k)
{
    size_t i;
    for (i = 0; i < n; i++) {
        ua[i] *= k;
    }
}

/* Every current of p but sleep_ua times k. */
static void scale_active(struct pqpan_profile *p, double k)
{
    p->cpu_ua *= k;
    p->cpu_tx_ua *= k;
    p->cpu_rx_ua *= k;
    p->hfxo_start_ua *= k;
    p->ble_event.pre_ua *= k;
    p->ble_event.post_ua *= k;
    scale_all(p->ble_event.ramp_ua, PQPAN_CURRENT_TABLE_COUNT, k);
    scale_all(&p->rx_ua[0][0], (size_t)PQPAN_CURRENT_TABLE_COUNT * PQPAN_RADIO_MODE_COUNT, k);
    scale_all(&p->tx_ua[0][0], (size_t)PQPAN_CURRENT_TABLE_COUNT * PQPAN_PROFILE_TX_LEVELS_MAX,
              k);
    scale_all(&p->ieee802154.tx_ua[0][0],
              (size_t)PQPAN_CURRENT_TABLE_COUNT * PQPAN_PROFILE_TX_LEVELS_MAX, k);
}

int pqpan_profile_at_supply(struct pqpan_profile *out, const struct pqpan_profile *p, double v,
                            double ram_kb)
{
    const struct pqpan_profile_supply *s;
    double sleep_ua, k;
    int rc;
    if (out == NULL || pqpan_profile_check(p) != PQPAN_OK || !isfinite(v) || !isfinite(ram_kb)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    s = &p->supply;
    if (v <= 0.0) {
        v = p->supply_v;
    }
    if (v != p->supply_v && !s->given) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    if (s->given && (v < s->min_v || v > s->max_v)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    sleep_ua = p->sleep_ua;
    if (ram_kb >= 0.0) {
        rc = sleep_at_ram(s, ram_kb, &sleep_ua);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    /* DC/DC: the same power at any supply, I = I(supply_v) x supply_v / v; LDO: I constant. */
    k = p->supply_v / v;
    if (out != p) {
        *out = *p;
    }
    out->sleep_ua = s->sleep_dcdc ? sleep_ua * k : sleep_ua;
    if (s->active_dcdc) {
        scale_active(out, k);
    }
    out->supply_v = v;
    return PQPAN_OK;
}
