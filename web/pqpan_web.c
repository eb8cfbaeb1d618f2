/* The WebAssembly entry point of the web page (make web, docs/WEB.md): pqpan's own CLI,
 * built unchanged (cli/main.c compiled with main renamed to pqpan_cli_main), plus one
 * two commands the page needs that the CLI has no output for:
 *
 *   web-timeline [estimate's options]
 *
 * runs the BLE packet simulator (src/sim, as `pqpan simulate` does) for the configuration
 * and prints its per-PDU schedule as JSON, in time order: every packet as received (time,
 * sender, kind, length, CRC) and every crypto operation's CPU span, per side, as
 * `simulate --protocol P` runs it: --protocol study carries the study's raw messages (ek,
 * then ct), --protocol pqpan the real PQKE, LESC-P256 the LE Secure Connections pairing.
 *
 *   web-curve [estimate's options]
 *
 * runs the estimator (model_run, as `pqpan estimate` does) for ML-KEM-512, -768 and -1024
 * at LL octets 27, 35, ..., 251 with the other options as given, and prints each side's
 * total energy in both accountings as JSON (null where the configuration is invalid).
 * The profile and tables are loaded once for the whole grid.
 *
 *   web-verdicts [estimate's options]
 *
 * prints what the configuration's key exchange authenticates (pqpan_pqke_mode_*: the
 * study's exchange and --auth none authenticate neither side).
 *
 *   web-run REQUEST
 *
 * runs one request through the run layer (pqpan_run, include/pqpan/run.h; docs/RUN.md):
 * REQUEST is JSON, {"command": "estimate", "options": [["--att-mtu", "247"], ...]} (a
 * flag's value "on" or "off"); prints {"members": {...}, "rows": [...], "lines": [...],
 * "lists": {...},
 * "record": {...}}: the run's JSON members (the assumptions), one object per SIDE row (each
 * field of the row's groups), the rows of every other record that the CLI's JSON lists
 * under a key of its own (pqpan_run_record_key: "phases", "nodes"; advise --link
 * ble-mesh's "choices", "best_per_bearer") as that key's array, and
 * the fields of a record the CLI prints as top-level members (IDLE, TRACE) as "record", with
 * idle's battery figures (BATTERY) as its member "battery" and trace's whole-trace figures
 * as its member "total" (trace's phases: the list "phases"); each value
 * typed, under its field table's name (a number to the field's decimals, as the CLI's JSON
 * prints it; null where the row has none); a sweep's configurations as "lines", one object
 * per configuration as `pqpan sweep --format jsonl` writes it. A simulated exchange that
 * failed is printed and exits 1 with the CLI's message, as `pqpan simulate`. A refused
 * request prints
 * {"error": {"code", "option", "message"}} and the CLI's message on stderr, and exits as
 * the CLI would (pqpan_run_exit_status).
 * Errors are the CLI's messages and exit codes. */
#define _POSIX_C_SOURCE 200809L /* open_memstream (POSIX.1-2008) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ble_model.h"
#include "ble_sim.h"
#include "commands.h"
#include "estimate.h"
#include "mesh_model.h"
#include "pqpan/ledger.h"
#include "pqpan/pqke.h"
#include "pqpan/run.h"

#define CMD "web-timeline"
#define CMD_CURVE "web-curve"
#define CMD_VERDICTS "web-verdicts"
#define CMD_RUN "web-run"
/* The most options one request carries (estimate has fewer than 64). */
#define RUN_OPTS_MAX 64
/* Vol 6 Part B §4.5.10: connMaxTxOctets 27..251; the curve steps by 8 octets. */
#define CURVE_LL_MIN 27u
#define CURVE_LL_MAX 251u
#define CURVE_LL_STEP 8u

int pqpan_cli_main(int argc, char **argv);

/* The observer prints one "schedule" array element per packet or crypto span. */
struct timeline_out {
    unsigned long items;
};

/* On the advertising channels the peripheral sends ADV_IND and the central answers with
 * the CONNECT_IND (src/sim/adv.c, sim.c). On a connection, Vol 6 Part B §2.4: the LLID is
 * the low two bits of a data PDU's header (3 = LL control PDU); a zero length is empty. */
static const char *pdu_kind(const struct pqpan_sim_packet *p)
{
    if (p->advertising) {
        return p->sender == PQPAN_BLE_CENTRAL ? "connect_ind" : "adv_ind";
    }
    if (p->len < 2) {
        return "short";
    }
    if ((p->pdu[0] & 3u) == 3u) {
        return "control";
    }
    return p->pdu[1] == 0 ? "empty" : "data";
}

static void on_packet(void *ctx, const struct pqpan_sim_packet *p)
{
    struct timeline_out *t = ctx;
    printf("%s\n    {\"type\": \"packet\", \"t_us\": %.3f, \"side\": \"%s\", \"kind\": \"%s\", "
           "\"octets\": %lu, \"rf_channel\": %u, \"crc_ok\": %d}",
           t->items ? "," : "", (double)p->t_ns * 1e-3,
           p->sender == PQPAN_BLE_CENTRAL ? "central" : "peripheral", pdu_kind(p),
           (unsigned long)p->len, (unsigned)p->rf_channel, p->crc_ok ? 1 : 0);
    t->items++;
}

/* Only the crypto operations' CPU spans: the packets already show the radio. */
static void on_span(void *ctx, const struct pqpan_sim_span *s)
{
    struct timeline_out *t = ctx;
    if (s->op >= PQPAN_OP_COUNT) {
        return;
    }
    printf("%s\n    {\"type\": \"crypto\", \"t_us\": %.3f, \"t1_us\": %.3f, \"side\": \"%s\", "
           "\"op\": \"%s\"}",
           t->items ? "," : "", (double)s->t0_ns * 1e-3, (double)s->t1_ns * 1e-3,
           s->side == PQPAN_BLE_CENTRAL ? "central" : "peripheral",
           pqpan_op_name((enum pqpan_op)s->op));
    t->items++;
}

static int parse_args(struct estimate_opts *o, const char *cmd, int argc, char **argv)
{
    int i;
    estimate_opts_init(o, 0);
    for (i = 1; i < argc; i++) {
        int rc = estimate_opts_parse(o, cmd, argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 0) {
            return cli_usage_error(cmd, "unknown option '%s'", argv[i]);
        }
    }
    return EXIT_OK;
}

static int run_schedule(struct pqpan_sim *s, struct ble_sim_apps *apps,
                        const struct model_env *env, const struct estimate_opts *o,
                        const struct ble_sim_opts *so)
{
    struct timeline_out t = {0};
    struct pqpan_sim_observer obs = {on_packet, on_span};
    struct ble_sim_keys keys;
    struct cli_msg msg;
    int rc;
    printf("{\n  \"schedule\": [");
    rc = cli_msg_report(CMD, ble_sim_run(s, apps, &keys, env, &o->l, so, &obs, &t, &msg), &msg);
    printf("\n  ],\n");
    return rc;
}

static void print_summary(const struct pqpan_sim *s)
{
    printf("  \"status\": \"%s\",\n  \"setup_us\": %.3f,\n  \"end_us\": %.3f,\n"
           "  \"conn_events\": %llu,\n  \"latency_ms\": %.3f,\n  \"att_mtu\": %u,\n"
           "  \"ll_octets\": %u\n}\n",
           ble_sim_status_text(&s->res),
           (double)s->res.setup_ns * 1e-3, (double)s->res.end_ns * 1e-3,
           (unsigned long long)s->res.conn_events, (double)s->res.latency_ns * 1e-6,
           (unsigned)s->res.att_mtu, (unsigned)s->res.ll_octets);
}

static int timeline_run(int argc, char **argv)
{
    struct estimate_opts o;
    struct ble_sim_opts so;
    struct model_env *env = NULL;
    struct pqpan_sim *s = malloc(sizeof *s);
    struct ble_sim_apps *apps = malloc(sizeof *apps);
    struct cli_msg msg;
    int rc = parse_args(&o, CMD, argc, argv);
    ble_sim_opts_init(&so);
    so.adv_mean = 1;
    if (rc == EXIT_OK && (s == NULL || apps == NULL)) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        rc = EXIT_FAILURE_RUN;
    }
    if (rc == EXIT_OK) {
        rc = cli_msg_report(CMD, ble_sim_check(&o.l, &so, &msg), &msg);
    }
    if (rc == EXIT_OK) {
        rc = model_env_new(&env, &o.m, CMD);
    }
    if (rc == EXIT_OK) {
        rc = run_schedule(s, apps, env, &o, &so);
    }
    if (rc == EXIT_OK) {
        print_summary(s);
    }
    free(env);
    free(s);
    free(apps);
    return rc;
}

static void print_curve_values(const char *name, const double *v, const int *ok, size_t n)
{
    size_t k;
    printf(", \"%s\": [", name);
    for (k = 0; k < n; k++) {
        if (ok[k]) {
            printf("%s%.3f", k ? ", " : "", v[k]);
        } else {
            printf("%snull", k ? ", " : "");
        }
    }
    printf("]");
}

/* One ML-KEM level's points: per side, bits and events accounting. */
static void curve_level(const struct model_env *env, const char *kem, struct pqpan_ble_config cfg,
                        int allow_unbuildable)
{
    enum { N = (CURVE_LL_MAX - CURVE_LL_MIN) / CURVE_LL_STEP + 1 };
    static const char *const names[MODEL_SIDES][2] = {
        {"peripheral_e_total_uj", "peripheral_e_total_events_uj"},
        {"central_e_total_uj", "central_e_total_events_uj"},
        {"total_e_total_uj", "total_e_total_events_uj"}};
    double v[MODEL_SIDES][2][N];
    int ok[N];
    size_t k;
    int side;
    for (k = 0; k < N; k++) {
        struct pqpan_run_exchange_row rows[MODEL_SIDES];
        struct cli_msg msg;
        cfg.ll_octets = CURVE_LL_MIN + (uint32_t)k * CURVE_LL_STEP;
        ok[k] = model_run(rows, env, kem, &cfg, allow_unbuildable, &msg) == EXIT_OK;
        for (side = 0; side < MODEL_SIDES; side++) {
            v[side][0][k] = rows[side].e_total_uj;
            v[side][1][k] = rows[side].e_total_events_uj;
        }
    }
    printf("    {\"kem\": \"%s\"", kem);
    for (side = 0; side < MODEL_SIDES; side++) {
        print_curve_values(names[side][0], v[side][0], ok, N);
        print_curve_values(names[side][1], v[side][1], ok, N);
    }
    printf("}");
}

static int curve_run(int argc, char **argv)
{
    static const char *const kems[] = {"ML-KEM-512", "ML-KEM-768", "ML-KEM-1024"};
    struct estimate_opts o;
    struct model_env *env = NULL;
    unsigned ll;
    size_t k;
    int rc = parse_args(&o, CMD_CURVE, argc, argv);
    if (rc == EXIT_OK) {
        rc = model_env_new(&env, &o.m, CMD_CURVE);
    }
    if (rc == EXIT_OK) {
        printf("{\n  \"ll_octets\": [");
        for (ll = CURVE_LL_MIN; ll <= CURVE_LL_MAX; ll += CURVE_LL_STEP) {
            printf("%s%u", ll > CURVE_LL_MIN ? ", " : "", ll);
        }
        printf("],\n  \"levels\": [\n");
        for (k = 0; k < sizeof kems / sizeof kems[0]; k++) {
            curve_level(env, kems[k], o.l.cfg, o.l.allow_unbuildable);
            printf("%s\n", k + 1 < sizeof kems / sizeof kems[0] ? "," : "");
        }
        printf("  ]\n}\n");
    }
    free(env);
    return rc;
}

static int verdicts_run(int argc, char **argv)
{
    struct estimate_opts o;
    unsigned mode;
    int rc = parse_args(&o, CMD_VERDICTS, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    mode = o.l.cfg.protocol == PQPAN_BLE_PROTO_PQPAN ? o.l.cfg.pqke_mode : PQPAN_PQKE_MODE_NONE;
    printf("{\"protocol\": \"%s\", \"auth\": \"%s\", \"authenticates_responder\": %s, "
           "\"authenticates_initiator\": %s}\n",
           o.l.cfg.protocol == PQPAN_BLE_PROTO_PQPAN ? "pqpan" : "study", pqpan_pqke_mode_name(mode),
           pqpan_pqke_mode_authenticates_responder(mode) ? "true" : "false",
           pqpan_pqke_mode_authenticates_initiator(mode) ? "true" : "false");
    return EXIT_OK;
}

/* ---- web-run ---- */

/* The most record kinds a run lists under keys of their own (besides the sides). */
#define RUN_LISTS_MAX 4

/* One output part of a run, kept in memory until the run has succeeded. */
struct run_part {
    char *text;
    size_t len;
    FILE *f;
    unsigned long items;
};

/* The parts of a run's output: its members, sides, the record printed as members (IDLE),
 * each listed record's array (keys[k]'s items in lists[k]), and a sweep's lines (the open
 * one's fields so far, its sides so far); status: the CLI's exit status of a run that
 * succeeded (simulate: 1 for a failed exchange or a provisioning without equal keys,
 * printed all the same). */
struct run_out {
    struct run_part members, sides, record, lines;
    const char *keys[RUN_LISTS_MAX];
    struct run_part lists[RUN_LISTS_MAX];
    size_t n_lists;
    unsigned line_fields;
    int line_side;
    int trace_total; /* trace: the whole trace's TRACE_PHASE row was put */
    int status;
};

/* Whether rec's rows show the fields of their groups: sides of an exchange (SIDE;
 * reproduce's MATRIX; a MESH row, whose groups are the JSON's) and advise --link ble-mesh's
 * configurations (MESH_CHOICE, MESH_BEST: the JSON's, not the table's settings). */
static int grouped_record(enum pqpan_run_record rec)
{
    return rec == PQPAN_RUN_RECORD_SIDE || rec == PQPAN_RUN_RECORD_MATRIX ||
           rec == PQPAN_RUN_RECORD_MESH || rec == PQPAN_RUN_RECORD_MESH_CHOICE ||
           rec == PQPAN_RUN_RECORD_MESH_BEST;
}

/* The row's fields as "name": value pairs: a grouped_record row's of its groups, those of
 * a record the CLI prints as members (IDLE) or as a member object (BATTERY) of group
 * PQPAN_RUN_GROUP_JSON, every field of the others. */
static void print_run_fields(FILE *f, const struct pqpan_run_row *row)
{
    const char *key = pqpan_run_record_key(row->record);
    size_t k;
    int first = 1;
    for (k = 0; k < row->n_fields; k++) {
        if ((grouped_record(row->record) &&
             !pqpan_run_field_shown(&row->fields[k], row->groups)) ||
            (key != NULL && (key[0] == '\0' || row->record == PQPAN_RUN_RECORD_BATTERY) &&
             !(row->fields[k].group & PQPAN_RUN_GROUP_JSON))) {
            continue;
        }
        fprintf(f, "%s\"%s\": ", first ? "" : ", ", row->fields[k].name);
        model_json_value(f, &row->fields[k], &row->values[k]);
        first = 0;
    }
}

static int part_open(struct run_part *p)
{
    memset(p, 0, sizeof *p);
    p->f = open_memstream(&p->text, &p->len);
    return p->f != NULL ? 0 : -1;
}

/* The part a row of a listed record goes to (opened on its first row), NULL when full. */
static struct run_part *list_of(struct run_out *o, const char *key)
{
    size_t k;
    for (k = 0; k < o->n_lists && strcmp(o->keys[k], key) != 0; k++) {
    }
    if (k == o->n_lists) {
        if (k == RUN_LISTS_MAX || part_open(&o->lists[k]) != 0) {
            return NULL;
        }
        o->keys[o->n_lists++] = key;
    }
    return &o->lists[k];
}

/* One item (an object of the row's fields) appended to part p. */
static int put_item(struct run_part *p, const struct pqpan_run_row *row)
{
    fprintf(p->f, "%s\n    {", p->items ? "," : "");
    print_run_fields(p->f, row);
    fputs("}", p->f);
    p->items++;
    return ferror(p->f) ? -1 : 0;
}

/* One "PREFIXname": value of the open sweep line. */
static void put_line_field(struct run_out *o, const char *prefix, const struct pqpan_run_field *f,
                           const struct pqpan_run_value *v)
{
    fprintf(o->lines.f, "%s\"%s%s\": ", o->line_fields++ ? ", " : "", prefix, f->name);
    model_json_value(o->lines.f, f, v);
}

/* The prefix of side s of a sweep's SIDE or MESH row: "<side>_". */
static void side_prefix(char *prefix, size_t len, const struct pqpan_run_row *row, int s)
{
    snprintf(prefix, len, "%s_",
             row->record == PQPAN_RUN_RECORD_MESH
                 ? mesh_side_name(s)
                 : model_side_name(row->link == PQPAN_RUN_LINK_802154 ? (unsigned)GROUP_802154 : 0u,
                                   s));
}

/* A sweep's row into its line, as `pqpan sweep --format jsonl` writes it: a CONFIG row
 * opens the line with its fields, the first SIDE (--link ble-mesh: MESH) row adds the
 * configuration's fields (group CONFIG but the side), every SIDE row its shown fields as
 * <side>_<field>, a SWEEP_EXTRA row its fields (the line is closed by the next CONFIG row
 * or print_run_out). */
static int put_sweep_row(struct run_out *o, const struct pqpan_run_row *row)
{
    const unsigned side_groups = row->groups & ~(unsigned)PQPAN_RUN_GROUP_CONFIG;
    char prefix[32];
    size_t k;
    if (row->record == PQPAN_RUN_RECORD_CONFIG) {
        fprintf(o->lines.f, "%s\n    {", o->lines.items ? "}," : "");
        o->lines.items++;
        o->line_fields = 0;
        o->line_side = 0;
    }
    if (row->record != PQPAN_RUN_RECORD_SIDE && row->record != PQPAN_RUN_RECORD_MESH) {
        for (k = 0; k < row->n_fields; k++) {
            put_line_field(o, "", &row->fields[k], &row->values[k]);
        }
        return ferror(o->lines.f) ? -1 : 0;
    }
    for (k = 0; o->line_side == 0 && k < row->n_fields; k++) {
        if (pqpan_run_field_shown(&row->fields[k], PQPAN_RUN_GROUP_CONFIG) &&
            strcmp(row->fields[k].name, "side") != 0) {
            put_line_field(o, "", &row->fields[k], &row->values[k]);
        }
    }
    side_prefix(prefix, sizeof prefix, row, o->line_side++);
    for (k = 0; k < row->n_fields; k++) {
        if (!pqpan_run_field_shown(&row->fields[k], PQPAN_RUN_GROUP_CONFIG) &&
            pqpan_run_field_shown(&row->fields[k], side_groups)) {
            put_line_field(o, prefix, &row->fields[k], &row->values[k]);
        }
    }
    return ferror(o->lines.f) ? -1 : 0;
}

/* One more member of the record, an object of the row's fields: "key": {...}. */
static int put_member_object(struct run_out *o, const char *key, const struct pqpan_run_row *row)
{
    fprintf(o->record.f, ", \"%s\": {", key);
    print_run_fields(o->record.f, row);
    fputc('}', o->record.f);
    return ferror(o->record.f) ? -1 : 0;
}

/* trace's TRACE_PHASE rows as `pqpan trace --format json` lays them out: the first (the
 * whole trace, phase "total") the member "total", the others the items of "phases" (an
 * empty list when there are none: the list is opened with the first row). */
static int put_trace_phase(struct run_out *o, const struct pqpan_run_row *row)
{
    struct run_part *list = list_of(o, "phases");
    if (list == NULL) {
        return -1;
    }
    if (!o->trace_total) {
        o->trace_total = 1;
        return put_member_object(o, "total", row);
    }
    return put_item(list, row);
}

/* pqpan_run's emit: each row to its part. */
static int on_run_row(void *ctx, const struct pqpan_run_row *row)
{
    struct run_out *o = ctx;
    const char *key = pqpan_run_record_key(row->record);
    struct run_part *list;
    if (row->record == PQPAN_RUN_RECORD_MEMBERS) {
        fputs(row->values[0].text, o->members.f);
        return ferror(o->members.f) ? -1 : 0;
    }
    if (row->record == PQPAN_RUN_RECORD_CONFIG || row->record == PQPAN_RUN_RECORD_SWEEP_EXTRA ||
        ((row->record == PQPAN_RUN_RECORD_SIDE || row->record == PQPAN_RUN_RECORD_MESH) &&
         o->lines.items > 0)) {
        return put_sweep_row(o, row);
    }
    if (row->record == PQPAN_RUN_RECORD_SIM &&
        strcmp(((const struct pqpan_run_sim_row *)row->data)->side, "total") == 0) {
        o->status = cli_simulate_outcome(row->data);
    }
    if (row->record == PQPAN_RUN_RECORD_MESH &&
        strcmp(((const struct pqpan_run_mesh_row *)row->data)->side, "total") == 0) {
        o->status = cli_mesh_outcome("simulate", row->data);
    }
    if (row->record == PQPAN_RUN_RECORD_TRACE_PHASE) {
        return put_trace_phase(o, row);
    }
    if (key == NULL) {
        return 0;
    }
    if (key[0] == '\0') {
        print_run_fields(o->record.f, row);
        return ferror(o->record.f) ? -1 : 0;
    }
    if (row->record == PQPAN_RUN_RECORD_BATTERY) { /* after the IDLE row: one more member */
        return put_member_object(o, key, row);
    }
    if (row->record == PQPAN_RUN_RECORD_SIDE || row->record == PQPAN_RUN_RECORD_MESH) {
        return put_item(&o->sides, row);
    }
    list = list_of(o, key);
    return list != NULL ? put_item(list, row) : -1;
}

static int run_out_open(struct run_out *o)
{
    memset(o, 0, sizeof *o);
    return part_open(&o->members) | part_open(&o->sides) | part_open(&o->record) |
           part_open(&o->lines);
}

/* Closes every part; -1 if one could not be written. */
static int run_out_close(struct run_out *o)
{
    size_t k;
    int rc = 0;
    struct run_part *parts[4 + RUN_LISTS_MAX];
    size_t n = 0;
    parts[n++] = &o->members;
    parts[n++] = &o->sides;
    parts[n++] = &o->record;
    parts[n++] = &o->lines;
    for (k = 0; k < o->n_lists; k++) {
        parts[n++] = &o->lists[k];
    }
    for (k = 0; k < n; k++) {
        if (parts[k]->f != NULL && fclose(parts[k]->f) != 0) {
            rc = -1;
        }
        parts[k]->f = NULL;
    }
    return rc;
}

static void run_out_free(struct run_out *o)
{
    size_t k;
    free(o->members.text);
    free(o->sides.text);
    free(o->record.text);
    free(o->lines.text);
    for (k = 0; k < o->n_lists; k++) {
        free(o->lists[k].text);
    }
}

static const char *text_of(const struct run_part *p)
{
    return p->text != NULL ? p->text : "";
}

/* The whole answer of a run that succeeded. */
static void print_run_out(const struct run_out *o)
{
    const char *m = text_of(&o->members);
    size_t k, n = strlen(m);
    while (n > 0 && (m[n - 1] == '\n' || m[n - 1] == ' ')) {
        n--;
    }
    /* the members, each line ending with a comma (advise's last one has none) */
    printf("{\n  \"members\": {\n%.*s%s\n  \"entry\": \"web-run\"},\n", (int)n, m,
           n > 0 && m[n - 1] != ',' ? "," : "");
    printf("  \"rows\": [%s\n  ],\n  \"lines\": [%s%s\n  ],\n  \"lists\": {",
           text_of(&o->sides), text_of(&o->lines), o->lines.items ? "}" : "");
    for (k = 0; k < o->n_lists; k++) {
        printf("%s\n  \"%s\": [%s\n  ]", k ? "," : "", o->keys[k], text_of(&o->lists[k]));
    }
    printf("},\n  \"record\": {%s}\n}\n", text_of(&o->record));
}

/* The request's options: [name, value] pairs of strings, at most RUN_OPTS_MAX. */
static int run_request_opts(struct pqpan_run_opt *opts, size_t *n, const cJSON *list)
{
    const cJSON *pair;
    *n = 0;
    cJSON_ArrayForEach(pair, list) {
        const cJSON *name = cJSON_GetArrayItem(pair, 0);
        const cJSON *value = cJSON_GetArrayItem(pair, 1);
        if (*n == RUN_OPTS_MAX || !cJSON_IsString(name) || !cJSON_IsString(value) ||
            cJSON_GetArraySize(pair) != 2) {
            return -1;
        }
        opts[*n].name = name->valuestring;
        opts[*n].value = value->valuestring;
        ++*n;
    }
    return 0;
}

static void print_run_error(const char *command, int code, const struct pqpan_run_error *err)
{
    printf("{\"error\": {\"code\": %d, \"option\": ", err->code);
    model_json_string(stdout, err->option);
    printf(", \"message\": ");
    model_json_string(stdout, err->message);
    printf("}}\n");
    (void)cli_run_status(command, code, err);
}

static int web_run(int argc, char **argv)
{
    struct pqpan_run_opt opts[RUN_OPTS_MAX];
    struct pqpan_run_error err;
    struct run_out out;
    size_t n = 0;
    int rc;
    cJSON *req = argc == 2 ? cJSON_Parse(argv[1]) : NULL;
    const cJSON *command = cJSON_GetObjectItemCaseSensitive(req, "command");
    if (!cJSON_IsString(command) ||
        run_request_opts(opts, &n, cJSON_GetObjectItemCaseSensitive(req, "options")) != 0) {
        cJSON_Delete(req);
        return cli_usage_error(CMD_RUN, "want one request: {\"command\": NAME, \"options\": "
                                        "[[OPTION, VALUE], ...]}");
    }
    rc = run_out_open(&out) != 0 ? PQPAN_ERR_CAPACITY : PQPAN_OK;
    if (rc == PQPAN_OK && strcmp(command->valuestring, "trace") == 0 &&
        pqpan_run_flag_on(opts, n, "--segments") && list_of(&out, "segments") == NULL) {
        rc = PQPAN_ERR_CAPACITY; /* trace --segments: the list, even with no segments */
    }
    if (rc == PQPAN_OK) {
        rc = pqpan_run(command->valuestring, opts, n, on_run_row, &out, &err);
    }
    if (run_out_close(&out) != 0 && rc == PQPAN_OK) {
        rc = PQPAN_ERR_CAPACITY;
    }
    if (rc == PQPAN_OK) {
        print_run_out(&out);
    } else if (rc == PQPAN_ERR_CAPACITY) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD_RUN);
    } else {
        print_run_error(command->valuestring, rc, &err);
    }
    run_out_free(&out);
    cJSON_Delete(req);
    return rc == PQPAN_OK ? out.status : pqpan_run_exit_status(rc);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], CMD) == 0) {
        return timeline_run(argc - 1, argv + 1);
    }
    if (argc >= 2 && strcmp(argv[1], CMD_CURVE) == 0) {
        return curve_run(argc - 1, argv + 1);
    }
    if (argc >= 2 && strcmp(argv[1], CMD_RUN) == 0) {
        return web_run(argc - 1, argv + 1);
    }
    if (argc >= 2 && strcmp(argv[1], CMD_VERDICTS) == 0) {
        return verdicts_run(argc - 1, argv + 1);
    }
    return pqpan_cli_main(argc, argv);
}
