"""pqpan.estimate() equals `pqpan estimate --format json` field by field, at the CLI's
printed precision, over a grid of configurations; errors carry the CLI's exit code and,
for errors of the model (not of option parsing), its message."""
import itertools

import pytest

import pqpan
from conftest import assert_same, cli_only
from pqpan.run import _keywords as keywords

# Members of the CLI's JSON that are prose, not figures: pqpan.estimate() gives them too
# since it runs on pqpan_run (before, it left them out), equal to the CLI's.
PROSE_MEMBERS = {"derived_figures", "other_chip_figures", "gamma_source",
                  "setup_assumptions"}


def cli_args(options):
    args = []
    for key, value in options.items():
        opt = "--" + key.replace("_", "-")
        if key in ("encrypted", "ipv6_frag", "allow_unbuildable"):  # flags
            args += [opt] if value else []
        elif key == "gamma_comp":
            for op, g in value.items():
                args += [opt, "%s=%s" % (op, g)]
        elif isinstance(value, bool):
            args += [opt, "on" if value else "off"]
        else:
            args += [opt, str(value)]
    return args


def compare(cli, options):
    expected = cli.json(["estimate", *cli_args(options)])
    got = pqpan.estimate(**options)
    assert PROSE_MEMBERS <= set(expected) and PROSE_MEMBERS <= set(got)
    for key in cli_only([k for k in got if k != "sides"], [k for k in expected if k != "sides"],
                        str(options)):
        assert_same(got[key], expected[key], str(options) + ": " + key)
    for side in expected["sides"]:
        assert_same(got[side["side"]], side, str(options) + ": " + side["side"])


GRID = [dict(kem=k, phy=p, ll_octets=ll, profile=prof)
        for prof, k, p, ll in itertools.product(
            ("nrf52840", "nrf54l15", "cc2340r5"),
            ("ML-KEM-512", "ML-KEM-768", "ML-KEM-1024", "LESC-P256"),
            ("1M", "2M", "S8"), (27, 251))]

VARIANTS = [
    dict(protocol="pqpan"),
    dict(protocol="pqpan", auth="psk", kem="ML-KEM-512"),
    dict(protocol="pqpan", auth="kem-auth-mutual", ll_octets=251, phy="2M"),
    dict(protocol="pqpan", auth="numeric", transfer="indicate/write-req", att_mtu=247),
    dict(transfer="notify/write-cmd", att_mtu=517, ll_octets=251),
    dict(transfer="indicate/write-cmd", att_mtu=185, ll_octets=100, phy="S2",
         keygen_side="central"),
    dict(transfer="notify/long-write", att_mtu=23),
    dict(keygen_side="central", gatt_server="central", encrypted=True, ci_ms=7.5),
    dict(transfer="write-cmd", att_mtu=185, allow_unbuildable=True),
    dict(ci_ms=1000, reply="same-event", max_pdus_per_event=4, event_len_ms=3.75),
    dict(max_tx_time_us=1064, ll_octets=251, phy="2M"),
    dict(adv_interval_ms=0, features=False, conn_update=False, discovery=False),
    dict(adv_interval_ms=1000.625, initial_ci_ms=7.5),
    dict(currents="radio-only", tx_dbm=0, profile="nrf52840"),
    dict(tx_dbm=8, ramp="normal"),
    dict(crypto_impl="m4fspeed", kem="ML-KEM-1024"),
    dict(crypto_impl="m4fstack", protocol="pqpan"),
    dict(gamma_comm=1.0, gamma_comp={"kem_keygen": 1.0, "kem_decaps": 2.5}),
]


@pytest.mark.parametrize("options", GRID, ids=lambda o: "-".join(map(str, o.values())))
def test_grid_equals_cli(cli, options):
    compare(cli, options)


@pytest.mark.parametrize("options", VARIANTS, ids=lambda o: "-".join(map(str, o.values())))
def test_variants_equal_cli(cli, options):
    compare(cli, options)


def test_calibration_file_equals_cli(cli, source_dir):
    compare(cli, dict(calibration=str(source_dir / "tests/fixtures/calibration/good.json")))


def test_issue_example(cli):
    """The issue's check: the same number as `pqpan estimate --format json`."""
    expected = cli.json(["estimate"])["sides"][0]
    assert expected["side"] == "peripheral"
    assert format(pqpan.estimate()["peripheral"]["e_total_uj"], ".3f") == expected["e_total_uj"]


# Errors: (options, whether the CLI's message is the model's, which the package repeats).
ERRORS = [
    (dict(currents="radio-only", tx_dbm=8), True),
    (dict(currents="radio-only", profile="cc2340r5"), True),
    (dict(transfer="study", att_mtu=247), True),
    # what GATT cannot build (Core v5.4 Vol 3 Part G §2.2), refused with estimate's message
    (dict(transfer="notify"), True),
    (dict(transfer="long-write", protocol="pqpan", auth="numeric"), True),
    (dict(keygen_side="central"), True),
    (dict(gatt_server="central"), True),
    # a link that cannot hold (pqpan_ble_config_fault), refused with estimate's message
    (dict(ci_ms=10.1), True),
    (dict(initial_ci_ms=31), True),
    (dict(ci_ms=10, event_len_ms=12), True),
    (dict(kem="ML-KEM-1024", phy="S8", ci_ms=7.5, ll_octets=251), True),
    (dict(kem="ML-KEM-1024", phy="S8", ci_ms=100, ll_octets=251, event_len_ms=2), True),
    (dict(crypto_impl="nosuch"), True),
    (dict(att_mtu=22), False),
    (dict(ll_octets=252), False),
    (dict(ci_ms=4001), False),
    (dict(kem="ML-KEM-2048"), False),
    (dict(phy="3M"), False),
    (dict(protocol="study", auth="psk"), False),
    (dict(adv_interval_ms=20.1), False),
    (dict(tx_dbm=41), False),
    (dict(gamma_comm=0), False),
    (dict(profile="nosuch"), False),
    (dict(profile="/nonexistent/profile.json"), False),
]


@pytest.mark.parametrize("options,same_message", ERRORS,
                         ids=lambda o: "-".join(map(str, o.values())) if isinstance(o, dict)
                         else str(o))
def test_errors_equal_cli(cli, options, same_message):
    proc = cli.run(["estimate", *cli_args(options), "--format", "json"], check=False)
    assert proc.returncode != 0 and proc.stdout == ""
    with pytest.raises(pqpan.PqpanError) as info:
        pqpan.estimate(**options)
    assert info.value.exit_code == proc.returncode, (info.value, proc.stderr)
    assert info.value.code < 0
    if same_message:  # the CLI's message with its options named as keyword arguments
        assert "pqpan estimate: " + info.value.message == \
            keywords(proc.stderr.splitlines()[0]), (info.value.message, proc.stderr)


def test_words_in_any_case_are_the_clis(cli):
    """Words are matched ignoring case, as the CLI does (`--phy 2m`): the same result, with
    the canonical spellings, and the CLI's for the same words."""
    mixed = dict(kem="ml-kem-768", phy="2m", transfer="NOTIFY/Write-Cmd", protocol="PQPAN",
                 auth="PSK",
                 currents="SYSTEM", ramp="Fast", reply="Same-Event")
    canonical = dict(kem="ML-KEM-768", phy="2M", transfer="notify/write-cmd", protocol="pqpan",
                     auth="psk", currents="system", ramp="fast", reply="same-event")
    got = pqpan.estimate(**mixed)
    assert got == pqpan.estimate(**canonical)
    assert got["sides"][0]["phy"] == "2M" and got["sides"][0]["kem"] == "ML-KEM-768"
    compare(cli, mixed)


def test_encrypted_words_are_the_sweeps(cli):
    """encrypted takes True/False or the run layer's flag words (on/off, yes/no, true/false,
    1/0, any case; docs/RUN.md): "off" is not encrypted. Before, any non-empty string
    counted as True, so encrypted="off" silently gave the encrypted figure (issue 28)."""
    for word, flag in (("off", False), ("OFF", False), ("on", True), ("no", False),
                       ("yes", True), (0, False), (1, True)):
        expected = cli.json(["estimate", *cli_args(dict(encrypted=flag))])
        got = pqpan.estimate(encrypted=word)
        for side in expected["sides"]:
            assert_same(got[side["side"]], side, "encrypted=%r: %s" % (word, side["side"]))
    # sweep() runs on pqpan_run "sweep" as the CLI: a flag takes one word there (on / off),
    # not a list (`pqpan sweep --encrypted on,off` exits 2: tests/cli/sweep_flag_list)
    energies = []
    for word in ("off", "on"):
        rows = pqpan.sweep(encrypted=word)
        energies += list(rows["peripheral_e_total_uj"]) if hasattr(rows, "columns") else \
            [r["peripheral_e_total_uj"] for r in rows]
    assert energies[0] < energies[1]
    with pytest.raises(pqpan.UsageError, match="encrypted is a flag"):
        pqpan.sweep(encrypted=["off", "on"])
    for bad in ("maybe", 2, "of"):
        with pytest.raises(pqpan.UsageError, match="encrypted"):
            pqpan.estimate(encrypted=bad)


def test_issue28_words_and_sig_equal_cli(cli):
    """issue 28 item 2: pqpan.estimate() is the CLI for the requests the issue names:
    encrypted="off" is `pqpan estimate` without the flag --encrypted (the unencrypted link;
    the CLI's flag takes no value on the command line), and auth="sig-mutual" with
    sig="ML-DSA-65" is accepted and priced as the CLI prices it."""
    for options, args in ((dict(encrypted="off"), []),
                          (dict(auth="sig-mutual", sig="ML-DSA-65"),
                           ["--auth", "sig-mutual", "--sig", "ML-DSA-65"])):
        expected = cli.json(["estimate", *args])
        got = pqpan.estimate(**options)
        for side in expected["sides"]:
            assert_same(got[side["side"]], side, "%s: %s" % (options, side["side"]))


def test_profile_object_is_its_file(cli, source_dir, tmp_path):
    """A Profile passes as its file (or, built in, its name), the CLI's --profile; one parsed
    from bytes has no file and is refused naming the keyword argument."""
    path = tmp_path / "mine.json"
    path.write_bytes((source_dir / "data/profiles/nrf54l15.json").read_bytes())
    for profile, arg in ((pqpan.load_profile(str(path)), str(path)),
                         (pqpan.load_profile("cc2340r5"), "cc2340r5")):
        expected = cli.json(["estimate", "--profile", arg])
        got = pqpan.estimate(profile=profile)
        assert got["profile"] == expected["profile"]
        for side in expected["sides"]:
            assert_same(got[side["side"]], side, "%s: %s" % (arg, side["side"]))
    parsed = pqpan.data.parse_profile(path.read_bytes(), "(bytes)")
    with pytest.raises(pqpan.UsageError, match="^profile: a Profile read from"):
        pqpan.estimate(profile=parsed)
