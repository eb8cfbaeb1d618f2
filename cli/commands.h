/* One run/help pair per subcommand; each is defined in cli/<name>.c. */
#ifndef PQPAN_CLI_COMMANDS_H
#define PQPAN_CLI_COMMANDS_H

#include <stdio.h>

#include "opts.h"

/* The options of `simulate` (BLE) beyond the link's and energy's (cli/simulate.c). */
extern const struct cli_opt_table simulate_opts_table;
/* simulate --link 802154's own options (cli/simulate_802154.c). */
extern const struct cli_opt_table simulate_802154_table;
/* trace's options (cli/trace.c). */
extern const struct cli_opt_table trace_opts_table;
/* compare's own options, and the 802.15.4 options it takes: --idle and --ipv6-frag of the
 * exchange's, --backoff of the link's (cli/compare.c). */
extern const struct cli_opt_table compare_opts_table;
extern const char *const compare_exchange[];
extern const char *const compare_backoff[];
extern const char *const compare_forwarding[];
/* reproduce's own options (cli/reproduce.c). */
extern const struct cli_opt_table reproduce_opts_table;
/* acvp's options (cli/acvp.c). */
extern const struct cli_opt_table acvp_opts_table;

int cli_trace_run(int argc, char **argv);
void cli_trace_help(FILE *out);
/* The option tables of kem, sig and ecdh (one each) and the options of each operation. */
extern const struct cli_opt_table kem_opts_table, sig_opts_table, ecdh_opts_table;
extern const char *const kem_keygen_opts[], *const kem_encaps_opts[], *const kem_decaps_opts[];
extern const char *const sig_keygen_opts[], *const sig_sign_opts[], *const sig_verify_opts[];
extern const char *const ecdh_keygen_opts[], *const ecdh_shared_opts[];

int cli_kem_run(int argc, char **argv);
void cli_kem_help(FILE *out);
int cli_ecdh_run(int argc, char **argv);
void cli_ecdh_help(FILE *out);
int cli_acvp_run(int argc, char **argv);
void cli_acvp_help(FILE *out);
int cli_sig_run(int argc, char **argv);
void cli_sig_help(FILE *out);
int cli_bench_run(int argc, char **argv);
void cli_bench_help(FILE *out);
int cmd_profiles_run(int argc, char **argv);
void cmd_profiles_help(FILE *out);
int cli_estimate_run(int argc, char **argv);
void cli_estimate_help(FILE *out);
int cli_reproduce_run(int argc, char **argv);
void cli_reproduce_help(FILE *out);
int cli_calibrate_run(int argc, char **argv);
void cli_calibrate_help(FILE *out);

int cli_simulate_run(int argc, char **argv);

/* A simulated exchange's outcome (its total SIM row) as simulate's exit status: EXIT_OK, or
 * EXIT_FAILURE_RUN after saying on stderr why it failed (the exchange is printed all the
 * same). */
int cli_simulate_outcome(const struct pqpan_run_sim_row *total);
/* A --link ble-mesh run's outcome (one of its MESH rows) as its exit status: EXIT_OK, or
 * for a simulated provisioning without equal keys EXIT_FAILURE_RUN after saying so on
 * stderr as `pqpan CMD` (the run is printed all the same); when no simulated run completed
 * (keys_equal "-": every one timed out) EXIT_OK after saying so. */
int cli_mesh_outcome(const char *cmd, const struct pqpan_run_mesh_row *row);
void cli_simulate_help(FILE *out);
int cli_compare_run(int argc, char **argv);
void cli_compare_help(FILE *out);
int cli_sweep_run(int argc, char **argv);
void cli_sweep_help(FILE *out);
int cli_idle_run(int argc, char **argv);
void cli_idle_help(FILE *out);
/* idle --link 802154's help section (cli/idle_802154.c), after idle's own. */
void cli_idle_802154_help(FILE *out);
int cli_advise_run(int argc, char **argv);
void cli_advise_help(FILE *out);

#endif
