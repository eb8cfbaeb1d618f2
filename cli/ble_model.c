/* The BLE key-exchange model for the CLI: options, run, and the one field table that
 * drives table, CSV and JSON output (see ble_model.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ble_model.h"
#include "link_opts.h"
#include "opts.h"
#include "pqpan/advise.h"
#include "pqpan/kem.h"
#include "pqpan/sig.h"

void model_opts_help(FILE *out)
{
    size_t k;
    for (k = 0; k < MODEL_TABLES; k++) {
        cli_opt_rows_help(out, model_tables[k]);
    }
    cli_opt_rows_help(out, &cli_format_table);
}

int model_opts_parse(struct model_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    size_t k;
    int rc = 0;
    for (k = 0; k < MODEL_TABLES && rc == 0; k++) {
        rc = cli_opt_take(model_tables[k], o, cmd, argc, argv, i);
    }
    return rc != 0 ? rc : cli_opt_take(&cli_format_table, &o->format, cmd, argc, argv, i);
}

int model_env_load(struct model_env *env, const struct model_opts *o, const char *cmd)
{
    struct cli_msg msg;
    return cli_msg_report(cmd, model_env_load_msg(env, o, &msg), &msg);
}

int model_env_new(struct model_env **env, const struct model_opts *o, const char *cmd)
{
    struct cli_msg msg;
    return cli_msg_report(cmd, model_env_new_msg(env, o, &msg), &msg);
}

/* ---- the field table (the run layer's, include/pqpan/run.h) ---- */

/* The field table a mask selects: 802.15.4's with GROUP_802154, else BLE's. */
static const struct pqpan_run_field *table_of(unsigned groups, size_t *n)
{
    return pqpan_run_exchange_fields(
        (groups & GROUP_802154) ? PQPAN_RUN_LINK_802154 : PQPAN_RUN_LINK_BLE, n);
}

/* Whether field f is printed for the mask groups. */
static int shown(const struct pqpan_run_field *f, unsigned groups)
{
    return pqpan_run_field_shown(f, groups);
}

static const void *at(const struct pqpan_run_exchange_row *r, const struct pqpan_run_field *f)
{
    return (const unsigned char *)r + f->offset;
}

/* A number field into buf (at least CLI_FIXED_MAX bytes); returns its length. */
static int format_number(char *buf, const struct pqpan_run_exchange_row *r, const struct pqpan_run_field *f)
{
    const void *p = at(r, f);
    switch (f->store) {
    case PQPAN_RUN_STORE_UINT:
        return cli_format_uint(buf, *(const unsigned *)p);
    case PQPAN_RUN_STORE_INT:
        return cli_format_int(buf, *(const int *)p);
    case PQPAN_RUN_STORE_ULL:
    case PQPAN_RUN_STORE_OPT_ULL:
        return cli_format_uint(buf, *(const unsigned long long *)p);
    default:
        return cli_format_fixed(buf, *(const double *)p, f->decimals);
    }
}

/* Output gathered in memory and written in pieces of up to its size: a sweep writes
 * millions of short fields per second, and a stdio call costs more than a field. */
struct out_buf {
    FILE *f;
    size_t n;
    char b[4096];
};

static void ob_flush(struct out_buf *o)
{
    fwrite(o->b, 1, o->n, o->f);
    o->n = 0;
}

/* Room for len more bytes (flushing first when they do not fit). */
static char *ob_room(struct out_buf *o, size_t len)
{
    if (o->n + len > sizeof o->b) {
        ob_flush(o);
    }
    return o->b + o->n;
}

static void ob_puts(struct out_buf *o, const char *s)
{
    size_t len = strlen(s);
    if (len > sizeof o->b) {
        ob_flush(o);
        fwrite(s, 1, len, o->f);
        return;
    }
    memcpy(ob_room(o, len), s, len);
    o->n += len;
}

/* Whether field f of r has a value (an F_OPT_* field that is not known, an PQPAN_RUN_STORE_TEXT that is
 * NULL, has none). */
static int known(const struct pqpan_run_exchange_row *r, const struct pqpan_run_field *f)
{
    switch (f->store) {
    case PQPAN_RUN_STORE_TEXT:
        return *(const char *const *)at(r, f) != NULL;
    case PQPAN_RUN_STORE_OPT_ULL:
        return *(const unsigned long long *)at(r, f) != 0;
    case PQPAN_RUN_STORE_OPT_REAL:
        return *(const double *)at(r, f) >= 0.0;
    default:
        return 1;
    }
}

/* lead (a separator, or "") and the value of field f of r; when r is NULL or the value is
 * not known, lead and an empty value (CSV) or null (JSON). */
static void print_value(struct out_buf *o, const struct pqpan_run_exchange_row *r, const struct pqpan_run_field *f,
                        int json, const char *lead)
{
    size_t n = strlen(lead);
    char *p;
    if (r == NULL || !known(r, f)) {
        ob_puts(o, lead);
        ob_puts(o, json ? "null" : "");
        return;
    }
    if (f->store == PQPAN_RUN_STORE_TEXT) {
        ob_puts(o, lead);
        if (json) {
            ob_flush(o);
            model_json_string(o->f, *(const char *const *)at(r, f));
        } else {
            ob_puts(o, *(const char *const *)at(r, f));
        }
        return;
    }
    p = ob_room(o, n + CLI_FIXED_MAX);
    memcpy(p, lead, n);
    o->n += n + (size_t)format_number(p + n, r, f);
}

void model_print_csv_header(FILE *f, unsigned groups)
{
    size_t i, nf;
    const struct pqpan_run_field *tab = table_of(groups, &nf);
    int first = 1;
    for (i = 0; i < nf; i++) {
        if (shown(&tab[i], groups)) {
            fprintf(f, "%s%s", first ? "" : ",", tab[i].name);
            first = 0;
        }
    }
    fputc('\n', f);
}

void model_print_csv_row(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups)
{
    struct out_buf o;
    size_t i, nf;
    const struct pqpan_run_field *tab = table_of(groups, &nf);
    int first = 1;
    o.f = f;
    o.n = 0;
    for (i = 0; i < nf; i++) {
        if (shown(&tab[i], groups)) {
            print_value(&o, r, &tab[i], 0, first ? "" : ",");
            first = 0;
        }
    }
    ob_puts(&o, "\n");
    ob_flush(&o);
}

void model_print_json_sides(FILE *f, const struct pqpan_run_exchange_row *rows, size_t n,
                            unsigned groups)
{
    size_t s;
    fprintf(f, "  \"sides\": [\n");
    for (s = 0; s < n; s++) {
        model_print_json_row(f, &rows[s], groups, "    ");
        fprintf(f, "%s\n", s + 1 < n ? "," : "");
    }
    fprintf(f, "  ]\n}\n");
}

void model_print_json_row(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups, const char *indent)
{
    size_t i, nf;
    const struct pqpan_run_field *tab = table_of(groups, &nf);
    int first = 1;
    struct out_buf o;
    o.f = f;
    o.n = 0;
    fprintf(f, "%s{", indent);
    for (i = 0; i < nf; i++) {
        if (shown(&tab[i], groups)) {
            ob_flush(&o);
            fprintf(f, "%s\n%s  \"%s\": ", first ? "" : ",", indent, tab[i].name);
            print_value(&o, r, &tab[i], 1, "");
            first = 0;
        }
    }
    ob_flush(&o);
    fprintf(f, "\n%s}", indent);
}

void model_print_flat(FILE *f, const struct pqpan_run_exchange_row *r, unsigned groups, const char *prefix,
                      enum model_flat style)
{
    struct out_buf o;
    size_t i, nf;
    const struct pqpan_run_field *tab = table_of(groups, &nf);
    o.f = f;
    o.n = 0;
    for (i = 0; i < nf; i++) {
        if (!shown(&tab[i], groups) ||
            ((groups & GROUP_NO_SIDE) && tab[i].offset == offsetof(struct pqpan_run_exchange_row, side))) {
            continue;
        }
        if (style == FLAT_CSV) {
            print_value(&o, r, &tab[i], 0, ",");
            continue;
        }
        ob_puts(&o, style == FLAT_JSON ? ",\"" : ",");
        ob_puts(&o, prefix);
        ob_puts(&o, tab[i].name);
        if (style == FLAT_JSON) {
            ob_puts(&o, "\":");
            print_value(&o, r, &tab[i], 1, "");
        }
    }
    ob_flush(&o);
}

void model_print_table(FILE *f, const struct pqpan_run_exchange_row *rows, int n, unsigned groups)
{
    size_t i, nf;
    const struct pqpan_run_field *tab = table_of(groups, &nf);
    int k;
    fprintf(f, "%-38s", "");
    for (k = 0; k < n; k++) {
        fprintf(f, " %14s", rows[k].side);
    }
    fputc('\n', f);
    for (i = 0; i < nf; i++) {
        if (!shown(&tab[i], groups) || tab[i].store == PQPAN_RUN_STORE_TEXT) {
            continue;
        }
        fprintf(f, "%-38s", tab[i].label);
        for (k = 0; k < n; k++) {
            fputc(' ', f);
            if (!known(&rows[k], &tab[i])) {
                fprintf(f, "%14s", "-");
            } else if (tab[i].store == PQPAN_RUN_STORE_REAL || tab[i].store == PQPAN_RUN_STORE_OPT_REAL) {
                fprintf(f, "%14.*f", tab[i].decimals, *(const double *)at(&rows[k], &tab[i]));
            } else if (tab[i].store == PQPAN_RUN_STORE_ULL || tab[i].store == PQPAN_RUN_STORE_OPT_ULL) {
                fprintf(f, "%14llu", *(const unsigned long long *)at(&rows[k], &tab[i]));
            } else if (tab[i].store == PQPAN_RUN_STORE_UINT) {
                fprintf(f, "%14u", *(const unsigned *)at(&rows[k], &tab[i]));
            } else {
                fprintf(f, "%14d", *(const int *)at(&rows[k], &tab[i]));
            }
        }
        fputc('\n', f);
    }
}
