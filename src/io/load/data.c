/* The built-in data files (data/profiles/, data/cycles/, compiled in: embedded.h) and the
 * loaders that find a profile by name or path (include/pqpan/io.h). */
#include <stdio.h>
#include <string.h>

#include "embedded.h"
#include "pqpan/io.h"

#define PROFILE_DIR "data/profiles/"
#define PROFILE_EXT ".json"
#define CYCLES_DIR "data/cycles/"

static int has_prefix_suffix(const char *s, const char *prefix, const char *suffix)
{
    size_t n = strlen(s), np = strlen(prefix), ns = strlen(suffix);
    return n > np + ns && strncmp(s, prefix, np) == 0 && strcmp(s + n - ns, suffix) == 0;
}

static int bad_args(const void *out, const char *name, const char *err, size_t errlen)
{
    return out == NULL || name == NULL || (err == NULL && errlen > 0);
}

static const struct pqpan_embedded_file *builtin_profile(size_t index)
{
    const struct pqpan_embedded_file *e;
    size_t seen = 0;
    for (e = pqpan_embedded_files; e->path != NULL; e++) {
        if (has_prefix_suffix(e->path, PROFILE_DIR, PROFILE_EXT)) {
            if (seen == index) {
                return e;
            }
            seen++;
        }
    }
    return NULL;
}

size_t pqpan_io_profile_builtin_count(void)
{
    size_t n = 0;
    while (builtin_profile(n) != NULL) {
        n++;
    }
    return n;
}

const char *pqpan_io_profile_builtin_name(size_t i, char *buf, size_t buflen)
{
    const struct pqpan_embedded_file *e = builtin_profile(i);
    size_t n;
    if (e == NULL || buf == NULL) {
        return NULL;
    }
    n = strlen(e->path) - strlen(PROFILE_DIR) - strlen(PROFILE_EXT);
    if (n >= buflen) {
        return NULL;
    }
    memcpy(buf, e->path + strlen(PROFILE_DIR), n);
    buf[n] = '\0';
    return buf;
}

/* The built-in profile called name, or NULL. */
static const struct pqpan_embedded_file *builtin_by_name(const char *name)
{
    char each[64];
    size_t i;
    for (i = 0; builtin_profile(i) != NULL; i++) {
        const char *n = pqpan_io_profile_builtin_name(i, each, sizeof each);
        if (n != NULL && strcmp(n, name) == 0) {
            return builtin_profile(i);
        }
    }
    return NULL;
}

/* "PREFIX'name'WHAT (built-in profiles: a, b, c)" into err; PQPAN_ERR_NOT_FOUND. */
static int not_found(const char *name, const char *what, char *err, size_t errlen)
{
    char each[64];
    size_t i, used;
    if (errlen == 0) {
        return PQPAN_ERR_NOT_FOUND;
    }
    snprintf(err, errlen, "no built-in profile '%s'%s (built-in profiles: ", name, what);
    for (i = 0; builtin_profile(i) != NULL; i++) {
        used = strlen(err);
        snprintf(err + used, errlen - used, "%s%s", i ? ", " : "",
                 pqpan_io_profile_builtin_name(i, each, sizeof each));
    }
    used = strlen(err);
    snprintf(err + used, errlen - used, ")");
    return PQPAN_ERR_NOT_FOUND;
}

static int builtin_text(struct pqpan_io_text *out, const char *name, const char *what,
                        char *err, size_t errlen)
{
    const struct pqpan_embedded_file *e = builtin_by_name(name);
    memset(out, 0, sizeof *out);
    if (e == NULL) {
        return not_found(name, what, err, errlen);
    }
    out->text = (const char *)e->bytes;
    out->len = e->len;
    snprintf(out->origin, sizeof out->origin, "%s (built in)", e->path);
    return PQPAN_OK;
}

static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    FILE *f;
    if (strcmp(s, "-") == 0 || strchr(s, '/') != NULL ||
        (n > 5 && strcmp(s + n - 5, PROFILE_EXT) == 0)) {
        return 1;
    }
    f = fopen(s, "rb");
    if (f != NULL) {
        fclose(f);
        return 1;
    }
    return 0;
}

int pqpan_io_profile_text(struct pqpan_io_text *out, const char *name_or_path, char *err,
                          size_t errlen)
{
    if (bad_args(out, name_or_path, err, errlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (looks_like_path(name_or_path)) {
        return pqpan_io_read_file(out, name_or_path, PQPAN_IO_SMALL_FILE_MAX, err, errlen);
    }
    return builtin_text(out, name_or_path, " and no such file", err, errlen);
}

/* Parses t (when rc says it was read) and frees it. */
static int parse_text(struct pqpan_profile *p, struct pqpan_io_802154_sources *src,
                      struct pqpan_io_text *t, int rc, char *err, size_t errlen)
{
    if (rc == PQPAN_OK) {
        rc = pqpan_io_profile_parse(p, src, t->text, t->len, t->origin, err, errlen);
    }
    pqpan_io_text_free(t);
    return rc;
}

/* Zeroes the outputs of a profile load before it starts. */
static void clear_profile(struct pqpan_profile *p, struct pqpan_io_802154_sources *src)
{
    memset(p, 0, sizeof *p);
    if (src != NULL) {
        memset(src, 0, sizeof *src);
    }
}

int pqpan_io_profile_load(struct pqpan_profile *p, struct pqpan_io_802154_sources *src,
                          const char *name_or_path, char *err, size_t errlen)
{
    struct pqpan_io_text t;
    if (bad_args(p, name_or_path, err, errlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    clear_profile(p, src);
    return parse_text(p, src, &t, pqpan_io_profile_text(&t, name_or_path, err, errlen), err,
                      errlen);
}

int pqpan_io_profile_load_file(struct pqpan_profile *p, struct pqpan_io_802154_sources *src,
                               const char *path, char *err, size_t errlen)
{
    struct pqpan_io_text t;
    if (bad_args(p, path, err, errlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    clear_profile(p, src);
    return parse_text(p, src, &t,
                      pqpan_io_read_file(&t, path, PQPAN_IO_SMALL_FILE_MAX, err, errlen), err,
                      errlen);
}

int pqpan_io_profile_load_builtin(struct pqpan_profile *p, struct pqpan_io_802154_sources *src,
                                  const char *name, char *err, size_t errlen)
{
    struct pqpan_io_text t;
    if (bad_args(p, name, err, errlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    clear_profile(p, src);
    return parse_text(p, src, &t, builtin_text(&t, name, "", err, errlen), err, errlen);
}

int pqpan_io_gamma_load(struct pqpan_gamma *g, const char *path, char *err, size_t errlen)
{
    struct pqpan_io_text t;
    int rc;
    if (bad_args(g, path, err, errlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_io_read_file(&t, path, PQPAN_IO_SMALL_FILE_MAX, err, errlen);
    if (rc == PQPAN_OK) {
        rc = pqpan_io_gamma_parse(g, t.text, t.len, t.origin, err, errlen);
    } else {
        memset(g, 0, sizeof *g);
    }
    pqpan_io_text_free(&t);
    return rc;
}

int pqpan_io_cycles_load(struct pqpan_cycle_table *t, const char *path, char *err,
                         size_t errlen)
{
    struct pqpan_io_text text;
    int rc;
    if (bad_args(t, path, err, errlen)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    rc = pqpan_io_read_file(&text, path, PQPAN_IO_FILE_MAX, err, errlen);
    if (rc == PQPAN_OK) {
        rc = pqpan_io_cycles_parse(t, text.text, text.len, text.origin, err, errlen);
    }
    pqpan_io_text_free(&text);
    return rc;
}

/* A data/cycles/ CSV whose header names a cycles column (pqc_sizes.csv, for one, does not). */
static int is_cycles_csv(const struct pqpan_embedded_file *e)
{
    const char *text = (const char *)e->bytes;
    const char *nl;
    const char *hit;
    if (!has_prefix_suffix(e->path, CYCLES_DIR, ".csv")) {
        return 0;
    }
    nl = memchr(text, '\n', e->len);
    hit = strstr(text, ",cycles");
    return nl != NULL && hit != NULL && hit < nl;
}

int pqpan_io_cycles_load_builtin(struct pqpan_cycle_table *t, char *err, size_t errlen)
{
    const struct pqpan_embedded_file *e;
    if (t == NULL || (err == NULL && errlen > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(t, 0, sizeof *t);
    for (e = pqpan_embedded_files; e->path != NULL; e++) {
        if (is_cycles_csv(e)) {
            char origin[256];
            int rc;
            snprintf(origin, sizeof origin, "%s (built in)", e->path);
            rc = pqpan_io_cycles_parse(t, (const char *)e->bytes, e->len, origin, err, errlen);
            if (rc != PQPAN_OK) {
                memset(t, 0, sizeof *t);
                return rc;
            }
        }
    }
    return PQPAN_OK;
}
