/* Which option tables each command reads (opts.h), for `pqpan help --json` and
 * `pqpan help --options-md CMD`: the data the Python package, the web page and
 * docs/CLI.md's option lists take the options from. */
#include <string.h>

#include "run_advise.h"
#include "bench.h"
#include "commands.h"
#include "estimate.h"
#include "idle_battery.h"
#include "mesh_model.h"
#include "sweep.h"
#include "opts_registry.h"
#include "run_calibrate.h"
#include "run_compare.h"
#include "run_reproduce.h"
#include "run_idle.h"
#include "run_trace.h"

/* A table on a link ("ble", "802154") or both (NULL); ONLY: part of it. */
#define ALL(t, link) {&t, link, NULL}
#define ONLY(t, link, names) {&t, link, names}
/* The energy tables, on both links. */
#define ENERGY ALL(model_energy_table, NULL), ALL(model_ramp_table, NULL)
#define CYCLES ALL(model_crypto_table, NULL), ALL(model_gamma_table, NULL)

/* estimate: BLE, 802.15.4 (the pqpan protocol's variants on both) and BLE Mesh
 * provisioning (its own table and the BLE link options PB-GATT takes). */
static const struct cli_opt_group estimate_groups[] = {
    ALL(estimate_protocol_table, "ble"), ALL(link_opts_table, "ble"),
    ALL(link_pqke_table, "ble"),         ALL(link_setup_table, "ble"),
    ALL(estimate_bits_table, "ble"),
    ALL(lowpan_opts_table, "802154"),    ALL(lowpan_exchange_table, "802154"),
    ALL(link_pqke_table, "802154"),
    ALL(lowpan_busy_table, "802154"),    ALL(lowpan_chain_table, "802154"),
    ALL(mesh_opts_table, "ble-mesh"),    ONLY(link_opts_table, "ble-mesh", mesh_gatt_opts),
    ALL(mesh_net_opts_table, "ble-mesh"), ONLY(link_pqke_table, "ble-mesh", mesh_pqke_opts),
    ENERGY,                              CYCLES,
    ALL(cli_format_table, NULL),
};

static const struct cli_opt_group simulate_groups[] = {
    ALL(estimate_protocol_table, "ble"),  ALL(link_opts_table, "ble"),
    ALL(link_pqke_table, "ble"),          ALL(link_pqke_table, "802154"),
    ALL(link_setup_table, "ble"),         ALL(simulate_opts_table, "ble"),
    ALL(lowpan_opts_table, "802154"),     ALL(lowpan_exchange_table, "802154"),
    ALL(lowpan_chain_table, "802154"),    ALL(simulate_802154_table, "802154"),
    ALL(mesh_opts_table, "ble-mesh"),     ONLY(link_opts_table, "ble-mesh", mesh_gatt_opts),
    ALL(mesh_net_opts_table, "ble-mesh"), ONLY(link_pqke_table, "ble-mesh", mesh_pqke_opts),
    ALL(mesh_simulate_table, "ble-mesh"),
    ENERGY,
    CYCLES,                               ALL(cli_format_table, NULL),
};

static const struct cli_opt_group calibrate_groups[] = {
    ALL(calibrate_opts_table, NULL), ALL(link_opts_table, NULL),    ALL(link_pqke_table, NULL),
    ALL(link_setup_table, NULL),     ENERGY,                        ALL(model_crypto_table, NULL),
    ALL(cli_format_table, NULL),
};

static const struct cli_opt_group idle_groups[] = {
    ALL(idle_opts_table, "ble"),      ALL(idle_802154_table, "802154"),
    ALL(lowpan_opts_table, "802154"), ALL(lowpan_busy_table, "802154"),
    ALL(model_energy_table, NULL),    ALL(model_ramp_table, "ble"),
    ALL(cli_format_table, NULL),      ALL(idle_battery_table, NULL),
    ONLY(advise_device_table, NULL, idle_battery_advise_opts),
};

/* sweep --link ble-mesh: estimate's BLE Mesh options but --per, which is the sweep's own
 * (its Monte Carlo over BLE, refused on ble-mesh). */
static const char *const mesh_sweep_opts[] = {
    "--link", "--bearer", "--kem", "--hybrid", "--prov-alg", "--pbadv-interval-ms",
    "--setup", "--pbgatt-adv-interval-ms", "--pdu-transmissions", "--ack-transmissions",
    "--close-transmissions", "--scan-window-ms", "--scan-interval-ms", NULL};

/* sweep: its own options, then estimate's on each link (each a LIST there). */
static const struct cli_opt_group sweep_groups[] = {
    ALL(sweep_opts_table, NULL),          ALL(estimate_protocol_table, "ble"),
    ALL(link_opts_table, "ble"),          ALL(link_pqke_table, "ble"),
    ALL(link_pqke_table, "802154"),       ALL(link_setup_table, "ble"),
    ALL(lowpan_opts_table, "802154"),     ALL(lowpan_exchange_table, "802154"),
    ALL(lowpan_busy_table, "802154"),     ALL(lowpan_chain_table, "802154"),
    ONLY(mesh_opts_table, "ble-mesh", mesh_sweep_opts),
    ONLY(link_opts_table, "ble-mesh", mesh_gatt_opts),
    ENERGY,                               CYCLES,
};

/* compare: both links in one run, so no --link; of the 802.15.4 options only the radio
 * states. */
static const struct cli_opt_group compare_groups[] = {
    ALL(compare_opts_table, NULL),
    ALL(link_pqke_table, NULL),
    ONLY(lowpan_exchange_table, NULL, compare_exchange),
    ONLY(lowpan_opts_table, NULL, compare_backoff),
    ONLY(lowpan_chain_table, NULL, compare_forwarding),
    ENERGY,
    CYCLES,
    ALL(cli_format_table, NULL),
};

static const struct cli_opt_group reproduce_groups[] = {
    ALL(reproduce_opts_table, NULL), ENERGY, CYCLES, ALL(cli_format_table, NULL),
};

static const struct cli_opt_group trace_groups[] = {
    ALL(trace_opts_table, NULL), ALL(cli_format_table, NULL),
};

static const struct cli_opt_group acvp_groups[] = {
    ALL(acvp_opts_table, NULL), ALL(cli_format_table, NULL),
};

static const struct cli_opt_group profiles_groups[] = {
    ALL(cli_format_table, NULL),
};

/* bench: one entry per benchmark, each with its table and --format. */
static const struct cli_opt_group bench_kem_groups[] = {
    ALL(bench_kem_table, NULL), ALL(cli_format_table, NULL),
};
static const struct cli_opt_group bench_sig_groups[] = {
    ALL(bench_sig_table, NULL), ALL(cli_format_table, NULL),
};
static const struct cli_opt_group bench_ecdh_groups[] = {
    ALL(bench_ecdh_table, NULL), ALL(cli_format_table, NULL),
};

static const struct cli_opt_group sweep_merge_groups[] = {ALL(sweep_merge_table, NULL)};

/* kem, sig, ecdh: one table each, one entry per operation with the options it takes. */
static const struct cli_opt_group kem_keygen_groups[] = {ONLY(kem_opts_table, NULL, kem_keygen_opts)};
static const struct cli_opt_group kem_encaps_groups[] = {ONLY(kem_opts_table, NULL, kem_encaps_opts)};
static const struct cli_opt_group kem_decaps_groups[] = {ONLY(kem_opts_table, NULL, kem_decaps_opts)};
static const struct cli_opt_group sig_keygen_groups[] = {ONLY(sig_opts_table, NULL, sig_keygen_opts)};
static const struct cli_opt_group sig_sign_groups[] = {ONLY(sig_opts_table, NULL, sig_sign_opts)};
static const struct cli_opt_group sig_verify_groups[] = {ONLY(sig_opts_table, NULL, sig_verify_opts)};
static const struct cli_opt_group ecdh_keygen_groups[] = {ONLY(ecdh_opts_table, NULL, ecdh_keygen_opts)};
static const struct cli_opt_group ecdh_shared_groups[] = {ONLY(ecdh_opts_table, NULL, ecdh_shared_opts)};

/* advise: its own tables by help section, and parts of the shared ones; the search over
 * BLE and 802.15.4 (a rekey on an open link, both searched with --link both) on each of
 * those links, BLE Mesh provisioning (--link ble-mesh) with its own table and the part of
 * advise's it takes (advise_mesh_opt_row). */
#define ADVISE_ON(link)                                                                     \
    ALL(advise_device_table, link), ALL(lowpan_busy_table, link),                           \
        ONLY(lowpan_opts_table, link, advise_lowpan_link),                                  \
        ONLY(lowpan_exchange_table, link, advise_lowpan_exchange),                          \
        ALL(advise_constraint_table, link), ALL(advise_idle_table, link),                   \
        ALL(advise_peer_table, link)
static const char *const advise_mesh_constraints[] = {"--min-level", "--max-latency-ms", NULL};
static const char *const advise_mesh_output[] = {"--top", "--format", NULL};
static const struct cli_opt_group advise_groups[] = {
    ALL(model_energy_table, NULL),
    ADVISE_ON("ble"),
    ADVISE_ON("802154"),
    ALL(model_ramp_table, NULL),
    ALL(model_crypto_table, NULL),
    ONLY(model_gamma_table, NULL, advise_gamma),
    ALL(advise_output_table, "ble"),
    ALL(advise_output_table, "802154"),
    ALL(advise_mesh_table, "ble-mesh"),
    ONLY(advise_constraint_table, "ble-mesh", advise_mesh_constraints),
    ONLY(advise_output_table, "ble-mesh", advise_mesh_output),
};

#define GROUPS(g) g, sizeof g / sizeof g[0]

const struct cli_cmd_opts cli_cmd_opts[] = {
    {"estimate", GROUPS(estimate_groups), 1},
    {"simulate", GROUPS(simulate_groups), 1},
    {"calibrate", GROUPS(calibrate_groups), 1},
    {"idle", GROUPS(idle_groups), 1},
    {"sweep", GROUPS(sweep_groups), 1},
    {"compare", GROUPS(compare_groups), 1},
    {"advise", GROUPS(advise_groups), 1},
    {"reproduce", GROUPS(reproduce_groups), 1},
    {"trace", GROUPS(trace_groups), 1},
    {"acvp", GROUPS(acvp_groups), 1},
    {"profiles", GROUPS(profiles_groups), 1},
    {"bench kem", GROUPS(bench_kem_groups), 1},
    {"bench sig", GROUPS(bench_sig_groups), 1},
    {"bench ecdh", GROUPS(bench_ecdh_groups), 1},
    {"sweep merge", GROUPS(sweep_merge_groups), 1},
    {"kem keygen", GROUPS(kem_keygen_groups), 1},
    {"kem encaps", GROUPS(kem_encaps_groups), 1},
    {"kem decaps", GROUPS(kem_decaps_groups), 1},
    {"sig keygen", GROUPS(sig_keygen_groups), 1},
    {"sig sign", GROUPS(sig_sign_groups), 1},
    {"sig verify", GROUPS(sig_verify_groups), 1},
    {"ecdh keygen", GROUPS(ecdh_keygen_groups), 1},
    {"ecdh shared", GROUPS(ecdh_shared_groups), 1},
    {NULL, NULL, 0, 0},
};

/* Whether registry row name is command cmd or one of its operations ("kem keygen"). */
static int of_command(const char *name, const char *cmd)
{
    size_t n = strlen(cmd);
    return strncmp(name, cmd, n) == 0 && (name[n] == '\0' || name[n] == ' ');
}

const char *cli_option_suggestion(struct cli_suggest *s, const char *cmd, const char *link,
                                  const char *opt)
{
    const struct cli_cmd_opts *c;
    size_t g, k;
    cli_suggest_init(s, opt);
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        for (g = 0; of_command(c->cmd, cmd) && g < c->n; g++) {
            const struct cli_opt_group *grp = &c->groups[g];
            if (link != NULL && grp->link != NULL && strcmp(grp->link, link) != 0) {
                continue;
            }
            for (k = 0; k < grp->table->n; k++) {
                if (cli_opt_listed(grp->only, grp->table->opts[k].name)) {
                    cli_suggest_add(s, grp->table->opts[k].name);
                }
            }
        }
    }
    cli_suggest_add(s, "--help");
    return cli_suggest_text(s);
}

int cli_unknown_option(const char *cmd, const char *link, const char *opt)
{
    struct cli_suggest s;
    int lowpan = link != NULL && strcmp(link, "802154") == 0;
    return cli_usage_error(cmd, "unknown option%s '%s'%s", lowpan ? " for --link 802154" : "",
                           opt, cli_option_suggestion(&s, cmd, link, opt));
}

const struct cli_cmd_opts *cli_cmd_opts_find(const char *cmd)
{
    const struct cli_cmd_opts *c;
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        if (strcmp(c->cmd, cmd) == 0) {
            return c;
        }
    }
    return NULL;
}

/* The library's table of defaults as the "defaults" member of `help --json`. */
static void defaults_json(FILE *out)
{
    int id;
    fputs("\"defaults\": [\n", out);
    for (id = PQPAN_DEFAULT_NONE + 1; id < PQPAN_DEFAULT_COUNT; id++) {
        const struct pqpan_default *d = pqpan_default_get((enum pqpan_default_id)id);
        fputs("  {\"option\": ", out);
        model_json_string(out, d->option);
        fputs(", \"value\": ", out);
        cli_json_string_or_null(out, d->value);
        fputs(", \"note\": ", out);
        cli_json_string_or_null(out, d->note);
        fputs(", \"why\": ", out);
        model_json_string(out, d->why);
        fputs(id + 1 < PQPAN_DEFAULT_COUNT ? "},\n" : "}\n", out);
    }
    fputs("]", out);
}

void cli_defaults_md(FILE *out)
{
    int id;
    fputs("| option | default | why |\n|---|---|---|\n", out);
    for (id = PQPAN_DEFAULT_NONE + 1; id < PQPAN_DEFAULT_COUNT; id++) {
        const struct pqpan_default *d = pqpan_default_get((enum pqpan_default_id)id);
        fprintf(out, "| `%s` | %s%s%s | ", d->option, d->value != NULL ? "`" : "",
                d->value != NULL ? d->value : d->note, d->value != NULL ? "`" : "");
        cli_md_cell(out, d->why);
        fputs(" |\n", out);
    }
}

void cli_cmd_opts_json(FILE *out)
{
    const struct cli_cmd_opts *c;
    size_t g;
    fputs("{\"commands\": [\n", out);
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        fprintf(out, "  {\"name\": \"%s\", \"complete\": %s, \"groups\": [\n", c->cmd,
                c->complete ? "true" : "false");
        for (g = 0; g < c->n; g++) {
            fprintf(out, "    {\"link\": %s%s%s, \"table\":\n", c->groups[g].link ? "\"" : "",
                    c->groups[g].link ? c->groups[g].link : "null", c->groups[g].link ? "\"" : "");
            cli_opt_table_json(out, c->groups[g].table, c->groups[g].only, "      ");
            fputs(g + 1 < c->n ? "},\n" : "}\n", out);
        }
        fputs(c[1].cmd != NULL ? "  ]},\n" : "  ]}\n", out);
    }
    fputs("],\n", out);
    defaults_json(out);
    fputs("}\n", out);
}

/* The table called id in any command's groups, or NULL. */
static const struct cli_opt_table *table_by_id(const char *id)
{
    const struct cli_cmd_opts *c;
    size_t g;
    for (c = cli_cmd_opts; c->cmd != NULL; c++) {
        for (g = 0; g < c->n; g++) {
            if (strcmp(c->groups[g].table->id, id) == 0) {
                return c->groups[g].table;
            }
        }
    }
    return NULL;
}

/* The table of "ID" or "ID:--a,--b" (its options --a and --b), and in *only the names
 * after the ':' (NULL: all). NULL for an unknown id. */
static const struct cli_opt_table *table_of_arg(const char *arg, const char **only)
{
    char id[64];
    const char *colon = strchr(arg, ':');
    size_t len = colon != NULL ? (size_t)(colon - arg) : strlen(arg);
    if (len >= sizeof id) {
        return NULL;
    }
    memcpy(id, arg, len);
    id[len] = '\0';
    *only = colon != NULL ? colon + 1 : NULL;
    return table_by_id(id);
}

/* Every group of command c, on every link, as rows. */
/* Whether group g of c repeats rows an earlier group listed: the same table, whole or with
 * the same part (a command that takes a table on two links lists its rows once). */
static int listed_before(const struct cli_cmd_opts *c, size_t g)
{
    size_t k;
    for (k = 0; k < g; k++) {
        if (c->groups[k].table == c->groups[g].table &&
            (c->groups[k].only == NULL || c->groups[k].only == c->groups[g].only)) {
            return 1;
        }
    }
    return 0;
}

static void command_md(FILE *out, const struct cli_cmd_opts *c)
{
    size_t g;
    for (g = 0; g < c->n; g++) {
        if (!listed_before(c, g)) {
            cli_opt_table_md(out, c->groups[g].table, NULL, c->groups[g].only);
        }
    }
}

int cli_opts_md(FILE *out, int n, char **ids)
{
    const char *only;
    int k;
    for (k = 0; k < n; k++) {
        if (table_of_arg(ids[k], &only) == NULL && cli_cmd_opts_find(ids[k]) == NULL) {
            return -1;
        }
    }
    cli_opt_md_header(out);
    for (k = 0; k < n; k++) {
        const struct cli_opt_table *t = table_of_arg(ids[k], &only);
        if (t != NULL) {
            cli_opt_table_md(out, t, only, NULL);
        } else {
            command_md(out, cli_cmd_opts_find(ids[k]));
        }
    }
    return 0;
}
