/* pqpan profiles: the built-in device profiles, their key figures and sources. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"
#include "data_load.h"

#define CELL_TEXT 128

static void format_number(char *out, size_t outlen, double x)
{
    if (fabs(x) < 1e15 && floor(x) == x) {
        snprintf(out, outlen, "%.0f", x);
    } else {
        snprintf(out, outlen, "%.6g", x);
    }
}

/* ---- pqpan profiles (list) ---- */

struct cell {
    int is_number;
    int given;
    double number;
    char text[CELL_TEXT];
    char *source; /* a copy of the figure's source in the profile document, or NULL */
};

enum {
    COL_NAME,
    COL_SUPPLY_V,
    COL_CPU_MHZ,
    COL_CPU_UA,
    COL_SLEEP_UA,
    COL_TX0_SYSTEM,
    COL_RX1M_SYSTEM,
    COL_TX0_RADIO,
    COL_RX1M_RADIO,
    COL_ASSUMPTIONS,
    COL_DERIVED,
    COL_DATASHEET,
    COL_DESCRIPTION,
    COL_COUNT
};

/* Output columns; figure is the profile-file path whose source the JSON output quotes. */
static const struct {
    const char *name;
    int width;
    const char *figure;
} columns[COL_COUNT] = {
    {"name", 10, NULL},
    {"supply_v", 8, "supply_v"},
    {"cpu_mhz", 7, "cpu_hz"},
    {"cpu_ua", 7, "cpu_ua"},
    {"sleep_ua", 8, "sleep_ua"},
    {"tx_0dbm_system_ua", 17, "currents.system.tx_ua.0dbm"},
    {"rx_1m_system_ua", 15, "currents.system.rx_ua.ble_1m"},
    {"tx_0dbm_radio_only_ua", 21, "currents.radio_only.tx_ua.0dbm"},
    {"rx_1m_radio_only_ua", 19, "currents.radio_only.rx_ua.ble_1m"},
    {"assumptions", 11, NULL},
    {"derived", 7, NULL},
    {"datasheet", -35, NULL},
    {"description", 0, NULL},
};

static void set_number(struct cell *c, int given, double x)
{
    c->is_number = 1;
    c->given = given;
    c->number = x;
    if (given) {
        format_number(c->text, sizeof c->text, x);
    } else {
        snprintf(c->text, sizeof c->text, "n/a");
    }
}

static void set_text(struct cell *c, const char *s)
{
    c->is_number = 0;
    c->given = 1;
    snprintf(c->text, sizeof c->text, "%s", s);
}

/* One walk over a profile's figures: how many are assumptions and how many derived from
 * others, and a copy of the source of each column's figure. */
struct row_walk {
    struct cell *row;
    int assumptions, derived;
};

static char *copy_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *c = malloc(n);
    if (c != NULL) {
        memcpy(c, s, n);
    }
    return c;
}

static void row_figure(const struct pqpan_io_figure *f, void *ctx)
{
    struct row_walk *w = ctx;
    int i;
    if (strncmp(f->source, "assumption", 10) == 0) {
        w->assumptions++;
    }
    if (f->derived != NULL) {
        w->derived++;
    }
    for (i = 0; i < COL_COUNT; i++) {
        if (columns[i].figure != NULL && strcmp(columns[i].figure, f->path) == 0) {
            free(w->row[i].source);
            w->row[i].source = copy_text(f->source);
        }
    }
}

static void free_sources(struct cell row[COL_COUNT])
{
    int i;
    for (i = 0; i < COL_COUNT; i++) {
        free(row[i].source);
        row[i].source = NULL;
    }
}

/* The profile document's "datasheet" text into sheet ("" when it has none). */
static void datasheet_of(char sheet[CELL_TEXT], const struct pqpan_io_text *t)
{
    cJSON *doc = cJSON_ParseWithLength(t->text, t->len);
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(doc, "datasheet");
    snprintf(sheet, CELL_TEXT, "%s", cJSON_IsString(v) ? v->valuestring : "");
    cJSON_Delete(doc);
}

static int fill_row(struct cell row[COL_COUNT], const struct pqpan_profile *p,
                    const struct pqpan_io_text *t)
{
    char sheet[CELL_TEXT];
    double ua;
    struct row_walk walk = {row, 0, 0};
    int ok, rc;
    set_text(&row[COL_NAME], p->name);
    set_number(&row[COL_SUPPLY_V], 1, p->supply_v);
    set_number(&row[COL_CPU_MHZ], 1, p->cpu_hz / 1e6);
    set_number(&row[COL_CPU_UA], 1, p->cpu_ua);
    set_number(&row[COL_SLEEP_UA], 1, p->sleep_ua);
    ok = pqpan_profile_tx_ua(p, PQPAN_CURRENTS_SYSTEM, 0, &ua) == PQPAN_OK;
    set_number(&row[COL_TX0_SYSTEM], ok, ua);
    ok = pqpan_profile_rx_ua(p, PQPAN_CURRENTS_SYSTEM, PQPAN_RADIO_BLE_1M, &ua) == PQPAN_OK;
    set_number(&row[COL_RX1M_SYSTEM], ok, ua);
    ok = pqpan_profile_tx_ua(p, PQPAN_CURRENTS_RADIO_ONLY, 0, &ua) == PQPAN_OK;
    set_number(&row[COL_TX0_RADIO], ok, ua);
    ok = pqpan_profile_rx_ua(p, PQPAN_CURRENTS_RADIO_ONLY, PQPAN_RADIO_BLE_1M, &ua) == PQPAN_OK;
    set_number(&row[COL_RX1M_RADIO], ok, ua);
    rc = pqpan_io_profile_walk(t->text, t->len, row_figure, &walk);
    set_number(&row[COL_ASSUMPTIONS], 1, walk.assumptions);
    set_number(&row[COL_DERIVED], 1, walk.derived);
    datasheet_of(sheet, t);
    set_text(&row[COL_DATASHEET], sheet);
    set_text(&row[COL_DESCRIPTION], p->description);
    return data_exit_code(rc);
}

static void print_table_row(const struct cell row[COL_COUNT], int header)
{
    int i;
    for (i = 0; i < COL_COUNT; i++) {
        const char *s = header ? columns[i].name : row[i].text;
        if (columns[i].width != 0) {
            printf(i == 0 ? "%-*s" : "  %*s", columns[i].width, s);
        } else {
            printf("  %s", s);
        }
    }
    printf("\n");
}

static void print_csv_text(const char *s)
{
    if (strpbrk(s, ",\"\n") == NULL) {
        fputs(s, stdout);
        return;
    }
    putchar('"');
    for (; *s != '\0'; s++) {
        if (*s == '"') {
            putchar('"');
        }
        putchar(*s);
    }
    putchar('"');
}

static void print_csv_row(const struct cell row[COL_COUNT], int header)
{
    int i;
    for (i = 0; i < COL_COUNT; i++) {
        if (i > 0) {
            putchar(',');
        }
        if (header) {
            fputs(columns[i].name, stdout);
        } else if (row[i].given) {
            print_csv_text(row[i].text);
        }
    }
    putchar('\n');
}

static cJSON *json_row(const struct cell row[COL_COUNT])
{
    cJSON *o = cJSON_CreateObject();
    cJSON *sources = cJSON_CreateObject();
    int i;
    for (i = 0; i < COL_COUNT; i++) {
        if (!row[i].given) {
            cJSON_AddNullToObject(o, columns[i].name);
        } else if (row[i].is_number) {
            cJSON_AddNumberToObject(o, columns[i].name, row[i].number);
        } else {
            cJSON_AddStringToObject(o, columns[i].name, row[i].text);
        }
        if (row[i].source != NULL) {
            cJSON_AddStringToObject(sources, columns[i].name, row[i].source);
        }
    }
    cJSON_AddItemToObject(o, "sources", sources);
    return o;
}

/* The profile and its text (for walking its figures; the caller frees it). */
static int load_profile(struct pqpan_profile *p, struct pqpan_io_text *t, const char *name)
{
    char err[PQPAN_IO_ERR_MAX];
    int rc = pqpan_io_profile_text(t, name, err, sizeof err);
    if (rc == PQPAN_OK) {
        rc = pqpan_io_profile_parse(p, NULL, t->text, t->len, t->origin, err, sizeof err);
    }
    if (rc != PQPAN_OK) {
        pqpan_io_text_free(t);
        fprintf(stderr, "pqpan profiles: %s\n", err);
    }
    return data_exit_code(rc);
}

static void emit_json(cJSON *root)
{
    char *s = cJSON_Print(root);
    if (s != NULL) {
        printf("%s\n", s);
        free(s);
    }
}

static int list_profiles(enum cli_format fmt)
{
    size_t i, n = pqpan_io_profile_builtin_count();
    cJSON *arr = cJSON_CreateArray();
    struct cell row[COL_COUNT];
    memset(row, 0, sizeof row);
    if (fmt == FORMAT_TABLE) {
        print_table_row(row, 1);
    } else if (fmt == FORMAT_CSV) {
        print_csv_row(row, 1);
    }
    for (i = 0; i < n; i++) {
        struct pqpan_profile p;
        struct pqpan_io_text t;
        char name[64];
        int rc = load_profile(&p, &t, pqpan_io_profile_builtin_name(i, name, sizeof name));
        if (rc == EXIT_OK) {
            rc = fill_row(row, &p, &t);
            pqpan_io_text_free(&t);
        }
        if (rc != EXIT_OK) {
            free_sources(row);
            cJSON_Delete(arr);
            return rc;
        }
        if (fmt == FORMAT_TABLE) {
            print_table_row(row, 0);
        } else if (fmt == FORMAT_CSV) {
            print_csv_row(row, 0);
        } else {
            cJSON_AddItemToArray(arr, json_row(row));
        }
        free_sources(row);
    }
    if (fmt == FORMAT_JSON) {
        emit_json(arr);
    } else if (fmt == FORMAT_TABLE) {
        printf("\nCurrents in µA at supply_v; 'n/a': the datasheet gives no figure. Sources of "
               "every figure: pqpan profiles show NAME.\n");
    }
    cJSON_Delete(arr);
    return EXIT_OK;
}

/* ---- pqpan profiles show ---- */

struct show_ctx {
    enum cli_format fmt;
    cJSON *arr;
};

static void show_leaf(const struct pqpan_io_figure *l, void *vctx)
{
    struct show_ctx *ctx = vctx;
    char num[64];
    format_number(num, sizeof num, l->value);
    if (l->text != NULL) {
        snprintf(num, sizeof num, "%s", l->text);
    }
    if (ctx->fmt == FORMAT_TABLE) {
        printf("%-34s  %10s  ", l->path, l->given || l->text ? num : "n/a");
        if (l->other_chip != NULL) {
            printf("another chip's figure, the %s; ", l->other_chip);
        }
        if (l->derived != NULL) {
            printf("derived: %s; from: ", l->derived);
        }
        printf("%s\n", l->source);
    } else if (ctx->fmt == FORMAT_CSV) {
        printf("%s,%s,", l->path, l->given || l->text ? num : "");
        print_csv_text(l->source);
        putchar(',');
        print_csv_text(l->derived != NULL ? l->derived : "");
        putchar(',');
        print_csv_text(l->other_chip != NULL ? l->other_chip : "");
        putchar('\n');
    } else {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "field", l->path);
        if (l->given) {
            cJSON_AddNumberToObject(o, "value", l->value);
        } else if (l->text != NULL) {
            cJSON_AddStringToObject(o, "value", l->text);
        } else {
            cJSON_AddNullToObject(o, "value");
        }
        cJSON_AddStringToObject(o, "source", l->source);
        if (l->derived != NULL) {
            cJSON_AddStringToObject(o, "derived", l->derived);
        }
        if (l->other_chip != NULL) {
            cJSON_AddStringToObject(o, "other_chip", l->other_chip);
        }
        cJSON_AddItemToArray(ctx->arr, o);
    }
}

static int show_profile(const char *name, enum cli_format fmt)
{
    struct pqpan_profile p;
    struct show_ctx ctx;
    struct pqpan_io_text t;
    int rc = load_profile(&p, &t, name);
    if (rc != EXIT_OK) {
        return rc;
    }
    ctx.fmt = fmt;
    ctx.arr = cJSON_CreateArray();
    if (fmt == FORMAT_TABLE) {
        printf("%s: %s\n\n%-34s  %10s  %s\n", p.name, p.description, "field", "value", "source");
    } else if (fmt == FORMAT_CSV) {
        printf("field,value,source,derived,other_chip\n");
    }
    rc = data_exit_code(pqpan_io_profile_walk(t.text, t.len, show_leaf, &ctx));
    pqpan_io_text_free(&t);
    if (fmt == FORMAT_JSON) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "name", p.name);
        cJSON_AddStringToObject(root, "description", p.description);
        cJSON_AddItemToObject(root, "figures", ctx.arr);
        emit_json(root);
        cJSON_Delete(root);
    } else {
        cJSON_Delete(ctx.arr);
    }
    return rc;
}

void cmd_profiles_help(FILE *out)
{
    fprintf(out,
            "usage: pqpan profiles [--format table|csv|json]\n"
            "       pqpan profiles show NAME|FILE [--format table|csv|json]\n\n"
            "Lists the built-in device profiles (data/profiles/*.json, compiled in) with their\n"
            "key figures, or prints every figure of one profile with its source.\n\n"
            "  show NAME|FILE  one profile: a built-in NAME (e.g. nrf52840) or a profile file of\n"
            "                  your own in the same format (docs/MODEL.md \"Profile file format\")\n"
            "  --format F      table (default), csv or json\n\n"
            "Columns of the list: supply_v (V), cpu_mhz (MHz), cpu_ua (CPU running, µA),\n"
            "sleep_ua (µA), TX 0 dBm and RX 1M currents (µA) from the system-level table and the\n"
            "radio-only table ('n/a' where the datasheet gives none), the number of figures that\n"
            "are assumptions rather than datasheet values, the number derived from other figures\n"
            "(each says how), and the main datasheet. The JSON output adds each figure's source.\n"
            "show: every figure with its source; a derived figure also says how it is computed\n"
            "(table: 'derived: HOW; from: SOURCE'; CSV: a derived column; JSON: a derived member).\n"
            "Exit codes: 0 ok, 2 usage (unknown option or profile name), 3 invalid profile file,\n"
            "4 file not readable.\n");
}

/* A built-in profile's name given in another case, respelled as the name. */
static void respell_builtin(char *name)
{
    char builtin[64];
    size_t k;
    for (k = 0; k < pqpan_io_profile_builtin_count(); k++) {
        cli_word_respell(name, pqpan_io_profile_builtin_name(k, builtin, sizeof builtin));
    }
}

int cmd_profiles_run(int argc, char **argv)
{
    enum cli_format fmt = FORMAT_TABLE;
    const char *show = NULL;
    int i, showing = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            cmd_profiles_help(stdout);
            return EXIT_OK;
        } else if (strcmp(argv[i], "--format") == 0) {
            if (cli_opt_take(&cli_format_table, &fmt, "profiles", argc, argv, &i) < 0) {
                return EXIT_USAGE;
            }
        } else if (cli_word_equal(argv[i], "show") && i == 1) {
            showing = 1;
        } else if (showing && show == NULL && argv[i][0] != '-') {
            respell_builtin(argv[i]);
            show = argv[i];
        } else {
            return cli_usage_error("profiles", "unexpected argument '%s'", argv[i]);
        }
    }
    if (showing && show == NULL) {
        return cli_usage_error("profiles", "show needs a profile NAME or FILE");
    }
    return showing ? show_profile(show, fmt) : list_profiles(fmt);
}
