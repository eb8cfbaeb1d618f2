"""pqpan.run (python/pqpan/run.py) on pqpan_run equals the CLI row for row over a grid
GENERATED from the option tables (`pqpan help --json`): for each link, every option row of
estimate with a few of its values (each word up to four, every --auth, --kem and --sig, a
range's two ends, a flag on and off), one option away from the defaults; a request the CLI refuses is refused with its exit
code. Then what issue 28 asks by name: encrypted="off" is the CLI without --encrypted (the
old Python model gave the encrypted figure), auth="sig-mutual" with sig="ML-DSA-65", errors
naming the keyword argument."""
import functools
import math
import json
import warnings

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
# output, threads); --per (a list of rates, no words to take) with --runs and --seed by hand.
SWEEP_SKIP = SKIP | {"--out", "--jobs", "--force"}
SWEEP_PER = {"--per": [0, 0.05, 1], "--runs": 3, "--seed": 7}


def _sweep_grid(cli, link):
    """sweep requests from `pqpan help --json`: each option row of sweep on link with a
    LIST of two of its values (a flag: given), so every request is a grid of two rows (one
    for a flag), and --kem over two levels beside it (four)."""
    help_json = json.loads(cli.run(["help", "--json"]).stdout)
    command = next(c for c in help_json["commands"] if c["name"] == "sweep")
    base = {} if link == "ble" else {"link": link}
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
            if opt["name"] in SWEEP_PER:  # the Monte Carlo's columns (refused on 802.15.4)
                requests.append(dict(base, kem=["ML-KEM-512", "LESC-P256"],
                                     **dict({"per": SWEEP_PER["--per"]},
                                            **{key: SWEEP_PER[opt["name"]]})))
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


@pytest.mark.parametrize("link", ["ble", "802154", "ble-mesh"])
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
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.run.sweep([("link", "802154"), ("per", [0, 0.1])])
    assert e.value.exit_code == 2 and "per is for the BLE link" in str(e.value)


def test_sweep_mesh_sides_and_refusals():
    """sweep --link ble-mesh: MESH rows as provisioner_, device_, total_ columns, the other
    bearer's counters None, a refused configuration's reason in status."""
    rows, columns, units = pqpan.run.sweep([("link", "ble-mesh"), ("bearer", ["pb-adv", "pb-gatt"]),
                                            ("att_mtu", [247])])
    assert columns[:5] == ["config", "configs", "status", "in_link", "in_bearer"]
    assert "device_e_total_uj" in columns and units["device_e_total_uj"] == "uJ"
    assert rows[0]["status"].startswith("--att-mtu applies to --bearer pb-gatt")
    assert rows[0]["device_e_total_uj"] is None
    assert rows[1]["status"] == "ok" and rows[1]["device_proxy_pdus"] > 0
    assert rows[1]["device_segments"] is None and rows[1]["bearer"] == "pb-gatt"


def test_sweep_per_and_chain_columns():
    """The Monte Carlo's and the chain's columns come after the sides, with their units;
    a configuration the model rejects has them None but sim_per and sim_runs."""
    rows, columns, units = pqpan.run.sweep([("kem", ["ML-KEM-512", "LESC-P256"]),
                                            ("att_mtu", [23, 517]), ("per", [0.1]),
                                            ("runs", 2)])
    assert columns[-21:-16] == ["sim_per", "sim_runs", "sim_seed", "sim_failed",
                                "sim_failure_rate"]
    assert columns[-1] == "sim_latency_p99_ms" and units["sim_latency_p99_ms"] == "ms"
    bad = next(r for r in rows if r["status"] != "ok")
    assert bad["sim_per"] == "0.1" and bad["sim_runs"] == 2 and bad["sim_seed"] is None
    assert all(r["sim_seed"] == 1 + 2 * r["config"] for r in rows if r["status"] == "ok")
    rows, columns, units = pqpan.run.sweep([("link", "802154"), ("hops", [1, 4])])
    assert columns[-4:] == ["chain_latency_ms", "chain_initiator_uj", "chain_forwarder_max_uj",
                            "chain_responder_uj"]
    assert rows[0]["chain_forwarder_max_uj"] is None and rows[1]["chain_forwarder_max_uj"] > 0


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


def _same_json(got, proc, argv):
    """The run's sides and members (got) are the CLI's JSON output (proc): each side's
    fields at the CLI's digits, the members whole. Returns the JSON with numbers as printed,
    and plain."""
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
    return expected, plain


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
    expected, plain = _same_json(got, proc, argv)
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
    if "nodes" in plain:  # --hops above 1: the chain simulator
        _compare_nodes(argv, got, proc.stdout)
        return
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


def _compare_nodes(argv, got, stdout):
    """A chain's simulation: the CLI's JSON is the run's members, then its "nodes", one per
    NODE row, each field as the CLI prints it."""
    from conftest import NumberText
    plain = json.loads(stdout)
    expected = json.loads(stdout, parse_float=NumberText, parse_int=NumberText)["nodes"]
    del plain["nodes"]
    assert json.dumps(got["assumptions"]) == json.dumps(plain), argv
    assert len(got["nodes"]) == len(expected) == plain["chain"]["hops"] + 1, argv
    for py, want in zip(got["nodes"], expected):
        assert set(py) == set(want), argv
        for key, value in want.items():
            assert_same(py[key], value, "%s: %s" % (" ".join(argv), key))
    assert got["units"]["e_total_events_uj"] == "uJ" and got["notes"], argv


def test_simulate_802154_grid_equals_the_cli(cli):
    """Every option row of simulate's 802.15.4 tables at a few of its values, two runs each
    (--runs itself at 1 and 3), through the CLI and through pqpan.run; then the same rows on
    a chain of 3 hops (the chain simulator: --nodes and --pcap refused by both, a sleeping
    radio too)."""
    requests = _grid(cli, "802154", "simulate", skip=("--pcap", "--runs"), base={"runs": 2})
    requests += [{"link": "802154", "runs": 1}, {"link": "802154", "runs": 3}]
    chain = _grid(cli, "802154", "simulate", skip=("--pcap", "--runs", "--hops"),
                  base={"runs": 2, "hops": 3})
    assert any(r.get("hops", 1) > 1 for r in requests)
    requests += chain + [{"link": "802154", "hops": 2, "runs": 5, "kem": "ML-KEM-512"}]
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
        if group.get("link") not in (None, "802154"):
            continue
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
    assert {"min_level", "battery_side", "protocol", "hops", "forwarding"} <= {
        k for r in requests for k in r}


@pytest.mark.parametrize("forwarding", ["reassemble", "fragment"])
def test_advise_chain_equals_the_cli(cli, forwarding):
    """advise --link 802154 --hops 3: pqpan.advise() is the CLI's JSON; its first
    recommendation names the chain (hops, forwarding, one energy per forwarder) and its
    estimate line carries them."""
    options = {"link": "802154", "hops": 3, "forwarding": forwarding, "sed_idle": "listen",
               "top": 2}
    assert _compare_advise(cli, options) == "equal"
    first = pqpan.advise(**options)["recommendations"][0]
    assert (first["hops"], first["forwarding"], len(first["forwarders_uj"])) == (3, forwarding, 2)
    assert "--hops 3 --forwarding " + forwarding in first["reproduce_estimate"]
    choice = run("advise", **options)["choices"][0]
    assert (choice["hops"], choice["forwarding"]) == (3, forwarding)
    # the JSON prints 3 decimals
    assert "%.3f" % choice["forwarder_max_uj"] == "%.3f" % max(first["forwarders_uj"])
    assert "%.3f" % choice["energy_device_uj"] == "%.3f" % first["energy_device_uj"]


@pytest.mark.parametrize("options", [{"min_level": "1", "top": 2},
                                     {"min_level": "5", "max_latency_ms": 1000, "hybrid": "p256"}])
def test_advise_mesh_equals_the_cli(cli, options):
    """advise --link ble-mesh: pqpan.advise() is the CLI's JSON, its first choice the cheapest
    for the device of those listed."""
    options = dict(options, link="ble-mesh")
    assert _compare_advise(cli, options) == "equal"
    got = pqpan.advise(**options)
    assert got["link"] == "ble-mesh" and got["choices"][0]["rank"] == 1
    assert all(c["device_uj"] >= got["choices"][0]["device_uj"]
               for c in got["choices"] + got["best_per_bearer"])


def test_advise_mesh_choices_are_typed_rows(cli):
    """advise --link ble-mesh's configurations are typed rows (MESH_CHOICE, MESH_BEST), as the
    other links' CHOICE rows: each equal to the CLI's JSON item at its precision, its units
    uJ and ms, and each, run again through its "estimate" options (pqpan_run "estimate"),
    gives the device's and the provisioner's e_total_uj and the latency it carries."""
    options = {"link": "ble-mesh", "min_level": 3, "max_latency_ms": 400, "top": 3}
    got = run("advise", **options)
    want = cli.json(cli_argv("advise", **options))
    assert [c["rank"] for c in got["choices"]] == [1, 2, 3]
    assert [c["rank"] for c in got["best_per_bearer"]] == [0] * len(want["best_per_bearer"])
    for key in ("choices", "best_per_bearer"):
        assert len(got[key]) == len(want[key])
        for choice, item in zip(got[key], want[key]):
            assert set(choice) == set(item) | {"settings"}
            for name in item:
                assert_same(choice[name], item[name], name)
            assert choice["estimate"].endswith(" " + choice["settings"])
    assert (got["units"]["device_uj"], got["units"]["latency_ms"]) == ("uJ", "ms")
    for choice in got["choices"] + got["best_per_bearer"]:
        words = choice["estimate"].split()
        sides = run("estimate", _raw=list(zip(words[0::2], words[1::2])))["sides"]
        by_side = {s["side"]: s for s in sides}
        assert by_side["device"]["e_total_uj"] == pytest.approx(choice["device_uj"], abs=1e-9)
        assert by_side["provisioner"]["e_total_uj"] == pytest.approx(choice["provisioner_uj"],
                                                                     abs=1e-9)
        assert by_side["device"]["latency_ms"] == pytest.approx(choice["latency_ms"], abs=1e-9)
    assert pqpan.advise(**options) == json.loads(
        cli.run([*cli_argv("advise", **options), "--format", "json"]).stdout)


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


# calibrate: the traces of tests/fixtures (each one side of one exchange), the option rows
# of its tables over them. --trace is the grid's base, --out a file (compared on its own).
CAL_SKIP = SKIP | {"--trace", "--out"}
# Values of calibrate's text options (no words in the tables to take them from): a mapping
# the side runs, one it does not, a segment ignored; the channels with and without the
# advertising one, and two phases on one channel (refused).
CAL_TEXT = {"--ops": ["kem_keygen,kem_decaps", "kem_encaps", "-,kem_decaps", "kdf"],
            "--phases": ["d0=crypto,d1=radio", "d0=crypto,d1=radio,d2=advertise",
                         "d1=crypto,d0=radio", "d0=crypto,d0=radio"]}


def _fixture(source_dir, name, side=None):
    path = str(source_dir / "tests" / "fixtures" / name)
    return path if side is None else "%s:%s" % (side, path)


def _calibrate_base(source_dir):
    return {"protocol": "study",
            "trace": [_fixture(source_dir, "calibrate/peripheral_1.csv"),
                      _fixture(source_dir, "calibrate/peripheral_2.csv"),
                      _fixture(source_dir, "calibrate/central_1.csv", "central")]}


def _calibrate_grid(cli, source_dir):
    """Each option row of calibrate's tables at its values over three traces, then each
    trace fixture in the configuration that measures it (and the ones that do not parse)."""
    base = _calibrate_base(source_dir)
    requests = []
    for group in _tables(cli, "calibrate"):
        for opt in group["table"]["options"]:
            if opt["name"] in CAL_SKIP:
                continue
            key = opt["name"][2:].replace("-", "_")
            for value in CAL_TEXT.get(opt["name"]) or _values(opt):
                requests.append(dict(base, **{key: value}))
    fx = functools.partial(_fixture, source_dir)
    requests += [
        {"protocol": "pqpan", "trace": [fx("calibrate/peripheral_pqpan.csv"),
                                        fx("calibrate/central_pqpan.csv", "central")]},
        {"protocol": "study", "side": "central", "comm_model": "radio",
         "trace": fx("calibrate/advertise.csv")},
        {"protocol": "study", "side": "central", "trace": fx("calibrate/overlap.csv"),
         "overlap": "concurrent"},
        {"protocol": "study", "side": "central", "overlap": "concurrent",
         "trace": fx("calibrate/concurrent_median.csv")},
        {"protocol": "study", "trace": fx("ppk2/bad_rows.csv")},
        {"protocol": "study", "trace": fx("ppk2/current_only.csv")},
        {"protocol": "study", "trace": fx("calibrate/no_such_file.csv")},
        {"protocol": "study", "trace": fx("calibrate/peripheral_1.csv"), "gamma_comm": 1.2},
    ]
    return requests


def _compare_calibrate(cli, options):
    """pqpan.calibrate(**options) against `pqpan calibrate --format json`: the same dict, or
    the same exit code; the typed rows as many as the JSON's entries, their units given."""
    argv = cli_argv("calibrate", **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = pqpan.calibrate(**options)
            rows = run("calibrate", **options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
        return "refused"
    assert proc.returncode == 0, (argv, proc.stderr)
    want = json.loads(proc.stdout)
    assert got == want, argv
    assert [f["parameter"] for f in rows["fits"]] == [f["parameter"] for f in want["fit"]]
    assert len(rows["points"]) == len(want["residuals"]) and len(rows["traces"]) == len(
        want["traces"]), argv
    for point, residual in zip(rows["points"], want["residuals"]):
        assert round(point["measured_uj"], 3) == residual["measured_uj"], argv
        assert point["residual_uj"] == residual["residual_uj"], argv
    assert got.units["measured_uj"] == "uJ" and got.units["advertise_ms"] == "ms"
    return "equal"


def test_calibrate_grid_equals_the_cli(cli, source_dir):
    """pqpan.calibrate() is `pqpan calibrate --format json`, or its exit code, over a grid
    generated from calibrate's option rows (`pqpan help --json`) on the trace fixtures."""
    requests = _calibrate_grid(cli, source_dir)
    outcomes = [_compare_calibrate(cli, options) for options in requests]
    print("calibrate grid: %d requests, %d equal, %d refused by both"
          % (len(requests), outcomes.count("equal"), outcomes.count("refused")))
    assert len(requests) > 60 and outcomes.count("equal") > 30 and outcomes.count("refused") > 5
    assert {"comm_model", "overlap", "phases", "ops", "kem", "profile"} <= {
        k for r in requests for k in r}


def test_calibrate_csv_and_out_equal_the_cli(cli, source_dir, tmp_path):
    """The CLI's CSV is the RESIDUAL rows through their field table; out= writes the file
    the CLI writes, byte for byte (but the tool's version line, the same build's)."""
    options = _calibrate_base(source_dir)
    csv = cli.run([*cli_argv("calibrate", **options), "--format", "csv"]).stdout.splitlines()
    points = run("calibrate", **options)["points"]
    assert csv[0].split(",") == list(points[0])
    assert len(csv) == len(points) + 1
    for line, point in zip(csv[1:], points):
        cells = line.split(",")
        assert cells[1] == point["file"] and cells[3] == point["quantity"]
        assert float(cells[4]) == round(point["measured_uj"], 3)
    cli.run([*cli_argv("calibrate", **options), "--out", str(tmp_path / "cli.json")])
    pqpan.calibrate(out=str(tmp_path / "py.json"), **options)
    assert (tmp_path / "cli.json").read_bytes() == (tmp_path / "py.json").read_bytes()


def test_calibrate_help_and_errors(cli):
    assert "comm_model" in pqpan.calibrate.__doc__ and "uA" in pqpan.calibrate.__doc__
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.calibrate("x.csv", comm_model="events")
    assert "comm_model" in str(e.value) and "--comm-model" not in str(e.value)
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.calibrate("x.csv", gamma_comm=1.2)
    assert "gamma_comm" in str(e.value)
    with pytest.raises(pqpan.FileError):
        pqpan.calibrate("/nonexistent/trace.csv", protocol="study")
def _compare_mesh(cli, command, options):
    """One --link ble-mesh request: the CLI's JSON members are the run's, its "sides" the
    run's MESH rows; a refused request is refused with the CLI's exit code; a simulated
    provisioning without equal keys (the run's keys_equal false) is printed all the same
    and exits 1, or 0 when it is that no run completed (each timed out; stderr says so)."""
    argv = cli_argv(command, **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        got = run(command, **options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
        return
    keys_equal = got["assumptions"].get("keys_equal")
    assert proc.returncode in ((0, 1) if keys_equal is False else (0,)), (argv, proc.stderr)
    expected, _ = _same_json(got, proc, argv)
    sides = [s["side"] for s in got["sides"]]
    if options.get("bearer") == "network":  # keys between mesh nodes: a relay row past 1 hop
        relay = ["relay"] if int(options.get("hops", 1)) > 1 else []
        assert sides == ["initiator", "responder", *relay, "total"], argv
    else:
        assert sides == ["provisioner", "device", "total"], argv
    assert all(set(py) == set(want) for py, want in zip(got["sides"], expected["sides"])), argv
    assert got["units"]["e_total_uj"] == "uJ" and got["units"]["latency_ms"] == "ms"


@pytest.mark.parametrize("command", ["estimate", "simulate"])
def test_mesh_grid_equals_the_cli(cli, command):
    """Every option row of estimate's / simulate's --link ble-mesh tables (`pqpan help
    --json`) at a few of its values, on each bearer, through the CLI and through pqpan.run
    (simulate with --prov-alg cmac; --runs at 1 but for one lossy request of 3 runs);
    --pcap below."""
    base = {"link": "ble-mesh"}
    if command == "simulate":
        base["prov_alg"] = "cmac"
    requests = _grid(cli, "ble-mesh", command, skip=("--pcap", "--runs"), base=base)
    if command == "simulate":
        requests.append(dict(base, runs=3, per=0.1))
    requests += [dict(r, bearer="pb-gatt") for r in requests if "bearer" not in r] + [
        dict({k: v for k, v in r.items() if k != "prov_alg"}, bearer="network")
        for r in requests if "bearer" not in r]
    names = {key for r in requests for key in r}
    assert {"bearer", "kem", "hybrid", "att_mtu", "pdu_transmissions", "hops", "relays"} <= names
    assert len(requests) > 40, "the option tables gave a grid of %d requests" % len(requests)
    for options in requests:
        _compare_mesh(cli, command, options)


def test_mesh_functions_and_pcap_equal_the_cli(cli, tmp_path):
    """pqpan.estimate_mesh() / simulate_mesh() are the CLI's JSON; --pcap: the run writes
    the CLI's file byte for byte."""
    for fn, command in ((pqpan.estimate_mesh, "estimate"), (pqpan.simulate_mesh, "simulate")):
        options = {"kem": "ML-KEM-1024", "hybrid": "p256", "prov_alg": "cmac"}
        want = cli.json([*cli_argv(command, link="ble-mesh", **options)])
        got = fn(**options)
        assert set(got) == set(want)
        assert [s["side"] for s in got["sides"]] == [s["side"] for s in want["sides"]]
        assert_same(got["sides"][2]["e_total_uj"], want["sides"][2]["e_total_uj"], command)
    for bearer in ("pb-adv", "pb-gatt"):
        cli.run([*cli_argv("simulate", link="ble-mesh", bearer=bearer, prov_alg="cmac",
                           pcap=str(tmp_path / "cli.pcap"))])
        run("simulate", link="ble-mesh", bearer=bearer, prov_alg="cmac",
            pcap=str(tmp_path / "run.pcap"))
        data = (tmp_path / "cli.pcap").read_bytes()
        assert data and data == (tmp_path / "run.pcap").read_bytes(), bearer
    with pytest.raises(pqpan.UsageError, match="att_mtu"):
        pqpan.estimate_mesh(att_mtu=247)


# compare: every option row but --out (a directory: test_compare_out_files), --runs (its
# maximum, 100000 runs a cell, would take minutes: the base's 2 runs and 1 below) and the
# frame; then every other row again with --mesh (the mesh table).
COMPARE_SKIP = {"--out", "--runs"}
COMPARE_BASE = {"runs": 2}


def _command_grid(cli, command, skip, base, per_option=3):
    """Requests of command generated from its option rows: each row (but SKIP and skip) at
    up to per_option of its values, the others at base's or the defaults."""
    requests = []
    for group in _tables(cli, command):
        for opt in group["table"]["options"]:
            if opt["name"] in SKIP or opt["name"] in skip:
                continue
            for value in _values(opt)[:per_option]:
                requests.append(dict(base, **{opt["name"][2:].replace("-", "_"): value}))
    return requests


def _compare_json(cli, command, fn, options):
    """fn(**options) against `pqpan COMMAND ... --format json`: "equal" (every member and
    row, numbers as the CLI prints them) or "refused" (the same exit code)."""
    from conftest import NumberText
    argv = cli_argv(command, **options)
    proc = cli.run([*argv, "--format", "json"], check=False)
    try:
        got = fn(**options)
    except pqpan.PqpanError as e:
        assert proc.returncode == e.exit_code, (argv, proc.stderr, str(e))
        return "refused"
    assert proc.returncode == 0, (argv, proc.stderr)
    want = json.loads(proc.stdout, parse_float=NumberText, parse_int=NumberText)
    assert list(got) == list(want), argv
    assert_same(got, want, " ".join(argv))
    return "equal"


def test_compare_grid_equals_the_cli(cli):
    """pqpan.compare() is the CLI's JSON output (members, and every cell of "rows"), or the
    CLI's exit code, over a grid generated from compare's option rows."""
    requests = _command_grid(cli, "compare", COMPARE_SKIP, COMPARE_BASE) + [{"runs": 1}]
    mesh = _command_grid(cli, "compare", COMPARE_SKIP | {"--mesh"}, {"mesh": True})
    outcomes = [_compare_json(cli, "compare", pqpan.compare, options)
                for options in requests + mesh]
    print("compare grid: %d requests (%d with --mesh), %d equal, %d refused by both"
          % (len(requests + mesh), len(mesh), outcomes.count("equal"),
             outcomes.count("refused")))
    assert outcomes.count("equal") > 40 and outcomes.count("refused") > 0
    assert {"auth", "idle", "backoff", "profile", "seed", "mesh"} <= {
        k for r in requests for k in r}
    assert {"forwarding", "idle", "auth"} <= {k for r in mesh for k in r}


def test_compare_mesh_rows_typed_with_units(cli):
    """pqpan.compare(mesh=True) is the CLI's JSON; its rows are typed, with units, and the
    forwarder is None where a row has none (one hop, BLE Mesh provisioning)."""
    got = pqpan.compare(mesh=True, forwarding="fragment")
    want = cli.json(["compare", "--mesh", "--forwarding", "fragment"])
    assert len(got["rows"]) == len(want["rows"]) == 54
    assert got["table"] == "mesh"
    assert [r["network"] for r in got["rows"][:18]] == ["802154-fragment"] * 8 + [
        "ble-mesh-pb-adv", "ble-mesh-pb-gatt"] + ["ble-mesh-network"] * 8
    assert got["rows"][10]["forwarder_max_uj"] is None
    assert isinstance(got["rows"][11]["forwarder_max_uj"], float)
    assert got["rows"][0]["forwarder_max_uj"] is None
    assert isinstance(got["rows"][1]["forwarder_max_uj"], float)
    assert all(isinstance(r["hops"], int) for r in got["rows"])
    units = run("compare", mesh=True)["units"]
    assert units["latency_ms"] == "ms" and units["forwarder_max_uj"] == "uJ"
    for py, cl in zip(got["rows"], want["rows"]):
        assert_same(py["source_uj"], cl["source_uj"], py["network"])


def test_compare_rows_typed_with_units():
    got = run("compare", runs=2)
    assert [r["link"] for r in got["rows"][:5]] == ["ble-noDLE", "ble-DLE", "802154-0",
                                                   "802154-10", "802154-30"]
    assert got["units"]["energy_uj"] == "uJ" and got["units"]["latency_p90_ms"] == "ms"
    assert all(isinstance(r["nodes"], int) for r in got["rows"])


def test_compare_out_files(cli, tmp_path):
    """out=DIR: the run writes compare.csv (and the figure's data), the same bytes as the
    CLI's --out."""
    py_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    pqpan.compare(runs=2, out=str(py_dir))
    cli.run(["compare", "--runs", "2", "--out", str(cli_dir)])
    for name in ("compare.csv", "compare.dat", "compare.gp"):
        assert (py_dir / name).read_bytes() == (cli_dir / name).read_bytes(), name


def test_compare_errors_name_the_keyword():
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.compare(runs=0)
    assert "runs" in str(e.value) and "--runs" not in str(e.value)
    with pytest.raises(pqpan.UsageError):
        pqpan.compare(att_mtu=247)


def test_reproduce_grid_equals_the_cli(cli):
    """pqpan.reproduce() is the CLI's JSON output (the readings' assumptions, the matrix,
    the headline, the per-mode and the builds' tables), or the CLI's exit code, over a grid
    generated from reproduce's option rows (each at up to three of its values, one reading
    unless the row is --reading)."""
    requests = _command_grid(cli, "reproduce", {"--out"}, {"reading": "defaults"})
    outcomes = [_compare_json(cli, "reproduce", pqpan.reproduce, options)
                for options in requests]
    print("reproduce grid: %d requests, %d equal, %d refused by both"
          % (len(requests), outcomes.count("equal"), outcomes.count("refused")))
    assert outcomes.count("equal") > 10 and outcomes.count("refused") > 0
    assert {"reading", "profile", "currents", "p256_impl"} <= {k for r in requests for k in r}


def test_reproduce_out_files(cli, tmp_path):
    """out=DIR: the run writes the CSV files and the figures' data, the same bytes as the
    CLI's --out."""
    py_dir, cli_dir = tmp_path / "py", tmp_path / "cli"
    pqpan.reproduce(reading="study", out=str(py_dir))
    cli.run(["reproduce", "--reading", "study", "--out", str(cli_dir)])
    for name in ("reproduce.csv", "headline.csv", "modes.csv", "builds.csv", "bars_study.dat",
                 "ll_sweep_study.dat"):
        assert (py_dir / name).read_bytes() == (cli_dir / name).read_bytes(), name


def test_reproduce_errors_name_the_keyword():
    with pytest.raises(pqpan.UsageError) as e:
        pqpan.reproduce(reading="none")
    assert "reading" in str(e.value) and "--reading" not in str(e.value)


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
