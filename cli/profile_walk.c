/* Profile document walker (profile_walk.h). */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "profile_walk.h"

static void walk(const cJSON *node, const char *path, profile_figure_fn fn, void *ctx);

static void visit_figure(const cJSON *node, const char *path, profile_figure_fn fn, void *ctx)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(node, "value");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(node, "source");
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(node, "derived");
    struct profile_figure f;
    snprintf(f.path, sizeof f.path, "%s", path);
    f.given = cJSON_IsNumber(v);
    f.value = f.given ? v->valuedouble : 0.0;
    f.text = cJSON_IsString(v) ? v->valuestring : NULL;
    f.source = cJSON_IsString(s) ? s->valuestring : "";
    f.derived = cJSON_IsString(d) ? d->valuestring : NULL;
    fn(&f, ctx);
}

static void visit_levels(const cJSON *node, const char *path, profile_figure_fn fn, void *ctx)
{
    const cJSON *e;
    cJSON_ArrayForEach(e, node)
    {
        const cJSON *dbm = cJSON_GetObjectItemCaseSensitive(e, "dbm");
        char sub[PROFILE_PATH_MAX];
        int n = snprintf(sub, sizeof sub, "%s.%ddbm", path,
                         cJSON_IsNumber(dbm) ? dbm->valueint : 0);
        if (n > 0 && (size_t)n < sizeof sub) { /* longer paths exist in no valid profile */
            visit_figure(e, sub, fn, ctx);
        }
    }
}

static void walk(const cJSON *node, const char *path, profile_figure_fn fn, void *ctx)
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
        char sub[PROFILE_PATH_MAX];
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

void profile_walk(const cJSON *doc, profile_figure_fn fn, void *ctx)
{
    walk(doc, "", fn, ctx);
}

struct collect {
    struct profile_derived_list *list;
    size_t *dropped;
};

static void collect_one(const struct profile_figure *f, void *vctx)
{
    struct collect *c = vctx;
    struct profile_derived *d;
    if (f->derived == NULL) {
        return;
    }
    if (c->list->count == PROFILE_DERIVED_MAX) {
        ++*c->dropped;
        return;
    }
    d = &c->list->item[c->list->count++];
    snprintf(d->path, sizeof d->path, "%s", f->path);
    d->value = f->value;
    snprintf(d->how, sizeof d->how, "%s", f->derived);
}

void profile_derived_collect(struct profile_derived_list *out, size_t *dropped, const char *text,
                             size_t len)
{
    cJSON *doc = cJSON_ParseWithLength(text, len);
    struct collect c;
    memset(out, 0, sizeof *out);
    *dropped = 0;
    c.list = out;
    c.dropped = dropped;
    profile_walk(doc, collect_one, &c);
    cJSON_Delete(doc);
}
