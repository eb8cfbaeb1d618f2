/* pqpan advise: options and their value parsers (see advise.h). */
#include <stdlib.h>
#include <string.h>

#include "advise.h"

/* --battery-side words, in enum adv_battery order. */
static const char *const battery_words[] = {"peripheral", "central", "both", NULL};
/* --protocol words, in enum pqpan_ble_protocol order. */
static const char *const protocol_words[] = {"study", "pqpan", NULL};

static void defaults(struct advise_opts *o)
{
    memset(o, 0, sizeof *o);
    model_opts_init(&o->m);
    o->min_level = 1;
    o->battery = ADV_BATTERY_PERIPHERAL;
    o->battery_mah = ADV_CR2032_MAH;
    o->rekey_s = 86400.0;
    o->rekey_text = "1d";
    o->idle.phy = PQPAN_BLE_PHY_1M;
    o->idle.ci_ns = 1000000000u;
    o->idle.latency = 0;
    o->idle_ll_octets = PQPAN_LL_DATA_MIN_PAYLOAD;
    o->peer_phys = (1u << PQPAN_BLE_PHY_COUNT) - 1u;
    o->peer_max_ll = PQPAN_LL_DATA_MAX_PAYLOAD;
    o->peer_max_mtu = PQPAN_ATT_MAX_MTU;
    o->protocol = PQPAN_BLE_PROTO_PQPAN;
    o->top = 5;
    o->links = ADV_LINK_BLE;
    lowpan_opts_init(&o->lowpan);
    /* The battery device on 802.15.4 is a sleepy end device: its radio is off between the
     * frames it sends and receives (estimate --link 802154 --idle sleep). */
    o->lowpan.idle = 0;
}

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

int advise_parse_phys(const char *text, unsigned *mask)
{
    char item[8];
    const char *p = text;
    unsigned m = 0;
    for (;;) {
        const char *comma = strchr(p, ',');
        size_t n = comma != NULL ? (size_t)(comma - p) : strlen(p);
        enum pqpan_ble_phy phy;
        if (n == 0 || n >= sizeof item) {
            return -1;
        }
        memcpy(item, p, n);
        item[n] = '\0';
        if (pqpan_ble_phy_parse(&phy, item) != PQPAN_OK) {
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

static int word_opt(int *out, const char *const *words, const char *opt, const char *v,
                    const char *want)
{
    int k = cli_word_index(words, v);
    if (k < 0) {
        return cli_usage_error(ADV_CMD, "%s %s: want %s", opt, v, want);
    }
    *out = k;
    return EXIT_OK;
}

static int uint_opt(unsigned long long *out, const char *opt, const char *v,
                    unsigned long long lo, unsigned long long hi)
{
    if (cli_parse_uint(v, lo, hi, out) != 0) {
        return cli_usage_error(ADV_CMD, "%s %s: want an integer in %llu..%llu", opt, v, lo, hi);
    }
    return EXIT_OK;
}

/* The requirement options: what the device must get. */
static int requirement_opt(struct advise_opts *o, const char *opt, const char *v, int *done)
{
    unsigned long long u = 0;
    int k = 0, rc = EXIT_OK;
    *done = 1;
    if (strcmp(opt, "--min-level") == 0) {
        if (strcmp(v, "1") != 0 && strcmp(v, "3") != 0 && strcmp(v, "5") != 0) {
            return cli_usage_error(ADV_CMD, "--min-level %s: want 1, 3 or 5 (NIST security "
                                            "categories of ML-KEM-512/768/1024, FIPS 203 "
                                            "Table 2)", v);
        }
        o->min_level = (unsigned)(v[0] - '0');
    } else if (strcmp(opt, "--max-latency-ms") == 0) {
        if (cli_parse_double(v, 0.001, 1e9, &o->max_latency_ms) != 0) {
            return cli_usage_error(ADV_CMD, "--max-latency-ms %s: want a number > 0", v);
        }
    } else if (strcmp(opt, "--battery-side") == 0) {
        rc = word_opt(&k, battery_words, opt, v, "peripheral, central or both");
        o->battery = (enum adv_battery)k;
    } else if (strcmp(opt, "--battery-mah") == 0) {
        if (cli_parse_double(v, 0.001, 1e7, &o->battery_mah) != 0) {
            return cli_usage_error(ADV_CMD, "--battery-mah %s: want a number in 0.001..1e7", v);
        }
    } else if (strcmp(opt, "--rekey-every") == 0) {
        if (advise_parse_duration(v, &o->rekey_s) != 0) {
            return cli_usage_error(ADV_CMD, "--rekey-every %s: want a duration such as 30s, "
                                            "15m, 1h, 1d, 7d (1 s .. 3650 d)", v);
        }
        o->rekey_text = v;
    } else if (strcmp(opt, "--protocol") == 0) {
        rc = word_opt(&k, protocol_words, opt, v, "study or pqpan");
        o->protocol = (enum pqpan_ble_protocol)k;
    } else if (strcmp(opt, "--top") == 0) {
        rc = uint_opt(&u, opt, v, 1, PQPAN_ADVISE_TOP_MAX);
        o->top = (size_t)u;
    } else {
        *done = 0;
    }
    return rc;
}

/* The link options: the idle link and what the peer supports. */
/* --link words: the ADV_LINK_* bits of each. */
static const char *const link_words[] = {"ble", "802154", "both", NULL};

static int link_opt(struct advise_opts *o, const char *opt, const char *v, int *done)
{
    unsigned long long u = 0;
    int rc = EXIT_OK, k = 0;
    *done = 1;
    if (strcmp(opt, "--link") == 0) {
        rc = word_opt(&k, link_words, opt, v, "ble, 802154 or both");
        o->links = (unsigned)k + 1u;
    } else if (strcmp(opt, "--poll-ms") == 0) {
        if (cli_parse_double(v, 0.001, 86400000.0, &o->poll_ms) != 0) {
            return cli_usage_error(ADV_CMD, "--poll-ms %s: want 0.001..86400000", v);
        }
    } else if (strcmp(opt, "--idle-phy") == 0) {
        if (pqpan_ble_phy_parse(&o->idle.phy, v) != PQPAN_OK) {
            return cli_usage_error(ADV_CMD, "--idle-phy %s: want 1M, 2M, S2 or S8", v);
        }
    } else if (strcmp(opt, "--idle-ci-ms") == 0) {
        if (cli_parse_conn_interval(v, &o->idle.ci_ns) != 0) {
            return cli_usage_error(ADV_CMD, "--idle-ci-ms %s: want 7.5..4000 in steps of "
                                            "1.25 ms (Core v5.4 Vol 6 Part B §4.5.1)", v);
        }
    } else if (strcmp(opt, "--idle-latency") == 0) {
        rc = uint_opt(&u, opt, v, 0, PQPAN_BLE_LATENCY_MAX);
        o->idle.latency = (uint32_t)u;
    } else if (strcmp(opt, "--idle-ll-octets") == 0) {
        rc = uint_opt(&u, opt, v, PQPAN_LL_DATA_MIN_PAYLOAD, PQPAN_LL_DATA_MAX_PAYLOAD);
        o->idle_ll_octets = (uint32_t)u;
    } else if (strcmp(opt, "--peer-phys") == 0) {
        if (advise_parse_phys(v, &o->peer_phys) != 0) {
            return cli_usage_error(ADV_CMD, "--peer-phys %s: want a comma-separated list of "
                                            "1M, 2M, S2, S8", v);
        }
    } else if (strcmp(opt, "--peer-max-ll-octets") == 0) {
        rc = uint_opt(&u, opt, v, PQPAN_LL_DATA_MIN_PAYLOAD, PQPAN_LL_DATA_MAX_PAYLOAD);
        o->peer_max_ll = (uint32_t)u;
    } else if (strcmp(opt, "--peer-max-mtu") == 0) {
        rc = uint_opt(&u, opt, v, PQPAN_ATT_DEFAULT_MTU, PQPAN_ATT_MAX_MTU);
        o->peer_max_mtu = (uint32_t)u;
    } else if (strcmp(opt, "--peer-profile") == 0) {
        o->peer_profile = v;
    } else if (strcmp(opt, "--out") == 0) {
        o->out_dir = v;
    } else {
        *done = 0;
    }
    return rc;
}

/* The options that take a value, other than the energy options of model_opts. */
static int value_opt(struct advise_opts *o, const char *opt, const char *v, int *done)
{
    int rc = requirement_opt(o, opt, v, done);
    return *done ? rc : link_opt(o, opt, v, done);
}

static const char *const value_opts[] = {
    "--min-level",   "--max-latency-ms", "--battery-side",        "--battery-mah",
    "--rekey-every", "--protocol",       "--top",                 "--idle-phy",
    "--idle-ci-ms",  "--idle-latency",   "--idle-ll-octets",      "--peer-phys",
    "--peer-max-ll-octets", "--peer-max-mtu", "--peer-profile",   "--out",
    "--link",        "--poll-ms",        NULL,
};

/* What the options say together: checked before any work. */
static int check_together(struct advise_opts *o)
{
    if (o->m.format == FORMAT_CSV) {
        return cli_usage_error(ADV_CMD, "--format csv: advise prints table or json");
    }
    if (o->poll_ms <= 0.0) {
        o->poll_ms = (double)o->idle.ci_ns * 1e-6;
    }
    if (!(o->peer_phys & (1u << o->idle.phy))) {
        return cli_usage_error(ADV_CMD, "--idle-phy %s is not among --peer-phys: the idle link "
                                        "runs on a PHY both sides support",
                               pqpan_ble_phy_name(o->idle.phy));
    }
    if (o->idle_ll_octets > o->peer_max_ll) {
        return cli_usage_error(ADV_CMD, "--idle-ll-octets %u exceeds --peer-max-ll-octets %u",
                               o->idle_ll_octets, o->peer_max_ll);
    }
    if ((o->links & ADV_LINK_802154) && o->battery == ADV_BATTERY_BOTH) {
        return cli_usage_error(ADV_CMD, "--battery-side both: over 802.15.4 the battery device is "
                                        "a sleepy end device and its peer the parent that stays "
                                        "awake; use --link ble");
    }
    if ((o->links & ADV_LINK_802154) && o->protocol == PQPAN_BLE_PROTO_STUDY) {
        return cli_usage_error(ADV_CMD, "--protocol study: over 802.15.4 the exchange is pqpan's "
                                        "INIT/RESP/FIN in UDP datagrams; use --link ble");
    }
    if (((uint64_t)o->idle.latency + 1u) * o->idle.ci_ns >= PQPAN_BLE_IDLE_PERIOD_MAX_NS) {
        return cli_usage_error(ADV_CMD, "(--idle-latency + 1) x --idle-ci-ms must stay below 16 s, "
                                        "half the longest supervision timeout (Core v5.4 Vol 6 "
                                        "Part B §4.5.2)");
    }
    return EXIT_OK;
}

int advise_opts_parse(struct advise_opts *o, int argc, char **argv)
{
    int i;
    defaults(o);
    for (i = 1; i < argc; i++) {
        int done = 0, rc;
        if (strcmp(argv[i], "--gamma-comm") == 0) {
            return cli_usage_error(ADV_CMD, "--gamma-comm: advise ranks by the events accounting, "
                                            "which has no gamma_comm");
        }
        if (strcmp(argv[i], "--kem") == 0 || strcmp(argv[i], "--addr") == 0) {
            return cli_usage_error(ADV_CMD, "%s: advise searches every value (%s)", argv[i],
                                   argv[i][2] == 'k' ? "use --min-level for the KEM"
                                                     : "extended and short addresses");
        }
        rc = model_opts_parse(&o->m, ADV_CMD, argc, argv, &i);
        if (rc == 0 && strcmp(argv[i], "--link") != 0) {
            rc = lowpan_opts_parse(&o->lowpan, ADV_CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 1) {
            continue;
        }
        if (cli_word_index(value_opts, argv[i]) < 0) {
            return cli_usage_error(ADV_CMD, "unknown option '%s'", argv[i]);
        }
        if (i + 1 >= argc) {
            return cli_usage_error(ADV_CMD, "%s needs a value", argv[i]);
        }
        rc = value_opt(o, argv[i], argv[i + 1], &done);
        if (rc != EXIT_OK) {
            return rc;
        }
        i++;
    }
    return check_together(o);
}
