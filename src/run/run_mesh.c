/* The run of `pqpan estimate --link ble-mesh` and `pqpan simulate --link ble-mesh`
 * (pqpan_run "estimate" / "simulate" with --link ble-mesh, run.h): BLE Mesh provisioning
 * over PB-ADV or PB-GATT, estimated (mesh_estimate) or executed by the library's simulator
 * (mesh_simulate; --pcap written here, mesh_capture.c). Rows: the notes (the table's
 * heading, the JSON members), then one MESH row per side (provisioner, device, total) of
 * one field table with units (STYLE.md habit 10). */
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mesh_model.h"
#include "notes.h"
#include "outfile.h"
#include "pqpan/ble_pdu.h"
#include "run_internal.h"

/* ---- the field table ---- */

#define MESHF(m) offsetof(struct pqpan_run_mesh_row, m)
#define CONF PQPAN_RUN_GROUP_CONFIG
#define SIDE (PQPAN_RUN_GROUP_CONFIG | PQPAN_RUN_GROUP_JSON)
#define FIG (PQPAN_RUN_GROUP_DETAIL | PQPAN_RUN_GROUP_JSON)
#define REAL(n, label, unit) {#n, label, unit, FIG, PQPAN_RUN_STORE_REAL, MESHF(n), 3}
/* A statistic of the completed runs: no value (negative) when no run completed. */
#define STAT(n, label, unit) {#n, label, unit, FIG, PQPAN_RUN_STORE_OPT_REAL, MESHF(n), 3}
#define COUNT(n, label, unit) {#n, label, unit, FIG, PQPAN_RUN_STORE_ULL, MESHF(n), 0}
#define TEXT(n, label, group) {#n, label, NULL, group, PQPAN_RUN_STORE_TEXT, MESHF(n), 0}

static const struct pqpan_run_field mesh_fields[] = {
    TEXT(side, "side", SIDE),
    TEXT(bearer, "bearer", CONF),
    TEXT(kem, "key", CONF),
    TEXT(hybrid, "hybrid", CONF),
    TEXT(variant, "variant", CONF),
    TEXT(prov_alg, "Start algorithm", CONF),
    TEXT(auth, "PQKE authentication", CONF),
    REAL(e_comp_uj, "computation energy", "uJ"),
    REAL(e_comm_uj, "radio energy (events accounting)", "uJ"),
    REAL(e_total_uj, "total energy (events accounting)", "uJ"),
    REAL(comm_share_pct, "radio share of the total", "%"),
    REAL(e_comm_bits_uj, "TX and RX time x gamma_comm", "uJ"),
    REAL(latency_ms, "latency", "ms"),
    REAL(t_tx_ms, "time in TX", "ms"),
    REAL(t_rx_ms, "time in RX", "ms"),
    REAL(t_crypto_ms, "time computing", "ms"),
    COUNT(pdus_tx, "PDUs sent", NULL),
    COUNT(pdus_rx, "PDUs received", NULL),
    COUNT(bytes_tx, "octets sent", "octets"),
    COUNT(bytes_rx, "octets received", "octets"),
    COUNT(segments, "Generic Provisioning segments (PB-ADV)", NULL),
    COUNT(adv_events, "advertising events (PB-ADV)", NULL),
    COUNT(proxy_pdus, "Proxy PDUs (PB-GATT)", NULL),
    REAL(resent_segments, "segments resent (--per: PB-ADV's timer, the network's SAR)", NULL),
    TEXT(keys_equal, "keys equal (simulate)", CONF),
    COUNT(runs, "runs (simulate)", NULL),
    COUNT(completed, "runs completed", NULL),
    COUNT(failed, "runs failed (transaction timeout)", NULL),
    STAT(e_mean_uj, "total energy, mean of the completed runs", "uJ"),
    STAT(e_p50_uj, "total energy, median", "uJ"),
    STAT(e_p90_uj, "total energy, 90th percentile", "uJ"),
    STAT(e_p99_uj, "total energy, 99th percentile", "uJ"),
    STAT(latency_mean_ms, "latency, mean of the completed runs", "ms"),
    STAT(latency_p50_ms, "latency, median", "ms"),
    STAT(latency_p90_ms, "latency, 90th percentile", "ms"),
    STAT(latency_p99_ms, "latency, 99th percentile", "ms"),
    COUNT(hops, "hops", NULL),
    COUNT(relays, "relays per stage", NULL),
    COUNT(nodes, "nodes in the row", NULL),
    COUNT(access_messages, "access messages (parts)", NULL),
    COUNT(seg_acks, "Segment Acknowledgments", NULL),
    REAL(hop_ms, "relay stage delay (full segment)", "ms"),
};
#define N_MESH_FIELDS (sizeof mesh_fields / sizeof mesh_fields[0])

const struct pqpan_run_field *pqpan_run_mesh_fields(size_t *n)
{
    *n = N_MESH_FIELDS;
    return mesh_fields;
}

/* The fields of --bearer network alone. */
static int network_field(size_t offset)
{
    return offset == MESHF(auth) || offset == MESHF(hops) || offset == MESHF(relays) ||
           offset == MESHF(nodes) || offset == MESHF(access_messages) ||
           offset == MESHF(seg_acks) || offset == MESHF(hop_ms);
}

/* A sweep's columns: estimate's fields (those before keys_equal: simulate's, followed by
 * the runs' statistics and --bearer network's own) but --bearer network's. */
size_t mesh_sweep_fields(struct pqpan_run_field *out, size_t cap)
{
    size_t k, n = 0;
    for (k = 0; mesh_fields[k].offset != MESHF(keys_equal); k++) {
        if (network_field(mesh_fields[k].offset)) {
            continue;
        }
        if (out != NULL && n < cap) {
            out[n] = mesh_fields[k];
        }
        n++;
    }
    return n;
}

int mesh_field_on(const struct pqpan_run_field *f, const struct mesh_opts *o, int simulated)
{
    if (f->offset == MESHF(segments) || f->offset == MESHF(adv_events)) {
        return o->bearer != MESH_BEARER_PB_GATT;
    }
    if (f->offset == MESHF(proxy_pdus)) {
        return o->bearer == MESH_BEARER_PB_GATT;
    }
    if (f->offset == MESHF(resent_segments)) {
        return mesh_lossy(o);
    }
    if (network_field(f->offset)) {
        return o->bearer == MESH_BEARER_NETWORK;
    }
    if (f->offset == MESHF(variant) || f->offset == MESHF(prov_alg)) {
        return o->bearer != MESH_BEARER_NETWORK;
    }
    return f->offset != MESHF(keys_equal) || simulated;
}

/* Whether a row of o's bearer shows field f: mesh_field_on's, the runs' statistics when
 * mesh_stats_shown. */
static int field_of(const struct pqpan_run_field *f, const struct mesh_opts *o,
                    const struct mesh_sim_info *sim)
{
    if (f->offset >= MESHF(runs) && f->offset <= MESHF(latency_p99_ms)) {
        return sim != NULL && mesh_stats_shown(o, sim->runs);
    }
    return mesh_field_on(f, o, sim != NULL);
}

/* ---- the request ---- */

struct mesh_sim_opts {
    unsigned long long seed;
    unsigned runs;
    const char *pcap;
};

#define MSIM(m) offsetof(struct mesh_sim_opts, m)

static const struct cli_opt msim_rows[] = {
    {.name = "--seed", .kind = CLI_OPT_UINT, .meta = "S", .min = 0, .max = (double)ULLONG_MAX,
     .def = PQPAN_DEFAULT_SEED, .store = CLI_STORE_ULL, .offset = MSIM(seed),
     .help = "the random source of the keys, Randoms, Link ID, UUID and NetKey (run i: S + "
             "i); the packet errors of --per draw from a source of their own"},
    /* each run executes the provisioning's crypto (tens of ms at ML-KEM-1024): at most
     * 10000, and one by default (not the Monte Carlo's 100 of --link 802154: a lossless
     * run is the same for every seed but for its keys) */
    {.name = "--runs", .kind = CLI_OPT_UINT, .meta = "R", .min = 1, .max = 10000,
     .def = PQPAN_DEFAULT_MESH_RUNS, .store = CLI_STORE_U32, .offset = MSIM(runs),
     .help = "simulated runs, seeds S .. S + R - 1: the rows are the first run's, with the "
             "energy per side and latency (mean, p50, p90, p99) over the completed runs, and "
             "the completed and failed counts (also shown with --per)"},
    {.name = "--pcap", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = MSIM(pcap),
     .help = "the packets, LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR (256): PB-ADV every advertising "
             "event's PDU as the peer receives it (on channel 38, the mean channel); PB-GATT "
             "the set-up's packets (the ADV_INDs, CONNECT_IND, LL control PDUs, ATT_MTU "
             "exchange, discovery and CCCD write; priced with --setup full), then every LL "
             "data PDU of the run; network every advertising event of every node on the path "
             "(on channel 38, each node's AdvA C0:50:00:00:position:relay; the first run; "
             "with --lpn the Friend Polls and the Friend's answers too)"},
};

static void init_msim(void *o);

const struct cli_opt_table mesh_simulate_table =
    CLI_OPT_TABLE("ble-mesh-simulate", "simulate --link ble-mesh options", msim_rows,
                  struct mesh_sim_opts, init_msim);

static void init_msim(void *o)
{
    memset(o, 0, sizeof(struct mesh_sim_opts));
    cli_opt_table_defaults(&mesh_simulate_table, o);
}

struct mesh_req {
    struct model_opts m;
    struct mesh_opts o;
    struct mesh_sim_opts s;
};

/* The tables of --link ble-mesh, in the order the CLI tries them: the energy options,
 * --format, simulate's own, the link's, then the BLE link options PB-GATT takes. */
static const struct cli_opt_table *const tables[] = {
    &model_energy_table, &model_ramp_table,    &model_crypto_table,  &model_gamma_table,
    &cli_format_table,   &mesh_simulate_table, &mesh_opts_table,     &mesh_net_opts_table,
    &link_pqke_table,    &link_opts_table};
#define N_TABLES (sizeof tables / sizeof tables[0])

/* Whether table t is command's (simulate's own table with simulated only). */
static int table_on(const struct cli_opt_table *t, int simulated)
{
    return t != &mesh_simulate_table || simulated;
}

/* Row name of table t as --link ble-mesh takes it (of the BLE link's, mesh_gatt_opts; of
 * the PQKE's, mesh_pqke_opts). */
static const struct cli_opt *row_of(const struct cli_opt_table *t, const char *name)
{
    const struct cli_opt *o = cli_opt_find(t, name);
    if (o != NULL && t == &link_opts_table && cli_word_index(mesh_gatt_opts, name) < 0) {
        return NULL;
    }
    return o != NULL && t == &link_pqke_table && cli_word_index(mesh_pqke_opts, name) < 0 ? NULL
                                                                                        : o;
}

const struct cli_opt *mesh_opt_row(int simulated, const char *name)
{
    const struct cli_opt *found = NULL;
    size_t k;
    for (k = 0; k < N_TABLES && found == NULL; k++) {
        found = table_on(tables[k], simulated) ? row_of(tables[k], name) : NULL;
    }
    return found;
}

static void *base_of(struct mesh_req *q, const struct cli_opt_table *t)
{
    if (t == &cli_format_table) {
        return &q->m.format;
    }
    if (t == &mesh_simulate_table) {
        return &q->s;
    }
    if (t == &mesh_opts_table || t == &mesh_net_opts_table) {
        return &q->o;
    }
    if (t == &link_pqke_table) {
        return &q->o.pqke;
    }
    return t == &link_opts_table ? (void *)&q->o.gatt : (void *)&q->m;
}

/* "unknown option for --link ble-mesh 'NAME'; did you mean ...?" among the link's options. */
static int unknown(struct run_ctx *r, const char *name, int simulated)
{
    struct cli_suggest s;
    struct cli_msg msg;
    size_t t, k;
    cli_suggest_init(&s, name);
    for (t = 0; t < N_TABLES; t++) {
        for (k = 0; k < tables[t]->n && table_on(tables[t], simulated); k++) {
            if (row_of(tables[t], tables[t]->opts[k].name) != NULL) {
                cli_suggest_add(&s, tables[t]->opts[k].name);
            }
        }
    }
    (void)cli_msg_set(&msg, EXIT_USAGE, "unknown option for --link ble-mesh '%s'%s", name,
                      cli_suggest_text(&s));
    return run_fail(r, EXIT_USAGE, name, msg.text);
}

static int take(struct run_ctx *r, struct mesh_req *q, const struct pqpan_run_opt *opt,
                int simulated)
{
    size_t k;
    for (k = 0; k < N_TABLES; k++) {
        const struct cli_opt *row = table_on(tables[k], simulated) ? row_of(tables[k], opt->name)
                                                                   : NULL;
        if (row != NULL) {
            if (tables[k] == &mesh_opts_table || tables[k] == &link_opts_table ||
                tables[k] == &mesh_net_opts_table || tables[k] == &link_pqke_table) {
                mesh_opts_given(&q->o, row->name);
            }
            return run_set(r, row, base_of(q, tables[k]), opt);
        }
    }
    return unknown(r, opt->name, simulated);
}

static int parse(struct run_ctx *r, struct mesh_req *q, const struct pqpan_run_opt *opts,
                 size_t n_opts, int simulated)
{
    struct cli_msg msg;
    const char *option = NULL;
    size_t i;
    int rc = PQPAN_OK;
    memset(q, 0, sizeof *q);
    model_opts_init(&q->m);
    mesh_opts_init(&q->o);
    init_msim(&q->s);
    for (i = 0; i < n_opts && rc == PQPAN_OK; i++) {
        rc = opts[i].name != NULL ? take(r, q, &opts[i], simulated)
                                  : run_fail(r, EXIT_USAGE, NULL, "an option without a name");
    }
    if (rc == PQPAN_OK && mesh_opts_check(&q->o, &option, &msg) != EXIT_OK) {
        return run_fail(r, EXIT_USAGE, option, msg.text);
    }
    return rc;
}

/* ---- the notes ---- */

/* What the notes are rendered from (sim NULL: an estimate). */
struct mesh_notes {
    const struct mesh_opts *o;
    const struct model_env *env;
    const struct mesh_result *res;
    const struct mesh_sim_info *sim;
    const char *cmd;
};

static const char *variant_of(const struct mesh_result *r)
{
    return pqpan_mesh_prov_variant_name(r->keys.variant);
}

static const char *bearer_word(const struct mesh_opts *o)
{
    static const char *const words[] = {"pb-adv", "pb-gatt", "network"};
    return words[o->bearer];
}

/* PB-GATT's set-up as text: what --setup full prices and assumes, or that it is left out. */
static void pbgatt_setup_line(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    if (o->setup == PQPAN_MESH_PBGATT_SETUP_NONE) {
        fprintf(f, "  the connection's set-up not included (--setup none: an open connection)\n");
        return;
    }
    fprintf(f, "  set-up priced (--setup full, docs/MODEL.md \"PB-GATT set-up\"): %.3f ms of the "
               "latency: the device's\n  connectable advertising of 0x1827 with Service Data "
               "(ADV_IND %u octets, advInterval %.3f ms),\n  CONNECT_IND, feature and version "
               "exchange, %s%sATT_MTU exchange, discovery of 0x1827 and\n  the CCCD write; "
               "assumed: the provisioner scans continuously from time 0 and connects to the\n  "
               "first ADV_IND it hears (the expected wait, no loss); the device's advertising "
               "before that not included%s\n",
            r->setup_ms, (unsigned)PQPAN_MESH_PBGATT_ADV_IND_PAYLOAD,
            (double)o->pbgatt_adv_interval_ns * 1e-6,
            o->gatt.cfg.phy != PQPAN_BLE_PHY_1M ? "PHY update, " : "",
            o->gatt.cfg.ll_octets != PQPAN_LL_DATA_MIN_PAYLOAD ? "data length update, " : "",
            o->gatt.cfg.phy != PQPAN_BLE_PHY_1M ? ";\n  the set-up's LE 1M part charged at the "
                                                  "--phy's currents (the ledger has one radio "
                                                  "mode)"
                                                : "");
}

/* The bearer's options as text. */
static void bearer_line(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    if (o->bearer == MESH_BEARER_PB_GATT) {
        fprintf(f, "  PB-GATT: the device the peripheral and GATT server of the Mesh "
                   "Provisioning Service (MshPRT v1.1 §7.1),\n  LE %s, ATT_MTU %u, LL %u "
                   "octets, CI %.2f ms, replies in the %s event; Proxy PDUs as ATT Write\n  "
                   "Commands / Notifications (§6.3.1 SAR)\n",
                pqpan_ble_phy_name(o->gatt.cfg.phy), (unsigned)o->gatt.cfg.att_mtu,
                (unsigned)o->gatt.cfg.ll_octets, (double)o->gatt.cfg.ci_ns * 1e-6,
                o->gatt.cfg.same_event_reply ? "same" : "next");
        pbgatt_setup_line(f, o, r);
        return;
    }
    fprintf(f, "  PB-ADV: LE 1M ADV_NONCONN_IND on 37, 38, 39; advInterval %.3f ms (a side's "
               "events %.3f ms apart\n  with the mean advDelay); transmissions: %u per segment, "
               "%u per Transaction Ack / Link Ack,\n  %u of Link Close; %u transactions "
               "(largest %u octets, MshPRT v1.1 §5.3.1); last event ends at %.3f ms\n",
            (double)o->adv_interval_ns * 1e-6,
            (double)(o->adv_interval_ns + PQPAN_BLE_ADV_DELAY_MAX_NS / 2u) * 1e-6,
            (unsigned)o->pdu_transmissions, (unsigned)o->ack_transmissions,
            (unsigned)o->close_transmissions, (unsigned)r->transactions,
            (unsigned)PQPAN_MESH_PBADV_TRANSACTION_MAX, r->span_ms);
}

/* What the simulator's packets are on bearer (its --pcap). */
static const char *packets_of(int bearer)
{
    return bearer == MESH_BEARER_PB_GATT ? "LL data PDUs with a payload" : "advertising PDUs";
}

/* The simulated run's outcome. */
static void sim_line(FILE *f, const struct mesh_sim_info *sim, int bearer)
{
    size_t i;
    if (bearer == MESH_BEARER_NETWORK) {
        fprintf(f, "  simulated (--seed %llu): keys_equal %s (the PQKE's session keys), complete "
                   "%s;\n  %u Network PDUs built and decoded (endpoints and one relay per stage; "
                   "NetKey, AppKey and IV Index\n  of MshPRT sample data §8.2)\n",
                (unsigned long long)sim->seed, sim->keys_equal ? "yes" : "no",
                sim->complete ? "yes" : "no", (unsigned)sim->packets);
        return;
    }
    fprintf(f, "  simulated (--seed %llu): keys_equal %s (SessionKey, DeviceKey, NetKey), "
               "complete %s, failed code %u,\n  %u %s; DeviceKey ",
            (unsigned long long)sim->seed, sim->keys_equal ? "yes" : "no",
            sim->complete ? "yes" : "no", (unsigned)sim->failed_code, (unsigned)sim->packets,
            packets_of(bearer));
    for (i = 0; i < sizeof sim->device_key; i++) {
        fprintf(f, "%02x", sim->device_key[i]);
    }
    fputc('\n', f);
}

/* With --per: the loss and what it costs (the notes above it say zero loss otherwise). */
static void loss_line(FILE *f, const struct mesh_opts *o, const struct mesh_sim_info *sim)
{
    if (!mesh_lossy(o)) {
        return;
    }
    fprintf(f, "  loss: --per %g, each advertising packet lost with it on the channel the receiver "
               "scans; scanning %.3f ms\n  every %.3f ms (an event heard with that share, the "
               "radio on only then); a transaction\n  without its Ack sent again after the %.0f "
               "ms timer, given up after %.0f s (MshPRT v1.1 §5.3.2);\n  %s\n",
            o->per, (double)o->scan_window_ns * 1e-6, (double)o->scan_interval_ns * 1e-6,
            (double)PQPAN_MESH_PBADV_RETRANS_NS * 1e-6,
            (double)PQPAN_MESH_PBADV_TXN_TIMEOUT_NS * 1e-9,
            sim != NULL ? "the losses drawn from --seed (a source apart from the keys')"
                        : "the expected run: retransmission rounds geometric in the loss");
}

/* The runs' counts (the statistics are the rows' e_* and latency_* fields). */
static void runs_line(FILE *f, const struct mesh_sim_info *sim, int bearer)
{
    fprintf(f, "  runs %u (seeds %llu .. %llu): completed %u, failed %u (%s); the rows are the "
               "first run's, e_* and latency_* the\n  completed runs' mean and percentiles\n",
            sim->runs, (unsigned long long)sim->seed,
            (unsigned long long)sim->seed + sim->runs - 1u, sim->completed,
            sim->runs - sim->completed,
            bearer == MESH_BEARER_NETWORK
                ? "a message given up by the\n  lower transport (SAR): no keys"
                : "a transaction without its Ack for\n  the timeout: Link Close, reason Timeout");
}

/* --bearer network under loss: where the figures come from. */
static void loss_estimate_line(FILE *f, const struct mesh_result *r,
                               const struct mesh_sim_info *sim)
{
    if (sim != NULL) {
        fprintf(f, "  the losses drawn from --seed (a source apart from the keys')\n");
        return;
    }
    fprintf(f, "  the expected run of a completed exchange: the flooding and the SAR rounds in "
               "expectation\n  (docs/MODEL.md \"Loss on the mesh network\"); the exchange "
               "completes with %.1f %% (derived:\n  every segment through within the SAR "
               "rounds)\n",
            r->completes * 100.0);
}

/* The lines a table prints before the rows. */
/* What the events accounting holds of scanning: none on PB-GATT, every node's otherwise but
 * a Low Power Node's (its receive windows only). */
static const char *scanning_note(const struct mesh_opts *o)
{
    if (o->bearer == MESH_BEARER_PB_GATT) {
        return "";
    }
    return o->bearer == MESH_BEARER_NETWORK && o->net.lpn != PQPAN_MESH_NET_LPN_NONE
               ? ", continuous scanning of every node but the LPN included"
               : ", continuous scanning included";
}

static void table_notes(FILE *f, const void *arg)
{
    const struct mesh_notes *a = arg;
    const struct mesh_opts *o = a->o;
    const struct mesh_result *r = a->res;
    const struct model_env *env = a->env;
    if (o->bearer == MESH_BEARER_NETWORK) {
        fprintf(f, "pqpan %s: keys between mesh nodes over %s, %s%s\n", a->cmd,
                mesh_bearer_name(o->bearer), o->kem, o->hybrid ? " + P-256" : "");
        mesh_net_table_notes(f, o, r);
        if (mesh_lossy(o)) {
            loss_estimate_line(f, r, a->sim);
        }
    } else {
        fprintf(f, "pqpan %s: BLE Mesh provisioning over %s, %s%s (variant %s, %s values)\n",
                a->cmd, mesh_bearer_name(o->bearer), o->kem, o->hybrid ? " + P-256" : "",
                variant_of(r), pqpan_mesh_prov_alg_name(r->keys.alg));
        bearer_line(f, o, r);
        fprintf(f, "  Public Key PDUs: provisioner %u, device %u (docs/PROTOCOL.md §10); No OOB "
                   "authentication, %s;\n  both sides priced with the profile below; P-256 "
                   "key pair per --lesc-keypair (%s)\n",
                (unsigned)r->pk_parts[0], (unsigned)r->pk_parts[1],
                mesh_lossy(o) ? "loss below" : "zero loss",
                env->lesc_keypair == MODEL_LESC_KEYPAIR_REUSED ? "reused" : "fresh");
        loss_line(f, o, a->sim);
    }
    if (a->sim != NULL) {
        sim_line(f, a->sim, o->bearer);
    }
    if (a->sim != NULL && mesh_stats_shown(o, a->sim->runs)) {
        runs_line(f, a->sim, o->bearer);
    }
    fprintf(f, "  energy: events accounting (every state the ledger holds%s; no gamma on it);\n"
               "  e_comm_bits_uj: TX and RX time x gamma_comm\n",
            scanning_note(o));
    model_print_profile_line(f, env, "  ");
    fprintf(f, "  currents: %s table, TX %d dBm; ramp-up %s\n",
            pqpan_current_table_name(env->table), env->eopts.tx_dbm,
            env->ramp_normal ? "normal" : "fast");
    model_print_derived(f, env, model_radio_of(o->gatt.cfg.phy), "  ");
    model_print_crypto_gamma(f, env, "  ");
}

static void json_bearer(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    if (o->bearer == MESH_BEARER_PB_GATT) {
        fprintf(f, "  \"att_mtu\": %u,\n  \"ll_octets\": %u,\n  \"ci_ms\": %.3f,\n"
                   "  \"reply\": \"%s\",\n  \"setup\": \"%s\",\n",
                (unsigned)o->gatt.cfg.att_mtu, (unsigned)o->gatt.cfg.ll_octets,
                (double)o->gatt.cfg.ci_ns * 1e-6,
                o->gatt.cfg.same_event_reply ? "same-event" : "next-event",
                o->setup == PQPAN_MESH_PBGATT_SETUP_FULL ? "full" : "none");
        if (o->setup == PQPAN_MESH_PBGATT_SETUP_FULL) {
            fprintf(f, "  \"pbgatt_adv_interval_ms\": %.3f,\n  \"setup_ms\": %.3f,\n"
                       "  \"setup_assumed\": \"the provisioner scans continuously from time 0 "
                       "and connects to the first ADV_IND it hears (expected wait, no loss)\",\n",
                    (double)o->pbgatt_adv_interval_ns * 1e-6, r->setup_ms);
        }
        return;
    }
    fprintf(f, "  \"adv_interval_ms\": %.3f,\n  \"pdu_transmissions\": %u,\n"
               "  \"ack_transmissions\": %u,\n  \"close_transmissions\": %u,\n"
               "  \"transactions\": %u,\n  \"transaction_max_octets\": %u,\n"
               "  \"span_ms\": %.3f,\n",
            (double)o->adv_interval_ns * 1e-6, (unsigned)o->pdu_transmissions,
            (unsigned)o->ack_transmissions, (unsigned)o->close_transmissions,
            (unsigned)r->transactions, (unsigned)PQPAN_MESH_PBADV_TRANSACTION_MAX, r->span_ms);
}

/* The JSON members before "sides" (each followed by a comma). */
static void json_notes(FILE *f, const void *arg)
{
    const struct mesh_notes *a = arg;
    const struct mesh_opts *o = a->o;
    const struct mesh_result *r = a->res;
    if (o->bearer == MESH_BEARER_NETWORK) {
        fprintf(f, "  \"link\": \"ble-mesh\",\n  \"bearer\": \"network\",\n  \"kem\": \"%s\",\n"
                   "  \"hybrid\": \"%s\",\n  \"phy\": \"1M\",\n",
                o->kem, o->hybrid ? "p256" : "none");
        mesh_net_json_notes(f, o, r);
        if (a->sim == NULL && mesh_lossy(o)) {
            fprintf(f, "  \"completes_pct\": %.3f,\n", r->completes * 100.0);
        }
        fprintf(f, "  \"e_comm_accounting\": \"events\",\n");
        if (a->sim != NULL) {
            fprintf(f, "  \"seed\": %llu,\n  \"keys_equal\": %s,\n  \"complete\": %s,\n"
                       "  \"network_pdus\": %u,\n",
                    (unsigned long long)a->sim->seed, a->sim->keys_equal ? "true" : "false",
                    a->sim->complete ? "true" : "false", (unsigned)a->sim->packets);
        }
        model_print_assumptions_json(f, a->env, PQPAN_RADIO_BLE_1M, "  ");
        return;
    }
    fprintf(f, "  \"link\": \"ble-mesh\",\n  \"bearer\": \"%s\",\n  \"kem\": \"%s\",\n"
               "  \"hybrid\": \"%s\",\n  \"variant\": \"%s\",\n  \"prov_alg\": \"%s\",\n"
               "  \"phy\": \"%s\",\n",
            bearer_word(o), o->kem, o->hybrid ? "p256" : "none", variant_of(r),
            pqpan_mesh_prov_alg_name(r->keys.alg), pqpan_ble_phy_name(o->gatt.cfg.phy));
    json_bearer(f, o, r);
    fprintf(f, "  \"public_key_pdus_provisioner\": %u,\n  \"public_key_pdus_device\": %u,\n"
               "  \"e_comm_accounting\": \"events\",\n",
            (unsigned)r->pk_parts[0], (unsigned)r->pk_parts[1]);
    if (mesh_lossy(o)) {
        fprintf(f, "  \"per\": %.17g,\n  \"scan_window_ms\": %.3f,\n"
                   "  \"scan_interval_ms\": %.3f,\n",
                o->per, (double)o->scan_window_ns * 1e-6, (double)o->scan_interval_ns * 1e-6);
    }
    if (a->sim != NULL && mesh_stats_shown(o, a->sim->runs)) {
        fprintf(f, "  \"runs\": %u,\n  \"completed\": %u,\n  \"failed\": %u,\n",
                a->sim->runs, a->sim->completed, a->sim->runs - a->sim->completed);
    }
    if (a->sim != NULL) {
        fprintf(f, "  \"seed\": %llu,\n  \"keys_equal\": %s,\n  \"complete\": %s,\n"
                   "  \"failed_code\": %u,\n  \"%s\": %u,\n",
                (unsigned long long)a->sim->seed, a->sim->keys_equal ? "true" : "false",
                a->sim->complete ? "true" : "false", (unsigned)a->sim->failed_code,
                o->bearer == MESH_BEARER_PB_GATT ? "ll_data_pdus" : "adv_pdus",
                (unsigned)a->sim->packets);
    }
    model_print_assumptions_json(f, a->env, model_radio_of(o->gatt.cfg.phy), "  ");
}

/* ---- the rows ---- */

/* "yes": every completed run agreed its keys; "no": one did not; "-": none completed. */
static const char *keys_word(const struct mesh_sim_info *sim)
{
    if (sim->keys_differ) {
        return "no";
    }
    return sim->completed > 0u ? "yes" : "-";
}

void mesh_row_texts(struct mesh_result *res, const struct mesh_opts *o,
                    const struct mesh_sim_info *sim)
{
    int s;
    for (s = 0; s < res->n_rows; s++) {
        struct pqpan_run_mesh_row *m = &res->rows[s];
        m->bearer = bearer_word(o);
        m->kem = o->kem;
        m->hybrid = o->hybrid ? "p256" : "none";
        m->variant = variant_of(res);
        m->prov_alg = pqpan_mesh_prov_alg_name(res->keys.alg);
        m->keys_equal = sim == NULL ? NULL : keys_word(sim);
        m->auth = o->bearer == MESH_BEARER_NETWORK ? pqpan_pqke_mode_name(o->pqke.mode) : NULL;
    }
}

static int emit_sides(struct run_ctx *r, const struct mesh_opts *o, struct mesh_result *res,
                      const struct mesh_sim_info *sim)
{
    struct pqpan_run_field sel[N_MESH_FIELDS];
    struct pqpan_run_row row;
    size_t k, n = 0;
    int s, rc = PQPAN_OK;
    for (k = 0; k < N_MESH_FIELDS; k++) {
        if (field_of(&mesh_fields[k], o, sim)) {
            sel[n++] = mesh_fields[k];
        }
    }
    mesh_row_texts(res, o, sim);
    for (s = 0; s < res->n_rows && rc == PQPAN_OK; s++) {
        memset(&row, 0, sizeof row);
        row.record = PQPAN_RUN_RECORD_MESH;
        row.link = PQPAN_RUN_LINK_BLE;
        row.groups = PQPAN_RUN_GROUP_JSON;
        row.fields = sel;
        row.n_fields = n;
        rc = run_emit_row(r, &row, &res->rows[s]);
    }
    return rc;
}

static int emit_rows(struct run_ctx *r, const struct mesh_req *q, const struct model_env *env,
                     struct mesh_result *res, const struct mesh_sim_info *sim, const char *cmd)
{
    struct mesh_notes notes;
    int rc;
    notes.o = &q->o;
    notes.env = env;
    notes.res = res;
    notes.sim = sim;
    notes.cmd = cmd;
    rc = run_render(r, PQPAN_RUN_RECORD_NOTE, table_notes, &notes);
    if (rc == PQPAN_OK) {
        rc = run_render(r, PQPAN_RUN_RECORD_MEMBERS, json_notes, &notes);
    }
    return rc == PQPAN_OK ? emit_sides(r, &q->o, res, sim) : rc;
}

/* The simulated run, --pcap written before the rows. */
static int simulate(struct run_ctx *r, const struct mesh_req *q, const struct model_env *env,
                    struct mesh_result *res, struct mesh_sim_info *info)
{
    struct mesh_capture *cap = NULL;
    struct cli_msg msg;
    int rc;
    memset(info, 0, sizeof *info);
    info->seed = q->s.seed;
    info->runs = q->s.runs;
    if (q->s.pcap != NULL && mesh_capture_open(&cap, q->s.pcap) != EXIT_OK) {
        return run_fail(r, EXIT_IO, "--pcap", "cannot write the --pcap file");
    }
    rc = mesh_simulate(res, info, env, &q->o, cap, &msg);
    if (cap != NULL && mesh_capture_close(cap, rc == EXIT_OK) != EXIT_OK && rc == EXIT_OK) {
        return run_fail(r, EXIT_IO, "--pcap", "cannot write the --pcap file");
    }
    return rc != EXIT_OK ? run_fail(r, rc, NULL, msg.text) : PQPAN_OK;
}

int run_mesh(struct run_ctx *r, const struct pqpan_run_opt *opts, size_t n_opts, int simulated)
{
    struct mesh_req *q = malloc(sizeof *q);
    struct mesh_result *res = malloc(sizeof *res);
    struct mesh_sim_info info;
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc = q != NULL && res != NULL ? PQPAN_OK
                                      : run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    rc = rc == PQPAN_OK ? parse(r, q, opts, n_opts, simulated) : rc;
    if (rc == PQPAN_OK) {
        int load = model_env_new_msg(&env, &q->m, &msg);
        rc = load != EXIT_OK ? run_fail(r, load, NULL, msg.text) : PQPAN_OK;
    }
    if (rc == PQPAN_OK && simulated) {
        rc = simulate(r, q, env, res, &info);
    } else if (rc == PQPAN_OK) {
        int est = mesh_estimate(res, env, &q->o, &msg);
        rc = est != EXIT_OK ? run_fail(r, est, NULL, msg.text) : PQPAN_OK;
    }
    if (rc == PQPAN_OK) {
        rc = emit_rows(r, q, env, res, simulated ? &info : NULL,
                       simulated ? "simulate" : "estimate");
    }
    free(env);
    free(res);
    free(q);
    return rc;
}
