/* The PQKE over 6LoWPAN / IEEE 802.15.4 for the CLI (see lowpan_model.h). */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lowpan_model.h"
#include "pqpan/kem.h"
#include "pqpan/pcap.h"
#include "pqpan/pqke.h"
#include "pqpan/sim.h"
#include "pqpan/sim154.h"

void lowpan_opts_init(struct lowpan_opts *o)
{
    memset(o, 0, sizeof *o);
    o->kem = "ML-KEM-768";
    o->idle = -1;
    o->backoff = -1;
}

void lowpan_opts_help(FILE *out)
{
    fprintf(out,
            "  --link ble|802154      the link: BLE (default) or 6LoWPAN over IEEE 802.15.4\n"
            "                         (2.4 GHz O-QPSK, 250 kb/s, acknowledged frames)\n"
            "  --kem NAME             ML-KEM-512, ML-KEM-768 (default), ML-KEM-1024; messages\n"
            "                         are pqpan's INIT / RESP / FIN (docs/PROTOCOL.md) in UDP\n"
            "  --csma ieee|contiki    CSMA-CA set: ieee (macMinBE 3, macMaxBE 5, 4 backoffs,\n"
            "                         3 retries; default) or contiki (3, 5, 5, 7: Contiki-NG)\n"
            "  --addr short|extended  MAC addressing: 16-bit short or 64-bit extended (default)\n"
            "  --idle listen|sleep    the radio when a node neither sends, receives nor computes\n"
            "                         (SIFS/LIFS, waiting for the other side): listen = RX current\n"
            "                         (a non-duty-cycled node), sleep = sleep current (ideal\n"
            "                         wake-up); default: the profile's ieee802154.idle\n"
            "  --backoff listen|sleep the radio during a CSMA-CA random backoff (0..2^BE-1 periods\n"
            "                         of 320 us): listen = RX current, sleep = sleep current;\n"
            "                         default: the profile's ieee802154.backoff. CCAs (128 us each)\n"
            "                         are always charged at the RX current\n");
}

int lowpan_link_requested(int argc, char **argv)
{
    int i;
    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--link") == 0 && strcmp(argv[i + 1], "802154") == 0) {
            return 1;
        }
    }
    return 0;
}

/* Options of the 802.15.4 link that take one word of a set: the word's index goes into an
 * int of lowpan_opts (--csma: contiki = 1, --addr: short = 1, --idle / --backoff:
 * listen = 1). */
static const char *const csma_words[] = {"ieee", "contiki", NULL};
static const char *const addr_words[] = {"extended", "short", NULL};
static const char *const state_words[] = {"sleep", "listen", NULL};

static const struct {
    const char *opt;
    const char *const *words;
    size_t off;
} word_opts[] = {
    {"--csma", csma_words, offsetof(struct lowpan_opts, contiki)},
    {"--addr", addr_words, offsetof(struct lowpan_opts, short_addr)},
    {"--idle", state_words, offsetof(struct lowpan_opts, idle)},
    {"--backoff", state_words, offsetof(struct lowpan_opts, backoff)},
};
#define N_WORD_OPTS (sizeof word_opts / sizeof word_opts[0])

static int word_opt_index(const char *opt)
{
    size_t k;
    for (k = 0; k < N_WORD_OPTS; k++) {
        if (strcmp(opt, word_opts[k].opt) == 0) {
            return (int)k;
        }
    }
    return -1;
}

/* An option with its value: 1 ok, -1 bad value. */
static int value_opt(struct lowpan_opts *o, const char *opt, const char *v)
{
    int w = word_opt_index(opt);
    if (w >= 0) {
        int k = cli_word_index(word_opts[w].words, v);
        memcpy((char *)o + word_opts[w].off, &k, sizeof k);
        return k < 0 ? -1 : 1;
    }
    if (strcmp(opt, "--link") == 0) {
        return strcmp(v, "802154") == 0 ? 1 : -1;
    }
    if (strcmp(opt, "--kem") == 0) {
        o->kem = v;
        return pqpan_kem_by_name(v) != NULL ? 1 : -1;
    }
    return cli_parse_double(v, 0.0, 0.99, &o->busy) == 0 ? 1 : -1; /* --busy */
}

int lowpan_opts_parse(struct lowpan_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    const char *opt = argv[*i];
    if (strcmp(opt, "--link") != 0 && strcmp(opt, "--kem") != 0 && strcmp(opt, "--busy") != 0 &&
        word_opt_index(opt) < 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "%s needs a value", opt);
        return -1;
    }
    ++*i;
    if (value_opt(o, opt, argv[*i]) < 0) {
        cli_usage_error(cmd, "%s %s: see --help for the allowed values", opt, argv[*i]);
        return -1;
    }
    return 1;
}

int lowpan_opts_choices(const char *opt, cli_word_fn add, void *ctx)
{
    int w = word_opt_index(opt);
    if (w >= 0) {
        cli_words_each(word_opts[w].words, add, ctx);
        return 1;
    }
    if (strcmp(opt, "--kem") == 0) {
        model_kem_names(add, ctx);
        return 1;
    }
    return 0;
}

static void set_addressing(struct pqpan_802154_link_cfg *l, int short_addr)
{
    if (short_addr) {
        l->src.mode = PQPAN_802154_ADDR_SHORT;
        l->src.short_addr = 0x0001;
        l->dst.mode = PQPAN_802154_ADDR_SHORT;
        l->dst.short_addr = 0x0002;
    }
}

int lowpan_setup(struct pqpan_802154_est_config *c, uint64_t cycles[PQPAN_OP_COUNT],
                 const struct model_env *env, const struct lowpan_opts *o, struct cli_msg *msg)
{
    const struct pqpan_kem *k = pqpan_kem_by_name(o->kem);
    struct pqpan_ble_config ble;
    struct pqpan_pqke_sizes sz;
    int rc;
    pqpan_802154_est_config_default(c);
    if (k == NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "unknown KEM '%s' (ML-KEM-512, ML-KEM-768, "
                           "ML-KEM-1024)", o->kem);
    }
    pqpan_ble_config_default(&ble);
    ble.protocol = PQPAN_BLE_PROTO_PQPAN;
    rc = model_setup(cycles, &ble, env, o->kem, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    sz = pqpan_pqke_suite_sizes(pqpan_pqke_suite_for_kem(k->id));
    c->msg_octets[0] = (uint32_t)sz.init_bytes;
    c->msg_octets[1] = (uint32_t)sz.resp_bytes;
    c->msg_octets[2] = (uint32_t)sz.fin_bytes;
    c->csma = o->contiki ? pqpan_802154_csma_contiki() : pqpan_802154_csma_ieee();
    c->p_busy = o->busy;
    c->cpu_hz = env->in.profile.cpu_hz;
    c->rx_always_on = (uint8_t)lowpan_idle_listens(o, env);
    c->backoff_rx = (uint8_t)lowpan_backoff_listens(o, env);
    set_addressing(&c->link, o->short_addr);
    return EXIT_OK;
}

int lowpan_idle_listens(const struct lowpan_opts *o, const struct model_env *env)
{
    return o->idle >= 0 ? o->idle : env->in.profile.ieee802154.idle_rx;
}

int lowpan_backoff_listens(const struct lowpan_opts *o, const struct model_env *env)
{
    return o->backoff >= 0 ? o->backoff : env->in.profile.ieee802154.backoff_rx;
}

static const char *state_word(int listens)
{
    return listens ? "listen" : "sleep";
}

int lowpan_fill(struct model_row rows[MODEL_SIDES], const struct model_env *env,
                const char *kem, const struct pqpan_ledger led[2],
                const struct pqpan_ledger bits[2], uint64_t latency_ns, struct cli_msg *msg)
{
    struct pqpan_ledger l[MODEL_SIDES], b[MODEL_SIDES];
    int s, rc = EXIT_OK;
    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    pqpan_ledger_init(&l[MODEL_TOTAL]);
    pqpan_ledger_init(&b[MODEL_TOTAL]);
    for (s = 0; s < 2; s++) {
        l[s] = led[s];
        b[s] = bits[s];
        pqpan_ledger_accumulate(&l[MODEL_TOTAL], &l[s]);
        pqpan_ledger_accumulate(&b[MODEL_TOTAL], &b[s]);
    }
    for (s = 0; s < MODEL_SIDES && rc == EXIT_OK; s++) {
        struct model_row *r = &rows[s];
        rc = model_fill_side(r, env, PQPAN_RADIO_IEEE802154, &l[s], &b[s], msg);
        r->side = model_side_name(GROUP_802154, s);
        r->kem = kem;
        r->protocol = "pqpan";
        r->phy = pqpan_radio_mode_name(PQPAN_RADIO_IEEE802154);
        r->latency_ms = (double)latency_ns * 1e-6;
        r->pdus_tx = l[s].pdus_tx;
        r->pdus_rx = l[s].pdus_rx;
        r->bytes_tx = l[s].bytes_tx;
        r->bytes_rx = l[s].bytes_rx;
    }
    if (rc != EXIT_OK) {
        memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    }
    return rc;
}

/* µA × V × ms = nJ; / 1000 = µJ */
static double uj(double ua, double v, double ms)
{
    return ua * v * ms * 1e-3;
}

/* Expected CCA and backoff time of n of the exchange's total data frames (every frame
 * has the same closed-form expectation). */
static void csma_share(struct model_row *r, const struct pqpan_802154_estimate *e, unsigned n,
                       unsigned total)
{
    double share = total > 0 ? (double)n / (double)total : 0.0;
    r->t_cca_ms = e->ccas * share * (double)PQPAN_802154_CCA_NS * 1e-6;
    r->t_backoff_ms = e->backoff_ns * share * 1e-6;
}

void lowpan_fill_802154(struct model_row rows[MODEL_SIDES], const struct pqpan_802154_estimate *e,
                        const struct pqpan_802154_est_config *c, const struct model_env *env)
{
    const struct pqpan_profile *p = &env->in.profile;
    unsigned data[2], total = e->frames[0] + e->frames[1] + e->frames[2];
    double rx_ua = 0.0;
    int s;
    data[PQPAN_802154_INITIATOR] = e->frames[0] + e->frames[2];
    data[PQPAN_802154_RESPONDER] = e->frames[1];
    if (pqpan_profile_rx_ua(p, env->table, PQPAN_RADIO_IEEE802154, &rx_ua) != PQPAN_OK) {
        rx_ua = 0.0; /* lowpan_fill has reported the missing current already */
    }
    for (s = 0; s < MODEL_SIDES; s++) {
        struct model_row *r = &rows[s];
        r->idle = state_word(c->rx_always_on);
        r->backoff = state_word(c->backoff_rx);
        r->data_frames_tx = s < 2 ? data[s] : total;
        r->acks_tx = s < 2 ? data[1 - s] : total;
        csma_share(r, e, (unsigned)r->data_frames_tx, total);
        r->e_cca_uj = uj(rx_ua, p->supply_v, r->t_cca_ms);
        r->e_backoff_rx_uj = c->backoff_rx ? uj(rx_ua, p->supply_v, r->t_backoff_ms) : 0.0;
        r->e_backoff_sleep_uj = c->backoff_rx ? 0.0 : uj(p->sleep_ua, p->supply_v, r->t_backoff_ms);
    }
}

int lowpan_estimate(struct model_row rows[MODEL_SIDES], struct pqpan_802154_estimate *e,
                    const struct model_env *env, const struct lowpan_opts *o, struct cli_msg *msg)
{
    struct pqpan_802154_est_config c;
    uint64_t cycles[PQPAN_OP_COUNT];
    int rc = lowpan_setup(&c, cycles, env, o, msg);
    memset(rows, 0, MODEL_SIDES * sizeof rows[0]);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_estimate_pqke(e, &c, cycles) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "802.15.4 configuration out of range");
    }
    rc = lowpan_fill(rows, env, o->kem, e->ledger, e->bits, e->latency_ns, msg);
    if (rc == EXIT_OK) {
        lowpan_fill_802154(rows, e, &c, env);
    }
    return rc;
}

/* ---- assumptions ---- */

/* The 802.15.4 TX level at the --tx-dbm in use (its index), or -1. */
static int tx_level(const struct model_env *env)
{
    const struct pqpan_profile_802154 *s = &env->in.profile.ieee802154;
    size_t i;
    for (i = 0; i < s->tx_level_count && i < PQPAN_PROFILE_TX_LEVELS_MAX; i++) {
        if (s->tx_dbm[i] == env->eopts.tx_dbm && s->tx_given[env->table][i]) {
            return (int)i;
        }
    }
    return -1;
}

static const char *given_or(const char *src, int given)
{
    return given ? src : "not given";
}

/* "from the profile: SOURCE" or "--OPT (command line)". */
static void print_origin(FILE *f, int override, const char *opt, const char *src)
{
    if (override >= 0) {
        fprintf(f, "--%s (command line)", opt);
    } else {
        fprintf(f, "profile: %s", src);
    }
}

void lowpan_print_assumptions(FILE *f, const struct model_env *env, const struct lowpan_opts *o,
                              const char *prefix)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct data_802154_sources *src = &env->in.src802154;
    int lvl = tx_level(env), idle = lowpan_idle_listens(o, env);
    int backoff = lowpan_backoff_listens(o, env);
    int rx_given = p->rx_given[env->table][PQPAN_RADIO_IEEE802154];
    model_print_profile_line(f, env, prefix);
    fprintf(f, "%scurrents: profile section ieee802154, %s table: TX %d dBm %.0f uA, RX %.0f uA\n",
            prefix, pqpan_current_table_name(env->table), env->eopts.tx_dbm,
            lvl >= 0 ? p->ieee802154.tx_ua[env->table][lvl] : 0.0,
            p->rx_ua[env->table][PQPAN_RADIO_IEEE802154]);
    fprintf(f, "%s  TX source: %s\n%s  RX source: %s\n", prefix,
            lvl >= 0 ? src->tx[env->table][lvl] : "not given", prefix,
            given_or(src->rx[env->table], rx_given));
    fprintf(f, "%sidle radio (SIFS/LIFS, waiting for the other side): %s, %s current; ", prefix,
            state_word(idle), idle ? "RX" : "sleep");
    print_origin(f, o->idle, "idle", src->idle);
    fprintf(f, "\n%sCSMA-CA backoff: %s, %s current; ", prefix, state_word(backoff),
            backoff ? "RX" : "sleep");
    print_origin(f, o->backoff, "backoff", src->backoff);
    fprintf(f, "\n%sCCA (aCcaTime 128 us) at the RX current; aTurnaroundTime (192 us) CCA to data "
               "frame at the TX current,\n%s  data frame to Imm-Ack at the RX current; TX ramp-up "
               "in 802.15.4 mode (tTXEN) fast %.0f us,\n%s  normal %.0f us (0: not given; inside "
               "the turnaround, not charged on top)\n",
            prefix, prefix, (double)p->ieee802154.ramp_tx_fast_ns * 1e-3, prefix,
            (double)p->ieee802154.ramp_tx_normal_ns * 1e-3);
    model_print_crypto_gamma(f, env, prefix);
    fprintf(f, "%saccountings: e_comm_uj/e_total_uj = bits (data frames, Imm-Acks and the "
               "turnaround between them\n%s  x gamma_comm); e_comm_events_uj/e_total_events_uj = "
               "all states (adds CCA, backoff,\n%s  the turnaround before each data frame, idle "
               "listening or sleep; no gamma)\n",
            prefix, prefix, prefix);
}

void lowpan_print_assumptions_json(FILE *f, const struct model_env *env,
                                   const struct lowpan_opts *o, const char *indent)
{
    const struct pqpan_profile *p = &env->in.profile;
    const struct data_802154_sources *src = &env->in.src802154;
    int lvl = tx_level(env), idle = lowpan_idle_listens(o, env);
    int backoff = lowpan_backoff_listens(o, env);
    int rx_given = p->rx_given[env->table][PQPAN_RADIO_IEEE802154];
    fprintf(f, "%s\"profile\": ", indent);
    model_json_string(f, p->name);
    fprintf(f, ",\n%s\"currents\": \"%s\",\n%s\"currents_section\": \"ieee802154\",\n"
               "%s\"tx_dbm\": %d,\n%s\"tx_ua\": %.1f,\n%s\"tx_source\": ",
            indent, pqpan_current_table_name(env->table), indent, indent, env->eopts.tx_dbm,
            indent, lvl >= 0 ? p->ieee802154.tx_ua[env->table][lvl] : 0.0, indent);
    model_json_string(f, lvl >= 0 ? src->tx[env->table][lvl] : "not given");
    fprintf(f, ",\n%s\"rx_ua\": %.1f,\n%s\"rx_source\": ", indent,
            p->rx_ua[env->table][PQPAN_RADIO_IEEE802154], indent);
    model_json_string(f, given_or(src->rx[env->table], rx_given));
    fprintf(f, ",\n%s\"idle\": \"%s\",\n%s\"idle_source\": ", indent, state_word(idle), indent);
    model_json_string(f, o->idle >= 0 ? "--idle (command line)" : src->idle);
    fprintf(f, ",\n%s\"backoff\": \"%s\",\n%s\"backoff_source\": ", indent,
            state_word(backoff), indent);
    model_json_string(f, o->backoff >= 0 ? "--backoff (command line)" : src->backoff);
    fprintf(f, ",\n%s\"ramp_tx_fast_us\": %.1f,\n%s\"ramp_tx_normal_us\": %.1f,\n", indent,
            (double)p->ieee802154.ramp_tx_fast_ns * 1e-3, indent,
            (double)p->ieee802154.ramp_tx_normal_ns * 1e-3);
    model_print_crypto_gamma_json(f, env, indent);
    fprintf(f, "%s\"e_comm_accounting\": \"bits\",\n", indent);
}

double lowpan_frame_ms(unsigned psdu)
{
    return (double)pqpan_802154_phy_ppdu_ns(psdu) * 1e-6;
}

double lowpan_channel_load(unsigned bg_nodes, double fps, unsigned psdu)
{
    return (double)bg_nodes * fps * lowpan_frame_ms(psdu) * 1e-3;
}

/* ---- Monte Carlo ---- */

static int file_write(void *ctx, const uint8_t *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

struct capture {
    struct pqpan_pcap_writer w;
    int failed;
};

static void on_frame(void *ctx, uint64_t t_ns, const uint8_t *psdu, size_t len)
{
    struct capture *cap = ctx;
    if (pqpan_pcap_write_packet(&cap->w, t_ns, psdu, len) != PQPAN_OK) {
        cap->failed = 1;
    }
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void lowpan_stats_of(struct lowpan_stats *st, double *v, unsigned n)
{
    static const double q[3] = {50.0, 90.0, 99.0};
    double *out[3];
    double sum = 0.0;
    unsigned i;
    out[0] = &st->p50;
    out[1] = &st->p90;
    out[2] = &st->p99;
    for (i = 0; i < n; i++) {
        sum += v[i];
    }
    st->mean = sum / (double)n;
    qsort(v, n, sizeof v[0], cmp_double);
    for (i = 0; i < 3; i++) {
        size_t rank = (size_t)ceil(q[i] / 100.0 * (double)n);
        *out[i] = v[rank > 0 ? rank - 1 : 0];
    }
}

struct mc {
    struct pqpan_sim154 sim;
    struct pqpan_sim154_config c;
    struct pqpan_sim_pqke app;
    unsigned suite;
    struct model_row rows[MODEL_SIDES];
    struct capture cap;
};

static void add_counts(struct lowpan_counts *sum, const struct pqpan_sim154_result *r)
{
    int n;
    for (n = 0; n < 2; n++) {
        sum->frames += r->frames[n];
        sum->retries += r->retries[n];
        sum->access_failures += r->access_failures[n];
        sum->ccas += r->ccas[n];
        sum->rx_lost += r->rx_lost[n];
        sum->dgram_retx += r->dgram_retx[n];
        sum->reasm_timeouts += r->reasm_timeouts[n];
        sum->duplicates += r->duplicates[n];
    }
}

static void scale_counts(struct lowpan_counts *c, unsigned runs)
{
    double k = 1.0 / (double)runs;
    c->frames *= k;
    c->retries *= k;
    c->access_failures *= k;
    c->ccas *= k;
    c->rx_lost *= k;
    c->dgram_retx *= k;
    c->reasm_timeouts *= k;
    c->duplicates *= k;
}

/* One seeded exchange: the real PQKE (seed S + run for the channel and the parties). */
static int one_run(struct mc *m, double *energy[MODEL_SIDES], double *latency, unsigned run,
                   const struct model_env *env, const struct lowpan_opts *o,
                   const struct lowpan_sim_cfg *s, struct cli_msg *msg)
{
    const struct pqpan_sim154_result *res = &m->sim.res;
    struct pqpan_ledger none[2];
    int rc, side, capture = s->pcap != NULL && run == 0;
    m->c.seed = s->seed + run;
    rc = pqpan_sim_pqke_init(&m->app, m->suite, (enum pqpan_ble_role)m->c.initiator_side, m->c.seed);
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_init(&m->sim, &m->c);
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_sim154_run(&m->sim, pqpan_sim_pqke_app(), &m->app, capture ? on_frame : NULL,
                              capture ? &m->cap : NULL);
    }
    pqpan_sim_pqke_wipe(&m->app);
    if (rc != PQPAN_OK) {
        return cli_msg_set(msg, rc == PQPAN_ERR_INVALID_ARG ? EXIT_USAGE : EXIT_FAILURE_RUN,
                           "802.15.4 simulator: %s", pqpan_strerror(rc));
    }
    pqpan_ledger_init(&none[0]);
    pqpan_ledger_init(&none[1]);
    rc = lowpan_fill(m->rows, env, o->kem, res->ledger, none, res->latency_ns, msg);
    for (side = 0; side < MODEL_SIDES && rc == EXIT_OK; side++) {
        energy[side][run] = m->rows[side].e_total_events_uj;
    }
    latency[run] = (double)res->latency_ns * 1e-6;
    return rc;
}

static int open_capture(struct capture *cap, FILE *f, struct cli_msg *msg)
{
    if (pqpan_pcap_writer_init(&cap->w, file_write, f, PQPAN_PCAP_LINKTYPE_IEEE802_15_4_WITHFCS,
                               1) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_IO, "cannot write the pcap file");
    }
    return EXIT_OK;
}

void lowpan_sim_cfg_init(struct lowpan_sim_cfg *s)
{
    memset(s, 0, sizeof *s);
    s->nodes = 2;
    s->frame_psdu = 60;
    s->runs = 100;
    s->seed = 1;
    s->reasm_timeout_ms = PQPAN_SIM154_REASM_TIMEOUT_MS_DEFAULT;
    s->dgram_retries = PQPAN_SIM154_DGRAM_RETRIES_DEFAULT;
}

int lowpan_simulate(struct lowpan_series *out, const struct model_env *env,
                    const struct lowpan_opts *o, const struct lowpan_sim_cfg *s,
                    struct cli_msg *msg)
{
    struct mc *m = malloc(sizeof *m);
    double *buf = malloc((MODEL_SIDES + 1u) * s->runs * sizeof(double));
    double *energy[MODEL_SIDES];
    unsigned run, side;
    int rc = EXIT_OK;
    memset(out, 0, sizeof *out);
    if (m == NULL || buf == NULL || s->runs == 0) {
        free(m);
        free(buf);
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    memset(m, 0, sizeof *m);
    for (side = 0; side < MODEL_SIDES; side++) {
        energy[side] = buf + (size_t)side * s->runs;
    }
    pqpan_sim154_config_default(&m->c);
    rc = lowpan_setup(&m->c.exch, m->c.cycles, env, o, msg);
    m->c.nodes = s->nodes;
    m->c.hidden = s->hidden;
    m->c.capture = s->capture_first ? PQPAN_SIM154_CAPTURE_FIRST : PQPAN_SIM154_CAPTURE_NONE;
    m->c.load_fps = s->load_fps;
    m->c.load_psdu = (uint8_t)s->frame_psdu;
    m->c.reasm_timeout_ms = s->reasm_timeout_ms;
    m->c.dgram_retries = s->dgram_retries;
    if (rc == EXIT_OK) {
        m->suite = pqpan_pqke_suite_for_kem(pqpan_kem_by_name(o->kem)->id);
    }
    if (rc == EXIT_OK && s->pcap != NULL) {
        rc = open_capture(&m->cap, s->pcap, msg);
    }
    for (run = 0; run < s->runs && rc == EXIT_OK; run++) {
        rc = one_run(m, energy, buf + (size_t)MODEL_SIDES * s->runs, run, env, o, s, msg);
        out->failed += m->sim.res.status != PQPAN_OK;
        add_counts(&out->counts, &m->sim.res);
    }
    if (rc == EXIT_OK && m->cap.failed) {
        rc = cli_msg_set(msg, EXIT_IO, "cannot write the pcap file");
    }
    if (rc == EXIT_OK) {
        out->runs = s->runs;
        for (side = 0; side < MODEL_SIDES; side++) {
            lowpan_stats_of(&out->energy_uj[side], energy[side], s->runs);
        }
        lowpan_stats_of(&out->latency_ms, buf + (size_t)MODEL_SIDES * s->runs, s->runs);
        scale_counts(&out->counts, s->runs);
    }
    free(m);
    free(buf);
    return rc;
}
