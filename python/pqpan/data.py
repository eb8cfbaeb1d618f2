"""pqpan's data files, read by libpqpan-io (include/pqpan/io.h, the loaders the CLI uses)
into the library's structs: device profiles (format "pqpan-profile/1", docs/MODEL.md
"Profile file format") into struct pqpan_profile, calibration files ("pqpan-calibration/1")
onto struct pqpan_gamma, cycle tables (data/cycles/*.csv) into struct pqpan_cycle_table.
The built-in profiles and cycle tables are compiled into libpqpan-io; errors carry the
library's code and message (the CLI prints the same message)."""
from . import defaults
from ._lib import (DataError, FileError, UsageError, cstr, ffi, iolib, lib, macro)

DEFAULT_PROFILE = defaults.text("PROFILE")
DEFAULT_CRYPTO_IMPL = defaults.text("CRYPTO_IMPL")


def _check(rc, err):
    """Raises the error of a libpqpan-io result, with its message (err: the char buffer)."""
    if rc == lib.PQPAN_OK:
        return
    message = ffi.string(err).decode("utf-8", "surrogateescape")
    if rc == lib.PQPAN_ERR_IO:
        raise FileError(message)
    if rc == lib.PQPAN_ERR_NOT_FOUND:
        raise UsageError(message, code=rc)
    raise DataError(message, code=rc)


def _err():
    return ffi.new("char[]", macro("PQPAN_IO_ERR_MAX"))


def _bytes(data):
    return data.encode("utf-8", "surrogateescape") if isinstance(data, str) else bytes(data)


def _path(path):
    return str(path).encode("utf-8", "surrogateescape")


def builtin_profiles():
    """The built-in profile names (data/profiles/*.json, compiled in), in file-name order."""
    buf = ffi.new("char[]", 64)
    return [cstr(iolib.pqpan_io_profile_builtin_name(i, buf, 64))
            for i in range(iolib.pqpan_io_profile_builtin_count())]


class Profile:
    """A device profile: `struct` is the library's struct pqpan_profile (cffi), `origin`
    where it was read from, `text` the document (for its figures), `sources_802154` the
    sources of its ieee802154 section."""

    def __init__(self, struct, origin, text, sources):
        self.struct = struct
        self.origin = origin
        self.text = text
        self.sources_802154 = _sources_dict(struct, sources)

    @property
    def name(self):
        return cstr(self.struct.name)

    def figures(self):
        """Every figure of the file: [{"field", "value", "source"[, "derived"][,
        "other_chip"]}], in file
        order, with the dotted paths of `pqpan profiles show` (pqpan_io_profile_walk)."""
        out = []

        @ffi.callback("pqpan_io_figure_fn")
        def visit(f, _ctx):
            value = f.value if f.given else (cstr(f.text) if f.text != ffi.NULL else None)
            entry = {"field": cstr(f.path), "value": value, "source": cstr(f.source)}
            if f.derived != ffi.NULL:
                entry["derived"] = cstr(f.derived)
            if f.other_chip != ffi.NULL:
                entry["other_chip"] = cstr(f.other_chip)
            out.append(entry)

        rc = iolib.pqpan_io_profile_walk(self.text, len(self.text), visit, ffi.NULL)
        if rc != lib.PQPAN_OK:
            raise DataError("%s: (file): not a JSON object" % self.origin, code=rc)
        return out


def _sources_dict(p, src):
    """The ieee802154 section's sources keyed as lowpan.py reads them: ("rx", table),
    ("tx", table, level), "ramp_tx_fast", "ramp_tx_normal", "idle", "backoff", "wake_cpu"."""
    out = {key: cstr(getattr(src, key)) for key in
           ("ramp_tx_fast", "ramp_tx_normal", "idle", "backoff", "wake_cpu")}
    for t in range(lib.PQPAN_CURRENT_TABLE_COUNT):
        out["rx", t] = cstr(src.rx[t])
        for i in range(p.ieee802154.tx_level_count):
            out["tx", t, i] = cstr(src.tx[t][i])
    return out


def parse_profile(data, origin="(profile)"):
    """A Profile from a profile file's bytes (pqpan_io_profile_parse). DataError (the CLI's
    message) when it is not a valid profile."""
    text = _bytes(data)
    p = ffi.new("struct pqpan_profile *")
    src = ffi.new("struct pqpan_io_802154_sources *")
    err = _err()
    _check(iolib.pqpan_io_profile_parse(p, src, text, len(text), _bytes(origin), err,
                                        len(err)), err)
    return Profile(p, origin, text, src)


def load_profile(name_or_path=DEFAULT_PROFILE):
    """A built-in profile by name (see builtin_profiles()) or a profile file of your own, as
    the CLI resolves --profile (pqpan_io_profile_text)."""
    t = ffi.new("struct pqpan_io_text *")
    err = _err()
    _check(iolib.pqpan_io_profile_text(t, _path(name_or_path), err, len(err)), err)
    try:
        text = ffi.unpack(t.text, t.len)
        origin = cstr(t.origin)
    finally:
        iolib.pqpan_io_text_free(t)
    return parse_profile(text, origin)


# ---- calibration (γ) --------------------------------------------------------------------

def op_names():
    return [cstr(lib.pqpan_op_name(op)) for op in range(lib.PQPAN_OP_COUNT)]


def parse_calibration(gamma, data, origin):
    """Overlays the γ values of a calibration file's bytes onto gamma (a struct pqpan_gamma *);
    gamma is left as it was when the file is refused."""
    text = _bytes(data)
    work = ffi.new("struct pqpan_gamma *", gamma[0])
    err = _err()
    _check(iolib.pqpan_io_gamma_parse(work, text, len(text), _bytes(origin), err, len(err)),
           err)
    gamma[0] = work[0]


def load_calibration(gamma, path):
    """The same from a file (pqpan_io_gamma_load: "is a directory", the size cap, pipes)."""
    work = ffi.new("struct pqpan_gamma *", gamma[0])
    err = _err()
    _check(iolib.pqpan_io_gamma_load(work, _path(path), err, len(err)), err)
    gamma[0] = work[0]


# ---- cycle tables -------------------------------------------------------------------------

def parse_cycles(table, data, origin):
    """Appends the rows of one cycles CSV to table (a struct pqpan_cycle_table *); on error
    the table is as it was."""
    text = _bytes(data)
    err = _err()
    _check(iolib.pqpan_io_cycles_parse(table, text, len(text), _bytes(origin), err, len(err)),
           err)


def builtin_cycles():
    """Every built-in data/cycles/ CSV with a cycles or cycles_mean column, in file-name order
    (pqpan_io_cycles_load_builtin)."""
    table = ffi.new("struct pqpan_cycle_table *")
    err = _err()
    _check(iolib.pqpan_io_cycles_load_builtin(table, err, len(err)), err)
    return table
