"""The package's keyword defaults are the CLI's option defaults (`pqpan help --json`): both
read the library's table of defaults (include/pqpan/defaults.h, pqpan.defaults), so a
keyword argument and the option of the same name start from the same value."""
import inspect
import json

import pytest

import pqpan

# (function, the CLI command whose options its keywords are, the link of those options)
FUNCTIONS = [
    (pqpan.estimate, "estimate", "ble"),
    (pqpan.simulate, "simulate", "ble"),
    (pqpan.estimate_802154, "estimate", "802154"),
    (pqpan.simulate_802154, "simulate", "802154"),
    (pqpan.trace, "trace", None),
]


@pytest.fixture(scope="module")
def help_json(cli):
    return json.loads(cli.run(["help", "--json"]).stdout)


def cli_defaults(help_json, command, link):
    """{option: default value} of command's options on link (None: both)."""
    c = next(c for c in help_json["commands"] if c["name"] == command)
    return {o["name"]: o["default"] for g in c["groups"] if link is None or
            g["link"] in (None, link) for o in g["table"]["options"]}


def as_option_text(value):
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)


@pytest.mark.parametrize("fn,command,link", FUNCTIONS,
                         ids=[f[0].__name__ for f in FUNCTIONS])
def test_keyword_defaults_are_the_cli_defaults(help_json, fn, command, link):
    defaults = cli_defaults(help_json, command, link)
    compared = []
    for name, p in inspect.signature(fn).parameters.items():
        option = "--" + name.replace("_", "-")
        if p.default is inspect.Parameter.empty or defaults.get(option) is None:
            continue
        want = defaults[option]
        if isinstance(p.default, (int, float)) and not isinstance(p.default, bool):
            assert float(p.default) == float(want), (fn.__name__, name, p.default, want)
        else:
            assert as_option_text(p.default) == want, (fn.__name__, name, p.default, want)
        compared.append(name)
    assert len(compared) >= 2, (fn.__name__, compared)


def test_table_is_the_clis(help_json):
    """pqpan.defaults.table() is `pqpan help --json`'s "defaults", row for row."""
    assert pqpan.defaults.table() == help_json["defaults"]


def test_protocol_default_is_pqpan_in_every_face(help_json):
    """estimate and simulate (and so the package) run pqpan's protocol by default; the
    study's is protocol="study" (docs/CLI.md "Defaults")."""
    assert inspect.signature(pqpan.estimate).parameters["protocol"].default == "pqpan"
    assert cli_defaults(help_json, "estimate", "ble")["--protocol"] == "pqpan"
    assert cli_defaults(help_json, "simulate", "ble")["--protocol"] == "pqpan"
    assert pqpan.estimate()["sides"][0]["protocol"] == "pqpan"
