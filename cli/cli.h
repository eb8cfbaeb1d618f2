/* Shared pieces of the pqpan command-line tool (not part of the library). */
#ifndef PQPAN_CLI_H
#define PQPAN_CLI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* Exit codes, documented in `pqpan --help` and docs/CLI.md. */
enum cli_exit {
    EXIT_OK = 0,
    EXIT_FAILURE_RUN = 1, /* the job ran and failed (e.g. an exchange failed, a key mismatch) */
    EXIT_USAGE = 2,       /* unknown command or option, missing or malformed option value */
    EXIT_BAD_INPUT = 3,   /* invalid input data: bad hex, wrong length, failed key check, corrupt file */
    EXIT_IO = 4           /* a file could not be read or written */
};

enum cli_format { FORMAT_TABLE, FORMAT_CSV, FORMAT_JSON };

/* One subcommand: `pqpan NAME ...`. run() gets argv with argv[0] == NAME. */
struct cli_command {
    const char *name;
    const char *summary;
    int (*run)(int argc, char **argv);
    void (*help)(FILE *out);
};

/* The subcommand table (main.c). Terminated by a row whose name is NULL. */
extern const struct cli_command cli_commands[];

/* Prints "pqpan CMD: usage: ..." style short usage to stderr and returns EXIT_USAGE. */
int cli_usage_error(const char *cmd, const char *fmt, ...);

/* Prints "pqpan CMD: warning: ..." on stderr: an option or input that has no effect, or
 * figures that describe an unlikely case (the run goes on, exit status unchanged). */
void cli_warn(const char *cmd, const char *fmt, ...);

/* A progress line for long runs, on stderr only when it is a terminal ("\rpqpan CMD: WHAT
 * k/N", rewritten when the percentage changes, erased at the end): data and files are
 * never touched. */
struct cli_progress {
    const char *cmd, *what;
    unsigned long long total;
    unsigned last_pct;
    int on;
};
void cli_progress_start(struct cli_progress *p, const char *cmd, const char *what,
                        unsigned long long total);
void cli_progress_step(struct cli_progress *p, unsigned long long done);
void cli_progress_end(struct cli_progress *p);

/* 1 if --help or -h is among argv[1..argc), wherever it stands (e.g. after --link 802154). */
int cli_wants_help(int argc, char **argv);

/* 1 if "--link LINK" is among argv[1..argc) (a command that dispatches on its link before
 * it parses). */
int cli_link_requested(int argc, char **argv, const char *link);

/* A message a function keeps instead of printing, so that its caller can print it
 * (estimate) or put it in an output (sweep's status column). */
#define CLI_MSG_MAX 320

struct cli_msg {
    char text[CLI_MSG_MAX];
};

/* Formats the message into *m (truncated to fit) and returns rc. */
int cli_msg_set(struct cli_msg *m, int rc, const char *fmt, ...);

/* Prints "pqpan CMD: MESSAGE" on stderr when rc is not EXIT_OK. Returns rc. */
int cli_msg_report(const char *cmd, int rc, const struct cli_msg *m);

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

/* "pqpan CMD: unknown WHAT 'V' (want WORDS); did you mean ...?" (the nearest of words) on
 * stderr; EXIT_USAGE. */
int cli_unknown_word(const char *cmd, const char *what, const char *v, const char *const *words);

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

/* "--NAME=VALUE" as the two arguments "--NAME" "VALUE", for every command: argv's strings
 * are split in place (the '=' becomes the end of the name) into out, which holds
 * 2 * argc + 1 pointers; returns the new count. Only the first '=' splits, and only
 * after a name of letters, digits and '-'. */
int cli_split_assignments(int argc, char **argv, char **out);

/* Parses --format VALUE. Returns 0 on success, -1 if VALUE is not table|csv|json. */
int cli_parse_format(const char *value, enum cli_format *out);

/* Decodes hex (upper or lower case) into out; exactly want bytes expected.
 * Returns 0, or -1 on a bad digit / odd length / wrong length. */
int cli_hex_decode(uint8_t *out, size_t want, const char *hex);

/* Decodes hex of any even length up to cap bytes into out; *len gets the byte count.
 * Returns 0, or -1 on an odd length, a bad digit or more than cap bytes. */
int cli_hex_decode_any(uint8_t *out, size_t cap, size_t *len, const char *hex);

/* len bytes of the operating system's randomness (getrandom(2), platform.h: the CLI's
 * random source; the library never reads one). Returns 0, or -1 when it fails. */
int cli_random(uint8_t *out, size_t len);

/* Decodes --name HEX into exactly want bytes; "pqpan CMD: --name: ..." on stderr and
 * EXIT_BAD_INPUT otherwise. */
int cli_decode_hex_exact(uint8_t *out, size_t want, const char *cmd, const char *name,
                         const char *hex);

/* Prints "name":"<lowercase hex>" to stdout, opening the JSON object when first, else
 * after a comma. */
void cli_print_hex_field(const char *name, const uint8_t *p, size_t len, int first);

/* Writes len bytes as lowercase hex to f. */
void cli_hex_print(FILE *f, const uint8_t *p, size_t len);

/* s as a CSV field, quoted when it holds a comma, quote or line end (RFC 4180). */
void cli_csv_string(FILE *f, const char *s);

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

/* The same, written to f. */
void cli_print_fixed(FILE *f, double x, int decimals);

/* An integer as printf's %lld / %llu writes it. Returns the length. */
int cli_format_int(char out[CLI_FIXED_MAX], long long v);
int cli_format_uint(char out[CLI_FIXED_MAX], unsigned long long v);

/* Parses a finite double in [min, max]. Returns 0 or -1. */
int cli_parse_double(const char *s, double min, double max, double *out);

/* A BLE connection interval in ms: 7.5 .. 4000 in steps of 1.25 ms (Core v5.4 Vol 6 Part B
 * §4.5.1: connInterval = 1.25 ms x 6 .. 3200), into *ns. Returns 0 or -1. */
int cli_parse_conn_interval(const char *s, uint64_t *ns);

#endif
