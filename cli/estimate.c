/* pqpan estimate: the energy and latency of one key exchange over BLE, per side, from the
 * analytic link model (src/ble/estimate.c) and the energy model (src/energy). */
#include <stdlib.h>
#include <string.h>

#include "ble_model.h"
#include "commands.h"
#include "link_opts.h"
#include "lowpan_model.h"

#define CMD "estimate"

struct estimate_opts {
    struct model_opts m;
    struct link_opts l;
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
            "protocol:\n"
            "  --protocol study|pqpan  study: raw ek and ct as in the study's prototype; pqpan:\n"
            "                         pqpan's INIT / RESP / FIN with nonces, key schedule (KDF on\n"
            "                         both sides) and key confirmation (default study)\n\n");
    link_opts_help(out);
    fprintf(out,
            "\nIEEE 802.15.4 (--link 802154): the same exchange as pqpan's INIT / RESP / FIN in\n"
            "UDP/IPv6 datagrams, 6LoWPAN-compressed and fragmented (RFC 6282, RFC 4944), one\n"
            "acknowledged frame after another with unslotted CSMA-CA; no contention, the expected\n"
            "CSMA cost in closed form for a channel-busy probability (use `simulate --link 802154`\n"
            "for contention). Sides: initiator (KeyGen, Decaps; sends INIT and FIN) and responder.\n"
            "Energy: the profile's ieee802154 section (TX, RX currents; whether the radio listens\n"
            "or sleeps when idle and in a backoff, unless --idle / --backoff say). BLE options do\n"
            "not apply. Output fields: docs/CLI.md (802.15.4 terms: data frames, Imm-Acks, CCA,\n"
            "backoff, aTurnaroundTime).\n");
    lowpan_opts_help(out);
    fprintf(out,
            "  --busy P               probability that a CCA finds the channel busy, 0..0.99\n"
            "                         (default 0: idle channel)\n");
    fprintf(out, "\nenergy options:\n");
    model_opts_help(out);
    fprintf(out,
            "\nOutput: table (default), csv (one line per side: peripheral, central, total) or json\n"
            "({..., \"sides\": [ one object per side ]}). e_comm_uj and e_total_uj use the bits\n"
            "accounting; e_comm_events_uj and e_total_events_uj the events accounting.\n"
            "Exit codes: 0 ok, 2 usage (unknown or out-of-range option), 3 bad data file, 4 I/O.\n");
}

static int parse_args(struct estimate_opts *o, int argc, char **argv)
{
    int i;
    model_opts_init(&o->m);
    link_opts_init(&o->l);
    for (i = 1; i < argc; i++) {
        int rc;
        if (strcmp(argv[i], "--protocol") == 0) {
            if (i + 1 >= argc ||
                (strcmp(argv[i + 1], "study") != 0 && strcmp(argv[i + 1], "pqpan") != 0)) {
                return cli_usage_error(CMD, "--protocol: want study or pqpan");
            }
            o->l.cfg.protocol =
                strcmp(argv[++i], "pqpan") == 0 ? PQPAN_BLE_PROTO_PQPAN : PQPAN_BLE_PROTO_STUDY;
            continue;
        }
        rc = model_opts_parse(&o->m, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = link_opts_parse(&o->l, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_usage_error(CMD, "unknown option '%s'", argv[i]);
        }
    }
    return EXIT_OK;
}

static void print_table(const struct estimate_opts *o, const struct model_env *env,
                        const struct model_row rows[MODEL_SIDES])
{
    const struct model_row *r = &rows[0];
    printf("pqpan estimate: %s (%s protocol) over LE %s, ATT_MTU %u, LL %u octets (%s),\n"
           "  transfer %s, CI %.2f ms, KeyGen+Decaps on the %s, %s link\n",
           r->kem, r->protocol, r->phy, r->att_mtu, r->ll_octets, r->dle ? "DLE" : "no DLE",
           r->transfer, r->ci_ms, r->keygen_side, o->l.cfg.encrypted ? "encrypted" : "unencrypted");
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

/* ---- --link 802154 ---- */

static int parse_lowpan(struct model_opts *m, struct lowpan_opts *l, int argc, char **argv)
{
    int i;
    model_opts_init(m);
    lowpan_opts_init(l);
    for (i = 1; i < argc; i++) {
        int rc = model_opts_parse(m, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = lowpan_opts_parse(l, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_usage_error(CMD, "unknown option for --link 802154 '%s'", argv[i]);
        }
    }
    return EXIT_OK;
}

static void print_lowpan_table(const struct lowpan_opts *l, const struct model_env *env,
                               const struct pqpan_802154_est_config *c,
                               const struct pqpan_802154_estimate *e,
                               const struct model_row rows[MODEL_SIDES])
{
    printf("pqpan estimate: %s (pqpan protocol) over 6LoWPAN / IEEE 802.15.4 (250 kb/s),\n"
           "  %s addresses, CSMA-CA %s, channel busy p = %.3f, no contention\n",
           l->kem, l->short_addr ? "short" : "extended", l->contiki ? "contiki" : "ieee", l->busy);
    lowpan_print_assumptions(stdout, env, l, "  ");
    printf("  messages (UDP payload octets, docs/PROTOCOL.md): INIT %u, RESP %u, FIN %u\n",
           (unsigned)c->msg_octets[0], (unsigned)c->msg_octets[1], (unsigned)c->msg_octets[2]);
    printf("  data frames: INIT %u, RESP %u, FIN %u; expected CCAs %.3f, backoff %.3f ms;\n"
           "  P(access failure) per frame %.6f, P(every frame gets the channel) %.6f\n\n",
           (unsigned)e->frames[0], (unsigned)e->frames[1], (unsigned)e->frames[2], e->ccas,
           e->backoff_ns * 1e-6, e->p_frame_fail, e->p_success);
    model_print_table(stdout, rows, MODEL_SIDES, GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154);
}

static void print_lowpan_json(const struct lowpan_opts *l, const struct model_env *env,
                              const struct pqpan_802154_est_config *c,
                              const struct pqpan_802154_estimate *e,
                              const struct model_row rows[MODEL_SIDES])
{
    int s;
    printf("{\n  \"link\": \"802154\",\n");
    lowpan_print_assumptions_json(stdout, env, l, "  ");
    printf("  \"ieee802154\": {\n");
    printf("    \"addr\": \"%s\",\n    \"csma\": \"%s\",\n"
           "    \"busy\": %.4f,\n    \"octets_init\": %u,\n    \"octets_resp\": %u,\n"
           "    \"octets_fin\": %u,\n    \"frames_init\": %u,\n    \"frames_resp\": %u,\n"
           "    \"frames_fin\": %u,\n    \"expected_ccas\": %.4f,\n"
           "    \"expected_backoff_ms\": %.4f,\n    \"p_frame_access_failure\": %.6f,\n"
           "    \"p_success\": %.6f\n  },\n",
           l->short_addr ? "short" : "extended", l->contiki ? "contiki" : "ieee", l->busy,
           (unsigned)c->msg_octets[0], (unsigned)c->msg_octets[1], (unsigned)c->msg_octets[2],
           (unsigned)e->frames[0], (unsigned)e->frames[1], (unsigned)e->frames[2], e->ccas,
           e->backoff_ns * 1e-6, e->p_frame_fail, e->p_success);
    printf("  \"sides\": [\n");
    for (s = 0; s < MODEL_SIDES; s++) {
        model_print_json_row(stdout, &rows[s],
                             GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154, "    ");
        printf("%s\n", s + 1 < MODEL_SIDES ? "," : "");
    }
    printf("  ]\n}\n");
}

static int lowpan_estimate(const struct model_opts *m, const struct lowpan_opts *l,
                           const struct model_env *env)
{
    struct pqpan_802154_est_config c;
    struct pqpan_802154_estimate e;
    struct model_row rows[MODEL_SIDES];
    uint64_t cycles[PQPAN_OP_COUNT];
    unsigned all = GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL | GROUP_802154;
    int rc = lowpan_setup(&c, cycles, env, l, CMD);
    int s;
    if (rc != EXIT_OK) {
        return rc;
    }
    if (pqpan_802154_estimate_pqke(&e, &c, cycles) != PQPAN_OK) {
        return cli_usage_error(CMD, "802.15.4 configuration out of range");
    }
    rc = lowpan_fill(rows, env, l->kem, e.ledger, e.bits, e.latency_ns, CMD);
    if (rc != EXIT_OK) {
        return rc;
    }
    lowpan_fill_802154(rows, &e, &c, env);
    if (m->format == FORMAT_TABLE) {
        print_lowpan_table(l, env, &c, &e, rows);
    } else if (m->format == FORMAT_CSV) {
        model_print_csv_header(stdout, all);
        for (s = 0; s < MODEL_SIDES; s++) {
            model_print_csv_row(stdout, &rows[s], all);
        }
    } else {
        print_lowpan_json(l, env, &c, &e, rows);
    }
    return EXIT_OK;
}

static int run_lowpan(int argc, char **argv)
{
    struct model_opts m;
    struct lowpan_opts l;
    struct model_env *env;
    int rc = parse_lowpan(&m, &l, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &m, CMD);
    if (rc == EXIT_OK) {
        rc = lowpan_estimate(&m, &l, env);
    }
    free(env);
    return rc;
}

int cli_estimate_run(int argc, char **argv)
{
    struct estimate_opts o;
    struct model_env *env;
    struct model_row rows[MODEL_SIDES];
    unsigned all = GROUP_CONFIG | GROUP_HEADLINE | GROUP_DETAIL;
    int rc, s;

    if (cli_wants_help(argc, argv)) {
        cli_estimate_help(stdout);
        return EXIT_OK;
    }
    if (lowpan_link_requested(argc, argv)) {
        return run_lowpan(argc, argv);
    }
    rc = parse_args(&o, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    rc = model_env_new(&env, &o.m, CMD);
    if (rc == EXIT_OK) {
        rc = model_run(rows, env, o.l.kem, &o.l.cfg, CMD);
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
