/* The BLE link options on the command line: argv, help, and the GATT lines of the
 * assumptions (the tables and checks are the run layer's, src/run/link.c). */
#include <stdio.h>
#include <string.h>

#include "ble_model.h"
#include "link_opts.h"
#include "opts.h"

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

