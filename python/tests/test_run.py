"""pqpan.run (python/pqpan/run.py) on pqpan_run equals the CLI row for row over a grid
GENERATED from the option tables (`pqpan help --json`): for each link, every option row of
estimate with a few of its values (each word up to four, every --auth, --kem and --sig, a
range's two ends, a flag on and off), one option away from the defaults; a request the CLI refuses is refused with its exit
code. Then what issue 28 asks by name: encrypted="off" is the CLI without --encrypted (the
old Python model gave the encrypted figure), auth="sig-mutual" with sig="ML-DSA-65", errors
naming the keyword argument."""
import json

import pytest

import pqpan
from pqpan.run import cli_argv, run
from conftest import assert_same

# Not varied: the output format (a face's), the link (each grid is one link), files
# without suggestions (a path), and --hops above 1 (the chain: not through pqpan_run yet).
SKIP = {"--format", "--link", "--calibration", "--gamma-comp"}
MAX_WORDS = 4
# Options whose every word is in the grid (issue 28: every --auth, every KEM).
ALL_WORDS = {"--auth", "--kem", "--sig"}


def _tables(cli):
    help_json = json.loads(cli.run(["help", "--json"]).stdout)
    command = next(c for c in help_json["commands"] if c["name"] == "estimate")
    return command["groups"]


def _values(opt):
    kind = opt["kind"]
    if kind == "flag":
        return [True, False]
    if kind in ("uint", "int", "number"):
        if opt["open"]:
            return []
        return [x for x in (opt["min"], opt["max"]) if x is not None]
    words = list(opt.get("words") or [])
    return words if opt["name"] in ALL_WORDS else words[:MAX_WORDS]


def _grid(cli, link):
    """(keyword options) requests: each option of link's tables (and the shared ones) at
    each of its values, the others at their defaults."""
    base = {"link": "802154"} if link == "802154" else {}
    requests = []
    for group in _tables(cli):
        if group.get("link") not in (None, link):
            continue
        for opt in group["table"]["options"]:
            if opt["name"] in SKIP:
                continue
            for value in _values(opt):
                if opt["name"] == "--hops" and value != 1:
                    continue
                key = opt["name"][2:].replace("-", "_")
                requests.append(dict(base, **{key: value}))
    return requests


def _compare(cli, options):
    argv = cli_argv("estimate", **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        got = run("estimate", **options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
        return
    assert proc.returncode == 0, (argv, proc.stderr)
    from conftest import NumberText
    expected = json.loads(proc.stdout, parse_float=NumberText, parse_int=NumberText)
    assert len(got["sides"]) == len(expected["sides"]) == 3, argv
    for py, want in zip(got["sides"], expected["sides"]):
        assert set(want) <= set(py), argv
        for key, value in want.items():
            assert_same(py[key], value, "%s: %s" % (" ".join(argv), key))
    for key, value in got["assumptions"].items():
        assert json.dumps(value) == json.dumps(json.loads(proc.stdout)[key]), (argv, key)


@pytest.mark.parametrize("link", ["ble", "802154"])
def test_grid_equals_the_cli(cli, link):
    requests = _grid(cli, link)
    assert len(requests) > 30, "the option tables gave a grid of %d requests" % len(requests)
    auths = {r["auth"] for r in requests if "auth" in r}
    assert {"none", "sig-mutual"} <= auths
    for options in requests:
        _compare(cli, options)


def test_encrypted_off_is_the_unencrypted_link(cli):
    plain = cli.json(["estimate"])["sides"]
    encrypted = cli.json(["estimate", "--encrypted"])["sides"]
    for word, want in (("off", plain), (False, plain), ("on", encrypted), (True, encrypted)):
        got = run("estimate", encrypted=word)["sides"]
        for py, side in zip(got, want):
            assert_same(py["e_total_uj"], side["e_total_uj"], "encrypted=%r" % (word,))
    assert run("estimate", encrypted="off")["sides"][2]["e_comm_uj"] < \
        run("estimate", encrypted="on")["sides"][2]["e_comm_uj"]


def test_sig_mutual(cli):
    want = cli.json(["estimate", "--auth", "sig-mutual", "--sig", "ML-DSA-65"])["sides"]
    got = run("estimate", auth="sig-mutual", sig="ML-DSA-65")["sides"]
    assert got[0]["protocol"] == "pqpan-sig-mutual-ML-DSA-65"
    for py, side in zip(got, want):
        for key in side:
            assert_same(py[key], side[key], key)


def test_errors_name_the_keyword():
    with pytest.raises(pqpan.UsageError) as e:
        run("estimate", att_mtu=9)
    assert "att_mtu" in str(e.value) and "--att-mtu" not in str(e.value)
    assert e.value.exit_code == 2
    with pytest.raises(pqpan.UsageError) as e:
        run("estimate", att_mut=247)
    assert "did you mean att_mtu" in str(e.value)
    with pytest.raises(pqpan.UsageError):
        run("estimate", encrypted="maybe")


def test_idle_equals_the_cli(cli):
    """idle through pqpan_run: the side's figures and every phase as the CLI's JSON."""
    options = {"idle_ci_ms": 100, "idle_latency": 4, "role": "central"}
    want = cli.json(cli_argv("idle", **options))
    got = run("idle", **options)
    for key in ("period_ms", "events_per_period", "avg_current_ua", "charge_per_event_uc",
                "charge_per_period_uc", "latency", "ci_ms"):
        assert_same(got["idle"][key], want[key], key)
    assert [p["phase"] for p in got["phases"]] == [p["phase"] for p in want["phases"]]
    for py, phase in zip(got["phases"], want["phases"]):
        for key in ("time_us", "current_ua", "charge_uc"):
            assert_same(py[key], phase[key], "%s %s" % (phase["phase"], key))
    assert got["units"]["avg_current_ua"] == "uA"
    assert got["assumptions"]["accounting"] == "events"


# advise: not varied, besides estimate's SKIP: --out (figures are the CLI's), --brief (the
# table's, not the JSON's), --top (kept small); the grid runs over 802.15.4, where a search
# takes milliseconds (a BLE search takes seconds: one request of it below).
ADVISE_SKIP = SKIP | {"--out", "--brief", "--top"}
ADVISE_BASE = {"link": "802154", "top": 2}


def _advise_grid(cli):
    help_json = json.loads(cli.run(["help", "--json"]).stdout)
    command = next(c for c in help_json["commands"] if c["name"] == "advise")
    requests = []
    for group in command["groups"]:
        for opt in group["table"]["options"]:
            if opt["name"] in ADVISE_SKIP:
                continue
            for value in _values(opt)[:3]:
                key = opt["name"][2:].replace("-", "_")
                requests.append(dict(ADVISE_BASE, **{key: value}))
    return requests


def _compare_advise(cli, options):
    argv = cli_argv("advise", **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        got = pqpan.advise(**options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
        return "refused"
    assert proc.returncode == 0, (argv, proc.stderr)
    assert got == json.loads(proc.stdout), argv
    return "equal"


def test_advise_grid_equals_the_cli(cli):
    """pqpan.advise() is the CLI's JSON output, or the CLI's exit code, over a grid
    generated from advise's option rows (each row at up to three of its values)."""
    requests = _advise_grid(cli)
    outcomes = [_compare_advise(cli, options) for options in requests]
    print("advise grid: %d requests, %d equal, %d refused by both"
          % (len(requests), outcomes.count("equal"), outcomes.count("refused")))
    assert len(requests) > 40 and outcomes.count("equal") > 20
    assert {"min_level", "battery_side", "protocol"} <= {k for r in requests for k in r}


def test_advise_ble_equals_the_cli(cli):
    """One BLE search (seconds), its CHOICE rows typed as the JSON's recommendations."""
    options = {"top": 2, "min_level": 3}
    want = json.loads(cli.run([*cli_argv("advise", **options), "--format", "json"]).stdout)
    assert pqpan.advise(**options) == want
    got = run("advise", **options)
    want = cli.json(cli_argv("advise", **options))
    for choice, rec in zip(got["choices"], want["recommendations"]):
        for key in ("rank", "kem", "phy", "att_mtu", "objective_uj", "latency_ms"):
            assert_same(choice[key], rec[key], key)
    assert got["units"]["objective_uj"] == "uJ"


def test_advise_errors_name_the_keyword():
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.advise(min_level=2)
    assert "min_level" in str(e.value) and "--min-level" not in str(e.value)
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.advise(link="802154", battery_side="both")
    assert "battery_side" in str(e.value)
    with pytest.raises(pqpan.UsageError):
        pqpan.advise(kem="ML-KEM-768")
