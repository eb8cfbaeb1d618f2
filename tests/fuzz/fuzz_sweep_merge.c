/* Fuzzes pqpan sweep merge (cli/sweep_merge.c): the input, cut in two at the position its
 * first byte says, is two shard files. Any input must give exit 0 (and then the output
 * holds every line of the inputs but one header) or a defined exit code: 2, 3 or 4. */
#define _POSIX_C_SOURCE 200809L
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f != NULL && fwrite(p, 1, n, f) == n;
    if (f != NULL && fclose(f) != 0) {
        ok = 0;
    }
    return ok;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char dir[] = "/tmp/fuzz_sweep_merge.XXXXXX";
    char a[64], b[64], out[64];
    char *argv[6];
    size_t cut;
    int rc;
    if (size < 1 || mkdtemp(dir) == NULL) {
        return 0;
    }
    cut = 1 + (size_t)data[0] * (size - 1) / 255;
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    snprintf(out, sizeof out, "%s/out", dir);
    if (write_file(a, data + 1, cut - 1) && write_file(b, data + cut, size - cut)) {
        argv[0] = "merge";
        argv[1] = "--out";
        argv[2] = out;
        argv[3] = a;
        argv[4] = b;
        argv[5] = NULL;
        rc = sweep_merge_run(5, argv);
        if (rc != EXIT_OK && rc != EXIT_USAGE && rc != EXIT_BAD_INPUT && rc != EXIT_IO) {
            abort();
        }
        if (rc == EXIT_OK && access(out, F_OK) != 0) {
            abort();
        }
    }
    unlink(a);
    unlink(b);
    unlink(out);
    rmdir(dir);
    return 0;
}
