"""The CLI's option tables as keyword arguments (python/pqpan/options.py, issue 28 item 2):
the package's generated copy is the build's `pqpan help --json`; every option of estimate's
tables is a keyword argument of estimate() / estimate_802154() (before, hybrid, supply_v and
ram_retained_kb were not: options added to the CLI never reached Python), documented with its
unit and default; one that only the tables list runs as the CLI's option does."""
import inspect
import subprocess
import sys

import pytest

import pqpan
from pqpan import options
from conftest import assert_same

LINKS = (("ble", pqpan.estimate, []), ("802154", pqpan.estimate_802154, ["--link", "802154"]))


def test_generated_tables_are_the_builds(cli, source_dir, tmp_path):
    out = tmp_path / "_options.py"
    subprocess.run([sys.executable, str(source_dir / "python" / "tools" / "gen_options.py"),
                    cli.path, str(out)], check=True)
    committed = (source_dir / "python" / "pqpan" / "_options.py").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, \
        "python/pqpan/_options.py is stale: python3 python/tools/gen_options.py build/pqpan " \
        "python/pqpan/_options.py"


@pytest.mark.parametrize("link,fn,_", LINKS)
def test_every_option_is_a_keyword(link, fn, _):
    params = inspect.signature(fn).parameters
    rows = options.rows("estimate", link)
    assert len(rows) > 20
    missing = [options.keyword(o["name"]) for o in rows if options.keyword(o["name"]) not in params]
    assert not missing, "%s: options of `pqpan estimate` with no keyword: %s" % (link, missing)


@pytest.mark.parametrize("link,fn,_", LINKS)
def test_docstring_lists_every_option(link, fn, _):
    doc = inspect.getdoc(fn)
    for o in options.rows("estimate", link):
        line = next((l for l in doc.splitlines() if l.startswith(options.keyword(o["name"]) + " (")),
                    None)
        assert line is not None, (link, o["name"])
        if o["default"] is not None:
            assert "default %s" % o["default"] in line, line
        if o["unit"]:
            assert o["unit"] in line, line


@pytest.mark.parametrize("kwargs,args", [
    ({"hybrid": "p256"}, ["--hybrid", "p256"]),
    ({"supply_v": 2.7, "ram_retained_kb": 128}, ["--supply-v", "2.7", "--ram-retained-kb", "128"]),
])
@pytest.mark.parametrize("link,fn,link_args", LINKS)
def test_table_only_keywords_equal_the_cli(cli, link, fn, link_args, kwargs, args):
    got = fn(**kwargs)
    want = cli.json(["estimate", *link_args, *args])
    assert_same(got["sides"], want["sides"], "%s %s" % (link, kwargs))


def test_unknown_keyword_is_named():
    with pytest.raises(pqpan.UsageError, match="att_mt"):
        pqpan.estimate(att_mt=247)


def test_sweep_takes_every_option_of_both_links():
    """sweep()'s keyword arguments are `pqpan sweep`'s options on both links (generated from
    its tables), but the face's (the output file, the threads); an unknown one is named."""
    params = inspect.signature(pqpan.sweep).parameters
    skipped = {"--out", "--jobs"}
    for link in ("ble", "802154"):
        for o in options.rows("sweep", link, skipped):
            assert options.keyword(o["name"]) in params, (link, o["name"])
    assert not {"out", "jobs"} & set(params)
    assert {"busy", "att_mtu", "shard", "valid_only", "per", "runs", "seed", "hops"} <= set(params)
    with pytest.raises(pqpan.UsageError, match="att_mt"):
        pqpan.sweep(att_mt=[247])
