/* The grid of `pqpan sweep`: each option's value list (words, ranges, `all`) and the
 * index arithmetic of the cartesian product (see run_sweep.h). Errors are messages in a
 * struct cli_msg: the run layer prints nothing. */
#define _POSIX_C_SOURCE 200809L
#include <stdlib.h>
#include <string.h>

#include "link.h"
#include "lowpan.h"
#include "run_estimate.h"
#include "run_sweep.h"

/* At most this many significant digits in a range's numbers once scaled to their common
 * decimals, so every value fits an int64_t exactly. */
#define DIGITS_MAX 18
#define DECIMALS_MAX 9
/* Characters of a range value after its prefix: sign, digits, point. */
#define NUMBER_MAX (DIGITS_MAX + 2)

/* A decimal number in s[0..len): -?digits[.digits] (no '+', as cli_parse_double). Returns 0 with its digits as an
 * integer and its decimals, or -1. */
static int decimal_parse(const char *s, size_t len, int64_t *mant, int *decimals)
{
    size_t i = 0;
    int neg = 0, digits = 0, dec = -1;
    int64_t v = 0;
    if (i < len && s[i] == '-') {
        neg = 1;
        i++;
    }
    for (; i < len; i++) {
        if (s[i] == '.' && dec < 0 && digits > 0) {
            dec = 0;
            continue;
        }
        if (s[i] < '0' || s[i] > '9' || digits == DIGITS_MAX) {
            return -1;
        }
        v = v * 10 + (s[i] - '0');
        digits++;
        dec += dec >= 0;
    }
    if (digits == 0 || dec == 0 || dec > DECIMALS_MAX) {
        return -1; /* no digits, "5." or too many decimals */
    }
    *mant = neg ? -v : v;
    *decimals = dec < 0 ? 0 : dec;
    return 0;
}

static int64_t pow10i(int n)
{
    int64_t p = 1;
    while (n-- > 0) {
        p *= 10;
    }
    return p;
}

/* mant x 10^(to - from) if it stays within DIGITS_MAX digits, else -1. */
static int rescale(int64_t *mant, int from, int to)
{
    int64_t limit = pow10i(DIGITS_MAX), p = pow10i(to - from);
    int64_t m = *mant < 0 ? -*mant : *mant;
    if (m > (limit - 1) / p) {
        return -1;
    }
    *mant *= p;
    return 0;
}

/* The text of item before "..", after the prefix (up to the last '=' before ".."). */
static size_t prefix_of(const char *item, size_t dots)
{
    size_t k, prefix = 0;
    for (k = 0; k < dots; k++) {
        if (item[k] == '=') {
            prefix = k + 1;
        }
    }
    return prefix;
}

/* Whether s[0..len) is made of a sign, digits and points, with a digit: meant as a
 * number (a path such as "../p.json" is not). */
static int looks_numeric(const char *s, size_t len)
{
    size_t k;
    int digit = 0;
    for (k = 0; k < len; k++) {
        if (strchr("+-.0123456789", s[k]) == NULL) {
            return 0;
        }
        digit |= s[k] >= '0' && s[k] <= '9';
    }
    return digit;
}

static int range_error(struct cli_msg *msg, const char *opt, const char *item, const char *why)
{
    return cli_msg_set(msg, EXIT_USAGE, "%s %s: %s (a range is A..B:STEP, STEP > 0, A <= B)",
                       opt, item, why);
}

/* item as a range [PREFIX]A..B:STEP. Returns 0 if item is not one (A is not a number: a
 * word such as a path "../p.json"), 1 with *it filled, or -1 with the usage error in *msg. */
static int range_parse(struct sweep_item *it, const char *opt, const char *item,
                       struct cli_msg *msg)
{
    const char *dots = strstr(item, "..");
    const char *colon;
    int64_t a, b, step;
    int da, db, ds, d;
    size_t prefix;
    if (dots == NULL) {
        return 0;
    }
    prefix = prefix_of(item, (size_t)(dots - item));
    if (!looks_numeric(item + prefix, (size_t)(dots - item) - prefix)) {
        return 0;
    }
    if (prefix + NUMBER_MAX >= SWEEP_VALUE_MAX) {
        range_error(msg, opt, item, "PREFIX too long");
        return -1;
    }
    if (decimal_parse(item + prefix, (size_t)(dots - item) - prefix, &a, &da) != 0) {
        range_error(msg, opt, item, "A must be a decimal number of at most 18 digits, 9 decimals");
        return -1;
    }
    colon = strchr(dots + 2, ':');
    if (colon == NULL) {
        range_error(msg, opt, item, "no :STEP");
        return -1;
    }
    if (decimal_parse(dots + 2, (size_t)(colon - dots - 2), &b, &db) != 0 ||
        decimal_parse(colon + 1, strlen(colon + 1), &step, &ds) != 0) {
        range_error(msg, opt, item, "B and STEP must be decimal numbers of at most 18 digits, 9 "
                               "decimals");
        return -1;
    }
    d = da > db ? da : db;
    d = d > ds ? d : ds;
    if (rescale(&a, da, d) != 0 || rescale(&b, db, d) != 0 || rescale(&step, ds, d) != 0) {
        range_error(msg, opt, item, "too many digits");
        return -1;
    }
    if (step <= 0) {
        range_error(msg, opt, item, "STEP must be greater than 0");
        return -1;
    }
    if (a > b) {
        range_error(msg, opt, item, "A is greater than B");
        return -1;
    }
    it->word = item;
    it->prefix_len = prefix;
    it->first = a;
    it->step = step;
    it->decimals = d;
    it->count = (uint64_t)(b - a) / (uint64_t)step + 1u;
    return 1;
}

static char *own(struct sweep_grid *g, const char *s, size_t len)
{
    char **v = realloc(g->owned, (g->n_owned + 1) * sizeof *v);
    char *copy = malloc(len + 1);
    if (v == NULL || copy == NULL) {
        free(copy);
        if (v != NULL) {
            g->owned = v;
        }
        return NULL;
    }
    g->owned = v;
    memcpy(copy, s, len);
    copy[len] = '\0';
    g->owned[g->n_owned++] = copy;
    return copy;
}

/* The items being built for one option. */
struct items {
    struct sweep_opt *o;
    struct sweep_grid *g;
    int on; /* enum sweep_on */
    int failed;
    struct cli_msg *msg;
};

static void push(struct items *b, const struct sweep_item *it)
{
    struct sweep_opt *o = b->o;
    struct sweep_item *v;
    if (b->failed) {
        return;
    }
    v = realloc(o->items, (o->n_items + 1) * sizeof *v);
    if (v == NULL) {
        b->failed = 1;
        return;
    }
    o->items = v;
    o->items[o->n_items++] = *it;
    /* saturating: the grid's product checks the total */
    o->count = o->count > UINT64_MAX - it->count ? UINT64_MAX : o->count + it->count;
}

static void push_word(void *ctx, const char *word)
{
    struct items *b = ctx;
    struct sweep_item it;
    memset(&it, 0, sizeof it);
    it.word = own(b->g, word, strlen(word));
    it.count = 1;
    b->failed |= it.word == NULL;
    push(b, &it);
}

/* Whether a range A..B:STEP is refused by the kind of the option's table row d (NULL:
 * not an option of estimate, e.g. --per): words and flags take no range, an integer a
 * range of whole numbers only (the message in *msg). */
static int range_refused(const char *opt, const char *item, const struct cli_opt *d,
                         const struct sweep_item *it, struct cli_msg *msg)
{
    char allowed[CLI_ALLOWED_MAX];
    if (d != NULL && (d->kind == CLI_OPT_WORD || d->kind == CLI_OPT_FLAG)) {
        (void)cli_msg_set(msg, EXIT_USAGE, "%s %s: %s takes words (%s), not a range", opt, item,
                          opt, cli_opt_allowed(d, allowed));
        return 1;
    }
    if (d != NULL && (d->kind == CLI_OPT_UINT || d->kind == CLI_OPT_INT) && it->decimals > 0) {
        (void)cli_msg_set(msg, EXIT_USAGE,
                          "%s %s: %s takes integers (%s): a range of whole numbers", opt, item,
                          opt, cli_opt_allowed(d, allowed));
        return 1;
    }
    return 0;
}

/* The words of estimate's option opt on link on (`all`): 1 if it has a fixed set, 0 if
 * not. */
static int choices(int on, const char *opt, cli_word_fn add, void *ctx)
{
    if (model_opts_choices(opt, add, ctx)) {
        return 1;
    }
    if (on == SWEEP_ON_MESH) {
        return cli_word_index(mesh_gatt_opts, opt) >= 0
                   ? cli_opt_table_words(&link_opts_table, opt, add, ctx)
                   : strcmp(opt, "--link") != 0 && cli_opt_table_words(&mesh_opts_table, opt, add, ctx);
    }
    if (on == SWEEP_ON_802154) {
        return link_pqke_choices(opt, add, ctx) || lowpan_opts_choices(opt, add, ctx);
    }
    return cli_opt_table_words(&estimate_protocol_table, opt, add, ctx) ||
           link_opts_choices(opt, add, ctx);
}

/* One comma-separated item of o's value list. */
static int item_parse(struct items *b, const char *text, size_t len)
{
    const char *opt = b->o->name;
    struct sweep_item it;
    char *item;
    int rc;
    if (len == 0) {
        return cli_msg_set(b->msg, EXIT_USAGE, "%s: empty item in the list", opt);
    }
    item = own(b->g, text, len);
    if (item == NULL) {
        b->failed = 1;
        return cli_msg_set(b->msg, EXIT_FAILURE_RUN, "out of memory");
    }
    if (cli_word_equal(item, "all")) {
        if (!choices(b->on, opt, push_word, b)) {
            return cli_msg_set(b->msg, EXIT_USAGE, "%s all: %s has no fixed set of values; give "
                                                   "a list or a range A..B:STEP", opt, opt);
        }
        return EXIT_OK;
    }
    memset(&it, 0, sizeof it);
    rc = range_parse(&it, opt, item, b->msg);
    if (rc < 0) {
        return EXIT_USAGE;
    }
    if (rc == 1 && range_refused(opt, item, sweep_estimate_row(b->on, opt), &it, b->msg)) {
        return EXIT_USAGE;
    }
    if (rc == 0) {
        it.word = item;
        it.count = 1;
    }
    push(b, &it);
    return EXIT_OK;
}

int sweep_items_parse(struct sweep_opt *o, const char *value, int on, struct sweep_grid *g,
                      struct cli_msg *msg)
{
    struct items b;
    const char *p = value;
    int rc = EXIT_OK;
    b.o = o;
    b.g = g;
    b.on = on;
    b.failed = 0;
    b.msg = msg;
    o->items = NULL;
    o->n_items = 0;
    o->count = 0;
    if (*value == '\0') {
        return cli_msg_set(msg, EXIT_USAGE, "%s: empty list", o->name);
    }
    while (rc == EXIT_OK) {
        const char *comma = strchr(p, ',');
        size_t len = comma != NULL ? (size_t)(comma - p) : strlen(p);
        rc = item_parse(&b, p, len);
        if (comma == NULL) {
            break;
        }
        p = comma + 1;
    }
    if (rc == EXIT_OK && b.failed) {
        rc = cli_msg_set(msg, EXIT_FAILURE_RUN, "out of memory");
    }
    return rc;
}

/* v / 10^d as a decimal with d digits after the point. */
static void decimal_format(char *out, size_t cap, int64_t v, int d)
{
    uint64_t mag = v < 0 ? (uint64_t)(-(v + 1)) + 1u : (uint64_t)v;
    uint64_t p = (uint64_t)pow10i(d);
    if (d == 0) {
        snprintf(out, cap, "%s%llu", v < 0 ? "-" : "", (unsigned long long)mag);
    } else {
        snprintf(out, cap, "%s%llu.%0*llu", v < 0 ? "-" : "", (unsigned long long)(mag / p), d,
                 (unsigned long long)(mag % p));
    }
}

const char *sweep_value(const struct sweep_opt *o, uint64_t k, char buf[SWEEP_VALUE_MAX])
{
    size_t i;
    for (i = 0; i < o->n_items; i++) {
        const struct sweep_item *it = &o->items[i];
        if (k < it->count) {
            int n;
            if (it->step == 0) {
                return it->word;
            }
            /* prefix_len + NUMBER_MAX < SWEEP_VALUE_MAX (range_parse) */
            n = snprintf(buf, SWEEP_VALUE_MAX, "%.*s", (int)it->prefix_len, it->word);
            decimal_format(buf + n, SWEEP_VALUE_MAX - (size_t)n,
                           it->first + (int64_t)k * it->step, it->decimals);
            return buf;
        }
        k -= it->count;
    }
    return "";
}

uint64_t sweep_value_index(const struct sweep_opt *o, uint64_t c)
{
    return o->count > 1 ? (c / o->stride) % o->count : 0;
}

/* Strides for the options of one kind class, from the fastest (the last given) up;
 * returns the product so far, or 0 on overflow. */
static uint64_t assign_strides(struct sweep_grid *g, int energy, uint64_t stride)
{
    size_t i;
    for (i = g->n; i-- > 0;) {
        struct sweep_opt *o = &g->opts[i];
        if ((o->kind == SWEEP_ENERGY) != energy) {
            continue;
        }
        o->stride = stride;
        if (o->count > 1 && stride > UINT64_MAX / o->count) {
            return 0;
        }
        stride *= o->count;
    }
    return stride;
}

int sweep_grid_finish(struct sweep_grid *g, struct cli_msg *msg)
{
    uint64_t link = assign_strides(g, 0, 1);
    uint64_t all = link != 0 ? assign_strides(g, 1, link) : 0;
    if (all == 0) {
        return cli_msg_set(msg, EXIT_USAGE, "more configurations than 2^64: split the sweep");
    }
    g->env_stride = link;
    g->total = all;
    return EXIT_OK;
}

void sweep_grid_free(struct sweep_grid *g)
{
    size_t i;
    for (i = 0; i < g->n; i++) {
        free(g->opts[i].items);
    }
    for (i = 0; i < g->n_owned; i++) {
        free(g->owned[i]);
    }
    free(g->opts);
    free(g->owned);
    memset(g, 0, sizeof *g);
}

struct first_word {
    struct sweep_grid *g;
    const char *word;
};

static void keep_first(void *ctx, const char *word)
{
    struct first_word *fw = ctx;
    if (fw->word == NULL) {
        fw->word = own(fw->g, word, strlen(word));
    }
}

const struct cli_opt *sweep_estimate_row(int on, const char *name)
{
    return on == SWEEP_ON_MESH ? mesh_opt_row(0, name)
                               : estimate_opt_row(on == SWEEP_ON_802154, name);
}

const char *sweep_probe_value(const char *value, const char *opt, int on, struct sweep_grid *g)
{
    const char *comma = strchr(value, ',');
    size_t len = comma != NULL ? (size_t)(comma - value) : strlen(value);
    const char *item = own(g, value, len);
    const char *dots;
    struct first_word fw;
    if (item == NULL) {
        return NULL;
    }
    if (cli_word_equal(item, "all")) {
        fw.g = g;
        fw.word = NULL;
        (void)choices(on, opt, keep_first, &fw);
        return fw.word != NULL ? fw.word : item;
    }
    dots = strstr(item, "..");
    if (dots != NULL) {
        size_t prefix = prefix_of(item, (size_t)(dots - item));
        if (looks_numeric(item + prefix, (size_t)(dots - item) - prefix)) {
            return own(g, item, (size_t)(dots - item)); /* PREFIX + A */
        }
    }
    return item;
}
