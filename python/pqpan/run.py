"""The run layer through cffi: pqpan_run (include/pqpan/run.h), the engine the CLI's
`estimate` runs on. A command and its options in (keyword arguments, named as the CLI's
options with '_' for '-': att_mtu=247 is --att-mtu 247; a flag takes True / False or
"on" / "off"), rows out: the sides as dicts of the link's field table (units in
"units"), the notes the CLI prints before them, its JSON members as a dict, warnings.
Errors name the keyword argument, not the CLI option (docs/RUN.md)."""
import json
import re

from ._lib import DataError, FileError, PqpanError, UsageError, ffi, iolib as _io

_VALUE = {_io.PQPAN_RUN_TEXT: lambda v: _text(v.text),
          _io.PQPAN_RUN_INT: lambda v: int(v.i),
          _io.PQPAN_RUN_COUNT: lambda v: int(v.u),
          _io.PQPAN_RUN_REAL: lambda v: float(v.x)}


# The records a run gives as a list of dicts, under these keys.
_LISTS = {_io.PQPAN_RUN_RECORD_PHASE: "phases", _io.PQPAN_RUN_RECORD_NODE: "nodes",
          _io.PQPAN_RUN_RECORD_FIT: "fits", _io.PQPAN_RUN_RECORD_RESIDUAL: "points",
          _io.PQPAN_RUN_RECORD_CALIBRATE_TRACE: "traces",
          _io.PQPAN_RUN_RECORD_CELL: "rows", _io.PQPAN_RUN_RECORD_MESH_CELL: "rows",
          _io.PQPAN_RUN_RECORD_HEADLINE: "headline",
          _io.PQPAN_RUN_RECORD_MODE: "modes", _io.PQPAN_RUN_RECORD_BUILD: "builds",
          _io.PQPAN_RUN_RECORD_MESH_CHOICE: "choices",
          _io.PQPAN_RUN_RECORD_MESH_BEST: "best_per_bearer"}
# The records whose rows are items of a list of the CLI's JSON that its MEMBERS row leaves
# out (advise --link ble-mesh's "choices" and "best_per_bearer"): run() gives them in
# "listed" too, as the CLI's JSON items.
_LISTED = (_io.PQPAN_RUN_RECORD_MESH_CHOICE, _io.PQPAN_RUN_RECORD_MESH_BEST)


def _text(ptr):
    return None if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")


def option_name(keyword):
    """The CLI option of a keyword argument: att_mtu -> --att-mtu."""
    return "--" + keyword.replace("_", "-")


def keyword_name(option):
    """The keyword argument of a CLI option: --att-mtu -> att_mtu."""
    return option[2:].replace("-", "_")


def _value_text(value):
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def _side(row, every=False):
    """A row as a dict of the fields its command shows (row.groups: a SIDE row, as the CLI's
    JSON), or of every field (an IDLE or PHASE row, whose tables have no groups)."""
    side, units = {}, {}
    for k in range(row.n_fields):
        f, v = row.fields[k], row.values[k]
        if not every and not _io.pqpan_run_field_shown(row.fields + k, row.groups):
            continue
        name = ffi.string(f.name).decode()
        side[name] = _VALUE[v.type](v) if v.known else None
        units[name] = _text(f.unit)
    return side, units


def _json_item(row):
    """A row as an item of the CLI's JSON list: the fields of its groups, each number to its
    field's decimals as the CLI prints it."""
    item = {}
    for k in range(row.n_fields):
        f, v = row.fields[k], row.values[k]
        if not _io.pqpan_run_field_shown(row.fields + k, row.groups):
            continue
        value = _VALUE[v.type](v) if v.known else None
        if v.type == _io.PQPAN_RUN_REAL and value is not None:
            value = round(value, f.decimals)
        item[ffi.string(f.name).decode()] = value
    return item


def _fields(row):
    return [row.fields[k] for k in range(row.n_fields)]


def _keywords(text):
    """text with every CLI option named as its keyword argument (--att-mtu: att_mtu)."""
    return re.sub(r"--([a-z0-9][a-z0-9-]*)", lambda m: keyword_name(m.group(0)), text)


def cli_argv(command, **options):
    """The `pqpan` command line of the same request as run(command, **options): what the
    grid tests (and the web page's) run the CLI with. A flag is a bool (or None: given):
    given when True, left out when False; any other value follows its option (a list: the
    option once per item)."""
    argv = [command]
    for key, value in _pairs(options):
        if value is None or isinstance(value, bool):
            argv += [option_name(key)] if value is not False else []
        else:
            argv += [option_name(key), _value_text(value)]
    return argv


def _pairs(options):
    """(keyword, value) per option given: a list or tuple value is a repeatable option given
    once per item (gamma_comp=["kem_keygen=1.1", "kdf=1.2"] is --gamma-comp twice)."""
    return [(key, item) for key, value in options.items()
            for item in (value if isinstance(value, (list, tuple)) else (value,))]


def _error(err, rc):
    """The exception of a refused run: its message names keyword arguments; cli_message is
    the CLI's text (options as --names), what a sweep's status column holds."""
    cli_message = ffi.string(err.message).decode("utf-8", "replace")
    message = _keywords(cli_message)
    exit_code = _io.pqpan_run_exit_status(rc)
    if exit_code == 2:
        exc = UsageError(message, rc)
    elif exit_code == 3:
        exc = DataError(message, rc)
    elif exit_code == 4:
        exc = FileError(message)
    else:
        exc = PqpanError(rc, message, exit_code)
    exc.cli_message = cli_message
    return exc


def run(command, _raw=(), **options):
    """Runs command ("estimate", "idle", "simulate", "sweep", "profiles", "advise",
    "calibrate", "compare", "reproduce", "trace") with options through pqpan_run (a list value: a
    repeatable option given once per item). Returns {"sides":
    [dict per side], "units": {field: unit}, "notes": [line], "assumptions": {JSON member:
    value}, "warnings": [text]}; idle's adds "idle" (the side's figures, or on 802.15.4 the
    poll period's), "own" (those of them its JSON prints as members of their own) and
    "phases" (dict per state of the period) and, with exchange_uj, "battery" (the battery
    figures: the CLI's JSON "battery" object), an 802.15.4 estimate with hops above 1 "nodes"
    (dict per node of the chain); profiles' adds "profiles" (dict per profile, its
    "figures": the sources of the listed ones, or with show every figure); simulate's
    "simulation" (one dict per side: packets, retransmissions, latency, result, succeeded),
    with link="802154" "summary" (the runs' settings and failures) and "metrics" (one dict
    per statistic or count: metric, unit, per_run, mean, p50, p90, p99); with
    link="ble-mesh" (estimate, simulate) "sides" are the provisioning's (provisioner, device,
    total: the members of the CLI's JSON "sides"); advise's
    "assumptions" is its whole JSON output and "choices" its recommendations (dict per rank,
    typed); with link="ble-mesh" "assumptions" is its JSON's heading, "choices" and
    "best_per_bearer" the configurations (dict each, typed, the table's "settings" too) and
    "listed" those two lists as the CLI's JSON prints them; calibrate's "assumptions" is its whole JSON output, "fits" (dict per fitted
    gamma), "points" (dict per data point: the CSV's columns) and "traces" (dict per trace)
    its typed rows;
    compare's "rows" (dict per ML-KEM level and link; with mesh, per level, network and
    hop count); reproduce's "rows" (the
    matrix: dict per reading, configuration and side), "headline", "modes" and "builds"
    (dict per figure, per mode and side, per build and side); units in "units";
    trace's (_raw: the pair ("FILE", path)) "trace" (the capture's figures: the CLI's JSON
    members), "trace_phases" (the whole trace, then each phase) and with segments
    "segments". Raises UsageError (a bad keyword or value, named as the keyword),
    DataError or FileError as the CLI exits 2, 3 or 4."""
    pairs = list(_raw) + [(option_name(k), v) for k, v in _pairs(options)]
    names = [ffi.new("char[]", k.encode()) for k, _ in pairs]
    values = [ffi.NULL if v is None else ffi.new("char[]", _value_text(v).encode())
              for _, v in pairs]
    req = ffi.new("struct pqpan_run_opt[]", max(len(names), 1))
    for i, (n, v) in enumerate(zip(names, values)):
        req[i].name, req[i].value = n, v
    out = {"sides": [], "units": {}, "notes": [], "assumptions": {}, "warnings": []}

    @ffi.callback("int(void *, const struct pqpan_run_row *)")
    def emit(_ctx, row):
        text = _text(row.values[0].text) if row.n_fields else None
        if row.record == _io.PQPAN_RUN_RECORD_SIDE:
            side, out["units"] = _side(row)
            out["sides"].append(side)
        elif row.record == _io.PQPAN_RUN_RECORD_MATRIX:
            side, units = _side(row)
            out.setdefault("rows", []).append(side)
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_NOTE:
            out["notes"].append(text)
        elif row.record == _io.PQPAN_RUN_RECORD_MEMBERS:
            out["assumptions"] = json.loads("{" + text.rstrip().rstrip(",") + "}")
        elif row.record == _io.PQPAN_RUN_RECORD_IDLE:
            out["idle"], units = _side(row, every=True)
            out["own"] = {k: v for (k, v), f in zip(out["idle"].items(), _fields(row))
                          if f.group & _io.PQPAN_RUN_GROUP_JSON}
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_BATTERY:
            battery, units = _side(row, every=True)
            out["battery"] = {k: v for (k, v), f in zip(battery.items(), _fields(row))
                              if f.group & _io.PQPAN_RUN_GROUP_JSON}
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_TRACE:
            trace, units = _side(row, every=True)
            out["trace"] = trace
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_TRACE_PHASE:
            out.setdefault("trace_phases", []).append(_side(row, every=True)[0])
        elif row.record == _io.PQPAN_RUN_RECORD_SEGMENT:
            out.setdefault("segments", []).append(_side(row, every=True)[0])
        elif row.record == _io.PQPAN_RUN_RECORD_CHOICE:
            choice, units = _side(row, every=True)
            out.setdefault("choices", []).append(choice)
            out["units"].update(units)
        elif row.record in _LISTS:
            if row.record in _LISTED:
                key = ffi.string(_io.pqpan_run_record_key(row.record)).decode()
                out.setdefault("listed", {}).setdefault(key, []).append(_json_item(row))
            item, units = _side(row, every=True)
            out.setdefault(_LISTS[row.record], []).append(item)
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_PROFILE:
            profile, units = _side(row, every=True)
            profile["figures"] = []
            out.setdefault("profiles", []).append(profile)
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_FIGURE:
            out["profiles"][-1]["figures"].append(_side(row, every=True)[0])
        elif row.record == _io.PQPAN_RUN_RECORD_SIM:
            sim, units = _side(row, every=True)
            out.setdefault("simulation", []).append(sim)
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_SIM154:
            out["summary"], units = _side(row, every=True)
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_METRIC:
            out.setdefault("metrics", []).append(_side(row, every=True)[0])
        elif row.record == _io.PQPAN_RUN_RECORD_MESH:
            side, units = _side(row)
            out["sides"].append(side)
            out["units"].update(units)
        elif row.record == _io.PQPAN_RUN_RECORD_PROGRESS:
            pass
        else:
            out["warnings"].append(_keywords(text))
        return 0

    err = ffi.new("struct pqpan_run_error *")
    rc = _io.pqpan_run(command.encode(), req, len(names), emit, ffi.NULL, err)
    if rc != 0:
        raise _error(err, rc)
    return out


# The sides of a sweep's configuration on each link (model_side_name): an invalid
# configuration's SIDE rows have no "side" value to read them from.
_SIDE_NAMES = {_io.PQPAN_RUN_LINK_BLE: ("peripheral", "central", "total"),
               _io.PQPAN_RUN_LINK_802154: ("initiator", "responder", "total")}
# A MESH row's sides (BLE Mesh provisioning, sweep --link ble-mesh).
_MESH_SIDE_NAMES = ("provisioner", "device", "total")


def _list_text(value):
    """A sweep option's LIST: a list, tuple or range joined with commas, else one value."""
    if isinstance(value, (list, tuple, range)):
        if len(value) == 0:
            raise UsageError("an empty list")
        return ",".join(_value_text(v) for v in value)
    return _value_text(value)


class _SweepRows:
    """pqpan_run "sweep"'s rows as the CLI writes them: one dict per configuration (the
    CONFIG row's fields, the configuration's fields from its first side, then each side's
    result fields as <side>_<field> (SIDE rows, or with link="ble-mesh" MESH rows), then the SWEEP_EXTRA row's: the chain's and the Monte
    Carlo's), the columns in the CLI's order, and their units."""

    def __init__(self):
        self.rows, self.units = [], {}
        self._row, self._side, self._shown = None, 0, None

    @property
    def columns(self):
        return list(self.rows[0]) if self.rows else []

    def config(self, row):
        self._row = {}
        for k in range(row.n_fields):
            v, name = row.values[k], ffi.string(row.fields[k].name).decode()
            self._row[name] = _VALUE[v.type](v)
            if not self.rows:
                self.units[name] = _text(row.fields[k].unit)
        self._side = 0
        self.rows.append(self._row)

    def _columns_of(self, row):
        """(index, name) of the configuration's fields and of each side's, once per sweep."""
        config, side = [], []
        for k in range(row.n_fields):
            f = row.fields + k
            name = ffi.string(f.name).decode()
            if _io.pqpan_run_field_shown(f, _io.PQPAN_RUN_GROUP_CONFIG) and name != "side":
                config.append((k, name))
            elif _io.pqpan_run_field_shown(f, row.groups & ~_io.PQPAN_RUN_GROUP_CONFIG):
                side.append((k, name))
            self.units[name] = _text(f.unit)
        return config, side

    def side(self, row):
        if self._shown is None:
            self._shown = self._columns_of(row)
        config, side = self._shown
        names = _MESH_SIDE_NAMES if row.record == _io.PQPAN_RUN_RECORD_MESH else _SIDE_NAMES[row.link]
        if self._side == 0:
            self._put(row, config, "")
        self._put(row, side, names[self._side] + "_")
        self._side += 1

    def extra(self, row):
        for k in range(row.n_fields):
            v, name = row.values[k], ffi.string(row.fields[k].name).decode()
            self._row[name] = _VALUE[v.type](v) if v.known else None
            self.units[name] = _text(row.fields[k].unit)

    def _put(self, row, fields, prefix):
        for k, name in fields:
            v = row.values[k]
            self._row[prefix + name] = _VALUE[v.type](v) if v.known else None
            if prefix:
                self.units[prefix + name] = self.units[name]


def sweep(pairs):
    """pqpan_run "sweep" of pairs, (keyword, value) in request order (a keyword may repeat,
    as --gamma-comp does), each value a LIST: a list, tuple or range of values, or one
    value; a flag True / False. Returns (rows, columns, units): one dict per configuration
    with the columns of `pqpan sweep --format csv` in its order (config, configs, status,
    in_<option>, the configuration's fields, <side>_<field>), the units of the result
    columns. Raises as run() does."""
    request = []
    for key, value in pairs:
        if value is None or value is False:
            continue
        request.append((option_name(key), None if value is True else _list_text(value)))
    names = [ffi.new("char[]", n.encode()) for n, _ in request]
    values = [ffi.NULL if v is None else ffi.new("char[]", v.encode()) for _, v in request]
    req = ffi.new("struct pqpan_run_opt[]", max(len(names), 1))
    for i, (n, v) in enumerate(zip(names, values)):
        req[i].name, req[i].value = n, v
    out = _SweepRows()

    @ffi.callback("int(void *, const struct pqpan_run_row *)")
    def emit(_ctx, row):
        if row.record == _io.PQPAN_RUN_RECORD_CONFIG:
            out.config(row)
        elif row.record == _io.PQPAN_RUN_RECORD_SWEEP_EXTRA:
            out.extra(row)
        else:
            out.side(row)
        return 0

    err = ffi.new("struct pqpan_run_error *")
    rc = _io.pqpan_run(b"sweep", req, len(names), emit, ffi.NULL, err)
    if rc != 0:
        raise _error(err, rc)
    return out.rows, out.columns or [], out.units


class Result(dict):
    """A result as the CLI's JSON: the run's assumptions as members and "sides", a list of
    one dict per side. A side is also reachable by its name: result["peripheral"]."""

    def __missing__(self, key):
        for side in dict.get(self, "sides", ()):
            if side.get("side") == key:
                return side
        raise KeyError(key)
