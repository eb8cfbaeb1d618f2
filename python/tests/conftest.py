"""Shared fixtures: the CLI to compare with (PQPAN_CLI, else the source tree's build/pqpan)
and the repository (PQPAN_SOURCE_DIR, else two levels up). The tests fail, not skip, when the
CLI is missing: equality with it is what they check."""
import json
import os
import subprocess
import warnings
from pathlib import Path

import pytest

SOURCE_DIR = Path(os.environ.get("PQPAN_SOURCE_DIR", Path(__file__).resolve().parents[2]))


def _cli_path():
    path = Path(os.environ.get("PQPAN_CLI", SOURCE_DIR / "build" / "pqpan"))
    if not path.is_file():
        pytest.fail("the pqpan CLI is not at %s: build it (make build) or set PQPAN_CLI" % path)
    return str(path)


class Cli:
    """Runs `pqpan ARGS`; JSON numbers kept as their text (to compare at the CLI's
    precision)."""

    def __init__(self, path):
        self.path = path

    def run(self, args, check=True):
        proc = subprocess.run([self.path, *args], capture_output=True, encoding="utf-8",
                              errors="surrogateescape")
        if check and proc.returncode != 0:
            raise AssertionError("pqpan %s: exit %d: %s" % (" ".join(args), proc.returncode,
                                                            proc.stderr))
        return proc

    def json(self, args):
        out = self.run([*args, "--format", "json"]).stdout
        return json.loads(out, parse_float=NumberText, parse_int=NumberText)


class NumberText(str):
    """A JSON number as the CLI printed it."""


def same_number(py, text):
    """True if py printed with the CLI's decimals is the CLI's text (a float the CLI prints
    with %.17g and no decimals, e.g. 0, must equal it exactly)."""
    if "." in text:
        decimals = len(text.split(".", 1)[1])
        return format(float(py), ".%df" % decimals) == text
    return float(py) == float(text) if isinstance(py, float) else str(int(py)) == text


def cli_only(py_keys, cli_keys, where):
    """Fields the CLI prints that the package does not produce: a warning, not a failure,
    so that a field another change adds to the CLI does not block it; every field the
    package does produce must be the CLI's (docs/PYTHON.md "Tests")."""
    missing = [k for k in cli_keys if k not in py_keys]
    if missing:
        warnings.warn("%s: fields of the CLI the package does not produce: %s"
                      % (where, ", ".join(missing)))
    extra = [k for k in py_keys if k not in cli_keys]
    assert not extra, "%s: fields the CLI does not print: %s" % (where, extra)
    return [k for k in cli_keys if k in py_keys]


def assert_same(py, cli, where):
    """Field-by-field equality of a Python value with the CLI's JSON value."""
    if isinstance(cli, NumberText):
        assert isinstance(py, (int, float)) and not isinstance(py, bool), (where, py, cli)
        assert same_number(py, cli), "%s: python %r, CLI %s" % (where, py, cli)
    elif isinstance(cli, dict):
        assert isinstance(py, dict), (where, py)
        for k in cli_only(list(py), list(cli), where):
            assert_same(py[k], cli[k], "%s.%s" % (where, k))
    elif isinstance(cli, list):
        assert len(py) == len(cli), (where, len(py), len(cli))
        for i, (a, b) in enumerate(zip(py, cli)):
            assert_same(a, b, "%s[%d]" % (where, i))
    else:
        assert py == cli, "%s: python %r, CLI %r" % (where, py, cli)


@pytest.fixture(scope="session")
def cli():
    return Cli(_cli_path())


@pytest.fixture(scope="session")
def source_dir():
    return SOURCE_DIR
