/* The BLE key-exchange model, the run layer's part (model.h): the energy options as data,
 * the energy inputs, and one configuration run into one flat row per side
 * (struct pqpan_run_exchange_row). Taken from cli/ble_model.c, which keeps the printers. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "link.h"
#include "model.h"
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

const char *model_lesc_keypair_name(enum model_lesc_keypair k)
{
    return keypair_words[k];
}

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
             "cc310 (the nRF52840's CryptoCell), pqpan (this repository's small build, QEMU "
             "cycle model); pqpan-m4* every build make bench-m4 measured (data/cycles/"
             "pqpan_m4.csv; pqpan-m4-speed-o2: the speed build, docs/M4.md)"},
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

const struct cli_opt_table *const model_tables[MODEL_TABLES] = {
    &model_energy_table, &model_ramp_table, &model_crypto_table, &model_gamma_table};
int model_opts_choices(const char *opt, cli_word_fn add, void *ctx)
{
    size_t k;
    for (k = 0; k < MODEL_TABLES; k++) {
        if (cli_opt_table_words(model_tables[k], opt, add, ctx)) {
            return 1;
        }
    }
    return 0;
}

/* --p256-impl: a name some P-256 row of the loaded tables has (EXIT_USAGE, message in *msg,
 * if not). */
static int load_p256_impl(struct model_env *env, const char *given, struct cli_msg *msg)
{
    const char *impl = given != NULL ? given : pqpan_default_value(PQPAN_DEFAULT_P256_IMPL);
    if (strlen(impl) >= sizeof env->p256_impl ||
        pqpan_cycles_find(&env->in.cycles, "P-256", impl, PQPAN_OP_ECDH_KEYGEN) == NULL ||
        pqpan_cycles_find(&env->in.cycles, "P-256", impl, PQPAN_OP_ECDH_SHARED) == NULL) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "--p256-impl %s: no P-256 cycle rows for it in data/cycles/ (want "
                           "emill-asm, p256-m, tinycrypt, cc310 or pqpan)",
                           impl);
    }
    strcpy(env->p256_impl, impl);
    return EXIT_OK;
}

/* The profile at --supply-v and --ram-retained-kb (pqpan_profile_at_supply), each refusal
 * a message naming the device's figures. */
static int apply_supply(struct model_env *env, const struct model_opts *o, struct cli_msg *msg)
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
        return cli_msg_set(msg, EXIT_USAGE,
                           "--supply-v %g: profile %s gives no supply range or regulator (no "
                           "\"supply\" section): it prices %.2f V only",
                           o->supply_v, p->name, p->supply_v);
    }
    if (o->supply_v > 0.0 && (o->supply_v < s->min_v || o->supply_v > s->max_v)) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "--supply-v %g: outside %s's supply range %.2f..%.2f V (the "
                           "profile's supply.min_v, max_v)",
                           o->supply_v, p->name, s->min_v, s->max_v);
    }
    if (s->ram_points == 0) {
        return cli_msg_set(msg, EXIT_USAGE,
                           "--ram-retained-kb %g: profile %s gives no sleep current by retained "
                           "RAM (supply.sleep_ram_ua)",
                           o->ram_retained_kb, p->name);
    }
    return cli_msg_set(msg, EXIT_USAGE,
                       "--ram-retained-kb %g: outside %s's retention table, %g..%g kB "
                       "(supply.sleep_ram_ua)",
                       o->ram_retained_kb, p->name, s->ram_kb[0], s->ram_kb[s->ram_points - 1]);
}

int model_env_load_msg(struct model_env *env, const struct model_opts *o, struct cli_msg *msg)
{
    const struct pqpan_profile *p;
    int rc, op;
    memset(env, 0, sizeof *env);
    rc = data_energy_inputs_load(&env->in, o->profile, o->calibration, o->crypto_impl,
                                 msg->text, sizeof msg->text);
    if (rc != EXIT_OK) {
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
    rc = apply_supply(env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    p = &env->in.profile;
    rc = load_p256_impl(env, o->p256_impl, msg);
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
               : cli_msg_set(msg, EXIT_FAILURE_RUN, "profile %s: no BLE device timing",
                             p->name);
}

int model_env_new_msg(struct model_env **env, const struct model_opts *o, struct cli_msg *msg)
{
    int rc;
    *env = malloc(sizeof **env);
    if (*env == NULL) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    rc = model_env_load_msg(*env, o, msg);
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

const char *model_side_name(unsigned groups, int s)
{
    static const char *const ble[MODEL_SIDES] = {"peripheral", "central", "total"};
    static const char *const ieee802154[MODEL_SIDES] = {"initiator", "responder", "total"};
    return (groups & GROUP_802154) ? ieee802154[s] : ble[s];
}
