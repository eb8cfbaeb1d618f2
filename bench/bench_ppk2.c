/* Throughput of the PPK2 CSV parser alone and with the per-phase analysis, on 2 M rows
 * (100 kS/s, D0-D7) written by pqpan_ppk2_write_row into memory and fed in 64 KiB chunks. */
#define _POSIX_C_SOURCE 199309L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pqpan/trace.h"

#define ROWS 2000000u
#define CHUNK 65536u

static struct pqpan_trace_bin ws[PQPAN_TRACE_WORKSPACE_LEN(2)];

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static char *make_trace(size_t *len)
{
    size_t cap = (size_t)ROWS * 40u + 64u, n;
    char *buf = malloc(cap);
    struct pqpan_ppk2_sample s;
    unsigned i;
    if (buf == NULL || pqpan_ppk2_write_header(buf, cap, PQPAN_PPK2_LAYOUT_PACKED, len) != 0) {
        return NULL;
    }
    memset(&s, 0, sizeof s);
    for (i = 0; i < ROWS; i++) {
        s.time_ns = (int64_t)i * PQPAN_PPK2_SAMPLE_PERIOD_NS;
        s.current_ua = (i % 1000u) < 100u ? 5123.456 : 3.125 + (double)(i % 7u);
        s.digital[PQPAN_PPK2_CH_CRYPTO] = (i % 1000u) < 100u;
        s.digital[PQPAN_PPK2_CH_RADIO] = (i % 1000u) >= 500u && (i % 1000u) < 600u;
        if (pqpan_ppk2_write_row(buf + *len, cap - *len, PQPAN_PPK2_LAYOUT_PACKED, &s, &n) != 0) {
            free(buf);
            return NULL;
        }
        *len += n;
    }
    return buf;
}

static int add_sample(void *ctx, const struct pqpan_ppk2_sample *s)
{
    return pqpan_trace_add(ctx, ws, s);
}

/* Parses buf once; with analysis when t != NULL. Returns seconds, or -1 on error. */
static double run(const char *buf, size_t len, struct pqpan_trace *t)
{
    struct pqpan_ppk2_parser p;
    double t0 = now_s();
    size_t pos;
    pqpan_ppk2_parser_init(&p, 0);
    for (pos = 0; pos < len; pos += CHUNK) {
        size_t n = len - pos < CHUNK ? len - pos : CHUNK;
        if (pqpan_ppk2_feed(&p, (const uint8_t *)buf + pos, n, t != NULL ? add_sample : NULL, t) != 0) {
            return -1.0;
        }
    }
    if (pqpan_ppk2_finish(&p, t != NULL ? add_sample : NULL, t) != 0 || p.rows_read != ROWS) {
        return -1.0;
    }
    return now_s() - t0;
}

int main(void)
{
    static struct pqpan_trace t;
    struct pqpan_trace_config cfg;
    size_t len = 0;
    char *buf = make_trace(&len);
    double parse_s, analyse_s;
    if (buf == NULL) {
        fprintf(stderr, "bench_ppk2: could not build the trace\n");
        return 1;
    }
    memset(&cfg, 0, sizeof cfg);
    cfg.voltage_v = 3.0;
    cfg.n_phases = 2;
    strcpy(cfg.phases[0].name, "crypto");
    cfg.phases[0].kind = PQPAN_TRACE_PHASE_DIGITAL;
    cfg.phases[0].channel = PQPAN_PPK2_CH_CRYPTO;
    strcpy(cfg.phases[1].name, "radio");
    cfg.phases[1].kind = PQPAN_TRACE_PHASE_DIGITAL;
    cfg.phases[1].channel = PQPAN_PPK2_CH_RADIO;
    parse_s = run(buf, len, NULL);
    if (pqpan_trace_init(&t, &cfg, ws, sizeof ws / sizeof ws[0]) != 0) {
        free(buf);
        return 1;
    }
    analyse_s = run(buf, len, &t);
    free(buf);
    if (parse_s <= 0.0 || analyse_s <= 0.0) {
        fprintf(stderr, "bench_ppk2: parse failed\n");
        return 1;
    }
    printf("ppk2 parse            %u rows, %.1f MB: %.2f M rows/s, %.0f MB/s\n", ROWS,
           (double)len / 1e6, ROWS / parse_s / 1e6, (double)len / parse_s / 1e6);
    printf("ppk2 parse + analysis (2 digital phases): %.2f M rows/s\n", ROWS / analyse_s / 1e6);
    return 0;
}
