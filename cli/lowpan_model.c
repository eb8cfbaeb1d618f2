/* The PQKE over 6LoWPAN / IEEE 802.15.4 for the CLI (see lowpan_model.h). */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "link_opts.h"
#include "lowpan_model.h"
#include "pqpan/kem.h"
#include "pqpan/multihop154.h"
#include "pqpan/pcap.h"
#include "pqpan/pqke.h"
#include "pqpan/sim.h"
#include "pqpan/sim154.h"
#include "opts_registry.h"


void lowpan_opts_help(FILE *out)
{
    cli_opt_rows_help(out, &lowpan_opts_table);
    cli_opt_rows_help(out, &lowpan_exchange_table);
}

int lowpan_link_requested(int argc, char **argv)
{
    return cli_link_requested(argc, argv, "802154");
}

int lowpan_chain_requested(int argc, char **argv)
{
    int i;
    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--hops") == 0 && strcmp(argv[i + 1], "1") != 0) {
            return 1;
        }
    }
    return 0;
}

int lowpan_opts_parse(struct lowpan_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int rc = cli_opt_take(&lowpan_opts_table, o, cmd, argc, argv, i);
    if (rc == 0) {
        rc = cli_opt_take(&lowpan_exchange_table, o, cmd, argc, argv, i);
    }
    return rc != 0 ? rc : cli_opt_take(&lowpan_busy_table, o, cmd, argc, argv, i);
}

int lowpan_only_option(const char *opt, int sim)
{
    return (cli_opt_find(&lowpan_opts_table, opt) != NULL && strcmp(opt, "--link") != 0) ||
           (cli_opt_find(&lowpan_exchange_table, opt) != NULL && strcmp(opt, "--kem") != 0) ||
           cli_opt_find(&lowpan_busy_table, opt) != NULL ||
           (sim && cli_opt_find(&simulate_802154_table, opt) != NULL &&
            cli_opt_find(&simulate_opts_table, opt) == NULL);
}

int lowpan_unknown_option(const char *cmd, const char *opt, int sim)
{
    if (lowpan_only_option(opt, sim)) {
        return cli_usage_error(cmd, "%s is an option of the IEEE 802.15.4 link: add --link 802154",
                               opt);
    }
    return cli_unknown_option(cmd, "ble", opt);
}


int lowpan_pqke_usable(const struct lowpan_opts *o, const char *cmd)
{
    struct cli_msg msg;
    if (model_pqke_check(o->pqke.mode, o->pqke.sig, &msg) != EXIT_OK) {
        return cli_usage_error(cmd, "%s", msg.text);
    }
    return EXIT_OK;
}
