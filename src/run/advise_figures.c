/* pqpan advise --out DIR: the gnuplot figures (run_advise.h), written by the run
 * (run_advise.c). Energy against latency with the Pareto front (advise_pareto.*) and, over
 * BLE, energy against the LL payload size per ML-KEM level (advise_ll.*). Every number is
 * the search's (run_advise_search.c). */
#include <stdio.h>

#include "figure.h"
#include "run_advise.h"

/* The y axis: whose energy the search minimises. */
static const char *objective_label(const struct advise_ctx *c)
{
    switch (c->o->battery) {
    case ADV_BATTERY_CENTRAL:
        return "central's energy per exchange (uJ)";
    case ADV_BATTERY_BOTH:
        return "both sides' energy per exchange (uJ)";
    default:
        return "peripheral's energy per exchange (uJ)";
    }
}

/* The name of block k of advise_points.dat: a level, or 802.15.4's. */
static const char *points_block_name(int k)
{
    return k < ADV_LEVELS ? advise_kem_name(k) : "802.15.4 (all levels)";
}

/* Whether group range [lo, hi) has a point. */
static int any_found(const struct advise_result *r, size_t lo, size_t hi)
{
    size_t g;
    for (g = lo; g < hi; g++) {
        if (r->group_found[g]) {
            return 1;
        }
    }
    return 0;
}

/* Only the blocks that have points are written, each after a comment naming it, so that
 * gnuplot's index (which skips an empty block) is the block's position among those written:
 * index[k] of block k, -1 when it has none. */
static int write_points(const struct advise_ctx *c, const struct advise_result *r, int index[])
{
    struct cli_outfile o;
    int k, written = 0;
    size_t g, per_level = ADV_GROUPS_BLE / ADV_LEVELS;
    if (figure_open(&o, ADV_CMD, c->o->out_dir, "advise_points.dat") != EXIT_OK) {
        return EXIT_IO;
    }
    fprintf(o.f, "# latency_ms objective_uj: per level (one block each: ML-KEM-512, 768, 1024) "
                 "the cheapest BLE configuration of each PHY, interval, transfer method and "
                 "KeyGen side; then every 802.15.4 configuration; a block with no point is left "
                 "out, each block starts with its name\n");
    for (k = 0; k <= ADV_LEVELS; k++) {
        size_t lo = (size_t)k * per_level;
        size_t hi = k < ADV_LEVELS ? lo + per_level : ADV_GROUPS;
        index[k] = -1;
        if (!any_found(r, lo, hi)) {
            continue;
        }
        index[k] = written++;
        fprintf(o.f, "# %s\n", points_block_name(k));
        for (g = lo; g < hi; g++) {
            if (r->group_found[g]) {
                fprintf(o.f, "%.3f %.3f\n", r->group[g].latency, r->group[g].energy);
            }
        }
        fprintf(o.f, "\n\n");
    }
    return figure_close(&o, ADV_CMD);
}

static int write_front(const struct advise_ctx *c, const struct advise_result *r)
{
    struct cli_outfile o;
    size_t i;
    if (figure_open(&o, ADV_CMD, c->o->out_dir, "advise_front.dat") != EXIT_OK) {
        return EXIT_IO;
    }
    fprintf(o.f, "# latency_ms objective_uj: the Pareto front over every configuration that "
                 "meets the constraints (none is both cheaper and faster)\n");
    for (i = 0; i < r->front.count; i++) {
        fprintf(o.f, "%.3f %.3f\n", r->front.pt[i].latency, r->front.pt[i].energy);
    }
    return figure_close(&o, ADV_CMD);
}

/* STEM.gp: the axes (the x label, title and scale lines), the y label and the plot
 * command, rendered into STEM.svg and STEM.png. */
static int write_gp(const struct advise_ctx *c, const char *stem, const char *axes,
                    const char *plot)
{
    struct cli_outfile o;
    char name[64];
    snprintf(name, sizeof name, "%s.gp", stem);
    if (figure_open(&o, ADV_CMD, c->o->out_dir, name) != EXIT_OK) {
        return EXIT_IO;
    }
    fprintf(o.f, "%sset ylabel \"%s\"\nset grid\nset key top right\n", axes, objective_label(c));
    figure_render(o.f, stem, plot);
    return figure_close(&o, ADV_CMD);
}

static int write_pareto_gp(const struct advise_ctx *c, const int index[])
{
    char plot[1024];
    size_t n = 0;
    int k;
    n += (size_t)snprintf(plot + n, sizeof plot - n, "plot ");
    for (k = 0; k <= ADV_LEVELS; k++) {
        if (index[k] >= 0) {
            n += (size_t)snprintf(plot + n, sizeof plot - n,
                                  "'advise_points.dat' index %d with points pt %d ps 0.6 "
                                  "title '%s', ",
                                  index[k], k < ADV_LEVELS ? 7 : 5, points_block_name(k));
        }
    }
    snprintf(plot + n, sizeof plot - n,
             "'advise_front.dat' with linespoints lw 2 pt 6 ps 1.2 lc rgb 'black' "
             "title 'Pareto front'\n");
    return write_gp(c, "advise_pareto",
                    "set xlabel 'time to key (ms)'\nset logscale x\n"
                    "set title 'Key exchange: energy against latency (events accounting)'\n",
                    plot);
}

/* BLE: per level, the cheapest configuration at each LL payload size of the grid within
 * every constraint but the level's; as advise_points.dat, only levels with a point, each
 * block named (index[k], or -1). */
static int write_ll_dat(const struct advise_ctx *c, const struct advise_result *r, int index[])
{
    struct cli_outfile o;
    size_t i;
    int k, written = 0;
    if (figure_open(&o, ADV_CMD, c->o->out_dir, "advise_ll.dat") != EXIT_OK) {
        return EXIT_IO;
    }
    fprintf(o.f, "# ll_octets objective_uj latency_ms id: per level (one block each: "
                 "ML-KEM-512, 768, 1024) the cheapest BLE configuration at each LL payload "
                 "size within every constraint but the level's, link switch included; a level "
                 "with no point is left out, each block starts with its name\n");
    for (k = 0; k < ADV_LEVELS; k++) {
        index[k] = -1;
        for (i = 0; i < c->grid.n_ll; i++) {
            const struct pqpan_advise_point *p = &r->ll_best[k][i];
            if (!r->ll_found[k][i]) {
                continue;
            }
            if (index[k] < 0) {
                index[k] = written++;
                fprintf(o.f, "# %s\n", advise_kem_name(k));
            }
            fprintf(o.f, "%u %.3f %.3f %u\n", c->grid.ll[i], p->energy, p->latency, p->id);
        }
        if (index[k] >= 0) {
            fprintf(o.f, "\n\n");
        }
    }
    return figure_close(&o, ADV_CMD);
}

static int write_ll_gp(const struct advise_ctx *c, const int index[])
{
    char plot[1024];
    size_t n = 0;
    int k;
    n += (size_t)snprintf(plot + n, sizeof plot - n, "plot ");
    for (k = 0; k < ADV_LEVELS; k++) {
        if (index[k] >= 0) {
            n += (size_t)snprintf(plot + n, sizeof plot - n,
                                  "%s'advise_ll.dat' index %d using 1:2 with linespoints lw 2 "
                                  "pt 7 title '%s'",
                                  n > 5u ? ", " : "", index[k], advise_kem_name(k));
        }
    }
    snprintf(plot + n, sizeof plot - n, "\n");
    return write_gp(c, "advise_ll",
                    "set xlabel 'LL payload (octets)'\n"
                    "set title 'Key exchange: energy against LL payload size per ML-KEM level "
                    "(cheapest at each size)'\n",
                    plot);
}

/* Over BLE the LL figure, when some level has a point. */
static int write_ll_figure(const struct advise_ctx *c, const struct advise_result *r)
{
    int index[ADV_LEVELS];
    int rc = write_ll_dat(c, r, index);
    if (rc != EXIT_OK || (index[0] < 0 && index[1] < 0 && index[2] < 0)) {
        return rc;
    }
    rc = write_ll_gp(c, index);
    return rc == EXIT_OK ? figure_gnuplot(ADV_CMD, c->o->out_dir, "advise_ll.gp") : rc;
}

int advise_out_check(const char *dir, struct cli_msg *msg)
{
    static const char probe[] = ".pqpan_advise_write_check";
    char path[CLI_PATH_MAX];
    struct cli_outfile o;
    int rc = figure_dir(dir, msg);
    if (rc != EXIT_OK) {
        return rc;
    }
    if (figure_open(&o, ADV_CMD, dir, probe) != EXIT_OK || figure_close(&o, ADV_CMD) != EXIT_OK) {
        return cli_msg_set(msg, EXIT_IO, "--out %s: cannot write a file there", dir);
    }
    snprintf(path, sizeof path, "%s/%s", dir, probe);
    remove(path);
    return EXIT_OK;
}

int advise_write_figures(const struct advise_ctx *c, const struct advise_result *r)
{
    int index[ADV_LEVELS + 1];
    int rc = write_points(c, r, index);
    if (rc == EXIT_OK) {
        rc = write_front(c, r);
    }
    if (rc == EXIT_OK) {
        rc = write_pareto_gp(c, index);
    }
    if (rc == EXIT_OK) {
        rc = figure_gnuplot(ADV_CMD, c->o->out_dir, "advise_pareto.gp");
    }
    if (rc == EXIT_OK && (c->o->links & ADV_LINK_BLE)) {
        rc = write_ll_figure(c, r);
    }
    return rc;
}
