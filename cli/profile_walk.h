/* Walks the figures of a profile document (format "pqpan-profile/1") in file order: every
 * {"value", "source"[, "derived"]} object, with a dotted path ("currents.system.rx_ua.ble_1m",
 * TX levels as "currents.system.tx_ua.0dbm"). Shared by `pqpan profiles` (every figure and
 * its source) and the energy commands (which derived figures a result used). */
#ifndef PQPAN_CLI_PROFILE_WALK_H
#define PQPAN_CLI_PROFILE_WALK_H

#include <stddef.h>

struct cJSON;

#define PROFILE_PATH_MAX 96

struct profile_figure {
    char path[PROFILE_PATH_MAX];
    int given;           /* a number was given (value not null) */
    double value;
    const char *text;    /* a string value (ieee802154.idle, .backoff: "rx", "sleep"), else NULL */
    const char *source;
    const char *derived; /* how a derived figure is computed, else NULL */
};

typedef void (*profile_figure_fn)(const struct profile_figure *f, void *ctx);

void profile_walk(const struct cJSON *doc, profile_figure_fn fn, void *ctx);

/* The derived figures of a profile: path, value and how each is computed (the text of its
 * "derived" member, truncated to PROFILE_DERIVED_TEXT - 1 characters). */
#define PROFILE_DERIVED_MAX 32
#define PROFILE_DERIVED_TEXT 512

struct profile_derived {
    char path[PROFILE_PATH_MAX];
    double value;
    char how[PROFILE_DERIVED_TEXT];
};

struct profile_derived_list {
    size_t count;
    struct profile_derived item[PROFILE_DERIVED_MAX];
};

/* Fills *out from a profile document's text (one the loader accepted). Derived figures
 * past PROFILE_DERIVED_MAX are left out and counted in *dropped. */
void profile_derived_collect(struct profile_derived_list *out, size_t *dropped, const char *text,
                             size_t len);

#endif
