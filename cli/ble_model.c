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

void model_print_exchange_line(FILE *f, const char *prefix, const char *protocol,
                               const char *auth, const char *idle)
{
    fprintf(f, "%sprotocol: %s, auth: %s; idle: %s\n", prefix, protocol, auth, idle);
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

void model_json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(f, "\\%c", c);
        } else if (c < 0x20) {
            fprintf(f, "\\u%04x", c);
        } else {
            fputc(c, f);
        }
    }
    fputc('"', f);
}

/* ---- assumptions ---- */

static const char *gamma_source(const struct model_env *env)
{
    return env->in.calibration[0] != '\0' ? env->in.calibration
                                           : "defaults inside the study's ranges (docs/MODEL.md "
                                             "\"gamma defaults\")";
}

/* Where the ML-KEM cycle counts of impl come from: the source column of its first row. */
static const char *kem_cycles_source(const struct pqpan_cycle_table *t, const char *impl)
{
    size_t i;
    for (i = 0; i < t->count; i++) {
        const struct pqpan_cycle_row *r = &t->rows[i];
        if (strncasecmp(r->scheme, "ML-KEM", 6) == 0 && strcasecmp(r->impl, impl) == 0) {
            return r->source;
        }
    }
    return "no table row";
}

/* How a current behind a regulator follows the supply, in words. */
static const char *regulator_words(int dcdc)
{
    return dcdc ? "DC/DC (scale as 1/V)" : "LDO (the same at any V)";
}

/* Where the sleep current comes from: the profile's sleep_ua or its retention table. */
static void ram_words(char *buf, size_t len, const struct model_env *env)
{
    if (env->ram_retained_kb < 0.0) {
        snprintf(buf, len, "the profile's sleep_ua");
    } else {
        snprintf(buf, len, "%g kB retained (supply.sleep_ram_ua)", env->ram_retained_kb);
    }
}

/* The supply line: the run's voltage, where it comes from, and how the currents follow. */
static void print_supply_line(FILE *f, const struct model_env *env, const char *prefix)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_profile_supply *s = &p->supply;
    const char *from = p->supply_v == env->profile_supply_v ? "the profile's" : "--supply-v";
    char ram[96];
    ram_words(ram, sizeof ram, env);
    if (!s->given) {
        fprintf(f, "%ssupply: %.2f V (%s; the profile gives no supply range or regulator); "
                   "sleep %.3g uA (%s)\n", prefix, p->supply_v, from, p->sleep_ua, ram);
        return;
    }
    fprintf(f, "%ssupply: %.2f V (%s; range %.2f..%.2f V; currents at %.2f V: active %s, "
               "sleep %s); sleep %.3g uA (%s)\n",
            prefix, p->supply_v, from, s->min_v, s->max_v, env->profile_supply_v,
            regulator_words(s->active_dcdc), regulator_words(s->sleep_dcdc), p->sleep_ua, ram);
}

void model_print_profile_json(FILE *f, const struct model_env *env, const char *indent)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_profile_supply *s = &p->supply;
    char ram[96];
    ram_words(ram, sizeof ram, env);
    model_json_string(f, p->name);
    fprintf(f, ",\n%s\"supply_v\": %.3f,\n%s\"supply_model\": ", indent, p->supply_v, indent);
    if (s->given) {
        char model[160];
        snprintf(model, sizeof model, "currents at %.2f V; active %s, sleep %s; range %.2f..%.2f V",
                 env->profile_supply_v, regulator_words(s->active_dcdc),
                 regulator_words(s->sleep_dcdc), s->min_v, s->max_v);
        model_json_string(f, model);
    } else {
        model_json_string(f, "none: the profile prices its supply_v only");
    }
    fprintf(f, ",\n%s\"sleep_ua\": %.4f,\n%s\"sleep_from\": ", indent, p->sleep_ua, indent);
    model_json_string(f, ram);
}

void model_print_profile_line(FILE *f, const struct model_env *env, const char *prefix)
{
    const struct pqpan_profile *p = &env->in.profile;
    fprintf(f, "%sprofile: %s (%s); %.2f V, CPU %.0f MHz at %.0f uA; sources in the profile file\n",
            prefix, p->name, p->description, p->supply_v, (double)p->cpu_hz * 1e-6, p->cpu_ua);
    print_supply_line(f, env, prefix);
}

void model_print_crypto_gamma(FILE *f, const struct model_env *env, const char *prefix)
{
    const struct pqpan_gamma *g = &env->in.gamma;
    int op;
    const struct pqpan_cycle_row *p256 =
        pqpan_cycles_find(&env->in.cycles, "P-256", env->p256_impl, PQPAN_OP_ECDH_SHARED);
    fprintf(f, "%scrypto cycles: ML-KEM %s (%s), P-256 %s (%s); LE SC key pair %s\n", prefix,
            env->in.crypto_impl, kem_cycles_source(&env->in.cycles, env->in.crypto_impl),
            env->p256_impl, p256 != NULL ? p256->source : "no table row",
            model_lesc_keypair_name(env->lesc_keypair));
    fprintf(f, "%sgamma (assumptions, source: %s): comm %.2f;", prefix, gamma_source(env), g->comm);
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        fprintf(f, " %s %.2f", pqpan_op_name((enum pqpan_op)op), g->comp[op]);
    }
    fputc('\n', f);
}

/* Whether a run on radio mode `radio` uses the profile figure at `path` (a
 * pqpan_io_profile_walk path): the RX current of its mode and the TX current of its level in the
 * table in use, the chip-level scalars (not the CPU + radio figures, which no model uses;
 * only the ramp-up time in use), and the connection-event phases (BLE) or the ieee802154
 * section (802.15.4). */
int model_figure_used(const struct model_env *env, enum pqpan_radio_mode radio, const char *path)
{
    const char *table = pqpan_current_table_name(env->table);
    char want[PQPAN_IO_PROFILE_PATH_MAX];
    if (strchr(path, '.') == NULL) {
        return strcmp(path, "cpu_tx_ua") != 0 && strcmp(path, "cpu_rx_ua") != 0 &&
               strcmp(path, env->ramp_normal ? "ramp_fast_us" : "ramp_normal_us") != 0;
    }
    if (radio == PQPAN_RADIO_IEEE802154) {
        if (strncmp(path, "ieee802154.rx_ua.", 17) == 0) {
            return strcmp(path + 17, table) == 0;
        }
        snprintf(want, sizeof want, "ieee802154.tx_ua.%s.%ddbm", table, env->eopts.tx_dbm);
        if (strncmp(path, "ieee802154.tx_ua.", 17) == 0) {
            return strcmp(path, want) == 0;
        }
        return strncmp(path, "ieee802154.", 11) == 0;
    }
    if (strncmp(path, "ble_event.ramp_ua.", 18) == 0) {
        return strcmp(path + 18, table) == 0;
    }
    if (strncmp(path, "ble_event.", 10) == 0) {
        return 1;
    }
    snprintf(want, sizeof want, "currents.%s.rx_ua.%s", table, pqpan_radio_mode_name(radio));
    if (strcmp(path, want) == 0) {
        return 1;
    }
    snprintf(want, sizeof want, "currents.%s.tx_ua.%ddbm", table, env->eopts.tx_dbm);
    return strcmp(path, want) == 0;
}

/* model_figure_used as a model_figure_pred: ctx points to the radio mode. */
static int radio_uses(const struct model_env *env, const char *path, const void *ctx)
{
    return model_figure_used(env, *(const enum pqpan_radio_mode *)ctx, path);
}

/* One line per derived figure the run uses, then one per figure that stands on another
 * chip's (none: nothing printed). */
void model_print_derived_where(FILE *f, const struct model_env *env, model_figure_pred used,
                               const void *ctx, const char *prefix)
{
    const struct pqpan_io_derived_list *d = &env->in.derived;
    size_t i;
    int header = 0;
    for (i = 0; i < d->count; i++) {
        if (d->item[i].how[0] == '\0' || !used(env, d->item[i].path, ctx)) {
            continue;
        }
        if (!header) {
            fprintf(f, "%sderived figures used (computed from sourced ones, not read from a "
                       "datasheet):\n", prefix);
            header = 1;
        }
        fprintf(f, "%s  %s = %.6g: %s\n", prefix, d->item[i].path, d->item[i].value, d->item[i].how);
    }
    header = 0;
    for (i = 0; i < d->count; i++) {
        if (d->item[i].other_chip[0] == '\0' || !used(env, d->item[i].path, ctx)) {
            continue;
        }
        if (!header) {
            fprintf(f, "%sfigures from another chip used:\n", prefix);
            header = 1;
        }
        fprintf(f, "%s  %s = %.6g: from the %s\n", prefix, d->item[i].path, d->item[i].value,
                d->item[i].other_chip);
    }
}

/* The JSON array `name` of the used figures whose text member (how, or other_chip) is set:
 * {"field", "value", key: text}. */
static void print_figure_array_json(FILE *f, const struct model_env *env, model_figure_pred used,
                                    const void *ctx, const char *indent, const char *name,
                                    int other_chip)
{
    const struct pqpan_io_derived_list *d = &env->in.derived;
    size_t i;
    int first = 1;
    fprintf(f, "%s\"%s\": [", indent, name);
    for (i = 0; i < d->count; i++) {
        const char *text = other_chip ? d->item[i].other_chip : d->item[i].how;
        if (text[0] == '\0' || !used(env, d->item[i].path, ctx)) {
            continue;
        }
        fprintf(f, "%s\n%s  {\"field\": ", first ? "" : ",", indent);
        model_json_string(f, d->item[i].path);
        fprintf(f, ", \"value\": %.6g, \"%s\": ", d->item[i].value,
                other_chip ? "other_chip" : "derived");
        model_json_string(f, text);
        fputc('}', f);
        first = 0;
    }
    if (first) {
        fprintf(f, "],\n");
    } else {
        fprintf(f, "\n%s],\n", indent);
    }
}

void model_print_derived_where_json(FILE *f, const struct model_env *env, model_figure_pred used,
                                    const void *ctx, const char *indent)
{
    print_figure_array_json(f, env, used, ctx, indent, "derived_figures", 0);
    print_figure_array_json(f, env, used, ctx, indent, "other_chip_figures", 1);
}

void model_print_derived(FILE *f, const struct model_env *env, enum pqpan_radio_mode radio,
                         const char *prefix)
{
    model_print_derived_where(f, env, radio_uses, &radio, prefix);
}

void model_print_derived_json(FILE *f, const struct model_env *env,
                              enum pqpan_radio_mode radio, const char *indent)
{
    model_print_derived_where_json(f, env, radio_uses, &radio, indent);
}

void model_print_assumptions(FILE *f, const struct model_env *env, enum pqpan_radio_mode radio,
                             const char *prefix)
{
    model_print_profile_line(f, env, prefix);
    fprintf(f, "%scurrents: %s table, TX %d dBm; T_IFS charged at the RX current (assumption: "
               "no turnaround current in the datasheet); ramp-up %s\n",
            prefix, pqpan_current_table_name(env->table), env->eopts.tx_dbm,
            env->ramp_normal ? "normal" : "fast");
    model_print_derived(f, env, radio, prefix);
    model_print_crypto_gamma(f, env, prefix);
    fprintf(f, "%saccountings: e_comm_uj/e_total_uj = bits (the study's: PDU bits + T_IFS of the "
               "exchange x gamma_comm);\n%s  *_events_* = events (adds HFXO, ramp-up, CPU per "
               "event, window widening, idle events,\n%s  sleep and the set-up before the "
               "exchange, e_<phase>_uj / t_<phase>_ms; no gamma)\n",
            prefix, prefix, prefix);
}

/* Sources of the set-up's defaults and of the advertising phase's expected value. */
static const char *const setup_assumption[] = {
    "t_advertise_ms is the expected time to connect: the central scans continuously from a",
    "uniformly distributed moment, advDelay uniform 0..10 ms (Vol 6 Part B 4.4.2.2); defaults:",
    "advertising 100 ms = TGAP(adv_fast_interval2), initial interval 30 ms =",
    "TGAP(initial_conn_interval), each its range's lower end (Vol 3 Part C Appendix A); the",
    "set-up before the PHY update runs on LE 1M and is charged at the exchange PHY's currents",
    NULL,
};

void model_print_setup(FILE *f, const struct pqpan_ble_config *c, const char *prefix)
{
    int i;
    fprintf(f, "%sset-up (events accounting): ", prefix);
    if (c->adv_interval_ns != 0u) {
        fprintf(f, "advertising every %.3f ms until connected", (double)c->adv_interval_ns * 1e-6);
    } else {
        fputs("no advertising", f);
    }
    fprintf(f, ", feature exchange %s,\n%s  ", c->features ? "on" : "off", prefix);
    if (c->conn_update && c->idle_ci_ns != c->ci_ns) {
        fprintf(f, "connection at %.2f ms updated to %.2f ms", (double)c->idle_ci_ns * 1e-6,
                (double)c->ci_ns * 1e-6);
    } else {
        fprintf(f, "connection at %.2f ms (no update)", (double)c->ci_ns * 1e-6);
    }
    fprintf(f, ", GATT discovery + CCCD write %s\n", c->discovery ? "on" : "off");
    fprintf(f, "%sset-up assumptions:\n", prefix);
    for (i = 0; setup_assumption[i] != NULL; i++) {
        fprintf(f, "%s  %s\n", prefix, setup_assumption[i]);
    }
}

void model_print_setup_json(FILE *f, const struct pqpan_ble_config *c, const char *indent)
{
    int i;
    fprintf(f, "%s\"setup_adv_interval_ms\": %.3f,\n", indent, (double)c->adv_interval_ns * 1e-6);
    fprintf(f, "%s\"setup_features\": %s,\n", indent, c->features ? "true" : "false");
    fprintf(f, "%s\"setup_conn_update\": %s,\n", indent, c->conn_update ? "true" : "false");
    fprintf(f, "%s\"setup_initial_ci_ms\": %.3f,\n", indent, (double)c->idle_ci_ns * 1e-6);
    fprintf(f, "%s\"setup_discovery\": %s,\n", indent, c->discovery ? "true" : "false");
    fprintf(f, "%s\"setup_assumptions\": \"", indent);
    for (i = 0; setup_assumption[i] != NULL; i++) {
        fprintf(f, "%s%s", i == 0 ? "" : " ", setup_assumption[i]);
    }
    fputs("\",\n", f);
}

void model_print_assumptions_json(FILE *f, const struct model_env *env,
                                  enum pqpan_radio_mode radio, const char *indent)
{
    fprintf(f, "%s\"profile\": ", indent);
    model_print_profile_json(f, env, indent);
    fprintf(f, ",\n%s\"currents\": \"%s\",\n%s\"tx_dbm\": %d,\n%s\"ramp\": \"%s\",\n", indent,
            pqpan_current_table_name(env->table), indent, env->eopts.tx_dbm, indent,
            env->ramp_normal ? "normal" : "fast");
    model_print_derived_json(f, env, radio, indent);
    model_print_crypto_gamma_json(f, env, indent);
    fprintf(f, "%s\"e_comm_accounting\": \"bits\",\n", indent);
}

void model_print_crypto_gamma_json(FILE *f, const struct model_env *env, const char *indent)
{
    const struct pqpan_gamma *g = &env->in.gamma;
    int op;
    fprintf(f, "%s\"crypto_impl\": ", indent);
    model_json_string(f, env->in.crypto_impl);
    fprintf(f, ",\n%s\"p256_impl\": ", indent);
    model_json_string(f, env->p256_impl);
    fprintf(f, ",\n%s\"lesc_keypair\": ", indent);
    model_json_string(f, model_lesc_keypair_name(env->lesc_keypair));
    fprintf(f, ",\n%s\"gamma_source\": ", indent);
    model_json_string(f, gamma_source(env));
    fprintf(f, ",\n%s\"gamma_comm\": %.4f,\n", indent, g->comm);
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        fprintf(f, "%s\"gamma_comp_%s\": %.4f,\n", indent, pqpan_op_name((enum pqpan_op)op),
                g->comp[op]);
    }
}
