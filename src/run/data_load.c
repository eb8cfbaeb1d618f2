/* The energy commands' data inputs through libpqpan-io (cli/data_load.h). */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "run_text.h"
#include "data_load.h"
#include "pqpan/defaults.h"

int data_exit_code(int io_rc)
{
    switch (io_rc) {
    case PQPAN_OK:
        return EXIT_OK;
    case PQPAN_ERR_NOT_FOUND:
        return EXIT_USAGE;
    case PQPAN_ERR_IO:
        return EXIT_IO;
    default:
        return EXIT_BAD_INPUT;
    }
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
 * PQPAN_IO_DERIVED_MAX, so every output can name each one it uses). */
static int load_profile_derived(struct data_energy_inputs *in, const char *name_or_path,
                                char *err, size_t errlen)
{
    struct pqpan_io_text t;
    int rc = pqpan_io_profile_text(&t, name_or_path, err, errlen);
    if (rc == PQPAN_OK) {
        rc = pqpan_io_profile_parse(&in->profile, &in->src802154, t.text, t.len, t.origin, err,
                                    errlen);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_io_profile_derived(&in->derived, t.text, t.len, t.origin, err, errlen);
    }
    pqpan_io_text_free(&t);
    return data_exit_code(rc);
}

int data_energy_inputs_load(struct data_energy_inputs *in, const char *profile,
                            const char *calibration, const char *crypto_impl, char *err,
                            size_t errlen)
{
    const char *impl =
        crypto_impl != NULL ? crypto_impl : pqpan_default_value(PQPAN_DEFAULT_CRYPTO_IMPL);
    int rc;
    memset(in, 0, sizeof *in);
    if (profile == NULL) {
        profile = pqpan_default_value(PQPAN_DEFAULT_PROFILE);
    }
    rc = load_profile_derived(in, profile, err, errlen);
    pqpan_gamma_default(&in->gamma);
    if (rc == EXIT_OK && calibration != NULL) {
        rc = data_exit_code(pqpan_io_gamma_load(&in->gamma, calibration, err, errlen));
        snprintf(in->calibration, sizeof in->calibration, "%s", calibration);
    }
    if (rc == EXIT_OK) {
        rc = data_exit_code(pqpan_io_cycles_load_builtin(&in->cycles, err, errlen));
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
