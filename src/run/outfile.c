/* Output files: written through a temporary name, or directly, by what the name is (see
 * outfile.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_text.h"
#include "outfile.h"

/* Links followed at most, as Linux does (MAXSYMLINKS, include/linux/namei.h); past it, ELOOP. */
#define LINK_HOPS_MAX 40

static int cannot_write(const char *cmd, const struct cli_outfile *o, const char *why)
{
    if (strcmp(o->name, o->path) != 0) {
        fprintf(stderr, "pqpan %s: cannot write %s (a link to %s): %s\n", cmd, o->name, o->path,
                why);
    } else {
        fprintf(stderr, "pqpan %s: cannot write %s: %s\n", cmd, o->name, why);
    }
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

/* 1 when path names an open descriptor: /proc/PID/fd/N, /dev/fd/N (on Linux a link to
 * /proc/self/fd), or whatever else /proc holds. The kernel follows such a link through the
 * descriptor, not through the text readlink gives: a pipe's ("pipe:[N]") names nothing,
 * and a file's path does not say that the descriptor appends to it (`>> log`). */
static int names_descriptor(const char *path)
{
    return strncmp(path, "/proc/", 6) == 0 || strncmp(path, "/dev/fd/", 8) == 0;
}

/* Replaces path, while it is a symbolic link, by the link's target (a relative target is
 * read from the link's directory); stops at a name of a descriptor. 0, or an errno value
 * (ELOOP, ENAMETOOLONG). */
static int follow_links(char path[CLI_PATH_MAX])
{
    char target[CLI_PATH_MAX], dir[CLI_PATH_MAX];
    int hops;
    for (hops = 0; !names_descriptor(path); hops++) {
        ssize_t n = readlink(path, target, sizeof target);
        if (n < 0) {
            return 0; /* not a link (or not there: stat tells why) */
        }
        if (hops == LINK_HOPS_MAX) {
            return ELOOP;
        }
        if ((size_t)n >= sizeof target) {
            return ENAMETOOLONG;
        }
        target[n] = '\0';
        parent_dir(dir, path);
        if (target[0] == '/') {
            strcpy(path, target);
        } else if ((size_t)snprintf(path, CLI_PATH_MAX, "%s/%s", dir, target) >= CLI_PATH_MAX) {
            return ENAMETOOLONG;
        }
    }
    return 0;
}

/* o->path, a file to rename into place, has a directory that may be written. */
static int check_dir(const char *cmd, const struct cli_outfile *o)
{
    char dir[CLI_PATH_MAX];
    struct stat st;
    parent_dir(dir, o->path);
    if (stat(dir, &st) != 0) {
        return cannot_write(cmd, o, strerror(errno));
    }
    if (!S_ISDIR(st.st_mode)) {
        return cannot_write(cmd, o, strerror(ENOTDIR));
    }
    if (access(dir, W_OK | X_OK) != 0) {
        return cannot_write(cmd, o, strerror(errno));
    }
    return EXIT_OK;
}

/* Sets o->name, o->path (links followed) and o->direct by the rules of outfile.h, and
 * checks that the file can be written. */
static int find_target(struct cli_outfile *o, const char *cmd, const char *name)
{
    struct stat st;
    int err;
    if (name[0] == '\0' || strlen(name) >= CLI_PATH_MAX) {
        fprintf(stderr, "pqpan %s: cannot write %s: %s\n", cmd, name,
                name[0] == '\0' ? "empty file name" : "name too long");
        return EXIT_IO;
    }
    strcpy(o->name, name);
    strcpy(o->path, name);
    o->direct = 0;
    o->err = 0;
    err = follow_links(o->path);
    if (err != 0) {
        return cannot_write(cmd, o, strerror(err));
    }
    o->direct = names_descriptor(o->path);
    if (stat(o->path, &st) != 0) {
        return errno == ENOENT && !o->direct ? check_dir(cmd, o)
                                             : cannot_write(cmd, o, strerror(errno));
    }
    if (S_ISDIR(st.st_mode)) {
        return cannot_write(cmd, o, "is a directory");
    }
    if (S_ISBLK(st.st_mode)) {
        return cannot_write(cmd, o, "is a block device (pqpan does not write to disks)");
    }
    if (S_ISREG(st.st_mode) && !o->direct) {
        return check_dir(cmd, o);
    }
    o->direct = 1;
    return access(o->path, W_OK) == 0 ? EXIT_OK : cannot_write(cmd, o, strerror(errno));
}

int cli_outfile_check(const char *cmd, const char *path)
{
    struct cli_outfile o;
    return find_target(&o, cmd, path);
}

int cli_stdout_check(const char *cmd)
{
    if (write(STDOUT_FILENO, "", 0) < 0) {
        fprintf(stderr, "pqpan %s: cannot write the output (standard output): %s\n", cmd,
                strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

int cli_outfile_open(struct cli_outfile *o, const char *cmd, const char *path)
{
    int rc = find_target(o, cmd, path);
    int fd, err;
    o->f = NULL;
    if (rc != EXIT_OK) {
        return rc;
    }
    if (o->direct) { /* appending: after what a descriptor's file (`>> log`) holds */
        fd = open(o->path, O_WRONLY | O_APPEND | O_NOCTTY);
    } else {
        snprintf(o->tmp, sizeof o->tmp, "%s.tmp.%ld", o->path, (long)getpid());
        (void)unlink(o->tmp); /* left by a killed run that had this PID */
        fd = open(o->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    }
    o->f = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (o->f != NULL) {
        return EXIT_OK;
    }
    err = errno;
    if (fd >= 0) {
        close(fd);
        if (!o->direct) {
            remove(o->tmp);
        }
    }
    return cannot_write(cmd, o, strerror(err));
}

void cli_outfile_failed(struct cli_outfile *o)
{
    if (o->err == 0) {
        o->err = errno != 0 ? errno : EIO;
    }
}

int cli_outfile_close(struct cli_outfile *o, const char *cmd, int keep)
{
    int bad, err;
    if (o->f == NULL) {
        return EXIT_OK;
    }
    errno = 0;
    bad = o->err != 0 || ferror(o->f) != 0;
    bad |= fclose(o->f) != 0;
    o->f = NULL;
    if (!o->direct && keep && !bad) {
        bad = rename(o->tmp, o->path) != 0;
    }
    err = o->err != 0 ? o->err : errno;
    if (!o->direct && (bad || !keep)) {
        remove(o->tmp);
    }
    if (!keep || !bad) {
        return EXIT_OK;
    }
    return cannot_write(cmd, o, err != 0 ? strerror(err) : "write error");
}
