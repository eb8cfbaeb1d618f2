/* pqpan estimate / simulate --link ble-mesh: argv becomes a request of pqpan_run (the run
 * layer's src/run/run_mesh.c runs it), the rows it gives back (the notes, one MESH row per
 * side) are printed as a table, CSV or JSON through the rows' field table. */
#include <string.h>

#include "commands.h"
#include "mesh_cli.h"
#include "mesh_model.h"
#include "opts_registry.h"
#include "pqpan/run.h"

int mesh_link_requested(int argc, char **argv)
{
    return cli_link_requested(argc, argv, "ble-mesh");
}

void mesh_opts_help(FILE *out)
{
    cli_opt_table_help(out, &mesh_opts_table);
    fprintf(out, "  PB-GATT takes the BLE link's --phy, --att-mtu, --ll-octets, --ci-ms and "
                 "--reply\n  (PB-ADV: --phy 1M only).\n");
    cli_opt_table_help(out, &mesh_net_opts_table);
    fprintf(out, "  --bearer network also takes pqpan's --auth and --sig (and --hybrid p256).\n");
}

/* argv as a request. EXIT_OK, or EXIT_USAGE after a message. */
static int request_of(struct pqpan_run_opt *req, size_t *n, const char *cmd, int simulated,
                      int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = mesh_opt_row(simulated, argv[i]);
        if (o == NULL) {
            struct cli_suggest sg;
            return cli_usage_error(cmd, "unknown option for --link ble-mesh '%s'%s", argv[i],
                                   cli_option_suggestion(&sg, cmd, "ble-mesh", argv[i]));
        }
        rc = cli_request_add(req, n, o, cmd, argc, argv, &i);
    }
    return rc;
}

struct printer {
    const char *cmd;
    enum cli_format format;
    struct pqpan_run_mesh_row rows[MESH_ROWS_MAX];
    int n;
};

/* Field f of r in width; a number without a value (a statistic of no completed run) as
 * none: "-" in a table, "" in CSV, null in JSON. */
static void print_value(const struct pqpan_run_field *f, const struct pqpan_run_mesh_row *r,
                        int width, const char *none)
{
    struct pqpan_run_value v;
    pqpan_run_record_value(&v, f, r);
    if (!v.known && v.type != PQPAN_RUN_TEXT) {
        printf("%*s", width, none);
    } else if (v.type == PQPAN_RUN_REAL) {
        printf("%*.*f", width, f->decimals, v.x);
    } else if (v.type == PQPAN_RUN_COUNT) {
        printf("%*llu", width, v.u);
    } else if (v.type == PQPAN_RUN_TEXT) {
        printf("%*s", width, v.known ? v.text : "");
    }
}

static void print_table(const struct printer *p, const struct pqpan_run_field *f, size_t n)
{
    size_t k;
    int s;
    printf("\n%-16s", "field");
    for (s = 0; s < p->n; s++) {
        printf("  %13s", p->rows[s].side);
    }
    putchar('\n');
    for (k = 0; k < n; k++) {
        if (f[k].group & PQPAN_RUN_GROUP_CONFIG) {
            continue;
        }
        printf("%-16s", f[k].name);
        for (s = 0; s < p->n; s++) {
            fputs("  ", stdout);
            print_value(&f[k], &p->rows[s], 13, "-");
        }
        putchar('\n');
    }
}

static void print_csv(const struct printer *p, const struct pqpan_run_field *f, size_t n)
{
    size_t k;
    int s;
    for (k = 0; k < n; k++) {
        printf("%s%s", k > 0 ? "," : "", f[k].name);
    }
    putchar('\n');
    for (s = 0; s < p->n; s++) {
        for (k = 0; k < n; k++) {
            fputs(k > 0 ? "," : "", stdout);
            print_value(&f[k], &p->rows[s], 0, "");
        }
        putchar('\n');
    }
}

/* The "sides" member and the end of the object (the notes' MEMBERS row began it). */
static void print_json(const struct printer *p, const struct pqpan_run_field *f, size_t n)
{
    size_t k;
    int s;
    printf("  \"sides\": [\n");
    for (s = 0; s < p->n; s++) {
        const char *sep = "";
        printf("    {");
        for (k = 0; k < n; k++) {
            if (!pqpan_run_field_shown(&f[k], PQPAN_RUN_GROUP_JSON)) {
                continue;
            }
            printf("%s\"%s\": ", sep, f[k].name);
            if (f[k].store == PQPAN_RUN_STORE_TEXT) {
                printf("\"");
                print_value(&f[k], &p->rows[s], 0, "");
                printf("\"");
            } else {
                print_value(&f[k], &p->rows[s], 0, "null");
            }
            sep = ", ";
        }
        printf("}%s\n", s + 1 < p->n ? "," : "");
    }
    printf("  ]\n}\n");
}

/* pqpan_run's emit: the notes as lines (table) or members (JSON), the sides kept until the
 * last (total: 3 sides of provisioning, 3 or 4 of --bearer network), then all printed while
 * the run's strings live. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    const struct pqpan_run_mesh_row *m = row->data;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
    case PQPAN_RUN_RECORD_MEMBERS:
    case PQPAN_RUN_RECORD_WARNING:
        cli_print_text_row(p->cmd, p->format, row);
        break;
    case PQPAN_RUN_RECORD_MESH:
        if (p->n == MESH_ROWS_MAX) {
            return -1;
        }
        p->rows[p->n++] = *m;
        if (strcmp(m->side, "total") != 0) {
            break;
        }
        if (p->format == FORMAT_TABLE) {
            print_table(p, row->fields, row->n_fields);
        } else if (p->format == FORMAT_CSV) {
            print_csv(p, row->fields, row->n_fields);
        } else {
            print_json(p, row->fields, row->n_fields);
        }
        break;
    default:
        return -1; /* other commands' records */
    }
    return ferror(stdout) ? -1 : 0;
}

static int mesh_run(const char *cmd, int simulated, int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int code, rc = request_of(req, &n, cmd, simulated, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    memset(&p, 0, sizeof p);
    p.cmd = cmd;
    p.format = cli_request_format(req, n);
    code = pqpan_run(cmd, req, n, print_row, &p, &err);
    if (pqpan_run_exit_status(code) == EXIT_IO && strcmp(err.option, "--pcap") == 0) {
        return EXIT_IO; /* outfile.c has said why */
    }
    rc = cli_run_status(cmd, code, &err);
    return rc == EXIT_OK && p.n > 0 ? cli_mesh_outcome(cmd, &p.rows[p.n - 1]) : rc;
}

int cli_mesh_outcome(const char *cmd, const struct pqpan_run_mesh_row *row)
{
    if (row->keys_equal != NULL && strcmp(row->keys_equal, "no") == 0) {
        fprintf(stderr, "pqpan %s: the provisioning ended without equal keys\n", cmd);
        return EXIT_FAILURE_RUN;
    }
    if (row->keys_equal != NULL && strcmp(row->keys_equal, "-") == 0) {
        /* a result, as the run (and Python, the page) give it: exit 0 */
        fprintf(stderr, "pqpan %s: no run completed: %s (the rows say so)\n", cmd,
                row->bearer != NULL && strcmp(row->bearer, "network") == 0
                    ? "in each the lower transport gave a segmented message up (SAR)"
                    : "each closed the link when a transaction went unacknowledged for the "
                      "transaction timeout");
    }
    return EXIT_OK;
}

int mesh_estimate_run(int argc, char **argv)
{
    return mesh_run("estimate", 0, argc, argv);
}

int mesh_simulate_run(int argc, char **argv)
{
    return mesh_run("simulate", 1, argc, argv);
}
