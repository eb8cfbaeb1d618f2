/* Options as data: every option of the CLI is described once, in a table (name, kind,
 * unit, range, default, help line, where it is stored), and the tables drive parsing,
 * range checks and their messages, `--help`, the man page (generated from help),
 * docs/CLI.md's option lists (`pqpan help --options-md CMD`) and a machine-readable dump
 * (`pqpan help --json`) for the Python package and the web page. */
#ifndef PQPAN_CLI_OPTS_H
#define PQPAN_CLI_OPTS_H

#include <stddef.h>
#include <stdio.h>

#include "cli.h"
#include "pqpan/defaults.h"

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

/* Checks v against o and stores it at base + o->offset. 0, or -1 after a usage error of
 * cmd naming the option, the value and what is allowed. */
int cli_opt_set(const struct cli_opt *o, void *base, const char *cmd, const char *v);

/* Tries argv[*i] as an option of t with its value (argv[*i + 1]), stored into base.
 * 1 if consumed (*i advanced past its value), 0 if not an option of t, -1 after a usage
 * error (missing or bad value). */
int cli_opt_take(const struct cli_opt_table *t, void *base, const char *cmd, int argc,
                 char **argv, int *i);

/* The same for the options of t listed in only (a command that takes part of a table). */
int cli_opt_take_only(const struct cli_opt_table *t, const char *const *only, void *base,
                      const char *cmd, int argc, char **argv, int *i);

/* Parses argv[first..argc) as options of t only, stored into base: EXIT_OK, or EXIT_USAGE
 * after a message (an unknown option, a missing or bad value). For commands with one table
 * and no operands (kem, sig, ecdh after their operation word). */
int cli_opt_parse_all(const struct cli_opt_table *t, void *base, const char *cmd, int argc,
                      char **argv, int first);

/* A table bound to the struct its options are stored in (and, with only, part of it). */
struct cli_opt_bind {
    const struct cli_opt_table *t;
    void *base;
    const char *const *only;
};

/* Tries argv[*i] against each bound table in turn (as cli_opt_take_only). */
int cli_opt_take_any(const struct cli_opt_bind *b, size_t n, const char *cmd, int argc,
                     char **argv, int *i);

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

/* Writes the words of s to out from column col, wrapped at the help's width (92 columns),
 * continuation lines indented to indent; no newline at the end. */
void cli_wrap(FILE *out, const char *s, size_t col, size_t indent);

/* A paragraph (wrapped as help is) of before, the names of the options of tables[0..n)
 * that take words (--link aside), and after. */
void cli_opt_names_with_words(FILE *out, const struct cli_opt_table *const *tables, size_t n,
                              const char *before, const char *after);

/* Help lines: the title (if any), then one entry per option: name and meta,
 * then help, what is allowed and the default, wrapped under column 25. */
void cli_opt_table_help(FILE *out, const struct cli_opt_table *t);

/* The same without the title: the entries only. */
void cli_opt_rows_help(FILE *out, const struct cli_opt_table *t);
void cli_opt_rows_help_only(FILE *out, const struct cli_opt_table *t, const char *const *only);

/* The table (its options listed in only; NULL: all) as one JSON object {"id", "title",
 * "options": [{name, kind, meta, unit, min, max,
 * words, default, default_note, help, allowed}]}, after indent. */
void cli_opt_table_json(FILE *out, const struct cli_opt_table *t, const char *const *only,
                        const char *indent);

/* s as a JSON string, or null for NULL. */
void cli_json_string_or_null(FILE *out, const char *s);

/* s in a Markdown table cell: '|' escaped. */
void cli_md_cell(FILE *out, const char *s);

/* The header of a Markdown table of options (option, meaning, values, default), and the
 * rows of t in it (docs/CLI.md's option lists): all, or those named in only_csv
 * ("--idle,--backoff") and in only (NULL-terminated; NULL: all). */
void cli_opt_md_header(FILE *out);
void cli_opt_table_md(FILE *out, const struct cli_opt_table *t, const char *only_csv,
                      const char *const *only);

#endif
