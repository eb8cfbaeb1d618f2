/* pqpan simulate --link 802154: Monte Carlo runs of the 802.15.4 packet simulator, run by
 * the run layer (pqpan_run "simulate" with --link 802154, src/run/run_simulate_802154.c,
 * which also writes --pcap): argv becomes a request, the rows it gives back (the
 * statistics, the pair's counts, the failure rate; with --hops > 1 the chain's nodes) are
 * printed as a table, CSV or JSON. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "lowpan_model.h"
#include "opts_registry.h"
#include "pqpan/error.h"
#include "pqpan/run.h"
#include "run_simulate.h"

#define CMD "simulate"

void simulate_802154_help(FILE *out)
{
    fprintf(out,
            "\nIEEE 802.15.4 (--link 802154): the real exchange (pqpan's INIT / RESP / FIN with\n"
            "ML-KEM, each message one UDP datagram over 6LoWPAN: IPHC, RFC 4944 fragments,\n"
            "acknowledged frames, unslotted CSMA-CA, retries) between two nodes that share one\n"
            "channel with N - 2 background nodes, repeated over R seeded runs.\n"
            "A fragment out of MAC attempts loses its datagram (RFC 4944 has no per-fragment\n"
            "recovery): the receiver drops the partial datagram after the reassembly timeout,\n"
            "the sender's application sends the whole message again after the same time (or\n"
            "when no answer came within it; a repeated message is answered again). Prints\n"
            "mean, p50, p90, p99 of the energy (all states: every radio and CPU state, uJ)\n"
            "of the initiator, responder and both, of the latency (ms, KeyGen start to the end of\n"
            "the exchange, or to the failure), the mean per run of the pair's counts, and the\n"
            "fraction of failed exchanges (datagram retries exhausted, or keys not confirmed and\n"
            "equal). Channel load = (N - 2) x L x airtime of one background frame. BLE options do\n"
            "not apply; --auth, --sig, --hybrid and the energy options do (--busy does not: the\n"
            "channel is contended instead).\n");
    lowpan_opts_help(out);
    cli_opt_rows_help(out, &lowpan_chain_table);
    cli_opt_rows_help(out, &simulate_802154_table);
    fprintf(out,
            "\nOutput (--link 802154): table (default: the assumptions of `estimate --link\n"
            "802154`, then the statistics and counts), csv (one line per metric: the settings\n"
            "(kem, nodes, hidden, capture, load_fps, frame_bytes, channel_load_pct, ...,\n"
            "failed, failure_rate), then metric, mean, p50, p90, p99, currents, idle, backoff,\n"
            "mac_security, protocol; counts as <name>_per_run with the mean only) or json (the\n"
            "assumptions, energy_accounting \"all-states\", kem, addr, csma and a \"simulation\"\n"
            "object: the contention settings, runs, seed, failed, failure_rate, the statistics\n"
            "and per_run_mean). Exit codes (--link 802154): 0 even when some exchanges failed (the\n"
            "failure rate is the result), 2 usage, 3 bad data file, 4 I/O (--pcap).\n");
}

/* argv as a request of pqpan_run. EXIT_OK, or EXIT_USAGE after a message. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int argc, char **argv)
{
    int i, rc = EXIT_OK;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        const struct cli_opt *o = simulate_802154_opt_row(argv[i]);
        if (o == NULL && cli_opt_find(&lowpan_busy_table, argv[i]) != NULL) {
            o = cli_opt_find(&lowpan_busy_table, argv[i]); /* the run refuses it by name */
        }
        if (o == NULL) {
            return cli_unknown_option(CMD, "802154", argv[i]);
        }
        rc = cli_request_add(req, n, o, CMD, argc, argv, &i);
    }
    return rc;
}

/* The most METRIC rows a run gives: the four statistics and the pair's counts. */
#define METRICS_MAX 16

struct printer {
    enum cli_format format;
    struct cli_progress progress;
    struct pqpan_run_sim154_row sum;
    struct pqpan_run_metric_row metric[METRICS_MAX];
    size_t metrics;
    unsigned nodes; /* NODE rows printed (--hops > 1) */
};

static void print_table(const struct printer *p)
{
    size_t k;
    printf("\n%-22s %12s %12s %12s %12s\n", "", "mean", "p50", "p90", "p99");
    for (k = 0; k < p->metrics; k++) {
        const struct pqpan_run_metric_row *m = &p->metric[k];
        if (!m->per_run) {
            printf("%-22s %12.3f %12.3f %12.3f %12.3f\n", m->metric, m->mean, m->p50, m->p90,
                   m->p99);
        }
    }
    printf("\nper run, both nodes (mean)\n");
    for (k = 0; k < p->metrics; k++) {
        if (p->metric[k].per_run) {
            printf("%-26s %12.3f\n", p->metric[k].metric, p->metric[k].mean);
        }
    }
    printf("\nfailed exchanges: %u of %u (%.4f)\n", p->sum.failed, p->sum.runs,
           p->sum.failure_rate);
}

static void print_csv(const struct printer *p)
{
    const struct pqpan_run_sim154_row *s = &p->sum;
    size_t k;
    printf("kem,nodes,hidden,capture,load_fps,frame_bytes,channel_load_pct,reasm_timeout_ms,"
           "dgram_retries,runs,seed,failed,failure_rate,metric,mean,p50,p90,p99,currents,idle,"
           "backoff,mac_security,protocol,auth\n");
    for (k = 0; k < p->metrics; k++) {
        const struct pqpan_run_metric_row *m = &p->metric[k];
        printf("%s,%u,%u,%s,%.3f,%u,%.3f,%u,%u,%u,%llu,%u,%.6f,", s->kem, s->nodes, s->hidden,
               s->capture, s->load_fps, s->frame_bytes, s->channel_load_pct, s->reasm_timeout_ms,
               s->dgram_retries, s->runs, s->seed, s->failed, s->failure_rate);
        if (!m->per_run) {
            printf("%s,%.3f,%.3f,%.3f,%.3f,", m->metric, m->mean, m->p50, m->p90, m->p99);
        } else {
            printf("%s_per_run,%.3f,,,,", m->metric, m->mean);
        }
        printf("%s,%s,%s,%s,%s,%s\n", s->currents, s->idle, s->backoff, s->mac_security,
               s->protocol, s->auth);
    }
}

/* pqpan_run's emit: the notes as lines (table) or members (JSON), the metrics kept until
 * the summary, the last row. */
static int keep(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    switch (row->record) {
    case PQPAN_RUN_RECORD_NOTE:
    case PQPAN_RUN_RECORD_WARNING:
        cli_print_text_row(CMD, p->format, row);
        break;
    case PQPAN_RUN_RECORD_MEMBERS: /* the JSON output but the nodes (closed by run_request) */
        cli_print_text_row(CMD, p->format, row);
        break;
    case PQPAN_RUN_RECORD_NODE: /* --hops > 1 */
        lowpan_print_node_row(p->format, p->nodes++, row);
        break;
    case PQPAN_RUN_RECORD_PROGRESS: /* the progress line on a terminal (cli.h) */
        p->progress.cmd = CMD;
        cli_progress_runs(&p->progress, ((const struct pqpan_run_progress_row *)row->data)->done,
                          ((const struct pqpan_run_progress_row *)row->data)->runs);
        break;
    case PQPAN_RUN_RECORD_SIM154: /* the last row: printed while its strings live */
        p->sum = *(const struct pqpan_run_sim154_row *)row->data;
        if (p->format == FORMAT_TABLE) {
            print_table(p);
        } else if (p->format == FORMAT_CSV) {
            print_csv(p);
        }
        break;
    case PQPAN_RUN_RECORD_METRIC:
        if (p->metrics == METRICS_MAX) {
            return -1;
        }
        p->metric[p->metrics++] = *(const struct pqpan_run_metric_row *)row->data;
        break;
    default:
        return -1; /* not simulate --link 802154's */
    }
    return ferror(stdout) ? -1 : 0;
}

int simulate_802154_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p; /* small: the statistics, not the runs */
    size_t n;
    int code, rc = request_of(req, &n, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    memset(&p, 0, sizeof p);
    p.format = cli_request_format(req, n);
    code = pqpan_run(CMD, req, n, keep, &p, &err);
    if (pqpan_run_exit_status(code) == EXIT_IO && strcmp(err.option, "--pcap") == 0) {
        return EXIT_IO; /* outfile.c has said why */
    }
    if (code == PQPAN_OK && p.format == FORMAT_JSON) {
        printf(p.nodes > 0 ? "\n  ]\n}\n" : "}\n");
    }
    return cli_run_status(CMD, code, &err);
}
