/* Fuzzes `pqpan advise`'s option handling on the run layer (src/run/run_advise.c
 * advise_request_parse over run_advise_opts.c's tables): the input, split at newlines, is
 * an argument list, made a request as the CLI makes one (a line after an option that does
 * not start with "--" is its value). Any input must give PQPAN_OK with options the search
 * can run (checked here), or an error. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/run.h"
#include "run_advise.h"
#include "run_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_ARGS 32

static char text[4096];
static struct run_ctx ctx;

/* The options of a successful parse, as the search needs them. */
static int opts_ok(const struct advise_opts *o)
{
    return (o->min_level == 1 || o->min_level == 3 || o->min_level == 5) &&
           o->max_latency_ms >= 0.0 && o->battery_mah > 0.0 && o->rekey_s >= 1.0 &&
           o->rekey_s <= 3650.0 * 86400.0 && (o->peer_phys & (1u << o->idle.phy)) &&
           o->peer_phys < (1u << PQPAN_BLE_PHY_COUNT) && o->idle_ll_octets <= o->peer_max_ll &&
           o->idle.ci_ns >= 7500000u && o->idle.ci_ns <= 4000000000u &&
           o->idle.ci_ns % 1250000u == 0u && o->top >= 1u && o->top <= PQPAN_ADVISE_TOP_MAX &&
           ((uint64_t)o->idle.latency + 1u) * o->idle.ci_ns < PQPAN_BLE_IDLE_PERIOD_MAX_NS &&
           o->m.format != FORMAT_CSV;
}

/* argv[1..argc) as a request (an option, then its value unless the next line is an
 * option), parsed by the run layer into *o. */
static int parse(char **argv, int argc, struct advise_opts *o)
{
    struct pqpan_run_opt req[MAX_ARGS];
    struct pqpan_run_error err;
    size_t n = 0;
    int i;
    for (i = 1; i < argc; i++) {
        req[n].name = argv[i];
        req[n].value = i + 1 < argc && strncmp(argv[i + 1], "--", 2) != 0 ? argv[++i] : NULL;
        n++;
    }
    memset(&ctx, 0, sizeof ctx);
    ctx.err = &err;
    return advise_request_parse(&ctx, o, req, n);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int quiet;
    char *argv[MAX_ARGS + 1];
    struct advise_opts o;
    int argc = 1;
    size_t i;
    if (!quiet) {
        quiet = freopen("/dev/null", "w", stderr) != NULL;
    }
    if (size >= sizeof text) {
        return 0;
    }
    memcpy(text, data, size);
    text[size] = '\0';
    argv[0] = "advise";
    argv[argc++] = text;
    for (i = 0; i < size && argc < MAX_ARGS; i++) {
        if (text[i] == '\n') {
            text[i] = '\0';
            argv[argc++] = &text[i + 1];
        }
    }
    argv[argc] = NULL;
    if (parse(argv, argc, &o) == PQPAN_OK && !opts_ok(&o)) {
        abort();
    }
    return 0;
}
