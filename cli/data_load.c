/* Finding data files: the built-ins compiled into the CLI and users' own files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "data_load.h"
#include "embedded.h"

#define PROFILE_DIR "data/profiles/"
#define PROFILE_EXT ".json"

void data_text_free(struct data_text *t)
{
    free(t->owned);
    memset(t, 0, sizeof *t);
}

/* Reads all of f into out->owned (NUL-terminated), at most max bytes: a regular file's
 * size is checked before anything is read, a pipe's as it comes. */
static int read_stream(struct data_text *out, FILE *f, const char *path, size_t max, char *err,
                       size_t errlen)
{
    size_t cap = 0, len = 0;
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t next = cap == 0 ? 65536u : 2u * cap;
            char *p;
            if (cap > max) {
                snprintf(err, errlen, "%s: larger than %zu bytes: not read", path, max);
                return EXIT_IO;
            }
            p = realloc(out->owned, next + 1);
            if (p == NULL) {
                snprintf(err, errlen, "%s: out of memory", path);
                return EXIT_IO;
            }
            out->owned = p;
            cap = next;
        }
        got = fread(out->owned + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            snprintf(err, errlen, "%s: larger than %zu bytes: not read", path, max);
            return EXIT_IO;
        }
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return EXIT_IO;
    }
    out->owned[len] = '\0';
    out->text = out->owned;
    out->len = len;
    return EXIT_OK;
}

int data_read_file_max(struct data_text *out, const char *path, size_t max, char *err,
                       size_t errlen)
{
    int from_stdin = strcmp(path, "-") == 0;
    struct stat st;
    FILE *f;
    int rc;
    memset(out, 0, sizeof *out);
    if (!from_stdin && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: is a directory", path);
            return EXIT_IO;
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
            snprintf(err, errlen, "%s: larger than %zu bytes: not read", path, max);
            return EXIT_IO;
        }
    }
    f = from_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return EXIT_IO;
    }
    rc = read_stream(out, f, from_stdin ? "(stdin)" : path, max, err, errlen);
    if (!from_stdin) {
        fclose(f);
    }
    if (rc != EXIT_OK) {
        data_text_free(out);
        return rc;
    }
    snprintf(out->origin, sizeof out->origin, "%s", from_stdin ? "(stdin)" : path);
    return EXIT_OK;
}

int data_read_file(struct data_text *out, const char *path, char *err, size_t errlen)
{
    return data_read_file_max(out, path, DATA_FILE_MAX, err, errlen);
}

static int has_prefix_suffix(const char *s, const char *prefix, const char *suffix)
{
    size_t n = strlen(s), np = strlen(prefix), ns = strlen(suffix);
    return n > np + ns && strncmp(s, prefix, np) == 0 && strcmp(s + n - ns, suffix) == 0;
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

size_t data_profile_builtin_count(void)
{
    size_t n = 0;
    while (builtin_profile(n) != NULL) {
        n++;
    }
    return n;
}

const char *data_profile_builtin_name(size_t i, char *buf, size_t buflen)
{
    const struct pqpan_embedded_file *e = builtin_profile(i);
    size_t n;
    if (e == NULL || buflen == 0) {
        return NULL;
    }
    n = strlen(e->path) - strlen(PROFILE_DIR) - strlen(PROFILE_EXT);
    if (n >= buflen) {
        n = buflen - 1;
    }
    memcpy(buf, e->path + strlen(PROFILE_DIR), n);
    buf[n] = '\0';
    return buf;
}

static int looks_like_path(const char *s)
{
    size_t n = strlen(s);
    FILE *f;
    if (strcmp(s, "-") == 0 || strchr(s, '/') != NULL ||
        (n > 5 && strcmp(s + n - 5, ".json") == 0)) {
        return 1;
    }
    f = fopen(s, "rb");
    if (f != NULL) {
        fclose(f);
        return 1;
    }
    return 0;
}

int data_profile_text(struct data_text *out, const char *name_or_path, char *err, size_t errlen)
{
    char name[64];
    size_t i, count;
    memset(out, 0, sizeof *out);
    if (looks_like_path(name_or_path)) {
        return data_read_file_max(out, name_or_path, DATA_SMALL_FILE_MAX, err, errlen);
    }
    count = data_profile_builtin_count();
    for (i = 0; i < count; i++) {
        const struct pqpan_embedded_file *e = builtin_profile(i);
        if (strcmp(data_profile_builtin_name(i, name, sizeof name), name_or_path) == 0) {
            out->text = (const char *)e->bytes;
            out->len = e->len;
            snprintf(out->origin, sizeof out->origin, "%s (built in)", e->path);
            return EXIT_OK;
        }
    }
    snprintf(err, errlen, "no built-in profile '%s' and no such file (built-in profiles: ",
             name_or_path);
    for (i = 0; i < count; i++) {
        size_t used = strlen(err);
        snprintf(err + used, errlen - used, "%s%s", i ? ", " : "",
                 data_profile_builtin_name(i, name, sizeof name));
    }
    if (strlen(err) + 1 < errlen) {
        strcat(err, ")");
    }
    return EXIT_USAGE;
}

int data_profile_load_sourced(struct pqpan_profile *p, struct data_802154_sources *src,
                              const char *name_or_path, char *err, size_t errlen)
{
    struct data_text t;
    int rc;
    memset(p, 0, sizeof *p);
    rc = data_profile_text(&t, name_or_path, err, errlen);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = data_profile_parse_sourced(p, src, t.text, t.len, t.origin, err, errlen);
    data_text_free(&t);
    return rc;
}

int data_profile_load(struct pqpan_profile *p, const char *name_or_path, char *err, size_t errlen)
{
    return data_profile_load_sourced(p, NULL, name_or_path, err, errlen);
}

int data_gamma_load(struct pqpan_gamma *g, const char *path, char *err, size_t errlen)
{
    struct data_text t;
    int rc = data_read_file_max(&t, path, DATA_SMALL_FILE_MAX, err, errlen);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = data_gamma_parse(g, t.text, t.len, t.origin, err, errlen);
    data_text_free(&t);
    return rc;
}

/* A data/cycles/ CSV whose header names a cycles column (pqc_sizes.csv, for one, does not). */
static int is_cycles_csv(const struct pqpan_embedded_file *e)
{
    const char *text = (const char *)e->bytes;
    const char *nl;
    const char *hit;
    if (!has_prefix_suffix(e->path, "data/cycles/", ".csv")) {
        return 0;
    }
    nl = memchr(text, '\n', e->len);
    hit = strstr(text, ",cycles");
    return nl != NULL && hit != NULL && hit < nl;
}

int data_cycles_load_builtin(struct pqpan_cycle_table *t, char *err, size_t errlen)
{
    const struct pqpan_embedded_file *e;
    memset(t, 0, sizeof *t);
    for (e = pqpan_embedded_files; e->path != NULL; e++) {
        if (is_cycles_csv(e)) {
            char origin[256];
            int rc;
            snprintf(origin, sizeof origin, "%s (built in)", e->path);
            rc = data_cycles_parse(t, (const char *)e->bytes, e->len, origin, err, errlen);
            if (rc != EXIT_OK) {
                memset(t, 0, sizeof *t);
                return rc;
            }
        }
    }
    return EXIT_OK;
}

/* 1 if some ML-KEM row of t has implementation impl. */
static int kem_impl_known(const struct pqpan_cycle_table *t, const char *impl)
{
    size_t i;
    for (i = 0; i < t->count; i++) {
        if (t->rows[i].op == PQPAN_OP_KEM_KEYGEN && strcasecmp(t->rows[i].impl, impl) == 0) {
            return 1;
        }
    }
    return 0;
}

/* The implementations of t's ML-KEM rows, each once, joined with ", " into buf. */
static const char *kem_impls(char buf[CLI_WORDS_MAX], const struct pqpan_cycle_table *t)
{
    size_t i, j, len = 0;
    buf[0] = '\0';
    for (i = 0; i < t->count; i++) {
        const char *impl = t->rows[i].impl;
        int seen = t->rows[i].op != PQPAN_OP_KEM_KEYGEN;
        for (j = 0; j < i && !seen; j++) {
            seen = t->rows[j].op == PQPAN_OP_KEM_KEYGEN && strcasecmp(t->rows[j].impl, impl) == 0;
        }
        if (!seen && len + strlen(impl) + 3u < CLI_WORDS_MAX) {
            len += (size_t)snprintf(buf + len, CLI_WORDS_MAX - len, "%s%s", len > 0 ? ", " : "",
                                    impl);
        }
    }
    return buf;
}

/* The profile, its ieee802154 sources and its derived figures (at most
 * PROFILE_DERIVED_MAX, so every output can name each one it uses). */
static int load_profile_derived(struct data_energy_inputs *in, const char *name_or_path,
                                char *err, size_t errlen)
{
    struct data_text t;
    size_t dropped;
    int rc = data_profile_text(&t, name_or_path, err, errlen);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = data_profile_parse_sourced(&in->profile, &in->src802154, t.text, t.len, t.origin, err,
                                    errlen);
    if (rc == EXIT_OK) {
        profile_derived_collect(&in->derived, &dropped, t.text, t.len);
        if (dropped > 0) {
            snprintf(err, errlen, "%s: more than %d derived figures", t.origin,
                     PROFILE_DERIVED_MAX);
            rc = EXIT_BAD_INPUT;
        }
    }
    data_text_free(&t);
    return rc;
}

int data_energy_inputs_load(struct data_energy_inputs *in, const char *profile,
                            const char *calibration, const char *crypto_impl, char *err,
                            size_t errlen)
{
    const char *impl = crypto_impl != NULL ? crypto_impl : DATA_DEFAULT_CRYPTO_IMPL;
    int rc;
    memset(in, 0, sizeof *in);
    rc = load_profile_derived(in, profile != NULL ? profile : DATA_DEFAULT_PROFILE, err, errlen);
    pqpan_gamma_default(&in->gamma);
    if (rc == EXIT_OK && calibration != NULL) {
        rc = data_gamma_load(&in->gamma, calibration, err, errlen);
        snprintf(in->calibration, sizeof in->calibration, "%s", calibration);
    }
    if (rc == EXIT_OK) {
        rc = data_cycles_load_builtin(&in->cycles, err, errlen);
    }
    if (rc == EXIT_OK && (strlen(impl) >= sizeof in->crypto_impl ||
                          !kem_impl_known(&in->cycles, impl))) {
        char known[CLI_WORDS_MAX];
        snprintf(err, errlen, "--crypto-impl %s: no ML-KEM cycle rows for it in data/cycles/ "
                              "(want %s)",
                 impl, kem_impls(known, &in->cycles));
        rc = EXIT_USAGE;
    }
    if (rc != EXIT_OK) {
        memset(in, 0, sizeof *in);
        return rc;
    }
    strcpy(in->crypto_impl, impl);
    return EXIT_OK;
}
