/* pqpan sweep merge: the files of `sweep --shard K/N` runs joined into the file the whole
 * sweep writes. Two passes over the files, in the order of their first configuration:
 * the first checks that the headers (CSV header line; JSON Lines: the member names) agree
 * and that the rows hold every configuration 0 .. configs-1 exactly once, in order; the
 * second copies them. Nothing is written when a check fails. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "sweep.h"
#include "opts_registry.h"

#define CMD "sweep merge"

struct shard {
    const char *path;
    uint64_t first; /* config of its first row; UINT64_MAX when it has none */
    int empty;      /* no line at all (a JSON Lines shard without rows) */
};

struct merge {
    struct shard *files;
    size_t n;
    const char *out;
    int valid_only;
    int jsonl;      /* the files' format, from the first file that has a line */
    int format_known;
    char *header;   /* CSV header line, or JSON Lines member names; NULL until seen */
    uint64_t total; /* configs; 0 until seen */
    char *line;     /* getline buffer */
    size_t cap;
};

static int bad_data(const char *path, unsigned long long line, const char *why)
{
    fprintf(stderr, "pqpan %s: %s:%llu: %s\n", CMD, path, line, why);
    return EXIT_BAD_INPUT;
}

static int open_file(FILE **f, const char *path)
{
    *f = fopen(path, "r");
    if (*f == NULL) {
        fprintf(stderr, "pqpan %s: cannot read %s: %s\n", CMD, path, strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

/* The next line into m->line (with its '\n'): 1, 0 at the end, -1 for a last line
 * without '\n' (a row cut short). */
static int next_line(struct merge *m, FILE *f)
{
    ssize_t n = getline(&m->line, &m->cap, f);
    if (n <= 0) {
        return 0;
    }
    return m->line[n - 1] == '\n' ? 1 : -1;
}

/* The decimal at *p, which must be followed by stop; advances *p past stop. */
static int read_index(const char **p, char stop, uint64_t *v)
{
    const char *s = *p;
    uint64_t x = 0;
    if (*s < '0' || *s > '9') {
        return -1;
    }
    for (; *s >= '0' && *s <= '9'; s++) {
        if (x > (UINT64_MAX - 9u) / 10u) {
            return -1;
        }
        x = x * 10u + (uint64_t)(*s - '0');
    }
    if (*s != stop) {
        return -1;
    }
    *v = x;
    *p = s + 1;
    return 0;
}

/* config, configs and whether the status is ok, from a row (what `sweep` writes first:
 * "C,T,STATUS," or {"config":C,"configs":T,"status":"..."). */
static int row_head(const char *row, int jsonl, uint64_t *c, uint64_t *t, int *ok)
{
    const char *p = row + 10;
    if (jsonl) {
        if (strncmp(row, "{\"config\":", 10) != 0 || read_index(&p, ',', c) != 0 ||
            strncmp(p, "\"configs\":", 10) != 0) {
            return -1;
        }
        p += 10;
        if (read_index(&p, ',', t) != 0) {
            return -1;
        }
        *ok = strncmp(p, "\"status\":\"ok\",", 14) == 0 || strncmp(p, "\"status\":\"ok\"}", 14) == 0;
        return 0;
    }
    p = row;
    if (read_index(&p, ',', c) != 0 || read_index(&p, ',', t) != 0) {
        return -1;
    }
    *ok = strncmp(p, "ok,", 3) == 0 || strcmp(p, "ok\n") == 0;
    return 0;
}

/* The member names of a JSON Lines row, in order, as "name,name,...". Members are
 * strings, numbers or null; strings may hold escapes. */
static char *json_names(const char *row)
{
    size_t n = strlen(row), k = 0, i;
    char *out = malloc(n + 1);
    int in_string = 0, is_key = 0, expect_key = 1;
    if (out == NULL) {
        return NULL;
    }
    for (i = 1; i < n; i++) {
        char ch = row[i];
        if (in_string) {
            if (ch == '\\' && i + 1 < n) {
                if (is_key) {
                    out[k++] = ch;
                    out[k++] = row[i + 1];
                }
                i++;
            } else if (ch == '"') {
                in_string = 0;
                if (is_key) {
                    out[k++] = ',';
                }
            } else if (is_key) {
                out[k++] = ch;
            }
        } else if (ch == '"') {
            in_string = 1;
            is_key = expect_key;
            expect_key = 0;
        } else if (ch == ',') {
            expect_key = 1;
        }
    }
    out[k] = '\0';
    return out;
}

/* The file's header: its first line (CSV) or its first row's member names (JSON Lines);
 * the first file's is kept, the others must equal it. */
static int check_header(struct merge *m, const char *path, const char *first_line)
{
    char *h = m->jsonl ? json_names(first_line) : strdup(first_line);
    if (h == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    if (m->header == NULL) {
        m->header = h;
        return EXIT_OK;
    }
    if (strcmp(m->header, h) != 0) {
        free(h);
        return bad_data(path, 1, m->jsonl ? "its members differ from the first file's "
                                            "(not shards of one sweep)"
                                          : "its header differs from the first file's (not "
                                            "shards of one sweep)");
    }
    free(h);
    return EXIT_OK;
}

/* Pass 0: each file's format, header and first configuration. */
static int peek(struct merge *m, struct shard *s)
{
    FILE *f;
    uint64_t c, t;
    int ok, rc = open_file(&f, s->path), got;
    s->first = UINT64_MAX;
    if (rc != EXIT_OK) {
        return rc;
    }
    got = next_line(m, f);
    if (got == 0) {
        s->empty = 1;
        fclose(f);
        return EXIT_OK;
    }
    if (!m->format_known) {
        m->jsonl = m->line[0] == '{';
        m->format_known = 1;
    }
    if ((m->line[0] == '{') != m->jsonl) {
        fclose(f);
        return bad_data(s->path, 1, "not the format of the first file (CSV and JSON Lines mixed)");
    }
    rc = got < 0 ? bad_data(s->path, 1, "the line has no end (cut short)")
                 : check_header(m, s->path, m->line);
    if (rc == EXIT_OK && !m->jsonl) {
        got = next_line(m, f);
    }
    if (rc == EXIT_OK && got > 0) {
        rc = row_head(m->line, m->jsonl, &c, &t, &ok) == 0
                 ? EXIT_OK
                 : bad_data(s->path, m->jsonl ? 1 : 2, "not a row of pqpan sweep");
        s->first = c;
    }
    fclose(f);
    return rc;
}

static int by_first(const void *a, const void *b)
{
    const struct shard *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* One row of pass 1: its configuration must be the next one expected. */
static int check_row(struct merge *m, const char *path, unsigned long long line, uint64_t *next)
{
    char why[160];
    uint64_t c, t;
    int ok;
    if (row_head(m->line, m->jsonl, &c, &t, &ok) != 0) {
        return bad_data(path, line, "not a row of pqpan sweep");
    }
    if (m->total == 0) {
        m->total = t;
    }
    if (t != m->total) {
        snprintf(why, sizeof why, "configs %llu, but %llu in the files before: not shards of one "
                                  "sweep", (unsigned long long)t, (unsigned long long)m->total);
        return bad_data(path, line, why);
    }
    if (c < *next) {
        snprintf(why, sizeof why, "configuration %llu again (in two shards, or twice)",
                 (unsigned long long)c);
        return bad_data(path, line, why);
    }
    if (c > *next) {
        snprintf(why, sizeof why, "configurations %llu..%llu missing before this row "
                                  "(a shard missing or cut short)",
                 (unsigned long long)*next, (unsigned long long)(c - 1));
        return bad_data(path, line, why);
    }
    if (c >= m->total) {
        return bad_data(path, line, "configuration beyond configs");
    }
    *next = c + 1;
    return EXIT_OK;
}

/* Pass 1 (out NULL): checks every row; pass 2: copies them to out. */
static int pass(struct merge *m, FILE *out)
{
    uint64_t next = 0;
    size_t k;
    int rc = EXIT_OK;
    for (k = 0; k < m->n && rc == EXIT_OK; k++) {
        unsigned long long line = 0;
        FILE *f;
        int got;
        rc = open_file(&f, m->files[k].path);
        while (rc == EXIT_OK && (got = next_line(m, f)) != 0) {
            uint64_t c, t;
            int ok = 1;
            line++;
            if (got < 0) {
                rc = bad_data(m->files[k].path, line, "the last row has no end (cut short)");
            } else if (line == 1 && !m->jsonl) {
                continue; /* the header, checked by peek */
            } else if (out == NULL) {
                rc = check_row(m, m->files[k].path, line, &next);
            } else if (row_head(m->line, m->jsonl, &c, &t, &ok) == 0 && (ok || !m->valid_only)) {
                fputs(m->line, out);
            }
        }
        if (f != NULL) {
            fclose(f);
        }
    }
    if (rc == EXIT_OK && out == NULL && (m->total == 0 || next != m->total)) {
        char why[160];
        snprintf(why, sizeof why, "configurations %llu..%llu missing (a shard missing or cut "
                                  "short)",
                 (unsigned long long)next, (unsigned long long)(m->total > 0 ? m->total - 1 : 0));
        fprintf(stderr, "pqpan %s: %s\n", CMD, m->total == 0 ? "no rows in the files" : why);
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

/* merge's options (the files are its operands). */
struct merge_opts {
    const char *out;
    int valid_only;
};

static const struct cli_opt merge_rows[] = {
    {.name = "--valid-only", .kind = CLI_OPT_FLAG, .store = CLI_STORE_INT,
     .offset = offsetof(struct merge_opts, valid_only),
     .help = "leave out the rows whose status is not ok"},
    {.name = "--out", .kind = CLI_OPT_TEXT, .meta = "FILE", .store = CLI_STORE_STR,
     .offset = offsetof(struct merge_opts, out), .def = PQPAN_DEFAULT_OUT,
     .help = "write the joined file to FILE (through a temporary name, renamed when complete)"},
};

static void merge_opts_init(void *p)
{
    memset(p, 0, sizeof(struct merge_opts));
}

const struct cli_opt_table sweep_merge_table =
    CLI_OPT_TABLE("sweep-merge", NULL, merge_rows, struct merge_opts, merge_opts_init);

static int parse_args(struct merge *m, int argc, char **argv)
{
    struct merge_opts o;
    int i;
    m->files = calloc((size_t)argc, sizeof *m->files);
    if (m->files == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", CMD);
        return EXIT_FAILURE_RUN;
    }
    merge_opts_init(&o);
    for (i = 1; i < argc; i++) {
        int rc = cli_opt_take(&sweep_merge_table, &o, SWEEP_CMD " merge", argc, argv, &i);
        if (rc < 0) {
            return EXIT_USAGE;
        }
        if (rc == 1) {
            continue;
        }
        if (strncmp(argv[i], "--", 2) == 0) {
            return cli_unknown_option(SWEEP_CMD " merge", NULL, argv[i]);
        }
        m->files[m->n++].path = argv[i];
    }
    m->out = o.out;
    m->valid_only = o.valid_only;
    if (m->n == 0) {
        return cli_usage_error(SWEEP_CMD, "merge: no files (pqpan sweep merge FILE...)");
    }
    return EXIT_OK;
}

static int merge(struct merge *m)
{
    struct sweep_output out;
    size_t k;
    int rc = EXIT_OK;
    for (k = 0; k < m->n && rc == EXIT_OK; k++) {
        rc = peek(m, &m->files[k]);
    }
    for (k = 0; k < m->n && rc == EXIT_OK; k++) {
        if (m->files[k].empty && !m->jsonl) {
            rc = bad_data(m->files[k].path, 1, "empty file (a CSV shard has its header line)");
        }
    }
    if (rc != EXIT_OK) {
        return rc;
    }
    qsort(m->files, m->n, sizeof m->files[0], by_first);
    rc = pass(m, NULL);
    if (rc == EXIT_OK) {
        rc = sweep_output_open(&out, m->out);
    }
    if (rc == EXIT_OK) {
        if (!m->jsonl) {
            fputs(m->header, out.f);
        }
        rc = sweep_output_close(&out, pass(m, out.f));
    }
    return rc;
}

int sweep_merge_run(int argc, char **argv)
{
    struct merge m;
    int rc;
    memset(&m, 0, sizeof m);
    if (cli_wants_help(argc, argv)) {
        cli_sweep_help(stdout);
        return EXIT_OK;
    }
    rc = parse_args(&m, argc, argv);
    if (rc == EXIT_OK) {
        rc = merge(&m);
    }
    free(m.files);
    free(m.header);
    free(m.line);
    return rc;
}
