/* Fuzz target for the PPK2 CSV parser, fed in chunks whose size the first input byte picks,
 * in strict and lenient mode, with every accepted row written back, re-parsed and run
 * through the analysis. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pqpan/trace.h"

static struct pqpan_trace_bin ws[PQPAN_TRACE_WORKSPACE_LEN(2)];

struct fuzz_ctx {
    struct pqpan_trace trace;
    int layout;
};

static int check_row(void *ctx, const struct pqpan_ppk2_sample *s)
{
    struct fuzz_ctx *f = ctx;
    struct pqpan_ppk2_parser again;
    char row[PQPAN_PPK2_LINE_MAX + 1];
    char header[PQPAN_PPK2_LINE_MAX + 1];
    size_t n, hn;
    if (s->current_ua > 999999999999999.0 || s->current_ua < -999999999999999.0) {
        return pqpan_trace_add(&f->trace, ws, s) == PQPAN_ERR_INVALID_ARG ? PQPAN_ERR_INVALID_ARG : 0;
    }
    if (pqpan_ppk2_write_header(header, sizeof header, f->layout, &hn) != 0 ||
        pqpan_ppk2_write_row(row, sizeof row, f->layout, s, &n) != 0) {
        abort();
    }
    pqpan_ppk2_parser_init(&again, 0);
    if (pqpan_ppk2_feed(&again, (const uint8_t *)header, hn, NULL, NULL) != 0 ||
        pqpan_ppk2_feed(&again, (const uint8_t *)row, n, NULL, NULL) != 0 || again.rows_read != 1) {
        abort();
    }
    return pqpan_trace_add(&f->trace, ws, s) == PQPAN_ERR_INVALID_ARG ? PQPAN_ERR_INVALID_ARG : 0;
}

/* Segments must be well formed: inside the trace, non-negative, in order per phase. */
static int check_segment(void *ctx, const struct pqpan_trace_segment *g)
{
    uint64_t *next_index = ctx;
    if (g->phase != 1 || g->duration_ns < 0 || g->samples == 0 || g->index != next_index[0]) {
        abort();
    }
    next_index[0]++;
    return 0;
}

static int layout_of(const uint8_t *data, size_t size)
{
    struct pqpan_ppk2_parser p;
    const uint8_t *nl = memchr(data, '\n', size);
    pqpan_ppk2_parser_init(&p, 0);
    if (nl == NULL || pqpan_ppk2_feed(&p, data, (size_t)(nl - data) + 1, NULL, NULL) != 0) {
        return 0;
    }
    return p.layout;
}

static void run(const uint8_t *data, size_t size, size_t step, unsigned flags)
{
    static struct fuzz_ctx f;
    struct pqpan_ppk2_parser p;
    struct pqpan_trace_config cfg;
    struct pqpan_trace_result r;
    uint64_t next_index = 0;
    size_t pos = 0;
    int rc = 0;
    memset(&cfg, 0, sizeof cfg);
    cfg.voltage_v = 3.0;
    cfg.baseline = PQPAN_TRACE_BASELINE_PERCENTILE;
    cfg.baseline_percentile = 5.0;
    cfg.n_phases = 1;
    memcpy(cfg.phases[0].name, "w", 2);
    cfg.phases[0].kind = PQPAN_TRACE_PHASE_WINDOW;
    cfg.phases[0].start_ns = 1000;
    cfg.phases[0].end_ns = 5000000;
    f.layout = layout_of(data, size);
    if (f.layout > PQPAN_PPK2_LAYOUT_CURRENT) {
        cfg.n_phases = 2;
        memcpy(cfg.phases[1].name, "d", 2);
        cfg.phases[1].kind = PQPAN_TRACE_PHASE_DIGITAL;
        cfg.phases[1].channel = PQPAN_PPK2_CH_CRYPTO;
    }
    if (pqpan_trace_init(&f.trace, &cfg, ws, sizeof ws / sizeof ws[0]) != 0) {
        abort();
    }
    pqpan_trace_on_segment(&f.trace, check_segment, &next_index);
    pqpan_ppk2_parser_init(&p, flags);
    while (pos < size && rc == 0) {
        size_t n = size - pos < step ? size - pos : step;
        rc = pqpan_ppk2_feed(&p, data + pos, n, check_row, &f);
        pos += n;
    }
    if (rc == 0) {
        rc = pqpan_ppk2_finish(&p, check_row, &f);
    }
    if (rc == PQPAN_ERR_INVALID_ARG || (rc != 0 && p.error_line == 0)) {
        abort();
    }
    if (pqpan_trace_end(&f.trace) != 0 || pqpan_trace_result(&f.trace, ws, &r) != 0 ||
        (cfg.n_phases == 2 && r.phase[1].segments != next_index)) {
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    size_t step;
    if (size == 0) {
        return 0;
    }
    step = (size_t)data[0] % 64u + 1u;
    run(data + 1, size - 1, step, 0);
    run(data + 1, size - 1, step, PQPAN_PPK2_LENIENT);
    return 0;
}
