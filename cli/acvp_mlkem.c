/* `pqpan acvp` for ML-KEM (FIPS 203): keyGen and encapDecap (encapsulation,
 * decapsulation, encapsulationKeyCheck, decapsulationKeyCheck). */
#include <string.h>

#include "acvp.h"
#include "cli.h"
#include "pqpan/kem.h"

/* Enough for every ACVP ML-KEM field, including over-long keys in the key-check groups. */
#define FIELD_CAP (2 * PQPAN_KEM_DK_MAX_BYTES)

/* The buffers of one test case (static: a few KiB each, reused). */
static struct {
    uint8_t a[FIELD_CAP], b[FIELD_CAP], out1[FIELD_CAP], out2[FIELD_CAP];
} bf;

static int lib_failed(const struct acvp_ctx *x, int ret, const char *op)
{
    return acvp_error(x, pqpan_strerror(ret), op);
}

/* The group's parameter set; NULL with a message when unknown. */
static const struct pqpan_kem *group_kem(const struct acvp_ctx *x, const cJSON *g)
{
    const char *param = acvp_field(g, g, "parameterSet");
    const struct pqpan_kem *kem = param != NULL ? pqpan_kem_by_name(param) : NULL;
    if (kem == NULL) {
        acvp_error(x, "unknown parameterSet", param != NULL ? param : "(missing)");
    }
    return kem;
}

int acvp_mlkem_keygen(const struct acvp_ctx *x, const cJSON *g, const cJSON *t, cJSON *res)
{
    const struct pqpan_kem *kem = group_kem(x, g);
    int rc = kem != NULL ? acvp_hex_field(x, bf.a, 32, 32, NULL, t, g, "d") : EXIT_BAD_INPUT;
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.b, 32, 32, NULL, t, g, "z");
    }
    if (rc == EXIT_OK) {
        int ret = kem->keypair_derand(bf.out1, bf.out2, bf.a, bf.b);
        if (ret != PQPAN_OK) {
            return lib_failed(x, ret, "keyGen");
        }
        if (acvp_add_hex(res, "ek", bf.out1, kem->ek_bytes) != 0 ||
            acvp_add_hex(res, "dk", bf.out2, kem->dk_bytes) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

static int run_encaps(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                      const cJSON *t, cJSON *res)
{
    int rc = acvp_hex_field(x, bf.a, FIELD_CAP, kem->ek_bytes, NULL, t, g, "ek");
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.b, 32, 32, NULL, t, g, "m");
    }
    if (rc == EXIT_OK) {
        int ret = kem->encaps_derand(bf.out1, bf.out2, bf.a, bf.b);
        if (ret != PQPAN_OK) {
            return lib_failed(x, ret, "encapsulation");
        }
        if (acvp_add_hex(res, "c", bf.out1, kem->ct_bytes) != 0 ||
            acvp_add_hex(res, "k", bf.out2, PQPAN_MLKEM_SS_BYTES) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

static int run_decaps(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                      const cJSON *t, cJSON *res)
{
    int rc = acvp_hex_field(x, bf.a, FIELD_CAP, kem->dk_bytes, NULL, t, g, "dk");
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.b, FIELD_CAP, kem->ct_bytes, NULL, t, g, "c");
    }
    if (rc == EXIT_OK) {
        int ret = kem->decaps(bf.out1, bf.b, bf.a);
        if (ret != PQPAN_OK) {
            return lib_failed(x, ret, "decapsulation");
        }
        if (acvp_add_hex(res, "k", bf.out1, PQPAN_MLKEM_SS_BYTES) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

/* encapsulationKeyCheck / decapsulationKeyCheck: the FIPS 203 §7.2 / §7.3 checks,
 * including the length (type) check, so keys of any length are accepted as input. */
static int run_key_check(const struct acvp_ctx *x, const struct pqpan_kem *kem, const cJSON *g,
                         const cJSON *t, cJSON *res, int is_ek)
{
    size_t len = 0;
    int rc = acvp_hex_field(x, bf.a, FIELD_CAP, 0, &len, t, g, is_ek ? "ek" : "dk");
    if (rc == EXIT_OK) {
        int ok = (is_ek ? kem->check_ek(bf.a, len) : kem->check_dk(bf.a, len)) == PQPAN_OK;
        if (cJSON_AddBoolToObject(res, "testPassed", ok) == NULL) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

int acvp_mlkem_encap_decap(const struct acvp_ctx *x, const cJSON *g, const cJSON *t, cJSON *res)
{
    const struct pqpan_kem *kem = group_kem(x, g);
    const char *fn = acvp_field(g, g, "function");
    if (kem == NULL) {
        return EXIT_BAD_INPUT;
    }
    if (fn == NULL) {
        return acvp_error(x, "missing group field", "function");
    }
    if (strcmp(fn, "encapsulation") == 0) {
        return run_encaps(x, kem, g, t, res);
    }
    if (strcmp(fn, "decapsulation") == 0) {
        return run_decaps(x, kem, g, t, res);
    }
    if (strcmp(fn, "encapsulationKeyCheck") == 0 || strcmp(fn, "decapsulationKeyCheck") == 0) {
        return run_key_check(x, kem, g, t, res, fn[0] == 'e');
    }
    return acvp_error(x, "unknown function", fn);
}
