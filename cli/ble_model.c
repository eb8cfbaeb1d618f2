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

void model_opts_init(struct model_opts *o)
{
    int op;
    memset(o, 0, sizeof *o);
    o->gamma_comm = -1.0;
    o->supply_v = -1.0;
    o->ram_retained_kb = -1.0;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        o->gamma_comp[op] = -1.0;
    }
    cli_opt_table_defaults(&model_energy_table, o);
    cli_opt_table_defaults(&model_ramp_table, o);
    cli_opt_table_defaults(&model_crypto_table, o);
    cli_opt_table_defaults(&cli_format_table, &o->format);
}

/* Every implementation some ML-KEM row of the built-in cycle tables has, once each. */
static void crypto_impls(cli_word_fn add, void *ctx)
{
    struct pqpan_cycle_table *t = malloc(sizeof *t);
    char err[PQPAN_IO_ERR_MAX];
    size_t i, j;
    if (t == NULL || pqpan_io_cycles_load_builtin(t, err, sizeof err) != PQPAN_OK) {
        free(t);
        return;
    }
    for (i = 0; i < t->count; i++) {
        const struct pqpan_cycle_row *r = &t->rows[i];
        for (j = 0; j < i; j++) {
            if (t->rows[j].op == PQPAN_OP_KEM_KEYGEN && strcasecmp(t->rows[j].impl, r->impl) == 0) {
                break;
            }
        }
        if (r->op == PQPAN_OP_KEM_KEYGEN && j == i && strcmp(r->impl, "*") != 0) {
            add(ctx, r->impl);
        }
    }
    free(t);
}

/* Every implementation some P-256 key-generation row of the built-in cycle tables has, once
 * each (data/cycles/p256_impl_cortex_m4.csv first among them). */
static void p256_impls(cli_word_fn add, void *ctx)
{
    struct pqpan_cycle_table *t = malloc(sizeof *t);
    char err[PQPAN_IO_ERR_MAX];
    size_t i;
    if (t == NULL || pqpan_io_cycles_load_builtin(t, err, sizeof err) != PQPAN_OK) {
        free(t);
        return;
    }
    for (i = 0; i < t->count; i++) {
        const struct pqpan_cycle_row *r = &t->rows[i];
        if (r->op == PQPAN_OP_ECDH_KEYGEN && strcasecmp(r->scheme, "P-256") == 0 &&
            pqpan_cycles_find(t, "P-256", r->impl, PQPAN_OP_ECDH_KEYGEN) == r) {
            add(ctx, r->impl);
        }
    }
    free(t);
}

static void builtin_profiles(cli_word_fn add, void *ctx)
{
    char name[64];
    size_t i;
    for (i = 0; i < pqpan_io_profile_builtin_count(); i++) {
        add(ctx, pqpan_io_profile_builtin_name(i, name, sizeof name));
    }
}

void model_kem_names(cli_word_fn add, void *ctx)
{
    size_t k;
    for (k = 0; pqpan_kem_at(k) != NULL; k++) {
        add(ctx, pqpan_kem_at(k)->name);
    }
}

/* --gamma-comp OP=X: X into gamma_comp[OP]. */
static int set_gamma_comp(void *field, const char *v)
{
    double *gamma = field;
    const char *eq = strchr(v, '=');
    int op;
    for (op = 0; eq != NULL && op < PQPAN_OP_COUNT; op++) {
        const char *name = pqpan_op_name((enum pqpan_op)op);
        if (cli_word_equal_n(v, (size_t)(eq - v), name)) {
            return cli_parse_double(eq + 1, PQPAN_IO_GAMMA_MIN, PQPAN_IO_GAMMA_MAX, &gamma[op]);
        }
    }
    return -1;
}

/* --currents words, in enum pqpan_current_table order; --ramp words (fast = 0); --format
 * words in enum cli_format order. */
static const char *const table_words[PQPAN_CURRENT_TABLE_COUNT + 1] = {"system", "radio-only",
                                                                       NULL};
static const char *const ramp_words[] = {"fast", "normal", NULL};
/* --lesc-keypair words, in enum model_lesc_keypair order. */
static const char *const keypair_words[] = {"fresh", "reused", NULL};

_Static_assert(sizeof(enum pqpan_current_table) == sizeof(int), "--currents is stored as an int");

#define MODEL(m) offsetof(struct model_opts, m)

static void model_init(void *o)
{
    model_opts_init(o);
}

#define MODEL_TABLE(id, title, rows)                                                           \
    CLI_OPT_TABLE(id, title, rows, struct model_opts, model_init)

static const struct cli_opt energy_rows[] = {
    {.name = "--profile", .kind = CLI_OPT_TEXT, .meta = "NAME|FILE", .words_fn = builtin_profiles,
     .def = PQPAN_DEFAULT_PROFILE, .store = CLI_STORE_STR, .offset = MODEL(profile),
     .help = "device profile: a built-in name (`pqpan profiles`) or a profile JSON file"},
    {.name = "--currents", .kind = CLI_OPT_WORD, .words = table_words,
     .def = PQPAN_DEFAULT_CURRENTS,
     .store = CLI_STORE_INT, .offset = MODEL(table),
     .help = "which current table of the profile: system = whole-chip figures incl. HFXO; "
             "radio-only = the radio block"},
    {.name = "--tx-dbm", .kind = CLI_OPT_INT, .meta = "N", .unit = "dBm", .min = -40, .max = 40,
     .def = PQPAN_DEFAULT_TX_DBM, .store = CLI_STORE_INT, .offset = MODEL(tx_dbm),
     .help = "TX output power, a level the profile lists"},
    {.name = "--supply-v", .kind = CLI_OPT_NUMBER, .meta = "V", .unit = "V", .min = 0.5,
     .max = 10.0, .def = PQPAN_DEFAULT_SUPPLY_V, .store = CLI_STORE_DOUBLE,
     .offset = MODEL(supply_v),
     .help = "supply voltage, inside the device's range (the profile's supply section): "
             "currents behind a DC/DC scale as 1/V, behind an LDO they stay; energy = charge x V"},
    {.name = "--ram-retained-kb", .kind = CLI_OPT_NUMBER, .meta = "KB", .unit = "kB", .min = 0.0,
     .max = 1e6, .def = PQPAN_DEFAULT_RAM_RETAINED_KB, .store = CLI_STORE_DOUBLE,
     .offset = MODEL(ram_retained_kb),
     .help = "RAM retained in System ON sleep: the sleep current from the profile's "
             "retention table (linear between its points)"},
};

static const struct cli_opt ramp_rows[] = {
    {.name = "--ramp", .kind = CLI_OPT_WORD, .words = ramp_words, .def = PQPAN_DEFAULT_RAMP,
     .store = CLI_STORE_INT, .offset = MODEL(ramp_normal),
     .help = "radio ramp-up per event, events accounting"},
};

static const struct cli_opt crypto_rows[] = {
    {.name = "--crypto-impl", .kind = CLI_OPT_TEXT, .meta = "NAME", .words_fn = crypto_impls,
     .def = PQPAN_DEFAULT_CRYPTO_IMPL, .store = CLI_STORE_STR,
     .offset = MODEL(crypto_impl),
     .help = "the cycle table rows (data/cycles/) for ML-KEM: clean, m4fspeed, m4fstack from "
             "pqm4; pqpan-m4* pqpan's own code, portable and with the M4 backend (make "
             "bench-m4)"},
    {.name = "--p256-impl", .kind = CLI_OPT_TEXT, .meta = "NAME", .words_fn = p256_impls,
     .def = PQPAN_DEFAULT_P256_IMPL, .store = CLI_STORE_STR, .offset = MODEL(p256_impl),
     .help = "the P-256 cycle rows of LE SC (--kem LESC-P256) and of --hybrid p256 "
             "(data/cycles/p256_impl_cortex_m4.csv): emill-asm (hand-written assembly, "
             "measured on the nRF52840), p256-m (Zephyr >= 3.7), tinycrypt (older Zephyr), "
             "cc310 (the nRF52840's CryptoCell), pqpan (this repository's, QEMU cycle model)"},
    {.name = "--lesc-keypair", .kind = CLI_OPT_WORD, .words = keypair_words,
     .def = PQPAN_DEFAULT_LESC_KEYPAIR, .store = CLI_STORE_INT, .offset = MODEL(lesc_keypair),
     .help = "LE SC's P-256 key pair: fresh (generated for each pairing, Core Vol 3 Part H "
             "§2.3.6's recommendation) or reused (generated once, as Zephyr and NimBLE do: "
             "its KeyGen is no part of the pairing)"},
};

static const struct cli_opt gamma_rows[] = {
    {.name = "--calibration", .kind = CLI_OPT_TEXT, .meta = "FILE",
     .def = PQPAN_DEFAULT_CALIBRATION,
     .store = CLI_STORE_STR, .offset = MODEL(calibration),
     .help = "γ values from a calibration JSON"},
    {.name = "--gamma-comm", .kind = CLI_OPT_NUMBER, .meta = "X", .min = PQPAN_IO_GAMMA_MIN,
     .max = PQPAN_IO_GAMMA_MAX, .def = PQPAN_DEFAULT_GAMMA_COMM, .store = CLI_STORE_DOUBLE,
     .offset = MODEL(gamma_comm), .help = "γ_comm, bits accounting"},
    {.name = "--gamma-comp", .kind = CLI_OPT_TEXT, .meta = "OP=X", .set = set_gamma_comp,
     .offset = MODEL(gamma_comp),
     .allowed = "OP=X with OP one of kem_keygen, kem_encaps, kem_decaps, kdf, ecdh_keygen, "
                "ecdh_shared, sig_keygen, sig_sign, sig_verify and X in 0.01..100",
     .help = "γ_comp of one operation, repeatable (study: 1.12-1.62)"},
};


const struct cli_opt_table model_energy_table = MODEL_TABLE("energy", "energy options", energy_rows);
const struct cli_opt_table model_ramp_table = MODEL_TABLE("ramp", NULL, ramp_rows);
const struct cli_opt_table model_crypto_table =
    MODEL_TABLE("crypto", "crypto cycles", crypto_rows);
const struct cli_opt_table model_gamma_table =
    MODEL_TABLE("gamma", "correction factors", gamma_rows);

/* The tables of struct model_opts, in the order help lists them. */
static const struct cli_opt_table *const model_tables[] = {
    &model_energy_table, &model_ramp_table, &model_crypto_table, &model_gamma_table};
#define N_MODEL_TABLES (sizeof model_tables / sizeof model_tables[0])

void model_opts_help(FILE *out)
{
    size_t k;
    for (k = 0; k < N_MODEL_TABLES; k++) {
        cli_opt_rows_help(out, model_tables[k]);
    }
    cli_opt_rows_help(out, &cli_format_table);
}

int model_opts_parse(struct model_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    size_t k;
    int rc = 0;
    for (k = 0; k < N_MODEL_TABLES && rc == 0; k++) {
        rc = cli_opt_take(model_tables[k], o, cmd, argc, argv, i);
    }
    return rc != 0 ? rc : cli_opt_take(&cli_format_table, &o->format, cmd, argc, argv, i);
}

int model_opts_choices(const char *opt, cli_word_fn add, void *ctx)
{
    size_t k;
    for (k = 0; k < N_MODEL_TABLES; k++) {
        if (cli_opt_table_words(model_tables[k], opt, add, ctx)) {
            return 1;
        }
    }
    return 0;
}

/* --p256-impl: a name some P-256 row of the loaded tables has (EXIT_USAGE, printed, if not). */
static int load_p256_impl(struct model_env *env, const char *given, const char *cmd)
{
    const char *impl = given != NULL ? given : pqpan_default_value(PQPAN_DEFAULT_P256_IMPL);
    if (strlen(impl) >= sizeof env->p256_impl ||
        pqpan_cycles_find(&env->in.cycles, "P-256", impl, PQPAN_OP_ECDH_KEYGEN) == NULL ||
        pqpan_cycles_find(&env->in.cycles, "P-256", impl, PQPAN_OP_ECDH_SHARED) == NULL) {
        fprintf(stderr,
                "pqpan %s: --p256-impl %s: no P-256 cycle rows for it in data/cycles/ (want "
                "emill-asm, p256-m, tinycrypt, cc310 or pqpan)\n",
                cmd, impl);
        return EXIT_USAGE;
    }
    strcpy(env->p256_impl, impl);
    return EXIT_OK;
}

/* The profile at --supply-v and --ram-retained-kb (pqpan_profile_at_supply), each refusal
 * a message naming the device's figures. */
static int apply_supply(struct model_env *env, const struct model_opts *o, const char *cmd)
{
    struct pqpan_profile *p = &env->in.profile;
    const struct pqpan_profile_supply *s = &p->supply;
    int rc;
    env->profile_supply_v = p->supply_v;
    env->ram_retained_kb = o->ram_retained_kb;
    rc = pqpan_profile_at_supply(p, p, o->supply_v, o->ram_retained_kb);
    if (rc == PQPAN_OK) {
        return EXIT_OK;
    }
    if (o->supply_v > 0.0 && o->supply_v != p->supply_v && !s->given) {
        fprintf(stderr, "pqpan %s: --supply-v %g: profile %s gives no supply range or "
                        "regulator (no \"supply\" section): it prices %.2f V only\n",
                cmd, o->supply_v, p->name, p->supply_v);
    } else if (o->supply_v > 0.0 && (o->supply_v < s->min_v || o->supply_v > s->max_v)) {
        fprintf(stderr, "pqpan %s: --supply-v %g: outside %s's supply range %.2f..%.2f V "
                        "(the profile's supply.min_v, max_v)\n",
                cmd, o->supply_v, p->name, s->min_v, s->max_v);
    } else if (s->ram_points == 0) {
        fprintf(stderr, "pqpan %s: --ram-retained-kb %g: profile %s gives no sleep current by "
                        "retained RAM (supply.sleep_ram_ua)\n", cmd, o->ram_retained_kb, p->name);
    } else {
        fprintf(stderr, "pqpan %s: --ram-retained-kb %g: outside %s's retention table, "
                        "%g..%g kB (supply.sleep_ram_ua)\n", cmd, o->ram_retained_kb, p->name,
                s->ram_kb[0], s->ram_kb[s->ram_points - 1]);
    }
    return EXIT_USAGE;
}

int model_env_load(struct model_env *env, const struct model_opts *o, const char *cmd)
{
    char err[PQPAN_IO_ERR_MAX];
    const struct pqpan_profile *p;
    int rc, op;
    memset(env, 0, sizeof *env);
    rc = data_energy_inputs_load(&env->in, o->profile, o->calibration, o->crypto_impl, err,
                                 sizeof err);
    if (rc != EXIT_OK) {
        fprintf(stderr, "pqpan %s: %s\n", cmd, err);
        return rc;
    }
    if (o->gamma_comm > 0.0) {
        env->in.gamma.comm = o->gamma_comm;
    }
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        if (o->gamma_comp[op] > 0.0) {
            env->in.gamma.comp[op] = o->gamma_comp[op];
        }
    }
    rc = apply_supply(env, o, cmd);
    if (rc != EXIT_OK) {
        return rc;
    }
    p = &env->in.profile;
    rc = load_p256_impl(env, o->p256_impl, cmd);
    if (rc != EXIT_OK) {
        return rc;
    }
    env->lesc_keypair = (enum model_lesc_keypair)o->lesc_keypair;
    env->table = o->table;
    env->ramp_normal = o->ramp_normal;
    env->eopts.table = o->table;
    env->eopts.tx_dbm = o->tx_dbm;
    return pqpan_ble_device_from_profile(&env->dev, p, o->ramp_normal) == PQPAN_OK
               ? EXIT_OK
               : EXIT_FAILURE_RUN;
}

int model_env_new(struct model_env **env, const struct model_opts *o, const char *cmd)
{
    int rc;
    *env = malloc(sizeof **env);
    if (*env == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", cmd);
        return EXIT_FAILURE_RUN;
    }
    rc = model_env_load(*env, o, cmd);
    if (rc != EXIT_OK) {
        free(*env);
        *env = NULL;
    }
    return rc;
}

/* ---- running one configuration ---- */

enum pqpan_radio_mode model_radio_of(enum pqpan_ble_phy phy)
{
    return pqpan_advise_radio_mode(phy);
}

static int lookup(uint64_t cycles[PQPAN_OP_COUNT], const struct model_env *env,
                  const char *scheme, const char *impl, enum pqpan_op op, struct cli_msg *msg)
{
    if (pqpan_cycles_lookup(&env->in.cycles, scheme, impl, op, &cycles[op]) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "no cycle count for %s %s (%s) in data/cycles/",
                           scheme, pqpan_op_name(op), impl != NULL ? impl : "any implementation");
    }
    return EXIT_OK;
}

int model_scale_kdf(uint64_t cycles[PQPAN_OP_COUNT], const struct pqpan_kem *k, unsigned mode,
                    unsigned sig, int hybrid, struct cli_msg *msg)
{
    unsigned suite = pqpan_pqke_suite_for_kem(k->id);
    unsigned priced = hybrid ? pqpan_pqke_hybrid_suite_for_kem(k->id) : suite;
    struct pqpan_pqke_work none, w;
    if (pqpan_pqke_side_work(&none, suite, PQPAN_PQKE_MODE_NONE, 0, PQPAN_PQKE_ROLE_INITIATOR, 0) !=
            PQPAN_OK ||
        pqpan_pqke_side_work(&w, priced, mode, sig, PQPAN_PQKE_ROLE_INITIATOR, 0) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "--auth %s: no such PQKE mode",
                           pqpan_pqke_mode_name(mode) != NULL ? pqpan_pqke_mode_name(mode) : "?");
    }
    /* Rounded to the nearest cycle: kdf x permutations(mode) / permutations(none). */
    cycles[PQPAN_OP_KDF] = (cycles[PQPAN_OP_KDF] * w.keccak_permutations +
                            none.keccak_permutations / 2u) / none.keccak_permutations;
    return EXIT_OK;
}

int model_is_sig_mode(unsigned mode)
{
    return mode == PQPAN_PQKE_MODE_SIG || mode == PQPAN_PQKE_MODE_SIG_MUTUAL;
}

unsigned model_sig_for_kem(const struct pqpan_kem *k)
{
    /* NIST categories (FIPS 203 Table 2, FIPS 204 Table 1): ML-KEM-512 1, -768 3, -1024 5;
     * ML-DSA-44 2, -65 3, -87 5: the smallest ML-DSA set of at least the KEM's category. */
    size_t i;
    for (i = 0; i < PQPAN_SIG_COUNT; i++) {
        if (pqpan_sig_at(i)->security_category >= k->security_category) {
            return (unsigned)pqpan_sig_at(i)->id;
        }
    }
    return (unsigned)PQPAN_SIG_MLDSA87;
}

unsigned model_pqke_sig(unsigned mode, unsigned sig, const char *kem)
{
    const struct pqpan_kem *k = pqpan_kem_by_name(kem);
    if (!model_is_sig_mode(mode) || k == NULL) {
        return 0;
    }
    return sig != 0 ? sig : model_sig_for_kem(k);
}

int model_pqke_check(unsigned mode, unsigned sig, struct cli_msg *msg)
{
    if (sig != 0 && !model_is_sig_mode(mode)) {
        return cli_msg_set(msg, EXIT_USAGE, "--sig applies to --auth sig or sig-mutual, not %s",
                           pqpan_pqke_mode_name(mode) != NULL ? pqpan_pqke_mode_name(mode) : "?");
    }
    return EXIT_OK;
}

/* The ML-DSA set's Sign and Verify cycles: the row of the crypto implementation in use if
 * the tables have one, else the clean (PQClean, pqm4) row. */
static int lookup_sig(uint64_t cycles[PQPAN_OP_COUNT], const struct model_env *env, unsigned sig,
                      struct cli_msg *msg)
{
    const char *name = pqpan_sig_by_id((enum pqpan_sig_id)sig)->name;
    const char *impl = model_sig_impl(env, sig);
    int rc = lookup(cycles, env, name, impl, PQPAN_OP_SIG_SIGN, msg);
    return rc != EXIT_OK ? rc : lookup(cycles, env, name, impl, PQPAN_OP_SIG_VERIFY, msg);
}

const char *model_sig_impl(const struct model_env *env, unsigned sig)
{
    const char *name = pqpan_sig_by_id((enum pqpan_sig_id)sig)->name;
    const char *impl = env->in.crypto_impl;
    uint64_t c;
    return pqpan_cycles_lookup(&env->in.cycles, name, impl, PQPAN_OP_SIG_SIGN, &c) == PQPAN_OK
               ? impl
               : "clean";
}

int model_sig_spread(struct model_sig_spread *sp, const struct model_env *env, unsigned sig)
{
    const struct pqpan_cycle_table *t = &env->in.cycles;
    const char *name = pqpan_sig_by_id((enum pqpan_sig_id)sig)->name;
    size_t i;
    sp->mean = pqpan_cycles_find(t, name, model_sig_impl(env, sig), PQPAN_OP_SIG_SIGN);
    sp->spread = NULL;
    if (sp->mean == NULL) {
        return -1;
    }
    for (i = 0; i < t->count && sp->spread == NULL; i++) {
        const struct pqpan_cycle_row *r = &t->rows[i];
        if (r->op == PQPAN_OP_SIG_SIGN && r->runs > 1 && r->cycles == sp->mean->cycles &&
            strcasecmp(r->scheme, sp->mean->scheme) == 0 &&
            strcasecmp(r->impl, sp->mean->impl) == 0) {
            sp->spread = r;
        }
    }
    return 0;
}

static double sign_ms(unsigned long long signs, uint64_t cycles, uint32_t hz)
{
    return (double)pqpan_cycles_to_ns(signs * cycles, hz) * 1e-6;
}

void model_fill_sig(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, unsigned sig)
{
    struct model_sig_spread sp;
    const uint32_t hz = env->in.profile.cpu_hz;
    int s;
    if (sig == 0 || model_sig_spread(&sp, env, sig) != 0) {
        return;
    }
    for (s = 0; s < MODEL_SIDES; s++) {
        struct pqpan_run_exchange_row *r = &rows[s];
        const struct pqpan_cycle_row *d = sp.spread;
        r->sig_sign_source = d != NULL ? d->source : sp.mean->source;
        r->sig_sign_cycles_mean = sp.mean->cycles;
        r->sig_sign_runs = d != NULL ? d->runs : 0;
        r->sig_sign_cycles_median = d != NULL ? d->cycles_median : 0;
        r->sig_sign_cycles_p99 = d != NULL ? d->cycles_p99 : 0;
        r->sig_sign_cycles_max = d != NULL ? d->cycles_max : 0;
        r->t_sig_sign_ms = sign_ms(r->sig_signs, sp.mean->cycles, hz);
        r->t_sig_sign_p99_ms = -1.0;
        r->e_comp_sig_sign_p99_uj = -1.0;
        if (r->sig_sign_cycles_p99 != 0) {
            r->t_sig_sign_p99_ms = sign_ms(r->sig_signs, r->sig_sign_cycles_p99, hz);
            r->e_comp_sig_sign_p99_uj = r->e_comp_op_uj[PQPAN_OP_SIG_SIGN] *
                                        (double)r->sig_sign_cycles_p99 / (double)sp.mean->cycles;
        }
    }
}

/* The P-256 operations' cycles: the --p256-impl rows, for LE SC and the hybrid alike. */
static int lookup_p256(uint64_t cycles[PQPAN_OP_COUNT], const struct model_env *env,
                       struct cli_msg *msg)
{
    int rc = lookup(cycles, env, "P-256", env->p256_impl, PQPAN_OP_ECDH_KEYGEN, msg);
    return rc != EXIT_OK ? rc
                         : lookup(cycles, env, "P-256", env->p256_impl, PQPAN_OP_ECDH_SHARED, msg);
}

/* LE SC's operations: both P-256 rows, and no KeyGen in the pairing when the key pair was
 * generated before and is reused (--lesc-keypair reused). */
static int lookup_lesc(uint64_t cycles[PQPAN_OP_COUNT], const struct model_env *env,
                       struct cli_msg *msg)
{
    int rc = lookup_p256(cycles, env, msg);
    if (rc == EXIT_OK && env->lesc_keypair == MODEL_LESC_KEYPAIR_REUSED) {
        cycles[PQPAN_OP_ECDH_KEYGEN] = 0;
    }
    return rc;
}

/* pqpan's protocol: the KDF row scaled to the mode, and the mode's ML-DSA and P-256
 * operations. A sig mode without a set takes the KEM's category (model_sig_for_kem). */
static int setup_pqke(uint64_t cycles[PQPAN_OP_COUNT], struct pqpan_ble_config *cfg,
                      const struct model_env *env, const struct pqpan_kem *k, struct cli_msg *msg)
{
    int rc = model_pqke_check(cfg->pqke_mode, cfg->pqke_sig, msg);
    cfg->pqke_sig = model_pqke_sig(cfg->pqke_mode, cfg->pqke_sig, k->name);
    if (rc == EXIT_OK) {
        rc = lookup(cycles, env, k->name, env->in.crypto_impl, PQPAN_OP_KDF, msg);
    }
    if (rc == EXIT_OK) {
        rc = model_scale_kdf(cycles, k, cfg->pqke_mode, cfg->pqke_sig, cfg->pqke_hybrid, msg);
    }
    if (rc == EXIT_OK && cfg->pqke_sig != 0) {
        rc = lookup_sig(cycles, env, cfg->pqke_sig, msg);
    }
    if (rc == EXIT_OK && cfg->pqke_hybrid) {
        rc = lookup_p256(cycles, env, msg);
    }
    return rc;
}

int model_setup(uint64_t cycles[PQPAN_OP_COUNT], struct pqpan_ble_config *cfg,
                const struct model_env *env, const char *kem, struct cli_msg *msg)
{
    const struct pqpan_kem *k;
    const char *impl = env->in.crypto_impl;
    int rc;
    memset(cycles, 0, PQPAN_OP_COUNT * sizeof cycles[0]);
    if (strcmp(kem, MODEL_LESC_NAME) == 0) {
        return lookup_lesc(cycles, env, msg);
    }
    k = pqpan_kem_by_name(kem);
    if (k == NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "unknown KEM '%s' (%s)", kem, MODEL_KEM_NAMES);
    }
    cfg->ek_bytes = (uint32_t)k->ek_bytes;
    cfg->ct_bytes = (uint32_t)k->ct_bytes;
    rc = lookup(cycles, env, kem, impl, PQPAN_OP_KEM_KEYGEN, msg);
    if (rc == EXIT_OK && cfg->protocol == PQPAN_BLE_PROTO_PQPAN) {
        rc = setup_pqke(cycles, cfg, env, k, msg);
    }
    if (rc == EXIT_OK) {
        rc = lookup(cycles, env, kem, impl, PQPAN_OP_KEM_ENCAPS, msg);
    }
    return rc != EXIT_OK ? rc : lookup(cycles, env, kem, impl, PQPAN_OP_KEM_DECAPS, msg);
}

static int estimate(struct pqpan_ble_estimate *est, const struct model_env *env, const char *kem,
                    struct pqpan_ble_config *cfg, int allow_unbuildable, struct cli_msg *msg)
{
    uint64_t cycles[PQPAN_OP_COUNT];
    int rc = link_opts_check(cfg, msg);
    if (rc == EXIT_OK && !allow_unbuildable) {
        rc = link_gatt_check(cfg, kem, msg);
    }
    if (rc == EXIT_OK) {
        rc = model_setup(cycles, cfg, env, kem, msg);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    if (strcmp(kem, MODEL_LESC_NAME) == 0) {
        return pqpan_ble_estimate_lesc_cached(est, cfg, &env->dev, cycles, env->memo) == PQPAN_OK
                   ? EXIT_OK
                   : cli_msg_set(msg, EXIT_USAGE, "configuration out of range");
    }
    if (pqpan_ble_estimate_pqke_cached(est, cfg, &env->dev, cycles, env->memo) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "configuration out of range (ATT_MTU 23..517, and >= 403 for "
                           "--transfer study; LL octets 27..251; CI 7.5..4000 ms)");
    }
    return EXIT_OK;
}

/* The figure a run on radio mode `radio` lacks (for the message), or NULL. */
static const char *missing_figure(const struct model_env *env, enum pqpan_radio_mode radio,
                                  char *buf, size_t len)
{
    const struct pqpan_profile *p = &env->in.profile;
    double ua;
    if (pqpan_profile_tx_mode_ua(p, env->table, radio, env->eopts.tx_dbm, &ua) != PQPAN_OK) {
        snprintf(buf, len, "TX %d dBm", env->eopts.tx_dbm);
    } else if (pqpan_profile_rx_ua(p, env->table, radio, &ua) != PQPAN_OK) {
        snprintf(buf, len, "RX %s", pqpan_radio_mode_name(radio));
    } else if (radio != PQPAN_RADIO_IEEE802154 && !p->ble_event.ramp_given[env->table]) {
        snprintf(buf, len, "radio start-up (ble_event.ramp_ua)");
    } else {
        return NULL;
    }
    return buf;
}

int model_energy(struct pqpan_energy *e, const struct pqpan_ledger *l, const struct model_env *env,
                 enum pqpan_radio_mode radio, struct cli_msg *msg)
{
    struct pqpan_energy_opts o = env->eopts;
    char what[64];
    int rc;
    o.radio = radio;
    rc = pqpan_energy_compute(e, l, &env->in.profile, &o, &env->in.gamma);
    if (rc == PQPAN_ERR_UNSUPPORTED && radio == PQPAN_RADIO_IEEE802154) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "profile %s gives no %s current in 802.15.4 mode for TX %d dBm or RX "
                           "(its ieee802154 section); try another --currents table or --tx-dbm, "
                           "or a profile with 802.15.4 figures (built in: nrf52840 at 0 dBm)",
                           env->in.profile.name, pqpan_current_table_name(env->table), o.tx_dbm);
    }
    if (rc == PQPAN_ERR_UNSUPPORTED) {
        const char *m = missing_figure(env, radio, what, sizeof what);
        return cli_msg_set(msg, EXIT_USAGE,
                           "profile %s gives no %s current for %s; try another --currents "
                           "table, --tx-dbm or --phy",
                           env->in.profile.name, pqpan_current_table_name(env->table),
                           m != NULL ? m : "this configuration");
    }
    if (rc != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_BAD_INPUT, "energy model: %s", pqpan_strerror(rc));
    }
    return EXIT_OK;
}

double model_row_link_event_uj(const struct pqpan_run_exchange_row *r)
{
    return r->e_ev_radio_uj + r->e_ev_ramp_uj + r->e_ev_rx_window_uj + r->e_ev_hfxo_uj +
           r->e_ev_pre_uj + r->e_ev_post_uj;
}

static double pct(double part, double whole)
{
    return whole > 0.0 ? 100.0 * part / whole : 0.0;
}

static void fill_row(struct pqpan_run_exchange_row *r, const struct pqpan_energy *full,
                     const struct pqpan_energy *bits, const struct pqpan_ledger *led,
                     const struct pqpan_ledger *bl)
{
    int op;
    r->e_comp_uj = full->comp_uj;
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        r->e_comp_op_uj[op] = full->comp_op_uj[op];
    }
    r->e_comm_uj = bits->comm_bits_uj;
    r->e_comm_tx_uj = bits->bits_tx_uj;
    r->e_comm_rx_uj = bits->bits_rx_uj;
    r->e_comm_ifs_uj = bits->bits_ifs_uj;
    r->e_total_uj = r->e_comp_uj + r->e_comm_uj;
    r->comm_share_pct = pct(r->e_comm_uj, r->e_total_uj);
    r->e_comm_events_uj = full->comm_events_uj;
    r->e_ev_radio_uj = full->ev_radio_uj;
    r->e_ev_hfxo_uj = full->ev_hfxo_uj;
    r->e_ev_ramp_uj = full->ev_ramp_uj;
    r->e_ev_pre_uj = full->ev_pre_uj;
    r->e_ev_cpu_uj = full->ev_cpu_radio_uj;
    r->e_ev_post_uj = full->ev_post_uj;
    r->e_ev_rx_window_uj = full->ev_rx_window_uj;
    r->e_ev_sleep_uj = full->ev_sleep_uj;
    r->e_total_events_uj = full->total_events_uj;
    r->comm_share_events_pct = pct(r->e_comm_events_uj, r->e_total_events_uj);
    r->t_tx_ms = (double)pqpan_ledger_state_ns(bl, PQPAN_STATE_TX) * 1e-6;
    r->t_rx_ms = (double)pqpan_ledger_state_ns(bl, PQPAN_STATE_RX) * 1e-6;
    r->t_ifs_ms = (double)pqpan_ledger_state_ns(bl, PQPAN_STATE_IFS) * 1e-6;
    r->t_crypto_ms = (double)led->ns[PQPAN_PHASE_CRYPTO][PQPAN_STATE_CPU] * 1e-6;
    r->sig_signs = led->op_count[PQPAN_OP_SIG_SIGN];
    r->pdus_tx = bl->pdus_tx;
    r->pdus_rx = bl->pdus_rx;
    r->bytes_tx = bl->bytes_tx;
    r->bytes_rx = bl->bytes_rx;
}

int model_fill_side(struct pqpan_run_exchange_row *r, const struct model_env *env,
                    enum pqpan_radio_mode radio, const struct pqpan_ledger *led,
                    const struct pqpan_ledger *bits_led, struct cli_msg *msg)
{
    struct pqpan_energy full, bits;
    int rc = model_energy(&full, led, env, radio, msg);
    if (rc == EXIT_OK) {
        rc = model_energy(&bits, bits_led, env, radio, msg);
    }
    if (rc == EXIT_OK) {
        fill_row(r, &full, &bits, led, bits_led);
    }
    return rc;
}

/* The protocol field of every variant of pqpan's protocol. */
static const struct {
    unsigned mode, sig;
    int hybrid;
    const char *name;
} protocol_names[] = {
    {1, 0, 0, "pqpan"},
    {2, 0, 0, "pqpan-psk"},
    {3, 0, 0, "pqpan-kem-auth"},
    {4, 0, 0, "pqpan-kem-auth-mutual"},
    {7, 0, 0, "pqpan-numeric"},
    {5, 1, 0, "pqpan-sig-ML-DSA-44"},
    {5, 2, 0, "pqpan-sig-ML-DSA-65"},
    {5, 3, 0, "pqpan-sig-ML-DSA-87"},
    {6, 1, 0, "pqpan-sig-mutual-ML-DSA-44"},
    {6, 2, 0, "pqpan-sig-mutual-ML-DSA-65"},
    {6, 3, 0, "pqpan-sig-mutual-ML-DSA-87"},
    {1, 0, 1, "pqpan-p256"},
    {2, 0, 1, "pqpan-p256-psk"},
    {3, 0, 1, "pqpan-p256-kem-auth"},
    {4, 0, 1, "pqpan-p256-kem-auth-mutual"},
    {7, 0, 1, "pqpan-p256-numeric"},
    {5, 1, 1, "pqpan-p256-sig-ML-DSA-44"},
    {5, 2, 1, "pqpan-p256-sig-ML-DSA-65"},
    {5, 3, 1, "pqpan-p256-sig-ML-DSA-87"},
    {6, 1, 1, "pqpan-p256-sig-mutual-ML-DSA-44"},
    {6, 2, 1, "pqpan-p256-sig-mutual-ML-DSA-65"},
    {6, 3, 1, "pqpan-p256-sig-mutual-ML-DSA-87"},
};

const char *model_protocol_name(unsigned mode, unsigned sig, int hybrid)
{
    size_t i;
    for (i = 0; i < sizeof protocol_names / sizeof protocol_names[0]; i++) {
        if (protocol_names[i].mode == mode && protocol_names[i].sig == sig &&
            protocol_names[i].hybrid == (hybrid != 0)) {
            return protocol_names[i].name;
        }
    }
    return "pqpan";
}

const char *model_transfer_name(const struct pqpan_ble_config *cfg)
{
    const char *name = pqpan_ble_transfer_choice_name(cfg->server_transfer, cfg->client_transfer);
    return name != NULL ? name : "unnamed";
}

const char *model_auth_name(const char *kem, const struct pqpan_ble_config *cfg)
{
    if (strcmp(kem, MODEL_LESC_NAME) == 0 || cfg->protocol != PQPAN_BLE_PROTO_PQPAN) {
        return pqpan_pqke_mode_name(PQPAN_PQKE_MODE_NONE);
    }
    return pqpan_pqke_mode_name(cfg->pqke_mode);
}

void model_print_exchange_line(FILE *f, const char *prefix, const char *protocol,
                               const char *auth, const char *idle)
{
    fprintf(f, "%sprotocol: %s, auth: %s; idle: %s\n", prefix, protocol, auth, idle);
}

static void fill_config(struct pqpan_run_exchange_row *r, const char *kem, const struct pqpan_ble_config *cfg,
                        const struct pqpan_ble_estimate *est)
{
    int p;
    r->kem = kem;
    r->auth = model_auth_name(kem, cfg);
    r->idle = MODEL_BLE_IDLE;
    r->protocol = strcmp(kem, MODEL_LESC_NAME) == 0      ? "lesc"
                  : cfg->protocol == PQPAN_BLE_PROTO_PQPAN
                      ? model_protocol_name(cfg->pqke_mode, cfg->pqke_sig, cfg->pqke_hybrid)
                      : "study";
    r->phy = pqpan_ble_phy_name(cfg->phy);
    r->transfer = strcmp(kem, MODEL_LESC_NAME) == 0 ? "smp" : model_transfer_name(cfg);
    r->keygen_side = cfg->keygen_side == PQPAN_BLE_CENTRAL ? "central" : "peripheral";
    r->att_mtu = cfg->att_mtu;
    r->ll_octets = cfg->ll_octets;
    r->ll_octets_eff = est->ll_octets_eff;
    r->dle = cfg->ll_octets > PQPAN_LL_DATA_MIN_PAYLOAD;
    r->ci_ms = (double)cfg->ci_ns * 1e-6;
    r->latency_ms = (double)est->latency_ns * 1e-6;
    r->setup_ms = (double)est->setup_ns * 1e-6;
    for (p = 0; p < PQPAN_PHASE_COUNT; p++) {
        r->t_phase_ms[p] = (double)est->span_ns[p] * 1e-6;
    }
    r->conn_events = pqpan_ble_conn_events(est);
    r->idle_events = est->counts.idle_events;
}

/* The events accounting of each phase alone (pqpan_energy_phases), so that the phases add
 * up to e_total_events_uj. On an error model_energy, which checks the same inputs, words
 * it. */
static int fill_phases(struct pqpan_run_exchange_row *r, const struct pqpan_ledger *l, const struct model_env *env,
                       enum pqpan_radio_mode radio, struct cli_msg *msg)
{
    struct pqpan_energy_opts o = env->eopts;
    struct pqpan_energy e;
    int err, rc;
    o.radio = radio;
    err = pqpan_energy_phases(r->e_phase_uj, l, &env->in.profile, &o, &env->in.gamma);
    if (err == PQPAN_OK) {
        return EXIT_OK;
    }
    rc = model_energy(&e, l, env, radio, msg);
    return rc != EXIT_OK ? rc
                         : cli_msg_set(msg, EXIT_BAD_INPUT, "energy model: %s", pqpan_strerror(err));
}

/* The events accounting of the exchange's own phases (PQPAN_ADVISE_EXCHANGE_PHASES): what
 * one key exchange costs on a link that is already up, set-up and negotiation left out. */
static int exchange_energy(double *uj, const struct pqpan_ledger *led,
                           const struct model_env *env, enum pqpan_radio_mode radio,
                           struct cli_msg *msg)
{
    struct pqpan_ledger ex;
    struct pqpan_energy e;
    int rc;
    pqpan_advise_ledger_phases(&ex, led, PQPAN_ADVISE_EXCHANGE_PHASES);
    rc = model_energy(&e, &ex, env, radio, msg);
    *uj = rc == EXIT_OK ? e.total_events_uj : 0.0;
    return rc;
}

/* The GROUP_LESC fields of one side of LE SC: the P-256 rows and key pair, the encryption
 * start (the CONFIRM phase of plan_lesc, src/ble/estimate.c) in both accountings, and the key
 * distribution, which the plan does not send (no keys distributed). */
static int fill_lesc(struct pqpan_run_exchange_row *r, const struct model_env *env, const struct pqpan_ledger *bl,
                     enum pqpan_radio_mode radio, struct cli_msg *msg)
{
    struct pqpan_ledger confirm;
    struct pqpan_energy e;
    const struct pqpan_cycle_row *row =
        pqpan_cycles_find(&env->in.cycles, "P-256", env->p256_impl, PQPAN_OP_ECDH_SHARED);
    int rc;
    pqpan_ledger_init(&confirm);
    memcpy(confirm.ns[PQPAN_PHASE_CONFIRM], bl->ns[PQPAN_PHASE_CONFIRM],
           sizeof confirm.ns[PQPAN_PHASE_CONFIRM]);
    rc = model_energy(&e, &confirm, env, radio, msg);
    r->p256_impl = env->p256_impl;
    r->p256_source = row != NULL ? row->source : "";
    r->lesc_keypair = keypair_words[env->lesc_keypair];
    r->e_lesc_enc_start_uj = e.comm_bits_uj;
    r->e_lesc_enc_start_events_uj = r->e_phase_uj[PQPAN_PHASE_CONFIRM];
    r->e_lesc_key_dist_uj = 0.0;
    return rc;
}

int model_fill(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, const char *kem,
               const struct pqpan_ble_config *cfg, const struct pqpan_ble_estimate *est,
               struct cli_msg *msg)
{
    static const enum pqpan_ble_role role_of[2] = {PQPAN_BLE_PERIPHERAL, PQPAN_BLE_CENTRAL};
    struct pqpan_ledger led[MODEL_SIDES], bl[MODEL_SIDES];
    struct pqpan_energy full, bits;
    int s, rc;

    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    pqpan_ledger_init(&led[MODEL_TOTAL]);
    pqpan_ledger_init(&bl[MODEL_TOTAL]);
    for (s = 0; s < 2; s++) {
        led[s] = est->ledger[role_of[s]];
        bl[s] = est->bits[role_of[s]];
        pqpan_ledger_accumulate(&led[MODEL_TOTAL], &led[s]);
        pqpan_ledger_accumulate(&bl[MODEL_TOTAL], &bl[s]);
    }
    for (s = 0; s < MODEL_SIDES; s++) {
        struct pqpan_run_exchange_row *r = &rows[s];
        rc = model_energy(&full, &led[s], env, model_radio_of(cfg->phy), msg);
        if (rc == EXIT_OK) {
            rc = model_energy(&bits, &bl[s], env, model_radio_of(cfg->phy), msg);
        }
        if (rc == EXIT_OK) {
            rc = fill_phases(r, &led[s], env, model_radio_of(cfg->phy), msg);
        }
        if (rc != EXIT_OK) {
            memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
            return rc;
        }
        r->side = model_side_name(0, s);
        fill_config(r, kem, cfg, est);
        fill_row(r, &full, &bits, &led[s], &bl[s]);
        rc = exchange_energy(&r->e_exchange_events_uj, &led[s], env, model_radio_of(cfg->phy), msg);
        r->e_lesc_enc_start_uj = r->e_lesc_enc_start_events_uj = r->e_lesc_key_dist_uj = -1.0;
        if (rc == EXIT_OK && strcmp(kem, MODEL_LESC_NAME) == 0) {
            rc = fill_lesc(r, env, &bl[s], model_radio_of(cfg->phy), msg);
        }
        if (rc != EXIT_OK) {
            memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
            return rc;
        }
        if (s < 2) {
            int role = role_of[s] == PQPAN_BLE_CENTRAL ? 0 : 1;
            r->data_pdus_tx = est->counts.data_pdus_tx[role];
            r->empty_pdus_tx = est->counts.empty_pdus_tx[role];
            r->att_pdus_tx = est->counts.att_pdus[role];
        } else {
            r->data_pdus_tx = rows[0].data_pdus_tx + rows[1].data_pdus_tx;
            r->empty_pdus_tx = rows[0].empty_pdus_tx + rows[1].empty_pdus_tx;
            r->att_pdus_tx = rows[0].att_pdus_tx + rows[1].att_pdus_tx;
        }
    }
    model_fill_sig(rows, env, cfg->protocol == PQPAN_BLE_PROTO_PQPAN ? cfg->pqke_sig : 0);
    return EXIT_OK;
}

int model_run(struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct model_env *env, const char *kem,
              const struct pqpan_ble_config *cfg_in, int allow_unbuildable, struct cli_msg *msg)
{
    struct pqpan_ble_config cfg = *cfg_in;
    struct pqpan_ble_estimate est;
    int rc;
    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    rc = estimate(&est, env, kem, &cfg, allow_unbuildable, msg);
    return rc != EXIT_OK ? rc : model_fill(rows, env, kem, &cfg, &est, msg);
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

const char *model_side_name(unsigned groups, int s)
{
    static const char *const ble[MODEL_SIDES] = {"peripheral", "central", "total"};
    static const char *const ieee802154[MODEL_SIDES] = {"initiator", "responder", "total"};
    return (groups & GROUP_802154) ? ieee802154[s] : ble[s];
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
            keypair_words[env->lesc_keypair]);
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
    model_json_string(f, keypair_words[env->lesc_keypair]);
    fprintf(f, ",\n%s\"gamma_source\": ", indent);
    model_json_string(f, gamma_source(env));
    fprintf(f, ",\n%s\"gamma_comm\": %.4f,\n", indent, g->comm);
    for (op = 0; op < PQPAN_OP_COUNT; op++) {
        fprintf(f, "%s\"gamma_comp_%s\": %.4f,\n", indent, pqpan_op_name((enum pqpan_op)op),
                g->comp[op]);
    }
}
