/* Calibration overlay files (format "pqpan-calibration/1", docs/MODEL.md "Calibration file
 * format"): γ_comp per operation and γ_comm, with the provenance of the fit. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "number.h"
#include "pqpan/io.h"

#define CALIBRATION_FORMAT "pqpan-calibration/1"

static int fail(char *err, size_t errlen, const char *origin, const char *field,
                const char *problem)
{
    snprintf(err, errlen, "%s: %s: %s", origin, field, problem);
    return PQPAN_ERR_MALFORMED;
}

/* The bounds of --gamma-comp / --gamma-comm: a file cannot give what the CLI refuses. */
static int gamma_number(const cJSON *v, double *out)
{
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < PQPAN_IO_GAMMA_MIN ||
        v->valuedouble > PQPAN_IO_GAMMA_MAX) {
        return 0;
    }
    *out = v->valuedouble;
    return 1;
}

static int op_by_name(const char *name)
{
    int op;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        if (strcmp(name, pqpan_op_name((enum pqpan_op)op)) == 0) {
            return op;
        }
    }
    return -1;
}

static int check_keys(const cJSON *root, char *err, size_t errlen, const char *origin)
{
    static const char *const keys[] = {"format", "gamma_comp", "gamma_comm", "provenance"};
    const cJSON *item;
    cJSON_ArrayForEach(item, root)
    {
        size_t i;
        int known = 0;
        for (i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            known |= strcmp(item->string, keys[i]) == 0;
        }
        if (!known) {
            return fail(err, errlen, origin, item->string, "unknown field");
        }
    }
    return PQPAN_OK;
}

static int read_comp(struct pqpan_gamma *g, const cJSON *comp, char *err, size_t errlen,
                     const char *origin)
{
    const cJSON *item;
    char path[96];
    if (!cJSON_IsObject(comp)) {
        return fail(err, errlen, origin, "gamma_comp", "not an object {\"kem_keygen\": 1.3, ...}");
    }
    cJSON_ArrayForEach(item, comp)
    {
        int op = op_by_name(item->string);
        snprintf(path, sizeof path, "gamma_comp.%s", item->string);
        if (op < 0) {
            return fail(err, errlen, origin, path,
                        "unknown operation (kem_keygen, kem_encaps, kem_decaps, kdf, "
                        "ecdh_keygen, ecdh_shared, sig_keygen, sig_sign, sig_verify)");
        }
        if (!gamma_number(item, &g->comp[op])) {
            return fail(err, errlen, origin, path, "not a number in 0.01..100 (the range of --gamma-comp / --gamma-comm)");
        }
    }
    return PQPAN_OK;
}

static int read_all(struct pqpan_gamma *g, const cJSON *root, char *err, size_t errlen,
                    const char *origin)
{
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    const cJSON *comp = cJSON_GetObjectItemCaseSensitive(root, "gamma_comp");
    const cJSON *comm = cJSON_GetObjectItemCaseSensitive(root, "gamma_comm");
    const cJSON *prov = cJSON_GetObjectItemCaseSensitive(root, "provenance");
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(prov, "source");
    int rc;
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, CALIBRATION_FORMAT) != 0) {
        return fail(err, errlen, origin, "format", "missing or not \"" CALIBRATION_FORMAT "\"");
    }
    rc = check_keys(root, err, errlen, origin);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (!cJSON_IsObject(prov) || !cJSON_IsString(src) || src->valuestring[0] == '\0') {
        return fail(err, errlen, origin, "provenance.source",
                    "missing: say where the γ values come from");
    }
    if (comp == NULL && comm == NULL) {
        return fail(err, errlen, origin, "gamma_comp/gamma_comm", "neither is given");
    }
    if (comp != NULL) {
        rc = read_comp(g, comp, err, errlen, origin);
        if (rc != PQPAN_OK) {
            return rc;
        }
    }
    if (comm != NULL && !gamma_number(comm, &g->comm)) {
        return fail(err, errlen, origin, "gamma_comm", "not a number in 0.01..100 (the range of --gamma-comp / --gamma-comm)");
    }
    return PQPAN_OK;
}

int pqpan_io_gamma_parse(struct pqpan_gamma *g, const char *text, size_t len, const char *origin,
                         char *err, size_t errlen)
{
    struct pqpan_gamma work;
    cJSON *root;
    int rc;
    if (g == NULL || text == NULL || origin == NULL || (err == NULL && errlen > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    work = *g;
    rc = pqpan_io_json_numbers_check(text, len, origin, err, errlen);
    if (rc != PQPAN_OK) {
        memset(g, 0, sizeof *g);
        return rc;
    }
    root = cJSON_ParseWithLength(text, len);
    if (root == NULL || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        memset(g, 0, sizeof *g);
        return fail(err, errlen, origin, "(file)", "not a JSON object");
    }
    rc = read_all(&work, root, err, errlen, origin);
    cJSON_Delete(root);
    if (rc != PQPAN_OK) {
        memset(g, 0, sizeof *g);
        return rc;
    }
    *g = work;
    return PQPAN_OK;
}
