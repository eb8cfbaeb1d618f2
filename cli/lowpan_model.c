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

void lowpan_print_node_row(enum cli_format format, unsigned printed, const struct pqpan_run_row *row)
{
    const struct pqpan_run_chain_node *n = row->data;
    size_t k;
    if (format == FORMAT_TABLE) {
        if (printed == 0) {
            printf("\nnode  role        e_total_events_uj  e_comm_events_uj   t_tx_ms   t_rx_ms\n");
        }
        printf("%4u  %-10s  %17.3f  %16.3f  %8.3f  %8.3f\n", n->node, n->role,
               n->e_total_events_uj, n->e_comm_events_uj, n->t_tx_ms, n->t_rx_ms);
    } else if (format == FORMAT_CSV) {
        for (k = 0; printed == 0 && k < row->n_fields; k++) {
            printf("%s%s", row->fields[k].name, k + 1 < row->n_fields ? "," : "\n");
        }
        printf("%u,%s,%.3f,%.3f,%.3f,%.3f\n", n->node, n->role, n->e_total_events_uj,
               n->e_comm_events_uj, n->t_tx_ms, n->t_rx_ms);
    } else {
        printf("%s    {", printed == 0 ? "  \"nodes\": [\n" : ",\n");
        for (k = 0; k < row->n_fields; k++) {
            printf("%s\"%s\": ", k > 0 ? ", " : "", row->fields[k].name);
            model_json_value(stdout, &row->fields[k], &row->values[k]);
        }
        putchar('}');
    }
}

int lowpan_opts_parse(struct lowpan_opts *o, const char *cmd, int argc, char **argv, int *i)
{
    int rc = cli_opt_take(&lowpan_opts_table, o, cmd, argc, argv, i);
    if (rc == 0) {
        rc = cli_opt_take(&lowpan_exchange_table, o, cmd, argc, argv, i);
    }
    return rc != 0 ? rc : cli_opt_take(&lowpan_busy_table, o, cmd, argc, argv, i);
}

/* Whether opt is an option of --link 802154 only (estimate's, and with sim set also
 * simulate's): a BLE run names it in its message instead of calling it unknown. */
static int lowpan_only_option(const char *opt, int sim)
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

