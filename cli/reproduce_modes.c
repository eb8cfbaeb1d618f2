/* The per-mode table of `pqpan reproduce` (see reproduce_modes.h). */
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

/* "MODE" or "MODE+p256". */
static const char *variant_label(const struct modes_table *t, unsigned m, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s", pqpan_pqke_mode_name(t->mode[m]), t->hybrid[m] ? "+p256" : "");
    return buf;
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
 * preset at LL octets ll, bits T_IFS rule ifs. A cli.h exit code, message printed. */
static int run_mode(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env,
                    enum pqpan_ble_bits_ifs ifs, const char *level, unsigned ll, unsigned mode,
                    int hybrid)
{
    struct pqpan_ble_config cfg;
    struct cli_msg msg;
    pqpan_ble_config_default(&cfg);
    cfg.ll_octets = ll;
    cfg.bits_ifs = ifs;
    cfg.protocol = PQPAN_BLE_PROTO_PQPAN;
    cfg.pqke_mode = mode;
    cfg.pqke_hybrid = hybrid;
    return cli_msg_report("reproduce", model_run(rows, env, level, &cfg, 0, &msg), &msg);
}

int modes_run(struct modes_table *t, const struct model_env *env, enum pqpan_ble_bits_ifs ifs,
              const char *const levels[MODES_LEVELS], const unsigned ll_of_dle[MODES_DLE],
              const struct pqpan_run_exchange_row (*lesc)[MODEL_SIDES])
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
                                  t->hybrid[m]);
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

void modes_print_table(FILE *f, const struct modes_table *t, const char *const levels[MODES_LEVELS])
{
    char label[32];
    unsigned k, d, m, s;
    fprintf(f, "\nper PQKE mode (pqpan protocol on the study preset, bits accounting; sig modes with\n"
               "ML-DSA-44/65/87 at ML-KEM-512/768/1024; +p256: the P-256 hybrid suite; x none: the\n"
               "side's energy over mode none's, x LESC: over LE SC pairing's at the same DLE setting)\n");
    fprintf(f, "%-12s %-4s %-21s", "kem", "dle", "mode");
    for (s = 0; s < MODES_SIDES; s++) {
        fprintf(f, " %13s %7s %7s", side_names[s], "x none", "x LESC");
    }
    fputc('\n', f);
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < t->n_modes; m++) {
                const struct modes_cell *c = &t->cell[k][d][m];
                fprintf(f, "%-12s %-4s %-21s", levels[k], d ? "yes" : "no",
                        variant_label(t, m, label, sizeof label));
                for (s = 0; s < MODES_SIDES; s++) {
                    fprintf(f, " %13.3f %7.3f %7.3f", c->uj[s], c->vs_none[s], c->vs_lesc[s]);
                }
                fputc('\n', f);
            }
        }
    }
}

void modes_print_csv(FILE *f, const struct modes_table *t, const char *const levels[MODES_LEVELS],
                     const char *reading, int header)
{
    unsigned k, d, m, s;
    if (header) {
        fprintf(f, "reading,kem,dle,mode,sig,hybrid,protocol,side,e_total_uj,x_none,x_lesc\n");
    }
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < t->n_modes; m++) {
                for (s = 0; s < MODES_SIDES; s++) {
                    const struct modes_cell *c = &t->cell[k][d][m];
                    fprintf(f, "%s,%s,%u,%s,%s,%d,%s,%s,%.3f,%.4f,%.4f\n", reading, levels[k], d,
                            pqpan_pqke_mode_name(t->mode[m]), sig_name(t, m, levels[k]),
                            t->hybrid[m], protocol_of(t, m, levels[k]), side_names[s], c->uj[s],
                            c->vs_none[s], c->vs_lesc[s]);
                }
            }
        }
    }
}

void modes_print_json(FILE *f, const struct modes_table *t, const char *const levels[MODES_LEVELS],
                      const char *reading, int more)
{
    unsigned k, d, m, s;
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < t->n_modes; m++) {
                for (s = 0; s < MODES_SIDES; s++) {
                    const struct modes_cell *c = &t->cell[k][d][m];
                    int last = k + 1 == MODES_LEVELS && d + 1 == MODES_DLE &&
                               m + 1 == t->n_modes && s + 1 == MODES_SIDES;
                    fprintf(f, "    {\"reading\": \"%s\", \"kem\": \"%s\", \"dle\": %u, "
                               "\"mode\": \"%s\", \"sig\": \"%s\", \"hybrid\": %d, "
                               "\"protocol\": \"%s\", \"side\": \"%s\", \"e_total_uj\": %.3f, "
                               "\"x_none\": %.4f, \"x_lesc\": %.4f}%s\n",
                            reading, levels[k], d, pqpan_pqke_mode_name(t->mode[m]),
                            sig_name(t, m, levels[k]), t->hybrid[m], protocol_of(t, m, levels[k]),
                            side_names[s], c->uj[s], c->vs_none[s], c->vs_lesc[s],
                            last && !more ? "" : ",");
                }
            }
        }
    }
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
                           const unsigned ll_of_dle[MODES_DLE])
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    unsigned k, d, m, s;
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < MODES_SIG_MODES; m++) {
                int rc = run_mode(rows, env, ifs, levels[k], ll_of_dle[d], sig_modes[m], 0);
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
                     const unsigned ll_of_dle[MODES_DLE])
{
    struct model_env *e = malloc(sizeof *e);
    unsigned i;
    int rc = EXIT_OK;
    if (e == NULL) {
        fprintf(stderr, "pqpan reproduce: out of memory\n");
        return EXIT_FAILURE_RUN;
    }
    memset(b, 0, sizeof *b);
    for (i = 0; i < MODES_BUILDS && rc == EXIT_OK; i++) {
        *e = *env;
        e->memo = NULL;
        snprintf(e->in.crypto_impl, sizeof e->in.crypto_impl, "%s", build_impl[i]);
        rc = builds_run_impl(b, e, i, ifs, levels, ll_of_dle);
    }
    free(e);
    return rc;
}

void modes_builds_print_table(FILE *f, const struct modes_builds *b,
                              const char *const levels[MODES_LEVELS])
{
    unsigned k, d, m, s;
    fprintf(f, "\nsig modes in pqpan's two Cortex-M4 builds (every operation's cycles from the\n"
               "build's rows of data/cycles/pqpan_m4.csv, make bench-m4: small = %s, speed =\n"
               "%s; docs/M4.md), uJ per side in the bits accounting; x small: speed over small\n",
            build_impl[0], build_impl[1]);
    fprintf(f, "%-12s %-4s %-11s %13s %13s %7s %13s %13s %7s", "kem", "dle", "mode",
            "periph_small", "periph_speed", "x small", "centr_small", "centr_speed", "x small");
    fputc('\n', f);
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < MODES_SIG_MODES; m++) {
                fprintf(f, "%-12s %-4s %-11s", levels[k], d ? "yes" : "no",
                        pqpan_pqke_mode_name(sig_modes[m]));
                for (s = 0; s < MODES_SIDES; s++) {
                    fprintf(f, " %13.3f %13.3f %7.3f", b->uj[k][d][m][0][s],
                            b->uj[k][d][m][1][s], b->uj[k][d][m][1][s] / b->uj[k][d][m][0][s]);
                }
                fputc('\n', f);
            }
        }
    }
}

/* One line per level, DLE setting, sig mode, side and build: (reading, kem, dle, mode, sig,
 * side, build, crypto_impl, e_total_uj, x_small). */
struct builds_line {
    const char *reading, *kem, *mode, *sig, *side, *build, *impl;
    unsigned dle;
    double uj, x_small;
};

static void builds_walk(const struct modes_builds *b, const char *const levels[MODES_LEVELS],
                        const char *reading, FILE *f,
                        void (*put)(FILE *f, const struct builds_line *l, int last), int more)
{
    struct builds_line l;
    unsigned k, d, m, s, i;
    l.reading = reading;
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < MODES_SIG_MODES; m++) {
                unsigned sig = model_pqke_sig(sig_modes[m], 0, levels[k]);
                for (s = 0; s < MODES_SIDES; s++) {
                    for (i = 0; i < MODES_BUILDS; i++) {
                        int last = k + 1 == MODES_LEVELS && d + 1 == MODES_DLE &&
                                   m + 1 == MODES_SIG_MODES && s + 1 == MODES_SIDES &&
                                   i + 1 == MODES_BUILDS;
                        l.kem = levels[k];
                        l.dle = d;
                        l.mode = pqpan_pqke_mode_name(sig_modes[m]);
                        l.sig = pqpan_sig_by_id((enum pqpan_sig_id)sig)->name;
                        l.side = side_names[s];
                        l.build = build_name[i];
                        l.impl = build_impl[i];
                        l.uj = b->uj[k][d][m][i][s];
                        l.x_small = l.uj / b->uj[k][d][m][0][s];
                        put(f, &l, last && !more);
                    }
                }
            }
        }
    }
}

static void put_csv(FILE *f, const struct builds_line *l, int last)
{
    (void)last;
    fprintf(f, "%s,%s,%u,%s,%s,%s,%s,%s,%.3f,%.4f\n", l->reading, l->kem, l->dle, l->mode,
            l->sig, l->side, l->build, l->impl, l->uj, l->x_small);
}

static void put_json(FILE *f, const struct builds_line *l, int last)
{
    fprintf(f, "    {\"reading\": \"%s\", \"kem\": \"%s\", \"dle\": %u, \"mode\": \"%s\", "
               "\"sig\": \"%s\", \"side\": \"%s\", \"build\": \"%s\", \"crypto_impl\": \"%s\", "
               "\"e_total_uj\": %.3f, \"x_small\": %.4f}%s\n",
            l->reading, l->kem, l->dle, l->mode, l->sig, l->side, l->build, l->impl, l->uj,
            l->x_small, last ? "" : ",");
}

void modes_builds_print_csv(FILE *f, const struct modes_builds *b,
                            const char *const levels[MODES_LEVELS], const char *reading,
                            int header)
{
    if (header) {
        fprintf(f, "reading,kem,dle,mode,sig,side,build,crypto_impl,e_total_uj,x_small\n");
    }
    builds_walk(b, levels, reading, f, put_csv, 1);
}

void modes_builds_print_json(FILE *f, const struct modes_builds *b,
                             const char *const levels[MODES_LEVELS], const char *reading,
                             int more)
{
    builds_walk(b, levels, reading, f, put_json, more);
}
