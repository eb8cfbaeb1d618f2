"""JSON read as the CLI reads it (cJSON): the first value of the text, whatever follows it;
objects keep every member in order (a duplicated key: lookups find the first, as
cJSON_GetObjectItemCaseSensitive does); NaN and Infinity are not JSON; a string ends at
its first NUL, as a C string does."""
import json
import math


class Obj:
    """A JSON object: members in file order."""

    def __init__(self, pairs):
        self.pairs = pairs

    def get(self, key):
        for k, v in self.pairs:
            if k == key:
                return v
        return None

    def keys(self):
        return [k for k, _ in self.pairs]

    def items(self):
        return list(self.pairs)


class Null:
    """JSON null (distinct from a missing member, which get() gives as None)."""


NULL = Null()


def _number(text):
    try:
        return float(text)
    except (OverflowError, ValueError):
        return math.inf


def _reject_constant(name):
    raise ValueError("not JSON: " + name)


def _c_string(s):
    return s.split("\0", 1)[0]


def _convert(v):
    if isinstance(v, Obj):
        return Obj([(_c_string(k), _convert(x)) for k, x in v.pairs])
    if isinstance(v, list):
        return [_convert(x) for x in v]
    if v is None:
        return NULL
    if isinstance(v, str):
        return _c_string(v)
    return v


def parse(data):
    """The first JSON value of data (bytes or str), or None if it does not parse."""
    if isinstance(data, bytes):
        data = data.decode("utf-8", "surrogateescape")
    decoder = json.JSONDecoder(object_pairs_hook=Obj, parse_float=_number, parse_int=_number,
                               parse_constant=_reject_constant, strict=False)
    start = len(data) - len(data.lstrip(" \t\r\n"))
    try:
        value, _ = decoder.raw_decode(data, start)
    except (ValueError, RecursionError):
        return None
    try:
        return _convert(value)
    except RecursionError:
        return None


def is_number(v):
    return isinstance(v, float)


def is_string(v):
    return isinstance(v, str)


def utf8_len(s):
    return len(s.encode("utf-8", "surrogateescape"))
