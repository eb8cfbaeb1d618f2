/* Per-phase energy of a current trace: trapezoidal integral of I·V over time, phases from
 * digital channels or time windows, baseline subtraction, histogram quantiles in a
 * caller-given workspace (see include/pqpan/trace.h). */
#include <math.h>
#include <string.h>

#include "pqpan/trace.h"

#define NS_PER_MS 1e6
#define UJ_PER_UA_MS_V 1e-3 /* 1 uA · 1 ms · 1 V = 1 nJ = 1e-3 uJ */

static int phase_def_valid(const struct pqpan_trace_phase_def *d)
{
    if (memchr(d->name, '\0', sizeof d->name) == NULL || d->name[0] == '\0') {
        return 0;
    }
    if (d->kind == PQPAN_TRACE_PHASE_DIGITAL) {
        return d->channel < PQPAN_PPK2_CHANNELS;
    }
    return d->kind == PQPAN_TRACE_PHASE_WINDOW && d->start_ns < d->end_ns;
}

static int config_valid(const struct pqpan_trace_config *cfg)
{
    size_t i;
    if (!(cfg->voltage_v > 0.0 && cfg->voltage_v < 1e6) || cfg->n_phases > PQPAN_TRACE_MAX_PHASES) {
        return 0;
    }
    if (cfg->baseline == PQPAN_TRACE_BASELINE_FIXED && !(cfg->baseline_ua > -1e15 && cfg->baseline_ua < 1e15)) {
        return 0;
    }
    if (cfg->baseline == PQPAN_TRACE_BASELINE_PERCENTILE &&
        !(cfg->baseline_percentile > 0.0 && cfg->baseline_percentile < 100.0)) {
        return 0;
    }
    if (cfg->baseline > PQPAN_TRACE_BASELINE_PERCENTILE) {
        return 0;
    }
    for (i = 0; i < cfg->n_phases; i++) {
        if (!phase_def_valid(&cfg->phases[i])) {
            return 0;
        }
    }
    return 1;
}

int pqpan_trace_init(struct pqpan_trace *t, const struct pqpan_trace_config *cfg, struct pqpan_trace_bin *ws,
                     size_t ws_len)
{
    if (t == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(t, 0, sizeof *t);
    if (cfg == NULL || ws == NULL || !config_valid(cfg)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (ws_len < PQPAN_TRACE_WORKSPACE_LEN(cfg->n_phases)) {
        return PQPAN_ERR_CAPACITY;
    }
    memset(ws, 0, PQPAN_TRACE_WORKSPACE_LEN(cfg->n_phases) * sizeof ws[0]);
    t->cfg = *cfg;
    return PQPAN_OK;
}

/* Histogram index, ascending in current: bins 0..SIDE-1 negative (largest |I| first),
 * SIDE for |I| < floor, SIDE+1.. positive. */
static size_t hist_bin(double ua)
{
    double mag = ua < 0 ? -ua : ua;
    double k;
    size_t ki;
    if (!(mag >= PQPAN_TRACE_HIST_FLOOR_UA)) {
        return PQPAN_TRACE_HIST_SIDE;
    }
    k = log(mag / PQPAN_TRACE_HIST_FLOOR_UA) / log1p(PQPAN_TRACE_HIST_STEP);
    ki = k < (double)(PQPAN_TRACE_HIST_SIDE - 1) ? (size_t)k : (size_t)(PQPAN_TRACE_HIST_SIDE - 1);
    return ua < 0 ? PQPAN_TRACE_HIST_SIDE - 1 - ki : PQPAN_TRACE_HIST_SIDE + 1 + ki;
}

static int phase_active(const struct pqpan_trace_phase_def *d, const struct pqpan_ppk2_sample *s)
{
    if (d->kind == PQPAN_TRACE_PHASE_DIGITAL) {
        return s->digital[d->channel] == PQPAN_PPK2_DIG_HIGH;
    }
    return s->time_ns >= d->start_ns && s->time_ns < d->end_ns;
}

static void bin_add(struct pqpan_trace_bin *b, double ua)
{
    if (b->count == 0 || ua < b->min_ua) {
        b->min_ua = ua;
    }
    if (b->count == 0 || ua > b->max_ua) {
        b->max_ua = ua;
    }
    b->count++;
}

static void acc_sample(struct pqpan_trace_acc *a, struct pqpan_trace_bin *hist, size_t bin, double ua,
                       int active)
{
    if (active) {
        if (a->samples == 0 || ua < a->min_ua) {
            a->min_ua = ua;
        }
        if (a->samples == 0 || ua > a->max_ua) {
            a->max_ua = ua;
        }
        a->samples++;
        a->segments += (a->active == 0);
        bin_add(&hist[bin], ua);
    }
    a->active = (uint8_t)active;
}

static void acc_interval(struct pqpan_trace_acc *a, int64_t dt_ns, double mean_ua)
{
    a->duration_ns += dt_ns;
    a->charge_ua_ms += mean_ua * ((double)dt_ns / NS_PER_MS);
}

/* The part of the interval [prev, cur] inside [start, end), current linearly
 * interpolated at the cut points. */
static void window_interval(struct pqpan_trace_acc *a, const struct pqpan_trace_phase_def *d,
                            const struct pqpan_ppk2_sample *prev, const struct pqpan_ppk2_sample *cur)
{
    int64_t lo = prev->time_ns > d->start_ns ? prev->time_ns : d->start_ns;
    int64_t hi = cur->time_ns < d->end_ns ? cur->time_ns : d->end_ns;
    double span, slope, i_lo, i_hi;
    if (hi <= lo) {
        return;
    }
    span = (double)(cur->time_ns - prev->time_ns);
    slope = (cur->current_ua - prev->current_ua) / span;
    i_lo = prev->current_ua + slope * (double)(lo - prev->time_ns);
    i_hi = prev->current_ua + slope * (double)(hi - prev->time_ns);
    acc_interval(a, hi - lo, 0.5 * (i_lo + i_hi));
}

static void segment_sample(struct pqpan_trace_segment *g, double ua)
{
    if (g->samples == 0 || ua < g->min_ua) {
        g->min_ua = ua;
    }
    if (g->samples == 0 || ua > g->max_ua) {
        g->max_ua = ua;
    }
    g->samples++;
}

static void segment_open(struct pqpan_trace_segment *g, size_t phase, uint64_t index, int64_t start_ns)
{
    memset(g, 0, sizeof *g);
    g->phase = phase;
    g->index = index;
    g->start_ns = start_ns;
}

static void add_interval(struct pqpan_trace *t, const struct pqpan_ppk2_sample *cur)
{
    const struct pqpan_ppk2_sample *prev = &t->prev;
    int64_t dt = cur->time_ns - prev->time_ns;
    double mean = 0.5 * (prev->current_ua + cur->current_ua);
    size_t i;
    if (dt > 0 && (t->min_interval_ns == 0 || dt < t->min_interval_ns)) {
        t->min_interval_ns = dt;
    }
    if (dt > t->max_interval_ns) {
        t->max_interval_ns = dt;
    }
    acc_interval(&t->total, dt, mean);
    for (i = 0; i < t->cfg.n_phases; i++) {
        const struct pqpan_trace_phase_def *d = &t->cfg.phases[i];
        if (d->kind == PQPAN_TRACE_PHASE_WINDOW) {
            window_interval(&t->phase[i], d, prev, cur);
        } else if (t->phase[i].active) {
            acc_interval(&t->phase[i], dt, mean);
            t->seg[i].duration_ns += dt;
            t->seg[i].charge_ua_ms += mean * ((double)dt / NS_PER_MS);
        }
    }
}

static int needs_digital(const struct pqpan_trace_config *cfg)
{
    size_t i;
    for (i = 0; i < cfg->n_phases; i++) {
        if (cfg->phases[i].kind == PQPAN_TRACE_PHASE_DIGITAL) {
            return 1;
        }
    }
    return 0;
}

void pqpan_trace_on_segment(struct pqpan_trace *t, pqpan_trace_segment_fn fn, void *ctx)
{
    t->seg_fn = fn;
    t->seg_ctx = ctx;
}

static int segment_close(const struct pqpan_trace *t, size_t i)
{
    return t->seg_fn != NULL ? t->seg_fn(t->seg_ctx, &t->seg[i]) : PQPAN_OK;
}

/* Segment bookkeeping of DIGITAL phase i for the new sample s (after its interval). */
static int segment_step(struct pqpan_trace *t, size_t i, const struct pqpan_ppk2_sample *s, int now)
{
    int was = t->phase[i].active, ret = PQPAN_OK;
    if (was && !now) {
        ret = segment_close(t, i);
    } else if (now && !was) {
        segment_open(&t->seg[i], i, t->phase[i].segments, s->time_ns);
    }
    if (now) {
        segment_sample(&t->seg[i], s->current_ua);
    }
    return ret;
}

int pqpan_trace_add(struct pqpan_trace *t, struct pqpan_trace_bin *ws, const struct pqpan_ppk2_sample *s)
{
    size_t bin, i;
    int ret;
    if (t == NULL || ws == NULL || s == NULL || !(s->current_ua > -1e15 && s->current_ua < 1e15)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (t->ended) {
        return PQPAN_ERR_STATE;
    }
    if (s->time_ns < -PQPAN_PPK2_TIME_MAX_NS || s->time_ns > PQPAN_PPK2_TIME_MAX_NS ||
        (t->have_prev && s->time_ns < t->prev.time_ns)) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (s->channels == 0 && needs_digital(&t->cfg)) {
        return PQPAN_ERR_UNSUPPORTED;
    }
    if (t->have_prev) {
        add_interval(t, s);
    }
    bin = hist_bin(s->current_ua);
    acc_sample(&t->total, ws, bin, s->current_ua, 1);
    for (i = 0; i < t->cfg.n_phases; i++) {
        int now = phase_active(&t->cfg.phases[i], s);
        if (t->cfg.phases[i].kind == PQPAN_TRACE_PHASE_DIGITAL) {
            ret = segment_step(t, i, s, now);
            if (ret != PQPAN_OK) {
                return ret;
            }
        }
        acc_sample(&t->phase[i], ws + (i + 1) * PQPAN_TRACE_HIST_BINS, bin, s->current_ua, now);
    }
    t->prev = *s;
    t->have_prev = 1;
    return PQPAN_OK;
}

int pqpan_trace_end(struct pqpan_trace *t)
{
    size_t i;
    int ret;
    if (t == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (t->ended) {
        return PQPAN_ERR_STATE;
    }
    t->ended = 1;
    for (i = 0; i < t->cfg.n_phases; i++) {
        if (t->cfg.phases[i].kind == PQPAN_TRACE_PHASE_DIGITAL && t->phase[i].active) {
            ret = segment_close(t, i);
            if (ret != PQPAN_OK) {
                return ret;
            }
        }
    }
    return PQPAN_OK;
}

double pqpan_trace_energy_uj(double charge_ua_ms, double duration_ms, double baseline_ua,
                             double voltage_v)
{
    return (charge_ua_ms - baseline_ua * duration_ms) * voltage_v * UJ_PER_UA_MS_V;
}

/* Nearest-rank quantile q (percent) of the samples counted in hist: the midpoint of the
 * exact min and max of the bin that holds it. */
static double quantile(const struct pqpan_trace_acc *a, const struct pqpan_trace_bin *hist, double q)
{
    double rank_d = ceil(q / 100.0 * (double)a->samples);
    uint64_t rank = rank_d < 1.0 ? 1u : (uint64_t)rank_d;
    uint64_t seen = 0;
    size_t bin;
    double v = a->max_ua;
    for (bin = 0; bin < PQPAN_TRACE_HIST_BINS; bin++) {
        seen += hist[bin].count;
        if (seen >= rank) {
            v = 0.5 * (hist[bin].min_ua + hist[bin].max_ua);
            break;
        }
    }
    return v;
}

static void fill_stats(struct pqpan_trace_stats *st, const struct pqpan_trace_acc *a,
                       const struct pqpan_trace_bin *hist, double baseline, double volts)
{
    st->samples = a->samples;
    st->segments = a->segments;
    st->duration_ms = (double)a->duration_ns / NS_PER_MS;
    st->energy_uj = pqpan_trace_energy_uj(a->charge_ua_ms, st->duration_ms, baseline, volts);
    if (a->duration_ns > 0) {
        st->avg_current_ua = a->charge_ua_ms / st->duration_ms - baseline;
    }
    if (a->samples > 0) {
        st->min_ua = a->min_ua - baseline;
        st->max_ua = a->max_ua - baseline;
        st->median_ua = quantile(a, hist, 50.0) - baseline;
        st->p99_ua = quantile(a, hist, 99.0) - baseline;
    }
}

int pqpan_trace_result(const struct pqpan_trace *t, const struct pqpan_trace_bin *ws,
                       struct pqpan_trace_result *out)
{
    double baseline = 0.0;
    size_t i;
    if (out == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    memset(out, 0, sizeof *out);
    if (t == NULL || ws == NULL) {
        return PQPAN_ERR_INVALID_ARG;
    }
    if (t->cfg.baseline == PQPAN_TRACE_BASELINE_FIXED) {
        baseline = t->cfg.baseline_ua;
    } else if (t->cfg.baseline == PQPAN_TRACE_BASELINE_PERCENTILE && t->total.samples > 0) {
        baseline = quantile(&t->total, ws, t->cfg.baseline_percentile);
    }
    out->baseline_ua = baseline;
    out->voltage_v = t->cfg.voltage_v;
    out->min_interval_ms = (double)t->min_interval_ns / NS_PER_MS;
    out->max_interval_ms = (double)t->max_interval_ns / NS_PER_MS;
    memcpy(out->total.name, "total", sizeof "total");
    fill_stats(&out->total, &t->total, ws, baseline, t->cfg.voltage_v);
    out->n_phases = t->cfg.n_phases;
    for (i = 0; i < t->cfg.n_phases; i++) {
        memcpy(out->phase[i].name, t->cfg.phases[i].name, PQPAN_TRACE_NAME_MAX);
        fill_stats(&out->phase[i], &t->phase[i], ws + (i + 1) * PQPAN_TRACE_HIST_BINS, baseline,
                   t->cfg.voltage_v);
    }
    return PQPAN_OK;
}
