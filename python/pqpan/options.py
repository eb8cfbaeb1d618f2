"""The CLI's option tables as the package's keyword arguments (issue 28 item 2). A function
that runs a command through the run layer takes every option of the command's tables as a
keyword argument (the option's name with '_' for '-'): those it does not list itself are
added here, to its signature and its docstring, from python/pqpan/_options.py (generated from
`pqpan help --json` by python/tools/gen_options.py; python/tests/test_options.py checks it is
the build's). So a new CLI option appears in Python with no Python code."""
import functools
import inspect

from ._lib import UsageError
from ._options import OPTIONS

# The request's frame, not options of a run: the link is the function's, the format JSON.
_FRAME = ("--link", "--format")


def keyword(option):
    """The keyword argument of a CLI option: --att-mtu -> att_mtu."""
    return option[2:].replace("-", "_")


def _links(link):
    """The links a with_options link argument names: None both, a word, or a tuple."""
    if link is None:
        return ("ble", "802154")
    return (link,) if isinstance(link, str) else tuple(link)


def rows(command, link, skip=(), frame=_FRAME):
    """The option rows of command on link ("ble", "802154", a tuple of them, or None: both;
    each option once), in the tables' order, the request's frame (by default --link,
    --format) and skip left out."""
    links = (None,) + _links(link)
    out, seen = [], set(frame) | set(skip)
    for group in OPTIONS[command]:
        for o in group["options"] if group["link"] in links else ():
            if o["name"] not in seen:
                seen.add(o["name"])
                out.append(o)
    return out


def _command_text(command, link):
    """`pqpan COMMAND` as the docstring names it: with its --link, or on every link given."""
    links = _links(link)
    if len(links) == 1:
        return "`pqpan %s%s`" % (command, "" if links[0] == "ble" else " --link " + links[0])
    return "`pqpan %s` on %s" % (command, " and ".join("--link " + x for x in links))


def _describe(o):
    unit = " %s" % o["unit"] if o["unit"] else ""
    if o["default"] is not None:
        default = "default %s%s" % (o["default"], unit)
    else:
        default = o["default_note"] or "no default"
    limits = ""
    if o["min"] is not None and o["max"] is not None:
        limits = "; %s..%s%s" % (o["min"], o["max"], unit)
    words = "; one of %s" % ", ".join(o["words"]) if o["words"] else ""
    return "    %s (%s%s%s): %s" % (keyword(o["name"]), default, limits, words, o["help"])


def _typed_default(o):
    """An option's default as a keyword argument's: a number for a number, False for a flag
    that is off, the word or text otherwise (None: the option has no default value)."""
    d = o["default"]
    if d is None:
        return None
    if o["kind"] == "flag":
        return d == "on"
    if o["kind"] in ("uint", "int"):
        return int(d)
    if o["kind"] == "number":
        return float(d)
    return d


def generated(fn):
    """The keyword arguments with_options added to fn (none if it added none)."""
    return getattr(fn, "_pqpan_generated", ())


def with_options(command, link, skip=(), frame=_FRAME):
    """Decorates fn(..., **more): every option of command's tables on link (a tuple: on any
    of those links; None: both) that fn does not list, but those of skip, becomes a
    keyword-only argument (default: the table's, typed) in its signature; its docstring
    gains the generated list of every option with unit, default, range and words. A keyword
    in more that is no option of the tables raises UsageError naming it."""
    def decorate(fn):
        sig = inspect.signature(fn)
        params = [p for p in sig.parameters.values() if p.kind != p.VAR_KEYWORD]
        listed = {p.name for p in params}
        table = rows(command, link, skip, frame)
        new = [o for o in table if keyword(o["name"]) not in listed]
        added = [keyword(o["name"]) for o in new]
        params += [inspect.Parameter(keyword(o["name"]), inspect.Parameter.KEYWORD_ONLY,
                                     default=_typed_default(o)) for o in new]

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            unknown = sorted(k for k in kwargs if k not in listed and k not in added)
            if unknown:
                raise UsageError("%s(): unknown keyword argument %s (the options of `pqpan "
                                 "%s`: help(pqpan.%s))" % (fn.__name__, ", ".join(unknown),
                                                            command, fn.__name__))
            return fn(*args, **kwargs)

        wrapper.__signature__ = sig.replace(parameters=params)
        wrapper.__doc__ = (fn.__doc__ or "") + (
            "\n\n    Options (generated from `pqpan help --json`, the CLI's option tables of "
            "%s):\n" % _command_text(command, link)
            + "\n".join(_describe(o) for o in table))
        wrapper._pqpan_generated = tuple(added)
        return wrapper
    return decorate
