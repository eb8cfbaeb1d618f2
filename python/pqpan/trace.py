"""Power Profiler Kit II captures (CSV exports of nRF Connect Power Profiler), analysed by the
library as `pqpan trace` does (cli/trace.c): the file streamed through pqpan_ppk2_feed in
64 KiB chunks into pqpan_trace_add, so memory does not grow with the file; energy, duration
and current statistics for the whole trace and per phase (digital channels or time
windows), optionally every segment of a channel phase."""
from . import defaults as _d
from ._lib import DataError, FileError, UsageError, cstr, ffi, lib, macro

_CHUNK = 64 * 1024
_STAT_FIELDS = (("samples", "samples"), ("segments", "segments"),
                ("duration_ms", "duration_ms"), ("energy_uj", "energy_uj"),
                ("avg_current_ua", "avg_current_ua"), ("min_current_ua", "min_ua"),
                ("median_current_ua", "median_ua"), ("p99_current_ua", "p99_ua"),
                ("max_current_ua", "max_ua"))


def _phase(cfg, name):
    raw = name.encode() if isinstance(name, str) else b""
    if not raw or len(raw) >= macro("PQPAN_TRACE_NAME_MAX") or b"\0" in raw:
        raise UsageError("bad phase name %r (1..%d characters)"
                         % (name, macro("PQPAN_TRACE_NAME_MAX") - 1))
    for i in range(cfg.n_phases):
        if ffi.string(cfg.phases[i].name) == raw:
            raise UsageError("phase '%s' given twice" % name)
    if cfg.n_phases == macro("PQPAN_TRACE_MAX_PHASES"):
        raise UsageError("at most %d phases" % macro("PQPAN_TRACE_MAX_PHASES"))
    d = cfg.phases[cfg.n_phases]
    cfg.n_phases += 1
    d.name = raw
    return d


def _config(voltage, phases, windows, baseline_ua, baseline_percentile):
    cfg = ffi.new("struct pqpan_trace_config *")
    if isinstance(voltage, bool) or not isinstance(voltage, (int, float)) or \
            not 1e-3 <= voltage <= 1000.0:
        raise UsageError("bad voltage %r (volts, 0.001..1000)" % (voltage,))
    cfg.voltage_v = voltage
    for channel, name in (phases or {}).items():
        if channel not in range(8) or isinstance(channel, bool):
            raise UsageError("bad phase channel %r (want 0..7: D0..D7)" % (channel,))
        d = _phase(cfg, name)
        d.kind = lib.PQPAN_TRACE_PHASE_DIGITAL
        d.channel = channel
    limit = macro("PQPAN_PPK2_TIME_MAX_MS")
    for name, (start_ms, end_ms) in (windows or {}).items():
        if not -limit <= start_ms < end_ms <= limit:
            raise UsageError("bad window %s=%r:%r (START and END in ms, START < END)"
                             % (name, start_ms, end_ms))
        d = _phase(cfg, name)
        d.kind = lib.PQPAN_TRACE_PHASE_WINDOW
        d.start_ns = round(start_ms * 1e6)
        d.end_ns = round(end_ms * 1e6)
    if baseline_ua == "auto":
        if not 0.0 < baseline_percentile < 100.0:
            raise UsageError("bad baseline_percentile %r (0 < P < 100)" % (baseline_percentile,))
        cfg.baseline = lib.PQPAN_TRACE_BASELINE_PERCENTILE
        cfg.baseline_percentile = baseline_percentile
    elif baseline_ua is not None:
        if isinstance(baseline_ua, bool) or not isinstance(baseline_ua, (int, float)) or \
                not -1e9 <= baseline_ua <= 1e9:
            raise UsageError("bad baseline_ua %r (want microamps or 'auto')" % (baseline_ua,))
        cfg.baseline = lib.PQPAN_TRACE_BASELINE_FIXED
        cfg.baseline_ua = baseline_ua
    return cfg


def _stats(s):
    out = {"phase": cstr(s.name)}
    out.update((key, getattr(s, member)) for key, member in _STAT_FIELDS)
    return out


def _parse_error(path, parser, rc):
    if parser.error == lib.PQPAN_PPK2_E_CALLBACK and rc == lib.PQPAN_ERR_UNSUPPORTED:
        return DataError("%s:%d: --phases needs digital channels but the file has none"
                         % (path, parser.error_line), code=rc)
    text = (cstr(lib.pqpan_strerror(rc)) if parser.error == lib.PQPAN_PPK2_E_CALLBACK
            else cstr(lib.pqpan_ppk2_error_text(parser.error)))
    return DataError("%s:%d: %s" % (path, parser.error_line, text), code=rc)


def _segment_row(g, name, base, volts):
    duration_ms = g.duration_ns / 1e6
    return {"phase": name, "index": g.index, "samples": g.samples,
            "start_ms": g.start_ns / 1e6, "duration_ms": duration_ms,
            "energy_uj": lib.pqpan_trace_energy_uj(g.charge_ua_ms, duration_ms, base, volts),
            "avg_current_ua": g.charge_ua_ms / duration_ms - base if g.duration_ns > 0 else 0.0,
            "min_current_ua": g.min_ua - base, "max_current_ua": g.max_ua - base}


def analyse(path, voltage=_d.number("TRACE_VOLTAGE"), phases=None, windows=None,
            baseline_ua=None, baseline_percentile=_d.number("BASELINE_PERCENTILE"),
            segments=False, lenient=False):
    """The statistics of one capture (see pqpan.trace)."""
    cfg = _config(voltage, phases, windows, baseline_ua, baseline_percentile)
    t = ffi.new("struct pqpan_trace *")
    n_bins = macro("PQPAN_TRACE_HIST_BINS") * (cfg.n_phases + 1)
    ws = ffi.new("struct pqpan_trace_bin[]", n_bins)
    if lib.pqpan_trace_init(t, cfg, ws, n_bins) != lib.PQPAN_OK:
        raise UsageError("invalid phase or baseline settings")
    raw_segments = []

    @ffi.callback("int(void *, const struct pqpan_trace_segment *)")
    def on_segment(_ctx, g):
        raw_segments.append(ffi.new("struct pqpan_trace_segment *", g[0]))
        return lib.PQPAN_OK

    @ffi.callback("int(void *, const struct pqpan_ppk2_sample *)")
    def on_sample(_ctx, s):
        return lib.pqpan_trace_add(t, ws, s)

    if segments:
        lib.pqpan_trace_on_segment(t, on_segment, ffi.NULL)
    parser = ffi.new("struct pqpan_ppk2_parser *")
    lib.pqpan_ppk2_parser_init(parser, macro("PQPAN_PPK2_LENIENT") if lenient else 0)
    try:
        f = open(path, "rb")
    except OSError as exc:
        raise FileError("%s: %s" % (path, exc.strerror or exc)) from None
    with f:
        while True:
            try:
                chunk = f.read(_CHUNK)
            except OSError as exc:
                raise FileError("%s: read error: %s" % (path, exc.strerror or exc)) from None
            if not chunk:
                break
            rc = lib.pqpan_ppk2_feed(parser, chunk, len(chunk), on_sample, ffi.NULL)
            if rc != lib.PQPAN_OK:
                raise _parse_error(path, parser, rc)
    rc = lib.pqpan_ppk2_finish(parser, on_sample, ffi.NULL)
    if rc != lib.PQPAN_OK:
        raise _parse_error(path, parser, rc)
    if lib.pqpan_trace_end(t) != lib.PQPAN_OK:
        raise DataError("%s: the analysis could not end" % path, code=lib.PQPAN_ERR_STATE)
    r = ffi.new("struct pqpan_trace_result *")
    if lib.pqpan_trace_result(t, ws, r) != lib.PQPAN_OK:
        raise DataError("%s: internal error computing the result" % path,
                        code=lib.PQPAN_ERR_STATE)
    out = {"rows_read": parser.rows_read, "rows_skipped": parser.rows_skipped,
           "voltage_v": r.voltage_v, "baseline_ua": r.baseline_ua,
           "baseline_source": ("none", "fixed", "auto")[cfg.baseline],
           "min_interval_ms": r.min_interval_ms, "max_interval_ms": r.max_interval_ms,
           "quantile_rel_error": macro("PQPAN_TRACE_QUANTILE_REL_ERROR"),
           "quantile_abs_error_ua": macro("PQPAN_TRACE_HIST_FLOOR_UA"),
           "total": _stats(r.total),
           "phases": [_stats(r.phase[i]) for i in range(r.n_phases)]}
    if parser.rows_skipped:
        out["first_skipped"] = {"line": parser.first_skip_line,
                                "problem": cstr(lib.pqpan_ppk2_error_text(
                                    parser.first_skip_error))}
    if segments:
        out["segments"] = [_segment_row(g, cstr(cfg.phases[g.phase].name), r.baseline_ua,
                                        r.voltage_v) for g in raw_segments]
    return out
