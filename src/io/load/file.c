/* Reading whole files (include/pqpan/io.h): regular files, pipes, character devices and
 * standard input, with a size cap checked before a regular file is read. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pqpan/io.h"

void pqpan_io_text_free(struct pqpan_io_text *t)
{
    if (t != NULL) {
        free(t->owned);
        memset(t, 0, sizeof *t);
    }
}

static int too_large(const char *path, size_t max, char *err, size_t errlen)
{
    snprintf(err, errlen, "%s: larger than %zu bytes: not read", path, max);
    return PQPAN_ERR_IO;
}

/* Reads all of f into out->owned (NUL-terminated), at most max bytes, a pipe's size as it
 * comes (the buffer grows by doubling, so at most twice max is ever allocated). */
static int read_stream(struct pqpan_io_text *out, FILE *f, const char *path, size_t max,
                       char *err, size_t errlen)
{
    size_t cap = 0, len = 0;
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t next = cap == 0 ? 65536u : 2u * cap;
            char *p;
            if (cap > max) {
                return too_large(path, max, err, errlen);
            }
            p = realloc(out->owned, next + 1);
            if (p == NULL) {
                snprintf(err, errlen, "%s: out of memory", path);
                return PQPAN_ERR_IO;
            }
            out->owned = p;
            cap = next;
        }
        got = fread(out->owned + len, 1, cap - len, f);
        len += got;
        if (len > max) {
            return too_large(path, max, err, errlen);
        }
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return PQPAN_ERR_IO;
    }
    out->owned[len] = '\0';
    out->text = out->owned;
    out->len = len;
    return PQPAN_OK;
}

int pqpan_io_read_file(struct pqpan_io_text *out, const char *path, size_t max, char *err,
                       size_t errlen)
{
    int from_stdin;
    struct stat st;
    FILE *f;
    int rc;
    if (out == NULL || path == NULL || (err == NULL && errlen > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    from_stdin = strcmp(path, "-") == 0;
    if (!from_stdin && stat(path, &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            snprintf(err, errlen, "%s: is a directory", path);
            return PQPAN_ERR_IO;
        }
        if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
            return too_large(path, max, err, errlen);
        }
    }
    f = from_stdin ? stdin : fopen(path, "rb");
    if (f == NULL) {
        snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return PQPAN_ERR_IO;
    }
    rc = read_stream(out, f, from_stdin ? "(stdin)" : path, max, err, errlen);
    if (!from_stdin) {
        fclose(f);
    }
    if (rc != PQPAN_OK) {
        pqpan_io_text_free(out);
        return rc;
    }
    snprintf(out->origin, sizeof out->origin, "%s", from_stdin ? "(stdin)" : path);
    return PQPAN_OK;
}
