"""The package's data loading (pqpan/data.py over libpqpan-io, the loaders the CLI uses)
against the CLI's, and the library's PPK2 parser through pqpan.trace() against
`pqpan trace`: the fuzz corpora (tests/fuzz/corpus), the test fixtures and
systematic mutations of a built-in profile give the same verdict, the same message and
exit code, and, when accepted, the same figures. No input crashes the interpreter."""
import copy
import json
import math
import random

import pytest

import pqpan
from pqpan import data

PROFILE_PROSE = "pqpan profiles: "


def cli_profile(cli, path):
    proc = cli.run(["profiles", "show", str(path), "--format", "json"], check=False)
    return proc.returncode, proc.stdout, proc.stderr


def py_profile(path):
    try:
        return 0, pqpan.load_profile(str(path)), ""
    except pqpan.PqpanError as exc:
        return exc.exit_code, None, exc.message


def same_verdict_profile(cli, path):
    code, out, err = cli_profile(cli, path)
    py_code, profile, message = py_profile(path)
    assert py_code == code, (path, err, message)
    if code != 0:
        assert err.strip() == PROFILE_PROSE + message, path
        return False
    expected = json.loads(out)
    assert profile.name == expected["name"]
    assert pqpan._lib.ffi.string(profile.struct.description) == \
        expected["description"].encode("utf-8", "surrogateescape")
    got = profile.figures()
    assert [f["field"] for f in got] == [f["field"] for f in expected["figures"]], path
    for g, e in zip(got, expected["figures"]):
        assert g == e, (path, g, e)
    return True


def corpus(source_dir, name):
    files = sorted((source_dir / "tests/fuzz/corpus" / name).iterdir())
    assert files, name
    return files


def test_profile_corpus_and_fixtures(cli, source_dir):
    files = corpus(source_dir, "profile") + sorted(
        (source_dir / "tests/fixtures/profiles").glob("*.json"))
    verdicts = [same_verdict_profile(cli, f) for f in files]
    assert True in verdicts and False in verdicts


def test_builtin_profiles_equal_cli(cli, source_dir):
    for name in data.builtin_profiles():
        assert same_verdict_profile(cli, source_dir / "data/profiles" / (name + ".json"))


def _figure_paths(node, path=()):
    if isinstance(node, dict):
        if "value" in node and "source" in node:
            yield path
            return
        for k, v in node.items():
            yield from _figure_paths(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _figure_paths(v, path + (i,))


def _at(doc, path):
    for p in path:
        doc = doc[p]
    return doc


def mutations(text):
    """Deterministic damage to a valid profile: every figure's value replaced by null,
    -1, 0, a string, 1e11, a non-integer, the figure's source removed, an unknown member
    added; sections removed; text cut; duplicate keys, trailing bytes, NaN, bad UTF-8."""
    doc = json.loads(text)
    for path in _figure_paths(doc):
        for change in ("null", "neg", "zero", "str", "huge", "frac", "nosource", "extra"):
            d = copy.deepcopy(doc)
            fig = _at(d, path)
            if change == "nosource":
                del fig["source"]
            elif change == "extra":
                fig["unit"] = "uA"
            else:
                fig["value"] = {"null": None, "neg": -1, "zero": 0, "str": "1", "huge": 1e11,
                                "frac": 0.4}[change]
            yield json.dumps(d).encode()
    for key in list(doc):
        d = copy.deepcopy(doc)
        del d[key]
        yield json.dumps(d).encode()
    raw = text.encode()
    for cut in range(0, len(raw), max(1, len(raw) // 25)):
        yield raw[:cut]
    yield raw + b"  trailing"
    yield raw.replace(b'"name"', b'"name": "x", "name"', 1)
    yield raw.replace(b'"value": 3.0', b'"value": NaN', 1)
    yield raw.replace(b'"description": "', b'"description": "\xff\xfe', 1)
    yield raw.replace(b'"value": 3.0', b'"value": 3.0e400', 1)


def test_profile_mutations_equal_cli(cli, source_dir, tmp_path):
    text = (source_dir / "data/profiles/nrf52840.json").read_text()
    accepted = rejected = 0
    for i, blob in enumerate(mutations(text)):
        path = tmp_path / ("m%04d.json" % i)
        path.write_bytes(blob)
        if same_verdict_profile(cli, path):
            accepted += 1
        else:
            rejected += 1
    assert accepted > 10 and rejected > 250, (accepted, rejected)


def test_calibration_fixtures_equal_cli(cli, source_dir):
    for path in sorted((source_dir / "tests/fixtures/calibration").glob("*.json")):
        proc = cli.run(["estimate", "--calibration", str(path), "--format", "json"],
                       check=False)
        try:
            got = pqpan.estimate(calibration=str(path))
            assert proc.returncode == 0, path
            expected = json.loads(proc.stdout)
            assert got["gamma_comm"] == expected["gamma_comm"] or \
                format(got["gamma_comm"], ".4f") == format(expected["gamma_comm"], ".4f")
        except pqpan.PqpanError as exc:
            assert exc.exit_code == proc.returncode, (path, proc.stderr)
            # The same file and field ("FILE: FIELD: problem"); the problem's wording is
            # the CLI's to change (gamma bounds).
            where = ": ".join(exc.message.split(": ")[:2])
            assert proc.stderr.startswith("pqpan estimate: " + where + ": "), proc.stderr


def test_cycles_corpus_never_crashes(source_dir):
    results = set()
    for path in corpus(source_dir, "cycles"):
        table = pqpan._lib.ffi.new("struct pqpan_cycle_table *")
        try:
            data.parse_cycles(table, path.read_bytes(), path.name)
            results.add("ok")
            assert table.count <= 256
        except pqpan.DataError as exc:
            results.add("bad")
            assert exc.message.startswith(path.name + ": line ")
            assert table.count == 0  # nothing half-added
    assert results == {"ok", "bad"}


def c_round(x, scale):
    """C's round(x * scale) / scale (halves away from zero), -0 as 0: cli/trace.c."""
    v = math.floor(abs(x) * scale + 0.5) / scale
    v = -v if x < 0 else v
    return 0.0 if v == 0 else v


def same_trace(cli, path, args, kwargs):
    proc = cli.run(["trace", str(path), *args, "--format", "json"], check=False)
    try:
        got = pqpan.trace(str(path), **kwargs)
    except pqpan.PqpanError as exc:
        assert exc.exit_code == proc.returncode != 0, (path, proc.stderr, exc)
        assert proc.stderr.splitlines()[0] == "pqpan trace: " + exc.cli_message
        return False
    assert proc.returncode == 0, (path, proc.stderr)
    expected = json.loads(proc.stdout)
    for key in ("rows_read", "rows_skipped", "baseline_source", "quantile_rel_error",
                "quantile_abs_error_ua"):
        assert got[key] == expected[key], (path, key)
    for key in ("voltage_v", "baseline_ua", "min_interval_ms", "max_interval_ms"):
        assert c_round(got[key], 1e6) == expected[key], (path, key)
    for g, e in zip([got["total"]] + got["phases"], [expected["total"]] + expected["phases"]):
        assert set(g) == set(e)
        for key in e:
            want = e[key]
            value = g[key] if isinstance(g[key], (int, str)) else c_round(g[key], 1e3)
            assert value == want, (path, g["phase"], key, g[key], want)
    assert len(got["phases"]) == len(expected["phases"])
    return True


def test_ppk2_corpus_and_fixtures_equal_cli(cli, source_dir):
    files = corpus(source_dir, "ppk2") + sorted((source_dir / "tests/fixtures/ppk2").glob("*"))
    verdicts = set()
    for path in files:
        verdicts.add(same_trace(cli, path, [], {}))
        verdicts.add(same_trace(cli, path, ["--lenient", "--phases", "d0=crypto,d1=radio",
                                            "--baseline-ua", "auto"],
                                dict(lenient=True, phases={0: "crypto", 1: "radio"},
                                     baseline_ua="auto")))
        verdicts.add(same_trace(cli, path, ["--window", "w=0.5:3", "--voltage", "1.8"],
                                dict(windows={"w": (0.5, 3)}, voltage=1.8)))
    assert verdicts == {True, False}


def test_kem_corpus_never_crashes(source_dir):
    """The ML-KEM decapsulation corpus, cut into keys and ciphertexts of every parameter
    set: wrong lengths are DataError, keys failing FIPS 203 §7.3 are PqpanError
    (PQPAN_ERR_BAD_KEY), the rest decapsulate."""
    outcomes = set()
    for path in corpus(source_dir, "mlkem_decaps"):
        blob = path.read_bytes()
        for name in pqpan.kem.NAMES:
            p = pqpan.kem.params(name)
            for dk_len in (p["dk_bytes"], len(blob) // 2):
                dk, ct = blob[:dk_len], blob[dk_len:dk_len + p["ct_bytes"]]
                try:
                    assert len(pqpan.kem.decaps(dk, ct, name)) == 32
                    outcomes.add("ok")
                except pqpan.PqpanError as exc:
                    outcomes.add(exc.name)
                pqpan.kem.check_ek(blob[:p["ek_bytes"]], name)
    assert "PQPAN_ERR_BAD_LENGTH" in outcomes


@pytest.mark.filterwarnings("ignore::UserWarning")  # bad rows skipped: said, expected
def test_random_bytes_never_crash_the_loaders(tmp_path):
    rng = random.Random(16)
    for i in range(200):
        blob = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
        for parse in (lambda b: data.parse_profile(b, "x"),
                      lambda b: data.parse_cycles(
                          pqpan._lib.ffi.new("struct pqpan_cycle_table *"), b, "x"),
                      lambda b: data.parse_calibration(
                          pqpan._lib.ffi.new("struct pqpan_gamma *"), b, "x")):
            try:
                parse(blob)
            except pqpan.DataError:
                pass
        path = tmp_path / ("r%d.csv" % i)
        path.write_bytes(b"Timestamp(ms),Current(uA)\n" + blob)
        try:
            pqpan.trace(str(path), lenient=bool(i % 2))
        except pqpan.DataError:
            pass
