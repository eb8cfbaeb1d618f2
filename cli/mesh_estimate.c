/* pqpan estimate --link ble-mesh: BLE Mesh provisioning over PB-ADV or PB-GATT, energy per
 * side (provisioner, device, total) and latency, in table, CSV or JSON from one field
 * table (STYLE.md habit 10). */
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "mesh_model.h"
#include "opts_registry.h"

#define CMD "estimate"

/* Which bearer a field belongs to. */
#define ON_ADV 1u
#define ON_GATT 2u
#define ON_BOTH (ON_ADV | ON_GATT)

enum field_kind { FIELD_REAL, FIELD_COUNT };

struct field {
    const char *name; /* CSV / JSON name, unit in it */
    size_t offset;    /* in struct mesh_row */
    enum field_kind kind;
    unsigned bearers;
};

#define REAL(n, b) {#n, offsetof(struct mesh_row, n), FIELD_REAL, b}
#define COUNT(n, b) {#n, offsetof(struct mesh_row, n), FIELD_COUNT, b}

static const struct field fields[] = {
    REAL(e_comp_uj, ON_BOTH),      REAL(e_comm_uj, ON_BOTH),      REAL(e_total_uj, ON_BOTH),
    REAL(comm_share_pct, ON_BOTH), REAL(e_comm_bits_uj, ON_BOTH), REAL(latency_ms, ON_BOTH),
    REAL(t_tx_ms, ON_BOTH),        REAL(t_rx_ms, ON_BOTH),        REAL(t_crypto_ms, ON_BOTH),
    COUNT(pdus_tx, ON_BOTH),       COUNT(pdus_rx, ON_BOTH),       COUNT(bytes_tx, ON_BOTH),
    COUNT(bytes_rx, ON_BOTH),      COUNT(segments, ON_ADV),       COUNT(adv_events, ON_ADV),
    COUNT(proxy_pdus, ON_GATT),
};

#define FIELDS (sizeof fields / sizeof fields[0])

static unsigned bearer_bit(int bearer)
{
    return bearer == MESH_BEARER_PB_GATT ? ON_GATT : ON_ADV;
}

static void print_value(FILE *f, const struct mesh_row *r, const struct field *fl, int width)
{
    const char *p = (const char *)r + fl->offset;
    if (fl->kind == FIELD_REAL) {
        double v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%*.3f", width, v);
    } else {
        unsigned long long v;
        memcpy(&v, p, sizeof v);
        fprintf(f, "%*llu", width, v);
    }
}

static const char *variant_of(const struct mesh_result *r)
{
    return pqpan_mesh_prov_variant_name(r->keys.variant);
}

static void csv_rows(FILE *f, const struct mesh_opts *o, const struct mesh_result *r,
                     const struct mesh_sim_info *sim)
{
    size_t k;
    int s;
    unsigned b = bearer_bit(o->bearer);
    fputs("side,bearer,kem,hybrid,variant,prov_alg", f);
    for (k = 0; k < FIELDS; k++) {
        if (fields[k].bearers & b) {
            fprintf(f, ",%s", fields[k].name);
        }
    }
    fputs(sim != NULL ? ",keys_equal\n" : "\n", f);
    for (s = 0; s < MESH_SIDES; s++) {
        fprintf(f, "%s,%s,%s,%s,%s,%s", r->rows[s].side, o->bearer == MESH_BEARER_PB_GATT ? "pb-gatt" : "pb-adv",
                o->kem, o->hybrid ? "p256" : "none", variant_of(r),
                pqpan_mesh_prov_alg_name(r->keys.alg));
        for (k = 0; k < FIELDS; k++) {
            if (fields[k].bearers & b) {
                fputc(',', f);
                print_value(f, &r->rows[s], &fields[k], 0);
            }
        }
        if (sim != NULL) {
            fprintf(f, ",%s", sim->keys_equal ? "yes" : "no");
        }
        fputc('\n', f);
    }
}

void mesh_print_rows_csv(FILE *f, const struct mesh_opts *o, const struct mesh_result *r)
{
    csv_rows(f, o, r, NULL);
}

/* The bearer's options as text. */
static void print_bearer_line(const struct mesh_opts *o, const struct mesh_result *r)
{
    if (o->bearer == MESH_BEARER_PB_GATT) {
        printf("  PB-GATT: the device the peripheral and GATT server of the Mesh Provisioning "
               "Service (MshPRT v1.1 §7.1),\n  LE %s, ATT_MTU %u, LL %u octets, CI %.2f ms, "
               "replies in the %s event; Proxy PDUs as ATT Write\n  Commands / Notifications "
               "(§6.3.1 SAR); the connection's set-up not included\n",
               pqpan_ble_phy_name(o->gatt.cfg.phy), (unsigned)o->gatt.cfg.att_mtu,
               (unsigned)o->gatt.cfg.ll_octets, (double)o->gatt.cfg.ci_ns * 1e-6,
               o->gatt.cfg.same_event_reply ? "same" : "next");
        return;
    }
    printf("  PB-ADV: LE 1M ADV_NONCONN_IND on 37, 38, 39; advInterval %.3f ms (a side's events "
           "%.3f ms apart\n  with the mean advDelay); transmissions: %u per segment, %u per "
           "Transaction Ack / Link Ack,\n  %u of Link Close; %u transactions (largest %u octets, "
           "MshPRT v1.1 §5.3.1); last event ends at %.3f ms\n",
           (double)o->adv_interval_ns * 1e-6,
           (double)(o->adv_interval_ns + PQPAN_BLE_ADV_DELAY_MAX_NS / 2u) * 1e-6,
           (unsigned)o->pdu_transmissions, (unsigned)o->ack_transmissions,
           (unsigned)o->close_transmissions, (unsigned)r->transactions,
           (unsigned)PQPAN_MESH_PBADV_TRANSACTION_MAX, r->span_ms);
}

/* The simulated run's outcome (simulate only). */
static void print_sim_line(const struct mesh_sim_info *sim)
{
    size_t i;
    printf("  simulated (--seed %llu): keys_equal %s (SessionKey, DeviceKey, NetKey), "
           "complete %s, failed code %u,\n  %u advertising PDUs; DeviceKey ",
           (unsigned long long)sim->seed, sim->keys_equal ? "yes" : "no",
           sim->complete ? "yes" : "no", (unsigned)sim->failed_code, (unsigned)sim->packets);
    for (i = 0; i < sizeof sim->device_key; i++) {
        printf("%02x", sim->device_key[i]);
    }
    putchar('\n');
}

static void print_table(const struct mesh_opts *o, const struct model_env *env,
                        const struct mesh_result *r, const char *cmd,
                        const struct mesh_sim_info *sim)
{
    size_t k;
    int s;
    unsigned b = bearer_bit(o->bearer);
    printf("pqpan %s: BLE Mesh provisioning over %s, %s%s (variant %s, %s values)\n", cmd,
           mesh_bearer_name(o->bearer), o->kem, o->hybrid ? " + P-256" : "", variant_of(r),
           pqpan_mesh_prov_alg_name(r->keys.alg));
    print_bearer_line(o, r);
    printf("  Public Key PDUs: provisioner %u, device %u (docs/PROTOCOL.md §10); No OOB "
           "authentication, zero loss;\n  both sides priced with the profile below; P-256 key "
           "pair per --lesc-keypair (%s)\n",
           (unsigned)r->pk_parts[0], (unsigned)r->pk_parts[1],
           env->lesc_keypair == MODEL_LESC_KEYPAIR_REUSED ? "reused" : "fresh");
    if (sim != NULL) {
        print_sim_line(sim);
    }
    printf("  energy: events accounting (every state the ledger holds%s; no gamma on it);\n"
           "  e_comm_bits_uj: TX and RX time x gamma_comm\n",
           o->bearer == MESH_BEARER_PB_GATT ? "" : ", continuous scanning included");
    model_print_profile_line(stdout, env, "  ");
    printf("  currents: %s table, TX %d dBm; ramp-up %s\n", pqpan_current_table_name(env->table),
           env->eopts.tx_dbm, env->ramp_normal ? "normal" : "fast");
    model_print_derived(stdout, env, model_radio_of(o->gatt.cfg.phy), "  ");
    model_print_crypto_gamma(stdout, env, "  ");
    printf("\n%-16s", "field");
    for (s = 0; s < MESH_SIDES; s++) {
        printf("  %13s", r->rows[s].side);
    }
    putchar('\n');
    for (k = 0; k < FIELDS; k++) {
        if ((fields[k].bearers & b) == 0) {
            continue;
        }
        printf("%-16s", fields[k].name);
        for (s = 0; s < MESH_SIDES; s++) {
            fputs("  ", stdout);
            print_value(stdout, &r->rows[s], &fields[k], 13);
        }
        putchar('\n');
    }
}

static void print_json_params(const struct mesh_opts *o, const struct mesh_result *r)
{
    printf("  \"link\": \"ble-mesh\",\n  \"bearer\": \"%s\",\n  \"kem\": \"%s\",\n"
           "  \"hybrid\": \"%s\",\n  \"variant\": \"%s\",\n  \"prov_alg\": \"%s\",\n"
           "  \"phy\": \"%s\",\n",
           o->bearer == MESH_BEARER_PB_GATT ? "pb-gatt" : "pb-adv", o->kem,
           o->hybrid ? "p256" : "none", variant_of(r), pqpan_mesh_prov_alg_name(r->keys.alg),
           pqpan_ble_phy_name(o->gatt.cfg.phy));
    if (o->bearer == MESH_BEARER_PB_GATT) {
        printf("  \"att_mtu\": %u,\n  \"ll_octets\": %u,\n  \"ci_ms\": %.3f,\n"
               "  \"reply\": \"%s\",\n",
               (unsigned)o->gatt.cfg.att_mtu, (unsigned)o->gatt.cfg.ll_octets,
               (double)o->gatt.cfg.ci_ns * 1e-6,
               o->gatt.cfg.same_event_reply ? "same-event" : "next-event");
    } else {
        printf("  \"adv_interval_ms\": %.3f,\n  \"pdu_transmissions\": %u,\n"
               "  \"ack_transmissions\": %u,\n  \"close_transmissions\": %u,\n"
               "  \"transactions\": %u,\n  \"transaction_max_octets\": %u,\n"
               "  \"span_ms\": %.3f,\n",
               (double)o->adv_interval_ns * 1e-6, (unsigned)o->pdu_transmissions,
               (unsigned)o->ack_transmissions, (unsigned)o->close_transmissions,
               (unsigned)r->transactions, (unsigned)PQPAN_MESH_PBADV_TRANSACTION_MAX,
               r->span_ms);
    }
    printf("  \"public_key_pdus_provisioner\": %u,\n  \"public_key_pdus_device\": %u,\n"
           "  \"e_comm_accounting\": \"events\",\n",
           (unsigned)r->pk_parts[0], (unsigned)r->pk_parts[1]);
}

static void print_json(const struct mesh_opts *o, const struct model_env *env,
                       const struct mesh_result *r, const struct mesh_sim_info *sim)
{
    size_t k;
    int s;
    unsigned b = bearer_bit(o->bearer);
    printf("{\n");
    print_json_params(o, r);
    if (sim != NULL) {
        printf("  \"seed\": %llu,\n  \"keys_equal\": %s,\n  \"complete\": %s,\n"
               "  \"failed_code\": %u,\n  \"adv_pdus\": %u,\n",
               (unsigned long long)sim->seed, sim->keys_equal ? "true" : "false",
               sim->complete ? "true" : "false", (unsigned)sim->failed_code,
               (unsigned)sim->packets);
    }
    model_print_assumptions_json(stdout, env, model_radio_of(o->gatt.cfg.phy), "  ");
    printf("  \"sides\": [\n");
    for (s = 0; s < MESH_SIDES; s++) {
        printf("    {\"side\": \"%s\"", r->rows[s].side);
        for (k = 0; k < FIELDS; k++) {
            if (fields[k].bearers & b) {
                printf(", \"%s\": ", fields[k].name);
                print_value(stdout, &r->rows[s], &fields[k], 0);
            }
        }
        printf("}%s\n", s + 1 < MESH_SIDES ? "," : "");
    }
    printf("  ]\n}\n");
}

static int parse_args(struct mesh_opts *o, struct model_opts *m, int argc, char **argv)
{
    int i;
    mesh_opts_init(o);
    model_opts_init(m);
    for (i = 1; i < argc; i++) {
        int rc = model_opts_parse(m, CMD, argc, argv, &i);
        if (rc == 0) {
            rc = mesh_opts_parse(o, CMD, argc, argv, &i);
        }
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            struct cli_suggest sg;
            return cli_usage_error(CMD, "unknown option for --link ble-mesh '%s'%s", argv[i],
                                   cli_option_suggestion(&sg, CMD, "ble-mesh", argv[i]));
        }
    }
    return mesh_opts_check(o, CMD);
}

int mesh_estimate_run(int argc, char **argv)
{
    static struct mesh_result r;
    struct mesh_opts o;
    struct model_opts m;
    struct model_env *env = NULL;
    struct cli_msg msg;
    int rc = parse_args(&o, &m, argc, argv);
    if (rc == EXIT_OK) {
        rc = model_env_new(&env, &m, CMD);
    }
    if (rc == EXIT_OK) {
        rc = cli_msg_report(CMD, mesh_estimate(&r, env, &o, &msg), &msg);
    }
    if (rc == EXIT_OK) {
        mesh_print(&o, env, &r, m.format, CMD, NULL);
    }
    free(env);
    return rc;
}

void mesh_print(const struct mesh_opts *o, const struct model_env *env,
                const struct mesh_result *r, enum cli_format format, const char *cmd,
                const struct mesh_sim_info *sim)
{
    if (format == FORMAT_TABLE) {
        print_table(o, env, r, cmd, sim);
    } else if (format == FORMAT_CSV) {
        csv_rows(stdout, o, r, sim);
    } else {
        print_json(o, env, r, sim);
    }
}
