"""pqpan.run (python/pqpan/run.py) on pqpan_run equals the CLI row for row over a grid
GENERATED from the option tables (`pqpan help --json`): for each link, every option row of
estimate with a few of its values (each word up to four, every --auth, --kem and --sig, a
range's two ends, a flag on and off), one option away from the defaults; a request the CLI refuses is refused with its exit
code. Then what issue 28 asks by name: encrypted="off" is the CLI without --encrypted (the
old Python model gave the encrypted figure), auth="sig-mutual" with sig="ML-DSA-65", errors
naming the keyword argument."""
import json
import math

import pytest

import pqpan
from pqpan.run import cli_argv, run
from conftest import assert_same

# Not varied: the output format (a face's), the link (each grid is one link), files
# without suggestions (a path).
SKIP = {"--format", "--link", "--calibration", "--gamma-comp"}
MAX_WORDS = 4
# Options whose every word is in the grid (issue 28: every --auth, every KEM).
ALL_WORDS = {"--auth", "--kem", "--sig"}


def _tables(cli, name="estimate"):
    help_json = json.loads(cli.run(["help", "--json"]).stdout)
    command = next(c for c in help_json["commands"] if c["name"] == name)
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


def _grid(cli, link, command="estimate", skip=(), base=None, tables=None):
    """(keyword options) requests: each option of link's tables (and the shared ones; of
    those named by tables only, if given) at each of its values, the others at their
    defaults (or base's)."""
    base = dict(base or {}, **({"link": "802154"} if link == "802154" else {}))
    requests = []
    for group in _tables(cli, command):
        if group.get("link") not in (None, link):
            continue
        if tables is not None and group["table"]["id"] not in tables:
            continue
        for opt in group["table"]["options"]:
            if opt["name"] in SKIP or opt["name"] in skip:
                continue
            for value in _values(opt):
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
    rows = "nodes" if "nodes" in expected else "sides"
    assert len(got.get(rows, [])) == len(expected[rows]) >= 3, argv
    for py, want in zip(got[rows], expected[rows]):
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


# idle's battery options (src/run/idle_battery.c): --exchange-uj and the rows of advise's
# device table idle takes; the battery grid varies them with an exchange given.
IDLE_BATTERY_TABLES = {"idle-battery", "advise-device"}
EXCHANGE = {"exchange_uj": 5000}


@pytest.mark.parametrize("link", ["ble", "802154"])
def test_idle_grid_equals_the_cli(cli, link):
    """pqpan.idle() over a grid generated from idle's option rows in `help --json` (each
    option of the link's tables at a few of its values; the battery options alone, which
    the CLI refuses without --exchange-uj, and again with an exchange): the CLI's JSON,
    member for member, phase for phase and the "battery" object, or the CLI's exit code
    where it refuses."""
    requests = _grid(cli, link, "idle")
    battery = _grid(cli, link, "idle", base=EXCHANGE, tables=IDLE_BATTERY_TABLES)
    assert len(requests) > 10, "the option tables gave a grid of %d requests" % len(requests)
    assert len(battery) > 8, "the battery rows gave a grid of %d requests" % len(battery)
    print("idle grid on %s: %d requests, %d with an exchange" % (link, len(requests),
                                                               len(battery)))
    from conftest import NumberText
    for options in requests + battery + [EXCHANGE]:
        argv = cli_argv("idle", **options)
        proc = cli.run([*argv, "--format", "json"], check=False)
        try:
            got = pqpan.idle(**options)
        except pqpan.PqpanError as e:
            assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
            continue
        assert proc.returncode == 0, (argv, proc.stderr)
        want = json.loads(proc.stdout, parse_float=NumberText, parse_int=NumberText)
        assert set(got) == set(want), (argv, set(got) ^ set(want))
        assert_same(got, want, " ".join(argv))
        assert got.units["avg_current_ua"] == "uA" and got.units["charge_uc"] == "uC"


def test_idle_errors_and_help():
    """idle()'s errors name the keyword argument; its docstring lists every option of both
    links with unit and default."""
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.idle(idle_latency=4, idle_ci_ms=4000)
    assert "idle_latency" in str(e.value) and "--idle-latency" not in str(e.value)
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.idle(link="802154", poll_ms=3)
    assert "poll_ms" in str(e.value)
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.idle(poll_ms=10)
    assert "poll_ms" in str(e.value)
    doc = pqpan.idle.__doc__
    assert "poll_ms (the idle link's interval" in doc and "idle_ci_ms (default 1000 ms" in doc
    assert "one of central, peripheral" in doc
def test_chain_equals_the_cli(cli):
    """estimate_802154(hops=3): the chain through pqpan_run, one node per dict as the CLI's
    JSON (it was refused: the chain was not on the run layer; the CLI had no JSON for it)."""
    want = cli.json(["estimate", "--link", "802154", "--hops", "3", "--forwarding", "fragment"])
    got = pqpan.estimate_802154(hops=3, forwarding="fragment")
    assert [n["role"] for n in got["nodes"]] == ["initiator", "forwarder", "forwarder", "responder"]
    for py, node in zip(got["nodes"], want["nodes"]):
        for key in node:
            assert_same(py[key], node[key], "node %s %s" % (node["node"], key))
    assert_same(got["chain"]["latency_ms"], want["chain"]["latency_ms"], "latency_ms")
    assert got["chain"]["forwarding"] == "fragment"


# sweep: the sweep's own options that change what is computed (the others are the face's:
# output, threads; --per is not through pqpan_run yet), and the chain (--hops,
# --forwarding: the CLI's for now).
SWEEP_SKIP = SKIP | {"--out", "--jobs", "--force", "--per", "--runs", "--seed", "--hops",
                     "--forwarding"}


def _sweep_grid(cli, link):
    """sweep requests from `pqpan help --json`: each option row of sweep on link with a
    LIST of two of its values (a flag: given), so every request is a grid of two rows (one
    for a flag), and --kem over two levels beside it (four)."""
    help_json = json.loads(cli.run(["help", "--json"]).stdout)
    command = next(c for c in help_json["commands"] if c["name"] == "sweep")
    base = {"link": "802154"} if link == "802154" else {}
    requests = []
    for group in command["groups"]:
        if group.get("link") not in (None, link):
            continue
        for opt in group["table"]["options"]:
            if opt["name"] in SWEEP_SKIP:
                continue
            key = opt["name"][2:].replace("-", "_")
            if opt["name"] == "--shard":
                requests.append(dict(base, kem=["ML-KEM-512", "ML-KEM-768"], shard="2/2"))
                continue
            values = _values(opt)
            if opt["kind"] == "flag":
                requests.append(dict(base, kem=["ML-KEM-512", "ML-KEM-768"], **{key: True}))
            elif len(values) >= 2 and opt["name"] != "--kem":
                requests.append(dict(base, kem=["ML-KEM-512", "ML-KEM-768"],
                                     **{key: values[:2]}))
    return requests


def _sweep_argv(options):
    argv = ["sweep"]
    for key, value in options.items():
        argv.append("--" + key.replace("_", "-"))
        if value is not True:
            argv.append(",".join(str(v) for v in value) if isinstance(value, list)
                        else str(value))
    return argv


def _compare_sweep(cli, options):
    from conftest import NumberText
    argv = _sweep_argv(options)
    proc = cli.run([*argv, "--format", "jsonl"], check=False)
    try:
        rows, columns, units = pqpan.run.sweep(list(options.items()))
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
        return 0
    assert proc.returncode == 0, (argv, proc.stderr)
    expected = [json.loads(line, object_pairs_hook=list, parse_float=NumberText,
                           parse_int=NumberText) for line in proc.stdout.splitlines()]
    assert len(rows) == len(expected), argv
    header = cli.run([*argv, "--format", "csv"]).stdout.splitlines()[0].split(",")
    assert columns == header, argv
    for py, want in zip(rows, expected):
        assert [k for k, _ in want] == list(py), argv
        for key, value in want:
            if value is None:
                assert py[key] is None, (argv, key)
            elif key.startswith("in_") or key == "status":
                assert py[key] == value, (argv, key)
            else:
                assert_same(py[key], value, "%s: config %s %s" % (" ".join(argv), py["config"],
                                                                   key))
    return len(rows)


@pytest.mark.parametrize("link", ["ble", "802154"])
def test_sweep_grid_equals_the_cli(cli, link):
    """pqpan.run.sweep (pqpan_run "sweep") row by row and column by column as `pqpan sweep`,
    over a grid generated from sweep's option tables."""
    requests = _sweep_grid(cli, link)
    assert len(requests) > 15, "the option tables gave %d sweep requests" % len(requests)
    rows = sum(_compare_sweep(cli, options) for options in requests)
    assert rows > 2 * len(requests)


def test_sweep_units_and_refusals():
    rows, columns, units = pqpan.run.sweep([("kem", ["ML-KEM-512", "LESC-P256"]),
                                            ("att_mtu", [247, 517])])
    assert [r["config"] for r in rows] == [0, 1, 2, 3] and rows[0]["configs"] == 4
    assert rows[0]["status"] != "ok" and rows[0]["peripheral_e_total_uj"] is None
    assert units["peripheral_e_total_uj"] == "uJ" and units["in_att_mtu"] == "octets"
    with pytest.raises(pqpan.PqpanError) as e:
        pqpan.run.sweep([("per", [0, 0.1])])
    assert e.value.exit_code == 1 and "per" in str(e.value)


def test_profiles_equal_the_cli(cli):
    """pqpan.profiles() (pqpan_run "profiles") is `pqpan profiles --format json`: every
    profile, every column and its sources."""
    from conftest import NumberText
    want = cli.json(["profiles"])
    got = pqpan.profiles()
    assert [p["name"] for p in got] == [p["name"] for p in want]
    for py, cli_row in zip(got, want):
        for key, value in cli_row.items():
            if isinstance(value, NumberText):
                assert_same(py[key], value, "%s %s" % (cli_row["name"], key))
            else:
                assert py[key] == value, (cli_row["name"], key)
        assert py["origin"].startswith("data/profiles/")
    show = run("profiles", show="cc2340r5")
    assert show["profiles"][0]["name"] == "cc2340r5"
    assert len(show["profiles"][0]["figures"]) == len(cli.json(["profiles", "show", "cc2340r5"])[
        "figures"])


# simulate's files: written by both faces into the test's directory, then compared.
SIM_FILES = ("--pcap", "--trace")


def _compare_simulate(cli, options):
    """One simulate request: the CLI's JSON (exit 0, or 1 for a failed exchange, which still
    prints it) and pqpan.run's rows agree member by member and side by side, and the run's
    SIM rows say succeeded as the CLI's exit code does; a refused request has the CLI's exit
    code."""
    argv = cli_argv("simulate", **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        got = run("simulate", **options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code != 0 and not proc.stdout, (argv, proc.stderr, str(e))
        return
    assert proc.returncode in (0, 1), (argv, proc.stderr)
    from conftest import NumberText
    expected = json.loads(proc.stdout, parse_float=NumberText, parse_int=NumberText)
    for py, want in zip(got["sides"], expected["sides"]):
        assert set(want) <= set(py), argv
        for key, value in want.items():
            assert_same(py[key], value, "%s: %s" % (" ".join(argv), key))
    plain = json.loads(proc.stdout)
    assert set(got["assumptions"]) == set(plain) - {"sides"}, argv
    for key, value in got["assumptions"].items():
        assert json.dumps(value) == json.dumps(plain[key]), (argv, key)
    assert [s["side"] for s in got["simulation"]] == ["peripheral", "central", "total"]
    total = got["simulation"][2]
    assert total["succeeded"] == (proc.returncode == 0), argv
    assert total["packets_tx"] == sum(plain["simulation"][s]["packets_tx"]
                                      for s in ("central", "peripheral")), argv
    assert_same(total["latency_ms"], expected["simulation"]["latency_ms"], "latency_ms")
    assert got["units"]["latency_ms"] == "ms" and got["units"]["energy_until_failure_uj"] == "uJ"


def test_simulate_grid_equals_the_cli(cli):
    """Every option row of simulate's BLE tables (`pqpan help --json`) at a few of its
    values, through the CLI and through pqpan.run; --pcap and --trace below."""
    requests = _grid(cli, "ble", "simulate", skip=SIM_FILES)
    names = {key for r in requests for key in r}
    assert {"per", "ber", "transport", "adv_case", "trace_side", "auth", "protocol"} <= names
    assert len(requests) > 30, "the option tables gave a grid of %d requests" % len(requests)
    for options in requests:
        _compare_simulate(cli, options)


def test_simulate_files_equal_the_cli(cli, tmp_path):
    """--pcap and --trace: the run writes the same files as the CLI (same seed, same
    bytes), and the same rows."""
    by_cli = {"pcap": str(tmp_path / "cli.pcap"), "trace": str(tmp_path / "cli.csv")}
    by_run = {"pcap": str(tmp_path / "run.pcap"), "trace": str(tmp_path / "run.csv")}
    cli.run([*cli_argv("simulate", per=0.05, **by_cli), "--format", "json"])
    run("simulate", per=0.05, **by_run)
    for key in by_cli:
        with open(by_cli[key], "rb") as a, open(by_run[key], "rb") as b:
            data = a.read()
            assert data and data == b.read(), key


def _compare_simulate_802154(cli, options):
    """One simulate --link 802154 request: the CLI's JSON is the run's members, whole and in
    order, and the run's METRIC and SIM154 rows hold its statistics and failures; a refused
    request has the CLI's exit code."""
    argv = cli_argv("simulate", **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        got = run("simulate", **options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code != 0 and not proc.stdout, (argv, proc.stderr, str(e))
        return
    assert proc.returncode == 0, (argv, proc.stderr)
    plain = json.loads(proc.stdout)
    assert json.dumps(got["assumptions"]) == json.dumps(plain), argv
    sim = plain["simulation"]
    for m in got["metrics"]:
        if m["per_run"]:
            assert round(m["mean"], 3) == sim["per_run_mean"][m["metric"]], (argv, m)
        else:
            for key in ("mean", "p50", "p90", "p99"):
                assert round(m[key], 3) == sim[m["metric"]][key], (argv, m["metric"], key)
    assert got["summary"]["failed"] == sim["failed"] and got["summary"]["runs"] == sim["runs"]
    assert got["units"]["channel_load_pct"] == "%"


def test_simulate_802154_grid_equals_the_cli(cli):
    """Every option row of simulate's 802.15.4 tables at a few of its values, two runs each
    (--runs itself at 1 and 3), through the CLI and through pqpan.run."""
    requests = _grid(cli, "802154", "simulate", skip=("--pcap", "--runs"), base={"runs": 2})
    requests += [{"link": "802154", "runs": 1}, {"link": "802154", "runs": 3}]
    # the chain's simulation (--hops above 1) is still the CLI's own (cli/lowpan_chain.c)
    requests = [r for r in requests if r.get("hops", 1) == 1]
    names = {key for r in requests for key in r}
    assert {"nodes", "load", "hidden", "capture", "auth", "mac_security", "hops"} <= names
    assert len(requests) > 30, "the option tables gave a grid of %d requests" % len(requests)
    for options in requests:
        _compare_simulate_802154(cli, options)


def test_simulate_802154_pcap_equals_the_cli(cli, tmp_path):
    """--pcap with --link 802154: the run writes the CLI's file."""
    cli.run([*cli_argv("simulate", link="802154", runs=2, pcap=str(tmp_path / "cli.pcap"))])
    run("simulate", link="802154", runs=2, pcap=str(tmp_path / "run.pcap"))
    data = (tmp_path / "cli.pcap").read_bytes()
    assert data and data == (tmp_path / "run.pcap").read_bytes()


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


# trace's text options have no words in the tables: the grid gives them these values.
TRACE_TEXT = {"phases": ["d0=crypto,d1=radio", "d9=x"], "window": ["w=0.5:3", "w=3:1"],
              "baseline_ua": ["auto", "2.5", "amps"]}


def test_trace_grid_equals_the_cli(cli, source_dir):
    """pqpan.trace() over every PPK2 fixture (tests/fixtures/ppk2) crossed with a grid
    generated from trace's option rows in `help --json` (each row at its values; the text
    rows at TRACE_TEXT's): the CLI's JSON (`pqpan trace FILE ... --format json`) member for
    member, phase for phase and segment for segment, or the CLI's exit code and message
    where it refuses."""
    from conftest import NumberText
    requests = _grid(cli, "ble", "trace") + [{k: v} for k, vs in TRACE_TEXT.items() for v in vs]
    requests += [{"phases": "d0=crypto", "segments": True, "lenient": True},
                 {"baseline_ua": "auto", "baseline_percentile": 50}]
    fixtures = sorted((source_dir / "tests/fixtures/ppk2").glob("*.csv"))
    assert len(requests) > 10 and len(fixtures) > 3, (len(requests), len(fixtures))
    print("trace grid: %d requests x %d fixtures" % (len(requests), len(fixtures)))
    for path in fixtures:
        for options in requests:
            argv = ["trace", str(path)] + cli_argv("trace", **options)[1:]
            proc = cli.run([*argv, "--format", "json"], check=False)
            try:
                got = pqpan.trace(str(path), **options)
            except pqpan.PqpanError as e:
                assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
                assert "pqpan trace: " + e.cli_message in proc.stderr, (argv, proc.stderr)
                continue
            assert proc.returncode == 0, (argv, proc.stderr)
            want = json.loads(proc.stdout, parse_float=NumberText, parse_int=NumberText)
            assert list(got) == list(want), (argv, list(got), list(want))
            _same_trace(got, want, " ".join(argv))


def _same_trace(py, cli, where):
    """py equals the CLI's JSON cli as trace prints it: each number rounded as cli/trace.c
    rounds it (C's round(x * 10^d) / 10^d, halves away from zero, d the printed decimals),
    item for item."""
    if isinstance(cli, dict):
        assert list(py) == list(cli), where
        for key in cli:
            _same_trace(py[key], cli[key], "%s.%s" % (where, key))
    elif isinstance(cli, list):
        assert len(py) == len(cli), where
        for k, (a, b) in enumerate(zip(py, cli)):
            _same_trace(a, b, "%s[%d]" % (where, k))
    elif isinstance(py, str):
        assert py == cli, where
    else:
        decimals = len(cli.split(".", 1)[1]) if "." in cli else 0
        scale = 10.0 ** decimals
        rounded = math.floor(abs(py) * scale + 0.5) / scale
        assert math.isclose(math.copysign(rounded, py), float(cli), rel_tol=1e-12,
                            abs_tol=1e-12), "%s: python %r, CLI %s" % (where, py, cli)
