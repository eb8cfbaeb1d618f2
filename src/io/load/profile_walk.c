/* Walking the figures of a profile document (include/pqpan/io.h). */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "pqpan/io.h"

static void walk(const cJSON *node, const char *path, pqpan_io_figure_fn fn, void *ctx);

static void visit_figure(const cJSON *node, const char *path, pqpan_io_figure_fn fn, void *ctx)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(node, "value");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(node, "source");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(node, "derived");
    const cJSON *o = cJSON_GetObjectItemCaseSensitive(node, "other_chip");
    struct pqpan_io_figure f;
    snprintf(f.path, sizeof f.path, "%s", path);
    f.given = cJSON_IsNumber(v);
    f.value = f.given ? v->valuedouble : 0.0;
    f.text = cJSON_IsString(v) ? v->valuestring : NULL;
    f.source = cJSON_IsString(s) ? s->valuestring : "";
    f.derived = cJSON_IsString(d) ? d->valuestring : NULL;
    f.other_chip = cJSON_IsString(o) ? o->valuestring : NULL;
    fn(&f, ctx);
}

/* A list of figures: TX levels (path.NNdbm) or retention points (path.NNkb). */
static void visit_levels(const cJSON *node, const char *path, pqpan_io_figure_fn fn, void *ctx)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, node)
    {
        const cJSON *dbm = cJSON_GetObjectItemCaseSensitive(e, "dbm");
        const cJSON *kb = cJSON_GetObjectItemCaseSensitive(e, "kb");
        char sub[PQPAN_IO_PROFILE_PATH_MAX];
        int n = cJSON_IsNumber(kb) ? snprintf(sub, sizeof sub, "%s.%gkb", path, kb->valuedouble)
                                   : snprintf(sub, sizeof sub, "%s.%ddbm", path,
                                              cJSON_IsNumber(dbm) ? dbm->valueint : 0);
        if (n > 0 && (size_t)n < sizeof sub) { /* longer paths exist in no valid profile */
            visit_figure(e, sub, fn, ctx);
        }
    }
}

static void walk(const cJSON *node, const char *path, pqpan_io_figure_fn fn, void *ctx)
{
    const cJSON *child;
    if (cJSON_IsObject(node) && cJSON_GetObjectItemCaseSensitive(node, "source") != NULL) {
        visit_figure(node, path, fn, ctx);
        return;
    }
    if (cJSON_IsArray(node)) {
        visit_levels(node, path, fn, ctx);
        return;
    }
    cJSON_ArrayForEach(child, node)
    {
        char sub[PQPAN_IO_PROFILE_PATH_MAX];
        int n;
        if (!cJSON_IsObject(child) && !cJSON_IsArray(child)) {
            continue;
        }
        n = snprintf(sub, sizeof sub, "%s%s%s", path, path[0] ? "." : "", child->string);
        if (n > 0 && (size_t)n < sizeof sub) { /* longer paths exist in no valid profile */
            walk(child, sub, fn, ctx);
        }
    }
}

int pqpan_io_profile_walk(const char *text, size_t len, pqpan_io_figure_fn fn, void *ctx)
{
    cJSON *doc;
    if (text == NULL || fn == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    doc = cJSON_ParseWithLength(text, len);
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return PQPAN_ERR_MALFORMED;
    }
    walk(doc, "", fn, ctx);
    cJSON_Delete(doc);
    return PQPAN_OK;
}

struct collect {
    struct pqpan_io_derived_list *list;
    size_t dropped;
};

static void collect_one(const struct pqpan_io_figure *f, void *vctx)
{
    struct collect *c = vctx;
    struct pqpan_io_derived *d;
    if (f->derived == NULL && f->other_chip == NULL) {
        return;
    }
    if (c->list->count == PQPAN_IO_DERIVED_MAX) {
        c->dropped++;
        return;
    }
    d = &c->list->item[c->list->count++];
    snprintf(d->path, sizeof d->path, "%s", f->path);
    d->value = f->value;
    snprintf(d->how, sizeof d->how, "%s", f->derived != NULL ? f->derived : "");
    snprintf(d->other_chip, sizeof d->other_chip, "%s", f->other_chip != NULL ? f->other_chip : "");
}

int pqpan_io_profile_derived(struct pqpan_io_derived_list *out, const char *text, size_t len,
                             const char *origin, char *err, size_t errlen)
{
    struct collect c;
    int rc;
    if (out == NULL || text == NULL || origin == NULL || (err == NULL && errlen > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    c.list = out;
    c.dropped = 0;
    rc = pqpan_io_profile_walk(text, len, collect_one, &c);
    if (rc != PQPAN_OK) {
        snprintf(err, errlen, "%s: (file): not a JSON object", origin);
    } else if (c.dropped > 0) {
        snprintf(err, errlen, "%s: more than %d derived figures", origin, PQPAN_IO_DERIVED_MAX);
        rc = PQPAN_ERR_CAPACITY;
    }
    if (rc != PQPAN_OK) {
        memset(out, 0, sizeof *out);
    }
    return rc;
}
