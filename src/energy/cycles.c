/* Cycle tables: rows of (scheme, implementation, operation) → cycles, filled by the caller
 * from data/cycles/ (CSV) (docs/MODEL.md "Cycle tables"). */
#include <string.h>

#include "pqpan/energy.h"

static char lower(char ch)
{
    return (ch >= 'A' && ch <= 'Z') ? (char)(ch - 'A' + 'a') : ch;
}

static int same_text(const char *a, const char *b)
{
    while (*a != '\0' && lower(*a) == lower(*b)) {
        a++;
        b++;
    }
    return *a == '\0' && *b == '\0';
}

int pqpan_cycles_add(struct pqpan_cycle_table *t, const struct pqpan_cycle_row *row)
{
    if (t == NULL || row == NULL || row->op < 0 || row->op >= PQPAN_OP_COUNT ||
        row->scheme[0] == '\0' || row->impl[0] == '\0' ||
        memchr(row->scheme, '\0', sizeof row->scheme) == NULL ||
        memchr(row->impl, '\0', sizeof row->impl) == NULL ||
        memchr(row->source, '\0', sizeof row->source) == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (t->count >= PQPAN_CYCLE_ROWS_MAX) {
        return PQPAN_ERR_CAPACITY;
    }
    t->rows[t->count] = *row;
    t->count++;
    return PQPAN_OK;
}

const struct pqpan_cycle_row *pqpan_cycles_find(const struct pqpan_cycle_table *t,
                                                const char *scheme, const char *impl,
                                                enum pqpan_op op)
{
    const struct pqpan_cycle_row *wildcard = NULL;
    size_t i;
    if (t == NULL || scheme == NULL || t->count > PQPAN_CYCLE_ROWS_MAX) {
        return NULL;
    }
    for (i = 0; i < t->count; i++) {
        const struct pqpan_cycle_row *r = &t->rows[i];
        if (r->op != op || !same_text(r->scheme, scheme)) {
            continue;
        }
        if (impl == NULL || same_text(r->impl, impl)) {
            return r;
        }
        if (wildcard == NULL && strcmp(r->impl, "*") == 0) {
            wildcard = r;
        }
    }
    return wildcard;
}

int pqpan_cycles_lookup(const struct pqpan_cycle_table *t, const char *scheme,
                        const char *impl, enum pqpan_op op, uint64_t *cycles)
{
    const struct pqpan_cycle_row *r;
    if (cycles == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    *cycles = 0;
    if (t == NULL || scheme == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    r = pqpan_cycles_find(t, scheme, impl, op);
    if (r == NULL) {
        return PQPAN_ERR_NOT_FOUND;
    }
    *cycles = r->cycles;
    return PQPAN_OK;
}
