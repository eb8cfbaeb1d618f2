"""The run layer's field tables (include/pqpan/run.h, in libpqpan-io): the names, units and
order of an exchange's result fields, the same table the CLI prints its table, CSV and JSON
from (docs/RUN.md). A side of a result has exactly these fields, in this order."""
from collections import namedtuple

from ._lib import ffi, iolib

Field = namedtuple("Field", "name label unit group")

_LINKS = {"ble": iolib.PQPAN_RUN_LINK_BLE, "802154": iolib.PQPAN_RUN_LINK_802154}
# What estimate shows of a side: its configuration, the headline and the detail groups.
ESTIMATE_GROUPS = (iolib.PQPAN_RUN_GROUP_CONFIG | iolib.PQPAN_RUN_GROUP_HEADLINE |
                   iolib.PQPAN_RUN_GROUP_DETAIL)
_cache = {}


def _text(p):
    return ffi.string(p).decode() if p != ffi.NULL else None


def exchange_fields(link="ble", groups=ESTIMATE_GROUPS):
    """The fields of link's table ("ble" or "802154") that the group mask shows, in order."""
    key = (link, groups)
    if key not in _cache:
        n = ffi.new("size_t *")
        table = iolib.pqpan_run_exchange_fields(_LINKS[link], n)
        _cache[key] = tuple(
            Field(_text(table[i].name), _text(table[i].label), _text(table[i].unit),
                  table[i].group)
            for i in range(n[0]) if iolib.pqpan_run_field_shown(table + i, groups))
    return _cache[key]


def config_fields(link="ble"):
    """The configuration fields after "side" (a sweep's shared columns)."""
    return tuple(f.name for f in exchange_fields(link, iolib.PQPAN_RUN_GROUP_CONFIG)
                 if f.name != "side")


def side_fields(link="ble"):
    """The names of a side's result fields after "side" and the configuration, in order."""
    return [f.name for f in exchange_fields(link, iolib.PQPAN_RUN_GROUP_HEADLINE |
                                            iolib.PQPAN_RUN_GROUP_DETAIL)]


def units(link="ble"):
    """{name: unit} of every field of link's table that has a unit."""
    return {f.name: f.unit for f in exchange_fields(link, 0xff) if f.unit is not None}
