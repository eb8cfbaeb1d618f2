/* The CLI's face of a configuration of `pqpan sweep`: the rows the run layer gives
 * (sweep_config_run, src/run/run_sweep.c: one CONFIG row, the sides (--link ble-mesh: MESH
 * rows), with --per or the 802.15.4 chain a SWEEP_EXTRA row) written as one CSV line or
 * JSON object through their field tables. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "sweep.h"

struct sweep_writer {
    const struct sweep_cfg *cfg;
    struct sweep_worker *run; /* the run layer's worker */
    FILE *f;                  /* the block being written */
    int sides;                /* sides of the current row written */
};

struct sweep_writer *sweep_writer_new(const struct sweep_cfg *cfg)
{
    struct sweep_writer *w = calloc(1, sizeof *w);
    if (w == NULL) {
        return NULL;
    }
    w->cfg = cfg;
    w->run = sweep_worker_new(cfg);
    if (w->run == NULL) {
        sweep_writer_free(w);
        return NULL;
    }
    return w;
}

void sweep_writer_free(struct sweep_writer *w)
{
    if (w == NULL) {
        return;
    }
    sweep_worker_free(w->run);
    free(w);
}

/* ---- writing ---- */

/* The CONFIG group of side 0 (no side column) and the groups of every side. */
static unsigned config_groups(const struct sweep_cfg *cfg)
{
    return GROUP_CONFIG | GROUP_NO_SIDE | (cfg->lowpan ? GROUP_802154 : 0u);
}

static unsigned side_groups(const struct sweep_cfg *cfg)
{
    return (sweep_side_groups(cfg) & ~(unsigned)GROUP_CONFIG) | (cfg->lowpan ? GROUP_802154 : 0u);
}

/* A MESH field of the configuration (written once, side 0's; the side column left out),
 * else one of every side. */
static int mesh_config_field(const struct pqpan_run_field *f)
{
    return pqpan_run_field_shown(f, PQPAN_RUN_GROUP_CONFIG) && strcmp(f->name, "side") != 0;
}

static int mesh_side_field(const struct pqpan_run_field *f)
{
    return pqpan_run_field_shown(f, PQPAN_RUN_GROUP_DETAIL);
}

/* The MESH columns of a --link ble-mesh sweep's header. */
static void mesh_header(FILE *f, const struct sweep_cfg *cfg)
{
    size_t n = cfg->n_mesh_fields, k;
    const struct pqpan_run_field *fields = cfg->mesh_fields;
    int s;
    for (k = 0; k < n; k++) {
        if (mesh_config_field(&fields[k])) {
            fprintf(f, ",%s", fields[k].name);
        }
    }
    for (s = 0; s < MESH_SIDES; s++) {
        for (k = 0; k < n; k++) {
            if (mesh_side_field(&fields[k])) {
                fprintf(f, ",%s_%s", mesh_side_name(s), fields[k].name);
            }
        }
    }
}

void sweep_write_header(FILE *f, const struct sweep_cfg *cfg)
{
    const struct sweep_grid *g = &cfg->grid;
    const struct pqpan_run_field *extra;
    unsigned groups = side_groups(cfg);
    char prefix[32];
    size_t i, n;
    int s;
    if (cfg->format == SWEEP_JSONL) {
        return;
    }
    fputs("config,configs,status", f);
    for (i = 0; i < g->n; i++) {
        if (g->opts[i].kind != SWEEP_PER) {
            fprintf(f, ",%s", g->opts[i].column);
        }
    }
    if (cfg->mesh) {
        mesh_header(f, cfg);
    } else {
        model_print_flat(f, NULL, config_groups(cfg), "", FLAT_CSV_NAMES);
    }
    for (s = 0; s < MODEL_SIDES && !cfg->mesh; s++) {
        snprintf(prefix, sizeof prefix, "%s_", model_side_name(groups, s));
        model_print_flat(f, NULL, groups, prefix, FLAT_CSV_NAMES);
    }
    extra = sweep_extra_fields(cfg, &n);
    for (i = 0; i < n; i++) {
        fprintf(f, ",%s", extra[i].name);
    }
    fputc('\n', f);
}

/* The CONFIG row: config, configs, status and the options' values. */
static void write_head(struct sweep_writer *w, const struct pqpan_run_row *row)
{
    FILE *f = w->f;
    int json = w->cfg->format == SWEEP_JSONL;
    size_t i;
    if (json) {
        fprintf(f, "{\"config\":%llu,\"configs\":%llu,\"status\":", row->values[0].u,
                row->values[1].u);
        model_json_string(f, row->values[2].text);
    } else {
        fprintf(f, "%llu,%llu,", row->values[0].u, row->values[1].u);
        cli_csv_string(f, row->values[2].text);
    }
    for (i = 3; i < row->n_fields; i++) {
        if (json) {
            fprintf(f, ",\"%s\":", row->fields[i].name);
            model_json_string(f, row->values[i].text);
        } else {
            fputc(',', f);
            cli_csv_string(f, row->values[i].text);
        }
    }
}

/* A SIDE row: side 0 also writes the configuration's fields; the last the end of the line
 * when no SWEEP_EXTRA row follows. */
static void write_side(struct sweep_writer *w, const struct pqpan_run_row *row)
{
    const struct sweep_cfg *cfg = w->cfg;
    enum model_flat style = cfg->format == SWEEP_JSONL ? FLAT_JSON : FLAT_CSV;
    unsigned groups = side_groups(cfg);
    char prefix[32];
    if (w->sides == 0) {
        model_print_flat(w->f, row->exchange, config_groups(cfg), "", style);
    }
    snprintf(prefix, sizeof prefix, "%s_", model_side_name(groups, w->sides));
    model_print_flat(w->f, row->exchange, groups, prefix, style);
    if (++w->sides < MODEL_SIDES) {
        return;
    }
    w->sides = 0;
    if (!cfg->per && !cfg->chain) {
        fputs(style == FLAT_JSON ? "}\n" : "\n", w->f);
    }
}

/* A CSV field: nothing when unknown. */
static void csv_value(FILE *f, const struct pqpan_run_field *field, const struct pqpan_run_value *v)
{
    char buf[CLI_FIXED_MAX];
    if (!v->known) {
        return;
    }
    if (v->type == PQPAN_RUN_TEXT) {
        cli_csv_string(f, v->text);
    } else if (v->type == PQPAN_RUN_COUNT) {
        fprintf(f, "%llu", v->u);
    } else {
        (void)cli_format_fixed(buf, v->x, field->decimals);
        fputs(buf, f);
    }
}

/* One field of a row: ",value" (CSV) or ",\"PREFIXname\":value" (JSON). */
static void write_field(FILE *f, int json, const char *prefix, const struct pqpan_run_field *field,
                        const struct pqpan_run_value *v)
{
    if (json) {
        fprintf(f, ",\"%s%s\":", prefix, field->name);
        model_json_value(f, field, v);
    } else {
        fputc(',', f);
        csv_value(f, field, v);
    }
}

/* A MESH row (--link ble-mesh): side 0 also writes the configuration's fields; the last
 * the end of the line. */
static void write_mesh_side(struct sweep_writer *w, const struct pqpan_run_row *row)
{
    int json = w->cfg->format == SWEEP_JSONL;
    char prefix[32];
    size_t k;
    for (k = 0; w->sides == 0 && k < row->n_fields; k++) {
        if (mesh_config_field(&row->fields[k])) {
            write_field(w->f, json, "", &row->fields[k], &row->values[k]);
        }
    }
    snprintf(prefix, sizeof prefix, "%s_", mesh_side_name(w->sides));
    for (k = 0; k < row->n_fields; k++) {
        if (mesh_side_field(&row->fields[k])) {
            write_field(w->f, json, prefix, &row->fields[k], &row->values[k]);
        }
    }
    if (++w->sides == MESH_SIDES) {
        w->sides = 0;
        fputs(json ? "}\n" : "\n", w->f);
    }
}

/* The SWEEP_EXTRA row: the chain's and the Monte Carlo's columns, then the end of the
 * line. */
static void write_extra(struct sweep_writer *w, const struct pqpan_run_row *row)
{
    int json = w->cfg->format == SWEEP_JSONL;
    size_t k;
    for (k = 0; k < row->n_fields; k++) {
        write_field(w->f, json, "", &row->fields[k], &row->values[k]);
    }
    fputs(json ? "}\n" : "\n", w->f);
}

/* The run layer's emit: ctx is the writer. */
static int write_record(void *ctx, const struct pqpan_run_row *row)
{
    struct sweep_writer *w = ctx;
    if (row->record == PQPAN_RUN_RECORD_CONFIG) {
        write_head(w, row);
    } else if (row->record == PQPAN_RUN_RECORD_SIDE) {
        write_side(w, row);
    } else if (row->record == PQPAN_RUN_RECORD_MESH) {
        write_mesh_side(w, row);
    } else if (row->record == PQPAN_RUN_RECORD_SWEEP_EXTRA) {
        write_extra(w, row);
    } else {
        return -1; /* a sweep has no other records */
    }
    return 0;
}

int sweep_write_row(FILE *f, struct sweep_writer *w, uint64_t c, struct cli_msg *msg)
{
    w->f = f;
    w->sides = 0;
    return sweep_config_run(w->run, c, write_record, w, msg);
}
