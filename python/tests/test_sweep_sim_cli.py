"""pqpan.sweep(), pqpan.simulate(), pqpan.estimate_802154() and pqpan.simulate_802154()
against the CLI's outputs for the same inputs: `pqpan sweep --format jsonl` row by row and
column by column (names and order), `pqpan simulate` / `estimate --link 802154` /
`simulate --link 802154` --format json field by field at the CLI's precision."""
import json

import pytest

import pqpan
from conftest import NumberText, assert_same, cli_only
from test_estimate_cli import cli_args, keywords

PANDAS = pytest.importorskip("pandas", reason="python3-pandas (scripts/deps.sh) is needed "
                                               "for the DataFrame form")


def cli_sweep(cli, options, link=None):
    args = ["sweep", "--format", "jsonl"] + (["--link", link] if link else [])
    for key, values in options.items():
        args += ["--" + key.replace("_", "-"), ",".join(str(v) for v in values)]
    out = cli.run(args).stdout
    return [json.loads(line, object_pairs_hook=list, parse_float=NumberText,
                       parse_int=NumberText) for line in out.splitlines()]


def compare_sweep(cli, options, link=None):
    expected = cli_sweep(cli, options, link)
    got = pqpan.sweep(link=link, **options)
    assert isinstance(got, PANDAS.DataFrame)
    assert len(got) == len(expected) > 1
    columns = cli_only(list(got.columns), [k for k, _ in expected[0]], "sweep")
    assert list(got.columns) == columns  # the CLI's order
    statuses = set()
    for (_, row), cli_row in zip(got.iterrows(), expected):
        statuses.add(row["status"] == "ok")
        for key, value in cli_row:
            if key not in columns:
                continue
            where = "config %s %s" % (row["config"], key)
            if key.startswith("in_"):
                assert str(row[key]) == value or float(row[key]) == float(value), where
            elif value is None:
                assert PANDAS.isna(row[key]), where
            else:
                py = row[key].item() if hasattr(row[key], "item") else row[key]
                assert_same(py, value, where)
    return statuses


def test_sweep_equals_cli(cli):
    statuses = compare_sweep(cli, dict(profile=["nrf52840", "cc2340r5"],
                                       currents=["system", "radio-only"],
                                       kem=["ML-KEM-512", "LESC-P256"],
                                       att_mtu=[247, 403], ll_octets=[27, 251]))
    assert statuses == {True, False}  # both valid and invalid configurations compared


def test_sweep_802154_equals_cli(cli):
    compare_sweep(cli, dict(kem=["ML-KEM-512", "ML-KEM-1024"], busy=[0, 0.3],
                            idle=["listen", "sleep"]), link="802154")


def test_sweep_per_equals_cli(cli):
    """per: the Monte Carlo's columns, run by the library as the CLI runs them."""
    statuses = compare_sweep(cli, dict(per=[0, 0.2], runs=[3], seed=[5],
                                       kem=["ML-KEM-512", "LESC-P256"], att_mtu=[23, 517]))
    assert statuses == {True, False}


def test_sweep_chain_equals_cli(cli):
    """hops / forwarding on 802.15.4: the chain's columns (invalid with a sleeping radio)."""
    statuses = compare_sweep(cli, dict(hops=[1, 3], forwarding=["reassemble", "fragment"],
                                       idle=["listen", "sleep"]), link="802154")
    assert statuses == {True, False}


def test_sweep_without_pandas_is_a_list(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_pandas(name, *args, **kwargs):
        if name == "pandas":
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pandas)
    rows = pqpan.sweep(kem=["ML-KEM-512", "ML-KEM-768"])
    assert isinstance(rows, list) and [r["in_kem"] for r in rows] == ["ML-KEM-512",
                                                                       "ML-KEM-768"]
    assert rows[1]["peripheral_e_total_uj"] == pqpan.estimate("ML-KEM-768")["peripheral"][
        "e_total_uj"]


def test_sweep_refuses_an_option_out_of_range():
    with pytest.raises(pqpan.UsageError):
        pqpan.sweep(kem=["ML-KEM-512"], att_mtu=[403, 600])


SIM_CASES = [
    dict(per=0.1),
    dict(per=0.3, seed=7, kem="ML-KEM-512", ll_octets=251),
    dict(transport="l2cap-coc", phy="2M"),
    dict(protocol="study", per=0.05, seed=3),
    dict(ber=0.0001, adv_case="mean", auth="psk"),
    dict(per=0.95, seed=2, supervision_timeout_ms=100, ci_ms=30),
    dict(kem="LESC-P256"),
    dict(kem="LESC-P256", per=0.2, seed=5, ll_octets=251, phy="2M"),
]


def compare_json(expected, got, prose, extra=()):
    assert prose <= set(expected) and not prose & set(got)
    assert set(extra) <= set(got)
    keys = cli_only([k for k in got if k not in extra],
                    [k for k in expected if k not in prose], "result")
    for key in keys:
        if key == "sides":
            for side in expected["sides"]:
                assert_same(got[side["side"]], side, side["side"])
        else:
            assert_same(got[key], expected[key], key)


@pytest.mark.parametrize("options", SIM_CASES, ids=str)
def test_simulate_equals_cli(cli, options):
    proc = cli.run(["simulate", *cli_args(options), "--format", "json"], check=False)
    expected = json.loads(proc.stdout, parse_float=NumberText, parse_int=NumberText)
    got = pqpan.simulate(**options)
    compare_json(expected, got, set(), extra={"succeeded"})  # every member, prose too
    assert got["succeeded"] == (proc.returncode == 0)


LOWPAN_CASES = [
    dict(),
    dict(kem="ML-KEM-512", busy=0.5, csma="contiki", addr="short"),
    dict(idle="sleep", backoff="sleep", mac_security="enc-mic32"),
    dict(mac_security="mic128", key_id_mode=3, kem="ML-KEM-1024", tx_dbm=0),
    dict(auth="psk"),
    dict(auth="kem-auth", kem="ML-KEM-512"),
    dict(auth="kem-auth-mutual", kem="ML-KEM-1024", busy=0.2),
    dict(auth="numeric", idle="sleep", backoff="sleep"),
    dict(kem="ML-KEM-1024", ipv6_frag=True),
    dict(auth="kem-auth-mutual", ipv6_frag=True, addr="short"),
    dict(auth="sig-mutual", sig="ML-DSA-44"),
]


@pytest.mark.parametrize("options", LOWPAN_CASES, ids=str)
def test_estimate_802154_equals_cli(cli, options):
    expected = cli.json(["estimate", "--link", "802154", *cli_args(options)])
    compare_json(expected, pqpan.estimate_802154(**options), set())  # every member, prose too


@pytest.mark.parametrize("options", [dict(runs=20), dict(runs=10, nodes=6, load=40, seed=9,
                                                         hidden=2, capture="first"),
                                     dict(runs=5, idle="sleep", kem="ML-KEM-512"),
                                     dict(runs=5, auth="kem-auth-mutual"),
                                     dict(runs=3, kem="ML-KEM-1024", ipv6_frag=True),
                                     dict(runs=3, hops=3),
                                     dict(runs=2, hops=4, forwarding="fragment",
                                          kem="ML-KEM-512")], ids=str)
def test_simulate_802154_equals_cli(cli, options):
    expected = cli.json(["simulate", "--link", "802154", *cli_args(options)])
    compare_json(expected, pqpan.simulate_802154(**options), set())  # every member, prose too


@pytest.mark.parametrize("options", [dict(profile="nrf54l15"), dict(currents="radio-only"),
                                     dict(idle="sleep", profile="cc2340r5")], ids=str)
def test_802154_errors_equal_cli(cli, options):
    proc = cli.run(["estimate", "--link", "802154", *cli_args(options)], check=False)
    with pytest.raises(pqpan.PqpanError) as info:
        pqpan.estimate_802154(**options)
    assert info.value.exit_code == proc.returncode != 0
    assert keywords(proc.stderr.splitlines()[0]) == "pqpan estimate: " + info.value.message


def test_simulate_signs_as_the_cli(cli):
    """simulate() runs on pqpan_run, so the sig modes are simulated as the CLI simulates
    them (the package's own simulator refused them)."""
    argv = ["simulate", "--auth", "sig-mutual", "--sig", "ML-DSA-65", "--format", "json"]
    compare_json(cli.json(argv), pqpan.simulate(auth="sig-mutual", sig="ML-DSA-65"), set(),
                 extra={"succeeded"})


def test_simulate_802154_signs_as_the_cli(cli):
    """simulate_802154() runs on pqpan_run, so the sig modes are simulated as the CLI
    simulates them (the package's own Monte Carlo refused them)."""
    argv = ["simulate", "--link", "802154", "--runs", "1", "--auth", "sig", "--sig",
            "ML-DSA-44", "--format", "json"]
    compare_json(cli.json(argv), pqpan.simulate_802154(runs=1, auth="sig", sig="ML-DSA-44"),
                 set())


def test_estimate_802154_warns_as_the_cli(cli):
    """The run's WARNING row (the CLI's `warning:` line on stderr) is a UserWarning naming
    the keyword argument."""
    proc = cli.run(["estimate", "--link", "802154", "--busy", "0.99"])
    assert "warning: with --busy 0.99" in proc.stderr
    with pytest.warns(UserWarning, match="^with busy 0.99 every frame"):
        pqpan.estimate_802154(busy=0.99)
