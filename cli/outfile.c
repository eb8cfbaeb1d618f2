/* Output files written through a temporary name (see outfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"

static int cannot_write(const char *cmd, const char *path, const char *why)
{
    fprintf(stderr, "pqpan %s: cannot write %s: %s\n", cmd, path, why);
    return EXIT_IO;
}

/* The directory part of path ("." when it has none) into dir. */
static void parent_dir(char dir[CLI_PATH_MAX], const char *path)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        strcpy(dir, ".");
    } else if (slash == path) {
        strcpy(dir, "/");
    } else {
        memcpy(dir, path, (size_t)(slash - path));
        dir[slash - path] = '\0';
    }
}

int cli_outfile_check(const char *cmd, const char *path)
{
    char dir[CLI_PATH_MAX];
    struct stat st;
    if (path[0] == '\0' || strlen(path) >= CLI_PATH_MAX) {
        return cannot_write(cmd, path, path[0] == '\0' ? "empty file name" : "name too long");
    }
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        return cannot_write(cmd, path, "is a directory");
    }
    parent_dir(dir, path);
    if (stat(dir, &st) != 0) {
        return cannot_write(cmd, path, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        return cannot_write(cmd, path, strerror(ENOTDIR));
    }
    if (access(dir, W_OK | X_OK) != 0) {
        return cannot_write(cmd, path, strerror(errno));
    }
    return EXIT_OK;
}

int cli_stdout_check(const char *cmd)
{
    if (write(STDOUT_FILENO, "", 0) < 0) {
        return cannot_write(cmd, "the output (standard output)", strerror(errno));
    }
    return EXIT_OK;
}

int cli_outfile_open(struct cli_outfile *o, const char *cmd, const char *path)
{
    int rc = cli_outfile_check(cmd, path);
    o->f = NULL;
    if (rc != EXIT_OK) {
        return rc;
    }
    strcpy(o->path, path);
    snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", path, (long)getpid());
    o->f = fopen(o->tmp, "wb");
    if (o->f == NULL) {
        return cannot_write(cmd, path, strerror(errno));
    }
    return EXIT_OK;
}

int cli_outfile_close(struct cli_outfile *o, const char *cmd, int keep)
{
    int bad;
    if (o->f == NULL) {
        return EXIT_OK;
    }
    errno = 0;
    bad = ferror(o->f) != 0;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (keep && !bad && rename(o->tmp, o->path) == 0) {
        return EXIT_OK;
    }
    remove(o->tmp);
    return keep ? cannot_write(cmd, o->path, errno != 0 ? strerror(errno) : "write error")
                : EXIT_OK;
}
