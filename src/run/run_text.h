/* Private to the run layer (src/run/) and its faces (cli/): the text helpers a run and the
 * CLI share (words, suggestions, numbers, messages) and the exit codes the run layer's
 * internal functions return (pqpan_run maps them to PQPAN_ERR_* codes, run.h). Taken from
 * cli/cli.h when the run layer moved into the library (docs/RUN.md). */
#ifndef PQPAN_RUN_TEXT_H
#define PQPAN_RUN_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "run_ns.h"

/* Exit codes, documented in `pqpan --help` and docs/CLI.md. */
enum cli_exit {
    EXIT_OK = 0,
    EXIT_FAILURE_RUN = 1, /* the job ran and failed (e.g. an exchange failed, a key mismatch) */
    EXIT_USAGE = 2,       /* unknown command or option, missing or malformed option value */
    EXIT_BAD_INPUT = 3,   /* invalid input data: bad hex, wrong length, failed key check, corrupt file */
    EXIT_IO = 4           /* a file could not be read or written */
};

enum cli_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* A message a function keeps instead of printing, so that its caller can print it
 * (estimate) or put it in an output (sweep's status column). */
#define CLI_MSG_MAX 320

struct cli_msg {
    char text[CLI_MSG_MAX];
};

/* Formats the message into *m (truncated to fit) and returns rc. */
int cli_msg_set(struct cli_msg *m, int rc, const char *fmt, ...);

/* Words are matched ignoring ASCII case (`--phy 2m`, `--transfer NOTIFY`, `pqpan
 * Estimate`): 1 if a and b are the same word, else 0. */
int cli_word_equal(const char *a, const char *b);

/* The same for the first len characters of s (an item of a list: "central:FILE",
 * "kem_keygen=1.2"). */
int cli_word_equal_n(const char *s, size_t len, const char *word);

/* Index of v in words (terminated by NULL, matched by cli_word_equal), or -1. */
int cli_word_index(const char *const *words, const char *v);

/* The same, and v (a command-line argument: writable) rewritten in place to the word's own
 * spelling, so that every later use and the outputs print the canonical word. */
int cli_word_canonical(char *v, const char *const *words);

/* "unknown WHAT 'V' (want WORDS); did you mean ...?" (the nearest of words) into *m;
 * returns EXIT_USAGE. */
int cli_unknown_word_msg(struct cli_msg *m, const char *what, const char *v,
                         const char *const *words);

/* Rewrites v in place to word's spelling when they are the same word in another case (the
 * same length): what cli_word_canonical and the option tables do for a matched word. */
void cli_word_respell(char *v, const char *word);

/* Receives the words an option takes, one call each (e.g. `pqpan sweep --phy all`). */
typedef void (*cli_word_fn)(void *ctx, const char *word);

/* The optimal string alignment distance (Damerau-Levenshtein without repeated edits of a
 * substring) of a and b, ignoring ASCII case: the insertions, deletions, substitutions and
 * transpositions of two adjacent characters that turn one into the other. Words longer
 * than CLI_WORD_DISTANCE_MAX characters are compared on their first that many. */
#define CLI_WORD_DISTANCE_MAX 64
size_t cli_word_distance(const char *a, const char *b);

/* "Did you mean ...?": the candidates nearest to what was given, within a small distance
 * (1 for up to 7 characters, 2 up to 11, else 3), ties kept (at most CLI_SUGGEST_WORDS);
 * an option named "--X-NAME" for "--NAME" counts as at that limit (--idle-phy for --phy). */
#define CLI_SUGGEST_WORDS 3
#define CLI_SUGGEST_MAX 160
struct cli_suggest {
    const char *given;
    size_t best;                 /* distance of the words kept; > limit: none yet */
    size_t limit;
    size_t n;                    /* words kept */
    char words[CLI_SUGGEST_WORDS][CLI_SUGGEST_MAX / CLI_SUGGEST_WORDS];
    char text[CLI_SUGGEST_MAX];  /* cli_suggest_text's result */
};

void cli_suggest_init(struct cli_suggest *s, const char *given);

/* A candidate (a cli_word_fn: ctx is the struct cli_suggest). */
void cli_suggest_add(void *ctx, const char *word);

/* "; did you mean A?", "; did you mean A or B?", "; did you mean A, B or C?", or "" when
 * no candidate is near enough. */
const char *cli_suggest_text(struct cli_suggest *s);

/* Passes every word of words (terminated by NULL) to add. */
void cli_words_each(const char *const *words, cli_word_fn add, void *ctx);

/* The words an option takes, joined with ", " into buf (truncated to fit), for a message
 * naming what is allowed. choices is an *_choices function (returns 0 for an option
 * without words: buf is then empty). */
#define CLI_WORDS_MAX 160
typedef int (*cli_choices_fn)(const char *opt, cli_word_fn add, void *ctx);
const char *cli_words_join(char buf[CLI_WORDS_MAX], cli_choices_fn choices, const char *opt);

/* Parses --format VALUE. Returns 0 on success, -1 if VALUE is not table|csv|json. */
int cli_parse_format(const char *value, enum cli_format *out);

/* Numbers on the command line: the one grammar of every file and option (JSON numbers,
 * pqpan_io_parse_uint / pqpan_io_parse_double in include/pqpan/io.h). */
/* Parses a decimal unsigned integer (digits only) in [min, max]. Returns 0 or -1. */
int cli_parse_uint(const char *s, unsigned long long min, unsigned long long max,
                   unsigned long long *out);

/* x as printf's "%.*f" with decimals digits writes it (the same bytes), in out: in
 * integer arithmetic for 0..3 decimals and |x| < 10^15, else snprintf. Returns the
 * length. */
#define CLI_FIXED_MAX 64
int cli_format_fixed(char out[CLI_FIXED_MAX], double x, int decimals);

/* An integer as printf's %lld / %llu writes it. Returns the length. */
int cli_format_int(char out[CLI_FIXED_MAX], long long v);
int cli_format_uint(char out[CLI_FIXED_MAX], unsigned long long v);

/* Parses a finite double in [min, max]. Returns 0 or -1. */
int cli_parse_double(const char *s, double min, double max, double *out);

/* A BLE connection interval in ms: 7.5 .. 4000 in steps of 1.25 ms (Core v5.4 Vol 6 Part B
 * §4.5.1: connInterval = 1.25 ms x 6 .. 3200), into *ns. Returns 0 or -1. */
int cli_parse_conn_interval(const char *s, uint64_t *ns);

/* The width help text and wrapped notes fit in. */
#define CLI_WRAP_WIDTH 92

/* Writes the words of s to out from column col, wrapped at the help's width (CLI_WRAP_WIDTH columns),
 * continuation lines indented to indent; no newline at the end. */
void cli_wrap(FILE *out, const char *s, size_t col, size_t indent);

#endif
