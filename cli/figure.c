/* Output directories and gnuplot figures (see figure.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"
#include "figure.h"

int figure_dir(const char *cmd, const char *dir)
{
    if (strchr(dir, '\'') != NULL) {
        return cli_usage_error(cmd, "--out: a directory name without quotes, please");
    }
    if (mkdir(dir, 0777) != 0 && errno != EEXIST) {
        fprintf(stderr, "pqpan %s: cannot create %s: %s\n", cmd, dir, strerror(errno));
        return EXIT_IO;
    }
    return EXIT_OK;
}

FILE *figure_open(const char *cmd, const char *dir, const char *name)
{
    char path[1024];
    FILE *f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "w");
    if (f == NULL) {
        fprintf(stderr, "pqpan %s: cannot write %s: %s\n", cmd, path, strerror(errno));
    }
    return f;
}

int figure_close(const char *cmd, FILE *f, const char *name)
{
    if (fclose(f) != 0) {
        fprintf(stderr, "pqpan %s: error writing %s\n", cmd, name);
        return EXIT_IO;
    }
    return EXIT_OK;
}

int figure_gnuplot(const char *cmd, const char *dir, const char *script)
{
    char line[2048];
    snprintf(line, sizeof line, "cd '%s' && gnuplot '%s' 2>&1", dir, script);
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
