/* pqpan_run (run.h): a command and its options in, rows out through the caller's emit,
 * errors as PQPAN_ERR_* codes with a message naming the option (docs/RUN.md). */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/error.h"
#include "run_internal.h"

/* The run's exit codes (run_text.h) as the library's error codes. */
static int error_code(int exit_code)
{
    switch (exit_code) {
    case EXIT_OK:
        return PQPAN_OK;
    case EXIT_USAGE:
        return PQPAN_ERR_INVALID_ARG;
    case EXIT_BAD_INPUT:
        return PQPAN_ERR_MALFORMED;
    case EXIT_IO:
        return PQPAN_ERR_IO;
    default:
        return PQPAN_ERR_UNSUPPORTED;
    }
}

int pqpan_run_exit_status(int code)
{
    switch (code) {
    case PQPAN_OK:
        return EXIT_OK;
    case PQPAN_ERR_INVALID_ARG:
        return EXIT_USAGE;
    case PQPAN_ERR_MALFORMED:
        return EXIT_BAD_INPUT;
    case PQPAN_ERR_IO:
        return EXIT_IO;
    default:
        return EXIT_FAILURE_RUN;
    }
}

const char *pqpan_run_record_key(enum pqpan_run_record record)
{
    switch (record) {
    case PQPAN_RUN_RECORD_SIDE:
    case PQPAN_RUN_RECORD_MESH:
        return "sides";
    case PQPAN_RUN_RECORD_PHASE:
        return "phases";
    case PQPAN_RUN_RECORD_NODE:
        return "nodes";
    case PQPAN_RUN_RECORD_CELL:
    case PQPAN_RUN_RECORD_MATRIX:
    case PQPAN_RUN_RECORD_MESH_CELL:
        return "rows";
    case PQPAN_RUN_RECORD_HEADLINE:
        return "headline";
    case PQPAN_RUN_RECORD_MODE:
        return "modes";
    case PQPAN_RUN_RECORD_BUILD:
        return "builds";
    case PQPAN_RUN_RECORD_IDLE:
    case PQPAN_RUN_RECORD_TRACE:
        return "";
    case PQPAN_RUN_RECORD_SEGMENT:
        return "segments";
    case PQPAN_RUN_RECORD_MESH_CHOICE:
        return "choices";
    case PQPAN_RUN_RECORD_MESH_BEST:
        return "best_per_bearer";
    case PQPAN_RUN_RECORD_BATTERY:
        return "battery";
    case PQPAN_RUN_RECORD_PROFILE:
        return "profiles";
    case PQPAN_RUN_RECORD_FIGURE:
        return "figures";
    case PQPAN_RUN_RECORD_NOTE:
    case PQPAN_RUN_RECORD_MEMBERS:
    case PQPAN_RUN_RECORD_WARNING:
    case PQPAN_RUN_RECORD_CONFIG:
    case PQPAN_RUN_RECORD_SIM:
    case PQPAN_RUN_RECORD_SIM154:
    case PQPAN_RUN_RECORD_METRIC:
    case PQPAN_RUN_RECORD_PROGRESS:
    case PQPAN_RUN_RECORD_CHOICE:
    case PQPAN_RUN_RECORD_FIT:
    case PQPAN_RUN_RECORD_RESIDUAL:
    case PQPAN_RUN_RECORD_CALIBRATE_TRACE:
    case PQPAN_RUN_RECORD_SWEEP_EXTRA:
    case PQPAN_RUN_RECORD_TRACE_PHASE:
        break;
    }
    return NULL;
}

static void copy_text(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    n = n < cap - 1 ? n : cap - 1;
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int run_fail(struct run_ctx *r, int exit_code, const char *option, const char *message)
{
    int code = error_code(exit_code);
    if (r->err != NULL) {
        r->err->code = code;
        copy_text(r->err->option, sizeof r->err->option, option != NULL ? option : "");
        copy_text(r->err->message, sizeof r->err->message, message);
    }
    return code;
}

char *run_value_copy(struct run_ctx *r, const char *v)
{
    size_t n;
    char *out;
    if (v == NULL) {
        return NULL;
    }
    n = strlen(v) + 1;
    if (n > RUN_VALUES_MAX - r->used) {
        (void)run_fail(r, EXIT_USAGE, NULL, "the request's values are too long");
        return NULL;
    }
    out = memcpy(r->values + r->used, v, n);
    r->used += n;
    return out;
}

/* A flag's value: none or a word of on_words sets it, a word of off_words leaves it unset
 * (Python's encrypted=False, a web page's unticked box); anything else is refused. */
static const char *const on_words[] = {"on", "true", "yes", "1", NULL};
static const char *const off_words[] = {"off", "false", "no", "0", NULL};

int pqpan_run_flag_on(const struct pqpan_run_opt *opts, size_t n_opts, const char *name)
{
    size_t k;
    int on = 0;
    for (k = 0; k < n_opts; k++) {
        if (opts[k].name != NULL && strcmp(opts[k].name, name) == 0) {
            on = opts[k].value == NULL || cli_word_index(on_words, opts[k].value) >= 0;
        }
    }
    return on;
}

static int set_flag(struct run_ctx *r, const struct cli_opt *o, void *base, const char *v)
{
    struct cli_msg msg;
    if (v != NULL && cli_word_index(off_words, v) >= 0) {
        return PQPAN_OK;
    }
    if (v != NULL && cli_word_index(on_words, v) < 0) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "bad value for %s: '%s' (want on or off)", o->name,
                          v);
        return run_fail(r, EXIT_USAGE, o->name, msg.text);
    }
    return cli_opt_store(o, base, NULL) == 0 ? PQPAN_OK
                                             : run_fail(r, EXIT_USAGE, o->name, o->name);
}

int run_set(struct run_ctx *r, const struct cli_opt *o, void *base, const struct pqpan_run_opt *opt)
{
    struct cli_msg msg;
    char *v;
    if (o->kind == CLI_OPT_FLAG) {
        return set_flag(r, o, base, opt->value);
    }
    if (opt->value == NULL) {
        (void)cli_msg_set(&msg, EXIT_USAGE, "%s needs a value", o->name);
        return run_fail(r, EXIT_USAGE, o->name, msg.text);
    }
    v = run_value_copy(r, opt->value);
    if (v == NULL) {
        return r->err != NULL ? r->err->code : PQPAN_ERR_INVALID_ARG;
    }
    return cli_opt_set_msg(o, base, v, &msg) == 0 ? PQPAN_OK
                                                  : run_fail(r, EXIT_USAGE, o->name, msg.text);
}

int run_unknown(struct run_ctx *r, const char *name, const struct cli_opt_table *const *tables,
                size_t n)
{
    struct cli_suggest s;
    struct cli_msg msg;
    size_t t, k;
    cli_suggest_init(&s, name);
    for (t = 0; t < n; t++) {
        for (k = 0; k < tables[t]->n; k++) {
            cli_suggest_add(&s, tables[t]->opts[k].name);
        }
    }
    (void)cli_msg_set(&msg, EXIT_USAGE, "unknown option '%s'%s", name, cli_suggest_text(&s));
    return run_fail(r, EXIT_USAGE, name, msg.text);
}

static const struct pqpan_run_field text_field = {
    .name = "text", .label = "text", .store = PQPAN_RUN_STORE_TEXT};
static const struct pqpan_run_field json_field = {
    .name = "json", .label = "json", .store = PQPAN_RUN_STORE_TEXT};

static int emit_text(struct run_ctx *r, enum pqpan_run_record rec, const char *text)
{
    struct pqpan_run_value v;
    struct pqpan_run_row row;
    memset(&v, 0, sizeof v);
    memset(&row, 0, sizeof row);
    v.type = PQPAN_RUN_TEXT;
    v.known = 1;
    v.text = text;
    row.record = rec;
    row.fields = rec == PQPAN_RUN_RECORD_MEMBERS ? &json_field : &text_field;
    row.n_fields = 1;
    row.values = &v;
    return r->emit(r->ctx, &row) == 0 ? PQPAN_OK
                                      : run_fail(r, EXIT_IO, NULL, "the caller stopped the run");
}

int run_warning(struct run_ctx *r, const char *text)
{
    return emit_text(r, PQPAN_RUN_RECORD_WARNING, text);
}

/* Each line of text (its '\n' cut) as one row of rec. */
static int emit_lines(struct run_ctx *r, enum pqpan_run_record rec, char *text)
{
    int rc = PQPAN_OK;
    char *line = text;
    while (rc == PQPAN_OK && *line != '\0') {
        char *end = strchr(line, '\n');
        if (end != NULL) {
            *end = '\0';
        }
        rc = emit_text(r, rec, line);
        line = end != NULL ? end + 1 : line + strlen(line);
    }
    return rc;
}

int run_render(struct run_ctx *r, enum pqpan_run_record rec,
               void (*render)(FILE *f, const void *arg), const void *arg)
{
    char *text = NULL;
    size_t len = 0;
    int rc;
    FILE *f = open_memstream(&text, &len);
    if (f == NULL) {
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    render(f, arg);
    if (fclose(f) != 0 || text == NULL) {
        free(text);
        return run_fail(r, EXIT_FAILURE_RUN, NULL, "out of memory");
    }
    rc = rec == PQPAN_RUN_RECORD_NOTE ? emit_lines(r, rec, text) : emit_text(r, rec, text);
    free(text);
    return rc;
}

int run_emit_row(struct run_ctx *r, struct pqpan_run_row *row, const void *data)
{
    struct pqpan_run_value values[PQPAN_RUN_FIELDS_MAX];
    size_t k;
    for (k = 0; k < row->n_fields && k < PQPAN_RUN_FIELDS_MAX; k++) {
        pqpan_run_record_value(&values[k], &row->fields[k], data);
    }
    row->n_fields = k;
    row->values = values;
    row->data = data;
    return r->emit(r->ctx, row) == 0 ? PQPAN_OK
                                     : run_fail(r, EXIT_IO, NULL, "the caller stopped the run");
}

int run_record(struct run_ctx *r, enum pqpan_run_record rec, enum pqpan_run_link link,
               const struct pqpan_run_field *fields, size_t n, const void *data)
{
    struct pqpan_run_row row;
    memset(&row, 0, sizeof row);
    row.record = rec;
    row.link = link;
    row.fields = fields;
    row.n_fields = n;
    return run_emit_row(r, &row, data);
}

int run_wants_link(const struct pqpan_run_opt *opts, size_t n_opts, const char *link)
{
    size_t i;
    for (i = 0; i < n_opts; i++) {
        if (opts[i].name != NULL && opts[i].value != NULL && strcmp(opts[i].name, "--link") == 0 &&
            strcmp(opts[i].value, link) == 0) {
            return 1;
        }
    }
    return 0;
}

int run_wants_802154(const struct pqpan_run_opt *opts, size_t n_opts)
{
    return run_wants_link(opts, n_opts, "802154");
}

int run_sides(struct run_ctx *r, enum pqpan_run_link link, unsigned groups,
              const struct pqpan_run_exchange_row *rows)
{
    struct pqpan_run_row row;
    int s, rc = PQPAN_OK;
    for (s = 0; s < PQPAN_RUN_SIDES && rc == PQPAN_OK; s++) {
        memset(&row, 0, sizeof row);
        row.record = PQPAN_RUN_RECORD_SIDE;
        row.link = link;
        row.groups = groups;
        row.fields = pqpan_run_exchange_fields(link, &row.n_fields);
        row.exchange = &rows[s];
        rc = run_emit_row(r, &row, &rows[s]);
    }
    return rc;
}

int run_start(struct run_ctx **out, const struct pqpan_run_opt *opts, size_t n_opts,
              pqpan_run_emit emit, void *ctx, struct pqpan_run_error *err)
{
    struct run_ctx *r;
    if (err != NULL) {
        memset(err, 0, sizeof *err);
    }
    if (emit == NULL || (opts == NULL && n_opts > 0)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    r = malloc(sizeof *r);
    if (r == NULL) {
        return PQPAN_ERR_CAPACITY;
    }
    r->emit = emit;
    r->ctx = ctx;
    r->err = err;
    r->used = 0;
    *out = r;
    return PQPAN_OK;
}

int pqpan_run(const char *command, const struct pqpan_run_opt *opts, size_t n_opts,
              pqpan_run_emit emit, void *ctx, struct pqpan_run_error *err)
{
    struct run_ctx *r;
    int rc = command == NULL ? PQPAN_ERR_INVALID_ARG : run_start(&r, opts, n_opts, emit, ctx, err);
    if (rc != PQPAN_OK) {
        return rc;
    }
    if ((strcmp(command, "estimate") == 0 || strcmp(command, "simulate") == 0) &&
        run_wants_link(opts, n_opts, "ble-mesh")) {
        rc = run_mesh(r, opts, n_opts, strcmp(command, "simulate") == 0);
    } else if (strcmp(command, "estimate") == 0) {
        rc = run_estimate(r, opts, n_opts);
    } else if (strcmp(command, "idle") == 0) {
        rc = run_idle(r, opts, n_opts);
    } else if (strcmp(command, "sweep") == 0) {
        rc = run_sweep(r, opts, n_opts);
    } else if (strcmp(command, "profiles") == 0) {
        rc = run_profiles(r, opts, n_opts);
    } else if (strcmp(command, "simulate") == 0) {
        rc = run_simulate(r, opts, n_opts);
    } else if (strcmp(command, "advise") == 0 && run_wants_link(opts, n_opts, "ble-mesh")) {
        rc = run_advise_mesh(r, opts, n_opts);
    } else if (strcmp(command, "advise") == 0) {
        rc = run_advise(r, opts, n_opts);
    } else if (strcmp(command, "calibrate") == 0) {
        rc = run_calibrate(r, opts, n_opts);
    } else if (strcmp(command, "compare") == 0) {
        rc = run_compare(r, opts, n_opts);
    } else if (strcmp(command, "reproduce") == 0) {
        rc = run_reproduce(r, opts, n_opts);
    } else if (strcmp(command, "trace") == 0) {
        rc = run_trace(r, opts, n_opts);
    } else {
        struct cli_msg msg;
        (void)cli_msg_set(&msg, EXIT_USAGE,
                          "unknown command '%s' (pqpan_run knows: estimate, idle, sweep, profiles, simulate, advise, "
                          "calibrate, compare, reproduce, trace)",
                          command);
        rc = run_fail(r, EXIT_USAGE, NULL, msg.text);
    }
    free(r);
    return rc;
}
