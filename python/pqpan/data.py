"""pqpan's data files, read into the library's structs: device profiles (format
"pqpan-profile/1", docs/MODEL.md "Profile file format") into struct pqpan_profile, calibration
files ("pqpan-calibration/1") onto struct pqpan_gamma, cycle tables (data/cycles/*.csv) into
struct pqpan_cycle_table.

Interim (until the CLI's loaders are a library part, issue 15's libpqpan-io): the library
reads no files, and the CLI's loaders (cli/profile_load.c, cli/gamma_load.c,
cli/cycles_load.c) are not in libpqpan.so, so this module parses the same formats with the
same rules and messages; python/tests/test_loaders.py feeds the built-in files and the fuzz
corpora to both and requires the same verdict, message and figures."""
import math
import os
from pathlib import Path

from . import _json
from ._lib import DataError, FileError, UsageError, cstr, data_dir, ffi, lib, macro

PROFILE_FORMAT = "pqpan-profile/1"
CALIBRATION_FORMAT = "pqpan-calibration/1"
DEFAULT_PROFILE = "nrf52840"
DEFAULT_CRYPTO_IMPL = "clean"
# The CLI's file size limits (cli/data_load.h): profiles and calibration files.
SMALL_FILE_MAX = 1 << 20
# The largest number a profile may give (cli/profile_load.c VALUE_MAX).
VALUE_MAX = 1e10
# Plausibility limits per kind of figure, (low, high, unit): cli/profile_load.c's
# (assumptions far outside any SoC's figures, so that only typos and unit mistakes hit).
CURRENT_MAX_UA = 1e6
_PLAUSIBLE = {
    "current": (0.0, CURRENT_MAX_UA, "uA"), "volt": (0.5, 10.0, "V"), "ppm": (0.0, 1000.0, "ppm"),
    "hz": (1e3, 1e10, "Hz"), "us": (0.0, 1e6, "us"), "us0": (0.0, 1e6, "us"),
}

MODE_KEYS = ("ble_1m", "ble_2m", "ble_coded", "ieee802154")
TABLE_KEYS = ("system", "radio_only")


# ---- files ----------------------------------------------------------------------------

def read_file(path, limit=SMALL_FILE_MAX):
    """A file's bytes ("-" is not supported here); FileError as the CLI's EXIT_IO."""
    p = Path(path)
    try:
        if p.is_dir():
            raise FileError("%s: is a directory" % path)
        if p.is_file() and p.stat().st_size > limit:
            raise FileError("%s: larger than %d bytes" % (path, limit))
        with open(p, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        if isinstance(exc, FileError):
            raise
        raise FileError("%s: cannot open: %s" % (path, exc.strerror or exc)) from None
    if len(data) > limit:
        raise FileError("%s: larger than %d bytes" % (path, limit))
    return data


def builtin_profiles():
    """The built-in profile names (data/profiles/*.json), in file-name order."""
    return sorted(p.stem for p in (data_dir() / "profiles").glob("*.json"))


def profile_text(name_or_path):
    """(bytes, origin) of a built-in NAME or a file path, as the CLI resolves --profile."""
    s = str(name_or_path)
    if "/" in s or s.endswith(".json") or os.path.isfile(s):
        return read_file(s), s
    if s in builtin_profiles():
        return read_file(data_dir() / "profiles" / (s + ".json")), \
            "data/profiles/%s.json (built in)" % s
    raise UsageError("unknown profile '%s' (built in: %s; or a path to a profile file)"
                     % (s, ", ".join(builtin_profiles())), code=lib.PQPAN_ERR_NOT_FOUND)


# ---- profiles ---------------------------------------------------------------------------

class _Reader:
    """One profile parse: the origin for messages."""

    def __init__(self, origin):
        self.origin = origin

    def fail(self, field, problem):
        raise DataError("%s: %s: %s" % (self.origin, field, problem))

    def figure_keys_ok(self, obj, path):
        for key in obj.keys():
            if key not in ("value", "source", "derived", "dbm"):
                self.fail(path, 'unknown member "%s" (a figure has value, source and '
                                'optionally derived)' % key[:40])
        derived = obj.get("derived")
        if derived is not None and (not _json.is_string(derived) or derived == ""):
            self.fail(path, '"derived" must be a non-empty text saying how the figure is '
                            'computed')

    def source_of(self, obj, path):
        if not isinstance(obj, _json.Obj):
            self.fail(path, 'missing, or not an object {"value": ..., "source": ...}')
        self.figure_keys_ok(obj, path)
        src = obj.get("source")
        if not _json.is_string(src) or src == "":
            self.fail(path, '"source" missing or empty: every number needs its source')
        return src

    def sourced(self, obj, path, nullable):
        """(value, given, source) of {"value": number | null, "source": "..."}."""
        src = self.source_of(obj, path)
        v = obj.get("value")
        if v is None:
            self.fail(path, '"value" missing')
        if v is _json.NULL:
            if not nullable:
                self.fail(path, '"value" is null but this figure is required')
            return 0.0, 0, src
        if not _json.is_number(v) or not math.isfinite(v):
            self.fail(path, '"value" is not a number')
        if v < 0.0:
            self.fail(path, '"value" is negative')
        if v > VALUE_MAX:
            self.fail(path, '"value" out of range (at most 1e10)')
        return v, 1, src

    def positive(self, obj, path):
        """sourced() of a current that may be null but not 0, and is plausible."""
        x, given, src = self.sourced(obj, path, True)
        if given and x == 0.0:
            self.fail(path, '"value" must be greater than 0')
        if given:
            self.plausible(path, x, "current")
        return x, given, src

    def plausible(self, path, x, kind):
        lo, hi, unit = _PLAUSIBLE[kind]
        if not lo <= x <= hi:
            self.fail(path, '"value" %g is outside the plausible %g..%g %s (a unit mistake?)'
                      % (x, lo, hi, unit))


# (key, kind, struct member, nullable); kinds as cli/profile_load.c's.
_SCALARS = (
    ("supply_v", "volt", "supply_v", False),
    ("cpu_hz", "hz", "cpu_hz", False),
    ("cpu_ua", "current", "cpu_ua", False),
    ("cpu_tx_ua", "current", "cpu_tx_ua", True),
    ("cpu_rx_ua", "current", "cpu_rx_ua", True),
    ("sleep_ua", "current", "sleep_ua", False),
    ("hfxo_start_ua", "current", "hfxo_start_ua", False),
    ("hfxo_start_us", "us", "hfxo_start_ns", False),
    ("ramp_fast_us", "us", "ramp_fast_ns", False),
    ("ramp_normal_us", "us", "ramp_normal_ns", False),
    ("sca_ppm", "ppm", "sca_ppm", False),
)
_BLE_EVENT_SCALARS = (
    ("pre_us", "us0", "pre_ns", False),
    ("pre_ua", "current", "pre_ua", False),
    ("post_us", "us0", "post_ns", False),
    ("post_ua", "current", "post_ua", False),
    ("rx_margin_us", "us0", "rx_margin_ns", False),
)
_OTHER_KEYS = ("format", "name", "description", "datasheet", "currents", "ble_event",
               "ieee802154", "notes")
_SECTION_KEYS = ("description", "rx_ua", "tx_ua", "ramp_tx_fast_us", "ramp_tx_normal_us",
                 "idle", "backoff", "wake_cpu_us")


def _round_half_away(x):
    return int(math.floor(x + 0.5)) if x >= 0 else -int(math.floor(-x + 0.5))


def _store_scalar(r, target, member, kind, x, path):
    scaled = x * 1000.0 if kind in ("us", "us0") else x
    if x == 0.0 and kind not in ("ppm", "us0"):
        r.fail(path, '"value" must be greater than 0')
    r.plausible(path, x, kind)
    if kind in ("current", "volt", "ppm"):
        setattr(target, member, x)
        return
    if scaled > 4294967295.0 or (kind == "hz" and math.floor(x) != x):
        r.fail(path, '"value" out of range')
    setattr(target, member, _round_half_away(scaled))


def _read_scalar(r, obj, prefix, target, spec):
    key, kind, member, nullable = spec
    path = prefix + key
    x, given, _ = r.sourced(obj.get(key), path, nullable)
    if given:
        _store_scalar(r, target, member, kind, x, path)
    return given


def _read_text(r, root, key, out_len, required):
    v = root.get(key)
    if v is None and not required:
        return ""
    if not _json.is_string(v) or (required and v == ""):
        r.fail(key, "missing or not a string")
    if _json.utf8_len(v) >= out_len:
        r.fail(key, "too long")
    return v


def _read_header(r, root, p):
    fmt = root.get("format")
    if not _json.is_string(fmt) or fmt != PROFILE_FORMAT:
        r.fail("format", 'missing or not "%s"' % PROFILE_FORMAT)
    for key in root.keys():
        if key not in _OTHER_KEYS and key not in [s[0] for s in _SCALARS]:
            r.fail(key, "unknown field")
    p.name = _read_text(r, root, "name", 32, True).encode("utf-8", "surrogateescape")
    p.description = _read_text(r, root, "description", 96, False).encode("utf-8",
                                                                          "surrogateescape")
    _read_text(r, root, "datasheet", 256, False)


def _read_scalars(r, root, p):
    given = {}
    for spec in _SCALARS:
        given[spec[0]] = _read_scalar(r, root, "", p, spec)
    if given["cpu_tx_ua"] != given["cpu_rx_ua"]:
        r.fail("cpu_tx_ua/cpu_rx_ua", "give both CPU + radio figures or neither")
    p.cpu_radio_given = given["cpu_tx_ua"]


def _read_ble_event(r, root, p):
    sec = root.get("ble_event")
    if not isinstance(sec, _json.Obj):
        r.fail("ble_event", "missing or not an object (the connection-event phases: "
                            "pre_us, pre_ua, post_us, post_ua, ramp_ua, rx_margin_us)")
    names = ("description", "ramp_ua") + tuple(s[0] for s in _BLE_EVENT_SCALARS)
    for key in sec.keys():
        if key not in names:
            r.fail("ble_event.%s" % key[:60], "unknown field")
    for spec in _BLE_EVENT_SCALARS:
        _read_scalar(r, sec, "ble_event.", p.ble_event, spec)
    ramp = sec.get("ramp_ua")
    if not isinstance(ramp, _json.Obj) or ramp.get("source") is not None:
        r.fail("ble_event.ramp_ua", 'missing or not an object {"system": ..., '
                                    '"radio_only": ...}')
    for t, tkey in enumerate(TABLE_KEYS):
        path = "ble_event.ramp_ua.%s" % tkey
        x, given, _ = r.positive(ramp.get(tkey), path)
        p.ble_event.ramp_ua[t] = x
        p.ble_event.ramp_given[t] = given


def _read_rx(r, rx, t, p):
    if not isinstance(rx, _json.Obj):
        r.fail("currents.%s.rx_ua" % TABLE_KEYS[t], "missing or not an object")
    if rx.get("ieee802154") is not None:
        r.fail("currents.%s.rx_ua.ieee802154" % TABLE_KEYS[t],
               "moved: the 802.15.4 RX current is ieee802154.rx_ua.<table>")
    for m in range(lib.PQPAN_RADIO_IEEE802154):
        path = "currents.%s.rx_ua.%s" % (TABLE_KEYS[t], MODE_KEYS[m])
        x, given, _ = r.positive(rx.get(MODE_KEYS[m]), path)
        p.rx_ua[t][m] = x
        p.rx_given[t][m] = given


class _Levels:
    """One list of TX levels: the BLE levels or the 802.15.4 ones (count is a member name)."""

    def __init__(self, owner, sources=None):
        self.owner = owner
        self.sources = sources

    def index(self, dbm):
        o = self.owner
        for i in range(o.tx_level_count):
            if o.tx_dbm[i] == dbm:
                return i
        if o.tx_level_count >= macro("PQPAN_PROFILE_TX_LEVELS_MAX"):
            return -1
        o.tx_dbm[o.tx_level_count] = dbm
        o.tx_level_count += 1
        return o.tx_level_count - 1


def _read_tx(r, tx, where, t, levels):
    if not isinstance(tx, list):
        r.fail(where, "missing or not an array")
    for i, e in enumerate(tx):
        path = "%s[%d]" % (where, i)
        dbm = e.get("dbm") if isinstance(e, _json.Obj) else None
        if not _json.is_number(dbm) or not math.isfinite(dbm) or math.floor(dbm) != dbm \
                or dbm < -100.0 or dbm > 40.0:
            r.fail(path, '"dbm" missing or not an integer in -100..40')
        x, given, src = r.positive(e, path)
        idx = levels.index(int(dbm))
        if idx < 0:
            r.fail(path, "too many TX power levels")
        if levels.owner.tx_given[t][idx]:
            r.fail(path, "TX level listed twice")
        levels.owner.tx_ua[t][idx] = x
        levels.owner.tx_given[t][idx] = given
        if levels.sources is not None:
            levels.sources[(t, idx)] = src


def _read_currents(r, root, p):
    cur = root.get("currents")
    if not isinstance(cur, _json.Obj):
        r.fail("currents", "missing or not an object")
    ble = _Levels(p)
    for t, tkey in enumerate(TABLE_KEYS):
        tab = cur.get(tkey)
        if not isinstance(tab, _json.Obj):
            r.fail("currents.%s" % tkey, "missing or not an object")
        _read_rx(r, tab.get("rx_ua"), t, p)
        _read_tx(r, tab.get("tx_ua"), "currents.%s.tx_ua" % tkey, t, ble)


def _read_section_us(r, sec, key, zero_ok):
    path = "ieee802154.%s" % key
    us, given, src = r.sourced(sec.get(key), path, True)
    if given and ((us < 0.0 if zero_ok else us <= 0.0) or us > 100000.0):
        r.fail(path, '"value" must be in [0, 100000] us' if zero_ok
               else '"value" must be in (0, 100000] us')
    return (_round_half_away(us * 1000.0) if given else 0), given, src


def _read_section_state(r, sec, key):
    path = "ieee802154.%s" % key
    obj = sec.get(key)
    src = r.source_of(obj, path)
    v = obj.get("value")
    if not _json.is_string(v) or v not in ("rx", "sleep"):
        r.fail(path, '"value" must be "rx" (the radio listens) or "sleep" (the radio is off)')
    return int(v == "rx"), src


def _read_section(r, root, p, sources):
    sec = root.get("ieee802154")
    s = p.ieee802154
    if not isinstance(sec, _json.Obj):
        r.fail("ieee802154", "missing or not an object (the IEEE 802.15.4 radio figures: "
                             "rx_ua, tx_ua, ramp_tx_fast_us, ramp_tx_normal_us, idle, backoff, "
                             "wake_cpu_us)")
    for key in sec.keys():
        if key not in _SECTION_KEYS:
            r.fail("ieee802154.%s" % key, "unknown field")
    rx = sec.get("rx_ua")
    if not isinstance(rx, _json.Obj):
        r.fail("ieee802154.rx_ua", 'missing or not an object {"system": ..., '
                                   '"radio_only": ...}')
    for t, tkey in enumerate(TABLE_KEYS):
        path = "ieee802154.rx_ua.%s" % tkey
        x, given, src = r.positive(rx.get(tkey), path)
        p.rx_ua[t][lib.PQPAN_RADIO_IEEE802154] = x
        p.rx_given[t][lib.PQPAN_RADIO_IEEE802154] = given
        sources["rx", t] = src
    tx = sec.get("tx_ua")
    if not isinstance(tx, _json.Obj):
        r.fail("ieee802154.tx_ua", 'missing or not an object {"system": [...], '
                                   '"radio_only": [...]}')
    levels = _Levels(s, {})
    for t, tkey in enumerate(TABLE_KEYS):
        _read_tx(r, tx.get(tkey), "ieee802154.tx_ua.%s" % tkey, t, levels)
    sources.update({("tx",) + k: v for k, v in levels.sources.items()})
    s.ramp_tx_fast_ns, _, sources["ramp_tx_fast"] = _read_section_us(r, sec, "ramp_tx_fast_us",
                                                                      False)
    s.ramp_tx_normal_ns, _, sources["ramp_tx_normal"] = _read_section_us(
        r, sec, "ramp_tx_normal_us", False)
    s.idle_rx, sources["idle"] = _read_section_state(r, sec, "idle")
    s.backoff_rx, sources["backoff"] = _read_section_state(r, sec, "backoff")
    s.wake_cpu_ns, s.wake_cpu_given, sources["wake_cpu"] = _read_section_us(
        r, sec, "wake_cpu_us", True)


class Profile:
    """A device profile: `struct` is the library's struct pqpan_profile (cffi), `origin`
    where it was read from, `doc` the parsed file (for sources), `sources_802154` the
    sources of its ieee802154 section."""

    def __init__(self, struct, origin, doc, sources_802154):
        self.struct = struct
        self.origin = origin
        self.doc = doc
        self.sources_802154 = sources_802154

    @property
    def name(self):
        return cstr(self.struct.name)

    def figures(self):
        """Every figure of the file: [{"field", "value", "source"[, "derived"]}], in file
        order, with the dotted paths of `pqpan profiles show`."""
        out = []
        _walk(self.doc, "", out)
        return out


def _figure_entry(path, obj):
    value, source, derived = obj.get("value"), obj.get("source"), obj.get("derived")
    entry = {"field": path,
             "value": value if _json.is_number(value) or _json.is_string(value) else None,
             "source": source if _json.is_string(source) else ""}
    if _json.is_string(derived):
        entry["derived"] = derived
    return entry


def _walk(node, prefix, out):
    """The figures as `pqpan profiles show` walks them (cli/profile_walk.c): an object with
    a source is a figure, a list holds TX levels (path.<dbm>dbm), other members nest."""
    if isinstance(node, _json.Obj) and node.get("source") is not None:
        out.append(_figure_entry(prefix, node))
    elif isinstance(node, list):
        for item in node:
            dbm = item.get("dbm") if isinstance(item, _json.Obj) else None
            level = int(dbm) if _json.is_number(dbm) and math.isfinite(dbm) else 0
            if isinstance(item, _json.Obj):
                out.append(_figure_entry("%s.%ddbm" % (prefix, level), item))
    elif isinstance(node, _json.Obj):
        for key, value in node.items():
            if isinstance(value, (_json.Obj, list)):
                _walk(value, prefix + "." + key if prefix else key, out)


def parse_profile(data, origin="(profile)"):
    """A Profile from a profile file's bytes. DataError (the CLI's message) when it is not
    a valid profile."""
    r = _Reader(origin)
    doc = _json.parse(data)
    if not isinstance(doc, _json.Obj):
        r.fail("(file)", "not a JSON object")
    p = ffi.new("struct pqpan_profile *")
    sources = {}
    _read_header(r, doc, p)
    _read_scalars(r, doc, p)
    _read_ble_event(r, doc, p)
    _read_currents(r, doc, p)
    _read_section(r, doc, p, sources)
    if lib.pqpan_profile_check(p) != lib.PQPAN_OK:
        r.fail("currents", "needs at least one TX level and one RX mode with a value")
    return Profile(p, origin, doc, sources)


def load_profile(name_or_path=DEFAULT_PROFILE):
    """A built-in profile by name (see profiles()) or a profile file of your own."""
    data, origin = profile_text(name_or_path)
    return parse_profile(data, origin)


# ---- calibration (γ) --------------------------------------------------------------------

def op_names():
    return [cstr(lib.pqpan_op_name(op)) for op in range(lib.PQPAN_OP_COUNT)]


def _gamma_number(v):
    return _json.is_number(v) and math.isfinite(v) and v > 0.0


def parse_calibration(gamma, data, origin):
    """Overlays the γ values of a calibration file onto gamma (a struct pqpan_gamma *)."""
    def fail(field, problem):
        raise DataError("%s: %s: %s" % (origin, field, problem))

    root = _json.parse(data)
    if not isinstance(root, _json.Obj):
        fail("(file)", "not a JSON object")
    fmt = root.get("format")
    if not _json.is_string(fmt) or fmt != CALIBRATION_FORMAT:
        fail("format", 'missing or not "%s"' % CALIBRATION_FORMAT)
    for key in root.keys():
        if key not in ("format", "gamma_comp", "gamma_comm", "provenance"):
            fail(key, "unknown field")
    prov = root.get("provenance")
    src = prov.get("source") if isinstance(prov, _json.Obj) else None
    if not _json.is_string(src) or src == "":
        fail("provenance.source", "missing: say where the γ values come from")
    comp, comm = root.get("gamma_comp"), root.get("gamma_comm")
    if comp is None and comm is None:
        fail("gamma_comp/gamma_comm", "neither is given")
    work = ffi.new("struct pqpan_gamma *", gamma[0])
    names = op_names()
    if comp is not None:
        if not isinstance(comp, _json.Obj):
            fail("gamma_comp", 'not an object {"kem_keygen": 1.3, ...}')
        for key, value in comp.items():
            path = "gamma_comp.%s" % key
            if key not in names:
                fail(path, "unknown operation (%s)" % ", ".join(names))
            if not _gamma_number(value):
                fail(path, "not a number greater than 0")
            work.comp[names.index(key)] = value
    if comm is not None:
        if not _gamma_number(comm):
            fail("gamma_comm", "not a number greater than 0")
        work.comm = comm
    gamma[0] = work[0]


# ---- cycle tables -------------------------------------------------------------------------

_CSV_FIELDS_MAX = 24
_CSV_FIELD_LEN = 512


def _csv_records(text):
    """RFC 4180 records as cli/cycles_load.c splits them: yields (line, fields) or raises
    ValueError on a malformed record."""
    pos, line, n = 0, 0, len(text)
    while pos < n:
        line += 1
        fields, cur, quoted = [], bytearray(), False
        while pos < n:
            ch = text[pos]
            pos += 1
            if quoted:
                if ch == 0x22 and pos < n and text[pos] == 0x22:
                    pos += 1
                elif ch == 0x22:
                    quoted = False
                    continue
            elif ch == 0x22 and not cur:
                quoted = True
                continue
            elif ch == 0x2C:
                fields.append(bytes(cur))
                cur = bytearray()
                if len(fields) >= _CSV_FIELDS_MAX:
                    raise ValueError(line)
                continue
            elif ch == 0x0A:
                break
            elif ch == 0x0D:
                continue
            if len(cur) + 1 >= _CSV_FIELD_LEN:
                raise ValueError(line)
            cur.append(ch)
        if quoted:
            raise ValueError(line)
        fields.append(bytes(cur))
        if len(fields) >= _CSV_FIELDS_MAX:
            raise ValueError(line)
        yield line, [f.split(b"\0", 1)[0].decode("utf-8", "surrogateescape") for f in fields]


def _map_op(scheme, operation):
    s = scheme.lower()
    kem, ecc = s.startswith("ml-kem"), not s.startswith("ml-")
    if s.startswith("ml-dsa"):
        ops = {"keygen": "SIG_KEYGEN", "sign": "SIG_SIGN", "verify": "SIG_VERIFY"}
        name = ops.get(operation)
    elif operation == "kdf" and kem:
        name = "KDF"
    elif "keygen" in operation and (kem or ecc):
        name = "KEM_KEYGEN" if kem else "ECDH_KEYGEN"
    elif operation == "encaps" and kem:
        name = "KEM_ENCAPS"
    elif operation == "decaps" and kem:
        name = "KEM_DECAPS"
    elif operation == "ecdh_shared_secret" and ecc:
        name = "ECDH_SHARED"
    else:
        name = None
    return None if name is None else getattr(lib, "PQPAN_OP_" + name)


def _parse_count(s, lo, hi, allow_empty):
    if allow_empty and s == "":
        return 0
    if s == "" or not s.isascii() or not s.isdigit():
        return None
    v = int(s)
    return v if lo <= v <= hi else None


def _row_source(fields, cols, origin):
    base = origin.rsplit("/", 1)[-1]
    commit = fields[cols["commit"]] if cols["commit"] >= 0 else ""
    if cols["repo"] >= 0 and fields[cols["repo"]] != "":
        out = fields[cols["repo"]]
    else:
        out = base.split(" ", 1)[0]
    if commit:
        out += "@" + commit[:12]
    return out.encode("utf-8", "surrogateescape")[:63]


def parse_cycles(table, data, origin):
    """Appends the rows of one cycles CSV to table (struct pqpan_cycle_table *); on an
    error the table is left as it was and DataError carries the CLI's message."""
    def fail(line, field, problem):
        raise DataError("%s: line %d: %s: %s" % (origin, line, field, problem))

    before = table.count
    records = _csv_records(data)
    try:
        try:
            _, header = next(records)
        except (StopIteration, ValueError):
            header = []
        col = {name: (header.index(name) if name in header else -1) for name in
               ("scheme", "implementation", "operation", "cycles", "cycles_mean",
                "stack_bytes", "code_bytes", "source_repo", "source_commit")}
        cols = {"scheme": col["scheme"], "impl": col["implementation"],
                "op": col["operation"],
                "cycles": col["cycles"] if col["cycles"] >= 0 else col["cycles_mean"],
                "stack": col["stack_bytes"], "code": col["code_bytes"],
                "repo": col["source_repo"], "commit": col["source_commit"]}
        if min(cols["scheme"], cols["impl"], cols["op"], cols["cycles"]) < 0:
            raise DataError("%s: line 1: header must name scheme, implementation, operation "
                            "and cycles (or cycles_mean)" % origin)
        line = 1
        try:
            for line, fields in records:
                if len(fields) == 1 and fields[0] == "":
                    continue
                if len(fields) != len(header):
                    fail(line, "(row)", "number of fields differs from the header")
                _add_cycle_row(table, fields, cols, origin, line, fail)
        except ValueError as exc:
            if isinstance(exc, DataError):
                raise
            fail(exc.args[0] if exc.args else line + 1, "(row)",
                 "malformed CSV (unterminated quote, field or row too long)")
    except DataError:
        for i in range(before, table.count):
            table.rows[i] = ffi.new("struct pqpan_cycle_row *")[0]
        table.count = before
        raise


def _add_cycle_row(table, fields, cols, origin, line, fail):
    scheme, impl = fields[cols["scheme"]], fields[cols["impl"]]
    if scheme == "" or _json.utf8_len(scheme) >= 24:
        fail(line, "scheme", "empty or longer than 23 characters")
    if impl == "" or _json.utf8_len(impl) >= 24:
        fail(line, "implementation", "empty or longer than 23 characters")
    cycles = _parse_count(fields[cols["cycles"]], 1, 1000000000000, False)
    if cycles is None:
        fail(line, "cycles", "not a positive integer")
    stack = code = 0
    if cols["stack"] >= 0:
        stack = _parse_count(fields[cols["stack"]], 0, 0xFFFFFFFF, True)
        if stack is None:
            fail(line, "stack_bytes", "not a non-negative integer")
    if cols["code"] >= 0:
        code = _parse_count(fields[cols["code"]], 0, 0xFFFFFFFF, True)
        if code is None:
            fail(line, "code_bytes", "not a non-negative integer")
    op = _map_op(scheme, fields[cols["op"]])
    if op is None:
        return
    row = ffi.new("struct pqpan_cycle_row *")
    row.scheme = scheme.encode("utf-8", "surrogateescape")
    row.impl = impl.encode("utf-8", "surrogateescape")
    row.op = op
    row.cycles = cycles
    row.stack_bytes = stack
    row.code_bytes = code
    row.source = _row_source(fields, cols, origin)
    if lib.pqpan_cycles_add(table, row) != lib.PQPAN_OK:
        fail(line, "(row)", "cycle table full")


def builtin_cycles():
    """Every data/cycles/ CSV with a cycles or cycles_mean column, in file-name order (as
    the CLI's data_cycles_load_builtin)."""
    table = ffi.new("struct pqpan_cycle_table *")
    for path in sorted((data_dir() / "cycles").glob("*.csv")):
        data = read_file(path, 64 << 20)
        first = data.split(b"\n", 1)[0]
        if b",cycles" not in first:
            continue
        parse_cycles(table, data, "data/cycles/%s (built in)" % path.name)
    return table
