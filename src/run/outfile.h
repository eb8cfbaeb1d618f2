/* Files the CLI and the run layer write (--out, --pcap, --trace, figures). What a name is decides how it
 * is written, so no file is ever destroyed:
 *  - a regular file, or a name that does not exist yet: written under a temporary name
 *    beside it (NAME.tmp.PID) and renamed into place when complete, so an interrupted or
 *    failed run never leaves a truncated file under the real name;
 *  - a symbolic link: followed (through every link, relative links read from the link's
 *    directory); its target is written by these rules, the link kept;
 *  - a character device, FIFO or socket: opened and written directly (no temporary name,
 *    no rename; on a failed run, what was written stays written);
 *  - a name of an open descriptor (/dev/fd/N, /proc/PID/fd/N, anything under /proc; so
 *    /dev/stdout, a link to /proc/self/fd/1): opened as it is, the kernel following it to
 *    the descriptor's pipe or file, and written directly, appended to what a file holds
 *    (`--out /dev/stdout >> log` keeps the log);
 *  - a directory or a block device: refused. */
#ifndef PQPAN_RUN_OUTFILE_H
#define PQPAN_RUN_OUTFILE_H

#include <stdio.h>

#include "run_ns.h"

#define CLI_PATH_MAX 4096

struct cli_outfile {
    FILE *f;                       /* writes go here */
    int direct;                    /* 1: f is path itself (a device, FIFO or socket) */
    int err;                       /* errno of the first failed write; 0: none */
    char name[CLI_PATH_MAX];       /* as given, for messages */
    char path[CLI_PATH_MAX];       /* the file written: name with its links followed */
    char tmp[CLI_PATH_MAX + 32];   /* path.tmp.PID while writing (direct = 0) */
};

/* Checks that path can be written before any work is done, by the rules above: not a
 * directory or a block device; a file to rename into place in a directory that exists and
 * may be written; a device, FIFO, socket or descriptor that may be written (access(2):
 * nothing is opened, since opening a FIFO blocks until it has a reader, and O_NONBLOCK
 * would refuse one whose reader starts later). EXIT_OK, or EXIT_IO with "pqpan CMD: cannot
 * write PATH: REASON" (PATH (a link to TARGET) when links were followed) on stderr. */
int cli_outfile_check(const char *cmd, const char *path);

/* Checks, before any work, that standard output takes writes as far as the system tells
 * without writing anything: a write of no bytes, which fails on a closed or read-only
 * descriptor (EBADF) and on /dev/full (ENOSPC); on a pipe or a regular file it succeeds
 * (a disk that fills or a reader that goes away shows only at the real writes, which
 * main() checks). EXIT_OK, or EXIT_IO with "pqpan CMD: cannot write the output (standard
 * output): REASON" on stderr. */
int cli_stdout_check(const char *cmd);

/* Opens path for writing (binary) by the rules above: its temporary file, or the device,
 * FIFO, socket or descriptor itself (a FIFO blocks here until it has a reader; Linux
 * refuses to open a socket: ENXIO). EXIT_OK, or EXIT_IO (message printed, *o left
 * closed). */
int cli_outfile_open(struct cli_outfile *o, const char *cmd, const char *path);

/* Records that a write to o failed, errno telling why (EIO when errno is 0); the first
 * reason is kept, for cli_outfile_close to report (stdio forgets it: after a failed fwrite,
 * fclose succeeds). */
void cli_outfile_failed(struct cli_outfile *o);

/* Closes the output; keep = 1 renames the temporary file to the real name when everything
 * was written, keep = 0 (a failed run) removes it. EXIT_OK, or EXIT_IO (message printed,
 * the temporary file removed) when a write (cli_outfile_failed or the stream's error
 * flag), the close or the rename failed while keeping (a device that refuses the data,
 * such as /dev/full, included). */
int cli_outfile_close(struct cli_outfile *o, const char *cmd, int keep);

#endif
