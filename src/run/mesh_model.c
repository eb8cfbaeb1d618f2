/* BLE Mesh provisioning as the run layer runs it: options, the library's PB-ADV / PB-GATT
 * estimators and simulators, energy per side (docs/MODEL.md "Mesh provisioning"). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "lowpan_sim.h"
#include "mesh_model.h"
#include "pqpan/error.h"

static const char *const link_words[] = {"ble-mesh", NULL};
static const char *const bearer_words[] = {"pb-adv", "pb-gatt", "network", NULL};
static const char *const hybrid_words[] = {"none", "p256", NULL};
static const char *const alg_words[] = {"cmac", "hmac", NULL};
static const char *const setup_words[] = {"none", "full", NULL};

/* The options of PB-GATT that are the BLE link's (link_opts_table), and --phy, which
 * PB-ADV takes too (LE 1M only). */
const char *const mesh_gatt_opts[] = {"--phy", "--att-mtu", "--ll-octets", "--ci-ms",
                                      "--reply", NULL};

/* The largest Provisioning PDU pqpan plans on PB-GATT (src/mesh/pbgatt.c: Proxy SAR has no
 * segment counter; 65535, the TotalLength PB-ADV would give it). */
#define PBGATT_PDU_MAX 65535u

_Static_assert((int)PQPAN_MESH_PROV_ALG_CMAC == 0 && (int)PQPAN_MESH_PROV_ALG_HMAC == 1,
               "--prov-alg's words are in enum pqpan_mesh_prov_alg order");
_Static_assert((int)PQPAN_MESH_PBGATT_SETUP_NONE == 0 && (int)PQPAN_MESH_PBGATT_SETUP_FULL == 1,
               "--setup's words are in enum pqpan_mesh_pbgatt_setup order");

/* --kem: the ML-KEM sets, then the specification's P-256 keys. */
static void kem_words(cli_word_fn add, void *ctx)
{
    model_kem_names(add, ctx);
    add(ctx, MESH_P256_NAME);
}

#define MESH(m) offsetof(struct mesh_opts, m)

static const struct cli_opt mesh_rows[] = {
    {.name = "--link", .kind = CLI_OPT_WORD, .meta = "ble|802154|ble-mesh", .words = link_words,
     .allowed = "ble, 802154 or ble-mesh",
     .help = "BLE Mesh provisioning (MshPRT v1.1 §5.4) with --link ble-mesh: the provisioning "
             "PDUs with ML-KEM keys (pqpan's variant, docs/PROTOCOL.md §10) or P-256's over a "
             "provisioning bearer; energy per side (provisioner, device) and latency"},
    {.name = "--bearer", .kind = CLI_OPT_WORD, .words = bearer_words, .def = PQPAN_DEFAULT_BEARER,
     .store = CLI_STORE_INT, .offset = MESH(bearer),
     .help = "pb-adv: Generic Provisioning transactions in non-connectable advertising events "
             "(MshPRT v1.1 §5.2.1, §5.3); pb-gatt: Proxy PDUs over a GATT connection (§5.2.2, "
             "§6.3.1); network: pqpan's PQKE between two provisioned nodes in segmented access "
             "messages over the mesh network, relayed by managed flooding (§3.4 - §3.7)"},
    {.name = "--kem", .kind = CLI_OPT_WORD, .meta = "NAME", .words_fn = kem_words,
     .def = PQPAN_DEFAULT_KEM, .store = CLI_STORE_STR, .offset = MESH(kem),
     .help = "the key in the Public Key PDUs: an ML-KEM set (ek from the provisioner, ct from "
             "the device) or " MESH_P256_NAME " (the specification's public keys, ECDH)"},
    {.name = "--hybrid", .kind = CLI_OPT_WORD, .words = hybrid_words, .def = PQPAN_DEFAULT_HYBRID,
     .store = CLI_STORE_INT, .offset = MESH(hybrid),
     .help = "p256: each Public Key PDU carries a P-256 key (64 octets) before the ML-KEM ek or "
             "ct, both secrets used (pqpan's hybrid variant)"},
    {.name = "--prov-alg", .kind = CLI_OPT_WORD, .words = alg_words, .def = PQPAN_DEFAULT_PROV_ALG,
     .store = CLI_STORE_INT, .offset = MESH(alg),
     .help = "the Start PDU's algorithm: cmac (BTM_ECDH_P256_CMAC_AES128_AES_CCM, 16-octet "
             "Confirmation and Random) or hmac (BTM_ECDH_P256_HMAC_SHA256_AES_CCM, 32 octets)"},
    {.name = "--pbadv-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = (double)PQPAN_BLE_ADV_INTERVAL_MIN_NS * 1e-6,
     .max = (double)PQPAN_BLE_ADV_INTERVAL_MAX_NS * 1e-6,
     .def = PQPAN_DEFAULT_PBADV_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = MESH(adv_interval_ns),
     .help = "PB-ADV: advInterval of every transmission; a side's events start advInterval + "
             "5 ms (the mean advDelay, Core v5.4 Vol 6 Part B §4.4.2.2.1) apart"},
    {.name = "--setup", .kind = CLI_OPT_WORD, .words = setup_words,
     .def = PQPAN_DEFAULT_PBGATT_SETUP, .store = CLI_STORE_INT, .offset = MESH(setup),
     .help = "PB-GATT: full prices the connection's set-up before the provisioning (the device "
             "advertising until the provisioner connects, CONNECT_IND, feature exchange, link "
             "switch, ATT_MTU exchange, discovery of the Mesh Provisioning Service 0x1827 and the "
             "CCCD write; docs/MODEL.md \"PB-GATT set-up\"); none prices an open connection"},
    {.name = "--pbgatt-adv-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = (double)PQPAN_BLE_ADV_INTERVAL_MIN_NS * 1e-6,
     .max = (double)PQPAN_BLE_ADV_INTERVAL_MAX_NS * 1e-6,
     .allowed = "20..10485759.375 ms in steps of 0.625",
     .def = PQPAN_DEFAULT_PBGATT_ADV_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = MESH(pbgatt_adv_interval_ns),
     .help = "PB-GATT with --setup full: the device's advInterval (connectable advertising of "
             "the Mesh Provisioning Service); the provisioner scans continuously from time 0 "
             "and connects to the first ADV_IND it hears (expected case, docs/MODEL.md "
             "\"Advertising\")"},
    {.name = "--pdu-transmissions", .kind = CLI_OPT_UINT, .meta = "N", .min = 1,
     .max = MESH_TRANSMISSIONS_MAX, .def = PQPAN_DEFAULT_PBADV_PDU_TRANSMISSIONS,
     .store = CLI_STORE_U32, .offset = MESH(pdu_transmissions),
     .help = "PB-ADV: advertising events per segment (and per Link Open)"},
    {.name = "--ack-transmissions", .kind = CLI_OPT_UINT, .meta = "N", .min = 1,
     .max = MESH_TRANSMISSIONS_MAX, .def = PQPAN_DEFAULT_PBADV_ACK_TRANSMISSIONS,
     .store = CLI_STORE_U32, .offset = MESH(ack_transmissions),
     .help = "PB-ADV: advertising events per Transaction Ack and Link Ack"},
    {.name = "--close-transmissions", .kind = CLI_OPT_UINT, .meta = "N", .min = 1,
     .max = MESH_TRANSMISSIONS_MAX, .def = PQPAN_DEFAULT_PBADV_CLOSE_TRANSMISSIONS,
     .store = CLI_STORE_U32, .offset = MESH(close_transmissions),
     .help = "PB-ADV: advertising events of the Link Close"},
    {.name = "--per", .kind = CLI_OPT_NUMBER, .meta = "P", .min = 0, .max = 1,
     .def = PQPAN_DEFAULT_PER, .store = CLI_STORE_DOUBLE, .offset = MESH(per),
     .help = "PB-ADV and network: packet error rate of each advertising packet on the channel "
             "the receiver scans. PB-ADV: an unacknowledged transaction is sent again after "
             "the 500 ms retransmission timer, the link closed after 30 s without its Ack "
             "(MshPRT v1.1 §5.3.2; Zephyr pb_adv.c); network: drawn at every receiver of "
             "every event, the lower transport's SAR timers resend (--sar-*). estimate: the "
             "expected rounds (below 1); simulate: drawn from --seed"},
    {.name = "--scan-window-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = (double)PQPAN_MESH_SCAN_MIN_NS * 1e-6, .max = (double)PQPAN_MESH_SCAN_MAX_NS * 1e-6,
     .def = PQPAN_DEFAULT_SCAN_WINDOW_MS, .store = CLI_STORE_MS_NS,
     .offset = MESH(scan_window_ns),
     .help = "PB-ADV: each side scans this long every --scan-interval-ms (Core v5.4 Vol 6 Part "
             "B §4.4.3): an event is heard with probability window / interval, the radio "
             "listens only in the windows; at most the interval"},
    {.name = "--scan-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms",
     .min = (double)PQPAN_MESH_SCAN_MIN_NS * 1e-6, .max = (double)PQPAN_MESH_SCAN_MAX_NS * 1e-6,
     .def = PQPAN_DEFAULT_SCAN_INTERVAL_MS, .store = CLI_STORE_MS_NS,
     .offset = MESH(scan_interval_ns),
     .help = "PB-ADV: the scan interval (equal to the window: continuous scanning, MshPRT v1.1 "
             "§5.2.1's recommendation)"},
};

static void init_opts(void *o)
{
    mesh_opts_init(o);
}

const struct cli_opt_table mesh_opts_table =
    CLI_OPT_TABLE("ble-mesh", "BLE Mesh provisioning options (--link ble-mesh)", mesh_rows,
                  struct mesh_opts, init_opts);

void mesh_opts_init(struct mesh_opts *o)
{
    memset(o, 0, sizeof *o);
    cli_opt_table_defaults(&mesh_opts_table, o);
    cli_opt_table_defaults(&mesh_net_opts_table, o);
    link_opts_init(&o->gatt);
    link_pqke_init(&o->pqke);
}

/* Options only PB-ADV takes (the transmissions and interval). */
static int pbadv_only(const char *name)
{
    return strncmp(name, "--pbadv-", 8) == 0 || strstr(name, "-transmissions") != NULL ||
           strncmp(name, "--scan-", 7) == 0;
}

/* Options of mesh_opts_table only PB-GATT takes (its set-up). */
static int pbgatt_only(const char *name)
{
    return strncmp(name, "--pbgatt-", 9) == 0 || strcmp(name, "--setup") == 0;
}

void mesh_opts_given(struct mesh_opts *o, const char *name)
{
    if (cli_opt_find(&mesh_net_opts_table, name) != NULL ||
        cli_word_index(mesh_pqke_opts, name) >= 0) {
        o->net_given = o->net_given != NULL ? o->net_given : name;
    } else if (cli_opt_find(&mesh_opts_table, name) != NULL) {
        if (pbadv_only(name) && o->adv_given == NULL) {
            o->adv_given = name;
        }
        if (pbgatt_only(name) && o->gatt_given == NULL) {
            o->gatt_given = name;
        }
        if (strcmp(name, "--prov-alg") == 0) {
            o->prov_given = name;
        }
        if (strcmp(name, "--per") == 0) {
            o->per_given = name;
        }
    } else if (strcmp(name, "--phy") != 0 && o->gatt_given == NULL) {
        o->gatt_given = name;
    }
}

int mesh_opts_check(const struct mesh_opts *o, const char **option, struct cli_msg *msg)
{
    *option = "--bearer";
    if (o->bearer == MESH_BEARER_NETWORK) {
        return mesh_net_opts_check(o, option, msg);
    }
    if (o->net_given != NULL) {
        *option = o->net_given;
        return cli_msg_set(msg, EXIT_USAGE, "%s applies to --bearer network (keys between mesh "
                                            "nodes)", o->net_given);
    }
    if (o->hybrid && strcmp(o->kem, MESH_P256_NAME) == 0) {
        *option = "--hybrid";
        return cli_msg_set(msg, EXIT_USAGE, "--hybrid p256 adds P-256 to an ML-KEM --kem: with "
                                            "--kem " MESH_P256_NAME " there is nothing to "
                                            "combine");
    }
    if (o->bearer == MESH_BEARER_PB_ADV && o->gatt_given != NULL) {
        *option = o->gatt_given;
        return cli_msg_set(msg, EXIT_USAGE, "%s applies to --bearer pb-gatt (PB-ADV has no "
                                            "connection)", o->gatt_given);
    }
    if (o->bearer == MESH_BEARER_PB_GATT && o->adv_given != NULL) {
        *option = o->adv_given;
        return cli_msg_set(msg, EXIT_USAGE, "%s applies to --bearer pb-adv", o->adv_given);
    }
    if (o->bearer == MESH_BEARER_PB_GATT &&
        o->pbgatt_adv_interval_ns % PQPAN_BLE_ADV_INTERVAL_STEP_NS != 0u) {
        *option = "--pbgatt-adv-interval-ms";
        return cli_msg_set(msg, EXIT_USAGE, "--pbgatt-adv-interval-ms %.4f is not a multiple of "
                                            "0.625 ms (Core v5.4 Vol 6 Part B §4.4.2.2)",
                           (double)o->pbgatt_adv_interval_ns * 1e-6);
    }
    if (o->bearer == MESH_BEARER_PB_GATT && link_opts_check(&o->gatt.cfg, msg) != EXIT_OK) {
        *option = "--ci-ms"; /* the BLE link's check: a link that cannot carry its PDUs */
        return EXIT_USAGE;
    }
    if (o->bearer == MESH_BEARER_PB_GATT && o->per_given != NULL) {
        *option = o->per_given;
        return cli_msg_set(msg, EXIT_USAGE, "--per applies to the advertising bearers (--bearer "
                                            "pb-adv or network), not to a GATT connection");
    }
    if (o->bearer == MESH_BEARER_PB_ADV && o->scan_window_ns > o->scan_interval_ns) {
        *option = "--scan-window-ms";
        return cli_msg_set(msg, EXIT_USAGE, "--scan-window-ms %.3f is longer than "
                                            "--scan-interval-ms %.3f (Core v5.4 Vol 4 Part E "
                                            "§7.8.10: the window at most the interval)",
                           (double)o->scan_window_ns * 1e-6, (double)o->scan_interval_ns * 1e-6);
    }
    if (o->bearer == MESH_BEARER_PB_ADV && o->gatt.cfg.phy != PQPAN_BLE_PHY_1M) {
        *option = "--phy";
        return cli_msg_set(msg, EXIT_USAGE, "PB-ADV sends legacy advertising PDUs, on LE 1M "
                                            "only (Core v5.4 Vol 6 Part B §2.3): --phy 1M");
    }
    *option = NULL;
    return EXIT_OK;
}

const char *mesh_bearer_name(int bearer)
{
    if (bearer == MESH_BEARER_NETWORK) {
        return "the mesh network";
    }
    return bearer == MESH_BEARER_PB_GATT ? "PB-GATT" : "PB-ADV";
}

/* What the run agrees: the variant from --kem and --hybrid. */
static int mesh_keys(struct pqpan_mesh_prov_keys *k, const struct mesh_opts *o,
                     struct cli_msg *msg)
{
    const struct pqpan_kem *kem = pqpan_kem_by_name(o->kem);
    pqpan_mesh_prov_keys_default(k);
    k->alg = (enum pqpan_mesh_prov_alg)o->alg;
    if (strcmp(o->kem, MESH_P256_NAME) == 0) {
        k->variant = PQPAN_MESH_PROV_P256;
        return EXIT_OK;
    }
    if (kem == NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "unknown --kem '%s'", o->kem);
    }
    k->kem = kem->id;
    k->variant = o->hybrid ? PQPAN_MESH_PROV_HYBRID : PQPAN_MESH_PROV_MLKEM;
    return EXIT_OK;
}

/* The cycles each side's operations take: ML-KEM's rows and, for P-256 and the hybrid,
 * P-256's (--p256-impl, --lesc-keypair as for LE SC), from env's tables. */
static int mesh_cycles(uint64_t cycles[PQPAN_OP_COUNT], const struct model_env *env,
                       const struct mesh_opts *o, enum pqpan_mesh_prov_variant v,
                       struct cli_msg *msg)
{
    struct pqpan_ble_config cfg;
    uint64_t p256[PQPAN_OP_COUNT];
    int rc = EXIT_OK;
    pqpan_ble_config_default(&cfg);
    cfg.protocol = PQPAN_BLE_PROTO_STUDY; /* the KEM's rows alone, no key schedule */
    memset(cycles, 0, PQPAN_OP_COUNT * sizeof cycles[0]);
    if (v != PQPAN_MESH_PROV_P256) {
        rc = model_setup(cycles, &cfg, env, o->kem, msg);
    }
    if (rc == EXIT_OK && v != PQPAN_MESH_PROV_MLKEM) {
        rc = model_setup(p256, &cfg, env, MODEL_LESC_NAME, msg);
        cycles[PQPAN_OP_ECDH_KEYGEN] = p256[PQPAN_OP_ECDH_KEYGEN];
        cycles[PQPAN_OP_ECDH_SHARED] = p256[PQPAN_OP_ECDH_SHARED];
    }
    return rc;
}

/* Public Key PDUs each side sends in the plan of the bearer's largest PDU. */
static void count_parts(struct mesh_result *r, uint32_t max_pdu)
{
    struct pqpan_mesh_prov_step steps[PQPAN_MESH_PROV_STEPS_MAX];
    uint32_t n = 0, i;
    if (pqpan_mesh_prov_plan(steps, &n, r->keys.variant, r->keys.kem, r->keys.alg, max_pdu) !=
        PQPAN_OK) {
        return;
    }
    for (i = 0; i < n; i++) {
        if (steps[i].type == PQPAN_MESH_PROV_PUBLIC_KEY) {
            r->pk_parts[steps[i].sender]++;
        }
    }
}

int mesh_fill_row(struct pqpan_run_mesh_row *row, const struct model_env *env,
                  enum pqpan_radio_mode radio, const struct pqpan_ledger *l, struct cli_msg *msg)
{
    struct pqpan_run_exchange_row r;
    int rc = model_fill_side(&r, env, radio, l, l, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    row->e_comp_uj = r.e_comp_uj;
    row->e_comm_uj = r.e_comm_events_uj;
    row->e_total_uj = r.e_total_events_uj;
    row->comm_share_pct = r.comm_share_events_pct;
    row->e_comm_bits_uj = r.e_comm_uj;
    row->t_tx_ms = r.t_tx_ms;
    row->t_rx_ms = r.t_rx_ms;
    row->t_crypto_ms = r.t_crypto_ms;
    row->pdus_tx = r.pdus_tx;
    row->pdus_rx = r.pdus_rx;
    row->bytes_tx = r.bytes_tx;
    row->bytes_rx = r.bytes_rx;
    return EXIT_OK;
}

const char *mesh_side_name(int s)
{
    static const char *const names[MESH_SIDES] = {"provisioner", "device", "total"};
    return names[s];
}

/* The three rows from the two sides' ledgers; latency_ns for each. */
static int fill_rows(struct mesh_result *r, const struct model_env *env,
                     enum pqpan_ble_phy phy, const struct pqpan_ledger ledger[2],
                     uint64_t latency_ns, struct cli_msg *msg)
{
    struct pqpan_ledger total = ledger[0];
    int s, rc = EXIT_OK;
    pqpan_ledger_accumulate(&total, &ledger[1]);
    r->n_rows = MESH_SIDES;
    for (s = 0; s < MESH_SIDES && rc == EXIT_OK; s++) {
        rc = mesh_fill_row(&r->rows[s], env, model_radio_of(phy), s < 2 ? &ledger[s] : &total,
                           msg);
        r->rows[s].side = mesh_side_name(s);
        r->rows[s].latency_ms = (double)latency_ns * 1e-6;
    }
    return rc;
}

static void pbadv_config(struct pqpan_mesh_pbadv_config *c, const struct mesh_result *r,
                         const struct mesh_opts *o)
{
    pqpan_mesh_pbadv_config_default(c);
    c->keys = r->keys;
    c->adv_interval_ns = o->adv_interval_ns;
    c->pdu_transmissions = o->pdu_transmissions;
    c->ack_transmissions = o->ack_transmissions;
    c->close_transmissions = o->close_transmissions;
    c->per = o->per;
    c->scan_window_ns = o->scan_window_ns;
    c->scan_interval_ns = o->scan_interval_ns;
}

/* The rows of a PB-ADV run, estimated or simulated. */
static int pbadv_rows(struct mesh_result *r, const struct model_env *env,
                      const struct pqpan_mesh_pbadv_estimate *e, struct cli_msg *msg)
{
    int s, rc = fill_rows(r, env, PQPAN_BLE_PHY_1M, e->ledger, e->latency_ns, msg);
    for (s = 0; s < 2; s++) {
        r->rows[s].segments = e->segments[s];
        r->rows[s].adv_events = e->adv_events[s];
        r->rows[s].resent_segments = e->resent_segments[s];
    }
    r->rows[MESH_TOTAL].resent_segments = e->resent_segments[0] + e->resent_segments[1];
    r->rows[MESH_TOTAL].segments = (unsigned long long)e->segments[0] + e->segments[1];
    r->rows[MESH_TOTAL].adv_events = (unsigned long long)e->adv_events[0] + e->adv_events[1];
    r->transactions = e->transactions;
    r->span_ms = (double)e->span_ns * 1e-6;
    count_parts(r, PQPAN_MESH_PBADV_TRANSACTION_MAX);
    return rc;
}

static int run_pbadv(struct mesh_result *r, const struct model_env *env,
                     const struct mesh_opts *o, const struct pqpan_ble_device dev[2],
                     uint64_t cycles[2][PQPAN_OP_COUNT], struct cli_msg *msg)
{
    struct pqpan_mesh_pbadv_estimate e; /* a local: sweep --jobs runs estimates on threads */
    struct pqpan_mesh_pbadv_config c;
    pbadv_config(&c, r, o);
    if (o->per >= 1.0) {
        return cli_msg_set(msg, EXIT_USAGE, "--per 1 loses every packet: no transaction "
                                            "completes, there is no expected run (simulate "
                                            "shows the timeout)");
    }
    if (pqpan_mesh_pbadv_estimate(&e, &c, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cycles) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "the bearer's configuration is out of range");
    }
    return pbadv_rows(r, env, &e, msg);
}

static void pbgatt_config(struct pqpan_mesh_pbgatt_config *c, const struct mesh_result *r,
                          const struct mesh_opts *o)
{
    pqpan_mesh_pbgatt_config_default(c);
    c->keys = r->keys;
    c->phy = o->gatt.cfg.phy;
    c->att_mtu = o->gatt.cfg.att_mtu;
    c->ll_octets = o->gatt.cfg.ll_octets;
    c->ci_ns = o->gatt.cfg.ci_ns;
    c->same_event_reply = o->gatt.cfg.same_event_reply;
    c->setup = (enum pqpan_mesh_pbgatt_setup)o->setup;
    c->adv_interval_ns = o->pbgatt_adv_interval_ns;
}

/* The rows of a PB-GATT run, estimated or simulated. */
static int pbgatt_rows(struct mesh_result *r, const struct model_env *env, enum pqpan_ble_phy phy,
                       const struct pqpan_mesh_pbgatt_estimate *e, struct cli_msg *msg)
{
    int s, rc = fill_rows(r, env, phy, e->ledger, e->latency_ns, msg);
    for (s = 0; s < 2; s++) {
        r->rows[s].proxy_pdus = e->proxy_pdus[s];
    }
    r->rows[MESH_TOTAL].proxy_pdus = (unsigned long long)e->proxy_pdus[0] + e->proxy_pdus[1];
    r->setup_ms = (double)e->setup_ns * 1e-6;
    count_parts(r, PBGATT_PDU_MAX);
    return rc;
}

static int run_pbgatt(struct mesh_result *r, const struct model_env *env,
                      const struct mesh_opts *o, const struct pqpan_ble_device dev[2],
                      uint64_t cycles[2][PQPAN_OP_COUNT], struct cli_msg *msg)
{
    struct pqpan_mesh_pbgatt_estimate e; /* a local: sweep --jobs runs estimates on threads */
    struct pqpan_mesh_pbgatt_config c;
    pbgatt_config(&c, r, o);
    if (pqpan_mesh_pbgatt_estimate(&e, &c, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cycles) != PQPAN_OK) {
        return cli_msg_set(msg, EXIT_USAGE, "PB-GATT configuration out of range");
    }
    return pbgatt_rows(r, env, c.phy, &e, msg);
}

/* What both commands need before a run: the keys, each side's cycles and device. */
static int prepare(struct mesh_result *r, uint64_t cycles[2][PQPAN_OP_COUNT],
                   struct pqpan_ble_device dev[2], const struct model_env *env,
                   const struct mesh_opts *o, struct cli_msg *msg)
{
    int rc;
    memset(r, 0, sizeof *r);
    rc = mesh_keys(&r->keys, o, msg);
    if (rc == EXIT_OK) {
        rc = mesh_cycles(cycles[0], env, o, r->keys.variant, msg);
    }
    memcpy(cycles[1], cycles[0], sizeof cycles[0]);
    dev[0] = env->dev;
    dev[1] = env->dev;
    return rc;
}

int mesh_estimate(struct mesh_result *r, const struct model_env *env, const struct mesh_opts *o,
                  struct cli_msg *msg)
{
    uint64_t cycles[2][PQPAN_OP_COUNT];
    struct pqpan_ble_device dev[2];
    int rc;
    if (o->bearer == MESH_BEARER_NETWORK) {
        memset(r, 0, sizeof *r);
        return mesh_net_estimate(r, env, o, msg);
    }
    rc = prepare(r, cycles, dev, env, o, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    return o->bearer == MESH_BEARER_PB_GATT ? run_pbgatt(r, env, o, dev, cycles, msg)
                                            : run_pbadv(r, env, o, dev, cycles, msg);
}

/* Why the simulator refuses a configuration (pqpan_mesh_pbadv_simulate's errors). */
static int sim_refusal(int rc, struct cli_msg *msg)
{
    if (rc == PQPAN_ERR_CAPACITY) {
        return cli_msg_set(msg, EXIT_USAGE, "the key needs more than %u Public Key PDUs on PB-ADV",
                           (unsigned)PQPAN_MESH_PROV_PARTS_MAX);
    }
    if (rc == PQPAN_ERR_INVALID_ARG) {
        return cli_msg_set(msg, EXIT_USAGE, "the bearer's configuration is out of range");
    }
    return cli_msg_set(msg, EXIT_FAILURE_RUN, "the provisioning run failed: %s",
                       pqpan_strerror(rc));
}

/* What a simulated run agreed, into *info. */
static void sim_info(struct mesh_sim_info *info, int keys_equal, int complete, uint8_t failed_code,
                     uint32_t packets, const uint8_t device_key[PQPAN_MESH_KEY_BYTES])
{
    info->keys_equal = keys_equal;
    info->complete = complete;
    info->failed_code = failed_code;
    info->packets = packets;
    memcpy(info->device_key, device_key, sizeof info->device_key);
}

/* The PB-GATT simulator's run (pqpan_mesh_pbgatt_simulate), rows as run_pbgatt's. */
static int simulate_pbgatt(struct mesh_result *r, struct mesh_sim_info *info,
                           const struct model_env *env, const struct mesh_opts *o,
                           const struct pqpan_ble_device dev[2],
                           uint64_t cycles[2][PQPAN_OP_COUNT], struct mesh_capture *cap,
                           struct cli_msg *msg)
{
    static struct pqpan_mesh_pbgatt_sim_result res;
    struct pqpan_mesh_pbgatt_sim_config c;
    int rc;
    pqpan_mesh_pbgatt_sim_config_default(&c);
    pbgatt_config(&c.link, r, o);
    c.seed = info->seed;
    c.on_packet = cap != NULL ? mesh_capture_ll : NULL;
    c.packet_ctx = cap;
    rc = pqpan_mesh_pbgatt_simulate(&res, &c, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cycles);
    if (rc != PQPAN_OK) {
        return sim_refusal(rc, msg);
    }
    sim_info(info, res.keys_equal, res.complete, res.failed_code, res.packets,
             res.device_key[PQPAN_MESH_PROVISIONER]);
    return pbgatt_rows(r, env, c.link.phy, &res.run, msg);
}

/* One run of seed info->seed over o's bearer: its rows and what it agreed. */
static int simulate_once(struct mesh_result *r, struct mesh_sim_info *info,
                         const struct model_env *env, const struct mesh_opts *o,
                         const struct pqpan_ble_device dev[2],
                         uint64_t cycles[2][PQPAN_OP_COUNT], struct mesh_capture *cap,
                         struct cli_msg *msg)
{
    static struct pqpan_mesh_pbadv_sim_result res;
    struct pqpan_mesh_pbadv_sim_config c;
    int rc;
    if (o->bearer == MESH_BEARER_PB_GATT) {
        return simulate_pbgatt(r, info, env, o, dev, cycles, cap, msg);
    }
    pqpan_mesh_pbadv_sim_config_default(&c);
    pbadv_config(&c.link, r, o);
    c.seed = info->seed;
    c.on_packet = cap != NULL ? mesh_capture_packet : NULL;
    c.packet_ctx = cap;
    rc = pqpan_mesh_pbadv_simulate(&res, &c, dev, (const uint64_t(*)[PQPAN_OP_COUNT])cycles);
    if (rc != PQPAN_OK) {
        return sim_refusal(rc, msg);
    }
    sim_info(info, res.keys_equal, res.complete, res.failed_code, res.packets,
             res.device_key[PQPAN_MESH_PROVISIONER]);
    return pbadv_rows(r, env, &res.run, msg);
}

int mesh_lossy(const struct mesh_opts *o)
{
    if (o->bearer == MESH_BEARER_NETWORK) {
        return o->per > 0.0 || o->net.relay_collisions;
    }
    return o->bearer == MESH_BEARER_PB_ADV &&
           (o->per > 0.0 || o->scan_window_ns < o->scan_interval_ns);
}

int mesh_stats_shown(const struct mesh_opts *o, unsigned runs)
{
    return runs > 1u || mesh_lossy(o);
}

void mesh_runs_stats(struct mesh_result *r, unsigned runs, double *v, unsigned n)
{
    struct lowpan_stats lat, e;
    int s;
    if (n == 0u) { /* no run completed: no statistic (STAT fields: null, "-", empty) */
        lat.mean = lat.p50 = lat.p90 = lat.p99 = -1.0;
    } else {
        lowpan_stats_of(&lat, v + (size_t)r->n_rows * runs, n);
    }
    for (s = 0; s < r->n_rows; s++) {
        struct pqpan_run_mesh_row *row = &r->rows[s];
        e = lat;
        if (n > 0u) {
            lowpan_stats_of(&e, v + (size_t)s * runs, n);
        }
        row->runs = runs;
        row->completed = n;
        row->failed = runs - n;
        row->e_mean_uj = e.mean;
        row->e_p50_uj = e.p50;
        row->e_p90_uj = e.p90;
        row->e_p99_uj = e.p99;
        row->latency_mean_ms = lat.mean;
        row->latency_p50_ms = lat.p50;
        row->latency_p90_ms = lat.p90;
        row->latency_p99_ms = lat.p99;
    }
}

/* Runs 2 .. info->runs (seeds seed + 1 ..) after the first (r, info): each completed run's
 * energy per side and latency into v, the resent segments' mean into r's rows. */
static int more_runs(struct mesh_result *r, struct mesh_sim_info *info, double *v,
                     const struct model_env *env, const struct mesh_opts *o,
                     const struct pqpan_ble_device dev[2], uint64_t cycles[2][PQPAN_OP_COUNT],
                     struct cli_msg *msg)
{
    static struct mesh_result one;
    double resent[MESH_SIDES];
    unsigned i, n = 0;
    int s, rc = EXIT_OK;
    for (i = 0; i < info->runs && rc == EXIT_OK; i++) {
        struct mesh_sim_info each = *info;
        const struct mesh_result *x = r;
        if (i > 0u) {
            one = *r;
            each.seed = info->seed + i;
            rc = simulate_once(&one, &each, env, o, dev, cycles, NULL, msg);
            x = &one;
        }
        for (s = 0; s < MESH_SIDES; s++) {
            resent[s] = (i > 0u ? resent[s] : 0.0) + x->rows[s].resent_segments;
        }
        if (rc == EXIT_OK && each.complete) {
            for (s = 0; s < MESH_SIDES; s++) {
                v[(size_t)s * info->runs + n] = x->rows[s].e_total_uj;
            }
            v[(size_t)MESH_SIDES * info->runs + n++] = x->rows[0].latency_ms;
            info->keys_differ |= !each.keys_equal;
        }
    }
    for (s = 0; s < MESH_SIDES; s++) {
        r->rows[s].resent_segments = resent[s] / info->runs;
    }
    info->completed = n;
    return rc;
}

int mesh_simulate(struct mesh_result *r, struct mesh_sim_info *info, const struct model_env *env,
                  const struct mesh_opts *o, struct mesh_capture *cap, struct cli_msg *msg)
{
    uint64_t cycles[2][PQPAN_OP_COUNT];
    struct pqpan_ble_device dev[2];
    double *v;
    int rc;
    if (o->bearer == MESH_BEARER_NETWORK) {
        memset(r, 0, sizeof *r);
        return mesh_net_simulate(r, info, env, o, cap, msg);
    }
    rc = prepare(r, cycles, dev, env, o, msg);
    if (rc == EXIT_OK) {
        rc = simulate_once(r, info, env, o, dev, cycles, cap, msg);
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    v = malloc(((size_t)MESH_SIDES + 1u) * info->runs * sizeof *v);
    if (v == NULL) {
        return cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory for %u runs", info->runs);
    }
    rc = more_runs(r, info, v, env, o, dev, cycles, msg);
    mesh_runs_stats(r, info->runs, v, info->completed);
    free(v);
    return rc;
}
