#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "figure.h"
#include "platform.h"
#include "pqpan/io.h"

int cli_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pqpan%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\nTry 'pqpan help%s%s'.\n", cmd ? " " : "", cmd ? cmd : "");
    return EXIT_USAGE;
}

void cli_warn(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "pqpan %s: warning: ", cmd);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
}

void cli_progress_start(struct cli_progress *p, const char *cmd, const char *what,
                        unsigned long long total)
{
    p->cmd = cmd;
    p->what = what;
    p->total = total;
    p->last_pct = 101u;
    p->on = total > 1u && cli_stderr_is_tty();
}

void cli_progress_step(struct cli_progress *p, unsigned long long done)
{
    unsigned pct;
    if (!p->on) {
        return;
    }
    pct = (unsigned)(done * 100u / p->total);
    if (pct != p->last_pct) {
        p->last_pct = pct;
        fprintf(stderr, "\rpqpan %s: %s %llu/%llu (%u %%)", p->cmd, p->what, done, p->total, pct);
        fflush(stderr);
    }
}

void cli_progress_end(struct cli_progress *p)
{
    if (p->on) {
        fprintf(stderr, "\r%*s\r", 72, "");
        fflush(stderr);
    }
}

int cli_msg_report(const char *cmd, int rc, const struct cli_msg *m)
{
    if (rc != EXIT_OK) {
        fprintf(stderr, "pqpan %s: %s\n", cmd, m->text);
    }
    return rc;
}

int cli_unknown_word(const char *cmd, const char *what, const char *v, const char *const *words)
{
    struct cli_msg m;
    (void)cli_unknown_word_msg(&m, what, v, words);
    return cli_usage_error(cmd, "%s", m.text);
}

/* Whether a is "--NAME=..." with NAME of letters, digits and '-': the '=' in it, or NULL. */
static char *assignment(char *a)
{
    char *p;
    if (strncmp(a, "--", 2) != 0 || a[2] == '\0') {
        return NULL;
    }
    for (p = a + 2; *p != '\0' && *p != '='; p++) {
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '-')) {
            return NULL;
        }
    }
    return *p == '=' ? p : NULL;
}

int cli_split_assignments(int argc, char **argv, char **out)
{
    int i, n = 0;
    for (i = 0; i < argc; i++) {
        char *eq = assignment(argv[i]);
        out[n++] = argv[i];
        if (eq != NULL) {
            *eq = '\0';
            out[n++] = eq + 1;
        }
    }
    out[n] = NULL;
    return n;
}

int cli_wants_help(int argc, char **argv)
{
    int i;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            return 1;
        }
    }
    return 0;
}

int cli_link_requested(int argc, char **argv, const char *link)
{
    int i;
    for (i = 1; i + 1 < argc; i++) {
        if (strcmp(argv[i], "--link") == 0 && strcmp(argv[i + 1], link) == 0) {
            return 1;
        }
    }
    return 0;
}

static int hex_nibble(char c)
{
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

int cli_hex_decode(uint8_t *out, size_t want, const char *hex)
{
    size_t i;
    if (strlen(hex) != 2 * want) {
        return -1;
    }
    for (i = 0; i < want; i++) {
        int hi = hex_nibble(hex[2 * i]);
        int lo = hex_nibble(hex[2 * i + 1]);
        if (hi < 0 || lo < 0) {
            return -1;
        }
        out[i] = (uint8_t)((hi << 4) | lo);
    }
    return 0;
}

void cli_hex_print(FILE *f, const uint8_t *p, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < len; i++) {
        fputc(digits[p[i] >> 4], f);
        fputc(digits[p[i] & 15], f);
    }
}


void cli_print_fixed(FILE *f, double x, int decimals)
{
    char buf[CLI_FIXED_MAX];
    int n = cli_format_fixed(buf, x, decimals);
    fwrite(buf, 1, (size_t)n, f);
}


int cli_hex_decode_any(uint8_t *out, size_t cap, size_t *len, const char *hex)
{
    const size_t digits = strlen(hex);
    if (digits % 2 != 0 || digits / 2 > cap) {
        return -1;
    }
    *len = digits / 2;
    return cli_hex_decode(out, *len, hex);
}

int cli_random(uint8_t *out, size_t len)
{
    return cli_os_random(out, len);
}

int cli_decode_hex_exact(uint8_t *out, size_t want, const char *cmd, const char *name,
                         const char *hex)
{
    const size_t digits = strlen(hex);
    if (digits % 2 == 0 && digits / 2 != want) {
        fprintf(stderr, "pqpan %s: --%s: %zu bytes, want %zu\n", cmd, name, digits / 2, want);
        return EXIT_BAD_INPUT;
    }
    if (cli_hex_decode(out, want, hex) != 0) {
        fprintf(stderr, "pqpan %s: --%s: not a hex string\n", cmd, name);
        return EXIT_BAD_INPUT;
    }
    return EXIT_OK;
}

void cli_csv_string(FILE *f, const char *s)
{
    if (strpbrk(s, ",\"\r\n") == NULL) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s != '\0'; s++) {
        if (*s == '"') {
            fputc('"', f);
        }
        fputc(*s, f);
    }
    fputc('"', f);
}

void cli_print_hex_field(const char *name, const uint8_t *p, size_t len, int first)
{
    printf("%s\"%s\":\"", first ? "{" : ",", name);
    cli_hex_print(stdout, p, len);
    printf("\"");
}

void cli_progress_runs(void *ctx, unsigned done, unsigned runs)
{
    struct cli_progress *p = ctx;
    if (done == 0) {
        cli_progress_start(p, p->cmd, "802.15.4 run", runs);
        return;
    }
    cli_progress_step(p, done);
    if (done == runs) {
        cli_progress_end(p);
    }
}
