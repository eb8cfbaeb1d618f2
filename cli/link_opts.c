/* The BLE link options on the command line: argv, help, and the GATT lines of the
 * assumptions (the tables and checks are the run layer's, src/run/link.c). */
#include <stdio.h>
#include <string.h>

#include "ble_model.h"
#include "link_opts.h"
#include "opts.h"

void link_print_gatt(FILE *out, const struct pqpan_ble_config *cfg, const char *kem,
                     const char *prefix)
{
    struct cli_msg why;
    char words[CLI_MSG_MAX];
    if (strcmp(kem, MODEL_LESC_NAME) == 0) {
        return;
    }
    link_gatt_words(words, sizeof words, cfg);
    fprintf(out, "%sGATT: the %s is the server, the %s the client (Core v5.4 Vol 3 Part G §2.2):\n"
                 "%s  %s\n",
            prefix, link_role_word(cfg->gatt_server),
            link_role_word(cfg->gatt_server == PQPAN_BLE_CENTRAL ? PQPAN_BLE_PERIPHERAL
                                                            : PQPAN_BLE_CENTRAL),
            prefix, words);
    if (link_gatt_reason(cfg, kem, &why) != EXIT_OK) {
        fprintf(out, "%s  unbuildable, priced as --allow-unbuildable asks: %s\n", prefix,
                why.text);
    }
}

void link_opts_help(FILE *out)
{
    cli_opt_table_help(out, &link_opts_table);
    cli_opt_rows_help(out, &link_pqke_table);
    cli_opt_table_help(out, &link_setup_table);
}

int link_pqke_parse(struct link_pqke *p, const char *cmd, int argc, char **argv, int *i)
{
    return cli_opt_take(&link_pqke_table, p, cmd, argc, argv, i);
}

int link_opts_parse(struct link_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int rc = link_pqke_parse(&o->pqke, cmd, argc, argv, i);
    if (rc != 0) {
        o->cfg.pqke_mode = o->pqke.mode;
        o->cfg.pqke_sig = o->pqke.sig;
        o->cfg.pqke_hybrid = o->pqke.hybrid;
        return rc;
    }
    rc = cli_opt_take(&link_opts_table, o, cmd, argc, argv, i);
    return rc != 0 ? rc : cli_opt_take(&link_setup_table, o, cmd, argc, argv, i);
}

