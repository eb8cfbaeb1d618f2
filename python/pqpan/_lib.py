"""libpqpan through cffi in ABI mode: the declarations (_cdef.py, generated from the headers),
the shared libraries (libpqpan.so and libpqpan-io.so, the data-file loaders with the
built-in data files) and pqpan's errors as exceptions."""
import ctypes.util
import os
from pathlib import Path

from cffi import FFI


def _declarations():
    """CDEF and MACROS: from $PQPAN_CDEF (a file python/tools/gen_cdef.py wrote from the
    headers, e.g. the build's BUILD/python/_cdef.py), else the package's _cdef.py."""
    path = os.environ.get("PQPAN_CDEF")
    if path:
        scope = {}
        exec(compile(Path(path).read_text(), path, "exec"), scope)  # generated data only
        return scope["CDEF"], scope["MACROS"]
    from ._cdef import CDEF as cdef, MACROS as macros
    return cdef, macros


CDEF, MACROS = _declarations()
ffi = FFI()
ffi.cdef(CDEF)

_HERE = Path(__file__).resolve().parent
# When the package is used from a source checkout (python/pqpan), the library built by
# `make build` and the repository's data/ sit two levels up.
_SOURCE_ROOT = _HERE.parent.parent


def _library_candidates():
    env = os.environ.get("PQPAN_LIB")
    if env:
        return [env]
    found = []
    in_tree = _SOURCE_ROOT / "build" / "libpqpan.so"
    if (_SOURCE_ROOT / "include" / "pqpan" / "pqpan.h").exists() and in_tree.exists():
        found.append(str(in_tree))
    found.append("libpqpan.so.0")
    by_name = ctypes.util.find_library("pqpan")
    if by_name:
        found.append(by_name)
    return found


def _io_library_candidates(core_path):
    """libpqpan-io (the data-file loaders, include/pqpan/io.h): $PQPAN_IO_LIB, else beside
    the libpqpan.so that was loaded, else by name."""
    env = os.environ.get("PQPAN_IO_LIB")
    if env:
        return [env]
    found = []
    if os.sep in core_path:
        found.append(str(Path(core_path).parent / "libpqpan-io.so"))
    found.append("libpqpan-io.so.0")
    by_name = ctypes.util.find_library("pqpan-io")
    if by_name:
        found.append(by_name)
    return found


def _open_library(candidates, what, variable):
    errors = []
    for name in candidates:
        try:
            return ffi.dlopen(name), name
        except OSError as exc:
            errors.append("%s: %s" % (name, exc))
    raise ImportError("pqpan: cannot load %s (set %s to its path, or install the library: "
                      "make install). Tried: %s" % (what, variable, "; ".join(errors)))


lib, LIBRARY_PATH = _open_library(_library_candidates(), "libpqpan.so", "PQPAN_LIB")
iolib, IO_LIBRARY_PATH = _open_library(_io_library_candidates(LIBRARY_PATH), "libpqpan-io.so",
                                       "PQPAN_IO_LIB")

# The CLI's exit codes (docs/CLI.md), which an error also carries.
EXIT_RUN, EXIT_USAGE, EXIT_BAD_INPUT, EXIT_IO = 1, 2, 3, 4

_CODE_NAMES = {value: name for name, value in
               ((n, getattr(lib, n)) for n in dir(lib) if n.startswith("PQPAN_ERR_"))}


class PqpanError(Exception):
    """An error of pqpan: `code` is the library's PQPAN_ERR_* value (negative), `name` its
    name, `message` the text (the CLI's message for the same input where the CLI has one),
    `exit_code` what `pqpan` exits with for the same input (2 usage, 3 bad input data,
    4 file I/O, 1 a job that failed)."""

    def __init__(self, code, message, exit_code=EXIT_RUN):
        self.code = int(code)
        self.name = _CODE_NAMES.get(self.code, "PQPAN_ERR_%d" % self.code)
        self.message = message
        self.exit_code = exit_code
        super().__init__("%s (%s)" % (message, self.name))


class UsageError(PqpanError, ValueError):
    """An argument out of range or unknown (the CLI's exit code 2)."""

    def __init__(self, message, code=None):
        super().__init__(lib.PQPAN_ERR_INVALID_ARG if code is None else code, message,
                         EXIT_USAGE)


class DataError(PqpanError, ValueError):
    """A data file (profile, calibration, cycle table, trace) that does not parse or holds
    a value out of range (the CLI's exit code 3)."""

    def __init__(self, message, code=None):
        super().__init__(lib.PQPAN_ERR_MALFORMED if code is None else code, message,
                         EXIT_BAD_INPUT)


class FileError(PqpanError, OSError):
    """A file that cannot be read (the CLI's exit code 4)."""

    def __init__(self, message):
        PqpanError.__init__(self, lib.PQPAN_ERR_IO, message, EXIT_IO)


def strerror(code):
    """pqpan_strerror: the library's text for an error code."""
    return ffi.string(lib.pqpan_strerror(int(code))).decode()


def check(rc, what):
    """Raises PqpanError for a negative library return code."""
    if rc < 0:
        raise PqpanError(rc, "%s: %s" % (what, strerror(rc)))
    return rc


def cstr(ptr):
    """A C string from the library as str ('' for NULL)."""
    return "" if ptr == ffi.NULL else ffi.string(ptr).decode("utf-8", "replace")


def macro(name):
    """An integer macro of the headers (PQPAN_...)."""
    return MACROS[name]


def version():
    """The C library's version (pqpan_version)."""
    return cstr(lib.pqpan_version())
