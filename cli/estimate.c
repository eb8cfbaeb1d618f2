/* pqpan estimate: the energy and latency of one key exchange over BLE, per side, from the
 * analytic link model (src/ble/estimate.c) and the energy model (src/energy). */
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"

#define CMD "estimate"

struct estimate_opts {
    struct model_opts m;
    struct pqpan_ble_config cfg;
    const char *kem;
};

void cli_estimate_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan estimate [OPTIONS]\n\n"
            "Estimates one post-quantum key exchange (KeyGen, encapsulation key transfer, Encaps,\n"
            "ciphertext transfer, Decaps) between a BLE central and peripheral: computation per\n"
            "operation and communication (TX, RX, T_IFS) per side and in total, shares, latency and\n"
            "PDU counts, in both accountings (bits: the study's; events: adds per-event costs and\n"
            "the negotiation). Defaults are the study's set-up (SenSys '26, arXiv 2602.18708).\n\n"
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
            "  --ci-ms X              connection interval in ms, 7.5..4000 (default 50)\n"
            "  --event-len-ms X       longest connection event in ms (default: the interval minus\n"
            "                         T_IFS)\n"
            "  --max-pdus-per-event N  most PDU pairs per event, 0 = no cap (default 0)\n"
            "  --reply next-event|same-event  when an ATT/SMP reply can be sent: in the event after\n"
            "                         the request (default) or in the same one (fast host)\n"
            "  --keygen-side peripheral|central  who runs KeyGen and Decaps (default peripheral)\n"
            "  --encrypted            the link is already encrypted (4-octet MIC on data PDUs)\n\n"
            "energy options:\n",
            MODEL_LESC_NAME);
    model_opts_help(out);
    fprintf(out,
            "\nOutput: table (default), csv (one line per side: peripheral, central, total) or json\n"
            "({..., \"sides\": [ one object per side ]}). e_comm_uj and e_total_uj use the bits\n"
            "accounting; e_comm_events_uj and e_total_events_uj the events accounting.\n"
            "Exit codes: 0 ok, 2 usage (unknown or out-of-range option), 3 bad data file, 4 I/O.\n");
}

static int parse_role(enum pqpan_ble_role *r, const char *v)
{
    if (strcmp(v, "peripheral") == 0) {
        *r = PQPAN_BLE_PERIPHERAL;
    } else if (strcmp(v, "central") == 0) {
        *r = PQPAN_BLE_CENTRAL;
    } else {
        return -1;
    }
    return 0;
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

/* One link option with its value; EXIT_OK, or EXIT_USAGE after the message. */
static int link_opt(struct estimate_opts *o, const char *opt, const char *v)
{
    unsigned long long u;
    struct pqpan_ble_config *c = &o->cfg;
    int bad = 0;
    if (strcmp(opt, "--kem") == 0) {
        o->kem = v;
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
        bad = strcmp(v, "next-event") != 0 && strcmp(v, "same-event") != 0;
        c->same_event_reply = strcmp(v, "same-event") == 0;
    } else if (strcmp(opt, "--keygen-side") == 0) {
        bad = parse_role(&c->keygen_side, v) != 0;
    } else {
        return cli_usage_error(CMD, "unknown option '%s'", opt);
    }
    return bad ? cli_usage_error(CMD, "bad value for %s: '%s' (see pqpan help estimate)", opt, v)
               : EXIT_OK;
}

static int parse_args(struct estimate_opts *o, int argc, char **argv)
{
    int i;
    model_opts_init(&o->m);
    pqpan_ble_config_default(&o->cfg);
    o->kem = "ML-KEM-768";
    for (i = 1; i < argc; i++) {
        int rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 1) {
            continue;
        }
        if (strcmp(argv[i], "--encrypted") == 0) {
            o->cfg.encrypted = 1;
            continue;
        }
        if (strncmp(argv[i], "--", 2) != 0) {
            return cli_usage_error(CMD, "unexpected argument '%s'", argv[i]);
        }
        if (i + 1 >= argc) {
            return cli_usage_error(CMD, "%s needs a value", argv[i]);
        }
        rc = link_opt(o, argv[i], argv[i + 1]);
        if (rc != EXIT_OK) {
            return rc;
        }
        i++;
    }
    return EXIT_OK;
}

static void print_table(const struct estimate_opts *o, const struct model_env *env,
                        const struct model_row rows[MODEL_SIDES])
{
    const struct model_row *r = &rows[0];
    printf("pqpan estimate: %s over LE %s, ATT_MTU %u, LL %u octets (%s), transfer %s, "
           "CI %.2f ms,\n  KeyGen+Decaps on the %s, %s link\n",
           r->kem, r->phy, r->att_mtu, r->ll_octets, r->dle ? "DLE" : "no DLE", r->transfer,
           r->ci_ms, r->keygen_side, o->cfg.encrypted ? "encrypted" : "unencrypted");
    model_print_assumptions(stdout, env, "  ");
    putchar('\n');
    model_print_table(stdout, rows, MODEL_SIDES, GROUP_HEADLINE | GROUP_DETAIL);
}

static void print_json(const struct model_env *env, const struct model_row rows[MODEL_SIDES])
{
    int s;
    printf("{\n");
    model_print_assumptions_json(stdout, env, "  ");
    printf("  \"sides\": [\n");
    for (s = 0; s < MODEL_SIDES; s++) {
        model_print_json_row(stdout, &rows[s], GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL,
                             "    ");
        printf("%s\n", s + 1 < MODEL_SIDES ? "," : "");
    }
    printf("  ]\n}\n");
}

int cli_estimate_run(int argc, char **argv)
{
    struct estimate_opts o;
    struct model_env *env;
    struct model_row rows[MODEL_SIDES];
    unsigned all = GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL;
    int rc, s;

    if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
        cli_estimate_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(&o, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    env = malloc(sizeof *env);
    if (env == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    rc = model_env_load(env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = model_run(rows, env, o.kem, &o.cfg, CMD);
    }
    if (rc == EXIT_OK) {
        if (o.m.format == FORMAT_TABLE) {
            print_table(&o, env, rows);
        } else if (o.m.format == FORMAT_CSV) {
            model_print_csv_header(stdout, all);
            for (s = 0; s < MODEL_SIDES; s++) {
                model_print_csv_row(stdout, &rows[s], all);
            }
        } else {
            print_json(env, rows);
        }
    }
    free(env);
    return rc;
}
