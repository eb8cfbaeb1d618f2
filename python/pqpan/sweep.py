"""`pqpan sweep` in Python: the estimate of every combination of the values given, one row
per configuration with the CLI's columns (config, configs, status, in_<option> per option
given, the configuration's fields, then every result field once per side as
<side>_<field>). Rows come in the CLI's nested-loop order: the energy options outermost,
then the others, each group in the order given, the last varying fastest. A configuration
the model rejects (a current the profile lacks, ATT_MTU too small for the transfer) keeps
its inputs, its status says why, and its results are None."""
import itertools

from . import lowpan, model
from ._lib import PqpanError, UsageError

ENERGY_KEYS = ("profile", "calibration", "crypto_impl", "currents", "tx_dbm", "ramp",
               "gamma_comm", "gamma_comp", "p256_impl", "lesc_keypair")


def _values(name, value):
    if isinstance(value, (list, tuple, range)):
        values = list(value)
        if not values:
            raise UsageError("--%s: an empty list" % name.replace("_", "-"))
        return values
    return [value]


def _columns(link_802154, option_names):
    mod = lowpan if link_802154 else model
    sides = lowpan.SIDES if link_802154 else model.SIDES
    cols = ["config", "configs", "status"] + ["in_" + n for n in option_names]
    cols += list(mod.CONFIG_FIELDS)
    cols += ["%s_%s" % (side, f) for side in sides for f in mod.side_fields()]
    return cols


def _flat(result, columns, link_802154):
    sides = result["sides"]
    mod = lowpan if link_802154 else model
    out = {f: sides[0][f] for f in mod.CONFIG_FIELDS}
    for side in sides:
        for f in mod.side_fields():
            out["%s_%s" % (side["side"], f)] = side[f]
    return out


def rows(estimate_fn, link, options):
    """The rows (dicts in column order) and the column names."""
    link_802154 = link == "802154"
    names = list(options)
    if link is not None:
        names.insert(0, "link")
    grid = {n: _values(n, options[n]) for n in options}
    order = [n for n in options if n in ENERGY_KEYS] + [n for n in options
                                                       if n not in ENERGY_KEYS]
    columns = _columns(link_802154, names)
    combos = list(itertools.product(*(grid[n] for n in order)))
    out = []
    for i, combo in enumerate(combos):
        given = dict(zip(order, combo))
        row = dict.fromkeys(columns)
        row.update({"config": i, "configs": len(combos), "status": "ok"})
        if link is not None:
            row["in_link"] = link
        row.update({"in_" + n: given[n] for n in options})
        try:
            row.update(_flat(estimate_fn(**given), columns, link_802154))
        except PqpanError as exc:
            if isinstance(exc, UsageError) and exc.code == -1 and _is_option_error(exc):
                raise
            row["status"] = getattr(exc, "cli_message", exc.message)
        out.append(row)
    return out, columns


def _is_option_error(exc):
    """An option value out of its range (the CLI refuses the whole sweep, exit 2), as
    opposed to a configuration the model rejects (a row's status)."""
    return not getattr(exc, "cli_message", exc.message).startswith(("configuration out of range", "profile ",
                                       "802.15.4 configuration", "no cycle count"))
