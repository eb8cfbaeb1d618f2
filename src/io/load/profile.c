/* Device profile files (format "pqpan-profile/1", docs/MODEL.md "Profile file format"),
 * parsed with cJSON into struct pqpan_profile (include/pqpan/io.h). Every number is
 * {"value": x, "source": "..."}. */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "number.h"
#include "pqpan/io.h"

#define PROFILE_FORMAT "pqpan-profile/1"

struct ctx {
    const char *origin;
    char *err;
    size_t errlen;
};

/* The largest number a profile may give (µA, V, Hz, ppm, µs): far above any device's, yet
 * small enough that energies computed from it stay finite (no "inf" in the outputs). */
#define VALUE_MAX 1e10

static int fail(const struct ctx *c, const char *field, const char *problem)
{
    snprintf(c->err, c->errlen, "%s: %s: %s", c->origin, field, problem);
    return PQPAN_ERR_MALFORMED;
}

/* Plausibility limits (assumptions, far outside any BLE / 802.15.4 SoC's datasheet figure,
 * so that only typos and unit mistakes hit them): supply 0.5..10 V (the SoCs run at
 * 1.7..3.6 V); currents up to 1 A (their radios draw under 0.1 A); CPU clock 1 kHz..10 GHz;
 * sleep clock accuracy up to 1000 ppm (Core v5.4 Vol 6 Part B §4.2.2 allows 500); times
 * up to 1 s. */
#define VOLT_MIN 0.5
#define VOLT_MAX 10.0
#define CURRENT_MAX_UA 1e6
#define HZ_MIN 1e3
#define HZ_MAX 1e10
#define PPM_MAX 1000.0
#define US_MAX 1e6

/* x within [lo, hi] (unit for the message), else the failure. */
static int plausible(const struct ctx *c, const char *path, double x, double lo, double hi,
                     const char *unit)
{
    char msg[128];
    if (x >= lo && x <= hi) {
        return PQPAN_OK;
    }
    snprintf(msg, sizeof msg, "\"value\" %g is outside the plausible %g..%g %s (a unit mistake?)",
             x, lo, hi, unit);
    return fail(c, path, msg);
}

/* A current that is given: greater than 0, at most CURRENT_MAX_UA. */
static int current_ok(const struct ctx *c, const char *path, double ua)
{
    if (ua == 0.0) {
        return fail(c, path, "\"value\" must be greater than 0");
    }
    return plausible(c, path, ua, 0.0, CURRENT_MAX_UA, "uA");
}

/* What a scalar field may hold. */
enum kind {
    KIND_CURRENT,  /* double, µA, > 0 */
    KIND_VOLT,     /* double, V, > 0 */
    KIND_PPM,      /* double, >= 0 */
    KIND_HZ,       /* uint32, > 0 */
    KIND_US_TO_NS, /* µs in the file, uint32 ns in the struct, > 0 */
    KIND_US_TO_NS0 /* the same, 0 allowed */
};

struct scalar {
    const char *key;
    enum kind kind;
    size_t offset;
    int nullable;
};

static const struct scalar scalars[] = {
    {"supply_v", KIND_VOLT, offsetof(struct pqpan_profile, supply_v), 0},
    {"cpu_hz", KIND_HZ, offsetof(struct pqpan_profile, cpu_hz), 0},
    {"cpu_ua", KIND_CURRENT, offsetof(struct pqpan_profile, cpu_ua), 0},
    {"cpu_tx_ua", KIND_CURRENT, offsetof(struct pqpan_profile, cpu_tx_ua), 1},
    {"cpu_rx_ua", KIND_CURRENT, offsetof(struct pqpan_profile, cpu_rx_ua), 1},
    {"sleep_ua", KIND_CURRENT, offsetof(struct pqpan_profile, sleep_ua), 0},
    {"hfxo_start_ua", KIND_CURRENT, offsetof(struct pqpan_profile, hfxo_start_ua), 0},
    {"hfxo_start_us", KIND_US_TO_NS, offsetof(struct pqpan_profile, hfxo_start_ns), 0},
    {"ramp_fast_us", KIND_US_TO_NS, offsetof(struct pqpan_profile, ramp_fast_ns), 0},
    {"ramp_normal_us", KIND_US_TO_NS, offsetof(struct pqpan_profile, ramp_normal_ns), 0},
    {"sca_ppm", KIND_PPM, offsetof(struct pqpan_profile, sca_ppm), 0},
};

/* The "ble_event" section: the phases of a connection event (struct pqpan_profile_ble_event). */
#define BLE_EVENT(m) (offsetof(struct pqpan_profile, ble_event) + offsetof(struct pqpan_profile_ble_event, m))
static const struct scalar ble_event_scalars[] = {
    {"pre_us", KIND_US_TO_NS0, BLE_EVENT(pre_ns), 0},
    {"pre_ua", KIND_CURRENT, BLE_EVENT(pre_ua), 0},
    {"post_us", KIND_US_TO_NS0, BLE_EVENT(post_ns), 0},
    {"post_ua", KIND_CURRENT, BLE_EVENT(post_ua), 0},
    {"rx_margin_us", KIND_US_TO_NS0, BLE_EVENT(rx_margin_ns), 0},
};

static const char *const other_keys[] = {"format",     "name",      "description", "datasheet",
                                          "currents",   "ble_event", "ieee802154",  "notes",
                                          "supply"};

static const char *const mode_keys[PQPAN_RADIO_MODE_COUNT] = {
    "ble_1m", "ble_2m", "ble_coded", "ieee802154",
};
static const char *const table_keys[PQPAN_CURRENT_TABLE_COUNT] = {"system", "radio_only"};

static int listed(const char *key, const char *const *list, size_t n)
{
    size_t i;
    for (i = 0; i < n; i++) {
        if (strcmp(key, list[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static int known_key(const char *key)
{
    size_t i;
    for (i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        if (strcmp(key, scalars[i].key) == 0) {
            return 1;
        }
    }
    return listed(key, other_keys, sizeof other_keys / sizeof other_keys[0]);
}

/* The members a figure object may have: value, source, derived (how a derived figure is
 * computed), other_chip (the chip the figure stands on when none of this device's was
 * found) and, in a TX level list, dbm (in a retention list, kb). */
static int figure_keys_ok(const struct ctx *c, const cJSON *obj, const char *path)
{
    static const char *const keys[] = {"value", "source", "derived", "other_chip", "dbm", "kb"};
    const cJSON *item, *derived = cJSON_GetObjectItemCaseSensitive(obj, "derived");
    const cJSON *other = cJSON_GetObjectItemCaseSensitive(obj, "other_chip");
    cJSON_ArrayForEach(item, obj)
    {
        if (!listed(item->string, keys, sizeof keys / sizeof keys[0])) {
            char msg[128];
            snprintf(msg, sizeof msg, "unknown member \"%.40s\" (a figure has value, source and "
                                      "optionally derived and other_chip)", item->string);
            fail(c, path, msg);
            return 0;
        }
    }
    if (derived != NULL && (!cJSON_IsString(derived) || derived->valuestring[0] == '\0')) {
        fail(c, path, "\"derived\" must be a non-empty text saying how the figure is computed");
        return 0;
    }
    if (other != NULL && (!cJSON_IsString(other) || other->valuestring[0] == '\0')) {
        fail(c, path, "\"other_chip\" must be a non-empty text naming the chip the figure "
                      "comes from");
        return 0;
    }
    return 1;
}

/* The "source" text of {"value": ..., "source": "non-empty"}; NULL after a failure. */
static const char *source_of(const struct ctx *c, const cJSON *obj, const char *path)
{
    const cJSON *src;
    if (!cJSON_IsObject(obj)) {
        fail(c, path, "missing, or not an object {\"value\": ..., \"source\": ...}");
        return NULL;
    }
    if (!figure_keys_ok(c, obj, path)) {
        return NULL;
    }
    src = cJSON_GetObjectItemCaseSensitive(obj, "source");
    if (!cJSON_IsString(src) || src->valuestring[0] == '\0') {
        fail(c, path, "\"source\" missing or empty: every number needs its source");
        return NULL;
    }
    return src->valuestring;
}

/* Copies a source text for the outputs (truncated to fit). */
static void keep_source(char *dst, const char *src)
{
    if (dst != NULL) {
        snprintf(dst, PQPAN_IO_SOURCE_MAX, "%s", src);
    }
}

/* {"value": number | null, "source": "non-empty"} → *value, *given; the source into
 * keep (PQPAN_IO_SOURCE_MAX bytes) unless keep is NULL. */
static int read_sourced_keep(const struct ctx *c, const cJSON *obj, const char *path,
                             int nullable, double *value, int *given, char *keep)
{
    const cJSON *v;
    const char *src = source_of(c, obj, path);
    if (src == NULL) {
        return PQPAN_ERR_MALFORMED;
    }
    keep_source(keep, src);
    v = cJSON_GetObjectItemCaseSensitive(obj, "value");
    if (v == NULL) {
        return fail(c, path, "\"value\" missing");
    }
    if (cJSON_IsNull(v)) {
        if (!nullable) {
            return fail(c, path, "\"value\" is null but this figure is required");
        }
        *given = 0;
        *value = 0.0;
        return PQPAN_OK;
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble)) {
        return fail(c, path, "\"value\" is not a number");
    }
    if (v->valuedouble < 0.0) {
        return fail(c, path, "\"value\" is negative");
    }
    if (v->valuedouble > VALUE_MAX) {
        return fail(c, path, "\"value\" out of range (at most 1e10)");
    }
    *given = 1;
    *value = v->valuedouble;
    return PQPAN_OK;
}

static int read_sourced(const struct ctx *c, const cJSON *obj, const char *path, int nullable,
                        double *value, int *given)
{
    return read_sourced_keep(c, obj, path, nullable, value, given, NULL);
}

static int store_scalar(const struct ctx *c, struct pqpan_profile *p, const struct scalar *s,
                        double x, const char *path)
{
    unsigned char *base = (unsigned char *)p + s->offset;
    double scaled = (s->kind == KIND_US_TO_NS || s->kind == KIND_US_TO_NS0) ? x * 1000.0 : x;
    uint32_t u;
    double d;
    static const struct {
        double lo, hi;
        const char *unit;
    } limit[] = {
        [KIND_CURRENT] = {0.0, CURRENT_MAX_UA, "uA"}, [KIND_VOLT] = {VOLT_MIN, VOLT_MAX, "V"},
        [KIND_PPM] = {0.0, PPM_MAX, "ppm"},           [KIND_HZ] = {HZ_MIN, HZ_MAX, "Hz"},
        [KIND_US_TO_NS] = {0.0, US_MAX, "us"},        [KIND_US_TO_NS0] = {0.0, US_MAX, "us"},
    };
    int rc;
    if (x == 0.0 && s->kind != KIND_PPM && s->kind != KIND_US_TO_NS0) {
        return fail(c, path, "\"value\" must be greater than 0");
    }
    rc = plausible(c, path, x, limit[s->kind].lo, limit[s->kind].hi, limit[s->kind].unit);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (s->kind == KIND_CURRENT || s->kind == KIND_VOLT || s->kind == KIND_PPM) {
        d = x;
        memcpy(base, &d, sizeof d);
        return PQPAN_OK;
    }
    if (scaled > 4294967295.0 || (s->kind == KIND_HZ && floor(x) != x)) {
        return fail(c, path, "\"value\" out of range");
    }
    u = (uint32_t)llround(scaled);
    memcpy(base, &u, sizeof u);
    return PQPAN_OK;
}

/* One scalar figure of obj (the document or a section; prefix names it in messages). */
static int read_scalar(const struct ctx *c, const cJSON *obj, const char *prefix,
                       struct pqpan_profile *p, const struct scalar *s, int *given)
{
    char path[96];
    double x;
    int rc;
    snprintf(path, sizeof path, "%s%s", prefix, s->key);
    rc = read_sourced(c, cJSON_GetObjectItemCaseSensitive(obj, s->key), path, s->nullable, &x,
                      given);
    if (rc == PQPAN_OK && *given) {
        rc = store_scalar(c, p, s, x, path);
    }
    return rc;
}

static int read_scalars(const struct ctx *c, const cJSON *root, struct pqpan_profile *p)
{
    size_t i;
    int given_tx = 0, given_rx = 0;
    for (i = 0; i < sizeof scalars / sizeof scalars[0]; i++) {
        const struct scalar *s = &scalars[i];
        int given;
        int rc = read_scalar(c, root, "", p, s, &given);
        if (rc != PQPAN_OK) {
            return rc;
        }
        if (strcmp(s->key, "cpu_tx_ua") == 0) {
            given_tx = given;
        } else if (strcmp(s->key, "cpu_rx_ua") == 0) {
            given_rx = given;
        }
    }
    if (given_tx != given_rx) {
        return fail(c, "cpu_tx_ua/cpu_rx_ua", "give both CPU + radio figures or neither");
    }
    p->cpu_radio_given = (uint8_t)given_tx;
    return PQPAN_OK;
}

static int read_text(const struct ctx *c, const cJSON *root, const char *key, char *out,
                     size_t outlen, int required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, key);
    if (v == NULL && !required) {
        return PQPAN_OK;
    }
    if (!cJSON_IsString(v) || (required && v->valuestring[0] == '\0')) {
        return fail(c, key, "missing or not a string");
    }
    if (strlen(v->valuestring) >= outlen) {
        return fail(c, key, "too long");
    }
    strcpy(out, v->valuestring);
    return PQPAN_OK;
}

static int read_rx(const struct ctx *c, const cJSON *rx, int t, struct pqpan_profile *p)
{
    char path[96];
    int m;
    if (!cJSON_IsObject(rx)) {
        snprintf(path, sizeof path, "currents.%s.rx_ua", table_keys[t]);
        return fail(c, path, "missing or not an object");
    }
    if (cJSON_GetObjectItemCaseSensitive(rx, mode_keys[PQPAN_RADIO_IEEE802154]) != NULL) {
        snprintf(path, sizeof path, "currents.%s.rx_ua.ieee802154", table_keys[t]);
        return fail(c, path, "moved: the 802.15.4 RX current is ieee802154.rx_ua.<table>");
    }
    for (m = 0; m < PQPAN_RADIO_IEEE802154; m++) {
        int given, rc;
        snprintf(path, sizeof path, "currents.%s.rx_ua.%s", table_keys[t], mode_keys[m]);
        rc = read_sourced(c, cJSON_GetObjectItemCaseSensitive(rx, mode_keys[m]), path, 1,
                          &p->rx_ua[t][m], &given);
        if (rc == PQPAN_OK && given) {
            rc = current_ok(c, path, p->rx_ua[t][m]);
        }
        if (rc != PQPAN_OK) {
            return rc;
        }
        p->rx_given[t][m] = (uint8_t)given;
    }
    return PQPAN_OK;
}

/* Where one list of TX levels is stored: the BLE levels or the 802.15.4 ones. */
struct levels {
    size_t *count;
    int32_t *dbm;
    double (*ua)[PQPAN_PROFILE_TX_LEVELS_MAX];
    uint8_t (*given)[PQPAN_PROFILE_TX_LEVELS_MAX];
    char (*sources)[PQPAN_PROFILE_TX_LEVELS_MAX][PQPAN_IO_SOURCE_MAX]; /* NULL: not kept */
};

/* The index of TX level dbm in l, added if new; -1 if the list has no room left. */
static int tx_level_index(const struct levels *l, int32_t dbm)
{
    size_t i;
    for (i = 0; i < *l->count; i++) {
        if (l->dbm[i] == dbm) {
            return (int)i;
        }
    }
    if (*l->count >= PQPAN_PROFILE_TX_LEVELS_MAX) {
        return -1;
    }
    l->dbm[*l->count] = dbm;
    return (int)(*l->count)++;
}

static int read_tx_entry(const struct ctx *c, const cJSON *e, const char *path, int t,
                         const struct levels *l)
{
    const cJSON *dbm = cJSON_GetObjectItemCaseSensitive(e, "dbm");
    char src[PQPAN_IO_SOURCE_MAX];
    double x;
    int given, idx, rc;
    if (!cJSON_IsNumber(dbm) || floor(dbm->valuedouble) != dbm->valuedouble ||
        dbm->valuedouble < -100.0 || dbm->valuedouble > 40.0) {
        return fail(c, path, "\"dbm\" missing or not an integer in -100..40");
    }
    rc = read_sourced_keep(c, e, path, 1, &x, &given, src);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (given && current_ok(c, path, x) != PQPAN_OK) {
        return PQPAN_ERR_MALFORMED;
    }
    idx = tx_level_index(l, (int32_t)dbm->valuedouble);
    if (idx < 0) {
        return fail(c, path, "too many TX power levels");
    }
    if (l->given[t][idx]) {
        return fail(c, path, "TX level listed twice");
    }
    l->ua[t][idx] = x;
    l->given[t][idx] = (uint8_t)given;
    if (l->sources != NULL) {
        keep_source(l->sources[t][idx], src);
    }
    return PQPAN_OK;
}

/* tx is the array at path (e.g. "currents.system.tx_ua"), table t. */
static int read_tx(const struct ctx *c, const cJSON *tx, const char *where, int t,
                   const struct levels *l)
{
    char path[96];
    const cJSON *e;
    int i = 0;
    if (!cJSON_IsArray(tx)) {
        return fail(c, where, "missing or not an array");
    }
    cJSON_ArrayForEach(e, tx)
    {
        int rc;
        snprintf(path, sizeof path, "%s[%d]", where, i++);
        rc = read_tx_entry(c, e, path, t, l);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return PQPAN_OK;
}

static int read_currents(const struct ctx *c, const cJSON *root, struct pqpan_profile *p)
{
    const cJSON *cur = cJSON_GetObjectItemCaseSensitive(root, "currents");
    const struct levels ble = {&p->tx_level_count, p->tx_dbm, p->tx_ua, p->tx_given, NULL};
    int t;
    if (!cJSON_IsObject(cur)) {
        return fail(c, "currents", "missing or not an object");
    }
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        const cJSON *tab = cJSON_GetObjectItemCaseSensitive(cur, table_keys[t]);
        char path[64];
        int rc;
        snprintf(path, sizeof path, "currents.%s", table_keys[t]);
        if (!cJSON_IsObject(tab)) {
            return fail(c, path, "missing or not an object");
        }
        rc = read_rx(c, cJSON_GetObjectItemCaseSensitive(tab, "rx_ua"), t, p);
        if (rc == PQPAN_OK) {
            snprintf(path, sizeof path, "currents.%s.tx_ua", table_keys[t]);
            rc = read_tx(c, cJSON_GetObjectItemCaseSensitive(tab, "tx_ua"), path, t, &ble);
        }
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return PQPAN_OK;
}

/* ---- the "ble_event" section ---- */

/* ble_event.ramp_ua.<table>: the radio start-up current per current table (null: not
 * given; a BLE run on that table is then an error). */
static int read_ble_event_ramp(const struct ctx *c, const cJSON *sec,
                               struct pqpan_profile_ble_event *e)
{
    const cJSON *ramp = cJSON_GetObjectItemCaseSensitive(sec, "ramp_ua");
    int t;
    if (!cJSON_IsObject(ramp) || cJSON_GetObjectItemCaseSensitive(ramp, "source") != NULL) {
        return fail(c, "ble_event.ramp_ua", "missing or not an object {\"system\": ..., "
                                            "\"radio_only\": ...}");
    }
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        char path[96];
        int given, rc;
        snprintf(path, sizeof path, "ble_event.ramp_ua.%s", table_keys[t]);
        rc = read_sourced(c, cJSON_GetObjectItemCaseSensitive(ramp, table_keys[t]), path, 1,
                          &e->ramp_ua[t], &given);
        if (rc == PQPAN_OK && given) {
            rc = current_ok(c, path, e->ramp_ua[t]);
        }
        if (rc != PQPAN_OK) {
            return rc;
        }
        e->ramp_given[t] = (uint8_t)given;
    }
    return PQPAN_OK;
}

static int read_ble_event(const struct ctx *c, const cJSON *root, struct pqpan_profile *p)
{
    static const char *const other_members[] = {"description", "ramp_ua"};
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(root, "ble_event");
    const cJSON *item;
    size_t i;
    if (!cJSON_IsObject(sec)) {
        return fail(c, "ble_event", "missing or not an object (the connection-event phases: "
                                    "pre_us, pre_ua, post_us, post_ua, ramp_ua, rx_margin_us)");
    }
    cJSON_ArrayForEach(item, sec)
    {
        int known = listed(item->string, other_members, 2);
        for (i = 0; i < sizeof ble_event_scalars / sizeof ble_event_scalars[0]; i++) {
            known |= strcmp(item->string, ble_event_scalars[i].key) == 0;
        }
        if (!known) {
            char path[96];
            snprintf(path, sizeof path, "ble_event.%.60s", item->string);
            return fail(c, path, "unknown field");
        }
    }
    for (i = 0; i < sizeof ble_event_scalars / sizeof ble_event_scalars[0]; i++) {
        int given;
        int rc = read_scalar(c, sec, "ble_event.", p, &ble_event_scalars[i], &given);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return read_ble_event_ramp(c, sec, &p->ble_event);
}

/* ---- the "supply" section (optional) ---- */

#define SUPPLY "supply"

/* {"value": "dcdc" | "ldo", "source": "..."} → *dcdc (1 for "dcdc"). */
static int read_regulator(const struct ctx *c, const cJSON *sec, const char *key, uint8_t *dcdc)
{
    char path[64];
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(sec, key), *v;
    snprintf(path, sizeof path, SUPPLY ".%s", key);
    if (source_of(c, obj, path) == NULL) {
        return PQPAN_ERR_MALFORMED;
    }
    v = cJSON_GetObjectItemCaseSensitive(obj, "value");
    if (!cJSON_IsString(v) ||
        (strcmp(v->valuestring, "dcdc") != 0 && strcmp(v->valuestring, "ldo") != 0)) {
        return fail(c, path, "\"value\" must be \"dcdc\" (the current scales as 1/V: the same "
                             "power) or \"ldo\" (the same current at any supply)");
    }
    *dcdc = strcmp(v->valuestring, "dcdc") == 0;
    return PQPAN_OK;
}

/* supply.min_v / max_v: a voltage in the plausible range. */
static int read_volt(const struct ctx *c, const cJSON *sec, const char *key, double *v)
{
    char path[64];
    int given, rc;
    snprintf(path, sizeof path, SUPPLY ".%s", key);
    rc = read_sourced(c, cJSON_GetObjectItemCaseSensitive(sec, key), path, 0, v, &given);
    return rc != PQPAN_OK ? rc : plausible(c, path, *v, VOLT_MIN, VOLT_MAX, "V");
}

/* One point {"kb": K, "value": uA, "source": ...} of supply.sleep_ram_ua. */
static int read_ram_point(const struct ctx *c, const cJSON *e, const char *path,
                          struct pqpan_profile_supply *s)
{
    const cJSON *kb = cJSON_GetObjectItemCaseSensitive(e, "kb");
    size_t n = s->ram_points;
    int given, rc;
    if (!cJSON_IsNumber(kb) || !(kb->valuedouble >= 0.0 && kb->valuedouble <= 1e6)) {
        return fail(c, path, "\"kb\" missing or not a number in 0..1000000");
    }
    if (n >= PQPAN_PROFILE_RAM_POINTS_MAX) {
        return fail(c, path, "too many retention points");
    }
    if (n > 0 && !(kb->valuedouble > s->ram_kb[n - 1])) {
        return fail(c, path, "\"kb\" must rise from one point to the next");
    }
    rc = read_sourced(c, e, path, 0, &s->ram_sleep_ua[n], &given);
    if (rc == PQPAN_OK) {
        rc = current_ok(c, path, s->ram_sleep_ua[n]);
    }
    if (rc == PQPAN_OK) {
        s->ram_kb[n] = kb->valuedouble;
        s->ram_points = n + 1;
    }
    return rc;
}

static int read_ram_table(const struct ctx *c, const cJSON *sec, struct pqpan_profile_supply *s)
{
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(sec, "sleep_ram_ua"), *e;
    int i = 0;
    if (list == NULL) {
        return PQPAN_OK;
    }
    if (!cJSON_IsArray(list)) {
        return fail(c, SUPPLY ".sleep_ram_ua", "not an array of {\"kb\", \"value\", \"source\"}");
    }
    cJSON_ArrayForEach(e, list)
    {
        char path[64];
        int rc;
        snprintf(path, sizeof path, SUPPLY ".sleep_ram_ua[%d]", i++);
        rc = read_ram_point(c, e, path, s);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return PQPAN_OK;
}

static int read_supply(const struct ctx *c, const cJSON *root, struct pqpan_profile *p)
{
    static const char *const keys[] = {"description", "min_v",  "max_v",
                                       "active",      "sleep", "sleep_ram_ua"};
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(root, SUPPLY), *item;
    struct pqpan_profile_supply *s = &p->supply;
    int rc;
    if (sec == NULL) {
        return PQPAN_OK;
    }
    if (!cJSON_IsObject(sec)) {
        return fail(c, SUPPLY, "not an object (min_v, max_v, active, sleep, sleep_ram_ua)");
    }
    cJSON_ArrayForEach(item, sec)
    {
        if (!listed(item->string, keys, sizeof keys / sizeof keys[0])) {
            char path[96];
            snprintf(path, sizeof path, SUPPLY ".%.60s", item->string);
            return fail(c, path, "unknown field");
        }
    }
    rc = read_volt(c, sec, "min_v", &s->min_v);
    if (rc == PQPAN_OK) {
        rc = read_volt(c, sec, "max_v", &s->max_v);
    }
    if (rc == PQPAN_OK && !(s->min_v <= p->supply_v && p->supply_v <= s->max_v)) {
        rc = fail(c, SUPPLY, "supply_v must lie in min_v..max_v");
    }
    if (rc == PQPAN_OK) {
        rc = read_regulator(c, sec, "active", &s->active_dcdc);
    }
    if (rc == PQPAN_OK) {
        rc = read_regulator(c, sec, "sleep", &s->sleep_dcdc);
    }
    if (rc == PQPAN_OK) {
        rc = read_ram_table(c, sec, s);
    }
    s->given = rc == PQPAN_OK;
    return rc;
}

/* ---- the "ieee802154" section ---- */

#define SECTION "ieee802154"

static const char *const section_keys[] = {"description", "rx_ua",   "tx_ua",
                                            "ramp_tx_fast_us", "ramp_tx_normal_us", "idle",
                                            "backoff", "wake_cpu_us"};

static int section_keys_known(const struct ctx *c, const cJSON *sec)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, sec)
    {
        char path[96];
        if (!listed(item->string, section_keys, sizeof section_keys / sizeof section_keys[0])) {
            snprintf(path, sizeof path, SECTION ".%s", item->string);
            return fail(c, path, "unknown field");
        }
    }
    return PQPAN_OK;
}

/* ieee802154.rx_ua.<table> for every table. */
static int read_section_rx(const struct ctx *c, const cJSON *sec, struct pqpan_profile *p,
                           struct pqpan_io_802154_sources *src)
{
    const cJSON *rx = cJSON_GetObjectItemCaseSensitive(sec, "rx_ua");
    int t;
    if (!cJSON_IsObject(rx)) {
        return fail(c, SECTION ".rx_ua", "missing or not an object {\"system\": ..., "
                                         "\"radio_only\": ...}");
    }
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        char path[96];
        double *ua = &p->rx_ua[t][PQPAN_RADIO_IEEE802154];
        int given, rc;
        snprintf(path, sizeof path, SECTION ".rx_ua.%s", table_keys[t]);
        rc = read_sourced_keep(c, cJSON_GetObjectItemCaseSensitive(rx, table_keys[t]), path, 1,
                               ua, &given, src != NULL ? src->rx[t] : NULL);
        if (rc == PQPAN_OK && given) {
            rc = current_ok(c, path, *ua);
        }
        if (rc != PQPAN_OK) {
            return rc;
        }
        p->rx_given[t][PQPAN_RADIO_IEEE802154] = (uint8_t)given;
    }
    return PQPAN_OK;
}

/* ieee802154.tx_ua.<table>: a list of {"dbm", "value", "source"}. */
static int read_section_tx(const struct ctx *c, const cJSON *sec, struct pqpan_profile *p,
                           struct pqpan_io_802154_sources *src)
{
    struct pqpan_profile_802154 *s = &p->ieee802154;
    const struct levels l = {&s->tx_level_count, s->tx_dbm, s->tx_ua, s->tx_given,
                             src != NULL ? src->tx : NULL};
    const cJSON *tx = cJSON_GetObjectItemCaseSensitive(sec, "tx_ua");
    int t;
    if (!cJSON_IsObject(tx)) {
        return fail(c, SECTION ".tx_ua", "missing or not an object {\"system\": [...], "
                                         "\"radio_only\": [...]}");
    }
    for (t = 0; t < PQPAN_CURRENT_TABLE_COUNT; t++) {
        char path[96];
        int rc;
        snprintf(path, sizeof path, SECTION ".tx_ua.%s", table_keys[t]);
        rc = read_tx(c, cJSON_GetObjectItemCaseSensitive(tx, table_keys[t]), path, t, &l);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    return PQPAN_OK;
}

/* A time in µs (null: not given, *given 0) into ns: in (0, 100000] µs, or [0, 100000]
 * with zero_ok. */
static int read_section_us(const struct ctx *c, const cJSON *sec, const char *key, int zero_ok,
                           uint32_t *ns, int *given, char *keep)
{
    char path[96];
    double us;
    int rc;
    snprintf(path, sizeof path, SECTION ".%s", key);
    rc = read_sourced_keep(c, cJSON_GetObjectItemCaseSensitive(sec, key), path, 1, &us, given,
                           keep);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (*given && ((zero_ok ? us < 0.0 : us <= 0.0) || us > 100000.0)) {
        return fail(c, path, zero_ok ? "\"value\" must be in [0, 100000] us"
                                     : "\"value\" must be in (0, 100000] us");
    }
    *ns = *given ? (uint32_t)llround(us * 1000.0) : 0u;
    return PQPAN_OK;
}

/* A ramp-up time in µs (null: not given, 0 in the struct) into ns. */
static int read_section_ramp(const struct ctx *c, const cJSON *sec, const char *key,
                             uint32_t *ns, char *keep)
{
    int given;
    return read_section_us(c, sec, key, 0, ns, &given, keep);
}

/* {"value": "rx" | "sleep", "source": "..."} → *rx (1 for "rx"). */
static int read_section_state(const struct ctx *c, const cJSON *sec, const char *key,
                              uint8_t *rx, char *keep)
{
    char path[96];
    const cJSON *obj = cJSON_GetObjectItemCaseSensitive(sec, key), *v;
    const char *src;
    snprintf(path, sizeof path, SECTION ".%s", key);
    src = source_of(c, obj, path);
    if (src == NULL) {
        return PQPAN_ERR_MALFORMED;
    }
    v = cJSON_GetObjectItemCaseSensitive(obj, "value");
    if (!cJSON_IsString(v) || (strcmp(v->valuestring, "rx") != 0 &&
                               strcmp(v->valuestring, "sleep") != 0)) {
        return fail(c, path, "\"value\" must be \"rx\" (the radio listens) or \"sleep\" "
                             "(the radio is off)");
    }
    *rx = strcmp(v->valuestring, "rx") == 0;
    keep_source(keep, src);
    return PQPAN_OK;
}

static int read_section(const struct ctx *c, const cJSON *root, struct pqpan_profile *p,
                        struct pqpan_io_802154_sources *src)
{
    const cJSON *sec = cJSON_GetObjectItemCaseSensitive(root, SECTION);
    struct pqpan_profile_802154 *s = &p->ieee802154;
    int rc;
    if (!cJSON_IsObject(sec)) {
        return fail(c, SECTION, "missing or not an object (the IEEE 802.15.4 radio figures: "
                                "rx_ua, tx_ua, ramp_tx_fast_us, ramp_tx_normal_us, idle, backoff, "
                                "wake_cpu_us)");
    }
    rc = section_keys_known(c, sec);
    if (rc == PQPAN_OK) {
        rc = read_section_rx(c, sec, p, src);
    }
    if (rc == PQPAN_OK) {
        rc = read_section_tx(c, sec, p, src);
    }
    if (rc == PQPAN_OK) {
        rc = read_section_ramp(c, sec, "ramp_tx_fast_us", &s->ramp_tx_fast_ns,
                               src != NULL ? src->ramp_tx_fast : NULL);
    }
    if (rc == PQPAN_OK) {
        rc = read_section_ramp(c, sec, "ramp_tx_normal_us", &s->ramp_tx_normal_ns,
                               src != NULL ? src->ramp_tx_normal : NULL);
    }
    if (rc == PQPAN_OK) {
        rc = read_section_state(c, sec, "idle", &s->idle_rx, src != NULL ? src->idle : NULL);
    }
    if (rc == PQPAN_OK) {
        rc = read_section_state(c, sec, "backoff", &s->backoff_rx,
                                src != NULL ? src->backoff : NULL);
    }
    if (rc == PQPAN_OK) {
        int given;
        rc = read_section_us(c, sec, "wake_cpu_us", 1, &s->wake_cpu_ns, &given,
                             src != NULL ? src->wake_cpu : NULL);
        s->wake_cpu_given = (uint8_t)given;
    }
    return rc;
}

static int read_header(const struct ctx *c, const cJSON *root, struct pqpan_profile *p)
{
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *item;
    int rc;
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, PROFILE_FORMAT) != 0) {
        return fail(c, "format", "missing or not \"" PROFILE_FORMAT "\"");
    }
    cJSON_ArrayForEach(item, root)
    {
        if (!known_key(item->string)) {
            return fail(c, item->string, "unknown field");
        }
    }
    rc = read_text(c, root, "name", p->name, sizeof p->name, 1);
    if (rc == PQPAN_OK) {
        rc = read_text(c, root, "description", p->description, sizeof p->description, 0);
    }
    if (rc == PQPAN_OK) {
        char sheet[256];
        rc = read_text(c, root, "datasheet", sheet, sizeof sheet, 0);
    }
    return rc;
}

int pqpan_io_profile_parse(struct pqpan_profile *p, struct pqpan_io_802154_sources *src,
                           const char *text, size_t len, const char *origin, char *err,
                           size_t errlen)
{
    const struct ctx c = {origin, err, errlen};
    cJSON *root;
    int rc;
    if (p == NULL || text == NULL || origin == NULL || (err == NULL && errlen > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(p, 0, sizeof *p);
    if (src != NULL) {
        memset(src, 0, sizeof *src);
    }
    rc = pqpan_io_json_numbers_check(text, len, origin, err, errlen);
    if (rc != PQPAN_OK) {
        return rc;
    }
    root = cJSON_ParseWithLength(text, len);
    if (root == NULL || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return fail(&c, "(file)", "not a JSON object");
    }
    rc = read_header(&c, root, p);
    if (rc == PQPAN_OK) {
        rc = read_scalars(&c, root, p);
    }
    if (rc == PQPAN_OK) {
        rc = read_ble_event(&c, root, p);
    }
    if (rc == PQPAN_OK) {
        rc = read_currents(&c, root, p);
    }
    if (rc == PQPAN_OK) {
        rc = read_section(&c, root, p, src);
    }
    if (rc == PQPAN_OK) {
        rc = read_supply(&c, root, p);
    }
    if (rc == PQPAN_OK && pqpan_profile_check(p) != PQPAN_OK) {
        rc = fail(&c, "currents", "needs at least one TX level and one RX mode with a value");
    }
    cJSON_Delete(root);
    if (rc != PQPAN_OK) {
        memset(p, 0, sizeof *p);
        if (src != NULL) {
            memset(src, 0, sizeof *src);
        }
    }
    return rc;
}
