"""The result fields come from the run layer's field tables (include/pqpan/run.h, read
through libpqpan-io): a side of pqpan.estimate() / estimate_802154() has exactly the CLI's
columns, in its order, and every field's unit is the library's (issue 28: one field table for
every face)."""
import pytest

import pqpan
from pqpan import fields

# (the estimate function, its CLI arguments, the link's field table)
LINKS = [
    (lambda **o: pqpan.estimate(**o), ["estimate"], "ble"),
    (lambda **o: pqpan.estimate_802154(**o), ["estimate", "--link", "802154"], "802154"),
]
# the defaults, and an authenticated mode (BLE: on pqpan's protocol, 802.15.4's own)
CASES = [dict(), dict(auth="kem-auth-mutual")]


@pytest.mark.parametrize("link", LINKS, ids=lambda l: l[2])
@pytest.mark.parametrize("options", CASES, ids=lambda o: "-".join(map(str, o.values())) or "defaults")
def test_sides_have_the_clis_columns_in_order(cli, link, options):
    run, args, name = link
    if options and name == "ble":
        options = dict(options, protocol="pqpan")
    extra = []
    for key, value in options.items():
        extra += ["--" + key.replace("_", "-"), str(value)]
    header = cli.run([*args, *extra, "--format", "csv"]).stdout.splitlines()[0].split(",")
    got = run(**options)
    for side in got["sides"]:
        assert list(side) == header


@pytest.mark.parametrize("link", ["ble", "802154"])
def test_units_are_the_field_tables(link):
    table = fields.exchange_fields(link)
    names = [f.name for f in table]
    assert len(names) == len(set(names)) and "e_total_uj" in names and "side" in names
    suffix_unit = {"_uj": "uJ", "_ms": "ms", "_pct": "%"}
    for f in table:
        for suffix, unit in suffix_unit.items():
            if f.name.endswith(suffix):
                assert f.unit == unit, f
    assert fields.units(link)["latency_ms"] == "ms"
