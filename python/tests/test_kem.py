"""pqpan.kem against NIST's ACVP vectors (tests/vectors/acvp, FIPS 203), and its errors."""
import json

import pytest

import pqpan
from pqpan import kem


def groups(source_dir, name):
    path = source_dir / "tests/vectors/acvp" / name / "internalProjection.json"
    return json.loads(path.read_text())["testGroups"]


def test_keygen_matches_acvp(source_dir):
    n = 0
    for g in groups(source_dir, "ML-KEM-keyGen-FIPS203"):
        for t in g["tests"]:
            ek, dk = kem.keygen(g["parameterSet"], d=bytes.fromhex(t["d"]),
                                z=bytes.fromhex(t["z"]))
            assert ek.hex().upper() == t["ek"].upper()
            assert dk.hex().upper() == t["dk"].upper()
            n += 1
    assert n >= 75


def test_encaps_decaps_match_acvp(source_dir):
    counts = {"encapsulation": 0, "decapsulation": 0}
    for g in groups(source_dir, "ML-KEM-encapDecap-FIPS203"):
        ps = g["parameterSet"]
        for t in g["tests"]:
            if g["function"] == "encapsulation":
                ct, ss = kem.encaps(bytes.fromhex(t["ek"]), ps, m=bytes.fromhex(t["m"]))
                assert (ct.hex().upper(), ss.hex().upper()) == (t["c"].upper(), t["k"].upper())
            elif g["function"] == "decapsulation":
                ss = kem.decaps(bytes.fromhex(t["dk"]), bytes.fromhex(t["c"]), ps)
                assert ss.hex().upper() == t["k"].upper()
            elif g["function"] == "encapsulationKeyCheck":
                assert kem.check_ek(bytes.fromhex(t["ek"]), ps) == t["testPassed"]
                continue
            elif g["function"] == "decapsulationKeyCheck":
                assert kem.check_dk(bytes.fromhex(t["dk"]), ps) == t["testPassed"]
                continue
            counts[g["function"]] += 1
    assert counts["encapsulation"] >= 75 and counts["decapsulation"] >= 30


@pytest.mark.parametrize("name", kem.NAMES)
def test_round_trip_random(name):
    ek, dk = kem.keygen(name)
    ct, ss = kem.encaps(ek, name)
    assert kem.decaps(dk, ct, name) == ss
    p = kem.params(name)
    assert (len(ek), len(dk), len(ct), len(ss)) == (p["ek_bytes"], p["dk_bytes"],
                                                    p["ct_bytes"], p["ss_bytes"])


def test_errors_are_exceptions_with_codes():
    ek, dk = kem.keygen("ML-KEM-512")
    with pytest.raises(pqpan.PqpanError) as e:
        kem.encaps(ek[:-1], "ML-KEM-512")
    assert e.value.name == "PQPAN_ERR_BAD_LENGTH"
    with pytest.raises(pqpan.PqpanError) as e:
        kem.encaps(b"\xff" * len(ek), "ML-KEM-512")  # coefficients >= q: FIPS 203 §7.2
    assert e.value.name == "PQPAN_ERR_BAD_KEY" and e.value.code == -3
    bad_dk = bytearray(dk)
    bad_dk[-40] ^= 1  # the stored H(ek): FIPS 203 §7.3 hash check
    ct, _ = kem.encaps(ek, "ML-KEM-512")
    with pytest.raises(pqpan.PqpanError) as e:
        kem.decaps(bytes(bad_dk), ct, "ML-KEM-512")
    assert e.value.name == "PQPAN_ERR_BAD_KEY"
    with pytest.raises(pqpan.PqpanError) as e:
        kem.keygen("ML-KEM-999")
    assert e.value.name == "PQPAN_ERR_NOT_FOUND"
    with pytest.raises(pqpan.PqpanError):
        kem.decaps("not bytes", ct, "ML-KEM-512")
