/* pqpan simulate: one key exchange carried PDU by PDU over a simulated BLE connection
 * (src/sim), with the same breakdown as `estimate` plus what only a simulation shows:
 * retransmissions, CRC errors, connection events, and the capture (--pcap) and supply
 * current (--trace) of the run. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "ble_sim.h"
#include "commands.h"
#include "estimate.h"
#include "link_opts.h"
#include "lowpan_model.h"
#include "outfile.h"
#include "mesh_model.h"
#include "pqpan/pcap.h"
#include "pqpan/sim.h"
#include "pqpan/trace.h"

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

void cli_simulate_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan simulate [OPTIONS]\n\n"
            "Runs one key exchange PDU by PDU over a simulated BLE connection: CONNECT_IND, PHY,\n"
            "data length and ATT MTU (or L2CAP credit-based channel) set-up, then the messages as\n"
            "real ATT/L2CAP PDUs in LL PDUs with SN/NESN acknowledgement, MD bit and CRC-24, over a\n"
            "channel that damages packets at the given error rate (a damaged packet fails its CRC\n"
            "and is sent again). Prints the breakdown of `pqpan estimate` for the simulated run\n"
            "plus packets sent and retransmitted per side, connection events and latency, and\n"
            "whether both sides derived the same session key with a verified confirmation.\n"
            "With --kem LESC-P256 it runs LE Secure Connections pairing (Just Works) with real\n"
            "values instead: Pairing Request/Response, Public Keys (P-256), Confirm, Randoms and\n"
            "DHKey Checks (f4, f5, f6 over AES-CMAC) as SMP PDUs, then the LL encryption start\n"
            "(LL_ENC_REQ/RSP, LL_START_ENC_REQ, two encrypted LL_START_ENC_RSP with AES-CCM from\n"
            "the derived LTK); keys and nonces from --seed, for simulation only.\n\n");
    cli_opt_table_help(out, &estimate_protocol_table);
    fputc('\n', out);
    link_opts_help(out);
    fputc('\n', out);
    cli_opt_table_help(out, &simulate_opts_table);
    fprintf(out, "\nenergy options:\n");
    model_opts_help(out);
    simulate_802154_help(out);
    fprintf(out,
            "\nOutput (BLE): table (default), csv (one line per side) or json (the objects of\n"
            "`pqpan estimate` plus a \"simulation\" object).\n"
            "Exit codes (BLE): 0 exchange completed, 1 exchange failed (link lost, timeout, damaged\n"
            "message), 2 usage, 3 bad data file, 4 I/O.\n");
}

static int parse_args(struct sim_opts *o, int argc, char **argv)
{
    struct cli_msg msg;
    int i;
    sim_opts_init(o);
    for (i = 1; i < argc; i++) {
        int rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = cli_opt_take(&estimate_protocol_table, &o->l, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = link_opts_parse(&o->l, CMD, argc, argv, &i);
        }
        if (rc == 0) {
            rc = cli_opt_take(&simulate_opts_table, o, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return strncmp(argv[i], "--", 2) != 0
                       ? cli_usage_error(CMD, "unexpected argument '%s'", argv[i])
                       : lowpan_unknown_option(CMD, argv[i], 1);
        }
    }
    if (o->l.cfg.protocol == PQPAN_BLE_PROTO_STUDY && o->l.cfg.pqke_mode != PQPAN_PQKE_MODE_NONE) {
        return cli_usage_error(CMD, "--auth %s needs pqpan's protocol (--protocol pqpan)",
                               pqpan_pqke_mode_name(o->l.cfg.pqke_mode));
    }
    if (model_pqke_check(o->l.pqke.mode, o->l.pqke.sig, &msg) != EXIT_OK) {
        return cli_usage_error(CMD, "%s", msg.text);
    }
    return cli_msg_report(CMD, ble_sim_check(&o->l, &o->s, &msg), &msg);
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

/* ---- output ----------------------------------------------------------------------- */

/* 1 when the run stopped early: its energy is what was drawn until then. */
static int run_failed(const struct pqpan_sim_result *r)
{
    return r->status != PQPAN_OK;
}

static const char *keys_text(const struct ble_sim_keys *k)
{
    return !k->protocol ? "n/a (--protocol study)" : k->equal ? "yes" : "no";
}

static const char *confirm_text(const struct ble_sim_keys *k)
{
    if (k->lesc) {
        return k->confirmed && k->encrypted ? "ok (both DHKey checks verified, LL encryption started)"
                                            : "failed";
    }
    return !k->protocol ? "n/a" : k->confirmed ? "ok (both tags verified)" : "failed";
}

/* The transport's name in the table (0) or in JSON (1). */
static const char *transport_name(const struct sim_opts *o, const struct ble_sim_keys *k, int json)
{
    if (k->lesc) {
        return json ? "smp" : "SMP";
    }
    if (o->s.transport == PQPAN_SIM_GATT) {
        return json ? "gatt" : "GATT";
    }
    return json ? "l2cap-coc" : "L2CAP CoC";
}

/* A failed run's energy: the events accounting holds all both sides drew until the run
 * stopped; computation and the bits accounting hold only the crypto operations and the
 * exchange PDUs done by then (0 when it stopped in the set-up). */
static void print_until_failure(const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    printf("  energy until failure (events accounting: all drawn until the run stopped):\n"
           "    peripheral %.3f uJ, central %.3f uJ, total %.3f uJ\n"
           "    computation (%.3f uJ) and the bits accounting (%.3f uJ) count only the crypto\n"
           "    operations and the exchange PDUs done before the failure\n",
           rows[MODEL_PERIPHERAL].e_total_events_uj, rows[MODEL_CENTRAL].e_total_events_uj,
           rows[MODEL_TOTAL].e_total_events_uj, rows[MODEL_TOTAL].e_comp_uj,
           rows[MODEL_TOTAL].e_comm_uj);
}

static void print_sim_table(const struct sim_opts *o, const struct pqpan_sim_result *r,
                            const struct ble_sim_keys *k, const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    static const char *const names[2] = {"central", "peripheral"};
    int i;
    printf("\nsimulation (seed %llu, PER %g, BER %g, %s):\n", o->s.seed, o->s.per, o->s.ber,
           transport_name(o, k, 0));
    for (i = 0; i < 2; i++) {
        printf("  %-10s  packets sent %llu, retransmitted %llu, CRC errors received %llu, "
               "missed %llu\n",
               names[i], (unsigned long long)r->ledger[i].pdus_tx,
               (unsigned long long)r->retransmissions[i], (unsigned long long)r->crc_errors[i],
               (unsigned long long)r->missed[i]);
    }
    printf("  connection events %llu, negotiated ATT_MTU %u, LL octets %u\n",
           (unsigned long long)r->conn_events, r->att_mtu, r->ll_octets);
    printf("  exchange latency %.3f ms, simulated time %.3f ms\n", (double)r->latency_ns * 1e-6,
           (double)r->end_ns * 1e-6);
    printf("  result: %s\n", ble_sim_status_text(r));
    if (run_failed(r)) {
        print_until_failure(rows);
    }
    printf("  %s equal: %s\n  key confirmation: %s\n", k->lesc ? "LTKs" : "session keys",
           keys_text(k), confirm_text(k));
}

static void print_sim_json(const struct sim_opts *o, const struct pqpan_sim_result *r,
                           const struct ble_sim_keys *k, const struct pqpan_run_exchange_row rows[MODEL_SIDES])
{
    static const char *const names[2] = {"central", "peripheral"};
    int i;
    printf("  \"simulation\": {\n    \"seed\": %llu,\n    \"per\": %.17g,\n    \"ber\": %.17g,\n",
           o->s.seed, o->s.per, o->s.ber);
    printf("    \"transport\": \"%s\",\n", transport_name(o, k, 1));
    for (i = 0; i < 2; i++) {
        printf("    \"%s\": {\"packets_tx\": %llu, \"retransmissions\": %llu, \"crc_errors_rx\": %llu, "
               "\"missed_rx\": %llu},\n",
               names[i], (unsigned long long)r->ledger[i].pdus_tx,
               (unsigned long long)r->retransmissions[i], (unsigned long long)r->crc_errors[i],
               (unsigned long long)r->missed[i]);
    }
    printf("    \"conn_events\": %llu,\n    \"att_mtu\": %u,\n    \"ll_octets\": %u,\n",
           (unsigned long long)r->conn_events, r->att_mtu, r->ll_octets);
    printf("    \"latency_ms\": %.6f,\n    \"sim_time_ms\": %.6f,\n    \"result\": \"%s\",\n",
           (double)r->latency_ns * 1e-6, (double)r->end_ns * 1e-6, ble_sim_status_text(r));
    if (run_failed(r)) {
        printf("    \"energy_until_failure_uj\": {\"peripheral\": %.3f, \"central\": %.3f, "
               "\"total\": %.3f, \"accounting\": \"events\"},\n",
               rows[MODEL_PERIPHERAL].e_total_events_uj, rows[MODEL_CENTRAL].e_total_events_uj,
               rows[MODEL_TOTAL].e_total_events_uj);
    } else {
        printf("    \"energy_until_failure_uj\": null,\n");
    }
    printf("    \"messages\": \"%s\",\n", k->lesc ? "lesc" : k->protocol ? "pqke" : "estimate");
    if (k->protocol) {
        printf("    \"keys_equal\": %s,\n    \"key_confirmation\": \"%s\"\n  },\n",
               k->equal ? "true" : "false",
               k->confirmed && (!k->lesc || k->encrypted) ? "ok" : "failed");
    } else {
        printf("    \"keys_equal\": null,\n    \"key_confirmation\": null\n  },\n");
    }
}

/* The simulation's columns of the CSV, after the estimate's: the run's settings, one
 * side's packet counts (total: both sides'), the run's outcome and, for a failed run,
 * the side's energy until failure (events accounting; empty when the run completed). */
#define SIM_CSV_NAMES                                                                        \
    "seed,per,ber,transport,messages,packets_tx,retransmissions,crc_errors_rx,missed_rx,"  \
    "negotiated_att_mtu,negotiated_ll_octets,sim_time_ms,result,keys_equal,"   \
    "key_confirmation,energy_until_failure_uj"

/* A counter of side s (enum model_side; MODEL_TOTAL: the sum of both). */
static unsigned long long side_count(const uint64_t v[2], int s)
{
    return s == MODEL_PERIPHERAL ? v[PQPAN_BLE_PERIPHERAL]
           : s == MODEL_CENTRAL  ? v[PQPAN_BLE_CENTRAL]
                                 : v[0] + v[1];
}

static void print_sim_csv(const struct sim_opts *o, const struct pqpan_sim_result *r,
                          const struct ble_sim_keys *k, const struct pqpan_run_exchange_row *row, int side)
{
    const uint64_t tx[2] = {r->ledger[0].pdus_tx, r->ledger[1].pdus_tx};
    printf(",%llu,%.17g,%.17g,%s,%s,%llu,%llu,%llu,%llu,%u,%u,%.6f,", o->s.seed, o->s.per,
           o->s.ber, transport_name(o, k, 1), k->lesc ? "lesc" : k->protocol ? "pqke" : "estimate",
           side_count(tx, side), side_count(r->retransmissions, side),
           side_count(r->crc_errors, side), side_count(r->missed, side), r->att_mtu, r->ll_octets,
           (double)r->end_ns * 1e-6);
    cli_csv_string(stdout, ble_sim_status_text(r));
    if (k->protocol) {
        printf(",%s,%s,", k->equal ? "true" : "false",
               k->confirmed && (!k->lesc || k->encrypted) ? "ok" : "failed");
    } else {
        printf(",,,");
    }
    if (run_failed(r)) {
        printf("%.3f", row->e_total_events_uj);
    }
    putchar('\n');
}

static void print_rows(const struct sim_opts *o, const struct model_env *env,
                       const struct pqpan_run_exchange_row rows[MODEL_SIDES], const struct pqpan_sim_result *r,
                       const struct ble_sim_keys *k)
{
    unsigned lesc = rows[0].p256_impl != NULL ? (unsigned)GROUP_LESC : 0u;
    unsigned all = GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | lesc;
    int s;
    if (o->m.format == FORMAT_TABLE) {
        const struct pqpan_run_exchange_row *x = &rows[0];
        printf("pqpan simulate: %s over LE %s, ATT_MTU %u, LL %u octets (%s), transfer %s, "
               "CI %.2f ms,\n  KeyGen+Decaps on the %s\n",
               x->kem, x->phy, x->att_mtu, x->ll_octets, x->dle ? "DLE" : "no DLE", x->transfer,
               x->ci_ms, x->keygen_side);
        model_print_exchange_line(stdout, "  ", x->protocol, x->auth, MODEL_BLE_IDLE_TEXT);
        if (o->s.transport == PQPAN_SIM_GATT) {
            link_print_gatt(stdout, &o->l.cfg, o->l.kem, "  ");
        }
        model_print_assumptions(stdout, env, model_radio_of(o->l.cfg.phy), "  ");
        model_print_setup(stdout, &o->l.cfg, "  ");
        putchar('\n');
        model_print_table(stdout, rows, MODEL_SIDES, GROUP_HEADLINE | GROUP_DETAIL | lesc);
        print_sim_table(o, r, k, rows);
    } else if (o->m.format == FORMAT_CSV) {
        printf("side");
        model_print_flat(stdout, NULL, all | GROUP_NO_SIDE, "", FLAT_CSV_NAMES);
        printf(",%s\n", SIM_CSV_NAMES);
        for (s = 0; s < MODEL_SIDES; s++) {
            printf("%s", rows[s].side);
            model_print_flat(stdout, &rows[s], all | GROUP_NO_SIDE, "", FLAT_CSV);
            print_sim_csv(o, r, k, &rows[s], s);
        }
    } else {
        printf("{\n");
        model_print_assumptions_json(stdout, env, model_radio_of(o->l.cfg.phy), "  ");
        model_print_setup_json(stdout, &o->l.cfg, "  ");
        print_sim_json(o, r, k, rows);
        printf("  \"sides\": [\n");
        for (s = 0; s < MODEL_SIDES; s++) {
            model_print_json_row(stdout, &rows[s], all, "    ");
            printf("%s\n", s + 1 < MODEL_SIDES ? "," : "");
        }
        printf("  ]\n}\n");
    }
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

int cli_simulate_run(int argc, char **argv)
{
    struct sim_opts o;
    struct model_env *env = NULL;
    struct pqpan_sim *s = NULL;
    struct ble_sim_apps *apps = NULL;
    struct ble_sim_keys keys;
    struct observe ob;
    struct pqpan_run_exchange_row rows[MODEL_SIDES];
    struct cli_msg msg;
    int rc;

    memset(&ob, 0, sizeof ob);
    if (cli_wants_help(argc, argv)) {
        cli_simulate_help(stdout);
        return EXIT_OK;
    }
    if (lowpan_link_requested(argc, argv)) {
        return simulate_802154_run(argc, argv);
    }
    if (mesh_link_requested(argc, argv)) {
        return mesh_simulate_run(argc, argv);
    }
    rc = parse_args(&o, argc, argv);
    if (rc == EXIT_OK && o.trace != NULL) {
        rc = cli_outfile_check(CMD, o.trace); /* before the run */
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    s = malloc(sizeof *s);
    apps = malloc(sizeof *apps);
    memset(&keys, 0, sizeof keys);
    if (s == NULL || apps == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        rc = EXIT_FAILURE_RUN;
        goto out;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK && o.pcap != NULL) {
        rc = open_pcap(&ob, o.pcap);
    }
    if (rc == EXIT_OK) {
        struct pqpan_sim_observer obs = {on_packet, on_span};
        ob.trace_side = o.trace_side;
        rc = ble_sim_run(s, apps, &keys, env, &o.l, &o.s, &obs, &ob, &msg);
        rc = cli_msg_report(CMD, rc, &msg);
    }
    if (rc == EXIT_OK && cli_outfile_close(&ob.pcap, CMD, 1) != EXIT_OK) {
        rc = EXIT_IO;
    }
    if (rc == EXIT_OK && o.trace != NULL) {
        rc = write_trace(o.trace, &ob, env, o.l.cfg.phy, s->res.end_ns);
    }
    if (rc == EXIT_OK) {
        rc = cli_msg_report(CMD, ble_sim_rows(rows, env, o.l.kem, s, &msg), &msg);
    }
    if (rc == EXIT_OK) {
        print_rows(&o, env, rows, &s->res, &keys);
        if (s->res.status != PQPAN_OK) {
            fprintf(stderr, "pqpan %s: the exchange failed: %s\n", CMD, ble_sim_status_text(&s->res));
            rc = EXIT_FAILURE_RUN;
        } else if (!ble_sim_succeeded(s, &keys)) {
            fprintf(stderr, "pqpan %s: the exchange ended without equal confirmed keys\n", CMD);
            rc = EXIT_FAILURE_RUN;
        }
    }
out:
    (void)cli_outfile_close(&ob.pcap, CMD, 0);
    free(ob.spans.v);
    free(env);
    free(s);
    free(apps);
    return rc;
}
