/* `pqpan estimate --link ble-mesh` and `pqpan simulate --link ble-mesh` (cli/mesh.c): argv
 * into a request of pqpan_run, the rows it gives printed as a table, CSV or JSON. What a run
 * means is the run layer's (src/run/run_mesh.c, mesh_model.h). */
#ifndef PQPAN_CLI_MESH_CLI_H
#define PQPAN_CLI_MESH_CLI_H

#include <stdio.h>

/* 1 if argv holds "--link ble-mesh". */
int mesh_link_requested(int argc, char **argv);

/* Help lines of the link's options. */
void mesh_opts_help(FILE *out);

/* `pqpan estimate --link ble-mesh ...` (estimate.c dispatches to it). */
int mesh_estimate_run(int argc, char **argv);

/* `pqpan simulate --link ble-mesh ...` (simulate.c dispatches to it). */
int mesh_simulate_run(int argc, char **argv);

#endif
