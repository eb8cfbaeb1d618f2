/* The per-mode table of `pqpan reproduce` (see reproduce_modes.h). */
#include <stdio.h>
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

int modes_run(struct modes_table *t, const struct model_env *env, enum pqpan_ble_bits_ifs ifs,
              const char *const levels[MODES_LEVELS], const unsigned ll_of_dle[MODES_DLE],
              const struct pqpan_run_exchange_row (*lesc)[MODEL_SIDES])
{
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct pqpan_ble_config cfg;
    struct cli_msg msg;
    unsigned k, d, m, s;
    memset(t, 0, sizeof *t);
    list_modes(t);
    for (k = 0; k < MODES_LEVELS; k++) {
        for (d = 0; d < MODES_DLE; d++) {
            for (m = 0; m < t->n_modes; m++) {
                struct modes_cell *c = &t->cell[k][d][m];
                pqpan_ble_config_default(&cfg);
                cfg.ll_octets = ll_of_dle[d];
                cfg.bits_ifs = ifs;
                cfg.protocol = PQPAN_BLE_PROTO_PQPAN;
                cfg.pqke_mode = t->mode[m];
                cfg.pqke_hybrid = t->hybrid[m];
                int rc = cli_msg_report("reproduce", model_run(rows, env, levels[k], &cfg, 0, &msg),
                                        &msg);
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
