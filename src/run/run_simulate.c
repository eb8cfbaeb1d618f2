/* The run of `pqpan simulate` over BLE (pqpan_run "simulate", run.h): one key exchange
 * carried PDU by PDU over a simulated BLE connection (src/sim), with the same breakdown as
 * `estimate` plus what only a simulation shows: retransmissions, CRC errors, connection
 * events, and the capture (--pcap) and supply current (--trace) of the run, which the run
 * writes. Rows: the notes (the table's heading, and the JSON members with the
 * "simulation" object), the three sides of the exchange field table, then one SIM row per
 * side (struct pqpan_run_sim_row). A failed exchange is a result, not an error: its SIM
 * rows say succeeded 0 and why. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ble_sim.h"
#include "link.h"
#include "lowpan.h"
#include "notes.h"
#include "outfile.h"
#include "pqpan/pcap.h"
#include "pqpan/sim.h"
#include "pqpan/trace.h"
#include "run_estimate.h"
#include "run_internal.h"
#include "run_simulate.h"

#define CMD "simulate"
/* PPK2 sampling: 100 kS/s (Nordic PPK2 product specification). */
#define TRACE_STEP_NS 10000u

struct sim_opts {
    struct model_opts m;
    struct link_opts l;
    struct ble_sim_opts s;
    const char *pcap;
    const char *trace;
    int trace_side;
    int pqke_given; /* an --auth, --sig or --hybrid, copied into l.cfg */
};

/* --transport words (enum pqpan_sim_transport order), --trace-side (enum pqpan_ble_role
 * order), --adv-case (drawn = 0). */
static const char *const transport_words[] = {"gatt", "l2cap-coc", NULL};
static const char *const side_words[] = {"central", "peripheral", NULL};
static const char *const adv_case_words[] = {"drawn", "mean", NULL};

_Static_assert(sizeof(enum pqpan_sim_transport) == sizeof(int), "--transport is stored as an int");

#define SIM(m) offsetof(struct sim_opts, m)

static const struct cli_opt sim_rows[] = {
    {.name = "--transport", .kind = CLI_OPT_WORD, .words = transport_words,
     .def = PQPAN_DEFAULT_TRANSPORT,
     .store = CLI_STORE_INT, .offset = SIM(s.transport),
     .help = "GATT with --transfer, or an LE credit-based L2CAP channel (K-frames of one LL PDU, "
             "8 credits)"},
    {.name = "--per", .kind = CLI_OPT_NUMBER, .meta = "P", .min = 0, .max = 1,
     .def = PQPAN_DEFAULT_PER,
     .store = CLI_STORE_DOUBLE, .offset = SIM(s.per),
     .help = "packet error rate in each direction (a damaged packet fails its CRC)"},
    {.name = "--ber", .kind = CLI_OPT_NUMBER, .meta = "B", .min = 0, .max = 1,
     .def = PQPAN_DEFAULT_BER,
     .store = CLI_STORE_DOUBLE, .offset = SIM(s.ber),
     .help = "bit error rate in each direction (access address bits included: a hit there "
             "loses the packet)"},
    {.name = "--seed", .kind = CLI_OPT_UINT, .meta = "S", .min = 0, .max = (double)ULLONG_MAX,
     .def = PQPAN_DEFAULT_SEED, .store = CLI_STORE_ULL, .offset = SIM(s.seed),
     .help = "seed of the channel and of the protocol's randomness; the same seed gives "
             "byte-identical outputs"},
    /* connSupervisionTimeout: Core v5.4 Vol 6 Part B §4.5.2 (100 ms .. 32 s) */
    {.name = "--supervision-timeout-ms", .kind = CLI_OPT_UINT, .meta = "N", .unit = "ms",
     .min = 100, .max = 32000, .def = PQPAN_DEFAULT_SUPERVISION_TIMEOUT_MS, .store = CLI_STORE_ULL,
     .offset = SIM(s.timeout_ms),
     .help = "connection supervision timeout"},
    {.name = "--pcap", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = SIM(pcap),
     .help = "write the packets as received for Wireshark: LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR "
             "(256), the ADV_INDs (all three channels, as a sniffer sees them) and the "
             "CONNECT_IND first, simulated timestamps (ns), direction and CRC flags in the "
             "pseudo-header"},
    {.name = "--trace", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = SIM(trace),
     .help = "write the simulated supply current of one side as a PPK2 CSV export "
             "(Timestamp(ms),Current(uA),D0-D7 at 100 kS/s; D0 high during each crypto "
             "operation, through the connection events that suspend it, low for the one "
             "sample in which an operation starts right after another; D1 high through each "
             "link-layer event, from its CPU pre-processing to its post-processing; D2 high "
             "while the side advertises or scans). Currents are the profile's, a crypto "
             "operation's times its gamma_comp and the link-layer event states' times "
             "gamma_comm (the gamma in use), as `pqpan calibrate` fits them (gamma_comm with "
             "--comm-model radio; with the same --protocol)"},
    {.name = "--trace-side", .kind = CLI_OPT_WORD, .words = side_words,
     .def = PQPAN_DEFAULT_TRACE_SIDE,
     .store = CLI_STORE_INT, .offset = SIM(trace_side), .help = "the side --trace records"},
    {.name = "--adv-case", .kind = CLI_OPT_WORD, .words = adv_case_words,
     .def = PQPAN_DEFAULT_ADV_CASE,
     .store = CLI_STORE_INT, .offset = SIM(s.adv_mean),
     .help = "the advertising phase (--adv-interval-ms): drawn from --seed (the scanner's "
             "channel uniform, its start at a uniformly distributed moment of the advertiser's "
             "events), or mean: the estimator's expected case (channel 38, the mean wait)"},
};


static void sim_opts_init(void *p)
{
    struct sim_opts *o = p;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    link_opts_init(&o->l);
    ble_sim_opts_init(&o->s);
    cli_opt_table_defaults(&simulate_opts_table, o);
}

const struct cli_opt_table simulate_opts_table =
    CLI_OPT_TABLE("simulate-ble", "simulation options", sim_rows, struct sim_opts, sim_opts_init);

/* simulate's BLE tables, in the order the CLI tries them. */
static const struct cli_opt_table *const ble_tables[] = {
    &model_energy_table, &model_ramp_table,  &model_crypto_table, &model_gamma_table,
    &cli_format_table,   &estimate_protocol_table, &link_pqke_table, &link_opts_table,
    &link_setup_table,   &simulate_opts_table};
#define N_BLE_TABLES (sizeof ble_tables / sizeof ble_tables[0])

/* Where the options of table t are stored in o. */
static void *base_of(struct sim_opts *o, const struct cli_opt_table *t)
{
    if (t == &cli_format_table) {
        return &o->m.format;
    }
    if (t == &link_pqke_table) {
        o->pqke_given = 1;
        return &o->l.pqke;
    }
    if (t == &simulate_opts_table) {
        return o;
    }
    return t == &estimate_protocol_table || t == &link_opts_table || t == &link_setup_table
               ? (void *)&o->l
               : (void *)&o->m;
}

const struct cli_opt *simulate_opt_row(const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_BLE_TABLES && found == NULL; k++) {
        found = cli_opt_find(ble_tables[k], name);
    }
    return found;
}

static int take(struct run_ctx *r, struct sim_opts *o, const struct pqpan_run_opt *opt)
{
    size_t k;
    for (k = 0; k < N_BLE_TABLES; k++) {
        const struct cli_opt *row = cli_opt_find(ble_tables[k], opt->name);
        if (row != NULL) {
            return run_set(r, row, base_of(o, ble_tables[k]), opt);
        }
    }
    return run_unknown(r, opt->name, ble_tables, N_BLE_TABLES);
}

/* The options, then what they ask together (as the CLI checked them: --auth needs pqpan's
 * protocol, --sig a sig mode, then what the simulator cannot run). */
static int parse(struct run_ctx *r, struct sim_opts *o, const struct pqpan_run_opt *opts,
                 size_t n_opts)
{
    struct cli_msg msg;
    size_t i;
    int rc = PQPAN_OK;
    sim_opts_init(o);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, o, &opts[i])
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc != PQPAN_OK) {
        return rc;
    }
    if (o->pqke_given) {
        o->l.cfg.pqke_mode = o->l.pqke.mode;
        o->l.cfg.pqke_sig = o->l.pqke.sig;
        o->l.cfg.pqke_hybrid = o->l.pqke.hybrid;
    }
    if (o->l.cfg.protocol == PQPAN_BLE_PROTO_STUDY && o->l.cfg.pqke_mode != PQPAN_PQKE_MODE_NONE) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "--auth %s needs pqpan's protocol (--protocol pqpan)",
                          pqpan_pqke_mode_name(o->l.cfg.pqke_mode));
        return run_fail(r, EXIT_USAGE, "--auth", msg.text);
    }
    if (model_pqke_check(o->l.pqke.mode, o->l.pqke.sig, &msg) != EXIT_OK) {
        return run_fail(r, EXIT_USAGE, "--sig", msg.text);
    }
    rc = ble_sim_check(&o->l, &o->s, &msg);
    return rc == EXIT_OK ? PQPAN_OK : run_fail(r, rc, NULL, msg.text);
}

/* ---- observers: pcap and the current trace ---------------------------------------- */

struct span_list {
    struct pqpan_sim_span *v;
    size_t n, cap;
    int failed;
};

struct observe {
    struct cli_outfile pcap; /* pcap.f NULL: no --pcap */
    struct pqpan_pcap_writer w;
    int trace_side;
    struct span_list spans;
};

static int file_write(void *ctx, const uint8_t *data, size_t len)
{
    return fwrite(data, 1, len, (FILE *)ctx) == len ? 0 : -1;
}

static void on_packet(void *ctx, const struct pqpan_sim_packet *p)
{
    struct observe *ob = ctx;
    struct pqpan_pcap_ble_info info;
    uint8_t rec[PQPAN_PCAP_BLE_RECORD_MAX];
    size_t n;
    if (ob->pcap.f == NULL || ob->pcap.err != 0) {
        return;
    }
    memset(&info, 0, sizeof info);
    info.rf_channel = p->rf_channel;
    info.pdu_type = p->advertising ? PQPAN_PCAP_BLE_ADV
                    : p->sender == PQPAN_BLE_CENTRAL ? PQPAN_PCAP_BLE_DATA_C_TO_P
                                                     : PQPAN_PCAP_BLE_DATA_P_TO_C;
    info.phy = p->phy == PQPAN_BLE_PHY_1M ? 0u : p->phy == PQPAN_BLE_PHY_2M ? 1u : 2u;
    info.coding_s2 = p->phy == PQPAN_BLE_PHY_CODED_S2;
    info.crc_valid = p->crc_ok;
    info.decrypted = p->decrypted;
    info.access_address = p->access_address;
    errno = 0;
    if (pqpan_pcap_ble_record(rec, sizeof rec, &info, p->pdu, p->len, &n) != PQPAN_OK ||
        pqpan_pcap_write_packet(&ob->w, p->t_ns, rec, n) != PQPAN_OK) {
        cli_outfile_failed(&ob->pcap);
    }
}

static void on_span(void *ctx, const struct pqpan_sim_span *s)
{
    struct observe *ob = ctx;
    struct span_list *l = &ob->spans;
    if (s->side != ob->trace_side || l->failed) {
        return;
    }
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 4096;
        struct pqpan_sim_span *v = realloc(l->v, cap * sizeof *v);
        if (v == NULL) {
            l->failed = 1;
            return;
        }
        l->v = v;
        l->cap = cap;
    }
    l->v[l->n++] = *s;
}

/* Current of a state on this side's profile (µA), as the energy model charges it. */
static double state_ua(const struct model_env *env, enum pqpan_ble_phy phy, int state)
{
    struct pqpan_energy_opts o = env->eopts;
    double ua;
    o.radio = model_radio_of(phy);
    return pqpan_energy_state_ua(&ua, &env->in.profile, &o, (enum pqpan_state)state) == PQPAN_OK
               ? ua
               : 0.0;
}

/* D1: the link layer's radio event is active, from its CPU pre-processing through its
 * post-processing (crystal start, ramp-up, receive window, PDUs and T_IFS between), as a
 * controller's radio-event signal (e.g. the SoftDevice's Radio Notification ACTIVE) spans
 * it. */
static int is_link_event(int state)
{
    return state == PQPAN_STATE_PRE || state == PQPAN_STATE_HFXO_START ||
           state == PQPAN_STATE_RAMP_TX || state == PQPAN_STATE_RAMP_RX ||
           state == PQPAN_STATE_RX_WINDOW || state == PQPAN_STATE_TX || state == PQPAN_STATE_RX ||
           state == PQPAN_STATE_IFS || state == PQPAN_STATE_POST;
}

/* The trace is the supply current of a board whose consumption departs from the
 * profile's currents as the γ in use say: a crypto operation draws γ_comp(op) × its
 * current, a state of a link-layer event γ_comm × its current (so `pqpan calibrate --comm-model radio`
 * finds those γ again, docs/CLI.md). */
static double span_gamma(const struct model_env *env, const struct pqpan_sim_span *s)
{
    if (s->op < PQPAN_OP_COUNT) {
        return env->in.gamma.comp[s->op];
    }
    return is_link_event(s->state) ? env->in.gamma.comm : 1.0;
}

/* A crypto operation's CPU time (not the CPU of a connection event in the crypto phase). */
static int is_crypto_op(const struct pqpan_sim_span *s)
{
    return s->op < PQPAN_OP_COUNT;
}

#define DIG_CRYPTO (1u << PQPAN_PPK2_CH_CRYPTO)
#define DIG_RADIO (1u << PQPAN_PPK2_CH_RADIO)
#define DIG_ADVERTISE (1u << PQPAN_PPK2_CH_ADVERTISE)

/* Sets bit on the samples that overlap [t0, t1). */
static void mark_samples(uint8_t *dig, size_t nsamp, uint64_t t0, uint64_t t1, unsigned bit)
{
    size_t k;
    for (k = (size_t)(t0 / TRACE_STEP_NS); k < nsamp && (uint64_t)k * TRACE_STEP_NS < t1; k++) {
        dig[k] |= (uint8_t)bit;
    }
}

/* Firmware marks each crypto operation with its own D0 pulse, from its start to its end:
 * a connection event that suspends it (the controller's interrupts preempt it) leaves the
 * pin high, so D0 stays high through the event, whose rows have D1 high as well. Two
 * operations back to back (Encaps or Decaps, then the key schedule) need D0 low for a
 * whole sample between them, or the PPK2, which samples the digital inputs with the
 * current at 100 kS/s, shows one segment: the sample in which the second one starts is
 * written with D0 low. Its energy (at most 10 µs of CPU) then counts in neither
 * operation. */
static void mark_ops(uint8_t *dig, size_t nsamp, const struct span_list *l)
{
    const struct pqpan_sim_span *prev = NULL;
    size_t i, k;
    for (i = 0; i < l->n; i++) {
        const struct pqpan_sim_span *s = &l->v[i];
        if (!is_crypto_op(s)) {
            continue;
        }
        if (prev != NULL && s->resumed) {
            mark_samples(dig, nsamp, prev->t1_ns, s->t0_ns, DIG_CRYPTO);
        }
        k = (size_t)(s->t0_ns / TRACE_STEP_NS);
        if (prev != NULL && !s->resumed && prev->t1_ns == s->t0_ns && k < nsamp) {
            dig[k] &= (uint8_t)~DIG_CRYPTO;
        }
        prev = s;
    }
}

/* D2: firmware holds a pin high while the side advertises (the central: while it scans),
 * from the phase's first span to its last, the CONNECT_IND's reception or sending. */
static void mark_advertising(uint8_t *dig, size_t nsamp, const struct span_list *l)
{
    uint64_t t0 = UINT64_MAX, t1 = 0;
    size_t i;
    for (i = 0; i < l->n; i++) {
        const struct pqpan_sim_span *s = &l->v[i];
        if (s->phase == PQPAN_PHASE_ADVERTISE) {
            t0 = s->t0_ns < t0 ? s->t0_ns : t0;
            t1 = s->t1_ns > t1 ? s->t1_ns : t1;
        }
    }
    if (t1 > t0) {
        mark_samples(dig, nsamp, t0, t1, DIG_ADVERTISE);
    }
}

/* Samples every 10 µs from 0 to end_ns: sleep current plus the time-weighted current of
 * every span overlapping the sample; D0/D1 high if any crypto / link-event span overlaps
 * (D0 also through an operation's suspensions), D2 through the advertising phase. */
static int write_trace(const char *path, const struct observe *ob, const struct model_env *env,
                       enum pqpan_ble_phy phy, uint64_t end_ns)
{
    size_t nsamp = (size_t)(end_ns / TRACE_STEP_NS) + 1u, k, i;
    double *ua = calloc(nsamp, sizeof *ua);
    uint8_t *dig = calloc(nsamp, 1);
    char line[PQPAN_PPK2_LINE_MAX + 1];
    struct cli_outfile out;
    FILE *f = NULL;
    size_t w;
    int rc = EXIT_IO;
    if (ua == NULL || dig == NULL || ob->spans.failed) {
        fprintf(stderr, "pqpan %s: out of memory for the trace\n", CMD);
        goto out;
    }
    for (i = 0; i < ob->spans.n; i++) {
        const struct pqpan_sim_span *s = &ob->spans.v[i];
        double cur = state_ua(env, phy, s->state) * span_gamma(env, s);
        for (k = (size_t)(s->t0_ns / TRACE_STEP_NS); k < nsamp && (uint64_t)k * TRACE_STEP_NS < s->t1_ns; k++) {
            uint64_t a = (uint64_t)k * TRACE_STEP_NS, b = a + TRACE_STEP_NS;
            uint64_t lo = s->t0_ns > a ? s->t0_ns : a, hi = s->t1_ns < b ? s->t1_ns : b;
            ua[k] += cur * (double)(hi - lo) / TRACE_STEP_NS;
            if (is_crypto_op(s)) {
                dig[k] |= DIG_CRYPTO;
            }
            if (is_link_event(s->state)) {
                dig[k] |= DIG_RADIO;
            }
        }
    }
    mark_ops(dig, nsamp, &ob->spans);
    mark_advertising(dig, nsamp, &ob->spans);
    if (cli_outfile_open(&out, CMD, path) != EXIT_OK) {
        goto out;
    }
    f = out.f;
    errno = 0; /* a failed write sets it; a line that cannot be formatted leaves 0 (EIO) */
    if (pqpan_ppk2_write_header(line, sizeof line, PQPAN_PPK2_LAYOUT_PACKED, &w) != PQPAN_OK ||
        fwrite(line, 1, w, f) != w) {
        cli_outfile_failed(&out);
        goto out;
    }
    for (k = 0; k < nsamp; k++) {
        struct pqpan_ppk2_sample smp;
        int c;
        memset(&smp, 0, sizeof smp);
        smp.time_ns = (int64_t)((uint64_t)k * TRACE_STEP_NS);
        smp.current_ua = env->in.profile.sleep_ua + ua[k];
        smp.channels = PQPAN_PPK2_CHANNELS;
        for (c = 0; c < PQPAN_PPK2_CHANNELS; c++) {
            smp.digital[c] = (uint8_t)(((unsigned)dig[k] >> (unsigned)c) & 1u);
        }
        if (pqpan_ppk2_write_row(line, sizeof line, PQPAN_PPK2_LAYOUT_PACKED, &smp, &w) != PQPAN_OK ||
            fwrite(line, 1, w, f) != w) {
            cli_outfile_failed(&out);
            goto out;
        }
    }
    rc = EXIT_OK;
out: /* every failure after the open marked out failed, so the close keeps only a whole file */
    if (f != NULL && cli_outfile_close(&out, CMD, 1) != EXIT_OK) {
        rc = EXIT_IO;
    }
    free(ua);
    free(dig);
    return rc;
}


/* ---- rows ------------------------------------------------------------------------- */

/* 1 when the run stopped early: its energy is what was drawn until then. */
static int run_failed(const struct pqpan_sim_result *res)
{
    return res->status != PQPAN_OK;
}

/* The transport's name (JSON, CSV and the SIM rows). */
static const char *transport_name(const struct sim_opts *o, const struct ble_sim_keys *k)
{
    if (k->lesc) {
        return "smp";
    }
    return o->s.transport == PQPAN_SIM_GATT ? "gatt" : "l2cap-coc";
}

static const char *messages_name(const struct ble_sim_keys *k)
{
    return k->lesc ? "lesc" : k->protocol ? "pqke" : "estimate";
}

/* A counter of side s (enum model_side; MODEL_TOTAL: the sum of both). */
static unsigned long long side_count(const uint64_t v[2], int s)
{
    return s == MODEL_PERIPHERAL ? v[PQPAN_BLE_PERIPHERAL]
           : s == MODEL_CENTRAL  ? v[PQPAN_BLE_CENTRAL]
                                 : v[0] + v[1];
}

/* The SIM row of side s. */
static void sim_row(struct pqpan_run_sim_row *out, const struct sim_opts *o,
                    const struct pqpan_sim *s, const struct ble_sim_keys *k,
                    const struct pqpan_run_exchange_row *row, int side)
{
    const struct pqpan_sim_result *res = &s->res;
    const uint64_t tx[2] = {res->ledger[0].pdus_tx, res->ledger[1].pdus_tx};
    memset(out, 0, sizeof *out);
    out->side = row->side;
    out->seed = o->s.seed;
    out->per = o->s.per;
    out->ber = o->s.ber;
    out->transport = transport_name(o, k);
    out->messages = messages_name(k);
    out->packets_tx = side_count(tx, side);
    out->retransmissions = side_count(res->retransmissions, side);
    out->crc_errors_rx = side_count(res->crc_errors, side);
    out->missed_rx = side_count(res->missed, side);
    out->att_mtu = res->att_mtu;
    out->ll_octets = res->ll_octets;
    out->conn_events = res->conn_events;
    out->latency_ms = (double)res->latency_ns * 1e-6;
    out->sim_time_ms = (double)res->end_ns * 1e-6;
    out->result = ble_sim_status_text(res);
    out->keys_equal = !k->protocol ? NULL : k->equal ? "true" : "false";
    out->key_confirmation = !k->protocol                                  ? NULL
                            : k->confirmed && (!k->lesc || k->encrypted) ? "ok"
                                                                          : "failed";
    out->energy_until_failure_uj = run_failed(res) ? row->e_total_events_uj : -1.0;
    out->succeeded = ble_sim_succeeded(s, k);
}

/* What the notes are rendered from. */
struct sim_notes {
    const struct sim_opts *o;
    const struct model_env *env;
    const struct pqpan_run_exchange_row *rows;
    const struct pqpan_run_sim_row *sim; /* per side, MODEL_SIDES */
};

/* The lines a table prints before the rows: the configuration, the exchange, GATT, the
 * assumptions and the set-up. */
static void table_notes(FILE *f, const void *arg)
{
    const struct sim_notes *a = arg;
    const struct sim_opts *o = a->o;
    const struct pqpan_run_exchange_row *x = &a->rows[0];
    fprintf(f,
            "pqpan simulate: %s over LE %s, ATT_MTU %u, LL %u octets (%s), transfer %s, "
            "CI %.2f ms,\n  KeyGen+Decaps on the %s\n",
            x->kem, x->phy, x->att_mtu, x->ll_octets, x->dle ? "DLE" : "no DLE", x->transfer,
            x->ci_ms, x->keygen_side);
    model_print_exchange_line(f, "  ", x->protocol, x->auth, MODEL_BLE_IDLE_TEXT);
    if (o->s.transport == PQPAN_SIM_GATT) {
        link_print_gatt(f, &o->l.cfg, o->l.kem, "  ");
    }
    model_print_assumptions(f, a->env, model_radio_of(o->l.cfg.phy), "  ");
    model_print_setup(f, &o->l.cfg, "  ");
}

/* The "simulation" object of the JSON output. */
static void json_simulation(FILE *f, const struct sim_notes *a)
{
    static const int sides[2] = {MODEL_CENTRAL, MODEL_PERIPHERAL};
    const struct pqpan_run_sim_row *t = &a->sim[MODEL_TOTAL];
    int i;
    fprintf(f, "  \"simulation\": {\n    \"seed\": %llu,\n    \"per\": %.17g,\n    \"ber\": %.17g,\n",
            t->seed, t->per, t->ber);
    fprintf(f, "    \"transport\": \"%s\",\n", t->transport);
    for (i = 0; i < 2; i++) {
        const struct pqpan_run_sim_row *s = &a->sim[sides[i]];
        fprintf(f, "    \"%s\": {\"packets_tx\": %llu, \"retransmissions\": %llu, "
                   "\"crc_errors_rx\": %llu, \"missed_rx\": %llu},\n",
                s->side, s->packets_tx, s->retransmissions, s->crc_errors_rx, s->missed_rx);
    }
    fprintf(f, "    \"conn_events\": %llu,\n    \"att_mtu\": %u,\n    \"ll_octets\": %u,\n",
            t->conn_events, t->att_mtu, t->ll_octets);
    fprintf(f, "    \"latency_ms\": %.6f,\n    \"sim_time_ms\": %.6f,\n    \"result\": \"%s\",\n",
            t->latency_ms, t->sim_time_ms, t->result);
    if (t->energy_until_failure_uj >= 0.0) {
        fprintf(f, "    \"energy_until_failure_uj\": {\"peripheral\": %.3f, \"central\": %.3f, "
                   "\"total\": %.3f, \"accounting\": \"events\"},\n",
                a->sim[MODEL_PERIPHERAL].energy_until_failure_uj,
                a->sim[MODEL_CENTRAL].energy_until_failure_uj, t->energy_until_failure_uj);
    } else {
        fprintf(f, "    \"energy_until_failure_uj\": null,\n");
    }
    fprintf(f, "    \"messages\": \"%s\",\n", t->messages);
    if (t->keys_equal != NULL) {
        fprintf(f, "    \"keys_equal\": %s,\n    \"key_confirmation\": \"%s\"\n  },\n",
                t->keys_equal, t->key_confirmation);
    } else {
        fprintf(f, "    \"keys_equal\": null,\n    \"key_confirmation\": null\n  },\n");
    }
}

/* The JSON members before "sides": the assumptions, the set-up and "simulation". */
static void json_notes(FILE *f, const void *arg)
{
    const struct sim_notes *a = arg;
    model_print_assumptions_json(f, a->env, model_radio_of(a->o->l.cfg.phy), "  ");
    model_print_setup_json(f, &a->o->l.cfg, "  ");
    json_simulation(f, a);
}

/* The field table of a SIM row. */
#define SIMF(m) offsetof(struct pqpan_run_sim_row, m)
static const struct pqpan_run_field sim_fields[] = {
    {"side", "side", NULL, 0, PQPAN_RUN_STORE_TEXT, SIMF(side), 0},
    {"seed", "seed", NULL, 0, PQPAN_RUN_STORE_ULL, SIMF(seed), 0},
    {"per", "packet error rate", NULL, 0, PQPAN_RUN_STORE_REAL, SIMF(per), 17},
    {"ber", "bit error rate", NULL, 0, PQPAN_RUN_STORE_REAL, SIMF(ber), 17},
    {"transport", "transport", NULL, 0, PQPAN_RUN_STORE_TEXT, SIMF(transport), 0},
    {"messages", "messages", NULL, 0, PQPAN_RUN_STORE_TEXT, SIMF(messages), 0},
    {"packets_tx", "packets sent", NULL, 0, PQPAN_RUN_STORE_ULL, SIMF(packets_tx), 0},
    {"retransmissions", "retransmitted", NULL, 0, PQPAN_RUN_STORE_ULL, SIMF(retransmissions), 0},
    {"crc_errors_rx", "CRC errors received", NULL, 0, PQPAN_RUN_STORE_ULL, SIMF(crc_errors_rx), 0},
    {"missed_rx", "missed", NULL, 0, PQPAN_RUN_STORE_ULL, SIMF(missed_rx), 0},
    {"negotiated_att_mtu", "negotiated ATT_MTU", "octets", 0, PQPAN_RUN_STORE_UINT, SIMF(att_mtu), 0},
    {"negotiated_ll_octets", "LL octets", "octets", 0, PQPAN_RUN_STORE_UINT, SIMF(ll_octets), 0},
    {"conn_events", "connection events", NULL, 0, PQPAN_RUN_STORE_ULL, SIMF(conn_events), 0},
    {"latency_ms", "exchange latency", "ms", 0, PQPAN_RUN_STORE_REAL, SIMF(latency_ms), 6},
    {"sim_time_ms", "simulated time", "ms", 0, PQPAN_RUN_STORE_REAL, SIMF(sim_time_ms), 6},
    {"result", "result", NULL, 0, PQPAN_RUN_STORE_TEXT, SIMF(result), 0},
    {"keys_equal", "keys equal", NULL, 0, PQPAN_RUN_STORE_TEXT, SIMF(keys_equal), 0},
    {"key_confirmation", "key confirmation", NULL, 0, PQPAN_RUN_STORE_TEXT,
     SIMF(key_confirmation), 0},
    {"energy_until_failure_uj", "energy until failure (events accounting)", "uJ", 0,
     PQPAN_RUN_STORE_OPT_REAL, SIMF(energy_until_failure_uj), 3},
    {"succeeded", "succeeded", NULL, 0, PQPAN_RUN_STORE_INT, SIMF(succeeded), 0},
};
#define N_SIM_FIELDS (sizeof sim_fields / sizeof sim_fields[0])

const struct pqpan_run_field *pqpan_run_sim_fields(size_t *n)
{
    *n = N_SIM_FIELDS;
    return sim_fields;
}

/* The notes, the sides and the SIM rows of a finished run. */
static int emit_rows(struct run_ctx *r, const struct sim_opts *o, const struct model_env *env,
                     const struct pqpan_sim *s, const struct ble_sim_keys *k,
                     const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    struct pqpan_run_sim_row sim[MODEL_SIDES];
    struct pqpan_run_row row;
    struct sim_notes notes;
    unsigned lesc = rows[0].p256_impl != NULL ? (unsigned)GROUP_LESC : 0u;
    int side, rc;
    for (side = 0; side < MODEL_SIDES; side++) {
        sim_row(&sim[side], o, s, k, &rows[side], side);
    }
    notes.o = o;
    notes.env = env;
    notes.rows = rows;
    notes.sim = sim;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    if (rc == PQPAN_OK) {
        rc = run_sides(r, PQPAN_RUN_LINK_BLE, GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | lesc,
                       rows);
    }
    for (side = 0; side < MODEL_SIDES && rc == PQPAN_OK; side++) {
        memset(&row, 0, sizeof row);
        row.record = PQPAN_RUN_RECORD_SIM;
        row.link = PQPAN_RUN_LINK_BLE;
        row.fields = sim_fields;
        row.n_fields = N_SIM_FIELDS;
        row.exchange = &rows[side];
        rc = run_emit_row(r, &row, &sim[side]);
    }
    return rc;
}

/* ---- running ---------------------------------------------------------------------- */

static int open_pcap(struct observe *ob, const char *path)
{
    int rc = cli_outfile_open(&ob->pcap, CMD, path);
    if (rc == EXIT_OK &&
        pqpan_pcap_writer_init(&ob->w, file_write, ob->pcap.f,
                               PQPAN_PCAP_LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR, 1) != PQPAN_OK) {
        fprintf(stderr, "pqpan %s: cannot write %s\n", CMD, path);
        return EXIT_IO;
    }
    return rc;
}

/* A file the run could not write: outfile.c has said why on stderr. */
static int file_failed(struct run_ctx *r, const char *option, const char *path)
{
    struct cli_msg msg;
    (void)cli_msg_set(&msg, EXIT_IO, "cannot write %s", path);
    return run_fail(r, EXIT_IO, option, msg.text);
}

/* One simulated exchange with its files written; its rows emitted. */
static int simulate(struct run_ctx *r, const struct sim_opts *o, const struct model_env *env,
                    struct pqpan_sim *s, struct ble_sim_apps *apps, struct observe *ob)
{
    struct pqpan_sim_observer obs = {on_packet, on_span};
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct ble_sim_keys keys;
    struct cli_msg msg;
    int rc;
    memset(&keys, 0, sizeof keys);
    if (o->pcap != NULL && open_pcap(ob, o->pcap) != EXIT_OK) {
        return file_failed(r, "--pcap", o->pcap);
    }
    ob->trace_side = o->trace_side;
    rc = ble_sim_run(s, apps, &keys, env, &o->l, &o->s, &obs, ob, &msg);
    if (rc != EXIT_OK) {
        return run_fail(r, rc, NULL, msg.text);
    }
    if (cli_outfile_close(&ob->pcap, CMD, 1) != EXIT_OK) {
        return file_failed(r, "--pcap", o->pcap);
    }
    if (o->trace != NULL && write_trace(o->trace, ob, env, o->l.cfg.phy, s->res.end_ns) != EXIT_OK) {
        return file_failed(r, "--trace", o->trace);
    }
    rc = ble_sim_rows(rows, env, o->l.kem, s, &msg);
    return rc != EXIT_OK ? run_fail(r, rc, NULL, msg.text) : emit_rows(r, o, env, s, &keys, rows);
}

/* Whether the request asks for --link 802154. */
static int lowpan_requested(const struct pqpan_run_opt *opts, size_t n_opts)
{
    size_t i;
    for (i = 0; i < n_opts; i++) {
        if (opts[i].name != NULL && opts[i].value != NULL && strcmp(opts[i].name, "--link") == 0 &&
            strcmp(opts[i].value, "802154") == 0) {
            return 1;
        }
    }
    return 0;
}

int run_simulate(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts)
{
    struct sim_opts *o = malloc(sizeof *o);
    struct pqpan_sim *s = malloc(sizeof *s);
    struct ble_sim_apps *apps = malloc(sizeof *apps);
    struct model_env *env = NULL;
    struct observe ob;
    struct cli_msg msg;
    int rc = PQPAN_OK;
    memset(&ob, 0, sizeof ob);
    if (lowpan_requested(opts, n_opts)) {
        free(o);
        free(s);
        free(apps);
        return run_simulate_802154(r, opts, n_opts);
    }
    if (o == NULL || s == NULL || apps == NULL) {
        rc = run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = rc == PQPAN_OK ? parse(r, o, opts, n_opts) : rc;
    if (rc == PQPAN_OK && o->trace != NULL && cli_outfile_check(CMD, o->trace) != EXIT_OK) {
        rc = file_failed(r, "--trace", o->trace); /* before the run */
    }
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &o->m, &msg);
        rc = load != EXIT_OK ? run_fail(r, load, NULL, msg.text) : simulate(r, o, env, s, apps, &ob);
    }
    (void)cli_outfile_close(&ob.pcap, CMD, 0);
    free(ob.spans.v);
    free(env);
    free(apps);
    free(s);
    free(o);
    return rc;
}
