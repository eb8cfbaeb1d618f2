/* Which option tables each command reads (opts.h), for `pqpan help --json` and
 * `pqpan help --options-md CMD`: the data the Python package, the web page and
 * docs/CLI.md's option lists take the options from. */
#include <string.h>

#include "commands.h"
#include "estimate.h"
#include "sweep.h"
#include "opts_registry.h"

static const struct cli_opt_group estimate_groups[] = {
    {&estimate_protocol_table, "ble"}, {&link_opts_table, "ble"},
    {&link_pqke_table, NULL},          {&link_setup_table, "ble"},
    {&lowpan_opts_table, "802154"},    {&lowpan_exchange_table, "802154"},
    {&lowpan_busy_table, "802154"},
    {&model_energy_table, NULL},       {&model_ramp_table, NULL},
    {&model_crypto_table, NULL},
    {&model_gamma_table, NULL},        {&model_format_table, NULL},
};

static const struct cli_opt_group simulate_groups[] = {
    {&link_opts_table, "ble"},     {&link_pqke_table, NULL},   {&link_setup_table, "ble"},
    {&simulate_opts_table, "ble"}, {&lowpan_opts_table, "802154"},
    {&lowpan_exchange_table, "802154"},
    {&simulate_802154_table, "802154"}, {&model_energy_table, NULL}, {&model_ramp_table, NULL},
    {&model_crypto_table, NULL},   {&model_gamma_table, NULL},     {&model_format_table, NULL},
};

static const struct cli_opt_group calibrate_groups[] = {
    {&calibrate_opts_table, NULL}, {&link_opts_table, NULL},    {&link_pqke_table, NULL},
    {&link_setup_table, NULL},     {&model_energy_table, NULL}, {&model_ramp_table, NULL},
    {&model_crypto_table, NULL},
    {&model_format_table, NULL},
};

static const struct cli_opt_group idle_groups[] = {
    {&idle_opts_table, "ble"},       {&idle_802154_table, "802154"},
    {&lowpan_opts_table, "802154"},  {&lowpan_busy_table, "802154"},
    {&model_energy_table, NULL},     {&model_ramp_table, "ble"},
    {&model_format_table, NULL},
};

/* sweep: its own options, then estimate's (each a LIST there). */
static const struct cli_opt_group sweep_groups[] = {
    {&sweep_opts_table, NULL},         {&estimate_protocol_table, "ble"},
    {&link_opts_table, "ble"},         {&link_pqke_table, NULL},
    {&link_setup_table, "ble"},        {&lowpan_opts_table, "802154"},
    {&lowpan_exchange_table, "802154"}, {&lowpan_busy_table, "802154"},
    {&model_energy_table, NULL},       {&model_ramp_table, NULL},
    {&model_crypto_table, NULL},       {&model_gamma_table, NULL},
};

#define GROUPS(g) g, sizeof g / sizeof g[0]

const struct cli_cmd_opts cli_cmd_opts[] = {
    {"estimate", GROUPS(estimate_groups), 1},
    {"simulate", GROUPS(simulate_groups), 1},
    {"calibrate", GROUPS(calibrate_groups), 1},
    {"idle", GROUPS(idle_groups), 1},
    {"sweep", GROUPS(sweep_groups), 1},
    {NULL, NULL, 0, 0},
};

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
            cli_opt_table_json(out, c->groups[g].table, "      ");
            fputs(g + 1 < c->n ? "},\n" : "}\n", out);
        }
        fputs(c[1].cmd != NULL ? "  ]},\n" : "  ]}\n", out);
    }
    fputs("]}\n", out);
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

int cli_opts_md(FILE *out, int n, char **ids)
{
    int k;
    for (k = 0; k < n; k++) {
        if (table_by_id(ids[k]) == NULL) {
            return -1;
        }
    }
    cli_opt_md_header(out);
    for (k = 0; k < n; k++) {
        cli_opt_table_md(out, table_by_id(ids[k]));
    }
    return 0;
}
