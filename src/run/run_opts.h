/* Private to the run layer (src/run/) and its faces: options as data. Every option of a
 * command is described once, in a table (name, kind, unit, range, default, help line,
 * where it is stored), and the tables drive the run layer's checks of a request
 * (pqpan_run) and the CLI's parsing, help, man page, docs/CLI.md's option lists and
 * `pqpan help --json` (cli/opts.h). */
#ifndef PQPAN_RUN_OPTS_H
#define PQPAN_RUN_OPTS_H

#include <stddef.h>

#include "pqpan/defaults.h"
#include "run_text.h"

enum cli_opt_kind {
    CLI_OPT_FLAG,   /* no value: the int it is stored in becomes 1 */
    CLI_OPT_UINT,   /* a decimal integer in [min, max] */
    CLI_OPT_INT,    /* the same with an optional leading '-' */
    CLI_OPT_NUMBER, /* a JSON number (cli.h) in [min, max] */
    CLI_OPT_WORD,   /* one of the option's words */
    CLI_OPT_TEXT    /* any text: a name, a file (words, if any, are suggestions: `sweep all`) */
};

/* How the value is stored at the option's offset. */
enum cli_opt_store {
    CLI_STORE_NONE,   /* nowhere (only checked), or by the option's set function */
    CLI_STORE_INT,    /* int: a flag's 1, an INT or small UINT value, a WORD's index among
                       * its words */
    CLI_STORE_U32,    /* uint32_t: a UINT value */
    CLI_STORE_ULL,    /* unsigned long long: a UINT value */
    CLI_STORE_DOUBLE, /* double: a NUMBER value */
    CLI_STORE_MS_NS,  /* uint64_t nanoseconds: a NUMBER value in ms, rounded */
    CLI_STORE_STR     /* const char *: the value as given (argv's string) */
};

/* Passes every word of an option to add, in index order. */
typedef void (*cli_opt_words_fn)(cli_word_fn add, void *ctx);

/* One option. */
struct cli_opt {
    const char *name;       /* "--att-mtu" */
    enum cli_opt_kind kind;
    const char *meta;       /* the value in help ("N", "FILE"); NULL: the words joined by '|' */
    const char *unit;       /* of a number ("ms", "octets", "dBm"); NULL: none */
    double min, max;        /* UINT, INT, NUMBER */
    int open;               /* NUMBER: min and max themselves excluded */
    const char *const *words;   /* WORD / TEXT: NULL-terminated ... */
    cli_opt_words_fn words_fn;  /* ... or listed by a function (data-driven sets) */
    enum pqpan_default_id def; /* the row of the library's table of defaults (defaults.h)
                                * that is its default: a value the option accepts or a
                                * note; PQPAN_DEFAULT_NONE: none */
    const char *help;       /* what it does, one paragraph (the printer wraps it) */
    const char *allowed;    /* what a bad value is told it may be; NULL: from kind, range,
                             * unit and words */
    size_t offset;          /* of the stored value in the group's struct */
    enum cli_opt_store store;
    /* Extra check and conversion after the kind's (NULL: none): stores v at field (the
     * group struct + offset); 0 ok, -1 a bad value, CLI_OPT_REPORTED a bad value whose
     * message the function printed. */
    int (*set)(void *field, const char *v);
};

#define CLI_OPT_REPORTED (-2)

/* A group of options stored in one struct (the BLE link, the energy options, ...). */
struct cli_opt_table {
    const char *id;         /* its name in `pqpan help --options-md ID` ("ble-link") */
    const char *title;      /* help section ("link options"); NULL: none */
    const struct cli_opt *opts;
    size_t n;
    size_t size;            /* of the struct the options are stored in */
    void (*init)(void *s);  /* sets its defaults (those def says) */
    void (*fini)(void *s);  /* frees what its set functions allocated (NULL: nothing) */
};

#define CLI_OPT_TABLE(id, title, arr, type, init)                                              \
    {id, title, arr, sizeof arr / sizeof arr[0], sizeof(type), init, NULL}
#define CLI_OPT_TABLE_FINI(id, title, arr, type, init, fini)                                   \
    {id, title, arr, sizeof arr / sizeof arr[0], sizeof(type), init, fini}

/* --format table|csv|json, stored in an enum cli_format (the base is its address). */
extern const struct cli_opt_table cli_format_table;

/* o's default as a value it accepts ("50", "1M"), or NULL (none, or said by a note). */
const char *cli_opt_default(const struct cli_opt *o);

/* o's default in words when it is no value ("the profile's ieee802154.idle"), or NULL. */
const char *cli_opt_default_note(const struct cli_opt *o);

/* Stores the default value of every option of t that has one into base (t's struct):
 * what a table's init calls so that the struct starts from the table of defaults. */
void cli_opt_table_defaults(const struct cli_opt_table *t, void *base);

/* The row of t named name, or NULL. */
const struct cli_opt *cli_opt_find(const struct cli_opt_table *t, const char *name);

/* Whether name is in only (NULL-terminated; NULL: every name is). */
int cli_opt_listed(const char *const *only, const char *name);
/* Whether name is listed in only (NULL: every name is) and not in except (NULL: none). */
int cli_opt_taken(const char *const *only, const char *const *except, const char *name);

/* Checks v against o and stores it at base + o->offset (v: argv's string, or any string
 * that outlives base's use; a word is respelled in place, so v is writable unless it is
 * the word already). 0; -1 with a message naming the option, the value and what is
 * allowed in *msg (EXIT_USAGE); or CLI_OPT_REPORTED when o's set function printed its own
 * (the CLI's tables only). */
int cli_opt_set_msg(const struct cli_opt *o, void *base, const char *v, struct cli_msg *msg);

/* v checked and stored as o's kind and store say, no message: 0, or -1 (a flag's v is
 * NULL). */
int cli_opt_store(const struct cli_opt *o, void *base, const char *v);

/* Passes o's words (WORD, and TEXT's suggestions) to add; 1 if it has any, else 0. */
int cli_opt_words(const struct cli_opt *o, cli_word_fn add, void *ctx);

/* The words of option name in t (as cli_opt_words); 0 when t has no such option or it has
 * no words. */
int cli_opt_table_words(const struct cli_opt_table *t, const char *name, cli_word_fn add,
                        void *ctx);

/* What o accepts, for messages and docs ("an integer in 23..517", "1M, 2M, S2, S8"). */
#define CLI_ALLOWED_MAX 400
const char *cli_opt_allowed(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX]);

/* o's value as help shows it after the name ("N", "1M|2M|S2|S8"; "" for a flag). */
const char *cli_opt_meta(const struct cli_opt *o, char buf[CLI_ALLOWED_MAX]);

/* Appends to a fixed buffer, truncating: cli_text_in(buf, cap) is an empty text in
 * buf[0..cap), cli_text_add appends s (what fits; buf stays terminated). */
struct cli_text {
    char *buf;
    size_t cap, len;
};
struct cli_text cli_text_in(char *buf, size_t cap);
void cli_text_add(struct cli_text *t, const char *s);
/* x without trailing zeros (bounds such as 7.5, 0.99, 10485759.375, 17040). */
void cli_text_add_number(struct cli_text *t, double x);

#endif
