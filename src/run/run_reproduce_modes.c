/* The per-mode table of `pqpan reproduce` (see reproduce_modes.h; from cli/reproduce_modes.c,
 * the rows now the run's, the printing the CLI's). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/sig.h"

#include "reproduce_modes.h"

static const char *const side_names[MODES_SIDES] = {"peripheral", "central"};

/* Every mode, none first (the table's reference), then the same with --hybrid p256. */
static void list_modes(struct modes_table *t)
{
    unsigned m;
    int h;
    t->n_modes = 0;
    for (h = 0; h < 2; h++) {
        t->mode[t->n_modes] = PQPAN_PQKE_MODE_NONE;
        t->hybrid[t->n_modes++] = h;
        for (m = 1; pqpan_pqke_mode_name(m) != NULL && t->n_modes < MODES_MAX; m++) {
            if (m != PQPAN_PQKE_MODE_NONE) {
                t->mode[t->n_modes] = m;
                t->hybrid[t->n_modes++] = h;
            }
        }
    }
}

/* The ML-DSA set's name of variant m at level k ("" outside the sig modes). */
static const char *sig_name(const struct modes_table *t, unsigned m, const char *kem)
{
    unsigned sig = model_pqke_sig(t->mode[m], 0, kem);
    return sig != 0 ? pqpan_sig_by_id((enum pqpan_sig_id)sig)->name : "";
}

static const char *protocol_of(const struct modes_table *t, unsigned m, const char *kem)
{
    return model_protocol_name(t->mode[m], model_pqke_sig(t->mode[m], 0, kem), t->hybrid[m]);
}

/* pqpan's protocol in mode (with the P-256 hybrid suite when hybrid is 1) on the study
 * preset at LL octets ll, bits T_IFS rule ifs. An exit code, the message in *msg. */
static int run_mode(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                    enum pqpan_ble_bits_ifs ifs, const char *level, unsigned ll, unsigned mode,
                    int hybrid, struct cli_msg *msg)
{
    struct pqpan_ble_config cfg;
    pqpan_ble_config_default(&cfg);
    cfg.ll_octets = ll;
    cfg.bits_ifs = ifs;
    cfg.protocol = PQPAN_BLE_PROTO_PQPAN;
    cfg.pqke_mode = mode;
    cfg.pqke_hybrid = hybrid;
    return model_run(rows, env, level, &cfg, 0, msg);
}

int modes_run(struct modes_table *t, const struct model_env *env, enum pqpan_ble_bits_ifs ifs,
              const char *const levels[MODES_LEVELS], const unsigned ll_of_dle[MODES_DLE],
              const struct pqpan_run_exchange_row (*lesc)[MODEL_SIDES], struct cli_msg *msg)
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    unsigned k, d, m, s;
    memset(t, 0, sizeof *t);
    list_modes(t);
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < t->n_modes; m++) {
                struct modes_cell *c = &t->cell[k][d][m];
                int rc = run_mode(rows, env, ifs, levels[k], ll_of_dle[d], t->mode[m],
                                  t->hybrid[m], msg);
                if (rc != EXIT_OK) {
                    return rc;
                }
                for (s = 0; s < MODES_SIDES; s++) {
                    c->uj[s] = rows[s].e_total_uj;
                    c->vs_none[s] = c->uj[s] / t->cell[k][d][0].uj[s];
                    c->vs_lesc[s] = c->uj[s] / lesc[d][s].e_total_uj;
                }
            }
        }
    }
    return EXIT_OK;
}

void modes_print_intro(FILE *f)
{
    fprintf(f, "\nper PQKE mode (pqpan protocol on the study preset, bits accounting; sig modes with\n"
               "ML-DSA-44/65/87 at ML-KEM-512/768/1024; +p256: the P-256 hybrid suite; x none: the\n"
               "side's energy over mode none's, x LESC: over LE SC pairing's at the same DLE setting)\n");
}

size_t modes_rows(struct pqpan_run_mode_row *out, const struct modes_table *t,
                  const char *const levels[MODES_LEVELS], const char *reading)
{
    unsigned k, d, m, s;
    size_t n = 0;
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < t->n_modes; m++) {
                for (s = 0; s < MODES_SIDES; s++) {
                    const struct modes_cell *c = &t->cell[k][d][m];
                    struct pqpan_run_mode_row *w = &out[n++];
                    w->reading = reading;
                    w->kem = levels[k];
                    w->dle = d;
                    w->mode = pqpan_pqke_mode_name(t->mode[m]);
                    w->sig = sig_name(t, m, levels[k]);
                    w->hybrid = t->hybrid[m];
                    w->protocol = protocol_of(t, m, levels[k]);
                    w->side = side_names[s];
                    w->e_total_uj = c->uj[s];
                    w->x_none = c->vs_none[s];
                    w->x_lesc = c->vs_lesc[s];
                }
            }
        }
    }
    return n;
}

/* ---- the sig modes in both Cortex-M4 builds ---- */

/* The builds' rows in data/cycles/pqpan_m4.csv (docs/M4.md): both -O2 with the assembly
 * backend, small and speed ML-DSA / P-256. */
static const char *const build_impl[MODES_BUILDS] = {"pqpan-m4-asm-o2", "pqpan-m4-speed-o2"};
static const char *const build_name[MODES_BUILDS] = {"small", "speed"};
static const unsigned sig_modes[MODES_SIG_MODES] = {PQPAN_PQKE_MODE_SIG,
                                                    PQPAN_PQKE_MODE_SIG_MUTUAL};

static int builds_run_impl(struct modes_builds *b, const struct model_env *env, unsigned build,
                           enum pqpan_ble_bits_ifs ifs, const char *const levels[MODES_LEVELS],
                           const unsigned ll_of_dle[MODES_DLE], struct cli_msg *msg)
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    unsigned k, d, m, s;
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < MODES_SIG_MODES; m++) {
                int rc = run_mode(rows, env, ifs, levels[k], ll_of_dle[d], sig_modes[m], 0, msg);
                if (rc != EXIT_OK) {
                    return rc;
                }
                for (s = 0; s < MODES_SIDES; s++) {
                    b->uj[k][d][m][build][s] = rows[s].e_total_uj;
                }
            }
        }
    }
    return EXIT_OK;
}

int modes_builds_run(struct modes_builds *b, const struct model_env *env,
                     enum pqpan_ble_bits_ifs ifs, const char *const levels[MODES_LEVELS],
                     const unsigned ll_of_dle[MODES_DLE], struct cli_msg *msg)
{
    struct model_env *e = malloc(sizeof *e);
    unsigned i;
    int rc = EXIT_OK;
    if (e == NULL) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    memset(b, 0, sizeof *b);
    for (i = 0; i < MODES_BUILDS && rc == EXIT_OK; i++) {
        *e = *env;
        e->memo = NULL;
        snprintf(e->in.crypto_impl, sizeof e->in.crypto_impl, "%s", build_impl[i]);
        rc = builds_run_impl(b, e, i, ifs, levels, ll_of_dle, msg);
    }
    free(e);
    return rc;
}

void modes_builds_print_intro(FILE *f)
{
    fprintf(f, "\nsig modes in pqpan's two Cortex-M4 builds (every operation's cycles from the\n"
               "build's rows of data/cycles/pqpan_m4.csv, make bench-m4: small = %s, speed =\n"
               "%s; docs/M4.md), uJ per side in the bits accounting; x small: speed over small\n",
            build_impl[0], build_impl[1]);
}

size_t modes_builds_rows(struct pqpan_run_build_row *out, const struct modes_builds *b,
                         const char *const levels[MODES_LEVELS], const char *reading)
{
    unsigned k, d, m, s, i;
    size_t n = 0;
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < MODES_SIG_MODES; m++) {
                unsigned sig = model_pqke_sig(sig_modes[m], 0, levels[k]);
                for (s = 0; s < MODES_SIDES; s++) {
                    for (i = 0; i < MODES_BUILDS; i++) {
                        struct pqpan_run_build_row *l = &out[n++];
                        l->reading = reading;
                        l->kem = levels[k];
                        l->dle = d;
                        l->mode = pqpan_pqke_mode_name(sig_modes[m]);
                        l->sig = pqpan_sig_by_id((enum pqpan_sig_id)sig)->name;
                        l->side = side_names[s];
                        l->build = build_name[i];
                        l->crypto_impl = build_impl[i];
                        l->e_total_uj = b->uj[k][d][m][i][s];
                        l->x_small = l->e_total_uj / b->uj[k][d][m][0][s];
                    }
                }
            }
        }
    }
    return n;
}
