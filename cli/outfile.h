/* Files the CLI writes (--out, --pcap, --trace, figures): written under a temporary name
 * next to the real one and renamed into place when complete, so an interrupted or failed
 * run never leaves a truncated file under the real name. */
#ifndef PQPAN_CLI_OUTFILE_H
#define PQPAN_CLI_OUTFILE_H

#include <stdio.h>

#define CLI_PATH_MAX 4096

struct cli_outfile {
    FILE *f;                       /* writes go here (the temporary file) */
    char path[CLI_PATH_MAX];       /* the real name */
    char tmp[CLI_PATH_MAX + 32];   /* path.tmp.PID while writing */
};

/* Checks that path can be written before any work is done: not a directory, in a
 * directory that exists and may be written. EXIT_OK, or EXIT_IO with "pqpan CMD: cannot
 * write PATH: REASON" on stderr. */
int cli_outfile_check(const char *cmd, const char *path);

/* Checks, before any work, that standard output takes writes as far as the system tells
 * without writing anything: a write of no bytes, which fails on a closed or read-only
 * descriptor (EBADF) and on /dev/full (ENOSPC); on a pipe or a regular file it succeeds
 * (a disk that fills or a reader that goes away shows only at the real writes, which
 * main() checks). EXIT_OK, or EXIT_IO with "pqpan CMD: cannot write the output (standard
 * output): REASON" on stderr. */
int cli_stdout_check(const char *cmd);

/* Opens path's temporary file for writing (binary). EXIT_OK, or EXIT_IO (message printed,
 * *o left closed). */
int cli_outfile_open(struct cli_outfile *o, const char *cmd, const char *path);

/* Closes the temporary file; keep = 1 renames it to the real name when everything was
 * written, keep = 0 (a failed run) removes it. EXIT_OK, or EXIT_IO (message printed, the
 * temporary file removed) when a write, the close or the rename failed while keeping. */
int cli_outfile_close(struct cli_outfile *o, const char *cmd, int keep);

#endif
