/* The output of `pqpan sweep` and `sweep merge`: stdout, or FILE written through
 * FILE.tmp.PID and renamed into place at the end (cli/outfile.h), so FILE is never half
 * written. */
#include "sweep.h"

int sweep_output_open(struct sweep_output *o, const char *path)
{
    int rc;
    o->path = path;
    o->f = stdout;
    o->file.f = NULL;
    if (path == NULL) {
        return EXIT_OK;
    }
    rc = cli_outfile_open(&o->file, SWEEP_CMD, path);
    o->f = o->file.f;
    return rc;
}

int sweep_output_close(struct sweep_output *o, int rc)
{
    int keep = rc == EXIT_OK || rc == SWEEP_EXIT_INTERRUPTED;
    if (o->path != NULL) {
        return cli_outfile_close(&o->file, SWEEP_CMD, keep) != EXIT_OK ? EXIT_IO : rc;
    }
    if (keep && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "pqpan %s: cannot write the output\n", SWEEP_CMD);
        return EXIT_IO;
    }
    return rc;
}
