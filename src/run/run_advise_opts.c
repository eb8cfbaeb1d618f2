/* pqpan advise: options and their value parsers (see advise.h). */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "run_advise.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

int advise_parse_duration(const char *text, double *seconds)
{
    static const char units[] = "smhd";
    static const double unit_s[] = {1.0, 60.0, 3600.0, 86400.0};
    char num[32];
    size_t len = strlen(text);
    const char *u;
    double v;
    if (len < 2 || len >= sizeof num) {
        return -1;
    }
    u = strchr(units, text[len - 1]);
    if (u == NULL || *u == '\0') {
        return -1;
    }
    memcpy(num, text, len - 1);
    num[len - 1] = '\0';
    if (cli_parse_double(num, 0.0, 1e9, &v) != 0) {
        return -1;
    }
    v *= unit_s[u - units];
    if (v < 1.0 || v > 3650.0 * 86400.0) {
        return -1;
    }
    *seconds = v;
    return 0;
}

/* One item of --auth, in any case: a mode's name, or mutual / all. */
static int auth_item(unsigned *mask, const char *item)
{
    unsigned mode;
    for (mode = PQPAN_PQKE_MODE_NONE; mode <= PQPAN_PQKE_MODE_NUMERIC; mode++) {
        if (cli_word_equal(item, pqpan_pqke_mode_name(mode))) {
            *mask |= PQPAN_PQKE_MODE_BIT(mode);
            return 0;
        }
    }
    if (cli_word_equal(item, "mutual")) {
        *mask |= ADV_AUTH_MUTUAL;
    } else if (cli_word_equal(item, "all")) {
        *mask |= PQPAN_PQKE_MODES_ALL;
    } else {
        return -1;
    }
    return 0;
}

/* One item of --hybrid, in any case: none, p256. */
static int hybrid_item(unsigned *mask, const char *item)
{
    if (cli_word_equal(item, "none")) {
        *mask |= ADV_HYBRID_NONE;
    } else if (cli_word_equal(item, "p256")) {
        *mask |= ADV_HYBRID_P256;
    } else {
        return -1;
    }
    return 0;
}

/* A comma-separated list, each item into *mask by item(); -1 on an empty list, an empty
 * item or one item() refuses. */
static int parse_list(const char *text, unsigned *mask, int (*item)(unsigned *, const char *))
{
    char buf[32];
    const char *p = text;
    unsigned m = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        if (n == 0 || n >= sizeof buf) {
            return -1;
        }
        memcpy(buf, p, n);
        buf[n] = '\0';
        if (item(&m, buf) != 0) {
            return -1;
        }
        if (comma == NULL) {
            break;
        }
        p = comma + 1;
    }
    *mask = m;
    return 0;
}

/* The PHY named name in any case (enum pqpan_ble_phy), or -1. */
static int phy_of(const char *name)
{
    int k;
    for (k = 0; k < PQPAN_BLE_PHY_COUNT; k++) {
        if (cli_word_equal(name, pqpan_ble_phy_name((enum pqpan_ble_phy)k))) {
            return k;
        }
    }
    return -1;
}

int advise_parse_phys(const char *text, unsigned *mask)
{
    char item[8];
    const char *p = text;
    unsigned m = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        int phy;
        if (n == 0 || n >= sizeof item) {
            return -1;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        phy = phy_of(item);
        if (phy < 0) {
            return -1;
        }
        m |= 1u << phy;
        if (comma == NULL) {
            break;
        }
        p = comma + 1;
    }
    *mask = m;
    return 0;
}

/* --battery-side words, in enum adv_battery order. */
static const char *const battery_words[] = {"peripheral", "central", "both", NULL};
/* --protocol words, in enum pqpan_ble_protocol order. */
static const char *const protocol_words[] = {"study", "pqpan", NULL};
/* --link words: the ADV_LINK_* bits of word k are k + 1. */
static const char *const link_words[] = {"ble", "802154", "both", NULL};
/* --min-level words: NIST categories of ML-KEM-512/768/1024 (FIPS 203 Table 2). */
static const char *const level_words[] = {"1", "3", "5", NULL};
/* --format words: advise prints no CSV. */
static const char *const format_words[] = {"table", "json", NULL};
/* --sed-idle words (sleep = 0, listen = 1, as estimate --link 802154's --idle; auto: sleep at
 * one hop, listen across a chain, resolved by advise_opts_check). */
static const char *const sed_idle_words[] = {"sleep", "listen", "auto", NULL};
#define SED_IDLE_AUTO 2

_Static_assert(sizeof(enum adv_battery) == sizeof(int), "--battery-side is stored as an int");
_Static_assert(sizeof(enum pqpan_ble_protocol) == sizeof(int), "--protocol is stored as an int");

static void defaults(void *p);

/* --min-level: the category (words checked before). */
static int set_level(void *field, const char *v)
{
    unsigned level = (unsigned)(v[0] - '0');
    memcpy(field, &level, sizeof level);
    return 0;
}

/* --rekey-every: seconds and the text as given (field: the struct advise_opts). */
static int set_rekey(void *field, const char *v)
{
    struct advise_opts *o = field;
    if (strlen(v) >= sizeof o->rekey_text || advise_parse_duration(v, &o->rekey_s) != 0) {
        return -1;
    }
    strcpy(o->rekey_text, v);
    return 0;
}

/* --link: the ADV_LINK_* bits. */
static int set_links(void *field, const char *v)
{
    unsigned links = (unsigned)cli_word_index(link_words, v) + 1u;
    memcpy(field, &links, sizeof links);
    return 0;
}

static int set_top(void *field, const char *v)
{
    unsigned long long u;
    size_t top;
    cli_parse_uint(v, 1, PQPAN_ADVISE_TOP_MAX, &u); /* checked before */
    top = (size_t)u;
    memcpy(field, &top, sizeof top);
    return 0;
}

static int set_phys(void *field, const char *v)
{
    return advise_parse_phys(v, field);
}

static int set_auth(void *field, const char *v)
{
    return parse_list(v, field, auth_item);
}

static int set_hybrid(void *field, const char *v)
{
    return parse_list(v, field, hybrid_item);
}

/* --sig, in any case: the set's enum pqpan_sig_id. */
static int set_sig(void *field, const char *v)
{
    const struct pqpan_sig *ds;
    unsigned id;
    size_t i;
    for (i = 0; (ds = pqpan_sig_at(i)) != NULL; i++) {
        if (cli_word_equal(v, ds->name)) {
            id = (unsigned)ds->id;
            memcpy(field, &id, sizeof id);
            return 0;
        }
    }
    return -1;
}

/* --format: table or json into enum cli_format. */
static int set_format(void *field, const char *v)
{
    enum cli_format f = strcmp(v, "json") == 0 ? FORMAT_JSON : FORMAT_TABLE;
    memcpy(field, &f, sizeof f);
    return 0;
}

#define ADV(m) offsetof(struct advise_opts, m)
#define ADV_TABLE(id, title, rows) CLI_OPT_TABLE(id, title, rows, struct advise_opts, defaults)

static const struct cli_opt device_rows[] = {
    {.name = "--peer-profile", .kind = CLI_OPT_TEXT, .meta = "NAME|FILE",
     .def = PQPAN_DEFAULT_PEER_PROFILE, .store = CLI_STORE_STR, .offset = ADV(peer_profile),
     .help = "the other side: its currents price its energy; the link timeline uses "
             "--profile's event timing for both sides, as estimate takes one device (--profile "
             "is the battery-powered device)"},
    {.name = "--battery-side", .kind = CLI_OPT_WORD, .words = battery_words,
     .def = PQPAN_DEFAULT_BATTERY_SIDE,
     .store = CLI_STORE_INT, .offset = ADV(battery),
     .help = "which side runs on the battery (both: --profile is the peripheral)"},
    {.name = "--battery-mah", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "mAh", .min = 0.001,
     .max = 1e7, .def = PQPAN_DEFAULT_BATTERY_MAH, .store = CLI_STORE_DOUBLE,
     .offset = ADV(battery_mah),
     .help = "battery capacity (default: " ADV_CR2032_SOURCE ")"},
    {.name = "--app-ua", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "uA", .min = 0,
     .max = 1e6, .def = PQPAN_DEFAULT_APP_UA, .store = CLI_STORE_DOUBLE, .offset = ADV(app_ua),
     .help = "the application's own average current (sensing, processing, other radio "
             "traffic), drawn besides the idle link; 0 leaves it out of the battery life, and the "
             "output says so"},
    {.name = "--self-discharge-pct-year", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "%/year",
     .min = 0, .max = 100, .def = PQPAN_DEFAULT_SELF_DISCHARGE_PCT_YEAR, .store = CLI_STORE_DOUBLE,
     .offset = ADV(self_discharge_pct),
     .help = "the cell's self-discharge, percent of its capacity per year, taken as a constant "
             "drain (from the cell's datasheet); 0 leaves it out"},
    {.name = "--battery-derate", .kind = CLI_OPT_NUMBER, .meta = "X", .min = 0.01, .max = 1,
     .def = PQPAN_DEFAULT_BATTERY_DERATE, .store = CLI_STORE_DOUBLE, .offset = ADV(derate),
     .help = "the fraction of the capacity the device can draw at its load (a coin cell gives "
             "less under pulse currents: see its datasheet at the exchange's peak current, "
             "which advise prints); 1 leaves derating out"},
    {.name = "--rekey-every", .kind = CLI_OPT_TEXT, .meta = "DURATION", .set = set_rekey,
     .def = PQPAN_DEFAULT_REKEY_EVERY,
     .allowed = "a duration such as 30s, 15m, 1h, 1d, 7d (1 s .. 3650 d)",
     .help = "one key exchange every DURATION: a number and s, m, h or d"},
    {.name = "--link", .kind = CLI_OPT_WORD, .words = link_words, .def = PQPAN_DEFAULT_LINK,
     .set = set_links,
     .offset = ADV(links),
     .help = "the link(s) searched. 802.15.4: the device is a sleepy end device polling its "
             "parent (a Thread SED), the exchange pqpan's INIT/RESP/FIN over 6LoWPAN as estimate "
             "--link 802154 (the device is --profile; --battery-side both and --protocol study "
             "are for BLE only), one hop from its peer or --hops H across a chain"},
    {.name = "--sed-idle", .kind = CLI_OPT_WORD, .words = sed_idle_words,
     .def = PQPAN_DEFAULT_SED_IDLE,
     .store = CLI_STORE_INT, .offset = ADV(lowpan.idle),
     .help = "802.15.4: the radio when the device neither sends, receives nor computes, as "
             "estimate --link 802154's --idle; auto: sleep at one hop (a sleepy device's radio "
             "is off between frames), listen with --hops > 1 (the chain model's nodes listen "
             "during an exchange)"},
    {.name = "--poll-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0.001,
     .max = 86400000, .def = PQPAN_DEFAULT_POLL_MS, .store = CLI_STORE_DOUBLE,
     .offset = ADV(poll_ms),
     .help = "802.15.4: the device's poll period between exchanges, priced as `pqpan idle "
             "--link 802154`"},
};

static const struct cli_opt constraint_rows[] = {
    {.name = "--min-level", .kind = CLI_OPT_WORD, .words = level_words,
     .def = PQPAN_DEFAULT_MIN_LEVEL,
     .set = set_level, .offset = ADV(min_level),
     .help = "lowest NIST security category: 1 ML-KEM-512, 3 ML-KEM-768, 5 ML-KEM-1024 (FIPS "
             "203 Table 2)"},
    {.name = "--max-latency-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 0.001,
     .max = 1e9, .def = PQPAN_DEFAULT_MAX_LATENCY_MS, .store = CLI_STORE_DOUBLE,
     .offset = ADV(max_latency_ms),
     .help = "longest exchange, first computation to last"},
    {.name = "--protocol", .kind = CLI_OPT_WORD, .words = protocol_words,
     .def = PQPAN_DEFAULT_PROTOCOL,
     .store = CLI_STORE_INT, .offset = ADV(protocol),
     .help = "the messages: the study's raw ek/ct (no authentication: needs --auth none), or "
             "pqpan's INIT/RESP/FIN with key schedule and confirmation"},
    {.name = "--auth", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = set_auth,
     .offset = ADV(auth_modes), .def = PQPAN_DEFAULT_ADVISE_AUTH,
     .allowed = "a comma-separated list of none, psk, kem-auth, kem-auth-mutual, sig, "
                "sig-mutual, numeric, mutual (= psk,kem-auth-mutual,sig-mutual), all",
     .help = "the PQKE modes allowed (docs/PROTOCOL.md §5); the search ranks across them. "
             "The default authenticates both devices with keys each can hold: a pre-shared key "
             "(psk), pinned static ML-KEM keys (kem-auth-mutual) or pinned ML-DSA keys "
             "(sig-mutual). numeric needs a display and a user on both devices; none lets a man "
             "in the middle hold both keys"},
    {.name = "--hybrid", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = set_hybrid,
     .offset = ADV(hybrids), .def = PQPAN_DEFAULT_ADVISE_HYBRID,
     .allowed = "a comma-separated list of none, p256",
     .help = "ML-KEM alone (none) and/or combined with P-256 ECDH (p256: secure while either "
             "holds; adds secrecy, not authentication)"},
    {.name = "--sig", .kind = CLI_OPT_TEXT, .meta = "SET", .set = set_sig, .offset = ADV(sig),
     .allowed = "ML-DSA-44, ML-DSA-65, ML-DSA-87", .def = PQPAN_DEFAULT_SIG,
     .help = "sig modes: the ML-DSA set of the pinned keys"},
};

static const struct cli_opt idle_rows[] = {
    {.name = "--idle-phy", .kind = CLI_OPT_WORD, .words_fn = link_phy_words,
     .def = PQPAN_DEFAULT_IDLE_PHY,
     .store = CLI_STORE_INT, .offset = ADV(idle.phy), .help = "its PHY"},
    {.name = "--idle-ci-ms", .kind = CLI_OPT_NUMBER, .meta = "X", .unit = "ms", .min = 7.5,
     .max = 4000, .allowed = "7.5..4000 ms in steps of 1.25, Core v5.4 Vol 6 Part B §4.5.1",
     .def = PQPAN_DEFAULT_IDLE_CI_MS, .set = link_set_conn_interval, .offset = ADV(idle.ci_ns),
     .help = "its connection interval"},
    {.name = "--idle-latency", .kind = CLI_OPT_UINT, .meta = "N", .min = 0,
     .max = PQPAN_BLE_LATENCY_MAX, .def = PQPAN_DEFAULT_IDLE_LATENCY, .store = CLI_STORE_U32,
     .offset = ADV(idle.latency),
     .help = "its peripheral latency"},
    {.name = "--idle-ll-octets", .kind = CLI_OPT_UINT, .meta = "N", .unit = "octets",
     .min = PQPAN_LL_DATA_MIN_PAYLOAD, .max = PQPAN_LL_DATA_MAX_PAYLOAD,
     .def = PQPAN_DEFAULT_IDLE_LL_OCTETS,
     .store = CLI_STORE_U32, .offset = ADV(idle_ll_octets),
     .help = "its LL payload size (27: no DLE)"},
};

static const struct cli_opt peer_rows[] = {
    {.name = "--peer-phys", .kind = CLI_OPT_TEXT, .meta = "LIST", .set = set_phys,
     .offset = ADV(peer_phys), .def = PQPAN_DEFAULT_PEER_PHYS,
     .allowed = "a comma-separated list of 1M, 2M, S2, S8", .help = "the PHYs the peer supports"},
    {.name = "--peer-max-ll-octets", .kind = CLI_OPT_UINT, .meta = "N", .unit = "octets",
     .min = PQPAN_LL_DATA_MIN_PAYLOAD, .max = PQPAN_LL_DATA_MAX_PAYLOAD,
     .def = PQPAN_DEFAULT_PEER_MAX_LL_OCTETS,
     .store = CLI_STORE_U32, .offset = ADV(peer_max_ll), .help = "largest LL payload"},
    {.name = "--peer-max-mtu", .kind = CLI_OPT_UINT, .meta = "N", .unit = "octets",
     .min = PQPAN_ATT_DEFAULT_MTU, .max = PQPAN_ATT_MAX_MTU, .def = PQPAN_DEFAULT_PEER_MAX_MTU,
     .store = CLI_STORE_U32, .offset = ADV(peer_max_mtu), .help = "largest ATT_MTU"},
};

static const struct cli_opt output_rows[] = {
    {.name = "--brief", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT, .offset = ADV(brief),
     .help = "print the answer block only (table output)"},
    {.name = "--top", .kind = CLI_OPT_UINT, .meta = "N", .min = 1, .max = PQPAN_ADVISE_TOP_MAX,
     .def = PQPAN_DEFAULT_TOP, .set = set_top, .offset = ADV(top),
     .help = "how many configurations to list"},
    {.name = "--format", .kind = CLI_OPT_WORD, .words = format_words, .def = PQPAN_DEFAULT_FORMAT,
     .set = set_format, .offset = ADV(m.format), .help = "output format"},
    {.name = "--out", .kind = CLI_OPT_TEXT, .meta = "DIR", .store = CLI_STORE_STR,
     .def = PQPAN_DEFAULT_OUT,
     .offset = ADV(out_dir),
     .help = "also write gnuplot figures: energy against latency with the Pareto front "
             "(advise_pareto.svg/.png, data in advise_points.dat, advise_front.dat) and, over "
             "BLE, energy against LL payload size per ML-KEM level (advise_ll.svg/.png, data in "
             "advise_ll.dat)"},
};

const struct cli_opt_table advise_device_table =
    ADV_TABLE("advise-device", "the device and its battery", device_rows);
const struct cli_opt_table advise_constraint_table =
    ADV_TABLE("advise-constraints", "constraints", constraint_rows);
const struct cli_opt_table advise_idle_table = ADV_TABLE("advise-idle", "the idle link", idle_rows);
const struct cli_opt_table advise_peer_table =
    ADV_TABLE("advise-peer", "what the peer supports", peer_rows);
const struct cli_opt_table advise_output_table = ADV_TABLE("advise-output", "output", output_rows);

static const struct cli_opt_table *const own_tables[] = {
    &advise_device_table, &advise_constraint_table, &advise_idle_table, &advise_peer_table,
    &advise_output_table,
};
#define N_OWN_TABLES (sizeof own_tables / sizeof own_tables[0])

/* advise's defaults: the energy and 802.15.4 options', then those of its own tables. */
void advise_opts_defaults(struct advise_opts *o)
{
    size_t k;
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    lowpan_opts_init(&o->lowpan);
    for (k = 0; k < N_OWN_TABLES; k++) {
        cli_opt_table_defaults(own_tables[k], o);
    }
}

static void defaults(void *p)
{
    advise_opts_defaults(p);
}

/* Of the 802.15.4 tables advise takes all but --link, --idle (--sed-idle is its own), --addr and
 * --kem (both searched), and the chain's --hops and --forwarding; of the γ options --calibration and --gamma-comp (the events
 * accounting it ranks by has no γ_comm). */
const char *const advise_lowpan_link[] = {"--csma", "--backoff", "--mac-security",
                                          "--key-id-mode", NULL};
const char *const advise_gamma[] = {"--calibration", "--gamma-comp", NULL};
const char *const advise_lowpan_exchange[] = {"--ipv6-frag", NULL};

const struct advise_table advise_tables[] = {
    {&model_energy_table, NULL, ADV_INTO_MODEL, "the device and its battery"},
    {&advise_device_table, NULL, ADV_INTO_SELF, NULL},
    {&lowpan_busy_table, NULL, ADV_INTO_LOWPAN, NULL},
    {&lowpan_opts_table, advise_lowpan_link, ADV_INTO_LOWPAN, NULL},
    {&lowpan_exchange_table, advise_lowpan_exchange, ADV_INTO_LOWPAN, NULL},
    {&lowpan_chain_table, NULL, ADV_INTO_LOWPAN, NULL},
    {&advise_constraint_table, NULL, ADV_INTO_SELF, "constraints"},
    {&advise_idle_table, NULL, ADV_INTO_SELF,
     "the idle link the device runs between exchanges (priced as `pqpan idle`)"},
    {&advise_peer_table, NULL, ADV_INTO_SELF, "what the peer supports"},
    {&model_ramp_table, NULL, ADV_INTO_MODEL,
     "energy options (the events accounting advise ranks by has no gamma_comm)"},
    {&model_crypto_table, NULL, ADV_INTO_MODEL, NULL},
    {&model_gamma_table, advise_gamma, ADV_INTO_MODEL, NULL},
    {&advise_output_table, NULL, ADV_INTO_SELF, "output"},
};
const size_t advise_n_tables = sizeof advise_tables / sizeof advise_tables[0];

static int listed(const char *const *only, const char *name)
{
    size_t k;
    for (k = 0; only != NULL && only[k] != NULL; k++) {
        if (strcmp(only[k], name) == 0) {
            return 1;
        }
    }
    return only == NULL;
}

const struct cli_opt *advise_opt_row(const char *name, struct advise_opts *o, void **into)
{
    size_t k;
    for (k = 0; k < advise_n_tables; k++) {
        const struct advise_table *t = &advise_tables[k];
        const struct cli_opt *row = listed(t->only, name) ? cli_opt_find(t->t, name) : NULL;
        if (row != NULL) {
            *into = t->into == ADV_INTO_MODEL    ? (void *)&o->m
                    : t->into == ADV_INTO_LOWPAN ? (void *)&o->lowpan
                                                 : (void *)o;
            return row;
        }
    }
    return NULL;
}

int advise_refused(const char *name, struct cli_msg *m)
{
    if (strcmp(name, "--gamma-comm") == 0) {
        return cli_msg_set(m, EXIT_USAGE, "--gamma-comm: advise ranks by the events accounting, "
                                          "which has no gamma_comm");
    }
    if (strcmp(name, "--kem") == 0 || strcmp(name, "--addr") == 0) {
        return cli_msg_set(m, EXIT_USAGE, "%s: advise searches every value (%s)", name,
                           name[2] == 'k' ? "use --min-level for the KEM"
                                          : "extended and short addresses");
    }
    return EXIT_OK;
}

int advise_opts_check(struct advise_opts *o, struct cli_msg *m, const char **option)
{
    if (o->lowpan.idle == SED_IDLE_AUTO) {
        o->lowpan.idle = o->lowpan.hops > 1;
    }
    o->poll_from_idle = o->poll_ms <= 0.0;
    if (o->poll_from_idle) {
        o->poll_ms = (double)o->idle.ci_ns * 1e-6;
    }
    if (!(o->peer_phys & (1u << o->idle.phy))) {
        *option = "--idle-phy";
        return cli_msg_set(m, EXIT_USAGE, "--idle-phy %s is not among --peer-phys: the idle link "
                                        "runs on a PHY both sides support",
                               pqpan_ble_phy_name(o->idle.phy));
    }
    if (o->idle_ll_octets > o->peer_max_ll) {
        *option = "--idle-ll-octets";
        return cli_msg_set(m, EXIT_USAGE, "--idle-ll-octets %u exceeds --peer-max-ll-octets %u",
                               o->idle_ll_octets, o->peer_max_ll);
    }
    if ((o->links & ADV_LINK_802154) && o->battery == ADV_BATTERY_BOTH) {
        *option = "--battery-side";
        return cli_msg_set(m, EXIT_USAGE, "--battery-side both: over 802.15.4 the battery device is "
                                        "a sleepy end device and its peer the parent that stays "
                                        "awake; use --link ble");
    }
    if (o->protocol == PQPAN_BLE_PROTO_STUDY && o->auth_modes != PQPAN_PQKE_MODE_BIT(PQPAN_PQKE_MODE_NONE)) {
        *option = "--protocol";
        return cli_msg_set(m, EXIT_USAGE, "--protocol study: the study's exchange is not "
                                        "authenticated; say so with --auth none, or search "
                                        "pqpan's authenticated modes (--protocol pqpan)");
    }
    if (o->protocol == PQPAN_BLE_PROTO_STUDY && o->hybrids != ADV_HYBRID_NONE) {
        *option = "--hybrid";
        return cli_msg_set(m, EXIT_USAGE, "--hybrid p256: the study's exchange has no P-256; use "
                                        "--protocol pqpan");
    }
    if (o->lowpan.hops > 1 && !(o->links & ADV_LINK_802154)) {
        *option = "--hops";
        return cli_msg_set(m, EXIT_USAGE, "--hops %d: a chain of 802.15.4 hops; use --link 802154 "
                                        "(or both)",
                           o->lowpan.hops);
    }
    if (o->lowpan.hops > 1 && (o->lowpan.idle == 0 || o->lowpan.backoff == 0)) {
        *option = o->lowpan.idle == 0 ? "--sed-idle" : "--backoff";
        return cli_msg_set(m, EXIT_USAGE, "--hops %d needs --sed-idle listen (auto, the default, chooses it) and --backoff listen: "
                                        "in the chain model every node, the device included, "
                                        "listens whenever it neither sends nor receives during "
                                        "an exchange (docs/MODEL.md \"Multi-hop 6LoWPAN\"); "
                                        "between exchanges the device still polls its parent",
                           o->lowpan.hops);
    }
    if ((o->links & ADV_LINK_802154) && o->protocol == PQPAN_BLE_PROTO_STUDY) {
        *option = "--protocol";
        return cli_msg_set(m, EXIT_USAGE, "--protocol study: over 802.15.4 the exchange is pqpan's "
                                        "INIT/RESP/FIN in UDP datagrams; use --link ble");
    }
    if (((uint64_t)o->idle.latency + 1u) * o->idle.ci_ns >= PQPAN_BLE_IDLE_PERIOD_MAX_NS) {
        *option = "--idle-latency";
        return cli_msg_set(m, EXIT_USAGE, "(--idle-latency + 1) x --idle-ci-ms must stay below 16 s, "
                                        "half the longest supervision timeout (Core v5.4 Vol 6 "
                                        "Part B §4.5.2)");
    }
    return EXIT_OK;
}
