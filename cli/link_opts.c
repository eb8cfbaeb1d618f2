#include <string.h>

#include "ble_model.h"
#include "cli.h"
#include "link_opts.h"
#include "pqpan/kem.h"
#include "pqpan/pqke.h"
#include "pqpan/sig.h"

void link_opts_init(struct link_opts *o)
{
    pqpan_ble_config_default(&o->cfg);
    o->kem = "ML-KEM-768";
    link_pqke_init(&o->pqke);
}

void link_pqke_init(struct link_pqke *p)
{
    p->mode = PQPAN_PQKE_MODE_NONE;
    p->sig = 0;
    p->hybrid = 0;
}

void link_opts_help(FILE *out)
{
    fprintf(out,
            "link options:\n"
            "  --kem NAME             ML-KEM-512, ML-KEM-768, ML-KEM-1024, or %s for the LE Secure\n"
            "                         Connections pairing baseline (default ML-KEM-768)\n"
            "  --phy 1M|2M|S2|S8      LE PHY; S2/S8 = LE Coded (default 1M)\n"
            "  --att-mtu N            ATT_MTU after the MTU exchange, 23..517 (default 403)\n"
            "  --ll-octets N          LL data payload octets, 27..251; > 27 = DLE (default 27)\n"
            "  --max-tx-time-us N     connMaxTxTime limit in us, 328..17040 (default: none)\n"
            "  --transfer METHOD      notify, indicate, write-req, write-cmd, long-write, or study:\n"
            "                         ek as <= 400 B indications, ct as Write Requests of one\n"
            "                         frame-number byte + <= 392 B (needs ATT_MTU >= 403) (default study)\n"
            "  --ci-ms X              connection interval in ms, 7.5..4000 in steps of 1.25\n"
            "                         (default 50)\n"
            "  --event-len-ms X       longest connection event in ms, at most the interval\n"
            "                         (default: the interval minus T_IFS); a data PDU of the LL\n"
            "                         size and the empty PDU answering it must fit in one\n"            "                         (estimate and simulate refuse other links)\n"
            "  --max-pdus-per-event N  most PDU pairs per event, 0 = no cap (default 0)\n"
            "  --reply next-event|same-event  when an ATT/SMP reply can be sent: in the event after\n"
            "                         the request (default) or in the same one (fast host)\n"
            "  --keygen-side peripheral|central  who runs KeyGen and Decaps (default peripheral)\n"
            "  --encrypted            the link is already encrypted (4-octet MIC on data PDUs)\n"
            "  --auth MODE            pqpan protocol's authentication (docs/PROTOCOL.md): none (not\n"
            "                         authenticated), psk, kem-auth (the responder), kem-auth-mutual,\n"
            "                         sig (the responder), sig-mutual, numeric; message sizes and the\n"
            "                         extra ML-KEM, ML-DSA operations and hashing follow the mode\n"
            "                         (default none)\n"
            "  --sig ML-DSA-44|65|87  sig modes: the ML-DSA set (default: the smallest of at least\n"
            "                         the KEM's NIST category: 512 -> 44, 768 -> 65, 1024 -> 87)\n"
            "  --hybrid p256|none     P-256 ECDH combined with ML-KEM (the hybrid suite; P-256\n"
            "                         cycles from the classical table) (default none)\n"
            "set-up before the exchange (events accounting only; the bits accounting is the\n"
            "exchange's):\n"
            "  --adv-interval-ms X    connectable advertising until connected, advInterval in ms:\n"
            "                         20..10485759.375 in steps of 0.625, or 0 for none (default\n"
            "                         100); the central scans continuously and t_advertise_ms is\n"
            "                         the expected time to connect (docs/MODEL.md \"Advertising\")\n"
            "  --features on|off      LL feature exchange and version exchange (default on)\n"
            "  --conn-update on|off   open the connection at --idle-ci-ms and update it to --ci-ms\n"
            "                         (connection parameters request; default on)\n"
            "  --idle-ci-ms X         the connection's interval before the update in ms, 7.5..4000\n"
            "                         in steps of 1.25 (default 30)\n"
            "  --discovery on|off     GATT discovery of the key-exchange service and the CCCD\n"
            "                         write enabling indications, by the central (default on)\n",
            MODEL_LESC_NAME);
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
                                            "--ll-octets 27..251; --ci-ms and --idle-ci-ms "
                                            "7.5..4000)");
    case PQPAN_BLE_CONFIG_CI_STEP:
        return cli_msg_set(msg, EXIT_USAGE, "--ci-ms %s: a connection interval is a multiple of "
                                            "1.25 ms in 7.5..4000 (Core v5.4 Vol 6 Part B §4.5.1)",
                           ms_text(a, cfg->ci_ns));
    case PQPAN_BLE_CONFIG_IDLE_CI_STEP:
        return cli_msg_set(msg, EXIT_USAGE, "--idle-ci-ms %s: a connection interval is a multiple "
                                            "of 1.25 ms in 7.5..4000 (Core v5.4 Vol 6 Part B "
                                            "§4.5.1)",
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

/* --hybrid words (none = 0). */
static const char *const hybrid_words[] = {"none", "p256", NULL};

/* --auth MODE: any PQKE mode the protocol defines (the sig modes are priced from the
 * protocol's sizes and work; `simulate` refuses the modes this build does not run). */
static int auth_opt(struct link_pqke *p, const char *cmd, const char *v)
{
    unsigned mode = v != NULL ? pqpan_pqke_mode_by_name(v) : 0u;
    if (mode == 0) {
        cli_usage_error(cmd, "--auth: want none, psk, kem-auth, kem-auth-mutual, sig, "
                             "sig-mutual or numeric");
        return -1;
    }
    p->mode = mode;
    return 1;
}

static int sig_opt(struct link_pqke *p, const char *cmd, const char *v)
{
    const struct pqpan_sig *sig = v != NULL ? pqpan_sig_by_name(v) : NULL;
    if (sig == NULL) {
        cli_usage_error(cmd, "--sig: want ML-DSA-44, ML-DSA-65 or ML-DSA-87");
        return -1;
    }
    p->sig = (unsigned)sig->id;
    return 1;
}

static int hybrid_opt(struct link_pqke *p, const char *cmd, const char *v)
{
    int k = v != NULL ? cli_word_index(hybrid_words, v) : -1;
    if (k < 0) {
        cli_usage_error(cmd, "--hybrid: want p256 or none");
        return -1;
    }
    p->hybrid = k;
    return 1;
}

int link_pqke_parse(struct link_pqke *p, const char *cmd, int argc, char **argv, int *i)
{
    const char *opt = argv[*i], *v = *i + 1 < argc ? argv[*i + 1] : NULL;
    int rc;
    if (strcmp(opt, "--auth") == 0) {
        rc = auth_opt(p, cmd, v);
    } else if (strcmp(opt, "--sig") == 0) {
        rc = sig_opt(p, cmd, v);
    } else if (strcmp(opt, "--hybrid") == 0) {
        rc = hybrid_opt(p, cmd, v);
    } else {
        return 0;
    }
    *i += rc > 0;
    return rc;
}

int link_pqke_choices(const char *opt, cli_word_fn add, void *ctx)
{
    unsigned k;
    if (strcmp(opt, "--auth") == 0) {
        for (k = 1; pqpan_pqke_mode_name(k) != NULL; k++) {
            add(ctx, pqpan_pqke_mode_name(k));
        }
    } else if (strcmp(opt, "--sig") == 0) {
        for (k = 0; pqpan_sig_at(k) != NULL; k++) {
            add(ctx, pqpan_sig_at(k)->name);
        }
    } else if (strcmp(opt, "--hybrid") == 0) {
        cli_words_each(hybrid_words, add, ctx);
    } else {
        return 0;
    }
    return 1;
}

/* --keygen-side words (enum pqpan_ble_role order: central = 0) and --reply words. */
static const char *const role_words[] = {"central", "peripheral", NULL};
static const char *const reply_words[] = {"next-event", "same-event", NULL};
/* --features, --conn-update, --discovery words (off = 0). */
static const char *const switch_words[] = {"off", "on", NULL};

static int parse_role(enum pqpan_ble_role *r, const char *v)
{
    int k = cli_word_index(role_words, v);
    *r = k == 0 ? PQPAN_BLE_CENTRAL : PQPAN_BLE_PERIPHERAL;
    return k < 0 ? -1 : 0;
}

/* An ML-KEM name or the LESC baseline. */
static int kem_known(const char *v)
{
    return pqpan_kem_by_name(v) != NULL || strcmp(v, MODEL_LESC_NAME) == 0;
}

static int parse_ms(uint64_t *ns, const char *v, double lo, double hi)
{
    double ms;
    if (cli_parse_double(v, lo, hi, &ms) != 0) {
        return -1;
    }
    *ns = (uint64_t)(ms * 1e6 + 0.5);
    return 0;
}

/* 0 (no advertising) or an advInterval of Vol 6 Part B §4.4.2.2. */
static int parse_adv(uint64_t *ns, const char *v)
{
    if (parse_ms(ns, v, 0.0, (double)PQPAN_BLE_ADV_INTERVAL_MAX_NS * 1e-6) != 0) {
        return -1;
    }
    return *ns == 0u || (*ns >= PQPAN_BLE_ADV_INTERVAL_MIN_NS &&
                         *ns % PQPAN_BLE_ADV_INTERVAL_STEP_NS == 0u)
               ? 0
               : -1;
}

static int parse_switch(int *on, const char *v)
{
    int k = cli_word_index(switch_words, v);
    *on = k == 1;
    return k < 0 ? -1 : 0;
}

/* One option with its value: 1 ok, 0 not a link option, -1 bad value. */
static int value_opt(struct link_opts *o, const char *opt, const char *v)
{
    unsigned long long u;
    struct pqpan_ble_config *c = &o->cfg;
    int bad = 0;
    if (strcmp(opt, "--kem") == 0) {
        o->kem = v;
        bad = !kem_known(v);
    } else if (strcmp(opt, "--phy") == 0) {
        bad = pqpan_ble_phy_parse(&c->phy, v) != PQPAN_OK;
    } else if (strcmp(opt, "--att-mtu") == 0) {
        bad = cli_parse_uint(v, PQPAN_ATT_DEFAULT_MTU, PQPAN_ATT_MAX_MTU, &u) != 0;
        c->att_mtu = (uint32_t)u;
    } else if (strcmp(opt, "--ll-octets") == 0) {
        bad = cli_parse_uint(v, PQPAN_LL_DATA_MIN_PAYLOAD, PQPAN_LL_DATA_MAX_PAYLOAD, &u) != 0;
        c->ll_octets = (uint32_t)u;
    } else if (strcmp(opt, "--max-tx-time-us") == 0) {
        bad = cli_parse_uint(v, 328, 17040, &u) != 0;
        c->max_tx_time_us = (uint32_t)u;
    } else if (strcmp(opt, "--transfer") == 0) {
        bad = pqpan_ble_transfer_parse(&c->transfer, v) != PQPAN_OK;
    } else if (strcmp(opt, "--ci-ms") == 0) {
        bad = parse_ms(&c->ci_ns, v, 7.5, 4000.0) != 0;
    } else if (strcmp(opt, "--event-len-ms") == 0) {
        bad = parse_ms(&c->event_len_ns, v, 0.0, 4000.0) != 0;
    } else if (strcmp(opt, "--max-pdus-per-event") == 0) {
        bad = cli_parse_uint(v, 0, 1000000, &u) != 0;
        c->max_pairs = (uint32_t)u;
    } else if (strcmp(opt, "--reply") == 0) {
        int k = cli_word_index(reply_words, v);
        bad = k < 0;
        c->same_event_reply = k == 1;
    } else if (strcmp(opt, "--keygen-side") == 0) {
        bad = parse_role(&c->keygen_side, v) != 0;
    } else if (strcmp(opt, "--adv-interval-ms") == 0) {
        bad = parse_adv(&c->adv_interval_ns, v) != 0;
    } else if (strcmp(opt, "--features") == 0) {
        bad = parse_switch(&c->features, v) != 0;
    } else if (strcmp(opt, "--conn-update") == 0) {
        bad = parse_switch(&c->conn_update, v) != 0;
    } else if (strcmp(opt, "--idle-ci-ms") == 0) {
        bad = parse_ms(&c->idle_ci_ns, v, 7.5, 4000.0) != 0;
    } else if (strcmp(opt, "--discovery") == 0) {
        bad = parse_switch(&c->discovery, v) != 0;
    } else {
        return 0;
    }
    return bad ? -1 : 1;
}

/* The link options that take a value, and what they allow (NULL: the words
 * link_opts_choices lists), for the message on a bad value. */
static const struct {
    const char *name, *allowed;
} value_opts[] = {
    {"--kem", NULL},
    {"--phy", NULL},
    {"--att-mtu", "an integer in 23..517"},
    {"--ll-octets", "an integer in 27..251"},
    {"--max-tx-time-us", "an integer in 328..17040"},
    {"--transfer", NULL},
    {"--ci-ms", "7.5..4000 in steps of 1.25"},
    {"--event-len-ms", "0..4000"},
    {"--max-pdus-per-event", "an integer in 0..1000000"},
    {"--reply", NULL},
    {"--keygen-side", NULL},
    {"--adv-interval-ms", "0, or 20..10485759.375 in steps of 0.625"},
    {"--features", NULL},
    {"--conn-update", NULL},
    {"--idle-ci-ms", "7.5..4000 in steps of 1.25"},
    {"--discovery", NULL},
};

/* The row of value_opts for opt, or -1. */
static int value_opt_index(const char *opt)
{
    size_t k;
    for (k = 0; k < sizeof value_opts / sizeof value_opts[0]; k++) {
        if (strcmp(opt, value_opts[k].name) == 0) {
            return (int)k;
        }
    }
    return -1;
}

/* --link: ble here; 802154 was dispatched before parsing (lowpan_link_requested). */
static int link_opt(const char *cmd, int argc, char **argv, int *i)
{
    if (*i + 1 < argc && strcmp(argv[*i + 1], "ble") == 0) {
        ++*i;
        return 1;
    }
    cli_usage_error(cmd, "--link %s: want ble or 802154", *i + 1 < argc ? argv[*i + 1] : "");
    return -1;
}

int link_opts_parse(struct link_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int rc, k;
    if (strcmp(argv[*i], "--encrypted") == 0) {
        o->cfg.encrypted = 1;
        return 1;
    }
    rc = link_pqke_parse(&o->pqke, cmd, argc, argv, i);
    if (rc != 0) {
        o->cfg.pqke_mode = o->pqke.mode;
        o->cfg.pqke_sig = o->pqke.sig;
        o->cfg.pqke_hybrid = o->pqke.hybrid;
        return rc;
    }
    if (strcmp(argv[*i], "--link") == 0) {
        return link_opt(cmd, argc, argv, i);
    }
    k = value_opt_index(argv[*i]);
    if (k < 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        cli_usage_error(cmd, "%s needs a value", argv[*i]);
        return -1;
    }
    rc = value_opt(o, argv[*i], argv[*i + 1]);
    if (rc < 0) {
        char words[CLI_WORDS_MAX];
        cli_usage_error(cmd, "bad value for %s: '%s' (want %s)", argv[*i], argv[*i + 1],
                        value_opts[k].allowed != NULL
                            ? value_opts[k].allowed
                            : cli_words_join(words, link_opts_choices, argv[*i]));
        return -1;
    }
    *i += 1;
    return 1;
}

int link_opts_choices(const char *opt, cli_word_fn add, void *ctx)
{
    int k;
    if (link_pqke_choices(opt, add, ctx)) {
        return 1;
    }
    if (strcmp(opt, "--kem") == 0) {
        model_kem_names(add, ctx);
        add(ctx, MODEL_LESC_NAME);
    } else if (strcmp(opt, "--phy") == 0) {
        for (k = 0; k < PQPAN_BLE_PHY_COUNT; k++) {
            add(ctx, pqpan_ble_phy_name((enum pqpan_ble_phy)k));
        }
    } else if (strcmp(opt, "--transfer") == 0) {
        for (k = 0; k < PQPAN_BLE_TRANSFER_COUNT; k++) {
            add(ctx, pqpan_ble_transfer_name((enum pqpan_ble_transfer)k));
        }
    } else if (strcmp(opt, "--reply") == 0) {
        cli_words_each(reply_words, add, ctx);
    } else if (strcmp(opt, "--keygen-side") == 0) {
        cli_words_each(role_words, add, ctx);
    } else if (strcmp(opt, "--features") == 0 || strcmp(opt, "--conn-update") == 0 ||
               strcmp(opt, "--discovery") == 0) {
        cli_words_each(switch_words, add, ctx);
    } else {
        return 0;
    }
    return 1;
}
