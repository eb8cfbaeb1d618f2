/* Secret values from files (cli/read_input.h). */
#include "read_input.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cli.h"
#include "pqpan/common.h"
#include "pqpan/io.h"

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

int cli_secret_from_file(uint8_t *out, size_t want, const char *path, const char *member,
                         const char *cmd, const char *option)
{
    char err[PQPAN_IO_ERR_MAX];
    struct pqpan_io_text t;
    int rc = EXIT_OK;
    if (pqpan_io_read_file(&t, path, PQPAN_IO_SMALL_FILE_MAX, err, sizeof err) != PQPAN_OK) {
        fprintf(stderr, "pqpan %s: %s %s\n", cmd, option, err);
        memset(out, 0, want);
        return EXIT_IO;
    }
    if (decode_secret(out, want, t.owned, t.len, member) != 0) {
        fprintf(stderr,
                "pqpan %s: %s %s: want %zu bytes as hex, or a JSON object with \"%s\"\n", cmd,
                option, path, want, member);
        memset(out, 0, want);
        rc = EXIT_BAD_INPUT;
    }
    pqpan_wipe(t.owned, t.len);
    pqpan_io_text_free(&t);
    return rc;
}
