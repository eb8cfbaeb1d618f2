/* Cycle tables from CSV (data/cycles/): RFC 4180 fields (quotes, doubled quotes, commas
 * inside quotes), columns found by their header names. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli.h"
#include "data_load.h"

#define CSV_FIELDS_MAX 24
#define CSV_FIELD_LEN 512

struct csv_row {
    char field[CSV_FIELDS_MAX][CSV_FIELD_LEN];
    size_t count;
};

/* Columns pqpan reads; -1 when absent. */
struct columns {
    int scheme, impl, op, cycles, stack, code, repo, commit;
    int runs, median, p99, max; /* the spread of a repeated measurement */
};

struct cursor {
    const char *p, *end;
    size_t line;
};

static int add_char(struct csv_row *r, size_t *len, char ch)
{
    if (*len + 1 >= CSV_FIELD_LEN) {
        return -1;
    }
    r->field[r->count][(*len)++] = ch;
    return 0;
}

static int end_field(struct csv_row *r, size_t *len)
{
    r->field[r->count][*len] = '\0';
    *len = 0;
    if (++r->count >= CSV_FIELDS_MAX) {
        return -1;
    }
    return 0;
}

/* Reads one record. Returns 1 on a record, 0 at the end, -1 on a malformed one. */
static int csv_next(struct cursor *cur, struct csv_row *r)
{
    size_t len = 0;
    int quoted = 0;
    r->count = 0;
    if (cur->p >= cur->end) {
        return 0;
    }
    cur->line++;
    while (cur->p < cur->end) {
        char ch = *cur->p++;
        if (quoted) {
            if (ch == '"' && cur->p < cur->end && *cur->p == '"') {
                cur->p++;
            } else if (ch == '"') {
                quoted = 0;
                continue;
            }
            if (add_char(r, &len, ch) != 0) {
                return -1;
            }
        } else if (ch == '"' && len == 0) {
            quoted = 1;
        } else if (ch == ',') {
            if (end_field(r, &len) != 0) {
                return -1;
            }
        } else if (ch == '\n') {
            break;
        } else if (ch != '\r' && add_char(r, &len, ch) != 0) {
            return -1;
        }
    }
    if (quoted) {
        return -1;
    }
    return end_field(r, &len) == 0 ? 1 : -1;
}

static int column(const struct csv_row *h, const char *name)
{
    size_t i;
    for (i = 0; i < h->count; i++) {
        if (strcmp(h->field[i], name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

static int find_columns(struct columns *c, const struct csv_row *h)
{
    c->scheme = column(h, "scheme");
    c->impl = column(h, "implementation");
    c->op = column(h, "operation");
    c->cycles = column(h, "cycles") >= 0 ? column(h, "cycles") : column(h, "cycles_mean");
    c->stack = column(h, "stack_bytes");
    c->code = column(h, "code_bytes");
    c->repo = column(h, "source_repo");
    c->commit = column(h, "source_commit");
    c->runs = column(h, "runs") >= 0 ? column(h, "runs") : column(h, "executions");
    c->median = column(h, "cycles_median");
    c->p99 = column(h, "cycles_p99");
    c->max = column(h, "cycles_max");
    return c->scheme >= 0 && c->impl >= 0 && c->op >= 0 && c->cycles >= 0;
}

/* Which modelled operation a row is; 0 if pqpan does not model it (ECDSA, ...). */
static int map_op(const char *scheme, const char *operation, enum pqpan_op *op)
{
    int kem = strncasecmp(scheme, "ml-kem", 6) == 0;
    int ecc = strncasecmp(scheme, "ml-", 3) != 0;
    if (strncasecmp(scheme, "ml-dsa", 6) == 0) {
        static const char *const names[] = {"keygen", "sign", "verify", NULL};
        static const enum pqpan_op ops[] = {PQPAN_OP_SIG_KEYGEN, PQPAN_OP_SIG_SIGN,
                                            PQPAN_OP_SIG_VERIFY};
        const int k = cli_word_index(names, operation);
        if (k < 0) {
            return 0;
        }
        *op = ops[k];
    } else if (strcmp(operation, "kdf") == 0 && kem) {
        *op = PQPAN_OP_KDF;
    } else if (strstr(operation, "keygen") != NULL && (kem || ecc)) {
        *op = kem ? PQPAN_OP_KEM_KEYGEN : PQPAN_OP_ECDH_KEYGEN;
    } else if (strcmp(operation, "encaps") == 0 && kem) {
        *op = PQPAN_OP_KEM_ENCAPS;
    } else if (strcmp(operation, "decaps") == 0 && kem) {
        *op = PQPAN_OP_KEM_DECAPS;
    } else if (strcmp(operation, "ecdh_shared_secret") == 0 && ecc) {
        *op = PQPAN_OP_ECDH_SHARED;
    } else {
        return 0;
    }
    return 1;
}

/* A decimal integer in [min, max]; empty allowed when allow_empty (gives 0). */
static int parse_count(const char *s, unsigned long long min, unsigned long long max,
                       int allow_empty, unsigned long long *out)
{
    if (allow_empty && s[0] == '\0') {
        *out = 0;
        return 0;
    }
    return cli_parse_uint(s, min, max, out);
}

/* Appends at most maxn bytes of s to out, keeping out NUL-terminated within outlen. */
static void append(char *out, size_t outlen, const char *s, size_t maxn)
{
    size_t used = strlen(out);
    while (*s != '\0' && maxn > 0 && used + 1 < outlen) {
        out[used++] = *s++;
        maxn--;
    }
    out[used] = '\0';
}

/* "repo@commit12" when the row names its repository, else "file.csv@commit12". */
static void row_source(char *out, size_t outlen, const struct csv_row *r, const struct columns *c,
                       const char *origin)
{
    const char *base = strrchr(origin, '/');
    const char *commit = c->commit >= 0 ? r->field[c->commit] : "";
    out[0] = '\0';
    base = base != NULL ? base + 1 : origin;
    if (c->repo >= 0 && r->field[c->repo][0] != '\0') {
        append(out, outlen, r->field[c->repo], (size_t)-1);
    } else {
        append(out, outlen, base, strcspn(base, " "));
    }
    if (commit[0] != '\0') {
        append(out, outlen, "@", 1);
        append(out, outlen, commit, 12);
    }
}

static int fail_line(char *err, size_t errlen, const char *origin, size_t line, const char *field,
                     const char *problem)
{
    snprintf(err, errlen, "%s: line %zu: %s: %s", origin, line, field, problem);
    return EXIT_BAD_INPUT;
}

/* Column col (when the table has it) as a count in [0, max] into *out (0 when absent or
 * empty). Returns 0, or -1 when the value is not such a count. */
static int optional_count(const struct csv_row *r, int col, unsigned long long max,
                          unsigned long long *out)
{
    *out = 0;
    return col >= 0 ? parse_count(r->field[col], 0, max, 1, out) : 0;
}

/* The spread columns (runs, cycles_median, cycles_p99, cycles_max) where the table has them. */
static int build_spread(struct pqpan_cycle_row *row, const struct csv_row *r,
                        const struct columns *c, const char *origin, size_t line, char *err,
                        size_t errlen)
{
    static const char *const names[] = {"cycles_median", "cycles_p99", "cycles_max"};
    const int cols[] = {c->median, c->p99, c->max};
    uint64_t *const out[] = {&row->cycles_median, &row->cycles_p99, &row->cycles_max};
    unsigned long long v;
    size_t k;
    if (optional_count(r, c->runs, 0xFFFFFFFFULL, &v) != 0) {
        return fail_line(err, errlen, origin, line, "runs", "not a non-negative integer");
    }
    row->runs = (uint32_t)v;
    for (k = 0; k < 3; k++) {
        if (optional_count(r, cols[k], 1000000000000ULL, &v) != 0) {
            return fail_line(err, errlen, origin, line, names[k], "not a non-negative integer");
        }
        *out[k] = v;
    }
    return EXIT_OK;
}

static int build_row(struct pqpan_cycle_row *row, const struct csv_row *r,
                     const struct columns *c, const char *origin, size_t line, char *err,
                     size_t errlen)
{
    unsigned long long cycles, stack, code;
    memset(row, 0, sizeof *row);
    if (strlen(r->field[c->scheme]) >= sizeof row->scheme || r->field[c->scheme][0] == '\0') {
        return fail_line(err, errlen, origin, line, "scheme", "empty or longer than 23 characters");
    }
    if (strlen(r->field[c->impl]) >= sizeof row->impl || r->field[c->impl][0] == '\0') {
        return fail_line(err, errlen, origin, line, "implementation",
                         "empty or longer than 23 characters");
    }
    if (parse_count(r->field[c->cycles], 1, 1000000000000ULL, 0, &cycles) != 0) {
        return fail_line(err, errlen, origin, line, "cycles", "not a positive integer");
    }
    if (c->stack >= 0 && parse_count(r->field[c->stack], 0, 0xFFFFFFFFULL, 1, &stack) != 0) {
        return fail_line(err, errlen, origin, line, "stack_bytes", "not a non-negative integer");
    }
    if (c->code >= 0 && parse_count(r->field[c->code], 0, 0xFFFFFFFFULL, 1, &code) != 0) {
        return fail_line(err, errlen, origin, line, "code_bytes", "not a non-negative integer");
    }
    strcpy(row->scheme, r->field[c->scheme]);
    strcpy(row->impl, r->field[c->impl]);
    row->cycles = cycles;
    row->stack_bytes = c->stack >= 0 ? (uint32_t)stack : 0;
    row->code_bytes = c->code >= 0 ? (uint32_t)code : 0;
    row_source(row->source, sizeof row->source, r, c, origin);
    return build_spread(row, r, c, origin, line, err, errlen);
}

static int parse_rows(struct pqpan_cycle_table *t, struct cursor *cur, struct csv_row *r,
                      const struct columns *c, size_t width, const char *origin, char *err,
                      size_t errlen)
{
    int got;
    while ((got = csv_next(cur, r)) == 1) {
        struct pqpan_cycle_row row;
        int rc;
        if (r->count == 1 && r->field[0][0] == '\0') {
            continue; /* blank line */
        }
        if (r->count != width) {
            return fail_line(err, errlen, origin, cur->line, "(row)",
                             "number of fields differs from the header");
        }
        rc = build_row(&row, r, c, origin, cur->line, err, errlen);
        if (rc != EXIT_OK) {
            return rc;
        }
        if (!map_op(row.scheme, r->field[c->op], &row.op)) {
            continue;
        }
        if (pqpan_cycles_add(t, &row) != PQPAN_OK) {
            return fail_line(err, errlen, origin, cur->line, "(row)", "cycle table full");
        }
    }
    if (got < 0) {
        return fail_line(err, errlen, origin, cur->line, "(row)",
                         "malformed CSV (unterminated quote, field or row too long)");
    }
    return EXIT_OK;
}

int data_cycles_parse(struct pqpan_cycle_table *t, const char *text, size_t len,
                      const char *origin, char *err, size_t errlen)
{
    struct cursor cur = {text, text + len, 0};
    struct columns c;
    struct csv_row *r = malloc(sizeof *r);
    size_t before = t->count;
    int rc;
    if (r == NULL) {
        snprintf(err, errlen, "%s: out of memory", origin);
        return EXIT_IO;
    }
    if (csv_next(&cur, r) != 1 || !find_columns(&c, r)) {
        free(r);
        snprintf(err, errlen,
                 "%s: line 1: header must name scheme, implementation, operation and cycles "
                 "(or cycles_mean)",
                 origin);
        return EXIT_BAD_INPUT;
    }
    rc = parse_rows(t, &cur, r, &c, r->count, origin, err, errlen);
    free(r);
    if (rc != EXIT_OK) {
        memset(&t->rows[before], 0, (t->count - before) * sizeof t->rows[0]);
        t->count = before;
    }
    return rc;
}
