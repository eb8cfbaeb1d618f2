/* `pqpan acvp` for ML-DSA (FIPS 204): keyGen, sigGen and sigVer.
 *
 * sigGen and sigVer groups name the signature interface in later ACVP revisions
 * ("signatureInterface": "internal" or "external", with "preHash" and "externalMu"); a
 * group without it is the internal interface (Alg. 7 / 8 on M' = message), as in the
 * FIPS204 vector sets of tests/vectors/acvp. External groups take the test's "context"
 * (Alg. 2 / 3). Pre-hashed (HashML-DSA) and external-mu groups are refused: pqpan does
 * not implement them. Only AFT groups run (GDT would ask for a fresh key pair). */
#include <string.h>

#include "acvp.h"
#include "cli.h"
#include "pqpan/sig.h"

/* Messages up to 64 KiB (the ACVP ML-DSA messages are at most 8 KiB). */
#define MSG_CAP 65536

static struct {
    uint8_t pk[PQPAN_SIG_PK_MAX_BYTES], sk[PQPAN_SIG_SK_MAX_BYTES];
    uint8_t sig[PQPAN_SIG_SIG_MAX_BYTES + 256], msg[MSG_CAP], ctx[PQPAN_MLDSA_CTX_MAX_BYTES + 1];
} bf;

/* The group's parameter set; NULL with a message when unknown. */
static const struct pqpan_sig *group_sig(const struct acvp_ctx *x, const cJSON *g)
{
    const char *param = acvp_field(g, g, "parameterSet");
    const struct pqpan_sig *sig = param != NULL ? pqpan_sig_by_name(param) : NULL;
    if (sig == NULL) {
        acvp_error(x, "unknown parameterSet", param != NULL ? param : "(missing)");
    }
    return sig;
}

int acvp_mldsa_keygen(const struct acvp_ctx *x, const cJSON *g, const cJSON *t, cJSON *res)
{
    const struct pqpan_sig *sig = group_sig(x, g);
    uint8_t seed[PQPAN_MLDSA_SEED_BYTES];
    int rc = sig != NULL ? acvp_hex_field(x, seed, 32, 32, NULL, t, g, "seed") : EXIT_BAD_INPUT;
    if (rc == EXIT_OK) {
        const int ret = sig->keypair_derand(bf.pk, bf.sk, seed);
        if (ret != PQPAN_OK) {
            return acvp_error(x, pqpan_strerror(ret), "keyGen");
        }
        if (acvp_add_hex(res, "pk", bf.pk, sig->pk_bytes) != 0 ||
            acvp_add_hex(res, "sk", bf.sk, sig->sk_bytes) != 0) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}

/* A signature interface of a sigGen / sigVer group: internal, or external with the
 * test's context. EXIT_BAD_INPUT with a message for what pqpan does not implement. */
struct interface {
    int external;
    size_t ctx_len;
};

static int group_interface(const struct acvp_ctx *x, const cJSON *g, const cJSON *t,
                           struct interface *in)
{
    const char *iface = acvp_field(g, g, "signatureInterface");
    const char *pre = acvp_field(g, g, "preHash");
    const cJSON *mu = cJSON_GetObjectItemCaseSensitive(g, "externalMu");
    const char *test_type = acvp_field(g, g, "testType");
    in->external = 0;
    in->ctx_len = 0;
    if (test_type != NULL && strcmp(test_type, "AFT") != 0) {
        return acvp_error(x, "not implemented: testType", test_type);
    }
    if (cJSON_IsTrue(mu)) {
        return acvp_error(x, "not implemented: externalMu", "true");
    }
    if (pre != NULL && strcmp(pre, "pure") != 0) {
        return acvp_error(x, "not implemented (HashML-DSA): preHash", pre);
    }
    if (iface == NULL || strcmp(iface, "internal") == 0) {
        return EXIT_OK;
    }
    if (strcmp(iface, "external") != 0) {
        return acvp_error(x, "unknown signatureInterface", iface);
    }
    in->external = 1;
    return acvp_field(t, g, "context") == NULL
               ? EXIT_OK
               : acvp_hex_field(x, bf.ctx, PQPAN_MLDSA_CTX_MAX_BYTES, 0, &in->ctx_len, t, g,
                                "context");
}

int acvp_mldsa_siggen(const struct acvp_ctx *x, const cJSON *g, const cJSON *t, cJSON *res)
{
    const struct pqpan_sig *sig = group_sig(x, g);
    const cJSON *det = cJSON_GetObjectItemCaseSensitive(g, "deterministic");
    uint8_t rnd[PQPAN_MLDSA_RND_BYTES] = {0};
    struct interface in;
    size_t msg_len = 0;
    int rc, ret;
    if (sig == NULL) {
        return EXIT_BAD_INPUT;
    }
    if (!cJSON_IsBool(det)) {
        return acvp_error(x, "missing boolean group field", "deterministic");
    }
    rc = group_interface(x, g, t, &in);
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.sk, sig->sk_bytes, sig->sk_bytes, NULL, t, g, "sk");
    }
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.msg, MSG_CAP, 0, &msg_len, t, g, "message");
    }
    if (rc == EXIT_OK && cJSON_IsFalse(det)) { /* FIPS 204 §3.4: rnd = 0 when deterministic */
        rc = acvp_hex_field(x, rnd, sizeof rnd, sizeof rnd, NULL, t, g, "rnd");
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    ret = in.external ? sig->sign_derand(bf.sig, bf.sk, bf.msg, msg_len, bf.ctx, in.ctx_len, rnd)
                      : sig->sign_internal(bf.sig, bf.sk, bf.msg, msg_len, rnd);
    if (ret != PQPAN_OK) {
        return acvp_error(x, pqpan_strerror(ret), "sigGen");
    }
    return acvp_add_hex(res, "signature", bf.sig, sig->sig_bytes) == 0 ? EXIT_OK
                                                                       : EXIT_FAILURE_RUN;
}

/* testPassed is true exactly when verification accepts; a signature of the wrong length or
 * malformed encoding is a failed test, not an error of the file. */
int acvp_mldsa_sigver(const struct acvp_ctx *x, const cJSON *g, const cJSON *t, cJSON *res)
{
    const struct pqpan_sig *sig = group_sig(x, g);
    struct interface in;
    size_t msg_len = 0, sig_len = 0;
    int rc = sig != NULL ? group_interface(x, g, t, &in) : EXIT_BAD_INPUT;
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.pk, sig->pk_bytes, sig->pk_bytes, NULL, t, g, "pk");
    }
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.msg, MSG_CAP, 0, &msg_len, t, g, "message");
    }
    if (rc == EXIT_OK) {
        rc = acvp_hex_field(x, bf.sig, sizeof bf.sig, 0, &sig_len, t, g, "signature");
    }
    if (rc == EXIT_OK) {
        const int ret = in.external ? sig->verify(bf.pk, bf.msg, msg_len, bf.ctx, in.ctx_len,
                                                  bf.sig, sig_len)
                                    : sig->verify_internal(bf.pk, bf.msg, msg_len, bf.sig, sig_len);
        if (cJSON_AddBoolToObject(res, "testPassed", ret == PQPAN_OK) == NULL) {
            return EXIT_FAILURE_RUN;
        }
    }
    return rc;
}
