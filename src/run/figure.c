/* Output directories and gnuplot figures (figure.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "figure.h"
#include "outfile.h"
#include "run_text.h"

int figure_dir(const char *dir, struct cli_msg *msg)
{
    struct stat st;
    if (strchr(dir, '\'') != NULL) {
        return cli_msg_set(msg, EXIT_USAGE, "--out: a directory name without quotes, please");
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        return cli_msg_set(msg, EXIT_IO, "cannot create %s: %s", dir, strerror(errno));
    }
    errno = 0;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || access(dir, W_OK | X_OK) != 0) {
        return cli_msg_set(msg, EXIT_IO, "cannot write into %s: %s", dir,
                           errno != 0 ? strerror(errno) : strerror(ENOTDIR));
    }
    return EXIT_OK;
}

int figure_open(struct cli_outfile *o, const char *cmd, const char *dir, const char *name)
{
    char path[CLI_PATH_MAX];
    if ((size_t)snprintf(path, sizeof path, "%s/%s", dir, name) >= sizeof path) {
        fprintf(stderr, "pqpan %s: cannot write %s/%s: name too long\n", cmd, dir, name);
        return EXIT_IO;
    }
    return cli_outfile_open(o, cmd, path);
}

int figure_close(struct cli_outfile *o, const char *cmd)
{
    return cli_outfile_close(o, cmd, 1);
}

int figure_gnuplot(const char *cmd, const char *dir, const char *script)
{
    char line[2048];
    snprintf(line, sizeof line, "cd '%s' && gnuplot '%s' 2>&1", dir, script);
    fflush(NULL);
    if (system(line) != 0) {
        fprintf(stderr, "pqpan %s: gnuplot %s/%s failed (is gnuplot installed?)\n", cmd, dir,
                script);
        return EXIT_FAILURE_RUN;
    }
    return EXIT_OK;
}

void figure_render(FILE *f, const char *stem, const char *plot)
{
    fprintf(f,
            "do for [t in 'svg png'] {\n"
            "  if (t eq 'svg') { set terminal svg size 900,540 } else { set terminal png size 900,540 }\n"
            "  set output '%s.'.t\n"
            "  %s"
            "}\n",
            stem, plot);
}
