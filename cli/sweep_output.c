/* The output of `pqpan sweep` and `sweep merge`: stdout, or FILE written through
 * FILE.tmp.PID and renamed into place at the end, so FILE is never half written. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sweep.h"

int sweep_output_open(struct sweep_output *o, const char *path)
{
    struct stat st;
    memset(o, 0, sizeof *o);
    o->path = path;
    if (path == NULL) {
        o->f = stdout;
        return EXIT_OK;
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "pqpan %s: cannot write %s: a directory\n", SWEEP_CMD, path);
        return EXIT_IO;
    }
    o->tmp = malloc(strlen(path) + 32);
    if (o->tmp == NULL) {
        fprintf(stderr, "pqpan %s: out of memory\n", SWEEP_CMD);
        return EXIT_FAILURE_RUN;
    }
    snprintf(o->tmp, strlen(path) + 32, "%s.tmp.%ld", path, (long)getpid());
    o->f = fopen(o->tmp, "w");
    if (o->f == NULL) {
        fprintf(stderr, "pqpan %s: cannot write %s: %s\n", SWEEP_CMD, path, strerror(errno));
        free(o->tmp);
        o->tmp = NULL;
        return EXIT_IO;
    }
    return EXIT_OK;
}

int sweep_output_close(struct sweep_output *o, int rc)
{
    int keep = rc == EXIT_OK || rc == SWEEP_EXIT_INTERRUPTED, bad;
    if (o->path == NULL) {
        bad = fflush(stdout) != 0 || ferror(stdout);
    } else {
        bad = ferror(o->f) != 0;
        bad |= fclose(o->f) != 0;
        if (keep && !bad && rename(o->tmp, o->path) != 0) {
            bad = 1;
        }
        if (!keep || bad) {
            remove(o->tmp);
        }
        free(o->tmp);
    }
    if (bad && keep) {
        fprintf(stderr, "pqpan %s: cannot write %s\n", SWEEP_CMD,
                o->path != NULL ? o->path : "the output");
        return EXIT_IO;
    }
    return rc;
}

