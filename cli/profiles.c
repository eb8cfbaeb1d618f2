/* pqpan profiles: the built-in device profiles, their key figures and sources, run by the
 * run layer (pqpan_run "profiles", src/run/run_profiles.c): this file turns argv into a
 * request and prints the PROFILE and FIGURE rows it gets as a table, CSV or JSON. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "commands.h"
#include "opts.h"
#include "pqpan/run.h"
#include "run_profiles.h"

#define CMD "profiles"

static void format_number(char *out, size_t outlen, double x)
{
    if (fabs(x) < 1e15 && floor(x) == x) {
        snprintf(out, outlen, "%.0f", x);
    } else {
        snprintf(out, outlen, "%.6g", x);
    }
}

/* A value as the list prints it ("n/a" when the profile has none). */
static void value_text(char *out, size_t outlen, const struct pqpan_run_value *v)
{
    if (!v->known) {
        snprintf(out, outlen, "n/a");
    } else if (v->type == PQPAN_RUN_TEXT) {
        snprintf(out, outlen, "%s", v->text);
    } else {
        format_number(out, outlen,
                      v->type == PQPAN_RUN_REAL ? v->x : (double)v->u);
    }
}

/* The list's column widths, in the PROFILE table's order (0: the rest of the line;
 * negative: left-aligned). */
static const int widths[] = {10, 8, 7, 7, 8, 17, 15, 21, 19, 11, 7, -35, 0};
#define N_COLUMNS (sizeof widths / sizeof widths[0])

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

struct printer {
    enum cli_format format;
    int show;        /* profiles show: the figures of one profile */
    int header_done; /* the list's header line */
    cJSON *arr;      /* JSON: the list, or show's figures */
    cJSON *current;  /* JSON: the list's last profile; show: the root */
    cJSON *sources;  /* JSON: its sources */
};

/* The list's header line: the PROFILE table's listed columns. */
static void print_header(const struct pqpan_run_row *row, enum cli_format format)
{
    size_t i;
    for (i = 0; i < N_COLUMNS && i < row->n_fields; i++) {
        const char *s = row->fields[i].name;
        if (format == FORMAT_CSV) {
            printf("%s%s", i > 0 ? "," : "", s);
        } else if (widths[i] != 0) {
            printf(i == 0 ? "%-*s" : "  %*s", widths[i], s);
        } else {
            printf("  %s", s);
        }
    }
    putchar('\n');
}

static void print_profile_line(const struct pqpan_run_row *row, enum cli_format format)
{
    char text[256];
    size_t i;
    for (i = 0; i < N_COLUMNS && i < row->n_fields; i++) {
        value_text(text, sizeof text, &row->values[i]);
        if (format == FORMAT_CSV) {
            if (i > 0) {
                putchar(',');
            }
            if (row->values[i].known) {
                print_csv_text(text);
            }
        } else if (widths[i] != 0) {
            printf(i == 0 ? "%-*s" : "  %*s", widths[i], text);
        } else {
            printf("  %s", text);
        }
    }
    putchar('\n');
}

/* The list's JSON object of a profile (its sources added by the FIGURE rows after it). */
static void json_profile(struct printer *p, const struct pqpan_run_row *row)
{
    cJSON *o = cJSON_CreateObject();
    size_t i;
    for (i = 0; i < N_COLUMNS && i < row->n_fields; i++) {
        const struct pqpan_run_value *v = &row->values[i];
        if (!v->known) {
            cJSON_AddNullToObject(o, row->fields[i].name);
        } else if (v->type == PQPAN_RUN_TEXT) {
            cJSON_AddStringToObject(o, row->fields[i].name, v->text);
        } else {
            cJSON_AddNumberToObject(o, row->fields[i].name,
                                    v->type == PQPAN_RUN_REAL ? v->x : (double)v->u);
        }
    }
    p->sources = cJSON_CreateObject();
    cJSON_AddItemToObject(o, "sources", p->sources);
    cJSON_AddItemToArray(p->arr, o);
}

/* show's heading: the profile's name and description. */
static void show_profile(struct printer *p, const struct pqpan_run_row *row)
{
    const char *name = row->values[0].text, *description = row->values[12].text;
    if (p->format == FORMAT_TABLE) {
        printf("%s: %s\n\n%-34s  %10s  %s\n", name, description, "field", "value", "source");
    } else if (p->format == FORMAT_CSV) {
        printf("field,value,source,derived,other_chip\n");
    } else {
        p->current = cJSON_CreateObject();
        cJSON_AddStringToObject(p->current, "name", name);
        cJSON_AddStringToObject(p->current, "description", description);
    }
}

/* FIGURE fields, in the run layer's order. */
enum { F_FIELD, F_VALUE, F_TEXT, F_SOURCE, F_DERIVED, F_OTHER_CHIP, F_COLUMN };

static const char *text_of(const struct pqpan_run_row *row, int k)
{
    return row->values[k].known ? row->values[k].text : NULL;
}

/* One figure of show. */
static void show_figure(struct printer *p, const struct pqpan_run_row *row)
{
    const char *path = text_of(row, F_FIELD), *text = text_of(row, F_TEXT);
    const char *source = text_of(row, F_SOURCE), *derived = text_of(row, F_DERIVED);
    const char *other = text_of(row, F_OTHER_CHIP);
    int given = row->values[F_VALUE].known;
    char num[64];
    format_number(num, sizeof num, row->values[F_VALUE].x);
    if (text != NULL) {
        snprintf(num, sizeof num, "%s", text);
    }
    if (p->format == FORMAT_TABLE) {
        printf("%-34s  %10s  ", path, given || text ? num : "n/a");
        if (other != NULL) {
            printf("another chip's figure, the %s; ", other);
        }
        if (derived != NULL) {
            printf("derived: %s; from: ", derived);
        }
        printf("%s\n", source);
    } else if (p->format == FORMAT_CSV) {
        printf("%s,%s,", path, given || text ? num : "");
        print_csv_text(source);
        putchar(',');
        print_csv_text(derived != NULL ? derived : "");
        putchar(',');
        print_csv_text(other != NULL ? other : "");
        putchar('\n');
    } else {
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "field", path);
        if (given) {
            cJSON_AddNumberToObject(o, "value", row->values[F_VALUE].x);
        } else if (text != NULL) {
            cJSON_AddStringToObject(o, "value", text);
        } else {
            cJSON_AddNullToObject(o, "value");
        }
        cJSON_AddStringToObject(o, "source", source);
        if (derived != NULL) {
            cJSON_AddStringToObject(o, "derived", derived);
        }
        if (other != NULL) {
            cJSON_AddStringToObject(o, "other_chip", other);
        }
        cJSON_AddItemToArray(p->arr, o);
    }
}

/* pqpan_run's emit. */
static int print_row(void *ctx, const struct pqpan_run_row *row)
{
    struct printer *p = ctx;
    if (row->record == PQPAN_RUN_RECORD_PROFILE && p->show) {
        show_profile(p, row);
    } else if (row->record == PQPAN_RUN_RECORD_PROFILE && p->format == FORMAT_JSON) {
        json_profile(p, row);
    } else if (row->record == PQPAN_RUN_RECORD_PROFILE) {
        if (!p->header_done) {
            print_header(row, p->format);
            p->header_done = 1;
        }
        print_profile_line(row, p->format);
    } else if (row->record == PQPAN_RUN_RECORD_FIGURE && p->show) {
        show_figure(p, row);
    } else if (row->record == PQPAN_RUN_RECORD_FIGURE) {
        if (p->format == FORMAT_JSON) {
            cJSON_AddStringToObject(p->sources, text_of(row, F_COLUMN), text_of(row, F_SOURCE));
        }
    } else {
        return -1; /* no other records in a profiles run */
    }
    return ferror(stdout) ? -1 : 0;
}

static void emit_json(cJSON *root)
{
    char *s = cJSON_Print(root);
    if (s != NULL) {
        printf("%s\n", s);
        free(s);
    }
}

/* What follows the rows: the JSON document, or the list's note. */
static void print_end(struct printer *p)
{
    if (p->format == FORMAT_JSON && p->show) {
        cJSON_AddItemToObject(p->current, "figures", p->arr);
        emit_json(p->current);
        cJSON_Delete(p->current);
        p->arr = NULL;
    } else if (p->format == FORMAT_JSON) {
        emit_json(p->arr);
    } else if (!p->show && p->format == FORMAT_TABLE) {
        printf("\nCurrents in µA at supply_v; 'n/a': the datasheet gives no figure. Sources of "
               "every figure: pqpan profiles show NAME.\n");
    }
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

/* argv as a request: `show NAME` as --show NAME, --format with its value. */
static int request_of(struct pqpan_run_opt *req, size_t *n, int *show, int argc, char **argv)
{
    int i, rc = EXIT_OK, showing = 0;
    *n = 0;
    for (i = 1; i < argc && rc == EXIT_OK; i++) {
        if (strcmp(argv[i], "--format") == 0) {
            rc = cli_request_add(req, n, profiles_opt_row("--format"), CMD, argc, argv, &i);
        } else if (cli_word_equal(argv[i], "show") && i == 1) {
            showing = 1;
        } else if (showing && !*show && argv[i][0] != '-') {
            req[*n].name = "--show";
            req[(*n)++].value = argv[i];
            *show = 1;
        } else {
            return cli_usage_error(CMD, "unexpected argument '%s'", argv[i]);
        }
    }
    if (rc == EXIT_OK && showing && !*show) {
        return cli_usage_error(CMD, "show needs a profile NAME or FILE");
    }
    return rc;
}

int cmd_profiles_run(int argc, char **argv)
{
    struct pqpan_run_opt req[CLI_REQUEST_MAX];
    struct pqpan_run_error err;
    struct printer p;
    size_t n;
    int rc;
    memset(&p, 0, sizeof p);
    if (cli_wants_help(argc, argv)) {
        cmd_profiles_help(stdout);
        return EXIT_OK;
    }
    rc = request_of(req, &n, &p.show, argc, argv);
    if (rc != EXIT_OK) {
        return rc;
    }
    p.format = cli_request_format(req, n);
    p.arr = cJSON_CreateArray();
    rc = cli_run_status(CMD, pqpan_run(CMD, req, n, print_row, &p, &err), &err);
    if (rc == EXIT_OK) {
        print_end(&p);
    }
    if (p.show && p.format == FORMAT_JSON && rc != EXIT_OK) {
        cJSON_Delete(p.current);
    }
    cJSON_Delete(p.arr);
    return rc;
}
