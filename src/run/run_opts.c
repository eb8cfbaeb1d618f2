/* Options as data, the run layer's part (run_opts.h): finding an option, its words,
 * checking and storing a value, defaults, and what an option allows, in words. The CLI's
 * argv walk, help, JSON and Markdown printers are cli/opts.c's. */
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "run_opts.h"

const char *cli_opt_default(const struct cli_opt *o)
{
    return pqpan_default_value(o->def);
}

const char *cli_opt_default_note(const struct cli_opt *o)
{
    const struct pqpan_default *d = pqpan_default_get(o->def);
    return d != NULL ? d->note : NULL;
}

const struct cli_opt *cli_opt_find(const struct cli_opt_table *t, const char *name)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        if (strcmp(t->opts[k].name, name) == 0) {
            return &t->opts[k];
        }
    }
    return NULL;
}

int cli_opt_words(const struct cli_opt *o, cli_word_fn add, void *ctx)
{
    if (o->words != NULL) {
        cli_words_each(o->words, add, ctx);
        return 1;
    }
    if (o->words_fn != NULL) {
        o->words_fn(add, ctx);
        return 1;
    }
    return 0;
}

int cli_opt_table_words(const struct cli_opt_table *t, const char *name, cli_word_fn add,
                        void *ctx)
{
    const struct cli_opt *o = cli_opt_find(t, name);
    return o != NULL && cli_opt_words(o, add, ctx);
}

/* Finds a word's index while the words are listed (ignoring case), and respells the value
 * as that word while it is at hand (a words function may list them from a buffer of its
 * own). */
struct word_search {
    char *want;
    int at, found;
};

static void search_word(void *ctx, const char *word)
{
    struct word_search *s = ctx;
    if (s->found < 0 && cli_word_equal(word, s->want)) {
        s->found = s->at;
        cli_word_respell(s->want, word);
    }
    s->at++;
}

/* v's index among o's words, v rewritten to the word's spelling (v is argv's, or a copy of
 * it: writable whenever it is not the word already); -1 if it is none of them. */
static int word_index(const struct cli_opt *o, const char *v)
{
    struct word_search s;
    s.want = (char *)v;
    s.at = 0;
    s.found = -1;
    cli_opt_words(o, search_word, &s);
    return s.found;
}

/* The largest value a UINT option's double bound stands for. */
static unsigned long long uint_bound(double x)
{
    return x >= (double)ULLONG_MAX ? ULLONG_MAX : (unsigned long long)x;
}

static int parse_int(const char *v, double min, double max, long long *out)
{
    unsigned long long u;
    int neg = v[0] == '-';
    if (cli_parse_uint(v + neg, 0, neg ? (unsigned long long)-min : (unsigned long long)max,
                       &u) != 0 ||
        (neg && min >= 0.0)) {
        return -1;
    }
    *out = neg ? -(long long)u : (long long)u;
    return *out >= (long long)min ? 0 : -1;
}

/* v checked against o's kind and stored as o->store says. 0 or -1. */
static int store_value(const struct cli_opt *o, char *field, const char *v)
{
    unsigned long long u = 0;
    long long s = 0;
    double d = 0.0;
    int k = 0;
    switch (o->kind) {
    case CLI_OPT_FLAG:
        k = 1;
        break;
    case CLI_OPT_UINT:
        if (cli_parse_uint(v, uint_bound(o->min), uint_bound(o->max), &u) != 0) {
            return -1;
        }
        k = u <= INT_MAX ? (int)u : INT_MAX; /* CLI_STORE_INT: small ranges */
        break;
    case CLI_OPT_INT:
        if (parse_int(v, o->min, o->max, &s) != 0) {
            return -1;
        }
        k = (int)s;
        break;
    case CLI_OPT_NUMBER:
        if (cli_parse_double(v, o->min, o->max, &d) != 0 ||
            (o->open && (d <= o->min || d >= o->max))) {
            return -1;
        }
        break;
    case CLI_OPT_WORD:
        k = word_index(o, v);
        if (k < 0) {
            return -1;
        }
        break;
    case CLI_OPT_TEXT:
        (void)word_index(o, v); /* a word it suggests, in its spelling (a built-in profile) */
        break;
    }
    if (o->set != NULL) {
        return o->set(field, v);
    }
    switch (o->store) {
    case CLI_STORE_NONE:
        break;
    case CLI_STORE_INT:
        memcpy(field, &k, sizeof k);
        break;
    case CLI_STORE_U32: {
        uint32_t w = (uint32_t)u;
        memcpy(field, &w, sizeof w);
        break;
    }
    case CLI_STORE_ULL:
        memcpy(field, &u, sizeof u);
        break;
    case CLI_STORE_DOUBLE:
        memcpy(field, &d, sizeof d);
        break;
    case CLI_STORE_MS_NS: {
        uint64_t ns = (uint64_t)(d * 1e6 + 0.5);
        memcpy(field, &ns, sizeof ns);
        break;
    }
    case CLI_STORE_STR:
        memcpy(field, &v, sizeof v);
        break;
    }
    return 0;
}

int cli_opt_store(const struct cli_opt *o, void *base, const char *v)
{
    return store_value(o, (char *)base + o->offset, v);
}

int cli_opt_set_msg(const struct cli_opt *o, void *base, const char *v, struct cli_msg *msg)
{
    char allowed[CLI_ALLOWED_MAX];
    struct cli_suggest s;
    int rc = store_value(o, (char *)base + o->offset, v);
    if (rc == 0 || rc == CLI_OPT_REPORTED) {
        return rc;
    }
    cli_suggest_init(&s, v);
    if (o->kind == CLI_OPT_WORD) {
        cli_opt_words(o, cli_suggest_add, &s);
    }
    (void)cli_msg_set(msg, EXIT_USAGE, "bad value for %s: '%s' (want %s)%s", o->name, v,
                      cli_opt_allowed(o, allowed), cli_suggest_text(&s));
    return -1;
}

void cli_opt_table_defaults(const struct cli_opt_table *t, void *base)
{
    size_t k;
    for (k = 0; k < t->n; k++) {
        const struct cli_opt *o = &t->opts[k];
        const char *v = cli_opt_default(o);
        /* every default value is one its option takes (tests/unit/test_cli_opts.c) */
        if (v != NULL && (o->store != CLI_STORE_NONE || o->set != NULL)) {
            (void)store_value(o, (char *)base + o->offset, v);
        }
    }
}

int cli_opt_listed(const char *const *only, const char *name)
{
    return only == NULL || cli_word_index(only, name) >= 0;
}

int cli_opt_taken(const char *const *only, const char *const *except, const char *name)
{
    return cli_opt_listed(only, name) && (except == NULL || cli_word_index(except, name) < 0);
}

/* ---- --format ---- */

/* --format words, in enum cli_format order. */
static const char *const format_words[] = {"table", "csv", "json", NULL};

_Static_assert(sizeof(enum cli_format) == sizeof(int), "--format is stored as an int");

static void format_init(void *f)
{
    enum cli_format table = FORMAT_TABLE;
    memcpy(f, &table, sizeof table);
}

static const struct cli_opt format_rows[] = {
    {.name = "--format", .kind = CLI_OPT_WORD, .words = format_words, .def = PQPAN_DEFAULT_FORMAT,
     .store = CLI_STORE_INT, .help = "output format"},
};

const struct cli_opt_table cli_format_table =
    CLI_OPT_TABLE("format", "output", format_rows, enum cli_format, format_init);

/* ---- text ---- */

struct cli_text cli_text_in(char *buf, size_t cap)
{
    struct cli_text t;
    t.buf = buf;
    t.cap = cap;
    t.len = 0;
    buf[0] = '\0';
    return t;
}

void cli_text_add(struct cli_text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + 1 >= t->cap) {
        return;
    }
    if (n > t->cap - 1 - t->len) {
        n = t->cap - 1 - t->len;
    }
    memcpy(t->buf + t->len, s, n);
    t->len += n;
    t->buf[t->len] = '\0';
}

/* Words joined with sep. */
struct joined {
    struct cli_text *t;
    const char *sep;
    int n;
};

static void join_word(void *ctx, const char *word)
{
    struct joined *j = ctx;
    if (j->n++ > 0) {
        cli_text_add(j->t, j->sep);
    }
    cli_text_add(j->t, word);
}

static void join_words(struct cli_text *t, const struct cli_opt *o, const char *sep)
{
    struct joined j;
    j.t = t;
    j.sep = sep;
    j.n = 0;
    cli_opt_words(o, join_word, &j);
}

void cli_text_add_number(struct cli_text *t, double x)
{
    char buf[CLI_FIXED_MAX];
    int n;
    if (x >= 1e15) {
        cli_format_uint(buf, uint_bound(x));
        cli_text_add(t, buf);
        return;
    }
    n = cli_format_fixed(buf, x, 3);
    while (buf[n - 1] == '0') {
        buf[--n] = '\0';
    }
    if (buf[n - 1] == '.') {
        buf[n - 1] = '\0';
    }
    cli_text_add(t, buf);
}

static void add_range(struct cli_text *t, const struct cli_opt *o)
{
    cli_text_add_number(t, o->min);
    cli_text_add(t, "..");
    cli_text_add_number(t, o->max);
    if (o->unit != NULL) {
        cli_text_add(t, " ");
        cli_text_add(t, o->unit);
    }
}

const char *cli_opt_allowed(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX])
{
    struct cli_text t = cli_text_in(buf, CLI_ALLOWED_MAX);
    if (o->allowed != NULL) {
        cli_text_add(&t, o->allowed);
    } else if (o->kind == CLI_OPT_UINT || o->kind == CLI_OPT_INT) {
        cli_text_add(&t, "an integer in ");
        add_range(&t, o);
    } else if (o->kind == CLI_OPT_NUMBER) {
        cli_text_add(&t, "a number in ");
        add_range(&t, o);
        cli_text_add(&t, o->open ? ", both ends excluded" : "");
    } else if (o->kind == CLI_OPT_WORD || o->words != NULL || o->words_fn != NULL) {
        join_words(&t, o, ", ");
    } else if (o->kind == CLI_OPT_TEXT) {
        cli_text_add(&t, "a value");
    }
    return buf;
}

const char *cli_opt_meta(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX])
{
    struct cli_text t = cli_text_in(buf, CLI_ALLOWED_MAX);
    if (o->meta != NULL) {
        cli_text_add(&t, o->meta);
    } else if (o->kind == CLI_OPT_WORD) {
        join_words(&t, o, "|");
    }
    return buf;
}
