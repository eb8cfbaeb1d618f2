"""The library's table of defaults (include/pqpan/defaults.h; docs/CLI.md "Defaults"): the
value every keyword argument of the package takes when it is not given, the same row as
the CLI option of the same name reads, so the package and the CLI agree by construction."""
from ._lib import cstr, ffi, lib


def row(name):
    """The row of PQPAN_DEFAULT_<name> as a dict: option, value (None for a note), note,
    why."""
    r = lib.pqpan_default_get(getattr(lib, "PQPAN_DEFAULT_" + name))
    return {"option": cstr(r.option), "value": None if r.value == ffi.NULL else cstr(r.value),
            "note": None if r.note == ffi.NULL else cstr(r.note), "why": cstr(r.why)}


def text(name):
    """The default value of PQPAN_DEFAULT_<name> as the option spells it ("1M", "50")."""
    value = row(name)["value"]
    if value is None:
        raise KeyError("PQPAN_DEFAULT_%s is said by a note, not a value" % name)
    return value


def number(name):
    """The default value of PQPAN_DEFAULT_<name> as a number: an int when it is written as
    one ("403"), else a float ("7.5")."""
    value = text(name)
    return int(value) if value.lstrip("-").isdigit() else float(value)


def switch(name):
    """The default value of an on/off option as a bool."""
    return text(name) == "on"


def table():
    """Every row of the table, in its order."""
    names = sorted((getattr(lib, n), n[len("PQPAN_DEFAULT_"):]) for n in dir(lib)
                   if n.startswith("PQPAN_DEFAULT_") and n not in ("PQPAN_DEFAULT_NONE",
                                                                  "PQPAN_DEFAULT_COUNT"))
    return [row(name) for _, name in names]
