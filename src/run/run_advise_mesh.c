/* The run of `pqpan advise --link ble-mesh` (pqpan_run "advise" with --link ble-mesh, run.h;
 * docs/CLI.md "pqpan advise --link ble-mesh", docs/MODEL.md "Advice over BLE Mesh
 * provisioning"): the provisioning that costs the device (the unprovisioned node, on its
 * battery) the least energy. Every configuration of a grid over both bearers and their
 * settings, at every ML-KEM level from --min-level and both Start algorithms, runs through
 * mesh_estimate (the rows of `estimate --link ble-mesh`); the device's e_total_uj (events
 * accounting, every state) ranks them, ties by latency then by the grid's order; those over
 * --max-latency-ms are left out. Rows: the answer's heading as NOTE rows (table) and one
 * MEMBERS row (JSON), then one MESH_CHOICE row per configuration of the ranked list and one
 * MESH_BEST row per bearer with a configuration (struct pqpan_run_mesh_choice, typed, with
 * units), which the faces print as the table's lines and the JSON's "choices" and
 * "best_per_bearer". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_model.h"
#include "pqpan/advise.h"
#include "pqpan/ble_pdu.h"
#include "pqpan/defaults.h"
#include "pqpan/kem.h"
#include "run_advise.h"
#include "run_internal.h"

/* ---- the search's grid ---- */

/* PB-ADV advInterval: from 20 ms, the least an advertising interval may be (Core v5.4
 * Vol 6 Part B §4.4.2.2; PQPAN_BLE_ADV_INTERVAL_MIN_NS), to 200 ms. */
static const double pbadv_interval_ms[] = {20.0, 50.0, 100.0, 200.0};
#define N_INTERVALS (sizeof pbadv_interval_ms / sizeof pbadv_interval_ms[0])
/* PB-GATT: ATT_MTU from LE's 23 (Core v5.4 Vol 3 Part G §5.2.1) to 247 in steps of 32, and
 * 517 (an attribute value of 512 octets + 5, Vol 3 Part F §3.2.9); LL payload 27 (no data
 * length extension) to 251 (Vol 6 Part B §2.4) in steps of 32; connection intervals as
 * advise's BLE grid, up to 100 ms. */
static const unsigned pbgatt_mtu[] = {PQPAN_ATT_DEFAULT_MTU, 55, 87, 119, 151, 183, 215, 247,
                                      PQPAN_ATT_MAX_MTU};
static const unsigned pbgatt_ll[] = {27, 59, 91, 123, 155, 187, 219, PQPAN_LL_DATA_MAX_PAYLOAD};
static const double pbgatt_ci_ms[] = {7.5, 15.0, 30.0, 50.0, 100.0};
#define N_MTU (sizeof pbgatt_mtu / sizeof pbgatt_mtu[0])
#define N_LL (sizeof pbgatt_ll / sizeof pbgatt_ll[0])
#define N_CI (sizeof pbgatt_ci_ms / sizeof pbgatt_ci_ms[0])
#define N_REPLY 2 /* next-event, same-event */
#define N_ALG PQPAN_MESH_PROV_ALG_COUNT

#define N_PBADV ((uint32_t)(N_INTERVALS * MESH_TRANSMISSIONS_MAX * MESH_TRANSMISSIONS_MAX * \
                            MESH_TRANSMISSIONS_MAX))
#define N_PBGATT ((uint32_t)(PQPAN_BLE_PHY_COUNT * N_MTU * N_LL * N_CI * N_REPLY))
#define N_PER_LEVEL ((N_PBADV + N_PBGATT) * (uint32_t)N_ALG)

/* ---- the request ---- */

struct mesh_advice_opts {
    struct advise_opts a; /* the energy options, --min-level, --max-latency-ms, --top, --format */
    int hybrid;           /* --hybrid p256: the hybrid variant at every level */
};

static const char *const link_words[] = {"ble-mesh", NULL};
static const char *const hybrid_words[] = {"none", "p256", NULL};

#define MADV(m) offsetof(struct mesh_advice_opts, m)

static const struct cli_opt advice_rows[] = {
    {.name = "--link", .kind = CLI_OPT_WORD, .words = link_words,
     .help = "ble-mesh: the BLE Mesh provisioning that costs the device (the unprovisioned node) "
             "the least energy, over both bearers and their settings (docs/MODEL.md \"Advice "
             "over BLE Mesh provisioning\")"},
    {.name = "--hybrid", .kind = CLI_OPT_WORD, .words = hybrid_words, .def = PQPAN_DEFAULT_HYBRID,
     .store = CLI_STORE_INT, .offset = MADV(hybrid),
     .help = "--link ble-mesh: p256 searches the hybrid variant (P-256 key before the ML-KEM ek or "
             "ct in each Public Key PDU) instead of ML-KEM alone"},
};

static void init_advice(void *o)
{
    memset(o, 0, sizeof(struct mesh_advice_opts));
    cli_opt_table_defaults(&advise_mesh_table, o);
}

const struct cli_opt_table advise_mesh_table =
    CLI_OPT_TABLE("advise-ble-mesh", "advise --link ble-mesh options", advice_rows,
                  struct mesh_advice_opts, init_advice);

/* advise's options --link ble-mesh takes besides the energy ones (the others price a rekey
 * on an open link: its idle link, peer, battery life). */
static const char *const advise_own[] = {"--min-level", "--max-latency-ms", "--top", "--format",
                                         NULL};

/* Whether name is an energy option (model_tables). */
static int energy_option(const char *name)
{
    size_t k;
    for (k = 0; k < MODEL_TABLES; k++) {
        if (cli_opt_find(model_tables[k], name) != NULL) {
            return 1;
        }
    }
    return 0;
}

const struct cli_opt *advise_mesh_opt_row(const char *name, void *opts, void **into)
{
    struct mesh_advice_opts *o = opts;
    const struct cli_opt *row = cli_opt_find(&advise_mesh_table, name);
    if (row != NULL) {
        *into = o;
        return row;
    }
    row = advise_opt_row(name, &o->a, into); /* advise's rows (its subset of the gamma table) */
    return row != NULL && (energy_option(name) || cli_word_index(advise_own, name) >= 0) ? row
                                                                                        : NULL;
}

size_t advise_mesh_opts_size(void)
{
    return sizeof(struct mesh_advice_opts);
}

static int parse(struct run_ctx *r, struct mesh_advice_opts *o, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    struct cli_msg msg;
    size_t i;
    int rc = PQPAN_OK;
    init_advice(o);
    advise_opts_defaults(&o->a);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        void *into = NULL;
        const struct cli_opt *row = opts[i].name != NULL
                                        ? advise_mesh_opt_row(opts[i].name, o, &into)
                                        : NULL;
        if (opts[i].name == NULL) {
            return run_fail(r, EXIT_USAGE, NULL, "an option without a name");
        }
        if (advise_refused(opts[i].name, &msg) != EXIT_OK) {
            return run_fail(r, EXIT_USAGE, opts[i].name, msg.text);
        }
        if (row == NULL) {
            (void)cli_msg_set(&msg, EXIT_USAGE, "unknown option for --link ble-mesh '%s' (%s)",
                              opts[i].name, ADV_MESH_TAKES);
            return run_fail(r, EXIT_USAGE, opts[i].name, msg.text);
        }
        rc = run_set(r, row, into, &opts[i]);
    }
    return rc;
}

/* ---- the search ---- */

/* One configuration: its options and what it costs. */
struct advice {
    uint32_t id;    /* in the grid's order */
    int level;      /* index of the ML-KEM set */
    struct mesh_opts o;
    double device_uj, provisioner_uj, latency_ms;
};

struct search {
    const struct mesh_advice_opts *q;
    const struct model_env *env;
    struct advice best[PQPAN_ADVISE_TOP_MAX];
    size_t n_best;
    struct advice bearer_best[2]; /* PB-ADV, PB-GATT */
    int bearer_found[2];
    struct advice fastest; /* none within --max-latency-ms: the fastest valid one */
    int fastest_found;
    uint32_t searched, refused, over_latency;
};

/* The options of grid point k (0 .. N_PER_LEVEL - 1) at level index lv. */
static void point_of(struct mesh_opts *o, uint32_t k, int lv, int hybrid)
{
    uint32_t alg = k % N_ALG, rest = k / N_ALG;
    mesh_opts_init(o);
    o->kem = pqpan_kem_at((size_t)lv)->name;
    o->hybrid = hybrid;
    o->alg = (int)alg;
    if (rest < N_PBADV) {
        o->bearer = MESH_BEARER_PB_ADV;
        o->close_transmissions = rest % MESH_TRANSMISSIONS_MAX + 1u;
        rest /= MESH_TRANSMISSIONS_MAX;
        o->ack_transmissions = rest % MESH_TRANSMISSIONS_MAX + 1u;
        rest /= MESH_TRANSMISSIONS_MAX;
        o->pdu_transmissions = rest % MESH_TRANSMISSIONS_MAX + 1u;
        o->adv_interval_ns = (uint64_t)(pbadv_interval_ms[rest / MESH_TRANSMISSIONS_MAX] * 1e6);
        return;
    }
    rest -= N_PBADV;
    o->bearer = MESH_BEARER_PB_GATT;
    o->gatt.cfg.same_event_reply = (int)(rest % N_REPLY);
    rest /= N_REPLY;
    o->gatt.cfg.ci_ns = (uint64_t)(pbgatt_ci_ms[rest % N_CI] * 1e6);
    rest /= (uint32_t)N_CI;
    o->gatt.cfg.ll_octets = pbgatt_ll[rest % N_LL];
    rest /= (uint32_t)N_LL;
    o->gatt.cfg.att_mtu = pbgatt_mtu[rest % N_MTU];
    o->gatt.cfg.phy = (enum pqpan_ble_phy)(rest / N_MTU);
}

/* a before b: less device energy, then less latency, then earlier in the grid. */
static int better(const struct advice *a, const struct advice *b)
{
    if (a->device_uj != b->device_uj) {
        return a->device_uj < b->device_uj;
    }
    if (a->latency_ms != b->latency_ms) {
        return a->latency_ms < b->latency_ms;
    }
    return a->id < b->id;
}

/* a into the ranked list of the best --top. */
static void rank(struct search *s, const struct advice *a)
{
    size_t top = s->q->a.top, i = s->n_best < top ? s->n_best++ : top;
    while (i > 0 && better(a, &s->best[i - 1])) {
        if (i < top) {
            s->best[i] = s->best[i - 1];
        }
        i--;
    }
    if (i < top) {
        s->best[i] = *a;
    }
}

static void consider(struct search *s, const struct advice *a)
{
    int b = a->o.bearer == MESH_BEARER_PB_GATT;
    if (!s->fastest_found || a->latency_ms < s->fastest.latency_ms) {
        s->fastest = *a;
        s->fastest_found = 1;
    }
    if (s->q->a.max_latency_ms > 0.0 && a->latency_ms > s->q->a.max_latency_ms) {
        s->over_latency++;
        return;
    }
    if (!s->bearer_found[b] || better(a, &s->bearer_best[b])) {
        s->bearer_best[b] = *a;
        s->bearer_found[b] = 1;
    }
    rank(s, a);
}

/* Runs every configuration from --min-level up; one mesh_estimate refuses (a PHY the
 * profile has no current for) is counted, not an error. */
static void search(struct search *s, struct mesh_result *res)
{
    struct cli_msg msg;
    int lv;
    uint32_t k;
    struct advice a;
    for (lv = 0; lv < ADV_LEVELS; lv++) {
        if (advise_category(lv) < s->q->a.min_level) {
            continue;
        }
        for (k = 0; k < N_PER_LEVEL; k++) {
            memset(&a, 0, sizeof a);
            a.id = (uint32_t)lv * N_PER_LEVEL + k;
            a.level = lv;
            point_of(&a.o, k, lv, s->q->hybrid);
            s->searched++;
            if (mesh_estimate(res, s->env, &a.o, &msg) != EXIT_OK) {
                s->refused++;
                continue;
            }
            a.device_uj = res->rows[MESH_DEVICE].e_total_uj;
            a.provisioner_uj = res->rows[MESH_PROVISIONER].e_total_uj;
            a.latency_ms = res->rows[MESH_DEVICE].latency_ms;
            consider(s, &a);
        }
    }
}

/* ---- the answer ---- */

/* A number as an option value: its shortest decimal ("7.5", "20"). */
static void value_text(char *buf, size_t len, double x)
{
    size_t n;
    snprintf(buf, len, "%.6f", x);
    n = strlen(buf);
    while (n > 0 && buf[n - 1] == '0') {
        buf[--n] = '\0';
    }
    if (n > 0 && buf[n - 1] == '.') {
        buf[n - 1] = '\0';
    }
}

/* The bearer's settings of a as estimate's options ("--pbadv-interval-ms 20
 * --pdu-transmissions 1 ..."). */
static void settings(char *buf, size_t len, const struct mesh_opts *o)
{
    char x[32];
    if (o->bearer == MESH_BEARER_PB_GATT) {
        value_text(x, sizeof x, (double)o->gatt.cfg.ci_ns * 1e-6);
        snprintf(buf, len, "--phy %s --att-mtu %u --ll-octets %u --ci-ms %s --reply %s",
                 pqpan_ble_phy_name(o->gatt.cfg.phy), (unsigned)o->gatt.cfg.att_mtu,
                 (unsigned)o->gatt.cfg.ll_octets, x,
                 o->gatt.cfg.same_event_reply ? "same-event" : "next-event");
        return;
    }
    value_text(x, sizeof x, (double)o->adv_interval_ns * 1e-6);
    snprintf(buf, len, "--pbadv-interval-ms %s --pdu-transmissions %u --ack-transmissions %u "
                       "--close-transmissions %u",
             x, (unsigned)o->pdu_transmissions, (unsigned)o->ack_transmissions,
             (unsigned)o->close_transmissions);
}

/* `pqpan estimate` options that give a's rows. */
static void estimate_args(char *buf, size_t len, const struct advice *a)
{
    char s[160];
    settings(s, sizeof s, &a->o);
    snprintf(buf, len, "--link ble-mesh --bearer %s --kem %s --hybrid %s --prov-alg %s %s",
             a->o.bearer == MESH_BEARER_PB_GATT ? "pb-gatt" : "pb-adv", a->o.kem,
             a->o.hybrid ? "p256" : "none", pqpan_mesh_prov_alg_name((enum pqpan_mesh_prov_alg)a->o.alg),
             s);
}

/* ---- the rows ---- */

#define MCH(m) offsetof(struct pqpan_run_mesh_choice, m)
#define MCH_JSON PQPAN_RUN_GROUP_JSON

/* A configuration's fields: the JSON items' members in their order, then the table's
 * settings. */
static const struct pqpan_run_field choice_fields[] = {
    {"rank", "rank (0: the best of its bearer)", NULL, MCH_JSON, PQPAN_RUN_STORE_UINT, MCH(rank),
     0},
    {"bearer", "bearer", NULL, MCH_JSON, PQPAN_RUN_STORE_TEXT, MCH(bearer), 0},
    {"kem", "KEM", NULL, MCH_JSON, PQPAN_RUN_STORE_TEXT, MCH(kem), 0},
    {"category", "NIST category", NULL, MCH_JSON, PQPAN_RUN_STORE_UINT, MCH(category), 0},
    {"hybrid", "hybrid", NULL, MCH_JSON, PQPAN_RUN_STORE_TEXT, MCH(hybrid), 0},
    {"prov_alg", "Start algorithm", NULL, MCH_JSON, PQPAN_RUN_STORE_TEXT, MCH(prov_alg), 0},
    {"device_uj", "device energy (uJ)", "uJ", MCH_JSON, PQPAN_RUN_STORE_REAL, MCH(device_uj), 3},
    {"provisioner_uj", "provisioner energy (uJ)", "uJ", MCH_JSON, PQPAN_RUN_STORE_REAL,
     MCH(provisioner_uj), 3},
    {"latency_ms", "latency (ms)", "ms", MCH_JSON, PQPAN_RUN_STORE_REAL, MCH(latency_ms), 3},
    {"estimate", "pqpan estimate options", NULL, MCH_JSON, PQPAN_RUN_STORE_TEXT, MCH(estimate),
     0},
    {"settings", "bearer settings", NULL, 0, PQPAN_RUN_STORE_TEXT, MCH(settings), 0},
};

const struct pqpan_run_field *pqpan_run_mesh_choice_fields(size_t *n)
{
    *n = sizeof choice_fields / sizeof choice_fields[0];
    return choice_fields;
}

/* The texts a row points to. */
struct choice_texts {
    char settings[160], estimate[320];
};

/* a of rank rank_no (0: the best of its bearer) as a row's struct, its texts in t. */
static void choice_of(struct pqpan_run_mesh_choice *out, struct choice_texts *t, unsigned rank_no,
                      const struct advice *a)
{
    memset(out, 0, sizeof *out);
    settings(t->settings, sizeof t->settings, &a->o);
    estimate_args(t->estimate, sizeof t->estimate, a);
    out->rank = rank_no;
    out->bearer = a->o.bearer == MESH_BEARER_PB_GATT ? "pb-gatt" : "pb-adv";
    out->kem = a->o.kem;
    out->category = advise_category(a->level);
    out->hybrid = a->o.hybrid ? "p256" : "none";
    out->prov_alg = pqpan_mesh_prov_alg_name((enum pqpan_mesh_prov_alg)a->o.alg);
    out->device_uj = a->device_uj;
    out->provisioner_uj = a->provisioner_uj;
    out->latency_ms = a->latency_ms;
    out->estimate = t->estimate;
    out->settings = t->settings;
}

static int emit_choice(struct run_ctx *r, enum pqpan_run_record rec, unsigned rank_no,
                       const struct advice *a)
{
    struct pqpan_run_mesh_choice c;
    struct choice_texts t;
    struct pqpan_run_row row;
    choice_of(&c, &t, rank_no, a);
    memset(&row, 0, sizeof row);
    row.record = rec;
    row.link = PQPAN_RUN_LINK_BLE;
    row.groups = MCH_JSON;
    row.fields = pqpan_run_mesh_choice_fields(&row.n_fields);
    return run_emit_row(r, &row, &c);
}

/* ---- the notes ---- */

struct answer {
    const struct search *s;
    const struct model_env *env;
};

/* What the search left out by --max-latency-ms, if it was given. */
static void latency_text(char *buf, size_t len, const struct search *s)
{
    if (s->q->a.max_latency_ms > 0.0) {
        snprintf(buf, len, ", %u over --max-latency-ms %.3f", (unsigned)s->over_latency,
                 s->q->a.max_latency_ms);
    } else {
        buf[0] = '\0';
    }
}

/* The table's lines before the ranked list (its column heading the last). */
static void table_answer(FILE *f, const void *arg)
{
    const struct answer *w = arg;
    const struct search *s = w->s;
    const struct advice *b = &s->best[0];
    char args[320], lat[64];
    estimate_args(args, sizeof args, b);
    latency_text(lat, sizeof lat, s);
    fprintf(f, "pqpan advise --link ble-mesh: provision over %s with %s (%s): the device "
               "spends %.3f uJ, the provisioner %.3f uJ, %.3f ms\n",
            mesh_bearer_name(b->o.bearer), b->o.kem,
            pqpan_mesh_prov_alg_name((enum pqpan_mesh_prov_alg)b->o.alg), b->device_uj,
            b->provisioner_uj, b->latency_ms);
    fprintf(f, "  reproduce: pqpan estimate %s\n", args);
    fprintf(f, "  objective: the device's energy over the provisioning (events accounting, every "
               "state; PB-ADV scans continuously), zero loss; PB-GATT with its connection's "
               "set-up (advertising at %.3f ms until the provisioner, scanning from time 0, "
               "connects; discovery, CCCD write; docs/MODEL.md \"PB-GATT set-up\")\n",
            (double)b->o.pbgatt_adv_interval_ns * 1e-6);
    fprintf(f, "  searched: %u configurations (%u refused by the model%s), NIST category >= %u, "
               "hybrid %s\n",
            (unsigned)s->searched, (unsigned)s->refused, lat, s->q->a.min_level,
            s->q->hybrid ? "p256" : "none");
    model_print_profile_line(f, w->env, "  ");
    fprintf(f, "\n  rank  bearer   kem          alg    device (uJ)  provisioner (uJ)  latency (ms)  "
               "settings\n");
}

/* The grid as JSON lists (what the search runs, for a check against `pqpan sweep`). */
static void json_grid(FILE *f)
{
    size_t i;
    fprintf(f, "  \"grid\": {\"pbadv_interval_ms\": [");
    for (i = 0; i < N_INTERVALS; i++) {
        fprintf(f, "%s%.1f", i ? ", " : "", pbadv_interval_ms[i]);
    }
    fprintf(f, "], \"transmissions\": [1, %u], \"att_mtu\": [", (unsigned)MESH_TRANSMISSIONS_MAX);
    for (i = 0; i < N_MTU; i++) {
        fprintf(f, "%s%u", i ? ", " : "", pbgatt_mtu[i]);
    }
    fprintf(f, "], \"ll_octets\": [");
    for (i = 0; i < N_LL; i++) {
        fprintf(f, "%s%u", i ? ", " : "", pbgatt_ll[i]);
    }
    fprintf(f, "], \"ci_ms\": [");
    for (i = 0; i < N_CI; i++) {
        fprintf(f, "%s%.1f", i ? ", " : "", pbgatt_ci_ms[i]);
    }
    fprintf(f, "]},\n");
}

/* The JSON's members before the lists of the MESH_CHOICE and MESH_BEST rows. */
static void json_answer(FILE *f, const void *arg)
{
    const struct answer *w = arg;
    const struct search *s = w->s;
    fprintf(f, "  \"link\": \"ble-mesh\",\n  \"objective\": \"device e_total_uj\",\n"
               "  \"min_level\": %u,\n  \"hybrid\": \"%s\",\n",
            s->q->a.min_level, s->q->hybrid ? "p256" : "none");
    if (s->q->a.max_latency_ms > 0.0) {
        fprintf(f, "  \"max_latency_ms\": %.3f,\n", s->q->a.max_latency_ms);
    } else {
        fprintf(f, "  \"max_latency_ms\": null,\n");
    }
    fprintf(f, "  \"searched\": %u,\n  \"refused\": %u,\n  \"over_latency\": %u,\n",
            (unsigned)s->searched, (unsigned)s->refused, (unsigned)s->over_latency);
    json_grid(f);
}

/* No configuration within --max-latency-ms: the fastest named in the failure. */
static int report_none(struct run_ctx *r, const struct search *s)
{
    char args[320], text[PQPAN_RUN_MESSAGE_MAX];
    if (!s->fastest_found) {
        return run_fail(r, EXIT_FAILURE_RUN, "--min-level",
                        "no configuration of the search runs at this level");
    }
    estimate_args(args, sizeof args, &s->fastest);
    snprintf(text, sizeof text,
             "no configuration meets --max-latency-ms %.3f: the fastest takes %.3f ms (%s)",
             s->q->a.max_latency_ms, s->fastest.latency_ms, args);
    return run_fail(r, EXIT_FAILURE_RUN, "--max-latency-ms", text);
}

static int answer(struct run_ctx *r, const struct search *s, const struct model_env *env)
{
    struct answer w;
    size_t i;
    int k, rc;
    if (s->n_best == 0) {
        return report_none(r, s);
    }
    w.s = s;
    w.env = env;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_answer, &w);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_answer, &w);
    }
    for (i = 0; i < s->n_best && rc == PQPAN_OK; i++) {
        rc = emit_choice(r, PQPAN_RUN_RECORD_MESH_CHOICE, (unsigned)(i + 1), &s->best[i]);
    }
    for (k = 0; k < 2 && rc == PQPAN_OK; k++) {
        if (s->bearer_found[k]) {
            rc = emit_choice(r, PQPAN_RUN_RECORD_MESH_BEST, 0u, &s->bearer_best[k]);
        }
    }
    return rc;
}

int run_advise_mesh(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct mesh_advice_opts *q = malloc(sizeof *q);
    struct search *s = malloc(sizeof *s);
    struct mesh_result *res = malloc(sizeof *res);
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc = q != NULL && s != NULL && res != NULL
                 ? parse(r, q, opts, n_opts)
                 : run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &q->a.m, &msg);
        rc = load != EXIT_OK ? run_fail(r, load, NULL, msg.text) : PQPAN_OK;
    }
    if (rc == PQPAN_OK) {
        memset(s, 0, sizeof *s);
        s->q = q;
        s->env = env;
        search(s, res);
        rc = answer(r, s, env);
    }
    free(env);
    free(res);
    free(s);
    free(q);
    return rc;
}
