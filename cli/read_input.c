/* Whole-file input and secret values from files (cli/read_input.h). */
#include "read_input.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "pqpan/common.h"

char *cli_read_all(const char *path, size_t *len)
{
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (f == NULL) {
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n + 1 >= cap) {
            char *grown = realloc(buf, cap = cap ? 2 * cap : 65536);
            if (grown == NULL) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) {
            buf[n] = '\0';
            break;
        }
    }
    if (ferror(f)) {
        free(buf);
        buf = NULL;
    }
    if (f != stdin) {
        fclose(f);
    }
    *len = n;
    return buf;
}

/* The hex digits of text without surrounding white space, in place (NUL-terminated). */
static char *trim(char *text, size_t len)
{
    while (len > 0 && isspace((unsigned char)text[len - 1])) {
        text[--len] = '\0';
    }
    while (isspace((unsigned char)*text)) {
        text++;
    }
    return text;
}

/* Decodes the value from the file's text (hex or JSON member); 0 or -1. */
static int decode_secret(uint8_t *out, size_t want, char *text, size_t len, const char *member)
{
    const char *hex = trim(text, len);
    cJSON *json = NULL;
    int rc;
    if (hex[0] == '{') {
        const cJSON *item;
        json = cJSON_Parse(hex);
        item = cJSON_GetObjectItemCaseSensitive(json, member);
        hex = cJSON_IsString(item) ? item->valuestring : "";
    }
    rc = cli_hex_decode(out, want, hex);
    if (json != NULL) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(json, member);
        if (cJSON_IsString(item)) {
            pqpan_wipe(item->valuestring, strlen(item->valuestring));
        }
        cJSON_Delete(json);
    }
    return rc;
}

int cli_secret_given(const struct cli_secret_arg *s)
{
    return s->hex != NULL || s->file != NULL;
}

int cli_secret_read(uint8_t *out, size_t want, const struct cli_secret_arg *s, const char *cmd,
                    const char *name)
{
    char option[32];
    int rc;
    memset(out, 0, want);
    if (s->hex != NULL && s->file != NULL) {
        return cli_usage_error(cmd, "--%s and --%s-file exclude each other", name, name);
    }
    if (!cli_secret_given(s)) {
        return cli_usage_error(cmd, "--%s or --%s-file is needed", name, name);
    }
    if (s->file != NULL) {
        snprintf(option, sizeof option, "--%s-file", name);
        return cli_secret_from_file(out, want, s->file, name, cmd, option);
    }
    rc = cli_decode_hex_exact(out, want, cmd, name, s->hex);
    if (rc != EXIT_OK) {
        pqpan_wipe(out, want);
    }
    return rc;
}

int cli_secret_or_random(uint8_t *out, size_t want, const struct cli_secret_arg *s,
                         const char *cmd, const char *name)
{
    if (cli_secret_given(s)) {
        return cli_secret_read(out, want, s, cmd, name);
    }
    if (cli_random(out, want) != 0) {
        fprintf(stderr, "pqpan %s: cannot read the OS random source (getrandom)\n", cmd);
        return EXIT_IO;
    }
    return EXIT_OK;
}

int cli_secret_from_file(uint8_t *out, size_t want, const char *path, const char *member,
                         const char *cmd, const char *option)
{
    size_t len = 0;
    char *text = cli_read_all(path, &len);
    int rc = EXIT_OK;
    if (text == NULL) {
        fprintf(stderr, "pqpan %s: %s %s: %s\n", cmd, option, path,
                errno ? strerror(errno) : "read error");
        memset(out, 0, want);
        return EXIT_IO;
    }
    if (decode_secret(out, want, text, len, member) != 0) {
        fprintf(stderr,
                "pqpan %s: %s %s: want %zu bytes as hex, or a JSON object with \"%s\"\n", cmd,
                option, path, want, member);
        memset(out, 0, want);
        rc = EXIT_BAD_INPUT;
    }
    pqpan_wipe(text, len);
    free(text);
    return rc;
}
