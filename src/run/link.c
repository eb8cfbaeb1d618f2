/* The BLE link options as data and the checks of a link configuration, the run layer's
 * part (link.h); the CLI's argv walk, help and the GATT lines are cli/link_opts.c's. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "link.h"
#include "model.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

void link_opts_init(struct link_opts *o)
{
    pqpan_ble_config_default(&o->cfg);
    o->kem = pqpan_default_value(PQPAN_DEFAULT_KEM);
    link_pqke_init(&o->pqke);
    o->allow_unbuildable = 0;
}

void link_pqke_init(struct link_pqke *p)
{
    memset(p, 0, sizeof *p);
    cli_opt_table_defaults(&link_pqke_table, p);
}

/* ns as milliseconds, up to 3 decimals without trailing zeros, in buf. */
static const char *ms_text(char buf[CLI_FIXED_MAX], uint64_t ns)
{
    int n = cli_format_fixed(buf, (double)ns * 1e-6, 3);
    while (buf[n - 1] == '0') {
        buf[--n] = '\0';
    }
    if (buf[n - 1] == '.') {
        buf[n - 1] = '\0';
    }
    return buf;
}

/* The longest pair's message: what the pair holds, how long it takes, the event. */
static int pair_msg(const struct pqpan_ble_config *cfg, struct cli_msg *msg)
{
    char pair[CLI_FIXED_MAX], event[CLI_FIXED_MAX], ci[CLI_FIXED_MAX];
    const int given = cfg->event_len_ns != 0u;
    return cli_msg_set(
        msg, EXIT_USAGE,
        "a data PDU of %u LL octets on %s and the empty PDU answering it take %s ms, longer "
        "than a connection event (%s ms: %s%s%s): the link cannot carry its own payload; use "
        "a faster --phy, fewer --ll-octets, a --max-tx-time-us limit or a longer %s",
        (unsigned)pqpan_ble_config_ll_octets(cfg), pqpan_ble_phy_name(cfg->phy),
        ms_text(pair, pqpan_ble_config_pair_ns(cfg)),
        ms_text(event, pqpan_ble_config_event_ns(cfg)), given ? "--event-len-ms" : "--ci-ms ",
        given ? "" : ms_text(ci, cfg->ci_ns), given ? "" : " minus T_IFS",
        given ? "--event-len-ms" : "--ci-ms");
}

int link_opts_check(const struct pqpan_ble_config *cfg, struct cli_msg *msg)
{
    char a[CLI_FIXED_MAX], b[CLI_FIXED_MAX];
    switch (pqpan_ble_config_fault(cfg)) {
    case PQPAN_BLE_CONFIG_OK:
        return EXIT_OK;
    case PQPAN_BLE_CONFIG_RANGE:
        return cli_msg_set(msg, EXIT_USAGE, "configuration out of range (--phy 1M, 2M, S2, S8; "
                                            "--ll-octets 27..251; --ci-ms and --initial-ci-ms "
                                            "7.5..4000)");
    case PQPAN_BLE_CONFIG_CI_STEP:
        return cli_msg_set(msg, EXIT_USAGE, "--ci-ms %s: a connection interval is a multiple of "
                                            "1.25 ms in 7.5..4000 (Core v5.4 Vol 6 Part B §4.5.1)",
                           ms_text(a, cfg->ci_ns));
    case PQPAN_BLE_CONFIG_IDLE_CI_STEP:
        return cli_msg_set(msg, EXIT_USAGE, "--initial-ci-ms %s: a connection interval is a "
                                            "multiple of 1.25 ms in 7.5..4000 (Core v5.4 Vol 6 "
                                            "Part B §4.5.1)",
                           ms_text(a, cfg->idle_ci_ns));
    case PQPAN_BLE_CONFIG_EVENT_LEN:
        return cli_msg_set(msg, EXIT_USAGE, "--event-len-ms %s is longer than the connection "
                                            "interval (--ci-ms %s): an event ends before the next "
                                            "one starts",
                           ms_text(a, cfg->event_len_ns), ms_text(b, cfg->ci_ns));
    case PQPAN_BLE_CONFIG_PAIR:
        return pair_msg(cfg, msg);
    }
    return cli_msg_set(msg, EXIT_USAGE, "configuration out of range");
}

/* ---- GATT roles (Core v5.4 Vol 3 Part G §2.2) ---- */

const char *link_role_word(enum pqpan_ble_role r)
{
    return r == PQPAN_BLE_CENTRAL ? "central" : "peripheral";
}

/* The messages side r sends: the KeyGen side ek (pqpan's INIT and FIN), the other ct
 * (RESP, and numeric's REVEAL). */
static const char *messages_of(const struct pqpan_ble_config *cfg, enum pqpan_ble_role r)
{
    int keygen = r == cfg->keygen_side;
    if (cfg->protocol != PQPAN_BLE_PROTO_PQPAN) {
        return keygen ? "ek" : "ct";
    }
    if (keygen) {
        return "INIT and FIN";
    }
    return cfg->pqke_mode == PQPAN_PQKE_MODE_NUMERIC ? "RESP and REVEAL" : "RESP";
}

/* A procedure as a noun and the clause that gives it to its role. */
static const char *procedure_noun(enum pqpan_ble_transfer t)
{
    static const char *const nouns[PQPAN_BLE_TRANSFER_COUNT] = {
        "notifications (§4.10)", "indications (§4.11)", "Write Requests (§4.9.3)",
        "Write Commands (§4.9.1)", "long writes (§4.9.4)", "the study's preset"};
    return nouns[t];
}

/* ... and as what a side does. */
static const char *procedure_verb(enum pqpan_ble_transfer t)
{
    static const char *const verbs[PQPAN_BLE_TRANSFER_COUNT] = {
        "notifies", "indicates", "writes (Write Requests)", "writes (Write Commands)",
        "writes (long writes)", "sends by the study's preset"};
    return verbs[t];
}

/* Why cfg's PQKE cannot be built, into msg ("the central, the GATT client, would send ek
 * by notifications ..."): EXIT_OK with msg untouched when it can (or for kem
 * MODEL_LESC_NAME, whose pairing is SMP), else EXIT_USAGE. */
int link_gatt_reason(const struct pqpan_ble_config *cfg, const char *kem, struct cli_msg *msg)
{
    enum pqpan_ble_role r = cfg->keygen_side;
    enum pqpan_ble_gatt_fault f;
    int server;
    if (strcmp(kem, MODEL_LESC_NAME) == 0) {
        return EXIT_OK;
    }
    f = pqpan_ble_config_gatt_fault(cfg, &r);
    if (f == PQPAN_BLE_GATT_OK) {
        return EXIT_OK;
    }
    server = f == PQPAN_BLE_GATT_SERVER_WRITES;
    return cli_msg_set(msg, EXIT_USAGE,
                       "the %s, the GATT %s, would send %s by %s, which only a GATT %s sends "
                       "(Core v5.4 Vol 3 Part G §2.2)",
                       link_role_word(r), server ? "server" : "client", messages_of(cfg, r),
                       procedure_noun(pqpan_ble_config_procedure(cfg, r)),
                       server ? "client" : "server");
}

int link_gatt_check(const struct pqpan_ble_config *cfg, const char *kem, struct cli_msg *msg)
{
    struct cli_msg why;
    if (link_gatt_reason(cfg, kem, &why) == EXIT_OK) {
        return EXIT_OK;
    }
    return cli_msg_set(msg, EXIT_USAGE,
                       "unbuildable: %s; use --transfer SERVER/CLIENT (server: notify, "
                       "indicate; client: write-req, write-cmd, long-write), --gatt-server, or "
                       "--allow-unbuildable to price it anyway",
                       why.text);
}

void link_gatt_words(char *buf, size_t len, const struct pqpan_ble_config *cfg)
{
    enum pqpan_ble_role k = cfg->keygen_side;
    enum pqpan_ble_role o = k == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL : PQPAN_BLE_CENTRAL;
    snprintf(buf, len, "%s: %s %s; %s: %s %s", messages_of(cfg, k), link_role_word(k), procedure_verb(pqpan_ble_config_procedure(cfg, k)),
             messages_of(cfg, o), link_role_word(o), procedure_verb(pqpan_ble_config_procedure(cfg, o)));
}

/* ---- the tables ---- */

/* --hybrid words (none = 0), --keygen-side words (enum pqpan_ble_role order: central = 0),
 * --reply words, and the words of --features, --conn-update, --discovery (off = 0). */
static const char *const hybrid_words[] = {"none", "p256", NULL};
static const char *const role_words[] = {"central", "peripheral", NULL};
static const char *const reply_words[] = {"next-event", "same-event", NULL};
static const char *const switch_words[] = {"off", "on", NULL};
static const char *const ble_words[] = {"ble", NULL};

_Static_assert(sizeof(enum pqpan_ble_phy) == sizeof(int), "--phy is stored as an int");
_Static_assert(sizeof(enum pqpan_ble_role) == sizeof(int),
               "--keygen-side and --gatt-server are stored as an int");

static void auth_words(cli_word_fn add, void *ctx)
{
    unsigned k;
    for (k = 1; pqpan_pqke_mode_name(k) != NULL; k++) {
        add(ctx, pqpan_pqke_mode_name(k));
    }
}

static void sig_words(cli_word_fn add, void *ctx)
{
    size_t k;
    for (k = 0; pqpan_sig_at(k) != NULL; k++) {
        add(ctx, pqpan_sig_at(k)->name);
    }
}

int link_set_conn_interval(void *field, const char *v)
{
    return cli_parse_conn_interval(v, field);
}

void link_phy_words(cli_word_fn add, void *ctx)
{
    int k;
    for (k = 0; k < PQPAN_BLE_PHY_COUNT; k++) {
        add(ctx, pqpan_ble_phy_name((enum pqpan_ble_phy)k));
    }
}

/* The named (server, client) pairs of pqpan_ble_transfer_choice. */
static void transfer_words(cli_word_fn add, void *ctx)
{
    unsigned k;
    for (k = 0; k < PQPAN_BLE_TRANSFER_CHOICES; k++) {
        add(ctx, pqpan_ble_transfer_choice(k, NULL, NULL));
    }
}

/* --transfer: the server's and the client's methods (field: the struct pqpan_ble_config;
 * the word checked before, in any case as every option word). */
static int set_transfer(void *field, const char *v)
{
    struct pqpan_ble_config *cfg = field;
    unsigned k;
    const char *name;
    for (k = 0; (name = pqpan_ble_transfer_choice(k, NULL, NULL)) != NULL; k++) {
        if (strcasecmp(v, name) == 0) {
            (void)pqpan_ble_transfer_choice(k, &cfg->server_transfer, &cfg->client_transfer);
            return 0;
        }
    }
    return -1;
}

/* The ML-KEM sets and the LESC baseline. */
static void kem_words(cli_word_fn add, void *ctx)
{
    model_kem_names(add, ctx);
    add(ctx, MODEL_LESC_NAME);
}

/* --auth: the mode's number (enum pqpan_pqke_mode), words checked before. */
static int set_auth(void *field, const char *v)
{
    unsigned mode = pqpan_pqke_mode_by_name(v);
    memcpy(field, &mode, sizeof mode);
    return 0;
}

/* --sig: the set's enum pqpan_sig_id. */
static int set_sig(void *field, const char *v)
{
    unsigned id = (unsigned)pqpan_sig_by_name(v)->id;
    memcpy(field, &id, sizeof id);
    return 0;
}

/* --adv-interval-ms: 0 (no advertising) or an advInterval of Vol 6 Part B §4.4.2.2
 * (range checked before). */
static int set_adv(void *field, const char *v)
{
    double ms;
    uint64_t ns;
    if (cli_parse_double(v, 0.0, 1e9, &ms) != 0) {
        return -1;
    }
    ns = (uint64_t)(ms * 1e6 + 0.5);
    if (ns != 0u && (ns < PQPAN_BLE_ADV_INTERVAL_MIN_NS || ns % PQPAN_BLE_ADV_INTERVAL_STEP_NS != 0u)) {
        return -1;
    }
    memcpy(field, &ns, sizeof ns);
    return 0;
}

static const struct cli_opt pqke_rows[] = {
    {.name = "--auth", .kind = CLI_OPT_WORD, .meta = "MODE", .words_fn = auth_words,
     .def = PQPAN_DEFAULT_AUTH, .set = set_auth, .offset = offsetof(struct link_pqke, mode),
     .help = "pqpan protocol's authentication (docs/PROTOCOL.md): none is not authenticated; "
             "kem-auth and sig authenticate the responder, the -mutual modes both sides; "
             "numeric compares a value as LE Secure Connections does. Message sizes and the "
             "extra ML-KEM, ML-DSA operations and hashing follow the mode"},
    {.name = "--sig", .kind = CLI_OPT_WORD, .words_fn = sig_words, .set = set_sig,
     .offset = offsetof(struct link_pqke, sig),
     .def = PQPAN_DEFAULT_SIG,
     .help = "sig modes: the ML-DSA set"},
    {.name = "--hybrid", .kind = CLI_OPT_WORD, .words = hybrid_words, .def = PQPAN_DEFAULT_HYBRID,
     .store = CLI_STORE_INT, .offset = offsetof(struct link_pqke, hybrid),
     .help = "P-256 ECDH combined with ML-KEM (the hybrid suite; P-256 cycles from the "
             "classical table)"},
};

static void pqke_init(void *p)
{
    link_pqke_init(p);
}

const struct cli_opt_table link_pqke_table =
    CLI_OPT_TABLE("pqke", "pqpan protocol variant (estimate: with --protocol pqpan)", pqke_rows,
                  struct link_pqke, pqke_init);

#define CFG(m) offsetof(struct link_opts, cfg.m)

static const struct cli_opt link_rows[] = {
    {.name = "--link", .kind = CLI_OPT_WORD, .meta = "ble|802154", .words = ble_words,
     .allowed = "ble or 802154", .def = PQPAN_DEFAULT_LINK,
     .help = "the link: BLE, or 6LoWPAN over IEEE 802.15.4 with options of its own"},
    {.name = "--kem", .kind = CLI_OPT_WORD, .meta = "NAME", .words_fn = kem_words,
     .def = PQPAN_DEFAULT_KEM, .store = CLI_STORE_STR, .offset = offsetof(struct link_opts, kem),
     .help = "the ML-KEM parameter set, or " MODEL_LESC_NAME " for the LE Secure Connections "
             "pairing baseline"},
    {.name = "--phy", .kind = CLI_OPT_WORD, .words_fn = link_phy_words, .def = PQPAN_DEFAULT_PHY,
     .store = CLI_STORE_INT, .offset = CFG(phy), .help = "LE PHY; S2/S8 = LE Coded"},
    {.name = "--att-mtu", .kind = CLI_OPT_UINT, .meta = "N", .unit = "octets",
     .min = PQPAN_ATT_DEFAULT_MTU, .max = PQPAN_ATT_MAX_MTU, .def = PQPAN_DEFAULT_ATT_MTU,
     .store = CLI_STORE_U32, .offset = CFG(att_mtu), .help = "ATT_MTU after the MTU exchange"},
    {.name = "--ll-octets", .kind = CLI_OPT_UINT, .meta = "N", .unit = "octets",
     .min = PQPAN_LL_DATA_MIN_PAYLOAD, .max = PQPAN_LL_DATA_MAX_PAYLOAD,
     .def = PQPAN_DEFAULT_LL_OCTETS,
     .store = CLI_STORE_U32, .offset = CFG(ll_octets),
     .help = "LL data payload octets; > 27 = DLE"},
    /* the MaxTxTime range of LL_LENGTH_REQ: Core v5.4 Vol 6 Part B §2.4.2.21 */
    {.name = "--max-tx-time-us", .kind = CLI_OPT_UINT, .meta = "N", .unit = "us", .min = 328,
     .max = 17040, .def = PQPAN_DEFAULT_MAX_TX_TIME_US, .store = CLI_STORE_U32,
     .offset = CFG(max_tx_time_us),
     .help = "connMaxTxTime limit"},
    {.name = "--transfer", .kind = CLI_OPT_WORD, .meta = "METHOD", .words_fn = transfer_words,
     .def = PQPAN_DEFAULT_TRANSFER, .set = set_transfer, .offset = offsetof(struct link_opts, cfg),
     .help = "how the messages travel over GATT, where only the server notifies or indicates "
             "and only the client writes (Core v5.4 Vol 3 Part G §2.2): SERVER/CLIENT, the "
             "server's notify or indicate and the client's write-req (Write Requests), "
             "write-cmd (Write Commands) or long-write (Prepare/Execute Write); study: the "
             "study's preset, ek as <= 400 B indications, ct as Write Requests of one "
             "frame-number byte + <= 392 B (needs ATT_MTU >= 403 and KeyGen on the server); "
             "one method alone sends every message with it, which GATT cannot build (refused "
             "unless --allow-unbuildable)"},
    {.name = "--gatt-server", .kind = CLI_OPT_WORD, .words = role_words,
     .def = PQPAN_DEFAULT_GATT_SERVER,
     .store = CLI_STORE_INT, .offset = CFG(gatt_server),
     .help = "the side holding the key-exchange service, the GATT server (the study's: the "
             "peripheral); the other side is the client, which exchanges the ATT_MTU, runs the "
             "discovery and writes"},
    /* connInterval: Core v5.4 Vol 6 Part B §4.5.1 (7.5 ms .. 4 s, steps of 1.25 ms) */
    {.name = "--ci-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 7.5,
     .max = 4000, .allowed = "7.5..4000 ms in steps of 1.25", .def = PQPAN_DEFAULT_CI_MS,
     .store = CLI_STORE_MS_NS, .offset = CFG(ci_ns), .help = "connection interval"},
    {.name = "--event-len-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0,
     .max = 4000, .def = PQPAN_DEFAULT_EVENT_LEN_MS, .store = CLI_STORE_MS_NS,
     .offset = CFG(event_len_ns),
     .help = "longest connection event, at most the interval; a data PDU of the LL size and "
             "the empty PDU answering it must fit in one (estimate and simulate refuse other "
             "links)"},
    {.name = "--max-pdus-per-event", .kind = CLI_OPT_UINT, .meta = "N", .min = 0, .max = 1000000,
     .def = PQPAN_DEFAULT_MAX_PDUS_PER_EVENT, .store = CLI_STORE_U32, .offset = CFG(max_pairs),
     .help = "most PDU pairs per event, 0 = no cap"},
    {.name = "--reply", .kind = CLI_OPT_WORD, .words = reply_words, .def = PQPAN_DEFAULT_REPLY,
     .store = CLI_STORE_INT, .offset = CFG(same_event_reply),
     .help = "when an ATT/SMP reply can be sent: in the event after the request or in the same "
             "one (fast host)"},
    {.name = "--keygen-side", .kind = CLI_OPT_WORD, .words = role_words,
     .def = PQPAN_DEFAULT_KEYGEN_SIDE,
     .store = CLI_STORE_INT, .offset = CFG(keygen_side), .help = "who runs KeyGen and Decaps"},
    {.name = "--encrypted", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT, .offset = CFG(encrypted),
     .help = "the link is already encrypted (4-octet MIC on data PDUs)"},
    {.name = "--allow-unbuildable", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT,
     .offset = offsetof(struct link_opts, allow_unbuildable),
     .help = "price a --transfer that GATT cannot build (a side sending what its GATT role "
             "does not send) instead of refusing it; the output says so"},
};

static void link_init(void *o)
{
    link_opts_init(o);
}

const struct cli_opt_table link_opts_table =
    CLI_OPT_TABLE("ble-link", "link options", link_rows, struct link_opts, link_init);

static const struct cli_opt setup_rows[] = {
    /* advInterval: Core v5.4 Vol 6 Part B §4.4.2.2 (20 ms .. 10485.759375 s, 0.625 ms) */
    {.name = "--adv-interval-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0,
     .max = (double)PQPAN_BLE_ADV_INTERVAL_MAX_NS * 1e-6, .def = PQPAN_DEFAULT_ADV_INTERVAL_MS,
     .set = set_adv,
     .allowed = "0, or 20..10485759.375 ms in steps of 0.625", .offset = CFG(adv_interval_ns),
     .help = "connectable advertising until connected, or 0 for none; the central scans "
             "continuously and t_advertise_ms is the expected time to connect (docs/MODEL.md "
             "\"Advertising\")"},
    {.name = "--features", .kind = CLI_OPT_WORD, .words = switch_words,
     .def = PQPAN_DEFAULT_FEATURES,
     .store = CLI_STORE_INT, .offset = CFG(features),
     .help = "LL feature exchange and version exchange"},
    {.name = "--conn-update", .kind = CLI_OPT_WORD, .words = switch_words,
     .def = PQPAN_DEFAULT_CONN_UPDATE,
     .store = CLI_STORE_INT, .offset = CFG(conn_update),
     .help = "open the connection at --initial-ci-ms and update it to --ci-ms (connection "
             "parameters request)"},
    {.name = "--initial-ci-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 7.5,
     .max = 4000, .allowed = "7.5..4000 ms in steps of 1.25", .def = PQPAN_DEFAULT_INITIAL_CI_MS,
     .store = CLI_STORE_MS_NS, .offset = CFG(idle_ci_ns),
     .help = "the connection's interval before the update, TGAP(initial_conn_interval) (not "
             "the idle link's --idle-ci-ms of idle and advise)"},
    {.name = "--discovery", .kind = CLI_OPT_WORD, .words = switch_words,
     .def = PQPAN_DEFAULT_DISCOVERY,
     .store = CLI_STORE_INT, .offset = CFG(discovery),
     .help = "GATT discovery of the key-exchange service and the CCCD write enabling "
             "indications, by the central"},
};

const struct cli_opt_table link_setup_table =
    CLI_OPT_TABLE("ble-setup",
                  "set-up before the exchange (events accounting only; the bits accounting is "
                  "the exchange's)",
                  setup_rows, struct link_opts, link_init);

int link_pqke_choices(const char *opt, cli_word_fn add, void *ctx)
{
    return cli_opt_table_words(&link_pqke_table, opt, add, ctx);
}

int link_opts_choices(const char *opt, cli_word_fn add, void *ctx)
{
    return link_pqke_choices(opt, add, ctx) ||
           (strcmp(opt, "--link") != 0 && cli_opt_table_words(&link_opts_table, opt, add, ctx)) ||
           cli_opt_table_words(&link_setup_table, opt, add, ctx);
}
