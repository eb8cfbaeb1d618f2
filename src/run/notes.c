/* The notes of a run: the lines a table output prints before its rows (the assumptions
 * block: profile, currents, derived figures, crypto cycles, γ, the set-up, the GATT roles,
 * the protocol variant) and the JSON members a JSON output gives them as. The run layer
 * renders them (pqpan_run gives them as note rows, run.h); the commands that do not run
 * through pqpan_run yet call these printers directly (notes.h). Taken from
 * cli/ble_model.c, cli/link_opts.c and cli/estimate.c. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "link.h"
#include "notes.h"
#include "pqpan/io.h"
#include "pqpan/sig.h"

void model_print_exchange_line(FILE *f, const char *prefix, const char *protocol,
                               const char *auth, const char *idle)
{
    fprintf(f, "%sprotocol: %s, auth: %s; idle: %s\n", prefix, protocol, auth, idle);
}

/* A known number: an INT, a COUNT, or a REAL to field's decimals. */
static void put_number(FILE *f, const struct pqpan_run_field *field, const struct pqpan_run_value *v)
{
    char buf[CLI_FIXED_MAX];
    if (v->type == PQPAN_RUN_INT) {
        fprintf(f, "%lld", v->i);
    } else if (v->type == PQPAN_RUN_COUNT) {
        fprintf(f, "%llu", v->u);
    } else {
        (void)cli_format_fixed(buf, v->x, field->decimals);
        fputs(buf, f);
    }
}

void model_json_value(FILE *f, const struct pqpan_run_field *field, const struct pqpan_run_value *v)
{
    if (!v->known) {
        fputs("null", f);
    } else if (v->type == PQPAN_RUN_TEXT) {
        model_json_string(f, v->text);
    } else {
        put_number(f, field, v);
    }
}

void model_csv_value(FILE *f, const struct pqpan_run_field *field, const struct pqpan_run_value *v)
{
    if (v->known && v->type == PQPAN_RUN_TEXT) {
        fputs(v->text, f);
    } else if (v->known) {
        put_number(f, field, v);
    }
}

/* Whether a CSV line of the group mask groups (0: every field) has field f. */
static int csv_has(const struct pqpan_run_field *f, unsigned groups)
{
    return groups == 0 || pqpan_run_field_shown(f, groups);
}

void model_fields_csv_header(FILE *f, const struct pqpan_run_field *fields, size_t n,
                             unsigned groups)
{
    size_t k;
    int first = 1;
    for (k = 0; k < n; k++) {
        if (csv_has(&fields[k], groups)) {
            fprintf(f, "%s%s", first ? "" : ",", fields[k].name);
            first = 0;
        }
    }
    fputc('\n', f);
}

void model_fields_csv_row(FILE *f, const struct pqpan_run_field *fields, size_t n,
                          unsigned groups, const void *data)
{
    struct pqpan_run_value v;
    size_t k;
    int first = 1;
    for (k = 0; k < n; k++) {
        if (!csv_has(&fields[k], groups)) {
            continue;
        }
        pqpan_run_record_value(&v, &fields[k], data);
        if (!first) {
            fputc(',', f);
        }
        model_csv_value(f, &fields[k], &v);
        first = 0;
    }
    fputc('\n', f);
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

const char *model_bits_ifs_about(enum pqpan_ble_bits_ifs b)
{
    return b == PQPAN_BLE_BITS_IFS_PER_PDU_SENT
               ? "one per PDU sent (1 per pair; the study reading's choice)"
               : "every T_IFS of an event on both sides (2 per pair, none after the last PDU)";
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

void link_print_gatt(FILE *out, const struct pqpan_ble_config *cfg, const char *kem,
                     const char *prefix)
{
    struct cli_msg why;
    char words[CLI_MSG_MAX];
    if (strcmp(kem, MODEL_LESC_NAME) == 0) {
        return;
    }
    link_gatt_words(words, sizeof words, cfg);
    fprintf(out, "%sGATT: the %s is the server, the %s the client (Core v5.4 Vol 3 Part G §2.2):\n"
                 "%s  %s\n",
            prefix, link_role_word(cfg->gatt_server),
            link_role_word(cfg->gatt_server == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL
                                                            : PQPAN_BLE_CENTRAL),
            prefix, words);
    if (link_gatt_reason(cfg, kem, &why) != EXIT_OK) {
        fprintf(out, "%s  unbuildable, priced as --allow-unbuildable asks: %s\n", prefix,
                why.text);
    }
}

static void print_optional_cycles(FILE *f, uint64_t cycles)
{
    if (cycles == 0) {
        fprintf(f, "not given");
    } else {
        fprintf(f, "%llu", (unsigned long long)cycles);
    }
}

/* Signing's cycles: the mean the energy uses, the spread beside it and their sources. */
void model_print_sig_spread(FILE *f, const struct model_env *env, unsigned sig, const char *prefix)
{
    struct model_sig_spread sp;
    const struct pqpan_cycle_row *d;
    if (model_sig_spread(&sp, env, sig) != 0) {
        return;
    }
    d = sp.spread;
    fprintf(f, "%s  sign: energy and time use the mean over the messages of its rejection loop\n"
           "%s  (FIPS 204 Alg. 7), %llu cycles (%s); ",
           prefix, prefix, (unsigned long long)sp.mean->cycles, sp.mean->source);
    if (d == NULL) {
        fprintf(f, "the tables give no spread\n");
        return;
    }
    fprintf(f, "spread over %u runs\n%s  (%s): median ", (unsigned)d->runs, prefix, d->source);
    print_optional_cycles(f, d->cycles_median);
    fprintf(f, ", p99 ");
    print_optional_cycles(f, d->cycles_p99);
    fprintf(f, ", largest ");
    print_optional_cycles(f, d->cycles_max);
    fprintf(f, "\n");
    if (d->cycles_p99 != 0) {
        fprintf(f, "%s  (the p99 rows: each signing at the p99 cycles)\n", prefix);
    }
}

/* What the variant of pqpan's protocol adds to the cycle tables: the derived kdf figure of
 * a mode other than none or a hybrid suite, the ML-DSA rows of a sig mode, P-256's. */
void model_print_pqke_variant(FILE *f, const struct pqpan_ble_config *cfg, const char *kem,
                              const struct model_env *env, const char *prefix)
{
    unsigned sig = model_pqke_sig(cfg->pqke_mode, cfg->pqke_sig, kem);
    if (cfg->pqke_mode != PQPAN_PQKE_MODE_NONE || cfg->pqke_hybrid) {
        fprintf(f, "%skdf (derived): the cycle table's kdf row (mode none) x the Keccak permutations "
               "of\n%s  --auth %s%s over those of none (pqpan_pqke_side_work, docs/PROTOCOL.md "
               "3.4)\n",
               prefix, prefix, pqpan_pqke_mode_name(cfg->pqke_mode),
               cfg->pqke_hybrid ? " --hybrid p256" : "");
    }
    if (sig != 0) {
        fprintf(f, "%s%s sign / verify: cycle table rows of implementation %s\n", prefix,
               pqpan_sig_by_id((enum pqpan_sig_id)sig)->name, model_sig_impl(env, sig));
        if (cfg->pqke_sig == 0) {
            fprintf(f, "%s  the set: the default for the KEM's category\n", prefix);
        }
        model_print_sig_spread(f, env, sig, prefix);
    }
    if (cfg->pqke_hybrid) {
        fprintf(f, "%sP-256 key pair and shared secret (hybrid): --p256-impl %s, one fresh key pair "
               "per exchange\n",
               prefix, env->p256_impl);
    }
}
